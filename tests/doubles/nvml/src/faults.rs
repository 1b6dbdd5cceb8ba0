//! Failures on demand: the rules of `RIGCHECK_NVML_DOUBLE_FAIL`, each making an entry point
//! answer an NVML error (or never answer) instead of the recorded value.
//!
//! `RULE;RULE;...`, each `SYMBOL[@GPU][#AFTER]=WHAT`:
//! - `SYMBOL`: an exported NVML function (`nvmlDeviceGetTemperature`), or `*` for every
//!   entry point but init, shutdown and `nvmlErrorString`;
//! - `@GPU`: only calls about that NVML index (a device handle of it, a MIG device of it, or
//!   `nvmlDeviceGetHandleByIndex_v2` asked for it);
//! - `#AFTER`: the rule lets its first AFTER matching calls through and fails the rest (a GPU
//!   lost in the middle of the enumeration);
//! - `WHAT`: an NVML error as nvml.json names it (`NotSupported`, `NoPermission`, `GpuLost`,
//!   `Uninitialized`, `LibRmVersionMismatch`, `DriverNotLoaded`, ...), or `hang`: the call
//!   never returns.

use crate::capture;
use crate::ret;

/// What a rule does to a call it matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Answer this NVML return code.
    Fail(ret::Code),
    /// Never return.
    Hang,
}

#[derive(Debug)]
struct Rule {
    symbol: String,
    gpu: Option<u32>,
    after: u64,
    action: Action,
    seen: u64,
}

/// The rules in force, with how many calls each has matched so far.
#[derive(Debug, Default)]
pub struct Faults {
    rules: Vec<Rule>,
}

/// Entry points `*` leaves alone: without them NVML could not start or stop at all.
const LIFECYCLE: [&str; 5] = [
    "nvmlInit",
    "nvmlInit_v2",
    "nvmlInitWithFlags",
    "nvmlShutdown",
    "nvmlErrorString",
];

impl Faults {
    /// Parses the rules (empty text: none).
    pub fn parse(text: &str) -> Result<Faults, String> {
        let mut rules = Vec::new();
        for rule in text.split(';').map(str::trim).filter(|r| !r.is_empty()) {
            let (target, what) = rule
                .split_once('=')
                .ok_or_else(|| format!("'{rule}': expected SYMBOL[@GPU][#AFTER]=WHAT"))?;
            let action = match what.trim() {
                "hang" => Action::Hang,
                name if capture::known(name) => Action::Fail(capture::code(name)),
                other => return Err(format!("'{rule}': '{other}' is no NVML error name")),
            };
            let (target, after) = match target.split_once('#') {
                Some((t, n)) => (
                    t,
                    n.trim()
                        .parse()
                        .map_err(|_| format!("'{rule}': bad #AFTER"))?,
                ),
                None => (target, 0),
            };
            let (symbol, gpu) = match target.split_once('@') {
                Some((s, g)) => (
                    s,
                    Some(
                        g.trim()
                            .parse()
                            .map_err(|_| format!("'{rule}': bad @GPU"))?,
                    ),
                ),
                None => (target, None),
            };
            let symbol = symbol.trim();
            if symbol != "*" && !symbol.starts_with("nvml") {
                return Err(format!("'{rule}': '{symbol}' is no NVML function"));
            }
            rules.push(Rule {
                symbol: symbol.to_string(),
                gpu,
                after,
                action,
                seen: 0,
            });
        }
        Ok(Faults { rules })
    }

    /// The action for a call of `symbol` about GPU `gpu`, if a rule takes it.
    pub fn check(&mut self, symbol: &str, gpu: Option<u32>) -> Option<Action> {
        let mut out = None;
        for r in &mut self.rules {
            let by_name = r.symbol == symbol || (r.symbol == "*" && !LIFECYCLE.contains(&symbol));
            let by_gpu = r.gpu.is_none() || r.gpu == gpu;
            if by_name && by_gpu {
                r.seen += 1;
                if r.seen > r.after && out.is_none() {
                    out = Some(r.action);
                }
            }
        }
        out
    }
}
