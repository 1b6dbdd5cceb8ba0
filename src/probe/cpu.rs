//! CPU probe: /proc/cpuinfo, /sys/devices/system/{cpu,node} and CPUID.
//!
//! Topology and caches are counted the way util-linux lscpu counts them, so the two agree on
//! every machine: cores are distinct SMT-sibling masks, sockets distinct package masks, over
//! online CPUs; a cache instance is a distinct (type, level, id), or (type, level, shared CPU
//! set) where the kernel gives no id. Parsers here are pure functions of text; `probe` reads.
//! Under a sysroot nothing live is touched: CPUID answers come from `cpuid.json` or are
//! unknown.

mod arm;
mod parse;
pub mod uarch;

use std::collections::{BTreeMap, BTreeSet};

use crate::probe::cpuid::Cpuid;
use crate::source::{Source, Unknown};
use crate::spec::{Cache, ClockNow, ClockSource, CoreType, Cpu, Notes, NumaNode};

pub use crate::cpulist::{format_cpulist, parse_cpulist, parse_cpumask};
pub use parse::{
    model_name_ghz_mhz, parse_cache_size, parse_cpuinfo, parse_node_meminfo,
    parse_sysinfo_topology, riscv_extensions, CpuInfo, Processor,
};

const SYS_CPU: &str = "/sys/devices/system/cpu";
const SYS_NODE: &str = "/sys/devices/system/node";

/// The processor family as /proc/cpuinfo shows it; decides which keys mean what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arch {
    /// `vendor_id`, `model name`, `flags`.
    X86,
    /// `CPU implementer`, `CPU part`, `Features`.
    Arm,
    /// `cpu`, `revision`; no vendor.
    Power,
    /// `vendor_id : IBM/S390`, `processor N: ... machine = 2964`.
    S390,
    /// `isa`, `uarch`, `mvendorid`.
    RiscV,
    /// Anything else: only what sysfs shows.
    Other,
}

/// Guesses the architecture from the keys /proc/cpuinfo uses.
pub fn detect_arch(info: &CpuInfo) -> Arch {
    if info.get("CPU implementer").is_some() {
        Arch::Arm
    } else if info.get("vendor_id") == Some("IBM/S390") || info.global.contains_key("# processors")
    {
        Arch::S390
    } else if info.get("vendor_id").is_some() && info.get("flags").is_some() {
        Arch::X86
    } else if info.get("isa").is_some() || info.get("hart").is_some() {
        Arch::RiscV
    } else if info.get("cpu").is_some() {
        Arch::Power
    } else {
        Arch::Other
    }
}

/// Reads processor identity, topology, clocks, caches, NUMA nodes and ISA; `cpuid` is the
/// run's CPUID answers (the base clock's leaf 0x16 on x86).
pub fn probe(src: &Source, cpuid: &Cpuid, notes: &mut Notes) -> Cpu {
    let text = src.read_string_within("/proc/cpuinfo", crate::bounded::Budget::Large);
    let info = match &text {
        Ok(text) => parse_cpuinfo(text),
        Err(e) => {
            notes.add("cpu.model", e);
            CpuInfo::default()
        }
    };
    let arch = detect_arch(&info);
    let mut cpu = Cpu::default();
    identity(&info, arch, &mut cpu, notes);
    if arch == Arch::X86 {
        mixed_models(&info, &mut cpu, notes);
    }

    let present = read_cpuset(src, "present");
    let online = match read_cpuset(src, "online") {
        Ok(set) => set,
        Err(e) => {
            // Without the `online` file (very old kernels) the CPUs cpuinfo lists are online.
            notes.add(
                "cpu.online",
                format!("{e}; using the CPUs /proc/cpuinfo lists"),
            );
            info.processors.iter().filter_map(|p| p.id).collect()
        }
    };
    if !online.is_empty() {
        cpu.threads = Some(online.len() as u32);
        cpu.online = Some(format_cpulist(&online));
    } else {
        notes.add(
            "cpu.threads",
            "no online CPU list in sysfs or /proc/cpuinfo",
        );
    }
    match present {
        Ok(p) => {
            cpu.cpus_present = Some(p.len() as u32);
            let off: Vec<u32> = p.iter().copied().filter(|c| !online.contains(c)).collect();
            // Known none offline is the empty list (as the kernel writes it), not unknown.
            cpu.offline = Some(String::new());
            if !off.is_empty() {
                cpu.offline = Some(format_cpulist(&off));
                notes.add(
                    "cpu.offline",
                    format!(
                        "{} of {} present CPUs are offline; counts cover online CPUs only",
                        off.len(),
                        p.len()
                    ),
                );
            }
        }
        Err(e) => {
            notes.add("cpu.cpus_present", e);
            // Without `present`, the kernel's own `offline` list (possible − online): an
            // empty file means none is offline.
            match read_cpuset(src, "offline") {
                Ok(off) => cpu.offline = Some(format_cpulist(&off)),
                Err(e) => notes.add("cpu.offline", e),
            }
        }
    }

    let topo = read_topology(src, &online);
    topology(src, &info, arch, &topo, &mut cpu, notes);
    clocks(src, cpuid, arch, &online, &mut cpu, notes);
    cpu.current_mhz = clock_now(src, &info, &online, notes);
    if cpu.microcode.is_none() {
        // Kernels and architectures whose cpuinfo has no `microcode` line still show it here.
        if let Ok(v) = src.read_value(format!("{SYS_CPU}/cpu0/microcode/version")) {
            cpu.microcode = Some(v);
        }
    }
    cpu.caches = read_caches(src, &online, notes);
    cpu.numa_nodes = read_numa(src, notes);
    let groups = core_type_groups(src, &info, arch);
    hybrid_sockets(&groups, &topo, &mut cpu, notes);
    cpu.core_types = core_types(src, groups, &topo, notes);
    if arch == Arch::Arm && cpu.core_types.len() > 1 {
        // big.LITTLE: every core kind is part of the model, as lscpu lists each.
        let names: Vec<&str> = cpu.core_types.iter().map(|t| t.name.as_str()).collect();
        cpu.model = Some(names.join(" + "));
    }
    isa_and_peak(&info, arch, &mut cpu, notes);
    explain_missing(arch, &cpu, notes);
    cpu
}

