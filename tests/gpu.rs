//! GPU probe against the GPU fixtures (real nvidia-smi captures converted to nvml.json, and
//! the composed Quadro RTX 6000 machine), plus `#[ignore]`d live checks for a GPU host.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rigcheck::probe::gpu;
use rigcheck::source::Source;
use rigcheck::spec::{Gpu, Notes};

fn fixture(name: &str) -> (Vec<Gpu>, Notes) {
    let dir = format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let src = Source::sysroot(dir);
    let mut notes = Notes::default();
    let gpus = gpu::probe(&src, &mut notes);
    (gpus, notes)
}

fn note<'a>(notes: &'a Notes, field: &str) -> Vec<&'a str> {
    notes
        .0
        .iter()
        .filter(|n| n.field == field)
        .map(|n| n.reason.as_str())
        .collect()
}

/// Within ±3 % (vendors round bandwidth and TFLOPS).
fn near(got: f64, want: f64) -> bool {
    (got - want).abs() <= want * 0.03
}

#[test]
fn hp_z8_two_quadro_rtx_6000_check_values() {
    let (gpus, notes) = fixture("hp-z8-g4-dual-rtx6000");
    assert_eq!(gpus.len(), 2);
    for (i, g) in gpus.iter().enumerate() {
        assert_eq!(g.name.as_deref(), Some("Quadro RTX 6000"));
        assert_eq!(g.architecture.as_deref(), Some("Turing"));
        assert_eq!(g.compute_capability.as_deref(), Some("7.5"));
        assert_eq!(g.sm_count, Some(72));
        assert_eq!(g.cuda_cores, Some(4608));
        assert_eq!(g.tensor_cores, Some(576));
        assert_eq!(g.tensor_core_generation, Some(2));
        assert_eq!(g.vram_bytes, Some(24576 * 1024 * 1024));
        assert_eq!(g.memory_bus_width_bits, Some(384));
        assert!(near(g.memory_bandwidth_bytes_per_s.unwrap() as f64, 672e9));
        assert_eq!(g.fp32_tflops, Some(16.31));
        assert_eq!(g.fp16_tensor_tflops, Some(130.5));
        // Quadro: full-rate FP32 accumulate.
        assert_eq!(g.fp16_tensor_fp32_acc_tflops, Some(130.5));
        assert_eq!(g.peak_clock_mhz, Some(1770));
        assert_eq!((g.pcie.max_gen, g.pcie.max_width), (Some(3), Some(16)));
        assert_eq!(g.driver_version.as_deref(), Some("550.90.12"));
        assert_eq!(g.cuda_version.as_deref(), Some("12.4"));
        assert_eq!(g.state.persistence_mode, Some(true));
        assert_eq!(g.state.ecc_enabled, Some(false));
        assert_eq!(g.state.compute_processes, Some(vec![]));
        assert_eq!(g.mig_enabled, Some(false));
        let peak = note(&notes, &format!("gpus[{i}].fp32_tflops"));
        assert!(
            peak.iter()
                .any(|r| r.contains("NVML max SM clock 1770 MHz") && r.contains("boost")),
            "{peak:?}"
        );
    }
    // One GPU per socket.
    assert_eq!(gpus[0].pci_address.as_deref(), Some("0000:17:00.0"));
    assert_eq!(gpus[0].numa_node, Some(0));
    assert_eq!(gpus[0].local_cpus.as_deref(), Some("0-17,36-53"));
    assert_eq!(gpus[1].pci_address.as_deref(), Some("0000:af:00.0"));
    assert_eq!(gpus[1].numa_node, Some(1));
    assert_eq!(gpus[1].local_cpus.as_deref(), Some("18-35,54-71"));
}

