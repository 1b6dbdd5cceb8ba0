//! Memory probe: usable memory, and DIMMs from SMBIOS type 17 or the udev database.
//!
//! Installed memory comes from the DIMMs the firmware lists: the run's SMBIOS table
//! (`/sys/firmware/dmi/tables`, root only, or Windows' RSMB data: see `firmware`), else the
//! copy systemd's `dmi_memory_id` leaves in the udev database (`/run/udev/data/+dmi:id`,
//! readable by anyone, systemd 248+). Usable memory is MemTotal (or the OS's memory size),
//! always below the installed size. Parsing is done by pure functions (`parse_meminfo`,
//! `parse_udev_memory`, `inventory_from_smbios`); `probe` only reads and records why
//! something is unknown.

use std::collections::BTreeMap;

use crate::locator::{parse_place, SlotPlace};
use crate::probe::backend::Backend;
use crate::probe::firmware::{Missing, Smbios, SMBIOS_DMI};
use crate::probe::meminfo;
use crate::probe::smbios::{self, DeviceSize, EntryPoint, Table};
use crate::source::{Source, Unknown, MEMINFO};
use crate::spec::{Dimm, ListState, Memory, MemorySlot, Notes};
use crate::units::bytes_bin;

const UDEV_DMI: &str = "/run/udev/data/+dmi:id";

/// The memory slots a firmware lists, in table order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inventory {
    /// One entry per slot (type-17 record of system RAM).
    pub slots: Vec<SlotEntry>,
    /// CPU sockets the firmware lists (type-4 records, populated or not); `None` where the
    /// source has no processor records (udev).
    pub sockets: Option<usize>,
    /// Why the list may be incomplete (a damaged table), if it may be.
    pub problem: Option<String>,
}

/// One memory slot: its locator and the module in it, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SlotEntry {
    pub locator: String,
    pub bank_locator: Option<String>,
    /// `None` for an empty slot.
    pub dimm: Option<Dimm>,
}

/// Reads installed and usable memory and the DIMM slots, each slot placed on its socket.
/// DIMMs come from the run's SMBIOS table, else (files backend) the udev database; usable
/// memory is MemTotal (files) or the OS's memory size (native). `cpu_sockets` is used where
/// the SMBIOS table's processor records are not at hand (the udev copy has none).
pub fn probe(
    src: &Source,
    backend: &Backend,
    smbios: Result<&Smbios<'_>, &Missing>,
    cpu_sockets: Option<u32>,
    notes: &mut Notes,
) -> (Memory, ListState) {
    let dimms = dimms_from(smbios);
    let (usable, inventory) = match backend {
        Backend::Files => (
            usable_from_meminfo(src, notes),
            dimms_or_udev(src, dimms, notes),
        ),
        Backend::Native(answers) => {
            if answers.memory.total_bytes.is_none() {
                notes.add(
                    "memory.usable_bytes",
                    answers.why_missing("memory.total_bytes"),
                );
            }
            let usable = Usable {
                bytes: answers.memory.total_bytes,
                source: "os",
                read_from: "the OS's memory size",
            };
            let inventory = match dimms {
                Ok(inv) => Some((inv, "smbios")),
                Err((why, _)) => {
                    notes.add("memory.dimms", why);
                    None
                }
            };
            (usable, inventory)
        }
    };
    assemble(usable, inventory, cpu_sockets, notes)
}

/// MemTotal from /proc/meminfo.
fn usable_from_meminfo(src: &Source, notes: &mut Notes) -> Usable {
    let bytes = match src.meminfo() {
        Ok(text) => notes.take(
            "memory.usable_bytes",
            parse_meminfo(&text).map_err(|d| Unknown::unparsable(MEMINFO, d)),
        ),
        Err(e) => {
            notes.add("memory.usable_bytes", e);
            None
        }
    };
    Usable {
        bytes,
        source: "meminfo",
        read_from: MEMINFO,
    }
}

