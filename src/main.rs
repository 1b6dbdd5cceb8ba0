//! rigcheck binary: parse arguments, run the command, and turn the outcome into an exit code.
//! The command line (`cli`) and the commands (`commands`) live here; the library holds the
//! machine, the checks and the renderers.

mod cli;
mod commands;
mod usage;

use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match cli::Cli::from_args() {
        Ok(cli) => cli,
        Err(e) => return usage::usage_error(&e),
    };
    match commands::run(&cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("rigcheck: {}", rigcheck::io::error_line(&e.to_string()));
            ExitCode::from(rigcheck::outcome::EXIT_ERROR)
        }
    }
}
