//! SMBIOS table parser: pure functions over the bytes of the entry point and DMI table.
//!
//! Owns the byte-level format only (DMTF DSP0134): the entry point, the structure walk and
//! typed decoders for the structure types rigcheck uses (0 BIOS, 1 system, 2 board,
//! 3 chassis, 4 processor, 9 slots, 16 memory array, 17 memory device, 19 mapped address,
//! 39 power supply). It does no I/O: probes read `/sys/firmware/dmi/tables/*` through
//! `Source` and hand the bytes here. Input is treated as hostile: every read is bounds
//! checked, a broken table ends the walk with an error naming the byte offset, and a field
//! the structure is too short to hold (older SMBIOS versions) decodes as `None`.

use std::fmt;

/// Where a walk or entry point went wrong, with the byte offset of the bad data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SmbiosError {
    /// The entry point does not start with `_SM_`, `_SM3_` or `_DMI_`.
    BadAnchor,
    /// The entry point is shorter than its own length byte (or its format) says.
    EntryPointTooShort { need: usize, have: usize },
    /// A checksum over the entry point does not sum to zero.
    BadChecksum { what: &'static str },
    /// A structure header says it is shorter than the 4-byte header itself
    /// (a length of 0 would otherwise loop forever).
    BadLength { offset: usize, length: u8 },
    /// The table ends inside a structure's formatted area or string set.
    Truncated {
        offset: usize,
        need: usize,
        have: usize,
    },
}

impl fmt::Display for SmbiosError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SmbiosError::BadAnchor => {
                write!(f, "entry point has no _SM_, _SM3_ or _DMI_ anchor")
            }
            SmbiosError::EntryPointTooShort { need, have } => {
                write!(f, "entry point is {have} bytes, needs {need}")
            }
            SmbiosError::BadChecksum { what } => write!(f, "{what} checksum does not sum to 0"),
            SmbiosError::BadLength { offset, length } => write!(
                f,
                "structure at offset {offset:#x} has length {length}, less than its 4-byte header"
            ),
            SmbiosError::Truncated { offset, need, have } => write!(
                f,
                "table ends inside the structure at offset {offset:#x} \
                 (needs {need} bytes, {have} left)"
            ),
        }
    }
}

impl std::error::Error for SmbiosError {}

/// The SMBIOS entry point: version and where the table ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntryPoint {
    /// `true` for the 64-bit `_SM3_` entry point (SMBIOS 3.x).
    pub is_64bit: bool,
    pub major: u8,
    pub minor: u8,
    /// Document revision (3.x only).
    pub docrev: Option<u8>,
    /// Exact table length (32-bit) or its maximum (64-bit), in bytes.
    pub table_len: u32,
    /// Number of structures (32-bit entry points only; 3.x ends at type 127 instead).
    pub structure_count: Option<u16>,
}

impl EntryPoint {
    /// True when the table version is at least `major.minor`.
    pub fn at_least(&self, major: u8, minor: u8) -> bool {
        (self.major, self.minor) >= (major, minor)
    }
}

/// Bytes `start..start+len` of `b`, or `None` when they are not all there.
fn slice(b: &[u8], start: usize, len: usize) -> Option<&[u8]> {
    b.get(start..start.checked_add(len)?)
}

fn checksum_ok(b: &[u8]) -> bool {
    b.iter().fold(0u8, |a, x| a.wrapping_add(*x)) == 0
}

fn le_u16(b: &[u8], off: usize) -> Option<u16> {
    let s = slice(b, off, 2)?;
    Some(u16::from_le_bytes([s[0], s[1]]))
}

fn le_u32(b: &[u8], off: usize) -> Option<u32> {
    let s = slice(b, off, 4)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

fn le_u64(b: &[u8], off: usize) -> Option<u64> {
    let s = slice(b, off, 8)?;
    let mut a = [0u8; 8];
    a.copy_from_slice(s);
    Some(u64::from_le_bytes(a))
}

/// Parses `/sys/firmware/dmi/tables/smbios_entry_point` (32-bit `_SM_`, 64-bit `_SM3_`,
/// or the legacy `_DMI_`). Checksums are checked, as dmidecode does. The table address
/// is ignored: in sysfs the `DMI` file starts at offset 0 (systemd `no_file_offset`).
pub fn parse_entry_point(b: &[u8]) -> Result<EntryPoint, SmbiosError> {
    let too_short = |need: usize| SmbiosError::EntryPointTooShort {
        need,
        have: b.len(),
    };
    if b.starts_with(b"_SM3_") {
        let len = usize::from(*b.get(6).ok_or_else(|| too_short(0x18))?);
        let ep = slice(b, 0, len.max(0x18)).ok_or_else(|| too_short(len.max(0x18)))?;
        if !checksum_ok(&ep[..len.max(0x18)]) {
            return Err(SmbiosError::BadChecksum {
                what: "_SM3_ entry point",
            });
        }
        return Ok(EntryPoint {
            is_64bit: true,
            major: ep[7],
            minor: ep[8],
            docrev: Some(ep[9]),
            table_len: le_u32(ep, 0x0C).ok_or_else(|| too_short(0x10))?,
            structure_count: None,
        });
    }
    if b.starts_with(b"_SM_") {
        // Some 2.1 firmware writes 0x1E instead of 0x1F; dmidecode accepts both.
        let len = usize::from(*b.get(5).ok_or_else(|| too_short(0x1F))?).max(0x1E);
        let ep = slice(b, 0, 0x1F).ok_or_else(|| too_short(0x1F))?;
        if !checksum_ok(&ep[..len.min(0x1F)]) {
            return Err(SmbiosError::BadChecksum {
                what: "_SM_ entry point",
            });
        }
        if &ep[0x10..0x15] != b"_DMI_" {
            return Err(SmbiosError::BadAnchor);
        }
        if !checksum_ok(&ep[0x10..0x1F]) {
            return Err(SmbiosError::BadChecksum {
                what: "_DMI_ intermediate entry point",
            });
        }
        return Ok(EntryPoint {
            is_64bit: false,
            major: ep[6],
            minor: ep[7],
            docrev: None,
            table_len: u32::from(le_u16(ep, 0x16).unwrap_or(0)),
            structure_count: le_u16(ep, 0x1C),
        });
    }
    if b.starts_with(b"_DMI_") {
        let ep = slice(b, 0, 0x0F).ok_or_else(|| too_short(0x0F))?;
        if !checksum_ok(ep) {
            return Err(SmbiosError::BadChecksum {
                what: "_DMI_ entry point",
            });
        }
        return Ok(EntryPoint {
            is_64bit: false,
            major: ep[0x0E] >> 4,
            minor: ep[0x0E] & 0x0F,
            docrev: None,
            table_len: u32::from(le_u16(ep, 0x06).unwrap_or(0)),
            structure_count: le_u16(ep, 0x0C),
        });
    }
    Err(SmbiosError::BadAnchor)
}

/// One SMBIOS structure: header, formatted area and string set, borrowed from the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Structure<'a> {
    /// Structure type (17 = memory device, ...).
    pub kind: u8,
    /// Handle other structures refer to it by.
    pub handle: u16,
    /// Byte offset of the header within the table.
    pub offset: usize,
    /// The formatted area, header included, so field offsets match DSP0134.
    pub formatted: &'a [u8],
    /// The strings, in order; string number `n` (1-based) is `strings[n - 1]`.
    pub strings: Vec<&'a [u8]>,
}

