//! `Source`: the only reader of /proc, /sys and recorded answers, live or under a sysroot.
//!
//! Every probe reads through one `Source`. Live, each path is opened as it is (std's `open`)
//! and read within its budget. With `--sysroot DIR` every path is resolved *inside* DIR, the
//! way a chroot would: absolute symlinks restart at DIR, `..` never climbs above it, and
//! loops end after 40 links, so a capture sent by a stranger can neither point us at the
//! host's `/etc/shadow` nor hang us. DIR is opened once (`sys::Root`) and every file of the
//! replay is opened beneath that descriptor, by the kernel (`openat2` with
//! `RESOLVE_IN_ROOT` on Linux) or by a walk that opens one part at a time and follows no
//! link by name; what is read is the descriptor opened, so a writer swapping links while
//! the replay runs cannot lead it out of DIR. Each file is opened without blocking and
//! read only if `fstat` of that descriptor says it is a plain file within its budget (a
//! FIFO or device node is refused with a note), and then in one read of the size `fstat`
//! gave. In capture mode the source also remembers what it read, so `rigcheck capture` can
//! copy exactly those files (the bytes the probes saw, not a re-read).
//!
//! Off Linux there is no live /proc or /sys, so live reads are refused with that reason. On
//! Windows every path opened under a sysroot is walked by name and also checked against the
//! root as the OS itself resolves it, since Windows (and Wine) can follow links the walk
//! does not see (`sys::fallback::Root`).

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs;
use std::io::{self, Read};
use std::path::{Component, Path, PathBuf};
use std::str::FromStr;
use std::sync::{Mutex, OnceLock};

use crate::bounded::Budget;
use crate::sys::Opened;

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
    pub unreadable: BTreeMap<PathBuf, Unknown>,
    /// Recorded answers of live-only APIs, by file name (`cpuid.json`, `nvml.json`,
    /// `host.json`, `native.json`, and `rsmb.bin`, which is binary).
    pub answers: BTreeMap<String, Vec<u8>>,
}

