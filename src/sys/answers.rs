//! The shapes of the answers every OS module gives: how the machine is read live, where
//! the SMBIOS tables are, a filesystem's space, the error of a call an OS lacks, and what a
//! sysroot's path turned out to be.

/// How the machine rigcheck runs on is read live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Live {
    /// From /proc and /sys (Linux).
    Files,
    /// From the OS's own answers (Windows and macOS: sysinfo and the OS's calls).
    OsAnswers,
    /// Not at all: this OS has neither.
    Unreadable,
}

/// Where this OS keeps the SMBIOS tables for a program to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SmbiosTables {
    /// As files (Linux: `/sys/firmware/dmi/tables`), read like every other file.
    Files,
    /// Through a call that hands over the raw data (Windows' `RSMB` firmware table), or why
    /// the call failed.
    Blob(Result<Vec<u8>, String>),
    /// Nowhere a program can read them; names the OS for the note.
    Unexposed(&'static str),
}

/// Size and free space of a filesystem (statvfs), in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FsSpace {
    /// f_blocks × f_frsize.
    pub total_bytes: u64,
    /// f_bavail × f_frsize (free to unprivileged users).
    pub available_bytes: u64,
}

/// Why a call has no answer on this OS, as an error of its kind (`Unsupported`).
pub fn unsupported(what: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::Unsupported, what.to_string())
}

/// How a sysroot's paths are resolved (`Root::open`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    /// By the kernel beneath the root where it can (Linux 5.6's `openat2` with
    /// `RESOLVE_IN_ROOT`), else by the walk.
    Kernel,
    /// By the walk alone, one part at a time: what runs where the kernel cannot, chosen
    /// outright so it is tested on kernels that can.
    Walk,
}

/// What the last part of a path under a sysroot is opened as (`beneath`, and the kernel's
/// lookup beneath a directory that `linux` offers it): Unix only.
#[cfg(unix)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Want {
    /// A file to read: never blocking on a named pipe, never taking a terminal as this
    /// process's own.
    File,
    /// A directory to list.
    Dir,
    /// Whatever is there, only to know it is there and where (`O_PATH` where the kernel
    /// has it).
    Name,
}

/// What a path opened to be read under a sysroot turned out to be (`Root::open_file`).
#[derive(Debug)]
pub enum Opened {
    /// A plain file, open, and its size.
    File(std::fs::File, u64),
    /// A directory: not read.
    Directory,
    /// A named pipe, device or socket: not read (a read could block, or never end).
    Other,
}

/// Why a path under a sysroot was refused, carried inside an `io::Error` so a caller can
/// tell it from the OS's own errors (`refusal`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The OS resolves the path to a place outside the root.
    Outside,
    /// More links on the way than the kernel follows (40).
    TooManyLinks,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Refusal::Outside => "resolves outside the sysroot",
            Refusal::TooManyLinks => "too many levels of symbolic links",
        })
    }
}

impl std::error::Error for Refusal {}

impl From<Refusal> for std::io::Error {
    fn from(r: Refusal) -> Self {
        std::io::Error::other(r)
    }
}

/// The refusal an error carries, if it is one.
pub fn refusal(e: &std::io::Error) -> Option<Refusal> {
    e.get_ref()?.downcast_ref::<Refusal>().copied()
}

/// Most symlinks followed while resolving one path under a sysroot: the kernel's own limit.
pub const MAX_SYMLINKS: usize = 40;

/// What ethtool's calls (`SIOCETHTOOL`) answered for one network interface: the driver's
/// info and the link modes the port supports, each or why there is none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ethtool {
    /// `ETHTOOL_GDRVINFO`.
    pub driver_info: Result<DriverInfo, String>,
    /// `ETHTOOL_GLINKSETTINGS`: the supported link-mode bitmap, 32 bits a word (bit N is
    /// `ETHTOOL_LINK_MODE_*_BIT` N of linux/ethtool.h), and the speed now (Mb/s, `None` for
    /// SPEED_UNKNOWN).
    pub link_modes: Result<LinkModes, String>,
}

/// `struct ethtool_drvinfo`'s strings, empty ones as `None`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DriverInfo {
    pub driver: Option<String>,
    pub version: Option<String>,
    pub firmware: Option<String>,
    pub bus_info: Option<String>,
}

/// `struct ethtool_link_settings`'s speed and supported modes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LinkModes {
    pub speed_mbps: Option<u32>,
    pub supported: Vec<u32>,
}
