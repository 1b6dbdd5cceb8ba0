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

/// Escapes text for a Markdown table cell.
pub fn escape(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('\n', " ")
        .replace('<', "&lt;")
}
