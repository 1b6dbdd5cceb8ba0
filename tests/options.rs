//! The global options (`--format`, `--redact`, `--sysroot`, `--color`) honoured wherever they
//! are written or refused with exit 2; one error shape on stderr for every kind of mistake;
//! `-` as standard input and output. All on the reference machine or mutated copies of it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::Path;

use common::*;
use serde_json::Value;

const PROFILE: &str = "hp-z8-g4-dual-rtx6000";

/// Checks a refusal or error: exit 2, nothing on stdout, one line `rigcheck: <what>: <why>;
/// <fix>` on stderr with no control character; returns the line.
fn refused(args: &[&str]) -> String {
    let (code, out, err) = run(args);
    assert_eq!(code, 2, "`{}`: {out}{err}", args.join(" "));
    assert!(out.is_empty(), "`{}` printed: {out}", args.join(" "));
    assert_one_error_line(&err);
    err
}

fn assert_one_error_line(err: &str) {
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.ends_with('\n'), "{err:?}");
    let line = err.trim_end();
    assert!(line.starts_with("rigcheck: "), "{line}");
    assert!(
        line.split_once(": ")
            .is_some_and(|(_, rest)| rest.contains(": ")),
        "no <what>: <why> in {line}"
    );
    assert!(line.contains("; "), "no fix in {line}");
    assert!(!line.chars().any(char::is_control), "{line:?}");
    for leak in ["os error", "struct Spec", "error:", "Usage:"] {
        assert!(!line.contains(leak), "{leak} in {line}");
    }
}

fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn format_before_the_command_is_the_commands_format() {
    let dir = tempfile::tempdir().unwrap();
    let (report, _) = reference_report(dir.path());
    let r = p(&report);
    let cases: &[(&[&str], &str)] = &[
        (&["verify", "-p", PROFILE, "--sysroot", REFERENCE], "json"),
        (&["verify", "-p", PROFILE, "--sysroot", REFERENCE], "junit"),
        (&["diff", REFERENCE, r], "json"),
        (&["preflight", "--sysroot", REFERENCE], "json"),
        (&["fleet", r], "prometheus"),
        (&["sheet", "--sysroot", REFERENCE], "markdown"),
        (&["inventory", "--sysroot", REFERENCE], "nfd"),
    ];
    for (args, format) in cases {
        let mut before = vec!["--format", format];
        before.extend_from_slice(args);
        let mut after = args.to_vec();
        after.extend_from_slice(&["--format", format]);
        let (cb, ob, eb) = run(&before);
        let (ca, oa, _) = run(&after);
        assert_eq!((cb, &ob), (ca, &oa), "`{}`: {eb}", before.join(" "));
        let (_, table, _) = run(args);
        assert_ne!(
            ob,
            table,
            "`{}` printed the default format",
            before.join(" ")
        );
    }
    // The case of the issue: JSON, not a table.
    let (code, out, _) = run(&[
        "-f",
        "json",
        "verify",
        "-p",
        PROFILE,
        "--sysroot",
        REFERENCE,
    ]);
    assert_eq!(code, 0);
    assert_eq!(
        serde_json::from_str::<Value>(&out).unwrap()["outcome"],
        "pass"
    );
}

