//! diff: what changed between two reports of a machine (a DIMM gone, a GPU swapped, a
//! drive replaced, BIOS updated). Volatile state (temperatures, free memory, time) is ignored.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::spec::Spec;
use crate::units::{bytes_bin, bytes_dec};

/// One difference.
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct Change {
    /// `hardware` (counts for the exit code) or `software` (OS, kernel, driver).
    pub class: &'static str,
    /// What changed, in words: `DIMM removed`, `GPU swapped`, `BIOS updated`.
    pub what: String,
    /// Where: a slot, PCI address or drive name.
    pub at: String,
    pub before: String,
    pub after: String,
}

/// All changes from `a` to `b`, hardware first.
pub fn diff(a: &Spec, b: &Spec) -> Vec<Change> {
    let mut c = Changes::default();
    system(&mut c, a, b);
    cpu(&mut c, a, b);
    dimms(&mut c, a, b);
    gpus(&mut c, a, b);
    drives(&mut c, a, b);
    software(&mut c, a, b);
    c.0
}

/// The changes found so far; equal values are not a change.
#[derive(Default)]
struct Changes(Vec<Change>);

impl Changes {
    fn push(&mut self, class: &'static str, what: &str, at: &str, before: String, after: String) {
        if before != after {
            self.0.push(Change {
                class,
                what: what.into(),
                at: at.into(),
                before,
                after,
            });
        }
    }

    /// A hardware change (counts for the exit code).
    fn hw(&mut self, what: &str, at: &str, before: String, after: String) {
        self.push("hardware", what, at, before, after);
    }

    /// A software change (OS, kernel, driver).
    fn sw(&mut self, what: &str, before: String, after: String) {
        self.push("software", what, "os", before, after);
    }
}

/// Text of a value, `unknown` when absent.
fn s(v: &Option<String>) -> String {
    v.clone().unwrap_or_else(|| "unknown".into())
}

/// A count or clock as text, `unknown` when absent.
fn n(v: Option<u32>) -> String {
    v.map_or_else(|| "unknown".into(), |v| v.to_string())
}

/// The box: vendor, model, serials, board, BIOS.
fn system(c: &mut Changes, a: &Spec, b: &Spec) {
    c.hw(
        "system vendor changed",
        "system",
        s(&a.system.vendor),
        s(&b.system.vendor),
    );
    c.hw(
        "system model changed",
        "system",
        s(&a.system.product),
        s(&b.system.product),
    );
    c.hw(
        "system serial changed",
        "system",
        s(&a.system.serial),
        s(&b.system.serial),
    );
    c.hw(
        "board changed",
        "system",
        s(&a.system.board_name),
        s(&b.system.board_name),
    );
    c.hw(
        "board serial changed",
        "system",
        s(&a.system.board_serial),
        s(&b.system.board_serial),
    );
    c.hw(
        "BIOS updated",
        "system",
        s(&a.system.bios_version),
        s(&b.system.bios_version),
    );
    c.hw(
        "BIOS date changed",
        "system",
        s(&a.system.bios_date),
        s(&b.system.bios_date),
    );
}

/// The processors: model, sockets, cores, threads, max clock.
fn cpu(c: &mut Changes, a: &Spec, b: &Spec) {
    c.hw("CPU model changed", "cpu", s(&a.cpu.model), s(&b.cpu.model));
    c.hw(
        "CPU sockets changed",
        "cpu",
        n(a.cpu.sockets),
        n(b.cpu.sockets),
    );
    c.hw("CPU cores changed", "cpu", n(a.cpu.cores), n(b.cpu.cores));
    c.hw(
        "CPU threads changed",
        "cpu",
        n(a.cpu.threads),
        n(b.cpu.threads),
    );
    c.hw(
        "CPU max clock changed",
        "cpu",
        n(a.cpu.max_mhz),
        n(b.cpu.max_mhz),
    );
}

/// DIMMs by slot.
fn dimms(c: &mut Changes, a: &Spec, b: &Spec) {
    let dimm = |d: &crate::spec::Dimm| {
        format!(
            "{} {} {}",
            d.size_bytes
                .map_or_else(|| "unknown size".into(), bytes_bin),
            d.kind.clone().unwrap_or_default(),
            d.part_number.clone().unwrap_or_default()
        )
        .trim()
        .to_string()
    };
    let da: BTreeMap<_, _> = a
        .memory
        .dimms
        .iter()
        .map(|d| (d.locator.clone(), d))
        .collect();
    let db: BTreeMap<_, _> = b
        .memory
        .dimms
        .iter()
        .map(|d| (d.locator.clone(), d))
        .collect();
    keyed(&da, &db, &mut |k, x, y| match (x, y) {
        (Some(x), None) => c.hw("DIMM removed", k, dimm(x), "empty".into()),
        (None, Some(y)) => c.hw("DIMM added", k, "empty".into(), dimm(y)),
        (Some(x), Some(y)) => {
            c.hw("DIMM replaced", k, dimm(x), dimm(y));
            if dimm(x) == dimm(y) {
                c.hw("DIMM swapped (serial)", k, s(&x.serial), s(&y.serial));
            }
        }
        (None, None) => {}
    });
}

