//! `rigcheck completions SHELL`: a completion script for the shell, from the same clap
//! command that parses the arguments, so it never falls behind them.

use std::process::ExitCode;

use crate::cli::{self, CompletionsArgs, GlobalArgs};
use crate::error::Error;
use crate::io::emit;

/// Prints the completion script of `args.shell`. It names no machine, so `--redact` holds
/// as it is.
pub fn exec(args: &CompletionsArgs, global: &GlobalArgs) -> Result<ExitCode, Error> {
    super::plain_output(
        "completions",
        global,
        "prints a script that does not depend on a machine; leave it out",
    )?;
    let mut cmd = cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "rigcheck", &mut buf);
    emit(&buf)?;
    Ok(ExitCode::SUCCESS)
}
