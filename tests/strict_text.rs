//! The text output is as strict as the JSON: a host or profile name holding a line break or
//! a bidirectional control cannot forge a verdict line or reorder one, machine strings never
//! become live Markdown, `CLICOLOR_FORCE=0` does not colour a pipe, and the inputs a command
//! cannot honour (a schema never written, `--profile` where nothing shows it, standard input
//! named twice) are refused with one line. Each hostile input is made here, on a copy.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{
    add_usb_stick, copy_tree, reference_copy, reference_report, run, run_with, REFERENCE,
};
use std::fs;
use std::path::Path;

/// Every character that may start a line or reorder one: line breaks, NEL, the Unicode line
/// and paragraph separators, and the bidirectional controls.
const HOSTILE: &[char] = &[
    '\r', '\u{0b}', '\u{0c}', '\u{85}', '\u{2028}', '\u{2029}', '\u{61c}', '\u{200e}', '\u{200f}',
    '\u{202a}', '\u{202b}', '\u{202c}', '\u{202d}', '\u{202e}', '\u{2066}', '\u{2067}', '\u{2068}',
    '\u{2069}',
];

/// A name that, printed raw, would put a passing verdict on a line of its own and then
/// reverse what follows.
fn forged(prefix: &str) -> String {
    let mut s = format!("{prefix}\nPASS: 0 fail, 0 unknown, 22 pass · 22 checks\n");
    s.extend(HOSTILE.iter());
    s.push_str("PASS: 0 fail");
    s
}

/// The verdict word an exit code stands for.
fn word_of(code: i32) -> &'static str {
    match code {
        0 => "PASS",
        1 => "FAIL",
        3 => "INCOMPLETE",
        other => panic!("exit code {other} has no verdict"),
    }
}

/// No hostile character on any line of `out`, and no line but the last opens with a verdict.
fn assert_clean(out: &str, what: &str) {
    assert_answered(out, what, None);
}

/// As `assert_clean`, for an output whose line `answer` (from 0) is its verdict in words,
/// put first so the answer is on the first screen: that line may open with a verdict, and
/// with the same word as the last. A name that forged a line break before it would push it
/// down, so a verdict anywhere else is still a forgery.
fn assert_answered(out: &str, what: &str, answer: Option<usize>) {
    assert!(
        !out.contains(HOSTILE),
        "{what}: a hostile character reached the output:\n{out}"
    );
    let verdict = |l: &str| {
        let l = l.trim_start_matches(['*', ' ']);
        ["PASS:", "FAIL:", "INCOMPLETE:"]
            .into_iter()
            .find(|w| l.starts_with(w))
    };
    let lines: Vec<&str> = out.lines().collect();
    let last = lines.last().and_then(|l| verdict(l));
    for (i, l) in lines.iter().enumerate().take(lines.len().saturating_sub(1)) {
        let Some(word) = verdict(l) else { continue };
        assert!(
            Some(i) == answer && Some(word) == last,
            "{what}: a forged verdict line: {l:?}\n{out}"
        );
    }
}

/// The last line of `out` opens with the verdict `code` stands for.
fn assert_last_line_is_verdict(out: &str, code: i32, what: &str) {
    let last = out.lines().last().unwrap_or_default();
    let last = last.trim_start_matches('*');
    assert!(
        last.starts_with(&format!("{}:", word_of(code))),
        "{what}: exit {code} but the last line is {last:?}"
    );
}

/// A copy of the reference machine whose host name is `name`.
fn host_named(name: &str) -> tempfile::TempDir {
    let t = reference_copy();
    fs::write(
        t.path().join("proc/sys/kernel/hostname"),
        format!("{name}\n"),
    )
    .unwrap();
    t
}

/// The reference profile with `[profile] name` set to `name` (TOML-escaped), in `dir`.
fn profile_named(dir: &Path, name: &str) -> String {
    let text = fs::read_to_string("profiles/hp-z8-g4-dual-rtx8000.toml").unwrap();
    let quoted = toml_quote(name);
    let text = text.replace(
        "name = \"hp-z8-g4-dual-rtx8000\"",
        &format!("name = {quoted}"),
    );
    assert!(text.contains(&quoted));
    let p = dir.join("hostile.toml");
    fs::write(&p, text).unwrap();
    p.to_string_lossy().into_owned()
}

/// A TOML basic string holding `s`, every non-ASCII or control character as `\uXXXX`.
fn toml_quote(s: &str) -> String {
    let mut o = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            c if c.is_ascii() && !c.is_control() => o.push(c),
            c => o.push_str(&format!("\\u{:04X}", c as u32)),
        }
    }
    o.push('"');
    o
}

