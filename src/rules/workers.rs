//! The data-loader worker rule: one answer to "how many workers per training process", given
//! by `preflight` (check `cpu.workers`) and by `bench cpu` alike, and which GPUs a job sees
//! (CUDA_VISIBLE_DEVICES).

use crate::spec::{Gpu, Limits, Spec};

/// The GPUs a CUDA program started now would see, in NVML index order.
///
/// CUDA_VISIBLE_DEVICES lists indices or UUIDs (a unique prefix such as `GPU-8f1a` is
/// enough); CUDA stops at the first entry it cannot resolve and ignores the rest, and an
/// empty value hides every GPU. Indices here are NVML's (PCI bus order), the same as
/// CUDA's only with CUDA_DEVICE_ORDER=PCI_BUS_ID. MIG entries are not resolved.
pub fn visible<'a>(gpus: &'a [Gpu], cvd: Option<&str>) -> Vec<&'a Gpu> {
    let mut answering: Vec<&Gpu> = gpus.iter().filter(|g| g.index.is_some()).collect();
    answering.sort_by_key(|g| g.index);
    let Some(cvd) = cvd else {
        return answering;
    };
    let mut out: Vec<&Gpu> = Vec::new();
    for entry in cvd.split(',').map(str::trim) {
        let hit = if let Ok(i) = entry.parse::<u32>() {
            answering.iter().find(|g| g.index == Some(i)).copied()
        } else if entry.len() > 4 && entry.starts_with("GPU-") {
            let mut m = answering
                .iter()
                .filter(|g| g.uuid.as_deref().is_some_and(|u| u.starts_with(entry)));
            match (m.next(), m.next()) {
                (Some(g), None) => Some(*g),
                _ => None,
            }
        } else {
            None
        };
        match hit {
            Some(g) if !out.iter().any(|o| o.index == g.index) => out.push(g),
            _ => break,
        }
    }
    out
}

/// CPUs this process may use: the affinity mask, cut by the cgroup CPU quota.
pub fn usable_cpus(l: &Limits) -> Option<f64> {
    let aff = l.affinity_count.map(f64::from);
    let quota = l.cpu_quota.as_ref().map(|q| q.cpus);
    match (aff, quota) {
        (Some(a), Some(q)) => Some(a.min(q)),
        (a, q) => a.or(q),
    }
}

/// Loader workers per training process: the usable CPUs shared among one process per GPU
/// (DDP; at least one process), less one CPU for each process's trainer.
pub fn per_process(usable_cpus: f64, processes: u32) -> u32 {
    let share = usable_cpus / f64::from(processes.max(1));
    // `as` saturates: NaN and negative shares are 0, never a wrapped count.
    (share.floor() as u32).saturating_sub(1)
}

/// The GPUs a training job gets one process each: those that answer and that
/// `visible_devices` (CUDA_VISIBLE_DEVICES) lets through.
pub fn visible_gpus(spec: &Spec, visible_devices: Option<&str>) -> u32 {
    visible(&spec.gpus, visible_devices).len() as u32
}

/// The rule on a machine: workers per process, with the usable CPUs of the affinity mask cut
/// by the cgroup quota; `None` when neither is known.
pub fn for_spec(spec: &Spec, visible_devices: Option<&str>) -> Option<u32> {
    let usable = usable_cpus(spec.limits.as_ref()?)?;
    Some(per_process(usable, visible_gpus(spec, visible_devices)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usable_cpus_shared_per_gpu_less_the_trainer() {
        // Two cores, no GPU: one process, one worker beside its trainer.
        assert_eq!(per_process(2.0, 0), 1);
        assert_eq!(per_process(2.0, 1), 1);
        // 72 CPUs, two GPUs: 36 each, 35 workers.
        assert_eq!(per_process(72.0, 2), 35);
        // A 2.5-CPU quota on one GPU: 2 whole CPUs, 1 worker; too few CPUs give 0.
        assert_eq!(per_process(2.5, 1), 1);
        assert_eq!(per_process(1.0, 4), 0);
        assert_eq!(per_process(f64::NAN, 1), 0);
    }
}
