//! Inputs that are small to write and used to cost minutes: a deep cgroup path, thousands of
//! serials to redact, thousands of profile groups, sysfs attributes that are huge sparse
//! files, and clocks and sizes past any real machine.
//!
//! Each input is generated at the largest size a real machine allows (or past it), so a
//! walk that grows faster than linearly again makes the test binary run for minutes and hit
//! its timeout, instead of asserting a duration. `benches/hardening.sh` measures the speed.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{assert_note, fixture, fixture_copy, rigcheck};
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// Runs `rigcheck ARGS`; asserts no panic and the exit code, returns stdout.
fn run(args: &[&str], code: i32) -> Vec<u8> {
    let out = rigcheck().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    assert_eq!(out.status.code(), Some(code), "stderr: {stderr}");
    out.stdout
}

fn inventory(root: &Path) -> Value {
    let out = run(
        &["--sysroot", root.to_str().unwrap(), "--format", "json"],
        0,
    );
    serde_json::from_slice(&out).unwrap()
}

// ---------------------------------------------------------------------------------------
// cgroup

/// The container fixture (cgroup v2, `cpu.max` 2 CPUs, `memory.max` 16 GiB at the root)
/// with this process placed `path` deep.
fn container_with_cgroup(path: &str) -> (tempfile::TempDir, PathBuf) {
    let (t, root) = fixture_copy("preflight-container-small-shm");
    fs::write(root.join("proc/self/cgroup"), format!("0::{path}\n")).unwrap();
    (t, root)
}

#[test]
fn deepest_cgroup_path_the_kernel_writes_is_walked_once() {
    // 2048 levels in 4096 bytes: the most /proc/self/cgroup can hold. None of the levels is
    // in the sysroot, so the limits are the root's.
    let (_t, root) = container_with_cgroup(&"/a".repeat(2048));
    let r = inventory(&root);
    assert_eq!(r["limits"]["cpu_quota"]["cpus"], 2.0);
    assert_eq!(r["limits"]["cpu_quota"]["file"], "/sys/fs/cgroup/cpu.max");
    assert_eq!(r["limits"]["memory_limit"]["max_bytes"], 17_179_869_184u64);
}

#[test]
fn cgroup_path_longer_than_the_kernel_writes_is_unknown_with_a_note() {
    let (_t, root) = container_with_cgroup(&"/a".repeat(8192));
    let r = inventory(&root);
    assert!(r["limits"]["cpu_quota"].is_null());
    assert!(r["limits"]["memory_limit"].is_null());
    assert_note(&r, "limits.cpu_quota", "a cgroup path of 16384 bytes");
    assert_note(&r, "limits.memory_limit", "the kernel writes at most 4096");
    // The rest of the limits are still read.
    assert_eq!(r["limits"]["affinity_count"], 16);
}

#[test]
fn nested_cgroups_give_the_tightest_limit_on_the_way_down() {
    // 40 real levels below the root; level 25 caps memory at 4 GiB and CPU at 0.5, level 30
    // sets a looser memory cap that must not win.
    let levels: Vec<String> = (0..40).map(|i| format!("l{i}")).collect();
    let (_t, root) = container_with_cgroup(&format!("/{}", levels.join("/")));
    let mut dir = root.join("sys/fs/cgroup");
    for (i, l) in levels.iter().enumerate() {
        dir.push(l);
        fs::create_dir_all(&dir).unwrap();
        if i == 25 {
            fs::write(dir.join("memory.max"), "4294967296\n").unwrap();
            fs::write(dir.join("memory.current"), "1048576\n").unwrap();
            fs::write(dir.join("cpu.max"), "50000 100000\n").unwrap();
        }
        if i == 30 {
            fs::write(dir.join("memory.max"), "8589934592\n").unwrap();
        }
    }
    let r = inventory(&root);
    let at = format!("/sys/fs/cgroup/{}", levels[..26].join("/"));
    assert_eq!(r["limits"]["memory_limit"]["max_bytes"], 4_294_967_296u64);
    assert_eq!(r["limits"]["memory_limit"]["used_bytes"], 1_048_576);
    assert_eq!(
        r["limits"]["memory_limit"]["file"],
        format!("{at}/memory.max")
    );
    assert_eq!(r["limits"]["cpu_quota"]["cpus"], 0.5);
    assert_eq!(r["limits"]["cpu_quota"]["file"], format!("{at}/cpu.max"));
}

// ---------------------------------------------------------------------------------------
// Read budgets

