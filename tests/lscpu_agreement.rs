//! The CPU probe agrees with util-linux lscpu: every fixture under `fixtures/` that holds
//! `lscpu.expected` (lscpu's own output for that dump) is replayed and compared field by
//! field, and on the live host the probe is compared with `/proc`, `/sys` and `lscpu`.

// Helpers outside #[test] fns are test code too.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rigcheck::probe::cpu::{self, parse_cpulist};
use rigcheck::probe::cpuid::Cpuid;
use rigcheck::source::Source;
use rigcheck::spec::{Cpu, Notes};

/// Part 1 of lscpu's output: `Key:   value` lines, in order (keys repeat on hybrid arm,
/// one group per core type, each starting at `Model name:`).
fn parse_lscpu(text: &str) -> Vec<(String, String)> {
    text.lines()
        .take_while(|l| !l.trim().is_empty())
        .filter_map(|l| {
            let (k, v) = l.split_once(':')?;
            Some((k.trim().to_string(), v.trim().to_string()))
        })
        .collect()
}

/// Per-core-type groups: the lines from one `Model name:` to the next.
fn sections(kv: &[(String, String)]) -> Vec<Vec<(String, String)>> {
    let mut out: Vec<Vec<(String, String)>> = Vec::new();
    for (k, v) in kv {
        if k == "Model name" || out.is_empty() {
            out.push(Vec::new());
        }
        if let Some(last) = out.last_mut() {
            last.push((k.clone(), v.clone()));
        }
    }
    out
}

fn find<'a>(kv: &'a [(String, String)], key: &str) -> Option<&'a str> {
    kv.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
}

fn num(v: &str) -> u32 {
    v.parse().unwrap_or_else(|_| panic!("not a number: {v}"))
}

/// "2803.2000" → 2803 (rigcheck reports whole MHz).
fn mhz(v: &str) -> u32 {
    v.parse::<f64>()
        .unwrap_or_else(|_| panic!("bad MHz {v}"))
        .round() as u32
}

fn set(list: &str) -> Vec<u32> {
    parse_cpulist(list).unwrap_or_else(|e| panic!("{e}"))
}

/// "1.5 MiB (48 instances)" → (bytes, instances, precision of the printed number in bytes).
fn parse_cache(v: &str) -> (f64, u32, f64) {
    let (size, rest) = v.split_once(" (").unwrap_or((v, "1 instance)"));
    let instances = num(rest.split_whitespace().next().unwrap_or("1"));
    let mut it = size.split_whitespace();
    let n: f64 = it.next().and_then(|x| x.parse().ok()).expect("cache size");
    let unit = match it.next().unwrap_or("B") {
        "B" => 1.0,
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        u => panic!("unknown unit {u}"),
    };
    (n * unit, instances, unit * 0.05)
}

