//! A long report in a terminal window of 80 and 100 columns, as a person reads it: short
//! columns (a DIMM's type and speed, a drive's size) stay on one line while free text wraps,
//! the summary wraps rather than losing its last part, and output longer than the window goes
//! through the pager (`PAGER`, `less -FRX` by default) — never with `--no-pager`, in a pipe,
//! or when it fits.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

mod pty;

const Z8: &str = "fixtures/hp-z8-g4-dual-rtx6000";

/// Runs rigcheck in a terminal `cols` × `rows`, with `env` on top of a plain colour terminal
/// that has no pager set; what it printed, escape codes taken out.
fn in_terminal(cols: u16, rows: u16, args: &[&str], env: &[(&str, &str)]) -> (u32, String) {
    let (code, text) = pty::run(cols, rows, args, env);
    (code, anstream::adapter::strip_str(&text).to_string())
}

/// The report's lines from the one starting with `title` up to the next blank line.
fn block<'a>(plain: &'a str, title: &str) -> Vec<&'a str> {
    plain
        .lines()
        .skip_while(|l| !l.starts_with(title))
        .take_while(|l| !l.is_empty())
        .collect()
}

/// A grid's rows under its header line (the one above the `─┼─` rule) in `lines`.
fn grid_after<'a>(lines: &[&'a str], header_starts: &str) -> Vec<&'a str> {
    let at = lines
        .iter()
        .position(|l| l.trim_start().starts_with(header_starts) && l.contains('│'))
        .unwrap_or_else(|| panic!("no grid {header_starts:?} in\n{}", lines.join("\n")));
    lines[at + 2..]
        .iter()
        .take_while(|l| l.contains('│'))
        .copied()
        .collect()
}

#[test]
fn short_columns_never_wrap_and_the_inventory_is_shorter() {
    // The Z8 G4's inventory took 199 lines at 80 columns (each DIMM two, each drive three)
    // and 174 at 100, before its Health section and line (33 and 26 lines of it now, with
    // the notes on what health could not read); fitted, 188 and 174 without them.
    for (cols, most) in [(80u16, 232usize), (100, 209)] {
        let (code, plain) = in_terminal(cols, 60, &["--sysroot", Z8, "--no-pager"], &[]);
        assert_eq!(code, 0, "{plain}");
        let lines = plain.lines().count();
        assert!(lines <= most, "{cols} columns: {lines} lines\n{plain}");
        for l in plain.lines() {
            assert!(l.chars().count() <= usize::from(cols), "{cols}: {l:?}");
        }
        // Twelve DIMMs, one line each, type and speed whole.
        let memory = block(&plain, "Memory");
        let dimms = grid_after(&memory, "Slot");
        assert_eq!(dimms.len(), 12, "{cols} columns:\n{}", memory.join("\n"));
        for row in &dimms {
            let cells: Vec<&str> = row.split('│').map(str::trim).collect();
            assert!(cells[0].starts_with("CPU"), "{row}");
            assert_eq!(cells[1], "8 GiB", "{row}");
            assert_eq!(cells[2], "DDR4 DIMM", "{row}");
            assert_eq!(cells[3], "2933 MT/s", "{row}");
            assert_eq!(cells[5], "M393A1K43DB1-CVF", "{row}");
        }
        // A serial no DIMM reports is said once, not once a row (at 100 columns it fits).
        if cols == 80 {
            assert!(
                memory.contains(&" Serial: unknown in all 12 rows"),
                "{}",
                memory.join("\n")
            );
        } else {
            assert!(dimms.iter().all(|r| r.trim_end().ends_with("unknown")));
        }
        // A drive's size is never cut inside `931.5 GiB`.
        let drives = block(&plain, "Drives");
        let rows = grid_after(&drives, "Name");
        let sizes: String = rows
            .iter()
            .map(|r| r.split('│').nth(2).unwrap().trim())
            .collect::<Vec<_>>()
            .join("|");
        assert!(
            sizes.contains("(931.5 GiB)") || sizes.contains("1 TB (931.5 GiB)"),
            "{cols}: {}",
            drives.join("\n")
        );
    }
}

#[test]
fn the_summary_wraps_rather_than_losing_its_last_part() {
    for cols in [80u16, 100] {
        for (fixture, answer) in [
            ("fixtures/gpu-no-driver", "not ready to train"),
            ("fixtures/x86_64-vm-kvm", "not ready to train"),
            (Z8, "ready to train"),
        ] {
            let args = ["--sysroot", fixture, "preflight"];
            let (_, plain) = in_terminal(cols, 60, &args, &[("PAGER", "cat")]);
            let summary = plain.trim_end().rsplit("\n\n").next().unwrap();
            assert!(
                summary.starts_with("FAIL:") || summary.starts_with("PASS:"),
                "{fixture} at {cols}: {summary}"
            );
            assert!(
                summary.trim_end().ends_with(&format!("· {answer}")),
                "{fixture} at {cols}: {summary}"
            );
            assert!(summary
                .lines()
                .all(|l| l.chars().count() <= usize::from(cols)));
        }
    }
}

