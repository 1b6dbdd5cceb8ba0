//! Every fact an order can ask about, in one table: its section and key in a profile, what a
//! person calls it, what kind of quantity it is, how to read it from a `Spec`, and how
//! `profile new` writes it. The profile parser accepts exactly these keys, `verify` reads
//! through them, `profile new` writes from them and `docs/profiles.md` lists them, so a key
//! cannot be known to one and unknown to another.
//!
//! Pure: readers look at the `Spec` only, and an unknown fact reads as `Found::Unknown` with
//! the reason the probe noted.

use crate::rules::card_width;
use crate::spec::{names, Drive, Gpu, ListState, Nic, Spec};
use crate::units::{bytes_bin, bytes_dec, link_speed};

/// The part of a profile a key sits in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    System,
    Cpu,
    Memory,
    /// `[[gpus]]`: a group of GPUs, selected by `model`.
    Gpus,
    /// `[[drives]]`: a group of drives, selected by `kind`.
    Drives,
    /// `[[nics]]`: a group of network adapters, selected by `model`.
    Nics,
    Headroom,
    /// `[health]`: what the parts say of their own wear and errors.
    Health,
}

impl Section {
    /// Every section, in the order a profile lists them.
    pub const ALL: [Section; 8] = [
        Section::System,
        Section::Cpu,
        Section::Memory,
        Section::Gpus,
        Section::Drives,
        Section::Nics,
        Section::Headroom,
        Section::Health,
    ];

    /// The TOML table name: `cpu`, `gpus`, ...
    pub fn key(self) -> &'static str {
        match self {
            Section::System => "system",
            Section::Cpu => "cpu",
            Section::Memory => "memory",
            Section::Gpus => "gpus",
            Section::Drives => "drives",
            Section::Nics => "nics",
            Section::Headroom => "headroom",
            Section::Health => "health",
        }
    }

    /// The section of a TOML table name.
    pub fn from_key(key: &str) -> Option<Section> {
        Section::ALL.into_iter().find(|s| s.key() == key)
    }

    /// True for the sections written as arrays of tables (`[[gpus]]`), one per group.
    pub fn is_group(self) -> bool {
        matches!(self, Section::Gpus | Section::Drives | Section::Nics)
    }

    /// The key that selects a group's items (`model` for GPUs, `kind` for drives).
    pub fn selector(self) -> Option<&'static str> {
        match self {
            Section::Gpus | Section::Nics => Some("model"),
            Section::Drives => Some("kind"),
            _ => None,
        }
    }
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
    /// A network link speed in Mb/s.
    LinkSpeed,
    /// A text (model name, kind).
    Text,
    /// A set of names that must all be present (ISA features).
    Names,
    /// `true`: a condition the rules judge part by part (`new = true`).
    Flag,
}

impl Quantity {
    /// Tolerance used when the profile gives none: sizes are rounded by vendors.
    pub fn default_tolerance(self) -> f64 {
        match self {
            Quantity::BytesSi | Quantity::BytesJedec => 0.03,
            _ => 0.0,
        }
    }

    /// How people write it in a profile, for the docs.
    pub fn written(self) -> &'static str {
        match self {
            Quantity::Count => "whole number",
            Quantity::BytesSi => "size, `TB` = 10¹² bytes (`\"1 TB\"`)",
            Quantity::BytesJedec => "size, `GB` = GiB (`\"24 GB\"`)",
            Quantity::Mhz => "clock (`\"3.1 GHz\"`, `\"3100 MHz\"`)",
            Quantity::Mts => "rate (`\"2933 MT/s\"`)",
            Quantity::LinkSpeed => "link speed (`\"10 Gb/s\"`, `\"25 GbE\"`, `\"1000 Mb/s\"`)",
            Quantity::Text => "text",
            Quantity::Names => "list of names",
            Quantity::Flag => "`true`",
        }
    }

    /// A number of this quantity as people read it: `24 GiB`, `1 TB`, `3100 MHz`.
    pub fn show(self, n: u64) -> String {
        match self {
            Quantity::BytesSi => bytes_dec(n),
            Quantity::BytesJedec => bytes_bin(n),
            Quantity::Mhz => format!("{n} MHz"),
            Quantity::Mts => format!("{n} MT/s"),
            Quantity::LinkSpeed => link_speed(n),
            _ => n.to_string(),
        }
    }
}

/// A value found on the machine for one requirement (one per GPU or drive of a group).
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    /// A number and how to show it.
    Num(u64, Show),
    /// A number the fact is known to reach at least, and how to show it (a network port's
    /// speed now, where the card's own top speed is unknown): it can pass an `at_least` or
    /// fail an `at_most`, never fail an `at_least`.
    Floor(u64, String),
    Text(String),
    /// Every name the machine has (compared as a set).
    Names(Vec<String>),
    /// Not known, and why.
    Unknown(String),
    /// A part the rules judged: whether it holds, and what was found (`nvme0n1: 12 h, 1 %
    /// used, no errors`).
    Judged {
        part: String,
        holds: bool,
        shown: String,
    },
}

