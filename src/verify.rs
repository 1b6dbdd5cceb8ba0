//! verify: checks a `Spec` against a `Profile`, one line per requirement, pass/fail/unknown.
//!
//! Pure: no I/O. Found values come from the spec only; an unknown fact is `unknown` with the
//! reason from the spec's notes, never a guess. The machine's verdict is pass, fail or
//! incomplete: a required line that could not be read makes the check incomplete (exit 3),
//! never a pass, unless the caller allows unknowns (`--allow-unknown`) or counts them as
//! failures (`--strict`).

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::outcome::Outcome;
use crate::profile::{Filter, Op, Profile, Quantity, Requirement, Val};
use crate::requirement::{self, Found, Read, Reading, Section, Show};
use crate::rules::privilege;
use crate::spec::{Drive, Gpu, Nic, Spec};
use crate::text::norm_text;

/// Outcome of one requirement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Pass,
    Fail,
    Unknown,
}

impl Status {
    /// Lower-case name as printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Unknown => "unknown",
        }
    }
}

/// One checked requirement.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct Line {
    /// Stable id, e.g. `gpus[0].pcie_width`.
    pub id: String,
    /// What was ordered, in words.
    pub requirement: String,
    pub expected: String,
    pub found: String,
    pub status: Status,
    /// Why unknown, or how the value was read (e.g. from MemTotal).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

/// How a line that could not be read counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Unknowns {
    /// The machine is incomplete (exit 3): the default.
    #[default]
    Incomplete,
    /// As a failure (`--strict`).
    Fail,
    /// As nothing: the machine passes when nothing failed and at least one line passed
    /// (`--allow-unknown`); with no passing line it stays incomplete.
    Allow,
}

/// Counts of each status.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
pub struct Summary {
    pub pass: usize,
    pub fail: usize,
    pub unknown: usize,
}

/// The verify result for one machine.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct VerifyReport {
    pub profile: String,
    pub description: Option<String>,
    pub hostname: Option<String>,
    pub captured_at: Option<String>,
    pub strict: bool,
    /// Unknown lines were allowed (`--allow-unknown`): they do not stop a pass.
    #[serde(default)]
    pub allow_unknown: bool,
    pub lines: Vec<Line>,
    pub summary: Summary,
    /// Pass, fail or incomplete.
    pub outcome: Outcome,
    /// True when the outcome is a pass.
    pub passed: bool,
    /// What would read the lines that are unknown for want of rights (`run as root to read
    /// them`), said once in the answer; absent when more rights would read none of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_complete: Option<String>,
}

impl VerifyReport {
    /// Exit code: 0 pass, 1 a line failed, 3 incomplete.
    pub fn exit_code(&self) -> u8 {
        self.outcome.exit_code()
    }
}

/// Checks `spec` against every requirement of `profile`; `strict` counts unknown lines as
/// failures, else they make the check incomplete.
pub fn verify(spec: &Spec, profile: &Profile, strict: bool) -> VerifyReport {
    verify_with(
        spec,
        profile,
        if strict {
            Unknowns::Fail
        } else {
            Unknowns::Incomplete
        },
    )
}

/// Checks `spec` against every requirement of `profile`, counting unknown lines as `unknowns`
/// says.
pub fn verify_with(spec: &Spec, profile: &Profile, unknowns: Unknowns) -> VerifyReport {
    run(spec, profile, unknowns, true, Vec::new())
}

/// As `verify_with`, with the lines of what was measured (`verify --measure`: the judged
/// benchmark figures and the health counters across the run) after the order's lines,
/// counted alike.
pub fn verify_measured(
    spec: &Spec,
    profile: &Profile,
    unknowns: Unknowns,
    measured: Vec<Line>,
) -> VerifyReport {
    run(spec, profile, unknowns, true, measured)
}

/// As `verify_with`, with only the lines that do not pass (the summary counts them all):
/// what fleet keeps of each host, without writing out what every passing line found.
pub fn verify_not_passing(spec: &Spec, profile: &Profile, unknowns: Unknowns) -> VerifyReport {
    let mut report = run(spec, profile, unknowns, false, Vec::new());
    report.lines.retain(|l| l.status != Status::Pass);
    report
}

