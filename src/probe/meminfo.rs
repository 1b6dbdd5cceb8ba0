//! The one parser of meminfo text: /proc/meminfo and a NUMA node's
//! /sys/devices/system/node/nodeN/meminfo (whose lines start `Node N `).

/// A meminfo file, read where it is asked: each `Key: value` line with its value as
/// written (`24684084 kB`); where a key is written twice the first line holds. The text is
/// borrowed and nothing is copied: the probes ask it for four or five of its fifty lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Meminfo<'a>(&'a str);

/// meminfo text; a node file's `Node N ` prefix is passed over when keys are looked up.
pub fn parse(text: &str) -> Meminfo<'_> {
    Meminfo(text)
}

impl<'a> Meminfo<'a> {
    /// The value of `key`, trimmed, from its first line.
    fn value(&self, key: &str) -> Option<&'a str> {
        self.0.lines().find_map(|line| {
            let (k, value) = line.split_once(':')?;
            let k = k.trim();
            // `Node 0 MemTotal` → `MemTotal`.
            let k = match k.strip_prefix("Node ") {
                Some(rest) => rest
                    .split_once(' ')
                    .filter(|(n, _)| n.chars().all(|c| c.is_ascii_digit()))
                    .map_or(k, |(_, k)| k.trim()),
                None => k,
            };
            (k == key).then(|| value.trim())
        })
    }

    /// A size in bytes: the kernel writes `N kB`, where kB is KiB. The error says what is
    /// wrong (missing, not a number, another unit, too large).
    pub fn bytes(&self, key: &str) -> Result<u64, String> {
        let value = self.value(key).ok_or_else(|| format!("no {key} line"))?;
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
        // The first of two lines of one key holds; a line without a colon is passed over.
        let twice = parse("garbage\nMemFree: 2 kB\nMemFree: 3 kB\nNode x MemFree: 4 kB\n");
        assert_eq!(twice.bytes("MemFree"), Ok(2048));
        assert_eq!(twice.bytes("Node x MemFree"), Ok(4096));
    }
}
