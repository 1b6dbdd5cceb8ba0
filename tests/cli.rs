//! End-to-end tests of the rigcheck binary: exit codes, error lines, capture and replay.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;

fn rigcheck() -> Command {
    let mut c = Command::cargo_bin("rigcheck").unwrap();
    c.env_remove("NO_COLOR").env("TERM", "dumb");
    c
}

/// A reader that goes away (`rigcheck | head -1`) ends the run quietly with 0: no signal,
/// no "Broken pipe" line. The binary starts without std's runtime on Linux, which would
/// otherwise have set SIGPIPE aside.
#[test]
fn a_closed_pipe_ends_quietly_with_0() {
    use std::process::{Command, Stdio};
    for args in [&["-f", "json"][..], &["--help"], &["preflight", "--help"]] {
        let mut child = Command::new(assert_cmd::cargo::cargo_bin("rigcheck"))
            .args(["--sysroot", "fixtures/x86_64-epyc_7451"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Closed before the child can write: its first write finds no reader.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr), "", "{args:?}");
    }
}

/// Exit codes survive the binary's own entry point: 0, 2 for a usage or input error, and
/// what `--help` and `--version` give.
#[test]
fn exit_codes_come_through_the_entry_point() {
    rigcheck().arg("--version").assert().code(0);
    rigcheck().arg("--help").assert().code(0);
    rigcheck().arg("--no-such-option").assert().code(2);
    rigcheck()
        .args(["--sysroot", "/nonexistent/rigcheck"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no such directory"));
    rigcheck()
        .args(["--sysroot", "fixtures/x86_64-epyc_7451", "-f", "json"])
        .assert()
        .code(0)
        .stdout(predicate::str::ends_with("}\n"));
}

#[test]
fn missing_sysroot_exits_2_with_one_line() {
    let out = rigcheck()
        .args(["--sysroot", "/nonexistent/rig"])
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("--sysroot '/nonexistent/rig': no such directory"),
        "{stderr}"
    );
}

#[test]
fn empty_sysroot_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    rigcheck()
        .arg("--sysroot")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicate::str::contains("holds neither proc/ nor sys/"));
}

#[test]
fn a_windows_capture_is_a_sysroot_and_preflight_says_it_checks_linux_only() {
    let win = "fixtures/windows-hp-z8-g4";
    rigcheck()
        .args(["--sysroot", win])
        .assert()
        .success()
        .stdout(predicate::str::contains("Windows 10 Pro for Workstations"));
    let out = rigcheck()
        .args(["preflight", "--sysroot", win])
        .assert()
        .code(2);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("not supported on Windows or macOS"),
        "{stderr}"
    );
    // A record that cannot be read is still that OS: every fact unknown, with why.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("native.json"), "{\"format\": 1, \"os\": 7}").unwrap();
    let out = rigcheck()
        .arg("--sysroot")
        .arg(dir.path())
        .args(["--format", "json"])
        .assert()
        .success();
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    let notes = v["notes"].as_array().unwrap();
    assert!(
        notes.iter().any(|n| n["field"] == "os"
            && n["reason"]
                .as_str()
                .unwrap()
                .starts_with("the OS's answers are unknown: cannot parse /native.json:")),
        "{notes:?}"
    );
}

#[test]
fn truncated_sysroot_gives_notes_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let proc = dir.path().join("proc");
    std::fs::create_dir_all(&proc).unwrap();
    // A cpuinfo cut off mid-line and a meminfo with garbage in it.
    std::fs::write(
        proc.join("cpuinfo"),
        "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel na",
    )
    .unwrap();
    std::fs::write(proc.join("meminfo"), "MemTotal:  \u{0}\u{1}garbage kB\n").unwrap();
    let out = rigcheck()
        .arg("--sysroot")
        .arg(dir.path())
        .args(["--format", "json"])
        .assert()
        .code(0);
    let v: serde_json::Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert!(v["memory"]["usable_bytes"].is_null());
    let notes = v["notes"].as_array().unwrap();
    assert!(
        notes
            .iter()
            .any(|n| n["field"].as_str().unwrap().starts_with("memory")),
        "{notes:?}"
    );
    assert!(notes.iter().any(|n| n["field"] == "system"), "{notes:?}");
}

