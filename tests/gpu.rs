//! GPU probe against the GPU fixtures (real nvidia-smi captures converted to nvml.json, and
//! the composed Quadro RTX 6000 machine), plus `#[ignore]`d live checks for a GPU host.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use rigcheck::probe::backend::Backend;
use rigcheck::probe::gpu;
use rigcheck::source::Source;
use rigcheck::spec::{Gpu, Notes};

fn fixture(name: &str) -> (Vec<Gpu>, Notes) {
    let dir = format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let src = Source::sysroot(dir);
    let mut notes = Notes::default();
    let gpus = gpu::probe(&src, &Backend::Files, &mut notes);
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
        // Rated at the 1770 MHz boost of the datasheet, whatever NVML's max clock is.
        assert_eq!(g.fp32_tflops, Some(16.31));
        assert_eq!(g.fp16_tensor_tflops, Some(130.5));
        // Quadro: full-rate FP32 accumulate.
        assert_eq!(g.fp16_tensor_fp32_acc_tflops, Some(130.5));
        assert_eq!(g.rated_clock_mhz, Some(1770));
        assert_eq!(g.rated_clock_source.as_deref(), Some("datasheet"));
        // At the 2100 MHz max SM clock the fixture assumes for the board.
        assert_eq!(g.max_sm_clock_mhz, Some(2100));
        assert_eq!(g.fp32_tflops_max_clock, Some(19.35));
        assert_eq!(g.fp16_tensor_tflops_max_clock, Some(154.83));
        assert_eq!(g.fact_sources["cuda_cores"], "nvml");
        assert!(g.datasheet_mismatches.is_empty());
        let d = g.datasheet.as_ref().unwrap();
        assert_eq!(
            (
                d.name.as_str(),
                d.pci_id.as_str(),
                d.pci_subsystem.as_deref()
            ),
            ("Quadro RTX 6000", "10de:1e30", Some("10de:12ba"))
        );
        assert_eq!((d.fp32_tflops, d.board_power_w), (Some(16.3), Some(295)));
        assert_eq!((g.pcie.max_gen, g.pcie.max_width), (Some(3), Some(16)));
        assert_eq!(g.driver_version.as_deref(), Some("550.90.12"));
        assert_eq!(g.cuda_version.as_deref(), Some("12.4"));
        assert_eq!(g.state.persistence_mode, Some(true));
        assert_eq!(g.state.ecc_enabled, Some(false));
        assert_eq!(g.state.compute_processes, Some(vec![]));
        assert_eq!(g.mig_enabled, Some(false));
        assert!(note(&notes, &format!("gpus[{i}].fp32_tflops")).is_empty());
        let max = note(&notes, &format!("gpus[{i}].fp32_tflops_max_clock"));
        assert!(
            max.iter()
                .any(|r| r.contains("max SM clock 2100 MHz") && r.contains("1770 MHz rated")),
            "{max:?}"
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
    // Data-center board: rated boost = customer boost = max clock, so no note.
    assert_eq!(
        (
            g.rated_clock_mhz,
            g.max_customer_boost_clock_mhz,
            g.max_sm_clock_mhz
        ),
        (Some(1590), Some(1590), Some(1590))
    );
    assert_eq!(g.fp32_tflops_max_clock, g.fp32_tflops);
    assert!(note(&notes, "gpus[0].fp32_tflops_max_clock").is_empty());
    assert!(note(&notes, "gpus[0].fp32_tflops").is_empty());
    // ECC on takes 1/16 of the 16 GiB: 15360 MiB is no mismatch.
    assert_eq!(g.vram_bytes, Some(15360 << 20));
    assert!(g.datasheet_mismatches.is_empty());
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
fn a100_sxm4_80gb_with_mig_keeps_its_counts_and_lists_its_instances() {
    let (gpus, notes) = fixture("x86_64-a100-sxm4-80gb");
    let g = &gpus[0];
    assert_eq!(g.mig_enabled, Some(true));
    // NVML gives no core count with MIG on; the physical GPU still has them (datasheet).
    assert_eq!(
        (g.sm_count, g.cuda_cores, g.tensor_cores),
        (Some(108), Some(6912), Some(432))
    );
    for f in ["sm_count", "cuda_cores", "tensor_cores"] {
        assert_eq!(g.fact_sources[f], "datasheet", "{f}");
    }
    assert_eq!(g.fact_sources["vram_bytes"], "nvml");
    assert_eq!(g.fp32_tflops, Some(19.49));
    assert_eq!(g.fp16_tensor_tflops, Some(311.87));
    let n = note(&notes, "gpus[0].cuda_cores");
    assert_eq!(n.len(), 1, "{n:?}");
    assert!(n[0].contains("datasheet") && n[0].contains("MIG"), "{n:?}");
    // The capture's four MIG devices: 14 SMs and 19968 MiB each, GPU instances 3 to 6.
    let m = &g.mig_instances;
    assert_eq!(m.len(), 4);
    for (k, inst) in m.iter().enumerate() {
        assert_eq!(inst.index, k as u32);
        assert_eq!(inst.gpu_instance_id, Some(3 + k as u32));
        assert_eq!(inst.compute_instance_id, Some(0));
        assert_eq!(inst.sm_count, Some(14));
        assert_eq!((inst.cuda_cores, inst.tensor_cores), (Some(896), Some(56)));
        assert_eq!(inst.memory_bytes, Some(19968 << 20));
        assert_eq!((inst.copy_engines, inst.decoders), (Some(1), Some(1)));
        // The XML has no MIG UUID or name: not recorded, not guessed.
        assert_eq!(
            (inst.uuid.as_deref(), inst.profile.as_deref()),
            (None, None)
        );
    }
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
    // Rated at the 1695 MHz boost of the datasheet (GeForce: NVML has no customer boost).
    assert_eq!(g.max_customer_boost_clock_mhz, None);
    assert_eq!(g.rated_clock_mhz, Some(1695));
    assert_eq!(g.fp32_tflops, Some(35.58));
    assert_eq!(g.fp16_tensor_tflops, Some(142.33));
    assert_eq!(g.fp16_tensor_fp32_acc_tflops, Some(71.17));
    // At NVML's max 2100 MHz: 44.08, 24 % more, in its own fields with a note.
    assert_eq!(g.max_sm_clock_mhz, Some(2100));
    assert_eq!(g.fp32_tflops_max_clock, Some(44.08));
    assert_eq!(g.fp16_tensor_tflops_max_clock, Some(176.33));
    assert_eq!(g.fp16_tensor_fp32_acc_tflops_max_clock, Some(88.17));
    let n = note(&notes, "gpus[0].fp32_tflops_max_clock");
    assert!(n[0].contains("2100 MHz") && n[0].contains("+24 %"), "{n:?}");
    assert!(note(&notes, "gpus[0].fp32_tflops").is_empty());
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
    // NVML's customer boost (1721 MHz) is not the clock of NVIDIA's 3.0 TFLOPS rating; the
    // datasheet's 1480 MHz is, and the note names both.
    assert_eq!(g.max_customer_boost_clock_mhz, Some(1721));
    assert_eq!((g.rated_clock_mhz, g.fp32_tflops), (Some(1480), Some(3.03)));
    assert_eq!(g.fp32_tflops_max_clock, Some(3.52));
    let n = note(&notes, "gpus[0].fp32_tflops_max_clock");
    assert!(n[0].contains("customer boost clock is 1721 MHz"), "{n:?}");
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
    // Rated: NVIDIA's 989.4 at the 1830 MHz tensor clock; 1070.5 at the 1980 MHz max clock.
    assert_eq!(g.rated_tensor_clock_mhz, Some(1830));
    assert_eq!(g.fp16_tensor_tflops, Some(989.43));
    assert_eq!(g.fp16_tensor_tflops_max_clock, Some(1070.53));
    let n = note(&notes, "gpus[0].fp16_tensor_tflops_max_clock");
    assert!(n.iter().any(|r| r.contains("1830 MHz")), "{n:?}");
    // FP32 is rated at the max clock on this board: no note.
    assert_eq!(g.fp32_tflops_max_clock, g.fp32_tflops);
    assert!(note(&notes, "gpus[0].fp32_tflops_max_clock").is_empty());
    assert_eq!(g.numa_node, Some(0));
    assert_eq!(g.local_cpus.as_deref(), Some("0-19"));
    assert_eq!((g.pcie.max_gen, g.pcie.max_width), (Some(5), Some(16)));
    assert_eq!(g.board_part_number.as_deref(), Some("692-2G520-0200-000"));
}

#[test]
fn h100_mig_keeps_its_counts_and_lists_four_instances() {
    let (gpus, notes) = fixture("x86_64-h100-mig");
    let g = &gpus[0];
    assert_eq!(g.mig_enabled, Some(true));
    assert_eq!(
        (g.sm_count, g.cuda_cores, g.tensor_cores),
        (Some(132), Some(16896), Some(528))
    );
    assert_eq!(g.fact_sources["cuda_cores"], "datasheet");
    assert_eq!(
        (g.fp32_tflops, g.fp16_tensor_tflops),
        (Some(66.91), Some(989.43))
    );
    assert!(note(&notes, "gpus[0].cuda_cores")[0].contains("MIG"));
    assert_eq!(g.state.utilization_percent, None);
    // nvidia-smi -L and -q of the capture: 3g.40gb, 2g.20gb and two 1g.10gb.
    let got: Vec<_> = g
        .mig_instances
        .iter()
        .map(|m| {
            (
                m.profile.as_deref().unwrap(),
                m.gpu_instance_id.unwrap(),
                m.sm_count.unwrap(),
                m.memory_bytes.unwrap() >> 20,
            )
        })
        .collect();
    assert_eq!(
        got,
        [
            ("3g.40gb", 2, 60, 40448),
            ("2g.20gb", 3, 32, 20096),
            ("1g.10gb", 9, 16, 9984),
            ("1g.10gb", 10, 16, 9984)
        ]
    );
    let m0 = &g.mig_instances[0];
    assert_eq!(
        m0.uuid.as_deref(),
        Some("MIG-00000000-0000-0000-0000-000000000000")
    );
    assert_eq!((m0.cuda_cores, m0.tensor_cores), (Some(7680), Some(240)));
    assert_eq!(m0.fp32_tflops, Some(30.41));
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
fn no_driver_gives_datasheet_figures_marked_as_such() {
    let (gpus, notes) = fixture("gpu-no-driver");
    assert_eq!(gpus.len(), 2);
    for (i, g) in gpus.iter().enumerate() {
        assert_eq!(g.index, None);
        assert_eq!(g.name.as_deref(), Some("Quadro RTX 6000"));
        assert_eq!(g.pci_device_id.as_deref(), Some("0x1e30"));
        // The link still comes from sysfs.
        assert_eq!((g.pcie.max_gen, g.pcie.max_width), (Some(3), Some(16)));
        assert_eq!(g.architecture.as_deref(), Some("Turing"));
        assert_eq!(
            (g.sm_count, g.cuda_cores, g.tensor_cores),
            (Some(72), Some(4608), Some(576))
        );
        assert_eq!(g.vram_bytes, Some(24 << 30));
        assert_eq!(g.memory_bandwidth_bytes_per_s, Some(672_000_000_000));
        assert_eq!(g.fp32_tflops, Some(16.31));
        assert_eq!(g.fp16_tensor_tflops, Some(130.5));
        // Nothing measured: no max clock, so no max-clock figures.
        assert_eq!((g.max_sm_clock_mhz, g.fp32_tflops_max_clock), (None, None));
        for f in [
            "name",
            "architecture",
            "sm_count",
            "cuda_cores",
            "tensor_cores",
            "vram_bytes",
            "memory_bandwidth_bytes_per_s",
        ] {
            assert_eq!(g.fact_sources[f], "datasheet", "{f}");
        }
        assert!(g.fact_sources.values().all(|v| v == "datasheet"));
        let n = note(&notes, &format!("gpus[{i}]"));
        assert!(
            n[0].starts_with("no driver: datasheet figures for the Quadro RTX 6000")
                && n[0].ends_with("libnvidia-ml.so.1 not found: install the NVIDIA driver"),
            "{n:?}"
        );
    }
    assert_eq!((gpus[0].numa_node, gpus[1].numa_node), (Some(0), Some(1)));
}

/// A fresh copy of the fixture `name`, symlinks kept.
fn copy_of(name: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let src = format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    common::copy_tree(std::path::Path::new(&src), dir.path());
    dir
}

/// A copy of `gpu-no-driver` whose first GPU has PCI device `id`.
fn no_driver_with_device(id: &str) -> tempfile::TempDir {
    let dir = copy_of("gpu-no-driver");
    std::fs::write(
        dir.path()
            .join("sys/devices/pci0000:16/0000:16:00.0/0000:17:00.0/device"),
        format!("{id}\n"),
    )
    .unwrap();
    dir
}

/// A copy of `gpu-no-driver` whose first GPU has PCI subsystem `vendor`:`device`.
fn no_driver_with_subsystem(vendor: &str, device: &str) -> tempfile::TempDir {
    let dir = copy_of("gpu-no-driver");
    let at = dir
        .path()
        .join("sys/devices/pci0000:16/0000:16:00.0/0000:17:00.0");
    std::fs::write(at.join("subsystem_vendor"), format!("{vendor}\n")).unwrap();
    std::fs::write(at.join("subsystem_device"), format!("{device}\n")).unwrap();
    dir
}

#[test]
fn a_gpu_the_table_does_not_know_stays_unknown_with_a_reason() {
    // 0x1e3f is in neither NVIDIA's list nor pci.ids.
    let dir = no_driver_with_device("0x1e3f");
    let mut notes = Notes::default();
    let gpus = gpu::probe(&Source::sysroot(dir.path()), &Backend::Files, &mut notes);
    let g = &gpus[0];
    assert_eq!(g.pci_device_id.as_deref(), Some("0x1e3f"));
    assert_eq!(g.datasheet, None);
    assert_eq!(
        g.identity.as_ref().map(|d| d.certainty.as_str()),
        Some("unknown")
    );
    assert_eq!(
        (
            g.architecture.as_deref(),
            g.cuda_cores,
            g.vram_bytes,
            g.fp32_tflops
        ),
        (None, None, None, None)
    );
    assert!(g.fact_sources.is_empty());
    let n = note(&notes, "gpus[0]");
    assert!(
        n[0].contains("not in this build's GPU product table") && n[0].contains("0x1e3f"),
        "{n:?}"
    );
    // The fixture's trimmed pci.ids has no 1e3f line either: the name is unknown, said why.
    assert_eq!(g.name, None);
    assert!(note(&notes, "gpus[0].name")[0].contains("not in this pci.ids"));
    // The other GPU is still identified.
    assert_eq!(gpus[1].cuda_cores, Some(4608));
}

#[test]
fn a_second_device_id_of_a_product_is_known_without_pci_ids() {
    // 0x1e36 is a second "Quadro RTX 6000" id in NVIDIA's list.
    let dir = no_driver_with_device("0x1e36");
    let mut notes = Notes::default();
    let gpus = gpu::probe(&Source::sysroot(dir.path()), &Backend::Files, &mut notes);
    assert_eq!(gpus[0].name.as_deref(), Some("Quadro RTX 6000"));
    assert_eq!(
        gpus[0].identity.as_ref().map(|d| d.certainty.as_str()),
        Some("pci_unique")
    );
}

#[test]
fn without_a_driver_an_rtx_8000_of_any_board_maker_is_never_an_rtx_6000() {
    // NVIDIA's board id x:129e, from a maker NVIDIA's list does not name (Lenovo).
    let dir = no_driver_with_subsystem("0x17aa", "0x129e");
    let mut notes = Notes::default();
    let gpus = gpu::probe(&Source::sysroot(dir.path()), &Backend::Files, &mut notes);
    let g = &gpus[0];
    assert_eq!(g.name.as_deref(), Some("Quadro RTX 8000"));
    assert_eq!(g.vram_bytes, Some(48 << 30));
    assert_eq!(
        g.identity.as_ref().map(|d| d.certainty.as_str()),
        Some("pci_unique")
    );
    // A subsystem that names neither board: both candidates, memory and name unknown, what
    // they share (cores, architecture, rated FP32) still known.
    let dir = no_driver_with_subsystem("0x17aa", "0x1234");
    let mut notes = Notes::default();
    let gpus = gpu::probe(&Source::sysroot(dir.path()), &Backend::Files, &mut notes);
    let g = &gpus[0];
    let id = g.identity.as_ref().unwrap();
    assert_eq!(id.certainty, "pci_ambiguous");
    assert_eq!(id.candidates, ["Quadro RTX 6000", "Quadro RTX 8000"]);
    assert_eq!((g.name.as_deref(), g.vram_bytes), (None, None));
    assert_eq!(
        (g.architecture.as_deref(), g.cuda_cores, g.fp32_tflops),
        (Some("Turing"), Some(4608), Some(16.31))
    );
    assert_eq!(g.datasheet, None);
    assert!(note(&notes, "gpus[0].name")[0].contains("Quadro RTX 6000 or Quadro RTX 8000"));
    assert!(note(&notes, "gpus[0]")[0].starts_with("no driver: PCI 10de:1e30"));
    // The other GPU keeps its own subsystem, and its identity.
    assert_eq!(gpus[1].name.as_deref(), Some("Quadro RTX 6000"));
}

/// Replaces answers of device 0 in a copy of the fixture `name`'s nvml.json.
fn with_answers(name: &str, answers: &[(&str, serde_json::Value)]) -> tempfile::TempDir {
    let dir = copy_of(name);
    let path = dir.path().join("nvml.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for (call, answer) in answers {
        v["devices"][0][*call] = answer.clone();
    }
    std::fs::write(&path, v.to_string()).unwrap();
    dir
}

#[test]
fn a_cut_down_relabelled_board_is_a_contradiction_rated_on_its_own() {
    // The RTX 3090's PCI id, but 68 SMs, 10 GiB and another name: what a buyer must catch.
    let dir = with_answers(
        "x86_64-rtx3090",
        &[
            ("num_cores", serde_json::json!({"ok": 68 * 128})),
            ("name", serde_json::json!({"ok": "NVIDIA GeForce RTX 3080"})),
            (
                "memory_info",
                serde_json::json!({"ok": {"total": 10u64 << 30, "used": 0, "free": 10u64 << 30, "reserved": 0}}),
            ),
        ],
    );
    let mut notes = Notes::default();
    let gpus = gpu::probe(&Source::sysroot(dir.path()), &Backend::Files, &mut notes);
    let g = &gpus[0];
    assert_eq!(g.name.as_deref(), Some("NVIDIA GeForce RTX 3080"));
    assert_eq!(g.sm_count, Some(68));
    let id = g.identity.as_ref().unwrap();
    assert_eq!(id.certainty, "contradicted");
    assert_eq!(
        g.datasheet_mismatches,
        [
            "NVML names it 'NVIDIA GeForce RTX 3080', but PCI 10de:2204 is the NVIDIA GeForce \
             RTX 3090",
            "68 SMs, datasheet 82",
            "10.0 GiB, datasheet 24 GiB"
        ]
    );
    for f in ["name", "sm_count", "vram_bytes"] {
        let n = note(&notes, &format!("gpus[0].{f}"));
        assert!(n.iter().any(|r| r.starts_with("warning:")), "{f}: {n:?}");
    }
    // Never the 3090's rated clock on the 3080's cores: no row is trusted, and a GeForce
    // board has no customer boost clock, so the rated figure is unknown; the max-clock one is
    // the board's own.
    assert_eq!(g.fp32_tflops, None);
    assert_eq!(g.rated_clock_mhz, None);
    assert_eq!(g.fp32_tflops_max_clock, Some(36.56));
}

#[test]
fn a_board_sharing_its_pci_id_is_told_by_its_name() {
    // 0x1e30 with a subsystem no row lists is the RTX 6000 or the 8000; NVML's name picks
    // the RTX 8000 row, without a warning.
    let dir = with_answers(
        "hp-z8-g4-dual-rtx6000",
        &[
            ("name", serde_json::json!({"ok": "Quadro RTX 8000"})),
            (
                "memory_info",
                serde_json::json!({"ok": {"total": 49152u64 << 20, "used": 0, "free": 49152u64 << 20, "reserved": 0}}),
            ),
        ],
    );
    let at = dir
        .path()
        .join("sys/devices/pci0000:16/0000:16:00.0/0000:17:00.0");
    std::fs::write(at.join("subsystem_vendor"), "0x17aa\n").unwrap();
    std::fs::write(at.join("subsystem_device"), "0x1234\n").unwrap();
    let mut notes = Notes::default();
    let gpus = gpu::probe(&Source::sysroot(dir.path()), &Backend::Files, &mut notes);
    assert_eq!(
        gpus[0].datasheet.as_ref().map(|d| d.name.as_str()),
        Some("Quadro RTX 8000")
    );
    assert_eq!(
        gpus[0].identity.as_ref().map(|d| d.certainty.as_str()),
        Some("nvml_and_pci_agree")
    );
    assert!(gpus[0].datasheet_mismatches.is_empty(), "{:?}", gpus[0]);
    assert_eq!(gpus[1].datasheet.as_ref().unwrap().name, "Quadro RTX 6000");
}

#[test]
fn a_name_the_subsystem_rules_out_is_a_contradiction() {
    // NVML says RTX 8000, but subsystem 10de:12ba is NVIDIA's RTX 6000 board.
    let dir = with_answers(
        "hp-z8-g4-dual-rtx6000",
        &[("name", serde_json::json!({"ok": "Quadro RTX 8000"}))],
    );
    let mut notes = Notes::default();
    let gpus = gpu::probe(&Source::sysroot(dir.path()), &Backend::Files, &mut notes);
    let id = gpus[0].identity.as_ref().unwrap();
    assert_eq!(id.certainty, "contradicted");
    assert_eq!(id.candidates, ["Quadro RTX 6000"]);
    // The report keeps the PCI id's datasheet to compare with, but no figure of it is used.
    assert_eq!(gpus[0].datasheet.as_ref().unwrap().name, "Quadro RTX 6000");
    assert!(gpus[0].fact_sources.values().all(|v| v == "nvml"));
}

#[test]
fn every_fixture_gpu_is_rated_within_2_percent_of_its_datasheet() {
    let root = format!("{}/fixtures", env!("CARGO_MANIFEST_DIR"));
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(&root).unwrap() {
        let dir = entry.unwrap().path();
        if !dir.join("sys/bus/pci/devices").is_dir() {
            continue;
        }
        let mut notes = Notes::default();
        for g in gpu::probe(&Source::sysroot(&dir), &Backend::Files, &mut notes)
            .into_iter()
            .filter(|g| g.is_nvidia())
        {
            let d = g
                .datasheet
                .as_ref()
                .expect("every fixture GPU is in the table");
            let (Some(got), Some(want)) = (g.fp32_tflops, d.fp32_tflops) else {
                panic!(
                    "{}: {:?} rated, datasheet {:?}",
                    dir.display(),
                    g.fp32_tflops,
                    d.fp32_tflops
                );
            };
            assert!(
                (got - want).abs() <= want * 0.02,
                "{}: {} rated {got} TFLOPS, datasheet {want}",
                dir.display(),
                d.name
            );
            seen.push(d.name.clone());
        }
    }
    seen.sort();
    seen.dedup();
    // RTX 2080, A100, RTX 3090, T4, P2000, H100 and the Quadro RTX 6000.
    assert_eq!(seen.len(), 7, "{seen:?}");
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
    let gpus = gpu::probe(&src, &Backend::Files, &mut notes);
    eprintln!("probe took {:?}; notes: {:#?}", start.elapsed(), notes.0);
    assert!(!gpus.is_empty(), "no GPU found: {:?}", notes.0);
    for g in &gpus {
        eprintln!("{g:#?}");
        assert!(g.index.is_some(), "NVML did not list {:?}", g.pci_address);
        assert!(g.name.is_some() && g.uuid.is_some() && g.vram_bytes.is_some());
        assert!(g.driver_version.is_some() && g.cuda_version.is_some());
        assert!(g.cuda_cores.is_some() && g.sm_count.is_some());
        assert!(g.fp32_tflops_max_clock.is_some());
        assert!(g.memory_bandwidth_bytes_per_s.is_some());
        // Strings as nvidia-smi prints them, not nvml-wrapper's enum names.
        let brand = g.brand.as_deref().unwrap_or("");
        assert!(!["Nvidia", "NvidiaRTX", "QuadroRTX", "GeForceRTX"].contains(&brand));
        assert_ne!(g.architecture.as_deref(), Some("Ada"));
        if g.datasheet.is_some() {
            assert!(
                g.fp32_tflops.is_some(),
                "rated figure of a board in the table"
            );
            assert!(
                g.datasheet_mismatches.is_empty(),
                "{:?}",
                g.datasheet_mismatches
            );
        }
        if g.mig_enabled == Some(true) {
            assert!(
                !g.mig_instances.is_empty(),
                "MIG on, no instances: {:?}",
                notes.0
            );
        }
    }
}

/// Capture mode records every NVML answer; replaying it gives the same GPUs.
#[test]
#[ignore = "needs an NVIDIA GPU and driver"]
fn live_capture_replays_the_same() {
    let src = Source::live_recording();
    let mut notes = Notes::default();
    let live = gpu::probe(&src, &Backend::Files, &mut notes);
    let rec = src.take_recording().unwrap();
    let text = rec.answers.get("nvml.json").expect("nvml.json recorded");
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("nvml.json"), text).unwrap();
    let mut notes2 = Notes::default();
    let replay = gpu::probe(&Source::sysroot(dir.path()), &Backend::Files, &mut notes2);
    assert_eq!(live.len(), replay.len());
    for (a, b) in live.iter().zip(&replay) {
        assert_eq!(a, b);
    }
}

/// A copy of `name` whose two Quadro RTX GPUs carry PCI subsystem `vendor`:`device`.
fn both_with_subsystem(name: &str, vendor: &str, device: &str) -> tempfile::TempDir {
    let dir = copy_of(name);
    for at in [
        "pci0000:16/0000:16:00.0/0000:17:00.0",
        "pci0000:ae/0000:ae:00.0/0000:af:00.0",
    ] {
        let at = dir.path().join("sys/devices").join(at);
        std::fs::write(at.join("subsystem_vendor"), format!("{vendor}\n")).unwrap();
        std::fs::write(at.join("subsystem_device"), format!("{device}\n")).unwrap();
    }
    dir
}

/// An order for two Quadro RTX boards of `model`, GPU lines only.
fn gpu_order(dir: &std::path::Path, model: &str, gib: u32) -> std::path::PathBuf {
    let path = dir.join("order.toml");
    std::fs::write(
        &path,
        format!(
            "[profile]\nname = \"order\"\n\n[[gpus]]\nmodel = \"{model}\"\ncount = 2\n\
             architecture = \"Turing\"\nvram = \"{gib} GB\"\n"
        ),
    )
    .unwrap();
    path
}

#[test]
fn without_a_driver_an_ambiguous_board_makes_either_order_incomplete() {
    let machine = both_with_subsystem("gpu-no-driver", "0x17aa", "0x1234");
    let root = machine.path().to_str().unwrap();
    let orders = tempfile::tempdir().unwrap();
    for (model, gib) in [("Quadro RTX 6000", 24), ("Quadro RTX 8000", 48)] {
        let order = gpu_order(orders.path(), model, gib);
        let (code, out, err) = common::run(&[
            "verify",
            "-p",
            order.to_str().unwrap(),
            "--sysroot",
            root,
            "-f",
            "json",
        ]);
        assert_eq!(code, 3, "{model}: {out}{err}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        let count = &v["lines"][0];
        assert_eq!(count["status"], "unknown", "{count}");
        assert!(
            count["note"]
                .as_str()
                .unwrap()
                .contains("Quadro RTX 6000 or Quadro RTX 8000"),
            "{count}"
        );
    }
    // Named by the subsystem (x:129e from a maker NVIDIA's list does not name): the RTX 8000
    // order passes and the RTX 6000 order fails.
    let machine = both_with_subsystem("gpu-no-driver", "0x17aa", "0x129e");
    let root = machine.path().to_str().unwrap();
    for (model, gib, want) in [("Quadro RTX 8000", 48, 0), ("Quadro RTX 6000", 24, 1)] {
        let order = gpu_order(orders.path(), model, gib);
        let (code, out, _) =
            common::run(&["verify", "-p", order.to_str().unwrap(), "--sysroot", root]);
        assert_eq!(code, want, "{model}: {out}");
    }
}

#[test]
fn installing_the_driver_on_an_ambiguous_board_is_no_replacement() {
    let before = both_with_subsystem("gpu-no-driver", "0x17aa", "0x1234");
    let after = both_with_subsystem("hp-z8-g4-dual-rtx6000", "0x17aa", "0x1234");
    let path = after.path().join("nvml.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    for d in v["devices"].as_array_mut().unwrap() {
        d["name"] = serde_json::json!({"ok": "Quadro RTX 8000"});
        d["memory_info"] = serde_json::json!({"ok": {"total": 49152u64 << 20, "used": 0, "free": 49152u64 << 20, "reserved": 0}});
    }
    std::fs::write(&path, v.to_string()).unwrap();
    let (_, out, err) = common::run(&[
        "diff",
        before.path().to_str().unwrap(),
        after.path().to_str().unwrap(),
        "-f",
        "json",
    ]);
    let d: serde_json::Value = serde_json::from_str(&out).unwrap_or_else(|e| panic!("{e}: {err}"));
    let text = d.to_string();
    assert!(!text.contains("GPU replaced"), "{text}");
    let unknown = d["unknown_on_one_side"].as_array().unwrap();
    assert!(
        unknown
            .iter()
            .any(|c| c["what"] == "GPU model" && c["after"] == "Quadro RTX 8000"),
        "{text}"
    );
    assert!(unknown.iter().any(|c| c["what"] == "GPU memory"), "{text}");
}

#[test]
fn a_contradicted_board_fails_the_model_line_and_is_under_attention() {
    let dir = with_answers(
        "hp-z8-g4-dual-rtx6000",
        &[("name", serde_json::json!({"ok": "Quadro RTX 8000"}))],
    );
    let root = dir.path().to_str().unwrap();
    let orders = tempfile::tempdir().unwrap();
    let order = gpu_order(orders.path(), "Quadro RTX 8000", 24);
    let (code, out, _) = common::run(&["verify", "-p", order.to_str().unwrap(), "--sysroot", root]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("identity contradicted: GPU 0: NVML names it 'Quadro RTX 8000'"),
        "{out}"
    );
    let (_, out, _) = common::run(&["--sysroot", root]);
    assert!(
        out.contains("GPU 0 is not the board its PCI id says: NVML names it 'Quadro RTX 8000'"),
        "{out}"
    );
}

/// A copy of the Tesla T4 capture whose GPU answers NVML as another Turing board: PCI device
/// `device`, NVML `name` (the same NVML calls a real TU117 board answers), `cores` CUDA cores.
fn t4_answering_as(device: u16, name: &str, cores: u32) -> tempfile::TempDir {
    let ids = (u64::from(device) << 16) | 0x10de;
    let dir = with_answers(
        "x86_64-tesla-t4",
        &[
            ("name", serde_json::json!({ "ok": name })),
            ("num_cores", serde_json::json!({ "ok": cores })),
            (
                "pci_device_ids",
                serde_json::json!({"ok": {"device": ids, "subsystem": ids}}),
            ),
        ],
    );
    std::fs::write(
        dir.path()
            .join("sys/devices/pci0000:00/0000:00:1e.0/device"),
        format!("0x{device:04x}\n"),
    )
    .unwrap();
    dir
}

#[test]
fn tu116_tu117_boards_get_no_tensor_cores_when_the_driver_answers() {
    // Turing at compute capability 7.5, like the T4 (320 tensor cores), but on chips without
    // tensor cores: the chip decides, whatever the name looks like.
    for (device, name, cores, chip) in [
        (0x1fb0, "NVIDIA T1000", 896, "TU117"),
        (0x1ff2, "NVIDIA T400 4GB", 384, "TU117"),
        (0x1fb1, "NVIDIA T600", 640, "TU117"),
        (0x1fb8, "Quadro T2000", 1024, "TU117"),
        (0x1f97, "NVIDIA GeForce MX450", 896, "TU117"),
        (0x2184, "NVIDIA GeForce GTX 1660", 1408, "TU116"),
        // An older driver names a newer board "Graphics Device": still the chip's answer.
        (0x1fb0, "Graphics Device", 896, "TU117"),
    ] {
        let dir = t4_answering_as(device, name, cores);
        let mut notes = Notes::default();
        let gpus = gpu::probe(&Source::sysroot(dir.path()), &Backend::Files, &mut notes);
        let g = &gpus[0];
        let what = format!("{device:04x} {name}");
        assert_eq!(g.cuda_cores, Some(cores), "{what}");
        assert_eq!(g.sm_count, Some(cores / 64), "{what}");
        assert_eq!(g.tensor_cores, Some(0), "{what}");
        assert_eq!(g.tensor_core_generation, None, "{what}");
        assert_eq!(
            (g.fp16_tensor_tflops, g.fp16_tensor_fp32_acc_tflops),
            (None, None),
            "{what}"
        );
        assert_eq!(g.fp16_tensor_tflops_max_clock, None, "{what}");
        assert_eq!(
            note(&notes, "gpus[0].tensor_cores"),
            [format!("none: its {chip} chip has no tensor cores").as_str()],
            "{what}"
        );
        assert!(g.fp32_tflops_max_clock.is_some(), "{what}");
    }
}
