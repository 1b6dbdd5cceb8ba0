//! Property tests ("fuzzing" on the stable toolchain) of every parser that reads text or
//! bytes a stranger may hand us: /proc/cpuinfo and friends, SMBIOS tables, profiles,
//! nvml.json and JSON reports. Each property starts from real inputs out of `fixtures/`
//! and `profiles/`, mutates them (bytes flipped, cut, spliced, numbers made huge, JSON
//! leaves replaced), and checks that the parser returns a value or an error, never panics,
//! and never yields an impossible value.
//!
//! CI runs proptest's default 256 cases per property. For a long run:
//! `PROPTEST_CASES=200000 cargo test --release --test fuzz_props`.
//! Inputs that once failed live in `tests/regressions/<target>/` and are replayed by
//! `regressions_replay` on every run.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};

use proptest::prelude::*;
use proptest::test_runner::Config;
use serde_json::Value;

use rigcheck::probe::backend::Backend;
use rigcheck::probe::{cpu, gpu, memory, smbios, system};
use rigcheck::source::Source;
use rigcheck::spec::{Notes, Spec};

// ---------------------------------------------------------------------------------------
// Real seed inputs.

const CPUINFO: &[&str] = &[
    include_str!("../fixtures/hp-z8-g4-dual-rtx6000/proc/cpuinfo"),
    include_str!("../fixtures/x86_64-epyc_7451/proc/cpuinfo"),
    include_str!("../fixtures/arm-A510-A710-A715-X3/proc/cpuinfo"),
    include_str!("../fixtures/ppc64-POWER7/proc/cpuinfo"),
    include_str!("../fixtures/s390-lpar/proc/cpuinfo"),
    include_str!("../fixtures/rv64-visionfive2/proc/cpuinfo"),
];

const MEMINFO: &str = include_str!("../fixtures/hp-z8-g4-dual-rtx6000/proc/meminfo");

/// /proc/self/cgroup and mountinfo of this VM (hybrid v1 and v2), joined by a NUL byte.
const CGROUP: &str = concat!(
    include_str!("../fixtures/preflight-healthy/proc/self/cgroup"),
    "\0",
    include_str!("../fixtures/preflight-healthy/proc/self/mountinfo"),
);
const OS_RELEASE: &str = include_str!("../fixtures/hp-z8-g4-dual-rtx6000/etc/os-release");

/// (entry point, table) pairs of real machines.
const SMBIOS: &[(&[u8], &[u8])] = &[
    (
        include_bytes!("../fixtures/hp-z8-g4-dual-rtx6000/sys/firmware/dmi/tables/smbios_entry_point"),
        include_bytes!("../fixtures/hp-z8-g4-dual-rtx6000/sys/firmware/dmi/tables/DMI"),
    ),
    (
        include_bytes!("../fixtures/x86_64-dell-precision-t7600/sys/firmware/dmi/tables/smbios_entry_point"),
        include_bytes!("../fixtures/x86_64-dell-precision-t7600/sys/firmware/dmi/tables/DMI"),
    ),
    (
        include_bytes!("../fixtures/x86_64-hp-z8-g4-dual-bronze3104/sys/firmware/dmi/tables/smbios_entry_point"),
        include_bytes!("../fixtures/x86_64-hp-z8-g4-dual-bronze3104/sys/firmware/dmi/tables/DMI"),
    ),
];

/// Real tables without an entry point.
const SMBIOS_TABLES: &[&[u8]] = &[
    include_bytes!("../fixtures/smbios/dell-poweredge-r630.dmi"),
    include_bytes!("../fixtures/smbios/asrock-ryzen.dmi"),
];

const PROFILES: &[&str] = &[
    include_str!("../profiles/hp-z8-g4-dual-rtx6000.toml"),
    include_str!("../profiles/hp-z8-g4-dual-rtx8000.toml"),
];

