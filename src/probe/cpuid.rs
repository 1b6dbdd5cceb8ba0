//! CPUID: the one owner of the instruction, of its recorded form (`cpuid.json`) and of
//! replay. A run opens its answers once (`Cpuid::open`): live on x86_64 the instruction is
//! executed on demand and every answer kept, so a capture writes exactly the leaves the
//! probes asked for; under a sysroot the capture's `cpuid.json` is read once and nothing is
//! executed; elsewhere the answers are missing, with the reason. Decoding never executes
//! CPUID itself, so a capture made on x86 decodes the same on an Arm or Windows host.
//!
//! `Cpuid::decode` turns leaves into the facts an OS without /proc/cpuinfo lacks: vendor,
//! brand, family/model/stepping, ISA flags (under the kernel's flag names, so the ISA table
//! of the CPU probe applies unchanged), caches, SMT and core counts of one package, base
//! clock. A leaf asked for but unknown (not x86, not recorded) reads as zeros, as CPUID
//! answers a leaf past its maximum, and is listed in `CpuidFacts::missing` so a note can say
//! why.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Mutex;

use raw_cpuid::{CacheType, CpuId, CpuIdReader, CpuIdResult, TopologyType};

use crate::source::{Source, Unknown};
use crate::text::clip;

/// CPUID results keyed by (leaf, subleaf), as `[eax, ebx, ecx, edx]`.
pub type CpuidTable = BTreeMap<(u32, u32), [u32; 4]>;

/// Name of the recorded CPUID answers inside a sysroot.
pub const CPUID_FILE: &str = "cpuid.json";

/// The CPUID answers of one run.
#[derive(Debug)]
pub struct Cpuid {
    origin: Origin,
    /// Live: the answers executed so far (for a capture). Recorded: the capture's answers.
    table: Mutex<CpuidTable>,
}

/// Where the answers come from.
#[derive(Debug)]
enum Origin {
    /// The instruction, on this CPU.
    Live,
    /// A capture's `cpuid.json` (or a table built in a test).
    Recorded,
    /// Nowhere: not x86, or no readable `cpuid.json`; why.
    Missing(Unknown),
}

impl Cpuid {
    /// The answers for `src`: the instruction live (x86_64 only), its sysroot's
    /// `cpuid.json` in replay (read here, once).
    pub fn open(src: &Source) -> Cpuid {
        if src.is_live() {
            return if cfg!(target_arch = "x86_64") {
                Cpuid::with(Origin::Live, CpuidTable::new())
            } else {
                Cpuid::missing(Unknown::NotRecorded("CPUID exists only on x86"))
            };
        }
        let path = Path::new("/").join(CPUID_FILE);
        let read = src.read_string(&path).map_err(|e| match e {
            Unknown::NotFound(_) => Unknown::NotRecorded("cpuid.json (CPUID answers)"),
            other => other,
        });
        match read.and_then(|text| parse_json(&text).map_err(|d| Unknown::unparsable(&path, d))) {
            Ok(table) => Cpuid::recorded(table),
            Err(why) => Cpuid::missing(why),
        }
    }

    /// Answers recorded earlier, keyed by (leaf, subleaf); nothing is executed.
    pub fn recorded(table: CpuidTable) -> Cpuid {
        Cpuid::with(Origin::Recorded, table)
    }

    fn missing(why: Unknown) -> Cpuid {
        Cpuid::with(Origin::Missing(why), CpuidTable::new())
    }

    fn with(origin: Origin, table: CpuidTable) -> Cpuid {
        Cpuid {
            origin,
            table: Mutex::new(table),
        }
    }

    /// `[eax, ebx, ecx, edx]` of (leaf, subleaf): executed (and kept) live, looked up in
    /// replay; the reason where it is unknown.
    pub fn leaf(&self, leaf: u32, subleaf: u32) -> Result<[u32; 4], Unknown> {
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        match &self.origin {
            Origin::Live => Ok(*table
                .entry((leaf, subleaf))
                .or_insert_with(|| execute(leaf, subleaf))),
            Origin::Recorded => table
                .get(&(leaf, subleaf))
                .copied()
                .ok_or(Unknown::NotRecorded("CPUID leaf")),
            Origin::Missing(why) => Err(why.clone()),
        }
    }

