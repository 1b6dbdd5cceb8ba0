//! Probes: turn a `Source` into `Spec` facts; each one pushes notes instead of failing.
//!
//! Probes never render and never decide pass/fail; they only read (through `Source`) and
//! parse (in pure `parse_*` functions next to them).

pub mod cpu;
pub mod cpulist;
pub mod drives;
pub mod gpu;
pub mod headroom;
pub mod limits;
pub mod memory;
pub mod pci;
pub mod smbios;
pub mod system;

use crate::source::Source;
use crate::spec::{Notes, Spec, SCHEMA_VERSION};

/// The physical package of the first CPU in a local CPU list (`0-17,36-53` -> socket 0).
fn socket_of(src: &Source, local_cpus: &str) -> Option<u32> {
    let first = *cpulist::parse_cpulist(local_cpus).ok()?.first()?;
    let path = format!("/sys/devices/system/cpu/cpu{first}/topology/physical_package_id");
    src.read_parse::<i64>(path)
        .ok()
        .and_then(|p| u32::try_from(p).ok())
}

/// Gathers every fact about the machine behind `src` into one `Spec`.
pub fn inventory(src: &Source) -> Spec {
    let mut notes = Notes::default();
    let mut sys = system::probe(src, &mut notes);
    let cpu = cpu::probe(src, &mut notes);
    sys.system.virtualization = system::detect_virtualization(src, &cpu, &sys.system);
    let memory = memory::probe(src, &mut notes);
    let drives = drives::probe(src, &mut notes);
    let mut gpus = gpu::probe(src, &mut notes);
    for g in &mut gpus {
        g.socket = g.local_cpus.as_deref().and_then(|l| socket_of(src, l));
    }
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
