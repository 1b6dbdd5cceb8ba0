//! GPU probe: NVIDIA devices on PCI, joined with NVML (live) or nvml.json (replay), plus
//! capability derived from architecture facts.
//!
//! PCI comes first and needs no driver, so a machine without drivers still shows its GPUs
//! and links. NVML is asked through `access::GpuAccess`: live (`live::Live`, loaded at run
//! time, only when the source is live) or recorded (`access::Recorded`). With a sysroot
//! NVML is never loaded. Each GPU is then found in the product table by its PCI ids
//! (`products`, made at build time from `products.toml`, whose rows `table` reads and
//! `rules` checks): what NVML cannot say (no driver, MIG, an old driver) comes from the
//! datasheet, marked so, and where NVML and the datasheet disagree a warning says so
//! (`rated`). Peaks are computed from counts and clocks (`derive`): rated at the rated boost
//! clock, and again at NVML's max SM clock.

pub mod access;
pub mod derive;
pub mod drm;
#[cfg(feature = "nvml")]
pub mod live;
pub mod mig;
pub mod pci;
pub mod products;
pub mod rated;
#[cfg(test)]
mod rules;
pub mod table;

use serde_json::Value;

use crate::probe::backend::Backend;
use crate::probe::pci::PCI_DEVICES;
use crate::source::Source;
use crate::spec::{Gpu, GpuProcess, GpuState, ListState, Listed, Notes, Pcie};
use access::{Answer, GpuAccess, Recorded, Recorder, NVML_FILE};
use pci::PciGpu;
use rated::PciIds;

/// Names of NVML's clock throttle ("clocks event") reason bits, from nvml.h.
const THROTTLE_REASONS: [(u64, &str); 9] = [
    (0x1, "gpu_idle"),
    (0x2, "applications_clocks_setting"),
    (0x4, "sw_power_cap"),
    (0x8, "hw_slowdown"),
    (0x10, "sync_boost"),
    (0x20, "sw_thermal_slowdown"),
    (0x40, "hw_thermal_slowdown"),
    (0x80, "hw_power_brake"),
    (0x100, "display_clock_setting"),
];

/// Lists NVIDIA GPUs with derived capability and live state: the GPUs on PCI joined with
/// NVML where the backend has a PCI tree (files), the GPUs NVML knows where it has none
/// (native: Windows, macOS), so a GPU without a working driver is not seen there.
pub fn probe(src: &Source, backend: &Backend, notes: &mut Notes) -> Vec<Gpu> {
    probe_listed(src, backend, notes).items
}

/// The GPUs as `probe` lists them, with how completely the list was read: unreadable
/// without NVML and without a readable PCI tree, partial while a PCI device could not be
/// told apart from a GPU.
pub fn probe_listed(src: &Source, backend: &Backend, notes: &mut Notes) -> Listed<Gpu> {
    let pci = backend
        .has_pci_tree()
        .then(|| match pci::read_pci_gpus(src) {
            Ok(scan) => {
                if !scan.doubtful.is_empty() {
                    notes.add(
                        "gpus",
                        format!(
                            "the GPU list may be incomplete: {} PCI device(s) could not be told \
                         apart from an NVIDIA GPU ({}); `lspci -nn` on the machine names them",
                            scan.doubtful.len(),
                            scan.doubtful.join("; ")
                        ),
                    );
                }
                let state = if scan.doubtful.is_empty() {
                    ListState::Read
                } else {
                    ListState::Partial
                };
                (scan.gpus, state)
            }
            Err(e) => {
                notes.add(
                    "gpus",
                    format!(
                        "PCI devices not readable, so the GPU list is at most what NVML lists: {e}"
                    ),
                );
                (Vec::new(), ListState::Unreadable)
            }
        });
    probe_from(src, pci, notes)
}

