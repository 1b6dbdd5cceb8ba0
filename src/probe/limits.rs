//! Limits probe: what this process may use — CPU affinity, cgroup CPU and memory limits,
//! /dev/shm, open-files limit, swap, transparent huge pages, cpufreq governors — and the
//! space on local filesystems.
//!
//! Files are read through `Source`, so a sysroot replays them. Two facts are not files:
//! the affinity mask (`sched_getaffinity`) and free space (`statvfs`). Live, they are asked
//! of the kernel and, when capturing, stored in `host.json`; in replay they come from
//! there, never from the host. Network filesystems are not stat'ed here (a dead NFS server
//! would hang the inventory); `probe_path` stats one when the user names a path on it.

use crate::cpulist::parse_cpulist;
use crate::probe::meminfo;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::Path;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::source::{Source, Unknown};
use crate::spec::{CpuQuota, Filesystem, Limits, MemoryLimit, Notes};

/// Recorded answers of the live-only calls, at the top of a sysroot.
pub const HOST_FILE: &str = "host.json";

/// Most filesystems stat'ed in one inventory (containers can carry hundreds of bind mounts).
const MAX_FILESYSTEMS: usize = 64;

/// Filesystem types whose data sits on a local block device (or is a container layer).
const LOCAL_FSTYPES: &[&str] = &[
    "ext2", "ext3", "ext4", "xfs", "btrfs", "zfs", "f2fs", "vfat", "exfat", "ntfs", "ntfs3", "jfs",
    "reiserfs", "bcachefs", "overlay",
];

/// `host.json`: what the kernel answered to calls that are not file reads.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct HostAnswers {
    /// sched_getaffinity(0) as a CPU list, e.g. `0-1`.
    pub affinity_cpus: Option<String>,
    /// statvfs by path asked (mount points, and paths given to `probe_path`).
    pub statvfs: BTreeMap<String, Space>,
}

/// Space of one filesystem from statvfs, in bytes.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize, PartialEq, Eq, JsonSchema)]
pub struct Space {
    /// f_blocks × f_frsize.
    pub total_bytes: u64,
    /// f_bavail × f_frsize (free to unprivileged users).
    pub available_bytes: u64,
}

/// One line of /proc/self/mountinfo (proc_pid_mountinfo(5)), borrowing the text: a path
/// is copied only where it holds an octal escape (`\040` for a space).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MountInfo<'a> {
    /// `major:minor` of the device.
    pub device: &'a str,
    /// Root of the mount within its filesystem (`/docker/abc` for a v1 cgroup in a container).
    pub root: Cow<'a, str>,
    pub mount_point: Cow<'a, str>,
    pub fstype: &'a str,
    pub source: Cow<'a, str>,
    /// Per-superblock options (`rw,cpu,cpuacct` for a v1 cgroup).
    pub super_options: &'a str,
}

