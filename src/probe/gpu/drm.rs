//! AMD and Intel GPUs from the kernel's drm drivers (amdgpu, i915, xe) as sysfs shows them
//! on the GPU's PCI function (`/sys/class/drm/cardN/device` is that function): memory,
//! busy percentage, shader clocks, VBIOS, and the name pci.ids gives the PCI id. Where no
//! driver is bound, the PCI id and the name alone.
//!
//! CUDA and Tensor cores, SMs, compute capability and the TFLOPS derived from them are
//! NVIDIA's: left `null` on these GPUs, with a note saying so.

use crate::probe::gpu::pci::PciGpu;
use crate::probe::pci::PCI_DEVICES;
use crate::probe::pci_names;
use crate::source::Source;
use crate::spec::{Gpu, GpuDrm, GpuIdentity, GpuVendor, Notes};

/// The GPU at `p` (an AMD or Intel function), listed as `gpus[i]`; `host_ids` is the host's
/// pci.ids where one was read.
pub fn gpu(src: &Source, p: PciGpu, i: usize, host_ids: Option<&str>, notes: &mut Notes) -> Gpu {
    let base = format!("{PCI_DEVICES}/{}", p.address);
    let pci_vendor = match p.vendor {
        GpuVendor::Amd => 0x1002,
        GpuVendor::Intel => 0x8086,
        GpuVendor::Nvidia => 0x10de,
    };
    let mut g = Gpu {
        vendor: p.vendor,
        pci_address: Some(p.address.clone()),
        pci_device_id: p.device_id.map(|d| format!("0x{d:04x}")),
        pcie: p.link.to_pcie(),
        numa_node: p.numa_node,
        local_cpus: p.local_cpulist.clone(),
        ..Gpu::default()
    };
    let field = |f: &str| format!("gpus[{i}].{f}");
    match p.device_id {
        Some(device) => {
            let sub = p.subsystem_vendor.zip(p.subsystem_device);
            let names = pci_names::lookup(host_ids, pci_vendor, device, sub);
            name_from(&mut g, &names, pci_vendor, device, i, notes);
            g.architecture = names.device.as_deref().and_then(architecture);
            if g.architecture.is_none() {
                notes.add(
                    field("architecture"),
                    format!(
                        "unknown: the chip pci.ids names ({}) is not in rigcheck's table of AMD \
                         and Intel GPU architectures",
                        names.device.as_deref().unwrap_or("none")
                    ),
                );
            }
        }
        None => notes.add(
            field("pci_device_id"),
            format!("{base}/device is not a PCI id: the GPU's model is unknown"),
        ),
    }
    let driver = src
        .read_link(format!("{base}/driver"))
        .ok()
        .and_then(|t| t.file_name().and_then(|n| n.to_str()).map(str::to_string));
    let mut drm = GpuDrm {
        driver: driver.clone(),
        revision: src.read_value(format!("{base}/revision")).ok(),
        ..GpuDrm::default()
    };
    let vendor = p.vendor.as_str();
    let nvidia_only = format!(
        "NVIDIA only: CUDA and Tensor cores, SMs and compute capability (and the TFLOPS derived \
         from them) are NVIDIA's; this is an {vendor} GPU"
    );
    for f in [
        "cuda_cores",
        "tensor_cores",
        "sm_count",
        "compute_capability",
        "fp32_tflops",
    ] {
        notes.add(field(f), &nvidia_only);
    }
    match driver.as_deref() {
        None => {
            notes.add(
                field("drm.driver"),
                "no driver is bound (amdgpu for AMD, i915 or xe for Intel): PCI id and name \
                 only; memory, clocks and use unknown until it is loaded",
            );
            notes.add(
                field("vram_bytes"),
                "unknown: no driver is bound to the GPU",
            );
        }
        Some("amdgpu") => amdgpu(src, &base, &mut g, &mut drm, i, notes),
        Some("i915") => i915(src, &base, &mut drm),
        Some("xe") => xe(src, &base, &mut g, &mut drm),
        Some(other) => notes.add(
            field("drm.driver"),
            format!("driver {other} is not one rigcheck reads (amdgpu, i915, xe)"),
        ),
    }
    if g.vram_bytes.is_none() && driver.is_some() {
        notes.add(
            field("vram_bytes"),
            match driver.as_deref() {
                Some("i915") => "unknown: i915 shows no memory size in sysfs (an integrated GPU \
                                 shares the system's memory)"
                    .to_string(),
                Some(d) => format!("unknown: {d} showed no memory size in sysfs"),
                None => String::new(),
            },
        );
    }
    if drm.max_core_clock_mhz.is_none() && driver.is_some() {
        notes.add(
            field("drm.max_core_clock_mhz"),
            "unknown: the driver lists no clock levels",
        );
    }
    g.drm = Some(drm);
    g
}