/// NVML joined with the PCI GPUs and how completely PCI was read, when there is a PCI tree
/// (`None`: there is none).
fn probe_from(
    src: &Source,
    pci_gpus: Option<(Vec<PciGpu>, ListState)>,
    notes: &mut Notes,
) -> Listed<Gpu> {
    let on_pci = pci_gpus.is_some();
    let (pci_gpus, pci_state) = pci_gpus.unwrap_or((Vec::new(), ListState::Unreadable));
    // AMD's and Intel's GPUs are read from their drm drivers' sysfs, after NVIDIA's: NVML and
    // the NVIDIA product table see only NVIDIA's.
    let (pci_gpus, others): (Vec<PciGpu>, Vec<PciGpu>) = pci_gpus
        .into_iter()
        .partition(|p| p.vendor == crate::spec::GpuVendor::Nvidia);
    let pci = on_pci.then_some((pci_gpus.as_slice(), pci_state));
    let (gpus, nvml_missing, nvml_listed) = match open_access(src, pci) {
        Ok(mut access) => {
            let r = probe_with(access.as_mut(), pci_gpus, src, notes);
            if let Some(json) = access.recording() {
                src.store_answer(NVML_FILE, json);
            }
            r
        }
        Err(why) => (from_pci_only(pci_gpus, 0, src, notes), Some(why), false),
    };
    // NVML lists every GPU its driver binds; PCI every GPU on the bus. The list is whole
    // when PCI was read whole, or (without a PCI tree) when NVML answered.
    let state = match (on_pci, nvml_listed) {
        (true, true) if pci_state == ListState::Unreadable => ListState::Partial,
        (true, _) => pci_state,
        (false, true) => ListState::Read,
        (false, false) => ListState::Unreadable,
    };
    if let Some(why) = nvml_missing {
        if gpus.is_empty() && !on_pci {
            notes.add(
                "gpus",
                format!(
                    "the GPU list is unknown, not empty: NVML unavailable and no PCI tree to \
                     read: {why}"
                ),
            );
        } else if gpus.is_empty() && state == ListState::Unreadable {
            notes.add(
                "gpus",
                format!("the GPU list is unknown, not empty; NVML unavailable: {why}"),
            );
        } else if gpus.is_empty() {
            notes.add(
                "gpus",
                format!("no NVIDIA GPUs on PCI; NVML unavailable: {why}"),
            );
        } else {
            for (i, g) in gpus.iter().enumerate().filter(|(_, g)| g.index.is_none()) {
                notes.add(format!("gpus[{i}]"), no_driver_reason(g, &why));
            }
        }
    }
    let mut gpus = gpus;
    if !others.is_empty() {
        let needs_ids = others.iter().any(|p| {
            let v = match p.vendor {
                crate::spec::GpuVendor::Amd => 0x1002,
                _ => 0x8086,
            };
            p.device_id.is_none_or(|d| {
                !crate::probe::pci_names::built_in_knows(
                    v,
                    d,
                    p.subsystem_vendor.zip(p.subsystem_device),
                )
            })
        });
        let ids = needs_ids
            .then(|| crate::probe::pci_names::host_ids(src))
            .flatten();
        for p in others {
            let i = gpus.len();
            gpus.push(drm::gpu(src, p, i, ids.as_deref(), notes));
        }
    }
    Listed { items: gpus, state }
}

/// Why a GPU seen only on PCI has the facts it has: datasheet figures for a board the
/// product table knows, nothing more otherwise.
fn no_driver_reason(g: &Gpu, why: &str) -> String {
    if let Some(d) = g
        .identity
        .as_ref()
        .filter(|d| d.certainty == crate::spec::GpuIdentity::PCI_AMBIGUOUS)
    {
        return format!("no driver: {}; NVML unavailable: {why}", d.detail);
    }
    match &g.datasheet {
        Some(d) => format!(
            "no driver: datasheet figures for the {} (PCI {}{}), not measured; NVML \
             unavailable: {why}",
            d.name,
            d.pci_id,
            d.pci_subsystem
                .as_deref()
                .map(|s| format!(", subsystem {s}"))
                .unwrap_or_default()
        ),
        None => format!(
            "seen on PCI only, NVML facts unknown: {why}{}",
            g.pci_device_id
                .as_deref()
                .map(|d| format!(
                    "; PCI device {d} is not in this build's GPU product table, so no \
                     datasheet figures either"
                ))
                .unwrap_or_default()
        ),
    }
}

/// An access plus, in capture mode, the means to write what it answered.
trait Access: GpuAccess {
    fn recording(&self) -> Option<String>;
}

impl Access for Recorded {
    fn recording(&self) -> Option<String> {
        None
    }
}

impl<A: GpuAccess> Access for Recorder<A> {
    fn recording(&self) -> Option<String> {
        Some(self.to_json())
    }
}

#[cfg(feature = "nvml")]
impl Access for live::Live {
    fn recording(&self) -> Option<String> {
        None
    }
}

/// Chooses the GPU access: replayed answers under a sysroot, live NVML on the host. `pci` is
/// what the PCI tree showed, where there is one.
fn open_access(
    src: &Source,
    pci: Option<(&[PciGpu], ListState)>,
) -> Result<Box<dyn Access>, String> {
    if !src.is_live() {
        return match src.recorded(NVML_FILE) {
            Ok(text) => Recorded::parse(&text)
                .map(|r| Box::new(r) as Box<dyn Access>)
                .map_err(|e| format!("{NVML_FILE} unreadable: {e}")),
            Err(crate::source::Unknown::NotRecorded(_)) => Err(format!(
                "not recorded: this sysroot has no {NVML_FILE} (captured without an NVIDIA driver, \
                 or not with rigcheck capture)"
            )),
            Err(e) => Err(e.to_string()),
        };
    }
    open_live(src, pci)
}

/// Where an NVIDIA driver shows itself even when sysfs lists no NVIDIA device: its proc and
/// module directories, its control device (containers get the device nodes), and WSL's GPU
/// device, behind which NVML answers for GPUs no PCI tree shows.
#[cfg(feature = "nvml")]
const DRIVER_MARKS: [&str; 5] = [
    "/proc/driver/nvidia",
    "/sys/module/nvidia",
    "/dev/nvidiactl",
    "/dev/nvidia0",
    "/dev/dxg",
];

