//! HTML sheet: one self-contained file (inline CSS, inline SVG diagram, no script, nothing
//! fetched: a Content-Security-Policy says so to the browser), readable on screen and
//! printed on A4 or Letter. Content comes from `sections`; all text is escaped here.

use std::io::{self, Write};

use super::diagram;
use super::order::{verify_section, Verify};
use super::sections::{byline, detail_sections, glance, heading, notes_section};
use super::topology::topology;
use super::words::topology_lines;
use crate::render::layout::{Grid, Section};
use crate::render::style::Tone;
use crate::render::unknown::UNKNOWN;
use crate::rules::Finding;
use crate::spec::Spec;
use crate::text::escape_markup as escape;

const STYLE: &str = r#"
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #fff; color: #1f2933;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 28px 32px 40px; }
header { border-bottom: 3px solid #1f2933; padding-bottom: 10px; margin-bottom: 8px; }
h1 { font-size: 26px; margin: 0 0 2px; letter-spacing: -0.01em; }
.byline { color: #616e7c; margin: 0; }
h2 { font-size: 17px; margin: 28px 0 8px; padding-bottom: 4px; border-bottom: 2px solid #d9e2ec; }
table { border-collapse: collapse; width: 100%; margin: 6px 0 14px; font-variant-numeric: tabular-nums; }
table.kv, table.keep { break-inside: avoid; page-break-inside: avoid; }
table.grid td { white-space: nowrap; }
table.grid td.wrap { white-space: normal; }
th, td { text-align: left; vertical-align: top; padding: 4px 10px 4px 0; border-bottom: 1px solid #e4e7eb; }
td + td, th + th, th + td { padding-left: 10px; }
table.kv th { width: 12em; color: #52606d; font-weight: 600; }
table.grid thead th { background: #f0f4f8; border-bottom: 1px solid #bcccdc; font-weight: 600;
  white-space: nowrap; padding-left: 8px; }
table.grid td:first-child { padding-left: 8px; }
table.transposed tbody th { color: #52606d; font-weight: 600; white-space: nowrap; padding-left: 8px; width: 11em; }
tr.empty td { color: #9aa5b1; }
td.unknown { color: #9aa5b1; font-style: italic; }
td.status-pass { color: #276749; font-weight: 700; }
td.status-fail { color: #c53030; font-weight: 700; }
td.status-unknown { color: #b7791f; font-weight: 700; }
.glance table.kv td { font-weight: 500; }
figure { margin: 8px 0 0; }
svg.topology { display: block; max-width: 100%; height: auto; margin: 0 auto;
  break-inside: avoid; page-break-inside: avoid; }
figcaption { margin-top: 10px; color: #3e4c59; font-size: 13px; }
figcaption ul { margin: 0; padding-left: 18px; }
figcaption li > ul { padding-left: 18px; color: #52606d; }
footer { margin-top: 28px; color: #7b8794; font-size: 12px; border-top: 1px solid #e4e7eb; padding-top: 8px; }
@page { margin: 12mm; }
@media print {
  body { font-size: 9.5pt; }
  main { max-width: none; padding: 0; }
  h1 { font-size: 18pt; }
  h2 { font-size: 12pt; margin-top: 14pt; break-after: avoid; page-break-after: avoid; }
  th, td { padding-top: 2px; padding-bottom: 2px; }
  figcaption { font-size: 8.5pt; }
  thead { display: table-header-group; }
  tr { break-inside: avoid; page-break-inside: avoid; }
  section.topology { break-before: auto; }
  * { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
}
"#;

/// Tables up to this many rows are kept on one printed page; longer ones break between rows.
const KEEP_ROWS: usize = 16;

/// Cells longer than this may wrap; shorter ones (locators, sizes, speeds) stay on one line.
const WRAP_CHARS: usize = 24;

fn cell_class(v: &str, status: Option<Tone>) -> &'static str {
    if v.chars().count() > WRAP_CHARS {
        " class=\"wrap\""
    } else if let Some(tone) = status {
        match tone {
            Tone::Good => " class=\"status-pass\"",
            Tone::Bad => " class=\"status-fail\"",
            Tone::Warn | Tone::Muted => " class=\"status-unknown\"",
        }
    } else if v == UNKNOWN {
        " class=\"unknown\""
    } else {
        ""
    }
}

fn write_kv(fields: &[(String, String)], out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "<table class=\"kv\"><tbody>")?;
    for (k, v) in fields {
        writeln!(
            out,
            "<tr><th scope=\"row\">{}</th><td{}>{}</td></tr>",
            escape(k),
            cell_class(v, None),
            escape(v)
        )?;
    }
    writeln!(out, "</tbody></table>")
}

fn write_grid(g: &Grid, out: &mut dyn Write) -> io::Result<()> {
    // A grid with an empty first header cell is attributes × items (the GPU table).
    let transposed = g.header.first().is_some_and(|h| h.is_empty());

    writeln!(
        out,
        "<table class=\"grid{}{}\"><thead><tr>",
        if transposed { " transposed" } else { "" },
        if g.rows.len() <= KEEP_ROWS {
            " keep"
        } else {
            ""
        }
    )?;
    for h in &g.header {
        write!(out, "<th scope=\"col\">{}</th>", escape(h))?;
    }
    writeln!(out, "</tr></thead><tbody>")?;
    for (k, r) in g.rows.iter().enumerate() {
        let tone = g
            .status
            .as_ref()
            .and_then(|s| Some((s.column, *s.tones.get(k)?)));
        let empty = r.iter().any(|c| c == "empty");
        write!(out, "<tr{}>", if empty { " class=\"empty\"" } else { "" })?;
        for (i, c) in r.iter().enumerate() {
            if transposed && i == 0 {
                write!(out, "<th scope=\"row\">{}</th>", escape(c))?;
            } else {
                write!(
                    out,
                    "<td{}>{}</td>",
                    cell_class(c, tone.filter(|t| t.0 == i).map(|t| t.1)),
                    escape(c)
                )?;
            }
        }
        writeln!(out, "</tr>")?;
    }
    writeln!(out, "</tbody></table>")
}

fn write_section(s: &Section, class: &str, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "<section class=\"{class}\">\n<h2>{}</h2>",
        escape(&s.title)
    )?;
    if !s.fields.is_empty() {
        write_kv(&s.fields, out)?;
    }
    for g in &s.grids {
        write_grid(g, out)?;
    }
    writeln!(out, "</section>")
}

/// Writes the sheet as one self-contained HTML document.
pub fn write(
    spec: &Spec,
    attention: &[Finding],
    verify: Option<&Verify>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let topo = topology(spec);
    let heading = heading(spec);
    let title = match &spec.hostname {
        Some(h) => format!("Spec sheet · {heading} · {h}"),
        None => format!("Spec sheet · {heading}"),
    };
    writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">"
    )?;
    // Nothing may be fetched: the sheet must look the same offline and years later.
    writeln!(
        out,
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"
    )?;
    writeln!(
        out,
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    )?;
    writeln!(
        out,
        "<meta name=\"generator\" content=\"rigcheck {}\">",
        escape(&spec.rigcheck_version)
    )?;
    writeln!(
        out,
        "<title>{}</title>",
        escape(&crate::text::one_line(&title))
    )?;
    writeln!(out, "<style>{STYLE}</style>\n</head>\n<body>\n<main>")?;
    writeln!(
        out,
        "<header>\n<h1>{}</h1>\n<p class=\"byline\">{}</p>\n</header>",
        escape(&heading),
        escape(&byline(spec))
    )?;
    write_section(&glance(spec, attention), "glance", out)?;
    if let Some(v) = verify {
        write_section(&verify_section(v), "verify", out)?;
    }
    writeln!(
        out,
        "<section class=\"topology\">\n<h2>Topology</h2>\n<figure>"
    )?;
    writeln!(out, "{}", diagram::svg(spec, &topo))?;
    writeln!(out, "<figcaption><ul>")?;
    for (head, sub) in topology_lines(&topo) {
        write!(out, "<li><strong>{}</strong><ul>", escape(&head))?;
        for l in sub {
            write!(out, "<li>{}</li>", escape(&l))?;
        }
        writeln!(out, "</ul></li>")?;
    }
    writeln!(out, "</ul></figcaption>\n</figure>\n</section>")?;
    for s in detail_sections(spec, &topo) {
        let class = s.title.to_lowercase().replace(' ', "-");
        write_section(&s, &class, out)?;
    }
    if let Some(b) = &spec.bench {
        // Measured next to what the parts allow, when the report carries `rigcheck bench`.
        writeln!(
            out,
            "<section class=\"bench\">\n<h2>Measured against the peaks</h2>\n<figure>\n{}\n</figure>\n</section>",
            crate::render::bench::chart_svg(b)
        )?;
    }
    if let Some(n) = notes_section(spec) {
        write_section(&n, "notes", out)?;
    }
    writeln!(
        out,
        "<footer>Written by rigcheck {} from {}.</footer>",
        escape(&spec.rigcheck_version),
        escape(&spec.source)
    )?;
    writeln!(out, "</main>\n</body>\n</html>")
}
