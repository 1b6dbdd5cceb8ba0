//! GPU checks: how many are visible to the job, and whether each is free, cool, unthrottled,
//! on a full-width link, free of memory errors, and kept initialised.

use crate::preflight::check::{Check, Options, Status};
use crate::rules::{self, throttle_severity};
use crate::spec::{Gpu, Spec};
use crate::units::bytes_bin;

/// Share of VRAM that may be in use before a GPU counts as busy when no --min-free-vram
/// is given: an idle driver context takes 300–600 MiB, a few % of any training GPU.
const MAX_IDLE_USED_PERCENT: u64 = 10;

pub use crate::rules::workers::visible;

/// All GPU checks: the count, then per visible GPU, then driver and CUDA versions.
pub fn checks(spec: &Spec, visible: &[&Gpu], opts: &Options) -> Vec<Check> {
    let on_pci = spec.gpus.len();
    // A training machine without a GPU is not ready: one GPU is asked unless `--gpus 0` says
    // the job runs on the CPU.
    let wanted = opts.gpus.unwrap_or(1);
    let mut out = Vec::new();
    if wanted == 0 && visible.is_empty() {
        out.push(Check::not_checked(
            "gpu.count",
            format!("{on_pci} on PCI"),
            "--gpus 0: the job runs on the CPU, so no GPU check is run",
        ));
        return out;
    }
    out.push(count(spec, visible, wanted, opts));
    for g in visible {
        let who = subject(g);
        out.push(free_vram(g, opts).on(&who));
        out.push(processes(g).on(&who));
        out.push(temperature(g, opts).on(&who));
        out.push(throttle(g).on(&who));
        out.push(pcie(g).on(&who));
        out.push(ecc(g).on(&who));
        out.push(persistence(g).on(&who));
    }
    let first = visible.first().copied();
    out.push(version_check(
        "gpu.driver",
        first.and_then(|g| g.driver_version.as_deref()),
        opts.min_driver.as_deref(),
        "install a newer NVIDIA driver (or a newer CUDA forward-compat package)",
    ));
    out.push(version_check(
        "gpu.cuda",
        first.and_then(|g| g.cuda_version.as_deref()),
        opts.min_cuda.as_deref(),
        "the driver decides the highest CUDA it runs: install a newer driver",
    ));
    out
}

/// Why GPUs on PCI do not answer, from what the inventory learnt: no driver installed (the
/// NVML library is missing) names the fix, not `nvidia-smi`, which is not there either.
fn no_answer(spec: &Spec) -> String {
    let why = crate::rules::nvml_unavailable(spec);
    if crate::rules::nvidia_driver_not_installed(spec) {
        "NVIDIA driver not installed: install it (Ubuntu `sudo ubuntu-drivers install`, RHEL \
         `sudo dnf install nvidia-driver` from NVIDIA's CUDA repository, Windows the driver from \
         nvidia.com/drivers), then reboot"
            .into()
    } else if why.contains("kernel driver not loaded") {
        format!("NVIDIA driver installed but not running: {why}")
    } else if why.is_empty() {
        "the driver does not answer (NVML): check `nvidia-smi`; in a container run with the \
         NVIDIA runtime (docker --gpus all)"
            .into()
    } else {
        format!(
            "the driver does not answer: {why}; in a container run with the NVIDIA runtime \
             (docker --gpus all)"
        )
    }
}

fn subject(g: &Gpu) -> String {
    match g.index {
        Some(i) => format!("GPU {i}"),
        None => "GPU".into(),
    }
}