    /// True when there are answers to decode (live x86_64, or a `cpuid.json` with leaf 0).
    pub fn available(&self) -> bool {
        self.leaf(0, 0).is_ok()
    }

    /// The answers given so far (live) or recorded, for `capture`.
    pub fn table(&self) -> CpuidTable {
        self.table.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Keeps the leaves executed live in `src`'s recording as `cpuid.json` (capture mode;
    /// nothing where no leaf was asked, or in replay).
    pub fn record(&self, src: &Source) {
        if !matches!(self.origin, Origin::Live) || !src.is_recording() {
            return;
        }
        let table = self.table();
        if !table.is_empty() {
            src.store_answer(CPUID_FILE, format_json(&table));
        }
    }
}

/// Executes CPUID (`sys::cpuid`). Only x86_64 runs it here; `Cpuid::open` never asks elsewhere.
fn execute(leaf: u32, subleaf: u32) -> [u32; 4] {
    crate::sys::cpuid(leaf, subleaf)
}

/// `cpuid.json`: the CPUID leaves the probes used, as a capture records them.
#[derive(
    Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
pub struct CpuidFile {
    /// `leaf.subleaf` in hex (`0x00000016.0x0`) → the registers eax, ebx, ecx, edx, each as
    /// `0x` and eight hex digits.
    pub leaves: BTreeMap<String, [String; 4]>,
}

/// Parses `cpuid.json`: `{"leaves": {"0x00000016.0x0": ["0x00000c1c", ...]}}`.
pub fn parse_json(text: &str) -> Result<CpuidTable, String> {
    let file: CpuidFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let hex = |s: &str| {
        u32::from_str_radix(s.trim_start_matches("0x"), 16)
            .map_err(|_| format!("bad hex '{}'", clip(s)))
    };
    let mut out = CpuidTable::new();
    for (key, regs) in file.leaves {
        let (leaf, sub) = key
            .split_once('.')
            .ok_or_else(|| format!("bad key '{}'", clip(&key)))?;
        let v = [
            hex(&regs[0])?,
            hex(&regs[1])?,
            hex(&regs[2])?,
            hex(&regs[3])?,
        ];
        out.insert((hex(leaf)?, hex(sub)?), v);
    }
    Ok(out)
}

/// Writes `cpuid.json` in the format `parse_json` reads.
pub fn format_json(table: &CpuidTable) -> String {
    let leaves: BTreeMap<String, [String; 4]> = table
        .iter()
        .map(|((l, s), r)| {
            (
                format!("0x{l:08x}.0x{s:x}"),
                r.map(|x| format!("0x{x:08x}")),
            )
        })
        .collect();
    serde_json::to_string_pretty(&CpuidFile { leaves }).unwrap_or_default() + "\n"
}

/// Leaves a decode could not get, and how many times one was asked for.
#[derive(Default)]
struct Misses {
    leaves: BTreeSet<(u32, u32)>,
    count: usize,
}

/// raw-cpuid's view of the answers; remembers the leaves it could not get.
#[derive(Clone, Copy)]
struct Reader<'a> {
    leaves: &'a Cpuid,
    misses: &'a Mutex<Misses>,
}

impl Reader<'_> {
    fn miss_count(&self) -> usize {
        self.misses.lock().unwrap_or_else(|e| e.into_inner()).count
    }

    /// Runs one decoding step; its result stands only if every leaf it read was known
    /// (raw-cpuid would otherwise decode the zeros of an unrecorded leaf as facts).
    fn known<T>(&self, step: impl FnOnce() -> Option<T>) -> Option<T> {
        let before = self.miss_count();
        let out = step();
        (self.miss_count() == before).then_some(out).flatten()
    }
}

impl CpuIdReader for Reader<'_> {
    fn cpuid2(&self, eax: u32, ecx: u32) -> CpuIdResult {
        let [a, b, c, d] = self.leaves.leaf(eax, ecx).unwrap_or_else(|_| {
            let mut m = self.misses.lock().unwrap_or_else(|e| e.into_inner());
            m.leaves.insert((eax, ecx));
            m.count += 1;
            [0; 4]
        });
        CpuIdResult {
            eax: a,
            ebx: b,
            ecx: c,
            edx: d,
        }
    }
}

