//! CPU probe: /proc/cpuinfo, /sys/devices/system/{cpu,node} and CPUID.

use crate::source::Source;
use crate::spec::{Cpu, Notes};

/// Reads processor identity, topology, clocks, caches, NUMA nodes and ISA.
pub fn probe(_src: &Source, notes: &mut Notes) -> Cpu {
    notes.add("cpu", "CPU probe not implemented yet");
    Cpu::default()
}
