//! Hostile sysroots and interrupted writes, end to end through the binary.
//!
//! Each test copies the reference machine's capture (fixtures/hp-z8-g4-dual-rtx6000) to a
//! temporary directory, plants one hostile entry in it, and runs `rigcheck --sysroot` with a
//! timeout, so a hang fails the test instead of hanging CI. The answer must be exit code 0,
//! the affected field null with a note saying why, the rest of the report intact (the
//! reference machine's real values: 72 threads, 2 sockets, 96 GiB in 12 DIMMs, two
//! 1000204886016-byte NVMe drives), and no panic text.
#![allow(clippy::unwrap_used, clippy::expect_used)]
// FIFOs, device nodes, symlinks planted at will and signals: POSIX-only ways to be hostile.
#![cfg(unix)]

mod common;

use common::{assert_note, copy_tree, fixture, notes_on, rigcheck, temporaries};
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::Value;

const TIMEOUT: Duration = Duration::from_secs(30);
const Z8_DRIVE_BYTES: u64 = 1_000_204_886_016;
const Z8_DIMM_TOTAL: u64 = 96 * 1024 * 1024 * 1024;

/// A private copy of the reference machine: (tempdir, sysroot inside it).
fn z8_copy() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("z8");
    copy_tree(&fixture("hp-z8-g4-dual-rtx6000"), &root);
    (dir, root)
}

/// Replaces `rel` inside `root` by whatever `make` creates there.
fn plant(root: &Path, rel: &str, make: impl FnOnce(&Path)) {
    let p = root.join(rel);
    match fs::symlink_metadata(&p) {
        Ok(m) if m.is_dir() => fs::remove_dir_all(&p).unwrap(),
        Ok(_) => fs::remove_file(&p).unwrap(),
        Err(_) => {}
    }
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    make(&p);
}

fn mkfifo(p: &Path) {
    let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path that lives across the call.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::mkfifo(c.as_ptr(), 0o644) };
    assert_eq!(rc, 0, "mkfifo {}", p.display());
}

/// Runs the JSON inventory of `root`; asserts exit 0, no panic, and returns the report.
fn inventory(root: &Path) -> Value {
    let start = Instant::now();
    let out = rigcheck()
        .arg("--sysroot")
        .arg(root)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        start.elapsed() < TIMEOUT,
        "rigcheck hung on {}",
        root.display()
    );
    assert!(!stderr.contains("panicked"), "panic: {stderr}");
    assert_eq!(out.status.code(), Some(0), "stderr: {stderr}");
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The facts the hostile entry did not touch are still the reference machine's.
fn assert_rest_intact(r: &Value, except: &[&str]) {
    if !except.contains(&"cpu") {
        assert_eq!(r["cpu"]["threads"], 72, "{}", r["cpu"]);
        assert_eq!(r["cpu"]["sockets"], 2);
    }
    if !except.contains(&"memory") {
        assert_eq!(r["memory"]["total_bytes"], Z8_DIMM_TOTAL);
        assert_eq!(r["memory"]["dimms"].as_array().unwrap().len(), 12);
    }
    if !except.contains(&"drives") {
        for d in r["drives"].as_array().unwrap() {
            assert_eq!(d["size_bytes"], Z8_DRIVE_BYTES);
        }
    }
    if !except.contains(&"system") {
        assert_eq!(r["system"]["product"], "HP Z8 G4 Workstation");
    }
    assert_eq!(r["gpus"].as_array().unwrap().len(), 2);
}

#[test]
fn unmodified_copy_is_the_reference_machine() {
    let (_t, root) = z8_copy();
    let r = inventory(&root);
    assert_rest_intact(&r, &[]);
}

