//! Build script: puts the git commit into `rigcheck --version` when rigcheck is built from a
//! clone (`rigcheck 0.1.0 (870fee5 2026-11-30)`, the way cargo and rustc say theirs). Built
//! from a source tarball, or where git is missing or refuses the directory, the version is the
//! package version alone.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    // Only this package's own clone counts: a tarball unpacked inside some other repository
    // must not take that repository's commit.
    let commit = if Path::new(&dir).join(".git").exists() {
        commit(&dir)
    } else {
        None
    };
    match commit {
        Some(c) => println!("cargo:rustc-env=RIGCHECK_VERSION={version} ({c})"),
        None => println!("cargo:rustc-env=RIGCHECK_VERSION={version}"),
    }
}

/// `870fee5 2026-11-30`: the short hash and the commit date of HEAD; the files that move
/// when HEAD does are watched so the next build picks up a new commit.
fn commit(dir: &str) -> Option<String> {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .output()
            .ok()?;
        let text = String::from_utf8(out.stdout).ok()?;
        (out.status.success() && !text.trim().is_empty()).then(|| text.trim().to_string())
    };
    let c = git(&["log", "-1", "--format=%h %cs"])?;
    let mut watch = vec!["HEAD".to_string(), "packed-refs".to_string()];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watch.push(branch);
    }
    for w in watch {
        if let Some(p) = git(&["rev-parse", "--path-format=absolute", "--git-path", &w]) {
            if Path::new(&p).exists() {
                println!("cargo:rerun-if-changed={p}");
            }
        }
    }
    Some(c)
}