/// Why NVML is not worth loading here, if it is not: a PCI tree read whole with no NVIDIA
/// device on it and no sign of an NVIDIA driver. Loading NVML costs a thread and a search of
/// the library path, the larger part of an inventory of a machine without a GPU; with any
/// doubt (no PCI tree, a list not read whole, a driver present) it is tried.
/// `RIGCHECK_TEST_NVML_ALWAYS` tries it anyway: the tests' NVML double answers on machines
/// without NVIDIA hardware.
#[cfg(feature = "nvml")]
fn nvml_pointless(src: &Source, pci: Option<(&[PciGpu], ListState)>) -> Option<String> {
    let (gpus, state) = pci?;
    // A capture decides as the live run does, and records why NVML was left unloaded
    // (`open_live`), so a replay of it says what the live run said.
    if !gpus.is_empty()
        || state != ListState::Read
        || std::env::var_os("RIGCHECK_TEST_NVML_ALWAYS").is_some_and(|v| !v.is_empty())
        || DRIVER_MARKS.iter().any(|m| src.exists(m))
    {
        return None;
    }
    Some(
        "not loaded, as no NVIDIA driver is (no /proc/driver/nvidia, /sys/module/nvidia, \
         /dev/nvidiactl, /dev/nvidia0 or /dev/dxg)"
            .into(),
    )
}

/// NVML is tried whenever the source is live and might answer: a failed load (no driver)
/// costs one dlopen, and some hosts (WSL, some containers) have working GPUs that sysfs does
/// not list.
#[cfg(feature = "nvml")]
fn open_live(src: &Source, pci: Option<(&[PciGpu], ListState)>) -> Result<Box<dyn Access>, String> {
    if let Some(why) = crate::sys::NVML_ABSENT {
        return Err(why.into());
    }
    if let Some(why) = nvml_pointless(src, pci) {
        if src.is_recording() {
            src.store_answer(NVML_FILE, access::not_loaded_json(&why));
        }
        return Err(why);
    }
    let live = live::Live::init();
    if src.is_recording() {
        Ok(Box::new(Recorder::new(live)))
    } else {
        Ok(Box::new(live))
    }
}

#[cfg(not(feature = "nvml"))]
fn open_live(
    _src: &Source,
    _pci: Option<(&[PciGpu], ListState)>,
) -> Result<Box<dyn Access>, String> {
    Err(access::CallError::code("NoNvmlSupport").reason())
}

/// Joins NVML devices with PCI by bus address; returns the GPUs, why NVML gave no devices
/// (when it gave none), and whether NVML answered with its device list (possibly empty).
fn probe_with(
    access: &mut dyn Access,
    mut pci_gpus: Vec<PciGpu>,
    src: &Source,
    notes: &mut Notes,
) -> (Vec<Gpu>, Option<String>, bool) {
    if let Err(e) = access.init() {
        return (
            from_pci_only(pci_gpus, 0, src, notes),
            Some(e.reason()),
            false,
        );
    }
    // No machine has this many GPUs: a recorded count past it (a damaged or hostile
    // nvml.json) would keep the probe asking for devices for hours.
    const MAX_GPUS: u64 = 4096;
    let count = match access.system("device_count") {
        Ok(v) if v.as_u64().is_some_and(|n| n > MAX_GPUS) => {
            let why = format!("NVML device_count {v} is not a GPU count");
            notes.add("gpus", &why);
            return (from_pci_only(pci_gpus, 0, src, notes), Some(why), false);
        }
        Ok(v) => v.as_u64().unwrap_or(0) as u32,
        Err(e) => {
            return (
                from_pci_only(pci_gpus, 0, src, notes),
                Some(e.reason()),
                false,
            );
        }
    };
    // Each with why NVML gave none, for the note on every GPU.
    let driver_version = match access.system("driver_version") {
        Ok(v) => v
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| "NVML gave no driver version".to_string()),
        Err(e) => Err(format!("NVML gave no driver version: {}", e.reason())),
    };
    let cuda_version = match access.system("cuda_driver_version") {
        Ok(v) => v
            .as_i64()
            .and_then(derive::cuda_version_string)
            .ok_or_else(|| "NVML gave no CUDA driver version (libcuda missing?)".to_string()),
        Err(e) => Err(format!("NVML gave no CUDA driver version: {}", e.reason())),
    };
    let mut gpus = Vec::new();
    for index in 0..count {
        let i = gpus.len();
        let mut dev = Dev {
            access: &mut *access,
            index,
            notes: &mut *notes,
            prefix: format!("gpus[{i}]"),
        };
        let bus = dev.string("pci_bus_id", "pci_address");
        let address = bus.as_deref().map(pci::normalize_bus_id);
        // One PCI function is one GPU: a second NVML device at an address already listed
        // is the same board (a damaged or doubled answer), not another.
        if let Some(a) = &address {
            if let Some(k) = gpus
                .iter()
                .position(|g: &Gpu| g.pci_address.as_ref() == Some(a))
            {
                notes.add(
                    format!("gpus[{k}]"),
                    format!("NVML listed device {index} at {a} too: one GPU, listed once"),
                );
                continue;
            }
        }
        let pci = address
            .as_ref()
            .and_then(|a| pci_gpus.iter().position(|p| &p.address == a))
            .map(|k| pci_gpus.remove(k));
        let ids = pci
            .as_ref()
            .and_then(PciGpu::ids)
            .or_else(|| nvml_pci_ids(&mut dev));
        let mut g = nvml_gpu(&mut dev, pci.as_ref(), address);
        if g.pci_device_id.is_none() {
            // No PCI tree (Windows, WSL): the device id NVML gave.
            g.pci_device_id = ids.map(|d| format!("0x{:04x}", d.device));
        }
        g.driver_version = driver_version.clone().ok();
        g.cuda_version = cuda_version.clone().ok();
        if let Err(why) = &driver_version {
            notes.add(format!("gpus[{i}].driver_version"), why);
        }
        if let Err(why) = &cuda_version {
            notes.add(format!("gpus[{i}].cuda_version"), why);
        }
        complete(&mut g, ids, i, true, notes);
        if g.mig_enabled == Some(true) {
            mig_instances(&mut *access, index, &mut g, i, notes);
        }
        gpus.push(g);
    }
    let first = gpus.len();
    let why = (count == 0).then(|| "NVML found no GPUs".to_string());
    let rest = from_pci_only(pci_gpus, first, src, notes);
    if !rest.is_empty() && count > 0 {
        for k in 0..rest.len() {
            notes.add(
                format!("gpus[{}]", first + k),
                "on PCI but not listed by NVML (no access from this container, or the driver \
                 did not bind it)",
            );
        }
    }
    gpus.extend(rest);
    (gpus, why, true)
}

