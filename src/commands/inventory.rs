//! `rigcheck` / `rigcheck inventory`: what is in this machine (or a sysroot), in one format.

use std::process::ExitCode;

use crate::cli::{GlobalArgs, InventoryArgs};
use crate::error::Error;
use crate::io::{emit_colored, error_line};
use crate::render::{Format, View};
use crate::{preflight, probe, profile, redact, render, verify};

/// Runs the inventory; exit 0 unless the run cannot start.
pub fn exec(args: &InventoryArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    let format = super::pick_format("inventory", global, args.format, Format::Table)?;
    if !args.view.section.is_empty() && !matches!(format, Format::Table | Format::Markdown) {
        return Err(Error::Usage(format!(
            "--section: picks parts of the table and markdown reports, not of --format {}; \
             leave it out (or filter the JSON with jq)",
            super::value_name(&format)
        )));
    }
    let profile = args.profile.as_deref().map(profile::load).transpose()?;
    let src = super::open_source(global.sysroot.as_deref())?;
    let mut spec = probe::inventory(&src);
    let checked = match (&profile, &args.profile) {
        (Some(p), Some(name)) => {
            if !matches!(format, Format::Prometheus | Format::Nfd) {
                eprintln!(
                    "rigcheck: {}",
                    error_line(&format!(
                        "--profile: only prometheus and nfd output show it; \
                         `rigcheck verify --profile {name}` prints the check"
                    ))
                );
            }
            Some(verify::verify(&spec, p, false))
        }
        _ => None,
    };
    let checked = match (checked, global.redact) {
        (Some(mut r), true) => {
            redact::redact_verify(&mut r, &redact::secrets([&spec]));
            Some(r)
        }
        (r, _) => r,
    };
    if global.redact {
        redact::redact(&mut spec);
    }
    let view = View {
        term: super::term(global.color),
        parts: args.view.section.clone(),
        verbose: args.view.verbose,
    };
    let attention = preflight::rules::attention(&spec);
    let mut buf = Vec::new();
    render::inventory_report(
        &spec,
        &attention,
        format,
        checked.as_ref(),
        view.clone(),
        &mut buf,
    )
    .map_err(Error::output)?;
    emit_colored(&buf, view.term.color)?;
    Ok(ExitCode::SUCCESS)
}
