//! Topology: the machine laid out by CPU socket (its NUMA nodes, DIMM slots, GPUs and NVMe
//! drives), as the diagram draws it and the sheet lists it.

use crate::locator::short_locator;
use crate::natural::natural_key;
use crate::spec::{Dimm, Drive, DriveKind, Gpu, Spec};
use crate::units::{bytes_bin, bytes_dec};

/// A machine laid out by CPU socket, as the diagram draws it.
#[derive(Debug, Clone, PartialEq)]
pub struct Topology {
    /// One entry per CPU socket, socket 0 first.
    pub sockets: Vec<SocketTopo>,
    /// DIMM slots whose locator names no socket (on a machine with more than one).
    pub unassigned_slots: Vec<Slot>,
    /// PCIe devices whose NUMA node is unknown or belongs to no socket.
    pub unplaced_devices: Vec<Device>,
    /// Whether the sockets are linked to each other (two or more).
    pub multi_socket: bool,
}

/// One CPU socket and what hangs off it.
#[derive(Debug, Clone, PartialEq)]
pub struct SocketTopo {
    /// Socket number, from 0.
    pub index: u32,
    /// CPU model (the same on every socket of one machine).
    pub model: Option<String>,
    /// Physical cores in this socket.
    pub cores: Option<u32>,
    /// Logical CPUs in this socket.
    pub threads: Option<u32>,
    /// NUMA nodes of this socket (several with sub-NUMA clustering).
    pub nodes: Vec<NodeTopo>,
    /// DIMM slots wired to this socket, populated and empty, in board order.
    pub slots: Vec<Slot>,
    /// GPUs and NVMe drives on this socket's PCIe lanes.
    pub devices: Vec<Device>,
}

/// A NUMA node as placed on a socket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeTopo {
    /// Kernel node number.
    pub id: u32,
    /// CPU list, e.g. `0-17,36-53`.
    pub cpus: String,
    /// Memory local to the node.
    pub memory_bytes: Option<u64>,
}

/// A DIMM slot: its locator and the module in it, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    /// Board locator, e.g. `CPU1 DIMM 3`.
    pub locator: String,
    /// The locator without the socket part, short enough to print on a DIMM stick.
    pub short: String,
    /// The installed module; `None` for an empty slot.
    pub dimm: Option<Dimm>,
}

/// What kind of PCIe device a `Device` is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceKind {
    /// An NVIDIA GPU.
    Gpu,
    /// An NVMe (or other PCIe) drive.
    Drive,
}

/// A PCIe device drawn under a socket.
#[derive(Debug, Clone, PartialEq)]
pub struct Device {
    /// GPU or drive.
    pub kind: DeviceKind,
    /// First line: `GPU 0 · Quadro RTX 6000` or `nvme0n1 · Samsung SSD 970 PRO 1TB`.
    pub title: String,
    /// Further lines: capability (cores, memory, TFLOPS) or size.
    pub lines: Vec<String>,
    /// Link label: `Gen3 x16`, `x8 of x16`, or `PCIe` when the width is unknown.
    pub link: String,
    /// Negotiated lanes (the diagram draws wider links thicker).
    pub lanes: Option<u32>,
    /// Running on fewer lanes than the device supports.
    pub degraded: bool,
    /// NUMA node, when known.
    pub numa_node: Option<u32>,
}

