//! diff: what changed between two reports of a machine (a DIMM gone, a GPU swapped, a
//! drive replaced, BIOS updated). Volatile state (temperatures, free memory, time) is ignored.
//!
//! Every fact is known or unknown. Only facts known in both reports are compared; a fact
//! known in one and unknown in the other (a report taken as root against one taken without:
//! serials, the DIMM list) is listed apart as "unknown on one side" and is never a change.
//!
//! What is compared is one list: `Compared` holds exactly the facts the comparison reads,
//! so `fleet` groups hosts by the same facts (`Compared::configuration`) without a list of
//! its own.

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::Serialize;

use crate::outcome::{EXIT_FAIL, EXIT_INCOMPLETE, EXIT_PASS};
use crate::spec::identity::{either, rules_out};
use crate::spec::{Dimm, Drive, Gpu, ListState, Lists, Nic, Spec};
use crate::text::same_product_name;
use crate::units::{bytes_bin, bytes_dec};

/// One difference, or one fact known on one side only.
#[derive(Debug, Clone, Serialize, PartialEq, Eq, JsonSchema)]
pub struct Change {
    /// `hardware` (counts for the exit code), `software` (OS, kernel, driver), `removable`
    /// (USB and removable media, not part of the machine), `health` (a counter that grew) or
    /// `measured` (a benchmark figure that fell by more than 10 %).
    pub class: &'static str,
    /// What changed, in words: `DIMM removed`, `GPU swapped`, `BIOS updated`; for a fact
    /// unknown on one side, the fact: `BIOS version`.
    pub what: String,
    /// Where: a slot, PCI address or drive name.
    pub at: String,
    /// The value in the earlier report (`unknown` where it could not be read).
    pub before: String,
    /// The value in the later report.
    pub after: String,
}

/// What `diff` found between two reports.
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq, JsonSchema)]
pub struct Diff {
    /// Facts known in both reports whose values differ, hardware first.
    pub changes: Vec<Change>,
    /// Facts known in one report only: not compared, never a change.
    pub unknown_on_one_side: Vec<Change>,
}

impl Diff {
    /// True when a hardware fact known on both sides changed.
    pub fn has_hardware_changes(&self) -> bool {
        has_hardware_changes(&self.changes)
    }

    /// True when a hardware fact is known on one side only: nothing changed that could be
    /// seen, but not everything could be compared.
    pub fn is_incomplete(&self) -> bool {
        self.unknown_on_one_side
            .iter()
            .any(|c| c.class == "hardware")
    }

    /// 0 no hardware change, 1 hardware changed, 3 no change seen but hardware facts known
    /// on one side only.
    pub fn exit_code(&self) -> u8 {
        if self.has_hardware_changes() {
            EXIT_FAIL
        } else if self.is_incomplete() {
            EXIT_INCOMPLETE
        } else {
            EXIT_PASS
        }
    }
}

/// Usable memory (MemTotal) is a change when it moves by more than this fraction: kernels
/// and firmware updates shift it by megabytes, a lost DIMM by gigabytes.
pub const USABLE_TOLERANCE: f64 = 0.01;

/// Every fact of a report that `diff` compares, and no other: the comparison reads only
/// this. Per-unit identities (serials, UUIDs) are kept here, so a swapped part shows;
/// `configuration` clears them for grouping identical machines.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Compared {
    pub system: SystemFacts,
    pub cpu: CpuFacts,
    pub memory: MemoryFacts,
    /// The DIMMs, when the report lists them; `None` when the list is unknown (not empty).
    pub dimms: Option<Vec<DimmFacts>>,
    pub gpus: Vec<GpuFacts>,
    pub drives: Vec<DriveFacts>,
    pub nics: Vec<NicFacts>,
    /// How completely each list was read: an item missing from a list that was not read
    /// whole is unknown on that side, not removed.
    pub lists: Lists,
    /// OS, kernel and NVIDIA driver: compared as software, no part of a configuration.
    pub software: SoftwareFacts,
    /// The health counters both reports may know (errors, wear, throttling), by what and
    /// where: a count that grew is listed as a `health` change, which fails nothing.
    pub health: BTreeMap<(String, String), u64>,
    /// What the report's benchmarks measured (`bench --format json`), by what and where, in
    /// whole units of `Measured`: a figure that fell by more than `MEASURED_FALL` is listed
    /// as a `measured` change, which fails nothing.
    pub measured: BTreeMap<(Measured, String), u64>,
}

/// A figure `bench` measures, as `diff` compares it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Measured {
    /// STREAM copy on the most threads, bytes/s.
    MemoryCopy,
    /// STREAM triad on the most threads, bytes/s.
    MemoryTriad,
    /// Direct-I/O sequential read, bytes/s.
    DiskRead,
    /// A GPU's FP32 multiply, GFLOPS.
    GpuFp32,
    /// A GPU's FP16 tensor multiply, GFLOPS.
    GpuFp16,
    /// The data loader on the most threads, images/s.
    DataLoader,
}

impl Measured {
    fn name(self) -> &'static str {
        match self {
            Measured::MemoryCopy => "memory bandwidth (STREAM copy)",
            Measured::MemoryTriad => "memory bandwidth (STREAM triad)",
            Measured::DiskRead => "disk read",
            Measured::GpuFp32 => "GPU FP32",
            Measured::GpuFp16 => "GPU FP16 tensor",
            Measured::DataLoader => "data loader",
        }
    }

    fn show(self, v: u64) -> String {
        match self {
            Measured::MemoryCopy | Measured::MemoryTriad | Measured::DiskRead => {
                crate::units::fmt_rate(v as f64, "B/s")
            }
            Measured::GpuFp32 | Measured::GpuFp16 => format!("{:.1} TFLOPS", v as f64 / 1e3),
            Measured::DataLoader => format!("{v} images/s"),
        }
    }
}

/// A measured figure that fell by more than this share between two reports is a change:
/// benchmark runs on one machine vary by a few percent, a lost channel or a slowed link by
/// far more.
pub const MEASURED_FALL: f64 = 0.10;

