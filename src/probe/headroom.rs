//! Headroom probe: what can still be added to the box, read from SMBIOS without opening it.
//!
//! Owns the join of SMBIOS types 4 (sockets), 9 (expansion slots), 16/17 (memory arrays and
//! slots) and 39 (power supplies) with the GPUs and drives already found. The pure part,
//! `headroom_from_table`, takes the decoded table and the PCI devices; `probe` is handed the
//! run's walked table and only reads each device's sysfs path (to find the bridges above
//! it). It never renders and never decides pass/fail.

use crate::natural::natural_key;
use crate::plausible::MEMORY_ARRAY_BYTES;
use crate::probe::pci::is_pci_address;
use std::collections::BTreeMap;

use crate::probe::cpu_memory_limit;
use crate::probe::firmware::{Missing, Smbios};
use crate::probe::memory;
use crate::probe::smbios::{self, DeviceSize, Structure, Table};
use crate::source::Source;
use crate::spec::Notes;
use crate::spec::{
    CpuSocket, Drive, Gpu, Headroom, ListState, MemoryArrayInfo, MemoryHeadroom, Note, PcieSlot,
    PowerHeadroom, PowerSupplyInfo, SocketMemory,
};

/// A PCI device that may sit in a slot: its label and the PCI addresses from the root port
/// down to the device itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PciDevice {
    /// What to show in the slot, e.g. `GPU 0 Quadro RTX 6000 (0000:17:00.0)`.
    pub label: String,
    /// Addresses from the root port (first) to the device (last); just the device when its
    /// sysfs path is unknown.
    pub chain: Vec<String>,
}

/// Joins the machine's SMBIOS table with the GPUs and drives found.
pub fn probe(
    src: &Source,
    smbios: Result<&Smbios<'_>, &Missing>,
    gpus: &[Gpu],
    gpu_list: ListState,
    drives: &[Drive],
    notes: &mut Notes,
) -> Option<Headroom> {
    let s = match smbios {
        Ok(s) => s,
        Err(missing) => {
            notes.add(
                "headroom",
                format!(
                    "{missing}; free sockets, DIMM and PCIe slots and power supplies are unknown"
                ),
            );
            return None;
        }
    };
    let devices = pci_devices(src, gpus, drives);
    let (mut h, mut found) = headroom_from_table(&s.table, &devices, gpus);
    // The table sums the GPUs it is given; a sum over a list not read to its end says
    // nothing (an empty unreadable list would otherwise read as "no GPU").
    if gpu_list != ListState::Read {
        h.power.gpu_power_limit_w = None;
        h.power.headroom_w = None;
        found.retain(|n| !n.field.starts_with("headroom.power.gpu_power_limit_w"));
        found.retain(|n| !n.field.starts_with("headroom.power.headroom_w"));
        found.push(Note {
            field: "headroom.power.gpu_power_limit_w".into(),
            reason: format!(
                "the GPU list is {}: the sum of their power limits is unknown (see the GPUs' note)",
                gpu_list.as_str()
            ),
        });
    }
    notes.0.extend(found);
    Some(h)
}

/// The GPUs and PCIe drives with the bridges above them (from their sysfs path).
fn pci_devices(src: &Source, gpus: &[Gpu], drives: &[Drive]) -> Vec<PciDevice> {
    let chain = |addr: &str| -> Vec<String> {
        src.canonical(format!("/sys/bus/pci/devices/{addr}"))
            .ok()
            .map(|p| pci_chain(&p.to_string_lossy()))
            .filter(|c| c.last().map(String::as_str) == Some(addr))
            .unwrap_or_else(|| vec![addr.to_string()])
    };
    let mut out = Vec::new();
    for (i, g) in gpus.iter().enumerate() {
        if let Some(a) = &g.pci_address {
            out.push(PciDevice {
                label: format!(
                    "GPU {} {} ({a})",
                    g.index.unwrap_or(i as u32),
                    g.name.as_deref().unwrap_or("NVIDIA GPU")
                ),
                chain: chain(a),
            });
        }
    }
    for d in drives {
        if let Some(a) = &d.pci_address {
            let model = d
                .model
                .as_deref()
                .map(|m| format!(" {m}"))
                .unwrap_or_default();
            out.push(PciDevice {
                label: format!("{}{model} ({a})", d.name),
                chain: chain(a),
            });
        }
    }
    out
}