#[test]
fn global_options_a_command_cannot_honour_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (r, _) = reference_report(dir.path());
    let r = p(&r);
    let cap = dir.path().join("cap");
    let cap = p(&cap);
    let cases: &[(&[&str], &str)] = &[
        (&["-f", "nfd", "verify", "-p", PROFILE], "--format nfd: verify has no such format; use one of table, json, markdown, junit"),
        (&["-f", "json", "verify", "-p", PROFILE, "-f", "table"], "--format: given twice, json before `verify` and table after it; give it once"),
        (&["-f", "junit"], "--format junit: inventory has no such format; use one of table, json, markdown, prometheus, nfd"),
        (&["-f", "json", "profiles"], "--format: profiles has one output and no --format; leave it out"),
        (&["-f", "json", "profile", "new"], "--format: profile new has one output"),
        (&["--format", "json", "capture", cap], "--format: capture has one output"),
        // After the name of a command without formats, clap itself refuses it.
        (&["profile", "new", "-f", "json"], "-f: not an option of profile new"),
        (&["diff", r, r, "--sysroot", REFERENCE], "--sysroot: diff compares the two reports or sysroots given to it"),
        (&["--sysroot", REFERENCE, "fleet", r], "--sysroot: fleet reads the reports and sysroots given to it"),
        (&["profiles", "--sysroot", REFERENCE], "--sysroot: profiles prints the built-in profiles"),
        (&["capture", cap, "--sysroot", REFERENCE], "--sysroot: capture records the live machine"),
        (&["bench", "--sysroot", REFERENCE], "--sysroot: bench measures this machine"),
        (&["capture", cap, "--redact"], "--redact: capture records the machine's files as they are"),
        (&["--color", "always", "profiles"], "--color always: profiles writes no colour; leave --color out"),
        (&["sheet", "--sysroot", REFERENCE, "--color", "always"], "--color always: sheet writes no colour"),
        (&["--profile", PROFILE, "diff", r, r], "--profile: before a command it belongs to the inventory"),
        (&["--sysroot", REFERENCE, "sheet", "--report", r], "--report: cannot be used with --sysroot; give only one of them"),
        (&["sheet", "--report", r, "--sysroot", REFERENCE], "--report: cannot be used with --sysroot; give only one of them"),
    ];
    for (args, want) in cases {
        let err = refused(args);
        assert!(
            err.starts_with(&format!("rigcheck: {want}")),
            "`{}`: {err}",
            args.join(" ")
        );
    }
    assert!(!cap_exists(cap), "a refused capture wrote nothing");
    // Where they apply they are honoured, before or after the command.
    let (code, out, _) = run(&[
        "--color",
        "always",
        "verify",
        "-p",
        PROFILE,
        "--sysroot",
        REFERENCE,
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("\u{1b}["), "colour asked for: {out}");
    let (_, out, _) = run(&[
        "verify",
        "-p",
        PROFILE,
        "--sysroot",
        REFERENCE,
        "--color",
        "never",
    ]);
    assert!(!out.contains('\u{1b}'), "{out}");
    let (code, out, _) = run(&["--sysroot", REFERENCE, "profile", "new"]);
    assert_eq!(code, 0);
    assert!(out.contains("name = \"z8-ref\""), "{out}");
}

fn cap_exists(p: &str) -> bool {
    Path::new(p).exists()
}

/// The host name and every serial and UUID of the reference machine, from its report.
fn secrets() -> Vec<String> {
    let (_, out, _) = run(&["--sysroot", REFERENCE, "-f", "json"]);
    let v: Value = serde_json::from_str(&out).unwrap();
    let mut s = vec![v["hostname"].as_str().unwrap().to_string()];
    for (list, key) in [("drives", "serial"), ("gpus", "uuid"), ("gpus", "serial")] {
        for item in v[list].as_array().unwrap() {
            if let Some(x) = item[key].as_str() {
                s.push(x.to_string());
            }
        }
    }
    for d in v["memory"]["dimms"].as_array().unwrap() {
        if let Some(x) = d["serial"].as_str() {
            s.push(x.to_string());
        }
    }
    s
}

