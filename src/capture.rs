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
//!
//! A capture made by root holds root-only files (serials, UUIDs, SMBIOS tables): DIR is
//! made 0700, and each copied file keeps who may read it (a 0400 source is 0600 in the
//! capture, a 0444 one 0644). DIR is placed with a rename that fails if anything but an
//! empty directory appeared there meanwhile; `--force` replaces only an earlier capture.

use std::fs;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use crate::error::Error;
use crate::probe::{self, cpuid, system::CaptureMeta};
use crate::signals::Shield;
use crate::source::{self, Source};

/// The live report written next to the recorded files (`rigcheck --format json` at capture).
pub const REPORT_FILE: &str = "report.json";

/// Most symlinks followed while copying one path.
const MAX_DEPTH: usize = 40;

/// Records the live machine into `dir`; returns a one-paragraph summary for the user.
pub fn capture(dir: &Path, force: bool) -> Result<String, Error> {
    if crate::sys::LIVE == crate::sys::Live::Unreadable {
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
    check_target(dir, force)?;
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
    // A legal long DIR name must not give a temporary name past NAME_MAX.
    let name = crate::io::temp_stem(&name);
    remove_stale_temporaries(&parent, &name);
    let tmp = parent.join(format!(".{name}.{TMP_TAG}{}", std::process::id()));
    let shield = Shield::raise();
    let result = write_capture(&tmp, &shield).and_then(|summary| {
        if shield.interrupted() {
            return Err(Error::Interrupted);
        }
        place(&tmp, dir, force, &parent, &name).map(|()| summary)
    });
    let result = match result {
        Ok(summary) => Ok(format!("{summary} into {}\n", dir.display())),
        Err(e) => {
            // Whatever failed, no temporary copy is left behind.
            let _ = fs::remove_dir_all(&tmp);
            Err(if shield.interrupted() {
                Error::Interrupted
            } else {
                as_users(e, &tmp, dir)
            })
        }
    };
    // End the way the signal would have ended us (exit status 128 + N), now that the
    // temporary directory is gone.
    shield.end_if_interrupted();
    result
}

/// An error met in the temporary directory, told of the user's DIR: the temporary's name is
/// rigcheck's own, and `capture /data/x` failing on `/data/.x.rigcheck-tmp-4242/proc` would
/// send the user looking for a file they never named.
fn as_users(e: Error, tmp: &Path, dir: &Path) -> Error {
    match e {
        Error::Io { path, source } => {
            let path = match path.strip_prefix(tmp) {
                Ok(rest) if rest.as_os_str().is_empty() => dir.to_path_buf(),
                Ok(rest) => dir.join(rest),
                Err(_) => path,
            };
            Error::Io { path, source }
        }
        other => other,
    }
}

/// What may be at DIR before a capture: nothing, an empty directory, or (with `--force`)
/// an earlier capture. A file, symlink or device there, or a directory of other files, is
/// refused: `--force` must not delete what `rigcheck capture` did not make.
fn check_target(dir: &Path, force: bool) -> Result<(), Error> {
    let meta = match fs::symlink_metadata(dir) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(source) => {
            return Err(Error::Io {
                path: dir.into(),
                source,
            })
        }
    };
    if !meta.is_dir() {
        return Err(Error::Usage(format!(
            "capture '{}': it exists and is not a directory (a file, symlink or device); \
             choose another name",
            dir.display()
        )));
    }
    let empty = fs::read_dir(dir)
        .map(|mut e| e.next().is_none())
        .map_err(|source| Error::Io {
            path: dir.into(),
            source,
        })?;
    if empty {
        return Ok(());
    }
    if !force {
        return Err(Error::WouldOverwrite(dir.into()));
    }
    if !is_capture(dir) {
        return Err(Error::Usage(format!(
            "capture '{}': the directory holds files but no {}, so it is not a capture; \
             --force replaces only an earlier capture: choose another name",
            dir.display(),
            source::CAPTURE_FILE
        )));
    }
    Ok(())
}

/// True when `dir` is a real directory holding a `capture.json` file: an earlier capture.
fn is_capture(dir: &Path) -> bool {
    fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir())
        && fs::symlink_metadata(dir.join(source::CAPTURE_FILE)).is_ok_and(|m| m.is_file())
}

/// Moves the finished capture `tmp` to `dir`. Without `force` a plain rename, which fails if
/// anything but an empty directory is at `dir` by now (another capture that finished first,
/// a directory made meanwhile): that is `WouldOverwrite`, and nothing is deleted. With
/// `force` an earlier capture there is swapped out in one step where the kernel can
/// (`renameat2` with `RENAME_EXCHANGE`), else moved aside first, then deleted.
fn place(tmp: &Path, dir: &Path, force: bool, parent: &Path, name: &str) -> Result<(), Error> {
    let io_err = |source: io::Error| Error::Io {
        path: dir.into(),
        source,
    };
    let exists = || fs::symlink_metadata(dir).is_ok();
    if force && exists() {
        // Checked again: DIR may have been replaced while the capture ran.
        check_target(dir, true)?;
        if crate::sys::exchange(tmp, dir).is_ok() {
            // `tmp` now holds the earlier capture.
            let _ = fs::remove_dir_all(tmp);
            return Ok(());
        }
        if exists() {
            let old = parent.join(format!(".{name}.{OLD_TAG}{}", std::process::id()));
            fs::rename(dir, &old).map_err(io_err)?;
            if let Err(e) = fs::rename(tmp, dir) {
                // Put the earlier capture back rather than leave nothing.
                let _ = fs::rename(&old, dir);
                return Err(io_err(e));
            }
            let _ = fs::remove_dir_all(&old);
            return Ok(());
        }
    }
    // Windows renames no directory onto another, not even an empty one (Unix's rename
    // replaces an empty directory): remove an empty DIR first; remove_dir leaves any other.
    if !crate::sys::RENAME_REPLACES_EMPTY_DIR {
        let _ = fs::remove_dir(dir);
    }
    fs::rename(tmp, dir).map_err(|e| {
        if exists() {
            Error::WouldOverwrite(dir.into())
        } else {
            io_err(e)
        }
    })
}

