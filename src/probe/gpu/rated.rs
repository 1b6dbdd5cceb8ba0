//! What a GPU is rated at and what it can reach: the product table joined with NVML's
//! answers. Fills facts NVML could not give from the datasheet (no driver, MIG, old drivers),
//! marking each; computes rated peaks at the rated boost clock and the same peaks at NVML's
//! max SM clock; and says where NVML and the datasheet disagree.
//!
//! Rated figures use the datasheet's boost clock first: it is the clock NVIDIA's rating is
//! computed at, while NVML's "max customer boost clock" is not always it (a Quadro P2000
//! reports 1721 MHz there against the 1480 MHz its 3.0 TFLOPS rating implies). NVML's
//! customer boost is used only for boards the table has no clock for.

use crate::plausible;
use crate::spec::identity::either;
use crate::spec::{Gpu, GpuIdentity, Notes};

use super::derive::{self, ArchFacts};
use super::products::{self, Found, Product, TensorRate};

/// `fact_sources` value for a fact the driver gave.
pub const NVML: &str = "nvml";
/// `fact_sources` value for a fact taken from the product table.
pub const DATASHEET: &str = Gpu::FROM_DATASHEET;

/// PCI ids of a GPU: device (vendor 0x10de) and subsystem (vendor, device).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PciIds {
    pub device: u16,
    pub subsystem: Option<(u16, u16)>,
}

impl PciIds {
    /// `10de:1e30 (subsystem 10de:12ba)`.
    pub fn describe(&self) -> String {
        match self.subsystem {
            Some((v, d)) => format!("10de:{:04x} (subsystem {v:04x}:{d:04x})", self.device),
            None => format!("10de:{:04x}", self.device),
        }
    }
}

/// How sure the identity of a GPU is (`spec::GpuIdentity::certainty`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Certainty {
    /// NVML's name is a board the PCI ids allow.
    NvmlAndPciAgree,
    /// No name from NVML; the PCI ids (with the subsystem) name one board.
    PciUnique,
    /// No name from NVML; the PCI ids allow several boards and nothing decides.
    PciAmbiguous,
    /// NVML's name is none of the boards the PCI ids allow.
    Contradicted,
    /// NVML's name; the PCI ids are not in the product table, or unknown.
    NvmlOnly,
    /// Neither names the board.
    Unknown,
}

impl Certainty {
    /// The JSON word.
    pub fn as_str(self) -> &'static str {
        match self {
            Certainty::NvmlAndPciAgree => GpuIdentity::AGREE,
            Certainty::PciUnique => GpuIdentity::PCI_UNIQUE,
            Certainty::PciAmbiguous => GpuIdentity::PCI_AMBIGUOUS,
            Certainty::Contradicted => GpuIdentity::CONTRADICTED,
            Certainty::NvmlOnly => GpuIdentity::NVML_ONLY,
            Certainty::Unknown => GpuIdentity::UNKNOWN,
        }
    }
}

/// Which board a GPU is, from its PCI ids and the name NVML gives, and how sure that is.
#[derive(Debug, Clone, PartialEq)]
pub struct Identity {
    pub certainty: Certainty,
    /// The board, where NVML and the PCI ids agree or the PCI ids name one.
    pub product: Option<&'static Product>,
    /// The boards the PCI ids allow, where they allow several or NVML contradicts them.
    pub candidates: Vec<&'static Product>,
    /// How it was established, in words.
    pub detail: String,
}

/// Names a driver too old for the board prints instead of a product name: no evidence of
/// which board it is, so the PCI ids decide.
pub fn is_placeholder_name(name: &str) -> bool {
    let n = name.trim().to_ascii_lowercase();
    let n = n.strip_prefix("nvidia ").unwrap_or(&n);
    matches!(n, "graphics device" | "device" | "unknown" | "")
}

impl Identity {
    /// The boards every datasheet fact of this GPU may come from: the one board, else (no
    /// NVML name) all candidates, of which only the facts they share are used; none where
    /// NVML contradicts the PCI ids, so one board's figures never mix with another's.
    pub fn rows(&self) -> Vec<&'static Product> {
        match (self.product, self.certainty) {
            (Some(p), _) => vec![p],
            (None, Certainty::PciAmbiguous) => self.candidates.clone(),
            _ => Vec::new(),
        }
    }

    /// The board whose datasheet the report shows: the identified one, else the one the
    /// PCI ids name where NVML contradicts them.
    pub fn datasheet_row(&self) -> Option<&'static Product> {
        match (self.product, self.certainty, self.candidates.as_slice()) {
            (Some(p), _, _) => Some(p),
            (None, Certainty::Contradicted, [one]) => Some(one),
            _ => None,
        }
    }

    /// The row the rated figures may use: the board, or the candidates' shared row where
    /// every figure a rating needs is the same on all of them (Quadro RTX 6000 and 8000).
    pub fn rating_row(&self) -> Option<&'static Product> {
        let rows = self.rows();
        let first = *rows.first()?;
        // What a rating reads: the same on every candidate, or no shared rating.
        let key = |p: &Product| {
            (
                p.cuda_cores,
                p.boost_clock_mhz,
                p.tensor_clock_mhz,
                p.tensor_rate,
                p.bandwidth_gb_s.map(f64::to_bits),
                p.fp32_tflops.map(f64::to_bits),
                p.fp16_tensor_tflops.map(f64::to_bits),
            )
        };
        let same = |p: &&Product| key(p) == key(first);
        rows.iter().all(same).then_some(first)
    }

    /// The chip of every board the PCI ids allow, where it has no tensor cores (TU116,
    /// TU117, Pascal): a T1000 that might be a DGX Display has none either way, whatever the
    /// name says. `None` where the boards differ or no board is known.
    pub fn tensorless_chip(&self) -> Option<&'static str> {
        let rows = self.rows();
        let chip = rows.first()?.chip;
        rows.iter()
            .all(|p| p.chip == chip && p.tensor_rate == TensorRate::NoTensorCores)
            .then_some(chip)
    }

    /// As the report's `identity` object.
    pub fn to_spec(&self) -> GpuIdentity {
        GpuIdentity {
            certainty: self.certainty.as_str().to_string(),
            candidates: self.candidates.iter().map(|p| p.name.to_string()).collect(),
            detail: self.detail.clone(),
        }
    }
}

