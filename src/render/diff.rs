//! Renders `diff` results as a table or JSON: the changes, then the facts known on one side
//! only, apart, since they are not changes.

use std::io::{self, Write};

use schemars::JsonSchema;
use serde::Serialize;

use crate::diff::{Change, Diff};
use crate::render::json::{write_value, Layout};
use crate::render::layout::{Grid, StatusColumn};
use crate::render::style::Tone;
use crate::render::table;
use crate::render::verdict::{Summary, Verdict};
use crate::render::view::Term;

/// Output formats of `diff`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffFormat {
    /// Readable table.
    Table,
    /// JSON: changes, facts unknown on one side, summary.
    Json,
}

/// The JSON document of `diff --format json`.
#[derive(Serialize, JsonSchema)]
pub struct DiffJson<'a> {
    /// Facts known in both reports whose values differ, hardware first.
    changes: &'a [Change],
    /// Facts known in one report only: not compared, never a change.
    unknown_on_one_side: &'a [Change],
    summary: SummaryJson,
}

/// The diff in numbers.
#[derive(Serialize, JsonSchema)]
struct SummaryJson {
    hardware_changes: usize,
    software_changes: usize,
    /// Changes of USB and removable media, which are not the machine's.
    removable_changes: usize,
    /// Health counters that grew (errors, wear, throttling): shown, failing nothing.
    health_changes: usize,
    /// Measured figures (`bench`) that fell by more than 10 %: shown, failing nothing.
    #[serde(default, skip_serializing_if = "is_zero")]
    measured_changes: usize,
    unknown_on_one_side: usize,
    /// The exit code of the run: 0 no hardware change, 1 hardware changed, 3 no change seen
    /// but hardware facts known in one report only.
    exit_code: u8,
}

/// Writes the diff as its JSON document (`--format json`; `Layout::Compact` for
/// `--compact`).
pub fn write_json(d: &Diff, layout: Layout, out: &mut dyn Write) -> io::Result<()> {
    let n = Counts::of(d);
    let doc = DiffJson {
        changes: &d.changes,
        unknown_on_one_side: &d.unknown_on_one_side,
        summary: SummaryJson {
            hardware_changes: n.hardware,
            software_changes: n.software,
            removable_changes: n.removable,
            health_changes: n.health,
            measured_changes: n.measured,
            unknown_on_one_side: d.unknown_on_one_side.len(),
            exit_code: d.exit_code(),
        },
    };
    write_value(&doc, layout, out)
}

/// Writes the diff in `format`; the table fits `term`, the class of each change painted.
pub fn write(
    d: &Diff,
    format: DiffFormat,
    term: impl Into<Term>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let term = &term.into();
    match format {
        DiffFormat::Json => write_json(d, Layout::Pretty, out),
        DiffFormat::Table => {
            if !d.changes.is_empty() {
                write!(
                    out,
                    "{}",
                    table::grid(&grid(&d.changes, "Change", true), term)
                )?;
                writeln!(out)?;
            }
            if !d.unknown_on_one_side.is_empty() {
                write!(
                    out,
                    "{}",
                    table::line("Unknown on one side (not compared, not a change):", term)
                )?;
                let g = grid(&d.unknown_on_one_side, "Fact", false);
                write!(out, "{}", table::grid(&g, term))?;
                writeln!(out)?;
            }
            write!(out, "{}", summary(d).lines_within(term.color, term.width))
        }
    }
}

/// The changes (or facts) as a table; `painted` colours the class of each: a hardware change
/// is what makes `diff` exit 1.
fn grid(changes: &[Change], what: &str, painted: bool) -> Grid {
    let mut g = Grid::new(&["Class", what, "Where", "Before", "After"]);
    for c in changes {
        g.rows.push(vec![
            c.class.to_string(),
            c.what.clone(),
            c.at.clone(),
            c.before.clone(),
            c.after.clone(),
        ]);
    }
    if painted {
        g.status = Some(StatusColumn {
            column: 0,
            tones: changes
                .iter()
                .map(|c| match c.class {
                    "hardware" => Tone::Bad,
                    _ => Tone::Warn,
                })
                .collect(),
        });
    }
    g
}

/// The changes counted by class. A removable medium (a USB stick, a card) is neither the
/// machine's hardware, which fails `diff`, nor its software: it is counted apart.
struct Counts {
    hardware: usize,
    software: usize,
    removable: usize,
    health: usize,
    measured: usize,
}

/// For serde: a count of 0 is left out.
fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl Counts {
    fn of(d: &Diff) -> Self {
        let class = |name: &str| d.changes.iter().filter(|c| c.class == name).count();
        Counts {
            hardware: class("hardware"),
            software: class("software"),
            removable: class("removable"),
            health: class("health"),
            measured: class("measured"),
        }
    }
}

/// The summary line: `FAIL: 24 hardware changes, 2 software changes` (a hardware change is
/// what makes `diff` exit 1), or `INCOMPLETE: 0 hardware changes, 0 software changes, 2
/// unknown on one side` when hardware facts are known in one report only (exit 3).
/// Removable media changes, and health counters that grew, are counted apart when there
/// are any: neither is a change of the machine's hardware.
pub fn summary(d: &Diff) -> Summary {
    let n = Counts::of(d);
    let verdict = if n.hardware > 0 {
        Verdict::Fail
    } else if d.is_incomplete() {
        Verdict::Incomplete
    } else {
        Verdict::Pass
    };
    let mut s = Summary::new(verdict)
        .counted(n.hardware, "hardware change", "hardware changes")
        .counted(n.software, "software change", "software changes");
    if n.removable > 0 {
        s = s.counted(
            n.removable,
            "removable medium change",
            "removable media changes",
        );
    }
    if n.health > 0 {
        s = s.counted(n.health, "health counter grew", "health counters grew");
    }
    if n.measured > 0 {
        s = s.counted(n.measured, "measured figure fell", "measured figures fell");
    }
    if !d.unknown_on_one_side.is_empty() {
        s = s.count(d.unknown_on_one_side.len(), "unknown on one side");
    }
    s
}
