//! Renders a fleet: one row per host, the majority configuration, the odd ones out with what
//! differs, and the reports that could not be read. Table, JSON, Markdown and Prometheus.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use schemars::JsonSchema;
use serde::Serialize;

use crate::fleet::{BadReport, Configuration, DuplicateName, Fleet, Host, OddOne};
use crate::outcome::{Outcome, EXIT_INCOMPLETE};
use crate::render::json::{write_value, Layout};
use crate::render::layout::{Grid, StatusColumn};
use crate::render::style::{bold, paint, Tone};
use crate::render::unknown::UNKNOWN;
use crate::render::verdict::{plural, Summary, Verdict, STATUS};
use crate::render::view::Term;
use crate::render::{markdown, prometheus, table, verify};
use crate::spec::{ListState, Lists};
use crate::units::bytes_bin;

/// Output formats of `fleet`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FleetFormat {
    /// Readable tables.
    Table,
    /// One JSON document: hosts, configurations, odd ones out, errors.
    Json,
    /// Markdown tables (for tickets and wikis).
    Markdown,
    /// Prometheus text format, every sample labelled with its host.
    Prometheus,
    /// One compact JSON object per host and line (`HostJson`), for a query engine or a log
    /// pipeline that reads newline-delimited JSON.
    Ndjson,
}

/// Writes `fleet` in `format`; the tables fit `term`.
pub fn write(
    fleet: &Fleet,
    format: FleetFormat,
    term: impl Into<Term>,
    out: &mut dyn Write,
) -> io::Result<()> {
    write_with(fleet, format, term, false, out)
}

/// `write`, listing each fact not compared when `verbose` (else one line per host says how
/// many).
pub fn write_with(
    fleet: &Fleet,
    format: FleetFormat,
    term: impl Into<Term>,
    verbose: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    let term = &term.into();
    match format {
        FleetFormat::Json => write_json(fleet, Layout::Pretty, out),
        FleetFormat::Ndjson => write_ndjson(fleet, out),
        FleetFormat::Table => {
            write!(out, "{}", table::line(&answer(fleet, term.color), term))?;
            writeln!(out)?;
            let listed = grids(fleet, verbose, term.width, Some(FIRST_FAILURES));
            for (i, (title, g)) in listed.iter().enumerate() {
                if i > 0 {
                    writeln!(out)?;
                }
                write!(out, "{}", table::line(&bold(title, term.color), term))?;
                if let Some(g) = g {
                    write!(out, "{}", table::grid(g, term))?;
                }
            }
            writeln!(out)?;
            write!(
                out,
                "{}",
                summary(fleet).lines_within(term.color, term.width)
            )
        }
        FleetFormat::Markdown => {
            writeln!(out, "# rigcheck fleet")?;
            for (title, g) in grids(fleet, verbose, None, None) {
                writeln!(out, "\n## {}\n", markdown::escape(&title))?;
                if let Some(g) = g {
                    markdown::write_grid(&g, out)?;
                }
            }
            writeln!(
                out,
                "\n**{}**",
                markdown::escape(&summary(fleet).line(false))
            )
        }
        FleetFormat::Prometheus => {
            let machines: Vec<prometheus::Machine> = fleet
                .hosts
                .iter()
                // `fleet::Keep::Reports` keeps every host's report for this output.
                .filter_map(|h| Some((h, h.spec.as_deref()?)))
                .map(|(h, spec)| prometheus::Machine {
                    host: Some(&h.name),
                    spec,
                    verify: h.verify.as_ref(),
                    preflight: h.preflight.map(|p| p.passed),
                })
                .collect();
            let figures = prometheus::FleetFigures {
                hosts: fleet.hosts.len(),
                report_errors: fleet.errors.len(),
                majority_hosts: fleet.configurations.first().map_or(0, |c| c.hosts),
                tie: fleet.tie,
                matches: fleet
                    .hosts
                    .iter()
                    .map(|h| (h.name.clone(), !fleet.tie && h.configuration == 0))
                    .collect(),
            };
            prometheus::write(&machines, Some(&figures), out)
        }
    }
}