impl<'a> Structure<'a> {
    /// Byte at `off`, or `None` when the structure is too short (older SMBIOS version).
    pub fn byte(&self, off: usize) -> Option<u8> {
        self.formatted.get(off).copied()
    }

    /// Little-endian WORD at `off`.
    pub fn word(&self, off: usize) -> Option<u16> {
        le_u16(self.formatted, off)
    }

    /// Little-endian DWORD at `off`.
    pub fn dword(&self, off: usize) -> Option<u32> {
        le_u32(self.formatted, off)
    }

    /// Little-endian QWORD at `off`.
    pub fn qword(&self, off: usize) -> Option<u64> {
        le_u64(self.formatted, off)
    }

    /// The string whose number sits in the byte at `off`, as stored (lossy UTF-8) but for
    /// terminal escape sequences and control characters, which are cleaned out
    /// (`text::clean`). `None` for number 0 (no string) and for a number past the string set.
    pub fn raw_string(&self, off: usize) -> Option<String> {
        let n = usize::from(self.byte(off)?);
        let s = self.strings.get(n.checked_sub(1)?)?;
        Some(crate::text::clean(String::from_utf8_lossy(s).trim_matches('\0')).into_owned())
    }

    /// The string at `off`, trimmed, with firmware placeholders turned into `None`.
    pub fn string(&self, off: usize) -> Option<String> {
        clean(self.raw_string(off)?)
    }

    /// An identity string at `off` (types 0 to 3), trimmed, and where there is no value the
    /// reason: not supplied, blank, or a placeholder (`is_placeholder`).
    pub fn text(&self, off: usize) -> Text {
        let Some(raw) = self.raw_string(off) else {
            return Text::NotSupplied;
        };
        let v = raw.trim();
        if v.is_empty() {
            Text::Blank
        } else if is_placeholder(v) {
            Text::Placeholder(v.to_string())
        } else {
            Text::Value(v.to_string())
        }
    }
}

/// An identity string of the firmware (vendor, product, serial, BIOS version), or why
/// there is none, so a note can say which.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Text {
    /// The string, trimmed.
    Value(String),
    /// No string: its number is 0 or past the string set, or the record is too short for
    /// the field (an older SMBIOS version).
    NotSupplied,
    /// Empty or blanks only: the firmware left it blank.
    Blank,
    /// A placeholder meaning "not filled in" (`To Be Filled By O.E.M.`, `Default string`).
    Placeholder(String),
}

impl Text {
    /// The value, where there is one.
    pub fn value(&self) -> Option<&str> {
        match self {
            Text::Value(v) => Some(v),
            _ => None,
        }
    }
}

/// Firmware placeholders that mean "not filled in" in an identity string (vendor, product,
/// version, serial), as dmidecode and lshw treat them: `clean`'s placeholders, and the
/// board makers' own (`System Product Name`, `0123456789`, a serial of all 0 or all F).
/// The one rule for the SMBIOS records and for the kernel's copies in /sys/class/dmi/id.
pub fn is_placeholder(value: &str) -> bool {
    const PLACEHOLDERS: &[&str] = &[
        "to be filled by o.e.m.",
        "to be filled by oem",
        "default string",
        "system product name",
        "system manufacturer",
        "system version",
        "system serial number",
        "not specified",
        "not applicable",
        "none",
        "o.e.m.",
        "oem",
        "0123456789",
        "123456789",
        "xxxxxxxxxx",
        "--",
    ];
    let v = value.trim().to_ascii_lowercase();
    v.is_empty()
        || PLACEHOLDERS.contains(&v.as_str())
        || v.chars().all(|c| c == '0' || c == 'f')
        || clean(v).is_none()
}

/// Trims a firmware string; `None` when it is empty or a placeholder that means
/// "nothing here" (`Not Specified`, `Unknown`, `To Be Filled By O.E.M.`, ...).
pub fn clean(s: String) -> Option<String> {
    const PLACEHOLDERS: &[&str] = &[
        "not specified",
        "unknown",
        "not available",
        "none",
        "no dimm",
        "empty",
        "[empty]",
        "to be filled by o.e.m.",
        "default string",
    ];
    let t = s.trim_matches(|c: char| c.is_whitespace() || c == '\0');
    if t.is_empty() || PLACEHOLDERS.contains(&t.to_ascii_lowercase().as_str()) {
        return None;
    }
    Some(t.to_string())
}

/// Walks the structures of a DMI table, one `Result` each; the walk ends after the
/// end-of-table structure (type 127), at the end of the data, after `count` structures
/// when given, or after the first error (which names the offset).
pub struct Structures<'a> {
    data: &'a [u8],
    pos: usize,
    left: Option<u16>,
    done: bool,
}

/// Walks `table` (the `DMI` file). `count` is the entry point's structure count, if any.
pub fn structures(table: &[u8], count: Option<u16>) -> Structures<'_> {
    Structures {
        data: table,
        pos: 0,
        left: count,
        done: false,
    }
}