/// Compares one lscpu summary with the probe's result; returns the checks made.
fn compare(name: &str, lscpu: &str, c: &Cpu) -> Vec<String> {
    let kv = parse_lscpu(lscpu);
    let secs = sections(&kv);
    let mut checked = Vec::new();
    let mut check = |what: &str, ok: bool, detail: String| {
        assert!(ok, "{name}: {what}: {detail}");
        checked.push(what.to_string());
    };

    if let Some(v) = find(&kv, "CPU(s)") {
        check(
            "CPU(s)",
            c.cpus_present == Some(num(v)),
            format!("lscpu {v}, rigcheck {:?}", c.cpus_present),
        );
    }
    if let Some(v) = find(&kv, "On-line CPU(s) list") {
        let ours = c.online.as_deref().map(set);
        check(
            "online list",
            ours.as_deref() == Some(&set(v)[..]),
            format!("lscpu {v}, rigcheck {:?}", c.online),
        );
        check(
            "threads",
            c.threads == Some(set(v).len() as u32),
            format!("rigcheck {:?}", c.threads),
        );
    }
    if let Some(v) = find(&kv, "Off-line CPU(s) list") {
        let ours = c.offline.as_deref().map(set);
        check(
            "offline list",
            ours.as_deref() == Some(&set(v)[..]),
            format!("lscpu {v}, rigcheck {:?}", c.offline),
        );
    }
    if let Some(v) = find(&kv, "Vendor ID") {
        check(
            "vendor",
            c.vendor.as_deref() == Some(v),
            format!("lscpu {v}, rigcheck {:?}", c.vendor),
        );
    }

    let models: Vec<&str> = secs.iter().filter_map(|s| find(s, "Model name")).collect();
    if models.len() > 1 {
        // Hybrid: one core type per lscpu group, same order, same counts and clocks.
        let names: Vec<&str> = c.core_types.iter().map(|t| t.name.as_str()).collect();
        let (mut a, mut b) = (names.clone(), models.clone());
        a.sort();
        b.sort();
        check(
            "core type names",
            a == b,
            format!("lscpu {models:?}, rigcheck {names:?}"),
        );
        check(
            "model",
            c.model.as_deref() == Some(&names.join(" + ")[..]),
            format!("rigcheck {:?}", c.model),
        );
        let typed: Vec<_> = secs
            .iter()
            .filter(|s| find(s, "Model name").is_some())
            .collect();
        for s in &typed {
            let m = find(s, "Model name").unwrap_or_default();
            let t = c
                .core_types
                .iter()
                .find(|t| t.name == m)
                .unwrap_or_else(|| panic!("{name}: no core type {m}"));
            if let (Some(cps), Some(sk)) = (find(s, "Core(s) per socket"), find(s, "Socket(s)")) {
                check(
                    "cores per type",
                    t.cores == num(cps) * num(sk),
                    format!("{}: lscpu {cps}x{sk}, rigcheck {}", t.name, t.cores),
                );
                check(
                    "sockets",
                    c.sockets == Some(num(sk)),
                    format!("lscpu {sk}, rigcheck {:?}", c.sockets),
                );
            }
            if let Some(v) = find(s, "CPU max MHz") {
                check(
                    "max MHz per type",
                    t.max_mhz == Some(mhz(v)),
                    format!("{}: lscpu {v}, rigcheck {:?}", t.name, t.max_mhz),
                );
            }
            if let Some(v) = find(s, "Thread(s) per core") {
                check(
                    "threads per core",
                    c.threads_per_core >= Some(num(v)),
                    format!("lscpu {v}, rigcheck {:?}", c.threads_per_core),
                );
            }
        }
        let maxes: Vec<u32> = typed
            .iter()
            .filter_map(|s| find(s, "CPU max MHz"))
            .map(mhz)
            .collect();
        let mins: Vec<u32> = typed
            .iter()
            .filter_map(|s| find(s, "CPU min MHz"))
            .map(mhz)
            .collect();
        if !maxes.is_empty() {
            check(
                "max MHz",
                c.max_mhz == maxes.iter().max().copied(),
                format!("lscpu {maxes:?}, rigcheck {:?}", c.max_mhz),
            );
            check(
                "min MHz",
                c.min_mhz == mins.iter().min().copied(),
                format!("lscpu {mins:?}, rigcheck {:?}", c.min_mhz),
            );
        }
    } else {
        match models.first() {
            // lscpu prints "-" when it has no name (s390 LPAR); rigcheck then names the machine.
            Some(&"-") | None => {}
            Some(m) => check(
                "model",
                c.model.as_deref() == Some(*m),
                format!("lscpu {m}, rigcheck {:?}", c.model),
            ),
        }
        if let Some(v) = find(&kv, "Thread(s) per core") {
            check(
                "threads per core",
                c.threads_per_core == Some(num(v)),
                format!("lscpu {v}, rigcheck {:?}", c.threads_per_core),
            );
        }
        if let Some(v) = find(&kv, "Core(s) per socket") {
            check(
                "cores per socket",
                c.cores_per_socket == Some(num(v)),
                format!("lscpu {v}, rigcheck {:?}", c.cores_per_socket),
            );
        }
        if let Some(v) = find(&kv, "Socket(s)") {
            check(
                "sockets",
                c.sockets == Some(num(v)),
                format!("lscpu {v}, rigcheck {:?}", c.sockets),
            );
            if let Some(cps) = find(&kv, "Core(s) per socket") {
                let cores = num(cps) * num(v);
                check(
                    "cores",
                    c.cores == Some(cores),
                    format!("lscpu {cores}, rigcheck {:?}", c.cores),
                );
            }
        }
        if let Some(v) = find(&kv, "CPU max MHz") {
            check(
                "max MHz",
                c.max_mhz == Some(mhz(v)),
                format!("lscpu {v}, rigcheck {:?}", c.max_mhz),
            );
        }
        if let Some(v) = find(&kv, "CPU min MHz") {
            check(
                "min MHz",
                c.min_mhz == Some(mhz(v)),
                format!("lscpu {v}, rigcheck {:?}", c.min_mhz),
            );
        }
    }

    // Caches: every lscpu line has its twin in rigcheck, and nothing more.
    let mut lscpu_caches = BTreeSet::new();
    for (k, v) in &kv {
        let Some(label) = k.strip_suffix(" cache") else {
            continue;
        };
        let body = label.trim_start_matches('L');
        let level: u32 = num(body.trim_end_matches(['d', 'i']));
        let kind = match body.chars().last() {
            Some('d') => "data",
            Some('i') => "instruction",
            _ => "unified",
        };
        lscpu_caches.insert((level, kind.to_string()));
        let (bytes, instances, slack) = parse_cache(v);
        let ours = c.caches.iter().find(|x| x.level == level && x.kind == kind);
        let ours = ours.unwrap_or_else(|| panic!("{name}: lscpu has {label}, rigcheck has not"));
        check(
            &format!("{label} instances"),
            ours.instances == instances,
            format!("lscpu {v}, rigcheck {}", ours.instances),
        );
        check(
            &format!("{label} total"),
            (ours.total_bytes as f64 - bytes).abs() <= slack,
            format!("lscpu {v}, rigcheck {} bytes", ours.total_bytes),
        );
    }
    let ours: BTreeSet<(u32, String)> =
        c.caches.iter().map(|x| (x.level, x.kind.clone())).collect();
    check(
        "cache list",
        ours == lscpu_caches,
        format!("lscpu {lscpu_caches:?}, rigcheck {ours:?}"),
    );

    if let Some(v) = find(&kv, "NUMA node(s)") {
        let nodes = c.numa_nodes.as_deref().unwrap_or_default();
        check(
            "NUMA nodes",
            nodes.len() as u32 == num(v),
            format!("lscpu {v}, rigcheck {}", nodes.len()),
        );
        for n in nodes {
            if let Some(list) = find(&kv, &format!("NUMA node{} CPU(s)", n.id)) {
                check(
                    "NUMA node CPUs",
                    set(&n.cpus) == set(list),
                    format!("node{}: lscpu {list}, rigcheck {}", n.id, n.cpus),
                );
            }
        }
    }
    checked
}

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("fixtures/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("lscpu.expected").is_file())
        .collect();
    out.sort();
    out
}

