//! Renders a verify report: table, JSON, Markdown and JUnit XML.

use std::io::{self, Write};

use crate::render::markdown;
use crate::render::report::Grid;
use crate::render::style::{paint, Tone};
use crate::render::table;
use crate::text::escape_markup;
use crate::verify::{Status, VerifyReport};

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

/// Writes `report` in `format`.
pub fn write(
    report: &VerifyReport,
    format: VerifyFormat,
    color: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        VerifyFormat::Json => {
            serde_json::to_writer_pretty(&mut *out, report)?;
            writeln!(out)
        }
        VerifyFormat::Table => {
            writeln!(out, "{}", heading(report))?;
            writeln!(
                out,
                "{}",
                table::grid(&grid(report, |s| paint(s.as_str(), tone(s), color)))
            )?;
            writeln!(out, "{}", summary(report))
        }
        VerifyFormat::Markdown => {
            writeln!(out, "# {}\n", markdown::escape(&heading(report)))?;
            markdown::write_grid(&grid(report, |s| s.as_str().to_string()), out)?;
            writeln!(out, "\n**{}**", markdown::escape(&summary(report)))
        }
        VerifyFormat::Junit => junit(report, out),
    }
}

fn heading(r: &VerifyReport) -> String {
    let host = r.hostname.as_deref().unwrap_or("unknown host");
    match &r.description {
        Some(d) => format!("verify {host} against {} ({d})", r.profile),
        None => format!("verify {host} against {}", r.profile),
    }
}

/// The summary line, e.g. `FAIL: 20 pass, 2 fail, 1 unknown` or `INCOMPLETE: 18 pass,
/// 0 fail, 4 unknown`.
pub fn summary(r: &VerifyReport) -> String {
    format!(
        "{}: {} pass, {} fail, {} unknown{}",
        r.outcome.as_str(),
        r.summary.pass,
        r.summary.fail,
        r.summary.unknown,
        if r.strict {
            " (strict)"
        } else if r.allow_unknown {
            " (unknown allowed)"
        } else {
            ""
        }
    )
}

fn grid(r: &VerifyReport, status: impl Fn(Status) -> String) -> Grid {
    let mut g = Grid::new(&["Requirement", "Ordered", "Found", "Result", "Note"]);
    for l in &r.lines {
        g.rows.push(vec![
            l.requirement.clone(),
            l.expected.clone(),
            l.found.clone(),
            status(l.status),
            l.note.clone().unwrap_or_default(),
        ]);
    }
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
    let e = escape_markup;
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