/// Vendor, model name, family/model/stepping, microcode and flags from /proc/cpuinfo.
fn identity(info: &CpuInfo, arch: Arch, cpu: &mut Cpu, notes: &mut Notes) {
    let get = |k: &str| info.get(k).map(str::to_string);
    let num = |k: &str| info.get(k).and_then(|v| v.parse::<u32>().ok());
    match arch {
        Arch::X86 => {
            cpu.vendor = get("vendor_id");
            cpu.model = get("model name");
            cpu.family = num("cpu family");
            cpu.model_id = num("model");
            cpu.stepping = num("stepping");
            cpu.microcode = get("microcode");
        }
        Arch::Arm => {
            let imp = info.get("CPU implementer").and_then(parse::parse_hex);
            cpu.vendor = imp.map(|i| arm::implementer_name(i).to_string());
            cpu.stepping = info.get("CPU revision").and_then(|v| v.parse().ok());
            // Hybrid parts get "A + B" in `probe` once core types are known.
            let part = info.get("CPU part").and_then(parse::parse_hex);
            cpu.model = match (imp, part) {
                (Some(i), Some(p)) => Some(arm_model(i, p, notes)),
                _ => get("model name").or_else(|| get("Processor")),
            };
        }
        Arch::Power => {
            cpu.model = get("cpu");
        }
        Arch::S390 => {
            cpu.vendor = get("vendor_id");
            cpu.model = info.s390_machine().map(|m| {
                format!(
                    "{} machine type {m}",
                    cpu.vendor.as_deref().unwrap_or("s390")
                )
            });
        }
        Arch::RiscV => {
            cpu.vendor = get("mvendorid");
            cpu.model = get("uarch");
        }
        Arch::Other => {
            cpu.model = get("model name").or_else(|| get("cpu model"));
        }
    }
    let flags = info
        .get("flags")
        .or_else(|| info.get("Features"))
        .or_else(|| info.get("features"));
    let mut flags: Vec<String> = match (flags, arch) {
        (Some(f), _) => f.split_whitespace().map(str::to_string).collect(),
        // RISC-V lists extensions in `isa`: rv64imafdc_zicsr_... (single letters after rv64).
        (None, Arch::RiscV) => info
            .get("isa")
            .map(parse::riscv_extensions)
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    flags.sort();
    flags.dedup();
    cpu.flags = flags;
}

/// Sockets holding different models (a Gold and a Silver Xeon side by side, from a repair
/// with the wrong part): every socket's model goes to `socket_models`, with a note, so the
/// order is checked against each and not just the first.
fn mixed_models(info: &CpuInfo, cpu: &mut Cpu, notes: &mut Notes) {
    let mut by_socket: BTreeMap<u32, String> = BTreeMap::new();
    let mut seen: Vec<&str> = Vec::new();
    for p in &info.processors {
        let Some(&model) = p.fields.get("model name").filter(|m| !m.is_empty()) else {
            continue;
        };
        if !seen.contains(&model) {
            seen.push(model);
        }
        if let Some(pkg) = p
            .fields
            .get("physical id")
            .and_then(|v| v.parse::<u32>().ok())
        {
            by_socket.entry(pkg).or_insert_with(|| model.to_string());
        }
    }
    if seen.len() < 2 {
        return;
    }
    let described: Vec<String> = if by_socket.len() >= seen.len() {
        cpu.socket_models = by_socket.values().cloned().collect();
        by_socket
            .iter()
            .map(|(pkg, m)| format!("socket {pkg}: {m}"))
            .collect()
    } else {
        // No `physical id` to place them: the models as cpuinfo lists them.
        cpu.socket_models = seen.iter().map(|m| m.to_string()).collect();
        seen.iter().map(|m| m.to_string()).collect()
    };
    cpu.model = cpu.socket_models.first().cloned();
    notes.add(
        "cpu.model",
        format!(
            "the sockets hold different CPU models ({}); `model` shows the first, \
             `socket_models` lists each",
            described.join("; ")
        ),
    );
}

fn arm_model(implementer: u32, part: u32, notes: &mut Notes) -> String {
    match arm::part_name(implementer, part) {
        Some(n) => n.to_string(),
        None => {
            notes.add(
                "cpu.model",
                format!(
                    "arm64 has no model name; implementer 0x{implementer:02x} part 0x{part:03x} \
                     is not in rigcheck's part list, so the raw ids are shown"
                ),
            );
            format!("{} part 0x{part:03x}", arm::implementer_name(implementer))
        }
    }
}

/// Per-CPU topology masks of the online CPUs.
#[derive(Debug, Default)]
struct Topology {
    /// cpu → SMT sibling set (core_cpus / thread_siblings).
    threads: BTreeMap<u32, Vec<u32>>,
    /// cpu → package set (package_cpus / core_siblings).
    packages: BTreeMap<u32, Vec<u32>>,
}

fn read_topology(src: &Source, online: &[u32]) -> Topology {
    let mut t = Topology::default();
    for &c in online {
        let dir = format!("{SYS_CPU}/cpu{c}/topology");
        if let Some(s) = read_set_any(
            src,
            &dir,
            &["core_cpus_list", "thread_siblings_list"],
            &["core_cpus", "thread_siblings"],
        ) {
            t.threads.insert(c, s);
        }
        if let Some(s) = read_set_any(
            src,
            &dir,
            &["package_cpus_list", "core_siblings_list"],
            &["package_cpus", "core_siblings"],
        ) {
            t.packages.insert(c, s);
        }
    }
    t
}

/// Reads the first of several cpulist files, then of several cpumask files.
/// The CPUs sharing the cache in `dir` by `shared_cpu_map`, which lscpu and hwloc read.
fn shared_map(src: &Source, dir: &str) -> Option<Vec<u32>> {
    src.read_value(format!("{dir}/shared_cpu_map"))
        .ok()
        .and_then(|t| parse_cpumask(&t).ok())
}

/// The CPUs sharing the cache in `dir`: `map` (`shared_cpu_map`), else `shared_cpu_list`.
/// In a recorded tree, where both are readable and name different CPUs, the directory and
/// both answers are added to `disagree`.
fn shared_cpus(
    src: &Source,
    dir: &str,
    map: Option<Vec<u32>>,
    disagree: &mut Vec<String>,
) -> Option<Vec<u32>> {
    // A live kernel prints both files from the one mask (drivers/base/cacheinfo.c), so
    // they cannot disagree there; only a tree recorded or edited elsewhere can.
    if src.is_live() && map.is_some() {
        return map;
    }
    let list = src
        .read_value(format!("{dir}/shared_cpu_list"))
        .ok()
        .and_then(|t| parse_cpulist(&t).ok());
    match (map, list) {
        (Some(m), Some(l)) if m != l => {
            disagree.push(format!(
                "{dir}: list {}, map {}",
                format_cpulist(&l),
                format_cpulist(&m)
            ));
            Some(m)
        }
        (Some(m), _) => Some(m),
        (None, l) => l,
    }
}

fn read_set_any(src: &Source, dir: &str, lists: &[&str], masks: &[&str]) -> Option<Vec<u32>> {
    for l in lists {
        if let Ok(text) = src.read_value(format!("{dir}/{l}")) {
            if let Ok(s) = parse_cpulist(&text) {
                return Some(s);
            }
        }
    }
    for m in masks {
        if let Ok(text) = src.read_value(format!("{dir}/{m}")) {
            if let Ok(s) = parse_cpumask(&text) {
                return Some(s);
            }
        }
    }
    None
}

fn read_cpuset(src: &Source, name: &str) -> Result<Vec<u32>, Unknown> {
    let path = format!("{SYS_CPU}/{name}");
    let text = src.read_value(&path)?;
    parse_cpulist(&text).map_err(|d| Unknown::unparsable(path, d))
}

/// Sockets, cores and threads per core, counted as lscpu does.
fn topology(
    src: &Source,
    info: &CpuInfo,
    arch: Arch,
    topo: &Topology,
    cpu: &mut Cpu,
    notes: &mut Notes,
) {
    if !topo.threads.is_empty() {
        let cores: BTreeSet<&Vec<u32>> = topo.threads.values().collect();
        cpu.cores = Some(cores.len() as u32);
        cpu.threads_per_core = topo.threads.values().map(|s| s.len().max(1) as u32).max();
    } else if let Some((cores, sockets)) = info.x86_topology() {
        // No sysfs topology (some VMs, old kernels): x86 cpuinfo ids still tell.
        notes.add(
            "cpu.cores",
            "no sysfs topology; counted from /proc/cpuinfo `physical id`/`core id`",
        );
        cpu.cores = Some(cores);
        if cpu.sockets.is_none() {
            cpu.sockets = Some(sockets);
        }
        cpu.threads_per_core = cpu.threads.map(|t| t.div_ceil(cores.max(1)));
    } else {
        notes.add(
            "cpu.cores",
            "no topology: /sys/devices/system/cpu/cpuN/topology is not present",
        );
    }
    if !topo.packages.is_empty() {
        let sockets: BTreeSet<&Vec<u32>> = topo.packages.values().collect();
        cpu.sockets = Some(sockets.len() as u32);
    }
    // s390 LPARs and z/VM guests see virtual masks; lscpu trusts /proc/sysinfo instead.
    if let Ok(text) = src.read_string("/proc/sysinfo") {
        if let Some(t) = parse_sysinfo_topology(&text) {
            cpu.cores_per_socket = Some(t.cores_per_socket);
            notes.add(
                "cpu.cores_per_socket",
                format!(
                    "from /proc/sysinfo `CPU Topology SW` (the machine's layout: {} books x {} \
                     sockets x {} cores); this partition's CPUs are spread across it",
                    t.books.max(1) * t.drawers.max(1),
                    t.sockets_per_book,
                    t.cores_per_socket
                ),
            );
        }
    }
    if arch == Arch::S390 {
        if let Some(mtid) = info
            .global
            .get("max thread id")
            .and_then(|v| v.parse::<u32>().ok())
        {
            cpu.threads_per_core = Some(mtid + 1);
        }
    }
    plausible_topology(cpu, notes);
    if cpu.cores_per_socket.is_none() {
        if let (Some(c), Some(s)) = (cpu.cores, cpu.sockets) {
            cpu.cores_per_socket = c.checked_div(s);
        }
    }
    if cpu.sockets.is_none() {
        notes.add(
            "cpu.sockets",
            "no package masks: cpuN/topology/package_cpus_list is not present",
        );
    }
}

/// Most hardware threads one core runs (POWER8 and later: SMT8).
pub const MAX_THREADS_PER_CORE: u32 = 8;

/// A topology no machine has is not passed on: more threads per core than any core runs,
/// or more sockets than cores (a socket holds at least one core), is unknown with a note.
fn plausible_topology(cpu: &mut Cpu, notes: &mut Notes) {
    if let Some(t) = cpu.threads_per_core.filter(|t| *t > MAX_THREADS_PER_CORE) {
        notes.add(
            "cpu.threads_per_core",
            format!(
                "the topology files give {t} threads per core, more than any core runs \
                 ({MAX_THREADS_PER_CORE}): unknown"
            ),
        );
        cpu.threads_per_core = None;
    }
    if let (Some(s), Some(c)) = (cpu.sockets, cpu.cores) {
        if s > c {
            notes.add(
                "cpu.sockets",
                format!(
                    "the topology files give {s} sockets for {c} cores, and a socket holds at \
                     least one core: unknown"
                ),
            );
            cpu.sockets = None;
            cpu.cores_per_socket = None;
        }
    }
}

/// On hybrid parts count sockets within each core type, as lscpu does: older arm64
/// kernels report each cluster of alike cores as its own package, and one SoC is one socket.
fn hybrid_sockets(
    groups: &[(String, Vec<u32>)],
    topo: &Topology,
    cpu: &mut Cpu,
    notes: &mut Notes,
) {
    if groups.is_empty() || topo.packages.is_empty() {
        return;
    }
    let per_type = groups
        .iter()
        .map(|(_, cpus)| {
            let masks: BTreeSet<&Vec<u32>> =
                cpus.iter().filter_map(|c| topo.packages.get(c)).collect();
            masks.len() as u32
        })
        .max();
    if let (Some(n), Some(all)) = (per_type.filter(|&n| n > 0), cpu.sockets) {
        if n != all {
            notes.add(
                "cpu.sockets",
                format!(
                    "the kernel shows {all} packages, one per cluster of alike cores; counted \
                     within each core type as lscpu does: {n}"
                ),
            );
            cpu.sockets = Some(n);
            if let Some(c) = cpu.cores {
                cpu.cores_per_socket = Some(c / n);
            }
        }
    }
}

/// Base, min and max clock, scaling driver and governor.
fn clocks(
    src: &Source,
    leaves: &Cpuid,
    arch: Arch,
    online: &[u32],
    cpu: &mut Cpu,
    notes: &mut Notes,
) {
    let mut max_khz: Option<u64> = None;
    let mut min_khz: Option<u64> = None;
    let mut base_khz: Option<u64> = None;
    let mut cppc_mhz: Option<u64> = None;
    // A value no CPU runs at makes its field unknown (base: the next source is used), with
    // a note naming the file; never a wrapped or truncated clock.
    let mut wild: BTreeMap<&'static str, String> = BTreeMap::new();
    // (0 in cpuinfo_min_freq and base_frequency means "not given"; a maximum of 0 is wild.)
    let mut khz = |field: &'static str, path: String| -> Option<u64> {
        let v = src.read_parse::<u64>(&path).ok()?;
        if v == 0 && field != "cpu.max_mhz" {
            return None;
        }
        if khz_to_mhz(v).is_none() {
            wild.entry(field)
                .or_insert_with(|| implausible_clock(&path, v, "kHz"));
            return None;
        }
        Some(v)
    };
    let mut cppc_wild = None;
    for &c in online {
        let dir = format!("{SYS_CPU}/cpu{c}/cpufreq");
        if let Some(v) = khz("cpu.max_mhz", format!("{dir}/cpuinfo_max_freq")) {
            max_khz = Some(max_khz.map_or(v, |m| m.max(v)));
        }
        if let Some(v) = khz("cpu.min_mhz", format!("{dir}/cpuinfo_min_freq")) {
            min_khz = Some(min_khz.map_or(v, |m| m.min(v)));
        }
        if let Some(v) = khz("cpu.base_mhz", format!("{dir}/base_frequency")) {
            base_khz = Some(base_khz.map_or(v, |m| m.max(v)));
        }
        if cpu.scaling_driver.is_none() {
            cpu.scaling_driver = src.read_value(format!("{dir}/scaling_driver")).ok();
        }
        if cpu.governor.is_none() {
            cpu.governor = src.read_value(format!("{dir}/scaling_governor")).ok();
        }
        let path = format!("{SYS_CPU}/cpu{c}/acpi_cppc/nominal_freq");
        if let Ok(v) = src.read_parse::<u64>(&path) {
            if v > 0 && !PLAUSIBLE_MHZ.contains(&v) {
                cppc_wild.get_or_insert_with(|| implausible_clock(&path, v, "MHz"));
            } else if v > 0 {
                cppc_mhz = Some(cppc_mhz.map_or(v, |m| m.max(v)));
            }
        }
    }
    for (field, why) in &wild {
        notes.add(*field, why);
    }
    if let Some(why) = cppc_wild {
        notes.add("cpu.base_mhz", why);
        cppc_mhz = None;
    }
    let known = |field: &str, v: Option<u64>| v.filter(|_| !wild.contains_key(field));
    let (max_khz, min_khz) = (known("cpu.max_mhz", max_khz), known("cpu.min_mhz", min_khz));
    let base_khz = known("cpu.base_mhz", base_khz);
    cpu.max_mhz = max_khz.and_then(khz_to_mhz);
    cpu.min_mhz = min_khz.and_then(khz_to_mhz);
    for (field, value, file) in [
        ("cpu.max_mhz", max_khz, "cpuinfo_max_freq"),
        ("cpu.min_mhz", min_khz, "cpuinfo_min_freq"),
    ] {
        if value.is_none() && !wild.contains_key(field) {
            notes.add(
                field,
                format!("no cpufreq: cpuN/cpufreq/{file} is not present (usual in VMs)"),
            );
        }
    }
    if cpu.scaling_driver.is_none() {
        notes.add("cpu.scaling_driver", "no cpufreq driver is loaded");
        notes.add("cpu.governor", "no cpufreq driver is loaded");
    }

    let named = cpu.model.as_deref().and_then(parse::model_name_ghz_mhz);
    // AMD under acpi-cpufreq with a boost switch: the highest listed P-state is P0, the
    // base clock (drivers/cpufreq/acpi-cpufreq.c adds no boost state on AMD).
    let boost_excluded_max = (cpu.vendor.as_deref() == Some("AuthenticAMD")
        && cpu.scaling_driver.as_deref() == Some("acpi-cpufreq")
        && src.exists(format!("{SYS_CPU}/cpufreq/boost")))
    .then_some(cpu.max_mhz)
    .flatten();
    let cpuid = if arch == Arch::X86 {
        cpuid_base_mhz(leaves)
    } else {
        Err("CPUID leaf 0x16 exists only on x86".to_string())
    };
    let (base, source, why) = if let Some(mhz) = base_khz.and_then(khz_to_mhz) {
        let mut why =
            format!("from cpufreq base_frequency (intel_pstate): the guaranteed clock, {mhz} MHz");
        if let Some(n) = named.filter(|n| n.abs_diff(mhz) > 50) {
            why.push_str(&format!(
                "; the model name advertises {n} MHz (the firmware's guaranteed level can \
                 sit below it, e.g. on low-power laptops)"
            ));
        }
        (Some(mhz), "cpufreq base_frequency", why)
    } else if let Ok(m) = cpuid {
        (
            Some(m),
            "cpuid 0x16",
            format!("from CPUID leaf 0x16 (processor base frequency): {m} MHz"),
        )
    } else if let Some(m) = cppc_mhz.and_then(|m| u32::try_from(m).ok()) {
        (
            Some(m),
            "acpi_cppc nominal_freq",
            format!("from ACPI CPPC nominal_freq: {m} MHz"),
        )
    } else if let Some(m) = boost_excluded_max {
        (
            Some(m),
            "cpufreq cpuinfo_max_freq",
            format!(
                "from acpi-cpufreq cpuinfo_max_freq with boost on: {m} MHz; on AMD the ACPI \
                 P-state table stops at the base clock and boost clocks are not listed"
            ),
        )
    } else if let Some(n) = named {
        (
            Some(n),
            "model name",
            format!("from the model name's advertised clock: {n} MHz"),
        )
    } else {
        let cpuid_why = cpuid.err().unwrap_or_default();
        (
            None,
            "",
            format!(
                "unknown: no cpufreq base_frequency, {cpuid_why}, no acpi_cppc nominal_freq, \
                 and the model name states no clock"
            ),
        )
    };
    cpu.base_mhz = base;
    if base.is_some() {
        cpu.base_mhz_source = Some(source.to_string());
    } else {
        notes.add("cpu.base_mhz_source", "no base clock source");
    }
    notes.add("cpu.base_mhz", why);
}

