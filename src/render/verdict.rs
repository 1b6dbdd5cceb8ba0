//! The one vocabulary of results, shared by verify, preflight, fleet, diff and the sheet: the
//! column names of a check table, the order its rows are read in, and the summary line that
//! closes every report.
//!
//! A summary line has one shape everywhere: the verdict in capitals, a colon, the counts
//! (`6 fail, 0 unknown, 16 pass`), then what was checked, each part after a ` · `:
//!
//! ```text
//! FAIL: 6 fail, 0 unknown, 16 pass · 22 checks of hp-z8-g4-dual-rtx8000
//! PASS: 0 fail, 4 warn, 0 unknown, 21 pass · 21 checks, 6 not checked · ready to train
//! FAIL: 4 fail, 1 pass · 5 hosts against hp-z8-g4-dual-rtx6000 · 5 configurations
//! FAIL: 24 hardware changes, 2 software changes
//! INCOMPLETE: 0 fail, 2 unknown, 20 pass · 22 checks of hp-z8-g4-dual-rtx6000
//! ```
//!
//! The verdict is what the exit code says, so a script and a person read the same thing.

use crate::render::style::{paint, Tone};

/// Column names of a check table (verify, preflight, the sheet's order check).
pub const STATUS: &str = "Status";
/// What is checked: a requirement of the order, or a preflight check.
pub const CHECK: &str = "Check";
/// What the order or the threshold asks for.
pub const EXPECTED: &str = "Expected";
/// What the machine has.
pub const FOUND: &str = "Found";
/// Why, or what to do about it.
pub const NOTE: &str = "Note";

/// The outcome of a whole run, as its summary line opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Everything asked for holds (exit 0).
    Pass,
    /// Something failed (exit 1).
    Fail,
    /// Nothing failed, but a fact asked for could not be read (exit 3): the run is neither
    /// a pass nor a failure. The facts themselves are counted as `unknown`.
    Incomplete,
}

impl Verdict {
    /// The word that opens the summary line.
    pub fn word(self) -> &'static str {
        match self {
            Verdict::Pass => "PASS",
            Verdict::Fail => "FAIL",
            Verdict::Incomplete => "INCOMPLETE",
        }
    }

    /// How the verdict is painted.
    pub fn tone(self) -> Tone {
        match self {
            Verdict::Pass => Tone::Good,
            Verdict::Fail => Tone::Bad,
            Verdict::Incomplete => Tone::Warn,
        }
    }
}

/// `1 host`, `5 hosts`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The summary line of a report: a verdict, counts, and what was checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// What the exit code says.
    pub verdict: Verdict,
    /// `6 fail`, `2 hardware changes`, in the order they are read.
    pub counts: Vec<String>,
    /// What was checked, each part after a ` · `.
    pub scope: Vec<String>,
}

impl Summary {
    /// A summary with a verdict and no counts yet.
    pub fn new(verdict: Verdict) -> Self {
        Summary {
            verdict,
            counts: Vec::new(),
            scope: Vec::new(),
        }
    }

    /// Adds `n word` (status words are the same in the singular and the plural).
    pub fn count(mut self, n: usize, word: &str) -> Self {
        self.counts.push(format!("{n} {word}"));
        self
    }

    /// Adds `1 host` or `5 hosts`.
    pub fn counted(mut self, n: usize, one: &str, many: &str) -> Self {
        self.counts.push(plural(n, one, many));
        self
    }

    /// Adds a part of what was checked, on the line's one line (`text::one_line`): a profile
    /// or host name with a line break must not put a forged verdict under the real one.
    pub fn scope(mut self, part: impl Into<String>) -> Self {
        let part = part.into();
        self.scope.push(match crate::text::one_line(&part) {
            std::borrow::Cow::Borrowed(_) => part,
            std::borrow::Cow::Owned(o) => o,
        });
        self
    }

    /// The line, its verdict painted when `color`.
    pub fn line(&self, color: bool) -> String {
        let mut s = self.lines_within(color, None);
        s.pop();
        s
    }