fn count(spec: &Spec, visible: &[&Gpu], wanted: u32, opts: &Options) -> Check {
    let on_pci = spec.gpus.len();
    let answering = spec.gpus.iter().filter(|g| g.index.is_some()).count();
    let n = visible.len();
    let mut found = format!("{n} visible");
    if let Some(cvd) = &opts.visible_devices {
        found.push_str(&format!(" (CUDA_VISIBLE_DEVICES={cvd})"));
    }
    found.push_str(&format!(", {on_pci} on PCI"));
    let expected = format!("≥ {wanted}");
    if (n as u64) >= u64::from(wanted) {
        return Check::new("gpu.count", Status::Pass, found).expect(expected);
    }
    let advice = if on_pci > 0 && answering == 0 {
        return Check::new("gpu.count", Status::Fail, found)
            .expect(expected)
            .advise(no_answer(spec));
    } else if opts.visible_devices.is_some() && answering > n {
        "CUDA_VISIBLE_DEVICES hides some GPUs (an unknown entry ends the list): widen it"
    } else if on_pci == 0 {
        "no NVIDIA GPU on the PCI bus: run on a GPU node, or pass --gpus 0 for a CPU-only job"
    } else if (on_pci as u64) < u64::from(wanted) {
        "this machine has fewer GPUs than asked: run on a bigger node or lower --gpus"
    } else {
        "some GPUs on PCI do not answer NVML: check `nvidia-smi` and `dmesg` for Xid errors"
    };
    Check::new("gpu.count", Status::Fail, found)
        .expect(expected)
        .advise(advice)
}

fn free_vram(g: &Gpu, opts: &Options) -> Check {
    let (Some(total), Some(used)) = (g.vram_bytes, g.state.memory_used_bytes) else {
        return Check::new("gpu.free_vram", Status::Unknown, "unknown")
            .advise("NVML gave no memory figures: check `nvidia-smi`");
    };
    let free = total.saturating_sub(used);
    let found = format!("{} free of {}", bytes_bin(free), bytes_bin(total));
    if let Some(min) = opts.min_free_vram {
        let c = Check::new("gpu.free_vram", Status::Pass, found)
            .expect(format!("≥ {}", bytes_bin(min)));
        if free < min {
            return Check {
                status: Some(Status::Fail),
                ..c
            }
            .advise("free the GPU (see gpu.processes) or pick another with CUDA_VISIBLE_DEVICES");
        }
        return c;
    }
    let expected = format!("≤ {MAX_IDLE_USED_PERCENT}% in use");
    if used.saturating_mul(100) > total.saturating_mul(MAX_IDLE_USED_PERCENT) {
        return Check::new("gpu.free_vram", Status::Warn, found)
            .expect(expected)
            .advise("something holds VRAM: see gpu.processes, or pass --min-free-vram SIZE");
    }
    Check::new("gpu.free_vram", Status::Pass, found).expect(expected)
}

fn processes(g: &Gpu) -> Check {
    let Some(procs) = &g.state.compute_processes else {
        return Check::new("gpu.processes", Status::Unknown, "unknown")
            .advise("NVML did not list processes (driver before R510, or no permission)");
    };
    if procs.is_empty() {
        return Check::new("gpu.processes", Status::Pass, "none");
    }
    let list: Vec<String> = procs
        .iter()
        .map(|p| match p.used_memory_bytes {
            Some(b) => format!("PID {} ({})", p.pid, bytes_bin(b)),
            None => format!("PID {}", p.pid),
        })
        .collect();
    Check::new("gpu.processes", Status::Fail, list.join(", "))
        .expect("none")
        .advise("stop them (host PIDs; `nvidia-smi` shows them) or use other GPUs")
}

fn temperature(g: &Gpu, opts: &Options) -> Check {
    let expected = format!("≤ {} °C", opts.max_gpu_temp);
    match g.state.temperature_c {
        None => Check::new("gpu.temperature", Status::Unknown, "unknown")
            .expect(expected)
            .advise("NVML gave no temperature: check `nvidia-smi -q -d TEMPERATURE`"),
        Some(t) if t > opts.max_gpu_temp => {
            Check::new("gpu.temperature", Status::Fail, format!("{t} °C"))
                .expect(expected)
                .advise("let it cool; check fans, airflow and that nothing else runs on it")
        }
        Some(t) => Check::new("gpu.temperature", Status::Pass, format!("{t} °C")).expect(expected),
    }
}

