//! The table commands as a person sees them: each runs in a pseudo-terminal of 80 and of 120
//! columns with colour left to `--color auto`, and its output must fit the window (no line
//! wider, none ending in spaces), be coloured, and keep every column rule of a table at the
//! same place on every line once the escape codes are taken out.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

mod pty;

const REFERENCE: &str = "fixtures/hp-z8-g4-dual-rtx6000";

/// Runs rigcheck with `args` in a terminal `cols` wide; its exit code and what it printed.
fn in_terminal(cols: u16, args: &[&str]) -> (u32, String) {
    in_terminal_with(cols, args, &[])
}

/// `in_terminal` with environment variables set on top of a plain colour terminal.
fn in_terminal_with(cols: u16, args: &[&str], env: &[(&str, &str)]) -> (u32, String) {
    // Straight to the terminal: the pager has tests of its own (tests/window.rs).
    let mut all = vec![("PAGER", "cat")];
    all.extend_from_slice(env);
    pty::run(cols, 60, args, &all)
}

fn strip(s: &str) -> String {
    anstream::adapter::strip_str(s).to_string()
}

/// Character positions of the column rules on a line.
fn rules(line: &str) -> Vec<usize> {
    line.chars()
        .enumerate()
        .filter(|(_, c)| matches!(c, '│' | '┼'))
        .map(|(i, _)| i)
        .collect()
}

/// Checks `raw` (what the terminal got) for a window `cols` wide; returns its widest line.
fn check_fits(what: &str, cols: usize, raw: &str) -> usize {
    assert!(
        raw.contains("\u{1b}["),
        "{what}: not coloured in a terminal:\n{raw}"
    );
    let plain = strip(raw);
    let mut widest = 0;
    for l in plain.lines() {
        let w = textwrap::core::display_width(l);
        widest = widest.max(w);
        assert!(
            w <= cols,
            "{what}: {w} columns in a {cols}-column window: {l:?}"
        );
        assert_eq!(l, l.trim_end(), "{what}: a line ends in spaces");
    }
    // Every table: the header's rules, then every row's at the same places; a note written
    // under its row keeps the first rule only.
    let lines: Vec<&str> = plain.lines().collect();
    let mut tables = 0;
    let mut header: Option<Vec<usize>> = None;
    for (i, l) in lines.iter().enumerate() {
        let r = rules(l);
        // A header is the line above a rule of `─` and `┼`.
        if lines.get(i + 1).is_some_and(|n| n.starts_with('─')) {
            assert!(!r.is_empty(), "{what}: a header without rules: {l:?}");
            header = Some(r);
            tables += 1;
            continue;
        }
        match &header {
            Some(h) if !r.is_empty() => assert!(
                r == *h || r == h[..1],
                "{what}: rules at {r:?}, header at {h:?}: {l:?}\n{plain}"
            ),
            _ => header = None,
        }
    }
    assert!(tables > 0, "{what}: no table:\n{plain}");
    widest
}

