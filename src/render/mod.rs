//! Renderers: turn a `Spec` into text. Nothing here reads the machine or decides pass/fail.
//!
//! Table and Markdown share the section/row building in `report`, so both show the same
//! facts in the same order and show unknowns the same way.

pub mod bench;
pub mod diff;
pub mod fleet;
pub mod gpu_figures;
pub mod json;
pub mod markdown;
pub mod nfd;
pub mod preflight;
pub mod prometheus;
pub mod report;
pub mod sheet;
pub mod style;
pub mod table;
pub mod unknown;
pub mod verify;

use std::io::{self, Write};

use crate::spec::Spec;

/// Inventory report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Readable text table.
    Table,
    /// The JSON contract (schema_version, base units, notes).
    Json,
    /// GitHub-flavoured Markdown.
    Markdown,
    /// Prometheus text format, for node_exporter's textfile collector.
    Prometheus,
    /// Kubernetes node-feature-discovery feature file (name=value labels).
    Nfd,
}

/// Writes the inventory of `spec` in `format`.
pub fn inventory(spec: &Spec, format: Format, color: bool, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Json => json::write(spec, out),
        Format::Table => table::write(&report::sections(spec), color, out),
        Format::Markdown => markdown::write(&report::title(spec), &report::sections(spec), out),
        Format::Prometheus => prometheus::write_machine(spec, None, None, out),
        Format::Nfd => nfd::write(spec, None, out),
    }
}

/// Writes the inventory of `spec` in `format`, with the result of a profile check where the
/// format carries one (Prometheus: the verify gauges; NFD: `verified=<profile>`).
pub fn inventory_checked(
    spec: &Spec,
    format: Format,
    verify: Option<&crate::verify::VerifyReport>,
    color: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        Format::Prometheus => prometheus::write_machine(spec, verify, None, out),
        Format::Nfd => nfd::write(spec, verify, out),
        _ => inventory(spec, format, color, out),
    }
}
