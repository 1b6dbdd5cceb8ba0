//! Health end to end, on copies of the reference machine as a new delivery (its NVMe logs
//! say 1 % used and 12 power-on hours, EDAC and AER count nothing): the built-in order passes;
//! a worn drive, an uncorrected memory error and a fatal PCIe error each fail it, naming the
//! part; corrected errors only warn; without the logs and EDAC health is unknown with why,
//! and only an order that asks for health is INCOMPLETE. Then the same facts through
//! preflight, fleet, diff, Prometheus and the sheet, and what a device that cannot be asked
//! (no root, no answer, a short or garbage log) leaves: a note, never a number.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::Path;

use common::{assert_note, reference_copy, run};
use serde_json::Value;

const PROFILE: &str = "hp-z8-g4-dual-rtx6000";

fn verify(root: &Path, profile: &str) -> (i32, Value) {
    let (code, out, err) = run(&[
        "verify",
        "-p",
        profile,
        "--sysroot",
        root.to_str().unwrap(),
        "-f",
        "json",
    ]);
    assert!(!err.contains("panicked"), "{err}");
    (
        code,
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {out}{err}")),
    )
}

fn line<'a>(r: &'a Value, id: &str) -> &'a Value {
    r["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == id)
        .unwrap_or_else(|| panic!("no line {id}: {r:#}"))
}

