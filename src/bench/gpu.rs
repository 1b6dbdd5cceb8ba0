//! GPU benchmark: FP32 and FP16 matrix-multiply TFLOPS per GPU and for all GPUs at once, next
//! to the derived peak, and a thermal soak sampled through NVML.
//!
//! CUDA is loaded at run time (dlopen of `libcuda.so.1` and `libcublas.so.*` through
//! `libloading`, feature `gpu-bench`), so the binary builds without a CUDA toolkit and runs
//! without a driver; then the GPU part is unknown with a note saying why.

use std::time::Duration;

pub use crate::spec::bench::{GpuBench, GpuMatmul, GpuSoak};

use crate::spec::{Notes, Spec};

/// Side of the square matrices multiplied: large enough to keep any GPU's SMs busy, small
/// enough (3 × 256 MiB in FP32) for the smallest board that trains.
const MATRIX_N: u32 = 8192;

/// Runs the GPU benchmarks; `None` with a note when CUDA cannot be used here.
pub fn run(spec: &Spec, budget: Duration, notes: &mut Notes) -> Option<GpuBench> {
    run_sized(spec, test_size().unwrap_or(MATRIX_N), budget, notes)
}

/// Test hook: `RIGCHECK_TEST_GPU_MATRIX_N` sets the matrix side, so a test of the whole
/// command multiplies small matrices (where the CUDA library multiplies on the CPU).
fn test_size() -> Option<u32> {
    std::env::var("RIGCHECK_TEST_GPU_MATRIX_N")
        .ok()?
        .parse()
        .ok()
        .filter(|n| (1..=MATRIX_N).contains(n))
}

/// As `run`, with matrices of `n` × `n` (tests use small ones).
#[cfg(feature = "gpu-bench")]
pub fn run_sized(spec: &Spec, n: u32, budget: Duration, notes: &mut Notes) -> Option<GpuBench> {
    match cuda::bench(spec, n, budget, notes) {
        Ok(b) => Some(b),
        Err(e) => {
            notes.add("bench.gpu", format!("CUDA not available: {e}"));
            None
        }
    }
}

/// As `run`, with matrices of `n` × `n` (tests use small ones).
#[cfg(not(feature = "gpu-bench"))]
pub fn run_sized(_spec: &Spec, _n: u32, _budget: Duration, notes: &mut Notes) -> Option<GpuBench> {
    notes.add(
        "bench.gpu",
        "CUDA not available: this rigcheck was built without the gpu-bench feature; \
         rebuild with `cargo build --release --features gpu-bench`",
    );
    None
}

/// Driver API and cuBLAS, loaded at run time.
#[cfg(feature = "gpu-bench")]
#[allow(unsafe_code)]
mod cuda {
    use std::ffi::{c_char, c_int, c_void};
    use std::sync::Barrier;
    use std::time::{Duration, Instant};

    use libloading::Library;

    use super::{GpuBench, GpuMatmul, GpuSoak};
    use crate::probe::gpu::mig;
    use crate::spec::{Gpu, Notes, Spec};

    type CuResult = c_int;
    type CuDevice = c_int;
    type CuContext = *mut c_void;
    type CuDevPtr = u64;
    type CublasHandle = *mut c_void;

    const CUBLAS_OP_N: c_int = 0;
    const CUDA_R_16F: c_int = 2;
    const CUBLAS_COMPUTE_16F: c_int = 64;
    const CUBLAS_GEMM_DEFAULT: c_int = -1;
    /// 1.0 and 0.0 as IEEE half bits (alpha, beta of the FP16 multiply; inputs are all 1.0 so
    /// each output is n, exact in FP16 up to n = 2048 and finite up to 65504).
    const HALF_ONE: u16 = 0x3C00;
    const HALF_ZERO: u16 = 0;

