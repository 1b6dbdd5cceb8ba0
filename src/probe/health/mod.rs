//! Health probe: what each part says of its own wear and errors. Drives: the NVMe SMART /
//! Health Information log or ATA SMART, asked of the device live (`sys::nvme_smart_log`,
//! `sys::ata_smart`: root only) and kept by `capture` as `smart/<name>.bin`, which a replay
//! decodes; without root, the kernel's hwmon temperature. Memory: EDAC's counts. PCIe: the
//! AER counts of each GPU and NVMe function and every port above it. CPUs: thermal throttle
//! counts. GPU memory health comes with the GPU probe (NVML).
//!
//! Facts and notes only; `rules::health` judges them. A part that cannot be read is `None`
//! with a note saying why and how to read it, and its list is partial or unreadable: never 0.

pub mod ata;
pub mod counts;
pub mod nvme;

use std::collections::BTreeSet;
use std::io;

use crate::probe::backend::Backend;
use crate::probe::pci::{is_pci_address, PCI_DEVICES};
use crate::source::{Source, Unknown};
use crate::spec::health::{
    CpuThrottle, DriveHealth, EdacDimm, Health, HealthLists, MemoryController, MemoryHealth,
    PcieErrors,
};
use crate::spec::{Dimm, Drive, DriveKind, Gpu, ListState, Notes};

/// Where a capture keeps each drive's log, and a replay finds it.
pub const SMART_DIR: &str = "smart";

/// EDAC's memory controllers.
const EDAC_MC: &str = "/sys/devices/system/edac/mc";

/// Every CPU's directory.
const CPUS: &str = "/sys/devices/system/cpu";

/// The parts whose health is read, and what is known of the machine around them.
pub struct Parts<'a> {
    pub drives: &'a [Drive],
    pub gpus: &'a [Gpu],
    pub dimms: &'a [Dimm],
    /// The hypervisor, when this is a virtual machine: its devices count no errors of their
    /// own, and the notes say so.
    pub virtualization: Option<&'a str>,
}

/// Reads every part's health.
pub fn probe(src: &Source, backend: &Backend, parts: &Parts<'_>, notes: &mut Notes) -> Health {
    let drives: Vec<DriveHealth> = parts
        .drives
        .iter()
        .enumerate()
        .map(|(i, d)| drive(src, backend, i, d, parts.virtualization, notes))
        .collect();
    // The machine's own drives: a virtual disk or a removable medium has no health of the
    // machine's to read, so it leaves the list whole.
    let own: Vec<&DriveHealth> = drives
        .iter()
        .zip(parts.drives)
        .filter(|(_, d)| !d.is_removable() && d.kind != Some(DriveKind::Virtual))
        .map(|(h, _)| h)
        .collect();
    let read = |h: &&&DriveHealth| h.source.as_deref().is_some_and(|s| s != "hwmon");
    let drives_state = state(own.iter().filter(read).count(), own.len());
    let (memory, memory_state) = memory(src, backend, parts, notes);
    let (pcie, pcie_state) = pcie(src, backend, parts, notes);
    let (cpu, cpu_state) = throttle(src, backend, parts.virtualization, notes);
    Health {
        drives,
        memory,
        pcie,
        cpu,
        lists: HealthLists {
            drives: drives_state,
            memory: memory_state,
            pcie: pcie_state,
            cpu: cpu_state,
        },
    }
}

/// `read` when all of `total` answered, `partial` when some did, `unreadable` when none did
/// (a machine without any such part has read them all).
fn state(answered: usize, total: usize) -> ListState {
    if answered == total {
        ListState::Read
    } else if answered == 0 {
        ListState::Unreadable
    } else {
        ListState::Partial
    }
}

/// How a drive's log is asked for, by the kind of drive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Protocol {
    Nvme,
    Ata,
}