/// The figures of a report's `bench` section, each known one by (what, where).
fn measured_figures(spec: &Spec) -> BTreeMap<(Measured, String), u64> {
    let mut out = BTreeMap::new();
    let Some(b) = &spec.bench else {
        return out;
    };
    if let Some(m) = &b.memory {
        for (kernel, key) in [
            ("copy", Measured::MemoryCopy),
            ("triad", Measured::MemoryTriad),
        ] {
            if let Some(r) = m
                .results
                .iter()
                .filter(|r| r.kernel == kernel)
                .max_by_key(|r| r.threads)
            {
                out.insert(
                    (key, format!("{} threads", r.threads)),
                    r.bytes_per_s as u64,
                );
            }
        }
    }
    if let Some(d) = &b.disk {
        let at = d.drive.clone().unwrap_or_else(|| d.path.clone());
        out.insert((Measured::DiskRead, at), d.bytes_per_s as u64);
    }
    if let Some(g) = &b.gpu {
        for m in &g.per_gpu {
            let at = m
                .pci_address
                .clone()
                .unwrap_or_else(|| format!("GPU {}", m.cuda_index));
            if let Some(t) = m.fp32_tflops {
                out.insert((Measured::GpuFp32, at.clone()), (t * 1e3) as u64);
            }
            if let Some(t) = m.fp16_tflops {
                out.insert((Measured::GpuFp16, at), (t * 1e3) as u64);
            }
        }
    }
    if let Some(c) = &b.cpu {
        if let Some(p) = c.points.iter().max_by_key(|p| p.threads) {
            out.insert(
                (Measured::DataLoader, format!("{} threads", p.threads)),
                p.images_per_s as u64,
            );
        }
    }
    out
}

/// The figures measured in both reports that fell by more than `MEASURED_FALL`, as
/// `measured` changes.
fn measured(
    c: &mut Changes,
    a: &BTreeMap<(Measured, String), u64>,
    b: &BTreeMap<(Measured, String), u64>,
) {
    for ((what, at), before) in a {
        let Some(after) = b.get(&(*what, at.clone())) else {
            continue;
        };
        if (*after as f64) < (*before as f64) * (1.0 - MEASURED_FALL) {
            let fell = 100.0 * (1.0 - *after as f64 / *before as f64);
            c.push(
                "measured",
                &format!("{} fell {fell:.0} %", what.name()),
                at,
                what.show(*before),
                what.show(*after),
            );
        }
    }
}

/// The box: vendor, model, serials, board, BIOS.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct SystemFacts {
    pub vendor: Option<String>,
    pub product: Option<String>,
    pub serial: Option<String>,
    pub board_name: Option<String>,
    pub board_serial: Option<String>,
    pub bios_version: Option<String>,
    pub bios_date: Option<String>,
}

/// The processors: every socket's model, sockets, cores, threads, max clock.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct CpuFacts {
    /// The model, or every socket's joined by ` + ` when they differ.
    pub model: Option<String>,
    pub sockets: Option<u32>,
    pub cores: Option<u32>,
    pub threads: Option<u32>,
    pub max_mhz: Option<u32>,
}

/// Installed memory (only as the DIMMs add up) and usable memory (MemTotal).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct MemoryFacts {
    pub installed_bytes: Option<u64>,
    pub usable_bytes: Option<u64>,
}

/// One DIMM, by its slot.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct DimmFacts {
    pub bank_locator: Option<String>,
    pub locator: String,
    pub size_bytes: Option<u64>,
    pub kind: Option<String>,
    pub part_number: Option<String>,
    pub serial: Option<String>,
}

/// One GPU, by its PCI address.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct GpuFacts {
    /// The PCI address, or `GPU <n>` by its place in the report.
    pub at: String,
    pub name: Option<String>,
    /// The name is the product table's (no driver), compared by product, not letter.
    pub name_from_datasheet: bool,
    pub vram_bytes: Option<u64>,
    /// The memory is the datasheet's round figure, compared within a tolerance.
    pub vram_from_datasheet: bool,
    /// What of it NVML gives as usable where that is less (ECC on): a report that gave this
    /// as the GPU's memory (written before the board's was) is the same board.
    pub vram_usable_bytes: Option<u64>,
    /// Where the name is unknown because the PCI id is shared: the boards it may be.
    pub candidates: Vec<String>,
    pub uuid: Option<String>,
    pub width: Option<u32>,
    pub max_width: Option<u32>,
    pub vbios_version: Option<String>,
}

/// One network adapter, by its PCI address.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct NicFacts {
    /// The PCI address of its first function, or its first port's name.
    pub at: String,
    /// The board's name, else the controller's.
    pub name: Option<String>,
    pub max_speed_mbps: Option<u64>,
    pub ports: usize,
    /// The ports' MAC addresses, sorted: a card of the same model swapped shows here.
    pub macs: Vec<String>,
    pub firmware: Option<String>,
}

/// One drive.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct DriveFacts {
    pub name: String,
    pub model: Option<String>,
    pub size_bytes: Option<u64>,
    pub serial: Option<String>,
    pub firmware: Option<String>,
    /// USB sticks and other media that come and go: compared apart from the machine's own.
    pub removable: bool,
}

/// OS, kernel and NVIDIA driver.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct SoftwareFacts {
    pub os: Option<String>,
    pub kernel: Option<String>,
    pub driver: Option<String>,
    /// Which kind of OS (`Windows`, `macOS`, else `Linux`): a kernel's version is compared
    /// only with one of its own kind (Windows' build 19045 is no later Linux 5.15).
    pub family: Option<&'static str>,
}

/// The kind of OS a report is of, from os-release's `NAME` (`Windows` and `macOS` as
/// rigcheck writes them there).
fn os_family(os: &crate::spec::Os) -> Option<&'static str> {
    let name = os.name.as_deref()?;
    Some(if name.starts_with("Windows") {
        "Windows"
    } else if name.starts_with("macOS") || name.starts_with("Mac OS") {
        "macOS"
    } else {
        "Linux"
    })
}

