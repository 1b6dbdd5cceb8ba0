//! Host checks: CPUs for data loading, governor, NUMA placement, memory, /dev/shm,
//! open-files limit, transparent huge pages, and the dataset's filesystem.

use crate::cpulist::parse_cpulist;
use crate::preflight::check::{Check, Options, Status};
use crate::source::Unknown;
use crate::spec::{DriveKind, Filesystem, Gpu, Limits, Spec};
use crate::units::{bytes_bin, bytes_dec};

const GIB: u64 = 1024 * 1024 * 1024;

/// Smallest /dev/shm (free) that PyTorch data loaders get by with: each worker hands every
/// batch to the trainer through it, and running out is a "Bus error" mid-epoch.
const MIN_SHM_BYTES: u64 = GIB;

/// Below this soft open-files limit, PyTorch's default `file_descriptor` sharing strategy
/// runs out ("Too many open files") with a few workers; systemd's default is 1024.
const MIN_OPEN_FILES: u64 = 4096;

/// Swap in use above this means the machine is already short of memory.
const SWAP_USED_WARN_BYTES: u64 = GIB;

/// Filesystems whose reads cross the network and are not built for parallel training I/O.
const NETWORK_FS: &[&str] = &[
    "nfs",
    "nfs4",
    "cifs",
    "smb3",
    "smbfs",
    "9p",
    "fuse.sshfs",
    "sshfs",
    "afs",
    "davfs",
    "fuse.s3fs",
    "fuse.rclone",
    "fuse.gcsfuse",
    "fuse.mountpoint-s3",
];

/// Parallel filesystems made for cluster training I/O: networked, but not a warning.
const PARALLEL_FS: &[&str] = &[
    "lustre",
    "gpfs",
    "beegfs",
    "ceph",
    "fuse.ceph",
    "glusterfs",
    "fuse.glusterfs",
    "wekafs",
    "fuse.weka",
];

fn limits(spec: &Spec) -> Limits {
    spec.limits.clone().unwrap_or_default()
}

/// Why a fact is unknown, from the spec's notes (first note whose field starts with `field`).
fn why(spec: &Spec, field: &str) -> String {
    spec.notes
        .iter()
        .find(|n| n.field.starts_with(field))
        .map(|n| n.reason.clone())
        .unwrap_or_else(|| "not read".into())
}

/// cpu.workers, cpu.governor, cpu.numa.
pub fn cpu_checks(spec: &Spec, visible: &[&Gpu], opts: &Options) -> Vec<Check> {
    let l = limits(spec);
    vec![
        workers(spec, &l, visible, opts),
        governor(spec, &l),
        numa(spec, &l, visible),
    ]
}

pub use crate::rules::workers::usable_cpus;

fn fmt_cpus(n: f64) -> String {
    if n.fract() == 0.0 {
        format!("{n:.0}")
    } else {
        format!("{n:.1}")
    }
}

