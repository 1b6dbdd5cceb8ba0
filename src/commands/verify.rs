//! `rigcheck verify --profile ORDER`: one line per requirement of the order.

use std::process::ExitCode;

use crate::cli::{GlobalArgs, VerifyArgs};
use rigcheck::error::Error;
use rigcheck::render::verify::VerifyFormat;
use rigcheck::verify::Unknowns;
use rigcheck::{probe, profile, redact, render, verify};

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
    let spec = probe::inventory(&super::open_source(global.sysroot.as_deref())?);
    let mut report =
        verify::verify_with(&spec, &profile, unknowns(args.strict, args.allow_unknown));
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
