//! `Spec` values for the sheet tests, built in code so snapshots stay stable.
//!
//! Composed by hand from published figures, not captured: the HP Z8 G4 reference machine
//! (2 × Xeon Gold 6254, 2 × Quadro RTX 6000, 12 × 8 GiB of 24 slots, 2 × 1 TB NVMe; DIMM
//! locators spelled as HP's firmware does, `CPU0-DIMM1` … `CPU1-DIMM12`, as in the linuxhw
//! dmidecode of a Z8 G4), a Dell laptop (1 socket, 2 SODIMM, 1 NVMe, no GPU), and a
//! Supermicro 4-GPU tower (2 sockets, 24 slots spelled `P1-DIMMA1`, 4 × RTX A6000).
//! GPU figures follow the architecture reference (Quadro RTX 6000: 72 SMs, 4608 CUDA,
//! 576 Tensor, 384-bit, 672 GB/s, 16.3 TFLOPS FP32).

#![allow(dead_code)]

use rigcheck::spec::*;

const GIB: u64 = 1024 * 1024 * 1024;

fn s(v: &str) -> Option<String> {
    Some(v.to_string())
}

fn dimm(
    locator: &str,
    bank: &str,
    gib: u64,
    speed: u32,
    ff: &str,
    part: &str,
    serial: &str,
) -> Dimm {
    Dimm {
        locator: locator.into(),
        bank_locator: s(bank),
        size_bytes: Some(gib * GIB),
        kind: s("DDR4"),
        form_factor: s(ff),
        speed_mts: Some(speed),
        configured_speed_mts: Some(speed),
        manufacturer: s("Samsung"),
        part_number: s(part),
        serial: s(serial),
        rank: Some(1),
        type_detail: None,
        socket: None,
    }
}

fn nvme(name: &str, model: &str, serial: &str, size: u64, pci: &str, numa: Option<i32>) -> Drive {
    Drive {
        name: name.into(),
        model: s(model),
        serial: s(serial),
        firmware: s("EXA7301Q"),
        size_bytes: Some(size),
        kind: Some(rigcheck::spec::DriveKind::Nvme),
        transport: s("nvme"),
        rotational: Some(false),
        removable: Some(false),
        logical_block_size: Some(512),
        physical_block_size: Some(512),
        pci_address: s(pci),
        pcie: Some(Pcie {
            gen: Some(3),
            width: Some(4),
            max_gen: Some(3),
            max_width: Some(4),
            ..Pcie::default()
        }),
        numa_node: numa,
        socket: None,
    }
}

fn cache(level: u32, kind: &str, size: u64, instances: u32) -> Cache {
    Cache {
        level,
        kind: kind.into(),
        size_bytes: size,
        instances,
        total_bytes: size * instances as u64,
    }
}

fn xeon(
    model: &str,
    sockets: u32,
    cps: u32,
    base: u32,
    max: u32,
    l3: u64,
    nodes: Vec<NumaNode>,
) -> Cpu {
    let cores = sockets * cps;
    Cpu {
        vendor: s("GenuineIntel"),
        model: s(model),
        socket_models: Vec::new(),
        family: Some(6),
        model_id: Some(85),
        stepping: Some(7),
        microarchitecture: s("Cascade Lake"),
        codename: s("Cascade Lake-SP"),
        current_mhz: None,
        microcode: s("0x5003604"),
        sockets: Some(sockets),
        cores: Some(cores),
        cores_per_socket: Some(cps),
        threads: Some(cores * 2),
        threads_per_core: Some(2),
        cpus_present: Some(cores * 2),
        online: Some(format!("0-{}", cores * 2 - 1)),
        offline: None,
        base_mhz: Some(base),
        base_mhz_source: s("cpufreq base_frequency"),
        min_mhz: Some(1000),
        max_mhz: Some(max),
        scaling_driver: s("intel_pstate"),
        governor: s("performance"),
        caches: vec![
            cache(1, "data", 32 * 1024, cores),
            cache(1, "instruction", 32 * 1024, cores),
            cache(2, "unified", 1024 * 1024, cores),
            cache(3, "unified", l3, sockets),
        ],
        numa_nodes: nodes,
        core_types: Vec::new(),
        isa: ["AVX2", "FMA", "AVX-512F", "AVX-512 VNNI"]
            .map(String::from)
            .to_vec(),
        fma_units: Some(2),
        peak_fp64_gflops: Some(cores as f64 * base as f64 / 1000.0 * 32.0),
        flags: Vec::new(),
    }
}