#[test]
fn every_bad_profile_exits_2_naming_file_line_and_column() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/profiles/bad");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let out = rigcheck()
            .args(["verify", "--profile"])
            .arg(&path)
            .args(["--sysroot", "fixtures/x86_64-vm-kvm"])
            .assert()
            .code(2);
        let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{name}: {stderr}");
        assert!(
            stderr.contains(&path.display().to_string()),
            "{name}: {stderr}"
        );
        let expect = match name.as_str() {
            "unknown_key" => ":2:1: unknown field `socket`",
            "bad_unit" => ":2:9: total: '96 GX': unknown unit 'GX'",
            "wrong_type" => ":2:11: sockets: expected a whole number, found string",
            "empty" => "the profile is empty",
            "unknown_comparison" => "unknown comparison 'atleast'; did you mean 'at_least'?",
            "bad_tolerance" => "tolerance 'lots'",
            "bad_drive_kind" => {
                ":2:8: kind 'floppy': not a drive kind; use one of nvme, ssd, hdd, virtual"
            }
            "not_toml" => ":1:",
            "unknown_section" => "unknown field `gpu`",
            "negative_count" => "cores: expected a whole number",
            other => panic!("tests/profiles/bad/{other}.toml has no expectation here"),
        };
        assert!(
            stderr.contains(expect),
            "{name}: expected '{expect}' in: {stderr}"
        );
        assert!(!stderr.contains("panicked"), "{name}: {stderr}");
        seen += 1;
    }
    assert_eq!(seen, 10);
}

#[test]
fn profiles_lists_and_shows_builtins() {
    rigcheck()
        .arg("profiles")
        .assert()
        .success()
        .stdout(predicate::str::contains("hp-z8-g4-dual-rtx6000\tHP Z8 G4"))
        .stdout(predicate::str::contains("hp-z8-g4-dual-rtx8000"));
    rigcheck()
        .args(["profiles", "show", "hp-z8-g4-dual-rtx8000"])
        .assert()
        .success()
        .stdout(predicate::str::contains("vram = \"48 GB\""));
    rigcheck()
        .args(["profiles", "show", "nope"])
        .assert()
        .code(2);
}

#[test]
fn capture_then_replay_prints_what_live_printed() {
    let dir = tempfile::tempdir().unwrap();
    let cap = dir.path().join("cap");
    rigcheck()
        .arg("capture")
        .arg(&cap)
        .assert()
        .success()
        .stdout(predicate::str::contains("captured"));
    // The capture keeps the report the live run printed; the replay must print the same,
    // volatile values (free memory, temperatures) included, since they were recorded.
    let live = std::fs::read(cap.join("report.json")).unwrap();
    let replay = rigcheck()
        .arg("--sysroot")
        .arg(&cap)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let strip = |b: &[u8]| {
        let mut v: serde_json::Value = serde_json::from_slice(b).unwrap();
        v.as_object_mut().unwrap().remove("source");
        v
    };
    let (live, replay) = (strip(&live), strip(&replay.stdout));
    assert_eq!(live, replay);
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    assert_eq!(live["hostname"].as_str(), Some(host.trim()));
    // And a fresh live run agrees on every hardware fact.
    let now = rigcheck().args(["--format", "json"]).output().unwrap();
    let now = strip(&now.stdout);
    for key in ["system", "os", "cpu", "drives", "gpus"] {
        assert_eq!(live[key], now[key], "{key}");
    }
    assert_eq!(live["memory"]["total_bytes"], now["memory"]["total_bytes"]);
    // Not over a non-empty directory without --force.
    rigcheck()
        .arg("capture")
        .arg(&cap)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--force"));
    rigcheck()
        .arg("capture")
        .arg(&cap)
        .arg("--force")
        .assert()
        .success();
}

