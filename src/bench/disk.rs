//! Disk benchmark: sequential read of a file where the training data lives, with direct I/O so
//! the page cache does not flatter it, next to what the drive's link allows.
//!
//! A directory gets a temporary test file of bounded size that has no name on the disk
//! (O_TMPFILE; or made and unlinked at once where the file system lacks it), so nothing is
//! left however the run ends, SIGKILL included; SIGINT, SIGTERM or SIGHUP stop the run and
//! the process then ends by that signal. Test files named by an earlier rigcheck that was
//! killed are removed when their process no longer runs. Only a
//! regular file or a directory is accepted: a named pipe or device would block or never
//! end. Where O_DIRECT is refused (tmpfs, some network file systems) the read is buffered
//! after `posix_fadvise(DONTNEED)`, and a note says so.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;
use std::time::{Duration, Instant};

pub use crate::spec::bench::DiskBench;

use super::rng::SplitMix;
use crate::signals::Shield;
use crate::source::Source;
use crate::spec::{Notes, Spec};
use crate::sys;
use crate::units::bytes_bin;

/// Direct I/O needs buffers, offsets and lengths aligned to the logical block size; 4 KiB
/// covers 512-byte and 4Kn drives alike.
const ALIGN: usize = 4096;

/// The temporary file is synced to the drive every this many bytes while it is written.
const SYNC_BYTES: u64 = 16 << 20;

/// Sizes and durations of a disk run.
#[derive(Debug, Clone)]
pub struct DiskParams {
    /// Size of the temporary file made in a directory.
    pub file_bytes: u64,
    pub block_bytes: usize,
    pub readers: u32,
    /// The whole run: writing the temporary file takes at most half of it (the file is then
    /// smaller), reading the rest (at least one block per reader is read).
    pub budget: Duration,
}

impl DiskParams {
    /// A 1 GiB file (less where free space is short), 1 MiB reads, 4 in flight, as a data
    /// loader's workers read shards.
    pub fn for_budget(budget: Duration) -> Self {
        Self {
            file_bytes: 1 << 30,
            block_bytes: 1 << 20,
            readers: 4,
            budget,
        }
    }
}

/// Reads `path` (a file, or a temporary file made in a directory) and finds its drive's link.
/// The benchmark reads with O_DIRECT and finds the drive through /sys/dev/block, which only
/// Linux has; elsewhere it says so instead of timing the page cache.
pub fn run(
    path: &Path,
    params: &DiskParams,
    spec: &Spec,
    notes: &mut Notes,
) -> Result<DiskBench, String> {
    if sys::LIVE != sys::Live::Files {
        return Err(
            "the disk benchmark needs Linux (O_DIRECT and /sys/dev/block); not supported on \
             this OS"
                .into(),
        );
    }
    let block = params.block_bytes.max(ALIGN).next_multiple_of(ALIGN);
    let meta = std::fs::metadata(path).map_err(|e| format!("--data '{}': {e}", path.display()))?;
    if !meta.is_dir() && !meta.is_file() {
        return Err(format!(
            "--data '{}': not a regular file or a directory (a named pipe or device would \
             block or never end); give a directory on the drive to measure, or a file on it",
            path.display()
        ));
    }
    let temp = meta.is_dir();
    let start = Instant::now();
    // Held while a test file may exist: a signal then stops the run, the file is deleted,
    // and the process ends by that signal.
    let shield = temp.then(Shield::raise);
    if temp {
        remove_stale_test_files(path, notes);
    }
    // The test file is held open, nameless, for the whole run; it is read again through its
    // descriptor (/proc/self/fd), which is how a file without a name is opened with O_DIRECT.
    let wanted = if temp {
        bounded_size(path, params.file_bytes, block as u64)
    } else {
        0
    };
    let test_file = if temp {
        make_test_file(
            path,
            wanted,
            block,
            start + params.budget / 2,
            shield.as_ref(),
        )
        .map(Some)
        .map_err(|e| {
            format!(
                "cannot write a test file in '{}': {e}; pass --data FILE to read an \
                     existing file",
                path.display()
            )
        })
    } else {
        Ok(None)
    };
    let result = test_file.and_then(|held| {
        let read_path = match &held {
            Some(f) => sys::descriptor_path(f)
                .ok_or_else(|| "this OS cannot open the test file again".to_string())?,
            None => path.to_path_buf(),
        };
        read_file(
            &read_path,
            block,
            params,
            start + params.budget,
            notes,
            shield.as_ref(),
        )
        .map_err(|e| format!("reading '{}': {e}", path.display()))
    });
    if let Some(s) = shield {
        s.end_if_interrupted();
    }
    let (bytes_read, seconds, direct, file_bytes, readers) = result?;
    if temp && file_bytes < wanted {
        notes.add(
            "bench.disk.file_bytes",
            format!(
                "the test file was cut to {} of {}: writing it may take half of --seconds; \
                 give more --seconds for a file larger than the drive's cache",
                bytes_bin(file_bytes),
                bytes_bin(wanted)
            ),
        );
    }
    let dev = sys::device_number(&meta).unwrap_or_default();
    let (drive, link, link_bytes_per_s) = drive_link(&Source::live(), dev, spec, notes);
    Ok(DiskBench {
        path: path.display().to_string(),
        temporary_file: temp,
        file_bytes,
        bytes_read,
        seconds,
        bytes_per_s: bytes_read as f64 / seconds.max(1e-9),
        block_bytes: block as u64,
        readers,
        direct_io: direct,
        drive,
        link,
        link_bytes_per_s,
    })
}

