//! What the OS's own APIs answer where there is no /proc or /sys (Windows, macOS): the
//! `native.json` record a capture there would write, so it replays on any host, and, on
//! those OSes, the sysinfo-backed collector that fills it.
//!
//! The record holds answers as the APIs gave them, not `Spec` facts: replay maps them with
//! the same code as a live run, and a better mapping later applies to old captures too.
//! sysinfo lists volumes (mount points), not physical disks, so `disks` is for a per-OS
//! call that names them (IOCTL_STORAGE_QUERY_PROPERTY on Windows); it stays empty here.
//! Not yet used by the probes.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::spec::{Notes, Os};

/// Name of the record inside a sysroot.
pub const NATIVE_FILE: &str = "native.json";

/// Version of the `native.json` layout.
pub const FORMAT: u32 = 1;

/// Every answer of one run; a missing answer is `None` with its reason in `errors`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct NativeAnswers {
    pub format: u32,
    /// `windows` or `macos`: which backend answered (`std::env::consts::OS`).
    pub os_family: String,
    #[serde(default)]
    pub os: OsAnswers,
    #[serde(default)]
    pub cpu: CpuAnswers,
    #[serde(default)]
    pub memory: MemoryAnswers,
    #[serde(default)]
    pub volumes: Vec<Volume>,
    #[serde(default)]
    pub disks: Vec<Disk>,
    /// Why an answer is missing, by its field (`cpu.physical_cores`): the API's own error.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub errors: BTreeMap<String, String>,
}

/// sysinfo `System::name`, `os_version`, `long_os_version`, `kernel_version`, `host_name`,
/// `cpu_arch` (all associated functions: no refresh needed).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OsAnswers {
    /// `Windows`, `Darwin`.
    pub name: Option<String>,
    /// `10 (19045)`, `14.5`.
    pub version: Option<String>,
    /// `Windows 10 Pro`, `macOS 14.5 Sonoma`.
    pub long_version: Option<String>,
    /// Windows build number, Darwin release.
    pub kernel_version: Option<String>,
    pub hostname: Option<String>,
    /// The machine's architecture as the OS reports it (not this binary's target).
    pub arch: Option<String>,
}

/// sysinfo `Cpu::brand`, `vendor_id`, `frequency` of the first CPU, the CPU list's length
/// and `System::physical_core_count`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct CpuAnswers {
    pub brand: Option<String>,
    pub vendor_id: Option<String>,
    /// MHz as sysinfo reports it (Windows: CallNtPowerInformation's rated clock).
    pub frequency_mhz: Option<u64>,
    pub logical_cpus: Option<u32>,
    pub physical_cores: Option<u32>,
}

/// sysinfo `System::total_memory` and `available_memory`, in bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryAnswers {
    pub total_bytes: Option<u64>,
    pub available_bytes: Option<u64>,
}

/// One mounted volume, from sysinfo `Disks`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
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
/// and IOCTL_DISK_GET_LENGTH_INFO).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Disk {
    pub device: String,
    pub vendor: Option<String>,
    pub model: Option<String>,
    pub serial: Option<String>,
    /// `STORAGE_BUS_TYPE` name: `NVMe`, `Sata`, `Sas`, `Usb`, ...
    pub bus_type: Option<String>,
    pub size_bytes: Option<u64>,
    pub removable: Option<bool>,
    /// `DEVICE_SEEK_PENALTY_DESCRIPTOR`: true for spinning disks.
    pub seek_penalty: Option<bool>,
}