fn probe(dir: &Path) -> Cpu {
    probe_src(&Source::sysroot(dir), &mut Notes::default())
}

/// The CPU probe with the source's own CPUID answers, as `probe::inventory` runs it.
fn probe_src(src: &Source, notes: &mut Notes) -> Cpu {
    cpu::probe(src, &Cpuid::open(src), notes)
}

#[test]
fn every_dump_agrees_with_lscpu() {
    let dirs = fixtures();
    assert!(
        dirs.len() >= 7,
        "expected the util-linux dumps under fixtures/, found {dirs:?}"
    );
    for dir in dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let expected = std::fs::read_to_string(dir.join("lscpu.expected")).unwrap();
        let c = probe(&dir);
        let checked = compare(&name, &expected, &c);
        // Every dump has at least CPU count, online list and a model or topology check.
        assert!(checked.len() >= 5, "{name}: only {checked:?} compared");
    }
}

#[test]
fn epyc_7451_values() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/x86_64-epyc_7451");
    let c = probe(&dir);
    assert_eq!(c.sockets, Some(2));
    assert_eq!(c.cores, Some(48));
    assert_eq!(c.cores_per_socket, Some(24));
    assert_eq!(c.threads, Some(96));
    assert_eq!(c.threads_per_core, Some(2));
    let l3 = c.caches.iter().find(|k| k.level == 3).unwrap();
    assert_eq!(
        (l3.size_bytes, l3.instances, l3.total_bytes),
        (8 << 20, 16, 128 << 20)
    );
    let nodes = c.numa_nodes.as_deref().unwrap();
    assert_eq!(nodes.len(), 8);
    assert_eq!(nodes[0].cpus, "0-5,48-53");
    // Base clock: acpi-cpufreq on AMD lists P0 (2300 MHz) as its top state, boost excluded.
    assert_eq!(c.base_mhz, Some(2300));
    assert_eq!(
        c.base_mhz_source.as_deref(),
        Some("cpufreq cpuinfo_max_freq")
    );
    // Zen 1: 48 cores x 2.3 GHz x 8 FP64 FLOPs/cycle.
    assert_eq!(c.peak_fp64_gflops, Some(883.2));
    assert!(c.isa.contains(&"AVX2".to_string()) && !c.isa.iter().any(|i| i.starts_with("AVX-512")));
}

