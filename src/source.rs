//! `Source`: the only reader of /proc, /sys and recorded answers, live or under a sysroot.
//!
//! Every probe reads through one `Source`. Live, paths are read as they are. With
//! `--sysroot DIR` every path is resolved *inside* DIR, the way a chroot would: absolute
//! symlinks restart at DIR, `..` never climbs above it, and loops end after 40 links, so a
//! capture sent by a stranger can neither point us at the host's `/etc/shadow` nor hang us.
//! Only regular files are opened under a sysroot (a FIFO or device node would block), and
//! every read is bounded. In capture mode the source also remembers what it read, so
//! `rigcheck capture` can copy exactly those files (the bytes the probes saw, not a re-read).
//!
//! Off Linux there is no live /proc or /sys, so live reads are refused with that reason. On
//! Windows every path opened under a sysroot is also checked against the root as the OS
//! itself resolves it, since Windows (and Wine) can follow links the walk does not see.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::ffi::OsString;
use std::fmt;
use std::fs;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};
use std::str::FromStr;
use std::sync::{Mutex, OnceLock};

use crate::bounded::Budget;

/// Most symlinks followed while resolving one path (the kernel's own limit is 40).
const MAX_SYMLINKS: usize = 40;

/// Why a fact could not be read. Each variant names the path so a note can tell the user
/// exactly what to fix ("run as root", "file is not there on this kernel").
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unknown {
    /// The file exists but this user may not read it (0400 files in sysfs).
    PermissionDenied(PathBuf),
    /// The file is not there: absent feature, VM, old kernel, or not captured.
    NotFound(PathBuf),
    /// The file was read but its text is not what the kernel writes there.
    Unparsable { path: PathBuf, detail: String },
    /// A replayed sysroot holds no recorded answer for a live-only fact.
    NotRecorded(&'static str),
    /// NVML could not be used (library missing, driver not loaded, ...).
    NvmlUnavailable(String),
    /// A sysroot entry we refuse to open: FIFO, device, symlink out of the root, loop.
    Refused { path: PathBuf, detail: String },
    /// Any other I/O error, with the OS text.
    Io { path: PathBuf, detail: String },
}

impl fmt::Display for Unknown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unknown::PermissionDenied(p) => {
                write!(f, "needs root: {} is readable by root only", p.display())
            }
            Unknown::NotFound(p) => write!(f, "{} is not present", p.display()),
            Unknown::Unparsable { path, detail } => {
                write!(f, "cannot parse {}: {detail}", path.display())
            }
            Unknown::NotRecorded(what) => write!(f, "not recorded in this sysroot: {what}"),
            Unknown::NvmlUnavailable(why) => write!(f, "NVML unavailable: {why}"),
            Unknown::Refused { path, detail } => {
                write!(f, "refused to read {}: {detail}", path.display())
            }
            Unknown::Io { path, detail } => write!(f, "cannot read {}: {detail}", path.display()),
        }
    }
}

impl Unknown {
    /// Builds an `Unparsable` for `path` with a short description of the bad text.
    pub fn unparsable(path: impl Into<PathBuf>, detail: impl Into<String>) -> Self {
        Unknown::Unparsable {
            path: path.into(),
            detail: detail.into(),
        }
    }

    /// True when the fact is simply absent (as opposed to unreadable or malformed).
    pub fn is_not_found(&self) -> bool {
        matches!(self, Unknown::NotFound(_))
    }
}

/// What a capture must reproduce: file contents as read, directory listings, symlinks.
#[derive(Debug, Default)]
pub struct Recording {
    /// Files read, by absolute path, with the exact bytes the probes saw.
    pub files: BTreeMap<PathBuf, Vec<u8>>,
    /// Directories listed, by absolute path.
    pub dirs: BTreeSet<PathBuf>,
    /// Paths whose symlink chain a probe followed (`canonical`, `read_link`).
    pub links: BTreeSet<PathBuf>,
    /// Files a probe asked for that were missing or unreadable; recorded so a capture
    /// can say what it could not take (e.g. root-only files when not root).
    pub unreadable: BTreeMap<PathBuf, String>,
    /// Recorded answers of live-only APIs, by file name (`cpuid.json`, `nvml.json`,
    /// `host.json`, `native.json`, and `rsmb.bin`, which is binary).
    pub answers: BTreeMap<String, Vec<u8>>,
}

/// Tables keyed by a path's bytes hash with foldhash: replay looks up a directory for each of
/// its thousands of reads, where std's SipHash showed in profiles.
type PathMap<V> = foldhash::HashMap<OsString, V>;

/// Directories kept open at most (`Source::dirs`): probes read a directory's files together,
/// but walk all CPUs once per kind of file (topology, caches, clocks), so every directory of
/// a large machine is kept (each an open descriptor, well under the usual limit of 1,024),
/// and all are let go past that.
const KEPT_DIRS: usize = 256;

/// One root for every read: the live host, or a recorded sysroot.
pub struct Source {
    root: PathBuf,
    live: bool,
    recording: Option<Mutex<Recording>>,
    /// Resolved real paths of directories already walked under a sysroot; sysfs paths share
    /// long prefixes (`/sys/devices/system/cpu/cpuN/...`), so this keeps replay fast.
    /// Keyed by the path's bytes: `Path`'s own hash walks it component by component, which
    /// showed in profiles of replay.
    resolved: Mutex<PathMap<PathBuf>>,
    /// Replay: files the capturing user could not read (`unreadable` in `capture.json`).
    denied: OnceLock<BTreeSet<PathBuf>>,
    /// The root as the OS resolves it, to check every opened path against it where a walk
    /// cannot see every link the OS follows (`sys::WALK_SEES_EVERY_LINK`: Windows).
    real_root: OnceLock<Result<PathBuf, String>>,
    /// /proc/meminfo as first read: the memory and limits probes both take from it, and one
    /// read gives them one moment's figures.
    meminfo: OnceLock<Result<String, Unknown>>,
    /// Directories kept open for reads relative to them, each under the path probes name it
    /// by (root-relative in replay, `read_in_dir`; absolute live, `read_live_in_dir`), so a
    /// hit costs one comparison of bytes and no resolution. A source is one run's reading of
    /// the machine (as `meminfo`), so what a directory was found to be stands for the run:
    /// every command opens a source of its own.
    dirs: Mutex<PathMap<Kept>>,
    /// Replay: the root, open, for the kernel to resolve directories inside it
    /// (`sys::open_dir_in_root`); `None` where it cannot be held open.
    root_dir: OnceLock<Option<std::sync::Arc<crate::sys::Dir>>>,
}

