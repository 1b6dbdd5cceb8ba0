//! The POSIX calls every Unix shares: statvfs, uname, file modes and owners, symlinks,
//! positioned reads, the signals that interrupt a run, and a sysroot's files opened beneath
//! it (`Root`).

use std::fs::{self, File, FileType, Metadata, OpenOptions};
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{
    DirBuilderExt, FileExt, FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt,
};
use std::path::Path;

use super::answers::FsSpace;

/// The signals a `signals::Shield` holds back while temporary files exist.
pub const INTERRUPTS: &[i32] = &[
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// A rename replaces an empty directory at the destination.
pub const RENAME_REPLACES_EMPTY_DIR: bool = true;

fn c_path(path: &Path) -> io::Result<std::ffi::CString> {
    std::ffi::CString::new(path.as_os_str().as_bytes()).map_err(io::Error::other)
}

/// statvfs(3) of a path.
#[allow(unsafe_code)]
pub fn statvfs(path: &Path) -> io::Result<FsSpace> {
    let c = c_path(path)?;
    let mut st = std::mem::MaybeUninit::<libc::statvfs>::uninit();
    // SAFETY: `c` is a NUL-terminated path that outlives the call and `st` points to
    // writable memory of the right type; statvfs fills it completely when it returns 0, and
    // it is read only then.
    let rc = unsafe { libc::statvfs(c.as_ptr(), st.as_mut_ptr()) };
    if rc != 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: statvfs returned 0, so the struct is initialised.
    let st = unsafe { st.assume_init() };
    // fsblkcnt_t and c_ulong are 32 bits on some targets, hence the conversions.
    #[allow(clippy::useless_conversion)]
    let frsize = u64::from(st.f_frsize);
    #[allow(clippy::useless_conversion)]
    Ok(FsSpace {
        total_bytes: u64::from(st.f_blocks).saturating_mul(frsize),
        available_bytes: u64::from(st.f_bavail).saturating_mul(frsize),
    })
}

/// `uname -m`: the machine the running kernel was built for.
#[allow(unsafe_code)]
pub fn machine() -> Option<String> {
    let mut u = std::mem::MaybeUninit::<libc::utsname>::uninit();
    // SAFETY: `u` is writable memory of the right type, which uname fills completely when
    // it returns 0; it is read only then.
    if unsafe { libc::uname(u.as_mut_ptr()) } != 0 {
        return None;
    }
    // SAFETY: uname returned 0, so the struct is initialised and `machine` is
    // NUL-terminated by the kernel.
    let u = unsafe { u.assume_init() };
    // SAFETY: `machine` is a NUL-terminated array inside `u`, which outlives the borrow.
    let c = unsafe { std::ffi::CStr::from_ptr(u.machine.as_ptr()) };
    c.to_str().ok().map(str::to_string)
}

/// Reads at `offset` without moving the file's cursor.
pub fn read_at(f: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    f.read_at(buf, offset)
}

/// Fills `buf` from `offset` without moving the file's cursor.
pub fn read_exact_at(f: &File, buf: &mut [u8], offset: u64) -> io::Result<()> {
    f.read_exact_at(buf, offset)
}

/// The device number (`st_dev`) of the filesystem holding a file.
pub fn device_number(meta: &Metadata) -> Option<u64> {
    Some(meta.dev())
}

/// What makes a file itself, whatever path names it: its device and inode.
pub fn file_identity(meta: &Metadata) -> Option<(u64, u64)> {
    Some((meta.dev(), meta.ino()))
}

/// What a special file is (named pipe, device, socket), for a refusal; `None` for the
/// kinds every OS has (file, directory, symlink).
pub fn special_file_kind(t: FileType) -> Option<&'static str> {
    if t.is_fifo() {
        Some("a named pipe")
    } else if t.is_char_device() || t.is_block_device() {
        Some("a device")
    } else if t.is_socket() {
        Some("a socket")
    } else {
        None
    }
}

/// Gives `f` the permission bits of `old` (exactly, whatever the umask) and, where this
/// user may (root), its owner and group.
pub fn keep_owner_and_mode(f: &File, old: &Metadata) -> io::Result<()> {
    // Only root may give a file away; anyone else keeps it, with the old mode.
    let _ = std::os::unix::fs::fchown(f, Some(old.uid()), Some(old.gid()));
    f.set_permissions(fs::Permissions::from_mode(old.mode() & 0o777))
}

/// Makes a directory only its owner may enter (0700), whatever the umask.
pub fn create_private_dir(path: &Path) -> io::Result<()> {
    fs::DirBuilder::new().mode(0o700).create(path)
}

/// The permission bits a file made through `options` gets.
pub fn set_create_mode(options: &mut OpenOptions, mode: u32) {
    options.mode(mode);
}

/// The permission bits of a file (following symlinks); `None` where it cannot be read.
pub fn file_mode(path: &Path) -> Option<u32> {
    fs::metadata(path).ok().map(|m| m.permissions().mode())
}

/// Makes `link` a symlink to `target`.
pub fn symlink(target: &Path, link: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

/// ELOOP: std has no stable `ErrorKind` for it, so the OS code is compared.
pub fn is_symlink_loop(e: &io::Error) -> bool {
    e.raw_os_error() == Some(libc::ELOOP)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statvfs_and_uname_answer() {
        // / has a size, and the kernel names its machine (x86_64, aarch64, ...).
        assert!(statvfs(Path::new("/")).is_ok_and(|s| s.total_bytes > 0));
        assert!(machine().is_some_and(|m| !m.is_empty()));
        let e = statvfs(Path::new("/no/such/path")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
    }
}
