//! PCI facts shared by the GPU and drive probes: addresses, link speed and width, and the
//! narrowest link on the way up to the root port.

use crate::plausible;
use crate::source::Source;
use crate::spec::{Notes, Pcie};

/// Where sysfs lists every PCI function.
pub const PCI_DEVICES: &str = "/sys/bus/pci/devices";

/// A device's PCIe link as sysfs shows it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PciLink {
    pub current_gen: Option<u32>,
    pub current_width: Option<u32>,
    /// The device's own capability (its Link Capabilities register).
    pub device_max_gen: Option<u32>,
    pub device_max_width: Option<u32>,
    /// Narrowest `max_link_width` / lowest gen among the upstream ports: a x16 card in a
    /// slot wired x8 shows 16 itself and 8 on its port.
    pub upstream_max_gen: Option<u32>,
    pub upstream_max_width: Option<u32>,
    /// A width file of the device that held no link width (`current_link_width` 255, which
    /// sysfs writes when it cannot read the link), and what it held: left unknown, for a note.
    pub refused: Option<(&'static str, u32)>,
}

impl PciLink {
    /// The best generation the link can reach: device and every port above it.
    pub fn max_gen(&self) -> Option<u32> {
        min_opt(self.device_max_gen, self.upstream_max_gen)
    }

    /// The widest the link can be: device and every port above it.
    pub fn max_width(&self) -> Option<u32> {
        min_opt(self.device_max_width, self.upstream_max_width)
    }

    /// As the spec's `pcie` object.
    pub fn to_pcie(self) -> Pcie {
        Pcie {
            gen: self.current_gen,
            width: self.current_width,
            max_gen: self.max_gen(),
            max_width: self.max_width(),
            device_max_gen: self.device_max_gen,
            device_max_width: self.device_max_width,
        }
    }

    /// True when sysfs showed no link at all (not a PCIe device, or a VM's virtio).
    pub fn is_empty(&self) -> bool {
        PciLink {
            refused: None,
            ..*self
        } == PciLink::default()
    }

    /// Notes the width file that held no link width, on `field` (`gpus[0].pcie`).
    pub fn note_refused(&self, base: &str, field: &str, notes: &mut Notes) {
        if let Some((file, w)) = self.refused {
            let why = plausible::pcie_width(w).err().unwrap_or_default();
            notes.add(field, format!("{base}/{file} says {w}: {why}"));
        }
    }
}

fn min_opt(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, y) => x.or(y),
    }
}

/// Reads the link of the PCI function at `base` (a `/sys/bus/pci/devices/ADDR` path).
pub fn read_link(src: &Source, base: &str) -> PciLink {
    let speed = |f: &str| {
        src.read_value(format!("{base}/{f}"))
            .ok()
            .and_then(|v| parse_link_speed_gen(&v))
    };
    let mut refused = None;
    // 0 is no link (a device in D3, a VM's bridge); anything else that is not a link width
    // (255: sysfs could not read the link) is unknown, with a note.
    let mut width = |f: &'static str| {
        let w = src
            .read_parse::<u32>(format!("{base}/{f}"))
            .ok()
            .filter(|w| *w > 0)?;
        if plausible::pcie_width(w).is_err() {
            refused.get_or_insert((f, w));
            return None;
        }
        Some(w)
    };
    let current_width = width("current_link_width");
    let device_max_width = width("max_link_width");
    let (upstream_max_gen, upstream_max_width) = upstream_limits(src, base);
    PciLink {
        current_gen: speed("current_link_speed"),
        current_width,
        device_max_gen: speed("max_link_speed"),
        device_max_width,
        upstream_max_gen,
        upstream_max_width,
        refused,
    }
}

/// Lowest max gen and width over the PCI bridges above the device (walking the canonical
/// sysfs path `/sys/devices/pci0000:ae/0000:ae:00.0/0000:af:00.0` upwards).
fn upstream_limits(src: &Source, base: &str) -> (Option<u32>, Option<u32>) {
    let Ok(canon) = src.canonical(base) else {
        return (None, None);
    };
    let mut gen: Option<u32> = None;
    let mut width: Option<u32> = None;
    let mut dir = canon.parent();
    while let Some(d) = dir {
        let Some(name) = d.file_name().and_then(|n| n.to_str()) else {
            break;
        };
        if !is_pci_address(name) {
            break;
        }
        if let Some(g) = src
            .read_value(d.join("max_link_speed"))
            .ok()
            .and_then(|v| parse_link_speed_gen(&v))
        {
            gen = Some(gen.map_or(g, |x| x.min(g)));
        }
        if let Some(w) = src
            .read_parse::<u32>(d.join("max_link_width"))
            .ok()
            .filter(|w| plausible::pcie_width(*w).is_ok())
        {
            width = Some(width.map_or(w, |x| x.min(w)));
        }
        dir = d.parent();
    }
    (gen, width)
}

/// True for a PCI address `0000:3b:00.0` (domain, bus, device, function).
pub fn is_pci_address(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 12
        && b[4] == b':'
        && b[7] == b':'
        && b[10] == b'.'
        && s.chars()
            .enumerate()
            .all(|(i, c)| matches!(i, 4 | 7 | 10) || c.is_ascii_hexdigit())
}

/// Parses `0x10de` (sysfs writes `0x%04x`, class `0x%06x`).
pub fn parse_hex(text: &str) -> Option<u32> {
    u32::from_str_radix(text.trim().trim_start_matches("0x"), 16).ok()
}

/// PCIe generation from a sysfs link speed: `8.0 GT/s PCIe` (kernels since 5.7) or
/// `8 GT/s` (older), as the kernel's `pci_speed_string()` writes them.
pub fn parse_link_speed_gen(text: &str) -> Option<u32> {
    let num = text.split_whitespace().next()?;
    let gts: f64 = num.parse().ok()?;
    const GENS: [(f64, u32); 6] = [
        (2.5, 1),
        (5.0, 2),
        (8.0, 3),
        (16.0, 4),
        (32.0, 5),
        (64.0, 6),
    ];
    GENS.iter()
        .find(|(s, _)| (gts - s).abs() < 0.01)
        .map(|(_, g)| *g)
}
