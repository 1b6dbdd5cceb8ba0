//! The errors that end a run before it can report (exit code 2), each naming the file or
//! flag at fault. Shared by the command layer and the few engines that write files.
//!
//! Every message has one shape, printed after `rigcheck: ` on one line of stderr:
//! `<what>: <why>; <fix>` (the file or flag, what is wrong with it, what to do).

use std::fmt;
use std::io;
use std::path::PathBuf;

/// What ends a run before it can report (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// `--sysroot` names nothing.
    #[error("--sysroot '{0}': no such directory; give a directory made by `rigcheck capture DIR`")]
    SysrootMissing(PathBuf),
    /// `--sysroot` names a file.
    #[error("--sysroot '{0}': not a directory; give the directory `rigcheck capture DIR` wrote")]
    SysrootNotDir(PathBuf),
    /// `--sysroot` holds no recorded machine at all.
    #[error(
        "--sysroot '{0}': holds neither proc/ nor sys/ (nor native.json); make one with \
         `rigcheck capture DIR`"
    )]
    SysrootEmpty(PathBuf),
    /// `capture` or `-o` would overwrite something.
    #[error("{0}: exists; choose another name or pass --force")]
    WouldOverwrite(PathBuf),
    /// A profile could not be read or is malformed (already placed at file:line:column).
    #[error("{0}")]
    Profile(#[from] ProfileError),
    /// A report given to `diff` could not be read.
    #[error("{}: {detail}", path.display())]
    Report { path: PathBuf, detail: String },
    /// `fleet` found no report at all under the paths given.
    #[error("{}: no reports (*.json files or sysroots) found; give report files, directories holding them, or sysroots", .0.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", "))]
    NoReports(Vec<PathBuf>),
    /// A name that is not a built-in profile.
    #[error("'{0}': no built-in profile of that name; `rigcheck profiles` lists them")]
    NoSuchProfile(String),
    /// A capture was stopped by a signal; nothing was left behind.
    #[error("capture: interrupted; the partial capture was removed, run it again")]
    Interrupted,
    /// Writing an output file or capture failed.
    #[error("{}: {}", path.display(), describe(source))]
    Io { path: PathBuf, source: io::Error },
    /// A command line that parses but cannot be carried out (already worded for the user).
    #[error("{0}")]
    Usage(String),
}

impl Error {
    /// An I/O error while writing the command's output.
    pub fn output(source: io::Error) -> Self {
        Error::Io {
            path: "<output>".into(),
            source,
        }
    }
}

/// An I/O error in words, without the `(os error 21)` the OS appends, and with the fix
/// where there is an obvious one.
pub fn describe(e: &io::Error) -> String {
    use io::ErrorKind as K;
    match e.kind() {
        K::NotFound => "no such file or directory; check the path".into(),
        K::PermissionDenied => format!(
            "permission denied; {} or make it readable (or writable) for this user",
            crate::sys::ELEVATE
        ),
        K::IsADirectory => "is a directory; give a file".into(),
        K::NotADirectory => "a part of the path is not a directory".into(),
        K::AlreadyExists => "already exists; choose another name or pass --force".into(),
        K::StorageFull => "no space left on the device".into(),
        K::ReadOnlyFilesystem => "the file system is read-only".into(),
        _ => {
            let text = e.to_string();
            match text.find(" (os error ") {
                Some(i) => text[..i].to_string(),
                None => text,
            }
        }
    }
}

/// A profile error, already placed at `file:line:column`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileError {
    pub file: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for ProfileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}",
                self.file, self.line, self.column, self.message
            )
        }
    }
}

impl std::error::Error for ProfileError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The OS's codes for "is a directory" and "disk full", as real errors arrive.
    #[cfg(unix)]
    const IS_DIR_FULL: (i32, i32) = (libc::EISDIR, libc::ENOSPC);
    /// ERROR_DIRECTORY_NOT_SUPPORTED and ERROR_DISK_FULL.
    #[cfg(windows)]
    const IS_DIR_FULL: (i32, i32) = (336, 112);

    #[test]
    fn io_errors_in_words() {
        let e = io::Error::from_raw_os_error(IS_DIR_FULL.0);
        assert_eq!(describe(&e), "is a directory; give a file");
        let e = Error::Io {
            path: "out/sheet.html".into(),
            source: io::Error::from_raw_os_error(IS_DIR_FULL.1),
        };
        assert_eq!(e.to_string(), "out/sheet.html: no space left on the device");
    }
}
