//! NVIDIA GPU product table: what each board is (name, chip, SMs, clocks, memory, rated
//! peaks), keyed by PCI device id and, where boards share an id, PCI subsystem.
//!
//! The table exists for two reasons. NVML's maximum SM clock is not the rated boost on
//! GeForce and workstation boards (an RTX 3090 reports 2100 MHz against a rated 1695), so a
//! rated peak needs the rated clock; and without an NVIDIA driver a GPU is only a PCI id, which
//! this table turns into a product. It is plain static data: no parsing, nothing read at run
//! time. Every figure is NVIDIA's (datasheet, whitepaper or product page, named in `source`)
//! unless the row's `note` says it is derived or taken from elsewhere, and figures nobody
//! publishes are `None`. `docs/gpu-products.md` explains the units and how to add a row.

use crate::spec::GpuDatasheet;
use crate::text::same_product_name;

/// Market segment of a board, as NVIDIA sells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Segment {
    /// Tesla / data-center accelerators (P100 … B200, T4, A-, L- and H-series).
    DataCenter,
    /// Quadro and NVIDIA RTX professional boards.
    Workstation,
    /// GeForce and TITAN boards.
    GeForce,
}

/// Memory technology on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemoryType {
    /// GDDR5.
    Gddr5,
    /// GDDR5X.
    Gddr5x,
    /// GDDR6.
    Gddr6,
    /// GDDR6X (PAM4).
    Gddr6x,
    /// GDDR7.
    Gddr7,
    /// HBM2.
    Hbm2,
    /// HBM2e.
    Hbm2e,
    /// HBM3.
    Hbm3,
    /// HBM3e.
    Hbm3e,
}

/// How fast a board's tensor cores run dense FP16, relative to the per-tensor-core rate of its
/// architecture (`derive::ArchFacts::fp16_flops_per_tc_clk`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TensorRate {
    /// No tensor cores (before Volta, and the GTX 16xx Turing boards).
    NoTensorCores,
    /// Full rate whether the product accumulates in FP16 or FP32 (data center, workstation,
    /// TITAN).
    Full,
    /// Full rate accumulating in FP16, half rate accumulating in FP32 (GeForce, Turing on).
    HalfWithFp32Accumulate,
    /// Half rate whatever the accumulator (the L40 datasheet).
    Half,
}

/// A PCI Express link: generation and lanes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PcieLink {
    /// Generation (3 = 8 GT/s, 4 = 16 GT/s, 5 = 32 GT/s).
    pub gen: u8,
    /// Lanes (x16, x8).
    pub lanes: u8,
}

/// One board: identity, configuration and rated figures.
///
/// Counts and clocks are per GPU; a multi-GPU board (A16) has one row per GPU, and its note
/// says which figures (power) are for the whole board.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Product {
    /// PCI device id (vendor 0x10de).
    pub device: u16,
    /// PCI subsystem (vendor, device) pairs that identify this board where several boards
    /// share `device`; empty where the device id alone is enough.
    pub subsystems: &'static [(u16, u16)],
    /// True for the row `lookup` returns when the subsystem is unknown or not listed. Exactly
    /// one row per device id has it; the row's note says why it is the default where several
    /// boards share the id.
    pub default_for_device: bool,
    /// Product name as nvidia-smi prints it (`Quadro RTX 6000`, `NVIDIA A100-SXM4-80GB`).
    pub name: &'static str,
    /// GPU chip (`TU102`, `GA100`).
    pub chip: &'static str,
    /// Architecture as nvidia-smi prints `<product_architecture>` (`Turing`, `Ada Lovelace`).
    pub architecture: &'static str,
    /// CUDA compute capability (major, minor).
    pub compute_capability: (u32, u32),
    /// Market segment.
    pub segment: Segment,
    /// Streaming multiprocessors; `None` where NVIDIA does not publish it.
    pub sms: Option<u32>,
    /// FP32 lanes ("CUDA cores").
    pub cuda_cores: Option<u32>,
    /// Tensor cores (0 where there are none).
    pub tensor_cores: Option<u32>,
    /// Rated base clock, MHz.
    pub base_clock_mhz: Option<u32>,
    /// Rated boost clock, MHz: the clock NVIDIA's FP32 rating is computed at (reference board
    /// for GeForce, not Founders Edition).
    pub boost_clock_mhz: Option<u32>,
    /// Clock NVIDIA's tensor rating is computed at, where it is not `boost_clock_mhz`
    /// (Hopper quotes tensor rates at 1830 MHz against a 1980 MHz boost).
    pub tensor_clock_mhz: Option<u32>,
    /// Memory as sold, in bytes; GPU vendors' "GB" is GiB (see `docs/gpu-products.md`).
    pub memory_bytes: Option<u64>,
    /// Memory technology.
    pub memory_type: MemoryType,
    /// Memory bus width, bits.
    pub bus_width_bits: Option<u32>,
    /// Memory data rate per pin, Gbit/s (NVML's memory clock is half of it).
    pub data_rate_gbps: Option<f64>,
    /// Published memory bandwidth, GB/s (10^9 bytes per second).
    pub bandwidth_gb_s: Option<f64>,
    /// Published FP32 (non-tensor) peak, TFLOPS.
    pub fp32_tflops: Option<f64>,
    /// Published dense (non-sparse) FP16 tensor peak accumulating in FP16, TFLOPS. Where the
    /// datasheet gives only a sparse or FP8 figure the note says how this one follows from it.
    pub fp16_tensor_tflops: Option<f64>,
    /// Tensor rate class of the board (GeForce halves FP32 accumulation).
    pub tensor_rate: TensorRate,
    /// Board power (maximum / total board power), W.
    pub board_power_w: Option<u32>,
    /// Host PCI Express link of the board.
    pub pcie: Option<PcieLink>,
    /// Where the figures come from (NVIDIA documents by name).
    pub source: &'static str,
    /// What is derived, taken from elsewhere, or left out, and why.
    pub note: &'static str,
}

impl Product {
    /// Dense FP16 tensor peak accumulating in FP32: half the FP16-accumulate figure on GeForce
    /// boards, the same figure elsewhere.
    pub fn fp16_tensor_fp32_acc_tflops(&self) -> Option<f64> {
        let t = self.fp16_tensor_tflops?;
        Some(match self.tensor_rate {
            TensorRate::HalfWithFp32Accumulate => t / 2.0,
            _ => t,
        })
    }

    /// FP32 peak at the rated boost clock (cores × 2 FLOPs × clock), for rows whose published
    /// rating is missing or to check one that is there.
    pub fn fp32_tflops_at_boost(&self) -> Option<f64> {
        Some(f64::from(self.cuda_cores?) * 2.0 * f64::from(self.boost_clock_mhz?) / 1e6)
    }

    /// Clock the tensor rating refers to: `tensor_clock_mhz`, else the boost clock.
    pub fn rated_tensor_clock_mhz(&self) -> Option<u32> {
        self.tensor_clock_mhz.or(self.boost_clock_mhz)
    }

    /// Bandwidth from bus width × data rate, GB/s.
    pub fn bandwidth_from_bus_gb_s(&self) -> Option<f64> {
        Some(f64::from(self.bus_width_bits?) / 8.0 * self.data_rate_gbps?)
    }
}

impl Segment {
    /// How the report and JSON name it.
    pub fn as_str(self) -> &'static str {
        match self {
            Segment::DataCenter => "data center",
            Segment::Workstation => "workstation",
            Segment::GeForce => "geforce",
        }
    }
}

impl MemoryType {
    /// As datasheets write it: `GDDR6X`, `HBM2e`.
    pub fn as_str(self) -> &'static str {
        match self {
            MemoryType::Gddr5 => "GDDR5",
            MemoryType::Gddr5x => "GDDR5X",
            MemoryType::Gddr6 => "GDDR6",
            MemoryType::Gddr6x => "GDDR6X",
            MemoryType::Gddr7 => "GDDR7",
            MemoryType::Hbm2 => "HBM2",
            MemoryType::Hbm2e => "HBM2e",
            MemoryType::Hbm3 => "HBM3",
            MemoryType::Hbm3e => "HBM3e",
        }
    }

    /// True for GDDR memory, where turning ECC on takes 1/16 of it for check bits (a Tesla
    /// T4 with ECC on reports 15360 of its 16384 MiB); HBM keeps ECC out of band.
    pub fn is_gddr(self) -> bool {
        !matches!(
            self,
            MemoryType::Hbm2 | MemoryType::Hbm2e | MemoryType::Hbm3 | MemoryType::Hbm3e
        )
    }
}

impl Product {
    /// The row as the report's `datasheet` object, with the PCI ids it was found by.
    pub fn datasheet(&self, subsystem: Option<(u16, u16)>) -> GpuDatasheet {
        let (major, minor) = self.compute_capability;
        let note = (!self.note.is_empty()).then(|| self.note.to_string());
        GpuDatasheet {
            name: self.name.to_string(),
            pci_id: format!("10de:{:04x}", self.device),
            pci_subsystem: subsystem.map(|(v, d)| format!("{v:04x}:{d:04x}")),
            chip: self.chip.to_string(),
            architecture: self.architecture.to_string(),
            compute_capability: format!("{major}.{minor}"),
            segment: self.segment.as_str().to_string(),
            sm_count: self.sms,
            cuda_cores: self.cuda_cores,
            tensor_cores: self.tensor_cores,
            base_clock_mhz: self.base_clock_mhz,
            boost_clock_mhz: self.boost_clock_mhz,
            tensor_clock_mhz: self.tensor_clock_mhz,
            memory_bytes: self.memory_bytes,
            memory_type: self.memory_type.as_str().to_string(),
            memory_bus_width_bits: self.bus_width_bits,
            memory_data_rate_gbps: self.data_rate_gbps,
            memory_bandwidth_bytes_per_s: self.bandwidth_gb_s.map(|g| (g * 1e9).round() as u64),
            fp32_tflops: self.fp32_tflops,
            fp16_tensor_tflops: self.fp16_tensor_tflops,
            board_power_w: self.board_power_w,
            pcie_gen: self.pcie.map(|p| u32::from(p.gen)),
            pcie_width: self.pcie.map(|p| u32::from(p.lanes)),
            source: self.source.to_string(),
            note,
        }
    }
}

/// The row of `device` whose name is `name`, among the boards sharing that id (a Quadro RTX
/// 8000 with a subsystem the table does not list is still found by its name).
pub fn lookup_by_name(device: u16, name: &str) -> Option<&'static Product> {
    PRODUCTS
        .iter()
        .find(|p| p.device == device && same_product_name(p.name, name))
}

/// Finds the board for a PCI device id and subsystem: the row listing that subsystem, else
/// the device id's default row, else `None` (an id this table does not know).
pub fn lookup(device: u16, subsystem: Option<(u16, u16)>) -> Option<&'static Product> {
    let mut default = None;
    for p in PRODUCTS.iter().filter(|p| p.device == device) {
        if subsystem.is_some_and(|s| p.subsystems.contains(&s)) {
            return Some(p);
        }
        if p.default_for_device && default.is_none() {
            default = Some(p);
        }
    }
    default
}

/// `n` GiB in bytes.
const fn gib(n: u64) -> Option<u64> {
    Some(n << 30)
}

/// A PCIe link of generation `gen` and `lanes` lanes.
const fn pcie(gen: u8, lanes: u8) -> Option<PcieLink> {
    Some(PcieLink { gen, lanes })
}

// Sources shared by several rows.
const SRC_P100_PCIE: &str = "NVIDIA Tesla P100 PCIe datasheet";
const SRC_V100: &str =
    "NVIDIA Tesla V100 GPU Architecture whitepaper, Table 1; NVIDIA V100 datasheet";
const SRC_A100: &str =
    "NVIDIA A100 Tensor Core GPU Architecture whitepaper, Table 1; NVIDIA A100 datasheet";
const SRC_H100: &str =
    "NVIDIA H100 Tensor Core GPU Architecture whitepaper, Table 3; NVIDIA H100 datasheet";
const SRC_QUADRO_RTX: &str =
    "NVIDIA Turing GPU Architecture whitepaper, Appendix A; NVIDIA Quadro RTX 6000/8000 datasheet";
const SRC_QUADRO_RTX_PASSIVE: &str = "NVIDIA Quadro RTX 6000/8000 passive (server) datasheet";
const SRC_RTX_A: &str = "NVIDIA RTX A-series datasheets (A2000, A4000, A4500, A5000, A5500, A6000)";
const SRC_RTX_ADA: &str = "NVIDIA RTX Ada Generation datasheets (2000, 4000, 4500, 5000, 6000)";
const SRC_RTX_PRO: &str = "NVIDIA RTX PRO 6000 Blackwell datasheets";
const SRC_GTX10: &str = "NVIDIA GeForce GTX 10 series product specifications (nvidia.com)";
const SRC_TURING_WP: &str = "NVIDIA Turing GPU Architecture whitepaper, Appendix A";
const SRC_TURING_GEFORCE: &str =
    "NVIDIA GeForce RTX 20 / GTX 16 series product specifications (nvidia.com)";
const SRC_GA102_WP: &str = "NVIDIA Ampere GA102 GPU Architecture whitepaper, Appendix A";
const SRC_RTX30: &str = "NVIDIA GeForce RTX 30 series product specifications (nvidia.com)";
const SRC_ADA_WP: &str = "NVIDIA Ada GPU Architecture whitepaper, Appendix A";
const SRC_RTX40: &str = "NVIDIA GeForce RTX 40 series product specifications (nvidia.com)";
const SRC_BLACKWELL_WP: &str = "NVIDIA RTX Blackwell GPU Architecture whitepaper, Appendix A";
const SRC_RTX50: &str = "NVIDIA GeForce RTX 50 series product specifications (nvidia.com)";

// Notes shared by several rows.
const NOTE_TPU_CLOCK: &str = "Clocks from the TechPowerUp GPU Database: NVIDIA's datasheet gives \
    none; they reproduce NVIDIA's TFLOPS figures.";