impl Compared {
    /// The facts of `spec` that `diff` compares.
    pub fn of(spec: &Spec) -> Compared {
        let s = &spec.system;
        let c = &spec.cpu;
        let m = &spec.memory;
        Compared {
            system: SystemFacts {
                vendor: s.vendor.clone(),
                product: s.product.clone(),
                serial: s.serial.clone(),
                board_name: s.board_name.clone(),
                board_serial: s.board_serial.clone(),
                bios_version: s.bios_version.clone(),
                bios_date: s.bios_date.clone(),
            },
            cpu: CpuFacts {
                model: if c.socket_models.len() > 1 {
                    Some(c.socket_models.join(" + "))
                } else {
                    c.model.clone()
                },
                sockets: c.sockets,
                cores: c.cores,
                threads: c.threads,
                max_mhz: c.max_mhz,
            },
            memory: MemoryFacts {
                installed_bytes: (m.total_source.as_deref() == Some("dimms"))
                    .then_some(m.total_bytes)
                    .flatten(),
                usable_bytes: m.usable_bytes,
            },
            // Listed by SMBIOS or udev; else the list is unknown, not empty.
            dimms: m
                .dimm_source
                .is_some()
                .then(|| m.dimms.iter().map(DimmFacts::of).collect()),
            gpus: spec
                .gpus
                .iter()
                .enumerate()
                .map(|(i, g)| GpuFacts::of(i, g))
                .collect(),
            drives: spec.drives.iter().map(DriveFacts::of).collect(),
            nics: spec.nics.iter().map(NicFacts::of).collect(),
            lists: Lists {
                dimms: spec.dimm_list(),
                ..spec.lists
            },
            software: SoftwareFacts {
                os: spec.os.pretty_name.clone(),
                kernel: spec.os.kernel.clone(),
                driver: spec.gpus.iter().find_map(|g| g.driver_version.clone()),
                family: os_family(&spec.os),
            },
            health: health_counters(spec),
            measured: measured_figures(spec),
        }
    }

    /// How many of the facts of a configuration are unknown (and lists not read whole): how
    /// little a report knows of its machine, so `fleet` measures hosts against the one that
    /// knows the most. Serials and UUIDs, which no configuration holds, are not counted.
    pub fn unknowns(&self) -> usize {
        fn none<T>(v: &[&Option<T>]) -> usize {
            v.iter().filter(|o| o.is_none()).count()
        }
        let s = &self.system;
        let c = &self.cpu;
        let mut n = none(&[
            &s.vendor,
            &s.product,
            &s.board_name,
            &s.bios_version,
            &s.bios_date,
        ]) + none(&[&c.sockets, &c.cores, &c.threads, &c.max_mhz])
            + none(&[&c.model])
            + none(&[&self.memory.installed_bytes, &self.memory.usable_bytes]);
        n += match &self.dimms {
            Some(d) => d
                .iter()
                .map(|d| none(&[&d.size_bytes]) + none(&[&d.kind, &d.part_number]))
                .sum(),
            None => 1,
        };
        n += self
            .gpus
            .iter()
            .map(|g| {
                none(&[&g.name, &g.vbios_version])
                    + none(&[&g.vram_bytes])
                    + none(&[&g.width, &g.max_width])
            })
            .sum::<usize>();
        n += self
            .drives
            .iter()
            .map(|d| none(&[&d.model, &d.firmware]) + none(&[&d.size_bytes]))
            .sum::<usize>();
        let l = &self.lists;
        n + [l.drives, l.gpus, l.dimms]
            .iter()
            .filter(|s| !s.is_complete())
            .count()
    }

    /// The machine's hardware configuration: these facts without what tells one unit from
    /// another of the same model (serials, UUIDs) and without the software, so identical
    /// machines are equal.
    /// Takes these facts rather than a copy: `fleet` keys every report by it.
    pub fn configuration(self) -> Compared {
        let mut c = self;
        c.system.serial = None;
        c.system.board_serial = None;
        for d in c.dimms.iter_mut().flatten() {
            d.serial = None;
        }
        for g in &mut c.gpus {
            g.uuid = None;
        }
        for d in &mut c.drives {
            d.serial = None;
        }
        for n in &mut c.nics {
            n.macs.clear();
        }
        c.software = SoftwareFacts::default();
        c.health.clear();
        c.measured.clear();
        c
    }
}

/// The health counters (`rules::health::counters`), each known one by (what, where). Time
/// held down by heat grows with use of a hot machine and is no change of the machine: left
/// out here.
fn health_counters(spec: &Spec) -> BTreeMap<(String, String), u64> {
    crate::rules::health::counters(spec)
        .into_iter()
        .filter(|c| c.what != crate::rules::health::GPU_HEAT_TIME)
        .map(|c| ((c.what.to_string(), c.at), c.value))
        .collect()
}

/// The counters known on both sides that grew (one that fell was reset: a reboot, a driver
/// reload), as `health` changes.
fn health(
    c: &mut Changes,
    a: &BTreeMap<(String, String), u64>,
    b: &BTreeMap<(String, String), u64>,
) {
    for ((what, at), before) in a {
        if let Some(after) = b.get(&(what.clone(), at.clone())).filter(|n| *n > before) {
            c.push(
                "health",
                &format!("{what} grew"),
                at,
                before.to_string(),
                after.to_string(),
            );
        }
    }
}

impl DimmFacts {
    fn of(d: &Dimm) -> DimmFacts {
        DimmFacts {
            bank_locator: d.bank_locator.clone(),
            locator: d.locator.clone(),
            size_bytes: d.size_bytes,
            kind: d.kind.clone(),
            part_number: d.part_number.clone(),
            serial: d.serial.clone(),
        }
    }
}

