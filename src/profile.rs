//! Profiles: the order a machine is checked against, as a TOML file, parsed into
//! requirements with positions so every mistake is reported as `file:line:column: what`.
//!
//! A requirement is written as a bare value (text: contains; number or size: equal within
//! the field's tolerance; array: one of) or as a table with one of `exact`, `at_least`,
//! `at_most`, `one_of`, `contains`, plus an optional `tolerance = "3%"`.

use std::path::Path;

use serde::Deserialize;
use toml::{Spanned, Value};

pub use crate::error::ProfileError;
use crate::units;

/// Built-in profiles, embedded in the binary: (name, TOML text).
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "hp-z8-g4-dual-rtx6000",
        include_str!("../profiles/hp-z8-g4-dual-rtx6000.toml"),
    ),
    (
        "hp-z8-g4-dual-rtx8000",
        include_str!("../profiles/hp-z8-g4-dual-rtx8000.toml"),
    ),
];

/// A parsed profile.
#[derive(Debug, Clone)]
pub struct Profile {
    /// Name from `[profile] name`, else the file stem.
    pub name: String,
    pub description: Option<String>,
    pub requirements: Vec<Requirement>,
}

/// What kind of quantity a field holds; decides the units accepted and the default tolerance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// A plain count (sockets, cores, GPUs).
    Count,
    /// Bytes, SI reading of GB (drives).
    BytesSi,
    /// Bytes, JEDEC reading of GB (DIMMs, VRAM).
    BytesJedec,
    /// A clock in MHz.
    Mhz,
    /// A transfer rate in MT/s.
    Mts,
    /// A text (model name, kind).
    Text,
    /// A set of names that must all be present (ISA features).
    Names,
}

impl Quantity {
    /// Tolerance used when the profile gives none: sizes are rounded by vendors.
    pub fn default_tolerance(self) -> f64 {
        match self {
            Quantity::BytesSi | Quantity::BytesJedec => 0.03,
            _ => 0.0,
        }
    }
}

/// How a found value is compared with the ordered one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Exact,
    AtLeast,
    AtMost,
    OneOf,
    Contains,
    /// All listed names present (ISA features).
    AllOf,
}

/// One ordered value, in base units.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    Num(u64),
    Text(String),
}

/// One line of the order.
#[derive(Debug, Clone)]
pub struct Requirement {
    /// Stable id, e.g. `cpu.sockets`, `gpus[0].vram`.
    pub id: String,
    /// What a person calls it, e.g. `GPU count ('Quadro RTX 6000')`.
    pub label: String,
    pub quantity: Quantity,
    pub op: Op,
    pub values: Vec<Val>,
    /// Relative tolerance (0.03 = 3 %).
    pub tolerance: f64,
    /// The group filter for `gpus`/`drives` requirements: which items it applies to.
    pub filter: Option<Filter>,
    /// Where it was written (1-based line, column).
    pub at: (usize, usize),
}

/// Which GPUs or drives a group of requirements applies to.
#[derive(Debug, Clone, PartialEq)]
pub struct Filter {
    /// `gpus` or `drives`.
    pub section: &'static str,
    /// Group index in the profile.
    pub group: usize,
    /// GPU model (contains) or drive kind (exact) the group selects; None = all.
    pub model: Option<String>,
    pub kind: Option<String>,
}