    /// Function pointers copied out of the libraries, which `Cuda` keeps loaded.
    struct Cuda {
        _cu: Library,
        _blas: Library,
        init: unsafe extern "C" fn(u32) -> CuResult,
        device_count: unsafe extern "C" fn(*mut c_int) -> CuResult,
        device_get: unsafe extern "C" fn(*mut CuDevice, c_int) -> CuResult,
        device_name: unsafe extern "C" fn(*mut c_char, c_int, CuDevice) -> CuResult,
        pci_bus_id: unsafe extern "C" fn(*mut c_char, c_int, CuDevice) -> CuResult,
        ctx_retain: unsafe extern "C" fn(*mut CuContext, CuDevice) -> CuResult,
        ctx_release: unsafe extern "C" fn(CuDevice) -> CuResult,
        ctx_set: unsafe extern "C" fn(CuContext) -> CuResult,
        ctx_sync: unsafe extern "C" fn() -> CuResult,
        mem_alloc: unsafe extern "C" fn(*mut CuDevPtr, usize) -> CuResult,
        mem_free: unsafe extern "C" fn(CuDevPtr) -> CuResult,
        memset_d32: unsafe extern "C" fn(CuDevPtr, u32, usize) -> CuResult,
        memset_d16: unsafe extern "C" fn(CuDevPtr, u16, usize) -> CuResult,
        memcpy_dtoh: unsafe extern "C" fn(*mut c_void, CuDevPtr, usize) -> CuResult,
        /// CUDA's name of an error code (`CUDA_ERROR_NO_DEVICE`), where the driver has it.
        error_name: Option<unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult>,
        blas_create: unsafe extern "C" fn(*mut CublasHandle) -> c_int,
        blas_destroy: unsafe extern "C" fn(CublasHandle) -> c_int,
        #[allow(clippy::type_complexity)]
        sgemm: unsafe extern "C" fn(
            CublasHandle,
            c_int,
            c_int,
            c_int,
            c_int,
            c_int,
            *const f32,
            *const c_void,
            c_int,
            *const c_void,
            c_int,
            *const f32,
            *mut c_void,
            c_int,
        ) -> c_int,
        #[allow(clippy::type_complexity)]
        gemm_ex: unsafe extern "C" fn(
            CublasHandle,
            c_int,
            c_int,
            c_int,
            c_int,
            c_int,
            *const c_void,
            *const c_void,
            c_int,
            c_int,
            *const c_void,
            c_int,
            c_int,
            *const c_void,
            *mut c_void,
            c_int,
            c_int,
            c_int,
            c_int,
        ) -> c_int,
    }

    fn load(names: &[&str]) -> Result<Library, String> {
        // The first name's error: it is the library's proper name (`libcuda.so.1`).
        let mut first = None;
        for n in names {
            // SAFETY: loading runs the library's initialisers; libcuda and libcublas are
            // NVIDIA's own libraries, whose initialisers are safe to run in any process.
            match unsafe { Library::new(n) } {
                Ok(l) => return Ok(l),
                Err(e) => {
                    first.get_or_insert_with(|| e.to_string());
                }
            }
        }
        Err(first.unwrap_or_default())
    }

    macro_rules! sym {
        ($lib:expr, $name:literal) => {
            // SAFETY: the field's type is the C signature documented for this symbol in the
            // CUDA driver API / cuBLAS reference; the library stays loaded inside `Cuda`.
            *unsafe { $lib.get($name) }.map_err(|e| e.to_string())?
        };
    }

