//! Unknown is never said as a fact: a list that could not be read (or was read in part) is
//! no count in Prometheus, NFD, the glance or the fleet, an unreadable NUMA directory is no
//! empty list, and a value no machine has (NVML's all-ones sentinel as a core count, a memory
//! clock that makes 7.5 EB/s, a PCIe x255 link, an 18 EB drive, a 16,384 PiB memory array) is
//! null with a note. Each machine is a copy of a recorded one, broken as the case says.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::Path;

use common::{assert_note, edit_nvml, fixture_copy, reference_copy, run};
use serde_json::{json, Value};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn output(root: &Path, args: &[&str]) -> String {
    let mut all = vec!["--sysroot", s(root)];
    all.extend_from_slice(args);
    let (code, out, err) = run(&all);
    assert_eq!(code, 0, "{err}");
    out
}

fn report(root: &Path) -> Value {
    serde_json::from_str(&output(root, &["-f", "json"])).unwrap()
}

/// This development VM as a container sees it: no /sys/bus/pci, no /sys/block, no NUMA
/// directory, and no NVIDIA driver to ask.
fn blind_vm() -> (tempfile::TempDir, std::path::PathBuf) {
    let (d, root) = fixture_copy("x86_64-vm-kvm");
    for dir in ["sys/bus/pci", "sys/block", "sys/devices/system/node"] {
        fs::remove_dir_all(root.join(dir)).unwrap();
    }
    (d, root)
}

#[test]
fn unreadable_lists_are_no_counts_in_any_output() {
    let (_d, root) = blind_vm();
    let rep = report(&root);
    assert_eq!(rep["lists"]["gpus"], "unreadable");
    assert_eq!(rep["lists"]["drives"], "unreadable");
    // No NUMA directory: unknown, not an empty list.
    assert_eq!(rep["cpu"]["numa_nodes"], Value::Null);
    assert_note(&rep, "cpu.numa_nodes", "unknown");

    let prom = output(&root, &["-f", "prometheus"]);
    for family in ["rigcheck_gpus", "rigcheck_drives"] {
        assert!(
            !prom.lines().any(|l| l.starts_with(&format!("{family} "))),
            "{family} has a sample:\n{prom}"
        );
    }
    assert!(
        prom.contains("rigcheck_list_state{list=\"gpus\",state=\"unreadable\"} 1"),
        "{prom}"
    );
    assert!(
        prom.contains("rigcheck_list_state{list=\"drives\",state=\"read\"} 0"),
        "{prom}"
    );

    let nfd = output(&root, &["-f", "nfd"]);
    assert!(!nfd.contains("gpu.count"), "{nfd}");
    assert!(!nfd.contains("/drives."), "{nfd}");

    let table = output(&root, &["--color", "never"]);
    let glance = |key: &str| {
        table
            .lines()
            .find(|l| l.trim_start().starts_with(key))
            .unwrap_or_else(|| panic!("no {key} in {table}"))
            .to_string()
    };
    assert!(glance("GPUs").contains("unknown"), "{table}");
    assert!(glance("Storage").contains("unknown"), "{table}");
    assert!(!glance("GPUs").ends_with("none"), "{table}");

    // The fleet: the host's GPUs are unknown, not none, in the table and the JSON.
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("blind.json"), rep.to_string()).unwrap();
    let (_, out, _) = run(&["fleet", s(dir.path()), "--color", "never"]);
    let row = out
        .lines()
        .find(|l| l.trim_start().starts_with("vm "))
        .unwrap_or_else(|| panic!("no row for the host: {out}"));
    assert!(row.contains(" unknown "), "{out}");
    assert!(!row.contains(" none "), "{out}");
    let (_, out, _) = run(&["fleet", s(dir.path()), "-f", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["hosts"][0]["lists"]["gpus"], "unreadable", "{v:#}");
}

#[test]
fn a_dimm_list_cut_short_is_no_dimm_count() {
    let dir = reference_copy();
    let p = dir.path().join("sys/firmware/dmi/tables/DMI");
    let t = fs::read(&p).unwrap();
    let table = rigcheck::probe::smbios::Table::parse(&t, None);
    let cut = table.of_type(17).nth(12).unwrap().offset + 10;
    fs::write(&p, &t[..cut]).unwrap();
    let prom = output(dir.path(), &["-f", "prometheus"]);
    assert!(
        !prom
            .lines()
            .any(|l| l.starts_with("rigcheck_memory_dimms ")),
        "{prom}"
    );
    assert!(
        !prom
            .lines()
            .any(|l| l.starts_with("rigcheck_memory_dimm_slots ")),
        "{prom}"
    );
    assert!(
        prom.contains("rigcheck_list_state{list=\"dimms\",state=\"partial\"} 1"),
        "{prom}"
    );
    let nfd = output(dir.path(), &["-f", "nfd"]);
    assert!(!nfd.contains("memory.dimms="), "{nfd}");
}

