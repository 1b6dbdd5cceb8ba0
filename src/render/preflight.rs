//! Writes a preflight `Report`: a check table for people (failures first, fitted to the
//! terminal, the summary line last), or JSON for scripts.

use std::io::{self, Write};

use crate::preflight::{Report, Status};
use crate::render::layout::{Grid, StatusColumn};
use crate::render::style::Tone;
use crate::render::table;
use crate::render::verdict::{
    plural, rank, Summary, Verdict, CHECK, EXPECTED, FOUND, NOTE, STATUS,
};
use crate::render::view::Term;

/// Preflight report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreflightFormat {
    /// One aligned line per check.
    Table,
    /// `{status, exit_code, checks: [{id, subject, status, found, expected, advice}]}`.
    Json,
}

/// Writes `report` in `format`; the table fits `term`.
pub fn write(
    report: &Report,
    format: PreflightFormat,
    term: impl Into<Term>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let term = &term.into();
    match format {
        PreflightFormat::Table => table(report, term, out),
        PreflightFormat::Json => json(report, out),
    }
}

/// The tone a preflight status is painted in.
pub fn tone(s: Status) -> Tone {
    match s {
        Status::Pass => Tone::Good,
        Status::Skip => Tone::Muted,
        Status::Warn => Tone::Warn,
        Status::Fail => Tone::Bad,
    }
}

/// One row per check, failures first: status, check id, what it is on, expected, found, the
/// fix or a note; then the summary line. The status word is coloured when colour is on.
pub fn table(report: &Report, term: &Term, out: &mut dyn Write) -> io::Result<()> {
    let mut checks: Vec<_> = report.checks.iter().collect();
    checks.sort_by_key(|c| rank(tone(c.status)));
    let mut g = Grid::new(&[STATUS, CHECK, "On", EXPECTED, FOUND, NOTE]);
    for c in &checks {
        g.rows.push(vec![
            c.status.as_str().to_string(),
            c.id.to_string(),
            c.subject.clone().unwrap_or_default(),
            c.expected.clone().unwrap_or_default(),
            c.found.clone(),
            c.advice.clone().unwrap_or_default(),
        ]);
    }
    g.note_below = true;
    g.status = Some(StatusColumn {
        column: 0,
        tones: checks.iter().map(|c| tone(c.status)).collect(),
    });
    write!(out, "{}", table::grid(&g, term))?;
    writeln!(out)?;
    write!(
        out,
        "{}",
        table::line(&summary(report).line(term.color), term)
    )
}

/// The summary line: `FAIL: 3 fail, 4 warn, 12 pass, 8 skip · 27 checks · not ready to
/// train`.
pub fn summary(report: &Report) -> Summary {
    let n = |s: Status| report.checks.iter().filter(|c| c.status == s).count();
    let ready = report.exit_code == 0;
    Summary::new(if ready { Verdict::Pass } else { Verdict::Fail })
        .count(n(Status::Fail), Status::Fail.as_str())
        .count(n(Status::Warn), Status::Warn.as_str())
        .count(n(Status::Pass), Status::Pass.as_str())
        .count(n(Status::Skip), Status::Skip.as_str())
        .scope(plural(report.checks.len(), "check", "checks"))
        .scope(if ready {
            "ready to train"
        } else {
            "not ready to train"
        })
}

/// The report as pretty JSON with a trailing newline.
pub fn json(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report).map_err(io::Error::other)?;
    writeln!(out)
}
