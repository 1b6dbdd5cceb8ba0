//! Impossible answers are named and taken as unknown, never averaged into a figure: NVML's
//! "unsupported" sentinel as a clock, a MIG slice larger than its GPU, one PCI address
//! listed twice. Each is made in a copy of a recorded machine.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::Path;

use common::{assert_note, edit_nvml, fixture_copy, reference_copy, run};
use serde_json::{json, Value};

fn report(root: &Path) -> Value {
    let (code, out, err) = run(&["--sysroot", root.to_str().unwrap(), "-f", "json"]);
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(&out).unwrap()
}

#[test]
fn the_nvml_unsupported_sentinel_is_no_clock() {
    let dir = reference_copy();
    let intact = report(dir.path());
    assert_eq!(intact["gpus"][0]["max_sm_clock_mhz"], 2100);
    edit_nvml(dir.path(), |v| {
        v["devices"][0]["max_clock_sm"] = json!({"ok": 4294967295u64});
    });
    let rep = report(dir.path());
    let g = &rep["gpus"][0];
    assert_eq!(g["max_sm_clock_mhz"], Value::Null);
    assert_eq!(g["fp32_tflops_max_clock"], Value::Null);
    // The rated figures come from the datasheet's clock and stand.
    assert_eq!(g["fp32_tflops"], intact["gpus"][0]["fp32_tflops"]);
    assert_note(&rep, "gpus[0].max_sm_clock_mhz", "\"unsupported\" sentinel");
}

#[test]
fn a_negative_count_from_nvml_is_noted() {
    let dir = reference_copy();
    edit_nvml(dir.path(), |v| {
        v["devices"][1]["memory_bus_width"] = json!({"ok": -384});
    });
    let rep = report(dir.path());
    // Not NVML's -384: the datasheet's width, marked as such.
    assert_eq!(rep["gpus"][1]["memory_bus_width_bits"], 384);
    assert_eq!(
        rep["gpus"][1]["fact_sources"]["memory_bus_width_bits"],
        "datasheet"
    );
    assert_note(
        &rep,
        "gpus[1].memory_bus_width_bits",
        "gave -384, not a count",
    );
}

#[test]
fn two_nvml_devices_at_one_pci_address_are_one_gpu() {
    let dir = reference_copy();
    edit_nvml(dir.path(), |v| {
        v["devices"][1]["pci_bus_id"] = json!({"ok": "00000000:17:00.0"});
    });
    let rep = report(dir.path());
    let addresses: Vec<&str> = rep["gpus"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["pci_address"].as_str().unwrap())
        .collect();
    // 0000:af:00.0 is still on PCI, now seen without NVML.
    assert_eq!(addresses, ["0000:17:00.0", "0000:af:00.0"]);
    assert_eq!(rep["gpus"][1]["index"], Value::Null);
    assert_note(&rep, "gpus[0]", "NVML listed device 1 at 0000:17:00.0 too");
}

#[test]
fn a_mig_slice_larger_than_its_gpu_is_unknown() {
    let (_dir, root) = fixture_copy("x86_64-h100-mig");
    let intact = report(&root);
    let slice = &intact["gpus"][0]["mig_instances"][0];
    assert_eq!(slice["memory_bytes"], 42412802048u64);
    assert_eq!(slice["sm_count"], 60);
    edit_nvml(&root, |v| {
        let m = &mut v["devices"][0]["mig_devices"]["ok"][0];
        m["memory_total"] = json!(200_000_000_000u64);
        m["multiprocessor_count"] = json!(500);
    });
    let rep = report(&root);
    let slice = &rep["gpus"][0]["mig_instances"][0];
    assert_eq!(slice["memory_bytes"], Value::Null);
    assert_eq!(slice["sm_count"], Value::Null);
    assert_eq!(slice["fp32_tflops"], Value::Null);
    assert_note(
        &rep,
        "gpus[0].mig_instances[0].memory_bytes",
        "more than its GPU's",
    );
    assert_note(&rep, "gpus[0].mig_instances[0].sm_count", "500 SMs");
}