#[test]
fn redact_works_for_every_output_of_every_command() {
    let secrets = secrets();
    assert!(secrets.len() >= 5, "{secrets:?}");
    assert!(secrets.contains(&"z8-ref".to_string()));
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path().join("z8-ref.json");
    let (_, json, _) = run(&["--sysroot", REFERENCE, "-f", "json"]);
    fs::write(&r, &json).unwrap();
    // The other report: a DIMM's serial and a drive's serial differ (swapped parts).
    let other = dir.path().join("other.json");
    let mut v: Value = serde_json::from_str(&json).unwrap();
    v["drives"][0]["serial"] = Value::String("S4EWNX0N999999".into());
    fs::write(&other, v.to_string()).unwrap();
    let (r, other) = (p(&r), p(&other));
    let s = dir.path().join("sheet.html");
    let runs: Vec<Vec<&str>> = vec![
        vec!["--sysroot", REFERENCE],
        vec!["--sysroot", REFERENCE, "-f", "json"],
        vec![
            "--sysroot",
            REFERENCE,
            "-f",
            "prometheus",
            "--profile",
            PROFILE,
        ],
        vec!["verify", "-p", PROFILE, "--sysroot", REFERENCE],
        vec![
            "verify",
            "-p",
            PROFILE,
            "--sysroot",
            REFERENCE,
            "-f",
            "json",
        ],
        vec![
            "verify",
            "-p",
            PROFILE,
            "--sysroot",
            REFERENCE,
            "-f",
            "junit",
        ],
        vec![
            "verify",
            "-p",
            PROFILE,
            "--sysroot",
            REFERENCE,
            "-f",
            "markdown",
        ],
        vec!["diff", r, other],
        vec!["diff", r, other, "-f", "json"],
        vec!["fleet", r, other],
        vec!["fleet", r, other, "-f", "json"],
        vec!["fleet", r, other, "-f", "prometheus"],
        vec!["fleet", r, other, "-f", "markdown"],
        vec!["preflight", "--sysroot", REFERENCE],
        vec!["preflight", "--sysroot", REFERENCE, "-f", "json"],
        vec!["profile", "new", "--sysroot", REFERENCE],
        vec!["sheet", "--sysroot", REFERENCE, "-f", "markdown"],
        vec!["sheet", "--sysroot", REFERENCE, "-o", p(&s), "--force"],
        vec!["profiles", "show", PROFILE],
    ];
    for args in runs {
        for place in ["before", "after"] {
            let mut a = args.clone();
            if place == "before" {
                a.insert(0, "--redact");
            } else {
                a.push("--redact");
            }
            let (code, mut out, err) = run(&a);
            assert!(code == 0 || code == 1, "`{}`: {err}", a.join(" "));
            if a.contains(&"-o") {
                out = fs::read_to_string(&s).unwrap();
            }
            for secret in &secrets {
                assert!(
                    !out.contains(secret.as_str()),
                    "`rigcheck {}` printed {secret}:\n{out}",
                    a.join(" ")
                );
            }
            // Where the plain output names the machine, the redacted one says what it hid.
            let (_, plain, _) = run(&args);
            if secrets.iter().any(|x| plain.contains(x.as_str())) && !a.contains(&"-o") {
                assert!(out.contains("[redacted"), "`{}`: {out}", a.join(" "));
            }
        }
    }
    // Without --redact the same outputs name the host: the test would see a leak.
    let (_, out, _) = run(&["verify", "-p", PROFILE, "--sysroot", REFERENCE]);
    assert!(out.contains("z8-ref"));
    // A replaced drive is still a change, with both serials hidden.
    let (code, out, _) = run(&["--redact", "diff", r, other, "-f", "json"]);
    let d: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(code, 1, "{out}");
    assert_eq!(d["unknown_on_one_side"], serde_json::json!([]));
    let c = &d["changes"][0];
    assert_eq!(c["what"], "drive replaced");
    assert_eq!(c["at"], "nvme0n1");
    assert!(
        c["before"].as_str().unwrap().ends_with("([redacted])"),
        "{c}"
    );
    assert!(
        c["after"].as_str().unwrap().ends_with("([redacted])"),
        "{c}"
    );
    // profile new names no host when redacted.
    let (_, out, _) = run(&["profile", "new", "--sysroot", REFERENCE, "--redact"]);
    assert!(out.contains("name = \"my-machine\""), "{out}");
}

