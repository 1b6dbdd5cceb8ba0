//! Memory probe and SMBIOS tables, replayed from the fixtures.

// Helpers outside `#[test]` functions are test code too.
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::Path;

use rigcheck::probe;
use rigcheck::probe::smbios::{self, Table};
use rigcheck::source::Source;
use rigcheck::spec::{Memory, Notes};

const GIB: u64 = 1 << 30;

/// The memory section of a sysroot's inventory, with the notes about it.
fn probe(dir: &Path) -> (Memory, Notes) {
    let spec = probe::inventory(&Source::sysroot(dir));
    let notes = spec
        .notes
        .into_iter()
        .filter(|n| n.field.starts_with("memory"))
        .collect();
    (spec.memory, Notes(notes))
}

fn fixture(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

#[test]
fn dell_precision_t7600_real_tables() {
    let (m, notes) = probe(&fixture("x86_64-dell-precision-t7600"));
    assert_eq!(m.dimm_source.as_deref(), Some("smbios"));
    // dmidecode 3.4: 16 type-17 records, DIMM1..4_CPU1 populated (8, 2, 8, 2 GB DDR3-1067).
    assert_eq!(m.slot_count, Some(16));
    let got: Vec<(&str, Option<u64>, Option<u32>)> = m
        .dimms
        .iter()
        .map(|d| (d.locator.as_str(), d.size_bytes, d.speed_mts))
        .collect();
    assert_eq!(
        got,
        [
            ("DIMM1_CPU1", Some(8 * GIB), Some(1067)),
            ("DIMM3_CPU1", Some(2 * GIB), Some(1067)),
            ("DIMM2_CPU1", Some(8 * GIB), Some(1067)),
            ("DIMM4_CPU1", Some(2 * GIB), Some(1067)),
        ]
    );
    assert!(m.dimms.iter().all(|d| d.kind.as_deref() == Some("DDR3")));
    assert_eq!(m.dimms[1].part_number.as_deref(), Some("M393B5773CH0-YH9"));
    assert_eq!(m.dimms[0].rank, Some(4));
    assert_eq!(m.empty_slots.len(), 12);
    assert_eq!(m.empty_slots[0], "DIMM5_CPU1");
    assert_eq!(m.total_bytes, Some(20 * GIB));
    assert_eq!(m.total_source.as_deref(), Some("dimms"));
    assert_eq!(m.usable_bytes, Some(20_533_904 * 1024));
    assert!(notes.0.is_empty(), "{:?}", notes.0);
}

#[test]
fn hp_z8_g4_bronze_encoded_from_dmidecode() {
    let (m, notes) = probe(&fixture("x86_64-hp-z8-g4-dual-bronze3104"));
    assert_eq!(m.dimm_source.as_deref(), Some("smbios"));
    assert_eq!(m.slot_count, Some(24));
    let locators: Vec<&str> = m.dimms.iter().map(|d| d.locator.as_str()).collect();
    assert_eq!(
        locators,
        [
            "CPU0-DIMM1",
            "CPU0-DIMM3",
            "CPU0-DIMM10",
            "CPU0-DIMM12",
            "CPU1-DIMM1",
            "CPU1-DIMM3",
            "CPU1-DIMM10",
            "CPU1-DIMM12"
        ]
    );
    for d in &m.dimms {
        assert_eq!(d.size_bytes, Some(16 * GIB));
        assert_eq!(d.kind.as_deref(), Some("DDR4"));
        assert_eq!(d.speed_mts, Some(2666));
        assert_eq!(d.configured_speed_mts, Some(2133));
        assert_eq!(d.part_number.as_deref(), Some("M393A2K40CB2-CTD"));
        assert_eq!(
            d.type_detail.as_deref(),
            Some("Synchronous Registered (Buffered)")
        );
        assert_eq!(d.bank_locator.as_deref(), Some(&d.locator[..4]));
        // Serials are masked as "--" in the source: unknown here.
        assert_eq!(d.serial, None);
    }
    assert_eq!(m.empty_slots.len(), 16);
    assert!(m.empty_slots.contains(&"CPU1-DIMM11".to_string()));
    assert_eq!(m.total_bytes, Some(128 * GIB));
    assert!(notes.0.is_empty(), "{:?}", notes.0);
}

#[test]
fn hp_z8_g4_tables_decode_like_the_dmidecode_text() {
    let dir = fixture("x86_64-hp-z8-g4-dual-bronze3104/sys/firmware/dmi/tables");
    let ep_bytes = fs::read(dir.join("smbios_entry_point")).unwrap();
    let dmi = fs::read(dir.join("DMI")).unwrap();
    let ep = smbios::parse_entry_point(&ep_bytes).unwrap();
    assert!(ep.is_64bit);
    assert_eq!((ep.major, ep.minor), (3, 2));
    let t = Table::parse(&dmi, Some(&ep));
    assert_eq!(t.error, None);
    let cpus: Vec<_> = t.of_type(4).map(smbios::decode_processor).collect();
    assert_eq!(cpus.len(), 2);
    for (c, socket) in cpus.iter().zip(["CPU0", "CPU1"]) {
        assert_eq!(c.socket.as_deref(), Some(socket));
        assert!(c.populated && c.enabled);
        assert_eq!(
            c.version.as_deref(),
            Some("Intel(R) Xeon(R) Bronze 3104 CPU @ 1.70GHz")
        );
        assert_eq!((c.core_count, c.thread_count), (Some(6), Some(6)));
        assert_eq!(c.current_speed_mhz, Some(1700));
    }
    let slots: Vec<_> = t.of_type(9).map(smbios::decode_slot).collect();
    assert_eq!(slots.len(), 9);
    assert_eq!(
        slots[1].designation.as_deref(),
        Some("SLOT2 PCIe3 x16 CPU0")
    );
    assert_eq!(
        (slots[1].pcie_gen, slots[1].width, slots[1].in_use),
        (Some(3), Some(16), Some(true))
    );
    assert_eq!(slots[1].bus_address.as_deref(), Some("0000:2d:00.0"));
    let arrays: Vec<_> = t.of_type(16).map(smbios::decode_memory_array).collect();
    assert_eq!(arrays.len(), 2);
    assert_eq!(arrays[0].max_capacity_bytes, Some(2304 * GIB));
    assert_eq!(arrays[0].slots, Some(12));
    let mapped: u64 = t
        .of_type(19)
        .filter_map(smbios::decode_mapped_range)
        .map(|r| r.size_bytes())
        .sum();
    assert_eq!(mapped, 128 * GIB); // 2 + 62 + 64 GB
    let sys = smbios::decode_system(t.of_type(1).next().unwrap(), Some(&ep));
    assert_eq!(sys.product.value(), Some("HP Z8 G4 Workstation"));
    assert_eq!(sys.uuid, None); // masked in the source
    let board = smbios::decode_board(t.of_type(2).next().unwrap());
    assert_eq!(board.product.value(), Some("81C7"));
}

#[test]
fn reference_machine_96_gb() {
    let (m, notes) = probe(&fixture("hp-z8-g4-dual-rtx6000"));
    assert_eq!(m.slot_count, Some(24));
    assert_eq!(m.dimms.len(), 12);
    assert!(m.dimms.iter().all(|d| d.size_bytes == Some(8 * GIB)
        && d.speed_mts == Some(2933)
        && d.kind.as_deref() == Some("DDR4")));
    assert_eq!(m.total_bytes, Some(96 * GIB));
    assert_eq!(m.total_source.as_deref(), Some("dimms"));
    let usable = m.usable_bytes.unwrap() as f64 / GIB as f64;
    assert!((usable - 94.3).abs() < 0.05, "{usable}");
    assert_eq!(m.empty_slots.len(), 12);
    assert!(notes.0.is_empty(), "{:?}", notes.0);

    let dir = fixture("hp-z8-g4-dual-rtx6000/sys/firmware/dmi/tables");
    let ep = smbios::parse_entry_point(&fs::read(dir.join("smbios_entry_point")).unwrap()).unwrap();
    let dmi = fs::read(dir.join("DMI")).unwrap();
    let t = Table::parse(&dmi, Some(&ep));
    let cpus: Vec<_> = t.of_type(4).map(smbios::decode_processor).collect();
    assert_eq!(
        cpus[1].version.as_deref(),
        Some("Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz")
    );
    assert_eq!(
        (cpus[1].core_count, cpus[1].thread_count),
        (Some(18), Some(36))
    );
    let mapped: u64 = t
        .of_type(19)
        .filter_map(smbios::decode_mapped_range)
        .map(|r| r.size_bytes())
        .sum();
    assert_eq!(mapped, 96 * GIB);
}

/// Output of systemd's `dmi_memory_id` on an HP Z600 (systemd
/// `test/dmidecode-dumps/HP-Z600.bin.txt`, real), first five devices, with the `E:`
/// prefix of the udev database.
const UDEV_HP_Z600: &str = "E:MEMORY_ARRAY_LOCATION=System Board Or Motherboard
E:MEMORY_DEVICE_0_SIZE=8589934592
E:MEMORY_DEVICE_0_FORM_FACTOR=DIMM
E:MEMORY_DEVICE_0_LOCATOR=CPU0 DIMM1
E:MEMORY_DEVICE_0_TYPE=DDR3
E:MEMORY_DEVICE_0_SPEED_MTS=1600
E:MEMORY_DEVICE_0_PART_NUMBER=HMT41GU7AFR8C-PB
E:MEMORY_DEVICE_1_SIZE=8589934592
E:MEMORY_DEVICE_1_LOCATOR=CPU0 DIMM2
E:MEMORY_DEVICE_1_TYPE=DDR3
E:MEMORY_DEVICE_1_SPEED_MTS=1600
E:MEMORY_DEVICE_2_PRESENT=0
E:MEMORY_DEVICE_2_LOCATOR=CPU0 DIMM3
E:MEMORY_DEVICE_3_SIZE=8589934592
E:MEMORY_DEVICE_3_LOCATOR=CPU1 DIMM1
E:MEMORY_DEVICE_3_TYPE=DDR3
E:MEMORY_DEVICE_3_SPEED_MTS=1600
E:MEMORY_DEVICE_4_SIZE=8589934592
E:MEMORY_DEVICE_4_LOCATOR=CPU1 DIMM2
E:MEMORY_DEVICE_4_TYPE=DDR3
E:MEMORY_DEVICE_4_SPEED_MTS=1600
";

fn sysroot_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in files {
        let p = dir.path().join(path);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    }
    dir
}

