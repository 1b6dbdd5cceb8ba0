//! A test double of the CUDA driver (`libcuda.so.1`) and cuBLAS (`libcublas.so.12`): one
//! shared library the tests link under both names, so device pointers of one are valid in
//! the other. Its devices are the GPUs of a recorded `nvml.json` (`RIGCHECK_NVML_DOUBLE`, the
//! capture the NVML double serves): their names, PCI bus ids and free memory. Device memory
//! lives in host memory behind made-up device addresses (a pointer outside an allocation is
//! an illegal address, as on a GPU), and the GEMMs run on the CPU: tests use small matrices.
//! Failures on demand come from `RIGCHECK_CUDA_DOUBLE_FAIL` (see `Fault`). Tests only.
//!
//! CUDA's contract as the driver API and cuBLAS references state it: `CUDA_ERROR_NOT_INITIALIZED`
//! before `cuInit`, a per-thread current context, primary contexts counted by retain and
//! release (memory freed with the last release), `CUDA_ERROR_INVALID_CONTEXT` without a current
//! context, and kernel errors that are asynchronous and sticky: the launch succeeds, the next
//! synchronisation reports the error, and so does every later call on that context until its
//! last release. With MIG on, CUDA enumerates one MIG device per process, not the GPU: the
//! double shows the GPU's first recorded MIG device in its place.

#![allow(non_snake_case, clippy::missing_safety_doc, clippy::too_many_arguments)]

mod gemm;
mod half;

use std::cell::Cell;
use std::collections::BTreeMap;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::{Mutex, MutexGuard};

use serde_json::Value;

use gemm::Shape;

/// `CUresult` values.
mod cu {
    pub const SUCCESS: i32 = 0;
    pub const INVALID_VALUE: i32 = 1;
    pub const OUT_OF_MEMORY: i32 = 2;
    pub const NOT_INITIALIZED: i32 = 3;
    pub const NO_DEVICE: i32 = 100;
    pub const INVALID_DEVICE: i32 = 101;
    pub const INVALID_CONTEXT: i32 = 201;
    pub const ILLEGAL_ADDRESS: i32 = 700;
    pub const LAUNCH_FAILED: i32 = 719;
    pub const UNKNOWN: i32 = 999;
}

/// `cublasStatus_t` values.
mod blas {
    pub const SUCCESS: i32 = 0;
    pub const NOT_INITIALIZED: i32 = 1;
    pub const INVALID_VALUE: i32 = 7;
    pub const EXECUTION_FAILED: i32 = 13;
    pub const NOT_SUPPORTED: i32 = 15;
}

type CuResult = c_int;
type CuDevice = c_int;
type CuContext = *mut c_void;
type CuDevicePtr = u64;
type CublasHandle = *mut c_void;

/// One device as CUDA enumerates it.
struct Gpu {
    name: String,
    /// `0000:3B:00.0`, as cuDeviceGetPCIBusId writes it.
    bus_id: String,
    /// Bytes free on the device when the capture was taken.
    free: u64,
}

/// A device's primary context.
#[derive(Default)]
struct Context {
    retains: u32,
    /// The sticky error of a failed kernel, 0 while none.
    error: CuResult,
    allocated: u64,
    launches: u64,
    /// Launches since the last memset on this device (pacing: only the first computes).
    since_fill: u64,
    /// Pacing: when the queued work is done, on the schedule of the paced rate.
    busy_until: Option<std::time::Instant>,
}

/// Device memory: bytes in host memory, at a device address.
struct Allocation {
    gpu: usize,
    bytes: Vec<u8>,
}

/// What `RIGCHECK_CUDA_DOUBLE_FAIL` asks (`;`-separated): `nodevice` (cuInit finds no
/// device), `oom[@GPU]` (every allocation fails), `kernel[@GPU][#AFTER]` (the GEMMs after
/// the first AFTER fail on the device, asynchronously), `wrong[@GPU]` (the GEMMs compute one
/// element wrong, silently).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    NoDevice,
    Oom,
    Kernel,
    Wrong,
}

#[derive(Debug, Clone, Copy)]
struct Fault {
    kind: Kind,
    gpu: Option<usize>,
    after: u64,
}

fn parse_faults(text: &str) -> Result<Vec<Fault>, String> {
    let mut out = Vec::new();
    for rule in text.split(';').map(str::trim).filter(|r| !r.is_empty()) {
        let (rest, after) = match rule.split_once('#') {
            Some((r, n)) => (r, n.parse().map_err(|_| format!("'{rule}': bad #AFTER"))?),
            None => (rule, 0),
        };
        let (kind, gpu) = match rest.split_once('@') {
            Some((k, g)) => (
                k,
                Some(g.parse().map_err(|_| format!("'{rule}': bad @GPU"))?),
            ),
            None => (rest, None),
        };
        let kind = match kind {
            "nodevice" => Kind::NoDevice,
            "oom" => Kind::Oom,
            "kernel" => Kind::Kernel,
            "wrong" => Kind::Wrong,
            other => return Err(format!("'{rule}': unknown failure '{other}'")),
        };
        out.push(Fault { kind, gpu, after });
    }
    Ok(out)
}