#[test]
fn symlink_to_host_file_is_not_followed_out_of_the_sysroot() {
    let (t, root) = z8_copy();
    // A file outside the sysroot that would be a valid cpuinfo if it were read.
    let outside = t.path().join("outside-cpuinfo");
    fs::write(&outside, "processor\t: 0\nmodel name\t: LEAKED HOST CPU\n").unwrap();
    plant(&root, "proc/cpuinfo", |p| symlink(&outside, p).unwrap());
    plant(&root, "etc/os-release", |p| {
        symlink("/etc/shadow", p).unwrap()
    });
    plant(&root, "proc/meminfo", |p| {
        symlink("../../../../../../../../etc/shadow", p).unwrap()
    });
    let r = inventory(&root);
    let text = r.to_string();
    assert!(
        !text.contains("LEAKED"),
        "followed a link out of the sysroot"
    );
    for shadow in ["root:*", "root:$", "root:!", "daemon:*"] {
        assert!(!text.contains(shadow), "read the host's /etc/shadow");
    }
    assert!(r["cpu"]["model"].is_null(), "{}", r["cpu"]["model"]);
    assert_note(&r, "cpu.model", "/proc/cpuinfo is not present");
    // /etc/shadow resolved inside the sysroot, where there is none.
    assert!(r["os"]["name"].is_null());
    assert!(r["memory"]["usable_bytes"].is_null());
    assert_note(&r, "memory.usable_bytes", "/proc/meminfo is not present");
    assert_rest_intact(&r, &["cpu"]);
}

#[test]
fn fifo_does_not_hang_the_read() {
    let (_t, root) = z8_copy();
    plant(&root, "sys/devices/system/cpu/online", mkfifo);
    plant(&root, "proc/meminfo", mkfifo);
    let r = inventory(&root);
    assert_note(&r, "memory.usable_bytes", "not a regular file");
    // Without the online list the CPUs of cpuinfo count: still 72.
    assert_eq!(r["cpu"]["threads"], 72);
    assert_rest_intact(&r, &[]);
}

#[test]
fn char_device_is_not_read() {
    let (_t, root) = z8_copy();
    let p = root.join("proc/cpuinfo");
    fs::remove_file(&p).unwrap();
    let c = std::ffi::CString::new(p.to_str().unwrap()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path; mknod creates /dev/zero's twin (1, 5).
    #[allow(unsafe_code)]
    let rc = unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o644, libc::makedev(1, 5)) };
    if rc != 0 {
        eprintln!(
            "skipped: mknod not permitted here ({})",
            std::io::Error::last_os_error()
        );
        return;
    }
    let r = inventory(&root);
    assert!(r["cpu"]["model"].is_null());
    assert_note(&r, "cpu.model", "not a regular file");
    assert_rest_intact(&r, &["cpu"]);
}

#[test]
fn huge_sparse_file_is_cut_off_not_read_whole() {
    let (_t, root) = z8_copy();
    plant(&root, "proc/meminfo", |p| {
        let f = fs::File::create(p).unwrap();
        f.set_len(10 * 1024 * 1024 * 1024).unwrap();
    });
    plant(&root, "proc/cpuinfo", |p| {
        // Real text, then a 10 GB hole.
        let text = fs::read(fixture("hp-z8-g4-dual-rtx6000/proc/cpuinfo")).unwrap();
        fs::write(p, text).unwrap();
        fs::OpenOptions::new()
            .write(true)
            .open(p)
            .unwrap()
            .set_len(10 * 1024 * 1024 * 1024)
            .unwrap();
    });
    let start = Instant::now();
    let r = inventory(&root);
    assert!(start.elapsed() < Duration::from_secs(20));
    assert!(r["memory"]["usable_bytes"].is_null());
    assert_note(&r, "memory.usable_bytes", "larger than 1 MiB");
    assert!(r["cpu"]["model"].is_null());
    assert_note(&r, "cpu.model", "larger than 16 MiB");
    assert_rest_intact(&r, &["cpu"]);
}

#[test]
fn overflowing_numbers_are_null_with_a_note_never_truncated() {
    let (_t, root) = z8_copy();
    let size = "sys/devices/pci0000:00/0000:00:1b.0/0000:02:00.0/nvme/nvme0/nvme0n1/size";
    assert!(root.join(size).is_file());
    plant(&root, size, |p| {
        fs::write(p, "99999999999999999999999\n").unwrap()
    });
    // Fits in u64 as sectors, overflows as bytes (× 512).
    let size1 = "sys/devices/pci0000:00/0000:00:1b.4/0000:03:00.0/nvme/nvme1/nvme1n1/size";
    plant(&root, size1, |p| {
        fs::write(p, "36028797018963968\n").unwrap()
    });
    plant(&root, "proc/meminfo", |p| {
        fs::write(p, "MemTotal:       99999999999999999999 kB\n").unwrap()
    });
    let r = inventory(&root);
    let drives = r["drives"].as_array().unwrap();
    assert_eq!(drives[0]["name"], "nvme0n1");
    assert!(drives[0]["size_bytes"].is_null(), "{}", drives[0]);
    assert_note(&r, "drives[0].size_bytes", "99999999999999999999999");
    assert!(drives[1]["size_bytes"].is_null(), "{}", drives[1]);
    assert_note(&r, "drives[1].size_bytes", "overflow 64 bits");
    assert!(r["memory"]["usable_bytes"].is_null());
    assert!(!notes_on(&r, "memory.usable_bytes").is_empty());
    assert_rest_intact(&r, &["drives"]);
}