/// A pager that records its arguments and the `LESS` it got, then shows what it was given.
fn recording_pager(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let log = dir.join(format!("{name}.log"));
    let script = dir.join(name);
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nprintf 'called %s LESS=%s\\n' \"$*\" \"$LESS\" >> '{}'\nexec cat\n",
            log.display()
        ),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    (script, log)
}

fn calls(log: &Path) -> Vec<String> {
    std::fs::read_to_string(log)
        .map(|s| s.lines().map(String::from).collect())
        .unwrap_or_default()
}

#[test]
fn long_output_on_a_terminal_goes_through_the_pager() {
    let dir = tempfile::tempdir().unwrap();
    let (pager, log) = recording_pager(dir.path(), "pager");
    let pager = pager.to_str().unwrap();
    for cols in [80u16, 100] {
        std::fs::remove_file(&log).ok();
        let (code, plain) = in_terminal(cols, 40, &["--sysroot", Z8], &[("PAGER", pager)]);
        assert_eq!(code, 0, "{plain}");
        // Called once, with LESS set as git sets it, and the whole report reached it.
        assert_eq!(calls(&log), ["called  LESS=FRX"], "{cols}");
        assert!(plain.starts_with("At a glance"), "{plain}");
        assert!(plain.contains("Unknown, because…"), "{plain}");
        // verify pages too; a LESS of the user's own is left alone.
        std::fs::remove_file(&log).ok();
        let args = ["--sysroot", Z8, "verify", "-p", "hp-z8-g4-dual-rtx8000"];
        let (code, _) = in_terminal(cols, 10, &args, &[("PAGER", pager), ("LESS", "-S")]);
        assert_eq!(code, 1);
        assert_eq!(calls(&log), ["called  LESS=-S"], "{cols}");
    }
}

#[test]
fn the_default_pager_is_less_frx() {
    let dir = tempfile::tempdir().unwrap();
    let (_, log) = recording_pager(dir.path(), "less");
    let path = format!(
        "{}:{}",
        dir.path().display(),
        std::env::var("PATH").unwrap()
    );
    let (code, plain) = in_terminal(80, 40, &["--sysroot", Z8], &[("PATH", &path)]);
    assert_eq!(code, 0, "{plain}");
    assert_eq!(calls(&log), ["called -FRX LESS=FRX"]);
    assert!(plain.contains("Unknown, because…"), "{plain}");
}

#[test]
fn no_pager_when_asked_piped_fitting_or_set_to_cat() {
    let dir = tempfile::tempdir().unwrap();
    let (pager, log) = recording_pager(dir.path(), "pager");
    let pager = pager.to_str().unwrap();
    // --no-pager, before or after the command.
    for args in [
        &["--sysroot", Z8, "--no-pager"][..],
        &["--no-pager", "--sysroot", Z8, "preflight"][..],
        &["--sysroot", Z8, "preflight", "--no-pager"][..],
    ] {
        let (_, plain) = in_terminal(80, 10, args, &[("PAGER", pager)]);
        assert!(calls(&log).is_empty(), "{args:?}");
        assert!(
            plain.contains("PASS:") || plain.contains("At a glance"),
            "{plain}"
        );
    }
    // The output fits the window (the Z8 G4's preflight in 100 rows).
    let (_, plain) = in_terminal(
        100,
        100,
        &["--sysroot", Z8, "preflight"],
        &[("PAGER", pager)],
    );
    assert!(calls(&log).is_empty(), "{plain}");
    // A PAGER that is not installed: the report is shown all the same.
    let (code, plain) = in_terminal(
        80,
        10,
        &["--sysroot", Z8],
        &[("PAGER", "/nonexistent/pager")],
    );
    assert_eq!(code, 0);
    assert!(plain.contains("Unknown, because…"), "{plain}");
    // PAGER set to cat, or empty: no pager.
    for p in ["cat", ""] {
        let (_, plain) = in_terminal(80, 10, &["--sysroot", Z8], &[("PAGER", p)]);
        assert!(plain.contains("Unknown, because…"), "{plain}");
    }
    // A pipe is never paged.
    let out = assert_cmd::Command::cargo_bin("rigcheck")
        .unwrap()
        .args(["--sysroot", Z8])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("PAGER", pager)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).contains("Unknown, because…"));
    assert!(calls(&log).is_empty());
}