/// The SMBIOS slots, else the udev database's copy (with a note saying why), else nothing
/// (with a note saying why neither).
fn dimms_or_udev(
    src: &Source,
    dimms: Result<Inventory, (String, bool)>,
    notes: &mut Notes,
) -> Option<(Inventory, &'static str)> {
    let (smbios_why, needs_root) = match dimms {
        Ok(inv) => return Some((inv, "smbios")),
        Err(why) => why,
    };
    match read_udev(src) {
        Ok(inv) => {
            notes.add(
                "memory.dimm_source",
                format!("{smbios_why}; DIMMs read from the udev database {UDEV_DMI}"),
            );
            Some((inv, "udev"))
        }
        Err(udev_why) => {
            notes.add(
                "memory.dimms",
                // Root reads tables that are there; where there are none (a VM) it reads
                // nothing more, and is not offered.
                format!(
                    "{smbios_why}; and no udev memory record: {udev_why} (systemd 248+ writes \
                     one{})",
                    if needs_root {
                        format!("; {} to read the SMBIOS tables", crate::sys::ELEVATE)
                    } else {
                        String::new()
                    }
                ),
            );
            None
        }
    }
}

/// Usable memory and where it was read.
struct Usable {
    bytes: Option<u64>,
    /// `total_source` when the total falls back to it: `meminfo` (Linux) or `os`.
    source: &'static str,
    /// For a note when it is unknown.
    read_from: &'static str,
}

/// The memory section from usable memory and the slot list (with the name of its source).
fn assemble(
    usable: Usable,
    inventory: Option<(Inventory, &str)>,
    cpu_sockets: Option<u32>,
    notes: &mut Notes,
) -> (Memory, ListState) {
    let mut mem = Memory {
        usable_bytes: usable.bytes,
        ..Memory::default()
    };
    let mut state = ListState::Unreadable;
    if let Some((inv, source)) = inventory {
        state = ListState::Read;
        if let Some(p) = &inv.problem {
            notes.add(
                "memory.dimms",
                format!("{p}: the DIMM list is partial, the installed total unknown"),
            );
            state = ListState::Partial;
        }
        if inv.slots.is_empty() {
            notes.add(
                "memory.dimms",
                format!("the {source} data lists no memory devices"),
            );
            state = ListState::Unreadable;
        } else {
            mem.dimm_source = Some(source.to_string());
            mem.slot_count = u32::try_from(inv.slots.len()).ok();
            let n_sockets = inv
                .sockets
                .or(cpu_sockets.and_then(|n| usize::try_from(n).ok()));
            let places = place_slots(
                &inv.slots
                    .iter()
                    .map(|s| (s.locator.as_str(), s.bank_locator.as_deref()))
                    .collect::<Vec<_>>(),
                n_sockets,
            );
            for (s, place) in inv.slots.into_iter().zip(places) {
                let dimm = s.dimm.map(|mut d| {
                    d.socket = place.socket;
                    mem.dimms.push(d);
                    mem.dimms.len() - 1
                });
                if dimm.is_none() {
                    mem.empty_slots.push(s.locator.clone());
                }
                mem.slots.push(MemorySlot {
                    locator: s.locator,
                    bank_locator: s.bank_locator,
                    socket: place.socket,
                    channel: place.channel,
                    dimm,
                });
            }
        }
    }

    let mut dimm_sum: Option<u64> = if mem.dimms.is_empty() || !state.is_complete() {
        // A sum over the modules before a damaged record is not the installed size.
        None
    } else {
        // Checked: a hostile table of many huge modules must not wrap to a small total.
        mem.dimms
            .iter()
            .try_fold(0u64, |sum, d| sum.checked_add(d.size_bytes?))
    };
    // The OS cannot use more memory than is installed: modules adding up to less than it
    // sees are not all of them (a table that omits some, or sizes misreported).
    if let (Some(sum), Some(usable)) = (dimm_sum, mem.usable_bytes) {
        if sum < usable {
            notes.add(
                "memory.dimms",
                format!(
                    "the DIMMs listed add up to {}, less than the OS sees ({}): the DIMM list \
                     is partial or misreports sizes; `dmidecode -t 17` as root shows the table",
                    bytes_bin(sum),
                    bytes_bin(usable)
                ),
            );
            state = ListState::Partial;
            dimm_sum = None;
        }
    }
    match (dimm_sum, mem.usable_bytes) {
        (Some(t), _) => {
            mem.total_bytes = Some(t);
            mem.total_source = Some("dimms".into());
        }
        (None, Some(u)) => {
            mem.total_bytes = Some(u);
            mem.total_source = Some(usable.source.into());
            let why = if mem.dimms.is_empty() {
                "no DIMM list"
            } else if !state.is_complete() {
                "the DIMM list is partial"
            } else {
                "a DIMM's size is unknown"
            };
            notes.add(
                "memory.total_bytes",
                format!(
                    "{why}: shows {}, which is below the installed size \
                     (the kernel and firmware reserve some)",
                    crate::spec::windows::usable_name(Some(usable.source))
                ),
            );
        }
        (None, None) => notes.add(
            "memory.total_bytes",
            format!("neither a DIMM list nor {} could be read", usable.read_from),
        ),
    }
    if let Some(why) = crate::rules::memory_unseen(&mem) {
        notes.add("memory.usable_bytes", why);
    }
    (mem, state)
}