fn quadro_rtx_6000(index: u32, pci: &str, uuid: &str, serial: &str, numa: i32, cpus: &str) -> Gpu {
    Gpu {
        index: Some(index),
        pci_address: s(pci),
        pci_device_id: s("0x1e30"),
        name: s("Quadro RTX 6000"),
        uuid: s(uuid),
        serial: s(serial),
        board_part_number: s("900-5G150-2200-000"),
        vbios_version: s("90.02.2E.00.0C"),
        architecture: s("Turing"),
        compute_capability: s("7.5"),
        sm_count: Some(72),
        cuda_cores: Some(4608),
        tensor_cores: Some(576),
        tensor_core_generation: Some(2),
        vram_bytes: Some(24 * GIB),
        memory_bus_width_bits: Some(384),
        memory_bandwidth_bytes_per_s: Some(672_048_000_000),
        max_sm_clock_mhz: Some(1770),
        max_memory_clock_mhz: Some(7001),
        fp32_tflops: Some(16.31),
        fp16_tensor_tflops: Some(130.5),
        fp16_tensor_fp32_acc_tflops: Some(130.5),
        pcie: Pcie {
            gen: Some(1),
            width: Some(16),
            max_gen: Some(3),
            max_width: Some(16),
            ..Pcie::default()
        },
        numa_node: Some(numa),
        local_cpus: s(cpus),
        driver_version: s("535.171.04"),
        cuda_version: s("12.2"),
        mig_enabled: None,
        state: GpuState::default(),
        ..Gpu::default()
    }
}

fn node(id: u32, cpus: &str, bytes: u64) -> NumaNode {
    NumaNode {
        id,
        cpus: cpus.into(),
        memory_bytes: Some(bytes),
        socket: None,
    }
}

/// Places slots, nodes, GPUs and drives on sockets as `probe::inventory` does for a live
/// machine: DIMM slots by the probe's own locator rule, NUMA nodes an equal number per
/// socket in order (as these machines are built), devices by their node.
fn placed(mut spec: Spec) -> Spec {
    let m = &mut spec.memory;
    let mut slots: Vec<(String, Option<String>, Option<usize>)> = m
        .dimms
        .iter()
        .enumerate()
        .map(|(i, d)| (d.locator.clone(), d.bank_locator.clone(), Some(i)))
        .chain(m.empty_slots.iter().map(|l| (l.clone(), None, None)))
        .collect();
    slots.sort_by_key(|(l, _, _)| rigcheck::natural::natural_key(l));
    let places = rigcheck::probe::memory::place_slots(
        &slots
            .iter()
            .map(|(l, b, _)| (l.as_str(), b.as_deref()))
            .collect::<Vec<_>>(),
        spec.cpu.sockets.map(|n| n as usize),
    );
    for ((locator, bank_locator, dimm), p) in slots.into_iter().zip(places) {
        if let Some(i) = dimm {
            m.dimms[i].socket = p.socket;
        }
        m.slots.push(MemorySlot {
            locator,
            bank_locator,
            socket: p.socket,
            channel: p.channel,
            dimm,
        });
    }
    let sockets = spec.cpu.sockets.unwrap_or(1).max(1);
    let nodes = spec.cpu.numa_nodes.len() as u32;
    let per = (nodes / sockets).max(1);
    for (k, n) in spec.cpu.numa_nodes.iter_mut().enumerate() {
        n.socket = Some(k as u32 / per);
    }
    let node_socket = |node: Option<i32>| -> Option<u32> {
        let id = u32::try_from(node?).ok()?;
        spec.cpu.numa_nodes.iter().find(|n| n.id == id)?.socket
    };
    let gpu_sockets: Vec<_> = spec.gpus.iter().map(|g| node_socket(g.numa_node)).collect();
    let drive_sockets: Vec<_> = spec
        .drives
        .iter()
        .map(|d| node_socket(d.numa_node))
        .collect();
    for (g, s) in spec.gpus.iter_mut().zip(gpu_sockets) {
        g.socket = if sockets == 1 { Some(0) } else { s };
    }
    for (d, s) in spec.drives.iter_mut().zip(drive_sockets) {
        d.socket = if sockets == 1 { Some(0) } else { s };
    }
    spec
}

