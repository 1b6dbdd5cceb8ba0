//! Drives probe: physical block devices from /sys/block, NVMe details from the controller.
//!
//! Virtual devices (loop, zram, ram, dm, md, optical, idle nbd, hidden NVMe multipath
//! paths) are skipped with one note naming them, so the list holds what a person would call
//! the machine's drives.

use std::path::Path;

use crate::plausible::DRIVE_BYTES;
use crate::probe::pci::{self, is_pci_address};
use crate::source::Source;
use crate::spec::{Drive, DriveKind, Listed, Notes};

const SYS_BLOCK: &str = "/sys/block";

/// Lists physical drives; unreadable (not empty) when /sys/block cannot be listed.
pub fn probe(src: &Source, notes: &mut Notes) -> Listed<Drive> {
    let names = match src.read_dir(SYS_BLOCK) {
        Ok(n) => n,
        Err(e) => {
            notes.add(
                "drives",
                format!(
                    "the drive list is unknown, not empty: {e} (mount sysfs, or capture \
                     /sys/block with the rest of the machine)"
                ),
            );
            return Listed::unreadable();
        }
    };
    let mut drives = Vec::new();
    // Grouped by reason, so eight loop devices read as one phrase.
    let mut skipped: Vec<(&'static str, Vec<String>)> = Vec::new();
    for name in names {
        // Most entries say by their name what they are (a machine with snaps has dozens of
        // loop devices): those are passed over without resolving their link.
        let (why, canon) = match virtual_by_name(&name) {
            Some(why) => (Some(why), None),
            None => {
                let base = format!("{SYS_BLOCK}/{name}");
                let canon = src
                    .canonical(&base)
                    .ok()
                    .map(|p| p.to_string_lossy().into_owned());
                (skip_reason(src, canon.as_deref(), &base), canon)
            }
        };
        if let Some(why) = why {
            match skipped.iter_mut().find(|(w, _)| *w == why) {
                Some((_, names)) => names.push(name),
                None => skipped.push((why, vec![name])),
            }
            continue;
        }
        drives.push(read_drive(
            src,
            &name,
            canon.as_deref(),
            notes,
            drives.len(),
        ));
    }
    if !skipped.is_empty() {
        let parts: Vec<String> = skipped
            .iter()
            .map(|(why, names)| format!("{} ({why})", names.join(", ")))
            .collect();
        notes.add(
            "drives",
            format!("not drives, skipped: {}", parts.join("; ")),
        );
    }
    Listed::read(drives)
}

/// Why a /sys/block entry is not a physical drive, where its name says so.
fn virtual_by_name(name: &str) -> Option<&'static str> {
    const VIRTUAL_PREFIXES: &[(&str, &str)] = &[
        ("loop", "loop device"),
        ("zram", "compressed RAM"),
        ("ram", "RAM disk"),
        ("dm-", "device-mapper volume"),
        ("md", "software RAID volume"),
        ("sr", "optical drive"),
        ("nbd", "network block device"),
        ("fd", "floppy"),
    ];
    // nbd and md only count as virtual; "mmcblk" must not match "md".
    VIRTUAL_PREFIXES
        .iter()
        .find(|(p, _)| name.starts_with(p))
        .map(|(_, why)| *why)
}

/// Why a /sys/block entry whose name does not say is not a physical drive, if it is not:
/// `canon` is where its link leads.
fn skip_reason(src: &Source, canon: Option<&str>, base: &str) -> Option<&'static str> {
    if src.read_value(format!("{base}/hidden")).ok().as_deref() == Some("1") {
        return Some("hidden NVMe multipath path");
    }
    if let Some(c) = canon {
        if c.contains("/devices/virtual/block/") {
            return Some("virtual block device");
        }
    }
    None
}

