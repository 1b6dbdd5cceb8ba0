//! Quantities as people write them in orders and on the command line ("24 GiB", "1 TB",
//! "3.1 GHz", "2933 MT/s", "5%"), and as every output prints them.
//!
//! Sizes have two readings. Drive vendors use SI units ("1 TB" = 1e12 bytes). Memory (DIMMs,
//! VRAM) is sold in JEDEC units, where "GB" means 2^30 bytes ("96 GB" of DIMMs = 96 GiB).
//! `parse_bytes` takes the SI reading; `parse_bytes_jedec` the memory one. `GiB`/`TiB` and
//! friends are binary in both.

/// Why a quantity as written is not one: each says what was written and how to write it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum UnitError {
    #[error(
        "'{text}': unknown unit '{unit}'; use B, KiB, MiB, GiB, TiB, kB, MB, GB, TB, or K, M, G, T"
    )]
    SizeUnit { text: String, unit: String },
    #[error("'{text}': unknown clock unit '{unit}'; use MHz or GHz")]
    ClockUnit { text: String, unit: String },
    #[error("'{text}': unknown speed unit '{unit}'; use Mb/s or Gb/s (\"10 Gb/s\", \"25 GbE\")")]
    SpeedUnit { text: String, unit: String },
    #[error("'{text}': unknown rate unit '{unit}'; use MT/s")]
    RateUnit { text: String, unit: String },
    #[error("'{text}': not a percentage; write one such as '3%'")]
    NotPercent { text: String },
    #[error("'{text}': out of range; give 0% to 100%")]
    PercentRange { text: String },
    #[error("'{text}': does not start with a number; write the number, then its unit")]
    NoNumber { text: String },
    #[error(
        "'{text}': a comma is ambiguous (decimal or thousands?); write '{suggestion}' with a \
         point for decimals and no thousands separator"
    )]
    Comma { text: String, suggestion: String },
    #[error("'{text}': not a number; write digits, a point for decimals")]
    NotNumber { text: String },
    #[error(
        "'{text}' has no unit, so it means {bytes} bytes; write it with one, e.g. '{number} GB'"
    )]
    NoUnit {
        text: String,
        bytes: u64,
        number: f64,
    },
    #[error("'{text}': out of range; give a smaller number")]
    Range { text: String },
}

/// Parses a size with the SI reading of `kB`/`MB`/`GB`/`TB` (drives, disks).
/// A bare number is bytes. `K`/`M`/`G`/`T` alone (as in `64M`, `size=64m`) are binary, like
/// `dd`, `tmpfs size=` and Docker's `--shm-size`.
pub fn parse_bytes(text: &str) -> Result<u64, UnitError> {
    parse_size(text, false)
}

/// Parses a size with the JEDEC reading of `GB` (= GiB), as memory is sold.
pub fn parse_bytes_jedec(text: &str) -> Result<u64, UnitError> {
    parse_size(text, true)
}

fn parse_size(text: &str, jedec: bool) -> Result<u64, UnitError> {
    let (num, unit) = number_and_unit(text)?;
    let si = |p: i32| {
        if jedec {
            1024f64.powi(p)
        } else {
            1000f64.powi(p)
        }
    };
    let mult = match unit.to_ascii_lowercase().as_str() {
        "" | "b" | "bytes" | "byte" => 1.0,
        "kb" => si(1),
        "mb" => si(2),
        "gb" => si(3),
        "tb" => si(4),
        "pb" => si(5),
        "k" | "kib" => 1024f64,
        "m" | "mib" => 1024f64.powi(2),
        "g" | "gib" => 1024f64.powi(3),
        "t" | "tib" => 1024f64.powi(4),
        "p" | "pib" => 1024f64.powi(5),
        _ => {
            return Err(UnitError::SizeUnit {
                text: text.into(),
                unit,
            })
        }
    };
    to_u64(num * mult, text)
}

/// Parses a clock to MHz: "3.1 GHz", "3100 MHz", "3100" (MHz).
pub fn parse_mhz(text: &str) -> Result<u64, UnitError> {
    let (num, unit) = number_and_unit(text)?;
    let mult = match unit.to_ascii_lowercase().as_str() {
        "" | "mhz" => 1.0,
        "ghz" => 1000.0,
        "khz" => 0.001,
        _ => {
            return Err(UnitError::ClockUnit {
                text: text.into(),
                unit,
            })
        }
    };
    to_u64(num * mult, text)
}

/// Parses a memory transfer rate to MT/s: "2933 MT/s", "2933", "DDR4-2933" is not accepted.
pub fn parse_mts(text: &str) -> Result<u64, UnitError> {
    let (num, unit) = number_and_unit(text)?;
    match unit.to_ascii_lowercase().as_str() {
        "" | "mt/s" | "mts" | "mhz" => to_u64(num, text),
        _ => Err(UnitError::RateUnit {
            text: text.into(),
            unit,
        }),
    }
}

