//! ATA SMART, decoded from the two sectors a SATA drive returns: SMART READ DATA (ACS-3
//! 7.44.2: a revision word, 30 attribute entries of 12 bytes, the offline and self-test
//! status, a checksum) and SMART READ THRESHOLDS (a revision word, 30 entries of an id and a
//! threshold, a checksum). The crates that decode these (`hdd`) are unmaintained and pull in
//! smartmontools' drive database; the layout is fixed, so it is read here. Pure.
//!
//! Raw values are read as smartmontools reads them by default: 48 bits, but for power-on
//! hours (the low 24: drives keep minutes or milliseconds above them) and temperatures (the
//! low byte). A drive whose vendor packs a counter otherwise may show a different figure
//! than smartctl with its drive database would.

use crate::spec::health::DriveHealth;

/// Bytes of one sector.
pub const SECTOR: usize = 512;

/// The recorded log: READ DATA then READ THRESHOLDS.
pub const LOG_LEN: usize = 2 * SECTOR;

/// Attribute entries in each sector.
const ENTRIES: usize = 30;

/// One attribute with its threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attribute {
    pub id: u8,
    pub flags: u16,
    /// Normalised value (1 to 253; higher is better).
    pub value: u8,
    pub worst: u8,
    /// The six raw bytes, little-endian.
    pub raw: u64,
    /// The drive's threshold for the normalised value, when the thresholds sector has it.
    pub threshold: Option<u8>,
}

impl Attribute {
    /// Bit 0 of the flags: a pre-failure attribute (at its threshold the drive predicts
    /// failure); otherwise advisory (old age: past its designed life).
    pub fn is_prefailure(&self) -> bool {
        self.flags & 1 != 0
    }

    /// At or below its threshold: what the drive itself calls failing. A threshold of 0
    /// never trips, and values 0, 254 and 255 are not ratings.
    pub fn is_tripped(&self) -> bool {
        matches!(self.threshold, Some(t) if t > 0 && (1..=253).contains(&self.value) && self.value <= t)
    }
}

/// Why bytes are not SMART data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogError {
    Short {
        have: usize,
    },
    /// The sector's bytes do not sum to 0 (mod 256): damaged on the way.
    Checksum {
        sector: &'static str,
    },
    /// All zeros or all ones: the drive returned no data.
    Blank {
        sector: &'static str,
    },
}

impl std::fmt::Display for LogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LogError::Short { have } => write!(
                f,
                "the log is {have} bytes where SMART READ DATA and READ THRESHOLDS make {LOG_LEN}"
            ),
            LogError::Checksum { sector } => write!(
                f,
                "the {sector} sector's checksum is wrong: the bytes were damaged on the way"
            ),
            LogError::Blank { sector } => {
                write!(
                    f,
                    "the {sector} sector is blank: the drive returned no data"
                )
            }
        }
    }
}

fn check(sector: &[u8], name: &'static str) -> Result<(), LogError> {
    if sector.iter().all(|b| *b == 0) || sector.iter().all(|b| *b == 0xff) {
        return Err(LogError::Blank { sector: name });
    }
    if sector.iter().fold(0u8, |s, b| s.wrapping_add(*b)) != 0 {
        return Err(LogError::Checksum { sector: name });
    }
    Ok(())
}

/// The attributes, each with its threshold, from READ DATA followed by READ THRESHOLDS.
pub fn parse(bytes: &[u8]) -> Result<Vec<Attribute>, LogError> {
    let (Some(data), Some(thresholds)) = (bytes.get(..SECTOR), bytes.get(SECTOR..LOG_LEN)) else {
        return Err(LogError::Short { have: bytes.len() });
    };
    check(data, "SMART READ DATA")?;
    check(thresholds, "SMART READ THRESHOLDS")?;
    let entry = |s: &[u8], i: usize| s[2 + 12 * i..2 + 12 * (i + 1)].to_vec();
    let mut out = Vec::new();
    for i in 0..ENTRIES {
        let e = entry(data, i);
        if e[0] == 0 {
            continue;
        }
        let mut raw = [0u8; 8];
        raw[..6].copy_from_slice(&e[5..11]);
        let threshold = (0..ENTRIES)
            .map(|j| entry(thresholds, j))
            .find(|t| t[0] == e[0])
            .map(|t| t[1]);
        out.push(Attribute {
            id: e[0],
            flags: u16::from_le_bytes([e[1], e[2]]),
            value: e[3],
            worst: e[4],
            raw: u64::from_le_bytes(raw),
            threshold,
        });
    }
    Ok(out)
}

/// The names smartmontools gives the attributes rigcheck reads or reports as failing
/// (`drivedb.h` defaults); others are named by id alone.
pub fn name(id: u8) -> Option<&'static str> {
    Some(match id {
        1 => "Raw_Read_Error_Rate",
        3 => "Spin_Up_Time",
        5 => "Reallocated_Sector_Ct",
        7 => "Seek_Error_Rate",
        9 => "Power_On_Hours",
        10 => "Spin_Retry_Count",
        12 => "Power_Cycle_Count",
        177 => "Wear_Leveling_Count",
        179 => "Used_Rsvd_Blk_Cnt_Tot",
        181 => "Program_Fail_Cnt_Total",
        182 => "Erase_Fail_Count_Total",
        184 => "End-to-End_Error",
        187 => "Reported_Uncorrect",
        190 => "Airflow_Temperature_Cel",
        194 => "Temperature_Celsius",
        196 => "Reallocated_Event_Count",
        197 => "Current_Pending_Sector",
        198 => "Offline_Uncorrectable",
        199 => "UDMA_CRC_Error_Count",
        202 => "Percent_Lifetime_Remain",
        231 => "SSD_Life_Left",
        233 => "Media_Wearout_Indicator",
        241 => "Total_LBAs_Written",
        _ => return None,
    })
}

