//! Topology: the machine laid out by CPU socket (its NUMA nodes, DIMM slots, GPUs and NVMe
//! drives), as the diagram draws it and the sheet lists it.

use std::collections::BTreeMap;

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

/// Places slots and devices on sockets.
///
/// DIMM slots are placed by their locator (`CPU1_DIMM_A1`, `PROC 1 DIMM 3`, `P1-DIMMA1`,
/// `DIMM1_CPU2`, `CPU0-DIMM1`): numbering is taken as 0-based when any slot of the machine
/// says socket 0 (HP's `CPU0-DIMM1`), else as 1-based. GPUs and drives are placed by NUMA
/// node, with the nodes that have CPUs shared out in order, an equal number per socket (the
/// kernel numbers nodes socket by socket). On one socket everything is on socket 0; with
/// more, what cannot be placed is listed apart rather than guessed.
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

    // NUMA node -> socket.
    let cpu_nodes: Vec<_> = spec
        .cpu
        .numa_nodes
        .iter()
        .filter(|nd| !nd.cpus.trim().is_empty())
        .collect();
    let mut node_socket: BTreeMap<u32, u32> = BTreeMap::new();
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
    let shareable = !cpu_nodes.is_empty() && cpu_nodes.len() as u32 % n == 0;
    if shareable {
        let per_socket = cpu_nodes.len() as u32 / n;
        for (k, nd) in cpu_nodes.iter().enumerate() {
            let s = k as u32 / per_socket;
            node_socket.insert(nd.id, s);
            if let Some(sock) = sockets.get_mut(s as usize) {
                sock.nodes.push(NodeTopo {
                    id: nd.id,
                    cpus: nd.cpus.clone(),
                    memory_bytes: nd.memory_bytes,
                });
            }
        }
    }
    let place_numa = |numa: Option<u32>| -> Option<u32> {
        if n == 1 {
            return Some(0);
        }
        numa.and_then(|id| node_socket.get(&id).copied())
    };

    // DIMM slots.
    let m = &spec.memory;
    let mut all: Vec<(String, Option<&Dimm>)> = m
        .dimms
        .iter()
        .map(|d| (d.locator.clone(), Some(d)))
        .chain(m.empty_slots.iter().map(|l| (l.clone(), None)))
        .collect();
    all.sort_by_key(|a| natural_key(&a.0));
    let raw: Vec<Option<u32>> = all
        .iter()
        .map(|(loc, d)| {
            locator_socket(loc).or_else(|| {
                d.and_then(|d| d.bank_locator.as_deref())
                    .and_then(locator_socket)
            })
        })
        .collect();
    let zero_based = raw.contains(&Some(0));
    let mut unassigned_slots = Vec::new();
    for ((loc, dimm), r) in all.into_iter().zip(raw) {
        let socket = match r {
            Some(k) if zero_based => Some(k),
            Some(k) => k.checked_sub(1),
            None if n == 1 => Some(0),
            None => None,
        };
        let slot = Slot {
            short: short_locator(&loc),
            locator: loc,
            dimm: dimm.cloned(),
        };
        match socket.and_then(|s| sockets.get_mut(s as usize)) {
            Some(sock) => sock.slots.push(slot),
            None => unassigned_slots.push(slot),
        }
    }

    // PCIe devices.
    let mut unplaced_devices = Vec::new();
    let mut put =
        |d: Device| match place_numa(d.numa_node).and_then(|s| sockets.get_mut(s as usize)) {
            Some(sock) => sock.devices.push(d),
            None => unplaced_devices.push(d),
        };
    for (i, g) in spec.gpus.iter().enumerate() {
        put(gpu_device(i, g));
    }
    for d in spec.drives.iter().filter(|d| is_pcie_drive(d)) {
        put(drive_device(d));
    }
    Topology {
        sockets,
        unassigned_slots,
        unplaced_devices,
        multi_socket: n > 1,
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
            g.name.as_deref().unwrap_or("NVIDIA GPU")
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

/// The socket a DIMM locator names, as written (0- or 1-based): `CPU1_DIMM_A1` → 1,
/// `PROC 2 DIMM 3` → 2, `P1-DIMMA1` → 1, `DIMM1_CPU2` → 2, `CPU0-DIMM1` → 0.
pub fn locator_socket(locator: &str) -> Option<u32> {
    const KEYS: [&str; 5] = ["PROCESSOR", "SOCKET", "PROC", "CPU", "P"];
    let up = locator.to_ascii_uppercase();
    let tokens: Vec<&str> = up
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
        .collect();
    for (i, t) in tokens.iter().enumerate() {
        for k in KEYS {
            if let Some(rest) = t.strip_prefix(k) {
                if !rest.is_empty() && rest.chars().all(|c| c.is_ascii_digit()) {
                    return rest.parse().ok();
                }
                if rest.is_empty() && k != "P" {
                    if let Some(num) = tokens.get(i + 1).and_then(|n| n.parse().ok()) {
                        return Some(num);
                    }
                }
            }
        }
    }
    None
}

/// The locator without its socket part and the word DIMM: `CPU1_DIMM_A1` → `A1`,
/// `PROC 1 DIMM 3` → `3`, `ChannelA-DIMM0` → `ChannelA 0`.
pub fn short_locator(locator: &str) -> String {
    let parts: Vec<&str> = locator
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|t| !t.is_empty())
        .collect();
    let mut kept = Vec::new();
    let mut skip_next = false;
    for (i, p) in parts.iter().enumerate() {
        if skip_next {
            skip_next = false;
            continue;
        }
        let up = p.to_ascii_uppercase();
        let is_socket = locator_socket(p).is_some()
            || (matches!(up.as_str(), "CPU" | "PROC" | "PROCESSOR" | "SOCKET")
                && parts.get(i + 1).is_some_and(|n| n.parse::<u32>().is_ok()));
        if is_socket {
            skip_next = locator_socket(p).is_none();
            continue;
        }
        let rest = up.strip_prefix("DIMM").map_or(p.len(), |r| r.len());
        kept.push(&p[p.len() - rest..]);
    }
    let s = kept
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let s = if s.is_empty() { locator.to_string() } else { s };
    if s.chars().count() > 16 {
        let tail: String = s.chars().skip(s.chars().count() - 15).collect();
        format!("…{tail}")
    } else {
        s
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locators_name_their_socket() {
        assert_eq!(locator_socket("CPU1_DIMM_A1"), Some(1));
        assert_eq!(locator_socket("PROC 1 DIMM 3"), Some(1));
        assert_eq!(locator_socket("P1-DIMMA1"), Some(1));
        assert_eq!(locator_socket("CPU2 DIMM 4"), Some(2));
        // HP Z8 G4 dmidecode (linuxhw 22DCA49109A6): `CPU0-DIMM1`, bank `CPU0`.
        assert_eq!(locator_socket("CPU0-DIMM1"), Some(0));
        // Dell Precision T7600 (libsmbios dump): `DIMM1_CPU2`.
        assert_eq!(locator_socket("DIMM1_CPU2"), Some(2));
        // ASRock Ryzen bank locator: `P0 CHANNEL A`.
        assert_eq!(locator_socket("P0 CHANNEL A"), Some(0));
        // OptiPlex 7050 and Dell R630 name no socket.
        assert_eq!(locator_socket("DIMM1"), None);
        assert_eq!(locator_socket("A1"), None);
        assert_eq!(locator_socket("ChannelA-DIMM0"), None);
    }

    #[test]
    fn short_locators() {
        assert_eq!(short_locator("CPU1_DIMM_A1"), "A1");
        assert_eq!(short_locator("PROC 1 DIMM 3"), "3");
        assert_eq!(short_locator("P1-DIMMA1"), "A1");
        assert_eq!(short_locator("CPU0-DIMM12"), "12");
        assert_eq!(short_locator("DIMM1_CPU2"), "1");
        assert_eq!(short_locator("ChannelA-DIMM0"), "ChannelA 0");
    }

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