/// Identifies a GPU from its PCI ids and the name NVML gives (`None` without a driver).
///
/// The subsystem decides where NVIDIA's list says it does, across board makers for NVIDIA's
/// own board ids (x:129e is a Quadro RTX 8000 whoever built it). Where several boards share the
/// ids and nothing decides, NVML's name decides; without it the GPU is one of the candidates,
/// and only what they share is known. A name that is none of the boards the ids allow is a
/// contradiction: a relabelled or re-flashed card, or a table row to correct.
pub fn identify(
    ids: Option<PciIds>,
    nvml_name: Option<&str>,
    nvml_memory: Option<u64>,
) -> Identity {
    let placeholder = nvml_name.filter(|n| is_placeholder_name(n));
    let nvml_name = nvml_name.filter(|n| !is_placeholder_name(n));
    let found = ids.map_or(Found::Unknown, |i| products::find(i.device, i.subsystem));
    let what = ids.map(|i| i.describe()).unwrap_or_default();
    let old_driver = placeholder
        .map(|n| format!("; NVML names it '{n}' (a driver older than the board)"))
        .unwrap_or_default();
    let ident = |certainty, product, candidates, detail| Identity {
        certainty,
        product,
        candidates,
        detail,
    };
    match (found, nvml_name) {
        (Found::Unknown, Some(n)) => ident(
            Certainty::NvmlOnly,
            None,
            Vec::new(),
            match ids {
                Some(_) => format!(
                    "NVML names it '{n}'; PCI {what} is not in the product table{}",
                    known_as(n)
                ),
                None => format!("NVML names it '{n}'; its PCI ids could not be read"),
            },
        ),
        (Found::Unknown, None) => ident(
            Certainty::Unknown,
            None,
            Vec::new(),
            match ids {
                Some(_) => format!(
                    "PCI {what} is not in the product table and NVML gave no name{old_driver}"
                ),
                None => {
                    format!("neither its PCI ids nor a name from NVML could be read{old_driver}")
                }
            },
        ),
        (
            Found::One {
                product,
                by_subsystem,
            },
            None,
        ) => ident(
            Certainty::PciUnique,
            Some(product),
            Vec::new(),
            format!(
                "PCI {what} is the {}{}{old_driver}",
                product.name,
                if by_subsystem {
                    " (the subsystem decides)"
                } else {
                    ""
                }
            ),
        ),
        (Found::One { product, .. }, Some(n)) if product.is_named(n) => ident(
            Certainty::NvmlAndPciAgree,
            Some(product),
            Vec::new(),
            format!("NVML's name and PCI {what} agree"),
        ),
        (Found::One { product, .. }, Some(n)) => ident(
            Certainty::Contradicted,
            None,
            vec![product],
            format!(
                "NVML names it '{n}', but PCI {what} is the {}",
                product.name
            ),
        ),
        (Found::Several(boards), Some(n)) => match by_memory(&boards, n, nvml_memory) {
            Some(p) => ident(
                Certainty::NvmlAndPciAgree,
                Some(p),
                Vec::new(),
                match distinct_names(&boards).as_slice() {
                    [one] => format!(
                        "PCI {what} is one of the {one} boards; NVML's name and memory decide"
                    ),
                    names => format!(
                        "PCI {what} is one of {}; NVML's name decides",
                        either(names)
                    ),
                },
            ),
            None => {
                let names = distinct_names(&boards);
                ident(
                    Certainty::Contradicted,
                    None,
                    boards,
                    format!(
                        "NVML names it '{n}', but PCI {what} is the {}",
                        either(&names)
                    ),
                )
            }
        },
        (Found::Several(boards), None) => {
            let names = distinct_names(&boards);
            ident(
                Certainty::PciAmbiguous,
                None,
                boards,
                format!(
                    "PCI {what} is the {}: the subsystem does not say which, and without the \
                     NVIDIA driver nothing else does{old_driver}",
                    either(&names)
                ),
            )
        }
    }
}

/// `, which knows the Quadro RTX 6000 as 10de:1e30`: where the product table knows a board of
/// NVML's name under other PCI ids (the first few), else nothing.
fn known_as(name: &str) -> String {
    let mut ids: Vec<String> = Vec::new();
    let mut board = None;
    for (device, _, p) in products::keys() {
        if p.is_named(name) {
            board.get_or_insert(p.name);
            let id = format!("10de:{device:04x}");
            if !ids.contains(&id) {
                ids.push(id);
            }
        }
    }
    match board {
        Some(b) => format!(
            ", which knows the {b} as {}",
            either(&ids[..ids.len().min(3)])
        ),
        None => String::new(),
    }
}

/// The boards' names, each once (an 8 and a 16 GB board may share one).
fn distinct_names(boards: &[&'static Product]) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for p in boards {
        if !names.contains(&p.name) {
            names.push(p.name);
        }
    }
    names
}

/// The board NVML names among several the PCI ids allow; where boards of one name differ in
/// memory (an 8 and a 16 GB RTX 4060 Ti under one device id), the smallest whose memory holds
/// what NVML reports (NVML's total is a little under the board's, less again with ECC on),
/// else the largest.
fn by_memory(
    boards: &[&'static Product],
    name: &str,
    nvml_memory: Option<u64>,
) -> Option<&'static Product> {
    let named: Vec<&'static Product> = boards
        .iter()
        .copied()
        .filter(|p| p.is_named(name))
        .collect();
    if named.len() < 2 {
        return named.first().copied();
    }
    let Some(total) = nvml_memory else {
        return named.first().copied();
    };
    let holds = named
        .iter()
        .filter(|p| p.memory_bytes.is_some_and(|m| m >= total))
        .min_by_key(|p| p.memory_bytes);
    holds
        .or_else(|| named.iter().max_by_key(|p| p.memory_bytes))
        .copied()
}

