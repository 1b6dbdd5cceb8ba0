//! The spec sheet: what a person hands to a colleague or attaches to an asset record.
//!
//! This module owns the sheet's content, shared by the Markdown writer here and the HTML
//! writer in `html.rs`: the sections (system, CPU, every DIMM slot, GPUs with derived
//! capability, drives), the optional order-check rows, and the `Topology` that places DIMM
//! slots, GPUs and NVMe drives on CPU sockets (drawn by `diagram.rs`, summarised as text
//! here). It reads only the `Spec`; it never probes and never decides pass/fail.

use std::collections::BTreeMap;
use std::io::{self, Write};

use crate::cli::SheetFormat;
use crate::natural::natural_key;
use crate::render::markdown::{escape, write_grid};
use crate::render::report::{self, Grid, Section};
use crate::render::{bytes_bin, bytes_dec, mhz, show, show_str, UNKNOWN};
use crate::spec::{Dimm, Drive, Gpu, Spec};

/// One line of an order check (`verify --profile`), as the sheet shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyRow {
    /// What the order asks about, e.g. `GPU count`.
    pub requirement: String,
    /// What the order says, e.g. `2 × Quadro RTX 6000`.
    pub expected: String,
    /// What the machine has.
    pub found: String,
    /// `pass`, `fail` or `unknown`.
    pub status: String,
}

/// An order check to print on the sheet: the profile's name and its rows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verify {
    /// Profile name or file the rows come from.
    pub profile: String,
    /// One row per requirement, in the profile's order.
    pub rows: Vec<VerifyRow>,
}

impl Verify {
    /// The sheet's view of a verify report.
    pub fn from_report(report: &crate::verify::VerifyReport) -> Self {
        Verify {
            profile: report.profile.clone(),
            rows: report
                .lines
                .iter()
                .map(|l| VerifyRow {
                    requirement: l.requirement.clone(),
                    expected: l.expected.clone(),
                    found: l.found.clone(),
                    status: l.status.as_str().to_string(),
                })
                .collect(),
        }
    }
}

/// Writes the sheet of `spec` (with the order check, if given) in `format`.
pub fn write(
    spec: &Spec,
    verify: Option<&Verify>,
    format: SheetFormat,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        SheetFormat::Html => crate::render::html::write(spec, verify, out),
        SheetFormat::Markdown => write_markdown(spec, verify, out),
    }
}