/// Groups slots, NUMA nodes and devices by the socket the probes placed them on
/// (`memory.slots[].socket`, `numa_nodes[].socket`, `gpus[].socket`, `drives[].socket`).
/// Nothing is placed here: on a machine with one socket there is one box to put things in,
/// and with more, what the probes could not place is listed apart rather than guessed.
/// A report without `memory.slots` (written before they existed) shows its DIMMs by their
/// own `socket`.
pub fn topology(spec: &Spec) -> Topology {
    // The largest machines have 32 sockets; a socket count past this comes from a damaged
    // or hostile report and would allocate one box per socket, so it is drawn as one.
    const MAX_SOCKETS: u32 = 1024;
    let n = spec
        .cpu
        .sockets
        .filter(|&s| s <= MAX_SOCKETS)
        .unwrap_or(1)
        .max(1);
    let per = |total: Option<u32>| total.filter(|t| t % n == 0).map(|t| t / n);
    let cores = spec.cpu.cores_per_socket.or(per(spec.cpu.cores));
    let threads = per(spec.cpu.threads);
    let mut sockets: Vec<SocketTopo> = (0..n)
        .map(|index| SocketTopo {
            index,
            model: spec.cpu.model.clone(),
            cores,
            threads,
            nodes: Vec::new(),
            slots: Vec::new(),
            devices: Vec::new(),
        })
        .collect();
    let count = sockets.len();
    // The socket box a placed item goes in; `None` = listed apart.
    let boxed = |socket: Option<u32>| -> Option<usize> {
        let s = if n == 1 { Some(0) } else { socket };
        s.and_then(|s| usize::try_from(s).ok())
            .filter(|&s| s < count)
    };
    for nd in spec
        .cpu
        .numa_nodes
        .iter()
        .filter(|nd| !nd.cpus.trim().is_empty())
    {
        if let Some(k) = boxed(nd.socket) {
            sockets[k].nodes.push(NodeTopo {
                id: nd.id,
                cpus: nd.cpus.clone(),
                memory_bytes: nd.memory_bytes,
            });
        }
    }

    // DIMM slots, in board order.
    let m = &spec.memory;
    let mut all: Vec<(Option<u32>, Slot)> = if m.slots.is_empty() {
        m.dimms
            .iter()
            .map(|d| (d.socket, slot(&d.locator, Some(d))))
            .chain(m.empty_slots.iter().map(|l| (None, slot(l, None))))
            .collect()
    } else {
        m.slots
            .iter()
            .map(|s| {
                let dimm = s.dimm.and_then(|i| m.dimms.get(i));
                (s.socket, slot(&s.locator, dimm))
            })
            .collect()
    };
    all.sort_by_key(|(_, s)| natural_key(&s.locator));
    let mut unassigned_slots = Vec::new();
    for (socket, s) in all {
        match boxed(socket) {
            Some(k) => sockets[k].slots.push(s),
            None => unassigned_slots.push(s),
        }
    }

    // PCIe devices.
    let mut unplaced_devices = Vec::new();
    let devices = spec
        .gpus
        .iter()
        .enumerate()
        .map(|(i, g)| (g.socket, gpu_device(i, g)))
        .chain(
            spec.drives
                .iter()
                .filter(|d| is_pcie_drive(d))
                .map(|d| (d.socket, drive_device(d))),
        );
    for (socket, d) in devices {
        match boxed(socket) {
            Some(k) => sockets[k].devices.push(d),
            None => unplaced_devices.push(d),
        }
    }
    Topology {
        sockets,
        unassigned_slots,
        unplaced_devices,
        multi_socket: n > 1,
    }
}

/// How many of `slots` hold a module, and their total size as text.
pub fn filled(slots: &[Slot]) -> (usize, String) {
    let filled: Vec<&Dimm> = slots.iter().filter_map(|s| s.dimm.as_ref()).collect();
    // Checked: sizes from a damaged report must not overflow the sum.
    let total = filled
        .iter()
        .map(|d| d.size_bytes)
        .try_fold(0u64, |sum, b| sum.checked_add(b?))
        .map_or_else(|| "size unknown".to_string(), bytes_bin);
    (filled.len(), total)
}

fn slot(locator: &str, dimm: Option<&Dimm>) -> Slot {
    Slot {
        short: short_locator(locator),
        locator: locator.to_string(),
        dimm: dimm.cloned(),
    }
}

fn is_pcie_drive(d: &Drive) -> bool {
    d.transport.as_deref() == Some("nvme") || d.kind == Some(DriveKind::Nvme)
}

