//! The machine diagram: an SVG drawn from a `Topology`, the way lstopo draws a machine but
//! meant to be read at a glance and printed. One column per CPU socket: its DIMM slots on
//! top (filled or empty), the package with its NUMA nodes and cores, and the GPUs and NVMe
//! drives below on PCIe branches whose thickness follows the lane count. All text is escaped.

use super::sections::heading;
use super::topology::{filled, Device, DeviceKind, NodeTopo, Slot, SocketTopo, Topology};
use crate::spec::Spec;
use crate::text::escape_markup as escape;
use crate::units::bytes_bin;

const MARGIN: f64 = 16.0;
const GAP: f64 = 56.0;
const STICK_H: f64 = 96.0;
const STICK_GAP: f64 = 4.0;
const MIN_STICK_W: f64 = 20.0;
const MAX_STICK_W: f64 = 34.0;
const CORE: f64 = 16.0;
const CORE_GAP: f64 = 4.0;
const TRUNK_X: f64 = 22.0;
const DEV_X: f64 = 118.0;
const LINE: f64 = 16.0;

const INK: &str = "#1f2933";
const MUTED: &str = "#616e7c";
const DIMM_FILL: &str = "#2f7d57";
const GPU_FILL: &str = "#e6f0fb";
const GPU_STROKE: &str = "#2b6cb0";
const DRIVE_FILL: &str = "#f1f3f5";
const DRIVE_STROKE: &str = "#5f6b7a";
const WARN: &str = "#c05621";

/// Renders the topology of `spec` as a standalone `<svg>` element.
pub fn svg(spec: &Spec, topo: &Topology) -> String {
    let columns = topo.sockets.len().max(1);
    let col_w = if columns <= 1 { 640.0 } else { 500.0 };
    let width = MARGIN * 2.0 + col_w * columns as f64 + GAP * (columns as f64 - 1.0);

    // Shared rows, so packages line up across sockets and the socket link is straight.
    let slots_h = topo
        .sockets
        .iter()
        .map(|s| slots_height(s.slots.len(), col_w))
        .fold(0.0, f64::max);
    let pkg_h = topo
        .sockets
        .iter()
        .map(|s| package_height(s, col_w))
        .fold(48.0, f64::max);

    let mut body = String::new();
    let top = MARGIN;
    let pkg_y = top + slots_h;
    let mut bottom: f64 = pkg_y + pkg_h;
    for (i, s) in topo.sockets.iter().enumerate() {
        let x = MARGIN + i as f64 * (col_w + GAP);
        if !s.slots.is_empty() {
            body.push_str(&slot_row(
                &s.slots,
                x,
                top,
                col_w,
                &format!("Socket {} memory", s.index),
            ));
        }
        body.push_str(&package(s, x, pkg_y, col_w, pkg_h));
        let (d, end) = devices(&s.devices, x, pkg_y + pkg_h, col_w, false);
        body.push_str(&d);
        bottom = bottom.max(end);
    }
    if topo.multi_socket {
        for i in 1..topo.sockets.len() {
            let x1 = MARGIN + i as f64 * (col_w + GAP) - GAP;
            let x2 = x1 + GAP;
            let y = pkg_y + 30.0;
            body.push_str(&format!(
                r##"<line x1="{x1}" y1="{y}" x2="{x2}" y2="{y}" stroke="{INK}" stroke-width="4"/><text x="{}" y="{}" font-size="10" text-anchor="middle" fill="{MUTED}">socket</text><text x="{}" y="{}" font-size="10" text-anchor="middle" fill="{MUTED}">link</text>"##,
                (x1 + x2) / 2.0,
                y - 16.0,
                (x1 + x2) / 2.0,
                y - 6.0,
            ));
        }
    }
    // Devices with no known socket go in a dashed group under the sockets, never guessed
    // onto one of them.
    if !topo.unplaced_devices.is_empty() {
        let x = MARGIN;
        let y = bottom + 24.0;
        let h = 44.0;
        body.push_str(&format!(
            r##"<rect x="{x}" y="{y}" width="{col_w}" height="{h}" rx="8" fill="#fff" stroke="{MUTED}" stroke-dasharray="6 4"/><text x="{}" y="{}" font-size="14" font-weight="700" fill="{INK}">Socket unknown</text><text x="{}" y="{}" font-size="12" fill="{MUTED}">The kernel reported no NUMA node for these devices</text>"##,
            x + 12.0,
            y + 19.0,
            x + 12.0,
            y + 36.0,
        ));
        let (d, end) = devices(&topo.unplaced_devices, x, y + h, col_w, true);
        body.push_str(&d);
        bottom = bottom.max(end);
    }
    if !topo.unassigned_slots.is_empty() {
        let y = bottom + 24.0;
        let w = width - 2.0 * MARGIN;
        body.push_str(&slot_row(
            &topo.unassigned_slots,
            MARGIN,
            y,
            w,
            "Memory slots whose locator names no socket",
        ));
        bottom = y + slots_height(topo.unassigned_slots.len(), w);
    }
    let (legend, legend_h) = legend(spec, topo, MARGIN, bottom + 22.0, width - 2.0 * MARGIN);
    body.push_str(&legend);
    let height = bottom + 22.0 + legend_h;

    let title = format!("Topology of {}", heading(spec));
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" class="topology" role="img" aria-labelledby="topo-title" viewBox="0 0 {width} {height}" width="{width}" height="{height}" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"><title id="topo-title">{}</title>{body}</svg>"##,
        escape(&title)
    )
}