/// Wear attributes whose normalised value counts down from 100 as the flash wears, in the
/// order they are trusted: Intel's media wearout, Samsung's wear levelling, the SandForce and
/// Kingston life left, Micron's lifetime remaining.
const WEAR: [u8; 4] = [233, 177, 231, 202];

/// Fills `d` from the attributes; `ssd` says whether a wear figure is to be looked for.
/// Returns what could not be taken, as (field, why).
pub fn fill(d: &mut DriveHealth, attrs: &[Attribute], ssd: bool) -> Vec<(&'static str, String)> {
    let mut odd = Vec::new();
    let get = |id: u8| attrs.iter().find(|a| a.id == id);
    d.power_on_hours = get(9).map(|a| a.raw & 0xff_ffff);
    d.power_cycles = get(12).map(|a| a.raw);
    d.reallocated_sectors = get(5).map(|a| a.raw);
    d.pending_sectors = get(197).map(|a| a.raw);
    d.uncorrectable_sectors = get(198).map(|a| a.raw);
    d.total_lbas_written = get(241).map(|a| a.raw);
    d.temperature_c = get(194)
        .or_else(|| get(190))
        .map(|a| i32::from((a.raw & 0xff) as u8));
    for (field, id) in [("power_on_hours", 9), ("reallocated_sectors", 5)] {
        if get(id).is_none() {
            odd.push((field, format!("the drive keeps no attribute {id}")));
        }
    }
    if ssd {
        match WEAR.iter().find_map(|id| get(*id)) {
            Some(a) if (1..=100).contains(&a.value) => d.percentage_used = Some(100 - a.value),
            Some(a) => odd.push((
                "percentage_used",
                format!(
                    "attribute {} reads {}, not a percentage left",
                    a.id, a.value
                ),
            )),
            None => odd.push((
                "percentage_used",
                "the drive keeps none of the wear attributes rigcheck reads (233, 177, 231, 202)"
                    .into(),
            )),
        }
    }
    d.failing_attributes = attrs
        .iter()
        .filter(|a| a.is_tripped())
        .map(|a| {
            let kind = if a.is_prefailure() {
                "pre-failure"
            } else {
                "advisory: past its designed life"
            };
            format!(
                "{} {} ({} ≤ threshold {}, {kind})",
                a.id,
                name(a.id).unwrap_or("attribute"),
                a.value,
                a.threshold.unwrap_or(0)
            )
        })
        .collect();
    d.assessment = Some(
        if attrs.iter().any(|a| a.is_tripped() && a.is_prefailure()) {
            "failing"
        } else {
            "passed"
        }
        .into(),
    );
    odd
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// The two sectors for `attrs` (id, flags, value, worst, raw, threshold), with their
    /// checksums, as the fixture tool writes them.
    pub fn sectors(attrs: &[(u8, u16, u8, u8, u64, u8)]) -> Vec<u8> {
        let mut data = vec![0u8; SECTOR];
        let mut thr = vec![0u8; SECTOR];
        data[0] = 16;
        thr[0] = 16;
        for (i, &(id, flags, value, worst, raw, t)) in attrs.iter().enumerate() {
            let e = 2 + 12 * i;
            data[e] = id;
            data[e + 1..e + 3].copy_from_slice(&flags.to_le_bytes());
            data[e + 3] = value;
            data[e + 4] = worst;
            data[e + 5..e + 11].copy_from_slice(&raw.to_le_bytes()[..6]);
            thr[e] = id;
            thr[e + 1] = t;
        }
        for s in [&mut data, &mut thr] {
            let sum = s[..511].iter().fold(0u8, |a, b| a.wrapping_add(*b));
            s[511] = 0u8.wrapping_sub(sum);
        }
        data.extend(thr);
        data
    }

    #[test]
    fn a_bad_checksum_a_blank_or_a_short_log_is_no_data() {
        let mut b = sectors(&[(9, 0x32, 99, 99, 12, 0)]);
        assert!(parse(&b).is_ok());
        b[20] ^= 1;
        assert_eq!(
            parse(&b),
            Err(LogError::Checksum {
                sector: "SMART READ DATA"
            })
        );
        assert_eq!(parse(&b[..600]), Err(LogError::Short { have: 600 }));
        assert!(matches!(
            parse(&[0u8; LOG_LEN]),
            Err(LogError::Blank { .. })
        ));
    }

    #[test]
    fn hours_are_the_low_24_bits_as_smartctl_reads_them() {
        // A drive that keeps milliseconds above the hours (Seagate's msec24hour32).
        let b = sectors(&[(9, 0x32, 99, 99, (77 << 32) | 1234, 0)]);
        let mut d = DriveHealth::default();
        fill(&mut d, &parse(&b).unwrap(), false);
        assert_eq!(d.power_on_hours, Some(1234));
    }
}
