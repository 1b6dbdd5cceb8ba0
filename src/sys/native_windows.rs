//! The Windows answers sysinfo does not give: the processor layout
//! (`GetLogicalProcessorInformationEx`) and the physical disks (`\\.\PhysicalDriveN` and
//! their storage descriptors). The calls are made in `sys::windows`, each filling a byte
//! buffer; `layout` reads it, and this module walks the drives and keeps what each said.

use crate::sys::windows::{logical_processor_information, Device, StorageProperty};

use crate::native::layout;
use crate::native::{Disk, Processors};

/// Physical drive numbers tried. Windows numbers disks from 0 in the order it found them
/// and may leave gaps after a removal, so every number up to this is tried (a missing one
/// costs one failed open, microseconds).
const MAX_DRIVES: u32 = 64;

/// `ERROR_FILE_NOT_FOUND`, `ERROR_PATH_NOT_FOUND`.
const NOT_FOUND: [i32; 2] = [2, 3];

/// The processor layout: every record of `GetLogicalProcessorInformationEx(RelationAll)`.
pub fn processors() -> Result<Processors, String> {
    if cfg!(not(target_pointer_width = "64")) {
        return Err("the processor layout is read on 64-bit Windows only".into());
    }
    let buf = logical_processor_information()?;
    layout::parse_processor_information(&buf)
}

/// Every physical disk Windows lists; an error names a disk that could not be asked.
pub fn disks() -> (Vec<Disk>, Option<String>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for n in 0..MAX_DRIVES {
        let device = format!("PhysicalDrive{n}");
        match Device::open(&format!(r"\\.\{device}")) {
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

fn disk(h: &Device, device: String) -> Result<Disk, String> {
    let mut d = Disk {
        device,
        ..Disk::default()
    };
    let desc = h
        .storage_property(StorageProperty::Device)
        .map_err(|e| format!("IOCTL_STORAGE_QUERY_PROPERTY: {e}"))?;
    layout::parse_device_descriptor(&desc, &mut d)?;
    // The rest is optional: older drivers answer "not supported".
    d.seek_penalty = h
        .storage_property(StorageProperty::SeekPenalty)
        .ok()
        .and_then(|b| layout::parse_seek_penalty(&b));
    if let Some((logical, physical)) = h
        .storage_property(StorageProperty::AccessAlignment)
        .ok()
        .and_then(|b| layout::parse_alignment(&b))
    {
        d.logical_sector_bytes = Some(logical).filter(|&n| n > 0);
        d.physical_sector_bytes = Some(physical).filter(|&n| n > 0);
    }
    d.size_bytes = h
        .drive_geometry()
        .ok()
        .and_then(|b| layout::parse_disk_size(&b));
    Ok(d)
}
