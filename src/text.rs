//! Text from outside: cleaning what the machine or a stranger's report says before anything
//! shows it, escaping for markup (one function for HTML, SVG and XML: the spec sheet, its
//! diagram and charts, and JUnit reports), so every writer treats hostile firmware strings the
//! same way, the comparison of GPU product names, and `clip`, which shortens a stranger's
//! text before a note or an error quotes it, and `one_line`, the one rule for text shown where
//! a line break would start a line of its own (headings, summaries, attributes, labels).

use std::borrow::Cow;

use serde_json::Value;

/// True for a character that must not reach a terminal from a machine's strings: a control
/// character other than newline and tab, or a bidirectional control that reorders what is
/// shown (`is_bidi_control`).
fn is_hostile(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || is_bidi_control(c)
}

/// True when every byte is printable ASCII, newline or tab: text with nothing to clean,
/// told without decoding a character (most of what probes read, and every report).
pub fn plain_ascii(b: &[u8]) -> bool {
    // No early exit inside a chunk: the compiler then tests a chunk's bytes together.
    b.chunks(64).all(|chunk| {
        chunk.iter().fold(true, |plain, &c| {
            plain & ((b' '..=b'~').contains(&c) | (c == b'\n') | (c == b'\t'))
        })
    })
}

/// True for a bidirectional control: the marks (U+200E, U+200F, U+061C), the embeddings and
/// overrides (U+202A–U+202E) and the isolates (U+2066–U+2069). Each can make a line read in
/// an order other than the one it is written in.
pub fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
    )
}

/// True for a character a terminal, an editor or a log viewer may break a line at: newline,
/// carriage return, vertical tab, form feed, NEL (U+0085), and the Unicode line and paragraph
/// separators (U+2028, U+2029).
pub fn breaks_line(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0b}' | '\u{0c}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// True for what must not appear in one-line text: a line break, a bidirectional control, or
/// any other control character but tab.
fn breaks_one_line(c: char) -> bool {
    breaks_line(c) || is_bidi_control(c) || (c.is_control() && c != '\t')
}

/// Text for a one-line context (a heading, a summary or verdict line, an XML attribute, a
/// metric label, a comment line), wherever it came from: a profile's name, a host name, a
/// string in a stranger's report. Line breaks, bidirectional controls and other control
/// characters become U+FFFD, so the text can neither start a line of its own (a forged
/// `PASS` under the real verdict) nor reorder how the line reads, and the reader sees that
/// something was replaced. Borrowed when nothing needs replacing.
pub fn one_line(s: &str) -> Cow<'_, str> {
    if !s.chars().any(breaks_one_line) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(
        s.chars()
            .map(|c| if breaks_one_line(c) { '\u{fffd}' } else { c })
            .collect(),
    )
}

/// Text read from the machine or a report, cleaned of every terminal escape sequence
/// (colour, cursor movement, window titles, hidden text: CSI, OSC, DCS and the rest, as a
/// terminal would parse them) and with any other control character or bidirectional
/// override replaced by U+FFFD, so a DMI string cannot drive the terminal or hide in it.
/// Newlines and tabs are kept. Borrowed when there is nothing to clean.
pub fn clean(s: &str) -> Cow<'_, str> {
    if plain_ascii(s.as_bytes()) || !s.chars().any(is_hostile) {
        return Cow::Borrowed(s);
    }
    let stripped = anstream::adapter::strip_str(s).to_string();
    Cow::Owned(
        stripped
            .chars()
            .map(|c| if is_hostile(c) { '\u{fffd}' } else { c })
            .collect(),
    )
}

/// A JSON document with every string in it cleaned (`clean`), for reports and recorded
/// answers: in JSON an escape sequence hides as `\u001b`, which no byte-level cleaning sees.
/// Borrowed when nothing needs cleaning, and when the text is not JSON (its parser says what
/// is wrong with it).
pub fn clean_json(text: &str) -> Cow<'_, str> {
    if !may_hide_controls(text.as_bytes()) {
        return Cow::Borrowed(text);
    }
    let Ok(mut v) = serde_json::from_str::<Value>(text) else {
        return Cow::Borrowed(text);
    };
    if !clean_value(&mut v) {
        return Cow::Borrowed(text);
    }
    serde_json::to_string(&v).map_or(Cow::Borrowed(text), Cow::Owned)
}