#[test]
fn garbage_dmi_tables_fall_back_with_a_note() {
    let (_t, root) = z8_copy();
    let garbage: Vec<u8> = (0..4096u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    plant(&root, "sys/firmware/dmi/tables/DMI", |p| {
        fs::write(p, &garbage).unwrap()
    });
    plant(&root, "sys/firmware/dmi/tables/smbios_entry_point", |p| {
        fs::write(p, &garbage[..31]).unwrap()
    });
    let r = inventory(&root);
    assert!(r["memory"]["dimms"].as_array().is_none_or(|d| d.is_empty()));
    let all = r["notes"].to_string();
    assert!(all.contains("SMBIOS"), "{all}");
    assert_rest_intact(&r, &["memory"]);
}

#[test]
fn garbage_entry_point_with_real_table_and_empty_files() {
    let (_t, root) = z8_copy();
    // A valid anchor with a broken checksum, and empty one-value files.
    let mut ep = fs::read(root.join("sys/firmware/dmi/tables/smbios_entry_point")).unwrap();
    let last = ep.len() - 1;
    ep[last] ^= 0x5a;
    plant(&root, "sys/firmware/dmi/tables/smbios_entry_point", |p| {
        fs::write(p, &ep).unwrap()
    });
    plant(&root, "sys/devices/virtual/dmi/id/product_name", |p| {
        fs::write(p, "").unwrap()
    });
    plant(&root, "proc/cpuinfo", |p| fs::write(p, "").unwrap());
    let r = inventory(&root);
    assert!(r["system"]["product"].is_null());
    assert!(!notes_on(&r, "system.product").is_empty());
    assert!(r["cpu"]["model"].is_null());
    let all = r["notes"].to_string();
    assert!(all.contains("smbios_entry_point"), "{all}");
    assert_rest_intact(&r, &["cpu", "memory", "system"]);
}

#[test]
fn binary_garbage_in_text_files_is_a_note() {
    let (_t, root) = z8_copy();
    let junk: Vec<u8> = (0..2048u32).map(|i| (i * 7 + 3) as u8).collect();
    for rel in [
        "proc/cpuinfo",
        "proc/meminfo",
        "etc/os-release",
        "sys/devices/system/cpu/online",
        "nvml.json",
        "capture.json",
    ] {
        plant(&root, rel, |p| fs::write(p, &junk).unwrap());
    }
    let r = inventory(&root);
    assert!(r["memory"]["usable_bytes"].is_null());
    assert!(!notes_on(&r, "memory.usable_bytes").is_empty());
    assert!(r["gpus"]
        .as_array()
        .unwrap()
        .iter()
        .all(|g| g["memory_bytes"].is_null()));
    // The table output must not carry control characters from the files to the terminal.
    let out = rigcheck().arg("--sysroot").arg(&root).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        !text.contains('\u{1b}'),
        "escape sequence reached the terminal"
    );
}

#[test]
fn escape_sequences_in_dmi_strings_do_not_reach_the_terminal() {
    let (_t, root) = z8_copy();
    plant(&root, "sys/devices/virtual/dmi/id/product_name", |p| {
        fs::write(p, "HP Z8\u{1b}]0;pwned\u{7}\u{1b}[2J G4\n").unwrap()
    });
    let out = rigcheck().arg("--sysroot").arg(&root).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains('\u{1b}'), "{text}");
    assert!(!text.contains('\u{7}'), "{text}");
}

