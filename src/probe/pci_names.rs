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
///
/// A vendor line is the only kind that starts a line with four hex digits (devices start with
/// one tab, subsystems with two, classes with `C `), so the vendor's block is found by a
/// substring search rather than line by line through the other vendors: a lookup reads one
/// vendor's lines, not the whole file (pci.ids is 1.5 MB; the excerpt is 190 kB).
pub fn lookup_in(ids: &str, vendor: u32, device: u32, subsystem: Option<(u32, u32)>) -> Names {
    let device_tag = format!("{device:04x}");
    let sub_tag = subsystem.map(|(v, d)| format!("{v:04x} {d:04x}"));
    let mut out = Names::default();
    let Some((name, block)) = vendor_block(ids, vendor) else {
        return out;
    };
    out.vendor = Some(name.trim().to_string());
    let mut in_device = false;
    for line in block.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
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

/// The vendor line's name and the lines under it (up to the next line that does not start
/// with a tab, a comment or a blank), or `None` where `ids` has no such vendor.
fn vendor_block(ids: &str, vendor: u32) -> Option<(&str, &str)> {
    let tag = format!("{vendor:04x}  ");
    let start = if ids.starts_with(&tag) {
        0
    } else {
        // memchr's SIMD search: str::find's Two-Way reads the text at a quarter the speed.
        memchr::memmem::find(ids.as_bytes(), format!("\n{tag}").as_bytes())? + 1
    };
    let rest = &ids[start + tag.len()..];
    let (name, body) = rest.split_once('\n').unwrap_or((rest, ""));
    // The block ends where a line starts with neither a tab, '#' nor a newline (the next
    // vendor, or the classes section).
    let mut end = body.len();
    let mut at = 0;
    while at < body.len() {
        let first = body.as_bytes()[at];
        if !matches!(first, b'\t' | b'#' | b'\n' | b'\r') {
            end = at;
            break;
        }
        at = body[at..].find('\n').map_or(body.len(), |i| at + i + 1);
    }
    Some((name, &body[..end]))
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

    #[test]
    fn a_vendor_is_found_first_or_last_and_its_block_ends_at_the_next_vendor() {
        let ids = "# comment\n1af4  Red Hat, Inc.\n\t1041  Virtio 1.0 network device\n\n# \
                   c\n\t\t1af4 1100  QEMU\n8086  Intel Corporation\n\t1572  X710\nC 02  \
                   Network controller\n\t00  Ethernet controller\n";
        let n = lookup_in(ids, 0x1af4, 0x1041, Some((0x1af4, 0x1100)));
        assert_eq!(n.vendor.as_deref(), Some("Red Hat, Inc."));
        assert_eq!(n.board.as_deref(), Some("QEMU"));
        // 1572 sits under Intel, not under Red Hat; class 02's "00" is not Intel's device.
        assert_eq!(lookup_in(ids, 0x1af4, 0x1572, None).device, None);
        assert_eq!(lookup_in(ids, 0x8086, 0x0000, None).device, None);
        assert_eq!(
            lookup_in(ids, 0x8086, 0x1572, None).device.as_deref(),
            Some("X710")
        );
        // A vendor at the very start of the text, and a device id that is only a subsystem's.
        let first = "10de  NVIDIA Corporation\n\t2330  GH100 [H100 SXM5 80GB]\n";
        assert_eq!(
            lookup_in(first, 0x10de, 0x2330, None).device.as_deref(),
            Some("GH100 [H100 SXM5 80GB]")
        );
        assert_eq!(lookup_in(ids, 0x1100, 0x1af4, None), Names::default());
    }
}
