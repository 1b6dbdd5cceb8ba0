//! Windows' own calls: the raw SMBIOS data (`GetSystemFirmwareTable('RSMB')`), the
//! processor layout (`GetLogicalProcessorInformationEx`) and the physical disks' storage
//! descriptors (`\\.\PhysicalDriveN` with `IOCTL_STORAGE_QUERY_PROPERTY` and
//! `IOCTL_DISK_GET_DRIVE_GEOMETRY_EX`, both of which work without administrator rights when
//! the disk is opened with no access), sysinfo for process liveness, and what Windows does
//! in place of the POSIX calls (where it has none, `fallback`'s answers). Each call fills a
//! byte buffer that the probes take apart (`probe::rsmb`, `probe::native::layout`), so the
//! only `unsafe` here is the call itself.

use std::fs::File;
use std::io;
use std::os::windows::fs::FileExt;

use windows_sys::Win32::Foundation::{CloseHandle, HANDLE, INVALID_HANDLE_VALUE};
use windows_sys::Win32::Storage::FileSystem::{
    CreateFileW, FILE_SHARE_READ, FILE_SHARE_WRITE, OPEN_EXISTING,
};
use windows_sys::Win32::System::Ioctl::{
    PropertyStandardQuery, StorageAccessAlignmentProperty, StorageDeviceProperty,
    StorageDeviceSeekPenaltyProperty, IOCTL_DISK_GET_DRIVE_GEOMETRY_EX,
    IOCTL_STORAGE_QUERY_PROPERTY,
};
use windows_sys::Win32::System::SystemInformation::{
    GetLogicalProcessorInformationEx, GetSystemFirmwareTable, RelationAll,
};
use windows_sys::Win32::System::IO::DeviceIoControl;

use super::answers::{Live, SmbiosTables};

pub use super::fallback::{
    anonymous_file, cpu_affinity, create_private_dir, descriptor_path, device_number, drop_cache,
    ethtool, exchange, file_identity, file_mode, keep_owner_and_mode, machine, open_for_reading,
    set_create_mode, special_file_kind, statvfs, symlink, Root,
};
pub use super::sysinfo_calls::process_runs;

/// Windows is read from the OS's own answers.
pub const LIVE: Live = Live::OsAnswers;

/// Only SIGINT and SIGTERM exist (Ctrl+C and Ctrl+Break).
pub const INTERRUPTS: &[i32] = &[signal_hook::consts::SIGINT, signal_hook::consts::SIGTERM];

/// Windows renames no directory onto another, not even an empty one.
pub const RENAME_REPLACES_EMPTY_DIR: bool = false;

/// The provider signature `'RSMB'` as `GetSystemFirmwareTable` takes it.
const RSMB: u32 = u32::from_be_bytes(*b"RSMB");

/// `ERROR_INSUFFICIENT_BUFFER`.
const INSUFFICIENT_BUFFER: i32 = 122;

/// `ERROR_CANT_RESOLVE_FILENAME`, Windows' answer to a reparse-point loop.
const CANT_RESOLVE_FILENAME: i32 = 1921;

/// The raw SMBIOS data, as `GetSystemFirmwareTable('RSMB', 0)` hands it over (no
/// administrator rights needed).
pub fn smbios_tables() -> SmbiosTables {
    SmbiosTables::Blob(raw_smbios())
}

fn raw_smbios() -> Result<Vec<u8>, String> {
    // The table can change between the size query and the read (hot-plugged memory): a
    // second pass with the new size, then give up.
    let mut size = 0u32;
    for _ in 0..2 {
        let mut buf = vec![0u8; size as usize];
        // SAFETY: `buf` is a live, writable allocation of exactly `size` bytes (null and 0
        // on the first pass, which only asks for the size); the call writes at most `size`
        // bytes into it and keeps no pointer after it returns.
        #[allow(unsafe_code)]
        let n = unsafe { GetSystemFirmwareTable(RSMB, 0, buf.as_mut_ptr().cast(), size) };
        if n == 0 {
            return Err(format!(
                "GetSystemFirmwareTable('RSMB'): {}",
                io::Error::last_os_error()
            ));
        }
        if n <= size {
            buf.truncate(n as usize);
            return Ok(buf);
        }
        size = n;
    }
    Err("GetSystemFirmwareTable('RSMB'): the table kept changing size".into())
}

