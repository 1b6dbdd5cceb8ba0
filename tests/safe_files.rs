//! Files rigcheck writes: a capture is private and keeps who may read each file, is placed
//! without deleting what appeared meanwhile, and `--force` replaces only an earlier
//! capture; `-o FILE --force` writes only regular files and keeps their mode; `bench`
//! refuses durations and paths that would panic, hang or write where nobody asked, and
//! removes its test file when interrupted. Unix only: modes, FIFOs, devices and signals.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{assert_no_temporaries, rigcheck, temporaries};
use std::fs;
use std::os::unix::fs::{symlink, FileTypeExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = common::HANG_GUARD;

fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("rigcheck")
}

fn mode(p: &Path) -> u32 {
    fs::symlink_metadata(p).unwrap().permissions().mode() & 0o7777
}

fn assert_capture(dir: &Path) {
    assert!(dir.join("capture.json").is_file(), "{}", dir.display());
    assert!(dir.join("report.json").is_file(), "{}", dir.display());
    assert!(dir.join("proc/cpuinfo").is_file(), "{}", dir.display());
}

/// A capture slowed to `ms` per file, started in the background.
fn slow_capture(dir: &Path, ms: u32, force: bool) -> Child {
    let mut c = std::process::Command::new(bin());
    c.arg("capture").arg(dir);
    if force {
        c.arg("--force");
    }
    c.env("RIGCHECK_TEST_SLOW_CAPTURE_MS", ms.to_string())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for `child`, failing the test if it outlives `TIMEOUT`; returns (code, stderr).
fn finish(mut child: Child) -> (Option<i32>, String) {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > TIMEOUT {
            let _ = child.kill();
            panic!("capture did not end");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Waits until a capture's temporary directory shows up in `parent`.
fn wait_for_temporary(parent: &Path) {
    let start = Instant::now();
    while temporaries(parent).is_empty() {
        assert!(start.elapsed() < TIMEOUT, "no temporary directory appeared");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn capture_is_private_and_keeps_who_may_read_each_file() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("cap");
    rigcheck().arg("capture").arg(&dir).assert().success();
    assert_capture(&dir);
    assert_eq!(mode(&dir), 0o700);
    // What rigcheck writes itself is the owner's only.
    for f in ["capture.json", "report.json", "host.json"] {
        assert_eq!(mode(&dir.join(f)), 0o600, "{f}");
    }
    // /proc/cpuinfo is 0444: readable by all in the capture too; the owner may edit.
    assert_eq!(mode(Path::new("/proc/cpuinfo")) & 0o044, 0o044);
    assert_eq!(mode(&dir.join("proc/cpuinfo")), 0o644);
}

#[test]
fn directory_made_while_capturing_is_kept_without_force() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("cap");
    let child = slow_capture(&dir, 5, false);
    wait_for_temporary(t.path());
    fs::create_dir(&dir).unwrap();
    fs::write(dir.join("mine.txt"), "mine").unwrap();
    let (code, stderr) = finish(child);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("exists"), "{stderr}");
    assert_eq!(fs::read_to_string(dir.join("mine.txt")).unwrap(), "mine");
    assert_no_temporaries(t.path());
}

#[test]
fn parallel_captures_into_one_directory_one_wins() {
    let t = tempfile::tempdir().unwrap();
    let dir = t.path().join("cap");
    let children: Vec<Child> = (0..3).map(|_| slow_capture(&dir, 3, false)).collect();
    let codes: Vec<Option<i32>> = children.into_iter().map(|c| finish(c).0).collect();
    assert_eq!(
        codes.iter().filter(|c| **c == Some(0)).count(),
        1,
        "{codes:?}"
    );
    assert_eq!(
        codes.iter().filter(|c| **c == Some(2)).count(),
        2,
        "{codes:?}"
    );
    assert_capture(&dir);
    assert_no_temporaries(t.path());
}

#[test]
fn symlinks_files_and_other_directories_are_not_replaced() {
    let t = tempfile::tempdir().unwrap();
    // A dangling symlink: refused at once, nothing copied, the link left as it was.
    let link = t.path().join("dangling");
    symlink(t.path().join("nowhere"), &link).unwrap();
    for force in [false, true] {
        let mut c = rigcheck();
        c.arg("capture").arg(&link);
        if force {
            c.arg("--force");
        }
        let out = c.output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("is not a directory"), "{stderr}");
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(!t.path().join("nowhere").exists());
    }
    // A symlink to a real directory is not followed into it either.
    let target = t.path().join("target");
    fs::create_dir(&target).unwrap();
    let to_dir = t.path().join("to-dir");
    symlink(&target, &to_dir).unwrap();
    rigcheck().arg("capture").arg(&to_dir).assert().code(2);
    assert_eq!(fs::read_dir(&target).unwrap().count(), 0);
    // A directory of other files: --force does not delete it.
    let docs = t.path().join("docs");
    fs::create_dir(&docs).unwrap();
    fs::write(docs.join("thesis.tex"), "years of work").unwrap();
    let out = rigcheck()
        .arg("capture")
        .arg(&docs)
        .arg("--force")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a capture"));
    assert_eq!(
        fs::read_to_string(docs.join("thesis.tex")).unwrap(),
        "years of work"
    );
    // An earlier capture is replaced with --force, and only with it.
    let cap = t.path().join("cap");
    rigcheck().arg("capture").arg(&cap).assert().success();
    fs::write(cap.join("stale"), "old").unwrap();
    rigcheck().arg("capture").arg(&cap).assert().code(2);
    rigcheck()
        .arg("capture")
        .arg(&cap)
        .arg("--force")
        .assert()
        .success();
    assert!(!cap.join("stale").exists());
    assert_capture(&cap);
    assert_no_temporaries(t.path());
}

#[test]
fn interrupted_forced_capture_keeps_the_earlier_one() {
    use std::os::unix::process::ExitStatusExt;
    let t = tempfile::tempdir().unwrap();
    let cap = t.path().join("cap");
    rigcheck().arg("capture").arg(&cap).assert().success();
    fs::write(cap.join("marker"), "earlier").unwrap();
    let mut child = slow_capture(&cap, 20, true);
    wait_for_temporary(t.path());
    std::thread::sleep(Duration::from_millis(100));
    // SAFETY: kill(2) on our own child's PID.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    assert_eq!(rc, 0);
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(libc::SIGTERM));
    assert_eq!(fs::read_to_string(cap.join("marker")).unwrap(), "earlier");
    assert_no_temporaries(t.path());
}

