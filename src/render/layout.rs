//! The shape of human-format output, shared by every writer (table, Markdown, HTML): a
//! section is a title, key/value fields and grids; a grid is a header and rows, with
//! perhaps a status column and a note column.

use crate::render::style::Tone;

/// A titled block: key/value fields, then zero or more grids.
#[derive(Debug, Clone)]
pub struct Section {
    pub title: String,
    pub fields: Vec<(String, String)>,
    pub grids: Vec<Grid>,
}

/// A table with a header row.
#[derive(Debug, Clone)]
pub struct Grid {
    pub header: Vec<String>,
    pub rows: Vec<Vec<String>>,
    /// The column holding a status word, and each row's tone, for writers that style it.
    pub status: Option<StatusColumn>,
    /// The last column is a note on its row: text tables write it under the row, across the
    /// other columns but the first, so it can be read in full at any width.
    pub note_below: bool,
    /// No word of any column is broken while the window holds every column's longest word:
    /// a long word widens its column and the other columns wrap instead. Names of parts
    /// ("Xeon", "RTX", model numbers) are read as words.
    pub whole_words: bool,
}

/// Which column of a grid is a status, and how each row's status should look.
#[derive(Debug, Clone)]
pub struct StatusColumn {
    pub column: usize,
    /// One tone per row, in row order.
    pub tones: Vec<Tone>,
}

impl Section {
    /// A section with a title and nothing in it yet. The title is one line
    /// (`text::one_line`), whatever machine string it holds.
    pub fn new(title: impl Into<String>) -> Self {
        Section {
            title: crate::text::one_line(&title.into()).into_owned(),
            fields: Vec::new(),
            grids: Vec::new(),
        }
    }

    /// Adds a key/value field. A field is one fact on one line (`text::one_line`): a host
    /// name or DMI string with a line break must not start a line of its own.
    pub fn field(&mut self, k: &str, v: String) -> &mut Self {
        let v = match crate::text::one_line(&v) {
            std::borrow::Cow::Borrowed(_) => v,
            std::borrow::Cow::Owned(o) => o,
        };
        self.fields.push((k.to_string(), v));
        self
    }
}

impl Grid {
    /// A grid with the given header.
    pub fn new(header: &[&str]) -> Self {
        Grid {
            header: header.iter().map(|s| s.to_string()).collect(),
            rows: Vec::new(),
            status: None,
            note_below: false,
            whole_words: false,
        }
    }
}
