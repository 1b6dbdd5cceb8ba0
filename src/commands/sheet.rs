//! `rigcheck sheet`: a spec sheet (HTML or Markdown) of this machine or a saved report.

use std::io::IsTerminal;
use std::process::ExitCode;

use crate::cli::{GlobalArgs, SheetArgs};
use crate::error::Error;
use crate::io::write_output;
use crate::render::sheet::{self, SheetFormat, Verify};
use crate::{preflight, probe, profile, redact, verify};

/// Writes the sheet to `-o FILE`, or to stdout when it is not a terminal (or `--stdout`).
pub fn exec(args: &SheetArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    let format = super::pick_format("sheet", global, args.format, SheetFormat::Html)?;
    super::no_color("sheet", global)?;
    // clap sees the conflict only when both follow `sheet`; `--sysroot` before it too.
    if args.report.is_some() && global.sysroot.is_some() {
        return Err(Error::Usage(
            "--report: cannot be used with --sysroot; give only one of them".into(),
        ));
    }
    // Standard input can be read once: the second reader would find it empty (or, read
    // first, take the report as a profile).
    if args.report.as_deref() == Some(std::path::Path::new("-"))
        && args.profile.as_deref() == Some("-")
    {
        return Err(Error::Usage(
            "--report - and --profile -: both read standard input, which can be read once; \
             give one of them as a file"
                .into(),
        ));
    }
    // A sheet is a file to keep: 40 KB of HTML scrolling past is no use to anyone.
    if args.output.is_none() && !args.stdout && std::io::stdout().is_terminal() {
        return Err(Error::Usage(
            "sheet: not writing a spec sheet to the terminal; write it to a file with -o FILE, \
             or print it with --stdout"
                .into(),
        ));
    }
    let profile = args.profile.as_deref().map(profile::load).transpose()?;
    let mut spec = match &args.report {
        Some(path) => super::load_report(path)?,
        None => probe::inventory(&super::open_source(global.sysroot.as_deref())?),
    };
    // The order is checked before redaction: serials are never part of an order, but the
    // check must see the machine as it is.
    let checked = profile.map(|p| {
        let mut report = verify::verify(&spec, &p, false);
        if global.redact {
            redact::redact_verify(&mut report, &redact::secrets([&spec]));
        }
        Verify::from_report(&report)
    });
    if global.redact {
        redact::redact(&mut spec);
    }
    let mut buf = Vec::new();
    let attention = preflight::rules::attention(&spec);
    sheet::write(&spec, &attention, checked.as_ref(), format, &mut buf).map_err(Error::output)?;
    write_output(args.output.as_deref(), &buf, args.force)?;
    Ok(ExitCode::SUCCESS)
}