/// Identifies a GPU in the product table, fills what NVML did not give from its datasheet,
/// derives counts and peaks, and cross-checks NVML against the datasheet.
fn complete(g: &mut Gpu, ids: Option<PciIds>, i: usize, nvml: bool, notes: &mut Notes) {
    let nvml_name = if nvml { g.name.clone() } else { None };
    let nvml_memory = if nvml { g.vram_bytes } else { None };
    let identity = rated::identify(ids, nvml_name.as_deref(), nvml_memory);
    if identity.certainty == rated::Certainty::Contradicted {
        rated::name_mismatch(g, i, identity.detail.clone(), notes);
    }
    if identity.certainty == rated::Certainty::PciAmbiguous {
        notes.add(
            format!("gpus[{i}].name"),
            format!(
                "unknown: {}; facts the candidates share are datasheet figures, the rest (the \
                 name, and memory where it differs) unknown until the driver names the board",
                identity.detail
            ),
        );
    }
    g.datasheet = identity
        .datasheet_row()
        .zip(ids)
        .map(|(p, d)| p.datasheet(d.device, d.subsystem));
    g.identity = Some(identity.to_spec());
    rated::fill_from_datasheet(g, &identity.rows(), i, nvml, notes);
    note_narrow_link(g, i, notes);
    let rating = identity.rating_row();
    rated::derive_capability(g, rating, identity.tensorless_chip(), i, notes);
    if let (Some(p), true) = (identity.datasheet_row(), nvml) {
        rated::cross_check(g, p, i, notes);
    }
    if let Some(p) = identity.product {
        rated::note_third_party(g, p, i, notes);
    }
}

/// PCI ids as NVML packs them (`pci_device_ids`: device << 16 | 0x10de, subsystem device
/// << 16 | subsystem vendor), for GPUs the sysfs PCI tree does not show (WSL, containers).
fn nvml_pci_ids(dev: &mut Dev<'_>) -> Option<PciIds> {
    let v = dev.ask("pci_device_ids").ok()?;
    let dev_id = v.get("device")?.as_u64()?;
    if dev_id & 0xffff != 0x10de {
        return None;
    }
    let device = u16::try_from((dev_id >> 16) & 0xffff).ok()?;
    let subsystem = v
        .get("subsystem")
        .and_then(Value::as_u64)
        .filter(|s| *s != 0)
        .and_then(|s| {
            Some((
                u16::try_from(s & 0xffff).ok()?,
                u16::try_from(s >> 16).ok()?,
            ))
        });
    Some(PciIds { device, subsystem })
}

/// The MIG instances of a MIG-enabled GPU, with their slice sizes.
fn mig_instances(access: &mut dyn Access, index: u32, g: &mut Gpu, i: usize, notes: &mut Notes) {
    match access.device(index, "mig_devices") {
        Ok(answer) => {
            let facts = g
                .compute_capability
                .as_deref()
                .and_then(derive::parse_cc)
                .and_then(|(a, b)| derive::arch_facts(a, b));
            let tc = g.tensor_cores.map(|t| t > 0);
            g.mig_instances = mig::instances(&answer, facts.as_ref(), tc, g.rated_clock_mhz);
            if g.mig_instances.is_empty() {
                notes.add(
                    format!("gpus[{i}].mig_instances"),
                    "MIG is enabled but no MIG instance exists (create them with nvidia-smi mig \
                     -cgi ... -C)",
                );
            }
            if let Some(why) = mig::unanswered(&g.mig_instances) {
                notes.add(format!("gpus[{i}].mig_instances"), why);
            }
            mig_within_gpu(g, i, notes);
        }
        Err(e) => notes.add(format!("gpus[{i}].mig_instances"), e.reason()),
    }
}