/// What a directory is to reads of its files (`Source::dirs`).
enum Kept {
    /// Open: its files are read relative to it.
    Open(std::sync::Arc<crate::sys::Dir>),
    /// Live: one file read from it so far, by its whole path.
    Once,
    /// Live: not there, so none of its files is.
    Missing,
    /// Live: there, but not to be opened (no permission): its files are read by whole path,
    /// which answers each as it should.
    Whole,
}

/// Keeps what `dir` is, letting every kept directory go first where `KEPT_DIRS` are kept and
/// `dir` is a new one.
fn keep(dirs: &mut PathMap<Kept>, dir: &Path, kept: Kept) {
    if dirs.len() >= KEPT_DIRS && !dirs.contains_key(dir.as_os_str()) {
        dirs.clear();
    }
    dirs.insert(dir.as_os_str().to_owned(), kept);
}

/// The kernel's memory figures (`Source::meminfo`).
pub const MEMINFO: &str = "/proc/meminfo";

/// Name of the capture's own facts (time, version, architecture) inside a sysroot.
pub const CAPTURE_FILE: &str = "capture.json";

/// Why live reads are refused off Linux: the probes read /proc and /sys, which other OSes do
/// not have (and Wine maps `/proc` to its Linux host's, which would pass for this machine).
const LIVE_LINUX_ONLY: &str =
    "live inventory reads /proc and /sys, which only Linux has; replay a capture with --sysroot";

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Source")
            .field("root", &self.root)
            .field("live", &self.live)
            .finish()
    }
}

impl Source {
    /// The live host: paths are read as they are, and live-only facts may be asked.
    pub fn live() -> Self {
        Source {
            root: PathBuf::from("/"),
            live: true,
            recording: None,
            resolved: Mutex::new(PathMap::default()),
            denied: OnceLock::new(),
            real_root: OnceLock::new(),
            meminfo: OnceLock::new(),
            dirs: Mutex::new(PathMap::default()),
            root_dir: OnceLock::new(),
        }
    }

    /// The live host, remembering every read so `capture` can copy it.
    pub fn live_recording() -> Self {
        let mut s = Source::live();
        s.recording = Some(Mutex::new(Recording::default()));
        s
    }

    /// A recorded machine under `root`; nothing live is touched.
    pub fn sysroot(root: impl Into<PathBuf>) -> Self {
        Source {
            root: root.into(),
            live: false,
            recording: None,
            resolved: Mutex::new(PathMap::default()),
            denied: OnceLock::new(),
            real_root: OnceLock::new(),
            meminfo: OnceLock::new(),
            dirs: Mutex::new(PathMap::default()),
            root_dir: OnceLock::new(),
        }
    }

    /// True for the live host; live-only facts (CPUID, NVML, the OS's calls) check this.
    pub fn is_live(&self) -> bool {
        self.live
    }

    /// The sysroot directory (`/` when live).
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Takes the recording made so far (capture mode only).
    pub fn take_recording(&self) -> Option<Recording> {
        let m = self.recording.as_ref()?;
        let mut guard = m.lock().unwrap_or_else(|e| e.into_inner());
        Some(std::mem::take(&mut *guard))
    }

    /// True while capturing: live-only probes then also store their answers.
    pub fn is_recording(&self) -> bool {
        self.recording.is_some()
    }

    /// Stores the recorded answers of a live-only API (capture mode; no-op otherwise).
    pub fn store_answer(&self, name: &str, answer: impl Into<Vec<u8>>) {
        self.record(|r| {
            r.answers.insert(name.to_string(), answer.into());
        });
    }

    fn record(&self, f: impl FnOnce(&mut Recording)) {
        if let Some(m) = &self.recording {
            let mut guard = m.lock().unwrap_or_else(|e| e.into_inner());
            f(&mut guard);
        }
    }

    /// Reads a recorded-answer file at the top of the sysroot (`nvml.json`, `capture.json`).
    /// Live there is no such file: the caller asks the live API instead.
    pub fn recorded(&self, name: &'static str) -> Result<String, Unknown> {
        let bytes = self.recorded_bytes(name)?;
        let text = match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        // JSON hides escape sequences as `\u001b`: cleaned string by string.
        Ok(crate::text::clean_json(&text).into_owned())
    }

    /// Reads a recorded-answer file as bytes (`rsmb.bin`); `NotRecorded` where it is absent.
    pub fn recorded_bytes(&self, name: &'static str) -> Result<Vec<u8>, Unknown> {
        if self.live {
            return Err(Unknown::NotRecorded(name));
        }
        self.read_bytes(Path::new("/").join(name))
            .map_err(|e| match e {
                Unknown::NotFound(_) => Unknown::NotRecorded(name),
                other => other,
            })
    }

    /// Reads a recorded log under the sysroot's root by its relative name
    /// (`smart/nvme0.bin`): a device's answer `capture` stored with `store_answer`. Live there
    /// is no such file (the device is asked instead): `NotRecorded`. A log the capturing user
    /// could not read answers `PermissionDenied`, as a root-only file does.
    pub fn recorded_log(&self, name: &str) -> Result<Vec<u8>, Unknown> {
        if self.live {
            return Err(Unknown::NotRecorded("a device's log"));
        }
        self.read_bytes(Path::new("/").join(name))
    }

    /// Notes, in capture mode, that what a probe asked of the OS at `path` (a recorded log's
    /// place in the capture, `/smart/nvme0.bin`) could not be had, and why: a reason that
    /// starts "needs root" lists it in `capture.json` as root's, so a replay says so too.
    pub fn record_unreadable(&self, path: &str, why: &str) {
        self.record(|r| {
            r.unreadable.insert(PathBuf::from(path), why.to_string());
        });
    }

    /// Reads a whole small file (bounded by `Budget::Text`) as bytes.
    pub fn read_bytes(&self, path: impl AsRef<Path>) -> Result<Vec<u8>, Unknown> {
        self.read_bytes_within(path, Budget::Text)
    }