    impl Cuda {
        /// Both libraries; `gpus` is how many GPUs the inventory found, to say what a missing
        /// libcuda (which comes with NVIDIA's driver) means on this machine.
        fn open(gpus: usize) -> Result<Self, String> {
            let cu = load(&["libcuda.so.1", "libcuda.so"]).map_err(|e| {
                if gpus == 0 {
                    format!("no NVIDIA GPU found and no NVIDIA driver installed ({e})")
                } else {
                    format!(
                        "NVIDIA driver not installed: {gpus} NVIDIA GPU(s) found, but the \
                         driver's CUDA library cannot be loaded ({e}); install NVIDIA's driver"
                    )
                }
            })?;
            let blas = load(&[
                "libcublas.so.12",
                "libcublas.so.13",
                "libcublas.so.11",
                "libcublas.so",
            ])
            .map_err(|e| format!("cuBLAS: {e}"))?;
            Ok(Self {
                init: sym!(cu, b"cuInit\0"),
                device_count: sym!(cu, b"cuDeviceGetCount\0"),
                device_get: sym!(cu, b"cuDeviceGet\0"),
                device_name: sym!(cu, b"cuDeviceGetName\0"),
                pci_bus_id: sym!(cu, b"cuDeviceGetPCIBusId\0"),
                ctx_retain: sym!(cu, b"cuDevicePrimaryCtxRetain\0"),
                ctx_release: sym!(cu, b"cuDevicePrimaryCtxRelease_v2\0"),
                ctx_set: sym!(cu, b"cuCtxSetCurrent\0"),
                ctx_sync: sym!(cu, b"cuCtxSynchronize\0"),
                mem_alloc: sym!(cu, b"cuMemAlloc_v2\0"),
                mem_free: sym!(cu, b"cuMemFree_v2\0"),
                memset_d32: sym!(cu, b"cuMemsetD32_v2\0"),
                memset_d16: sym!(cu, b"cuMemsetD16_v2\0"),
                memcpy_dtoh: sym!(cu, b"cuMemcpyDtoH_v2\0"),
                // SAFETY: the CUDA driver API's signature of cuGetErrorName (CUDA 6.0 on).
                error_name: unsafe { cu.get(b"cuGetErrorName\0") }.ok().map(|f| *f),
                blas_create: sym!(blas, b"cublasCreate_v2\0"),
                blas_destroy: sym!(blas, b"cublasDestroy_v2\0"),
                sgemm: sym!(blas, b"cublasSgemm_v2\0"),
                gemm_ex: sym!(blas, b"cublasGemmEx\0"),
                _cu: cu,
                _blas: blas,
            })
        }
    }

    impl Cuda {
        /// A failed driver call in words: `cuInit failed: CUDA_ERROR_NO_DEVICE (100)`.
        fn check(&self, what: &str, rc: CuResult) -> Result<(), String> {
            if rc == 0 {
                return Ok(());
            }
            let mut name: *const c_char = std::ptr::null();
            // SAFETY: `name` is a live out-pointer; on success the driver points it at a
            // static NUL-terminated string.
            let named = self
                .error_name
                .is_some_and(|f| unsafe { f(rc, &mut name) } == 0 && !name.is_null());
            if named {
                // SAFETY: checked above: a static C string of the driver.
                let text = unsafe { std::ffi::CStr::from_ptr(name) }.to_string_lossy();
                Err(format!("{what} failed: {text} ({rc})"))
            } else {
                Err(format!("{what} failed with error {rc}"))
            }
        }
    }

    /// A failed cuBLAS call in words, by the cublasStatus_t names of cublas_api.h.
    fn check_blas(what: &str, rc: c_int) -> Result<(), String> {
        let name = match rc {
            0 => return Ok(()),
            1 => "CUBLAS_STATUS_NOT_INITIALIZED",
            3 => "CUBLAS_STATUS_ALLOC_FAILED",
            7 => "CUBLAS_STATUS_INVALID_VALUE",
            8 => "CUBLAS_STATUS_ARCH_MISMATCH",
            11 => "CUBLAS_STATUS_MAPPING_ERROR",
            13 => "CUBLAS_STATUS_EXECUTION_FAILED",
            14 => "CUBLAS_STATUS_INTERNAL_ERROR",
            15 => "CUBLAS_STATUS_NOT_SUPPORTED",
            16 => "CUBLAS_STATUS_LICENSE_ERROR",
            _ => return Err(format!("{what} failed with status {rc}")),
        };
        Err(format!("{what} failed: {name} ({rc})"))
    }

    /// An IEEE half's bits as an `f32`, for reading back FP16 results.
    fn half_to_f32(h: u16) -> f32 {
        let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
        let exp = i32::from((h >> 10) & 0x1f);
        let man = f32::from(h & 0x3ff);
        match exp {
            0 => sign * man * 2f32.powi(-24),
            0x1f if man == 0.0 => sign * f32::INFINITY,
            0x1f => f32::NAN,
            _ => sign * (1.0 + man / 1024.0) * 2f32.powi(exp - 15),
        }
    }