fn workers(spec: &Spec, l: &Limits, visible: &[&Gpu], opts: &Options) -> Check {
    let Some(usable) = usable_cpus(l) else {
        return Check::new("cpu.workers", Status::Unknown, "unknown")
            .advise(why(spec, "limits.affinity"));
    };
    let mut parts = Vec::new();
    if let Some(a) = &l.affinity_cpus {
        parts.push(format!("affinity {a}"));
    }
    if let Some(q) = &l.cpu_quota {
        parts.push(format!(
            "cgroup quota {} from {} {}/{}",
            fmt_cpus(q.cpus),
            q.file,
            q.quota_us,
            q.period_us
        ));
    }
    let found = format!("{} usable CPUs ({})", fmt_cpus(usable), parts.join("; "));
    // One training process per GPU (DDP), each with its own loader workers.
    let procs = visible.len().max(1) as u32;
    let suggested = crate::rules::workers::per_process(usable, procs);
    let Some(w) = opts.workers else {
        let c = Check::new("cpu.workers", Status::Pass, found).advise(format!(
            "suggest --workers {suggested} (num_workers per GPU process: usable CPUs ÷ {procs} \
             process(es), less one for the trainer)"
        ));
        if suggested == 0 && !visible.is_empty() {
            return Check {
                status: Some(Status::Warn),
                ..c
            };
        }
        return c;
    };
    let hard = f64::from(w) * f64::from(procs);
    // In f64: `--workers 4294967295` plus the trainer must not overflow a u32.
    let ideal = (f64::from(w) + 1.0) * f64::from(procs);
    let expected = format!(
        "≥ {} ({w} workers + 1 trainer) × {procs} process(es)",
        fmt_cpus(ideal)
    );
    let fix = format!(
        "use --workers {suggested} (num_workers), or give the job more CPUs (docker --cpus, \
         Kubernetes resources.limits.cpu, Slurm --cpus-per-task)"
    );
    if usable < hard {
        Check::new("cpu.workers", Status::Fail, found)
            .expect(expected)
            .advise(fix)
    } else if usable < ideal {
        Check::new("cpu.workers", Status::Warn, found)
            .expect(expected)
            .advise(fix)
    } else {
        Check::new("cpu.workers", Status::Pass, found).expect(expected)
    }
}

fn governor(spec: &Spec, l: &Limits) -> Check {
    let mut govs = l.governors.clone();
    if govs.is_empty() {
        govs.extend(spec.cpu.governor.clone());
    }
    if govs.is_empty() {
        return Check::not_checked(
            "cpu.governor",
            "no cpufreq",
            "the kernel exposes no frequency scaling: a VM, or the firmware sets the clock",
        );
    }
    let found = govs.join(", ");
    if govs.iter().any(|g| g == "powersave") {
        return Check::new("cpu.governor", Status::Warn, found)
            .expect("performance")
            .advise("clocks ramp up late under bursty data loading: `cpupower frequency-set -g performance`");
    }
    Check::new("cpu.governor", Status::Pass, found)
}

fn numa(spec: &Spec, l: &Limits, visible: &[&Gpu]) -> Check {
    if visible.is_empty() {
        return Check::not_checked("cpu.numa", "no GPU", "no GPU to place");
    }
    let allowed = l
        .affinity_cpus
        .as_deref()
        .and_then(|l| parse_cpulist(l).ok());
    let mut placed = Vec::new();
    let mut far = Vec::new();
    let mut nodes = Vec::new();
    for g in visible {
        let idx = g.index.map(|i| i.to_string()).unwrap_or_default();
        let node = g.numa_node.filter(|&n| n >= 0);
        let cpus = g.local_cpus.clone().or_else(|| {
            let n = u32::try_from(node?).ok()?;
            spec.cpu
                .numa_nodes
                .iter()
                .find(|x| x.id == n)
                .map(|x| x.cpus.clone())
        });
        match (node, &cpus) {
            (Some(n), Some(c)) => placed.push(format!("GPU {idx} → node {n} (CPUs {c})")),
            (Some(n), None) => placed.push(format!("GPU {idx} → node {n}")),
            (None, Some(c)) => placed.push(format!("GPU {idx} → CPUs {c}")),
            (None, None) => placed.push(format!("GPU {idx} → no NUMA node")),
        }
        if let Some(n) = node {
            nodes.push(n);
        }
        if let (Some(a), Some(local)) = (
            &allowed,
            cpus.as_deref().and_then(|l| parse_cpulist(l).ok()),
        ) {
            if !local.is_empty() && !local.iter().any(|c| a.contains(c)) {
                far.push(idx);
            }
        }
    }
    let found = placed.join("; ");
    if !far.is_empty() {
        return Check::new("cpu.numa", Status::Warn, found)
            .expect("loaders on the GPU's own socket")
            .advise(format!(
                "this process may run only on CPUs of another socket than GPU {}: pin to the \
                 GPU's node (numactl --cpunodebind=N --membind=N)",
                far.join(", ")
            ));
    }
    nodes.sort_unstable();
    nodes.dedup();
    let c = Check::new("cpu.numa", Status::Pass, found);
    if nodes.len() > 1 {
        c.advise("pin each GPU's loaders to its node: numactl --cpunodebind=N --membind=N, or taskset -c CPUS")
    } else {
        c
    }
}

