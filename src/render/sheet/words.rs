//! The topology in words: one line per socket with its memory and PCIe devices, for the
//! Markdown sheet and the HTML sheet under its diagram.

use super::topology::{filled, Device, Slot, Topology};
use crate::units::bytes_bin;

/// One line per socket (and per group that has no socket), each with its memory and
/// PCIe devices: the diagram in words.
pub fn topology_lines(topo: &Topology) -> Vec<(String, Vec<String>)> {
    let mut out = Vec::new();
    for s in &topo.sockets {
        let mut head = format!("Socket {}", s.index);
        if let Some(m) = &s.model {
            head.push_str(&format!(": {m}"));
        }
        match (s.cores, s.threads) {
            (Some(c), Some(t)) => head.push_str(&format!(", {c} cores / {t} threads")),
            (Some(c), None) => head.push_str(&format!(", {c} cores")),
            _ => {}
        }
        let mut sub = Vec::new();
        for nd in &s.nodes {
            let mut l = format!("NUMA node {}: CPUs {}", nd.id, nd.cpus);
            if let Some(b) = nd.memory_bytes {
                l.push_str(&format!(", {} local memory", bytes_bin(b)));
            }
            sub.push(l);
        }
        sub.push(slots_line(&s.slots));
        sub.extend(s.devices.iter().map(device_line));
        if s.devices.is_empty() {
            sub.push("PCIe: no GPU or NVMe drive".into());
        }
        out.push((head, sub));
    }
    if !topo.unassigned_slots.is_empty() {
        out.push((
            "Memory slots whose locator names no socket".into(),
            vec![slots_line(&topo.unassigned_slots)],
        ));
    }
    if !topo.unplaced_devices.is_empty() {
        out.push((
            "PCIe devices on an unknown socket (NUMA node not reported)".into(),
            topo.unplaced_devices.iter().map(device_line).collect(),
        ));
    }
    out
}

fn slots_line(slots: &[Slot]) -> String {
    if slots.is_empty() {
        return "Memory: no DIMM slots listed".into();
    }
    let (count, total) = filled(slots);
    let mut l = format!(
        "Memory: {} of {} slots filled ({})",
        count,
        slots.len(),
        total
    );
    if count > 0 {
        l.push_str(&format!(
            "; filled: {}",
            slots
                .iter()
                .filter(|s| s.dimm.is_some())
                .map(|s| s.locator.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    let empty: Vec<&str> = slots
        .iter()
        .filter(|s| s.dimm.is_none())
        .map(|s| s.locator.as_str())
        .collect();
    if !empty.is_empty() {
        l.push_str(&format!("; empty: {}", empty.join(", ")));
    }
    l
}

fn device_line(d: &Device) -> String {
    let mut l = if d.link == "PCIe" {
        format!("PCIe: {}", d.title)
    } else {
        format!("PCIe {}: {}", d.link, d.title)
    };
    if !d.lines.is_empty() {
        l.push_str(&format!(" ({})", d.lines.join(", ")));
    }
    if d.degraded {
        l.push_str(" - running on fewer lanes than it supports");
    }
    l
}
