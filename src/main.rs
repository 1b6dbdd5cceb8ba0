//! rigcheck binary: parse arguments, run, and turn the outcome into an exit code.

use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match rigcheck::cli::Cli::from_args() {
        Ok(cli) => cli,
        Err(e) => return rigcheck::usage_error(&e),
    };
    match rigcheck::run(&cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("rigcheck: {}", rigcheck::io::error_line(&e.to_string()));
            ExitCode::from(rigcheck::outcome::EXIT_ERROR)
        }
    }
}