#[test]
fn errors_are_one_line_in_one_shape() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A report that is a JSON array, one from a future rigcheck, a file name with a terminal
    // escape in it, a profile whose key carries one, a directory given as a file.
    let (_, json, _) = run(&["--sysroot", REFERENCE, "-f", "json"]);
    fs::write(d.join("array.json"), "[1, 2, 3]").unwrap();
    let mut v: Value = serde_json::from_str(&json).unwrap();
    v["schema_version"] = Value::from(2);
    fs::write(d.join("future.json"), v.to_string()).unwrap();
    let evil = d.join("evil\u{1b}]0;owned\u{7}.json");
    fs::write(&evil, "not json").unwrap();
    let evil_key = d.join("evil-key.toml");
    fs::write(&evil_key, "[cpu]\n\"soc\\u001b[2Jkets\" = 2\n").unwrap();
    let s = |name: &str| d.join(name).to_str().unwrap().to_string();
    let cases: Vec<(Vec<String>, String)> = vec![
        (
            vec!["diff".into(), s("array.json"), REFERENCE.into()],
            format!(
                "rigcheck: {}: not a rigcheck JSON report: it holds a JSON array, not a report object; make one with `rigcheck --format json`",
                s("array.json")
            ),
        ),
        (
            vec!["diff".into(), s("future.json"), REFERENCE.into()],
            format!(
                "rigcheck: {}: written by a newer rigcheck (schema_version 2; this one reads 1); upgrade rigcheck to read it",
                s("future.json")
            ),
        ),
        (
            vec!["diff".into(), p(&evil).into(), REFERENCE.into()],
            format!(
                "rigcheck: {}/evil\u{fffd}]0;owned\u{fffd}.json: not a rigcheck JSON report: expected ident at line 1 column 2; make one with `rigcheck --format json`",
                d.display()
            ),
        ),
        (
            vec!["verify".into(), "-p".into(), p(&evil_key).into(), "--sysroot".into(), REFERENCE.into()],
            format!(
                "rigcheck: {}:2:1: unknown field `soc\u{fffd}[2Jkets`; did you mean `sockets`?",
                p(&evil_key)
            ),
        ),
        (
            vec!["verify".into(), "-p".into(), d.to_str().unwrap().into(), "--sysroot".into(), REFERENCE.into()],
            format!("rigcheck: {}: is a directory; give a file", d.display()),
        ),
        (
            vec!["fleet".into(), s("nosuch.json")],
            format!("rigcheck: {}: no such file or directory; check the path", s("nosuch.json")),
        ),
        (
            vec!["preflight".into(), "--min-driver".into(), "abc".into()],
            "rigcheck: --min-driver: 'abc' is not a version; give numbers separated by dots, e.g. 535.104 or 12.2".into(),
        ),
        (
            vec!["preflight".into(), "--min-free-disk".into(), "500".into()],
            "rigcheck: --min-free-disk: '500' has no unit, so it means 500 bytes; write it with one, e.g. '500 GB'".into(),
        ),
        (
            vec!["verify".into(), "--frmat".into(), "json".into()],
            "rigcheck: --frmat: not an option of verify; did you mean --format?".into(),
        ),
        (
            vec!["profile".into()],
            "rigcheck: profile: needs a subcommand; `rigcheck profile --help` lists them".into(),
        ),
        (
            vec!["verfy".into()],
            "rigcheck: 'verfy': not a command of rigcheck; did you mean 'verify'?".into(),
        ),
        (
            vec!["verify".into()],
            "rigcheck: verify: --profile NAME|FILE is required; `rigcheck help verify` lists its options".into(),
        ),
        (
            vec!["--format".into(), "xml".into()],
            // Before any command the values listed are the inventory's (each command's
            // own are in its help; `-f junit verify` still works).
            "rigcheck: --format 'xml': not a value it takes; use one of table, json, markdown, prometheus, nfd".into(),
        ),
        (
            vec!["--sysroot".into(), "/nonexistent/rig".into()],
            "rigcheck: --sysroot '/nonexistent/rig': no such directory; give a directory made by `rigcheck capture DIR`".into(),
        ),
        (
            vec!["diff".into(), "-".into(), "-".into()],
            "rigcheck: diff: '-' given twice; standard input holds one report, give the other as a file".into(),
        ),
        (
            vec!["capture".into(), "-".into()],
            "rigcheck: capture: '-': a capture is a directory, not a stream; give a directory name".into(),
        ),
    ];
    for (args, want) in cases {
        let a: Vec<&str> = args.iter().map(String::as_str).collect();
        let err = refused(&a);
        assert!(
            err.starts_with(&want),
            "`{}`:\n got: {err}want: {want}",
            a.join(" ")
        );
    }
    if !cfg!(feature = "gpu-bench") {
        let err = refused(&["bench", "gpu"]);
        assert!(
            err.starts_with("rigcheck: bench gpu: this rigcheck was built without the GPU benchmark; rebuild it with"),
            "{err}"
        );
    }
    // Help and version are clap's, on stdout, exit 0.
    let (code, out, err) = run(&["--help"]);
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(
        out.starts_with("Inventory a workstation or GPU server"),
        "{out}"
    );
    let (code, out, _) = run(&["--version"]);
    assert_eq!(code, 0);
    // The version, and the commit when built from a clone: `rigcheck 0.1.0 (abc1234 2026-12-01)`.
    assert!(
        out.starts_with(&format!("rigcheck {}", env!("CARGO_PKG_VERSION"))) && out.ends_with('\n'),
        "{out}"
    );
    // A future report in a fleet is listed as unreadable, with the same reason.
    let (code, out, _) = run(&["fleet", &s("future.json"), "-f", "json"]);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert!(v["errors"][0]["error"]
        .as_str()
        .unwrap()
        .starts_with("written by a newer rigcheck (schema_version 2"));
}

