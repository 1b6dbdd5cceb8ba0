//! What a call answers on an OS that lacks it: nothing, with the reason, or the plain
//! std way where there is one. Each OS module takes from here what it has no call for, so
//! this module is built on every OS.

use std::ffi::OsString;
use std::fs::{self, File, FileType, Metadata, OpenOptions};
use std::io;
use std::path::{Component, Path, PathBuf};

use super::answers::{unsupported, FsSpace, Opened, Refusal, MAX_SYMLINKS};

/// No affinity call: the mask is unknown.
pub fn cpu_affinity() -> Option<Vec<u32>> {
    None
}

/// No atomic swap of two paths: the caller moves the old one aside instead.
pub fn exchange(_a: &Path, _b: &Path) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

/// Opens a file to read; there is no direct I/O that rigcheck knows how to ask for.
pub fn open_for_reading(path: &Path, direct: bool) -> io::Result<File> {
    if direct {
        return Err(unsupported("O_DIRECT is not available on this OS"));
    }
    File::open(path)
}

/// No file without a name: the caller names one and deletes it at once.
pub fn anonymous_file(_dir: &Path) -> io::Result<File> {
    Err(unsupported(
        "files without a name (O_TMPFILE) are not available on this OS",
    ))
}

/// No path that opens an open file again.
pub fn descriptor_path(_f: &File) -> Option<std::path::PathBuf> {
    None
}

/// No cache advice: nothing to drop.
pub fn drop_cache(_f: &File) {}

/// statvfs is POSIX; elsewhere free space is not asked here (a Windows machine's volumes
/// come from its own answers, `probe::native`).
pub fn statvfs(_path: &Path) -> io::Result<FsSpace> {
    Err(unsupported("statvfs is not available on this OS"))
}

/// Without uname the machine's architecture is not asked: the binary's own target would be
/// wrong under emulation (an x86_64 build on Arm Windows), so it stays unknown.
pub fn machine() -> Option<String> {
    None
}

/// No device numbers.
pub fn device_number(_meta: &Metadata) -> Option<u64> {
    None
}

/// A sysroot where no call opens a path beneath a directory (Windows, and the OSes that are
/// not Unix): each path is walked by name one part at a time from the root, links followed
/// with the root as `/` and `..` kept at it, and what the walk ends at is then resolved by
/// the OS itself (`canonicalize`) and refused unless it lies under the root as the OS
/// resolves that: Windows (and Wine, which shows a Unix symlink as the file it names) can
/// follow links a walk does not see.
#[derive(Debug)]
pub struct Root {
    path: PathBuf,
    /// The root as the OS resolves it.
    real: PathBuf,
}

impl Root {
    /// The directory `path` as a root (the OS's own lookup is the only one here).
    pub fn open(path: &Path, _lookup: super::answers::Lookup) -> io::Result<Root> {
        Ok(Root {
            path: path.to_path_buf(),
            real: fs::canonicalize(path)?,
        })
    }

    /// Opens `rel` (relative to the root) to be read: a plain file, with its size, or what
    /// else it is.
    pub fn open_file(&self, rel: &Path) -> io::Result<Opened> {
        let path = self.resolve(rel, true)?;
        let meta = fs::metadata(&path)?;
        if meta.is_dir() {
            return Ok(Opened::Directory);
        }
        if !meta.is_file() {
            return Ok(Opened::Other);
        }
        Ok(Opened::File(File::open(&path)?, meta.len()))
    }

    /// The names in the directory `rel`.
    pub fn list_dir(&self, rel: &Path) -> io::Result<Vec<OsString>> {
        fs::read_dir(self.resolve(rel, true)?)?
            .map(|e| e.map(|e| e.file_name()))
            .collect()
    }

    /// Whether `rel` is there, links followed.
    pub fn exists(&self, rel: &Path) -> bool {
        self.resolve(rel, true).and_then(fs::metadata).is_ok()
    }