impl GpuFacts {
    fn of(i: usize, g: &Gpu) -> GpuFacts {
        GpuFacts {
            at: g.pci_address.clone().unwrap_or_else(|| format!("GPU {i}")),
            name: g.name.clone(),
            name_from_datasheet: g.from_datasheet("name"),
            vram_bytes: g.vram_bytes,
            vram_from_datasheet: g.from_datasheet("vram_bytes"),
            vram_usable_bytes: g.vram_usable_bytes,
            candidates: g.open_candidates().to_vec(),
            uuid: g.uuid.clone(),
            width: g.pcie.width,
            max_width: g.pcie.max_width,
            vbios_version: g.vbios_version.clone(),
        }
    }
}

impl NicFacts {
    fn of(n: &Nic) -> NicFacts {
        let mut macs: Vec<String> = n.ports.iter().filter_map(|p| p.mac.clone()).collect();
        macs.sort();
        NicFacts {
            at: n
                .pci_address
                .clone()
                .or_else(|| n.ports.first().map(|p| p.name.clone()))
                .unwrap_or_else(|| "network adapter".into()),
            name: n.board.clone().or_else(|| n.name.clone()),
            max_speed_mbps: n.max_speed_mbps,
            ports: n.ports.len(),
            macs,
            firmware: n.firmware.clone(),
        }
    }
}

impl DriveFacts {
    fn of(d: &Drive) -> DriveFacts {
        DriveFacts {
            name: d.name.clone(),
            model: d.model.clone(),
            size_bytes: d.size_bytes,
            serial: d.serial.clone(),
            firmware: d.firmware.clone(),
            removable: d.is_removable(),
        }
    }
}

/// All changes from `a` to `b`, hardware first, and the facts known on one side only.
pub fn diff(a: &Spec, b: &Spec) -> Diff {
    compare(&Compared::of(a), &Compared::of(b))
}

/// All changes from `a` to `b` (the facts of two reports), hardware first, and the facts
/// known on one side only.
pub fn compare(a: &Compared, b: &Compared) -> Diff {
    let mut c = Changes::default();
    system(&mut c, &a.system, &b.system);
    cpu(&mut c, &a.cpu, &b.cpu);
    memory(&mut c, &a.memory, &b.memory);
    dimms(
        &mut c,
        a.dimms.as_deref(),
        b.dimms.as_deref(),
        (a.lists.dimms, b.lists.dimms),
    );
    gpus(&mut c, &a.gpus, &b.gpus, (a.lists.gpus, b.lists.gpus));
    nics(&mut c, &a.nics, &b.nics, (a.lists.nics, b.lists.nics));
    drives(
        &mut c,
        &a.drives,
        &b.drives,
        (a.lists.drives, b.lists.drives),
    );
    software(&mut c, &a.software, &b.software);
    health(&mut c, &a.health, &b.health);
    measured(&mut c, &a.measured, &b.measured);
    Diff {
        changes: c.found,
        unknown_on_one_side: c.unknown,
    }
}

/// The changes found so far, and the facts known on one side only.
#[derive(Default)]
struct Changes {
    found: Vec<Change>,
    unknown: Vec<Change>,
}

impl Changes {
    /// Compares one fact: `fact` names it, `changed` says what a difference means.
    fn fact(
        &mut self,
        class: &'static str,
        (fact, changed): (&str, &str),
        at: &str,
        before: Option<String>,
        after: Option<String>,
    ) {
        let entry = |what: &str, before: Option<String>, after: Option<String>| Change {
            class,
            what: what.into(),
            at: at.into(),
            before: before.unwrap_or_else(|| "unknown".into()),
            after: after.unwrap_or_else(|| "unknown".into()),
        };
        match (&before, &after) {
            (Some(x), Some(y)) if x != y => self.found.push(entry(changed, before, after)),
            (Some(_), None) | (None, Some(_)) => self.unknown.push(entry(fact, before, after)),
            _ => {}
        }
    }

    /// A hardware fact (counts for the exit code).
    fn hw(&mut self, what: (&str, &str), at: &str, before: Option<String>, after: Option<String>) {
        self.fact("hardware", what, at, before, after);
    }

    /// An item listed on one side and absent from the other: added or removed where the
    /// other side's list was read whole, else unknown on that side (its list is partial or
    /// unreadable, so the item may be there).
    fn presence(
        &mut self,
        class: &'static str,
        (fact, changed): (&str, &str),
        at: &str,
        item: String,
        absent: String,
        (listed_before, other): (bool, ListState),
    ) {
        let unseen = format!("unknown (list {})", other.as_str());
        let (before, after) = match (listed_before, other.is_complete()) {
            (true, true) => (item, absent),
            (false, true) => (absent, item),
            (true, false) => (item, unseen),
            (false, false) => (unseen, item),
        };
        let entry = Change {
            class,
            what: if other.is_complete() { changed } else { fact }.into(),
            at: at.into(),
            before,
            after,
        };
        if other.is_complete() {
            self.found.push(entry);
        } else {
            self.unknown.push(entry);
        }
    }

    /// A change seen directly (an item added or removed): always known.
    fn push(&mut self, class: &'static str, what: &str, at: &str, before: String, after: String) {
        self.found.push(Change {
            class,
            what: what.into(),
            at: at.into(),
            before,
            after,
        });
    }
}

fn num(v: Option<u32>) -> Option<String> {
    v.map(|n| n.to_string())
}

/// The box: vendor, model, serials, board, BIOS.
fn system(c: &mut Changes, x: &SystemFacts, y: &SystemFacts) {
    let facts = [
        (
            ("system vendor", "system vendor changed"),
            &x.vendor,
            &y.vendor,
        ),
        (
            ("system model", "system model changed"),
            &x.product,
            &y.product,
        ),
        (
            ("system serial", "system serial changed"),
            &x.serial,
            &y.serial,
        ),
        (("board", "board changed"), &x.board_name, &y.board_name),
        (
            ("board serial", "board serial changed"),
            &x.board_serial,
            &y.board_serial,
        ),
        (
            ("BIOS version", "BIOS updated"),
            &x.bios_version,
            &y.bios_version,
        ),
        (
            ("BIOS date", "BIOS date changed"),
            &x.bios_date,
            &y.bios_date,
        ),
    ];
    for (what, before, after) in facts {
        c.hw(what, "system", before.clone(), after.clone());
    }
}

