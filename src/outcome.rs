//! The verdict of a check on a whole machine and the exit codes every command shares, kept
//! apart so a check (diff, fleet, bench) names them without importing another check.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Exit code when everything holds.
pub const EXIT_PASS: u8 = 0;

/// Exit code when a check failed (or hardware changed, for `diff`).
pub const EXIT_FAIL: u8 = 1;

/// Exit code when a run could not start or finish: a usage error or a bad input file.
pub const EXIT_ERROR: u8 = 2;

/// Exit code of a check that could not see everything it was asked to check: not a pass,
/// not a failure. 0, 1 and 2 are taken (pass, fail, usage or input error).
pub const EXIT_INCOMPLETE: u8 = 3;

/// The verdict on the whole machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Every line passed (or was unknown, where unknowns are allowed).
    Pass,
    /// A line failed (or was unknown, under `--strict`).
    Fail,
    /// Nothing failed, but a line could not be checked: the machine is not known to match.
    Incomplete,
}

impl Outcome {
    /// The word of the summary line: `PASS`, `FAIL`, `INCOMPLETE`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Pass => "PASS",
            Outcome::Fail => "FAIL",
            Outcome::Incomplete => "INCOMPLETE",
        }
    }

    /// 0 pass, 1 fail, 3 incomplete.
    pub fn exit_code(self) -> u8 {
        match self {
            Outcome::Pass => EXIT_PASS,
            Outcome::Fail => EXIT_FAIL,
            Outcome::Incomplete => EXIT_INCOMPLETE,
        }
    }
}
