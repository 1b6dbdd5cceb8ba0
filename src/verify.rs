//! verify: checks a `Spec` against a `Profile`, one line per requirement, pass/fail/unknown.
//!
//! Pure: no I/O. Found values come from the spec only; an unknown fact is `unknown` with the
//! reason from the spec's notes, never a guess (`--strict` turns unknown into fail).

use serde::{Deserialize, Serialize};

use crate::profile::{Filter, Op, Profile, Quantity, Requirement, Val};
use crate::spec::{Drive, Gpu, Spec};
use crate::units::{bytes_bin, bytes_dec};

/// Outcome of one requirement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
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

/// Counts of each status.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct Summary {
    pub pass: usize,
    pub fail: usize,
    pub unknown: usize,
}

/// The verify result for one machine.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct VerifyReport {
    pub profile: String,
    pub description: Option<String>,
    pub hostname: Option<String>,
    pub captured_at: Option<String>,
    pub strict: bool,
    pub lines: Vec<Line>,
    pub summary: Summary,
    /// True when every line passed (unknown counts as fail under `strict`).
    pub passed: bool,
}

impl VerifyReport {
    /// Exit code: 0 all pass, 1 any failure.
    pub fn exit_code(&self) -> u8 {
        if self.passed {
            0
        } else {
            1
        }
    }
}

/// Checks `spec` against every requirement of `profile`.
pub fn verify(spec: &Spec, profile: &Profile, strict: bool) -> VerifyReport {
    let mut lines: Vec<Line> = profile
        .requirements
        .iter()
        .map(|r| check(spec, r))
        .collect();
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
    VerifyReport {
        profile: profile.name.clone(),
        description: profile.description.clone(),
        hostname: spec.hostname.clone(),
        captured_at: spec.captured_at.clone(),
        strict,
        passed: summary.fail == 0,
        lines,
        summary,
    }
}

/// A found value: number or text, shown as text, or unknown with why.
#[derive(Debug, Clone)]
enum Found {
    Num(u64, String),
    Text(String),
    Names(Vec<String>),
    Unknown(String),
}