/// Trims `text` to about what fits in `px` at `font` px (average glyph ≈ 0.58 em).
fn fit(text: &str, px: f64, font: f64) -> String {
    let max = ((px / (font * 0.58)).floor() as usize).max(4);
    let n = text.chars().count();
    if n <= max {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(max - 1).collect();
        s.push('…');
        s
    }
}

fn per_row(n: usize, w: f64) -> usize {
    let fit = ((w + STICK_GAP) / (MIN_STICK_W + STICK_GAP)).floor() as usize;
    n.min(fit.max(1))
}

fn slots_height(n: usize, w: f64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let rows = n.div_ceil(per_row(n, w));
    22.0 + rows as f64 * (STICK_H + 6.0) + 12.0
}

/// A row (or rows) of DIMM sticks with a heading: filled sticks solid, empty ones dashed.
fn slot_row(slots: &[Slot], x: f64, y: f64, w: f64, label: &str) -> String {
    let (count, total) = filled(slots);
    let mut out = format!(
        r##"<text x="{x}" y="{}" font-size="13" fill="{INK}"><tspan font-weight="600">{}</tspan> · {} of {} slots filled · {}</text>"##,
        y + 13.0,
        escape(label),
        count,
        slots.len(),
        escape(&total)
    );
    let per = per_row(slots.len(), w);
    let sw = ((w + STICK_GAP) / per as f64 - STICK_GAP).min(MAX_STICK_W);
    let two_lines = sw >= 26.0;
    for (i, s) in slots.iter().enumerate() {
        let sx = x + (i % per) as f64 * (sw + STICK_GAP);
        let sy = y + 22.0 + (i / per) as f64 * (STICK_H + 6.0);
        let cx = sx + sw / 2.0;
        let bottom = sy + STICK_H - 6.0;
        let size = s
            .dimm
            .as_ref()
            .map(|d| d.size_bytes.map_or_else(|| "?".to_string(), bytes_bin));
        let tip = match &s.dimm {
            Some(d) => format!(
                "{}: {}{}{}",
                s.locator,
                size.clone().unwrap_or_default(),
                d.kind.as_ref().map(|k| format!(" {k}")).unwrap_or_default(),
                d.speed_mts
                    .map(|v| format!(" {v} MT/s"))
                    .unwrap_or_default()
            ),
            None => format!("{}: empty", s.locator),
        };
        let (fill, stroke, dash, ink) = match s.dimm {
            Some(_) => (DIMM_FILL, DIMM_FILL, "", "#fff"),
            None => ("#fff", "#9aa5b1", r#" stroke-dasharray="4 3""#, MUTED),
        };
        out.push_str(&format!(
            r##"<g><title>{}</title><rect x="{sx}" y="{sy}" width="{sw}" height="{STICK_H}" rx="3" fill="{fill}" stroke="{stroke}"{dash}/>"##,
            escape(&tip)
        ));
        let what = size.unwrap_or_else(|| "empty".into());
        let room = STICK_H - 12.0;
        if two_lines {
            out.push_str(&format!(
                r##"<text transform="translate({},{bottom}) rotate(-90)" font-size="10" font-weight="600" fill="{ink}">{}</text><text transform="translate({},{bottom}) rotate(-90)" font-size="10" fill="{ink}">{}</text>"##,
                cx - 2.0,
                escape(&fit(&s.short, room, 10.0)),
                cx + 10.0,
                escape(&what)
            ));
        } else {
            out.push_str(&format!(
                r##"<text transform="translate({},{bottom}) rotate(-90)" font-size="9" fill="{ink}">{}</text>"##,
                cx + 3.5,
                escape(&fit(&format!("{} {what}", s.short), room, 9.0))
            ));
        }
        out.push_str("</g>");
    }
    out
}

fn node_cores(s: &SocketTopo) -> Option<u32> {
    // One square per core; a count past this (from a damaged or hostile report) would make
    // gigabytes of SVG, so such a node is drawn without its core grid.
    const MAX_DRAWN: u32 = 4096;
    let k = s.nodes.len().max(1) as u32;
    s.cores
        .filter(|c| c % k == 0)
        .map(|c| c / k)
        .filter(|&c| c <= MAX_DRAWN)
}

fn core_grid(cores: u32, w: f64) -> (usize, usize) {
    let cores = cores as usize;
    let max_cols = (((w + CORE_GAP) / (CORE + CORE_GAP)).floor() as usize).max(1);
    let rows = cores.div_ceil(max_cols).max(1);
    (cores.div_ceil(rows), rows)
}

fn node_height(s: &SocketTopo, w: f64) -> f64 {
    let rows = node_cores(s).map_or(0, |c| core_grid(c, w - 20.0).1);
    30.0 + rows as f64 * (CORE + CORE_GAP) + 6.0
}

fn package_height(s: &SocketTopo, w: f64) -> f64 {
    let nodes = s.nodes.len().max(1) as f64;
    48.0 + nodes * (node_height(s, w - 20.0) + 8.0) + 2.0
}

/// Shortens a marketing CPU name for the package box: `Intel(R) Xeon(R) Gold 6254 CPU @
/// 3.10GHz` → `Intel Xeon Gold 6254`.
pub fn short_model(model: &str) -> String {
    let m = model.split(" @ ").next().unwrap_or(model);
    let m = m.replace("(R)", "").replace("(TM)", "").replace("(tm)", "");
    let words: Vec<&str> = m
        .split_whitespace()
        .filter(|w| *w != "CPU" && *w != "Processor")
        .collect();
    words.join(" ")
}

/// The CPU package: socket title, model, counts, then one box per NUMA node with its cores.
fn package(s: &SocketTopo, x: f64, y: f64, w: f64, h: f64) -> String {
    let model = s.model.as_deref().map(short_model).unwrap_or_default();
    let mut counts = Vec::new();
    if let Some(c) = s.cores {
        counts.push(format!("{c} cores"));
    }
    if let Some(t) = s.threads {
        counts.push(format!("{t} threads"));
    }
    if counts.is_empty() {
        counts.push("core count unknown".into());
    }
    let mut out = format!(
        r##"<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="8" fill="#f7f9fb" stroke="{INK}" stroke-width="1.5"/><text x="{}" y="{}" font-size="14" fill="{INK}"><tspan font-weight="700">Socket {}</tspan><tspan fill="{MUTED}"> · </tspan>{}</text><text x="{}" y="{}" font-size="11" fill="{MUTED}">{}</text>"##,
        x + 12.0,
        y + 20.0,
        s.index,
        escape(&fit(&model, w - 110.0, 14.0)),
        x + 12.0,
        y + 37.0,
        escape(&counts.join(" · ")),
    );
    let nw = w - 20.0;
    let nh = node_height(s, nw);
    let per_node = node_cores(s);
    let nodes: Vec<Option<&NodeTopo>> = if s.nodes.is_empty() {
        vec![None]
    } else {
        s.nodes.iter().map(Some).collect()
    };
    for (k, nd) in nodes.iter().enumerate() {
        let nx = x + 10.0;
        let ny = y + 48.0 + k as f64 * (nh + 8.0);
        let label = match nd {
            Some(nd) => {
                let mut l = format!("NUMA node {} · CPUs {}", nd.id, nd.cpus);
                if let Some(b) = nd.memory_bytes {
                    l.push_str(&format!(" · {}", bytes_bin(b)));
                }
                l
            }
            None => "NUMA node not reported".into(),
        };
        out.push_str(&format!(
            r##"<rect x="{nx}" y="{ny}" width="{nw}" height="{nh}" rx="5" fill="#fff" stroke="#9aa5b1"/><text x="{}" y="{}" font-size="12" fill="{INK}">{}</text>"##,
            nx + 8.0,
            ny + 17.0,
            escape(&fit(&label, nw - 16.0, 12.0))
        ));
        if let Some(c) = per_node {
            let (cols, _) = core_grid(c, nw - 20.0);
            for i in 0..c as usize {
                let cx = nx + 10.0 + (i % cols) as f64 * (CORE + CORE_GAP);
                let cy = ny + 28.0 + (i / cols) as f64 * (CORE + CORE_GAP);
                out.push_str(&format!(
                    r##"<rect x="{cx}" y="{cy}" width="{CORE}" height="{CORE}" rx="2" fill="#d9e2ec" stroke="#829ab1"/>"##
                ));
            }
        }
    }
    out
}

/// PCIe devices hanging off a trunk below the package; returns them and the y where they end.
fn devices(devs: &[Device], x: f64, y: f64, w: f64, unknown: bool) -> (String, f64) {
    let trunk_x = x + TRUNK_X;
    if devs.is_empty() {
        return (String::new(), y);
    }
    let mut out = String::new();
    let mut dy = y + 18.0;
    let mut last_mid = dy;
    let dash = if unknown {
        r#" stroke-dasharray="6 4""#
    } else {
        ""
    };
    let mut boxes = String::new();
    for d in devs {
        let bh = 24.0 + d.lines.len() as f64 * LINE;
        let bx = x + DEV_X;
        let bw = w - DEV_X;
        let mid = dy + 18.0;
        last_mid = mid;
        let lanes = d.lanes.unwrap_or(1).max(1) as f64;
        let sw = 1.0 + lanes.log2();
        let color = if d.degraded { WARN } else { INK };
        let (fill, stroke) = match d.kind {
            DeviceKind::Gpu => (GPU_FILL, GPU_STROKE),
            DeviceKind::Drive => (DRIVE_FILL, DRIVE_STROKE),
        };
        boxes.push_str(&format!(
            r##"<line x1="{trunk_x}" y1="{mid}" x2="{bx}" y2="{mid}" stroke="{color}" stroke-width="{sw}"{dash}/><text x="{}" y="{}" font-size="11" fill="{color}">{}</text>"##,
            trunk_x + 8.0,
            mid - 5.0 - sw / 2.0,
            escape(&d.link)
        ));
        boxes.push_str(&format!(
            r##"<rect x="{bx}" y="{dy}" width="{bw}" height="{bh}" rx="6" fill="{fill}" stroke="{stroke}"/><text x="{}" y="{}" font-size="13" font-weight="600" fill="{INK}">{}</text>"##,
            bx + 10.0,
            dy + 17.0,
            escape(&fit(&d.title, bw - 20.0, 13.0))
        ));
        for (k, l) in d.lines.iter().enumerate() {
            boxes.push_str(&format!(
                r##"<text x="{}" y="{}" font-size="12" fill="{INK}">{}</text>"##,
                bx + 10.0,
                dy + 17.0 + (k + 1) as f64 * LINE,
                escape(&fit(l, bw - 20.0, 12.0))
            ));
        }
        dy += bh + 10.0;
    }
    out.push_str(&format!(
        r##"<line x1="{trunk_x}" y1="{y}" x2="{trunk_x}" y2="{last_mid}" stroke="{INK}" stroke-width="2"{dash}/>"##
    ));
    out.push_str(&boxes);
    (out, dy)
}

/// The key under the diagram, only for what it shows; wraps onto more lines when narrow.
/// Returns the SVG and its height.
fn legend(spec: &Spec, topo: &Topology, x: f64, y: f64, w: f64) -> (String, f64) {
    let all_slots = topo
        .sockets
        .iter()
        .flat_map(|s| s.slots.iter())
        .chain(topo.unassigned_slots.iter());
    let (mut filled, mut empty) = (false, false);
    for s in all_slots {
        filled |= s.dimm.is_some();
        empty |= s.dimm.is_none();
    }
    let any_drive = topo
        .sockets
        .iter()
        .flat_map(|s| s.devices.iter())
        .chain(topo.unplaced_devices.iter())
        .any(|d| d.kind == DeviceKind::Drive);
    // (fill, stroke, dash, label)
    let mut items: Vec<(&str, &str, &str, &str)> = Vec::new();
    if filled {
        items.push((DIMM_FILL, DIMM_FILL, "", "DIMM installed"));
    }
    if empty {
        items.push(("#fff", "#9aa5b1", "3 2", "empty slot"));
    }
    items.push(("#d9e2ec", "#829ab1", "", "one core"));
    if !spec.gpus.is_empty() {
        items.push((GPU_FILL, GPU_STROKE, "", "GPU"));
    }
    if any_drive {
        items.push((DRIVE_FILL, DRIVE_STROKE, "", "NVMe drive"));
    }
    let link = if topo.unplaced_devices.is_empty() {
        "PCIe link, thicker = more lanes"
    } else {
        "PCIe link, thicker = more lanes, dashed = socket unknown"
    };
    let mut out = String::new();
    let (mut lx, mut ly) = (x, y);
    let mut place = |label: &str, out: &mut String| -> (f64, f64) {
        let need = 18.0 + label.chars().count() as f64 * 6.2 + 16.0;
        if lx > x && lx + need > x + w {
            lx = x;
            ly += 18.0;
        }
        let at = (lx, ly);
        out.push_str(&format!(
            r##"<text x="{}" y="{}" font-size="11" fill="{MUTED}">{}</text>"##,
            lx + 18.0,
            ly + 4.0,
            escape(label)
        ));
        lx += need;
        at
    };
    for (fill, stroke, dash, label) in items {
        let (sx, sy) = place(label, &mut out);
        let dash = if dash.is_empty() {
            String::new()
        } else {
            format!(r#" stroke-dasharray="{dash}""#)
        };
        out.push_str(&format!(
            r##"<rect x="{sx}" y="{}" width="12" height="12" rx="2" fill="{fill}" stroke="{stroke}"{dash}/>"##,
            sy - 6.0
        ));
    }
    let (sx, sy) = place(link, &mut out);
    out.push_str(&format!(
        r##"<line x1="{sx}" y1="{sy}" x2="{}" y2="{sy}" stroke="{INK}" stroke-width="5"/>"##,
        sx + 12.0
    ));
    (out, ly - y + 16.0)
}
