//! Markdown renderer: GitHub-flavoured tables, never coloured. One section writer for the
//! inventory report and the spec sheet.

use std::io::{self, Write};

use crate::render::layout::{Grid, Section};

/// Writes a title and sections as Markdown.
pub fn write(title: &str, sections: &[Section], out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "# {}", escape(title))?;
    for s in sections {
        write_section(s, out)?;
    }
    Ok(())
}

/// One section: its title, its fields as a two-column table, then its grids, each table
/// apart from the one before it (GitHub joins tables with no blank line between them).
pub fn write_section(s: &Section, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "\n## {}\n", escape(&s.title))?;
    if !s.fields.is_empty() {
        writeln!(out, "| Field | Value |\n| --- | --- |")?;
        for (k, v) in &s.fields {
            writeln!(out, "| {} | {} |", escape(k), escape(v))?;
        }
    }
    for (i, g) in s.grids.iter().enumerate() {
        if i > 0 || !s.fields.is_empty() {
            writeln!(out)?;
        }
        write_grid(g, out)?;
    }
    Ok(())
}

/// One grid as a Markdown table.
pub fn write_grid(g: &Grid, out: &mut dyn Write) -> io::Result<()> {
    let row = |cells: &[String]| {
        format!(
            "| {} |",
            cells
                .iter()
                .map(|c| escape(c))
                .collect::<Vec<_>>()
                .join(" | ")
        )
    };
    writeln!(out, "{}", row(&g.header))?;
    writeln!(out, "|{}", " --- |".repeat(g.header.len()))?;
    for r in &g.rows {
        writeln!(out, "{}", row(r))?;
    }
    Ok(())
}

/// Escapes text for a Markdown table cell, a heading or a line of prose, so what a machine or
/// a stranger's report says shows as written and never as Markdown of its own: no link or
/// image (`[x](y)`, `![x](y)`), emphasis (`*`, `_`, `~`), code span, heading (`#`), quote
/// (`>`), HTML (`<`), entity (`&`), table cell break (`|`), and no autolink (`https://`,
/// `www.`, `user@host`), which GitHub makes of bare text. The text is one line: a newline
/// becomes a space (a cell may hold two lines of a note), any other line break or
/// bidirectional control U+FFFD (`text::one_line`).
pub fn escape(s: &str) -> String {
    let joined = s.replace('\n', " ");
    let line = crate::text::one_line(&joined);
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len() + 8);
    for (i, &c) in chars.iter().enumerate() {
        let before = |n: usize| i.checked_sub(n).and_then(|k| chars.get(k)).copied();
        let after = |n: usize| chars.get(i + n).copied();
        match c {
            '<' => out.push_str("&lt;"),
            '&' => out.push_str("&amp;"),
            // Inside a word (`x86_64`, `base_frequency`) `_` is no emphasis in GitHub's
            // Markdown, so it is left as written there.
            '_' if before(1).is_some_and(char::is_alphanumeric)
                && after(1).is_some_and(char::is_alphanumeric) =>
            {
                out.push(c)
            }
            '\\' | '|' | '`' | '*' | '_' | '~' | '[' | ']' | '#' | '>' | '!' => {
                out.push('\\');
                out.push(c);
            }
            // `scheme://`: GitHub links it with no brackets around; an escaped colon is text.
            ':' if after(1) == Some('/') && after(2) == Some('/') => out.push_str("\\:"),
            // `www.example.com`: the dot after a word-initial `www` starts an autolink.
            '.' if i >= 3
                && chars[i - 3..i].iter().all(|w| w.eq_ignore_ascii_case(&'w'))
                && before(4).is_none_or(|p| !p.is_alphanumeric()) =>
            {
                out.push_str("\\.")
            }
            // `user@host.tld`: an address right before the `@` is linked as mail.
            '@' if before(1).is_some_and(|p| p.is_alphanumeric() || ".-_+".contains(p)) => {
                out.push_str("\\@")
            }
            c => out.push(c),
        }
    }
    out
}