#[test]
fn dash_is_standard_input_and_output() {
    let (_, json, _) = run(&["--sysroot", REFERENCE, "-f", "json"]);
    let (code, out, err) = run_with(&["diff", "-", REFERENCE], Some(json.clone().into_bytes()));
    assert_eq!(
        (code, out.as_str()),
        (0, "PASS: 0 hardware changes, 0 software changes\n"),
        "{err}"
    );
    let (code, out, _) = run_with(
        &["fleet", "-", "-f", "json"],
        Some(json.clone().into_bytes()),
    );
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["hosts"][0]["host"], "z8-ref");
    let (code, out, _) = run_with(
        &["sheet", "--report", "-", "-f", "markdown", "-o", "-"],
        Some(json.into_bytes()),
    );
    assert_eq!(code, 0);
    assert!(out.starts_with("# "), "{out}");
    let (code, toml, _) = run(&["profile", "new", "--sysroot", REFERENCE, "-o", "-"]);
    assert_eq!(code, 0);
    let (code, out, err) = run_with(
        &["verify", "--profile", "-", "--sysroot", REFERENCE],
        Some(toml.into_bytes()),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("verify z8-ref against z8-ref"), "{out}");
    let (code, _, err) = run_with(
        &["verify", "--profile", "-", "--sysroot", REFERENCE],
        Some(b"[cpu]\nsocket = 2\n".to_vec()),
    );
    assert_eq!(code, 2);
    assert!(
        err.starts_with("rigcheck: <stdin>:2:1: unknown field `socket`"),
        "{err}"
    );
}

#[test]
fn profile_new_writes_valid_toml_from_hostile_machine_strings() {
    // DMI strings with newlines, quotes, backslashes and terminal escapes, and a GPU name
    // with a line that looks like TOML: before, `vendor = """` split across lines made
    // invalid TOML.
    let copy = reference_copy();
    let id = copy.path().join("sys/devices/virtual/dmi/id");
    fs::write(id.join("sys_vendor"), "HP\nevil = 1\n").unwrap();
    fs::write(
        id.join("product_name"),
        "HP Z8\u{1b}]0;owned\u{7} G4\u{7f}\u{1}\"\\ x\n",
    )
    .unwrap();
    let nvml = copy.path().join("nvml.json");
    let mut v: Value = serde_json::from_str(&fs::read_to_string(&nvml).unwrap()).unwrap();
    for d in v["devices"].as_array_mut().unwrap() {
        d["name"] = serde_json::json!({"ok": "Quadro RTX 6000\n[system]\nvendor = 'x'"});
    }
    fs::write(&nvml, v.to_string()).unwrap();
    let root = copy.path().to_str().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let golden = dir.path().join("golden.toml");
    let (code, _, err) = run(&["profile", "new", "--sysroot", root, "-o", p(&golden)]);
    assert_eq!(code, 0, "{err}");
    let text = fs::read_to_string(&golden).unwrap();
    let doc: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(doc["system"]["vendor"].as_str(), Some("HP\nevil = 1"));
    assert_eq!(doc["gpus"][0]["count"].as_integer(), Some(2));
    // The profile made from it reads back; the machine then fails its model line, because
    // a GPU named so is not the Quadro RTX 6000 its PCI id says, and the note says why.
    let (code, out, _) = run(&["verify", "-p", p(&golden), "--sysroot", root]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("identity contradicted: GPU 0: NVML names it"),
        "{out}"
    );
}