/// A MIG slice cannot hold more memory or SMs than its GPU: such a figure is unknown, with
/// a note naming both.
fn mig_within_gpu(g: &mut Gpu, i: usize, notes: &mut Notes) {
    let (vram, sms) = (g.vram_bytes, g.sm_count);
    for (k, m) in g.mig_instances.iter_mut().enumerate() {
        if let (Some(mem), Some(v)) = (m.memory_bytes, vram) {
            if mem > v {
                notes.add(
                    format!("gpus[{i}].mig_instances[{k}].memory_bytes"),
                    format!("NVML gave the MIG instance {mem} bytes, more than its GPU's {v}: not a slice of it"),
                );
                m.memory_bytes = None;
            }
        }
        if let (Some(n), Some(total)) = (m.sm_count, sms) {
            if n > total {
                notes.add(
                    format!("gpus[{i}].mig_instances[{k}].sm_count"),
                    format!("NVML gave the MIG instance {n} SMs, more than its GPU's {total}: not a slice of it"),
                );
                m.sm_count = None;
                m.cuda_cores = None;
                m.tensor_cores = None;
                m.fp32_tflops = None;
            }
        }
    }
}

/// One NVML device's calls, with unknowns turned into notes on `prefix.field`.
struct Dev<'a> {
    access: &'a mut dyn Access,
    index: u32,
    notes: &'a mut Notes,
    prefix: String,
}

impl Dev<'_> {
    fn ask(&mut self, call: &str) -> Answer {
        self.access.device(self.index, call)
    }

    /// The answer, or `None` with a note on `field`.
    fn value(&mut self, call: &str, field: &str) -> Option<Value> {
        match self.ask(call) {
            Ok(v) if !v.is_null() => Some(v),
            Ok(_) => {
                self.note(field, "NVML gave no value".to_string());
                None
            }
            Err(e) => {
                self.note(field, e.reason());
                None
            }
        }
    }

    fn note(&mut self, field: &str, reason: String) {
        self.notes.add(format!("{}.{field}", self.prefix), reason);
    }

    fn string(&mut self, call: &str, field: &str) -> Option<String> {
        let v = self.value(call, field)?;
        let s = v.as_str()?.trim().to_string();
        if s.is_empty() {
            self.note(field, "NVML gave an empty value".into());
            return None;
        }
        Some(s)
    }

    /// A count or measure: a negative or non-integer answer, or NVML's all-ones
    /// "unsupported" sentinel, is unknown with a note, never a number.
    fn u64(&mut self, call: &str, field: &str) -> Option<u64> {
        let v = self.value(call, field)?;
        match v.as_u64() {
            Some(u64::MAX) => {
                self.note(
                    field,
                    format!(
                        "NVML's `{call}` gave {}, its \"unsupported\" sentinel",
                        u64::MAX
                    ),
                );
                None
            }
            Some(n) => Some(n),
            None => {
                self.note(field, format!("NVML's `{call}` gave {v}, not a count"));
                None
            }
        }
    }

    fn u32(&mut self, call: &str, field: &str) -> Option<u32> {
        let v = self.u64(call, field)?;
        match u32::try_from(v) {
            // 0xFFFFFFFF is how NVML fills a clock or count the board does not report
            // (nvidia-smi prints N/A); taken as MHz it makes tens of millions of TFLOPS.
            Ok(u32::MAX) => {
                self.note(field, format!("NVML's `{call}` gave 4294967295 (0xFFFFFFFF), its \"unsupported\" sentinel"));
                None
            }
            Ok(n) => Some(n),
            Err(_) => {
                self.note(
                    field,
                    format!("NVML's `{call}` gave {v}, past any real value"),
                );
                None
            }
        }
    }

    fn bool(&mut self, call: &str, field: &str) -> Option<bool> {
        self.value(call, field)?.as_bool()
    }
}