impl<'a> Iterator for Structures<'a> {
    type Item = Result<Structure<'a>, SmbiosError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done || self.left == Some(0) {
            return None;
        }
        let d = self.data;
        let off = self.pos;
        let have = d.len().saturating_sub(off);
        if have == 0 {
            self.done = true;
            return None;
        }
        if have < 4 {
            self.done = true;
            return Some(Err(SmbiosError::Truncated {
                offset: off,
                need: 4,
                have,
            }));
        }
        let kind = d[off];
        let length = d[off + 1];
        if length < 4 {
            self.done = true;
            return Some(Err(SmbiosError::BadLength {
                offset: off,
                length,
            }));
        }
        let len = usize::from(length);
        let Some(formatted) = slice(d, off, len) else {
            self.done = true;
            return Some(Err(SmbiosError::Truncated {
                offset: off,
                need: len,
                have,
            }));
        };
        // The string set ends at the first double NUL after the formatted area.
        let start = off + len;
        let Some(end) = d
            .get(start..)
            .and_then(|rest| rest.windows(2).position(|w| w == [0, 0]))
        else {
            self.done = true;
            return Some(Err(SmbiosError::Truncated {
                offset: off,
                need: len + 2,
                have,
            }));
        };
        let strings = if end == 0 {
            Vec::new()
        } else {
            d[start..start + end].split(|b| *b == 0).collect()
        };
        self.pos = start + end + 2;
        if let Some(l) = self.left.as_mut() {
            *l -= 1;
        }
        if kind == 127 {
            self.done = true;
        }
        Some(Ok(Structure {
            kind,
            handle: le_u16(formatted, 2).unwrap_or(0),
            offset: off,
            formatted,
            strings,
        }))
    }
}

/// A walked table: the structures read, and the error that ended the walk early, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table<'a> {
    pub structures: Vec<Structure<'a>>,
    /// Why the walk stopped before the end; the structures before it are still good.
    pub error: Option<SmbiosError>,
}

impl<'a> Table<'a> {
    /// Walks a table, keeping the structures read before any error.
    pub fn parse(table: &'a [u8], ep: Option<&EntryPoint>) -> Self {
        // The entry point bounds the table: exactly (2.x) or at most (3.x).
        let data = match ep {
            Some(ep) if (ep.table_len as usize) < table.len() => &table[..ep.table_len as usize],
            _ => table,
        };
        let mut out = Vec::new();
        let mut error = None;
        for s in structures(data, ep.and_then(|e| e.structure_count)) {
            match s {
                Ok(s) => out.push(s),
                Err(e) => error = Some(e),
            }
        }
        Table {
            structures: out,
            error,
        }
    }

    /// The structures of one type, in table order.
    pub fn of_type(&self, kind: u8) -> impl Iterator<Item = &Structure<'a>> {
        self.structures.iter().filter(move |s| s.kind == kind)
    }
}

/// Type 0: BIOS information.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bios {
    pub vendor: Text,
    pub version: Text,
    pub release_date: Text,
    /// ROM size in bytes (extended size field from 3.1 when the old byte says 16 MiB+).
    pub rom_size_bytes: Option<u64>,
    /// `major.minor` BIOS release (2.4+), e.g. `2.17`.
    pub release: Option<String>,
}

/// Decodes a type-0 structure.
pub fn decode_bios(s: &Structure) -> Bios {
    let rom_size_bytes = match (s.byte(0x09), s.word(0x18)) {
        (Some(0xFF), Some(ext)) => {
            let n = u64::from(ext & 0x3FFF);
            match ext >> 14 {
                0 => Some(n << 20),
                1 => Some(n << 30),
                _ => None,
            }
        }
        (Some(b), _) => Some((u64::from(b) + 1) * 64 * 1024),
        _ => None,
    };
    let release = match (s.byte(0x14), s.byte(0x15)) {
        (Some(a), Some(b)) if a != 0xFF => Some(format!("{a}.{b}")),
        _ => None,
    };
    Bios {
        vendor: s.text(0x04),
        version: s.text(0x05),
        release_date: s.text(0x08),
        rom_size_bytes,
        release,
    }
}

/// Type 1: system information.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SystemInfo {
    pub manufacturer: Text,
    pub product: Text,
    pub version: Text,
    pub serial: Text,
    /// Lowercase UUID; the first three fields are little-endian from SMBIOS 2.6 on.
    /// `None` when all bytes are 0x00 or 0xFF (not set).
    pub uuid: Option<String>,
    /// SKU number and family (2.4+).
    pub sku: Text,
    pub family: Text,
}

/// Decodes a type-1 structure; `version` decides the UUID byte order.
pub fn decode_system(s: &Structure, ep: Option<&EntryPoint>) -> SystemInfo {
    let uuid = slice(s.formatted, 0x08, 16).and_then(|u| {
        if u.iter().all(|b| *b == 0) || u.iter().all(|b| *b == 0xFF) {
            return None;
        }
        let le = ep.is_none_or(|e| e.at_least(2, 6));
        let mut b = [0u8; 16];
        b.copy_from_slice(u);
        if le {
            b[0..4].reverse();
            b[4..6].reverse();
            b[6..8].reverse();
        }
        let h: Vec<String> = b.iter().map(|x| format!("{x:02x}")).collect();
        Some(format!(
            "{}-{}-{}-{}-{}",
            h[0..4].concat(),
            h[4..6].concat(),
            h[6..8].concat(),
            h[8..10].concat(),
            h[10..16].concat()
        ))
    });
    SystemInfo {
        manufacturer: s.text(0x04),
        product: s.text(0x05),
        version: s.text(0x06),
        serial: s.text(0x07),
        uuid,
        sku: s.text(0x19),
        family: s.text(0x1A),
    }
}

/// Type 2: baseboard information.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub manufacturer: Text,
    pub product: Text,
    pub version: Text,
    pub serial: Text,
    pub asset_tag: Text,
}

/// Decodes a type-2 structure.
pub fn decode_board(s: &Structure) -> Board {
    Board {
        manufacturer: s.text(0x04),
        product: s.text(0x05),
        version: s.text(0x06),
        serial: s.text(0x07),
        asset_tag: s.text(0x08),
    }
}

/// Type 3: chassis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chassis {
    pub manufacturer: Text,
    /// Chassis type code (SMBIOS 7.4.1, lock bit removed): 3 Desktop, 7 Tower, 23 Rack Mount.
    pub kind: Option<u8>,
    pub version: Text,
    pub serial: Text,
    pub asset_tag: Text,
    /// Height in rack units (2.3+; 0 = unspecified → `None`).
    pub height_u: Option<u8>,
    /// Number of power cords (2.3+; 0 = unspecified → `None`).
    pub power_cords: Option<u8>,
}

/// Decodes a type-3 structure.
pub fn decode_chassis(s: &Structure) -> Chassis {
    Chassis {
        manufacturer: s.text(0x04),
        kind: s.byte(0x05).map(|b| b & 0x7F),
        version: s.text(0x06),
        serial: s.text(0x07),
        asset_tag: s.text(0x08),
        height_u: s.byte(0x11).filter(|b| *b != 0),
        power_cords: s.byte(0x12).filter(|b| *b != 0),
    }
}

