//! macOS's own answers: sysinfo for process liveness. The machine is read through the
//! OS's answers (`probe::native`); the Linux-only calls answer as `fallback` does.

use super::answers::{Live, SmbiosTables};

pub use super::fallback::{
    anonymous_file, cpu_affinity, descriptor_path, drop_cache, exchange, open_for_reading,
};
pub use super::sysinfo_calls::process_runs;

/// macOS is read from the OS's own answers.
pub const LIVE: Live = Live::OsAnswers;

/// macOS keeps its firmware facts in the I/O Registry, not in SMBIOS tables a program can
/// read.
pub fn smbios_tables() -> SmbiosTables {
    SmbiosTables::Unexposed("macOS")
}