/// GPUs by PCI address.
fn gpus(c: &mut Changes, a: &Spec, b: &Spec) {
    let gpu = |g: &crate::spec::Gpu| {
        format!(
            "{} {}",
            g.name.clone().unwrap_or_else(|| "unknown GPU".into()),
            g.vram_bytes.map(bytes_bin).unwrap_or_default()
        )
        .trim()
        .to_string()
    };
    let key_gpu = |i: usize, g: &crate::spec::Gpu| {
        g.pci_address.clone().unwrap_or_else(|| format!("GPU {i}"))
    };
    let ga: BTreeMap<_, _> = a
        .gpus
        .iter()
        .enumerate()
        .map(|(i, g)| (key_gpu(i, g), g))
        .collect();
    let gb: BTreeMap<_, _> = b
        .gpus
        .iter()
        .enumerate()
        .map(|(i, g)| (key_gpu(i, g), g))
        .collect();
    keyed(&ga, &gb, &mut |k, x, y| match (x, y) {
        (Some(x), None) => c.hw("GPU removed", k, gpu(x), "none".into()),
        (None, Some(y)) => c.hw("GPU added", k, "none".into(), gpu(y)),
        (Some(x), Some(y)) => {
            c.hw("GPU replaced", k, gpu(x), gpu(y));
            if gpu(x) == gpu(y) {
                c.hw("GPU swapped (UUID)", k, s(&x.uuid), s(&y.uuid));
            }
            let link = |g: &crate::spec::Gpu| {
                format!("x{} (max x{})", n(g.pcie.width), n(g.pcie.max_width))
            };
            c.hw("GPU PCIe link width changed", k, link(x), link(y));
            c.hw(
                "GPU VBIOS changed",
                k,
                s(&x.vbios_version),
                s(&y.vbios_version),
            );
        }
        (None, None) => {}
    });
}

/// Drives by kernel name.
fn drives(c: &mut Changes, a: &Spec, b: &Spec) {
    let drive = |d: &crate::spec::Drive| {
        format!(
            "{} {} ({})",
            d.model.clone().unwrap_or_else(|| "unknown model".into()),
            d.size_bytes.map(bytes_dec).unwrap_or_default(),
            d.serial.clone().unwrap_or_else(|| "no serial".into())
        )
    };
    let dra: BTreeMap<_, _> = a.drives.iter().map(|d| (d.name.clone(), d)).collect();
    let drb: BTreeMap<_, _> = b.drives.iter().map(|d| (d.name.clone(), d)).collect();
    keyed(&dra, &drb, &mut |k, x, y| match (x, y) {
        (Some(x), None) => c.hw("drive removed", k, drive(x), "none".into()),
        (None, Some(y)) => c.hw("drive added", k, "none".into(), drive(y)),
        (Some(x), Some(y)) => {
            c.hw("drive replaced", k, drive(x), drive(y));
            if drive(x) == drive(y) {
                c.hw("drive firmware updated", k, s(&x.firmware), s(&y.firmware));
            }
        }
        (None, None) => {}
    });
}

/// OS, kernel and NVIDIA driver.
fn software(c: &mut Changes, a: &Spec, b: &Spec) {
    c.sw("OS changed", s(&a.os.pretty_name), s(&b.os.pretty_name));
    c.sw("kernel changed", s(&a.os.kernel), s(&b.os.kernel));
    let drv = |x: &Spec| x.gpus.iter().find_map(|g| g.driver_version.clone());
    c.sw("NVIDIA driver changed", s(&drv(a)), s(&drv(b)));
}

/// Called with a key and the item on each side (absent on one side = added/removed).
type Visit<'a, T> = dyn FnMut(&str, Option<&T>, Option<&T>) + 'a;

/// Calls `f` for every key in either map, in order, with both sides.
fn keyed<T>(a: &BTreeMap<String, T>, b: &BTreeMap<String, T>, f: &mut Visit<'_, T>) {
    let mut keys: Vec<&String> = a.keys().chain(b.keys()).collect();
    keys.sort();
    keys.dedup();
    for k in keys {
        f(k, a.get(k), b.get(k));
    }
}

/// True when any change is a hardware change (exit code 1).
pub fn has_hardware_changes(changes: &[Change]) -> bool {
    changes.iter().any(|c| c.class == "hardware")
}
