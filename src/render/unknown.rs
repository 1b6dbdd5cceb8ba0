//! How an unknown value looks in the human formats: one word, the same everywhere (JSON uses
//! `null`).

/// Text shown for an unknown value in human formats (JSON uses `null`).
pub const UNKNOWN: &str = "unknown";

/// `Some(v)` shown with `f`, or `unknown`.
pub fn show<T>(v: Option<T>, f: impl FnOnce(T) -> String) -> String {
    v.map(f).unwrap_or_else(|| UNKNOWN.to_string())
}

/// `Some(s)` or `unknown`.
pub fn show_str(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| UNKNOWN.to_string())
}
