//! rigcheck run in a pseudo-terminal, as a person runs it (tests/terminal.rs, tests/window.rs).
#![allow(dead_code)]

use std::io::Read;

use portable_pty::{native_pty_system, CommandBuilder, PtySize};

/// Runs rigcheck with `args` in a terminal `cols` × `rows`, from the repository's root: a
/// colour terminal, as a person has it, with nothing that would decide width, colour or
/// paging for the program (`COLUMNS`, `NO_COLOR`, `CI` — which CI runners set and which turns
/// colour on in a terminal whatever `TERM` says — `PAGER`, `LESS`), then `env` on top. Its
/// exit code and what it printed, escape codes kept, each line ended by `\n`.
pub fn run(cols: u16, rows: u16, args: &[&str], env: &[(&str, &str)]) -> (u32, String) {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows,
            cols,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(assert_cmd::cargo::cargo_bin("rigcheck"));
    cmd.args(args);
    cmd.cwd(env!("CARGO_MANIFEST_DIR"));
    cmd.env("TERM", "xterm-256color");
    for v in [
        "NO_COLOR",
        "CLICOLOR",
        "CLICOLOR_FORCE",
        "COLUMNS",
        "LINES",
        "CI",
        "PAGER",
        "LESS",
    ] {
        cmd.env_remove(v);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = pair.slave.spawn_command(cmd).unwrap();
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let output = std::thread::spawn(move || {
        let mut buf = Vec::new();
        // Ends with EIO once the child has exited and no one holds the terminal's other end.
        let _ = reader.read_to_end(&mut buf);
        buf
    });
    let status = child.wait().unwrap();
    let bytes = output.join().unwrap();
    drop(pair.master);
    // The terminal turns each newline into CR LF.
    let text = String::from_utf8(bytes).unwrap().replace("\r\n", "\n");
    (status.exit_code(), text)
}
