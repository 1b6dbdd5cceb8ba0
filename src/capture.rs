//! `rigcheck capture DIR`: records the live machine as a replayable sysroot.
//!
//! The probes run once against a recording `Source`; the capture then holds exactly what
//! they read: each file with the bytes they saw, each directory they listed (its
//! subdirectories and symlinks, not its other files), every symlink on the way kept as the
//! same relative link, plus `cpuid.json`, `nvml.json`, `host.json`, `capture.json` and
//! `report.json` (the JSON report of the live run that made the capture). On Windows and
//! macOS there are no files to copy: the capture holds the OS's answers (`native.json`,
//! and on Windows the raw SMBIOS data `rsmb.bin`) beside `cpuid.json` and `nvml.json`.
//! Nothing else: no environment, no other process's command line, nothing under /home.
//!
//! It is written into a temporary sibling directory and renamed into place at the end, so an
//! interrupted capture leaves no half-written DIR. SIGINT, SIGTERM and SIGHUP are caught while
//! it runs: the temporary directory is removed and the process then ends by that signal.
//! After a SIGKILL (which cannot be caught) the next capture into the same parent removes
//! the stale temporary directory of the dead process.

use std::fs;
use std::io;
#[cfg(unix)]
use std::os::unix::fs::symlink;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[cfg(unix)]
use signal_hook::consts::SIGHUP;
use signal_hook::consts::{SIGINT, SIGTERM};

use crate::error::Error;
use crate::probe::{self, system::CaptureMeta};
use crate::source::{self, Source};

/// The live report written next to the recorded files (`rigcheck --format json` at capture).
pub const REPORT_FILE: &str = "report.json";

/// Most symlinks followed while copying one path.
const MAX_DEPTH: usize = 40;

/// Records the live machine into `dir`; returns a one-paragraph summary for the user.
pub fn capture(dir: &Path, force: bool) -> Result<String, Error> {
    if !cfg!(any(target_os = "linux", windows, target_os = "macos")) {
        // A capture holds /proc and /sys as the probes read them (Linux), or the OS's own
        // answers (Windows, macOS); elsewhere it would be an empty sysroot that replays as a
        // machine with nothing in it.
        return Err(Error::Io {
            path: dir.into(),
            source: io::Error::new(
                io::ErrorKind::Unsupported,
                "capture records Linux, Windows and macOS machines; not supported on this OS",
            ),
        });
    }
    if let Ok(mut entries) = fs::read_dir(dir) {
        if entries.next().is_some() && !force {
            return Err(Error::WouldOverwrite(dir.into()));
        }
    } else if dir.exists() {
        return Err(Error::WouldOverwrite(dir.into()));
    }
    let io_err = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Error::Io { path, source }
    };
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    fs::create_dir_all(&parent).map_err(io_err(&parent))?;
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    remove_stale_temporaries(&parent, &name);
    let tmp = parent.join(format!(".{name}.{TMP_TAG}{}", std::process::id()));
    // The signal that interrupted us, 0 while none did.
    let signal = Arc::new(AtomicUsize::new(0));
    let handlers: Vec<_> = [
        SIGINT,
        SIGTERM,
        #[cfg(unix)]
        SIGHUP,
    ]
    .into_iter()
    .filter_map(|sig| {
        signal_hook::flag::register_usize(sig, Arc::clone(&signal), sig as usize).ok()
    })
    .collect();
    let result = write_capture(&tmp, &signal);
    for h in handlers {
        signal_hook::low_level::unregister(h);
    }
    let summary = match result {
        Ok(s) => s,
        Err(e) => {
            let _ = fs::remove_dir_all(&tmp);
            let sig = signal.load(Ordering::SeqCst);
            if sig != 0 {
                // End the way the signal would have ended us (exit status 128 + N).
                let _ = signal_hook::low_level::emulate_default_handler(sig as i32);
                return Err(Error::Interrupted);
            }
            return Err(Error::Io {
                path: dir.into(),
                source: e,
            });
        }
    };
    if dir.exists() {
        // --force: move the old one aside first, so there is never a moment without a
        // complete DIR on disk.
        let old = parent.join(format!(".{name}.rigcheck-old-{}", std::process::id()));
        fs::rename(dir, &old).map_err(io_err(dir))?;
        fs::rename(&tmp, dir).map_err(io_err(dir))?;
        let _ = fs::remove_dir_all(&old);
    } else {
        fs::rename(&tmp, dir).map_err(io_err(dir))?;
    }
    Ok(format!("{summary} into {}\n", dir.display()))
}