    /// Reads a whole file as bytes, refusing it (with a note) past `budget`.
    pub fn read_bytes_within(
        &self,
        path: impl AsRef<Path>,
        budget: Budget,
    ) -> Result<Vec<u8>, Unknown> {
        let path = path.as_ref();
        let result = self.read_bytes_inner(path, budget);
        match &result {
            Ok(bytes) => self.record(|r| {
                r.files.insert(path.to_path_buf(), bytes.clone());
            }),
            Err(e) => self.record(|r| {
                r.unreadable.insert(path.to_path_buf(), e.to_string());
            }),
        }
        result
    }

    fn read_bytes_inner(&self, path: &Path, budget: Budget) -> Result<Vec<u8>, Unknown> {
        match self.read_bytes_resolved(path, budget) {
            Err(Unknown::NotFound(_)) if !self.live && self.denied().contains(path) => {
                Err(Unknown::PermissionDenied(path.to_path_buf()))
            }
            other => other,
        }
    }

    /// Files a capture run without root could not take: they read as "needs root" in replay,
    /// as they did live, instead of "not present".
    fn denied(&self) -> &BTreeSet<PathBuf> {
        self.denied.get_or_init(|| {
            #[derive(serde::Deserialize)]
            struct Meta {
                #[serde(default)]
                unreadable: Vec<PathBuf>,
            }
            self.read_bytes_resolved(&Path::new("/").join(CAPTURE_FILE), Budget::Text)
                .ok()
                .and_then(|b| serde_json::from_slice::<Meta>(&b).ok())
                .map(|m| m.unreadable.into_iter().collect())
                .unwrap_or_default()
        })
    }

    fn read_bytes_resolved(&self, path: &Path, budget: Budget) -> Result<Vec<u8>, Unknown> {
        let read = if self.live {
            self.read_live_in_dir(path, budget)
        } else {
            self.read_in_dir(path, budget)
        };
        if let Some(read) = read {
            return read;
        }
        let (real, walked) = self.resolve_with_meta(path, true)?;
        // A recorded file's size, where known: then one read takes it whole.
        let mut size = None;
        if !self.live {
            let meta = match walked {
                Some(m) => m,
                None => fs::metadata(&real).map_err(|e| io_unknown(path, &e))?,
            };
            let kind = if meta.is_file() {
                FileKind::Regular
            } else if meta.is_dir() {
                FileKind::Directory
            } else {
                FileKind::Other
            };
            size = Some(replayable(path, kind, meta.len(), budget)?);
        }
        let file = fs::File::open(&real).map_err(|e| io_unknown(path, &e))?;
        read_open(file, size, path, budget)
    }

    /// Replay's read of a file that is not a link, relative to its directory (opened once
    /// and kept while its files are read, as `lscpu --sysroot` does): the kernel then looks
    /// up one name per call instead of the whole path under the sysroot. `None` where the
    /// file is a link, or its directory cannot be opened: the walk (`resolve`) takes those.
    fn read_in_dir(&self, path: &Path, budget: Budget) -> Option<Result<Vec<u8>, Unknown>> {
        let rel = lexical_inside(path);
        let (parent, name) = split_last(&rel)?;
        let dir = match self.dir_fd(parent, path) {
            Ok(dir) => dir?,
            Err(e) => return Some(Err(e)),
        };
        let io = |e: io::Error| io_unknown(path, &e);
        let (kind, len) = match crate::sys::stat_in(&dir, name) {
            Ok(crate::sys::Entry::Link) => return None,
            Ok(crate::sys::Entry::File(len)) => (FileKind::Regular, len),
            Ok(crate::sys::Entry::Directory) => (FileKind::Directory, 0),
            Ok(crate::sys::Entry::Other) => (FileKind::Other, 0),
            Err(e) => return Some(Err(io(e))),
        };
        let size = match replayable(path, kind, len, budget) {
            Ok(size) => size,
            Err(e) => return Some(Err(e)),
        };
        Some(match crate::sys::open_in(&dir, name) {
            Ok(file) => read_open(file, Some(size), path, budget),
            Err(e) => Err(io(e)),
        })
    }

