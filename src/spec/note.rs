//! Notes: why a fact is unknown (or how it was chosen), and the collector probes push them
//! into instead of failing.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Why a field is unknown (or how a value was chosen), and how to get it.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq, PartialOrd, Ord)]
pub struct Note {
    /// Dotted JSON path of the field, e.g. `system.serial`, `gpus[0].state.fan_percent`;
    /// `[]` for every item of a list (`cpu.numa_nodes[].memory_bytes`). A path must name a
    /// field of the report: `tests/note_fields.rs` checks every note of every recording.
    pub field: String,
    /// Human sentence: what is missing and why, or which source was used.
    pub reason: String,
}

/// Collects notes while probing; probes push here instead of failing.
#[derive(Debug, Default)]
pub struct Notes(pub Vec<Note>);

impl Notes {
    /// Records why `field` is unknown (or how it was derived).
    pub fn add(&mut self, field: impl Into<String>, reason: impl ToString) {
        self.0.push(Note {
            field: field.into(),
            reason: reason.to_string(),
        });
    }

    /// Unwraps a probe result: the value, or `None` with a note for `field`.
    pub fn take<T, E: ToString>(&mut self, field: &str, r: Result<T, E>) -> Option<T> {
        match r {
            Ok(v) => Some(v),
            Err(e) => {
                self.add(field, e);
                None
            }
        }
    }
}