/// The clock the online CPUs run at now: cpufreq's `scaling_cur_freq` of each, else the
/// `cpu MHz` lines of /proc/cpuinfo (x86 prints one per CPU; a VM without cpufreq has only
/// these), summarised as min, mean and max.
fn clock_now(src: &Source, info: &CpuInfo, online: &[u32], notes: &mut Notes) -> Option<ClockNow> {
    let mut khz: Vec<u64> = Vec::new();
    for &c in online {
        let path = format!("{SYS_CPU}/cpu{c}/cpufreq/scaling_cur_freq");
        match src.read_parse::<u64>(&path) {
            Ok(v) if khz_to_mhz(v).is_some() => khz.push(v),
            _ => {
                khz.clear();
                break;
            }
        }
    }
    let (mhz, source): (Vec<u32>, ClockSource) = if !khz.is_empty() {
        (
            khz.into_iter().filter_map(khz_to_mhz).collect(),
            ClockSource::ScalingCurFreq,
        )
    } else {
        let from_cpuinfo: Vec<u32> = info
            .processors
            .iter()
            .filter(|p| {
                p.id.is_none_or(|id| online.is_empty() || online.contains(&id))
            })
            .filter_map(|p| p.fields.get("cpu MHz"))
            .filter_map(|v| v.trim().parse::<f64>().ok())
            .filter(|v| v.is_finite() && (1.0..=100_000.0).contains(v))
            .map(|v| v.round() as u32)
            .collect();
        (from_cpuinfo, ClockSource::Cpuinfo)
    };
    if mhz.is_empty() {
        notes.add(
            "cpu.current_mhz",
            "no clock now: no cpufreq scaling_cur_freq and no `cpu MHz` in /proc/cpuinfo (only \
             x86 prints it)",
        );
        return None;
    }
    let sum: u64 = mhz.iter().map(|&m| u64::from(m)).sum();
    let n = mhz.len() as u64;
    Some(ClockNow {
        min_mhz: mhz.iter().copied().min().unwrap_or_default(),
        avg_mhz: u32::try_from((sum + n / 2) / n).unwrap_or(u32::MAX),
        max_mhz: mhz.iter().copied().max().unwrap_or_default(),
        cpus: u32::try_from(n).unwrap_or(u32::MAX),
        source,
    })
}