#[test]
fn table_commands_fit_80_and_120_columns_in_colour() {
    let fleet = [
        "fleet",
        "-p",
        "hp-z8-g4-dual-rtx6000",
        REFERENCE,
        "fixtures/x86_64-hp-z8-g4-dual-bronze3104",
        "fixtures/x86_64-dual-rtx2080",
        "fixtures/gpu-hot-throttling",
    ];
    let commands: Vec<(&str, Vec<&str>, u32, &str)> = vec![
        (
            "inventory",
            vec!["--sysroot", REFERENCE],
            0,
            "GPUs 0-1 · 2 × Quadro RTX 6000",
        ),
        (
            "inventory of a hot GPU",
            vec!["--sysroot", "fixtures/gpu-hot-throttling"],
            0,
            "GPU 0 clocks held down at 89 °C",
        ),
        (
            "verify",
            vec![
                "--sysroot",
                REFERENCE,
                "verify",
                "-p",
                "hp-z8-g4-dual-rtx8000",
            ],
            1,
            "FAIL: 1 fail, 0 unknown, 17 pass",
        ),
        (
            "preflight",
            vec!["--sysroot", "fixtures/gpu-hot-throttling", "preflight"],
            1,
            // Its mounts were not recorded: /dev/shm is unknown, not failed.
            "FAIL: 2 fail, 0 warn, 6 unknown, 12 pass",
        ),
        (
            "fleet",
            fleet.to_vec(),
            1,
            // gpu-hot-throttling's capture holds no /sys/block: its drive lines are
            // unknown, not failed, so that host is unknown.
            "FAIL: 2 fail, 1 unknown, 1 pass, 0 unreadable",
        ),
        (
            "diff",
            vec![
                "diff",
                REFERENCE,
                "fixtures/x86_64-hp-z8-g4-dual-bronze3104",
            ],
            1,
            "hardware changes",
        ),
    ];
    for (what, args, code, says) in &commands {
        let mut widest = Vec::new();
        for cols in [80u16, 120] {
            let (got, raw) = in_terminal(cols, args);
            let what = format!("{what} at {cols} columns");
            assert_eq!(got, *code, "{what}:\n{raw}");
            let plain = strip(&raw);
            assert!(plain.contains(says), "{what}: no {says:?} in\n{plain}");
            widest.push(check_fits(&what, usize::from(cols), &raw));
        }
        eprintln!(
            "{what}: widest line {} at 80, {} at 120",
            widest[0], widest[1]
        );
    }
}

#[test]
fn wide_tables_use_the_window_they_get() {
    // verify's table is 150 columns wide unbounded: squeezed into 80, it fills it.
    let (_, raw) = in_terminal(
        80,
        &[
            "--sysroot",
            REFERENCE,
            "verify",
            "-p",
            "hp-z8-g4-dual-rtx8000",
        ],
    );
    let widest = check_fits("verify", 80, &raw);
    assert!(
        widest > 70,
        "verify is {widest} columns in an 80-column window"
    );
}

#[test]
fn a_spec_sheet_is_not_poured_into_the_terminal() {
    let (code, raw) = in_terminal(80, &["--sysroot", REFERENCE, "sheet"]);
    assert_eq!(code, 2, "{raw}");
    assert!(raw.contains("-o FILE"), "{raw}");
    assert!(!raw.contains("<html"), "{raw}");
    let (code, raw) = in_terminal(80, &["--sysroot", REFERENCE, "sheet", "--stdout"]);
    assert_eq!(code, 0);
    assert!(raw.contains("<!DOCTYPE html>"));
}

#[test]
fn never_means_no_colour_even_from_a_hostile_dmi_string() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("m");
    let status = std::process::Command::new("cp")
        .args(["-a", REFERENCE])
        .arg(&root)
        .status()
        .unwrap();
    assert!(status.success());
    let name = root.join("sys/devices/virtual/dmi/id/product_name");
    std::fs::remove_file(&name).unwrap();
    // Red, hidden text, a window title and a right-to-left override.
    std::fs::write(
        &name,
        "HP Z8\u{1b}[31;8m secret\u{1b}[0m\u{1b}]0;pwned\u{7} G4 \u{202e}noitatskroW\n",
    )
    .unwrap();
    let root = root.to_str().unwrap();
    for args in [
        vec!["--sysroot", root, "--color", "never"],
        vec!["--sysroot", root, "--color", "never", "-f", "markdown"],
    ] {
        let (code, raw) = in_terminal(120, &args);
        assert_eq!(code, 0);
        assert!(!raw.contains('\u{1b}'), "{raw}");
        assert!(!raw.contains('\u{202e}'), "{raw}");
        assert!(raw.contains("HP Z8 secret G4 \u{fffd}noitatskroW"), "{raw}");
    }
    // With colour on, the only escape codes are rigcheck's own.
    let (_, raw) = in_terminal(120, &["--sysroot", root]);
    assert!(!raw.contains("\u{1b}[31;8m"), "{raw}");
    assert!(!raw.contains("\u{1b}]0;"), "{raw}");
    assert!(raw.contains("\u{1b}[1mAt a glance\u{1b}[0m"), "{raw}");
}