/// The name: the board pci.ids names by the subsystem, else the chip's line, unless that line
/// names several products (`Vega 10 XL/XT [Radeon RX Vega 56/64]`): the name is then unknown
/// and the products are the identity's candidates.
fn name_from(
    g: &mut Gpu,
    names: &pci_names::Names,
    vendor: u32,
    device: u32,
    i: usize,
    notes: &mut Notes,
) {
    let id = format!("{vendor:04x}:{device:04x}");
    if let Some(board) = &names.board {
        g.name = Some(board.clone());
        g.identity = Some(GpuIdentity {
            certainty: GpuIdentity::PCI_UNIQUE.into(),
            candidates: Vec::new(),
            detail: format!("pci.ids names the board by its PCI id {id} and subsystem"),
        });
        return;
    }
    let Some(line) = &names.device else {
        notes.add(
            format!("gpus[{i}].name"),
            format!(
                "PCI device {id} is in neither rigcheck's names nor this machine's pci.ids \
                 (update it: update-pciids)"
            ),
        );
        return;
    };
    let candidates = products(line);
    if candidates.len() > 1 {
        let detail = format!(
            "PCI id {id} ({line}) is shared by {}, and pci.ids names no board by its subsystem",
            crate::spec::identity::either(&candidates)
        );
        notes.add(
            format!("gpus[{i}].name"),
            format!("unknown: {detail}; the board's own name (its box, or `lspci -vnn` with a newer pci.ids) tells them apart"),
        );
        g.identity = Some(GpuIdentity {
            certainty: GpuIdentity::PCI_AMBIGUOUS.into(),
            candidates,
            detail,
        });
    } else {
        g.name = Some(line.clone());
        g.identity = Some(GpuIdentity {
            certainty: GpuIdentity::PCI_UNIQUE.into(),
            candidates: Vec::new(),
            detail: format!("pci.ids names the chip by its PCI id {id}"),
        });
    }
}

/// The products a pci.ids device line names in brackets: `Navi 21 [Radeon RX 6800/6800 XT /
/// 6900 XT]` → `Radeon RX 6800`, `Radeon RX 6800 XT`, `Radeon RX 6900 XT`. Each alternative
/// after a `/` replaces the first's words from its model number on. One product (or none
/// in brackets) gives one.
pub fn products(line: &str) -> Vec<String> {
    let inner = match (line.rfind('['), line.rfind(']')) {
        (Some(a), Some(b)) if b > a => &line[a + 1..b],
        _ => return vec![line.to_string()],
    };
    let mut parts = inner.split('/').map(str::trim).filter(|p| !p.is_empty());
    let Some(first) = parts.next() else {
        return vec![line.to_string()];
    };
    let words: Vec<&str> = first.split_whitespace().collect();
    let number_at = words
        .iter()
        .rposition(|w| w.starts_with(|c: char| c.is_ascii_digit()))
        .unwrap_or(words.len().saturating_sub(1));
    let stem = words[..number_at].join(" ");
    let mut out = vec![first.to_string()];
    for alt in parts {
        let full = if stem.is_empty() || alt.starts_with(stem.as_str()) {
            alt.to_string()
        } else {
            format!("{stem} {alt}")
        };
        if !out.contains(&full) {
            out.push(full);
        }
    }
    out
}

