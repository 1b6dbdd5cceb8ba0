//! What the OSes that are neither Unix nor Windows answer in place of the POSIX calls:
//! `fallback`'s answers, and no positioned reads.

use std::fs::File;
use std::io;

use super::answers::unsupported;

pub use super::fallback::{
    create_private_dir, device_number, file_identity, file_mode, keep_owner_and_mode, machine,
    set_create_mode, special_file_kind, statvfs, symlink, Root,
};

/// No signals to hold back.
pub const INTERRUPTS: &[i32] = &[];

/// Assumed not, as on Windows: an empty directory is removed first.
pub const RENAME_REPLACES_EMPTY_DIR: bool = false;

/// No positioned reads.
pub fn read_at(_f: &File, _buf: &mut [u8], _offset: u64) -> io::Result<usize> {
    Err(unsupported("positioned reads are not available on this OS"))
}

/// No positioned reads.
pub fn read_exact_at(_f: &File, _buf: &mut [u8], _offset: u64) -> io::Result<()> {
    Err(unsupported("positioned reads are not available on this OS"))
}

/// No loop errors known.
pub fn is_symlink_loop(_e: &io::Error) -> bool {
    false
}
