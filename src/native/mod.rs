//! The `native.json` record: every answer the OS's own APIs gave, as they gave them, with
//! the reason for each missing one. Serialised as is into a capture. `sys` fills it live on
//! Windows and macOS; `probe::native` turns it into facts. `layout` reads the byte layouts
//! of the Windows answers it is filled from.

pub mod layout;

use std::collections::{BTreeMap, BTreeSet};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::spec::{Notes, Os};

/// Name of the record inside a sysroot.
pub const NATIVE_FILE: &str = "native.json";

/// Version of the `native.json` layout.
pub const FORMAT: u32 = 1;

/// Every answer of one run; a missing answer is `None` with its reason in `errors`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct NativeAnswers {
    pub format: u32,
    /// `windows` or `macos`: which backend answered (`std::env::consts::OS`).
    pub os_family: String,
    #[serde(default)]
    pub os: OsAnswers,
    #[serde(default)]
    pub cpu: CpuAnswers,
    /// The processor layout (Windows: `GetLogicalProcessorInformationEx(RelationAll)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processors: Option<Processors>,
    #[serde(default)]
    pub memory: MemoryAnswers,
    #[serde(default)]
    pub volumes: Vec<Volume>,
    #[serde(default)]
    pub disks: Vec<Disk>,
    /// Why an answer is missing, by its field (`cpu.physical_cores`, `disks`): the API's
    /// own error.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub errors: BTreeMap<String, String>,
    /// The sections `from_json` found damaged and left out (their reasons are in `errors`).
    #[serde(skip)]
    pub damaged: BTreeSet<String>,
}

/// sysinfo `System::name`, `os_version`, `long_os_version`, `kernel_version`, `host_name`,
/// `cpu_arch` (all associated functions: no refresh needed).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct OsAnswers {
    /// `Windows`, `Darwin`.
    pub name: Option<String>,
    /// `10 (19045)`, `14.5`.
    pub version: Option<String>,
    /// `Windows 10 Pro for Workstations`, `macOS 14.5 Sonoma`.
    pub long_version: Option<String>,
    /// Windows build number, Darwin release.
    pub kernel_version: Option<String>,
    pub hostname: Option<String>,
    /// The machine's architecture as the OS reports it (not this binary's target).
    pub arch: Option<String>,
}

/// sysinfo `Cpu::brand`, `vendor_id`, `frequency` of the first CPU, the CPU list's length
/// and `System::physical_core_count`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CpuAnswers {
    pub brand: Option<String>,
    pub vendor_id: Option<String>,
    /// MHz as sysinfo reports it (Windows: `CallNtPowerInformation`'s `CurrentMhz`).
    pub frequency_mhz: Option<u64>,
    /// Length of sysinfo's CPU list. On Windows this is `GetSystemInfo`'s count, which
    /// covers the calling process's processor group only (at most 64 CPUs).
    pub logical_cpus: Option<u32>,
    pub physical_cores: Option<u32>,
}

/// sysinfo `System::total_memory` and `available_memory`, in bytes (Windows:
/// `GlobalMemoryStatusEx`'s `ullTotalPhys` and `ullAvailPhys`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MemoryAnswers {
    pub total_bytes: Option<u64>,
    pub available_bytes: Option<u64>,
}

/// One mounted volume, from sysinfo `Disks`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Volume {
    pub name: String,
    pub mount_point: String,
    pub file_system: String,
    /// `ssd`, `hdd` or `unknown` (sysinfo `DiskKind`).
    pub kind: String,
    pub total_bytes: u64,
    pub available_bytes: u64,
    pub removable: bool,
    pub read_only: bool,
}

