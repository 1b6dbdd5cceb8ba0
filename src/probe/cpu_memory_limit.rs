//! The most memory a CPU can address, for the CPUs whose limit no driver or table reports:
//! a small table of Intel Xeon Scalable limits per socket, keyed on the model name.
//!
//! Source: Intel ARK, "Max Memory Size (dependent on memory type)" of each processor
//! (ark.intel.com). 1st generation Xeon Scalable (Skylake-SP, models x1xx such as Gold
//! 6154 or Bronze 3104): 768 GB per socket, `M` models 1.5 TB. 2nd generation (Cascade
//! Lake, models x2xx such as Gold 6254): 1 TB per socket, `M` models 2 TB, `L` models
//! 4.5 TB. Intel's GB and TB here are binary (768 GB is 12 × 64 GiB DIMMs).

const GIB: u64 = 1 << 30;

/// Where the figures come from, for the report.
pub const SOURCE: &str = "Intel ARK";

/// The memory one socket of `model` can address, and the family it was looked up as
/// (`2nd gen Xeon Scalable`); `None` for a CPU the table does not cover.
pub fn per_socket(model: &str) -> Option<(u64, &'static str)> {
    let rest = model
        .split_once("Xeon")
        .map(|(_, r)| r.trim_start_matches("(R)").trim_start())?;
    let mut words = rest.split_whitespace();
    let tier = words.next()?;
    if !matches!(tier, "Platinum" | "Gold" | "Silver" | "Bronze") {
        return None;
    }
    let number = words.next()?;
    let digits: String = number.chars().take_while(char::is_ascii_digit).collect();
    let suffix = number.get(digits.len()..)?;
    if digits.len() != 4 || !suffix.chars().all(|c| c.is_ascii_uppercase()) {
        return None;
    }
    // The second digit is the generation: 8180 and 3104 are 1st gen, 6254 and 8280 2nd.
    match (digits.as_bytes().get(1)?, suffix) {
        (&b'1', s) if s.contains('M') => Some((1536 * GIB, "1st gen Xeon Scalable, M model")),
        (&b'1', s) if !s.contains('L') => Some((768 * GIB, "1st gen Xeon Scalable")),
        (&b'2', s) if s.contains('L') => Some((4608 * GIB, "2nd gen Xeon Scalable, L model")),
        (&b'2', s) if s.contains('M') => Some((2048 * GIB, "2nd gen Xeon Scalable, M model")),
        (&b'2', _) => Some((1024 * GIB, "2nd gen Xeon Scalable")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xeon_scalable_limits_per_socket() {
        let tib = 1024 * GIB;
        let of = |m: &str| per_socket(m).map(|(b, _)| b);
        assert_eq!(of("Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz"), Some(tib));
        assert_eq!(
            of("Intel(R) Xeon(R) Bronze 3104 CPU @ 1.70GHz"),
            Some(768 * GIB)
        );
        assert_eq!(
            of("Intel(R) Xeon(R) Gold 6154 CPU @ 3.00GHz"),
            Some(768 * GIB)
        );
        assert_eq!(
            of("Intel(R) Xeon(R) Platinum 8180M CPU @ 2.50GHz"),
            Some(1536 * GIB)
        );
        assert_eq!(
            of("Intel(R) Xeon(R) Platinum 8280L CPU @ 2.70GHz"),
            Some(4608 * GIB)
        );
        assert_eq!(
            of("Intel(R) Xeon(R) Gold 6238M CPU @ 2.10GHz"),
            Some(2 * tib)
        );
        assert_eq!(of("Intel(R) Xeon(R) Gold 6226R CPU @ 2.90GHz"), Some(tib));
        // Not in the table: the limit stays unknown.
        assert_eq!(of("Intel(R) Xeon(R) Platinum 8380 CPU @ 2.30GHz"), None);
        assert_eq!(of("Intel(R) Xeon(R) CPU E5-2690 0 @ 2.90GHz"), None);
        assert_eq!(of("AMD EPYC 7451 24-Core Processor"), None);
        assert_eq!(of("Xeon"), None);
    }
}