/// One cache as CPUID leaf 4 (Intel) or 0x8000_001D (AMD) describes it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CpuidCache {
    pub level: u32,
    /// `data`, `instruction` or `unified`, as sysfs names them.
    pub kind: String,
    /// Size of one instance: ways × partitions × line size × sets.
    pub size_bytes: u64,
    /// Most logical CPUs that share one instance (an upper bound the CPU reports).
    pub shared_by_max: u32,
}

/// What CPUID says about the package it runs on. CPUID sees one package only: sockets,
/// and which CPUs are online, must come from the OS.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CpuidFacts {
    /// Leaf 0: `GenuineIntel`, `AuthenticAMD`, ...
    pub vendor: Option<String>,
    /// Leaves 0x8000_0002..4, trimmed: `Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz`.
    pub brand: Option<String>,
    /// Display family, model and stepping, as /proc/cpuinfo shows them.
    pub family: Option<u32>,
    pub model_id: Option<u32>,
    pub stepping: Option<u32>,
    /// Leaf 0x4000_0000 signature where the hypervisor bit is set: `KVMKVMKVM`, `Microsoft Hv`.
    pub hypervisor: Option<String>,
    /// Leaf 0x16 EAX: base clock in MHz (Intel Skylake on; `None` where 0 or absent).
    pub base_mhz: Option<u32>,
    /// Leaf 0x16 EBX: maximum (turbo) clock in MHz, as Intel rates the part.
    pub max_mhz: Option<u32>,
    /// Linux flag names (`sse4_2`, `avx512f`, `avx512_vnni`, `amx_tile`). These are what the
    /// CPU advertises; whether the OS enabled the register state (XCR0) is not checked here.
    pub flags: Vec<String>,
    pub caches: Vec<CpuidCache>,
    /// Logical CPUs per core (leaf 0xB/0x1F SMT level).
    pub threads_per_core: Option<u32>,
    /// Logical CPUs per package (leaf 0xB/0x1F core level).
    pub threads_per_package: Option<u32>,
    /// Leaves asked for that were not known, (leaf, subleaf): facts from them are absent.
    pub missing: Vec<(u32, u32)>,
}

impl Cpuid {
    /// Decodes what the leaves tell; asks for each leaf it needs, so live answers end up
    /// holding exactly what a replay will ask for.
    pub fn decode(&self) -> CpuidFacts {
        facts_of(self)
    }
}

fn facts_of(leaves: &Cpuid) -> CpuidFacts {
    let misses = Mutex::new(Misses::default());
    let reader = Reader {
        leaves,
        misses: &misses,
    };
    let cpuid = CpuId::with_cpuid_reader(reader);
    // A missing leaf 0 or 0x8000_0000 reads as a maximum of 0: raw-cpuid then asks for no
    // further leaves of that range, and the facts from them stay unknown.
    let mut facts = CpuidFacts::default();
    let nul_or_space = |c: char| c == '\0' || c.is_whitespace();
    facts.vendor = reader.known(|| {
        cpuid
            .get_vendor_info()
            .map(|v| v.as_str().trim_matches(nul_or_space).to_string())
            .filter(|v| !v.is_empty())
    });
    facts.brand = reader.known(|| {
        cpuid
            .get_processor_brand_string()
            .map(|b| b.as_str().trim_matches(nul_or_space).to_string())
            .filter(|b| !b.is_empty())
    });
    if let Some(f) = reader.known(|| cpuid.get_feature_info()) {
        facts.family = Some(u32::from(f.family_id()));
        facts.model_id = Some(u32::from(f.model_id()));
        facts.stepping = Some(u32::from(f.stepping_id()));
        if f.has_hypervisor() {
            facts.hypervisor = reader.known(|| hypervisor_signature(&reader));
        }
    }
    facts.base_mhz = reader.known(|| {
        cpuid
            .get_processor_frequency_info()
            .map(|f| u32::from(f.processor_base_frequency()))
            .filter(|&m| m > 0)
    });
    facts.max_mhz = reader.known(|| {
        cpuid
            .get_processor_frequency_info()
            .map(|f| u32::from(f.processor_max_frequency()))
            .filter(|&m| m > 0)
    });
    facts.flags = reader
        .known(|| Some(flags(&cpuid, &reader)))
        .unwrap_or_default();
    facts.caches = reader.known(|| Some(caches(&cpuid))).unwrap_or_default();
    let topology = reader.known(|| {
        let levels = cpuid
            .get_extended_topology_info_v2()
            .or_else(|| cpuid.get_extended_topology_info())?;
        let (mut smt, mut core) = (None, None);
        for level in levels {
            match level.level_type() {
                TopologyType::SMT => smt = Some(u32::from(level.processors())),
                TopologyType::Core => core = Some(u32::from(level.processors())),
                _ => {}
            }
        }
        Some((smt, core))
    });
    if let Some((smt, core)) = topology {
        facts.threads_per_core = smt;
        facts.threads_per_package = core;
    }
    facts.missing = misses
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .leaves
        .into_iter()
        .collect();
    facts
}

