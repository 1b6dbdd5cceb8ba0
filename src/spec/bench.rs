//! What `rigcheck bench` measured, as it appears in the JSON report (`bench` section): plain
//! serde structs, no measuring code.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::note::Note;

/// Everything one `rigcheck bench` run measured; `None` for parts not asked for or not
/// measurable, with a note saying which.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct BenchReport {
    /// Time budget given per benchmark (`--seconds`).
    pub seconds: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<CpuBench>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<MemoryBench>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk: Option<DiskBench>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu: Option<GpuBench>,
    /// How figures were obtained, and why a part or a peak is missing (`bench.disk.peak...`).
    pub notes: Vec<Note>,
}

/// Throughput at one thread count.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct CpuPoint {
    pub threads: u32,
    /// Images finished by all threads together.
    pub images: u64,
    pub seconds: f64,
    pub images_per_s: f64,
    /// `images_per_s` over the one-thread figure.
    pub scaling: f64,
}

/// The augmentation pipeline's scaling curve.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct CpuBench {
    pub image_width: u32,
    pub image_height: u32,
    /// Size in bytes of the JPEG every image is decoded from.
    pub jpeg_bytes: u64,
    pub crop_size: u32,
    pub points: Vec<CpuPoint>,
    /// GPUs the workers are shared among (0 when none was found; counted as 1).
    pub gpus: u32,
    /// Data-loader workers per GPU process, by preflight's rule (check `cpu.workers`): usable
    /// CPUs ÷ GPU processes (at least one), less one for the trainer.
    pub suggested_workers_per_gpu: u32,
}

/// One kernel at one thread count.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct StreamResult {
    /// `copy` or `triad`.
    pub kernel: String,
    pub threads: u32,
    /// Best repetition, STREAM byte counting.
    pub bytes_per_s: f64,
    pub repetitions: u32,
}

/// Copy and triad on one and all threads, and the DIMMs' peak.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct MemoryBench {
    /// Size of each of the three arrays.
    pub array_bytes: u64,
    pub results: Vec<StreamResult>,
    /// Σ over populated DIMMs of speed (MT/s) × 8 bytes; null when DIMM speeds are unknown.
    pub peak_bytes_per_s: Option<u64>,
    /// Channels assumed for the peak (one per populated DIMM).
    pub peak_channels: Option<u32>,
}

/// A sequential read and the link it went through.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct DiskBench {
    /// File that was read.
    pub path: String,
    /// Whether the test file was made for this run (and deleted after).
    pub temporary_file: bool,
    pub file_bytes: u64,
    pub bytes_read: u64,
    pub seconds: f64,
    pub bytes_per_s: f64,
    /// Read size of each request.
    pub block_bytes: u64,
    /// Concurrent readers (requests in flight).
    pub readers: u32,
    /// Whether O_DIRECT was used; false means buffered after dropping the cache.
    pub direct_io: bool,
    /// Kernel name of the drive holding the file, e.g. `nvme0n1`.
    pub drive: Option<String>,
    /// Link description, e.g. `PCIe 8.0 GT/s x4`, `SATA 6 Gb/s`.
    pub link: Option<String>,
    /// Payload bytes per second the link carries at most.
    pub link_bytes_per_s: Option<u64>,
}

/// Matrix-multiply throughput of one GPU.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct GpuMatmul {
    /// CUDA device ordinal.
    pub cuda_index: u32,
    /// PCI address, the key that matches `gpus[]` in the inventory.
    pub pci_address: Option<String>,
    pub name: Option<String>,
    /// Square matrix size n (n × n × n multiply, 2n³ FLOPs).
    pub n: u32,
    pub fp32_tflops: Option<f64>,
    /// FP16 inputs, FP16 accumulate (tensor cores where present).
    pub fp16_tflops: Option<f64>,
    /// Derived peak from the inventory (`gpus[].fp32_tflops`).
    pub fp32_peak_tflops: Option<f64>,
    /// Derived peak from the inventory (`gpus[].fp16_tensor_tflops`).
    pub fp16_peak_tflops: Option<f64>,
}

/// What one GPU did during the soak.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct GpuSoak {
    pub cuda_index: u32,
    pub pci_address: Option<String>,
    pub max_temperature_c: Option<u32>,
    pub min_sm_clock_mhz: Option<u32>,
    pub max_sm_clock_mhz: Option<u32>,
    /// SM clock at the last sample, after the GPU has warmed.
    pub last_sm_clock_mhz: Option<u32>,
    pub max_power_w: Option<f64>,
    /// Every throttle reason NVML reported in any sample (idle excluded), e.g. `SW_POWER_CAP`.
    pub throttle_reasons: Vec<String>,
    /// The highest PCIe generation the link reached in any sample: under load a link rises
    /// to its top generation, so one that stays below it is slow, not saving power.
    #[serde(default)]
    pub max_pcie_gen: Option<u32>,
    pub samples: u32,
}

/// Matmul figures and the soak.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Default)]
pub struct GpuBench {
    pub per_gpu: Vec<GpuMatmul>,
    /// All GPUs multiplying at once, summed.
    pub all_fp32_tflops: Option<f64>,
    pub all_fp16_tflops: Option<f64>,
    pub soak_seconds: f64,
    pub soak: Vec<GpuSoak>,
}
