//! "At a glance": the summary that opens the inventory and the spec sheet. One line per part,
//! the way a quote lists a machine, then the few facts that need a look (a GPU on fewer PCIe
//! lanes than it has, clocks held down by heat, uncorrected ECC errors, unbalanced memory,
//! offline CPUs).
//!
//! It paints what it is given: the facts that need a look are found by preflight's rules
//! (`rules::attention`), so the Attention line and preflight say the same.

use crate::render::layout::Section;
use crate::render::unknown::{show, show_str};
use crate::rules::Finding;
use crate::spec::{Dimm, DriveKind, Gpu, Spec};
use crate::units::{bytes_bin, bytes_dec};

/// The machine's name: `HP Z8 G4 Workstation` (a vendor already in the product is not
/// repeated), `KVM virtual machine` for a guest without DMI tables, or
/// `Unidentified machine`.
pub fn heading(spec: &Spec) -> String {
    let s = &spec.system;
    let h = match (&s.vendor, &s.product) {
        (Some(v), Some(p)) if p.to_lowercase().starts_with(&v.to_lowercase()) => p.clone(),
        (Some(v), Some(p)) => format!("{v} {p}"),
        (None, Some(p)) => p.clone(),
        (Some(v), None) => v.clone(),
        // A guest without DMI tables still says whose hypervisor it runs on.
        (None, None) => match &s.virtualization {
            Some(h) => format!("{h} virtual machine"),
            None => "Unidentified machine".into(),
        },
    };
    crate::text::one_line(&h).into_owned()
}

/// `2 × 8 GiB DDR4, 16 GiB DDR4`: equal items counted, in the order first seen.
pub fn count_label<I: IntoIterator<Item = String>>(items: I) -> String {
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

/// The summary at the top: one line per part, then what needs a look (`attention`).
pub fn glance(spec: &Spec, attention: &[Finding]) -> Section {
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
    let mut cpu = match c.sockets {
        Some(n) if n > 1 => format!("{n} × {model}"),
        _ => model,
    };
    if let Some(u) = &c.microarchitecture {
        cpu.push_str(&format!(" · {u}"));
    }
    let ct = match (c.cores, c.threads) {
        (Some(a), Some(b)) => format!(" · {a} cores / {b} threads"),
        (Some(a), None) => format!(" · {a} cores"),
        (None, Some(b)) => format!(" · {b} threads"),
        (None, None) => String::new(),
    };
    f.push(("CPU".into(), format!("{cpu}{ct}{}", clock_now(spec))));
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
    f.push(("GPUs".into(), gpus(spec)));
    f.push(("Network".into(), nics(spec)));
    let drives = if spec.drives.is_empty() {
        "none found".to_string()
    } else {
        count_label(spec.drives.iter().map(|d| {
            let kind = match d.kind {
                Some(DriveKind::Nvme) => "NVMe",
                Some(DriveKind::Ssd) => "SSD",
                Some(DriveKind::Hdd) => "HDD",
                Some(DriveKind::Virtual) => "virtual disk",
                // Kind not known (a Windows disk whose bus says nothing of its medium).
                None => "drive",
            };
            format!("{} {kind}", show(d.size_bytes, bytes_dec))
        }))
    };
    f.push(("Storage".into(), drives));
    // The parts' own health, each part's word as the health rules give it; what to do is
    // under Attention.
    f.push(("Health".into(), crate::rules::health::summary(spec)));
    let os = &spec.os;
    let name = show_str(&os.pretty_name.clone().or_else(|| os.name.clone()));
    let os_s = match &os.kernel {
        // Windows has no kernel release to show: its release and build say it.
        Some(k) if crate::spec::windows::is_windows(os) => crate::spec::windows::os_shown(&name, k),
        Some(k) => format!("{name} · kernel {k}"),
        None => name,
    };
    f.push(("OS".into(), os_s));
    f.push(("Captured".into(), show_str(&spec.captured_at)));
    for (i, a) in attention.iter().enumerate() {
        let key = if i == 0 { "Attention" } else { "" };
        f.push((key.into(), a.says.clone()));
    }
    let mut sec = Section::new("At a glance");
    for (k, v) in f {
        sec.field(&k, v);
    }
    sec
}

/// `2 × Quadro RTX 6000 (24 GiB) · 32.6 TFLOPS FP32 in all`, or `none`.
fn gpus(spec: &Spec) -> String {
    if spec.gpus.is_empty() {
        return "none".to_string();
    }
    let mut s = count_label(spec.gpus.iter().map(|g| {
        let name = g
            .name
            .clone()
            .or_else(|| g.candidates_name())
            .unwrap_or_else(|| format!("{} GPU", g.vendor.as_str()));
        match g.vram_bytes {
            Some(v) => format!("{name} ({})", bytes_bin(v)),
            None => name,
        }
    }));
    let tf: Option<f64> = spec.gpus.iter().map(|g| g.fp32_tflops).sum();
    if let (Some(t), true) = (tf, spec.gpus.len() > 1) {
        s.push_str(&format!(" · {t:.1} TFLOPS FP32 in all"));
    }
    // Without a driver the figures are the product table's, as the GPU section marks them.
    if spec
        .gpus
        .iter()
        .any(|g| g.index.is_none() && g.any_from_datasheet())
    {
        s.push_str(" (datasheet: no NVIDIA driver)");
    }
    s
}

/// ` · 2445 MHz now`, or ` · 1200–3100 MHz now (avg 2445)` where the CPUs differ.
fn clock_now(spec: &Spec) -> String {
    match &spec.cpu.current_mhz {
        Some(n) if n.min_mhz == n.max_mhz => format!(" · {} MHz now", n.avg_mhz),
        Some(n) => format!(" · {}–{} MHz now (avg {})", n.min_mhz, n.max_mhz, n.avg_mhz),
        None => String::new(),
    }
}

/// `2 × Ethernet Controller X710 for 10GbE SFP+ (2 × 10 Gb/s)`, `none`, or `unknown`.
fn nics(spec: &Spec) -> String {
    if spec.nics.is_empty() {
        return if spec.lists.nics == crate::spec::ListState::Read {
            "none".to_string()
        } else {
            "unknown".to_string()
        };
    }
    count_label(spec.nics.iter().map(|n| {
        let name = n
            .board
            .clone()
            .or_else(|| n.name.clone())
            .unwrap_or_else(|| "network adapter".into());
        let ports = n.ports.len();
        let speed = match (n.max_speed_mbps, n.is_virtual) {
            (Some(m), _) if n.max_speed_source.as_deref() == Some("link") => {
                format!("≥ {}", crate::units::link_speed(m))
            }
            (Some(m), _) => crate::units::link_speed(m),
            (None, true) => "virtual".to_string(),
            (None, false) => "speed unknown".to_string(),
        };
        if ports > 1 {
            format!("{name} ({ports} × {speed})")
        } else {
            format!("{name} ({speed})")
        }
    }))
}

/// `GPU 0`, by the index NVML gave it, else its place in the list.
pub fn gpu_label(i: usize, g: &Gpu) -> String {
    format!("GPU {}", g.index.unwrap_or(i as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_equal_items() {
        assert_eq!(
            count_label(["a".to_string(), "b".into(), "a".into()]),
            "2 × a, b"
        );
    }
}
