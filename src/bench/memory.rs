//! Memory benchmark: STREAM-style copy and triad bandwidth on one thread and on all threads,
//! next to the theoretical peak from the DIMMs' speed.
//!
//! Byte counts follow STREAM (McCalpin): copy moves 16 bytes per element (one read, one write),
//! triad 24 (two reads, one write); write-allocate traffic is not counted. The best repetition
//! is reported, as STREAM does. See <https://www.cs.virginia.edu/stream/ref.html>.

use std::hint::black_box;
use std::time::{Duration, Instant};

pub use crate::spec::bench::{MemoryBench, StreamResult};

use super::progress::Progress;
use crate::spec::{Dimm, Notes, Spec};

/// Sizes and durations of a memory run.
#[derive(Debug, Clone)]
pub struct MemoryParams {
    /// f64 elements per array.
    pub elements: usize,
    /// Thread counts to measure (1 and all).
    pub threads: Vec<u32>,
    /// Time spent on each kernel × thread count.
    pub per_test: Duration,
}

impl MemoryParams {
    /// Arrays of at least 4 × the last-level cache (STREAM's rule) and 64 MiB (1 GiB when the
    /// cache size is unknown), at most 1/16 of usable memory each; one and all `threads`; `budget` shared among the four tests.
    pub fn for_machine(spec: &Spec, threads: usize, budget: Duration) -> Self {
        let llc: u64 = spec
            .cpu
            .caches
            .iter()
            .filter(|c| c.kind != "instruction")
            .max_by_key(|c| c.level)
            .map_or(0, |c| c.total_bytes);
        // Unknown cache size: 1 GiB arrays outgrow all but the largest stacked-cache parts'
        // last-level caches, so the figure is memory, not cache.
        let mut bytes = if llc == 0 {
            1 << 30
        } else {
            (4 * llc).max(64 << 20)
        };
        if let Some(usable) = spec.memory.usable_bytes {
            bytes = bytes.min(usable / 16).max(8 << 20);
        }
        let mut t = vec![1];
        if threads > 1 {
            t.push(threads as u32);
        }
        let per_test = budget / (2 * t.len() as u32);
        Self {
            elements: (bytes / 8) as usize,
            threads: t,
            per_test,
        }
    }
}

/// Runs copy and triad at each thread count; adds the peak (or a note why it is unknown).
pub fn run(
    params: &MemoryParams,
    spec: &Spec,
    progress: &Progress,
    notes: &mut Notes,
) -> MemoryBench {
    let n = params.elements.max(1);
    let max_threads = params.threads.iter().copied().max().unwrap_or(1) as usize;
    let mut a = vec![0f64; n];
    let mut b = vec![0f64; n];
    let mut c = vec![0f64; n];
    // First touch from the threads that will use each chunk, so pages sit on their NUMA node.
    parallel(max_threads, &mut a, &mut b, &mut c, |a, b, c| {
        a.fill(1.0);
        b.fill(2.0);
        c.fill(0.0);
    });
    let mut results = Vec::new();
    for &t in &params.threads {
        for kernel in ["copy", "triad"] {
            progress.step(format!("memory: {kernel}, {t} thread(s)"));
            let per_elem = if kernel == "copy" { 16.0 } else { 24.0 };
            let start = Instant::now();
            let mut best = f64::INFINITY;
            let mut reps = 0u32;
            while reps < 2 || start.elapsed() < params.per_test {
                let t0 = Instant::now();
                if kernel == "copy" {
                    parallel(t as usize, &mut a, &mut b, &mut c, |a, _, c| {
                        c.copy_from_slice(a)
                    });
                } else {
                    parallel(t as usize, &mut a, &mut b, &mut c, |a, b, c| {
                        triad(a, b, c, 3.0)
                    });
                }
                best = best.min(t0.elapsed().as_secs_f64());
                reps += 1;
            }
            black_box((&a, &c));
            results.push(StreamResult {
                kernel: kernel.into(),
                threads: t,
                bytes_per_s: per_elem * n as f64 / best.max(1e-9),
                repetitions: reps,
            });
        }
    }
    let (peak, channels) = match dimm_peak(&spec.memory.dimms) {
        Ok((p, ch, rated_only)) => {
            notes.add(
                "bench.memory.peak_bytes_per_s",
                format!(
                    "assumes each of the {ch} populated DIMMs has its own channel (which DIMMs \
                     share a channel is not visible to software); {} speed × 8 bytes each",
                    if rated_only { "rated" } else { "configured" }
                ),
            );
            (Some(p), Some(ch))
        }
        Err(why) => {
            notes.add("bench.memory.peak_bytes_per_s", why);
            (None, None)
        }
    };
    MemoryBench {
        array_bytes: 8 * n as u64,
        results,
        peak_bytes_per_s: peak,
        peak_channels: channels,
    }
}

