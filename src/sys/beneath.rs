//! A sysroot's files opened beneath it on Unix: each path is opened relative to a descriptor
//! of the root taken once, by the kernel where it can keep the lookup inside the root
//! (`openat2` with `RESOLVE_IN_ROOT`, Linux 5.6), else by a walk from that descriptor one
//! part at a time that never follows a link by name. A writer swapping links or files
//! inside the sysroot while it is read can then neither lead a read outside it nor make
//! one block: what is read is the descriptor opened, never a name looked up again.

use std::ffi::OsString;
use std::fs::File;
use std::io;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::OnceLock;

use rustix::fd::{AsFd, OwnedFd};
use rustix::fs::{openat, readlinkat, statat, AtFlags, FileType, Mode, OFlags};
use rustix::io::Errno;

use super::answers::{Lookup, Opened, Want, MAX_SYMLINKS};

/// The kernel's lookup beneath a directory (Linux's `openat2`), and its name of an open
/// file (`/proc/self/fd/N`).
#[cfg(target_os = "linux")]
use super::linux::{descriptor_path, open_in_root};

/// No name of an open file here (never asked: nothing was opened by the kernel's lookup).
#[cfg(not(target_os = "linux"))]
use super::fallback::descriptor_path;

/// No call here keeps a lookup beneath a directory: the walk does every path.
#[cfg(not(target_os = "linux"))]
fn open_in_root(
    _root: rustix::fd::BorrowedFd<'_>,
    _rel: &Path,
    _want: Want,
) -> Option<io::Result<OwnedFd>> {
    None
}

/// Flags of the walk's opens: nothing is followed by name (`O_NOFOLLOW`), a link is read
/// (`readlinkat`) and followed by the walk itself.
fn walk_flags(want: Want) -> OFlags {
    let flags = OFlags::CLOEXEC | OFlags::NOFOLLOW;
    match want {
        Want::File => flags | OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY,
        Want::Dir | Want::Name => flags | OFlags::RDONLY | OFlags::DIRECTORY,
    }
}

/// A sysroot, open: every path of a replay is opened beneath it.
pub struct Root {
    dir: File,
    /// Whether the kernel is asked first; cleared, for the rest of the run, the first time
    /// it says it cannot (no `openat2`, or a sandbox filtering it out).
    kernel: AtomicBool,
    /// The root as the kernel names it (`/proc/self/fd/N`), once: `canonical` takes it off
    /// the kernel's name of a path beneath it.
    named: OnceLock<Option<PathBuf>>,
}

/// How the walk ends.
enum Last {
    /// The last part opened as asked.
    Open(Want),
    /// The last part only looked at (`fstatat`, not followed): it is there.
    Stat,
}

/// Where a walk ended: the descriptor it opened last (`None` for `Last::Stat`), and the
/// names of the parts from the root, every link resolved.
struct Walked {
    end: Option<OwnedFd>,
    names: Vec<OsString>,
}

impl Root {
    /// Opens the directory `path` as a root, its paths resolved as `lookup` says.
    pub fn open(path: &Path, lookup: Lookup) -> io::Result<Root> {
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC;
        Ok(Root {
            dir: File::from(rustix::fs::open(path, flags, Mode::empty())?),
            kernel: AtomicBool::new(lookup == Lookup::Kernel),
            named: OnceLock::new(),
        })
    }

    /// Opens `rel` (a path relative to the root, links inside it followed with the root as
    /// `/`) to be read: a plain file, with its size, or what else it is, told by `fstat` of
    /// the descriptor opened (a FIFO open without blocking, then refused).
    pub fn open_file(&self, rel: &Path) -> io::Result<Opened> {
        let fd = match self.open_as(rel, Want::File) {
            Ok(fd) => fd,
            // A socket, or a device with no driver behind it: nothing to read either way.
            Err(e) if matches!(e.raw_os_error(), Some(libc::ENXIO | libc::ENODEV)) => {
                return Ok(Opened::Other)
            }
            Err(e) => return Err(e),
        };
        let stat = rustix::fs::fstat(&fd)?;
        Ok(match FileType::from_raw_mode(stat.st_mode) {
            FileType::RegularFile => Opened::File(
                File::from(fd),
                u64::try_from(stat.st_size).unwrap_or(u64::MAX),
            ),
            FileType::Directory => Opened::Directory,
            _ => Opened::Other,
        })
    }

