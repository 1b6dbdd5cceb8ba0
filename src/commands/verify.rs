//! `rigcheck verify --profile ORDER`: one line per requirement of the order.

use std::process::ExitCode;

use crate::cli::{GlobalArgs, VerifyArgs};
use crate::error::Error;
use crate::io::emit_colored;
use crate::{probe, profile, render, verify};

/// Checks the machine against the profile; exit 0 all pass, 1 a line failed.
pub fn exec(args: &VerifyArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    let profile = profile::load(&args.profile)?;
    let spec = probe::inventory(&super::open_source(global.sysroot.as_deref())?);
    let report = verify::verify(&spec, &profile, args.strict);
    let term = super::term(global.color);
    let mut buf = Vec::new();
    render::verify::write(&report, args.format, term, &mut buf).map_err(Error::output)?;
    emit_colored(&buf, term.color)?;
    Ok(ExitCode::from(report.exit_code()))
}
