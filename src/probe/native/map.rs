//! The OS's answers as `Spec` facts: CPU (identity and ISA from CPUID, layout from the
//! processor records, clocks from CPUID leaf 0x16), drives, and the limits a Windows or
//! macOS machine has (memory and volumes). Pure functions of the answers and CPUID; the
//! caller reads.

use std::collections::BTreeSet;

use crate::cpulist::format_cpulist;
use crate::native::{Disk, GroupMask, NativeAnswers, Processors};
use crate::probe::cpu::{self, Arch, CpuInfo};
use crate::probe::cpuid::CpuidFacts;
use crate::probe::smbios::Processor;
use crate::spec::{CoreType, Cpu, Drive, DriveKind, Filesystem, Limits, Listed, Notes, NumaNode};

/// The OS family as people write it, for notes.
fn os_label(a: &NativeAnswers) -> &str {
    match a.os_family.as_str() {
        "windows" => "Windows",
        "macos" => "macOS",
        "" => "the OS",
        other => other,
    }
}

/// The CPU section. `cpuid` is `None` where there is no CPUID (not x86, or not recorded);
/// `sockets` are the SMBIOS processor records, used where the OS gives no layout.
pub fn cpu(
    a: &NativeAnswers,
    cpuid: Option<&CpuidFacts>,
    sockets: &[Processor],
    notes: &mut Notes,
) -> Cpu {
    let mut c = Cpu::default();
    identity(a, cpuid, &mut c, notes);
    match &a.processors {
        Some(p) => layout(p, &mut c, notes),
        None => counts_without_layout(a, cpuid, sockets, &mut c, notes),
    }
    clocks(a, cpuid, sockets, &mut c, notes);
    let arch = if cpuid.is_some() {
        Arch::X86
    } else {
        Arch::Other
    };
    cpu::isa_and_peak(&CpuInfo::default(), arch, &mut c, notes);
    c
}

fn identity(a: &NativeAnswers, cpuid: Option<&CpuidFacts>, c: &mut Cpu, notes: &mut Notes) {
    let os = os_label(a);
    let Some(f) = cpuid else {
        c.vendor = a.cpu.vendor_id.clone();
        c.model = a.cpu.brand.clone();
        for (field, v) in [("cpu.vendor", &c.vendor), ("cpu.model", &c.model)] {
            if v.is_none() {
                notes.add(field, format!("{os} gave no CPU {}", &field[4..]));
            }
        }
        for field in ["cpu.family", "cpu.model_id", "cpu.stepping"] {
            notes.add(field, "CPUID exists only on x86 (and is not recorded here)");
        }
        notes.add(
            "cpu.flags",
            "CPU features are read from CPUID, which only x86 has",
        );
        notes.add(
            "cpu.microcode",
            format!("{os} does not report the microcode revision"),
        );
        return;
    };
    c.vendor = f.vendor.clone().or_else(|| a.cpu.vendor_id.clone());
    c.model = f.brand.clone().or_else(|| a.cpu.brand.clone());
    c.family = f.family;
    c.model_id = f.model_id;
    c.stepping = f.stepping;
    let mut flags = f.flags.clone();
    flags.sort();
    flags.dedup();
    c.flags = flags;
    if !f.missing.is_empty() {
        let list: Vec<String> = f
            .missing
            .iter()
            .map(|(l, s)| format!("0x{l:x}.{s}"))
            .collect();
        notes.add(
            "cpu.flags",
            format!(
                "CPUID leaves {} are not in the answers: what they tell is unknown",
                list.join(", ")
            ),
        );
    }
    let checks = [
        ("cpu.vendor", c.vendor.is_none()),
        ("cpu.model", c.model.is_none()),
        ("cpu.family", c.family.is_none()),
        ("cpu.model_id", c.model_id.is_none()),
        ("cpu.stepping", c.stepping.is_none()),
    ];
    for (field, missing) in checks {
        if missing {
            notes.add(field, "CPUID did not answer it (see cpu.flags)");
        }
    }
    notes.add(
        "cpu.microcode",
        format!("{os} does not report the microcode revision to rigcheck"),
    );
}

