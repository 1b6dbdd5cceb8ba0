//! The NVMe SMART / Health Information log page (log identifier 02h, NVMe 1.4 figure 194),
//! decoded from the 512 bytes the controller returns. No crate on crates.io decodes the
//! page from bytes without also opening the device (libnvme binds the C library;
//! nvme-telem and block-utils do their own I/O), and the layout is fixed, so it is read
//! here field by field. Pure: bytes in, figures or why not out.

use crate::spec::health::{DriveHealth, CRITICAL_WARNING_BITS};

/// Bytes of the log page.
pub const LOG_LEN: usize = 512;

/// One data unit is a thousand 512-byte units (NVMe 1.4, figure 194, bytes 47:32).
const DATA_UNIT_BYTES: u128 = 512_000;

/// The page's fields, as wide as the page keeps them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NvmeLog {
    pub critical_warning: u8,
    /// Composite temperature, kelvin (0: not reported).
    pub temperature_k: u16,
    pub available_spare: u8,
    pub available_spare_threshold: u8,
    pub percentage_used: u8,
    pub data_units_read: u128,
    pub data_units_written: u128,
    pub host_read_commands: u128,
    pub host_write_commands: u128,
    pub controller_busy_minutes: u128,
    pub power_cycles: u128,
    pub power_on_hours: u128,
    pub unsafe_shutdowns: u128,
    pub media_errors: u128,
    pub error_log_entries: u128,
    pub warning_temperature_minutes: u32,
    pub critical_temperature_minutes: u32,
}

/// Why bytes are not a log page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LogError {
    /// Shorter than the page: the read was cut short.
    Short { have: usize },
    /// Every byte the same (all zeros, all ones): the controller returned no data.
    Blank { byte: u8 },
}

impl std::fmt::Display for LogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LogError::Short { have } => write!(
                f,
                "the log is {have} bytes where the SMART / Health Information page has {LOG_LEN}"
            ),
            LogError::Blank { byte } => write!(
                f,
                "every byte of the log is 0x{byte:02x}: the controller returned no data"
            ),
        }
    }
}

fn le128(b: &[u8], at: usize) -> u128 {
    let mut v = [0u8; 16];
    v.copy_from_slice(&b[at..at + 16]);
    u128::from_le_bytes(v)
}

