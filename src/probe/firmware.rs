//! Where the SMBIOS table comes from: the kernel's copy in `/sys/firmware/dmi/tables` on
//! Linux, or Windows' raw SMBIOS data (`GetSystemFirmwareTable('RSMB')`, kept in a capture
//! as `rsmb.bin`). Either way the probes get an entry point (version, length) and the table
//! bytes, so memory, headroom and system identity are decoded by the same code on both.
//!
//! A sysroot that holds `rsmb.bin` was captured on Windows and is read from it; any other
//! sysroot, and live Linux, from sysfs. Live Windows asks the firmware-table call (no
//! administrator rights needed) and, when capturing, records the blob as it came.
//!
//! `probe::inventory` is the one caller of `read`: it reads and walks the table once per run
//! and hands the walked table (`Smbios`), or why there is none (`Missing`), to every probe
//! that decodes it.

use std::fmt;

use crate::probe::rsmb;
use crate::probe::smbios::{self, EntryPoint, Table};
use crate::source::{Source, Unknown};
use crate::sys::{self, SmbiosTables};

/// The raw SMBIOS data of a Windows capture, as `GetSystemFirmwareTable('RSMB')` gave it.
pub const RSMB_FILE: &str = "rsmb.bin";

/// The kernel's SMBIOS entry point.
pub const SMBIOS_EP: &str = "/sys/firmware/dmi/tables/smbios_entry_point";
/// The kernel's SMBIOS table.
pub const SMBIOS_DMI: &str = "/sys/firmware/dmi/tables/DMI";

/// An SMBIOS table with the version it was written for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tables {
    pub entry_point: EntryPoint,
    pub table: Vec<u8>,
    /// Where it came from, for notes: the sysfs path, `rsmb.bin` or the Windows call.
    pub origin: String,
}

impl Tables {
    /// Walks the structures.
    pub fn walk(&self) -> Smbios<'_> {
        Smbios {
            table: Table::parse(&self.table, Some(&self.entry_point)),
            entry_point: &self.entry_point,
            origin: &self.origin,
        }
    }
}

/// The machine's SMBIOS table, walked once, with its version and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Smbios<'a> {
    pub table: Table<'a>,
    pub entry_point: &'a EntryPoint,
    /// The sysfs path, `rsmb.bin` or the Windows call, for notes.
    pub origin: &'a str,
}

/// Why there is no table to decode.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Missing {
    /// A file could not be read (root-only tables, absent tables, a refused path).
    Read(Unknown),
    /// The data was read but cannot be used; the text says what and where.
    Unusable(String),
}

/// Why there is no table, in the words every note about it uses.
impl fmt::Display for Missing {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Said once: "SMBIOS tables need root: … is readable by root only".
            Missing::Read(Unknown::PermissionDenied(p)) => write!(
                f,
                "SMBIOS tables need root: {} is readable by root only",
                p.display()
            ),
            Missing::Read(e @ Unknown::NotFound(_)) => write!(f, "no SMBIOS tables: {e}"),
            Missing::Read(e) => write!(f, "SMBIOS tables unreadable: {e}"),
            Missing::Unusable(why) => f.write_str(why),
        }
    }
}

/// The machine's SMBIOS table: the recorded or live RSMB blob where there is one, else the
/// sysfs files.
pub fn read(src: &Source) -> Result<Tables, Missing> {
    if src.is_live() {
        return read_live(src);
    }
    match src.recorded_bytes(RSMB_FILE) {
        Ok(blob) => from_rsmb(&blob, RSMB_FILE),
        Err(Unknown::NotRecorded(_)) => read_sysfs(src),
        Err(e) => Err(Missing::Read(e)),
    }
}

/// The live machine's table, from where its OS keeps it (`sys::smbios_tables`): sysfs on
/// Linux, the firmware-table call on Windows (recorded when capturing).
fn read_live(src: &Source) -> Result<Tables, Missing> {
    match sys::smbios_tables() {
        SmbiosTables::Files => read_sysfs(src),
        SmbiosTables::Blob(blob) => {
            let blob = blob.map_err(|e| Missing::Unusable(format!("no SMBIOS tables: {e}")))?;
            src.store_answer(RSMB_FILE, blob.clone());
            from_rsmb(&blob, "GetSystemFirmwareTable('RSMB')")
        }
        SmbiosTables::Unexposed(os) => Err(Missing::Unusable(format!(
            "no SMBIOS tables: {os} does not expose them to programs (Linux has \
             /sys/firmware/dmi/tables, Windows GetSystemFirmwareTable)"
        ))),
    }
}

fn from_rsmb(blob: &[u8], origin: &str) -> Result<Tables, Missing> {
    let raw = rsmb::parse_rsmb(blob)
        .map_err(|e| Missing::Unusable(format!("SMBIOS data {origin} unusable: {e}")))?;
    Ok(Tables {
        entry_point: raw.entry_point.clone(),
        table: raw.table.to_vec(),
        origin: origin.to_string(),
    })
}

fn read_sysfs(src: &Source) -> Result<Tables, Missing> {
    let ep = src.read_bytes(SMBIOS_EP).map_err(Missing::Read)?;
    let table = src.read_bytes(SMBIOS_DMI).map_err(Missing::Read)?;
    let entry_point = smbios::parse_entry_point(&ep)
        .map_err(|e| Missing::Unusable(format!("SMBIOS entry point {SMBIOS_EP} unusable: {e}")))?;
    Ok(Tables {
        entry_point,
        table,
        origin: SMBIOS_DMI.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sysfs_tables_of_a_linux_sysroot() {
        let t = read(&Source::sysroot("fixtures/x86_64-dell-precision-t7600")).unwrap();
        assert_eq!((t.entry_point.major, t.entry_point.minor), (2, 6));
        assert_eq!(t.origin, SMBIOS_DMI);
        assert_eq!(t.walk().table.structures.len(), 149);
    }

    #[test]
    fn no_tables_is_a_read_error_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let err = read(&Source::sysroot(dir.path())).unwrap_err();
        assert_eq!(err, Missing::Read(Unknown::NotFound(SMBIOS_EP.into())));
    }

    #[test]
    fn a_recorded_rsmb_blob_wins_over_sysfs() {
        let dir = tempfile::tempdir().unwrap();
        let dmi = std::fs::read("fixtures/x86_64-dell-precision-t7600/sys/firmware/dmi/tables/DMI")
            .unwrap();
        let mut blob = vec![0, 2, 6, 0];
        blob.extend_from_slice(&(dmi.len() as u32).to_le_bytes());
        blob.extend_from_slice(&dmi);
        std::fs::write(dir.path().join(RSMB_FILE), &blob).unwrap();
        let t = read(&Source::sysroot(dir.path())).unwrap();
        assert_eq!(t.origin, RSMB_FILE);
        assert_eq!(t.walk().table.structures.len(), 149);
        // A blob without a version is a note, not a table.
        std::fs::write(dir.path().join(RSMB_FILE), [0u8; 8]).unwrap();
        let err = read(&Source::sysroot(dir.path())).unwrap_err();
        assert_eq!(
            err,
            Missing::Unusable(
                "SMBIOS data rsmb.bin unusable: raw SMBIOS data has version 0: no SMBIOS".into()
            )
        );
    }
}