/// The processors: model (every socket's), sockets, cores, threads, max clock.
fn cpu(c: &mut Changes, x: &CpuFacts, y: &CpuFacts) {
    c.hw(
        ("CPU model", "CPU model changed"),
        "cpu",
        x.model.clone(),
        y.model.clone(),
    );
    let facts = [
        (("CPU sockets", "CPU sockets changed"), x.sockets, y.sockets),
        (("CPU cores", "CPU cores changed"), x.cores, y.cores),
        (("CPU threads", "CPU threads changed"), x.threads, y.threads),
    ];
    for (what, before, after) in facts {
        c.hw(what, "cpu", num(before), num(after));
    }
    // A clock with its unit: "4000 MHz → 1700 MHz", not two bare numbers.
    let mhz = |v: Option<u32>| v.map(|n| format!("{n} MHz"));
    c.hw(
        ("CPU max clock", "CPU max clock changed"),
        "cpu",
        mhz(x.max_mhz),
        mhz(y.max_mhz),
    );
}

/// Installed memory (when both reports know the DIMMs) and usable memory (MemTotal, within
/// `USABLE_TOLERANCE`): without SMBIOS, MemTotal is the only sign of a lost DIMM.
fn memory(c: &mut Changes, x: &MemoryFacts, y: &MemoryFacts) {
    c.hw(
        ("memory installed", "memory installed changed"),
        "memory",
        x.installed_bytes.map(bytes_bin),
        y.installed_bytes.map(bytes_bin),
    );
    let (ua, ub) = (x.usable_bytes, y.usable_bytes);
    let moved = match (ua, ub) {
        (Some(x), Some(y)) => x.abs_diff(y) as f64 > x.max(y) as f64 * USABLE_TOLERANCE,
        _ => true,
    };
    if moved {
        c.hw(
            (
                "memory usable (MemTotal)",
                "memory usable (MemTotal) changed",
            ),
            "memory",
            ua.map(bytes_bin),
            ub.map(bytes_bin),
        );
    }
}

/// A slot's key: (bank locator, locator). Boards repeat locators per channel (`DIMM 1` in
/// `P0 CHANNEL A` and in `P0 CHANNEL B`), so the locator alone does not name a slot.
type SlotKey = (Option<String>, String);

fn slot_key(d: &DimmFacts) -> SlotKey {
    (d.bank_locator.clone(), d.locator.clone())
}

/// DIMMs by slot, when both reports list them.
fn dimms(
    c: &mut Changes,
    a: Option<&[DimmFacts]>,
    b: Option<&[DimmFacts]>,
    (sa, sb): (ListState, ListState),
) {
    let describe = |d: &DimmFacts| {
        let parts: Vec<String> = [
            d.size_bytes.map(bytes_bin),
            d.kind.clone(),
            d.part_number.clone(),
        ]
        .into_iter()
        .flatten()
        .collect();
        if parts.is_empty() {
            "a DIMM of unknown size".into()
        } else {
            parts.join(" ")
        }
    };
    let summary = |dimms: &[DimmFacts]| {
        let mut sizes: BTreeMap<String, usize> = BTreeMap::new();
        for d in dimms {
            *sizes.entry(describe(d)).or_default() += 1;
        }
        let parts: Vec<String> = sizes.iter().map(|(d, n)| format!("{n} × {d}")).collect();
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join(", ")
        }
    };
    let (a, b) = match (a, b) {
        (Some(a), Some(b)) => (a, b),
        (None, None) => return,
        (a, b) => {
            c.hw(
                ("DIMMs", "DIMMs changed"),
                "memory",
                a.map(summary),
                b.map(summary),
            );
            return;
        }
    };
    let da: BTreeMap<SlotKey, &DimmFacts> = a.iter().map(|d| (slot_key(d), d)).collect();
    let db: BTreeMap<SlotKey, &DimmFacts> = b.iter().map(|d| (slot_key(d), d)).collect();
    // A locator is shown with its bank only where it alone is ambiguous.
    let mut banks_of: BTreeMap<&str, BTreeSet<Option<&str>>> = BTreeMap::new();
    for (bank, loc) in da.keys().chain(db.keys()) {
        banks_of.entry(loc).or_default().insert(bank.as_deref());
    }
    let place = |(bank, loc): &SlotKey| match bank {
        Some(bank) if banks_of.get(loc.as_str()).is_some_and(|s| s.len() > 1) => {
            format!("{loc} ({bank})")
        }
        _ => loc.clone(),
    };
    // Slots in the order people number them (DIMM1, DIMM3, DIMM10), as the inventory lists
    // them.
    let mut keys: Vec<&SlotKey> = da
        .keys()
        .chain(db.keys())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    keys.sort_by_cached_key(|(bank, loc)| {
        (
            bank.as_deref().map(crate::natural::natural_key),
            crate::natural::natural_key(loc),
        )
    });
    for k in keys {
        let at = place(k);
        match (da.get(k), db.get(k)) {
            (Some(x), None) => c.presence(
                "hardware",
                ("DIMM", "DIMM removed"),
                &at,
                describe(x),
                "empty".into(),
                (true, sb),
            ),
            (None, Some(y)) => c.presence(
                "hardware",
                ("DIMM", "DIMM added"),
                &at,
                describe(y),
                "empty".into(),
                (false, sa),
            ),
            (Some(x), Some(y)) => {
                let attrs = |d: &DimmFacts| {
                    [
                        ("DIMM size", d.size_bytes.map(bytes_bin)),
                        ("DIMM type", d.kind.clone()),
                        ("DIMM part number", d.part_number.clone()),
                    ]
                };
                let mut replaced = false;
                for ((name, vx), (_, vy)) in attrs(x).into_iter().zip(attrs(y)) {
                    match (vx, vy) {
                        (Some(p), Some(q)) => replaced |= p != q,
                        (p, q) => c.hw((name, ""), &at, p, q),
                    }
                }
                if replaced {
                    c.push("hardware", "DIMM replaced", &at, describe(x), describe(y));
                } else {
                    c.hw(
                        ("DIMM serial", "DIMM swapped (serial)"),
                        &at,
                        x.serial.clone(),
                        y.serial.clone(),
                    );
                }
            }
            (None, None) => {}
        }
    }
}

