//! The release tarball's archive step (`scripts/tarball.sh`, called by `scripts/dist.sh`):
//! run on a staged prefix laid out as dist.sh lays it out, its entries listed, and unpacked
//! as the README says over a prefix whose own directories have their own modes.
#![cfg(target_os = "linux")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

const DIR: &str = "rigcheck-0.1.0-x86_64-linux";

/// A stage as dist.sh makes it: every directory 755, every file 644, the binary 755.
fn stage(root: &Path) {
    let d = root.join(DIR);
    let files = [
        "bin/rigcheck",
        "share/man/man1/rigcheck.1.gz",
        "share/man/man1/rigcheck-verify.1.gz",
        "share/doc/rigcheck/README.md",
        "share/doc/rigcheck/LICENSE-MIT",
        "share/bash-completion/completions/rigcheck",
        "share/zsh/site-functions/_rigcheck",
        "share/fish/vendor_completions.d/rigcheck.fish",
    ];
    for f in files {
        let p = d.join(f);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(&p, f).unwrap();
        let mode = if f == "bin/rigcheck" { 0o755 } else { 0o644 };
        fs::set_permissions(&p, fs::Permissions::from_mode(mode)).unwrap();
    }
}

fn pack(dir: &Path) -> std::path::PathBuf {
    let stage_dir = dir.join("stage");
    stage(&stage_dir);
    let out = dir.join("out.tar.gz");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/tarball.sh");
    let st = Command::new("bash")
        .arg(script)
        .arg(&stage_dir)
        .arg(DIR)
        .arg(&out)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .status()
        .unwrap();
    assert!(st.success());
    out
}

#[test]
fn the_tarball_carries_files_not_the_directories_of_a_shared_prefix() {
    let dir = tempfile::tempdir().unwrap();
    let out = pack(dir.path());
    let listed = Command::new("tar").arg("-tvzf").arg(&out).output().unwrap();
    assert!(listed.status.success());
    let text = String::from_utf8(listed.stdout).unwrap();
    let entries: Vec<(char, &str)> = text
        .lines()
        .map(|l| {
            let kind = l.chars().next().unwrap();
            let name = l.rsplit(' ').next().unwrap();
            (kind, name)
        })
        .collect();
    let dirs: Vec<&str> = entries
        .iter()
        .filter(|(k, _)| *k == 'd')
        .map(|(_, n)| *n)
        .collect();
    assert_eq!(dirs, [format!("{DIR}/share/doc/rigcheck/")], "{text}");
    let files: Vec<&str> = entries
        .iter()
        .filter(|(k, _)| *k == '-')
        .map(|(_, n)| *n)
        .collect();
    assert_eq!(files.len(), 8, "{text}");
    assert!(files.contains(&format!("{DIR}/bin/rigcheck").as_str()));
    // Sorted, owned by 0, at the commit's time: the same bytes each time.
    let mut sorted = files.clone();
    sorted.sort_unstable();
    assert_eq!(files, sorted);
    assert!(text.lines().all(|l| l.contains(" 0/0 ")), "{text}");
    assert!(
        text.lines()
            .any(|l| l.starts_with("-rwxr-xr-x") && l.ends_with("bin/rigcheck")),
        "{text}"
    );
    let again = pack(&dir.path().join("again"));
    assert_eq!(fs::read(&out).unwrap(), fs::read(again).unwrap());
}

#[test]
fn unpacking_over_a_prefix_leaves_its_directories_as_they_are() {
    let dir = tempfile::tempdir().unwrap();
    let out = pack(dir.path());
    // ~/.local as a user keeps it: share 0700, bin 2775 (setgid, group-writable).
    let prefix = dir.path().join("local");
    fs::create_dir_all(prefix.join("share/man")).unwrap();
    fs::create_dir_all(prefix.join("bin")).unwrap();
    fs::set_permissions(prefix.join("share"), fs::Permissions::from_mode(0o700)).unwrap();
    fs::set_permissions(prefix.join("share/man"), fs::Permissions::from_mode(0o750)).unwrap();
    fs::set_permissions(prefix.join("bin"), fs::Permissions::from_mode(0o2775)).unwrap();
    let st = Command::new("tar")
        .args(["-xzf"])
        .arg(&out)
        .args(["--strip-components=1", "-C"])
        .arg(&prefix)
        .status()
        .unwrap();
    assert!(st.success());
    let mode = |p: &str| fs::metadata(prefix.join(p)).unwrap().permissions().mode() & 0o7777;
    assert_eq!(mode("share"), 0o700);
    assert_eq!(mode("share/man"), 0o750);
    assert_eq!(mode("bin"), 0o2775);
    assert_eq!(mode("bin/rigcheck"), 0o755);
    assert_eq!(
        fs::read_to_string(prefix.join("share/doc/rigcheck/README.md")).unwrap(),
        "share/doc/rigcheck/README.md"
    );
}