/// One option as a command's `--help` lists it: the long name, the value placeholder, and
/// the values listed under "Possible values".
#[derive(Debug)]
struct Listed {
    long: String,
    value: Option<String>,
    values: Vec<String>,
}

/// The options and the commands `rigcheck <command> --help` lists.
fn help_of(command: &[String]) -> (Vec<Listed>, Vec<String>) {
    let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
    args.push("--help");
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "`{}`: {err}", args.join(" "));
    let (mut options, mut commands) = (Vec::<Listed>::new(), Vec::new());
    let mut section = "";
    let mut in_values = false;
    for line in out.lines() {
        if !line.starts_with(' ') && line.ends_with(':') {
            section = line;
            continue;
        }
        let body = line.trim_start();
        let indent = line.len() - body.len();
        match section {
            "Commands:" if indent == 2 && !body.is_empty() => {
                let name = body.split_whitespace().next().unwrap();
                if name != "help" {
                    commands.push(name.to_string());
                }
            }
            "Options:" if (indent == 2 || indent == 6) && body.starts_with('-') => {
                let long = body
                    .split([',', ' '])
                    .find(|w| w.starts_with("--"))
                    .unwrap_or_else(|| panic!("no long name: {line}"));
                let value = body
                    .split_once('<')
                    .map(|(_, v)| v.trim_end_matches('>').to_string());
                options.push(Listed {
                    long: long.to_string(),
                    value,
                    values: Vec::new(),
                });
                in_values = false;
            }
            "Options:" if body == "Possible values:" => in_values = true,
            "Options:" if in_values && body.starts_with("- ") => {
                let name = body[2..].split(':').next().unwrap().trim();
                options.last_mut().unwrap().values.push(name.to_string());
            }
            "Options:" if in_values && !body.is_empty() && !body.starts_with("- ") => {
                in_values = false;
            }
            _ => {}
        }
    }
    (options, commands)
}

