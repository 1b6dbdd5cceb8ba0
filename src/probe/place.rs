//! Which CPU socket a NUMA node, GPU or drive is on, by one rule per backend: the package
//! of its local CPUs (else its NUMA node's) where there is a PCI tree to follow, the SMBIOS
//! slot holding it where there is not. DIMM slots are placed by their locators
//! (`memory::place_slots`), which `by_slot` reuses for expansion slots.

use crate::probe::backend::Backend;
use crate::probe::memory::place_slots;
use crate::probe::pci::PCI_DEVICES;
use crate::source::Source;
use crate::spec::{Cpu, Drive, Gpu, Headroom, Notes};

/// Places NUMA nodes, GPUs and drives on CPU sockets: by their local CPUs where the
/// backend has a PCI tree, else by the SMBIOS slot that holds them, with a note for each
/// GPU left unplaced.
pub fn on_sockets(
    src: &Source,
    backend: &Backend,
    cpu: &mut Cpu,
    headroom: Option<&Headroom>,
    gpus: &mut [Gpu],
    drives: &mut [Drive],
    notes: &mut Notes,
) {
    if backend.has_pci_tree() {
        by_local_cpus(src, cpu, gpus, drives);
        return;
    }
    by_slot(cpu.sockets, headroom, gpus, drives);
    for (i, g) in gpus.iter().enumerate().filter(|(_, g)| g.socket.is_none()) {
        notes.add(
            format!("gpus[{i}].socket"),
            format!(
                "the OS does not say which CPU socket or NUMA node a GPU hangs off, and no \
                 SMBIOS slot naming a CPU holds {}",
                g.pci_address.as_deref().unwrap_or("it")
            ),
        );
    }
}

/// The physical package of the first CPU in a CPU list (`0-17,36-53` -> socket 0).
fn package_of(src: &Source, cpus: &str) -> Option<u32> {
    let first = *crate::cpulist::parse_cpulist(cpus).ok()?.first()?;
    let path = format!("/sys/devices/system/cpu/cpu{first}/topology/physical_package_id");
    src.read_parse::<i64>(path)
        .ok()
        .and_then(|p| u32::try_from(p).ok())
}

/// Places NUMA nodes, GPUs and drives on CPU sockets, by one rule: the package of their
/// local CPUs, else the socket of their NUMA node; on a one-socket machine, socket 0.
/// (DIMM slots are placed by their locators, in `memory::place_slots`.) Needs the PCI tree
/// and CPU topology of the files backend.
fn by_local_cpus(src: &Source, cpu: &mut Cpu, gpus: &mut [Gpu], drives: &mut [Drive]) {
    let one = cpu.sockets == Some(1);
    let place = |cpus: Option<&str>| -> Option<u32> {
        if one {
            return Some(0);
        }
        cpus.filter(|c| !c.trim().is_empty())
            .and_then(|c| package_of(src, c))
    };
    for n in cpu.numa_nodes.iter_mut().flatten() {
        n.socket = place(Some(&n.cpus));
    }
    let nodes = cpu.numa_nodes.as_deref().unwrap_or_default();
    let by_node = |node: Option<i32>| -> Option<u32> {
        let id = u32::try_from(node?).ok()?;
        nodes.iter().find(|n| n.id == id)?.socket
    };
    for g in gpus.iter_mut() {
        g.socket = place(g.local_cpus.as_deref()).or_else(|| by_node(g.numa_node));
    }
    for d in drives.iter_mut() {
        let local = d.pci_address.as_ref().and_then(|a| {
            src.read_value(format!("{}/{a}/local_cpulist", PCI_DEVICES))
                .ok()
        });
        d.socket = place(local.as_deref()).or_else(|| by_node(d.numa_node));
    }
}

/// Places GPUs and drives where there is no PCI tree to follow (Windows, macOS): on a
/// one-socket machine everything is on socket 0; with more, a device sits on the socket its
/// SMBIOS expansion slot names (`SLOT4 PCIe3 x16 CPU0`), read by the same rule as DIMM
/// slots (`memory::place_slots`).
fn by_slot(
    sockets: Option<u32>,
    headroom: Option<&Headroom>,
    gpus: &mut [Gpu],
    drives: &mut [Drive],
) {
    if sockets == Some(1) {
        gpus.iter_mut().for_each(|g| g.socket = Some(0));
        drives.iter_mut().for_each(|d| d.socket = Some(0));
        return;
    }
    let Some(slots) = headroom.and_then(|h| h.pcie_slots.as_ref()) else {
        return;
    };
    let names: Vec<(&str, Option<&str>)> = slots
        .iter()
        .map(|s| (s.designation.as_deref().unwrap_or(""), None))
        .collect();
    let n = sockets.and_then(|n| usize::try_from(n).ok());
    let places = place_slots(&names, n);
    // A slot lists what it holds as `... (ADDRESS)`, the address the device was found at.
    let socket_of = |addr: &str| {
        let tag = format!("({addr})");
        slots
            .iter()
            .zip(&places)
            .find(|(s, _)| s.devices.iter().any(|d| d.ends_with(&tag)))
            .and_then(|(_, p)| p.socket)
    };
    for g in gpus.iter_mut().filter(|g| g.socket.is_none()) {
        g.socket = g.pci_address.as_deref().and_then(socket_of);
    }
    for d in drives.iter_mut().filter(|d| d.socket.is_none()) {
        d.socket = d.pci_address.as_deref().and_then(socket_of);
    }
}
