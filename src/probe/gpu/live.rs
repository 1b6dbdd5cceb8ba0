//! Live GPU access through NVML (nvml-wrapper), loaded at run time: the same binary runs
//! where there is no driver, and then only says why NVML is unavailable.
//!
//! Each call answers in the JSON shape that nvml.json stores (docs/nvml-json.md), so the
//! probe's logic is the same live and in replay.

use nvml_wrapper::enum_wrappers::device::{Clock, EccCounter, MemoryError, TemperatureSensor};
use nvml_wrapper::enums::device::UsedGpuMemory;
use nvml_wrapper::error::NvmlError;
use nvml_wrapper::{Device, Nvml};
use serde_json::{json, Value};

use super::access::{Answer, CallError, GpuAccess};

/// NVML, initialised once for the whole probe (init is the expensive part).
pub struct Live {
    nvml: Result<Nvml, CallError>,
}

impl Live {
    /// Loads the NVML library (libnvidia-ml.so.1; nvml.dll on Windows) and initialises
    /// NVML; a failure is kept as the answer to `init`, never an error of the run.
    pub fn init() -> Self {
        Live { nvml: load() }
    }
}

#[cfg(not(windows))]
fn load() -> Result<Nvml, CallError> {
    Nvml::init().map_err(|e| call_error(&e))
}

/// Current drivers install nvml.dll into System32, which the loader searches; older ones
/// left it only in `NVIDIA Corporation\NVSMI` under Program Files, so that is tried next.
#[cfg(windows)]
fn load() -> Result<Nvml, CallError> {
    let first = match Nvml::init() {
        Ok(n) => return Ok(n),
        Err(e) => e,
    };
    let Some(dir) = std::env::var_os("ProgramW6432").or_else(|| std::env::var_os("ProgramFiles"))
    else {
        return Err(dll_error(&first));
    };
    let path = std::path::Path::new(&dir).join(r"NVIDIA Corporation\NVSMI\nvml.dll");
    if !path.is_file() {
        return Err(dll_error(&first));
    }
    Nvml::builder()
        .lib_path(path.as_os_str())
        .init()
        .map_err(|e| call_error(&e))
}

/// The loader's error, named for the file Windows looked for.
#[cfg(windows)]
fn dll_error(e: &NvmlError) -> CallError {
    let mut err = call_error(e);
    if err.code == "LibloadingError" {
        err.detail = Some(format!("nvml.dll: {e}"));
    }
    err
}

/// NVML's error name (the variant) and its text.
fn call_error(e: &NvmlError) -> CallError {
    let debug = format!("{e:?}");
    let code = debug
        .split(['(', '{', ' '])
        .next()
        .unwrap_or("Unknown")
        .to_string();
    CallError {
        code,
        detail: Some(e.to_string()),
    }
}

fn answer<T>(r: Result<T, NvmlError>, f: impl FnOnce(T) -> Value) -> Answer {
    r.map(f).map_err(|e| call_error(&e))
}