/// mem.installed (when the DIMMs are known), mem.available, mem.swap, mem.shm,
/// os.open_files, os.thp.
pub fn memory_checks(spec: &Spec) -> Vec<Check> {
    let l = limits(spec);
    let mut checks: Vec<Check> = installed(spec).into_iter().collect();
    checks.extend([
        available(spec, &l),
        swap(spec, &l),
        shm(spec, &l),
        open_files(spec, &l),
        thp(spec, &l),
    ]);
    checks
}

/// Whether the OS sees the memory the DIMMs add up to: a module the firmware disabled
/// leaves the machine with far less than it was bought with.
fn installed(spec: &Spec) -> Option<Check> {
    let m = &spec.memory;
    let dimms = m
        .total_bytes
        .filter(|_| m.total_source.as_deref() == Some("dimms"))?;
    let usable = m.usable_bytes?;
    let found = format!(
        "{} usable of {} installed",
        bytes_bin(usable),
        bytes_bin(dimms)
    );
    let expected = format!(
        "≥ {:.0}% of installed",
        (1.0 - crate::rules::MEMORY_UNSEEN_FRACTION) * 100.0
    );
    Some(match crate::rules::memory_unseen(m) {
        Some(why) => Check::new("mem.installed", Status::Warn, found)
            .expect(expected)
            .advise(why),
        None => Check::new("mem.installed", Status::Pass, found).expect(expected),
    })
}

/// Less memory than this in all (a cgroup `memory.max` of 0 or 1 byte) cannot hold a
/// Python interpreter, let alone a training job.
const MIN_JOB_MEMORY: u64 = 64 << 20;

fn available(spec: &Spec, l: &Limits) -> Check {
    let Some(mut avail) = l.mem_available_bytes else {
        return Check::new("mem.available", Status::Unknown, "unknown")
            .advise(why(spec, "limits.mem_available"));
    };
    let mut total = l.mem_total_bytes.unwrap_or(avail);
    let mut found_limit = String::new();
    if let Some(m) = &l.memory_limit {
        let room = m.max_bytes.saturating_sub(m.used_bytes.unwrap_or(0));
        avail = avail.min(room);
        total = total.min(m.max_bytes);
        found_limit = format!(" (cgroup limit {} from {})", bytes_bin(m.max_bytes), m.file);
    }
    let found = format!("{} of {}{found_limit}", bytes_bin(avail), bytes_bin(total));
    // 0 (or 1 byte) of 0 is no tenth short, and no job starts in it: below what an
    // interpreter alone needs, the limit is the answer.
    if total < MIN_JOB_MEMORY {
        return Check::new("mem.available", Status::Fail, found)
            .expect(format!("≥ {}", bytes_bin(MIN_JOB_MEMORY)))
            .advise("the memory limit leaves no room to start a job: raise the cgroup's memory.max (docker run --memory)");
    }
    if avail.saturating_mul(10) < total {
        return Check::new("mem.available", Status::Warn, found)
            .expect("≥ 10% free")
            .advise(
                "less than a tenth of memory is free: find what holds it (`ps aux --sort=-rss`)",
            );
    }
    Check::new("mem.available", Status::Pass, found).expect("≥ 10% free")
}

fn swap(spec: &Spec, l: &Limits) -> Check {
    let Some(total) = l.swap_total_bytes else {
        return Check::new("mem.swap", Status::Unknown, "unknown").advise(why(spec, "limits.mem"));
    };
    if total == 0 {
        return Check::new("mem.swap", Status::Pass, "none").advise(
            "without swap a job that runs out of memory is killed at once rather than slowed",
        );
    }
    let used = total.saturating_sub(l.swap_free_bytes.unwrap_or(total));
    let found = format!("{} used of {}", bytes_bin(used), bytes_bin(total));
    if used >= SWAP_USED_WARN_BYTES {
        return Check::new("mem.swap", Status::Warn, found)
            .expect(format!("< {} used", bytes_bin(SWAP_USED_WARN_BYTES)))
            .advise(
                "the machine is short of memory and pages to disk: free memory before training",
            );
    }
    Check::new("mem.swap", Status::Pass, found)
}