/// Type 4: one processor socket.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Processor {
    /// Socket name, e.g. `CPU0`, `CPU 1`.
    pub socket: Option<String>,
    /// True when a CPU sits in the socket (status bit 6).
    pub populated: bool,
    /// CPU status (bits 2:0): 1 enabled, 2 disabled by user, 3 disabled by BIOS, 4 idle.
    pub enabled: bool,
    pub manufacturer: Option<String>,
    /// Version string, usually the marketing name
    /// (`Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz`).
    pub version: Option<String>,
    /// Processor family code (0xB3 Xeon, ...); the 2.6 WORD when the byte says 0xFE.
    pub family: Option<u16>,
    /// External (bus) clock in MHz.
    pub external_clock_mhz: Option<u16>,
    /// Highest speed the socket/board supports, MHz (not the CPU's turbo).
    pub max_speed_mhz: Option<u16>,
    /// Speed at boot, MHz.
    pub current_speed_mhz: Option<u16>,
    /// Cores per CPU (2.5+; 3.0 WORD when the byte is 0xFF).
    pub core_count: Option<u16>,
    pub core_enabled: Option<u16>,
    /// Threads per CPU (2.5+; 3.0 WORD when the byte is 0xFF).
    pub thread_count: Option<u16>,
    pub serial: Option<String>,
    pub part_number: Option<String>,
}

/// Decodes a type-4 structure.
pub fn decode_processor(s: &Structure) -> Processor {
    let status = s.byte(0x18).unwrap_or(0);
    let nonzero = |v: Option<u16>| v.filter(|x| *x != 0);
    // Counts: the BYTE, or the 3.0 WORD when the byte says "see extended" (0xFF).
    let count = |byte: usize, word: usize| -> Option<u16> {
        match s.byte(byte)? {
            0 => None,
            0xFF => nonzero(s.word(word)).or(Some(0xFF)),
            b => Some(u16::from(b)),
        }
    };
    let family = match s.byte(0x06) {
        Some(0xFE) => s.word(0x28),
        Some(b) => Some(u16::from(b)),
        None => None,
    };
    Processor {
        socket: s.string(0x04),
        populated: status & 0x40 != 0,
        enabled: status & 0x07 == 1,
        manufacturer: s.string(0x07),
        version: s.string(0x10),
        family,
        external_clock_mhz: nonzero(s.word(0x12)),
        max_speed_mhz: nonzero(s.word(0x14)),
        current_speed_mhz: nonzero(s.word(0x16)),
        serial: s.string(0x20),
        part_number: s.string(0x22),
        core_count: count(0x23, 0x2A),
        core_enabled: count(0x24, 0x2C),
        thread_count: count(0x25, 0x2E),
    }
}

/// Type 9: one expansion slot.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Slot {
    /// Slot name as printed on the board, e.g. `SLOT2 PCIe3 x16 CPU0`.
    pub designation: Option<String>,
    /// Slot type code (SMBIOS 7.10.1), e.g. 0xB6 = PCI Express Gen 3 x16.
    pub kind: Option<u8>,
    /// PCIe generation derived from the type code, where it names one.
    pub pcie_gen: Option<u8>,
    /// Physical data bus width in lanes/bits (7.10.2), e.g. 16.
    pub width: Option<u8>,
    /// Current usage: `true` in use, `false` available; `None` other/unknown.
    pub in_use: Option<bool>,
    /// PCI address of the device in the slot (2.6+), `dddd:bb:dd.f`; `None` when unset (0xFF).
    pub bus_address: Option<String>,
}

/// PCIe generation named by a slot type code (SMBIOS 7.10.1), `None` for other buses and
/// for "PCI Express" without a generation (0xA5–0xAA are the first generation).
pub fn slot_pcie_gen(code: u8) -> Option<u8> {
    match code {
        0xA5..=0xAA => Some(1),
        0xAB..=0xB0 => Some(2),
        0xB1..=0xB6 => Some(3),
        0xB8..=0xBD => Some(4),
        0xBE..=0xC3 => Some(5),
        0xC4 => Some(6),
        _ => None,
    }
}

/// Width in lanes (PCIe) or bits for a data-bus-width code (SMBIOS 7.10.2).
pub fn slot_width(code: u8) -> Option<u8> {
    match code {
        0x03 => Some(8),
        0x04 => Some(16),
        0x05 => Some(32),
        0x06 => Some(64),
        0x07 => Some(128),
        0x08 => Some(1),
        0x09 => Some(2),
        0x0A => Some(4),
        0x0B => Some(8),
        0x0C => Some(12),
        0x0D => Some(16),
        0x0E => Some(32),
        _ => None,
    }
}

/// Decodes a type-9 structure.
pub fn decode_slot(s: &Structure) -> Slot {
    let bus_address = match (s.word(0x0D), s.byte(0x0F), s.byte(0x10)) {
        (Some(seg), Some(bus), Some(df)) if !(seg == 0xFFFF && bus == 0xFF && df == 0xFF) => Some(
            format!("{seg:04x}:{bus:02x}:{:02x}.{:x}", df >> 3, df & 0x07),
        ),
        _ => None,
    };
    Slot {
        designation: s.string(0x04),
        kind: s.byte(0x05),
        pcie_gen: s.byte(0x05).and_then(slot_pcie_gen),
        width: s.byte(0x06).and_then(slot_width),
        in_use: match s.byte(0x07) {
            Some(3) => Some(false),
            Some(4) => Some(true),
            _ => None,
        },
        bus_address,
    }
}

/// Type 16: physical memory array.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MemoryArray {
    pub handle: u16,
    /// Use code: 3 = system memory, 4 = video, 5 = flash, ...
    pub use_code: Option<u8>,
    /// Error correction name, e.g. `Single-bit ECC`, `None`.
    pub ecc: Option<String>,
    /// Maximum capacity in bytes (the 2.7 QWORD when the DWORD says 0x80000000).
    pub max_capacity_bytes: Option<u64>,
    /// Number of slots the array says it has (some BIOSes store the populated count).
    pub slots: Option<u16>,
}

impl MemoryArray {
    /// True when this array is system RAM (use 3), not flash or video memory.
    pub fn is_system_memory(&self) -> bool {
        self.use_code == Some(3)
    }
}

/// Error correction type names (SMBIOS 7.17.3).
pub fn ecc_name(code: u8) -> Option<&'static str> {
    Some(match code {
        1 => "Other",
        3 => "None",
        4 => "Parity",
        5 => "Single-bit ECC",
        6 => "Multi-bit ECC",
        7 => "CRC",
        _ => return None,
    })
}