    fn c_text(buf: &[c_char]) -> String {
        let bytes: Vec<u8> = buf
            .iter()
            .take_while(|c| **c != 0)
            .map(|c| *c as u8)
            .collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// One device with its primary context current on the calling thread, three n × n
    /// matrices and a cuBLAS handle; all freed on drop.
    struct Gemm<'a> {
        cu: &'a Cuda,
        dev: CuDevice,
        handle: CublasHandle,
        bufs: [CuDevPtr; 3],
        n: c_int,
    }

    impl<'a> Gemm<'a> {
        fn new(cu: &'a Cuda, ordinal: c_int, n: u32) -> Result<Self, String> {
            let mut dev = 0;
            let mut ctx: CuContext = std::ptr::null_mut();
            // SAFETY: out-pointers point to live locals; the context is released in Drop.
            unsafe {
                cu.check("cuDeviceGet", (cu.device_get)(&mut dev, ordinal))?;
                cu.check("cuDevicePrimaryCtxRetain", (cu.ctx_retain)(&mut ctx, dev))?;
            }
            let mut g = Gemm {
                cu,
                dev,
                handle: std::ptr::null_mut(),
                bufs: [0; 3],
                n: c_int::try_from(n).map_err(|e| e.to_string())?,
            };
            let bytes = n as usize * n as usize * 4;
            // SAFETY: the context was just retained; each allocation is freed in Drop, which
            // skips zero pointers left by a failed step.
            unsafe {
                cu.check("cuCtxSetCurrent", (cu.ctx_set)(ctx))?;
                for b in &mut g.bufs {
                    cu.check("cuMemAlloc", (cu.mem_alloc)(b, bytes))?;
                }
                check_blas("cublasCreate", (cu.blas_create)(&mut g.handle))?;
            }
            Ok(g)
        }

        /// Fills A and B with 1.0 in the precision to be multiplied.
        fn fill(&self, half: bool) -> Result<(), String> {
            let count = self.n as usize * self.n as usize;
            // SAFETY: both buffers hold n² × 4 bytes, enough for n² f32 or 2n² halves.
            unsafe {
                for b in &self.bufs[..2] {
                    if half {
                        self.cu
                            .check("cuMemsetD16", (self.cu.memset_d16)(*b, HALF_ONE, count))?;
                    } else {
                        self.cu.check(
                            "cuMemsetD32",
                            (self.cu.memset_d32)(*b, 1.0f32.to_bits(), count),
                        )?;
                    }
                }
                self.cu.check("cuCtxSynchronize", (self.cu.ctx_sync)())
            }
        }

        /// Queues one n × n × n multiply.
        fn multiply(&self, half: bool) -> Result<(), String> {
            let n = self.n;
            let [a, b, c] = self.bufs.map(|p| p as *mut c_void);
            // SAFETY: the buffers hold n × n elements of the type passed, the handle is live,
            // and alpha/beta point to locals of the type cuBLAS expects for this compute type.
            unsafe {
                if half {
                    let (alpha, beta) = (HALF_ONE, HALF_ZERO);
                    check_blas(
                        "cublasGemmEx",
                        (self.cu.gemm_ex)(
                            self.handle,
                            CUBLAS_OP_N,
                            CUBLAS_OP_N,
                            n,
                            n,
                            n,
                            (&alpha as *const u16).cast(),
                            a,
                            CUDA_R_16F,
                            n,
                            b,
                            CUDA_R_16F,
                            n,
                            (&beta as *const u16).cast(),
                            c,
                            CUDA_R_16F,
                            n,
                            CUBLAS_COMPUTE_16F,
                            CUBLAS_GEMM_DEFAULT,
                        ),
                    )
                } else {
                    let (alpha, beta) = (1.0f32, 0.0f32);
                    check_blas(
                        "cublasSgemm",
                        (self.cu.sgemm)(
                            self.handle,
                            CUBLAS_OP_N,
                            CUBLAS_OP_N,
                            n,
                            n,
                            n,
                            &alpha,
                            a,
                            n,
                            b,
                            n,
                            &beta,
                            c,
                            n,
                        ),
                    )
                }
            }
        }

