//! Live GPU access through NVML (nvml-wrapper), loaded at run time: the same binary runs
//! where there is no driver, and then only says why NVML is unavailable.
//!
//! Each call answers in the JSON shape that nvml.json stores (docs/nvml-json.md), so the
//! probe's logic is the same live and in replay.
//!
//! NVML runs on a thread of its own and every question has a deadline: a driver whose GPU
//! hangs (an Xid error, a GPU stuck in reset) can block an NVML call for minutes, as it
//! blocks `nvidia-smi`. A call past its deadline answers `NoAnswer`, and every later one
//! `NotAsked` at once (the thread is still inside the driver, and NVML would queue the next
//! call behind it), so the report comes back with those fields unknown and says why.

use std::sync::mpsc;
use std::time::Duration;

use nvml_wrapper::enum_wrappers::device::{
    Brand, Clock, EccCounter, MemoryError, PerformancePolicy, RetirementCause, TemperatureSensor,
};
use nvml_wrapper::enums::device::{DeviceArchitecture, UsedGpuMemory};
use nvml_wrapper::error::{nvml_try, NvmlError};
use nvml_wrapper::{Device, Nvml};
use serde_json::{json, Value};

use super::access::{Answer, CallError, GpuAccess};

/// Longest wait for the library to load and NVML to initialise: on a machine without
/// persistence mode the driver brings every GPU up first, seconds per GPU.
const INIT_DEADLINE: Duration = Duration::from_secs(60);

/// Longest wait for one answer once NVML is up (they take milliseconds; the first question
/// to a GPU that was powered down can take a second or two).
const CALL_DEADLINE: Duration = Duration::from_secs(10);

/// Test hook: `RIGCHECK_TEST_NVML_DEADLINE_MS` sets both deadlines, so a test of a hung
/// call waits a moment instead of `CALL_DEADLINE`.
fn deadlines() -> (Duration, Duration) {
    std::env::var("RIGCHECK_TEST_NVML_DEADLINE_MS")
        .ok()
        .and_then(|v| v.parse().ok())
        .map(Duration::from_millis)
        .map_or((INIT_DEADLINE, CALL_DEADLINE), |d| (d, d))
}

/// One question for the NVML thread.
enum Question {
    Init,
    System(String),
    Device(u32, String),
}

/// NVML, initialised once for the whole probe (init is the expensive part), asked on a
/// thread of its own with a deadline per question.
pub struct Live {
    questions: Option<mpsc::Sender<(Question, mpsc::SyncSender<Answer>)>>,
    init_deadline: Duration,
    call_deadline: Duration,
    /// The call that did not answer in time; nothing is asked after it.
    stuck: Option<String>,
}

impl Live {
    /// Starts the NVML thread, which loads the NVML library (libnvidia-ml.so.1; nvml.dll on
    /// Windows) and initialises NVML; a failure is kept as the answer to `init`, never an
    /// error of the run.
    pub fn init() -> Self {
        let (init_deadline, call_deadline) = deadlines();
        let (tx, rx) = mpsc::channel::<(Question, mpsc::SyncSender<Answer>)>();
        let spawned = std::thread::Builder::new()
            .name("nvml".into())
            .spawn(move || {
                let nvml = load();
                for (q, reply) in rx {
                    // The asker may have given up waiting: then nobody reads this answer.
                    let _ = reply.send(ask(&nvml, q));
                }
                // Dropping `nvml` here shuts NVML down on the thread that started it.
            });
        Live {
            questions: spawned.is_ok().then_some(tx),
            init_deadline,
            call_deadline,
            stuck: None,
        }
    }

    /// Asks the NVML thread and waits for the answer at most the deadline.
    fn ask(&mut self, q: Question, what: String) -> Answer {
        if let Some(stuck) = &self.stuck {
            return Err(CallError {
                code: "NotAsked".into(),
                detail: Some(format!("NVML stopped answering at {stuck}")),
            });
        }
        let deadline = match q {
            Question::Init => self.init_deadline,
            _ => self.call_deadline,
        };
        let (reply, answer) = mpsc::sync_channel(1);
        let sent = self
            .questions
            .as_ref()
            .is_some_and(|tx| tx.send((q, reply)).is_ok());
        if !sent {
            return Err(CallError {
                code: "NoThread".into(),
                detail: Some("the NVML thread could not be started".into()),
            });
        }
        match answer.recv_timeout(deadline) {
            Ok(a) => a,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let detail = format!("{what} did not answer within {} s", deadline.as_secs_f64());
                self.stuck = Some(what);
                Err(CallError {
                    code: "NoAnswer".into(),
                    detail: Some(detail),
                })
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => Err(CallError {
                code: "NoThread".into(),
                detail: Some(format!("the NVML thread ended while asked {what}")),
            }),
        }
    }
}