fn run(
    spec: &Spec,
    profile: &Profile,
    unknowns: Unknowns,
    passing_found: bool,
    measured: Vec<Line>,
) -> VerifyReport {
    let strict = unknowns == Unknowns::Fail;
    let m = &Machine::new(spec, &profile.requirements, passing_found);
    let lines: Vec<Line> = profile.requirements.iter().map(|r| check(m, r)).collect();
    let mut lines = fold_missing_models(m, &profile.requirements, lines);
    lines.extend(measured);
    let unknown: Vec<&Line> = lines
        .iter()
        .filter(|l| l.status == Status::Unknown)
        .collect();
    let rooted = unknown
        .iter()
        .filter(|l| l.note.as_deref().is_some_and(privilege::needs_root))
        .count();
    let to_complete = privilege::to_complete(unknown.len(), rooted);
    if strict {
        for l in &mut lines {
            if l.status == Status::Unknown {
                l.status = Status::Fail;
                let why = l.note.take().unwrap_or_default();
                l.note = Some(format!(
                    "unknown counts as fail (--strict){}",
                    if why.is_empty() {
                        String::new()
                    } else {
                        format!(": {why}")
                    }
                ));
            }
        }
    }
    let mut summary = Summary::default();
    for l in &lines {
        match l.status {
            Status::Pass => summary.pass += 1,
            Status::Fail => summary.fail += 1,
            Status::Unknown => summary.unknown += 1,
        }
    }
    let outcome = if summary.fail > 0 {
        Outcome::Fail
    } else if summary.pass == 0 {
        // Nothing was confirmed: allowing unknowns lets them stand beside passes, it does
        // not turn a run of nothing but unknowns (or of no lines) into a pass.
        Outcome::Incomplete
    } else if summary.unknown > 0 && unknowns != Unknowns::Allow {
        Outcome::Incomplete
    } else {
        Outcome::Pass
    };
    VerifyReport {
        profile: profile.name.clone(),
        description: profile.description.clone(),
        hostname: spec.hostname.clone(),
        captured_at: spec.captured_at.clone(),
        strict,
        allow_unknown: unknowns == Unknowns::Allow,
        outcome,
        passed: outcome == Outcome::Pass,
        lines,
        summary,
        to_complete,
    }
}

/// A GPU group whose model is none of the machine's GPUs (every GPU named, none of them
/// possibly the model) has one cause for all its lines: the wrong board, or none, was
/// delivered. Its lines become one failing line that says what was ordered and what is there
/// (`ordered 2 × Quadro RTX 8000 48 GiB, found 2 × Quadro RTX 6000 24 GiB`), counted once; the
/// note lists what could not be compared. Other lines are kept as they are, in order.
fn fold_missing_models(m: &Machine<'_>, reqs: &[Requirement], lines: Vec<Line>) -> Vec<Line> {
    let spec = m.spec;
    let all_named = spec.gpus.iter().all(|g| g.name.is_some());
    // Only a GPU list read whole, every GPU told, says the model is not there: an unreadable
    // list (no PCI tree, Windows before its driver) or a GPU of unknown model leaves the
    // group's lines unknown.
    let missing = |f: &Filter| {
        f.section == Section::Gpus
            && f.model.is_some()
            && all_named
            && matching_gpus(m, f).next().is_none()
            && undecided(m, f).is_none()
            && gpus_unsure(m, f).is_none()
    };
    // The count and VRAM asked of each group, for the ordered side of the folded line.
    let mut asked: HashMap<usize, (Option<&Requirement>, Option<&Requirement>)> = HashMap::new();
    for r in reqs {
        if let Some(f) = r.filter.as_ref().filter(|f| f.section == Section::Gpus) {
            let e = asked.entry(f.group).or_default();
            match r.field.key {
                "count" => e.0 = Some(r),
                "vram" => e.1 = Some(r),
                _ => {}
            }
        }
    }
    // Each folded group: where its line is, and what its other lines asked.
    let mut folded: HashMap<usize, (usize, Vec<String>)> = HashMap::new();
    let mut out: Vec<Line> = Vec::with_capacity(lines.len());
    for (req, line) in reqs.iter().zip(lines) {
        let Some(f) = req.filter.as_ref().filter(|f| missing(f)) else {
            out.push(line);
            continue;
        };
        let (_, skipped) = folded.entry(f.group).or_insert_with(|| {
            let (count, vram) = asked.get(&f.group).copied().unwrap_or_default();
            let model = f.model.as_ref().map_or("", |m| m.text.as_str());
            out.push(wrong_model(spec, req, model, count, vram));
            (out.len() - 1, Vec::new())
        });
        if req.field.key != "count" {
            let what = req.label.split(" ('").next().unwrap_or(&req.label);
            skipped.push(what.to_string());
        }
    }
    for (at, skipped) in folded.into_values() {
        if !skipped.is_empty() {
            if let Some(n) = out[at].note.as_mut() {
                n.push_str(&format!("; not compared: {}", skipped.join(", ")));
            }
        }
    }
    out
}