/// `Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz` → `Intel Xeon Gold 6254`: trademark marks and
/// the clock suffix dropped so the table stays narrow (the JSON keeps the full string).
fn short_cpu(model: &str) -> String {
    let m = model
        .replace("(R)", "")
        .replace("(TM)", "")
        .replace("(tm)", "");
    let m = m.split(" @ ").next().unwrap_or(&m);
    let m = m
        .trim()
        .trim_end_matches(" CPU")
        .trim_end_matches(" Processor");
    m.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn model(h: &Host) -> String {
    let s = &h.row;
    match (&s.vendor, &s.product) {
        // HP's DMI says vendor `HP`, product `HP Z8 G4 Workstation`: no need to say HP twice.
        (Some(v), Some(p)) if p.starts_with(v.as_str()) => p.clone(),
        (Some(v), Some(p)) => format!("{v} {p}"),
        (None, Some(p)) => p.clone(),
        (Some(v), None) => v.clone(),
        (None, None) => UNKNOWN.into(),
    }
}

fn cpus(h: &Host) -> String {
    let c = &h.row;
    let name = if c.socket_models.len() > 1 {
        let names: Vec<String> = c.socket_models.iter().map(|m| short_cpu(m)).collect();
        return names.join(" + ");
    } else {
        c.cpu_model
            .as_deref()
            .map_or_else(|| UNKNOWN.into(), short_cpu)
    };
    let mut s = match c.cpu_sockets {
        Some(n) if n > 1 => format!("{n} × {name}"),
        _ => name,
    };
    if let (Some(cores), Some(threads)) = (c.cpu_cores, c.cpu_threads) {
        s.push_str(&format!(" ({cores}C/{threads}T)"));
    }
    s
}

/// `2 × Quadro RTX 6000`, or each model with its count when they differ.
fn gpus(h: &Host) -> String {
    if h.row.gpus.is_empty() {
        return match h.row.lists.gpus {
            ListState::Read => "none".into(),
            _ => UNKNOWN.into(),
        };
    }
    let mut by: BTreeMap<String, usize> = BTreeMap::new();
    for g in &h.row.gpus {
        *by.entry(g.clone().unwrap_or_else(|| UNKNOWN.into()))
            .or_default() += 1;
    }
    by.iter()
        .map(|(n, c)| {
            if *c > 1 {
                format!("{c} × {n}")
            } else {
                n.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The network adapters by top speed, fastest first: `2 × 10 Gb/s, 1 Gb/s`; `none`, or
/// unknown where the list was not read whole.
fn network(h: &Host) -> String {
    let Some(nics) = &h.row.nics else {
        return UNKNOWN.into();
    };
    if nics.is_empty() {
        return "none".into();
    }
    let mut by: BTreeMap<std::cmp::Reverse<Option<u64>>, usize> = BTreeMap::new();
    for n in nics {
        *by.entry(std::cmp::Reverse(*n)).or_default() += 1;
    }
    by.iter()
        .map(|(std::cmp::Reverse(speed), c)| {
            let s = speed.map_or_else(|| UNKNOWN.into(), crate::units::link_speed);
            if *c > 1 {
                format!("{c} × {s}")
            } else {
                s
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn memory(h: &Host) -> String {
    let m = &h.row;
    let total = m.memory_bytes.map_or_else(|| UNKNOWN.into(), bytes_bin);
    match (m.dimms, m.lists.dimms) {
        (0, _) => total,
        (n, ListState::Read) => format!("{total} ({n} DIMMs)"),
        // Modules before a damaged record: at least these.
        (n, _) => format!("{total} (≥ {n} DIMMs)"),
    }
}

/// A host's verify result in the status words of a check table: `pass`, `fail (8)`,
/// `unknown (2)` (nothing failed, 2 lines could not be read), `pass (1 unknown)` (unknowns
/// allowed); `-` when no profile was given.
fn verdict(h: &Host) -> (String, Option<Tone>) {
    let Some(v) = &h.verify else {
        return ("-".into(), None);
    };
    let text = match v.outcome {
        Outcome::Fail => format!("fail ({})", v.summary.fail),
        Outcome::Incomplete => format!("unknown ({})", v.summary.unknown),
        Outcome::Pass if v.summary.unknown > 0 => {
            format!("pass ({} unknown)", v.summary.unknown)
        }
        Outcome::Pass => "pass".into(),
    };
    (text, Some(verify::verdict(v).tone()))
}

/// The host's health in words: `fine`, `fail (nvme0n1, memory)`, `unknown (memory)`.
fn health(h: &Host) -> String {
    let v = &h.row.health;
    if v.parts.is_empty() {
        v.word.clone()
    } else {
        format!("{} ({})", v.word, v.parts.join(", "))
    }
}

/// The name of what a failing host's row adds: the checks it failed.
const FAILS: &str = "Fails";

/// How many failed checks a host's row of the table names before "and N more" (Markdown
/// and JSON name them all).
const FIRST_FAILURES: usize = 3;

/// The checks a host failed, by name in the profile's order: the first `first` of them and
/// how many more, or all of them; `None` when it failed none.
fn failures(h: &Host, first: Option<usize>) -> Option<String> {
    let v = h.verify.as_ref()?;
    let failed: Vec<&str> = v
        .lines
        .iter()
        .filter(|l| l.status == crate::verify::Status::Fail)
        .map(|l| l.requirement.as_str())
        .collect();
    if failed.is_empty() {
        return None;
    }
    let shown = first.unwrap_or(failed.len()).min(failed.len());
    let mut text = failed[..shown].join(", ");
    if failed.len() > shown {
        text.push_str(&format!(", and {} more", failed.len() - shown));
    }
    Some(text)
}

/// The answer in one line, before the tables: the verdict, then which hosts fail the
/// profile, which reports could not be read and which hosts differ from the rest.
pub fn answer(fleet: &Fleet, color: bool) -> String {
    /// How many hosts are named before "and N more".
    const NAMED: usize = 4;
    let names = |all: Vec<&str>| {
        let mut shown: Vec<String> = all.iter().take(NAMED).map(|s| s.to_string()).collect();
        if all.len() > NAMED {
            shown.push(format!("and {} more", all.len() - NAMED));
        }
        shown.join(", ")
    };
    let s = summary(fleet);
    let mut parts = Vec::new();
    if let Some(p) = &fleet.profile {
        let failed: Vec<&str> = fleet
            .hosts
            .iter()
            .filter(|h| {
                h.verify
                    .as_ref()
                    .is_some_and(|v| v.outcome == Outcome::Fail)
            })
            .map(|h| h.name.as_str())
            .collect();
        if !failed.is_empty() {
            parts.push(format!("fail {p}: {}", names(failed)));
        }
    }
    // Health failures and warnings name their hosts whether or not a profile asks for them.
    for (word, says) in [("fail", "health fails"), ("warn", "health warns")] {
        let hit: Vec<&str> = fleet
            .hosts
            .iter()
            .filter(|h| h.row.health.word == word)
            .map(|h| h.name.as_str())
            .collect();
        if !hit.is_empty() {
            parts.push(format!("{says}: {}", names(hit)));
        }
    }
    if !fleet.errors.is_empty() {
        parts.push(format!(
            "{} could not be read",
            plural(fleet.errors.len(), "report", "reports")
        ));
    }
    if fleet.profile.is_none() && fleet.errors.is_empty() && s.verdict == Verdict::Pass {
        // Nothing was checked: what passed is that every report was read. Said first, so
        // the hosts that differ below are not read as the reason for a pass.
        parts.push(format!(
            "{} read, none checked against an order (--profile)",
            plural(fleet.hosts.len(), "report", "reports")
        ));
    }
    if !fleet.odd_ones_out.is_empty() {
        let odd: Vec<&str> = fleet.odd_ones_out.iter().map(|o| o.host.as_str()).collect();
        let from = match fleet.configurations.first() {
            Some(c) if fleet.tie => format!("the reference ({})", c.example),
            // A majority is more than half the hosts; the largest of several smaller
            // configurations is only the most common one.
            Some(c) if 2 * c.hosts > fleet.hosts.len() => {
                format!("the majority ({} like {})", c.hosts, c.example)
            }
            Some(c) => format!(
                "the most common configuration ({} like {})",
                c.hosts, c.example
            ),
            None => "the rest".to_string(),
        };
        parts.push(format!(
            "{} of {} {} from {from}: {}",
            odd.len(),
            plural(fleet.hosts.len(), "host", "hosts"),
            if odd.len() == 1 { "differs" } else { "differ" },
            names(odd)
        ));
    }
    if fleet.odd_ones_out.is_empty() && !fleet.hosts.is_empty() {
        parts.push(format!(
            "{} alike",
            plural(fleet.hosts.len(), "host", "hosts")
        ));
    }
    format!(
        "{}: {}",
        paint(s.verdict.word(), s.verdict.tone(), color),
        // Host and profile names come from reports and profiles: one line, whatever they hold.
        crate::text::one_line(&parts.join("; "))
    )
}

/// The summary line: `FAIL: 4 fail, 1 pass, 0 unreadable · 5 hosts against NAME · 3
/// configurations, 2 odd ones out`; `N unknown` counts the hosts whose check could not see
/// everything (none failed, one could not be read), when there are any.
pub fn summary(fleet: &Fleet) -> Summary {
    let verdict = match fleet.exit_code() {
        0 => Verdict::Pass,
        EXIT_INCOMPLETE => Verdict::Incomplete,
        _ => Verdict::Fail,
    };
    let mut s = Summary::new(verdict);
    let hosts = plural(fleet.hosts.len(), "host", "hosts");
    match &fleet.profile {
        Some(p) => {
            let failed = fleet.failed_hosts();
            let incomplete = fleet.incomplete_hosts();
            s = s.count(failed, "fail");
            if incomplete > 0 {
                s = s.count(incomplete, "unknown");
            }
            s = s
                .count(fleet.hosts.len() - failed - incomplete, "pass")
                .count(fleet.errors.len(), "unreadable")
                .scope(format!("{hosts} against {p}"));
        }
        None => s = s.count(fleet.errors.len(), "unreadable").scope(hosts),
    }
    let sick = fleet
        .hosts
        .iter()
        .filter(|h| h.row.health.word == "fail")
        .count();
    if sick > 0 {
        s = s.scope(format!("{} failing health", plural(sick, "host", "hosts")));
    }
    s.scope(format!(
        "{}, {}",
        plural(
            fleet.configurations.len(),
            "configuration",
            "configurations"
        ),
        plural(fleet.odd_ones_out.len(), "odd one out", "odd ones out")
    ))
}

/// The host's configuration in words: the majority's, one that differs, one that could
/// only be partly compared, or one side of a tie.
fn config(fleet: &Fleet, h: &Host, outside: &Outside<'_>) -> String {
    let n = h.configuration + 1;
    if fleet.tie && fleet.configurations[h.configuration].hosts == fleet.configurations[0].hosts {
        return format!("tie ({n})");
    }
    let listed = outside.get(&(h.file.as_path(), h.name.as_str()));
    if h.configuration == 0 {
        return if listed.is_some() {
            "majority, partly unknown".into()
        } else {
            "majority".into()
        };
    }
    match listed {
        Some(o) if o.changes.is_empty() && !o.unknown_on_one_side.is_empty() => {
            format!("partly unknown ({n})")
        }
        _ => format!("differs ({n})"),
    }
}

/// The hosts `group` set apart, by file and name: the odd ones out (outside the majority)
/// and the majority's partly unknown ones. Looked up once per host row, so a fleet of
/// thousands of odd hosts is not searched through once per row.
type Outside<'a> = HashMap<(&'a Path, &'a str), &'a OddOne>;

fn outside(fleet: &Fleet) -> Outside<'_> {
    fleet
        .odd_ones_out
        .iter()
        .chain(&fleet.partly_unknown)
        .map(|o| ((o.file.as_path(), o.host.as_str()), o))
        .collect()
}

/// The narrowest a grid can be drawn without breaking a word: every column at its longest
/// word (header included), with a space each side and a rule between columns.
fn whole_word_width(g: &Grid) -> usize {
    let columns = g.header.len();
    (0..columns).map(|c| longest_word(g, c)).sum::<usize>() + (3 * columns).saturating_sub(1)
}

/// The longest word of column `c`, header included.
fn longest_word(g: &Grid, c: usize) -> usize {
    std::iter::once(&g.header)
        .chain(&g.rows)
        .filter_map(|r| r.get(c))
        .flat_map(|t| t.split_whitespace())
        .map(table::width_of)
        .max()
        .unwrap_or(0)
}

/// Keeps every word of `g` whole in a window `width` wide: where its columns at their
/// longest words are wider, the column with the longest word after the first `keep` (the
/// status and the host name, which stay in place) is written under each row instead.
fn whole_words(g: &mut Grid, keep: usize, width: Option<usize>) {
    g.whole_words = true;
    // One column under each row, then a second beside it on that line (the hosts' model,
    // then their health, at 80 columns) while the others are still too wide.
    for _ in 0..2 {
        if width.is_none_or(|w| whole_word_width(g) <= w) {
            return;
        }
        let end = g.header.len() - usize::from(g.note_below);
        let widest = (keep..end).max_by_key(|&c| (longest_word(g, c), usize::MAX - c));
        if let Some(c) = widest {
            below(g, c);
        }
    }
}

/// Moves column `c` to the end, written under each row (`Grid::note_below`) after its
/// header's name: `Model: HP Z8 G4 Workstation`.
fn below(g: &mut Grid, c: usize) {
    if c >= g.header.len() {
        return;
    }
    let name = g.header.remove(c);
    let joined = g.note_below;
    for r in g.rows.iter_mut().filter(|r| c < r.len()) {
        let v = r.remove(c);
        match r.last_mut().filter(|_| joined) {
            // A second column joins the line of the first: `Model: … · Health: fine`.
            Some(note) => note.push_str(&format!(" · {name}: {v}")),
            None => r.push(format!("{name}: {v}")),
        }
    }
    if joined {
        if let Some(h) = g.header.last_mut() {
            h.push_str(&format!(" · {name}"));
        }
    } else {
        g.header.push(name);
    }
    g.note_below = true;
}

/// Titled grids in reading order; a title without a grid is a sentence. The hosts and the
/// odd ones out never break a word (a part's name, a model number) in a `width`-column
/// window: a long word widens its column and the others wrap; where the columns at their
/// longest words are wider than the window, one column (the hosts' model, at 80 columns)
/// goes on a line of its own under each row. Only a window narrower than that still breaks.
///
/// With a profile, a failing host's row names the checks it failed: the first `first` under
/// the row in a text table, all of them in a column of their own (Markdown, `first` `None`),
/// followed by a table of every failed check with what was ordered and found.
fn grids(
    fleet: &Fleet,
    verbose: bool,
    width: Option<usize>,
    first: Option<usize>,
) -> Vec<(String, Option<Grid>)> {
    let mut out = Vec::new();
    let checked = fleet.profile.is_some();
    let mut header = Vec::new();
    if checked {
        header.push(STATUS);
    }
    header.extend(["Host", "Model", "CPUs", "GPUs", "Memory"]);
    // Reports from before adapters were read (or from another OS) know none: a column of
    // nothing but "unknown" takes width from the others.
    let networked = fleet.hosts.iter().any(|h| h.row.nics.is_some());
    if networked {
        header.push("Network");
    }
    header.push("Health");
    header.push("Config");
    let mut hosts = Grid::new(&header);
    let mut tones = Vec::new();
    let outside = outside(fleet);
    for h in &fleet.hosts {
        let mut row = Vec::new();
        if checked {
            let (text, tone) = verdict(h);
            row.push(text);
            tones.push(tone.unwrap_or(Tone::Muted));
        }
        row.extend([h.name.clone(), model(h), cpus(h), gpus(h), memory(h)]);
        if networked {
            row.push(network(h));
        }
        row.push(health(h));
        row.push(config(fleet, h, &outside));
        hosts.rows.push(row);
    }
    if checked {
        hosts.status = Some(StatusColumn { column: 0, tones });
    }
    whole_words(&mut hosts, usize::from(checked) + 1, width);
    let named: Vec<Option<String>> = fleet.hosts.iter().map(|h| failures(h, first)).collect();
    if named.iter().any(Option::is_some) {
        let text = |n: &Option<String>| n.as_ref().map(|t| format!("{FAILS}: {t}"));
        if first.is_none() {
            // Markdown: a column of its own.
            hosts.header.push(FAILS.into());
            for (r, n) in hosts.rows.iter_mut().zip(&named) {
                r.push(n.clone().unwrap_or_default());
            }
        } else if hosts.note_below {
            // The row already has a line under it (the model): the failures go first on it
            // (a cell is one line: a break in it would be drawn as a forged one).
            for (r, n) in hosts.rows.iter_mut().zip(&named) {
                if let (Some(last), Some(t)) = (r.last_mut(), text(n)) {
                    *last = format!("{t} · {last}");
                }
            }
        } else {
            hosts.header.push(FAILS.into());
            for (r, n) in hosts.rows.iter_mut().zip(&named) {
                r.push(text(n).unwrap_or_default());
            }
            hosts.note_below = true;
        }
    }
    let title = match &fleet.profile {
        Some(p) => format!(
            "{}, checked against {p}",
            plural(fleet.hosts.len(), "host", "hosts")
        ),
        None => plural(fleet.hosts.len(), "host", "hosts"),
    };
    out.push((crate::text::one_line(&title).into_owned(), Some(hosts)));
    if first.is_none() && named.iter().any(Option::is_some) {
        let mut g = Grid::new(&["Host", "Check", "Expected", "Found"]);
        for h in &fleet.hosts {
            let Some(v) = &h.verify else { continue };
            for l in v
                .lines
                .iter()
                .filter(|l| l.status == crate::verify::Status::Fail)
            {
                g.rows.push(vec![
                    h.name.clone(),
                    l.requirement.clone(),
                    l.expected.clone(),
                    l.found.clone(),
                ]);
            }
        }
        out.push(("Failed checks".into(), Some(g)));
    }

    if let Some(m) = fleet.configurations.first() {
        let sentence = if fleet.tie {
            let tied: Vec<String> = fleet
                .configurations
                .iter()
                .take_while(|c| c.hosts == m.hosts)
                .map(|c| format!("like {}", c.example))
                .collect();
            format!(
                "No majority: {} configurations have {} of {} hosts each ({}); differences \
                 are shown against {}, the report that knows the most; {} configurations in \
                 all",
                tied.len(),
                m.hosts,
                fleet.hosts.len(),
                tied.join(", "),
                m.example,
                fleet.configurations.len()
            )
        } else {
            format!(
                "Most common configuration: {} of {} (like {}); {} in all",
                m.hosts,
                plural(fleet.hosts.len(), "host", "hosts"),
                m.example,
                plural(
                    fleet.configurations.len(),
                    "configuration",
                    "configurations"
                )
            )
        };
        out.push((sentence, None));
    }
    if !fleet.odd_ones_out.is_empty() {
        let against = if fleet.tie {
            "Configuration 1"
        } else {
            "Majority"
        };
        let mut g = Grid::new(&["Host", "What differs", "Where", against, "This host"]);
        for o in &fleet.odd_ones_out {
            for c in &o.changes {
                g.rows.push(vec![
                    o.host.clone(),
                    c.what.clone(),
                    c.at.clone(),
                    c.before.clone(),
                    c.after.clone(),
                ]);
            }
            // Facts one side does not know are not differences: one row per host says how
            // many, `-v` lists them.
            if verbose {
                for c in &o.unknown_on_one_side {
                    g.rows.push(vec![
                        o.host.clone(),
                        format!("{}: unknown on one side, not compared", c.what),
                        c.at.clone(),
                        c.before.clone(),
                        c.after.clone(),
                    ]);
                }
            } else if !o.unknown_on_one_side.is_empty() {
                g.rows.push(vec![
                    o.host.clone(),
                    format!(
                        "{} not compared",
                        plural(o.unknown_on_one_side.len(), "fact", "facts")
                    ),
                    "unknown on one side (-v lists them)".into(),
                    String::new(),
                    String::new(),
                ]);
            }
        }
        whole_words(&mut g, 1, width);
        out.push((
            format!(
                "Odd ones out: {}",
                plural(fleet.odd_ones_out.len(), "host", "hosts")
            ),
            Some(g),
        ));
    }
    if !fleet.partly_unknown.is_empty() {
        // Same configuration as far as both reports know: what one could not read.
        let mut g = Grid::new(&["Host", "Not compared", "Where", "This host"]);
        for o in &fleet.partly_unknown {
            if verbose {
                for c in &o.unknown_on_one_side {
                    g.rows.push(vec![
                        o.host.clone(),
                        c.what.clone(),
                        c.at.clone(),
                        c.after.clone(),
                    ]);
                }
            } else {
                g.rows.push(vec![
                    o.host.clone(),
                    plural(o.unknown_on_one_side.len(), "fact", "facts"),
                    "unknown on one side (-v lists them)".into(),
                    String::new(),
                ]);
            }
        }
        whole_words(&mut g, 1, width);
        out.push((
            format!(
                "Partly unknown, in the majority configuration as far as they are known: {}",
                plural(fleet.partly_unknown.len(), "host", "hosts")
            ),
            Some(g),
        ));
    }
    if !fleet.duplicate_names.is_empty() {
        let mut g = Grid::new(&["Host name", "Reports"]);
        for d in &fleet.duplicate_names {
            let files: Vec<String> = d.files.iter().map(|f| f.display().to_string()).collect();
            g.rows.push(vec![d.host.clone(), files.join(", ")]);
        }
        out.push((
            "Host names in more than one report (each kept, named with its file)".into(),
            Some(g),
        ));
    }
    if !fleet.errors.is_empty() {
        let mut g = Grid::new(&["File", "Error"]);
        for e in &fleet.errors {
            g.rows
                .push(vec![e.file.display().to_string(), e.error.clone()]);
        }
        out.push(("Unreadable reports".into(), Some(g)));
    }
    out
}

/// Writes the fleet as one JSON document (`--format json`; `Layout::Compact` for
/// `--compact`).
pub fn write_json(fleet: &Fleet, layout: Layout, out: &mut dyn Write) -> io::Result<()> {
    write_value(&document(fleet), layout, out)
}

/// Writes one compact JSON line per host (`--format ndjson`), in the fleet's host order:
/// the same object as each of `hosts[]` in `--format json`. Reports that could not be read
/// are no line (stderr names them, and the exit code is 1).
pub fn write_ndjson(fleet: &Fleet, out: &mut dyn Write) -> io::Result<()> {
    for h in &fleet.hosts {
        write_value(&host_json(fleet, h), Layout::Compact, out)?;
    }
    Ok(())
}

/// The JSON document of `fleet --format json`.
#[derive(Serialize, JsonSchema)]
pub struct FleetJson<'a> {
    /// The profile every host was checked against (`--profile`); `null` without one.
    profile: Option<&'a str>,
    /// One entry per host, sorted by name.
    hosts: Vec<HostJson<'a>>,
    /// Distinct hardware configurations, largest first (ties: by example host name).
    configurations: &'a [Configuration],
    /// Hosts outside the majority configuration, and what differs.
    odd_ones_out: &'a [OddOne],
    /// Hosts of the majority configuration whose reports could not be compared whole.
    partly_unknown: &'a [OddOne],
    /// Host names carried by more than one report (each report is kept as a host).
    duplicate_names: &'a [DuplicateName],
    /// Reports that could not be read, with why.
    errors: &'a [BadReport],
    summary: SummaryJson,
}

/// One host of the fleet: its identity, a summary of its hardware, and its checks. The
/// object of each `hosts[]` entry of `fleet --format json`, and of each line of `fleet
/// --format ndjson`.
#[derive(Serialize, JsonSchema)]
pub struct HostJson<'a> {
    /// The report's host name, or the file's name where it has none; followed by the file
    /// (`ws (a/ws.json)`) where several reports carry one host name.
    host: &'a str,
    /// The report (or capture directory) it was read from.
    file: &'a PathBuf,
    /// System vendor (`system.vendor`).
    vendor: Option<&'a str>,
    /// System product (`system.product`).
    product: Option<&'a str>,
    /// CPU model (`cpu.model`).
    cpu_model: Option<&'a str>,
    cpu_sockets: Option<u32>,
    cpu_cores: Option<u32>,
    cpu_threads: Option<u32>,
    /// Each GPU's name, in the report's order; `null` for a GPU whose name is unknown.
    gpus: Vec<Option<&'a str>>,
    /// Installed memory (`memory.total_bytes`).
    memory_bytes: Option<u64>,
    /// DIMMs listed; `null` where the list was not read whole (`lists.dimms`).
    dimms: Option<usize>,
    /// How completely the drive, GPU and DIMM lists were read: `gpus: []` with `lists.gpus`
    /// `unreadable` is unknown, not none.
    lists: &'a Lists,
    /// Each network adapter's top speed in Mb/s (`nics[].max_speed_mbps`), in the report's
    /// order; `null` where the adapter list was not read whole.
    nic_speeds_mbps: Option<&'a [Option<u64>]>,
    /// Index into `configurations` (0: the majority, or the first of a tie).
    configuration: usize,
    /// True when the host has the majority configuration; `null` on a tie (no majority).
    #[serde(default)]
    majority: Option<bool>,
    /// The check against `--profile`; `null` without one.
    verify: Option<VerifyJson<'a>>,
    /// A preflight result the report carries (`"preflight": {"passed": ...}`); `null` when
    /// it has none.
    preflight_passed: Option<bool>,
    /// `{word: fine|warn|fail|unknown, parts: [...]}`.
    health: &'a crate::rules::health::Verdict,
}

/// A host's check against the profile.
#[derive(Serialize, JsonSchema)]
struct VerifyJson<'a> {
    profile: &'a str,
    outcome: Outcome,
    /// True when the outcome is a pass.
    passed: bool,
    /// Requirements that passed, failed and could not be read.
    pass: usize,
    fail: usize,
    unknown: usize,
    /// Ids of the failed requirements.
    failed: Vec<&'a str>,
    /// Every failed requirement, in the profile's order: what was ordered and what the
    /// host has.
    failures: Vec<FailureJson<'a>>,
}

/// One requirement a host failed.
#[derive(Serialize, JsonSchema)]
struct FailureJson<'a> {
    /// The requirement's id (`gpus[0].pcie_width`).
    id: &'a str,
    /// The check in words (`GPU PCIe link width`).
    requirement: &'a str,
    expected: &'a str,
    found: &'a str,
}

/// The fleet in numbers.
#[derive(Serialize, JsonSchema)]
struct SummaryJson {
    hosts: usize,
    /// Hosts in the majority configuration; `null` on a tie.
    majority_hosts: Option<usize>,
    /// The largest configurations have as many hosts each.
    tie: bool,
    odd_ones_out: usize,
    /// Hosts failing their profile.
    failed_verify: usize,
    /// Hosts whose check is incomplete (nothing failed, something could not be read).
    incomplete_verify: usize,
    report_errors: usize,
    /// The exit code of the run: 0 every host passes, 1 a host fails or a report is
    /// unreadable, 3 a host's check is incomplete.
    exit_code: u8,
}

fn host_json<'a>(fleet: &Fleet, h: &'a Host) -> HostJson<'a> {
    HostJson {
        host: &h.name,
        file: &h.file,
        vendor: h.row.vendor.as_deref(),
        product: h.row.product.as_deref(),
        cpu_model: h.row.cpu_model.as_deref(),
        cpu_sockets: h.row.cpu_sockets,
        cpu_cores: h.row.cpu_cores,
        cpu_threads: h.row.cpu_threads,
        gpus: h.row.gpus.iter().map(Option::as_deref).collect(),
        memory_bytes: h.row.memory_bytes,
        dimms: h.row.lists.dimms.is_complete().then_some(h.row.dimms),
        lists: &h.row.lists,
        nic_speeds_mbps: h.row.nics.as_deref(),
        configuration: h.configuration,
        majority: (!fleet.tie).then_some(h.configuration == 0),
        verify: h.verify.as_ref().map(|v| VerifyJson {
            profile: &v.profile,
            outcome: v.outcome,
            passed: v.passed,
            pass: v.summary.pass,
            fail: v.summary.fail,
            unknown: v.summary.unknown,
            failed: v
                .lines
                .iter()
                .filter(|l| l.status == crate::verify::Status::Fail)
                .map(|l| l.id.as_str())
                .collect(),
            failures: v
                .lines
                .iter()
                .filter(|l| l.status == crate::verify::Status::Fail)
                .map(|l| FailureJson {
                    id: &l.id,
                    requirement: &l.requirement,
                    expected: &l.expected,
                    found: &l.found,
                })
                .collect(),
        }),
        preflight_passed: h.preflight.map(|p| p.passed),
        health: &h.row.health,
    }
}

fn document(fleet: &Fleet) -> FleetJson<'_> {
    FleetJson {
        profile: fleet.profile.as_deref(),
        hosts: fleet.hosts.iter().map(|h| host_json(fleet, h)).collect(),
        configurations: &fleet.configurations,
        odd_ones_out: &fleet.odd_ones_out,
        partly_unknown: &fleet.partly_unknown,
        duplicate_names: &fleet.duplicate_names,
        errors: &fleet.errors,
        summary: SummaryJson {
            hosts: fleet.hosts.len(),
            majority_hosts: fleet.majority_hosts(),
            tie: fleet.tie,
            odd_ones_out: fleet.odd_ones_out.len(),
            failed_verify: fleet.failed_hosts(),
            incomplete_verify: fleet.incomplete_hosts(),
            report_errors: fleet.errors.len(),
            exit_code: fleet.exit_code(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_names_are_shortened_for_the_table() {
        assert_eq!(
            short_cpu("Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz"),
            "Intel Xeon Gold 6254"
        );
        assert_eq!(
            short_cpu("AMD EPYC 7451 24-Core Processor"),
            "AMD EPYC 7451 24-Core"
        );
    }
}
