//! The live backend on Windows and macOS: sysinfo for the OS, CPU list, memory and volumes;
//! on Windows also the processor layout and the physical disks (`windows`). Every answer
//! that could not be had is `None` with the reason in `errors`.

use std::collections::BTreeMap;

use sysinfo::{CpuRefreshKind, DiskKind, Disks, MemoryRefreshKind, RefreshKind, System};

use crate::native::{CpuAnswers, MemoryAnswers, NativeAnswers, OsAnswers, Volume, FORMAT};

/// Asks the OS now (`sys::native_answers`).
pub fn collect() -> NativeAnswers {
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
        hostname: need("hostname", System::host_name()),
        arch: need(
            "os.arch",
            Some(System::cpu_arch()).filter(|a| !a.is_empty() && a != "unknown"),
        ),
    };
    let first = sys.cpus().first();
    let cpu = CpuAnswers {
        brand: first
            .map(|c| c.brand().trim().to_string())
            .filter(|b| !b.is_empty()),
        vendor_id: first
            .map(|c| c.vendor_id().trim().to_string())
            .filter(|v| !v.is_empty()),
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
    let mut answers = NativeAnswers {
        format: FORMAT,
        os_family: std::env::consts::OS.to_string(),
        os,
        cpu,
        memory: MemoryAnswers {
            total_bytes: Some(sys.total_memory()).filter(|&b| b > 0),
            available_bytes: Some(sys.available_memory()).filter(|&b| b > 0),
        },
        volumes,
        errors,
        ..NativeAnswers::default()
    };
    platform(&mut answers);
    answers
}

/// Windows: the processor layout and the physical disks.
#[cfg(windows)]
fn platform(a: &mut NativeAnswers) {
    match super::native_windows::processors() {
        Ok(p) => a.processors = Some(p),
        Err(e) => {
            a.errors.insert("processors".into(), e);
        }
    }
    let (disks, why) = super::native_windows::disks();
    a.disks = disks;
    if let Some(why) = why {
        a.errors.insert("disks".into(), why);
    }
}

/// macOS: what sysinfo answers is all that is asked (physical disks would need IOKit).
#[cfg(not(windows))]
fn platform(a: &mut NativeAnswers) {
    a.errors.insert(
        "processors".into(),
        "macOS reports no processor layout to rigcheck (sockets, caches and NUMA nodes)".into(),
    );
    a.errors.insert(
        "disks".into(),
        "physical disks are not read on macOS (they would need IOKit); mounted volumes are \
         listed under limits.filesystems"
            .into(),
    );
}
