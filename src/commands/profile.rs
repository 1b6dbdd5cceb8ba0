//! `rigcheck profile new`: a profile this machine passes, to use as the order for its twins.

use std::process::ExitCode;

use crate::cli::{GlobalArgs, ProfileAction, ProfileArgs};
use rigcheck::error::Error;
use rigcheck::io::write_output;
use rigcheck::{probe, profile, redact};

/// Writes a profile from the machine (or `--sysroot`) to stdout or a file.
pub fn exec(args: &ProfileArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    super::no_format("profile new", global)?;
    super::no_color("profile new", global)?;
    match &args.action {
        ProfileAction::New {
            name,
            output,
            force,
        } => {
            let mut spec = probe::inventory(&super::open_source(global.sysroot.as_deref())?);
            // Redacted, the host name is no default name: it is what --redact hides.
            if global.redact {
                redact::redact(&mut spec);
            }
            let name = name
                .clone()
                .or_else(|| spec.hostname.clone().filter(|_| !global.redact))
                .unwrap_or_else(|| "my-machine".into());
            // The name heads every verify of this profile: one line, whatever the host said.
            let name = rigcheck::text::one_line(&name).into_owned();
            let text = profile::from_spec(&spec, &name);
            write_output(output.as_deref(), text.as_bytes(), *force)?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
