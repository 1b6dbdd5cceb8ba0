//! Headroom (free sockets, DIMM and PCIe slots, power) replayed from real SMBIOS tables.

// Helpers outside `#[test]` functions are test code too.
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};

use rigcheck::probe::headroom::{headroom_from_table, PciDevice};
use rigcheck::probe::inventory;
use rigcheck::probe::smbios::Table;
use rigcheck::profile;
use rigcheck::render::report;
use rigcheck::source::Source;
use rigcheck::spec::{Gpu, Headroom, Note, Spec};
use rigcheck::verify::{verify, Status};

const GIB: u64 = 1 << 30;

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

fn spec(name: &str) -> Spec {
    inventory(&Source::sysroot(fixture(name)))
}

fn table_file(name: &str) -> (Headroom, Vec<Note>) {
    let bytes = fs::read(fixture("smbios").join(name)).unwrap();
    let t = Table::parse(&bytes, None);
    headroom_from_table(&t, &[], &[])
}

fn has_note(notes: &[Note], field: &str) -> bool {
    notes.iter().any(|n| n.field == field)
}

#[test]
fn hp_z8_g4_bronze_real_decode() {
    // The real dmidecode text (linuxhw 22DCA49109A6): two arrays of 12 slots, "Maximum
    // Capacity: 2304 GB" each; 16 GB DDR4 in DIMM1/3/10/12 of CPU0 and CPU1.
    let s = spec("x86_64-hp-z8-g4-dual-bronze3104");
    let h = s.headroom.unwrap();
    assert_eq!(h.empty_sockets, Some(0));
    let m = h.memory.unwrap();
    assert_eq!(
        (m.slot_count, m.used_slots, m.free_slots),
        (Some(24), Some(8), Some(16))
    );
    assert_eq!(m.usable_free_slots, Some(16));
    assert_eq!(m.arrays.len(), 2);
    assert_eq!(m.arrays[0].max_capacity_bytes, Some(2304 * GIB));
    assert_eq!(m.arrays[0].slots, Some(12));
    assert_eq!(m.max_capacity_bytes, Some(4608 * GIB));
    assert_eq!(m.groups[0].group, "socket 0");
    assert_eq!(
        m.groups[0].free_locators,
        [
            "CPU0-DIMM2",
            "CPU0-DIMM4",
            "CPU0-DIMM5",
            "CPU0-DIMM6",
            "CPU0-DIMM7",
            "CPU0-DIMM8",
            "CPU0-DIMM9",
            "CPU0-DIMM11"
        ]
    );
    // 128 GiB installed + 16 free × 16 GiB.
    assert_eq!(m.upgrade_module_bytes, Some(16 * GIB));
    assert_eq!(m.upgrade_module_type.as_deref(), Some("DDR4"));
    assert_eq!(m.max_with_installed_module_bytes, Some(384 * GIB));
    // HP locators name no channel: balance per socket only, with a note.
    assert_eq!(m.balanced, Some(true));
    assert!(!m.channels_derived);
    assert!(has_note(&s.notes, "headroom.memory.balanced"));

    // Nine type-9 slots as decoded: SLOT2, SLOT4, SLOT6 and the CPU0 personality slot in use.
    let slots = h.pcie_slots.unwrap();
    assert_eq!(slots.len(), 9);
    let in_use: Vec<&str> = slots
        .iter()
        .filter(|s| s.in_use == Some(true))
        .map(|s| s.designation.as_deref().unwrap())
        .collect();
    assert_eq!(
        in_use,
        [
            "SLOT2 PCIe3 x16 CPU0",
            "SLOT4 PCIe3 x16 CPU0",
            "SLOT6 PCIe3 x16 CPU1",
            "PERSONALITY SLOT PCIe3 x8 CPU0"
        ]
    );
    assert_eq!(slots[3].bus_address.as_deref(), Some("0000:15:00.0"));
    assert_eq!((slots[3].pcie_gen, slots[3].width), (Some(3), Some(16)));
    // Only SLOT3 (x16, CPU1) is a free x16 slot.
    assert_eq!(h.free_x16_slots, Some(1));
    // No type 39 in the Z8 table: unknown, not zero.
    assert_eq!(h.power.supplies, None);
    assert_eq!(h.power.capacity_w, None);
    assert!(has_note(&s.notes, "headroom.power.supplies"));
}