// ---------------------------------------------------------------------------------------
// -o FILE --force

fn sheet_to(path: &Path, force: bool) -> std::process::Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/hp-z8-g4-dual-rtx6000");
    let mut c = rigcheck();
    c.arg("--sysroot")
        .arg(root)
        .args(["sheet", "--format", "markdown", "-o"])
        .arg(path);
    if force {
        c.arg("--force");
    }
    c.output().unwrap()
}

#[test]
fn output_replaces_only_regular_files_and_keeps_their_mode() {
    let t = tempfile::tempdir().unwrap();
    // A regular file with its own mode: replaced, mode kept.
    let file = t.path().join("sheet.md");
    fs::write(&file, "old").unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
    assert_eq!(sheet_to(&file, false).status.code(), Some(2));
    assert_eq!(fs::read_to_string(&file).unwrap(), "old");
    assert_eq!(sheet_to(&file, true).status.code(), Some(0));
    assert!(fs::read_to_string(&file).unwrap().contains("HP Z8 G4"));
    assert_eq!(mode(&file), 0o640);
    // A symlink (to /dev/null, or to a file): refused, the link and its target untouched.
    let null = t.path().join("null");
    symlink("/dev/null", &null).unwrap();
    let target = t.path().join("target.md");
    fs::write(&target, "target").unwrap();
    let link = t.path().join("link.md");
    symlink(&target, &link).unwrap();
    for p in [&null, &link] {
        let out = sheet_to(p, true);
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("is a symbolic link"), "{stderr}");
        assert!(fs::symlink_metadata(p).unwrap().file_type().is_symlink());
    }
    assert_eq!(fs::read_to_string(&target).unwrap(), "target");
    assert!(fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    // A named pipe: refused at once (no hang, no regular file in its place).
    let fifo = t.path().join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path that lives across the call.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::mkfifo(c.as_ptr(), 0o644) };
    assert_eq!(rc, 0);
    let out = sheet_to(&fifo, true);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("is a named pipe"));
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    // A device node (a twin of /dev/null, where mknod is permitted): refused.
    let dev = t.path().join("null-twin");
    let c = std::ffi::CString::new(dev.to_str().unwrap()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path that lives across the call.
    #[allow(unsafe_code)]
    let made = unsafe { libc::mknod(c.as_ptr(), libc::S_IFCHR | 0o666, libc::makedev(1, 3)) };
    if made == 0 {
        let out = sheet_to(&dev, true);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("is a device"));
        assert!(fs::symlink_metadata(&dev)
            .unwrap()
            .file_type()
            .is_char_device());
    } else {
        eprintln!("mknod not permitted here: the device case is skipped");
    }
    // A directory: refused.
    let d = t.path().join("dir");
    fs::create_dir(&d).unwrap();
    assert_eq!(sheet_to(&d, true).status.code(), Some(2));
    assert!(d.is_dir());
    // Nothing temporary is left.
    let left: Vec<_> = fs::read_dir(t.path())
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

