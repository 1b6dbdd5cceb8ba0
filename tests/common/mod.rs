//! Helpers shared by the integration tests that mutate copies of recorded machines.
// Each test binary uses only some of these helpers.
#![allow(dead_code)]

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::symlink;
use std::path::Path;

/// Windows links a file and a directory differently (and needs Developer Mode or admin);
/// a dangling link, as sysfs captures have, becomes a file link.
#[cfg(windows)]
fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>) -> std::io::Result<()> {
    let (target, link) = (target.as_ref(), link.as_ref());
    let resolved = link.parent().unwrap_or(Path::new(".")).join(target);
    if resolved.is_dir() {
        std::os::windows::fs::symlink_dir(target, link)
    } else {
        std::os::windows::fs::symlink_file(target, link)
    }
}

/// The reference machine: HP Z8 G4, 2 × Xeon Gold 6254, 2 × Quadro RTX 6000.
pub const REFERENCE: &str = "fixtures/hp-z8-g4-dual-rtx6000";

/// Copies a fixture tree, keeping symlinks as symlinks.
pub fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
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
        }
    }
}

/// A fresh copy of the reference machine to break.
pub fn reference_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    copy_tree(Path::new(REFERENCE), dir.path());
    dir
}