/// Fills `microarchitecture` and `codename` from the vendor, family, model and stepping
/// (`uarch`'s table), with a note where they are unknown or the table has no row.
pub fn name_microarchitecture(cpu: &mut Cpu, notes: &mut Notes) {
    let (Some(vendor), Some(family), Some(model)) =
        (cpu.vendor.as_deref(), cpu.family, cpu.model_id)
    else {
        notes.add(
            "cpu.microarchitecture",
            "unknown: the CPU's vendor, family and model are not all known (x86 only)",
        );
        return;
    };
    match uarch::lookup(vendor, family, model, cpu.stepping) {
        Some(u) => {
            cpu.microarchitecture = Some(u.name.to_string());
            cpu.codename = u.codename.map(str::to_string);
        }
        None => notes.add(
            "cpu.microarchitecture",
            format!(
                "{vendor} family {family} model {model} (0x{model:02x}) is not in rigcheck's \
                 table of Intel and AMD parts from 2012 on"
            ),
        ),
    }
}

/// CPUID leaf 0x16 EAX: base MHz (Intel Skylake and later; 0 where not enumerated).
fn cpuid_base_mhz(leaves: &Cpuid) -> Result<u32, String> {
    let [max_leaf, ..] = leaves.leaf(0, 0).map_err(|e| format!("CPUID {e}"))?;
    if max_leaf < 0x16 {
        return Err(format!(
            "CPUID max leaf 0x{max_leaf:x} has no leaf 0x16 (base frequency)"
        ));
    }
    let [eax, ..] = leaves.leaf(0x16, 0).map_err(|e| format!("CPUID {e}"))?;
    let mhz = eax & 0xffff;
    if mhz == 0 {
        Err("CPUID leaf 0x16 reports base 0 (not enumerated, common in VMs)".into())
    } else {
        Ok(mhz)
    }
}

