//! `rigcheck verify --profile ORDER`: one line per requirement of the order.

use std::process::ExitCode;

use crate::cli::{GlobalArgs, VerifyArgs};
use rigcheck::bench::{self, BenchKind, BenchReport};
use rigcheck::error::Error;
use rigcheck::profile::{MeasuredKey, Profile};
use rigcheck::render::verify::VerifyFormat;
use rigcheck::source::Source;
use rigcheck::verify::Unknowns;
use rigcheck::{measured, probe, profile, redact, render, verify};

/// The verify policy of `--strict` and `--allow-unknown` (clap keeps them apart).
pub fn unknowns(strict: bool, allow_unknown: bool) -> Unknowns {
    if strict {
        Unknowns::Fail
    } else if allow_unknown {
        Unknowns::Allow
    } else {
        Unknowns::Incomplete
    }
}

/// Checks the machine against the profile; exit 0 pass, 1 a line failed, 3 incomplete.
pub fn exec(args: &VerifyArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    let format = super::pick_format("verify", global, args.format, VerifyFormat::Table)?;
    let layout = super::json_layout("verify", args.compact, format == VerifyFormat::Json)?;
    let profile = profile::load(&args.profile)?;
    if args.measure.is_some() {
        super::no_sysroot(
            "verify --measure",
            global,
            "measures this machine and cannot run on a recording; run it on the machine itself",
        )?;
    }
    let spec = probe::inventory(&super::open_source(global.sysroot.as_deref())?);
    let measured = match args.measure.as_deref() {
        Some(what) => measure(&spec, &profile, what == "all", args)?,
        None => Vec::new(),
    };
    let mut report = verify::verify_measured(
        &spec,
        &profile,
        unknowns(args.strict, args.allow_unknown),
        measured,
    );
    if global.redact {
        redact::redact_verify(&mut report, &redact::secrets([&spec]));
    }
    let term = super::term(global.color);
    let mut buf = Vec::new();
    match format {
        VerifyFormat::Json => render::verify::json(&report, layout, &mut buf),
        _ => render::verify::write(&report, format, term, &mut buf),
    }
    .map_err(Error::output)?;
    super::pager::emit_paged(&buf, term.color, global.no_pager)?;
    Ok(ExitCode::from(report.exit_code()))
}

/// Runs the benchmarks `profile`'s `[measured]` asks for (every part with `all`), each within
/// `--seconds`, reading the GPUs' counters again after a GPU part, and judges them.
fn measure(
    spec: &rigcheck::spec::Spec,
    profile: &Profile,
    all: bool,
    args: &VerifyArgs,
) -> Result<Vec<verify::Line>, Error> {
    if !(args.seconds > 0.0 && args.seconds <= bench::MAX_SECONDS) {
        return Err(Error::Usage(format!(
            "--seconds '{}': not a number of seconds above 0 and at most {} (a day); give \
             one such as 10",
            args.seconds,
            bench::MAX_SECONDS
        )));
    }
    let asks = |k: MeasuredKey| profile.measured.iter().any(|b| b.key == k);
    if !all && profile.measured.is_empty() {
        return Err(Error::Usage(format!(
            "verify --measure: profile '{}' has no [measured] section; add one (e.g. \
             memory_bandwidth = {{ at_least = \"80%\" }}) or use --measure all",
            profile.name
        )));
    }
    let gpu = all
        || asks(MeasuredKey::GpuFp32)
        || asks(MeasuredKey::GpuFp16Tensor)
        || asks(MeasuredKey::GpuSoak);
    let parts = [
        (BenchKind::Cpu, all || asks(MeasuredKey::DataLoader)),
        (BenchKind::Memory, all || asks(MeasuredKey::MemoryBandwidth)),
        // Without --data nothing is written; an asked-for disk line says so.
        (
            BenchKind::Disk,
            asks(MeasuredKey::DiskRead) || (all && args.data.is_some()),
        ),
        // No GPU part on a machine with no GPU, unless the order asks for one.
        (
            BenchKind::Gpu,
            gpu && (!all || !spec.gpus.is_empty()) && cfg!(feature = "gpu-bench"),
        ),
    ];
    let mut report = BenchReport {
        seconds: args.seconds,
        ..BenchReport::default()
    };
    for (kind, wanted) in parts {
        if !wanted {
            continue;
        }
        let r = bench::run(spec, kind, args.seconds, args.data.as_deref());
        report.cpu = report.cpu.or(r.cpu);
        report.memory = report.memory.or(r.memory);
        report.disk = report.disk.or(r.disk);
        report.gpu = report.gpu.or(r.gpu);
        report.notes.extend(r.notes);
    }
    if gpu && !cfg!(feature = "gpu-bench") {
        report.notes.push(rigcheck::spec::Note {
            field: "bench.gpu".into(),
            reason: "this rigcheck was built without the GPU benchmark (feature gpu-bench)".into(),
        });
    }
    // The health counters again, now the parts have been loaded.
    let ran = report.cpu.is_some()
        || report.memory.is_some()
        || report.disk.is_some()
        || report.gpu.is_some();
    let after = ran.then(|| probe::inventory(&Source::live()));
    let run = measured::Run {
        before: spec,
        after: after.as_ref(),
        bench: &report,
    };
    Ok(measured::lines(&run, &profile.measured, all))
}
