//! Byte sizes as people type them on a command line or in a profile: `24 GiB`, `500 GB`, `64M`.
//!
//! One rule set for every flag and file, so `--min-free-vram 24GiB` and a profile's
//! `vram = "24 GiB"` mean the same number:
//!
//! | written | meaning | example |
//! |---|---|---|
//! | no unit, `B` | bytes | `1024` = 1024 |
//! | `KiB` `MiB` `GiB` `TiB` `PiB` | powers of 1024 (IEC) | `24 GiB` = 25 769 803 776 |
//! | `kB`/`KB` `MB` `GB` `TB` `PB` | powers of 1000 (SI, as drive vendors count) | `500 GB` = 500 000 000 000 |
//! | `K` `M` `G` `T` `P` (one letter) | powers of 1024 | `64M` = 67 108 864 |
//!
//! The one-letter form is binary because that is what `docker run --shm-size 64m`,
//! `ulimit`, `dd bs=`, `numfmt --from=auto`'s `K`… and Slurm's `--mem=64G` all mean by it.
//! Units are case-insensitive except that a lone `b` is refused (bits are never meant
//! here). A decimal fraction is allowed (`1.5 TiB`); the result is rounded down to whole
//! bytes. Space between number and unit is optional.

/// Parses a byte size such as `24 GiB`, `500 GB`, `64M`, `1.5TiB` or `1024`.
///
/// Errors say what was wrong and what is accepted, for the user to read, e.g.
/// `'12 XB': unknown unit 'XB' (use B, KiB, MiB, GiB, TiB, kB, MB, GB, TB, or K, M, G, T)`.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = (&t[..split], t[split..].trim());
    if num.is_empty() {
        return Err(format!(
            "'{text}': expected a number, e.g. '24 GiB' or '500 GB'"
        ));
    }
    let multiplier = unit_multiplier(unit).ok_or_else(|| {
        format!(
            "'{text}': unknown unit '{unit}' (use B, KiB, MiB, GiB, TiB, kB, MB, GB, TB, \
             or K, M, G, T)"
        )
    })?;
    let bytes = match num.split_once('.') {
        None => {
            let n: u64 = num
                .parse()
                .map_err(|_| format!("'{text}': '{num}' is not a number"))?;
            n.checked_mul(multiplier)
        }
        Some((int, frac)) => {
            if frac.contains('.') || (int.is_empty() && frac.is_empty()) {
                return Err(format!("'{text}': '{num}' is not a number"));
            }
            // Exact integer arithmetic: 1.5 TiB must not pick up float rounding.
            let int: u64 = if int.is_empty() {
                0
            } else {
                int.parse()
                    .map_err(|_| format!("'{text}': '{num}' is not a number"))?
            };
            let frac = &frac[..frac.len().min(18)];
            let scale = 10u128.pow(frac.len() as u32);
            let frac_n: u128 = if frac.is_empty() {
                0
            } else {
                frac.parse()
                    .map_err(|_| format!("'{text}': '{num}' is not a number"))?
            };
            let whole = u128::from(int) * u128::from(multiplier);
            let part = frac_n * u128::from(multiplier) / scale;
            u64::try_from(whole + part).ok()
        }
    };
    bytes.ok_or_else(|| format!("'{text}': too large (more than 16 EiB)"))
}

/// Bytes per unit, or `None` for an unknown unit.
fn unit_multiplier(unit: &str) -> Option<u64> {
    if unit == "b" {
        return None; // bits: never what is meant for a size
    }
    const K: u64 = 1024;
    let m = match unit.to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kib" => K,
        "m" | "mib" => K.pow(2),
        "g" | "gib" => K.pow(3),
        "t" | "tib" => K.pow(4),
        "p" | "pib" => K.pow(5),
        "kb" => 1000,
        "mb" => 1000u64.pow(2),
        "gb" => 1000u64.pow(3),
        "tb" => 1000u64.pow(4),
        "pb" => 1000u64.pow(5),
        _ => return None,
    };
    Some(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_units() {
        assert_eq!(parse_bytes("24 GiB"), Ok(25_769_803_776));
        assert_eq!(parse_bytes("24GiB"), Ok(25_769_803_776));
        assert_eq!(parse_bytes("64 MiB"), Ok(67_108_864));
        assert_eq!(parse_bytes("512 KiB"), Ok(524_288));
        assert_eq!(parse_bytes("2 TiB"), Ok(2_199_023_255_552));
    }

    #[test]
    fn decimal_units_as_drive_vendors_count() {
        assert_eq!(parse_bytes("500 GB"), Ok(500_000_000_000));
        assert_eq!(parse_bytes("1 TB"), Ok(1_000_000_000_000));
        assert_eq!(parse_bytes("96 gb"), Ok(96_000_000_000));
        assert_eq!(parse_bytes("4 kB"), Ok(4000));
        assert_eq!(parse_bytes("4 KB"), Ok(4000));
    }

    #[test]
    fn one_letter_units_are_binary_like_docker_shm_size() {
        assert_eq!(parse_bytes("64M"), Ok(64 * 1024 * 1024));
        assert_eq!(parse_bytes("64m"), Ok(64 * 1024 * 1024));
        assert_eq!(parse_bytes("8g"), Ok(8 * 1024 * 1024 * 1024));
        assert_eq!(parse_bytes("100k"), Ok(102_400));
    }

    #[test]
    fn plain_numbers_are_bytes() {
        assert_eq!(parse_bytes("1024"), Ok(1024));
        assert_eq!(parse_bytes(" 0 "), Ok(0));
        assert_eq!(parse_bytes("17 B"), Ok(17));
    }

    #[test]
    fn fractions_are_exact() {
        assert_eq!(parse_bytes("1.5 TiB"), Ok(1_649_267_441_664));
        assert_eq!(parse_bytes("0.5G"), Ok(536_870_912));
        assert_eq!(parse_bytes(".5 KiB"), Ok(512));
        assert_eq!(parse_bytes("1.5 B"), Ok(1));
        assert_eq!(parse_bytes("960.2 GB"), Ok(960_200_000_000));
    }

    #[test]
    fn bad_input_says_why() {
        let e = parse_bytes("12 XB").unwrap_err();
        assert!(e.contains("unknown unit 'XB'"), "{e}");
        assert!(parse_bytes("").unwrap_err().contains("expected a number"));
        assert!(parse_bytes("GiB")
            .unwrap_err()
            .contains("expected a number"));
        assert!(parse_bytes("1.2.3 GB")
            .unwrap_err()
            .contains("not a number"));
        assert!(parse_bytes("-5 GB")
            .unwrap_err()
            .contains("expected a number"));
        assert!(parse_bytes("8 b").unwrap_err().contains("unknown unit 'b'"));
        assert!(parse_bytes(".").unwrap_err().contains("not a number"));
    }

    #[test]
    fn overflow_is_an_error_not_a_wrap() {
        assert!(parse_bytes("20000 PiB").unwrap_err().contains("too large"));
        assert!(parse_bytes("99999999999999999999").is_err());
        assert_eq!(parse_bytes("16383 PiB"), Ok(16383 * 1024u64.pow(5)));
    }
}
