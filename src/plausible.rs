//! The largest (and smallest) value a fact of a real machine can take, in one place: a value
//! read past its bound is no machine's (a sentinel, a damaged file, a stranger's capture) and
//! becomes unknown with a note quoting it, never a fact. `docs/reliability.md` lists the
//! bounds and why each is where it is.
//!
//! Each bound leaves room for machines larger than any sold today; it is there to refuse
//! what cannot be (4,294,967,295 CUDA cores, a 7.5 EB/s memory bus, a PCIe x255 link, an
//! 18 EB drive), not to judge what is unusual.

/// A range a count or measure of a real machine falls in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bound {
    /// What the value is, for the note: `CUDA core count`.
    pub what: &'static str,
    /// Its unit as the note writes it after a number (`bytes`, `MHz`); empty for a count.
    pub unit: &'static str,
    pub min: u64,
    pub max: u64,
}

impl Bound {
    /// `v` when it is within the bound, else why it is not (for a note).
    pub fn check(&self, v: u64) -> Result<u64, String> {
        if (self.min..=self.max).contains(&v) {
            return Ok(v);
        }
        let unit = if self.unit.is_empty() {
            String::new()
        } else {
            format!(" {}", self.unit)
        };
        Err(format!(
            "{v}{unit} is no {} of a real machine ({} to {}{unit}): unknown",
            self.what, self.min, self.max
        ))
    }

    /// `check` for a value read as 32 bits.
    pub fn check32(&self, v: u32) -> Result<u32, String> {
        self.check(u64::from(v)).map(|_| v)
    }
}

/// CUDA cores of one GPU: 21,760 on an RTX 5090, 16,896 on an H100 SXM5.
pub const GPU_CUDA_CORES: Bound = Bound {
    what: "CUDA core count",
    unit: "",
    min: 1,
    max: 1 << 17,
};

/// Memory of one GPU: 288 GB on a B300.
pub const GPU_MEMORY_BYTES: Bound = Bound {
    what: "GPU memory size",
    unit: "bytes",
    min: 1,
    max: 1 << 42,
};

/// Memory bus of one GPU: 8,192 bits on a B200 (two 4,096-bit HBM3e dies).
pub const GPU_MEMORY_BUS_BITS: Bound = Bound {
    what: "GPU memory bus width",
    unit: "bits",
    min: 8,
    max: 1 << 15,
};

/// NVML's maximum SM clock: 3,105 MHz on an RTX 4090.
pub const GPU_SM_CLOCK_MHZ: Bound = Bound {
    what: "GPU clock",
    unit: "MHz",
    min: 1,
    max: 10_000,
};

/// NVML's maximum memory clock: 14,001 MHz on an RTX 5090 (GDDR7), 2,619 MHz on an H100.
pub const GPU_MEMORY_CLOCK_MHZ: Bound = Bound {
    what: "GPU memory clock",
    unit: "MHz",
    min: 1,
    max: 50_000,
};

/// Memory bandwidth of one GPU: 8 TB/s on a B200.
pub const GPU_MEMORY_BANDWIDTH: Bound = Bound {
    what: "GPU memory bandwidth",
    unit: "bytes/s",
    min: 1,
    max: 100_000_000_000_000,
};

/// A PCIe link's generation: 1 to 6 are in use, 7 is specified.
pub const PCIE_GEN: Bound = Bound {
    what: "PCIe generation",
    unit: "",
    min: 1,
    max: 8,
};

/// The widths a PCIe link trains to (the specification's x1 to x32; sysfs writes 255 for a
/// link it cannot read).
pub const PCIE_WIDTHS: [u32; 7] = [1, 2, 4, 8, 12, 16, 32];

/// A PCIe link width when it is one a link can have, else why not.
pub fn pcie_width(w: u32) -> Result<u32, String> {
    if PCIE_WIDTHS.contains(&w) {
        Ok(w)
    } else {
        Err(format!(
            "x{w} is no PCIe link width (x1, x2, x4, x8, x12, x16 or x32): unknown"
        ))
    }
}

/// One drive: 122.88 TB for the largest SSD sold, a few PB for the largest SAN volume; 0 is
/// a reader with no medium in it.
pub const DRIVE_BYTES: Bound = Bound {
    what: "drive size",
    unit: "bytes",
    min: 0,
    max: 1 << 53,
};

/// The most memory one SMBIOS memory array (type 16) can hold: 48 TB on the largest
/// single-system servers, across all their arrays.
pub const MEMORY_ARRAY_BYTES: Bound = Bound {
    what: "memory array capacity",
    unit: "bytes",
    min: 1,
    max: 1 << 50,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_largest_real_values_pass_and_sentinels_do_not() {
        assert_eq!(GPU_CUDA_CORES.check(21_760), Ok(21_760));
        assert!(GPU_CUDA_CORES.check(u64::from(u32::MAX)).is_err());
        assert!(GPU_MEMORY_BANDWIDTH.check(8_000_000_000_000).is_ok());
        assert!(GPU_MEMORY_BANDWIDTH
            .check(7_500_000_000_000_000_000)
            .is_err());
        assert_eq!(pcie_width(16), Ok(16));
        assert!(pcie_width(255).unwrap_err().contains("x255"));
        assert!(DRIVE_BYTES.check(122_880_000_000_000).is_ok());
        assert!(DRIVE_BYTES.check(18_000_000_000_000_000_000).is_err());
        assert!(MEMORY_ARRAY_BYTES.check(48 << 40).is_ok());
        assert!(MEMORY_ARRAY_BYTES.check(u64::MAX).is_err());
        assert_eq!(
            GPU_MEMORY_CLOCK_MHZ.check(4_294_967_294).unwrap_err(),
            "4294967294 MHz is no GPU memory clock of a real machine (1 to 50000 MHz): unknown"
        );
    }
}