#[test]
fn udev_database_when_no_smbios_tables() {
    let dir = sysroot_with(&[
        ("proc/meminfo", "MemTotal:       32826828 kB\n"),
        ("run/udev/data/+dmi:id", UDEV_HP_Z600),
    ]);
    let (m, notes) = probe(dir.path());
    assert_eq!(m.dimm_source.as_deref(), Some("udev"));
    assert_eq!(m.slot_count, Some(5));
    assert_eq!(m.dimms.len(), 4);
    assert_eq!(m.empty_slots, ["CPU0 DIMM3"]);
    assert_eq!(m.dimms[0].part_number.as_deref(), Some("HMT41GU7AFR8C-PB"));
    assert_eq!(m.total_bytes, Some(32 * GIB));
    assert_eq!(m.total_source.as_deref(), Some("dimms"));
    let note = notes
        .0
        .iter()
        .find(|n| n.field == "memory.dimm_source")
        .unwrap();
    assert!(
        note.reason.starts_with("no SMBIOS tables"),
        "{}",
        note.reason
    );
    assert!(note.reason.contains("udev database"), "{}", note.reason);
}

#[test]
fn neither_smbios_nor_udev() {
    let dir = sysroot_with(&[("proc/meminfo", "MemTotal:       24684084 kB\n")]);
    let (m, notes) = probe(dir.path());
    assert!(m.dimms.is_empty());
    assert_eq!(m.dimm_source, None);
    assert_eq!(m.slot_count, None);
    assert_eq!(m.total_bytes, Some(24_684_084 * 1024));
    assert_eq!(m.total_source.as_deref(), Some("meminfo"));
    let fields: Vec<&str> = notes.0.iter().map(|n| n.field.as_str()).collect();
    assert!(fields.contains(&"memory.dimms"), "{fields:?}");
    assert!(fields.contains(&"memory.total_bytes"), "{fields:?}");
}

