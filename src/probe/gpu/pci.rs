//! GPUs as the PCI bus shows them: /sys/bus/pci/devices and pci.ids, no driver needed.
//!
//! This is what a freshly delivered machine without drivers can still tell: how many GPUs,
//! which model (from pci.ids), on which link and which NUMA node. NVIDIA's GPUs are its VGA
//! and 3D functions; AMD's and Intel's also their other display functions (0x0380: Instinct
//! MI100/MI200, Data Center GPU Max) and AMD's processing accelerators (0x1200: Instinct
//! MI300). Other vendors' display functions (a BMC's ASPEED or Matrox VGA, a VM's virtual
//! display) drive a console, not computations: they are not GPUs.

use std::path::Path;

use crate::probe::pci::{parse_hex, read_link, PciLink, PCI_DEVICES};
use crate::source::{Source, Unknown};
use crate::spec::GpuVendor;
/// Where distributions keep pci.ids (Debian/Ubuntu, then Fedora/RHEL/Arch).
const PCI_IDS: [&str; 2] = ["/usr/share/misc/pci.ids", "/usr/share/hwdata/pci.ids"];

/// One NVIDIA display function on the PCI bus.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PciGpu {
    /// `0000:3b:00.0`, lower case as sysfs writes it.
    pub address: String,
    pub vendor: GpuVendor,
    /// `None` where the `device` file is not a PCI id (a damaged sysfs file): the GPU is
    /// listed with its identity unknown rather than dropped.
    pub device_id: Option<u32>,
    pub subsystem_vendor: Option<u32>,
    pub subsystem_device: Option<u32>,
    /// The link: current, the card's own maximum and the narrowest port above it.
    pub link: PciLink,
    /// `None` for -1 (one node, or the firmware did not say).
    pub numa_node: Option<i32>,
    pub local_cpulist: Option<String>,
}

impl PciGpu {
    /// The ids the product table is keyed by; `None` for a device id past 16 bits (a
    /// damaged sysfs file).
    pub fn ids(&self) -> Option<super::rated::PciIds> {
        let subsystem = self
            .subsystem_vendor
            .zip(self.subsystem_device)
            .and_then(|(v, d)| Some((u16::try_from(v).ok()?, u16::try_from(d).ok()?)));
        Some(super::rated::PciIds {
            device: u16::try_from(self.device_id?).ok()?,
            subsystem,
        })
    }
}

/// The NVIDIA GPUs on the PCI bus, and the devices that may be one but could not be told
/// (a `vendor` or `class` file that is not a PCI id): while there are any, the list may be
/// incomplete.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PciScan {
    pub gpus: Vec<PciGpu>,
    /// `0000:3b:00.0 (vendor file unreadable: ...)`, one per doubtful device.
    pub doubtful: Vec<String>,
}

/// Whether a function of `vendor` with PCI class `class` is a GPU: NVIDIA's VGA (0x0300) and
/// 3D (0x0302) functions (the audio function is not one); AMD's and Intel's also their other
/// display functions (0x0380), and AMD's processing accelerators (0x1200, Instinct MI300).
fn is_gpu_class(vendor: GpuVendor, class: u32) -> bool {
    matches!(
        (vendor, class >> 8),
        (_, 0x0300 | 0x0302)
            | (GpuVendor::Amd | GpuVendor::Intel, 0x0380)
            | (GpuVendor::Amd, 0x1200)
    )
}

/// Lists the GPUs of NVIDIA, AMD and Intel (`is_gpu_class`). `Err` only when the PCI
/// directory itself cannot be listed.
pub fn read_pci_gpus(src: &Source) -> Result<PciScan, Unknown> {
    let mut out = Vec::new();
    let mut doubtful = Vec::new();
    for addr in src.read_dir(PCI_DEVICES)? {
        let base = format!("{PCI_DEVICES}/{addr}");
        // `Ok(None)`: the file is absent (a capture keeps only what it needs of devices
        // that are not GPUs); `Err`: present but not a PCI id.
        let hex = |f: &str| -> Result<Option<u32>, String> {
            match src.read_value(format!("{base}/{f}")) {
                Ok(v) => parse_hex(&v)
                    .map(Some)
                    .ok_or_else(|| format!("{base}/{f} is not a PCI id: {v:?}")),
                Err(Unknown::NotFound(_)) => Ok(None),
                Err(e) => Err(e.to_string()),
            }
        };
        // The vendor first: another vendor's function is passed over whatever its class,
        // so a machine's hundred-odd PCI functions cost one read each, not two.
        let vendor = hex("vendor");
        let gpu_vendor = match &vendor {
            Ok(Some(v)) => match GpuVendor::from_pci(*v) {
                Some(g) => g,
                None => continue,
            },
            Ok(None) => continue,
            // Unknown vendor: NVIDIA's rules decide whether it may be a GPU.
            Err(_) => GpuVendor::Nvidia,
        };
        let class = hex("class");
        let display = match &class {
            Ok(Some(c)) => Some(is_gpu_class(gpu_vendor, *c)),
            Ok(None) => Some(false),
            Err(_) => None,
        };
        match (vendor, display) {
            (_, Some(false)) => continue,
            (Ok(_), Some(true)) => {}
            // An NVIDIA function of unknown class, or a display device of unknown vendor:
            // it may be a GPU, so the list may lack one.
            (Ok(_), None) => {
                doubtful.push(class.err().unwrap_or_default());
                continue;
            }
            (Err(why), _) => {
                doubtful.push(why);
                continue;
            }
        }
        out.push(PciGpu {
            address: addr.to_ascii_lowercase(),
            vendor: gpu_vendor,
            device_id: hex("device").ok().flatten(),
            subsystem_vendor: hex("subsystem_vendor").ok().flatten(),
            subsystem_device: hex("subsystem_device").ok().flatten(),
            link: read_link(src, &base),
            numa_node: src
                .read_parse::<i32>(format!("{base}/numa_node"))
                .ok()
                .filter(|n| *n >= 0),
            local_cpulist: src
                .read_value(format!("{base}/local_cpulist"))
                .ok()
                .filter(|s| !s.is_empty()),
        });
    }
    Ok(PciScan {
        gpus: out,
        doubtful,
    })
}

