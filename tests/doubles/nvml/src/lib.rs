//! A test double of NVIDIA's NVML library: built as `libnvidia-ml.so.1` and found by the
//! normal loader (`LD_LIBRARY_PATH`), it answers the NVML entry points rigcheck calls from a
//! recorded `nvml.json` (docs/nvml-json.md) named by `RIGCHECK_NVML_DOUBLE`, and fails on
//! demand as `RIGCHECK_NVML_DOUBLE_FAIL` says (faults.rs). Tests only: never installed.
//!
//! It keeps NVML's contract as nvml.h states it: the versioned symbol names
//! (`nvmlInit_v2`, `nvmlDeviceGetCount_v2`, `nvmlDeviceGetHandleByIndex_v2`,
//! `nvmlDeviceGetPciInfo_v3`, `..._v2`, `..._v3`), `NVML_ERROR_UNINITIALIZED` before
//! `nvmlInit` and after the last `nvmlShutdown`, `NVML_ERROR_INVALID_ARGUMENT` for a null
//! pointer, an unknown handle or enum value, `NVML_ERROR_INSUFFICIENT_SIZE` for a buffer too
//! small (with the size needed, where NVML gives it), `NVML_ERROR_ARGUMENT_VERSION_MISMATCH`
//! for a versioned struct of another version, and `NVML_ERROR_NOT_FOUND` for an empty MIG
//! slot. A recorded error is answered with its NVML code; a call the capture did not record
//! with `NVML_ERROR_NO_DATA`.
//!
//! Built with the `r470` feature (package `rigcheck-nvml-double-r470`) it is the library of
//! an R470 driver: the entry points NVML gained later are not exported at all, so a caller
//! sees what it sees on such a machine, a symbol that does not resolve.

// The exports are NVML's C names; their safety contract is nvml.h's (pointers the caller
// owns, each valid for the type or size the call names).
#![allow(non_snake_case, clippy::missing_safety_doc)]

mod capture;
mod faults;

use std::ffi::{c_char, c_int, c_uint, c_ulonglong, c_void, CStr};
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

use serde_json::Value;

use capture::Capture;
use faults::{Action, Faults};

/// NVML's return codes (`nvmlReturn_t`).
pub mod ret {
    /// `nvmlReturn_t`.
    pub type Code = u32;
    pub const SUCCESS: Code = 0;
    pub const UNINITIALIZED: Code = 1;
    pub const INVALID_ARGUMENT: Code = 2;
    pub const NOT_SUPPORTED: Code = 3;
    pub const NOT_FOUND: Code = 6;
    pub const INSUFFICIENT_SIZE: Code = 7;
    pub const NO_DATA: Code = 21;
    pub const ARGUMENT_VERSION_MISMATCH: Code = 25;
    pub const UNKNOWN: Code = 999;
}

use ret::Code;

/// `nvmlDevice_t`: an opaque pointer to the caller.
type Device = *mut c_void;

/// A GPU by NVML index, or a MIG device of it by its position in the recorded list.
#[derive(Debug, Clone, Copy)]
struct Handle {
    gpu: u32,
    mig: Option<u32>,
}

/// Marks the handles this library hands out, so a foreign pointer is refused.
const HANDLE_TAG: usize = 0x4e56_0000_0000;

impl Handle {
    fn encode(self) -> Device {
        let slot = self.mig.map_or(0, |m| m as usize + 1);
        std::ptr::without_provenance_mut(HANDLE_TAG | ((self.gpu as usize) << 8) | slot)
    }

    fn decode(d: Device) -> Option<Handle> {
        let v = d as usize;
        if v & !0xFF_FFFF != HANDLE_TAG {
            return None;
        }
        let slot = (v & 0xFF) as u32;
        Some(Handle {
            gpu: ((v >> 8) & 0xFFFF) as u32,
            mig: slot.checked_sub(1),
        })
    }
}

/// The loaded capture, the fault rules and NVML's init count.
struct Double {
    capture: Capture,
    faults: Faults,
    inits: u32,
    /// `RIGCHECK_NVML_DOUBLE_LOG`: a file each call appends its entry point's name to, so a
    /// test knows which entry points a run used.
    log: Option<std::fs::File>,
}

impl Double {
    fn called(&mut self, symbol: &str) {
        if let Some(f) = &mut self.log {
            use std::io::Write;
            // A lost line only makes a test's list shorter, which the test then says.
            let _ = writeln!(f, "{symbol}");
        }
    }
}

static DOUBLE: Mutex<Option<Double>> = Mutex::new(None);

fn lock() -> MutexGuard<'static, Option<Double>> {
    DOUBLE.lock().unwrap_or_else(|p| p.into_inner())
}

/// Reads the capture and the rules the environment names (at the first `nvmlInit`).
fn load() -> Result<Double, String> {
    let path = std::env::var("RIGCHECK_NVML_DOUBLE")
        .map_err(|_| "RIGCHECK_NVML_DOUBLE is not set: name the nvml.json to answer from")?;
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let capture = Capture::parse(&path, &text)?;
    let rules = std::env::var("RIGCHECK_NVML_DOUBLE_FAIL").unwrap_or_default();
    let faults = Faults::parse(&rules).map_err(|e| format!("RIGCHECK_NVML_DOUBLE_FAIL: {e}"))?;
    let log = match std::env::var_os("RIGCHECK_NVML_DOUBLE_LOG") {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&p)
                .map_err(|e| format!("RIGCHECK_NVML_DOUBLE_LOG {}: {e}", p.to_string_lossy()))?,
        ),
        None => None,
    };
    Ok(Double {
        capture,
        faults,
        inits: 0,
        log,
    })
}

/// Carries out a rule's action, outside the lock (a hung call must not stop the others).
fn perform(a: Action) -> Code {
    match a {
        Action::Fail(code) => code,
        Action::Hang => loop {
            std::thread::sleep(Duration::from_secs(3600));
        },
    }
}

/// `nvmlInit_v2`, `nvmlInit`, `nvmlInitWithFlags`: loads the capture once; each success
/// counts, and NVML stays up until as many `nvmlShutdown`s.
fn init(symbol: &str) -> Code {
    let action = {
        let mut g = lock();
        if g.is_none() {
            match load() {
                Ok(d) => *g = Some(d),
                Err(e) => {
                    eprintln!("nvml double: {e}");
                    return ret::UNKNOWN;
                }
            }
        }
        let Some(d) = g.as_mut() else {
            return ret::UNKNOWN;
        };
        d.called(symbol);
        match d.faults.check(symbol, None) {
            Some(a) => a,
            None => {
                let code = d.capture.init();
                if code == ret::SUCCESS {
                    d.inits += 1;
                }
                return code;
            }
        }
    };
    perform(action)
}

