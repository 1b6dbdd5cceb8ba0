//! What a call answers on an OS that lacks it: nothing, with the reason, or the plain
//! std way where there is one. Each OS module takes from here what it has no call for, so
//! this module is built on every OS.

use std::fs::{self, File, FileType, Metadata, OpenOptions};
use std::io;
use std::path::Path;

use super::answers::{unsupported, FsSpace};

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

/// No directory is held open here: reads go by whole paths.
pub enum Dir {}

/// No directory is held open here (`Dir` has no value).
pub fn open_dir(_path: &Path) -> io::Result<Dir> {
    Err(io::ErrorKind::Unsupported.into())
}

/// Never called: there is no `Dir` to ask.
pub fn stat_in(dir: &Dir, _name: &std::ffi::OsStr) -> io::Result<super::answers::Entry> {
    match *dir {}
}

/// The path with every link resolved (`std::fs::canonicalize`).
pub fn canonicalize(path: &Path) -> io::Result<std::path::PathBuf> {
    std::fs::canonicalize(path)
}

/// The kernel resolves no path inside a root of its own here: the caller's walk does.
pub fn open_dir_in_root<D>(_root: &D, _rel: &Path) -> Option<io::Result<D>> {
    None
}

/// Never called: there is no `Dir` to ask.
pub fn list_dir(dir: Dir) -> io::Result<Vec<std::ffi::OsString>> {
    match dir {}
}

/// Never called: there is no `Dir` to ask.
pub fn open_in(dir: &Dir, _name: &std::ffi::OsStr) -> io::Result<File> {
    match *dir {}
}

/// Never called: there is no `Dir` to ask.
pub fn open_following_in(dir: &Dir, _name: &std::ffi::OsStr) -> io::Result<File> {
    match *dir {}
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