fn shm(spec: &Spec, l: &Limits) -> Check {
    let expected = format!("≥ {} free", bytes_bin(MIN_SHM_BYTES));
    let fix = "PyTorch data loaders pass batches through /dev/shm: docker run --shm-size=16g \
               (or --ipc=host); Kubernetes: an emptyDir with medium: Memory on /dev/shm";
    let Some(fs) = &l.shm else {
        // Mounts that could not be read (a recording without mountinfo) say nothing of
        // /dev/shm: unknown, not "not mounted".
        if spec.notes.iter().any(|n| n.field == "limits.filesystems") {
            return Check::new("mem.shm", Status::Unknown, "unknown")
                .expect(expected)
                .advise(why(spec, "limits.shm"));
        }
        return Check::new("mem.shm", Status::Fail, "not mounted")
            .expect(expected)
            .advise(fix);
    };
    let Some(total) = fs.total_bytes else {
        return Check::new("mem.shm", Status::Unknown, "unknown").advise(why(spec, "limits.shm"));
    };
    let free = fs.available_bytes;
    let found = match free {
        Some(f) => format!("{} free of {}", bytes_bin(f), bytes_bin(total)),
        None => format!("{} (size option)", bytes_bin(total)),
    };
    if free.unwrap_or(total) < MIN_SHM_BYTES {
        return Check::new("mem.shm", Status::Fail, found)
            .expect(expected)
            .advise(fix);
    }
    Check::new("mem.shm", Status::Pass, found).expect(expected)
}

fn open_files(spec: &Spec, l: &Limits) -> Check {
    let expected = format!("≥ {MIN_OPEN_FILES}");
    if l.open_files_soft.is_none() && l.open_files_hard.is_none() {
        if spec
            .notes
            .iter()
            .any(|n| n.field == "limits.open_files_soft")
        {
            return Check::new("os.open_files", Status::Unknown, "unknown")
                .advise(why(spec, "limits.open_files"));
        }
        return Check::new("os.open_files", Status::Pass, "unlimited");
    }
    let show = |v: Option<u64>| v.map_or("unlimited".to_string(), |n| n.to_string());
    let found = format!(
        "{} (hard {})",
        show(l.open_files_soft),
        show(l.open_files_hard)
    );
    match l.open_files_soft {
        Some(soft) if soft < MIN_OPEN_FILES => {
            // The soft limit rises to the hard one without root: that first, then what
            // raises the hard limit.
            const RAISE: &str = "raise nofile in /etc/security/limits.conf, or docker \
                                 --ulimit nofile=65536:65536";
            let fix = match l.open_files_hard {
                None => "`ulimit -n 65536` before starting the job (no root needed: the hard \
                         limit allows it)"
                    .to_string(),
                Some(h) if h >= 65_536 => "`ulimit -n 65536` before starting the job (no root \
                                           needed: the hard limit allows it)"
                    .to_string(),
                Some(h) if h > soft => format!(
                    "`ulimit -n {h}` before starting the job (no root needed: up to the hard \
                     limit){}",
                    if h < MIN_OPEN_FILES {
                        format!("; for more than {h}, {RAISE}")
                    } else {
                        String::new()
                    }
                ),
                Some(_) => RAISE.to_string(),
            };
            Check::new("os.open_files", Status::Warn, found)
                .expect(expected)
                .advise(fix)
        }
        _ => Check::new("os.open_files", Status::Pass, found).expect(expected),
    }
}

