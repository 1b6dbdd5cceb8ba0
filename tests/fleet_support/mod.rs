//! Reports for fleet and integration tests, built from `Spec` values: the reference HP Z8 G4
//! (2 × Xeon Gold 6254, 12 × 8 GiB DDR4, 2 × Quadro RTX 6000, 2 × 1 TB NVMe) and mutated
//! copies. Values follow the reference machine of design.md.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::Path;

use rigcheck::spec::{Cpu, Dimm, Drive, Gpu, Memory, Os, Pcie, Spec, System};

pub const GIB: u64 = 1 << 30;

/// The reference workstation under host name `host`.
pub fn reference_spec(host: &str) -> Spec {
    let dimms = (0..12)
        .map(|i| Dimm {
            locator: format!("DIMM {}", i + 1),
            bank_locator: None,
            size_bytes: Some(8 * GIB),
            kind: Some("DDR4".into()),
            form_factor: Some("DIMM".into()),
            speed_mts: Some(2933),
            configured_speed_mts: Some(2933),
            manufacturer: Some("Samsung".into()),
            part_number: Some("M393A1K43DB1-CVF".into()),
            serial: Some(format!("{host}-dimm-{i}")),
            rank: Some(1),
            type_detail: None,
            socket: None,
        })
        .collect();
    let gpu = |index: u32, addr: &str, numa: i32| Gpu {
        index: Some(index),
        pci_address: Some(addr.into()),
        pci_device_id: Some("0x1e30".into()),
        name: Some("Quadro RTX 6000".into()),
        uuid: Some(format!("GPU-{host}-{index}")),
        architecture: Some("Turing".into()),
        compute_capability: Some("7.5".into()),
        sm_count: Some(72),
        cuda_cores: Some(4608),
        tensor_cores: Some(576),
        tensor_core_generation: Some(2),
        vram_bytes: Some(24 * GIB),
        memory_bus_width_bits: Some(384),
        memory_bandwidth_bytes_per_s: Some(672_000_000_000),
        max_sm_clock_mhz: Some(1770),
        fp32_tflops: Some(16.3),
        pcie: Pcie {
            gen: Some(3),
            width: Some(16),
            max_gen: Some(3),
            max_width: Some(16),
            ..Pcie::default()
        },
        numa_node: Some(numa),
        driver_version: Some("535.183.01".into()),
        cuda_version: Some("12.2".into()),
        // Quadro RTX boards ship with ECC off: they count no memory errors.
        state: rigcheck::spec::GpuState {
            ecc_enabled: Some(false),
            ..Default::default()
        },
        ..Gpu::default()
    };
    let drive = |i: u32| Drive {
        name: format!("nvme{i}n1"),
        model: Some("SAMSUNG MZVLB1T0HALR-000H1".into()),
        serial: Some(format!("{host}-nvme-{i}")),
        firmware: Some("4M2QEXH7".into()),
        size_bytes: Some(1_024_209_543_168),
        kind: Some(rigcheck::spec::DriveKind::Nvme),
        transport: Some("nvme".into()),
        rotational: Some(false),
        removable: Some(false),
        logical_block_size: Some(512),
        physical_block_size: Some(512),
        pci_address: None,
        numa_node: Some(0),
        ..Drive::default()
    };
    Spec {
        schema_version: rigcheck::spec::SCHEMA_VERSION,
        rigcheck_version: "0.1.0".into(),
        captured_at: Some("2024-05-02T09:30:00Z".into()),
        hostname: Some(host.into()),
        source: "live".into(),
        nics: Vec::new(),
        lists: Default::default(),
        system: System {
            vendor: Some("HP".into()),
            product: Some("HP Z8 G4 Workstation".into()),
            serial: Some(format!("CZC{host}")),
            board_name: Some("81C7".into()),
            bios_vendor: Some("HP".into()),
            bios_version: Some("P60 v02.47".into()),
            bios_date: Some("03/23/2020".into()),
            chassis_type: Some("Tower".into()),
            ..System::default()
        },
        os: Os {
            name: Some("Ubuntu".into()),
            version: Some("22.04".into()),
            pretty_name: Some("Ubuntu 22.04.4 LTS".into()),
            kernel: Some("5.15.0-105-generic".into()),
            arch: Some("x86_64".into()),
        },
        cpu: Cpu {
            vendor: Some("GenuineIntel".into()),
            model: Some("Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz".into()),
            family: Some(6),
            model_id: Some(85),
            stepping: Some(7),
            sockets: Some(2),
            cores: Some(36),
            cores_per_socket: Some(18),
            threads: Some(72),
            threads_per_core: Some(2),
            cpus_present: Some(72),
            online: Some("0-71".into()),
            base_mhz: Some(3100),
            base_mhz_source: Some("model name".into()),
            min_mhz: Some(1000),
            max_mhz: Some(4000),
            isa: vec![
                "AVX2".into(),
                "AVX-512F".into(),
                "AVX-512 VNNI".into(),
                "FMA".into(),
            ],
            fma_units: Some(2),
            flags: ["avx", "avx2", "avx512f", "avx512_vnni", "fma", "sse4_2"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            // As the saved template has it: the node directory read, no node listed.
            numa_nodes: Some(Vec::new()),
            ..Cpu::default()
        },
        memory: Memory {
            total_bytes: Some(96 * GIB),
            total_source: Some("dimms".into()),
            usable_bytes: Some(94 * GIB),
            dimm_source: Some("smbios".into()),
            slot_count: Some(24),
            dimms,
            empty_slots: Vec::new(),
            slots: Vec::new(),
        },
        drives: vec![drive(0), drive(1)],
        gpus: vec![gpu(0, "0000:17:00.0", 0), gpu(1, "0000:af:00.0", 1)],
        limits: None,
        bench: None,
        headroom: None,
        health: Some(new_health(&["nvme0n1", "nvme1n1"])),
        notes: Vec::new(),
    }
}

/// The health of a machine delivered new: its NVMe drives 12 hours on and 1 % used, no
/// error counted by the memory controllers.
pub fn new_health(drives: &[&str]) -> rigcheck::spec::health::Health {
    use rigcheck::spec::health::*;
    Health {
        drives: drives
            .iter()
            .map(|d| DriveHealth {
                drive: d.to_string(),
                source: Some("nvme".into()),
                critical_warning: Some(0),
                available_spare_percent: Some(100),
                available_spare_threshold_percent: Some(10),
                percentage_used: Some(1),
                power_on_hours: Some(12),
                media_errors: Some(0),
                ..DriveHealth::default()
            })
            .collect(),
        memory: MemoryHealth {
            source: Some("edac".into()),
            corrected_errors: Some(0),
            uncorrected_errors: Some(0),
            controllers: vec![MemoryController {
                name: "mc0".into(),
                corrected_errors: Some(0),
                uncorrected_errors: Some(0),
                ..MemoryController::default()
            }],
        },
        ..Health::default()
    }
}

/// The reference machine with its second GPU in an x8 link.
pub fn gpu_at_x8(host: &str) -> Spec {
    let mut s = reference_spec(host);
    s.gpus[1].pcie.width = Some(8);
    s
}

/// The reference machine with DIMM 7 missing.
pub fn dimm_missing(host: &str) -> Spec {
    let mut s = reference_spec(host);
    s.memory.dimms.retain(|d| d.locator != "DIMM 7");
    s.memory.empty_slots.push("DIMM 7".into());
    s.memory.total_bytes = Some(88 * GIB);
    s
}

/// The reference machine with another BIOS.
pub fn other_bios(host: &str) -> Spec {
    let mut s = reference_spec(host);
    s.system.bios_version = Some("P60 v02.62".into());
    s
}

/// Writes `spec` as `dir/<name>` in the JSON of `--format json`.
pub fn write_report(dir: &Path, name: &str, spec: &Spec) {
    std::fs::write(dir.join(name), serde_json::to_string_pretty(spec).unwrap()).unwrap();
}

/// The six-host fleet: three as ordered, three odd ones.
pub fn write_fleet(dir: &Path) {
    for h in ["z8-01", "z8-02", "z8-06"] {
        write_report(dir, &format!("{h}.json"), &reference_spec(h));
    }
    write_report(dir, "z8-03.json", &gpu_at_x8("z8-03"));
    write_report(dir, "z8-04.json", &dimm_missing("z8-04"));
    write_report(dir, "z8-05.json", &other_bios("z8-05"));
}

/// The host names of a fleet JSON's list `key` (`hosts`, `odd_ones_out`), in order.
pub fn hosts_in<'a>(v: &'a serde_json::Value, key: &str) -> Vec<&'a str> {
    v[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["host"].as_str().unwrap())
        .collect()
}
