//! `rigcheck bench`: measure this machine next to what its parts should allow.

use std::process::ExitCode;

use crate::cli::{BenchArgs, GlobalArgs};
use rigcheck::bench::{self, BenchKind};
use rigcheck::error::Error;
use rigcheck::io::{emit, error_line};
use rigcheck::outcome::EXIT_INCOMPLETE;
use rigcheck::render::bench::{write_table, BenchFormat};
use rigcheck::source::Source;
use rigcheck::{probe, redact};

/// Runs the benchmarks asked for; refuses a sysroot (exit 2); exit 3 when the one benchmark
/// asked for by name measured nothing.
pub fn exec(args: &BenchArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    super::no_sysroot(
        "bench",
        global,
        "measures this machine and cannot run on a recording; run it on the machine itself",
    )?;
    let format = super::pick_format("bench", global, args.format, BenchFormat::Table)?;
    super::no_color("bench", global)?;
    let layout = super::json_layout("bench", args.compact, format == BenchFormat::Json)?;
    if !(args.seconds > 0.0 && args.seconds <= bench::MAX_SECONDS) {
        // 1e308 is shown as 1e308, not as its 309 digits.
        let given = if args.seconds.abs() >= 1e9 {
            format!("{:e}", args.seconds)
        } else {
            args.seconds.to_string()
        };
        return Err(Error::Usage(format!(
            "--seconds '{given}': not a number of seconds above 0 and at most {} (a day); \
             give one such as 10",
            bench::MAX_SECONDS
        )));
    }
    let which = BenchKind::from(args.which);
    if which == BenchKind::Gpu && !cfg!(feature = "gpu-bench") {
        return Err(Error::Usage(
            "bench gpu: this rigcheck was built without the GPU benchmark; rebuild it with \
             `cargo build --release --features gpu-bench`"
                .into(),
        ));
    }
    if which == BenchKind::Disk && args.data.is_none() {
        return Err(Error::Usage(
            "bench disk: no --data; give --data DIR (a temporary file of at most 1 GiB is \
             written there, read and deleted) or --data FILE (an existing file, only read)"
                .into(),
        ));
    }
    let mut spec = probe::inventory(&Source::live());
    let report = bench::run(&spec, which, args.seconds, args.data.as_deref());
    // A GPU section whose every multiply failed (out of memory, a kernel error, a wrong
    // product) measured no more than a missing one.
    let gpu_measured = |g: &bench::gpu::GpuBench| {
        g.all_fp32_tflops.is_some()
            || g.all_fp16_tflops.is_some()
            || g.per_gpu
                .iter()
                .any(|m| m.fp32_tflops.is_some() || m.fp16_tflops.is_some())
    };
    let nothing = match which {
        BenchKind::Disk => report.disk.is_none().then_some("bench.disk"),
        BenchKind::Gpu => (!report.gpu.as_ref().is_some_and(gpu_measured)).then_some("bench.gpu"),
        _ => None,
    };
    let mut buf = Vec::new();
    match format {
        BenchFormat::Table => {
            write_table(&report, super::out_width(), &mut buf).map_err(Error::output)?;
            if global.redact {
                let text = String::from_utf8_lossy(&buf).into_owned();
                buf = redact::scrub_text(&text, &redact::secrets([&spec])).into_bytes();
            }
        }
        BenchFormat::Json => {
            spec.bench = Some(report.clone());
            if global.redact {
                redact::redact(&mut spec);
            }
            rigcheck::render::json::write_value(&spec, layout, &mut buf).map_err(Error::output)?;
        }
    }
    emit(&buf)?;
    if let Some(field) = nothing {
        let why = report
            .notes
            .iter()
            .find(|n| n.field == field)
            .or_else(|| {
                let under = format!("{field}.");
                report.notes.iter().find(|n| n.field.starts_with(&under))
            })
            .map_or("no result", |n| n.reason.as_str());
        // The reason as the note gives it, without the OS's "(os error N)".
        let why = why.split(" (os error ").next().unwrap_or(why);
        eprintln!(
            "rigcheck: {}",
            error_line(&format!(
                "{field}: measured nothing: {why}; see the report's notes"
            ))
        );
        return Ok(ExitCode::from(EXIT_INCOMPLETE));
    }
    Ok(ExitCode::SUCCESS)
}