/// All the driver's state: devices, contexts, memory and cuBLAS handles.
struct Cuda {
    gpus: Vec<Gpu>,
    contexts: Vec<Context>,
    memory: BTreeMap<CuDevicePtr, Allocation>,
    next_address: CuDevicePtr,
    /// Host bytes behind all allocations, held under `HOST_LIMIT`.
    host_bytes: u64,
    handles: BTreeMap<usize, usize>,
    next_handle: usize,
    faults: Vec<Fault>,
}

/// The most host memory the double's device memory may take: tests multiply small matrices.
const HOST_LIMIT: u64 = 1 << 30;

/// Where device addresses start; allocations are 512-byte aligned, as cuMemAlloc's are.
const FIRST_ADDRESS: CuDevicePtr = 0x7f00_0000_0000;

const CONTEXT_TAG: usize = 0xc0_0000_0000;
const HANDLE_TAG: usize = 0xb1_0000_0000;

static CUDA: Mutex<Option<Cuda>> = Mutex::new(None);

thread_local! {
    /// The calling thread's current context (the device's index), as CUDA keeps one per thread.
    static CURRENT: Cell<Option<usize>> = const { Cell::new(None) };
}

fn lock() -> MutexGuard<'static, Option<Cuda>> {
    CUDA.lock().unwrap_or_else(|p| p.into_inner())
}

/// The devices of the capture, in NVML's (PCI) order; a MIG-enabled GPU as its first MIG
/// device, and only the first such device in all (CUDA enumerates one MIG device).
fn devices(capture: &Value) -> Vec<Gpu> {
    let mut out = Vec::new();
    let mut mig_seen = false;
    let ok = |d: &Value, k: &str| d.get(k).and_then(|a| a.get("ok")).cloned();
    for d in capture
        .get("devices")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let Some(name) = ok(d, "name").and_then(|v| v.as_str().map(str::to_string)) else {
            continue;
        };
        let Some(bus) = ok(d, "pci_bus_id").and_then(|v| v.as_str().map(str::to_string)) else {
            continue;
        };
        // NVML's `00000000:3B:00.0` with CUDA's four-digit domain.
        let bus_id = match bus.split_once(':') {
            Some((dom, rest)) if dom.len() > 4 => format!("{}:{rest}", &dom[dom.len() - 4..]),
            _ => bus.clone(),
        }
        .to_ascii_uppercase();
        let memory = ok(d, "memory_info");
        let free = memory
            .as_ref()
            .and_then(|m| m.get("free").or_else(|| m.get("total"))?.as_u64())
            .unwrap_or(0);
        let mig_on = ok(d, "mig_mode")
            .and_then(|m| m.get("current")?.as_bool())
            .unwrap_or(false);
        if !mig_on {
            out.push(Gpu { name, bus_id, free });
            continue;
        }
        let first = ok(d, "mig_devices").and_then(|list| {
            list.as_array()?
                .iter()
                .min_by_key(|m| m.get("index").and_then(Value::as_u64).unwrap_or(u64::MAX))
                .cloned()
        });
        if let (Some(m), false) = (first, mig_seen) {
            mig_seen = true;
            let total = m.get("memory_total").and_then(Value::as_u64).unwrap_or(0);
            let used = m.get("memory_used").and_then(Value::as_u64).unwrap_or(0);
            out.push(Gpu {
                name: m
                    .get("name")
                    .and_then(Value::as_str)
                    .map_or(name, str::to_string),
                bus_id,
                free: total.saturating_sub(used),
            });
        }
    }
    out
}

fn load() -> Result<Cuda, String> {
    let path = std::env::var("RIGCHECK_NVML_DOUBLE")
        .map_err(|_| "RIGCHECK_NVML_DOUBLE is not set: name the nvml.json whose GPUs to show")?;
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let capture: Value = serde_json::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    let faults = parse_faults(&std::env::var("RIGCHECK_CUDA_DOUBLE_FAIL").unwrap_or_default())
        .map_err(|e| format!("RIGCHECK_CUDA_DOUBLE_FAIL: {e}"))?;
    let gpus = devices(&capture);
    let contexts = gpus.iter().map(|_| Context::default()).collect();
    Ok(Cuda {
        gpus,
        contexts,
        memory: BTreeMap::new(),
        next_address: FIRST_ADDRESS,
        host_bytes: 0,
        handles: BTreeMap::new(),
        next_handle: 1,
        faults,
    })
}