/// One physical disk (Windows: `\\.\PhysicalDriveN` through IOCTL_STORAGE_QUERY_PROPERTY
/// and IOCTL_DISK_GET_DRIVE_GEOMETRY_EX, which need no administrator rights).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Disk {
    /// `PhysicalDrive0`.
    pub device: String,
    /// `STORAGE_DEVICE_DESCRIPTOR` strings, trimmed.
    pub vendor: Option<String>,
    pub model: Option<String>,
    /// The product revision: the drive's firmware version.
    pub revision: Option<String>,
    pub serial: Option<String>,
    /// `STORAGE_BUS_TYPE` name: `NVMe`, `Sata`, `Sas`, `Usb`, `Virtual`, ...
    pub bus_type: Option<String>,
    pub size_bytes: Option<u64>,
    pub removable: Option<bool>,
    /// `DEVICE_SEEK_PENALTY_DESCRIPTOR`: true for spinning disks.
    pub seek_penalty: Option<bool>,
    /// `STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR` sector sizes.
    pub logical_sector_bytes: Option<u32>,
    pub physical_sector_bytes: Option<u32>,
}

/// Logical processors in one processor group: the group number and the 64-bit mask of its
/// processors (`GROUP_AFFINITY`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GroupMask {
    pub group: u16,
    /// Bit n = processor n of the group; written as hex text (`"0xff"`), as JSON readers
    /// other than this one lose precision past 2^53.
    #[serde(with = "hex_u64")]
    #[schemars(with = "String", regex(pattern = r"^0[xX][0-9a-fA-F]+$"))]
    pub mask: u64,
}

/// One processor group (`RelationGroup`): Windows numbers logical processors per group of
/// at most 64; a machine with more has several.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ProcessorGroup {
    pub maximum: u32,
    pub active: u32,
    #[serde(with = "hex_u64")]
    #[schemars(with = "String", regex(pattern = r"^0[xX][0-9a-fA-F]+$"))]
    pub active_mask: u64,
}

/// One core (`RelationProcessorCore`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ProcessorCore {
    /// `LTP_PC_SMT`: more than one logical processor on the core.
    pub smt: bool,
    /// Higher is faster; differs between the cores of hybrid CPUs (Windows 10+).
    pub efficiency_class: u8,
    pub processors: Vec<GroupMask>,
}

/// One cache instance (`RelationCache`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ProcessorCache {
    pub level: u8,
    /// `data`, `instruction`, `unified` or `trace` (`PROCESSOR_CACHE_TYPE`).
    pub kind: String,
    pub size_bytes: u32,
    pub line_bytes: u16,
    /// Ways; 0xFF means fully associative.
    pub associativity: u8,
    pub processors: Vec<GroupMask>,
}

/// One NUMA node (`RelationNumaNode`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ProcessorNode {
    pub node: u32,
    pub processors: Vec<GroupMask>,
}

/// The answer of `GetLogicalProcessorInformationEx(RelationAll)`, record by record.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Processors {
    pub groups: Vec<ProcessorGroup>,
    /// One entry per physical package (socket), with the processors on it.
    pub packages: Vec<Vec<GroupMask>>,
    pub cores: Vec<ProcessorCore>,
    #[serde(default)]
    pub caches: Vec<ProcessorCache>,
    #[serde(default)]
    pub numa_nodes: Vec<ProcessorNode>,
}

/// `u64` as `"0x…"` text in JSON.
mod hex_u64 {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{v:#x}"))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let text = String::deserialize(d)?;
        let digits = text
            .strip_prefix("0x")
            .or_else(|| text.strip_prefix("0X"))
            .unwrap_or(&text);
        u64::from_str_radix(digits, 16)
            .map_err(|_| serde::de::Error::custom(format!("'{text}' is not a hex mask")))
    }
}