/// Marks a capture's temporary directory: `.DIR.rigcheck-tmp-PID`.
const TMP_TAG: &str = "rigcheck-tmp-";

/// Removes `.NAME.rigcheck-tmp-PID` directories left by a capture that was killed (its PID no
/// longer runs), so they neither pile up nor get mistaken for a capture.
fn remove_stale_temporaries(parent: &Path, name: &str) {
    let prefix = format!(".{name}.{TMP_TAG}");
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = file.strip_prefix(&prefix) else {
            continue;
        };
        let alive = pid
            .parse::<u32>()
            .is_ok_and(|pid| pid != std::process::id() && process_runs(pid));
        if !alive {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

/// Whether process `pid` still runs.
#[cfg(target_os = "linux")]
fn process_runs(pid: u32) -> bool {
    Path::new("/proc").join(pid.to_string()).exists()
}

/// Whether process `pid` still runs (no /proc here: the OS is asked through sysinfo).
#[cfg(any(windows, target_os = "macos"))]
fn process_runs(pid: u32) -> bool {
    use sysinfo::{Pid, ProcessRefreshKind, ProcessesToUpdate, System};
    let pid = Pid::from_u32(pid);
    let mut sys = System::new();
    sys.refresh_processes_specifics(
        ProcessesToUpdate::Some(&[pid]),
        false,
        ProcessRefreshKind::nothing(),
    );
    sys.process(pid).is_some()
}

/// Elsewhere `capture` does not run, so no temporary of a live capture can be there.
#[cfg(not(any(target_os = "linux", windows, target_os = "macos")))]
fn process_runs(_pid: u32) -> bool {
    false
}

/// Test hook: `RIGCHECK_TEST_SLOW_CAPTURE_MS` makes each file write of a capture wait this
/// long, so tests can interrupt a capture midway. Read once, in capture only.
fn slow_down() -> Option<Duration> {
    std::env::var("RIGCHECK_TEST_SLOW_CAPTURE_MS")
        .ok()?
        .parse()
        .ok()
        .map(Duration::from_millis)
}

fn write_capture(out: &Path, signal: &AtomicUsize) -> io::Result<String> {
    fs::create_dir(out)?;
    let delay = slow_down();
    // Called between files: stops the capture once a signal arrived.
    let step = || -> io::Result<()> {
        if let Some(d) = delay {
            std::thread::sleep(d);
        }
        if signal.load(Ordering::SeqCst) != 0 {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"));
        }
        Ok(())
    };
    let src = Source::live_recording();
    let spec = probe::inventory(&src);
    let rec = src.take_recording().unwrap_or_default();
    step()?;
    let mut copier = Copier {
        out: out.to_path_buf(),
    };
    for dir in &rec.dirs {
        copier.copy_dir_entries(dir)?;
    }
    for link in &rec.links {
        // Only the chain matters; a missing target is recorded as it was.
        let _ = copier.materialize(link, 0);
    }
    for (path, bytes) in &rec.files {
        step()?;
        if let Ok(real) = copier.materialize(path, 0) {
            let dst = copier.dst(&real);
            if let Some(p) = dst.parent() {
                fs::create_dir_all(p)?;
            }
            fs::write(&dst, bytes)?;
        }
    }
    let cpuid = src.cpuid_answers();
    if !cpuid.is_empty() {
        fs::write(
            out.join(source::CPUID_FILE),
            source::format_cpuid_json(&cpuid),
        )?;
    }
    for (name, text) in &rec.answers {
        fs::write(out.join(name), text)?;
    }
    step()?;
    let meta = CaptureMeta {
        captured_at: spec.captured_at.clone(),
        arch: spec.os.arch.clone(),
        rigcheck_version: Some(spec.rigcheck_version.clone()),
        // Replay answers these with "needs root" instead of "not present".
        unreadable: root_only(&rec).map(|p| p.display().to_string()).collect(),
    };
    let meta_json = serde_json::to_string_pretty(&meta).map_err(io::Error::other)? + "\n";
    fs::write(out.join(source::CAPTURE_FILE), meta_json)?;
    // The report as the live run saw it, so a replay can be checked against it byte for byte.
    let mut report = Vec::new();
    crate::render::json::write(&spec, &mut report)?;
    fs::write(out.join(REPORT_FILE), report)?;
    let answers = if rec.answers.is_empty() {
        String::new()
    } else {
        format!(", {}", join_keys(&rec))
    };
    let mut summary = if rec.answers.contains_key(probe::native::NATIVE_FILE) {
        // Windows and macOS: no files, the OS's answers.
        format!(
            "captured the OS's answers{answers}, {} CPUID leaves",
            cpuid.len()
        )
    } else {
        format!(
            "captured {} files, {} directories, {} CPUID leaves{answers}",
            rec.files.len(),
            rec.dirs.len(),
            cpuid.len(),
        )
    };
    let denied: Vec<String> = root_only(&rec).map(|p| p.display().to_string()).collect();
    if !denied.is_empty() {
        summary.push_str(&format!(
            " ({} root-only files not readable: {}; run as root for a complete capture)",
            denied.len(),
            denied.join(", ")
        ));
    }
    step()?;
    Ok(summary)
}

/// Files a probe could not read because they are root's.
fn root_only(rec: &source::Recording) -> impl Iterator<Item = &PathBuf> {
    rec.unreadable
        .iter()
        .filter(|(_, why)| why.starts_with("needs root"))
        .map(|(p, _)| p)
}

fn join_keys(rec: &source::Recording) -> String {
    rec.answers.keys().cloned().collect::<Vec<_>>().join(", ")
}

/// Windows has no one symlink call (file and directory links differ and need a privilege).
/// A capture there records the OS's answers and no files, so this is never reached.
#[cfg(not(unix))]
fn symlink(_target: impl AsRef<Path>, _link: impl AsRef<Path>) -> io::Result<()> {
    Err(io::Error::new(
        io::ErrorKind::Unsupported,
        "symlinks are not recreated on this OS",
    ))
}

/// Copies paths of the live filesystem into `out`, keeping symlinks as symlinks.
struct Copier {
    out: PathBuf,
}

impl Copier {
    fn dst(&self, live: &Path) -> PathBuf {
        self.out.join(live.strip_prefix("/").unwrap_or(live))
    }

    /// Recreates every directory and symlink on the way to `path` and returns the path
    /// with all symlinks resolved (the real location of its last component).
    fn materialize(&mut self, path: &Path, depth: usize) -> io::Result<PathBuf> {
        if depth > MAX_DEPTH {
            return Err(io::Error::other("too many levels of symbolic links"));
        }
        let mut cur = PathBuf::from("/");
        for comp in path.components() {
            match comp {
                Component::Normal(name) => {
                    let next = cur.join(name);
                    let meta = fs::symlink_metadata(&next)?;
                    let dst = self.dst(&next);
                    if meta.file_type().is_symlink() {
                        let target = fs::read_link(&next)?;
                        if fs::symlink_metadata(&dst).is_err() {
                            if let Some(p) = dst.parent() {
                                fs::create_dir_all(p)?;
                            }
                            symlink(&target, &dst)?;
                        }
                        let joined = if target.is_absolute() {
                            target
                        } else {
                            cur.join(target)
                        };
                        cur = self.materialize(&crate::source::normalize(&joined), depth + 1)?;
                    } else {
                        if meta.is_dir() {
                            fs::create_dir_all(&dst)?;
                        }
                        cur = next;
                    }
                }
                Component::ParentDir => {
                    cur.pop();
                }
                _ => {}
            }
        }
        Ok(cur)
    }

    /// Recreates a listed directory: its subdirectories and symlinks (files are copied only
    /// when a probe read them).
    fn copy_dir_entries(&mut self, dir: &Path) -> io::Result<()> {
        let real = match self.materialize(dir, 0) {
            Ok(r) => r,
            Err(_) => return Ok(()),
        };
        let dst_dir = self.dst(&real);
        fs::create_dir_all(&dst_dir)?;
        for entry in fs::read_dir(&real)? {
            let entry = entry?;
            let ft = entry.file_type()?;
            let dst = dst_dir.join(entry.file_name());
            if ft.is_symlink() {
                if fs::symlink_metadata(&dst).is_err() {
                    symlink(fs::read_link(entry.path())?, &dst)?;
                }
            } else if ft.is_dir() {
                fs::create_dir_all(&dst)?;
            }
        }
        Ok(())
    }
}
