//! macOS's own answers: sysinfo for process liveness. The machine is read through the
//! OS's answers (`probe::native`); the Linux-only calls answer as `fallback` does.

use super::answers::{Live, SmbiosTables};

pub use super::fallback::{
    anonymous_file, ata_smart, cpu_affinity, descriptor_path, drop_cache, ethtool, exchange,
    nvme_smart_log, open_for_reading,
};
pub use super::sysinfo_calls::process_runs;

/// macOS is read from the OS's own answers.
pub const LIVE: Live = Live::OsAnswers;

/// macOS keeps its firmware facts in the I/O Registry, not in SMBIOS tables a program can
/// read.
pub fn smbios_tables() -> SmbiosTables {
    SmbiosTables::Unexposed("macOS")
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

/// The OS's answers, asked now (sysinfo).
pub fn native_answers() -> Option<crate::native::NativeAnswers> {
    Some(super::native::collect())
}

/// macOS has no NVML.
pub const NVML_ABSENT: Option<&str> =
    Some("macOS has no NVML (NVIDIA's driver ends at macOS 10.13); Apple GPUs are not inventoried");

/// Persistence mode is a Linux driver setting (Windows has driver models instead): not
/// asked here.
#[cfg(feature = "nvml")]
pub fn persistence_mode(
    _d: &nvml_wrapper::Device<'_>,
) -> Option<Result<bool, nvml_wrapper::error::NvmlError>> {
    None
}
