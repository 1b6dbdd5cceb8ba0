//! The inventory report's sections, shared by the table and Markdown renderers: which rows
//! (`rows`) each part shows, the GPUs grouped by model, the headroom and the notes.

use crate::cpulist::format_cpulist;
use crate::render::glance::{glance, gpu_label};
use crate::render::gpu_figures;
use crate::render::layout::{Grid, Section};
use crate::render::notes::{in_words, Kind, Said};
use crate::render::rows::{self, add_fields, GpuKind, SlotRow};
use crate::render::unknown::{show, show_str};
use crate::render::verdict::plural;
use crate::render::view::Part;
use crate::rules::Finding;
use crate::spec::{names, Gpu, Headroom, Spec};
use crate::units::{bytes_bin, mhz};

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
    let title = format!("rigcheck {} · {host} · {when}", spec.rigcheck_version);
    crate::text::one_line(&title).into_owned()
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
            .insert(1, (rows::HOST.label.into(), (rows::HOST.cell)(spec)));
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
        out.push(cpu_section(spec, "CPU", CpuDetail::Inventory));
    }
    if want(Part::Memory) {
        out.push(memory(spec));
    }
    if want(Part::Drives) {
        out.push(drives(spec));
    }
    if want(Part::Network) {
        out.push(network(spec));
    }
    if want(Part::Health) {
        out.push(health(spec));
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
    let mut sec = Section::new("System");
    add_fields(
        &mut sec,
        spec,
        &[
            &rows::HOST,
            &rows::SYSTEM_VENDOR,
            &rows::PRODUCT,
            &rows::SERIAL,
            &rows::BOARD,
            &rows::BIOS,
            &rows::CHASSIS,
            &rows::VIRTUAL_MACHINE,
            &rows::OS,
            &rows::KERNEL,
            &rows::ARCH,
            &rows::CAPTURED,
        ],
    );
    sec
}

/// How much of the CPU a section shows: everything (the inventory), or what a spec sheet
/// hands on (counts, clocks, ISA, the FP64 peak, caches and NUMA nodes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CpuDetail {
    Inventory,
    Sheet,
}

