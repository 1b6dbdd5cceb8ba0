//! The shapes of the answers every OS module gives: how the machine is read live, where
//! the SMBIOS tables are, a filesystem's space, and the error of a call an OS lacks.

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

/// What a name in a directory is, without following it (`stat_in`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Entry {
    /// A symbolic link, not followed.
    Link,
    /// A plain file of this many bytes.
    File(u64),
    Directory,
    /// A named pipe, device or socket.
    Other,
}

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