const NVML: &[&str] = &[
    include_str!("../fixtures/hp-z8-g4-dual-rtx6000/nvml.json"),
    include_str!("../fixtures/x86_64-h100-mig/nvml.json"),
    include_str!("../fixtures/gpu-degraded-x8/nvml.json"),
    include_str!("../fixtures/gpu-ecc-errors/nvml.json"),
];

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

/// The reference machine's report, made once.
fn z8_spec() -> &'static Spec {
    static SPEC: std::sync::OnceLock<Spec> = std::sync::OnceLock::new();
    SPEC.get_or_init(|| {
        rigcheck::probe::inventory(&Source::sysroot(fixture("hp-z8-g4-dual-rtx6000")))
    })
}

fn z8_report_json() -> &'static str {
    static JSON: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    JSON.get_or_init(|| {
        let mut buf = Vec::new();
        rigcheck::render::json::write(z8_spec(), &mut buf).unwrap();
        String::from_utf8(buf).unwrap()
    })
}

// ---------------------------------------------------------------------------------------
// Mutations.

/// One byte-level edit: (kind, position, length, bytes).
type Edit = (u8, usize, usize, Vec<u8>);

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    prop::collection::vec(
        (
            0u8..7,
            any::<usize>(),
            0usize..96,
            prop::collection::vec(any::<u8>(), 0..24),
        ),
        1..8,
    )
}

/// Numbers that break naive arithmetic, spliced in as text.
const HOSTILE_NUMBERS: &[&str] = &[
    "99999999999999999999999",
    "18446744073709551615",
    "18446744073709551616",
    "4294967295",
    "4294967296",
    "-1",
    "0",
    "NaN",
    "inf",
    "1e308",
    "-0",
    "0x",
    "",
];

fn apply(seed: &[u8], edits: &[Edit]) -> Vec<u8> {
    let mut b = seed.to_vec();
    for (kind, pos, len, data) in edits {
        let at = if b.is_empty() { 0 } else { pos % (b.len() + 1) };
        let end = (at + len).min(b.len());
        match kind {
            // Overwrite bytes.
            0 => {
                for (i, x) in data.iter().enumerate() {
                    if let Some(slot) = b.get_mut(at + i) {
                        *slot = *x;
                    }
                }
            }
            // Insert bytes.
            1 => {
                b.splice(at..at, data.iter().copied());
            }
            // Cut a range.
            2 => {
                b.drain(at..end);
            }
            // Truncate.
            3 => b.truncate(at),
            // Duplicate a range.
            4 => {
                let copy = b[at..end].to_vec();
                b.splice(at..at, copy);
            }
            // Replace the next run of digits with a hostile number.
            5 => {
                if let Some(start) = b[at..].iter().position(u8::is_ascii_digit) {
                    let s = at + start;
                    let e = b[s..]
                        .iter()
                        .position(|c| !c.is_ascii_digit())
                        .map_or(b.len(), |n| s + n);
                    let n = HOSTILE_NUMBERS[*len % HOSTILE_NUMBERS.len()];
                    b.splice(s..e, n.bytes());
                }
            }
            // Flip one bit.
            _ => {
                if let Some(slot) = b.get_mut(at) {
                    *slot ^= 1 << (len % 8);
                }
            }
        }
    }
    b
}

fn apply_text(seed: &str, edits: &[Edit]) -> String {
    String::from_utf8_lossy(&apply(seed.as_bytes(), edits)).into_owned()
}

/// Replacement values for JSON leaves.
fn hostile_json(k: usize) -> Value {
    let choices = [
        serde_json::json!(u64::MAX),
        serde_json::json!(-1),
        serde_json::json!(1e308),
        serde_json::json!(-1e308),
        serde_json::json!(0),
        serde_json::json!(0.5),
        serde_json::json!(""),
        serde_json::json!("\u{0}\u{1b}[31m garbage ☃"),
        Value::Null,
        serde_json::json!([]),
        serde_json::json!({}),
        serde_json::json!(true),
        serde_json::json!({"ok": u64::MAX}),
        serde_json::json!({"err": ""}),
        serde_json::json!("x".repeat(300)),
    ];
    choices[k % choices.len()].clone()
}