#[test]
fn dangling_symlink_loop_and_directory_instead_of_file() {
    let (_t, root) = z8_copy();
    plant(&root, "sys/devices/virtual/dmi/id/product_name", |p| {
        symlink("/nowhere/at/all", p).unwrap()
    });
    plant(&root, "sys/devices/virtual/dmi/id/sys_vendor", |p| {
        symlink("sys_vendor", p).unwrap()
    });
    plant(&root, "proc/meminfo", |p| fs::create_dir(p).unwrap());
    // A loop on the way to a drive.
    plant(&root, "sys/block/nvme1n1", |p| {
        symlink("../block/nvme1n1", p).unwrap()
    });
    let r = inventory(&root);
    assert!(r["system"]["product"].is_null());
    assert!(r["system"]["vendor"].is_null());
    assert!(!notes_on(&r, "system.vendor").is_empty());
    assert_note(&r, "memory.usable_bytes", "a directory");
    let drives = r["drives"].as_array().unwrap();
    assert!(drives
        .iter()
        .all(|d| d["name"] != "nvme1n1" || d["size_bytes"].is_null()));
    assert_eq!(drives[0]["size_bytes"], Z8_DRIVE_BYTES);
}

#[test]
fn whole_sysroot_unusable_exits_2() {
    let t = tempfile::tempdir().unwrap();
    // A file, an empty directory, and a directory whose proc/sys are FIFOs-only junk.
    let file = t.path().join("file");
    fs::write(&file, "x").unwrap();
    rigcheck().arg("--sysroot").arg(&file).assert().code(2);
    let empty = t.path().join("empty");
    fs::create_dir(&empty).unwrap();
    rigcheck().arg("--sysroot").arg(&empty).assert().code(2);
    // proc and sys pointing out of the root count as absent: nothing inside to read.
    let out = t.path().join("out");
    fs::create_dir(&out).unwrap();
    symlink("/proc", out.join("proc")).unwrap();
    symlink("/sys", out.join("sys")).unwrap();
    let r = rigcheck()
        .arg("--sysroot")
        .arg(&out)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&r.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    if r.status.code() == Some(0) {
        // If accepted, nothing of the host may appear in it.
        let v: Value = serde_json::from_slice(&r.stdout).unwrap();
        assert!(v["cpu"]["threads"].is_null(), "read the host: {}", v["cpu"]);
        assert!(v["memory"]["usable_bytes"].is_null());
    } else {
        assert_eq!(r.status.code(), Some(2), "{stderr}");
    }
}

#[test]
fn hostile_report_files_for_diff_and_fleet() {
    let t = tempfile::tempdir().unwrap();
    let good = t.path().join("good.json");
    let out = rigcheck()
        .arg("--sysroot")
        .arg(fixture("hp-z8-g4-dual-rtx6000"))
        .args(["--format", "json"])
        .output()
        .unwrap();
    fs::write(&good, &out.stdout).unwrap();
    let fifo = t.path().join("fifo.json");
    mkfifo(&fifo);
    let huge = t.path().join("huge.json");
    fs::File::create(&huge)
        .unwrap()
        .set_len(10 * 1024 * 1024 * 1024)
        .unwrap();
    let junk = t.path().join("junk.json");
    fs::write(&junk, [0xffu8, 0xfe, 0, 1, 2]).unwrap();
    for bad in [&huge, &junk] {
        let start = Instant::now();
        let out = rigcheck().arg("diff").arg(&good).arg(bad).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{}",
            bad.display()
        );
        assert_eq!(out.status.code(), Some(2), "{}: {stderr}", bad.display());
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(stderr.contains(&bad.display().to_string()), "{stderr}");
    }
    // fleet over a directory: the FIFO is skipped, a `loop -> ..` link is not followed,
    // the huge and junk files are listed as errors next to the good report.
    let fleet = t.path().join("fleet");
    fs::create_dir(&fleet).unwrap();
    fs::copy(&good, fleet.join("z8.json")).unwrap();
    fs::rename(&huge, fleet.join("huge.json")).unwrap();
    fs::rename(&junk, fleet.join("junk.json")).unwrap();
    fs::rename(&fifo, fleet.join("fifo.json")).unwrap();
    symlink("..", fleet.join("loop")).unwrap();
    let start = Instant::now();
    let out = rigcheck()
        .arg("fleet")
        .arg(&fleet)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(start.elapsed() < Duration::from_secs(20));
    assert!(!stderr.contains("panicked"), "{stderr}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let text = v.to_string();
    assert!(text.contains("z8-ref"), "{text}");
    assert!(text.contains("larger than 16 MiB"), "{text}");
    assert!(text.contains("junk.json"), "{text}");
    assert!(!text.contains("fifo.json"), "{text}");
}

