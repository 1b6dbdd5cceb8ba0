//! NVIDIA GPU product table: what each board is (name, chip, SMs, clocks, memory, rated
//! peaks), keyed by PCI device id and, where boards share an id, PCI subsystem.
//!
//! The table exists for two reasons. NVML's maximum SM clock is not the rated boost on
//! GeForce and workstation boards (an RTX 3090 reports 2100 MHz against a rated 1695), so a
//! rated peak needs the rated clock; and without an NVIDIA driver a GPU is only a PCI id, which
//! this table turns into a product. The rows live in `products.toml`; `build.rs` reads them
//! (`table`), checks their arithmetic (`rules`) and turns them into the static `PRODUCTS` and
//! `KEYS` below, so nothing is parsed at run time. Every row names its source, and figures
//! nobody publishes are `None`. `docs/gpu-products.md` explains the fields, the sources and how
//! to add a board.

use crate::spec::GpuDatasheet;
use crate::text::same_product_name;

pub use super::table::{Figure, MemoryType, NotAProduct, PcieLink, Segment, Sub, TensorRate};

/// One board: identity, configuration and rated figures.
///
/// Counts and clocks are per GPU; a multi-GPU board (K80, A16) has one row per GPU, and its
/// note says which figures (power) are for the whole board. The PCI ids that name it are in
/// `KEYS`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Product {
    /// Product name as nvidia-smi prints it (`Quadro RTX 6000`, `NVIDIA A100-SXM4-80GB`).
    pub name: &'static str,
    /// Other spellings the driver prints for the same board (`3050Ti` beside `3050 Ti`).
    pub also: &'static [&'static str],
    /// GPU chip (`TU102`, `GA100`): it decides the architecture and whether there are tensor
    /// cores.
    pub chip: &'static str,
    /// Architecture as nvidia-smi prints `<product_architecture>` (`Turing`, `Ada Lovelace`).
    pub architecture: &'static str,
    /// CUDA compute capability (major, minor); `None` where the chip's is not published.
    pub compute_capability: Option<(u32, u32)>,
    /// Market segment.
    pub segment: Segment,
    /// A laptop or embedded (MXM) GPU: the system maker sets its clocks and power, so it has
    /// no single rated clock or peak.
    pub mobile: bool,
    /// Streaming multiprocessors; `None` where no source gives it.
    pub sms: Option<u32>,
    /// FP32 lanes ("CUDA cores").
    pub cuda_cores: Option<u32>,
    /// Tensor cores (0 where the chip has none).
    pub tensor_cores: Option<u32>,
    /// Rated base clock, MHz.
    pub base_clock_mhz: Option<u32>,
    /// Rated boost clock, MHz: the clock the FP32 rating is computed at (reference board
    /// for GeForce, not Founders Edition).
    pub boost_clock_mhz: Option<u32>,
    /// Clock NVIDIA's tensor rating is computed at, where it is not `boost_clock_mhz`
    /// (Hopper quotes tensor rates at 1830 MHz against a 1980 MHz boost).
    pub tensor_clock_mhz: Option<u32>,
    /// Memory as sold, in bytes; GPU vendors' "GB" is GiB (see `docs/gpu-products.md`).
    pub memory_bytes: Option<u64>,
    /// Memory technology as datasheets write it (`GDDR6X`, `HBM2e`).
    pub memory_type: Option<MemoryType>,
    /// Memory bus width, bits.
    pub bus_width_bits: Option<u32>,
    /// Memory data rate per pin, Gbit/s (NVML's memory clock is half of it).
    pub data_rate_gbps: Option<f64>,
    /// Published memory bandwidth, GB/s (10^9 bytes per second).
    pub bandwidth_gb_s: Option<f64>,
    /// Published FP32 (non-tensor) peak, TFLOPS.
    pub fp32_tflops: Option<f64>,
    /// Dense (non-sparse) FP16 tensor peak accumulating in FP16, TFLOPS. Where the source
    /// gives only a sparse or FP8 figure, or none, the note says how this one follows.
    pub fp16_tensor_tflops: Option<f64>,
    /// Tensor rate class of the board (GeForce halves FP32 accumulation).
    pub tensor_rate: TensorRate,
    /// Board power (maximum / total board power), W.
    pub board_power_w: Option<u32>,
    /// Host PCI Express link of the board.
    pub pcie: Option<PcieLink>,
    /// Where the figures come from.
    pub source: &'static str,
    /// What is derived, taken from elsewhere, or left out, and why (empty where nothing is).
    pub note: &'static str,
    /// Why the board has no FP32 rating, where it has none and is no laptop part (NVIDIA
    /// publishes no figure for it); `None` for every board that has one.
    pub unrated: Option<&'static str>,
    /// Why the row is no desktop, workstation or data-center product, though its PCI id is
    /// named (`None` for the products): such a row needs no rating.
    pub not_a_product: Option<NotAProduct>,
    /// The figures that rest on a third-party source only (`third_party` in the table).
    pub third_party: &'static [Figure],
}

