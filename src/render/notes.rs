//! The report's notes in words, for people: which fact a note is about (`GPU 0 FP32 peak`,
//! not `gpus[0].fp32_tflops`), named as the report's rows name it (`spec::names`), and whether it says why the fact is unknown or where a known
//! figure comes from. Notes that say the same of several GPUs are said once.
//!
//! A note is about an unknown when its field is `null`, missing or empty in the report, or
//! is a whole part of it (`system`, `gpus[0]`): those are the notes a reader acts on. The
//! others are sources and remarks (the clock a peak was computed at, the file a figure was
//! read from), shown on request.

use serde_json::Value;

use crate::spec::{names, Spec};

/// What a note tells the reader.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Why a fact is unknown, and how to get it.
    Unknown,
    /// Where a known figure comes from, or a remark on it.
    Source,
}

/// A note in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Said {
    /// Unknown or source.
    pub kind: Kind,
    /// The fact, in words: `System serial number`, `GPUs 0, 1 FP32 peak`.
    pub about: String,
    /// The note's text.
    pub why: String,
}

/// The notes of `spec` in words, in report order, notes that say the same of several GPUs
/// (or drives, or NUMA nodes) merged into one.
pub fn in_words(spec: &Spec) -> Vec<Said> {
    let report = serde_json::to_value(spec).unwrap_or(Value::Null);
    // (kind, the field with its index taken out, why) → the indices, in first-seen order.
    let mut merged: Vec<(Kind, String, String, Vec<Option<String>>)> = Vec::new();
    for n in &spec.notes {
        let kind = match lookup(&report, &n.field) {
            None | Some(Value::Null) | Some(Value::Object(_)) => Kind::Unknown,
            Some(Value::Array(a)) if a.is_empty() => Kind::Unknown,
            Some(_) => Kind::Source,
        };
        let (shape, index) = split_index(&n.field);
        match merged
            .iter_mut()
            .find(|(k, s, w, _)| *k == kind && *s == shape && *w == n.reason)
        {
            Some((_, _, _, idx)) if index.is_some() => idx.push(index),
            _ => merged.push((kind, shape, n.reason.clone(), vec![index])),
        }
    }
    merged
        .into_iter()
        .map(|(kind, shape, why, idx)| Said {
            kind,
            about: about(&shape, &idx, spec),
            why,
        })
        .collect()
}

/// The value at a report path such as `gpus[1].state.ecc_enabled`.
fn lookup<'a>(report: &'a Value, path: &str) -> Option<&'a Value> {
    let mut cur = report;
    for part in path.split('.') {
        let (name, index) = match part.split_once('[') {
            Some((n, rest)) => (n, rest.trim_end_matches(']').parse::<usize>().ok()),
            None => (part, None),
        };
        cur = cur.get(name)?;
        if let Some(i) = index {
            cur = cur.get(i)?;
        }
    }
    Some(cur)
}

/// `gpus[1].fp32_tflops` → (`gpus[].fp32_tflops`, `1`): the first index taken out.
fn split_index(field: &str) -> (String, Option<String>) {
    if let Some(open) = field.find('[') {
        if let Some(close) = field[open..].find(']') {
            let idx = field[open + 1..open + close].to_string();
            let shape = format!("{}[]{}", &field[..open], &field[open + close + 1..]);
            return (shape, Some(idx));
        }
    }
    (field.to_string(), None)
}

/// Words for a field; `idx` holds the list indices it stands for. The fact is named as the
/// report's rows name it (`spec::names`), after the part it belongs to: `System serial`,
/// `GPUs 0, 1 FP32 peak`, `NUMA node 1 local memory`.
fn about(shape: &str, idx: &[Option<String>], spec: &Spec) -> String {
    let indices: Vec<&str> = idx.iter().flatten().map(String::as_str).collect();
    let (head, rest) = shape.split_once('.').unwrap_or((shape, ""));
    let subject = match head {
        "gpus[]" => {
            let names: Vec<String> = indices
                .iter()
                .map(|i| {
                    i.parse::<usize>()
                        .ok()
                        .and_then(|n| spec.gpus.get(n).and_then(|g| g.index))
                        .map_or_else(|| i.to_string(), |n| n.to_string())
                })
                .collect();
            match names.len() {
                // `gpus[]`: every GPU.
                0 => "GPUs".to_string(),
                1 => format!("GPU {}", names[0]),
                _ => format!("GPUs {}", names.join(", ")),
            }
        }
        "drives[]" => {
            let names: Vec<String> = indices
                .iter()
                .map(|i| {
                    i.parse::<usize>()
                        .ok()
                        .and_then(|n| spec.drives.get(n))
                        .map_or_else(|| i.to_string(), |d| d.name.clone())
                })
                .collect();
            if names.is_empty() {
                "Drives".to_string()
            } else {
                format!("Drive {}", names.join(", "))
            }
        }
        // A drive's health (`health.drives[1]`): named by the drive.
        "health" if rest.starts_with("drives[]") => {
            let names: Vec<String> = indices
                .iter()
                .map(|i| {
                    i.parse::<usize>()
                        .ok()
                        .and_then(|n| spec.drives.get(n))
                        .map_or_else(|| i.to_string(), |d| d.name.clone())
                })
                .collect();
            let who = if names.is_empty() {
                "Drives".to_string()
            } else {
                format!("Drive {}", names.join(", "))
            };
            return if rest == "drives[]" {
                format!("{who} health")
            } else {
                join(&who, &attr(shape))
            };
        }
        // A link's AER counts (`health.pcie[2]`): named by its PCI address.
        "health" if rest == "pcie[]" => {
            let names: Vec<String> = indices
                .iter()
                .map(|i| {
                    i.parse::<usize>()
                        .ok()
                        .and_then(|n| spec.health.as_ref()?.pcie.get(n))
                        .map_or_else(|| i.to_string(), |p| p.address.clone())
                })
                .collect();
            // Several functions are counted, not listed: the Health section lists them.
            return match names.as_slice() {
                [one] => format!("PCIe errors at {one}"),
                many => format!("PCIe errors at {} functions", many.len()),
            };
        }
        // The other health facts are named alone: `Memory errors`, `CPU throttling`.
        "health" => return label(shape),
        "cpu" if rest.starts_with("numa_nodes[]") => {
            let nodes = match indices.len() {
                // `numa_nodes[]`: every node.
                0 => "NUMA nodes".to_string(),
                1 => format!("NUMA node {}", indices[0]),
                _ => format!("NUMA nodes {}", indices.join(", ")),
            };
            return if rest == "numa_nodes[]" {
                nodes
            } else {
                join(&nodes, &attr(shape))
            };
        }
        // A whole part, or a fact of the report itself: its own name.
        _ if rest.is_empty() => return label(shape),
        // The OS's and the limits' facts are named alone: `Kernel`, `CPU quota`.
        "os" | "limits" => String::new(),
        _ => label(head),
    };
    if rest.is_empty() {
        return subject;
    }
    join(&subject, &attr(shape))
}