/// Logical processor numbers as one list across processor groups: group g's processor n
/// is the sum of the earlier groups' sizes plus n (the order Task Manager shows).
fn flat(p: &Processors, masks: &[GroupMask]) -> Vec<u32> {
    let mut out = BTreeSet::new();
    for m in masks {
        let offset: u32 = p
            .groups
            .iter()
            .take(usize::from(m.group))
            .map(|g| g.maximum)
            .sum();
        for bit in 0..64u32 {
            if m.mask & (1u64 << bit) != 0 {
                out.insert(offset + bit);
            }
        }
    }
    out.into_iter().collect()
}

/// Sockets, cores, threads, caches, NUMA nodes and core types from the processor records.
fn layout(p: &Processors, c: &mut Cpu, notes: &mut Notes) {
    let online: BTreeSet<u32> = if p.groups.is_empty() {
        p.cores
            .iter()
            .flat_map(|k| flat(p, &k.processors))
            .collect()
    } else {
        let masks: Vec<GroupMask> = p
            .groups
            .iter()
            .enumerate()
            .map(|(i, g)| GroupMask {
                group: u16::try_from(i).unwrap_or(u16::MAX),
                mask: g.active_mask,
            })
            .collect();
        flat(p, &masks).into_iter().collect()
    };
    let online: Vec<u32> = online.into_iter().collect();
    if online.is_empty() {
        notes.add(
            "cpu.threads",
            "the processor records list no logical processors",
        );
    } else {
        c.threads = u32::try_from(online.len()).ok();
        c.online = Some(format_cpulist(&online));
    }
    let present: u32 = p.groups.iter().map(|g| g.maximum).sum();
    if present > 0 {
        c.cpus_present = Some(present);
        let off: Vec<u32> = (0..present)
            .filter(|n| online.binary_search(n).is_err())
            .collect();
        c.offline = Some(format_cpulist(&off));
        if !off.is_empty() {
            notes.add(
                "cpu.offline",
                format!(
                    "{} of {present} processors are not active; counts cover active ones only",
                    off.len()
                ),
            );
        }
    } else {
        notes.add("cpu.cpus_present", "no processor group records");
    }
    if p.cores.is_empty() {
        notes.add("cpu.cores", "the processor records list no cores");
    } else {
        c.cores = u32::try_from(p.cores.len()).ok();
        c.threads_per_core = p
            .cores
            .iter()
            .map(|k| flat(p, &k.processors).len().max(1) as u32)
            .max();
    }
    let packages: Vec<Vec<u32>> = p.packages.iter().map(|m| flat(p, m)).collect();
    if packages.is_empty() {
        notes.add("cpu.sockets", "the processor records list no packages");
    } else {
        c.sockets = u32::try_from(packages.len()).ok();
    }
    if let (Some(k), Some(s)) = (c.cores, c.sockets) {
        c.cores_per_socket = k.checked_div(s);
    } else {
        notes.add("cpu.cores_per_socket", "cores or sockets unknown");
    }
    let caches = p
        .caches
        .iter()
        .filter(|k| k.kind != "trace")
        .map(|k| (u32::from(k.level), k.kind.clone(), u64::from(k.size_bytes)));
    c.caches = cpu::summarize_caches(caches, notes);
    if c.caches.is_empty() {
        notes.add("cpu.caches", "the processor records list no caches");
    }
    let mut nodes: Vec<NumaNode> = p
        .numa_nodes
        .iter()
        .map(|n| {
            let cpus = flat(p, &n.processors);
            let socket = cpus.first().and_then(|first| {
                packages
                    .iter()
                    .position(|pk| pk.contains(first))
                    .and_then(|i| u32::try_from(i).ok())
            });
            NumaNode {
                id: n.node,
                cpus: format_cpulist(&cpus),
                memory_bytes: None,
                socket,
            }
        })
        .collect();
    if nodes.is_empty() {
        notes.add(
            "cpu.numa_nodes",
            "unknown: the processor records list no NUMA node",
        );
    } else {
        notes.add(
            "cpu.numa_nodes",
            "memory per node is not read on Windows (only its free memory is reported)",
        );
        nodes.sort_by_key(|n| n.id);
        c.numa_nodes = Some(nodes);
    }
    c.core_types = core_types(p);
}