#[test]
fn reference_z8_gpus_sit_in_their_slots() {
    let s = spec("hp-z8-g4-dual-rtx6000");
    let h = s.headroom.as_ref().unwrap();
    let m = h.memory.as_ref().unwrap();
    assert_eq!(
        (m.slot_count, m.used_slots, m.free_slots),
        (Some(24), Some(12), Some(12))
    );
    assert_eq!(m.max_capacity_bytes, Some(4608 * GIB));
    // 96 GiB + 12 × 8 GiB.
    assert_eq!(m.max_with_installed_module_bytes, Some(192 * GIB));
    let slots = h.pcie_slots.as_ref().unwrap();
    let holds = |name: &str| {
        slots
            .iter()
            .find(|s| s.designation.as_deref() == Some(name))
            .unwrap()
            .devices
            .clone()
    };
    assert_eq!(
        holds("SLOT4 PCIe3 x16 CPU0"),
        ["GPU 0 Quadro RTX 6000 (0000:17:00.0)"]
    );
    assert_eq!(
        holds("SLOT6 PCIe3 x16 CPU1"),
        ["GPU 1 Quadro RTX 6000 (0000:af:00.0)"]
    );
    assert!(holds("SLOT2 PCIe3 x16 CPU0").is_empty());
    // SLOT2 and SLOT3 are free x16 slots: room for a third GPU.
    assert_eq!(h.free_x16_slots, Some(2));
    // 2 × 260 W enforced limits from NVML; no supply listed, so no headroom figure.
    assert_eq!(h.power.gpu_power_limit_w, Some(520.0));
    assert_eq!(h.power.headroom_w, None);

    let sec = report::headroom(&s);
    let slot_grid = &sec.grids[1];
    assert!(slot_grid.rows.contains(&vec![
        "SLOT4 PCIe3 x16 CPU0".to_string(),
        "PCIe 3 x16".to_string(),
        "in use".to_string(),
        "GPU 0 Quadro RTX 6000 (0000:17:00.0)".to_string(),
    ]));
}

#[test]
fn dell_precision_t7600_second_socket_empty() {
    let s = spec("x86_64-dell-precision-t7600");
    let h = s.headroom.unwrap();
    let sockets = h.sockets.unwrap();
    assert_eq!(sockets.len(), 2);
    assert_eq!(sockets[1].designation.as_deref(), Some("CPU 2"));
    assert!(sockets[0].populated && !sockets[1].populated);
    assert_eq!(h.empty_sockets, Some(1));

    let m = h.memory.unwrap();
    // 16 slots, DIMM1..4_CPU1 filled (8+2+8+2 GB); the 8 CPU2 slots need a second CPU.
    assert_eq!(
        (m.slot_count, m.used_slots, m.free_slots),
        (Some(16), Some(4), Some(12))
    );
    assert_eq!(m.usable_free_slots, Some(4));
    let cpu2 = &m.groups[1];
    assert_eq!((cpu2.socket, cpu2.cpu_populated), (Some(1), Some(false)));
    assert_eq!((cpu2.slots, cpu2.free), (8, 8));
    assert!(s
        .notes
        .iter()
        .any(|n| n.field == "headroom.memory.usable_free_slots" && n.reason.contains("CPU 2")));
    assert_eq!(m.max_capacity_bytes, Some(512 * GIB));
    // 20 GiB + 4 usable free × 8 GiB (the largest installed module).
    assert_eq!(m.max_with_installed_module_bytes, Some(52 * GIB));
    assert_eq!(m.upgrade_module_type.as_deref(), Some("DDR3"));
    assert_eq!(m.balanced, None);

    let slots = h.pcie_slots.unwrap();
    assert_eq!(slots.len(), 7);
    // "x4 PCI Express 2 x8": an x8 slot wired x4.
    assert_eq!((slots[0].slot_size, slots[0].width), (Some(8), Some(4)));
    // Empty slots carry Dell's 0000:ff:1f.7 placeholder address: not an address.
    assert_eq!(slots[0].bus_address, None);
    assert_eq!(slots[1].bus_address.as_deref(), Some("0000:05:00.0"));
    assert_eq!(slots[1].in_use, Some(true));
    assert!(!slots[4].is_pcie); // "32-bit PCI"
                                // Slot4, Slot6, Slot7 are free and wired x16.
    assert_eq!(h.free_x16_slots, Some(3));
}