/// The name of the fact at `shape` as a row of its part, else the path in words.
fn label(shape: &str) -> String {
    names::find(shape).map_or_else(|| words(shape), |n| n.label.to_string())
}

/// The name of a fact after its part's: `serial`, `fan speed`, `CUDA cores`.
fn attr(shape: &str) -> String {
    let l = label(shape);
    let mut c = l.chars();
    match (c.next(), c.next()) {
        // A word, not a name in capitals (`CUDA`, `SMs`, `PCIe`): lower case after the part.
        (Some(f), Some(s)) if f.is_uppercase() && s.is_lowercase() => {
            f.to_lowercase().chain(l.chars().skip(1)).collect()
        }
        _ => l,
    }
}

/// The subject and the fact: `CPU` and `microcode` make `CPU microcode`; a fact whose name
/// already says its part (`CPUs online`) stands alone.
fn join(subject: &str, attr: &str) -> String {
    let first = subject.split(' ').next().unwrap_or("").to_lowercase();
    match (subject.is_empty(), attr.is_empty()) {
        (true, _) => capitalise(attr),
        (_, true) => subject.to_string(),
        _ if !first.is_empty() && attr.to_lowercase().starts_with(&first) => capitalise(attr),
        _ => format!("{subject} {attr}"),
    }
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A path no name is given for, in words: its last part without its unit,
/// `some_new_field_mhz` → `some new field`.
fn words(path: &str) -> String {
    let last = path
        .rsplit('.')
        .next()
        .unwrap_or(path)
        .trim_end_matches("[]");
    let mut s = last.to_string();
    for unit in ["_bytes", "_mhz", "_percent", "_w", "_c"] {
        if let Some(stripped) = s.strip_suffix(unit) {
            s = stripped.to_string();
            break;
        }
    }
    capitalise(&s.replace('_', " "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::{Gpu, Note};

    fn note(field: &str, reason: &str) -> Note {
        Note {
            field: field.into(),
            reason: reason.into(),
        }
    }

    #[test]
    fn notes_speak_of_facts_in_words_and_say_the_same_once() {
        let mut spec = Spec::default();
        for i in 0..2 {
            spec.gpus.push(Gpu {
                index: Some(i),
                fp32_tflops: Some(16.3),
                ..Default::default()
            });
        }
        spec.notes = vec![
            note(
                "system.serial",
                "not supplied by the firmware (/sys/class/dmi/id/product_serial is absent)",
            ),
            note(
                "gpus[0].state.ecc_errors_uncorrected",
                "ECC is off on this GPU",
            ),
            note(
                "gpus[1].state.ecc_errors_uncorrected",
                "ECC is off on this GPU",
            ),
            note(
                "gpus[0].fp32_tflops",
                "peak TFLOPS at NVML max SM clock 1770 MHz",
            ),
            note("cpu.microcode", "/proc/cpuinfo on x86 does not report it"),
            note("os.kernel", "/proc/sys/kernel/osrelease is not present"),
        ];
        let said = in_words(&spec);
        let got: Vec<(Kind, &str)> = said.iter().map(|s| (s.kind, s.about.as_str())).collect();
        assert_eq!(
            got,
            [
                (Kind::Unknown, "System serial"),
                (Kind::Unknown, "GPUs 0, 1 uncorrected ECC errors"),
                (Kind::Source, "GPU 0 FP32 peak"),
                (Kind::Unknown, "CPU microcode"),
                (Kind::Unknown, "Kernel"),
            ]
        );
        assert_eq!(said[1].why, "ECC is off on this GPU");
    }

    #[test]
    fn paths_in_words() {
        assert_eq!(attr("gpus[].state.fan_percent"), "fan speed");
        assert_eq!(attr("gpus[].cuda_cores"), "CUDA cores");
        assert_eq!(label("limits.memory_limit"), "Memory limit");
        assert_eq!(label("gpus[].some_new_field_mhz"), "Some new field");
        assert_eq!(join("CPU", "CPUs online"), "CPUs online");
        assert_eq!(join("", "kernel"), "Kernel");
        assert_eq!(
            split_index("gpus[3].pcie.max_width"),
            ("gpus[].pcie.max_width".into(), Some("3".into()))
        );
    }
}