/// The clocks any real processor runs at, in MHz (the fastest today boost past 6 GHz):
/// a cpufreq or CPPC value outside is not a clock but a broken or hostile file.
const PLAUSIBLE_MHZ: std::ops::RangeInclusive<u64> = 1..=100_000;

/// cpufreq's kHz to MHz, rounded; `None` outside `PLAUSIBLE_MHZ` (so never wrapped to
/// 0 MHz or truncated to 32 bits).
fn khz_to_mhz(khz: u64) -> Option<u32> {
    let mhz = khz / 1000 + u64::from(khz % 1000 >= 500);
    if PLAUSIBLE_MHZ.contains(&mhz) {
        u32::try_from(mhz).ok()
    } else {
        None
    }
}

/// The note for a clock file holding a value no CPU runs at.
fn implausible_clock(path: &str, value: u64, unit: &str) -> String {
    format!(
        "{path} says {value} {unit}, outside any CPU's clock (1 MHz to 100 GHz): \
         left unknown"
    )
}

/// One cache instance as read from one CPU's `cache/indexN`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
enum CacheKey {
    /// Kernel-given id, unique per (level, type).
    Id(u32, String, i64),
    /// No id: the set of CPUs sharing it identifies it.
    Shared(u32, String, Vec<u32>),
}

