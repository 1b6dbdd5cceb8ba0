//! Text tables for the terminal: sections as a title, key/value fields and grids, fitted to
//! the width of the window.
//!
//! Every grid has one look (column rules and a rule under the header, no outer box), so a
//! verify, preflight, fleet, diff and inventory table read alike and `awk -F'│'` can take
//! them apart. When the table is wider than the window, columns give up width in order of
//! priority: first a header wider than its column's cells wraps between its words (one line
//! for the whole table); then a column unknown in every row leaves the table for one line
//! under it; then the wide free-text columns wrap, widest first, down to their longest word;
//! only then do short columns (a size, a speed, `DDR4 DIMM`) wrap, between their words; a
//! status column never wraps, and words are broken only when nothing else fits. Widths are
//! measured without escape codes (textwrap's `display_width`), so colour never moves a border.
//! No line ends in spaces.

use std::io::{self, Write};

use crate::render::layout::{Grid, Section};
use crate::render::style::{bold, paint};
use crate::render::view::Term;

/// Left margin of key/value fields, under their section title.
const INDENT: usize = 2;

/// Space between a field's key and its value.
const GAP: usize = 2;

/// A word longer than this may be broken before a longer column gives up more width.
const MAX_FLOOR: usize = 20;

/// The column naming a row keeps up to this much width before the others are squeezed.
const MAX_KEY: usize = 24;

/// A column whose widest cell is at most this wide is short (`DDR4 DIMM`, `2933 MT/s`, a
/// PCI address): it keeps its width while a wider free-text column can still wrap.
const SHORT: usize = 12;

/// A column of quantities (every known cell starts with a digit: `1 TB (931.5 GiB)`,
/// `17 W of 260 W`) up to this wide is short too: a number and its unit read as one.
const SHORT_QUANTITY: usize = 20;

/// Writes sections as text: bold title, fields, then grids, a blank line between sections.
pub fn write(sections: &[Section], term: &Term, out: &mut dyn Write) -> io::Result<()> {
    for (i, s) in sections.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        write_section(s, term, out)?;
    }
    Ok(())
}

/// One section: its title, its fields and its grids.
pub fn write_section(s: &Section, term: &Term, out: &mut dyn Write) -> io::Result<()> {
    write!(out, "{}", line(&bold(&s.title, term.color), term))?;
    if !s.fields.is_empty() {
        write!(out, "{}", fields(&s.fields, term))?;
    }
    for (i, g) in s.grids.iter().enumerate() {
        if i > 0 {
            writeln!(out)?;
        }
        write!(out, "{}", grid(g, term))?;
    }
    Ok(())
}

/// The display width of `text`'s widest line, escape codes not counted.
pub fn width_of(text: &str) -> usize {
    text.lines()
        .map(textwrap::core::display_width)
        .max()
        .unwrap_or(0)
}

/// `text` wrapped to `width` columns at spaces (a word longer than the line is broken), each
/// line trimmed; explicit newlines are kept. No limit when `width` is `None`.
pub fn wrap(text: &str, width: Option<usize>) -> Vec<String> {
    let mut out = Vec::new();
    for para in text.split('\n') {
        match width {
            Some(w) if textwrap::core::display_width(para) > w => {
                let opts = textwrap::Options::new(w.max(1))
                    .break_words(true)
                    .word_separator(textwrap::WordSeparator::AsciiSpace)
                    .word_splitter(textwrap::WordSplitter::NoHyphenation)
                    .wrap_algorithm(textwrap::WrapAlgorithm::FirstFit);
                out.extend(
                    textwrap::wrap(para, opts)
                        .into_iter()
                        .map(|l| l.trim_end().to_string()),
                );
            }
            _ => out.push(para.trim_end().to_string()),
        }
    }
    out
}

