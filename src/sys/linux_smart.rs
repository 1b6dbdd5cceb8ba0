//! Linux's calls for a drive's own health log: the NVMe admin passthrough ioctl
//! (`NVME_IOCTL_ADMIN_CMD`, Get Log Page 02h, the SMART / Health Information log) on the
//! controller's character device, and SCSI generic `SG_IO` with an ATA PASS-THROUGH (16)
//! command block for SMART READ DATA and SMART READ THRESHOLDS on a SATA disk. Both need root
//! (CAP_SYS_ADMIN for the admin command, CAP_SYS_RAWIO for SG_IO, and the device nodes are
//! root's); each answers the bytes the device returned or the error, and
//! `probe::health` decodes them.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::OpenOptionsExt;

/// Bytes of the SMART / Health Information log page (NVMe 1.4, figure 194).
pub const NVME_LOG_LEN: usize = 512;

/// Bytes of one ATA sector: SMART READ DATA and SMART READ THRESHOLDS each return one.
pub const ATA_SECTOR: usize = 512;

/// Longest a drive is given to answer, ms: a drive that does not answer in this time is
/// reported so, not waited for.
const TIMEOUT_MS: u32 = 5_000;

/// `struct nvme_passthru_cmd` of `<linux/nvme_ioctl.h>` (72 bytes).
#[repr(C)]
#[derive(Default)]
struct NvmePassthru {
    opcode: u8,
    flags: u8,
    rsvd1: u16,
    nsid: u32,
    cdw2: u32,
    cdw3: u32,
    metadata: u64,
    addr: u64,
    metadata_len: u32,
    data_len: u32,
    cdw10: u32,
    cdw11: u32,
    cdw12: u32,
    cdw13: u32,
    cdw14: u32,
    cdw15: u32,
    timeout_ms: u32,
    result: u32,
}

/// `_IOWR('N', 0x41, struct nvme_admin_cmd)`.
const NVME_IOCTL_ADMIN_CMD: u32 = ioctl_iowr(b'N', 0x41, std::mem::size_of::<NvmePassthru>());

/// `_IOWR(type, nr, size)` as `<asm-generic/ioctl.h>` builds it (x86, arm64, riscv and
/// s390 share this encoding; powerpc's differs, and there the call answers an error).
const fn ioctl_iowr(kind: u8, nr: u8, size: usize) -> u32 {
    (3 << 30) | ((size as u32 & 0x3fff) << 16) | ((kind as u32) << 8) | nr as u32
}

/// Admin command Get Log Page.
const NVME_GET_LOG_PAGE: u8 = 0x02;

/// Log identifier of the SMART / Health Information log.
const NVME_LOG_SMART: u32 = 0x02;

/// The controller's whole log, not one namespace's.
const NVME_NSID_ALL: u32 = 0xffff_ffff;

/// The device node of `name` under /dev, refusing anything but a plain kernel name (a drive
/// name comes from a directory listing, so a path in it is no drive).
fn device(name: &str) -> io::Result<File> {
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("'{name}' is not a kernel device name"),
        ));
    }
    // O_NONBLOCK: a device node swapped for a FIFO must not block the open.
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(format!("/dev/{name}"))
}

/// The SMART / Health Information log page of NVMe controller `/dev/<controller>`
/// (`nvme0`), the 512 bytes as the controller returned them.
#[allow(unsafe_code)]
pub fn nvme_smart_log(controller: &str) -> io::Result<Vec<u8>> {
    let file = device(controller)?;
    let mut buf = vec![0u8; NVME_LOG_LEN];
    // NUMDL: the number of dwords to read, less one, in bits 31:16; the log id in 7:0.
    let numd = (NVME_LOG_LEN / 4 - 1) as u32;
    let mut cmd = NvmePassthru {
        opcode: NVME_GET_LOG_PAGE,
        nsid: NVME_NSID_ALL,
        addr: buf.as_mut_ptr() as u64,
        data_len: NVME_LOG_LEN as u32,
        cdw10: (numd << 16) | NVME_LOG_SMART,
        timeout_ms: TIMEOUT_MS,
        ..NvmePassthru::default()
    };
    // SAFETY: the descriptor is open for the lifetime of `file`; `cmd` is a live
    // `nvme_passthru_cmd` whose `addr` points at `buf`, a writable buffer of `data_len`
    // bytes that outlives the call; the kernel writes at most that much and keeps no pointer.
    let rc = unsafe {
        libc::ioctl(
            file.as_raw_fd(),
            NVME_IOCTL_ADMIN_CMD as _,
            &mut cmd as *mut NvmePassthru,
        )
    };
    match rc {
        0 => Ok(buf),
        // A positive answer is the NVMe status of a command the controller refused.
        n if n > 0 => Err(io::Error::other(format!(
            "the controller refused Get Log Page 02h (NVMe status 0x{n:x})"
        ))),
        _ => Err(io::Error::last_os_error()),
    }
}

/// `struct sg_io_hdr` of `<scsi/sg.h>`.
#[repr(C)]
struct SgIoHdr {
    interface_id: i32,
    dxfer_direction: i32,
    cmd_len: u8,
    mx_sb_len: u8,
    iovec_count: u16,
    dxfer_len: u32,
    dxferp: *mut libc::c_void,
    cmdp: *const u8,
    sbp: *mut u8,
    timeout: u32,
    flags: u32,
    pack_id: i32,
    usr_ptr: *mut libc::c_void,
    status: u8,
    masked_status: u8,
    msg_status: u8,
    sb_len_wr: u8,
    host_status: u16,
    driver_status: u16,
    resid: i32,
    duration: u32,
    info: u32,
}