#[test]
fn terminal_safe_keeps_colour_and_drops_other_controls() {
    let s = "\u{1b}[1mHP\u{1b}[0m Z8\u{1b}]0;pwned\u{7} G4\u{9b}2J\n\tok";
    let out = String::from_utf8(rigcheck::terminal_safe(s.as_bytes()).into_owned()).unwrap();
    assert_eq!(
        out,
        "\u{1b}[1mHP\u{1b}[0m Z8\u{fffd}]0;pwned\u{fffd} G4\u{fffd}2J\n\tok"
    );
}

// ---------------------------------------------------------------------------------------
// Captures: atomic, interruptible, and holding nothing private.

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("rigcheck")
}

/// A finished capture: its last files are there and it replays to this machine's CPU count.
fn assert_complete_capture(dir: &Path) {
    assert!(dir.join("capture.json").is_file(), "{}", dir.display());
    assert!(dir.join("report.json").is_file(), "{}", dir.display());
    let r = inventory(dir);
    let live: Value = serde_json::from_slice(&fs::read(dir.join("report.json")).unwrap()).unwrap();
    assert_eq!(r["cpu"]["threads"], live["cpu"]["threads"]);
    assert!(r["cpu"]["threads"].as_u64().unwrap() >= 1);
}

#[test]
fn capture_interrupted_at_any_point_leaves_nothing_or_everything() {
    use std::os::unix::process::ExitStatusExt;
    let t = tempfile::tempdir().unwrap();
    // How long a slowed capture takes here, to spread the interruptions over it.
    let start = Instant::now();
    let status = std::process::Command::new(bin())
        .arg("capture")
        .arg(t.path().join("timed"))
        .env("RIGCHECK_TEST_SLOW_CAPTURE_MS", "3")
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    let full = start.elapsed();
    assert_complete_capture(&t.path().join("timed"));
    let mut outcomes = (0, 0);
    for (i, frac) in [0.02, 0.1, 0.3, 0.5, 0.7, 0.9, 1.2].iter().enumerate() {
        for sig in [libc::SIGTERM, libc::SIGINT, libc::SIGKILL] {
            let dir = t.path().join(format!("cap-{i}-{sig}"));
            let mut child = std::process::Command::new(bin())
                .arg("capture")
                .arg(&dir)
                .env("RIGCHECK_TEST_SLOW_CAPTURE_MS", "3")
                .stdout(std::process::Stdio::null())
                .spawn()
                .unwrap();
            std::thread::sleep(full.mul_f64(*frac));
            // SAFETY: kill(2) on our own child's PID.
            #[allow(unsafe_code)]
            unsafe {
                libc::kill(child.id() as i32, sig)
            };
            let status = child.wait().unwrap();
            if status.success() {
                assert_complete_capture(&dir);
                outcomes.1 += 1;
            } else {
                assert_eq!(status.signal(), Some(sig), "{status:?}");
                assert!(
                    !dir.exists(),
                    "half-written capture left at {}",
                    dir.display()
                );
                outcomes.0 += 1;
            }
            if sig != libc::SIGKILL {
                let own = format!(".cap-{i}-{sig}.");
                let left: Vec<_> = temporaries(t.path())
                    .into_iter()
                    .filter(|n| n.starts_with(&own))
                    .collect();
                assert!(left.is_empty(), "{left:?}");
            }
        }
    }
    assert!(
        outcomes.0 >= 6,
        "too few interruptions landed: {outcomes:?}"
    );
    // Stale temporaries of killed captures do not confuse the next capture of the same
    // name, which removes them.
    for i in 0..7 {
        let again = t.path().join(format!("cap-{i}-9"));
        let _ = fs::remove_dir_all(&again);
        let out = rigcheck().arg("capture").arg(&again).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        assert_complete_capture(&again);
    }
    assert!(
        temporaries(t.path()).is_empty(),
        "{:?}",
        temporaries(t.path())
    );
}