    /// Live: a file read relative to its directory, from the second file read there on (a
    /// CPU's cache attributes, a disk's queue): the kernel then looks up one name where the
    /// whole path is seven (`/sys/devices/system/cpu/cpu0/cache/index0/level`), and a
    /// directory that is not there (`cpufreq` in a virtual machine) answers for all of its
    /// files at once. `None` for the first file of a directory, and where the directory
    /// cannot be opened but is there: the whole path is opened.
    fn read_live_in_dir(&self, path: &Path, budget: Budget) -> Option<Result<Vec<u8>, Unknown>> {
        if crate::sys::LIVE != crate::sys::Live::Files || !path.is_absolute() {
            return None;
        }
        let (parent, name) = split_last(path).filter(|(p, _)| !p.as_os_str().is_empty())?;
        let missing = || Some(Err(Unknown::NotFound(path.to_path_buf())));
        let mut dirs = self.dirs.lock().unwrap_or_else(|e| e.into_inner());
        let dir = match dirs.get(parent.as_os_str()) {
            Some(Kept::Open(dir)) => dir.clone(),
            Some(Kept::Missing) => return missing(),
            Some(Kept::Whole) => return None,
            None => {
                keep(&mut dirs, parent, Kept::Once);
                return None;
            }
            Some(Kept::Once) => match crate::sys::open_dir(parent) {
                Ok(dir) => {
                    let dir = std::sync::Arc::new(dir);
                    keep(&mut dirs, parent, Kept::Open(dir.clone()));
                    dir
                }
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                    ) =>
                {
                    keep(&mut dirs, parent, Kept::Missing);
                    return missing();
                }
                Err(_) => {
                    keep(&mut dirs, parent, Kept::Whole);
                    return None;
                }
            },
        };
        drop(dirs);
        Some(match crate::sys::open_following_in(&dir, name) {
            Ok(file) => read_open(file, None, path, budget),
            Err(e) => Err(io_unknown(path, &e)),
        })
    }

    /// The open directory `parent` (relative to the root) from those kept, else resolved
    /// and opened. `Ok(None)` where it cannot be opened.
    fn dir_fd(
        &self,
        parent: &Path,
        orig: &Path,
    ) -> Result<Option<std::sync::Arc<crate::sys::Dir>>, Unknown> {
        if let Some(Kept::Open(fd)) = self
            .dirs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(parent.as_os_str())
        {
            return Ok(Some(fd.clone()));
        }
        let fd = match self.open_dir_in_root(parent) {
            Some(Ok(fd)) => fd,
            Some(Err(e)) => return Err(io_unknown(orig, &e)),
            None => {
                let dir = self.resolve_dir(parent, orig)?;
                let Ok(fd) = crate::sys::open_dir(&dir) else {
                    return Ok(None);
                };
                std::sync::Arc::new(fd)
            }
        };
        let mut dirs = self.dirs.lock().unwrap_or_else(|e| e.into_inner());
        keep(&mut dirs, parent, Kept::Open(fd.clone()));
        Ok(Some(fd))
    }

    /// Replay: the names in the directory `path`, opened by the kernel inside the root
    /// (`open_dir_in_root`): one call where the walk looks up each part of the path. `None`
    /// where this OS or kernel cannot; then the walk finds it.
    fn list_in_root(&self, path: &Path) -> Option<io::Result<Vec<std::ffi::OsString>>> {
        if self.live {
            return None;
        }
        let rel = lexical_inside(path);
        if rel.as_os_str().is_empty() {
            return None;
        }
        let opened = crate::sys::open_dir_in_root(self.root_dir()?.as_ref(), &rel)?;
        Some(opened.and_then(crate::sys::list_dir))
    }

    /// Replay: the root, opened once (`None` where it cannot be held open).
    fn root_dir(&self) -> Option<&std::sync::Arc<crate::sys::Dir>> {
        self.root_dir
            .get_or_init(|| {
                crate::sys::open_dir(&self.root)
                    .ok()
                    .map(std::sync::Arc::new)
            })
            .as_ref()
    }

    /// The directory `rel` (relative to the root) opened by the kernel with the root as
    /// its `/` (`sys::open_dir_in_root`): every link inside followed, none out of it. `None`
    /// where this OS or kernel cannot; then the walk (`resolve_dir`) finds it.
    fn open_dir_in_root(&self, rel: &Path) -> Option<io::Result<std::sync::Arc<crate::sys::Dir>>> {
        let root = self.root_dir()?;
        if rel.as_os_str().is_empty() {
            return Some(Ok(root.clone()));
        }
        Some(crate::sys::open_dir_in_root(root.as_ref(), rel)?.map(std::sync::Arc::new))
    }

    /// Reads a text file; invalid UTF-8 is replaced, so garbage reaches the parser and
    /// becomes an `Unparsable` note there instead of an I/O error here. Terminal escape
    /// sequences and other control characters are cleaned out here (`text::clean`), so no
    /// string a probe takes from a file can drive the terminal; a capture still records the
    /// bytes as they were.
    /// Small files only (`Budget::Text`); `read_string_within` takes a larger budget.
    pub fn read_string(&self, path: impl AsRef<Path>) -> Result<String, Unknown> {
        self.read_string_within(path, Budget::Text)
    }

    /// Reads a text file of up to `budget` bytes, as `read_string`.
    pub fn read_string_within(
        &self,
        path: impl AsRef<Path>,
        budget: Budget,
    ) -> Result<String, Unknown> {
        let bytes = self.read_bytes_within(path, budget)?;
        let s = match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        Ok(match crate::text::clean(&s) {
            std::borrow::Cow::Borrowed(_) => s,
            std::borrow::Cow::Owned(c) => c,
        })
    }

    /// /proc/meminfo, read once per source (`read_string` the first time, the same text after).
    pub fn meminfo(&self) -> Result<String, Unknown> {
        self.meminfo
            .get_or_init(|| self.read_string(MEMINFO))
            .clone()
    }

    /// Reads a one-value sysfs file (`Budget::Attribute`): trimmed of the trailing newline
    /// and space padding.
    pub fn read_value(&self, path: impl AsRef<Path>) -> Result<String, Unknown> {
        let mut value = self.read_string_within(path, Budget::Attribute)?;
        // Trimmed where it lies: most of a probe's reads are one-value files.
        value.truncate(value.trim_end().len());
        let lead = value.len() - value.trim_start().len();
        value.drain(..lead);
        Ok(value)
    }

    /// Reads a one-value file and parses it; the error names the file and the bad text.
    pub fn read_parse<T: FromStr>(&self, path: impl AsRef<Path>) -> Result<T, Unknown> {
        let path = path.as_ref();
        let text = self.read_value(path)?;
        text.parse::<T>()
            .map_err(|_| Unknown::unparsable(path, format!("'{}'", crate::text::clip(&text))))
    }

    /// True if the path exists (following symlinks inside the root).
    pub fn exists(&self, path: impl AsRef<Path>) -> bool {
        match self.resolve_with_meta(path.as_ref(), true) {
            Ok((_, Some(_))) => true,
            Ok((real, None)) => fs::metadata(real).is_ok(),
            Err(_) => false,
        }
    }

    /// Lists a directory's entry names, sorted.
    pub fn read_dir(&self, path: impl AsRef<Path>) -> Result<Vec<String>, Unknown> {
        let path = path.as_ref();
        let mut names: Vec<String> = match self.list_in_root(path) {
            Some(listed) => listed
                .map_err(|e| io_unknown(path, &e))?
                .into_iter()
                .filter_map(|n| n.into_string().ok())
                .collect(),
            None => {
                let real = self.resolve(path, true)?;
                let rd = fs::read_dir(&real).map_err(|e| io_unknown(path, &e))?;
                rd.filter_map(|e| e.ok())
                    .filter_map(|e| e.file_name().into_string().ok())
                    .collect()
            }
        };
        names.sort();
        self.record(|r| {
            r.dirs.insert(path.to_path_buf());
        });
        Ok(names)
    }

    /// Reads a symlink's target as written (not resolved).
    pub fn read_link(&self, path: impl AsRef<Path>) -> Result<PathBuf, Unknown> {
        let path = path.as_ref();
        let real = self.resolve(path, false)?;
        let target = fs::read_link(&real).map_err(|e| io_unknown(path, &e))?;
        self.record(|r| {
            r.links.insert(path.to_path_buf());
        });
        Ok(target)
    }

    /// Resolves every symlink in `path` and returns the canonical path as seen from inside
    /// the root (`readlink -f`), e.g. `/sys/block/vda` -> `/sys/devices/pci0000:00/.../vda`.
    pub fn canonical(&self, path: impl AsRef<Path>) -> Result<PathBuf, Unknown> {
        let path = path.as_ref();
        let out = if self.live {
            let path = self.resolve(path, true)?;
            crate::sys::canonicalize(&path).map_err(|e| io_unknown(&path, &e))?
        } else {
            let real = self.resolve(path, true)?;
            let inside = self.inside_root(&real).ok_or_else(|| Unknown::Refused {
                path: path.to_path_buf(),
                detail: "resolves outside the sysroot".into(),
            })?;
            slash_path(inside)
        };
        self.record(|r| {
            r.links.insert(path.to_path_buf());
        });
        Ok(out)
    }

    /// Maps a path to the host path to open. Live: the path itself. Under a sysroot: a
    /// chroot-style walk that keeps every step inside the root.
    fn resolve(&self, path: &Path, follow_last: bool) -> Result<PathBuf, Unknown> {
        self.resolve_with_meta(path, follow_last)
            .map(|(real, _)| real)
    }

    /// `resolve`, with the metadata of the path it resolved to where the walk already took it
    /// (the last step's `lstat` of a sysroot path that is not a link): a replayed read then
    /// needs no second `stat` of its own (`None` live, and where the walk cannot vouch).
    fn resolve_with_meta(
        &self,
        path: &Path,
        follow_last: bool,
    ) -> Result<(PathBuf, Option<fs::Metadata>), Unknown> {
        if self.live {
            if crate::sys::LIVE != crate::sys::Live::Files {
                return Err(Unknown::Refused {
                    path: path.to_path_buf(),
                    detail: LIVE_LINUX_ONLY.into(),
                });
            }
            return Ok((path.to_path_buf(), None));
        }
        let rel = lexical_inside(path);
        let mut meta = None;
        let real = if let Some(parent) = rel.parent() {
            let dir = self.resolve_dir(parent, path)?;
            let Some(name) = rel.file_name() else {
                return Ok((self.confine(path, dir, true)?, None));
            };
            let mut links = 0;
            self.walk(
                dir,
                Path::new(name),
                follow_last,
                &mut links,
                path,
                &mut meta,
            )?
        } else {
            self.root.clone()
        };
        if !crate::sys::WALK_SEES_EVERY_LINK {
            // The OS may resolve further than the walk saw: its metadata is not the file's.
            meta = None;
        }
        Ok((self.confine(path, real, follow_last)?, meta))
    }

    /// A resolved path relative to the root (`None` if it is not under it).
    fn inside_root<'a>(&self, real: &'a Path) -> Option<&'a Path> {
        if let Ok(inside) = real.strip_prefix(&self.root) {
            return Some(inside);
        }
        if let Some(Ok(root)) = self.real_root.get() {
            return real.strip_prefix(root).ok();
        }
        None
    }

    /// POSIX systems show every symlink to the walk, which keeps it inside the root. Windows
    /// can follow links the walk never saw: Wine shows a Unix symlink as the file it names,
    /// so an absolute link in a hostile sysroot would open the host's file. There the path
    /// the OS itself resolves must still be under the root's; it is what is opened.
    fn confine(&self, orig: &Path, real: PathBuf, follow_last: bool) -> Result<PathBuf, Unknown> {
        if crate::sys::WALK_SEES_EVERY_LINK {
            return Ok(real);
        }
        let root = self
            .real_root
            .get_or_init(|| fs::canonicalize(&self.root).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|detail| Unknown::Io {
                path: self.root.clone(),
                detail: detail.clone(),
            })?;
        // Without following the last link (read_link), only its directory is resolved.
        let (dir, name) = match (follow_last, real.parent(), real.file_name()) {
            (false, Some(parent), Some(name)) => (parent.to_path_buf(), Some(name.to_owned())),
            _ => (real, None),
        };
        let resolved = fs::canonicalize(&dir).map_err(|e| io_unknown(orig, &e))?;
        if !resolved.starts_with(root) {
            return Err(Unknown::Refused {
                path: orig.to_path_buf(),
                detail: "resolves outside the sysroot".into(),
            });
        }
        Ok(match name {
            Some(n) => resolved.join(n),
            None => resolved,
        })
    }

    /// Resolves a directory path (relative to the root), cached.
    fn resolve_dir(&self, rel: &Path, orig: &Path) -> Result<PathBuf, Unknown> {
        self.resolve_dir_counted(rel, orig, &mut 0)
    }

    /// `resolve_dir`, counting the links it follows in `links` with the walk that asked: a
    /// link whose target runs through itself then ends at `MAX_SYMLINKS`, not in recursion.
    fn resolve_dir_counted(
        &self,
        rel: &Path,
        orig: &Path,
        links: &mut usize,
    ) -> Result<PathBuf, Unknown> {
        if rel.as_os_str().is_empty() {
            return Ok(self.root.clone());
        }
        if let Some(hit) = self.cache_get(rel) {
            return Ok(hit);
        }
        // Resolve the parent first (cached), then only the last component: siblings such as
        // cpu0..cpu95 then cost one lookup each instead of a walk from the root.
        let base = match rel.parent() {
            Some(parent) => self.resolve_dir_counted(parent, orig, links)?,
            None => self.root.clone(),
        };
        let last = rel.file_name().map_or_else(PathBuf::new, PathBuf::from);
        let real = self.walk(base, &last, true, links, orig, &mut None)?;
        self.resolved
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(rel.as_os_str().to_owned(), real.clone());
        Ok(real)
    }

    fn cache_get(&self, rel: &Path) -> Option<PathBuf> {
        self.resolved
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(rel.as_os_str())
            .cloned()
    }

    /// Walks `rel` from the already-resolved host directory `base`, following symlinks
    /// with the sysroot as `/`. `meta` ends as the `lstat` of the path returned when the
    /// walk's last step took it (the last component, not a link followed), else `None`.
    fn walk(
        &self,
        base: PathBuf,
        rel: &Path,
        follow_last: bool,
        links: &mut usize,
        orig: &Path,
        meta: &mut Option<fs::Metadata>,
    ) -> Result<PathBuf, Unknown> {
        let mut cur = base;
        let comps: Vec<_> = rel.components().collect();
        for (i, comp) in comps.iter().enumerate() {
            let last = i + 1 == comps.len();
            match comp {
                Component::Normal(name) => {
                    let next = cur.join(name);
                    let step = match fs::symlink_metadata(&next) {
                        Ok(m) => m,
                        Err(e) => return Err(io_unknown(orig, &e)),
                    };
                    *meta = None;
                    if step.file_type().is_symlink() && (!last || follow_last) {
                        *links += 1;
                        if *links > MAX_SYMLINKS {
                            return Err(Unknown::Refused {
                                path: orig.to_path_buf(),
                                detail: "too many levels of symbolic links".into(),
                            });
                        }
                        let target = fs::read_link(&next).map_err(|e| io_unknown(orig, &e))?;
                        let start = if target.is_absolute() {
                            self.root.clone()
                        } else {
                            cur.clone()
                        };
                        // Clamp `..` at the root: normalise the target relative to `start`.
                        let start_rel = start.strip_prefix(&self.root).unwrap_or(Path::new(""));
                        let joined = lexical_inside(&Path::new("/").join(start_rel).join(&target))
                            .into_owned();
                        // The target's directory through the cache: sysfs links share their
                        // targets' parents (cpuN/cpufreq -> ../cpufreq/policyN).
                        cur = match (joined.parent(), joined.file_name()) {
                            (Some(parent), Some(name)) => {
                                let dir = self.resolve_dir_counted(parent, orig, links)?;
                                self.walk(dir, Path::new(name), true, links, orig, meta)?
                            }
                            _ => self.walk(self.root.clone(), &joined, true, links, orig, meta)?,
                        };
                    } else {
                        cur = next;
                        *meta = Some(step);
                    }
                }
                Component::ParentDir if cur != self.root => {
                    cur.pop();
                    *meta = None;
                }
                _ => {}
            }
        }
        Ok(cur)
    }
}

