//! rigcheck: inventory a workstation or GPU server, live or from a recorded sysroot, check it
//! against its order, and render what it can do.
//!
//! Layers, each importing only those below it (`docs/architecture.md`):
//! - face: `cli` (clap), `commands` (one module per subcommand), `run` here;
//! - engines: `probe` (machine → `Spec`), the checks `verify`, `diff`, `preflight`, `fleet`,
//!   `profile`, `requirement` (with `outcome`: the verdict and the exit codes), plus `bench`,
//!   `capture`, `redact`, `render` (text out), and `schema` (the JSON Schema of each JSON
//!   document written);
//! - base: `spec` (the model), `units`, `source`, `bounded`, `io`, `text`, `natural`, `error`,
//!   `sys` (the OS calls).
//!
//! `run` is the whole program behind `main`: it returns the exit code (0 all holds, 1 a check
//! failed, 2 usage or input error), and `Error` says what ended a run early.

pub mod bench;
pub mod bounded;
pub mod capture;
pub mod cpulist;
pub mod diff;
pub mod error;
pub mod fleet;
pub mod io;
pub mod locator;
pub mod native;
pub mod natural;
pub mod outcome;
pub mod preflight;
pub mod probe;
pub mod profile;
pub mod redact;
pub mod render;
pub mod report_file;
pub mod requirement;
pub mod rules;
pub mod schema;
pub mod signals;
pub mod source;
pub mod spec;
pub mod sys;
pub mod text;
pub mod units;
pub mod verify;

pub use error::Error;
pub use io::{read_input, terminal_safe};
pub use report_file::load_report;
