//! `rigcheck man [COMMAND]`: the man page, rendered from the clap command (clap_mangen), so
//! it lists exactly the options the program takes.

use std::process::ExitCode;

use crate::cli::{self, GlobalArgs, ManArgs};
use crate::error::Error;
use crate::io::emit;

/// Prints `rigcheck(1)`, `rigcheck-COMMAND(1)`, or `rigcheck-COMMAND-SUB(1)` for a command
/// under another (each page's SEE ALSO names its commands' pages, so a packager follows them
/// to every page); an unknown command is a usage error. The page names no machine, so
/// `--redact` holds as it is.
pub fn exec(args: &ManArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    super::plain_output(
        "man",
        global,
        "prints a page that does not depend on a machine; leave it out",
    )?;
    let mut page = cli::command().disable_help_subcommand(true);
    // Building sets each subcommand's display name (`rigcheck-profile-new`) and its global
    // options, as its own page needs them.
    page.build();
    for (depth, name) in args.command.iter().enumerate() {
        page = match page.find_subcommand(name) {
            Some(sub) => sub.clone().version(env!("RIGCHECK_VERSION")),
            None => {
                let names: Vec<&str> = page.get_subcommands().map(|s| s.get_name()).collect();
                let under = match depth {
                    0 => String::new(),
                    _ => format!(" under '{}'", args.command[..depth].join(" ")),
                };
                return Err(Error::Usage(if names.is_empty() {
                    format!("man: no command '{name}'{under}: it has no commands")
                } else {
                    format!(
                        "man: no command '{name}'{under}; use one of {}",
                        names.join(", ")
                    )
                }));
            }
        };
    }
    let mut buf = Vec::new();
    clap_mangen::Man::new(page)
        .render(&mut buf)
        .map_err(Error::output)?;
    emit(&buf)?;
    Ok(ExitCode::SUCCESS)
}