/// The 12-byte vendor signature of leaf 0x4000_0000 (EBX, ECX, EDX).
fn hypervisor_signature(reader: &Reader<'_>) -> Option<String> {
    let r = reader.cpuid1(0x4000_0000);
    let bytes: Vec<u8> = [r.ebx, r.ecx, r.edx]
        .iter()
        .flat_map(|x| x.to_le_bytes())
        .take_while(|&b| b != 0)
        .collect();
    let text = String::from_utf8_lossy(&bytes).trim().to_string();
    (!text.is_empty()).then_some(text)
}

/// ISA flags under the names Linux gives them in /proc/cpuinfo.
fn flags(cpuid: &CpuId<Reader<'_>>, reader: &Reader<'_>) -> Vec<String> {
    let mut out = Vec::new();
    let mut add = |on: bool, name: &str| {
        if on {
            out.push(name.to_string());
        }
    };
    if let Some(f) = cpuid.get_feature_info() {
        add(f.has_sse2(), "sse2");
        add(f.has_sse42(), "sse4_2");
        add(f.has_avx(), "avx");
        add(f.has_fma(), "fma");
        add(f.has_f16c(), "f16c");
        add(f.has_hypervisor(), "hypervisor");
    }
    if let Some(e) = cpuid.get_extended_feature_info() {
        add(e.has_avx2(), "avx2");
        add(e.has_avx_vnni(), "avx_vnni");
        add(e.has_avx512f(), "avx512f");
        add(e.has_avx512dq(), "avx512dq");
        add(e.has_avx512cd(), "avx512cd");
        add(e.has_avx512bw(), "avx512bw");
        add(e.has_avx512vl(), "avx512vl");
        add(e.has_avx512_ifma(), "avx512ifma");
        add(e.has_avx512vbmi(), "avx512vbmi");
        add(e.has_avx512vnni(), "avx512_vnni");
        add(e.has_avx512_bf16(), "avx512_bf16");
        add(e.has_avx512_fp16(), "avx512_fp16");
        add(e.has_amx_tile(), "amx_tile");
        add(e.has_amx_bf16(), "amx_bf16");
        add(e.has_amx_int8(), "amx_int8");
        // raw-cpuid has no accessor for AMX-FP16: leaf 7 subleaf 1 EAX bit 21.
        add(reader.cpuid2(7, 1).eax & (1 << 21) != 0, "amx_fp16");
    }
    out
}