#[test]
fn dell_poweredge_r630_supplies_and_lettered_slots() {
    let (h, notes) = table_file("dell-poweredge-r630.dmi");
    assert_eq!(h.empty_sockets, Some(1)); // go-smbios: CPU2 Status 0
    let m = h.memory.unwrap();
    // A1..A12 belong to CPU1, B1..B12 to the empty CPU2; A3 and A4 hold 16 GB each.
    assert_eq!(m.groups[0].free, 10);
    assert_eq!(m.groups[1].cpu_populated, Some(false));
    assert_eq!(m.usable_free_slots, Some(10));
    assert_eq!(m.max_capacity_bytes, Some(3 << 40));
    assert_eq!(m.max_with_installed_module_bytes, Some(192 * GIB));

    let slots = h.pcie_slots.unwrap();
    assert_eq!(slots.len(), 1);
    assert_eq!(slots[0].designation.as_deref(), Some("PCIe Slot 2"));
    assert_eq!((slots[0].slot_size, slots[0].width), (Some(16), Some(8)));
    assert_eq!(slots[0].bus_address.as_deref(), Some("0000:04:00.0"));

    // Two "PWR SPLY,750W,RDNT,EMSN" supplies, status not given.
    let ps = h.power.supplies.unwrap();
    assert_eq!(ps.len(), 2);
    assert_eq!(ps[0].max_power_w, Some(750));
    assert_eq!(ps[0].manufacturer.as_deref(), Some("DELL"));
    assert_eq!(ps[0].present, Some(true));
    assert_eq!(ps[0].status, None);
    assert_eq!(h.power.capacity_w, Some(1500));
    assert!(notes
        .iter()
        .any(|n| n.field == "headroom.power.capacity_w" && n.reason.contains("750 W")));
    // No GPU: no limits to sum (never 0 W), and no headroom against them.
    assert_eq!(h.power.gpu_power_limit_w, None);
    assert_eq!(h.power.headroom_w, None);
    assert!(notes
        .iter()
        .any(|n| n.field == "headroom.power.gpu_power_limit_w"
            && n.reason == rigcheck::probe::headroom::NO_GPU_POWER_LIMIT));
}

#[test]
fn asrock_ryzen_no_slots_or_supplies_is_unknown() {
    let (h, notes) = table_file("asrock-ryzen.dmi");
    assert_eq!(h.pcie_slots, None);
    assert_eq!(h.free_x16_slots, None);
    assert!(has_note(&notes, "headroom.pcie_slots"));
    assert_eq!(h.power.supplies, None);
    assert!(has_note(&notes, "headroom.power.supplies"));
    let m = h.memory.unwrap();
    // Banks "P0 CHANNEL A/B", 32 GB in DIMM 1 of each: one per channel.
    assert!(m.channels_derived);
    let ch = m.groups[0].dimms_per_channel.clone().unwrap();
    assert_eq!(
        ch.into_iter().collect::<Vec<_>>(),
        [("A".into(), 1), ("B".into(), 1)]
    );
    assert_eq!(m.balanced, Some(true));
    // 64 GiB + 2 × 32 GiB, which is exactly the array's 128 GiB maximum.
    assert_eq!(m.max_capacity_bytes, Some(128 * GIB));
    assert_eq!(m.max_with_installed_module_bytes, Some(128 * GIB));
}

