//! Windows' raw SMBIOS data (`GetSystemFirmwareTable('RSMB', 0)`): its 8-byte header is
//! checked and turned into what the SMBIOS decoder takes on Linux from sysfs, an entry
//! point (version and table length) and the table bytes, so `smbios::Table::parse` and the
//! typed decoders serve both. `sys::smbios_tables` fetches the blob on Windows.
//!
//! The header is `RawSMBIOSData` without its data: `Used20CallingMethod` (u8),
//! `SMBIOSMajorVersion` (u8), `SMBIOSMinorVersion` (u8), `DmiRevision` (u8), `Length` (u32
//! little-endian, the table's size), then the table. Windows gives no entry point, and so
//! neither its checksum nor a structure count: the walk ends at the table's end or type 127.

use std::fmt;

use crate::probe::smbios::{EntryPoint, Table};

/// Bytes before the table: four version bytes and the 32-bit length.
pub const HEADER_LEN: usize = 8;

/// A raw SMBIOS blob taken apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawSmbios<'a> {
    /// Whether the firmware was reached through the SMBIOS 2.0 calling method.
    pub used_20_calling_method: bool,
    /// Version and length as an entry point would give them (`structure_count` unknown).
    pub entry_point: EntryPoint,
    /// The table bytes after the header (all of them: `Table::parse` bounds the walk by
    /// `entry_point.table_len`, and reports a table shorter than that as truncated).
    pub table: &'a [u8],
}

impl<'a> RawSmbios<'a> {
    /// Walks the table with the version the header gave.
    pub fn parse_table(&self) -> Table<'a> {
        Table::parse(self.table, Some(&self.entry_point))
    }
}

/// Why a blob is not raw SMBIOS data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RsmbError {
    /// Shorter than its own 8-byte header.
    TooShort { have: usize },
    /// Version 0.x: no SMBIOS (some VMs and boards answer with an empty table).
    NoVersion,
}

impl fmt::Display for RsmbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RsmbError::TooShort { have } => write!(
                f,
                "raw SMBIOS data is {have} bytes, shorter than its {HEADER_LEN}-byte header"
            ),
            RsmbError::NoVersion => write!(f, "raw SMBIOS data has version 0: no SMBIOS"),
        }
    }
}

impl std::error::Error for RsmbError {}

/// Checks the header of a `GetSystemFirmwareTable('RSMB')` blob and hands over the table.
pub fn parse_rsmb(blob: &[u8]) -> Result<RawSmbios<'_>, RsmbError> {
    let Some((header, table)) = blob.split_first_chunk::<HEADER_LEN>() else {
        return Err(RsmbError::TooShort { have: blob.len() });
    };
    let [calling, major, minor, dmi_revision, l0, l1, l2, l3] = *header;
    if major == 0 {
        return Err(RsmbError::NoVersion);
    }
    Ok(RawSmbios {
        used_20_calling_method: calling != 0,
        entry_point: EntryPoint {
            is_64bit: major >= 3,
            major,
            minor,
            // Only the 3.x entry point carries a document revision; Windows fills the byte
            // in for 2.x tables too, where it means nothing to the decoder.
            docrev: (major >= 3).then_some(dmi_revision),
            table_len: u32::from_le_bytes([l0, l1, l2, l3]),
            structure_count: None,
        },
        table,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::smbios::tests::{T7600_DMI, T7600_EP};
    use crate::probe::smbios::{decode_system, parse_entry_point};

    /// What Windows would return for a table: the header, then the table.
    fn blob(calling: u8, major: u8, minor: u8, rev: u8, len: u32, table: &[u8]) -> Vec<u8> {
        let mut b = vec![calling, major, minor, rev];
        b.extend_from_slice(&len.to_le_bytes());
        b.extend_from_slice(table);
        b
    }

    #[test]
    fn real_table_decodes_as_from_sysfs() {
        let ep = parse_entry_point(T7600_EP).unwrap();
        let raw = blob(0, ep.major, ep.minor, 0, ep.table_len, T7600_DMI);
        let rsmb = parse_rsmb(&raw).unwrap();
        assert_eq!((rsmb.entry_point.major, rsmb.entry_point.minor), (2, 6));
        assert_eq!(rsmb.entry_point.table_len, 6768);
        assert!(!rsmb.used_20_calling_method && !rsmb.entry_point.is_64bit);

        let from_rsmb = rsmb.parse_table();
        let from_sysfs = Table::parse(T7600_DMI, Some(&ep));
        assert_eq!(from_rsmb.error, None);
        assert_eq!(from_rsmb.structures, from_sysfs.structures);
        // dmidecode 3.4: "149 structures occupying 6768 bytes", found without a count.
        assert_eq!(from_rsmb.structures.len(), 149);
        // The version decides the UUID's byte order, so it must reach the decoder.
        let sys =
            |t: &Table, ep: &EntryPoint| decode_system(t.of_type(1).next().unwrap(), Some(ep));
        assert_eq!(sys(&from_rsmb, &rsmb.entry_point), sys(&from_sysfs, &ep),);
        assert_eq!(
            sys(&from_rsmb, &rsmb.entry_point).uuid.as_deref(),
            Some("4c4c4544-0000-0010-8000-00c04f000000")
        );
    }

    #[test]
    fn version_3_carries_its_document_revision() {
        let raw = blob(0, 3, 2, 1, 0, &[]);
        let ep = parse_rsmb(&raw).unwrap().entry_point;
        assert!(ep.is_64bit);
        assert_eq!((ep.major, ep.minor, ep.docrev), (3, 2, Some(1)));
    }

    #[test]
    fn short_or_versionless_blobs_are_refused() {
        assert_eq!(parse_rsmb(&[]), Err(RsmbError::TooShort { have: 0 }));
        assert_eq!(
            parse_rsmb(&[0, 2, 6, 0, 0x10]),
            Err(RsmbError::TooShort { have: 5 })
        );
        assert_eq!(
            parse_rsmb(&blob(0, 0, 0, 0, 0, &[])),
            Err(RsmbError::NoVersion)
        );
    }

    #[test]
    fn length_past_the_data_keeps_what_is_there() {
        // A header that promises more than arrived: the structures before the cut are
        // kept and the walk says where it ended, as for a truncated sysfs table.
        let cut = &T7600_DMI[..1000];
        let raw = blob(0, 2, 6, 0, 6768, cut);
        let t = parse_rsmb(&raw).unwrap().parse_table();
        assert!(!t.structures.is_empty());
        assert!(t.error.is_some(), "{:?}", t.error);
    }

    #[test]
    fn length_short_of_the_data_bounds_the_walk() {
        // Trailing bytes after the stated length are not structures.
        let mut table = T7600_DMI.to_vec();
        table.extend_from_slice(&[0xFF; 64]);
        let raw = blob(0, 2, 6, 0, 6768, &table);
        let t = parse_rsmb(&raw).unwrap().parse_table();
        assert_eq!((t.structures.len(), t.error), (149, None));
    }

    /// The machine's own table (Wine synthesises one from the host's DMI).
    #[cfg(windows)]
    #[test]
    fn live_table_walks() {
        let crate::sys::SmbiosTables::Blob(raw) = crate::sys::smbios_tables() else {
            panic!("Windows hands over the tables as a blob");
        };
        let raw = raw.unwrap();
        let rsmb = parse_rsmb(&raw).unwrap();
        let t = rsmb.parse_table();
        assert_eq!(t.error, None);
        assert!(t.of_type(1).next().is_some(), "no type-1 structure");
    }
}