#[test]
fn thousands_of_huge_sparse_sysfs_attributes_are_refused_unread() {
    // Every regular file under sys/ of the 8-thread i7-1165G7 capture (1314 of them)
    // becomes its real text followed by a 1 GiB hole. Read to the old 16 MiB cap that is
    // 21 GB of zeros; each is now refused after a stat.
    let (_t, root) = fixture_copy("x86_64-64cpu-linux6.2");
    let mut stack = vec![root.join("sys")];
    let mut planted = 0;
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let ft = e.file_type().unwrap();
            if ft.is_dir() {
                stack.push(e.path());
            } else if ft.is_file() {
                let f = fs::OpenOptions::new().write(true).open(e.path()).unwrap();
                f.set_len(1 << 30).unwrap();
                planted += 1;
            }
        }
    }
    assert!(planted > 1000, "{planted}");
    let r = inventory(&root);
    // /proc/cpuinfo is untouched: the model and thread count come from it.
    assert_eq!(
        r["cpu"]["model"],
        "11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz"
    );
    // Attributes are refused with the reason; nothing is made up from them.
    assert!(r["cpu"]["max_mhz"].is_null());
    let all = r["notes"].to_string();
    assert!(
        all.contains("larger than 64 KiB, more than a sysfs attribute holds"),
        "{all}"
    );
}

#[test]
fn small_files_have_small_budgets_and_large_ones_keep_16_mib() {
    let (_t, root) = fixture_copy("hp-z8-g4-dual-rtx6000");
    // 2 MiB of meminfo is no meminfo; 2 MiB of cpuinfo is 1500 CPUs, which is real.
    let mut meminfo = fs::read_to_string(root.join("proc/meminfo")).unwrap();
    meminfo.push_str(&"X".repeat(2 << 20));
    fs::write(root.join("proc/meminfo"), meminfo).unwrap();
    let cpuinfo = fs::read_to_string(root.join("proc/cpuinfo")).unwrap();
    let padded = format!("{cpuinfo}{}", "\n".repeat(2 << 20));
    fs::write(root.join("proc/cpuinfo"), padded).unwrap();
    let r = inventory(&root);
    assert!(r["memory"]["usable_bytes"].is_null());
    assert_note(
        &r,
        "memory.usable_bytes",
        "larger than 1 MiB, more than this file holds on any machine",
    );
    assert_eq!(r["cpu"]["threads"], 72);
    assert_eq!(
        r["cpu"]["model"],
        "Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz"
    );
}

// ---------------------------------------------------------------------------------------
// --redact

#[test]
fn redacting_twenty_thousand_serials_is_one_pass() {
    // The reference Z8 report with 20,000 DIMMs, each with its own serial, and a note
    // quoting every serial: 20,000 secrets to take out of some 200,000 strings.
    let text =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/z8-g4-report.json"))
            .unwrap();
    let mut v: Value = serde_json::from_str(&text).unwrap();
    let first = v["memory"]["dimms"][0].clone();
    let n = 20_000;
    let dimms: Vec<Value> = (0..n)
        .map(|i| {
            let mut d = first.clone();
            d["locator"] = format!("DIMM {i}").into();
            d["serial"] = format!("S{i:08X}").into();
            d
        })
        .collect();
    v["memory"]["dimms"] = dimms.into();
    let notes = v["notes"].as_array_mut().unwrap();
    for i in 0..n {
        notes.push(serde_json::json!({
            "field": format!("memory.dimms[{i}]"),
            "reason": format!("module S{i:08X} reports no speed"),
        }));
    }
    let mut spec: rigcheck::spec::Spec = serde_json::from_value(v).unwrap();
    rigcheck::redact::redact(&mut spec);
    let out = serde_json::to_string(&spec).unwrap();
    assert!(!out.contains("S0000"), "a serial survived");
    assert_eq!(spec.memory.dimms.len(), n);
    assert!(spec
        .memory
        .dimms
        .iter()
        .all(|d| d.serial.as_deref() == Some("[redacted]")));
    assert_eq!(
        spec.memory.dimms[7].part_number.as_deref(),
        Some("M393A1K43DB1-CVF")
    );
    let reasons: Vec<&str> = spec.notes.iter().map(|n| n.reason.as_str()).collect();
    assert!(reasons.contains(&"module [redacted] reports no speed"));
}

// ---------------------------------------------------------------------------------------
// Profiles

