//! Writing an output file (`-o FILE`) atomically: a reader never sees half a sheet,
//! and an existing file is only replaced when asked to.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::Error;

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename,
/// so `path` holds either its old content or all of the new. Without `force` an existing
/// `path` is left alone and `Error::WouldOverwrite` returned.
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> Result<(), Error> {
    let io_err = |source: io::Error| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    if !force && fs::symlink_metadata(path).is_ok() {
        return Err(Error::WouldOverwrite(path.to_path_buf()));
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "sheet".into());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    // A file of this name was left by a killed process that had our PID: it is stale.
    let _ = fs::remove_file(&tmp);
    let written = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| {
            f.write_all(bytes)?;
            f.sync_all()
        });
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(io_err(e));
    }
    let placed = if force {
        fs::rename(&tmp, path)
    } else {
        // A hard link fails if `path` appeared since the check above, so a file created
        // meanwhile is still not replaced; where links are not supported, rename.
        match fs::hard_link(&tmp, path) {
            Ok(()) => fs::remove_file(&tmp),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {
                let _ = fs::remove_file(&tmp);
                return Err(Error::WouldOverwrite(path.to_path_buf()));
            }
            Err(_) => fs::rename(&tmp, path),
        }
    };
    placed.map_err(|e| {
        let _ = fs::remove_file(&tmp);
        io_err(e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_to_overwrite_without_force() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("sheet.html");
        write_atomic(&p, b"one", false).unwrap();
        assert!(matches!(
            write_atomic(&p, b"two", false),
            Err(Error::WouldOverwrite(_))
        ));
        assert_eq!(fs::read(&p).unwrap(), b"one");
        write_atomic(&p, b"two", true).unwrap();
        assert_eq!(fs::read(&p).unwrap(), b"two");
        // No temporary file is left behind.
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}
