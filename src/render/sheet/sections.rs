//! The sheet's sections, shared by the Markdown and HTML sheets: title, byline, the summary
//! at the top, and the detail sections (system, CPUs, every DIMM slot, GPUs, drives,
//! headroom, notes). Which rows each shows is chosen here; how a fact reads is `rows`'s,
//! as in the inventory report.

use super::topology::{Slot, Topology};
use crate::render::glance::gpu_label;
pub use crate::render::glance::{glance, heading};
use crate::render::layout::{Grid, Section};
use crate::render::notes::{in_words, Kind};
use crate::render::report;
use crate::render::rows::{self, add_fields, GpuKind, SlotRow};
use crate::render::unknown::show_str;
use crate::spec::{Gpu, Spec};

/// The line under the title: host, capture time, rigcheck version.
pub fn byline(spec: &Spec) -> String {
    let line = format!(
        "Host {} · captured {} · rigcheck {}",
        show_str(&spec.hostname),
        spec.captured_at
            .as_deref()
            .unwrap_or("at an unrecorded time"),
        spec.rigcheck_version
    );
    crate::text::one_line(&line).into_owned()
}

fn system_section(spec: &Spec) -> Section {
    let mut sec = Section::new("System and BIOS");
    add_fields(
        &mut sec,
        spec,
        &[
            &rows::SYSTEM_VENDOR,
            &rows::PRODUCT,
            &rows::VERSION,
            &rows::SKU,
            &rows::SERIAL,
            &rows::UUID,
            &rows::BOARD,
            &rows::CHASSIS,
            &rows::BIOS_VENDOR,
            &rows::BIOS_VERSION,
            &rows::BIOS_DATE,
            &rows::VIRTUAL_MACHINE,
            &rows::OS,
            &rows::KERNEL,
            &rows::ARCH,
            &rows::HOST,
            &rows::CAPTURED,
            &rows::SOURCE,
        ],
    );
    sec
}

/// Memory, with every slot the firmware lists (empty ones too), by socket where there are
/// several.
fn memory_section(spec: &Spec, topo: &Topology) -> Section {
    let mut sec = Section::new("Memory");
    add_fields(
        &mut sec,
        spec,
        &[
            &rows::INSTALLED,
            &rows::USABLE,
            &rows::USABLE_WINDOWS,
            &rows::DIMM_SLOTS,
        ],
    );
    let slots = topo
        .sockets
        .iter()
        .flat_map(|sock| {
            sock.slots
                .iter()
                .map(|s| slot_row(sock.index.to_string(), s))
        })
        .chain(
            topo.unassigned_slots
                .iter()
                .map(|s| slot_row("?".into(), s)),
        );
    sec.grids.extend(rows::dimm_grid(slots, topo.multi_socket));
    sec
}

fn slot_row(socket: String, s: &Slot) -> SlotRow<'_> {
    SlotRow {
        socket,
        locator: &s.locator,
        dimm: s.dimm.as_ref(),
    }
}

/// The GPUs side by side, one column each: the board's facts as the report names them,
/// without its live state.
fn gpu_section(spec: &Spec) -> Section {
    let mut sec = Section::new("GPUs");
    if spec.gpus.is_empty() {
        sec.field("GPUs", "none found".into());
        return sec;
    }
    let mut grid = Grid::new(&[""]);
    grid.header
        .extend(spec.gpus.iter().enumerate().map(|(i, g)| gpu_label(i, g)));
    let all: Vec<&Gpu> = spec.gpus.iter().collect();
    let facts = rows::gpu_rows(&all);
    let shown = std::iter::once(&rows::GPU_NAME).chain(
        facts
            .iter()
            .filter(|f| f.kind != GpuKind::State)
            .map(|f| &f.row),
    );
    for r in shown {
        let mut cells = vec![r.label.to_string()];
        cells.extend(
            spec.gpus
                .iter()
                .map(|g| match crate::rules::driver_not_installed(spec, g) {
                    Some(text) if r.label == rows::GPU_DRIVER => text.to_string(),
                    _ => (r.cell)(g),
                }),
        );
        grid.rows.push(cells);
    }
    sec.grids.push(grid);
    sec
}