const NOTE_AMPERE_SPARSE: &str = "Clocks from the TechPowerUp GPU Database (the datasheet gives \
    none). The datasheet's tensor figure is with sparsity; the dense figure here is half of it.";
const NOTE_ADA_FP8: &str = "Clocks from the TechPowerUp GPU Database (the datasheet gives none). \
    The datasheet's 'Tensor Performance' is FP8 with sparsity; dense FP16 here is a quarter of it.";
const NOTE_GEFORCE_NO_RATING: &str = "NVIDIA publishes no TFLOPS for this board; \
    Product::fp32_tflops_at_boost gives the rate at the rated boost.";

// Rows that more than one device id or subsystem shares, as bases for the variants below.

const P100_PCIE_16GB: Product = Product {
    device: 0x15f8,
    subsystems: &[],
    default_for_device: true,
    name: "Tesla P100-PCIE-16GB",
    chip: "GP100",
    architecture: "Pascal",
    compute_capability: (6, 0),
    segment: Segment::DataCenter,
    sms: Some(56),
    cuda_cores: Some(3584),
    tensor_cores: Some(0),
    base_clock_mhz: None,
    boost_clock_mhz: Some(1303),
    tensor_clock_mhz: None,
    memory_bytes: gib(16),
    memory_type: MemoryType::Hbm2,
    bus_width_bits: Some(4096),
    data_rate_gbps: Some(1.43),
    bandwidth_gb_s: Some(732.0),
    fp32_tflops: Some(9.3),
    fp16_tensor_tflops: None,
    tensor_rate: TensorRate::NoTensorCores,
    board_power_w: Some(250),
    pcie: pcie(3, 16),
    source: SRC_P100_PCIE,
    note: "NVIDIA gives 9.3 TFLOPS but no clock; 1303 MHz is the boost that rating implies \
        (TechPowerUp lists 1329 MHz, which would give 9.5).",
};

const V100_SXM2_16GB: Product = Product {
    device: 0x1db1,
    subsystems: &[],
    default_for_device: true,
    name: "Tesla V100-SXM2-16GB",
    chip: "GV100",
    architecture: "Volta",
    compute_capability: (7, 0),
    segment: Segment::DataCenter,
    sms: Some(80),
    cuda_cores: Some(5120),
    tensor_cores: Some(640),
    base_clock_mhz: None,
    boost_clock_mhz: Some(1530),
    tensor_clock_mhz: None,
    memory_bytes: gib(16),
    memory_type: MemoryType::Hbm2,
    bus_width_bits: Some(4096),
    data_rate_gbps: Some(1.75),
    bandwidth_gb_s: Some(900.0),
    fp32_tflops: Some(15.7),
    fp16_tensor_tflops: Some(125.0),
    tensor_rate: TensorRate::Full,
    board_power_w: Some(300),
    pcie: pcie(3, 16),
    source: SRC_V100,
    note: "",
};

const V100_PCIE_16GB: Product = Product {
    device: 0x1db4,
    name: "Tesla V100-PCIE-16GB",
    boost_clock_mhz: Some(1380),
    fp32_tflops: Some(14.0),
    fp16_tensor_tflops: Some(112.0),
    board_power_w: Some(250),
    ..V100_SXM2_16GB
};

const A100_SXM4_40GB: Product = Product {
    device: 0x20b0,
    subsystems: &[],
    default_for_device: true,
    name: "NVIDIA A100-SXM4-40GB",
    chip: "GA100",
    architecture: "Ampere",
    compute_capability: (8, 0),
    segment: Segment::DataCenter,
    sms: Some(108),
    cuda_cores: Some(6912),
    tensor_cores: Some(432),
    base_clock_mhz: None,
    boost_clock_mhz: Some(1410),
    tensor_clock_mhz: None,
    memory_bytes: gib(40),
    memory_type: MemoryType::Hbm2,
    bus_width_bits: Some(5120),
    data_rate_gbps: Some(2.43),
    bandwidth_gb_s: Some(1555.0),
    fp32_tflops: Some(19.5),
    fp16_tensor_tflops: Some(312.0),
    tensor_rate: TensorRate::Full,
    board_power_w: Some(400),
    pcie: pcie(4, 16),
    source: SRC_A100,
    note: "",
};

const H100_SXM5_80GB: Product = Product {
    device: 0x2330,
    subsystems: &[(0x10de, 0x16c0), (0x10de, 0x16c1)],
    default_for_device: true,
    name: "NVIDIA H100 80GB HBM3",
    chip: "GH100",
    architecture: "Hopper",
    compute_capability: (9, 0),
    segment: Segment::DataCenter,
    sms: Some(132),
    cuda_cores: Some(16896),
    tensor_cores: Some(528),
    base_clock_mhz: None,
    boost_clock_mhz: Some(1980),
    tensor_clock_mhz: Some(1830),
    memory_bytes: gib(80),
    memory_type: MemoryType::Hbm3,
    bus_width_bits: Some(5120),
    data_rate_gbps: Some(5.24),
    bandwidth_gb_s: Some(3350.0),
    fp32_tflops: Some(67.0),
    fp16_tensor_tflops: Some(989.4),
    tensor_rate: TensorRate::Full,
    board_power_w: Some(700),
    pcie: pcie(5, 16),
    source: SRC_H100,
    note: "H100 SXM5. NVIDIA's tensor rates hold at a 1830 MHz tensor clock, not the 1980 MHz \
        boost (the datasheet prints 1979 TFLOPS with sparsity); the 1830 MHz figure is from \
        G. Lockwood's H100 notes. Data rate: NVML's 2619 MHz memory clock × 2.",
};

const H_NVL_BASE: Product = Product {
    device: 0x2321,
    subsystems: &[(0x10de, 0x1839)],
    default_for_device: true,
    name: "NVIDIA H100 NVL",
    boost_clock_mhz: None,
    tensor_clock_mhz: None,
    memory_bytes: gib(94),
    bus_width_bits: None,
    data_rate_gbps: None,
    bandwidth_gb_s: Some(3900.0),
    fp32_tflops: Some(60.0),
    fp16_tensor_tflops: Some(835.5),
    board_power_w: Some(400),
    note: "Per GPU of the NVL pair. NVIDIA publishes no clocks and no bus width for it; the \
        datasheet's 1671 TFLOPS FP16 is with sparsity, dense is half. Power: 350-400 W \
        configurable, the maximum is given.",
    ..H100_SXM5_80GB
};

const QUADRO_RTX_6000: Product = Product {
    device: 0x1e30,
    subsystems: &[(0x10de, 0x12ba)],
    default_for_device: true,
    name: "Quadro RTX 6000",
    chip: "TU102",
    architecture: "Turing",
    compute_capability: (7, 5),
    segment: Segment::Workstation,
    sms: Some(72),
    cuda_cores: Some(4608),
    tensor_cores: Some(576),
    base_clock_mhz: Some(1440),
    boost_clock_mhz: Some(1770),
    tensor_clock_mhz: None,
    memory_bytes: gib(24),
    memory_type: MemoryType::Gddr6,
    bus_width_bits: Some(384),
    data_rate_gbps: Some(14.0),
    bandwidth_gb_s: Some(672.0),
    fp32_tflops: Some(16.3),
    fp16_tensor_tflops: Some(130.5),
    tensor_rate: TensorRate::Full,
    board_power_w: Some(295),
    pcie: pcie(3, 16),
    source: SRC_QUADRO_RTX,
    note: "Default for 0x1e30: NVIDIA's driver names the id with no subsystem 'Quadro RTX \
        6000'; only subsystem x:129e boards are RTX 8000. Power: 295 W total board power \
        (260 W total graphics power). Base clock from the TechPowerUp GPU Database.",
};

const QUADRO_RTX_6000_PASSIVE: Product = Product {
    device: 0x1e78,
    subsystems: &[(0x10de, 0x13d9)],
    default_for_device: true,
    base_clock_mhz: None,
    boost_clock_mhz: Some(1620),
    data_rate_gbps: Some(13.0),
    bandwidth_gb_s: Some(624.0),
    fp32_tflops: Some(14.9),
    fp16_tensor_tflops: Some(119.4),
    board_power_w: None,
    source: SRC_QUADRO_RTX_PASSIVE,
    note: "Passive (server) board; nvidia-smi prints the plain name. NVIDIA rates it 14.9 TFLOPS \
        but gives no clock: 1620 MHz is the boost that rating implies (TechPowerUp lists \
        1560 MHz and 14 Gbps, which disagree with NVIDIA's 14.9 TFLOPS and 624 GB/s). Board \
        power not confirmed from an NVIDIA source. Default for 0x1e78 (same GPU as the 8000; \
        only the memory size differs).",
    ..QUADRO_RTX_6000
};

const RTX_A2000: Product = Product {
    device: 0x2531,
    subsystems: &[
        (0x1028, 0x151d),
        (0x103c, 0x151d),
        (0x10de, 0x151d),
        (0x17aa, 0x151d),
    ],
    default_for_device: true,
    name: "NVIDIA RTX A2000",
    chip: "GA106",
    architecture: "Ampere",
    compute_capability: (8, 6),
    segment: Segment::Workstation,
    sms: Some(26),
    cuda_cores: Some(3328),
    tensor_cores: Some(104),
    base_clock_mhz: None,
    boost_clock_mhz: Some(1200),
    tensor_clock_mhz: None,
    memory_bytes: gib(6),
    memory_type: MemoryType::Gddr6,
    bus_width_bits: Some(192),
    data_rate_gbps: Some(12.0),
    bandwidth_gb_s: Some(288.0),
    fp32_tflops: Some(8.0),
    fp16_tensor_tflops: Some(31.95),
    tensor_rate: TensorRate::Full,
    board_power_w: Some(70),
    pcie: pcie(4, 16),
    source: SRC_RTX_A,
    note: NOTE_AMPERE_SPARSE,
};

const RTX_PRO_6000_WS: Product = Product {
    device: 0x2bb1,
    subsystems: &[
        (0x1028, 0x204b),
        (0x103c, 0x204b),
        (0x10de, 0x204b),
        (0x17aa, 0x204b),
    ],
    default_for_device: true,
    name: "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
    chip: "GB202",
    architecture: "Blackwell",
    compute_capability: (12, 0),
    segment: Segment::Workstation,
    sms: Some(188),
    cuda_cores: Some(24064),
    tensor_cores: Some(752),
    base_clock_mhz: None,
    boost_clock_mhz: None,
    tensor_clock_mhz: None,
    memory_bytes: gib(96),
    memory_type: MemoryType::Gddr7,
    bus_width_bits: Some(512),
    data_rate_gbps: Some(28.0),
    bandwidth_gb_s: Some(1792.0),
    fp32_tflops: Some(125.0),
    fp16_tensor_tflops: None,
    tensor_rate: TensorRate::Full,
    board_power_w: Some(600),
    pcie: pcie(5, 16),
    source: SRC_RTX_PRO,
    note: "NVIDIA gives no clocks (125 TFLOPS implies about 2.6 GHz) and its tensor figure only \
        as 4000 AI TOPS (FP4, sparse), so boost and dense FP16 are left unknown.",
};

const GTX_1060_6GB: Product = Product {
    device: 0x1c03,
    subsystems: &[],
    default_for_device: true,
    name: "NVIDIA GeForce GTX 1060 6GB",
    chip: "GP106",
    architecture: "Pascal",
    compute_capability: (6, 1),
    segment: Segment::GeForce,
    sms: Some(10),
    cuda_cores: Some(1280),
    tensor_cores: Some(0),
    base_clock_mhz: Some(1506),
    boost_clock_mhz: Some(1708),
    tensor_clock_mhz: None,
    memory_bytes: gib(6),
    memory_type: MemoryType::Gddr5,
    bus_width_bits: Some(192),
    data_rate_gbps: Some(8.0),
    bandwidth_gb_s: Some(192.0),
    fp32_tflops: None,
    fp16_tensor_tflops: None,
    tensor_rate: TensorRate::NoTensorCores,
    board_power_w: Some(120),
    pcie: pcie(3, 16),
    source: SRC_GTX10,
    note: NOTE_GEFORCE_NO_RATING,
};

const RTX_2080_TI: Product = Product {
    device: 0x1e04,
    subsystems: &[],
    default_for_device: true,
    name: "NVIDIA GeForce RTX 2080 Ti",
    chip: "TU102",
    architecture: "Turing",
    compute_capability: (7, 5),
    segment: Segment::GeForce,
    sms: Some(68),
    cuda_cores: Some(4352),
    tensor_cores: Some(544),
    base_clock_mhz: Some(1350),
    boost_clock_mhz: Some(1545),
    tensor_clock_mhz: None,
    memory_bytes: gib(11),
    memory_type: MemoryType::Gddr6,
    bus_width_bits: Some(352),
    data_rate_gbps: Some(14.0),
    bandwidth_gb_s: Some(616.0),
    fp32_tflops: Some(13.4),
    fp16_tensor_tflops: Some(107.6),
    tensor_rate: TensorRate::HalfWithFp32Accumulate,
    board_power_w: Some(250),
    pcie: pcie(3, 16),
    source: SRC_TURING_WP,
    note: "Reference board; the Founders Edition is rated at 1635 MHz, 14.2 TFLOPS, 260 W.",
};

const RTX_2080: Product = Product {
    device: 0x1e82,
    name: "NVIDIA GeForce RTX 2080",
    chip: "TU104",
    sms: Some(46),
    cuda_cores: Some(2944),
    tensor_cores: Some(368),
    base_clock_mhz: Some(1515),
    boost_clock_mhz: Some(1710),
    memory_bytes: gib(8),
    bus_width_bits: Some(256),
    bandwidth_gb_s: Some(448.0),
    fp32_tflops: Some(10.1),
    fp16_tensor_tflops: Some(80.5),
    board_power_w: Some(215),
    note: "Reference board; the Founders Edition is rated at 1800 MHz, 10.6 TFLOPS, 225 W.",
    ..RTX_2080_TI
};

