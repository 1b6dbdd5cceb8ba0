//! `fleet` groups machines by what their reports know: hosts of one hardware whose reports
//! each leave a few facts unknown are one configuration, and hosts are measured against the
//! report that knows the most, never the one that knows least (a complete report carries more
//! notes on where its figures come from than one that could read little).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fleet_support;

use assert_cmd::Command;
use fleet_support::*;
use rigcheck::spec::{ListState, Note, Spec};
use serde_json::Value;

fn fleet_json(dir: &std::path::Path) -> Value {
    let out = Command::cargo_bin("rigcheck")
        .unwrap()
        .args(["fleet", "-f", "json"])
        .arg(dir)
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

fn note(s: &mut Spec, field: &str, reason: &str) {
    s.notes.push(Note {
        field: field.into(),
        reason: reason.into(),
    });
}

/// The reference machine as read without root: no DIMM list, MemTotal for the total.
fn without_dimms(host: &str) -> Spec {
    let mut s = reference_spec(host);
    s.memory.dimms.clear();
    s.memory.dimm_source = None;
    s.memory.slot_count = None;
    s.memory.total_bytes = s.memory.usable_bytes;
    s.memory.total_source = Some("meminfo".into());
    s.lists.dimms = ListState::Unreadable;
    note(&mut s, "memory.dimms", "SMBIOS tables need root");
    s
}

/// The reference machine with the figures NVML gives and the notes on where they come from
/// (one per GPU and figure), as a report read with the driver has them.
fn with_source_notes(host: &str) -> Spec {
    let mut s = reference_spec(host);
    for i in 0..2 {
        for f in [
            "fp32_tflops_max_clock",
            "fp16_tensor_tflops",
            "memory_bandwidth_bytes_per_s",
        ] {
            note(
                &mut s,
                &format!("gpus[{i}].{f}"),
                "at NVML's max SM clock 1770 MHz",
            );
        }
    }
    s
}

#[test]
fn five_hosts_of_one_hardware_with_a_few_unknowns_are_one_configuration() {
    let dir = tempfile::tempdir().unwrap();
    // Each report leaves something else unknown; only z8-05 knows everything.
    write_report(dir.path(), "z8-01.json", &without_dimms("z8-01"));
    let mut s = reference_spec("z8-02");
    s.drives[0].model = None;
    write_report(dir.path(), "z8-02.json", &s);
    let mut s = reference_spec("z8-03");
    s.system.bios_version = None;
    write_report(dir.path(), "z8-03.json", &s);
    let mut s = reference_spec("z8-04");
    s.gpus[1].vram_bytes = None;
    write_report(dir.path(), "z8-04.json", &s);
    write_report(dir.path(), "z8-05.json", &with_source_notes("z8-05"));
    let v = fleet_json(dir.path());
    assert_eq!(v["configurations"].as_array().unwrap().len(), 1, "{v:#}");
    assert_eq!(v["summary"]["majority_hosts"], 5);
    assert_eq!(v["odd_ones_out"], serde_json::json!([]));
    // Measured against the report that knows everything, the others are partly unknown.
    assert_eq!(v["configurations"][0]["example"], "z8-05");
    let partly = hosts_in(&v, "partly_unknown");
    assert_eq!(partly, ["z8-01", "z8-02", "z8-03", "z8-04"]);
    // A known difference still splits: a sixth host with another BIOS is an odd one out.
    write_report(dir.path(), "z8-06.json", &other_bios("z8-06"));
    let v = fleet_json(dir.path());
    assert_eq!(v["configurations"].as_array().unwrap().len(), 2, "{v:#}");
    assert_eq!(v["odd_ones_out"][0]["host"], "z8-06");
}

#[test]
fn on_a_tie_the_report_that_knows_the_most_is_the_reference() {
    let dir = tempfile::tempdir().unwrap();
    // Two hosts each way. The a- hosts were read without root and carry one note each; the
    // b- hosts were read whole, with the driver, and carry six notes on their figures'
    // sources: counting notes took an a- host for the reference.
    for h in ["a-01", "a-02"] {
        let mut s = without_dimms(h);
        s.system.bios_version = Some("P60 v02.62".into());
        write_report(dir.path(), &format!("{h}.json"), &s);
    }
    for h in ["b-01", "b-02"] {
        write_report(dir.path(), &format!("{h}.json"), &with_source_notes(h));
    }
    let v = fleet_json(dir.path());
    assert_eq!(v["summary"]["tie"], true, "{v:#}");
    assert_eq!(v["configurations"][0]["example"], "b-01");
    let odd = hosts_in(&v, "odd_ones_out");
    assert_eq!(odd, ["a-01", "a-02"]);
}
