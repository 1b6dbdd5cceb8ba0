//! Files and streams the user names: bounded reads of reports and profiles, output to
//! stdout made safe for a terminal, and atomic writes of output files (`-o FILE`).
//!
//! Nothing here knows about probes or commands; the command layer and the profile loader
//! call it.

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::bounded::MAX_READ_BYTES;
use crate::error::Error;

/// Reads a file named by the user (report, profile), bounded like every sysroot read: a
/// 10 GB file or `/dev/zero` is refused after `MAX_READ_BYTES`, not read whole. Named pipes
/// are read, so `<(ssh host rigcheck --format json)` works, and `-` is standard input.
pub fn read_input(path: &Path) -> io::Result<Vec<u8>> {
    let mut buf = Vec::new();
    read_input_into(path, &mut buf)?;
    Ok(buf)
}

/// `read_input` into `buf` (emptied first), so a caller reading many files (`fleet`) keeps
/// one buffer instead of allocating each file's.
pub fn read_input_into(path: &Path, buf: &mut Vec<u8>) -> io::Result<()> {
    use std::io::Read;
    if path == Path::new("-") {
        buf.clear();
        io::stdin()
            .lock()
            .take(MAX_READ_BYTES + 1)
            .read_to_end(buf)?;
    } else {
        let file = std::fs::File::open(path)?;
        // A plain file is read in one call sized by its length, not a dozen growing ones:
        // `fleet` reads thousands. A pipe, or a procfs file claiming 0 bytes, is read to
        // its end.
        let size = file
            .metadata()
            .ok()
            .filter(|m| m.is_file() && m.len() > 0 && m.len() <= MAX_READ_BYTES)
            .and_then(|m| usize::try_from(m.len()).ok());
        let mut file = file.take(MAX_READ_BYTES + 1);
        match size {
            Some(size) if read_to_size(&mut file, size, buf)? => return Ok(()),
            // What was read stays in `buf`; the rest is read after it.
            Some(_) => {}
            None => buf.clear(),
        }
        file.read_to_end(buf)?;
    }
    if buf.len() as u64 > MAX_READ_BYTES {
        return Err(io::Error::other(format!(
            "larger than {} MiB: not a rigcheck file",
            MAX_READ_BYTES / (1024 * 1024)
        )));
    }
    Ok(())
}

/// Reads up to `size` bytes into `buf` (its old contents dropped), the size a `stat` gave: true when it
/// got all of them, which ends a plain file without the second read that would only find its
/// end; false (with what was read in `buf`) when the file ended sooner, to be read on.
pub fn read_to_size(file: &mut impl io::Read, size: usize, buf: &mut Vec<u8>) -> io::Result<bool> {
    // A buffer kept from a larger file is reused as it is (what the read does not overwrite
    // is cut off below): zeroing it again per file showed in fleet's profile.
    if buf.len() < size + 1 {
        buf.resize(size + 1, 0);
    } else {
        buf.truncate(size + 1);
    }
    let mut filled = 0;
    while filled < size {
        match file.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(filled);
    Ok(filled == size)
}

/// Writes to stdout with no colour; a closed pipe (`rigcheck | head`) ends quietly with 0.
pub fn emit(bytes: &[u8]) -> Result<(), Error> {
    emit_colored(bytes, false)
}

/// Writes to stdout, keeping the colour the renderers painted only when `color`: without it
/// every escape sequence is removed (anstream), so `--color never` and `NO_COLOR` hold even
/// for text that reached a renderer with one. Other control characters are replaced either
/// way (`terminal_safe`). A closed pipe ends quietly with 0.
pub fn emit_colored(bytes: &[u8], color: bool) -> Result<(), Error> {
    let safe = terminal_safe(bytes);
    if !color && memchr::memchr(0x1b, &safe).is_none() {
        // Nothing for the colour filter to take out (JSON, or any uncoloured text).
        let mut out = io::stdout().lock();
        return finish_stdout(out.write_all(&safe).and_then(|_| out.flush()));
    }
    let choice = if color {
        anstream::ColorChoice::Always
    } else {
        anstream::ColorChoice::Never
    };
    let mut out = anstream::AutoStream::new(io::stdout().lock(), choice);
    finish_stdout(out.write_all(&safe).and_then(|_| out.flush()))
}

/// A write to stdout as rigcheck reports it: a closed pipe is no error.
fn finish_stdout(written: io::Result<()>) -> Result<(), Error> {
    match written {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Error::Io {
            path: "<stdout>".into(),
            source: e,
        }),
    }
}

/// Writes a command's output to `path` (atomically, see `write_atomic`), or to standard
/// output when there is none or it is `-`.
pub fn write_output(path: Option<&Path>, bytes: &[u8], force: bool) -> Result<(), Error> {
    match path {
        Some(p) if p != Path::new("-") => write_atomic(p, bytes, force),
        _ => emit(bytes),
    }
}

/// An error message as one safe line for stderr (`text::one_line`): a terminal escape in a
/// file name or a profile, a newline or a bidirectional override in a machine string become
/// U+FFFD, so what rigcheck prints can neither drive the terminal nor fake a second line.
pub fn error_line(message: &str) -> String {
    crate::text::one_line(message).into_owned()
}