/// Parses a relative tolerance "3%" to a fraction (0.03).
pub fn parse_percent(text: &str) -> Result<f64, UnitError> {
    let (num, unit) = number_and_unit(text)?;
    if unit != "%" {
        return Err(UnitError::NotPercent { text: text.into() });
    }
    if !(0.0..=100.0).contains(&num) {
        return Err(UnitError::PercentRange { text: text.into() });
    }
    Ok(num / 100.0)
}

/// The number and the unit of a quantity as written: `"3.1 GHz"` → `(3.1, "GHz")`, `"80"` →
/// `(80.0, "")`. A comma is refused: "3,5 GHz" is 3.5 GHz to half the world and 35 GHz to the
/// other half, and a wrong guess is a silently wrong order.
pub fn number_and_unit(text: &str) -> Result<(f64, String), UnitError> {
    let t = text.trim();
    let end = t
        .char_indices()
        .find(|(_, c)| !(c.is_ascii_digit() || *c == '.' || *c == '_' || *c == ','))
        .map_or(t.len(), |(i, _)| i);
    let (n, unit) = t.split_at(end);
    if n.is_empty() {
        return Err(UnitError::NoNumber { text: text.into() });
    }
    if n.contains(',') {
        let point = n.replacen(',', ".", 1).replace(',', "");
        return Err(UnitError::Comma {
            text: text.into(),
            suggestion: format!(
                "{}{}{}",
                point.trim_end_matches('.'),
                if unit.trim().is_empty() { "" } else { " " },
                unit.trim()
            ),
        });
    }
    let n: String = n.chars().filter(|c| *c != '_').collect();
    let num: f64 = n
        .parse()
        .map_err(|_| UnitError::NotNumber { text: text.into() })?;
    Ok((num, unit.trim().to_string()))
}

/// Sizes given without a unit below this are refused where a person types them: `80` would
/// be 80 bytes, and nobody orders 80 bytes of anything.
pub const MIN_BARE_BYTES: u64 = 1 << 20;

/// Parses a size typed on the command line (`--min-free-disk 500GB`): as `parse_bytes`, but
/// a bare number under `MIN_BARE_BYTES` is refused with the unit it probably lacks.
pub fn parse_bytes_arg(text: &str) -> Result<u64, UnitError> {
    let (num, unit) = number_and_unit(text)?;
    let bytes = parse_bytes(text)?;
    if unit.is_empty() && bytes < MIN_BARE_BYTES {
        return Err(UnitError::NoUnit {
            text: text.into(),
            bytes,
            number: num,
        });
    }
    Ok(bytes)
}

fn to_u64(v: f64, text: &str) -> Result<u64, UnitError> {
    if !v.is_finite() || v < 0.0 || v > u64::MAX as f64 {
        return Err(UnitError::Range { text: text.into() });
    }
    Ok(v.round() as u64)
}

/// Binary size as people read RAM and VRAM: `24 GiB`, `1.5 MiB`, `512 KiB`.
pub fn bytes_bin(n: u64) -> String {
    const UNITS: [&str; 6] = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1024.0 && u + 1 < UNITS.len() {
        v /= 1024.0;
        u += 1;
    }
    trim_number(v, UNITS[u])
}

/// Decimal size as drive vendors print it: `1 TB`, `960.2 GB`.
pub fn bytes_dec(n: u64) -> String {
    const UNITS: [&str; 6] = ["B", "kB", "MB", "GB", "TB", "PB"];
    let mut v = n as f64;
    let mut u = 0;
    while v >= 1000.0 && u + 1 < UNITS.len() {
        v /= 1000.0;
        u += 1;
    }
    trim_number(v, UNITS[u])
}

fn trim_number(v: f64, unit: &str) -> String {
    let s = format!("{v:.1}");
    let s = s.strip_suffix(".0").unwrap_or(&s);
    format!("{s} {unit}")
}

/// `12.3 GB/s`, `850.0 MB/s`: decimal prefixes, as drive and memory vendors quote rates.
pub fn fmt_rate(v: f64, unit: &str) -> String {
    const P: [&str; 5] = ["", "k", "M", "G", "T"];
    let mut v = v;
    let mut i = 0;
    while v >= 1000.0 && i + 1 < P.len() {
        v /= 1000.0;
        i += 1;
    }
    format!("{v:.1} {}{unit}", P[i])
}

/// Parses a network link speed to Mb/s: "10 Gb/s", "25 Gbit/s", "100 Gbps", "10 GbE",
/// "2.5 Gb/s", "1000 Mb/s", "1000" (Mb/s, as the kernel writes it).
pub fn parse_link_speed(text: &str) -> Result<u64, UnitError> {
    let (num, unit) = number_and_unit(text)?;
    let u = unit.to_ascii_lowercase().replace(' ', "");
    let mult = match u.as_str() {
        "" | "mb/s" | "mbit/s" | "mbps" | "mbe" => 1.0,
        "gb/s" | "gbit/s" | "gbps" | "gbe" | "g" => 1000.0,
        "tb/s" | "tbit/s" | "tbps" => 1_000_000.0,
        _ => {
            return Err(UnitError::SpeedUnit {
                text: text.into(),
                unit,
            })
        }
    };
    to_u64(num * mult, text)
}

