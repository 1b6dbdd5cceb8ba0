//! Memory benchmark: STREAM-style copy and triad bandwidth on one thread and on all threads,
//! next to the theoretical peak from the DIMMs' speed.
//!
//! Byte counts follow STREAM (McCalpin): copy moves 16 bytes per element (one read, one write),
//! triad 24 (two reads, one write); write-allocate traffic is not counted. The best repetition
//! is reported, as STREAM does. See <https://www.cs.virginia.edu/stream/ref.html>.

use std::hint::black_box;
use std::time::Duration;

pub use crate::spec::bench::{MemoryBench, StreamResult};

use super::clock::{shares, Clock, Monotonic};
use super::progress::Progress;
use crate::spec::{Dimm, Notes, Spec};

/// Elements per block: the loops read the clock after each 1 MiB of each array, so a kernel
/// stops within one block of its deadline however large the arrays are.
const BLOCK: usize = 1 << 17;

/// Sizes and durations of a memory run.
#[derive(Debug, Clone)]
pub struct MemoryParams {
    /// f64 elements per array (at most: the arrays are cut to what was touched in time).
    pub elements: usize,
    /// Thread counts to measure (1 and all).
    pub threads: Vec<u32>,
    /// The whole run: first touch, then each kernel × thread count.
    pub budget: Duration,
}

impl MemoryParams {
    /// Arrays of at least 4 × the last-level cache (STREAM's rule) and 64 MiB (1 GiB when the
    /// cache size is unknown), at most 1/16 of usable memory each; one and all `threads`.
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
        Self {
            elements: (bytes / 8) as usize,
            threads: t,
            budget,
        }
    }
}

/// One thread's piece of the three arrays.
type Segment<'a> = (&'a mut [f64], &'a mut [f64], &'a mut [f64]);

/// Runs copy and triad at each thread count within `params.budget`; adds the peak (or a note
/// why it is unknown).
pub fn run(
    params: &MemoryParams,
    spec: &Spec,
    progress: &Progress,
    notes: &mut Notes,
) -> MemoryBench {
    run_on(params, spec, progress, notes, &Monotonic)
}