/// Hybrid CPUs: one type per efficiency class, the highest class being the performance
/// cores (named as on Linux: `P-core`, `E-core`).
fn core_types(p: &Processors) -> Vec<CoreType> {
    let classes: BTreeSet<u8> = p.cores.iter().map(|k| k.efficiency_class).collect();
    if classes.len() < 2 {
        return Vec::new();
    }
    let top = classes.iter().max().copied().unwrap_or(0);
    classes
        .iter()
        .map(|&class| {
            let cores: Vec<_> = p
                .cores
                .iter()
                .filter(|k| k.efficiency_class == class)
                .collect();
            let threads: usize = cores.iter().map(|k| flat(p, &k.processors).len()).sum();
            let name = match (class == top, classes.len()) {
                (true, _) => "P-core".to_string(),
                (false, 2) => "E-core".to_string(),
                (false, _) => format!("efficiency class {class}"),
            };
            CoreType {
                name,
                cores: cores.len() as u32,
                threads: threads as u32,
                max_mhz: None,
            }
        })
        .collect()
}

/// Counts where the OS gives no layout (macOS, or a failed call): sysinfo's CPU count and
/// core count, threads per core from CPUID's SMT level where there is CPUID, sockets from
/// the SMBIOS processor records.
fn counts_without_layout(
    a: &NativeAnswers,
    cpuid: Option<&CpuidFacts>,
    sockets: &[Processor],
    c: &mut Cpu,
    notes: &mut Notes,
) {
    let why = a.why_missing("processors");
    c.threads = a.cpu.logical_cpus;
    c.cores = a.cpu.physical_cores;
    // What the firmware says the populated sockets run, where every one says.
    let firmware: Option<u32> = sockets
        .iter()
        .filter(|s| s.populated)
        .try_fold(0u32, |sum, s| sum.checked_add(u32::from(s.thread_count?)))
        .filter(|n| *n > 0);
    match c.threads {
        // Windows gives a program the processors of its own processor group (64 at most, and
        // one group per socket on many servers): without the processor layout, sysinfo's count
        // is the machine's only where the firmware's processor records agree with it.
        Some(n) if a.os_family == "windows" && firmware != Some(n) => {
            notes.add(
                "cpu.threads",
                format!(
                    "unknown: sysinfo counts {n} logical processors, which may be one \
                     processor group of several{}; the processor layout that counts them all \
                     is lost: {why}",
                    match firmware {
                        Some(f) => format!(", and the SMBIOS processor records give {f}"),
                        None => String::new(),
                    }
                ),
            );
            c.threads = None;
        }
        Some(_) => {}
        None => notes.add("cpu.threads", a.why_missing("cpu.logical_cpus")),
    }
    if c.cores.is_none() {
        notes.add("cpu.cores", a.why_missing("cpu.physical_cores"));
    }
    c.threads_per_core = match (cpuid.and_then(|f| f.threads_per_core), c.threads, c.cores) {
        (Some(smt), _, _) => Some(smt),
        (None, Some(t), Some(k)) if k > 0 => Some(t.div_ceil(k)),
        _ => {
            notes.add("cpu.threads_per_core", "threads or cores unknown");
            None
        }
    };
    let populated = sockets.iter().filter(|s| s.populated).count();
    if populated > 0 {
        c.sockets = u32::try_from(populated).ok();
        notes.add(
            "cpu.sockets",
            format!("counted from the SMBIOS processor records (populated sockets): {why}"),
        );
    } else {
        notes.add(
            "cpu.sockets",
            format!("no processor layout and no SMBIOS processor records: {why}"),
        );
    }
    if let (Some(k), Some(s)) = (c.cores, c.sockets) {
        c.cores_per_socket = k.checked_div(s);
    } else {
        notes.add("cpu.cores_per_socket", "cores or sockets unknown");
    }
    notes.add("cpu.caches", format!("no processor layout: {why}"));
    notes.add("cpu.numa_nodes", format!("no processor layout: {why}"));
}

