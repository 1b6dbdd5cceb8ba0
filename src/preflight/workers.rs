//! The data-loader worker rule: one answer to "how many workers per training process", given
//! by `preflight` (check `cpu.workers`) and by `bench cpu` alike.

use crate::preflight::gpu::visible;
use crate::spec::{Limits, Spec};

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