    /// The summary as it closes a report in a window `width` columns wide, each line ended by
    /// a newline. Nothing is left out: the verdict and the counts open the first line, each
    /// part of the scope follows it while it fits, and a part that does not goes on a line of
    /// its own (`  · not ready to train`), wrapped between words only when it alone is wider
    /// than the window. Without a limit (a pipe or a file) it is one line, so `tail -1` reads
    /// the verdict there.
    pub fn lines_within(&self, color: bool, width: Option<usize>) -> String {
        let head = format!("{}: {}", self.verdict.word(), self.counts.join(", "));
        let mut lines: Vec<String> = Vec::new();
        for (i, l) in crate::render::table::wrap(&head, width)
            .into_iter()
            .enumerate()
        {
            // The verdict is painted where it stands, at the start of the first line.
            lines.push(match i {
                0 => l.replacen(
                    self.verdict.word(),
                    &paint(self.verdict.word(), self.verdict.tone(), color),
                    1,
                ),
                _ => l,
            });
        }
        for part in &self.scope {
            let need = 3 + textwrap::core::display_width(part);
            if let Some(last) = lines.last_mut() {
                let used = textwrap::core::display_width(last);
                if width.is_none_or(|max| used + need <= max) {
                    last.push_str(" · ");
                    last.push_str(part);
                    continue;
                }
            }
            // A continued line starts with the separator the part would have had, indented,
            // so it reads as the same summary and never as a line of its own.
            let rest = width.map(|w| w.saturating_sub(4).max(12));
            for (k, l) in crate::render::table::wrap(part, rest)
                .into_iter()
                .enumerate()
            {
                lines.push(format!("{}{l}", if k == 0 { "  · " } else { "    " }));
            }
        }
        let mut s = lines.join("\n");
        s.push('\n');
        s
    }
}

/// Where a row of a check table sorts: failures first, then what needs a look, then what
/// holds, then what was not checked.
pub fn rank(tone: Tone) -> u8 {
    match tone {
        Tone::Bad => 0,
        Tone::Warn => 1,
        Tone::Good => 2,
        Tone::Muted => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_shape_for_every_summary() {
        let s = Summary::new(Verdict::Fail)
            .count(6, "fail")
            .count(0, "unknown")
            .count(16, "pass")
            .scope("22 checks of hp-z8-g4-dual-rtx8000");
        assert_eq!(
            s.line(false),
            "FAIL: 6 fail, 0 unknown, 16 pass · 22 checks of hp-z8-g4-dual-rtx8000"
        );
        assert_eq!(
            Summary::new(Verdict::Incomplete)
                .count(2, "unknown")
                .line(false),
            "INCOMPLETE: 2 unknown"
        );
        assert!(s
            .line(true)
            .starts_with("\x1b[1m\x1b[31mFAIL\x1b[0m: 6 fail"));
        assert_eq!(plural(1, "host", "hosts"), "1 host");
        // In a window too narrow for it the summary goes on over a second line, its last
        // part kept; in a pipe it stays one line.
        let p = Summary::new(Verdict::Fail)
            .count(1, "fail")
            .count(0, "warn")
            .count(6, "unknown")
            .count(0, "pass")
            .scope("7 checks, 6 not checked")
            .scope("not ready to train");
        assert_eq!(
            p.lines_within(false, Some(80)),
            "FAIL: 1 fail, 0 warn, 6 unknown, 0 pass · 7 checks, 6 not checked\n  · not ready to train\n"
        );
        assert_eq!(
            p.lines_within(false, Some(100)),
            "FAIL: 1 fail, 0 warn, 6 unknown, 0 pass · 7 checks, 6 not checked · not ready to train\n"
        );
        assert_eq!(p.lines_within(false, None), format!("{}\n", p.line(false)));
        assert!(p
            .lines_within(true, Some(40))
            .starts_with("\x1b[1m\x1b[31mFAIL\x1b[0m: 1 fail"));
        assert_eq!(plural(5, "host", "hosts"), "5 hosts");
        assert_eq!(plural(0, "host", "hosts"), "0 hosts");
    }

    #[test]
    fn failures_sort_first() {
        let mut v = [Tone::Good, Tone::Muted, Tone::Bad, Tone::Warn];
        v.sort_by_key(|t| rank(*t));
        assert_eq!(v, [Tone::Bad, Tone::Warn, Tone::Good, Tone::Muted]);
    }
}