/// Reads every limit of this process.
pub fn probe(src: &Source, notes: &mut Notes) -> Limits {
    let mut answers = recorded_answers(src, notes);
    let mut limits = Limits::default();

    let affinity = if src.is_live() {
        let a = live_affinity();
        answers.affinity_cpus = a.clone();
        a
    } else {
        answers.affinity_cpus.clone()
    };
    let affinity = affinity.or_else(|| {
        // Cpus_allowed_list is the same mask as the main thread sees it.
        let status = src.read_string("/proc/self/status").ok()?;
        parse_status_field(&status, "Cpus_allowed_list")
    });
    match affinity {
        Some(list) => {
            limits.affinity_count = cpu_list_count(&list);
            limits.affinity_cpus = Some(list);
        }
        None => notes.add(
            "limits.affinity_cpus",
            "neither recorded in host.json nor in /proc/self/status Cpus_allowed_list",
        ),
    }

    let mountinfo = src.read_string_within("/proc/self/mountinfo", crate::bounded::Budget::Large);
    let mounts = match &mountinfo {
        Ok(t) => parse_mountinfo(t),
        Err(e) => {
            notes.add("limits.filesystems", e);
            Vec::new()
        }
    };
    let groups = src.read_string("/proc/self/cgroup").and_then(|text| {
        parse_cgroup(&text).map_err(|d| Unknown::unparsable("/proc/self/cgroup", d))
    });
    match groups {
        Ok(groups) => {
            limits.cpu_quota = cpu_quota(src, &groups, &mounts);
            limits.memory_limit = memory_limit(src, &groups, &mounts);
        }
        Err(e) => {
            notes.add("limits.cpu_quota", &e);
            notes.add("limits.memory_limit", e);
        }
    }

    match src.meminfo() {
        Ok(text) => {
            let m = meminfo::parse(&text);
            let get = |k: &str| m.bytes(k).ok();
            limits.mem_total_bytes = get("MemTotal");
            limits.mem_available_bytes = get("MemAvailable");
            limits.swap_total_bytes = get("SwapTotal");
            limits.swap_free_bytes = get("SwapFree");
            if limits.mem_available_bytes.is_none() {
                notes.add(
                    "limits.mem_available_bytes",
                    "/proc/meminfo has no MemAvailable (Linux before 3.14)",
                );
            }
        }
        Err(e) => notes.add("limits.mem_available_bytes", e),
    }

    match src.read_string("/proc/self/limits") {
        Ok(text) => match parse_open_files(&text) {
            Some((soft, hard)) => {
                limits.open_files_soft = soft;
                limits.open_files_hard = hard;
            }
            None => notes.add(
                "limits.open_files_soft",
                "/proc/self/limits has no 'Max open files' line",
            ),
        },
        Err(e) => notes.add("limits.open_files_soft", e),
    }

    match src.read_string("/sys/kernel/mm/transparent_hugepage/enabled") {
        Ok(text) => limits.transparent_hugepages = parse_bracketed_choice(&text),
        Err(e) => notes.add("limits.transparent_hugepages", e),
    }

    limits.governors = governors(src);

    let mut space = |path: &str, notes: &mut Notes, field: &str| -> Option<Space> {
        if src.is_live() {
            match statvfs(Path::new(path)) {
                Ok(s) => {
                    answers.statvfs.insert(path.to_string(), s);
                    Some(s)
                }
                Err(e) => {
                    notes.add(field, format!("statvfs {path}: {e}"));
                    None
                }
            }
        } else {
            let hit = answers.statvfs.get(path).copied();
            if hit.is_none() {
                notes.add(
                    field,
                    format!("statvfs of {path} not recorded in host.json"),
                );
            }
            hit
        }
    };

    // /dev/shm: the last mount there is the one in effect (it can be listed twice).
    match mounts.iter().rev().find(|m| m.mount_point == "/dev/shm") {
        Some(m) => {
            let mut fs = filesystem(src, m);
            match space("/dev/shm", notes, "limits.shm.total_bytes") {
                Some(s) => {
                    fs.total_bytes = Some(s.total_bytes);
                    fs.available_bytes = Some(s.available_bytes);
                }
                None => {
                    // Only the size is in the mount options, and only when not the default
                    // of half of RAM (mm/shmem.c shmem_show_options).
                    fs.total_bytes = tmpfs_size(m.super_options)
                        .or_else(|| limits.mem_total_bytes.map(|t| t / 2));
                }
            }
            limits.shm = Some(fs);
        }
        // Not mounted only when mountinfo was read and lists no /dev/shm; unread, it is
        // unknown, for the reason mountinfo is.
        None => match &mountinfo {
            Ok(_) => notes.add(
                "limits.shm",
                "/dev/shm is not mounted (no entry in mountinfo)",
            ),
            Err(e) => notes.add("limits.shm", format!("mounts unknown: {e}")),
        },
    }

    let mut seen = BTreeMap::new();
    for m in &mounts {
        if LOCAL_FSTYPES.contains(&m.fstype) || m.source.starts_with("/dev/") {
            if m.fstype == "tmpfs" || m.fstype == "devtmpfs" {
                continue;
            }
            // A later mount on the same point hides the earlier one.
            seen.insert(m.mount_point.clone(), m);
        }
    }
    for (i, m) in seen.values().take(MAX_FILESYSTEMS).enumerate() {
        let mut fs = filesystem(src, m);
        if let Some(s) = space(&m.mount_point, notes, &format!("limits.filesystems[{i}]")) {
            fs.total_bytes = Some(s.total_bytes);
            fs.available_bytes = Some(s.available_bytes);
        }
        limits.filesystems.push(fs);
    }

    if src.is_recording() {
        if let Ok(text) = serde_json::to_string_pretty(&answers) {
            src.store_answer(HOST_FILE, text + "\n");
        }
    }
    limits
}

