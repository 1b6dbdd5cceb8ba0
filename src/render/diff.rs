//! Renders `diff` results as a table or JSON.

use std::io::{self, Write};

use crate::diff::Change;
use crate::render::report::Grid;
use crate::render::table;

/// Output formats of `diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffFormat {
    /// Readable table.
    Table,
    /// JSON list of changes.
    Json,
}

/// Writes the changes in `format`.
pub fn write(changes: &[Change], format: DiffFormat, out: &mut dyn Write) -> io::Result<()> {
    match format {
        DiffFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, changes)?;
            writeln!(out)
        }
        DiffFormat::Table => {
            if changes.is_empty() {
                return writeln!(out, "no changes");
            }
            let mut g = Grid::new(&["Class", "Change", "Where", "Before", "After"]);
            for c in changes {
                g.rows.push(vec![
                    c.class.to_string(),
                    c.what.clone(),
                    c.at.clone(),
                    c.before.clone(),
                    c.after.clone(),
                ]);
            }
            writeln!(out, "{}", table::grid(&g))?;
            let hw = changes.iter().filter(|c| c.class == "hardware").count();
            writeln!(
                out,
                "{hw} hardware change(s), {} software change(s)",
                changes.len() - hw
            )
        }
    }
}