#[test]
fn tesla_t4_capture() {
    let (gpus, notes) = fixture("x86_64-tesla-t4");
    let g = &gpus[0];
    assert_eq!(g.name.as_deref(), Some("Tesla T4"));
    assert_eq!(g.pci_address.as_deref(), Some("0000:00:1e.0"));
    assert_eq!(
        (g.sm_count, g.cuda_cores, g.tensor_cores),
        (Some(40), Some(2560), Some(320))
    );
    // 256-bit × 5001 MHz × 2 = 320.1 GB/s (spec 320).
    assert!(near(g.memory_bandwidth_bytes_per_s.unwrap() as f64, 320e9));
    assert_eq!(g.fp32_tflops, Some(8.14));
    assert_eq!(g.fp16_tensor_tflops, Some(65.13));
    assert_eq!(g.driver_version.as_deref(), Some("515.105.01"));
    assert_eq!(g.cuda_version.as_deref(), Some("11.7"));
    // Link trained at x8 of x16 in the capture (cloud VM).
    assert_eq!((g.pcie.width, g.pcie.max_width), (Some(8), Some(16)));
    // The python process (type C) is listed, Xorg (type G) is not.
    let procs = g.state.compute_processes.as_ref().unwrap();
    assert_eq!(procs.len(), 1);
    assert_eq!(procs[0].pid, 5762);
    assert_eq!(procs[0].used_memory_bytes, Some(1005 * 1024 * 1024));
    assert_eq!(g.state.ecc_enabled, Some(true));
    assert_eq!(g.state.ecc_errors_uncorrected, Some(0));
    assert_eq!(g.state.fan_percent, None);
    assert!(!note(&notes, "gpus[0].state.fan_percent").is_empty());
    // "0000000000000" is no serial.
    assert_eq!(g.serial, None);
}

#[test]
fn a100_sxm4_80gb_capture_is_mig_enabled_so_cores_are_null_with_a_note() {
    let (gpus, notes) = fixture("x86_64-a100-sxm4-80gb");
    let g = &gpus[0];
    assert_eq!(g.mig_enabled, Some(true));
    assert_eq!(
        (g.cuda_cores, g.sm_count, g.tensor_cores),
        (None, None, None)
    );
    assert_eq!(g.fp32_tflops, None);
    assert!(note(&notes, "gpus[0].cuda_cores")[0].contains("MIG"));
    // Bandwidth needs no core count: 5120-bit × 1593 MHz × 2 = 2039 GB/s.
    assert!(near(g.memory_bandwidth_bytes_per_s.unwrap() as f64, 2039e9));
    assert_eq!(g.serial.as_deref(), Some("1650522003820"));
}

#[test]
fn a100_check_values_on_the_ecc_variant() {
    let (gpus, notes) = fixture("gpu-ecc-errors");
    let g = &gpus[0];
    assert_eq!(
        (g.sm_count, g.cuda_cores, g.tensor_cores),
        (Some(108), Some(6912), Some(432))
    );
    assert_eq!(g.tensor_core_generation, Some(3));
    assert_eq!(g.fp32_tflops, Some(19.49));
    assert!(near(g.fp16_tensor_tflops.unwrap(), 312.0));
    assert_eq!(g.state.ecc_enabled, Some(true));
    assert_eq!(g.state.ecc_errors_uncorrected, Some(3));
    assert_eq!(g.state.retired_pages_pending, Some(true));
    assert!(note(&notes, "gpus[0].cuda_cores").is_empty());
}

#[test]
fn rtx3090_geforce_halves_fp32_accumulate() {
    let (gpus, notes) = fixture("x86_64-rtx3090");
    let g = &gpus[0];
    assert_eq!(
        (g.sm_count, g.cuda_cores, g.tensor_cores),
        (Some(82), Some(10496), Some(328))
    );
    assert!(near(g.memory_bandwidth_bytes_per_s.unwrap() as f64, 936e9));
    // At NVML's max 2100 MHz, not the 1695 MHz datasheet boost: 44.08, not 35.6 — noted.
    assert_eq!(g.max_sm_clock_mhz, Some(2100));
    assert_eq!(g.fp32_tflops, Some(44.08));
    assert_eq!(g.fp16_tensor_tflops, Some(176.33));
    assert_eq!(g.fp16_tensor_fp32_acc_tflops, Some(88.17));
    assert!(note(&notes, "gpus[0].fp32_tflops")[0].contains("2100 MHz"));
    // Datasheet check: at the rated boost the formula gives the published figures.
    let at_boost = f64::from(g.cuda_cores.unwrap()) * 2.0 * 1695.0 / 1e6;
    assert!(near(at_boost, 35.6));
}

