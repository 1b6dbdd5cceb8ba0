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
use crate::requirement::{self, Found, Read, Reading, Section};
use crate::spec::{Drive, Gpu, Nic, Spec};

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
    verify_measured(spec, profile, unknowns, Vec::new())
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
    let strict = unknowns == Unknowns::Fail;
    let lines: Vec<Line> = profile
        .requirements
        .iter()
        .map(|r| check(spec, r))
        .collect();
    let mut lines = fold_missing_models(spec, &profile.requirements, lines);
    lines.extend(measured);
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
    }
}

/// A GPU group whose model is none of the machine's GPUs (every GPU named, none of them
/// possibly the model) has one cause for all its lines: the wrong board, or none, was
/// delivered. Its lines become one failing line that says what was ordered and what is there
/// (`ordered 2 × Quadro RTX 8000 48 GiB, found 2 × Quadro RTX 6000 24 GiB`), counted once; the
/// note lists what could not be compared. Other lines are kept as they are, in order.
fn fold_missing_models(spec: &Spec, reqs: &[Requirement], lines: Vec<Line>) -> Vec<Line> {
    let all_named = spec.gpus.iter().all(|g| g.name.is_some());
    let missing = |f: &Filter| {
        f.section == Section::Gpus
            && f.model.is_some()
            && all_named
            && matching_gpus(spec, f).next().is_none()
            && undecided(spec, f).is_none()
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

fn check(spec: &Spec, req: &Requirement) -> Line {
    let Reading {
        items,
        note,
        slack_below,
    } = found(spec, req);
    let expected = req.expected.clone();
    let mut line = Line {
        id: req.id.clone(),
        requirement: req.label.clone(),
        expected,
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
    let mut statuses = Vec::new();
    let mut shown = Vec::new();
    let mut unknown_why = Vec::new();
    for it in &items {
        match it {
            Found::Unknown(why) => {
                shown.push("unknown".to_string());
                unknown_why.push(why.clone());
                statuses.push(Status::Unknown);
            }
            Found::Num(n, s) => {
                shown.push(s.clone());
                statuses.push(compare_num(req, *n, slack_below));
            }
            Found::Floor(n, s) => {
                shown.push(s.clone());
                let status = compare_floor(req, *n);
                if status == Status::Unknown {
                    unknown_why.push(format!(
                        "{s}: the speed a port runs at now, and the card's own top speed is \
                         unknown (no ethtool link modes, not in rigcheck's table)"
                    ));
                }
                statuses.push(status);
            }
            Found::Text(t) => {
                shown.push(t.clone());
                statuses.push(compare_text(req, t));
            }
            Found::Names(names) => {
                let missing: Vec<String> = req
                    .values
                    .iter()
                    .filter_map(|v| match v {
                        Val::Text(t) if !names.iter().any(|n| norm_name(n) == norm_name(t)) => {
                            Some(t.clone())
                        }
                        _ => None,
                    })
                    .collect();
                if missing.is_empty() {
                    shown.push("all present".into());
                    statuses.push(Status::Pass);
                } else {
                    shown.push(format!("missing {}", missing.join(", ")));
                    statuses.push(Status::Fail);
                }
            }
        }
    }
    line.found = shown.join(", ");
    line.status = if statuses.contains(&Status::Fail) {
        Status::Fail
    } else if statuses.contains(&Status::Unknown) {
        Status::Unknown
    } else {
        Status::Pass
    };
    if !unknown_why.is_empty() {
        unknown_why.dedup();
        line.note = Some(unknown_why.join("; "));
    }
    if let Some(why) = contradicted(spec, req) {
        line.status = Status::Fail;
        line.note = Some(why);
    }
    if line.status == Status::Fail {
        let who = which_fail(spec, req, slack_below);
        if !who.is_empty() {
            let on = format!("fails on {}", who.join(", "));
            line.note = Some(match line.note.take() {
                Some(n) => format!("{on}; {n}"),
                None => on,
            });
        }
    }
    line
}

/// The GPUs, drives or DIMM slots a failed per-item requirement fails on, by name
/// (`GPU 1 (0000:af:00.0)`, `nvme1n1`, `CPU1-DIMM3`): the found column shows the values
/// collapsed (`8 GiB × 11, 16 GiB`), this says where the odd one is. Empty when every item
/// fails or the requirement is not per item.
fn which_fail(spec: &Spec, req: &Requirement, slack: f64) -> Vec<String> {
    let fails = |f: &Found| match f {
        Found::Num(n, _) => compare_num(req, *n, slack) == Status::Fail,
        Found::Text(t) => compare_text(req, t) == Status::Fail,
        _ => false,
    };
    let q = req.quantity;
    let named: Vec<(String, bool)> = match (req.field.read, &req.filter) {
        (Read::EachGpu(read), Some(f)) => matching_gpus(spec, f)
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
    let pass = req.values.iter().any(|v| match v {
        Val::Text(t) => {
            let t = norm_text(t);
            match req.op {
                Op::Contains => f.contains(&t),
                _ => f == t,
            }
        }
        Val::Num(_) => false,
    });
    if pass {
        Status::Pass
    } else {
        Status::Fail
    }
}

/// Case-insensitive, without trademark marks and repeated spaces:
/// `Intel(R) Xeon(R) Gold 6254 CPU` -> `intel xeon gold 6254 cpu`.
fn norm_text(s: &str) -> String {
    // One pass: a mark is a space, spaces collapse, letters lower-cased as they come.
    let mut out = String::with_capacity(s.len());
    let mut space = true;
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        let mark = ["(r)", "(tm)", "®", "™"].iter().find(|m| {
            rest.get(..m.len())
                .is_some_and(|h| h.eq_ignore_ascii_case(m))
        });
        let (is_space, len) = match mark {
            Some(m) => (true, m.len()),
            None => (c.is_whitespace(), c.len_utf8()),
        };
        if is_space {
            space = true;
        } else {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            out.extend(c.to_lowercase());
        }
        rest = &rest[len..];
    }
    out
}

/// Feature names compared without case, spaces, dashes or underscores (`AVX-512 VNNI` =
/// `avx512_vnni`).
fn norm_name(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase()
}

/// The found values for a requirement (one per matching item for per-GPU/per-drive fields),
/// read through the requirement's field.
fn found(spec: &Spec, req: &Requirement) -> Reading {
    let q = req.quantity;
    let plain = |items: Vec<Found>| Reading {
        items,
        note: None,
        slack_below: 0.0,
    };
    match (req.field.read, &req.filter) {
        (Read::Machine(read), _) => {
            let r = read(spec, q);
            Reading {
                items: collapse(r.items),
                ..r
            }
        }
        (Read::EachGpu(read), Some(f)) => Reading {
            items: match (undecided(spec, f), gpus_unsure(spec, f)) {
                // Not "no matching GPU": the GPUs the group would read are not known.
                (Some(why), _) if matching_gpus(spec, f).next().is_none() => {
                    vec![Found::Unknown(why)]
                }
                (_, unsure) => {
                    let mut items: Vec<Found> = matching_gpus(spec, f)
                        .map(|(i, g)| read(spec, i, g, q))
                        .collect();
                    // GPUs not seen (or not told) may be of the group: a GPU seen can fail
                    // the line, none can pass it.
                    items.extend(unsure.map(Found::Unknown));
                    collapse(items)
                }
            },
            note: datasheet_note(spec, f, req.field.key),
            slack_below: 0.0,
        },
        (Read::EachDrive(read), Some(f)) => {
            let mut items: Vec<Found> = matching_drives(spec, f)
                .map(|(i, d)| read(spec, i, d, q))
                .collect();
            items.extend(drives_unsure(spec, f).map(Found::Unknown));
            plain(collapse(items))
        }
        (Read::EachNic(read), Some(f)) => {
            let mut items: Vec<Found> = matching_nics(spec, f)
                .map(|(i, n)| read(spec, i, n, q))
                .collect();
            items.extend(nics_unsure(spec, f).map(Found::Unknown));
            plain(collapse(items))
        }
        (Read::GroupCount, Some(f)) if f.section == Section::Gpus => gpu_count(spec, f),
        (Read::GroupCount, Some(f)) if f.section == Section::Nics => {
            let n = matching_nics(spec, f).count() as u64;
            let others = spec.nics.len() as u64 - n;
            Reading {
                items: vec![match nics_unsure(spec, f) {
                    Some(why) => Found::Unknown(format!("{n} seen, more may exist: {why}")),
                    None => Found::Num(n, n.to_string()),
                }],
                note: (others > 0).then(|| format!("{others} other network adapter(s) present")),
                slack_below: 0.0,
            }
        }
        (Read::GroupCount, Some(f)) => {
            let n = matching_drives(spec, f).count() as u64;
            plain(vec![match drives_unsure(spec, f) {
                Some(why) => Found::Unknown(format!("{n} seen, more may exist: {why}")),
                None => Found::Num(n, n.to_string()),
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
fn undecided(spec: &Spec, f: &Filter) -> Option<String> {
    let maybe: Vec<(String, bool)> = spec
        .gpus
        .iter()
        .filter(|g| model_match(f, g).is_none())
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
fn contradicted(spec: &Spec, req: &Requirement) -> Option<String> {
    let f = req.filter.as_ref().filter(|f| f.section == Section::Gpus)?;
    if !matches!(req.field.key, "count" | "architecture") {
        return None;
    }
    let found: Vec<String> = matching_gpus(spec, f)
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
fn gpu_count(spec: &Spec, f: &Filter) -> Reading {
    let n = matching_gpus(spec, f).count();
    let maybe = undecided(spec, f);
    let why = match maybe {
        Some(why) => Some(why),
        None => gpus_unsure(spec, f).map(|why| format!("{n} seen, more may exist: {why}")),
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
    let note = match (others, datasheet_note(spec, f, "count")) {
        (Some(a), Some(b)) => Some(format!("{a}; names: {b}")),
        (a, b) => a.or(b),
    };
    Reading {
        items: vec![Found::Num(n as u64, n.to_string())],
        note,
        slack_below: 0.0,
    }
}

/// Marks a GPU line whose values are datasheet figures (no driver: the product table by
/// PCI id), so the order check says what it compared.
fn datasheet_note(spec: &Spec, f: &Filter, key: &str) -> Option<String> {
    let mut notes: Vec<String> = matching_gpus(spec, f)
        .filter_map(|(_, g)| requirement::gpu_datasheet_note(key, g))
        .collect();
    notes.dedup();
    (!notes.is_empty()).then(|| notes.join("; "))
}

/// Shows identical per-item values once with a count (`8 GiB × 12`) by collapsing equal
/// neighbours; statuses are unaffected because equal values compare equally.
fn collapse(items: Vec<Found>) -> Vec<Found> {
    let mut out: Vec<(Found, usize)> = Vec::new();
    for it in items {
        let same = match (out.last(), &it) {
            (Some((Found::Num(a, _), _)), Found::Num(b, _)) => a == b,
            (Some((Found::Text(a), _)), Found::Text(b)) => a == b,
            _ => false,
        };
        if same {
            if let Some(last) = out.last_mut() {
                last.1 += 1;
            }
        } else {
            out.push((it, 1));
        }
    }
    out.into_iter()
        .map(|(f, n)| match f {
            Found::Num(v, s) if n > 1 => Found::Num(v, format!("{s} × {n}")),
            Found::Text(t) if n > 1 => Found::Text(format!("{t} × {n}")),
            other => other,
        })
        .collect()
}

/// Why the GPUs a group selects are not all known: the GPU list was not read whole, or a
/// GPU's model is unknown (no driver, a PCI id neither the product table nor pci.ids names).
/// `None` when every GPU of the machine is seen and told.
fn gpus_unsure(spec: &Spec, f: &Filter) -> Option<String> {
    let state = spec.lists.gpus;
    if !state.is_complete() {
        return Some(requirement::list_why(spec, "gpus", state));
    }
    let unknown: Vec<String> = spec
        .gpus
        .iter()
        .enumerate()
        .filter(|(_, g)| model_match(f, g).is_none() && g.candidates_name().is_none())
        .map(|(i, g)| match &g.pci_address {
            Some(a) => format!("GPU {} ({a})", g.index.unwrap_or(i as u32)),
            None => format!("GPU {}", g.index.unwrap_or(i as u32)),
        })
        .collect();
    (!unknown.is_empty()).then(|| {
        format!(
            "model unknown of {} (no NVIDIA driver to name it, and its PCI id is in no table \
             here), cannot match the model",
            unknown.join(", ")
        )
    })
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
fn matching_gpus<'a>(spec: &'a Spec, f: &'a Filter) -> impl Iterator<Item = (usize, &'a Gpu)> {
    spec.gpus
        .iter()
        .enumerate()
        .filter(move |(_, g)| model_match(f, g) == Some(true))
}

/// Whether `g` is the group's model: known yes or no, or `None` where its name is unknown
/// (`Gpu::is_model`).
fn model_match(f: &Filter, g: &Gpu) -> Option<bool> {
    match &f.model {
        Some(m) => g.is_model(|n| m.matches(n)),
        None => Some(true),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_compares_without_case_marks_or_repeated_spaces() {
        assert_eq!(
            norm_text("Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz"),
            "intel xeon gold 6254 cpu @ 3.10ghz"
        );
        assert_eq!(
            norm_text("  AMD EPYC™ 7451 (TM) 24-Core  "),
            "amd epyc 7451 24-core"
        );
        assert_eq!(norm_text("Quadro® RTX\t6000"), "quadro rtx 6000");
        assert_eq!(norm_text("Überlänge"), "überlänge");
        assert_eq!(norm_text(""), "");
    }
}
