//! The errors that end a run before it can report (exit code 2), each naming the file or
//! flag at fault. Shared by the command layer and the few engines that write files.

use std::fmt;
use std::io;
use std::path::PathBuf;

/// What ends a run before it can report (exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// `--sysroot` names nothing.
    #[error("--sysroot '{0}': no such directory")]
    SysrootMissing(PathBuf),
    /// `--sysroot` names a file.
    #[error("--sysroot '{0}': not a directory")]
    SysrootNotDir(PathBuf),
    /// `--sysroot` holds no recorded machine at all.
    #[error(
        "--sysroot '{0}': holds neither proc/ nor sys/ (nor native.json); make one with \
         `rigcheck capture DIR`"
    )]
    SysrootEmpty(PathBuf),
    /// `capture` or `-o` would overwrite something.
    #[error("'{0}' exists; choose another name or pass --force")]
    WouldOverwrite(PathBuf),
    /// A profile could not be read or is malformed (already placed at file:line:column).
    #[error("{0}")]
    Profile(#[from] ProfileError),
    /// A report given to `diff` could not be read.
    #[error("{path}: {detail}")]
    Report { path: PathBuf, detail: String },
    /// `fleet` found no report at all under the paths given.
    #[error("no reports (*.json files or sysroots) found in {}", .0.iter().map(|p| format!("'{}'", p.display())).collect::<Vec<_>>().join(", "))]
    NoReports(Vec<PathBuf>),
    /// A name that is not a built-in profile.
    #[error("no built-in profile '{0}'; `rigcheck profiles` lists them")]
    NoSuchProfile(String),
    /// A capture was stopped by a signal; nothing was left behind.
    #[error("capture interrupted; the partial capture was removed")]
    Interrupted,
    /// Writing an output file or capture failed.
    #[error("{path}: {source}")]
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
