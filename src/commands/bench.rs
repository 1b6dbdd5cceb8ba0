//! `rigcheck bench`: measure this machine next to what its parts should allow.

use std::process::ExitCode;

use crate::bench;
use crate::cli::{BenchArgs, GlobalArgs};
use crate::error::Error;
use crate::io::emit;
use crate::probe;
use crate::render::bench::{write_table, BenchFormat};
use crate::source::Source;

/// Runs the benchmarks asked for; refuses a sysroot (exit 2).
pub fn exec(args: &BenchArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    if global.sysroot.is_some() {
        eprintln!(
            "rigcheck: bench measures this machine and cannot run on a recorded --sysroot; \
             run it on the machine itself"
        );
        return Ok(ExitCode::from(2));
    }
    if !(args.seconds > 0.0 && args.seconds <= bench::MAX_SECONDS) {
        // 1e308 is shown as 1e308, not as its 309 digits.
        let given = if args.seconds.abs() >= 1e9 {
            format!("{:e}", args.seconds)
        } else {
            args.seconds.to_string()
        };
        eprintln!(
            "rigcheck: --seconds '{given}': give a number of seconds above 0 and at most {} \
             (a day)",
            bench::MAX_SECONDS
        );
        return Ok(ExitCode::from(2));
    }
    if args.which == bench::BenchKind::Disk && args.data.is_none() {
        eprintln!(
            "rigcheck: bench disk: give --data DIR (a temporary file of at most 1 GiB is \
             written there, read and deleted) or --data FILE (an existing file, only read)"
        );
        return Ok(ExitCode::from(2));
    }
    let mut spec = probe::inventory(&Source::live());
    let report = bench::run(&spec, args.which, args.seconds, args.data.as_deref());
    let mut buf = Vec::new();
    match args.format {
        BenchFormat::Table => write_table(&report, &mut buf).map_err(Error::output)?,
        BenchFormat::Json => {
            spec.bench = Some(report);
            crate::render::json::write(&spec, &mut buf).map_err(Error::output)?;
        }
    }
    emit(&buf)?;
    Ok(ExitCode::SUCCESS)
}