fn leaves(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            out.push(at.clone());
            for (k, x) in m {
                let key = k.replace('~', "~0").replace('/', "~1");
                leaves(x, format!("{at}/{key}"), out);
            }
        }
        Value::Array(a) => {
            out.push(at.clone());
            for (i, x) in a.iter().enumerate() {
                leaves(x, format!("{at}/{i}"), out);
            }
        }
        _ => out.push(at),
    }
}

/// Replaces chosen nodes of a JSON document with hostile values.
fn mutate_json(seed: &str, picks: &[(usize, usize)]) -> String {
    let mut v: Value = serde_json::from_str(seed).unwrap();
    for (which, what) in picks {
        let mut ptrs = Vec::new();
        leaves(&v, String::new(), &mut ptrs);
        let ptr = &ptrs[which % ptrs.len()];
        if ptr.is_empty() {
            continue;
        }
        if let Some(slot) = v.pointer_mut(ptr) {
            *slot = hostile_json(*what);
        }
    }
    serde_json::to_string(&v).unwrap()
}

fn json_picks() -> impl Strategy<Value = Vec<(usize, usize)>> {
    prop::collection::vec((any::<usize>(), any::<usize>()), 1..6)
}

fn config() -> Config {
    // `Config::default()` reads PROPTEST_CASES, so a long run needs no code change.
    Config {
        failure_persistence: None,
        ..Config::default()
    }
}

// ---------------------------------------------------------------------------------------
// Checks: shared by the properties and the regression replay.

/// cpuinfo and the other CPU-side text parsers.
fn check_cpuinfo(text: &str) {
    let info = cpu::parse_cpuinfo(text);
    if let Some((cores, sockets)) = info.x86_topology() {
        assert!(
            cores >= sockets && sockets >= 1,
            "{cores} cores, {sockets} sockets"
        );
    }
    let _ = info.s390_machine();
    for p in &info.processors {
        assert!(p.id.is_some());
        for (k, v) in &p.fields {
            assert_eq!(k.trim(), *k);
            assert_eq!(v.trim(), *v);
        }
    }
    if let Some(name) = info.get("model name") {
        if let Some(mhz) = cpu::model_name_ghz_mhz(name) {
            assert!(mhz > 0 && mhz < 1_000_000, "{mhz} MHz from '{name}'");
        }
    }
    for v in [
        info.get("cache size"),
        Some(text.lines().next().unwrap_or("")),
    ]
    .into_iter()
    .flatten()
    {
        check_cache_size(v);
    }
    if let Some(isa) = info.get("isa") {
        let _ = cpu::riscv_extensions(isa);
    }
    let first = text.lines().next().unwrap_or("");
    check_cpulist(first);
    let _ = cpu::parse_cpumask(&first[..first.len().min(4096)]);
    if let Some(kib) = cpu::parse_node_meminfo(text) {
        assert_eq!(kib % 1024, 0);
    }
    let _ = cpu::parse_sysinfo_topology(text);
    if let Ok(bytes) = memory::parse_meminfo(text) {
        assert_eq!(bytes % 1024, 0);
    }
    let _ = system::parse_os_release(text);
}

/// A cache size is exactly number × unit, or unknown; never a wrapped product.
fn check_cache_size(text: &str) {
    if let Some(n) = cpu::parse_cache_size(text) {
        let t = text.trim();
        let (num, mul): (&str, u128) = match t.chars().last() {
            Some('K' | 'k') => (&t[..t.len() - 1], 1 << 10),
            Some('M' | 'm') => (&t[..t.len() - 1], 1 << 20),
            Some('G' | 'g') => (&t[..t.len() - 1], 1 << 30),
            _ => (t, 1),
        };
        let exact = num.trim().parse::<u128>().unwrap() * mul;
        assert_eq!(u128::from(n), exact, "cache size '{t}'");
    }
}

