//! The clock the benchmarks' loops read, and the fixed points a budget is shared by.

use std::time::Instant;

/// The time the measuring loops read: the monotonic clock in a run. Tests give a clock that
/// moves a fixed step at each reading, so when a loop stops is checked without timing it.
pub trait Clock: Sync {
    fn now(&self) -> Instant;
}

/// `Instant::now`.
pub struct Monotonic;

impl Clock for Monotonic {
    fn now(&self) -> Instant {
        Instant::now()
    }
}

/// The ends of `parts` equal shares of the time from `from` to `end`: share k ends at
/// from + (end − from) × (k + 1) / parts. The ends are fixed points, not lengths, so a share
/// that ran late takes its time from the ones after it and the last still ends at `end`.
pub fn shares(from: Instant, end: Instant, parts: usize) -> Vec<Instant> {
    let parts = parts.max(1);
    let span = end.saturating_duration_since(from);
    (1..=parts)
        .map(|k| from + span.mul_f64(k as f64 / parts as f64))
        .collect()
}
