//! The order check as the sheet shows it: a profile's name and one row per requirement,
//! with the status kept as an enum until it is written.

use crate::outcome::Outcome;
use crate::render::layout::{Grid, Section, StatusColumn};
use crate::render::verdict::{rank, CHECK, EXPECTED, FOUND, NOTE, STATUS};
use crate::render::verify::{self, tone};
use crate::verify::{Status, Summary, VerifyReport};

/// One line of an order check (`verify --profile`), as the sheet shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyRow {
    /// What the order asks about, e.g. `GPU count`.
    pub requirement: String,
    /// What the order says, e.g. `2 × Quadro RTX 6000`.
    pub expected: String,
    /// What the machine has.
    pub found: String,
    pub status: Status,
    /// Why, or what was not compared (`no Quadro RTX 8000 on this machine; not compared: GPU
    /// memory, ...`), as verify writes under the row.
    pub note: Option<String>,
}

/// An order check to print on the sheet: the profile's name and its rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verify {
    /// Profile name or file the rows come from.
    pub profile: String,
    /// One row per requirement, in the profile's order.
    pub rows: Vec<VerifyRow>,
    /// The verdict of `verify`: pass, fail, or incomplete when a line could not be read.
    pub outcome: Outcome,
    /// verify's own counts of the rows, as its summary line gives them.
    pub summary: Summary,
}

impl Verify {
    /// The sheet's view of a verify report.
    pub fn from_report(report: &VerifyReport) -> Self {
        Verify {
            profile: report.profile.clone(),
            rows: report
                .lines
                .iter()
                .map(|l| VerifyRow {
                    requirement: l.requirement.clone(),
                    expected: l.expected.clone(),
                    found: l.found.clone(),
                    status: l.status,
                    note: l.note.clone(),
                })
                .collect(),
            outcome: report.outcome,
            summary: report.summary.clone(),
        }
    }
}

/// The order check as a section: the summary line of `verify` in the fields, then the check
/// table, failures first, with the column names every check table uses.
pub fn verify_section(v: &Verify) -> Section {
    let mut rows: Vec<&VerifyRow> = v.rows.iter().collect();
    rows.sort_by_key(|r| rank(tone(r.status)));
    // A note column where any row has one: what a failing GPU line did not compare is part
    // of its answer.
    let notes = rows.iter().any(|r| r.note.is_some());
    let mut header = vec![STATUS, CHECK, EXPECTED, FOUND];
    if notes {
        header.push(NOTE);
    }
    let mut g = Grid::new(&header);
    let mut tones = Vec::new();
    for r in &rows {
        let mut row = vec![
            r.status.as_str().to_string(),
            r.requirement.clone(),
            r.expected.clone(),
            r.found.clone(),
        ];
        if notes {
            row.push(r.note.clone().unwrap_or_default());
        }
        g.rows.push(row);
        tones.push(tone(r.status));
    }
    g.status = Some(StatusColumn { column: 0, tones });
    let summary = verify::counts(v.outcome, &v.summary, None);
    let mut sec = Section::new("Order check");
    sec.field("Profile", v.profile.clone())
        .field("Result", summary.line(false));
    sec.grids.push(g);
    sec
}