#[test]
fn version_names_the_commit_in_a_clone() {
    let out = rigcheck().arg("--version").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v = String::from_utf8(out.stdout).unwrap();
    let want = format!("rigcheck {}", env!("CARGO_PKG_VERSION"));
    assert!(v.starts_with(&want), "{v}");
    // Built from this checkout: `rigcheck 0.1.0 (870fee5 2026-12-01)`. (From a tarball
    // without .git the version stands alone, as the build script says.)
    if std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join(".git")
        .exists()
    {
        let rest = v[want.len()..].trim();
        let inner = rest.strip_prefix('(').and_then(|r| r.strip_suffix(')'));
        let (hash, date) = inner.and_then(|i| i.split_once(' ')).unwrap_or(("", ""));
        assert!(
            hash.len() >= 7 && hash.chars().all(|c| c.is_ascii_hexdigit()),
            "{v}"
        );
        assert_eq!(date.len(), 10, "{v}");
    }
}

#[test]
fn completions_and_man_pages_come_from_the_command_line() {
    let run = |args: &[&str]| {
        let out = rigcheck().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let bash = run(&["completions", "bash"]);
    assert!(bash.contains("complete -F _rigcheck"), "{bash}");
    for word in ["verify", "preflight", "--section", "--stdout", "glance"] {
        assert!(bash.contains(word), "bash completion lacks {word}");
    }
    assert!(run(&["completions", "zsh"]).starts_with("#compdef rigcheck"));
    assert!(run(&["completions", "fish"]).contains("complete -c rigcheck"));
    let man = run(&["man"]);
    assert!(man.contains(".TH rigcheck 1"), "{man}");
    assert!(man.contains("\\-\\-section"), "{man}");
    let verify = run(&["man", "verify"]);
    assert!(verify.contains(".TH rigcheck-verify 1"), "{verify}");
    assert!(verify.contains("\\-\\-strict"), "{verify}");
    let out = rigcheck().args(["man", "nope"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no command 'nope'"));
    // A command under another has its own page, named in its parent's SEE ALSO.
    assert!(run(&["man", "profile"]).contains("rigcheck\\-profile\\-new(1)"));
    let new = run(&["man", "profile", "new"]);
    assert!(new.contains(".TH rigcheck-profile-new 1"), "{new}");
    assert!(new.contains("\\-\\-output"), "{new}");
    let out = rigcheck()
        .args(["man", "profile", "nope"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no command 'nope' under 'profile'; use one of new"),
        "{err}"
    );
    let out = rigcheck().args(["man", "verify", "x"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn section_is_refused_where_it_cannot_apply() {
    let out = rigcheck()
        .args(["--sysroot", "fixtures/hp-z8-g4-dual-rtx6000"])
        .args(["-s", "gpu", "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--section") && err.contains("json"), "{err}");
    assert!(out.stdout.is_empty());
}

const REFERENCE: &str = "fixtures/hp-z8-g4-dual-rtx6000";

/// Runs `rigcheck sheet` of the reference machine with `args`; returns (exit code, stderr).
fn sheet(args: &[&str]) -> (Option<i32>, String) {
    let out = rigcheck()
        .args(["sheet", "--sysroot", REFERENCE])
        .args(args)
        .output()
        .unwrap();
    assert!(out.stdout.is_empty(), "a sheet to a file printed on stdout");
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

#[test]
fn a_sheet_takes_its_format_from_the_file_name_and_says_what_it_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    // .md and .markdown are Markdown, .html and .htm HTML, in any case.
    for (name, markdown) in [
        ("z8.md", true),
        ("z8.MARKDOWN", true),
        ("z8.html", false),
        ("z8.htm", false),
    ] {
        let file = path(name);
        let (code, err) = sheet(&["-o", &file]);
        assert_eq!(code, Some(0), "{name}: {err}");
        let text = std::fs::read_to_string(&file).unwrap();
        assert_eq!(text.starts_with("# "), markdown, "{name}: {}", &text[..40]);
        assert_eq!(text.starts_with("<!DOCTYPE html>"), !markdown, "{name}");
        // One line on stderr: the path, the format and the size in bytes, as written.
        let bytes = text.len();
        let size = if bytes >= 1000 {
            format!("{},{:03}", bytes / 1000, bytes % 1000)
        } else {
            bytes.to_string()
        };
        assert!(bytes < 1_000_000, "{bytes}");
        let kind = if markdown { "Markdown" } else { "HTML" };
        assert_eq!(err, format!("wrote {file} ({kind}, {size} bytes)\n"));
    }
    // --format agreeing with the name, or naming the format of a name that does not.
    let (code, err) = sheet(&["-o", &path("a.md"), "-f", "markdown"]);
    assert_eq!(code, Some(0), "{err}");
    let (code, err) = sheet(&["-o", &path("a.txt"), "--format", "markdown"]);
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("(Markdown, "), "{err}");
    assert!(std::fs::read_to_string(path("a.txt"))
        .unwrap()
        .starts_with("# "));
    // Refused, and nothing written: a name that contradicts --format (before or after the
    // command), and a name that says no format without --format.
    let refusals: [(&[&str], &str, String); 4] = [
        (
            &["-f", "html"],
            "x.md",
            format!(
                "rigcheck: {}: the name says Markdown but --format is html; name it .html or leave --format out\n",
                path("x.md")
            ),
        ),
        (
            &["-f", "markdown"],
            "x.html",
            format!(
                "rigcheck: {}: the name says HTML but --format is markdown; name it .md or leave --format out\n",
                path("x.html")
            ),
        ),
        (
            &[],
            "x.txt",
            format!(
                "rigcheck: {}: '.txt' is not an extension of a sheet, so the sheet's format is not known; name it .html or .md, or give --format html or markdown\n",
                path("x.txt")
            ),
        ),
        (
            &[],
            "x",
            format!(
                "rigcheck: {}: the name has no extension, so the sheet's format is not known; name it .html or .md, or give --format html or markdown\n",
                path("x")
            ),
        ),
    ];
    for (extra, name, want) in refusals {
        let mut args = vec!["-o", name];
        let file = path(name);
        args[1] = &file;
        args.extend_from_slice(extra);
        let (code, err) = sheet(&args);
        assert_eq!((code, err.as_str()), (Some(2), want.as_str()), "{args:?}");
        assert!(!Path::new(&file).exists(), "{file} written");
    }
    let out = rigcheck()
        .args(["--format", "html", "sheet", "--sysroot", REFERENCE, "-o"])
        .arg(path("y.md"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr)
        .contains("the name says Markdown but --format is html"));
    // To standard output nothing is said: the output is the sheet.
    let out = rigcheck()
        .args(["sheet", "--sysroot", REFERENCE, "-o", "-", "-f", "markdown"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.starts_with(b"# "));
}

/// The codes a section of a man page lists: `.TP` then `\fBN\fR` lines.
fn exit_codes_of(page: &str) -> Vec<u8> {
    let start = page
        .find(".SH \"EXIT STATUS\"\n")
        .unwrap_or_else(|| panic!("no EXIT STATUS in\n{page}"));
    let section = &page[start + 1..];
    let section = &section[..section.find("\n.SH ").unwrap_or(section.len())];
    section
        .lines()
        .filter_map(|l| {
            l.strip_prefix("\\fB")?
                .strip_suffix("\\fR")?
                .parse::<u8>()
                .ok()
        })
        .collect()
}

#[test]
fn man_pages_say_the_exit_codes_of_the_readme_and_give_examples() {
    use rigcheck::outcome::{EXIT_ERROR, EXIT_FAIL, EXIT_INCOMPLETE, EXIT_PASS};
    let man = |args: &[&str]| {
        let out = rigcheck().arg("man").args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        String::from_utf8(out.stdout).unwrap()
    };
    let main = man(&[]);
    assert_eq!(
        exit_codes_of(&main),
        [EXIT_PASS, EXIT_FAIL, EXIT_ERROR, EXIT_INCOMPLETE]
    );
    for want in [
        "\\fB0\\fR\nEverything asked for holds",
        "\\fB1\\fR\nA check failed",
        "\\fB2\\fR\nUsage error or bad input",
        "\\fB3\\fR\nINCOMPLETE",
    ] {
        assert!(main.contains(want), "{want} not in\n{main}");
    }
    // The examples of the main page: the main job and each command a user starts with.
    let examples = &main[main.find(".SH EXAMPLES\n").expect("no EXAMPLES")..];
    for want in [
        "\\fBrigcheck\\fR\n",
        "\\fBrigcheck verify \\-\\-profile hp\\-z8\\-g4\\-dual\\-rtx6000\\fR",
        "\\fBrigcheck preflight",
        "\\fBrigcheck sheet \\-o z8.html\\fR",
        "\\fBrigcheck fleet reports/",
    ] {
        assert!(examples.contains(want), "{want} not in\n{examples}");
    }
    // Both come before VERSION, in the order of man-pages(7).
    let at = |s: &str| main.find(s).unwrap();
    assert!(at(".SH OPTIONS") < at(".SH \"EXIT STATUS\""));
    assert!(at(".SH \"EXIT STATUS\"") < at(".SH EXAMPLES"));
    assert!(at(".SH EXAMPLES") < at(".SH VERSION"));
    // Each command's page lists the codes the README's table gives it (a dash is a code it
    // never exits with), so the two cannot drift apart.
    let readme = std::fs::read_to_string("README.md").unwrap();
    let table = &readme[readme.find("### Exit codes").unwrap()..];
    let mut rows = 0;
    for line in table.lines().skip_while(|l| !l.starts_with("| `")) {
        let Some(row) = line.strip_prefix("| `") else {
            break;
        };
        let cells: Vec<&str> = row.split(" | ").collect();
        let command = cells[0].trim_end_matches('`');
        let want: Vec<u8> = (0..4u8)
            .filter(|c| cells[usize::from(*c) + 1].trim_end_matches(" |") != "—")
            .collect();
        let words: Vec<&str> = command.split(' ').collect();
        let page = man(&words);
        assert_eq!(exit_codes_of(&page), want, "rigcheck-{command}(1)");
        assert!(
            page.contains(".SH EXAMPLES\n.TP\n\\fBrigcheck"),
            "{command}"
        );
        rows += 1;
    }
    assert_eq!(rows, 13, "README's exit-code table");
}

#[test]
fn profile_completes_to_the_built_in_names_and_to_files() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("order.toml"), "").unwrap();
    let out = rigcheck().args(["completions", "bash"]).output().unwrap();
    let script = dir.path().join("rigcheck.bash");
    std::fs::write(&script, &out.stdout).unwrap();
    // What bash offers after the words given, from the script as a user sources it.
    let complete = |words: &[&str]| -> Vec<String> {
        let line = words.join(" ");
        let shell = format!(
            "source {}; COMP_WORDS=({}); COMP_CWORD={}; COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}; \
             _rigcheck rigcheck '{}' '{}' 2>/dev/null; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
            script.display(),
            words.iter().map(|w| format!("'{w}'")).collect::<Vec<_>>().join(" "),
            words.len() - 1,
            words[words.len() - 1],
            words[words.len() - 2],
        );
        let out = std::process::Command::new("bash")
            .args(["--norc", "-c", &shell])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let mut got: Vec<String> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(String::from)
            .collect();
        got.sort();
        got
    };
    if std::process::Command::new("bash")
        .arg("--version")
        .output()
        .is_err()
    {
        return; // no bash to run the script in (Windows runners)
    }
    let names: Vec<&str> = rigcheck::profile::BUILTIN.iter().map(|(n, _)| *n).collect();
    let mut all: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    all.extend(["order.toml".to_string(), "rigcheck.bash".to_string()]);
    all.sort();
    for words in [
        &["rigcheck", "verify", "--profile", ""][..],
        &["rigcheck", "verify", "-p", ""],
        &["rigcheck", "fleet", "x.json", "--profile", ""],
        &["rigcheck", "sheet", "--profile", ""],
        &["rigcheck", "--profile", ""],
    ] {
        assert_eq!(complete(words), all, "{words:?}");
    }
    // Completing a prefix: the names that start with it, or the files.
    assert_eq!(
        complete(&["rigcheck", "verify", "--profile", "hp-z8-g4-dual-rtx8"]),
        ["hp-z8-g4-dual-rtx8000"]
    );
    assert_eq!(
        complete(&["rigcheck", "verify", "--profile", "ord"]),
        ["order.toml"]
    );
    // The names complete, but parse as any other value: a file is still a profile.
    rigcheck()
        .args(["verify", "--sysroot", REFERENCE, "--profile"])
        .arg(format!("profiles/{}.toml", names[0]))
        .assert()
        .code(0);
    // zsh and fish offer them beside files as well.
    let zsh = String::from_utf8(
        rigcheck()
            .args(["completions", "zsh"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert!(
        zsh.contains(&format!(
            ":NAME|FILE: _alternative \"profiles\\:built-in profile\\:({})\" \"files\\:file\\:_files\"'",
            names.join(" ")
        )),
        "{zsh}"
    );
    let fish = String::from_utf8(
        rigcheck()
            .args(["completions", "fish"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let profile_lines: Vec<&str> = fish
        .lines()
        .filter(|l| l.contains(names[0]) && !l.contains("seen_subcommand_from show"))
        .collect();
    assert!(profile_lines.len() >= 5, "{fish}");
    assert!(
        profile_lines.iter().all(|l| !l.contains(" -f ")),
        "{profile_lines:?}"
    );

    // A command is offered only the options it takes: bench, capture and diff read no
    // --sysroot, and their completion does not offer it.
    let options = |words: &[&str]| -> Vec<String> {
        complete(words)
            .into_iter()
            .filter(|w| w.starts_with("--"))
            .collect()
    };
    for (command, refused) in [
        ("bench", &["--sysroot", "--color"][..]),
        ("capture", &["--sysroot", "--color", "--redact"]),
        ("diff", &["--sysroot"]),
        ("fleet", &["--sysroot"]),
    ] {
        let got = options(&["rigcheck", command, "--"]);
        assert!(got.contains(&"--help".to_string()), "{command}: {got:?}");
        for r in refused {
            assert!(
                !got.contains(&r.to_string()),
                "{command} offers {r}: {got:?}"
            );
        }
    }
    assert!(options(&["rigcheck", "verify", "--"]).contains(&"--sysroot".to_string()));
    // `profiles show` completes to the built-in names, in every shell.
    let shown: Vec<String> = complete(&["rigcheck", "profiles", "show", ""])
        .into_iter()
        .filter(|w| !w.starts_with('-'))
        .collect();
    assert_eq!(shown, names);
    assert!(zsh.contains(&format!(":({})'", names.join(" "))), "{zsh}");
    assert!(
        fish.contains(&format!(
            "__fish_seen_subcommand_from show\" -f -a \"{}\"",
            names.join(" ")
        )),
        "{fish}"
    );
}

/// The notes of a report on its GPUs.
fn gpu_notes(report: &[u8]) -> Vec<String> {
    let v: serde_json::Value = serde_json::from_slice(report).unwrap();
    v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["field"].as_str().unwrap().starts_with("gpus"))
        .map(|n| format!("{}: {}", n["field"], n["reason"]))
        .collect()
}

#[test]
fn a_replay_says_of_the_gpus_what_the_live_run_said() {
    // This machine, live, then captured and replayed: the GPUs' notes (why NVML gave
    // nothing, on a machine without NVIDIA's driver) are the same words.
    let live = rigcheck().args(["-f", "json"]).output().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let cap = dir.path().join("cap");
    rigcheck().arg("capture").arg(&cap).assert().success();
    let replay = rigcheck()
        .arg("--sysroot")
        .arg(&cap)
        .args(["-f", "json"])
        .output()
        .unwrap();
    assert_eq!(gpu_notes(&replay.stdout), gpu_notes(&live.stdout));
    // The machine delivered without the driver: each GPU's note is what a live run without
    // libnvidia-ml.so.1 says.
    let out = rigcheck()
        .args(["--sysroot", "fixtures/gpu-no-driver", "-f", "json"])
        .output()
        .unwrap();
    let notes = gpu_notes(&out.stdout);
    assert_eq!(notes.len(), 2, "{notes:?}");
    for n in notes {
        assert!(
            n.ends_with(
                "NVML unavailable: libnvidia-ml.so.1 not found: install the NVIDIA driver\""
            ),
            "{n}"
        );
    }
}
