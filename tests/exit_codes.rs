//! The exit-code table of README.md is what the commands do: the table is parsed, every
//! command of the command line is in it, and for every code it lists the command is run
//! into that code; a code it does not list has no way here to be reached.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;

use common::*;

const PROFILE: &str = "hp-z8-g4-dual-rtx6000";
const CODES: [u8; 4] = [0, 1, 2, 3];

/// README's "Exit codes" table: command → the codes it lists (cells other than `—`).
fn readme_table() -> BTreeMap<String, Vec<u8>> {
    let readme =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    let section = readme
        .split("### Exit codes")
        .nth(1)
        .expect("README has an Exit codes section");
    let mut rows = section
        .lines()
        .skip_while(|l| !l.starts_with('|'))
        .take_while(|l| l.starts_with('|'));
    let header: Vec<String> = cells(rows.next().unwrap());
    assert_eq!(header, ["command", "0", "1", "2", "3"]);
    let mut out = BTreeMap::new();
    for row in rows.skip(1) {
        let c = cells(row);
        assert_eq!(c.len(), 5, "{row}");
        let command = c[0].trim_matches('`').to_string();
        let codes = CODES
            .iter()
            .zip(&c[1..])
            .filter(|(_, cell)| cell.as_str() != "—")
            .map(|(code, _)| *code)
            .collect();
        out.insert(command, codes);
    }
    out
}

fn cells(row: &str) -> Vec<String> {
    row.trim()
        .trim_matches('|')
        .split(" | ")
        .map(|c| c.trim().to_string())
        .collect()
}

/// Everything the scenarios need on disk.
struct World {
    dir: tempfile::TempDir,
    /// A copy without the SMBIOS tables (DIMMs unknown).
    unprivileged: tempfile::TempDir,
}

impl World {
    fn new() -> World {
        let w = World {
            dir: tempfile::tempdir().unwrap(),
            unprivileged: reference_copy(),
        };
        without_smbios(w.unprivileged.path());
        let report = |root: &Path, file: &str| {
            let out = rigcheck()
                .args(["--format", "json", "--sysroot"])
                .arg(root)
                .output()
                .unwrap();
            fs::create_dir_all(Path::new(&w.path(file)).parent().unwrap()).unwrap();
            fs::write(w.path(file), out.stdout).unwrap();
        };
        report(Path::new(REFERENCE), "good/ref.json");
        report(Path::new(REFERENCE), "bad/ref.json");
        fs::write(w.path("bad/broken.json"), "{\"schema_version\": 1,").unwrap();
        report(w.unprivileged.path(), "partly/nobody.json");
        fs::create_dir_all(w.path("full")).unwrap();
        fs::write(w.path("full/keep"), "").unwrap();
        fs::write(w.path("exists.toml"), "").unwrap();
        w
    }

    fn path(&self, rel: &str) -> String {
        self.dir.path().join(rel).to_str().unwrap().to_string()
    }

    /// The command line that makes `command` exit with `code`, if there is one.
    fn scenario(&self, command: &str, code: u8) -> Option<Vec<String>> {
        let up = self.unprivileged.path().to_str().unwrap().to_string();
        let bronze = "fixtures/x86_64-hp-z8-g4-dual-bronze3104".to_string();
        let bad_profile = "tests/profiles/bad/unknown_key.toml".to_string();
        let v = |a: &[&str]| Some(a.iter().map(|s| s.to_string()).collect());
        match (command, code) {
            ("inventory", 0) => v(&["inventory", "--sysroot", REFERENCE]),
            ("inventory", 2) => v(&["inventory", "--sysroot", "/nonexistent/rig"]),
            ("capture", 0) => v(&["capture", &self.path("cap")]),
            ("capture", 2) => v(&["capture", &self.path("full")]),
            ("verify", 0) => v(&["verify", "-p", PROFILE, "--sysroot", REFERENCE]),
            ("verify", 1) => v(&["verify", "-p", PROFILE, "--sysroot", &bronze]),
            ("verify", 2) => v(&["verify", "-p", &bad_profile, "--sysroot", REFERENCE]),
            ("verify", 3) => v(&["verify", "-p", PROFILE, "--sysroot", &up]),
            ("profiles", 0) => v(&["profiles"]),
            ("profiles", 2) => v(&["profiles", "show", "nope"]),
            ("profile new", 0) => v(&["profile", "new", "--sysroot", REFERENCE]),
            ("profile new", 2) => v(&[
                "profile",
                "new",
                "--sysroot",
                REFERENCE,
                "-o",
                &self.path("exists.toml"),
            ]),
            ("diff", 0) => v(&["diff", REFERENCE, REFERENCE]),
            ("diff", 1) => v(&["diff", REFERENCE, &bronze]),
            ("diff", 2) => v(&["diff", REFERENCE, "/nonexistent/report.json"]),
            ("diff", 3) => v(&["diff", REFERENCE, &up]),
            ("preflight", 0) => v(&["preflight", "--sysroot", REFERENCE]),
            ("preflight", 1) => v(&["preflight", "--sysroot", "fixtures/gpu-hot-throttling"]),
            ("preflight", 2) => v(&["preflight", "--sysroot", REFERENCE, "--min-driver", "abc"]),
            ("preflight", 3) => v(&["preflight", "--sysroot", REFERENCE, "--data", "/srv/data"]),
            ("sheet", 0) => v(&["sheet", "--sysroot", REFERENCE, "-o", &self.path("s.html")]),
            ("sheet", 2) => v(&["sheet", "--report", "/nonexistent/report.json"]),
            ("fleet", 0) => v(&["fleet", &self.path("good")]),
            ("fleet", 1) => v(&["fleet", &self.path("bad")]),
            ("fleet", 2) => v(&["fleet", "/nonexistent/reports"]),
            ("fleet", 3) => v(&["fleet", &self.path("partly"), "--profile", PROFILE]),
            ("bench", 0) => v(&["bench", "cpu", "--seconds", "0.05"]),
            ("bench", 2) => v(&["bench", "--sysroot", REFERENCE]),
            ("bench", 3) => v(&[
                "bench",
                "disk",
                "--seconds",
                "0.1",
                "--data",
                "/nonexistent/data",
            ]),
            ("completions", 0) => v(&["completions", "bash"]),
            ("completions", 2) => v(&["completions", "tcsh"]),
            ("man", 0) => v(&["man", "verify"]),
            ("man", 2) => v(&["man", "nosuch"]),
            ("schema", 0) => v(&["schema", "report"]),
            ("schema", 2) => v(&["schema", "nosuch"]),
            _ => None,
        }
    }
}