/// `/` and the root-relative path, always with `/` between parts: probes take sysfs paths
/// apart as text, and Windows would otherwise join them with `\\`.
fn slash_path(inside: &Path) -> PathBuf {
    if std::path::MAIN_SEPARATOR != '/' {
        let parts: Vec<_> = inside
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        PathBuf::from(format!("/{}", parts.join("/")))
    } else {
        Path::new("/").join(inside)
    }
}

/// Lexical normalisation of a path, made absolute against `/`: `a/b/../c` -> `/a/c`, and
/// `..` never climbs above `/`.
pub fn normalize(path: &Path) -> PathBuf {
    Path::new("/").join(lexical_inside(path))
}

/// Normalises an absolute path lexically and returns it relative to `/`, with `..` clamped
/// at the top (so `/../../etc` is `etc`).
fn lexical_inside(path: &Path) -> Cow<'_, Path> {
    if let Some(rel) = already_inside(path) {
        return Cow::Borrowed(rel);
    }
    let mut out = PathBuf::new();
    for comp in path.components() {
        match comp {
            Component::Normal(n) => out.push(n),
            Component::ParentDir => {
                out.pop();
            }
            _ => {}
        }
    }
    Cow::Owned(out)
}

/// `path` relative to `/` where it is already normal (`/`, then parts that are neither
/// empty, `.` nor `..`, split by `/`): what probes ask for, so most reads take no walk over
/// components and no allocation here.
fn already_inside(path: &Path) -> Option<&Path> {
    if std::path::MAIN_SEPARATOR != '/' {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        // Most paths have no empty part and no part that starts with a dot: a look at what
        // follows each `/` says so, without taking the bytes as text. The rest take the
        // pass below.
        let bytes = path.as_os_str().as_bytes();
        if let [b'/', rest @ ..] = bytes {
            if memchr::memchr_iter(b'/', bytes)
                .all(|at| !matches!(bytes.get(at + 1), None | Some(b'/' | b'.')))
            {
                return Some(Path::new(std::ffi::OsStr::from_bytes(rest)));
            }
        }
    }
    let rest = path.to_str()?.strip_prefix('/')?;
    // One pass over the bytes, counting each part's length and its dots: every read pays
    // for this, so no split into parts and no searcher set up per call.
    let (mut len, mut dots) = (0, 0);
    let odd = |len: usize, dots: usize| len == 0 || (len <= 2 && dots == len);
    for &c in rest.as_bytes() {
        if c == b'/' {
            if odd(len, dots) {
                return None;
            }
            (len, dots) = (0, 0);
        } else {
            len += 1;
            dots += usize::from(c == b'.');
        }
    }
    if odd(len, dots) {
        return None;
    }
    Some(Path::new(rest))
}

