//! JSON renderer: the contract of design.md, pretty-printed, one trailing newline.

use std::io::{self, Write};

use crate::spec::Spec;

/// Writes `spec` as pretty JSON.
pub fn write(spec: &Spec, out: &mut dyn Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, spec)?;
    writeln!(out)
}
