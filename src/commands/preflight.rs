//! `rigcheck preflight`: is this machine ready to train right now?

use std::process::ExitCode;

use crate::cli::{GlobalArgs, PreflightArgs};
use rigcheck::error::Error;
use rigcheck::preflight::{self, Options};
use rigcheck::render::preflight::PreflightFormat;
use rigcheck::{probe, redact, render};

/// The thresholds of the command line and the caller's CUDA_VISIBLE_DEVICES.
fn options(args: &PreflightArgs) -> Options {
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

/// Probes, checks and prints; exit 0 ready (warnings allowed), 1 a check failed, 3 a fact
/// could not be read and none failed.
pub fn exec(args: &PreflightArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    let format = super::pick_format("preflight", global, args.format, PreflightFormat::Table)?;
    let layout = super::json_layout("preflight", args.compact, format == PreflightFormat::Json)?;
    let src = super::open_source(global.sysroot.as_deref())?;
    if probe::backend::Backend::reads_os_answers(&src) {
        // Half the checks are a Linux training host's limits (cgroups, /dev/shm, open files,
        // huge pages); on Windows and macOS they would come out wrong, not unknown.
        return Err(Error::Usage(
            "preflight: not supported on Windows or macOS (its checks are a Linux training \
             host's: cgroups, /dev/shm, open-file limits); use `rigcheck verify` there"
                .into(),
        ));
    }
    let spec = probe::inventory(&src);
    let opts = options(args);
    // The filesystem of --data goes through the source too, so a sysroot replays it.
    let data = opts
        .data
        .as_deref()
        .map(|p| probe::limits::probe_path(&src, p));
    let mut report = preflight::evaluate(&spec, data, &opts);
    if global.redact {
        redact::redact_preflight(&mut report, &redact::secrets([&spec]));
    }
    let term = super::term(global.color);
    let mut buf = Vec::new();
    match format {
        PreflightFormat::Json => render::preflight::json(&report, layout, &mut buf),
        _ => render::preflight::write(&report, format, term, &mut buf),
    }
    .map_err(Error::output)?;
    super::pager::emit_paged(&buf, term.color, global.no_pager)?;
    Ok(ExitCode::from(report.exit_code))
}
