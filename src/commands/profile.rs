//! `rigcheck profile new`: a profile this machine passes, to use as the order for its twins.

use std::process::ExitCode;

use crate::cli::{GlobalArgs, ProfileAction, ProfileArgs};
use crate::error::Error;
use crate::io::{emit, write_atomic};
use crate::{probe, profile};

/// Writes a profile from the machine (or `--sysroot`) to stdout or a file.
pub fn exec(args: &ProfileArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    match &args.action {
        ProfileAction::New {
            name,
            output,
            force,
        } => {
            let spec = probe::inventory(&super::open_source(global.sysroot.as_deref())?);
            let name = name
                .clone()
                .or_else(|| spec.hostname.clone())
                .unwrap_or_else(|| "my-machine".into());
            let text = profile::from_spec(&spec, &name);
            match output {
                Some(path) => write_atomic(path, text.as_bytes(), *force)?,
                None => emit(text.as_bytes())?,
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
