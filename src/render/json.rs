//! JSON renderer: the contract of design.md, pretty-printed (or on one line with
//! `--compact`), one trailing newline. Every JSON document rigcheck writes goes through
//! `write_value`, so each command lays its JSON out alike.

use std::io::{self, Write};

use serde::Serialize;

use crate::spec::Spec;

/// How a JSON document is laid out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Layout {
    /// Indented, for people and diffs (the default).
    #[default]
    Pretty,
    /// One line, for a log, a queue or a query engine that reads a document per line
    /// (`--compact`; every line of `fleet --format ndjson`).
    Compact,
}

/// Writes `value` as JSON in `layout`, ending in a newline.
pub fn write_value<T: Serialize + ?Sized>(
    value: &T,
    layout: Layout,
    out: &mut dyn Write,
) -> io::Result<()> {
    match layout {
        Layout::Pretty => serde_json::to_writer_pretty(&mut *out, value)?,
        Layout::Compact => serde_json::to_writer(&mut *out, value)?,
    }
    writeln!(out)
}

/// Writes `spec` as pretty JSON.
pub fn write(spec: &Spec, out: &mut dyn Write) -> io::Result<()> {
    write_value(spec, Layout::Pretty, out)
}
