//! `rigcheck preflight`: is this machine ready to train right now?
//!
//! Reads the same `Spec` as the inventory (GPUs with their live state, drives, and the
//! process limits of `probe::limits`) and turns it into one line per check — pass, warn,
//! fail or unknown — with the value found and a one-line fix, then the facts shown but not
//! judged (nothing asked, or nothing to judge here). It decides; it never reads the
//! machine: the command layer probes (the filesystem of `--data` included) and hands the
//! facts over.
//!
//! Exit codes: 0 nothing failed (warnings allowed), 1 a check failed, 2 usage error, 3 none
//! failed but a fact could not be read (INCOMPLETE, as verify).

pub mod check;
pub mod gpu;
pub mod health;
pub mod host;

pub use check::{Check, Options, Report, Status};

use crate::outcome::{EXIT_FAIL, EXIT_INCOMPLETE, EXIT_PASS};
use crate::rules::privilege;
use crate::source::Unknown;
use crate::spec::{Filesystem, Spec};

/// All checks for `spec`; `data` is the filesystem of `--data` when it was given.
pub fn evaluate(spec: &Spec, data: Option<Result<Filesystem, Unknown>>, opts: &Options) -> Report {
    // The GPU checks are CUDA's (NVML, the NVIDIA driver): AMD and Intel GPUs, listed after
    // NVIDIA's, are no GPUs a CUDA job can use, so they are left out here (the NVIDIA GPUs
    // keep their indices).
    let cuda_only;
    let spec = if spec.gpus.iter().any(|g| !g.is_nvidia()) {
        let mut s = spec.clone();
        s.gpus.retain(|g| g.is_nvidia());
        cuda_only = s;
        &cuda_only
    } else {
        spec
    };
    let visible = gpu::visible(&spec.gpus, opts.visible_devices.as_deref());
    let mut checks = gpu::checks(spec, &visible, opts);
    checks.extend(host::cpu_checks(spec, &visible, opts));
    checks.extend(host::memory_checks(spec));
    checks.extend(host::storage_checks(spec, data, opts));
    checks.extend(health::checks(spec));
    // A fact not judged is no verdict: it is listed apart and leaves the outcome alone. An
    // unknown is never a pass: with nothing failed it makes the run incomplete.
    let (checks, not_checked): (Vec<Check>, Vec<Check>) =
        checks.into_iter().partition(|c| c.status.is_some());
    let status = checks
        .iter()
        .filter_map(|c| c.status)
        .max()
        .unwrap_or(Status::Pass);
    let unknown: Vec<&Check> = checks
        .iter()
        .filter(|c| c.status == Some(Status::Unknown))
        .collect();
    let rooted = unknown
        .iter()
        .filter(|c| c.advice.as_deref().is_some_and(privilege::needs_root))
        .count();
    let to_complete = privilege::to_complete(unknown.len(), rooted);
    Report {
        schema_version: crate::spec::SCHEMA_VERSION,
        hostname: spec.hostname.clone(),
        source: spec.source.clone(),
        status,
        exit_code: match status {
            Status::Fail => EXIT_FAIL,
            Status::Unknown => EXIT_INCOMPLETE,
            Status::Pass | Status::Warn => EXIT_PASS,
        },
        checks,
        not_checked,
        to_complete,
    }
}