/// A GPU from its NVML answers, with PCI facts filled in where NVML has none.
fn nvml_gpu(dev: &mut Dev<'_>, pci: Option<&PciGpu>, address: Option<String>) -> Gpu {
    let name = dev.string("name", "name");
    // NVML's own "Unknown" brand is no brand; a failed call says why.
    let brand = match dev.ask("brand") {
        Ok(v) => v
            .as_str()
            .filter(|s| !s.is_empty() && *s != "Unknown")
            .map(str::to_string),
        Err(e) => {
            dev.note("brand", e.reason());
            None
        }
    };
    // "0000000000000" or "0" is what boards without an infoROM serial report.
    let serial = dev
        .string("serial", "serial")
        .filter(|s| s.chars().any(|c| c != '0'));
    let cc = dev.value("cuda_compute_capability", "compute_capability");
    let cc = cc.and_then(|v| {
        Some((
            u32::try_from(v.get("major")?.as_u64()?).ok()?,
            u32::try_from(v.get("minor")?.as_u64()?).ok()?,
        ))
    });
    let arch_answer = dev.access.device(dev.index, "architecture");
    let arch_error = arch_answer.as_ref().err().map(access::CallError::reason);
    let architecture = arch_answer
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .filter(|a| a != "Unknown")
        .or_else(|| {
            cc.and_then(|(a, b)| derive::arch_facts(a, b))
                .map(|f| f.name.to_string())
        });
    if architecture.is_none() {
        // Why NVML gave none (a lost GPU, a hung driver) comes first where it said.
        let why = match (arch_error, cc) {
            (Some(e), None) => e,
            (Some(e), Some((a, b))) => {
                format!("{e}; compute capability {a}.{b} is not in this build's table")
            }
            (None, None) => "NVML does not know this architecture and gave no compute \
                             capability"
                .into(),
            (None, Some(_)) => "NVML does not know this architecture and the compute \
                                capability is not in this build's table"
                .into(),
        };
        dev.note("architecture", why);
    }
    // A GPU without MIG support answers NotSupported: MIG is then simply off.
    let mig_enabled = match dev.ask("mig_mode") {
        Ok(m) => m.get("current").and_then(Value::as_bool),
        Err(e) if e.code == "NotSupported" => Some(false),
        Err(e) => {
            dev.note("mig_enabled", e.reason());
            None
        }
    };
    let memory = dev.value("memory_info", "vram_bytes");
    let mem = |k: &str| memory.as_ref().and_then(|m| m.get(k)?.as_u64());
    let max_pcie_width = dev.u32("max_pcie_link_width", "pcie.max_width");
    let pcie = Pcie {
        gen: dev
            .u32("current_pcie_link_gen", "pcie.gen")
            .or(pci.and_then(|p| p.link.current_gen)),
        width: dev
            .u32("current_pcie_link_width", "pcie.width")
            .or(pci.and_then(|p| p.link.current_width)),
        max_gen: dev
            .u32("max_pcie_link_gen", "pcie.max_gen")
            .or(pci.and_then(|p| p.link.max_gen())),
        max_width: max_pcie_width.or(pci.and_then(|p| p.link.max_width())),
        device_max_gen: pci.and_then(|p| p.link.device_max_gen),
        device_max_width: pci.and_then(|p| p.link.device_max_width),
    };
    let state = nvml_state(dev, mem("used"));
    Gpu {
        index: Some(dev.index),
        pci_address: address,
        pci_device_id: pci.and_then(|p| p.device_id).map(|d| format!("0x{d:04x}")),
        name,
        brand,
        uuid: dev.string("uuid", "uuid"),
        serial,
        board_part_number: dev.string("board_part_number", "board_part_number"),
        vbios_version: dev.string("vbios_version", "vbios_version"),
        architecture,
        compute_capability: cc.map(|(a, b)| format!("{a}.{b}")),
        cuda_cores: match dev.ask("num_cores") {
            Ok(v) => v.as_u64().and_then(|c| u32::try_from(c).ok()),
            Err(e) if mig_enabled == Some(true) && e.code == "NotSupported" => {
                dev.note(
                    "cuda_cores",
                    "MIG is enabled: NVML does not report the core count of a MIG-enabled GPU, \
                     and its SMs are split among the MIG instances"
                        .into(),
                );
                None
            }
            Err(e) => {
                dev.note("cuda_cores", e.reason());
                None
            }
        },
        vram_bytes: mem("total"),
        memory_bus_width_bits: dev.u32("memory_bus_width", "memory_bus_width_bits"),
        max_sm_clock_mhz: dev.u32("max_clock_sm", "max_sm_clock_mhz"),
        max_memory_clock_mhz: dev.u32("max_clock_memory", "max_memory_clock_mhz"),
        // Optional: only a fallback for boards the product table has no clock for, and N/A
        // on GeForce, so its absence is not noted.
        max_customer_boost_clock_mhz: dev
            .ask("max_customer_boost_clock")
            .ok()
            .and_then(|v| v.as_u64())
            .and_then(|v| u32::try_from(v).ok())
            .filter(|v| *v > 0 && *v != u32::MAX),
        pcie,
        numa_node: pci.and_then(|p| p.numa_node),
        local_cpus: pci.and_then(|p| p.local_cpulist.clone()),
        mig_enabled,
        state,
        ..Gpu::default()
    }
}