const RTX_2070: Product = Product {
    device: 0x1f02,
    name: "NVIDIA GeForce RTX 2070",
    chip: "TU106",
    sms: Some(36),
    cuda_cores: Some(2304),
    tensor_cores: Some(288),
    base_clock_mhz: Some(1410),
    boost_clock_mhz: Some(1620),
    memory_bytes: gib(8),
    bus_width_bits: Some(256),
    bandwidth_gb_s: Some(448.0),
    fp32_tflops: Some(7.5),
    fp16_tensor_tflops: Some(59.7),
    board_power_w: Some(175),
    note: "Reference board; the Founders Edition is rated at 1710 MHz, 7.9 TFLOPS, 185 W.",
    ..RTX_2080_TI
};

const RTX_2070_SUPER: Product = Product {
    device: 0x1e84,
    name: "NVIDIA GeForce RTX 2070 SUPER",
    chip: "TU104",
    sms: Some(40),
    cuda_cores: Some(2560),
    tensor_cores: Some(320),
    base_clock_mhz: Some(1605),
    boost_clock_mhz: Some(1770),
    memory_bytes: gib(8),
    bus_width_bits: Some(256),
    bandwidth_gb_s: Some(448.0),
    fp32_tflops: None,
    fp16_tensor_tflops: None,
    board_power_w: Some(215),
    source: SRC_TURING_GEFORCE,
    note: NOTE_GEFORCE_NO_RATING,
    ..RTX_2080_TI
};

const RTX_2060_SUPER: Product = Product {
    device: 0x1f06,
    name: "NVIDIA GeForce RTX 2060 SUPER",
    chip: "TU106",
    sms: Some(34),
    cuda_cores: Some(2176),
    tensor_cores: Some(272),
    base_clock_mhz: Some(1470),
    boost_clock_mhz: Some(1650),
    board_power_w: Some(175),
    ..RTX_2070_SUPER
};

const RTX_3060: Product = Product {
    device: 0x2503,
    subsystems: &[],
    default_for_device: true,
    name: "NVIDIA GeForce RTX 3060",
    chip: "GA106",
    architecture: "Ampere",
    compute_capability: (8, 6),
    segment: Segment::GeForce,
    sms: Some(28),
    cuda_cores: Some(3584),
    tensor_cores: Some(112),
    base_clock_mhz: Some(1320),
    boost_clock_mhz: Some(1777),
    tensor_clock_mhz: None,
    memory_bytes: gib(12),
    memory_type: MemoryType::Gddr6,
    bus_width_bits: Some(192),
    data_rate_gbps: Some(15.0),
    bandwidth_gb_s: Some(360.0),
    fp32_tflops: None,
    fp16_tensor_tflops: None,
    tensor_rate: TensorRate::HalfWithFp32Accumulate,
    board_power_w: Some(170),
    pcie: pcie(4, 16),
    source: SRC_RTX30,
    note: NOTE_GEFORCE_NO_RATING,
};

const RTX_3060_TI: Product = Product {
    device: 0x2486,
    name: "NVIDIA GeForce RTX 3060 Ti",
    chip: "GA104",
    sms: Some(38),
    cuda_cores: Some(4864),
    tensor_cores: Some(152),
    base_clock_mhz: Some(1410),
    boost_clock_mhz: Some(1665),
    memory_bytes: gib(8),
    bus_width_bits: Some(256),
    data_rate_gbps: Some(14.0),
    bandwidth_gb_s: Some(448.0),
    board_power_w: Some(200),
    ..RTX_3060
};

const RTX_3070: Product = Product {
    device: 0x2484,
    name: "NVIDIA GeForce RTX 3070",
    chip: "GA104",
    sms: Some(46),
    cuda_cores: Some(5888),
    tensor_cores: Some(184),
    base_clock_mhz: Some(1500),
    boost_clock_mhz: Some(1725),
    memory_bytes: gib(8),
    bus_width_bits: Some(256),
    data_rate_gbps: Some(14.0),
    bandwidth_gb_s: Some(448.0),
    fp32_tflops: Some(20.3),
    fp16_tensor_tflops: Some(81.3),
    board_power_w: Some(220),
    source: SRC_GA102_WP,
    note: "",
    ..RTX_3060
};

const RTX_3080: Product = Product {
    device: 0x2206,
    name: "NVIDIA GeForce RTX 3080",
    chip: "GA102",
    sms: Some(68),
    cuda_cores: Some(8704),
    tensor_cores: Some(272),
    base_clock_mhz: Some(1440),
    boost_clock_mhz: Some(1710),
    memory_bytes: gib(10),
    memory_type: MemoryType::Gddr6x,
    bus_width_bits: Some(320),
    data_rate_gbps: Some(19.0),
    bandwidth_gb_s: Some(760.0),
    fp32_tflops: Some(29.8),
    fp16_tensor_tflops: Some(119.0),
    board_power_w: Some(320),
    source: SRC_GA102_WP,
    note: "The 10 GB board.",
    ..RTX_3060
};

const RTX_4060_TI: Product = Product {
    device: 0x2803,
    subsystems: &[],
    default_for_device: true,
    name: "NVIDIA GeForce RTX 4060 Ti",
    chip: "AD106",
    architecture: "Ada Lovelace",
    compute_capability: (8, 9),
    segment: Segment::GeForce,
    sms: Some(34),
    cuda_cores: Some(4352),
    tensor_cores: Some(136),
    base_clock_mhz: Some(2310),
    boost_clock_mhz: Some(2535),
    tensor_clock_mhz: None,
    memory_bytes: gib(8),
    memory_type: MemoryType::Gddr6,
    bus_width_bits: Some(128),
    data_rate_gbps: Some(18.0),
    bandwidth_gb_s: Some(288.0),
    fp32_tflops: None,
    fp16_tensor_tflops: None,
    tensor_rate: TensorRate::HalfWithFp32Accumulate,
    board_power_w: Some(160),
    pcie: pcie(4, 8),
    source: SRC_RTX40,
    note: NOTE_GEFORCE_NO_RATING,
};

const RTX_5060_TI: Product = Product {
    device: 0x2d04,
    subsystems: &[],
    default_for_device: true,
    name: "NVIDIA GeForce RTX 5060 Ti",
    chip: "GB206",
    architecture: "Blackwell",
    compute_capability: (12, 0),
    segment: Segment::GeForce,
    sms: Some(36),
    cuda_cores: Some(4608),
    tensor_cores: Some(144),
    base_clock_mhz: Some(2407),
    boost_clock_mhz: Some(2572),
    tensor_clock_mhz: None,
    memory_bytes: None,
    memory_type: MemoryType::Gddr7,
    bus_width_bits: Some(128),
    data_rate_gbps: Some(28.0),
    bandwidth_gb_s: Some(448.0),
    fp32_tflops: None,
    fp16_tensor_tflops: None,
    tensor_rate: TensorRate::HalfWithFp32Accumulate,
    board_power_w: Some(180),
    pcie: pcie(5, 8),
    source: SRC_RTX50,
    note: "8 GB and 16 GB boards share device id 0x2d04 and no subsystem tells them apart, so \
        the memory size is unknown here (NVML's total tells). NVIDIA publishes no TFLOPS for \
        this board; Product::fp32_tflops_at_boost gives the rate at the rated boost.",
};