// ---------------------------------------------------------------------------------------
// Topology: which socket each DIMM slot, GPU and NVMe drive belongs to.

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
    d.transport.as_deref() == Some("nvme") || d.kind.as_deref() == Some("nvme")
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
        let kind = match d.kind.as_deref() {
            Some("nvme") | None => "NVMe".to_string(),
            Some(k) => k.to_uppercase(),
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
fn link_label(
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

fn bandwidth(b: u64) -> String {
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

// ---------------------------------------------------------------------------------------
// Sections shared by the Markdown and HTML sheets.

/// The sheet's title line: `HP Z8 G4 Workstation`.
pub fn heading(spec: &Spec) -> String {
    let s = &spec.system;
    match (&s.vendor, &s.product) {
        (Some(v), Some(p)) if p.starts_with(v.as_str()) => p.clone(),
        (Some(v), Some(p)) => format!("{v} {p}"),
        (None, Some(p)) => p.clone(),
        (Some(v), None) => v.clone(),
        (None, None) => "Unidentified machine".into(),
    }
}

/// The line under the title: host, capture time, rigcheck version.
pub fn byline(spec: &Spec) -> String {
    format!(
        "Host {} · captured {} · rigcheck {}",
        show_str(&spec.hostname),
        spec.captured_at
            .as_deref()
            .unwrap_or("at an unrecorded time"),
        spec.rigcheck_version
    )
}

fn count_label<I: IntoIterator<Item = String>>(items: I) -> String {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for it in items {
        match counts.iter_mut().find(|(k, _)| *k == it) {
            Some((_, c)) => *c += 1,
            None => counts.push((it, 1)),
        }
    }
    counts
        .into_iter()
        .map(|(k, c)| if c > 1 { format!("{c} × {k}") } else { k })
        .collect::<Vec<_>>()
        .join(", ")
}

fn dimm_desc(d: &Dimm) -> String {
    let mut s = show(d.size_bytes, bytes_bin);
    if let Some(k) = &d.kind {
        s.push(' ');
        s.push_str(k);
    }
    if let Some(v) = d.speed_mts.or(d.configured_speed_mts) {
        s.push_str(&format!(" {v} MT/s"));
    }
    s
}

/// The summary at the top: one line per part, the way a quote lists a machine.
pub fn glance(spec: &Spec) -> Section {
    let c = &spec.cpu;
    let mut f: Vec<(String, String)> = Vec::new();
    f.push(("Machine".into(), {
        let mut s = heading(spec);
        if let Some(ch) = &spec.system.chassis_type {
            s.push_str(&format!(" ({ch})"));
        }
        s
    }));
    let model = c
        .model
        .clone()
        .unwrap_or_else(|| "CPU model unknown".into());
    let cpu = match c.sockets {
        Some(n) if n > 1 => format!("{n} × {model}"),
        _ => model,
    };
    let ct = match (c.cores, c.threads) {
        (Some(a), Some(b)) => format!(" · {a} cores / {b} threads"),
        (Some(a), None) => format!(" · {a} cores"),
        (None, Some(b)) => format!(" · {b} threads"),
        (None, None) => String::new(),
    };
    f.push(("CPU".into(), format!("{cpu}{ct}")));
    let m = &spec.memory;
    let mut mem = show(m.total_bytes, bytes_bin);
    if !m.dimms.is_empty() {
        mem.push_str(&format!(
            " · {}",
            count_label(m.dimms.iter().map(dimm_desc))
        ));
    }
    if let Some(n) = m.slot_count {
        mem.push_str(&format!(" · {} of {n} slots used", m.dimms.len()));
    }
    f.push(("Memory".into(), mem));
    let gpus = if spec.gpus.is_empty() {
        "none".to_string()
    } else {
        let mut s = count_label(spec.gpus.iter().map(|g| {
            let name = g.name.clone().unwrap_or_else(|| "NVIDIA GPU".into());
            match g.vram_bytes {
                Some(v) => format!("{name} ({})", bytes_bin(v)),
                None => name,
            }
        }));
        let tf: Option<f64> = spec.gpus.iter().map(|g| g.fp32_tflops).sum();
        if let (Some(t), true) = (tf, spec.gpus.len() > 1) {
            s.push_str(&format!(" · {t:.1} TFLOPS FP32 in all"));
        }
        s
    };
    f.push(("GPUs".into(), gpus));
    let drives = if spec.drives.is_empty() {
        "none found".to_string()
    } else {
        count_label(spec.drives.iter().map(|d| {
            let kind = d.kind.clone().unwrap_or_else(|| "drive".into());
            let kind = if kind == "nvme" {
                "NVMe".into()
            } else {
                kind.to_uppercase()
            };
            format!("{} {kind}", show(d.size_bytes, bytes_dec))
        }))
    };
    f.push(("Storage".into(), drives));
    let os = &spec.os;
    let mut os_s = show_str(&os.pretty_name.clone().or_else(|| os.name.clone()));
    if let Some(k) = &os.kernel {
        os_s.push_str(&format!(" · kernel {k}"));
    }
    f.push(("OS".into(), os_s));
    f.push(("Captured".into(), show_str(&spec.captured_at)));
    Section {
        title: "At a glance".into(),
        fields: f,
        grids: Vec::new(),
    }
}

fn join_opt(parts: &[&Option<String>]) -> String {
    let v: Vec<&str> = parts.iter().filter_map(|p| p.as_deref()).collect();
    if v.is_empty() {
        UNKNOWN.to_string()
    } else {
        v.join(" ")
    }
}

fn system_section(spec: &Spec) -> Section {
    let s = &spec.system;
    let mut f: Vec<(String, String)> = vec![
        ("Vendor".into(), show_str(&s.vendor)),
        ("Product".into(), show_str(&s.product)),
    ];
    if let Some(v) = &s.version {
        f.push(("Version".into(), v.clone()));
    }
    if let Some(v) = &s.sku {
        f.push(("SKU".into(), v.clone()));
    }
    f.push(("Serial number".into(), show_str(&s.serial)));
    f.push(("UUID".into(), show_str(&s.uuid)));
    f.push((
        "Board".into(),
        join_opt(&[&s.board_vendor, &s.board_name, &s.board_version]),
    ));
    f.push(("Chassis".into(), show_str(&s.chassis_type)));
    f.push(("BIOS vendor".into(), show_str(&s.bios_vendor)));
    f.push(("BIOS version".into(), show_str(&s.bios_version)));
    f.push(("BIOS date".into(), show_str(&s.bios_date)));
    if let Some(v) = &s.virtualization {
        f.push(("Virtual machine".into(), v.clone()));
    }
    let os = &spec.os;
    f.push((
        "OS".into(),
        show_str(&os.pretty_name.clone().or_else(|| os.name.clone())),
    ));
    f.push(("Kernel".into(), show_str(&os.kernel)));
    f.push(("Architecture".into(), show_str(&os.arch)));
    f.push(("Host name".into(), show_str(&spec.hostname)));
    f.push(("Captured".into(), show_str(&spec.captured_at)));
    f.push(("Source".into(), spec.source.clone()));
    Section {
        title: "System and BIOS".into(),
        fields: f,
        grids: Vec::new(),
    }
}

fn cpu_section(spec: &Spec) -> Section {
    let c = &spec.cpu;
    let num = |v: Option<u32>| show(v, |n| n.to_string());
    let mut f: Vec<(String, String)> = vec![
        ("Model".into(), show_str(&c.model)),
        ("Vendor".into(), show_str(&c.vendor)),
        ("Sockets".into(), num(c.sockets)),
        ("Cores per socket".into(), num(c.cores_per_socket)),
        ("Cores".into(), num(c.cores)),
        ("Threads".into(), num(c.threads)),
        ("Threads per core".into(), num(c.threads_per_core)),
        (
            "Base clock".into(),
            match (&c.base_mhz, &c.base_mhz_source) {
                (Some(b), Some(src)) => format!("{} (from {src})", mhz(*b)),
                (b, _) => show(*b, mhz),
            },
        ),
        ("Max clock".into(), show(c.max_mhz, mhz)),
    ];
    if !c.isa.is_empty() {
        f.push(("ISA for ML".into(), c.isa.join(" ")));
    }
    if let Some(g) = c.peak_fp64_gflops {
        f.push((
            "Peak FP64".into(),
            format!("{g:.0} GFLOPS (all cores, base clock)"),
        ));
    }
    let grids: Vec<Grid> = report::cache_grid(&c.caches)
        .into_iter()
        .chain(report::numa_grid(&c.numa_nodes))
        .collect();
    Section {
        title: "CPUs".into(),
        fields: f,
        grids,
    }
}

fn memory_section(spec: &Spec, topo: &Topology) -> Section {
    let m = &spec.memory;
    let mut f: Vec<(String, String)> = vec![
        (
            "Installed".into(),
            match (&m.total_bytes, &m.total_source) {
                (Some(t), Some(src)) => format!("{} (from {src})", bytes_bin(*t)),
                (t, _) => show(*t, bytes_bin),
            },
        ),
        ("Usable (MemTotal)".into(), show(m.usable_bytes, bytes_bin)),
    ];
    let slots = match m.slot_count {
        Some(n) => format!("{} of {n} populated", m.dimms.len()),
        None if m.dimms.is_empty() && m.empty_slots.is_empty() => UNKNOWN.into(),
        None => format!(
            "{} of {} populated",
            m.dimms.len(),
            m.dimms.len() + m.empty_slots.len()
        ),
    };
    f.push(("DIMM slots".into(), slots));
    let mut grids = Vec::new();
    let multi = topo.multi_socket;
    let mut header = vec![];
    if multi {
        header.push("Socket");
    }
    header.extend([
        "Slot",
        "Size",
        "Type",
        "Speed",
        "Manufacturer",
        "Part number",
        "Serial",
    ]);
    let mut g = Grid::new(&header);
    let mut add = |socket: String, s: &Slot| {
        let mut row = Vec::new();
        if multi {
            row.push(socket);
        }
        row.push(s.locator.clone());
        match &s.dimm {
            Some(d) => {
                let speed = match (d.speed_mts, d.configured_speed_mts) {
                    (Some(s), Some(c)) if s != c => format!("{c} MT/s (rated {s})"),
                    (Some(s), _) | (None, Some(s)) => format!("{s} MT/s"),
                    (None, None) => UNKNOWN.into(),
                };
                let kind = match (&d.kind, &d.form_factor) {
                    (Some(k), Some(ff)) => format!("{k} {ff}"),
                    (k, _) => show_str(k),
                };
                row.extend([
                    show(d.size_bytes, bytes_bin),
                    kind,
                    speed,
                    show_str(&d.manufacturer),
                    show_str(&d.part_number),
                    show_str(&d.serial),
                ]);
            }
            None => {
                row.push("empty".into());
                row.extend(std::iter::repeat_n("–".to_string(), 5));
            }
        }
        g.rows.push(row);
    };
    for sock in &topo.sockets {
        for s in &sock.slots {
            add(format!("{}", sock.index), s);
        }
    }
    for s in &topo.unassigned_slots {
        add("?".into(), s);
    }
    if !g.rows.is_empty() {
        grids.push(g);
    }
    Section {
        title: "Memory".into(),
        fields: f,
        grids,
    }
}

/// How one row of the GPU table shows one GPU.
type GpuCell = Box<dyn Fn(&Gpu) -> String>;

fn gpu_section(spec: &Spec) -> Section {
    if spec.gpus.is_empty() {
        return Section {
            title: "GPUs".into(),
            fields: vec![("NVIDIA GPUs".into(), "none found".into())],
            grids: Vec::new(),
        };
    }
    let mut header = vec![String::new()];
    header.extend(
        spec.gpus
            .iter()
            .enumerate()
            .map(|(i, g)| format!("GPU {}", g.index.unwrap_or(i as u32))),
    );
    let num = |v: Option<u32>| show(v, |n| n.to_string());
    let tf = |v: Option<f64>| show(v, |t| format!("{t:.1} TFLOPS"));
    let rows: Vec<(&str, GpuCell)> = vec![
        ("Name", Box::new(|g: &Gpu| show_str(&g.name))),
        (
            "Architecture",
            Box::new(|g: &Gpu| match (&g.architecture, &g.compute_capability) {
                (Some(a), Some(c)) => format!("{a} (compute {c})"),
                (a, c) => show_str(&a.clone().or(c.clone())),
            }),
        ),
        ("SMs", Box::new(move |g: &Gpu| num(g.sm_count))),
        ("CUDA cores", Box::new(move |g: &Gpu| num(g.cuda_cores))),
        (
            "Tensor cores",
            Box::new(move |g: &Gpu| match g.tensor_cores {
                Some(0) => "none".into(),
                t => num(t),
            }),
        ),
        (
            "Memory",
            Box::new(|g: &Gpu| match (g.vram_bytes, g.memory_bus_width_bits) {
                (Some(v), Some(b)) => format!("{} · {b}-bit", bytes_bin(v)),
                (v, _) => show(v, bytes_bin),
            }),
        ),
        (
            "Memory bandwidth",
            Box::new(|g: &Gpu| show(g.memory_bandwidth_bytes_per_s, bandwidth)),
        ),
        (
            "Max SM clock",
            Box::new(|g: &Gpu| show(g.max_sm_clock_mhz, mhz)),
        ),
        ("FP32 peak", Box::new(move |g: &Gpu| tf(g.fp32_tflops))),
        (
            "FP16 Tensor peak",
            Box::new(move |g: &Gpu| tf(g.fp16_tensor_tflops)),
        ),
        (
            "PCIe link",
            Box::new(|g: &Gpu| {
                let p = &g.pcie;
                let (max, _) = link_label(p.max_gen, p.max_width, None, None);
                let (now, _) = link_label(p.gen, p.width, None, None);
                match (p.max_gen.or(p.max_width), p.gen.or(p.width)) {
                    (Some(_), Some(_)) if max != now => format!("{max} (now {now})"),
                    (Some(_), _) => max,
                    (None, Some(_)) => now,
                    (None, None) => UNKNOWN.into(),
                }
            }),
        ),
        (
            "NUMA node",
            Box::new(|g: &Gpu| show(g.numa_node.filter(|n| *n >= 0), |n| n.to_string())),
        ),
        ("PCI address", Box::new(|g: &Gpu| show_str(&g.pci_address))),
        ("VBIOS", Box::new(|g: &Gpu| show_str(&g.vbios_version))),
        (
            "Driver / CUDA",
            Box::new(|g: &Gpu| join_opt(&[&g.driver_version, &g.cuda_version])),
        ),
        ("UUID", Box::new(|g: &Gpu| show_str(&g.uuid))),
        ("Serial", Box::new(|g: &Gpu| show_str(&g.serial))),
    ];
    let mut grid = Grid {
        header,
        rows: Vec::new(),
    };
    for (name, f) in rows {
        let mut r = vec![name.to_string()];
        r.extend(spec.gpus.iter().map(&f));
        grid.rows.push(r);
    }
    Section {
        title: "GPUs".into(),
        fields: Vec::new(),
        grids: vec![grid],
    }
}

/// The order check as a section: counts in the fields, one grid row per requirement.
pub fn verify_section(v: &Verify) -> Section {
    let count = |s: &str| v.rows.iter().filter(|r| r.status == s).count();
    let mut g = Grid::new(&["Requirement", "Expected", "Found", "Status"]);
    for r in &v.rows {
        g.rows.push(vec![
            r.requirement.clone(),
            r.expected.clone(),
            r.found.clone(),
            r.status.clone(),
        ]);
    }
    Section {
        title: "Order check".into(),
        fields: vec![
            ("Profile".into(), v.profile.clone()),
            (
                "Result".into(),
                format!(
                    "{} pass · {} fail · {} unknown",
                    count("pass"),
                    count("fail"),
                    count("unknown")
                ),
            ),
        ],
        grids: vec![g],
    }
}

/// The detail sections in reading order: system, CPUs, memory, GPUs, drives, and headroom
/// when the SMBIOS tables were read.
pub fn detail_sections(spec: &Spec, topo: &Topology) -> Vec<Section> {
    let mut out = vec![
        system_section(spec),
        cpu_section(spec),
        memory_section(spec, topo),
        gpu_section(spec),
        report::drives(spec),
    ];
    // Only with SMBIOS data: an all-unknown headroom says nothing a colleague can use.
    if spec.headroom.is_some() {
        out.push(crate::render::report::headroom(spec));
    }
    out
}

/// The notes section (unknown facts and why), when there are any.
pub fn notes_section(spec: &Spec) -> Option<Section> {
    if spec.notes.is_empty() {
        return None;
    }
    let mut g = Grid::new(&["Field", "Why"]);
    for n in &spec.notes {
        g.rows.push(vec![n.field.clone(), n.reason.clone()]);
    }
    Some(Section {
        title: "Notes".into(),
        fields: Vec::new(),
        grids: vec![g],
    })
}

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
    let filled: Vec<&Slot> = slots.iter().filter(|s| s.dimm.is_some()).collect();
    // Checked: sizes from a damaged report must not overflow the sum.
    let total = filled
        .iter()
        .filter_map(|s| s.dimm.as_ref().and_then(|d| d.size_bytes))
        .try_fold(0u64, u64::checked_add)
        .map_or_else(|| "size unknown".to_string(), bytes_bin);
    let mut l = format!(
        "Memory: {} of {} slots filled ({})",
        filled.len(),
        slots.len(),
        total
    );
    if !filled.is_empty() {
        l.push_str(&format!(
            "; filled: {}",
            filled
                .iter()
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

// ---------------------------------------------------------------------------------------
// Markdown.

fn write_section(s: &Section, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "\n## {}\n", escape(&s.title))?;
    if !s.fields.is_empty() {
        writeln!(out, "| | |\n| --- | --- |")?;
        for (k, v) in &s.fields {
            writeln!(out, "| **{}** | {} |", escape(k), escape(v))?;
        }
    }
    for (i, g) in s.grids.iter().enumerate() {
        if i > 0 || !s.fields.is_empty() {
            writeln!(out)?;
        }
        write_grid(g, out)?;
    }
    Ok(())
}

/// Writes the sheet as GitHub-flavoured Markdown: tables, and the topology as a nested list.
pub fn write_markdown(spec: &Spec, verify: Option<&Verify>, out: &mut dyn Write) -> io::Result<()> {
    let topo = topology(spec);
    writeln!(out, "# {}\n", escape(&heading(spec)))?;
    writeln!(out, "{}", escape(&byline(spec)))?;
    write_section(&glance(spec), out)?;
    if let Some(v) = verify {
        write_section(&verify_section(v), out)?;
    }
    writeln!(out, "\n## Topology\n")?;
    for (head, sub) in topology_lines(&topo) {
        writeln!(out, "- **{}**", escape(&head))?;
        for l in sub {
            writeln!(out, "  - {}", escape(&l))?;
        }
    }
    for s in detail_sections(spec, &topo) {
        write_section(&s, out)?;
    }
    if let Some(n) = notes_section(spec) {
        write_section(&n, out)?;
    }
    Ok(())
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
