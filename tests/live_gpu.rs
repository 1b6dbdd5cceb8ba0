//! The live GPU path run in CI: rigcheck loads NVML (nvml-wrapper, dlopen) as on a GPU host,
//! and finds the NVML double (tests/doubles/nvml), which answers from a GPU fixture's
//! nvml.json. Everything else is this machine, live.
//!
//! What is compared with the replay of the same capture (`--sysroot`):
//! - against a sysroot of the capture's nvml.json and a PCI tree without NVIDIA devices (what
//!   the live probe sees here): the whole GPU list and every note on it, but `socket` (this
//!   machine's CPU sockets, which that sysroot has none of);
//! - against the fixture itself: every field but the PCI-tree facts this machine cannot have
//!   (`numa_node`, `local_cpus`, `socket`, `pcie.device_max_gen`, `pcie.device_max_width`, and
//!   the note on a link narrower than the card, which compares with the card's own width from
//!   sysfs); where the capture has no PCI ids from NVML (the RTX 3090's are redacted), only
//!   what NVML answers (`NVML_FIELDS`), since the board is then identified by sysfs alone.
//!
//! A call the capture did not record is answered NVML_ERROR_NO_DATA by the double, and
//! replay says "not recorded": the one note that differs by design.
#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use common::assert_note;
use common::doubles::{
    self, diff, generic, live, live_report, notes, nvml_json, replay_report, Libs, Nvml,
    GPU_FIXTURES,
};
use rigcheck::probe::gpu::access::CallError;
use serde_json::{json, Value};

/// Facts of the PCI tree (sysfs), which this machine has none of for these GPUs.
const PCI_TREE: [&str; 5] = [
    "gpus[*].numa_node",
    "gpus[*].local_cpus",
    "gpus[*].socket",
    "gpus[*].pcie.device_max_gen",
    "gpus[*].pcie.device_max_width",
];

/// What NVML answers (with what is computed from those answers alone).
const NVML_FIELDS: [&str; 25] = [
    "gpus[*].index",
    "gpus[*].pci_address",
    "gpus[*].name",
    "gpus[*].brand",
    "gpus[*].uuid",
    "gpus[*].serial",
    "gpus[*].board_part_number",
    "gpus[*].vbios_version",
    "gpus[*].architecture",
    "gpus[*].compute_capability",
    "gpus[*].cuda_cores",
    "gpus[*].vram_bytes",
    "gpus[*].memory_bus_width_bits",
    "gpus[*].max_sm_clock_mhz",
    "gpus[*].max_memory_clock_mhz",
    "gpus[*].max_customer_boost_clock_mhz",
    "gpus[*].mig_enabled",
    "gpus[*].mig_instances",
    "gpus[*].driver_version",
    "gpus[*].cuda_version",
    "gpus[*].state",
    "gpus[*].pcie.gen",
    "gpus[*].pcie.width",
    "gpus[*].pcie.max_gen",
    "gpus[*].pcie.max_width",
];

fn under(path: &str, fields: &[&str]) -> bool {
    let g = generic(path);
    fields
        .iter()
        .any(|f| g == *f || g.starts_with(&format!("{f}.")) || g.starts_with(&format!("{f}[")))
}

/// Replay's note for a call nvml.json lacks, and what the live probe says instead (the
/// double answers NVML_ERROR_NO_DATA, which nvml-wrapper names `NoData`).
fn live_wording(mut n: BTreeMap<(String, String), usize>) -> BTreeMap<(String, String), usize> {
    let not_recorded = CallError::code("NotRecorded").reason();
    let no_data = CallError {
        code: "NoData".into(),
        detail: Some(nvml_wrapper::error::NvmlError::NoData.to_string()),
    }
    .reason();
    let keys: Vec<_> = n
        .keys()
        .filter(|(_, r)| *r == not_recorded)
        .cloned()
        .collect();
    for k in keys {
        let count = n.remove(&k).unwrap();
        *n.entry((k.0, no_data.clone())).or_insert(0) += count;
    }
    n
}

fn gpus_diff(a: &Value, b: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    diff(&a["gpus"], &b["gpus"], "gpus", &mut out);
    out
}

fn has_nvml_ids(fixture: &str) -> bool {
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(nvml_json(fixture)).unwrap()).unwrap();
    v["devices"]
        .as_array()
        .unwrap()
        .iter()
        .all(|d| d["pci_device_ids"]["ok"].is_object())
}