/// A quick look for what `clean_json` must parse: a `\u` escape, DEL, a C1 control or a
/// bidirectional control written as UTF-8. Most reports have none, and a fleet of ten
/// thousand must not be parsed twice or crawled byte by byte: memchr jumps from one
/// candidate byte to the next.
fn may_hide_controls(b: &[u8]) -> bool {
    if memchr::memchr(0x7f, b).is_some() || memchr::memmem::find(b, "\u{61c}".as_bytes()).is_some()
    {
        return true;
    }
    let mut at = 0;
    while let Some(k) = b
        .get(at..)
        .and_then(|rest| memchr::memchr3(b'\\', 0xc2, 0xe2, rest))
    {
        let i = at + k;
        let hit = match b[i] {
            b'\\' => b.get(i + 1) == Some(&b'u'),
            0xc2 => b.get(i + 1).is_some_and(|n| (0x80..=0x9f).contains(n)),
            _ => matches!(
                (b.get(i + 1), b.get(i + 2)),
                (Some(0x80), Some(0x8e | 0x8f | 0xaa..=0xae)) | (Some(0x81), Some(0xa6..=0xa9))
            ),
        };
        if hit {
            return true;
        }
        // Every JSON escape but `\u` is two characters (`\\` among them): step over both.
        at = i + if b[i] == b'\\' { 2 } else { 1 };
    }
    false
}

/// Cleans every string (and object key) of `v`; true when one changed.
fn clean_value(v: &mut Value) -> bool {
    match v {
        Value::String(s) => match clean(s) {
            Cow::Owned(c) => {
                *s = c;
                true
            }
            Cow::Borrowed(_) => false,
        },
        Value::Array(a) => a.iter_mut().fold(false, |acc, x| clean_value(x) | acc),
        Value::Object(m) => {
            let mut changed = false;
            let keys: Vec<String> = m.keys().cloned().collect();
            for k in keys {
                if let Cow::Owned(c) = clean(&k) {
                    if let Some(val) = m.remove(&k) {
                        m.insert(c, val);
                        changed = true;
                    }
                }
            }
            m.values_mut().fold(changed, |acc, x| clean_value(x) | acc)
        }
        _ => false,
    }
}

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

/// Shortens hostile text before it goes into a note (a 10 GB line must not become one).
pub fn clip(text: &str) -> String {
    const MAX: usize = 60;
    let cleaned: String = text
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .take(MAX + 1)
        .collect();
    if cleaned.chars().count() > MAX {
        format!("{}…", cleaned.chars().take(MAX).collect::<String>())
    } else {
        cleaned
    }
}