/// The value of `f` on every row of `rows`, when they all give the same one.
fn shared<T: PartialEq>(rows: &[&Product], f: impl Fn(&Product) -> Option<T>) -> Option<T> {
    let mut values = rows.iter().map(|p| f(p));
    let first = values.next()??;
    values.all(|v| v.as_ref() == Some(&first)).then_some(first)
}

/// Sets the source of every identity fact NVML gave, and fills the ones it did not give
/// from the datasheet: of the one board `rows` holds, or, where it holds several candidates,
/// only the facts they all share (a Quadro RTX 6000 or 8000 has 4608 CUDA cores either way,
/// but its memory is unknown). `nvml` says whether the driver answered for this GPU at all:
/// with it, a filled fact gets a note saying why NVML had none; without it one note on the
/// GPU says so for all of them (written by the caller).
pub fn fill_from_datasheet(
    g: &mut Gpu,
    rows: &[&Product],
    i: usize,
    nvml: bool,
    notes: &mut Notes,
) {
    let whose = match rows {
        [one] => one.name.to_string(),
        _ => format!(
            "the same on the {}",
            either(&rows.iter().map(|p| p.name).collect::<Vec<_>>())
        ),
    };
    let mark = |g: &mut Gpu, field: &str, had: bool, filled: bool, notes: &mut Notes| {
        if had {
            if nvml {
                g.fact_sources.insert(field.to_string(), NVML.to_string());
            }
        } else if filled {
            g.fact_sources
                .insert(field.to_string(), DATASHEET.to_string());
            if nvml {
                replace_notes(notes, &format!("gpus[{i}].{field}"), |old| {
                    format!(
                        "from the datasheet ({whose}){}",
                        if old.is_empty() {
                            String::new()
                        } else {
                            format!(": NVML gave none ({old})")
                        }
                    )
                });
            }
        }
    };
    let had = g.name.is_some();
    if !had {
        g.name = shared(rows, |p| Some(p.name.to_string()));
    }
    mark(g, "name", had, g.name.is_some(), notes);
    let had = g.architecture.is_some();
    if !had {
        g.architecture = shared(rows, |p| Some(p.architecture.to_string()));
    }
    mark(g, "architecture", had, g.architecture.is_some(), notes);
    let had = g.compute_capability.is_some();
    if !had {
        g.compute_capability = shared(rows, |p| {
            p.compute_capability.map(|(a, b)| format!("{a}.{b}"))
        });
    }
    mark(
        g,
        "compute_capability",
        had,
        g.compute_capability.is_some(),
        notes,
    );
    let had = g.cuda_cores.is_some();
    if !had {
        g.cuda_cores = shared(rows, |p| p.cuda_cores);
    }
    mark(g, "cuda_cores", had, g.cuda_cores.is_some(), notes);
    let had = g.vram_bytes.is_some();
    if !had {
        g.vram_bytes = shared(rows, |p| p.memory_bytes);
        note_candidates(
            rows,
            i,
            "vram_bytes",
            |p| p.memory_bytes.map(bytes_bin),
            notes,
        );
    }
    mark(g, "vram_bytes", had, g.vram_bytes.is_some(), notes);
    let had = g.memory_bus_width_bits.is_some();
    if !had {
        g.memory_bus_width_bits = shared(rows, |p| p.bus_width_bits);
        note_candidates(
            rows,
            i,
            "memory_bus_width_bits",
            |p| p.bus_width_bits.map(|b| format!("{b}-bit")),
            notes,
        );
    }
    mark(
        g,
        "memory_bus_width_bits",
        had,
        g.memory_bus_width_bits.is_some(),
        notes,
    );
}

/// Where the boards a GPU may be differ in a fact (NVIDIA sells the RTX 4060 Ti with 8 or
/// 16 GiB under one device id), the fact is unknown without the driver: the note gives the
/// candidates' values, so an order for either size reads "unknown", never the other size.
fn note_candidates(
    rows: &[&Product],
    i: usize,
    field: &str,
    value: impl Fn(&Product) -> Option<String>,
    notes: &mut Notes,
) {
    let mut values: Vec<String> = Vec::new();
    for p in rows {
        let v = value(p).unwrap_or_else(|| "unknown".into());
        if !values.contains(&v) {
            values.push(v);
        }
    }
    if values.len() > 1 {
        let mut names: Vec<&str> = Vec::new();
        for p in rows {
            if !names.contains(&p.name) {
                names.push(p.name);
            }
        }
        let whose = match names.as_slice() {
            [one] => format!("NVIDIA sells the {one} with either under one PCI id"),
            _ => format!("the {}", either(&names)),
        };
        notes.add(
            format!("gpus[{i}].{field}"),
            format!(
                "unknown: {} ({whose}); the NVIDIA driver's answer decides",
                either(&values)
            ),
        );
    }
}

/// `8 GiB`.
fn bytes_bin(b: u64) -> String {
    crate::units::bytes_bin(b)
}

