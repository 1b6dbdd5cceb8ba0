//! `rigcheck preflight`: is this machine ready to train right now?
//!
//! Reads the same `Spec` as the inventory (GPUs with their live state, drives, and the
//! process limits of `probe::limits`) and turns it into one line per check — pass, warn,
//! fail or skip — with the value found and a one-line fix. It decides; it never reads the
//! machine: the command layer probes (the filesystem of `--data` included) and hands the
//! facts over.
//!
//! Exit codes: 0 nothing failed (warnings allowed), 1 a check failed, 2 usage error.

pub mod check;
pub mod gpu;
pub mod host;
pub mod rules;
pub mod workers;

pub use check::{Check, Options, Report, Status};

use crate::outcome::{EXIT_FAIL, EXIT_PASS};
use crate::source::Unknown;
use crate::spec::{Filesystem, Spec};

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
        exit_code: if status == Status::Fail {
            EXIT_FAIL
        } else {
            EXIT_PASS
        },
        checks,
    }
}