/// Every record of `GetLogicalProcessorInformationEx(RelationAll)`, as the call wrote them.
pub fn logical_processor_information() -> Result<Vec<u8>, String> {
    let mut len = 0u32;
    // The size can grow between the two calls (a processor added): retry a few times.
    for _ in 0..4 {
        let mut buf = vec![0u8; len as usize];
        // SAFETY: `buf` is a writable allocation of `len` bytes (empty on the first pass,
        // which only asks for the size); the call writes at most `len` bytes into it and
        // updates `len`; no pointer is kept after it returns.
        #[allow(unsafe_code)]
        let ok = unsafe {
            GetLogicalProcessorInformationEx(RelationAll, buf.as_mut_ptr().cast(), &mut len)
        };
        if ok != 0 {
            buf.truncate(len as usize);
            return Ok(buf);
        }
        let e = io::Error::last_os_error();
        if e.raw_os_error() != Some(INSUFFICIENT_BUFFER) {
            return Err(format!("GetLogicalProcessorInformationEx: {e}"));
        }
    }
    Err("GetLogicalProcessorInformationEx: the answer kept changing size".into())
}

/// A storage property `IOCTL_STORAGE_QUERY_PROPERTY` answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StorageProperty {
    /// `STORAGE_DEVICE_DESCRIPTOR`: vendor, product, serial, bus type.
    Device,
    /// `DEVICE_SEEK_PENALTY_DESCRIPTOR`: whether seeks cost (a spinning disk).
    SeekPenalty,
    /// `STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR`: logical and physical sector sizes.
    AccessAlignment,
}

/// An open device, closed on drop.
pub struct Device(HANDLE);

impl Device {
    /// Opens a device for queries only (access 0: no read or write, so no admin rights).
    pub fn open(path: &str) -> io::Result<Device> {
        let wide: Vec<u16> = path.encode_utf16().chain(Some(0)).collect();
        // SAFETY: `wide` is a NUL-terminated UTF-16 path that outlives the call; the other
        // arguments are plain values or null (no security attributes, no template).
        #[allow(unsafe_code)]
        let h = unsafe {
            CreateFileW(
                wide.as_ptr(),
                0,
                FILE_SHARE_READ | FILE_SHARE_WRITE,
                std::ptr::null(),
                OPEN_EXISTING,
                0,
                std::ptr::null_mut(),
            )
        };
        if h == INVALID_HANDLE_VALUE {
            return Err(io::Error::last_os_error());
        }
        Ok(Device(h))
    }

    /// `IOCTL_STORAGE_QUERY_PROPERTY` for one property (standard query).
    pub fn storage_property(&self, property: StorageProperty) -> io::Result<Vec<u8>> {
        let id = match property {
            StorageProperty::Device => StorageDeviceProperty,
            StorageProperty::SeekPenalty => StorageDeviceSeekPenaltyProperty,
            StorageProperty::AccessAlignment => StorageAccessAlignmentProperty,
        };
        // STORAGE_PROPERTY_QUERY: PropertyId, QueryType, one byte of parameters (padded).
        let mut query = [0u8; 12];
        query[0..4].copy_from_slice(&id.to_le_bytes());
        query[4..8].copy_from_slice(&PropertyStandardQuery.to_le_bytes());
        self.ioctl(IOCTL_STORAGE_QUERY_PROPERTY, &query, 1024)
    }

