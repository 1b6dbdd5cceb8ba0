//! The operating system's own calls, one module per OS behind one set of functions: every
//! `unsafe` block of the crate is here, but for the GPU libraries' entry points (NVML's in
//! `probe::gpu::live`, CUDA's in `bench::gpu`), and so is every choice of code by OS. A
//! caller asks what it needs (`statvfs`, `cpu_affinity`, `smbios_tables`, ...) and gets the
//! answer or the reason there is none, never a `cfg` of its own.
//!
//! Two axes, as the OSes differ: the POSIX calls every Unix shares (`unix`: statvfs, uname,
//! file modes, symlinks, positioned reads; `beneath`: a sysroot's files opened beneath it)
//! and what each kernel has of its own (`linux`: sched_getaffinity, renameat2, O_DIRECT,
//! /proc, openat2; `macos`; `windows`, which is both axes: RSMB, the processor layout, the
//! storage ioctls). Where an OS has no call for something, its module takes `fallback`'s
//! answer ("not available on this OS", or the plain std way: `fallback::Root` walks a
//! sysroot by name and checks where the OS resolves it); `elsewhere` and `no_posix` are the
//! OSes rigcheck does not read.
//!
//! Every kernel module defines: `LIVE`, `cpu_affinity`, `exchange`, `process_runs`,
//! `nvme_smart_log`, `ata_smart` (a drive's own health log, as bytes: Linux's in
//! `linux_smart`),
//! `smbios_tables`, `open_for_reading`, `drop_cache`, `anonymous_file`, `descriptor_path`,
//! `native_answers`, `nvml_elsewhere`, `persistence_mode` (with the nvml feature), `ethtool`, `ELEVATE`,
//! `NVML_ABSENT`, `NVML_NO_PERMISSION`, `NVML_FILE_NAMED`, `COLOR_NEEDS_TERM` (and `linux`
//! alone `open_in_root`, for `beneath`). Every POSIX-axis module defines:
//! `statvfs`, `machine`, `read_at`, `read_exact_at`, `device_number`, `file_identity`,
//! `special_file_kind`, `keep_owner_and_mode`, `create_private_dir`, `set_create_mode`,
//! `file_mode`, `symlink`, `is_symlink_loop`, `RENAME_REPLACES_EMPTY_DIR`, `INTERRUPTS`,
//! and `Root` (a sysroot opened once: `open`, `open_file`, `list_dir`, `exists`,
//! `read_link`, `canonical`). Every OS shares `answers`: `Lookup`, `Opened`, `Refusal` and
//! `refusal`, `MAX_SYMLINKS`, and the rest.

mod answers;
pub mod fallback;
mod instructions;

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
pub use linux::*;
#[cfg(target_os = "linux")]
mod linux_smart;
#[cfg(target_os = "linux")]
pub use linux_smart::{ata_smart, nvme_smart_log};

#[cfg(target_os = "macos")]
mod macos;
#[cfg(target_os = "macos")]
pub use macos::*;

#[cfg(windows)]
pub mod windows;
#[cfg(windows)]
pub use windows::*;

#[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
mod elsewhere;
#[cfg(not(any(target_os = "linux", target_os = "macos", windows)))]
pub use elsewhere::*;

#[cfg(any(windows, target_os = "macos"))]
mod sysinfo_calls;

// The OS's own answers where there is no /proc or /sys (`native_answers`).
#[cfg(any(windows, target_os = "macos"))]
mod native;
#[cfg(windows)]
mod native_windows;

#[cfg(unix)]
mod unix;
#[cfg(unix)]
pub use unix::*;

#[cfg(unix)]
mod beneath;
#[cfg(unix)]
pub use beneath::Root;

#[cfg(not(any(unix, windows)))]
mod no_posix;
#[cfg(not(any(unix, windows)))]
pub use no_posix::*;

pub use answers::{
    refusal, unsupported, DriverInfo, Ethtool, FsSpace, LinkModes, Live, Lookup, Opened, Refusal,
    SmbiosTables, MAX_SYMLINKS,
};
pub use instructions::cpuid;