/// Where a slot sits: CPU socket from 0 and memory channel.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Placed {
    pub socket: Option<u32>,
    pub channel: Option<String>,
}

/// Places every slot `(locator, bank locator)` of one machine on a CPU socket (from 0) and
/// a channel. This is the one rule for which socket a DIMM belongs to; the memory and
/// headroom probes both call it and the sheet only groups by its answer.
///
/// Numbers are read as 0-based when any slot of the machine says socket 0 (HP's
/// `CPU0-DIMM1`), else as 1-based (`DIMM1_CPU2`). Dell servers letter their slots by socket
/// (`A1..A12` = CPU1, `B1..B12` = CPU2) where one-socket boards letter them by channel:
/// bare letters are read as sockets only when there are as many as `n_sockets`. On one
/// socket every slot is on socket 0; a socket past `n_sockets` is unknown.
pub fn place_slots(slots: &[(&str, Option<&str>)], n_sockets: Option<usize>) -> Vec<Placed> {
    let places: Vec<SlotPlace> = slots
        .iter()
        .map(|(locator, bank)| {
            let mut place = parse_place(locator);
            if let Some(b) = bank {
                let bp = parse_place(b);
                place.socket = place.socket.or(bp.socket);
                place.channel = place.channel.or(bp.channel);
            }
            place
        })
        .collect();
    let mut letters: Vec<String> = places
        .iter()
        .filter_map(|p| p.bare_letter.clone())
        .collect();
    letters.sort_unstable();
    letters.dedup();
    let letters_are_sockets = n_sockets.is_some_and(|n| n > 1 && letters.len() == n);
    let zero_based = places.iter().any(|p| p.socket == Some(0));
    places
        .into_iter()
        .map(|p| {
            let raw = match (&p.socket, &p.bare_letter) {
                (Some(k), _) if zero_based => Some(*k),
                (Some(k), _) => k.checked_sub(1),
                (None, Some(l)) if letters_are_sockets => letters
                    .iter()
                    .position(|x| x == l)
                    .and_then(|i| u32::try_from(i).ok()),
                _ if n_sockets == Some(1) => Some(0),
                _ => None,
            };
            let socket = raw.filter(|&s| n_sockets.is_none_or(|n| (s as usize) < n));
            let channel = p
                .channel
                .or_else(|| p.bare_letter.filter(|_| !letters_are_sockets));
            Placed { socket, channel }
        })
        .collect()
}

/// MemTotal in bytes from `/proc/meminfo` text (`MemTotal:  24684092 kB`, kB = KiB).
pub fn parse_meminfo(text: &str) -> Result<u64, String> {
    meminfo::parse(text).bytes("MemTotal")
}

/// The memory slots of the run's SMBIOS table; the error says why there is none, and
/// whether root would read it (the tables are there, root-only).
fn dimms_from(smbios: Result<&Smbios<'_>, &Missing>) -> Result<Inventory, (String, bool)> {
    smbios
        .map(|s| inventory_from_table(&s.table, s.origin))
        .map_err(|m| {
            let root = matches!(m, Missing::Read(Unknown::PermissionDenied(_)));
            (m.to_string(), root)
        })
}

