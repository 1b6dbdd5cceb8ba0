//! `rigcheck capture DIR`: record this machine so `--sysroot DIR` replays it.

use std::path::Path;
use std::process::ExitCode;

use crate::cli::{CaptureArgs, GlobalArgs};
use rigcheck::capture;
use rigcheck::error::Error;
use rigcheck::io::emit;

/// Records the live machine into the directory given.
pub fn exec(args: &CaptureArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    super::plain_output(
        "capture",
        global,
        "records the live machine; run it on the machine to record",
    )?;
    if global.redact {
        return Err(Error::Usage(
            "--redact: capture records the machine's files as they are; redact what is made \
             from it instead: `rigcheck --sysroot DIR --redact`"
                .into(),
        ));
    }
    if args.dir == Path::new("-") {
        return Err(Error::Usage(
            "capture: '-': a capture is a directory, not a stream; give a directory name".into(),
        ));
    }
    let summary = capture::capture(&args.dir, args.force)?;
    emit(summary.as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