/// As `run`, reading `clock`. The first quarter of the budget at most goes to the first touch
/// of the arrays (a page fault per page: slower than the kernels, and 3 GiB of it take seconds);
/// where it does not finish, the arrays are cut to what every thread touched, and
/// `array_bytes` says so. The rest is shared among the kernels: each repeats until its share
/// ends, reading the clock after every block, so the run ends within one block of the budget.
pub fn run_on(
    params: &MemoryParams,
    spec: &Spec,
    progress: &Progress,
    notes: &mut Notes,
    clock: &dyn Clock,
) -> MemoryBench {
    let start = clock.now();
    let end = start + params.budget;
    let n = params.elements.max(1);
    let max_threads = params.threads.iter().copied().max().unwrap_or(1).max(1) as usize;
    // Zeroed allocations are mapped lazily: no page is touched here.
    let mut a = vec![0f64; n];
    let mut b = vec![0f64; n];
    let mut c = vec![0f64; n];
    // One segment per thread of the widest run; each is first touched by the thread that
    // later uses it, so its pages sit on that thread's NUMA node.
    let chunk = n.div_ceil(max_threads).max(1);
    let touched = {
        let mut segs = segments(&mut a, &mut b, &mut c, chunk, chunk);
        let lens: Vec<usize> = segs.iter().map(|s| s.0.len()).collect();
        let done = blocks(
            &mut segs,
            max_threads,
            start + params.budget / 4,
            clock,
            &|a: &mut [f64], b: &mut [f64], c: &mut [f64]| {
                a.fill(1.0);
                b.fill(2.0);
                c.fill(0.0);
            },
        );
        if done == lens {
            chunk
        } else {
            done.into_iter().min().unwrap_or(0)
        }
    };
    let mut segs = segments(&mut a, &mut b, &mut c, chunk, touched);
    let used: usize = segs.iter().map(|s| s.0.len()).sum();
    let tests: Vec<(u32, &str)> = params
        .threads
        .iter()
        .flat_map(|&t| [(t, "copy"), (t, "triad")])
        .collect();
    let ends = shares(clock.now(), end, tests.len());
    let mut results = Vec::new();
    for (&(t, kernel), &deadline) in tests.iter().zip(&ends) {
        progress.step(format!("memory: {kernel}, {t} thread(s)"));
        let per_elem = if kernel == "copy" { 16.0 } else { 24.0 };
        let mut best_full = 0f64;
        let mut partial = 0f64;
        let mut reps = 0u32;
        loop {
            let t0 = clock.now();
            let done: usize = if kernel == "copy" {
                blocks(&mut segs, t as usize, deadline, clock, &|a, _, c| {
                    c.copy_from_slice(a)
                })
            } else {
                blocks(&mut segs, t as usize, deadline, clock, &|a, b, c| {
                    triad(a, b, c, 3.0)
                })
            }
            .iter()
            .sum();
            let now = clock.now();
            let rate = per_elem * done as f64 / now.duration_since(t0).as_secs_f64().max(1e-9);
            reps += 1;
            // STREAM's best repetition, of whole passes; a pass the deadline cut short counts
            // only when no whole pass was made.
            if done == used {
                best_full = best_full.max(rate);
            } else {
                partial = partial.max(rate);
            }
            if now >= deadline || done < used {
                break;
            }
        }
        black_box(&segs);
        results.push(StreamResult {
            kernel: kernel.into(),
            threads: t,
            bytes_per_s: if best_full > 0.0 { best_full } else { partial },
            repetitions: reps,
        });
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
            // The inventory's own reason the DIMMs are not listed (no tables in a VM, rights
            // on this OS), not a guess.
            let why = spec
                .notes
                .iter()
                .find(|n| n.field == "memory.dimms")
                .map_or(why, |n| format!("no DIMM list: {}", n.reason));
            notes.add("bench.memory.peak_bytes_per_s", why);
            (None, None)
        }
    };
    MemoryBench {
        array_bytes: 8 * used as u64,
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

/// The three arrays cut into segments of `chunk` elements, each shortened to its first `len`.
fn segments<'a>(
    a: &'a mut [f64],
    b: &'a mut [f64],
    c: &'a mut [f64],
    chunk: usize,
    len: usize,
) -> Vec<Segment<'a>> {
    a.chunks_mut(chunk)
        .zip(b.chunks_mut(chunk))
        .zip(c.chunks_mut(chunk))
        .map(|((a, b), c)| {
            let m = len.min(a.len());
            (&mut a[..m], &mut b[..m], &mut c[..m])
        })
        .collect()
}

