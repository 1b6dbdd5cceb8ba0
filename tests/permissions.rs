//! The CLI run as an unprivileged user (nobody, via `setpriv`) on a copy of the reference
//! machine whose root-only files are mode 0400 and owned by root, as on a real host: DMI
//! serials/UUID and the SMBIOS tables. Every such field must be null with a "needs root"
//! note, everything else as root sees it, and the exit codes unchanged.
//!
//! Needs root (to hand files to root and switch to nobody) and `setpriv`; skipped with a
//! message otherwise, unless RIGCHECK_REQUIRE_TOOLS=1 makes a missing tool a failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]
#![cfg(unix)]

mod common;

use common::notes_on;
use std::fs;
use std::os::unix::fs::{symlink, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use serde_json::Value;

const NOBODY: &str = "65534";

/// Root-only files of sysfs (see fs/sysfs and drivers/firmware/dmi-id.c), relative to the
/// DMI id directory of the fixture.
const ROOT_ONLY_DMI: &[(&str, &str, &str)] = &[
    ("product_serial", "system.serial", "CZC9123ABC"),
    (
        "product_uuid",
        "system.uuid",
        "4c4c4544-0031-3310-8052-b4c04f4e4e32",
    ),
    ("board_serial", "system.board_serial", "PXWMC0ABCD1234"),
];

fn can_switch_user() -> bool {
    // SAFETY: geteuid has no preconditions.
    #[allow(unsafe_code)]
    let root = unsafe { libc::geteuid() } == 0;
    let setpriv = Command::new("setpriv").arg("--version").output().is_ok();
    if root && setpriv {
        return true;
    }
    let why = if root {
        "setpriv not found"
    } else {
        "not running as root"
    };
    if std::env::var("RIGCHECK_REQUIRE_TOOLS").as_deref() == Ok("1") {
        panic!("permission tests need root and setpriv: {why}");
    }
    eprintln!("skipped: permission tests need root and setpriv ({why})");
    false
}

fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    fs::set_permissions(to, fs::Permissions::from_mode(0o755)).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let ft = e.file_type().unwrap();
        let dst = to.join(e.file_name());
        if ft.is_symlink() {
            symlink(fs::read_link(e.path()).unwrap(), &dst).unwrap();
        } else if ft.is_dir() {
            copy_tree(&e.path(), &dst);
        } else {
            fs::copy(e.path(), &dst).unwrap();
            fs::set_permissions(&dst, fs::Permissions::from_mode(0o644)).unwrap();
        }
    }
}

/// A world-traversable copy of the reference machine with root-only files in place, and the
/// binary and profile copied next to it so nobody can reach them.
struct Setup {
    _dir: tempfile::TempDir,
    root: PathBuf,
    bin: PathBuf,
    profile: PathBuf,
}

fn setup() -> Setup {
    let dir = tempfile::tempdir().unwrap();
    fs::set_permissions(dir.path(), fs::Permissions::from_mode(0o755)).unwrap();
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = dir.path().join("z8");
    copy_tree(&manifest.join("fixtures/hp-z8-g4-dual-rtx6000"), &root);
    let id = root.join("sys/devices/virtual/dmi/id");
    for (file, _, value) in ROOT_ONLY_DMI {
        fs::write(id.join(file), format!("{value}\n")).unwrap();
    }
    let mut root_only: Vec<PathBuf> = ROOT_ONLY_DMI.iter().map(|(f, _, _)| id.join(f)).collect();
    root_only.push(root.join("sys/firmware/dmi/tables/DMI"));
    root_only.push(root.join("sys/firmware/dmi/tables/smbios_entry_point"));
    for p in &root_only {
        fs::set_permissions(p, fs::Permissions::from_mode(0o400)).unwrap();
    }
    let bin = dir.path().join("rigcheck");
    fs::copy(assert_cmd::cargo::cargo_bin("rigcheck"), &bin).unwrap();
    fs::set_permissions(&bin, fs::Permissions::from_mode(0o755)).unwrap();
    let profile = dir.path().join("profile.toml");
    fs::copy(
        manifest.join("profiles/hp-z8-g4-dual-rtx6000.toml"),
        &profile,
    )
    .unwrap();
    fs::set_permissions(&profile, fs::Permissions::from_mode(0o644)).unwrap();
    Setup {
        _dir: dir,
        root,
        bin,
        profile,
    }
}

/// Runs the binary as root or as nobody, with a timeout.
fn run(s: &Setup, as_nobody: bool, args: &[&str]) -> Output {
    let mut c = if as_nobody {
        let mut c = Command::new("setpriv");
        c.args([
            &format!("--reuid={NOBODY}"),
            &format!("--regid={NOBODY}"),
            "--clear-groups",
            "--",
        ])
        .arg(&s.bin);
        c
    } else {
        Command::new(&s.bin)
    };
    c.env("TERM", "dumb").current_dir(s.root.parent().unwrap());
    c.arg("--sysroot").arg(&s.root).args(args);
    let mut child = c
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("rigcheck {args:?} hung");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    out
}

