//! CPUID leaves behind one trait (`CpuidLeaves`), decoded with raw-cpuid: live on x86
//! (`Live`), from a capture's `cpuid.json` (`Recorded`), or through a `Source`, with a
//! `Recorder` that keeps every answer for a capture to write. Decoding never executes CPUID
//! itself, so a capture made on x86 decodes the same on an Arm or Windows host.
//!
//! `decode` turns leaves into the facts an OS without /proc/cpuinfo lacks: vendor, brand,
//! family/model/stepping, ISA flags (under the kernel's flag names, so the ISA table of the
//! CPU probe applies unchanged), caches, SMT and core counts of one package, base clock.
//! A leaf asked for but unknown (not x86, not recorded) reads as zeros, as CPUID answers a
//! leaf past its maximum, and is listed in `CpuidFacts::missing` so a note can say why.

use std::collections::BTreeSet;
use std::sync::Mutex;

use raw_cpuid::{CacheType, CpuId, CpuIdReader, CpuIdResult, TopologyType};

use crate::source::{format_cpuid_json, parse_cpuid_json, CpuidTable, Source};

/// Where CPUID answers come from.
pub trait CpuidLeaves {
    /// `[eax, ebx, ecx, edx]` of (leaf, subleaf); `None` where unknown.
    fn leaf(&self, leaf: u32, subleaf: u32) -> Option<[u32; 4]>;
}

/// The CPU this runs on: x86 and x86_64 only, `None` on every leaf elsewhere.
#[derive(Debug, Clone, Copy, Default)]
pub struct Live;

impl CpuidLeaves for Live {
    fn leaf(&self, leaf: u32, subleaf: u32) -> Option<[u32; 4]> {
        #[cfg(target_arch = "x86_64")]
        {
            // CPUID exists on every x86_64 CPU and has no side effects (a safe intrinsic).
            let r = std::arch::x86_64::__cpuid_count(leaf, subleaf);
            Some([r.eax, r.ebx, r.ecx, r.edx])
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            let _ = (leaf, subleaf);
            None
        }
    }
}

/// Answers recorded by a capture; nothing is executed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Recorded {
    table: CpuidTable,
}

impl Recorded {
    /// Leaves keyed by (leaf, subleaf).
    pub fn new(table: CpuidTable) -> Self {
        Recorded { table }
    }

    /// Parses `cpuid.json` (the format `source::parse_cpuid_json` reads).
    pub fn from_json(text: &str) -> Result<Self, String> {
        parse_cpuid_json(text).map(Recorded::new)
    }
}

impl CpuidLeaves for Recorded {
    fn leaf(&self, leaf: u32, subleaf: u32) -> Option<[u32; 4]> {
        self.table.get(&(leaf, subleaf)).copied()
    }
}

/// Passes another reader's answers through and keeps each one, so a capture records
/// exactly the leaves that decoding asked for.
#[derive(Debug, Default)]
pub struct Recorder<L> {
    inner: L,
    seen: Mutex<CpuidTable>,
}

impl<L: CpuidLeaves> Recorder<L> {
    pub fn new(inner: L) -> Self {
        Recorder {
            inner,
            seen: Mutex::new(CpuidTable::new()),
        }
    }

    /// The leaves answered so far.
    pub fn table(&self) -> CpuidTable {
        self.seen.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// The leaves answered so far, as `cpuid.json`.
    pub fn to_json(&self) -> String {
        format_cpuid_json(&self.table())
    }
}

impl<L: CpuidLeaves> CpuidLeaves for Recorder<L> {
    fn leaf(&self, leaf: u32, subleaf: u32) -> Option<[u32; 4]> {
        let v = self.inner.leaf(leaf, subleaf)?;
        self.seen
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert((leaf, subleaf), v);
        Some(v)
    }
}

/// The source's CPUID: live (and remembered for `capture`), or its sysroot's `cpuid.json`.
impl CpuidLeaves for Source {
    fn leaf(&self, leaf: u32, subleaf: u32) -> Option<[u32; 4]> {
        self.cpuid(leaf, subleaf).ok()
    }
}

/// Leaves a decode could not get, and how many times one was asked for.
#[derive(Default)]
struct Misses {
    leaves: BTreeSet<(u32, u32)>,
    count: usize,
}

/// raw-cpuid's view of any `CpuidLeaves`; remembers the leaves it could not get.
#[derive(Clone, Copy)]
struct Reader<'a> {
    leaves: &'a dyn CpuidLeaves,
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
        let [a, b, c, d] = self.leaves.leaf(eax, ecx).unwrap_or_else(|| {
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

/// Decodes what the leaves tell; asks for each leaf it needs, so a `Recorder` underneath
/// ends up holding exactly what a replay will ask for.
pub fn decode(leaves: &dyn CpuidLeaves) -> CpuidFacts {
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
        let facts = decode(&Recorded::new(xeon_gold_6254()));
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
        let facts = decode(&Recorded::from_json(&text).unwrap());
        assert_eq!(facts.vendor.as_deref(), Some("GenuineIntel"));
        assert_eq!(facts.family, None, "leaf 1 was not recorded");
        assert!(facts.missing.contains(&(1, 0)), "{:?}", facts.missing);
        assert_eq!(facts.base_mhz, None, "leaf 0x16 reads 0 in that guest");
        assert!(facts.flags.is_empty());
    }

    #[test]
    fn recorder_keeps_what_decode_asked_and_replays_the_same() {
        let recorder = Recorder::new(Recorded::new(xeon_gold_6254()));
        let first = decode(&recorder);
        let replay = Recorded::from_json(&recorder.to_json()).unwrap();
        assert_eq!(decode(&replay), first);
        assert!(recorder.table().contains_key(&(0x8000_0004, 0)));
    }

    #[test]
    fn sysroot_source_answers_from_cpuid_json() {
        let src = Source::sysroot("fixtures/x86_64-vm-kvm");
        assert_eq!(
            decode(&src).vendor.as_deref(),
            Some("GenuineIntel"),
            "through Source::cpuid"
        );
        let none = decode(&Source::sysroot("fixtures/hp-z8-g4-dual-rtx6000"));
        assert_eq!((none.vendor, none.flags.len()), (None, 0));
        assert!(none.missing.contains(&(0, 0)), "{:?}", none.missing);
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
        let facts = decode(&Live);
        assert_eq!(facts.vendor, field("vendor_id"));
        assert_eq!(facts.family.map(|v| v.to_string()), field("cpu family"));
        assert_eq!(facts.model_id.map(|v| v.to_string()), field("model"));
        assert!(facts.missing.is_empty(), "{:?}", facts.missing);
    }
}