/// Case-insensitive, without trademark marks and repeated spaces:
/// `Intel(R) Xeon(R) Gold 6254 CPU` -> `intel xeon gold 6254 cpu`.
pub fn norm_text(s: &str) -> String {
    // One pass: a mark is a space, spaces collapse, letters lower-cased as they come.
    let mut out = String::with_capacity(s.len());
    let mut space = true;
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        let mark = matches!(c, '(' | '®' | '™')
            .then(|| {
                ["(r)", "(tm)", "®", "™"].iter().find(|m| {
                    rest.get(..m.len())
                        .is_some_and(|h| h.eq_ignore_ascii_case(m))
                })
            })
            .flatten();
        let (is_space, len) = match mark {
            Some(m) => (true, m.len()),
            None => (c.is_whitespace(), c.len_utf8()),
        };
        if is_space {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.extend(c.to_lowercase());
        }
        rest = &rest[len..];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_compares_without_case_marks_or_repeated_spaces() {
        assert_eq!(
            norm_text("Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz"),
            "intel xeon gold 6254 cpu @ 3.10ghz"
        );
        assert_eq!(
            norm_text("  AMD EPYC™ 7451 (TM) 24-Core  "),
            "amd epyc 7451 24-core"
        );
        assert_eq!(norm_text("Quadro® RTX\t6000"), "quadro rtx 6000");
        assert_eq!(norm_text("Überlänge (R&D)"), "überlänge (r&d)");
        assert_eq!(norm_text(""), "");
    }

    /// The short way past `clean` and `terminal_safe` takes printable ASCII, newline and tab
    /// only, wherever in a long text the first other byte is.
    #[test]
    fn plain_ascii_is_printable_ascii_newline_and_tab_only() {
        assert!(plain_ascii(b""));
        assert!(plain_ascii(b"model name\t: Intel(R) Xeon(R) Gold 6254 ~\n"));
        for bad in [b'\x1b', b'\r', 0x7f, 0x00, 0xc3, 0x9b] {
            for at in [0, 63, 64, 200] {
                let mut text = vec![b'a'; 201];
                text[at] = bad;
                assert!(!plain_ascii(&text), "{bad:#x} at {at}");
            }
        }
    }

    #[test]
    fn escape_sequences_are_removed_and_controls_replaced() {
        // A window title (OSC ... BEL), clear screen (CSI 2J), colour and hidden text (SGR),
        // a DCS string, a C1 CSI, a carriage return and a right-to-left override.
        assert_eq!(clean("HP Z8\u{1b}]0;pwned\u{7}\u{1b}[2J G4"), "HP Z8 G4");
        assert_eq!(clean("\u{1b}[31;8mred hidden\u{1b}[0m ok"), "red hidden ok");
        assert_eq!(clean("a\u{1b}P1$r\u{1b}\\b"), "ab");
        assert_eq!(clean("x\u{9b}2Jy"), "x\u{fffd}2Jy");
        assert_eq!(clean("ok\rfake"), "ok\u{fffd}fake");
        assert_eq!(clean("abc\u{202e}fed"), "abc\u{fffd}fed");
        assert_eq!(clean("two\nlines\tand a tab"), "two\nlines\tand a tab");
        assert!(matches!(
            clean("Quadro RTX 6000 · 24 GiB"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn json_strings_are_cleaned_where_escapes_hide() {
        let text = r#"{"system":{"product":"Z8\u001b[2J G4","vendor":"HP"},"n":[1,"a\u0007"]}"#;
        let v: Value = serde_json::from_str(&clean_json(text)).unwrap();
        assert_eq!(v["system"]["product"], "Z8 G4");
        assert_eq!(v["n"][1], "a");
        assert_eq!(v["system"]["vendor"], "HP");
        let plain = r#"{"a":"°C ≤ 80 → ok \\u"}"#;
        assert!(matches!(clean_json(plain), Cow::Borrowed(_)));
        // The look-ahead finds each kind of hiding place, and not an escaped backslash.
        assert!(may_hide_controls(br#""a\u001b""#));
        assert!(!may_hide_controls(br#""C:\\users""#));
        assert!(may_hide_controls(br#""\\\u0007""#));
        assert!(may_hide_controls("x\u{9b}".as_bytes()));
        assert!(may_hide_controls("x\u{202e}".as_bytes()));
        assert!(may_hide_controls("x\u{200f}".as_bytes()));
        assert!(may_hide_controls("x\u{61c}".as_bytes()));
        assert!(may_hide_controls("x\u{7f}".as_bytes()));
        assert!(!may_hide_controls("×·°→≥ ok".as_bytes()));
        assert!(!may_hide_controls(br"ends in \"));
        assert!(matches!(clean_json("not json \\u001b"), Cow::Borrowed(_)));
    }

    #[test]
    fn escapes_markup_quotes_and_control_characters() {
        assert_eq!(
            escape_markup(r#"<script>"a" & 'b'</script>"#),
            "&lt;script&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/script&gt;"
        );
        assert_eq!(escape_markup("To Be Filled\u{1}"), "To Be Filled\u{fffd}");
        assert_eq!(escape_markup("a\tb\nc"), "a\tb\nc");
    }

    #[test]
    fn one_line_replaces_breaks_and_bidi_controls() {
        for c in [
            '\n', '\r', '\u{0b}', '\u{0c}', '\u{85}', '\u{2028}', '\u{2029}', '\u{61c}',
            '\u{200e}', '\u{200f}', '\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}', '\u{1b}',
        ] {
            let s = format!("host{c}PASS: 0 fail");
            assert_eq!(one_line(&s), "host\u{fffd}PASS: 0 fail", "{:?}", c);
        }
        assert!(matches!(one_line("hp-z8 · 2×\tRTX"), Cow::Borrowed(_)));
        assert!(!breaks_line('\t') && !is_bidi_control('\u{200d}'));
    }

    #[test]
    fn clip_removes_control_and_cuts() {
        assert_eq!(clip("a\u{0}b"), "a?b");
        assert_eq!(clip(&"x".repeat(100)).chars().count(), 61);
    }
}