#[test]
fn dual_rtx2080_two_gpus_by_pci_address() {
    let (gpus, _) = fixture("x86_64-dual-rtx2080");
    assert_eq!(gpus.len(), 2);
    assert_eq!(gpus[0].pci_address.as_deref(), Some("0000:01:00.0"));
    assert_eq!(gpus[1].pci_address.as_deref(), Some("0000:02:00.0"));
    for g in &gpus {
        assert_eq!((g.sm_count, g.tensor_cores), (Some(46), Some(368)));
        assert_eq!(g.vram_bytes, Some(8192 * 1024 * 1024));
        assert!(near(g.memory_bandwidth_bytes_per_s.unwrap() as f64, 448e9));
        assert_eq!(g.cuda_version.as_deref(), Some("13.1"));
        assert_eq!(g.state.throttle_reasons, Some(vec!["gpu_idle".to_string()]));
        assert_eq!((g.pcie.gen, g.pcie.width), (Some(1), Some(8)));
    }
}

#[test]
fn quadro_p2000_has_no_tensor_cores() {
    let (gpus, notes) = fixture("x86_64-quadro-p2000");
    let g = &gpus[0];
    assert_eq!(g.architecture.as_deref(), Some("Pascal"));
    assert_eq!((g.sm_count, g.cuda_cores), (Some(8), Some(1024)));
    assert_eq!(g.tensor_cores, Some(0));
    assert_eq!(g.tensor_core_generation, None);
    assert_eq!(g.fp16_tensor_tflops, None);
    assert!(note(&notes, "gpus[0].tensor_cores")[0].starts_with("none"));
}

#[test]
fn h100_80gb_hbm3_check_values_and_tensor_clock_note() {
    let (gpus, notes) = fixture("x86_64-h100-80gb-hbm3");
    let g = &gpus[0];
    assert_eq!(
        (g.sm_count, g.cuda_cores, g.tensor_cores),
        (Some(132), Some(16896), Some(528))
    );
    assert_eq!(g.tensor_core_generation, Some(4));
    assert!(near(g.memory_bandwidth_bytes_per_s.unwrap() as f64, 3350e9));
    assert!(near(g.fp32_tflops.unwrap(), 67.0));
    // 1070.5 at the 1980 MHz max clock; NVIDIA's 989.4 is at 1830 MHz, said in a note.
    assert_eq!(g.fp16_tensor_tflops, Some(1070.53));
    let n = note(&notes, "gpus[0].fp16_tensor_tflops");
    assert!(
        n.iter()
            .any(|r| r.contains("1830 MHz") && r.contains("989.4")),
        "{n:?}"
    );
    assert_eq!(g.numa_node, Some(0));
    assert_eq!(g.local_cpus.as_deref(), Some("0-19"));
    assert_eq!((g.pcie.max_gen, g.pcie.max_width), (Some(5), Some(16)));
    assert_eq!(g.board_part_number.as_deref(), Some("692-2G520-0200-000"));
}

#[test]
fn h100_mig_reports_mig_with_null_cores() {
    let (gpus, notes) = fixture("x86_64-h100-mig");
    let g = &gpus[0];
    assert_eq!(g.mig_enabled, Some(true));
    assert_eq!(
        (g.sm_count, g.cuda_cores, g.tensor_cores),
        (None, None, None)
    );
    assert_eq!((g.fp32_tflops, g.fp16_tensor_tflops), (None, None));
    assert!(note(&notes, "gpus[0].cuda_cores")[0].contains("MIG"));
    assert_eq!(g.state.utilization_percent, None);
}

#[test]
fn degraded_x8_link_shows_width_8_of_16() {
    let (gpus, notes) = fixture("gpu-degraded-x8");
    assert_eq!(
        (gpus[0].pcie.width, gpus[0].pcie.max_width),
        (Some(16), Some(16))
    );
    let p = &gpus[1].pcie;
    assert_eq!(
        (p.width, p.max_width, p.device_max_width),
        (Some(8), Some(8), Some(16))
    );
    assert!(note(&notes, "gpus[1].pcie.max_width")[0].contains("x8 of the card's x16"));
    assert!(note(&notes, "gpus[0].pcie.max_width").is_empty());
}

