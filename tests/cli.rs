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

#[test]
fn cli_definition_is_consistent() {
    use clap::CommandFactory;
    rigcheck::cli::Cli::command().debug_assert();
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
