//! `rigcheck completions SHELL`: a completion script for the shell, from the same clap
//! command that parses the arguments, so it never falls behind them.

use std::process::ExitCode;

use crate::cli::{self, CompletionsArgs};
use crate::error::Error;
use crate::io::emit;

/// Prints the completion script of `args.shell`.
pub fn exec(args: &CompletionsArgs) -> Result<ExitCode, Error> {
    let mut cmd = cli::command();
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "rigcheck", &mut buf);
    emit(&buf)?;
    Ok(ExitCode::SUCCESS)
}
