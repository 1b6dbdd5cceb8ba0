//! Where a run's machine comes from: the live host or a recorded sysroot (`open_source`),
//! and the reports `diff`, `fleet` and `sheet --report` read (`read_report`: a JSON file
//! written by `--format json`, bare or wrapped by Ansible, or a sysroot, which is probed).

use std::path::Path;

use crate::error::Error;
use crate::fleet::{parse_report, Preflight};
use crate::io::read_input_into;
use crate::probe;
use crate::source::Source;
use crate::spec::Spec;

/// The live host, or the recorded machine under `sysroot` after checking it is one.
pub fn open_source(sysroot: Option<&Path>) -> Result<Source, Error> {
    let Some(dir) = sysroot else {
        return Ok(Source::live());
    };
    match std::fs::metadata(dir) {
        Err(_) => return Err(Error::SysrootMissing(dir.into())),
        Ok(m) if !m.is_dir() => return Err(Error::SysrootNotDir(dir.into())),
        Ok(_) => {}
    }
    if !is_capture(dir) {
        return Err(Error::SysrootEmpty(dir.into()));
    }
    Ok(Source::sysroot(dir))
}

/// Whether `dir` is a recorded machine `--sysroot` replays: Linux captures hold proc/ and
/// sys/, Windows and macOS ones the OS's answers (native.json).
pub fn is_capture(dir: &Path) -> bool {
    dir.join("proc").exists()
        || dir.join("sys").exists()
        || dir.join(probe::native::NATIVE_FILE).exists()
}

/// A report for `diff`, `sheet --report` and `fleet`: a JSON file written by `--format json`
/// (bare, or wrapped by Ansible's `setup` module; `-` reads standard input), or a sysroot
/// directory, which is probed.
pub fn read_report(path: &Path) -> Result<(Spec, Option<Preflight>), Error> {
    let bad = |detail: String| Error::Report {
        path: path.into(),
        detail,
    };
    // One buffer per thread: fleet's workers read thousands of reports each, and a fresh
    // allocation of a report's size per file showed in its profile.
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUF.with_borrow_mut(|bytes| {
        match read_input_into(path, bytes) {
            Ok(()) => {}
            // A directory is a capture, replayed. Asked only when the read fails (a directory
            // opens but does not read on Unix, and does not open on Windows): fleet reads
            // thousands of files, and a `stat` of each before its read would be one call in
            // five.
            Err(_) if path != Path::new("-") && path.is_dir() => {
                return Ok((probe::inventory(&open_source(Some(path))?), None));
            }
            Err(e) => return Err(bad(crate::error::describe(&e))),
        }
        let text = std::str::from_utf8(bytes).map_err(|e| bad(format!("not UTF-8: {e}")))?;
        // A stranger's report may carry escape sequences in any string: cleaned before use.
        parse_report(&crate::text::clean_json(text)).map_err(bad)
    })
}

/// The machine of a report (see `read_report`), without any preflight result it carries.
pub fn load_report(path: &Path) -> Result<Spec, Error> {
    read_report(path).map(|(spec, _)| spec)
}
