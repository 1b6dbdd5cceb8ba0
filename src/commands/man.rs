//! `rigcheck man [COMMAND]`: the man page, rendered from the clap command (clap_mangen), so
//! it lists exactly the options the program takes.

use std::process::ExitCode;

use crate::cli::{self, GlobalArgs, ManArgs};
use crate::error::Error;
use crate::io::emit;

/// Prints `rigcheck(1)`, or `rigcheck-COMMAND(1)`; an unknown command is a usage error. The
/// page names no machine, so `--redact` holds as it is.
pub fn exec(args: &ManArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    super::plain_output(
        "man",
        global,
        "prints a page that does not depend on a machine; leave it out",
    )?;
    let mut cmd = cli::command().disable_help_subcommand(true);
    // Building sets each subcommand's display name (`rigcheck-verify`) and its global
    // options, as its own page needs them.
    cmd.build();
    let page = match &args.command {
        None => cmd,
        Some(name) => match cmd.find_subcommand(name) {
            Some(sub) => sub.clone().version(env!("RIGCHECK_VERSION")),
            None => {
                let names: Vec<&str> = cmd.get_subcommands().map(|s| s.get_name()).collect();
                return Err(Error::Usage(format!(
                    "man: no command '{name}'; use one of {}",
                    names.join(", ")
                )));
            }
        },
    };
    let mut buf = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut buf)
        .map_err(Error::output)?;
    emit(&buf)?;
    Ok(ExitCode::SUCCESS)
}
