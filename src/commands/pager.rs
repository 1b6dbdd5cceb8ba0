//! Long output on a terminal goes through a pager, as git and bat do: `less -FRX` unless
//! `PAGER` names another (empty or `cat`: none), never with `--no-pager`, never when stdout
//! is not a terminal, and never when the output fits the window.

use std::io::{IsTerminal, Write};
use std::process::{Command, Stdio};

use rigcheck::error::Error;
use rigcheck::io::{emit_colored, terminal_safe};

/// The pager when `PAGER` is not set: `-F` quits at once when the text fits one screen, `-R`
/// shows the colours, `-X` leaves the text on the screen after quitting.
const DEFAULT: &str = "less -FRX";

/// Writes a command's output as `emit_colored` does, through the pager when stdout is a
/// terminal the output does not fit and paging is not turned off (`no_pager`).
pub fn emit_paged(bytes: &[u8], color: bool, no_pager: bool) -> Result<(), Error> {
    match pager_for(bytes, color, no_pager) {
        Some((pager, text)) => {
            if page(&pager, &text) {
                Ok(())
            } else {
                // The pager could not be started (not installed): the text goes out as is.
                emit_colored(bytes, color)
            }
        }
        None => emit_colored(bytes, color),
    }
}

/// The pager command and the text to give it, or `None` where the output goes straight out.
fn pager_for(bytes: &[u8], color: bool, no_pager: bool) -> Option<(String, Vec<u8>)> {
    if no_pager || !std::io::stdout().is_terminal() {
        return None;
    }
    let pager = match std::env::var("PAGER") {
        Ok(p) if p.trim().is_empty() || p.trim() == "cat" => return None,
        Ok(p) => p,
        // Without less on PATH there is no default pager: the text goes out as it is.
        Err(_) if on_path("less") => DEFAULT.to_string(),
        Err(_) => return None,
    };
    let (cols, rows) = terminal_size::terminal_size_of(std::io::stdout())
        .map(|(w, h)| (usize::from(w.0), usize::from(h.0)))?;
    // The text as the terminal would get it: colour kept only when asked for, control
    // characters from the machine's files replaced.
    let safe = terminal_safe(bytes);
    let text: Vec<u8> = if color {
        safe.into_owned()
    } else {
        anstream::adapter::strip_bytes(&safe).into_vec()
    };
    if fits(&text, cols, rows) {
        return None;
    }
    Some((pager, text))
}

/// Whether `text` fits a window of `cols` × `rows` with a line to spare for the prompt: each
/// line counted as the rows it takes once the terminal wraps it.
fn fits(text: &[u8], cols: usize, rows: usize) -> bool {
    let plain = anstream::adapter::strip_bytes(text).into_vec();
    let plain = String::from_utf8_lossy(&plain);
    let mut used = 0usize;
    for l in plain.lines() {
        used += textwrap::core::display_width(l)
            .div_ceil(cols.max(1))
            .max(1);
        if used >= rows {
            return false;
        }
    }
    true
}

/// Runs `pager` with `text` on its standard input and waits for it; false when it could not
/// be started. An interrupt while it runs (Ctrl-C reaches the whole foreground group) waits
/// for the pager to give the terminal back before ending rigcheck, as git does.
fn page(pager: &str, text: &[u8]) -> bool {
    let mut cmd = shell_command(pager);
    // What git sets for a pager that reads them, unless the user has: `less` without
    // options then behaves as `less -FRX`.
    if std::env::var_os("LESS").is_none() {
        cmd.env("LESS", "FRX");
    }
    if std::env::var_os("LV").is_none() {
        cmd.env("LV", "-c");
    }
    let shield = rigcheck::signals::Shield::raise();
    let Ok(mut child) = cmd.stdin(Stdio::piped()).spawn() else {
        return false;
    };
    if let Some(mut stdin) = child.stdin.take() {
        // A pager quit before the end (`q` in less) closes the pipe: that is no error.
        let _ = stdin.write_all(text).and_then(|_| stdin.flush());
    }
    let status = child.wait();
    shield.end_if_interrupted();
    // 127: the shell found no such command (a PAGER naming a program not installed), and
    // nothing was shown.
    !matches!(status.map(|s| s.code()), Ok(Some(127)))
}

/// Whether `program` is an executable file in a directory of `PATH`.
fn on_path(program: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|d| {
            let p = d.join(program);
            p.is_file() || p.with_extension("exe").is_file()
        })
    })
}

/// `pager` as a shell would run it (`PAGER="less -S"`, `PAGER='bat --paging=always'`); split
/// at spaces where there is no `sh` (Windows).
fn shell_command(pager: &str) -> Command {
    if rigcheck::sys::PAGER_THROUGH_SH {
        let mut cmd = Command::new("sh");
        cmd.arg("-c").arg(pager);
        return cmd;
    }
    let mut words = pager.split_whitespace();
    let mut cmd = Command::new(words.next().unwrap_or("more"));
    cmd.args(words);
    cmd
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_fits_with_a_line_for_the_prompt() {
        let ten = "line\n".repeat(10);
        assert!(fits(ten.as_bytes(), 80, 11));
        assert!(!fits(ten.as_bytes(), 80, 10));
        // A line wider than the window takes the rows the terminal wraps it into.
        let wide = format!("{}\n", "x".repeat(170));
        assert!(!fits(wide.as_bytes(), 80, 3));
        assert!(fits(wide.as_bytes(), 80, 4));
        // Colour codes take no room.
        let painted = "\x1b[1m\x1b[31mFAIL\x1b[0m\n".repeat(3);
        assert!(fits(painted.as_bytes(), 4, 4));
    }
}
