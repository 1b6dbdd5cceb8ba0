//! rigcheck: inventory a workstation or GPU server, live or from a recorded sysroot, check it
//! against its order, and render what it can do.
//!
//! Layers, each importing only those below it (`docs/architecture.md`):
//! - face: `cli` (clap), `commands` (one module per subcommand), `run` here;
//! - engines: `probe` (machine → `Spec`), the checks `verify`, `diff`, `preflight`, `fleet`,
//!   `profile`, `requirement`, plus `bench`, `capture`, `redact`, and `render` (text out);
//! - base: `spec` (the model), `units`, `source`, `io`, `text`, `natural`, `error`.
//!
//! `run` is the whole program behind `main`: it returns the exit code (0 all holds, 1 a check
//! failed, 2 usage or input error), and `Error` says what ended a run early.

pub mod bench;
pub mod capture;
pub mod cli;
pub mod commands;
pub mod cpulist;
pub mod diff;
pub mod error;
pub mod fleet;
pub mod io;
pub mod locator;
pub mod natural;
pub mod preflight;
pub mod probe;
pub mod profile;
pub mod redact;
pub mod render;
pub mod requirement;
pub mod source;
pub mod spec;
pub mod text;
pub mod units;
pub mod verify;

use std::process::ExitCode;

pub use commands::load_report;
pub use error::Error;
pub use io::{read_input, terminal_safe};

use cli::{Cli, Command};

/// Runs one command line: dispatches to the command's `exec`.
pub fn run(cli: &Cli) -> Result<ExitCode, Error> {
    let g = &cli.global;
    match &cli.command {
        Some(Command::Inventory(args)) => commands::inventory::exec(args, g),
        Some(Command::Capture(args)) => commands::capture::exec(args, g),
        Some(Command::Verify(args)) => commands::verify::exec(args, g),
        Some(Command::Profiles(args)) => commands::profiles::exec(args, g),
        Some(Command::Profile(args)) => commands::profile::exec(args, g),
        Some(Command::Diff(args)) => commands::diff::exec(args, g),
        Some(Command::Preflight(args)) => commands::preflight::exec(args, g),
        Some(Command::Sheet(args)) => commands::sheet::exec(args, g),
        Some(Command::Fleet(args)) => commands::fleet::exec(args, g),
        Some(Command::Bench(args)) => commands::bench::exec(args, g),
        Some(Command::Completions(args)) => commands::completions::exec(args),
        Some(Command::Man(args)) => commands::man::exec(args),
        None => commands::inventory::exec(&cli.inventory, g),
    }
}
