//! Windows' own calls: the raw SMBIOS data (`GetSystemFirmwareTable('RSMB')`), the
//! processor layout (`GetLogicalProcessorInformationEx`), an NVMe disk's health log
//! (`StorageDeviceProtocolSpecificProperty`) and the physical disks' storage
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
    anonymous_file, ata_smart, cpu_affinity, create_private_dir, descriptor_path, device_number,
    drop_cache, ethtool, exchange, file_identity, file_mode, keep_owner_and_mode, machine,
    open_for_reading, set_create_mode, special_file_kind, statvfs, symlink, Root,
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

    /// `IOCTL_STORAGE_QUERY_PROPERTY` with `StorageDeviceProtocolSpecificProperty`: an NVMe
    /// log page the storage driver fetches for us (Windows 10 1607 and later, the inbox
    /// stornvme driver and most vendors'). Answers the `STORAGE_PROTOCOL_DATA_DESCRIPTOR`
    /// with the page after it, for `nvme_log_page` to take apart.
    fn nvme_log_query(&self, log_id: u32, len: u32) -> io::Result<Vec<u8>> {
        // STORAGE_PROPERTY_QUERY (PropertyId, QueryType), then in place of its parameters a
        // STORAGE_PROTOCOL_SPECIFIC_DATA (ten DWORDs), then room for the page.
        let mut query = vec![0u8; 8 + PROTOCOL_DATA_LEN + len as usize];
        let mut put = |at: usize, v: u32| query[at..at + 4].copy_from_slice(&v.to_le_bytes());
        put(0, STORAGE_DEVICE_PROTOCOL_SPECIFIC_PROPERTY);
        put(4, PropertyStandardQuery as u32);
        put(8, PROTOCOL_TYPE_NVME);
        put(12, NVME_DATA_TYPE_LOG_PAGE);
        put(16, log_id);
        put(20, 0);
        put(24, PROTOCOL_DATA_LEN as u32);
        put(28, len);
        let out_len = query.len();
        self.ioctl(IOCTL_STORAGE_QUERY_PROPERTY, &query, out_len)
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

/// `StorageDeviceProtocolSpecificProperty` of `STORAGE_PROPERTY_ID`.
const STORAGE_DEVICE_PROTOCOL_SPECIFIC_PROPERTY: u32 = 50;

/// `ProtocolTypeNvme` of `STORAGE_PROTOCOL_TYPE`.
const PROTOCOL_TYPE_NVME: u32 = 3;

/// `NVMeDataTypeLogPage` of `STORAGE_PROTOCOL_NVME_DATA_TYPE`.
const NVME_DATA_TYPE_LOG_PAGE: u32 = 2;

/// Bytes of `STORAGE_PROTOCOL_SPECIFIC_DATA`.
const PROTOCOL_DATA_LEN: usize = 40;

/// The SMART / Health Information log page (02h) of `\\.\<device>` (`PhysicalDrive0`), the
/// 512 bytes as the drive returned them. An error where the disk is not NVMe, its driver
/// does not pass the query on, or the caller may not ask.
pub fn nvme_smart_log(device: &str) -> io::Result<Vec<u8>> {
    if device.is_empty() || !device.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("'{device}' is not a physical drive name"),
        ));
    }
    let answer = Device::open(&format!(r"\\.\{device}"))?.nvme_log_query(2, 512)?;
    nvme_log_page(&answer, 512)
}

/// The log page out of a `STORAGE_PROTOCOL_DATA_DESCRIPTOR` (Version, Size, then the
/// `STORAGE_PROTOCOL_SPECIFIC_DATA` whose `ProtocolDataOffset` and `ProtocolDataLength`,
/// counted from its own start, place the page).
fn nvme_log_page(answer: &[u8], want: usize) -> io::Result<Vec<u8>> {
    let word = |at: usize| {
        answer
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    };
    let short = || {
        io::Error::other(format!(
            "the storage driver's answer is {} bytes, too short for a log page",
            answer.len()
        ))
    };
    let (offset, len) = (
        word(8 + 16).ok_or_else(short)?,
        word(8 + 20).ok_or_else(short)?,
    );
    let page = answer
        .get(8 + offset..)
        .and_then(|p| p.get(..len.min(want)))
        .ok_or_else(short)?;
    Ok(page.to_vec())
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::nvme_log_page;

    /// A `STORAGE_PROTOCOL_DATA_DESCRIPTOR` as stornvme answers: Version and Size, the
    /// `STORAGE_PROTOCOL_SPECIFIC_DATA` (protocol, data type, log id, 0, offset 40, length),
    /// then the page.
    fn answer(page: &[u8], offset: u32, len: u32) -> Vec<u8> {
        let mut a = Vec::new();
        for v in [48u32, 48, 3, 2, 2, 0, offset, len, 0, 0, 0, 0] {
            a.extend_from_slice(&v.to_le_bytes());
        }
        a.extend_from_slice(page);
        a
    }

    #[test]
    fn the_page_comes_from_where_the_descriptor_places_it() {
        let page: Vec<u8> = (0..512u32).map(|i| (i % 251) as u8).collect();
        assert_eq!(nvme_log_page(&answer(&page, 40, 512), 512).unwrap(), page);
        // A driver that answers fewer bytes than asked: what it gave (the decoder says
        // it is short).
        let got = nvme_log_page(&answer(&page[..100], 40, 100), 512).unwrap();
        assert_eq!(got, page[..100]);
    }

    #[test]
    fn a_short_or_garbled_answer_is_an_error_not_a_page() {
        assert!(nvme_log_page(&[0u8; 12], 512).is_err());
        let page = [7u8; 512];
        // An offset past the end, a length past the end.
        assert!(nvme_log_page(&answer(&page, 4000, 512), 512).is_err());
        assert!(nvme_log_page(&answer(&page, 40, 9000), 512).is_ok_and(|p| p.len() == 512));
    }
}