/// Serials and ids of `reference()`, which `--redact` must remove from every format.
pub const REFERENCE_SECRETS: &[&str] = &[
    "z8-lab-07",
    "CZC9304KQ2",
    "2b0e6c1a-8f3d-4e5b-9c7a-1d2e3f4a5b6c",
    "PXYLB0A8JH1234",
    "GPU-5e0b3a66-7b1c-4a3e-9f0e-2d6a3c4b5e6f",
    "GPU-8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
    "0324218091234",
    "0324218095678",
    "S4EMNX0R612345",
    "S4EMNX0R612399",
    "40A1B2C1",
    "3c:ec:ef:12:34:56",
];

/// The reference machine: HP Z8 G4, 2 × Xeon Gold 6254, 2 × Quadro RTX 6000.
pub fn reference() -> Spec {
    let mut dimms = Vec::new();
    let mut empty = Vec::new();
    // Six modules per CPU in the slots HP fills first for six-channel Xeon SP.
    let filled = [1, 3, 5, 8, 10, 12];
    let mut serial = 0;
    for cpu in 0..2 {
        for slot in 1..=12 {
            let loc = format!("CPU{cpu}-DIMM{slot}");
            if filled.contains(&slot) {
                serial += 1;
                dimms.push(dimm(
                    &loc,
                    &format!("CPU{cpu}"),
                    8,
                    2933,
                    "RDIMM",
                    "M393A1K43DB1-CVF",
                    &format!("40A1B2C{serial}"),
                ));
            } else {
                empty.push(loc);
            }
        }
    }
    placed(Spec {
        schema_version: SCHEMA_VERSION,
        rigcheck_version: "0.1.0".into(),
        captured_at: s("2024-05-14T09:30:00Z"),
        hostname: s("z8-lab-07"),
        source: "/captures/z8-lab-07".into(),
        nics: Vec::new(),
        lists: Default::default(),
        system: System {
            vendor: s("HP"),
            product: s("HP Z8 G4 Workstation"),
            version: None,
            family: s("103C_53335X G=D"),
            sku: s("2WU46AV"),
            serial: s("CZC9304KQ2"),
            uuid: s("2b0e6c1a-8f3d-4e5b-9c7a-1d2e3f4a5b6c"),
            board_vendor: s("HP"),
            board_name: s("81C7"),
            board_version: s("KBC Version 21.13.00"),
            board_serial: s("PXYLB0A8JH1234"),
            bios_vendor: s("HP"),
            bios_version: s("P60 v02.75"),
            bios_date: s("10/25/2021"),
            chassis_type: s("Tower"),
            virtualization: None,
        },
        os: Os {
            name: s("Ubuntu"),
            version: s("22.04"),
            pretty_name: s("Ubuntu 22.04.4 LTS"),
            kernel: s("5.15.0-105-generic"),
            arch: s("x86_64"),
        },
        cpu: xeon(
            "Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz",
            2,
            18,
            3100,
            4000,
            25_952_256,
            vec![
                node(0, "0-17,36-53", 50_273_230_848),
                node(1, "18-35,54-71", 50_724_102_144),
            ],
        ),
        memory: Memory {
            total_bytes: Some(96 * GIB),
            total_source: s("dimms"),
            usable_bytes: Some(100_997_333_000),
            dimm_source: s("smbios"),
            slot_count: Some(24),
            dimms,
            empty_slots: empty,
            slots: Vec::new(),
        },
        drives: vec![
            nvme(
                "nvme0n1",
                "SAMSUNG MZVLB1T0HALR-000H1",
                "S4EMNX0R612345",
                1_024_209_543_168,
                "0000:5b:00.0",
                Some(0),
            ),
            nvme(
                "nvme1n1",
                "SAMSUNG MZVLB1T0HALR-000H1",
                "S4EMNX0R612399",
                1_024_209_543_168,
                "0000:5c:00.0",
                Some(0),
            ),
        ],
        gpus: vec![
            quadro_rtx_6000(
                0,
                "0000:2d:00.0",
                "GPU-5e0b3a66-7b1c-4a3e-9f0e-2d6a3c4b5e6f",
                "0324218091234",
                0,
                "0-17,36-53",
            ),
            quadro_rtx_6000(
                1,
                "0000:d8:00.0",
                "GPU-8c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f",
                "0324218095678",
                1,
                "18-35,54-71",
            ),
        ],
        limits: None,
        bench: None,
        headroom: None,
        health: None,
        notes: vec![
            Note {
                field: "gpus[0].state.fan_percent".into(),
                reason: "not recorded in the capture of z8-lab-07".into(),
            },
            Note {
                field: "network".into(),
                reason: "eno1 3c:ec:ef:12:34:56 is not part of the inventory".into(),
            },
        ],
    })
}

