//! Health of the parts, as each part counts it: the drives' own SMART logs (wear, hours,
//! media errors, critical warnings), the memory controllers' EDAC error counts, the PCIe
//! AER error counts of each GPU and NVMe function and the ports above it, and the CPUs'
//! thermal throttle counts. Facts only: what is good or bad is `rules::health`'s to say.
//! A GPU's memory health (ECC counts, retired pages, row remapping, replays) is in its
//! `GpuState`, beside the ECC counts NVML already gave there.
//!
//! Unknown is `None` with a note (`health.drives[0]`, `health.memory`, ...); each list says
//! how completely it was read (`HealthLists`), so "no errors counted" is never said of a
//! part nothing could be read from.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::ListState;

/// Every health fact read, by part.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Health {
    /// One entry per drive of `drives`, in the same order.
    pub drives: Vec<DriveHealth>,
    /// The memory controllers' error counts (EDAC).
    pub memory: MemoryHealth,
    /// AER error counts of each GPU and NVMe PCI function and of the ports above it.
    pub pcie: Vec<PcieErrors>,
    /// Thermal throttle counts, one entry per CPU package.
    pub cpu: Vec<CpuThrottle>,
    /// How completely each of the lists above was read.
    pub lists: HealthLists,
}

/// How completely each health list was read: `read` when every part answered, `partial`
/// when some did, `unreadable` when none did (the note on the list says why).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct HealthLists {
    pub drives: ListState,
    pub memory: ListState,
    pub pcie: ListState,
    pub cpu: ListState,
}

/// What a drive says of its own health: an NVMe controller's SMART / Health Information
/// log (log page 02h), or an ATA drive's SMART attributes and thresholds.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct DriveHealth {
    /// The drive (`drives[].name`).
    pub drive: String,
    /// Where the figures come from: `nvme` (the SMART / Health Information log page), `ata`
    /// (SMART READ DATA and READ THRESHOLDS), or `hwmon` (the kernel's temperature only,
    /// read without root); `None` when nothing could be read.
    pub source: Option<String>,
    /// The recorded log at the sysroot's root (`smart/nvme0.bin`), where there is one.
    pub log: Option<String>,
    /// NVMe critical warning byte (bit 0 spare below threshold, 1 temperature, 2 reliability
    /// degraded, 3 read-only, 4 volatile memory backup failed, 5 persistent memory read-only).
    pub critical_warning: Option<u8>,
    /// The bits of `critical_warning` that are set, in words.
    #[serde(default)]
    pub critical_warnings: Vec<String>,
    /// Composite temperature (NVMe) or attribute 194 (ATA), °C.
    pub temperature_c: Option<i32>,
    /// Spare capacity left, percent of the factory spare (NVMe).
    pub available_spare_percent: Option<u8>,
    /// The spare left below which the drive raises a critical warning (NVMe).
    pub available_spare_threshold_percent: Option<u8>,
    /// Rated endurance used, percent (NVMe; above 100 past the rating); ATA SSDs: 100 less
    /// the normalised value of their wear attribute (177, 231, 233).
    pub percentage_used: Option<u8>,
    /// Data read by the host, bytes (NVMe data units of 512,000 bytes).
    pub data_read_bytes: Option<u64>,
    /// Data written by the host, bytes (NVMe data units of 512,000 bytes).
    pub data_written_bytes: Option<u64>,
    /// ATA attribute 241 as the drive counts it (LBAs on most drives).
    pub total_lbas_written: Option<u64>,
    pub power_cycles: Option<u64>,
    pub power_on_hours: Option<u64>,
    /// Power lost without a shutdown notice (NVMe).
    pub unsafe_shutdowns: Option<u64>,
    /// Unrecovered data integrity errors (NVMe).
    pub media_errors: Option<u64>,
    /// Entries in the controller's error log over its life (NVMe).
    pub error_log_entries: Option<u64>,
    /// Sectors moved to spare area (ATA attribute 5).
    pub reallocated_sectors: Option<u64>,
    /// Sectors waiting to be remapped after a read failed (ATA attribute 197).
    pub pending_sectors: Option<u64>,
    /// Sectors found unreadable by the offline scan (ATA attribute 198).
    pub uncorrectable_sectors: Option<u64>,
    /// ATA attributes whose value is at or below the drive's own threshold, by id and name
    /// (`5 Reallocated_Sector_Ct`): the drive's own assessment that it fails or is worn out.
    #[serde(default)]
    pub failing_attributes: Vec<String>,
    /// The drive's own assessment from its thresholds (ATA): `passed` or `failing`.
    pub assessment: Option<String>,
}

/// The memory controllers' error counts, from the kernel's EDAC driver.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct MemoryHealth {
    /// `edac` where a driver answered; `None` with a note where none is loaded.
    pub source: Option<String>,
    /// Corrected errors over every controller since boot (or the last reset).
    pub corrected_errors: Option<u64>,
    /// Uncorrected errors over every controller since boot.
    pub uncorrected_errors: Option<u64>,
    pub controllers: Vec<MemoryController>,
}

/// One memory controller (`/sys/devices/system/edac/mc/mcN`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct MemoryController {
    /// `mc0`.
    pub name: String,
    /// The driver's name for it (`Skylake Socket#0 IMC#0`).
    pub mc_name: Option<String>,
    pub corrected_errors: Option<u64>,
    pub uncorrected_errors: Option<u64>,
    /// The modules it counts for, where the driver lists them.
    pub dimms: Vec<EdacDimm>,
}

/// One module as EDAC counts it (`mcN/dimmM`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct EdacDimm {
    /// `dimm0`.
    pub name: String,
    /// The driver's label (`CPU_SrcID#0_MC#0_Chan#0_DIMM#0`, or the firmware's slot name).
    pub label: Option<String>,
    pub corrected_errors: Option<u64>,
    pub uncorrected_errors: Option<u64>,
    /// The SMBIOS slot (`memory.dimms[].locator`) the label names, where it names one.
    pub locator: Option<String>,
}

/// The AER error counts of one PCI function (`aer_dev_correctable`, `aer_dev_nonfatal`,
/// `aer_dev_fatal`, each file's `TOTAL_ERR_*` line).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct PcieErrors {
    /// PCI address, `0000:17:00.0`.
    pub address: String,
    /// The part the link serves: `GPU 0`, `nvme0n1`.
    pub of: String,
    /// True for a port (bridge, root port) above the part; false for the part itself.
    pub port: bool,
    pub correctable: Option<u64>,
    pub nonfatal: Option<u64>,
    pub fatal: Option<u64>,
    /// The link it trained at, `8.0 GT/s x4`, where sysfs shows it.
    pub link: Option<String>,
}

/// Thermal throttle events of one CPU package since boot
/// (`thermal_throttle/core_throttle_count`, `package_throttle_count`).
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct CpuThrottle {
    /// Physical package (socket) id.
    pub package: u32,
    /// Core throttle events, summed over the package's cores (each core once).
    pub core_events: Option<u64>,
    /// Package throttle events.
    pub package_events: Option<u64>,
}

/// Names of the NVMe critical warning bits, bit 0 first (NVMe 1.4, figure 194).
pub const CRITICAL_WARNING_BITS: [&str; 6] = [
    "available spare below threshold",
    "temperature outside its thresholds",
    "reliability degraded by media errors",
    "media in read-only mode",
    "volatile memory backup failed",
    "persistent memory region read-only",
];