fn check_cpulist(text: &str) {
    if let Ok(cpus) = cpu::parse_cpulist(text) {
        assert!(cpus.windows(2).all(|w| w[0] < w[1]), "not sorted/unique");
        assert!(cpus.len() <= 1 << 20, "{} CPUs", cpus.len());
        let again = cpu::parse_cpulist(&cpu::format_cpulist(&cpus)).unwrap();
        assert_eq!(again, cpus);
    }
}

/// SMBIOS: the entry point, the table walk, every decoder, and the memory inventory.
fn check_smbios(ep: &[u8], table: &[u8]) {
    let parsed = smbios::parse_entry_point(ep);
    let t = smbios::Table::parse(table, parsed.as_ref().ok());
    for s in &t.structures {
        match s.kind {
            0 => drop(smbios::decode_bios(s)),
            1 => drop(smbios::decode_system(s, parsed.as_ref().ok())),
            2 => drop(smbios::decode_board(s)),
            3 => drop(smbios::decode_chassis(s)),
            4 => drop(smbios::decode_processor(s)),
            9 => drop(smbios::decode_slot(s)),
            16 => drop(smbios::decode_memory_array(s)),
            17 => {
                let d = smbios::decode_memory_device(s);
                let _ = (d.type_name(), d.type_detail_text(), d.is_non_volatile());
            }
            19 => drop(smbios::decode_mapped_range(s)),
            39 => drop(smbios::decode_power_supply(s)),
            _ => {}
        }
        for i in 0..=s.formatted.len() {
            if let Some(v) = s.string(i) {
                assert!(!v.is_empty());
            }
        }
    }
    if let Ok(ep) = &parsed {
        let inv = memory::inventory_from_smbios(ep, table);
        for slot in &inv.slots {
            assert!(!slot.locator.is_empty());
            if let Some(d) = &slot.dimm {
                assert_ne!(d.size_bytes, Some(0), "a DIMM of 0 bytes");
            }
        }
    }
}

/// A profile: parse, then check the reference machine against it both ways.
/// The cgroup parsers and the walk of each hierarchy (see fuzz/fuzz_targets/cgroup.rs): each
/// level is looked at once, each directory visited lies inside the one before.
fn check_cgroup(text: &str, cut: usize) {
    use rigcheck::probe::limits::{cgroup_place, parse_cgroup, parse_mountinfo, walk_cgroup};
    let (cgroup, mountinfo) = text.split_once('\0').unwrap_or((text, ""));
    let mounts = parse_mountinfo(mountinfo);
    let Ok(groups) = parse_cgroup(cgroup) else {
        return;
    };
    for controller in [None, Some("cpu"), Some("memory")] {
        let Some(place) = cgroup_place(&groups, &mounts, controller) else {
            continue;
        };
        let (mut asked, mut seen) = (0usize, Vec::new());
        walk_cgroup(
            &place,
            |d| {
                asked += 1;
                d.len() % 7 != cut
            },
            |d| seen.push(d.to_string()),
        );
        assert!(asked <= place.levels.len() + 1);
        for w in seen.windows(2) {
            assert!(w[1].starts_with(w[0].as_str()) && w[1].len() > w[0].len());
        }
    }
}

fn check_profile(text: &str) {
    if let Ok(p) = rigcheck::profile::parse(text, "fuzz.toml", "fuzz") {
        let r = rigcheck::verify::verify(z8_spec(), &p, false);
        assert!(r.exit_code() <= 1);
        let _ = rigcheck::verify::verify(z8_spec(), &p, true);
        let mut buf = Vec::new();
        rigcheck::render::verify::write(
            &r,
            rigcheck::render::verify::VerifyFormat::Json,
            false,
            &mut buf,
        )
        .unwrap();
        let _: Value = serde_json::from_slice(&buf).unwrap();
    }
}

/// nvml.json through the GPU probe of a sysroot (the reference machine's PCI devices).
fn check_nvml(text: &str, root: &Path) {
    std::fs::write(root.join("nvml.json"), text).unwrap();
    let src = Source::sysroot(root);
    let mut notes = Notes::default();
    let gpus = gpu::probe(&src, &Backend::Files, &mut notes);
    let v = serde_json::to_value(&gpus).unwrap();
    check_numbers(&v, "gpus");
}

