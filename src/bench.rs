//! `rigcheck bench`: measures what this machine does (data-loader images per second, memory
//! bandwidth, disk read, GPU matmul and a thermal soak) next to what its parts should allow.
//!
//! Benchmarks are live only: a recorded sysroot has no CPU to run on. The measuring code sits in
//! one submodule per part, each taking its sizes as parameters so tests run them tiny; this file
//! holds the report model, the orchestration, the progress bar and the text output.

pub mod chart;
pub mod cpu;
pub mod disk;
pub mod gpu;
pub mod memory;

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::cli::{BenchArgs, BenchFormat, BenchKind};
use crate::source::Source;
use crate::spec::{Note, Notes, Spec};

pub use chart::chart_svg;

/// Everything one `rigcheck bench` run measured; `None` for parts not asked for or not
/// measurable, with a note saying which.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct BenchReport {
    /// Time budget given per benchmark (`--seconds`).
    pub seconds: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpu: Option<cpu::CpuBench>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory: Option<memory::MemoryBench>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk: Option<disk::DiskBench>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu: Option<gpu::GpuBench>,
    /// How figures were obtained, and why a part or a peak is missing (`bench.disk.peak...`).
    pub notes: Vec<Note>,
}

/// Progress on stderr while benchmarks run; hidden when stderr is not a terminal.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    /// A bar over `total` seconds of planned work, shown only on a terminal.
    pub fn new(total: f64) -> Self {
        if !io::stderr().is_terminal() {
            return Self::hidden();
        }
        let bar = indicatif::ProgressBar::new((total * 1000.0).max(1.0) as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{spinner} {msg:28} [{bar:30}] {elapsed}/{duration}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.enable_steady_tick(Duration::from_millis(200));
        Self { bar: Some(bar) }
    }

    /// No bar at all (tests, pipes).
    pub fn hidden() -> Self {
        Self { bar: None }
    }

    /// Names the step now running.
    pub fn step(&self, msg: impl Into<String>) {
        if let Some(b) = &self.bar {
            b.set_message(msg.into());
        }
    }

    /// Counts `seconds` of planned work as done.
    pub fn advance(&self, seconds: f64) {
        if let Some(b) = &self.bar {
            b.inc((seconds * 1000.0) as u64);
        }
    }

    fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}

/// `rigcheck bench`: refuses a sysroot (exit 2), else runs, prints and returns 0.
pub fn run_command(sysroot: Option<&Path>, args: &BenchArgs) -> Result<u8, crate::Error> {
    if sysroot.is_some() {
        eprintln!(
            "rigcheck: bench measures this machine and cannot run on a recorded --sysroot; \
             run it on the machine itself"
        );
        return Ok(2);
    }
    if !(args.seconds.is_finite() && args.seconds > 0.0) {
        eprintln!(
            "rigcheck: --seconds '{}': give a positive number",
            args.seconds
        );
        return Ok(2);
    }
    let src = Source::live();
    let mut spec = crate::probe::inventory(&src);
    let data = args.data.clone();
    let report = run(&spec, args.which, args.seconds, data.as_deref());
    let mut buf = Vec::new();
    let written = match args.format {
        BenchFormat::Table => write_table(&report, &mut buf),
        BenchFormat::Json => {
            spec.bench = Some(report);
            serde_json::to_writer_pretty(&mut buf, &spec)
                .map_err(io::Error::other)
                .and_then(|_| buf.write_all(b"\n"))
        }
    };
    written.map_err(|e| crate::Error::Io {
        path: "<output>".into(),
        source: e,
    })?;
    let mut out = io::stdout().lock();
    match out.write_all(&buf).and_then(|_| out.flush()) {
        Ok(()) => Ok(0),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(0),
        Err(e) => Err(crate::Error::Io {
            path: "<stdout>".into(),
            source: e,
        }),
    }
}