/// The PCI addresses in a sysfs device path, root port first:
/// `/sys/devices/pci0000:17/0000:16:00.0/0000:17:00.0` → `[0000:16:00.0, 0000:17:00.0]`.
pub fn pci_chain(path: &str) -> Vec<String> {
    path.split('/')
        .filter(|c| is_pci_address(c))
        .map(str::to_string)
        .collect()
}

/// `dddd:bb` of an address.
fn seg_bus(addr: &str) -> &str {
    addr.get(..7).unwrap_or(addr)
}

/// Builds the headroom from a walked table; returns it and the notes on what is unknown.
pub fn headroom_from_table(
    t: &Table,
    devices: &[PciDevice],
    gpus: &[Gpu],
) -> (Headroom, Vec<Note>) {
    let mut notes = Vec::new();
    let mut note = |field: &str, reason: String| {
        notes.push(Note {
            field: field.to_string(),
            reason,
        })
    };

    // Sockets.
    let procs: Vec<smbios::Processor> = t.of_type(4).map(smbios::decode_processor).collect();
    let sockets = if procs.is_empty() {
        note(
            "headroom.sockets",
            "the SMBIOS table lists no processor sockets (type 4)".into(),
        );
        None
    } else {
        Some(
            procs
                .iter()
                .map(|p| CpuSocket {
                    designation: p.socket.clone(),
                    populated: p.populated,
                    model: p.version.clone().filter(|_| p.populated),
                })
                .collect::<Vec<_>>(),
        )
    };
    let empty_sockets = sockets
        .as_ref()
        .map(|s| s.iter().filter(|c| !c.populated).count() as u32);

    let memory = memory_headroom(t, sockets.as_deref(), &mut note);
    let (pcie_slots, free_x16_slots) = slots(t, devices, &mut note);
    let power = power(t, gpus, &mut note);
    (
        Headroom {
            sockets,
            empty_sockets,
            memory,
            pcie_slots,
            free_x16_slots,
            power,
        },
        notes,
    )
}

// ---------------------------------------------------------------------------------------
// Memory.

struct MemSlot {
    locator: String,
    array: Option<u16>,
    size: DeviceSize,
    kind: Option<&'static str>,
    socket: Option<u32>,
    channel: Option<String>,
}

/// The memory slots of the table with their socket and channel (placed by the memory
/// probe's rule, sockets counted from the type-4 records so Dell's letters line up).
fn read_slots(t: &Table, sockets: Option<&[CpuSocket]>) -> Vec<MemSlot> {
    let ram = smbios::ram_slots(t);
    let places = memory::place_slots(
        &ram.iter()
            .map(|(l, d)| (l.as_str(), d.bank_locator.as_deref()))
            .collect::<Vec<_>>(),
        sockets.map(<[CpuSocket]>::len),
    );
    ram.into_iter()
        .zip(places)
        .map(|((locator, d), place)| MemSlot {
            locator,
            array: d.array_handle,
            size: d.size,
            kind: d.type_name(),
            socket: place.socket,
            channel: place.channel,
        })
        .collect()
}