/// The filesystem holding `path` (which need not exist in a sysroot), with its space.
///
/// Live, `path` is resolved and stat'ed itself (a bind mount or subvolume can differ from its
/// mount point). In replay the mount comes from the recorded mountinfo and the space from
/// `host.json`, keyed by the path or else by its mount point.
pub fn probe_path(src: &Source, path: &Path) -> Result<Filesystem, Unknown> {
    let real = if src.is_live() {
        std::fs::canonicalize(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => Unknown::NotFound(path.to_path_buf()),
            std::io::ErrorKind::PermissionDenied => Unknown::PermissionDenied(path.to_path_buf()),
            _ => Unknown::Io {
                path: path.to_path_buf(),
                detail: e.to_string(),
            },
        })?
    } else {
        crate::source::normalize(path)
    };
    let answers: HostAnswers = if src.is_live() {
        HostAnswers::default()
    } else {
        src.recorded(HOST_FILE)
            .ok()
            .and_then(|t| serde_json::from_str(&t).ok())
            .unwrap_or_default()
    };
    // A capture records the filesystems, not the dataset: a path that is neither in the
    // recorded tree nor among the recorded statvfs answers may not exist on the machine at
    // all (the live run would say "no such file"), so its filesystem is not vouched for.
    if !src.is_live()
        && !src.exists(&real)
        && !answers
            .statvfs
            .contains_key(real.to_string_lossy().as_ref())
    {
        return Err(Unknown::NotRecorded(
            "whether the --data path exists (a capture records filesystems, not datasets): \
             run preflight on the machine itself",
        ));
    }
    let text = src.read_string_within("/proc/self/mountinfo", crate::bounded::Budget::Large)?;
    let mounts = parse_mountinfo(&text);
    let m = mount_of(&mounts, &real.to_string_lossy()).ok_or_else(|| {
        Unknown::unparsable(
            "/proc/self/mountinfo",
            "no mount holds the path (no / mount)",
        )
    })?;
    let mut fs = filesystem(src, m);
    let space = if src.is_live() {
        Some(statvfs(&real).map_err(|detail| Unknown::Io {
            path: real.clone(),
            detail,
        })?)
    } else {
        answers
            .statvfs
            .get(real.to_string_lossy().as_ref())
            .or_else(|| answers.statvfs.get(m.mount_point.as_ref()))
            .copied()
    };
    if let Some(s) = space {
        fs.total_bytes = Some(s.total_bytes);
        fs.available_bytes = Some(s.available_bytes);
    }
    Ok(fs)
}

/// The mount whose mount point is the longest prefix of `path` (the last such mount wins,
/// as it hides earlier ones).
pub fn mount_of<'a, 'b>(mounts: &'a [MountInfo<'b>], path: &str) -> Option<&'a MountInfo<'b>> {
    let mut best: Option<&MountInfo> = None;
    for m in mounts {
        let mp = m.mount_point.as_ref();
        let inside = mp == "/"
            || path == mp
            || (path.starts_with(mp) && path.as_bytes().get(mp.len()) == Some(&b'/'));
        if inside && best.is_none_or(|b| mp.len() >= b.mount_point.len()) {
            best = Some(m);
        }
    }
    best
}

fn recorded_answers(src: &Source, notes: &mut Notes) -> HostAnswers {
    if src.is_live() {
        return HostAnswers::default();
    }
    match src.recorded(HOST_FILE) {
        Ok(text) => match serde_json::from_str(&text) {
            Ok(a) => a,
            Err(e) => {
                notes.add("limits", format!("cannot parse {HOST_FILE}: {e}"));
                HostAnswers::default()
            }
        },
        Err(e) => {
            notes.add("limits", e);
            HostAnswers::default()
        }
    }
}

/// A `Filesystem` for a mount, with the disk under it when it is on a block device.
fn filesystem(src: &Source, m: &MountInfo) -> Filesystem {
    Filesystem {
        mount_point: m.mount_point.to_string(),
        fstype: m.fstype.to_string(),
        source: m.source.to_string(),
        device: Some(m.device.to_string()),
        disk: whole_disk(src, m),
        total_bytes: None,
        available_bytes: None,
    }
}

/// The whole-disk name under a mount: through `/sys/dev/block/MAJ:MIN` (or the mount
/// source, for btrfs's anonymous device numbers), partitions and one or two device-mapper
/// layers (LVM, LUKS).
fn whole_disk(src: &Source, m: &MountInfo) -> Option<String> {
    let by_dev = if m.device.starts_with("0:") {
        None
    } else {
        src.canonical(format!("/sys/dev/block/{}", m.device)).ok()
    };
    let canon = by_dev.or_else(|| {
        let name = m.source.strip_prefix("/dev/")?;
        let name = name.rsplit('/').next()?;
        src.canonical(format!("/sys/class/block/{name}")).ok()
    })?;
    disk_of(src, &canon, 0)
}

