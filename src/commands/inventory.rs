//! `rigcheck` / `rigcheck inventory`: what is in this machine (or a sysroot), in one format.

use std::process::ExitCode;

use crate::cli::{GlobalArgs, InventoryArgs};
use crate::error::Error;
use crate::io::emit_colored;
use crate::render::{Format, View};
use crate::{probe, profile, redact, render, verify};

/// Runs the inventory; exit 0 unless the run cannot start.
pub fn exec(args: &InventoryArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    if !args.section.is_empty() && !matches!(args.format, Format::Table | Format::Markdown) {
        eprintln!(
            "rigcheck: --section picks parts of the table and markdown reports, not of \
             --format {}; leave it out (or filter the JSON with jq)",
            format_name(args.format)
        );
        return Ok(ExitCode::from(2));
    }
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
    let view = View {
        term: super::term(global.color),
        parts: args.section.clone(),
        verbose: args.verbose,
    };
    let mut buf = Vec::new();
    render::inventory_checked(&spec, args.format, checked.as_ref(), view.clone(), &mut buf)
        .map_err(Error::output)?;
    emit_colored(&buf, view.term.color)?;
    Ok(ExitCode::SUCCESS)
}

fn format_name(f: Format) -> &'static str {
    match f {
        Format::Table => "table",
        Format::Json => "json",
        Format::Markdown => "markdown",
        Format::Prometheus => "prometheus",
        Format::Nfd => "nfd",
    }
}