/// Decodes a type-16 structure.
pub fn decode_memory_array(s: &Structure) -> MemoryArray {
    let max_capacity_bytes = match s.dword(0x07) {
        Some(0x8000_0000) => s.qword(0x0F).filter(|b| *b != 0),
        Some(kib) => Some(u64::from(kib) * 1024),
        None => None,
    };
    MemoryArray {
        handle: s.handle,
        use_code: s.byte(0x05),
        ecc: s.byte(0x06).and_then(ecc_name).map(str::to_string),
        max_capacity_bytes,
        slots: s.word(0x0D),
    }
}

/// Size of a memory device slot (type 17 offset 0x0C).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeviceSize {
    /// 0: no module installed.
    Empty,
    /// 0xFFFF (or missing): the firmware does not know.
    Unknown,
    /// Installed module of this many bytes.
    Bytes(u64),
}

/// The RAM slots of a table with the name each is known by: type-17 records of system-memory
/// arrays (type 16 use 3), leaving out the flash/ROM devices some firmware lists as memory
/// devices (the HP Z600's `SYSTEM ROM`). The name is the locator, else the bank locator,
/// else `slot N`. Shared by the DIMM list and the headroom section so both count alike.
pub fn ram_slots(t: &Table<'_>) -> Vec<(String, MemoryDevice)> {
    let non_ram_arrays: Vec<u16> = t
        .of_type(16)
        .map(decode_memory_array)
        .filter(|a| a.use_code.is_some() && !a.is_system_memory())
        .map(|a| a.handle)
        .collect();
    t.of_type(17)
        .map(decode_memory_device)
        .filter(|d| !d.is_non_volatile())
        .filter(|d| !d.array_handle.is_some_and(|h| non_ram_arrays.contains(&h)))
        .enumerate()
        .map(|(i, d)| {
            let name = d
                .locator
                .clone()
                .or_else(|| d.bank_locator.clone())
                .unwrap_or_else(|| format!("slot {i}"));
            (name, d)
        })
        .collect()
}

/// Type 17: one memory device (a DIMM slot).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryDevice {
    pub handle: u16,
    /// Handle of the type-16 array this slot belongs to.
    pub array_handle: Option<u16>,
    pub size: DeviceSize,
    /// Form factor name (7.18.1), e.g. `DIMM`, `SODIMM`.
    pub form_factor: Option<String>,
    /// Slot name, e.g. `CPU0-DIMM1`, `DIMM1_CPU1`.
    pub locator: Option<String>,
    pub bank_locator: Option<String>,
    /// Memory type code (7.18.2): 0x18 DDR3, 0x1A DDR4, 0x22 DDR5, ...
    pub type_code: Option<u8>,
    /// Type detail bits (7.18.3).
    pub type_detail: Option<u16>,
    /// Rated speed, MT/s (2.3+; 3.3 DWORD when the WORD says 0xFFFF).
    pub speed_mts: Option<u32>,
    /// Speed the memory runs at, MT/s (2.7+).
    pub configured_speed_mts: Option<u32>,
    pub manufacturer: Option<String>,
    pub serial: Option<String>,
    pub asset_tag: Option<String>,
    pub part_number: Option<String>,
    /// Ranks (2.6+; 0 = unknown → `None`).
    pub rank: Option<u8>,
    /// Configured voltage, mV (2.8+).
    pub configured_voltage_mv: Option<u16>,
}

impl MemoryDevice {
    /// Memory type name, e.g. `DDR4`; `None` for Other/Unknown and unassigned codes.
    pub fn type_name(&self) -> Option<&'static str> {
        memory_type_name(self.type_code?)
    }

    /// Type detail as dmidecode words it, e.g. `Synchronous Registered (Buffered)`.
    pub fn type_detail_text(&self) -> Option<String> {
        type_detail_text(self.type_detail?)
    }

    /// True for ROM/flash devices listed as memory devices (not RAM).
    pub fn is_non_volatile(&self) -> bool {
        matches!(self.type_code, Some(0x08..=0x0C | 0x1F))
            || self.type_detail.is_some_and(|d| d & (1 << 12) != 0)
    }
}

/// Memory type names (SMBIOS 7.18.2).
pub fn memory_type_name(code: u8) -> Option<&'static str> {
    Some(match code {
        0x03 => "DRAM",
        0x04 => "EDRAM",
        0x05 => "VRAM",
        0x06 => "SRAM",
        0x07 => "RAM",
        0x08 => "ROM",
        0x09 => "Flash",
        0x0A => "EEPROM",
        0x0B => "FEPROM",
        0x0C => "EPROM",
        0x0D => "CDRAM",
        0x0E => "3DRAM",
        0x0F => "SDRAM",
        0x10 => "SGRAM",
        0x11 => "RDRAM",
        0x12 => "DDR",
        0x13 => "DDR2",
        0x14 => "DDR2 FB-DIMM",
        0x18 => "DDR3",
        0x19 => "FBD2",
        0x1A => "DDR4",
        0x1B => "LPDDR",
        0x1C => "LPDDR2",
        0x1D => "LPDDR3",
        0x1E => "LPDDR4",
        0x1F => "Logical non-volatile device",
        0x20 => "HBM",
        0x21 => "HBM2",
        0x22 => "DDR5",
        0x23 => "LPDDR5",
        0x24 => "HBM3",
        _ => return None,
    })
}

/// Form factor names (SMBIOS 7.18.1).
pub fn form_factor_name(code: u8) -> Option<&'static str> {
    Some(match code {
        0x03 => "SIMM",
        0x04 => "SIP",
        0x05 => "Chip",
        0x06 => "DIP",
        0x07 => "ZIP",
        0x08 => "Proprietary Card",
        0x09 => "DIMM",
        0x0A => "TSOP",
        0x0B => "Row Of Chips",
        0x0C => "RIMM",
        0x0D => "SODIMM",
        0x0E => "SRIMM",
        0x0F => "FB-DIMM",
        0x10 => "Die",
        0x11 => "CAMM",
        _ => return None,
    })
}