#[test]
fn colour_follows_no_color_and_clicolor_in_a_terminal() {
    let run = |env: &[(&str, &str)]| {
        in_terminal_with(100, &["--sysroot", REFERENCE, "-s", "glance"], env).1
    };
    assert!(run(&[]).contains('\u{1b}'));
    assert!(!run(&[("NO_COLOR", "1")]).contains('\u{1b}'));
    assert!(!run(&[("CLICOLOR", "0")]).contains('\u{1b}'));
    assert!(!run(&[("TERM", "dumb")]).contains('\u{1b}'));
    // Under CI a terminal is coloured even when TERM is dumb, as the README says.
    assert!(run(&[("TERM", "dumb"), ("CI", "true")]).contains('\u{1b}'));
    // COLUMNS wins over the window, as with ls and clap.
    let narrow = run(&[("COLUMNS", "60")]);
    assert!(strip(&narrow)
        .lines()
        .all(|l| textwrap::core::display_width(l) <= 60));
    // And in a pipe, CLICOLOR_FORCE still colours.
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("rigcheck"))
        .args(["--sysroot", REFERENCE, "-s", "glance"])
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .env_remove("NO_COLOR")
        .env("CLICOLOR_FORCE", "1")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains('\u{1b}'));
}

#[test]
fn bench_fits_the_window_too() {
    // bench prints aligned columns rather than a grid; its long lines (the notes, each GPU's
    // figures) wrap under themselves.
    for cols in [80u16, 120] {
        let (code, raw) = in_terminal(cols, &["bench", "memory", "--seconds", "0.1"]);
        assert_eq!(code, 0, "{raw}");
        let plain = strip(&raw);
        assert!(plain.contains("Memory: STREAM copy and triad"), "{plain}");
        let mut widest = 0;
        for line in plain.lines() {
            // The progress bar on stderr redraws its line after each `\r` (padded, then
            // cleared); what is left is the report's line.
            for l in line.split('\r') {
                let w = textwrap::core::display_width(l);
                widest = widest.max(w);
                assert!(w <= usize::from(cols), "bench: {w} columns: {l:?}");
            }
            let l = line.rsplit('\r').next().unwrap_or(line);
            assert_eq!(l, l.trim_end(), "bench: a line ends in spaces");
        }
        eprintln!("bench: widest line {widest} at {cols}");
    }
}

