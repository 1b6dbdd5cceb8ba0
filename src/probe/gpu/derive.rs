//! Derived GPU capability: per-architecture facts keyed by compute capability, and the
//! arithmetic that turns NVML's core count and clocks into SMs, tensor cores and peaks.
//!
//! The table holds architecture facts (lanes per SM, tensor cores per SM and their rate),
//! never product names → results; the one product-line exception the architecture cannot
//! see (GTX 16xx: Turing without tensor cores) is detected by name, as NVIDIA documents it.

/// What one architecture (one compute capability) puts in each SM.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArchFacts {
    /// Architecture name as nvidia-smi prints it (`Turing`, `Ada Lovelace`, ...).
    pub name: &'static str,
    /// FP32 lanes ("CUDA cores") per SM (CUDA C++ Programming Guide throughput table).
    pub fp32_per_sm: u32,
    /// Tensor cores per SM (0 before Volta).
    pub tensor_per_sm: u32,
    /// Tensor core generation (1 = Volta), `None` where there are none.
    pub tensor_gen: Option<u32>,
    /// Dense FP16 FLOPs per tensor core per clock (an FMA counts 2).
    pub fp16_flops_per_tc_clk: u32,
    /// True where the per-TC rate is inferred from a datasheet with an unpublished SM count
    /// or tensor clock (Blackwell data-center parts).
    pub approximate: bool,
}

const fn facts(name: &'static str, fp32: u32, tc: u32, gen: u32, fp16: u32) -> ArchFacts {
    ArchFacts {
        name,
        fp32_per_sm: fp32,
        tensor_per_sm: tc,
        tensor_gen: if tc == 0 { None } else { Some(gen) },
        fp16_flops_per_tc_clk: fp16,
        approximate: false,
    }
}

/// Facts for a compute capability, or `None` for one this build does not know.
pub fn arch_facts(major: u32, minor: u32) -> Option<ArchFacts> {
    Some(match (major, minor) {
        (3, 0 | 2 | 5 | 7) => facts("Kepler", 192, 0, 0, 0),
        (5, 0 | 2 | 3) => facts("Maxwell", 128, 0, 0, 0),
        (6, 0) => facts("Pascal", 64, 0, 0, 0),
        (6, 1 | 2) => facts("Pascal", 128, 0, 0, 0),
        (7, 0 | 2) => facts("Volta", 64, 8, 1, 128),
        (7, 5) => facts("Turing", 64, 8, 2, 128),
        (8, 0) => facts("Ampere", 64, 4, 3, 512),
        (8, 6 | 7) => facts("Ampere", 128, 4, 3, 256),
        (8, 9) => facts("Ada Lovelace", 128, 4, 4, 256),
        (9, 0) => facts("Hopper", 128, 4, 4, 1024),
        (10, 0 | 3) => ArchFacts {
            approximate: true,
            ..facts("Blackwell", 128, 4, 5, 2048)
        },
        (12, 0 | 1) => facts("Blackwell", 128, 4, 5, 256),
        _ => return None,
    })
}