fn disk_of(src: &Source, canon: &Path, depth: usize) -> Option<String> {
    let name = canon.file_name()?.to_string_lossy().into_owned();
    if (name.starts_with("dm-") || name.starts_with("md")) && depth < 4 {
        let slaves = src.read_dir(canon.join("slaves")).ok()?;
        let first = slaves.first()?;
        let next = src.canonical(format!("/sys/class/block/{first}")).ok()?;
        return disk_of(src, &next, depth + 1);
    }
    // A partition's directory holds a `partition` file and sits in its disk's directory
    // (`.../block/sda/sda1`, `.../nvme/nvme0/nvme0n1/nvme0n1p2`): the disk is the parent.
    if src.exists(canon.join("partition")) {
        return Some(canon.parent()?.file_name()?.to_string_lossy().into_owned());
    }
    Some(name)
}

/// Distinct governors of all cpufreq policies.
fn governors(src: &Source) -> Vec<String> {
    let base = "/sys/devices/system/cpu/cpufreq";
    let mut out: Vec<String> = src
        .read_dir(base)
        .unwrap_or_default()
        .iter()
        .filter(|n| n.starts_with("policy"))
        .filter_map(|n| src.read_value(format!("{base}/{n}/scaling_governor")).ok())
        .filter(|g| !g.is_empty())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The tightest CPU quota on the path from this process's cgroup up to its mount root.
fn cpu_quota(src: &Source, groups: &[CgroupLine], mounts: &[MountInfo]) -> Option<CpuQuota> {
    let mut best: Option<CpuQuota> = None;
    // Outermost first: on a tie the innermost file is the one named.
    let mut consider = |q: CpuQuota| {
        if best.as_ref().is_none_or(|b| q.cpus <= b.cpus) {
            best = Some(q);
        }
    };
    each_cgroup_dir(src, groups, mounts, None, |dir| {
        let file = format!("{dir}/cpu.max");
        if let Ok(text) = src.read_value(&file) {
            if let Some((q, p)) = parse_cpu_max(&text) {
                consider(quota(q, p, file));
            }
        }
    });
    each_cgroup_dir(src, groups, mounts, Some("cpu"), |dir| {
        let qf = format!("{dir}/cpu.cfs_quota_us");
        let Ok(q) = src.read_parse::<i64>(&qf) else {
            return;
        };
        let Ok(p) = src.read_parse::<u64>(format!("{dir}/cpu.cfs_period_us")) else {
            return;
        };
        // -1 is "no limit" (Documentation/scheduler/sched-bwc.rst).
        if let Ok(q) = u64::try_from(q) {
            consider(quota(q, p, qf));
        }
    });
    best
}

fn quota(quota_us: u64, period_us: u64, file: String) -> CpuQuota {
    CpuQuota {
        quota_us,
        period_us,
        cpus: if period_us == 0 {
            0.0
        } else {
            quota_us as f64 / period_us as f64
        },
        file,
    }
}

/// v1 "unlimited" is the largest page-aligned i64 (9223372036854771712); anything this
/// big is no limit.
const V1_UNLIMITED: u64 = 1 << 62;

/// The tightest memory limit on the path from this process's cgroup up to its mount root.
fn memory_limit(src: &Source, groups: &[CgroupLine], mounts: &[MountInfo]) -> Option<MemoryLimit> {
    let mut best: Option<MemoryLimit> = None;
    // Outermost first: on a tie the innermost file is the one named.
    let mut consider = |l: MemoryLimit| {
        if best.as_ref().is_none_or(|b| l.max_bytes <= b.max_bytes) {
            best = Some(l);
        }
    };
    each_cgroup_dir(src, groups, mounts, None, |dir| {
        let file = format!("{dir}/memory.max");
        if let Ok(max) = src.read_parse::<u64>(&file) {
            let used_bytes = src.read_parse(format!("{dir}/memory.current")).ok();
            consider(MemoryLimit {
                max_bytes: max,
                used_bytes,
                file,
            });
        }
    });
    each_cgroup_dir(src, groups, mounts, Some("memory"), |dir| {
        let file = format!("{dir}/memory.limit_in_bytes");
        if let Ok(max) = src.read_parse::<u64>(&file) {
            if max < V1_UNLIMITED {
                let used_bytes = src.read_parse(format!("{dir}/memory.usage_in_bytes")).ok();
                consider(MemoryLimit {
                    max_bytes: max,
                    used_bytes,
                    file,
                });
            }
        }
    });
    best
}

/// Calls `visit` with each directory of this process's cgroup in one hierarchy, from the
/// mount point down, while the directory is there.
fn each_cgroup_dir(
    src: &Source,
    groups: &[CgroupLine],
    mounts: &[MountInfo],
    controller: Option<&str>,
    visit: impl FnMut(&str),
) {
    if let Some(place) = cgroup_place(groups, mounts, controller) {
        walk_cgroup(&place, |dir| src.exists(dir), visit);
    }
}

/// One line of /proc/self/cgroup: `id:controllers:path`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CgroupLine {
    pub id: String,
    /// Controllers of a v1 hierarchy (`cpu,cpuacct`); empty for v2.
    pub controllers: Vec<String>,
    pub path: String,
}

