//! Probes: turn a `Source` into `Spec` facts; each one pushes notes instead of failing.
//!
//! Probes never render and never decide pass/fail; they only read (through `Source`) and
//! parse (in pure `parse_*` functions next to them).

pub mod cpu;
pub mod cpuid;
pub mod drives;
pub mod firmware;
pub mod gpu;
pub mod headroom;
pub mod limits;
pub mod meminfo;
pub mod memory;
pub mod native;
pub mod pci;
pub mod rsmb;
pub mod smbios;
pub mod system;

use crate::source::Source;
use crate::spec::{Cpu, Drive, Gpu, Headroom, Limits, Memory, Notes, Spec, SCHEMA_VERSION};

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
/// (DIMM slots are placed by their locators, in `memory::place_slots`.)
fn place_on_sockets(src: &Source, cpu: &mut Cpu, gpus: &mut [Gpu], drives: &mut [Drive]) {
    let one = cpu.sockets == Some(1);
    let place = |cpus: Option<&str>| -> Option<u32> {
        if one {
            return Some(0);
        }
        cpus.filter(|c| !c.trim().is_empty())
            .and_then(|c| package_of(src, c))
    };
    for n in &mut cpu.numa_nodes {
        n.socket = place(Some(&n.cpus));
    }
    let nodes = &cpu.numa_nodes;
    let by_node = |node: Option<i32>| -> Option<u32> {
        let id = u32::try_from(node?).ok()?;
        nodes.iter().find(|n| n.id == id)?.socket
    };
    for g in gpus.iter_mut() {
        g.socket = place(g.local_cpus.as_deref()).or_else(|| by_node(g.numa_node));
    }
    for d in drives.iter_mut() {
        let local = d.pci_address.as_ref().and_then(|a| {
            src.read_value(format!("{}/{a}/local_cpulist", pci::PCI_DEVICES))
                .ok()
        });
        d.socket = place(local.as_deref()).or_else(|| by_node(d.numa_node));
    }
}

/// Places GPUs and drives where there is no PCI tree to follow (Windows, macOS): on a
/// one-socket machine everything is on socket 0; with more, a device sits on the socket its
/// SMBIOS expansion slot names (`SLOT4 PCIe3 x16 CPU0`), read by the same rule as DIMM
/// slots (`memory::place_slots`).
fn place_by_slot(
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
    let places = memory::place_slots(&names, n);
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

/// Gathers every fact about the machine behind `src` into one `Spec`: from /proc and /sys
/// (live Linux, or a sysroot captured there), or from the OS's own answers (live Windows
/// and macOS, or a sysroot holding their `native.json`).
pub fn inventory(src: &Source) -> Spec {
    let cpuid = cpuid::Cpuid::open(src);
    let tables = firmware::read(src);
    let walked = tables.as_ref().map(firmware::Tables::walk);
    let smbios = walked.as_ref().map_err(|missing| *missing);
    let spec = match native::answers(src) {
        Some(answers) => native_inventory(src, &cpuid, smbios, answers),
        None => file_inventory(src, &cpuid, smbios),
    };
    cpuid.record(src);
    spec
}

fn file_inventory(
    src: &Source,
    cpuid: &cpuid::Cpuid,
    smbios: Result<&firmware::Smbios<'_>, &firmware::Missing>,
) -> Spec {
    let mut notes = Notes::default();
    let mut sys = system::probe(src, &mut notes);
    let mut cpu = cpu::probe(src, cpuid, &mut notes);
    sys.system.virtualization = system::detect_virtualization(cpuid, &cpu, &sys.system);
    let memory = memory::probe_placed(src, smbios, cpu.sockets, &mut notes);
    let mut drives = drives::probe(src, &mut notes);
    let mut gpus = gpu::probe(src, &mut notes);
    place_on_sockets(src, &mut cpu, &mut gpus, &mut drives);
    let limits = limits::probe(src, &mut notes);
    let headroom = headroom::probe(src, smbios, &gpus, &drives, &mut notes);
    let sections = Sections {
        cpu,
        memory,
        drives,
        gpus,
        limits,
        headroom,
    };
    assemble(src, sys, sections, notes)
}

/// The same sections from the OS's answers: CPUID for the CPU's identity, the SMBIOS table
/// for the system, DIMMs and headroom, NVML alone for the GPUs (there is no PCI tree).
fn native_inventory(
    src: &Source,
    cpuid: &cpuid::Cpuid,
    smbios: Result<&firmware::Smbios<'_>, &firmware::Missing>,
    answers: Result<native::NativeAnswers, String>,
) -> Spec {
    let mut notes = Notes::default();
    let answers = answers.unwrap_or_else(|why| {
        notes.add("os", format!("the OS's answers are unknown: {why}"));
        native::NativeAnswers::default()
    });
    let os = answers.os_facts(&mut notes);
    if answers.os.hostname.is_none() {
        notes.add("hostname", answers.why_missing("hostname"));
    }
    let mut sys = system::probe_native(src, smbios, os, answers.os.hostname.clone(), &mut notes);
    let facts = cpuid.available().then(|| cpuid.decode());
    let sockets: Vec<smbios::Processor> = smbios
        .map(|s| s.table.of_type(4).map(smbios::decode_processor).collect())
        .unwrap_or_default();
    let cpu = native::map::cpu(&answers, facts.as_ref(), &sockets, &mut notes);
    sys.system.virtualization = system::detect_virtualization(cpuid, &cpu, &sys.system);
    let memory = memory::probe_native(smbios, answers.memory.total_bytes, cpu.sockets, &mut notes);
    if answers.memory.total_bytes.is_none() {
        notes.add(
            "memory.usable_bytes",
            answers.why_missing("memory.total_bytes"),
        );
    }
    let mut drives = native::map::drives(&answers, &mut notes);
    let mut gpus = gpu::probe_without_pci(src, &mut notes);
    let limits = native::map::limits(&answers, &mut notes);
    let headroom = headroom::probe(src, smbios, &gpus, &drives, &mut notes);
    place_by_slot(cpu.sockets, headroom.as_ref(), &mut gpus, &mut drives);
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
    let sections = Sections {
        cpu,
        memory,
        drives,
        gpus,
        limits,
        headroom,
    };
    assemble(src, sys, sections, notes)
}

/// The hardware sections of a `Spec`, however they were read.
struct Sections {
    cpu: Cpu,
    memory: Memory,
    drives: Vec<Drive>,
    gpus: Vec<Gpu>,
    limits: Limits,
    headroom: Option<Headroom>,
}

/// One `Spec` from the sections, with the notes sorted and deduplicated.
fn assemble(src: &Source, sys: system::SystemFacts, sections: Sections, notes: Notes) -> Spec {
    let Sections {
        cpu,
        memory,
        drives,
        gpus,
        limits,
        headroom,
    } = sections;
    let mut notes = notes.0;
    notes.sort();
    notes.dedup();
    Spec {
        schema_version: SCHEMA_VERSION,
        rigcheck_version: env!("CARGO_PKG_VERSION").to_string(),
        captured_at: sys.captured_at,
        hostname: sys.hostname,
        source: if src.is_live() {
            "live".into()
        } else {
            src.root().display().to_string()
        },
        system: sys.system,
        os: sys.os,
        cpu,
        memory,
        drives,
        gpus,
        limits: Some(limits),
        headroom,
        notes,
        bench: None,
    }
}
