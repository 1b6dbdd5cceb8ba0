//! Names of PCI devices other than NVIDIA GPUs (network adapters; AMD and Intel GPUs):
//! rigcheck's own excerpt of pci.ids first, the host's pci.ids for ids it lacks.
//!
//! The excerpt (`pci_names.ids`, made by `scripts/pci-names.py` from one pci.ids release)
//! is built in, so a server without pci.ids installed, a container and every replay of a
//! capture name a card alike; the host's pci.ids (read through the `Source`, so a capture
//! records it and its replay gives the same names) only fills what the excerpt lacks: other
//! vendors' OEM boards and ids newer than the excerpt.

use crate::source::Source;

/// The built-in excerpt: pci.ids' format, the network and display devices of the vendors
/// whose NICs and GPUs rigcheck lists.
pub const BUILT_IN: &str = include_str!("pci_names.ids");

/// What pci.ids says of one device.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Names {
    pub vendor: Option<String>,
    /// The device line: the controller or chip (`Ethernet Controller X710 for 10GbE SFP+`).
    pub device: Option<String>,
    /// The subsystem line: the board (`Ethernet Converged Network Adapter X710-DA2`).
    pub board: Option<String>,
}

impl Names {
    fn is_complete(&self, subsystem: Option<(u32, u32)>) -> bool {
        self.vendor.is_some()
            && self.device.is_some()
            && (subsystem.is_none() || self.board.is_some())
    }

    fn fill_from(&mut self, other: Names) {
        self.vendor = self.vendor.take().or(other.vendor);
        self.device = self.device.take().or(other.device);
        self.board = self.board.take().or(other.board);
    }
}

/// The names pci.ids text `ids` gives `vendor:device` and its subsystem.
pub fn lookup_in(ids: &str, vendor: u32, device: u32, subsystem: Option<(u32, u32)>) -> Names {
    let vendor_tag = format!("{vendor:04x}");
    let device_tag = format!("{device:04x}");
    let sub_tag = subsystem.map(|(v, d)| format!("{v:04x} {d:04x}"));
    let mut out = Names::default();
    let mut in_vendor = false;
    let mut in_device = false;
    for line in ids.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if !line.starts_with('\t') {
            if in_vendor {
                break;
            }
            // The classes section (`C 02  Network controller`) comes after every vendor.
            if let Some(name) = line.strip_prefix(vendor_tag.as_str()) {
                in_vendor = true;
                out.vendor = Some(name.trim().to_string());
            }
            continue;
        }
        if !in_vendor {
            continue;
        }
        if let Some(sub) = line.strip_prefix("\t\t") {
            if let (true, Some(tag)) = (in_device, &sub_tag) {
                if let Some(name) = sub.strip_prefix(tag.as_str()) {
                    out.board = Some(name.trim().to_string());
                    break;
                }
            }
        } else if let Some(dev) = line.strip_prefix('\t') {
            if in_device {
                break;
            }
            if let Some(name) = dev.strip_prefix(device_tag.as_str()) {
                in_device = true;
                out.device = Some(name.trim().to_string());
            }
        }
    }
    out
}

/// The names of `vendor:device` (and its subsystem): the built-in excerpt, then the host's
/// pci.ids for what it lacks (`host_ids`, read once per run by the caller, `None` where
/// there is none).
pub fn lookup(
    host_ids: Option<&str>,
    vendor: u32,
    device: u32,
    subsystem: Option<(u32, u32)>,
) -> Names {
    let mut names = lookup_in(BUILT_IN, vendor, device, subsystem);
    if !names.is_complete(subsystem) {
        if let Some(ids) = host_ids {
            names.fill_from(lookup_in(ids, vendor, device, subsystem));
        }
    }
    names
}

/// Whether the built-in excerpt names `vendor:device` (and its subsystem, where given): the
/// host's pci.ids is read only when it does not.
pub fn built_in_knows(vendor: u32, device: u32, subsystem: Option<(u32, u32)>) -> bool {
    lookup_in(BUILT_IN, vendor, device, subsystem).is_complete(subsystem)
}

/// The host's pci.ids (or the sysroot's), `None` where there is none.
pub fn host_ids(src: &Source) -> Option<String> {
    crate::probe::gpu::pci::read_pci_ids(src).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_names_the_cards_of_the_fixtures() {
        let x710 = lookup(None, 0x8086, 0x1572, Some((0x103c, 0x22fc)));
        assert_eq!(x710.vendor.as_deref(), Some("Intel Corporation"));
        assert_eq!(
            x710.device.as_deref(),
            Some("Ethernet Controller X710 for 10GbE SFP+")
        );
        // An HPE board: the excerpt keeps only the chip vendor's own subsystems.
        assert_eq!(x710.board, None);
        let virtio = lookup(None, 0x1af4, 0x1041, Some((0x1af4, 0x1100)));
        assert_eq!(virtio.device.as_deref(), Some("Virtio 1.0 network device"));
        assert_eq!(virtio.board.as_deref(), Some("QEMU"));
        let vega = lookup(None, 0x1002, 0x687f, Some((0x1043, 0x04c4)));
        assert_eq!(
            vega.device.as_deref(),
            Some("Vega 10 XL/XT [Radeon RX Vega 56/64]")
        );
        assert_eq!(
            lookup(None, 0x15b3, 0x101b, None).device.as_deref(),
            Some("MT28908 Family [ConnectX-6]")
        );
        assert_eq!(
            lookup(None, 0x1002, 0x73a3, None).device.as_deref(),
            Some("Navi 21 GL-XL [Radeon PRO W6800]")
        );
    }

    #[test]
    fn host_ids_fill_what_the_excerpt_lacks() {
        let host = "103c  Hewlett-Packard Company\n8086  Intel Corporation\n\t1572  Ethernet \
                    Controller X710 for 10GbE SFP+\n\t\t103c 22fc  HPE Ethernet 10Gb 2-port \
                    562FLR-SFP+ Adpt\n";
        let n = lookup(Some(host), 0x8086, 0x1572, Some((0x103c, 0x22fc)));
        assert_eq!(
            n.board.as_deref(),
            Some("HPE Ethernet 10Gb 2-port 562FLR-SFP+ Adpt")
        );
        assert!(!built_in_knows(0x8086, 0x1572, Some((0x103c, 0x22fc))));
        assert!(built_in_knows(0x8086, 0x1572, None));
        assert_eq!(lookup(None, 0x1234, 0x5678, None), Names::default());
    }
}