/// Live state: temperature, fan, power, utilisation, ECC, throttling, processes.
fn nvml_state(dev: &mut Dev<'_>, memory_used: Option<u64>) -> GpuState {
    let ecc = dev.value("ecc_mode", "state.ecc_enabled");
    let ecc_enabled = ecc.and_then(|e| e.get("current")?.as_bool());
    // ECC counters exist only while ECC is on; asking otherwise is NotSupported noise.
    let (corrected, uncorrected, uncorrected_aggregate, pending) = if ecc_enabled == Some(true) {
        (
            dev.u64("ecc_corrected_volatile", "state.ecc_errors_corrected"),
            dev.u64("ecc_uncorrected_volatile", "state.ecc_errors_uncorrected"),
            dev.u64(
                "ecc_uncorrected_aggregate",
                "state.ecc_errors_uncorrected_aggregate",
            ),
            dev.bool("pages_pending_retirement", "state.retired_pages_pending"),
        )
    } else {
        if ecc_enabled == Some(false) {
            dev.note(
                "state.ecc_errors_uncorrected",
                "ECC is off on this GPU: no error counters, retired pages or remapped rows".into(),
            );
        }
        (None, None, None, None)
    };
    let memory = memory_health(dev, ecc_enabled == Some(true));
    let util = dev.value("utilization_rates", "state.utilization_percent");
    let util_of = |k: &str| {
        util.as_ref()
            .and_then(|u| u.get(k)?.as_u64())
            .and_then(|v| u32::try_from(v).ok())
    };
    let throttle_reasons = dev
        .u64("throttle_reasons", "state.throttle_reasons")
        .map(throttle_names);
    let compute_processes = dev
        .value("compute_processes", "state.compute_processes")
        .and_then(|v| {
            v.as_array().map(|list| {
                list.iter()
                    .filter_map(|p| {
                        Some(GpuProcess {
                            pid: u32::try_from(p.get("pid")?.as_u64()?).ok()?,
                            used_memory_bytes: p.get("used_memory").and_then(Value::as_u64),
                        })
                    })
                    .collect()
            })
        });
    let watts = |mw: Option<u64>| mw.map(|v| v as f64 / 1000.0);
    GpuState {
        temperature_c: dev.u32("temperature_gpu", "state.temperature_c"),
        fan_percent: dev.u32("fan_speed", "state.fan_percent"),
        power_draw_w: watts(dev.u64("power_usage", "state.power_draw_w")),
        power_limit_w: watts(dev.u64("enforced_power_limit", "state.power_limit_w")),
        utilization_percent: util_of("gpu"),
        memory_utilization_percent: util_of("memory"),
        memory_used_bytes: memory_used,
        persistence_mode: dev.bool("persistence_mode", "state.persistence_mode"),
        ecc_enabled,
        ecc_errors_corrected: corrected,
        ecc_errors_uncorrected: uncorrected,
        ecc_errors_uncorrected_aggregate: uncorrected_aggregate,
        retired_pages_pending: pending,
        ecc_errors_corrected_aggregate: memory.corrected_aggregate,
        retired_pages_single_bit: memory.retired_single_bit,
        retired_pages_double_bit: memory.retired_double_bit,
        remapped_rows_correctable: memory.rows.map(|r| r.0),
        remapped_rows_uncorrectable: memory.rows.map(|r| r.1),
        remapped_rows_pending: memory.rows.map(|r| r.2),
        remapped_rows_failure: memory.rows.map(|r| r.3),
        pcie_replays: dev.u64("pcie_replay_counter", "state.pcie_replays"),
        power_violation_ns: dev.u64("violation_power", "state.power_violation_ns"),
        thermal_violation_ns: dev.u64("violation_thermal", "state.thermal_violation_ns"),
        throttle_reasons,
        compute_processes,
    }
}

/// What NVML counts of a GPU's memory health past the volatile ECC counts.
struct MemoryHealth {
    corrected_aggregate: Option<u64>,
    retired_single_bit: Option<u64>,
    retired_double_bit: Option<u64>,
    /// Rows remapped after correctable and uncorrectable errors, a remap pending, failed.
    rows: Option<(u64, u64, bool, bool)>,
}

/// Lifetime ECC counts, retired pages by cause and row remapping: all kept only while ECC is
/// on (the ECC note says so otherwise). Page retirement is how Kepler to Turing boards
/// retire bad memory; row remapping is how A100, H100 and later do it, and each answers
/// NotSupported for the other's.
fn memory_health(dev: &mut Dev<'_>, ecc_on: bool) -> MemoryHealth {
    if !ecc_on {
        return MemoryHealth {
            corrected_aggregate: None,
            retired_single_bit: None,
            retired_double_bit: None,
            rows: None,
        };
    }
    let corrected_aggregate = dev.u64(
        "ecc_corrected_aggregate",
        "state.ecc_errors_corrected_aggregate",
    );
    let retired = |dev: &mut Dev<'_>, call: &str, field: &str| match dev.ask(call) {
        Ok(v) => match v.as_u64() {
            Some(n) => Some(n),
            None => {
                dev.note(field, format!("NVML's `{call}` gave {v}, not a count"));
                None
            }
        },
        Err(e) if e.code == "NotSupported" => {
            dev.note(
                field,
                "this GPU retires no pages (A100, H100 and later remap rows instead; NVML \
                 NotSupported)"
                    .into(),
            );
            None
        }
        Err(e) => {
            dev.note(field, e.reason());
            None
        }
    };
    let retired_single_bit = retired(
        dev,
        "retired_pages_single_bit",
        "state.retired_pages_single_bit",
    );
    let retired_double_bit = retired(
        dev,
        "retired_pages_double_bit",
        "state.retired_pages_double_bit",
    );
    let rows = match dev.ask("remapped_rows") {
        Ok(v) => {
            let n = |k: &str| v.get(k).and_then(Value::as_u64);
            let b = |k: &str| v.get(k).and_then(Value::as_bool);
            match (
                n("correctable"),
                n("uncorrectable"),
                b("pending"),
                b("failure"),
            ) {
                (Some(c), Some(u), Some(p), Some(f)) => Some((c, u, p, f)),
                _ => {
                    dev.note(
                        "state.remapped_rows_failure",
                        format!("NVML's `remapped_rows` gave {v}, not its four answers"),
                    );
                    None
                }
            }
        }
        Err(e) => {
            let why = match e.code.as_str() {
                "NotSupported" => "this GPU remaps no rows (row remapping is A100, H100 and \
                                   later; older boards retire pages; NVML NotSupported)"
                    .to_string(),
                "FailedToLoadSymbol" | "FunctionNotFound" => "this driver has no row \
                     remapping query (nvmlDeviceGetRemappedRows: R450 and newer)"
                    .to_string(),
                _ => e.reason(),
            };
            dev.note("state.remapped_rows_failure", why);
            None
        }
    };
    MemoryHealth {
        corrected_aggregate,
        retired_single_bit,
        retired_double_bit,
        rows,
    }
}