/// A laptop row's name without the suffix NVIDIA's driver leaves out: NVML names many laptop
/// parts as the desktop board (a GeForce GTX 1050 laptop GPU, 10de:1c8d, is "NVIDIA GeForce
/// GTX 1050"), where pci.ids and the table say "GeForce GTX 1050 Mobile"; the PCI id already
/// says it is the laptop part.
fn laptop_base_name(name: &str) -> Option<&str> {
    [" Laptop GPU", " with Max-Q Design", " Max-Q", " Mobile"]
        .iter()
        .find_map(|s| name.strip_suffix(s))
        .map(str::trim_end)
}

/// One PCI id of a product: `PRODUCTS[product]` is the board with `device` and `subsystem`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdKey {
    pub device: u16,
    pub subsystem: Sub,
    pub product: usize,
}

include!(concat!(env!("OUT_DIR"), "/gpu_products.rs"));

/// What the PCI ids of a GPU say about which board it is.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    /// One board: the subsystem names it, or it is the only board with this device id.
    One {
        product: &'static Product,
        by_subsystem: bool,
    },
    /// Several boards share the device id and no subsystem row says which: all of them, the
    /// default (what the driver would name it) first.
    Several(Vec<&'static Product>),
    /// A device id this table does not know.
    Unknown,
}

/// The board(s) a PCI device id and subsystem may be.
pub fn find(device: u16, subsystem: Option<(u16, u16)>) -> Found {
    let keys = device_keys(device);
    if keys.is_empty() {
        return Found::Unknown;
    }
    let hit = |want: &dyn Fn(Sub) -> bool| keys.iter().find(|k| want(k.subsystem));
    if let Some((v, d)) = subsystem {
        // One vendor's own row first, then NVIDIA's board id from any vendor.
        let exact = hit(&|s| s == Sub::Exact(v, d)).or_else(|| hit(&|s| s == Sub::AnyVendor(d)));
        if let Some(k) = exact {
            return Found::One {
                product: &PRODUCTS[k.product],
                by_subsystem: true,
            };
        }
    }
    let mut boards: Vec<&'static Product> = Vec::new();
    // The default row first.
    let mut ordered: Vec<&IdKey> = keys.iter().filter(|k| k.subsystem == Sub::Device).collect();
    ordered.extend(keys.iter().filter(|k| k.subsystem != Sub::Device));
    for k in ordered {
        let p = &PRODUCTS[k.product];
        if !boards.iter().any(|b| std::ptr::eq(*b, p)) {
            boards.push(p);
        }
    }
    match boards.as_slice() {
        [one] => Found::One {
            product: one,
            by_subsystem: false,
        },
        _ => Found::Several(boards),
    }
}

/// The keys of one device id (`KEYS` is sorted by device).
fn device_keys(device: u16) -> &'static [IdKey] {
    let start = KEYS.partition_point(|k| k.device < device);
    let end = KEYS.partition_point(|k| k.device <= device);
    &KEYS[start..end]
}

/// The board NVIDIA's driver names for these ids: the subsystem's row, else the device id's
/// default row, else `None`. It picks one board even where the subsystem does not decide;
/// identity (`rated::identify`) uses `find`, which says so.
pub fn lookup(device: u16, subsystem: Option<(u16, u16)>) -> Option<&'static Product> {
    match find(device, subsystem) {
        Found::One { product, .. } => Some(product),
        Found::Several(boards) => boards.first().copied(),
        Found::Unknown => None,
    }
}

/// Every PCI id of the table: (device, subsystem, product).
pub fn keys() -> impl Iterator<Item = (u16, Sub, &'static Product)> {
    KEYS.iter()
        .map(|k| (k.device, k.subsystem, &PRODUCTS[k.product]))
}