/// What rigcheck prints with `args` into a pipe: nothing wrapped, no colour.
fn unwrapped(args: &[&str]) -> String {
    let out = std::process::Command::new(assert_cmd::cargo::cargo_bin("rigcheck"))
        .args(args)
        .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
        .env_remove("COLUMNS")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// The words of `text`, table rules taken out.
fn words(text: &str) -> std::collections::HashSet<String> {
    text.replace(['│', '┼', '─'], " ")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// The cells of each table row of `plain`, a cell's lines joined by spaces: a row starts at
/// a line with text before its first rule and runs to the next; a note line under the row
/// (one rule) is not part of a cell.
fn table_rows(plain: &str) -> Vec<Vec<String>> {
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut in_table = false;
    for l in plain.lines() {
        if l.starts_with('─') {
            in_table = true;
            continue;
        }
        if !l.contains('│') {
            in_table = false;
            continue;
        }
        let cells: Vec<&str> = l.split('│').map(str::trim).collect();
        if !in_table || cells.len() < 3 {
            continue;
        }
        if !cells[0].is_empty() || rows.is_empty() {
            rows.push(vec![String::new(); cells.len()]);
        }
        let row = rows.last_mut().unwrap();
        for (c, text) in cells.iter().enumerate() {
            if !text.is_empty() && c < row.len() {
                if !row[c].is_empty() {
                    row[c].push(' ');
                }
                row[c].push_str(text);
            }
        }
    }
    rows
}

#[test]
fn answers_come_first_and_last_in_80_and_100_columns() {
    let fleet = [
        "fleet",
        "-p",
        "hp-z8-g4-dual-rtx6000",
        REFERENCE,
        "fixtures/windows-hp-z8-g4",
        "fixtures/x86_64-dual-rtx2080",
        "fixtures/gpu-hot-throttling",
    ];
    let verify_pass = [
        "--sysroot",
        REFERENCE,
        "verify",
        "-p",
        "hp-z8-g4-dual-rtx6000",
    ];
    // The order was for two Quadro RTX 8000; the machine has two RTX 6000.
    let verify_fail = [
        "--sysroot",
        REFERENCE,
        "verify",
        "-p",
        "hp-z8-g4-dual-rtx8000",
    ];
    let preflight_pass = ["--sysroot", REFERENCE, "preflight"];
    let no_gpu = ["--sysroot", "fixtures/x86_64-vm-kvm", "preflight"];
    let no_driver = ["--sysroot", "fixtures/gpu-no-driver", "preflight"];
    let cases: Vec<(&str, &[&str], u32, &str)> = vec![
        ("verify pass", &verify_pass, 0, "PASS"),
        ("verify fail", &verify_fail, 1, "FAIL"),
        ("preflight pass", &preflight_pass, 0, "PASS"),
        ("fleet", &fleet, 1, "FAIL"),
        ("preflight without a GPU", &no_gpu, 1, "FAIL"),
        ("preflight without a driver", &no_driver, 1, "FAIL"),
    ];
    for (what, args, code, verdict) in cases {
        let mut whole = words(&unwrapped(args));
        // Where a fleet's hosts need more than the window, the model goes under each row,
        // named: "Model:" is a label, not a piece of a word.
        // Where that is not enough, a second column goes beside it ("Model: … · CPUs: …").
        whole.extend(["Model:", "CPUs:", "GPUs:", "Health:", "Where:", "·"].map(String::from));
        for cols in [80u16, 100] {
            let (got, raw) = in_terminal(cols, args);
            let what = format!("{what} at {cols} columns");
            assert_eq!(got, code, "{what}:\n{raw}");
            check_fits(&what, usize::from(cols), &raw);
            let plain = strip(&raw);
            let lines: Vec<&str> = plain.lines().filter(|l| !l.is_empty()).collect();
            let head = format!("{verdict}:");
            assert!(
                lines.iter().take(15).any(|l| l.starts_with(&head)),
                "{what}: no verdict in the first 15 lines:\n{plain}"
            );
            // The summary closes the report: in a window it wraps rather than losing its
            // last part, so its first line (the verdict) opens the last paragraph.
            let summary = plain.trim_end().rsplit("\n\n").next().unwrap();
            assert!(
                summary.starts_with(&head),
                "{what}: the last paragraph is not the summary:\n{plain}"
            );
            assert!(
                summary.lines().skip(1).all(|l| l.starts_with("  ")),
                "{what}: the summary's continued lines are indented:\n{summary}"
            );
            // No word split: every word on the screen is a word of the unwrapped output (the
            // fleet's seven columns need 88 at their longest words: at 80 each host's model
            // goes under its row, and no word breaks).
            for w in words(&plain) {
                assert!(
                    whole.contains(&w),
                    "{what}: {w:?} is part of a split word\n{plain}"
                );
            }
            if what.starts_with("verify") {
                let header = plain
                    .lines()
                    .zip(plain.lines().skip(1))
                    .find(|(_, next)| next.starts_with('─'))
                    .map(|(h, _)| h.split('│').map(str::trim).collect::<Vec<_>>())
                    .unwrap();
                assert_eq!(header, ["Status", "Check", "Expected", "Found"], "{what}");
            }
        }
    }

    // The wrong part is named in one row, counted once.
    let (_, raw) = in_terminal(80, &verify_fail);
    let plain = strip(&raw);
    let rows = table_rows(&plain);
    let gpu: Vec<&Vec<String>> = rows.iter().filter(|r| r[1] == "GPU model").collect();
    assert_eq!(gpu.len(), 1, "{plain}");
    assert_eq!(gpu[0][0], "fail");
    assert_eq!(gpu[0][2], "2 × Quadro RTX 8000 48 GiB", "{plain}");
    assert_eq!(gpu[0][3], "2 × Quadro RTX 6000 24 GiB", "{plain}");
    assert!(
        plain.lines().any(|l| l.starts_with("FAIL: 1 fail,")),
        "{plain}"
    );
    assert!(
        plain
            .lines()
            .take(15)
            .any(|l| l.contains("GPU model: ordered 2 × Quadro RTX 8000")),
        "{plain}"
    );

    // The Windows capture is one host of the fleet, not four unreadable files.
    let (_, raw) = in_terminal(100, &fleet);
    let plain = strip(&raw);
    assert!(plain.contains("4 hosts"), "{plain}");
    assert!(plain.contains("0 unreadable"), "{plain}");

    // No GPU is not ready to train; GPUs without a driver name the missing driver.
    let (_, raw) = in_terminal(80, &no_gpu);
    let plain = strip(&raw);
    assert!(plain.contains("no NVIDIA GPU on the PCI bus"), "{plain}");
    let (_, raw) = in_terminal(80, &no_driver);
    let plain = strip(&raw);
    let first: String = plain.lines().take(15).collect::<Vec<_>>().join(" ");
    assert!(first.contains("NVIDIA driver not installed"), "{plain}");
    assert!(!plain.contains("check `nvidia-smi`"), "{plain}");
}

/// A fleet of reports made as `benches/make-fleet.sh` makes them (from the reference Z8 G4's
/// report), one host's GPUs renamed to a name with a word of 31 characters: wider than the
/// column would get, narrower than the window once the other columns wrap.
#[test]
fn fleet_never_splits_a_part_name_at_80_and_100_columns() {
    let reference = std::fs::read_to_string("benches/z8-g4-report.json").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let long = "A100-SXM4-80GB-PCIe-Tensor-Core";
    for (i, gpu) in [
        (1, "Quadro RTX 6000"),
        (2, "Quadro RTX 6000"),
        (3, "NVIDIA A100-SXM4-80GB-PCIe-Tensor-Core"),
    ] {
        let host = format!("node-{i:06}");
        let text = reference
            .replace("z8-ref", &host)
            .replace("Quadro RTX 6000", gpu);
        std::fs::write(dir.path().join(format!("{host}.json")), text).unwrap();
    }
    let dir = dir.path().to_str().unwrap();
    let args = ["fleet", dir];
    let mut whole = words(&unwrapped(&args));
    // Columns written under their rows are named: labels, not pieces of words.
    // Two columns go under a row side by side: "GPUs: … · Model: …".
    whole.extend(
        [
            "Model:", "GPUs:", "CPUs:", "Health:", "Where:", "host:", "·",
        ]
        .map(String::from),
    );
    assert!(whole.contains(long));
    for cols in [80u16, 100] {
        let what = format!("fleet at {cols} columns");
        let (code, raw) = in_terminal(cols, &args);
        assert_eq!(code, 0, "{what}:\n{raw}");
        check_fits(&what, usize::from(cols), &raw);
        let plain = strip(&raw);
        for w in words(&plain) {
            assert!(
                whole.contains(&w),
                "{what}: {w:?} is part of a split word\n{plain}"
            );
        }
        // The long name is on the screen whole, in its own column's width; the CPU model
        // ("Xeon", "6254") is never broken either.
        let shown = words(&plain);
        for w in [long, "Xeon", "6254", "Quadro", "Workstation"] {
            assert!(shown.contains(w), "{what}: {w} not whole\n{plain}");
        }
    }
}