impl Cuda {
    fn fault(&self, kind: Kind, gpu: usize) -> Option<Fault> {
        self.faults
            .iter()
            .find(|f| f.kind == kind && f.gpu.is_none_or(|g| g == gpu))
            .copied()
    }

    /// The allocation holding `len` bytes at `ptr`, and the offset of `ptr` in it.
    fn find(&self, ptr: CuDevicePtr, len: u64) -> Option<(CuDevicePtr, usize)> {
        let (base, a) = self.memory.range(..=ptr).next_back()?;
        let offset = ptr - base;
        (offset.checked_add(len)? <= a.bytes.len() as u64).then_some((*base, offset as usize))
    }

    /// Releases everything of a context whose last retain went.
    fn reset(&mut self, gpu: usize) {
        let mine: Vec<CuDevicePtr> = self
            .memory
            .iter()
            .filter(|(_, a)| a.gpu == gpu)
            .map(|(p, _)| *p)
            .collect();
        for p in mine {
            if let Some(a) = self.memory.remove(&p) {
                self.host_bytes -= a.bytes.len() as u64;
            }
        }
        if let Some(c) = self.contexts.get_mut(gpu) {
            *c = Context::default();
        }
    }
}

/// Runs `f` on the driver's state once `cuInit` has succeeded.
fn with<R>(not_initialized: R, f: impl FnOnce(&mut Cuda) -> R) -> R {
    match lock().as_mut() {
        Some(c) => f(c),
        None => not_initialized,
    }
}

/// The current context's device, live and without a sticky error.
fn current(c: &Cuda) -> Result<usize, CuResult> {
    let gpu = CURRENT.with(Cell::get).ok_or(cu::INVALID_CONTEXT)?;
    let ctx = c.contexts.get(gpu).ok_or(cu::INVALID_CONTEXT)?;
    if ctx.retains == 0 {
        return Err(cu::INVALID_CONTEXT);
    }
    if ctx.error != cu::SUCCESS {
        return Err(ctx.error);
    }
    Ok(gpu)
}

/// Writes `v` through the caller's pointer.
///
/// # Safety
/// `p` is null or valid for writing one `T`.
unsafe fn put<T>(p: *mut T, v: T) -> CuResult {
    if p.is_null() {
        return cu::INVALID_VALUE;
    }
    // SAFETY: not null; valid by the caller's contract.
    unsafe { p.write(v) };
    cu::SUCCESS
}

/// Copies `s` into a buffer of `len` bytes, cut to fit, NUL-terminated.
///
/// # Safety
/// `buf` is null or valid for writing `len` bytes.
unsafe fn put_text(buf: *mut c_char, len: c_int, s: &str) -> CuResult {
    if buf.is_null() || len <= 0 {
        return cu::INVALID_VALUE;
    }
    let n = s.len().min(len as usize - 1);
    // SAFETY: `buf` holds `len` > `n` bytes.
    unsafe {
        std::ptr::copy_nonoverlapping(s.as_ptr().cast::<c_char>(), buf, n);
        buf.add(n).write(0);
    }
    cu::SUCCESS
}

// ---- Driver API ----