fn caches(cpuid: &CpuId<Reader<'_>>) -> Vec<CpuidCache> {
    let Some(params) = cpuid.get_cache_parameters() else {
        return Vec::new();
    };
    params
        .filter_map(|c| {
            let kind = match c.cache_type() {
                CacheType::Data => "data",
                CacheType::Instruction => "instruction",
                CacheType::Unified => "unified",
                _ => return None,
            };
            let size = [
                c.associativity(),
                c.physical_line_partitions(),
                c.coherency_line_size(),
                c.sets(),
            ]
            .iter()
            .try_fold(1u64, |acc, &x| acc.checked_mul(x as u64))?;
            Some(CpuidCache {
                level: u32::from(c.level()),
                kind: kind.to_string(),
                size_bytes: size,
                shared_by_max: u32::try_from(c.max_cores_for_cache()).unwrap_or(u32::MAX),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Four registers holding `text` (up to 16 bytes, NUL-padded), as a brand leaf does.
    fn text_regs(text: &str) -> [u32; 4] {
        let mut b = [0u8; 16];
        b[..text.len()].copy_from_slice(text.as_bytes());
        let w = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        [w(0), w(4), w(8), w(12)]
    }

    /// Leaf 4 registers of one cache: type, level, logical CPUs sharing it, ways, sets.
    fn leaf4(kind: u32, level: u32, sharing: u32, ways: u32, sets: u32) -> [u32; 4] {
        let eax = kind | (level << 5) | ((sharing - 1) << 14) | (31 << 26);
        let ebx = 63 | ((ways - 1) << 22);
        [eax, ebx, sets - 1, 0]
    }

    /// Leaves of a Xeon Gold 6254 (Cascade Lake, family 6 model 0x55 stepping 7), built from
    /// its documented signature, cache geometry, topology and feature bits.
    fn xeon_gold_6254() -> CpuidTable {
        let mut t = CpuidTable::new();
        let vendor = text_regs("GenuineIntel");
        // Leaf 0 orders the vendor EBX, EDX, ECX.
        t.insert((0, 0), [0x16, vendor[0], vendor[2], vendor[1]]);
        let ecx1 = (1 << 12) | (1 << 20) | (1 << 27) | (1 << 28) | (1 << 29);
        t.insert((1, 0), [0x0005_0657, 0, ecx1, 1 << 26]);
        t.insert((4, 0), leaf4(1, 1, 2, 8, 64));
        t.insert((4, 1), leaf4(2, 1, 2, 8, 64));
        t.insert((4, 2), leaf4(3, 2, 2, 16, 1024));
        t.insert((4, 3), leaf4(3, 3, 64, 11, 36864));
        t.insert((4, 4), [0; 4]);
        let ebx7 = (1 << 5) | (1 << 16) | (1 << 17) | (1 << 28) | (1 << 30) | (1 << 31);
        t.insert((7, 0), [0, ebx7, 1 << 11, 0]);
        t.insert((7, 1), [0; 4]);
        // Leaf 0xB: SMT level 2 threads, core level 36 threads, then the end.
        t.insert((0xb, 0), [1, 2, 0x100, 0]);
        t.insert((0xb, 1), [6, 36, 0x201, 0]);
        t.insert((0xb, 2), [0, 0, 2, 0]);
        t.insert((0x16, 0), [3100, 4000, 100, 0]);
        t.insert((0x8000_0000, 0), [0x8000_0008, 0, 0, 0]);
        let brand = "Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz";
        let mut padded = brand.as_bytes().to_vec();
        padded.resize(48, 0);
        for (i, chunk) in padded.chunks(16).enumerate() {
            let text = String::from_utf8_lossy(chunk)
                .trim_end_matches('\0')
                .to_string();
            t.insert((0x8000_0002 + i as u32, 0), text_regs(&text));
        }
        t
    }

    #[test]
    fn decodes_a_recorded_xeon_on_any_host() {
        let facts = Cpuid::recorded(xeon_gold_6254()).decode();
        assert_eq!(facts.vendor.as_deref(), Some("GenuineIntel"));
        assert_eq!(
            facts.brand.as_deref(),
            Some("Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz")
        );
        assert_eq!(
            (facts.family, facts.model_id, facts.stepping),
            (Some(6), Some(0x55), Some(7))
        );
        assert_eq!((facts.base_mhz, facts.max_mhz), (Some(3100), Some(4000)));
        assert_eq!(facts.hypervisor, None);
        for f in [
            "sse2",
            "sse4_2",
            "avx",
            "fma",
            "f16c",
            "avx2",
            "avx512f",
            "avx512dq",
            "avx512cd",
            "avx512bw",
            "avx512vl",
            "avx512_vnni",
        ] {
            assert!(facts.flags.iter().any(|x| x == f), "{f}: {:?}", facts.flags);
        }
        assert!(!facts.flags.iter().any(|x| x.starts_with("amx")));
        let sizes: Vec<_> = facts
            .caches
            .iter()
            .map(|c| (c.level, c.kind.as_str(), c.size_bytes))
            .collect();
        assert_eq!(
            sizes,
            [
                (1, "data", 32 * 1024),
                (1, "instruction", 32 * 1024),
                (2, "unified", 1024 * 1024),
                (3, "unified", 25_952_256),
            ]
        );
        assert_eq!(
            (facts.threads_per_core, facts.threads_per_package),
            (Some(2), Some(36))
        );
    }

    #[test]
    fn missing_leaves_are_listed_not_guessed() {
        // The KVM guest's capture holds leaves 0, 0x16 and 0x40000000 only.
        let text = std::fs::read_to_string("fixtures/x86_64-vm-kvm/cpuid.json").unwrap();
        let facts = Cpuid::recorded(parse_json(&text).unwrap()).decode();
        assert_eq!(facts.vendor.as_deref(), Some("GenuineIntel"));
        assert_eq!(facts.family, None, "leaf 1 was not recorded");
        assert!(facts.missing.contains(&(1, 0)), "{:?}", facts.missing);
        assert_eq!(facts.base_mhz, None, "leaf 0x16 reads 0 in that guest");
        assert!(facts.flags.is_empty());
    }

    #[test]
    fn recorded_answers_round_trip_through_cpuid_json() {
        let table = xeon_gold_6254();
        assert_eq!(parse_json(&format_json(&table)), Ok(table.clone()));
        let first = Cpuid::recorded(table).decode();
        let text = format_json(&Cpuid::recorded(xeon_gold_6254()).table());
        assert_eq!(Cpuid::recorded(parse_json(&text).unwrap()).decode(), first);
        assert_eq!(
            parse_json(r#"{"leaves": {"0x0": ["0", "0", "0", "0"]}}"#),
            Err("bad key '0x0'".into())
        );
    }

    #[test]
    fn sysroot_answers_from_cpuid_json_or_say_why_not() {
        let kvm = Cpuid::open(&Source::sysroot("fixtures/x86_64-vm-kvm"));
        assert!(kvm.available());
        assert_eq!(kvm.decode().vendor.as_deref(), Some("GenuineIntel"));
        assert_eq!(
            kvm.leaf(1, 0),
            Err(Unknown::NotRecorded("CPUID leaf")),
            "leaf 1 was not recorded"
        );
        let none = Cpuid::open(&Source::sysroot("fixtures/hp-z8-g4-dual-rtx6000"));
        assert!(!none.available());
        assert_eq!(
            none.leaf(0x16, 0),
            Err(Unknown::NotRecorded("cpuid.json (CPUID answers)"))
        );
        let facts = none.decode();
        assert_eq!((facts.vendor, facts.flags.len()), (None, 0));
        assert!(facts.missing.contains(&(0, 0)), "{:?}", facts.missing);
    }

    /// Live answers are kept, so a capture records exactly what decoding asked for, and a
    /// replay of that record decodes the same.
    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    #[test]
    fn live_answers_are_kept_and_replay_the_same() {
        let live = Cpuid::open(&Source::live());
        let first = live.decode();
        assert!(live.table().contains_key(&(0, 0)));
        let replay = Cpuid::recorded(parse_json(&format_json(&live.table())).unwrap());
        assert_eq!(replay.decode(), first);
        let src = Source::live_recording();
        let recorded = Cpuid::open(&src);
        recorded.leaf(0, 0).unwrap();
        recorded.record(&src);
        let rec = src.take_recording().unwrap();
        let stored = String::from_utf8(rec.answers[CPUID_FILE].clone()).unwrap();
        assert_eq!(parse_json(&stored).unwrap().len(), 1);
    }

    #[cfg(all(target_arch = "x86_64", target_os = "linux"))]
    #[test]
    fn live_agrees_with_proc_cpuinfo() {
        let info = std::fs::read_to_string("/proc/cpuinfo").unwrap();
        let field = |k: &str| {
            info.lines()
                .find_map(|l| l.split_once(':').filter(|(a, _)| a.trim() == k))
                .map(|(_, v)| v.trim().to_string())
        };
        let facts = Cpuid::open(&Source::live()).decode();
        assert_eq!(facts.vendor, field("vendor_id"));
        assert_eq!(facts.family.map(|v| v.to_string()), field("cpu family"));
        assert_eq!(facts.model_id.map(|v| v.to_string()), field("model"));
        assert!(facts.missing.is_empty(), "{:?}", facts.missing);
    }
}