/// Runs the benchmarks `which` asks for, each within about `seconds`, on the machine `spec`
/// describes (it supplies the theoretical peaks). `data` is where the disk benchmark reads.
pub fn run(spec: &Spec, which: BenchKind, seconds: f64, data: Option<&Path>) -> BenchReport {
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
        report.cpu = Some(cpu::run(&params, spec.gpus.len(), &progress));
        progress.advance(seconds);
    }
    if wants(BenchKind::Memory) {
        let params = memory::MemoryParams::for_machine(spec, threads, budget);
        report.memory = Some(memory::run(&params, spec, &progress, &mut notes));
        progress.advance(seconds);
    }
    if wants(BenchKind::Disk) {
        let (path, default) = match data {
            Some(p) => (p.to_path_buf(), false),
            None => (PathBuf::from("."), true),
        };
        if default {
            notes.add(
                "bench.disk",
                "no --data given: measured the file system of the current directory; \
                 pass --data PATH where the training data lives",
            );
        }
        let params = disk::DiskParams::for_budget(budget);
        progress.step("disk: sequential read");
        let disk = disk::run(&path, &params, spec, &mut notes);
        report.disk = notes.take("bench.disk", disk);
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

/// Human table of a report, one block per part, measured next to theoretical.
pub fn write_table(r: &BenchReport, out: &mut dyn Write) -> io::Result<()> {
    let opt = |v: Option<f64>, unit: &str| v.map_or("unknown".to_string(), |v| fmt_rate(v, unit));
    if let Some(c) = &r.cpu {
        writeln!(
            out,
            "CPU: decode {}x{} JPEG, random resized crop to {}x{}, flip, normalise to f32",
            c.image_width, c.image_height, c.crop_size, c.crop_size
        )?;
        writeln!(
            out,
            "  {:>7}  {:>12}  {:>8}",
            "threads", "images/s", "scaling"
        )?;
        for p in &c.points {
            writeln!(
                out,
                "  {:>7}  {:>12.1}  {:>7.2}x",
                p.threads, p.images_per_s, p.scaling
            )?;
        }
        let gpus = match c.gpus {
            0 => "no GPU found, counted as one".to_string(),
            n => format!("{n} GPU(s)"),
        };
        writeln!(
            out,
            "  suggested data-loader workers per GPU: {} ({gpus})",
            c.suggested_workers_per_gpu
        )?;
    }
    if let Some(m) = &r.memory {
        writeln!(
            out,
            "Memory: STREAM copy and triad, {} per array",
            crate::render::bytes_bin(m.array_bytes)
        )?;
        for t in &m.results {
            writeln!(
                out,
                "  {:<6} {:>3} thread(s)  {:>12}",
                t.kernel,
                t.threads,
                fmt_rate(t.bytes_per_s, "B/s")
            )?;
        }
        writeln!(
            out,
            "  theoretical peak: {}",
            opt(m.peak_bytes_per_s.map(|v| v as f64), "B/s")
        )?;
    }
    if let Some(d) = &r.disk {
        writeln!(out, "Disk: sequential read of {}", d.path)?;
        writeln!(
            out,
            "  {} read in {:.2} s: {} ({})",
            crate::render::bytes_dec(d.bytes_read),
            d.seconds,
            fmt_rate(d.bytes_per_s, "B/s"),
            if d.direct_io {
                "direct I/O"
            } else {
                "buffered"
            }
        )?;
        let drive = d.drive.as_deref().unwrap_or("unknown drive");
        writeln!(
            out,
            "  link allows: {} ({drive}, {})",
            opt(d.link_bytes_per_s.map(|v| v as f64), "B/s"),
            d.link.as_deref().unwrap_or("link unknown")
        )?;
    }
    if let Some(g) = &r.gpu {
        gpu::write_table(g, out)?;
    }
    for n in &r.notes {
        writeln!(out, "note: {}: {}", n.field, n.reason)?;
    }
    Ok(())
}

/// `12.3 GB/s`, `850.0 MB/s`: decimal prefixes, as drive and memory vendors quote rates.
pub fn fmt_rate(v: f64, unit: &str) -> String {
    const P: [&str; 5] = ["", "k", "M", "G", "T"];
    let mut v = v;
    let mut i = 0;
    while v >= 1000.0 && i + 1 < P.len() {
        v /= 1000.0;
        i += 1;
    }
    format!("{v:.1} {}{unit}", P[i])
}

/// Small deterministic generator (SplitMix64): benchmarks need cheap, reproducible randomness,
/// not a cryptographic source.
#[derive(Debug, Clone)]
pub struct SplitMix(u64);

impl SplitMix {
    /// Seeded generator.
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn next_f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_use_decimal_prefixes() {
        assert_eq!(fmt_rate(12_345_678_901.0, "B/s"), "12.3 GB/s");
        assert_eq!(fmt_rate(850_000_000.0, "B/s"), "850.0 MB/s");
        assert_eq!(fmt_rate(12.0, "B/s"), "12.0 B/s");
    }

    #[test]
    fn splitmix_is_uniform_enough() {
        let mut r = SplitMix::new(7);
        let mean = (0..10_000).map(|_| r.next_f64()).sum::<f64>() / 10_000.0;
        assert!((mean - 0.5).abs() < 0.02, "mean {mean}");
    }
}
