//! Verdicts that must not be confidently wrong, each on a mutated copy of the reference
//! machine: diff and fleet compare only what both reports know, verify says INCOMPLETE when
//! it could not see a requirement, and the notes for memory the OS does not see, mixed CPU
//! models and USB media.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::Path;

use common::*;
use serde_json::Value;

const PROFILE: &str = "hp-z8-g4-dual-rtx6000";

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// `diff A B --format json`: (exit code, document).
fn diff(a: &Path, b: &Path) -> (i32, Value) {
    let (code, out, err) = run(&["diff", p(a), p(b), "--format", "json"]);
    assert!(err.is_empty(), "{err}");
    (code, json(&out))
}

fn whats(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|c| c["what"].as_str().unwrap().to_string())
        .collect()
}

fn line<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == id)
        .unwrap_or_else(|| panic!("no line {id}"))
}

/// The second GPU of the copy on an x8 link, as sysfs and NVML both report it.
fn gpu_at_x8(root: &Path) {
    let dev = root.join("sys/bus/pci/devices/0000:af:00.0");
    fs::write(dev.join("current_link_width"), "8\n").unwrap();
    let nvml = root.join("nvml.json");
    let mut v: Value = serde_json::from_str(&fs::read_to_string(&nvml).unwrap()).unwrap();
    for d in v["devices"].as_array_mut().unwrap() {
        if d["pci_bus_id"]["ok"] == "00000000:AF:00.0" {
            d["current_pcie_link_width"] = serde_json::json!({"ok": 8});
            d["max_pcie_link_width"] = serde_json::json!({"ok": 8});
        }
    }
    fs::write(&nvml, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

/// Writes the report of `root` (`rigcheck --format json`) to `file`, with host name `host`.
fn report(root: &Path, file: &Path, host: &str) {
    let (code, out, err) = run(&["--sysroot", p(root), "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let mut v = json(&out);
    v["hostname"] = Value::String(host.into());
    fs::write(file, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

#[test]
fn root_against_unprivileged_is_no_change_but_unknown_on_one_side() {
    // The same machine, the second time without the SMBIOS tables (not root): before, diff
    // said "12 DIMM removed" with exit 1.
    let copy = reference_copy();
    without_smbios(copy.path());
    let (code, d) = diff(Path::new(REFERENCE), copy.path());
    assert_eq!(d["changes"], serde_json::json!([]), "{d:#}");
    assert_eq!(
        whats(&d["unknown_on_one_side"]),
        ["memory installed", "DIMMs"]
    );
    let dimms = &d["unknown_on_one_side"][1];
    assert_eq!(dimms["before"], "12 × 8 GiB DDR4 M393A1K43DB1-CVF");
    assert_eq!(dimms["after"], "unknown");
    assert_eq!(d["summary"]["exit_code"], 3);
    assert_eq!(code, 3, "nothing seen changed, but not everything was seen");

    // The table lists them apart, and never as a change.
    let (code, out, _) = run(&["diff", REFERENCE, p(copy.path())]);
    assert_eq!(code, 3);
    assert!(
        out.starts_with("Unknown on one side (not compared, not a change):\n"),
        "{out}"
    );
    assert!(!out.contains("DIMM removed"), "{out}");
    assert!(
        out.ends_with(
            "INCOMPLETE: 0 hardware changes, 0 software changes, 2 unknown on one side\n"
        ),
        "{out}"
    );

    // A BIOS version missing from one report is not "BIOS updated".
    fs::remove_file(copy.path().join("sys/devices/virtual/dmi/id/bios_version")).unwrap();
    let (_, d) = diff(Path::new(REFERENCE), copy.path());
    assert!(
        !whats(&d["changes"]).contains(&"BIOS updated".to_string()),
        "{d:#}"
    );
    let bios = d["unknown_on_one_side"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["what"] == "BIOS version")
        .unwrap();
    assert_eq!(bios["before"], "P60 v02.17");
    assert_eq!(bios["after"], "unknown");
}

#[test]
fn half_the_memory_gone_without_smbios_is_a_change() {
    // Neither report can read the DIMMs; MemTotal drops from 94.3 GiB to 47.2 GiB. Before,
    // memory totals were never compared: "no changes", exit 0.
    let before = reference_copy();
    without_smbios(before.path());
    let after = reference_copy();
    without_smbios(after.path());
    set_mem_total(after.path(), 98_884_452 / 2);
    let (code, d) = diff(before.path(), after.path());
    assert_eq!(code, 1, "{d:#}");
    assert_eq!(whats(&d["changes"]), ["memory usable (MemTotal) changed"]);
    assert_eq!(d["changes"][0]["before"], "94.3 GiB");
    assert_eq!(d["changes"][0]["after"], "47.2 GiB");
    // No DIMM facts are unknown on one side: both reports lack them alike.
    assert_eq!(d["unknown_on_one_side"], serde_json::json!([]));

    // A few MB of MemTotal (another kernel) is no change.
    let again = reference_copy();
    without_smbios(again.path());
    set_mem_total(again.path(), 98_884_452 - 60_000);
    let (code, d) = diff(before.path(), again.path());
    assert_eq!((code, d["changes"].clone()), (0, serde_json::json!([])));
}

#[test]
fn a_dimm_pulled_from_a_locator_repeated_on_another_bank_is_seen() {
    // Boards repeat locators per channel or socket; here CPU1's slots are named like
    // CPU0's (`CPU0-DIMM1` in bank CPU0 and in bank CPU1). Keyed by locator alone, pulling
    // one of them gave "no changes".
    let before = reference_copy();
    replace_dmi_text(before.path(), "CPU1-DIMM", "CPU0-DIMM");
    let after = tempfile::tempdir().unwrap();
    copy_tree(before.path(), after.path());
    let pulled = remove_dimm(after.path(), Some("CPU1"));
    assert_eq!(pulled, "CPU0-DIMM1");
    // The OS sees 8 GiB less too (DIMMs adding up to less than it sees are not all of them).
    common::set_mem_total(after.path(), 98_884_452 - 8 * 1024 * 1024);
    let (code, d) = diff(before.path(), after.path());
    assert_eq!(code, 1, "{d:#}");
    assert_eq!(
        whats(&d["changes"]),
        [
            "memory installed changed",
            "memory usable (MemTotal) changed",
            "DIMM removed"
        ]
    );
    assert_eq!(d["changes"][2]["at"], "CPU0-DIMM1 (CPU1)");
    assert_eq!(d["changes"][2]["before"], "8 GiB DDR4 M393A1K43DB1-CVF");
    assert_eq!(d["changes"][0]["after"], "88 GiB");
}

#[test]
fn fleet_tie_is_reported_as_a_tie() {
    // Two hosts as ordered, two with a GPU at x8: no majority. Before, the group whose
    // first host name sorted first was called the majority.
    let dir = tempfile::tempdir().unwrap();
    let x8 = reference_copy();
    gpu_at_x8(x8.path());
    for (host, root) in [
        ("z8-a", Path::new(REFERENCE)),
        ("z8-b", x8.path()),
        ("z8-c", Path::new(REFERENCE)),
        ("z8-d", x8.path()),
    ] {
        report(root, &dir.path().join(format!("{host}.json")), host);
    }
    let (code, out, _) = run(&["fleet", p(dir.path()), "--format", "json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    assert_eq!(v["summary"]["tie"], true);
    assert_eq!(v["summary"]["majority_hosts"], Value::Null);
    assert_eq!(v["configurations"][0]["hosts"], 2);
    assert_eq!(v["configurations"][1]["hosts"], 2);

    let (_, out, _) = run(&["fleet", p(dir.path()), "--color", "never"]);
    assert!(
        out.contains("No majority: 2 configurations have 2 of 4 hosts each (like z8-a, like z8-b)"),
        "{out}"
    );
    assert!(!out.contains("majority │"), "{out}");
    assert_eq!(out.matches("tie (1)").count(), 2, "{out}");
    assert_eq!(out.matches("tie (2)").count(), 2, "{out}");

    let (_, out, _) = run(&["fleet", p(dir.path()), "--format", "prometheus"]);
    assert!(out.contains("\nrigcheck_fleet_majority_tie 1\n"), "{out}");
    assert_eq!(
        out.matches("rigcheck_fleet_matches_majority{host=").count(),
        4
    );
    assert!(!out.contains("rigcheck_fleet_matches_majority{host=\"z8-a\"} 1"));
}

#[test]
fn fleet_reports_sharing_a_host_name_stay_apart() {
    // Two reports of machines both called z8-ref: before, Prometheus got every series twice.
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.json");
    let b = dir.path().join("b.json");
    report(Path::new(REFERENCE), &a, "z8-ref");
    report(Path::new(REFERENCE), &b, "z8-ref");
    let (code, out, _) = run(&["fleet", p(dir.path()), "--format", "json"]);
    assert_eq!(code, 0);
    let v = json(&out);
    let hosts: Vec<String> = v["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["host"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        hosts,
        [
            format!("z8-ref ({})", a.display()),
            format!("z8-ref ({})", b.display())
        ]
    );
    assert_eq!(v["duplicate_names"][0]["host"], "z8-ref");
    assert_eq!(
        v["duplicate_names"][0]["files"].as_array().unwrap().len(),
        2
    );

    let (_, out, _) = run(&["fleet", p(dir.path()), "--format", "prometheus"]);
    let mut series: Vec<&str> = out
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.rsplit_once(' ').unwrap().0)
        .collect();
    let n = series.len();
    series.sort();
    series.dedup();
    assert_eq!(series.len(), n, "duplicate series in:\n{out}");
    assert!(n > 40, "{out}");
}

#[test]
fn fleet_host_partly_unknown_is_not_called_different() {
    let dir = tempfile::tempdir().unwrap();
    let unprivileged = reference_copy();
    without_smbios(unprivileged.path());
    for h in ["z8-a", "z8-b"] {
        report(
            Path::new(REFERENCE),
            &dir.path().join(format!("{h}.json")),
            h,
        );
    }
    report(unprivileged.path(), &dir.path().join("z8-c.json"), "z8-c");
    let (code, out, _) = run(&["fleet", p(dir.path()), "--format", "json"]);
    let v = json(&out);
    let odd = &v["odd_ones_out"][0];
    assert_eq!(odd["host"], "z8-c");
    assert_eq!(odd["changes"], serde_json::json!([]));
    assert_eq!(
        whats(&odd["unknown_on_one_side"]),
        ["memory installed", "DIMMs"]
    );
    // With the profile: the unprivileged host's DIMM lines are unknown, so its check is
    // incomplete, and so is the fleet's (exit 3); no host fails.
    assert_eq!(code, 0);
    let (code, out, _) = run(&[
        "fleet",
        p(dir.path()),
        "--profile",
        PROFILE,
        "--format",
        "json",
    ]);
    assert_eq!(code, 3, "{out}");
    let v = json(&out);
    assert_eq!(v["hosts"][2]["verify"]["outcome"], "incomplete");
    assert_eq!(v["summary"]["incomplete_verify"], 1);
    assert_eq!(v["summary"]["failed_verify"], 0);
    let (code, out, _) = run(&[
        "fleet",
        p(dir.path()),
        "--profile",
        PROFILE,
        "--color",
        "never",
    ]);
    assert_eq!(code, 3);
    // The host's status is a status word (`unknown`, 4 lines not read); only the fleet's
    // verdict is INCOMPLETE.
    assert!(out.contains("unknown (4)"), "{out}");
    assert!(!out.contains("incomplete"), "{out}");
    assert!(out.contains("partly unknown (2)"), "{out}");
    assert!(
        out.contains("INCOMPLETE: 0 fail, 1 unknown, 2 pass, 0 unreadable · 3 hosts against"),
        "{out}"
    );
    let (code, _, _) = run(&[
        "fleet",
        p(dir.path()),
        "--profile",
        PROFILE,
        "--allow-unknown",
    ]);
    assert_eq!(code, 0);
    let (code, _, _) = run(&["fleet", p(dir.path()), "--profile", PROFILE, "--strict"]);
    assert_eq!(code, 1);
}

#[test]
fn verify_without_the_dimms_is_incomplete_not_pass() {
    // Unprivileged: before, "PASS: 18 pass, 0 fail, 4 unknown" and exit 0.
    let copy = reference_copy();
    without_smbios(copy.path());
    let root = p(copy.path());
    let (code, out, err) = run(&["verify", "--profile", PROFILE, "--sysroot", root]);
    assert_eq!(code, 3, "{err}");
    assert!(
        out.ends_with(&format!(
            "INCOMPLETE: 0 fail, 4 unknown, 19 pass · 23 checks of {PROFILE}\n"
        )),
        "{out}"
    );
    let (code, out, _) = run(&["verify", "-p", PROFILE, "--sysroot", root, "-f", "json"]);
    assert_eq!(code, 3);
    let r = json(&out);
    assert_eq!(r["outcome"], "incomplete");
    assert_eq!(r["passed"], false);
    let (_, out, _) = run(&["verify", "-p", PROFILE, "--sysroot", root, "-f", "junit"]);
    assert!(
        out.contains("<property name=\"outcome\" value=\"incomplete\"/>"),
        "{out}"
    );
    assert_eq!(out.matches("<skipped ").count(), 4);
    let (code, out, _) = run(&[
        "verify",
        "-p",
        PROFILE,
        "--sysroot",
        root,
        "--allow-unknown",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.ends_with(&format!(
            "PASS: 0 fail, 4 unknown, 19 pass · 23 checks of {PROFILE} · unknown allowed\n"
        )),
        "{out}"
    );
    let (code, out, _) = run(&["verify", "-p", PROFILE, "--sysroot", root, "--strict"]);
    assert_eq!(code, 1);
    assert!(
        out.ends_with(&format!(
            "FAIL: 4 fail, 0 unknown, 19 pass · 23 checks of {PROFILE} · strict: unknown \
             counts as fail\n"
        )),
        "{out}"
    );
    let (code, _, err) = run(&[
        "verify",
        "-p",
        PROFILE,
        "--sysroot",
        root,
        "--strict",
        "--allow-unknown",
    ]);
    assert_eq!(code, 2);
    assert_eq!(
        err,
        "rigcheck: --strict: cannot be used with --allow-unknown; give only one of them\n"
    );
}

#[test]
fn memory_the_os_does_not_see_is_noted_by_verify_preflight_and_inventory() {
    // 96 GiB of DIMMs, MemTotal 47 GiB: before, verify and preflight passed without a word.
    let copy = reference_copy();
    set_mem_total(copy.path(), 98_884_452 / 2);
    let root = p(copy.path());
    let (code, out, _) = run(&["verify", "-p", PROFILE, "--sysroot", root, "-f", "json"]);
    assert_eq!(code, 0, "installed as ordered: {out}");
    let total = line(&json(&out), "memory.total").clone();
    assert_eq!(total["status"], "pass");
    assert_eq!(total["found"], "96 GiB");
    let note = total["note"].as_str().unwrap();
    assert!(
        note.starts_with("the OS sees 47.2 GiB (MemTotal) of the 96 GiB of DIMMs installed"),
        "{note}"
    );

    let (code, out, _) = run(&["preflight", "--sysroot", root, "-f", "json"]);
    assert_eq!(code, 0);
    let checks = json(&out)["checks"].clone();
    let c = checks
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "mem.installed")
        .unwrap()
        .clone();
    assert_eq!(c["status"], "warn");
    assert_eq!(c["found"], "47.2 GiB usable of 96 GiB installed");
    assert!(c["advice"].as_str().unwrap().contains("dmesg"), "{c}");

    let (_, out, _) = run(&["--sysroot", root, "-f", "json"]);
    let v = json(&out);
    assert!(
        v["notes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["field"] == "memory.usable_bytes"
                && n["reason"]
                    .as_str()
                    .unwrap()
                    .starts_with("the OS sees 47.2 GiB")),
        "{v:#}"
    );
    // The reference machine itself (MemTotal 94.3 of 96 GiB) gets no such note.
    let (_, out, _) = run(&[
        "verify",
        "-p",
        PROFILE,
        "--sysroot",
        REFERENCE,
        "-f",
        "json",
    ]);
    assert_eq!(line(&json(&out), "memory.total").get("note"), None);
}

#[test]
fn a_usb_stick_is_not_an_internal_drive() {
    let copy = reference_copy();
    add_usb_stick(copy.path());
    let root = p(copy.path());
    let (_, out, _) = run(&["--sysroot", root, "-f", "json"]);
    let v = json(&out);
    let sdz = v["drives"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["name"] == "sdz")
        .unwrap()
        .clone();
    assert_eq!(sdz["transport"], "usb");
    assert_eq!(sdz["removable"], true);
    assert_eq!(sdz["model"], "SanDisk Cruzer Blade");
    assert!(v["notes"].as_array().unwrap().iter().any(|n| n["reason"]
        .as_str()
        .unwrap()
        .starts_with("sdz is removable, on USB")));

    // An order for one SSD is not met by the stick; two drives means the two NVMe drives.
    let dir = tempfile::tempdir().unwrap();
    let order = dir.path().join("order.toml");
    fs::write(
        &order,
        "[[drives]]\nkind = \"ssd\"\ncount = { at_least = 1 }\n\n[[drives]]\ncount = 2\n",
    )
    .unwrap();
    let (code, out, _) = run(&["verify", "-p", p(&order), "--sysroot", root, "-f", "json"]);
    assert_eq!(code, 1);
    let r = json(&out);
    assert_eq!(line(&r, "drives[0].count")["status"], "fail");
    assert_eq!(line(&r, "drives[0].count")["found"], "0");
    assert_eq!(line(&r, "drives[1].count")["status"], "pass");

    // `profile new` orders no SSD group for it.
    let (_, golden, _) = run(&["profile", "new", "--sysroot", root]);
    assert!(!golden.contains("kind = \"ssd\""), "{golden}");
    assert!(golden.contains("kind = \"nvme\""), "{golden}");

    // diff: plugging it in is no hardware change.
    let (code, d) = diff(Path::new(REFERENCE), copy.path());
    assert_eq!(code, 0, "{d:#}");
    assert_eq!(d["changes"][0]["class"], "removable");
    assert_eq!(d["changes"][0]["what"], "removable medium added");
    assert_eq!(d["summary"]["hardware_changes"], 0);
}

#[test]
fn mixed_cpu_models_are_each_checked() {
    // A Gold 5218 in socket 1 where the order says Gold 6254: before, only socket 0 was
    // reported and the order passed.
    let copy = reference_copy();
    mix_cpu_models(copy.path(), "Intel(R) Xeon(R) Gold 5218 CPU @ 2.30GHz");
    let root = p(copy.path());
    let (_, out, _) = run(&["--sysroot", root, "-f", "json"]);
    let v = json(&out);
    assert_eq!(
        v["cpu"]["socket_models"],
        serde_json::json!([
            "Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz",
            "Intel(R) Xeon(R) Gold 5218 CPU @ 2.30GHz"
        ])
    );
    assert!(v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|n| n["field"] == "cpu.model"
            && n["reason"]
                .as_str()
                .unwrap()
                .starts_with("the sockets hold different CPU models (socket 0: ")));
    let (code, out, _) = run(&["verify", "-p", PROFILE, "--sysroot", root, "-f", "json"]);
    assert_eq!(code, 1);
    let r = json(&out);
    let model = line(&r, "cpu.model");
    assert_eq!(model["status"], "fail");
    assert_eq!(
        model["found"],
        "Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz, Intel(R) Xeon(R) Gold 5218 CPU @ 2.30GHz"
    );
    let (code, d) = diff(Path::new(REFERENCE), copy.path());
    assert_eq!(code, 1);
    assert_eq!(d["changes"][0]["what"], "CPU model changed");
    assert_eq!(
        d["changes"][0]["after"],
        "Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz + Intel(R) Xeon(R) Gold 5218 CPU @ 2.30GHz"
    );
    // The reference machine (both sockets alike) lists no socket models.
    let (_, out, _) = run(&["--sysroot", REFERENCE, "-f", "json"]);
    assert_eq!(json(&out)["cpu"].get("socket_models"), None);
}

#[test]
fn implausible_bare_quantities_and_commas_are_refused() {
    let shipped = fs::read_to_string("profiles/hp-z8-g4-dual-rtx6000.toml").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "vram = \"24 GB\"",
            "vram = { at_least = 80 }",
            "vram: 80 has no unit, so it means 80 bytes; write it with its unit, e.g. \"80 GB\"",
        ),
        (
            "base_clock = { at_least = \"3.1 GHz\" }",
            "base_clock = { at_least = \"3,1 GHz\" }",
            "base_clock: '3,1 GHz': a comma is ambiguous (decimal or thousands?); write '3.1 GHz'",
        ),
        (
            "base_clock = { at_least = \"3.1 GHz\" }",
            "base_clock = { at_least = 3.1 }",
            "base_clock: 3.1 has no unit, so it means 3.1 MHz; write it with its unit, e.g. \"3.1 GHz\"",
        ),
        (
            "total = \"96 GB\"",
            "total = 96",
            "total: 96 has no unit, so it means 96 bytes; write it with its unit, e.g. \"96 GB\"",
        ),
    ];
    for (i, (from, to, want)) in cases.iter().enumerate() {
        assert!(shipped.contains(from), "{from}");
        let f = dir.path().join(format!("order{i}.toml"));
        fs::write(&f, shipped.replace(from, to)).unwrap();
        let (code, out, err) = run(&["verify", "-p", p(&f), "--sysroot", REFERENCE]);
        assert_eq!(code, 2, "{to}: {out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(
            err.starts_with(&format!("rigcheck: {}:", f.display())),
            "{err}"
        );
        assert!(err.contains(want), "{to}: {err}");
    }
    // Plausible bare numbers still read as before: MT/s and MHz.
    let f = dir.path().join("plain.toml");
    fs::write(
        &f,
        "[cpu]\nbase_clock = { at_least = 3100 }\n[memory]\ndimm_speed = 2933\n",
    )
    .unwrap();
    let (code, _, err) = run(&["verify", "-p", p(&f), "--sysroot", REFERENCE]);
    assert_eq!(code, 0, "{err}");
}

#[test]
fn installing_the_driver_is_no_gpu_change() {
    // The H100 before its driver is known from the product table (80 GiB, the datasheet's
    // round figure); after, NVML reports the 81,559 MiB it leaves usable (79.6 GiB). The same
    // board: before, diff said "GPU replaced" and exit 1.
    let after = "fixtures/x86_64-h100-80gb-hbm3";
    let before = tempfile::tempdir().unwrap();
    copy_tree(Path::new(after), before.path());
    fs::remove_file(before.path().join("nvml.json")).unwrap();
    let (code, d) = diff(before.path(), Path::new(after));
    assert_eq!(d["changes"], serde_json::json!([]), "{d:#}");
    assert_eq!(
        code, 3,
        "facts only the driver gives are unknown before: {d:#}"
    );
    assert!(whats(&d["unknown_on_one_side"]).contains(&"GPU VBIOS".to_string()));

    // A board whose driver reports other memory in the same slot is still a change against
    // the datasheet figure: 40 GiB measured against the table's 80 GiB.
    let smaller = tempfile::tempdir().unwrap();
    copy_tree(Path::new(after), smaller.path());
    let nvml = smaller.path().join("nvml.json");
    let text = fs::read_to_string(&nvml).unwrap();
    fs::write(
        &nvml,
        text.replace("\"total\": 85520809984", "\"total\": 42949672960"),
    )
    .unwrap();
    let (code, d) = diff(before.path(), smaller.path());
    assert_eq!(code, 1, "{d:#}");
    assert_eq!(whats(&d["changes"]), ["GPU replaced"]);
    assert_eq!(d["changes"][0]["before"], "NVIDIA H100 80GB HBM3 80 GiB");
    assert_eq!(d["changes"][0]["after"], "NVIDIA H100 80GB HBM3 40 GiB");
}