/// How a found number is shown: in its quantity's unit, or as a reader wrote it. Kept
/// apart from the number so that a line is written out only where it is shown (fleet keeps
/// only the lines that do not pass).
#[derive(Debug, Clone, PartialEq)]
pub enum Show {
    As(Quantity),
    Text(String),
}

impl Show {
    /// `n` as this shows it.
    pub fn text(&self, n: u64) -> String {
        match self {
            Show::As(q) => q.show(n),
            Show::Text(t) => t.clone(),
        }
    }
}

/// What a reader found for one requirement.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub items: Vec<Found>,
    /// How the value was read, when that matters (e.g. from MemTotal).
    pub note: Option<String>,
    /// Extra room below an ordered number: MemTotal sits a few % under installed memory.
    pub slack_below: f64,
}

impl Reading {
    fn one(f: Found) -> Self {
        Reading {
            items: vec![f],
            note: None,
            slack_below: 0.0,
        }
    }
}

/// How a field is read from a `Spec`.
#[derive(Clone, Copy)]
pub enum Read {
    /// One value of the machine.
    Machine(fn(&Spec, Quantity) -> Reading),
    /// One value per GPU of the group (`index` is the GPU's position in `spec.gpus`).
    EachGpu(fn(&Spec, usize, &Gpu, Quantity) -> Found),
    /// One value per drive of the group.
    EachDrive(fn(&Spec, usize, &Drive, Quantity) -> Found),
    /// One value per network adapter of the group.
    EachNic(fn(&Spec, usize, &Nic, Quantity) -> Found),
    /// How many GPUs or drives the group selects.
    GroupCount,
}

/// How `profile new` writes a field from the machine it describes.
#[derive(Clone, Copy)]
pub enum Suggest {
    /// Not written: specific to one unit or firmware release, or rarely ordered.
    Never,
    /// The value found, when every item agrees.
    Found,
    /// The smallest value found, compared as written.
    Smallest,
    /// `{ at_least = <smallest found> }`.
    AtLeast,
    /// Written by a function of its own; `None` leaves it out.
    Custom(fn(&Spec) -> Option<Suggestion>),
}

/// A value `profile new` writes, as TOML written by the `toml` crate, and the comment that
/// says why it is written so, kept apart so no machine string can end up outside its value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// A comment line written above the key, when the value needs saying why.
    pub comment: Option<&'static str>,
    /// The TOML value.
    pub value: String,
}

/// One orderable fact.
#[derive(Clone, Copy)]
pub struct Field {
    pub section: Section,
    /// TOML key within the section.
    pub key: &'static str,
    /// What a person calls it, e.g. `CPU cores (all sockets)`: the fact's name standing
    /// alone in `spec::names`, the table the report's rows are named from too.
    pub label: &'static str,
    pub quantity: Quantity,
    pub read: Read,
    pub suggest: Suggest,
    /// What on the machine it is compared with, for the docs.
    pub compared_with: &'static str,
}

impl Field {
    /// `cpu.cores`, or `gpus[0].vram` for group `Some(0)`.
    pub fn id(&self, group: Option<usize>) -> String {
        match group {
            Some(g) => format!("{}[{g}].{}", self.section.key(), self.key),
            None => format!("{}.{}", self.section.key(), self.key),
        }
    }
}

impl std::fmt::Debug for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Field({}.{})", self.section.key(), self.key)
    }
}

impl PartialEq for Field {
    fn eq(&self, other: &Self) -> bool {
        self.section == other.section && self.key == other.key
    }
}

/// The field of `key` in `section`, if the profile language has one.
pub fn field(section: Section, key: &str) -> Option<&'static Field> {
    FIELDS.iter().find(|f| f.section == section && f.key == key)
}

/// The keys of `section`, the group selector first, in table order.
pub fn keys(section: Section) -> Vec<&'static str> {
    section
        .selector()
        .into_iter()
        .chain(
            FIELDS
                .iter()
                .filter(|f| f.section == section)
                .map(|f| f.key),
        )
        .collect()
}

/// The `Gpu` fact a per-GPU key reads (`fact_sources` is keyed by it); `count` reads the
/// names the group is matched by.
fn gpu_fact(key: &str) -> Option<&'static str> {
    Some(match key {
        "count" => "name",
        "architecture" => "architecture",
        "vram" => "vram_bytes",
        "cuda_cores" => "cuda_cores",
        "tensor_cores" => "tensor_cores",
        _ => return None,
    })
}

/// Says so when the value `key` reads on `g` is a datasheet figure (the product table, found
/// by PCI id) rather than the driver's, e.g. on a machine without an NVIDIA driver.
pub fn gpu_datasheet_note(key: &str, g: &Gpu) -> Option<String> {
    let fact = gpu_fact(key)?;
    if !g.from_datasheet(fact) {
        return None;
    }
    // The datasheet field the fact was filled from, to say where it is a third-party figure.
    let sheet_field = match fact {
        "vram_bytes" => "memory_bytes",
        other => other,
    };
    let third_party = g
        .datasheet
        .as_ref()
        .is_some_and(|d| d.third_party.iter().any(|f| f == sheet_field));
    let what = match (key, third_party) {
        ("count", _) => "names from the datasheet",
        (_, true) => "datasheet figure, third-party (no NVIDIA document gives it)",
        _ => "datasheet figure",
    };
    let why = if g.index.is_none() {
        "no NVIDIA driver"
    } else {
        "NVML gave none"
    };
    Some(match &g.datasheet {
        Some(d) => format!("{what} ({why}): {} by PCI id {}", d.name, d.pci_id),
        None => format!("{what} ({why})"),
    })
}

