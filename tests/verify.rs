//! verify and diff against the reference machine and mutated copies of it: the right lines
//! fail, and only those.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use common::{edit_nvml, reference_copy, remove_dimm, REFERENCE};
use serde_json::Value;

const PROFILE: &str = "hp-z8-g4-dual-rtx6000";

fn rigcheck() -> Command {
    let mut c = Command::cargo_bin("rigcheck").unwrap();
    c.env("TERM", "dumb");
    c
}

/// Runs verify with JSON output; returns (exit code, report).
fn verify(sysroot: &Path, extra: &[&str]) -> (i32, Value) {
    let out = rigcheck()
        .args([
            "verify",
            "--profile",
            PROFILE,
            "--format",
            "json",
            "--sysroot",
        ])
        .arg(sysroot)
        .args(extra)
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: {}",
            sysroot.display(),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (code, v)
}

/// The line `id` of a verify report.
fn line_of(report: &Value, id: &str) -> Value {
    report["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == id)
        .unwrap()
        .clone()
}

fn failing(report: &Value) -> Vec<String> {
    report["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["status"] == "fail")
        .map(|l| l["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn reference_machine_passes_its_order() {
    let (code, r) = verify(Path::new(REFERENCE), &[]);
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(r["summary"]["pass"], 23);
    assert_eq!(r["summary"]["fail"], 0);
    assert_eq!(r["summary"]["unknown"], 0);
    let line = |id: &str| line_of(&r, id);
    assert_eq!(line("cpu.cores")["found"], "36");
    assert_eq!(line("memory.total")["found"], "96 GiB");
    assert_eq!(line("gpus[0].cuda_cores")["found"], "4608 × 2");
    assert_eq!(line("gpus[0].pcie_width")["found"], "x16 × 2");
    assert_eq!(line("drives[0].capacity")["found"], "1 TB × 2");
}

#[test]
fn its_windows_capture_gives_the_same_verdict_line_for_line() {
    // The same workstation captured on Windows: the OS's answers, the RSMB SMBIOS data,
    // CPUID leaves and NVML answers instead of /proc and /sys.
    let windows = Path::new("fixtures/windows-hp-z8-g4");
    let lines = |r: &Value| -> Vec<(Value, Value, Value)> {
        r["lines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| (l["id"].clone(), l["found"].clone(), l["status"].clone()))
            .collect()
    };
    let (code, win) = verify(windows, &[]);
    let (_, linux) = verify(Path::new(REFERENCE), &[]);
    // Every line but health: Windows gives programs no memory controller or PCIe error
    // counts, so "delivered new" is unknown there, with why (INCOMPLETE, exit 3).
    let but_health = |r: &Value| -> Vec<(Value, Value, Value)> {
        lines(r)
            .into_iter()
            .filter(|l| l.0 != "health.new")
            .collect()
    };
    assert_eq!(code, 3, "{win:#}");
    assert_eq!(but_health(&win), but_health(&linux));
    assert_eq!(win["summary"]["pass"], 22);
    assert_eq!(win["summary"]["unknown"], 1);
    let health = line_of(&win, "health.new");
    assert_eq!(health["status"], "unknown");
    let found = health["found"].as_str().unwrap();
    assert!(
        found.contains("PhysicalDrive0, PhysicalDrive1: 12 h, 1 % used, no errors"),
        "{found}"
    );
    let note = health["note"].as_str().unwrap();
    assert!(note.contains("no memory controller error counts"), "{note}");
    assert!(note.contains("no PCIe AER error counts"), "{note}");
    // Ordered with the 48 GB Quadro RTX 8000 instead: one line fails, naming both boards.
    let out = rigcheck()
        .args([
            "verify",
            "-p",
            "hp-z8-g4-dual-rtx8000",
            "--format",
            "json",
            "--sysroot",
        ])
        .arg(windows)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let fails = failing(&r);
    assert_eq!(fails, ["gpus[0].count"]);
    let line = r["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == "gpus[0].count")
        .unwrap();
    assert_eq!(line["expected"], "2 × Quadro RTX 8000 48 GiB");
    assert_eq!(line["found"], "2 × Quadro RTX 6000 24 GiB");
    assert_eq!(r["summary"]["fail"], 1);
}

#[test]
fn every_other_fixture_fails_and_names_the_lines() {
    let mut checked = 0;
    for e in fs::read_dir("fixtures").unwrap() {
        let path = e.unwrap().path();
        if path.ends_with("hp-z8-g4-dual-rtx6000")
            || !(path.join("sys").exists() || path.join("proc").exists())
        {
            continue;
        }
        let (code, r) = verify(&path, &[]);
        // A capture without /sys/block has an unknown drive list: where nothing else fails,
        // the drive lines leave it incomplete rather than failed.
        if code == 3 {
            assert!(!path.join("sys/block").exists(), "{}", path.display());
            assert_eq!(r["outcome"], "incomplete");
            continue;
        }
        assert_eq!(
            code,
            1,
            "{} should not pass the reference order",
            path.display()
        );
        let fails = failing(&r);
        assert!(!fails.is_empty(), "{}", path.display());
        // Every failing line is one of the profile's, and the ones without the ordered pair of
        // Quadro RTX 6000s say so.
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let has_pair = [
            "gpu-busy",
            "gpu-degraded-x8",
            "gpu-hot-throttling",
            "gpu-no-driver",
        ]
        .contains(&name.as_str());
        // A GPU seen without a name (no driver) leaves the count unknown, not failed.
        let unnamed = r["lines"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["id"] == "gpus[0].count" && l["status"] == "unknown");
        assert_eq!(
            !has_pair && !unnamed,
            fails.contains(&"gpus[0].count".to_string()),
            "{}: {fails:?}",
            path.display()
        );
        checked += 1;
    }
    assert!(checked >= 20, "{checked}");
}

#[test]
fn dual_bronze_z8_fails_cpu_memory_gpu_and_drive_lines_only() {
    let (code, r) = verify(Path::new("fixtures/x86_64-hp-z8-g4-dual-bronze3104"), &[]);
    assert_eq!(code, 1);
    let fails = failing(&r);
    // Same chassis: the system lines pass. Xeon Bronze 3104: 2 × 6 cores, no SMT, 1.7 GHz,
    // no turbo, no VNNI; 8 × 16 GiB = 128 GiB; no GPUs or NVMe in the capture.
    for id in [
        "cpu.model",
        "cpu.cores",
        "cpu.threads",
        "cpu.base_clock",
        "cpu.max_clock",
        "cpu.isa",
        "memory.total",
        "memory.dimm_count",
        "memory.dimm_size",
    ] {
        assert!(
            fails.contains(&id.to_string()),
            "{id} should fail: {fails:?}"
        );
    }
    for id in [
        "system.vendor",
        "system.product",
        "cpu.sockets",
        "memory.dimm_type",
        "memory.dimm_speed",
    ] {
        assert!(
            !fails.contains(&id.to_string()),
            "{id} should pass: {fails:?}"
        );
    }
}

#[test]
fn one_gpu_removed_fails_only_the_gpu_count() {
    let dir = reference_copy();
    fs::remove_file(dir.path().join("sys/bus/pci/devices/0000:af:00.0")).unwrap();
    edit_nvml(dir.path(), |v| {
        v["devices"]
            .as_array_mut()
            .unwrap()
            .retain(|d| d["pci_bus_id"]["ok"] != "00000000:AF:00.0");
        v["system"]["device_count"] = serde_json::json!({"ok": 1});
    });
    let (code, r) = verify(dir.path(), &[]);
    assert_eq!(code, 1, "{r:#}");
    assert_eq!(failing(&r), vec!["gpus[0].count"]);
    let count = r["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == "gpus[0].count")
        .unwrap();
    assert_eq!(count["found"], "1");
}

#[test]
fn one_dimm_removed_fails_memory_total_and_count() {
    let dir = reference_copy();
    let locator = remove_dimm(dir.path(), None);
    assert_eq!(locator, "CPU0-DIMM1");
    // The OS sees 8 GiB less too (DIMMs adding up to less than it sees are not all of them).
    common::set_mem_total(dir.path(), 98_884_452 - 8 * 1024 * 1024);
    let (code, r) = verify(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(failing(&r), vec!["memory.total", "memory.dimm_count"]);

    // diff names the slot.
    let out = rigcheck()
        .args(["diff", REFERENCE])
        .arg(dir.path())
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let d: Value = serde_json::from_slice(&out.stdout).unwrap();
    let what: Vec<&str> = d["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["what"].as_str().unwrap())
        .collect();
    assert_eq!(
        what,
        [
            "memory installed changed",
            "memory usable (MemTotal) changed",
            "DIMM removed"
        ]
    );
    let c = &d["changes"][2];
    assert_eq!(c["at"], "CPU0-DIMM1");
    assert_eq!(c["before"], "8 GiB DDR4 M393A1K43DB1-CVF");
    assert_eq!(c["after"], "empty");
    assert_eq!(d["changes"][0]["before"], "96 GiB");
    assert_eq!(d["changes"][0]["after"], "88 GiB");
    assert_eq!(d["unknown_on_one_side"], serde_json::json!([]));
}

#[test]
fn gpu_on_an_x8_link_fails_only_the_width_line() {
    let dir = reference_copy();
    let dev = dir.path().join("sys/bus/pci/devices/0000:af:00.0");
    fs::write(dev.join("current_link_width"), "8\n").unwrap();
    edit_nvml(dir.path(), |v| {
        for d in v["devices"].as_array_mut().unwrap() {
            if d["pci_bus_id"]["ok"] == "00000000:AF:00.0" {
                d["current_pcie_link_width"] = serde_json::json!({"ok": 8});
                d["max_pcie_link_width"] = serde_json::json!({"ok": 8});
            }
        }
    });
    let (code, r) = verify(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(failing(&r), vec!["gpus[0].pcie_width"]);
    let w = r["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == "gpus[0].pcie_width")
        .unwrap();
    assert_eq!(w["found"], "x16, x8 (card x16)");
    // The line says which of the two boards it is.
    assert_eq!(w["note"], "fails on GPU 1 (0000:af:00.0)");
}

#[test]
fn without_a_driver_gpu_lines_are_checked_from_the_datasheet() {
    // The same machine before its NVIDIA driver is installed: GPUs seen on PCI only, found
    // in the product table by PCI id 10de:1e30 (subsystem 10de:12ba).
    let dir = reference_copy();
    fs::remove_file(dir.path().join("nvml.json")).unwrap();
    let (code, r) = verify(dir.path(), &[]);
    // Only the GPUs' memory errors are unknown: they come from the driver (INCOMPLETE).
    assert_eq!(code, 3, "{r:#}");
    assert_eq!(r["summary"]["unknown"], 1, "{r:#}");
    let health = line_of(&r, "health.new");
    assert_eq!(health["status"], "unknown");
    assert!(
        health["note"]
            .as_str()
            .unwrap()
            .contains("GPU 0: no NVIDIA driver: its memory error counts come from NVML"),
        "{health}"
    );
    let lines = r["lines"].as_array().unwrap();
    let gpu: Vec<&Value> = lines
        .iter()
        .filter(|l| l["id"].as_str().unwrap().starts_with("gpus[0]."))
        .collect();
    let found: Vec<(&str, &str, &str)> = gpu
        .iter()
        .map(|l| {
            (
                l["id"].as_str().unwrap(),
                l["found"].as_str().unwrap(),
                l["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        found,
        [
            ("gpus[0].count", "2", "pass"),
            ("gpus[0].architecture", "Turing × 2", "pass"),
            ("gpus[0].vram", "24 GiB × 2", "pass"),
            ("gpus[0].cuda_cores", "4608 × 2", "pass"),
            ("gpus[0].tensor_cores", "576 × 2", "pass"),
            ("gpus[0].pcie_width", "x16 × 2", "pass"),
        ]
    );
    // Datasheet figures say so in the Note column; the link width is measured (sysfs).
    for l in &gpu {
        let note = l["note"].as_str().unwrap_or("");
        if l["id"] == "gpus[0].pcie_width" {
            assert_eq!(note, "");
        } else {
            assert!(
                note.contains("datasheet")
                    && note.contains("no NVIDIA driver")
                    && note.contains("Quadro RTX 6000 by PCI id 10de:1e30"),
                "{l}"
            );
        }
    }
    // And --strict fails only that one unknown, the GPUs' memory health.
    let (code, r) = verify(dir.path(), &["--strict"]);
    assert_eq!((code, r["summary"]["fail"].as_u64()), (1, Some(1)), "{r:#}");
}

#[test]
fn without_a_driver_a_gpu_not_in_the_table_stays_unknown_and_strict_fails_it() {
    // The reference machine without its driver, its first GPU on an id the product table
    // does not know (0x1e3f): that GPU's facts are unknown with the reason, not guessed.
    let dir = reference_copy();
    fs::remove_file(dir.path().join("nvml.json")).unwrap();
    fs::write(
        dir.path()
            .join("sys/devices/pci0000:16/0000:16:00.0/0000:17:00.0/device"),
        "0x1e3f\n",
    )
    .unwrap();
    let p = dir.path().join("order.toml");
    fs::write(
        &p,
        "[profile]\nname = \"any\"\n[[gpus]]\ncount = 2\narchitecture = \"Turing\"\n\
         cuda_cores = 4608\n",
    )
    .unwrap();
    let out = rigcheck()
        .args(["verify", "--format", "json", "--profile"])
        .arg(&p)
        .arg("--sysroot")
        .arg(dir.path())
        .output()
        .unwrap();
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    let line = |id: &str| line_of(&r, id);
    let cores = line("gpus[0].cuda_cores");
    assert_eq!(cores["status"], "unknown", "{r:#}");
    assert_eq!(cores["found"], "unknown, 4608");
    assert!(
        cores["note"]
            .as_str()
            .unwrap()
            .contains("not in this build's GPU product table"),
        "{cores}"
    );
    // Not a pass of what was not seen, not a failure either: incomplete, exit 3.
    assert_eq!(
        (out.status.code(), r["outcome"].as_str()),
        (Some(3), Some("incomplete")),
        "an unknown line makes the check incomplete"
    );
    let out = rigcheck()
        .args(["verify", "--strict", "--format", "json", "--profile"])
        .arg(&p)
        .arg("--sysroot")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let out = rigcheck()
        .args(["verify", "--allow-unknown", "--format", "json", "--profile"])
        .arg(&p)
        .arg("--sysroot")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn junit_output_has_one_case_per_line_and_marks_failures() {
    let out = rigcheck()
        .args([
            "verify",
            "--profile",
            PROFILE,
            "--format",
            "junit",
            "--sysroot",
            "fixtures/x86_64-vm-kvm",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let xml = String::from_utf8(out.stdout).unwrap();
    assert!(xml.starts_with("<?xml version=\"1.0\" encoding=\"UTF-8\"?>"));
    // 23 requirements; the GPU group's six are one case on a machine without the GPUs.
    assert_eq!(xml.matches("<testcase ").count(), 18);
    let fails = xml.matches("<failure ").count();
    let skipped = xml.matches("<skipped ").count();
    assert!(
        xml.contains(&format!("failures=\"{fails}\" skipped=\"{skipped}\"")),
        "{xml}"
    );
    assert!(xml.contains("name=\"cpu.sockets: CPU sockets\""));
    assert!(xml.ends_with("</testsuites>\n"));
}

#[test]
fn a_profile_made_from_a_machine_passes_on_it_and_fails_elsewhere() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("golden.toml");
    rigcheck()
        .args(["profile", "new", "--sysroot", REFERENCE, "-o"])
        .arg(&p)
        .assert()
        .success();
    let text = fs::read_to_string(&p).unwrap();
    assert!(
        text.contains("model = { exact = \"Quadro RTX 6000\" }\ncount = 2"),
        "{text}"
    );
    let run = |root: &str| {
        rigcheck()
            .args(["verify", "--sysroot", root, "--profile"])
            .arg(&p)
            .output()
            .unwrap()
    };
    assert_eq!(run(REFERENCE).status.code(), Some(0));
    assert_eq!(
        run("fixtures/x86_64-hp-z8-g4-dual-bronze3104")
            .status
            .code(),
        Some(1)
    );
    // Refuses to overwrite.
    rigcheck()
        .args(["profile", "new", "--sysroot", REFERENCE, "-o"])
        .arg(&p)
        .assert()
        .code(2);
}

#[test]
fn diff_of_a_machine_with_itself_is_empty() {
    rigcheck()
        .args(["diff", REFERENCE, REFERENCE])
        .assert()
        .code(0)
        .stdout("PASS: 0 hardware changes, 0 software changes\n");
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.json");
    let out = rigcheck()
        .args(["--sysroot", REFERENCE, "--format", "json"])
        .output()
        .unwrap();
    fs::write(&a, &out.stdout).unwrap();
    // A JSON report against its own sysroot: same hardware.
    rigcheck()
        .arg("diff")
        .arg(&a)
        .arg(REFERENCE)
        .assert()
        .code(0);
    // A truncated report is a clear error, not a panic.
    fs::write(&a, &out.stdout[..200]).unwrap();
    rigcheck()
        .arg("diff")
        .arg(&a)
        .arg(REFERENCE)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("not a rigcheck JSON report"));
}

#[test]
fn a_failing_dimm_line_names_its_slot() {
    let mut spec = rigcheck::spec::Spec::default();
    spec.memory.dimm_source = Some("smbios".into());
    spec.memory.dimms = ["CPU0-DIMM1", "CPU0-DIMM3", "CPU1-DIMM1"]
        .iter()
        .zip([8u64, 4, 8])
        .map(|(slot, gib)| rigcheck::spec::Dimm {
            locator: slot.to_string(),
            size_bytes: Some(gib << 30),
            ..Default::default()
        })
        .collect();
    let p = rigcheck::profile::parse(
        "[profile]\nname = \"o\"\n[memory]\ndimm_size = \"8 GB\"\n",
        "o.toml",
        "o",
    )
    .unwrap();
    let r = rigcheck::verify::verify(&spec, &p, false);
    assert_eq!(r.lines[0].found, "8 GiB, 4 GiB, 8 GiB");
    assert_eq!(r.lines[0].note.as_deref(), Some("fails on CPU0-DIMM3"));
}

/// Verifies `sysroot` against a profile written as `text`; (exit code, report).
fn verify_text(sysroot: &str, text: &str) -> (i32, Value) {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("order.toml");
    fs::write(&p, text).unwrap();
    let out = rigcheck()
        .args(["--sysroot", sysroot, "verify", "-f", "json", "--profile"])
        .arg(&p)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    (out.status.code().unwrap(), v)
}

#[test]
fn a_group_that_names_only_what_it_selects_orders_at_least_one() {
    // The first order people write: one line, the board they want.
    let (code, v) = verify_text(REFERENCE, "[[gpus]]\nmodel = \"Quadro RTX 6000\"\n");
    assert_eq!(code, 0, "{v}");
    let line = line_of(&v, "gpus[0].count");
    assert_eq!(line["requirement"], "GPU count ('Quadro RTX 6000')");
    assert_eq!(line["expected"], "≥ 1");
    assert_eq!(line["found"], "2");
    assert_eq!(line["status"], "pass");
    // The same for a drive kind, and for a board the machine does not have.
    let (code, v) = verify_text(REFERENCE, "[[drives]]\nkind = \"nvme\"\n");
    assert_eq!(code, 0, "{v}");
    assert_eq!(line_of(&v, "drives[0].count")["found"], "2");
    let (code, v) = verify_text(REFERENCE, "[[gpus]]\nmodel = \"A100\"\n");
    assert_eq!(code, 1, "{v}");
    let line = line_of(&v, "gpus[0].count");
    assert_eq!(line["requirement"], "GPU model");
    assert_eq!(line["expected"], "≥ 1 × A100");
    assert_eq!(line["found"], "2 × Quadro RTX 6000 24 GiB");
    let (code, v) = verify_text(REFERENCE, "[[drives]]\nkind = \"hdd\"\n");
    assert_eq!(code, 1, "{v}");
    assert_eq!(line_of(&v, "drives[0].count")["found"], "0");
}

#[test]
fn a_machine_without_smbios_tables_is_not_told_to_run_as_root() {
    // This VM has no SMBIOS tables: root reads no more of it than anyone.
    let out = rigcheck()
        .args(["--sysroot", "fixtures/x86_64-vm-kvm", "-f", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let dimms = v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["field"] == "memory.dimms")
        .unwrap()["reason"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(dimms.starts_with("no SMBIOS tables"), "{dimms}");
    assert!(!dimms.contains("root"), "{dimms}");
    let text = "[memory]\ndimm_count = 1\n[cpu]\nthreads = 2\n";
    let (code, v) = verify_text("fixtures/x86_64-vm-kvm", text);
    assert_eq!(code, 3, "{v}");
    assert!(v.get("to_complete").is_none(), "{v}");
}

/// `rigcheck ARGS` in `dir`: (exit code, stdout, stderr).
fn run_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = rigcheck().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn a_copied_profile_has_a_name_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let reference = Path::new(env!("CARGO_MANIFEST_DIR")).join(REFERENCE);
    let reference = reference.to_str().unwrap();
    // profile new --from: the copy is named as asked, and says nothing of the original's
    // machine.
    let (code, _, err) = run_in(
        dir.path(),
        &[
            "profile",
            "new",
            "--from",
            PROFILE,
            "--name",
            "rtx8000-order",
            "-o",
            "order.toml",
        ],
    );
    assert_eq!(code, 0, "{err}");
    let copy = fs::read_to_string(dir.path().join("order.toml")).unwrap();
    assert!(
        copy.contains("\n[profile]\nname = \"rtx8000-order\"\n"),
        "{copy}"
    );
    assert!(!copy.contains("description ="), "{copy}");
    fs::write(
        dir.path().join("order.toml"),
        copy.replace("Quadro RTX 6000", "Quadro RTX 8000")
            .replace("\"24 GB\"", "\"48 GB\""),
    )
    .unwrap();
    let (code, out, _) = run_in(
        dir.path(),
        &["--sysroot", reference, "verify", "-p", "order.toml"],
    );
    assert_eq!(code, 1, "{out}");
    let head: Vec<&str> = out.lines().take(3).collect();
    assert_eq!(head[0], "verify z8-ref against rtx8000-order", "{out}");
    assert!(head[1].starts_with("FAIL: GPU model: ordered 2 × Quadro RTX 8000 48 GiB"));
    assert!(!out.contains("Quadro RTX 6000 24 GB"), "{out}");
    // Without --name, the copy is named by the file it is written to.
    run_in(
        dir.path(),
        &["profile", "new", "--from", PROFILE, "-o", "lab-b.toml"],
    );
    let copy = fs::read_to_string(dir.path().join("lab-b.toml")).unwrap();
    assert!(copy.contains("\nname = \"lab-b\"\n"), "{copy}");
    // It copies a machine's profile, not a machine: --sysroot is refused.
    let (code, _, err) = run_in(
        dir.path(),
        &["--sysroot", reference, "profile", "new", "--from", PROFILE],
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--sysroot"), "{err}");

    // A copy made with `profiles show` and edited is named by its file, not the original.
    let (_, shown, _) = run_in(dir.path(), &["profiles", "show", PROFILE]);
    fs::write(dir.path().join("same.toml"), &shown).unwrap();
    fs::write(
        dir.path().join("my-order.toml"),
        shown.replace("model = \"Quadro RTX 6000\"", "model = \"Quadro RTX 8000\""),
    )
    .unwrap();
    let (_, out, _) = run_in(
        dir.path(),
        &["--sysroot", reference, "verify", "-p", "my-order.toml"],
    );
    let head: Vec<&str> = out.lines().take(3).collect();
    assert_eq!(head[0], "verify z8-ref against my-order", "{out}");
    assert_eq!(
        head[2], "edited from the built-in hp-z8-g4-dual-rtx6000",
        "{out}"
    );
    // A description edited with the order is the user's own, and is said.
    fs::write(
        dir.path().join("described.toml"),
        shown.replace("Quadro RTX 6000", "Quadro RTX 8000"),
    )
    .unwrap();
    let (_, out, _) = run_in(
        dir.path(),
        &["--sysroot", reference, "verify", "-p", "described.toml"],
    );
    let head: Vec<&str> = out.lines().take(3).collect();
    assert_eq!(head[0], "verify z8-ref against described", "{out}");
    assert!(head[2].contains("2 × Quadro RTX 8000 24 GB"), "{out}");
    // Unedited, it is the built-in order, under its name.
    let (code, out, _) = run_in(
        dir.path(),
        &["--sysroot", reference, "verify", "-p", "same.toml"],
    );
    assert_eq!(code, 0, "{out}");
    assert!(
        out.starts_with("verify z8-ref against hp-z8-g4-dual-rtx6000\n"),
        "{out}"
    );
}

#[test]
fn diff_from_linux_to_windows_compares_no_kernel_versions() {
    // The reference machine under Ubuntu and under Windows: the OS changed, and that says
    // it; Windows' build number is no later Linux kernel.
    let out = rigcheck()
        .args([
            "diff",
            "fixtures/hp-z8-g4-dual-rtx6000",
            "fixtures/windows-hp-z8-g4",
            "-f",
            "json",
        ])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let what: Vec<&str> = v["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["what"].as_str().unwrap())
        .collect();
    assert_eq!(what, ["OS changed", "NVIDIA driver changed"], "{v}");
    assert!(
        !v["unknown_on_one_side"].to_string().contains("kernel"),
        "{v}"
    );
    // Within one kind of OS a kernel update is still one.
    let dir = tempfile::tempdir().unwrap();
    let report = |root: &str| -> Value {
        let out = rigcheck()
            .args(["--sysroot", root, "-f", "json"])
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let before = report(REFERENCE);
    let mut after = before.clone();
    after["os"]["kernel"] = "6.8.0-45-generic".into();
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    fs::write(&a, before.to_string()).unwrap();
    fs::write(&b, after.to_string()).unwrap();
    let out = rigcheck()
        .arg("diff")
        .args([&a, &b])
        .args(["-f", "json"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["changes"][0]["what"], "kernel changed", "{v}");
}