/// `wanted` bytes, at most a tenth of the free space, rounded down to whole blocks, at least one.
fn bounded_size(dir: &Path, wanted: u64, block: u64) -> u64 {
    let free = free_bytes(dir).unwrap_or(wanted);
    let size = wanted.min(free / 10);
    (size / block).max(1) * block
}

fn free_bytes(dir: &Path) -> Option<u64> {
    sys::statvfs(dir).ok().map(|s| s.available_bytes)
}

/// Names a test file had where the file system has no O_TMPFILE (and had in every rigcheck
/// before it used O_TMPFILE): `.rigcheck-bench-PID.tmp`.
const TEST_FILE_PREFIX: &str = ".rigcheck-bench-";

/// Removes the named test files of rigcheck processes that no longer run (killed between
/// making their file and unlinking it, or an older rigcheck killed mid-run), with a note, so
/// a gigabyte left by a kill does not stay unseen.
fn remove_stale_test_files(dir: &Path, notes: &mut Notes) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix(TEST_FILE_PREFIX)
            .and_then(|rest| rest.strip_suffix(".tmp"))
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == std::process::id() || sys::process_runs(pid) {
            continue;
        }
        let what = match std::fs::remove_file(entry.path()) {
            Ok(()) => "removed".to_string(),
            Err(e) => format!("could not remove it: {e}"),
        };
        notes.add(
            "bench.disk",
            format!(
                "{} was left by a rigcheck (PID {pid}) that no longer runs; {what}",
                entry.path().display()
            ),
        );
    }
}

/// A test file in `dir` with no name: O_TMPFILE where the file system has it, else a named
/// file unlinked at once (only a kill in the microseconds between leaves it, and the next
/// run removes it).
fn nameless_file(dir: &Path) -> io::Result<File> {
    if let Ok(f) = sys::anonymous_file(dir) {
        return Ok(f);
    }
    let path = dir.join(format!("{TEST_FILE_PREFIX}{}.tmp", std::process::id()));
    let mut options = OpenOptions::new();
    options.read(true).write(true).create_new(true);
    sys::set_create_mode(&mut options, 0o600);
    let f = options.open(&path)?;
    std::fs::remove_file(&path)?;
    Ok(f)
}

/// Writes `size` bytes of incompressible data to a nameless file in `dir` (`nameless_file`),
/// synced to the drive; stops early, with a shorter file, at the first sync past `deadline`;
/// fails once `shield` says a signal came.
fn make_test_file(
    dir: &Path,
    size: u64,
    block: usize,
    deadline: Instant,
    shield: Option<&Shield>,
) -> io::Result<File> {
    let mut f = nameless_file(dir)?;
    let mut rng = SplitMix::new(size);
    let mut buf = vec![0u8; block];
    let mut left = size;
    let written = (|| {
        while left > 0 {
            if shield.is_some_and(Shield::interrupted) {
                return Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"));
            }
            // Fresh random bytes per block, so compressing or deduplicating storage cannot
            // shrink what the drive has to deliver.
            for w in buf.chunks_exact_mut(8) {
                w.copy_from_slice(&rng.next_u64().to_le_bytes());
            }
            let n = left.min(block as u64) as usize;
            f.write_all(&buf[..n])?;
            left -= n as u64;
            // Synced every SYNC_BYTES, so the cache never holds more than that to flush and
            // the clock is read after the drive took it, not after the page cache did.
            if (size - left) % SYNC_BYTES < n as u64 {
                f.sync_data()?;
                if Instant::now() >= deadline {
                    break;
                }
            }
        }
        f.sync_all()
    })();
    written.map(|()| f)
}