#[test]
fn no_driver_still_shows_two_gpus_from_pci() {
    let (gpus, notes) = fixture("gpu-no-driver");
    assert_eq!(gpus.len(), 2);
    for (i, g) in gpus.iter().enumerate() {
        assert_eq!(g.index, None);
        assert_eq!(g.name.as_deref(), Some("Quadro RTX 6000"), "from pci.ids");
        assert_eq!(g.pci_device_id.as_deref(), Some("0x1e30"));
        assert_eq!((g.pcie.max_gen, g.pcie.max_width), (Some(3), Some(16)));
        assert_eq!(g.cuda_cores, None);
        assert!(note(&notes, &format!("gpus[{i}]"))[0].contains("nvml.json"));
    }
    assert_eq!((gpus[0].numa_node, gpus[1].numa_node), (Some(0), Some(1)));
}

#[test]
fn hot_throttling_gpu() {
    let (gpus, _) = fixture("gpu-hot-throttling");
    assert_eq!(gpus[0].state.temperature_c, Some(89));
    assert_eq!(
        gpus[0].state.throttle_reasons,
        Some(vec![
            "sw_thermal_slowdown".to_string(),
            "hw_thermal_slowdown".to_string()
        ])
    );
    assert_eq!(gpus[1].state.temperature_c, Some(34));
}

#[test]
fn busy_gpu_has_a_20_gib_process() {
    let (gpus, _) = fixture("gpu-busy");
    let s = &gpus[0].state;
    assert_eq!(s.utilization_percent, Some(97));
    let procs = s.compute_processes.as_ref().unwrap();
    assert_eq!(procs[0].used_memory_bytes, Some(20 * 1024 * 1024 * 1024));
    assert_eq!(gpus[1].state.compute_processes, Some(vec![]));
}

#[test]
fn every_null_gpu_fact_of_the_reference_machine_has_a_note() {
    let (gpus, notes) = fixture("hp-z8-g4-dual-rtx6000");
    for (i, g) in gpus.iter().enumerate() {
        if g.state.ecc_errors_uncorrected.is_none() {
            assert!(!note(&notes, &format!("gpus[{i}].state.ecc_errors_uncorrected")).is_empty());
        }
    }
}

/// Run on a machine with an NVIDIA GPU: `cargo test -- --ignored`.
#[test]
#[ignore = "needs an NVIDIA GPU and driver"]
fn live_nvml_lists_gpus_with_derived_figures() {
    let src = Source::live();
    let mut notes = Notes::default();
    let start = std::time::Instant::now();
    let gpus = gpu::probe(&src, &mut notes);
    eprintln!("probe took {:?}; notes: {:#?}", start.elapsed(), notes.0);
    assert!(!gpus.is_empty(), "no GPU found: {:?}", notes.0);
    for g in &gpus {
        eprintln!("{g:#?}");
        assert!(g.index.is_some(), "NVML did not list {:?}", g.pci_address);
        assert!(g.name.is_some() && g.uuid.is_some() && g.vram_bytes.is_some());
        assert!(g.driver_version.is_some() && g.cuda_version.is_some());
        if g.mig_enabled != Some(true) {
            assert!(g.cuda_cores.is_some() && g.sm_count.is_some());
            assert!(g.fp32_tflops.is_some());
            assert!(g.memory_bandwidth_bytes_per_s.is_some());
        }
    }
}

/// Capture mode records every NVML answer; replaying it gives the same GPUs.
#[test]
#[ignore = "needs an NVIDIA GPU and driver"]
fn live_capture_replays_the_same() {
    let src = Source::live_recording();
    let mut notes = Notes::default();
    let live = gpu::probe(&src, &mut notes);
    let rec = src.take_recording().unwrap();
    let text = rec.answers.get("nvml.json").expect("nvml.json recorded");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("nvml.json"), text).unwrap();
    let mut notes2 = Notes::default();
    let replay = gpu::probe(&Source::sysroot(dir.path()), &mut notes2);
    assert_eq!(live.len(), replay.len());
    for (a, b) in live.iter().zip(&replay) {
        assert_eq!(a.uuid, b.uuid);
        assert_eq!(a.cuda_cores, b.cuda_cores);
        assert_eq!(a.fp32_tflops, b.fp32_tflops);
    }
}