/// Says, on each fact of the GPU that rests on a datasheet figure no NVIDIA document gives
/// (the row's `third_party`), that it is a third-party figure: a fact filled from such a
/// figure, or a rating at a third-party boost clock.
pub fn note_third_party(g: &Gpu, p: &Product, i: usize, notes: &mut Notes) {
    use super::table::Figure;
    if p.third_party.is_empty() {
        return;
    }
    let third = |f: Figure| p.third_party.contains(&f);
    let from_table = |field: &str| g.from_datasheet(field);
    let mut say = |field: &str, figure: &str| {
        notes.add(
            format!("gpus[{i}].{field}"),
            format!(
                "third-party figure: the {} datasheet's {figure} comes from no NVIDIA document \
                 (the product table's source for it is third-party)",
                p.name
            ),
        );
    };
    for (field, figure, what) in [
        ("sm_count", Figure::Sms, "SM count"),
        ("cuda_cores", Figure::CudaCores, "CUDA core count"),
        ("tensor_cores", Figure::TensorCores, "tensor core count"),
        ("vram_bytes", Figure::MemoryGib, "memory size"),
        ("memory_bus_width_bits", Figure::BusBits, "memory bus width"),
        (
            "memory_bandwidth_bytes_per_s",
            Figure::BandwidthGbS,
            "memory bandwidth",
        ),
    ] {
        if from_table(field) && third(figure) {
            say(field, what);
        }
    }
    if g.rated_clock_source.as_deref() == Some(DATASHEET) && third(Figure::BoostMhz) {
        say("rated_clock_mhz", "boost clock");
        if g.fp32_tflops.is_some() {
            say("fp32_tflops", "boost clock (the rating is at it)");
        }
    } else if g.fp32_tflops.is_some() && g.rated_clock_mhz.is_none() && third(Figure::Fp32Tflops) {
        say("fp32_tflops", "FP32 rating");
    }
}

/// Replaces the notes on `field` with one note made from their joined reasons.
fn replace_notes(notes: &mut Notes, field: &str, make: impl FnOnce(&str) -> String) {
    let old: Vec<String> = notes
        .0
        .iter()
        .filter(|n| n.field == field)
        .map(|n| n.reason.clone())
        .collect();
    notes.0.retain(|n| n.field != field);
    notes.add(field, make(&old.join("; ")));
}

fn round2(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

/// Dense FP16 tensor TFLOPS of `tc` tensor cores at `clock`, FP16 and FP32 accumulate, by
/// the board's tensor rate class.
fn tensor_pair(tc: u32, f: &ArchFacts, clock: u32, rate: TensorRate) -> (f64, f64) {
    let full = derive::fp16_tensor_tflops(tc, f, clock);
    match rate {
        TensorRate::Half => (round2(full / 2.0), round2(full / 2.0)),
        TensorRate::HalfWithFp32Accumulate => (full, round2(full / 2.0)),
        TensorRate::Full | TensorRate::NoTensorCores => (full, full),
    }
}

/// Why a GPU has no product table row: its PCI ids are not in the table, or there were no
/// ids to look up (no PCI tree shows the GPU and NVML gave none).
fn not_found(g: &Gpu) -> &'static str {
    if g.pci_device_id.is_some() {
        "the board is not in the product table"
    } else {
        "the board is not identified (no PCI ids from sysfs or NVML)"
    }
}