/// The one line of a GPU group whose model is not on the machine.
fn wrong_model(
    spec: &Spec,
    req: &Requirement,
    model: &str,
    count: Option<&Requirement>,
    vram: Option<&Requirement>,
) -> Line {
    fn single(r: Option<&Requirement>) -> Option<(&Requirement, u64)> {
        match r.map(|r| (r, r.values.as_slice())) {
            Some((r, [Val::Num(n)])) => Some((r, *n)),
            _ => None,
        }
    }
    let mut expected = String::new();
    if let Some((r, n)) = single(count) {
        expected.push_str(match r.op {
            Op::AtLeast => "≥ ",
            Op::AtMost => "≤ ",
            _ => "",
        });
        expected.push_str(&format!("{n} × "));
    }
    expected.push_str(model);
    if let Some((r, n)) = single(vram) {
        expected.push_str(&format!(" {}", r.quantity.show(n)));
    }
    // What is there, alike boards counted together in the order they are found.
    let mut kinds: Vec<(String, usize)> = Vec::new();
    for g in &spec.gpus {
        let mut name = g.name.clone().unwrap_or_else(|| "unnamed GPU".into());
        if let Some(b) = g.vram_bytes {
            name.push(' ');
            name.push_str(&Quantity::BytesJedec.show(b));
        }
        match kinds.iter_mut().find(|(n, _)| *n == name) {
            Some(k) => k.1 += 1,
            None => kinds.push((name, 1)),
        }
    }
    let found = if kinds.is_empty() {
        "no GPU".to_string()
    } else {
        kinds
            .iter()
            .map(|(n, k)| format!("{k} × {n}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    // The id scripts already key on for "the ordered GPUs are not there": the group's count.
    let id = match count {
        Some(c) => c.id.clone(),
        None => {
            let group = req.id.rsplit_once('.').map_or(req.id.as_str(), |(g, _)| g);
            format!("{group}.model")
        }
    };
    Line {
        id,
        requirement: "GPU model".into(),
        expected,
        found,
        status: Status::Fail,
        note: Some(format!("no {model} on this machine")),
    }
}

fn check(m: &Machine<'_>, req: &Requirement) -> Line {
    let Reading {
        items,
        note,
        slack_below,
    } = found(m, req);
    let mut line = Line {
        id: req.id.clone(),
        requirement: req.label.clone(),
        expected: req.expected.clone(),
        found: String::new(),
        status: Status::Unknown,
        note,
    };
    if items.is_empty() {
        let what = match req.filter.as_ref().map(|f| f.section) {
            Some(Section::Gpus) => "GPU",
            Some(Section::Nics) => "network adapter",
            _ => "drive",
        };
        line.found = format!("no matching {what}");
        line.status = Status::Fail;
        return line;
    }
    // A failing item fails the line; else an unknown one leaves it unknown.
    let mut status = Status::Pass;
    let mut unknown_why = Vec::new();
    for it in &items {
        let one = match it {
            Found::Unknown(why) => {
                unknown_why.push(why.clone());
                Status::Unknown
            }
            Found::Num(n, _) => compare_num(req, *n, slack_below),
            Found::Floor(n, s) => {
                let one = compare_floor(req, *n);
                if one == Status::Unknown {
                    unknown_why.push(format!(
                        "{s}: the speed a port runs at now, and the card's own top speed is \
                         unknown (no ethtool link modes, not in rigcheck's table)"
                    ));
                }
                one
            }
            Found::Text(t) => compare_text(req, t),
            Found::Names(names) if missing_names(req, names).is_empty() => Status::Pass,
            Found::Names(_) => Status::Fail,
            Found::Judged { holds: true, .. } => Status::Pass,
            Found::Judged { holds: false, .. } => Status::Fail,
        };
        status = match (status, one) {
            (Status::Fail, _) | (_, Status::Fail) => Status::Fail,
            (Status::Unknown, _) | (_, Status::Unknown) => Status::Unknown,
            _ => Status::Pass,
        };
    }
    line.status = status;
    if !unknown_why.is_empty() {
        unknown_why.dedup();
        let why = unknown_why.join("; ");
        // A note the reading gave (what only warns) stays after why the rest is unknown.
        line.note = Some(match line.note.take() {
            Some(n) => format!("{why}; {n}"),
            None => why,
        });
    }
    if let Some(why) = contradicted(m, req) {
        line.status = Status::Fail;
        line.note = Some(why);
    }
    if line.status == Status::Fail {
        let who = which_fail(m, req, slack_below);
        if !who.is_empty() {
            let on = format!("fails on {}", who.join(", "));
            line.note = Some(match line.note.take() {
                Some(n) => format!("{on}; {n}"),
                None => on,
            });
        }
    }
    if line.status != Status::Pass || m.passing_found {
        line.found = shown(req, items);
    }
    line
}

/// The ordered names a machine's `names` lack (compared as `same_name`).
fn missing_names(req: &Requirement, names: &[String]) -> Vec<String> {
    req.values
        .iter()
        .filter_map(|v| match v {
            Val::Text(t) if !names.iter().any(|n| same_name(n, t)) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

/// The found column: each value as it is shown, identical neighbours once with a count
/// (`8 GiB × 12`).
fn shown(req: &Requirement, items: Vec<Found>) -> String {
    // Parts the rules judged (and those of them that could not be read) are shown apart,
    // named and grouped: `nvme0n1, nvme1n1: 12 h, 1 % used, no errors; memory: no errors`.
    let (judged, items): (Vec<Found>, Vec<Found>) = items.into_iter().partition(|f| {
        matches!(f, Found::Judged { .. })
            || (req.quantity == Quantity::Flag && matches!(f, Found::Unknown(_)))
    });
    let mut out = String::new();
    for (it, n) in collapse(items) {
        if !out.is_empty() {
            out.push_str(", ");
        }
        match it {
            Found::Unknown(_) => out.push_str("unknown"),
            Found::Num(v, s) => out.push_str(&s.text(v)),
            Found::Floor(_, s) | Found::Text(s) => out.push_str(&s),
            Found::Names(names) => {
                let missing = missing_names(req, &names);
                if missing.is_empty() {
                    out.push_str("all present");
                } else {
                    out.push_str("missing ");
                    out.push_str(&missing.join(", "));
                }
            }
            Found::Judged { shown, .. } => out.push_str(&shown),
        }
        if n > 1 {
            out.push_str(&format!(" × {n}"));
        }
    }
    if !judged.is_empty() {
        if !out.is_empty() {
            out.push_str(", ");
        }
        out.push_str(&judged_shown(judged));
    }
    out
}

/// The judged parts as the found column shows them: where one fails, only the failing (the
/// line says which part fails; the others only bury it); parts found alike named together.
fn judged_shown(items: Vec<Found>) -> String {
    let parts: Vec<(bool, String, String)> = items
        .into_iter()
        .filter_map(|f| match f {
            Found::Judged { part, holds, shown } => {
                let found = shown
                    .strip_prefix(&format!("{part}: "))
                    .map_or_else(|| shown.clone(), str::to_string);
                Some((holds, part, found))
            }
            // A judged part's why opens with the part (`memory: no EDAC ...`).
            Found::Unknown(why) => {
                let part = why.split(": ").next().unwrap_or("part").to_string();
                Some((true, part, "unknown".to_string()))
            }
            _ => None,
        })
        .collect();
    let failing = parts.iter().any(|(holds, _, _)| !holds);
    let mut groups: Vec<(Vec<String>, String)> = Vec::new();
    for (_, part, found) in parts.into_iter().filter(|(holds, _, _)| !failing || !holds) {
        match groups.iter_mut().find(|(_, f)| *f == found) {
            Some((parts, _)) => parts.push(part),
            None => groups.push((vec![part], found)),
        }
    }
    groups
        .into_iter()
        .map(|(parts, found)| format!("{}: {found}", parts.join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// The GPUs, drives or DIMM slots a failed per-item requirement fails on, by name
/// (`GPU 1 (0000:af:00.0)`, `nvme1n1`, `CPU1-DIMM3`): the found column shows the values
/// collapsed (`8 GiB × 11, 16 GiB`), this says where the odd one is. Empty when every item
/// fails or the requirement is not per item.
fn which_fail(m: &Machine<'_>, req: &Requirement, slack: f64) -> Vec<String> {
    let spec = m.spec;
    let fails = |f: &Found| match f {
        Found::Num(n, _) => compare_num(req, *n, slack) == Status::Fail,
        Found::Text(t) => compare_text(req, t) == Status::Fail,
        Found::Judged { holds, .. } => !holds,
        _ => false,
    };
    let q = req.quantity;
    let named: Vec<(String, bool)> = match (req.field.read, &req.filter) {
        (Read::EachGpu(read), Some(f)) => matching_gpus(m, f)
            .map(|(i, g)| {
                let name = match &g.pci_address {
                    Some(a) => format!("GPU {} ({a})", g.index.unwrap_or(i as u32)),
                    None => format!("GPU {}", g.index.unwrap_or(i as u32)),
                };
                (name, fails(&read(spec, i, g, q)))
            })
            .collect(),
        (Read::EachDrive(read), Some(f)) => matching_drives(spec, f)
            .map(|(i, d)| (d.name.clone(), fails(&read(spec, i, d, q))))
            .collect(),
        // Parts the health rules judged name themselves, however many fail.
        (Read::Machine(read), _) if req.quantity == Quantity::Flag => {
            return read(spec, q)
                .items
                .iter()
                .filter_map(|f| match f {
                    Found::Judged {
                        part, holds: false, ..
                    } => Some(part.clone()),
                    _ => None,
                })
                .collect();
        }
        (Read::EachNic(read), Some(f)) => matching_nics(spec, f)
            .map(|(i, n)| {
                let at = n
                    .pci_address
                    .clone()
                    .unwrap_or_else(|| format!("adapter {i}"));
                (at, fails(&read(spec, i, n, q)))
            })
            .collect(),
        // A per-DIMM reading has one item per DIMM, in the order of `memory.dimms`.
        (Read::Machine(read), _) => {
            let items = read(spec, q).items;
            if req.field.key.starts_with("drive_") && req.field.section == Section::Health {
                return items
                    .iter()
                    .filter(|f| fails(f))
                    .filter_map(|f| match f {
                        Found::Num(v, shown) => {
                            shown.text(*v).split(' ').next().map(str::to_string)
                        }
                        _ => None,
                    })
                    .collect();
            }
            if req.field.key.starts_with("dimm_") && items.len() == spec.memory.dimms.len() {
                spec.memory
                    .dimms
                    .iter()
                    .zip(&items)
                    .map(|(d, f)| (d.locator.clone(), fails(f)))
                    .collect()
            } else {
                Vec::new()
            }
        }
        _ => Vec::new(),
    };
    if named.len() < 2 || named.iter().all(|(_, f)| *f) {
        return Vec::new();
    }
    named
        .into_iter()
        .filter(|(_, f)| *f)
        .map(|(n, _)| n)
        .collect()
}

fn compare_num(req: &Requirement, n: u64, extra_low: f64) -> Status {
    let n = n as f64;
    let tol = req.tolerance;
    let ok = |want: f64| match req.op {
        Op::Exact | Op::OneOf | Op::Contains | Op::AllOf => {
            n >= want * (1.0 - tol - extra_low) && n <= want * (1.0 + tol)
        }
        Op::AtLeast => n >= want * (1.0 - tol - extra_low),
        Op::AtMost => n <= want * (1.0 + tol),
    };
    let pass = req.values.iter().any(|v| match v {
        Val::Num(w) => ok(*w as f64),
        Val::Text(_) => false,
    });
    if pass {
        Status::Pass
    } else {
        Status::Fail
    }
}

/// A value known only to be at least `n`: it passes an `at_least` it reaches and fails an
/// `at_most` (or an exact value) it already exceeds; otherwise it cannot say.
fn compare_floor(req: &Requirement, n: u64) -> Status {
    let n = n as f64;
    let tol = req.tolerance;
    let wants = req.values.iter().filter_map(|v| match v {
        Val::Num(w) => Some(*w as f64),
        Val::Text(_) => None,
    });
    let mut status = Status::Fail;
    for want in wants {
        let s = match req.op {
            Op::AtLeast if n >= want * (1.0 - tol) => Status::Pass,
            Op::AtLeast => Status::Unknown,
            _ if n > want * (1.0 + tol) => Status::Fail,
            _ => Status::Unknown,
        };
        status = match (status, s) {
            (Status::Pass, _) | (_, Status::Pass) => Status::Pass,
            (Status::Unknown, _) | (_, Status::Unknown) => Status::Unknown,
            _ => Status::Fail,
        };
    }
    status
}

fn compare_text(req: &Requirement, found: &str) -> Status {
    let f = norm_text(found);
    let pass = req.texts.iter().any(|t| match req.op {
        Op::Contains => f.contains(t.as_str()),
        _ => f == *t,
    });
    if pass {
        Status::Pass
    } else {
        Status::Fail
    }
}

/// Feature names compared without case, spaces, dashes or underscores (`AVX-512 VNNI` =
/// `avx512_vnni`).
fn same_name(a: &str, b: &str) -> bool {
    fn letters(s: &str) -> impl Iterator<Item = u8> + '_ {
        s.bytes()
            .filter(u8::is_ascii_alphanumeric)
            .map(|c| c.to_ascii_lowercase())
    }
    letters(a).eq(letters(b))
}

/// The found values for a requirement (one per matching item for per-GPU/per-drive fields),
/// read through the requirement's field.
fn found(m: &Machine<'_>, req: &Requirement) -> Reading {
    let spec = m.spec;
    let q = req.quantity;
    let plain = |items: Vec<Found>| Reading {
        items,
        note: None,
        slack_below: 0.0,
    };
    match (req.field.read, &req.filter) {
        (Read::Machine(read), _) => read(spec, q),
        (Read::EachGpu(read), Some(f)) => Reading {
            items: match (undecided(m, f), gpus_unsure(m, f)) {
                // Not "no matching GPU": the GPUs the group would read are not known.
                (Some(why), _) if matching_gpus(m, f).next().is_none() => {
                    vec![Found::Unknown(why)]
                }
                (_, unsure) => {
                    let mut items: Vec<Found> = matching_gpus(m, f)
                        .map(|(i, g)| read(spec, i, g, q))
                        .collect();
                    // GPUs not seen (or not told) may be of the group: a GPU seen can fail
                    // the line, none can pass it.
                    items.extend(unsure.map(Found::Unknown));
                    items
                }
            },
            note: datasheet_note(m, f, req.field.key),
            slack_below: 0.0,
        },
        (Read::EachDrive(read), Some(f)) => {
            let mut items: Vec<Found> = matching_drives(spec, f)
                .map(|(i, d)| read(spec, i, d, q))
                .collect();
            items.extend(drives_unsure(spec, f).map(Found::Unknown));
            plain(items)
        }
        (Read::EachNic(read), Some(f)) => {
            let mut items: Vec<Found> = matching_nics(spec, f)
                .map(|(i, n)| read(spec, i, n, q))
                .collect();
            items.extend(nics_unsure(spec, f).map(Found::Unknown));
            plain(items)
        }
        (Read::GroupCount, Some(f)) if f.section == Section::Gpus => gpu_count(m, f),
        (Read::GroupCount, Some(f)) if f.section == Section::Nics => {
            let n = matching_nics(spec, f).count() as u64;
            let others = spec.nics.len() as u64 - n;
            Reading {
                items: vec![match nics_unsure(spec, f) {
                    Some(why) => Found::Unknown(format!("{n} seen, more may exist: {why}")),
                    None => Found::Num(n, Show::As(Quantity::Count)),
                }],
                note: (others > 0).then(|| format!("{others} other network adapter(s) present")),
                slack_below: 0.0,
            }
        }
        (Read::GroupCount, Some(f)) => {
            let n = matching_drives(spec, f).count() as u64;
            plain(vec![match drives_unsure(spec, f) {
                Some(why) => Found::Unknown(format!("{n} seen, more may exist: {why}")),
                None => Found::Num(n, Show::As(Quantity::Count)),
            }])
        }
        // The parser gives every group field its group's filter.
        (_, None) => plain(vec![Found::Unknown(format!(
            "{} is a per-GPU or per-drive requirement outside a group",
            req.id
        ))]),
    }
}

/// Why the group's GPUs are not known: boards left ambiguous without a driver whose
/// candidates split on the model (an order for a Quadro RTX 8000, a board that is the RTX 6000
/// or the 8000).
fn undecided(m: &Machine<'_>, f: &Filter) -> Option<String> {
    let spec = m.spec;
    let maybe: Vec<(String, bool)> = spec
        .gpus
        .iter()
        .enumerate()
        .filter(|(i, _)| m.gpu_is(f, *i).is_none())
        .map(|(_, g)| g)
        .filter_map(|g| Some((g.candidates_name()?, g.is_nvidia())))
        .collect();
    let (c, nvidia) = maybe.first()?;
    Some(if *nvidia {
        format!(
            "{} GPU(s) could be the ordered model: the {c} without the NVIDIA driver, which names it",
            maybe.len()
        )
    } else {
        format!(
            "{} GPU(s) could be the ordered model: the {c}, which share one PCI id, and pci.ids \
             names no board by the subsystem",
            maybe.len()
        )
    })
}

/// A GPU group's model (count) and architecture lines fail where a GPU of the group is not
/// the board its PCI id says: the mismatch is the note.
fn contradicted(m: &Machine<'_>, req: &Requirement) -> Option<String> {
    let f = req.filter.as_ref().filter(|f| f.section == Section::Gpus)?;
    if !matches!(req.field.key, "count" | "architecture") {
        return None;
    }
    let found: Vec<String> = matching_gpus(m, f)
        .filter_map(|(i, g)| {
            let c = g.identity_contradiction()?;
            Some(format!("GPU {}: {c}", g.index.unwrap_or(i as u32)))
        })
        .collect();
    (!found.is_empty()).then(|| format!("identity contradicted: {}", found.join("; ")))
}

/// How many GPUs the group selects, and how many others there are. A GPU that may or may
/// not be the model (no driver, and a PCI id shared by boards of which only some match) makes
/// the count unknown.
fn gpu_count(m: &Machine<'_>, f: &Filter) -> Reading {
    let spec = m.spec;
    let n = matching_gpus(m, f).count();
    let maybe = undecided(m, f);
    let why = match maybe {
        Some(why) => Some(why),
        None => gpus_unsure(m, f).map(|why| format!("{n} seen, more may exist: {why}")),
    };
    if let Some(why) = why {
        return Reading {
            items: vec![Found::Unknown(why)],
            note: None,
            slack_below: 0.0,
        };
    }
    let others =
        (spec.gpus.len() > n).then(|| format!("{} other GPU(s) present", spec.gpus.len() - n));
    let note = match (others, datasheet_note(m, f, "count")) {
        (Some(a), Some(b)) => Some(format!("{a}; names: {b}")),
        (a, b) => a.or(b),
    };
    Reading {
        items: vec![Found::Num(n as u64, Show::As(Quantity::Count))],
        note,
        slack_below: 0.0,
    }
}

/// Marks a GPU line whose values are datasheet figures (no driver: the product table by
/// PCI id), so the order check says what it compared.
fn datasheet_note(m: &Machine<'_>, f: &Filter, key: &str) -> Option<String> {
    let mut notes: Vec<String> = matching_gpus(m, f)
        .filter_map(|(_, g)| requirement::gpu_datasheet_note(key, g))
        .collect();
    notes.dedup();
    (!notes.is_empty()).then(|| notes.join("; "))
}

/// Identical neighbouring values once, with how many there are (`8 GiB × 12` when shown);
/// statuses are unaffected because equal values compare equally.
fn collapse(items: Vec<Found>) -> Vec<(Found, usize)> {
    let mut out: Vec<(Found, usize)> = Vec::new();
    for it in items {
        let same = match (out.last(), &it) {
            (Some((Found::Num(a, _), _)), Found::Num(b, _)) => a == b,
            (Some((Found::Text(a), _)), Found::Text(b)) => a == b,
            _ => false,
        };
        match out.last_mut() {
            Some(last) if same => last.1 += 1,
            _ => out.push((it, 1)),
        }
    }
    out
}

/// Why the GPUs a group selects are not all known: the GPU list was not read whole, or a
/// GPU's model is unknown (no driver, a PCI id neither the product table nor pci.ids names).
/// `None` when every GPU of the machine is seen and told.
fn gpus_unsure(m: &Machine<'_>, f: &Filter) -> Option<String> {
    let spec = m.spec;
    let state = spec.lists.gpus;
    if !state.is_complete() {
        return Some(requirement::list_why(spec, "gpus", state));
    }
    let who = |i: usize, g: &Gpu| match &g.pci_address {
        Some(a) => format!("GPU {} ({a})", g.index.unwrap_or(i as u32)),
        None => format!("GPU {}", g.index.unwrap_or(i as u32)),
    };
    let undecided = spec
        .gpus
        .iter()
        .enumerate()
        .filter(|(i, g)| m.gpu_is(f, *i).is_none() && g.candidates_name().is_none());
    let (unconfirmed, unknown): (Vec<_>, Vec<_>) =
        undecided.partition(|(_, g)| g.unconfirmed_name().is_some());
    let (placeholder, unknown): (Vec<_>, Vec<_>) = unknown
        .into_iter()
        .partition(|(_, g)| g.driver_name.is_some());
    let mut why: Vec<String> = unconfirmed
        .iter()
        .map(|(i, g)| {
            format!(
                "the model of {} is the driver's word alone: {}",
                who(*i, g),
                g.unconfirmed_name().unwrap_or_default()
            )
        })
        .chain(placeholder.iter().map(|(i, g)| {
            format!(
                "the driver names {} '{}', no board's name, and its PCI id is in no table \
                 here: model unknown",
                who(*i, g),
                g.driver_name.as_deref().unwrap_or_default()
            )
        }))
        .collect();
    if !unknown.is_empty() {
        let names: Vec<String> = unknown.iter().map(|(i, g)| who(*i, g)).collect();
        why.push(format!(
            "model unknown of {} (no NVIDIA driver to name it, and its PCI id is in no table \
             here), cannot match the model",
            names.join(", ")
        ));
    }
    (!why.is_empty()).then(|| why.join("; "))
}

/// Why the drives a group selects are not all known: the drive list was not read whole,
/// or a drive's kind is unknown where the group selects by kind.
fn drives_unsure(spec: &Spec, f: &Filter) -> Option<String> {
    let state = spec.lists.drives;
    if !state.is_complete() {
        return Some(requirement::list_why(spec, "drives", state));
    }
    f.kind?;
    let unknown: Vec<&str> = spec
        .drives
        .iter()
        .filter(|d| !d.is_removable() && d.kind.is_none())
        .map(|d| d.name.as_str())
        .collect();
    (!unknown.is_empty()).then(|| format!("the kind of {} is unknown", unknown.join(", ")))
}

/// The GPUs a group selects: those its model names (`Model::matches`; all without one).
fn matching_gpus<'a>(m: &'a Machine<'a>, f: &'a Filter) -> impl Iterator<Item = (usize, &'a Gpu)> {
    m.spec
        .gpus
        .iter()
        .enumerate()
        .filter(move |(i, _)| m.gpu_is(f, *i) == Some(true))
}

/// Whether `g` is the group's model: known yes or no, or `None` where its name is unknown
/// (`Gpu::is_model`).
fn model_match(f: &Filter, g: &Gpu) -> Option<bool> {
    match &f.model {
        Some(m) => g.is_model(|n| m.matches(n)),
        None => Some(true),
    }
}

/// The machine a profile is checked against, with each GPU group's model matched against
/// each GPU once: a group's lines all ask which GPUs are its model, and a name's words are
/// compared once, not once per line (fleet checks thousands of hosts).
struct Machine<'a> {
    spec: &'a Spec,
    /// Per GPU group with a model, by group: whether each GPU (by index) is that model.
    gpu_models: HashMap<usize, Vec<Option<bool>>>,
    /// Whether a passing line says what it found (fleet keeps only the others).
    passing_found: bool,
}

impl<'a> Machine<'a> {
    fn new(spec: &'a Spec, reqs: &[Requirement], passing_found: bool) -> Self {
        let mut gpu_models = HashMap::new();
        for f in reqs.iter().filter_map(|r| r.filter.as_ref()) {
            if f.section == Section::Gpus && f.model.is_some() {
                gpu_models
                    .entry(f.group)
                    .or_insert_with(|| spec.gpus.iter().map(|g| model_match(f, g)).collect());
            }
        }
        Machine {
            spec,
            gpu_models,
            passing_found,
        }
    }

    /// Whether GPU `i` is the model of the group `f` selects (`model_match`).
    fn gpu_is(&self, f: &Filter, i: usize) -> Option<bool> {
        if f.model.is_none() {
            return Some(true);
        }
        match self.gpu_models.get(&f.group).and_then(|v| v.get(i)) {
            Some(known) => *known,
            None => self.spec.gpus.get(i).and_then(|g| model_match(f, g)),
        }
    }
}

/// The network adapters a group selects: those whose board or controller name its model
/// names (all without one).
fn matching_nics<'a>(spec: &'a Spec, f: &'a Filter) -> impl Iterator<Item = (usize, &'a Nic)> {
    spec.nics
        .iter()
        .enumerate()
        .filter(move |(_, n)| nic_match(f, n) == Some(true))
}

/// Whether `n` is the group's model: by its board's name or its controller's; `None` where
/// it has neither.
fn nic_match(f: &Filter, n: &Nic) -> Option<bool> {
    let Some(m) = &f.model else {
        return Some(true);
    };
    let names: Vec<&str> = [n.board.as_deref(), n.name.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    (!names.is_empty()).then(|| names.iter().any(|x| m.matches(x)))
}

/// Why the adapters a group selects are not all known: the list was not read whole, or an
/// adapter's name is unknown where the group selects by model.
fn nics_unsure(spec: &Spec, f: &Filter) -> Option<String> {
    let state = spec.lists.nics;
    if !state.is_complete() {
        return Some(requirement::list_why(spec, "nics", state));
    }
    let unknown: Vec<String> = spec
        .nics
        .iter()
        .filter(|n| nic_match(f, n).is_none())
        .map(|n| n.pci_address.clone().unwrap_or_else(|| "an adapter".into()))
        .collect();
    (!unknown.is_empty()).then(|| {
        format!(
            "the model of {} is unknown (its PCI id is in no pci.ids here)",
            unknown.join(", ")
        )
    })
}

/// The drives a group selects: the machine's own drives of its kind (all without one); USB
/// sticks and other removable media are not part of an order.
fn matching_drives<'a>(spec: &'a Spec, f: &'a Filter) -> impl Iterator<Item = (usize, &'a Drive)> {
    spec.drives
        .iter()
        .enumerate()
        .filter(move |(_, d)| !d.is_removable() && (f.kind.is_none() || d.kind == f.kind))
}
