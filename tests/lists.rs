//! A list is read, partial or unreadable, never "empty" for unreadable: each source of a
//! list (sysfs block devices, the PCI tree, the OS's answers on Windows, the SMBIOS table)
//! is broken in a copy of a recorded machine, and the counts, verdicts and diffs over it
//! must say unknown instead of zero or "removed".
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::Path;

use common::{assert_note, fixture_copy, reference_copy, run, REFERENCE};
use serde_json::Value;

const ORDER: &str = "profiles/hp-z8-g4-dual-rtx6000.toml";

fn report(root: &Path) -> Value {
    let (code, out, err) = run(&["--sysroot", root.to_str().unwrap(), "-f", "json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

/// verify's exit code and JSON report.
fn verify(root: &Path, profile: &Path, extra: &[&str]) -> (i32, Value) {
    let mut args = vec![
        "verify",
        "--sysroot",
        root.to_str().unwrap(),
        "--profile",
        profile.to_str().unwrap(),
        "-f",
        "json",
    ];
    args.extend_from_slice(extra);
    let (code, out, err) = run(&args);
    assert!(code != 2, "{err}");
    (code, serde_json::from_str(&out).unwrap())
}

/// The line `id` of a verify report: (status, found, note).
fn line(r: &Value, id: &str) -> (String, String, String) {
    let l = r["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == id)
        .unwrap_or_else(|| panic!("no line {id}: {r}"));
    (
        l["status"].as_str().unwrap().to_string(),
        l["found"].as_str().unwrap().to_string(),
        l["note"].as_str().unwrap_or_default().to_string(),
    )
}

fn profile(dir: &Path, name: &str, body: &str) -> std::path::PathBuf {
    let p = dir.join(format!("{name}.toml"));
    fs::write(&p, format!("[profile]\nname = \"{name}\"\n{body}")).unwrap();
    p
}

#[test]
fn without_sys_block_the_drive_lines_are_unknown_not_failed_or_passed() {
    let dir = reference_copy();
    let no_hdd = profile(
        dir.path(),
        "no-hdd",
        "[[drives]]\nkind = \"hdd\"\ncount = 0\n",
    );

    // The machine as recorded: two NVMe drives, no HDD.
    let (code, r) = verify(Path::new(REFERENCE), &no_hdd, &[]);
    assert_eq!((code, line(&r, "drives[0].count").0.as_str()), (0, "pass"));

    fs::remove_dir_all(dir.path().join("sys/block")).unwrap();
    let rep = report(dir.path());
    assert_eq!(rep["drives"], serde_json::json!([]));
    assert_eq!(rep["lists"]["drives"], "unreadable");
    assert_eq!(rep["lists"]["gpus"], "read");
    assert_note(&rep, "drives", "the drive list is unknown, not empty");

    // "2 × NVMe" is not a failure, "no HDD" not a pass: both unknown.
    let (code, r) = verify(dir.path(), Path::new(ORDER), &[]);
    assert_eq!(code, 3);
    let (status, found, note) = line(&r, "drives[0].count");
    assert_eq!((status.as_str(), found.as_str()), ("unknown", "unknown"));
    assert!(note.contains("0 seen, more may exist"), "{note}");
    assert_eq!(line(&r, "drives[0].capacity").0, "unknown");
    assert_eq!(line(&r, "gpus[0].count").0, "pass");
    let (code, r) = verify(dir.path(), &no_hdd, &[]);
    assert_eq!(
        (code, line(&r, "drives[0].count").0.as_str()),
        (3, "unknown")
    );

    // Allowing unknowns does not make a run with nothing passed a pass.
    let (code, r) = verify(dir.path(), &no_hdd, &["--allow-unknown"]);
    assert_eq!(code, 3);
    assert_eq!(r["outcome"], "incomplete");
    assert_eq!(r["summary"]["pass"], 0);
}

#[test]
fn without_the_pci_tree_no_gpu_is_unknown() {
    let (dir, root) = fixture_copy("x86_64-vm-kvm");
    let no_gpu = profile(dir.path(), "no-gpu", "[[gpus]]\ncount = 0\n");
    let at_most = profile(
        dir.path(),
        "at-most-one",
        "[[gpus]]\ncount = { at_most = 1 }\n",
    );
    let (code, r) = verify(&root, &no_gpu, &[]);
    assert_eq!((code, line(&r, "gpus[0].count").0.as_str()), (0, "pass"));

    fs::remove_dir_all(root.join("sys/bus/pci")).unwrap();
    let rep = report(&root);
    assert_eq!(rep["gpus"], serde_json::json!([]));
    assert_eq!(rep["lists"]["gpus"], "unreadable");
    assert_note(&rep, "gpus", "the GPU list is unknown, not empty");
    for p in [&no_gpu, &at_most] {
        let (code, r) = verify(&root, p, &[]);
        assert_eq!((code, line(&r, "gpus[0].count").0.as_str()), (3, "unknown"));
    }
}

#[test]
fn a_gpu_whose_device_id_is_garbage_is_listed_with_its_identity_unknown() {
    let (_dir, root) = fixture_copy("gpu-no-driver");
    fs::write(
        root.join("sys/bus/pci/devices/0000:af:00.0/device"),
        "0xZZ\u{7f}\n",
    )
    .unwrap();
    let rep = report(&root);
    let gpus = rep["gpus"].as_array().unwrap();
    assert_eq!(gpus.len(), 2, "{rep}");
    assert_eq!(gpus[1]["pci_address"], "0000:af:00.0");
    assert_eq!(gpus[1]["pci_device_id"], Value::Null);
    assert_eq!(gpus[1]["name"], Value::Null);
    assert_note(&rep, "gpus[1].pci_device_id", "device is not a PCI id");
    // The order's count of Quadro RTX 6000s cannot be told: one may be the second board.
    let (code, r) = verify(&root, Path::new(ORDER), &[]);
    assert_eq!(code, 3);
    let (status, _, note) = line(&r, "gpus[0].count");
    assert_eq!(status, "unknown");
    assert!(note.contains("GPU 1 (0000:af:00.0)"), "{note}");
}

#[test]
fn a_gpu_id_no_table_knows_makes_the_gpu_lines_unknown_not_no_matching_gpu() {
    let (_dir, root) = fixture_copy("gpu-no-driver");
    for a in ["0000:17:00.0", "0000:af:00.0"] {
        fs::write(
            root.join(format!("sys/bus/pci/devices/{a}/device")),
            "0x1fff\n",
        )
        .unwrap();
    }
    let rep = report(&root);
    assert_eq!(rep["gpus"].as_array().unwrap().len(), 2);
    assert_eq!(rep["gpus"][0]["pci_device_id"], "0x1fff");
    let (code, r) = verify(&root, Path::new(ORDER), &[]);
    assert_eq!(code, 3);
    for id in ["gpus[0].count", "gpus[0].vram", "gpus[0].architecture"] {
        let (status, found, _) = line(&r, id);
        assert_eq!(status, "unknown", "{id}: {found}");
        assert_ne!(found, "no matching GPU");
    }
}

/// Offsets of the type-17 records of an SMBIOS table.
fn memory_devices(t: &[u8]) -> Vec<usize> {
    let mut out = Vec::new();
    let mut off = 0;
    while off + 4 <= t.len() && t[off] != 127 {
        let mut end = off + usize::from(t[off + 1]);
        while !(t[end] == 0 && t[end + 1] == 0) {
            end += 1;
        }
        if t[off] == 17 {
            out.push(off);
        }
        off = end + 2;
    }
    out
}

#[test]
fn an_smbios_table_cut_inside_a_memory_device_leaves_a_partial_dimm_list() {
    let dir = reference_copy();
    let p = dir.path().join("sys/firmware/dmi/tables/DMI");
    let t = fs::read(&p).unwrap();
    let devices = memory_devices(&t);
    assert_eq!(devices.len(), 24, "the reference lists 24 slots");
    // Cut in the middle of the 13th slot's record.
    fs::write(&p, &t[..devices[12] + 9]).unwrap();
    let rep = report(dir.path());
    assert_eq!(rep["lists"]["dimms"], "partial");
    let dimms = rep["memory"]["dimms"].as_array().unwrap().len();
    assert!(dimms > 0 && dimms < 12, "{dimms}");
    // Installed memory is not the sum of the modules read: MemTotal, said so.
    assert_eq!(rep["memory"]["total_source"], "meminfo");
    assert_note(&rep, "memory.dimms", "the DIMM list is partial");
    assert_note(&rep, "memory.total_bytes", "the DIMM list is partial");

    let (code, r) = verify(dir.path(), Path::new(ORDER), &[]);
    assert_eq!(code, 3);
    assert_eq!(line(&r, "memory.dimm_count").0, "unknown");
    assert_eq!(line(&r, "memory.dimm_size").0, "unknown");
    assert_eq!(line(&r, "memory.total").0, "pass");

    // diff: the modules after the damage are unknown on one side, not removed.
    let before = dir.path().join("before.json");
    let after = dir.path().join("after.json");
    fs::write(&before, run(&["--sysroot", REFERENCE, "-f", "json"]).1).unwrap();
    fs::write(&after, serde_json::to_string(&rep).unwrap()).unwrap();
    let (code, out, err) = run(&[
        "diff",
        before.to_str().unwrap(),
        after.to_str().unwrap(),
        "-f",
        "json",
    ]);
    assert_eq!(code, 3, "{out}{err}");
    let d: Value = serde_json::from_str(&out).unwrap();
    let changes = d["changes"].as_array().unwrap();
    assert!(
        !changes.iter().any(|c| c["what"] == "DIMM removed"),
        "{changes:?}"
    );
    let unknown = d["unknown_on_one_side"].as_array().unwrap();
    assert!(unknown
        .iter()
        .any(|c| c["what"] == "DIMM" && c["after"] == "unknown (list partial)"));

    // preflight does not weigh usable memory against a partial sum.
    let (_, out, _) = run(&["preflight", "--sysroot", dir.path().to_str().unwrap()]);
    assert!(!out.contains("installed"), "{out}");
}

#[test]
fn dimms_adding_up_to_less_than_the_os_sees_are_not_the_installed_memory() {
    let dir = reference_copy();
    // 200 GiB usable against 96 GiB of DIMMs listed.
    common::set_mem_total(dir.path(), 200 * 1024 * 1024);
    let rep = report(dir.path());
    assert_eq!(rep["lists"]["dimms"], "partial");
    assert_eq!(rep["memory"]["total_source"], "meminfo");
    assert_note(&rep, "memory.dimms", "less than the OS sees");
    let (_, r) = verify(dir.path(), Path::new(ORDER), &[]);
    assert_eq!(line(&r, "memory.dimm_count").0, "unknown");
}

#[test]
fn one_damaged_section_of_native_json_keeps_the_others() {
    let (_dir, root) = fixture_copy("windows-hp-z8-g4");
    let p = root.join("native.json");
    let mut a: Value = serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
    let intact = report(&root);
    assert_eq!(intact["lists"]["drives"], "read");
    let drives = intact["drives"].as_array().unwrap().len();
    assert!(drives > 0);

    // A wrong type in the CPU section: the CPU's answers are unknown, the drives stand.
    a["cpu"]["logical_cpus"] = Value::String("many".into());
    fs::write(&p, serde_json::to_string(&a).unwrap()).unwrap();
    let rep = report(&root);
    assert_eq!(rep["drives"].as_array().unwrap().len(), drives);
    assert_eq!(rep["os"]["name"], intact["os"]["name"]);
    assert_eq!(rep["lists"]["drives"], "read");
    assert_note(&rep, "cpu", "`cpu` section is damaged");

    // A damaged disk list: unknown, not "no drives".
    a = serde_json::from_str(
        &fs::read_to_string(fixture_copy("windows-hp-z8-g4").1.join("native.json")).unwrap(),
    )
    .unwrap();
    a["disks"][0]["size_bytes"] = Value::String("1 TB".into());
    fs::write(&p, serde_json::to_string(&a).unwrap()).unwrap();
    let rep = report(&root);
    assert_eq!(rep["lists"]["drives"], "unreadable");
    assert_eq!(rep["cpu"]["threads"], intact["cpu"]["threads"]);
    assert_note(&rep, "drives", "`disks` section is damaged");

    // A record that is not JSON at all: every list unreadable.
    fs::write(&p, "{\"format\": 1, \"disks\": [").unwrap();
    let rep = report(&root);
    assert_eq!(rep["lists"]["drives"], "unreadable");
    assert_note(&rep, "drives", "the OS's answers are unknown");
}

#[test]
fn no_cpu_offline_is_an_empty_list_and_unreadable_is_null() {
    let (_dir, root) = fixture_copy("x86_64-epyc_7451");
    assert_eq!(
        fs::read_to_string(root.join("sys/devices/system/cpu/offline")).unwrap(),
        "\n"
    );
    assert_eq!(report(&root)["cpu"]["offline"], "");
    for f in ["present", "offline"] {
        fs::remove_file(root.join("sys/devices/system/cpu").join(f)).unwrap();
    }
    let rep = report(&root);
    assert_eq!(rep["cpu"]["offline"], Value::Null);
    assert_note(&rep, "cpu.offline", "offline is not present");
}

#[test]
fn fleet_takes_an_unreadable_drive_list_as_unknown_not_as_no_drives() {
    let work = tempfile::tempdir().unwrap();
    let fleet = work.path().join("fleet");
    fs::create_dir(&fleet).unwrap();
    let full = run(&["--sysroot", REFERENCE, "-f", "json"]).1;
    for h in ["z8-01", "z8-02"] {
        fs::write(
            fleet.join(format!("{h}.json")),
            full.replace("\"hostname\": \"", &format!("\"hostname\": \"{h}-")),
        )
        .unwrap();
    }
    let broken = reference_copy();
    fs::remove_dir_all(broken.path().join("sys/block")).unwrap();
    let text = serde_json::to_string(&report(broken.path())).unwrap();
    fs::write(
        fleet.join("z8-03.json"),
        text.replace("\"hostname\":\"", "\"hostname\":\"z8-03-"),
    )
    .unwrap();
    let (code, out, err) = run(&[
        "fleet",
        fleet.to_str().unwrap(),
        "--profile",
        ORDER,
        "-f",
        "json",
    ]);
    assert_eq!(code, 3, "{out}{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    // One machine, as far as the three reports know: one configuration, no odd one out,
    // z8-03 partly unknown within it.
    assert_eq!(v["configurations"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["odd_ones_out"], serde_json::json!([]));
    assert_eq!(v["hosts"][2]["lists"]["drives"], "unreadable");
    let odd = v["partly_unknown"].as_array().unwrap();
    assert_eq!(odd.len(), 1, "{odd:?}");
    assert_eq!(odd[0]["changes"], serde_json::json!([]));
    let unknown = odd[0]["unknown_on_one_side"].as_array().unwrap();
    assert_eq!(unknown.len(), 2, "{unknown:?}");
    assert!(unknown
        .iter()
        .all(|c| c["what"] == "drive" && c["after"] == "unknown (list unreadable)"));
}