/// The architecture of an AMD or Intel chip by the name pci.ids gives it: AMD's chip
/// codenames (Linux's amdgpu and AMD's own product pages: Navi 1x RDNA, 2x RDNA 2, 3x RDNA 3,
/// 4x RDNA 4; Vega 10/20 GCN 5; Arcturus CDNA, Aldebaran CDNA 2, Aqua Vanjaram CDNA 3) and
/// Intel's (DG2/Alchemist Xe-HPG, Battlemage Xe2-HPG, Ponte Vecchio Xe-HPC).
pub fn architecture(chip: &str) -> Option<String> {
    let has = |s: &str| chip.contains(s);
    let navi = chip
        .split_whitespace()
        .skip_while(|w| *w != "Navi")
        .nth(1)
        .and_then(|n| n.chars().next())
        .and_then(|c| c.to_digit(10));
    Some(
        match navi {
            Some(1) => "RDNA",
            Some(2) => "RDNA 2",
            Some(3) => "RDNA 3",
            Some(4) => "RDNA 4",
            _ if has("Aqua Vanjaram") => "CDNA 3",
            _ if has("Aldebaran") => "CDNA 2",
            _ if has("Arcturus") => "CDNA",
            _ if has("Vega 10") || has("Vega 20") => "GCN 5 (Vega)",
            _ if has("Battlemage") => "Xe2-HPG",
            _ if has("DG2") || has("Alchemist") => "Xe-HPG",
            _ if has("Ponte Vecchio") => "Xe-HPC",
            _ => return None,
        }
        .to_string(),
    )
}

/// amdgpu's files on the PCI function.
fn amdgpu(src: &Source, base: &str, g: &mut Gpu, drm: &mut GpuDrm, i: usize, notes: &mut Notes) {
    let num = |f: &str| src.read_parse::<u64>(format!("{base}/{f}")).ok();
    g.vram_bytes = num("mem_info_vram_total").filter(|b| *b > 0);
    g.state.memory_used_bytes = num("mem_info_vram_used");
    g.state.utilization_percent = num("gpu_busy_percent")
        .filter(|p| *p <= 100)
        .and_then(|p| u32::try_from(p).ok());
    g.vbios_version = src.read_value(format!("{base}/vbios_version")).ok();
    match src.read_string(format!("{base}/pp_dpm_sclk")) {
        Ok(text) => {
            let (max, now) = parse_dpm(&text);
            drm.max_core_clock_mhz = max;
            drm.core_clock_mhz = now;
        }
        Err(e) => notes.add(format!("gpus[{i}].drm.core_clock_mhz"), e),
    }
}

/// i915's clocks, on the card's drm directory (`drm/cardN/gt_RP0_freq_mhz`).
fn i915(src: &Source, base: &str, drm: &mut GpuDrm) {
    let Some(card) = card_dir(src, base) else {
        return;
    };
    let mhz = |f: &str| {
        src.read_parse::<u32>(format!("{card}/{f}"))
            .ok()
            .filter(|m| *m > 0)
    };
    drm.max_core_clock_mhz = mhz("gt_RP0_freq_mhz").or_else(|| mhz("gt_max_freq_mhz"));
    drm.core_clock_mhz = mhz("gt_act_freq_mhz");
}

/// xe's memory and clocks, on the function's `tile0`.
fn xe(src: &Source, base: &str, g: &mut Gpu, drm: &mut GpuDrm) {
    g.vram_bytes = src
        .read_parse::<u64>(format!("{base}/tile0/physical_vram_size_bytes"))
        .ok()
        .filter(|b| *b > 0);
    let mhz = |f: &str| {
        src.read_parse::<u32>(format!("{base}/tile0/gt0/freq0/{f}"))
            .ok()
            .filter(|m| *m > 0)
    };
    drm.max_core_clock_mhz = mhz("rp0_freq");
    drm.core_clock_mhz = mhz("act_freq");
}

