//! Builds the sections and rows shared by the table and Markdown renderers.

use crate::cpulist::format_cpulist;
use crate::preflight::rules::Finding;
use crate::render::glance::{glance, gpu_label};
use crate::render::gpu_figures::{self, mark};
use crate::render::layout::{Grid, Section};
use crate::render::notes::{in_words, Kind, Said};
use crate::render::unknown::{show, show_str};
use crate::render::verdict::plural;
use crate::render::view::Part;
use crate::spec::{Cache, Drive, Gpu, Headroom, NumaNode, Spec};
use crate::units::{bytes_bin, bytes_dec, mhz};

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

/// The sections named in `parts` (all when empty), in reading order (at a glance, system,
/// GPUs, CPU, memory, drives, headroom, notes), `attention` under the glance; `verbose`
/// lists the notes on sources too.
pub fn sections_for(
    spec: &Spec,
    attention: &[Finding],
    parts: &[Part],
    verbose: bool,
) -> Vec<Section> {
    let want = |p: Part| parts.is_empty() || parts.contains(&p);
    let mut out = Vec::new();
    if want(Part::Glance) {
        // The sheet names the host under its title; the report, here.
        let mut g = glance(spec, attention);
        g.fields
            .insert(1, ("Host".into(), show_str(&spec.hostname)));
        out.push(g);
    }
    if want(Part::System) {
        out.push(system(spec));
    }
    // GPUs first of the parts: they are what most readers of this report came for.
    if want(Part::Gpus) {
        out.extend(gpus(spec));
    }
    if want(Part::Cpu) {
        out.push(cpu(spec));
    }
    if want(Part::Memory) {
        out.push(memory(spec));
    }
    if want(Part::Drives) {
        out.push(drives(spec));
    }
    if want(Part::Headroom) {
        out.push(headroom(spec));
    }
    if want(Part::Notes) {
        out.extend(notes(spec, verbose));
    }
    out
}

