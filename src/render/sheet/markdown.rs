//! The sheet as GitHub-flavoured Markdown: tables, and the topology as a nested list.

use std::io::{self, Write};

use super::order::{verify_section, Verify};
use super::sections::{byline, detail_sections, glance, heading, notes_section};
use super::topology::topology;
use super::words::topology_lines;
use crate::render::markdown::{escape, write_section};
use crate::rules::Finding;
use crate::spec::Spec;

/// Writes the sheet as GitHub-flavoured Markdown: tables, and the topology as a nested list.
pub fn write(
    spec: &Spec,
    attention: &[Finding],
    verify: Option<&Verify>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let topo = topology(spec);
    writeln!(out, "# {}\n", escape(&heading(spec)))?;
    writeln!(out, "{}", escape(&byline(spec)))?;
    write_section(&glance(spec, attention), out)?;
    if let Some(v) = verify {
        write_section(&verify_section(v), out)?;
    }
    writeln!(out, "\n## Topology\n")?;
    for (head, sub) in topology_lines(&topo) {
        writeln!(out, "- **{}**", escape(&head))?;
        for l in sub {
            writeln!(out, "  - {}", escape(&l))?;
        }
    }
    for s in detail_sections(spec, &topo) {
        write_section(&s, out)?;
    }
    if let Some(n) = notes_section(spec) {
        write_section(&n, out)?;
    }
    Ok(())
}