/// One root for every read: the live host, or a recorded sysroot.
pub struct Source {
    root: PathBuf,
    live: bool,
    recording: Option<Mutex<Recording>>,
    /// Replay: files the capturing user could not read (`unreadable` in `capture.json`).
    denied: OnceLock<BTreeSet<PathBuf>>,
    /// /proc/meminfo as first read: the memory and limits probes both take from it, and one
    /// read gives them one moment's figures.
    meminfo: OnceLock<Result<String, Unknown>>,
    /// Replay: how paths are resolved beneath the root (the kernel where it can; the walk
    /// alone where a test asks for it).
    lookup: crate::sys::Lookup,
    /// Replay: the root, opened once on first use; every path of the replay is opened
    /// beneath it (or why it cannot be opened, which every read then answers).
    opened: OnceLock<io::Result<crate::sys::Root>>,
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
            denied: OnceLock::new(),
            meminfo: OnceLock::new(),
            lookup: crate::sys::Lookup::Kernel,
            opened: OnceLock::new(),
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
            live: false,
            root: root.into(),
            ..Source::live()
        }
    }

    /// A recorded machine whose paths are resolved by the walk alone, as where the kernel
    /// cannot resolve them beneath the root: the walk is then tested on kernels that can.
    #[cfg(test)]
    pub(crate) fn sysroot_walked(root: impl Into<PathBuf>) -> Self {
        Source {
            lookup: crate::sys::Lookup::Walk,
            ..Source::sysroot(root)
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
    /// place in the capture, `/smart/nvme0.bin`) could not be had, and why: a call
    /// the OS refused for want of permission lists it in `capture.json` as root's, so a
    /// replay says so too.
    pub fn record_unreadable(&self, path: &str, e: &io::Error, why: &str) {
        let path = PathBuf::from(path);
        let unknown = if e.kind() == io::ErrorKind::PermissionDenied {
            Unknown::PermissionDenied(path.clone())
        } else {
            Unknown::Io {
                path: path.clone(),
                detail: why.to_string(),
            }
        };
        self.record(|r| {
            r.unreadable.insert(path, unknown);
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
                r.unreadable.insert(path.to_path_buf(), e.clone());
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

    /// Live, the path opened as it is. Replayed, the path opened beneath the root
    /// (`sys::Root::open_file`), and only a plain file within `budget` read: a FIFO or a
    /// device swapped in is refused from the descriptor opened, never read.
    fn read_bytes_resolved(&self, path: &Path, budget: Budget) -> Result<Vec<u8>, Unknown> {
        if self.live {
            live_files(path)?;
            let file = fs::File::open(path).map_err(|e| io_unknown(path, &e))?;
            return read_open(file, None, path, budget);
        }
        let opened = self
            .replay_root(path)?
            .open_file(&lexical_inside(path))
            .map_err(|e| io_unknown(path, &e))?;
        let refused = |detail: &str| Unknown::Refused {
            path: path.to_path_buf(),
            detail: detail.into(),
        };
        match opened {
            Opened::File(file, len) => {
                let size = replayable(path, len, budget)?;
                read_open(file, Some(size), path, budget)
            }
            Opened::Directory => Err(refused("a directory")),
            Opened::Other => Err(refused("not a regular file")),
        }
    }

    /// Replay: the root, opened once, or why a path under it cannot be read.
    fn replay_root(&self, path: &Path) -> Result<&crate::sys::Root, Unknown> {
        self.opened
            .get_or_init(|| crate::sys::Root::open(&self.root, self.lookup))
            .as_ref()
            .map_err(|e| io_unknown(path, e))
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
        let path = path.as_ref();
        if self.live {
            return live_files(path).is_ok() && path.exists();
        }
        self.replay_root(path)
            .is_ok_and(|root| root.exists(&lexical_inside(path)))
    }

    /// Lists a directory's entry names, sorted.
    pub fn read_dir(&self, path: impl AsRef<Path>) -> Result<Vec<String>, Unknown> {
        let path = path.as_ref();
        let listed = if self.live {
            live_files(path)?;
            fs::read_dir(path).and_then(|rd| rd.map(|e| e.map(|e| e.file_name())).collect())
        } else {
            self.replay_root(path)?.list_dir(&lexical_inside(path))
        };
        let mut names: Vec<String> = listed
            .map_err(|e| io_unknown(path, &e))?
            .into_iter()
            .filter_map(|n| n.into_string().ok())
            .collect();
        names.sort();
        self.record(|r| {
            r.dirs.insert(path.to_path_buf());
        });
        Ok(names)
    }

    /// Reads a symlink's target as written (not resolved).
    pub fn read_link(&self, path: impl AsRef<Path>) -> Result<PathBuf, Unknown> {
        let path = path.as_ref();
        let target = if self.live {
            live_files(path)?;
            fs::read_link(path)
        } else {
            self.replay_root(path)?.read_link(&lexical_inside(path))
        };
        let target = target.map_err(|e| io_unknown(path, &e))?;
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
            live_files(path)?;
            fs::canonicalize(path)
        } else {
            self.replay_root(path)?.canonical(&lexical_inside(path))
        };
        let out = out.map_err(|e| io_unknown(path, &e))?;
        self.record(|r| {
            r.links.insert(path.to_path_buf());
        });
        Ok(out)
    }
}

/// Live reads are of /proc and /sys, which only Linux has: refused elsewhere.
fn live_files(path: &Path) -> Result<(), Unknown> {
    if crate::sys::LIVE == crate::sys::Live::Files {
        return Ok(());
    }
    Err(Unknown::Refused {
        path: path.to_path_buf(),
        detail: LIVE_LINUX_ONLY.into(),
    })
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
    // Most paths have no empty part and no part that starts with a dot: a look at what
    // follows each `/` says so, without taking the bytes as text. The rest take the pass
    // below.
    let bytes = path.as_os_str().as_encoded_bytes();
    if bytes.first() == Some(&b'/')
        && memchr::memchr_iter(b'/', bytes)
            .all(|at| !matches!(bytes.get(at + 1), None | Some(b'/' | b'.')))
    {
        return path.strip_prefix("/").ok();
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

/// A recorded file's size is its real size (live sysfs and procfs files claim 4096 or 0
/// bytes), so one too big is refused unread. The size to read, if it may be read.
fn replayable(path: &Path, len: u64, budget: Budget) -> Result<usize, Unknown> {
    let refused = || Unknown::Refused {
        path: path.to_path_buf(),
        detail: budget.refusal(),
    };
    if len > budget.bytes() {
        return Err(refused());
    }
    usize::try_from(len).map_err(|_| refused())
}

/// Reads an opened file whole, within `budget`. With the `size` a sysroot's `fstat` gave, a
/// read that returns that much ends the file: replay reads thousands of small files, and the
/// second read would only find their end. Live files (sysfs and procfs claim 4096 or 0
/// bytes), or one that changed size since `fstat`, are read to the end.
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
    let mut buf = Vec::with_capacity(if size.is_some() { 0 } else { 4096 });
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
    if let Some(refusal) = crate::sys::refusal(e) {
        return Unknown::Refused {
            path: path.to_path_buf(),
            detail: refusal.to_string(),
        };
    }
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

    /// Both ways a replay resolves its paths: the kernel's (where it has `openat2`) and the
    /// walk's, which runs where it has not.
    fn both(root: &Path) -> [Source; 2] {
        [Source::sysroot(root), Source::sysroot_walked(root)]
    }

    /// Makes a named pipe at `path`.
    #[cfg(unix)]
    fn mkfifo(path: &Path) {
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        // SAFETY: c is a valid NUL-terminated path.
        #[allow(unsafe_code)]
        let rc = unsafe { libc::mkfifo(c.as_ptr(), 0o644) };
        assert_eq!(rc, 0);
    }

    /// The short way through `lexical_inside` is taken for normal paths only, and gives what
    /// the walk over components gives.
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
        for src in both(root) {
            assert_eq!(src.read_value("/proc/abs").unwrap(), "inside");
            assert_eq!(src.read_value("/proc/rel").unwrap(), "inside");
            // A directory listed through such links is the sysroot's too; a missing one and
            // a file are errors naming the path asked for.
            for p in ["/sys/class/abs", "/sys/class/rel", "/etc", "/sys/../etc"] {
                assert_eq!(src.read_dir(p).unwrap(), ["shadow", "ssh"], "{p}");
            }
            assert_eq!(src.read_dir("/sys").unwrap(), ["class"]);
            let missing = src.read_dir("/sys/block").unwrap_err();
            assert!(matches!(missing, Unknown::NotFound(ref p) if p == Path::new("/sys/block")));
            let file = src.read_dir("/etc/shadow").unwrap_err();
            assert!(file.to_string().contains("/etc/shadow"), "{file}");
            assert_eq!(
                src.canonical("/sys/class/rel/shadow").unwrap(),
                Path::new("/etc/shadow")
            );
            assert!(src.exists("/proc/abs") && !src.exists("/proc/none"));
            assert_eq!(
                src.read_link("/proc/abs").unwrap(),
                Path::new("/etc/shadow")
            );
        }
    }

    /// The walk keeps `..` at the root however many a link holds, restarts an absolute link
    /// at the root, and counts the links of one path across every step.
    #[cfg(unix)]
    #[test]
    fn the_walk_clamps_dotdot_restarts_absolute_links_and_stops_at_forty() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("a/b/c")).unwrap();
        fs::write(root.join("top"), "top").unwrap();
        fs::write(root.join("a/b/c/deep"), "deep").unwrap();
        // `..` past the root stays at it, mid-path too.
        symlink("../../../../../../../top", root.join("a/b/c/up")).unwrap();
        symlink("../../../../../../a/b/../b/c", root.join("a/mid")).unwrap();
        // An absolute link starts again at the root, from any depth; one to `/` is the root.
        symlink("/a/b/c/deep", root.join("a/b/c/abs")).unwrap();
        symlink("/", root.join("a/b/c/slash")).unwrap();
        // A chain of 40 links is followed; one more is refused, as is a loop.
        fs::write(root.join("l0"), "end").unwrap();
        for n in 1..=41 {
            symlink(format!("l{}", n - 1), root.join(format!("l{n}"))).unwrap();
        }
        symlink("loop", root.join("loop")).unwrap();
        for src in both(root) {
            assert_eq!(src.read_value("/a/b/c/up").unwrap(), "top");
            assert_eq!(src.read_value("/a/mid/deep").unwrap(), "deep");
            assert_eq!(src.read_value("/a/b/c/abs").unwrap(), "deep");
            assert_eq!(src.read_value("/a/b/c/slash/top").unwrap(), "top");
            assert_eq!(
                src.read_dir("/a/b/c/slash").unwrap(),
                src.read_dir("/").unwrap()
            );
            assert_eq!(src.canonical("/a/mid").unwrap(), Path::new("/a/b/c"));
            assert_eq!(src.canonical("/a/b/c/up").unwrap(), Path::new("/top"));
            assert_eq!(src.canonical("/a/b/c/slash").unwrap(), Path::new("/"));
            assert_eq!(src.read_value("/l40").unwrap(), "end");
            for p in ["/l41", "/loop"] {
                let err = src.read_value(p).unwrap_err();
                assert_eq!(
                    err,
                    Unknown::Refused {
                        path: p.into(),
                        detail: "too many levels of symbolic links".into()
                    }
                );
            }
            assert!(src.exists("/l40") && !src.exists("/l41"));
        }
    }

    #[cfg(unix)]
    #[test]
    fn sysroot_symlink_loop_is_refused_not_hung() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        symlink("b", root.join("a")).unwrap();
        symlink("a", root.join("b")).unwrap();
        for src in both(root) {
            let err = src.read_value("/a").unwrap_err();
            assert!(matches!(err, Unknown::Refused { .. }), "{err:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn sysroot_link_through_itself_is_refused_not_recursed() {
        // `a` names a path under itself: each step resolves `a` again, and the count of
        // links followed must still end it.
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        symlink("/a/b", root.join("a")).unwrap();
        for src in both(root) {
            let err = src.read_value("/a/x").unwrap_err();
            assert!(matches!(err, Unknown::Refused { .. }), "{err:?}");
            assert!(err.to_string().contains("too many levels"), "{err}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn sysroot_reads_through_links() {
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
        symlink("nowhere", cpu.join("cpu0/gone")).unwrap();
        for src in both(root) {
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
            // A directory and a link to nowhere read as they are.
            let policy = "/sys/devices/system/cpu/cpufreq/policy0";
            assert_eq!(
                src.read_value(policy).unwrap_err(),
                Unknown::Refused {
                    path: policy.into(),
                    detail: "a directory".into()
                }
            );
            let gone = src.read_value("/sys/devices/system/cpu/cpu0/gone");
            assert!(matches!(gone, Err(Unknown::NotFound(_))), "{gone:?}");
            // A file where a directory is asked for: not present.
            let under = "/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq/x";
            assert_eq!(src.read_value(under), Err(Unknown::NotFound(under.into())));
        }
    }

    /// A named pipe, a socket, a device or a directory where a file is read is refused with a
    /// note, at once, through a link too.
    #[cfg(unix)]
    #[test]
    fn sysroot_special_files_are_refused_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        mkfifo(&root.join("fifo"));
        let _socket = std::os::unix::net::UnixListener::bind(root.join("socket")).unwrap();
        fs::create_dir(root.join("dir")).unwrap();
        symlink("fifo", root.join("to_fifo")).unwrap();
        let mut special = vec!["/fifo", "/socket", "/to_fifo"];
        // A device node needs root to make (and a file system that allows one).
        let null = std::ffi::CString::new(root.join("null").to_str().unwrap()).unwrap();
        // SAFETY: null is a valid NUL-terminated path.
        #[allow(unsafe_code)]
        let made =
            unsafe { libc::mknod(null.as_ptr(), libc::S_IFCHR | 0o644, libc::makedev(1, 3)) };
        if made == 0 {
            special.push("/null");
        }
        for src in both(root) {
            for p in &special {
                assert_eq!(
                    src.read_value(p).unwrap_err(),
                    Unknown::Refused {
                        path: p.into(),
                        detail: "not a regular file".into()
                    },
                    "{p}"
                );
            }
            let err = src.read_value("/dir").unwrap_err();
            assert_eq!(err.to_string(), "refused to read /dir: a directory");
        }
    }

    #[cfg(unix)]
    #[test]
    fn canonical_under_sysroot_is_root_relative() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::create_dir_all(root.join("sys/devices/virtio1/block/vda")).unwrap();
        fs::create_dir_all(root.join("sys/block")).unwrap();
        symlink("../devices/virtio1/block/vda", root.join("sys/block/vda")).unwrap();
        for src in both(root) {
            assert_eq!(
                src.canonical("/sys/block/vda").unwrap(),
                PathBuf::from("/sys/devices/virtio1/block/vda")
            );
            assert_eq!(src.canonical("/").unwrap(), PathBuf::from("/"));
            assert!(matches!(
                src.canonical("/sys/block/sda"),
                Err(Unknown::NotFound(_))
            ));
        }
    }

    #[test]
    fn missing_file_is_not_found_with_path() {
        let dir = tempfile::tempdir().unwrap();
        for src in both(dir.path()) {
            let err = src.read_value("/proc/meminfo").unwrap_err();
            assert_eq!(err, Unknown::NotFound("/proc/meminfo".into()));
            assert_eq!(err.to_string(), "/proc/meminfo is not present");
        }
        // A sysroot that is not there: every path in it is not present.
        let src = Source::sysroot(dir.path().join("none"));
        assert_eq!(
            src.read_value("/proc/meminfo"),
            Err(Unknown::NotFound("/proc/meminfo".into()))
        );
        assert!(!src.exists("/proc"));
    }

    /// The walk under a writer that swaps what the sysroot holds, as `tests/safe_files.rs`
    /// races `Source::sysroot`: `sys/class/thing/file` is renamed between a link to
    /// `../../devices/thing/value` and one to `other_link`, and the directory
    /// `sys/devices/thing` exchanged with `other_dir`, while `file` is read through the walk
    /// at least 1,000 times and until the writer has swapped as often; each answer must come
    /// within a minute and is handed to `check`.
    #[cfg(target_os = "linux")]
    fn walk_while_swapped(
        root: &Path,
        other_link: &Path,
        other_dir: impl FnOnce(&Path),
        check: impl Fn(Result<String, Unknown>),
    ) {
        use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
        use std::sync::{mpsc, Arc};
        const READS: usize = 1000;
        let (class, devices) = (root.join("sys/class/thing"), root.join("sys/devices"));
        fs::create_dir_all(&class).unwrap();
        fs::create_dir_all(devices.join("thing")).unwrap();
        fs::write(devices.join("thing/value"), "inside").unwrap();
        other_dir(&devices.join(".other"));
        symlink("../../devices/thing/value", class.join("file")).unwrap();
        let (stop, swaps) = (
            Arc::new(AtomicBool::new(false)),
            Arc::new(AtomicUsize::new(0)),
        );
        let writer = {
            let (stop, swaps, other_link) = (stop.clone(), swaps.clone(), other_link.to_owned());
            std::thread::spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let n = swaps.fetch_add(1, Ordering::Relaxed);
                    let target = if n % 2 == 0 {
                        other_link.as_path()
                    } else {
                        Path::new("../../devices/thing/value")
                    };
                    symlink(target, class.join(".new")).unwrap();
                    fs::rename(class.join(".new"), class.join("file")).unwrap();
                    crate::sys::exchange(&devices.join("thing"), &devices.join(".other")).unwrap();
                }
            })
        };
        let (tx, rx) = mpsc::channel();
        let (src, seen) = (Source::sysroot_walked(root), swaps.clone());
        // On until the writer has swapped as often, as in `tests/safe_files.rs`.
        std::thread::spawn(move || {
            let (start, mut n) = (std::time::Instant::now(), 0);
            loop {
                let swapped = seen.load(Ordering::Relaxed);
                if (n >= READS && swapped >= READS) || start.elapsed().as_secs() > 60 {
                    return;
                }
                if tx.send(src.read_value("/sys/class/thing/file")).is_err() {
                    return;
                }
                n += 1;
            }
        });
        let answers =
            std::iter::from_fn(
                || match rx.recv_timeout(std::time::Duration::from_secs(60)) {
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        stop.store(true, Ordering::Relaxed);
                        panic!("a read through the walk did not come back");
                    }
                    answer => answer.ok(),
                },
            );
        let n = answers.map(&check).count();
        stop.store(true, Ordering::Relaxed);
        writer.join().unwrap();
        assert!(n >= READS && swaps.load(Ordering::Relaxed) >= READS, "{n}");
    }

    /// The walk never reads a file out of the sysroot, nor blocks on a named pipe, while
    /// links and directories are swapped under it.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_walk_stays_inside_and_never_blocks_while_links_are_swapped() {
        let t = tempfile::tempdir().unwrap();
        let outside = t.path().join("outside");
        fs::create_dir(&outside).unwrap();
        fs::write(outside.join("value"), "OUTSIDE-MARKER").unwrap();
        let root = t.path().join("out-root");
        walk_while_swapped(
            &root,
            &outside.join("value"),
            |other| symlink(&outside, other).unwrap(),
            |answer| match answer {
                Ok(text) => assert_eq!(text, "inside"),
                Err(e) => assert!(matches!(e, Unknown::NotFound(_)), "{e:?}"),
            },
        );
        let root = t.path().join("pipe-root");
        fs::create_dir_all(root.join("sys/devices")).unwrap();
        mkfifo(&root.join("sys/devices/pipe"));
        walk_while_swapped(
            &root,
            Path::new("../../devices/pipe"),
            |other| {
                fs::create_dir(other).unwrap();
                mkfifo(&other.join("value"));
            },
            |answer| match answer {
                Ok(text) => assert_eq!(text, "inside"),
                Err(e) => assert_eq!(
                    e.to_string(),
                    "refused to read /sys/class/thing/file: not a regular file"
                ),
            },
        );
    }

    /// Live reads open each path as it is: a file, through a link, one not there, one in a
    /// directory that is not there or is a file.
    #[cfg(target_os = "linux")]
    #[test]
    fn live_reads_answer_as_the_files_are() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path().join("attrs");
        std::fs::create_dir(&d).unwrap();
        for (name, text) in [("level", "2\n"), ("type", "Unified\n"), ("size", "1024K\n")] {
            std::fs::write(d.join(name), text).unwrap();
        }
        symlink(d.join("size"), d.join("size_link")).unwrap();
        let src = Source::live();
        let path = |name: &str| d.join(name);
        assert_eq!(src.read_value(path("level")).unwrap(), "2");
        assert_eq!(src.read_value(path("type")).unwrap(), "Unified");
        assert_eq!(src.read_value(path("size_link")).unwrap(), "1024K");
        assert_eq!(
            src.read_value(path("absent")).unwrap_err(),
            Unknown::NotFound(path("absent"))
        );
        let gone = dir.path().join("cpufreq/cpuinfo_max_freq");
        assert_eq!(src.read_value(&gone), Err(Unknown::NotFound(gone.clone())));
        let under_file = path("level").join("a");
        assert_eq!(
            src.read_value(&under_file),
            Err(Unknown::NotFound(under_file.clone()))
        );
        assert_eq!(
            src.canonical(path("size_link")).unwrap(),
            fs::canonicalize(path("size")).unwrap()
        );
        assert_eq!(src.read_link(path("size_link")).unwrap(), path("size"));
        assert!(src.exists(path("size_link")) && !src.exists(path("absent")));
    }

    /// A live sysfs attribute reads as std reads it, for short values and longer ones.
    #[cfg(target_os = "linux")]
    #[test]
    fn live_sysfs_attributes_read_whole() {
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