fn device_call(d: &Device<'_>, call: &str) -> Answer {
    match call {
        "name" => answer(d.name(), Value::from),
        "brand" => answer(d.brand(), |b| json!(format!("{b:?}"))),
        "uuid" => answer(d.uuid(), Value::from),
        "serial" => answer(d.serial(), Value::from),
        "board_part_number" => answer(d.board_part_number(), Value::from),
        "vbios_version" => answer(d.vbios_version(), Value::from),
        "architecture" => answer(d.architecture(), |a| json!(a.to_string())),
        "cuda_compute_capability" => answer(
            d.cuda_compute_capability(),
            |c| json!({"major": c.major, "minor": c.minor}),
        ),
        "num_cores" => answer(d.num_cores(), Value::from),
        "memory_info" => answer(
            d.memory_info(),
            |m| json!({"total": m.total, "used": m.used, "free": m.free, "reserved": m.reserved}),
        ),
        "memory_bus_width" => answer(d.memory_bus_width(), Value::from),
        "max_clock_sm" => answer(d.max_clock_info(Clock::SM), Value::from),
        "max_clock_memory" => answer(d.max_clock_info(Clock::Memory), Value::from),
        "pci_bus_id" => answer(d.pci_info(), |p| json!(p.bus_id)),
        "current_pcie_link_gen" => answer(d.current_pcie_link_gen(), Value::from),
        "current_pcie_link_width" => answer(d.current_pcie_link_width(), Value::from),
        "max_pcie_link_gen" => answer(d.max_pcie_link_gen(), Value::from),
        "max_pcie_link_width" => answer(d.max_pcie_link_width(), Value::from),
        "temperature_gpu" => answer(d.temperature(TemperatureSensor::Gpu), Value::from),
        "fan_speed" => answer(d.fan_speed(0), Value::from),
        "power_usage" => answer(d.power_usage(), Value::from),
        "enforced_power_limit" => answer(d.enforced_power_limit(), Value::from),
        "utilization_rates" => answer(
            d.utilization_rates(),
            |u| json!({"gpu": u.gpu, "memory": u.memory}),
        ),
        #[cfg(target_os = "linux")]
        "persistence_mode" => answer(d.is_in_persistent_mode(), Value::from),
        // Persistence mode is a Linux driver setting (Windows has driver models instead), and
        // nvml-wrapper offers the call only there; NVML itself answers NotSupported elsewhere.
        #[cfg(not(target_os = "linux"))]
        "persistence_mode" => Err(CallError {
            code: "NotSupported".into(),
            detail: Some(format!("persistence mode {}", super::access::LINUX_ONLY)),
        }),
        "ecc_mode" => answer(
            d.is_ecc_enabled(),
            |e| json!({"current": e.currently_enabled, "pending": e.pending_enabled}),
        ),
        "ecc_corrected_volatile" => answer(
            d.total_ecc_errors(MemoryError::Corrected, EccCounter::Volatile),
            Value::from,
        ),
        "ecc_uncorrected_volatile" => answer(
            d.total_ecc_errors(MemoryError::Uncorrected, EccCounter::Volatile),
            Value::from,
        ),
        "ecc_uncorrected_aggregate" => answer(
            d.total_ecc_errors(MemoryError::Uncorrected, EccCounter::Aggregate),
            Value::from,
        ),
        "pages_pending_retirement" => answer(d.are_pages_pending_retired(), Value::from),
        "throttle_reasons" => answer(d.current_throttle_reasons(), |t| json!(t.bits())),
        "compute_processes" => answer(d.running_compute_processes(), |ps| {
            let list: Vec<Value> = ps
                .iter()
                .map(|p| {
                    let used = match p.used_gpu_memory {
                        UsedGpuMemory::Used(b) => json!(b),
                        UsedGpuMemory::Unavailable => Value::Null,
                    };
                    json!({"pid": p.pid, "used_memory": used})
                })
                .collect();
            Value::Array(list)
        }),
        "mig_mode" => answer(
            d.mig_mode(),
            |m| json!({"current": m.current == 1, "pending": m.pending == 1}),
        ),
        other => Err(CallError {
            code: "InvalidArg".into(),
            detail: Some(format!("no such call '{other}'")),
        }),
    }
}

impl GpuAccess for Live {
    fn init(&mut self) -> Answer {
        match &self.nvml {
            Ok(_) => Ok(Value::Null),
            Err(e) => Err(e.clone()),
        }
    }

    fn system(&mut self, call: &str) -> Answer {
        let nvml = self.nvml.as_ref().map_err(Clone::clone)?;
        match call {
            "device_count" => answer(nvml.device_count(), Value::from),
            "driver_version" => answer(nvml.sys_driver_version(), Value::from),
            "cuda_driver_version" => answer(nvml.sys_cuda_driver_version(), Value::from),
            other => Err(CallError {
                code: "InvalidArg".into(),
                detail: Some(format!("no such call '{other}'")),
            }),
        }
    }

    fn device(&mut self, index: u32, call: &str) -> Answer {
        let nvml = self.nvml.as_ref().map_err(Clone::clone)?;
        let d = nvml.device_by_index(index).map_err(|e| call_error(&e))?;
        device_call(&d, call)
    }
}