fn json(out: &Output) -> Value {
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn inventory_as_nobody_nulls_root_only_fields_with_needs_root() {
    if !can_switch_user() {
        return;
    }
    let s = setup();
    let as_root = run(&s, false, &["--format", "json"]);
    let as_nobody = run(&s, true, &["--format", "json"]);
    assert_eq!(as_root.status.code(), Some(0));
    assert_eq!(as_nobody.status.code(), Some(0));
    let (r, n) = (json(&as_root), json(&as_nobody));
    for (_, field, value) in ROOT_ONLY_DMI {
        let key = field.strip_prefix("system.").unwrap();
        assert_eq!(r["system"][key], *value, "root reads {field}");
        assert!(n["system"][key].is_null(), "nobody read {field}");
        let notes = notes_on(&n, field);
        assert!(
            notes.iter().any(|w| w.contains("needs root")),
            "{field}: {notes:?}"
        );
    }
    // SMBIOS: root sees the 12 DIMMs; nobody gets none and a note saying why.
    assert_eq!(r["memory"]["dimms"].as_array().unwrap().len(), 12);
    assert!(n["memory"]["dimms"]
        .as_array()
        .is_none_or(|d| d.iter().all(|x| x["size_bytes"].is_null())));
    assert!(
        n["notes"].to_string().contains("SMBIOS tables need root"),
        "{}",
        n["notes"]
    );
    // What is world-readable is the same for both.
    for (section, key) in [
        ("system", "product"),
        ("cpu", "threads"),
        ("cpu", "model"),
        ("memory", "usable_bytes"),
    ] {
        assert_eq!(r[section][key], n[section][key], "{section}.{key}");
    }
    assert_eq!(n["cpu"]["threads"], 72);
    assert_eq!(r["drives"], n["drives"]);
    assert_eq!(r["gpus"], n["gpus"]);
}

#[test]
fn verify_as_nobody_keeps_the_exit_code() {
    if !can_switch_user() {
        return;
    }
    let s = setup();
    let profile = s.profile.to_str().unwrap().to_string();
    let args = ["verify", "--profile", profile.as_str(), "--format", "json"];
    let as_root = run(&s, false, &args);
    let as_nobody = run(&s, true, &args);
    assert_eq!(
        as_root.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&as_root.stdout)
    );
    // Without root the DIMM lines cannot be checked: the verdict is INCOMPLETE (exit 3),
    // never a pass of what was not seen, and never a failure either.
    assert_eq!(
        as_nobody.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&as_nobody.stdout)
    );
    let v: Value = serde_json::from_slice(&as_nobody.stdout).unwrap();
    assert_eq!(v["outcome"], "incomplete");
    assert_eq!(v["summary"]["fail"], 0);
    let unknown: Vec<&str> = v["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["status"] == "unknown")
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        unknown,
        [
            "memory.dimm_count",
            "memory.dimm_size",
            "memory.dimm_speed",
            "memory.dimm_type"
        ]
    );
    // The total is still checked, against MemTotal, and passes.
    let total = v["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == "memory.total")
        .unwrap();
    assert_eq!(total["status"], "pass", "{total}");
    assert!(
        total["found"].as_str().unwrap().contains("(MemTotal)"),
        "{total}"
    );
    // --allow-unknown gives the old answer: exit 0, as root.
    let mut allow = args.to_vec();
    allow.push("--allow-unknown");
    assert_eq!(run(&s, true, &allow).status.code(), Some(0));
}

#[test]
fn capture_as_nobody_completes_and_names_what_it_could_not_read() {
    if !can_switch_user() {
        return;
    }
    let s = setup();
    let out_dir = s.root.parent().unwrap().join("nobody-out");
    fs::create_dir(&out_dir).unwrap();
    // SAFETY: chown(2) with a valid NUL-terminated path.
    let c = std::ffi::CString::new(out_dir.to_str().unwrap()).unwrap();
    #[allow(unsafe_code)]
    let rc = unsafe { libc::chown(c.as_ptr(), 65534, 65534) };
    assert_eq!(rc, 0);
    let cap = out_dir.join("cap");
    let out = Command::new("setpriv")
        .args([
            &format!("--reuid={NOBODY}"),
            &format!("--regid={NOBODY}"),
            "--clear-groups",
            "--",
        ])
        .arg(&s.bin)
        .arg("capture")
        .arg(&cap)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.starts_with("captured "), "{stdout}");
    assert!(cap.join("capture.json").is_file() && cap.join("report.json").is_file());
    // Whatever the host kept from nobody is named in the summary and in capture.json.
    let meta: Value = serde_json::from_slice(&fs::read(cap.join("capture.json")).unwrap()).unwrap();
    if let Some(list) = meta["unreadable"].as_array() {
        assert!(stdout.contains("root-only files not readable"), "{stdout}");
        for p in list {
            assert!(stdout.contains(p.as_str().unwrap()), "{stdout}");
        }
    } else {
        assert!(!stdout.contains("root-only"), "{stdout}");
    }
}

#[test]
fn the_answer_says_once_what_would_complete_the_check() {
    if !can_switch_user() {
        return;
    }
    let s = setup();
    let profile = s.profile.to_str().unwrap().to_string();
    let out = run(&s, true, &["verify", "--profile", profile.as_str()]);
    assert_eq!(out.status.code(), Some(3));
    let text = String::from_utf8_lossy(&out.stdout);
    let answer = text.lines().nth(1).unwrap();
    assert!(answer.starts_with("INCOMPLETE: could not read"), "{text}");
    assert!(answer.ends_with(": run as root to read them"), "{text}");
    // Said in the answer, and under the first of the rows it is about (the others point up
    // to it); the notes say why without stuttering.
    assert!(text.matches("run as root").count() <= 2, "{text}");
    assert!(text.contains("as above"), "{text}");
    assert!(!text.contains("need root: needs root"), "{text}");
    let v = json(&run(
        &s,
        true,
        &["verify", "--profile", &profile, "-f", "json"],
    ));
    assert_eq!(v["to_complete"], "run as root to read them");
}
