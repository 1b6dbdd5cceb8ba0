//! `bench gpu` end to end in CI: rigcheck loads libcuda.so.1 and libcublas.so.12 (dlopen) and
//! finds the CUDA double (tests/doubles/cuda), whose devices are a GPU fixture's GPUs and
//! whose GEMMs run on the CPU; NVML (the inventory's peaks, the soak's samples) is the NVML
//! double on the same capture. The bench checks each product it measures, and reports its
//! figures next to the inventory's rated peaks.
//!
//! The `gpu-bench` feature is in the default build, so a plain `cargo test` runs these; a
//! `--no-default-features` build compiles this file to nothing.
#![cfg(all(target_os = "linux", feature = "gpu-bench"))]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::doubles::{live, live_report, nvml_json, Libs, Nvml, GPU_FIXTURES};
use serde_json::Value;

/// Small matrices: the double multiplies on the CPU.
const N: &str = "64";

/// `bench gpu --format json` through the doubles; (exit code, its `bench` section, stderr).
fn bench(libs: &Libs, fixture: &str, env: &[(&str, &str)]) -> (i32, Value, String) {
    let mut all = vec![("RIGCHECK_TEST_GPU_MATRIX_N", N)];
    all.extend_from_slice(env);
    let (code, out, err) = live(
        libs,
        &nvml_json(fixture),
        &all,
        &["bench", "gpu", "--seconds", "0.2", "-f", "json"],
    );
    assert!(!err.contains("panicked"), "{fixture} {env:?}: {err}");
    let v: Value = serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("{fixture} {env:?}: no JSON ({e}): {err}"));
    (code, v["bench"].clone(), err)
}