fn memory_headroom(
    t: &Table,
    sockets: Option<&[CpuSocket]>,
    note: &mut impl FnMut(&str, String),
) -> Option<MemoryHeadroom> {
    let mut arrays_all: Vec<smbios::MemoryArray> =
        t.of_type(16).map(smbios::decode_memory_array).collect();
    // A capacity no memory array has (u64::MAX bytes: 16,384 PiB) is no ceiling.
    for a in &mut arrays_all {
        if let Some(Err(why)) = a.max_capacity_bytes.map(|b| MEMORY_ARRAY_BYTES.check(b)) {
            note(
                "headroom.memory.max_capacity_bytes",
                format!("memory array 0x{:04x}: {why}", a.handle),
            );
            a.max_capacity_bytes = None;
        }
    }
    // System-RAM arrays only, as `smbios::ram_slots` counts their slots.
    let arrays: Vec<&smbios::MemoryArray> = arrays_all
        .iter()
        .filter(|a| a.use_code.is_none() || a.is_system_memory())
        .collect();
    let slots = read_slots(t, sockets);
    if slots.is_empty() {
        note(
            "headroom.memory",
            "the SMBIOS table lists no memory slots (type 17)".into(),
        );
        return None;
    }
    let fill = tally(&slots, sockets);
    // A table damaged part way lists only the slots before the damage: counts and sums over
    // them are not the machine's (12 free slots read as 7), and neither is their balance.
    let whole = t.error.is_none();
    let (max_capacity_bytes, max_with_installed) = capacity(&arrays, &fill, sockets, note);
    let max_with_installed = max_with_installed.filter(|_| whole);
    let cpu_limit = cpu_limit(sockets, note);
    // The board's arrays and the CPUs each set a ceiling: the lower one binds.
    let (effective_max_capacity_bytes, max_capacity_bound_by) =
        match (max_capacity_bytes, cpu_limit) {
            (Some(board), Some((cpus, _, _))) if cpus < board => {
                (Some(cpus), Some("cpus".to_string()))
            }
            (Some(board), Some(_)) => (Some(board), Some("board".to_string())),
            _ => (None, None),
        };
    let (balanced, balance_detail) = if whole {
        balance(&fill.groups, fill.channels_derived, note)
    } else {
        (
            None,
            "unknown: the SMBIOS table is damaged part way, so the slots after the damage are \
             not listed"
                .to_string(),
        )
    };
    let used_slots = slots.iter().filter(|s| s.size != DeviceSize::Empty).count() as u32;
    let read = slots.len() as u32;
    let installed_bytes = if whole {
        fill.installed
    } else {
        let cut = format!(
            "the SMBIOS table is damaged part way: {read} slots are listed before the damage, \
             the ones after it are missing"
        );
        for (field, what) in [
            ("installed_bytes", "the installed sum"),
            ("slot_count", "the number of slots"),
            ("used_slots", "the used slots"),
            ("free_slots", "the free slots"),
            ("usable_free_slots", "the usable free slots"),
            (
                "max_with_installed_module_bytes",
                "the most memory with the installed module",
            ),
            ("balanced", "the balance"),
        ] {
            note(
                &format!("headroom.memory.{field}"),
                format!("{cut}, so {what} unknown"),
            );
        }
        None
    };
    Some(MemoryHeadroom {
        arrays: arrays
            .iter()
            .map(|a| MemoryArrayInfo {
                max_capacity_bytes: a.max_capacity_bytes,
                slots: a.slots,
                ecc: a.ecc.clone(),
            })
            .collect(),
        max_capacity_bytes,
        cpu_max_capacity_bytes: cpu_limit.map(|(total, _, _)| total),
        cpu_max_capacity_per_socket_bytes: cpu_limit.map(|(_, one, _)| one),
        cpu_max_capacity_source: cpu_limit
            .map(|(_, _, family)| format!("{}: {family}", cpu_memory_limit::SOURCE)),
        effective_max_capacity_bytes,
        max_capacity_bound_by,
        slot_count: whole.then_some(read),
        used_slots: whole.then_some(used_slots),
        free_slots: whole.then_some(read - used_slots),
        usable_free_slots: whole.then_some(fill.usable_free),
        installed_bytes,
        upgrade_module_bytes: fill.largest.map(|(b, _)| b),
        upgrade_module_type: fill.largest.and_then(|(_, k)| k.map(str::to_string)),
        max_with_installed_module_bytes: max_with_installed,
        balanced,
        channels_derived: fill.channels_derived,
        balance_detail,
        groups: fill.groups,
    })
}