/// A cell wrapped to `width`: an aside in brackets (`1 TB (931.5 GiB)`, `GPU 0 (0000:17:00.0)`)
/// starts a line of its own when the cell does not fit, rather than splitting inside it.
fn wrap_cell(text: &str, width: usize) -> Vec<String> {
    if textwrap::core::display_width(text) <= width {
        return vec![text.trim_end().to_string()];
    }
    match text.split_once(" (") {
        Some((head, aside)) if !head.is_empty() && !head.contains('\n') => {
            let mut lines = wrap(head, Some(width));
            lines.extend(wrap(&format!("({aside}"), Some(width)));
            lines
        }
        _ => wrap(text, Some(width)),
    }
}

/// A line of prose (a heading, a summary, a sentence), wrapped to the terminal, with its
/// newline. It is one line of text however it wraps: a line break inside it (a host or
/// profile name holding one) is replaced (`text::unbroken`), never a line of its own.
pub fn line(text: &str, term: &Term) -> String {
    let mut s = wrap(&crate::text::unbroken(text), term.width).join("\n");
    s.push('\n');
    s
}

/// Key/value fields, keys indented and aligned, values wrapped under themselves. A field
/// with an empty key continues the one above.
pub fn fields(fields: &[(String, String)], term: &Term) -> String {
    let natural = fields.iter().map(|(k, _)| width_of(k)).max().unwrap_or(0);
    // Keys take at most half the window, so a value always has room.
    let key_w = match term.width {
        Some(w) => natural.min((w / 2).saturating_sub(INDENT + GAP).max(8)),
        None => natural,
    };
    let value_w = term
        .width
        .map(|w| w.saturating_sub(INDENT + key_w + GAP).max(12));
    let mut out = String::new();
    for (k, v) in fields {
        let keys = wrap(k, Some(key_w));
        let values = wrap(v, value_w);
        for i in 0..keys.len().max(values.len()) {
            let key = keys.get(i).map_or("", String::as_str);
            let value = values.get(i).map_or("", String::as_str);
            let pad = key_w.saturating_sub(textwrap::core::display_width(key));
            let l = format!(
                "{}{key}{}{}{value}",
                " ".repeat(INDENT),
                " ".repeat(pad),
                " ".repeat(GAP)
            );
            out.push_str(l.trim_end());
            out.push('\n');
        }
    }
    out
}

/// Each column's width, fitted into `width` columns of terminal when given.
///
/// `natural` is the width each column needs; `limits` are the widths columns give way to, in
/// turn: while the table is too wide, the widest column above the first limit gives up a
/// column, then (every column at that limit) the widest above the next, and so on. A limit
/// of 1 breaks words. `per_column` is the width a column costs beyond its text (padding and
/// rule).
fn fit(
    natural: &[usize],
    limits: &[Vec<usize>],
    width: Option<usize>,
    per_column: usize,
) -> Vec<usize> {
    let mut widths = natural.to_vec();
    let Some(width) = width else {
        return widths;
    };
    let budget = width.saturating_sub(per_column * widths.len()) + 1;
    let mut total: usize = widths.iter().sum();
    // The loop runs at most once per column of excess width, over the columns: independent
    // of the number of rows.
    for limit in limits.iter().chain(std::iter::once(&vec![1; widths.len()])) {
        while total > budget {
            let pick = (0..widths.len())
                .filter(|&i| widths[i] > limit[i])
                .max_by_key(|&i| (widths[i], i));
            let Some(i) = pick else { break };
            widths[i] -= 1;
            total -= 1;
        }
    }
    widths
}

/// Whether `text` reads as unknown (`unknown`, or `unknown: why`).
fn is_unknown(text: &str) -> bool {
    text.strip_prefix(crate::render::unknown::UNKNOWN)
        .is_some_and(|rest| rest.is_empty() || rest.starts_with(':'))
}