/// Type detail bits (SMBIOS 7.18.3) as dmidecode joins them; `None` when no bit names a
/// property (0, or only Other/Unknown).
pub fn type_detail_text(bits: u16) -> Option<String> {
    const NAMES: [(u16, &str); 13] = [
        (3, "Fast-paged"),
        (4, "Static Column"),
        (5, "Pseudo-static"),
        (6, "RAMBus"),
        (7, "Synchronous"),
        (8, "CMOS"),
        (9, "EDO"),
        (10, "Window DRAM"),
        (11, "Cache DRAM"),
        (12, "Non-Volatile"),
        (13, "Registered (Buffered)"),
        (14, "Unbuffered (Unregistered)"),
        (15, "LRDIMM"),
    ];
    let words: Vec<&str> = NAMES
        .iter()
        .filter(|(bit, _)| bits & (1 << bit) != 0)
        .map(|(_, n)| *n)
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// Decodes a type-17 structure.
pub fn decode_memory_device(s: &Structure) -> MemoryDevice {
    let size = match s.word(0x0C) {
        None | Some(0xFFFF) => DeviceSize::Unknown,
        Some(0) => DeviceSize::Empty,
        // 0x7FFF: the size is in the 2.7 extended DWORD, in MiB (bit 31 reserved).
        Some(0x7FFF) => match s.dword(0x1C) {
            Some(mb) => nonzero_size(u64::from(mb & 0x7FFF_FFFF) << 20),
            None => DeviceSize::Unknown,
        },
        // Bit 15 set: the size is in KiB, else MiB.
        Some(w) if w & 0x8000 != 0 => nonzero_size(u64::from(w & 0x7FFF) << 10),
        Some(w) => DeviceSize::Bytes(u64::from(w) << 20),
    };
    // Speeds: 0 = unknown; 0xFFFF = see the 3.3 DWORD.
    let speed = |word: usize, ext: usize| -> Option<u32> {
        match s.word(word)? {
            0 => None,
            0xFFFF => s.dword(ext).filter(|v| *v != 0),
            v => Some(u32::from(v)),
        }
    };
    MemoryDevice {
        handle: s.handle,
        array_handle: s.word(0x04),
        size,
        form_factor: s.byte(0x0E).and_then(form_factor_name).map(str::to_string),
        locator: s.string(0x10),
        bank_locator: s.string(0x11),
        type_code: s.byte(0x12),
        type_detail: s.word(0x13),
        speed_mts: speed(0x15, 0x54),
        manufacturer: s.string(0x17),
        serial: s.string(0x18),
        asset_tag: s.string(0x19),
        part_number: s.string(0x1A),
        rank: s.byte(0x1B).map(|r| r & 0x0F).filter(|r| *r != 0),
        configured_speed_mts: speed(0x20, 0x58),
        configured_voltage_mv: s.word(0x26).filter(|v| *v != 0),
    }
}

/// A module of 0 bytes (0 KiB, or an extended size of 0) is a broken record, not a size.
fn nonzero_size(bytes: u64) -> DeviceSize {
    if bytes == 0 {
        DeviceSize::Unknown
    } else {
        DeviceSize::Bytes(bytes)
    }
}

/// Type 19: a range of physical addresses mapped to a memory array.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MappedRange {
    pub array_handle: Option<u16>,
    /// First byte address.
    pub start: u64,
    /// Last byte address (inclusive).
    pub end: u64,
}

impl MappedRange {
    /// Bytes in the range.
    pub fn size_bytes(&self) -> u64 {
        self.end.saturating_sub(self.start).saturating_add(1)
    }
}

/// Decodes a type-19 structure; `None` when the range is malformed (end before start).
pub fn decode_mapped_range(s: &Structure) -> Option<MappedRange> {
    let (start, end) = match (s.dword(0x04)?, s.dword(0x08)?) {
        // 0xFFFFFFFF: the 2.7 QWORDs in bytes hold the range.
        (0xFFFF_FFFF, _) => (s.qword(0x0F)?, s.qword(0x17)?),
        (a, b) => (u64::from(a) << 10, (u64::from(b) << 10) | 0x3FF),
    };
    (end >= start).then_some(MappedRange {
        array_handle: s.word(0x0C),
        start,
        end,
    })
}

/// Type 39: one power supply.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PowerSupply {
    pub location: Option<String>,
    pub name: Option<String>,
    pub manufacturer: Option<String>,
    pub serial: Option<String>,
    pub model_part_number: Option<String>,
    /// Maximum output in watts (`None` for 0x8000 = unknown).
    pub max_power_w: Option<u16>,
    /// Characteristics bit 1.
    pub present: Option<bool>,
    /// Characteristics bit 0.
    pub hot_replaceable: Option<bool>,
    /// Status (bits 9:7): `OK`, `Non-critical`, `Critical`, `Other`; `None` when unknown.
    pub status: Option<String>,
}