/// One call that needs NVML up: the rules see it first (with the GPU `gpu` names), then `f`
/// answers from the capture.
fn call(
    symbol: &str,
    gpu: impl FnOnce(&Capture) -> Option<u32>,
    f: impl FnOnce(&Capture) -> Code,
) -> Code {
    let action = {
        let mut g = lock();
        let Some(d) = g.as_mut().filter(|d| d.inits > 0) else {
            return ret::UNINITIALIZED;
        };
        d.called(symbol);
        let gpu = gpu(&d.capture);
        match d.faults.check(symbol, gpu) {
            Some(a) => a,
            None => return f(&d.capture),
        }
    };
    perform(action)
}

/// A call on a device handle (a GPU or a MIG device).
fn on_device(symbol: &str, dev: Device, f: impl FnOnce(&Capture, Handle) -> Code) -> Code {
    let h = Handle::decode(dev);
    call(
        symbol,
        |_| h.map(|h| h.gpu),
        |c| match h {
            Some(h) if c.has(h.gpu) && h.mig.is_none_or(|m| c.mig(h.gpu, m).is_some()) => f(c, h),
            _ => ret::INVALID_ARGUMENT,
        },
    )
}

/// A call that only a GPU handle answers; a MIG device handle gets `NOT_SUPPORTED`.
fn on_gpu(symbol: &str, dev: Device, f: impl FnOnce(&Capture, u32) -> Code) -> Code {
    on_device(symbol, dev, |c, h| match h.mig {
        Some(_) => ret::NOT_SUPPORTED,
        None => f(c, h.gpu),
    })
}

/// Writes `v` through the caller's pointer.
///
/// # Safety
/// `p` is null or valid for writing one `T`.
unsafe fn put<T>(p: *mut T, v: T) -> Code {
    if p.is_null() {
        return ret::INVALID_ARGUMENT;
    }
    // SAFETY: not null, and valid for one `T` by the caller's contract.
    unsafe { p.write(v) };
    ret::SUCCESS
}

/// Writes a recorded answer through the caller's pointer, or returns its error.
///
/// # Safety
/// As `put`.
unsafe fn put_answer<T>(p: *mut T, v: Result<T, Code>) -> Code {
    match v {
        // SAFETY: the caller's contract, passed on.
        Ok(v) => unsafe { put(p, v) },
        Err(code) => code,
    }
}

/// Copies `s` with its NUL into the caller's buffer of `len` bytes.
///
/// # Safety
/// `buf` is null or valid for writing `len` bytes.
unsafe fn put_str(buf: *mut c_char, len: c_uint, s: Result<&str, Code>) -> Code {
    let s = match s {
        Ok(s) => s,
        Err(code) => return code,
    };
    if buf.is_null() {
        return ret::INVALID_ARGUMENT;
    }
    if s.len() + 1 > len as usize {
        return ret::INSUFFICIENT_SIZE;
    }
    // SAFETY: `buf` holds `len` bytes, at least `s.len() + 1`.
    unsafe {
        std::ptr::copy_nonoverlapping(s.as_ptr().cast::<c_char>(), buf, s.len());
        buf.add(s.len()).write(0);
    }
    ret::SUCCESS
}

/// A recorded value that must be an unsigned number.
fn number(gpu: u32, call: &str, v: &Value) -> Result<u64, Code> {
    v.as_u64().ok_or_else(|| capture::malformed(gpu, call, v))
}

/// A recorded unsigned number of a GPU.
fn u64_of(c: &Capture, gpu: u32, call: &str) -> Result<u64, Code> {
    number(gpu, call, c.device(gpu, call)?)
}

fn u32_of(c: &Capture, gpu: u32, call: &str) -> Result<u32, Code> {
    let n = u64_of(c, gpu, call)?;
    u32::try_from(n).map_err(|_| capture::malformed(gpu, call, &Value::from(n)))
}

/// A recorded string of a GPU.
fn str_of<'a>(c: &'a Capture, gpu: u32, call: &str) -> Result<&'a str, Code> {
    let v = c.device(gpu, call)?;
    v.as_str().ok_or_else(|| capture::malformed(gpu, call, v))
}

/// A recorded bool of a GPU, as `nvmlEnableState_t`.
fn state_of(c: &Capture, gpu: u32, call: &str) -> Result<c_uint, Code> {
    let v = c.device(gpu, call)?;
    v.as_bool()
        .map(c_uint::from)
        .ok_or_else(|| capture::malformed(gpu, call, v))
}

/// A key of a recorded object answer (`{"current": .., "pending": ..}`).
fn field<'a>(c: &'a Capture, gpu: u32, call: &str, key: &str) -> Result<&'a Value, Code> {
    let v = c.device(gpu, call)?;
    v.get(key).ok_or_else(|| capture::malformed(gpu, call, v))
}

/// A key of a recorded MIG device; one the capture left out (or null) is `NO_DATA`.
fn mig_key<'a>(c: &'a Capture, h: Handle, key: &str) -> Result<&'a Value, Code> {
    h.mig
        .and_then(|m| c.mig(h.gpu, m))
        .and_then(|m| m.get(key))
        .filter(|v| !v.is_null())
        .ok_or(ret::NO_DATA)
}

// ---- Initialisation, errors, system ----

#[no_mangle]
pub extern "C" fn nvmlInit_v2() -> Code {
    init("nvmlInit_v2")
}

#[no_mangle]
pub extern "C" fn nvmlInit() -> Code {
    init("nvmlInit")
}

#[no_mangle]
pub extern "C" fn nvmlInitWithFlags(_flags: c_uint) -> Code {
    init("nvmlInitWithFlags")
}

#[no_mangle]
pub extern "C" fn nvmlShutdown() -> Code {
    let mut g = lock();
    if let Some(d) = g.as_mut() {
        d.called("nvmlShutdown");
    }
    match g.as_mut() {
        Some(d) if d.inits > 0 => {
            d.inits -= 1;
            ret::SUCCESS
        }
        _ => ret::UNINITIALIZED,
    }
}

#[no_mangle]
pub extern "C" fn nvmlErrorString(result: Code) -> *const c_char {
    let text: &CStr = match result {
        0 => c"Success",
        1 => c"Uninitialized",
        2 => c"Invalid Argument",
        3 => c"Not Supported",
        4 => c"Insufficient Permissions",
        6 => c"Not Found",
        7 => c"Insufficient Size",
        9 => c"Driver Not Loaded",
        13 => c"Function Not Found",
        15 => c"GPU is lost",
        18 => c"RM has detected an NVML/RM version mismatch.",
        21 => c"No data",
        25 => c"Argument version mismatch",
        _ => c"Unknown Error",
    };
    text.as_ptr()
}