/// Base and top clock: CPUID leaf 0x16 (Intel), else the model name's clock, else the
/// SMBIOS processor record's boot speed; no lowest clock and no cpufreq off Linux.
fn clocks(
    a: &NativeAnswers,
    cpuid: Option<&CpuidFacts>,
    sockets: &[Processor],
    c: &mut Cpu,
    notes: &mut Notes,
) {
    let os = os_label(a);
    let named = c.model.as_deref().and_then(cpu::model_name_ghz_mhz);
    let boot = sockets
        .iter()
        .filter(|s| s.populated)
        .find_map(|s| s.current_speed_mhz);
    let leaf16 = cpuid.and_then(|f| f.base_mhz);
    let (base, source, why) = if let Some(m) = leaf16 {
        (
            Some(m),
            "cpuid 0x16",
            format!("from CPUID leaf 0x16 (processor base frequency): {m} MHz"),
        )
    } else if let Some(n) = named {
        (
            Some(n),
            "model name",
            format!("from the model name's advertised clock: {n} MHz"),
        )
    } else if let Some(m) = boot {
        (
            Some(u32::from(m)),
            "smbios current speed",
            format!(
                "from the SMBIOS processor record's current speed (the clock the firmware \
                 booted at): {m} MHz"
            ),
        )
    } else {
        (
            None,
            "",
            "unknown: no CPUID leaf 0x16, no clock in the model name and no SMBIOS \
             processor speed"
                .to_string(),
        )
    };
    c.base_mhz = base;
    if base.is_some() {
        c.base_mhz_source = Some(source.to_string());
    } else {
        notes.add("cpu.base_mhz_source", "no base clock source");
    }
    notes.add("cpu.base_mhz", why);
    c.max_mhz = cpuid.and_then(|f| f.max_mhz);
    if c.max_mhz.is_some() {
        notes.add(
            "cpu.max_mhz",
            "from CPUID leaf 0x16 (maximum frequency): the rated single-core turbo clock",
        );
    } else {
        notes.add(
            "cpu.max_mhz",
            format!("{os} does not report the top clock and CPUID leaf 0x16 gives none"),
        );
    }
    notes.add(
        "cpu.min_mhz",
        format!("{os} does not report the lowest clock"),
    );
    let no_cpufreq = format!("cpufreq is Linux's; {os} sets clocks through its power plan");
    notes.add("cpu.scaling_driver", &no_cpufreq);
    notes.add("cpu.governor", no_cpufreq);
}

/// Linux's name for a Windows bus type, and the kind of drive it makes.
fn transport(bus: &str) -> Option<&'static str> {
    Some(match bus {
        "NVMe" => "nvme",
        "Sata" => "sata",
        "Sas" => "sas",
        "Usb" => "usb",
        "Scsi" => "scsi",
        "Ata" | "Atapi" => "ata",
        "iScsi" => "iscsi",
        "Fibre" => "fc",
        "Sd" | "Mmc" => "mmc",
        "Virtual" | "FileBackedVirtual" => "virtual",
        "RAID" => "raid",
        "Spaces" => "spaces",
        "1394" => "firewire",
        "Ufs" => "ufs",
        "NVMeoF" => "nvmeof",
        _ => return None,
    })
}

/// The physical disks as drives.
pub fn drives(a: &NativeAnswers, notes: &mut Notes) -> Listed<Drive> {
    let asked_all = match a.errors.get("disks") {
        None => true,
        Some(why) if a.disks.is_empty() => {
            notes.add(
                "drives",
                format!("the drive list is unknown, not empty: {why}"),
            );
            return Listed::unreadable();
        }
        Some(why) => {
            notes.add(
                "drives",
                format!("the drive list is partial: some disks could not be asked: {why}"),
            );
            false
        }
    };
    if a.disks.is_empty() {
        notes.add(
            "drives",
            format!("{} listed no physical disks", os_label(a)),
        );
    }
    let items = a
        .disks
        .iter()
        .enumerate()
        .map(|(i, d)| drive(i, d, notes))
        .collect();
    if asked_all {
        Listed::read(items)
    } else {
        Listed::partial(items)
    }
}