fn read_drive(src: &Source, name: &str, canon: Option<&str>, notes: &mut Notes, i: usize) -> Drive {
    let base = format!("{SYS_BLOCK}/{name}");
    let field = |f: &str| format!("drives[{i}].{f}");
    let size_bytes = match src.read_parse::<u64>(format!("{base}/size")) {
        // Always 512-byte sectors, whatever the logical block size (genhd.c).
        Ok(sectors) => match sectors.checked_mul(512).map(|b| DRIVE_BYTES.check(b)) {
            Some(Ok(b)) => Some(b),
            Some(Err(why)) => {
                notes.add(
                    field("size_bytes"),
                    format!("{base}/size: {sectors} sectors of 512 bytes: {why}"),
                );
                None
            }
            None => {
                notes.add(
                    field("size_bytes"),
                    format!("{base}/size: {sectors} sectors of 512 bytes overflow 64 bits"),
                );
                None
            }
        },
        Err(e) => {
            notes.add(field("size_bytes"), e);
            None
        }
    };
    let rotational = read_bool(src, &format!("{base}/queue/rotational"));
    let removable = read_bool(src, &format!("{base}/removable"));
    let transport = transport(name, canon);
    let (model, serial, firmware) = identity(src, &base, transport.as_deref());
    if model.is_none() {
        let why = match transport.as_deref() {
            Some("virtio") => {
                "virtio disks carry no model string (the hypervisor gives none)".into()
            }
            _ => format!("{base}/device/model is not present"),
        };
        notes.add(field("model"), why);
    }
    if serial.is_none() {
        notes.add(field("serial"), serial_hint(transport.as_deref(), &base));
    }
    let kind = match (transport.as_deref(), rotational) {
        (Some("nvme"), _) => Some(DriveKind::Nvme),
        (Some("virtio"), _) => Some(DriveKind::Virtual),
        (_, Some(true)) => Some(DriveKind::Hdd),
        (_, Some(false)) => Some(DriveKind::Ssd),
        _ => None,
    };
    if removable == Some(true) || transport.as_deref() == Some("usb") {
        let how = match (removable, transport.as_deref()) {
            (Some(true), Some("usb")) => "removable, on USB",
            (Some(true), _) => "removable",
            _ => "on USB",
        };
        notes.add(
            field("kind"),
            format!(
                "{name} is {how}: a medium that comes and goes, not one of the machine's own \
                 drives; verify and diff do not count it as one"
            ),
        );
    }
    let pci_address = canon.and_then(|c| nvme_pci_address(src, &base, c));
    let pcie = pci_address
        .as_ref()
        .map(|a| {
            let base = format!("{}/{a}", pci::PCI_DEVICES);
            let link = pci::read_link(src, &base);
            link.note_refused(&base, &field("pcie"), notes);
            link
        })
        .filter(|l| !l.is_empty())
        .map(pci::PciLink::to_pcie);
    let numa_node = pci_address.as_ref().and_then(|a| {
        src.read_parse::<i32>(format!("/sys/bus/pci/devices/{a}/numa_node"))
            .ok()
    });
    Drive {
        name: name.to_string(),
        model,
        serial,
        firmware,
        size_bytes,
        kind,
        transport,
        rotational,
        removable,
        logical_block_size: src
            .read_parse(format!("{base}/queue/logical_block_size"))
            .ok(),
        physical_block_size: src
            .read_parse(format!("{base}/queue/physical_block_size"))
            .ok(),
        pci_address,
        pcie,
        numa_node,
        // Placed with the GPUs by `probe::place`, by one rule.
        socket: None,
    }
}

fn read_bool(src: &Source, path: &str) -> Option<bool> {
    match src.read_value(path).ok()?.as_str() {
        "1" => Some(true),
        "0" => Some(false),
        _ => None,
    }
}

/// Transport from where the device sits in the sysfs tree (lsblk's rules, simplified).
pub fn transport(name: &str, canon: Option<&str>) -> Option<String> {
    let c = canon.unwrap_or("");
    let t = if c.contains("/nvme/") || c.contains("/nvme-subsystem/") || name.starts_with("nvme") {
        "nvme"
    } else if c.contains("/usb") {
        "usb"
    } else if c.contains("/end_device-") || c.contains("/sas_") {
        "sas"
    } else if c.contains("/ata") {
        "sata"
    } else if c.contains("/virtio") || name.starts_with("vd") {
        "virtio"
    } else if c.contains("/mmc_host/") || name.starts_with("mmcblk") {
        "mmc"
    } else if name.starts_with("xvd") {
        "xen"
    } else {
        return None;
    };
    Some(t.to_string())
}

/// Model, serial and firmware. NVMe: from the controller or subsystem (`device/`);
/// SCSI/SATA: `device/vendor` + `device/model` and the VPD page 0x80; virtio: `serial`.
fn identity(
    src: &Source,
    base: &str,
    transport: Option<&str>,
) -> (Option<String>, Option<String>, Option<String>) {
    let get = |p: String| src.read_value(p).ok().filter(|v| !v.is_empty());
    match transport {
        Some("nvme") => (
            get(format!("{base}/device/model")),
            get(format!("{base}/device/serial")),
            get(format!("{base}/device/firmware_rev")),
        ),
        Some("virtio") => (None, get(format!("{base}/serial")), None),
        Some("mmc") => (
            get(format!("{base}/device/name")),
            get(format!("{base}/device/serial")),
            None,
        ),
        _ => {
            let vendor = get(format!("{base}/device/vendor"));
            let model = get(format!("{base}/device/model"));
            // libata always says "ATA": it is no vendor name.
            let model = match (vendor, model) {
                (Some(v), Some(m)) if v != "ATA" && !m.starts_with(&v) => Some(format!("{v} {m}")),
                (_, m) => m,
            };
            let serial = src
                .read_bytes(format!("{base}/device/vpd_pg80"))
                .ok()
                .and_then(|b| parse_vpd_serial(&b))
                .or_else(|| udev_serial(src, base));
            (model, serial, get(format!("{base}/device/rev")))
        }
    }
}