// ---------------------------------------------------------------------------------------
// bench

#[test]
fn bench_refuses_durations_it_cannot_keep_and_disk_without_data() {
    for s in ["1e308", "inf", "NaN", "0", "-1", "86401"] {
        let s = &format!("--seconds={s}");
        let out = rigcheck().args(["bench", "cpu", s]).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "--seconds {s}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{stderr}");
        assert!(stderr.contains("at most 86400"), "{stderr}");
        assert!(stderr.len() < 200, "{stderr}");
    }
    // `bench disk` writes nothing without being told where.
    let t = tempfile::tempdir().unwrap();
    let out = rigcheck()
        .current_dir(t.path())
        .args(["bench", "disk", "--seconds", "0.1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--data DIR"));
    assert_eq!(fs::read_dir(t.path()).unwrap().count(), 0);
}

#[test]
fn bench_disk_refuses_a_named_pipe_without_hanging() {
    let t = tempfile::tempdir().unwrap();
    let fifo = t.path().join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: `c` is a valid NUL-terminated path that lives across the call.
    #[allow(unsafe_code)]
    let rc = unsafe { libc::mkfifo(c.as_ptr(), 0o644) };
    assert_eq!(rc, 0);
    let out = rigcheck()
        .args([
            "bench",
            "disk",
            "--seconds",
            "0.1",
            "--format",
            "json",
            "--data",
        ])
        .arg(&fifo)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(3),
        "a bench that measured nothing is incomplete"
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(v["bench"]["disk"].is_null());
    assert!(
        v["bench"]["notes"]
            .to_string()
            .contains("not a regular file or a directory"),
        "{}",
        v["bench"]["notes"]
    );
}

/// A `bench disk --data DIR` started in the background, once it holds its test file open:
/// the file has no name in DIR, so it is found among the process's open files
/// (/proc/PID/fd), where a file without a name shows as `DIR/#inode (deleted)`.
#[cfg(target_os = "linux")]
fn bench_disk_holding_its_file(dir: &Path) -> Child {
    let child = std::process::Command::new(bin())
        .args(["bench", "disk", "--seconds", "30", "--data"])
        .arg(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let fds = PathBuf::from(format!("/proc/{}/fd", child.id()));
    let holds = || {
        fs::read_dir(&fds)
            .into_iter()
            .flatten()
            .flatten()
            .any(|e| fs::read_link(e.path()).is_ok_and(|target| target.starts_with(dir)))
    };
    let start = Instant::now();
    while !holds() {
        assert!(start.elapsed() < TIMEOUT, "no test file was opened");
        std::thread::sleep(Duration::from_millis(5));
    }
    child
}

#[cfg(target_os = "linux")]
#[test]
fn bench_disk_leaves_nothing_when_killed() {
    let t = tempfile::tempdir().unwrap();
    let mut child = bench_disk_holding_its_file(t.path());
    // While the file is written or read, as the OOM killer or a scheduler would.
    child.kill().unwrap();
    child.wait().unwrap();
    let left: Vec<_> = fs::read_dir(t.path()).unwrap().flatten().collect();
    assert!(left.is_empty(), "SIGKILL left {left:?}");
}

#[cfg(target_os = "linux")]
#[test]
fn bench_disk_removes_a_test_file_left_by_a_dead_process() {
    let t = tempfile::tempdir().unwrap();
    // The PID of a process that has ended, as a killed rigcheck's would be.
    let mut gone = std::process::Command::new("true").spawn().unwrap();
    gone.wait().unwrap();
    let stale = t.path().join(format!(".rigcheck-bench-{}.tmp", gone.id()));
    fs::write(&stale, vec![7u8; 1 << 20]).unwrap();
    let out = rigcheck()
        .args([
            "bench",
            "disk",
            "--seconds",
            "0.2",
            "--format",
            "json",
            "--data",
        ])
        .arg(t.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!stale.exists(), "the stale test file is still there");
    assert_eq!(fs::read_dir(t.path()).unwrap().count(), 0);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("left by a rigcheck (PID {})", gone.id())),
        "{text}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn bench_disk_removes_its_test_file_when_interrupted() {
    use std::os::unix::process::ExitStatusExt;
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        let t = tempfile::tempdir().unwrap();
        // Interrupted while the test file is written or read.
        let mut child = bench_disk_holding_its_file(t.path());
        // SAFETY: kill(2) on our own child's PID.
        #[allow(unsafe_code)]
        let rc = unsafe { libc::kill(child.id() as i32, sig) };
        assert_eq!(rc, 0);
        let deadline = Instant::now() + TIMEOUT;
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("bench did not stop on signal {sig}");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        assert_eq!(status.signal(), Some(sig));
        let left: Vec<_> = fs::read_dir(t.path()).unwrap().flatten().collect();
        assert!(left.is_empty(), "signal {sig} left {left:?}");
    }
}

