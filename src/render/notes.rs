//! The report's notes in words, for people: which fact a note is about (`GPU 0 FP32 peak`,
//! not `gpus[0].fp32_tflops`), and whether it says why the fact is unknown or where a known
//! figure comes from. Notes that say the same of several GPUs are said once.
//!
//! A note is about an unknown when its field is `null`, missing or empty in the report, or
//! is a whole part of it (`system`, `gpus[0]`): those are the notes a reader acts on. The
//! others are sources and remarks (the clock a peak was computed at, the file a figure was
//! read from), shown on request.

use serde_json::Value;

use crate::spec::Spec;

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

/// Words for a field; `idx` holds the list indices it stands for.
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
            if names.len() > 1 {
                format!("GPUs {}", names.join(", "))
            } else {
                format!("GPU {}", names.join(""))
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
            format!("Drive {}", names.join(", "))
        }
        "cpu" if rest.starts_with("numa_nodes[]") => {
            let label = if indices.len() > 1 {
                "NUMA nodes"
            } else {
                "NUMA node"
            };
            let tail = rest
                .trim_start_matches("numa_nodes[]")
                .trim_start_matches('.');
            return join(&format!("{label} {}", indices.join(", ")), &words(tail));
        }
        "system" => "System".into(),
        "cpu" => "CPU".into(),
        "memory" => "Memory".into(),
        "os" => String::new(),
        "headroom" => "Headroom".into(),
        "limits" if rest.is_empty() => "Limits".into(),
        "limits" => String::new(),
        "hostname" => return "Host name".into(),
        "captured_at" => return "Capture time".into(),
        "drives" => return "Drives".into(),
        "gpus" => return "GPUs".into(),
        other => words(other),
    };
    let attr = match (head, rest) {
        ("system", "serial") => "serial number".to_string(),
        ("system", "uuid") => "UUID".to_string(),
        ("os", "name") => "OS".to_string(),
        ("os", "kernel") => "Kernel".to_string(),
        ("os", "arch") => "Architecture".to_string(),
        ("memory", "total_bytes") => "installed".to_string(),
        ("memory", "usable_bytes") => "usable (MemTotal)".to_string(),
        ("cpu", "cpus_present") => return "CPUs present".into(),
        ("cpu", "online") => return "CPUs online".into(),
        ("cpu", "offline") => return "CPUs offline".into(),
        _ => words(rest),
    };
    join(&subject, &attr)
}

fn join(subject: &str, attr: &str) -> String {
    match (subject.is_empty(), attr.is_empty()) {
        (true, _) => capitalise(attr),
        (_, true) => subject.to_string(),
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

/// A field path in words: `state.ecc_errors_uncorrected` → `uncorrected ECC errors`.
fn words(path: &str) -> String {
    const NAMES: &[(&str, &str)] = &[
        ("base_mhz", "base clock"),
        ("base_mhz_source", "base clock source"),
        ("max_mhz", "max clock"),
        ("min_mhz", "min clock"),
        ("model_id", "model number"),
        ("peak_fp64_gflops", "FP64 peak"),
        ("fma_units", "AVX-512 FMA units"),
        ("numa_nodes", "NUMA nodes"),
        ("governor", "frequency governor"),
        ("scaling_driver", "frequency driver"),
        ("board_serial", "board serial number"),
        ("family", "family"),
        ("sku", "SKU"),
        ("dimms", "DIMMs"),
        ("memory_bytes", "local memory"),
        ("fp32_tflops", "FP32 peak"),
        ("fp16_tensor_tflops", "FP16 Tensor peak"),
        (
            "fp16_tensor_fp32_acc_tflops",
            "FP16 Tensor peak with FP32 accumulate",
        ),
        ("fp32_tflops_max_clock", "FP32 peak at max clock"),
        (
            "fp16_tensor_tflops_max_clock",
            "FP16 Tensor peak at max clock",
        ),
        (
            "fp16_tensor_fp32_acc_tflops_max_clock",
            "FP16 Tensor peak with FP32 accumulate at max clock",
        ),
        ("rated_clock_mhz", "rated boost clock"),
        ("rated_tensor_clock_mhz", "rated Tensor clock"),
        ("max_customer_boost_clock_mhz", "max customer boost clock"),
        ("max_sm_clock_mhz", "max SM clock"),
        ("datasheet_mismatches", "datasheet check"),
        ("mig_instances", "MIG instances"),
        ("cuda_cores", "CUDA cores"),
        ("sm_count", "SMs"),
        ("tensor_cores", "Tensor cores"),
        ("serial", "serial number"),
        ("uuid", "UUID"),
        ("vbios_version", "VBIOS"),
        ("pcie.max_width", "PCIe link width"),
        ("pcie.width", "PCIe link width"),
        ("state.ecc_enabled", "ECC mode"),
        ("state.ecc_errors_uncorrected", "uncorrected ECC errors"),
        ("state.ecc_errors_corrected", "corrected ECC errors"),
        ("state.fan_percent", "fan speed"),
        ("state.utilization_percent", "utilisation"),
        ("state.retired_pages_pending", "retired pages pending"),
        ("state.temperature_c", "temperature"),
        ("state.power_draw_w", "power draw"),
        ("memory.balanced", "memory balance"),
        ("memory.usable_free_slots", "usable free DIMM slots"),
        ("pcie_slots", "PCIe slots"),
        ("power.supplies", "power supplies"),
        ("affinity_cpus", "CPU affinity"),
        ("cpu_quota", "CPU quota"),
        ("mem_available_bytes", "available memory"),
        ("memory_limit", "memory limit"),
        ("open_files_soft", "open files limit"),
        ("shm", "/dev/shm"),
        ("transparent_hugepages", "transparent huge pages"),
    ];
    if let Some((_, w)) = NAMES.iter().find(|(k, _)| *k == path) {
        return (*w).to_string();
    }
    let last = path.rsplit('.').next().unwrap_or(path);
    if let Some((_, w)) = NAMES.iter().find(|(k, _)| *k == last) {
        return (*w).to_string();
    }
    let mut s = last.to_string();
    for unit in ["_bytes", "_mhz", "_percent", "_w", "_c"] {
        if let Some(stripped) = s.strip_suffix(unit) {
            s = stripped.to_string();
            break;
        }
    }
    s.replace('_', " ")
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
                (Kind::Unknown, "System serial number"),
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
        assert_eq!(words("state.fan_percent"), "fan speed");
        assert_eq!(words("memory_limit"), "memory limit");
        assert_eq!(words("some_new_field_mhz"), "some new field");
        assert_eq!(
            split_index("gpus[3].pcie.max_width"),
            ("gpus[].pcie.max_width".into(), Some("3".into()))
        );
    }
}