/// The longest cgroup path the kernel writes in /proc/self/cgroup: it formats the path into
/// one PATH_MAX buffer (`proc_cgroup_show` in kernel/cgroup/cgroup.c). So no real path is
/// more than 2048 levels deep.
pub const MAX_CGROUP_PATH: usize = 4096;

/// Parses /proc/self/cgroup (cgroups(7)). A path longer than the kernel writes is an error
/// naming its length (the limits under it are then unknown, not "none").
pub fn parse_cgroup(text: &str) -> Result<Vec<CgroupLine>, String> {
    let mut out = Vec::new();
    for l in text.lines() {
        let mut it = l.splitn(3, ':');
        let (Some(id), Some(ctl), Some(path)) = (it.next(), it.next(), it.next()) else {
            continue;
        };
        if path.len() > MAX_CGROUP_PATH {
            return Err(format!(
                "a cgroup path of {} bytes; the kernel writes at most {MAX_CGROUP_PATH}",
                path.len()
            ));
        }
        out.push(CgroupLine {
            id: id.to_string(),
            controllers: ctl
                .split(',')
                .filter(|s| !s.is_empty())
                .map(str::to_string)
                .collect(),
            path: path.to_string(),
        });
    }
    Ok(out)
}

/// Where this process sits in one cgroup hierarchy: the hierarchy's directory at its mount
/// point, and the path components from there down to this process's cgroup.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CgroupPlace<'a> {
    /// The mount point (`/sys/fs/cgroup`, `/sys/fs/cgroup/memory`).
    pub top: String,
    /// Components below it, outermost first (`user.slice`, `user-1000.slice`, ...).
    pub levels: Vec<&'a str>,
}

/// This process's place in the v1 hierarchy with `controller`, or in v2 when `None`; `None`
/// when the hierarchy is not listed or not mounted.
pub fn cgroup_place<'a>(
    groups: &'a [CgroupLine],
    mounts: &[MountInfo],
    controller: Option<&str>,
) -> Option<CgroupPlace<'a>> {
    let line = groups.iter().find(|g| match controller {
        None => g.id == "0" && g.controllers.is_empty(),
        Some(c) => g.controllers.iter().any(|x| x == c),
    })?;
    let mount = mounts.iter().rev().find(|m| match controller {
        None => m.fstype == "cgroup2",
        Some(c) => m.fstype == "cgroup" && m.super_options.split(',').any(|o| o == c),
    })?;
    // cgroup dir = mount point + (path − mount root); a path outside the mount's root
    // (another namespace) leaves only the mount point to look at.
    let rel = if mount.root == "/" {
        Some(line.path.as_str())
    } else {
        line.path
            .strip_prefix(mount.root.as_ref())
            .filter(|r| r.is_empty() || r.starts_with('/'))
    };
    let levels = rel
        .unwrap_or("")
        .split('/')
        .filter(|s| !s.is_empty() && *s != "." && *s != "..")
        .collect();
    let top = match mount.mount_point.trim_end_matches('/') {
        "" => "/".to_string(),
        t => t.to_string(),
    };
    Some(CgroupPlace { top, levels })
}

/// Calls `visit` with the directories from the mount point down to this process's cgroup,
/// outermost first, while `exists` says the directory is there: nothing lies below a
/// missing one. One path grows a level at a time and each level is looked at once, so the
/// walk is linear in the depth. (It used to list every level innermost first and read each
/// level's files even where its directory was missing, and a sysroot resolves every
/// ancestor of a missing path afresh: cubic in the depth.)
pub fn walk_cgroup(
    place: &CgroupPlace<'_>,
    mut exists: impl FnMut(&str) -> bool,
    mut visit: impl FnMut(&str),
) {
    let mut dir = place.top.clone();
    if !exists(&dir) {
        return;
    }
    visit(&dir);
    for level in &place.levels {
        if !dir.ends_with('/') {
            dir.push('/');
        }
        dir.push_str(level);
        if !exists(&dir) {
            return;
        }
        visit(&dir);
    }
}

