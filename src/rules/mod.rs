//! Every judgement rigcheck makes of the facts, one function each: whether a GPU's link runs
//! narrower than the card or below its generation at idle, whether its clocks are held down,
//! whether its memory has uncorrected errors or retired pages waiting for a reset, whether
//! memory is unbalanced between sockets or far more than the OS sees, whether CPUs are
//! offline, how many data-loader workers a job gets (`workers`), and what the parts' health
//! counts say (`health`: drive wear and errors, memory, PCIe and GPU memory errors, throttling). Preflight's checks,
//! verify's requirements, the benchmarks and the renderers all ask here, and `attention`
//! turns the findings into what the inventory and the sheet list under "Attention", so no two
//! outputs disagree about one machine. `spec` holds facts only; renderers only paint findings.

use schemars::JsonSchema;
use serde::Serialize;

use crate::spec::{Gpu, GpuState, Memory, Pcie, Spec};

pub mod health;
pub mod privilege;
pub mod workers;

/// Outcome of one check: the words verify and fleet use too. Ordered from best to worst,
/// so the worst of a run is its `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Holds.
    Pass,
    /// Will work, but slower or less safe than it should; exit code stays 0.
    Warn,
    /// The fact could not be read: not a pass. With no failure the run is INCOMPLETE (exit 3).
    Unknown,
    /// The job will fail or crawl; exit code 1.
    Fail,
}

impl Status {
    /// The word printed for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Warn => "warn",
            Status::Unknown => "unknown",
            Status::Fail => "fail",
        }
    }
}

/// Why a PCIe link below its generation is no fault on an idle GPU; preflight's note and
/// the inventory's say it in these words.
pub const IDLE_LINK_GEN: &str =
    "a lower generation at idle is normal power saving; it rises under load";

/// Usable memory further than this fraction under the installed DIMMs is not firmware and
/// kernel reservations (1.5–4 %) but memory the OS does not see.
pub const MEMORY_UNSEEN_FRACTION: f64 = 0.10;

/// When the OS sees far less than the DIMMs installed (MemTotal more than
/// `MEMORY_UNSEEN_FRACTION` under their sum), the sentence saying so and what to check;
/// `None` when it does not, or when either figure is unknown.
pub fn memory_unseen(m: &Memory) -> Option<String> {
    let installed = m
        .total_bytes
        .filter(|_| m.total_source.as_deref() == Some("dimms"))?;
    let usable = m.usable_bytes?;
    if usable as f64 >= installed as f64 * (1.0 - MEMORY_UNSEEN_FRACTION) {
        return None;
    }
    let gib = |b: u64| {
        let g = b as f64 / (1u64 << 30) as f64;
        format!("{} GiB", (g * 10.0).round() / 10.0)
    };
    Some(format!(
        "the OS sees {} (MemTotal) of the {} of DIMMs installed: a module may be disabled \
         by the firmware or failing training, or the kernel was started with mem=; check \
         the firmware's memory settings and event log, `dmesg | grep -i -e memory -e edac` \
         and /proc/cmdline",
        gib(usable),
        gib(installed)
    ))
}

/// GPU use below this share counts as idle for the link's generation.
const IDLE_UTILIZATION_PERCENT: u32 = 10;

/// True when the link runs below its top generation while the GPU is idle or its load
/// is unknown: power saving, not a fault (a busy GPU's slow link is one).
pub fn link_gen_idle(g: &Gpu) -> bool {
    let below = matches!((g.pcie.gen, g.pcie.max_gen), (Some(a), Some(b)) if a < b);
    below
        && g.state
            .utilization_percent
            .is_none_or(|u| u < IDLE_UTILIZATION_PERCENT)
}

/// Which rule found something.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// CPUs are offline: counts cover the online ones only.
    CpusOffline,
    /// DIMMs are spread unevenly over the sockets or channels.
    MemoryUnbalanced,
    /// The OS sees far less memory than the DIMMs add up to.
    MemoryUnseen,
    /// A GPU's or network adapter's link runs on fewer lanes than the card has.
    NarrowLink,
    /// A GPU's clocks are held down by heat or the power brake.
    ClocksHeldDown,
    /// A GPU's memory had uncorrected ECC errors.
    EccErrors,
    /// A GPU has retired memory pages waiting for a reset.
    PagesPending,
    /// A GPU's driver names a board its PCI ids rule out (relabelled or re-flashed).
    IdentityContradicted,
    /// A drive's own log says it is failing, worn or erring (`health`).
    DriveHealth,
    /// The memory controllers counted errors.
    MemoryErrors,
    /// A GPU's or NVMe drive's link, or a port above it, counted AER errors.
    PcieErrors,
    /// A GPU's memory or link health: corrected ECC errors, PCIe replays, clocks held down
    /// by heat since the driver loaded.
    GpuHealth,
    /// A GPU failed to remap a memory row: no spare row is left there.
    RowRemapFailed,
    /// A CPU package was throttled by heat since boot.
    CpuThrottled,
}

