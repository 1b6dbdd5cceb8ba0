//! Renders a verify report: table, JSON, Markdown and JUnit XML.

use std::io::{self, Write};

use crate::outcome::Outcome;
use crate::render::json::{write_value, Layout};
use crate::render::layout::{Grid, StatusColumn};
use crate::render::markdown;
use crate::render::style::{bold, paint, Tone};
use crate::render::table;
use crate::render::verdict::{
    plural, rank, Summary, Verdict, CHECK, EXPECTED, FOUND, NOTE, STATUS,
};
use crate::render::view::Term;
use crate::text::{escape_markup, one_line};
use crate::verify::{self, Line, Status, VerifyReport};

/// Output formats of `verify`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VerifyFormat {
    /// Readable table with a summary line.
    Table,
    /// The report as JSON.
    Json,
    /// Markdown table (for tickets and pull requests).
    Markdown,
    /// JUnit XML: one test case per requirement, for CI systems.
    Junit,
}

/// Writes `report` as JSON (pretty, or one line for `--compact`).
pub fn json(report: &VerifyReport, layout: Layout, out: &mut dyn Write) -> io::Result<()> {
    write_value(report, layout, out)
}

/// Writes `report` in `format`; the table fits `term`.
pub fn write(
    report: &VerifyReport,
    format: VerifyFormat,
    term: impl Into<Term>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let term = &term.into();
    match format {
        VerifyFormat::Json => json(report, Layout::Pretty, out),
        VerifyFormat::Table => {
            write!(
                out,
                "{}",
                table::line(&bold(&heading(report), term.color), term)
            )?;
            write!(out, "{}", table::line(&answer(report, term.color), term))?;
            if let Some(d) = &report.description {
                write!(out, "{}", table::line(d, term))?;
            }
            writeln!(out)?;
            write!(out, "{}", table::grid(&grid(report, true), term))?;
            writeln!(out)?;
            write!(
                out,
                "{}",
                table::line(&summary(report).line_within(term.color, term.width), term)
            )
        }
        VerifyFormat::Markdown => {
            writeln!(out, "# {}\n", markdown::escape(&heading(report)))?;
            if let Some(d) = &report.description {
                writeln!(out, "{}\n", markdown::escape(d))?;
            }
            markdown::write_grid(&grid(report, false), out)?;
            writeln!(
                out,
                "\n**{}**",
                markdown::escape(&summary(report).line(false))
            )
        }
        VerifyFormat::Junit => junit(report, out),
    }
}

fn heading(r: &VerifyReport) -> String {
    let host = r.hostname.as_deref().unwrap_or("unknown host");
    one_line(&format!("verify {host} against {}", r.profile)).into_owned()
}

/// What the exit code says of `r`.
pub fn verdict(r: &VerifyReport) -> Verdict {
    outcome_verdict(r.outcome)
}

/// The summary word of a verify outcome.
fn outcome_verdict(o: Outcome) -> Verdict {
    match o {
        Outcome::Pass => Verdict::Pass,
        Outcome::Fail => Verdict::Fail,
        Outcome::Incomplete => Verdict::Incomplete,
    }
}

/// The summary line, e.g. `FAIL: 2 fail, 1 unknown, 20 pass · 23 checks of NAME`, or
/// `INCOMPLETE: 0 fail, 4 unknown, 18 pass · 22 checks of NAME` when a line could not be read.
pub fn summary(r: &VerifyReport) -> Summary {
    let mut s = counts(r.outcome, &r.summary, Some(&r.profile));
    if r.strict {
        s = s.scope("strict: unknown counts as fail");
    } else if r.allow_unknown {
        s = s.scope("unknown allowed");
    }
    s
}

/// `VERDICT: F fail, U unknown, P pass · N checks`, and ` of PROFILE` when `of` names it:
/// the counts of an order check, as verify and the spec sheet print them.
pub fn counts(outcome: Outcome, n: &verify::Summary, of: Option<&str>) -> Summary {
    let checks = plural(n.fail + n.unknown + n.pass, "check", "checks");
    Summary::new(outcome_verdict(outcome))
        .count(n.fail, Status::Fail.as_str())
        .count(n.unknown, Status::Unknown.as_str())
        .count(n.pass, Status::Pass.as_str())
        .scope(match of {
            Some(p) => format!("{checks} of {p}"),
            None => checks,
        })
}