/// Serial from SCSI VPD page 0x80: 4-byte header, then the ASCII serial (space padded).
pub fn parse_vpd_serial(bytes: &[u8]) -> Option<String> {
    if bytes.len() < 4 || bytes[1] != 0x80 {
        return None;
    }
    let len = usize::from(u16::from_be_bytes([bytes[2], bytes[3]]));
    let body = bytes.get(4..(4 + len).min(bytes.len()))?;
    let s: String = String::from_utf8_lossy(body).trim().to_string();
    (!s.is_empty() && s.chars().all(|c| c.is_ascii_graphic() || c == ' ')).then_some(s)
}

/// `E:ID_SERIAL_SHORT=` from the udev database entry `b<major>:<minor>`.
fn udev_serial(src: &Source, base: &str) -> Option<String> {
    let dev = src.read_value(format!("{base}/dev")).ok()?;
    let db = src.read_string(format!("/run/udev/data/b{dev}")).ok()?;
    db.lines()
        .find_map(|l| l.strip_prefix("E:ID_SERIAL_SHORT="))
        .map(|s| s.trim().to_string())
}

fn serial_hint(transport: Option<&str>, base: &str) -> String {
    match transport {
        Some("virtio") => {
            format!("{base}/serial is empty: the hypervisor gave this disk no serial")
        }
        Some("nvme") => format!("{base}/device/serial is not present"),
        _ => {
            format!("no serial: {base}/device/vpd_pg80 unreadable and no udev record (run as root)")
        }
    }
}

/// PCI address of the NVMe controller behind a namespace, from its sysfs path. With native
/// multipath the namespace hangs off the subsystem; the controller link then tells.
fn nvme_pci_address(src: &Source, base: &str, canon: &str) -> Option<String> {
    if let Some(a) = last_pci_address(canon) {
        return Some(a);
    }
    if canon.contains("/nvme-subsystem/") {
        let dev = format!("{base}/device");
        for entry in src.read_dir(&dev).ok()? {
            if entry.starts_with("nvme") && entry[4..].chars().all(|c| c.is_ascii_digit()) {
                let c = src.canonical(format!("{dev}/{entry}")).ok()?;
                if let Some(a) = last_pci_address(&c.to_string_lossy()) {
                    return Some(a);
                }
            }
        }
    }
    None
}

/// The last `dddd:bb:dd.f` component of a sysfs path: the device itself, not its bridges.
pub fn last_pci_address(path: &str) -> Option<String> {
    Path::new(path)
        .components()
        .filter_map(|c| c.as_os_str().to_str())
        .rfind(|s| is_pci_address(s))
        .map(str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transport_from_sysfs_paths() {
        let cases = [
            ("vda", "/sys/devices/pci0000:00/0000:00:05.0/virtio1/block/vda", "virtio"),
            ("nvme0n1", "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0/nvme0n1", "nvme"),
            ("nvme0n1", "/sys/devices/virtual/nvme-subsystem/nvme-subsys0/nvme0n1", "nvme"),
            ("sda", "/sys/devices/pci0000:00/0000:00:17.0/ata1/host0/target0:0:0/0:0:0:0/block/sda", "sata"),
            ("sdb", "/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0/block/sdb", "usb"),
        ];
        for (name, path, want) in cases {
            assert_eq!(transport(name, Some(path)).as_deref(), Some(want), "{path}");
        }
    }

    #[test]
    fn pci_address_of_nvme_namespace() {
        let p = "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/nvme/nvme0/nvme0n1";
        assert_eq!(last_pci_address(p).as_deref(), Some("0000:01:00.0"));
        assert_eq!(last_pci_address("/sys/devices/virtual/block/loop0"), None);
    }

    #[test]
    fn vpd_page_80_serial() {
        let mut b = vec![0x00, 0x80, 0x00, 0x14];
        b.extend_from_slice(b"      S3Z9NB0K123456");
        assert_eq!(parse_vpd_serial(&b).as_deref(), Some("S3Z9NB0K123456"));
        assert_eq!(parse_vpd_serial(&[0, 0x83, 0, 0]), None);
    }
}