/// One drive's health: its log where it can be had, else why not (and the temperature the
/// kernel gives without root).
fn drive(
    src: &Source,
    backend: &Backend,
    i: usize,
    d: &Drive,
    virtualization: Option<&str>,
    notes: &mut Notes,
) -> DriveHealth {
    let field = format!("health.drives[{i}]");
    let mut h = DriveHealth {
        drive: d.name.clone(),
        ..DriveHealth::default()
    };
    let native = matches!(backend, Backend::Native(_));
    let (protocol, device) = match (d.kind, d.transport.as_deref()) {
        (Some(DriveKind::Nvme), _) if native => (Protocol::Nvme, Some(d.name.clone())),
        (Some(DriveKind::Nvme), _) | (_, Some("nvme")) => {
            (Protocol::Nvme, nvme_controller(src, &d.name))
        }
        (_, Some("sata" | "ata")) if !native => (Protocol::Ata, Some(d.name.clone())),
        (Some(DriveKind::Virtual), _) | (_, Some("virtio" | "xen")) => {
            let host = virtualization.map_or(String::new(), |v| format!(" ({v})"));
            notes.add(
                &field,
                format!(
                    "a virtual disk has no health log of its own: the host's drives{host} keep \
                     theirs; read them there"
                ),
            );
            return h;
        }
        (_, t) => {
            let why = match t {
                _ if native => "this OS is asked only for NVMe drives' health (the storage \
                                protocol query); SATA SMART is not read here"
                    .to_string(),
                Some(t) => format!(
                    "the health of a drive on {t} is not read (rigcheck asks NVMe drives and \
                     SATA disks); smartctl -a /dev/{} reads most",
                    d.name
                ),
                None => "its bus is unknown, so rigcheck does not know how to ask it".into(),
            };
            notes.add(&field, why);
            return h;
        }
    };
    let Some(device) = device else {
        notes.add(
            &field,
            format!(
                "the NVMe controller of {} is not found under /sys/block/{}/device",
                d.name, d.name
            ),
        );
        return h;
    };
    let log = format!("{SMART_DIR}/{device}.bin");
    match read_log(src, protocol, &device, &log) {
        Ok(bytes) => {
            let decoded = match protocol {
                Protocol::Nvme => nvme::parse(&bytes)
                    .map(|l| nvme::fill(&mut h, &l))
                    .map_err(|e| e.to_string()),
                Protocol::Ata => ata::parse(&bytes)
                    .map(|a| ata::fill(&mut h, &a, d.kind == Some(DriveKind::Ssd)))
                    .map_err(|e| e.to_string()),
            };
            match decoded {
                Ok(odd) => {
                    h.source = Some(
                        match protocol {
                            Protocol::Nvme => "nvme",
                            Protocol::Ata => "ata",
                        }
                        .into(),
                    );
                    h.log = Some(log);
                    for (f, why) in odd {
                        notes.add(format!("{field}.{f}"), why);
                    }
                }
                Err(why) => {
                    // Nothing of a damaged log is kept: a figure from it could be any number.
                    h = DriveHealth {
                        drive: d.name.clone(),
                        ..DriveHealth::default()
                    };
                    notes.add(&field, format!("{log}: {why}"));
                }
            }
        }
        Err(why) => notes.add(&field, why),
    }
    if h.source.is_none() && !native {
        if let Some(t) = hwmon_temperature(src, &d.name) {
            h.source = Some("hwmon".into());
            h.temperature_c = Some(t);
        }
    }
    h
}