/// The answer in one line, before the table: the verdict and, in words, what failed or could
/// not be read (`FAIL: GPU model: ordered 2 × Quadro RTX 8000 48 GiB, found 2 × Quadro RTX
/// 6000 24 GiB`), so the reader has it on the first screen; the summary still closes the
/// report for `tail -1`.
pub fn answer(r: &VerifyReport, color: bool) -> String {
    /// How many lines are named before "and N more".
    const NAMED: usize = 3;
    let v = verdict(r);
    let word = paint(v.word(), v.tone(), color);
    let about = |status: Status| {
        let hit: Vec<&Line> = r.lines.iter().filter(|l| l.status == status).collect();
        let mut parts: Vec<String> = hit
            .iter()
            .take(NAMED)
            .map(|l| match status {
                Status::Fail => format!(
                    "{}: ordered {}, found {}",
                    l.requirement,
                    l.expected.trim_start_matches("= "),
                    l.found
                ),
                _ => l.requirement.clone(),
            })
            .collect();
        if hit.len() > NAMED {
            parts.push(format!("and {} more", hit.len() - NAMED));
        }
        parts.join("; ")
    };
    // Names and found values come from profiles and machines: one line, whatever they hold.
    let rest = match r.outcome {
        Outcome::Pass => format!(
            "the machine matches {} ({})",
            r.profile,
            plural(r.lines.len(), "check", "checks")
        ),
        Outcome::Fail => about(Status::Fail),
        Outcome::Incomplete => match &r.to_complete {
            Some(fix) => format!("could not read {}: {fix}", about(Status::Unknown)),
            None => format!("could not read {}", about(Status::Unknown)),
        },
    };
    format!("{word}: {}", crate::text::one_line(&rest))
}

/// The lines as a check table, failures first. The table for the terminal always has its
/// four columns and a note under a row that has one; elsewhere (`with_note_column` false) the
/// note column is there only when a line has a note.
fn grid(r: &VerifyReport, with_note_column: bool) -> Grid {
    let mut lines: Vec<&Line> = r.lines.iter().collect();
    lines.sort_by_key(|l| rank(tone(l.status)));
    let notes = with_note_column || lines.iter().any(|l| l.note.is_some());
    let mut header = vec![STATUS, CHECK, EXPECTED, FOUND];
    if notes {
        header.push(NOTE);
    }
    let mut g = Grid::new(&header);
    let mut above: Option<&str> = None;
    for l in &lines {
        let mut row = vec![
            l.status.as_str().to_string(),
            l.requirement.clone(),
            l.expected.clone(),
            l.found.clone(),
        ];
        if notes {
            // Under the terminal's rows a note is said once: the rows after it that share it
            // (four DIMM lines unread for one reason) point up to it.
            let note = l.note.as_deref();
            let shown = match note {
                Some(n) if with_note_column && above == Some(n) => "as above".to_string(),
                _ => note.unwrap_or_default().to_string(),
            };
            above = note;
            row.push(shown);
        }
        g.rows.push(row);
    }
    g.note_below = true;
    g.status = Some(StatusColumn {
        column: 0,
        tones: lines.iter().map(|l| tone(l.status)).collect(),
    });
    g
}

/// The tone a verify status is painted in.
pub fn tone(s: Status) -> Tone {
    match s {
        Status::Pass => Tone::Good,
        Status::Fail => Tone::Bad,
        Status::Unknown => Tone::Warn,
    }
}

fn junit(r: &VerifyReport, out: &mut dyn Write) -> io::Result<()> {
    let e = |s: &str| escape_markup(&one_line(s));
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="rigcheck verify" tests="{}" failures="{}" skipped="{}">"#,
        r.lines.len(),
        r.summary.fail,
        r.summary.unknown
    )?;
    let host = r.hostname.as_deref().unwrap_or("unknown");
    writeln!(
        out,
        r#"  <testsuite name="{}" hostname="{}" tests="{}" failures="{}" skipped="{}">"#,
        e(&r.profile),
        e(host),
        r.lines.len(),
        r.summary.fail,
        r.summary.unknown
    )?;
    // The verdict, so a CI system that only counts failures still sees "incomplete".
    writeln!(
        out,
        "    <properties>\n      <property name=\"outcome\" value=\"{}\"/>\n    </properties>",
        r.outcome.as_str().to_ascii_lowercase()
    )?;
    for l in &r.lines {
        let name = format!("{}: {}", l.id, l.requirement);
        write!(
            out,
            r#"    <testcase classname="{}" name="{}""#,
            e(&r.profile),
            e(&name)
        )?;
        let detail = format!("ordered {}, found {}", l.expected, l.found);
        match l.status {
            Status::Pass => writeln!(out, "/>")?,
            Status::Fail => {
                writeln!(out, ">")?;
                let msg = match &l.note {
                    Some(n) => format!("{detail} ({n})"),
                    None => detail,
                };
                writeln!(out, r#"      <failure message="{}"/>"#, e(&msg))?;
                writeln!(out, "    </testcase>")?;
            }
            Status::Unknown => {
                writeln!(out, ">")?;
                let msg = format!("{detail}: {}", l.note.as_deref().unwrap_or("unknown"));
                writeln!(out, r#"      <skipped message="{}"/>"#, e(&msg))?;
                writeln!(out, "    </testcase>")?;
            }
        }
    }
    writeln!(out, "  </testsuite>\n</testsuites>")
}
