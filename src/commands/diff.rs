//! `rigcheck diff BEFORE AFTER`: what changed between two reports or sysroots.

use std::path::Path;
use std::process::ExitCode;

use crate::cli::{DiffArgs, GlobalArgs};
use rigcheck::diff;
use rigcheck::error::Error;
use rigcheck::render::diff::DiffFormat;
use rigcheck::{redact, render};

/// Compares the two reports; exit 1 when hardware changed, 3 when nothing changed that both
/// reports know but hardware facts are known in one only.
pub fn exec(args: &DiffArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    super::no_sysroot(
        "diff",
        global,
        "compares the two reports or sysroots given to it; name the sysroot as BEFORE or AFTER",
    )?;
    let format = super::pick_format("diff", global, args.format, DiffFormat::Table)?;
    let layout = super::json_layout("diff", args.compact, format == DiffFormat::Json)?;
    if args.before == Path::new("-") && args.after == Path::new("-") {
        return Err(Error::Usage(
            "diff: '-' given twice; standard input holds one report, give the other as a file"
                .into(),
        ));
    }
    let a = rigcheck::load_report(&args.before)?;
    let b = rigcheck::load_report(&args.after)?;
    let mut d = diff::diff(&a, &b);
    if global.redact {
        let secrets = redact::secrets([&a, &b]);
        redact::redact_changes(&mut d.changes, &secrets);
        redact::redact_changes(&mut d.unknown_on_one_side, &secrets);
    }
    let term = super::term(global.color);
    let mut buf = Vec::new();
    match format {
        DiffFormat::Json => render::diff::write_json(&d, layout, &mut buf),
        _ => render::diff::write(&d, format, term, &mut buf),
    }
    .map_err(Error::output)?;
    super::pager::emit_paged(&buf, term.color, global.no_pager)?;
    Ok(ExitCode::from(d.exit_code()))
}
