//! Builds the sections and rows shared by the table and Markdown renderers.

use crate::render::gpu_figures;
use crate::render::style::Tone;
use crate::render::unknown::{show, show_str};
use crate::spec::{Cache, Drive, Gpu, Headroom, NumaNode, Spec};
use crate::units::{bytes_bin, bytes_dec, mhz};

/// A titled block: key/value fields, then zero or more grids.
#[derive(Debug, Clone)]
pub struct Section {
    pub title: String,
    pub fields: Vec<(String, String)>,
    pub grids: Vec<Grid>,
}

/// A table with a header row.
#[derive(Debug, Clone)]
pub struct Grid {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// The column holding a status word, and each row's tone, for writers that style it.
    pub status: Option<StatusColumn>,
}

/// Which column of a grid is a status, and how each row's status should look.
#[derive(Debug, Clone)]
pub struct StatusColumn {
    pub column: usize,
    /// One tone per row, in row order.
    pub tones: Vec<Tone>,
}

impl Section {
    fn new(title: impl Into<String>) -> Self {
        Section {
            title: title.into(),
            fields: Vec::new(),
            grids: Vec::new(),
        }
    }

    fn field(&mut self, k: &str, v: String) -> &mut Self {
        self.fields.push((k.to_string(), v));
        self
    }
}

impl Grid {
    /// A grid with the given header.
    pub fn new(header: &[&str]) -> Self {
        Grid {
            header: header.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
            status: None,
        }
    }
}

/// The one-line title of a report.
pub fn title(spec: &Spec) -> String {
    let host = spec
        .hostname
        .clone()
        .unwrap_or_else(|| "unknown host".into());
    let when = spec
        .captured_at
        .clone()
        .unwrap_or_else(|| "time not recorded".into());
    format!("rigcheck {} · {host} · {when}", spec.rigcheck_version)
}

/// All sections of an inventory report, in reading order.
pub fn sections(spec: &Spec) -> Vec<Section> {
    let mut out = vec![system(spec), cpu(spec), memory(spec), drives(spec)];
    out.extend(gpus(spec));
    out.push(headroom(spec));
    if !spec.notes.is_empty() {
        let mut s = Section::new("Notes");
        let mut g = Grid::new(&["Field", "Why"]);
        for n in &spec.notes {
            g.rows.push(vec![n.field.clone(), n.reason.clone()]);
        }
        s.grids.push(g);
        out.push(s);
    }
    out
}

fn system(spec: &Spec) -> Section {
    let s = &spec.system;
    let mut sec = Section::new("System");
    let product = match (&s.vendor, &s.product) {
        // HP writes "HP" as vendor and "HP Z8 G4 Workstation" as product.
        (Some(v), Some(p)) if p.to_lowercase().starts_with(&v.to_lowercase()) => p.clone(),
        (Some(v), Some(p)) => format!("{v} {p}"),
        (None, Some(p)) => p.clone(),
        (Some(v), None) => v.clone(),
        (None, None) => show_str(&None),
    };
    sec.field("Host", show_str(&spec.hostname))
        .field("Product", product)
        .field("Serial", show_str(&s.serial))
        .field(
            "Board",
            join_opt(&[&s.board_vendor, &s.board_name, &s.board_version]),
        )
        .field(
            "BIOS",
            join_opt(&[&s.bios_vendor, &s.bios_version, &s.bios_date]),
        )
        .field("Chassis", show_str(&s.chassis_type));
    if let Some(v) = &s.virtualization {
        sec.field("Virtual machine", v.clone());
    }
    let os = &spec.os;
    sec.field(
        "OS",
        show_str(&os.pretty_name.clone().or_else(|| os.name.clone())),
    )
    .field("Kernel", show_str(&os.kernel))
    .field("Architecture", show_str(&os.arch))
    .field("Captured", show_str(&spec.captured_at));
    sec
}

fn join_opt(parts: &[&Option<String>]) -> String {
    let v: Vec<&str> = parts.iter().filter_map(|p| p.as_deref()).collect();
    if v.is_empty() {
        show_str(&None)
    } else {
        v.join(" ")
    }
}