#[test]
fn a_hostile_host_name_cannot_forge_the_verdict_of_verify() {
    let t = host_named(&forged("z8"));
    let root = t.path().to_str().unwrap();
    for profile in [
        "profiles/hp-z8-g4-dual-rtx6000.toml",
        "profiles/hp-z8-g4-dual-rtx8000.toml",
    ] {
        let verify = |format: &str| {
            run(&[
                "--sysroot",
                root,
                "verify",
                "--profile",
                profile,
                "-f",
                format,
            ])
        };
        let (code, out, err) = verify("table");
        assert!([0, 1, 3].contains(&code), "{err}");
        assert_answered(&out, "verify table", Some(1));
        assert_last_line_is_verdict(&out, code, "verify table");
        let (code_md, md, _) = verify("markdown");
        assert_eq!(code_md, code);
        assert_clean(&md, "verify markdown");
        assert_last_line_is_verdict(&md, code, "verify markdown");
        let (_, xml, _) = verify("junit");
        assert!(!xml.contains(HOSTILE), "{xml}");
        // Every line of the XML is markup: the host name put none of its own.
        for l in xml.lines() {
            assert!(l.trim_start().starts_with('<'), "junit line {l:?}");
        }
    }
}

#[test]
fn a_hostile_profile_name_cannot_forge_the_verdict_of_verify() {
    let dir = tempfile::tempdir().unwrap();
    let profile = profile_named(dir.path(), &forged("order"));
    let (code, out, err) = run(&["--sysroot", REFERENCE, "verify", "--profile", &profile]);
    assert_eq!(code, 1, "the reference machine is no RTX 8000 order: {err}");
    assert_answered(&out, "verify", Some(1));
    assert_last_line_is_verdict(&out, code, "verify");
    assert!(out.contains("order\u{fffd}PASS: 0 fail"), "{out}");
    // The same name in the other one-line places: JUnit attributes, Prometheus labels, the
    // fleet's heading and summary.
    let (_, xml, _) = run(&[
        "--sysroot",
        REFERENCE,
        "verify",
        "--profile",
        &profile,
        "-f",
        "junit",
    ]);
    assert!(!xml.contains(HOSTILE), "{xml}");
    for l in xml.lines() {
        assert!(l.trim_start().starts_with('<'), "junit line {l:?}");
    }
    let (code, prom, err) = run(&[
        "--sysroot",
        REFERENCE,
        "-f",
        "prometheus",
        "--profile",
        &profile,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(!prom.contains(HOSTILE), "{prom}");
    for l in prom.lines() {
        assert!(l.starts_with("rigcheck_") || l.starts_with('#'), "{l:?}");
    }
    let (report, _) = reference_report(dir.path());
    let (code, out, err) = run(&["fleet", report.to_str().unwrap(), "--profile", &profile]);
    assert!([0, 1, 3].contains(&code), "{err}");
    assert_answered(&out, "fleet", Some(0));
    assert_last_line_is_verdict(&out, code, "fleet");
}

#[test]
fn a_hostile_host_name_stays_on_one_line_in_every_report() {
    let t = host_named(&forged("z8"));
    let root = t.path().to_str().unwrap();
    for format in ["table", "markdown", "prometheus", "nfd"] {
        let (code, out, err) = run(&["--sysroot", root, "-f", format]);
        assert_eq!(code, 0, "{format}: {err}");
        assert_clean(&out, format);
    }
    let (_, sheet, _) = run(&["--sysroot", root, "sheet", "--stdout", "-f", "markdown"]);
    assert_clean(&sheet, "sheet");
    let (_, html, _) = run(&["--sysroot", root, "sheet", "--stdout"]);
    let title = html.lines().find(|l| l.starts_with("<title>")).unwrap();
    assert!(title.ends_with("</title>"), "{title}");
    // `profile new` names the profile after the host: one line, and verify of it too.
    let (code, text, err) = run(&["--sysroot", root, "profile", "new"]);
    assert_eq!(code, 0, "{err}");
    assert!(!text.contains(HOSTILE), "{text}");
    let name = text.lines().find(|l| l.starts_with("name = ")).unwrap();
    assert!(!name.contains("\\n") && !name.contains("\\u"), "{name}");
    let (code, out, _) = run_with(
        &["--sysroot", root, "verify", "--profile", "-"],
        Some(text.into()),
    );
    assert_answered(&out, "verify of profile new", Some(1));
    assert_last_line_is_verdict(&out, code, "verify of profile new");
}

#[test]
fn machine_strings_show_as_written_in_markdown() {
    let t = reference_copy();
    // Read from sysfs as `dmidecode -s system-product-name` prints it.
    fs::write(
        t.path().join("sys/class/dmi/id/product_name"),
        "[a](//x)**b**_c_<d>! `e` ~f~ # > www.g.co u@h.i https://j.k x86_64\n",
    )
    .unwrap();
    let root = t.path().to_str().unwrap();
    let (code, md, err) = run(&["--sysroot", root, "-f", "markdown"]);
    assert_eq!(code, 0, "{err}");
    let (code, sheet, err) = run(&["--sysroot", root, "sheet", "--stdout", "-f", "markdown"]);
    assert_eq!(code, 0, "{err}");
    for (what, out) in [("inventory", &md), ("sheet", &sheet)] {
        assert!(
            out.contains(
                r"\[a\](//x)\*\*b\*\*\_c\_&lt;d\>\! \`e\` \~f\~ \# \> www\.g.co u\@h.i https\://j.k x86_64"
            ),
            "{what}: product not escaped:\n{out}"
        );
        assert!(
            !out.contains("[a](//x)") && !out.contains("**b**"),
            "{what}"
        );
    }
    // The heading of the sheet holds the product too.
    let head = sheet.lines().next().unwrap();
    assert!(head.starts_with("# ") && head.contains(r"\[a\]"), "{head}");
}

#[test]
fn clicolor_force_0_does_not_colour_a_pipe() {
    let colour = |force: &str| {
        let out = common::rigcheck()
            .env("TERM", "xterm-256color")
            .env("CLICOLOR_FORCE", force)
            .args(["--sysroot", REFERENCE])
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap().contains("\u{1b}[")
    };
    assert!(!colour("0"), "CLICOLOR_FORCE=0 coloured a pipe");
    assert!(colour("1"), "CLICOLOR_FORCE=1 must colour a pipe");
}

#[test]
fn diff_counts_a_removable_medium_apart_from_software() {
    let a = reference_copy();
    let b = tempfile::tempdir().unwrap();
    copy_tree(a.path(), b.path());
    add_usb_stick(b.path());
    let (pa, pb) = (a.path().to_str().unwrap(), b.path().to_str().unwrap());
    let (code, out, err) = run(&["diff", pa, pb]);
    assert_eq!(code, 0, "a USB stick is not the machine's hardware: {err}");
    assert_eq!(
        out.lines().last().unwrap(),
        "PASS: 0 hardware changes, 0 software changes, 1 removable medium change",
        "{out}"
    );
    let (_, json, _) = run(&["diff", pa, pb, "-f", "json"]);
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["summary"]["removable_changes"], 1, "{json}");
    assert_eq!(v["summary"]["software_changes"], 0, "{json}");
    assert_eq!(v["summary"]["hardware_changes"], 0, "{json}");
}

#[test]
fn a_report_of_schema_version_0_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (good, text) = reference_report(dir.path());
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["schema_version"] = 0.into();
    let bad = dir.path().join("v0.json");
    fs::write(&bad, serde_json::to_string(&v).unwrap()).unwrap();
    let (code, out, err) = run(&["diff", good.to_str().unwrap(), bad.to_str().unwrap()]);
    assert_eq!(code, 2, "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("v0.json") && err.contains("schema_version 0"),
        "{err}"
    );
    let (code, _, err) = run(&["sheet", "--report", bad.to_str().unwrap(), "--stdout"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn profile_given_to_an_inventory_that_cannot_show_it_is_refused() {
    for format in ["table", "json", "markdown"] {
        let (code, out, err) = run(&[
            "--sysroot",
            REFERENCE,
            "-f",
            format,
            "--profile",
            "profiles/hp-z8-g4-dual-rtx6000.toml",
        ]);
        assert_eq!(code, 2, "{format}: {out}");
        assert!(out.is_empty(), "{format}: {out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("--profile") && err.contains("verify"), "{err}");
    }
    // Where the format carries the check, it is honoured.
    let (code, out, err) = run(&[
        "--sysroot",
        REFERENCE,
        "-f",
        "prometheus",
        "--profile",
        "profiles/hp-z8-g4-dual-rtx6000.toml",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("profile=\"hp-z8-g4-dual-rtx6000\""), "{out}");
}

#[test]
fn standard_input_is_not_read_twice() {
    let dir = tempfile::tempdir().unwrap();
    let (_, report) = reference_report(dir.path());
    for args in [
        &["sheet", "--report", "-", "--profile", "-", "--stdout"][..],
        &["fleet", "-", "--profile", "-"][..],
    ] {
        let (code, out, err) = run_with(args, Some(report.clone().into_bytes()));
        assert_eq!(code, 2, "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains("standard input"), "{err}");
    }
}

/// A file name of 255 bytes is legal (NAME_MAX): the temporary beside it must fit too, and
/// a name past the limit is reported under the user's name, not the temporary's.
#[test]
fn output_files_with_the_longest_legal_name_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let long = format!("{}.md", "s".repeat(252));
    assert_eq!(long.len(), 255);
    let out = dir.path().join(&long);
    let (code, _, err) = run(&[
        "--sysroot",
        REFERENCE,
        "sheet",
        "-f",
        "markdown",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(fs::read_to_string(&out).unwrap().starts_with("# "));
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);

    let too_long = dir.path().join("t".repeat(256));
    let (code, _, err) = run(&[
        "--sysroot",
        REFERENCE,
        "profile",
        "new",
        "-o",
        too_long.to_str().unwrap(),
    ]);
    assert_ne!(code, 0);
    assert!(err.contains(&"t".repeat(256)), "{err}");
    // The temporary would be `.ttt…~HASH.PID.tmp`.
    assert!(!err.contains("/.ttt"), "the temporary is named: {err}");
}

#[cfg(target_os = "linux")]
#[test]
fn capture_into_the_longest_legal_name_works() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("c".repeat(255));
    let (code, _, err) = run(&["capture", target.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(target.join("capture.json").is_file());
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);

    let too_long = dir.path().join("d".repeat(256));
    let (code, _, err) = run(&["capture", too_long.to_str().unwrap()]);
    assert_ne!(code, 0);
    assert!(err.contains(&"d".repeat(256)), "{err}");
    assert!(
        !err.contains("rigcheck-tmp"),
        "the temporary is named: {err}"
    );
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        1,
        "a temporary is left"
    );
}

#[test]
fn a_hostile_host_name_cannot_forge_the_answer_of_preflight() {
    // Before, the host name's newline put "PASS: 0 fail, …" on the second line, where the
    // answer goes, while the exit code was 1.
    let t = host_named(&forged("z8"));
    let root = t.path().to_str().unwrap();
    let (code, out, err) = run(&["--sysroot", root, "preflight", "--color", "never"]);
    assert!([0, 1, 3].contains(&code), "{err}");
    assert_answered(&out, "preflight", Some(1));
    assert_last_line_is_verdict(&out, code, "preflight");
}

#[test]
fn a_hostile_profile_description_cannot_forge_a_line_of_verify() {
    let dir = tempfile::tempdir().unwrap();
    let text = fs::read_to_string("profiles/hp-z8-g4-dual-rtx8000.toml").unwrap();
    let old = "description = \"HP Z8 G4, 2 × Xeon Gold 6254, 2 × Quadro RTX 8000 48 GB, 96 GB RAM, 2 × 1 TB NVMe\"";
    assert!(text.contains(old));
    let p = dir.path().join("described.toml");
    fs::write(
        &p,
        text.replace(
            old,
            &format!("description = {}", toml_quote(&forged("order"))),
        ),
    )
    .unwrap();
    let (code, out, err) = run(&[
        "--sysroot",
        REFERENCE,
        "verify",
        "--profile",
        p.to_str().unwrap(),
        "--color",
        "never",
    ]);
    assert_eq!(code, 1, "{err}");
    assert_answered(&out, "verify", Some(1));
    assert_last_line_is_verdict(&out, code, "verify");
    assert!(out.contains("order\u{fffd}PASS: 0 fail"), "{out}");
}

#[test]
fn a_hostile_host_name_cannot_forge_a_line_of_fleet() {
    // Three reports of one machine, the first by name (the configuration's example, named in
    // "Most common configuration") carrying a forged host name.
    let dir = tempfile::tempdir().unwrap();
    let (_, text) = reference_report(dir.path());
    let fleet = dir.path().join("fleet");
    fs::create_dir(&fleet).unwrap();
    for (file, host) in [
        ("a.json", forged("a")),
        ("b.json", "b".into()),
        ("c.json", "c".into()),
    ] {
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v["hostname"] = serde_json::Value::String(host);
        fs::write(fleet.join(file), v.to_string()).unwrap();
    }
    for format in ["table", "markdown"] {
        let (code, out, err) = run(&["fleet", fleet.to_str().unwrap(), "-f", format]);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains("Most common configuration"), "{out}");
        assert_answered(&out, &format!("fleet {format}"), Some(0));
        assert_last_line_is_verdict(&out, code, &format!("fleet {format}"));
    }
}