/// A fact that needs a look, as one sentence for people.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub rule: Rule,
    /// What it is about when that is one part (`GPU 1`, as preflight names it); `None`
    /// for the machine.
    pub subject: Option<String>,
    /// `GPU 1 runs on x8 of its x16 PCIe lanes (slot, riser or bifurcation)`.
    pub says: String,
}

/// A GPU's negotiated link width against what the card can do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkWidth {
    /// Lanes in use now.
    pub now: u32,
    /// Lanes the card has (`card_width`).
    pub card: u32,
    /// The link's maximum where the slot or an upstream port caps it below the card's.
    pub slot: Option<u32>,
}

impl LinkWidth {
    /// True when the link runs on fewer lanes than the card has.
    pub fn is_narrow(&self) -> bool {
        self.now < self.card
    }
}

/// The lanes the card has: its own Link Capabilities where they were read, else the link's
/// maximum. The link's maximum is the narrowest of the card and every port above it, so a
/// x16 card in a slot wired x8 has a maximum of x8 and counts as narrow against its x16; a
/// link can never be wider than the card's own register, so a larger maximum from another
/// source does not make a x8 card narrow.
pub fn card_width(p: &Pcie) -> Option<u32> {
    p.device_max_width.or(p.max_width)
}

/// The link's width now against the card's; `None` when either is unknown.
pub fn link_width(p: &Pcie) -> Option<LinkWidth> {
    let (now, card) = (p.width?, card_width(p)?);
    Some(LinkWidth {
        now,
        card,
        slot: p.max_width.filter(|s| *s < card),
    })
}

/// How bad an NVML clock-throttle reason is. Names are compared without case or
/// punctuation, so `HW_THERMAL_SLOWDOWN`, `HwThermalSlowdown` and nvidia-smi's
/// "HW Thermal Slowdown" are the same reason.
pub fn throttle_severity(reason: &str) -> Status {
    let r: String = reason
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect();
    if r.contains("thermal") || r.contains("hwslowdown") || r.contains("powerbrake") {
        Status::Fail
    } else if r.contains("power") {
        // SW power cap: the board is at its power limit, which an idle GPU is not.
        Status::Warn
    } else {
        // GPU idle, application clocks, sync boost, display clock: not a fault.
        Status::Pass
    }
}

/// The throttle reasons that hold the clocks down (heat, the power brake): a fault, where
/// the others are settings or idling.
pub fn clocks_held_down(s: &GpuState) -> Vec<&str> {
    s.throttle_reasons
        .iter()
        .flatten()
        .filter(|r| throttle_severity(r) == Status::Fail)
        .map(String::as_str)
        .collect()
}

/// The uncorrected ECC errors, when there are any.
pub fn uncorrected_ecc_errors(s: &GpuState) -> Option<u64> {
    s.ecc_errors_uncorrected.filter(|n| *n > 0)
}

/// True when retired pages (or remapped rows) wait for a GPU reset.
pub fn pages_pending(s: &GpuState) -> bool {
    s.retired_pages_pending == Some(true)
}

/// How the memory is unbalanced, when the headroom probe found it so.
pub fn memory_unbalanced(spec: &Spec) -> Option<&str> {
    let m = spec.headroom.as_ref()?.memory.as_ref()?;
    (m.balanced == Some(false)).then_some(m.balance_detail.as_str())
}

/// The offline CPUs, as a CPU list, when there are any.
pub fn cpus_offline(spec: &Spec) -> Option<&str> {
    spec.cpu.offline.as_deref().filter(|o| !o.is_empty())
}

