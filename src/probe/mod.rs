//! Probes: turn a `Source` into `Spec` facts; each one pushes notes instead of failing.
//!
//! Probes never render and never decide pass/fail; they only read (through `Source`, the
//! backend of the run, and the firmware and CPUID answers `inventory` reads once) and parse
//! (in pure `parse_*` functions next to them).

pub mod backend;
pub mod cpu;
pub mod cpu_memory_limit;
pub mod cpuid;
pub mod drives;
pub mod firmware;
pub mod gpu;
pub mod headroom;
pub mod health;
pub mod limits;
pub mod meminfo;
pub mod memory;
pub mod native;
pub mod nics;
pub mod pci;
pub mod pci_names;
pub mod place;
pub mod rsmb;
pub mod smbios;
pub mod system;

use crate::source::Source;
use crate::spec::{Lists, Notes, Spec, SCHEMA_VERSION};
use backend::Backend;
use cpuid::Cpuid;

/// Gathers every fact about the machine behind `src` into one `Spec`: from /proc and /sys
/// (live Linux, or a sysroot captured there), or from the OS's own answers (live Windows
/// and macOS, or a sysroot holding their `native.json`), as the backend says. The SMBIOS
/// table and the CPUID answers are read here once and handed to every probe that needs them.
pub fn inventory(src: &Source) -> Spec {
    let mut notes = Notes::default();
    let backend = Backend::open(src, &mut notes);
    let cpuid = Cpuid::open(src);
    let tables = firmware::read(src);
    let walked = tables.as_ref().map(firmware::Tables::walk);
    let smbios = walked.as_ref().map_err(|missing| *missing);

    let sys = system::probe(src, &backend, smbios, &mut notes);
    let mut cpu = backend.cpu(src, &cpuid, smbios, &mut notes);
    cpu::name_microarchitecture(&mut cpu, &mut notes);
    if cpu.current_mhz.is_none() && !notes.0.iter().any(|n| n.field == "cpu.current_mhz") {
        notes.add(
            "cpu.current_mhz",
            "the clock now is read from Linux's cpufreq and /proc/cpuinfo; not on this OS",
        );
    }
    let (memory, dimm_list) = memory::probe(src, &backend, smbios, cpu.sockets, &mut notes);
    let drives = backend.drives(src, &mut notes);
    let gpus = gpu::probe_listed(src, &backend, &mut notes);
    let nics = nics::probe(src, &backend, &mut notes);
    let lists = Lists {
        drives: drives.state,
        gpus: gpus.state,
        dimms: dimm_list,
        nics: nics.state,
    };
    let (mut drives, mut gpus, mut nics) = (drives.items, gpus.items, nics.items);
    let limits = backend.limits(src, &mut notes);
    let headroom = headroom::probe(src, smbios, &gpus, lists.gpus, &drives, &mut notes);
    place::on_sockets(
        src,
        &backend,
        &mut cpu,
        headroom.as_ref(),
        &mut gpus,
        &mut drives,
        &mut notes,
    );
    // A card's socket is its NUMA node's (placement by local CPUs is the GPUs' and drives').
    for n in &mut nics {
        n.socket = n.numa_node.and_then(|node| {
            cpu.numa_nodes
                .iter()
                .find(|x| i64::from(x.id) == i64::from(node))
                .and_then(|x| x.socket)
        });
    }
    let mut identity = sys.system;
    identity.virtualization = system::detect_virtualization(&cpuid, &cpu, &identity);
    let health = health::probe(
        src,
        &backend,
        &health::Parts {
            drives: &drives,
            gpus: &gpus,
            dimms: &memory.dimms,
            virtualization: identity.virtualization.as_deref(),
        },
        &mut notes,
    );
    cpuid.record(src);

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
        system: identity,
        os: sys.os,
        cpu,
        memory,
        drives,
        gpus,
        nics,
        lists,
        limits: Some(limits),
        headroom,
        health: Some(health),
        notes,
        bench: None,
    }
}
