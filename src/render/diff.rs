//! Renders `diff` results as a table or JSON: the changes, then the facts known on one side
//! only, apart, since they are not changes.

use std::io::{self, Write};

use serde::Serialize;

use crate::diff::{Change, Diff};
use crate::render::report::Grid;
use crate::render::style::{paint, Tone};
use crate::render::table;

/// Output formats of `diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffFormat {
    /// Readable table.
    Table,
    /// JSON: changes, facts unknown on one side, summary.
    Json,
}

/// The JSON document of `diff --format json`.
#[derive(Serialize)]
struct DiffJson<'a> {
    changes: &'a [Change],
    unknown_on_one_side: &'a [Change],
    summary: SummaryJson,
}

#[derive(Serialize)]
struct SummaryJson {
    hardware_changes: usize,
    software_changes: usize,
    unknown_on_one_side: usize,
    exit_code: u8,
}

/// Writes the diff in `format`; `color` paints the class of each change in the table.
pub fn write(d: &Diff, format: DiffFormat, color: bool, out: &mut dyn Write) -> io::Result<()> {
    let hw = d.changes.iter().filter(|c| c.class == "hardware").count();
    match format {
        DiffFormat::Json => {
            let doc = DiffJson {
                changes: &d.changes,
                unknown_on_one_side: &d.unknown_on_one_side,
                summary: SummaryJson {
                    hardware_changes: hw,
                    software_changes: d.changes.len() - hw,
                    unknown_on_one_side: d.unknown_on_one_side.len(),
                    exit_code: d.exit_code(),
                },
            };
            serde_json::to_writer_pretty(&mut *out, &doc)?;
            writeln!(out)
        }
        DiffFormat::Table => {
            let tone = |class: &str| match class {
                "hardware" => Tone::Bad,
                _ => Tone::Warn,
            };
            if d.changes.is_empty() {
                writeln!(out, "no changes")?;
            } else {
                let mut g = Grid::new(&["Class", "Change", "Where", "Before", "After"]);
                for c in &d.changes {
                    g.rows.push(vec![
                        paint(c.class, tone(c.class), color),
                        c.what.clone(),
                        c.at.clone(),
                        c.before.clone(),
                        c.after.clone(),
                    ]);
                }
                writeln!(out, "{}", table::grid(&g))?;
            }
            if !d.unknown_on_one_side.is_empty() {
                writeln!(out, "\nUnknown on one side (not compared, not a change):")?;
                let mut g = Grid::new(&["Class", "Fact", "Where", "Before", "After"]);
                for c in &d.unknown_on_one_side {
                    g.rows.push(vec![
                        c.class.to_string(),
                        c.what.clone(),
                        c.at.clone(),
                        c.before.clone(),
                        c.after.clone(),
                    ]);
                }
                writeln!(out, "{}", table::grid(&g))?;
            }
            if d.changes.is_empty() && d.unknown_on_one_side.is_empty() {
                return Ok(());
            }
            writeln!(
                out,
                "{hw} hardware change(s), {} software change(s), {} fact(s) unknown on one side",
                d.changes.len() - hw,
                d.unknown_on_one_side.len()
            )
        }
    }
}
