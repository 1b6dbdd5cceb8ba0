//! Text rules shared across layers: escaping for markup (one function for HTML, SVG and
//! XML, so every writer treats hostile firmware strings the same way) and the comparison of
//! GPU product names.

/// True when two product names are the same board as nvidia-smi would print it: case, spacing
/// and the `NVIDIA ` prefix that older drivers leave off GeForce names do not count.
pub fn same_product_name(a: &str, b: &str) -> bool {
    fn norm(s: &str) -> String {
        let words: Vec<String> = s.split_whitespace().map(str::to_lowercase).collect();
        let words = match words.first().map(String::as_str) {
            Some("nvidia") => &words[1..],
            _ => &words[..],
        };
        words.join(" ")
    }
    norm(a) == norm(b)
}

/// Escapes text for HTML, SVG and XML, in element content and in quoted attributes.
/// Control characters (not allowed in XML; firmware strings sometimes hold them) become
/// U+FFFD.
pub fn escape_markup(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup_quotes_and_control_characters() {
        assert_eq!(
            escape_markup(r#"<script>"a" & 'b'</script>"#),
            "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;"
        );
        assert_eq!(escape_markup("To Be Filled\u{1}"), "To Be Filled\u{fffd}");
        assert_eq!(escape_markup("a\tb\nc"), "a\tb\nc");
    }
}
