//! The progress bar on stderr while benchmarks run (hidden when stderr is not a terminal).

use std::io::{self, IsTerminal};
use std::time::Duration;

/// Progress on stderr while benchmarks run; hidden when stderr is not a terminal.
pub struct Progress {
    bar: Option<indicatif::ProgressBar>,
}

impl Progress {
    /// A bar over `total` seconds of planned work, shown only on a terminal.
    pub fn new(total: f64) -> Self {
        if !io::stderr().is_terminal() {
            return Self::hidden();
        }
        let bar = indicatif::ProgressBar::new((total * 1000.0).max(1.0) as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{spinner} {msg:28} [{bar:30}] {elapsed}/{duration}",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.enable_steady_tick(Duration::from_millis(200));
        Self { bar: Some(bar) }
    }

    /// No bar at all (tests, pipes).
    pub fn hidden() -> Self {
        Self { bar: None }
    }

    /// Names the step now running.
    pub fn step(&self, msg: impl Into<String>) {
        if let Some(b) = &self.bar {
            b.set_message(msg.into());
        }
    }

    /// Counts `seconds` of planned work as done.
    pub fn advance(&self, seconds: f64) {
        if let Some(b) = &self.bar {
            b.inc((seconds * 1000.0) as u64);
        }
    }

    /// Removes the bar once everything ran.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