/// Plain names of the active throttle reason bits (unknown bits named by value).
pub fn throttle_names(bits: u64) -> Vec<String> {
    let mut names: Vec<String> = THROTTLE_REASONS
        .iter()
        .filter(|(b, _)| bits & b != 0)
        .map(|(_, n)| (*n).to_string())
        .collect();
    let known: u64 = THROTTLE_REASONS.iter().map(|(b, _)| b).sum();
    if bits & !known != 0 {
        names.push(format!("unknown_0x{:x}", bits & !known));
    }
    names
}

/// Says so when the link can train to less than the card can do (slot wired x8, riser,
/// bifurcation, or a Gen3 slot for a Gen4 card).
fn note_narrow_link(g: &Gpu, i: usize, notes: &mut Notes) {
    let p = &g.pcie;
    if let (Some(max), Some(dev)) = (p.max_width, p.device_max_width) {
        if max < dev {
            notes.add(
                format!("gpus[{i}].pcie.max_width"),
                format!(
                    "link x{max} of the card's x{dev}: the slot or an upstream port is narrower \
                     (wrong slot, riser or bifurcation)"
                ),
            );
        }
    }
    if let (Some(max), Some(dev)) = (p.max_gen, p.device_max_gen) {
        if max < dev {
            notes.add(
                format!("gpus[{i}].pcie.max_gen"),
                format!("link Gen{max} of the card's Gen{dev}: the slot or a port is slower"),
            );
        }
    }
}

/// GPUs known only from PCI (no driver, no recording): identity, counts, memory and rated
/// peaks from the product table by PCI id, marked as datasheet figures; the link and NUMA
/// node from sysfs; the name from pci.ids for a board the table does not know.
fn from_pci_only(pci_gpus: Vec<PciGpu>, first: usize, src: &Source, notes: &mut Notes) -> Vec<Gpu> {
    if pci_gpus.is_empty() {
        return Vec::new();
    }
    // pci.ids (about 1.3 MB) is read only when a GPU is not in the product table.
    let needs_ids = pci_gpus.iter().any(|p| {
        p.ids()
            .is_none_or(|d| products::find(d.device, d.subsystem) == products::Found::Unknown)
    });
    let ids = if needs_ids {
        match pci::read_pci_ids(src) {
            Ok(t) => Some(t),
            Err(e) => {
                notes.add(
                    "gpus",
                    format!("no pci.ids to name GPUs (install pciutils or hwdata): {e}"),
                );
                None
            }
        }
    } else {
        None
    };
    pci_gpus
        .into_iter()
        .enumerate()
        .map(|(k, p)| {
            let i = first + k;
            let mut g = Gpu {
                pci_address: Some(p.address.clone()),
                pci_device_id: p.device_id.map(|d| format!("0x{d:04x}")),
                pcie: p.link.to_pcie(),
                numa_node: p.numa_node,
                local_cpus: p.local_cpulist.clone(),
                ..Gpu::default()
            };
            if p.device_id.is_none() {
                notes.add(
                    format!("gpus[{i}].pci_device_id"),
                    format!(
                        "{PCI_DEVICES}/{}/device is not a PCI id: an NVIDIA display device \
                         of unknown model (`lspci -nn -s {}` on the machine names it)",
                        p.address, p.address
                    ),
                );
            }
            complete(&mut g, p.ids(), i, false, notes);
            // A board the table leaves ambiguous keeps its name unknown: pci.ids would name
            // the pair ("Quadro RTX 6000/8000"), not the board.
            let ambiguous = g
                .identity
                .as_ref()
                .is_some_and(|d| d.certainty == crate::spec::GpuIdentity::PCI_AMBIGUOUS);
            if g.name.is_none() && !ambiguous {
                let sub = p.subsystem_vendor.zip(p.subsystem_device);
                g.name = ids.as_deref().zip(p.device_id).and_then(|(t, d)| {
                    pci::lookup_pci_name(t, 0x10de, d, sub)
                });
                if let (None, Some(_), Some(device)) = (&g.name, &ids, p.device_id) {
                    notes.add(
                        format!("gpus[{i}].name"),
                        format!(
                            "device 10de:{device:04x} is not in this pci.ids (update it: update-pciids)"
                        ),
                    );
                }
            }
            g
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn throttle_bits_to_names() {
        assert_eq!(
            throttle_names(0x60),
            vec!["sw_thermal_slowdown", "hw_thermal_slowdown"]
        );
        assert_eq!(throttle_names(0x1), vec!["gpu_idle"]);
        assert_eq!(throttle_names(0x84), vec!["sw_power_cap", "hw_power_brake"]);
        assert_eq!(throttle_names(0x1000), vec!["unknown_0x1000"]);
        assert!(throttle_names(0).is_empty());
    }
}