fn throttle(g: &Gpu) -> Check {
    let Some(reasons) = &g.state.throttle_reasons else {
        return Check::new("gpu.throttle", Status::Unknown, "unknown").advise(
            "NVML gave no clock-throttle reasons for this GPU: check `nvidia-smi -q -d PERFORMANCE`",
        );
    };
    let worst = reasons
        .iter()
        .map(|r| throttle_severity(r))
        .max()
        .unwrap_or(Status::Pass);
    let found = if reasons.is_empty() {
        "none".to_string()
    } else {
        reasons.join(", ")
    };
    let c = Check::new("gpu.throttle", worst, found).expect("no thermal or power throttle");
    match worst {
        Status::Fail => c.advise("clocks are held down by heat or the power supply: check cooling, power cables and `nvidia-smi -q -d PERFORMANCE`"),
        Status::Warn => c.advise("held at its power limit while idle: check `nvidia-smi -q -d POWER` and what runs on it"),
        _ => c,
    }
}

fn pcie(g: &Gpu) -> Check {
    let p = &g.pcie;
    // The card's own width is the goal: NVML's "max" is already capped by the slot, so a
    // x16 card in a slot wired (or a riser trained) x8 would otherwise look at its max.
    let Some(link) = rules::link_width(p) else {
        return Check::new("gpu.pcie", Status::Unknown, "unknown")
            .advise("NVML gave no PCIe link width: check `nvidia-smi -q -d PCI`");
    };
    let (w, mw) = (link.now, link.card);
    let gen = match (p.gen, p.max_gen) {
        (Some(a), Some(b)) => format!("Gen{a} (max Gen{b}) "),
        (Some(a), None) => format!("Gen{a} "),
        _ => String::new(),
    };
    let found = format!("{gen}x{w} of x{mw}");
    if link.is_narrow() {
        let slot = link
            .slot
            .map(|slot| format!(" (the slot or riser allows only x{slot})"))
            .unwrap_or_default();
        return Check::new("gpu.pcie", Status::Warn, format!("{found}{slot}"))
            .expect(format!("x{mw}"))
            .advise(
                "link runs narrower than the card can: reseat the card, move it to a x16 \
                 slot, check the riser (some boards also narrow at idle; recheck under load)",
            );
    }
    let c = Check::new("gpu.pcie", Status::Pass, found).expect(format!("x{mw}"));
    match (p.gen, p.max_gen) {
        (Some(a), Some(b)) if a < b => c.advise(rules::IDLE_LINK_GEN),
        _ => c,
    }
}

fn ecc(g: &Gpu) -> Check {
    let s = &g.state;
    if s.ecc_errors_uncorrected.is_none() && s.retired_pages_pending.is_none() {
        // No counters to judge: a setting or the board, not a fact that failed to read.
        return if s.ecc_enabled == Some(false) {
            Check::not_checked(
                "gpu.ecc",
                "ECC off",
                "ECC is off on this GPU, so it counts no errors",
            )
        } else {
            Check::not_checked(
                "gpu.ecc",
                "no ECC counters",
                "GeForce and most workstation boards have none",
            )
        };
    }
    let mut bad = Vec::new();
    if let Some(n) = rules::uncorrected_ecc_errors(s) {
        bad.push(format!("{n} uncorrectable ECC errors"));
    }
    if rules::pages_pending(s) || s.remapped_rows_pending == Some(true) {
        bad.push("page retirement / row remap pending".to_string());
    }
    if s.remapped_rows_failure == Some(true) {
        bad.push("a row remap failed: no spare row left (RMA the GPU)".to_string());
    }
    if bad.is_empty() {
        let found = match s.ecc_errors_uncorrected {
            Some(_) => "0 uncorrectable, nothing pending",
            None => "nothing pending",
        };
        return Check::new("gpu.ecc", Status::Pass, found);
    }
    Check::new("gpu.ecc", Status::Fail, bad.join("; "))
        .expect("0 uncorrectable, nothing pending")
        .advise(
            "reset the GPU (`nvidia-smi -r`) or reboot to retire the pages; RMA if errors return",
        )
}

fn persistence(g: &Gpu) -> Check {
    match g.state.persistence_mode {
        Some(true) => Check::new("gpu.persistence", Status::Pass, "on"),
        Some(false) => Check::new("gpu.persistence", Status::Warn, "off")
            .expect("on")
            .advise("each CUDA start re-initialises the GPU (seconds): `nvidia-smi -pm 1` or enable nvidia-persistenced"),
        None => Check::new("gpu.persistence", Status::Unknown, "unknown")
            .advise("NVML gave no persistence mode: check `nvidia-smi -q | grep -i persistence`"),
    }
}