#[test]
fn gpu_in_slot_through_its_root_port() {
    // The T7600's Slot2 says 0000:05:00.0; a GPU there behind root port 0000:00:02.0.
    let bytes = fs::read(fixture(
        "x86_64-dell-precision-t7600/sys/firmware/dmi/tables/DMI",
    ))
    .unwrap();
    let t = Table::parse(&bytes, None);
    let dev = PciDevice {
        label: "GPU 0 Quadro 5000".into(),
        chain: vec!["0000:00:02.0".into(), "0000:05:00.0".into()],
    };
    let gpu = Gpu {
        state: rigcheck::spec::GpuState {
            power_limit_w: None,
            ..Default::default()
        },
        ..Default::default()
    };
    let (h, notes) = headroom_from_table(&t, &[dev], &[gpu]);
    let slots = h.pcie_slots.unwrap();
    assert_eq!(slots[1].devices, ["GPU 0 Quadro 5000"]);
    assert!(!has_note(&notes, "headroom.pcie_slots"));
    // A GPU without a power limit makes the budget unknown, not 0.
    assert_eq!(h.power.gpu_power_limit_w, None);
    assert!(has_note(&notes, "headroom.power.gpu_power_limit_w"));
}

#[test]
fn vm_without_smbios_has_one_note() {
    let s = spec("x86_64-vm-kvm");
    assert_eq!(s.headroom, None);
    let n: Vec<&Note> = s
        .notes
        .iter()
        .filter(|n| n.field.starts_with("headroom"))
        .collect();
    assert_eq!(n.len(), 1);
    assert_eq!(n[0].field, "headroom");
    let sec = report::headroom(&s);
    assert!(sec.fields[0].1.starts_with("unknown: no SMBIOS tables"));
}

#[test]
fn profile_headroom_requirements() {
    let p = profile::parse(
        "[headroom]\nfree_dimm_slots = { at_least = 4 }\nfree_x16_slots = { at_least = 1 }\n\
         empty_sockets = 0\nmax_memory = { at_least = \"3 TiB\" }\n",
        "t.toml",
        "t",
    )
    .unwrap();
    let z8 = verify(&spec("hp-z8-g4-dual-rtx6000"), &p, false);
    let got: Vec<(&str, &str, Status)> = z8
        .lines
        .iter()
        .map(|l| (l.id.as_str(), l.found.as_str(), l.status))
        .collect();
    assert_eq!(
        got,
        [
            ("headroom.free_dimm_slots", "12", Status::Pass),
            ("headroom.free_x16_slots", "2", Status::Pass),
            ("headroom.empty_sockets", "0", Status::Pass),
            ("headroom.max_memory", "4.5 TiB", Status::Pass),
        ]
    );
    let t7600 = verify(&spec("x86_64-dell-precision-t7600"), &p, false);
    let st: Vec<Status> = t7600.lines.iter().map(|l| l.status).collect();
    // 4 usable free slots, 3 free x16, one empty socket, 512 GiB maximum.
    assert_eq!(st, [Status::Pass, Status::Pass, Status::Fail, Status::Fail]);
    let vm = verify(&spec("x86_64-vm-kvm"), &p, false);
    assert!(vm.lines.iter().all(|l| l.status == Status::Unknown));
    assert!(vm.lines[0].note.as_deref().unwrap().contains("SMBIOS"));

    let bad = profile::parse("[headroom]\nfree_slots = 2\n", "b.toml", "b").unwrap_err();
    assert!(bad.message.contains("free_dimm_slots"), "{}", bad.message);
}

#[test]
fn t7600_headroom_section_snapshot() {
    let sec = report::headroom(&spec("x86_64-dell-precision-t7600"));
    let mut text = String::new();
    for (k, v) in &sec.fields {
        text.push_str(&format!("{k}: {v}\n"));
    }
    for g in &sec.grids {
        text.push_str(&format!("{}\n", g.header.join(" | ")));
        for r in &g.rows {
            text.push_str(&format!("{}\n", r.join(" | ")));
        }
    }
    insta::assert_snapshot!(text);
}

/// The value of a headroom field as the inventory, the sheet and Markdown show it.
fn field(sec: &rigcheck::render::layout::Section, key: &str) -> Option<String> {
    sec.fields
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.clone())
}