fn cpu(spec: &Spec) -> Section {
    let c = &spec.cpu;
    let mut sec = Section::new("CPU");
    let base = match (&c.base_mhz, &c.base_mhz_source) {
        (Some(b), Some(src)) => format!("{} (from {src})", mhz(*b)),
        (b, _) => show(*b, mhz),
    };
    sec.field("Model", show_str(&c.model))
        .field("Vendor", show_str(&c.vendor))
        .field("Sockets", show(c.sockets, |v| v.to_string()))
        .field("Cores", show(c.cores, |v| v.to_string()))
        .field(
            "Cores per socket",
            show(c.cores_per_socket, |v| v.to_string()),
        )
        .field("Threads", show(c.threads, |v| v.to_string()))
        .field(
            "Threads per core",
            show(c.threads_per_core, |v| v.to_string()),
        )
        .field("Online", show_str(&c.online));
    if let Some(off) = &c.offline {
        sec.field("Offline", off.clone());
    }
    sec.field("Base clock", base)
        .field("Max clock", show(c.max_mhz, mhz))
        .field("Min clock", show(c.min_mhz, mhz));
    if c.scaling_driver.is_some() || c.governor.is_some() {
        sec.field(
            "Frequency driver",
            join_opt(&[&c.scaling_driver, &c.governor]),
        );
    }
    sec.field(
        "ISA",
        if c.isa.is_empty() {
            show_str(&None)
        } else {
            c.isa.join(" ")
        },
    );
    if let Some(f) = c.fma_units {
        sec.field("AVX-512 FMA units", f.to_string());
    }
    if let Some(g) = c.peak_fp64_gflops {
        sec.field("Peak FP64", format!("{g:.0} GFLOPS (at base clock)"));
    }
    if !c.core_types.is_empty() {
        let mut g = Grid::new(&["Core type", "Cores", "Threads", "Max clock"]);
        for t in &c.core_types {
            g.rows.push(vec![
                t.name.clone(),
                t.cores.to_string(),
                t.threads.to_string(),
                show(t.max_mhz, mhz),
            ]);
        }
        sec.grids.push(g);
    }
    sec.grids.extend(cache_grid(&c.caches));
    sec.grids.extend(numa_grid(&c.numa_nodes));
    sec
}

/// The caches as `L1d 48 KiB × 2 = 96 KiB` rows (none when unknown).
pub fn cache_grid(caches: &[Cache]) -> Option<Grid> {
    if caches.is_empty() {
        return None;
    }
    let mut g = Grid::new(&["Cache", "Size each", "Instances", "Total"]);
    for k in caches {
        let name = match k.kind.as_str() {
            "data" => format!("L{}d", k.level),
            "instruction" => format!("L{}i", k.level),
            _ => format!("L{}", k.level),
        };
        g.rows.push(vec![
            name,
            bytes_bin(k.size_bytes),
            k.instances.to_string(),
            bytes_bin(k.total_bytes),
        ]);
    }
    Some(g)
}

/// The NUMA nodes with their CPUs and local memory (none when unknown).
pub fn numa_grid(nodes: &[NumaNode]) -> Option<Grid> {
    if nodes.is_empty() {
        return None;
    }
    let mut g = Grid::new(&["NUMA node", "CPUs", "Local memory"]);
    for n in nodes {
        let cpus = if n.cpus.is_empty() {
            "none (memory only)".into()
        } else {
            n.cpus.clone()
        };
        g.rows.push(vec![
            n.id.to_string(),
            cpus,
            show(n.memory_bytes, bytes_bin),
        ]);
    }
    Some(g)
}

fn memory(spec: &Spec) -> Section {
    let m = &spec.memory;
    let mut sec = Section::new("Memory");
    let total = match (&m.total_bytes, &m.total_source) {
        (Some(t), Some(src)) => format!("{} (from {src})", bytes_bin(*t)),
        (t, _) => show(*t, bytes_bin),
    };
    sec.field("Installed", total)
        .field("Usable (MemTotal)", show(m.usable_bytes, bytes_bin));
    let slots = match m.slot_count {
        Some(n) => format!("{} of {n} populated", m.dimms.len()),
        None if m.dimms.is_empty() => show_str(&None),
        None => format!("{} populated", m.dimms.len()),
    };
    sec.field("DIMM slots", slots);
    if !m.dimms.is_empty() {
        let mut g = Grid::new(&[
            "Slot",
            "Size",
            "Type",
            "Speed",
            "Manufacturer",
            "Part number",
        ]);
        for d in &m.dimms {
            let speed = match (d.speed_mts, d.configured_speed_mts) {
                (Some(s), Some(c)) if s != c => format!("{c} MT/s (rated {s})"),
                (Some(s), _) | (None, Some(s)) => format!("{s} MT/s"),
                (None, None) => show_str(&None),
            };
            g.rows.push(vec![
                d.locator.clone(),
                show(d.size_bytes, bytes_bin),
                show_str(&d.kind),
                speed,
                show_str(&d.manufacturer),
                show_str(&d.part_number),
            ]);
        }
        sec.grids.push(g);
    }
    if !m.empty_slots.is_empty() {
        sec.field("Empty slots", m.empty_slots.join(", "));
    }
    sec
}