fn read_caches(src: &Source, online: &[u32], notes: &mut Notes) -> Vec<Cache> {
    // (level, kind) → instance → size
    let mut seen: BTreeMap<CacheKey, Option<u64>> = BTreeMap::new();
    let mut sizeless = false;
    // CPUs that share a cache list it under the same indexN: once one CPU's indexN has
    // been read, its siblings' indexN needs only the shared list (keeps replay of big
    // machines to a few hundred reads).
    let mut covered: BTreeSet<(String, Vec<u32>)> = BTreeSet::new();
    let mut disagree: Vec<String> = Vec::new();
    for &c in online {
        let base = format!("{SYS_CPU}/cpu{c}/cache");
        let Ok(entries) = src.read_dir(&base) else {
            continue;
        };
        for e in entries.iter().filter(|e| e.starts_with("index")) {
            let dir = format!("{base}/{e}");
            // A sibling of a cache already read costs one file: its map. The list is read
            // (and checked against the map) only where a cache is met for the first time.
            let map = shared_map(src, &dir);
            if map
                .as_ref()
                .is_some_and(|m| covered.contains(&(e.clone(), m.clone())))
            {
                continue;
            }
            let shared = shared_cpus(src, &dir, map, &mut disagree);
            if let Some(sh) = &shared {
                if !covered.insert((e.clone(), sh.clone())) {
                    continue;
                }
            }
            let Ok(level) = src.read_parse::<u32>(format!("{dir}/level")) else {
                continue;
            };
            let Ok(kind) = src.read_value(format!("{dir}/type")) else {
                continue;
            };
            let key = match src.read_parse::<i64>(format!("{dir}/id")) {
                Ok(id) => CacheKey::Id(level, kind, id),
                Err(_) => CacheKey::Shared(level, kind, shared.unwrap_or_else(|| vec![c])),
            };
            if seen.contains_key(&key) {
                continue;
            }
            let size = src
                .read_value(format!("{dir}/size"))
                .ok()
                .and_then(|s| parse_cache_size(&s));
            sizeless |= size.is_none();
            seen.insert(key, size);
        }
    }
    if let Some(first) = disagree.first() {
        notes.add(
            "cpu.caches",
            format!(
                "shared_cpu_list and shared_cpu_map disagree in {} cache director{} ({first}); \
                 followed shared_cpu_map, as lscpu and hwloc do",
                disagree.len(),
                if disagree.len() == 1 { "y" } else { "ies" }
            ),
        );
    }
    if seen.is_empty() {
        notes.add(
            "cpu.caches",
            "no cache information: cpuN/cache/index* is not present",
        );
        return Vec::new();
    }
    if sizeless {
        notes.add(
            "cpu.caches",
            "the kernel does not export some cache sizes (cpuN/cache/indexM/size is missing, \
             common on arm64 without ACPI PPTT); those caches are left out",
        );
    }
    let sized = seen.into_iter().filter_map(|(key, size)| {
        let (level, kind) = match key {
            CacheKey::Id(l, k, _) | CacheKey::Shared(l, k, _) => (l, k),
        };
        Some((level, kind, size?))
    });
    summarize_caches(sized, notes)
}

/// One `Cache` per level and kind from cache instances `(level, kind, size)`, kinds named
/// as sysfs names them in any case (`Data`, `unified`); data before instruction before
/// unified, as lscpu lists them.
pub fn summarize_caches(
    instances: impl IntoIterator<Item = (u32, String, u64)>,
    notes: &mut Notes,
) -> Vec<Cache> {
    let mut groups: BTreeMap<(u32, u8, String), Vec<u64>> = BTreeMap::new();
    for (level, kind, size) in instances {
        let kind = match kind.as_str() {
            "Data" => "data".to_string(),
            "Instruction" => "instruction".to_string(),
            "Unified" => "unified".to_string(),
            other => other.to_lowercase(),
        };
        let order = match kind.as_str() {
            "data" => 0,
            "instruction" => 1,
            _ => 2,
        };
        groups.entry((level, order, kind)).or_default().push(size);
    }
    let mut out = Vec::new();
    for ((level, _, kind), sizes) in groups {
        let Some(total) = sizes.iter().try_fold(0u64, |sum, &b| sum.checked_add(b)) else {
            notes.add(
                "cpu.caches",
                format!("L{level} {kind} cache sizes add up past 64 bits: not kernel values"),
            );
            continue;
        };
        let first = sizes.first().copied().unwrap_or(0);
        if sizes.iter().any(|&s| s != first) {
            notes.add(
                "cpu.caches",
                format!(
                    "L{level} {kind} instances differ in size (hybrid cores); size_bytes is the \
                     largest, total_bytes the sum"
                ),
            );
        }
        out.push(Cache {
            level,
            kind,
            size_bytes: sizes.iter().copied().max().unwrap_or(first),
            instances: sizes.len() as u32,
            total_bytes: total,
        });
    }
    out
}