/// SMs, tensor cores, bandwidth, rated peaks and max-clock peaks, with notes where a
/// figure is unknown or where the rated and max-clock figures differ. `p` is the row the
/// rating may use; `tensorless` the chip without tensor cores that every board the PCI ids
/// allow is built on (`Identity::tensorless_chip`), which decides even where no single row
/// rates the GPU.
pub fn derive_capability(
    g: &mut Gpu,
    p: Option<&Product>,
    tensorless: Option<&str>,
    i: usize,
    notes: &mut Notes,
) {
    let field = |f: &str| format!("gpus[{i}].{f}");
    let cores_source = g.fact_sources.get("cuda_cores").cloned();
    // NVML's bus and clock give the bandwidth where the product is one a GPU can have.
    let from_nvml = match (g.memory_bus_width_bits, g.max_memory_clock_mhz) {
        (Some(bus), Some(clk)) => {
            let bw = derive::bandwidth_bytes_per_s(bus, clk)
                .ok_or_else(|| "past 2^64 bytes/s".to_string())
                .and_then(|b| plausible::GPU_MEMORY_BANDWIDTH.check(b));
            match bw {
                Ok(b) => Some(b),
                Err(why) => {
                    notes.add(
                        field("memory_bandwidth_bytes_per_s"),
                        format!("a {bus}-bit bus at {clk} MHz gives {why}"),
                    );
                    None
                }
            }
        }
        _ => None,
    };
    if let Some(bw) = from_nvml {
        g.memory_bandwidth_bytes_per_s = Some(bw);
        if g.index.is_some() {
            g.fact_sources
                .insert("memory_bandwidth_bytes_per_s".into(), NVML.into());
        }
    } else if let Some(bw) = p.and_then(|p| p.bandwidth_gb_s) {
        g.memory_bandwidth_bytes_per_s = Some((bw * 1e9).round() as u64);
        g.fact_sources
            .insert("memory_bandwidth_bytes_per_s".into(), DATASHEET.into());
    } else if g.index.is_some() {
        notes.add(
            field("memory_bandwidth_bytes_per_s"),
            "needs the memory bus width and max memory clock from NVML",
        );
    }
    let facts: Option<ArchFacts> = g
        .compute_capability
        .as_deref()
        .and_then(derive::parse_cc)
        .and_then(|(a, b)| derive::arch_facts(a, b));
    let Some(f) = facts else {
        match g.compute_capability.as_deref() {
            Some(cc) => notes.add(
                field("sm_count"),
                format!(
                    "compute capability {cc} is not in this build's architecture table: SMs, \
                     tensor cores and peaks unknown"
                ),
            ),
            // NVML answered for this GPU but gave no compute capability (its note says why).
            None if g.index.is_some() => notes.add(
                field("sm_count"),
                "compute capability unknown: SMs, tensor cores and peaks unknown",
            ),
            None => {}
        }
        return;
    };
    let rate = match p {
        Some(p) => p.tensor_rate,
        None if tensorless.is_some() => TensorRate::NoTensorCores,
        // No row: the name decides, for the Turing boards whose chip has no tensor cores.
        None if (f.name == "Turing"
            && g.name
                .as_deref()
                .is_some_and(derive::is_turing_without_tensor_cores))
            || f.tensor_per_sm == 0 =>
        {
            TensorRate::NoTensorCores
        }
        None if derive::is_geforce(g.name.as_deref(), g.brand.as_deref()) => {
            TensorRate::HalfWithFp32Accumulate
        }
        None => TensorRate::Full,
    };
    let no_tc = rate == TensorRate::NoTensorCores;
    if no_tc {
        g.tensor_cores = Some(0);
        notes.add(
            field("tensor_cores"),
            format!(
                "none: {} has no tensor cores",
                match p {
                    _ if f.tensor_per_sm == 0 => f.name.to_string(),
                    Some(p) => format!("its {} chip", p.chip),
                    None => match tensorless {
                        Some(chip) => format!("its {chip} chip"),
                        None => "a TU116/TU117 board".to_string(),
                    },
                }
            ),
        );
        notes.add(field("fp16_tensor_tflops"), "no tensor cores");
    } else {
        g.tensor_core_generation = f.tensor_gen;
    }
    // Rated clocks: the datasheet's boost, else NVML's max customer boost clock.
    let (rated, source) = match (
        p.and_then(|p| p.boost_clock_mhz),
        g.max_customer_boost_clock_mhz,
    ) {
        (Some(c), _) => (Some(c), Some(DATASHEET)),
        (None, Some(c)) => (Some(c), Some(NVML)),
        (None, None) => (None, None),
    };
    g.rated_clock_mhz = rated;
    g.rated_clock_source = source.map(str::to_string);
    if p.is_some_and(|p| p.mobile) && source == Some(NVML) {
        notes.add(
            field("rated_clock_mhz"),
            "a laptop or embedded GPU: the boost clock its system maker set, as the driver \
             reports it (NVIDIA rates no single clock for the part)",
        );
    }
    // The tensor rating's own clock (Hopper, L40S), else the boost; a board whose datasheet
    // gives a tensor rating but no clock keeps the published figure.
    let published_tensor_only =
        p.is_some_and(|p| p.rated_tensor_clock_mhz().is_none() && p.fp16_tensor_tflops.is_some());
    let tensor_clock = match p.and_then(Product::rated_tensor_clock_mhz) {
        Some(c) => Some(c),
        None if published_tensor_only => None,
        None => rated,
    };
    g.rated_tensor_clock_mhz = tensor_clock;

    let Some(cores) = g.cuda_cores else {
        // No core count anywhere (B200: NVIDIA publishes none): the published ratings stand.
        if let Some(p) = p.filter(|p| p.cuda_cores.is_none()) {
            g.fp32_tflops = p.fp32_tflops;
            g.fp16_tensor_tflops = p.fp16_tensor_tflops;
            g.fp16_tensor_fp32_acc_tflops = p.fp16_tensor_fp32_acc_tflops();
            g.fact_sources
                .insert("fp32_tflops".into(), DATASHEET.into());
            notes.add(
                field("sm_count"),
                format!(
                    "unknown: NVML gave no core count and NVIDIA publishes none for the {}; \
                     the rated peaks are the datasheet's",
                    p.name
                ),
            );
        } else if g.index.is_some() {
            notes.add(
                field("sm_count"),
                format!("unknown without NVML's core count, and {}", not_found(g)),
            );
            if !no_tc {
                notes.add(field("tensor_cores"), "unknown without the SM count");
            }
            notes.add(field("fp32_tflops"), "unknown without the CUDA core count");
        }
        return;
    };
    let Some(sms) = derive::sm_count(cores, &f) else {
        notes.add(
            field("sm_count"),
            format!(
                "{cores} CUDA cores is not a multiple of {} per SM ({}): SMs unknown",
                f.fp32_per_sm, f.name
            ),
        );
        return;
    };
    g.sm_count = Some(sms);
    if !no_tc {
        g.tensor_cores = Some(sms * f.tensor_per_sm);
    }
    if let Some(src) = cores_source {
        g.fact_sources.insert("sm_count".into(), src.clone());
        g.fact_sources.insert("tensor_cores".into(), src);
    }
    let tc = g.tensor_cores.filter(|t| *t > 0);

    // Rated figures.
    let matches_product = p.is_some_and(|p| p.cuda_cores.is_none_or(|c| c == cores));
    match rated {
        Some(clk) => g.fp32_tflops = Some(derive::fp32_tflops(cores, clk)),
        None => {
            if let Some(t) = p.and_then(|p| p.fp32_tflops).filter(|_| matches_product) {
                g.fp32_tflops = Some(t);
                notes.add(
                    field("fp32_tflops"),
                    "as the datasheet publishes it: NVIDIA gives no clock for this board and \
                     NVML no customer boost clock",
                );
            } else {
                notes.add(
                    field("fp32_tflops"),
                    if p.is_some_and(|p| p.mobile) {
                        "no single rated figure: a laptop or embedded GPU runs at the clocks \
                         its system maker sets; see fp32_tflops_max_clock"
                            .to_string()
                    } else if let Some(why) = p.and_then(|p| p.unrated) {
                        format!("rated figure unknown: {why}; see fp32_tflops_max_clock")
                    } else if p.is_some() {
                        "rated figure unknown: the datasheet gives no clock and NVML no \
                         customer boost clock; see fp32_tflops_max_clock"
                            .to_string()
                    } else {
                        format!(
                            "rated figure unknown: {} and NVML gives no customer boost clock; \
                             see fp32_tflops_max_clock",
                            not_found(g)
                        )
                    },
                );
            }
        }
    }
    if let Some(tc) = tc {
        match tensor_clock {
            Some(clk) => {
                let (fp16, acc) = tensor_pair(tc, &f, clk, rate);
                g.fp16_tensor_tflops = Some(fp16);
                g.fp16_tensor_fp32_acc_tflops = Some(acc);
                if f.approximate {
                    notes.add(
                        field("fp16_tensor_tflops"),
                        format!(
                            "approximate: NVIDIA publishes no SM count or tensor clock for {} \
                             data-center parts; the per-core rate is inferred from the datasheet",
                            f.name
                        ),
                    );
                }
            }
            None => {
                let p = p.filter(|_| matches_product);
                g.fp16_tensor_tflops = p.and_then(|p| p.fp16_tensor_tflops);
                g.fp16_tensor_fp32_acc_tflops = p.and_then(Product::fp16_tensor_fp32_acc_tflops);
                notes.add(
                    field("fp16_tensor_tflops"),
                    if g.fp16_tensor_tflops.is_some() {
                        "as the datasheet publishes it: NVIDIA gives no tensor clock for this \
                         board"
                    } else {
                        "rated figure unknown: no rated clock and no published dense FP16 \
                         rating for this board; see fp16_tensor_tflops_max_clock"
                    },
                );
            }
        }
        if rate == TensorRate::HalfWithFp32Accumulate {
            notes.add(
                field("fp16_tensor_fp32_acc_tflops"),
                "GeForce runs FP16 tensor math with FP32 accumulate at half rate",
            );
        }
    }

    // The same peaks at NVML's max SM clock.
    let Some(max) = g.max_sm_clock_mhz else {
        if g.index.is_some() {
            notes.add(
                field("fp32_tflops_max_clock"),
                "unknown without NVML's max SM clock",
            );
        }
        return;
    };
    g.fp32_tflops_max_clock = Some(derive::fp32_tflops(cores, max));
    if let Some(tc) = tc {
        let (fp16, acc) = tensor_pair(tc, &f, max, rate);
        g.fp16_tensor_tflops_max_clock = Some(fp16);
        g.fp16_tensor_fp32_acc_tflops_max_clock = Some(acc);
    }
    // A tensor rating at its own clock (Hopper 1830 MHz) differs from the max-clock figure
    // even where the FP32 ones agree.
    if let (Some(t), Some(_)) = (tensor_clock.filter(|t| Some(*t) != rated && *t != max), tc) {
        notes.add(
            field("fp16_tensor_tflops_max_clock"),
            format!(
                "at NVML's max SM clock {max} MHz; NVIDIA rates this board's tensor throughput \
                 at a {t} MHz tensor clock (fp16_tensor_tflops)"
            ),
        );
    }
    if let Some(r) = rated.filter(|r| *r != max) {
        let pct = (f64::from(max) / f64::from(r) - 1.0) * 100.0;
        let boost = match (g.max_customer_boost_clock_mhz, source) {
            (Some(cb), Some(DATASHEET)) if cb != r => {
                format!("; NVML's max customer boost clock is {cb} MHz")
            }
            _ => String::new(),
        };
        notes.add(
            field("fp32_tflops_max_clock"),
            format!(
                "at NVML's max SM clock {max} MHz, {pct:+.0} % against the {r} MHz rated boost \
                 ({}) of fp32_tflops{boost}; sustained clocks depend on power and cooling",
                if source == Some(NVML) {
                    "NVML's max customer boost clock"
                } else {
                    "datasheet"
                }
            ),
        );
    }
}

