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
            from: Some(from),
            output,
            force,
        } => {
            if global.sysroot.is_some() {
                return Err(Error::Usage(
                    "--sysroot: profile new --from copies a profile and reads no machine; \
                     leave one out"
                        .into(),
                ));
            }
            // The copy's own name: given, else the file it goes to, else the original's.
            let name = name.clone().unwrap_or_else(|| {
                output
                    .as_deref()
                    .filter(|p| p.as_os_str() != "-")
                    .and_then(|p| p.file_stem())
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| {
                        let original = std::path::Path::new(from)
                            .file_stem()
                            .map_or_else(|| from.clone(), |s| s.to_string_lossy().into_owned());
                        format!("{original}-copy")
                    })
            });
            let name = rigcheck::text::one_line(&name).into_owned();
            let text = profile::copy(from, &name)?;
            write_output(output.as_deref(), text.as_bytes(), *force)?;
        }
        ProfileAction::New {
            name,
            from: None,
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