fn read_numa(src: &Source, notes: &mut Notes) -> Vec<NumaNode> {
    let entries = match src.read_dir(SYS_NODE) {
        Ok(e) => e,
        Err(e) => {
            notes.add(
                "cpu.numa_nodes",
                format!("{e} (kernel without CONFIG_NUMA)"),
            );
            return Vec::new();
        }
    };
    let mut ids: Vec<u32> = entries
        .iter()
        .filter_map(|e| e.strip_prefix("node")?.parse().ok())
        .collect();
    ids.sort_unstable();
    let mut out = Vec::new();
    let mut mem_missing = None;
    for id in ids {
        let dir = format!("{SYS_NODE}/node{id}");
        let cpus = read_set_any(src, &dir, &["cpulist"], &["cpumap"]).unwrap_or_default();
        let memory_bytes = match src.read_string(format!("{dir}/meminfo")) {
            Ok(t) => parse_node_meminfo(&t),
            Err(e) => {
                mem_missing.get_or_insert(e);
                None
            }
        };
        out.push(NumaNode {
            id,
            cpus: format_cpulist(&cpus),
            memory_bytes,
            // Placed with the GPUs and drives by `probe::place`, by one rule.
            socket: None,
        });
    }
    if let Some(e) = mem_missing {
        notes.add("cpu.numa_nodes[].memory_bytes", e);
    }
    out
}

/// Groups of alike cores: arm big.LITTLE by CPU part, x86 hybrid by the PMU's cpu_core /
/// cpu_atom CPU lists.
fn core_type_groups(src: &Source, info: &CpuInfo, arch: Arch) -> Vec<(String, Vec<u32>)> {
    let mut groups: Vec<(String, Vec<u32>)> = Vec::new();
    match arch {
        Arch::Arm => {
            for p in &info.processors {
                let (Some(id), Some(imp), Some(part)) = (
                    p.id,
                    p.fields
                        .get("CPU implementer")
                        .and_then(|v| parse::parse_hex(v)),
                    p.fields.get("CPU part").and_then(|v| parse::parse_hex(v)),
                ) else {
                    continue;
                };
                let name = arm::part_name(imp, part)
                    .map(str::to_string)
                    .unwrap_or_else(|| format!("{} part 0x{part:03x}", arm::implementer_name(imp)));
                match groups.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, v)) => v.push(id),
                    None => groups.push((name, vec![id])),
                }
            }
        }
        Arch::X86 => {
            for (dir, name) in [("cpu_core", "P-core"), ("cpu_atom", "E-core")] {
                if let Ok(text) = src.read_value(format!("/sys/devices/{dir}/cpus")) {
                    if let Ok(set) = parse_cpulist(&text) {
                        if !set.is_empty() {
                            groups.push((name.to_string(), set));
                        }
                    }
                }
            }
        }
        _ => {}
    }
    if groups.len() < 2 {
        groups.clear();
    }
    groups
}

/// One `CoreType` per group of alike CPUs, with its cores and top clock.
fn core_types(
    src: &Source,
    groups: Vec<(String, Vec<u32>)>,
    topo: &Topology,
    notes: &mut Notes,
) -> Vec<CoreType> {
    let mut out = Vec::new();
    for (name, cpus) in groups {
        let cores: BTreeSet<&Vec<u32>> = cpus.iter().filter_map(|c| topo.threads.get(c)).collect();
        let mut max_khz: Option<u64> = None;
        let mut wild = None;
        for c in &cpus {
            let path = format!("{SYS_CPU}/cpu{c}/cpufreq/cpuinfo_max_freq");
            if let Ok(v) = src.read_parse::<u64>(&path) {
                if khz_to_mhz(v).is_none() {
                    wild.get_or_insert_with(|| implausible_clock(&path, v, "kHz"));
                }
                max_khz = Some(max_khz.map_or(v, |m| m.max(v)));
            }
        }
        let field = format!("cpu.core_types[{name}].max_mhz");
        match wild {
            Some(why) => {
                notes.add(field, why);
                max_khz = None;
            }
            None if max_khz.is_none() => notes.add(field, "no cpufreq for these CPUs"),
            None => {}
        }
        out.push(CoreType {
            name,
            cores: if cores.is_empty() {
                cpus.len() as u32
            } else {
                cores.len() as u32
            },
            threads: cpus.len() as u32,
            max_mhz: max_khz.and_then(khz_to_mhz),
        });
    }
    // Slowest first (LITTLE before big), as lscpu lists them; equal clocks by name.
    out.sort_by(|a, b| (a.max_mhz, &a.name).cmp(&(b.max_mhz, &b.name)));
    out
}