/// The CPU section, titled `title`, for the inventory and the sheet alike.
pub fn cpu_section(spec: &Spec, title: &str, detail: CpuDetail) -> Section {
    let c = &spec.cpu;
    let mut sec = Section::new(title);
    add_fields(&mut sec, spec, &rows::CPU_COUNTS);
    let fields: &[&rows::Row<Spec>] = match detail {
        CpuDetail::Inventory => &[
            &rows::CPUS_ONLINE,
            &rows::CPUS_OFFLINE,
            &rows::BASE_CLOCK,
            &rows::MAX_CLOCK,
            &rows::MIN_CLOCK,
            &rows::CLOCK_NOW,
            &rows::FREQUENCY_DRIVER,
            &rows::MICROCODE,
            &rows::ISA,
            &rows::FMA_UNITS,
            &rows::FP64_PEAK,
        ],
        CpuDetail::Sheet => &[
            &rows::BASE_CLOCK,
            &rows::MAX_CLOCK,
            &rows::ISA,
            &rows::FP64_PEAK,
        ],
    };
    add_fields(&mut sec, spec, fields);
    if detail == CpuDetail::Inventory && !c.core_types.is_empty() {
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
    sec.grids.extend(rows::cache_grid(&c.caches));
    sec.grids.extend(rows::numa_grid(&c.numa_nodes));
    sec
}

/// Installed and usable memory, the slots, and the DIMMs (the empty slots listed by name).
fn memory(spec: &Spec) -> Section {
    let mut sec = Section::new("Memory");
    add_fields(
        &mut sec,
        spec,
        &[
            &rows::INSTALLED,
            &rows::USABLE,
            &rows::USABLE_WINDOWS,
            &rows::DIMM_SLOTS,
            &rows::EMPTY_SLOTS,
        ],
    );
    let slots = spec.memory.dimms.iter().map(|d| SlotRow {
        socket: String::new(),
        locator: &d.locator,
        dimm: Some(d),
    });
    sec.grids.extend(rows::dimm_grid(slots, false));
    sec
}

/// The drives section (a grid, or "none found").
pub fn drives(spec: &Spec) -> Section {
    let mut sec = Section::new("Drives");
    if spec.drives.is_empty() {
        sec.field("Drives", "none found".into());
        return sec;
    }
    sec.grids.push(rows::drive_grid(&spec.drives));
    sec
}

/// The network adapters: one row per card, then one per port.
pub fn network(spec: &Spec) -> Section {
    let mut sec = Section::new("Network");
    if spec.nics.is_empty() {
        let said = if spec.lists.nics == crate::spec::ListState::Read {
            "none found".to_string()
        } else {
            let why = spec
                .notes
                .iter()
                .find(|n| n.field == "nics")
                .map_or("not read", |n| n.reason.as_str());
            format!("unknown: {why}")
        };
        sec.field(names::NICS.label, said);
        return sec;
    }
    sec.grids.push(rows::nic_grid(&spec.nics));
    sec.grids.push(rows::port_grid(&spec.nics));
    sec
}

/// What the parts say of their own health: drives, memory, PCIe links, CPU throttling (the
/// GPUs' in their tables), with when it was read.
pub fn health(spec: &Spec) -> Section {
    let mut sec = Section::new("Health");
    if spec.health.is_none() {
        sec.field(
            "Health",
            "not read (a report from before rigcheck read health)".into(),
        );
        return sec;
    }
    sec.field("Read", show_str(&spec.captured_at));
    sec.field(names::HEALTH_MEMORY.label, rows::memory_errors(spec));
    sec.field(names::HEALTH_CPU.label, rows::cpu_throttling(spec));
    sec.grids.extend(rows::drive_health_grids(spec));
    sec.grids.extend(rows::edac_dimm_grid(spec));
    sec.grids.extend(rows::pcie_errors_grid(spec));
    sec
}

/// The GPU sections: one per model, so eight identical boards are one table. A model with
/// one board lists its facts; a model with several lists what they share as fields, then one
/// row per GPU for what differs (bus address, temperature, link, ...), then their UUIDs and
/// serial numbers.
fn gpus(spec: &Spec) -> Vec<Section> {
    if spec.gpus.is_empty() {
        let mut sec = Section::new("GPUs");
        sec.field("GPUs", "none found".into());
        return vec![sec];
    }
    // Grouped by model name, in the order the first of each model appears.
    let mut groups: Vec<(String, Vec<(usize, &Gpu)>)> = Vec::new();
    for (i, g) in spec.gpus.iter().enumerate() {
        let name = show_str(&g.shown_name());
        match groups.iter_mut().find(|(n, _)| *n == name) {
            Some((_, v)) => v.push((i, g)),
            None => groups.push((name, vec![(i, g)])),
        }
    }
    groups
        .into_iter()
        .map(|(name, members)| match members.as_slice() {
            [(i, g)] => gpu(spec, *i, g),
            _ => gpu_group(spec, &name, &members),
        })
        .collect()
}

/// A GPU's cell of `row`: what the row shows, but where the driver is known not to be
/// installed, its versions say so rather than unknown.
fn gpu_cell(spec: &Spec, row: &rows::Row<Gpu>, g: &Gpu) -> String {
    match crate::rules::driver_not_installed(spec, g) {
        Some(text) if row.label == rows::GPU_DRIVER => text.to_string(),
        _ => (row.cell)(g),
    }
}

/// One GPU: every fact a field.
fn gpu(spec: &Spec, i: usize, g: &Gpu) -> Section {
    let mut sec = Section::new(format!(
        "{} · {}",
        gpu_label(i, g),
        show_str(&g.shown_name())
    ));
    for f in rows::gpu_rows(&[g]) {
        sec.field(f.row.label, gpu_cell(spec, &f.row, g));
        // Each MIG instance right under the MIG mode.
        if f.row.label == names::GPU_MIG.label {
            sec.fields
                .extend(g.mig_instances.iter().map(gpu_figures::mig_row));
        }
    }
    sec
}

/// Several GPUs of one model: shared facts once, then a row per GPU for what differs.
fn gpu_group(spec: &Spec, name: &str, members: &[(usize, &Gpu)]) -> Section {
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
    for f in rows::gpu_rows(&gpus) {
        let values: Vec<String> = gpus.iter().map(|g| gpu_cell(spec, &f.row, g)).collect();
        let same = values.iter().all(|v| *v == values[0]);
        // Every board has its own bus address, even where the shown values agree.
        if same && f.row.label != names::GPU_PCI_ADDRESS.label {
            sec.field(f.row.label, values[0].clone());
        } else if f.kind == GpuKind::Identity {
            ids.header.push(f.row.column.to_string());
            id_cols.push(values);
        } else {
            each.header.push(f.row.column.to_string());
            each_cols.push(values);
        }
    }
    // MIG instances are a GPU's own: each under its GPU's number.
    for (n, g) in indices.iter().zip(&gpus) {
        for mig in &g.mig_instances {
            let (k, v) = gpu_figures::mig_row(mig);
            sec.field(&format!("GPU {n} {k}"), v);
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
        sec.field(names::HEADROOM.label, format!("unknown: {why}"));
        return sec;
    };
    headroom_sockets(&mut sec, h);
    headroom_memory(&mut sec, h);
    headroom_pcie(&mut sec, h);
    headroom_power(&mut sec, h, no_gpu(spec));
    sec
}

/// True when the GPU list was read to its end and holds none: GPU power limits are then no
/// sum at all, never 0 W.
fn no_gpu(spec: &Spec) -> bool {
    spec.gpus.is_empty() && spec.lists.gpus == crate::spec::ListState::Read
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
    sec.field(names::HEADROOM_SOCKETS.label, sockets);
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
            sec.field(names::HEADROOM_MAX_MEMORY.label, max_memory(m, &arrays));
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
            sec.field(names::HEADROOM_BALANCE.label, m.balance_detail.clone());
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

/// The most memory the machine takes, the binding limit first: `2 TiB (CPUs: 2 × 1 TiB,
/// Intel ARK: 2nd gen Xeon Scalable; board: 4.5 TiB)`; with the CPUs' limit unknown, the
/// board's arrays and a word that the CPUs' own limit is not known.
fn max_memory(m: &crate::spec::MemoryHeadroom, arrays: &[String]) -> String {
    let Some(board) = m.max_capacity_bytes else {
        return show_str(&None);
    };
    let board_s = format!("board: {}", bytes_bin(board));
    let (Some(total), Some(one)) = (
        m.cpu_max_capacity_bytes,
        m.cpu_max_capacity_per_socket_bytes,
    ) else {
        return format!(
            "{} ({}; the CPUs' own limit is not known)",
            bytes_bin(board),
            arrays.join("; ")
        );
    };
    let n = total / one.max(1);
    let source = m
        .cpu_max_capacity_source
        .as_deref()
        .map(|s| format!(", {s}"))
        .unwrap_or_default();
    let cpus_s = format!("CPUs: {n} × {}{source}", bytes_bin(one));
    if total < board {
        format!("{} ({cpus_s}; {board_s})", bytes_bin(total))
    } else {
        format!("{} ({board_s}; {cpus_s})", bytes_bin(board))
    }
}

/// Expansion slots and what sits in them.
fn headroom_pcie(sec: &mut Section, h: &Headroom) {
    match &h.pcie_slots {
        Some(slots) => {
            sec.field(
                names::HEADROOM_FREE_X16_SLOTS.label,
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
            sec.field(names::HEADROOM_PCIE_SLOTS.label, show_str(&None));
        }
    }
}

/// Power supplies next to the GPUs' power limits; with no GPU, no limits and no headroom
/// against them.
fn headroom_power(sec: &mut Section, h: &Headroom, no_gpu: bool) {
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
    sec.field(names::HEADROOM_POWER_SUPPLIES.label, supplies)
        .field("PSU capacity", show(p.capacity_w, |w| format!("{w} W")));
    if no_gpu {
        sec.field("GPU power limits", "no GPU".into());
        return;
    }
    sec.field(
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
