//! Helpers shared by the integration tests that mutate copies of recorded machines.
// Each test binary uses only some of these helpers.
#![allow(dead_code)]

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;

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

/// The reasons of every note on `field` in a JSON report.
pub fn notes_on(report: &serde_json::Value, field: &str) -> Vec<String> {
    report["notes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|n| n["field"] == field)
        .map(|n| n["reason"].as_str().unwrap().to_string())
        .collect()
}

/// Fails unless a note on `field` contains `needle`.
pub fn assert_note(report: &serde_json::Value, field: &str, needle: &str) {
    let notes = notes_on(report, field);
    assert!(
        notes.iter().any(|r| r.contains(needle)),
        "no note on {field} containing '{needle}': {notes:?}"
    );
}

/// Leftovers of captures (`.DIR.rigcheck-tmp-PID`, `.DIR.rigcheck-old-PID`) in `parent`.
pub fn temporaries(parent: &Path) -> Vec<String> {
    fs::read_dir(parent)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("rigcheck-tmp") || n.contains("rigcheck-old"))
        .collect()
}

/// Fails if a capture left anything temporary in `parent`.
pub fn assert_no_temporaries(parent: &Path) {
    let left = temporaries(parent);
    assert!(left.is_empty(), "{left:?}");
}