/// Why `field` is unknown, from the spec's notes, or a generic sentence.
pub fn why(spec: &Spec, field: &str) -> String {
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

/// Why the list at `field` (`drives`, `gpus`, `memory.dimms`) is not whole: its note that
/// speaks of the list, else any note on it, with the list's state.
pub fn list_why(spec: &Spec, field: &str, state: ListState) -> String {
    let on = |n: &&crate::spec::Note| n.field == field;
    match spec
        .notes
        .iter()
        .filter(on)
        .find(|n| n.reason.contains("list"))
        .or_else(|| spec.notes.iter().find(on))
    {
        Some(n) => n.reason.clone(),
        None => format!("the {field} list is {}", state.as_str()),
    }
}

fn num(q: Quantity, v: Option<u64>, spec: &Spec, field: &str) -> Found {
    match v {
        Some(n) => Found::Num(n, Show::As(q)),
        None => Found::Unknown(why(spec, field)),
    }
}

fn text(v: &Option<String>, spec: &Spec, field: &str) -> Found {
    match v {
        Some(t) => Found::Text(t.clone()),
        None => Found::Unknown(why(spec, field)),
    }
}

fn n32(v: Option<u32>) -> Option<u64> {
    v.map(u64::from)
}

/// One value per DIMM, or unknown when the DIMM list is; a partial list adds an unknown
/// item for the modules not read, so it can fail on a module seen but never pass.
fn each_dimm(spec: &Spec, f: impl Fn(&crate::spec::Dimm) -> Found) -> Reading {
    let m = &spec.memory;
    let state = spec.dimm_list();
    if state == ListState::Unreadable || m.dimms.is_empty() {
        return Reading::one(Found::Unknown(why(spec, "memory.dimms")));
    }
    let mut items: Vec<Found> = m.dimms.iter().map(f).collect();
    if !state.is_complete() {
        items.push(Found::Unknown(list_why(spec, "memory.dimms", state)));
    }
    Reading {
        items,
        note: None,
        slack_below: 0.0,
    }
}

fn read_memory_total(spec: &Spec, _q: Quantity) -> Reading {
    let m = &spec.memory;
    let state = spec.dimm_list();
    match (m.total_bytes, m.total_source.as_deref()) {
        (Some(_), Some("dimms")) if !state.is_complete() => {
            Reading::one(Found::Unknown(list_why(spec, "memory.dimms", state)))
        }
        (Some(t), Some("dimms")) => Reading {
            items: vec![Found::Num(t, Show::As(Quantity::BytesJedec))],
            // Installed as ordered, but the OS may not see it all: say so on the line.
            note: crate::rules::memory_unseen(m),
            slack_below: 0.0,
        },
        (Some(t), source) => Reading {
            items: vec![Found::Num(
                t,
                Show::Text(format!(
                    "{} ({})",
                    bytes_bin(t),
                    crate::spec::windows::usable_name(source)
                )),
            )],
            note: Some(format!(
                "DIMMs unknown: compared {}, which sits a few % under installed memory",
                crate::spec::windows::usable_name(source)
            )),
            // Memory read from MemTotal sits 1.5–4 % under the installed DIMMs (firmware
            // and kernel reservations), so the lower bound gets that much more room.
            slack_below: 0.05,
        },
        (None, _) => Reading::one(Found::Unknown(why(spec, "memory.total_bytes"))),
    }
}

/// The CPU model; every socket's when they hold different models, so a mixed pair cannot
/// pass on its first socket alone.
fn read_cpu_model(spec: &Spec, _q: Quantity) -> Reading {
    let models = &spec.cpu.socket_models;
    if models.len() < 2 {
        return Reading::one(text(&spec.cpu.model, spec, "cpu.model"));
    }
    Reading {
        items: models.iter().map(|m| Found::Text(m.clone())).collect(),
        note: Some(format!(
            "the {} sockets hold different models",
            models.len()
        )),
        slack_below: 0.0,
    }
}

fn read_isa(spec: &Spec, _q: Quantity) -> Reading {
    let c = &spec.cpu;
    Reading::one(if c.flags.is_empty() && c.isa.is_empty() {
        Found::Unknown(why(spec, "cpu.flags"))
    } else {
        Found::Names(c.isa.iter().chain(c.flags.iter()).cloned().collect())
    })
}

/// The GPU link width: negotiated, with the card's own maximum beside it so "x8 (card x16)"
/// reads as a slot or riser problem.
fn read_pcie_width(spec: &Spec, i: usize, g: &Gpu, _q: Quantity) -> Found {
    let w = g.pcie.width.or(g.pcie.max_width);
    let card = card_width(&g.pcie);
    match w {
        Some(w) => Found::Num(
            u64::from(w),
            Show::Text(match card {
                Some(m) if m > w => format!("x{w} (card x{m})"),
                _ => format!("x{w}"),
            }),
        ),
        None => Found::Unknown(why(spec, &format!("gpus[{i}].pcie"))),
    }
}

/// A size as `profile new` writes it: GiB to a tenth, as the order would say it.
fn gib(b: u64) -> String {
    let g = b as f64 / (1u64 << 30) as f64;
    format!("\"{} GiB\"", (g * 10.0).round() / 10.0)
}

fn suggest_isa(spec: &Spec) -> Option<Suggestion> {
    let isa = &spec.cpu.isa;
    (!isa.is_empty()).then(|| Suggestion {
        comment: None,
        value: toml::Value::Array(isa.iter().map(|i| toml::Value::String(i.clone())).collect())
            .to_string(),
    })
}

fn suggest_memory_total(spec: &Spec) -> Option<Suggestion> {
    let m = &spec.memory;
    let b = m.total_bytes?;
    Some(if m.total_source.as_deref() == Some("dimms") {
        Suggestion {
            comment: None,
            value: gib(b),
        }
    } else {
        Suggestion {
            comment: Some("DIMMs unknown: MemTotal is a few % under installed memory"),
            value: format!("{{ at_least = {} }}", gib(b)),
        }
    })
}

/// A TOML basic string.
pub fn toml_string(s: &str) -> String {
    toml::Value::String(s.to_string()).to_string()
}

/// A number of `q` as `profile new` writes it (`at_least` rounds down so the machine passes).
pub fn toml_number(q: Quantity, n: u64, at_least: bool) -> String {
    match q {
        Quantity::BytesJedec => gib(n),
        Quantity::BytesSi if at_least => {
            format!("\"{} GB\"", (n as f64 / 1e9 * 10.0).floor() / 10.0)
        }
        Quantity::BytesSi => format!("\"{} GB\"", (n as f64 / 1e9 * 10.0).round() / 10.0),
        Quantity::Mhz => format!("\"{n} MHz\""),
        Quantity::Mts => format!("\"{n} MT/s\""),
        Quantity::LinkSpeed => format!("\"{}\"", link_speed(n)),
        _ => n.to_string(),
    }
}

/// A network adapter's top speed: its own (ethtool's link modes, an InfiniBand rate, the
/// table of controllers) as a number; the speed a port runs at now as a floor.
fn read_nic_speed(spec: &Spec, i: usize, n: &Nic, q: Quantity) -> Found {
    match (n.max_speed_mbps, n.max_speed_source.as_deref()) {
        (Some(m), Some("link")) => Found::Floor(m, format!("≥ {} (link now)", q.show(m))),
        (Some(m), _) => Found::Num(m, Show::As(q)),
        (None, _) => Found::Unknown(why(spec, &format!("nics[{i}].max_speed_mbps"))),
    }
}

macro_rules! machine {
    ($section:ident, $key:literal, $name:expr, $q:ident, $suggest:expr, $with:literal, $read:expr) => {
        Field {
            section: Section::$section,
            key: $key,
            label: $name.alone(),
            quantity: Quantity::$q,
            read: Read::Machine($read),
            suggest: $suggest,
            compared_with: $with,
        }
    };
}

/// Every field of the profile language, in the order `verify` lists them.
pub static FIELDS: &[Field] = &[
    machine!(
        System,
        "vendor",
        names::SYSTEM_VENDOR,
        Text,
        Suggest::Found,
        "DMI `sys_vendor`",
        |s, _| Reading::one(text(&s.system.vendor, s, "system.vendor"))
    ),
    machine!(
        System,
        "product",
        names::SYSTEM_PRODUCT,
        Text,
        Suggest::Found,
        "DMI `product_name`",
        |s, _| Reading::one(text(&s.system.product, s, "system.product"))
    ),
    machine!(
        System,
        "sku",
        names::SYSTEM_SKU,
        Text,
        Suggest::Found,
        "DMI `product_sku` (SMBIOS type 1 SKU Number, e.g. HP's `Z3Z16AV`)",
        |s, _| Reading::one(text(&s.system.sku, s, "system.sku"))
    ),
    machine!(
        System,
        "bios_version",
        names::BIOS_VERSION,
        Text,
        Suggest::Never,
        "DMI `bios_version`",
        |s, _| Reading::one(text(&s.system.bios_version, s, "system.bios_version"))
    ),
    machine!(
        System,
        "chassis",
        names::CHASSIS,
        Text,
        Suggest::Never,
        "SMBIOS chassis type (`Tower`, `Rack Mount Chassis`)",
        |s, _| Reading::one(text(&s.system.chassis_type, s, "system.chassis_type"))
    ),
    machine!(
        Cpu,
        "model",
        names::CPU_MODEL,
        Text,
        Suggest::Found,
        "`model name` of /proc/cpuinfo (each socket's, when they differ)",
        read_cpu_model
    ),
    machine!(
        Cpu,
        "vendor",
        names::CPU_VENDOR,
        Text,
        Suggest::Never,
        "`vendor_id` (`GenuineIntel`, `AuthenticAMD`)",
        |s, _| Reading::one(text(&s.cpu.vendor, s, "cpu.vendor"))
    ),
    machine!(
        Cpu,
        "generation",
        names::CPU_MICROARCHITECTURE,
        Text,
        Suggest::Never,
        "the microarchitecture from vendor, family and model (`Cascade Lake`, `Zen 3`)",
        |s, _| Reading::one(text(&s.cpu.microarchitecture, s, "cpu.microarchitecture"))
    ),
    machine!(
        Cpu,
        "sockets",
        names::CPU_SOCKETS,
        Count,
        Suggest::Found,
        "populated CPU packages",
        |s, q| Reading::one(num(q, n32(s.cpu.sockets), s, "cpu.sockets"))
    ),
    machine!(
        Cpu,
        "cores",
        names::CPU_CORES,
        Count,
        Suggest::Found,
        "physical cores, all sockets",
        |s, q| Reading::one(num(q, n32(s.cpu.cores), s, "cpu.cores"))
    ),
    machine!(
        Cpu,
        "threads",
        names::CPU_THREADS,
        Count,
        Suggest::Found,
        "logical CPUs online",
        |s, q| Reading::one(num(q, n32(s.cpu.threads), s, "cpu.threads"))
    ),
    machine!(
        Cpu,
        "threads_per_core",
        names::CPU_THREADS_PER_CORE,
        Count,
        Suggest::Never,
        "SMT threads per core",
        |s, q| Reading::one(num(
            q,
            n32(s.cpu.threads_per_core),
            s,
            "cpu.threads_per_core"
        ))
    ),
    machine!(
        Cpu,
        "base_clock",
        names::CPU_BASE_CLOCK,
        Mhz,
        Suggest::AtLeast,
        "`cpu.base_mhz` (its source is in `base_mhz_source`)",
        |s, q| Reading::one(num(q, n32(s.cpu.base_mhz), s, "cpu.base_mhz"))
    ),
    machine!(
        Cpu,
        "max_clock",
        names::CPU_MAX_CLOCK,
        Mhz,
        Suggest::AtLeast,
        "`cpuinfo_max_freq`",
        |s, q| Reading::one(num(q, n32(s.cpu.max_mhz), s, "cpu.max_mhz"))
    ),
    machine!(
        Cpu,
        "isa",
        names::CPU_ISA,
        Names,
        Suggest::Custom(suggest_isa),
        "ISA names (`AVX-512 VNNI`) and kernel flags (`avx512_vnni`), all required",
        read_isa
    ),
    machine!(
        Memory,
        "total",
        names::MEMORY_INSTALLED,
        BytesJedec,
        Suggest::Custom(suggest_memory_total),
        "sum of the DIMMs; MemTotal (with 5 % more room below) when they are unknown",
        read_memory_total
    ),
    machine!(
        Memory,
        "dimm_count",
        names::DIMMS,
        Count,
        Suggest::Found,
        "populated DIMM slots",
        |s, _| Reading::one(match s.dimm_list().count(s.memory.dimms.len()) {
            Some(n) => Found::Num(n, Show::As(Quantity::Count)),
            None => Found::Unknown(list_why(s, "memory.dimms", s.dimm_list())),
        })
    ),
    machine!(
        Memory,
        "dimm_size",
        names::DIMM_SIZE,
        BytesJedec,
        Suggest::Found,
        "every DIMM's size",
        |s, q| each_dimm(s, |d| num(q, d.size_bytes, s, "memory.dimms"))
    ),
    machine!(
        Memory,
        "dimm_speed",
        names::DIMM_SPEED,
        Mts,
        Suggest::AtLeast,
        "every DIMM's rated speed",
        |s, q| each_dimm(s, |d| num(q, n32(d.speed_mts), s, "memory.dimms"))
    ),
    machine!(
        Memory,
        "dimm_type",
        names::DIMM_TYPE,
        Text,
        Suggest::Found,
        "every DIMM's type (`DDR4`, `DDR5`)",
        |s, _| each_dimm(s, |d| text(&d.kind, s, "memory.dimms"))
    ),
    Field {
        section: Section::Gpus,
        key: "count",
        label: names::GPUS.alone(),
        quantity: Quantity::Count,
        read: Read::GroupCount,
        suggest: Suggest::Found,
        compared_with: "GPUs the group's `model` names",
    },
    Field {
        section: Section::Gpus,
        key: "architecture",
        label: names::GPU_ARCHITECTURE.alone(),
        quantity: Quantity::Text,
        read: Read::EachGpu(|s, i, g, _| {
            text(&g.architecture, s, &format!("gpus[{i}].architecture"))
        }),
        suggest: Suggest::Found,
        compared_with: "each GPU's architecture as nvidia-smi names it (`Turing`, `Hopper`); AMD's and Intel's by their chip (`RDNA 2`, `CDNA 3`, `Xe-HPG`)",
    },
    Field {
        section: Section::Gpus,
        key: "vram",
        label: names::GPU_MEMORY.alone(),
        quantity: Quantity::BytesJedec,
        read: Read::EachGpu(|s, i, g, q| num(q, g.vram_bytes, s, &format!("gpus[{i}].vram_bytes"))),
        suggest: Suggest::Smallest,
        compared_with: "each GPU's memory",
    },
    Field {
        section: Section::Gpus,
        key: "cuda_cores",
        label: names::GPU_CUDA_CORES.alone(),
        quantity: Quantity::Count,
        read: Read::EachGpu(|s, i, g, q| {
            num(q, n32(g.cuda_cores), s, &format!("gpus[{i}].cuda_cores"))
        }),
        suggest: Suggest::Found,
        compared_with: "each GPU's CUDA cores (NVIDIA only: unknown on other GPUs)",
    },
    Field {
        section: Section::Gpus,
        key: "tensor_cores",
        label: names::GPU_TENSOR_CORES.alone(),
        quantity: Quantity::Count,
        read: Read::EachGpu(|s, i, g, q| {
            num(
                q,
                n32(g.tensor_cores),
                s,
                &format!("gpus[{i}].tensor_cores"),
            )
        }),
        suggest: Suggest::Found,
        compared_with: "each GPU's Tensor cores",
    },
    Field {
        section: Section::Gpus,
        key: "pcie_width",
        label: names::GPU_PCIE_NOW.alone(),
        quantity: Quantity::Count,
        read: Read::EachGpu(read_pcie_width),
        suggest: Suggest::AtLeast,
        compared_with: "each GPU's negotiated link width (lanes)",
    },
    Field {
        section: Section::Gpus,
        key: "pcie_gen",
        label: names::GPU_PCIE_MAX_GEN.alone(),
        quantity: Quantity::Count,
        read: Read::EachGpu(|s, i, g, q| {
            num(q, n32(g.pcie.max_gen), s, &format!("gpus[{i}].pcie"))
        }),
        suggest: Suggest::Never,
        compared_with: "each GPU's maximum link generation (GPUs drop to Gen1 at idle)",
    },
    Field {
        section: Section::Drives,
        key: "count",
        label: names::DRIVES.alone(),
        quantity: Quantity::Count,
        read: Read::GroupCount,
        suggest: Suggest::AtLeast,
        compared_with: "drives of the group's `kind`",
    },
    Field {
        section: Section::Drives,
        key: "model",
        label: names::DRIVE_MODEL.alone(),
        quantity: Quantity::Text,
        read: Read::EachDrive(|s, i, d, _| text(&d.model, s, &format!("drives[{i}].model"))),
        suggest: Suggest::Never,
        compared_with: "each drive's model",
    },
    Field {
        section: Section::Drives,
        key: "capacity",
        label: names::DRIVE_SIZE.alone(),
        quantity: Quantity::BytesSi,
        read: Read::EachDrive(|s, i, d, q| {
            num(q, d.size_bytes, s, &format!("drives[{i}].size_bytes"))
        }),
        suggest: Suggest::AtLeast,
        compared_with: "each drive's size",
    },
    Field {
        section: Section::Drives,
        key: "transport",
        label: names::DRIVE_TRANSPORT.alone(),
        quantity: Quantity::Text,
        read: Read::EachDrive(|s, i, d, _| {
            text(&d.transport, s, &format!("drives[{i}].transport"))
        }),
        suggest: Suggest::Never,
        compared_with: "each drive's bus (`nvme`, `sata`, `sas`, `usb`, `virtio`)",
    },
    Field {
        section: Section::Nics,
        key: "count",
        label: names::NICS.alone(),
        quantity: Quantity::Count,
        read: Read::GroupCount,
        suggest: Suggest::Found,
        compared_with: "network adapters (cards) the group's `model` names",
    },
    Field {
        section: Section::Nics,
        key: "speed",
        label: names::NIC_MAX_SPEED.alone(),
        quantity: Quantity::LinkSpeed,
        read: Read::EachNic(read_nic_speed),
        suggest: Suggest::AtLeast,
        compared_with: "each adapter's top speed: ethtool's link modes, an InfiniBand port's rate, or rigcheck's table of controllers; the speed a port runs at now only as a floor",
    },
    Field {
        section: Section::Nics,
        key: "ports",
        label: names::NIC_PORTS.alone(),
        quantity: Quantity::Count,
        read: Read::EachNic(|_, _, n, _| {
            let k = n.ports.len() as u64;
            Found::Num(k, Show::As(Quantity::Count))
        }),
        suggest: Suggest::Found,
        compared_with: "each adapter's ports (Ethernet interfaces and InfiniBand ports)",
    },
    machine!(
        Headroom,
        "free_dimm_slots",
        names::HEADROOM_FREE_DIMM_SLOTS,
        Count,
        Suggest::Never,
        "empty DIMM slots on populated sockets",
        |s, q| Reading::one(num(
            q,
            s.headroom
                .as_ref()
                .and_then(|h| h.memory.as_ref())
                .map(|m| u64::from(m.usable_free_slots)),
            s,
            "headroom.memory"
        ))
    ),
    machine!(
        Headroom,
        "free_x16_slots",
        names::HEADROOM_FREE_X16_SLOTS,
        Count,
        Suggest::Never,
        "x16-wired PCIe slots with nothing found in them",
        |s, q| Reading::one(num(
            q,
            s.headroom.as_ref().and_then(|h| n32(h.free_x16_slots)),
            s,
            "headroom.pcie_slots"
        ))
    ),
    machine!(
        Headroom,
        "empty_sockets",
        names::HEADROOM_EMPTY_SOCKETS,
        Count,
        Suggest::Never,
        "CPU sockets without a CPU",
        |s, q| Reading::one(num(
            q,
            s.headroom.as_ref().and_then(|h| n32(h.empty_sockets)),
            s,
            "headroom.sockets"
        ))
    ),
    machine!(
        Headroom,
        "max_memory",
        names::HEADROOM_MAX_MEMORY,
        BytesJedec,
        Suggest::Never,
        "the memory arrays' maximum capacity",
        |s, q| Reading::one(num(
            q,
            s.headroom
                .as_ref()
                .and_then(|h| h.memory.as_ref())
                .and_then(|m| m.max_capacity_bytes),
            s,
            "headroom.memory.max_capacity_bytes"
        ))
    ),
    // `[health]`: the rules judge the conditions part by part (`rules::health`); the counts
    // are compared as written. None is written by `profile new`: one machine's wear is no
    // order for the next.
    Field {
        section: Section::Health,
        key: "new",
        label: "Delivered new",
        quantity: Quantity::Flag,
        read: Read::Machine(|s, _| judged(crate::rules::health::as_new(s))),
        suggest: Suggest::Never,
        compared_with: "each of the machine's own drives at most 100 power-on hours and 1 % of its endurance used, and no error that fails on any part ([health.md](health.md)); corrected errors are said in the line's note, not failed",
    },
    Field {
        section: Section::Health,
        key: "no_errors",
        label: "No hardware errors",
        quantity: Quantity::Flag,
        read: Read::Machine(|s, _| judged(crate::rules::health::without_errors(s))),
        suggest: Suggest::Never,
        compared_with: "no error that fails: a drive's critical warning, spare below threshold, media errors or failing attributes, uncorrected memory errors (EDAC), fatal PCIe errors (AER), a GPU's uncorrected ECC errors or failed row remap; corrected errors are said in the line's note",
    },
    machine!(
        Health,
        "drive_power_on_hours",
        names::HEALTH_DRIVE_HOURS,
        Count,
        Suggest::Never,
        "each drive's power-on hours (NVMe log, ATA attribute 9)",
        |s, q| each_drive_health(s, q, "power_on_hours", |h| h.power_on_hours)
    ),
    machine!(
        Health,
        "drive_percentage_used",
        names::HEALTH_DRIVE_USED,
        Count,
        Suggest::Never,
        "each drive's rated endurance used, percent (NVMe log; ATA SSD wear attribute)",
        |s, q| each_drive_health(s, q, "percentage_used", |h| h.percentage_used.map(u64::from))
    ),
    machine!(
        Health,
        "memory_corrected_errors",
        names::HEALTH_MEMORY_CORRECTED,
        Count,
        Suggest::Never,
        "corrected errors over every memory controller (EDAC `ce_count`)",
        |s, q| memory_errors(s, q, false)
    ),
    machine!(
        Health,
        "memory_uncorrected_errors",
        names::HEALTH_MEMORY_UNCORRECTED,
        Count,
        Suggest::Never,
        "uncorrected errors over every memory controller (EDAC `ue_count`)",
        |s, q| memory_errors(s, q, true)
    ),
    machine!(
        Health,
        "pcie_fatal_errors",
        names::HEALTH_PCIE_FATAL,
        Count,
        Suggest::Never,
        "fatal AER errors of every GPU and NVMe function and the ports above them",
        |s, q| pcie_errors(s, q, |p| p.fatal)
    ),
    machine!(
        Health,
        "pcie_uncorrected_errors",
        names::HEALTH_PCIE_NONFATAL,
        Count,
        Suggest::Never,
        "non-fatal uncorrectable AER errors of the same functions and ports",
        |s, q| pcie_errors(s, q, |p| p.nonfatal)
    ),
    machine!(
        Health,
        "pcie_corrected_errors",
        names::HEALTH_PCIE_CORRECTABLE,
        Count,
        Suggest::Never,
        "corrected AER errors of the same functions and ports",
        |s, q| pcie_errors(s, q, |p| p.correctable)
    ),
];

/// What a `[health]` flag asks, in words, for the verify line's Expected column.
pub fn flag_expected(key: &str) -> String {
    use crate::rules::health::{NEW_MAX_HOURS, NEW_MAX_PERCENT_USED};
    match key {
        "new" => format!(
            "drives ≤ {NEW_MAX_HOURS} power-on hours, ≤ {NEW_MAX_PERCENT_USED} % used; no errors"
        ),
        _ => "no errors counted".into(),
    }
}

/// The rules' answers as readings: each part judged, or unknown with why; what only warns
/// is the line's note.
fn judged(answers: Vec<crate::rules::health::Answer>) -> Reading {
    let warnings: Vec<String> = answers.iter().flat_map(|a| a.warnings.clone()).collect();
    Reading {
        note: (!warnings.is_empty())
            .then(|| format!("warn (fails nothing): {}", warnings.join("; "))),
        items: answers
            .into_iter()
            .map(|a| match a.holds {
                Some(holds) => Found::Judged {
                    shown: format!("{}: {}", a.part, a.found),
                    part: a.part,
                    holds,
                },
                None => Found::Unknown(format!("{}: {}", a.part, a.found)),
            })
            .collect(),
        slack_below: 0.0,
    }
}

/// The machine's own drives (not removable media or virtual disks), with their index.
fn own_drives(spec: &Spec) -> impl Iterator<Item = (usize, &Drive)> {
    spec.drives
        .iter()
        .enumerate()
        .filter(|(_, d)| !d.is_removable() && d.kind != Some(crate::spec::DriveKind::Virtual))
}

/// One figure of each of the machine's own drives' health, unknown where its health is.
fn each_drive_health(
    spec: &Spec,
    q: Quantity,
    field: &str,
    get: fn(&crate::spec::health::DriveHealth) -> Option<u64>,
) -> Reading {
    let items = own_drives(spec)
        .map(|(i, d)| {
            let h = spec.health.as_ref().and_then(|h| h.drives.get(i));
            match h.and_then(get) {
                Some(n) => Found::Num(n, Show::Text(format!("{} {}", d.name, q.show(n)))),
                None => Found::Unknown(format!(
                    "{}: {}",
                    d.name,
                    why(spec, &format!("health.drives[{i}].{field}"))
                )),
            }
        })
        .collect::<Vec<_>>();
    if items.is_empty() {
        return Reading::one(Found::Unknown("no drive of the machine's own".into()));
    }
    Reading {
        items,
        note: None,
        slack_below: 0.0,
    }
}

/// A total over the memory controllers, unknown unless every one was read.
fn memory_errors(spec: &Spec, q: Quantity, uncorrected: bool) -> Reading {
    let n = spec.health.as_ref().and_then(|h| {
        let m = &h.memory;
        (h.lists.memory == ListState::Read)
            .then_some(if uncorrected {
                m.uncorrected_errors
            } else {
                m.corrected_errors
            })
            .flatten()
    });
    Reading::one(num(q, n, spec, "health.memory"))
}

/// A total of AER counts over every watched function and port, unknown unless each was read.
fn pcie_errors(
    spec: &Spec,
    q: Quantity,
    get: fn(&crate::spec::health::PcieErrors) -> Option<u64>,
) -> Reading {
    let n = spec.health.as_ref().and_then(|h| {
        (h.lists.pcie == ListState::Read)
            .then(|| {
                h.pcie
                    .iter()
                    .map(get)
                    .try_fold(0u64, |a, n| a.checked_add(n?))
            })
            .flatten()
    });
    let field = spec
        .health
        .as_ref()
        .and_then(|h| {
            h.pcie
                .iter()
                .position(|p| get(p).is_none())
                .map(|i| format!("health.pcie[{i}]"))
        })
        .unwrap_or_else(|| "health.pcie".into());
    Reading::one(num(q, n, spec, &field))
}

/// The fields as a Markdown table, as `docs/profiles.md` lists them.
pub fn markdown_table() -> String {
    let mut out = String::from(
        "| Section | Key | Line in `verify` | Quantity | Compared with |\n| --- | --- | --- | --- | --- |\n",
    );
    for s in Section::ALL {
        let table = if s.is_group() {
            format!("`[[{}]]`", s.key())
        } else {
            format!("`[{}]`", s.key())
        };
        if let Some(sel) = s.selector() {
            let what = if s == Section::Gpus {
                "text: selects the GPUs whose name holds its words in order (`\"A100\"`, every A100; `\"Radeon PRO W6800\"`); `{ exact = \"NVIDIA A100-SXM4-80GB\" }` selects that product only (all when absent)"
            } else if s == Section::Nics {
                "text: selects the adapters whose controller or board name holds its words in order (`\"X710\"`, `\"ConnectX-6\"`); `{ exact = \"...\" }` that product only (all when absent)"
            } else {
                "`nvme`, `ssd`, `hdd` or `virtual`: selects the drives of that kind (all when absent)"
            };
            out.push_str(&format!("| {table} | `{sel}` | | {what} | |\n"));
        }
        for f in FIELDS.iter().filter(|f| f.section == s) {
            out.push_str(&format!(
                "| {table} | `{}` | {} | {} | {} |\n",
                f.key,
                f.label,
                f.quantity.written(),
                f.compared_with
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_unique_and_selectors_are_not_fields() {
        let mut ids: Vec<String> = FIELDS.iter().map(|f| f.id(None)).collect();
        let n = ids.len();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), n);
        for s in Section::ALL {
            if let Some(sel) = s.selector() {
                assert!(field(s, sel).is_none(), "{sel} selects, it is not compared");
            }
        }
    }

    #[test]
    fn group_counts_only_in_groups() {
        for f in FIELDS {
            let group_reader = matches!(
                f.read,
                Read::GroupCount | Read::EachGpu(_) | Read::EachDrive(_) | Read::EachNic(_)
            );
            assert_eq!(group_reader, f.section.is_group(), "{f:?}");
            if matches!(f.read, Read::EachGpu(_)) {
                assert_eq!(f.section, Section::Gpus);
            }
            if matches!(f.read, Read::EachDrive(_)) {
                assert_eq!(f.section, Section::Drives);
            }
        }
    }

    #[test]
    fn the_docs_list_every_field() {
        let docs = include_str!("../docs/profiles.md");
        assert!(
            docs.contains(&markdown_table()),
            "docs/profiles.md is out of date; its table must be:\n{}",
            markdown_table()
        );
    }
}
