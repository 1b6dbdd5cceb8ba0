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
use crate::spec::{Cpu, Drive, Gpu, Notes, Spec, SCHEMA_VERSION};

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

/// Gathers every fact about the machine behind `src` into one `Spec`.
pub fn inventory(src: &Source) -> Spec {
    let mut notes = Notes::default();
    let mut sys = system::probe(src, &mut notes);
    let mut cpu = cpu::probe(src, &mut notes);
    sys.system.virtualization = system::detect_virtualization(src, &cpu, &sys.system);
    let memory = memory::probe_placed(src, cpu.sockets, &mut notes);
    let mut drives = drives::probe(src, &mut notes);
    let mut gpus = gpu::probe(src, &mut notes);
    place_on_sockets(src, &mut cpu, &mut gpus, &mut drives);
    let limits = limits::probe(src, &mut notes);
    let headroom = headroom::probe(src, &gpus, &drives, &mut notes);
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