/// A laptop: Dell Latitude, 1 socket, 2 SODIMM slots, 1 NVMe, no GPU, NUMA not reported
/// for the drive (single-node machines report -1).
pub fn laptop() -> Spec {
    let mut cpu = xeon(
        "11th Gen Intel(R) Core(TM) i7-1185G7 @ 3.00GHz",
        1,
        4,
        3000,
        4800,
        12 * 1024 * 1024,
        vec![node(0, "0-7", 16_453_025_792)],
    );
    cpu.isa = ["AVX2", "FMA", "AVX-512F", "AVX-512 VNNI"]
        .map(String::from)
        .to_vec();
    cpu.fma_units = Some(1);
    cpu.peak_fp64_gflops = Some(4.0 * 3.0 * 16.0);
    cpu.caches[2] = cache(2, "unified", 1280 * 1024, 4);
    cpu.caches[1] = cache(1, "instruction", 32 * 1024, 4);
    cpu.caches[0] = cache(1, "data", 48 * 1024, 4);
    let mut a = dimm(
        "DIMM A",
        "BANK 0",
        8,
        3200,
        "SODIMM",
        "M471A1K43EB1-CWE",
        "36A0E1F2",
    );
    a.manufacturer = s("Samsung");
    let mut b = dimm(
        "DIMM B",
        "BANK 2",
        8,
        3200,
        "SODIMM",
        "M471A1K43EB1-CWE",
        "36A0E1F9",
    );
    b.manufacturer = s("Samsung");
    placed(Spec {
        schema_version: SCHEMA_VERSION,
        rigcheck_version: "0.1.0".into(),
        captured_at: s("2024-06-02T14:05:11+02:00"),
        hostname: s("latitude-ana"),
        source: "live".into(),
        nics: Vec::new(),
        lists: Default::default(),
        system: System {
            vendor: s("Dell Inc."),
            product: s("Latitude 5420"),
            version: None,
            family: s("Latitude"),
            sku: s("0A23"),
            serial: s("7XK4Q53"),
            uuid: s("4c4c4544-0058-4b10-8034-b7c04f513533"),
            board_vendor: s("Dell Inc."),
            board_name: s("0W36NF"),
            board_version: s("A00"),
            board_serial: s("/7XK4Q53/CNCMK0013A0123/"),
            bios_vendor: s("Dell Inc."),
            bios_version: s("1.31.2"),
            bios_date: s("01/09/2024"),
            chassis_type: s("Notebook"),
            virtualization: None,
        },
        os: Os {
            name: s("Fedora Linux"),
            version: s("40"),
            pretty_name: s("Fedora Linux 40 (Workstation Edition)"),
            kernel: s("6.8.9-300.fc40.x86_64"),
            arch: s("x86_64"),
        },
        cpu,
        memory: Memory {
            total_bytes: Some(16 * GIB),
            total_source: s("dimms"),
            usable_bytes: Some(16_453_025_792),
            dimm_source: s("smbios"),
            slot_count: Some(2),
            dimms: vec![a, b],
            empty_slots: Vec::new(),
            slots: Vec::new(),
        },
        drives: vec![nvme(
            "nvme0n1",
            "KXG60ZNV512G KIOXIA",
            "X0RS10ABCDEF",
            512_110_190_592,
            "0000:03:00.0",
            None,
        )],
        gpus: Vec::new(),
        limits: None,
        bench: None,
        headroom: None,
        health: None,
        notes: vec![Note {
            field: "gpus".into(),
            reason: "no NVIDIA driver: libnvidia-ml.so.1 not found".into(),
        }],
    })
}