    /// The target of the link `rel`, as written; where the OS shows the link as what it
    /// points at (Wine does so with a Unix symlink, and reads no target from it), the place
    /// it resolves to, as an absolute path inside the root: the same place by another name.
    pub fn read_link(&self, rel: &Path) -> io::Result<PathBuf> {
        let path = self.resolve(rel, false)?;
        fs::read_link(&path).or_else(|e| {
            let (Some(parent), Some(name)) = (rel.parent(), rel.file_name()) else {
                return Err(e);
            };
            let (Ok(resolved), Ok(dir)) = (self.canonical(rel), self.canonical(parent)) else {
                return Err(e);
            };
            // Not a link where it resolves to its own name in its directory (`/` between
            // the parts, as `canonical` writes them on every OS).
            let dir = dir.to_string_lossy();
            let own = format!("{}/{}", dir.trim_end_matches('/'), name.to_string_lossy());
            if resolved.as_os_str() == own.as_str() {
                Err(e)
            } else {
                Ok(resolved)
            }
        })
    }

    /// `rel` with every link resolved, as seen from inside the root, `/` between its parts
    /// (probes take sysfs paths apart as text, and Windows would join them with `\\`).
    pub fn canonical(&self, rel: &Path) -> io::Result<PathBuf> {
        let real = self.resolve(rel, true)?;
        let inside = real
            .strip_prefix(&self.real)
            .map_err(|_| io::Error::from(Refusal::Outside))?;
        let parts: Vec<_> = inside
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        Ok(PathBuf::from(format!("/{}", parts.join("/"))))
    }

    /// The path under the root that `rel` names, every link followed by the walk (the last
    /// one only where `follow_last`), as the OS resolves it, refused outside the root.
    fn resolve(&self, rel: &Path, follow_last: bool) -> io::Result<PathBuf> {
        let mut todo = Vec::new();
        push_parts(&mut todo, rel);
        let mut cur = self.path.clone();
        let mut depth = 0;
        let mut links = 0;
        while let Some(part) = todo.pop() {
            let Some(name) = part else {
                if depth > 0 {
                    cur.pop();
                    depth -= 1;
                }
                continue;
            };
            let next = cur.join(&name);
            let is_link = fs::symlink_metadata(&next)?.file_type().is_symlink();
            if is_link && (follow_last || !todo.is_empty()) {
                links += 1;
                if links > MAX_SYMLINKS {
                    return Err(Refusal::TooManyLinks.into());
                }
                let target = fs::read_link(&next)?;
                if target.has_root() {
                    cur = self.path.clone();
                    depth = 0;
                }
                push_parts(&mut todo, &target);
            } else {
                cur = next;
                depth += 1;
            }
        }
        // Without following the last link (read_link), only its directory is resolved.
        let (dir, name) = match (follow_last, cur.parent(), cur.file_name()) {
            (false, Some(parent), Some(name)) if depth > 0 => (parent.to_path_buf(), Some(name)),
            _ => (cur.clone(), None),
        };
        let resolved = fs::canonicalize(&dir)?;
        if !resolved.starts_with(&self.real) {
            return Err(Refusal::Outside.into());
        }
        Ok(match name {
            Some(n) => resolved.join(n),
            None => resolved,
        })
    }
}

/// Puts the parts of `path` on the stack `todo` so the first is popped first: a name, or
/// `None` for `..`; the root, a drive and `.` say nothing more.
fn push_parts(todo: &mut Vec<Option<OsString>>, path: &Path) {
    let at = todo.len();
    for c in path.components() {
        match c {
            Component::Normal(n) => todo.push(Some(n.to_owned())),
            Component::ParentDir => todo.push(None),
            Component::RootDir | Component::CurDir | Component::Prefix(_) => {}
        }
    }
    todo[at..].reverse();
}