/// How the slots are filled: per socket, per array, in total.
struct Fill {
    groups: Vec<SocketMemory>,
    /// Empty slots on sockets that have (or may have) a CPU.
    usable_free: u32,
    /// Per memory array: installed bytes (`None` once the sum overflows) and usable free
    /// slots.
    per_array: BTreeMap<Option<u16>, (Option<u64>, u32)>,
    /// Sum of the modules; `None` when one module's size is unknown (or the sum overflows).
    installed: Option<u64>,
    /// The largest module and its type: the one an upgrade would repeat.
    largest: Option<(u64, Option<&'static str>)>,
    /// True when every slot's channel is known.
    channels_derived: bool,
}

/// Counts used and free slots per socket and per array, and DIMMs per channel.
fn tally(slots: &[MemSlot], sockets: Option<&[CpuSocket]>) -> Fill {
    let mut groups: BTreeMap<Option<u32>, SocketMemory> = BTreeMap::new();
    let mut chan_counts: BTreeMap<Option<u32>, Option<BTreeMap<String, u32>>> = BTreeMap::new();
    let mut usable_free = 0u32;
    // Per array: installed bytes (checked: huge modules must not wrap), usable free slots.
    let mut per_array: BTreeMap<Option<u16>, (Option<u64>, u32)> = BTreeMap::new();
    let mut installed: Option<u64> = Some(0);
    let mut largest: Option<(u64, Option<&'static str>)> = None;
    for s in slots {
        let sock = s.socket;
        let populated_cpu =
            sock.and_then(|k| sockets.and_then(|v| v.get(k as usize)).map(|c| c.populated));
        let g = groups.entry(sock).or_insert_with(|| SocketMemory {
            group: sock.map_or_else(|| "unassigned".to_string(), |k| format!("socket {k}")),
            socket: sock,
            cpu_populated: populated_cpu,
            slots: 0,
            used: 0,
            free: 0,
            free_locators: Vec::new(),
            dimms_per_channel: None,
        });
        g.slots += 1;
        let used = s.size != DeviceSize::Empty;
        let arr = per_array.entry(s.array).or_insert((Some(0), 0));
        if used {
            g.used += 1;
            match s.size {
                DeviceSize::Bytes(b) => {
                    installed = installed.and_then(|i| i.checked_add(b));
                    arr.0 = arr.0.and_then(|a| a.checked_add(b));
                    if largest.is_none_or(|(l, _)| b > l) {
                        largest = Some((b, s.kind));
                    }
                }
                _ => installed = None,
            }
        } else {
            g.free += 1;
            g.free_locators.push(s.locator.clone());
            // A slot behind an empty socket cannot be used; unknown sockets count as usable.
            if populated_cpu != Some(false) {
                usable_free += 1;
                arr.1 += 1;
            }
        }
        let counts = chan_counts
            .entry(sock)
            .or_insert_with(|| Some(BTreeMap::new()));
        match (s.channel.clone(), counts.as_mut()) {
            (Some(c), Some(m)) => *m.entry(c).or_insert(0) += u32::from(used),
            _ => *counts = None,
        }
    }
    let channels_derived = chan_counts.values().all(Option::is_some);
    for (k, c) in chan_counts {
        if let Some(g) = groups.get_mut(&k) {
            g.dimms_per_channel = c;
        }
    }
    let mut groups: Vec<SocketMemory> = groups.into_values().collect();
    for g in &mut groups {
        g.free_locators.sort_by_key(|l| natural_key(l));
    }
    Fill {
        groups,
        usable_free,
        per_array,
        installed,
        largest,
        channels_derived,
    }
}

/// The memory the populated sockets' CPUs address together, one socket's share, and the
/// family the table knew them as; `None` (with a note) where a CPU is not in the table.
fn cpu_limit(
    sockets: Option<&[CpuSocket]>,
    note: &mut impl FnMut(&str, String),
) -> Option<(u64, u64, &'static str)> {
    let models: Vec<Option<&str>> = sockets
        .unwrap_or_default()
        .iter()
        .filter(|c| c.populated)
        .map(|c| c.model.as_deref())
        .collect();
    let limits: Option<Vec<(u64, &'static str)>> = models
        .iter()
        .map(|m| m.and_then(cpu_memory_limit::per_socket))
        .collect();
    let found = limits.filter(|l| !l.is_empty()).and_then(|l| {
        let first = *l.first()?;
        // Mixed CPUs are not a configuration Intel supports: no sum is claimed for them.
        l.iter().all(|x| *x == first).then(|| {
            let n = l.len() as u64;
            (first.0.saturating_mul(n), first.0, first.1)
        })
    });
    if found.is_none() {
        let which = models.first().copied().flatten().unwrap_or("the CPU");
        note(
            "headroom.memory.cpu_max_capacity_bytes",
            format!(
                "the CPUs' own memory limit is not known: rigcheck's table ({}) covers 1st and \
                 2nd gen Intel Xeon Scalable only, not {which}; see the CPU maker's \
                 specification",
                cpu_memory_limit::SOURCE
            ),
        );
    }
    found
}

/// The arrays' maximum capacity, and the most memory the installed module size allows when
/// every usable free slot gets one (capped by each array's maximum).
fn capacity(
    arrays: &[&smbios::MemoryArray],
    fill: &Fill,
    sockets: Option<&[CpuSocket]>,
    note: &mut impl FnMut(&str, String),
) -> (Option<u64>, Option<u64>) {
    let max_capacity_bytes = if arrays.is_empty() {
        note(
            "headroom.memory.max_capacity_bytes",
            "the SMBIOS table lists no memory array (type 16)".into(),
        );
        None
    } else {
        let caps: Option<Vec<u64>> = arrays.iter().map(|a| a.max_capacity_bytes).collect();
        if caps.is_none() {
            note(
                "headroom.memory.max_capacity_bytes",
                "a memory array does not state its maximum capacity".into(),
            );
        }
        // Checked: two huge arrays must not wrap to a small ceiling.
        let sum = caps
            .as_ref()
            .and_then(|c| c.iter().try_fold(0u64, |sum, x| sum.checked_add(*x)));
        if caps.is_some() && sum.is_none() {
            note(
                "headroom.memory.max_capacity_bytes",
                "the memory arrays' maximum capacities add up past 2^64 bytes: the SMBIOS \
                 table's sizes are not real"
                    .into(),
            );
        }
        sum
    };
    let cap_of = |h: Option<u16>| -> Option<u64> {
        arrays
            .iter()
            .find(|a| Some(a.handle) == h)
            .and_then(|a| a.max_capacity_bytes)
    };
    let max_with_installed = match (fill.largest, fill.installed) {
        (Some((size, _)), Some(_)) => {
            let ceiling = fill
                .per_array
                .iter()
                .try_fold(0u64, |sum, (h, (inst, free))| {
                    let inst = (*inst)?;
                    let want = u64::from(*free).checked_mul(size)?.checked_add(inst)?;
                    sum.checked_add(cap_of(*h).map_or(want, |c| want.min(c.max(inst))))
                });
            if ceiling.is_none() {
                note(
                    "headroom.memory.max_with_installed_module_bytes",
                    "the installed modules and free slots add up past 2^64 bytes: the SMBIOS \
                     table's sizes are not real"
                        .into(),
                );
            }
            ceiling
        }
        _ => {
            note(
                "headroom.memory.max_with_installed_module_bytes",
                "no installed module of known size to repeat".into(),
            );
            None
        }
    };
    if let (Some(_), Some(n)) = (max_with_installed, sockets) {
        let empty: Vec<&str> = n
            .iter()
            .filter(|c| !c.populated)
            .filter_map(|c| c.designation.as_deref())
            .collect();
        let behind: u32 = fill
            .groups
            .iter()
            .filter(|g| g.cpu_populated == Some(false))
            .map(|g| g.free)
            .sum();
        if behind > 0 {
            note(
                "headroom.memory.usable_free_slots",
                format!(
                    "{behind} free slot(s) belong to the empty socket(s) {}: they need a CPU \
                     there before they can hold memory",
                    empty.join(", ")
                ),
            );
        }
    }
    (max_capacity_bytes, max_with_installed)
}

/// Whether the fill is balanced: equal DIMMs per channel (when channels are known) and per
/// populated socket, and the verdict in words.
fn balance(
    groups: &[SocketMemory],
    channels_derived: bool,
    note: &mut impl FnMut(&str, String),
) -> (Option<bool>, String) {
    let populated_groups: Vec<&SocketMemory> = groups
        .iter()
        .filter(|g| g.socket.is_some() && g.used > 0)
        .collect();
    let per_socket_equal = populated_groups.windows(2).all(|w| w[0].used == w[1].used);
    let per_socket_text = populated_groups
        .iter()
        .map(|g| format!("{} on {}", g.used, g.group))
        .collect::<Vec<_>>()
        .join(", ");
    if channels_derived {
        let mut uneven = Vec::new();
        for g in &populated_groups {
            if let Some(m) = &g.dimms_per_channel {
                let (lo, hi) = (m.values().min(), m.values().max());
                if lo != hi {
                    let per: Vec<String> = m.iter().map(|(c, n)| format!("{c}:{n}")).collect();
                    uneven.push(format!("{} has {}", g.group, per.join(" ")));
                }
            }
        }
        let ok = uneven.is_empty() && per_socket_equal;
        let text = if ok {
            "balanced: the same number of DIMMs in every channel of every populated socket"
                .to_string()
        } else if !uneven.is_empty() {
            format!(
                "unbalanced: {}; uneven channels lower memory bandwidth",
                uneven.join("; ")
            )
        } else {
            format!(
                "unbalanced: {per_socket_text}; an uneven split between sockets lowers \
                 memory bandwidth"
            )
        };
        (Some(ok), text)
    } else {
        note(
            "headroom.memory.balanced",
            "the memory channel of each slot cannot be read from its locator; balance is \
             judged by DIMMs per socket only"
                .into(),
        );
        match populated_groups.len() {
            0 => (None, "no DIMM on a known socket".to_string()),
            1 => (
                None,
                format!("{per_socket_text}; channels unknown, balance cannot be judged"),
            ),
            _ if per_socket_equal => (
                Some(true),
                format!("balanced between sockets ({per_socket_text}); channels unknown"),
            ),
            _ => (
                Some(false),
                format!(
                    "unbalanced: {per_socket_text}; an uneven split between sockets lowers \
                     memory bandwidth"
                ),
            ),
        }
    }
}

// ---------------------------------------------------------------------------------------
// Expansion slots.

/// Physical slot size in lanes named by a PCIe slot type code (DSP0134 7.10.1: each
/// generation's block is "PCI Express N", then x1, x2, x4, x8, x16).
pub fn slot_type_lanes(code: u8) -> Option<u8> {
    let base = match code {
        0xA5..=0xAA => 0xA5,
        0xAB..=0xB0 => 0xAB,
        0xB1..=0xB6 => 0xB1,
        0xB8..=0xBD => 0xB8,
        0xBE..=0xC3 => 0xBE,
        _ => return None,
    };
    match code - base {
        1 => Some(1),
        2 => Some(2),
        3 => Some(4),
        4 => Some(8),
        5 => Some(16),
        _ => None,
    }
}

fn is_pcie_code(code: u8) -> bool {
    // 0xA5-0xC4 PCIe generations; 0x1F-0x24 PCIe SFF-8639 / M.2 form factors (3.x).
    matches!(code, 0xA5..=0xC4 | 0x1F..=0x24)
}

/// True when the slot's bus address is a placeholder: bus 0xFF, device/function 0xFF
/// (Dell T7600 writes `0000:ff:1f.7` for its empty slots).
fn is_placeholder_address(a: &str) -> bool {
    a.ends_with(":ff:1f.7")
}

/// The devices in a slot: the slot's address is the device or a bridge above it, or its
/// bus is the bus of the device (or of a bridge below the root port, for a switch on the
/// card).
fn in_slot(addr: &str, d: &PciDevice) -> bool {
    d.chain.iter().any(|a| a == addr)
        || d.chain
            .iter()
            .skip(usize::from(d.chain.len() > 1))
            .any(|a| seg_bus(a) == seg_bus(addr))
}

fn slots(
    t: &Table,
    devices: &[PciDevice],
    note: &mut impl FnMut(&str, String),
) -> (Option<Vec<PcieSlot>>, Option<u32>) {
    let raw: Vec<&Structure> = t.of_type(9).collect();
    if raw.is_empty() {
        note(
            "headroom.pcie_slots",
            "the SMBIOS table lists no expansion slots (type 9); free slots are unknown".into(),
        );
        return (None, None);
    }
    let mut out = Vec::new();
    let mut unplaced_in_use = Vec::new();
    for s in raw {
        let d = smbios::decode_slot(s);
        let addr = d.bus_address.clone().filter(|a| !is_placeholder_address(a));
        let found: Vec<String> = match &addr {
            Some(a) => devices
                .iter()
                .filter(|dev| in_slot(a, dev))
                .map(|dev| dev.label.clone())
                .collect(),
            None => Vec::new(),
        };
        let name = d.designation.clone();
        if d.in_use == Some(true) && found.is_empty() {
            unplaced_in_use.push(name.clone().unwrap_or_else(|| "a slot".into()));
        }
        out.push(PcieSlot {
            is_pcie: d.kind.is_some_and(is_pcie_code),
            pcie_gen: d.pcie_gen,
            width: d.width,
            slot_size: d.kind.and_then(slot_type_lanes),
            in_use: d.in_use,
            bus_address: addr,
            designation: name,
            devices: found,
        });
    }
    if !unplaced_in_use.is_empty() {
        note(
            "headroom.pcie_slots",
            format!(
                "the firmware marks {} in use, but no GPU or NVMe drive rigcheck lists sits \
                 at its bus address (another kind of card, or an address the firmware does \
                 not report)",
                unplaced_in_use.join(", ")
            ),
        );
    }
    let free = out
        .iter()
        .filter(|s| s.is_pcie && s.width == Some(16))
        .filter(|s| s.in_use == Some(false) && s.devices.is_empty())
        .count() as u32;
    (Some(out), Some(free))
}

// ---------------------------------------------------------------------------------------
// Power.

/// The note on the GPU power limits of a machine with no GPU: there is no sum to show.
pub const NO_GPU_POWER_LIMIT: &str = "no GPU: no GPU power limit to sum";

fn power(t: &Table, gpus: &[Gpu], note: &mut impl FnMut(&str, String)) -> PowerHeadroom {
    let supplies: Vec<PowerSupplyInfo> = t
        .of_type(39)
        .map(|s| {
            let p = smbios::decode_power_supply(s);
            PowerSupplyInfo {
                name: p.name,
                location: p.location,
                manufacturer: p.manufacturer,
                model_part_number: p.model_part_number,
                max_power_w: p.max_power_w,
                present: p.present,
                hot_replaceable: p.hot_replaceable,
                status: p.status,
                group: s.byte(0x04),
            }
        })
        .collect();
    let (supplies, capacity_w) = if supplies.is_empty() {
        note(
            "headroom.power.supplies",
            "the SMBIOS table lists no power supplies (type 39); capacity is unknown".into(),
        );
        (None, None)
    } else {
        let present: Vec<&PowerSupplyInfo> = supplies
            .iter()
            .filter(|p| p.present != Some(false))
            .collect();
        // Supplies sharing a non-zero power unit group back each other up: count one.
        let mut groups: BTreeMap<u8, u32> = BTreeMap::new();
        let mut sum: Option<u32> = Some(0);
        for p in &present {
            match (p.max_power_w, p.group) {
                (Some(w), Some(g)) if g != 0 => {
                    let e = groups.entry(g).or_insert(0);
                    *e = (*e).max(u32::from(w));
                }
                (Some(w), _) => sum = sum.and_then(|s| s.checked_add(u32::from(w))),
                (None, _) => sum = None,
            }
        }
        // Checked: a table of many huge supplies must not wrap to a small capacity.
        let stated = present.iter().all(|p| p.max_power_w.is_some());
        let cap = sum.and_then(|s| groups.values().try_fold(s, |a, g| a.checked_add(*g)));
        if stated && cap.is_none() {
            note(
                "headroom.power.capacity_w",
                "the power supplies' outputs add up past 2^32 W: the SMBIOS table's \
                 figures are not real"
                    .into(),
            );
        } else if cap.is_none() {
            note(
                "headroom.power.capacity_w",
                "a power supply does not state its maximum output".into(),
            );
        } else if present.len() > 1 && groups.is_empty() {
            let one = present
                .iter()
                .filter_map(|p| p.max_power_w)
                .max()
                .unwrap_or(0);
            note(
                "headroom.power.capacity_w",
                format!(
                    "{} supplies summed; the firmware names no redundancy group, so if they \
                     are redundant (1+1) the usable capacity is one supply's {one} W",
                    present.len()
                ),
            );
        }
        (Some(supplies), cap)
    };
    let limits: Option<f64> = gpus
        .iter()
        .try_fold(0.0, |acc, g| g.state.power_limit_w.map(|w| acc + w));
    if gpus.is_empty() {
        // Nothing to sum: no GPU, not a GPU drawing 0 W.
        note(
            "headroom.power.gpu_power_limit_w",
            NO_GPU_POWER_LIMIT.into(),
        );
        return PowerHeadroom {
            supplies,
            capacity_w,
            gpu_power_limit_w: None,
            headroom_w: None,
        };
    }
    if limits.is_none() {
        note(
            "headroom.power.gpu_power_limit_w",
            "a GPU's power limit is unknown (it comes from NVML: needs the NVIDIA driver)".into(),
        );
    }
    let headroom_w = match (capacity_w, limits) {
        (Some(c), Some(l)) => {
            note(
                "headroom.power.headroom_w",
                "supply capacity minus GPU power limits only: CPU, memory, drive, fan and \
                 board draw are not included"
                    .into(),
            );
            Some(f64::from(c) - l)
        }
        _ => None,
    };
    PowerHeadroom {
        supplies,
        capacity_w,
        gpu_power_limit_w: limits,
        headroom_w,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_and_slot_sizes() {
        assert_eq!(
            pci_chain("/sys/devices/pci0000:17/0000:16:00.0/0000:17:00.0"),
            ["0000:16:00.0", "0000:17:00.0"]
        );
        // T7600 "x4 PCI Express 2 x8" (0xAF) and Z8 "x16 PCI Express 3" (0xB1, no size).
        assert_eq!(slot_type_lanes(0xAF), Some(8));
        assert_eq!(slot_type_lanes(0xB6), Some(16));
        assert_eq!(slot_type_lanes(0xB1), None);
        let gpu = PciDevice {
            label: "GPU".into(),
            chain: vec!["0000:16:00.0".into(), "0000:17:00.0".into()],
        };
        assert!(in_slot("0000:17:00.0", &gpu));
        assert!(in_slot("0000:16:00.0", &gpu)); // firmware giving the root port
        assert!(!in_slot("0000:16:01.0", &gpu)); // a sibling root port's slot
        assert!(!in_slot("0000:15:00.0", &gpu));
    }
}