/// Answers one question on the NVML thread.
fn ask(nvml: &Result<Nvml, CallError>, q: Question) -> Answer {
    let nvml = nvml.as_ref().map_err(Clone::clone)?;
    match q {
        Question::Init => Ok(Value::Null),
        Question::System(call) => system_call(nvml, &call),
        Question::Device(index, call) => {
            let d = nvml.device_by_index(index).map_err(|e| call_error(&e))?;
            device_call(nvml, &d, &call)
        }
    }
}

fn system_call(nvml: &Nvml, call: &str) -> Answer {
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

/// NVML as the loader finds it, else where this OS's older drivers left it
/// (`sys::nvml_elsewhere`).
fn load() -> Result<Nvml, CallError> {
    let first = match Nvml::init() {
        Ok(n) => return Ok(n),
        Err(e) => e,
    };
    let Some(path) = crate::sys::nvml_elsewhere() else {
        return Err(loader_error(&first));
    };
    Nvml::builder()
        .lib_path(path.as_os_str())
        .init()
        .map_err(|e| call_error(&e))
}

/// The loader's error, named for the file this OS looked for where its text does not.
fn loader_error(e: &NvmlError) -> CallError {
    let mut err = call_error(e);
    if let (Some(file), "LibloadingError") = (crate::sys::NVML_FILE_NAMED, err.code.as_str()) {
        err.detail = Some(format!("{file}: {e}"));
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

/// The brand as nvidia-smi prints `Product Brand` (`NVIDIA RTX`, not the enum's `NvidiaRTX`),
/// so a live report and one converted from nvidia-smi output say the same. The virtual
/// brands are the licensed-product names of NVIDIA's driver (`NV_GRID_LICENSED_PRODUCT_*`).
pub fn brand_name(b: &Brand) -> &'static str {
    match b {
        Brand::Unknown => "Unknown",
        Brand::Quadro => "Quadro",
        Brand::Tesla => "Tesla",
        Brand::NVS => "NVS",
        Brand::GRID => "Grid",
        Brand::GeForce => "GeForce",
        Brand::Titan => "Titan",
        Brand::VApps => "NVIDIA Virtual Applications",
        Brand::VPC => "NVIDIA Virtual PC",
        Brand::VCS => "NVIDIA Virtual Compute Server",
        Brand::VWS => "NVIDIA RTX Virtual Workstation",
        Brand::CloudGaming | Brand::VGaming => "NVIDIA Cloud Gaming",
        Brand::QuadroRTX => "Quadro RTX",
        Brand::NvidiaRTX => "NVIDIA RTX",
        Brand::Nvidia => "NVIDIA",
        Brand::GeForceRTX => "GeForce RTX",
        Brand::TitanRTX => "Titan RTX",
    }
}

/// The architecture as nvidia-smi prints `Product Architecture`: `Ada Lovelace` where the
/// crate says `Ada`.
pub fn architecture_name(a: &DeviceArchitecture) -> &'static str {
    match a {
        DeviceArchitecture::Kepler => "Kepler",
        DeviceArchitecture::Maxwell => "Maxwell",
        DeviceArchitecture::Pascal => "Pascal",
        DeviceArchitecture::Volta => "Volta",
        DeviceArchitecture::Turing => "Turing",
        DeviceArchitecture::Ampere => "Ampere",
        DeviceArchitecture::Ada => "Ada Lovelace",
        DeviceArchitecture::Hopper => "Hopper",
        DeviceArchitecture::Blackwell => "Blackwell",
        DeviceArchitecture::Unknown => "Unknown",
    }
}

/// A value of one MIG device, or null where NVML gave none (each instance is asked as a
/// whole, so one unsupported query does not lose the others).
fn or_null<T: Into<Value>>(r: Result<T, NvmlError>) -> Value {
    r.map(Into::into).unwrap_or(Value::Null)
}

/// GPU or compute instance id of a MIG device handle. nvml-wrapper 0.13 does not wrap
/// `nvmlDeviceGetGpuInstanceId` / `nvmlDeviceGetComputeInstanceId`, so the symbol is called
/// from the library it loaded; a driver without it gives `FailedToLoadSymbol`, not a panic.
#[allow(unsafe_code)]
fn instance_id(nvml: &Nvml, d: &Device<'_>, compute: bool) -> Result<u32, NvmlError> {
    let lib = nvml.lib();
    let sym = if compute {
        lib.nvmlDeviceGetComputeInstanceId.as_ref()
    } else {
        lib.nvmlDeviceGetGpuInstanceId.as_ref()
    };
    let f = sym.map_err(|e| NvmlError::FailedToLoadSymbol(e.to_string()))?;
    let mut id: std::os::raw::c_uint = 0;
    // SAFETY: `f` was resolved from the NVML library `nvml` keeps loaded for its lifetime;
    // `d.handle()` is a live MIG device handle of that library (from
    // `mig_device_by_index`), and `id` is a valid place for the one `unsigned int` it writes.
    nvml_try(unsafe { f(d.handle(), &mut id) })?;
    Ok(id)
}

/// Row remapping (A100, H100 and later): rows remapped after correctable and uncorrectable
/// errors, whether a remap waits for a reset, whether one failed. nvml-wrapper 0.13 does not
/// wrap `nvmlDeviceGetRemappedRows` (R450 and newer), so the symbol is called from the library
/// it loaded; an older driver gives `FailedToLoadSymbol`, not a panic.
#[allow(unsafe_code)]
fn remapped_rows(nvml: &Nvml, d: &Device<'_>) -> Answer {
    let f = nvml
        .lib()
        .nvmlDeviceGetRemappedRows
        .as_ref()
        .map_err(|e| call_error(&NvmlError::FailedToLoadSymbol(e.to_string())))?;
    let (mut corr, mut unc, mut pending, mut failure): (
        std::os::raw::c_uint,
        std::os::raw::c_uint,
        std::os::raw::c_uint,
        std::os::raw::c_uint,
    ) = (0, 0, 0, 0);
    // SAFETY: `f` was resolved from the NVML library `nvml` keeps loaded for its lifetime;
    // `d.handle()` is a live device handle of that library, and each pointer is a valid place
    // for the one `unsigned int` NVML writes there.
    nvml_try(unsafe { f(d.handle(), &mut corr, &mut unc, &mut pending, &mut failure) })
        .map_err(|e| call_error(&e))?;
    Ok(json!({
        "correctable": corr,
        "uncorrectable": unc,
        "pending": pending != 0,
        "failure": failure != 0,
    }))
}

/// The MIG devices of a MIG-enabled GPU: NVML's maximum count, of which the empty slots
/// answer NotFound (or InvalidArg) and are skipped.
fn mig_devices(nvml: &Nvml, d: &Device<'_>) -> Answer {
    let max = d.mig_device_count().map_err(|e| call_error(&e))?;
    let mut list = Vec::new();
    for i in 0..max {
        let m = match d.mig_device_by_index(i) {
            Ok(m) => m,
            Err(NvmlError::NotFound | NvmlError::InvalidArg) => continue,
            Err(e) => return Err(call_error(&e)),
        };
        let attrs = m.attributes().ok();
        let attr = |f: fn(&nvml_wrapper::struct_wrappers::device::DeviceAttributes) -> u32| {
            attrs.as_ref().map_or(Value::Null, |a| json!(f(a)))
        };
        // A MIG device spans at least one GPU slice and one compute slice: 0 is no answer.
        let slices = |f: fn(&nvml_wrapper::struct_wrappers::device::DeviceAttributes) -> u32| {
            attrs
                .as_ref()
                .map(f)
                .filter(|n| *n > 0)
                .map_or(Value::Null, Value::from)
        };
        let mem = m.memory_info().ok();
        list.push(json!({
            "index": i,
            "uuid": or_null(m.uuid()),
            "name": or_null(m.name()),
            "gpu_instance_id": or_null(instance_id(nvml, &m, false)),
            "compute_instance_id": or_null(instance_id(nvml, &m, true)),
            "multiprocessor_count": attr(|a| a.multiprocessor_count),
            "gpu_instance_slice_count": slices(|a| a.gpu_instance_slice_count),
            "compute_instance_slice_count": slices(|a| a.compute_instance_slice_count),
            "copy_engine_count": attr(|a| a.shared_copy_engine_count),
            "decoder_count": attr(|a| a.shared_decoder_count),
            "encoder_count": attr(|a| a.shared_encoder_count),
            "jpeg_count": attr(|a| a.shared_jpeg_count),
            "ofa_count": attr(|a| a.shared_ofa_count),
            "memory_total": mem.as_ref().map_or(Value::Null, |m| json!(m.total)),
            "memory_used": mem.as_ref().map_or(Value::Null, |m| json!(m.used)),
        }));
    }
    Ok(Value::Array(list))
}

fn device_call(nvml: &Nvml, d: &Device<'_>, call: &str) -> Answer {
    match call {
        "name" => answer(d.name(), Value::from),
        "brand" => answer(d.brand(), |b| json!(brand_name(&b))),
        "uuid" => answer(d.uuid(), Value::from),
        "serial" => answer(d.serial(), Value::from),
        "board_part_number" => answer(d.board_part_number(), Value::from),
        "vbios_version" => answer(d.vbios_version(), Value::from),
        "architecture" => answer(d.architecture(), |a| json!(architecture_name(&a))),
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
        // nvidia-smi's "Max Customer Boost Clocks: Graphics".
        "max_customer_boost_clock" => {
            answer(d.max_customer_boost_clock(Clock::Graphics), Value::from)
        }
        "pci_bus_id" => answer(d.pci_info(), |p| json!(p.bus_id)),
        // As NVML packs them: device << 16 | 0x10de, subsystem device << 16 | vendor.
        "pci_device_ids" => answer(
            d.pci_info(),
            |p| json!({"device": p.pci_device_id, "subsystem": p.pci_sub_system_id}),
        ),
        "mig_devices" => mig_devices(nvml, d),
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
        // Persistence mode is a Linux driver setting (Windows has driver models instead), and
        // nvml-wrapper offers the call only there; NVML itself answers NotSupported elsewhere.
        "persistence_mode" => match crate::sys::persistence_mode(d) {
            Some(r) => answer(r, Value::from),
            None => Err(CallError {
                code: "NotSupported".into(),
                detail: Some(format!("persistence mode {}", super::access::LINUX_ONLY)),
            }),
        },
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
        "ecc_corrected_aggregate" => answer(
            d.total_ecc_errors(MemoryError::Corrected, EccCounter::Aggregate),
            Value::from,
        ),
        "retired_pages_single_bit" => answer(
            d.retired_pages(RetirementCause::MultipleSingleBitEccErrors),
            |p| json!(p.len()),
        ),
        "retired_pages_double_bit" => {
            answer(d.retired_pages(RetirementCause::DoubleBitEccError), |p| {
                json!(p.len())
            })
        }
        "remapped_rows" => remapped_rows(nvml, d),
        "pcie_replay_counter" => answer(d.pcie_replay_counter(), Value::from),
        // Time the clocks were held below what was asked for, ns, since the driver loaded.
        "violation_power" => answer(d.violation_status(PerformancePolicy::Power), |v| {
            json!(v.violation_time)
        }),
        "violation_thermal" => answer(d.violation_status(PerformancePolicy::Thermal), |v| {
            json!(v.violation_time)
        }),
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
        self.ask(Question::Init, "NVML's initialisation".into())
    }

    fn system(&mut self, call: &str) -> Answer {
        self.ask(Question::System(call.into()), format!("'{call}'"))
    }

    fn device(&mut self, index: u32, call: &str) -> Answer {
        self.ask(
            Question::Device(index, call.into()),
            format!("'{call}' of GPU {index}"),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brands_read_as_nvidia_smi_prints_them() {
        // NVIDIA, GeForce and Quadro are what the real captures print (A100, T4, H100; RTX
        // 2080, RTX 3090; P2000); NVIDIA RTX is nvidia-smi's brand of an RTX A6000, and the
        // virtual brands are the driver's licensed-product names.
        let table = [
            (Brand::Unknown, "Unknown"),
            (Brand::Quadro, "Quadro"),
            (Brand::Tesla, "Tesla"),
            (Brand::NVS, "NVS"),
            (Brand::GRID, "Grid"),
            (Brand::GeForce, "GeForce"),
            (Brand::Titan, "Titan"),
            (Brand::VApps, "NVIDIA Virtual Applications"),
            (Brand::VPC, "NVIDIA Virtual PC"),
            (Brand::VCS, "NVIDIA Virtual Compute Server"),
            (Brand::VWS, "NVIDIA RTX Virtual Workstation"),
            (Brand::CloudGaming, "NVIDIA Cloud Gaming"),
            (Brand::VGaming, "NVIDIA Cloud Gaming"),
            (Brand::QuadroRTX, "Quadro RTX"),
            (Brand::NvidiaRTX, "NVIDIA RTX"),
            (Brand::Nvidia, "NVIDIA"),
            (Brand::GeForceRTX, "GeForce RTX"),
            (Brand::TitanRTX, "Titan RTX"),
        ];
        for (b, want) in table {
            assert_eq!(brand_name(&b), want, "{b:?}");
        }
        // The enum's own spellings ("Nvidia", "NvidiaRTX") are what a live run used to store.
        assert_ne!(brand_name(&Brand::Nvidia), format!("{:?}", Brand::Nvidia));
        assert_ne!(
            brand_name(&Brand::NvidiaRTX),
            format!("{:?}", Brand::NvidiaRTX)
        );
    }

    #[test]
    fn architectures_read_as_nvidia_smi_prints_them() {
        assert_eq!(architecture_name(&DeviceArchitecture::Ada), "Ada Lovelace");
        assert_eq!(architecture_name(&DeviceArchitecture::Turing), "Turing");
        assert_eq!(architecture_name(&DeviceArchitecture::Hopper), "Hopper");
        assert_eq!(
            architecture_name(&DeviceArchitecture::Blackwell),
            "Blackwell"
        );
    }
}