/// A root-relative path's directory and last part, as `Path::parent` and `Path::file_name`
/// give them, split on the last `/` (on the bytes: a path need not be text, and checking
/// that it is costs a pass over it).
#[cfg(unix)]
fn split_last(rel: &Path) -> Option<(&Path, &std::ffi::OsStr)> {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let bytes = rel.as_os_str().as_bytes();
    let (parent, name) = match memchr::memrchr(b'/', bytes) {
        Some(at) => (&bytes[..at], &bytes[at + 1..]),
        None => (&[][..], bytes),
    };
    (!name.is_empty() && name != b"..").then(|| {
        (
            Path::new(OsStr::from_bytes(parent)),
            OsStr::from_bytes(name),
        )
    })
}

/// A root-relative path's directory and last part.
#[cfg(not(unix))]
fn split_last(rel: &Path) -> Option<(&Path, &std::ffi::OsStr)> {
    Some((rel.parent()?, rel.file_name()?))
}

/// What a sysroot path is, as far as replay cares.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FileKind {
    Regular,
    Directory,
    Other,
}

/// Under a sysroot only plain files are opened (a FIFO or a device node would block or read
/// forever), and a recorded file's size is its real size (live sysfs and procfs files claim
/// 4096 or 0 bytes), so one too big is refused unread. The size to read, if it may be read.
fn replayable(path: &Path, kind: FileKind, len: u64, budget: Budget) -> Result<usize, Unknown> {
    let refused = |detail: String| Unknown::Refused {
        path: path.to_path_buf(),
        detail,
    };
    match kind {
        FileKind::Regular => {}
        FileKind::Directory => return Err(refused("a directory".into())),
        FileKind::Other => return Err(refused("not a regular file".into())),
    }
    if len > budget.bytes() {
        return Err(refused(budget.refusal()));
    }
    usize::try_from(len).map_err(|_| refused(budget.refusal()))
}