/// Everything in `spec` that needs a look, in the order of the report: CPUs, memory, then
/// each GPU.
pub fn attention(spec: &Spec) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut say = |rule, subject: Option<&str>, says: String| {
        out.push(Finding {
            rule,
            subject: subject.map(String::from),
            says,
        })
    };
    if let Some(off) = cpus_offline(spec) {
        say(
            Rule::CpusOffline,
            None,
            format!("CPUs {off} are offline: counts cover online CPUs only"),
        );
    }
    if let Some(detail) = memory_unbalanced(spec) {
        say(
            Rule::MemoryUnbalanced,
            None,
            format!("memory is unbalanced: {detail}"),
        );
    }
    if let Some(note) = memory_unseen(&spec.memory) {
        say(Rule::MemoryUnseen, None, note);
    }
    for (i, g) in spec.gpus.iter().enumerate() {
        let who = format!("GPU {}", g.index.unwrap_or(i as u32));
        if let Some(l) = link_width(&g.pcie).filter(LinkWidth::is_narrow) {
            say(
                Rule::NarrowLink,
                Some(&who),
                format!(
                    "{who} runs on x{} of its x{} PCIe lanes (slot, riser or bifurcation)",
                    l.now, l.card
                ),
            );
        }
        if let Some(c) = g.identity_contradiction() {
            say(
                Rule::IdentityContradicted,
                Some(&who),
                format!("{who} is not the board its PCI id says: {c}"),
            );
        }
        let s = &g.state;
        let held = clocks_held_down(s);
        if !held.is_empty() {
            let temp = s
                .temperature_c
                .map(|t| format!(" at {t} °C"))
                .unwrap_or_default();
            say(
                Rule::ClocksHeldDown,
                Some(&who),
                format!("{who} clocks held down{temp}: {}", held.join(", ")),
            );
        }
        if let Some(n) = uncorrected_ecc_errors(s) {
            say(
                Rule::EccErrors,
                Some(&who),
                format!("{who} has {n} uncorrected ECC errors"),
            );
        }
        if pages_pending(s) {
            say(
                Rule::PagesPending,
                Some(&who),
                format!("{who} has retired memory pages pending: reset the GPU to apply"),
            );
        }
    }
    for j in health::findings(spec) {
        let rule = match j.kind {
            health::Kind::Drive => Rule::DriveHealth,
            health::Kind::Memory => Rule::MemoryErrors,
            health::Kind::Link => Rule::PcieErrors,
            health::Kind::Gpu => Rule::GpuHealth,
            health::Kind::GpuRemapFailed => Rule::RowRemapFailed,
            health::Kind::GpuPending => Rule::PagesPending,
            health::Kind::Cpu => Rule::CpuThrottled,
        };
        say(rule, Some(&j.part), j.says());
    }
    // A fast adapter in a narrow slot cannot carry its ports' speed (a 100 Gb card on x4).
    for n in &spec.nics {
        let Some(l) = n
            .pcie
            .as_ref()
            .and_then(link_width)
            .filter(LinkWidth::is_narrow)
        else {
            continue;
        };
        let who = match &n.pci_address {
            Some(a) => format!("network adapter {a}"),
            None => "a network adapter".to_string(),
        };
        say(
            Rule::NarrowLink,
            Some(&who),
            format!(
                "{who} runs on x{} of its x{} PCIe lanes (slot, riser or bifurcation)",
                l.now, l.card
            ),
        );
    }
    out
}

/// What the inventory learnt of why NVIDIA GPUs on the PCI bus do not answer: the reason
/// NVML is unavailable, from the GPUs' notes; empty when none says.
pub fn nvml_unavailable(spec: &Spec) -> &str {
    spec.notes
        .iter()
        .filter(|n| n.field.starts_with("gpus"))
        .find_map(|n| n.reason.split_once("NVML unavailable: ").map(|(_, w)| w))
        .unwrap_or("")
}

/// True when the NVIDIA driver is known not to be installed (its library is missing, or the
/// machine was recorded without one), not merely silent.
pub fn nvidia_driver_not_installed(spec: &Spec) -> bool {
    let why = nvml_unavailable(spec);
    why.contains("not found")
        || why.contains("install the NVIDIA driver")
        || why.contains("without an NVIDIA driver")
}