/// The detail sections in reading order: system, CPUs, memory, GPUs, drives, network
/// adapters, and headroom when the SMBIOS tables were read.
pub fn detail_sections(spec: &Spec, topo: &Topology) -> Vec<Section> {
    let mut out = vec![
        system_section(spec),
        crate::render::report::cpu_section(spec, "CPUs", crate::render::report::CpuDetail::Sheet),
        memory_section(spec, topo),
        gpu_section(spec),
        report::drives(spec),
        report::network(spec),
        // With the date it was read: a drive's hours and a controller's counts are of then.
        report::health(spec),
    ];
    // Only with SMBIOS data: an all-unknown headroom says nothing a colleague can use.
    if spec.headroom.is_some() {
        out.push(report::headroom(spec));
    }
    // Only where the report carries `rigcheck bench`: the figures of the day they were
    // measured (on delivery, the ones a later report is compared with).
    if let Some(m) = measured_section(spec) {
        out.push(m);
    }
    out
}

/// What the report's benchmarks measured, with the date, each beside its part's rated
/// figure where that is known.
fn measured_section(spec: &Spec) -> Option<Section> {
    use crate::units::fmt_rate;
    let b = spec.bench.as_ref()?;
    let mut sec = Section::new("Measured");
    sec.field(
        "Measured on",
        spec.captured_at
            .as_deref()
            .map_or("an unrecorded date".into(), |t| {
                t.chars().take(10).collect()
            }),
    );
    let share = |v: f64, peak: Option<f64>, show: &dyn Fn(f64) -> String| match peak {
        Some(p) if p > 0.0 => format!(" ({:.0} % of {})", 100.0 * v / p, show(p)),
        _ => String::new(),
    };
    let rate = |v: f64| fmt_rate(v, "B/s");
    if let Some(m) = &b.memory {
        let peak = m.peak_bytes_per_s.map(|p| p as f64);
        for kernel in ["copy", "triad"] {
            if let Some(r) = m
                .results
                .iter()
                .filter(|r| r.kernel == kernel)
                .max_by_key(|r| r.threads)
            {
                sec.field(
                    &format!("Memory {kernel} (STREAM)"),
                    format!(
                        "{}, {} threads{}",
                        rate(r.bytes_per_s),
                        r.threads,
                        share(r.bytes_per_s, peak, &rate)
                    ),
                );
            }
        }
    }
    if let Some(d) = &b.disk {
        sec.field(
            "Disk read (direct I/O)",
            format!(
                "{}, {}{}",
                rate(d.bytes_per_s),
                d.drive.as_deref().unwrap_or(&d.path),
                share(d.bytes_per_s, d.link_bytes_per_s.map(|l| l as f64), &rate)
            ),
        );
    }
    if let Some(g) = &b.gpu {
        let tf = |v: f64| format!("{v:.1} TFLOPS");
        for m in &g.per_gpu {
            for (what, v, peak) in [
                ("FP32", m.fp32_tflops, m.fp32_peak_tflops),
                ("FP16 tensor", m.fp16_tflops, m.fp16_peak_tflops),
            ] {
                if let Some(v) = v {
                    sec.field(
                        &format!("GPU {} {what}", m.cuda_index),
                        format!("{}{}", tf(v), share(v, peak, &tf)),
                    );
                }
            }
        }
    }
    if let Some(c) = &b.cpu {
        if let Some(p) = c.points.iter().max_by_key(|p| p.threads) {
            sec.field(
                "Data loader",
                format!("{:.0} images/s, {} threads", p.images_per_s, p.threads),
            );
        }
    }
    Some(sec)
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