fn notes_of(b: &Value) -> Vec<(String, String)> {
    b["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| {
            (
                n["field"].as_str().unwrap().to_string(),
                n["reason"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn bench_gpu_measures_every_fixture_next_to_its_peaks() {
    let libs = Libs::new(Nvml::Current, true, true);
    for fx in GPU_FIXTURES {
        let inventory = live_report(&Libs::nvml(), &nvml_json(fx), &[]);
        let gpus = inventory["gpus"].as_array().unwrap();
        let (code, b, err) = bench(&libs, fx, &[]);
        assert_eq!(code, 0, "{fx}: {err}");
        assert_eq!(notes_of(&b), [], "{fx}: every product checked and measured");
        let per = b["gpu"]["per_gpu"].as_array().unwrap();
        // CUDA shows one device per GPU; a MIG-enabled GPU as one MIG device.
        assert_eq!(per.len(), gpus.len(), "{fx}: CUDA devices");
        for (m, g) in per.iter().zip(gpus) {
            assert_eq!(m["pci_address"], g["pci_address"], "{fx}");
            assert_eq!(m["n"], 64, "{fx}");
            for f in ["fp32_tflops", "fp16_tflops"] {
                assert!(m[f].as_f64().unwrap() > 0.0, "{fx}: {f} measured");
            }
            if g["mig_enabled"] == true {
                // Measured against the MIG instance CUDA shows, not the whole GPU.
                let name = m["name"].as_str().unwrap();
                let instance = g["mig_instances"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .find(|i| i["profile"].as_str().is_some_and(|p| name.ends_with(p)));
                match instance {
                    Some(i) => {
                        assert_eq!(m["fp32_peak_tflops"], i["fp32_tflops"], "{fx}");
                        assert!(
                            m["fp16_peak_tflops"].as_f64().unwrap()
                                < g["fp16_tensor_tflops"].as_f64().unwrap(),
                            "{fx}"
                        );
                    }
                    // A capture without MIG device names (the A100's XML): no profile, no peak.
                    None => {
                        assert_eq!(m["name"], g["name"], "{fx}");
                        assert_eq!(m["fp32_peak_tflops"], Value::Null, "{fx}");
                    }
                }
            } else {
                assert_eq!(m["name"], g["name"], "{fx}");
                assert_eq!(m["fp32_peak_tflops"], g["fp32_tflops"], "{fx}");
                assert_eq!(m["fp16_peak_tflops"], g["fp16_tensor_tflops"], "{fx}");
            }
        }
        assert!(b["gpu"]["all_fp32_tflops"].as_f64().unwrap() > 0.0, "{fx}");
        // The soak sampled each GPU through NVML: the capture's temperature and power.
        for (s, g) in b["gpu"]["soak"].as_array().unwrap().iter().zip(gpus) {
            assert!(s["samples"].as_u64().unwrap() >= 1, "{fx}: soak samples");
            assert_eq!(s["max_temperature_c"], g["state"]["temperature_c"], "{fx}");
            assert_eq!(s["max_power_w"], g["state"]["power_draw_w"], "{fx}");
        }
    }
    // The table puts each measured figure next to its peak.
    let (code, out, err) = live(
        &libs,
        &nvml_json("x86_64-dual-rtx2080"),
        &[("RIGCHECK_TEST_GPU_MATRIX_N", N)],
        &["bench", "gpu", "--seconds", "0.2", "--color", "never"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("GPU 1 NVIDIA GeForce RTX 2080: FP32 0.0 / 10.1, FP16 0.0 / 80.5 (n = 64)"),
        "{out}"
    );
}

#[test]
fn bench_gpu_failures_are_notes() {
    let libs = Libs::new(Nvml::Current, true, true);
    let fx = "x86_64-dual-rtx2080";
    let fail = |rule: &str| bench(&libs, fx, &[("RIGCHECK_CUDA_DOUBLE_FAIL", rule)]);
    let has = |b: &Value, field: &str, needle: &str| {
        let n = notes_of(b);
        assert!(
            n.iter().any(|(f, r)| f == field && r.contains(needle)),
            "no note on {field} with '{needle}': {n:#?}"
        );
    };

    // No device: CUDA is unusable, said once; nothing measured is exit 3.
    let (code, b, err) = fail("nodevice");
    assert_eq!(code, 3, "{err}");
    assert_eq!(b["gpu"], Value::Null);
    has(&b, "bench.gpu", "cuInit failed: CUDA_ERROR_NO_DEVICE (100)");
    assert!(err.contains("bench.gpu: measured nothing"), "{err}");

    // Out of memory on GPU 1 only: GPU 0 is measured.
    let (code, b, _) = fail("oom@1");
    assert_eq!(code, 0);
    assert!(b["gpu"]["per_gpu"][0]["fp32_tflops"].as_f64().unwrap() > 0.0);
    assert_eq!(b["gpu"]["per_gpu"][1]["fp32_tflops"], Value::Null);
    has(
        &b,
        "bench.gpu.per_gpu[1]",
        "cuMemAlloc failed: CUDA_ERROR_OUT_OF_MEMORY (2)",
    );
    has(&b, "bench.gpu.all_fp32_tflops", "CUDA_ERROR_OUT_OF_MEMORY");

    // A kernel that fails on every GPU: seen at the next synchronisation, nothing measured.
    let (code, b, err) = fail("kernel");
    assert_eq!(code, 3, "{err}");
    for i in 0..2 {
        assert_eq!(b["gpu"]["per_gpu"][i]["fp32_tflops"], Value::Null);
        has(
            &b,
            &format!("bench.gpu.per_gpu[{i}].fp32_tflops"),
            "CUDA_ERROR_LAUNCH_FAILED (719)",
        );
    }
    assert!(err.contains("bench.gpu: measured nothing"), "{err}");

    // A kernel that fails after the checked warm-up: seen at the synchronisation after the
    // first timed multiply, and sticky for that context (the FP16 part's first call fails).
    let (_, b, _) = fail("kernel@0#1");
    has(
        &b,
        "bench.gpu.per_gpu[0].fp32_tflops",
        "cuCtxSynchronize failed: CUDA_ERROR_LAUNCH_FAILED (719)",
    );
    has(
        &b,
        "bench.gpu.per_gpu[0].fp16_tflops",
        "cuMemsetD16 failed: CUDA_ERROR_LAUNCH_FAILED (719)",
    );
    assert!(b["gpu"]["per_gpu"][1]["fp32_tflops"].as_f64().unwrap() > 0.0);

    // A GPU that computes a wrong product: caught by the check, never a figure.
    let (_, b, _) = fail("wrong@1");
    assert!(b["gpu"]["per_gpu"][0]["fp16_tflops"].as_f64().unwrap() > 0.0);
    for f in ["fp32_tflops", "fp16_tflops"] {
        assert_eq!(b["gpu"]["per_gpu"][1][f], Value::Null);
        has(
            &b,
            &format!("bench.gpu.per_gpu[1].{f}"),
            "computed 65 at row 0, column 0 of an all-ones product where 64 is right",
        );
    }

    // No cuBLAS, and no CUDA at all.
    let (code, b, _) = bench(&Libs::new(Nvml::Current, true, false), fx, &[]);
    assert_eq!(code, 3);
    has(&b, "bench.gpu", "CUDA not available: cuBLAS: libcublas.so");
    // No driver beside two GPUs: said in one line, exit 3.
    let (code, b, err) = bench(&Libs::new(Nvml::Current, false, false), fx, &[]);
    assert_eq!(code, 3);
    has(
        &b,
        "bench.gpu",
        "CUDA not available: NVIDIA driver not installed: 2 NVIDIA GPU(s) found, but the \
         driver's CUDA library cannot be loaded (libcuda.so.1: ",
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("rigcheck: bench.gpu: measured nothing: CUDA not available: NVIDIA driver not installed: "),
        "{err}"
    );
    // No driver at all (no NVML either): the GPUs are what the PCI bus shows; where it shows
    // none, that is said.
    let (code, b, err) = bench(&Libs::new(Nvml::Missing, false, false), fx, &[]);
    assert_eq!(code, 3);
    assert_eq!(err.lines().count(), 1, "{err}");
    let reason = notes_of(&b)
        .into_iter()
        .find(|(f, _)| f == "bench.gpu")
        .map(|(_, r)| r)
        .unwrap();
    let pci_gpus = std::fs::read_dir("/sys/bus/pci/devices")
        .map(|d| {
            d.flatten()
                .filter(|e| {
                    let read =
                        |f: &str| std::fs::read_to_string(e.path().join(f)).unwrap_or_default();
                    read("vendor").trim() == "0x10de" && read("class").starts_with("0x03")
                })
                .count()
        })
        .unwrap_or(0);
    if pci_gpus == 0 {
        assert!(
            reason.starts_with(
                "CUDA not available: no NVIDIA GPU found and no NVIDIA driver installed (libcuda.so.1: "
            ),
            "{reason}"
        );
    } else {
        assert!(reason.contains("NVIDIA driver not installed"), "{reason}");
    }
}
