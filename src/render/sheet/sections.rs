//! The sheet's sections, shared by the Markdown and HTML sheets: title, byline, the summary
//! at the top, and the detail sections (system, CPUs, every DIMM slot, GPUs, drives,
//! headroom, notes).

use super::topology::{bandwidth, link_label, Slot, Topology};
pub use crate::render::glance::{glance, heading};
use crate::render::gpu_figures;
use crate::render::layout::{Grid, Section};
use crate::render::notes::{in_words, Kind};
use crate::render::report;
use crate::render::unknown::{show, show_str, UNKNOWN};
use crate::spec::{Gpu, Spec};
use crate::units::{bytes_bin, mhz};

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
        (
            "FP32 peak (rated)",
            Box::new(move |g: &Gpu| rated_at(g, g.fp32_tflops, g.rated_clock_mhz)),
        ),
        (
            "FP16 Tensor peak (rated)",
            Box::new(move |g: &Gpu| rated_at(g, g.fp16_tensor_tflops, g.rated_tensor_clock_mhz)),
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
    let mut rows = rows;
    // The max-clock figure only where some GPU's differs from its rated one.
    if spec
        .gpus
        .iter()
        .any(|g| g.fp32_tflops_max_clock.is_some() && g.max_sm_clock_mhz != g.rated_clock_mhz)
    {
        rows.insert(
            rows.iter()
                .position(|(n, _)| *n == "FP16 Tensor peak (rated)")
                .unwrap_or(0),
            (
                "FP32 at max clock",
                Box::new(
                    move |g: &Gpu| match (g.fp32_tflops_max_clock, g.max_sm_clock_mhz) {
                        (Some(t), Some(c)) => format!("{} ({c} MHz)", tf(Some(t))),
                        _ => UNKNOWN.into(),
                    },
                ),
            ),
        );
    }
    if spec
        .gpus
        .iter()
        .any(|g| !g.fact_sources.values().all(|v| v == "nvml"))
    {
        rows.insert(1, ("Facts from", Box::new(gpu_figures::facts_from)));
    }
    let mut grid = Grid::new(&[]);
    grid.header = header;
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

/// A rated peak with its clock, marked where it rests on datasheet counts: `16.3 TFLOPS
/// (1770 MHz)`.
fn rated_at(g: &Gpu, t: Option<f64>, clock: Option<u32>) -> String {
    let text = match (t, clock) {
        (Some(t), Some(c)) => format!("{t:.1} TFLOPS ({c} MHz)"),
        (Some(t), None) => format!("{t:.1} TFLOPS"),
        (None, _) => return UNKNOWN.into(),
    };
    gpu_figures::mark(g, "cuda_cores", text)
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

/// The notes section, when there are any: why facts are unknown, then where figures come
/// from, each fact named in words.
pub fn notes_section(spec: &Spec) -> Option<Section> {
    let said = in_words(spec);
    if said.is_empty() {
        return None;
    }
    let mut grids = Vec::new();
    for (kind, header) in [
        (Kind::Unknown, ["Unknown", "Because"]),
        (Kind::Source, ["Fact", "Source or remark"]),
    ] {
        let mut g = Grid::new(&header);
        for s in said.iter().filter(|s| s.kind == kind) {
            g.rows.push(vec![s.about.clone(), s.why.clone()]);
        }
        if !g.rows.is_empty() {
            grids.push(g);
        }
    }
    Some(Section {
        title: "Notes".into(),
        fields: Vec::new(),
        grids,
    })
}
