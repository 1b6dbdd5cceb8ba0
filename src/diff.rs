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
    let mut out = Vec::new();
    let mut hw = |what: &str, at: &str, before: String, after: String| {
        if before != after {
            out.push(Change {
                class: "hardware",
                what: what.into(),
                at: at.into(),
                before,
                after,
            });
        }
    };
    let s = |v: &Option<String>| v.clone().unwrap_or_else(|| "unknown".into());
    let n = |v: Option<u32>| v.map_or_else(|| "unknown".into(), |v| v.to_string());
    hw(
        "system vendor changed",
        "system",
        s(&a.system.vendor),
        s(&b.system.vendor),
    );
    hw(
        "system model changed",
        "system",
        s(&a.system.product),
        s(&b.system.product),
    );
    hw(
        "system serial changed",
        "system",
        s(&a.system.serial),
        s(&b.system.serial),
    );
    hw(
        "board changed",
        "system",
        s(&a.system.board_name),
        s(&b.system.board_name),
    );
    hw(
        "board serial changed",
        "system",
        s(&a.system.board_serial),
        s(&b.system.board_serial),
    );
    hw(
        "BIOS updated",
        "system",
        s(&a.system.bios_version),
        s(&b.system.bios_version),
    );
    hw(
        "BIOS date changed",
        "system",
        s(&a.system.bios_date),
        s(&b.system.bios_date),
    );
    hw("CPU model changed", "cpu", s(&a.cpu.model), s(&b.cpu.model));
    hw(
        "CPU sockets changed",
        "cpu",
        n(a.cpu.sockets),
        n(b.cpu.sockets),
    );
    hw("CPU cores changed", "cpu", n(a.cpu.cores), n(b.cpu.cores));
    hw(
        "CPU threads changed",
        "cpu",
        n(a.cpu.threads),
        n(b.cpu.threads),
    );
    hw(
        "CPU max clock changed",
        "cpu",
        n(a.cpu.max_mhz),
        n(b.cpu.max_mhz),
    );

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
        (Some(x), None) => hw("DIMM removed", k, dimm(x), "empty".into()),
        (None, Some(y)) => hw("DIMM added", k, "empty".into(), dimm(y)),
        (Some(x), Some(y)) => {
            hw("DIMM replaced", k, dimm(x), dimm(y));
            if dimm(x) == dimm(y) {
                hw("DIMM swapped (serial)", k, s(&x.serial), s(&y.serial));
            }
        }
        (None, None) => {}
    });

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
        (Some(x), None) => hw("GPU removed", k, gpu(x), "none".into()),
        (None, Some(y)) => hw("GPU added", k, "none".into(), gpu(y)),
        (Some(x), Some(y)) => {
            hw("GPU replaced", k, gpu(x), gpu(y));
            if gpu(x) == gpu(y) {
                hw("GPU swapped (UUID)", k, s(&x.uuid), s(&y.uuid));
            }
            let link = |g: &crate::spec::Gpu| {
                format!("x{} (max x{})", n(g.pcie.width), n(g.pcie.max_width))
            };
            hw("GPU PCIe link width changed", k, link(x), link(y));
            hw(
                "GPU VBIOS changed",
                k,
                s(&x.vbios_version),
                s(&y.vbios_version),
            );
        }
        (None, None) => {}
    });

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
        (Some(x), None) => hw("drive removed", k, drive(x), "none".into()),
        (None, Some(y)) => hw("drive added", k, "none".into(), drive(y)),
        (Some(x), Some(y)) => {
            hw("drive replaced", k, drive(x), drive(y));
            if drive(x) == drive(y) {
                hw("drive firmware updated", k, s(&x.firmware), s(&y.firmware));
            }
        }
        (None, None) => {}
    });

    let mut sw = |what: &str, before: String, after: String| {
        if before != after {
            out.push(Change {
                class: "software",
                what: what.into(),
                at: "os".into(),
                before,
                after,
            });
        }
    };
    sw("OS changed", s(&a.os.pretty_name), s(&b.os.pretty_name));
    sw("kernel changed", s(&a.os.kernel), s(&b.os.kernel));
    let drv = |x: &Spec| x.gpus.iter().find_map(|g| g.driver_version.clone());
    sw("NVIDIA driver changed", s(&drv(a)), s(&drv(b)));
    out
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