/// The share of GDDR memory ECC keeps for its check bits while it is on: NVML's total is then
/// the board's less a sixteenth (a 16 GiB Tesla T4 gives 15,360 MiB, a 48 GiB L40S 46,068 MiB,
/// a 24 GiB A10G 23,028 MiB). HBM keeps its check bits apart and gives no such share.
const ECC_SHARE: f64 = 1.0 / 16.0;

/// The memory of a board with ECC on, from NVML's usable total: the board's memory as sold
/// (what an order names and the board has without its driver) where NVML's total is the
/// datasheet's less ECC's share, NVML's total kept apart as `vram_usable_bytes`. A total
/// further below is left as NVML gave it, for `cross_check` to name.
pub fn board_memory(g: &mut Gpu, p: &Product, i: usize, notes: &mut Notes) {
    let (Some(usable), Some(sold)) = (g.vram_bytes, p.memory_bytes) else {
        return;
    };
    if !nvml_total_with_ecc(g) || !p.memory_is_gddr() {
        return;
    }
    let with_ecc = sold as f64 * (1.0 - ECC_SHARE);
    // NVML's total sits at most a few MiB under the board's less ECC's share (the driver's
    // own reservation: 12 MiB on an L40S); a whole board is at or near `sold`.
    let near = (usable as f64) >= with_ecc * 0.99 && (usable as f64) <= with_ecc * 1.005;
    if !near {
        return;
    }
    let gib = |b: u64| b as f64 / f64::from(1u32 << 30);
    g.vram_bytes = Some(sold);
    g.vram_usable_bytes = Some(usable);
    g.fact_sources
        .insert("vram_bytes".into(), DATASHEET.to_string());
    g.fact_sources
        .insert("vram_usable_bytes".into(), NVML.to_string());
    notes.add(
        format!("gpus[{i}].vram_usable_bytes"),
        format!(
            "ECC is on: NVML gives {:.1} GiB usable of the {}'s {:.0} GiB, the rest holds \
             ECC's check bits (a sixteenth of GDDR memory); the board's memory is the \
             datasheet's",
            gib(usable),
            p.name,
            gib(sold)
        ),
    );
}

/// Whether the GPU's memory is NVML's total while ECC is on: what ECC leaves usable.
fn nvml_total_with_ecc(g: &Gpu) -> bool {
    g.fact_sources.get("vram_bytes").map(String::as_str) == Some(NVML)
        && g.state.ecc_enabled == Some(true)
}