#[no_mangle]
pub unsafe extern "C" fn nvmlSystemGetDriverVersion(version: *mut c_char, length: c_uint) -> Code {
    call(
        "nvmlSystemGetDriverVersion",
        |_| None,
        |c| {
            let v = c
                .system("driver_version")
                .and_then(|v| v.as_str().ok_or(ret::UNKNOWN));
            // SAFETY: nvml.h: `version` holds `length` bytes.
            unsafe { put_str(version, length, v) }
        },
    )
}

fn cuda_version(symbol: &str, out: *mut c_int) -> Code {
    call(
        symbol,
        |_| None,
        |c| {
            let v = c.system("cuda_driver_version").and_then(|v| {
                v.as_i64()
                    .and_then(|n| c_int::try_from(n).ok())
                    .ok_or(ret::UNKNOWN)
            });
            // SAFETY: nvml.h: `out` points to an int.
            unsafe { put_answer(out, v) }
        },
    )
}

#[no_mangle]
pub unsafe extern "C" fn nvmlSystemGetCudaDriverVersion(version: *mut c_int) -> Code {
    cuda_version("nvmlSystemGetCudaDriverVersion", version)
}

#[no_mangle]
pub unsafe extern "C" fn nvmlSystemGetCudaDriverVersion_v2(version: *mut c_int) -> Code {
    cuda_version("nvmlSystemGetCudaDriverVersion_v2", version)
}

