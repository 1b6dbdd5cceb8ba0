//! Helpers shared by the integration tests that mutate copies of recorded machines.
// Each test binary uses only some of these helpers.
#![allow(dead_code)]

#[cfg(target_os = "linux")]
pub mod doubles;

use std::fs;
#[cfg(unix)]
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::Duration;

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

/// The machine as an unprivileged user sees it: the SMBIOS tables (mode 0400 on a real
/// host) are not readable, so the DIMM list is unknown.
pub fn without_smbios(root: &Path) {
    fs::remove_dir_all(root.join("sys/firmware/dmi/tables")).unwrap();
}

/// Sets `MemTotal` of the copy's /proc/meminfo, in kB.
pub fn set_mem_total(root: &Path, kb: u64) {
    let p = root.join("proc/meminfo");
    let text = fs::read_to_string(&p).unwrap();
    let out: Vec<String> = text
        .lines()
        .map(|l| {
            if l.starts_with("MemTotal:") {
                format!("MemTotal:       {kb} kB")
            } else {
                l.to_string()
            }
        })
        .collect();
    fs::write(&p, out.join("\n") + "\n").unwrap();
}

/// The type-17 records of an SMBIOS table: (offset, length, strings) each.
fn dmi_records(t: &[u8]) -> Vec<(usize, usize, Vec<String>)> {
    let mut out = Vec::new();
    let mut off = 0;
    while off + 4 <= t.len() {
        let (ty, len) = (t[off], usize::from(t[off + 1]));
        if ty == 127 {
            break;
        }
        let strings = off + len;
        let mut end = strings;
        while !(t[end] == 0 && t[end + 1] == 0) {
            end += 1;
        }
        if ty == 17 {
            let set = t[strings..end]
                .split(|b| *b == 0)
                .map(|s| String::from_utf8_lossy(s).into_owned())
                .collect();
            out.push((off, len, set));
        }
        off = end + 2;
    }
    out
}

/// Marks the first populated DIMM (whose bank locator is `bank`, when given) as an empty
/// slot in the copy's SMBIOS table; returns its locator.
pub fn remove_dimm(root: &Path, bank: Option<&str>) -> String {
    let p = root.join("sys/firmware/dmi/tables/DMI");
    let mut t = fs::read(&p).unwrap();
    for (off, _, set) in dmi_records(&t) {
        let string = |i: u8| set.get(usize::from(i).wrapping_sub(1)).cloned();
        let size = u16::from_le_bytes([t[off + 0x0c], t[off + 0x0d]]);
        if size != 0 && bank.is_none_or(|b| string(t[off + 0x11]).as_deref() == Some(b)) {
            t[off + 0x0c] = 0;
            t[off + 0x0d] = 0;
            fs::write(&p, &t).unwrap();
            return string(t[off + 0x10]).unwrap();
        }
    }
    panic!("no populated DIMM in bank {bank:?}");
}

/// Replaces `from` by `to` (same length) in every string of the copy's SMBIOS table.
pub fn replace_dmi_text(root: &Path, from: &str, to: &str) {
    assert_eq!(from.len(), to.len());
    let p = root.join("sys/firmware/dmi/tables/DMI");
    let mut t = fs::read(&p).unwrap();
    let (f, r) = (from.as_bytes(), to.as_bytes());
    let mut i = 0;
    let mut n = 0;
    while i + f.len() <= t.len() {
        if &t[i..i + f.len()] == f {
            t[i..i + f.len()].copy_from_slice(r);
            n += 1;
            i += f.len();
        } else {
            i += 1;
        }
    }
    assert!(n > 0, "'{from}' is not in the table");
    fs::write(&p, &t).unwrap();
}

