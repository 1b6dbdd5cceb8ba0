//! Writes a preflight `Report`: a check table for people (failures first, fitted to the
//! terminal, then the facts not checked, the summary line last), or JSON for scripts.

use std::io::{self, Write};

use crate::outcome::{EXIT_INCOMPLETE, EXIT_PASS};
use crate::preflight::{Report, Status};
use crate::render::json::{write_value, Layout};
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
    /// `{status, exit_code, checks: [{id, subject, status, found, expected, advice}],
    /// not_checked: [{id, subject, found, expected, advice}]}`.
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
        PreflightFormat::Json => json(report, Layout::Pretty, out),
    }
}

/// The tone a preflight status is painted in: an unknown as verify paints it.
pub fn tone(s: Status) -> Tone {
    match s {
        Status::Pass => Tone::Good,
        Status::Warn | Status::Unknown => Tone::Warn,
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
        "health.drive" => "Drive health",
        "health.memory" => "Memory errors (EDAC)",
        "health.pcie" => "PCIe errors (AER)",
        "health.cpu_throttle" => "CPU thermal throttling",
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
        .filter(|c| c.status == Some(Status::Fail))
        .map(|c| {
            let what = what(c.id, c.subject.as_deref());
            match &c.advice {
                Some(a) => format!("{what}: {a}"),
                None => format!("{what}: {}", c.found),
            }
        })
        .collect();
    let unknown: Vec<String> = report
        .checks
        .iter()
        .filter(|c| c.status == Some(Status::Unknown))
        .map(|c| what(c.id, c.subject.as_deref()))
        .collect();
    if failed.is_empty() && !unknown.is_empty() {
        let fix = report
            .to_complete
            .as_deref()
            .map(|f| format!(": {f}"))
            .unwrap_or_default();
        format!(
            "{word}: not known to be ready: could not read {}{fix}",
            crate::text::one_line(&unknown.join(", "))
        )
    } else if failed.is_empty() {
        let warns = report
            .checks
            .iter()
            .filter(|c| c.status == Some(Status::Warn))
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

/// A check's name and what it is on: `GPU temperature (GPU 0)`.
fn what(id: &str, subject: Option<&str>) -> String {
    match subject {
        Some(on) => format!("{} ({on})", label(id)),
        None => label(id).to_string(),
    }
}

/// The value and reason that facts not checked share.
type Shared<'a> = (&'a str, &'a str);
/// A check's label and the subjects it is on.
type Named<'a> = (&'a str, Vec<&'a str>);

/// The facts shown without a verdict, in one paragraph after the checks, the ones with the
/// same value and reason together: `Not checked: GPU memory errors (ECC) on GPU 0, GPU 1: ECC
/// off (…); Free disk space, Disk kind: not asked (pass --data PATH …).`
pub fn not_checked(report: &Report) -> Option<String> {
    if report.not_checked.is_empty() {
        return None;
    }
    // (found, why) → the names sharing them, each a label and the subjects it is on.
    let mut groups: Vec<(Shared, Vec<Named>)> = Vec::new();
    for c in &report.not_checked {
        let key = (c.found.as_str(), c.advice.as_deref().unwrap_or_default());
        let at = match groups.iter().position(|(k, _)| *k == key) {
            Some(at) => at,
            None => {
                groups.push((key, Vec::new()));
                groups.len() - 1
            }
        };
        let names = &mut groups[at].1;
        let name = label(c.id);
        match names.iter_mut().find(|(n, _)| *n == name) {
            Some((_, on)) => on.extend(c.subject.as_deref()),
            None => names.push((name, c.subject.as_deref().into_iter().collect())),
        }
    }
    let items: Vec<String> = groups
        .iter()
        .map(|((found, why), names)| {
            let names: Vec<String> = names
                .iter()
                .map(|(name, on)| {
                    if on.is_empty() {
                        name.to_string()
                    } else {
                        format!("{name} on {}", on.join(", "))
                    }
                })
                .collect();
            if why.is_empty() {
                format!("{}: {found}", names.join(", "))
            } else {
                format!("{}: {found} ({why})", names.join(", "))
            }
        })
        .collect();
    Some(format!("Not checked: {}.", items.join("; ")))
}

/// The heading, the answer, then one row per check, failures first: status, check, what it
/// is on, expected, found, the fix or a note under its row; then the facts not checked and
/// the summary line. The status word is coloured when colour is on.
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
    let status = |c: &crate::preflight::Check| c.status.unwrap_or(Status::Unknown);
    checks.sort_by_key(|c| (rank(tone(status(c))), status(c) == Status::Unknown));
    // "On" names the GPU or path a check is on; where no check is on one (a machine without
    // GPUs) the column would be empty, and its width is left to the others.
    let on = checks.iter().any(|c| c.subject.is_some());
    let header: Vec<&str> = [STATUS, CHECK, "On", EXPECTED, FOUND, NOTE]
        .into_iter()
        .filter(|h| on || *h != "On")
        .collect();
    let mut g = Grid::new(&header);
    for c in &checks {
        let mut row = vec![status(c).as_str().to_string(), label(c.id).to_string()];
        if on {
            row.push(c.subject.clone().unwrap_or_default());
        }
        row.extend([
            c.expected.clone().unwrap_or_default(),
            c.found.clone(),
            c.advice.clone().unwrap_or_default(),
        ]);
        g.rows.push(row);
    }
    g.note_below = true;
    g.status = Some(StatusColumn {
        column: 0,
        tones: checks.iter().map(|c| tone(status(c))).collect(),
    });
    write!(out, "{}", table::grid(&g, term))?;
    writeln!(out)?;
    if let Some(p) = not_checked(report) {
        write!(out, "{}", table::line(&p, term))?;
        writeln!(out)?;
    }
    write!(
        out,
        "{}",
        table::line(&summary(report).line_within(term.color, term.width), term)
    )
}

/// The summary line: `FAIL: 3 fail, 4 warn, 1 unknown, 12 pass · 20 checks, 8 not checked ·
/// not ready to train`; the verdict is what the exit code says.
pub fn summary(report: &Report) -> Summary {
    let n = |s: Status| report.checks.iter().filter(|c| c.status == Some(s)).count();
    let (verdict, answer) = match report.exit_code {
        EXIT_PASS => (Verdict::Pass, "ready to train"),
        EXIT_INCOMPLETE => (Verdict::Incomplete, "not known to be ready"),
        _ => (Verdict::Fail, "not ready to train"),
    };
    let mut checked = plural(report.checks.len(), "check", "checks");
    if !report.not_checked.is_empty() {
        checked.push_str(&format!(", {} not checked", report.not_checked.len()));
    }
    Summary::new(verdict)
        .count(n(Status::Fail), Status::Fail.as_str())
        .count(n(Status::Warn), Status::Warn.as_str())
        .count(n(Status::Unknown), Status::Unknown.as_str())
        .count(n(Status::Pass), Status::Pass.as_str())
        .scope(checked)
        .scope(answer)
}

/// The report as JSON (pretty, or one line for `--compact`) with a trailing newline.
pub fn json(report: &Report, layout: Layout, out: &mut dyn Write) -> io::Result<()> {
    write_value(report, layout, out)
}