/// Replaces control characters that came from the machine's files (a DMI string in a
/// stranger's capture can hold `ESC ]` or `ESC [2J`) so they cannot drive the terminal, and
/// every line break but newline (U+2028 starts a line in many viewers) and every
/// bidirectional control, which rigcheck never writes itself.
/// Kept: newline, tab, and the colour sequences (`ESC [ digits ; m`) the renderers write.
pub fn terminal_safe(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let is_bad = |c: char| {
        (c.is_control() && c != '\n' && c != '\t')
            || crate::text::is_bidi_control(c)
            || (c != '\n' && crate::text::breaks_line(c))
    };
    if crate::text::plain_ascii(bytes) {
        return bytes.into();
    }
    let Ok(text) = std::str::from_utf8(bytes) else {
        return bytes.into();
    };
    if !text.chars().any(is_bad) {
        return bytes.into();
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if c == '\u{1b}' {
            let sgr_len = rest[1..]
                .strip_prefix('[')
                .and_then(|r| r.find(|ch: char| !(ch.is_ascii_digit() || ch == ';')))
                .filter(|&n| rest.as_bytes().get(2 + n) == Some(&b'm'))
                .map(|n| 3 + n);
            if let Some(n) = sgr_len {
                out.push_str(&rest[..n]);
                rest = &rest[n..];
                continue;
            }
        }
        out.push(if is_bad(c) { '\u{fffd}' } else { c });
        rest = &rest[c.len_utf8()..];
    }
    out.into_bytes().into()
}

/// The part of a temporary sibling's name that stands for the file name `name`: `name`
/// itself, or, when the temporary's name would pass the 255 bytes a file name may have
/// (NAME_MAX on Linux and macOS, 255 UTF-16 units on Windows), its first bytes and a hash of
/// the whole, so a legal long name still gets a temporary beside it. The same name always
/// gives the same stem, so a later run finds what a killed one left.
pub fn temp_stem(name: &str) -> String {
    // Room left for the decoration: `.`, `.rigcheck-old-`, a 10-digit PID, `.tmp`.
    const MAX: usize = 200;
    if name.len() <= MAX {
        return name.to_string();
    }
    // FNV-1a: stable across builds and platforms, unlike the standard library's hasher.
    let hash = name.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let mut cut = MAX - 17;
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{}~{hash:016x}", &name[..cut])
}

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename,
/// so `path` holds either its old content or all of the new. Without `force` an existing
/// `path` is left alone and `Error::WouldOverwrite` returned. Only regular files are
/// written: a symlink, named pipe, device or directory at `path` is refused even with
/// `force` (a rename would put a regular file in place of `/dev/null`), and a file
/// replaced with `force` keeps its permissions (and, where allowed, its owner).
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> Result<(), Error> {
    let io_err = |source: io::Error| Error::Io {
        path: path.to_path_buf(),
        source,
    };
    let existing = match fs::symlink_metadata(path) {
        Ok(m) => Some(m),
        Err(e) if e.kind() == io::ErrorKind::NotFound => None,
        Err(e) => return Err(io_err(e)),
    };
    if let Some(m) = &existing {
        if !m.is_file() {
            return Err(Error::Usage(format!(
                "'{}' exists and is {}; -o writes only regular files: choose another name, \
                 or redirect standard output there",
                path.display(),
                kind_of(m.file_type())
            )));
        }
        if !force {
            return Err(Error::WouldOverwrite(path.to_path_buf()));
        }
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "sheet".into());
    let tmp = dir.join(format!(".{}.{}.tmp", temp_stem(&name), std::process::id()));
    // A file of this name was left by a killed process that had our PID: it is stale.
    let _ = fs::remove_file(&tmp);
    let written = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| {
            if let Some(m) = &existing {
                crate::sys::keep_owner_and_mode(&f, m)?;
            }
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

/// What a non-regular file is, for the refusal.
fn kind_of(t: fs::FileType) -> &'static str {
    if let Some(special) = crate::sys::special_file_kind(t) {
        special
    } else if t.is_symlink() {
        "a symbolic link"
    } else if t.is_dir() {
        "a directory"
    } else {
        "not a regular file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_lines_carry_no_escapes_and_no_newlines() {
        let line = error_line("x\u{1b}]0;owned\u{7}\nrigcheck: fake\u{2028}\u{202e}");
        assert!(!line.chars().any(char::is_control), "{line:?}");
        assert!(!line.contains(['\u{2028}', '\u{202e}']), "{line:?}");
        assert_eq!(line.lines().count(), 1);
    }

    #[test]
    fn temporary_names_fit_a_file_name() {
        assert_eq!(temp_stem("sheet.html"), "sheet.html");
        let long = "é".repeat(127) + "x";
        let stem = temp_stem(&long);
        assert!(stem.len() <= 200, "{}", stem.len());
        assert_eq!(stem, temp_stem(&long));
        assert_ne!(stem, temp_stem(&("é".repeat(127) + "y")));
    }

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