#[test]
fn live_inventory_equals_the_replay_of_the_same_capture() {
    let libs = Libs::nvml();
    for fx in GPU_FIXTURES {
        let live = live_report(&libs, &nvml_json(fx), &[]);
        let recorded: Value =
            serde_json::from_str(&std::fs::read_to_string(nvml_json(fx)).unwrap()).unwrap();
        let gpus = live["gpus"].as_array().unwrap();
        assert_eq!(
            gpus.len(),
            recorded["devices"].as_array().unwrap().len(),
            "{fx}: live lists {} GPUs",
            gpus.len()
        );
        for (i, g) in gpus.iter().enumerate() {
            assert_eq!(g["index"], json!(i), "{fx}: GPU {i}");
            assert!(g["name"].is_string(), "{fx}: GPU {i} has no name");
        }

        // The same answers without a PCI tree: everything equal but the host's sockets.
        let bare = doubles::nvml_only(&nvml_json(fx));
        let replay = replay_report(bare.path(), &["-f", "json"]);
        let differs: Vec<_> = gpus_diff(&live, &replay)
            .into_iter()
            .filter(|(p, _)| generic(p) != "gpus[*].socket")
            .collect();
        assert!(
            differs.is_empty(),
            "{fx}: live and replay differ: {differs:#?}"
        );
        assert_eq!(
            notes(&live, "gpus"),
            live_wording(notes(&replay, "gpus")),
            "{fx}: notes on the GPUs"
        );

        // The fixture itself: all but the PCI-tree facts.
        let full = replay_report(&common::fixture(fx), &["-f", "json"]);
        let ids = has_nvml_ids(fx);
        let differs: Vec<_> = gpus_diff(&live, &full)
            .into_iter()
            .filter(|(p, _)| !under(p, &PCI_TREE) && (ids || under(p, &NVML_FIELDS)))
            .collect();
        assert!(
            differs.is_empty(),
            "{fx}: live and the fixture's replay differ: {differs:#?}"
        );
        let comparable = |n: BTreeMap<(String, String), usize>| -> BTreeMap<_, _> {
            n.into_iter()
                .filter(|((f, r), _)| {
                    let narrow_link = (f.ends_with(".pcie.max_width")
                        || f.ends_with(".pcie.max_gen"))
                        && r.starts_with("link ");
                    !narrow_link && !under(f, &PCI_TREE) && (ids || under(f, &NVML_FIELDS))
                })
                .collect()
        };
        assert_eq!(
            comparable(notes(&live, "gpus")),
            comparable(live_wording(notes(&full, "gpus"))),
            "{fx}: notes on the GPUs against the fixture's replay"
        );
    }
}

/// One recorded answer as the capture compares it: the value, or the error code (the
/// library's message aside, which a converted capture does not have).
fn answer(stored: &Value) -> Value {
    match stored.get("ok") {
        Some(v) => json!({ "ok": v }),
        None => json!({ "err": stored["err"] }),
    }
}

/// A MIG device list with the keys a capture left out as null (how the live probe records a
/// MIG device query that gave nothing).
fn with_nulls(list: &Value, keys: &BTreeSet<String>) -> Value {
    Value::Array(
        list.as_array()
            .unwrap()
            .iter()
            .map(|m| {
                let mut m = m.as_object().unwrap().clone();
                for k in keys {
                    m.entry(k.clone()).or_insert(Value::Null);
                }
                Value::Object(m)
            })
            .collect(),
    )
}

#[test]
fn capture_through_the_double_records_what_it_serves() {
    let libs = Libs::nvml();
    for fx in GPU_FIXTURES {
        let served: Value =
            serde_json::from_str(&std::fs::read_to_string(nvml_json(fx)).unwrap()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("cap");
        let (code, _, err) = live(
            &libs,
            &nvml_json(fx),
            &[],
            &["capture", out.to_str().unwrap()],
        );
        assert_eq!(code, 0, "{fx}: capture failed: {err}");
        let captured: Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("nvml.json")).unwrap()).unwrap();
        assert_eq!(captured["format"], served["format"], "{fx}");
        assert_eq!(answer(&captured["init"]), json!({"ok": null}), "{fx}: init");
        for (call, a) in served["system"].as_object().unwrap() {
            assert_eq!(
                answer(&captured["system"][call]),
                answer(a),
                "{fx}: system.{call}"
            );
        }
        let (cd, sd) = (
            captured["devices"].as_array().unwrap(),
            served["devices"].as_array().unwrap(),
        );
        assert_eq!(cd.len(), sd.len(), "{fx}: devices");
        let no_data = json!({"err": "NoData"});
        for (i, (c, s)) in cd.iter().zip(sd).enumerate() {
            let (c, s) = (c.as_object().unwrap(), s.as_object().unwrap());
            for (call, a) in s {
                let got = c.get(call).unwrap_or_else(|| {
                    panic!("{fx}: devices[{i}].{call} was served but not asked")
                });
                if call == "mig_devices" && a.get("ok").is_some() {
                    let keys: BTreeSet<String> = got["ok"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .flat_map(|m| m.as_object().unwrap().keys().cloned())
                        .collect();
                    assert_eq!(
                        got["ok"],
                        with_nulls(&a["ok"], &keys),
                        "{fx}: devices[{i}].mig_devices"
                    );
                } else {
                    assert_eq!(answer(got), answer(a), "{fx}: devices[{i}].{call}");
                }
            }
            // Asked but not in the capture: the double's NO_DATA, or for the PCI ids a
            // capture left out, NVML's bus address with ids of 0.
            for (call, a) in c.iter().filter(|(k, _)| !s.contains_key(*k)) {
                let ids_unknown = call == "pci_device_ids"
                    && answer(a) == json!({"ok": {"device": 0, "subsystem": 0}});
                assert!(
                    answer(a) == no_data || ids_unknown,
                    "{fx}: devices[{i}].{call} asked, not served, recorded as {a}"
                );
            }
        }
        // And the capture replays as the live run reported.
        let report: Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("report.json")).unwrap())
                .unwrap();
        let replay = replay_report(&out, &["-f", "json"]);
        let differs = gpus_diff(&report, &replay);
        assert!(
            differs.is_empty(),
            "{fx}: capture replays differently: {differs:#?}"
        );
        assert_eq!(
            notes(&report, "gpus"),
            notes(&replay, "gpus"),
            "{fx}: notes"
        );
    }
}

