//! The kernels rigcheck does not read (neither /proc and /sys nor answers it knows how to
//! ask): every fact answers as `fallback` does, "not available on this OS".

use super::answers::{Live, SmbiosTables};

pub use super::fallback::{
    anonymous_file, ata_smart, cpu_affinity, descriptor_path, drop_cache, ethtool, exchange,
    nvme_smart_log, open_for_reading,
};

/// Nothing is read live here.
pub const LIVE: Live = Live::Unreadable;

/// No SMBIOS tables a program can read that rigcheck knows of.
pub fn smbios_tables() -> SmbiosTables {
    SmbiosTables::Unexposed("this OS")
}

/// `capture` does not run here, so no temporary of a live capture can be there.
pub fn process_runs(_pid: u32) -> bool {
    false
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

/// No OS answers rigcheck knows how to ask here.
pub fn native_answers() -> Option<crate::native::NativeAnswers> {
    None
}

/// Why NVML cannot be here at all: it may.
pub const NVML_ABSENT: Option<&str> = None;

/// Persistence mode is a Linux driver setting (Windows has driver models instead): not
/// asked here.
#[cfg(feature = "nvml")]
pub fn persistence_mode(
    _d: &nvml_wrapper::Device<'_>,
) -> Option<Result<bool, nvml_wrapper::error::NvmlError>> {
    None
}