#[test]
fn preflight_on_an_unreadable_pci_bus_does_not_say_there_is_no_gpu() {
    let (_d, root) = blind_vm();
    let (code, out, _) = run(&["--sysroot", s(&root), "preflight", "-f", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let c = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "gpu.count")
        .unwrap();
    assert_eq!(c["status"], "unknown", "{c}");
    assert!(!out.contains("no NVIDIA GPU on the PCI bus"), "{out}");
    assert_eq!(code, 3, "{out}");
}

// ---- Values no machine has --------------------------------------------------------------

#[test]
fn implausible_gpu_figures_are_no_facts() {
    let dir = reference_copy();
    let root = dir.path();
    edit_nvml(root, |v| {
        let d = &mut v["devices"];
        // NVML's "unsupported" as a core count; a memory clock that makes 7.5 EB/s; a x255
        // link on both NVML and sysfs.
        d[0]["num_cores"] = json!({"ok": 4_294_967_295u64});
        d[1]["max_clock_memory"] = json!({"ok": 4_294_967_294u64});
        d[1]["current_pcie_link_width"] = json!({"ok": 255});
    });
    let gpu1 = fs::canonicalize(root.join("sys/bus/pci/devices/0000:af:00.0")).unwrap();
    fs::write(gpu1.join("current_link_width"), "255\n").unwrap();
    let rep = report(root);
    let (g0, g1) = (&rep["gpus"][0], &rep["gpus"][1]);
    // The core count is the datasheet's, marked so, never four billion.
    assert_eq!(g0["cuda_cores"], 4608);
    assert_eq!(g0["fact_sources"]["cuda_cores"], "datasheet");
    assert_note(&rep, "gpus[0].cuda_cores", "\"unsupported\" sentinel");
    assert_eq!(g1["max_memory_clock_mhz"], Value::Null);
    assert_note(
        &rep,
        "gpus[1].max_memory_clock_mhz",
        "is no GPU memory clock of a real machine",
    );
    assert_eq!(g1["memory_bandwidth_bytes_per_s"], 672_000_000_000u64);
    assert_eq!(
        g1["fact_sources"]["memory_bandwidth_bytes_per_s"],
        "datasheet"
    );
    assert_eq!(g1["pcie"]["width"], Value::Null);
    assert_note(&rep, "gpus[1].pcie.width", "x255 is no PCIe link width");
    assert_note(&rep, "gpus[1].pcie", "current_link_width says 255");
    let (_, out, _) = run(&[
        "--sysroot",
        s(root),
        "verify",
        "-p",
        "hp-z8-g4-dual-rtx6000",
        "-f",
        "json",
    ]);
    assert!(!out.contains("4294967295"), "{out}");
}

#[test]
fn an_18_eb_drive_and_a_16384_pib_memory_array_are_no_sizes() {
    let dir = reference_copy();
    let root = dir.path();
    // 35,156,250,000,000,000 sectors of 512 bytes: 18 EB, within 64 bits.
    fs::write(root.join("sys/block/nvme0n1/size"), "35156250000000000\n").unwrap();
    let p = root.join("sys/firmware/dmi/tables/DMI");
    let mut t = fs::read(&p).unwrap();
    let off = rigcheck::probe::smbios::Table::parse(&t, None)
        .of_type(16)
        .next()
        .unwrap()
        .offset;
    // The extended maximum capacity (DSP0134 7.17: 0x80000000 says "see the QWORD").
    t[off + 0x07..off + 0x0B].copy_from_slice(&0x8000_0000u32.to_le_bytes());
    t[off + 0x0F..off + 0x17].copy_from_slice(&u64::MAX.to_le_bytes());
    fs::write(&p, &t).unwrap();
    let rep = report(root);
    assert_eq!(rep["drives"][0]["size_bytes"], Value::Null);
    assert_note(
        &rep,
        "drives[0].size_bytes",
        "is no drive size of a real machine",
    );
    assert_eq!(rep["headroom"]["memory"]["max_capacity_bytes"], Value::Null);
    assert_note(
        &rep,
        "headroom.memory.max_capacity_bytes",
        "18446744073709551615 bytes is no memory array capacity",
    );
}
