//! rigcheck: inventory a workstation or GPU server, live or from a recorded sysroot, check it
//! against its order, and render what it can do.
//!
//! Layers, each importing only those below it (`docs/architecture.md`):
//! - engines: `probe` (machine → `Spec`), `bench`, `capture`, `redact`, `report_file`,
//!   `render` (text out) and `schema` (the JSON Schema of each JSON document written);
//! - checks: `verify`, `measured`, `requirement`, `profile`, `diff`, `preflight`, `fleet`;
//! - rules: `rules` (every judgement the checks and the renderers share);
//! - base: `spec` (the model), `native`, `units`, `source`, `bounded`, `io`, `text`,
//!   `natural`, `error`, `outcome` (the verdict and the exit codes), `sys` (the OS calls).
//!
//! The command line and the commands are the binary's (`src/main.rs`); `Error` says what
//! ended a run early.

pub mod bench;
pub mod bounded;
pub mod capture;
pub mod cpulist;
pub mod diff;
pub mod error;
pub mod fleet;
pub mod io;
pub mod locator;
pub mod measured;
pub mod native;
pub mod natural;
pub mod outcome;
pub mod plausible;
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