/// The memory slots of a DMI table: type-17 records of system-RAM arrays (type 16 use 3),
/// leaving out flash/ROM devices some firmware lists as memory devices.
pub fn inventory_from_smbios(ep: &EntryPoint, table: &[u8]) -> Inventory {
    inventory_from_table(&Table::parse(table, Some(ep)), SMBIOS_DMI)
}

/// The memory slots of a walked table read from `origin` (named in a damage note).
fn inventory_from_table(t: &Table<'_>, origin: &str) -> Inventory {
    let slots = smbios::ram_slots(t)
        .into_iter()
        .map(|(locator, d)| {
            let size_bytes = match d.size {
                DeviceSize::Empty => {
                    return SlotEntry {
                        locator,
                        bank_locator: d.bank_locator.clone(),
                        dimm: None,
                    }
                }
                DeviceSize::Unknown => None,
                DeviceSize::Bytes(b) => Some(b),
            };
            let dimm = Dimm {
                locator: locator.clone(),
                bank_locator: d.bank_locator.clone(),
                size_bytes,
                kind: d.type_name().map(str::to_string),
                form_factor: d.form_factor.clone(),
                type_detail: d.type_detail_text(),
                speed_mts: d.speed_mts,
                configured_speed_mts: d.configured_speed_mts,
                manufacturer: d.manufacturer.clone(),
                part_number: d.part_number.clone(),
                serial: d.serial.clone(),
                rank: d.rank.map(u32::from),
                socket: None,
            };
            SlotEntry {
                locator,
                bank_locator: d.bank_locator.clone(),
                dimm: Some(dimm),
            }
        })
        .collect();
    let sockets = t.of_type(4).count();
    Inventory {
        slots,
        sockets: (sockets > 0).then_some(sockets),
        problem: t
            .error
            .as_ref()
            .map(|e| format!("SMBIOS table {origin} is damaged ({e}); slots after it are missing")),
    }
}

fn read_udev(src: &Source) -> Result<Inventory, String> {
    let text = src.read_string(UDEV_DMI).map_err(|e| e.to_string())?;
    let inv = parse_udev_memory(&text);
    if inv.slots.is_empty() {
        return Err(format!("{UDEV_DMI} has no MEMORY_DEVICE_* keys"));
    }
    Ok(inv)
}