/// Every board this build knows, grouped by segment, oldest architecture first.
pub static PRODUCTS: &[Product] = &[
    // ---------------------------------------------------------------- data center
    Product {
        device: 0x15f7,
        name: "Tesla P100-PCIE-12GB",
        memory_bytes: gib(12),
        bus_width_bits: Some(3072),
        bandwidth_gb_s: Some(549.0),
        ..P100_PCIE_16GB
    },
    P100_PCIE_16GB,
    Product {
        device: 0x15f9,
        name: "Tesla P100-SXM2-16GB",
        base_clock_mhz: Some(1328),
        boost_clock_mhz: Some(1480),
        fp32_tflops: Some(10.6),
        board_power_w: Some(300),
        source: "NVIDIA Tesla P100 whitepaper (NVIDIA Tesla P100: The Most Advanced Datacenter \
            Accelerator Ever Built), Table 1",
        note: "SXM2 module; the PCIe link is its host link.",
        ..P100_PCIE_16GB
    },
    V100_SXM2_16GB,
    Product {
        device: 0x1db5,
        name: "Tesla V100-SXM2-32GB",
        memory_bytes: gib(32),
        ..V100_SXM2_16GB
    },
    V100_PCIE_16GB,
    Product {
        device: 0x1db6,
        name: "Tesla V100-PCIE-32GB",
        memory_bytes: gib(32),
        ..V100_PCIE_16GB
    },
    Product {
        device: 0x1df6,
        name: "Tesla V100S-PCIE-32GB",
        boost_clock_mhz: Some(1597),
        memory_bytes: gib(32),
        data_rate_gbps: Some(2.214),
        bandwidth_gb_s: Some(1134.0),
        fp32_tflops: Some(16.4),
        fp16_tensor_tflops: Some(130.0),
        source: "NVIDIA V100 datasheet (V100S PCIe column)",
        ..V100_PCIE_16GB
    },
    Product {
        device: 0x1eb8,
        subsystems: &[(0x10de, 0x12a2)],
        default_for_device: true,
        name: "Tesla T4",
        chip: "TU104",
        architecture: "Turing",
        compute_capability: (7, 5),
        segment: Segment::DataCenter,
        sms: Some(40),
        cuda_cores: Some(2560),
        tensor_cores: Some(320),
        base_clock_mhz: Some(585),
        boost_clock_mhz: Some(1590),
        tensor_clock_mhz: None,
        memory_bytes: gib(16),
        memory_type: MemoryType::Gddr6,
        bus_width_bits: Some(256),
        data_rate_gbps: Some(10.0),
        bandwidth_gb_s: Some(320.0),
        fp32_tflops: Some(8.1),
        fp16_tensor_tflops: Some(65.0),
        tensor_rate: TensorRate::Full,
        board_power_w: Some(70),
        pcie: pcie(3, 16),
        source: "NVIDIA T4 datasheet",
        note: "NVML reports 1590 MHz as both maximum and customer boost clock, 5001 MHz memory.",
    },
    A100_SXM4_40GB,
    Product {
        device: 0x20b2,
        subsystems: &[
            (0x10de, 0x1463),
            (0x10de, 0x147f),
            (0x10de, 0x1622),
            (0x10de, 0x1623),
        ],
        name: "NVIDIA A100-SXM4-80GB",
        memory_bytes: gib(80),
        memory_type: MemoryType::Hbm2e,
        data_rate_gbps: Some(3.186),
        bandwidth_gb_s: Some(2039.0),
        note: "Data rate: NVML's 1593 MHz memory clock × 2.",
        ..A100_SXM4_40GB
    },
    Product {
        device: 0x20f1,
        subsystems: &[(0x10de, 0x145f)],
        name: "NVIDIA A100-PCIE-40GB",
        board_power_w: Some(250),
        ..A100_SXM4_40GB
    },
    Product {
        device: 0x20b5,
        subsystems: &[(0x10de, 0x1533), (0x10de, 0x1642)],
        name: "NVIDIA A100 80GB PCIe",
        memory_bytes: gib(80),
        memory_type: MemoryType::Hbm2e,
        data_rate_gbps: Some(3.024),
        bandwidth_gb_s: Some(1935.0),
        board_power_w: Some(300),
        ..A100_SXM4_40GB
    },
    Product {
        device: 0x20b7,
        subsystems: &[(0x10de, 0x1532), (0x10de, 0x1804), (0x10de, 0x1852)],
        name: "NVIDIA A30",
        sms: Some(56),
        cuda_cores: Some(3584),
        tensor_cores: Some(224),
        boost_clock_mhz: Some(1440),
        memory_bytes: gib(24),
        bus_width_bits: Some(3072),
        bandwidth_gb_s: Some(933.0),
        fp32_tflops: Some(10.3),
        fp16_tensor_tflops: Some(165.0),
        board_power_w: Some(165),
        source: "NVIDIA A30 datasheet",
        note: NOTE_TPU_CLOCK,
        ..A100_SXM4_40GB
    },
    Product {
        device: 0x2235,
        subsystems: &[(0x10de, 0x145a)],
        default_for_device: true,
        name: "NVIDIA A40",
        chip: "GA102",
        architecture: "Ampere",
        compute_capability: (8, 6),
        segment: Segment::DataCenter,
        sms: Some(84),
        cuda_cores: Some(10752),
        tensor_cores: Some(336),
        base_clock_mhz: None,
        boost_clock_mhz: Some(1740),
        tensor_clock_mhz: None,
        memory_bytes: gib(48),
        memory_type: MemoryType::Gddr6,
        bus_width_bits: Some(384),
        data_rate_gbps: Some(14.5),
        bandwidth_gb_s: Some(696.0),
        fp32_tflops: Some(37.4),
        fp16_tensor_tflops: Some(149.7),
        tensor_rate: TensorRate::Full,
        board_power_w: Some(300),
        pcie: pcie(4, 16),
        source: "NVIDIA A40 datasheet",
        note: NOTE_TPU_CLOCK,
    },
    Product {
        device: 0x2236,
        subsystems: &[(0x10de, 0x1482)],
        default_for_device: true,
        name: "NVIDIA A10",
        chip: "GA102",
        architecture: "Ampere",
        compute_capability: (8, 6),
        segment: Segment::DataCenter,
        sms: Some(72),
        cuda_cores: Some(9216),
        tensor_cores: Some(288),
        base_clock_mhz: Some(885),
        boost_clock_mhz: Some(1695),
        tensor_clock_mhz: None,
        memory_bytes: gib(24),
        memory_type: MemoryType::Gddr6,
        bus_width_bits: Some(384),
        data_rate_gbps: Some(12.5),
        bandwidth_gb_s: Some(600.0),
        fp32_tflops: Some(31.2),
        fp16_tensor_tflops: Some(125.0),
        tensor_rate: TensorRate::Full,
        board_power_w: Some(150),
        pcie: pcie(4, 16),
        source: "NVIDIA A10 datasheet",
        note: NOTE_TPU_CLOCK,
    },
    Product {
        device: 0x25b6,
        subsystems: &[(0x10de, 0x157e)],
        default_for_device: true,
        name: "NVIDIA A2",
        chip: "GA107",
        architecture: "Ampere",
        compute_capability: (8, 6),
        segment: Segment::DataCenter,
        sms: Some(10),
        cuda_cores: Some(1280),
        tensor_cores: Some(40),
        base_clock_mhz: Some(1440),
        boost_clock_mhz: Some(1770),
        tensor_clock_mhz: None,
        memory_bytes: gib(16),
        memory_type: MemoryType::Gddr6,
        bus_width_bits: Some(128),
        data_rate_gbps: Some(12.5),
        bandwidth_gb_s: Some(200.0),
        fp32_tflops: Some(4.5),
        fp16_tensor_tflops: Some(18.0),
        tensor_rate: TensorRate::Full,
        board_power_w: Some(60),
        pcie: pcie(4, 8),
        source: "NVIDIA A2 datasheet",
        note: "Default for 0x25b6, which the A2 and each GPU of the A16 share: per GPU the two \
            differ only in clock (1770 vs 1755 MHz) and board. Power: 40-60 W configurable, \
            the maximum is given. Clocks from the TechPowerUp GPU Database.",
    },
    Product {
        device: 0x25b6,
        subsystems: &[(0x10de, 0x14a9)],
        default_for_device: false,
        name: "NVIDIA A16",
        chip: "GA107",
        architecture: "Ampere",
        compute_capability: (8, 6),
        segment: Segment::DataCenter,
        sms: Some(10),
        cuda_cores: Some(1280),
        tensor_cores: Some(40),
        base_clock_mhz: None,
        boost_clock_mhz: Some(1755),
        tensor_clock_mhz: None,
        memory_bytes: gib(16),
        memory_type: MemoryType::Gddr6,
        bus_width_bits: Some(128),
        data_rate_gbps: Some(12.5),
        bandwidth_gb_s: Some(200.0),
        fp32_tflops: Some(4.5),
        fp16_tensor_tflops: Some(17.9),
        tensor_rate: TensorRate::Full,
        board_power_w: Some(250),
        pcie: pcie(4, 16),
        source: "NVIDIA A16 datasheet",
        note: "One of the board's four GPUs: counts, memory and rates are per GPU (the datasheet \
            gives 4 × each); power and the PCIe link are the whole board's. Clock from the \
            TechPowerUp GPU Database.",
    },
    Product {
        device: 0x27b8,
        subsystems: &[(0x10de, 0x16ca), (0x10de, 0x16ee)],
        default_for_device: true,
        name: "NVIDIA L4",
        chip: "AD104",
        architecture: "Ada Lovelace",
        compute_capability: (8, 9),
        segment: Segment::DataCenter,
        sms: Some(58),
        cuda_cores: Some(7424),
        tensor_cores: Some(232),
        base_clock_mhz: None,
        boost_clock_mhz: Some(2040),
        tensor_clock_mhz: None,
        memory_bytes: gib(24),
        memory_type: MemoryType::Gddr6,
        bus_width_bits: Some(192),
        data_rate_gbps: Some(12.5),
        bandwidth_gb_s: Some(300.0),
        fp32_tflops: Some(30.3),
        fp16_tensor_tflops: Some(121.0),
        tensor_rate: TensorRate::Full,
        board_power_w: Some(72),
        pcie: pcie(4, 16),
        source: "NVIDIA L4 datasheet",
        note:
            "Clock from the TechPowerUp GPU Database (the datasheet gives none). The datasheet's \
            FP16 tensor figure is 242 TFLOPS with sparsity; dense is half.",
    },
    Product {
        device: 0x26b5,
        subsystems: &[(0x10de, 0x169d), (0x10de, 0x17da)],
        default_for_device: true,
        name: "NVIDIA L40",
        chip: "AD102",
        architecture: "Ada Lovelace",
        compute_capability: (8, 9),
        segment: Segment::DataCenter,
        sms: Some(142),
        cuda_cores: Some(18176),
        tensor_cores: Some(568),
        base_clock_mhz: None,
        boost_clock_mhz: Some(2490),
        tensor_clock_mhz: None,
        memory_bytes: gib(48),
        memory_type: MemoryType::Gddr6,
        bus_width_bits: Some(384),
        data_rate_gbps: Some(18.0),
        bandwidth_gb_s: Some(864.0),
        fp32_tflops: Some(90.5),
        fp16_tensor_tflops: Some(181.05),
        tensor_rate: TensorRate::Half,
        board_power_w: Some(300),
        pcie: pcie(4, 16),
        source: "NVIDIA L40 datasheet",
        note: "The datasheet rates FP16 tensor at 181.05 TFLOPS dense (362.1 sparse), half the \
            Ada per-tensor-core rate, accumulating in FP16 or FP32. Clock from the TechPowerUp \
            GPU Database.",
    },
    Product {
        device: 0x26b9,
        subsystems: &[(0x10de, 0x1851), (0x10de, 0x18cf)],
        default_for_device: true,
        name: "NVIDIA L40S",
        chip: "AD102",
        architecture: "Ada Lovelace",
        compute_capability: (8, 9),
        segment: Segment::DataCenter,
        sms: Some(142),
        cuda_cores: Some(18176),
        tensor_cores: Some(568),
        base_clock_mhz: Some(1110),
        boost_clock_mhz: Some(2520),
        tensor_clock_mhz: Some(2490),
        memory_bytes: gib(48),
        memory_type: MemoryType::Gddr6,
        bus_width_bits: Some(384),
        data_rate_gbps: Some(18.0),
        bandwidth_gb_s: Some(864.0),
        fp32_tflops: Some(91.6),
        fp16_tensor_tflops: Some(362.05),
        tensor_rate: TensorRate::Full,
        board_power_w: Some(350),
        pcie: pcie(4, 16),
        source: "NVIDIA L40S datasheet",
        note: "The datasheet's dense FP16 362.05 TFLOPS matches 2490 MHz (the L40's boost) while \
            its sparse 733 and FP32 91.6 TFLOPS match 2520 MHz; 2490 is therefore the tensor \
            clock here. At 2520 MHz dense FP16 would be 366.4. Clocks from the TechPowerUp GPU \
            Database.",
    },
    H100_SXM5_80GB,
    Product {
        device: 0x2331,
        subsystems: &[(0x10de, 0x1626)],
        name: "NVIDIA H100 PCIe",
        sms: Some(114),
        cuda_cores: Some(14592),
        tensor_cores: Some(456),
        boost_clock_mhz: Some(1755),
        tensor_clock_mhz: Some(1620),
        memory_type: MemoryType::Hbm2e,
        data_rate_gbps: None,
        bandwidth_gb_s: Some(2000.0),
        fp32_tflops: Some(51.0),
        fp16_tensor_tflops: Some(756.5),
        board_power_w: Some(350),
        note: "Boost from the TechPowerUp GPU Database. NVIDIA gives no tensor clock: 1620 MHz \
            is the clock its 1513 TFLOPS (sparse) FP16 figure implies. Power: 300-350 W \
            configurable, the maximum is given.",
        ..H100_SXM5_80GB
    },
    H_NVL_BASE,
    Product {
        device: 0x2335,
        subsystems: &[(0x10de, 0x18be), (0x10de, 0x18bf)],
        name: "NVIDIA H200",
        memory_bytes: gib(141),
        memory_type: MemoryType::Hbm3e,
        bus_width_bits: Some(6144),
        data_rate_gbps: Some(6.4),
        bandwidth_gb_s: Some(4800.0),
        source: "NVIDIA H200 datasheet (H200 SXM column)",
        note: "H200 SXM. Compute as H100 SXM (tensor rates at 1830 MHz). 141 GB is 141 GiB: \
            NVML reports 143771 MiB usable, more than 141×10^9 bytes. Bus: six HBM3e stacks of \
            1024 bits (NVIDIA does not print it). Data rate: NVML's 3201 MHz memory clock × 2, \
            which computes 2.4 % above the rounded 4.8 TB/s.",
        ..H100_SXM5_80GB
    },
    Product {
        device: 0x233b,
        subsystems: &[(0x10de, 0x1996)],
        name: "NVIDIA H200 NVL",
        memory_bytes: gib(141),
        memory_type: MemoryType::Hbm3e,
        bandwidth_gb_s: Some(4800.0),
        board_power_w: Some(600),
        source: "NVIDIA H200 datasheet (H200 NVL column)",
        note: "NVIDIA publishes no clocks and no bus width for it; the datasheet's 1671 TFLOPS \
            FP16 is with sparsity, dense is half. Power: up to 600 W configurable.",
        ..H_NVL_BASE
    },
    Product {
        device: 0x2901,
        subsystems: &[(0x10de, 0x1999), (0x10de, 0x199b), (0x10de, 0x20da)],
        default_for_device: true,
        name: "NVIDIA B200",
        chip: "GB100",
        architecture: "Blackwell",
        compute_capability: (10, 0),
        segment: Segment::DataCenter,
        sms: None,
        cuda_cores: None,
        tensor_cores: None,
        base_clock_mhz: None,
        boost_clock_mhz: None,
        tensor_clock_mhz: None,
        memory_bytes: gib(180),
        memory_type: MemoryType::Hbm3e,
        bus_width_bits: Some(8192),
        data_rate_gbps: None,
        bandwidth_gb_s: Some(8000.0),
        fp32_tflops: Some(75.0),
        fp16_tensor_tflops: Some(2250.0),
        tensor_rate: TensorRate::Full,
        board_power_w: Some(1000),
        pcie: None,
        source: "NVIDIA HGX B200 datasheet (per GPU: the 8-GPU totals ÷ 8); NVIDIA Blackwell \
            Architecture Technical Brief",
        note: "NVIDIA publishes no SM count, core counts or clocks for B200 (third parties \
            estimate 148 SMs and a ~1.86 GHz tensor clock), so those are unknown. 180 GB usable \
            of 192 GB physical, stored as 180 GiB. Some NVIDIA tables give 80 TFLOPS FP32 and \
            7.7 TB/s; the HGX B200 datasheet's 75 and 8 are used. Host link unconfirmed.",
    },
    // ---------------------------------------------------------------- workstation
    Product {
        device: 0x1c30,
        subsystems: &[],
        default_for_device: true,
        name: "Quadro P2000",
        chip: "GP106",
        architecture: "Pascal",
        compute_capability: (6, 1),
        segment: Segment::Workstation,
        sms: Some(8),
        cuda_cores: Some(1024),
        tensor_cores: Some(0),
        base_clock_mhz: None,
        boost_clock_mhz: Some(1480),
        tensor_clock_mhz: None,
        memory_bytes: gib(5),
        memory_type: MemoryType::Gddr5,
        bus_width_bits: Some(160),
        data_rate_gbps: Some(7.0),
        bandwidth_gb_s: Some(140.0),
        fp32_tflops: Some(3.0),
        fp16_tensor_tflops: None,
        tensor_rate: TensorRate::NoTensorCores,
        board_power_w: Some(75),
        pcie: pcie(3, 16),
        source: "NVIDIA Quadro P2000 datasheet",
        note: "Boost from the TechPowerUp GPU Database; it reproduces NVIDIA's 3.0 TFLOPS. NVML \
            reports 1721 MHz as maximum and customer boost clock on a real board.",
    },
    Product {
        device: 0x1bb1,
        subsystems: &[],
        default_for_device: true,
        name: "Quadro P4000",
        chip: "GP104",
        architecture: "Pascal",
        compute_capability: (6, 1),
        segment: Segment::Workstation,
        sms: Some(14),
        cuda_cores: Some(1792),
        tensor_cores: Some(0),
        base_clock_mhz: None,
        boost_clock_mhz: Some(1480),
        tensor_clock_mhz: None,
        memory_bytes: gib(8),
        memory_type: MemoryType::Gddr5,
        bus_width_bits: Some(256),
        data_rate_gbps: Some(7.6),
        bandwidth_gb_s: Some(243.0),
        fp32_tflops: Some(5.3),
        fp16_tensor_tflops: None,
        tensor_rate: TensorRate::NoTensorCores,
        board_power_w: Some(105),
        pcie: pcie(3, 16),
        source: "NVIDIA Quadro P4000 datasheet",
        note: "Boost from the TechPowerUp GPU Database; it reproduces NVIDIA's 5.3 TFLOPS.",
    },
    Product {
        device: 0x1bb0,
        subsystems: &[],
        default_for_device: true,
        name: "Quadro P5000",
        chip: "GP104",
        architecture: "Pascal",
        compute_capability: (6, 1),
        segment: Segment::Workstation,
        sms: Some(20),
        cuda_cores: Some(2560),
        tensor_cores: Some(0),
        base_clock_mhz: None,
        boost_clock_mhz: Some(1733),
        tensor_clock_mhz: None,
        memory_bytes: gib(16),
        memory_type: MemoryType::Gddr5x,
        bus_width_bits: Some(256),
        data_rate_gbps: Some(9.0),
        bandwidth_gb_s: Some(288.0),
        fp32_tflops: Some(8.9),
        fp16_tensor_tflops: None,
        tensor_rate: TensorRate::NoTensorCores,
        board_power_w: Some(180),
        pcie: pcie(3, 16),
        source: "NVIDIA Quadro P5000 datasheet",
        note: "Boost from the TechPowerUp GPU Database; it reproduces NVIDIA's 8.9 TFLOPS.",
    },
    Product {
        device: 0x1b30,
        subsystems: &[],
        default_for_device: true,
        name: "Quadro P6000",
        chip: "GP102",
        architecture: "Pascal",
        compute_capability: (6, 1),
        segment: Segment::Workstation,
        sms: Some(30),
        cuda_cores: Some(3840),
        tensor_cores: Some(0),
        base_clock_mhz: None,
        boost_clock_mhz: Some(1560),
        tensor_clock_mhz: None,
        memory_bytes: gib(24),
        memory_type: MemoryType::Gddr5x,
        bus_width_bits: Some(384),
        data_rate_gbps: Some(9.0),
        bandwidth_gb_s: Some(432.0),
        fp32_tflops: Some(12.0),
        fp16_tensor_tflops: None,
        tensor_rate: TensorRate::NoTensorCores,
        board_power_w: Some(250),
        pcie: pcie(3, 16),
        source: "NVIDIA Quadro P6000 datasheet",
        note: "NVIDIA gives 12 TFLOPS but no clock; 1560 MHz is the boost that rating implies. \
            TechPowerUp lists 1645 MHz (12.6 TFLOPS); a real board's NVML reports 1657 MHz max.",
    },
    Product {
        device: 0x1dba,
        subsystems: &[],
        default_for_device: true,
        name: "Quadro GV100",
        chip: "GV100",
        architecture: "Volta",
        compute_capability: (7, 0),
        segment: Segment::Workstation,
        sms: Some(80),
        cuda_cores: Some(5120),
        tensor_cores: Some(640),
        base_clock_mhz: None,
        boost_clock_mhz: Some(1450),
        tensor_clock_mhz: None,
        memory_bytes: gib(32),
        memory_type: MemoryType::Hbm2,
        bus_width_bits: Some(4096),
        data_rate_gbps: Some(1.7),
        bandwidth_gb_s: Some(870.0),
        fp32_tflops: Some(14.8),
        fp16_tensor_tflops: Some(118.5),
        tensor_rate: TensorRate::Full,
        board_power_w: Some(250),
        pcie: pcie(3, 16),
        source: "NVIDIA Quadro GV100 datasheet",
        note: "NVIDIA gives 14.8 TFLOPS and 118.5 tensor TFLOPS but no clock; both imply about \
            1450 MHz, stored as the boost (TechPowerUp lists 1627 MHz). Subsystem 10de:12eb on \
            this id is the TITAN V CEO Edition, not in this table.",
    },
    Product {
        device: 0x1eb1,
        subsystems: &[],
        default_for_device: true,
        name: "Quadro RTX 4000",
        chip: "TU104",
        architecture: "Turing",
        compute_capability: (7, 5),
        segment: Segment::Workstation,
        sms: Some(36),
        cuda_cores: Some(2304),
        tensor_cores: Some(288),
        base_clock_mhz: Some(1005),
        boost_clock_mhz: Some(1545),
        tensor_clock_mhz: None,
        memory_bytes: gib(8),
        memory_type: MemoryType::Gddr6,
        bus_width_bits: Some(256),
        data_rate_gbps: Some(13.0),
        bandwidth_gb_s: Some(416.0),
        fp32_tflops: Some(7.1),
        fp16_tensor_tflops: Some(57.0),
        tensor_rate: TensorRate::Full,
        board_power_w: Some(160),
        pcie: pcie(3, 16),
        source: "NVIDIA Quadro RTX 4000 datasheet",
        note: NOTE_TPU_CLOCK,
    },
    Product {
        device: 0x1eb0,
        subsystems: &[],
        default_for_device: true,
        name: "Quadro RTX 5000",
        chip: "TU104",
        architecture: "Turing",
        compute_capability: (7, 5),
        segment: Segment::Workstation,
        sms: Some(48),
        cuda_cores: Some(3072),
        tensor_cores: Some(384),
        base_clock_mhz: None,
        boost_clock_mhz: Some(1815),
        tensor_clock_mhz: None,
        memory_bytes: gib(16),
        memory_type: MemoryType::Gddr6,
        bus_width_bits: Some(256),
        data_rate_gbps: Some(14.0),
        bandwidth_gb_s: Some(448.0),
        fp32_tflops: Some(11.2),
        fp16_tensor_tflops: Some(89.2),
        tensor_rate: TensorRate::Full,
        board_power_w: Some(265),
        pcie: pcie(3, 16),
        source: "NVIDIA Quadro RTX 5000 datasheet",
        note: "Power: 265 W total board power (230 W total graphics power). Clock from the \
            TechPowerUp GPU Database; it reproduces NVIDIA's TFLOPS.",
    },
    QUADRO_RTX_6000,
    Product {
        subsystems: &[(0x1028, 0x129e), (0x103c, 0x129e), (0x10de, 0x129e)],
        default_for_device: false,
        name: "Quadro RTX 8000",
        memory_bytes: gib(48),
        note: "Told from the RTX 6000 by subsystem only (NVIDIA's driver README lists these \
            three). Power: 295 W total board power (260 W total graphics power). Base clock \
            from the TechPowerUp GPU Database.",
        ..QUADRO_RTX_6000
    },
    QUADRO_RTX_6000_PASSIVE,
    Product {
        subsystems: &[(0x10de, 0x13d8)],
        default_for_device: false,
        name: "Quadro RTX 8000",
        memory_bytes: gib(48),
        note: "Passive (server) board; nvidia-smi prints the plain name. NVIDIA rates it 14.9 \
            TFLOPS but gives no clock: 1620 MHz is the boost that rating implies. Board power not \
            confirmed from an NVIDIA source.",
        ..QUADRO_RTX_6000_PASSIVE
    },
    RTX_A2000,
    Product {
        device: 0x2571,
        subsystems: &[
            (0x1028, 0x1611),
            (0x103c, 0x1611),
            (0x10de, 0x1611),
            (0x17aa, 0x1611),
        ],
        name: "NVIDIA RTX A2000 12GB",
        memory_bytes: gib(12),
        ..RTX_A2000
    },
    Product {
        device: 0x24b0,
        subsystems: &[
            (0x1028, 0x14ad),
            (0x103c, 0x14ad),
            (0x10de, 0x14ad),
            (0x17aa, 0x14ad),
        ],
        name: "NVIDIA RTX A4000",
        chip: "GA104",
        sms: Some(48),
        cuda_cores: Some(6144),
        tensor_cores: Some(192),
        base_clock_mhz: Some(735),
        boost_clock_mhz: Some(1560),
        memory_bytes: gib(16),
        bus_width_bits: Some(256),
        data_rate_gbps: Some(14.0),
        bandwidth_gb_s: Some(448.0),
        fp32_tflops: Some(19.2),
        fp16_tensor_tflops: Some(76.7),
        board_power_w: Some(140),
        ..RTX_A2000
    },
    Product {
        device: 0x2232,
        subsystems: &[
            (0x1028, 0x163c),
            (0x103c, 0x163c),
            (0x10de, 0x163c),
            (0x17aa, 0x163c),
        ],
        name: "NVIDIA RTX A4500",
        chip: "GA102",
        sms: Some(56),
        cuda_cores: Some(7168),
        tensor_cores: Some(224),
        boost_clock_mhz: Some(1650),
        memory_bytes: gib(20),
        bus_width_bits: Some(320),
        data_rate_gbps: Some(16.0),
        bandwidth_gb_s: Some(640.0),
        fp32_tflops: Some(23.7),
        fp16_tensor_tflops: Some(94.6),
        board_power_w: Some(200),
        ..RTX_A2000
    },
    Product {
        device: 0x2231,
        subsystems: &[
            (0x1028, 0x147e),
            (0x103c, 0x147e),
            (0x10de, 0x147e),
            (0x17aa, 0x147e),
        ],
        name: "NVIDIA RTX A5000",
        chip: "GA102",
        sms: Some(64),
        cuda_cores: Some(8192),
        tensor_cores: Some(256),
        boost_clock_mhz: Some(1695),
        memory_bytes: gib(24),
        bus_width_bits: Some(384),
        data_rate_gbps: Some(16.0),
        bandwidth_gb_s: Some(768.0),
        fp32_tflops: Some(27.8),
        fp16_tensor_tflops: Some(111.1),
        board_power_w: Some(230),
        ..RTX_A2000
    },
    Product {
        device: 0x2233,
        subsystems: &[
            (0x1028, 0x165a),
            (0x103c, 0x165a),
            (0x10de, 0x165a),
            (0x17aa, 0x165a),
        ],
        name: "NVIDIA RTX A5500",
        chip: "GA102",
        sms: Some(80),
        cuda_cores: Some(10240),
        tensor_cores: Some(320),
        boost_clock_mhz: Some(1665),
        memory_bytes: gib(24),
        bus_width_bits: Some(384),
        data_rate_gbps: Some(16.0),
        bandwidth_gb_s: Some(768.0),
        fp32_tflops: Some(34.1),
        fp16_tensor_tflops: Some(136.4),
        board_power_w: Some(230),
        ..RTX_A2000
    },
    Product {
        device: 0x2230,
        subsystems: &[
            (0x1028, 0x1459),
            (0x103c, 0x1459),
            (0x10de, 0x1459),
            (0x17aa, 0x1459),
        ],
        name: "NVIDIA RTX A6000",
        chip: "GA102",
        sms: Some(84),
        cuda_cores: Some(10752),
        tensor_cores: Some(336),
        boost_clock_mhz: Some(1800),
        memory_bytes: gib(48),
        bus_width_bits: Some(384),
        data_rate_gbps: Some(16.0),
        bandwidth_gb_s: Some(768.0),
        fp32_tflops: Some(38.7),
        fp16_tensor_tflops: Some(154.85),
        board_power_w: Some(300),
        ..RTX_A2000
    },
    Product {
        device: 0x28b0,
        subsystems: &[
            (0x1028, 0x1870),
            (0x103c, 0x1870),
            (0x10de, 0x1870),
            (0x17aa, 0x1870),
        ],
        default_for_device: true,
        name: "NVIDIA RTX 2000 Ada Generation",
        chip: "AD107",
        architecture: "Ada Lovelace",
        compute_capability: (8, 9),
        segment: Segment::Workstation,
        sms: Some(22),
        cuda_cores: Some(2816),
        tensor_cores: Some(88),
        base_clock_mhz: None,
        boost_clock_mhz: Some(2130),
        tensor_clock_mhz: None,
        memory_bytes: gib(16),
        memory_type: MemoryType::Gddr6,
        bus_width_bits: Some(128),
        data_rate_gbps: None,
        bandwidth_gb_s: Some(224.0),
        fp32_tflops: Some(12.0),
        fp16_tensor_tflops: Some(47.98),
        tensor_rate: TensorRate::Full,
        board_power_w: Some(70),
        pcie: pcie(4, 8),
        source: SRC_RTX_ADA,
        note: "Clock from the TechPowerUp GPU Database (the datasheet gives none). The \
            datasheet's 191.9 TFLOPS is FP8 with sparsity; dense FP16 is a quarter of it. Data \
            rate not confirmed. Default for 0x28b0; subsystems x:1871 are the RTX 2000E, whose \
            clocks are not in this table.",
    },
    Product {
        device: 0x27b2,
        subsystems: &[
            (0x1028, 0x181b),
            (0x103c, 0x181b),
            (0x10de, 0x181b),
            (0x17aa, 0x181b),
        ],
        default_for_device: true,
        name: "NVIDIA RTX 4000 Ada Generation",
        chip: "AD104",
        architecture: "Ada Lovelace",
        compute_capability: (8, 9),
        segment: Segment::Workstation,
        sms: Some(48),
        cuda_cores: Some(6144),
        tensor_cores: Some(192),
        base_clock_mhz: Some(1500),
        boost_clock_mhz: Some(2175),
        tensor_clock_mhz: None,
        memory_bytes: gib(20),
        memory_type: MemoryType::Gddr6,
        bus_width_bits: Some(160),
        data_rate_gbps: Some(18.0),
        bandwidth_gb_s: Some(360.0),
        fp32_tflops: Some(26.7),
        fp16_tensor_tflops: None,
        tensor_rate: TensorRate::Full,
        board_power_w: Some(130),
        pcie: pcie(4, 16),
        source: SRC_RTX_ADA,
        note: "Clocks from the TechPowerUp GPU Database (the datasheet gives none). The \
            datasheet's tensor figure could not be confirmed, so dense FP16 is left unknown.",
    },
    Product {
        device: 0x27b1,
        subsystems: &[
            (0x1028, 0x180c),
            (0x103c, 0x180c),
            (0x10de, 0x180c),
            (0x17aa, 0x180c),
        ],
        default_for_device: true,
        name: "NVIDIA RTX 4500 Ada Generation",
        chip: "AD104",
        architecture: "Ada Lovelace",
        compute_capability: (8, 9),
        segment: Segment::Workstation,
        sms: Some(60),
        cuda_cores: Some(7680),
        tensor_cores: Some(240),
        base_clock_mhz: None,
        boost_clock_mhz: Some(2580),
        tensor_clock_mhz: None,
        memory_bytes: gib(24),
        memory_type: MemoryType::Gddr6,
        bus_width_bits: Some(192),
        data_rate_gbps: Some(18.0),
        bandwidth_gb_s: Some(432.0),
        fp32_tflops: Some(39.6),
        fp16_tensor_tflops: Some(158.5),
        tensor_rate: TensorRate::Full,
        board_power_w: Some(210),
        pcie: pcie(4, 16),
        source: SRC_RTX_ADA,
        note: NOTE_ADA_FP8,
    },
    Product {
        device: 0x26b2,
        subsystems: &[
            (0x1028, 0x17fa),
            (0x103c, 0x17fa),
            (0x10de, 0x17fa),
            (0x17aa, 0x17fa),
        ],
        default_for_device: true,
        name: "NVIDIA RTX 5000 Ada Generation",
        chip: "AD102",
        architecture: "Ada Lovelace",
        compute_capability: (8, 9),
        segment: Segment::Workstation,
        sms: Some(100),
        cuda_cores: Some(12800),
        tensor_cores: Some(400),
        base_clock_mhz: None,
        boost_clock_mhz: Some(2550),
        tensor_clock_mhz: None,
        memory_bytes: gib(32),
        memory_type: MemoryType::Gddr6,
        bus_width_bits: Some(256),
        data_rate_gbps: Some(18.0),
        bandwidth_gb_s: Some(576.0),
        fp32_tflops: Some(65.3),
        fp16_tensor_tflops: Some(261.1),
        tensor_rate: TensorRate::Full,
        board_power_w: Some(250),
        pcie: pcie(4, 16),
        source: SRC_RTX_ADA,
        note: NOTE_ADA_FP8,
    },
    Product {
        device: 0x26b1,
        subsystems: &[
            (0x1028, 0x16a1),
            (0x103c, 0x16a1),
            (0x10de, 0x16a1),
            (0x17aa, 0x16a1),
        ],
        default_for_device: true,
        name: "NVIDIA RTX 6000 Ada Generation",
        chip: "AD102",
        architecture: "Ada Lovelace",
        compute_capability: (8, 9),
        segment: Segment::Workstation,
        sms: Some(142),
        cuda_cores: Some(18176),
        tensor_cores: Some(568),
        base_clock_mhz: None,
        boost_clock_mhz: Some(2505),
        tensor_clock_mhz: None,
        memory_bytes: gib(48),
        memory_type: MemoryType::Gddr6,
        bus_width_bits: Some(384),
        data_rate_gbps: Some(20.0),
        bandwidth_gb_s: Some(960.0),
        fp32_tflops: Some(91.1),
        fp16_tensor_tflops: Some(364.25),
        tensor_rate: TensorRate::Full,
        board_power_w: Some(300),
        pcie: pcie(4, 16),
        source: SRC_RTX_ADA,
        note: NOTE_ADA_FP8,
    },
    RTX_PRO_6000_WS,
    Product {
        device: 0x2bb4,
        subsystems: &[
            (0x1028, 0x204c),
            (0x103c, 0x204c),
            (0x10de, 0x204c),
            (0x17aa, 0x204c),
        ],
        name: "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
        fp32_tflops: None,
        board_power_w: Some(300),
        note: "Same GPU configuration and memory as the Workstation Edition at 300 W. NVIDIA \
            gives no clocks, and its FP32 rating for this edition could not be confirmed.",
        ..RTX_PRO_6000_WS
    },
    Product {
        device: 0x2bb5,
        subsystems: &[(0x10de, 0x204e), (0x10de, 0x220b)],
        name: "NVIDIA RTX PRO 6000 Blackwell Server Edition",
        segment: Segment::DataCenter,
        data_rate_gbps: None,
        bandwidth_gb_s: None,
        fp32_tflops: None,
        board_power_w: Some(600),
        note: "Same GPU configuration and memory size as the Workstation Edition; passive, \
            up to 600 W configurable. NVIDIA gives no clocks, and its FP32 and bandwidth figures \
            for this edition could not be confirmed.",
        ..RTX_PRO_6000_WS
    },
    // ---------------------------------------------------------------- GeForce: Pascal, Volta
    Product {
        device: 0x1c81,
        name: "NVIDIA GeForce GTX 1050",
        chip: "GP107",
        sms: Some(5),
        cuda_cores: Some(640),
        base_clock_mhz: Some(1354),
        boost_clock_mhz: Some(1455),
        memory_bytes: gib(2),
        bus_width_bits: Some(128),
        data_rate_gbps: Some(7.0),
        bandwidth_gb_s: Some(112.0),
        board_power_w: Some(75),
        ..GTX_1060_6GB
    },
    Product {
        device: 0x1c82,
        name: "NVIDIA GeForce GTX 1050 Ti",
        chip: "GP107",
        sms: Some(6),
        cuda_cores: Some(768),
        base_clock_mhz: Some(1290),
        boost_clock_mhz: Some(1392),
        memory_bytes: gib(4),
        bus_width_bits: Some(128),
        data_rate_gbps: Some(7.0),
        bandwidth_gb_s: Some(112.0),
        board_power_w: Some(75),
        ..GTX_1060_6GB
    },
    Product {
        device: 0x1c02,
        name: "NVIDIA GeForce GTX 1060 3GB",
        sms: Some(9),
        cuda_cores: Some(1152),
        memory_bytes: gib(3),
        ..GTX_1060_6GB
    },
    GTX_1060_6GB,
    Product {
        device: 0x1b81,
        name: "NVIDIA GeForce GTX 1070",
        chip: "GP104",
        sms: Some(15),
        cuda_cores: Some(1920),
        base_clock_mhz: Some(1506),
        boost_clock_mhz: Some(1683),
        memory_bytes: gib(8),
        bus_width_bits: Some(256),
        bandwidth_gb_s: Some(256.0),
        board_power_w: Some(150),
        ..GTX_1060_6GB
    },
    Product {
        device: 0x1b82,
        name: "NVIDIA GeForce GTX 1070 Ti",
        chip: "GP104",
        sms: Some(19),
        cuda_cores: Some(2432),
        base_clock_mhz: Some(1607),
        boost_clock_mhz: Some(1683),
        memory_bytes: gib(8),
        bus_width_bits: Some(256),
        bandwidth_gb_s: Some(256.0),
        board_power_w: Some(180),
        ..GTX_1060_6GB
    },
    Product {
        device: 0x1b80,
        name: "NVIDIA GeForce GTX 1080",
        chip: "GP104",
        sms: Some(20),
        cuda_cores: Some(2560),
        base_clock_mhz: Some(1607),
        boost_clock_mhz: Some(1733),
        memory_bytes: gib(8),
        memory_type: MemoryType::Gddr5x,
        bus_width_bits: Some(256),
        data_rate_gbps: Some(10.0),
        bandwidth_gb_s: Some(320.0),
        fp32_tflops: Some(8.873),
        board_power_w: Some(180),
        source: "NVIDIA GeForce GTX 1080 whitepaper (GP104), Table 1",
        note: "",
        ..GTX_1060_6GB
    },
    Product {
        device: 0x1b06,
        name: "NVIDIA GeForce GTX 1080 Ti",
        chip: "GP102",
        sms: Some(28),
        cuda_cores: Some(3584),
        base_clock_mhz: Some(1480),
        boost_clock_mhz: Some(1582),
        memory_bytes: gib(11),
        memory_type: MemoryType::Gddr5x,
        bus_width_bits: Some(352),
        data_rate_gbps: Some(11.0),
        bandwidth_gb_s: Some(484.0),
        board_power_w: Some(250),
        ..GTX_1060_6GB
    },
    Product {
        device: 0x1b00,
        name: "NVIDIA TITAN X (Pascal)",
        chip: "GP102",
        sms: Some(28),
        cuda_cores: Some(3584),
        base_clock_mhz: Some(1417),
        boost_clock_mhz: Some(1531),
        memory_bytes: gib(12),
        memory_type: MemoryType::Gddr5x,
        bus_width_bits: Some(384),
        data_rate_gbps: Some(10.0),
        bandwidth_gb_s: Some(480.0),
        fp32_tflops: Some(11.0),
        board_power_w: Some(250),
        source: "NVIDIA TITAN X (Pascal) product specifications (nvidia.com)",
        note: "",
        ..GTX_1060_6GB
    },
    Product {
        device: 0x1b02,
        name: "NVIDIA TITAN Xp",
        chip: "GP102",
        sms: Some(30),
        cuda_cores: Some(3840),
        base_clock_mhz: None,
        boost_clock_mhz: Some(1582),
        memory_bytes: gib(12),
        memory_type: MemoryType::Gddr5x,
        bus_width_bits: Some(384),
        data_rate_gbps: Some(11.4),
        bandwidth_gb_s: Some(547.7),
        fp32_tflops: Some(12.1),
        board_power_w: Some(250),
        source: "NVIDIA TITAN Xp product specifications (nvidia.com)",
        note: "NVIDIA lists no base clock.",
        ..GTX_1060_6GB
    },
    Product {
        device: 0x1d81,
        subsystems: &[],
        default_for_device: true,
        name: "NVIDIA TITAN V",
        chip: "GV100",
        architecture: "Volta",
        compute_capability: (7, 0),
        segment: Segment::GeForce,
        sms: Some(80),
        cuda_cores: Some(5120),
        tensor_cores: Some(640),
        base_clock_mhz: Some(1200),
        boost_clock_mhz: Some(1455),
        tensor_clock_mhz: None,
        memory_bytes: gib(12),
        memory_type: MemoryType::Hbm2,
        bus_width_bits: Some(3072),
        data_rate_gbps: Some(1.7),
        bandwidth_gb_s: Some(652.8),
        fp32_tflops: Some(14.9),
        fp16_tensor_tflops: None,
        tensor_rate: TensorRate::Full,
        board_power_w: Some(250),
        pcie: pcie(3, 16),
        source: "NVIDIA TITAN V product specifications (nvidia.com)",
        note: "NVIDIA advertises '110 TFLOPS deep learning', which matches no published clock \
            (640 tensor cores × 128 × 1455 MHz = 119.2), so the dense FP16 figure is left \
            unknown.",
    },
    // ---------------------------------------------------------------- GeForce: Turing
    Product {
        device: 0x1e02,
        name: "NVIDIA TITAN RTX",
        sms: Some(72),
        cuda_cores: Some(4608),
        tensor_cores: Some(576),
        boost_clock_mhz: Some(1770),
        memory_bytes: gib(24),
        bus_width_bits: Some(384),
        bandwidth_gb_s: Some(672.0),
        fp32_tflops: Some(16.3),
        fp16_tensor_tflops: Some(130.0),
        tensor_rate: TensorRate::Full,
        board_power_w: Some(280),
        source: "NVIDIA TITAN RTX product specifications (nvidia.com)",
        note: "TITAN: FP32 accumulation at full rate, unlike GeForce RTX boards.",
        ..RTX_2080_TI
    },
    RTX_2080_TI,
    Product {
        device: 0x1e07,
        ..RTX_2080_TI
    },
    Product {
        device: 0x1e81,
        name: "NVIDIA GeForce RTX 2080 SUPER",
        sms: Some(48),
        cuda_cores: Some(3072),
        tensor_cores: Some(384),
        base_clock_mhz: Some(1650),
        boost_clock_mhz: Some(1815),
        data_rate_gbps: Some(15.5),
        bandwidth_gb_s: Some(496.0),
        board_power_w: Some(250),
        ..RTX_2070_SUPER
    },
    RTX_2080,
    Product {
        device: 0x1e87,
        ..RTX_2080
    },
    RTX_2070_SUPER,
    RTX_2070,
    Product {
        device: 0x1f07,
        ..RTX_2070
    },
    RTX_2060_SUPER,
    Product {
        device: 0x1f08,
        name: "NVIDIA GeForce RTX 2060",
        sms: Some(30),
        cuda_cores: Some(1920),
        tensor_cores: Some(240),
        base_clock_mhz: Some(1365),
        boost_clock_mhz: Some(1680),
        memory_bytes: gib(6),
        bus_width_bits: Some(192),
        bandwidth_gb_s: Some(336.0),
        board_power_w: Some(160),
        ..RTX_2060_SUPER
    },
    Product {
        device: 0x2182,
        name: "NVIDIA GeForce GTX 1660 Ti",
        chip: "TU116",
        sms: Some(24),
        cuda_cores: Some(1536),
        tensor_cores: Some(0),
        base_clock_mhz: Some(1500),
        boost_clock_mhz: Some(1770),
        memory_bytes: gib(6),
        bus_width_bits: Some(192),
        data_rate_gbps: Some(12.0),
        bandwidth_gb_s: Some(288.0),
        tensor_rate: TensorRate::NoTensorCores,
        board_power_w: Some(120),
        note: "Turing without tensor cores (TU116). NVIDIA publishes no TFLOPS for this board.",
        ..RTX_2070_SUPER
    },
    Product {
        device: 0x21c4,
        name: "NVIDIA GeForce GTX 1660 SUPER",
        chip: "TU116",
        sms: Some(22),
        cuda_cores: Some(1408),
        tensor_cores: Some(0),
        base_clock_mhz: Some(1530),
        boost_clock_mhz: Some(1785),
        memory_bytes: gib(6),
        bus_width_bits: Some(192),
        bandwidth_gb_s: Some(336.0),
        tensor_rate: TensorRate::NoTensorCores,
        board_power_w: Some(125),
        note: "Turing without tensor cores (TU116). NVIDIA publishes no TFLOPS for this board.",
        ..RTX_2070_SUPER
    },
    Product {
        device: 0x2184,
        name: "NVIDIA GeForce GTX 1660",
        chip: "TU116",
        sms: Some(22),
        cuda_cores: Some(1408),
        tensor_cores: Some(0),
        base_clock_mhz: Some(1530),
        boost_clock_mhz: Some(1785),
        memory_bytes: gib(6),
        memory_type: MemoryType::Gddr5,
        bus_width_bits: Some(192),
        data_rate_gbps: Some(8.0),
        bandwidth_gb_s: Some(192.0),
        tensor_rate: TensorRate::NoTensorCores,
        board_power_w: Some(120),
        note: "Turing without tensor cores (TU116). NVIDIA publishes no TFLOPS for this board.",
        ..RTX_2070_SUPER
    },
    Product {
        device: 0x2187,
        name: "NVIDIA GeForce GTX 1650 SUPER",
        chip: "TU116",
        sms: Some(20),
        cuda_cores: Some(1280),
        tensor_cores: Some(0),
        base_clock_mhz: Some(1530),
        boost_clock_mhz: Some(1725),
        memory_bytes: gib(4),
        bus_width_bits: Some(128),
        data_rate_gbps: Some(12.0),
        bandwidth_gb_s: Some(192.0),
        tensor_rate: TensorRate::NoTensorCores,
        board_power_w: Some(100),
        note: "Turing without tensor cores (TU116). NVIDIA publishes no TFLOPS for this board.",
        ..RTX_2070_SUPER
    },
    Product {
        device: 0x1f82,
        name: "NVIDIA GeForce GTX 1650",
        chip: "TU117",
        sms: Some(14),
        cuda_cores: Some(896),
        tensor_cores: Some(0),
        base_clock_mhz: Some(1485),
        boost_clock_mhz: Some(1665),
        memory_bytes: gib(4),
        memory_type: MemoryType::Gddr5,
        bus_width_bits: Some(128),
        data_rate_gbps: Some(8.0),
        bandwidth_gb_s: Some(128.0),
        tensor_rate: TensorRate::NoTensorCores,
        board_power_w: Some(75),
        note: "Turing without tensor cores (TU117), the GDDR5 board. NVIDIA publishes no TFLOPS \
            for this board.",
        ..RTX_2070_SUPER
    },
    // ---------------------------------------------------------------- GeForce: Ampere
    Product {
        device: 0x2507,
        name: "NVIDIA GeForce RTX 3050",
        sms: Some(20),
        cuda_cores: Some(2560),
        tensor_cores: Some(80),
        base_clock_mhz: Some(1552),
        boost_clock_mhz: Some(1777),
        memory_bytes: gib(8),
        bus_width_bits: Some(128),
        data_rate_gbps: Some(14.0),
        bandwidth_gb_s: Some(224.0),
        board_power_w: Some(130),
        pcie: pcie(4, 8),
        note: "The GA106 8 GB board. NVIDIA publishes no TFLOPS for this board; \
            Product::fp32_tflops_at_boost gives the rate at the rated boost.",
        ..RTX_3060
    },
    RTX_3060,
    Product {
        device: 0x2504,
        note: "Lite Hash Rate board. NVIDIA publishes no TFLOPS for this board; \
            Product::fp32_tflops_at_boost gives the rate at the rated boost.",
        ..RTX_3060
    },
    RTX_3060_TI,
    Product {
        device: 0x2489,
        note: "Lite Hash Rate board. NVIDIA publishes no TFLOPS for this board; \
            Product::fp32_tflops_at_boost gives the rate at the rated boost.",
        ..RTX_3060_TI
    },
    RTX_3070,
    Product {
        device: 0x2488,
        note: "Lite Hash Rate board.",
        ..RTX_3070
    },
    Product {
        device: 0x2482,
        name: "NVIDIA GeForce RTX 3070 Ti",
        chip: "GA104",
        sms: Some(48),
        cuda_cores: Some(6144),
        tensor_cores: Some(192),
        base_clock_mhz: Some(1575),
        boost_clock_mhz: Some(1770),
        memory_bytes: gib(8),
        memory_type: MemoryType::Gddr6x,
        bus_width_bits: Some(256),
        data_rate_gbps: Some(19.0),
        bandwidth_gb_s: Some(608.0),
        board_power_w: Some(290),
        ..RTX_3060
    },
    RTX_3080,
    Product {
        device: 0x2216,
        note: "The 10 GB Lite Hash Rate board.",
        ..RTX_3080
    },
    Product {
        device: 0x220a,
        sms: Some(70),
        cuda_cores: Some(8960),
        tensor_cores: Some(280),
        base_clock_mhz: Some(1260),
        memory_bytes: gib(12),
        bus_width_bits: Some(384),
        bandwidth_gb_s: Some(912.0),
        fp32_tflops: None,
        fp16_tensor_tflops: None,
        board_power_w: Some(350),
        source: SRC_RTX30,
        note: "The 12 GB board; nvidia-smi prints the plain name. NVIDIA publishes no TFLOPS for \
            it.",
        ..RTX_3080
    },
    Product {
        device: 0x2208,
        name: "NVIDIA GeForce RTX 3080 Ti",
        sms: Some(80),
        cuda_cores: Some(10240),
        tensor_cores: Some(320),
        base_clock_mhz: Some(1365),
        boost_clock_mhz: Some(1665),
        memory_bytes: gib(12),
        bus_width_bits: Some(384),
        bandwidth_gb_s: Some(912.0),
        fp32_tflops: None,
        fp16_tensor_tflops: None,
        board_power_w: Some(350),
        source: SRC_RTX30,
        note: NOTE_GEFORCE_NO_RATING,
        ..RTX_3080
    },
    Product {
        device: 0x2204,
        name: "NVIDIA GeForce RTX 3090",
        sms: Some(82),
        cuda_cores: Some(10496),
        tensor_cores: Some(328),
        base_clock_mhz: Some(1395),
        boost_clock_mhz: Some(1695),
        memory_bytes: gib(24),
        bus_width_bits: Some(384),
        data_rate_gbps: Some(19.5),
        bandwidth_gb_s: Some(936.0),
        fp32_tflops: Some(35.6),
        fp16_tensor_tflops: Some(142.0),
        board_power_w: Some(350),
        note: "NVML reports 2100 MHz as the maximum SM clock against this 1695 MHz rated boost.",
        ..RTX_3080
    },
    Product {
        device: 0x2203,
        name: "NVIDIA GeForce RTX 3090 Ti",
        sms: Some(84),
        cuda_cores: Some(10752),
        tensor_cores: Some(336),
        base_clock_mhz: Some(1560),
        boost_clock_mhz: Some(1860),
        memory_bytes: gib(24),
        bus_width_bits: Some(384),
        data_rate_gbps: Some(21.0),
        bandwidth_gb_s: Some(1008.0),
        fp32_tflops: None,
        fp16_tensor_tflops: None,
        board_power_w: Some(450),
        source: SRC_RTX30,
        note: NOTE_GEFORCE_NO_RATING,
        ..RTX_3080
    },
    // ---------------------------------------------------------------- GeForce: Ada Lovelace
    Product {
        device: 0x2882,
        name: "NVIDIA GeForce RTX 4060",
        chip: "AD107",
        sms: Some(24),
        cuda_cores: Some(3072),
        tensor_cores: Some(96),
        base_clock_mhz: Some(1830),
        boost_clock_mhz: Some(2460),
        data_rate_gbps: Some(17.0),
        bandwidth_gb_s: Some(272.0),
        board_power_w: Some(115),
        ..RTX_4060_TI
    },
    RTX_4060_TI,
    Product {
        device: 0x2805,
        memory_bytes: gib(16),
        board_power_w: Some(165),
        note: "The 16 GB board; nvidia-smi prints the plain name. NVIDIA publishes no TFLOPS for \
            it.",
        ..RTX_4060_TI
    },
    Product {
        device: 0x2786,
        name: "NVIDIA GeForce RTX 4070",
        chip: "AD104",
        sms: Some(46),
        cuda_cores: Some(5888),
        tensor_cores: Some(184),
        base_clock_mhz: Some(1920),
        boost_clock_mhz: Some(2475),
        memory_bytes: gib(12),
        memory_type: MemoryType::Gddr6x,
        bus_width_bits: Some(192),
        data_rate_gbps: Some(21.0),
        bandwidth_gb_s: Some(504.0),
        board_power_w: Some(200),
        pcie: pcie(4, 16),
        ..RTX_4060_TI
    },
    Product {
        device: 0x2783,
        name: "NVIDIA GeForce RTX 4070 SUPER",
        chip: "AD104",
        sms: Some(56),
        cuda_cores: Some(7168),
        tensor_cores: Some(224),
        base_clock_mhz: Some(1980),
        boost_clock_mhz: Some(2475),
        memory_bytes: gib(12),
        memory_type: MemoryType::Gddr6x,
        bus_width_bits: Some(192),
        data_rate_gbps: Some(21.0),
        bandwidth_gb_s: Some(504.0),
        board_power_w: Some(220),
        pcie: pcie(4, 16),
        ..RTX_4060_TI
    },
    Product {
        device: 0x2782,
        name: "NVIDIA GeForce RTX 4070 Ti",
        chip: "AD104",
        sms: Some(60),
        cuda_cores: Some(7680),
        tensor_cores: Some(240),
        base_clock_mhz: Some(2310),
        boost_clock_mhz: Some(2610),
        memory_bytes: gib(12),
        memory_type: MemoryType::Gddr6x,
        bus_width_bits: Some(192),
        data_rate_gbps: Some(21.0),
        bandwidth_gb_s: Some(504.0),
        fp32_tflops: Some(40.1),
        fp16_tensor_tflops: Some(160.4),
        board_power_w: Some(285),
        pcie: pcie(4, 16),
        source: SRC_ADA_WP,
        note: "The whitepaper lists this configuration as the 'RTX 4080 12GB', sold as the RTX \
            4070 Ti.",
        ..RTX_4060_TI
    },
    Product {
        device: 0x2705,
        name: "NVIDIA GeForce RTX 4070 Ti SUPER",
        chip: "AD103",
        sms: Some(66),
        cuda_cores: Some(8448),
        tensor_cores: Some(264),
        base_clock_mhz: Some(2340),
        boost_clock_mhz: Some(2610),
        memory_bytes: gib(16),
        memory_type: MemoryType::Gddr6x,
        bus_width_bits: Some(256),
        data_rate_gbps: Some(21.0),
        bandwidth_gb_s: Some(672.0),
        board_power_w: Some(285),
        pcie: pcie(4, 16),
        ..RTX_4060_TI
    },
    Product {
        device: 0x2704,
        name: "NVIDIA GeForce RTX 4080",
        chip: "AD103",
        sms: Some(76),
        cuda_cores: Some(9728),
        tensor_cores: Some(304),
        base_clock_mhz: Some(2205),
        boost_clock_mhz: Some(2505),
        memory_bytes: gib(16),
        memory_type: MemoryType::Gddr6x,
        bus_width_bits: Some(256),
        data_rate_gbps: Some(22.4),
        bandwidth_gb_s: Some(716.8),
        fp32_tflops: Some(48.7),
        fp16_tensor_tflops: Some(194.9),
        board_power_w: Some(320),
        pcie: pcie(4, 16),
        source: SRC_ADA_WP,
        note: "",
        ..RTX_4060_TI
    },
    Product {
        device: 0x2702,
        name: "NVIDIA GeForce RTX 4080 SUPER",
        chip: "AD103",
        sms: Some(80),
        cuda_cores: Some(10240),
        tensor_cores: Some(320),
        base_clock_mhz: Some(2295),
        boost_clock_mhz: Some(2550),
        memory_bytes: gib(16),
        memory_type: MemoryType::Gddr6x,
        bus_width_bits: Some(256),
        data_rate_gbps: Some(23.0),
        bandwidth_gb_s: Some(736.0),
        board_power_w: Some(320),
        pcie: pcie(4, 16),
        ..RTX_4060_TI
    },
    Product {
        device: 0x2684,
        name: "NVIDIA GeForce RTX 4090",
        chip: "AD102",
        sms: Some(128),
        cuda_cores: Some(16384),
        tensor_cores: Some(512),
        base_clock_mhz: Some(2235),
        boost_clock_mhz: Some(2520),
        memory_bytes: gib(24),
        memory_type: MemoryType::Gddr6x,
        bus_width_bits: Some(384),
        data_rate_gbps: Some(21.0),
        bandwidth_gb_s: Some(1008.0),
        fp32_tflops: Some(82.6),
        fp16_tensor_tflops: Some(330.3),
        board_power_w: Some(450),
        pcie: pcie(4, 16),
        source: SRC_ADA_WP,
        note: "NVML reports 3105 MHz as the maximum SM clock against this 2520 MHz rated boost.",
        ..RTX_4060_TI
    },
    // ---------------------------------------------------------------- GeForce: Blackwell
    Product {
        device: 0x2d05,
        name: "NVIDIA GeForce RTX 5060",
        sms: Some(30),
        cuda_cores: Some(3840),
        tensor_cores: Some(120),
        base_clock_mhz: Some(2280),
        boost_clock_mhz: Some(2497),
        memory_bytes: gib(8),
        board_power_w: Some(145),
        note: NOTE_GEFORCE_NO_RATING,
        ..RTX_5060_TI
    },
    RTX_5060_TI,
    Product {
        device: 0x2f04,
        name: "NVIDIA GeForce RTX 5070",
        chip: "GB205",
        sms: Some(48),
        cuda_cores: Some(6144),
        tensor_cores: Some(192),
        base_clock_mhz: Some(2325),
        boost_clock_mhz: Some(2512),
        memory_bytes: gib(12),
        bus_width_bits: Some(192),
        bandwidth_gb_s: Some(672.0),
        fp32_tflops: Some(30.9),
        board_power_w: Some(250),
        pcie: pcie(5, 16),
        source: SRC_BLACKWELL_WP,
        note: "",
        ..RTX_5060_TI
    },
    Product {
        device: 0x2c05,
        name: "NVIDIA GeForce RTX 5070 Ti",
        chip: "GB203",
        sms: Some(70),
        cuda_cores: Some(8960),
        tensor_cores: Some(280),
        base_clock_mhz: Some(2295),
        boost_clock_mhz: Some(2452),
        memory_bytes: gib(16),
        bus_width_bits: Some(256),
        bandwidth_gb_s: Some(896.0),
        fp32_tflops: Some(43.9),
        board_power_w: Some(300),
        pcie: pcie(5, 16),
        source: SRC_BLACKWELL_WP,
        note: "",
        ..RTX_5060_TI
    },
    Product {
        device: 0x2c02,
        name: "NVIDIA GeForce RTX 5080",
        chip: "GB203",
        sms: Some(84),
        cuda_cores: Some(10752),
        tensor_cores: Some(336),
        base_clock_mhz: Some(2295),
        boost_clock_mhz: Some(2617),
        memory_bytes: gib(16),
        bus_width_bits: Some(256),
        data_rate_gbps: Some(30.0),
        bandwidth_gb_s: Some(960.0),
        fp32_tflops: Some(56.3),
        board_power_w: Some(360),
        pcie: pcie(5, 16),
        source: SRC_BLACKWELL_WP,
        note: "",
        ..RTX_5060_TI
    },
    Product {
        device: 0x2b85,
        name: "NVIDIA GeForce RTX 5090",
        chip: "GB202",
        sms: Some(170),
        cuda_cores: Some(21760),
        tensor_cores: Some(680),
        base_clock_mhz: Some(2010),
        boost_clock_mhz: Some(2407),
        memory_bytes: gib(32),
        bus_width_bits: Some(512),
        bandwidth_gb_s: Some(1792.0),
        fp32_tflops: Some(104.8),
        fp16_tensor_tflops: Some(419.0),
        board_power_w: Some(575),
        pcie: pcie(5, 16),
        source: SRC_BLACKWELL_WP,
        note: "NVML reports 3090 MHz as the maximum SM clock against this 2407 MHz rated boost.",
        ..RTX_5060_TI
    },
];