/// Model name from pci.ids text: the subsystem line (board name, e.g. `Quadro RTX 6000`)
/// when present, else the device line (chip and family, `TU102GL [Quadro RTX 6000/8000]`).
pub fn lookup_pci_name(
    ids: &str,
    vendor: u32,
    device: u32,
    subsystem: Option<(u32, u32)>,
) -> Option<String> {
    let vendor_tag = format!("{vendor:04x}");
    let device_tag = format!("{device:04x}");
    let sub_tag = subsystem.map(|(v, d)| format!("{v:04x} {d:04x}"));
    let mut in_vendor = false;
    let mut device_name: Option<String> = None;
    for line in ids.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        if !line.starts_with('\t') {
            if in_vendor {
                break;
            }
            // Classes section (`C 03 ...`) comes after every vendor.
            in_vendor = line.split_whitespace().next() == Some(vendor_tag.as_str());
            continue;
        }
        if !in_vendor {
            continue;
        }
        if let Some(sub) = line.strip_prefix("\t\t") {
            if device_name.is_some() {
                if let Some(tag) = &sub_tag {
                    if let Some(name) = sub.strip_prefix(tag.as_str()) {
                        return Some(name.trim().to_string());
                    }
                }
            }
        } else if let Some(dev) = line.strip_prefix('\t') {
            if device_name.is_some() {
                break;
            }
            if let Some(name) = dev.strip_prefix(device_tag.as_str()) {
                device_name = Some(name.trim().to_string());
            }
        }
    }
    device_name
}

/// Reads the system's pci.ids through the source, so a sysroot may carry its own.
pub fn read_pci_ids(src: &Source) -> Result<String, Unknown> {
    let mut last = Unknown::NotFound(Path::new(PCI_IDS[0]).to_path_buf());
    for p in PCI_IDS {
        match src.read_string_within(p, crate::bounded::Budget::Large) {
            Ok(t) => return Ok(t),
            Err(e) => last = e,
        }
    }
    Err(last)
}

/// NVML's bus id `00000000:3B:00.0` → sysfs's `0000:3b:00.0`.
pub fn normalize_bus_id(nvml: &str) -> String {
    let s = nvml.trim().to_ascii_lowercase();
    match s.split_once(':') {
        // The boundary check keeps a non-ASCII id from a damaged nvml.json from panicking.
        Some((dom, rest)) if dom.len() > 4 && dom.is_char_boundary(dom.len() - 4) => {
            format!("{}:{rest}", &dom[dom.len() - 4..])
        }
        _ => s,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::pci::{is_pci_address, parse_link_speed_gen};

    /// Lines of this machine's /usr/share/misc/pci.ids around the Quadro RTX 6000.
    const IDS: &str = "# comment\n\
10de  NVIDIA Corporation\n\
\t1e30  TU102GL [Quadro RTX 6000/8000]\n\
\t\t1028 129e  Quadro RTX 8000\n\
\t\t10de 12ba  Quadro RTX 6000\n\
\t1e36  TU102GL [Quadro RTX 6000]\n\
10df  Emulex Corporation\n\
C 03  Display controller\n";

    #[test]
    fn pci_ids_prefers_subsystem_name() {
        let sub = Some((0x10de, 0x12ba));
        assert_eq!(
            lookup_pci_name(IDS, 0x10de, 0x1e30, sub).as_deref(),
            Some("Quadro RTX 6000")
        );
        assert_eq!(
            lookup_pci_name(IDS, 0x10de, 0x1e30, Some((0x10de, 0x9999))).as_deref(),
            Some("TU102GL [Quadro RTX 6000/8000]")
        );
        assert_eq!(lookup_pci_name(IDS, 0x10de, 0x2330, sub), None);
    }

    #[test]
    fn link_speed_both_kernel_formats() {
        assert_eq!(parse_link_speed_gen("8.0 GT/s PCIe"), Some(3));
        assert_eq!(parse_link_speed_gen("8 GT/s"), Some(3));
        assert_eq!(parse_link_speed_gen("2.5 GT/s PCIe"), Some(1));
        assert_eq!(parse_link_speed_gen("32.0 GT/s PCIe"), Some(5));
        assert_eq!(parse_link_speed_gen("Unknown"), None);
    }

    #[test]
    fn bus_ids() {
        assert_eq!(normalize_bus_id("00000000:3B:00.0"), "0000:3b:00.0");
        assert_eq!(normalize_bus_id("0000:AF:00.0"), "0000:af:00.0");
        assert!(is_pci_address("0000:ae:00.0") && !is_pci_address("pci0000:ae"));
    }
}