/// Facts of a compute capability as the table's `[cc]` section gives them: FP32 lanes and
/// tensor cores per SM, dense FP16 FLOPs per tensor core per clock.
pub fn cc_facts(major: u32, minor: u32) -> Option<(u32, u32, u32)> {
    CC_FACTS
        .iter()
        .find(|c| c.0 == major && c.1 == minor)
        .map(|c| (c.2, c.3, c.4))
}

impl Product {
    /// True when the driver may print `name` for this board.
    pub fn is_named(&self, name: &str) -> bool {
        same_product_name(self.name, name)
            || self.also.iter().any(|a| same_product_name(a, name))
            || (self.mobile
                && laptop_base_name(self.name).is_some_and(|b| same_product_name(b, name)))
    }

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

    /// True for GDDR memory, where turning ECC on takes 1/16 of it for check bits (a Tesla
    /// T4 with ECC on reports 15360 of its 16384 MiB); HBM keeps ECC out of band.
    pub fn memory_is_gddr(&self) -> bool {
        self.memory_type
            .is_some_and(|m| m.as_str().starts_with("GDDR"))
    }

    /// The row as the report's `datasheet` object, with the PCI ids it was found by.
    pub fn datasheet(&self, device: u16, subsystem: Option<(u16, u16)>) -> GpuDatasheet {
        let note = Some(self.note)
            .filter(|n| !n.is_empty())
            .map(str::to_string);
        GpuDatasheet {
            name: self.name.to_string(),
            pci_id: format!("10de:{device:04x}"),
            pci_subsystem: subsystem.map(|(v, d)| format!("{v:04x}:{d:04x}")),
            chip: self.chip.to_string(),
            architecture: self.architecture.to_string(),
            compute_capability: self.compute_capability.map(|(a, b)| format!("{a}.{b}")),
            segment: self.segment.as_str().to_string(),
            mobile: self.mobile,
            sm_count: self.sms,
            cuda_cores: self.cuda_cores,
            tensor_cores: self.tensor_cores,
            base_clock_mhz: self.base_clock_mhz,
            boost_clock_mhz: self.boost_clock_mhz,
            tensor_clock_mhz: self.tensor_clock_mhz,
            memory_bytes: self.memory_bytes,
            memory_type: self.memory_type.map(|m| m.as_str().to_string()),
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
            third_party: self
                .third_party
                .iter()
                .map(|f| f.datasheet_field().to_string())
                .collect(),
        }
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
    /// As datasheets (and the table) write it.
    pub fn as_str(self) -> &'static str {
        match self {
            MemoryType::Gddr3 => "GDDR3",
            MemoryType::Gddr5 => "GDDR5",
            MemoryType::Gddr5x => "GDDR5X",
            MemoryType::Gddr6 => "GDDR6",
            MemoryType::Gddr6x => "GDDR6X",
            MemoryType::Gddr7 => "GDDR7",
            MemoryType::Hbm2 => "HBM2",
            MemoryType::Hbm2e => "HBM2e",
            MemoryType::Hbm3 => "HBM3",
            MemoryType::Hbm3e => "HBM3e",
            MemoryType::Ddr3 => "DDR3",
            MemoryType::Ddr4 => "DDR4",
            MemoryType::Lpddr5 => "LPDDR5",
            MemoryType::Lpddr5x => "LPDDR5X",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::derive::arch_facts;
    use super::*;
    use std::path::{Path, PathBuf};

    fn fixture(rel: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures")
            .join(rel)
    }

    fn row(device: u16, subsystem: Option<(u16, u16)>) -> &'static Product {
        match find(device, subsystem) {
            Found::One { product, .. } => product,
            other => panic!("{device:#06x} {subsystem:04x?}: {other:?}"),
        }
    }

    fn names(f: &Found) -> Vec<&'static str> {
        match f {
            Found::One { product, .. } => vec![product.name],
            Found::Several(all) => all.iter().map(|p| p.name).collect(),
            Found::Unknown => Vec::new(),
        }
    }