    /// The names in the directory `rel`, `.` and `..` left out, in the order the directory
    /// gives them (`getdents`).
    pub fn list_dir(&self, rel: &Path) -> io::Result<Vec<OsString>> {
        let mut names = Vec::new();
        let mut entries = rustix::fs::Dir::new(self.open_as(rel, Want::Dir)?)?;
        while let Some(entry) = entries.read() {
            let name = entry?.file_name().to_bytes().to_vec();
            if name != b"." && name != b".." {
                names.push(OsString::from_vec(name));
            }
        }
        Ok(names)
    }

    /// Whether `rel` is there, links followed.
    pub fn exists(&self, rel: &Path) -> bool {
        match self.by_kernel(rel, Want::Name) {
            Some(found) => found.is_ok(),
            None => self.walk(rel, Last::Stat).is_ok(),
        }
    }

    /// The target of the link `rel`, as written: its directory opened beneath the root, the
    /// link read there.
    pub fn read_link(&self, rel: &Path) -> io::Result<PathBuf> {
        let (Some(parent), Some(name)) = (rel.parent(), rel.file_name()) else {
            return Err(Errno::INVAL.into());
        };
        let dir = self.open_as(parent, Want::Dir)?;
        let target = readlinkat(&dir, name, Vec::new())?;
        Ok(PathBuf::from(OsString::from_vec(target.into_bytes())))
    }

    /// `rel` with every link resolved, as seen from inside the root (`/sys/devices/...`):
    /// the kernel's name of the descriptor it opened, less the root's own name, or the
    /// names the walk went through.
    pub fn canonical(&self, rel: &Path) -> io::Result<PathBuf> {
        if let Some(found) = self.by_kernel(rel, Want::Name) {
            if let Some(inside) = self.inside(&File::from(found?)) {
                return Ok(inside);
            }
        }
        let walked = self.walk(rel, Last::Stat)?;
        let mut out = PathBuf::from("/");
        out.extend(walked.names);
        Ok(out)
    }

    /// The path of `f` from the root, where the kernel names both (`/proc` mounted, the root
    /// still where it was).
    fn inside(&self, f: &File) -> Option<PathBuf> {
        let root = self.named.get_or_init(|| named(&self.dir)).as_ref()?;
        let rest = named(f)?.strip_prefix(root).ok()?.to_path_buf();
        Some(Path::new("/").join(rest))
    }

    /// `rel` opened as `want`: by the kernel where it can, else by the walk.
    fn open_as(&self, rel: &Path, want: Want) -> io::Result<OwnedFd> {
        if let Some(opened) = self.by_kernel(rel, want) {
            return opened;
        }
        match self.walk(rel, Last::Open(want))?.end {
            Some(fd) => Ok(fd),
            None => Err(Errno::NOENT.into()),
        }
    }

    /// The kernel's lookup of `rel` beneath the root; `None` where the walk is to take it:
    /// the kernel cannot (then never asked again in this run), or a rename elsewhere under
    /// the root raced its lookup of a `..` (EAGAIN, EXDEV; the walk needs no retry).
    fn by_kernel(&self, rel: &Path, want: Want) -> Option<io::Result<OwnedFd>> {
        if !self.kernel.load(Ordering::Relaxed) {
            return None;
        }
        let rel = if rel.as_os_str().is_empty() {
            Path::new(".")
        } else {
            rel
        };
        match open_in_root(self.dir.as_fd(), rel, want) {
            None => {
                self.kernel.store(false, Ordering::Relaxed);
                None
            }
            Some(Err(e)) if matches!(e.raw_os_error(), Some(libc::EAGAIN | libc::EXDEV)) => None,
            found => found,
        }
    }