/// A link speed in Mb/s as people say it: `10 Gb/s`, `2.5 Gb/s`, `100 Mb/s`.
pub fn link_speed(mbps: u64) -> String {
    if mbps >= 1000 {
        let g = mbps as f64 / 1000.0;
        if (g - g.round()).abs() < 1e-9 {
            format!("{} Gb/s", g.round() as u64)
        } else {
            format!("{g} Gb/s")
        }
    } else {
        format!("{mbps} Mb/s")
    }
}

/// MHz as `3100 MHz`.
pub fn mhz(v: u32) -> String {
    format!("{v} MHz")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_speeds_as_written_in_orders() {
        assert_eq!(parse_link_speed("10 Gb/s").unwrap(), 10_000);
        assert_eq!(parse_link_speed("25 GbE").unwrap(), 25_000);
        assert_eq!(parse_link_speed("2.5 Gbit/s").unwrap(), 2_500);
        assert_eq!(parse_link_speed("100 Gbps").unwrap(), 100_000);
        assert_eq!(parse_link_speed("1000").unwrap(), 1_000);
        assert!(parse_link_speed("10 GB").is_err());
        assert_eq!(link_speed(10_000), "10 Gb/s");
        assert_eq!(link_speed(2_500), "2.5 Gb/s");
        assert_eq!(link_speed(100), "100 Mb/s");
    }

    #[test]
    fn sizes_as_written_in_orders() {
        assert_eq!(parse_bytes("1 TB").unwrap(), 1_000_000_000_000);
        assert_eq!(parse_bytes("24 GiB").unwrap(), 24 << 30);
        assert_eq!(parse_bytes("64M").unwrap(), 64 << 20);
        assert_eq!(parse_bytes("512").unwrap(), 512);
        assert_eq!(parse_bytes_jedec("96 GB").unwrap(), 96 << 30);
        assert_eq!(parse_bytes_jedec("24GB").unwrap(), 24 << 30);
        assert_eq!(parse_bytes("1.5 TB").unwrap(), 1_500_000_000_000);
        assert_eq!(
            parse_bytes("12 bananas").unwrap_err(),
            UnitError::SizeUnit {
                text: "12 bananas".into(),
                unit: "bananas".into()
            }
        );
        assert!(parse_bytes("GB").is_err());
    }

    #[test]
    fn clocks_rates_and_tolerances() {
        assert_eq!(parse_mhz("3.1 GHz").unwrap(), 3100);
        assert_eq!(parse_mhz("4000 MHz").unwrap(), 4000);
        assert_eq!(parse_mts("2933 MT/s").unwrap(), 2933);
        assert!((parse_percent("3%").unwrap() - 0.03).abs() < 1e-12);
        assert!(parse_percent("3").is_err());
        assert!(parse_mhz("3.1 GB").is_err());
    }

    #[test]
    fn commas_are_refused_not_guessed() {
        let e = parse_mhz("3,5 GHz").unwrap_err().to_string();
        assert!(e.contains("write '3.5 GHz'"), "{e}");
        let e = parse_bytes("1,000 GB").unwrap_err().to_string();
        assert!(e.contains("comma is ambiguous"), "{e}");
        assert_eq!(parse_bytes("1_000 GB").unwrap(), 1_000_000_000_000);
    }

    #[test]
    fn bare_sizes_on_the_command_line_need_a_unit_when_small() {
        let e = parse_bytes_arg("20").unwrap_err().to_string();
        assert!(e.contains("means 20 bytes") && e.contains("'20 GB'"), "{e}");
        assert_eq!(parse_bytes_arg("20 GiB").unwrap(), 20 << 30);
        assert_eq!(parse_bytes_arg("21474836480").unwrap(), 20 << 30);
        // tmpfs options keep bare byte counts.
        assert_eq!(parse_bytes("4096").unwrap(), 4096);
    }

    #[test]
    fn rates_use_decimal_prefixes() {
        assert_eq!(fmt_rate(12_345_678_901.0, "B/s"), "12.3 GB/s");
        assert_eq!(fmt_rate(850_000_000.0, "B/s"), "850.0 MB/s");
        assert_eq!(fmt_rate(12.0, "B/s"), "12.0 B/s");
    }

    #[test]
    fn sizes() {
        assert_eq!(bytes_bin(24 * 1024 * 1024 * 1024), "24 GiB");
        assert_eq!(bytes_bin(1536 * 1024), "1.5 MiB");
        assert_eq!(bytes_dec(1_000_204_886_016), "1 TB");
        assert_eq!(bytes_dec(960_197_124_096), "960.2 GB");
        assert_eq!(bytes_bin(0), "0 B");
    }
}
