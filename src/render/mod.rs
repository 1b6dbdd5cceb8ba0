//! Renderers: turn a `Spec` into text. Nothing here reads the machine or decides pass/fail:
//! what the checks found (a verify report, the findings of `rules`) is handed in.
//!
//! Every fact a person reads is turned into a label and a cell in one place, `rows`; the
//! inventory report (`report`: table and Markdown) and the spec sheet (`sheet`: Markdown and
//! HTML) choose which rows each part shows, so a fact reads the same in all of them.

pub mod bench;
pub mod diff;
pub mod fleet;
pub mod glance;
pub mod gpu_figures;
pub mod json;
pub mod layout;
pub mod markdown;
pub mod nfd;
pub mod notes;
pub mod preflight;
pub mod prometheus;
pub mod report;
pub mod rows;
pub mod sheet;
pub mod style;
pub mod table;
pub mod unknown;
pub mod verdict;
pub mod verify;
pub mod view;

pub use view::{Part, Term, View};

use std::io::{self, Write};

use crate::rules::Finding;
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

/// Writes the inventory report of `spec` in `format`: the human formats as `view` says, with
/// the facts that need a look (`attention`, from `rules::attention`) under the
/// glance, and the result of a profile check where the format carries one (Prometheus: the
/// verify gauges; NFD: `verified=<profile>`).
pub fn inventory_report(
    spec: &Spec,
    attention: &[Finding],
    format: Format,
    verify: Option<&crate::verify::VerifyReport>,
    view: impl Into<View>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let view = view.into();
    let sections = || report::sections_for(spec, attention, &view.parts, view.verbose);
    match format {
        Format::Json => json::write(spec, out),
        Format::Table => table::write(&sections(), &view.term, out),
        Format::Markdown => markdown::write(&report::title(spec), &sections(), out),
        Format::Prometheus => prometheus::write_machine(spec, verify, None, out),
        Format::Nfd => nfd::write(spec, verify, out),
    }
}
