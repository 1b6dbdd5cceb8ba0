//! `rigcheck diff BEFORE AFTER`: what changed between two reports or sysroots.

use std::process::ExitCode;

use crate::cli::{DiffArgs, GlobalArgs};
use crate::diff;
use crate::error::Error;
use crate::io::emit_colored;
use crate::render;

/// Compares the two reports; exit 1 when hardware changed.
pub fn exec(args: &DiffArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    let a = super::load_report(&args.before)?;
    let b = super::load_report(&args.after)?;
    let changes = diff::diff(&a, &b);
    let term = super::term(global.color);
    let mut buf = Vec::new();
    render::diff::write(&changes, args.format, term, &mut buf).map_err(Error::output)?;
    emit_colored(&buf, term.color)?;
    Ok(ExitCode::from(u8::from(diff::has_hardware_changes(
        &changes,
    ))))
}
