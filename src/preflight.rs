//! `rigcheck preflight`: is this machine ready to train right now?
//!
//! Reads the same `Spec` as the inventory (GPUs with their live state, drives, and the
//! process limits of `probe::limits`) and turns it into one line per check — pass, warn,
//! fail or skip — with the value found and a one-line fix. It decides; it does not read
//! the machine itself (the one exception, the filesystem of `--data`, goes through
//! `probe::limits::probe_path`, so a sysroot replays it too).
//!
//! Exit codes: 0 nothing failed (warnings allowed), 1 a check failed, 2 usage error.

pub mod gpu;
pub mod host;
pub mod output;

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::cli::{PreflightArgs, PreflightFormat};
use crate::source::Unknown;
use crate::spec::{Filesystem, Spec};
use crate::Error;

/// Outcome of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Holds.
    Pass,
    /// Not asked, or nothing to check here (no GPU, no cpufreq); counts as a pass.
    Skip,
    /// Will work, but slower or less safe than it should; exit code stays 0.
    Warn,
    /// The job will fail or crawl; exit code 1.
    Fail,
}

impl Status {
    /// The word printed for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Skip => "skip",
            Status::Warn => "warn",
            Status::Fail => "fail",
        }
    }
}

/// One line of the report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Check {
    /// Stable id scripts key on, e.g. `gpu.temperature`, `mem.shm`, `disk.free`.
    pub id: &'static str,
    /// What it is about when there are several (`GPU 1`); `None` for the machine.
    pub subject: Option<String>,
    pub status: Status,
    /// The value found, for people (`64 MiB`, `2 CPUs (cgroup cpu.max 200000/100000)`).
    pub found: String,
    /// What was wanted, when there is a threshold (`≥ 1 GiB`).
    pub expected: Option<String>,
    /// For warn/fail: the one-line fix. For pass/skip: why, when it is not obvious.
    pub advice: Option<String>,
}

impl Check {
    fn new(id: &'static str, status: Status, found: impl Into<String>) -> Self {
        Check {
            id,
            subject: None,
            status,
            found: found.into(),
            expected: None,
            advice: None,
        }
    }

    fn on(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(subject.into());
        self
    }

    fn expect(mut self, expected: impl Into<String>) -> Self {
        self.expected = Some(expected.into());
        self
    }

    fn advise(mut self, advice: impl Into<String>) -> Self {
        self.advice = Some(advice.into());
        self
    }
}

/// Thresholds and wishes, from the command line (and CUDA_VISIBLE_DEVICES).
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// GPUs wanted; `None` = 1 if any NVIDIA GPU is on PCI.
    pub gpus: Option<u32>,
    /// Free VRAM per GPU wanted.
    pub min_free_vram: Option<u64>,
    /// Highest temperature accepted, °C.
    pub max_gpu_temp: u32,
    pub min_driver: Option<String>,
    pub min_cuda: Option<String>,
    /// The `--data` path as given.
    pub data: Option<PathBuf>,
    pub min_free_disk: Option<u64>,
    /// Data-loader workers per GPU process.
    pub workers: Option<u32>,
    /// CUDA_VISIBLE_DEVICES of the caller (the job's choice of GPUs), if set.
    pub visible_devices: Option<String>,
}

impl Options {
    /// Options from the parsed command line and the caller's environment.
    pub fn from_args(args: &PreflightArgs) -> Self {
        Options {
            gpus: args.gpus,
            min_free_vram: args.min_free_vram,
            max_gpu_temp: args.max_gpu_temp,
            min_driver: args.min_driver.clone(),
            min_cuda: args.min_cuda.clone(),
            data: args.data.clone(),
            min_free_disk: args.min_free_disk,
            workers: args.workers,
            visible_devices: std::env::var("CUDA_VISIBLE_DEVICES").ok(),
        }
    }
}

/// The whole preflight answer.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    pub schema_version: u32,
    pub hostname: Option<String>,
    /// `live` or the sysroot replayed.
    pub source: String,
    /// Worst status over all checks.
    pub status: Status,
    /// 0 or 1, as the process exits.
    pub exit_code: u8,
    pub checks: Vec<Check>,
}

/// Runs `rigcheck preflight`; returns the exit code.
pub fn run(sysroot: Option<&Path>, args: &PreflightArgs, color: bool) -> Result<u8, Error> {
    let src = crate::open_source(sysroot)?;
    let spec = crate::probe::inventory(&src);
    let opts = Options::from_args(args);
    let data = opts
        .data
        .as_deref()
        .map(|p| crate::probe::limits::probe_path(&src, p));
    let report = evaluate(&spec, data, &opts);
    let mut buf = Vec::new();
    let written = match args.format {
        PreflightFormat::Table => output::table(&report, color, &mut buf),
        PreflightFormat::Json => output::json(&report, &mut buf),
    };
    written.map_err(|e| Error::Io {
        path: "<output>".into(),
        source: e,
    })?;
    crate::emit(&buf)?;
    Ok(report.exit_code)
}

/// All checks for `spec`; `data` is the filesystem of `--data` when it was given.
pub fn evaluate(spec: &Spec, data: Option<Result<Filesystem, Unknown>>, opts: &Options) -> Report {
    let visible = gpu::visible(&spec.gpus, opts.visible_devices.as_deref());
    let mut checks = gpu::checks(spec, &visible, opts);
    checks.extend(host::cpu_checks(spec, &visible, opts));
    checks.extend(host::memory_checks(spec));
    checks.extend(host::storage_checks(spec, data, opts));
    // Skips count as passes: the worst of the rest decides.
    let status = checks
        .iter()
        .map(|c| c.status)
        .filter(|s| *s != Status::Skip)
        .max()
        .unwrap_or(Status::Pass);
    Report {
        schema_version: crate::spec::SCHEMA_VERSION,
        hostname: spec.hostname.clone(),
        source: spec.source.clone(),
        status,
        exit_code: u8::from(status == Status::Fail),
        checks,
    }
}
