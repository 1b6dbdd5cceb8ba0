//! Writes a preflight `Report`: an aligned table for people, or JSON for scripts.

use std::io::{self, Write};

use tabled::builder::Builder;
use tabled::settings::Style;

use crate::preflight::{Report, Status};
use crate::render::style::{paint, Tone};

/// Preflight report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreflightFormat {
    /// One aligned line per check.
    Table,
    /// `{status, exit_code, checks: [{id, subject, status, found, expected, advice}]}`.
    Json,
}

/// Writes `report` in `format`.
pub fn write(
    report: &Report,
    format: PreflightFormat,
    color: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        PreflightFormat::Table => table(report, color, out),
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

/// One line per check: status, check id, subject, value found, expected, fix or note.
/// The status word is coloured when `color` (green pass, yellow warn, red fail).
pub fn table(report: &Report, color: bool, out: &mut dyn Write) -> io::Result<()> {
    let mut b = Builder::default();
    b.push_record(["STATUS", "CHECK", "ON", "FOUND", "WANTED", "FIX / NOTE"]);
    for c in &report.checks {
        let status = paint(c.status.as_str(), tone(c.status), color);
        b.push_record([
            status,
            c.id.to_string(),
            c.subject.clone().unwrap_or_default(),
            c.found.clone(),
            c.expected.clone().unwrap_or_default(),
            c.advice.clone().unwrap_or_default(),
        ]);
    }
    let mut t = b.build();
    t.with(Style::blank());
    writeln!(out, "{t}")?;
    let n = |s: Status| report.checks.iter().filter(|c| c.status == s).count();
    writeln!(
        out,
        "\n{} failed, {} warnings, {} passed, {} skipped: {}",
        n(Status::Fail),
        n(Status::Warn),
        n(Status::Pass),
        n(Status::Skip),
        if report.exit_code == 0 {
            "ready (exit 0)"
        } else {
            "NOT ready (exit 1)"
        }
    )
}

/// The report as pretty JSON with a trailing newline.
pub fn json(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, report).map_err(io::Error::other)?;
    writeln!(out)
}