/// Marks a capture's temporary directory: `.DIR.rigcheck-tmp-PID`.
const TMP_TAG: &str = "rigcheck-tmp-";
/// Marks an earlier capture moved aside by `--force`: `.DIR.rigcheck-old-PID`.
const OLD_TAG: &str = "rigcheck-old-";

/// Removes `.NAME.rigcheck-tmp-PID` and `.NAME.rigcheck-old-PID` directories left by a
/// capture that was killed (its PID no longer runs), so they neither pile up nor get
/// mistaken for a capture.
fn remove_stale_temporaries(parent: &Path, name: &str) {
    let prefixes = [format!(".{name}.{TMP_TAG}"), format!(".{name}.{OLD_TAG}")];
    let Ok(entries) = fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = prefixes.iter().find_map(|p| file.strip_prefix(p.as_str())) else {
            continue;
        };
        let alive = pid
            .parse::<u32>()
            .is_ok_and(|pid| pid != std::process::id() && crate::sys::process_runs(pid));
        if !alive {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
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

fn write_capture(out: &Path, shield: &Shield) -> Result<String, Error> {
    let io_err = |source: io::Error| Error::Io {
        path: out.into(),
        source,
    };
    // Only the capturing user may enter it, whatever the umask (off Unix it inherits the
    // parent's access list, as every file the user makes does).
    crate::sys::create_private_dir(out).map_err(io_err)?;
    write_files(out, shield).map_err(|e| {
        if shield.interrupted() {
            Error::Interrupted
        } else {
            io_err(e)
        }
    })
}

/// Writes a new file of the capture with `mode` (the capture directory is private to this
/// process, so nothing else can have made it). Off Unix there are no modes: the file gets
/// the directory's inherited access list, and `mode` is unused.
fn write_file(path: &Path, bytes: &[u8], mode: u32) -> io::Result<()> {
    let mut options = fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    crate::sys::set_create_mode(&mut options, mode);
    options.open(path)?.write_all(bytes)
}

/// The mode of a copied file: its owner may read and write it; group and others may read
/// it only if they could read the source. (Off Unix there are no modes, and no files are
/// copied: the capture holds the OS's answers.)
fn copied_mode(source: &Path) -> u32 {
    OWN_MODE | crate::sys::file_mode(source).map_or(0, |m| m & 0o044)
}

/// Mode of the files rigcheck writes itself (answers, report): the owner's only.
const OWN_MODE: u32 = 0o600;

fn write_files(out: &Path, shield: &Shield) -> io::Result<String> {
    let delay = slow_down();
    // Called between files: stops the capture once a signal arrived.
    let step = || -> io::Result<()> {
        if let Some(d) = delay {
            std::thread::sleep(d);
        }
        if shield.interrupted() {
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
            write_file(&dst, bytes, copied_mode(&real))?;
        }
    }
    // The CPUID leaves the probes asked for, as `probe::inventory` recorded them.
    let cpuid = rec
        .answers
        .get(cpuid::CPUID_FILE)
        .and_then(|b| cpuid::parse_json(&String::from_utf8_lossy(b)).ok())
        .unwrap_or_default();
    for (name, bytes) in &rec.answers {
        // A device's log goes under a directory of its kind (`smart/nvme0.bin`).
        let path = out.join(name);
        if let Some(dir) = path.parent().filter(|d| *d != out) {
            fs::create_dir_all(dir)?;
        }
        write_file(&path, bytes, OWN_MODE)?;
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
    write_file(
        &out.join(source::CAPTURE_FILE),
        meta_json.as_bytes(),
        OWN_MODE,
    )?;
    // The report as the live run saw it, so a replay can be checked against it byte for byte.
    let mut report = Vec::new();
    crate::render::json::write(&spec, &mut report)?;
    write_file(&out.join(REPORT_FILE), &report, OWN_MODE)?;
    let answers = if join_keys(&rec).is_empty() {
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
        .filter(|(_, why)| matches!(why, source::Unknown::PermissionDenied(_)))
        .map(|(p, _)| p)
}

/// The recorded answers by name, but for the CPUID leaves, which the summary counts.
fn join_keys(rec: &source::Recording) -> String {
    rec.answers
        .keys()
        .filter(|k| *k != cpuid::CPUID_FILE)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ")
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
                            crate::sys::symlink(&target, &dst)?;
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
                    crate::sys::symlink(&fs::read_link(entry.path())?, &dst)?;
                }
            } else if ft.is_dir() {
                fs::create_dir_all(&dst)?;
            }
        }
        Ok(())
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    #[test]
    fn copied_files_keep_who_may_read_them() {
        let dir = tempfile::tempdir().unwrap();
        for (source, copied) in [
            (0o400, 0o600),
            (0o444, 0o644),
            (0o640, 0o640),
            (0o604, 0o604),
        ] {
            let p = dir.path().join(format!("f{source:o}"));
            fs::write(&p, "x").unwrap();
            fs::set_permissions(&p, fs::Permissions::from_mode(source)).unwrap();
            assert_eq!(copied_mode(&p), copied, "{source:o}");
        }
        // An unreadable source (gone meanwhile) is the owner's only.
        assert_eq!(copied_mode(&dir.path().join("gone")), 0o600);
    }
}