#[test]
fn i7_1165g7_base_is_guaranteed_clock() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/x86_64-64cpu-linux6.2");
    let mut notes = Notes::default();
    let c = probe_src(&Source::sysroot(&dir), &mut notes);
    assert_eq!(c.base_mhz, Some(1200));
    assert_eq!(c.base_mhz_source.as_deref(), Some("cpufreq base_frequency"));
    let note = notes.0.iter().find(|n| n.field == "cpu.base_mhz").unwrap();
    assert!(
        note.reason.contains("guaranteed") && note.reason.contains("2800"),
        "{}",
        note.reason
    );
    assert_eq!((c.max_mhz, c.min_mhz), (Some(4700), Some(400)));
    assert_eq!(c.scaling_driver.as_deref(), Some("intel_pstate"));
    assert_eq!(c.fma_units, Some(1));
    // 4 cores x 1.2 GHz x 16.
    assert_eq!(c.peak_fp64_gflops, Some(76.8));
    for isa in ["AVX-512F", "AVX-512 VNNI", "FMA"] {
        assert!(
            c.isa.iter().any(|i| i == isa),
            "{isa} missing from {:?}",
            c.isa
        );
    }
}

#[test]
fn s390_lpar_offline_cpus() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/s390-lpar");
    let mut notes = Notes::default();
    let c = probe_src(&Source::sysroot(&dir), &mut notes);
    assert_eq!(c.cpus_present, Some(20));
    assert_eq!(c.threads, Some(17));
    assert_eq!(c.offline.as_deref(), Some("0,6-7"));
    assert_eq!(c.cores, Some(17));
    assert_eq!(c.model.as_deref(), Some("IBM/S390 machine type 2817"));
    assert_eq!(c.base_mhz, None);
    assert!(notes.0.iter().any(|n| n.field == "cpu.base_mhz"));
}

#[test]
fn arm_big_little_core_types() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/arm-A510-A710-A715-X3");
    let mut notes = Notes::default();
    let c = probe_src(&Source::sysroot(&dir), &mut notes);
    let types: Vec<(&str, u32, Option<u32>)> = c
        .core_types
        .iter()
        .map(|t| (t.name.as_str(), t.cores, t.max_mhz))
        .collect();
    assert_eq!(
        types,
        vec![
            ("Cortex-A510", 3, Some(2016)),
            ("Cortex-A710", 2, Some(2803)),
            ("Cortex-A715", 2, Some(2803)),
            ("Cortex-X3", 1, Some(3187)),
        ]
    );
    assert_eq!(c.vendor.as_deref(), Some("ARM"));
    assert!(c.isa.contains(&"NEON/ASIMD".to_string()));
    // No cache sizes in this dump: no cache rows, and a note says why.
    assert!(c.caches.is_empty());
    assert!(notes.0.iter().any(|n| n.field == "cpu.caches"));
}

/// The vbox-win dump holds a directory link to itself; the probe must not hang on it.
#[test]
fn vbox_win_self_link_does_not_hang() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/vbox-win");
    let t = std::time::Instant::now();
    let c = probe(&dir);
    assert_eq!(c.threads, Some(2));
    assert!(t.elapsed().as_secs() < 5);
}

/// On the live host: threads equal the `online` count, the model equals /proc/cpuinfo's,
/// and where lscpu is installed its summary agrees too.
#[test]
fn live_host_matches_proc_and_lscpu() {
    let Ok(online) = std::fs::read_to_string("/sys/devices/system/cpu/online") else {
        eprintln!("no /sys/devices/system/cpu/online: not Linux, skipped");
        return;
    };
    let mut notes = Notes::default();
    let c = probe_src(&Source::live(), &mut notes);
    assert_eq!(c.threads, Some(set(online.trim()).len() as u32));
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap();
    let model = cpuinfo.lines().find_map(|l| {
        l.strip_prefix("model name")
            .and_then(|r| r.split_once(':'))
            .map(|(_, v)| v.trim())
    });
    if let Some(m) = model {
        assert_eq!(c.model.as_deref(), Some(m));
    }
    // Every unknown field says why.
    for (field, missing) in [
        ("cpu.base_mhz", c.base_mhz.is_none()),
        ("cpu.max_mhz", c.max_mhz.is_none()),
        ("cpu.sockets", c.sockets.is_none()),
        ("cpu.cores", c.cores.is_none()),
    ] {
        if missing {
            assert!(
                notes.0.iter().any(|n| n.field == field),
                "{field} is null without a note"
            );
        }
    }
    match std::process::Command::new("lscpu")
        .env("LC_ALL", "C")
        .output()
    {
        Ok(out) if out.status.success() => {
            let text = String::from_utf8_lossy(&out.stdout);
            compare("live", &text, &c);
        }
        _ => eprintln!("lscpu not installed: comparison skipped"),
    }
}