/// DIMM slots from the udev database entry of the DMI device: `E:MEMORY_DEVICE_<n>_<KEY>=`
/// lines written by systemd's `dmi_memory_id` (sizes in bytes, speeds in MT/s; an empty
/// slot has `_PRESENT=0`; keys of unknown values are left out).
pub fn parse_udev_memory(text: &str) -> Inventory {
    let mut devices: BTreeMap<u32, BTreeMap<&str, &str>> = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("E:MEMORY_DEVICE_") else {
            continue;
        };
        let Some((n, kv)) = rest.split_once('_') else {
            continue;
        };
        let (Ok(n), Some((k, v))) = (n.parse::<u32>(), kv.split_once('=')) else {
            continue;
        };
        devices.entry(n).or_default().insert(k, v);
    }
    let mut slots = Vec::new();
    for (n, keys) in devices {
        let get = |k: &str| {
            keys.get(k)
                .and_then(|v| smbios::clean(v.to_string()))
                .filter(|v| v != "<OUT OF SPEC>")
        };
        let num = |k: &str| get(k).and_then(|v| v.parse::<u64>().ok());
        // Flash/ROM chips listed as memory devices are not RAM slots.
        let kind = get("TYPE");
        let detail = get("TYPE_DETAIL");
        let non_volatile = matches!(
            kind.as_deref(),
            Some("Flash" | "ROM" | "EEPROM" | "FEPROM" | "EPROM")
        ) || detail
            .as_deref()
            .is_some_and(|d| d.contains("Non-Volatile"));
        if non_volatile {
            continue;
        }
        let locator = get("LOCATOR")
            .or_else(|| get("BANK_LOCATOR"))
            .unwrap_or_else(|| format!("slot {n}"));
        if keys.get("PRESENT") == Some(&"0") {
            slots.push(SlotEntry {
                locator,
                bank_locator: get("BANK_LOCATOR"),
                dimm: None,
            });
            continue;
        }
        let speed = |k: &str| {
            num(k)
                .and_then(|v| u32::try_from(v).ok())
                .filter(|v| *v != 0)
        };
        let dimm = Dimm {
            locator: locator.clone(),
            bank_locator: get("BANK_LOCATOR"),
            size_bytes: num("SIZE"),
            kind,
            form_factor: get("FORM_FACTOR"),
            type_detail: detail,
            speed_mts: speed("SPEED_MTS"),
            configured_speed_mts: speed("CONFIGURED_SPEED_MTS"),
            manufacturer: get("MANUFACTURER"),
            part_number: get("PART_NUMBER"),
            serial: get("SERIAL_NUMBER"),
            rank: num("RANK").and_then(|r| u32::try_from(r).ok()),
            socket: None,
        };
        slots.push(SlotEntry {
            locator,
            bank_locator: get("BANK_LOCATOR"),
            dimm: Some(dimm),
        });
    }
    Inventory {
        slots,
        sockets: None,
        problem: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dell_letters_are_sockets_only_when_they_match_the_socket_count() {
        let slots = [("A1", None), ("A2", None), ("B1", None), ("B2", None)];
        let two = place_slots(&slots, Some(2));
        assert_eq!(two[0].socket, Some(0));
        assert_eq!(two[2].socket, Some(1));
        assert_eq!(two[2].channel, None);
        let one = place_slots(&slots, Some(1));
        assert!(one.iter().all(|p| p.socket == Some(0)));
        assert_eq!(one[2].channel.as_deref(), Some("B"));
        // 1-based numbers unless a slot says socket 0; past the socket count is unknown.
        let t7600 = place_slots(&[("DIMM1_CPU1", None), ("DIMM1_CPU2", None)], Some(2));
        assert_eq!((t7600[0].socket, t7600[1].socket), (Some(0), Some(1)));
        let z8 = place_slots(&[("CPU0-DIMM1", None), ("CPU1-DIMM1", None)], Some(2));
        assert_eq!((z8[0].socket, z8[1].socket), (Some(0), Some(1)));
        assert_eq!(
            place_slots(&[("CPU3-DIMM1", None)], Some(2))[0].socket,
            None
        );
    }

    /// `/proc/meminfo` head of a 2-vCPU KVM guest (Debian 12, kernel 6.18).
    const MEMINFO_KVM_GUEST: &str = "MemTotal:       24684084 kB
MemFree:        21239756 kB
MemAvailable:   24068416 kB
Buffers:          229504 kB
Cached:          2671712 kB
SwapCached:            0 kB
HugePages_Total:       0
Active(anon):      12345 kB
";

    /// Output of systemd's `dmi_memory_id` on an HP Z600 (systemd
    /// `test/dmidecode-dumps/HP-Z600.bin.txt`), with the `E:` prefix the udev database
    /// puts before each key. Real text; device 6 is the flash ROM, not a slot.
    const UDEV_HP_Z600: &str = "I:1234567
E:MEMORY_ARRAY_LOCATION=System Board Or Motherboard
E:MEMORY_ARRAY_EC_TYPE=Multi-bit ECC
E:MEMORY_ARRAY_MAX_CAPACITY=12884901888
E:MEMORY_ARRAY_LOCATION=System Board Or Motherboard
E:MEMORY_ARRAY_EC_TYPE=Multi-bit ECC
E:MEMORY_ARRAY_MAX_CAPACITY=12884901888
E:MEMORY_DEVICE_0_TOTAL_WIDTH=72
E:MEMORY_DEVICE_0_DATA_WIDTH=64
E:MEMORY_DEVICE_0_SIZE=8589934592
E:MEMORY_DEVICE_0_FORM_FACTOR=DIMM
E:MEMORY_DEVICE_0_LOCATOR=CPU0 DIMM1
E:MEMORY_DEVICE_0_BANK_LOCATOR=Not Specified
E:MEMORY_DEVICE_0_TYPE=DDR3
E:MEMORY_DEVICE_0_TYPE_DETAIL=Synchronous Unbuffered (Unregistered)
E:MEMORY_DEVICE_0_SPEED_MTS=1600
E:MEMORY_DEVICE_0_MANUFACTURER=JEDEC ID:80 AD
E:MEMORY_DEVICE_0_SERIAL_NUMBER=BC8A0E80
E:MEMORY_DEVICE_0_ASSET_TAG=Not Specified
E:MEMORY_DEVICE_0_PART_NUMBER=HMT41GU7AFR8C-PB
E:MEMORY_DEVICE_0_RANK=2
E:MEMORY_DEVICE_1_TOTAL_WIDTH=72
E:MEMORY_DEVICE_1_DATA_WIDTH=64
E:MEMORY_DEVICE_1_SIZE=8589934592
E:MEMORY_DEVICE_1_FORM_FACTOR=DIMM
E:MEMORY_DEVICE_1_LOCATOR=CPU0 DIMM2
E:MEMORY_DEVICE_1_BANK_LOCATOR=Not Specified
E:MEMORY_DEVICE_1_TYPE=DDR3
E:MEMORY_DEVICE_1_TYPE_DETAIL=Synchronous Unbuffered (Unregistered)
E:MEMORY_DEVICE_1_SPEED_MTS=1600
E:MEMORY_DEVICE_1_MANUFACTURER=JEDEC ID:80 AD
E:MEMORY_DEVICE_1_SERIAL_NUMBER=86A6934F
E:MEMORY_DEVICE_1_ASSET_TAG=Not Specified
E:MEMORY_DEVICE_1_PART_NUMBER=HMT41GU7AFR8C-PB
E:MEMORY_DEVICE_1_RANK=2
E:MEMORY_DEVICE_2_DATA_WIDTH=64
E:MEMORY_DEVICE_2_PRESENT=0
E:MEMORY_DEVICE_2_FORM_FACTOR=DIMM
E:MEMORY_DEVICE_2_LOCATOR=CPU0 DIMM3
E:MEMORY_DEVICE_2_BANK_LOCATOR=Not Specified
E:MEMORY_DEVICE_2_TYPE=DDR3
E:MEMORY_DEVICE_2_TYPE_DETAIL=Synchronous
E:MEMORY_DEVICE_2_MANUFACTURER=JEDEC ID:
E:MEMORY_DEVICE_2_ASSET_TAG=Not Specified
E:MEMORY_DEVICE_3_TOTAL_WIDTH=72
E:MEMORY_DEVICE_3_DATA_WIDTH=64
E:MEMORY_DEVICE_3_SIZE=8589934592
E:MEMORY_DEVICE_3_FORM_FACTOR=DIMM
E:MEMORY_DEVICE_3_LOCATOR=CPU1 DIMM1
E:MEMORY_DEVICE_3_BANK_LOCATOR=Not Specified
E:MEMORY_DEVICE_3_TYPE=DDR3
E:MEMORY_DEVICE_3_TYPE_DETAIL=Synchronous Unbuffered (Unregistered)
E:MEMORY_DEVICE_3_SPEED_MTS=1600
E:MEMORY_DEVICE_3_MANUFACTURER=JEDEC ID:80 AD
E:MEMORY_DEVICE_3_SERIAL_NUMBER=A18A0E80
E:MEMORY_DEVICE_3_ASSET_TAG=Not Specified
E:MEMORY_DEVICE_3_PART_NUMBER=HMT41GU7AFR8C-PB
E:MEMORY_DEVICE_3_RANK=2
E:MEMORY_DEVICE_4_TOTAL_WIDTH=72
E:MEMORY_DEVICE_4_DATA_WIDTH=64
E:MEMORY_DEVICE_4_SIZE=8589934592
E:MEMORY_DEVICE_4_FORM_FACTOR=DIMM
E:MEMORY_DEVICE_4_LOCATOR=CPU1 DIMM2
E:MEMORY_DEVICE_4_BANK_LOCATOR=Not Specified
E:MEMORY_DEVICE_4_TYPE=DDR3
E:MEMORY_DEVICE_4_TYPE_DETAIL=Synchronous Unbuffered (Unregistered)
E:MEMORY_DEVICE_4_SPEED_MTS=1600
E:MEMORY_DEVICE_4_MANUFACTURER=JEDEC ID:80 AD
E:MEMORY_DEVICE_4_SERIAL_NUMBER=7D8A0E80
E:MEMORY_DEVICE_4_ASSET_TAG=Not Specified
E:MEMORY_DEVICE_4_PART_NUMBER=HMT41GU7AFR8C-PB
E:MEMORY_DEVICE_4_RANK=2
E:MEMORY_DEVICE_5_DATA_WIDTH=64
E:MEMORY_DEVICE_5_PRESENT=0
E:MEMORY_DEVICE_5_FORM_FACTOR=DIMM
E:MEMORY_DEVICE_5_LOCATOR=CPU1 DIMM3
E:MEMORY_DEVICE_5_BANK_LOCATOR=Not Specified
E:MEMORY_DEVICE_5_TYPE=DDR3
E:MEMORY_DEVICE_5_TYPE_DETAIL=Synchronous
E:MEMORY_DEVICE_5_MANUFACTURER=JEDEC ID:
E:MEMORY_DEVICE_5_ASSET_TAG=Not Specified
E:MEMORY_DEVICE_6_TOTAL_WIDTH=2
E:MEMORY_DEVICE_6_DATA_WIDTH=2
E:MEMORY_DEVICE_6_SIZE=2097152
E:MEMORY_DEVICE_6_FORM_FACTOR=Chip
E:MEMORY_DEVICE_6_LOCATOR=SYSTEM ROM
E:MEMORY_DEVICE_6_BANK_LOCATOR=Not Specified
E:MEMORY_DEVICE_6_TYPE=Flash
E:MEMORY_DEVICE_6_TYPE_DETAIL=Non-Volatile
E:MEMORY_DEVICE_6_MANUFACTURER=Not Specified
E:MEMORY_DEVICE_6_SERIAL_NUMBER=Not Specified
E:MEMORY_DEVICE_6_ASSET_TAG=Not Specified
E:MEMORY_DEVICE_6_PART_NUMBER=Not Specified
E:MEMORY_ARRAY_NUM_DEVICES=7
G:systemd
";

    #[test]
    fn meminfo_kvm_guest() {
        assert_eq!(parse_meminfo(MEMINFO_KVM_GUEST), Ok(24_684_084 * 1024));
        assert!(parse_meminfo("MemFree: 1 kB\n").is_err());
        assert!(parse_meminfo("MemTotal: lots kB\n").is_err());
        assert!(parse_meminfo("MemTotal: 5 MB\n").is_err());
    }

    #[test]
    fn udev_hp_z600() {
        let inv = parse_udev_memory(UDEV_HP_Z600);
        // Six DIMM slots; the SYSTEM ROM flash record is not one.
        assert_eq!(inv.slots.len(), 6);
        let empty: Vec<&str> = inv
            .slots
            .iter()
            .filter(|s| s.dimm.is_none())
            .map(|s| s.locator.as_str())
            .collect();
        assert_eq!(empty, ["CPU0 DIMM3", "CPU1 DIMM3"]);
        let dimms: Vec<&Dimm> = inv.slots.iter().filter_map(|s| s.dimm.as_ref()).collect();
        assert_eq!(dimms.len(), 4);
        let d = dimms[0];
        assert_eq!(d.locator, "CPU0 DIMM1");
        assert_eq!(d.bank_locator, None); // "Not Specified"
        assert_eq!(d.size_bytes, Some(8 << 30));
        assert_eq!(d.kind.as_deref(), Some("DDR3"));
        assert_eq!(d.speed_mts, Some(1600));
        assert_eq!(d.configured_speed_mts, None);
        assert_eq!(d.manufacturer.as_deref(), Some("JEDEC ID:80 AD"));
        assert_eq!(d.part_number.as_deref(), Some("HMT41GU7AFR8C-PB"));
        assert_eq!(d.serial.as_deref(), Some("BC8A0E80"));
        assert_eq!(d.rank, Some(2));
        assert_eq!(
            d.type_detail.as_deref(),
            Some("Synchronous Unbuffered (Unregistered)")
        );
        assert_eq!(dimms[3].locator, "CPU1 DIMM2");
    }

    #[test]
    fn udev_without_memory_keys() {
        assert!(
            parse_udev_memory("E:MODALIAS=dmi:bvnHP:\nE:MEMORY_DEVICE_x=1\n")
                .slots
                .is_empty()
        );
    }
}
