//! `rigcheck capture DIR`: record this machine so `--sysroot DIR` replays it.

use std::process::ExitCode;

use crate::capture;
use crate::cli::{CaptureArgs, GlobalArgs};
use crate::error::Error;
use crate::io::emit;

/// Records the live machine into the directory given.
pub fn exec(args: &CaptureArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    if global.sysroot.is_some() {
        eprintln!("rigcheck: capture records the live machine; --sysroot is ignored");
    }
    let summary = capture::capture(&args.dir, args.force)?;
    emit(summary.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