#[test]
fn profile_of_twenty_thousand_groups_is_placed_in_one_pass() {
    // 20,000 [[gpus]] groups of two requirements each (40,001 requirements, 1.1 MB);
    // each requirement's line and column used to be found by rescanning the text.
    let t = tempfile::tempdir().unwrap();
    let n = 20_000;
    let mut text = String::from("[cpu]\nsockets = 2\n");
    for i in 0..n {
        text.push_str(&format!(
            "\n[[gpus]]\nmodel = \"RTX {i}\"\ncount = 1\nvram = \"24 GiB\"\n"
        ));
    }
    let p = t.path().join("many.toml");
    fs::write(&p, &text).unwrap();
    let root = fixture("hp-z8-g4-dual-rtx6000");
    // No GPU of the reference machine is an "RTX 17": that group's count fails.
    let out = run(
        &[
            "--sysroot",
            root.to_str().unwrap(),
            "verify",
            "--profile",
            p.to_str().unwrap(),
            "--format",
            "json",
        ],
        1,
    );
    let v: Value = serde_json::from_slice(&out).unwrap();
    let lines = v["results"].as_array().or(v["lines"].as_array()).unwrap();
    // A group whose model is on none of the machine's GPUs is one line; the one group whose
    // model is words of the Quadro RTX 6000's name ("RTX 6000": not "RTX 6" or "RTX 600")
    // keeps its two.
    let kept = 1;
    assert_eq!(lines.len(), 1 + (n - kept) + 2 * kept);
    // An error in the last group is still placed at its line and column.
    text.push_str("\n[[gpus]]\nvram = { at_lest = \"24 GiB\" }\n");
    fs::write(&p, &text).unwrap();
    let err = rigcheck()
        .args(["--sysroot", root.to_str().unwrap(), "verify", "--profile"])
        .arg(&p)
        .output()
        .unwrap();
    assert_eq!(err.status.code(), Some(2));
    let line = 2 + 5 * n + 3;
    let stderr = String::from_utf8_lossy(&err.stderr);
    assert!(stderr.contains(&format!("many.toml:{line}:8:")), "{stderr}");
}

// ---------------------------------------------------------------------------------------
// Arithmetic on machine values

#[test]
fn cpufreq_values_past_any_clock_are_unknown_not_wrapped() {
    // The i7-1165G7 capture (cpufreq max 4700 MHz) with cpu0's maximum at u64::MAX kHz,
    // which `(khz + 500) / 1000` wrapped to 0 MHz (and `as u32` truncated larger ones), and
    // cpu1's base at 2^40 kHz.
    let (_t, root) = fixture_copy("x86_64-64cpu-linux6.2");
    let cpufreq = |c: u32, f: &str| root.join(format!("sys/devices/system/cpu/cpu{c}/cpufreq/{f}"));
    fs::write(cpufreq(0, "cpuinfo_max_freq"), "18446744073709551615\n").unwrap();
    fs::write(cpufreq(1, "base_frequency"), "1099511627776\n").unwrap();
    let r = inventory(&root);
    assert!(r["cpu"]["max_mhz"].is_null(), "{}", r["cpu"]["max_mhz"]);
    assert_note(
        &r,
        "cpu.max_mhz",
        "cpu0/cpufreq/cpuinfo_max_freq says 18446744073709551615 kHz, outside any CPU's clock",
    );
    assert_note(&r, "cpu.base_mhz", "base_frequency says 1099511627776 kHz");
    // The base clock falls back to the next source (the model name's 2.80 GHz), the
    // minimum is untouched.
    assert_eq!(r["cpu"]["base_mhz"], 2800);
    assert_eq!(r["cpu"]["min_mhz"], 400);
    for c in r["cpu"]["core_types"].as_array().into_iter().flatten() {
        assert!(c["max_mhz"].is_null());
    }
    // A profile's at_most on the clock is unknown, never passed.
    let t = tempfile::tempdir().unwrap();
    let p = t.path().join("p.toml");
    fs::write(&p, "[cpu]\nmax_clock = { at_most = \"5 GHz\" }\n").unwrap();
    let out = rigcheck()
        .args([
            "--sysroot",
            root.to_str().unwrap(),
            "verify",
            "--format",
            "json",
            "--profile",
        ])
        .arg(&p)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["lines"][0]["status"], "unknown", "{v}");
}

/// An SMBIOS structure of `len` formatted bytes (header included), `set` writing its
/// fields at their offsets; no strings.
fn structure(kind: u8, handle: u16, len: usize, set: impl FnOnce(&mut [u8])) -> Vec<u8> {
    let mut s = vec![0u8; len];
    s[0] = kind;
    s[1] = len as u8;
    s[2..4].copy_from_slice(&handle.to_le_bytes());
    set(&mut s);
    s.extend_from_slice(&[0, 0]);
    s
}

