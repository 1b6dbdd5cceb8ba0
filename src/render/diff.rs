//! Renders `diff` results as a table or JSON.

use std::io::{self, Write};

use crate::diff::Change;
use crate::render::report::Grid;
use crate::render::table;
use crate::render::verdict::{Summary, Verdict};
use crate::render::view::Term;

/// Output formats of `diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffFormat {
    /// Readable table.
    Table,
    /// JSON list of changes.
    Json,
}

/// Writes the changes in `format`; the table fits `term`.
pub fn write(
    changes: &[Change],
    format: DiffFormat,
    term: impl Into<Term>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let term = &term.into();
    match format {
        DiffFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, changes)?;
            writeln!(out)
        }
        DiffFormat::Table => {
            if !changes.is_empty() {
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
                write!(out, "{}", table::grid(&g, term))?;
                writeln!(out)?;
            }
            write!(
                out,
                "{}",
                table::line(&summary(changes).line(term.color), term)
            )
        }
    }
}

/// The summary line: `FAIL: 24 hardware changes, 2 software changes` (a hardware change is
/// what makes `diff` exit 1).
pub fn summary(changes: &[Change]) -> Summary {
    let hw = changes.iter().filter(|c| c.class == "hardware").count();
    let sw = changes.len() - hw;
    Summary::new(if hw > 0 { Verdict::Fail } else { Verdict::Pass })
        .counted(hw, "hardware change", "hardware changes")
        .counted(sw, "software change", "software changes")
}