fn thp(spec: &Spec, l: &Limits) -> Check {
    match l.transparent_hugepages.as_deref() {
        None => Check::new("os.thp", Status::Unknown, "unknown")
            .advise(why(spec, "limits.transparent_hugepages")),
        Some("always") => Check::new("os.thp", Status::Warn, "always")
            .expect("madvise")
            .advise("page faults may stall on compaction; `echo madvise > /sys/kernel/mm/transparent_hugepage/enabled` lets allocators ask where it helps"),
        Some("madvise") => Check::new("os.thp", Status::Pass, "madvise"),
        Some(other) => Check::new("os.thp", Status::Pass, other).advise(
            "huge pages only where asked (madvise) usually serves large tensors better",
        ),
    }
}

/// disk.free and disk.kind for `--data`.
pub fn storage_checks(
    spec: &Spec,
    data: Option<Result<Filesystem, Unknown>>,
    opts: &Options,
) -> Vec<Check> {
    let shown = opts
        .data
        .as_deref()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let fs = match data {
        None => {
            return vec![
                Check::not_checked(
                    "disk.free",
                    "not asked",
                    "pass --data PATH to check the dataset's filesystem",
                ),
                Check::not_checked(
                    "disk.kind",
                    "not asked",
                    "pass --data PATH to check the dataset's filesystem",
                ),
            ]
        }
        Some(Err(e)) => {
            let status = if e.is_not_found() {
                Status::Fail
            } else {
                Status::Unknown
            };
            let found = if e.is_not_found() {
                format!("{shown}: no such file or directory")
            } else {
                "unknown".into()
            };
            let advice = if e.is_not_found() {
                "check the path, or mount the dataset (volume, NFS) before the job".to_string()
            } else {
                e.to_string()
            };
            return vec![
                Check::new("disk.free", status, found)
                    .on(&shown)
                    .advise(advice),
                Check::new("disk.kind", Status::Unknown, "unknown")
                    .on(&shown)
                    .advise("the filesystem of --data could not be read"),
            ];
        }
        Some(Ok(fs)) => fs,
    };
    vec![
        disk_free(&fs, opts).on(&shown),
        disk_kind(spec, &fs).on(&shown),
    ]
}

fn disk_free(fs: &Filesystem, opts: &Options) -> Check {
    let (Some(total), Some(avail)) = (fs.total_bytes, fs.available_bytes) else {
        return Check::new("disk.free", Status::Unknown, "unknown").advise(format!(
            "free space of {} was not recorded: capture on the machine with the dataset mounted",
            fs.mount_point
        ));
    };
    let pct = if total == 0 {
        0.0
    } else {
        avail as f64 * 100.0 / total as f64
    };
    let found = format!(
        "{} free of {} ({pct:.0}%) on {}",
        bytes_dec(avail),
        bytes_dec(total),
        fs.mount_point
    );
    let fix = "free space (old checkpoints, caches) or write outputs to another filesystem";
    if let Some(min) = opts.min_free_disk {
        let c =
            Check::new("disk.free", Status::Pass, found).expect(format!("≥ {}", bytes_dec(min)));
        return if avail < min {
            Check {
                status: Some(Status::Fail),
                ..c
            }
            .advise(fix)
        } else {
            c
        };
    }
    if pct < 5.0 {
        Check::new("disk.free", Status::Fail, found)
            .expect("≥ 10% free")
            .advise(fix)
    } else if pct < 10.0 {
        Check::new("disk.free", Status::Warn, found)
            .expect("≥ 10% free")
            .advise(fix)
    } else {
        Check::new("disk.free", Status::Pass, found).expect("≥ 10% free")
    }
}

