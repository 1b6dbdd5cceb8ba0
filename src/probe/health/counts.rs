//! The kernel's text counters health reads: an AER statistics file (`aer_dev_correctable`,
//! `aer_dev_nonfatal`, `aer_dev_fatal`: one `name count` line per error kind, then a
//! `TOTAL_ERR_*` line; Documentation/ABI/testing/sysfs-bus-pci-devices-aer_stats), and the
//! plain counts of EDAC and thermal_throttle. Pure.

/// The total of an AER statistics file, its `TOTAL_ERR_COR` / `TOTAL_ERR_FATAL` /
/// `TOTAL_ERR_NONFATAL` line. Kernels 4.19 to 5.x named the kinds in words (`Receiver
/// Error 2`), later ones in short (`RxErr 2`); the count is the line's last word either way.
pub fn aer_total(text: &str) -> Result<u64, String> {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("TOTAL_ERR_"))
        .ok_or_else(|| "no TOTAL_ERR_ line".to_string())?;
    let count = line.split_whitespace().last().unwrap_or_default();
    count
        .parse::<u64>()
        .map_err(|_| format!("'{line}' does not end in a count"))
}

/// A count such as `ce_count`: one whole number.
pub fn count(text: &str) -> Result<u64, String> {
    let t = text.trim();
    t.parse::<u64>()
        .map_err(|_| format!("'{t}' is not a count"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_spellings_of_aer_files_give_their_total() {
        // Linux 5.15 (and the RHEL 8 kernel pcicrawler read), then the 4.19 ABI sample.
        let short = "RxErr 0\nBadTLP 3\nBadDLLP 0\nRollover 0\nTimeout 0\nNonFatalErr 0\n\
                     CorrIntErr 0\nHeaderOF 0\nTOTAL_ERR_COR 3\n";
        assert_eq!(aer_total(short), Ok(3));
        let words = "Receiver Error 2\nBad TLP 0\nBad DLLP 0\nRELAY_NUM Rollover 0\n\
                     Replay Timer Timeout 0\nAdvisory Non-Fatal 0\nCorrected Internal Error 0\n\
                     Header Log Overflow 0\nTOTAL_ERR_COR 2\n";
        assert_eq!(aer_total(words), Ok(2));
        assert!(aer_total("RxErr 0\n").is_err());
        assert!(aer_total("TOTAL_ERR_FATAL lots\n").is_err());
        assert!(aer_total("").is_err());
    }

    #[test]
    fn counts_are_whole_numbers() {
        assert_eq!(count("5\n"), Ok(5));
        assert!(count("-1").is_err());
        assert!(count("").is_err());
    }
}
