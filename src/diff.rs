//! diff: what changed between two reports of a machine (a DIMM gone, a GPU swapped, a
//! drive replaced, BIOS updated). Volatile state (temperatures, free memory, time) is ignored.
//!
//! Every fact is known or unknown. Only facts known in both reports are compared; a fact
//! known in one and unknown in the other (a report taken as root against one taken without:
//! serials, the DIMM list) is listed apart as "unknown on one side" and is never a change.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::spec::{Dimm, Drive, Gpu, Spec};
use crate::text::same_product_name;
use crate::units::{bytes_bin, bytes_dec};
use crate::verify::EXIT_INCOMPLETE;

/// One difference, or one fact known on one side only.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Change {
    /// `hardware` (counts for the exit code), `software` (OS, kernel, driver) or `removable`
    /// (USB and removable media, not part of the machine).
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
#[derive(Debug, Clone, Default, Serialize, PartialEq, Eq)]
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
            1
        } else if self.is_incomplete() {
            EXIT_INCOMPLETE
        } else {
            0
        }
    }
}

/// Usable memory (MemTotal) is a change when it moves by more than this fraction: kernels
/// and firmware updates shift it by megabytes, a lost DIMM by gigabytes.
pub const USABLE_TOLERANCE: f64 = 0.01;

/// All changes from `a` to `b`, hardware first, and the facts known on one side only.
pub fn diff(a: &Spec, b: &Spec) -> Diff {
    let mut c = Changes::default();
    system(&mut c, a, b);
    cpu(&mut c, a, b);
    memory(&mut c, a, b);
    dimms(&mut c, a, b);
    gpus(&mut c, a, b);
    drives(&mut c, a, b);
    software(&mut c, a, b);
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
fn system(c: &mut Changes, a: &Spec, b: &Spec) {
    let (x, y) = (&a.system, &b.system);
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
fn cpu(c: &mut Changes, a: &Spec, b: &Spec) {
    let models = |s: &Spec| -> Option<String> {
        if s.cpu.socket_models.len() > 1 {
            Some(s.cpu.socket_models.join(" + "))
        } else {
            s.cpu.model.clone()
        }
    };
    c.hw(
        ("CPU model", "CPU model changed"),
        "cpu",
        models(a),
        models(b),
    );
    let (x, y) = (&a.cpu, &b.cpu);
    let facts = [
        (("CPU sockets", "CPU sockets changed"), x.sockets, y.sockets),
        (("CPU cores", "CPU cores changed"), x.cores, y.cores),
        (("CPU threads", "CPU threads changed"), x.threads, y.threads),
        (
            ("CPU max clock", "CPU max clock changed"),
            x.max_mhz,
            y.max_mhz,
        ),
    ];
    for (what, before, after) in facts {
        c.hw(what, "cpu", num(before), num(after));
    }
}

/// Installed memory (when both reports know the DIMMs) and usable memory (MemTotal, within
/// `USABLE_TOLERANCE`): without SMBIOS, MemTotal is the only sign of a lost DIMM.
fn memory(c: &mut Changes, a: &Spec, b: &Spec) {
    let installed = |s: &Spec| {
        (s.memory.total_source.as_deref() == Some("dimms"))
            .then_some(s.memory.total_bytes)
            .flatten()
    };
    c.hw(
        ("memory installed", "memory installed changed"),
        "memory",
        installed(a).map(bytes_bin),
        installed(b).map(bytes_bin),
    );
    let (ua, ub) = (a.memory.usable_bytes, b.memory.usable_bytes);
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

/// True when the report lists the DIMMs (SMBIOS or udev); else the list is unknown, not empty.
fn dimms_known(s: &Spec) -> bool {
    s.memory.dimm_source.is_some()
}

/// A slot's key: (bank locator, locator). Boards repeat locators per channel (`DIMM 1` in
/// `P0 CHANNEL A` and in `P0 CHANNEL B`), so the locator alone does not name a slot.
type SlotKey = (Option<String>, String);

fn slot_key(d: &Dimm) -> SlotKey {
    (d.bank_locator.clone(), d.locator.clone())
}

/// DIMMs by slot, when both reports list them.
fn dimms(c: &mut Changes, a: &Spec, b: &Spec) {
    let describe = |d: &Dimm| {
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
    let summary = |s: &Spec| {
        let mut sizes: BTreeMap<String, usize> = BTreeMap::new();
        for d in &s.memory.dimms {
            *sizes.entry(describe(d)).or_default() += 1;
        }
        let parts: Vec<String> = sizes.iter().map(|(d, n)| format!("{n} × {d}")).collect();
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join(", ")
        }
    };
    match (dimms_known(a), dimms_known(b)) {
        (true, true) => {}
        (false, false) => return,
        (ka, kb) => {
            c.hw(
                ("DIMMs", "DIMMs changed"),
                "memory",
                ka.then(|| summary(a)),
                kb.then(|| summary(b)),
            );
            return;
        }
    }
    let da: BTreeMap<SlotKey, &Dimm> = a.memory.dimms.iter().map(|d| (slot_key(d), d)).collect();
    let db: BTreeMap<SlotKey, &Dimm> = b.memory.dimms.iter().map(|d| (slot_key(d), d)).collect();
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
    let keys: BTreeSet<&SlotKey> = da.keys().chain(db.keys()).collect();
    for k in keys {
        let at = place(k);
        match (da.get(k), db.get(k)) {
            (Some(x), None) => c.push("hardware", "DIMM removed", &at, describe(x), "empty".into()),
            (None, Some(y)) => c.push("hardware", "DIMM added", &at, "empty".into(), describe(y)),
            (Some(x), Some(y)) => {
                let attrs = |d: &Dimm| {
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
fn gpus(c: &mut Changes, a: &Spec, b: &Spec) {
    let describe = |g: &Gpu| {
        format!(
            "{} {}",
            g.name
                .clone()
                .or_else(|| g.candidates_name())
                .unwrap_or_else(|| "unknown GPU".into()),
            g.vram_bytes.map(bytes_bin).unwrap_or_default()
        )
        .trim()
        .to_string()
    };
    let key = |i: usize, g: &Gpu| g.pci_address.clone().unwrap_or_else(|| format!("GPU {i}"));
    let ga: BTreeMap<String, &Gpu> = a
        .gpus
        .iter()
        .enumerate()
        .map(|(i, g)| (key(i, g), g))
        .collect();
    let gb: BTreeMap<String, &Gpu> = b
        .gpus
        .iter()
        .enumerate()
        .map(|(i, g)| (key(i, g), g))
        .collect();
    let keys: BTreeSet<&String> = ga.keys().chain(gb.keys()).collect();
    for k in keys {
        match (ga.get(k), gb.get(k)) {
            (Some(x), None) => c.push("hardware", "GPU removed", k, describe(x), "none".into()),
            (None, Some(y)) => c.push("hardware", "GPU added", k, "none".into(), describe(y)),
            (Some(x), Some(y)) => {
                let mut replaced = false;
                let rated = |f: &str| x.from_datasheet(f) || y.from_datasheet(f);
                match (&x.name, &y.name) {
                    (Some(p), Some(q)) if rated("name") => replaced |= !same_product_name(p, q),
                    (Some(p), Some(q)) => replaced |= p != q,
                    // One side's board is none the other side's PCI id allows.
                    _ if x.rules_out(y, same_product_name) => replaced = true,
                    (p, q) => c.hw(("GPU model", ""), k, p.clone(), q.clone()),
                }
                match (x.vram_bytes, y.vram_bytes) {
                    (Some(p), Some(q)) if rated("vram_bytes") => {
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
fn link(c: &mut Changes, at: &str, x: &Gpu, y: &Gpu) {
    let shown = |g: &Gpu| {
        g.pcie.width.map(|w| {
            let max = g.pcie.max_width.map_or("unknown".into(), |m| m.to_string());
            format!("x{w} (max x{max})")
        })
    };
    let differs = |p: Option<u32>, q: Option<u32>| matches!((p, q), (Some(p), Some(q)) if p != q);
    if differs(x.pcie.width, y.pcie.width) || differs(x.pcie.max_width, y.pcie.max_width) {
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
            x.pcie.width.map(|w| format!("x{w}")),
            y.pcie.width.map(|w| format!("x{w}")),
        );
    }
}

/// Drives, matched by serial, then by model and size, then by kernel name; internal drives
/// and removable media apart.
fn drives(c: &mut Changes, a: &Spec, b: &Spec) {
    let (ia, ra): (Vec<&Drive>, Vec<&Drive>) = a.drives.iter().partition(|d| !d.is_removable());
    let (ib, rb): (Vec<&Drive>, Vec<&Drive>) = b.drives.iter().partition(|d| !d.is_removable());
    drive_set(c, "hardware", &ia, &ib);
    drive_set(c, "removable", &ra, &rb);
}

fn drive_set(c: &mut Changes, class: &'static str, a: &[&Drive], b: &[&Drive]) {
    let describe = |d: &Drive| {
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
        let same_unit = match (&x.serial, &y.serial) {
            (Some(p), Some(q)) => p == q,
            _ => x.model == y.model && x.size_bytes == y.size_bytes,
        };
        if !same_unit {
            c.push(class, "drive replaced", at, describe(x), describe(y));
            continue;
        }
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
        c.push(class, removed, &x.name, describe(x), "none".into());
    }
    for y in only_b {
        c.push(class, added, &y.name, "none".into(), describe(y));
    }
}

type Matched<'a> = (Vec<(&'a Drive, &'a Drive)>, Vec<&'a Drive>, Vec<&'a Drive>);

/// A rule saying two drives of two reports are the same unit.
type SameDrive = dyn Fn(&Drive, &Drive) -> bool;

/// Pairs the drives of two reports: the same serial; else, where a serial is unknown, the
/// same model and size (both known); else the same kernel name (a replaced drive). Kernel
/// names alone move (`sda` becomes `sdb` when a disk is added), so they come last.
fn match_drives<'a>(a: &[&'a Drive], b: &[&'a Drive]) -> Matched<'a> {
    let mut left: Vec<Option<&Drive>> = a.iter().map(|d| Some(*d)).collect();
    let mut right: Vec<Option<&Drive>> = b.iter().map(|d| Some(*d)).collect();
    let mut pairs = Vec::new();
    let rules: [&SameDrive; 3] = [
        &|x, y| x.serial.is_some() && x.serial == y.serial,
        &|x, y| {
            (x.serial.is_none() || y.serial.is_none())
                && x.model.is_some()
                && x.size_bytes.is_some()
                && x.model == y.model
                && x.size_bytes == y.size_bytes
        },
        &|x, y| x.name == y.name,
    ];
    for rule in rules {
        for l in left.iter_mut() {
            let Some(x) = *l else { continue };
            if let Some(r) = right.iter_mut().find(|r| r.is_some_and(|y| rule(x, y))) {
                if let Some(y) = r.take() {
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
fn software(c: &mut Changes, a: &Spec, b: &Spec) {
    let drv = |x: &Spec| x.gpus.iter().find_map(|g| g.driver_version.clone());
    let facts = [
        (
            ("OS", "OS changed"),
            a.os.pretty_name.clone(),
            b.os.pretty_name.clone(),
        ),
        (
            ("kernel", "kernel changed"),
            a.os.kernel.clone(),
            b.os.kernel.clone(),
        ),
        (("NVIDIA driver", "NVIDIA driver changed"), drv(a), drv(b)),
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