/// The drives with size (as sold and in binary units), kind, link, NUMA node and serial.
pub fn drive_grid(drives: &[Drive]) -> Grid {
    let mut g = Grid::new(&[
        "Name",
        "Model",
        "Size",
        "Kind",
        "Transport",
        "NUMA node",
        "PCI address",
        "Serial",
    ]);
    for d in drives {
        g.rows.push(vec![
            d.name.clone(),
            show_str(&d.model),
            show(d.size_bytes, |b| {
                format!("{} ({})", bytes_dec(b), bytes_bin(b))
            }),
            show(d.kind, |k| k.to_string()),
            show_str(&d.transport),
            show(d.numa_node.filter(|n| *n >= 0), |n| n.to_string()),
            show_str(&d.pci_address),
            show_str(&d.serial),
        ]);
    }
    g
}

/// The drives section (a grid, or "none found").
pub fn drives(spec: &Spec) -> Section {
    let mut sec = Section::new("Drives");
    if spec.drives.is_empty() {
        sec.field("Drives", "none found".into());
        return sec;
    }
    sec.grids.push(drive_grid(&spec.drives));
    sec
}

fn gpus(spec: &Spec) -> Vec<Section> {
    if spec.gpus.is_empty() {
        let mut sec = Section::new("GPUs");
        sec.field("NVIDIA GPUs", "none found".into());
        return vec![sec];
    }
    spec.gpus
        .iter()
        .enumerate()
        .map(|(i, g)| gpu(i, g))
        .collect()
}