fn disk_kind(spec: &Spec, fs: &Filesystem) -> Check {
    let t = fs.fstype.as_str();
    if NETWORK_FS.contains(&t) {
        return Check::new(
            "disk.kind",
            Status::Warn,
            format!("{t} (network) from {}", fs.source),
        )
        .expect("local SSD/NVMe or a parallel filesystem")
        .advise(
            "every epoch reads over the network: copy the dataset to local NVMe (or cache it)",
        );
    }
    if PARALLEL_FS.contains(&t) {
        return Check::new(
            "disk.kind",
            Status::Pass,
            format!("{t} (parallel filesystem)"),
        );
    }
    if t == "tmpfs" || t == "ramfs" {
        return Check::new("disk.kind", Status::Pass, format!("{t} (in memory)"));
    }
    let Some(disk) = &fs.disk else {
        if t == "overlay" {
            return Check::new("disk.kind", Status::Pass, "overlay (container layer)").advise(
                "the disk under the container layer is not visible; mount datasets as volumes",
            );
        }
        return Check::new(
            "disk.kind",
            Status::Unknown,
            format!("{t} on an unknown drive"),
        )
        .advise(format!(
            "could not trace {} to a drive in /sys/dev/block",
            fs.source
        ));
    };
    let drive = spec.drives.iter().find(|d| &d.name == disk);
    let kind = drive.and_then(|d| d.kind);
    let model = drive.and_then(|d| d.model.clone());
    let mut found = format!("{t} on {disk}");
    if let Some(k) = &kind {
        found.push_str(&format!(" ({k}"));
        if let Some(m) = &model {
            found.push_str(&format!(", {m}"));
        }
        found.push(')');
    }
    match kind {
        Some(DriveKind::Hdd) => Check::new("disk.kind", Status::Warn, found)
            .expect("SSD or NVMe")
            .advise(
                "random reads of a spinning disk starve the loaders: move the dataset to SSD/NVMe",
            ),
        Some(DriveKind::Virtual) => Check::new("disk.kind", Status::Pass, found)
            .advise("a virtual disk: its speed is the host's"),
        Some(_) => Check::new("disk.kind", Status::Pass, found),
        None => Check::new("disk.kind", Status::Unknown, found)
            .advise("the drive's kind is unknown (see the inventory's notes)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{CpuQuota, Drive, MemoryLimit};

    const MIB: u64 = 1024 * 1024;

    /// This VM's limits as read: 2 CPUs, no quota, 23.5 GiB RAM, 23.5 GiB /dev/shm.
    fn vm_limits() -> Limits {
        Limits {
            affinity_cpus: Some("0-1".into()),
            affinity_count: Some(2),
            mem_total_bytes: Some(24_684_084 * 1024),
            mem_available_bytes: Some(24_130_700 * 1024),
            swap_total_bytes: Some(0),
            swap_free_bytes: Some(0),
            shm: Some(Filesystem {
                mount_point: "/dev/shm".into(),
                fstype: "tmpfs".into(),
                source: "tmpfs".into(),
                total_bytes: Some(25_276_502_016),
                available_bytes: Some(25_276_502_016),
                ..Filesystem::default()
            }),
            open_files_soft: Some(20000),
            open_files_hard: Some(20000),
            transparent_hugepages: Some("madvise".into()),
            ..Limits::default()
        }
    }

    fn spec(l: Limits) -> Spec {
        Spec {
            limits: Some(l),
            ..Spec::default()
        }
    }

    #[test]
    fn vm_passes_memory_and_os() {
        let c = memory_checks(&spec(vm_limits()));
        let ids: Vec<_> = c.iter().map(|c| (c.id, c.status)).collect();
        assert_eq!(
            ids,
            vec![
                ("mem.available", Some(Status::Pass)),
                ("mem.swap", Some(Status::Pass)),
                ("mem.shm", Some(Status::Pass)),
                ("os.open_files", Some(Status::Pass)),
                ("os.thp", Some(Status::Pass)),
            ]
        );
        assert_eq!(c[0].found, "23 GiB of 23.5 GiB");
        assert_eq!(c[2].found, "23.5 GiB free of 23.5 GiB");
    }

    #[test]
    fn docker_defaults_fail_shm_and_workers() {
        let mut l = vm_limits();
        l.shm = Some(Filesystem {
            total_bytes: Some(64 * MIB),
            available_bytes: Some(64 * MIB),
            ..Filesystem::default()
        });
        l.cpu_quota = Some(CpuQuota {
            quota_us: 200_000,
            period_us: 100_000,
            cpus: 2.0,
            file: "/sys/fs/cgroup/cpu.max".into(),
        });
        l.affinity_cpus = Some("0-15".into());
        l.affinity_count = Some(16);
        let s = spec(l);
        let shm = &memory_checks(&s)[2];
        assert_eq!(
            (shm.status, shm.found.as_str()),
            (Some(Status::Fail), "64 MiB free of 64 MiB")
        );
        let o = Options {
            workers: Some(8),
            ..Options::default()
        };
        let w = &cpu_checks(&s, &[], &o)[0];
        assert_eq!(w.status, Some(Status::Fail));
        assert_eq!(
            w.found,
            "2 usable CPUs (affinity 0-15; cgroup quota 2 from /sys/fs/cgroup/cpu.max 200000/100000)"
        );
        assert!(w
            .advice
            .as_deref()
            .is_some_and(|a| a.starts_with("use --workers 1")));
    }

    #[test]
    fn workers_suggestion_per_gpu() {
        let mut l = vm_limits();
        l.affinity_count = Some(72);
        l.affinity_cpus = Some("0-71".into());
        let s = spec(l);
        let g0 = Gpu {
            index: Some(0),
            ..Gpu::default()
        };
        let g1 = Gpu {
            index: Some(1),
            ..Gpu::default()
        };
        let w = workers(
            &s,
            s.limits.as_ref().unwrap_or(&Limits::default()),
            &[&g0, &g1],
            &Options::default(),
        );
        assert_eq!(w.status, Some(Status::Pass));
        assert!(w
            .advice
            .as_deref()
            .is_some_and(|a| a.starts_with("suggest --workers 35")));
        let o = Options {
            workers: Some(35),
            ..Options::default()
        };
        let lim = s.limits.clone().unwrap_or_default();
        assert_eq!(
            workers(&s, &lim, &[&g0, &g1], &o).status,
            Some(Status::Pass)
        );
        let o = Options {
            workers: Some(36),
            ..Options::default()
        };
        assert_eq!(
            workers(&s, &lim, &[&g0, &g1], &o).status,
            Some(Status::Warn)
        );
    }

    #[test]
    fn numa_far_socket_warns() {
        // Z8 G4: GPU 1 on node 1 (CPUs 18-35,54-71), the job pinned to socket 0.
        let mut l = vm_limits();
        l.affinity_cpus = Some("0-17,36-53".into());
        let s = spec(l.clone());
        let g1 = Gpu {
            index: Some(1),
            numa_node: Some(1),
            local_cpus: Some("18-35,54-71".into()),
            ..Gpu::default()
        };
        let c = numa(&s, &l, &[&g1]);
        assert_eq!(c.status, Some(Status::Warn));
        assert_eq!(c.found, "GPU 1 → node 1 (CPUs 18-35,54-71)");
        let g0 = Gpu {
            index: Some(0),
            numa_node: Some(0),
            local_cpus: Some("0-17,36-53".into()),
            ..Gpu::default()
        };
        assert_eq!(numa(&s, &l, &[&g0]).status, Some(Status::Pass));
    }

    #[test]
    fn cgroup_memory_limit_bounds_available() {
        let mut l = vm_limits();
        l.memory_limit = Some(MemoryLimit {
            max_bytes: 8 * GIB,
            used_bytes: Some(7_800 * MIB),
            file: "/sys/fs/cgroup/memory.max".into(),
        });
        let c = available(&spec(l.clone()), &l);
        assert_eq!(c.status, Some(Status::Warn));
        assert!(c.found.starts_with("392 MiB of 8 GiB"), "{}", c.found);
    }

    #[test]
    fn a_cgroup_limit_of_a_byte_is_not_ready() {
        for max in [0, 1] {
            let mut l = vm_limits();
            l.memory_limit = Some(MemoryLimit {
                max_bytes: max,
                used_bytes: Some(0),
                file: "/sys/fs/cgroup/memory.max".into(),
            });
            let c = available(&spec(l.clone()), &l);
            assert_eq!(c.status, Some(Status::Fail), "{max}");
            assert_eq!(
                c.found,
                format!("{max} B of {max} B (cgroup limit {max} B from /sys/fs/cgroup/memory.max)")
            );
        }
    }

    #[test]
    fn a_soft_limit_under_the_hard_one_is_raised_without_root_first() {
        let mut l = vm_limits();
        l.open_files_soft = Some(1024);
        l.open_files_hard = Some(4096);
        let c = open_files(&spec(l.clone()), &l);
        assert_eq!(c.status, Some(Status::Warn));
        let advice = c.advice.unwrap_or_default();
        assert!(advice.starts_with("`ulimit -n 4096`"), "{advice}");
        assert!(!advice.contains("limits.conf"), "{advice}");
        // Below what a job needs even at the hard limit: ulimit first, then limits.conf.
        l.open_files_hard = Some(2048);
        let advice = open_files(&spec(l.clone()), &l).advice.unwrap_or_default();
        assert!(advice.starts_with("`ulimit -n 2048`"), "{advice}");
        assert!(advice.contains("limits.conf"), "{advice}");
        // Soft at the hard limit: only root raises it.
        l.open_files_hard = Some(1024);
        let advice = open_files(&spec(l.clone()), &l).advice.unwrap_or_default();
        assert!(advice.starts_with("raise nofile"), "{advice}");
    }

    #[test]
    fn open_files_systemd_default_warns() {
        let mut l = vm_limits();
        l.open_files_soft = Some(1024);
        l.open_files_hard = Some(524_288);
        let c = open_files(&spec(l.clone()), &l);
        assert_eq!(
            (c.status, c.found.as_str()),
            (Some(Status::Warn), "1024 (hard 524288)")
        );
        assert!(c
            .advice
            .as_deref()
            .is_some_and(|a| a.contains("ulimit -n 65536")));
    }

    #[test]
    fn disk_rules() {
        let fs = |avail: u64, fstype: &str, disk: Option<&str>| Filesystem {
            mount_point: "/data".into(),
            fstype: fstype.into(),
            source: "/dev/sdb1".into(),
            disk: disk.map(str::to_string),
            total_bytes: Some(4_000_787_030_016),
            available_bytes: Some(avail),
            ..Filesystem::default()
        };
        let s = Spec {
            drives: vec![Drive {
                name: "sdb".into(),
                model: Some("ST4000NM0035".into()),
                serial: None,
                firmware: None,
                size_bytes: Some(4_000_787_030_016),
                kind: Some(DriveKind::Hdd),
                transport: Some("sata".into()),
                rotational: Some(true),
                removable: Some(false),
                logical_block_size: None,
                physical_block_size: None,
                pci_address: None,
                pcie: None,
                numa_node: None,
                socket: None,
            }],
            ..Spec::default()
        };
        let o = Options::default();
        let c = disk_free(&fs(40_007_870_300, "ext4", Some("sdb")), &o);
        assert_eq!(c.status, Some(Status::Fail));
        assert_eq!(c.found, "40 GB free of 4 TB (1%) on /data");
        assert_eq!(
            disk_free(&fs(300_000_000_000, "ext4", None), &o).status,
            Some(Status::Warn)
        );
        let asked = Options {
            min_free_disk: Some(500_000_000_000),
            ..Options::default()
        };
        assert_eq!(
            disk_free(&fs(1_000_000_000_000, "ext4", None), &asked).status,
            Some(Status::Pass)
        );
        assert_eq!(
            disk_free(&fs(400_000_000_000, "ext4", None), &asked).status,
            Some(Status::Fail)
        );
        let k = disk_kind(&s, &fs(0, "ext4", Some("sdb")));
        assert_eq!(
            (k.status, k.found.as_str()),
            (Some(Status::Warn), "ext4 on sdb (hdd, ST4000NM0035)")
        );
        assert_eq!(
            disk_kind(&s, &fs(0, "nfs4", None)).status,
            Some(Status::Warn)
        );
        assert_eq!(
            disk_kind(&s, &fs(0, "lustre", None)).status,
            Some(Status::Pass)
        );
    }
}