/// Puts a second CPU model in socket 1 (`physical id : 1`) of the copy's /proc/cpuinfo.
pub fn mix_cpu_models(root: &Path, socket1_model: &str) {
    let p = root.join("proc/cpuinfo");
    let text = fs::read_to_string(&p).unwrap();
    let blocks: Vec<String> = text
        .split("\n\n")
        .map(|b| {
            if b.lines()
                .any(|l| l.starts_with("physical id") && l.ends_with(": 1"))
            {
                b.lines()
                    .map(|l| {
                        if l.starts_with("model name") {
                            format!("model name\t: {socket1_model}")
                        } else {
                            l.to_string()
                        }
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            } else {
                b.to_string()
            }
        })
        .collect();
    fs::write(&p, blocks.join("\n\n")).unwrap();
}

/// Plugs a USB stick (SanDisk Cruzer Blade, 32 GB, removable) into the copy, as sysfs shows
/// one: `sys/block/sdz` linking into the USB controller's tree.
pub fn add_usb_stick(root: &Path) {
    let rel = "devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0/host6/target6:0:0/6:0:0:0";
    let dev = root.join("sys").join(rel);
    let block = dev.join("block/sdz");
    fs::create_dir_all(block.join("queue")).unwrap();
    fs::write(dev.join("vendor"), "SanDisk \n").unwrap();
    fs::write(dev.join("model"), "Cruzer Blade    \n").unwrap();
    fs::write(dev.join("rev"), "1.00\n").unwrap();
    symlink("../../../6:0:0:0", block.join("device")).unwrap();
    fs::write(block.join("size"), "60063744\n").unwrap();
    fs::write(block.join("removable"), "1\n").unwrap();
    fs::write(block.join("queue/rotational"), "0\n").unwrap();
    fs::write(block.join("queue/logical_block_size"), "512\n").unwrap();
    fs::write(block.join("dev"), "8:0\n").unwrap();
    symlink(format!("../{rel}/block/sdz"), root.join("sys/block/sdz")).unwrap();
}

/// How long one rigcheck run may take before a test calls it hung: a guard against a run
/// that never ends, far above what any run takes (milliseconds), not a timing.
pub const HANG_GUARD: Duration = Duration::from_secs(60);

/// The rigcheck binary, without colour from the environment, killed if it hangs.
pub fn rigcheck() -> assert_cmd::Command {
    let mut c = assert_cmd::Command::cargo_bin("rigcheck").unwrap();
    c.env_remove("NO_COLOR")
        .env("TERM", "dumb")
        .timeout(HANG_GUARD);
    c
}

/// The recorded machines: the directories of fixtures/ that are sysroots, Linux ones holding
/// proc/ or sys/, Windows ones the OS's answers in native.json; sorted by name.
pub fn recordings() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut out: Vec<String> = fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            let p = e.path();
            p.join("proc").exists() || p.join("sys").exists() || p.join("native.json").exists()
        })
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    out.sort();
    out
}

/// The path of the recorded machine `fixtures/NAME`.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

/// A private copy of `fixtures/NAME`: (tempdir, sysroot `root` inside it).
pub fn fixture_copy(name: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("root");
    copy_tree(&fixture(name), &root);
    (dir, root)
}

/// Runs rigcheck; returns (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    run_with(args, None)
}

/// Runs rigcheck with `stdin` as its standard input; returns (exit code, stdout, stderr).
pub fn run_with(args: &[&str], stdin: Option<Vec<u8>>) -> (i32, String, String) {
    let mut c = rigcheck();
    c.args(args);
    if let Some(input) = stdin {
        c.write_stdin(input);
    }
    let out = c.output().unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Writes the reference machine's report (`--format json`) into `dir` as `ref.json`;
/// returns its path and text.
pub fn reference_report(dir: &Path) -> (std::path::PathBuf, String) {
    let (code, json, err) = run(&["--sysroot", REFERENCE, "-f", "json"]);
    assert_eq!(code, 0, "{err}");
    let path = dir.join("ref.json");
    fs::write(&path, &json).unwrap();
    (path, json)
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

/// Edits a recording's `nvml.json` (NVML's answers) in place.
pub fn edit_nvml(root: &Path, f: impl FnOnce(&mut serde_json::Value)) {
    let p = root.join("nvml.json");
    let mut v: serde_json::Value = serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
    f(&mut v);
    fs::write(&p, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}
