//! Linux's own calls: the CPU affinity mask, the atomic swap of two paths, direct I/O and
//! cache advice, /proc for process liveness, and the lookup beneath a sysroot (`openat2`).
//! The machine itself is read from /proc and /sys, through `Source`.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use super::answers::{Live, SmbiosTables};

/// Linux is read from /proc and /sys.
pub const LIVE: Live = Live::Files;

/// The kernel's own copy of the tables is in /sys/firmware/dmi/tables (root only).
pub fn smbios_tables() -> SmbiosTables {
    SmbiosTables::Files
}

/// Opens `rel` beneath the open directory `root` as though `root` were `/` (`openat2` with
/// `RESOLVE_IN_ROOT`, Linux 5.6): the kernel follows every link on the way and keeps `..` and
/// absolute links inside `root`, in one call where a walk takes one per part, and follows
/// no magic link of /proc. `None` where the kernel cannot (older than 5.6, or the call
/// filtered out by a sandbox): the walk then takes every path.
pub(super) fn open_in_root(
    root: rustix::fd::BorrowedFd<'_>,
    rel: &Path,
    want: super::answers::Want,
) -> Option<io::Result<rustix::fd::OwnedFd>> {
    use super::answers::Want;
    use rustix::fs::{openat2, Mode, OFlags, ResolveFlags};
    use rustix::io::Errno;
    let flags = OFlags::CLOEXEC
        | match want {
            Want::File => OFlags::RDONLY | OFlags::NONBLOCK | OFlags::NOCTTY,
            Want::Dir => OFlags::RDONLY | OFlags::DIRECTORY,
            Want::Name => OFlags::PATH,
        };
    let resolve = ResolveFlags::IN_ROOT | ResolveFlags::NO_MAGICLINKS;
    match openat2(root, rel, flags, Mode::empty(), resolve) {
        Ok(fd) => Some(Ok(fd)),
        // No openat2 (ENOSYS; EPERM from a seccomp filter), or flags it does not know
        // (EINVAL, E2BIG).
        Err(Errno::NOSYS | Errno::PERM | Errno::INVAL | Errno::TOOBIG) => None,
        Err(e) => Some(Err(e.into())),
    }
}

/// sched_getaffinity(0): the CPUs this process may run on.
#[allow(unsafe_code)]
pub fn cpu_affinity() -> Option<Vec<u32>> {
    // SAFETY: `set` is a properly sized, zeroed cpu_set_t owned by this frame; the kernel
    // writes at most size_of::<cpu_set_t>() bytes into it, and CPU_ISSET only reads it.
    unsafe {
        let mut set: libc::cpu_set_t = std::mem::zeroed();
        if libc::sched_getaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &mut set) != 0 {
            return None;
        }
        let max = 8 * std::mem::size_of::<libc::cpu_set_t>();
        Some(
            (0..max)
                .filter(|&c| libc::CPU_ISSET(c, &set))
                .map(|c| c as u32)
                .collect(),
        )
    }
}

/// Swaps two paths in one step (renameat2 with RENAME_EXCHANGE: Linux 3.15+, on file
/// systems that support it).
#[cfg(any(target_env = "gnu", target_env = "musl"))]
#[allow(unsafe_code)]
pub fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| std::ffi::CString::new(p.as_os_str().as_bytes()).map_err(io::Error::other);
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: both paths are NUL-terminated and outlive the call; AT_FDCWD makes them
    // relative to the working directory, as a plain rename would.
    let rc = unsafe {
        libc::renameat2(
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if rc == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// The libc has no renameat2: the caller moves the old path aside instead.
#[cfg(not(any(target_env = "gnu", target_env = "musl")))]
pub fn exchange(_a: &Path, _b: &Path) -> io::Result<()> {
    Err(io::Error::from(io::ErrorKind::Unsupported))
}

/// Whether process `pid` still runs.
pub fn process_runs(pid: u32) -> bool {
    Path::new("/proc").join(pid.to_string()).exists()
}

/// Opens a file to read, with O_DIRECT when `direct` (the page cache is bypassed), and
/// O_NONBLOCK always: a named pipe swapped in for the file must not block the open.
pub fn open_for_reading(path: &Path, direct: bool) -> io::Result<File> {
    let direct = if direct { libc::O_DIRECT } else { 0 };
    OpenOptions::new()
        .read(true)
        .custom_flags(direct | libc::O_NONBLOCK)
        .open(path)
}

/// A file in `dir` that has no name (O_TMPFILE), open to read and write, only the owner's:
/// nothing of it is left on the disk once the process ends, however it ends (SIGKILL too).
/// File systems without O_TMPFILE answer an error; the caller names a file instead.
pub fn anonymous_file(dir: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .mode(0o600)
        .custom_flags(libc::O_TMPFILE)
        .open(dir)
}

/// The path that opens `f` again, with flags of its own (O_DIRECT), even when it has no name:
/// `/proc/self/fd/N`.
pub fn descriptor_path(f: &File) -> Option<std::path::PathBuf> {
    Some(format!("/proc/self/fd/{}", f.as_raw_fd()).into())
}

/// posix_fadvise(DONTNEED): asks the kernel to drop the file's cached pages.
#[allow(unsafe_code)]
pub fn drop_cache(f: &File) {
    // SAFETY: the descriptor is open for the lifetime of `f`; fadvise only advises the kernel
    // and touches no memory of ours.
    unsafe {
        libc::posix_fadvise(f.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED);
    }
}

/// How to get the rights a read needs, in this OS's words.
pub const ELEVATE: &str = "run as root";

/// What NVML answers when it lets this user see no GPU.
pub const NVML_NO_PERMISSION: &str =
    "NVML: no permission (run as root, or give this user access to /dev/nvidiactl)";

/// Whether a terminal needs `TERM` (other than `dumb`) to be coloured, as anstream decides.
pub const COLOR_NEEDS_TERM: bool = true;

/// The file NVML's loader error is named for where its own text does not name it.
pub const NVML_FILE_NAMED: Option<&str> = None;

/// Where NVML may also be when the loader's search misses it: nowhere else here.
pub fn nvml_elsewhere() -> Option<std::path::PathBuf> {
    None
}

/// Linux is read from /proc and /sys: there are no OS answers to ask.
pub fn native_answers() -> Option<crate::native::NativeAnswers> {
    None
}

/// Why NVML cannot be here at all: it can.
pub const NVML_ABSENT: Option<&str> = None;

/// Whether the GPU keeps its driver state with no client (persistence mode): a Linux driver
/// setting, which nvml-wrapper offers only here.
#[cfg(feature = "nvml")]
pub fn persistence_mode(
    d: &nvml_wrapper::Device<'_>,
) -> Option<Result<bool, nvml_wrapper::error::NvmlError>> {
    Some(d.is_in_persistent_mode())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_calls_answer_on_any_linux_host() {
        // The calling process may run somewhere, and it runs.
        assert!(cpu_affinity().is_some_and(|l| !l.is_empty()));
        assert!(process_runs(std::process::id()));
        assert_eq!(smbios_tables(), SmbiosTables::Files);
    }
}
