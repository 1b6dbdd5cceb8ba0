//! `rigcheck profiles [show NAME]`: the built-in profiles, listed or printed as TOML.

use std::process::ExitCode;

use crate::cli::{GlobalArgs, ProfilesAction, ProfilesArgs};
use rigcheck::error::Error;
use rigcheck::io::emit;
use rigcheck::profile;

/// Lists the built-in profiles, or prints one. Their text names no machine, so `--redact`
/// holds as it is.
pub fn exec(args: &ProfilesArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    super::no_sysroot(
        "profiles",
        global,
        "prints the built-in profiles, which do not depend on a machine; leave it out",
    )?;
    super::no_format("profiles", global)?;
    super::no_color("profiles", global)?;
    match &args.action {
        None => {
            let mut out = String::new();
            for (name, text) in profile::BUILTIN {
                let p = profile::parse(text, name, name)?;
                out.push_str(&format!("{name}\t{}\n", p.description.unwrap_or_default()));
            }
            emit(out.as_bytes())?;
        }
        Some(ProfilesAction::Show { name }) => {
            match profile::BUILTIN.iter().find(|(n, _)| n == name) {
                Some((_, text)) => emit(text.as_bytes())?,
                None => return Err(Error::NoSuchProfile(name.clone())),
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