fn version_check(id: &'static str, found: Option<&str>, min: Option<&str>, fix: &str) -> Check {
    let shown = found.unwrap_or("unknown");
    let Some(min) = min else {
        let flag = if id == "gpu.cuda" {
            "--min-cuda"
        } else {
            "--min-driver"
        };
        return Check::not_checked(id, shown, format!("no minimum asked: {flag} VER"));
    };
    let expected = format!("≥ {min}");
    let Some(found) = found else {
        return Check::new(id, Status::Unknown, shown)
            .expect(expected)
            .advise("NVML gave no version: check `nvidia-smi`");
    };
    match (version_key(found), version_key(min)) {
        (Some(f), Some(m)) if f >= m => Check::new(id, Status::Pass, shown).expect(expected),
        (Some(_), Some(_)) => Check::new(id, Status::Fail, shown)
            .expect(expected)
            .advise(fix),
        _ => Check::new(id, Status::Unknown, shown)
            .expect(expected)
            .advise("cannot compare these versions: give the minimum as numbers, e.g. 535.104"),
    }
}

/// Checks a minimum version given on the command line (`--min-driver 535.104`): numbers
/// separated by dots, so it can be compared with what the driver reports.
pub fn parse_min_version(text: &str) -> Result<String, String> {
    let t = text.trim();
    if !t.is_empty() && t.split('.').count() <= 4 && version_key(t).is_some() {
        Ok(t.to_string())
    } else {
        Err(format!(
            "'{text}' is not a version; give numbers separated by dots, e.g. 535.104 or 12.2"
        ))
    }
}