/// Decodes a type-39 structure.
pub fn decode_power_supply(s: &Structure) -> PowerSupply {
    let ch = s.word(0x0E);
    PowerSupply {
        location: s.string(0x05),
        name: s.string(0x06),
        manufacturer: s.string(0x07),
        serial: s.string(0x08),
        model_part_number: s.string(0x0A),
        max_power_w: s.word(0x0C).filter(|w| *w != 0x8000 && *w != 0),
        present: ch.map(|c| c & 0x02 != 0),
        hot_replaceable: ch.map(|c| c & 0x01 != 0),
        status: ch.and_then(|c| match (c >> 7) & 0x07 {
            1 => Some("Other".to_string()),
            3 => Some("OK".to_string()),
            4 => Some("Non-critical".to_string()),
            5 => Some("Critical".to_string()),
            _ => None,
        }),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The Dell Precision T7600's SMBIOS entry point and table (also the RSMB tests' input).
    pub(crate) const T7600_EP: &[u8] = include_bytes!(
        "../../fixtures/x86_64-dell-precision-t7600/sys/firmware/dmi/tables/smbios_entry_point"
    );
    /// See `T7600_EP`.
    pub(crate) const T7600_DMI: &[u8] =
        include_bytes!("../../fixtures/x86_64-dell-precision-t7600/sys/firmware/dmi/tables/DMI");
    const R630: &[u8] = include_bytes!("../../fixtures/smbios/dell-poweredge-r630.dmi");
    const ASROCK: &[u8] = include_bytes!("../../fixtures/smbios/asrock-ryzen.dmi");

    fn devices(t: &Table) -> Vec<MemoryDevice> {
        t.of_type(17).map(decode_memory_device).collect()
    }

    #[test]
    fn entry_point_dell_precision_t7600() {
        let ep = parse_entry_point(T7600_EP).unwrap();
        assert!(!ep.is_64bit);
        assert_eq!((ep.major, ep.minor), (2, 6));
        assert_eq!(ep.table_len, 6768);
        assert_eq!(ep.structure_count, Some(149));
    }

    #[test]
    fn table_dell_precision_t7600() {
        let ep = parse_entry_point(T7600_EP).unwrap();
        let t = Table::parse(T7600_DMI, Some(&ep));
        assert_eq!(t.error, None);
        // dmidecode 3.4: "149 structures occupying 6768 bytes."
        assert_eq!(t.structures.len(), 149);

        let bios = decode_bios(t.of_type(0).next().unwrap());
        assert_eq!(bios.vendor.value(), Some("Dell Inc."));
        assert_eq!(bios.version.value(), Some("T51"));
        assert_eq!(bios.release_date.value(), Some("04/06/2012"));
        assert_eq!(bios.rom_size_bytes, Some(10 << 20));
        assert_eq!(bios.release.as_deref(), Some("4.6"));

        let sys = decode_system(t.of_type(1).next().unwrap(), Some(&ep));
        assert_eq!(sys.product.value(), Some("Precision T7600"));
        // String number 0, which dmidecode prints as "Not Specified".
        assert_eq!(sys.serial, Text::NotSupplied);
        assert_eq!(
            sys.uuid.as_deref(),
            Some("4c4c4544-0000-0010-8000-00c04f000000")
        );
        assert_eq!(decode_chassis(t.of_type(3).next().unwrap()).kind, Some(7));
        // The board's product name is all spaces: unknown, not "".
        assert_eq!(
            decode_board(t.of_type(2).next().unwrap()).product,
            Text::Blank
        );

        let cpus: Vec<Processor> = t.of_type(4).map(decode_processor).collect();
        assert_eq!(cpus.len(), 2);
        assert_eq!(cpus[0].socket.as_deref(), Some("CPU 1"));
        assert!(cpus[0].populated && cpus[0].enabled);
        assert_eq!(
            cpus[0].version.as_deref(),
            Some("Genuine Intel(R) CPU @ 3.10GH")
        );
        assert_eq!(cpus[0].manufacturer.as_deref(), Some("Intel"));
        assert_eq!(
            (cpus[0].core_count, cpus[0].thread_count),
            (Some(8), Some(16))
        );
        assert_eq!(
            (cpus[0].max_speed_mhz, cpus[0].current_speed_mhz),
            (Some(4000), Some(3100))
        );
        assert_eq!(cpus[1].socket.as_deref(), Some("CPU 2"));
        assert!(!cpus[1].populated);
        assert_eq!(cpus[1].current_speed_mhz, None);

        let slots: Vec<Slot> = t.of_type(9).map(decode_slot).collect();
        assert_eq!(slots.len(), 7);
        assert_eq!(slots[1].designation.as_deref(), Some("Slot2"));
        assert_eq!(slots[1].pcie_gen, Some(2));
        assert_eq!(slots[1].width, Some(16));
        assert_eq!(slots[1].in_use, Some(true));
        assert_eq!(slots[1].bus_address.as_deref(), Some("0000:05:00.0"));
        assert_eq!(slots[4].pcie_gen, None); // "32-bit PCI"
        assert_eq!(slots[0].in_use, Some(false));

        let arrays: Vec<MemoryArray> = t.of_type(16).map(decode_memory_array).collect();
        assert_eq!(arrays.len(), 1);
        assert_eq!(arrays[0].max_capacity_bytes, Some(512 << 30));
        assert_eq!(arrays[0].slots, Some(16));
        assert_eq!(arrays[0].ecc.as_deref(), Some("Multi-bit ECC"));

        let devs = devices(&t);
        assert_eq!(devs.len(), 16);
        let populated: Vec<_> = devs
            .iter()
            .filter(|d| matches!(d.size, DeviceSize::Bytes(_)))
            .map(|d| (d.locator.as_deref().unwrap(), d.size))
            .collect();
        assert_eq!(
            populated,
            [
                ("DIMM1_CPU1", DeviceSize::Bytes(8 << 30)),
                ("DIMM3_CPU1", DeviceSize::Bytes(2 << 30)),
                ("DIMM2_CPU1", DeviceSize::Bytes(8 << 30)),
                ("DIMM4_CPU1", DeviceSize::Bytes(2 << 30)),
            ]
        );
        let d = &devs[0];
        assert_eq!(d.type_name(), Some("DDR3"));
        assert_eq!(d.speed_mts, Some(1067));
        assert_eq!(d.configured_speed_mts, None); // 28-byte 2.6 record has none
        assert_eq!(d.manufacturer.as_deref(), Some("Samsung-00CE"));
        assert_eq!(d.part_number.as_deref(), Some("M393B1K73BHD-CF8"));
        assert_eq!(d.serial.as_deref(), Some("4834AA03"));
        assert_eq!(d.rank, Some(4));
        assert_eq!(d.form_factor.as_deref(), Some("DIMM"));
        assert_eq!(
            d.type_detail_text().as_deref(),
            Some("Registered (Buffered)")
        );
        assert_eq!(devs[1].size, DeviceSize::Empty);
        assert_eq!(devs[1].type_name(), None);

        let mapped: u64 = t
            .of_type(19)
            .filter_map(decode_mapped_range)
            .map(|r| r.size_bytes())
            .sum();
        assert_eq!(mapped, 20 << 30); // "Range Size: 20 GB"
    }

    #[test]
    fn table_dell_poweredge_r630() {
        let t = Table::parse(R630, None);
        assert_eq!(t.error, None);
        let arr = decode_memory_array(t.of_type(16).next().unwrap());
        // go-smbios: MaximumCapacity 0x80000000 → ExtendedMaximumCapacity 3298534883328.
        assert_eq!(arr.max_capacity_bytes, Some(3_298_534_883_328));
        assert_eq!(arr.slots, Some(24));
        assert!(arr.is_system_memory());
        let devs = devices(&t);
        assert_eq!(devs.len(), 24);
        let pop: Vec<_> = devs
            .iter()
            .filter(|d| matches!(d.size, DeviceSize::Bytes(_)))
            .collect();
        assert_eq!(pop.len(), 2);
        assert_eq!(pop[0].locator.as_deref(), Some("A3"));
        assert_eq!(pop[0].size, DeviceSize::Bytes(16 << 30));
        assert_eq!(pop[0].type_name(), Some("DDR4"));
        assert_eq!(pop[0].speed_mts, Some(2400));
        assert_eq!(pop[0].configured_speed_mts, Some(1866));
        assert_eq!(pop[0].part_number.as_deref(), Some("18ASF2G72PDZ-2G3B1"));
        assert_eq!(pop[1].serial.as_deref(), Some("12BDBF5D"));
        assert_eq!(devs[0].size, DeviceSize::Empty);
        assert_eq!(devs[0].bank_locator, None);

        let cpus: Vec<Processor> = t.of_type(4).map(decode_processor).collect();
        assert_eq!(
            cpus[0].version.as_deref(),
            Some("Intel(R) Xeon(R) CPU E5-2630 v3 @ 2.40GHz")
        );
        assert!(cpus[0].populated);
        assert_eq!(cpus[0].thread_count, Some(16));
        assert!(!cpus[1].populated); // go-smbios Status 0
        let sys = decode_system(t.of_type(1).next().unwrap(), None);
        assert_eq!(
            sys.uuid.as_deref(),
            Some("4c4c4544-0039-3010-8048-b7c04f384432")
        );
        assert_eq!(
            decode_slot(t.of_type(9).next().unwrap())
                .designation
                .as_deref(),
            Some("PCIe Slot 2")
        );
    }

    #[test]
    fn table_asrock_ryzen_extended_size() {
        let t = Table::parse(ASROCK, None);
        assert_eq!(t.error, None);
        let devs = devices(&t);
        assert_eq!(devs.len(), 4);
        // Size 0x7FFF → extended size 32768 MB.
        assert_eq!(devs[1].size, DeviceSize::Bytes(32 << 30));
        assert_eq!(devs[1].locator.as_deref(), Some("DIMM 1"));
        assert_eq!(devs[1].bank_locator.as_deref(), Some("P0 CHANNEL A"));
        assert_eq!(devs[1].part_number.as_deref(), Some("KF3200C16D4/32GX"));
        assert_eq!(devs[1].configured_speed_mts, Some(2400));
        // Empty slot strings say "Unknown": unknown, not the word.
        assert_eq!(devs[0].size, DeviceSize::Empty);
        assert_eq!(devs[0].manufacturer, None);
        let cpu = decode_processor(t.of_type(4).next().unwrap());
        assert_eq!(
            cpu.version.as_deref(),
            Some("AMD Ryzen 9 5900X 12-Core Processor")
        );
        assert_eq!((cpu.core_count, cpu.thread_count), (Some(12), Some(24)));
        assert_eq!(cpu.max_speed_mhz, Some(4950));
        assert_eq!(cpu.serial, None); // "Unknown"
    }

    #[test]
    fn kib_and_unknown_sizes() {
        // A minimal type-17: header + fields up to the size word.
        let mut rec = vec![17u8, 0x15, 0x01, 0x00];
        rec.resize(0x15, 0);
        rec[0x0C..0x0E].copy_from_slice(&0x8200u16.to_le_bytes()); // 512 KiB
        rec.extend_from_slice(&[0, 0]);
        let t = Table::parse(&rec, None);
        let d = decode_memory_device(&t.structures[0]);
        assert_eq!(d.size, DeviceSize::Bytes(512 * 1024));
        assert_eq!(d.speed_mts, None); // 0x15 is past this short record

        rec[0x0C..0x0E].copy_from_slice(&0xFFFFu16.to_le_bytes());
        let t = Table::parse(&rec, None);
        assert_eq!(
            decode_memory_device(&t.structures[0]).size,
            DeviceSize::Unknown
        );
    }

    #[test]
    fn truncated_table_keeps_what_was_read() {
        let cut = &T7600_DMI[..3000];
        let t = Table::parse(cut, None);
        assert!(!t.structures.is_empty());
        match t.error {
            Some(SmbiosError::Truncated { offset, .. }) => assert!(offset < 3000),
            other => panic!("expected truncation, got {other:?}"),
        }
        // The entry point bound cuts a longer file at the table length.
        let ep = parse_entry_point(T7600_EP).unwrap();
        let mut longer = T7600_DMI.to_vec();
        longer.extend_from_slice(&[0xAA; 64]);
        assert_eq!(Table::parse(&longer, Some(&ep)).structures.len(), 149);
    }

    #[test]
    fn placeholders_are_unknown() {
        for p in [
            "To Be Filled By O.E.M.",
            "Default string",
            "  ",
            "Not Specified",
            "Unknown",
            "0000000000",
            "FFFFFFFF",
            "System Product Name",
        ] {
            assert!(is_placeholder(p), "{p}");
        }
        assert!(!is_placeholder("HP"));
        assert!(!is_placeholder("Z8 G4 Workstation"));
        assert!(
            !is_placeholder("/       /              /"),
            "Dell's board serial"
        );
    }

    #[test]
    fn string_index_past_the_set() {
        // Type 2 whose manufacturer says string 5, but only one string follows.
        let rec = [2u8, 8, 0, 0, 5, 1, 0, 0, b'X', 0, 0];
        let t = Table::parse(&rec, None);
        let b = decode_board(&t.structures[0]);
        assert_eq!(b.manufacturer, Text::NotSupplied);
        assert_eq!(b.product.value(), Some("X"));
    }

    #[test]
    fn length_below_header_and_zero_length() {
        for length in [0u8, 3] {
            let rec = [17u8, length, 0, 0, 0, 0, 0, 0];
            let t = Table::parse(&rec, None);
            assert!(t.structures.is_empty());
            assert_eq!(t.error, Some(SmbiosError::BadLength { offset: 0, length }));
        }
        // A structure with no string set terminator.
        let t = Table::parse(&[1u8, 4, 0, 0, b'a'], None);
        assert!(matches!(
            t.error,
            Some(SmbiosError::Truncated { offset: 0, .. })
        ));
        // Formatted area longer than the data.
        let t = Table::parse(&[4u8, 0x30, 0, 0, 0], None);
        assert_eq!(
            t.error,
            Some(SmbiosError::Truncated {
                offset: 0,
                need: 0x30,
                have: 5
            })
        );
    }

    #[test]
    fn stops_at_end_of_table() {
        let rec = [127u8, 4, 0xFF, 0xFF, 0, 0, 2, 4, 0, 0, 0, 0];
        let t = Table::parse(&rec, None);
        assert_eq!(t.structures.len(), 1);
        assert_eq!(t.error, None);
    }

    #[test]
    fn hostile_entry_points() {
        assert_eq!(parse_entry_point(b""), Err(SmbiosError::BadAnchor));
        assert!(matches!(
            parse_entry_point(b"_SM3_"),
            Err(SmbiosError::EntryPointTooShort { .. })
        ));
        let mut ep = T7600_EP.to_vec();
        ep[6] ^= 1;
        assert!(matches!(
            parse_entry_point(&ep),
            Err(SmbiosError::BadChecksum { .. })
        ));
        assert!(matches!(
            parse_entry_point(&T7600_EP[..20]),
            Err(SmbiosError::EntryPointTooShort { .. })
        ));
    }
}
