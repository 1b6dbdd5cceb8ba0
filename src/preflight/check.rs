//! What a preflight says: the outcome of one check, the checks of a run, and the thresholds
//! they are judged against. Plain data; `gpu` and `host` fill it in.

use std::path::PathBuf;

use serde::Serialize;

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
    pub(super) fn new(id: &'static str, status: Status, found: impl Into<String>) -> Self {
        Check {
            id,
            subject: None,
            status,
            found: found.into(),
            expected: None,
            advice: None,
        }
    }

    pub(super) fn on(mut self, subject: impl Into<String>) -> Self {
        self.subject = Some(subject.into());
        self
    }

    pub(super) fn expect(mut self, expected: impl Into<String>) -> Self {
        self.expected = Some(expected.into());
        self
    }

    pub(super) fn advise(mut self, advice: impl Into<String>) -> Self {
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