/// `g` without the columns that are unknown in every row, when the table does not fit
/// `width` with them; and a line for each column taken out (`Serial: unknown in all 12
/// rows`), so the fact is still there, once instead of once a row. A status column, the
/// column naming the row and a note column stay.
/// `natural` is each column's width, header included (the note column left out).
fn without_unknown_columns(
    g: &Grid,
    natural: &[usize],
    width: Option<usize>,
) -> Option<(Grid, Vec<String>)> {
    let width = width?;
    let columns = natural.len();
    let status = g.status.as_ref().map(|s| s.column);
    let key = usize::from(status == Some(0));
    let need: usize = natural
        .iter()
        .map(|n| n + 3)
        .sum::<usize>()
        .saturating_sub(1);
    if need <= width || g.rows.len() < 2 {
        return None;
    }
    let drop: Vec<usize> = (0..columns)
        .filter(|&c| c != key && Some(c) != status)
        .filter(|&c| g.rows.iter().all(|r| is_unknown(&cell(r, c))))
        .collect();
    if drop.is_empty() {
        return None;
    }
    let keep = |r: &Vec<String>| -> Vec<String> {
        r.iter()
            .enumerate()
            .filter(|(c, _)| !drop.contains(c))
            .map(|(_, v)| v.clone())
            .collect()
    };
    let mut out = g.clone();
    out.header = keep(&g.header);
    out.rows = g.rows.iter().map(keep).collect();
    if let Some(s) = &mut out.status {
        s.column -= drop.iter().filter(|&&c| c < s.column).count();
    }
    let lines = drop
        .iter()
        .map(|&c| {
            // The reason, where every row gives the same one.
            let first = cell(&g.rows[0], c);
            let same = g.rows.iter().all(|r| cell(r, c) == first);
            let why = match first.split_once(':') {
                Some((_, why)) if same => format!(":{why}"),
                _ => String::new(),
            };
            format!(
                "{}: unknown in all {} rows{why}",
                cell(&g.header, c),
                g.rows.len()
            )
        })
        .collect();
    Some((out, lines))
}