/// (check, subject, status, found) of every GPU check of a preflight report.
fn gpu_lines(report: &Value) -> Vec<(String, String, String, String)> {
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["id"].as_str().unwrap().starts_with("gpu."))
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap_or("").to_string();
            (s("id"), s("subject"), s("status"), s("found"))
        })
        .collect()
}

#[test]
fn live_preflight_fails_the_lines_replay_fails() {
    let libs = Libs::nvml();
    // Each capture's own failures, so the comparison cannot pass by failing nothing.
    let expected: [(&str, &[&str]); 4] = [
        ("gpu-busy", &["gpu.processes GPU 0"]),
        (
            "gpu-hot-throttling",
            &["gpu.temperature GPU 0", "gpu.throttle GPU 0"],
        ),
        ("gpu-ecc-errors", &["gpu.ecc GPU 0"]),
        ("gpu-degraded-x8", &[]),
    ];
    for (fx, fails) in expected {
        let (_, out, err) = live(&libs, &nvml_json(fx), &[], &["preflight", "-f", "json"]);
        let live: Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{fx}: {e}: {err}"));
        let bare = doubles::nvml_only(&nvml_json(fx));
        let bare = replay_report(bare.path(), &["preflight", "-f", "json"]);
        let full = replay_report(&common::fixture(fx), &["preflight", "-f", "json"]);
        let failed = |r: &Value| -> Vec<String> {
            gpu_lines(r)
                .into_iter()
                .filter(|l| l.2 == "fail")
                .map(|l| format!("{} {}", l.0, l.1))
                .collect()
        };
        assert_eq!(failed(&live), fails, "{fx}: live fails");
        assert_eq!(failed(&full), fails, "{fx}: replay fails");
        assert_eq!(gpu_lines(&live), gpu_lines(&bare), "{fx}: GPU checks");
        // Against the fixture, only the x8 link differs: its replay knows from sysfs that
        // the card is x16, and NVML's max width is the slot's.
        for (l, r) in gpu_lines(&live).iter().zip(gpu_lines(&full)) {
            if fx == "gpu-degraded-x8" && l.0 == "gpu.pcie" && l.1 == "GPU 1" {
                assert_eq!((l.2.as_str(), r.2.as_str()), ("pass", "warn"), "{fx}");
                continue;
            }
            assert_eq!(*l, r, "{fx}");
        }
    }
}

// ---- Failures ----

/// The parts of a report that do not come from the GPU probe (the PCIe links' health is read
/// for the GPUs found, so its notes go with them).
fn rest(report: &Value) -> Value {
    let mut notes: Vec<&Value> = report["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| {
            let f = n["field"].as_str().unwrap();
            !f.starts_with("gpus") && !f.starts_with("headroom") && !f.starts_with("health.pcie")
        })
        .collect();
    notes.sort_by_key(|n| n.to_string());
    json!({
        "system": report["system"], "os": report["os"], "cpu": report["cpu"],
        "memory": report["memory"], "drives": report["drives"], "notes": notes,
    })
}

/// Entry points a run used, in the order first called (`RIGCHECK_NVML_DOUBLE_LOG`).
fn entry_points(libs: &Libs, json: &Path) -> Vec<String> {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("calls");
    live_report(
        libs,
        json,
        &[("RIGCHECK_NVML_DOUBLE_LOG", log.to_str().unwrap())],
    );
    let mut seen = Vec::new();
    for l in std::fs::read_to_string(&log).unwrap().lines() {
        if !seen.iter().any(|s| s == l) {
            seen.push(l.to_string());
        }
    }
    seen
}