#[test]
fn capture_refuses_to_overwrite_without_force() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("cap");
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("keep.txt"), "mine").unwrap();
    let out = rigcheck().arg("capture").arg(&dir).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
    assert_eq!(fs::read_to_string(dir.join("keep.txt")).unwrap(), "mine");
    let file = t.path().join("file");
    fs::write(&file, "x").unwrap();
    rigcheck().arg("capture").arg(&file).assert().code(2);
    assert_eq!(fs::read_to_string(&file).unwrap(), "x");
    // --force replaces an earlier capture only, never a directory of other files.
    rigcheck()
        .arg("capture")
        .arg(&dir)
        .arg("--force")
        .assert()
        .code(2);
    assert_eq!(fs::read_to_string(dir.join("keep.txt")).unwrap(), "mine");
    fs::write(dir.join("capture.json"), "{}").unwrap();
    rigcheck()
        .arg("capture")
        .arg(&dir)
        .arg("--force")
        .assert()
        .code(0);
    assert!(!dir.join("keep.txt").exists());
    assert_complete_capture(&dir);
    assert!(temporaries(t.path()).is_empty());
}

#[test]
fn capture_holds_no_environment_no_other_process_and_nothing_from_home() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("cap");
    let secret = format!("xyz123-{}-rigcheck-secret", std::process::id());
    let out = rigcheck()
        .arg("capture")
        .arg(&dir)
        .env("RIGCHECK_TEST_SECRET", &secret)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    // The capturing process's own PID, as /proc/self pointed at it.
    let own_pid = fs::read_link(dir.join("proc/self"))
        .ok()
        .map(|p| p.to_string_lossy().into_owned());
    let mut files = 0;
    let mut stack = vec![dir.clone()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            let rel = p.strip_prefix(&dir).unwrap().to_string_lossy().into_owned();
            assert!(!rel.starts_with("home"), "{rel}");
            assert!(!rel.starts_with("root/"), "{rel}");
            let name = e.file_name().to_string_lossy().into_owned();
            assert!(name != "environ" && name != "cmdline", "{rel}");
            if let Some(pid) = rel.strip_prefix("proc/").and_then(|r| r.split('/').next()) {
                if pid.chars().all(|c| c.is_ascii_digit()) {
                    assert_eq!(Some(pid), own_pid.as_deref(), "another process: {rel}");
                }
            }
            let ft = e.file_type().unwrap();
            if ft.is_dir() {
                stack.push(p);
            } else if ft.is_file() {
                files += 1;
                let bytes = fs::read(&p).unwrap();
                assert!(
                    !String::from_utf8_lossy(&bytes).contains(&secret),
                    "the environment leaked into {rel}"
                );
            }
        }
    }
    assert!(files > 10, "only {files} files captured");
}

#[test]
fn replay_of_a_capture_made_without_root_says_needs_root() {
    let (_t, root) = z8_copy();
    // As `rigcheck capture` writes it when run unprivileged on a machine with DMI serials.
    fs::write(
        root.join("capture.json"),
        r#"{"captured_at":"2026-11-02T09:00:00Z","arch":"x86_64","rigcheck_version":"0.1.0",
            "unreadable":["/sys/class/dmi/id/product_serial","/sys/firmware/dmi/tables/DMI",
            "/sys/firmware/dmi/tables/smbios_entry_point"]}"#,
    )
    .unwrap();
    fs::remove_file(root.join("sys/firmware/dmi/tables/DMI")).unwrap();
    fs::remove_file(root.join("sys/firmware/dmi/tables/smbios_entry_point")).unwrap();
    let r = inventory(&root);
    assert!(r["system"]["serial"].is_null());
    assert_note(&r, "system.serial", "needs root");
    assert!(r["memory"]["dimms"].as_array().is_none_or(|d| d.is_empty()));
    assert!(r["notes"].to_string().contains("SMBIOS tables need root"));
    // Fields that were captured are untouched.
    assert_eq!(r["system"]["product"], "HP Z8 G4 Workstation");
    assert_eq!(r["cpu"]["threads"], 72);
}