/// GPUs by PCI address.
fn gpus(c: &mut Changes, a: &[GpuFacts], b: &[GpuFacts], (sa, sb): (ListState, ListState)) {
    let describe = |g: &GpuFacts| {
        format!(
            "{} {}",
            g.name
                .clone()
                .or_else(|| (!g.candidates.is_empty()).then(|| either(&g.candidates)))
                .unwrap_or_else(|| "unknown GPU".into()),
            g.vram_bytes.map(bytes_bin).unwrap_or_default()
        )
        .trim()
        .to_string()
    };
    let ga: BTreeMap<&String, &GpuFacts> = a.iter().map(|g| (&g.at, g)).collect();
    let gb: BTreeMap<&String, &GpuFacts> = b.iter().map(|g| (&g.at, g)).collect();
    let keys: BTreeSet<&String> = ga.keys().chain(gb.keys()).copied().collect();
    for k in keys {
        match (ga.get(k), gb.get(k)) {
            (Some(x), None) => c.presence(
                "hardware",
                ("GPU", "GPU removed"),
                k,
                describe(x),
                "none".into(),
                (true, sb),
            ),
            (None, Some(y)) => c.presence(
                "hardware",
                ("GPU", "GPU added"),
                k,
                describe(y),
                "none".into(),
                (false, sa),
            ),
            (Some(x), Some(y)) => {
                let mut replaced = false;
                match (&x.name, &y.name) {
                    (Some(p), Some(q)) if x.name_from_datasheet || y.name_from_datasheet => {
                        replaced |= !same_product_name(p, q);
                    }
                    (Some(p), Some(q)) => replaced |= p != q,
                    // One side's board is none the other side's PCI id allows.
                    _ if rules_out(
                        (x.name.as_deref(), &x.candidates),
                        (y.name.as_deref(), &y.candidates),
                        same_product_name,
                    ) =>
                    {
                        replaced = true
                    }
                    (p, q) => c.hw(("GPU model", ""), k, p.clone(), q.clone()),
                }
                match (x.vram_bytes, y.vram_bytes) {
                    // One side's memory is the other's usable share with ECC on.
                    (Some(p), Some(q))
                        if x.vram_usable_bytes == Some(q) || y.vram_usable_bytes == Some(p) => {}
                    (Some(p), Some(q)) if x.vram_from_datasheet || y.vram_from_datasheet => {
                        replaced |= !near_rated_memory(p, q);
                    }
                    (Some(p), Some(q)) => replaced |= p != q,
                    (p, q) => c.hw(("GPU memory", ""), k, p.map(bytes_bin), q.map(bytes_bin)),
                }
                if replaced {
                    c.push("hardware", "GPU replaced", k, describe(x), describe(y));
                } else {
                    c.hw(
                        ("GPU UUID", "GPU swapped (UUID)"),
                        k,
                        x.uuid.clone(),
                        y.uuid.clone(),
                    );
                }
                link(c, k, x, y);
                c.hw(
                    ("GPU VBIOS", "GPU VBIOS changed"),
                    k,
                    x.vbios_version.clone(),
                    y.vbios_version.clone(),
                );
            }
            (None, None) => {}
        }
    }
}

/// Network adapters by PCI address: one added, removed, replaced by another model, or
/// swapped for another of the same model (its MAC addresses differ).
fn nics(c: &mut Changes, a: &[NicFacts], b: &[NicFacts], (sa, sb): (ListState, ListState)) {
    let describe = |n: &NicFacts| {
        let speed = n
            .max_speed_mbps
            .map(|m| format!(" ({})", crate::units::link_speed(m)))
            .unwrap_or_default();
        format!(
            "{}{speed}",
            n.name
                .clone()
                .unwrap_or_else(|| "unknown network adapter".into())
        )
    };
    let na: BTreeMap<&String, &NicFacts> = a.iter().map(|n| (&n.at, n)).collect();
    let nb: BTreeMap<&String, &NicFacts> = b.iter().map(|n| (&n.at, n)).collect();
    let keys: BTreeSet<&String> = na.keys().chain(nb.keys()).copied().collect();
    for k in keys {
        match (na.get(k), nb.get(k)) {
            (Some(x), None) => c.presence(
                "hardware",
                ("network adapter", "network adapter removed"),
                k,
                describe(x),
                "none".into(),
                (true, sb),
            ),
            (None, Some(y)) => c.presence(
                "hardware",
                ("network adapter", "network adapter added"),
                k,
                describe(y),
                "none".into(),
                (false, sa),
            ),
            (Some(x), Some(y)) => {
                let replaced = matches!((&x.name, &y.name), (Some(p), Some(q)) if p != q)
                    || matches!((x.max_speed_mbps, y.max_speed_mbps), (Some(p), Some(q)) if p != q);
                if replaced {
                    c.push(
                        "hardware",
                        "network adapter replaced",
                        k,
                        describe(x),
                        describe(y),
                    );
                    continue;
                }
                c.hw(
                    ("network adapter model", ""),
                    k,
                    x.name.clone(),
                    y.name.clone(),
                );
                if x.ports != y.ports {
                    c.push(
                        "hardware",
                        "network ports changed",
                        k,
                        x.ports.to_string(),
                        y.ports.to_string(),
                    );
                }
                if !x.macs.is_empty() && !y.macs.is_empty() && x.macs != y.macs {
                    c.push(
                        "hardware",
                        "network adapter swapped (MAC)",
                        k,
                        x.macs.join(", "),
                        y.macs.join(", "),
                    );
                }
                c.hw(
                    (
                        "network adapter firmware",
                        "network adapter firmware changed",
                    ),
                    k,
                    x.firmware.clone(),
                    y.firmware.clone(),
                );
            }
            (None, None) => {}
        }
    }
}

