//! `rigcheck bench`: measures what this machine does (data-loader images per second, memory
//! bandwidth, disk read, GPU matmul and a thermal soak) next to what its parts should allow.
//!
//! Benchmarks are live only: a recorded sysroot has no CPU to run on. The measuring code sits in
//! one submodule per part, each taking its sizes as parameters so tests run them tiny; this file
//! holds the orchestration and the progress bar. The report model is `spec::bench`; its text
//! and chart are `render::bench`.

pub mod clock;
pub mod cpu;
pub mod disk;
pub mod gpu;
pub mod memory;
pub mod progress;
pub mod rng;

use std::path::Path;
use std::time::Duration;

use crate::spec::{Notes, Spec};

pub use crate::spec::bench::BenchReport;
pub use clock::{shares, Clock, Monotonic};
pub use progress::Progress;
pub use rng::SplitMix;

/// Which benchmarks `bench` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchKind {
    /// Data-loader augmentation pipeline on 1, 2, 4 … N threads.
    Cpu,
    /// STREAM copy and triad, one thread and all threads.
    Memory,
    /// Sequential read with direct I/O.
    Disk,
    /// FP32/FP16 matrix multiply and a thermal soak.
    Gpu,
    /// All of the above.
    All,
}
/// Longest time budget per benchmark, in seconds: a day. Past it a run is a mistake (and
/// `1e308` seconds is no duration at all).
pub const MAX_SECONDS: f64 = 86_400.0;

/// Runs the benchmarks `which` asks for, each within about `seconds` (at most
/// `MAX_SECONDS`), on the machine `spec` describes (it supplies the theoretical peaks).
/// `data` is where the disk benchmark reads; without it the disk part is skipped with a
/// note, since it would write a test file.
pub fn run(spec: &Spec, which: BenchKind, seconds: f64, data: Option<&Path>) -> BenchReport {
    // `Duration::from_secs_f64` panics past u64 seconds; the command refuses such values.
    let seconds = if seconds > 0.0 {
        seconds.min(MAX_SECONDS)
    } else {
        0.0
    };
    let all = which == BenchKind::All;
    let wants = |k: BenchKind| all || which == k;
    let planned = [
        BenchKind::Cpu,
        BenchKind::Memory,
        BenchKind::Disk,
        BenchKind::Gpu,
    ]
    .iter()
    .filter(|k| wants(**k))
    .count() as f64
        * seconds;
    let progress = Progress::new(planned);
    let mut notes = Notes::default();
    let budget = Duration::from_secs_f64(seconds);
    let mut report = BenchReport {
        seconds,
        ..BenchReport::default()
    };
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    if wants(BenchKind::Cpu) {
        let params = cpu::CpuParams::for_budget(threads, budget);
        // The GPUs preflight counts: those CUDA_VISIBLE_DEVICES lets through.
        let visible = std::env::var("CUDA_VISIBLE_DEVICES").ok();
        report.cpu = Some(cpu::run(&params, spec, visible.as_deref(), &progress));
        progress.advance(seconds);
    }
    if wants(BenchKind::Memory) {
        let params = memory::MemoryParams::for_machine(spec, threads, budget);
        report.memory = Some(memory::run(&params, spec, &progress, &mut notes));
        progress.advance(seconds);
    }
    if wants(BenchKind::Disk) {
        match data {
            Some(path) => {
                let params = disk::DiskParams::for_budget(budget);
                progress.step("disk: sequential read");
                let disk = disk::run(path, &params, spec, &mut notes);
                report.disk = notes.take("bench.disk", disk);
            }
            // Nothing is written where the user did not say: the current directory may be
            // a home on a network share, or a nearly full disk.
            None => notes.add(
                "bench.disk",
                "skipped: no --data given. Pass --data DIR on the drive the training data \
                 lives on (a temporary file of at most 1 GiB, and at most a tenth of the free \
                 space, is written there, read and deleted) or --data FILE (an existing \
                 file, only read)",
            ),
        }
        progress.advance(seconds);
    }
    if wants(BenchKind::Gpu) {
        progress.step("gpu: matmul and soak");
        report.gpu = gpu::run(spec, budget, &mut notes);
        progress.advance(seconds);
    }
    progress.finish();
    report.notes = notes.0;
    report
}