/// Which of the CPUs this process may use a thread is kept on (`pin_to`).
#[cfg(target_os = "linux")]
#[derive(Clone, Copy)]
enum Pin {
    First,
    Last,
}

/// Keeps the calling thread on one CPU, the first or the last this process may use, so the
/// writer and the reader of a race run at the same time where there are two CPUs: a kernel
/// may otherwise place a new thread on its parent's CPU, and the two then take turns.
#[cfg(target_os = "linux")]
fn pin_to(pin: Pin) {
    // SAFETY: `set` is a zeroed cpu_set_t owned by this frame, of the size passed; the
    // kernel reads and writes only that much, and CPU_ISSET/CPU_SET stay inside it.
    #[allow(unsafe_code)]
    unsafe {
        let size = std::mem::size_of::<libc::cpu_set_t>();
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, size, &mut set) != 0 {
            return;
        }
        let cpus: Vec<usize> = (0..8 * size)
            .filter(|&c| libc::CPU_ISSET(c, &set))
            .collect();
        let cpu = match pin {
            Pin::First => cpus.first(),
            Pin::Last => cpus.last(),
        };
        if let (Some(&cpu), true) = (cpu, cpus.len() > 1) {
            let mut one: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut one);
            libc::sched_setaffinity(0, size, &one);
        }
    }
}

/// A hostile sysroot whose writer swaps what it holds while it is replayed, as fast as it
/// can: `sys/class/thing/file` is a link the writer keeps replacing (by a rename) between
/// one to `../../devices/thing/value` and one to `other_link`, and the directory
/// `sys/devices/thing` (whose `value` holds `inside`) trades places with `other_dir` (one
/// exchange, `renameat2`). `reads` reads of `file` through `Source::sysroot` are made on a
/// thread of their own, and more until the writer has swapped `reads` times; every answer is
/// handed to `check` as it comes, and each must come within `HANG_GUARD`.
#[cfg(target_os = "linux")]
fn replay_while_swapped(
    root: &Path,
    other_link: &Path,
    other_dir: impl FnOnce(&Path),
    reads: usize,
    check: impl Fn(&Result<String, rigcheck::source::Unknown>),
) {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{mpsc, Arc, Mutex};
    // One race at a time: two at once would share the CPUs they are kept on.
    static ONE_RACE: Mutex<()> = Mutex::new(());
    let _race = ONE_RACE.lock().unwrap_or_else(|e| e.into_inner());
    let class = root.join("sys/class/thing");
    let dev = root.join("sys/devices/thing");
    fs::create_dir_all(&class).unwrap();
    fs::create_dir_all(&dev).unwrap();
    fs::write(dev.join("value"), "inside").unwrap();
    other_dir(&root.join("sys/devices/.other"));
    symlink("../../devices/thing/value", class.join("file")).unwrap();
    /// Stops the writer however the test ends (a failed check unwinds through here).
    struct Stop(Arc<AtomicBool>);
    impl Drop for Stop {
        fn drop(&mut self) {
            self.0.store(true, Ordering::Relaxed);
        }
    }
    let stop = Arc::new(AtomicBool::new(false));
    let stop_on_drop = Stop(stop.clone());
    let swaps = Arc::new(AtomicUsize::new(0));
    let writer = {
        let (stop, swaps) = (stop.clone(), swaps.clone());
        let (root, other_link) = (root.to_path_buf(), other_link.to_owned());
        std::thread::spawn(move || {
            pin_to(Pin::Last);
            let (class, devices) = (root.join("sys/class/thing"), root.join("sys/devices"));
            while !stop.load(Ordering::Relaxed) {
                let n = swaps.fetch_add(1, Ordering::Relaxed);
                let new = class.join(".new");
                let target = if n % 2 == 0 {
                    other_link.as_path()
                } else {
                    Path::new("../../devices/thing/value")
                };
                symlink(target, &new).unwrap();
                fs::rename(&new, class.join("file")).unwrap();
                rigcheck::sys::exchange(&devices.join("thing"), &devices.join(".other")).unwrap();
            }
        })
    };
    let (tx, rx) = mpsc::channel();
    let src = rigcheck::source::Source::sysroot(root);
    // At least `reads` reads, and on until the writer has swapped as many times (a busy
    // machine can slow its renames to milliseconds), so the two overlap however the
    // threads are scheduled. The reader is never joined: if a read blocks, the test fails
    // below and the thread is left to the process's end.
    let reader_swaps = swaps.clone();
    std::thread::spawn(move || {
        pin_to(Pin::First);
        let (start, mut n) = (Instant::now(), 0);
        loop {
            let swapped = reader_swaps.load(Ordering::Relaxed);
            if (n >= reads && swapped >= reads) || start.elapsed() > TIMEOUT {
                return;
            }
            if tx.send(src.read_value("/sys/class/thing/file")).is_err() {
                return;
            }
            n += 1;
        }
    });
    let mut n = 0;
    loop {
        match rx.recv_timeout(TIMEOUT) {
            Ok(answer) => check(&answer),
            Err(mpsc::RecvTimeoutError::Disconnected) => break,
            Err(e) => panic!("read {n} of the replay did not come back ({e})"),
        }
        n += 1;
    }
    drop(stop_on_drop);
    writer.join().unwrap();
    assert!(
        n >= reads && swaps.load(Ordering::Relaxed) >= reads,
        "{n} reads, {} swaps",
        swaps.load(Ordering::Relaxed)
    );
}