/// The log's bytes: asked of the device live (and kept for `capture`), read from the
/// sysroot in replay; else why not, in words.
fn read_log(src: &Source, protocol: Protocol, device: &str, log: &str) -> Result<Vec<u8>, String> {
    if !src.is_live() {
        return src.recorded_log(log).map_err(|e| match e {
            Unknown::NotFound(_) => format!(
                "not recorded in this sysroot: {log} (a capture made as root records the \
                 drive's health log)"
            ),
            Unknown::PermissionDenied(_) => format!(
                "needs root: the capture was made without root, so it holds no {log}; capture \
                 as root to record the drive's health log"
            ),
            other => other.to_string(),
        });
    }
    let (asked, call) = match protocol {
        Protocol::Nvme => (
            "the NVMe SMART / Health Information log (Get Log Page 02h)",
            crate::sys::nvme_smart_log(device),
        ),
        Protocol::Ata => (
            "SMART READ DATA and READ THRESHOLDS (ATA PASS-THROUGH)",
            crate::sys::ata_smart(device),
        ),
    };
    match call {
        Ok(bytes) => {
            src.store_answer(log, bytes.clone());
            Ok(bytes)
        }
        Err(e) => {
            let why = io_reason(&e, asked, device);
            src.record_unreadable(&format!("/{log}"), &e, &why);
            Err(why)
        }
    }
}

/// Why a device did not give its log, and what to do.
fn io_reason(e: &io::Error, asked: &str, device: &str) -> String {
    match e.kind() {
        io::ErrorKind::PermissionDenied => format!(
            "needs root: {asked} of {device} is root's; {} to read the drive's wear and errors",
            crate::sys::ELEVATE
        ),
        io::ErrorKind::NotFound => format!(
            "{device} has no device node (in a container, pass the device in) so {asked} \
             could not be asked"
        ),
        io::ErrorKind::Unsupported => e.to_string(),
        _ => format!("the drive did not answer {asked}: {e}"),
    }
}

/// The NVMe controller (`nvme0`) behind namespace `name` (`nvme0n1`): from the namespace's
/// sysfs path, or, with native multipath, the first controller of its subsystem.
fn nvme_controller(src: &Source, name: &str) -> Option<String> {
    let is_controller = |s: &str| {
        s.strip_prefix("nvme")
            .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
    };
    let canon = src.canonical(format!("/sys/block/{name}")).ok()?;
    let parts: Vec<String> = canon
        .components()
        .filter_map(|c| c.as_os_str().to_str().map(str::to_string))
        .collect();
    if let Some(c) = parts
        .windows(2)
        .find(|w| w[0] == "nvme" && is_controller(&w[1]))
        .map(|w| w[1].clone())
    {
        return Some(c);
    }
    src.read_dir(format!("/sys/block/{name}/device"))
        .ok()?
        .into_iter()
        .find(|e| is_controller(e))
}

/// The drive's temperature as the kernel's hwmon gives it without root (the nvme driver
/// since Linux 5.5, drivetemp for SATA), °C.
fn hwmon_temperature(src: &Source, name: &str) -> Option<i32> {
    let dev = format!("/sys/block/{name}/device");
    let entries = src.read_dir(&dev).ok()?;
    let mut dirs: Vec<String> = entries
        .iter()
        .filter(|e| e.starts_with("hwmon") && e.len() > 5)
        .map(|e| format!("{dev}/{e}"))
        .collect();
    if entries.iter().any(|e| e == "hwmon") {
        if let Ok(inner) = src.read_dir(format!("{dev}/hwmon")) {
            dirs.extend(inner.into_iter().map(|e| format!("{dev}/hwmon/{e}")));
        }
    }
    dirs.iter().find_map(|d| {
        let milli: i64 = src.read_parse(format!("{d}/temp1_input")).ok()?;
        // m°C; a reading outside what a drive survives is no reading.
        i32::try_from(milli / 1000)
            .ok()
            .filter(|c| (-40..=150).contains(c))
    })
}