/// Every NVML entry point the inventory calls (nvml-wrapper's versioned names).
const PROBE_ENTRY_POINTS: [&str; 45] = [
    "nvmlDeviceGetArchitecture",
    "nvmlDeviceGetAttributes_v2",
    "nvmlDeviceGetBoardPartNumber",
    "nvmlDeviceGetBrand",
    "nvmlDeviceGetComputeInstanceId",
    "nvmlDeviceGetComputeRunningProcesses_v3",
    "nvmlDeviceGetCount_v2",
    "nvmlDeviceGetCudaComputeCapability",
    "nvmlDeviceGetCurrPcieLinkGeneration",
    "nvmlDeviceGetCurrPcieLinkWidth",
    "nvmlDeviceGetCurrentClocksThrottleReasons",
    "nvmlDeviceGetEccMode",
    "nvmlDeviceGetEnforcedPowerLimit",
    "nvmlDeviceGetFanSpeed_v2",
    "nvmlDeviceGetGpuInstanceId",
    "nvmlDeviceGetHandleByIndex_v2",
    "nvmlDeviceGetMaxClockInfo",
    "nvmlDeviceGetMaxCustomerBoostClock",
    "nvmlDeviceGetMaxMigDeviceCount",
    "nvmlDeviceGetMaxPcieLinkGeneration",
    "nvmlDeviceGetMaxPcieLinkWidth",
    "nvmlDeviceGetMemoryBusWidth",
    "nvmlDeviceGetMemoryInfo_v2",
    "nvmlDeviceGetMigDeviceHandleByIndex",
    "nvmlDeviceGetMigMode",
    "nvmlDeviceGetName",
    "nvmlDeviceGetNumGpuCores",
    "nvmlDeviceGetPciInfo_v3",
    "nvmlDeviceGetPcieReplayCounter",
    "nvmlDeviceGetPersistenceMode",
    "nvmlDeviceGetPowerUsage",
    "nvmlDeviceGetRemappedRows",
    "nvmlDeviceGetRetiredPages",
    "nvmlDeviceGetRetiredPagesPendingStatus",
    "nvmlDeviceGetSerial",
    "nvmlDeviceGetTemperature",
    "nvmlDeviceGetTotalEccErrors",
    "nvmlDeviceGetUUID",
    "nvmlDeviceGetUtilizationRates",
    "nvmlDeviceGetVbiosVersion",
    "nvmlDeviceGetViolationStatus",
    "nvmlInit_v2",
    "nvmlShutdown",
    "nvmlSystemGetCudaDriverVersion_v2",
    "nvmlSystemGetDriverVersion",
];

/// Entry points whose NotSupported is, by design, an answer rather than a gap: MIG mode
/// (MIG off), the architecture (then derived from the compute capability), the max customer
/// boost clock (a fallback only, N/A on every GeForce) and shutdown (after the report).
const NOT_SUPPORTED_MEANS_SOMETHING: [&str; 4] = [
    "nvmlDeviceGetMigMode",
    "nvmlDeviceGetArchitecture",
    "nvmlDeviceGetMaxCustomerBoostClock",
    "nvmlShutdown",
];

/// Facts read with another one, or computed from others: a gap in one is accounted for by
/// the note on the fact it comes from (one note per failed NVML call, on the field that call
/// is about). Keys are prefixes of a GPU's field path.
const FAMILIES: [(&str, &[&str]); 15] = [
    ("state.memory_used_bytes", &["vram_bytes"]),
    (
        "state.memory_utilization_percent",
        &["state.utilization_percent"],
    ),
    ("state.ecc_errors_", &["state.ecc_enabled"]),
    ("state.retired_pages_", &["state.ecc_enabled"]),
    // The four answers of one call: the note sits on the failure flag (or, with ECC
    // unknown, on ECC: the rows are not asked).
    (
        "state.remapped_rows_",
        &["state.remapped_rows_failure", "state.ecc_enabled"],
    ),
    ("tensor_core", &["sm_count", "cuda_cores"]),
    // Rated at the datasheet's clock, which needs the board identified by its PCI ids.
    (
        "fp32_tflops",
        &["sm_count", "cuda_cores", "max_sm_clock_mhz", "pci_address"],
    ),
    (
        "fp16_tensor",
        &["sm_count", "cuda_cores", "max_sm_clock_mhz", "pci_address"],
    ),
    ("rated_", &["sm_count", "pci_address"]),
    ("sm_count", &["cuda_cores"]),
    (
        "memory_bandwidth",
        &["memory_bus_width_bits", "max_memory_clock_mhz"],
    ),
    ("datasheet", &["pci_address"]),
    // The VRAM check allows for what ECC takes of a GDDR board's memory.
    ("datasheet_mismatches", &["state.ecc_enabled"]),
    ("pci_device_id", &["pci_address"]),
    // Who the board is follows from NVML's name and the PCI ids.
    ("identity", &["name", "pci_address"]),
];

