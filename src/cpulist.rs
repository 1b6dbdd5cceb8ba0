//! CPU lists and masks as the kernel writes them (`0-3,8-11`, `00000000,0000ffff`): pure
//! text functions shared by the probes and preflight.

use std::collections::BTreeSet;

/// Parses a kernel cpulist (`0-3,8-11`, may be empty) into sorted CPU numbers.
pub fn parse_cpulist(text: &str) -> Result<Vec<u32>, String> {
    // Linux's NR_CPUS tops out at 8192; a list longer than this is not a kernel's and would
    // only cost memory and time (a hostile `0-4294967295` is refused, not expanded).
    const MAX_CPUS: usize = 1 << 16;
    let mut out = BTreeSet::new();
    for part in text
        .trim()
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let bad = || format!("bad cpulist item '{}'", crate::text::clip(part));
        match part.split_once('-') {
            Some((a, b)) => {
                let a: u32 = a.trim().parse().map_err(|_| bad())?;
                let b: u32 = b.trim().parse().map_err(|_| bad())?;
                if b < a || (b - a) as usize >= MAX_CPUS {
                    return Err(bad());
                }
                out.extend(a..=b);
            }
            None => {
                out.insert(part.parse::<u32>().map_err(|_| bad())?);
            }
        }
        if out.len() > MAX_CPUS {
            return Err(format!("cpulist names more than {MAX_CPUS} CPUs"));
        }
    }
    Ok(out.into_iter().collect())
}

/// Parses a kernel cpumask (`00000000,0000ffff`: hex, 32 bits per comma group, the last group
/// holding CPUs 0-31) into sorted CPU numbers.
pub fn parse_cpumask(text: &str) -> Result<Vec<u32>, String> {
    let hex: String = text.trim().chars().filter(|c| *c != ',').collect();
    let mut out = Vec::new();
    for (i, ch) in hex.chars().rev().enumerate() {
        let nibble = ch
            .to_digit(16)
            .ok_or_else(|| format!("bad cpumask '{}'", crate::text::clip(text)))?;
        for bit in 0..4 {
            if nibble & (1 << bit) != 0 {
                out.push((i * 4 + bit) as u32);
            }
        }
    }
    Ok(out)
}

/// Formats sorted CPU numbers as a cpulist: runs as `a-b`, singles as `a`.
pub fn format_cpulist(cpus: &[u32]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < cpus.len() {
        let start = cpus[i];
        let mut end = start;
        while i + 1 < cpus.len() && cpus[i + 1] == end + 1 {
            i += 1;
            end = cpus[i];
        }
        parts.push(if start == end {
            start.to_string()
        } else {
            format!("{start}-{end}")
        });
        i += 1;
    }
    parts.join(",")
}