fn gpu_device(i: usize, g: &Gpu) -> Device {
    let mut lines = Vec::new();
    let cores = match (g.cuda_cores, g.tensor_cores) {
        (Some(c), Some(t)) if t > 0 => Some(format!("{c} CUDA · {t} Tensor cores")),
        (Some(c), _) => Some(format!("{c} CUDA cores")),
        _ => None,
    };
    lines.extend(cores);
    let mem = match (g.vram_bytes, g.memory_bandwidth_bytes_per_s) {
        (Some(v), Some(b)) => Some(format!("{} · {}", bytes_bin(v), bandwidth(b))),
        (Some(v), None) => Some(bytes_bin(v)),
        (None, Some(b)) => Some(bandwidth(b)),
        (None, None) => None,
    };
    lines.extend(mem);
    if let Some(t) = g.fp32_tflops {
        let mut s = format!("{t:.1} TFLOPS FP32");
        if let Some(h) = g.fp16_tensor_tflops {
            s.push_str(&format!(" · {h:.1} FP16 Tensor"));
        }
        lines.push(s);
    }
    let p = &g.pcie;
    let (link, degraded) = link_label(p.gen, p.width, p.max_gen, p.max_width);
    Device {
        kind: DeviceKind::Gpu,
        title: format!(
            "GPU {} · {}",
            g.index.unwrap_or(i as u32),
            g.shown_name().as_deref().unwrap_or("NVIDIA GPU")
        ),
        lines,
        link,
        lanes: p.width.or(p.max_width),
        degraded,
        numa_node: g.numa_node.and_then(|v| u32::try_from(v).ok()),
    }
}

fn drive_device(d: &Drive) -> Device {
    let mut lines = Vec::new();
    if let Some(b) = d.size_bytes {
        let kind = match d.kind {
            Some(DriveKind::Nvme) | None => "NVMe".to_string(),
            Some(k) => k.as_str().to_uppercase(),
        };
        lines.push(format!("{} {kind}", bytes_dec(b)));
    }
    let (link, degraded) = match &d.pcie {
        Some(p) => link_label(p.gen, p.width, p.max_gen, p.max_width),
        None => ("PCIe".into(), false),
    };
    Device {
        kind: DeviceKind::Drive,
        title: match &d.model {
            Some(m) => format!("{} · {m}", d.name),
            None => d.name.clone(),
        },
        lines,
        link,
        lanes: d.pcie.as_ref().and_then(|p| p.width.or(p.max_width)),
        degraded,
        numa_node: d.numa_node.and_then(|v| u32::try_from(v).ok()),
    }
}

/// `Gen3 x16`; when fewer lanes are up than the device has, `x8 of x16` and `true`.
/// The generation is shown at its maximum because GPUs drop to Gen1 when idle.
pub fn link_label(
    gen: Option<u32>,
    width: Option<u32>,
    max_gen: Option<u32>,
    max_width: Option<u32>,
) -> (String, bool) {
    let g = max_gen.or(gen);
    let gen_s = g.map(|g| format!("Gen{g} ")).unwrap_or_default();
    match (width, max_width) {
        (Some(w), Some(mw)) if w < mw => (format!("{gen_s}x{w} of x{mw}"), true),
        (Some(w), _) | (None, Some(w)) => (format!("{gen_s}x{w}"), false),
        (None, None) => (
            g.map_or_else(|| "PCIe".to_string(), |g| format!("Gen{g}")),
            false,
        ),
    }
}

/// Bandwidth as `672 GB/s`.
pub fn bandwidth(b: u64) -> String {
    format!("{:.0} GB/s", b as f64 / 1e9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn natural_order() {
        let mut v = vec!["CPU0-DIMM10", "CPU0-DIMM2", "CPU0-DIMM1"];
        v.sort_by_key(|s| natural_key(s));
        assert_eq!(v, ["CPU0-DIMM1", "CPU0-DIMM2", "CPU0-DIMM10"]);
    }

    #[test]
    fn link_labels() {
        assert_eq!(
            link_label(Some(1), Some(16), Some(3), Some(16)),
            ("Gen3 x16".to_string(), false)
        );
        assert_eq!(
            link_label(Some(3), Some(8), Some(3), Some(16)),
            ("Gen3 x8 of x16".to_string(), true)
        );
        assert_eq!(
            link_label(None, None, None, None),
            ("PCIe".to_string(), false)
        );
    }
}