/// EDAC's counts, each module joined to the SMBIOS slot its label names.
fn memory(
    src: &Source,
    backend: &Backend,
    parts: &Parts<'_>,
    notes: &mut Notes,
) -> (MemoryHealth, ListState) {
    let mut m = MemoryHealth::default();
    if matches!(backend, Backend::Native(_)) {
        notes.add(
            "health.memory",
            "this OS gives programs no memory controller error counts (Linux's EDAC); read \
             them in the firmware's event log or the BMC",
        );
        return (m, ListState::Unreadable);
    }
    let names: Vec<String> = match src.read_dir(EDAC_MC) {
        Ok(n) => n.into_iter().filter(|e| is_numbered(e, "mc")).collect(),
        Err(Unknown::NotFound(_)) => Vec::new(),
        Err(e) => {
            notes.add("health.memory", format!("memory errors are unknown: {e}"));
            return (m, ListState::Unreadable);
        }
    };
    if names.is_empty() {
        let why = match parts.virtualization {
            Some(v) => format!(
                "no EDAC driver: a {v} virtual machine's memory has no error counts of its own \
                 (the host's controllers count them)"
            ),
            None => "no EDAC driver loaded for this memory controller: modprobe the platform's \
                     EDAC module, e.g. skx_edac / i10nm_edac (Intel Xeon), amd64_edac (AMD), \
                     ghes_edac where the firmware reports errors; memory errors are unknown, \
                     not zero"
                .to_string(),
        };
        notes.add("health.memory", why);
        return (m, ListState::Unreadable);
    }
    let mut answered = 0;
    for name in natural(names) {
        let base = format!("{EDAC_MC}/{name}");
        let ce = src
            .read_string(format!("{base}/ce_count"))
            .map_err(|e| e.to_string());
        let ue = src
            .read_string(format!("{base}/ue_count"))
            .map_err(|e| e.to_string());
        let (ce, ue) = (
            ce.and_then(|t| counts::count(&t)),
            ue.and_then(|t| counts::count(&t)),
        );
        for (what, r) in [("ce_count", &ce), ("ue_count", &ue)] {
            if let Err(why) = r {
                notes.add("health.memory", format!("{base}/{what}: {why}"));
            }
        }
        if ce.is_ok() && ue.is_ok() {
            answered += 1;
        }
        let dimms = src
            .read_dir(&base)
            .map(|e| natural(e.into_iter().filter(|e| is_numbered(e, "dimm")).collect()))
            .unwrap_or_default()
            .into_iter()
            .map(|dn| {
                let at = format!("{base}/{dn}");
                let n = |f: &str| {
                    src.read_string(format!("{at}/{f}"))
                        .ok()
                        .and_then(|t| counts::count(&t).ok())
                };
                let label = src
                    .read_value(format!("{at}/dimm_label"))
                    .ok()
                    .filter(|l| !l.is_empty());
                EdacDimm {
                    locator: label.as_deref().and_then(|l| slot_named(l, parts.dimms)),
                    name: dn,
                    label,
                    corrected_errors: n("dimm_ce_count"),
                    uncorrected_errors: n("dimm_ue_count"),
                }
            })
            .collect();
        m.controllers.push(MemoryController {
            mc_name: src.read_value(format!("{base}/mc_name")).ok(),
            name,
            corrected_errors: ce.ok(),
            uncorrected_errors: ue.ok(),
            dimms,
        });
    }
    let total = |f: fn(&MemoryController) -> Option<u64>| {
        m.controllers
            .iter()
            .map(f)
            .try_fold(0u64, |a, n| a.checked_add(n?))
    };
    m.corrected_errors = total(|c| c.corrected_errors);
    m.uncorrected_errors = total(|c| c.uncorrected_errors);
    m.source = Some("edac".into());
    if let Some(label) = m
        .controllers
        .iter()
        .flat_map(|c| &c.dimms)
        .find(|d| d.locator.is_none())
        .and_then(|d| d.label.clone())
    {
        notes.add(
            "health.memory.controllers[].dimms[].locator",
            format!(
                "EDAC's module labels (such as {label}) name no SMBIOS slot, so errors are told \
                 by controller and channel; rasdaemon's labels.db can name the slots"
            ),
        );
    }
    let st = state(answered, m.controllers.len());
    (m, st)
}

