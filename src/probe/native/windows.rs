//! The Windows calls sysinfo does not make: the processor layout
//! (`GetLogicalProcessorInformationEx`) and the physical disks (`\\.\PhysicalDriveN` with
//! `IOCTL_STORAGE_QUERY_PROPERTY` and `IOCTL_DISK_GET_DRIVE_GEOMETRY_EX`, both of which
//! work without administrator rights when the disk is opened with no access). Each call
//! fills a byte buffer; `layout` reads it, so the only `unsafe` here is the call itself.

use std::io;

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
    GetLogicalProcessorInformationEx, RelationAll,
};
use windows_sys::Win32::System::IO::DeviceIoControl;

use super::layout;
use super::record::{Disk, Processors};

/// Physical drive numbers tried. Windows numbers disks from 0 in the order it found them
/// and may leave gaps after a removal, so every number up to this is tried (a missing one
/// costs one failed open, microseconds).
const MAX_DRIVES: u32 = 64;

/// `ERROR_INSUFFICIENT_BUFFER`.
const INSUFFICIENT_BUFFER: i32 = 122;
/// `ERROR_FILE_NOT_FOUND`, `ERROR_PATH_NOT_FOUND`.
const NOT_FOUND: [i32; 2] = [2, 3];

/// The processor layout: every record of `GetLogicalProcessorInformationEx(RelationAll)`.
pub fn processors() -> Result<Processors, String> {
    if cfg!(not(target_pointer_width = "64")) {
        return Err("the processor layout is read on 64-bit Windows only".into());
    }
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
            return layout::parse_processor_information(&buf);
        }
        let e = io::Error::last_os_error();
        if e.raw_os_error() != Some(INSUFFICIENT_BUFFER) {
            return Err(format!("GetLogicalProcessorInformationEx: {e}"));
        }
    }
    Err("GetLogicalProcessorInformationEx: the answer kept changing size".into())
}

/// Every physical disk Windows lists; an error names a disk that could not be asked.
pub fn disks() -> (Vec<Disk>, Option<String>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for n in 0..MAX_DRIVES {
        let device = format!("PhysicalDrive{n}");
        match Handle::open(&format!(r"\\.\{device}")) {
            Ok(h) => match disk(&h, device.clone()) {
                Ok(d) => out.push(d),
                Err(e) => errors.push(format!("{device}: {e}")),
            },
            Err(e) if e.raw_os_error().is_some_and(|c| NOT_FOUND.contains(&c)) => {}
            Err(e) => errors.push(format!("{device}: {e}")),
        }
    }
    let why = (!errors.is_empty()).then(|| errors.join("; "));
    (out, why)
}

fn disk(h: &Handle, device: String) -> Result<Disk, String> {
    let mut d = Disk {
        device,
        ..Disk::default()
    };
    let desc = h
        .query_property(StorageDeviceProperty)
        .map_err(|e| format!("IOCTL_STORAGE_QUERY_PROPERTY: {e}"))?;
    layout::parse_device_descriptor(&desc, &mut d)?;
    // The rest is optional: older drivers answer "not supported".
    d.seek_penalty = h
        .query_property(StorageDeviceSeekPenaltyProperty)
        .ok()
        .and_then(|b| layout::parse_seek_penalty(&b));
    if let Some((logical, physical)) = h
        .query_property(StorageAccessAlignmentProperty)
        .ok()
        .and_then(|b| layout::parse_alignment(&b))
    {
        d.logical_sector_bytes = Some(logical).filter(|&n| n > 0);
        d.physical_sector_bytes = Some(physical).filter(|&n| n > 0);
    }
    d.size_bytes = h
        .ioctl(IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, &[], 256)
        .ok()
        .and_then(|b| layout::parse_disk_size(&b));
    Ok(d)
}

/// An open device, closed on drop.
struct Handle(HANDLE);

impl Handle {
    /// Opens a device for queries only (access 0: no read or write, so no admin rights).
    fn open(path: &str) -> io::Result<Handle> {
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
        Ok(Handle(h))
    }

    /// `IOCTL_STORAGE_QUERY_PROPERTY` for one property (standard query).
    fn query_property(&self, property: i32) -> io::Result<Vec<u8>> {
        // STORAGE_PROPERTY_QUERY: PropertyId, QueryType, one byte of parameters (padded).
        let mut query = [0u8; 12];
        query[0..4].copy_from_slice(&property.to_le_bytes());
        query[4..8].copy_from_slice(&PropertyStandardQuery.to_le_bytes());
        self.ioctl(IOCTL_STORAGE_QUERY_PROPERTY, &query, 1024)
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

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: the handle came from a successful CreateFileW and is closed once, here.
        #[allow(unsafe_code)]
        unsafe {
            CloseHandle(self.0);
        }
    }
}