#[test]
fn every_option_a_help_lists_is_one_the_command_takes() {
    let dir = tempfile::tempdir().unwrap();
    let (report, _) = reference_report(dir.path());
    let r = p(&report).to_string();
    let tmp = |name: &str| p(&dir.path().join(name)).to_string();
    fs::write(dir.path().join("data.bin"), vec![7u8; 1 << 20]).unwrap();
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    // A run of each command that works on its own; an option is tried by adding it.
    let base = |command: &str| -> Vec<String> {
        match command {
            "" => s(&["--sysroot", REFERENCE]),
            "inventory" | "verify" | "preflight" | "sheet" | "profile new" => {
                let mut a: Vec<String> = command.split(' ').map(String::from).collect();
                a.extend(s(&["--sysroot", REFERENCE]));
                match command {
                    "verify" => a.extend(s(&["--profile", PROFILE])),
                    "sheet" => a.push("--stdout".into()),
                    _ => {}
                }
                a
            }
            "capture" => s(&["capture", &tmp("cap")]),
            "profiles" => s(&["profiles"]),
            "profiles show" => s(&["profiles", "show", PROFILE]),
            "profile" => s(&["profile", "new", "--sysroot", REFERENCE]),
            "diff" => s(&["diff", REFERENCE, &r]),
            "fleet" => s(&["fleet", &r]),
            "bench" => s(&[
                "bench",
                "disk",
                "--seconds",
                "0.2",
                "--data",
                &tmp("data.bin"),
            ]),
            "completions" => s(&["completions", "bash"]),
            "man" => s(&["man"]),
            "schema" => s(&["schema"]),
            other => panic!("`{other}` is new: give it a run that works here"),
        }
    };
    // Options that need company, or a value only they take.
    let special = |command: &str, long: &str| -> Option<Vec<String>> {
        Some(match (command, long) {
            ("" | "inventory", "--profile") => {
                let mut a = base(command);
                a.extend(s(&["-f", "prometheus", "--profile", PROFILE]));
                a
            }
            ("sheet", "--output" | "--force") => s(&[
                "sheet",
                "--sysroot",
                REFERENCE,
                "-o",
                &tmp("s.html"),
                "--force",
            ]),
            // A copy reads no machine: without --sysroot.
            ("profile new", "--from") => s(&["profile", "new", "--from", PROFILE]),
            ("sheet", "--report") => s(&["sheet", "--report", &r, "--stdout"]),
            // Measuring is live (a recording is refused), in a short budget, the disk part
            // in the test's own directory.
            ("verify", "--measure" | "--seconds" | "--data") => s(&[
                "verify",
                "--profile",
                PROFILE,
                "--measure",
                "--seconds",
                "0.2",
                "--data",
                p(dir.path()),
            ]),
            ("profile new", "--output" | "--force") => s(&[
                "profile",
                "new",
                "--sysroot",
                REFERENCE,
                "-o",
                &tmp("p.toml"),
                "--force",
            ]),
            ("capture", "--force") => s(&["capture", &tmp("cap"), "--force"]),
            // --compact lays out JSON: with the command's JSON format.
            (_, "--compact") => {
                let mut a = base(command);
                a.extend(s(&["-f", "json", "--compact"]));
                a
            }
            ("schema", "--write") => s(&["schema", "--write", &tmp("schemas")]),
            _ => return None,
        })
    };
    let sample = |long: &str, value: &str| -> String {
        match (long, value) {
            ("--sysroot", _) => REFERENCE.into(),
            (_, "NAME|FILE" | "PROFILE") => PROFILE.into(),
            ("--name", _) => "z8".into(),
            ("--from", _) => PROFILE.into(),
            (_, "N") => "1".into(),
            (_, "SIZE") => "1GiB".into(),
            (_, "CELSIUS") => "85".into(),
            (_, "VERSION") => "1.0".into(),
            ("--data", _) => p(dir.path()).into(),
            ("--seconds", _) => "0.2".into(),
            _ => panic!("{long} <{value}>: no sample value; add one"),
        }
    };
    let mut todo: Vec<Vec<String>> = vec![Vec::new()];
    let (mut commands, mut tried) = (0, 0);
    while let Some(command) = todo.pop() {
        commands += 1;
        let (options, under) = help_of(&command);
        for sub in under {
            let mut c = command.clone();
            c.push(sub);
            todo.push(c);
        }
        let name = command.join(" ");
        for o in &options {
            let runs: Vec<Vec<String>> = match special(&name, &o.long) {
                Some(a) => vec![a],
                None => {
                    let with = |v: Option<&str>| {
                        let mut a = base(&name);
                        if !a.contains(&o.long) {
                            a.push(o.long.clone());
                            a.extend(v.map(String::from));
                        }
                        a
                    };
                    match (&o.value, o.values.is_empty()) {
                        (None, _) => vec![with(None)],
                        (Some(v), true) => vec![with(Some(&sample(&o.long, v)))],
                        (Some(_), false) => o.values.iter().map(|v| with(Some(v))).collect(),
                    }
                }
            };
            for a in runs {
                let a: Vec<&str> = a.iter().map(String::as_str).collect();
                let (code, _, err) = run(&a);
                tried += 1;
                assert_ne!(
                    code,
                    2,
                    "`rigcheck {}` --help lists {}, but `rigcheck {}` refuses it: {err}",
                    name,
                    o.long,
                    a.join(" ")
                );
                let _ = fs::remove_dir_all(dir.path().join("cap"));
            }
        }
    }
    // Every command, and the ones under `profile` and `profiles`, was walked.
    assert!(commands >= 15, "{commands} commands");
    assert!(tried >= 100, "{tried} runs");
}
