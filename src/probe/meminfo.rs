//! The one parser of meminfo text: /proc/meminfo and a NUMA node's
//! /sys/devices/system/node/nodeN/meminfo (whose lines start `Node N `).

use std::collections::BTreeMap;

/// A meminfo file: each key with its value as written (`24684084 kB`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Meminfo(BTreeMap<String, String>);

/// Reads every `Key: value` line; a node file's `Node N ` prefix is dropped.
pub fn parse(text: &str) -> Meminfo {
    let mut map = BTreeMap::new();
    for line in text.lines() {
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let key = key.trim();
        // `Node 0 MemTotal` → `MemTotal`.
        let key = match key.strip_prefix("Node ") {
            Some(rest) => rest
                .split_once(' ')
                .filter(|(n, _)| n.chars().all(|c| c.is_ascii_digit()))
                .map_or(key, |(_, k)| k.trim()),
            None => key,
        };
        map.entry(key.to_string())
            .or_insert_with(|| value.trim().to_string());
    }
    Meminfo(map)
}

impl Meminfo {
    /// A size in bytes: the kernel writes `N kB`, where kB is KiB. The error says what is
    /// wrong (missing, not a number, another unit, too large).
    pub fn bytes(&self, key: &str) -> Result<u64, String> {
        let value = self.0.get(key).ok_or_else(|| format!("no {key} line"))?;
        let mut parts = value.split_whitespace();
        let n: u64 = parts
            .next()
            .and_then(|v| v.parse().ok())
            .ok_or_else(|| format!("bad {key} value '{value}'"))?;
        match parts.next() {
            Some("kB") => n
                .checked_mul(1024)
                .ok_or_else(|| format!("{key} '{n}' overflows")),
            other => Err(format!("{key} unit '{}', expected kB", other.unwrap_or(""))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_and_node_files() {
        let m = parse("MemTotal:       24684084 kB\nHugePages_Total:       0\n");
        assert_eq!(m.bytes("MemTotal"), Ok(24_684_084 * 1024));
        assert!(m.bytes("HugePages_Total").is_err());
        assert_eq!(m.bytes("SwapFree"), Err("no SwapFree line".into()));
        let node = parse("Node 0 MemTotal:        5204180 kB\nNode 0 MemFree:   1 kB\n");
        assert_eq!(node.bytes("MemTotal"), Ok(5_204_180 * 1024));
        assert_eq!(node.bytes("MemFree"), Ok(1024));
        assert!(parse("MemTotal: 99999999999999999 kB")
            .bytes("MemTotal")
            .is_err());
    }
}