fn gpu(i: usize, g: &Gpu) -> Section {
    let title = format!(
        "GPU {} · {}",
        g.index.unwrap_or(i as u32),
        show_str(&g.name)
    );
    let mut sec = Section::new(title);
    let num = |v: Option<u32>| show(v, |n| n.to_string());
    let link = |gen: Option<u32>, w: Option<u32>| match (gen, w) {
        (Some(g), Some(w)) => format!("Gen{g} x{w}"),
        (None, Some(w)) => format!("x{w}"),
        (Some(g), None) => format!("Gen{g}"),
        (None, None) => show_str(&None),
    };
    sec.field("PCI address", show_str(&g.pci_address))
        .field("Facts from", gpu_figures::facts_from(g));
    if let Some(check) = gpu_figures::datasheet_check(g) {
        sec.field("Datasheet check", check);
    }
    let m = |field: &str, text: String| gpu_figures::mark(g, field, text);
    sec.field("Architecture", m("architecture", show_str(&g.architecture)))
        .field(
            "Compute capability",
            m("compute_capability", show_str(&g.compute_capability)),
        )
        .field("SMs", m("sm_count", num(g.sm_count)))
        .field("CUDA cores", m("cuda_cores", num(g.cuda_cores)))
        .field(
            "Tensor cores",
            m(
                "tensor_cores",
                match (g.tensor_cores, g.tensor_core_generation) {
                    (Some(0), _) => "none".into(),
                    (Some(t), Some(gen)) => format!("{t} ({})", ordinal_gen(gen)),
                    (t, _) => num(t),
                },
            ),
        )
        .field("Memory", m("vram_bytes", show(g.vram_bytes, bytes_bin)))
        .field(
            "Memory bus",
            m(
                "memory_bus_width_bits",
                show(g.memory_bus_width_bits, |b| format!("{b}-bit")),
            ),
        )
        .field(
            "Memory bandwidth",
            m(
                "memory_bandwidth_bytes_per_s",
                show(g.memory_bandwidth_bytes_per_s, |b| {
                    format!("{:.0} GB/s", b as f64 / 1e9)
                }),
            ),
        )
        .field("Rated boost clock", gpu_figures::rated_clock(g))
        .field("Max SM clock", show(g.max_sm_clock_mhz, mhz))
        .field("Max memory clock", show(g.max_memory_clock_mhz, mhz))
        .field("FP32 peak", gpu_figures::fp32(g))
        .field("FP16 Tensor peak (dense)", gpu_figures::fp16_tensor(g));
    if g.fp16_tensor_fp32_acc_tflops.is_some()
        && g.fp16_tensor_fp32_acc_tflops != g.fp16_tensor_tflops
    {
        sec.field(
            "FP16 Tensor, FP32 accumulate",
            gpu_figures::fp16_tensor_fp32_acc(g),
        );
    }
    sec.field("PCIe link (now)", link(g.pcie.gen, g.pcie.width))
        .field("PCIe link (max)", link(g.pcie.max_gen, g.pcie.max_width))
        .field("NUMA node", show(g.numa_node, |n| n.to_string()))
        .field("CPU socket", show(g.socket, |n| n.to_string()))
        .field("Local CPUs", show_str(&g.local_cpus))
        .field("UUID", show_str(&g.uuid))
        .field("Serial", show_str(&g.serial))
        .field("Board part number", show_str(&g.board_part_number))
        .field("VBIOS", show_str(&g.vbios_version))
        .field(
            "Driver / CUDA",
            join_opt(&[&g.driver_version, &g.cuda_version]),
        );
    if let Some(m) = g.mig_enabled {
        sec.field(
            "MIG",
            if m {
                "enabled".into()
            } else {
                "disabled".into()
            },
        );
    }
    for mig in &g.mig_instances {
        let (k, v) = gpu_figures::mig_row(mig);
        sec.fields.push((k, v));
    }
    let s = &g.state;
    sec.field("Temperature", show(s.temperature_c, |t| format!("{t} °C")))
        .field("Fan", show(s.fan_percent, |f| format!("{f} %")))
        .field(
            "Power",
            match (s.power_draw_w, s.power_limit_w) {
                (Some(d), Some(l)) => format!("{d:.0} W of {l:.0} W"),
                (d, _) => show(d, |d| format!("{d:.0} W")),
            },
        )
        .field(
            "Utilisation",
            show(s.utilization_percent, |u| format!("{u} %")),
        )
        .field("Memory used", show(s.memory_used_bytes, bytes_bin))
        .field("Persistence mode", show(s.persistence_mode, on_off))
        .field(
            "ECC",
            match (
                s.ecc_enabled,
                s.ecc_errors_corrected,
                s.ecc_errors_uncorrected,
            ) {
                (Some(true), c, u) => format!(
                    "on, {} corrected, {} uncorrected",
                    show(c, |n| n.to_string()),
                    show(u, |n| n.to_string())
                ),
                (e, _, _) => show(e, on_off),
            },
        )
        .field(
            "Throttle reasons",
            show(s.throttle_reasons.clone(), |r| {
                if r.is_empty() {
                    "none".into()
                } else {
                    r.join(", ")
                }
            }),
        )
        .field(
            "Compute processes",
            show(s.compute_processes.as_ref(), |p| {
                if p.is_empty() {
                    "none".into()
                } else {
                    p.iter()
                        .map(|p| p.pid.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            }),
        );
    sec
}

/// Room to grow: sockets, DIMM slots per socket, PCIe slots with what sits in them, and
/// power supplies against the GPUs' power limits (shared with the spec sheet).
pub fn headroom(spec: &Spec) -> Section {
    let mut sec = Section::new("Headroom");
    let Some(h) = &spec.headroom else {
        let why = spec
            .notes
            .iter()
            .find(|n| n.field == "headroom")
            .map_or_else(|| "not in this report".to_string(), |n| n.reason.clone());
        sec.field("Headroom", format!("unknown: {why}"));
        return sec;
    };
    headroom_sockets(&mut sec, h);
    headroom_memory(&mut sec, h);
    headroom_pcie(&mut sec, h);
    headroom_power(&mut sec, h);
    sec
}

/// CPU sockets: how many are populated, and which are empty.
fn headroom_sockets(sec: &mut Section, h: &Headroom) {
    let sockets = match &h.sockets {
        Some(v) => {
            let used = v.iter().filter(|c| c.populated).count();
            let empty: Vec<String> = v
                .iter()
                .enumerate()
                .filter(|(_, c)| !c.populated)
                .map(|(i, c)| {
                    c.designation
                        .clone()
                        .unwrap_or_else(|| format!("socket {i}"))
                })
                .collect();
            if empty.is_empty() {
                format!("{used} of {} populated", v.len())
            } else {
                format!(
                    "{used} of {} populated; empty: {}",
                    v.len(),
                    empty.join(", ")
                )
            }
        }
        None => show_str(&None),
    };
    sec.field("CPU sockets", sockets);
}

/// DIMM slots, the memory ceiling, the upgrade path and the balance, with a grid per socket.
fn headroom_memory(sec: &mut Section, h: &Headroom) {
    match &h.memory {
        Some(m) => {
            sec.field(
                "DIMM slots",
                format!(
                    "{} of {} used, {} free ({} usable)",
                    m.used_slots, m.slot_count, m.free_slots, m.usable_free_slots
                ),
            );
            let arrays: Vec<String> = m
                .arrays
                .iter()
                .map(|a| {
                    format!(
                        "{} slots, max {}",
                        show(a.slots, |n| n.to_string()),
                        show(a.max_capacity_bytes, bytes_bin)
                    )
                })
                .collect();
            sec.field(
                "Maximum memory",
                match m.max_capacity_bytes {
                    Some(b) => format!("{} ({})", bytes_bin(b), arrays.join("; ")),
                    None => show_str(&None),
                },
            );
            sec.field(
                "Upgrade with the installed module",
                match (m.max_with_installed_module_bytes, m.upgrade_module_bytes) {
                    (Some(t), Some(d)) => format!(
                        "up to {} with {} {} modules in the usable free slots",
                        bytes_bin(t),
                        bytes_bin(d),
                        m.upgrade_module_type.as_deref().unwrap_or("")
                    )
                    .replace("  ", " "),
                    _ => show_str(&None),
                },
            );
            sec.field("Balance", m.balance_detail.clone());
            let mut g = Grid::new(&["Socket", "CPU", "Slots", "Used", "Free", "Per channel"]);
            for grp in &m.groups {
                g.rows.push(vec![
                    grp.group.clone(),
                    match grp.cpu_populated {
                        Some(true) => "populated".into(),
                        Some(false) => "empty: its slots cannot be used".into(),
                        None => show_str(&None),
                    },
                    grp.slots.to_string(),
                    grp.used.to_string(),
                    grp.free.to_string(),
                    show(grp.dimms_per_channel.as_ref(), |c| {
                        c.iter()
                            .map(|(k, n)| format!("{k}:{n}"))
                            .collect::<Vec<_>>()
                            .join(" ")
                    }),
                ]);
            }
            sec.grids.push(g);
        }
        None => {
            sec.field("DIMM slots", show_str(&None));
        }
    }
}

/// Expansion slots and what sits in them.
fn headroom_pcie(sec: &mut Section, h: &Headroom) {
    match &h.pcie_slots {
        Some(slots) => {
            sec.field(
                "Free x16 PCIe slots",
                show(h.free_x16_slots, |n| n.to_string()),
            );
            let mut g = Grid::new(&["Slot", "Type", "Status", "Holds"]);
            for s in slots {
                let width = match (s.width, s.slot_size) {
                    (Some(w), Some(z)) if z != w => format!("x{z} (x{w} wired)"),
                    (Some(w), _) => format!("x{w}"),
                    (None, Some(z)) => format!("x{z}"),
                    (None, None) => String::new(),
                };
                let kind = match (s.is_pcie, s.pcie_gen) {
                    (true, Some(gen)) => format!("PCIe {gen} {width}"),
                    (true, None) => format!("PCIe {width}"),
                    (false, _) => "other bus".into(),
                };
                g.rows.push(vec![
                    show_str(&s.designation),
                    kind.trim().to_string(),
                    match s.in_use {
                        Some(true) => "in use".into(),
                        Some(false) if s.devices.is_empty() => "free".into(),
                        Some(false) => "free per firmware".into(),
                        None => show_str(&None),
                    },
                    if s.devices.is_empty() {
                        if s.in_use == Some(true) {
                            "not identified".into()
                        } else {
                            "-".into()
                        }
                    } else {
                        s.devices.join(", ")
                    },
                ]);
            }
            sec.grids.push(g);
        }
        None => {
            sec.field("PCIe slots", show_str(&None));
        }
    }
}

/// Power supplies next to the GPUs' power limits.
fn headroom_power(sec: &mut Section, h: &Headroom) {
    let p = &h.power;
    let supplies = match &p.supplies {
        Some(v) => v
            .iter()
            .map(|s| {
                format!(
                    "{} {}{}",
                    show_str(&s.name.clone().or_else(|| s.model_part_number.clone())),
                    show(s.max_power_w, |w| format!("{w} W")),
                    s.status
                        .as_deref()
                        .map(|st| format!(" ({st})"))
                        .unwrap_or_default()
                )
            })
            .collect::<Vec<_>>()
            .join("; "),
        None => show_str(&None),
    };
    sec.field("Power supplies", supplies)
        .field("PSU capacity", show(p.capacity_w, |w| format!("{w} W")))
        .field(
            "GPU power limits",
            show(p.gpu_power_limit_w, |w| format!("{w:.0} W")),
        )
        .field(
            "Power headroom",
            show(p.headroom_w, |w| {
                format!("{w:.0} W (GPU limits only; CPU and board draw not included)")
            }),
        );
}

fn on_off(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
}

fn ordinal_gen(gen: u32) -> String {
    let suffix = match gen {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{gen}{suffix} gen")
}