#[test]
fn damaged_table_keeps_the_slots_before_the_damage() {
    let t7600 = fixture("x86_64-dell-precision-t7600/sys/firmware/dmi/tables");
    let ep = fs::read(t7600.join("smbios_entry_point")).unwrap();
    let dmi = fs::read(t7600.join("DMI")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("sys/firmware/dmi/tables");
    fs::create_dir_all(&tables).unwrap();
    fs::write(tables.join("smbios_entry_point"), ep).unwrap();
    // Cut the table inside the memory devices (type 17 records sit past byte 5000).
    let parsed = Table::parse(&dmi, None);
    let cut = parsed.of_type(17).nth(4).unwrap().offset + 10;
    fs::write(tables.join("DMI"), &dmi[..cut]).unwrap();
    let (m, notes) = probe(dir.path());
    // Four slots are listed before the damage; how many the board has is unknown.
    assert_eq!(m.slots.len(), 4);
    assert_eq!(m.slot_count, None);
    assert_eq!(m.dimms.len(), 2);
    assert!(notes
        .0
        .iter()
        .any(|n| n.field == "memory.dimms" && n.reason.contains("damaged")));
    // No /proc/meminfo here: usable is unknown with a note, and the two DIMMs before the
    // damage (10 GiB) are not the installed total: unknown, said so.
    assert_eq!(m.usable_bytes, None);
    assert_eq!(m.total_bytes, None);
    let spec = probe::inventory(&Source::sysroot(dir.path()));
    assert_eq!(spec.lists.dimms, rigcheck::spec::ListState::Partial);
    assert!(notes
        .0
        .iter()
        .any(|n| n.field == "memory.dimms" && n.reason.contains("the DIMM list is partial")));
}