impl NativeAnswers {
    /// Parses `native.json`; a newer layout than this build knows is refused, not guessed.
    /// A section that does not parse (one bad field) is left empty with its error under its
    /// own name in `errors`, so the other sections stand and the notes name the damage.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let serde_json::Value::Object(mut map) = value else {
            return Err("not a JSON object".into());
        };
        let mut damaged: BTreeMap<String, String> = BTreeMap::new();
        // Each section alone: the record as a whole then parses with every damaged section
        // removed (serde's default fills it).
        for key in [
            "os",
            "cpu",
            "processors",
            "memory",
            "volumes",
            "disks",
            "errors",
        ] {
            let Some(section) = map.get(key) else {
                continue;
            };
            let one = serde_json::json!({ "format": 0, "os_family": "", key: section });
            if let Err(e) = serde_json::from_value::<NativeAnswers>(one) {
                damaged.insert(key.to_string(), e.to_string());
                map.remove(key);
            }
        }
        let mut a: NativeAnswers =
            serde_json::from_value(serde_json::Value::Object(map)).map_err(|e| e.to_string())?;
        if a.format > FORMAT {
            return Err(format!(
                "{NATIVE_FILE} has format {}, this rigcheck reads up to {FORMAT}",
                a.format
            ));
        }
        for (key, e) in damaged {
            let why = format!("{NATIVE_FILE}'s `{key}` section is damaged ({e}): not read");
            // A damaged `errors` map is only lost reasons; every other section's answers
            // are unknown for this reason.
            a.errors.insert(key.clone(), why.clone());
            a.damaged.insert(key.clone());
            if key == "cpu" || key == "os" || key == "memory" {
                for field in Self::fields_of(&key) {
                    a.errors
                        .entry(format!("{key}.{field}"))
                        .or_insert(why.clone());
                }
            }
        }
        Ok(a)
    }

    /// No answers, each missing for `why` (a record that cannot be parsed at all): every
    /// list is then unreadable, not empty.
    pub fn unreadable(why: &str) -> Self {
        let mut a = NativeAnswers::default();
        for key in ["os", "cpu", "processors", "memory", "volumes", "disks"] {
            a.errors.insert(key.to_string(), why.to_string());
            for field in Self::fields_of(key) {
                a.errors.insert(format!("{key}.{field}"), why.to_string());
            }
        }
        a
    }

    /// The sections `from_json` could not read, as (report field they feed, why): each is
    /// noted once, so a lost section is said even where no answer of it is asked for.
    pub fn damaged_sections(&self) -> Vec<(&'static str, &str)> {
        [
            ("os", "os"),
            ("cpu", "cpu"),
            ("processors", "cpu"),
            ("memory", "memory"),
            ("volumes", "limits.filesystems"),
        ]
        .into_iter()
        .filter_map(|(key, field)| {
            let why = self.errors.get(key)?;
            self.damaged.contains(key).then_some((field, why.as_str()))
        })
        .collect()
    }

    /// The answers of a section that `why_missing` is asked by (`cpu.brand`, ...).
    fn fields_of(section: &str) -> &'static [&'static str] {
        match section {
            "os" => &[
                "name",
                "version",
                "long_version",
                "kernel_version",
                "hostname",
                "arch",
            ],
            "cpu" => &[
                "brand",
                "vendor_id",
                "frequency_mhz",
                "logical_cpus",
                "physical_cores",
            ],
            "memory" => &["total_bytes", "available_bytes"],
            _ => &[],
        }
    }

    /// The record as written into a capture.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// Why `key` has no answer: the recorded error, else that the record lacks it.
    pub fn why_missing(&self, key: &str) -> String {
        self.errors
            .get(key)
            .cloned()
            .unwrap_or_else(|| format!("{NATIVE_FILE} has no {key}"))
    }

    /// The `os` section, with a note for each answer that is missing.
    pub fn os_facts(&self, notes: &mut Notes) -> Os {
        let mut take = |field: &str, key: &str, v: &Option<String>| {
            if v.is_none() {
                notes.add(field, self.why_missing(key));
            }
            v.clone()
        };
        Os {
            name: take("os.name", "os.name", &self.os.name),
            version: take("os.version", "os.version", &self.os.version),
            pretty_name: self.os.long_version.clone(),
            kernel: take("os.kernel", "os.kernel_version", &self.os.kernel_version),
            arch: take("os.arch", "os.arch", &self.os.arch),
        }
    }
}
