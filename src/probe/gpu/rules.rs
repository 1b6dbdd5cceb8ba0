//! The rules every row of the GPU product table keeps: its counts and rated figures agree
//! with each other and with its chip, its PCI ids are unique and every device id has one
//! default row. `build.rs` refuses a table that breaks one (it includes this file with
//! `table.rs`); the tests below show each rule refusing a row, and the real table passing.

use std::collections::{BTreeSet, HashMap, HashSet};

use super::table::{compute_capability, Cc, Chip, Row, Sub, Table, TensorRate};

/// True when `computed` matches a published TFLOPS figure: within 1 %, or within the 0.05
/// that one-decimal rounding allows (3.03 is printed 3.0).
fn matches_rating(computed: f64, rated: f64) -> bool {
    ((computed - rated) / rated).abs() <= 0.01 || (computed - rated).abs() <= 0.05
}

/// Every rule the table breaks, each naming its row, chip or id; `Ok` when it keeps them all.
pub fn check(table: &Table) -> Result<(), Vec<String>> {
    let mut errors = chips(table);
    // A row is checked against its chip's figures: only once the chips are sound.
    if errors.is_empty() {
        for r in &table.gpu {
            if let Err(e) = row(r, table) {
                errors.push(format!("gpu '{}': {e}", r.name));
            }
        }
        errors.extend(ids(&table.gpu));
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Every compute capability is `major.minor`, and every chip's has a `[cc]` table.
fn chips(table: &Table) -> Vec<String> {
    let mut errors = Vec::new();
    for k in table.cc.keys() {
        if compute_capability(k).is_none() {
            errors.push(format!("cc.{k}: not a compute capability (major.minor)"));
        }
    }
    for (k, chip) in &table.chips {
        if let Some(cc) = &chip.cc {
            if !table.cc.contains_key(cc) {
                errors.push(format!(
                    "chips.{k}: compute capability {cc} has no [cc] table"
                ));
            }
        }
    }
    errors
}

/// The first rule one row breaks.
fn row(r: &Row, table: &Table) -> Result<(), String> {
    let (chip, cc) = table
        .chip(r)
        .ok_or(format!("chip {} is not in [chips]", r.chip))?;
    // A chip without a published compute capability can carry names and memory, no counts.
    if chip.cc.is_none() && (r.sms.is_some() || r.cuda_cores.is_some() || r.tensor_cores.is_some())
    {
        return Err(format!(
            "chip {} has no compute capability to check counts by",
            r.chip
        ));
    }
    if r.source.is_empty() {
        return Err("no source".into());
    }
    if r.mobile && (r.boost_mhz.is_some() || r.fp32_tflops.is_some()) {
        return Err("a laptop or embedded GPU has no single rated clock or FP32 figure".into());
    }
    // `unrated` says why a board has no FP32 rating; a board that has one needs no reason,
    // and a laptop part has its own (`mobile`).
    if let Some(why) = &r.unrated {
        if why.trim().is_empty() {
            return Err("unrated gives no reason".into());
        }
        if r.mobile || r.fp32_tflops.is_some() || (r.cuda_cores.is_some() && r.boost_mhz.is_some())
        {
            return Err("unrated, but the row has a rating (or is mobile)".into());
        }
    }
    if let (Some(s), Some(c)) = (r.sms, r.cuda_cores) {
        if u64::from(c) != u64::from(s) * u64::from(cc.fp32_per_sm) {
            return Err(format!(
                "{c} CUDA cores is not {s} SMs × {} ({})",
                cc.fp32_per_sm, chip.arch
            ));
        }
    }
    if r.sms.is_some() != r.cuda_cores.is_some() {
        return Err("SMs and CUDA cores go together".into());
    }
    tensor(r, chip, cc)?;
    if let (Some(rated), Some(c), Some(b)) = (r.fp32_tflops, r.cuda_cores, r.boost_mhz) {
        let computed = f64::from(c) * 2.0 * f64::from(b) / 1e6;
        if !matches_rating(computed, rated) {
            return Err(format!(
                "FP32 {rated} TFLOPS, but {c} cores × 2 × {b} MHz is {computed:.2}"
            ));
        }
    }
    // Vendors round bandwidth: H200 computes 2.4 % above its datasheet's 4.8 TB/s.
    if let (Some(b), Some(rate), Some(published)) = (r.bus_bits, r.data_rate_gbps, r.bandwidth_gb_s)
    {
        let computed = f64::from(b) / 8.0 * rate;
        if ((computed - published) / published).abs() > 0.03 {
            return Err(format!(
                "bandwidth {published} GB/s, but {b} bits × {rate} Gbit/s is {computed:.1}"
            ));
        }
    }
    if let Some(g) = r.memory_gib {
        if r.memory_bytes().is_none() {
            return Err(format!("memory {g} GiB is not a whole number of bytes"));
        }
    }
    let mut named = HashSet::new();
    for &f in &r.third_party {
        if !r.gives(f) {
            return Err(format!(
                "third_party names {f:?}, a figure the row does not give"
            ));
        }
        if !named.insert(f) {
            return Err(format!("third_party names {f:?} twice"));
        }
    }
    Ok(())
}

/// Tensor capability is the chip's; a board may only lose it (a GTX 1660 SUPER built on TU106
/// has them disabled), and says so with `tensor_rate = "none"`. Tensor cores are SMs × the
/// chip's per SM, and the dense FP16 rating tensor cores × per-core rate × tensor clock.
fn tensor(r: &Row, chip: &Chip, cc: Cc) -> Result<(), String> {
    let rate = r.tensor_rate(chip, &cc);
    let chip_tc = chip.tensor_cores && cc.tensor_per_sm > 0;
    let has_tc = chip_tc && rate != TensorRate::NoTensorCores;
    if !chip_tc && rate != TensorRate::NoTensorCores {
        return Err(format!(
            "tensor rate {rate:?}, but chip {} has no tensor cores",
            r.chip
        ));
    }
    if let (Some(s), Some(tc)) = (r.sms, r.tensor_cores) {
        let want = if has_tc {
            u64::from(s) * u64::from(cc.tensor_per_sm)
        } else {
            0
        };
        if u64::from(tc) != want {
            return Err(format!(
                "{tc} tensor cores, but {s} SMs of {} have {want}",
                r.chip
            ));
        }
    }
    let clock = r.tensor_mhz.or(r.boost_mhz);
    if let (Some(rated), Some(tc), Some(clk)) = (r.fp16_tensor_tflops, r.tensor_cores, clock) {
        let share = if rate == TensorRate::Half { 0.5 } else { 1.0 };
        let per_clock = u64::from(tc) * u64::from(cc.fp16_per_tensor_core_clk);
        let computed = per_clock as f64 * f64::from(clk) / 1e6 * share;
        if !matches_rating(computed, rated) {
            return Err(format!(
                "dense FP16 tensor {rated} TFLOPS, but {tc} tensor cores at {clk} MHz give \
                 {computed:.1}"
            ));
        }
    }
    if r.fp16_tensor_tflops.is_some() && !has_tc {
        return Err("a tensor figure on a chip without tensor cores".into());
    }
    Ok(())
}

/// No (device, subsystem) key twice, and exactly one default row (a bare device id) for every
/// device id: what the driver calls a board whose subsystem no row lists.
fn ids(rows: &[Row]) -> Vec<String> {
    let mut errors = Vec::new();
    let mut seen = HashMap::new();
    let mut defaults = BTreeSet::new();
    let mut devices = BTreeSet::new();
    for r in rows {
        if r.ids.is_empty() {
            errors.push(format!("gpu '{}': no ids", r.name));
        }
        for id in &r.ids {
            if let Some(other) = seen.insert(id, &r.name) {
                errors.push(format!("id '{id}' is both '{other}' and '{}'", r.name));
            }
            if id.subsystem == Sub::Device && !defaults.insert(id.device) {
                errors.push(format!("device {:04x} has two default rows", id.device));
            }
            devices.insert(id.device);
        }
    }
    for d in devices.difference(&defaults) {
        errors.push(format!(
            "device {d:04x} has subsystem rows but no default row (a bare \"{d:04x}\" id)"
        ));
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe::gpu::table::Figure;

    /// The `[cc]` and `[chips]` tables the rows below are checked against.
    const HEAD: &str = r#"
[cc."7.5"]
fp32_per_sm = 64
tensor_per_sm = 8
fp16_per_tensor_core_clk = 128

[cc."8.6"]
fp32_per_sm = 128
tensor_per_sm = 4
fp16_per_tensor_core_clk = 256

[chips]
GA102 = { arch = "Ampere", cc = "8.6" }
TU117 = { arch = "Turing", cc = "7.5", tensor_cores = false }
"Blackwell, chip not published" = { arch = "Blackwell" }
"#;

    /// A row that keeps every rule (the RTX 3090 of the GA102 whitepaper).
    const RTX_3090: &str = r#"
[[gpu]]
name = "NVIDIA GeForce RTX 3090"
ids = ["2204"]
chip = "GA102"
segment = "geforce"
sms = 82
cuda_cores = 10496
tensor_cores = 328
base_mhz = 1395
boost_mhz = 1695
memory_gib = 24
memory_type = "GDDR6X"
bus_bits = 384
data_rate_gbps = 19.5
bandwidth_gb_s = 936
fp32_tflops = 35.6
fp16_tensor_tflops = 142
power_w = 350
pcie = "4.0 x16"
source = "NVIDIA Ampere GA102 GPU Architecture whitepaper"
"#;

    /// A GA102 row of a data-center board, sharing nothing with the RTX 3090 but its chip.
    const A10: &str = r#"
[[gpu]]
name = "NVIDIA A10"
ids = ["2236"]
chip = "GA102"
segment = "data center"
sms = 72
cuda_cores = 9216
tensor_cores = 288
boost_mhz = 1695
fp32_tflops = 31.2
source = "NVIDIA A10 datasheet"
"#;

    /// What the rules say of `rows` read under `HEAD`: every error, parse or rule.
    fn errors(rows: &str) -> Vec<String> {
        match Table::parse(&format!("{HEAD}{rows}")).and_then(|t| check(&t)) {
            Ok(()) => Vec::new(),
            Err(e) => e,
        }
    }

    /// The RTX 3090 row with `from` replaced by `to`: its one error.
    fn refused(from: &str, to: &str) -> String {
        assert!(RTX_3090.contains(from), "{from}");
        let e = errors(&RTX_3090.replacen(from, to, 1));
        assert_eq!(e.len(), 1, "{e:?}");
        e[0].clone()
    }

    #[test]
    fn the_product_table_keeps_every_rule() {
        let table = Table::parse(include_str!("products.toml")).unwrap();
        assert!(table.gpu.len() > 600, "{}", table.gpu.len());
        assert_eq!(check(&table), Ok(()));
    }

    #[test]
    fn a_row_that_keeps_every_rule_passes() {
        assert_eq!(errors(&format!("{RTX_3090}{A10}")), Vec::<String>::new());
    }

    #[test]
    fn cuda_cores_are_sms_times_the_lanes_of_the_compute_capability() {
        assert_eq!(
            refused("sms = 82", "sms = 80"),
            "gpu 'NVIDIA GeForce RTX 3090': 10496 CUDA cores is not 80 SMs × 128 (Ampere)"
        );
        assert_eq!(
            refused("cuda_cores = 10496\n", ""),
            "gpu 'NVIDIA GeForce RTX 3090': SMs and CUDA cores go together"
        );
    }

    #[test]
    fn tensor_cores_are_sms_times_the_tensor_cores_of_the_chip() {
        assert_eq!(
            refused("tensor_cores = 328", "tensor_cores = 320"),
            "gpu 'NVIDIA GeForce RTX 3090': 320 tensor cores, but 82 SMs of GA102 have 328"
        );
        // A board that says its chip's tensor cores are off has none.
        assert_eq!(
            refused(
                "segment = \"geforce\"",
                "segment = \"geforce\"\ntensor_rate = \"none\""
            ),
            "gpu 'NVIDIA GeForce RTX 3090': 328 tensor cores, but 82 SMs of GA102 have 0"
        );
    }

    #[test]
    fn fp32_is_cores_times_two_times_boost() {
        assert_eq!(
            refused("fp32_tflops = 35.6", "fp32_tflops = 38"),
            "gpu 'NVIDIA GeForce RTX 3090': FP32 38 TFLOPS, but 10496 cores × 2 × 1695 MHz is \
             35.58"
        );
        // One-decimal rounding and 1 % pass: 35.58 is printed 35.6, or 35.3.
        assert_eq!(
            errors(&RTX_3090.replace("fp32_tflops = 35.6", "fp32_tflops = 35.3")),
            Vec::<String>::new()
        );
    }

    #[test]
    fn dense_fp16_tensor_is_tensor_cores_times_rate_times_clock() {
        assert_eq!(
            refused("fp16_tensor_tflops = 142", "fp16_tensor_tflops = 150"),
            "gpu 'NVIDIA GeForce RTX 3090': dense FP16 tensor 150 TFLOPS, but 328 tensor cores \
             at 1695 MHz give 142.3"
        );
        // `half` (the L40's datasheet) halves it; a tensor clock replaces the boost.
        assert_eq!(
            refused(
                "segment = \"geforce\"",
                "segment = \"geforce\"\ntensor_rate = \"half\""
            ),
            "gpu 'NVIDIA GeForce RTX 3090': dense FP16 tensor 142 TFLOPS, but 328 tensor cores \
             at 1695 MHz give 71.2"
        );
        assert_eq!(
            refused("boost_mhz = 1695", "boost_mhz = 1695\ntensor_mhz = 1500"),
            "gpu 'NVIDIA GeForce RTX 3090': dense FP16 tensor 142 TFLOPS, but 328 tensor cores \
             at 1500 MHz give 126.0"
        );
    }

    #[test]
    fn tensor_figures_need_the_chips_tensor_cores() {
        let tu117 = |extra: &str| {
            format!(
                "[[gpu]]\nname = \"NVIDIA T1000\"\nids = [\"1fb0\"]\nchip = \"TU117\"\n\
                 segment = \"workstation\"\nsource = \"NVIDIA T1000 datasheet\"\n{extra}"
            )
        };
        assert_eq!(errors(&tu117("")), Vec::<String>::new());
        assert_eq!(
            errors(&tu117("tensor_rate = \"full\"")),
            ["gpu 'NVIDIA T1000': tensor rate Full, but chip TU117 has no tensor cores"]
        );
        assert_eq!(
            errors(&tu117("fp16_tensor_tflops = 10")),
            ["gpu 'NVIDIA T1000': a tensor figure on a chip without tensor cores"]
        );
        assert_eq!(
            errors(&tu117("sms = 14\ncuda_cores = 896\ntensor_cores = 112")),
            ["gpu 'NVIDIA T1000': 112 tensor cores, but 14 SMs of TU117 have 0"]
        );
    }

    #[test]
    fn bandwidth_is_bus_times_data_rate_within_three_percent() {
        assert_eq!(
            refused("bandwidth_gb_s = 936", "bandwidth_gb_s = 1000"),
            "gpu 'NVIDIA GeForce RTX 3090': bandwidth 1000 GB/s, but 384 bits × 19.5 Gbit/s is \
             936.0"
        );
        assert_eq!(
            errors(&RTX_3090.replace("bandwidth_gb_s = 936", "bandwidth_gb_s = 910")),
            Vec::<String>::new()
        );
    }

    #[test]
    fn the_chip_must_be_known_and_decide_the_counts() {
        assert_eq!(
            refused("chip = \"GA102\"", "chip = \"GA109\""),
            "gpu 'NVIDIA GeForce RTX 3090': chip GA109 is not in [chips]"
        );
        assert_eq!(
            refused(
                "chip = \"GA102\"",
                "chip = \"Blackwell, chip not published\""
            ),
            "gpu 'NVIDIA GeForce RTX 3090': chip Blackwell, chip not published has no compute \
             capability to check counts by"
        );
        let bad_chip = HEAD.replace("cc = \"8.6\" }", "cc = \"8.7\" }");
        let e = Table::parse(&format!("{bad_chip}{RTX_3090}")).and_then(|t| check(&t));
        assert_eq!(
            e,
            Err(vec![
                "chips.GA102: compute capability 8.7 has no [cc] table".to_string()
            ])
        );
        let bad_cc = HEAD.replace("[cc.\"7.5\"]", "[cc.\"7\"]");
        let e = Table::parse(&format!("{bad_cc}{RTX_3090}")).and_then(|t| check(&t));
        assert_eq!(
            e,
            Err(vec![
                "cc.7: not a compute capability (major.minor)".to_string(),
                "chips.TU117: compute capability 7.5 has no [cc] table".to_string(),
            ])
        );
    }

    #[test]
    fn every_row_names_its_source() {
        let no_source = "source = \"NVIDIA Ampere GA102 GPU Architecture whitepaper\"";
        assert_eq!(
            refused(no_source, ""),
            "gpu 'NVIDIA GeForce RTX 3090': no source"
        );
        assert_eq!(
            refused(no_source, "source = \"\""),
            "gpu 'NVIDIA GeForce RTX 3090': no source"
        );
    }

    #[test]
    fn a_laptop_part_has_no_rated_clock_or_peak() {
        assert_eq!(
            refused(
                "segment = \"geforce\"",
                "segment = \"geforce\"\nmobile = true"
            ),
            "gpu 'NVIDIA GeForce RTX 3090': a laptop or embedded GPU has no single rated clock \
             or FP32 figure"
        );
    }

    #[test]
    fn unrated_needs_a_reason_and_a_row_without_a_rating() {
        assert_eq!(
            refused("power_w = 350", "power_w = 350\nunrated = \" \""),
            "gpu 'NVIDIA GeForce RTX 3090': unrated gives no reason"
        );
        assert_eq!(
            refused(
                "power_w = 350",
                "power_w = 350\nunrated = \"NVIDIA publishes none\""
            ),
            "gpu 'NVIDIA GeForce RTX 3090': unrated, but the row has a rating (or is mobile)"
        );
        // Without the FP32 figure, cores and a boost clock still rate it.
        let unrated = RTX_3090
            .replace("fp32_tflops = 35.6", "unrated = \"NVIDIA publishes none\"")
            .replace("boost_mhz = 1695", "tensor_mhz = 1695");
        assert_eq!(errors(&unrated), Vec::<String>::new());
        assert_eq!(
            errors(&unrated.replace("tensor_mhz", "boost_mhz")),
            ["gpu 'NVIDIA GeForce RTX 3090': unrated, but the row has a rating (or is mobile)"]
        );
    }

    #[test]
    fn memory_is_a_whole_number_of_bytes() {
        assert_eq!(
            refused("memory_gib = 24", "memory_gib = 24.3"),
            "gpu 'NVIDIA GeForce RTX 3090': memory 24.3 GiB is not a whole number of bytes"
        );
        assert_eq!(
            refused("memory_gib = 24", "memory_gib = 0"),
            "gpu 'NVIDIA GeForce RTX 3090': memory 0 GiB is not a whole number of bytes"
        );
        // A binary fraction of a GiB is whole bytes (the Quadro P2000's 5 GiB as 5120 MiB).
        assert_eq!(
            errors(&RTX_3090.replace("memory_gib = 24", "memory_gib = 23.5")),
            Vec::<String>::new()
        );
    }

    #[test]
    fn every_key_is_unique_and_every_device_has_one_default_row() {
        let a10_on_3090 = A10.replace("ids = [\"2236\"]", "ids = [\"2204\", \"2236\"]");
        assert_eq!(
            errors(&format!("{RTX_3090}{a10_on_3090}")),
            [
                "id '2204' is both 'NVIDIA GeForce RTX 3090' and 'NVIDIA A10'",
                "device 2204 has two default rows",
            ]
        );
        let by_subsystem = A10.replace("ids = [\"2236\"]", "ids = [\"2204 *:1482\"]");
        assert_eq!(
            errors(&format!("{RTX_3090}{by_subsystem}")),
            Vec::<String>::new()
        );
        let twice = A10.replace(
            "ids = [\"2236\"]",
            "ids = [\"2204 *:1482\", \"2204 10de:1482\"]",
        );
        assert_eq!(errors(&format!("{RTX_3090}{twice}")), Vec::<String>::new());
        let no_default = A10.replace("ids = [\"2236\"]", "ids = [\"2236 *:1482\"]");
        assert_eq!(
            errors(&format!("{RTX_3090}{no_default}")),
            ["device 2236 has subsystem rows but no default row (a bare \"2236\" id)"]
        );
        assert_eq!(
            refused("ids = [\"2204\"]", "ids = []"),
            "gpu 'NVIDIA GeForce RTX 3090': no ids"
        );
    }

    #[test]
    fn ids_are_well_formed() {
        for (id, why) in [
            (
                "22g4",
                "id '22g4': '22g4': invalid digit found in string in `ids`",
            ),
            (
                "2204 1482",
                "id '2204 1482': subsystem is not vendor:device in `ids`",
            ),
            (
                "2204 *:1482 x",
                "id '2204 *:1482 x': more than a device and a subsystem in `ids`",
            ),
            ("", "id '': empty in `ids`"),
        ] {
            assert_eq!(
                refused("ids = [\"2204\"]", &format!("ids = [\"{id}\"]")),
                format!("gpu 'NVIDIA GeForce RTX 3090': {why}")
            );
        }
    }

    #[test]
    fn fields_and_values_outside_the_table_are_refused_by_name() {
        let tail = "power_w = 350";
        for (from, to, why) in [
            (
                "boost_mhz",
                "boost_clock_mhz",
                "unknown field `boost_clock_mhz`, expected one of",
            ),
            (
                "\"geforce\"",
                "\"gaming\"",
                "unknown variant `gaming`, expected one of `data center`, `workstation`, \
                 `geforce` in `segment`",
            ),
            ("\"GDDR6X\"", "\"GDDR6x\"", "unknown variant `GDDR6x`"),
            (
                "pcie = \"4.0 x16\"",
                "pcie = \"4.0x16\"",
                "pcie '4.0x16' is not like '4.0 x16' in `pcie`",
            ),
            (
                "sms = 82",
                "sms = -82",
                "invalid value: integer `-82`, expected u32 in `sms`",
            ),
            (
                tail,
                "power_w = 350\nmobile = 1",
                "invalid type: integer `1`, expected a boolean in `mobile`",
            ),
            (
                tail,
                "power_w = 350\ntensor_rate = \"quarter\"",
                "unknown variant `quarter`",
            ),
            (
                tail,
                "power_w = 350\nnot_a_product = \"prototype\"",
                "unknown variant `prototype`",
            ),
            (
                tail,
                "power_w = 350\nthird_party = [\"boost\"]",
                "unknown variant `boost`, expected one of `sms`",
            ),
        ] {
            let e = refused(from, to);
            assert!(
                e.starts_with(&format!("gpu 'NVIDIA GeForce RTX 3090': {why}")),
                "{e}"
            );
        }
        assert_eq!(
            errors(&RTX_3090.replace("name = \"NVIDIA GeForce RTX 3090\"\n", "")),
            ["gpu #0: missing field `name`"]
        );
    }

    #[test]
    fn third_party_names_figures_the_row_gives() {
        let row = RTX_3090.replace(
            "power_w = 350",
            "power_w = 350\nthird_party = [\"base_mhz\", \"power_w\"]",
        );
        let table = Table::parse(&format!("{HEAD}{row}")).unwrap();
        assert_eq!(check(&table), Ok(()));
        assert_eq!(table.gpu[0].third_party, [Figure::BaseMhz, Figure::PowerW]);
        assert!(table
            .to_rust()
            .contains("third_party: &[Figure::BaseMhz, Figure::PowerW] }"));
        assert_eq!(
            refused("power_w = 350", "third_party = [\"power_w\"]"),
            "gpu 'NVIDIA GeForce RTX 3090': third_party names PowerW, a figure the row does not \
             give"
        );
        assert_eq!(
            refused(
                "power_w = 350",
                "power_w = 350\nthird_party = [\"power_w\", \"power_w\"]"
            ),
            "gpu 'NVIDIA GeForce RTX 3090': third_party names PowerW twice"
        );
    }

    #[test]
    fn the_generated_row_holds_what_the_chip_and_segment_decide() {
        let table = Table::parse(&format!("{HEAD}{RTX_3090}{A10}")).unwrap();
        let rust = table.to_rust();
        for part in [
            "pub static PRODUCTS: [Product; 2] = [",
            "Product { name: \"NVIDIA GeForce RTX 3090\", also: &[], chip: \"GA102\", \
             architecture: \"Ampere\", compute_capability: Some((8, 6)), \
             segment: Segment::GeForce, mobile: false, sms: Some(82), ",
            "memory_bytes: Some(25769803776), memory_type: Some(MemoryType::Gddr6x), ",
            "data_rate_gbps: Some(19.5), bandwidth_gb_s: Some(936.0), ",
            "tensor_rate: TensorRate::HalfWithFp32Accumulate, board_power_w: Some(350), \
             pcie: Some(PcieLink { gen: 4, lanes: 16 }), ",
            "segment: Segment::DataCenter, ",
            "tensor_rate: TensorRate::Full, board_power_w: None, pcie: None, ",
            "IdKey { device: 0x2204, subsystem: Sub::Device, product: 0 },\n    \
             IdKey { device: 0x2236, subsystem: Sub::Device, product: 1 },",
            "pub static CC_FACTS: [(u32, u32, u32, u32, u32); 2] = [\n    (7, 5, 64, 8, 128),",
        ] {
            assert!(rust.contains(part), "{part}\nnot in\n{rust}");
        }
    }
}
