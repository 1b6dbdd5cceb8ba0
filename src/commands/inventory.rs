//! `rigcheck` / `rigcheck inventory`: what is in this machine (or a sysroot), in one format.

use std::process::ExitCode;

use crate::cli::{GlobalArgs, InventoryArgs};
use rigcheck::error::Error;
use rigcheck::render::{Format, View};
use rigcheck::{probe, profile, redact, render, verify};

/// Runs the inventory; exit 0 unless the run cannot start.
pub fn exec(args: &InventoryArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    let format = super::pick_format("inventory", global, args.format, Format::Table)?;
    if !args.view.section.is_empty() && !matches!(format, Format::Table | Format::Markdown) {
        return Err(Error::Usage(format!(
            "--section: picks parts of the table and markdown reports, not of --format {}; \
             leave it out (or filter the JSON with jq)",
            super::value_name(&crate::cli::Format::from(format))
        )));
    }
    // Only the prometheus and nfd formats carry a check's result; any other format would
    // print no trace of it, so a profile given there is refused rather than ignored.
    if let Some(name) = &args.profile {
        if !matches!(format, Format::Prometheus | Format::Nfd) {
            return Err(Error::Usage(format!(
                "--profile: the inventory shows a profile check only with --format prometheus \
                 or nfd; `rigcheck verify --profile {name}` prints the check"
            )));
        }
    }
    let layout = super::json_layout("the inventory", args.view.compact, format == Format::Json)?;
    let profile = args.profile.as_deref().map(profile::load).transpose()?;
    let src = super::open_source(global.sysroot.as_deref())?;
    let mut spec = probe::inventory(&src);
    let checked = profile.as_ref().map(|p| verify::verify(&spec, p, false));
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
        parts: args.view.section.iter().map(|&p| p.into()).collect(),
        verbose: args.view.verbose,
    };
    let attention = rigcheck::rules::attention(&spec);
    let mut buf = Vec::new();
    match format {
        Format::Json => render::json::write_value(&spec, layout, &mut buf),
        _ => render::inventory_report(
            &spec,
            &attention,
            format,
            checked.as_ref(),
            view.clone(),
            &mut buf,
        ),
    }
    .map_err(Error::output)?;
    super::pager::emit_paged(&buf, view.term.color, global.no_pager)?;
    Ok(ExitCode::SUCCESS)
}
