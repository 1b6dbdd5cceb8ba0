//! Colour in text output, decided in one place: a status word is painted by its tone, a title
//! is bold, and nothing is coloured unless the caller says colour is on.

/// What a status means to the reader, which decides its colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Holds (green).
    Good,
    /// Needs a look, the run goes on (yellow): a warning, or a fact that is unknown.
    Warn,
    /// Failed (bold red).
    Bad,
    /// Not checked (dim).
    Muted,
}

impl Tone {
    fn sgr(self) -> &'static str {
        match self {
            Tone::Good => "32",
            Tone::Warn => "33",
            Tone::Bad => "1;31",
            Tone::Muted => "2",
        }
    }
}

/// `text` in the colour of `tone` when `color`, else as it is.
pub fn paint(text: &str, tone: Tone, color: bool) -> String {
    if color {
        format!("\x1b[{}m{text}\x1b[0m", tone.sgr())
    } else {
        text.to_string()
    }
}

/// `text` in bold when `color` (section titles).
pub fn bold(text: &str, color: bool) -> String {
    if color {
        format!("\x1b[1m{text}\x1b[0m")
    } else {
        text.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_only_when_asked() {
        assert_eq!(paint("fail", Tone::Bad, false), "fail");
        assert_eq!(paint("fail", Tone::Bad, true), "\x1b[1;31mfail\x1b[0m");
        assert_eq!(paint("pass", Tone::Good, true), "\x1b[32mpass\x1b[0m");
        assert_eq!(bold("CPU", true), "\x1b[1mCPU\x1b[0m");
        assert_eq!(bold("CPU", false), "CPU");
    }
}