/// `550.54.15` → [550, 54, 15, 0, ...] padded, so `12.2` < `12.10` and `535` = `535.0`.
fn version_key(v: &str) -> Option<[u64; 4]> {
    let mut key = [0u64; 4];
    for (i, part) in v.trim().split('.').enumerate() {
        if i >= 4 {
            break;
        }
        key[i] = part.parse().ok()?;
    }
    Some(key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{GpuProcess, GpuState, Pcie};

    const GIB: u64 = 1024 * 1024 * 1024;

    /// A Quadro RTX 6000 as the reference Z8 G4 has it: 24 GiB, idle, Gen3 x16 slot.
    fn rtx6000(index: u32) -> Gpu {
        Gpu {
            index: Some(index),
            name: Some("Quadro RTX 6000".into()),
            uuid: Some(format!("GPU-8f1a2b3c-000{index}-4d5e-8f90-123456789abc")),
            vram_bytes: Some(24 * GIB),
            pcie: Pcie {
                gen: Some(1),
                width: Some(16),
                max_gen: Some(3),
                max_width: Some(16),
                ..Pcie::default()
            },
            numa_node: Some(i32::try_from(index).unwrap_or(0)),
            local_cpus: Some(
                if index == 0 {
                    "0-17,36-53"
                } else {
                    "18-35,54-71"
                }
                .into(),
            ),
            driver_version: Some("550.54.15".into()),
            cuda_version: Some("12.4".into()),
            state: GpuState {
                temperature_c: Some(34),
                memory_used_bytes: Some(300 * 1024 * 1024),
                persistence_mode: Some(true),
                ecc_errors_uncorrected: Some(0),
                retired_pages_pending: Some(false),
                throttle_reasons: Some(vec!["GPU_IDLE".into()]),
                compute_processes: Some(vec![]),
                ..GpuState::default()
            },
            ..Gpu::default()
        }
    }

    fn spec_with(gpus: Vec<Gpu>) -> Spec {
        Spec {
            gpus,
            ..Spec::default()
        }
    }

    fn opts() -> Options {
        Options {
            max_gpu_temp: 80,
            ..Options::default()
        }
    }

    fn find<'a>(checks: &'a [Check], id: &str, subject: Option<&str>) -> &'a Check {
        checks
            .iter()
            .find(|c| c.id == id && c.subject.as_deref() == subject)
            .unwrap_or_else(|| panic!("no check {id} {subject:?} in {checks:#?}"))
    }

    #[test]
    fn two_idle_rtx6000_pass_everything() {
        let spec = spec_with(vec![rtx6000(0), rtx6000(1)]);
        let vis = visible(&spec.gpus, None);
        let o = Options {
            gpus: Some(2),
            min_driver: Some("535.104".into()),
            min_cuda: Some("12.2".into()),
            ..opts()
        };
        let c = checks(&spec, &vis, &o);
        assert_eq!(c.len(), 1 + 2 * 7 + 2);
        for check in &c {
            assert_eq!(check.status, Some(Status::Pass), "{check:?}");
        }
        assert_eq!(find(&c, "gpu.count", None).found, "2 visible, 2 on PCI");
        let p = find(&c, "gpu.pcie", Some("GPU 1"));
        assert_eq!(p.found, "Gen1 (max Gen3) x16 of x16");
        assert!(p
            .advice
            .as_deref()
            .is_some_and(|a| a.contains("normal power saving")));
        assert_eq!(
            find(&c, "gpu.free_vram", Some("GPU 0")).found,
            "23.7 GiB free of 24 GiB"
        );
    }

    #[test]
    fn cuda_visible_devices_by_index_and_uuid_prefix() {
        let gpus = vec![rtx6000(0), rtx6000(1), rtx6000(2)];
        let idx = |v: Vec<&Gpu>| v.iter().filter_map(|g| g.index).collect::<Vec<_>>();
        assert_eq!(idx(visible(&gpus, Some("2,0"))), vec![2, 0]);
        assert_eq!(idx(visible(&gpus, Some("GPU-8f1a2b3c-0001"))), vec![1]);
        // CUDA stops at the first entry it cannot resolve.
        assert_eq!(idx(visible(&gpus, Some("1,7,2"))), vec![1]);
        // An ambiguous prefix resolves to nothing.
        assert_eq!(idx(visible(&gpus, Some("GPU-8f1a"))), Vec::<u32>::new());
        assert_eq!(idx(visible(&gpus, Some(""))), Vec::<u32>::new());
        assert_eq!(idx(visible(&gpus, Some("-1"))), Vec::<u32>::new());
    }

    #[test]
    fn hidden_gpus_fail_the_count_with_the_reason() {
        let spec = spec_with(vec![rtx6000(0), rtx6000(1)]);
        let o = Options {
            gpus: Some(2),
            visible_devices: Some("1".into()),
            ..opts()
        };
        let vis = visible(&spec.gpus, o.visible_devices.as_deref());
        let c = checks(&spec, &vis, &o);
        let n = find(&c, "gpu.count", None);
        assert_eq!(n.status, Some(Status::Fail));
        assert_eq!(n.found, "1 visible (CUDA_VISIBLE_DEVICES=1), 2 on PCI");
        assert!(n.advice.as_deref().is_some_and(|a| a.contains("hides")));
        // Only GPU 1 is checked.
        assert!(c.iter().all(|c| c.subject.as_deref() != Some("GPU 0")));
    }

    #[test]
    fn gpu_on_pci_without_driver_fails_default_count() {
        let spec = spec_with(vec![Gpu {
            pci_address: Some("0000:3b:00.0".into()),
            ..Gpu::default()
        }]);
        let c = checks(&spec, &visible(&spec.gpus, None), &opts());
        assert_eq!(c.len(), 3);
        let n = find(&c, "gpu.count", None);
        assert_eq!(
            (n.status, n.found.as_str()),
            (Some(Status::Fail), "0 visible, 1 on PCI")
        );
        assert!(n.advice.as_deref().is_some_and(|a| a.contains("NVML")));
        // Where the inventory knows the library is missing, the fix is to install the driver.
        let mut spec = spec;
        spec.notes.push(crate::spec::Note {
            field: "gpus[0]".into(),
            reason: "no driver: datasheet figures; NVML unavailable: libnvidia-ml.so.1 not \
                     found: install the NVIDIA driver"
                .into(),
        });
        let c = checks(&spec, &visible(&spec.gpus, None), &opts());
        let advice = find(&c, "gpu.count", None)
            .advice
            .clone()
            .unwrap_or_default();
        assert!(
            advice.starts_with("NVIDIA driver not installed"),
            "{advice}"
        );
        assert!(!advice.contains("nvidia-smi"), "{advice}");
    }

    #[test]
    fn no_gpu_on_pci_fails_unless_none_is_asked() {
        let spec = spec_with(vec![]);
        let c = checks(&spec, &[], &opts());
        let n = find(&c, "gpu.count", None);
        assert_eq!(n.status, Some(Status::Fail));
        assert!(n.advice.as_deref().is_some_and(|a| a.contains("--gpus 0")));
        let none = Options {
            gpus: Some(0),
            ..opts()
        };
        let c = checks(&spec, &[], &none);
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].status, None, "--gpus 0 runs no GPU check");
    }

    #[test]
    fn busy_hot_throttled_gpu_fails_its_own_lines() {
        let mut g = rtx6000(0);
        g.state.temperature_c = Some(87);
        g.state.throttle_reasons = Some(vec!["SW_POWER_CAP".into(), "HW_THERMAL_SLOWDOWN".into()]);
        g.state.memory_used_bytes = Some(20 * GIB);
        g.state.compute_processes = Some(vec![GpuProcess {
            pid: 4242,
            used_memory_bytes: Some(20 * GIB),
        }]);
        g.pcie.width = Some(8);
        g.state.persistence_mode = Some(false);
        g.state.ecc_errors_uncorrected = Some(3);
        g.state.retired_pages_pending = Some(true);
        let spec = spec_with(vec![g]);
        let o = Options {
            min_free_vram: Some(8 * GIB),
            min_driver: Some("560".into()),
            ..opts()
        };
        let c = checks(&spec, &visible(&spec.gpus, None), &o);
        let s = |id| find(&c, id, Some("GPU 0")).status;
        assert_eq!(s("gpu.free_vram"), Some(Status::Fail));
        assert_eq!(
            find(&c, "gpu.free_vram", Some("GPU 0")).found,
            "4 GiB free of 24 GiB"
        );
        assert_eq!(
            find(&c, "gpu.processes", Some("GPU 0")).found,
            "PID 4242 (20 GiB)"
        );
        assert_eq!(s("gpu.processes"), Some(Status::Fail));
        assert_eq!(s("gpu.temperature"), Some(Status::Fail));
        assert_eq!(s("gpu.throttle"), Some(Status::Fail));
        assert_eq!(s("gpu.pcie"), Some(Status::Warn));
        assert_eq!(
            find(&c, "gpu.pcie", Some("GPU 0")).found,
            "Gen1 (max Gen3) x8 of x16"
        );
        assert_eq!(
            find(&c, "gpu.ecc", Some("GPU 0")).found,
            "3 uncorrectable ECC errors; page retirement / row remap pending"
        );
        assert_eq!(s("gpu.ecc"), Some(Status::Fail));
        assert_eq!(s("gpu.persistence"), Some(Status::Warn));
        let d = find(&c, "gpu.driver", None);
        assert_eq!(
            (d.status, d.found.as_str()),
            (Some(Status::Fail), "550.54.15")
        );
        assert_eq!(find(&c, "gpu.cuda", None).status, None);
    }

    #[test]
    fn default_vram_rule_warns_over_ten_percent() {
        let mut g = rtx6000(0);
        g.state.memory_used_bytes = Some(3 * GIB);
        let c = free_vram(&g, &opts());
        assert_eq!(
            (c.status, c.found.as_str()),
            (Some(Status::Warn), "21 GiB free of 24 GiB")
        );
    }

    #[test]
    fn versions_compare_numerically() {
        assert!(version_key("12.10") > version_key("12.2"));
        assert_eq!(version_key("535"), version_key("535.0.0"));
        assert!(version_key("550.54.15") > version_key("535.104.05"));
        assert_eq!(version_key("r535"), None);
        let c = version_check("gpu.cuda", Some("12.4"), Some("abc"), "x");
        assert_eq!(
            c.status,
            Some(Status::Unknown),
            "an incomparable version is not known to meet the minimum"
        );
    }
}