#[no_mangle]
pub extern "C" fn cuInit(flags: c_uint) -> CuResult {
    if flags != 0 {
        return cu::INVALID_VALUE;
    }
    let mut g = lock();
    if g.is_none() {
        match load() {
            Ok(c) => *g = Some(c),
            Err(e) => {
                eprintln!("cuda double: {e}");
                return cu::UNKNOWN;
            }
        }
    }
    match g.as_ref() {
        Some(c) if c.gpus.is_empty() || c.faults.iter().any(|f| f.kind == Kind::NoDevice) => {
            // Every later call sees CUDA uninitialised, as after a failed cuInit.
            *g = None;
            cu::NO_DEVICE
        }
        Some(_) => cu::SUCCESS,
        None => cu::UNKNOWN,
    }
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetCount(count: *mut c_int) -> CuResult {
    with(cu::NOT_INITIALIZED, |c| {
        // SAFETY: the driver API: `count` points to an int.
        unsafe { put(count, c.gpus.len() as c_int) }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGet(device: *mut CuDevice, ordinal: c_int) -> CuResult {
    with(cu::NOT_INITIALIZED, |c| {
        if ordinal < 0 || ordinal as usize >= c.gpus.len() {
            return cu::INVALID_DEVICE;
        }
        // SAFETY: the driver API: `device` points to a CUdevice.
        unsafe { put(device, ordinal) }
    })
}

fn gpu_of(c: &Cuda, dev: CuDevice) -> Result<&Gpu, CuResult> {
    usize::try_from(dev)
        .ok()
        .and_then(|d| c.gpus.get(d))
        .ok_or(cu::INVALID_DEVICE)
}

#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetName(name: *mut c_char, len: c_int, dev: CuDevice) -> CuResult {
    with(cu::NOT_INITIALIZED, |c| match gpu_of(c, dev) {
        // SAFETY: the driver API: `name` holds `len` bytes.
        Ok(g) => unsafe { put_text(name, len, &g.name) },
        Err(e) => e,
    })
}

/// `[domain]:[bus]:[device].[function]`; the buffer must hold 13 bytes.
#[no_mangle]
pub unsafe extern "C" fn cuDeviceGetPCIBusId(
    bus_id: *mut c_char,
    len: c_int,
    dev: CuDevice,
) -> CuResult {
    with(cu::NOT_INITIALIZED, |c| match gpu_of(c, dev) {
        Ok(_) if len < 13 => cu::INVALID_VALUE,
        // SAFETY: the driver API: `bus_id` holds `len` bytes.
        Ok(g) => unsafe { put_text(bus_id, len, &g.bus_id) },
        Err(e) => e,
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuDevicePrimaryCtxRetain(ctx: *mut CuContext, dev: CuDevice) -> CuResult {
    with(cu::NOT_INITIALIZED, |c| {
        if let Err(e) = gpu_of(c, dev) {
            return e;
        }
        if ctx.is_null() {
            return cu::INVALID_VALUE;
        }
        let gpu = dev as usize;
        if let Some(x) = c.contexts.get_mut(gpu) {
            x.retains += 1;
        }
        let handle = std::ptr::without_provenance_mut(CONTEXT_TAG | (gpu + 1));
        // SAFETY: the driver API: `ctx` points to a CUcontext; checked not null.
        unsafe { put(ctx, handle) }
    })
}

#[no_mangle]
pub extern "C" fn cuDevicePrimaryCtxRelease_v2(dev: CuDevice) -> CuResult {
    with(cu::NOT_INITIALIZED, |c| {
        if let Err(e) = gpu_of(c, dev) {
            return e;
        }
        let gpu = dev as usize;
        let Some(x) = c.contexts.get_mut(gpu) else {
            return cu::INVALID_DEVICE;
        };
        if x.retains == 0 {
            return cu::INVALID_CONTEXT;
        }
        x.retains -= 1;
        if x.retains == 0 {
            c.reset(gpu);
        }
        cu::SUCCESS
    })
}

#[no_mangle]
pub extern "C" fn cuCtxSetCurrent(ctx: CuContext) -> CuResult {
    with(cu::NOT_INITIALIZED, |c| {
        if ctx.is_null() {
            CURRENT.with(|x| x.set(None));
            return cu::SUCCESS;
        }
        let v = ctx as usize;
        let gpu = (v & !CONTEXT_TAG).wrapping_sub(1);
        let live =
            v & CONTEXT_TAG == CONTEXT_TAG && c.contexts.get(gpu).is_some_and(|x| x.retains > 0);
        if !live {
            return cu::INVALID_CONTEXT;
        }
        CURRENT.with(|x| x.set(Some(gpu)));
        cu::SUCCESS
    })
}

/// Work runs as it is queued, so synchronising only reports a kernel's sticky error; with
/// pacing (`RIGCHECK_CUDA_DOUBLE_TFLOPS`) it also waits until the paced work is done.
#[no_mangle]
pub extern "C" fn cuCtxSynchronize() -> CuResult {
    let (code, until) = with((cu::NOT_INITIALIZED, None), |c| match current(c) {
        Ok(g) => (cu::SUCCESS, c.contexts.get(g).and_then(|x| x.busy_until)),
        Err(e) => (e, None),
    });
    if let Some(t) = until {
        std::thread::sleep(t.saturating_duration_since(std::time::Instant::now()));
    }
    code
}

/// `RIGCHECK_CUDA_DOUBLE_TFLOPS=FP32[,FP16]`: the rate the GEMMs run at, in TFLOPS (FP16
/// as FP32 when not given). A paced GEMM takes 2·m·n·k / rate on a fixed schedule, and
/// computes only what rigcheck reads back: the first launch after a memset computes the
/// first and last column of C; the later ones (timed, never read) compute nothing.
fn pace(p: Precision) -> Option<f64> {
    let v = std::env::var("RIGCHECK_CUDA_DOUBLE_TFLOPS").ok()?;
    let mut it = v.split(',').map(|x| x.trim().parse::<f64>().ok());
    let fp32 = it.next().flatten()?;
    let fp16 = it.next().flatten().unwrap_or(fp32);
    let r = match p {
        Precision::F32 => fp32,
        Precision::F16 => fp16,
    };
    (r > 0.0).then_some(r * 1e12)
}

/// A paced launch: the work is queued on the device's schedule, and computed only where it
/// will be read.
fn launch_paced(
    handle: CublasHandle,
    s: Shape,
    p: Precision,
    scalars: (u32, u32),
    ptrs: [u64; 3],
    rate: f64,
) -> c_int {
    let first = {
        let mut g = lock();
        let Some(c) = g.as_mut() else {
            return blas::NOT_INITIALIZED;
        };
        let Some(&gpu) = handle_id(handle).and_then(|id| c.handles.get(&id)) else {
            return blas::NOT_INITIALIZED;
        };
        let Some(ctx) = c.contexts.get_mut(gpu) else {
            return blas::NOT_INITIALIZED;
        };
        if ctx.retains == 0 {
            return blas::NOT_INITIALIZED;
        }
        if ctx.error != cu::SUCCESS {
            return blas::EXECUTION_FAILED;
        }
        let now = std::time::Instant::now();
        let work = std::time::Duration::from_secs_f64(2.0 * (s.m * s.n * s.k) as f64 / rate);
        // On schedule from the last piece of work, unless the device sat idle since.
        let start = match ctx.busy_until {
            Some(t) if t + std::time::Duration::from_millis(20) > now => t,
            _ => now,
        };
        ctx.busy_until = Some(start + work);
        ctx.since_fill += 1;
        ctx.since_fill == 1
    };
    if !first {
        return blas::SUCCESS;
    }
    let size = match p {
        Precision::F32 => 4,
        Precision::F16 => 2,
    } as u64;
    let mut columns = vec![0];
    if s.n > 1 {
        columns.push(s.n - 1);
    }
    for j in columns {
        let b_off = if s.trans_b { j } else { j * s.ldb } as u64;
        let one = Shape { n: 1, ..s };
        let r = launch(
            handle,
            one,
            p,
            scalars,
            [
                ptrs[0],
                ptrs[1] + b_off * size,
                ptrs[2] + (j * s.ldc) as u64 * size,
            ],
        );
        if r != blas::SUCCESS {
            return r;
        }
    }
    blas::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cuMemAlloc_v2(ptr: *mut CuDevicePtr, bytes: usize) -> CuResult {
    with(cu::NOT_INITIALIZED, |c| {
        let gpu = match current(c) {
            Ok(g) => g,
            Err(e) => return e,
        };
        if ptr.is_null() || bytes == 0 {
            return cu::INVALID_VALUE;
        }
        let size = bytes as u64;
        let room = c.gpus.get(gpu).map_or(0, |g| g.free);
        let used = c.contexts.get(gpu).map_or(0, |x| x.allocated);
        if c.fault(Kind::Oom, gpu).is_some()
            || used + size > room
            || c.host_bytes + size > HOST_LIMIT
        {
            return cu::OUT_OF_MEMORY;
        }
        let address = c.next_address;
        c.next_address += size.div_ceil(512) * 512;
        c.memory.insert(
            address,
            Allocation {
                gpu,
                bytes: vec![0; bytes],
            },
        );
        c.host_bytes += size;
        if let Some(x) = c.contexts.get_mut(gpu) {
            x.allocated += size;
        }
        // SAFETY: the driver API: `ptr` points to a CUdeviceptr; checked not null.
        unsafe { put(ptr, address) }
    })
}

#[no_mangle]
pub extern "C" fn cuMemFree_v2(ptr: CuDevicePtr) -> CuResult {
    with(cu::NOT_INITIALIZED, |c| match c.memory.remove(&ptr) {
        Some(a) => {
            c.host_bytes -= a.bytes.len() as u64;
            if let Some(x) = c.contexts.get_mut(a.gpu) {
                x.allocated -= a.bytes.len() as u64;
            }
            cu::SUCCESS
        }
        None => cu::INVALID_VALUE,
    })
}

/// Fills `count` elements of `N` bytes at `ptr` with `value`.
fn memset<const N: usize>(ptr: CuDevicePtr, value: [u8; N], count: usize) -> CuResult {
    with(cu::NOT_INITIALIZED, |c| {
        if let Err(e) = current(c) {
            return e;
        }
        if !ptr.is_multiple_of(N as u64) {
            return cu::INVALID_VALUE;
        }
        let len = (count as u64).saturating_mul(N as u64);
        let Some((base, offset)) = c.find(ptr, len) else {
            return cu::INVALID_VALUE;
        };
        let mut gpu = None;
        if let Some(a) = c.memory.get_mut(&base) {
            for chunk in a.bytes[offset..offset + len as usize].chunks_exact_mut(N) {
                chunk.copy_from_slice(&value);
            }
            gpu = Some(a.gpu);
        }
        if let Some(x) = gpu.and_then(|g| c.contexts.get_mut(g)) {
            x.since_fill = 0;
        }
        cu::SUCCESS
    })
}

#[no_mangle]
pub extern "C" fn cuMemsetD32_v2(ptr: CuDevicePtr, value: c_uint, count: usize) -> CuResult {
    memset(ptr, value.to_le_bytes(), count)
}

#[no_mangle]
pub extern "C" fn cuMemsetD16_v2(ptr: CuDevicePtr, value: u16, count: usize) -> CuResult {
    memset(ptr, value.to_le_bytes(), count)
}

#[no_mangle]
pub unsafe extern "C" fn cuMemcpyDtoH_v2(
    dst: *mut c_void,
    src: CuDevicePtr,
    bytes: usize,
) -> CuResult {
    with(cu::NOT_INITIALIZED, |c| {
        if let Err(e) = current(c) {
            return e;
        }
        if dst.is_null() {
            return cu::INVALID_VALUE;
        }
        let Some((base, offset)) = c.find(src, bytes as u64) else {
            return cu::INVALID_VALUE;
        };
        let Some(a) = c.memory.get(&base) else {
            return cu::INVALID_VALUE;
        };
        // SAFETY: the driver API: `dst` holds `bytes` bytes; the source range was checked.
        unsafe {
            std::ptr::copy_nonoverlapping(a.bytes[offset..].as_ptr(), dst.cast::<u8>(), bytes);
        }
        cu::SUCCESS
    })
}

fn error_text(e: CuResult) -> (&'static CStr, &'static CStr) {
    match e {
        cu::SUCCESS => (c"CUDA_SUCCESS", c"no error"),
        cu::INVALID_VALUE => (c"CUDA_ERROR_INVALID_VALUE", c"invalid argument"),
        cu::OUT_OF_MEMORY => (c"CUDA_ERROR_OUT_OF_MEMORY", c"out of memory"),
        cu::NOT_INITIALIZED => (c"CUDA_ERROR_NOT_INITIALIZED", c"initialization error"),
        cu::NO_DEVICE => (
            c"CUDA_ERROR_NO_DEVICE",
            c"no CUDA-capable device is detected",
        ),
        cu::INVALID_DEVICE => (c"CUDA_ERROR_INVALID_DEVICE", c"invalid device ordinal"),
        cu::INVALID_CONTEXT => (c"CUDA_ERROR_INVALID_CONTEXT", c"invalid device context"),
        cu::ILLEGAL_ADDRESS => (
            c"CUDA_ERROR_ILLEGAL_ADDRESS",
            c"an illegal memory access was encountered",
        ),
        cu::LAUNCH_FAILED => (c"CUDA_ERROR_LAUNCH_FAILED", c"unspecified launch failure"),
        cu::UNKNOWN => (c"CUDA_ERROR_UNKNOWN", c"unknown error"),
        _ => (c"", c""),
    }
}

/// Points `out` at one of a code's texts; `CUDA_ERROR_INVALID_VALUE` (and a null string) for
/// a code it does not know, as CUDA does.
///
/// # Safety
/// `out` is null or points to a `const char *`.
unsafe fn put_error_text(text: &'static CStr, out: *mut *const c_char) -> CuResult {
    if text.is_empty() {
        // SAFETY: the caller's contract.
        unsafe { put(out, std::ptr::null()) };
        return cu::INVALID_VALUE;
    }
    // SAFETY: the caller's contract.
    unsafe { put(out, text.as_ptr()) }
}

#[no_mangle]
pub unsafe extern "C" fn cuGetErrorName(e: CuResult, out: *mut *const c_char) -> CuResult {
    // SAFETY: the driver API: `out` points to a `const char *`.
    unsafe { put_error_text(error_text(e).0, out) }
}

#[no_mangle]
pub unsafe extern "C" fn cuGetErrorString(e: CuResult, out: *mut *const c_char) -> CuResult {
    // SAFETY: the driver API: `out` points to a `const char *`.
    unsafe { put_error_text(error_text(e).1, out) }
}

// ---- cuBLAS ----

#[no_mangle]
pub unsafe extern "C" fn cublasCreate_v2(handle: *mut CublasHandle) -> c_int {
    if handle.is_null() {
        return blas::INVALID_VALUE;
    }
    with(blas::NOT_INITIALIZED, |c| {
        let Ok(gpu) = current(c) else {
            return blas::NOT_INITIALIZED;
        };
        let id = c.next_handle;
        c.next_handle += 1;
        c.handles.insert(id, gpu);
        // SAFETY: cuBLAS: `handle` points to a cublasHandle_t; checked not null.
        unsafe { handle.write(std::ptr::without_provenance_mut(HANDLE_TAG | id)) };
        blas::SUCCESS
    })
}

fn handle_id(h: CublasHandle) -> Option<usize> {
    let v = h as usize;
    (v & HANDLE_TAG == HANDLE_TAG).then_some(v & !HANDLE_TAG)
}

#[no_mangle]
pub extern "C" fn cublasDestroy_v2(handle: CublasHandle) -> c_int {
    with(blas::NOT_INITIALIZED, |c| {
        match handle_id(handle).and_then(|id| c.handles.remove(&id)) {
            Some(_) => blas::SUCCESS,
            None => blas::NOT_INITIALIZED,
        }
    })
}

const OP_N: c_int = 0;
const OP_T: c_int = 1;
const OP_C: c_int = 2;

/// The checks cuBLAS makes of a GEMM's arguments (`CUBLAS_STATUS_INVALID_VALUE`).
fn shape(
    transa: c_int,
    transb: c_int,
    m: c_int,
    n: c_int,
    k: c_int,
    lda: c_int,
    ldb: c_int,
    ldc: c_int,
) -> Option<Shape> {
    let op = |t: c_int| matches!(t, OP_N | OP_T | OP_C).then_some(t != OP_N);
    let (trans_a, trans_b) = (op(transa)?, op(transb)?);
    let u = |v: c_int| usize::try_from(v).ok();
    let (m, n, k) = (u(m)?, u(n)?, u(k)?);
    let (lda, ldb, ldc) = (u(lda)?, u(ldb)?, u(ldc)?);
    let rows_a = if trans_a { k } else { m };
    let rows_b = if trans_b { n } else { k };
    (lda >= rows_a.max(1) && ldb >= rows_b.max(1) && ldc >= m.max(1)).then_some(Shape {
        trans_a,
        trans_b,
        m,
        n,
        k,
        lda,
        ldb,
        ldc,
    })
}

/// The element type of one GEMM.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Precision {
    F32,
    F16,
}

/// Runs one GEMM "on the device" of `handle`: it reads A, B and C from device memory, and the
/// faults decide whether the kernel fails (sticky, seen at the next synchronisation) or
/// writes one element wrong. Arguments are the caller's; alpha and beta already read.
fn launch(
    handle: CublasHandle,
    s: Shape,
    p: Precision,
    scalars: (u32, u32),
    ptrs: [u64; 3],
) -> c_int {
    let mut g = lock();
    let Some(c) = g.as_mut() else {
        return blas::NOT_INITIALIZED;
    };
    let Some(&gpu) = handle_id(handle).and_then(|id| c.handles.get(&id)) else {
        return blas::NOT_INITIALIZED;
    };
    let Some(ctx) = c.contexts.get_mut(gpu) else {
        return blas::NOT_INITIALIZED;
    };
    if ctx.retains == 0 {
        return blas::NOT_INITIALIZED;
    }
    if ctx.error != cu::SUCCESS {
        return blas::EXECUTION_FAILED;
    }
    ctx.launches += 1;
    let launches = ctx.launches;
    if let Some(f) = c.fault(Kind::Kernel, gpu) {
        if launches > f.after {
            if let Some(x) = c.contexts.get_mut(gpu) {
                x.error = cu::LAUNCH_FAILED;
            }
            return blas::SUCCESS;
        }
    }
    let size = match p {
        Precision::F32 => 4,
        Precision::F16 => 2,
    };
    let (ea, eb, ec) = s.extents();
    let read = |c: &Cuda, ptr: u64, elems: usize| -> Option<Vec<u8>> {
        let len = (elems * size) as u64;
        let (base, off) = c.find(ptr, len)?;
        let a = c.memory.get(&base)?;
        (a.gpu == gpu).then(|| a.bytes[off..off + len as usize].to_vec())
    };
    let (Some(a), Some(b), Some(cm)) = (
        read(c, ptrs[0], ea),
        read(c, ptrs[1], eb),
        read(c, ptrs[2], ec),
    ) else {
        // An address outside this device's memory: the kernel faults, asynchronously.
        if let Some(x) = c.contexts.get_mut(gpu) {
            x.error = cu::ILLEGAL_ADDRESS;
        }
        return blas::SUCCESS;
    };
    let wrong = c.fault(Kind::Wrong, gpu).is_some();
    // The multiply runs without the lock: other devices' threads go on meanwhile.
    drop(g);
    let out = match p {
        Precision::F32 => {
            let f = |v: &[u8]| -> Vec<f32> {
                v.chunks_exact(4)
                    .map(|x| f32::from_le_bytes([x[0], x[1], x[2], x[3]]))
                    .collect()
            };
            let mut cv = f(&cm);
            gemm::sgemm(
                &s,
                f32::from_bits(scalars.0),
                &f(&a),
                &f(&b),
                f32::from_bits(scalars.1),
                &mut cv,
            );
            if wrong {
                if let Some(x) = cv.first_mut() {
                    *x += 1.0;
                }
            }
            cv.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()
        }
        Precision::F16 => {
            let h = |v: &[u8]| -> Vec<u16> {
                v.chunks_exact(2)
                    .map(|x| u16::from_le_bytes([x[0], x[1]]))
                    .collect()
            };
            let mut cv = h(&cm);
            gemm::hgemm(
                &s,
                scalars.0 as u16,
                &h(&a),
                &h(&b),
                scalars.1 as u16,
                &mut cv,
            );
            if wrong {
                if let Some(x) = cv.first_mut() {
                    *x = half::from_f32(half::to_f32(*x) + 1.0);
                }
            }
            cv.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>()
        }
    };
    let mut g = lock();
    if let Some(c) = g.as_mut() {
        // C may have been freed meanwhile: then the result has nowhere to go, as on a GPU.
        if let Some((base, off)) = c.find(ptrs[2], out.len() as u64) {
            if let Some(alloc) = c.memory.get_mut(&base) {
                alloc.bytes[off..off + out.len()].copy_from_slice(&out);
            }
        }
    }
    blas::SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn cublasSgemm_v2(
    handle: CublasHandle,
    transa: c_int,
    transb: c_int,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: *const f32,
    a: *const c_void,
    lda: c_int,
    b: *const c_void,
    ldb: c_int,
    beta: *const f32,
    c: *mut c_void,
    ldc: c_int,
) -> c_int {
    let Some(s) = shape(transa, transb, m, n, k, lda, ldb, ldc) else {
        return blas::INVALID_VALUE;
    };
    if alpha.is_null() || beta.is_null() {
        return blas::INVALID_VALUE;
    }
    // SAFETY: cuBLAS (host pointer mode): alpha and beta point to floats; checked not null.
    let scalars = unsafe { (alpha.read().to_bits(), beta.read().to_bits()) };
    if let Some(rate) = pace(Precision::F32) {
        return launch_paced(
            handle,
            s,
            Precision::F32,
            scalars,
            [a as u64, b as u64, c as u64],
            rate,
        );
    }
    launch(
        handle,
        s,
        Precision::F32,
        scalars,
        [a as u64, b as u64, c as u64],
    )
}

const CUDA_R_32F: c_int = 0;
const CUDA_R_16F: c_int = 2;
const CUBLAS_COMPUTE_16F: c_int = 64;
const CUBLAS_COMPUTE_32F: c_int = 68;

/// FP16 inputs and output with FP16 compute (alpha, beta as halves), or FP32 throughout
/// (alpha, beta as floats); other combinations are `CUBLAS_STATUS_NOT_SUPPORTED` here.
#[no_mangle]
pub unsafe extern "C" fn cublasGemmEx(
    handle: CublasHandle,
    transa: c_int,
    transb: c_int,
    m: c_int,
    n: c_int,
    k: c_int,
    alpha: *const c_void,
    a: *const c_void,
    a_type: c_int,
    lda: c_int,
    b: *const c_void,
    b_type: c_int,
    ldb: c_int,
    beta: *const c_void,
    c: *mut c_void,
    c_type: c_int,
    ldc: c_int,
    compute: c_int,
    algo: c_int,
) -> c_int {
    let Some(s) = shape(transa, transb, m, n, k, lda, ldb, ldc) else {
        return blas::INVALID_VALUE;
    };
    // CUBLAS_GEMM_DEFAULT (-1), the numbered algorithms and their tensor-op forms.
    if !matches!(algo, -1..=23 | 99..=115) || alpha.is_null() || beta.is_null() {
        return blas::INVALID_VALUE;
    }
    let p = match (a_type, b_type, c_type, compute) {
        (CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F) => Precision::F16,
        (CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F) => Precision::F32,
        _ => return blas::NOT_SUPPORTED,
    };
    // SAFETY: cuBLAS (host pointer mode): alpha and beta point to the compute type's scalar
    // (a half for COMPUTE_16F, a float for COMPUTE_32F); checked not null.
    let scalars = unsafe {
        match p {
            Precision::F16 => (
                u32::from(alpha.cast::<u16>().read()),
                u32::from(beta.cast::<u16>().read()),
            ),
            Precision::F32 => (
                alpha.cast::<f32>().read().to_bits(),
                beta.cast::<f32>().read().to_bits(),
            ),
        }
    };
    if let Some(rate) = pace(p) {
        return launch_paced(handle, s, p, scalars, [a as u64, b as u64, c as u64], rate);
    }
    launch(handle, s, p, scalars, [a as u64, b as u64, c as u64])
}