type V = Option<Spanned<Value>>;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProfile {
    profile: Option<RawMeta>,
    system: Option<RawSystem>,
    cpu: Option<RawCpu>,
    memory: Option<RawMemory>,
    #[serde(default)]
    gpus: Vec<RawGpus>,
    #[serde(default)]
    drives: Vec<RawDrives>,
    headroom: Option<RawHeadroom>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHeadroom {
    free_dimm_slots: V,
    free_x16_slots: V,
    empty_sockets: V,
    max_memory: V,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMeta {
    name: Option<String>,
    description: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSystem {
    vendor: V,
    product: V,
    bios_version: V,
    chassis: V,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCpu {
    model: V,
    vendor: V,
    sockets: V,
    cores: V,
    threads: V,
    threads_per_core: V,
    base_clock: V,
    max_clock: V,
    isa: V,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMemory {
    total: V,
    dimm_count: V,
    dimm_size: V,
    dimm_speed: V,
    dimm_type: V,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGpus {
    model: Option<Spanned<String>>,
    count: V,
    architecture: V,
    vram: V,
    cuda_cores: V,
    tensor_cores: V,
    pcie_width: V,
    pcie_gen: V,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDrives {
    kind: Option<Spanned<String>>,
    count: V,
    model: V,
    capacity: V,
    transport: V,
}

/// Loads a profile: a built-in name, or a path to a TOML file.
pub fn load(name_or_path: &str) -> Result<Profile, ProfileError> {
    if let Some((name, text)) = BUILTIN.iter().find(|(n, _)| *n == name_or_path) {
        return parse(text, &format!("<built-in {name}>"), name);
    }
    let path = Path::new(name_or_path);
    let text = crate::io::read_input(path)
        .and_then(|b| String::from_utf8(b).map_err(std::io::Error::other))
        .map_err(|e| ProfileError {
            file: name_or_path.to_string(),
            line: 0,
            column: 0,
            message: if e.kind() == std::io::ErrorKind::NotFound {
                format!(
                    "no such file, and no built-in profile of that name (built-in: {})",
                    BUILTIN
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                e.to_string()
            },
        })?;
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    parse(&text, name_or_path, &stem)
}

/// Parses profile text; `file` names it in errors, `default_name` is used without `[profile]`.
pub fn parse(text: &str, file: &str, default_name: &str) -> Result<Profile, ProfileError> {
    let err_at = |span: Option<std::ops::Range<usize>>, message: String| {
        let (line, column) = span.map_or((0, 0), |s| line_col(text, s.start));
        ProfileError {
            file: file.to_string(),
            line,
            column,
            message,
        }
    };
    if text.trim().is_empty() {
        return Err(err_at(
            None,
            "the profile is empty: give at least one requirement".into(),
        ));
    }
    let raw: RawProfile = toml::from_str(text).map_err(|e| {
        let msg = e.message().trim().to_string();
        err_at(e.span(), with_suggestion(&msg))
    })?;
    let mut b = Builder {
        text,
        file,
        reqs: Vec::new(),
    };
    if let Some(s) = &raw.system {
        b.add(
            "system.vendor",
            "System vendor",
            Quantity::Text,
            &s.vendor,
            None,
        )?;
        b.add(
            "system.product",
            "System model",
            Quantity::Text,
            &s.product,
            None,
        )?;
        b.add(
            "system.bios_version",
            "BIOS version",
            Quantity::Text,
            &s.bios_version,
            None,
        )?;
        b.add(
            "system.chassis",
            "Chassis type",
            Quantity::Text,
            &s.chassis,
            None,
        )?;
    }
    if let Some(c) = &raw.cpu {
        b.add("cpu.model", "CPU model", Quantity::Text, &c.model, None)?;
        b.add("cpu.vendor", "CPU vendor", Quantity::Text, &c.vendor, None)?;
        b.add(
            "cpu.sockets",
            "CPU sockets",
            Quantity::Count,
            &c.sockets,
            None,
        )?;
        b.add(
            "cpu.cores",
            "CPU cores (all sockets)",
            Quantity::Count,
            &c.cores,
            None,
        )?;
        b.add(
            "cpu.threads",
            "CPU threads",
            Quantity::Count,
            &c.threads,
            None,
        )?;
        b.add(
            "cpu.threads_per_core",
            "Threads per core",
            Quantity::Count,
            &c.threads_per_core,
            None,
        )?;
        b.add(
            "cpu.base_clock",
            "CPU base clock",
            Quantity::Mhz,
            &c.base_clock,
            None,
        )?;
        b.add(
            "cpu.max_clock",
            "CPU max (turbo) clock",
            Quantity::Mhz,
            &c.max_clock,
            None,
        )?;
        b.add("cpu.isa", "CPU features", Quantity::Names, &c.isa, None)?;
    }
    if let Some(m) = &raw.memory {
        b.add(
            "memory.total",
            "Memory installed",
            Quantity::BytesJedec,
            &m.total,
            None,
        )?;
        b.add(
            "memory.dimm_count",
            "DIMMs installed",
            Quantity::Count,
            &m.dimm_count,
            None,
        )?;
        b.add(
            "memory.dimm_size",
            "DIMM size (each)",
            Quantity::BytesJedec,
            &m.dimm_size,
            None,
        )?;
        b.add(
            "memory.dimm_speed",
            "DIMM speed (each)",
            Quantity::Mts,
            &m.dimm_speed,
            None,
        )?;
        b.add(
            "memory.dimm_type",
            "DIMM type",
            Quantity::Text,
            &m.dimm_type,
            None,
        )?;
    }
    for (i, g) in raw.gpus.iter().enumerate() {
        let model = g.model.as_ref().map(|m| m.get_ref().clone());
        let f = Filter {
            section: "gpus",
            group: i,
            model: model.clone(),
            kind: None,
        };
        let which = model.map(|m| format!(" ('{m}')")).unwrap_or_default();
        let p = format!("gpus[{i}]");
        b.add(
            &format!("{p}.count"),
            &format!("GPU count{which}"),
            Quantity::Count,
            &g.count,
            Some(&f),
        )?;
        let gl = |s: &str| format!("GPU {s}{which}");
        b.add(
            &format!("{p}.architecture"),
            &gl("architecture"),
            Quantity::Text,
            &g.architecture,
            Some(&f),
        )?;
        b.add(
            &format!("{p}.vram"),
            &gl("memory"),
            Quantity::BytesJedec,
            &g.vram,
            Some(&f),
        )?;
        b.add(
            &format!("{p}.cuda_cores"),
            &gl("CUDA cores"),
            Quantity::Count,
            &g.cuda_cores,
            Some(&f),
        )?;
        b.add(
            &format!("{p}.tensor_cores"),
            &gl("Tensor cores"),
            Quantity::Count,
            &g.tensor_cores,
            Some(&f),
        )?;
        b.add(
            &format!("{p}.pcie_width"),
            &gl("PCIe link width"),
            Quantity::Count,
            &g.pcie_width,
            Some(&f),
        )?;
        b.add(
            &format!("{p}.pcie_gen"),
            &gl("PCIe generation (max)"),
            Quantity::Count,
            &g.pcie_gen,
            Some(&f),
        )?;
    }
    for (i, d) in raw.drives.iter().enumerate() {
        let kind = d.kind.as_ref().map(|k| k.get_ref().to_ascii_lowercase());
        if let (Some(k), Some(sp)) = (&kind, &d.kind) {
            if !["nvme", "ssd", "hdd", "virtual"].contains(&k.as_str()) {
                return Err(err_at(
                    Some(sp.span()),
                    format!("drive kind '{k}' is not one of nvme, ssd, hdd, virtual"),
                ));
            }
        }
        let f = Filter {
            section: "drives",
            group: i,
            model: None,
            kind: kind.clone(),
        };
        let which = kind.map(|k| format!(" ({k})")).unwrap_or_default();
        let p = format!("drives[{i}]");
        b.add(
            &format!("{p}.count"),
            &format!("Drive count{which}"),
            Quantity::Count,
            &d.count,
            Some(&f),
        )?;
        b.add(
            &format!("{p}.model"),
            &format!("Drive model{which}"),
            Quantity::Text,
            &d.model,
            Some(&f),
        )?;
        b.add(
            &format!("{p}.capacity"),
            &format!("Drive capacity{which}"),
            Quantity::BytesSi,
            &d.capacity,
            Some(&f),
        )?;
        b.add(
            &format!("{p}.transport"),
            &format!("Drive transport{which}"),
            Quantity::Text,
            &d.transport,
            Some(&f),
        )?;
    }
    if let Some(h) = &raw.headroom {
        b.add(
            "headroom.free_dimm_slots",
            "Free DIMM slots (usable)",
            Quantity::Count,
            &h.free_dimm_slots,
            None,
        )?;
        b.add(
            "headroom.free_x16_slots",
            "Free x16 PCIe slots",
            Quantity::Count,
            &h.free_x16_slots,
            None,
        )?;
        b.add(
            "headroom.empty_sockets",
            "Empty CPU sockets",
            Quantity::Count,
            &h.empty_sockets,
            None,
        )?;
        b.add(
            "headroom.max_memory",
            "Maximum memory (all slots)",
            Quantity::BytesJedec,
            &h.max_memory,
            None,
        )?;
    }
    if b.reqs.is_empty() {
        return Err(err_at(None, "the profile has no requirements".into()));
    }
    let meta = raw.profile.unwrap_or(RawMeta {
        name: None,
        description: None,
    });
    Ok(Profile {
        name: meta.name.unwrap_or_else(|| default_name.to_string()),
        description: meta.description,
        requirements: b.reqs,
    })
}

struct Builder<'a> {
    text: &'a str,
    file: &'a str,
    reqs: Vec<Requirement>,
}

impl Builder<'_> {
    fn err(&self, span: std::ops::Range<usize>, message: String) -> ProfileError {
        let (line, column) = line_col(self.text, span.start);
        ProfileError {
            file: self.file.to_string(),
            line,
            column,
            message,
        }
    }

    fn add(
        &mut self,
        id: &str,
        label: &str,
        q: Quantity,
        raw: &V,
        filter: Option<&Filter>,
    ) -> Result<(), ProfileError> {
        let Some(sp) = raw else { return Ok(()) };
        let span = sp.span();
        let key = id.rsplit('.').next().unwrap_or(id);
        let (op, values, tol) = match sp.get_ref() {
            Value::Table(t) => {
                let mut op = None;
                let mut vals = Vec::new();
                let mut tol = None;
                for (k, v) in t {
                    let this = match k.as_str() {
                        "exact" => Op::Exact,
                        "at_least" => Op::AtLeast,
                        "at_most" => Op::AtMost,
                        "one_of" => Op::OneOf,
                        "contains" => Op::Contains,
                        "all_of" => Op::AllOf,
                        "tolerance" => {
                            let s = match v {
                                Value::String(s) => s.clone(),
                                other => other.to_string(),
                            };
                            tol = Some(units::parse_percent(&s).map_err(|e| {
                                self.err(span.clone(), format!("{key}: tolerance '{s}': {e}"))
                            })?);
                            continue;
                        }
                        other => {
                            const OPS: [&str; 7] = [
                                "exact",
                                "at_least",
                                "at_most",
                                "one_of",
                                "contains",
                                "all_of",
                                "tolerance",
                            ];
                            return Err(self.err(
                                span.clone(),
                                format!(
                                    "{key}: unknown comparison '{other}'{}; expected one of {}",
                                    nearest(other, &OPS)
                                        .map(|n| format!(" (did you mean '{n}'?)"))
                                        .unwrap_or_default(),
                                    OPS.join(", ")
                                ),
                            ));
                        }
                    };
                    if op.is_some() {
                        return Err(
                            self.err(span.clone(), format!("{key}: give only one comparison"))
                        );
                    }
                    op = Some(this);
                    vals = self.values(q, this, v, key, span.clone())?;
                }
                let op = op.ok_or_else(|| {
                    self.err(span.clone(), format!("{key}: a table needs one of exact, at_least, at_most, one_of, contains"))
                })?;
                (op, vals, tol)
            }
            Value::Array(_) => {
                let op = if q == Quantity::Names {
                    Op::AllOf
                } else {
                    Op::OneOf
                };
                (
                    op,
                    self.values(q, op, sp.get_ref(), key, span.clone())?,
                    None,
                )
            }
            v => {
                let op = match q {
                    Quantity::Text => Op::Contains,
                    Quantity::Names => Op::AllOf,
                    _ => Op::Exact,
                };
                (op, self.values(q, op, v, key, span.clone())?, None)
            }
        };
        if matches!(op, Op::AtLeast | Op::AtMost) && q == Quantity::Text {
            return Err(self.err(
                span,
                format!("{key}: at_least/at_most need a number, not text"),
            ));
        }
        self.reqs.push(Requirement {
            id: id.to_string(),
            label: label.to_string(),
            quantity: q,
            op,
            values,
            tolerance: tol.unwrap_or_else(|| q.default_tolerance()),
            filter: filter.cloned(),
            at: line_col(self.text, span.start),
        });
        Ok(())
    }

    fn values(
        &self,
        q: Quantity,
        op: Op,
        v: &Value,
        key: &str,
        span: std::ops::Range<usize>,
    ) -> Result<Vec<Val>, ProfileError> {
        let items: Vec<&Value> = match v {
            Value::Array(a) if matches!(op, Op::OneOf | Op::AllOf) => a.iter().collect(),
            Value::Array(_) => {
                return Err(self.err(span, format!("{key}: a list is only allowed with one_of")))
            }
            other => vec![other],
        };
        if items.is_empty() {
            return Err(self.err(span, format!("{key}: the list is empty")));
        }
        items
            .into_iter()
            .map(|it| self.value(q, it, key, span.clone()))
            .collect()
    }

    fn value(
        &self,
        q: Quantity,
        v: &Value,
        key: &str,
        span: std::ops::Range<usize>,
    ) -> Result<Val, ProfileError> {
        let bad_type = |want: &str| {
            self.err(
                span.clone(),
                format!("{key}: expected {want}, found {}", v.type_str()),
            )
        };
        let parse = |f: fn(&str) -> Result<u64, String>| match v {
            Value::String(s) => f(s)
                .map(Val::Num)
                .map_err(|e| self.err(span.clone(), format!("{key}: {e}"))),
            Value::Integer(i) if *i >= 0 => Ok(Val::Num(*i as u64)),
            Value::Float(x) if *x >= 0.0 => f(&x.to_string())
                .map(Val::Num)
                .map_err(|e| self.err(span.clone(), format!("{key}: {e}"))),
            _ => Err(bad_type(
                "a number or a quantity in quotes such as \"24 GiB\"",
            )),
        };
        match q {
            Quantity::Count => match v {
                Value::Integer(i) if *i >= 0 => Ok(Val::Num(*i as u64)),
                Value::Integer(i) => Err(self.err(
                    span.clone(),
                    format!("{key}: expected a whole number ≥ 0, found {i}"),
                )),
                _ => Err(bad_type("a whole number")),
            },
            Quantity::BytesSi => parse(units::parse_bytes),
            Quantity::BytesJedec => parse(units::parse_bytes_jedec),
            Quantity::Mhz => parse(units::parse_mhz),
            Quantity::Mts => parse(units::parse_mts),
            Quantity::Text | Quantity::Names => match v {
                Value::String(s) if !s.trim().is_empty() => Ok(Val::Text(s.clone())),
                Value::String(_) => Err(self.err(span.clone(), format!("{key}: empty text"))),
                _ => Err(bad_type("text in quotes")),
            },
        }
    }
}

/// 1-based line and column of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, col)
}

/// Adds "did you mean" to serde's unknown-field message, which lists the valid names in
/// backticks after the unknown one.
fn with_suggestion(msg: &str) -> String {
    if !msg.starts_with("unknown field") {
        return msg.to_string();
    }
    let names: Vec<&str> = msg.split('`').skip(1).step_by(2).collect();
    match names.split_first() {
        Some((bad, valid)) => match nearest(bad, valid) {
            Some(n) => format!("{msg} (did you mean `{n}`?)"),
            None => msg.to_string(),
        },
        None => msg.to_string(),
    }
}

/// The valid name closest to `bad`, if any is close enough to be a typo.
fn nearest<'a>(bad: &str, valid: &[&'a str]) -> Option<&'a str> {
    valid
        .iter()
        .map(|v| (strsim::jaro_winkler(bad, v), *v))
        .filter(|(score, _)| *score > 0.75)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, v)| v)
}

