//! The spec sheet: what a person hands to a colleague or attaches to an asset record.
//!
//! It reads only the `Spec` (and an order check, if given); it never probes and never decides
//! pass/fail. One file per job: `sections` (the content shared by both formats), `order`
//! (the order-check rows), `topology` (what hangs off which socket, as the probes placed it),
//! `words` (the topology as text), `diagram` (the topology as SVG), and the two writers,
//! `markdown` and `html`.

pub mod diagram;
pub mod html;
pub mod markdown;
pub mod order;
pub mod sections;
pub mod topology;
pub mod words;

use std::io::{self, Write};

pub use order::{Verify, VerifyRow};
pub use sections::{byline, detail_sections, glance, heading, notes_section};
pub use topology::{topology, Device, DeviceKind, NodeTopo, Slot, SocketTopo, Topology};
pub use words::topology_lines;

use crate::rules::Finding;
use crate::spec::Spec;

/// Spec sheet formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SheetFormat {
    /// One self-contained HTML file (inline CSS and SVG), printable on A4 or Letter.
    Html,
    /// GitHub-flavoured Markdown.
    Markdown,
}

/// Writes the sheet of `spec` in `format`, with the facts that need a look (`attention`,
/// from `rules::attention`) and the order check, if given.
pub fn write(
    spec: &Spec,
    attention: &[Finding],
    verify: Option<&Verify>,
    format: SheetFormat,
    out: &mut dyn Write,
) -> io::Result<()> {
    match format {
        SheetFormat::Html => html::write(spec, attention, verify, out),
        SheetFormat::Markdown => markdown::write(spec, attention, verify, out),
    }
}
