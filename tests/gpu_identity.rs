//! What the PCI id can and cannot decide, on copies of real captures with one id changed:
//! figures from NVIDIA's documents for boards whose third-party figures were wrong, memory
//! left unknown (with the candidates' sizes) where one device id is sold with two, NVIDIA's
//! own naming of laptop parts, and an ambiguous board's candidates wherever its name shows.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::path::Path;

use serde_json::Value;

/// The first GPU's directory in the reference machine and its copies.
const GPU0: &str = "sys/devices/pci0000:16/0000:16:00.0/0000:17:00.0";
const GPU1: &str = "sys/devices/pci0000:ae/0000:ae:00.0/0000:af:00.0";

/// A copy of `gpu-no-driver` (the reference machine's two GPUs, no NVIDIA driver) whose GPUs
/// carry PCI device `id` and, where given, subsystem `sub`.
fn no_driver(id: &str, sub: Option<(&str, &str)>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::copy_tree(&common::fixture("gpu-no-driver"), dir.path());
    for gpu in [GPU0, GPU1] {
        let at = dir.path().join(gpu);
        std::fs::write(at.join("device"), format!("{id}\n")).unwrap();
        if let Some((v, d)) = sub {
            std::fs::write(at.join("subsystem_vendor"), format!("{v}\n")).unwrap();
            std::fs::write(at.join("subsystem_device"), format!("{d}\n")).unwrap();
        }
    }
    dir
}