/// With ECC on and no board named by the PCI ids, NVML's total is all there is: it stands
/// as the GPU's memory, with a note that a GDDR board's memory as sold is a sixteenth more,
/// so an order's size is not compared against it unawares.
pub fn usable_memory_of_an_unknown_board(g: &Gpu, i: usize, notes: &mut Notes) {
    if g.vram_bytes.is_none() || !nvml_total_with_ecc(g) {
        return;
    }
    notes.add(
        format!("gpus[{i}].vram_bytes"),
        "NVML's usable total with ECC on: no product table names this board (its PCI ids \
         are unknown), so its memory as sold is unknown; on GDDR boards ECC holds a \
         sixteenth of it"
            .to_string(),
    );
}

/// Says where NVML's own facts disagree with the datasheet of the board its PCI id names:
/// fewer or more SMs, less memory, another bus width or architecture. Each is a note
/// starting `warning:` and a short entry in `datasheet_mismatches`.
pub fn cross_check(g: &mut Gpu, p: &Product, i: usize, notes: &mut Notes) {
    let from_nvml = |g: &Gpu, f: &str| g.fact_sources.get(f).map(String::as_str) == Some(NVML);
    let mut found: Vec<(String, String, String)> = Vec::new();
    if let (Some(n), Some(want), true) = (g.sm_count, p.sms, from_nvml(g, "sm_count")) {
        if n != want {
            found.push((
                "sm_count".into(),
                format!("{n} SMs, datasheet {want}"),
                format!(
                    "NVML's core count gives {n} SMs, but the {} has {want}: {}",
                    p.name,
                    if n < want {
                        "a cut-down board, or another board under this PCI id"
                    } else {
                        "another board under this PCI id, or a table row to correct"
                    }
                ),
            ));
        }
    }
    if let (Some(have), Some(sold), true) =
        (g.vram_bytes, p.memory_bytes, from_nvml(g, "vram_bytes"))
    {
        // NVML gives usable memory: a little under the marketed GiB (H100: 81559 of 81920
        // MiB), and 1/16 less on GDDR boards with ECC on.
        let ecc = g.state.ecc_enabled == Some(true) && p.memory_is_gddr();
        let expect = if ecc { sold / 16 * 15 } else { sold };
        if (have as f64) < expect as f64 * 0.97 {
            let gib = |b: u64| b as f64 / f64::from(1u32 << 30);
            found.push((
                "vram_bytes".into(),
                format!("{:.1} GiB, datasheet {:.0} GiB", gib(have), gib(sold)),
                format!(
                    "NVML reports {:.1} GiB, but the {} has {:.0} GiB{}: a board with less \
                     memory under this PCI id",
                    gib(have),
                    p.name,
                    gib(sold),
                    if ecc { " (ECC's share allowed)" } else { "" }
                ),
            ));
        }
    }
    if let (Some(n), Some(want), true) = (
        g.memory_bus_width_bits,
        p.bus_width_bits,
        from_nvml(g, "memory_bus_width_bits"),
    ) {
        if n != want {
            found.push((
                "memory_bus_width_bits".into(),
                format!("{n}-bit bus, datasheet {want}-bit"),
                format!(
                    "NVML reports a {n}-bit memory bus, but the {} has {want}",
                    p.name
                ),
            ));
        }
    }
    if let (Some(a), true) = (g.architecture.as_deref(), from_nvml(g, "architecture")) {
        if !a.eq_ignore_ascii_case(p.architecture)
            && !p.architecture.starts_with(a)
            && !a.starts_with(p.architecture)
        {
            found.push((
                "architecture".into(),
                format!("{a}, datasheet {}", p.architecture),
                format!("NVML reports {a}, but the {} is {}", p.name, p.architecture),
            ));
        }
    }
    for (f, short, long) in found {
        g.datasheet_mismatches.push(short);
        notes.add(format!("gpus[{i}].{f}"), format!("warning: {long}"));
    }
}

