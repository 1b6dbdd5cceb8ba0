//! Table renderer: sections as aligned text tables (tabled), titles bold when coloured.

use std::io::{self, Write};

use tabled::builder::Builder;
use tabled::settings::object::Segment;
use tabled::settings::{Modify, Style, Width};

/// Widest a table cell gets before its text wraps (keeps notes readable in 120 columns).
const MAX_CELL: usize = 64;

/// Widest a key/value field gets before it wraps.
const MAX_FIELD: usize = 96;

use crate::render::report::{Grid, Section};
use crate::render::style::bold;

/// Writes sections as text tables.
pub fn write(sections: &[Section], color: bool, out: &mut dyn Write) -> io::Result<()> {
    for (i, s) in sections.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        writeln!(out, "{}", bold(&s.title, color))?;
        if !s.fields.is_empty() {
            let mut b = Builder::default();
            for (k, v) in &s.fields {
                b.push_record([format!("  {k}"), v.clone()]);
            }
            let mut t = b.build();
            t.with(Style::blank());
            t.with(Modify::new(Segment::all()).with(Width::wrap(MAX_FIELD).keep_words(true)));
            writeln!(out, "{t}")?;
        }
        for g in &s.grids {
            writeln!(out, "{}", grid(g))?;
        }
    }
    Ok(())
}

/// One grid as a bordered table.
pub fn grid(g: &Grid) -> String {
    let mut b = Builder::default();
    b.push_record(g.header.clone());
    for r in &g.rows {
        b.push_record(r.clone());
    }
    let mut t = b.build();
    t.with(Style::sharp());
    t.with(Modify::new(Segment::all()).with(Width::wrap(MAX_CELL).keep_words(true)));
    t.to_string()
}