/// One grid as a table fitted to the terminal: the header bold and the status column painted
/// when colour is on; a note column (`note_below`) written under its row, wrapped to the
/// window rather than to the table, so a note is as readable as a line of prose.
///
/// Written line by line: each cell is wrapped once and each output line is built once, so
/// the work is linear in the number of rows (a table of 20,000 checks takes as long per row
/// as one of 20).
pub fn grid(g: &Grid, term: &Term) -> String {
    let below = g.note_below && g.header.len() > 2;
    let columns = if below {
        g.header.len() - 1
    } else {
        g.header.len()
    };
    // What each column's cells need, measured once; with its header, the column's width.
    let body: Vec<usize> = (0..columns)
        .map(|c| {
            g.rows
                .iter()
                .map(|r| width_of(&cell(r, c)))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let natural: Vec<usize> = (0..columns)
        .map(|c| width_of(&cell(&g.header, c)).max(body[c]))
        .collect();
    if let Some((fitted, lines)) = without_unknown_columns(g, &natural, term.width) {
        let mut out = grid(&fitted, term);
        for l in lines {
            out.push_str(&wrap(&format!(" {l}"), term.width).join("\n"));
            out.push('\n');
        }
        return out;
    }
    let all = || std::iter::once(&g.header).chain(g.rows.iter());
    let status = g.status.as_ref().map(|s| s.column);
    // The column that names the row (host, slot, check) keeps more of its width.
    let key = usize::from(status == Some(0));
    let longest_word = |c: usize| {
        all()
            .map(|r| {
                cell(r, c)
                    .split_whitespace()
                    .map(textwrap::core::display_width)
                    .max()
                    .unwrap_or(0)
            })
            .max()
            .unwrap_or(0)
    };
    let floor: Vec<usize> = (0..columns)
        .map(|c| {
            // With whole words kept everywhere, a status wraps between its words as early as
            // any other column: none is spared while another is cut to its longest word.
            if Some(c) == status && !g.whole_words {
                return natural[c];
            }
            let longest_word = longest_word(c);
            // A host or slot name is never split: its column keeps its longest word.
            if c == key {
                return natural[c].min(MAX_KEY).max(longest_word);
            }
            let cap = if g.whole_words { usize::MAX } else { MAX_FLOOR };
            longest_word.min(cap).min(natural[c])
        })
        .collect();
    // A column costs its text, a space each side and a rule (the last has none, hence the
    // budget's + 1 in `fit`).
    // When every column is at its floor, a status still wraps between its words
    // ("incomplete (16 unknown)"), never inside one; a host name is never split.
    let words: Vec<usize> = (0..columns)
        .map(|c| match status {
            Some(s) if s == c => longest_word(c),
            _ if c == key || g.whole_words => floor[c],
            _ => 1,
        })
        .collect();
    // What each column's cells need, and its header's longest word: a header wider than its
    // cells wraps first, costing one line for the whole table rather than one a row.
    let content: Vec<usize> = (0..columns)
        .map(|c| {
            let head_word = cell(&g.header, c)
                .split_whitespace()
                .map(textwrap::core::display_width)
                .max()
                .unwrap_or(0);
            body[c].max(head_word).max(floor[c])
        })
        .collect();
    // Short columns keep their cells whole while a wide free-text column can still wrap.
    let short = |c: usize| {
        let b = body[c];
        let quantity = g.rows.iter().all(|r| {
            let t = cell(r, c);
            is_unknown(&t) || t == "-" || t.starts_with(|ch: char| ch.is_ascii_digit())
        });
        b <= SHORT || (quantity && b <= SHORT_QUANTITY)
    };
    // Free text wraps down to its longest word. A short column with an aside in brackets
    // (`1 TB (931.5 GiB)`) may put the aside under it as free text wraps, never less.
    let aside = |c: usize| {
        g.rows
            .iter()
            .map(|r| {
                let t = cell(r, c);
                match t.split_once(" (") {
                    Some((a, b)) => width_of(a).max(width_of(b) + 1),
                    None => width_of(&t),
                }
            })
            .max()
            .unwrap_or(0)
            .max(floor[c])
            .min(content[c])
    };
    let free_text: Vec<usize> = (0..columns)
        .map(|c| if short(c) { aside(c) } else { floor[c] })
        .collect();
    let widths = fit(&natural, &[content, free_text, floor, words], term.width, 3);
    // A note starts in the second column and runs to the edge of the window.
    let note_w = term.width.map(|w| {
        w.saturating_sub(widths[0] + 4)
            .max(widths[1..].iter().sum::<usize>())
    });

    let mut out = String::new();
    let header: Vec<Vec<String>> = (0..columns)
        .map(|c| {
            wrap(&cell(&g.header, c), Some(widths[c].max(1)))
                .into_iter()
                .map(|l| bold(&l, term.color))
                .collect()
        })
        .collect();
    push_row(&mut out, &header, &widths);
    let rule: Vec<String> = widths.iter().map(|w| "─".repeat(w + 2)).collect();
    out.push_str(&rule.join("┼"));
    out.push('\n');
    for (ri, r) in g.rows.iter().enumerate() {
        let cells: Vec<Vec<String>> = (0..columns)
            .map(|c| {
                let lines = wrap_cell(&cell(r, c), widths[c].max(1));
                match &g.status {
                    Some(s) if s.column == c => match s.tones.get(ri) {
                        Some(&t) => lines.iter().map(|l| paint(l, t, term.color)).collect(),
                        None => lines,
                    },
                    _ => lines,
                }
            })
            .collect();
        push_row(&mut out, &cells, &widths);
        let note = cell(r, columns);
        if below && !note.is_empty() {
            let lead = " ".repeat(widths[0] + 2);
            for l in wrap(&note, note_w) {
                out.push_str(&lead);
                out.push_str("│ ");
                out.push_str(&l);
                out.push('\n');
            }
        }
    }
    out
}

/// Writes one row of wrapped cells: each line of the row pads every cell to its column, a
/// space each side and a rule between columns, no trailing spaces.
fn push_row(out: &mut String, cells: &[Vec<String>], widths: &[usize]) {
    let height = cells.iter().map(Vec::len).max().unwrap_or(0).max(1);
    for k in 0..height {
        let start = out.len();
        for (c, lines) in cells.iter().enumerate() {
            if c > 0 {
                out.push('│');
            }
            let text = lines.get(k).map_or("", String::as_str);
            out.push(' ');
            out.push_str(text);
            let pad = widths[c].saturating_sub(textwrap::core::display_width(text));
            out.extend(std::iter::repeat_n(' ', pad + 1));
        }
        let end = out[start..].trim_end().len();
        out.truncate(start + end);
        out.push('\n');
    }
}

/// Column `c` of a row; empty past its end.
/// A cell's text, one line however it wraps (`text::unbroken`): a host name holding a line
/// break cannot draw a row of its own.
fn cell(r: &[String], c: usize) -> std::borrow::Cow<'_, str> {
    crate::text::unbroken(r.get(c).map_or("", String::as_str))
}

/// Every line of `text` without trailing spaces, each line ended by a newline.
pub fn tidy(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 1);
    for l in text.lines() {
        out.push_str(l.trim_end());
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::layout::StatusColumn;
    use crate::render::style::Tone;

    fn term(width: Option<usize>, color: bool) -> Term {
        Term { color, width }
    }

    fn sample() -> Grid {
        let mut g = Grid::new(&["Status", "Check", "Found"]);
        g.rows.push(vec![
            "fail".into(),
            "GPU count ('Quadro RTX 8000')".into(),
            "0; 2 other GPUs present: Quadro RTX 6000 in 0000:17:00.0 and 0000:af:00.0".into(),
        ]);
        g.rows
            .push(vec!["pass".into(), "CPU sockets".into(), "2".into()]);
        g.status = Some(StatusColumn {
            column: 0,
            tones: vec![Tone::Bad, Tone::Good],
        });
        g
    }

    #[test]
    fn grids_fit_the_width_and_keep_the_status_whole() {
        for w in [40, 60, 80] {
            let out = grid(&sample(), &term(Some(w), true));
            for l in out.lines() {
                assert!(width_of(l) <= w, "{w}: {l:?}");
                assert_eq!(l, l.trim_end());
            }
            // The status word is never wrapped.
            assert!(out.contains("\x1b[1m\x1b[31mfail\x1b[0m"), "{out}");
            // Every rule sits at the same column on every line.
            let plain = anstream::adapter::strip_str(&out).to_string();
            let rules = |l: &str| {
                l.chars()
                    .enumerate()
                    .filter(|(_, c)| matches!(c, '│' | '┼'))
                    .map(|(i, _)| i)
                    .collect::<Vec<_>>()
            };
            let first = rules(plain.lines().next().unwrap());
            for l in plain.lines() {
                assert_eq!(rules(l), first, "{w}:\n{plain}");
            }
        }
    }

    #[test]
    fn without_a_width_nothing_wraps() {
        let out = grid(&sample(), &term(None, false));
        assert_eq!(out.lines().count(), 4, "{out}");
        assert_eq!(
            out.lines().next().unwrap(),
            " Status │ Check                         │ Found"
        );
        assert!(out
            .lines()
            .nth(1)
            .unwrap()
            .starts_with("────────┼───────────────────────────────┼──────"));
    }

    #[test]
    fn fields_wrap_under_their_value() {
        let f = vec![
            (
                "Model".to_string(),
                "Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz".to_string(),
            ),
            (
                "Empty slots".to_string(),
                "CPU0-DIMM2, CPU0-DIMM4, CPU0-DIMM6".to_string(),
            ),
        ];
        let out = fields(&f, &term(Some(40), false));
        assert_eq!(
            out,
            "  Model        Intel(R) Xeon(R) Gold\n               6254 CPU @ 3.10GHz\n  \
             Empty slots  CPU0-DIMM2, CPU0-DIMM4,\n               CPU0-DIMM6\n"
        );
    }

    /// The reference Z8 G4's DIMM table (12 rows as its SMBIOS tables give them) and its
    /// drives, as the inventory lays them out.
    fn dimms() -> Grid {
        let mut g = Grid::new(&[
            "Slot",
            "Size",
            "Type",
            "Speed",
            "Manufacturer",
            "Part number",
            "Serial",
        ]);
        for cpu in 0..2 {
            for slot in [1, 3, 5, 8, 10, 12] {
                g.rows.push(
                    [
                        &format!("CPU{cpu}-DIMM{slot}"),
                        "8 GiB",
                        "DDR4 DIMM",
                        "2933 MT/s",
                        "Samsung",
                        "M393A1K43DB1-CVF",
                        "unknown",
                    ]
                    .map(String::from)
                    .to_vec(),
                );
            }
        }
        g
    }

    fn drives() -> Grid {
        let mut g = Grid::new(&[
            "Name",
            "Model",
            "Size",
            "Kind",
            "NUMA",
            "PCI address",
            "Serial",
        ]);
        for (n, pci, serial) in [
            ("nvme0n1", "0000:02:00.0", "HBSE19230100123"),
            ("nvme1n1", "0000:03:00.0", "HBSE19230100456"),
        ] {
            g.rows.push(
                [
                    n,
                    "HP SSD EX950 1TB",
                    "1 TB (931.5 GiB)",
                    "nvme",
                    "0",
                    pci,
                    serial,
                ]
                .map(String::from)
                .to_vec(),
            );
        }
        g
    }

    /// The cells of each line of a plain table below its rule.
    fn body(out: &str) -> Vec<Vec<String>> {
        out.lines()
            .skip(2)
            .take_while(|l| l.contains('│'))
            .map(|l| l.split('│').map(|c| c.trim().to_string()).collect())
            .collect()
    }

    #[test]
    fn short_columns_stay_whole_at_80_and_100_columns() {
        // Before, at 80 columns each DIMM took two lines ("DDR4 / DIMM", "2933 / MT/s"):
        // 26 lines with the header and rule.
        for w in [80, 100] {
            let out = grid(&dimms(), &term(Some(w), false));
            let rows = body(&out);
            assert_eq!(rows.len(), 12, "{w}:\n{out}");
            for r in &rows {
                assert_eq!(r[2..4], ["DDR4 DIMM", "2933 MT/s"], "{w}:\n{out}");
            }
            assert!(out.lines().all(|l| width_of(l) <= w), "{w}:\n{out}");
        }
        // At 80 the serial no DIMM gives is said once, under the table: 15 lines.
        let out = grid(&dimms(), &term(Some(80), false));
        assert_eq!(out.lines().count(), 15, "{out}");
        assert_eq!(out.lines().last(), Some(" Serial: unknown in all 12 rows"));
        // At 100 it fits as a column; in a pipe nothing changes.
        let out = grid(&dimms(), &term(Some(100), false));
        assert_eq!(out.lines().count(), 14, "{out}");
        assert!(out.lines().next().unwrap().ends_with("│ Serial"), "{out}");
        let out = grid(&dimms(), &term(None, false));
        assert_eq!(out.lines().count(), 14, "{out}");
    }

    #[test]
    fn a_size_wraps_at_its_aside_and_free_text_first() {
        // Before, at 80 columns the size took three lines ("1 TB", "(931.5", "GiB)").
        let out = grid(&drives(), &term(Some(80), false));
        let rows = body(&out);
        let sizes: Vec<&str> = rows.iter().map(|r| r[2].as_str()).collect();
        assert_eq!(
            sizes,
            ["1 TB", "(931.5 GiB)", "", "1 TB", "(931.5 GiB)", ""],
            "{out}"
        );
        // Whole words only: the model wraps between its words.
        for r in &rows {
            assert!(
                ["HP SSD", "EX950", "1TB", ""].contains(&r[1].as_str()),
                "{out}"
            );
        }
        assert!(out.lines().all(|l| width_of(l) <= 80), "{out}");
        // At 100 every drive is one line.
        let out = grid(&drives(), &term(Some(100), false));
        assert_eq!(out.lines().count(), 4, "{out}");
    }

    #[test]
    fn prose_wraps_at_spaces() {
        assert_eq!(
            wrap("verify z8-ref against hp-z8-g4-dual-rtx8000", Some(20)),
            ["verify z8-ref", "against", "hp-z8-g4-dual-rtx800", "0"]
        );
        assert_eq!(wrap("a  \nb", None), ["a", "b"]);
    }
}