/// Records a name mismatch found by `identify`.
pub fn name_mismatch(g: &mut Gpu, i: usize, what: String, notes: &mut Notes) {
    g.datasheet_mismatches.push(what.clone());
    notes.add(
        format!("gpus[{i}].name"),
        format!("warning: {what}: a relabelled board, or a table row to correct"),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::same_product_name;

    /// A GPU as NVML answered it: `cores`, `max` MHz max SM clock, customer boost `cb`.
    fn nvml_gpu(name: &str, cc: &str, cores: Option<u32>, max: u32, cb: Option<u32>) -> Gpu {
        Gpu {
            index: Some(0),
            name: Some(name.into()),
            compute_capability: Some(cc.into()),
            cuda_cores: cores,
            max_sm_clock_mhz: Some(max),
            max_customer_boost_clock_mhz: cb,
            ..Gpu::default()
        }
    }

    fn run(g: &mut Gpu, device: u16) -> Notes {
        let mut notes = Notes::default();
        let ids = PciIds {
            device,
            subsystem: None,
        };
        // As the probe does before: the PCI id it looked the board up by.
        g.pci_device_id = Some(format!("0x{device:04x}"));
        let id = identify(Some(ids), g.name.clone().as_deref(), g.vram_bytes);
        fill_from_datasheet(g, &id.rows(), 0, true, &mut notes);
        derive_capability(g, id.rating_row(), id.tensorless_chip(), 0, &mut notes);
        if let Some(p) = id.datasheet_row() {
            cross_check(g, p, 0, &mut notes);
        }
        notes
    }

    fn reasons(notes: &Notes, field: &str) -> Vec<String> {
        notes
            .0
            .iter()
            .filter(|n| n.field == field)
            .map(|n| n.reason.clone())
            .collect()
    }

    #[test]
    fn a_board_without_a_datasheet_clock_is_rated_at_nvml_customer_boost() {
        // RTX PRO 6000 Blackwell: NVIDIA gives no clocks; NVML's customer boost is the rating.
        let mut g = nvml_gpu(
            "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
            "12.0",
            Some(24064),
            2617,
            Some(2600),
        );
        let notes = run(&mut g, 0x2bb1);
        assert_eq!(
            (g.rated_clock_mhz, g.rated_clock_source.as_deref()),
            (Some(2600), Some("nvml"))
        );
        assert_eq!(g.fp32_tflops, Some(125.13));
        assert_eq!(g.fp32_tflops_max_clock, Some(125.95));
        // No published dense FP16 and no datasheet tensor clock: the customer boost rates it.
        assert_eq!(g.fp16_tensor_tflops, Some(500.53));
        assert!(reasons(&notes, "gpus[0].fp32_tflops_max_clock")[0].contains("customer boost"));
    }

    #[test]
    fn without_any_clock_the_published_rating_stands_if_the_counts_match() {
        let mut g = nvml_gpu(
            "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
            "12.0",
            Some(24064),
            2617,
            None,
        );
        let notes = run(&mut g, 0x2bb1);
        assert_eq!((g.rated_clock_mhz, g.fp32_tflops), (None, Some(125.0)));
        assert!(reasons(&notes, "gpus[0].fp32_tflops")[0].contains("as the datasheet publishes"));
        assert_eq!(g.fp16_tensor_tflops, None);
        assert!(reasons(&notes, "gpus[0].fp16_tensor_tflops")[0].contains("unknown"));
        // A cut-down count does not get the full board's published rating.
        let mut g = nvml_gpu(
            "NVIDIA RTX PRO 6000 Blackwell Workstation Edition",
            "12.0",
            Some(20480),
            2617,
            None,
        );
        let notes = run(&mut g, 0x2bb1);
        assert_eq!(g.fp32_tflops, None);
        assert_eq!(g.datasheet_mismatches, ["160 SMs, datasheet 188"]);
        assert!(reasons(&notes, "gpus[0].sm_count")[0].starts_with("warning:"));
    }

    #[test]
    fn b200_has_no_published_counts_so_its_published_ratings_stand() {
        let mut g = nvml_gpu("NVIDIA B200", "10.0", None, 1965, None);
        let notes = run(&mut g, 0x2901);
        assert_eq!((g.cuda_cores, g.sm_count), (None, None));
        assert_eq!(
            (g.fp32_tflops, g.fp16_tensor_tflops),
            (Some(75.0), Some(2250.0))
        );
        assert!(reasons(&notes, "gpus[0].sm_count")[0].contains("NVIDIA publishes none"));
    }

    #[test]
    fn a_board_the_table_lacks_has_no_rated_figure_without_customer_boost() {
        let mut g = nvml_gpu("NVIDIA Future GPU", "8.9", Some(10240), 2800, None);
        let notes = run(&mut g, 0x0001);
        assert_eq!(g.datasheet_mismatches, Vec::<String>::new());
        assert_eq!(
            (g.fp32_tflops, g.fp32_tflops_max_clock),
            (None, Some(57.34))
        );
        assert!(reasons(&notes, "gpus[0].fp32_tflops")[0].contains("not in the product table"));
        assert_eq!(g.fact_sources["cuda_cores"], "nvml");
        // With a customer boost clock it is rated there.
        let mut g = nvml_gpu("NVIDIA Future GPU", "8.9", Some(10240), 2800, Some(2500));
        run(&mut g, 0x0001);
        assert_eq!(g.fp32_tflops, Some(51.2));
    }

    #[test]
    fn a_board_nvidia_does_not_rate_says_why_its_rating_is_unknown() {
        // The H20's row names it but has no rating: the note gives the row's reason.
        let mut g = nvml_gpu("NVIDIA H20", "9.0", Some(78 * 128), 1980, None);
        let notes = run(&mut g, 0x2329);
        assert_eq!(g.fp32_tflops, None);
        let why = reasons(&notes, "gpus[0].fp32_tflops");
        assert!(
            why[0].starts_with("rated figure unknown: an export variant"),
            "{why:?}"
        );
        // NVML's customer boost clock, where the driver gives one, rates it.
        let mut g = nvml_gpu("NVIDIA H20", "9.0", Some(78 * 128), 1980, Some(1980));
        run(&mut g, 0x2329);
        assert_eq!(g.fp32_tflops, Some(39.54));
    }

    #[test]
    fn l40_rates_tensor_math_at_half_either_way() {
        let mut g = nvml_gpu("NVIDIA L40", "8.9", Some(18176), 2490, Some(2490));
        run(&mut g, 0x26b5);
        assert_eq!(g.fp16_tensor_tflops, Some(181.04));
        assert_eq!(g.fp16_tensor_fp32_acc_tflops, Some(181.04));
        assert_eq!(g.fp32_tflops, Some(90.52));
    }

    #[test]
    fn memory_check_allows_ecc_on_gddr_but_not_a_smaller_board() {
        let t4 = |mib: u64, ecc: bool| {
            let mut g = nvml_gpu("Tesla T4", "7.5", Some(2560), 1590, Some(1590));
            g.vram_bytes = Some(mib << 20);
            g.state.ecc_enabled = Some(ecc);
            run(&mut g, 0x1eb8);
            g.datasheet_mismatches
        };
        // The real T4 capture: ECC on, 15360 MiB.
        assert!(t4(15360, true).is_empty());
        assert_eq!(t4(15360, false), ["15.0 GiB, datasheet 16 GiB"]);
        assert!(t4(16384, false).is_empty());
        assert_eq!(t4(8192, true), ["8.0 GiB, datasheet 16 GiB"]);
    }

    #[test]
    fn names_match_without_case_spacing_or_the_nvidia_prefix() {
        assert!(same_product_name(
            "NVIDIA GeForce GTX 1080",
            "GeForce GTX  1080"
        ));
        assert!(same_product_name("Tesla T4", "tesla t4"));
        assert!(!same_product_name("Quadro RTX 6000", "Quadro RTX 8000"));
    }
}
