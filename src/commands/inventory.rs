//! `rigcheck` / `rigcheck inventory`: what is in this machine (or a sysroot), in one format.

use std::process::ExitCode;

use crate::cli::{GlobalArgs, InventoryArgs};
use crate::error::Error;
use crate::io::emit;
use crate::render::Format;
use crate::{probe, profile, redact, render, verify};

/// Runs the inventory; exit 0 unless the run cannot start.
pub fn exec(args: &InventoryArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    let src = super::open_source(global.sysroot.as_deref())?;
    let mut spec = probe::inventory(&src);
    let checked = match &args.profile {
        Some(p) => {
            let report = verify::verify(&spec, &profile::load(p)?, false);
            if !matches!(args.format, Format::Prometheus | Format::Nfd) {
                eprintln!(
                    "rigcheck: --profile only shows in prometheus and nfd output; \
                     `rigcheck verify --profile {p}` prints the check"
                );
            }
            Some(report)
        }
        None => None,
    };
    if args.redact {
        redact::redact(&mut spec);
    }
    let mut buf = Vec::new();
    render::inventory_checked(
        &spec,
        args.format,
        checked.as_ref(),
        super::use_color(global.color),
        &mut buf,
    )
    .map_err(Error::output)?;
    emit(&buf)?;
    Ok(ExitCode::SUCCESS)
}