        /// Checks the warm-up's product: with A and B all ones every element of C is n. FP16
        /// counts in ones only up to 2048, so past that a sum rounded to half at each step
        /// may hold anywhere from 2048 to n. The first and the last column are read back.
        fn verify(&self, half: bool) -> Result<(), String> {
            let n = self.n as usize;
            let size = if half { 2 } else { 4 };
            let want = self.n as f32;
            let low = if half { want.min(2048.0) } else { want };
            for col in [0, n - 1] {
                let mut bytes = vec![0u8; n * size];
                let from = self.bufs[2] + (col * n * size) as u64;
                // SAFETY: `bytes` holds the n elements of one column; C holds n columns.
                self.cu.check("cuMemcpyDtoH", unsafe {
                    (self.cu.memcpy_dtoh)(bytes.as_mut_ptr().cast(), from, bytes.len())
                })?;
                for (row, e) in bytes.chunks_exact(size).enumerate() {
                    let v = if half {
                        half_to_f32(u16::from_le_bytes([e[0], e[1]]))
                    } else {
                        f32::from_le_bytes([e[0], e[1], e[2], e[3]])
                    };
                    if !(low..=want).contains(&v) {
                        return Err(format!(
                            "{} computed {v} at row {row}, column {col} of an all-ones \
                             product where {} is right: the GPU or its driver computes wrong \
                             results (see `dmesg` for Xid errors)",
                            if half { "cublasGemmEx" } else { "cublasSgemm" },
                            if low < want {
                                format!("{low} to {want}")
                            } else {
                                format!("{want}")
                            }
                        ));
                    }
                }
            }
            Ok(())
        }

        /// Multiplies until `deadline` (after one warm-up, whose result is checked) and
        /// returns TFLOPS.
        fn tflops(&self, half: bool, deadline: Instant) -> Result<f64, String> {
            self.fill(half)?;
            self.multiply(half)?;
            // SAFETY: the context is current on this thread.
            self.cu
                .check("cuCtxSynchronize", unsafe { (self.cu.ctx_sync)() })?;
            self.verify(half)?;
            let start = Instant::now();
            let mut count = 0u64;
            // One multiply per synchronise: n = 8192 keeps a GPU busy for milliseconds to a
            // tenth of a second, so the wait between is noise, and the deadline is overrun by
            // one multiply at most.
            loop {
                self.multiply(half)?;
                // SAFETY: as above.
                self.cu
                    .check("cuCtxSynchronize", unsafe { (self.cu.ctx_sync)() })?;
                count += 1;
                if Instant::now() >= deadline {
                    break;
                }
            }
            let n = f64::from(self.n);
            Ok(2.0 * n * n * n * count as f64 / start.elapsed().as_secs_f64() / 1e12)
        }
    }

