//! rigcheck binary: parse arguments, run, and turn the outcome into an exit code.

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = rigcheck::cli::Cli::parse();
    match rigcheck::run(&cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("rigcheck: {e:#}");
            ExitCode::from(2)
        }
    }
}