fn drive(i: usize, d: &Disk, notes: &mut Notes) -> Drive {
    let bus = d.bus_type.as_deref().unwrap_or("Unknown");
    let transport = transport(bus);
    let kind = match (transport, d.seek_penalty) {
        (Some("nvme"), _) => Some(DriveKind::Nvme),
        (Some("virtual"), _) => Some(DriveKind::Virtual),
        (_, Some(true)) => Some(DriveKind::Hdd),
        (_, Some(false)) => Some(DriveKind::Ssd),
        (_, None) => None,
    };
    let field = |f: &str| format!("drives[{i}].{f}");
    if kind.is_none() {
        notes.add(
            field("kind"),
            "the disk does not say whether it seeks (no seek-penalty answer)",
        );
    }
    if d.model.is_none() {
        notes.add(field("model"), "the storage descriptor has no product id");
    }
    if d.serial.is_none() {
        notes.add(
            field("serial"),
            "the storage descriptor has no serial number",
        );
    }
    let size_bytes = match d.size_bytes.map(|b| crate::plausible::DRIVE_BYTES.check(b)) {
        Some(Ok(b)) => Some(b),
        Some(Err(why)) => {
            notes.add(field("size_bytes"), format!("the disk's geometry: {why}"));
            None
        }
        None => {
            notes.add(field("size_bytes"), "the disk gave no geometry");
            None
        }
    };
    notes.add(
        field("pci_address"),
        "the controller's PCI address is not read on Windows",
    );
    Drive {
        name: d.device.clone(),
        model: d.model.clone(),
        serial: d.serial.clone(),
        firmware: d.revision.clone(),
        size_bytes,
        kind,
        transport: transport.map(str::to_string).or_else(|| d.bus_type.clone()),
        rotational: d.seek_penalty,
        removable: d.removable,
        logical_block_size: d.logical_sector_bytes,
        physical_block_size: d.physical_sector_bytes,
        pci_address: None,
        pcie: None,
        numa_node: None,
        socket: None,
    }
}