#[test]
fn more_sockets_than_cores_is_no_socket_count() {
    let (_dir, root) = fixture_copy("x86_64-vm-kvm");
    let intact = report(&root);
    assert_eq!(
        (
            intact["cpu"]["sockets"].as_u64(),
            intact["cpu"]["cores"].as_u64()
        ),
        (Some(1), Some(2))
    );
    // Both CPUs on one core, each in a package of its own: two sockets for one core.
    let topo = |c: u32| root.join(format!("sys/devices/system/cpu/cpu{c}/topology"));
    for c in 0..2 {
        fs::write(topo(c).join("core_cpus_list"), "0-1\n").unwrap();
        fs::write(topo(c).join("package_cpus_list"), format!("{c}\n")).unwrap();
    }
    let rep = report(&root);
    // Which count is wrong is not known: neither is a fact, nor what is counted from them.
    assert_eq!(rep["cpu"]["cores"], Value::Null);
    assert_eq!(rep["cpu"]["sockets"], Value::Null);
    assert_eq!(rep["cpu"]["cores_per_socket"], Value::Null);
    assert_eq!(rep["cpu"]["peak_fp64_gflops"], Value::Null);
    assert_note(&rep, "cpu.sockets", "2 sockets for 1 cores");
    assert_note(&rep, "cpu.cores", "2 sockets for 1 cores");
}

#[test]
fn all_cpus_in_one_core_is_no_one_core_machine() {
    // The 96-CPU EPYC 7451 dump with every CPU's sibling list naming all 96: one "core" of
    // 96 threads. Before, the report said "Cores 1" and an FP64 peak of one core.
    let (_dir, root) = fixture_copy("x86_64-epyc_7451");
    let intact = report(&root);
    assert_eq!(intact["cpu"]["cores"], 48);
    assert!(intact["cpu"]["peak_fp64_gflops"].is_number());
    let cpus = root.join("sys/devices/system/cpu");
    for c in 0..96 {
        let topo = cpus.join(format!("cpu{c}/topology"));
        for f in ["thread_siblings_list", "core_cpus_list"] {
            if topo.join(f).exists() {
                fs::write(topo.join(f), "0-95\n").unwrap();
            }
        }
        for f in ["thread_siblings", "core_cpus"] {
            if topo.join(f).exists() {
                fs::write(topo.join(f), "ffffffff,ffffffff,ffffffff\n").unwrap();
            }
        }
    }
    let rep = report(&root);
    assert_eq!(rep["cpu"]["threads"], 96);
    assert_eq!(rep["cpu"]["cores"], Value::Null);
    assert_eq!(rep["cpu"]["threads_per_core"], Value::Null);
    assert_eq!(rep["cpu"]["cores_per_socket"], Value::Null);
    assert_eq!(rep["cpu"]["peak_fp64_gflops"], Value::Null);
    assert_note(&rep, "cpu.cores", "1 core(s) of up to 96 threads");
    assert_note(&rep, "cpu.peak_fp64_gflops", "core count unknown");
    let (_, table, _) = run(&["--sysroot", root.to_str().unwrap(), "--color", "never"]);
    assert!(!table.contains("1 cores"), "{table}");
}

#[test]
fn a_cache_list_and_map_that_disagree_follow_the_map_with_a_note() {
    let (_dir, root) = fixture_copy("x86_64-epyc_7451");
    let intact = report(&root);
    let l3 = |r: &Value| {
        r["cpu"]["caches"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["level"] == 3)
            .cloned()
            .unwrap()
    };
    assert_eq!(l3(&intact)["instances"], 16);
    let dir = root.join("sys/devices/system/cpu/cpu0/cache/index3");
    assert_eq!(
        fs::read_to_string(dir.join("shared_cpu_map"))
            .unwrap()
            .trim(),
        "00000000,00070000,00000007"
    );
    fs::write(dir.join("shared_cpu_list"), "0-5\n").unwrap();
    let rep = report(&root);
    assert_eq!(l3(&rep), l3(&intact));
    assert_note(
        &rep,
        "cpu.caches",
        "index3: list 0-5, map 0-2,48-50); followed shared_cpu_map, as lscpu and hwloc do",
    );
}