/// No identity of a file apart from its path here: callers compare canonical paths.
pub fn file_identity(_meta: &Metadata) -> Option<(u64, u64)> {
    None
}

/// No special files (named pipes, devices) show in a directory listing.
pub fn special_file_kind(_t: FileType) -> Option<&'static str> {
    None
}

/// Gives `f` the read-only flag of `old`: there are no modes and owners to keep.
pub fn keep_owner_and_mode(f: &File, old: &Metadata) -> io::Result<()> {
    f.set_permissions(old.permissions())
}

/// The directory inherits its parent's access list, as every file the user makes does.
pub fn create_private_dir(path: &Path) -> io::Result<()> {
    fs::create_dir(path)
}

/// No modes: the file gets the directory's inherited access list.
pub fn set_create_mode(_options: &mut OpenOptions, _mode: u32) {}

/// No modes.
pub fn file_mode(_path: &Path) -> Option<u32> {
    None
}

/// No one symlink call (Windows: file and directory links differ and need a privilege).
pub fn symlink(_target: &Path, _link: &Path) -> io::Result<()> {
    Err(unsupported("symlinks are not recreated on this OS"))
}

/// No NVMe passthrough rigcheck knows on this OS: the drive's health log is not read here.
pub fn nvme_smart_log(_device: &str) -> io::Result<Vec<u8>> {
    Err(unsupported(
        "reading an NVMe drive's health log is not available on this OS",
    ))
}

/// No ATA passthrough rigcheck knows on this OS: SMART is not read here.
pub fn ata_smart(_device: &str) -> io::Result<Vec<u8>> {
    Err(unsupported(
        "reading an ATA drive's SMART data is not available on this OS",
    ))
}

/// ethtool's calls are Linux's: elsewhere there is no such interface to ask.
pub fn ethtool(_interface: &str) -> super::answers::Ethtool {
    let why = "ethtool's calls are Linux's".to_string();
    super::answers::Ethtool {
        driver_info: Err(why.clone()),
        link_modes: Err(why),
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// The walk by name keeps links inside the root as `beneath` does: `..` stays at the
    /// root, an absolute link starts again there (one to a host path is not there), and a
    /// loop is refused.
    #[test]
    fn the_walk_by_name_keeps_links_inside_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        fs::create_dir_all(root.join("a/b")).unwrap();
        fs::write(root.join("top"), "top").unwrap();
        symlink("../../../../top", root.join("a/b/up")).unwrap();
        symlink("/a", root.join("a/b/abs")).unwrap();
        symlink("loop", root.join("loop")).unwrap();
        symlink(dir.path(), root.join("host")).unwrap();
        let r = Root::open(&root, super::super::answers::Lookup::Kernel).unwrap();
        let Opened::File(mut f, len) = r.open_file(Path::new("a/b/up")).unwrap() else {
            panic!("not a file");
        };
        let mut text = String::new();
        io::Read::read_to_string(&mut f, &mut text).unwrap();
        assert_eq!((text.as_str(), len), ("top", 3));
        assert!(matches!(
            r.open_file(Path::new("a/b/abs")).unwrap(),
            Opened::Directory
        ));
        assert_eq!(r.list_dir(Path::new("a/b/abs")).unwrap(), ["b"]);
        assert_eq!(
            r.canonical(Path::new("a/b/abs/b")).unwrap(),
            Path::new("/a/b")
        );
        assert_eq!(r.read_link(Path::new("a/b/abs")).unwrap(), Path::new("/a"));
        assert!(r.exists(Path::new("a/b/up")) && !r.exists(Path::new("a/none")));
        let refusal = |e: io::Error| super::super::answers::refusal(&e);
        let looped = r.open_file(Path::new("loop")).unwrap_err();
        assert_eq!(refusal(looped), Some(Refusal::TooManyLinks));
        let host = r.canonical(Path::new("host")).unwrap_err();
        assert_eq!(host.kind(), io::ErrorKind::NotFound);
    }
}
