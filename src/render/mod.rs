//! Renderers: turn a `Spec` into text. Nothing here reads the machine or decides pass/fail.
//!
//! Table and Markdown share the section/row building in `report`, so both show the same
//! facts in the same order and show unknowns the same way.

pub mod diagram;
pub mod diff;
pub mod fleet;
pub mod html;
pub mod json;
pub mod markdown;
pub mod nfd;
pub mod prometheus;
pub mod report;
pub mod sheet;
pub mod table;
pub mod verify;

use std::io::{self, Write};

use crate::cli::Format;
use crate::spec::Spec;

/// Text shown for an unknown value in human formats (JSON uses `null`).
pub const UNKNOWN: &str = "unknown";

/// Writes the inventory of `spec` in `format`.
pub fn inventory(spec: &Spec, format: Format, color: bool, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Json => json::write(spec, out),
        Format::Table => table::write(&report::sections(spec), color, out),
        Format::Markdown => markdown::write(&report::title(spec), &report::sections(spec), out),
        Format::Prometheus => prometheus::write_machine(spec, None, None, out),
        Format::Nfd => nfd::write(spec, None, out),
    }
}

/// Writes the inventory of `spec` in `format`, with the result of a profile check where the
/// format carries one (Prometheus: the verify gauges; NFD: `verified=<profile>`).
pub fn inventory_checked(
    spec: &Spec,
    format: Format,
    verify: Option<&crate::verify::VerifyReport>,
    color: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Prometheus => prometheus::write_machine(spec, verify, None, out),
        Format::Nfd => nfd::write(spec, verify, out),
        _ => inventory(spec, format, color, out),
    }
}

/// `Some(v)` shown with `f`, or `unknown`.
pub fn show<T>(v: Option<T>, f: impl FnOnce(T) -> String) -> String {
    v.map(f).unwrap_or_else(|| UNKNOWN.to_string())
}

/// `Some(s)` or `unknown`.
pub fn show_str(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| UNKNOWN.to_string())
}

/// Binary size as people read RAM and VRAM: `24 GiB`, `1.5 MiB`, `512 KiB`.
pub fn bytes_bin(n: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    trim_number(v, UNITS[u])
}

/// Decimal size as drive vendors print it: `1 TB`, `960.2 GB`.
pub fn bytes_dec(n: u64) -> String {
    const UNITS: [&str; 6] = ["B", "kB", "MB", "GB", "TB", "PB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1000.0 && u + 1 < UNITS.len() {
        v /= 1000.0;
        u += 1;
    }
    trim_number(v, UNITS[u])
}

fn trim_number(v: f64, unit: &str) -> String {
    let s = format!("{v:.1}");
    let s = s.strip_suffix(".0").unwrap_or(&s);
    format!("{s} {unit}")
}

/// MHz as `3100 MHz`.
pub fn mhz(v: u32) -> String {
    format!("{v} MHz")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes() {
        assert_eq!(bytes_bin(24 * 1024 * 1024 * 1024), "24 GiB");
        assert_eq!(bytes_bin(1536 * 1024), "1.5 MiB");
        assert_eq!(bytes_dec(1_000_204_886_016), "1 TB");
        assert_eq!(bytes_dec(960_197_124_096), "960.2 GB");
        assert_eq!(bytes_bin(0), "0 B");
    }
}