fn le32(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

/// Takes the page apart; the first 512 bytes are read (a longer buffer is the page with
/// padding).
pub fn parse(bytes: &[u8]) -> Result<NvmeLog, LogError> {
    let Some(b) = bytes.get(..LOG_LEN) else {
        return Err(LogError::Short { have: bytes.len() });
    };
    if b.iter().all(|x| *x == b[0]) {
        return Err(LogError::Blank { byte: b[0] });
    }
    Ok(NvmeLog {
        critical_warning: b[0],
        temperature_k: u16::from_le_bytes([b[1], b[2]]),
        available_spare: b[3],
        available_spare_threshold: b[4],
        percentage_used: b[5],
        data_units_read: le128(b, 32),
        data_units_written: le128(b, 48),
        host_read_commands: le128(b, 64),
        host_write_commands: le128(b, 80),
        controller_busy_minutes: le128(b, 96),
        power_cycles: le128(b, 112),
        power_on_hours: le128(b, 128),
        unsafe_shutdowns: le128(b, 144),
        media_errors: le128(b, 160),
        error_log_entries: le128(b, 176),
        warning_temperature_minutes: le32(b, 192),
        critical_temperature_minutes: le32(b, 196),
    })
}

/// Fills `d` from a decoded page; returns what could not be taken, as (field, why), for
/// the caller's notes: a counter past 64 bits or a percentage no drive writes is unknown,
/// never cut to a number.
pub fn fill(d: &mut DriveHealth, log: &NvmeLog) -> Vec<(&'static str, String)> {
    let mut odd = Vec::new();
    let mut count = |field: &'static str, v: u128| match u64::try_from(v) {
        Ok(n) => Some(n),
        Err(_) => {
            odd.push((field, format!("the log's {field} is {v}, past 64 bits")));
            None
        }
    };
    d.power_cycles = count("power_cycles", log.power_cycles);
    d.power_on_hours = count("power_on_hours", log.power_on_hours);
    d.unsafe_shutdowns = count("unsafe_shutdowns", log.unsafe_shutdowns);
    d.media_errors = count("media_errors", log.media_errors);
    d.error_log_entries = count("error_log_entries", log.error_log_entries);
    let mut bytes = |field: &'static str, units: u128| match units
        .checked_mul(DATA_UNIT_BYTES)
        .and_then(|b| u64::try_from(b).ok())
    {
        Some(b) => Some(b),
        None => {
            odd.push((
                field,
                format!("{units} data units of 512,000 bytes are past 64 bits of bytes"),
            ));
            None
        }
    };
    d.data_read_bytes = bytes("data_read_bytes", log.data_units_read);
    d.data_written_bytes = bytes("data_written_bytes", log.data_units_written);
    d.critical_warning = Some(log.critical_warning);
    d.critical_warnings = CRITICAL_WARNING_BITS
        .iter()
        .enumerate()
        .filter(|(i, _)| log.critical_warning & (1 << i) != 0)
        .map(|(_, n)| (*n).to_string())
        .collect();
    // Kelvin 0 means the controller reports no temperature; above 200 °C no drive runs.
    d.temperature_c = match log.temperature_k {
        0 => {
            odd.push((
                "temperature_c",
                "the log reports no temperature (0 K)".into(),
            ));
            None
        }
        k if k > 473 => {
            odd.push((
                "temperature_c",
                format!("the log's temperature is {k} K, no drive's"),
            ));
            None
        }
        k => Some(i32::from(k) - 273),
    };
    let mut percent = |field: &'static str, v: u8| {
        if v <= 100 {
            Some(v)
        } else {
            odd.push((field, format!("the log's {field} is {v} %, past 100 %")));
            None
        }
    };
    d.available_spare_percent = percent("available_spare_percent", log.available_spare);
    d.available_spare_threshold_percent = percent(
        "available_spare_threshold_percent",
        log.available_spare_threshold,
    );
    // Past 100 % is allowed: the drive has written more than its rating (up to 255).
    d.percentage_used = Some(log.percentage_used);
    odd
}

#[cfg(test)]
pub mod tests {
    use super::*;

    /// A page with the figures given and zeros elsewhere, as the fixture tool writes one.
    pub fn page(fields: &[(usize, u128, usize)]) -> Vec<u8> {
        let mut b = vec![0u8; LOG_LEN];
        for &(at, v, width) in fields {
            b[at..at + width].copy_from_slice(&v.to_le_bytes()[..width]);
        }
        b
    }

    #[test]
    fn short_and_blank_logs_are_refused() {
        assert_eq!(parse(&[0u8; 100]), Err(LogError::Short { have: 100 }));
        assert_eq!(parse(&[]), Err(LogError::Short { have: 0 }));
        assert_eq!(parse(&[0u8; 512]), Err(LogError::Blank { byte: 0 }));
        assert_eq!(parse(&[0xffu8; 512]), Err(LogError::Blank { byte: 0xff }));
    }

    #[test]
    fn counters_past_64_bits_are_unknown_not_cut() {
        let b = page(&[
            (1, 300, 2),
            (128, u128::from(u64::MAX) + 1, 16),
            (48, 1 << 60, 16),
        ]);
        let log = parse(&b).unwrap();
        let mut d = DriveHealth::default();
        let odd = fill(&mut d, &log);
        assert_eq!(d.power_on_hours, None);
        assert_eq!(d.data_written_bytes, None);
        assert_eq!(d.temperature_c, Some(27));
        assert_eq!(odd.len(), 2, "{odd:?}");
    }
}