#[test]
fn readme_exit_code_table_matches_the_commands() {
    let table = readme_table();
    // Every command of the command line has a row (`help` is clap's own), as `--help` lists
    // them: a name at the start of each line of its Commands section.
    let listed = |args: &[&str]| -> Vec<String> {
        let out = rigcheck().args(args).output().unwrap();
        let help = String::from_utf8(out.stdout).unwrap();
        help.lines()
            .skip_while(|l| *l != "Commands:")
            .skip(1)
            .take_while(|l| !l.is_empty())
            .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
            .filter_map(|l| l.split_whitespace().next().map(str::to_string))
            .filter(|name| name != "help")
            .collect()
    };
    let mut commands: Vec<String> = Vec::new();
    for name in listed(&["--help"]) {
        if name == "profile" {
            for s in listed(&["profile", "--help"]) {
                commands.push(format!("profile {s}"));
            }
        } else {
            commands.push(name);
        }
    }
    assert!(commands.len() > 10, "{commands:?}");
    commands.sort();
    let rows: Vec<String> = table.keys().cloned().collect();
    assert_eq!(
        rows, commands,
        "README's exit-code table and the commands differ"
    );

    let world = World::new();
    for (command, listed) in &table {
        for code in CODES {
            let scenario = world.scenario(command, code);
            match (listed.contains(&code), scenario) {
                (true, Some(args)) => {
                    let out = rigcheck().args(&args).output().unwrap();
                    let stderr = String::from_utf8_lossy(&out.stderr);
                    assert_eq!(
                        out.status.code(),
                        Some(i32::from(code)),
                        "`rigcheck {}` should exit {code}: {stderr}",
                        args.join(" ")
                    );
                    // Exit 2 always comes with one line on stderr saying why.
                    if code == 2 {
                        assert_eq!(stderr.lines().count(), 1, "{}: {stderr}", args.join(" "));
                        assert!(stderr.starts_with("rigcheck: "), "{stderr}");
                    }
                }
                (true, None) => panic!("README says {command} exits {code}; no test makes it"),
                (false, Some(args)) => panic!(
                    "`rigcheck {}` exits {code}, which README does not list for {command}",
                    args.join(" ")
                ),
                (false, None) => {}
            }
        }
    }
}

#[test]
fn readme_keeps_the_set_up_commands_near_the_top() {
    let readme =
        fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    // A user's install and first verify open it (tests/readme.rs); the set-up of a source
    // checkout follows in a section of its own, still before the reference.
    let from_source = readme.find("## From source").unwrap();
    let block = readme[from_source..].split("```").nth(1).unwrap();
    assert!(block.contains("cargo run --release"), "{block}");
    assert!(block.contains("cargo test"), "{block}");
    assert!(readme.find("## Install").unwrap() < from_source);
    assert!(from_source < readme.find("## The inventory").unwrap());
    for doc in [
        "docs/performance.md",
        "docs/reliability.md",
        "docs/development.md",
    ] {
        assert!(readme.contains(&format!("]({doc})")), "no link to {doc}");
    }
}