/// `mc0`, `dimm12`: the prefix and a number.
fn is_numbered(name: &str, prefix: &str) -> bool {
    name.strip_prefix(prefix)
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// Names in their numbers' order (`mc2` before `mc10`).
fn natural(mut names: Vec<String>) -> Vec<String> {
    names.sort_by_cached_key(|n| crate::natural::natural_key(n));
    names
}

/// The SMBIOS slot an EDAC label names: the one slot whose locator's words (split at
/// anything but a letter or digit) appear in the label in order, one after another
/// (`N0 DIMM_A0` names `DIMM_A0`; `CPU_SrcID#0_MC#0_Chan#0_DIMM#0`, skx_edac's own label,
/// names no SMBIOS slot). `None` where no slot, or more than one, fits.
pub fn slot_named(label: &str, dimms: &[Dimm]) -> Option<String> {
    let words = |s: &str| -> Vec<String> {
        s.split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_ascii_lowercase)
            .collect()
    };
    let have = words(label);
    let fits: BTreeSet<&str> = dimms
        .iter()
        .filter(|d| {
            let want = words(&d.locator);
            !want.is_empty() && have.windows(want.len()).any(|w| w == want.as_slice())
        })
        .map(|d| d.locator.as_str())
        .collect();
    (fits.len() == 1)
        .then(|| fits.into_iter().next().map(str::to_string))
        .flatten()
}

/// The AER counts of every GPU and NVMe function and of each port above it, once each.
fn pcie(
    src: &Source,
    backend: &Backend,
    parts: &Parts<'_>,
    notes: &mut Notes,
) -> (Vec<PcieErrors>, ListState) {
    if matches!(backend, Backend::Native(_)) {
        notes.add(
            "health.pcie",
            "this OS gives programs no PCIe AER error counts (Linux's aer_dev_* files); read \
             them in the OS's event log (WHEA) or the BMC",
        );
        return (Vec::new(), ListState::Unreadable);
    }
    let mut watched: Vec<(String, String)> = Vec::new();
    for (i, g) in parts.gpus.iter().enumerate() {
        if let Some(a) = &g.pci_address {
            watched.push((a.clone(), format!("GPU {}", g.index.unwrap_or(i as u32))));
        }
    }
    for d in parts.drives {
        if let (Some(a), Some(DriveKind::Nvme)) = (&d.pci_address, d.kind) {
            watched.push((a.clone(), d.name.clone()));
        }
    }
    let mut out: Vec<PcieErrors> = Vec::new();
    for (address, of) in watched {
        let Ok(canon) = src.canonical(format!("{PCI_DEVICES}/{address}")) else {
            continue;
        };
        let mut dir = Some(canon.as_path());
        let mut port = false;
        while let Some(d) = dir {
            let Some(name) = d.file_name().and_then(|n| n.to_str()) else {
                break;
            };
            if !is_pci_address(name) {
                break;
            }
            if !out.iter().any(|e| e.address == name) {
                let at = d.display().to_string();
                let total = |f: &str| {
                    src.read_string(format!("{at}/{f}"))
                        .map_err(|e| e.to_string())
                        .and_then(|t| counts::aer_total(&t))
                };
                let (cor, nonfatal, fatal) = (
                    total("aer_dev_correctable"),
                    total("aer_dev_nonfatal"),
                    total("aer_dev_fatal"),
                );
                let link = match (
                    src.read_value(format!("{at}/current_link_speed")),
                    src.read_value(format!("{at}/current_link_width")),
                ) {
                    (Ok(s), Ok(w)) => Some(format!("{} x{w}", s.trim_end_matches(" PCIe"))),
                    _ => None,
                };
                let i = out.len();
                for (f, r) in [
                    ("aer_dev_correctable", &cor),
                    ("aer_dev_nonfatal", &nonfatal),
                    ("aer_dev_fatal", &fatal),
                ] {
                    if let Err(why) = r {
                        let why = if why.ends_with("is not present") {
                            "no AER counts (aer_dev_* files): the kernel keeps them only \
                             with CONFIG_PCIEAER (Linux 4.19+) for a function with the AER \
                             capability; its errors are unknown, not zero"
                                .to_string()
                        } else {
                            format!("{f}: {why}")
                        };
                        notes.add(format!("health.pcie[{i}]"), why);
                        break;
                    }
                }
                out.push(PcieErrors {
                    address: name.to_string(),
                    of: of.clone(),
                    port,
                    correctable: cor.ok(),
                    nonfatal: nonfatal.ok(),
                    fatal: fatal.ok(),
                    link,
                });
            }
            port = true;
            dir = d.parent();
        }
    }
    let answered = out
        .iter()
        .filter(|e| e.correctable.is_some() && e.nonfatal.is_some() && e.fatal.is_some())
        .count();
    let st = state(answered, out.len());
    if out.is_empty()
        && (!parts.gpus.is_empty() || parts.drives.iter().any(|d| d.kind == Some(DriveKind::Nvme)))
    {
        notes.add(
            "health.pcie",
            "no GPU or NVMe drive was found on the PCI bus, so no AER counts were read",
        );
        return (out, ListState::Unreadable);
    }
    (out, st)
}