/// The driver and CUDA version of an NVIDIA GPU that does not answer, where the driver is
/// known not to be installed: `not installed`, not unknown. `None` where the versions are
/// read, or where nothing is known of why they are not.
pub fn driver_not_installed(spec: &Spec, g: &Gpu) -> Option<&'static str> {
    (g.vendor == crate::spec::GpuVendor::Nvidia
        && g.index.is_none()
        && g.driver_version.is_none()
        && g.cuda_version.is_none()
        && nvidia_driver_not_installed(spec))
    .then_some("not installed")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Gpu;

    fn said(spec: &Spec) -> Vec<String> {
        attention(spec).into_iter().map(|f| f.says).collect()
    }

    #[test]
    fn a_narrow_link_and_a_thermal_throttle_need_a_look_an_idle_gpu_does_not() {
        let mut spec = Spec::default();
        let mut g = Gpu {
            index: Some(1),
            ..Default::default()
        };
        g.pcie.width = Some(8);
        g.pcie.max_width = Some(16);
        g.state.throttle_reasons = Some(vec!["gpu_idle".into(), "hw_thermal_slowdown".into()]);
        g.state.temperature_c = Some(89);
        spec.gpus.push(g);
        assert_eq!(
            said(&spec),
            [
                "GPU 1 runs on x8 of its x16 PCIe lanes (slot, riser or bifurcation)",
                "GPU 1 clocks held down at 89 °C: hw_thermal_slowdown"
            ]
        );
        spec.gpus[0].pcie.width = Some(16);
        spec.gpus[0].state.throttle_reasons = Some(vec!["gpu_idle".into()]);
        assert!(attention(&spec).is_empty());
    }

    #[test]
    fn a_network_adapter_on_fewer_lanes_than_it_has_needs_a_look() {
        // An X710 (PCIe 3.0 x8) trained at x4, and its twin at its full x8.
        let nic = |addr: &str, width| crate::spec::Nic {
            pci_address: Some(addr.into()),
            pcie: Some(Pcie {
                width: Some(width),
                max_width: Some(8),
                ..Default::default()
            }),
            ..Default::default()
        };
        let mut spec = Spec::default();
        spec.nics.push(nic("0000:5d:00.0", 4));
        spec.nics.push(nic("0000:af:00.0", 8));
        assert_eq!(
            said(&spec),
            ["network adapter 0000:5d:00.0 runs on x4 of its x8 PCIe lanes (slot, riser or bifurcation)"]
        );
        spec.nics[0].pcie = None;
        assert!(attention(&spec).is_empty());
    }

    #[test]
    fn a_x16_card_in_a_x8_slot_is_narrow_a_x8_card_is_not() {
        // The card has x16; the slot (its port) is wired x8: the link's maximum is x8.
        let in_x8_slot = Pcie {
            width: Some(8),
            max_width: Some(8),
            device_max_width: Some(16),
            ..Pcie::default()
        };
        let l = link_width(&in_x8_slot).unwrap_or_else(|| panic!("widths are known"));
        assert_eq!(
            (l.is_narrow(), l.card, l.slot),
            (true, 16, Some(8)),
            "{l:?}"
        );
        // A x8 card (its own register says x8) at x8 is not narrow, whatever maximum
        // another source gives the link.
        let x8_card = Pcie {
            width: Some(8),
            max_width: Some(16),
            device_max_width: Some(8),
            ..Pcie::default()
        };
        assert!(!link_width(&x8_card).is_some_and(|l| l.is_narrow()));
        // Without the card's register (a Windows capture): the link's maximum.
        let windows = Pcie {
            width: Some(8),
            max_width: Some(16),
            ..Pcie::default()
        };
        assert!(link_width(&windows).is_some_and(|l| l.is_narrow()));
        assert_eq!(link_width(&Pcie::default()), None);
    }

    #[test]
    fn memory_the_os_does_not_see_needs_a_look() {
        let mut spec = Spec::default();
        spec.memory.total_bytes = Some(128 << 30);
        spec.memory.total_source = Some("dimms".into());
        spec.memory.usable_bytes = Some(94 << 30);
        let f = attention(&spec);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].rule, Rule::MemoryUnseen);
        assert!(f[0]
            .says
            .starts_with("the OS sees 94 GiB (MemTotal) of the 128 GiB"));
        spec.memory.usable_bytes = Some(125 << 30);
        assert!(attention(&spec).is_empty());
    }

    #[test]
    fn throttle_reason_spellings() {
        assert_eq!(throttle_severity("HW Thermal Slowdown"), Status::Fail);
        assert_eq!(throttle_severity("HwPowerBrakeSlowdown"), Status::Fail);
        assert_eq!(throttle_severity("HW_SLOWDOWN"), Status::Fail);
        assert_eq!(throttle_severity("SW Power Cap"), Status::Warn);
        assert_eq!(throttle_severity("GpuIdle"), Status::Pass);
        assert_eq!(
            throttle_severity("APPLICATIONS_CLOCKS_SETTING"),
            Status::Pass
        );
    }
}