    /// Walks `rel` from the root one part at a time, each opened relative to the directory
    /// before it and never through a link (`O_NOFOLLOW`): a link is read (`readlinkat`) and
    /// its target walked in its place, from the root where it is absolute; `..` steps back
    /// along the directories opened so far and stays at the root, never opening `..`
    /// itself; more than `MAX_SYMLINKS` links end the walk (ELOOP).
    fn walk(&self, rel: &Path, last: Last) -> io::Result<Walked> {
        let mut todo: Vec<OsString> = Vec::new();
        push_parts(&mut todo, rel);
        let mut dirs: Vec<OwnedFd> = Vec::new();
        let mut names: Vec<OsString> = Vec::new();
        let mut links = 0;
        while let Some(name) = todo.pop() {
            if name == ".." {
                dirs.pop();
                names.pop();
                continue;
            }
            let cur = dirs.last().map_or(self.dir.as_fd(), AsFd::as_fd);
            let found = match (todo.is_empty(), &last) {
                (true, Last::Stat) => statat(cur, &name, AtFlags::SYMLINK_NOFOLLOW).and_then(|s| {
                    // A link is followed below, as an open's refusal of one is.
                    match FileType::from_raw_mode(s.st_mode) {
                        FileType::Symlink => Err(Errno::LOOP),
                        _ => Ok(None),
                    }
                }),
                (true, Last::Open(want)) => {
                    openat(cur, &name, walk_flags(*want), Mode::empty()).map(|fd| Some((fd, true)))
                }
                (false, _) => openat(cur, &name, walk_flags(Want::Dir), Mode::empty())
                    .map(|fd| Some((fd, false))),
            };
            match found {
                Ok(Some((fd, true))) => {
                    names.push(name);
                    return Ok(Walked {
                        end: Some(fd),
                        names,
                    });
                }
                Ok(Some((fd, false))) => {
                    dirs.push(fd);
                    names.push(name);
                }
                Ok(None) => {
                    names.push(name);
                    return Ok(Walked { end: None, names });
                }
                // O_NOFOLLOW's refusal of a link: ELOOP, EMLINK on FreeBSD, ENOTDIR where
                // O_DIRECTORY is checked first (Linux). Whether it was a link is asked of
                // the name; what it is now decides (a file there now is refused as before).
                Err(e @ (Errno::LOOP | Errno::MLINK | Errno::NOTDIR)) => {
                    let Ok(target) = readlinkat(cur, &name, Vec::new()) else {
                        return Err(e.into());
                    };
                    links += 1;
                    if links > MAX_SYMLINKS {
                        return Err(Errno::LOOP.into());
                    }
                    let target = PathBuf::from(OsString::from_vec(target.into_bytes()));
                    if target.has_root() {
                        dirs.clear();
                        names.clear();
                    }
                    push_parts(&mut todo, &target);
                }
                Err(e) => return Err(e.into()),
            }
        }
        // Ended on a directory reached by `..` or a link (the root itself included): it is
        // opened again as asked, by `.`, which is no link.
        let cur = dirs.last().map_or(self.dir.as_fd(), AsFd::as_fd);
        let end = match last {
            Last::Open(want) => Some(openat(cur, ".", walk_flags(want), Mode::empty())?),
            Last::Stat => None,
        };
        Ok(Walked { end, names })
    }
}

/// Puts the parts of `path` on the stack `todo` so the first is popped first: names and
/// `..`; the root and `.` say nothing more (an absolute link restarts at the root before
/// its parts are pushed).
fn push_parts(todo: &mut Vec<OsString>, path: &Path) {
    let at = todo.len();
    for c in path.components() {
        match c {
            Component::Normal(n) => todo.push(n.to_owned()),
            Component::ParentDir => todo.push(OsString::from("..")),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    todo[at..].reverse();
}

/// The kernel's name of an open file (`/proc/self/fd/N`), where it gives a usable one.
fn named(f: &File) -> Option<PathBuf> {
    let path = std::fs::read_link(descriptor_path(f)?).ok()?;
    let deleted = path.as_os_str().as_bytes().ends_with(b" (deleted)");
    (path.is_absolute() && !deleted).then_some(path)
}