/// Reads an opened file whole, within `budget`. With the `size` a sysroot's `stat` gave, a
/// read that returns that much ends the file: replay reads thousands of small files, and the
/// second read would only find their end. Live files (sysfs and procfs claim 4096 or 0
/// bytes), or one that changed size since `stat`, are read to the end, but for a live sysfs
/// attribute, which one read that leaves room in its buffer takes whole.
fn read_open(
    file: fs::File,
    size: Option<usize>,
    path: &Path,
    budget: Budget,
) -> Result<Vec<u8>, Unknown> {
    let mut file = file.take(budget.bytes() + 1);
    // Live files claim 0 bytes (procfs) or 4096 (sysfs) whatever they hold: a page to start
    // with takes nearly all of them in one read, where an empty buffer would start at 32
    // bytes and double (nine reads of a small /proc/cpuinfo).
    // Live (no size), a sysfs attribute is made whole by one call of its `show` (at most a
    // page) and handed out from there: a read that leaves room in the buffer has it all, and
    // the second read would only find the end. Most hold a few bytes; a longer one (a large
    // machine's CPU mask) fills the buffer and is read on to the end.
    const SHORT: usize = 256;
    let attribute = size.is_none()
        && budget == Budget::Attribute
        && path.as_os_str().as_encoded_bytes().starts_with(b"/sys/");
    let mut buf = Vec::with_capacity(match size {
        Some(_) => 0,
        None if attribute => SHORT,
        None => 4096,
    });
    if attribute {
        buf.resize(SHORT, 0);
        let n = loop {
            match file.read(&mut buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                other => break other.map_err(|e| io_unknown(path, &e))?,
            }
        };
        buf.truncate(n);
        if n < SHORT {
            return Ok(buf);
        }
    }
    if let Some(size) = size {
        match crate::io::read_to_size(&mut file, size, &mut buf) {
            Ok(true) => return Ok(buf),
            Ok(false) => {}
            Err(e) => return Err(io_unknown(path, &e)),
        }
    }
    file.read_to_end(&mut buf)
        .map_err(|e| io_unknown(path, &e))?;
    if buf.len() as u64 > budget.bytes() {
        return Err(Unknown::Refused {
            path: path.to_path_buf(),
            detail: budget.refusal(),
        });
    }
    Ok(buf)
}