/// Thermal throttle counts per CPU package (Intel's therm_throt driver).
fn throttle(
    src: &Source,
    backend: &Backend,
    virtualization: Option<&str>,
    notes: &mut Notes,
) -> (Vec<CpuThrottle>, ListState) {
    if matches!(backend, Backend::Native(_)) {
        notes.add(
            "health.cpu",
            "this OS gives programs no CPU thermal throttle counts (Linux's thermal_throttle)",
        );
        return (Vec::new(), ListState::Unreadable);
    }
    let cpus: Vec<String> = src
        .read_dir(CPUS)
        .map(|e| natural(e.into_iter().filter(|e| is_numbered(e, "cpu")).collect()))
        .unwrap_or_default();
    let first = cpus
        .first()
        .map(|c| format!("{CPUS}/{c}/thermal_throttle/core_throttle_count"));
    if first.as_ref().is_none_or(|f| !src.exists(f)) {
        let why = match virtualization {
            Some(v) => format!(
                "no thermal_throttle counters: a {v} virtual machine's CPUs count no throttling \
                 (the host's do)"
            ),
            None => "no thermal_throttle counters in /sys/devices/system/cpu/cpu*/: Intel CPUs \
                     have them (the therm_throt driver); AMD and Arm CPUs do not"
                .into(),
        };
        notes.add("health.cpu", why);
        return (Vec::new(), ListState::Unreadable);
    }
    let mut packages: Vec<CpuThrottle> = Vec::new();
    let mut cores_seen: BTreeSet<(u32, u32)> = BTreeSet::new();
    let (mut answered, mut asked) = (0, 0);
    for c in &cpus {
        let base = format!("{CPUS}/{c}");
        let (Ok(pkg), Ok(core)) = (
            src.read_parse::<u32>(format!("{base}/topology/physical_package_id")),
            src.read_parse::<u32>(format!("{base}/topology/core_id")),
        ) else {
            // Offline CPUs have no topology: nothing of theirs is counted.
            continue;
        };
        asked += 1;
        let n = |f: &str| {
            src.read_string(format!("{base}/thermal_throttle/{f}"))
                .ok()
                .and_then(|t| counts::count(&t).ok())
        };
        let at = match packages.iter().position(|p| p.package == pkg) {
            Some(i) => i,
            None => {
                packages.push(CpuThrottle {
                    package: pkg,
                    core_events: Some(0),
                    package_events: n("package_throttle_count"),
                });
                packages.len() - 1
            }
        };
        let entry = &mut packages[at];
        if cores_seen.insert((pkg, core)) {
            let core_count = n("core_throttle_count");
            if core_count.is_some() {
                answered += 1;
            } else {
                notes.add(
                    "health.cpu",
                    format!("{base}/thermal_throttle/core_throttle_count is unreadable"),
                );
            }
            entry.core_events = match (entry.core_events, core_count) {
                (Some(a), Some(b)) => a.checked_add(b),
                _ => None,
            };
        } else {
            answered += 1;
        }
    }
    packages.sort_by_key(|p| p.package);
    (packages, state(answered, asked))
}

#[cfg(test)]
mod tests;