    #[test]
    fn the_cc_table_of_the_data_file_is_the_architecture_table() {
        // build.rs checks rows against the data file's [cc] tables; the probe derives counts
        // from derive::arch_facts. They must be one table.
        for (major, minor, fp32, tc, rate) in CC_FACTS {
            let f = arch_facts(major, minor).unwrap_or_else(|| panic!("{major}.{minor}"));
            assert_eq!(
                (f.fp32_per_sm, f.tensor_per_sm, f.fp16_flops_per_tc_clk),
                (fp32, tc, rate),
                "{major}.{minor}"
            );
        }
        for p in &PRODUCTS {
            let (a, b) = p.compute_capability.unwrap_or((0, 0));
            assert!(
                p.compute_capability.is_none() || cc_facts(a, b).is_some(),
                "{}",
                p.name
            );
            if let Some(f) = p.compute_capability.and_then(|(a, b)| arch_facts(a, b)) {
                assert!(p.architecture.starts_with(f.name), "{}", p.name);
            }
        }
    }

    #[test]
    fn every_row_of_nvidias_supported_gpu_list_resolves_to_its_name() {
        let text =
            std::fs::read_to_string(fixture("gpu-ids/nvidia-driver-supported-gpus.csv")).unwrap();
        let hex = |s: &str| u16::from_str_radix(s, 16).unwrap();
        let mut rows = 0;
        for line in text.lines().skip(1) {
            let mut f = line.splitn(3, ',');
            let (dev, sub, name) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
            let sub = sub.split_once(':').map(|(v, d)| (hex(v), hex(d)));
            let p = lookup(hex(dev), sub).unwrap_or_else(|| panic!("{line}: not found"));
            assert!(p.is_named(name), "{line}: resolves to {}", p.name);
            // Where the subsystem is listed it decides: no ambiguity left.
            if sub.is_some() || !matches!(find(hex(dev), None), Found::Several(_)) {
                assert!(
                    matches!(find(hex(dev), sub), Found::One { .. }),
                    "{line}: ambiguous"
                );
            }
            rows += 1;
        }
        assert_eq!(rows, 825);
    }

    /// NVIDIA display devices of pci.ids from Kepler on: named by a Kepler-or-later chip code
    /// (GK…, GM…, GP…, GV…, TU…, GA…, AD…, GH…, GB…, or the GN20/GN21 laptop codes), without
    /// the chips' audio, USB and UCSI functions, NVSwitch, and the GB10/GB20B superchips' PCIe
    /// host and bridge functions.
    fn pci_ids_gpus() -> Vec<(u16, String)> {
        let text = std::fs::read_to_string(fixture("tools/sources/pci.ids-nvidia")).unwrap();
        let chip = |n: &str| {
            ["GK", "GM", "GP", "GV", "TU", "GA", "AD", "GH", "GB"]
                .iter()
                .any(|c| n.starts_with(c) && n[2..].starts_with(|ch: char| ch.is_ascii_digit()))
                || n.starts_with("GN2")
        };
        text.lines()
            .filter_map(|l| {
                let l = l.strip_prefix('\t').filter(|l| !l.starts_with('\t'))?;
                let (id, name) = l.split_once("  ")?;
                Some((u16::from_str_radix(id, 16).ok()?, name.to_string()))
            })
            .filter(|(_, n)| chip(n))
            .filter(|(_, n)| {
                let lower = n.to_lowercase();
                ![
                    "audio",
                    "usb",
                    "ucsi",
                    "nvswitch",
                    "pcie host",
                    "pci bridge",
                ]
                .iter()
                .any(|w| lower.contains(w))
            })
            .collect()
    }

    #[test]
    fn every_kepler_and_later_gpu_of_pci_ids_has_a_name_and_architecture() {
        let gpus = pci_ids_gpus();
        assert!(gpus.len() > 600, "{}", gpus.len());
        let arch_of = |code: &str| match &code[..2] {
            "GK" => "Kepler",
            "GM" => "Maxwell",
            "GP" => "Pascal",
            "GV" => "Volta",
            "TU" => "Turing",
            "GA" => "Ampere",
            "AD" => "Ada Lovelace",
            "GH" => "Hopper",
            "GB" => "Blackwell",
            // GN20 laptop parts are Ampere, GN21 Ada.
            _ if code.starts_with("GN20") => "Ampere",
            _ => "Ada Lovelace",
        };
        for (id, name) in gpus {
            let found = find(id, None);
            let boards = names(&found);
            assert!(!boards.is_empty(), "{id:04x} {name}: not in the table");
            for b in match &found {
                Found::One { product, .. } => vec![*product],
                Found::Several(all) => all.clone(),
                Found::Unknown => Vec::new(),
            } {
                assert_eq!(
                    b.architecture,
                    arch_of(&name),
                    "{id:04x} {name}: {}",
                    b.name
                );
                assert!(!b.name.is_empty() && !b.source.is_empty());
            }
        }
    }