/// Plain ISA names, AVX-512 FMA units where the brand tells, and peak FP64 at base clock.
pub fn isa_and_peak(info: &CpuInfo, arch: Arch, cpu: &mut Cpu, notes: &mut Notes) {
    let has = |f: &str| cpu.flags.iter().any(|x| x == f);
    let table: &[(&str, &str)] = match arch {
        Arch::X86 => &[
            ("sse2", "SSE2"),
            ("sse4_2", "SSE4.2"),
            ("avx", "AVX"),
            ("avx2", "AVX2"),
            ("fma", "FMA"),
            ("f16c", "F16C"),
            ("avx_vnni", "AVX-VNNI"),
            ("avx512f", "AVX-512F"),
            ("avx512dq", "AVX-512DQ"),
            ("avx512cd", "AVX-512CD"),
            ("avx512bw", "AVX-512BW"),
            ("avx512vl", "AVX-512VL"),
            ("avx512ifma", "AVX-512 IFMA"),
            ("avx512vbmi", "AVX-512 VBMI"),
            ("avx512_vnni", "AVX-512 VNNI"),
            ("avx512_bf16", "AVX-512 BF16"),
            ("avx512_fp16", "AVX-512 FP16"),
            ("amx_tile", "AMX-TILE"),
            ("amx_bf16", "AMX-BF16"),
            ("amx_int8", "AMX-INT8"),
            ("amx_fp16", "AMX-FP16"),
        ],
        Arch::Arm => &[
            ("asimd", "NEON/ASIMD"),
            ("asimdhp", "FP16 (ASIMD)"),
            ("asimddp", "DotProd"),
            ("i8mm", "I8MM"),
            ("bf16", "BF16"),
            ("sve", "SVE"),
            ("sve2", "SVE2"),
            ("svebf16", "SVE BF16"),
            ("svei8mm", "SVE I8MM"),
            ("sme", "SME"),
        ],
        Arch::RiscV => &[("f", "F"), ("d", "D"), ("v", "V (vector)")],
        Arch::S390 => &[
            ("vx", "Vector"),
            ("vxe", "Vector enhancements 1"),
            ("nnpa", "NNPA"),
        ],
        _ => &[],
    };
    cpu.isa = table
        .iter()
        .filter(|(flag, _)| has(flag))
        .map(|(_, name)| name.to_string())
        .collect();
    if arch == Arch::Power && info.get("cpu").is_some_and(|m| m.contains("altivec")) {
        cpu.isa.push("AltiVec".into());
    }

    if arch != Arch::X86 {
        notes.add(
            "cpu.peak_fp64_gflops",
            "FLOPs per cycle are derived for x86 vector units only",
        );
        notes.add("cpu.fma_units", "derived for AVX-512 x86 CPUs only");
        return;
    }
    let avx512 = has("avx512f");
    if avx512 {
        cpu.fma_units = cpu
            .model
            .as_deref()
            .and_then(|m| avx512_fma_units(m, cpu.model_id));
        if cpu.fma_units.is_none() {
            notes.add(
                "cpu.fma_units",
                "the number of 512-bit FMA units is not enumerated by CPUID or the kernel; it \
                 is known from the brand only for 1st/2nd gen Xeon Scalable and Core parts",
            );
        }
    } else {
        notes.add(
            "cpu.fma_units",
            "no AVX-512: 512-bit FMA units do not apply",
        );
    }
    let amd_zen1 = cpu.vendor.as_deref() == Some("AuthenticAMD")
        && cpu.family == Some(0x17)
        && cpu.model_id.is_some_and(|m| m < 0x30);
    // Double-precision FLOPs per cycle per core.
    let per_cycle: Result<u32, &str> = if avx512 {
        cpu.fma_units
            .map(|u| u * 16)
            .ok_or("AVX-512 FMA unit count unknown")
    } else if has("avx2") && has("fma") {
        if amd_zen1 {
            // Zen 1 splits 256-bit ops into two 128-bit halves: 2 FMA x 2 lanes x 2.
            Ok(8)
        } else {
            Ok(16)
        }
    } else if has("avx") {
        Ok(8)
    } else if has("sse2") {
        Ok(4)
    } else {
        Err("no SSE2/AVX flags")
    };
    match (per_cycle, cpu.cores, cpu.base_mhz) {
        (Ok(f), Some(cores), Some(mhz)) => {
            let g = f64::from(cores) * f64::from(mhz) / 1000.0 * f64::from(f);
            cpu.peak_fp64_gflops = Some((g * 10.0).round() / 10.0);
            notes.add(
                "cpu.peak_fp64_gflops",
                format!("{cores} cores x {mhz} MHz x {f} FP64 FLOPs/cycle"),
            );
        }
        (Err(why), _, _) => notes.add("cpu.peak_fp64_gflops", why),
        (_, None, _) => notes.add("cpu.peak_fp64_gflops", "core count unknown"),
        (_, _, None) => notes.add("cpu.peak_fp64_gflops", "base clock unknown"),
    }
}

/// 512-bit FMA units per core, from the brand where Intel's product line fixes it:
/// Skylake-SP/Cascade Lake (family 6 model 85) Platinum and Gold 6xxx have two, Gold 5xxx,
/// Silver and Bronze one (Gold 5122/5222 two); Core (client) parts with AVX-512 have one.
pub fn avx512_fma_units(model_name: &str, model_id: Option<u32>) -> Option<u32> {
    if model_name.contains("Core(TM)") {
        return Some(1);
    }
    if model_id != Some(85) {
        return None;
    }
    let words: Vec<&str> = model_name.split_whitespace().collect();
    let after = |w: &str| {
        words
            .iter()
            .position(|x| *x == w)
            .and_then(|i| words.get(i + 1))
            .copied()
    };
    if words.contains(&"Platinum") {
        return Some(2);
    }
    if words.contains(&"Silver") || words.contains(&"Bronze") {
        return Some(1);
    }
    let sku = after("Gold")?;
    match sku.chars().next()? {
        '6' => Some(2),
        '5' if sku.starts_with("5122") || sku.starts_with("5222") => Some(2),
        '5' => Some(1),
        _ => None,
    }
}

/// Adds a note for every unknown identity field that has none yet, saying why.
fn explain_missing(arch: Arch, cpu: &Cpu, notes: &mut Notes) {
    let name = match arch {
        Arch::X86 => "x86",
        Arch::Arm => "arm",
        Arch::Power => "POWER",
        Arch::S390 => "s390",
        Arch::RiscV => "RISC-V",
        Arch::Other => "this architecture",
    };
    let checks: [(&str, bool); 6] = [
        ("cpu.vendor", cpu.vendor.is_none()),
        ("cpu.model", cpu.model.is_none()),
        ("cpu.family", cpu.family.is_none()),
        ("cpu.model_id", cpu.model_id.is_none()),
        ("cpu.stepping", cpu.stepping.is_none()),
        ("cpu.microcode", cpu.microcode.is_none()),
    ];
    for (field, missing) in checks {
        if missing && !notes.0.iter().any(|n| n.field == field) {
            notes.add(field, format!("/proc/cpuinfo on {name} does not report it"));
        }
    }
    if cpu.threads_per_core.is_none() && !notes.0.iter().any(|n| n.field == "cpu.threads_per_core")
    {
        notes.add("cpu.threads_per_core", "no SMT sibling masks in sysfs");
    }
    if cpu.cores_per_socket.is_none() {
        notes.add("cpu.cores_per_socket", "cores or sockets unknown");
    }
}

#[cfg(test)]
mod tests;
