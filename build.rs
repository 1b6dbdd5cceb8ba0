//! Build script: puts the git commit into `rigcheck --version` (`rigcheck 0.1.0 (870fee5
//! 2026-11-30)`, the way cargo and rustc say theirs). The commit comes from `RIGCHECK_COMMIT`
//! where the builder sets it (scripts/dist.sh builds the release artefacts from an export of
//! the commit, which has no .git), else from git when building in a clone. Built from a source
//! tarball, or where git is missing or refuses the directory, the version is the package
//! version alone.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=RIGCHECK_COMMIT");
    let version = std::env::var("CARGO_PKG_VERSION").unwrap_or_default();
    let dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_else(|_| ".".into());
    let given = std::env::var("RIGCHECK_COMMIT")
        .ok()
        .and_then(|c| given_commit(&c));
    // Only this package's own clone counts: a tarball unpacked inside some other repository
    // must not take that repository's commit.
    let commit = given.or_else(|| {
        Path::new(&dir)
            .join(".git")
            .exists()
            .then(|| commit(&dir))
            .flatten()
    });
    match commit {
        Some(c) => println!("cargo:rustc-env=RIGCHECK_VERSION={version} ({c})"),
        None => println!("cargo:rustc-env=RIGCHECK_VERSION={version}"),
    }
}

/// `RIGCHECK_COMMIT` as the version shows it: one line of printable text (`870fee5
/// 2026-11-30`); empty or anything else is ignored with a warning, since a line break would end
/// the `cargo:` instruction and a parenthesis would garble the version.
fn given_commit(value: &str) -> Option<String> {
    let c = value.trim();
    if c.is_empty() {
        return None;
    }
    let plain = c
        .chars()
        .all(|ch| ch == ' ' || (ch.is_ascii_graphic() && ch != '(' && ch != ')'));
    if !plain {
        println!("cargo:warning=RIGCHECK_COMMIT={c:?} is not one line of plain text; ignored");
        return None;
    }
    Some(c.to_string())
}

/// `870fee5 2026-11-30`: the short hash and the commit date of HEAD; the files that move
/// when HEAD does are watched so the next build picks up a new commit. The hash is
/// abbreviated to 7 digits (longer only where 7 are ambiguous), not to git's default, which
/// grows with the number of objects in the clone: two clones of one commit print one version.
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
    let c = git(&["log", "-1", "--abbrev=7", "--format=%h %cs"])?;
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