    /// `IOCTL_DISK_GET_DRIVE_GEOMETRY_EX`: the geometry and the disk's size.
    pub fn drive_geometry(&self) -> io::Result<Vec<u8>> {
        self.ioctl(IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, &[], 256)
    }

    /// One `DeviceIoControl`, with an output buffer of `out_len` bytes.
    fn ioctl(&self, code: u32, input: &[u8], out_len: usize) -> io::Result<Vec<u8>> {
        let mut out = vec![0u8; out_len];
        let mut returned = 0u32;
        let in_len = u32::try_from(input.len()).map_err(io::Error::other)?;
        let cap = u32::try_from(out.len()).map_err(io::Error::other)?;
        // SAFETY: the handle is open; `input` and `out` are live buffers of the lengths
        // given; the call is synchronous (no OVERLAPPED), so nothing is written after it
        // returns.
        #[allow(unsafe_code)]
        let ok = unsafe {
            DeviceIoControl(
                self.0,
                code,
                input.as_ptr().cast(),
                in_len,
                out.as_mut_ptr().cast(),
                cap,
                &mut returned,
                std::ptr::null_mut(),
            )
        };
        if ok == 0 {
            return Err(io::Error::last_os_error());
        }
        out.truncate(returned as usize);
        Ok(out)
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        // SAFETY: the handle came from a successful CreateFileW and is closed once, here.
        #[allow(unsafe_code)]
        unsafe {
            CloseHandle(self.0);
        }
    }
}

/// Reads at `offset` (Windows moves the file's cursor; the callers do not use it).
pub fn read_at(f: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    f.seek_read(buf, offset)
}

/// Fills `buf` from `offset`.
pub fn read_exact_at(f: &File, mut buf: &mut [u8], mut offset: u64) -> io::Result<()> {
    while !buf.is_empty() {
        match f.seek_read(buf, offset) {
            Ok(0) => return Err(io::Error::from(io::ErrorKind::UnexpectedEof)),
            Ok(n) => {
                buf = &mut buf[n..];
                offset += n as u64;
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// `ERROR_CANT_RESOLVE_FILENAME`: a reparse-point loop.
pub fn is_symlink_loop(e: &io::Error) -> bool {
    e.raw_os_error() == Some(CANT_RESOLVE_FILENAME)
}

/// How to get the rights a read needs, in this OS's words.
pub const ELEVATE: &str = "run as administrator";

/// What NVML answers when it lets this user see no GPU.
pub const NVML_NO_PERMISSION: &str = "NVML: no permission (run as administrator)";

/// Windows consoles colour without `TERM`.
pub const COLOR_NEEDS_TERM: bool = false;

/// Windows has no `sh`: a pager command is split at spaces.
pub const PAGER_THROUGH_SH: bool = false;

/// The loader's error is named for the file Windows looked for.
pub const NVML_FILE_NAMED: Option<&str> = Some("nvml.dll");

/// Current drivers install nvml.dll into System32, which the loader searches; older ones left
/// it only in `NVIDIA Corporation\NVSMI` under Program Files: there, where it is.
pub fn nvml_elsewhere() -> Option<std::path::PathBuf> {
    let dir = std::env::var_os("ProgramW6432").or_else(|| std::env::var_os("ProgramFiles"))?;
    let path = std::path::Path::new(&dir).join(r"NVIDIA Corporation\NVSMI\nvml.dll");
    path.is_file().then_some(path)
}

/// The OS's answers, asked now (sysinfo, the processor layout and the physical disks).
pub fn native_answers() -> Option<crate::native::NativeAnswers> {
    Some(super::native::collect())
}

/// Why NVML cannot be here at all: it can.
pub const NVML_ABSENT: Option<&str> = None;

/// Persistence mode is a Linux driver setting (Windows has driver models instead): not
/// asked here.
#[cfg(feature = "nvml")]
pub fn persistence_mode(
    _d: &nvml_wrapper::Device<'_>,
) -> Option<Result<bool, nvml_wrapper::error::NvmlError>> {
    None
}