/// Runs `f` over the segments block by block on `threads` scoped threads (the calling thread
/// when 1), each taking an equal run of segments, until done or until `clock` reads
/// `deadline` or later (checked after each block, so each thread does at least one). Returns
/// the elements done in each segment.
fn blocks<F>(
    segs: &mut [Segment<'_>],
    threads: usize,
    deadline: std::time::Instant,
    clock: &dyn Clock,
    f: &F,
) -> Vec<usize>
where
    F: Fn(&mut [f64], &mut [f64], &mut [f64]) + Sync,
{
    let work = |group: &mut [Segment<'_>]| -> Vec<usize> {
        let mut late = false;
        group
            .iter_mut()
            .map(|(a, b, c)| {
                let mut done = 0;
                while !late && done < a.len() {
                    let to = (done + BLOCK).min(a.len());
                    f(&mut a[done..to], &mut b[done..to], &mut c[done..to]);
                    done = to;
                    late = clock.now() >= deadline;
                }
                done
            })
            .collect()
    };
    if threads <= 1 || segs.len() <= 1 {
        return work(segs);
    }
    let per = segs.len().div_ceil(threads).max(1);
    std::thread::scope(|s| {
        let work = &work;
        let handles: Vec<_> = segs
            .chunks_mut(per)
            .map(|g| {
                let len = g.len();
                (len, s.spawn(move || work(g)))
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|(len, h)| h.join().unwrap_or_else(|_| vec![0; len]))
            .collect()
    })
}

/// Theoretical peak of the populated DIMMs: Σ speed × 8 bytes, one channel per DIMM.
/// Returns (bytes/s, channels, whether only rated speeds were known), or why it is unknown.
pub fn dimm_peak(dimms: &[Dimm]) -> Result<(u64, u32, bool), String> {
    if dimms.is_empty() {
        return Err("no DIMM list: the memory devices were not read".into());
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
    use std::sync::atomic::{AtomicU32, Ordering};
    use std::time::Instant;

    /// A clock that moves one millisecond at each reading: time passes only where a loop
    /// reads it, so how far past its budget a run reads is exact, whatever the machine's load.
    struct Steps {
        base: Instant,
        readings: AtomicU32,
    }

    impl Steps {
        fn new() -> Self {
            Self {
                base: Instant::now(),
                readings: AtomicU32::new(0),
            }
        }
        fn read(&self) -> u32 {
            self.readings.load(Ordering::SeqCst)
        }
    }

    impl Clock for Steps {
        fn now(&self) -> Instant {
            self.base
                + Duration::from_millis(u64::from(self.readings.fetch_add(1, Ordering::SeqCst)))
        }
    }

    fn params(blocks: usize, budget_ms: u64) -> MemoryParams {
        MemoryParams {
            elements: blocks * BLOCK,
            threads: vec![1, 2],
            budget: Duration::from_millis(budget_ms),
        }
    }

    #[test]
    fn first_touch_past_its_quarter_cuts_the_arrays_and_the_run_ends_with_the_budget() {
        let clock = Steps::new();
        // 64 blocks (64 MiB) per array on 2 threads, 40 ms: the touch gets 10 ms, one
        // reading a block, so it stops after about 10 of the 64 blocks.
        let m = run_on(
            &params(64, 40),
            &Spec::default(),
            &Progress::hidden(),
            &mut Notes::default(),
            &clock,
        );
        let per_segment = m.array_bytes / 2 / (8 * BLOCK as u64);
        assert!((1..=11).contains(&per_segment), "{} bytes", m.array_bytes);
        assert_eq!(m.results.len(), 4);
        assert!(m
            .results
            .iter()
            .all(|r| r.repetitions >= 1 && r.bytes_per_s > 0.0));
        // The last reading is within a few of the 40 ms: one late block per thread and
        // the pass's own two readings.
        assert!(clock.read() <= 40 + 6, "{} readings", clock.read());
    }

    #[test]
    fn arrays_touched_in_time_are_whole_and_each_kernel_repeats_within_its_share() {
        let clock = Steps::new();
        // 4 blocks per array and 400 ms: touch takes 2-4 readings; each of the four kernels
        // then has about 100 readings, several whole passes.
        let m = run_on(
            &params(4, 400),
            &Spec::default(),
            &Progress::hidden(),
            &mut Notes::default(),
            &clock,
        );
        assert_eq!(m.array_bytes, 4 * BLOCK as u64 * 8);
        assert!(
            m.results.iter().all(|r| r.repetitions > 5),
            "{:?}",
            m.results
        );
        assert!(clock.read() <= 400 + 6, "{} readings", clock.read());
    }

    #[test]
    fn the_peak_unknown_says_the_inventorys_reason_not_a_guess() {
        // A VM (or a Windows desk) without a DIMM list: its note says why, and no "root".
        let mut inventory = Notes::default();
        inventory.add(
            "memory.dimms",
            "no SMBIOS tables: /sys/firmware/dmi/tables/smbios_entry_point is not present",
        );
        let spec = Spec {
            notes: inventory.0,
            ..Spec::default()
        };
        let mut notes = Notes::default();
        run_on(
            &params(1, 20),
            &spec,
            &Progress::hidden(),
            &mut notes,
            &Steps::new(),
        );
        let why = notes
            .0
            .iter()
            .find(|n| n.field == "bench.memory.peak_bytes_per_s")
            .map(|n| n.reason.clone())
            .unwrap_or_default();
        assert_eq!(
            why,
            "no DIMM list: no SMBIOS tables: /sys/firmware/dmi/tables/smbios_entry_point is \
             not present"
        );
    }

    #[test]
    fn shares_end_at_fixed_points_and_the_last_at_the_end() {
        let t = Instant::now();
        let ends = shares(t, t + Duration::from_millis(900), 3);
        assert_eq!(
            ends,
            [300, 600, 900].map(|ms| t + Duration::from_millis(ms))
        );
        // Started late (past the end): every share ends at once.
        assert_eq!(
            shares(t + Duration::from_secs(1), t, 2),
            [t + Duration::from_secs(1); 2]
        );
    }

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
        assert!(dimm_peak(&[]).unwrap_err().starts_with("no DIMM list"));
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
