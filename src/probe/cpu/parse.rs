//! Pure parsers for the CPU probe: /proc/cpuinfo, cpulists, cpumasks, cache sizes,
//! /proc/sysinfo (s390) and nodeN/meminfo. No I/O here.

use std::collections::{BTreeMap, BTreeSet};

/// One `processor` block of /proc/cpuinfo, borrowing the text it was parsed from (a big
/// machine's cpuinfo is thousands of lines, each once two small copies).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Processor<'a> {
    /// Logical CPU number (`processor : N`, or s390's `processor N: ...`).
    pub id: Option<u32>,
    /// Every `key : value` of the block, keys and values trimmed.
    pub fields: BTreeMap<&'a str, &'a str>,
}

/// /proc/cpuinfo split into per-CPU blocks and the lines outside them (ppc's trailer,
/// s390's header, old arm's trailing `CPU ...` keys).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CpuInfo<'a> {
    pub processors: Vec<Processor<'a>>,
    pub global: BTreeMap<&'a str, &'a str>,
}

impl<'a> CpuInfo<'a> {
    /// The value of `key` in the first CPU that has it, else in the lines outside CPU blocks.
    pub fn get(&self, key: &str) -> Option<&'a str> {
        self.processors
            .iter()
            .find_map(|p| p.fields.get(key))
            .or_else(|| self.global.get(key))
            .copied()
            .filter(|v| !v.is_empty())
    }

    /// s390 machine type from `processor N: version = 00, identification = ..., machine = 2817`.
    pub fn s390_machine(&self) -> Option<String> {
        self.processors.iter().find_map(|p| {
            let line = p.fields.get("s390 processor")?;
            line.split(',').find_map(|part| {
                let (k, v) = part.split_once('=')?;
                (k.trim() == "machine").then(|| v.trim().to_string())
            })
        })
    }

    /// (cores, sockets) from x86 `physical id` and `core id`, when every CPU has both.
    pub fn x86_topology(&self) -> Option<(u32, u32)> {
        let mut cores = BTreeSet::new();
        let mut sockets = BTreeSet::new();
        for p in &self.processors {
            let pkg = p.fields.get("physical id")?;
            let core = p.fields.get("core id")?;
            sockets.insert(pkg);
            cores.insert((pkg, core));
        }
        if cores.is_empty() {
            return None;
        }
        Some((cores.len() as u32, sockets.len() as u32))
    }
}

/// Parses /proc/cpuinfo of any architecture: `key<tabs>: value`, split at the first colon,
/// blocks separated by blank lines; a block with a `processor` key is one CPU.
pub fn parse_cpuinfo(text: &str) -> CpuInfo<'_> {
    let mut info = CpuInfo::default();
    // memchr's search for the blank lines: str's own split showed in replays of big machines.
    let ends = memchr::memmem::find_iter(text.as_bytes(), b"\n\n").chain([text.len()]);
    let mut from = 0;
    for end in ends {
        let block = &text[from..end];
        from = end + 2;
        let mut fields = BTreeMap::new();
        let mut s390_cpus = Vec::new();
        for line in block.lines() {
            let Some((k, v)) = line.split_once(':') else {
                continue;
            };
            let (k, v) = (k.trim(), v.trim());
            // s390 lists CPUs one per line: `processor 1: version = 00, ..., machine = 2817`.
            if let Some(n) = k.strip_prefix("processor ") {
                if let Ok(id) = n.trim().parse::<u32>() {
                    s390_cpus.push((id, v));
                    continue;
                }
            }
            fields.entry(k).or_insert(v);
        }
        for (id, line) in s390_cpus {
            let mut f = BTreeMap::new();
            f.insert("s390 processor", line);
            info.processors.push(Processor {
                id: Some(id),
                fields: f,
            });
        }
        if fields.is_empty() {
            continue;
        }
        match fields.get("processor").map(|v| v.parse::<u32>()) {
            Some(Ok(id)) => info.processors.push(Processor {
                id: Some(id),
                fields,
            }),
            // Old 32-bit arm: `Processor : ARMv7 Processor rev 4 (v7l)` is not a CPU number.
            _ => {
                for (k, v) in fields {
                    info.global.entry(k).or_insert(v);
                }
            }
        }
    }
    info
}

/// Parses a sysfs cache `size`: the kernel writes KiB with a `K` suffix (`48K`); `M`/`G`
/// and plain byte counts are accepted too.
pub fn parse_cache_size(text: &str) -> Option<u64> {
    let t = text.trim();
    let (num, mul) = match t.chars().last()? {
        'K' | 'k' => (&t[..t.len() - 1], 1024),
        'M' | 'm' => (&t[..t.len() - 1], 1024 * 1024),
        'G' | 'g' => (&t[..t.len() - 1], 1024 * 1024 * 1024),
        _ => (t, 1),
    };
    num.trim()
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(mul))
        .filter(|&n| n > 0)
}

/// `0x41` → 65.
pub fn parse_hex(text: &str) -> Option<u32> {
    let t = text.trim();
    let t = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .unwrap_or(t);
    u32::from_str_radix(t, 16).ok()
}

/// MemTotal of `/sys/devices/system/node/nodeN/meminfo` (`Node 0 MemTotal:  5204180 kB`).
pub fn parse_node_meminfo(text: &str) -> Option<u64> {
    crate::probe::meminfo::parse(text).bytes("MemTotal").ok()
}

/// The s390 machine layout from /proc/sysinfo `CPU Topology SW:` (as lscpu reads it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SysinfoTopology {
    pub drawers: u32,
    pub books: u32,
    pub sockets_per_book: u32,
    pub cores_per_socket: u32,
}

/// Parses `CPU Topology SW:      0 0 0 4 6 4` (two unused levels, then drawers, books per
/// drawer, sockets per book, cores per socket).
pub fn parse_sysinfo_topology(text: &str) -> Option<SysinfoTopology> {
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("CPU Topology SW:"))?;
    let v: Vec<u32> = line
        .split_whitespace()
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    if v.len() < 6 {
        return None;
    }
    Some(SysinfoTopology {
        drawers: v[2],
        books: v[3],
        sockets_per_book: v[4],
        cores_per_socket: v[5],
    })
}

/// Clock in MHz from an Intel-style model name suffix (`... CPU @ 3.10GHz` → 3100).
pub fn model_name_ghz_mhz(name: &str) -> Option<u32> {
    let (_, tail) = name.rsplit_once('@')?;
    let tail = tail.trim();
    let (num, mul) = if let Some(n) = tail.strip_suffix("GHz") {
        (n, 1000.0)
    } else if let Some(n) = tail.strip_suffix("MHz") {
        (n, 1.0)
    } else {
        return None;
    };
    let v: f64 = num.trim().parse().ok()?;
    let mhz = (v * mul).round();
    // `inf`, `NaN` and 1e30 parse as f64 too; only a clock that fits is a clock.
    (mhz >= 1.0 && mhz <= f64::from(u32::MAX)).then_some(mhz as u32)
}

/// RISC-V `isa` string (`rv64imafdc_zicsr_zba`) → extension names (`i`, `m`, ..., `zicsr`).
pub fn riscv_extensions(isa: &str) -> Vec<String> {
    let mut parts = isa.trim().split('_');
    let mut out = Vec::new();
    if let Some(base) = parts.next() {
        let letters = base
            .strip_prefix("rv64")
            .or_else(|| base.strip_prefix("rv32"))
            .unwrap_or("");
        out.extend(letters.chars().map(|c| c.to_string()));
    }
    out.extend(parts.filter(|p| !p.is_empty()).map(str::to_string));
    out
}