/// `SG_IO` of `<scsi/sg.h>`.
const SG_IO: u32 = 0x2285;

/// `SG_DXFER_FROM_DEV`.
const SG_DXFER_FROM_DEV: i32 = -3;

/// SMART feature codes (ACS-3 7.44): READ DATA, READ THRESHOLDS (obsolete in ACS-3 but kept by
/// drives, and what smartctl reads the thresholds with).
const SMART_READ_DATA: u8 = 0xd0;
const SMART_READ_THRESHOLDS: u8 = 0xd1;

/// SMART READ DATA followed by SMART READ THRESHOLDS of SATA disk `/dev/<disk>` (`sda`):
/// 1,024 bytes, each sector as the drive returned it.
pub fn ata_smart(disk: &str) -> io::Result<Vec<u8>> {
    let file = device(disk)?;
    let mut out = ata_smart_sector(&file, SMART_READ_DATA)?;
    out.extend(ata_smart_sector(&file, SMART_READ_THRESHOLDS)?);
    Ok(out)
}

/// One SMART sector through ATA PASS-THROUGH (16) (SAT-4 12.2.2), PIO data-in.
#[allow(unsafe_code)]
fn ata_smart_sector(file: &File, feature: u8) -> io::Result<Vec<u8>> {
    let mut buf = vec![0u8; ATA_SECTOR];
    let mut sense = [0u8; 32];
    let cdb: [u8; 16] = [
        0x85,                    // ATA PASS-THROUGH (16)
        4 << 1,                  // protocol 4: PIO data-in
        (1 << 3) | (1 << 2) | 2, // T_DIR from the device, BYT_BLOK, T_LENGTH in the count
        0,
        feature,
        0,
        1, // one sector
        0,
        // READ THRESHOLDS wants LBA low 1, as smartctl sends it; READ DATA ignores it.
        u8::from(feature == SMART_READ_THRESHOLDS),
        0,
        0x4f, // LBA mid and high: the SMART signature
        0,
        0xc2,
        0,
        0xb0, // SMART
        0,
    ];
    let mut hdr = SgIoHdr {
        interface_id: i32::from(b'S'),
        dxfer_direction: SG_DXFER_FROM_DEV,
        cmd_len: cdb.len() as u8,
        mx_sb_len: sense.len() as u8,
        iovec_count: 0,
        dxfer_len: ATA_SECTOR as u32,
        dxferp: buf.as_mut_ptr().cast(),
        cmdp: cdb.as_ptr(),
        sbp: sense.as_mut_ptr(),
        timeout: TIMEOUT_MS,
        flags: 0,
        pack_id: 0,
        usr_ptr: std::ptr::null_mut(),
        status: 0,
        masked_status: 0,
        msg_status: 0,
        sb_len_wr: 0,
        host_status: 0,
        driver_status: 0,
        resid: 0,
        duration: 0,
        info: 0,
    };
    // SAFETY: the descriptor is open for the lifetime of `file`; `hdr` is a live
    // `sg_io_hdr` whose pointers name `buf` (`dxfer_len` writable bytes), `cdb` (`cmd_len`
    // readable bytes) and `sense` (`mx_sb_len` writable bytes), all of which outlive the
    // synchronous call; the kernel keeps none of them after it returns.
    let rc = unsafe { libc::ioctl(file.as_raw_fd(), SG_IO as _, &mut hdr as *mut SgIoHdr) };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    // A CHECK CONDITION whose sense holds the ATA Status Return descriptor (code 0x09 at
    // byte 8 of descriptor-format sense: error register at 11, status at 21) reports the
    // registers; only the status's ERR bit says the command failed.
    let ata_return = hdr.sb_len_wr >= 22 && sense[8] == 0x09;
    if hdr.host_status != 0 || hdr.driver_status & !0x08 != 0 {
        return Err(io::Error::other(format!(
            "the disk did not answer SMART (host status {}, driver status {})",
            hdr.host_status, hdr.driver_status
        )));
    }
    if hdr.masked_status != 0 && !ata_return {
        return Err(io::Error::other(format!(
            "the disk refused SMART (SCSI status 0x{:x}, sense key 0x{:x})",
            hdr.status,
            sense.get(2).map_or(0, |k| k & 0x0f)
        )));
    }
    if ata_return && sense[21] & 0x01 != 0 {
        return Err(io::Error::other(format!(
            "the disk aborted SMART 0x{feature:x} (ATA error register 0x{:x})",
            sense[11]
        )));
    }
    let got = ATA_SECTOR.saturating_sub(usize::try_from(hdr.resid).unwrap_or(0));
    buf.truncate(got);
    Ok(buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_structures_have_the_kernels_layout() {
        assert_eq!(std::mem::size_of::<NvmePassthru>(), 72);
        // NVME_IOCTL_ADMIN_CMD as nvme-cli and the kernel spell it on x86-64.
        assert_eq!(NVME_IOCTL_ADMIN_CMD, 0xc048_4e41);
        if cfg!(target_pointer_width = "64") {
            assert_eq!(std::mem::size_of::<SgIoHdr>(), 88);
        }
    }

    #[test]
    fn names_that_are_not_device_names_are_refused_before_any_open() {
        for bad in ["", "../etc/shadow", "nvme0/..", "sda b"] {
            let e = device(bad).unwrap_err();
            assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{bad}");
        }
    }

    #[test]
    fn a_device_node_that_is_not_there_is_an_error_not_a_log() {
        // No machine has 99 NVMe controllers or a disk named sdzz9.
        let e = nvme_smart_log("nvme99").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
        let e = ata_smart("sdzz9").unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::NotFound);
    }
}