fn report(root: &Path) -> Value {
    let (code, out, err) = run(&["--sysroot", root.to_str().unwrap(), "-f", "json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

fn preflight(root: &Path) -> (i32, Value) {
    let (code, out, err) = run(&[
        "preflight",
        "--sysroot",
        root.to_str().unwrap(),
        "-f",
        "json",
    ]);
    assert!(!err.contains("panicked"), "{err}");
    (code, serde_json::from_str(&out).unwrap())
}

/// A check of a preflight report, by id and subject.
fn check<'a>(r: &'a Value, id: &str, subject: Option<&str>) -> &'a Value {
    r["checks"]
        .as_array()
        .unwrap()
        .iter()
        .chain(r["not_checked"].as_array().unwrap())
        .find(|c| c["id"] == id && c["subject"].as_str() == subject)
        .unwrap_or_else(|| panic!("no check {id} {subject:?}: {r:#}"))
}

/// The copy's NVMe log of `nvme0` with percentage used, power-on hours and critical
/// warning set, at their offsets of the page (NVMe 1.4 figure 194).
fn wear_nvme0(root: &Path, used: u8, hours: u128, warning: u8) {
    let p = root.join("smart/nvme0.bin");
    let mut b = fs::read(&p).unwrap();
    assert_eq!(b.len(), 512);
    b[0] = warning;
    b[5] = used;
    b[128..144].copy_from_slice(&hours.to_le_bytes());
    fs::write(&p, b).unwrap();
}

fn edac(root: &Path, mc: &str, file: &str, n: u64) {
    fs::write(
        root.join("sys/devices/system/edac/mc").join(mc).join(file),
        format!("{n}\n"),
    )
    .unwrap();
}

/// GPU 1's function (0000:af:00.0) with one fatal AER error: a Surprise Down, as a card that
/// lost its link logs it.
fn gpu1_fatal_aer(root: &Path) {
    let p = root.join("sys/devices/pci0000:ae/0000:ae:00.0/0000:af:00.0/aer_dev_fatal");
    let text = fs::read_to_string(&p).unwrap();
    assert!(text.contains("TOTAL_ERR_FATAL 0"), "{text}");
    let text = text
        .replace("SDES 0", "SDES 1")
        .replace("TOTAL_ERR_FATAL 0", "TOTAL_ERR_FATAL 1");
    fs::write(&p, text).unwrap();
}

#[test]
fn a_new_delivery_passes_its_order_and_the_json_carries_the_figures() {
    let copy = reference_copy();
    let (code, r) = verify(copy.path(), PROFILE);
    assert_eq!(code, 0, "{r:#}");
    let l = line(&r, "health.new");
    assert_eq!(l["status"], "pass");
    assert_eq!(
        l["expected"],
        "drives ≤ 100 power-on hours, ≤ 1 % used; no errors"
    );
    let found = l["found"].as_str().unwrap();
    // Parts found alike are named together.
    assert!(
        found.starts_with("nvme0n1, nvme1n1: 12 h, 1 % used, no errors; memory: no errors"),
        "{found}"
    );
    assert!(
        found.contains("GPU 0 link, GPU 1 link, nvme0n1 link, nvme1n1 link: no fatal errors"),
        "{found}"
    );
    let rep = report(copy.path());
    let d0 = &rep["health"]["drives"][0];
    assert_eq!(d0["drive"], "nvme0n1");
    assert_eq!(d0["log"], "smart/nvme0.bin");
    assert_eq!(d0["power_on_hours"], 12);
    assert_eq!(d0["percentage_used"], 1);
    assert_eq!(d0["critical_warning"], 0);
    assert_eq!(d0["temperature_c"], 34);
    assert_eq!(rep["health"]["memory"]["uncorrected_errors"], 0);
    assert_eq!(
        rep["health"]["memory"]["controllers"]
            .as_array()
            .unwrap()
            .len(),
        4
    );
    assert_eq!(rep["health"]["pcie"].as_array().unwrap().len(), 8);
    assert_eq!(rep["health"]["lists"]["drives"], "read");
    assert_eq!(rep["health"]["lists"]["memory"], "read");
    assert_eq!(rep["health"]["lists"]["pcie"], "read");
    let (code, p) = preflight(copy.path());
    assert_eq!(code, 0, "{p:#}");
    assert_eq!(check(&p, "health.memory", None)["status"], "pass");
    assert_eq!(check(&p, "health.drive", Some("nvme1n1"))["status"], "pass");
}

#[test]
fn a_worn_drive_sold_as_new_fails_naming_it_and_the_json_says_why() {
    let copy = reference_copy();
    wear_nvme0(copy.path(), 40, 20_000, 1 << 2);
    let (code, r) = verify(copy.path(), PROFILE);
    assert_eq!(code, 1, "{r:#}");
    assert_eq!(r["summary"]["fail"], 1, "only the health line fails: {r:#}");
    let l = line(&r, "health.new");
    assert_eq!(l["status"], "fail");
    assert_eq!(
        l["found"],
        "nvme0n1: critical warning (reliability degraded by media errors), 20000 power-on \
         hours, 40 % used"
    );
    assert_eq!(l["note"], "fails on nvme0n1");
    let rep = report(copy.path());
    let d0 = &rep["health"]["drives"][0];
    assert_eq!(d0["power_on_hours"], 20000);
    assert_eq!(d0["percentage_used"], 40);
    assert_eq!(d0["critical_warning"], 4);
    assert_eq!(
        d0["critical_warnings"][0],
        "reliability degraded by media errors"
    );
    // The table's answer line names the part too.
    let (code, out, _) = run(&[
        "verify",
        "-p",
        PROFILE,
        "--sysroot",
        copy.path().to_str().unwrap(),
    ]);
    assert_eq!(code, 1);
    assert!(
        out.lines().nth(1).unwrap().starts_with("FAIL: Delivered new: ordered drives ≤ 100 power-on hours, ≤ 1 % used; no errors, found nvme0n1: critical warning"),
        "{out}"
    );
    // A critical warning stops a run now: preflight fails the drive, and says what to do.
    let (code, p) = preflight(copy.path());
    assert_eq!(code, 1);
    let c = check(&p, "health.drive", Some("nvme0n1"));
    assert_eq!(c["status"], "fail");
    assert!(
        c["advice"].as_str().unwrap().contains("replace the drive"),
        "{c}"
    );
    // The inventory's glance and Attention say it.
    let (_, out, _) = run(&["--sysroot", copy.path().to_str().unwrap(), "-s", "glance"]);
    assert!(
        out.contains("Health     drives FAIL · memory fine"),
        "{out}"
    );
    assert!(
        out.contains("Attention  nvme0n1: critical warning (reliability degraded by media errors); back up its data now and replace the drive"),
        "{out}"
    );
}

#[test]
fn an_uncorrected_memory_error_fails_verify_and_preflight_a_corrected_one_only_warns() {
    let ue = reference_copy();
    edac(ue.path(), "mc1", "ue_count", 1);
    edac(ue.path(), "mc1", "dimm2/dimm_ue_count", 1);
    let (code, r) = verify(ue.path(), PROFILE);
    assert_eq!(code, 1, "{r:#}");
    let l = line(&r, "health.new");
    assert_eq!(
        l["found"],
        "memory: 1 uncorrected error on CPU_SrcID#0_MC#1_Chan#1_DIMM#0"
    );
    assert_eq!(l["note"], "fails on memory");
    let (code, p) = preflight(ue.path());
    assert_eq!(code, 1, "{p:#}");
    let c = check(&p, "health.memory", None);
    assert_eq!(c["status"], "fail");
    assert_eq!(
        c["found"],
        "1 uncorrected error on CPU_SrcID#0_MC#1_Chan#1_DIMM#0"
    );

    let ce = reference_copy();
    edac(ce.path(), "mc0", "ce_count", 5);
    let (code, r) = verify(ce.path(), PROFILE);
    assert_eq!(code, 0, "{r:#}");
    let l = line(&r, "health.new");
    assert_eq!(l["status"], "pass");
    assert_eq!(
        l["note"],
        "warn (fails nothing): memory: 5 corrected errors on mc0"
    );
    let (code, p) = preflight(ce.path());
    assert_eq!(code, 0, "{p:#}");
    let c = check(&p, "health.memory", None);
    assert_eq!(c["status"], "warn");
    assert!(c["advice"]
        .as_str()
        .unwrap()
        .contains("replace it if the count grows"));
    // An order that asks for no corrected errors at all fails on them.
    let strict = ce.path().join("strict.toml");
    fs::write(&strict, "[health]\nmemory_corrected_errors = 0\n").unwrap();
    let (code, r) = verify(ce.path(), strict.to_str().unwrap());
    assert_eq!(code, 1, "{r:#}");
    assert_eq!(line(&r, "health.memory_corrected_errors")["found"], "5");
}

#[test]
fn a_fatal_aer_error_on_a_gpu_link_fails_naming_the_gpu() {
    let copy = reference_copy();
    gpu1_fatal_aer(copy.path());
    let (code, r) = verify(copy.path(), PROFILE);
    assert_eq!(code, 1, "{r:#}");
    let l = line(&r, "health.new");
    assert_eq!(l["found"], "GPU 1 link: 1 fatal PCIe error at 0000:af:00.0");
    assert_eq!(l["note"], "fails on GPU 1 link");
    let rep = report(copy.path());
    let p = rep["health"]["pcie"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["address"] == "0000:af:00.0")
        .unwrap();
    assert_eq!(p["fatal"], 1);
    assert_eq!(p["of"], "GPU 1");
    assert_eq!(p["link"], "2.5 GT/s x16");
    let (code, pf) = preflight(copy.path());
    assert_eq!(code, 1);
    assert_eq!(check(&pf, "health.pcie", None)["status"], "fail");
}

#[test]
fn without_logs_or_edac_health_is_unknown_and_only_an_order_asking_for_it_is_incomplete() {
    let copy = reference_copy();
    fs::remove_dir_all(copy.path().join("smart")).unwrap();
    fs::remove_dir_all(copy.path().join("sys/devices/system/edac")).unwrap();
    let rep = report(copy.path());
    let h = &rep["health"];
    assert_eq!(h["drives"][0]["power_on_hours"], Value::Null);
    assert_eq!(h["drives"][0]["source"], Value::Null);
    assert_eq!(h["memory"]["uncorrected_errors"], Value::Null);
    assert_eq!(h["lists"]["drives"], "unreadable");
    assert_eq!(h["lists"]["memory"], "unreadable");
    assert_note(
        &rep,
        "health.drives[0]",
        "not recorded in this sysroot: smart/nvme0.bin",
    );
    assert_note(
        &rep,
        "health.memory",
        "no EDAC driver loaded for this memory controller",
    );
    assert_note(&rep, "health.memory", "skx_edac");
    // The order asks for health: INCOMPLETE, the line naming each part and why.
    let (code, r) = verify(copy.path(), PROFILE);
    assert_eq!(code, 3, "{r:#}");
    let l = line(&r, "health.new");
    assert_eq!(l["status"], "unknown");
    assert!(
        l["found"]
            .as_str()
            .unwrap()
            .starts_with("nvme0n1, nvme1n1, memory: unknown"),
        "{l}"
    );
    assert!(
        l["note"]
            .as_str()
            .unwrap()
            .contains("memory: no EDAC driver"),
        "{l}"
    );
    // The same order without [health]: health decides nothing.
    let text = common::run(&["profiles", "show", PROFILE]).1;
    let cut = text.find("[health]").unwrap();
    let order = copy.path().join("no-health.toml");
    fs::write(&order, &text[..cut]).unwrap();
    let (code, r) = verify(copy.path(), order.to_str().unwrap());
    assert_eq!(code, 0, "{r:#}");
    // Preflight is not held up by what it could not read: listed, not judged.
    let (code, p) = preflight(copy.path());
    assert_eq!(code, 0, "{p:#}");
    let c = check(&p, "health.memory", None);
    assert_eq!(c["status"], Value::Null);
    assert!(c["advice"].as_str().unwrap().contains("no EDAC driver"));
}

#[test]
fn a_short_blank_or_damaged_log_is_a_note_never_a_number() {
    for (name, bytes, why) in [
        (
            "short",
            vec![1u8; 100],
            "the log is 100 bytes where the SMART / Health Information page has 512",
        ),
        (
            "blank",
            vec![0xff; 512],
            "every byte of the log is 0xff: the controller returned no data",
        ),
        ("zeros", vec![0; 512], "every byte of the log is 0x00"),
    ] {
        let copy = reference_copy();
        fs::write(copy.path().join("smart/nvme0.bin"), &bytes).unwrap();
        let rep = report(copy.path());
        let d = &rep["health"]["drives"][0];
        for f in [
            "power_on_hours",
            "percentage_used",
            "critical_warning",
            "media_errors",
        ] {
            assert_eq!(d[f], Value::Null, "{name} {f}");
        }
        assert_note(&rep, "health.drives[0]", why);
        assert_eq!(rep["health"]["lists"]["drives"], "partial", "{name}");
        let (code, r) = verify(copy.path(), PROFILE);
        assert_eq!(code, 3, "{name}: {r:#}");
    }
}

#[test]
fn a_capture_made_without_root_replays_as_needing_root() {
    let copy = reference_copy();
    fs::remove_dir_all(copy.path().join("smart")).unwrap();
    // What `capture` writes when the drives refused a user: their logs listed as root's.
    let meta = copy.path().join("capture.json");
    let mut m: Value = serde_json::from_str(&fs::read_to_string(&meta).unwrap()).unwrap();
    m["unreadable"] = serde_json::json!(["/smart/nvme0.bin", "/smart/nvme1.bin"]);
    fs::write(&meta, m.to_string()).unwrap();
    let rep = report(copy.path());
    assert_note(
        &rep,
        "health.drives[0]",
        "needs root: the capture was made without root",
    );
    assert_eq!(rep["health"]["drives"][0]["power_on_hours"], Value::Null);
}

#[test]
fn garbage_in_edac_and_aer_files_is_a_note() {
    let copy = reference_copy();
    fs::write(
        copy.path().join("sys/devices/system/edac/mc/mc2/ue_count"),
        "lots\n",
    )
    .unwrap();
    fs::write(
        copy.path()
            .join("sys/devices/pci0000:16/0000:16:00.0/aer_dev_fatal"),
        "Undefined 0\nDLP x\n",
    )
    .unwrap();
    let rep = report(copy.path());
    assert_eq!(rep["health"]["memory"]["uncorrected_errors"], Value::Null);
    assert_eq!(
        rep["health"]["memory"]["controllers"][2]["uncorrected_errors"],
        Value::Null
    );
    assert_eq!(rep["health"]["lists"]["memory"], "partial");
    assert_note(&rep, "health.memory", "'lots' is not a count");
    assert_note(&rep, "health.pcie[1]", "no TOTAL_ERR_ line");
    let (code, r) = verify(copy.path(), PROFILE);
    assert_eq!(code, 3, "{r:#}");
}

#[test]
fn fleet_names_the_host_whose_health_fails_and_diff_says_which_counters_grew() {
    let dir = tempfile::tempdir().unwrap();
    let good = reference_copy();
    let bad = reference_copy();
    edac(bad.path(), "mc3", "ue_count", 2);
    let media = bad.path().join("smart/nvme1.bin");
    let mut b = fs::read(&media).unwrap();
    b[160] = 3;
    fs::write(&media, b).unwrap();
    for (name, root) in [("good", good.path()), ("bad", bad.path())] {
        let (code, out, err) = run(&["--sysroot", root.to_str().unwrap(), "-f", "json"]);
        assert_eq!(code, 0, "{err}");
        let out = out.replace(
            "\"hostname\": \"z8-ref\"",
            &format!("\"hostname\": \"z8-{name}\""),
        );
        fs::write(dir.path().join(format!("{name}.json")), out).unwrap();
    }
    let (code, out, _) = run(&["fleet", dir.path().to_str().unwrap()]);
    assert_eq!(code, 1, "{out}");
    assert!(out.starts_with("FAIL: health fails: z8-bad"), "{out}");
    assert!(out.contains("fail (nvme1n1, memory)"), "{out}");
    let (_, js, _) = run(&["fleet", dir.path().to_str().unwrap(), "-f", "json"]);
    let v: Value = serde_json::from_str(&js).unwrap();
    let host = |n: &str| {
        v["hosts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["host"] == n)
            .unwrap()
            .clone()
    };
    assert_eq!(host("z8-good")["health"]["word"], "fine");
    assert_eq!(host("z8-bad")["health"]["word"], "fail");

    let (code, out, _) = run(&[
        "diff",
        dir.path().join("good.json").to_str().unwrap(),
        dir.path().join("bad.json").to_str().unwrap(),
        "-f",
        "json",
    ]);
    let d: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(code, 0, "counters growing change no hardware: {d:#}");
    let grew: Vec<(String, String, String, String)> = d["changes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["class"] == "health")
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap().to_string();
            (s("what"), s("at"), s("before"), s("after"))
        })
        .collect();
    assert_eq!(
        grew,
        [
            (
                "drive media errors grew".to_string(),
                "nvme1n1".to_string(),
                "0".to_string(),
                "3".to_string()
            ),
            (
                "uncorrected memory errors grew".into(),
                "mc3".into(),
                "0".into(),
                "2".into()
            ),
        ]
    );
    assert_eq!(d["summary"]["health_changes"], 2);
}

#[test]
fn prometheus_carries_the_counters_as_counters() {
    let copy = reference_copy();
    edac(copy.path(), "mc0", "ce_count", 5);
    let (code, out, _) = run(&[
        "--sysroot",
        copy.path().to_str().unwrap(),
        "-f",
        "prometheus",
    ]);
    assert_eq!(code, 0);
    for want in [
        "# TYPE rigcheck_memory_errors_total counter",
        "rigcheck_memory_errors_total{controller=\"mc0\",type=\"corrected\"} 5",
        "# TYPE rigcheck_drive_power_on_seconds_total counter",
        "rigcheck_drive_power_on_seconds_total{drive=\"nvme0n1\"} 43200",
        "rigcheck_drive_endurance_used_ratio{drive=\"nvme0n1\"} 0.01",
        "rigcheck_pcie_aer_errors_total{pci_address=\"0000:16:00.0\",of=\"GPU 0\",port=\"true\",severity=\"fatal\"} 0",
        "rigcheck_cpu_throttle_events_total{package=\"1\",kind=\"core\"} 0",
        "rigcheck_gpu_pcie_replays_total{gpu=\"0\",pci_address=\"0000:17:00.0\"} 0",
    ] {
        assert!(out.contains(want), "no '{want}' in:\n{out}");
    }
    // A gauge is never named _total: every _total family is a counter.
    for l in out.lines().filter(|l| l.starts_with("# TYPE")) {
        assert_eq!(l.ends_with(" counter"), l.contains("_total "), "{l}");
    }
}

#[test]
fn the_sheet_lists_health_with_the_date_it_was_read() {
    let (code, out, err) = run(&[
        "sheet",
        "--sysroot",
        common::REFERENCE,
        "-o",
        "-",
        "-f",
        "markdown",
    ]);
    assert_eq!(code, 0, "{err}");
    let at = out.find("## Health").expect("a Health section");
    let sec = &out[at..];
    assert!(sec.contains("| Read | 2026-11-02T09:00:00Z |"), "{sec}");
    assert!(
        sec.contains("| nvme0n1 | NVMe log | none | 1 % | 12 h |"),
        "{sec}"
    );
    assert!(
        sec.contains(
            "| Memory errors | 0 corrected, 0 uncorrected (EDAC, 4 controllers, since boot) |"
        ),
        "{sec}"
    );
}

#[test]
fn a_real_worn_drive_in_the_reference_fails_new_but_passes_no_errors() {
    // The real Intel DC P3700 log: 41,951 hours, 5 % used, no error: used, not broken.
    let copy = reference_copy();
    fs::copy(
        "fixtures/smart-logs/nvme-intel-p3700-41951h.bin",
        copy.path().join("smart/nvme1.bin"),
    )
    .unwrap();
    let (code, r) = verify(copy.path(), PROFILE);
    assert_eq!(code, 1);
    assert_eq!(
        line(&r, "health.new")["found"],
        "nvme1n1: 41951 power-on hours, 5 % used"
    );
    let order = copy.path().join("no-errors.toml");
    fs::write(
        &order,
        "[health]\nno_errors = true\ndrive_power_on_hours = { at_most = 50000 }\n",
    )
    .unwrap();
    let (code, r) = verify(copy.path(), order.to_str().unwrap());
    assert_eq!(code, 0, "{r:#}");
    assert_eq!(
        line(&r, "health.drive_power_on_hours")["found"],
        "nvme0n1 12, nvme1n1 41951"
    );
    // The real Samsung log with 7 media errors fails both.
    fs::copy(
        "fixtures/smart-logs/nvme-samsung-970-evo-media-errors.bin",
        copy.path().join("smart/nvme1.bin"),
    )
    .unwrap();
    let (code, r) = verify(copy.path(), order.to_str().unwrap());
    assert_eq!(code, 1, "{r:#}");
    assert_eq!(
        line(&r, "health.no_errors")["found"],
        "nvme1n1: 7 media and data integrity errors"
    );
}

#[test]
fn health_false_and_other_bad_health_keys_are_refused_with_their_place() {
    let dir = tempfile::tempdir().unwrap();
    for (text, want) in [
        (
            "[health]\nnew = false\n",
            "p.toml:2:7: new = false asks nothing",
        ),
        (
            "[health]\nnew = \"yes\"\n",
            "p.toml:2:7: new: expected true, found string",
        ),
        (
            "[health]\nnew_drive = true\n",
            "p.toml:2:1: unknown field `new_drive`",
        ),
    ] {
        let p = dir.path().join("p.toml");
        fs::write(&p, text).unwrap();
        let (code, _, err) = run(&[
            "verify",
            "-p",
            p.to_str().unwrap(),
            "--sysroot",
            common::REFERENCE,
        ]);
        assert_eq!(code, 2, "{text}");
        assert!(err.contains(want), "{text}: {err}");
    }
}
