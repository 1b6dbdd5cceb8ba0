//! Linux's own calls: the CPU affinity mask, the atomic swap of two paths, direct I/O and
//! cache advice, /proc for process liveness, the lookup beneath a sysroot (`openat2`), and
//! ethtool's driver info and link modes (`SIOCETHTOOL`). The machine itself is read from
//! /proc and /sys, through `Source`.

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

/// A pager command (`PAGER`) is run by `sh -c`, as git runs it.
pub const PAGER_THROUGH_SH: bool = true;

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

/// `SIOCETHTOOL` (linux/sockios.h).
const SIOCETHTOOL: u64 = 0x8946;
/// `ETHTOOL_GDRVINFO`, `ETHTOOL_GLINKSETTINGS` (linux/ethtool.h).
const ETHTOOL_GDRVINFO: u32 = 0x03;
const ETHTOOL_GLINKSETTINGS: u32 = 0x4c;

/// `struct ifreq` with the `ifr_data` member: the name, then the pointer, padded to the
/// union's 24 bytes (`struct ifmap`).
#[repr(C)]
struct IfReqData {
    name: [u8; 16],
    data: *mut libc::c_void,
    _pad: [u8; 16],
}

/// ethtool's driver info and link modes of `interface`, through `SIOCETHTOOL` on a
/// datagram socket, as `ethtool -i` and `ethtool` ask them: neither needs root.
pub fn ethtool(interface: &str) -> super::answers::Ethtool {
    use super::answers::Ethtool;
    let socket = match open_ethtool_socket() {
        Ok(s) => s,
        Err(e) => {
            let why = format!("no socket to ask ethtool through: {e}");
            return Ethtool {
                driver_info: Err(why.clone()),
                link_modes: Err(why),
            };
        }
    };
    Ethtool {
        driver_info: driver_info(&socket, interface).map_err(|e| e.to_string()),
        link_modes: link_modes(&socket, interface).map_err(|e| e.to_string()),
    }
}

#[allow(unsafe_code)]
fn open_ethtool_socket() -> io::Result<std::os::fd::OwnedFd> {
    use std::os::fd::FromRawFd;
    // SAFETY: socket(2) takes no pointers; a non-negative result is a descriptor we own.
    let fd = unsafe { libc::socket(libc::AF_INET, libc::SOCK_DGRAM | libc::SOCK_CLOEXEC, 0) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just returned by socket(2) and is owned by nothing else.
    Ok(unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) })
}

/// One `SIOCETHTOOL` call on `interface` with `data` (a buffer starting with the command).
#[allow(unsafe_code)]
fn ethtool_call(
    socket: &std::os::fd::OwnedFd,
    interface: &str,
    data: &mut [u32],
) -> io::Result<()> {
    let bytes = interface.as_bytes();
    if bytes.is_empty() || bytes.len() >= 16 || bytes.contains(&0) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{interface:?} is not an interface name"),
        ));
    }
    let mut req = IfReqData {
        name: [0; 16],
        data: data.as_mut_ptr().cast(),
        _pad: [0; 16],
    };
    req.name[..bytes.len()].copy_from_slice(bytes);
    // SAFETY: `req` is a valid ifreq naming a NUL-terminated interface; its data pointer
    // points at `data`, a live buffer as long as the structure the command asks for (the
    // callers size it: 196 bytes for the driver info, the header and 3 × 127 mask words for
    // the link settings), which the kernel writes within.
    let r = unsafe { libc::ioctl(socket.as_raw_fd(), SIOCETHTOOL as _, &mut req) };
    if r < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// A NUL-padded C string of `struct ethtool_drvinfo`, `None` when empty.
fn c_field(bytes: &[u8]) -> Option<String> {
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    let s = String::from_utf8_lossy(&bytes[..end]).trim().to_string();
    (!s.is_empty()).then_some(s)
}

fn driver_info(
    socket: &std::os::fd::OwnedFd,
    interface: &str,
) -> io::Result<super::answers::DriverInfo> {
    // struct ethtool_drvinfo: cmd, driver[32], version[32], fw_version[32], bus_info[32],
    // erom_version[32], reserved2[12], five u32 counts: 196 bytes, 49 words.
    let mut buf = [0u32; 49];
    buf[0] = ETHTOOL_GDRVINFO;
    ethtool_call(socket, interface, &mut buf)?;
    let bytes: Vec<u8> = buf.iter().flat_map(|w| w.to_ne_bytes()).collect();
    let field = |at: usize| c_field(&bytes[at..at + 32]);
    Ok(super::answers::DriverInfo {
        driver: field(4),
        version: field(36),
        firmware: field(68),
        bus_info: field(100),
    })
}

fn link_modes(
    socket: &std::os::fd::OwnedFd,
    interface: &str,
) -> io::Result<super::answers::LinkModes> {
    // struct ethtool_link_settings: a 48-byte header (12 words), then the supported,
    // advertising and partner masks of `link_mode_masks_nwords` words each. The first call
    // asks with 0 words; the kernel answers with minus the number it uses.
    const HEADER: usize = 12;
    const MAX_WORDS: usize = 127;
    let mut buf = vec![0u32; HEADER + 3 * MAX_WORDS];
    buf[0] = ETHTOOL_GLINKSETTINGS;
    ethtool_call(socket, interface, &mut buf)?;
    let nwords_of = |buf: &[u32]| buf[3].to_ne_bytes()[3] as i8;
    let asked = nwords_of(&buf);
    let words = match asked {
        n if n < 0 => usize::from(n.unsigned_abs()),
        _ => {
            return Err(io::Error::other(
                "the driver did not say how many link-mode words it uses",
            ))
        }
    };
    if words > MAX_WORDS {
        return Err(io::Error::other(format!("{words} link-mode words")));
    }
    buf.iter_mut().for_each(|w| *w = 0);
    buf[0] = ETHTOOL_GLINKSETTINGS;
    let mut w3 = buf[3].to_ne_bytes();
    w3[3] = words as u8;
    buf[3] = u32::from_ne_bytes(w3);
    ethtool_call(socket, interface, &mut buf)?;
    if nwords_of(&buf) as usize != words {
        return Err(io::Error::other("the link-mode handshake did not settle"));
    }
    // SPEED_UNKNOWN is -1 (0xffffffff); 0 is no speed either.
    let speed = buf[1];
    Ok(super::answers::LinkModes {
        speed_mbps: (speed != 0 && speed != u32::MAX).then_some(speed),
        supported: buf[HEADER..HEADER + words].to_vec(),
    })
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