/// How far the memory NVML reports may sit below or above the datasheet's round figure and
/// still be the same board: the driver keeps some for itself (an H100 80GB HBM3 reports
/// 81,559 MiB of the rated 81,920, 0.44 % less), while the nearest other memory size of one
/// model is at least 15 % away (H100 80 GB and 94 GB, A100 40 GB and 80 GB).
const RATED_MEMORY_TOLERANCE: f64 = 0.02;

/// True when two GPU memory sizes, one of them a datasheet figure, are the same board's.
fn near_rated_memory(a: u64, b: u64) -> bool {
    let (lo, hi) = (a.min(b) as f64, a.max(b) as f64);
    hi == 0.0 || (hi - lo) / hi <= RATED_MEMORY_TOLERANCE
}

/// The negotiated PCIe width and its maximum, compared where both are known.
fn link(c: &mut Changes, at: &str, x: &GpuFacts, y: &GpuFacts) {
    let shown = |g: &GpuFacts| {
        g.width.map(|w| {
            let max = g.max_width.map_or("unknown".into(), |m| m.to_string());
            format!("x{w} (max x{max})")
        })
    };
    let differs = |p: Option<u32>, q: Option<u32>| matches!((p, q), (Some(p), Some(q)) if p != q);
    if differs(x.width, y.width) || differs(x.max_width, y.max_width) {
        c.push(
            "hardware",
            "GPU PCIe link width changed",
            at,
            shown(x).unwrap_or_else(|| "unknown".into()),
            shown(y).unwrap_or_else(|| "unknown".into()),
        );
    } else {
        c.hw(
            ("GPU PCIe link width", ""),
            at,
            x.width.map(|w| format!("x{w}")),
            y.width.map(|w| format!("x{w}")),
        );
    }
}

/// Drives, matched by serial, then by model and size, then by kernel name; internal drives
/// and removable media apart.
fn drives(c: &mut Changes, a: &[DriveFacts], b: &[DriveFacts], states: (ListState, ListState)) {
    let (ra, ia): (Vec<&DriveFacts>, Vec<&DriveFacts>) = a.iter().partition(|d| d.removable);
    let (rb, ib): (Vec<&DriveFacts>, Vec<&DriveFacts>) = b.iter().partition(|d| d.removable);
    drive_set(c, "hardware", &ia, &ib, states);
    drive_set(c, "removable", &ra, &rb, states);
}

fn drive_set(
    c: &mut Changes,
    class: &'static str,
    a: &[&DriveFacts],
    b: &[&DriveFacts],
    (sa, sb): (ListState, ListState),
) {
    let describe = |d: &DriveFacts| {
        format!(
            "{} {} ({})",
            d.model.clone().unwrap_or_else(|| "unknown model".into()),
            d.size_bytes.map(bytes_dec).unwrap_or_default(),
            d.serial.clone().unwrap_or_else(|| "serial unknown".into())
        )
    };
    let (pairs, only_a, only_b) = match_drives(a, b);
    for (x, y) in pairs {
        let at = &y.name;
        // A serial is the unit's only where the model and size say nothing else: some drives
        // (and USB bridges, RAID volumes) all report one serial, so a 1 TB drive swapped for
        // a 2 TB one under it is still a replacement.
        let same_unit = match (&x.serial, &y.serial) {
            (Some(p), Some(q)) => p == q && !contradicts(x, y),
            // No serial to tell by: the same unit unless a model or size known on both sides
            // differs (one side's unknown model is not another drive).
            _ => !contradicts(x, y),
        };
        if !same_unit {
            c.push(class, "drive replaced", at, describe(x), describe(y));
            continue;
        }
        c.fact(
            class,
            ("drive model", ""),
            at,
            x.model.clone(),
            y.model.clone(),
        );
        c.fact(
            class,
            ("drive size", ""),
            at,
            x.size_bytes.map(bytes_dec),
            y.size_bytes.map(bytes_dec),
        );
        c.fact(
            class,
            ("drive serial", ""),
            at,
            x.serial.clone(),
            y.serial.clone(),
        );
        c.fact(
            class,
            ("drive firmware", "drive firmware updated"),
            at,
            x.firmware.clone(),
            y.firmware.clone(),
        );
    }
    let (removed, added) = if class == "removable" {
        ("removable medium removed", "removable medium added")
    } else {
        ("drive removed", "drive added")
    };
    for x in only_a {
        let what = ("drive", removed);
        c.presence(class, what, &x.name, describe(x), "none".into(), (true, sb));
    }
    for y in only_b {
        let what = ("drive", added);
        c.presence(
            class,
            what,
            &y.name,
            describe(y),
            "none".into(),
            (false, sa),
        );
    }
}

/// True when two drives' model or size, known on both, differ: not one unit, whatever
/// their serials say.
fn contradicts(x: &DriveFacts, y: &DriveFacts) -> bool {
    let model = matches!((&x.model, &y.model), (Some(p), Some(q)) if p != q);
    let size = matches!((x.size_bytes, y.size_bytes), (Some(p), Some(q)) if p != q);
    model || size
}

type Matched<'a> = (
    Vec<(&'a DriveFacts, &'a DriveFacts)>,
    Vec<&'a DriveFacts>,
    Vec<&'a DriveFacts>,
);

/// A rule saying two drives of two reports are the same unit.
type SameDrive = dyn Fn(&DriveFacts, &DriveFacts) -> bool;

