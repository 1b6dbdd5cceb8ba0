//! Writes a preflight `Report`: a check table for people (failures first, fitted to the
//! terminal, the summary line last), or JSON for scripts.

use std::io::{self, Write};

use crate::preflight::{Report, Status};
use crate::render::layout::{Grid, StatusColumn};
use crate::render::style::{bold, paint, Tone};
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

/// A check's name in words, as verify names its lines; the id stays in JSON for scripts.
pub fn label(id: &str) -> &str {
    match id {
        "gpu.count" => "GPUs a job can use",
        "gpu.free_vram" => "Free GPU memory",
        "gpu.processes" => "Processes on the GPU",
        "gpu.temperature" => "GPU temperature",
        "gpu.throttle" => "GPU clocks held down",
        "gpu.pcie" => "GPU PCIe link",
        "gpu.ecc" => "GPU memory errors (ECC)",
        "gpu.persistence" => "GPU persistence mode",
        "gpu.driver" => "NVIDIA driver version",
        "gpu.cuda" => "CUDA version",
        "cpu.workers" => "CPUs for data-loader workers",
        "cpu.governor" => "CPU frequency governor",
        "cpu.numa" => "NUMA placement",
        "mem.available" => "Memory available",
        "mem.installed" => "Memory installed",
        "mem.shm" => "Shared memory (/dev/shm)",
        "mem.swap" => "Swap",
        "disk.free" => "Free disk space",
        "disk.kind" => "Disk kind",
        "os.open_files" => "Open-file limit",
        "os.thp" => "Transparent huge pages",
        other => other,
    }
}

/// The answer in one line, before the table: the verdict and what stands in the way, in
/// words (`FAIL: not ready to train: GPUs a job can use: NVIDIA driver not installed: …`).
pub fn answer(report: &Report, color: bool) -> String {
    let s = summary(report);
    let word = paint(s.verdict.word(), s.verdict.tone(), color);
    let failed: Vec<String> = report
        .checks
        .iter()
        .filter(|c| c.status == Status::Fail)
        .map(|c| {
            let what = match &c.subject {
                Some(on) => format!("{} ({on})", label(c.id)),
                None => label(c.id).to_string(),
            };
            match &c.advice {
                Some(a) => format!("{what}: {a}"),
                None => format!("{what}: {}", c.found),
            }
        })
        .collect();
    if failed.is_empty() {
        let warns = report
            .checks
            .iter()
            .filter(|c| c.status == Status::Warn)
            .count();
        if warns == 0 {
            format!("{word}: ready to train")
        } else {
            format!(
                "{word}: ready to train, with {}",
                plural(warns, "warning", "warnings")
            )
        }
    } else {
        format!(
            "{word}: not ready to train: {}",
            crate::text::one_line(&failed.join("; "))
        )
    }
}

/// The heading, the answer, then one row per check, failures first: status, check, what it
/// is on, expected, found, the fix or a note under its row; then the summary line. The status
/// word is coloured when colour is on.
pub fn table(report: &Report, term: &Term, out: &mut dyn Write) -> io::Result<()> {
    let host = report.hostname.as_deref().unwrap_or("unknown host");
    write!(
        out,
        "{}",
        table::line(
            &bold(&format!("preflight {host}: ready to train?"), term.color),
            term
        )
    )?;
    write!(out, "{}", table::line(&answer(report, term.color), term))?;
    writeln!(out)?;
    let mut checks: Vec<_> = report.checks.iter().collect();
    checks.sort_by_key(|c| rank(tone(c.status)));
    let mut g = Grid::new(&[STATUS, CHECK, "On", EXPECTED, FOUND, NOTE]);
    for c in &checks {
        g.rows.push(vec![
            c.status.as_str().to_string(),
            label(c.id).to_string(),
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
        table::line(&summary(report).line_within(term.color, term.width), term)
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