/// Every number in a probe's JSON is finite and not negative (NUMA node -1 aside).
fn check_numbers(v: &Value, at: &str) {
    match v {
        Value::Number(n) => {
            if let Some(f) = n.as_f64() {
                assert!(f.is_finite(), "{at} = {n}");
                assert!(f >= 0.0 || at.ends_with("numa_node"), "{at} = {n}");
            }
        }
        Value::Array(a) => a
            .iter()
            .enumerate()
            .for_each(|(i, x)| check_numbers(x, &format!("{at}[{i}]"))),
        Value::Object(m) => m
            .iter()
            .for_each(|(k, x)| check_numbers(x, &format!("{at}.{k}"))),
        _ => {}
    }
}

/// A JSON report, as `diff` and `fleet` read it: parse, compare, render.
fn check_report(text: &str) {
    if let Ok((spec, _)) = rigcheck::fleet::parse_report(text) {
        let _ = rigcheck::diff::Compared::of(&spec).configuration();
        let _ = rigcheck::diff::diff(z8_spec(), &spec);
        let _ = rigcheck::diff::diff(&spec, &spec);
        let attention = rigcheck::rules::attention(&spec);
        for format in [
            rigcheck::render::Format::Table,
            rigcheck::render::Format::Json,
            rigcheck::render::Format::Markdown,
            rigcheck::render::Format::Prometheus,
            rigcheck::render::Format::Nfd,
        ] {
            let mut buf = Vec::new();
            rigcheck::render::inventory_report(&spec, &attention, format, None, false, &mut buf)
                .unwrap();
        }
        let mut html = Vec::new();
        let _ = rigcheck::render::sheet::write(
            &spec,
            &attention,
            None,
            rigcheck::render::sheet::SheetFormat::Html,
            &mut html,
        );
    }
}

fn nvml_root() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let z8 = fixture("hp-z8-g4-dual-rtx6000");
    copy_tree(&z8.join("sys"), &dir.path().join("sys"));
    std::fs::create_dir_all(dir.path().join("proc")).unwrap();
    dir
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let ft = e.file_type().unwrap();
        let dst = to.join(e.file_name());
        if ft.is_symlink() {
            let target = std::fs::read_link(e.path()).unwrap();
            #[cfg(unix)]
            std::os::unix::fs::symlink(target, &dst).unwrap();
            // sysfs links name directories; Windows needs to be told which kind it makes.
            #[cfg(windows)]
            std::os::windows::fs::symlink_dir(target, &dst).unwrap();
        } else if ft.is_dir() {
            copy_tree(&e.path(), &dst);
        } else {
            std::fs::copy(e.path(), &dst).unwrap();
        }
    }
}

// ---------------------------------------------------------------------------------------
// Properties.