/// Reads `path` sequentially with `params.readers` readers interleaving blocks, repeating the
/// file until `deadline`. Returns (bytes, seconds, direct I/O used, file size, readers): no
/// more readers than the file has blocks.
fn read_file(
    path: &Path,
    block: usize,
    params: &DiskParams,
    deadline: Instant,
    notes: &mut Notes,
    shield: Option<&Shield>,
) -> io::Result<(u64, f64, bool, u64, u32)> {
    // Opened without blocking: a named pipe swapped in after the check above must not block
    // the open; what was opened is checked to be a regular file before it is read.
    let open = |direct: bool| -> io::Result<File> {
        let f = sys::open_for_reading(path, direct)?;
        if f.metadata()?.is_file() {
            Ok(f)
        } else {
            Err(io::Error::other("not a regular file"))
        }
    };
    let (file, direct) = match open(true) {
        Ok(f) if probe_direct(&f, block) => (f, true),
        _ => {
            let f = open(false)?;
            sys::drop_cache(&f);
            notes.add(
                "bench.disk.direct_io",
                "the file system refused O_DIRECT (tmpfs or a network file system?); read \
                 buffered after posix_fadvise(DONTNEED), so cached data may flatter the figure",
            );
            (f, false)
        }
    };
    let size = file.metadata()?.len();
    let blocks = size / block as u64;
    if blocks == 0 {
        return Err(io::Error::other(format!(
            "file is smaller than one {block}-byte block"
        )));
    }
    let readers = u64::from(params.readers.max(1)).min(blocks);
    let start = Instant::now();
    let total = std::thread::scope(|s| {
        let handles: Vec<_> = (0..readers)
            .map(|r| {
                let file = &file;
                s.spawn(move || -> io::Result<u64> {
                    let mut raw = vec![0u8; block + ALIGN];
                    let off = raw.as_ptr().align_offset(ALIGN);
                    let buf = &mut raw[off..off + block];
                    let mut done = 0u64;
                    let mut i = r;
                    loop {
                        if i >= blocks {
                            // Whole file read: start over (direct I/O reads the drive again).
                            i = r;
                        }
                        sys::read_exact_at(file, buf, i * block as u64)?;
                        done += block as u64;
                        i += readers;
                        if Instant::now() >= deadline || shield.is_some_and(Shield::interrupted) {
                            return Ok(done);
                        }
                    }
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(io::Error::other("reader panicked")))
            })
            .sum::<io::Result<u64>>()
    })?;
    Ok((
        total,
        start.elapsed().as_secs_f64(),
        direct,
        size,
        readers as u32,
    ))
}

/// Whether an aligned direct read works (some file systems accept O_DIRECT at open and fail
/// the read with EINVAL).
fn probe_direct(f: &File, block: usize) -> bool {
    let mut raw = vec![0u8; block + ALIGN];
    let off = raw.as_ptr().align_offset(ALIGN);
    sys::read_at(f, &mut raw[off..off + ALIGN], 0).is_ok()
}

/// The drive holding device `dev` and what its link allows: (name, link text, bytes/s).
fn drive_link(
    src: &Source,
    dev: u64,
    spec: &Spec,
    notes: &mut Notes,
) -> (Option<String>, Option<String>, Option<u64>) {
    let field = "bench.disk.link_bytes_per_s";
    let Some(name) = block_device_of(src, dev) else {
        notes.add(
            field,
            format!(
                "the file system's device {}:{} is not a block device in /sys/dev/block \
                 (overlay, network or memory file system)",
                dev_major(dev),
                dev_minor(dev)
            ),
        );
        return (None, None, None);
    };
    let drive = spec.drives.iter().find(|d| d.name == name);
    let transport = drive.and_then(|d| d.transport.clone());
    match transport.as_deref() {
        Some("nvme") => {
            let Some(addr) = drive.and_then(|d| d.pci_address.clone()) else {
                notes.add(
                    field,
                    format!("{name}: PCI address of the NVMe controller unknown"),
                );
                return (Some(name), None, None);
            };
            let base = format!("/sys/bus/pci/devices/{addr}");
            let speed = src.read_value(format!("{base}/current_link_speed"));
            let width = src.read_value(format!("{base}/current_link_width"));
            match (speed, width) {
                (Ok(s), Ok(w)) => match pcie_link_bytes_per_s(&s, &w) {
                    Some(b) => (
                        Some(name),
                        Some(format!("PCIe {} x{w}", s.trim_end_matches(" PCIe"))),
                        Some(b),
                    ),
                    None => {
                        notes.add(
                            field,
                            format!("{base}: link speed '{s}' width '{w}' not understood"),
                        );
                        (Some(name), None, None)
                    }
                },
                (Err(e), _) | (_, Err(e)) => {
                    notes.add(field, e);
                    (Some(name), None, None)
                }
            }
        }
        Some("sata") => (Some(name), Some("SATA 6 Gb/s".into()), Some(600_000_000)),
        other => {
            notes.add(
                field,
                format!(
                    "{name}: transport {} has no known link limit (NVMe and SATA are derived)",
                    other.unwrap_or("unknown")
                ),
            );
            (Some(name), None, None)
        }
    }
}

/// Kernel name of the whole disk behind device number `dev`: partitions map to their disk,
/// device-mapper devices to their first underlying disk.
fn block_device_of(src: &Source, dev: u64) -> Option<String> {
    let link = format!("/sys/dev/block/{}:{}", dev_major(dev), dev_minor(dev));
    let canon = src.canonical(&link).ok()?;
    let mut name = canon.file_name()?.to_string_lossy().into_owned();
    if src.exists(format!("{}/partition", canon.display())) {
        name = canon.parent()?.file_name()?.to_string_lossy().into_owned();
    }
    if name.starts_with("dm-") || name.starts_with("md") {
        let slave = src
            .read_dir(format!("/sys/block/{name}/slaves"))
            .ok()?
            .into_iter()
            .next()?;
        let canon = src.canonical(format!("/sys/class/block/{slave}")).ok()?;
        name = if src.exists(format!("{}/partition", canon.display())) {
            canon.parent()?.file_name()?.to_string_lossy().into_owned()
        } else {
            slave
        };
    }
    Some(name)
}

/// glibc's `gnu_dev_major`: major number of a Linux `dev_t`.
pub fn dev_major(dev: u64) -> u64 {
    ((dev >> 8) & 0xfff) | ((dev >> 32) & !0xfff)
}

/// glibc's `gnu_dev_minor`: minor number of a Linux `dev_t`.
pub fn dev_minor(dev: u64) -> u64 {
    (dev & 0xff) | ((dev >> 12) & !0xff)
}

/// Payload bytes/s of a PCIe link from sysfs `current_link_speed` (`8.0 GT/s PCIe`, or
/// `8 GT/s` before Linux 5.7) and `current_link_width` (`4`): GT/s × lanes × line-code
/// efficiency / 8 (8b/10b up to 5 GT/s, 128b/130b up to 32 GT/s, FLIT 242/256 at 64 GT/s).
pub fn pcie_link_bytes_per_s(speed: &str, width: &str) -> Option<u64> {
    let gts: f64 = speed.split_whitespace().next()?.parse().ok()?;
    if !speed.contains("GT/s") || gts <= 0.0 {
        return None;
    }
    let lanes: u32 = width.trim().parse().ok()?;
    if lanes == 0 {
        return None;
    }
    let efficiency = if gts <= 5.0 {
        8.0 / 10.0
    } else if gts <= 32.0 {
        128.0 / 130.0
    } else {
        242.0 / 256.0
    };
    Some((gts * 1e9 * f64::from(lanes) * efficiency / 8.0).round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcie_link_texts_of_old_and_new_kernels() {
        // Gen3 x4 NVMe as Linux 5.7+ prints it: 8 GT/s × 4 × 128/130 / 8 = 3.938 GB/s.
        assert_eq!(
            pcie_link_bytes_per_s("8.0 GT/s PCIe", "4"),
            Some(3_938_461_538)
        );
        // Same link as older kernels print it.
        assert_eq!(pcie_link_bytes_per_s("8 GT/s", "4\n"), Some(3_938_461_538));
        // Gen4 x4: 7.877 GB/s; Gen2 x1: 500 MB/s; Gen5 x4: 15.754 GB/s.
        assert_eq!(
            pcie_link_bytes_per_s("16.0 GT/s PCIe", "4"),
            Some(7_876_923_077)
        );
        assert_eq!(
            pcie_link_bytes_per_s("5.0 GT/s PCIe", "1"),
            Some(500_000_000)
        );
        assert_eq!(
            pcie_link_bytes_per_s("32.0 GT/s PCIe", "4"),
            Some(15_753_846_154)
        );
        assert_eq!(pcie_link_bytes_per_s("Unknown", "4"), None);
        assert_eq!(pcie_link_bytes_per_s("8.0 GT/s PCIe", "0"), None);
    }

    #[test]
    fn dev_numbers_split_like_glibc() {
        // /dev/vda on this VM is 253:0; nvme0n1p2 is 259:2; a large minor spills high bits.
        assert_eq!((dev_major(0xfd00), dev_minor(0xfd00)), (253, 0));
        assert_eq!((dev_major(0x10302), dev_minor(0x10302)), (259, 2));
        let dev = (259u64 << 8) | (0x12345u64 & 0xff) | ((0x12345u64 & !0xff) << 12);
        assert_eq!((dev_major(dev), dev_minor(dev)), (259, 0x12345));
    }
}