/// Type 16, system memory, with an extended maximum capacity of `max` bytes.
fn memory_array(handle: u16, max: u64) -> Vec<u8> {
    structure(16, handle, 0x17, |b| {
        b[0x05] = 0x03; // use: system memory
        b[0x07..0x0B].copy_from_slice(&0x8000_0000u32.to_le_bytes());
        b[0x0D..0x0F].copy_from_slice(&4u16.to_le_bytes());
        b[0x0F..0x17].copy_from_slice(&max.to_le_bytes());
    })
}

/// Type 17 in array `array`: a module of `mib` MiB (extended size), DDR4.
fn memory_device(handle: u16, array: u16, mib: u32) -> Vec<u8> {
    structure(17, handle, 0x28, |b| {
        b[0x04..0x06].copy_from_slice(&array.to_le_bytes());
        b[0x0C..0x0E].copy_from_slice(&0x7FFFu16.to_le_bytes());
        b[0x12] = 0x1A;
        b[0x1C..0x20].copy_from_slice(&mib.to_le_bytes());
    })
}

/// Type 39: a present supply of `watts` W, in no redundancy group.
fn power_supply(handle: u16, watts: u16) -> Vec<u8> {
    structure(39, handle, 0x16, |b| {
        b[0x0C..0x0E].copy_from_slice(&watts.to_le_bytes());
        b[0x0E..0x10].copy_from_slice(&0x0002u16.to_le_bytes());
    })
}

#[test]
fn headroom_sums_of_huge_arrays_modules_and_supplies_are_checked() {
    use rigcheck::probe::headroom::headroom_from_table;
    use rigcheck::probe::smbios::Table;
    // Two arrays of 2^63 bytes each (a wrapped sum was 0); 8193 modules of 2 PiB in the
    // first (past 2^64 bytes: the per-array sum overflowed, a panic in a debug build); 65,538
    // supplies of 65,535 W (past 2^32 W).
    let mut t = Vec::new();
    t.extend(memory_array(1, 1 << 63));
    t.extend(memory_array(2, 1 << 63));
    for i in 0..8193u16 {
        t.extend(memory_device(0x100 + i, 1, 0x7FFF_FFFF));
    }
    for i in 0..65_538u32 {
        t.extend(power_supply(0x4000u16.wrapping_add(i as u16), 65_535));
    }
    t.extend(structure(127, 0xFFFF, 4, |_| {}));
    let (h, notes) = headroom_from_table(&Table::parse(&t, None), &[], &[]);
    let m = h.memory.unwrap();
    assert_eq!(m.slot_count, Some(8193));
    assert_eq!(m.max_capacity_bytes, None);
    assert_eq!(m.installed_bytes, None);
    assert_eq!(m.max_with_installed_module_bytes, None);
    assert_eq!(h.power.capacity_w, None);
    let said = |field: &str, needle: &str| {
        notes
            .iter()
            .any(|n| n.field == field && n.reason.contains(needle))
    };
    // Each array's 2^63 bytes is no array's capacity (`plausible`): no ceiling at all, and
    // no sum of them to wrap.
    assert!(
        said(
            "headroom.memory.max_capacity_bytes",
            "9223372036854775808 bytes is no memory array capacity"
        ),
        "{notes:?}"
    );
    assert!(
        said("headroom.power.capacity_w", "past 2^32 W"),
        "{notes:?}"
    );
}

// ---------------------------------------------------------------------------------------
// Notes

#[cfg(unix)]
#[test]
fn twenty_thousand_dangling_block_entries_are_drawn_in_one_pass() {
    // Each dangling /sys/block entry is a drive of unknown facts, with three notes of its own
    // (60,000 entries took 157 s as a table and 148 s as a Markdown sheet, release build,
    // when every note was merged by a search of the notes merged before it).
    let (_t, root) = fixture_copy("hp-z8-g4-dual-rtx6000");
    let block = root.join("sys/block");
    // At 20,000 the search took minutes in a debug build: past the hang guard.
    for i in 0..20_000 {
        std::os::unix::fs::symlink(
            format!("../devices/virtual/block/gone{i}"),
            block.join(format!("sd{i}")),
        )
        .unwrap();
    }
    let root = root.to_str().unwrap();
    let table = run(&["--sysroot", root, "--color", "never", "-v"], 0);
    let table = String::from_utf8(table).unwrap();
    assert!(table.contains("sd19999"), "the last drive is drawn");
    assert!(
        table.contains("/sys/block/sd19999/size is not present"),
        "its note is said"
    );
    let sheet = run(&["--sysroot", root, "sheet", "--format", "markdown"], 0);
    assert!(String::from_utf8(sheet).unwrap().contains("sd19999"));
}