    /// Desktop, workstation and data-center boards of Maxwell and later: pci.ids names that
    /// are only a chip code (`TU102GL`) or a chip's internal id (`GM204 D17U-20`), and
    /// engineering samples, are no board.
    fn maxwell_and_later_boards() -> impl Iterator<Item = &'static Product> {
        PRODUCTS
            .iter()
            .filter(|p| !p.mobile && p.architecture != "Kepler")
            .filter(|p| !p.name.starts_with(p.chip) && !p.name.contains("Engineering Sample"))
    }

    /// Names of the Maxwell-and-later boards without a rating, products or not.
    fn unrated_boards(products: bool) -> Vec<&'static str> {
        let mut unrated = Vec::new();
        let mut unexplained = Vec::new();
        for p in maxwell_and_later_boards().filter(|p| p.not_a_product.is_none() == products) {
            let rated = p.fp32_tflops.is_some() || p.fp32_tflops_at_boost().is_some();
            match (rated, p.unrated) {
                (true, None) => {}
                (false, Some(why)) if why.len() > 20 => unrated.push(p.name),
                _ => unexplained.push(p.name),
            }
        }
        assert!(
            unexplained.is_empty(),
            "no FP32 and no reason: {unexplained:?}"
        );
        unrated.sort_unstable();
        unrated.dedup();
        unrated
    }

    #[test]
    fn every_maxwell_and_later_product_has_a_rated_fp32_figure_or_says_why_not() {
        // The products NVIDIA publishes no FP32 rating for: export variants, superchips,
        // boards NVIDIA's list or pci.ids names without a configuration, and pci.ids names of
        // boards NVIDIA never specified. A board that gets a rating leaves this list, and one
        // that loses it joins it, so neither happens unnoticed.
        assert_eq!(
            unrated_boards(true),
            [
                "B100",
                "GB300 MaxQ",
                "GB300-252",
                "GRID M30",
                "GRID M60 Service Provider",
                "GeForce GTX 960 FAKE",
                "H20B",
                "HGX B200 168GB",
                "L30",
                "NVIDIA A100-SXM-64GB",
                "NVIDIA A800-SXM4-40GB",
                "NVIDIA AX800",
                "NVIDIA GB300",
                "NVIDIA H100",
                "NVIDIA H20",
                "NVIDIA H20 NVL16",
                "NVIDIA H20-3e",
                "NVIDIA H800 NVL",
                "NVIDIA L2",
                "NVIDIA RTX 2000E Ada Generation",
                "RTX PRO 4500 Blackwell Server Edition",
                "RTX PRO 6000D Blackwell Max-Q Workstation Edition",
                "RTX PRO 6000D Blackwell Workstation Edition",
                "TS4 / B100",
                "Tesla T10",
                "Tesla V100-SXM3-32GB-H",
            ]
        );
        for rated in [
            "NVIDIA GB200",
            "NVIDIA GH200 120GB",
            "NVIDIA GH200 480GB",
            "NVIDIA GH200 144G HBM3e",
            "NVIDIA RTX PRO 6000 Blackwell Max-Q Workstation Edition",
            "NVIDIA RTX PRO 6000 Blackwell Server Edition",
            "Tesla P6",
        ] {
            let p = PRODUCTS
                .iter()
                .find(|p| p.name == rated)
                .unwrap_or_else(|| panic!("{rated}"));
            assert!(
                p.fp32_tflops.is_some() && p.not_a_product.is_none(),
                "{rated}"
            );
        }
    }

    #[test]
    fn boards_never_sold_as_products_say_what_they_are_and_need_no_rating() {
        // Engineering boards, unannounced boards, mining boards and automotive modules are
        // named, but are not products that need a rating: those without one say why.
        assert_eq!(
            unrated_boards(false),
            [
                "A100-PG506-207",
                "A100-PG506-217",
                "CMP 100-100",
                "CMP 100-200",
                "CMP 100-210",
                "CMP 170HX",
                "GB6-128 (N22Y-ES-A1)",
                "GB6-256(N22W-ES-A1)",
                "GeForce GTX 1080 Ti 10GB",
                "GeForce RTX 2080 Ti 12GB",
                "GeForce RTX 3070 GDDR6X",
                "L16",
                "NVIDIA DRIVE P2021",
                "PG189 SKU600",
                "RTX TITAN Ada",
                "Tesla GV100 DGX1-V",
                "Tesla GV100 SXM2-16GB SKU 890",
                "Tesla PG503-216",
                "Tesla T40 24GB",
            ]
        );
        let kind = |name: &str| {
            PRODUCTS
                .iter()
                .find(|p| p.name == name)
                .and_then(|p| p.not_a_product)
        };
        assert_eq!(kind("CMP 170HX"), Some(NotAProduct::MiningBoard));
        assert_eq!(kind("P106-100"), Some(NotAProduct::MiningBoard));
        assert_eq!(
            kind("NVIDIA DRIVE P2021"),
            Some(NotAProduct::AutomotiveModule)
        );
        assert_eq!(kind("Tesla PG503-216"), Some(NotAProduct::EngineeringBoard));
        assert_eq!(kind("NVIDIA A100-PCIE-40GB"), None);
    }

    #[test]
    fn lab_teslas_of_kepler_and_maxwell_have_rated_figures() {
        // The 12 GB Tesla M40 is the default of 0x17fd; the 24 GB board is a candidate.
        for (id, name, fp32) in [
            (0x102d, "Tesla K80", 4.37),
            (0x1023, "Tesla K40m", 5.04),
            (0x17fd, "Tesla M40", 6.8),
            (0x13f2, "Tesla M60", 4.83),
            (0x13bd, "Tesla M10", 1.67),
            (0x1b38, "Tesla P40", 11.76),
            (0x1bb3, "Tesla P4", 5.44),
        ] {
            let p = lookup(id, None).unwrap();
            assert_eq!(p.name, name);
            assert_eq!(p.fp32_tflops, Some(fp32), "{name}");
        }
    }

    #[test]
    fn tensor_cores_are_the_chips_not_the_names() {
        for p in &PRODUCTS {
            if p.chip == "TU116" || p.chip == "TU117" || p.architecture == "Pascal" {
                assert_eq!(p.tensor_rate, TensorRate::NoTensorCores, "{}", p.name);
                assert!(p.tensor_cores.unwrap_or(0) == 0, "{}", p.name);
            }
        }
        for (id, name) in [
            (0x1fb0, "NVIDIA T1000"),
            (0x1ff2, "NVIDIA T400 4GB"),
            (0x1fb1, "NVIDIA T600"),
        ] {
            let p = lookup(id, None).unwrap();
            assert_eq!((p.name, p.tensor_rate), (name, TensorRate::NoTensorCores));
        }
        // A GTX 1660 SUPER built on TU106 has the chip's tensor cores disabled.
        assert_eq!(row(0x1f09, None).tensor_cores, Some(0));
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
        assert_eq!(
            row(0x20b2, Some((0x10de, 0x147f))).memory_bytes,
            Some(80 << 30)
        );
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
        let mut seen = 0;
        for fixture in std::fs::read_dir(fixture("")).unwrap() {
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
                    matches!(find(device, sub), Found::One { .. }),
                    "{}: {device:#06x}",
                    d.display()
                );
                seen += 1;
            }
        }
        assert!(seen >= 10, "only {seen} NVIDIA GPUs found under fixtures/");
    }

    #[test]
    fn the_subsystem_decides_across_board_makers_and_nothing_else_guesses() {
        // x:129e is NVIDIA's Quadro RTX 8000 board id: Dell, HP, NVIDIA are listed, and a
        // Lenovo or PNY board with it is the same board.
        for vendor in [0x1028, 0x103c, 0x10de, 0x17aa, 0x196e] {
            let p = row(0x1e30, Some((vendor, 0x129e)));
            assert_eq!(
                (p.name, p.memory_bytes),
                ("Quadro RTX 8000", Some(48 << 30))
            );
        }
        // x:12ba is the RTX 6000 board (pci.ids), whoever built it.
        for vendor in [0x10de, 0x103c] {
            let p = row(0x1e30, Some((vendor, 0x12ba)));
            assert_eq!(
                (p.name, p.memory_bytes),
                ("Quadro RTX 6000", Some(24 << 30))
            );
            assert_eq!(
                (p.fp32_tflops, p.fp16_tensor_tflops),
                (Some(16.3), Some(130.5))
            );
        }
        // Any other subsystem, or none, leaves both: the default (the driver's name) first.
        for sub in [Some((0x17aa, 0x1234)), None] {
            assert_eq!(
                names(&find(0x1e30, sub)),
                ["Quadro RTX 6000", "Quadro RTX 8000"]
            );
        }
        assert_eq!(
            lookup(0x1e30, None).map(|p| p.name),
            Some("Quadro RTX 6000")
        );
        assert_eq!(row(0x1e78, Some((0x10de, 0x13d8))).fp32_tflops, Some(14.9));
        assert_eq!(names(&find(0x25b6, None)), ["NVIDIA A2", "NVIDIA A16"]);
        assert_eq!(row(0x25b6, Some((0x10de, 0x14a9))).name, "NVIDIA A16");
        // A laptop maker's own subsystem decides only for that maker.
        assert_eq!(
            row(0x1e90, Some((0x1025, 0x1375))).name,
            "NVIDIA GeForce RTX 2080 with Max-Q Design"
        );
        assert!(matches!(
            find(0x1e90, Some((0x1043, 0x1375))),
            Found::Several(_)
        ));
        assert_eq!(find(0x0001, None), Found::Unknown);
    }

    #[test]
    fn boards_that_share_a_device_id_with_nothing_to_tell_them_apart_are_all_candidates() {
        // 0x2803: 8 GB and 16 GB RTX 4060 Ti boards. The default (8 GB) comes first; the 16 GB
        // board is listed whatever the subsystem, and no subsystem picks it.
        for sub in [None, Some((0x10de, 0x0000)), Some((0x1043, 0x8866))] {
            let Found::Several(boards) = find(0x2803, sub) else {
                panic!("0x2803 {sub:04x?}: not several boards");
            };
            let memory: Vec<Option<u64>> = boards.iter().map(|p| p.memory_bytes).collect();
            assert_eq!(memory, [Some(8 << 30), Some(16 << 30)], "{sub:04x?}");
            assert!(boards
                .iter()
                .all(|p| p.name == "NVIDIA GeForce RTX 4060 Ti"));
        }
        assert_eq!(
            lookup(0x2803, None).and_then(|p| p.memory_bytes),
            Some(8 << 30)
        );
        // NVML's name decides where the candidates' names differ (Tesla M40 / M40 24GB).
        assert_eq!(names(&find(0x17fd, None)), ["Tesla M40", "Tesla M40 24GB"]);
        // A candidate row is never a default and never reached by subsystem.
        for (device, sub, p) in keys() {
            if sub == Sub::Candidate {
                assert!(
                    keys().any(|(d, s, _)| d == device && s == Sub::Device),
                    "{device:04x}: {}",
                    p.name
                );
            }
        }
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
        let a100 = row(0x20b2, Some((0x10de, 0x147f)));
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
        let ada6000 = row(0x26b1, Some((0x10de, 0x16a1)));
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
    fn segments_and_memory_types_print_as_the_table_writes_them() {
        // The report's spellings (`as_str`) are the table's (serde's renames in `table`).
        #[derive(serde::Deserialize)]
        struct One<T> {
            v: T,
        }
        fn read<T: serde::de::DeserializeOwned>(s: &str) -> T {
            toml::from_str::<One<T>>(&format!("v = {s:?}")).unwrap().v
        }
        for p in &PRODUCTS {
            assert_eq!(read::<Segment>(p.segment.as_str()), p.segment, "{}", p.name);
            if let Some(m) = p.memory_type {
                assert_eq!(read::<MemoryType>(m.as_str()), m, "{}", p.name);
            }
        }
        assert!(row(0x1eb8, Some((0x10de, 0x12a2))).memory_is_gddr());
        assert!(!row(0x20b2, Some((0x10de, 0x147f))).memory_is_gddr());
    }

    #[test]
    fn memory_sizes_are_gib_even_when_not_a_power_of_two() {
        // NVML's usable totals (MiB) from captures: just under the GiB figure, far above the
        // decimal-GB one.
        for (dev, nvml_mib) in [(0x2330, 81559u64), (0x2335, 143771), (0x2204, 24576)] {
            let bytes = lookup(dev, None).unwrap().memory_bytes.unwrap();
            assert!(nvml_mib << 20 <= bytes, "{dev:#06x}");
            assert!(
                nvml_mib << 20 > bytes / (1 << 30) * 1_000_000_000,
                "{dev:#06x}"
            );
        }
    }
}