/// The largest case the sheet must read well for: 2 sockets, 24 slots (Supermicro
/// `P1-DIMMA1` locators, 12 × 32 GiB), 4 GPUs (two per socket, one on 8 of 16 lanes) and an
/// NVMe drive whose NUMA node was not reported.
pub fn four_gpu() -> Spec {
    let mut spec = reference();
    spec.hostname = s("gpu-tower-3");
    spec.source = "live".into();
    spec.system.vendor = s("Supermicro");
    spec.system.product = s("SYS-7049GP-TRT");
    spec.system.board_vendor = s("Supermicro");
    spec.system.board_name = s("X11DPG-QT");
    spec.system.board_version = s("1.02");
    spec.system.bios_vendor = s("American Megatrends Inc.");
    spec.system.bios_version = s("3.4");
    spec.system.bios_date = s("11/03/2020");
    spec.system.sku = None;
    spec.system.family = None;
    spec.cpu = xeon(
        "Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz",
        2,
        20,
        2500,
        3900,
        28_835_840,
        vec![
            node(0, "0-19,40-59", 201_863_462_912),
            node(1, "20-39,60-79", 202_900_000_000),
        ],
    );
    let mut dimms = Vec::new();
    let mut empty = Vec::new();
    for p in 1..=2 {
        for ch in ['A', 'B', 'C', 'D', 'E', 'F'] {
            for n in 1..=2 {
                let loc = format!("P{p}-DIMM{ch}{n}");
                if n == 1 {
                    dimms.push(dimm(
                        &loc,
                        &format!("P{}_Node{}_Channel{ch}_Dimm{}", p - 1, p - 1, n - 1),
                        32,
                        2933,
                        "RDIMM",
                        "M393A4K40DB2-CVF",
                        &format!("0{p}{ch}7701"),
                    ));
                } else {
                    empty.push(loc);
                }
            }
        }
    }
    spec.memory = Memory {
        total_bytes: Some(384 * GIB),
        total_source: s("dimms"),
        usable_bytes: Some(404_763_462_912),
        dimm_source: s("smbios"),
        slot_count: Some(24),
        dimms,
        empty_slots: empty,
        slots: Vec::new(),
    };
    let a6000 = |i: u32, pci: &str, numa: i32, width: u32| {
        let mut g = quadro_rtx_6000(
            i,
            pci,
            &format!("GPU-00000000-0000-4000-8000-00000000000{i}"),
            &format!("13221000{i}"),
            numa,
            "",
        );
        g.name = s("NVIDIA RTX A6000");
        g.architecture = s("Ampere");
        g.compute_capability = s("8.6");
        g.sm_count = Some(84);
        g.cuda_cores = Some(10752);
        g.tensor_cores = Some(336);
        g.tensor_core_generation = Some(3);
        g.vram_bytes = Some(48 * GIB);
        g.memory_bandwidth_bytes_per_s = Some(768_096_000_000);
        g.max_sm_clock_mhz = Some(1800);
        g.fp32_tflops = Some(38.7);
        g.fp16_tensor_tflops = Some(154.8);
        g.fp16_tensor_fp32_acc_tflops = Some(154.8);
        g.pcie = Pcie {
            gen: Some(3),
            width: Some(width),
            max_gen: Some(4),
            max_width: Some(16),
            ..Pcie::default()
        };
        g.local_cpus = None;
        g
    };
    spec.gpus = vec![
        a6000(0, "0000:1a:00.0", 0, 16),
        a6000(1, "0000:3d:00.0", 0, 8),
        a6000(2, "0000:88:00.0", 1, 16),
        a6000(3, "0000:b1:00.0", 1, 16),
    ];
    spec.drives = vec![
        nvme(
            "nvme0n1",
            "INTEL SSDPE2KX020T8",
            "PHLJ9123004K2P0BGN",
            2_000_398_934_016,
            "0000:5e:00.0",
            Some(0),
        ),
        nvme(
            "nvme1n1",
            "INTEL SSDPE2KX020T8",
            "PHLJ9123004L2P0BGN",
            2_000_398_934_016,
            "0000:d9:00.0",
            None,
        ),
    ];
    spec.notes = Vec::new();
    placed(spec)
}