/// c = b + s·a: STREAM's triad (a = b + s·c) with the arrays renamed, so that `a`, the copy
/// kernel's source, is never written.
fn triad(a: &[f64], b: &[f64], c: &mut [f64], s: f64) {
    for ((ci, ai), bi) in c.iter_mut().zip(a).zip(b) {
        *ci = bi + s * ai;
    }
}

/// Splits the three arrays into `threads` equal chunks and runs `f` on each chunk in its own
/// scoped thread (the calling thread when `threads` is 1).
fn parallel<F>(threads: usize, a: &mut [f64], b: &mut [f64], c: &mut [f64], f: F)
where
    F: Fn(&mut [f64], &mut [f64], &mut [f64]) + Sync,
{
    if threads <= 1 {
        f(a, b, c);
        return;
    }
    let chunk = a.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        for ((a, b), c) in a
            .chunks_mut(chunk)
            .zip(b.chunks_mut(chunk))
            .zip(c.chunks_mut(chunk))
        {
            let f = &f;
            s.spawn(move || f(a, b, c));
        }
    });
}

/// Theoretical peak of the populated DIMMs: Σ speed × 8 bytes, one channel per DIMM.
/// Returns (bytes/s, channels, whether only rated speeds were known), or why it is unknown.
pub fn dimm_peak(dimms: &[Dimm]) -> Result<(u64, u32, bool), String> {
    if dimms.is_empty() {
        return Err(
            "no DIMM list (SMBIOS memory devices need root: run as root, \
                    or the machine is virtual)"
                .into(),
        );
    }
    let mut sum = 0u64;
    let mut rated_only = false;
    for d in dimms {
        let speed = match (d.configured_speed_mts, d.speed_mts) {
            (Some(s), _) => s,
            (None, Some(s)) => {
                rated_only = true;
                s
            }
            (None, None) => {
                return Err(format!("DIMM {} has no known speed", d.locator));
            }
        };
        // Checked: speeds from a broken table must not wrap to a small peak.
        sum = u64::from(speed)
            .checked_mul(8_000_000)
            .and_then(|b| sum.checked_add(b))
            .ok_or("the DIMM speeds add up past 2^64 bytes/s: the SMBIOS speeds are not real")?;
    }
    Ok((sum, dimms.len() as u32, rated_only))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dimm(loc: &str, speed: Option<u32>, conf: Option<u32>) -> Dimm {
        Dimm {
            locator: loc.into(),
            bank_locator: None,
            size_bytes: Some(16 << 30),
            kind: Some("DDR4".into()),
            form_factor: None,
            speed_mts: speed,
            configured_speed_mts: conf,
            manufacturer: None,
            part_number: None,
            serial: None,
            rank: None,
            type_detail: None,
            socket: None,
        }
    }

    #[test]
    fn peak_of_six_ddr4_2933_dimms() {
        // Z8 G4 order: 96 GB as 6 × 16 GB DDR4-2933 → 6 × 2933 MT/s × 8 B = 140.784 GB/s.
        let d: Vec<_> = (0..6)
            .map(|i| dimm(&format!("DIMM{i}"), Some(2933), Some(2933)))
            .collect();
        assert_eq!(dimm_peak(&d), Ok((140_784_000_000, 6, false)));
    }

    #[test]
    fn peak_uses_configured_speed_and_says_when_rated() {
        let d = [
            dimm("A1", Some(3200), Some(2933)),
            dimm("B1", Some(3200), None),
        ];
        assert_eq!(dimm_peak(&d), Ok(((2933 + 3200) * 8_000_000, 2, true)));
        assert!(dimm_peak(&[]).unwrap_err().contains("root"));
        assert!(dimm_peak(&[dimm("A1", None, None)])
            .unwrap_err()
            .contains("A1"));
    }

    #[test]
    fn peak_of_speeds_past_any_machine_is_unknown_not_wrapped() {
        // 540 DIMMs at u32::MAX MT/s: 1.86e19 bytes/s, past 2^64.
        let d: Vec<_> = (0..540)
            .map(|i| dimm(&format!("D{i}"), None, Some(u32::MAX)))
            .collect();
        assert!(dimm_peak(&d).unwrap_err().contains("past 2^64"));
    }

    #[test]
    fn triad_writes_b_plus_s_a_into_c() {
        let a = [1.0, 2.0];
        let b = [10.0, 20.0];
        let mut c = [0.0; 2];
        triad(&a, &b, &mut c, 3.0);
        assert_eq!(c, [13.0, 26.0]);
    }
}
