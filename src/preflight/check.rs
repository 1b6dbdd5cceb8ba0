//! What a preflight says: the outcome of one check, the checks of a run, and the thresholds
//! they are judged against. Plain data; `gpu` and `host` fill it in.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Serialize;

pub use crate::rules::Status;

/// One line of the report.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Check {
    /// Stable id scripts key on, e.g. `gpu.temperature`, `mem.shm`, `disk.free`.
    pub id: &'static str,
    /// What it is about when there are several (`GPU 1`); `None` for the machine.
    pub subject: Option<String>,
    /// `None` for a fact not judged: nothing was asked (`--min-driver`, `--data`) or there is
    /// nothing to judge here (no ECC on the board, no cpufreq). Such a line is no verdict:
    /// it goes to `Report::not_checked`, never among the checks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Status>,
    /// The value found, for people (`64 MiB`, `2 CPUs (cgroup cpu.max 200000/100000)`).
    pub found: String,
    /// What was wanted, when there is a threshold (`≥ 1 GiB`).
    pub expected: Option<String>,
    /// For warn/fail/unknown: the one-line fix or how to read the fact. For pass: why, when
    /// it is not obvious. Not checked: why not, and how to ask for it.
    pub advice: Option<String>,
}

impl Check {
    pub(super) fn new(id: &'static str, status: Status, found: impl Into<String>) -> Self {
        Check {
            id,
            subject: None,
            status: Some(status),
            found: found.into(),
            expected: None,
            advice: None,
        }
    }

    /// A fact shown but not judged, with why not (and how to ask for it).
    pub(super) fn not_checked(
        id: &'static str,
        found: impl Into<String>,
        why: impl Into<String>,
    ) -> Self {
        Check {
            id,
            subject: None,
            status: None,
            found: found.into(),
            expected: None,
            advice: Some(why.into()),
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
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Report {
    pub schema_version: u32,
    pub hostname: Option<String>,
    /// `live` or the sysroot replayed.
    pub source: String,
    /// Worst status over all checks.
    pub status: Status,
    /// 0 pass (warnings allowed), 1 a check failed, 3 none failed but one is unknown.
    pub exit_code: u8,
    /// The judged checks, each with a status.
    pub checks: Vec<Check>,
    /// Facts shown without a verdict (no status): not asked, or nothing to judge here.
    pub not_checked: Vec<Check>,
    /// What would read the checks that are unknown for want of rights (`run as root to read
    /// them`), said once in the answer; absent when more rights would read none of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_complete: Option<String>,
}