/// A writer swapping links inside a sysroot never makes the replay read a file outside it
/// (a link to an outside file, a directory swapped for a link to an outside one): each path
/// is opened beneath the root, never looked up again by name.
#[cfg(target_os = "linux")]
#[test]
fn replay_never_reads_outside_the_sysroot_while_a_link_is_swapped() {
    let t = tempfile::tempdir().unwrap();
    let outside = t.path().join("outside");
    fs::create_dir(&outside).unwrap();
    fs::write(outside.join("value"), "OUTSIDE-MARKER").unwrap();
    let root = t.path().join("root");
    replay_while_swapped(
        &root,
        &outside.join("value"),
        |other| symlink(&outside, other).unwrap(),
        1000,
        |answer| match answer {
            Ok(text) => assert_eq!(text, "inside", "a read out of the sysroot"),
            // A link to the outside, resolved inside the sysroot: not there.
            Err(rigcheck::source::Unknown::NotFound(_)) => {}
            Err(e) => panic!("{e}"),
        },
    );
}

/// A writer swapping a named pipe of the sysroot in for a file never blocks the replay:
/// every read comes back at once, the pipe refused with a note.
#[cfg(target_os = "linux")]
#[test]
fn replay_never_blocks_on_a_named_pipe_swapped_in() {
    let mkfifo = |path: &Path| {
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: `c` is a valid NUL-terminated path that lives across the call.
        #[allow(unsafe_code)]
        let rc = unsafe { libc::mkfifo(c.as_ptr(), 0o644) };
        assert_eq!(rc, 0);
    };
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("root");
    fs::create_dir_all(root.join("sys/devices")).unwrap();
    mkfifo(&root.join("sys/devices/pipe"));
    let refused = "refused to read /sys/class/thing/file: not a regular file";
    replay_while_swapped(
        &root,
        Path::new("../../devices/pipe"),
        |other| {
            fs::create_dir(other).unwrap();
            mkfifo(&other.join("value"));
        },
        1000,
        |answer| match answer {
            Ok(text) => assert_eq!(text, "inside"),
            Err(e) => assert_eq!(e.to_string(), refused),
        },
    );
    // The pipe left in place is refused at once.
    let class = root.join("sys/class/thing");
    symlink("../../devices/pipe", class.join(".pipe")).unwrap();
    fs::rename(class.join(".pipe"), class.join("file")).unwrap();
    let src = rigcheck::source::Source::sysroot(&root);
    let err = src.read_value("/sys/class/thing/file").unwrap_err();
    assert_eq!(err.to_string(), refused);
}