impl NativeAnswers {
    /// Parses `native.json`; a newer layout than this build knows is refused, not guessed.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let a: NativeAnswers = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if a.format > FORMAT {
            return Err(format!(
                "{NATIVE_FILE} has format {}, this rigcheck reads up to {FORMAT}",
                a.format
            ));
        }
        Ok(a)
    }

    /// The record as written into a capture.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// The `os` section, with a note for each answer that is missing.
    pub fn os_facts(&self, notes: &mut Notes) -> Os {
        let mut take = |field: &str, key: &str, v: &Option<String>| {
            if v.is_none() {
                let why = self
                    .errors
                    .get(key)
                    .cloned()
                    .unwrap_or_else(|| format!("{NATIVE_FILE} has no {key}"));
                notes.add(field, why);
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

/// Asks sysinfo on this machine (Windows or macOS).
#[cfg(any(windows, target_os = "macos"))]
pub fn collect() -> NativeAnswers {
    use sysinfo::{CpuRefreshKind, DiskKind, Disks, MemoryRefreshKind, RefreshKind, System};

    let sys = System::new_with_specifics(
        RefreshKind::nothing()
            .with_cpu(CpuRefreshKind::nothing().with_frequency())
            .with_memory(MemoryRefreshKind::nothing().with_ram()),
    );
    let mut errors = BTreeMap::new();
    let mut need = |key: &str, v: Option<String>| {
        if v.is_none() {
            errors.insert(key.to_string(), "sysinfo gave no answer".to_string());
        }
        v
    };
    let os = OsAnswers {
        name: need("os.name", System::name()),
        version: need("os.version", System::os_version()),
        long_version: System::long_os_version(),
        kernel_version: need("os.kernel_version", System::kernel_version()),
        hostname: System::host_name(),
        arch: Some(System::cpu_arch()).filter(|a| !a.is_empty() && a != "unknown"),
    };
    let first = sys.cpus().first();
    let cpu = CpuAnswers {
        brand: first.map(|c| c.brand().trim().to_string()),
        vendor_id: first.map(|c| c.vendor_id().to_string()),
        frequency_mhz: first.map(|c| c.frequency()).filter(|&f| f > 0),
        logical_cpus: u32::try_from(sys.cpus().len()).ok().filter(|&n| n > 0),
        physical_cores: System::physical_core_count().and_then(|n| u32::try_from(n).ok()),
    };
    let volumes = Disks::new_with_refreshed_list()
        .list()
        .iter()
        .map(|d| Volume {
            name: d.name().to_string_lossy().into_owned(),
            mount_point: d.mount_point().to_string_lossy().into_owned(),
            file_system: d.file_system().to_string_lossy().into_owned(),
            kind: match d.kind() {
                DiskKind::SSD => "ssd",
                DiskKind::HDD => "hdd",
                DiskKind::Unknown(_) => "unknown",
            }
            .to_string(),
            total_bytes: d.total_space(),
            available_bytes: d.available_space(),
            removable: d.is_removable(),
            read_only: d.is_read_only(),
        })
        .collect();
    NativeAnswers {
        format: FORMAT,
        os_family: std::env::consts::OS.to_string(),
        os,
        cpu,
        memory: MemoryAnswers {
            total_bytes: Some(sys.total_memory()).filter(|&b| b > 0),
            available_bytes: Some(sys.available_memory()).filter(|&b| b > 0),
        },
        volumes,
        disks: Vec::new(),
        errors,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// sysinfo 0.36's answers under Wine 8.0 set to Windows 10, on a 2-CPU KVM guest.
    fn wine() -> NativeAnswers {
        NativeAnswers {
            format: FORMAT,
            os_family: "windows".into(),
            os: OsAnswers {
                name: Some("Windows".into()),
                version: Some("10 (18362)".into()),
                long_version: Some("Microsoft Windows 10".into()),
                kernel_version: Some("18362".into()),
                hostname: Some("vm".into()),
                arch: Some("x86_64".into()),
            },
            cpu: CpuAnswers {
                brand: Some("AMD EPYC".into()),
                vendor_id: Some("AuthenticAMD".into()),
                frequency_mhz: Some(1996),
                logical_cpus: Some(2),
                physical_cores: Some(2),
            },
            memory: MemoryAnswers {
                total_bytes: Some(25_275_985_920),
                available_bytes: Some(23_585_009_664),
            },
            ..NativeAnswers::default()
        }
    }

    #[test]
    fn record_round_trips() {
        let a = wine();
        assert_eq!(NativeAnswers::from_json(&a.to_json()), Ok(a));
    }

    #[test]
    fn newer_format_is_refused() {
        let mut a = wine();
        a.format = FORMAT + 1;
        let err = NativeAnswers::from_json(&a.to_json()).unwrap_err();
        assert!(err.contains("format 2"), "{err}");
    }

    #[test]
    fn os_facts_with_a_note_per_missing_answer() {
        let mut a = wine();
        a.os.kernel_version = None;
        a.errors
            .insert("os.kernel_version".into(), "sysinfo gave no answer".into());
        a.os.arch = None;
        let mut notes = Notes::default();
        let os = a.os_facts(&mut notes);
        assert_eq!(os.name.as_deref(), Some("Windows"));
        assert_eq!(os.pretty_name.as_deref(), Some("Microsoft Windows 10"));
        assert_eq!((os.kernel, os.arch), (None, None));
        let fields: Vec<_> = notes
            .0
            .iter()
            .map(|n| (n.field.as_str(), n.reason.as_str()))
            .collect();
        assert_eq!(
            fields,
            [
                ("os.kernel", "sysinfo gave no answer"),
                ("os.arch", "native.json has no os.arch"),
            ]
        );
    }

    /// On the OSes it is for, sysinfo answers at least the OS name and the CPU count.
    #[cfg(any(windows, target_os = "macos"))]
    #[test]
    fn collect_answers_here() {
        let a = collect();
        assert!(a.os.name.is_some(), "{a:?}");
        assert!(a.cpu.logical_cpus.is_some_and(|n| n > 0), "{a:?}");
        assert_eq!(NativeAnswers::from_json(&a.to_json()), Ok(a));
    }
}