/// Writes a profile that the machine in `spec` passes: the golden machine becomes the order
/// for a fleet. Unknown facts are left out (with a comment), never guessed.
pub fn from_spec(spec: &crate::spec::Spec, name: &str) -> String {
    use std::collections::BTreeMap;
    use std::fmt::Write as _;
    let q = |s: &str| format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""));
    let gib = |b: u64| {
        let g = b as f64 / (1u64 << 30) as f64;
        format!("\"{} GiB\"", (g * 10.0).round() / 10.0)
    };
    let mut t = String::new();
    let mut skipped: Vec<&str> = Vec::new();
    let _ = writeln!(
        t,
        "# Made by `rigcheck profile new` from {} ({}).",
        spec.hostname.as_deref().unwrap_or("unknown host"),
        spec.captured_at.as_deref().unwrap_or("time not recorded")
    );
    let _ = writeln!(
        t,
        "# Edit freely: see `rigcheck profiles show hp-z8-g4-dual-rtx6000` for the syntax.\n"
    );
    let _ = writeln!(t, "[profile]\nname = {}", q(name));
    let s = &spec.system;
    let desc: Vec<&str> = [s.vendor.as_deref(), s.product.as_deref()]
        .into_iter()
        .flatten()
        .collect();
    if !desc.is_empty() {
        let _ = writeln!(t, "description = {}", q(&desc.join(" ")));
    }
    if s.vendor.is_some() || s.product.is_some() {
        let _ = writeln!(t, "\n[system]");
        if let Some(v) = &s.vendor {
            let _ = writeln!(t, "vendor = {}", q(v));
        }
        if let Some(p) = &s.product {
            let _ = writeln!(t, "product = {}", q(p));
        }
    } else {
        skipped.push("system (no DMI data)");
    }
    let c = &spec.cpu;
    let _ = writeln!(t, "\n[cpu]");
    if let Some(m) = &c.model {
        let _ = writeln!(t, "model = {}", q(m));
    }
    for (k, v) in [
        ("sockets", c.sockets),
        ("cores", c.cores),
        ("threads", c.threads),
    ] {
        match v {
            Some(v) => {
                let _ = writeln!(t, "{k} = {v}");
            }
            None => skipped.push(k),
        }
    }
    if let Some(b) = c.base_mhz {
        let _ = writeln!(t, "base_clock = {{ at_least = \"{b} MHz\" }}");
    }
    if let Some(m) = c.max_mhz {
        let _ = writeln!(t, "max_clock = {{ at_least = \"{m} MHz\" }}");
    }
    if !c.isa.is_empty() {
        let list: Vec<String> = c.isa.iter().map(|i| q(i)).collect();
        let _ = writeln!(t, "isa = [{}]", list.join(", "));
    }
    let m = &spec.memory;
    let _ = writeln!(t, "\n[memory]");
    match m.total_bytes {
        Some(b) if m.total_source.as_deref() == Some("dimms") => {
            let _ = writeln!(t, "total = {}", gib(b));
        }
        Some(b) => {
            let _ = writeln!(
                t,
                "# DIMMs unknown: MemTotal is a few % under installed memory"
            );
            let _ = writeln!(t, "total = {{ at_least = {} }}", gib(b));
        }
        None => skipped.push("memory.total"),
    }
    if m.dimm_source.is_some() && !m.dimms.is_empty() {
        let _ = writeln!(t, "dimm_count = {}", m.dimms.len());
        let sizes: Vec<u64> = m.dimms.iter().filter_map(|d| d.size_bytes).collect();
        if sizes.len() == m.dimms.len() && sizes.windows(2).all(|w| w[0] == w[1]) {
            if let Some(sz) = sizes.first() {
                let _ = writeln!(t, "dimm_size = {}", gib(*sz));
            }
        }
        if let Some(k) = m.dimms.iter().find_map(|d| d.kind.clone()) {
            let _ = writeln!(t, "dimm_type = {}", q(&k));
        }
        if let Some(sp) = m.dimms.iter().filter_map(|d| d.speed_mts).min() {
            let _ = writeln!(t, "dimm_speed = {{ at_least = \"{sp} MT/s\" }}");
        }
    }
    let mut gpus: BTreeMap<String, Vec<&crate::spec::Gpu>> = BTreeMap::new();
    for g in &spec.gpus {
        if let Some(n) = &g.name {
            gpus.entry(n.clone()).or_default().push(g);
        }
    }
    for (name, gs) in &gpus {
        let _ = writeln!(t, "\n[[gpus]]\nmodel = {}\ncount = {}", q(name), gs.len());
        let g = gs[0];
        if let Some(a) = &g.architecture {
            let _ = writeln!(t, "architecture = {}", q(a));
        }
        if let Some(v) = gs.iter().filter_map(|g| g.vram_bytes).min() {
            let _ = writeln!(t, "vram = {}", gib(v));
        }
        if let Some(c) = g.cuda_cores {
            let _ = writeln!(t, "cuda_cores = {c}");
        }
        if let Some(c) = g.tensor_cores {
            let _ = writeln!(t, "tensor_cores = {c}");
        }
        if let Some(w) = gs
            .iter()
            .filter_map(|g| g.pcie.width.or(g.pcie.max_width))
            .min()
        {
            let _ = writeln!(t, "pcie_width = {{ at_least = {w} }}");
        }
    }
    let mut kinds: BTreeMap<String, Vec<&crate::spec::Drive>> = BTreeMap::new();
    for d in &spec.drives {
        if let Some(k) = &d.kind {
            kinds.entry(k.clone()).or_default().push(d);
        }
    }
    for (kind, ds) in &kinds {
        let _ = writeln!(
            t,
            "\n[[drives]]\nkind = {}\ncount = {{ at_least = {} }}",
            q(kind),
            ds.len()
        );
        if let Some(min) = ds.iter().filter_map(|d| d.size_bytes).min() {
            let gb = (min as f64 / 1e9 * 10.0).floor() / 10.0;
            let _ = writeln!(t, "capacity = {{ at_least = \"{gb} GB\" }}");
        }
    }
    if !skipped.is_empty() {
        let _ = writeln!(
            t,
            "\n# Left out, unknown on the source machine: {}",
            skipped.join(", ")
        );
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_profiles_parse() {
        for (name, text) in BUILTIN {
            let p = parse(text, name, name).unwrap();
            assert_eq!(&p.name, name);
            assert!(
                p.requirements.len() > 15,
                "{name}: {}",
                p.requirements.len()
            );
        }
    }

    #[test]
    fn units_and_ops() {
        let p = parse(
            "[memory]\ntotal = { at_least = \"96 GB\", tolerance = \"2%\" }\n[cpu]\nbase_clock = \"3.1 GHz\"\n",
            "t.toml",
            "t",
        )
        .unwrap();
        let total = &p.requirements[1];
        assert_eq!(total.id, "memory.total");
        assert_eq!(total.op, Op::AtLeast);
        assert_eq!(total.values, vec![Val::Num(96 << 30)]);
        assert!((total.tolerance - 0.02).abs() < 1e-9);
        assert_eq!(p.requirements[0].values, vec![Val::Num(3100)]);
        assert_eq!(total.at, (2, 9));
    }

    #[test]
    fn unknown_key_suggests_nearest() {
        let e = parse("[cpu]\nsocket = 2\n", "bad.toml", "bad").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        assert!(
            e.message.contains("did you mean `sockets`"),
            "{}",
            e.message
        );
        assert!(
            e.to_string()
                .starts_with("bad.toml:2:1: unknown field `socket`"),
            "{e}"
        );
    }

    #[test]
    fn bad_unit_is_placed() {
        let e = parse("[memory]\ntotal = \"96 GX\"\n", "u.toml", "u").unwrap_err();
        assert_eq!((e.line, e.column), (2, 9));
        assert!(e.message.contains("unknown unit 'GX'"), "{}", e.message);
    }
}