proptest! {
    #![proptest_config(config())]

    #[test]
    fn cpuinfo_mutated(seed in 0..CPUINFO.len(), e in edits()) {
        check_cpuinfo(&apply_text(CPUINFO[seed], &e));
    }

    #[test]
    fn cpuinfo_arbitrary(text in ".{0,2000}") {
        check_cpuinfo(&text);
    }

    #[test]
    fn meminfo_and_os_release_mutated(e in edits()) {
        check_cpuinfo(&apply_text(MEMINFO, &e));
        check_cpuinfo(&apply_text(OS_RELEASE, &e));
    }

    #[test]
    fn cpulist_and_cache_size(
        items in prop::collection::vec((any::<u32>(), 0u32..3_000_000), 0..12),
        size in "[0-9]{0,25}[KMGkmgB ]?",
    ) {
        let list = items
            .iter()
            .map(|(a, n)| format!("{a}-{}", a.saturating_add(*n)))
            .collect::<Vec<_>>()
            .join(",");
        check_cpulist(&list);
        check_cache_size(&size);
    }

    #[test]
    fn smbios_mutated(seed in 0..SMBIOS.len(), e in edits(), on_ep in any::<bool>()) {
        let (ep, table) = SMBIOS[seed];
        if on_ep {
            check_smbios(&apply(ep, &e), table);
        } else {
            check_smbios(ep, &apply(table, &e));
        }
    }

    #[test]
    fn smbios_other_tables_mutated(seed in 0..SMBIOS_TABLES.len(), e in edits()) {
        // Walked with the reference machine's entry point (its table length bounds the walk).
        check_smbios(SMBIOS[0].0, &apply(SMBIOS_TABLES[seed], &e));
        check_smbios(b"", &apply(SMBIOS_TABLES[seed], &e));
    }

    #[test]
    fn smbios_arbitrary(ep in prop::collection::vec(any::<u8>(), 0..40), table in prop::collection::vec(any::<u8>(), 0..600)) {
        let mut ep = ep;
        if let Some(b) = ep.get_mut(..5) { b.copy_from_slice(b"_SM3_"); }
        check_smbios(&ep, &table);
    }

    #[test]
    fn cgroup_mutated(e in edits(), cut in 0..7usize) {
        check_cgroup(&apply_text(CGROUP, &e), cut);
    }

    #[test]
    fn profile_mutated(seed in 0..PROFILES.len(), e in edits()) {
        check_profile(&apply_text(PROFILES[seed], &e));
    }

    #[test]
    fn profile_arbitrary(text in "(\\[[a-z.]{1,12}\\]\n|[a-z_]{1,14} = (\"[^\"\n]{0,12}\"|-?[0-9.e]{1,22}|true|\\[\\]|\\{\\})\n){0,20}") {
        check_profile(&text);
    }

    #[test]
    fn report_json_mutated(picks in json_picks(), e in edits(), bytes in any::<bool>()) {
        let text = if bytes { apply_text(z8_report_json(), &e) } else { mutate_json(z8_report_json(), &picks) };
        check_report(&text);
    }
}

/// nvml.json through the GPU probe; one sysroot copy serves every case.
#[test]
fn nvml_json_mutated() {
    let root = nvml_root();
    let strategy = (0..NVML.len(), json_picks(), edits(), any::<bool>());
    let mut runner = proptest::test_runner::TestRunner::new(config());
    let result = runner.run(&strategy, |(seed, picks, e, bytes)| {
        let text = if bytes {
            apply_text(NVML[seed], &e)
        } else {
            mutate_json(NVML[seed], &picks)
        };
        check_nvml(&text, root.path());
        Ok(())
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

// ---------------------------------------------------------------------------------------
// Regressions: every input that once failed, replayed on every run.

#[test]
fn regressions_replay() {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/regressions");
    let nvml = nvml_root();
    let mut replayed = 0;
    for target in std::fs::read_dir(&base).unwrap() {
        let target = target.unwrap().path();
        if !target.is_dir() {
            continue;
        }
        let name = target.file_name().unwrap().to_string_lossy().into_owned();
        for case in std::fs::read_dir(&target).unwrap() {
            let case = case.unwrap().path();
            let bytes = std::fs::read(&case).unwrap();
            let text = String::from_utf8_lossy(&bytes);
            match name.as_str() {
                "cpuinfo" => check_cpuinfo(&text),
                "cpulist" => check_cpulist(&text),
                "cache_size" => check_cache_size(&text),
                "smbios_table" => check_smbios(SMBIOS[0].0, &bytes),
                "smbios_entry_point" => check_smbios(&bytes, SMBIOS[0].1),
                "profile" => check_profile(&text),
                "cgroup" => check_cgroup(&text, 0),
                "nvml" => check_nvml(&text, nvml.path()),
                "report" => check_report(&text),
                other => panic!("unknown regression target {other}"),
            }
            replayed += 1;
        }
    }
    assert!(
        replayed > 0,
        "no regression inputs found under {}",
        base.display()
    );
}