fn io_unknown(path: &Path, e: &io::Error) -> Unknown {
    match e.kind() {
        // A file where a directory was expected (ENOTDIR): the path is simply not there.
        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory => {
            Unknown::NotFound(path.to_path_buf())
        }
        io::ErrorKind::PermissionDenied => Unknown::PermissionDenied(path.to_path_buf()),
        _ if crate::sys::is_symlink_loop(e) => Unknown::Refused {
            path: path.to_path_buf(),
            detail: "too many levels of symbolic links".into(),
        },
        _ => Unknown::Io {
            path: path.to_path_buf(),
            detail: e.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(unix)]
    use std::os::unix::fs::symlink;

    /// The short way through `lexical_inside` is taken for normal paths only, and gives what
    /// the walk over components gives; `split_last` parts a path as `Path` does.
    #[cfg(unix)]
    #[test]
    fn normal_paths_take_the_short_way_and_agree_with_the_walk() {
        let walked = |p: &str| -> PathBuf {
            let mut out = PathBuf::new();
            for comp in Path::new(p).components() {
                match comp {
                    Component::Normal(n) => out.push(n),
                    Component::ParentDir => {
                        out.pop();
                    }
                    _ => {}
                }
            }
            out
        };
        let normal = [
            "/sys/devices/system/cpu/cpu0/cache/index0/size",
            "/sys/bus/pci/devices/0000:00:02.0/class",
            "/a/.hidden/b",
            "/a/..b/c",
            "/a/b.",
            "/a/b..",
            "/x",
        ];
        for p in normal {
            assert!(already_inside(Path::new(p)).is_some(), "{p}");
            assert_eq!(lexical_inside(Path::new(p)).as_ref(), walked(p), "{p}");
            let rel = lexical_inside(Path::new(p));
            let (parent, name) = split_last(&rel).unwrap();
            assert_eq!(Some(parent), rel.parent(), "{p}");
            assert_eq!(Some(name), rel.file_name(), "{p}");
        }
        let other = [
            "/", "/a//b", "/a/./b", "/a/../b", "/a/b/", "/a/.", "/a/..", "a/b", "//a", "/./a",
            "/../a", "/..", "/.",
        ];
        for p in other {
            assert!(already_inside(Path::new(p)).is_none(), "{p}");
            assert_eq!(lexical_inside(Path::new(p)).as_ref(), walked(p), "{p}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn sysroot_symlink_out_of_root_stays_inside() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("etc/ssh")).unwrap();
        fs::write(root.join("etc/shadow"), "inside").unwrap();
        fs::create_dir_all(root.join("proc")).unwrap();
        symlink("/etc/shadow", root.join("proc/abs")).unwrap();
        symlink("../../../../../etc/shadow", root.join("proc/rel")).unwrap();
        fs::create_dir_all(root.join("sys/class")).unwrap();
        symlink("/etc", root.join("sys/class/abs")).unwrap();
        symlink("../../../../../../etc", root.join("sys/class/rel")).unwrap();
        let src = Source::sysroot(root);
        assert_eq!(src.read_value("/proc/abs").unwrap(), "inside");
        assert_eq!(src.read_value("/proc/rel").unwrap(), "inside");
        // A directory listed through such links is the sysroot's too; a missing one and a
        // file are errors naming the path asked for.
        for p in ["/sys/class/abs", "/sys/class/rel", "/etc", "/sys/../etc"] {
            assert_eq!(src.read_dir(p).unwrap(), ["shadow", "ssh"], "{p}");
        }
        assert_eq!(src.read_dir("/sys").unwrap(), ["class"]);
        let missing = src.read_dir("/sys/block").unwrap_err();
        assert!(matches!(missing, Unknown::NotFound(ref p) if p == Path::new("/sys/block")));
        let file = src.read_dir("/etc/shadow").unwrap_err();
        assert!(file.to_string().contains("/etc/shadow"), "{file}");
    }

    #[cfg(unix)]
    #[test]
    fn sysroot_symlink_loop_is_refused_not_hung() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        symlink("b", root.join("a")).unwrap();
        symlink("a", root.join("b")).unwrap();
        let src = Source::sysroot(root);
        let err = src.read_value("/a").unwrap_err();
        assert!(matches!(err, Unknown::Refused { .. }), "{err:?}");
    }

    #[cfg(unix)]
    #[test]
    fn sysroot_link_through_itself_is_refused_not_recursed() {
        // `a` names a path under itself: each step resolves `a` again, through the cache of
        // directories, and the count of links followed must still end it.
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        symlink("/a/b", root.join("a")).unwrap();
        let src = Source::sysroot(root);
        let err = src.read_value("/a/x").unwrap_err();
        assert!(matches!(err, Unknown::Refused { .. }), "{err:?}");
        assert!(err.to_string().contains("too many levels"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn sysroot_reads_through_links_and_kept_directories() {
        // sysfs's shape: cpuN/cpufreq -> ../cpufreq/policyN, read many times over.
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let cpu = root.join("sys/devices/system/cpu");
        for n in 0..12 {
            let policy = cpu.join(format!("cpufreq/policy{n}"));
            fs::create_dir_all(&policy).unwrap();
            fs::write(policy.join("scaling_max_freq"), format!("{}\n", 1000 + n)).unwrap();
            fs::create_dir_all(cpu.join(format!("cpu{n}"))).unwrap();
            symlink(
                format!("../cpufreq/policy{n}"),
                cpu.join(format!("cpu{n}/cpufreq")),
            )
            .unwrap();
        }
        let src = Source::sysroot(root);
        for round in 0..2 {
            for n in 0..12 {
                let path = format!("/sys/devices/system/cpu/cpu{n}/cpufreq/scaling_max_freq");
                assert_eq!(
                    src.read_parse::<u32>(&path).unwrap(),
                    1000 + n,
                    "round {round}"
                );
            }
        }
        // A directory and a link to nowhere read as they are, not as the file last read.
        let policy = "/sys/devices/system/cpu/cpufreq/policy0";
        assert!(matches!(
            src.read_value(policy),
            Err(Unknown::Refused { .. })
        ));
        symlink("nowhere", cpu.join("cpu0/gone")).unwrap();
        let gone = src.read_value("/sys/devices/system/cpu/cpu0/gone");
        assert!(matches!(gone, Err(Unknown::NotFound(_))), "{gone:?}");
    }

    #[cfg(unix)]
    #[test]
    fn sysroot_fifo_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: c is a valid NUL-terminated path.
        #[allow(unsafe_code)]
        let rc = unsafe { libc::mkfifo(c.as_ptr(), 0o644) };
        assert_eq!(rc, 0);
        let src = Source::sysroot(dir.path());
        assert!(matches!(
            src.read_value("/fifo"),
            Err(Unknown::Refused { .. })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn canonical_under_sysroot_is_root_relative() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("sys/devices/virtio1/block/vda")).unwrap();
        fs::create_dir_all(root.join("sys/block")).unwrap();
        symlink("../devices/virtio1/block/vda", root.join("sys/block/vda")).unwrap();
        let src = Source::sysroot(root);
        assert_eq!(
            src.canonical("/sys/block/vda").unwrap(),
            PathBuf::from("/sys/devices/virtio1/block/vda")
        );
    }

    #[test]
    fn missing_file_is_not_found_with_path() {
        let dir = tempfile::tempdir().unwrap();
        let src = Source::sysroot(dir.path());
        let err = src.read_value("/proc/meminfo").unwrap_err();
        assert_eq!(err, Unknown::NotFound("/proc/meminfo".into()));
        assert_eq!(err.to_string(), "/proc/meminfo is not present");
    }

    /// Live reads answer alike whether a file is the first of its directory (whole path),
    /// a later one (relative to the directory, kept open), in a directory that is not there,
    /// or through a link; each answer is the file's own.
    #[cfg(target_os = "linux")]
    #[test]
    fn live_reads_through_kept_directories_answer_as_whole_paths() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("attrs");
        std::fs::create_dir(&d).unwrap();
        for (name, text) in [("level", "2\n"), ("type", "Unified\n"), ("size", "1024K\n")] {
            std::fs::write(d.join(name), text).unwrap();
        }
        symlink(d.join("size"), d.join("size_link")).unwrap();
        let src = Source::live();
        let path = |name: &str| d.join(name);
        for _ in 0..2 {
            assert_eq!(src.read_value(path("level")).unwrap(), "2");
            assert_eq!(src.read_value(path("type")).unwrap(), "Unified");
            assert_eq!(src.read_value(path("size")).unwrap(), "1024K");
            assert_eq!(src.read_value(path("size_link")).unwrap(), "1024K");
            assert_eq!(
                src.read_value(path("absent")).unwrap_err(),
                Unknown::NotFound(path("absent"))
            );
        }
        // A directory that is not there: every file of it is not present.
        let gone = dir.path().join("cpufreq");
        for name in ["cpuinfo_max_freq", "cpuinfo_min_freq", "scaling_driver"] {
            assert_eq!(
                src.read_value(gone.join(name)).unwrap_err(),
                Unknown::NotFound(gone.join(name))
            );
        }
        // A file where its directory should be: not present either, as the whole path says.
        let file_dir = path("level");
        for name in ["a", "b"] {
            assert_eq!(
                src.read_value(file_dir.join(name)).unwrap_err(),
                Unknown::NotFound(file_dir.join(name))
            );
        }
    }

    /// A live sysfs attribute read in one short read holds what reading to the end holds,
    /// for short values and for one longer than the first read's buffer.
    #[cfg(target_os = "linux")]
    #[test]
    fn live_sysfs_attributes_read_once_hold_the_whole_value() {
        let src = Source::live();
        let mut checked = 0;
        for path in [
            "/sys/devices/system/cpu/online",
            "/sys/devices/system/cpu/possible",
            "/sys/devices/system/cpu/cpu0/topology/core_cpus_list",
            "/sys/kernel/mm/transparent_hugepage/enabled",
            "/sys/devices/system/cpu/vulnerabilities/spectre_v2",
            "/sys/class/net/lo/uevent",
            "/sys/class/net/lo/address",
        ] {
            let Ok(whole) = std::fs::read_to_string(path) else {
                continue;
            };
            assert_eq!(src.read_value(path).unwrap(), whole.trim(), "{path}");
            checked += 1;
        }
        if Path::new("/sys/devices/system/cpu/online").exists() {
            assert!(checked > 1);
        }
    }
}
