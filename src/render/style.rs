//! Colour in text output, decided in one place: a status word is painted by its tone, a title
//! or a table header is bold, and nothing is coloured unless the caller says colour is on.
//! The styles are anstyle values, so the escape codes are written by one crate and removed by
//! its sibling (anstream) wherever colour is off.

use anstyle::{AnsiColor, Style};

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
    /// The anstyle style of this tone.
    pub fn style(self) -> Style {
        match self {
            Tone::Good => AnsiColor::Green.on_default(),
            Tone::Warn => AnsiColor::Yellow.on_default(),
            Tone::Bad => AnsiColor::Red.on_default().bold(),
            Tone::Muted => Style::new().dimmed(),
        }
    }
}

/// `text` in `style` when `color`, else as it is.
fn styled(text: &str, style: Style, color: bool) -> String {
    if color && !text.is_empty() {
        format!("{}{text}{}", style.render(), style.render_reset())
    } else {
        text.to_string()
    }
}

/// `text` in the colour of `tone` when `color`, else as it is.
pub fn paint(text: &str, tone: Tone, color: bool) -> String {
    styled(text, tone.style(), color)
}

/// `text` in bold when `color` (section titles, table headers).
pub fn bold(text: &str, color: bool) -> String {
    styled(text, Style::new().bold(), color)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_only_when_asked() {
        assert_eq!(paint("fail", Tone::Bad, false), "fail");
        assert_eq!(paint("fail", Tone::Bad, true), "\x1b[1m\x1b[31mfail\x1b[0m");
        assert_eq!(paint("pass", Tone::Good, true), "\x1b[32mpass\x1b[0m");
        assert_eq!(bold("CPU", true), "\x1b[1mCPU\x1b[0m");
        assert_eq!(bold("CPU", false), "CPU");
        assert_eq!(bold("", true), "");
    }
}