fn check(spec: &Spec, req: &Requirement) -> Line {
    let (items, note) = found(spec, req);
    let expected = expected_text(req);
    let mut line = Line {
        id: req.id.clone(),
        requirement: req.label.clone(),
        expected,
        found: String::new(),
        status: Status::Unknown,
        note,
    };
    if items.is_empty() {
        let what = if req.filter.as_ref().is_some_and(|f| f.section == "gpus") {
            "GPU"
        } else {
            "drive"
        };
        line.found = format!("no matching {what}");
        line.status = Status::Fail;
        return line;
    }
    let mut statuses = Vec::new();
    let mut shown = Vec::new();
    let mut unknown_why = Vec::new();
    // Memory read from MemTotal sits 1.5–4 % under the installed DIMMs (firmware and kernel
    // reservations), so the lower bound gets that much more room.
    let extra_low =
        if req.id == "memory.total" && spec.memory.total_source.as_deref() != Some("dimms") {
            0.05
        } else {
            0.0
        };
    for it in &items {
        match it {
            Found::Unknown(why) => {
                shown.push("unknown".to_string());
                unknown_why.push(why.clone());
                statuses.push(Status::Unknown);
            }
            Found::Num(n, s) => {
                shown.push(s.clone());
                statuses.push(compare_num(req, *n, extra_low));
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
    line
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
    let lower = s
        .to_lowercase()
        .replace("(r)", " ")
        .replace("(tm)", " ")
        .replace("®", " ")
        .replace("™", " ");
    lower.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Feature names compared without case, spaces, dashes or underscores (`AVX-512 VNNI` =
/// `avx512_vnni`).
fn norm_name(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase()
}

fn show_num(q: Quantity, n: u64) -> String {
    match q {
        Quantity::BytesSi => bytes_dec(n),
        Quantity::BytesJedec => bytes_bin(n),
        Quantity::Mhz => format!("{n} MHz"),
        Quantity::Mts => format!("{n} MT/s"),
        _ => n.to_string(),
    }
}

fn expected_text(req: &Requirement) -> String {
    let vals: Vec<String> = req
        .values
        .iter()
        .map(|v| match v {
            Val::Num(n) => show_num(req.quantity, *n),
            Val::Text(t) => format!("'{t}'"),
        })
        .collect();
    let body = match req.op {
        Op::Exact => format!("= {}", vals.join(", ")),
        Op::AtLeast => format!("≥ {}", vals.join(", ")),
        Op::AtMost => format!("≤ {}", vals.join(", ")),
        Op::OneOf => format!("one of {}", vals.join(", ")),
        Op::Contains => format!("contains {}", vals.join(", ")),
        Op::AllOf => format!("has {}", vals.join(", ")),
    };
    if req.tolerance > 0.0 && !matches!(req.quantity, Quantity::Text | Quantity::Names) {
        format!(
            "{body} (±{}%)",
            (req.tolerance * 100.0 * 10.0).round() / 10.0
        )
    } else {
        body
    }
}

/// Reason text for an unknown field from the spec's notes, or a generic one.
fn why(spec: &Spec, field: &str) -> String {
    spec.notes
        .iter()
        .find(|n| {
            n.field == field
                || field.starts_with(&format!("{}.", n.field))
                || n.field.starts_with(&format!("{field}."))
        })
        .map(|n| n.reason.clone())
        .unwrap_or_else(|| format!("{field} is unknown on this machine"))
}

fn num(q: Quantity, v: Option<u64>, spec: &Spec, field: &str) -> Found {
    match v {
        Some(n) => Found::Num(n, show_num(q, n)),
        None => Found::Unknown(why(spec, field)),
    }
}

fn text(v: &Option<String>, spec: &Spec, field: &str) -> Found {
    match v {
        Some(t) => Found::Text(t.clone()),
        None => Found::Unknown(why(spec, field)),
    }
}

/// The found values for a requirement (one per matching item for per-GPU/per-drive fields),
/// and a note on how they were read when that matters.
fn found(spec: &Spec, req: &Requirement) -> (Vec<Found>, Option<String>) {
    let key = req.id.rsplit('.').next().unwrap_or("");
    let q = req.quantity;
    let c = &spec.cpu;
    let m = &spec.memory;
    let one = |f: Found| (vec![f], None);
    if let Some(filter) = &req.filter {
        return group_found(spec, req, filter, key);
    }
    match req.id.as_str() {
        "system.vendor" => one(text(&spec.system.vendor, spec, "system.vendor")),
        "system.product" => one(text(&spec.system.product, spec, "system.product")),
        "system.bios_version" => one(text(&spec.system.bios_version, spec, "system.bios_version")),
        "system.chassis" => one(text(&spec.system.chassis_type, spec, "system.chassis_type")),
        "cpu.model" => one(text(&c.model, spec, "cpu.model")),
        "cpu.vendor" => one(text(&c.vendor, spec, "cpu.vendor")),
        "cpu.sockets" => one(num(q, c.sockets.map(u64::from), spec, "cpu.sockets")),
        "cpu.cores" => one(num(q, c.cores.map(u64::from), spec, "cpu.cores")),
        "cpu.threads" => one(num(q, c.threads.map(u64::from), spec, "cpu.threads")),
        "cpu.threads_per_core" => one(num(
            q,
            c.threads_per_core.map(u64::from),
            spec,
            "cpu.threads_per_core",
        )),
        "cpu.base_clock" => one(num(q, c.base_mhz.map(u64::from), spec, "cpu.base_mhz")),
        "cpu.max_clock" => one(num(q, c.max_mhz.map(u64::from), spec, "cpu.max_mhz")),
        "cpu.isa" => {
            if c.flags.is_empty() && c.isa.is_empty() {
                one(Found::Unknown(why(spec, "cpu.flags")))
            } else {
                one(Found::Names(
                    c.isa.iter().chain(c.flags.iter()).cloned().collect(),
                ))
            }
        }
        "memory.total" => match (m.total_bytes, m.total_source.as_deref()) {
            (Some(t), Some("dimms")) => one(Found::Num(t, bytes_bin(t))),
            (Some(t), _) => (
                vec![Found::Num(t, format!("{} (MemTotal)", bytes_bin(t)))],
                Some(
                    "DIMMs unknown: compared MemTotal, which sits a few % under installed memory"
                        .into(),
                ),
            ),
            (None, _) => one(Found::Unknown(why(spec, "memory.total_bytes"))),
        },
        "memory.dimm_count" => {
            if m.dimm_source.is_none() {
                one(Found::Unknown(why(spec, "memory.dimms")))
            } else {
                one(Found::Num(m.dimms.len() as u64, m.dimms.len().to_string()))
            }
        }
        "memory.dimm_size" | "memory.dimm_speed" | "memory.dimm_type" => {
            if m.dimm_source.is_none() || m.dimms.is_empty() {
                return one(Found::Unknown(why(spec, "memory.dimms")));
            }
            let items = m
                .dimms
                .iter()
                .map(|d| match key {
                    "dimm_size" => num(q, d.size_bytes, spec, "memory.dimms"),
                    "dimm_speed" => num(q, d.speed_mts.map(u64::from), spec, "memory.dimms"),
                    _ => text(&d.kind, spec, "memory.dimms"),
                })
                .collect();
            (collapse(items), None)
        }
        "headroom.free_dimm_slots"
        | "headroom.free_x16_slots"
        | "headroom.empty_sockets"
        | "headroom.max_memory" => one(headroom_found(spec, q, key)),
        _ => one(Found::Unknown(format!(
            "{} is not a known requirement",
            req.id
        ))),
    }
}

/// A `[headroom]` value: usable free DIMM slots, free x16 slots, empty sockets, or the
/// memory arrays' maximum capacity.
fn headroom_found(spec: &Spec, q: Quantity, key: &str) -> Found {
    let Some(h) = &spec.headroom else {
        return Found::Unknown(why(spec, "headroom"));
    };
    let mem = h.memory.as_ref();
    match key {
        "free_dimm_slots" => num(
            q,
            mem.map(|m| u64::from(m.usable_free_slots)),
            spec,
            "headroom.memory",
        ),
        "free_x16_slots" => num(
            q,
            h.free_x16_slots.map(u64::from),
            spec,
            "headroom.pcie_slots",
        ),
        "empty_sockets" => num(q, h.empty_sockets.map(u64::from), spec, "headroom.sockets"),
        _ => num(
            q,
            mem.and_then(|m| m.max_capacity_bytes),
            spec,
            "headroom.memory.max_capacity_bytes",
        ),
    }
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

fn gpu_matches(g: &Gpu, f: &Filter) -> bool {
    match &f.model {
        Some(m) => g
            .name
            .as_deref()
            .is_some_and(|n| norm_text(n).contains(&norm_text(m))),
        None => true,
    }
}

fn drive_matches(d: &Drive, f: &Filter) -> bool {
    match &f.kind {
        Some(k) => d.kind.as_deref() == Some(k.as_str()),
        None => true,
    }
}

fn group_found(
    spec: &Spec,
    req: &Requirement,
    f: &Filter,
    key: &str,
) -> (Vec<Found>, Option<String>) {
    let q = req.quantity;
    if f.section == "gpus" {
        let gpus: Vec<(usize, &Gpu)> = spec
            .gpus
            .iter()
            .enumerate()
            .filter(|(_, g)| gpu_matches(g, f))
            .collect();
        if key == "count" {
            let n = gpus.len() as u64;
            let mut note = None;
            if n == 0 && spec.gpus.iter().any(|g| g.name.is_none()) {
                return (
                    vec![Found::Unknown(
                        "GPU names unknown (no NVIDIA driver?), cannot match the model".into(),
                    )],
                    None,
                );
            }
            if spec.gpus.len() > gpus.len() {
                note = Some(format!(
                    "{} other GPU(s) present",
                    spec.gpus.len() - gpus.len()
                ));
            }
            return (vec![Found::Num(n, n.to_string())], note);
        }
        let items = gpus
            .iter()
            .map(|(i, g)| {
                let field = |s: &str| format!("gpus[{i}].{s}");
                match key {
                    "model" => text(&g.name, spec, &field("name")),
                    "architecture" => text(&g.architecture, spec, &field("architecture")),
                    "vram" => num(q, g.vram_bytes, spec, &field("vram_bytes")),
                    "cuda_cores" => num(q, g.cuda_cores.map(u64::from), spec, &field("cuda_cores")),
                    "tensor_cores" => num(
                        q,
                        g.tensor_cores.map(u64::from),
                        spec,
                        &field("tensor_cores"),
                    ),
                    "pcie_width" => {
                        // The negotiated width; the GPU's own maximum is shown beside it so
                        // "x8 (max x16)" reads as a slot or riser problem.
                        let w = g.pcie.width.or(g.pcie.max_width);
                        let card = g.pcie.device_max_width.or(g.pcie.max_width);
                        match w {
                            Some(w) => Found::Num(
                                u64::from(w),
                                match card {
                                    Some(m) if m > w => format!("x{w} (card x{m})"),
                                    _ => format!("x{w}"),
                                },
                            ),
                            None => Found::Unknown(why(spec, &field("pcie"))),
                        }
                    }
                    "pcie_gen" => num(q, g.pcie.max_gen.map(u64::from), spec, &field("pcie")),
                    _ => Found::Unknown(format!("{key} is not a GPU requirement")),
                }
            })
            .collect();
        return (collapse(items), None);
    }
    let drives: Vec<(usize, &Drive)> = spec
        .drives
        .iter()
        .enumerate()
        .filter(|(_, d)| drive_matches(d, f))
        .collect();
    if key == "count" {
        let n = drives.len() as u64;
        return (vec![Found::Num(n, n.to_string())], None);
    }
    let items = drives
        .iter()
        .map(|(i, d)| {
            let field = |s: &str| format!("drives[{i}].{s}");
            match key {
                "capacity" => num(q, d.size_bytes, spec, &field("size_bytes")),
                "model" => text(&d.model, spec, &field("model")),
                "transport" => text(&d.transport, spec, &field("transport")),
                _ => Found::Unknown(format!("{key} is not a drive requirement")),
            }
        })
        .collect();
    (collapse(items), None)
}