/// Parses `"7.5"` into (7, 5).
pub fn parse_cc(text: &str) -> Option<(u32, u32)> {
    let (a, b) = text.trim().split_once('.')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// True for the Turing boards built on TU116/TU117, which have no tensor cores: GTX 16xx,
/// GeForce MX on Turing, T400 … T1200 and the Quadro T-series. Used only where the product
/// table has no row for the board's PCI id; the table decides by chip.
pub fn is_turing_without_tensor_cores(name: &str) -> bool {
    let n = name.trim_start_matches("NVIDIA ").trim();
    let t_series = n
        .trim_start_matches("Quadro ")
        .strip_prefix('T')
        .map(|rest| rest.chars().take_while(char::is_ascii_digit).count())
        .is_some_and(|digits| digits >= 3);
    n.contains("GTX 16") || n.contains("GeForce MX") || t_series
}

/// True where FP16 tensor math accumulating in FP32 runs at half rate (GeForce, Turing on).
pub fn is_geforce(name: Option<&str>, brand: Option<&str>) -> bool {
    brand.is_some_and(|b| b.eq_ignore_ascii_case("GeForce"))
        || name.is_some_and(|n| n.contains("GeForce"))
}

/// SMs from NVML's core count, if it divides evenly (else the table is wrong for this part).
pub fn sm_count(cuda_cores: u32, f: &ArchFacts) -> Option<u32> {
    (f.fp32_per_sm > 0 && cuda_cores.is_multiple_of(f.fp32_per_sm))
        .then(|| cuda_cores / f.fp32_per_sm)
}

/// Peak FP32 TFLOPS: each lane does one FMA (2 FLOPs) per clock.
pub fn fp32_tflops(cuda_cores: u32, clock_mhz: u32) -> f64 {
    round2(f64::from(cuda_cores) * 2.0 * f64::from(clock_mhz) / 1e6)
}

/// Dense FP16 tensor TFLOPS at `clock_mhz`.
pub fn fp16_tensor_tflops(tensor_cores: u32, f: &ArchFacts, clock_mhz: u32) -> f64 {
    round2(
        f64::from(tensor_cores) * f64::from(f.fp16_flops_per_tc_clk) * f64::from(clock_mhz) / 1e6,
    )
}

/// Peak memory bandwidth in bytes/s. NVML's memory clock is half the per-pin data rate for
/// every memory type (GDDR5X/6/6X/7, HBM2/2e/3/3e), so the multiplier is always 2.
pub fn bandwidth_bytes_per_s(bus_width_bits: u32, mem_clock_mhz: u32) -> Option<u64> {
    (u64::from(bus_width_bits) / 8)
        .checked_mul(u64::from(mem_clock_mhz))?
        .checked_mul(2_000_000)
}

/// `12040` → `"12.4"` (NVML's CUDA driver version is major×1000 + minor×10).
pub fn cuda_version_string(v: i64) -> Option<String> {
    (v > 0).then(|| format!("{}.{}", v / 1000, (v % 1000) / 10))
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quadro_rtx_6000_check_values() {
        let f = arch_facts(7, 5).unwrap();
        let sms = sm_count(4608, &f).unwrap();
        assert_eq!(sms, 72);
        assert_eq!(sms * f.tensor_per_sm, 576);
        assert_eq!(fp32_tflops(4608, 1770), 16.31);
        assert_eq!(fp16_tensor_tflops(576, &f, 1770), 130.5);
        assert_eq!(bandwidth_bytes_per_s(384, 7001), Some(672_096_000_000));
        assert_eq!(bandwidth_bytes_per_s(u32::MAX, u32::MAX), None);
    }

    #[test]
    fn a100_and_h100_check_values() {
        let a = arch_facts(8, 0).unwrap();
        assert_eq!(sm_count(6912, &a), Some(108));
        assert_eq!(fp16_tensor_tflops(432, &a, 1410), 311.87);
        let h = arch_facts(9, 0).unwrap();
        assert_eq!(sm_count(16896, &h), Some(132));
        assert_eq!(fp32_tflops(16896, 1980), 66.91);
        // NVIDIA's 989.4 TF is at the 1830 MHz tensor clock, not the 1980 max.
        assert_eq!(fp16_tensor_tflops(528, &h, 1830), 989.43);
    }

    #[test]
    fn core_count_that_does_not_divide_gives_no_sm_count() {
        let f = arch_facts(8, 6).unwrap();
        assert_eq!(sm_count(10496, &f), Some(82));
        assert_eq!(sm_count(10500, &f), None);
    }

    #[test]
    fn cuda_versions() {
        assert_eq!(cuda_version_string(12040).as_deref(), Some("12.4"));
        assert_eq!(cuda_version_string(13010).as_deref(), Some("13.1"));
        assert_eq!(cuda_version_string(11070).as_deref(), Some("11.7"));
        assert_eq!(cuda_version_string(0), None);
    }

    #[test]
    fn pascal_has_no_tensor_cores_and_gtx16_is_the_exception() {
        assert_eq!(arch_facts(6, 1).unwrap().tensor_per_sm, 0);
        assert!(is_turing_without_tensor_cores(
            "NVIDIA GeForce GTX 1660 SUPER"
        ));
        assert!(!is_turing_without_tensor_cores("NVIDIA GeForce RTX 2080"));
        for name in [
            "NVIDIA T1000 8GB",
            "NVIDIA T400 4GB",
            "Quadro T2000",
            "NVIDIA GeForce MX450",
        ] {
            assert!(is_turing_without_tensor_cores(name), "{name}");
        }
        assert!(!is_turing_without_tensor_cores("Tesla T4"));
        assert!(!is_turing_without_tensor_cores("Quadro RTX 4000"));
        assert!(parse_cc("12.0") == Some((12, 0)) && parse_cc("x").is_none());
    }
}