fn report(root: &Path) -> Value {
    let (code, out, err) = common::run(&["--sysroot", root.to_str().unwrap(), "-f", "json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn figures_nvidia_publishes_replace_the_copied_ones() {
    // GTX 1650 on TU116 and TU106: GDDR6 at 12 Gbps, 192 GB/s (not the GDDR5 board's).
    for id in ["0x2188", "0x1f0a"] {
        let dir = no_driver(id, None);
        let r = report(dir.path());
        let g = &r["gpus"][0];
        assert_eq!(g["datasheet"]["memory_type"], "GDDR6", "{id}: {g}");
        assert_eq!(
            g["memory_bandwidth_bytes_per_s"], 192_000_000_000u64,
            "{id}"
        );
    }
    // Tesla K40c 235 W; the single-slot V100 FHHL 150 W.
    for (id, watts) in [("0x1024", 235), ("0x1db3", 150)] {
        let dir = no_driver(id, None);
        let r = report(dir.path());
        assert_eq!(r["gpus"][0]["datasheet"]["board_power_w"], watts, "{id}");
    }
}

#[test]
fn memory_the_pci_id_does_not_decide_is_unknown_with_both_sizes() {
    // 0x2803: NVIDIA sells the RTX 4060 Ti with 8 or 16 GiB under this one id.
    let dir = no_driver("0x2803", Some(("0x1043", "0x8866")));
    let r = report(dir.path());
    let g = &r["gpus"][0];
    assert_eq!(g["name"], "NVIDIA GeForce RTX 4060 Ti", "{g}");
    assert_eq!(g["vram_bytes"], Value::Null, "{g}");
    let why = common::notes_on(&r, "gpus[0].vram_bytes").join("; ");
    assert!(why.contains("8 GiB or 16 GiB"), "{why}");
    // What the boards share is still known.
    assert_eq!(g["cuda_cores"], 4352);
    // A 16 GB order (and an 8 GB one) is unknown, never a failure of either size.
    let orders = tempfile::tempdir().unwrap();
    for gib in [16, 8] {
        let order = orders.path().join(format!("{gib}.toml"));
        std::fs::write(
            &order,
            format!("[[gpus]]\nmodel = \"RTX 4060 Ti\"\ncount = 2\nvram = \"{gib} GB\"\n"),
        )
        .unwrap();
        let (code, out, err) = common::run(&[
            "verify",
            "-p",
            order.to_str().unwrap(),
            "--sysroot",
            dir.path().to_str().unwrap(),
            "-f",
            "json",
        ]);
        assert_eq!(code, 3, "{gib} GB: {out}{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let vram = v["lines"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["id"].as_str().unwrap().ends_with(".vram"))
            .unwrap();
        assert_eq!(vram["status"], "unknown", "{vram}");
    }
}

/// A copy of `x86_64-quadro-p2000` (a real Pascal capture) whose GPU has PCI device `id` and
/// whose driver answers with `name` and `mib` of memory.
fn nvml_board(id: &str, name: &str, mib: u64) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::copy_tree(&common::fixture("x86_64-quadro-p2000"), dir.path());
    std::fs::write(
        dir.path()
            .join("sys/devices/pci0000:17/0000:17:00.0/device"),
        format!("{id}\n"),
    )
    .unwrap();
    let path = dir.path().join("nvml.json");
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    v["devices"][0]["name"] = serde_json::json!({ "ok": name });
    v["devices"][0]["memory_info"] = serde_json::json!({ "ok": { "total": mib << 20, "used": 0, "free": mib << 20, "reserved": 0 } });
    std::fs::write(&path, v.to_string()).unwrap();
    dir
}

#[test]
fn nvidias_name_for_a_laptop_part_agrees_with_its_pci_id() {
    // A GeForce GTX 1050 laptop GPU (10de:1c8d): the driver leaves out "Mobile".
    let dir = nvml_board("0x1c8d", "NVIDIA GeForce GTX 1050", 4096);
    let r = report(dir.path());
    let g = &r["gpus"][0];
    assert_eq!(g["identity"]["certainty"], "nvml_and_pci_agree", "{g}");
    assert_eq!(g["datasheet"]["name"], "GeForce GTX 1050 Mobile");
    // No contradiction anywhere; its rated figures stay, at the clock the laptop's maker set.
    let text = common::run(&["--sysroot", dir.path().to_str().unwrap()]).1;
    assert!(!text.contains("not the board its PCI id says"), "{text}");
    assert_eq!(g["fp32_tflops"], 3.52, "{g}");
    let why = common::notes_on(&r, "gpus[0].rated_clock_mhz").join("; ");
    assert!(why.contains("system maker set"), "{why}");
}

#[test]
fn the_drivers_memory_picks_among_boards_of_one_name() {
    // 16 GiB reported on 0x2803: the 16 GB board, with no memory warning.
    let dir = nvml_board("0x2803", "NVIDIA GeForce RTX 4060 Ti", 16380);
    let r = report(dir.path());
    let g = &r["gpus"][0];
    assert_eq!(g["datasheet"]["memory_bytes"], 16u64 << 30, "{g}");
    // (The capture's own board answers for the rest; no memory mismatch is raised.)
    let mismatches = g["datasheet_mismatches"].to_string();
    assert!(!mismatches.contains("GiB"), "{mismatches}");
    let dir = nvml_board("0x2803", "NVIDIA GeForce RTX 4060 Ti", 8188);
    let r = report(dir.path());
    assert_eq!(r["gpus"][0]["datasheet"]["memory_bytes"], 8u64 << 30);
}

#[test]
fn an_ambiguous_boards_candidates_show_wherever_its_name_does() {
    // 0x1fb8 with a subsystem no row lists: a Quadro T2000 or its Max-Q version.
    let dir = no_driver("0x1fb8", Some(("0x1028", "0x0001")));
    let root = dir.path().to_str().unwrap();
    let both = "Quadro T2000 or Quadro T2000 with Max-Q Design";
    let r = report(dir.path());
    assert_eq!(r["gpus"][0]["name"], Value::Null);
    for args in [
        vec!["--sysroot", root],
        vec!["--sysroot", root, "-f", "markdown"],
        vec!["--sysroot", root, "-f", "prometheus"],
    ] {
        let (_, out, err) = common::run(&args);
        assert!(out.contains(both), "{args:?}: {out}{err}");
        assert!(!out.contains("2 × unknown"), "{args:?}: {out}");
    }
    // A node label's value takes no spaces.
    let nfd = common::run(&["--sysroot", root, "-f", "nfd"]).1;
    assert!(
        nfd.contains("gpu.model=Quadro_T2000_or_Quadro_T2000_with_Max-Q_Design"),
        "{nfd}"
    );
    // A fleet of it names the candidates too.
    let fleet = common::run(&["fleet", root]).1;
    assert!(fleet.contains(both), "{fleet}");
    let sheet = dir.path().join("sheet.md");
    let (code, _, err) = common::run(&["sheet", "--sysroot", root, "-o", sheet.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read_to_string(&sheet).unwrap().contains(both));
}

#[test]
fn a_figure_no_nvidia_document_gives_says_it_is_third_party() {
    // The RTX A4000H (0x24b1): every figure of its row is the third-party database's.
    let dir = no_driver("0x24b1", None);
    let r = report(dir.path());
    let g = &r["gpus"][0];
    assert_eq!(g["name"], "NVIDIA RTX A4000H", "{g}");
    let third = g["datasheet"]["third_party"].as_array().unwrap();
    assert!(third.iter().any(|f| f == "boost_clock_mhz"), "{third:?}");
    for field in ["cuda_cores", "vram_bytes", "rated_clock_mhz", "fp32_tflops"] {
        let why = common::notes_on(&r, &format!("gpus[0].{field}")).join("; ");
        assert!(why.contains("third-party figure"), "{field}: {why}");
    }
    // A row NVIDIA's documents cover has no such note (the Quadro RTX 6000's figures).
    let r = report(&common::fixture("gpu-no-driver"));
    assert!(!r["notes"].to_string().contains("third-party figure"));
}