#[test]
fn gpu_power_limits_are_never_zero_watts_without_gpus() {
    // The T7600 capture holds no PCI tree and no NVML answer: its GPU list is unreadable, so
    // the sum of their power limits is unknown, with the reason, never 0 W.
    let s = spec("x86_64-dell-precision-t7600");
    let p = &s.headroom.as_ref().unwrap().power;
    assert_eq!((p.gpu_power_limit_w, p.headroom_w), (None, None));
    assert!(
        s.notes
            .iter()
            .any(|n| n.field == "headroom.power.gpu_power_limit_w"
                && n.reason.starts_with("the GPU list is unreadable")),
        "{:?}",
        s.notes
    );
    let sec = report::headroom(&s);
    assert_eq!(field(&sec, "GPU power limits").as_deref(), Some("unknown"));
    // A list read to its end with no GPU in it: there is no sum, and no headroom against it.
    let (h, notes) = table_file("dell-poweredge-r630.dmi");
    assert_eq!(h.power.gpu_power_limit_w, None);
    assert!(notes
        .iter()
        .any(|n| n.field == "headroom.power.gpu_power_limit_w"
            && n.reason == rigcheck::probe::headroom::NO_GPU_POWER_LIMIT));
    let mut none = s.clone();
    none.gpus.clear();
    none.lists.gpus = rigcheck::spec::ListState::Read;
    let sec = report::headroom(&none);
    assert_eq!(field(&sec, "GPU power limits").as_deref(), Some("no GPU"));
    assert_eq!(field(&sec, "Power headroom"), None);
}

#[test]
fn maximum_memory_names_the_limit_that_binds() {
    // The Z8 G4's firmware declares two arrays of 12 slots, 2304 GiB each (4.5 TiB), but
    // its Xeon Gold 6254s address 1 TB per socket (Intel ARK): the CPUs bind at 2 TiB.
    let s = spec("hp-z8-g4-dual-rtx6000");
    let m = s.headroom.as_ref().unwrap().memory.clone().unwrap();
    assert_eq!(m.max_capacity_bytes, Some(4608 * GIB));
    assert_eq!(m.cpu_max_capacity_per_socket_bytes, Some(1024 * GIB));
    assert_eq!(m.cpu_max_capacity_bytes, Some(2048 * GIB));
    assert_eq!(m.effective_max_capacity_bytes, Some(2048 * GIB));
    assert_eq!(m.max_capacity_bound_by.as_deref(), Some("cpus"));
    let json = serde_json::to_value(&s).unwrap();
    let jm = &json["headroom"]["memory"];
    assert_eq!(jm["max_capacity_bytes"], 4608 * GIB);
    assert_eq!(jm["effective_max_capacity_bytes"], 2048 * GIB);
    assert_eq!(
        jm["cpu_max_capacity_source"],
        "Intel ARK: 2nd gen Xeon Scalable"
    );
    assert_eq!(
        field(&report::headroom(&s), "Maximum memory").as_deref(),
        Some("2 TiB (CPUs: 2 × 1 TiB, Intel ARK: 2nd gen Xeon Scalable; board: 4.5 TiB)")
    );
    // The Bronze 3104s of the other Z8 G4 (1st gen) address 768 GB each.
    let b = spec("x86_64-hp-z8-g4-dual-bronze3104");
    let bm = b.headroom.unwrap().memory.unwrap();
    assert_eq!(bm.effective_max_capacity_bytes, Some(1536 * GIB));
    // The T7600's CPUs are not in the table: the board's figure, and the CPUs' unknown.
    let t = spec("x86_64-dell-precision-t7600");
    let tm = t.headroom.as_ref().unwrap().memory.clone().unwrap();
    assert_eq!(
        (tm.cpu_max_capacity_bytes, tm.max_capacity_bound_by),
        (None, None)
    );
    assert!(has_note(&t.notes, "headroom.memory.cpu_max_capacity_bytes"));
    assert!(field(&report::headroom(&t), "Maximum memory")
        .unwrap()
        .ends_with("the CPUs' own limit is not known)"));
}
