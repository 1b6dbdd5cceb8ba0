//! The kernels rigcheck does not read (neither /proc and /sys nor answers it knows how to
//! ask): every fact answers as `fallback` does, "not available on this OS".

use super::answers::{Live, SmbiosTables};

pub use super::fallback::{
    anonymous_file, cpu_affinity, descriptor_path, drop_cache, exchange, open_for_reading,
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