#[cfg(test)]
mod tests {
    use super::super::derive::arch_facts;
    use super::*;
    use std::collections::HashSet;
    use std::path::Path;

    /// Relative difference of `a` from `b`.
    fn rel(a: f64, b: f64) -> f64 {
        ((a - b) / b).abs()
    }

    /// True when `computed` matches the published `rated` TFLOPS: within 1 %, or within the
    /// 0.05 TFLOPS that NVIDIA's one-decimal rounding allows (3.03 is printed "3.0").
    fn matches_rating(computed: f64, rated: f64) -> bool {
        rel(computed, rated) <= 0.01 || (computed - rated).abs() <= 0.05
    }

    fn row(device: u16, subsystem: Option<(u16, u16)>) -> &'static Product {
        lookup(device, subsystem).unwrap_or_else(|| panic!("{device:#06x} not in the table"))
    }

    #[test]
    fn counts_follow_the_architecture_of_each_row() {
        for p in PRODUCTS {
            let (major, minor) = p.compute_capability;
            let f = arch_facts(major, minor)
                .unwrap_or_else(|| panic!("{}: CC {major}.{minor} unknown", p.name));
            assert!(
                p.architecture.starts_with(f.name),
                "{}: {} is not {}",
                p.name,
                p.architecture,
                f.name
            );
            let no_tc = p.tensor_rate == TensorRate::NoTensorCores;
            assert_eq!(no_tc, p.tensor_cores == Some(0), "{}: tensor rate", p.name);
            assert_eq!(
                no_tc,
                p.name.contains("GTX") || f.tensor_per_sm == 0,
                "{}",
                p.name
            );
            let Some(sms) = p.sms else {
                assert!(
                    p.cuda_cores.is_none() && p.tensor_cores.is_none(),
                    "{}",
                    p.name
                );
                continue;
            };
            assert_eq!(
                p.cuda_cores,
                Some(sms * f.fp32_per_sm),
                "{}: CUDA cores",
                p.name
            );
            let tc_per_sm = if no_tc { 0 } else { f.tensor_per_sm };
            assert_eq!(
                p.tensor_cores,
                Some(sms * tc_per_sm),
                "{}: tensor cores",
                p.name
            );
        }
    }

    #[test]
    fn rated_fp32_is_cores_times_two_times_boost() {
        let mut checked = 0;
        let mut wrong = Vec::new();
        for p in PRODUCTS {
            if let (Some(rated), Some(computed)) = (p.fp32_tflops, p.fp32_tflops_at_boost()) {
                if !matches_rating(computed, rated) {
                    wrong.push(format!(
                        "{}: {computed:.2} computed vs {rated} rated",
                        p.name
                    ));
                }
                checked += 1;
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
        assert!(checked >= 50, "only {checked} rows checked");
    }

    #[test]
    fn rated_fp16_tensor_is_tensor_cores_times_rate_times_clock() {
        let mut checked = 0;
        let mut wrong = Vec::new();
        for p in PRODUCTS {
            let (Some(rated), Some(tc), Some(clk)) = (
                p.fp16_tensor_tflops,
                p.tensor_cores,
                p.rated_tensor_clock_mhz(),
            ) else {
                continue;
            };
            let (major, minor) = p.compute_capability;
            let f = arch_facts(major, minor).unwrap();
            let share = match p.tensor_rate {
                TensorRate::NoTensorCores => panic!("{}: a tensor figure without cores", p.name),
                TensorRate::Full | TensorRate::HalfWithFp32Accumulate => 1.0,
                TensorRate::Half => 0.5,
            };
            let computed = f64::from(tc * f.fp16_flops_per_tc_clk) * f64::from(clk) / 1e6 * share;
            if !matches_rating(computed, rated) {
                wrong.push(format!(
                    "{}: {computed:.1} computed vs {rated} rated",
                    p.name
                ));
            }
            checked += 1;
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
        assert!(checked >= 35, "only {checked} rows checked");
    }

    #[test]
    fn bandwidth_is_bus_times_data_rate() {
        // Vendors round bandwidth; H200 computes 2.4 % above its datasheet's 4.8 TB/s.
        for p in PRODUCTS {
            if let (Some(published), Some(computed)) =
                (p.bandwidth_gb_s, p.bandwidth_from_bus_gb_s())
            {
                assert!(
                    rel(computed, published) <= 0.03,
                    "{}: {computed:.1} computed vs {published} GB/s published",
                    p.name
                );
            }
        }
    }

    #[test]
    fn keys_are_unique_and_each_device_has_one_default() {
        let mut keys = HashSet::new();
        let mut defaults = HashSet::new();
        let devices: HashSet<u16> = PRODUCTS.iter().map(|p| p.device).collect();
        for p in PRODUCTS {
            for s in p.subsystems {
                assert!(
                    keys.insert((p.device, *s)),
                    "{}: {:#06x} {s:04x?} twice",
                    p.name,
                    p.device
                );
            }
            if p.default_for_device {
                assert!(defaults.insert(p.device), "{:#06x}: two defaults", p.device);
            }
            assert!(!p.name.is_empty() && !p.chip.is_empty() && !p.source.is_empty());
        }
        assert_eq!(
            defaults, devices,
            "every device id needs exactly one default row"
        );
    }

    #[test]
    fn every_captured_gpu_resolves_to_the_name_nvidia_smi_printed() {
        // (PCI device, subsystem, <product_name>) from the nvidia-smi captures the fixtures
        // were built from (telegraf testdata; nvidia_gpu_exporter H100 captures).
        let captured = [
            (0x20b2, Some((0x10de, 0x147f)), "NVIDIA A100-SXM4-80GB"),
            (0x1e87, Some((0x19da, 0x2500)), "NVIDIA GeForce RTX 2080"),
            (0x1c30, Some((0x1028, 0x11b3)), "Quadro P2000"),
            (0x2204, None, "NVIDIA GeForce RTX 3090"),
            (0x1eb8, Some((0x10de, 0x12a2)), "Tesla T4"),
            (0x2330, Some((0x10de, 0x16c1)), "NVIDIA H100 80GB HBM3"),
        ];
        for (dev, sub, name) in captured {
            assert_eq!(row(dev, sub).name, name);
        }
        assert_eq!(row(0x20b2, Some((0x10de, 0x147f))).memory_bytes, gib(80));
        assert_eq!(
            row(0x1c30, Some((0x1028, 0x11b3))).memory_bytes,
            Some(5120 << 20)
        );
    }

    #[test]
    fn every_nvidia_display_device_in_the_fixtures_resolves() {
        let read = |p: &Path| {
            std::fs::read_to_string(p)
                .ok()
                .map(|s| s.trim().to_string())
        };
        let hex = |s: Option<String>| s.and_then(|s| u16::from_str_radix(&s[2..], 16).ok());
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
        let mut seen = 0;
        for fixture in std::fs::read_dir(&root).unwrap() {
            let devices = fixture.unwrap().path().join("sys/bus/pci/devices");
            let Ok(entries) = std::fs::read_dir(&devices) else {
                continue;
            };
            for d in entries {
                let d = d.unwrap().path();
                let is_gpu = read(&d.join("class")).is_some_and(|c| c.starts_with("0x03"));
                if read(&d.join("vendor")).as_deref() != Some("0x10de") || !is_gpu {
                    continue;
                }
                let device = hex(read(&d.join("device"))).unwrap();
                let sub = hex(read(&d.join("subsystem_vendor")))
                    .zip(hex(read(&d.join("subsystem_device"))));
                assert!(
                    lookup(device, sub).is_some(),
                    "{}: {device:#06x}",
                    d.display()
                );
                seen += 1;
            }
        }
        assert!(seen >= 10, "only {seen} NVIDIA GPUs found under fixtures/");
    }

    #[test]
    fn subsystem_picks_the_board_and_unknown_subsystems_fall_back() {
        // NVIDIA's driver README: 1e30 with subsystem x:129e is the RTX 8000.
        let rtx8000 = row(0x1e30, Some((0x103c, 0x129e)));
        assert_eq!(rtx8000.name, "Quadro RTX 8000");
        assert_eq!(rtx8000.memory_bytes, Some(48 << 30));
        // The reference machine's boards (10de:12ba) and an HP-branded RTX 6000 (103c:12ba,
        // not listed anywhere, so it must come from the default row) are both the RTX 6000.
        for sub in [Some((0x10de, 0x12ba)), Some((0x103c, 0x12ba)), None] {
            let p = row(0x1e30, sub);
            assert_eq!(p.name, "Quadro RTX 6000");
            assert_eq!(p.memory_bytes, Some(24 << 30));
            assert_eq!(p.cuda_cores, Some(4608));
            assert_eq!(p.boost_clock_mhz, Some(1770));
            assert_eq!(p.fp32_tflops, Some(16.3));
            assert_eq!(p.fp16_tensor_tflops, Some(130.5));
        }
        let passive = row(0x1e78, Some((0x10de, 0x13d8)));
        assert_eq!(passive.memory_bytes, Some(48 << 30));
        assert_eq!(passive.fp32_tflops, Some(14.9));
        assert_eq!(row(0x1e78, None).memory_bytes, Some(24 << 30));
        assert_eq!(row(0x25b6, Some((0x10de, 0x14a9))).name, "NVIDIA A16");
        assert_eq!(row(0x25b6, Some((0x10de, 0x157e))).name, "NVIDIA A2");
        assert_eq!(row(0x25b6, None).name, "NVIDIA A2");
        assert!(lookup(0x0001, None).is_none());
        assert!(lookup(0x1e36, Some((0x10de, 0x12ba))).is_none());
    }

    #[test]
    fn reference_check_values() {
        // gpu-architectures.md §2, one assertion group per card.
        let v100 = row(0x1db1, None);
        assert_eq!(
            (v100.sms, v100.cuda_cores, v100.tensor_cores),
            (Some(80), Some(5120), Some(640))
        );
        assert_eq!(
            (v100.boost_clock_mhz, v100.fp16_tensor_tflops),
            (Some(1530), Some(125.0))
        );
        let a100 = row(0x20b2, None);
        assert_eq!(
            (a100.sms, a100.cuda_cores, a100.tensor_cores),
            (Some(108), Some(6912), Some(432))
        );
        assert_eq!(
            (a100.boost_clock_mhz, a100.fp32_tflops),
            (Some(1410), Some(19.5))
        );
        assert_eq!(
            (a100.fp16_tensor_tflops, a100.bandwidth_gb_s),
            (Some(312.0), Some(2039.0))
        );
        let r3090 = row(0x2204, None);
        assert_eq!(
            (r3090.sms, r3090.cuda_cores, r3090.tensor_cores),
            (Some(82), Some(10496), Some(328))
        );
        assert_eq!(
            (r3090.boost_clock_mhz, r3090.fp32_tflops),
            (Some(1695), Some(35.6))
        );
        assert_eq!(r3090.fp16_tensor_tflops, Some(142.0));
        assert_eq!(r3090.fp16_tensor_fp32_acc_tflops(), Some(71.0));
        let r4090 = row(0x2684, None);
        assert_eq!(
            (r4090.sms, r4090.cuda_cores, r4090.tensor_cores),
            (Some(128), Some(16384), Some(512))
        );
        assert_eq!(
            (r4090.boost_clock_mhz, r4090.fp32_tflops),
            (Some(2520), Some(82.6))
        );
        assert_eq!(r4090.fp16_tensor_fp32_acc_tflops(), Some(165.15));
        let l40s = row(0x26b9, None);
        assert_eq!(
            (l40s.sms, l40s.boost_clock_mhz, l40s.fp32_tflops),
            (Some(142), Some(2520), Some(91.6))
        );
        assert_eq!(l40s.bandwidth_gb_s, Some(864.0));
        let ada6000 = row(0x26b1, None);
        assert_eq!(
            (ada6000.boost_clock_mhz, ada6000.fp32_tflops),
            (Some(2505), Some(91.1))
        );
        assert_eq!(ada6000.bandwidth_gb_s, Some(960.0));
        let h100 = row(0x2330, Some((0x10de, 0x16c1)));
        assert_eq!(
            (h100.sms, h100.cuda_cores, h100.tensor_cores),
            (Some(132), Some(16896), Some(528))
        );
        assert_eq!(
            (h100.boost_clock_mhz, h100.tensor_clock_mhz),
            (Some(1980), Some(1830))
        );
        assert_eq!(h100.fp16_tensor_tflops, Some(989.4));
        let h200 = row(0x2335, None);
        assert_eq!(
            (h200.memory_bytes, h200.bandwidth_gb_s),
            (Some(141 << 30), Some(4800.0))
        );
        assert_eq!(h200.fp16_tensor_tflops, Some(989.4));
        let b200 = row(0x2901, None);
        assert_eq!((b200.sms, b200.boost_clock_mhz), (None, None));
        assert_eq!(b200.fp16_tensor_tflops, Some(2250.0));
        let r5090 = row(0x2b85, None);
        assert_eq!(
            (r5090.sms, r5090.boost_clock_mhz, r5090.fp32_tflops),
            (Some(170), Some(2407), Some(104.8))
        );
        assert_eq!(r5090.bandwidth_gb_s, Some(1792.0));
    }

    #[test]
    fn memory_sizes_are_gib_even_when_not_a_power_of_two() {
        // NVML's usable totals (MiB) from captures: just under the GiB figure, far above the
        // decimal-GB one.
        for (dev, nvml_mib) in [(0x2330, 81559u64), (0x2335, 143771), (0x2204, 24576)] {
            let bytes = row(dev, None).memory_bytes.unwrap();
            assert!(nvml_mib << 20 <= bytes, "{dev:#06x}");
            assert!(
                nvml_mib << 20 > bytes / (1 << 30) * 1_000_000_000,
                "{dev:#06x}"
            );
        }
    }
}