/// The notes as two sections: why facts are unknown, then where figures come from (only
/// counted unless `verbose`).
pub fn notes(spec: &Spec, verbose: bool) -> Vec<Section> {
    let said = in_words(spec);
    let mut out = Vec::new();
    let mut unknown = Section::new("Unknown, because…");
    for s in said.iter().filter(|s| s.kind == Kind::Unknown) {
        unknown.field(&s.about, s.why.clone());
    }
    if !unknown.fields.is_empty() {
        out.push(unknown);
    }
    let sources: Vec<&Said> = said.iter().filter(|s| s.kind == Kind::Source).collect();
    if verbose {
        let mut sec = Section::new("Sources and remarks");
        for s in &sources {
            sec.field(&s.about, s.why.clone());
        }
        if !sec.fields.is_empty() {
            out.push(sec);
        }
    } else if !sources.is_empty() {
        out.push(Section::new(format!(
            "Sources and remarks: {} (-v lists them)",
            plural(sources.len(), "note", "notes")
        )));
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

/// The drives with size (as sold and in binary units), kind (and the bus when it says
/// more: `ssd (sata)`), NUMA node, PCI address and serial.
pub fn drive_grid(drives: &[Drive]) -> Grid {
    let mut g = Grid::new(&[
        "Name",
        "Model",
        "Size",
        "Kind",
        "NUMA",
        "PCI address",
        "Serial",
    ]);
    for d in drives {
        let kind = show(d.kind, |k| k.to_string());
        let kind = match d.transport.as_deref() {
            Some(t) if t != kind => format!("{kind} ({t})"),
            _ => kind,
        };
        g.rows.push(vec![
            d.name.clone(),
            show_str(&d.model),
            show(d.size_bytes, |b| {
                format!("{} ({})", bytes_dec(b), bytes_bin(b))
            }),
            kind,
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

/// One fact of a GPU: its label as a field, its header as a column of the per-GPU table,
/// and how it is shown.
struct GpuFact {
    label: &'static str,
    column: &'static str,
    /// UUID and serial: different on every board, so they get a table of their own.
    identity: bool,
    show: fn(&Gpu) -> String,
}

const fn fact(label: &'static str, column: &'static str, show: fn(&Gpu) -> String) -> GpuFact {
    GpuFact {
        label,
        column,
        identity: false,
        show,
    }
}

fn num<T: std::fmt::Display>(v: Option<T>) -> String {
    show(v, |n| n.to_string())
}

fn link(gen: Option<u32>, w: Option<u32>) -> String {
    match (gen, w) {
        (Some(g), Some(w)) => format!("Gen{g} x{w}"),
        (None, Some(w)) => format!("x{w}"),
        (Some(g), None) => format!("Gen{g}"),
        (None, None) => show_str(&None),
    }
}

/// The facts of a GPU in reading order: the model, where it sits, its state, its identity.
/// FP32-accumulate, datasheet-check and MIG rows appear only when some GPU of `gpus` has them.
fn gpu_facts(gpus: &[&Gpu]) -> Vec<GpuFact> {
    let mut v = vec![
        fact("PCI address", "PCI address", |g| show_str(&g.pci_address)),
        fact("Facts from", "Facts from", gpu_figures::facts_from),
    ];
    if gpus
        .iter()
        .any(|g| gpu_figures::datasheet_check(g).is_some())
    {
        v.push(fact("Datasheet check", "Datasheet check", |g| {
            gpu_figures::datasheet_check(g).unwrap_or_else(|| "-".into())
        }));
    }
    v.extend([
        // Model facts say `(datasheet)` when they came from the product table.
        fact("Architecture", "Architecture", |g| {
            mark(g, "architecture", show_str(&g.architecture))
        }),
        fact("Compute capability", "Compute", |g| {
            mark(g, "compute_capability", show_str(&g.compute_capability))
        }),
        fact("SMs", "SMs", |g| mark(g, "sm_count", num(g.sm_count))),
        fact("CUDA cores", "CUDA cores", |g| {
            mark(g, "cuda_cores", num(g.cuda_cores))
        }),
        fact("Tensor cores", "Tensor cores", |g| {
            let text = match (g.tensor_cores, g.tensor_core_generation) {
                (Some(0), _) => "none".into(),
                (Some(t), Some(gen)) => format!("{t} ({})", ordinal_gen(gen)),
                (t, _) => num(t),
            };
            mark(g, "tensor_cores", text)
        }),
        fact("Memory", "Memory", |g| {
            mark(g, "vram_bytes", show(g.vram_bytes, bytes_bin))
        }),
        fact("Memory bus", "Bus", |g| {
            let text = show(g.memory_bus_width_bits, |b| format!("{b}-bit"));
            mark(g, "memory_bus_width_bits", text)
        }),
        fact("Memory bandwidth", "Bandwidth", |g| {
            let text = show(g.memory_bandwidth_bytes_per_s, |b| {
                format!("{:.0} GB/s", b as f64 / 1e9)
            });
            mark(g, "memory_bandwidth_bytes_per_s", text)
        }),
        fact("Rated boost clock", "Rated boost", gpu_figures::rated_clock),
        fact("Max SM clock", "Max SM clock", |g| {
            show(g.max_sm_clock_mhz, mhz)
        }),
        fact("Max memory clock", "Max mem clock", |g| {
            show(g.max_memory_clock_mhz, mhz)
        }),
        fact("FP32 peak", "FP32", gpu_figures::fp32),
        fact(
            "FP16 Tensor peak (dense)",
            "FP16 Tensor",
            gpu_figures::fp16_tensor,
        ),
    ]);
    if gpus.iter().any(|g| {
        g.fp16_tensor_fp32_acc_tflops.is_some()
            && g.fp16_tensor_fp32_acc_tflops != g.fp16_tensor_tflops
    }) {
        v.push(fact(
            "FP16 Tensor, FP32 accumulate",
            "FP16 Tensor, FP32 acc",
            gpu_figures::fp16_tensor_fp32_acc,
        ));
    }
    v.extend([
        fact("PCIe link (now)", "Link now", |g| {
            link(g.pcie.gen, g.pcie.width)
        }),
        fact("PCIe link (max)", "Link max", |g| {
            link(g.pcie.max_gen, g.pcie.max_width)
        }),
        fact("NUMA node", "NUMA", |g| num(g.numa_node)),
        fact("CPU socket", "Socket", |g| num(g.socket)),
        fact("Local CPUs", "Local CPUs", |g| show_str(&g.local_cpus)),
        fact("Board part number", "Board part", |g| {
            show_str(&g.board_part_number)
        }),
        fact("VBIOS", "VBIOS", |g| show_str(&g.vbios_version)),
        fact("Driver / CUDA", "Driver / CUDA", |g| {
            join_opt(&[&g.driver_version, &g.cuda_version])
        }),
    ]);
    if gpus
        .iter()
        .any(|g| g.mig_enabled.is_some() || !g.mig_instances.is_empty())
    {
        v.push(fact("MIG", "MIG", |g| {
            show(g.mig_enabled, |m| {
                if m { "enabled" } else { "disabled" }.to_string()
            })
        }));
    }
    v.extend([
        fact("Temperature", "Temp", |g| {
            show(g.state.temperature_c, |t| format!("{t} °C"))
        }),
        fact("Fan", "Fan", |g| {
            show(g.state.fan_percent, |f| format!("{f} %"))
        }),
        fact("Power", "Power", |g| {
            let s = &g.state;
            match (s.power_draw_w, s.power_limit_w) {
                (Some(d), Some(l)) => format!("{d:.0} W of {l:.0} W"),
                (d, _) => show(d, |d| format!("{d:.0} W")),
            }
        }),
        fact("Utilisation", "Use", |g| {
            show(g.state.utilization_percent, |u| format!("{u} %"))
        }),
        fact("Memory used", "Mem used", |g| {
            show(g.state.memory_used_bytes, bytes_bin)
        }),
        fact("Persistence mode", "Persist", |g| {
            show(g.state.persistence_mode, on_off)
        }),
        fact("ECC", "ECC", |g| {
            let s = &g.state;
            match (
                s.ecc_enabled,
                s.ecc_errors_corrected,
                s.ecc_errors_uncorrected,
            ) {
                (Some(true), c, u) => {
                    format!("on, {} corrected, {} uncorrected", num(c), num(u))
                }
                (e, _, _) => show(e, on_off),
            }
        }),
        fact("Throttle reasons", "Throttle", |g| {
            show(g.state.throttle_reasons.clone(), |r| {
                if r.is_empty() {
                    "none".into()
                } else {
                    r.join(", ")
                }
            })
        }),
        fact("Compute processes", "Processes", |g| {
            show(g.state.compute_processes.as_ref(), |p| {
                if p.is_empty() {
                    "none".into()
                } else {
                    p.iter()
                        .map(|p| p.pid.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            })
        }),
        GpuFact {
            identity: true,
            ..fact("UUID", "UUID", |g| show_str(&g.uuid))
        },
        GpuFact {
            identity: true,
            ..fact("Serial", "Serial", |g| show_str(&g.serial))
        },
    ]);
    v
}

/// The GPU sections: one per model, so eight identical boards are one table. A model with
/// one board lists its facts; a model with several lists what they share as fields, then one
/// row per GPU for what differs (bus address, temperature, link, ...), then their UUIDs and
/// serial numbers.
fn gpus(spec: &Spec) -> Vec<Section> {
    if spec.gpus.is_empty() {
        let mut sec = Section::new("GPUs");
        sec.field("NVIDIA GPUs", "none found".into());
        return vec![sec];
    }
    // Grouped by model name, in the order the first of each model appears.
    let mut groups: Vec<(String, Vec<(usize, &Gpu)>)> = Vec::new();
    for (i, g) in spec.gpus.iter().enumerate() {
        let name = show_str(&g.name);
        match groups.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => v.push((i, g)),
            None => groups.push((name, vec![(i, g)])),
        }
    }
    groups
        .into_iter()
        .map(|(name, members)| match members.as_slice() {
            [(i, g)] => gpu(*i, g),
            _ => gpu_group(&name, &members),
        })
        .collect()
}

/// One GPU: every fact a field.
fn gpu(i: usize, g: &Gpu) -> Section {
    let mut sec = Section::new(format!("{} · {}", gpu_label(i, g), show_str(&g.name)));
    for f in gpu_facts(&[g]) {
        sec.field(f.label, (f.show)(g));
        // Each MIG instance right under the MIG mode.
        if f.label == "MIG" {
            sec.fields
                .extend(g.mig_instances.iter().map(gpu_figures::mig_row));
        }
    }
    sec
}

/// Several GPUs of one model: shared facts once, then a row per GPU for what differs.
fn gpu_group(name: &str, members: &[(usize, &Gpu)]) -> Section {
    let index = |(i, g): &(usize, &Gpu)| g.index.unwrap_or(*i as u32);
    let indices: Vec<u32> = members.iter().map(index).collect();
    let mut sec = Section::new(format!(
        "GPUs {} · {} × {name}",
        format_cpulist(&indices),
        members.len()
    ));
    let gpus: Vec<&Gpu> = members.iter().map(|(_, g)| *g).collect();
    let mut each = Grid::new(&["GPU"]);
    let mut ids = Grid::new(&["GPU"]);
    let mut each_cols: Vec<Vec<String>> = Vec::new();
    let mut id_cols: Vec<Vec<String>> = Vec::new();
    for f in gpu_facts(&gpus) {
        let values: Vec<String> = gpus.iter().map(|g| (f.show)(g)).collect();
        let same = values.iter().all(|v| *v == values[0]);
        if same && f.label != "PCI address" {
            sec.field(f.label, values[0].clone());
        } else if f.identity {
            ids.header.push(f.column.to_string());
            id_cols.push(values);
        } else {
            each.header.push(f.column.to_string());
            each_cols.push(values);
        }
    }
    // MIG instances are a GPU's own: each under its GPU's number.
    for (n, g) in indices.iter().zip(&gpus) {
        for mig in &g.mig_instances {
            let (k, v) = gpu_figures::mig_row(mig);
            sec.fields.push((format!("GPU {n} {k}"), v));
        }
    }
    for (grid, cols) in [(&mut each, each_cols), (&mut ids, id_cols)] {
        if cols.is_empty() {
            continue;
        }
        for (r, n) in indices.iter().enumerate() {
            let mut row = vec![n.to_string()];
            row.extend(cols.iter().map(|c| c[r].clone()));
            grid.rows.push(row);
        }
        sec.grids.push(grid.clone());
    }
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