    impl Drop for Gemm<'_> {
        fn drop(&mut self) {
            // SAFETY: only resources created in `new` are released, each once.
            unsafe {
                if !self.handle.is_null() {
                    (self.cu.blas_destroy)(self.handle);
                }
                for b in self.bufs {
                    if b != 0 {
                        (self.cu.mem_free)(b);
                    }
                }
                (self.cu.ctx_release)(self.dev);
            }
        }
    }

    /// All the GPU measurements; an error means CUDA could not be used at all.
    pub fn bench(
        spec: &Spec,
        n: u32,
        budget: Duration,
        notes: &mut Notes,
    ) -> Result<GpuBench, String> {
        let start = Instant::now();
        let cu = Cuda::open(spec.gpus.len())?;
        let mut count = 0;
        // SAFETY: plain calls into the driver with a live out-pointer.
        unsafe {
            cu.check("cuInit", (cu.init)(0))?;
            cu.check("cuDeviceGetCount", (cu.device_count)(&mut count))?;
        }
        if count == 0 {
            return Err("the driver sees no CUDA device".into());
        }
        let mut per_gpu = Vec::new();
        // The multiplies share the first half of the budget (FP32 and FP16 on each GPU, then
        // on all at once), each to a fixed end; the soak has the rest.
        let half = start + budget / 2;
        let ends = super::super::clock::shares(start, half, 2 * count as usize + 2);
        let end_of = |k: usize| ends.get(k).copied().unwrap_or(half);
        for ordinal in 0..count {
            let (name, pci) = identify(&cu, ordinal);
            let inv = pci.as_ref().and_then(|p| {
                spec.gpus.iter().find(|g| {
                    g.pci_address
                        .as_deref()
                        .is_some_and(|a| a.eq_ignore_ascii_case(p))
                })
            });
            let (fp32_peak_tflops, fp16_peak_tflops) =
                inv.map_or((None, None), |g| peaks(g, name.as_deref()));
            let mut m = GpuMatmul {
                cuda_index: ordinal as u32,
                pci_address: pci,
                name,
                n,
                fp32_tflops: None,
                fp16_tflops: None,
                fp32_peak_tflops,
                fp16_peak_tflops,
            };
            let field = format!("bench.gpu.per_gpu[{ordinal}]");
            match Gemm::new(&cu, ordinal, n) {
                Ok(g) => {
                    let k = 2 * ordinal as usize;
                    m.fp32_tflops =
                        notes.take(&format!("{field}.fp32_tflops"), g.tflops(false, end_of(k)));
                    m.fp16_tflops = notes.take(
                        &format!("{field}.fp16_tflops"),
                        g.tflops(true, end_of(k + 1)),
                    );
                }
                Err(e) => notes.add(&field, e),
            }
            per_gpu.push(m);
        }
        let k = 2 * count as usize;
        let all32 = all_at_once(&cu, count, n, false, end_of(k));
        let all16 = all_at_once(&cu, count, n, true, end_of(k + 1));
        let all_fp32_tflops = notes.take("bench.gpu.all_fp32_tflops", all32);
        let all_fp16_tflops = notes.take("bench.gpu.all_fp16_tflops", all16);
        let soak_start = Instant::now();
        let soak = soak(&cu, &per_gpu, n, start + budget, notes);
        Ok(GpuBench {
            per_gpu,
            all_fp32_tflops,
            all_fp16_tflops,
            soak_seconds: soak_start.elapsed().as_secs_f64(),
            soak,
        })
    }

    /// The peaks a CUDA device is measured against: its GPU's; with MIG on, where CUDA shows
    /// one MIG device in the GPU's place, the MIG instance's of the profile CUDA names (FP16
    /// scaled from the GPU's by its share of the tensor cores), unknown where no instance
    /// has that profile.
    fn peaks(g: &Gpu, cuda_name: Option<&str>) -> (Option<f64>, Option<f64>) {
        if g.mig_enabled != Some(true) {
            return (g.fp32_tflops, g.fp16_tensor_tflops);
        }
        let profile = cuda_name.and_then(mig::profile_of);
        let Some(m) = g
            .mig_instances
            .iter()
            .find(|m| profile.is_some() && m.profile == profile)
        else {
            return (None, None);
        };
        let fp16 = match (g.fp16_tensor_tflops, m.tensor_cores, g.tensor_cores) {
            (Some(t), Some(part), Some(all)) if all > 0 => {
                Some((t * f64::from(part) / f64::from(all) * 100.0).round() / 100.0)
            }
            _ => None,
        };
        (m.fp32_tflops, fp16)
    }

    fn identify(cu: &Cuda, ordinal: c_int) -> (Option<String>, Option<String>) {
        let mut dev = 0;
        let mut name = [0 as c_char; 128];
        let mut pci = [0 as c_char; 32];
        // SAFETY: buffers are as long as the lengths passed; the driver NUL-terminates.
        unsafe {
            if (cu.device_get)(&mut dev, ordinal) != 0 {
                return (None, None);
            }
            let n = ((cu.device_name)(name.as_mut_ptr(), 128, dev) == 0).then(|| c_text(&name));
            let p = ((cu.pci_bus_id)(pci.as_mut_ptr(), 32, dev) == 0).then(|| c_text(&pci));
            // cuDeviceGetPCIBusId gives `0000:3B:00.0`; sysfs and the inventory use lower case.
            (n, p.map(|p| p.to_ascii_lowercase()))
        }
    }

    /// Every GPU multiplying at the same time, one host thread each; the sum of their rates.
    fn all_at_once(
        cu: &Cuda,
        count: c_int,
        n: u32,
        half: bool,
        deadline: Instant,
    ) -> Result<f64, String> {
        let barrier = Barrier::new(count as usize);
        std::thread::scope(|s| {
            let hs: Vec<_> = (0..count)
                .map(|o| {
                    let barrier = &barrier;
                    s.spawn(move || {
                        let g = Gemm::new(cu, o, n);
                        barrier.wait();
                        g?.tflops(half, deadline)
                    })
                })
                .collect();
            hs.into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err("GPU thread panicked".into()))
                })
                .sum()
        })
    }

    /// FP16 multiplies on every GPU until `end` while NVML samples each one twice a second
    /// (and once at `end`, so there is a sample even when the multiplies before ran late).
    fn soak(
        cu: &Cuda,
        gpus: &[GpuMatmul],
        n: u32,
        end: Instant,
        notes: &mut Notes,
    ) -> Vec<GpuSoak> {
        use nvml_wrapper::bitmasks::device::ThrottleReasons;
        use nvml_wrapper::enum_wrappers::device::{Clock, TemperatureSensor};
        use std::sync::atomic::{AtomicBool, Ordering};

        let nvml = match nvml_wrapper::Nvml::init() {
            Ok(n) => Some(n),
            Err(e) => {
                notes.add(
                    "bench.gpu.soak",
                    format!("NVML not available, no samples: {e}"),
                );
                None
            }
        };
        let mut out: Vec<GpuSoak> = gpus
            .iter()
            .map(|g| GpuSoak {
                cuda_index: g.cuda_index,
                pci_address: g.pci_address.clone(),
                max_temperature_c: None,
                min_sm_clock_mhz: None,
                max_sm_clock_mhz: None,
                last_sm_clock_mhz: None,
                max_power_w: None,
                throttle_reasons: Vec::new(),
                max_pcie_gen: None,
                samples: 0,
            })
            .collect();
        let stop = AtomicBool::new(false);
        std::thread::scope(|s| {
            for g in gpus {
                let stop = &stop;
                s.spawn(move || {
                    let Ok(gemm) = Gemm::new(cu, g.cuda_index as c_int, n) else {
                        return;
                    };
                    if gemm.fill(true).is_err() {
                        return;
                    }
                    // One multiply per look at `stop`: the soak ends one multiply after `end`.
                    while !stop.load(Ordering::Relaxed) {
                        if gemm.multiply(true).is_err() {
                            return;
                        }
                        // SAFETY: the context is current on this thread.
                        unsafe { (cu.ctx_sync)() };
                    }
                });
            }
            loop {
                let left = end.saturating_duration_since(Instant::now());
                std::thread::sleep(left.min(Duration::from_millis(500)));
                let last = Instant::now() >= end;
                let Some(nvml) = &nvml else {
                    if last {
                        break;
                    }
                    continue;
                };
                for o in &mut out {
                    let Some(d) = o
                        .pci_address
                        .as_deref()
                        .and_then(|p| nvml.device_by_pci_bus_id(p).ok())
                    else {
                        continue;
                    };
                    o.samples += 1;
                    if let Ok(t) = d.temperature(TemperatureSensor::Gpu) {
                        o.max_temperature_c = Some(o.max_temperature_c.map_or(t, |m| m.max(t)));
                    }
                    if let Ok(c) = d.clock_info(Clock::SM) {
                        o.min_sm_clock_mhz = Some(o.min_sm_clock_mhz.map_or(c, |m| m.min(c)));
                        o.max_sm_clock_mhz = Some(o.max_sm_clock_mhz.map_or(c, |m| m.max(c)));
                        o.last_sm_clock_mhz = Some(c);
                    }
                    if let Ok(p) = d.power_usage() {
                        let w = f64::from(p) / 1000.0;
                        o.max_power_w = Some(o.max_power_w.map_or(w, |m| m.max(w)));
                    }
                    if let Ok(g) = d.current_pcie_link_gen() {
                        o.max_pcie_gen = Some(o.max_pcie_gen.map_or(g, |m| m.max(g)));
                    }
                    if let Ok(r) = d.current_throttle_reasons() {
                        for (name, _) in (r - ThrottleReasons::GPU_IDLE).iter_names() {
                            if !o.throttle_reasons.iter().any(|x| x == name) {
                                o.throttle_reasons.push(name.to_string());
                            }
                        }
                    }
                }
                if last {
                    break;
                }
            }
            stop.store(true, Ordering::Relaxed);
        });
        out
    }
}