/// Pairs the drives of two reports: the same serial (and no other model or size); else, where
/// a serial is unknown, the same model and size (both known); else the same kernel name (a
/// replaced drive). Kernel names alone move (`sda` becomes `sdb` when a disk is added), so
/// they come last.
fn match_drives<'a>(a: &[&'a DriveFacts], b: &[&'a DriveFacts]) -> Matched<'a> {
    let mut left: Vec<Option<&DriveFacts>> = a.iter().map(|d| Some(*d)).collect();
    let mut right: Vec<Option<&DriveFacts>> = b.iter().map(|d| Some(*d)).collect();
    let mut pairs = Vec::new();
    fn same_serial(x: &DriveFacts, y: &DriveFacts) -> bool {
        x.serial.is_some() && x.serial == y.serial && !contradicts(x, y)
    }
    let rules: [&SameDrive; 3] = [
        &same_serial,
        &|x, y| {
            (x.serial.is_none() || y.serial.is_none())
                && x.model.is_some()
                && x.size_bytes.is_some()
                && x.model == y.model
                && x.size_bytes == y.size_bytes
        },
        &|x, y| x.name == y.name,
    ];
    // Each rule pairs the drives under one name first, then any: of two drives of one model
    // and size, each is paired with its own name's, not its neighbour's.
    for rule in rules {
        for named in [true, false] {
            for l in left.iter_mut() {
                let Some(x) = *l else { continue };
                let at = right
                    .iter()
                    .position(|r| r.is_some_and(|y| rule(x, y) && (!named || x.name == y.name)));
                if let Some(y) = at.and_then(|k| right[k].take()) {
                    pairs.push((x, y));
                    *l = None;
                }
            }
        }
    }
    pairs.sort_by(|p, q| p.1.name.cmp(&q.1.name));
    (
        pairs,
        left.into_iter().flatten().collect(),
        right.into_iter().flatten().collect(),
    )
}

/// OS, kernel and NVIDIA driver.
fn software(c: &mut Changes, a: &SoftwareFacts, b: &SoftwareFacts) {
    // From one kind of OS to another the OS change says it all: the kernels' versions are
    // numbers of different things.
    let same_kind = !matches!((a.family, b.family), (Some(x), Some(y)) if x != y);
    let facts = [
        (("OS", "OS changed"), a.os.clone(), b.os.clone()),
        (
            ("kernel", "kernel changed"),
            a.kernel.clone().filter(|_| same_kind),
            b.kernel.clone().filter(|_| same_kind),
        ),
        (
            ("NVIDIA driver", "NVIDIA driver changed"),
            a.driver.clone(),
            b.driver.clone(),
        ),
    ];
    for (what, before, after) in facts {
        c.fact("software", what, "os", before, after);
    }
}

/// True when any change is a hardware change (exit code 1).
pub fn has_hardware_changes(changes: &[Change]) -> bool {
    changes.iter().any(|c| c.class == "hardware")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::memory::inventory_from_smbios;

    /// The ASRock Ryzen board's real table: `DIMM 1` in `P0 CHANNEL A` and in `P0 CHANNEL B`.
    fn asrock() -> Spec {
        let table = include_bytes!("../fixtures/smbios/asrock-ryzen.dmi");
        let ep = crate::probe::smbios::EntryPoint {
            is_64bit: true,
            major: 3,
            minor: 2,
            docrev: None,
            table_len: table.len() as u32,
            structure_count: None,
        };
        let inv = inventory_from_smbios(&ep, table);
        let mut s = Spec::default();
        s.memory.dimm_source = Some("smbios".into());
        s.memory.dimms = inv.slots.into_iter().filter_map(|s| s.dimm).collect();
        s
    }

    #[test]
    fn dimms_in_slots_of_the_same_name_on_two_channels_are_two_slots() {
        let before = asrock();
        assert_eq!(before.memory.dimms.len(), 2);
        assert!(before.memory.dimms.iter().all(|d| d.locator == "DIMM 1"));
        let mut after = before.clone();
        after
            .memory
            .dimms
            .retain(|d| d.bank_locator.as_deref() != Some("P0 CHANNEL B"));
        let d = diff(&before, &after);
        assert_eq!(d.changes.len(), 1, "{d:#?}");
        assert_eq!(d.changes[0].what, "DIMM removed");
        assert_eq!(d.changes[0].at, "DIMM 1 (P0 CHANNEL B)");
        assert_eq!(d.exit_code(), 1);
    }

    #[test]
    fn a_configuration_is_what_diff_compares_less_identities_and_software() {
        let mut a = asrock();
        a.system.bios_version = Some("P60 v02.17".into());
        a.system.serial = Some("CZC9123ABC".into());
        a.os.kernel = Some("6.8.0".into());
        let mut b = a.clone();
        b.system.serial = Some("CZC9123XYZ".into());
        b.memory.dimms[0].serial = Some("1234ABCD".into());
        b.os.kernel = Some("6.8.1".into());
        // Another unit of the same model, on another kernel: diff sees it, fleet groups it.
        assert!(diff(&a, &b).has_hardware_changes());
        let config = |s: &Spec| Compared::of(s).configuration();
        assert_eq!(config(&a), config(&b));
        // A fact diff compares is part of the configuration.
        b.system.bios_version = Some("P60 v02.18".into());
        assert_ne!(config(&a), config(&b));
        // A fact diff ignores is not.
        let mut c = a.clone();
        c.memory.dimms[0].manufacturer = Some("Other".into());
        c.gpus.push(Gpu::default());
        c.gpus[0].state.temperature_c = Some(80);
        let mut d = a.clone();
        d.gpus.push(Gpu::default());
        assert_eq!(config(&c), config(&d));
    }

    #[test]
    fn unknown_on_one_side_is_never_a_change() {
        let mut a = asrock();
        a.system.bios_version = Some("P60 v02.17".into());
        let mut b = a.clone();
        b.system.bios_version = None;
        b.memory.dimm_source = None;
        b.memory.dimms.clear();
        let d = diff(&a, &b);
        assert!(d.changes.is_empty(), "{d:#?}");
        let what: Vec<&str> = d
            .unknown_on_one_side
            .iter()
            .map(|c| c.what.as_str())
            .collect();
        assert_eq!(what, ["BIOS version", "DIMMs"]);
        assert_eq!(
            d.unknown_on_one_side[1].before,
            "2 × 32 GiB DDR4 KF3200C16D4/32GX"
        );
        assert_eq!(d.unknown_on_one_side[1].after, "unknown");
        assert_eq!(d.exit_code(), EXIT_INCOMPLETE);
    }
}