/// Whether a changed leaf of a GPU is accounted for by a note: on that field, on one it is
/// part of, or on the fact it comes from (`FAMILIES`; `fact_sources.X` comes from X).
fn explained(path: &str, report: &Value) -> bool {
    let fields: Vec<&str> = report["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["field"].as_str().unwrap())
        .collect();
    let Some((gpu, rel)) = path.split_once("].") else {
        return false;
    };
    let rel = rel.strip_prefix("fact_sources.").unwrap_or(rel);
    // Optional by design: only a fallback for boards the product table has no clock for,
    // and N/A on every GeForce, so the probe notes no gap in it.
    if rel == "max_customer_boost_clock_mhz" {
        return true;
    }
    let mut from = vec![rel];
    // A MIG instance's cores and peaks come from the GPU's facts of the same name.
    if let Some((_, inner)) = rel
        .split_once("].")
        .filter(|(m, _)| m.starts_with("mig_instances["))
    {
        from.push(inner);
    }
    for (key, sources) in FAMILIES {
        if from.iter().any(|r| r.starts_with(key)) {
            from.extend_from_slice(sources);
        }
    }
    from.iter().any(|c| {
        let full = format!("{gpu}].{c}");
        fields.iter().any(|f| {
            full == *f
                || full.starts_with(&format!("{f}."))
                || full.starts_with(&format!("{f}["))
                || f.starts_with(&format!("{full}."))
        })
    })
}

#[test]
fn not_supported_on_any_single_call_becomes_a_note() {
    let libs = Libs::nvml();
    let mut noted: BTreeSet<String> = BTreeSet::new();
    let mut all: BTreeSet<String> = BTreeSet::new();
    // ECC on, MIG off; MIG on; a fan NVML reads; pages retired (not rows remapped).
    for fx in [
        "x86_64-h100-80gb-hbm3",
        "x86_64-h100-mig",
        "x86_64-quadro-p2000",
        "x86_64-tesla-t4",
    ] {
        let json = nvml_json(fx);
        let base = live_report(&libs, &json, &[]);
        let before = notes(&base, "");
        for symbol in entry_points(&libs, &json) {
            all.insert(symbol.clone());
            let rule = format!("{symbol}=NotSupported");
            let r = live_report(&libs, &json, &[("RIGCHECK_NVML_DOUBLE_FAIL", &rule)]);
            assert_eq!(rest(&r), rest(&base), "{fx} {rule}: the rest of the report");
            let new: Vec<_> = notes(&r, "")
                .into_keys()
                .filter(|k| !before.contains_key(k))
                .collect();
            // A query of a MIG device handle is one key of `mig_devices` (null when it gave
            // nothing): the note on the GPU's MIG instances names what is missing.
            if new
                .iter()
                .any(|(f, reason)| reason.contains("NotSupported") || f.ends_with(".mig_instances"))
            {
                noted.insert(symbol.clone());
            }
            let whole_gpu_list =
                ["nvmlInit_v2", "nvmlDeviceGetCount_v2"].contains(&symbol.as_str());
            if whole_gpu_list {
                // Without init or a count NVML lists nothing; the note says why.
                assert_note(&r, "gpus", "NotSupported");
                continue;
            }
            let (a, b) = (
                r["gpus"].as_array().unwrap(),
                base["gpus"].as_array().unwrap(),
            );
            assert_eq!(a.len(), b.len(), "{fx} {rule}: a GPU was lost");
            for (x, y) in a.iter().zip(b) {
                assert_eq!(x["index"], y["index"], "{fx} {rule}");
            }
            // NotSupported from the MIG mode query (asked itself, or through a handle that
            // answers everything so) is NVML's answer for a GPU without MIG: MIG off.
            let mig_answered = ["nvmlDeviceGetMigMode", "nvmlDeviceGetHandleByIndex_v2"]
                .contains(&symbol.as_str());
            if mig_answered {
                assert_eq!(r["gpus"][0]["mig_enabled"], json!(false), "{fx} {rule}");
            }
            let silent: Vec<_> = gpus_diff(&r, &base)
                .into_iter()
                .filter(|(p, _)| !explained(p, &r))
                .filter(|(p, _)| !(mig_answered && generic(p).starts_with("gpus[*].mig_")))
                .collect();
            assert!(
                silent.is_empty(),
                "{fx} {rule}: fields changed without a note: {silent:#?}"
            );
        }
    }
    let quiet: BTreeSet<String> = all
        .difference(&noted)
        .filter(|s| !NOT_SUPPORTED_MEANS_SOMETHING.contains(&s.as_str()))
        .cloned()
        .collect();
    assert!(quiet.is_empty(), "NotSupported left no note for {quiet:?}");
    // The entry points the probe calls, as the double saw them: one added needs a look here
    // (and in the double).
    let expected: BTreeSet<String> = PROBE_ENTRY_POINTS.iter().map(|s| s.to_string()).collect();
    assert_eq!(all, expected, "the entry points the probe calls");
}

#[test]
fn no_permission_is_a_note() {
    let libs = Libs::nvml();
    let json = nvml_json("gpu-busy");
    let base = live_report(&libs, &json, &[]);
    let r = live_report(
        &libs,
        &json,
        &[("RIGCHECK_NVML_DOUBLE_FAIL", "nvmlInit_v2=NoPermission")],
    );
    assert_eq!(r["gpus"], json!([]));
    assert_note(&r, "gpus", "no permission (run as root");
    assert_eq!(rest(&r), rest(&base));

    // One call refused: that fact is unknown with the reason, and preflight does not pass it.
    let rule = [(
        "RIGCHECK_NVML_DOUBLE_FAIL",
        "nvmlDeviceGetComputeRunningProcesses_v3@0=NoPermission",
    )];
    let r = live_report(&libs, &json, &rule);
    assert_eq!(r["gpus"][0]["state"]["compute_processes"], Value::Null);
    assert_note(&r, "gpus[0].state.compute_processes", "no permission");
    assert_eq!(r["gpus"][1], base["gpus"][1]);
    let (_, out, _) = live(&libs, &json, &rule, &["preflight", "-f", "json"]);
    let p: Value = serde_json::from_str(&out).unwrap();
    let line = gpu_lines(&p)
        .into_iter()
        .find(|l| l.0 == "gpu.processes" && l.1 == "GPU 0")
        .unwrap();
    assert_eq!((line.2.as_str(), line.3.as_str()), ("unknown", "unknown"));
}

#[test]
fn a_gpu_lost_mid_enumeration_stays_listed() {
    let libs = Libs::nvml();
    let json = nvml_json("x86_64-dual-rtx2080");
    let base = live_report(&libs, &json, &[]);
    // GPU 1 answers its first six calls (its handle and PCI info twice, its handle and name),
    // then falls off the bus.
    let r = live_report(
        &libs,
        &json,
        &[("RIGCHECK_NVML_DOUBLE_FAIL", "*@1#6=GpuLost")],
    );
    assert_eq!(r["gpus"][0], base["gpus"][0], "GPU 0 is untouched");
    let g = &r["gpus"][1];
    assert_eq!(g["index"], json!(1));
    assert_eq!(g["pci_address"], base["gpus"][1]["pci_address"]);
    assert_eq!(g["name"], base["gpus"][1]["name"]);
    for f in ["uuid", "vbios_version", "max_sm_clock_mhz"] {
        assert_eq!(g[f], Value::Null, "{f}");
        assert_note(&r, &format!("gpus[1].{f}"), "fallen off the bus");
    }
    assert_eq!(g["state"]["temperature_c"], Value::Null);
    assert_note(&r, "gpus[1].state.temperature_c", "fallen off the bus");
    // The architecture says why it is unknown too, not that NVML does not know it.
    assert_note(&r, "gpus[1].architecture", "fallen off the bus");
    assert_eq!(rest(&r), rest(&base));
}

#[test]
fn uninitialized_nvml_is_a_note() {
    let libs = Libs::nvml();
    let json = nvml_json("x86_64-h100-80gb-hbm3");
    let base = live_report(&libs, &json, &[]);
    // NVML shut down under the probe after the count and its first device call.
    let r = live_report(
        &libs,
        &json,
        &[("RIGCHECK_NVML_DOUBLE_FAIL", "*#6=Uninitialized")],
    );
    assert_eq!(r["gpus"].as_array().unwrap().len(), 1);
    assert_eq!(r["gpus"][0]["index"], json!(0));
    assert_eq!(r["gpus"][0]["name"], Value::Null);
    assert_note(&r, "gpus[0].name", "Uninitialized");
    assert_note(&r, "gpus[0].state.temperature_c", "Uninitialized");
    assert_eq!(rest(&r), rest(&base));
}

#[test]
fn a_library_without_the_newer_calls_is_an_older_driver() {
    let json = nvml_json("x86_64-dual-rtx2080");
    let base = live_report(&Libs::nvml(), &json, &[]);
    let r = live_report(&Libs::new(Nvml::R470, false, false), &json, &[]);
    let too_old = "driver too old for this NVML query";
    for (i, g) in r["gpus"].as_array().unwrap().iter().enumerate() {
        let b = &base["gpus"][i];
        for f in [
            "name",
            "uuid",
            "pci_address",
            "max_sm_clock_mhz",
            "architecture",
        ] {
            assert_eq!(g[f], b[f], "GPU {i} {f}");
        }
        // The datasheet fills what the old library cannot say, and the notes say why.
        for f in ["cuda_cores", "memory_bus_width_bits", "vram_bytes"] {
            assert_eq!(g["fact_sources"][f], json!("datasheet"), "GPU {i} {f}");
            assert_note(&r, &format!("gpus[{i}].{f}"), too_old);
        }
        assert_eq!(g["state"]["compute_processes"], Value::Null);
        assert_note(&r, &format!("gpus[{i}].state.compute_processes"), too_old);
    }
    assert_eq!(rest(&r), rest(&base));
}

/// Row remapping as NVML answers it: an A100 or H100 says its four counts through an R470
/// library too (the query is R450's); a Tesla T4 (Turing) answers NotSupported, so it
/// retires pages instead; a driver older than R450 lacks the query. Each an honest note,
/// never a zero.
#[test]
fn row_remapping_is_read_where_the_board_and_driver_have_it_and_a_note_elsewhere() {
    let r470 = Libs::new(Nvml::R470, false, false);
    let h100 = nvml_json("x86_64-h100-80gb-hbm3");
    let r = live_report(&r470, &h100, &[]);
    let s = &r["gpus"][0]["state"];
    assert_eq!(s["remapped_rows_correctable"], json!(0), "{s}");
    assert_eq!(s["remapped_rows_uncorrectable"], json!(0), "{s}");
    assert_eq!(s["remapped_rows_pending"], json!(false), "{s}");
    assert_eq!(s["remapped_rows_failure"], json!(false), "{s}");

    let t4 = nvml_json("x86_64-tesla-t4");
    let r = live_report(&r470, &t4, &[]);
    let s = &r["gpus"][0]["state"];
    for f in [
        "remapped_rows_correctable",
        "remapped_rows_uncorrectable",
        "remapped_rows_pending",
        "remapped_rows_failure",
    ] {
        assert_eq!(s[f], Value::Null, "{f}: {s}");
    }
    assert_note(
        &r,
        "gpus[0].state.remapped_rows_failure",
        "this GPU remaps no rows",
    );
    // It retires pages instead, and says how many.
    assert_eq!(s["retired_pages_single_bit"], json!(0), "{s}");
    assert_eq!(s["retired_pages_double_bit"], json!(0), "{s}");

    // A driver older than R450: the library has no such function.
    let base = live_report(&Libs::nvml(), &h100, &[]);
    let r = live_report(
        &Libs::nvml(),
        &h100,
        &[(
            "RIGCHECK_NVML_DOUBLE_FAIL",
            "nvmlDeviceGetRemappedRows=FunctionNotFound",
        )],
    );
    assert_eq!(r["gpus"][0]["state"]["remapped_rows_failure"], Value::Null);
    assert_note(
        &r,
        "gpus[0].state.remapped_rows_failure",
        "this driver has no row remapping query",
    );
    assert_eq!(rest(&r), rest(&base));
}

#[test]
fn a_driver_library_version_mismatch_is_a_note() {
    let libs = Libs::nvml();
    let json = nvml_json("x86_64-a100-sxm4-80gb");
    let base = live_report(&libs, &json, &[]);
    let r = live_report(
        &libs,
        &json,
        &[(
            "RIGCHECK_NVML_DOUBLE_FAIL",
            "nvmlInit_v2=LibRmVersionMismatch",
        )],
    );
    assert_eq!(r["gpus"], json!([]));
    assert_note(&r, "gpus", "kernel module versions differ: reboot");
    assert_eq!(rest(&r), rest(&base));
}

#[test]
fn a_hung_call_ends_at_the_deadline() {
    let libs = Libs::nvml();
    let json = nvml_json("x86_64-dual-rtx2080");
    let base = live_report(&libs, &json, &[]);
    let deadline = ("RIGCHECK_TEST_NVML_DEADLINE_MS", "500");
    // The run would never end without the deadline; the test's runner kills a run after
    // common::HANG_GUARD.
    let r = live_report(
        &libs,
        &json,
        &[
            (
                "RIGCHECK_NVML_DOUBLE_FAIL",
                "nvmlDeviceGetTemperature@0=hang",
            ),
            deadline,
        ],
    );
    let gpus = r["gpus"].as_array().unwrap();
    assert_eq!(gpus.len(), 2, "no GPU lost");
    assert_eq!(gpus[1]["index"], json!(1));
    // Asked before the hang: known.
    for f in ["name", "pci_address", "compute_capability", "vram_bytes"] {
        assert_eq!(gpus[0][f], base["gpus"][0][f], "{f}");
    }
    // Asked after it: unknown, and why.
    assert_eq!(gpus[0]["uuid"], Value::Null);
    assert_note(&r, "gpus[0].uuid", "not asked: NVML stopped answering");
    assert_note(
        &r,
        "gpus[0].state.temperature_c",
        "'temperature_gpu' of GPU 0 did not answer within 0.5 s",
    );
    assert_note(
        &r,
        "gpus[0].state.power_draw_w",
        "not asked: NVML stopped answering",
    );
    assert_note(&r, "gpus[1].name", "not asked: NVML stopped answering");
    assert_eq!(rest(&r), rest(&base));

    // Hung in initialisation: no GPU from NVML, and why.
    let r = live_report(
        &libs,
        &json,
        &[("RIGCHECK_NVML_DOUBLE_FAIL", "nvmlInit_v2=hang"), deadline],
    );
    assert_eq!(r["gpus"], json!([]));
    assert_note(
        &r,
        "gpus",
        "NVML's initialisation did not answer within 0.5 s",
    );
}

#[test]
fn mig_on_without_instances_or_refused() {
    let libs = Libs::nvml();
    let json = nvml_json("x86_64-h100-mig");
    let base = live_report(&libs, &json, &[]);
    assert_eq!(base["gpus"][0]["mig_enabled"], json!(true));
    assert_eq!(
        base["gpus"][0]["mig_instances"].as_array().unwrap().len(),
        4
    );

    let r = live_report(
        &libs,
        &json,
        &[(
            "RIGCHECK_NVML_DOUBLE_FAIL",
            "nvmlDeviceGetMigDeviceHandleByIndex=NotFound",
        )],
    );
    assert_eq!(r["gpus"][0]["mig_instances"], json!([]));
    assert_note(&r, "gpus[0].mig_instances", "no MIG instance exists");

    let r = live_report(
        &libs,
        &json,
        &[(
            "RIGCHECK_NVML_DOUBLE_FAIL",
            "nvmlDeviceGetMaxMigDeviceCount=NoPermission",
        )],
    );
    assert_eq!(r["gpus"][0]["mig_enabled"], json!(true));
    assert_note(&r, "gpus[0].mig_instances", "no permission");

    // One query of one MIG device refused: that instance stays, its ids unknown and said so.
    let r = live_report(
        &libs,
        &json,
        &[(
            "RIGCHECK_NVML_DOUBLE_FAIL",
            "nvmlDeviceGetGpuInstanceId#2=NotSupported",
        )],
    );
    let m = r["gpus"][0]["mig_instances"].as_array().unwrap();
    assert_eq!(m.len(), 4);
    assert_eq!(
        m[1]["gpu_instance_id"],
        base["gpus"][0]["mig_instances"][1]["gpu_instance_id"]
    );
    assert_eq!(m[2]["gpu_instance_id"], Value::Null);
    assert_note(
        &r,
        "gpus[0].mig_instances",
        "no GPU instance id for MIG devices 2, 3",
    );
}

/// True where this machine shows an NVIDIA device on PCI or an NVIDIA driver.
fn nvidia_here() -> bool {
    let marks = [
        "/proc/driver/nvidia",
        "/sys/module/nvidia",
        "/dev/nvidiactl",
        "/dev/nvidia0",
        "/dev/dxg",
    ];
    let on_pci = std::fs::read_dir("/sys/bus/pci/devices")
        .map(|d| {
            d.filter_map(Result::ok).any(|e| {
                std::fs::read_to_string(e.path().join("vendor")).is_ok_and(|v| v.trim() == "0x10de")
            })
        })
        .unwrap_or(true);
    on_pci || marks.iter().any(|m| Path::new(m).exists())
}

#[test]
fn nvml_is_not_loaded_where_no_nvidia_device_or_driver_shows() {
    if nvidia_here() {
        eprintln!("skipped: this machine has an NVIDIA device or driver, so NVML is loaded");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("calls");
    let log = log.to_str().unwrap();
    let json = nvml_json("x86_64-h100-80gb-hbm3");
    // The library is there and would answer, but nothing NVIDIA shows: it is never loaded.
    let r = live_report(
        &Libs::nvml(),
        &json,
        &[
            ("RIGCHECK_TEST_NVML_ALWAYS", ""),
            ("RIGCHECK_NVML_DOUBLE_LOG", log),
        ],
    );
    assert_eq!(r["gpus"], json!([]));
    assert_eq!(r["lists"]["gpus"], "read");
    assert_note(
        &r,
        "gpus",
        "no NVIDIA GPUs on PCI; NVML unavailable: not loaded, as no NVIDIA driver is",
    );
    assert!(!Path::new(log).exists(), "NVML was called");
    // The same run told to load it anyway: the double answers, so the gate was all it took.
    let r = live_report(&Libs::nvml(), &json, &[("RIGCHECK_NVML_DOUBLE_LOG", log)]);
    assert_eq!(r["gpus"].as_array().map(Vec::len), Some(1));
    assert!(std::fs::read_to_string(log).unwrap().contains("nvmlInit"));
}

#[test]
fn no_driver_and_no_library() {
    // No libnvidia-ml.so.1 at all: as the capture of a machine without the driver recorded it.
    let json = nvml_json("x86_64-vm-kvm");
    let live = live_report(&Libs::new(Nvml::Missing, false, false), &json, &[]);
    let bare = doubles::nvml_only(&json);
    let replay = replay_report(bare.path(), &["-f", "json"]);
    assert_eq!(live["gpus"], json!([]));
    assert_note(
        &live,
        "gpus",
        "libnvidia-ml.so.1 not found: install the NVIDIA driver",
    );
    assert_eq!(notes(&live, "gpus"), notes(&replay, "gpus"));

    // The library without its kernel module (gpu-no-driver's machine once the driver package
    // is installed but not loaded).
    let dir = tempfile::tempdir().unwrap();
    let unloaded = dir.path().join("nvml.json");
    std::fs::write(
        &unloaded,
        r#"{"format": 1, "init": {"err": "DriverNotLoaded"}}"#,
    )
    .unwrap();
    let live = live_report(&Libs::nvml(), &unloaded, &[]);
    let bare = doubles::nvml_only(&unloaded);
    let replay = replay_report(bare.path(), &["-f", "json"]);
    assert_eq!(live["gpus"], json!([]));
    assert_note(&live, "gpus", "NVIDIA kernel driver not loaded");
    assert_eq!(notes(&live, "gpus"), notes(&replay, "gpus"));
}
