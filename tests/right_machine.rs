//! The right machine never fails, the wrong one never passes: orders checked against real
//! captures as the hardware reports itself (ECC on, an old driver, two boards of close names,
//! a firmware table cut short, a damaged Windows record) and against the wrong hardware (a
//! PCI id no table knows, a drive swapped under a shared serial, a GPU list that could not be
//! read). Each machine is a copy of a recorded one, changed as the case says.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{assert_note, edit_nvml, fixture, fixture_copy, reference_copy, run};
use serde_json::{json, Value};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn report(root: &Path) -> Value {
    let (code, out, err) = run(&["--sysroot", s(root), "-f", "json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

/// `verify` of `profile` (TOML text) on `root`; (exit code, JSON result).
fn verify(root: &Path, profile: &str, extra: &[&str]) -> (i32, Value) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("order.toml");
    fs::write(&p, profile).unwrap();
    let mut args = vec!["verify", "--sysroot", s(root), "-p", s(&p), "-f", "json"];
    args.extend_from_slice(extra);
    let (code, out, err) = run(&args);
    assert!(code != 2, "{err}");
    (code, serde_json::from_str(&out).unwrap())
}

/// The line `id` of a verify result.
fn line<'a>(v: &'a Value, id: &str) -> &'a Value {
    v["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == id)
        .unwrap_or_else(|| panic!("no line {id}: {v:#}"))
}

/// The sysfs directory of the PCI function at `addr` in a GPU capture.
fn pci_dir(root: &Path, addr: &str) -> PathBuf {
    fs::canonicalize(root.join("sys/bus/pci/devices").join(addr)).unwrap()
}

/// Makes GPU `i` (at `addr`) of a capture the board `device` (10de:xxxx) as the driver
/// names it: the PCI tree's device id and NVML's answers for name, cores and memory.
fn retag(root: &Path, i: usize, addr: &str, device: u16, name: &str, cores: u64, mib: u64) {
    fs::write(
        pci_dir(root, addr).join("device"),
        format!("0x{device:04x}\n"),
    )
    .unwrap();
    edit_nvml(root, |v| {
        let d = &mut v["devices"][i];
        d["name"] = json!({"ok": name});
        d["num_cores"] = json!({"ok": cores});
        d["memory_info"]["ok"]["total"] = json!(mib << 20);
        d["pci_device_ids"] = json!({"ok": {"device": (u64::from(device) << 16) | 0x10de}});
    });
}

// ---- ECC on: the board's memory is what was ordered ----------------------------------------

const T4_ORDER: &str = "[[gpus]]\nmodel = \"T4\"\ncount = 1\nvram = \"16 GB\"\n";

#[test]
fn a_tesla_t4_with_ecc_on_passes_its_16_gb_order() {
    // The real capture: ECC on (the data-center default), NVML's total 15,360 MiB.
    let t4 = fixture("x86_64-tesla-t4");
    let (code, v) = verify(&t4, T4_ORDER, &[]);
    assert_eq!(code, 0, "{v:#}");
    let vram = line(&v, "gpus[0].vram");
    assert_eq!(
        (&vram["status"], &vram["found"]),
        (&json!("pass"), &json!("16 GiB"))
    );
    assert!(
        vram["note"]
            .as_str()
            .unwrap()
            .contains("15 GiB usable with ECC on"),
        "{vram}"
    );
    let g = &report(&t4)["gpus"][0];
    assert_eq!(g["vram_bytes"], 16u64 << 30);
    assert_eq!(g["vram_usable_bytes"], 15360u64 << 20);
    // Preflight's free memory is of what can be used.
    let (_, out, _) = run(&["preflight", "--sysroot", s(&t4), "-f", "json"]);
    let pre: Value = serde_json::from_str(&out).unwrap();
    let free = pre["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "gpu.free_vram")
        .unwrap();
    assert_eq!(free["found"], "14 GiB free of 15 GiB", "{free}");
}

#[test]
fn a_tesla_t4_is_the_same_board_with_and_without_its_driver() {
    let t4 = fixture("x86_64-tesla-t4");
    let (_d, bare) = fixture_copy("x86_64-tesla-t4");
    fs::remove_file(bare.join("nvml.json")).unwrap();
    assert_eq!(report(&bare)["gpus"][0]["vram_bytes"], 16u64 << 30);
    let (code, out, err) = run(&["diff", s(&t4), s(&bare), "-f", "json"]);
    let d: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    assert_eq!(d["changes"], json!([]), "{d:#}");
    assert_ne!(code, 1, "{d:#}");
    // `profile new` on the machine with its driver writes the board's 16 GiB, which the same
    // machine passes without its driver.
    let (code, profile, err) = run(&["profile", "new", "--sysroot", s(&t4)]);
    assert_eq!(code, 0, "{err}");
    assert!(profile.contains("vram = \"16 GiB\""), "{profile}");
    let (code, v) = verify(&bare, &profile, &[]);
    assert_eq!(line(&v, "gpus[0].vram")["status"], "pass", "{v:#}");
    assert_ne!(code, 1, "{v:#}");
    // A report written before the board's memory was told apart, with NVML's 15 GiB as the
    // GPU's memory, is the same board.
    let dir = tempfile::tempdir().unwrap();
    let mut old = report(&t4);
    old["gpus"][0]["vram_bytes"] = json!(15360u64 << 20);
    old["gpus"][0]["fact_sources"]["vram_bytes"] = json!("nvml");
    old["gpus"][0]
        .as_object_mut()
        .unwrap()
        .remove("vram_usable_bytes");
    let (a, b) = (dir.path().join("old.json"), dir.path().join("new.json"));
    fs::write(&a, old.to_string()).unwrap();
    fs::write(&b, report(&t4).to_string()).unwrap();
    let (code, out, _) = run(&["diff", s(&a), s(&b), "-f", "json"]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn an_l40s_and_an_a10g_with_ecc_on_are_their_48_and_24_gb_boards() {
    // The totals NVML gives these boards with ECC on: 46,068 and 23,028 MiB.
    for (device, name, cores, mib, order) in [
        (0x26b9u16, "NVIDIA L40S", 18176u64, 46068u64, "48 GB"),
        (0x2237, "NVIDIA A10G", 9216, 23028, "24 GB"),
    ] {
        let (_d, root) = fixture_copy("x86_64-tesla-t4");
        retag(&root, 0, "0000:00:1e.0", device, name, cores, mib);
        edit_nvml(&root, |v| {
            let d = &mut v["devices"][0];
            d["cuda_compute_capability"] = json!({"ok": {"major": 8, "minor": 6}});
            d["architecture"] = json!({"ok": "Ampere"});
            if device == 0x26b9 {
                d["cuda_compute_capability"] = json!({"ok": {"major": 8, "minor": 9}});
                d["architecture"] = json!({"ok": "Ada Lovelace"});
            }
            d["memory_bus_width"] = json!({"ok": 384});
        });
        let profile = format!("[[gpus]]\nmodel = \"{name}\"\ncount = 1\nvram = \"{order}\"\n");
        let (code, v) = verify(&root, &profile, &[]);
        assert_eq!(code, 0, "{name}: {v:#}");
        let g = &report(&root)["gpus"][0];
        assert_eq!(g["vram_usable_bytes"], mib << 20, "{name}");
    }
}

// ---- A driver older than the board --------------------------------------------------------

#[test]
fn a_gtx_1660_its_driver_calls_graphics_device_is_a_gtx_1660() {
    // The dual RTX 2080 capture, its first board made a GTX 1660 (10de:2184) whose driver
    // predates it: NVML names it "Graphics Device".
    let (_d, root) = fixture_copy("x86_64-dual-rtx2080");
    retag(
        &root,
        0,
        "0000:01:00.0",
        0x2184,
        "Graphics Device",
        1408,
        6144,
    );
    edit_nvml(&root, |v| {
        v["devices"][0]["memory_bus_width"] = json!({"ok": 192})
    });
    let rep = report(&root);
    let g = &rep["gpus"][0];
    assert_eq!(g["name"], "NVIDIA GeForce GTX 1660");
    assert_eq!(g["driver_name"], "Graphics Device");
    assert_eq!(g["fact_sources"]["name"], "datasheet");
    assert_note(
        &rep,
        "gpus[0].name",
        "the driver names it 'Graphics Device'",
    );
    let order =
        "[[gpus]]\nmodel = \"GTX 1660\"\ncount = 1\n\n[[gpus]]\nmodel = \"RTX 2080\"\ncount = 1\n";
    let (code, v) = verify(&root, order, &[]);
    assert_eq!(code, 0, "{v:#}");
    // Where no table names the board, the placeholder is no name at all: unknown, not
    // "no GTX 1660 on this machine".
    fs::write(pci_dir(&root, "0000:01:00.0").join("device"), "0x21ff\n").unwrap();
    edit_nvml(&root, |v| {
        v["devices"][0]["pci_device_ids"] = json!({"ok": {"device": (0x21ffu64 << 16) | 0x10de}})
    });
    let (code, v) = verify(&root, order, &[]);
    assert_eq!(code, 3, "{v:#}");
    assert_eq!(line(&v, "gpus[0].count")["status"], "unknown");
}

// ---- Two boards of close names -------------------------------------------------------------

/// The dual RTX 2080 capture as a machine of one L40 and one L40S.
fn l40_and_l40s() -> (tempfile::TempDir, PathBuf) {
    let (d, root) = fixture_copy("x86_64-dual-rtx2080");
    retag(&root, 0, "0000:01:00.0", 0x26b5, "NVIDIA L40", 18176, 46068);
    retag(
        &root,
        1,
        "0000:02:00.0",
        0x26b9,
        "NVIDIA L40S",
        18176,
        46068,
    );
    edit_nvml(&root, |v| {
        for d in v["devices"].as_array_mut().unwrap() {
            d["cuda_compute_capability"] = json!({"ok": {"major": 8, "minor": 9}});
            d["architecture"] = json!({"ok": "Ada Lovelace"});
            d["memory_bus_width"] = json!({"ok": 384});
            d["ecc_mode"] = json!({"ok": {"current": true, "pending": true}});
        }
    });
    (d, root)
}

#[test]
fn one_l40_and_one_l40s_pass_their_order_and_their_own_profile() {
    let (_d, root) = l40_and_l40s();
    let order = "[[gpus]]\nmodel = \"L40\"\ncount = 1\nvram = \"48 GB\"\n\n\
                 [[gpus]]\nmodel = \"L40S\"\ncount = 1\nvram = \"48 GB\"\n";
    let (code, v) = verify(&root, order, &[]);
    assert_eq!(code, 0, "{v:#}");
    let (code, profile, err) = run(&["profile", "new", "--sysroot", s(&root)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        profile.contains("model = { exact = \"NVIDIA L40\" }"),
        "{profile}"
    );
    let (code, v) = verify(&root, &profile, &[]);
    assert_eq!(code, 0, "{v:#}");
}

#[test]
fn the_profile_of_an_h200_fails_a_machine_of_h200_nvl_boards() {
    let make = |device: u16, name: &str| {
        let (d, root) = fixture_copy("x86_64-h100-80gb-hbm3");
        retag(&root, 0, "0000:00:09.0", device, name, 16896, 143771);
        (d, root)
    };
    let (_a, h200) = make(0x2335, "NVIDIA H200");
    let (_b, nvl) = make(0x233b, "NVIDIA H200 NVL");
    let (code, profile, err) = run(&["profile", "new", "--sysroot", s(&h200)]);
    assert_eq!(code, 0, "{err}");
    assert!(
        profile.contains("model = { exact = \"NVIDIA H200\" }"),
        "{profile}"
    );
    assert_eq!(verify(&h200, &profile, &[]).0, 0);
    let (code, v) = verify(&nvl, &profile, &[]);
    assert_eq!(code, 1, "{v:#}");
    assert_eq!(line(&v, "gpus[0].count")["status"], "fail");
    let (code, out, _) = run(&["diff", s(&h200), s(&nvl), "-f", "json"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("GPU replaced"), "{out}");
}

// ---- A firmware table cut short -------------------------------------------------------------

/// The reference machine with its SMBIOS table cut inside its 13th memory-device record:
/// 12 slots are read, the other 12 (and what fills them) are not.
fn smbios_cut_short() -> tempfile::TempDir {
    let dir = reference_copy();
    let p = dir.path().join("sys/firmware/dmi/tables/DMI");
    let t = fs::read(&p).unwrap();
    let table = rigcheck::probe::smbios::Table::parse(&t, None);
    let cut = table.of_type(17).nth(12).unwrap().offset + 10;
    fs::write(&p, &t[..cut]).unwrap();
    dir
}

#[test]
fn headroom_over_a_table_cut_short_is_unknown_and_not_unbalanced() {
    let intact = report(Path::new(common::REFERENCE));
    assert_eq!(intact["headroom"]["memory"]["usable_free_slots"], 12);
    let dir = smbios_cut_short();
    let rep = report(dir.path());
    assert_eq!(rep["lists"]["dimms"], "partial");
    let m = &rep["headroom"]["memory"];
    for f in [
        "slot_count",
        "used_slots",
        "free_slots",
        "usable_free_slots",
        "balanced",
    ] {
        assert_eq!(m[f], Value::Null, "{f}: {m:#}");
    }
    assert_note(
        &rep,
        "headroom.memory.usable_free_slots",
        "damaged part way",
    );
    assert_eq!(rep["memory"]["slot_count"], Value::Null);
    let (code, v) = verify(dir.path(), "[headroom]\nfree_dimm_slots = 12\n", &[]);
    assert_eq!(code, 3, "{v:#}");
    let l = line(&v, "headroom.free_dimm_slots");
    assert_eq!(l["status"], "unknown");
    assert!(
        l["note"].as_str().unwrap().contains("damaged part way"),
        "{l}"
    );
    let (_, table, _) = run(&["--sysroot", s(dir.path()), "--color", "never"]);
    assert!(!table.contains("unbalanced"), "{table}");
}

// ---- One damaged Windows field --------------------------------------------------------------

#[test]
fn a_bad_processor_mask_makes_the_thread_count_unknown_not_one_group() {
    let (_d, root) = fixture_copy("windows-hp-z8-g4");
    let p = root.join("native.json");
    let mut v: Value = serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
    v["processors"]["groups"][1]["active_mask"] = json!("0xZZ");
    fs::write(&p, serde_json::to_string(&v).unwrap()).unwrap();
    let rep = report(&root);
    assert_eq!(rep["cpu"]["threads"], Value::Null, "{:#}", rep["cpu"]);
    assert_note(&rep, "cpu.threads", "the SMBIOS processor records give 72");
    let (code, v) = verify(&root, "[cpu]\nsockets = 2\nthreads = 72\n", &[]);
    assert_eq!(code, 3, "{v:#}");
    assert_eq!(line(&v, "cpu.threads")["status"], "unknown");
    assert_eq!(line(&v, "cpu.sockets")["status"], "pass");
}

// ---- A PCI id no table has -------------------------------------------------------------------

#[test]
fn nvmls_name_on_a_pci_id_no_table_knows_confirms_no_order() {
    let dir = reference_copy();
    let root = dir.path();
    fs::write(pci_dir(root, "0000:17:00.0").join("device"), "0xffff\n").unwrap();
    let rep = report(root);
    let g = &rep["gpus"][0];
    assert_eq!(g["name"], "Quadro RTX 6000");
    assert_eq!(g["identity"]["certainty"], "nvml_only");
    assert_note(&rep, "gpus[0].name", "unconfirmed");
    assert_note(
        &rep,
        "gpus[0].name",
        "which knows the Quadro RTX 6000 as 10de:1e30",
    );
    let order = "[[gpus]]\nmodel = \"Quadro RTX 6000\"\ncount = 2\n";
    let (code, v) = verify(root, order, &[]);
    assert_eq!(code, 3, "{v:#}");
    let count = line(&v, "gpus[0].count");
    assert_eq!(count["status"], "unknown");
    assert!(
        count["note"]
            .as_str()
            .unwrap()
            .contains("the driver's word alone"),
        "{count}"
    );
    // Its name can still rule a model out: an order for A100s fails.
    let (code, _) = verify(root, "[[gpus]]\nmodel = \"A100\"\ncount = 2\n", &[]);
    assert_eq!(code, 1);
}

// ---- A drive swapped under a shared serial -------------------------------------------------

#[test]
fn a_drive_swapped_under_a_serial_its_neighbour_shares_is_a_change() {
    let dir = tempfile::tempdir().unwrap();
    let (_, text, _) = run(&["--sysroot", common::REFERENCE, "-f", "json"]);
    let mut before: Value = serde_json::from_str(&text).unwrap();
    // Some drives (and USB bridges) all report one serial.
    for d in before["drives"].as_array_mut().unwrap() {
        d["serial"] = json!("0000_0000_0000_0000");
    }
    let mut after = before.clone();
    after["drives"][0]["size_bytes"] = json!(2_048_408_248_320u64);
    after["drives"][0]["model"] = json!("SAMSUNG MZVL22T0HBLB-00B00");
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    fs::write(&a, before.to_string()).unwrap();
    fs::write(&b, after.to_string()).unwrap();
    let (code, out, _) = run(&["diff", s(&a), s(&b), "-f", "json"]);
    assert_eq!(code, 1, "{out}");
    let d: Value = serde_json::from_str(&out).unwrap();
    let changes = d["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 1, "{out}");
    assert_eq!(changes[0]["what"], "drive replaced");
    assert_eq!(changes[0]["at"], "nvme0n1");
    // fleet compares configurations, which hold no serials: it sees it too.
    let fleet = dir.path().join("fleet");
    fs::create_dir(&fleet).unwrap();
    for (h, r) in [("x1", &before), ("x2", &before), ("x3", &after)] {
        let mut r = (*r).clone();
        r["hostname"] = json!(h);
        fs::write(fleet.join(format!("{h}.json")), r.to_string()).unwrap();
    }
    let (_, out, _) = run(&["fleet", s(&fleet), "-f", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["odd_ones_out"][0]["host"], "x3", "{v:#}");
}

// ---- A GPU list that could not be read -----------------------------------------------------

#[test]
fn an_unreadable_gpu_list_leaves_gpu_groups_unknown_not_failed() {
    // This development VM's capture: no NVIDIA GPU, no nvml.json; its PCI tree taken away
    // (a container without /sys/bus/pci), so no list of GPUs could be read at all.
    let (_d, root) = fixture_copy("x86_64-vm-kvm");
    fs::remove_dir_all(root.join("sys/bus/pci")).unwrap();
    assert_eq!(report(&root)["lists"]["gpus"], "unreadable");
    let order = "[cpu]\nthreads = 2\n\n[[gpus]]\nmodel = \"A100\"\ncount = 4\nvram = \"80 GB\"\n";
    let (code, v) = verify(&root, order, &[]);
    assert_eq!(code, 3, "{v:#}");
    assert_eq!(v["summary"]["fail"], 0, "{v:#}");
    assert_eq!(line(&v, "gpus[0].count")["status"], "unknown");
    assert_eq!(line(&v, "gpus[0].vram")["status"], "unknown");
    let (code, v) = verify(&root, order, &["--allow-unknown"]);
    assert_eq!(code, 0, "{v:#}");
    // Preflight does not say there is no GPU on a bus it could not read.
    let (code, out, _) = run(&["preflight", "--sysroot", s(&root), "-f", "json"]);
    assert_ne!(code, 1, "{out}");
    assert!(!out.contains("no NVIDIA GPU on the PCI bus"), "{out}");
}