/// Parses /proc/self/mountinfo. Octal escapes (`\040` for space) in paths are decoded.
pub fn parse_mountinfo(text: &str) -> Vec<MountInfo<'_>> {
    text.lines()
        .filter_map(|line| {
            let (left, right) = line.split_once(" - ")?;
            let mut l = left.split(' ').skip(2);
            let mut r = right.split(' ');
            Some(MountInfo {
                device: l.next()?,
                root: unescape(l.next()?),
                mount_point: unescape(l.next()?),
                fstype: r.next()?,
                source: unescape(r.next()?),
                super_options: r.next().unwrap_or(""),
            })
        })
        .collect()
}

/// Decodes the kernel's `\ooo` escapes in mount paths.
fn unescape(s: &str) -> Cow<'_, str> {
    if !s.contains('\\') {
        return Cow::Borrowed(s);
    }
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 3 < b.len() {
            let digits = std::str::from_utf8(&b[i + 1..i + 4]).unwrap_or("");
            if let Ok(v) = u8::from_str_radix(digits, 8) {
                out.push(v);
                i += 4;
                continue;
            }
        }
        out.push(b[i]);
        i += 1;
    }
    Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

/// `cpu.max`: `max 100000` (no quota) or `200000 100000` → quota and period in µs.
pub fn parse_cpu_max(text: &str) -> Option<(u64, u64)> {
    let mut it = text.split_whitespace();
    let q = it.next()?;
    let p: u64 = it.next().and_then(|p| p.parse().ok()).unwrap_or(100_000);
    if q == "max" {
        return None;
    }
    Some((q.parse().ok()?, p))
}

/// `Max open files  20000  20000  files` → (soft, hard); `unlimited` is `None`.
#[allow(clippy::type_complexity)]
pub fn parse_open_files(text: &str) -> Option<(Option<u64>, Option<u64>)> {
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    let mut it = line["Max open files".len()..].split_whitespace();
    let soft = it.next()?;
    let hard = it.next()?;
    Some((soft.parse().ok(), hard.parse().ok()))
}

/// `always [madvise] never` → `madvise`.
pub fn parse_bracketed_choice(text: &str) -> Option<String> {
    let start = text.find('[')?;
    let end = text[start..].find(']')? + start;
    Some(text[start + 1..end].to_string())
}

/// A `Key:\tvalue` field of /proc/self/status.
pub fn parse_status_field(text: &str, key: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k == key).then(|| v.trim().to_string())
    })
}

/// Number of CPUs in a list such as `0-5,48-53` (`None` if malformed).
pub fn cpu_list_count(list: &str) -> Option<u32> {
    Some(parse_cpulist(list).ok()?.len() as u32)
}

/// `size=24684084k` (or `size=64m`, the way it was given) in tmpfs options → bytes.
pub fn tmpfs_size(options: &str) -> Option<u64> {
    let v = options.split(',').find_map(|o| o.strip_prefix("size="))?;
    crate::units::parse_bytes(v).ok()
}

/// sched_getaffinity(0) as a CPU list (`None` where the OS has no such call).
fn live_affinity() -> Option<String> {
    Some(crate::cpulist::format_cpulist(&crate::sys::cpu_affinity()?))
}