fn count(symbol: &str, out: *mut c_uint) -> Code {
    call(
        symbol,
        |_| None,
        |c| {
            let n = c.system("device_count").map(|_| c.count());
            // SAFETY: nvml.h: `out` points to an unsigned int.
            unsafe { put_answer(out, n) }
        },
    )
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetCount_v2(device_count: *mut c_uint) -> Code {
    count("nvmlDeviceGetCount_v2", device_count)
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetCount(device_count: *mut c_uint) -> Code {
    count("nvmlDeviceGetCount", device_count)
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetHandleByIndex_v2(index: c_uint, device: *mut Device) -> Code {
    call(
        "nvmlDeviceGetHandleByIndex_v2",
        |_| Some(index),
        |c| {
            if !c.has(index) {
                return ret::INVALID_ARGUMENT;
            }
            let h = Handle {
                gpu: index,
                mig: None,
            };
            // SAFETY: nvml.h: `device` points to an nvmlDevice_t.
            unsafe { put(device, h.encode()) }
        },
    )
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetHandleByPciBusId_v2(
    pci_bus_id: *const c_char,
    device: *mut Device,
) -> Code {
    let bus = if pci_bus_id.is_null() {
        None
    } else {
        // SAFETY: nvml.h: a NUL-terminated string.
        unsafe { CStr::from_ptr(pci_bus_id) }
            .to_str()
            .ok()
            .and_then(capture::parse_bus_id)
    };
    call(
        "nvmlDeviceGetHandleByPciBusId_v2",
        |c| bus.and_then(|b| c.by_bus_id(b)),
        |c| {
            let Some(bus) = bus else {
                return ret::INVALID_ARGUMENT;
            };
            match c.by_bus_id(bus) {
                // SAFETY: nvml.h: `device` points to an nvmlDevice_t.
                Some(gpu) => unsafe { put(device, Handle { gpu, mig: None }.encode()) },
                None => ret::NOT_FOUND,
            }
        },
    )
}

// ---- Identity ----

/// A string answer of a GPU, or (for `name` and `uuid`) of a MIG device.
fn string_of<'a>(c: &'a Capture, h: Handle, call: &str) -> Result<&'a str, Code> {
    match h.mig {
        None => str_of(c, h.gpu, call),
        Some(_) => {
            let v = mig_key(c, h, call)?;
            v.as_str().ok_or_else(|| capture::malformed(h.gpu, call, v))
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetName(dev: Device, name: *mut c_char, length: c_uint) -> Code {
    on_device("nvmlDeviceGetName", dev, |c, h| {
        // SAFETY: nvml.h: `name` holds `length` bytes.
        unsafe { put_str(name, length, string_of(c, h, "name")) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetUUID(dev: Device, uuid: *mut c_char, length: c_uint) -> Code {
    on_device("nvmlDeviceGetUUID", dev, |c, h| {
        // SAFETY: nvml.h: `uuid` holds `length` bytes.
        unsafe { put_str(uuid, length, string_of(c, h, "uuid")) }
    })
}

/// A GPU string getter (`dev, char *, unsigned int length`).
macro_rules! gpu_string {
    ($name:ident, $call:literal) => {
        #[no_mangle]
        pub unsafe extern "C" fn $name(dev: Device, buf: *mut c_char, length: c_uint) -> Code {
            on_gpu(stringify!($name), dev, |c, i| {
                // SAFETY: nvml.h: `buf` holds `length` bytes.
                unsafe { put_str(buf, length, str_of(c, i, $call)) }
            })
        }
    };
}

gpu_string!(nvmlDeviceGetSerial, "serial");
gpu_string!(nvmlDeviceGetBoardPartNumber, "board_part_number");
gpu_string!(nvmlDeviceGetVbiosVersion, "vbios_version");

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetBrand(dev: Device, brand: *mut c_uint) -> Code {
    on_gpu("nvmlDeviceGetBrand", dev, |c, i| {
        let v = c
            .device(i, "brand")
            .and_then(|v| capture::enum_value(&capture::BRANDS, i, "brand", v));
        // SAFETY: nvml.h: `brand` points to an nvmlBrandType_t.
        unsafe { put_answer(brand, v) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetArchitecture(dev: Device, arch: *mut c_uint) -> Code {
    on_gpu("nvmlDeviceGetArchitecture", dev, |c, i| {
        let v = c
            .device(i, "architecture")
            .and_then(|v| capture::enum_value(&capture::ARCHITECTURES, i, "architecture", v));
        // SAFETY: nvml.h: `arch` points to an nvmlDeviceArchitecture_t.
        unsafe { put_answer(arch, v) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetCudaComputeCapability(
    dev: Device,
    major: *mut c_int,
    minor: *mut c_int,
) -> Code {
    on_gpu("nvmlDeviceGetCudaComputeCapability", dev, |c, i| {
        let part = |k: &str| -> Result<c_int, Code> {
            let v = field(c, i, "cuda_compute_capability", k)?;
            v.as_i64()
                .and_then(|n| c_int::try_from(n).ok())
                .ok_or_else(|| capture::malformed(i, "cuda_compute_capability", v))
        };
        let (a, b) = match (part("major"), part("minor")) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => return e,
        };
        if major.is_null() || minor.is_null() {
            return ret::INVALID_ARGUMENT;
        }
        // SAFETY: nvml.h: both point to an int; checked not null.
        unsafe {
            major.write(a);
            minor.write(b);
        }
        ret::SUCCESS
    })
}

/// A GPU getter of one recorded unsigned int (`dev, unsigned int *`).
macro_rules! gpu_uint {
    ($name:ident, $call:literal) => {
        #[no_mangle]
        pub unsafe extern "C" fn $name(dev: Device, out: *mut c_uint) -> Code {
            on_gpu(stringify!($name), dev, |c, i| {
                // SAFETY: nvml.h: `out` points to an unsigned int.
                unsafe { put_answer(out, u32_of(c, i, $call)) }
            })
        }
    };
}

#[cfg(not(feature = "r470"))]
gpu_uint!(nvmlDeviceGetNumGpuCores, "num_cores");
#[cfg(not(feature = "r470"))]
gpu_uint!(nvmlDeviceGetMemoryBusWidth, "memory_bus_width");
gpu_uint!(nvmlDeviceGetCurrPcieLinkGeneration, "current_pcie_link_gen");
gpu_uint!(nvmlDeviceGetCurrPcieLinkWidth, "current_pcie_link_width");
gpu_uint!(nvmlDeviceGetMaxPcieLinkGeneration, "max_pcie_link_gen");
gpu_uint!(nvmlDeviceGetMaxPcieLinkWidth, "max_pcie_link_width");
gpu_uint!(nvmlDeviceGetPowerUsage, "power_usage");
gpu_uint!(nvmlDeviceGetEnforcedPowerLimit, "enforced_power_limit");
gpu_uint!(nvmlDeviceGetFanSpeed, "fan_speed");

// ---- Memory ----

/// `nvmlMemory_t` (v1).
#[repr(C)]
pub struct Memory {
    pub total: c_ulonglong,
    pub free: c_ulonglong,
    pub used: c_ulonglong,
}

/// `nvmlMemory_v2_t`.
#[cfg(not(feature = "r470"))]
#[repr(C)]
pub struct MemoryV2 {
    pub version: c_uint,
    pub total: c_ulonglong,
    pub reserved: c_ulonglong,
    pub free: c_ulonglong,
    pub used: c_ulonglong,
}

/// `nvmlMemory_v2`: NVML_STRUCT_VERSION(Memory, 2), the size with the version in the top byte.
#[cfg(not(feature = "r470"))]
const MEMORY_V2: c_uint = std::mem::size_of::<MemoryV2>() as c_uint | 2 << 24;

/// (total, reserved, free, used) of a GPU or a MIG device.
fn memory(c: &Capture, h: Handle) -> Result<(u64, u64, u64, u64), Code> {
    match h.mig {
        None => {
            let k = |key: &str| -> Result<u64, Code> {
                let v = field(c, h.gpu, "memory_info", key)?;
                number(h.gpu, "memory_info", v)
            };
            Ok((
                k("total")?,
                k("reserved").unwrap_or(0),
                k("free")?,
                k("used")?,
            ))
        }
        Some(_) => {
            let k = |key: &str| -> Result<u64, Code> {
                let v = mig_key(c, h, key)?;
                number(h.gpu, "mig_devices", v)
            };
            let (total, used) = (k("memory_total")?, k("memory_used")?);
            Ok((total, 0, total.saturating_sub(used), used))
        }
    }
}

#[cfg(not(feature = "r470"))]
#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetMemoryInfo_v2(dev: Device, mem: *mut MemoryV2) -> Code {
    on_device("nvmlDeviceGetMemoryInfo_v2", dev, |c, h| {
        if mem.is_null() {
            return ret::INVALID_ARGUMENT;
        }
        // SAFETY: nvml.h: `mem` points to an nvmlMemory_v2_t whose `version` the caller set.
        if unsafe { (*mem).version } != MEMORY_V2 {
            return ret::ARGUMENT_VERSION_MISMATCH;
        }
        match memory(c, h) {
            Ok((total, reserved, free, used)) => {
                let v = MemoryV2 {
                    version: MEMORY_V2,
                    total,
                    reserved,
                    free,
                    used,
                };
                // SAFETY: as above.
                unsafe { put(mem, v) }
            }
            Err(e) => e,
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetMemoryInfo(dev: Device, mem: *mut Memory) -> Code {
    on_device("nvmlDeviceGetMemoryInfo", dev, |c, h| {
        let v = memory(c, h).map(|(total, _, free, used)| Memory { total, free, used });
        // SAFETY: nvml.h: `mem` points to an nvmlMemory_t.
        unsafe { put_answer(mem, v) }
    })
}

// ---- Clocks, PCI, sensors ----

const CLOCK_GRAPHICS: c_uint = 0;
const CLOCK_SM: c_uint = 1;
const CLOCK_MEM: c_uint = 2;
const CLOCK_COUNT: c_uint = 4;

/// A clock getter: `recorded(type)` names the call holding that clock, if any was recorded.
fn clock(
    symbol: &str,
    dev: Device,
    kind: c_uint,
    out: *mut c_uint,
    recorded: fn(c_uint) -> Option<&'static str>,
) -> Code {
    on_gpu(symbol, dev, |c, i| {
        if kind >= CLOCK_COUNT {
            return ret::INVALID_ARGUMENT;
        }
        let v = recorded(kind).map_or(Err(ret::NO_DATA), |call| u32_of(c, i, call));
        // SAFETY: nvml.h: `out` points to an unsigned int.
        unsafe { put_answer(out, v) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetMaxClockInfo(
    dev: Device,
    kind: c_uint,
    clock_mhz: *mut c_uint,
) -> Code {
    clock(
        "nvmlDeviceGetMaxClockInfo",
        dev,
        kind,
        clock_mhz,
        |k| match k {
            CLOCK_SM => Some("max_clock_sm"),
            CLOCK_MEM => Some("max_clock_memory"),
            _ => None,
        },
    )
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetMaxCustomerBoostClock(
    dev: Device,
    kind: c_uint,
    clock_mhz: *mut c_uint,
) -> Code {
    clock(
        "nvmlDeviceGetMaxCustomerBoostClock",
        dev,
        kind,
        clock_mhz,
        |k| (k == CLOCK_GRAPHICS).then_some("max_customer_boost_clock"),
    )
}

/// The current clocks are not in a capture (the probe does not ask them): every valid clock
/// type is `NO_DATA`.
#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetClockInfo(
    dev: Device,
    kind: c_uint,
    clock_mhz: *mut c_uint,
) -> Code {
    clock("nvmlDeviceGetClockInfo", dev, kind, clock_mhz, |_| None)
}

/// `nvmlPciInfo_t` (the v3 layout).
#[repr(C)]
pub struct PciInfo {
    pub bus_id_legacy: [c_char; 16],
    pub domain: c_uint,
    pub bus: c_uint,
    pub device: c_uint,
    pub pci_device_id: c_uint,
    pub pci_sub_system_id: c_uint,
    pub bus_id: [c_char; 32],
}

fn c_array<const N: usize>(s: &str) -> Option<[c_char; N]> {
    if s.len() >= N {
        return None;
    }
    let mut out = [0 as c_char; N];
    for (o, b) in out.iter_mut().zip(s.bytes()) {
        *o = b as c_char;
    }
    Some(out)
}

/// The recorded bus id, with the ids where `pci_device_ids` was recorded (0 where not:
/// NVML never leaves them out, so a capture without them answers the bus address alone).
#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetPciInfo_v3(dev: Device, pci: *mut PciInfo) -> Code {
    on_gpu("nvmlDeviceGetPciInfo_v3", dev, |c, i| {
        let bus_id = match str_of(c, i, "pci_bus_id") {
            Ok(s) => s,
            Err(e) => return e,
        };
        let Some((domain, bus, device, function)) = capture::parse_bus_id(bus_id) else {
            return capture::malformed(i, "pci_bus_id", &Value::from(bus_id));
        };
        let legacy = format!("{domain:04X}:{bus:02X}:{device:02X}.{function:X}");
        let (Some(bus_id_legacy), Some(bus_id)) = (c_array(&legacy), c_array(bus_id)) else {
            return capture::malformed(i, "pci_bus_id", &Value::from(bus_id));
        };
        let id = |k: &str| {
            c.device(i, "pci_device_ids")
                .ok()
                .and_then(|v| v.get(k)?.as_u64())
                .and_then(|n| c_uint::try_from(n).ok())
                .unwrap_or(0)
        };
        let v = PciInfo {
            bus_id_legacy,
            domain,
            bus,
            device,
            pci_device_id: id("device"),
            pci_sub_system_id: id("subsystem"),
            bus_id,
        };
        // SAFETY: nvml.h: `pci` points to an nvmlPciInfo_t.
        unsafe { put(pci, v) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetTemperature(
    dev: Device,
    sensor: c_uint,
    temp: *mut c_uint,
) -> Code {
    on_gpu("nvmlDeviceGetTemperature", dev, |c, i| {
        // NVML_TEMPERATURE_GPU is the only sensor of nvmlTemperatureSensors_t.
        if sensor != 0 {
            return ret::INVALID_ARGUMENT;
        }
        // SAFETY: nvml.h: `temp` points to an unsigned int.
        unsafe { put_answer(temp, u32_of(c, i, "temperature_gpu")) }
    })
}

/// Fan 0 is the recorded one; the capture does not say how many fans there are, so another
/// index is refused as NVML refuses one past the last fan.
#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetFanSpeed_v2(
    dev: Device,
    fan: c_uint,
    speed: *mut c_uint,
) -> Code {
    on_gpu("nvmlDeviceGetFanSpeed_v2", dev, |c, i| {
        if fan != 0 {
            return ret::INVALID_ARGUMENT;
        }
        // SAFETY: nvml.h: `speed` points to an unsigned int.
        unsafe { put_answer(speed, u32_of(c, i, "fan_speed")) }
    })
}

/// `nvmlUtilization_t`.
#[repr(C)]
pub struct Utilization {
    pub gpu: c_uint,
    pub memory: c_uint,
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetUtilizationRates(
    dev: Device,
    util: *mut Utilization,
) -> Code {
    on_gpu("nvmlDeviceGetUtilizationRates", dev, |c, i| {
        let k = |key: &str| -> Result<c_uint, Code> {
            let v = field(c, i, "utilization_rates", key)?;
            v.as_u64()
                .and_then(|n| c_uint::try_from(n).ok())
                .ok_or_else(|| capture::malformed(i, "utilization_rates", v))
        };
        let v = k("gpu").and_then(|gpu| {
            Ok(Utilization {
                gpu,
                memory: k("memory")?,
            })
        });
        // SAFETY: nvml.h: `util` points to an nvmlUtilization_t.
        unsafe { put_answer(util, v) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetPersistenceMode(dev: Device, mode: *mut c_uint) -> Code {
    on_gpu("nvmlDeviceGetPersistenceMode", dev, |c, i| {
        // SAFETY: nvml.h: `mode` points to an nvmlEnableState_t.
        unsafe { put_answer(mode, state_of(c, i, "persistence_mode")) }
    })
}

/// An `{"current": bool, "pending": bool}` answer into two out-pointers.
///
/// # Safety
/// `current` and `pending` are null or point to an unsigned int each.
unsafe fn current_pending(
    c: &Capture,
    i: u32,
    call: &str,
    current: *mut c_uint,
    pending: *mut c_uint,
) -> Code {
    let k = |key: &str| -> Result<c_uint, Code> {
        let v = field(c, i, call, key)?;
        v.as_bool()
            .map(c_uint::from)
            .ok_or_else(|| capture::malformed(i, call, v))
    };
    let (a, b) = match (k("current"), k("pending")) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    if current.is_null() || pending.is_null() {
        return ret::INVALID_ARGUMENT;
    }
    // SAFETY: not null; valid by the caller's contract.
    unsafe {
        current.write(a);
        pending.write(b);
    }
    ret::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetEccMode(
    dev: Device,
    current: *mut c_uint,
    pending: *mut c_uint,
) -> Code {
    on_gpu("nvmlDeviceGetEccMode", dev, |c, i| {
        // SAFETY: nvml.h: both point to an nvmlEnableState_t.
        unsafe { current_pending(c, i, "ecc_mode", current, pending) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetMigMode(
    dev: Device,
    current: *mut c_uint,
    pending: *mut c_uint,
) -> Code {
    on_gpu("nvmlDeviceGetMigMode", dev, |c, i| {
        // SAFETY: nvml.h: both point to an unsigned int.
        unsafe { current_pending(c, i, "mig_mode", current, pending) }
    })
}

/// Corrected (0) or uncorrected (1) errors, volatile (0) or aggregate (1), each recorded
/// under its own name.
#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetTotalEccErrors(
    dev: Device,
    error_type: c_uint,
    counter_type: c_uint,
    count: *mut c_ulonglong,
) -> Code {
    on_gpu("nvmlDeviceGetTotalEccErrors", dev, |c, i| {
        let v = match (error_type, counter_type) {
            (0, 0) => u64_of(c, i, "ecc_corrected_volatile"),
            (1, 0) => u64_of(c, i, "ecc_uncorrected_volatile"),
            (1, 1) => u64_of(c, i, "ecc_uncorrected_aggregate"),
            (0, 1) => u64_of(c, i, "ecc_corrected_aggregate"),
            _ => Err(ret::INVALID_ARGUMENT),
        };
        let v = v.map(|n| n + ecc_growth(i, error_type, counter_type));
        // SAFETY: nvml.h: `count` points to an unsigned long long.
        unsafe { put_answer(count, v) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetRetiredPagesPendingStatus(
    dev: Device,
    pending: *mut c_uint,
) -> Code {
    on_gpu("nvmlDeviceGetRetiredPagesPendingStatus", dev, |c, i| {
        // SAFETY: nvml.h: `pending` points to an nvmlEnableState_t.
        unsafe { put_answer(pending, state_of(c, i, "pages_pending_retirement")) }
    })
}

/// `RIGCHECK_NVML_DOUBLE_ECC_GROWTH=GPU:N`: errors GPU `GPU` gains between one reading of a
/// counter and the next (each counter's Nth reading answers the recorded count plus
/// N × (readings before it)), as on a board whose memory fails under load; 0 without it.
fn ecc_growth(gpu: u32, error_type: c_uint, counter_type: c_uint) -> u64 {
    static READS: std::sync::Mutex<Vec<(u32, c_uint, c_uint)>> = std::sync::Mutex::new(Vec::new());
    let Ok(rule) = std::env::var("RIGCHECK_NVML_DOUBLE_ECC_GROWTH") else {
        return 0;
    };
    let Some((g, n)) = rule.split_once(':') else {
        return 0;
    };
    let (Ok(g), Ok(n)) = (g.trim().parse::<u32>(), n.trim().parse::<u64>()) else {
        return 0;
    };
    if g != gpu {
        return 0;
    }
    let Ok(mut reads) = READS.lock() else {
        return 0;
    };
    let key = (gpu, error_type, counter_type);
    let before = reads.iter().filter(|k| **k == key).count() as u64;
    reads.push(key);
    n * before
}

/// The recorded count of pages retired for `cause` (0: multiple single-bit errors, 1: a
/// double-bit error).
fn retired_count(c: &Capture, gpu: u32, cause: c_uint) -> Result<c_uint, Code> {
    match cause {
        0 => u32_of(c, gpu, "retired_pages_single_bit"),
        1 => u32_of(c, gpu, "retired_pages_double_bit"),
        _ => Err(ret::INVALID_ARGUMENT),
    }
}

/// The pages retired for `cause`, by nvml.h's two-call protocol: `*page_count` is the room
/// in `addresses` (and `timestamps`); too little room answers the count and
/// `INSUFFICIENT_SIZE`. A capture records the count, not the addresses: each page is
/// answered as address 0 at time 0.
///
/// # Safety
/// `page_count` points to an unsigned int; `addresses` and `timestamps` are null or hold
/// `*page_count` unsigned long longs.
unsafe fn retired_pages(
    symbol: &str,
    dev: Device,
    cause: c_uint,
    page_count: *mut c_uint,
    addresses: *mut c_ulonglong,
    timestamps: *mut c_ulonglong,
) -> Code {
    on_gpu(symbol, dev, |c, i| {
        let n = match retired_count(c, i, cause) {
            Ok(n) => n,
            Err(code) => return code,
        };
        if page_count.is_null() {
            return ret::INVALID_ARGUMENT;
        }
        // SAFETY: not null; nvml.h: an unsigned int the caller owns.
        let room = unsafe { page_count.read() };
        // SAFETY: as above.
        unsafe { page_count.write(n) };
        if room < n || (n > 0 && addresses.is_null()) {
            return ret::INSUFFICIENT_SIZE;
        }
        for k in 0..n as usize {
            // SAFETY: `addresses` holds `room` ≥ `n` entries; `timestamps`, when given, too.
            unsafe {
                addresses.add(k).write(0);
                if !timestamps.is_null() {
                    timestamps.add(k).write(0);
                }
            }
        }
        ret::SUCCESS
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetRetiredPages(
    dev: Device,
    cause: c_uint,
    page_count: *mut c_uint,
    addresses: *mut c_ulonglong,
) -> Code {
    // SAFETY: nvml.h's contract, passed on.
    unsafe {
        retired_pages(
            "nvmlDeviceGetRetiredPages",
            dev,
            cause,
            page_count,
            addresses,
            std::ptr::null_mut(),
        )
    }
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetRetiredPages_v2(
    dev: Device,
    cause: c_uint,
    page_count: *mut c_uint,
    addresses: *mut c_ulonglong,
    timestamps: *mut c_ulonglong,
) -> Code {
    // SAFETY: nvml.h's contract, passed on.
    unsafe {
        retired_pages(
            "nvmlDeviceGetRetiredPages_v2",
            dev,
            cause,
            page_count,
            addresses,
            timestamps,
        )
    }
}

/// Row remapping (R450 and newer, A100 and later GPUs): the recorded
/// `{"correctable", "uncorrectable", "pending", "failure"}`.
#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetRemappedRows(
    dev: Device,
    corr_rows: *mut c_uint,
    unc_rows: *mut c_uint,
    is_pending: *mut c_uint,
    failure_occurred: *mut c_uint,
) -> Code {
    on_gpu("nvmlDeviceGetRemappedRows", dev, |c, i| {
        let call = "remapped_rows";
        let n = |k: &str| -> Result<c_uint, Code> {
            let v = field(c, i, call, k)?;
            v.as_u64()
                .and_then(|n| c_uint::try_from(n).ok())
                .ok_or_else(|| capture::malformed(i, call, v))
        };
        let b = |k: &str| -> Result<c_uint, Code> {
            let v = field(c, i, call, k)?;
            v.as_bool()
                .map(c_uint::from)
                .ok_or_else(|| capture::malformed(i, call, v))
        };
        let all = (|| {
            Ok((
                n("correctable")?,
                n("uncorrectable")?,
                b("pending")?,
                b("failure")?,
            ))
        })();
        let (a, u, p, f) = match all {
            Ok(v) => v,
            Err(code) => return code,
        };
        if [corr_rows, unc_rows, is_pending, failure_occurred]
            .iter()
            .any(|p| p.is_null())
        {
            return ret::INVALID_ARGUMENT;
        }
        // SAFETY: not null; nvml.h: each points to an unsigned int.
        unsafe {
            corr_rows.write(a);
            unc_rows.write(u);
            is_pending.write(p);
            failure_occurred.write(f);
        }
        ret::SUCCESS
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetPcieReplayCounter(dev: Device, value: *mut c_uint) -> Code {
    on_gpu("nvmlDeviceGetPcieReplayCounter", dev, |c, i| {
        // SAFETY: nvml.h: `value` points to an unsigned int.
        unsafe { put_answer(value, u32_of(c, i, "pcie_replay_counter")) }
    })
}

/// `nvmlViolationTime_t`: the CPU time of the reading (µs) and the time held back (ns).
#[repr(C)]
pub struct ViolationTime {
    reference_time: c_ulonglong,
    violation_time: c_ulonglong,
}

/// The time the clocks were held back by the power limit (policy 0) or heat (1), recorded as
/// `violation_power` and `violation_thermal`; the other policies are `NO_DATA`.
#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetViolationStatus(
    dev: Device,
    policy: c_uint,
    time: *mut ViolationTime,
) -> Code {
    on_gpu("nvmlDeviceGetViolationStatus", dev, |c, i| {
        let v = match policy {
            0 => u64_of(c, i, "violation_power"),
            1 => u64_of(c, i, "violation_thermal"),
            2..=5 | 10 | 11 => Err(ret::NO_DATA),
            _ => Err(ret::INVALID_ARGUMENT),
        };
        let v = v.map(|ns| ViolationTime {
            reference_time: 0,
            violation_time: ns,
        });
        // SAFETY: nvml.h: `time` points to an nvmlViolationTime_t.
        unsafe { put_answer(time, v) }
    })
}

fn throttle(symbol: &str, dev: Device, reasons: *mut c_ulonglong) -> Code {
    on_gpu(symbol, dev, |c, i| {
        // SAFETY: nvml.h: `reasons` points to an unsigned long long.
        unsafe { put_answer(reasons, u64_of(c, i, "throttle_reasons")) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetCurrentClocksThrottleReasons(
    dev: Device,
    reasons: *mut c_ulonglong,
) -> Code {
    throttle("nvmlDeviceGetCurrentClocksThrottleReasons", dev, reasons)
}

/// The same mask under the name NVML gave it in R535.
#[cfg(not(feature = "r470"))]
#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetCurrentClocksEventReasons(
    dev: Device,
    reasons: *mut c_ulonglong,
) -> Code {
    throttle("nvmlDeviceGetCurrentClocksEventReasons", dev, reasons)
}

// ---- Processes ----

/// `nvmlProcessInfo_t` of the `_v2` and `_v3` calls.
#[repr(C)]
pub struct ProcessInfo {
    pub pid: c_uint,
    pub used_gpu_memory: c_ulonglong,
    pub gpu_instance_id: c_uint,
    pub compute_instance_id: c_uint,
}

/// `nvmlProcessInfo_v1_t` of the unversioned call.
#[repr(C)]
pub struct ProcessInfoV1 {
    pub pid: c_uint,
    pub used_gpu_memory: c_ulonglong,
}

/// NVML_VALUE_NOT_AVAILABLE: the memory of a process NVML cannot see (Windows WDDM, no
/// permission), recorded as null.
const NOT_AVAILABLE: c_ulonglong = c_ulonglong::MAX;

/// No GPU or compute instance: the process runs on a GPU without MIG.
const NO_INSTANCE: c_uint = 0xFFFF_FFFF;

/// The process-list protocol: with `*count` smaller than the list (or `infos` null) the
/// call sets `*count` to the length and answers `INSUFFICIENT_SIZE` (`SUCCESS` for an empty
/// list); else it fills the first `*count` entries and sets `*count`.
///
/// # Safety
/// `count` is null or points to an unsigned int; `infos` is null or holds `*count` `T`s.
unsafe fn processes<T>(
    c: &Capture,
    i: u32,
    count: *mut c_uint,
    infos: *mut T,
    make: fn(c_uint, c_ulonglong) -> T,
) -> Code {
    let v = match c.device(i, "compute_processes") {
        Ok(v) => v,
        Err(e) => return e,
    };
    let Some(list) = v.as_array() else {
        return capture::malformed(i, "compute_processes", v);
    };
    let mut rows = Vec::new();
    for p in list {
        let pid = p
            .get("pid")
            .and_then(Value::as_u64)
            .and_then(|n| c_uint::try_from(n).ok());
        let Some(pid) = pid else {
            return capture::malformed(i, "compute_processes", v);
        };
        let used = p
            .get("used_memory")
            .and_then(Value::as_u64)
            .unwrap_or(NOT_AVAILABLE);
        rows.push(make(pid, used));
    }
    if count.is_null() {
        return ret::INVALID_ARGUMENT;
    }
    let n = rows.len() as c_uint;
    // SAFETY: `count` is not null and points to an unsigned int.
    let room = unsafe { count.read() };
    // SAFETY: as above.
    unsafe { count.write(n) };
    if infos.is_null() || room < n {
        return if n == 0 {
            ret::SUCCESS
        } else {
            ret::INSUFFICIENT_SIZE
        };
    }
    for (k, row) in rows.into_iter().enumerate() {
        // SAFETY: `infos` holds `room` ≥ `n` entries.
        unsafe { infos.add(k).write(row) };
    }
    ret::SUCCESS
}

fn process_v2(pid: c_uint, used: c_ulonglong) -> ProcessInfo {
    ProcessInfo {
        pid,
        used_gpu_memory: used,
        gpu_instance_id: NO_INSTANCE,
        compute_instance_id: NO_INSTANCE,
    }
}

#[cfg(not(feature = "r470"))]
#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetComputeRunningProcesses_v3(
    dev: Device,
    count: *mut c_uint,
    infos: *mut ProcessInfo,
) -> Code {
    on_gpu("nvmlDeviceGetComputeRunningProcesses_v3", dev, |c, i| {
        // SAFETY: nvml.h: `count` points to the size of `infos`.
        unsafe { processes(c, i, count, infos, process_v2) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetComputeRunningProcesses_v2(
    dev: Device,
    count: *mut c_uint,
    infos: *mut ProcessInfo,
) -> Code {
    on_gpu("nvmlDeviceGetComputeRunningProcesses_v2", dev, |c, i| {
        // SAFETY: nvml.h: `count` points to the size of `infos`.
        unsafe { processes(c, i, count, infos, process_v2) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetComputeRunningProcesses(
    dev: Device,
    count: *mut c_uint,
    infos: *mut ProcessInfoV1,
) -> Code {
    on_gpu("nvmlDeviceGetComputeRunningProcesses", dev, |c, i| {
        // SAFETY: nvml.h: `count` points to the size of `infos`.
        unsafe {
            processes(c, i, count, infos, |pid, used| ProcessInfoV1 {
                pid,
                used_gpu_memory: used,
            })
        }
    })
}

// ---- MIG ----

/// MIG devices a GPU can hold: 7 on the A100 and H100 (one per GPU slice), or more where the
/// capture lists a higher index. With MIG off there are none.
fn mig_capacity(c: &Capture, i: u32) -> Result<u32, Code> {
    let on = field(c, i, "mig_mode", "current")?.as_bool() == Some(true);
    if !on {
        return Ok(0);
    }
    let top = c
        .mig_devices(i)?
        .iter()
        .filter_map(|m| m.get("index")?.as_u64())
        .max()
        .map_or(0, |m| m as u32 + 1);
    Ok(top.max(7))
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetMaxMigDeviceCount(dev: Device, count: *mut c_uint) -> Code {
    on_gpu("nvmlDeviceGetMaxMigDeviceCount", dev, |c, i| {
        // SAFETY: nvml.h: `count` points to an unsigned int.
        unsafe { put_answer(count, mig_capacity(c, i)) }
    })
}

/// The MIG device at `index`: the recorded one whose `index` it is, `NOT_FOUND` for an empty
/// slot below the capacity.
#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetMigDeviceHandleByIndex(
    dev: Device,
    index: c_uint,
    mig: *mut Device,
) -> Code {
    on_gpu("nvmlDeviceGetMigDeviceHandleByIndex", dev, |c, i| {
        let capacity = match mig_capacity(c, i) {
            Ok(n) => n,
            Err(e) => return e,
        };
        if index >= capacity {
            return ret::INVALID_ARGUMENT;
        }
        let slot = c.mig_devices(i).ok().and_then(|list| {
            list.iter()
                .position(|m| m.get("index").and_then(Value::as_u64) == Some(u64::from(index)))
        });
        match slot
            .and_then(|s| u32::try_from(s).ok())
            .filter(|s| *s < 255)
        {
            Some(s) => {
                let h = Handle {
                    gpu: i,
                    mig: Some(s),
                };
                // SAFETY: nvml.h: `mig` points to an nvmlDevice_t.
                unsafe { put(mig, h.encode()) }
            }
            None => ret::NOT_FOUND,
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceIsMigDeviceHandle(dev: Device, is_mig: *mut c_uint) -> Code {
    on_device("nvmlDeviceIsMigDeviceHandle", dev, |_, h| {
        // SAFETY: nvml.h: `is_mig` points to an unsigned int.
        unsafe { put(is_mig, c_uint::from(h.mig.is_some())) }
    })
}

/// A number of a MIG device (`gpu_instance_id`, ...); a GPU handle is refused.
fn mig_number(symbol: &str, dev: Device, key: &'static str, out: *mut c_uint) -> Code {
    on_device(symbol, dev, |c, h| {
        if h.mig.is_none() {
            return ret::NOT_SUPPORTED;
        }
        let v = mig_key(c, h, key).and_then(|v| {
            v.as_u64()
                .and_then(|n| c_uint::try_from(n).ok())
                .ok_or_else(|| capture::malformed(h.gpu, "mig_devices", v))
        });
        // SAFETY: nvml.h: `out` points to an unsigned int.
        unsafe { put_answer(out, v) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetGpuInstanceId(dev: Device, id: *mut c_uint) -> Code {
    mig_number("nvmlDeviceGetGpuInstanceId", dev, "gpu_instance_id", id)
}

#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetComputeInstanceId(dev: Device, id: *mut c_uint) -> Code {
    mig_number(
        "nvmlDeviceGetComputeInstanceId",
        dev,
        "compute_instance_id",
        id,
    )
}

/// `nvmlDeviceAttributes_t`.
#[repr(C)]
pub struct Attributes {
    pub multiprocessor_count: c_uint,
    pub shared_copy_engine_count: c_uint,
    pub shared_decoder_count: c_uint,
    pub shared_encoder_count: c_uint,
    pub shared_jpeg_count: c_uint,
    pub shared_ofa_count: c_uint,
    pub gpu_instance_slice_count: c_uint,
    pub compute_instance_slice_count: c_uint,
    pub memory_size_mb: c_ulonglong,
}

/// A MIG device's attributes. The struct is one answer, so a capture that recorded the SM
/// and engine counts but not the slice counts (nvidia-smi prints no slice counts) answers
/// those as 0; without the SM count the whole call is `NO_DATA`. A GPU handle's attributes
/// are not in a capture: `NO_DATA`.
#[no_mangle]
pub unsafe extern "C" fn nvmlDeviceGetAttributes_v2(dev: Device, attrs: *mut Attributes) -> Code {
    on_device("nvmlDeviceGetAttributes_v2", dev, |c, h| {
        if h.mig.is_none() {
            return ret::NO_DATA;
        }
        let k = |key: &str| -> c_uint {
            mig_key(c, h, key)
                .ok()
                .and_then(Value::as_u64)
                .and_then(|n| c_uint::try_from(n).ok())
                .unwrap_or(0)
        };
        if mig_key(c, h, "multiprocessor_count").is_err() {
            return ret::NO_DATA;
        }
        let memory_mb = mig_key(c, h, "memory_total")
            .ok()
            .and_then(Value::as_u64)
            .map_or(0, |b| b >> 20);
        let v = Attributes {
            multiprocessor_count: k("multiprocessor_count"),
            shared_copy_engine_count: k("copy_engine_count"),
            shared_decoder_count: k("decoder_count"),
            shared_encoder_count: k("encoder_count"),
            shared_jpeg_count: k("jpeg_count"),
            shared_ofa_count: k("ofa_count"),
            gpu_instance_slice_count: k("gpu_instance_slice_count"),
            compute_instance_slice_count: k("compute_instance_slice_count"),
            memory_size_mb: memory_mb,
        };
        // SAFETY: nvml.h: `attrs` points to an nvmlDeviceAttributes_t.
        unsafe { put(attrs, v) }
    })
}