/// The function's drm card directory (`drm/card0`).
fn card_dir(src: &Source, base: &str) -> Option<String> {
    let dir = format!("{base}/drm");
    src.read_dir(&dir)
        .ok()?
        .into_iter()
        .filter(|n| n.starts_with("card") && n[4..].chars().all(|c| c.is_ascii_digit()))
        .min()
        .map(|c| format!("{dir}/{c}"))
}

/// amdgpu's `pp_dpm_*` levels (`0: 852Mhz *`, one a line, `*` on the one in use): the
/// highest level and the one in use, MHz.
pub fn parse_dpm(text: &str) -> (Option<u32>, Option<u32>) {
    let mut max = None;
    let mut now = None;
    for line in text.lines() {
        let Some((_, rest)) = line.split_once(':') else {
            continue;
        };
        let rest = rest.trim();
        let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
        let Ok(mhz) = digits.parse::<u32>() else {
            continue;
        };
        if !rest[digits.len()..]
            .trim_start()
            .to_ascii_lowercase()
            .starts_with("mhz")
        {
            continue;
        }
        max = Some(max.map_or(mhz, |m: u32| m.max(mhz)));
        if rest.ends_with('*') {
            now = Some(mhz);
        }
    }
    (max, now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dpm_levels_of_a_real_vega() {
        // procfs's fixture of an amdgpu Vega 10 (pp_dpm_sclk, copied as read).
        let t = "0: 852Mhz *\n1: 991Mhz \n2: 1084Mhz \n3: 1138Mhz \n4: 1200Mhz \n5: 1401Mhz \n\
                 6: 1536Mhz \n7: 1630Mhz \n";
        assert_eq!(parse_dpm(t), (Some(1630), Some(852)));
        // LACT's RX 6600: the level in use in the middle.
        assert_eq!(
            parse_dpm("0: 500Mhz \n1: 2605Mhz *\n2: 2700Mhz \n"),
            (Some(2700), Some(2605))
        );
        assert_eq!(parse_dpm("garbage\n"), (None, None));
    }

    #[test]
    fn products_of_a_shared_id() {
        assert_eq!(
            products("Navi 21 [Radeon RX 6800/6800 XT / 6900 XT]"),
            vec!["Radeon RX 6800", "Radeon RX 6800 XT", "Radeon RX 6900 XT"]
        );
        assert_eq!(
            products("Vega 10 XL/XT [Radeon RX Vega 56/64]"),
            vec!["Radeon RX Vega 56", "Radeon RX Vega 64"]
        );
        assert_eq!(
            products("Navi 21 GL-XL [Radeon PRO W6800]"),
            vec!["Radeon PRO W6800"]
        );
        assert_eq!(
            products("Aldebaran/MI200 [Instinct MI210]"),
            vec!["Instinct MI210"]
        );
        assert_eq!(products("Some chip"), vec!["Some chip"]);
    }

    #[test]
    fn architectures_by_chip() {
        assert_eq!(
            architecture("Navi 21 GL-XL [Radeon PRO W6800]").as_deref(),
            Some("RDNA 2")
        );
        assert_eq!(
            architecture("Navi 31 [Radeon RX 7900 XT/7900 XTX/7900 GRE/7900M]").as_deref(),
            Some("RDNA 3")
        );
        assert_eq!(
            architecture("Vega 10 XL/XT [Radeon RX Vega 56/64]").as_deref(),
            Some("GCN 5 (Vega)")
        );
        assert_eq!(
            architecture("Aqua Vanjaram [Instinct MI300X]").as_deref(),
            Some("CDNA 3")
        );
        assert_eq!(
            architecture("Battlemage G21 [Arc B580]").as_deref(),
            Some("Xe2-HPG")
        );
        assert_eq!(architecture("HD Graphics 630"), None);
    }
}