/// statvfs of a live path.
fn statvfs(path: &Path) -> Result<Space, String> {
    crate::sys::statvfs(path)
        .map(|s| Space {
            total_bytes: s.total_bytes,
            available_bytes: s.available_bytes,
        })
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cpulist::format_cpulist;

    // Real text of this VM (hybrid cgroup v1+v2), trimmed to the cgroup mounts and /dev/shm.
    const VM_MOUNTINFO: &str = "\
22 27 0:21 / /proc rw,relatime - proc proc rw
24 27 0:6 / /dev rw,relatime - devtmpfs devtmpfs rw,size=12334460k,nr_inodes=3083615,mode=755
25 24 0:23 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=24684084k
27 1 254:0 / / rw,relatime - ext4 /dev/vda rw,discard,resv_strict,resuid=65534,resgid=65534
30 25 0:27 / /dev/shm rw,relatime - tmpfs tmpfs rw,size=24684084k
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";
    const VM_CGROUP: &str = "\
9:name=systemd:/
4:memory:/process_api/93fb9485b0d3fea4ccaed852413960cf
2:cpuacct:/
1:cpu:/
0::/
";

    /// The directories walked when every one of them exists, innermost first.
    fn cgroup_dirs(g: &[CgroupLine], m: &[MountInfo], ctl: Option<&str>) -> Vec<String> {
        let mut out = Vec::new();
        if let Some(place) = cgroup_place(g, m, ctl) {
            walk_cgroup(&place, |_| true, |d| out.push(d.to_string()));
        }
        out.reverse();
        out
    }

    #[test]
    fn mountinfo_vm() {
        let m = parse_mountinfo(VM_MOUNTINFO);
        assert_eq!(m.len(), 9);
        let root = &m[3];
        assert_eq!(root.device, "254:0");
        assert_eq!(root.mount_point, "/");
        assert_eq!(root.fstype, "ext4");
        assert_eq!(root.source, "/dev/vda");
        assert_eq!(tmpfs_size(m[2].super_options), Some(24_684_084 * 1024));
        assert_eq!(mount_of(&m, "/dev/shm/x").map(|m| m.device), Some("0:27"));
        assert_eq!(
            mount_of(&m, "/devx").map(|m| m.mount_point.as_ref()),
            Some("/")
        );
        assert_eq!(mount_of(&m, "/data/set").map(|m| m.fstype), Some("ext4"));
    }

    #[test]
    fn cgroup_dirs_vm_hybrid() {
        let g = parse_cgroup(VM_CGROUP).unwrap();
        let m = parse_mountinfo(VM_MOUNTINFO);
        assert_eq!(g.len(), 5);
        assert_eq!(cgroup_dirs(&g, &m, Some("cpu")), vec!["/sys/fs/cgroup/cpu"]);
        assert_eq!(
            cgroup_dirs(&g, &m, Some("memory")),
            vec![
                "/sys/fs/cgroup/memory/process_api/93fb9485b0d3fea4ccaed852413960cf",
                "/sys/fs/cgroup/memory/process_api",
                "/sys/fs/cgroup/memory",
            ]
        );
        assert_eq!(cgroup_dirs(&g, &m, None), vec!["/sys/fs/cgroup/unified"]);
    }

    #[test]
    fn cgroup_dirs_docker_v1_root_is_the_container() {
        // Docker on cgroup v1 without a cgroup namespace: the mount root is the container's
        // own cgroup, so path − root is empty and the dir is the mount point.
        let m = parse_mountinfo(
            "700 690 0:29 /docker/5b27 /sys/fs/cgroup/cpu,cpuacct ro,nosuid - cgroup cgroup rw,cpu,cpuacct\n",
        );
        let g = parse_cgroup("4:cpu,cpuacct:/docker/5b27\n").unwrap();
        assert_eq!(
            cgroup_dirs(&g, &m, Some("cpu")),
            vec!["/sys/fs/cgroup/cpu,cpuacct"]
        );
    }

    #[test]
    fn cgroup_dirs_v2_systemd_slice() {
        let m = parse_mountinfo("35 24 0:30 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate\n");
        let g = parse_cgroup("0::/user.slice/user-1000.slice/session-3.scope\n").unwrap();
        assert_eq!(
            cgroup_dirs(&g, &m, None),
            vec![
                "/sys/fs/cgroup/user.slice/user-1000.slice/session-3.scope",
                "/sys/fs/cgroup/user.slice/user-1000.slice",
                "/sys/fs/cgroup/user.slice",
                "/sys/fs/cgroup",
            ]
        );
    }

    #[test]
    fn cgroup_walk_stops_at_the_first_missing_directory() {
        let m = parse_mountinfo("35 24 0:30 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw\n");
        let g = parse_cgroup(&format!("0::{}\n", "/a".repeat(2048))).unwrap();
        let place = cgroup_place(&g, &m, None).unwrap();
        assert_eq!(place.levels.len(), 2048);
        let (mut asked, mut seen) = (0, Vec::new());
        let there = "/sys/fs/cgroup/a/a".len();
        walk_cgroup(
            &place,
            |d| {
                asked += 1;
                d.len() <= there
            },
            |d| seen.push(d.to_string()),
        );
        assert_eq!(
            seen,
            ["/sys/fs/cgroup", "/sys/fs/cgroup/a", "/sys/fs/cgroup/a/a"]
        );
        assert_eq!(asked, 4);
        // One byte past what the kernel writes is refused, with the length.
        let e = parse_cgroup(&format!("0::/{}\n", "a".repeat(4096))).unwrap_err();
        assert!(e.contains("4097 bytes"), "{e}");
        // A hierarchy mounted at / walks from "/".
        let m = parse_mountinfo("35 24 0:30 / / rw - cgroup2 cgroup2 rw\n");
        let g = parse_cgroup("0::/x\n").unwrap();
        assert_eq!(cgroup_dirs(&g, &m, None), ["/x", "/"]);
    }

    #[test]
    fn cpu_max_forms() {
        assert_eq!(parse_cpu_max("max 100000"), None);
        assert_eq!(parse_cpu_max("200000 100000"), Some((200_000, 100_000)));
        assert_eq!(parse_cpu_max("150000 100000\n"), Some((150_000, 100_000)));
        assert_eq!(parse_cpu_max("garbage"), None);
    }

    #[test]
    fn open_files_vm() {
        let text =
            "Limit                     Soft Limit           Hard Limit           Units     \n\
Max cpu time              unlimited            unlimited            seconds   \n\
Max open files            20000                20000                files     \n";
        assert_eq!(parse_open_files(text), Some((Some(20000), Some(20000))));
        let unl = "Max open files            unlimited            unlimited            files\n";
        assert_eq!(parse_open_files(unl), Some((None, None)));
    }

    #[test]
    fn thp_and_meminfo_vm() {
        assert_eq!(
            parse_bracketed_choice("always [madvise] never\n").as_deref(),
            Some("madvise")
        );
        let m = meminfo::parse(
            "MemTotal:       24684084 kB\nMemAvailable:   24130700 kB\nSwapTotal:             0 kB\n",
        );
        assert_eq!(m.bytes("MemAvailable"), Ok(24_130_700 * 1024));
        assert_eq!(m.bytes("SwapTotal"), Ok(0));
    }

    #[test]
    fn cpu_lists() {
        assert_eq!(cpu_list_count("0-1"), Some(2));
        assert_eq!(cpu_list_count("0-17,36-53"), Some(36));
        assert_eq!(cpu_list_count("3"), Some(1));
        assert_eq!(cpu_list_count("5-2"), None);
        assert_eq!(format_cpulist(&[0, 1, 2, 5, 7, 8]), "0-2,5,7-8");
        assert_eq!(
            parse_status_field("Name:\tx\nCpus_allowed_list:\t0-1\n", "Cpus_allowed_list")
                .as_deref(),
            Some("0-1")
        );
    }

    #[test]
    fn escaped_mount_paths() {
        let m = parse_mountinfo("90 27 8:17 / /mnt/my\\040data rw - ext4 /dev/sdb1 rw\n");
        assert_eq!(m[0].mount_point, "/mnt/my data");
    }

    #[test]
    fn replay_container_fixture() {
        // Docker defaults composed on this VM's capture: cgroup v2 quota 2 CPUs, 64 MiB shm.
        let src = Source::sysroot(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/preflight-container-small-shm"
        ));
        let mut notes = Notes::default();
        let l = probe(&src, &mut notes);
        assert_eq!(l.affinity_cpus.as_deref(), Some("0-15"));
        assert_eq!(l.affinity_count, Some(16));
        let q = l.cpu_quota.as_ref().map(|q| (q.cpus, q.file.as_str()));
        assert_eq!(q, Some((2.0, "/sys/fs/cgroup/cpu.max")));
        let m = l.memory_limit.as_ref().map(|m| (m.max_bytes, m.used_bytes));
        assert_eq!(m, Some((17_179_869_184, Some(1_073_741_824))));
        let shm = l.shm.as_ref().map(|s| (s.source.as_str(), s.total_bytes));
        assert_eq!(shm, Some(("shm", Some(67_108_864))));
        assert_eq!(l.filesystems.len(), 1);
        assert_eq!(l.filesystems[0].fstype, "overlay");
        assert_eq!(l.filesystems[0].disk, None);
    }

    #[test]
    fn replay_vm_fixture() {
        let src = Source::sysroot(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/preflight-healthy"
        ));
        let mut notes = Notes::default();
        let l = probe(&src, &mut notes);
        // v1 quota -1 and v1 memory 9223372036854771712 are no limits.
        assert_eq!(l.cpu_quota, None);
        assert_eq!(l.memory_limit, None);
        assert_eq!(l.open_files_soft, Some(20000));
        assert_eq!(l.mem_total_bytes, Some(24_684_084 * 1024));
        assert_eq!(l.swap_total_bytes, Some(0));
        assert!(l.governors.is_empty());
        let root = &l.filesystems[0];
        assert_eq!(
            (
                root.mount_point.as_str(),
                root.disk.as_deref(),
                root.total_bytes
            ),
            ("/", Some("vda"), Some(270_553_174_016))
        );
        // The path is normalised inside the sysroot; `/` is recorded (its statvfs answer).
        let data = probe_path(&src, Path::new("/srv/../"));
        assert_eq!(data.map(|f| f.mount_point), Ok("/".to_string()));
        // A path the capture does not hold is not vouched for by its mount's space.
        let data = probe_path(&src, Path::new("/srv/../srv/data"));
        assert!(matches!(data, Err(Unknown::NotRecorded(_))), "{data:?}");
        assert!(notes.0.is_empty(), "{:?}", notes.0);
    }
}