/// What Windows and macOS have of the limits: memory and mounted volumes. The Linux ones
/// (cgroups, /dev/shm, affinity, open files, huge pages, governors) are left unknown with
/// one note saying so.
pub fn limits(a: &NativeAnswers, notes: &mut Notes) -> Limits {
    let os = os_label(a);
    notes.add(
        "limits",
        format!(
            "CPU affinity, cgroup quotas, /dev/shm, open-file limits and transparent huge \
             pages are Linux facts and are not read on {os}"
        ),
    );
    if a.memory.available_bytes.is_none() {
        notes.add(
            "limits.mem_available_bytes",
            a.why_missing("memory.available_bytes"),
        );
    }
    Limits {
        mem_total_bytes: a.memory.total_bytes,
        mem_available_bytes: a.memory.available_bytes,
        filesystems: a
            .volumes
            .iter()
            .map(|v| Filesystem {
                mount_point: v.mount_point.clone(),
                fstype: v.file_system.clone(),
                source: v.name.clone(),
                device: None,
                disk: None,
                total_bytes: Some(v.total_bytes),
                available_bytes: Some(v.available_bytes),
            })
            .collect(),
        ..Limits::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::cpuid::{self, Cpuid};
    use crate::probe::native::{CpuAnswers, ProcessorCore};

    fn fixture() -> NativeAnswers {
        let text = std::fs::read_to_string("fixtures/windows-hp-z8-g4/native.json").unwrap();
        NativeAnswers::from_json(&text).unwrap()
    }

    fn fixture_cpuid() -> CpuidFacts {
        let text = std::fs::read_to_string("fixtures/windows-hp-z8-g4/cpuid.json").unwrap();
        Cpuid::recorded(cpuid::parse_json(&text).unwrap()).decode()
    }

    #[test]
    fn two_processor_groups_number_on_from_the_first() {
        // 72 logical processors: Windows makes two groups of 36; sysinfo sees one of them.
        let a = fixture();
        assert_eq!(a.cpu.logical_cpus, Some(36));
        let mut notes = Notes::default();
        let c = cpu(&a, Some(&fixture_cpuid()), &[], &mut notes);
        assert_eq!(
            (
                c.sockets,
                c.cores,
                c.threads,
                c.threads_per_core,
                c.cores_per_socket
            ),
            (Some(2), Some(36), Some(72), Some(2), Some(18))
        );
        assert_eq!(c.online.as_deref(), Some("0-71"));
        assert_eq!(c.cpus_present, Some(72));
        let nodes: Vec<_> = c
            .numa_nodes
            .iter()
            .flatten()
            .map(|n| (n.id, n.cpus.as_str(), n.socket))
            .collect();
        assert_eq!(nodes, [(0, "0-35", Some(0)), (1, "36-71", Some(1))]);
        let l3 = c.caches.iter().find(|k| k.level == 3).unwrap();
        assert_eq!(
            (l3.size_bytes, l3.instances, l3.total_bytes),
            (25_952_256, 2, 51_904_512)
        );
        let l1d = c.caches.iter().find(|k| k.kind == "data").unwrap();
        assert_eq!((l1d.size_bytes, l1d.instances), (32_768, 36));
        // Identity, ISA and clocks from CPUID.
        assert_eq!(
            c.model.as_deref(),
            Some("Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz")
        );
        assert_eq!(
            (c.family, c.model_id, c.stepping),
            (Some(6), Some(85), Some(7))
        );
        assert_eq!((c.base_mhz, c.max_mhz), (Some(3100), Some(4000)));
        assert_eq!(c.base_mhz_source.as_deref(), Some("cpuid 0x16"));
        assert!(c.isa.iter().any(|i| i == "AVX-512 VNNI"), "{:?}", c.isa);
        assert_eq!(c.fma_units, Some(2));
        assert_eq!(c.peak_fp64_gflops, Some(3571.2));
        assert!(c.core_types.is_empty());
        assert!(
            !notes.0.iter().any(|n| n.field == "cpu.flags"),
            "{:?}",
            notes.0
        );
    }

    #[test]
    fn without_a_layout_counts_come_from_sysinfo_and_smbios() {
        let mut a = fixture();
        a.processors = None;
        a.errors.insert("processors".into(), "access denied".into());
        // Two Gold 6254 of 36 threads each, as their SMBIOS records say: sysinfo's 36 is one
        // processor group of two, so the count is unknown, not 36.
        let mut sockets = vec![
            Processor {
                populated: true,
                current_speed_mhz: Some(3100),
                thread_count: Some(36),
                ..Processor::default()
            };
            2
        ];
        let mut notes = Notes::default();
        let c = cpu(&a, None, &sockets, &mut notes);
        assert_eq!((c.sockets, c.cores, c.threads), (Some(2), Some(36), None));
        assert!(
            why_in(&notes, "cpu.threads").contains("the SMBIOS processor records give 72"),
            "{:?}",
            notes.0
        );
        // Where the firmware's records agree with sysinfo, its count stands.
        for s in &mut sockets {
            s.thread_count = Some(18);
        }
        let mut notes = Notes::default();
        let c = cpu(&a, None, &sockets, &mut notes);
        assert_eq!(
            (c.sockets, c.cores, c.threads),
            (Some(2), Some(36), Some(36))
        );
        assert_eq!(c.base_mhz, Some(3100), "from the brand string");
        assert!(c.caches.is_empty());
        let why = |f: &str| {
            notes
                .0
                .iter()
                .find(|n| n.field == f)
                .map(|n| n.reason.clone())
        };
        assert!(
            why("cpu.sockets").unwrap().contains("SMBIOS"),
            "{:?}",
            notes.0
        );
        assert!(why("cpu.caches").unwrap().contains("access denied"));
        // No brand clock either: the firmware's boot speed.
        a.cpu.brand = Some("Genuine Intel(R) CPU".into());
        let c = cpu(&a, None, &sockets, &mut Notes::default());
        assert_eq!(
            (c.base_mhz, c.base_mhz_source.as_deref()),
            (Some(3100), Some("smbios current speed"))
        );
        // 64 threads, and no firmware records to confirm them: a processor group's worth of
        // an unknown number.
        a.cpu = CpuAnswers {
            logical_cpus: Some(64),
            physical_cores: Some(32),
            ..CpuAnswers::default()
        };
        let mut notes = Notes::default();
        let c = cpu(&a, None, &[], &mut notes);
        assert_eq!(c.threads, None);
        assert!(why_in(&notes, "cpu.threads").contains("one processor group"));
    }

    fn why_in(notes: &Notes, field: &str) -> String {
        notes
            .0
            .iter()
            .find(|n| n.field == field)
            .map(|n| n.reason.clone())
            .unwrap_or_default()
    }

    #[test]
    fn hybrid_cores_are_typed_by_efficiency_class() {
        // An i7-12700K as Windows lists it: 8 P-cores with SMT (class 1), 4 E-cores (class 0).
        let mut p = Processors {
            groups: vec![super::super::ProcessorGroup {
                maximum: 20,
                active: 20,
                active_mask: 0xfffff,
            }],
            ..Processors::default()
        };
        for k in 0..8u32 {
            p.cores.push(ProcessorCore {
                smt: true,
                efficiency_class: 1,
                processors: vec![GroupMask {
                    group: 0,
                    mask: 0b11 << (2 * k),
                }],
            });
        }
        for k in 16..20u32 {
            p.cores.push(ProcessorCore {
                smt: false,
                efficiency_class: 0,
                processors: vec![GroupMask {
                    group: 0,
                    mask: 1 << k,
                }],
            });
        }
        let types: Vec<_> = core_types(&p)
            .into_iter()
            .map(|t| (t.name, t.cores, t.threads))
            .collect();
        assert_eq!(
            types,
            [("E-core".to_string(), 4, 4), ("P-core".to_string(), 8, 16)]
        );
        let mut c = Cpu::default();
        layout(&p, &mut c, &mut Notes::default());
        assert_eq!(
            (c.cores, c.threads, c.threads_per_core),
            (Some(12), Some(20), Some(2))
        );
    }

    #[test]
    fn disks_become_drives_by_bus_and_seek_penalty() {
        let disk = |bus: &str, seek: Option<bool>| Disk {
            device: "PhysicalDrive0".into(),
            bus_type: Some(bus.into()),
            seek_penalty: seek,
            ..Disk::default()
        };
        let kinds: Vec<_> = [
            disk("NVMe", None),
            disk("Sata", Some(false)),
            disk("Sata", Some(true)),
            disk("Usb", Some(false)),
            disk("Virtual", Some(true)),
            disk("RAID", None),
        ]
        .iter()
        .enumerate()
        .map(|(i, d)| {
            let d = drive(i, d, &mut Notes::default());
            (d.kind, d.transport)
        })
        .collect();
        assert_eq!(
            kinds,
            [
                (Some(DriveKind::Nvme), Some("nvme".into())),
                (Some(DriveKind::Ssd), Some("sata".into())),
                (Some(DriveKind::Hdd), Some("sata".into())),
                (Some(DriveKind::Ssd), Some("usb".into())),
                (Some(DriveKind::Virtual), Some("virtual".into())),
                (None, Some("raid".into())),
            ]
        );
        let a = fixture();
        let mut notes = Notes::default();
        let d = drives(&a, &mut notes);
        assert_eq!(d.state, crate::spec::ListState::Read);
        let d = d.items;
        assert_eq!(d.len(), 2);
        assert_eq!(
            (
                d[1].name.as_str(),
                d[1].model.as_deref(),
                d[1].serial.as_deref()
            ),
            (
                "PhysicalDrive1",
                Some("HP SSD EX950 1TB"),
                Some("HBSE19230100456")
            )
        );
        assert_eq!(
            (d[1].size_bytes, d[1].firmware.as_deref()),
            (Some(1_000_204_886_016), Some("SVN1212"))
        );
        let mut none = a.clone();
        none.disks.clear();
        none.errors
            .insert("disks".into(), "PhysicalDrive0: Access is denied.".into());
        let mut notes = Notes::default();
        // Not asked is not none: the list is unreadable, and the note says so.
        let d = drives(&none, &mut notes);
        assert!(d.items.is_empty());
        assert_eq!(d.state, crate::spec::ListState::Unreadable);
        assert_eq!(
            why_in(&notes, "drives"),
            "the drive list is unknown, not empty: PhysicalDrive0: Access is denied."
        );
    }

    #[test]
    fn volumes_are_the_filesystems_and_linux_limits_one_note() {
        let a = fixture();
        let mut notes = Notes::default();
        let l = limits(&a, &mut notes);
        assert_eq!(l.mem_total_bytes, Some(101_257_678_848));
        let mounts: Vec<_> = l
            .filesystems
            .iter()
            .map(|f| f.mount_point.as_str())
            .collect();
        assert_eq!(mounts, ["C:\\", "D:\\"]);
        assert_eq!(l.filesystems[0].fstype, "NTFS");
        assert_eq!((l.shm, l.affinity_cpus), (None, None));
        assert!(why_in(&notes, "limits").contains("not read on Windows"));
    }
}
