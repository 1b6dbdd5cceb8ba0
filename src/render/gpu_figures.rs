//! How a GPU's figures read in the report and the sheet: which clock a peak is at (rated
//! boost or NVML's max SM clock), and which facts are datasheet figures rather than the
//! driver's.

use crate::render::unknown::{show, show_str};
use crate::spec::{Gpu, MigInstance};
use crate::units::bytes_bin;

/// `text`, followed by ` (datasheet)` when `field` is a datasheet figure.
pub fn mark(g: &Gpu, field: &str, text: String) -> String {
    if g.from_datasheet(field) && text != show_str(&None) {
        format!("{text} (datasheet)")
    } else {
        text
    }
}

/// Where the GPU's facts come from, in a few words.
pub fn facts_from(g: &Gpu) -> String {
    let from_table: Vec<&str> = g
        .fact_sources
        .iter()
        .filter(|(_, v)| v.as_str() == Gpu::FROM_DATASHEET)
        .map(|(k, _)| k.as_str())
        .collect();
    match (g.index, &g.datasheet) {
        (None, Some(d)) => format!(
            "no driver: datasheet figures ({}, PCI {})",
            d.name, d.pci_id
        ),
        (None, None) => match g.candidates_name() {
            Some(c) => format!(
                "no driver: datasheet figures the {c} share (PCI {})",
                g.pci_device_id.as_deref().unwrap_or("id unknown")
            ),
            None => "PCI only (no driver, board not in the product table)".into(),
        },
        (Some(_), _) if from_table.is_empty() => "NVML".into(),
        (Some(_), _) => format!("NVML; datasheet for {}", from_table.join(", ")),
    }
}

/// How NVML's facts compare with the datasheet: `matches <product>`, or what differs.
/// `None` when there is nothing to compare (no driver, or a board the table lacks).
pub fn datasheet_check(g: &Gpu) -> Option<String> {
    let d = g.datasheet.as_ref()?;
    g.index?;
    Some(if g.datasheet_mismatches.is_empty() {
        format!("matches the {} datasheet", d.name)
    } else {
        format!("differs: {}", g.datasheet_mismatches.join("; "))
    })
}

/// The rated boost clock and where it comes from.
pub fn rated_clock(g: &Gpu) -> String {
    show(g.rated_clock_mhz, |c| {
        let from = match g.rated_clock_source.as_deref() {
            Some("nvml") => "NVML max customer boost",
            _ => "datasheet",
        };
        format!("{c} MHz ({from})")
    })
}

/// A rated figure and the same at the max clock, each with its clock:
/// `16.3 TFLOPS at 1770 MHz rated boost; 19.4 at 2100 MHz max clock`.
fn at_clocks(
    rated: Option<f64>,
    rated_clock: Option<u32>,
    rated_what: &str,
    max: Option<f64>,
    max_clock: Option<u32>,
    datasheet: bool,
) -> String {
    let tag = if datasheet { " (datasheet)" } else { "" };
    let rated_text = match (rated, rated_clock) {
        (Some(r), Some(c)) => Some(format!("{r:.1} TFLOPS at {c} MHz {rated_what}{tag}")),
        (Some(r), None) => Some(format!("{r:.1} TFLOPS (datasheet rating)")),
        (None, _) => None,
    };
    match (rated_text, max, max_clock) {
        (Some(_), Some(m), Some(mc))
            if rated_clock == Some(mc) || rated.is_some_and(|r| (r - m).abs() < 0.05) =>
        {
            format!("{m:.1} TFLOPS at {mc} MHz (rated = max clock)")
        }
        (Some(r), Some(m), Some(mc)) => format!("{r}; {m:.1} at {mc} MHz max clock"),
        (Some(r), _, _) => r,
        (None, Some(m), Some(mc)) => {
            format!("rated unknown; {m:.1} TFLOPS at {mc} MHz max clock")
        }
        _ => show_str(&None),
    }
}

/// FP32 peak, rated and at the max clock.
pub fn fp32(g: &Gpu) -> String {
    at_clocks(
        g.fp32_tflops,
        g.rated_clock_mhz,
        "rated boost",
        g.fp32_tflops_max_clock,
        g.max_sm_clock_mhz,
        g.index.is_none(),
    )
}

/// Dense FP16 tensor peak, rated and at the max clock.
pub fn fp16_tensor(g: &Gpu) -> String {
    let what =
        if g.rated_tensor_clock_mhz.is_some() && g.rated_tensor_clock_mhz != g.rated_clock_mhz {
            "rated tensor clock"
        } else {
            "rated boost"
        };
    at_clocks(
        g.fp16_tensor_tflops,
        g.rated_tensor_clock_mhz,
        what,
        g.fp16_tensor_tflops_max_clock,
        g.max_sm_clock_mhz,
        g.index.is_none(),
    )
}

/// FP16 tensor with FP32 accumulate, rated and at the max clock.
pub fn fp16_tensor_fp32_acc(g: &Gpu) -> String {
    at_clocks(
        g.fp16_tensor_fp32_acc_tflops,
        g.rated_tensor_clock_mhz,
        "rated boost",
        g.fp16_tensor_fp32_acc_tflops_max_clock,
        g.max_sm_clock_mhz,
        g.index.is_none(),
    )
}

/// One MIG instance as a report row: label and value.
pub fn mig_row(m: &MigInstance) -> (String, String) {
    let label = match (m.gpu_instance_id, m.compute_instance_id) {
        (Some(gi), Some(ci)) => format!("MIG {} (GI {gi}, CI {ci})", m.index),
        _ => format!("MIG {}", m.index),
    };
    let mut parts = vec![show_str(&m.profile)];
    if let Some(s) = m.sm_count {
        parts.push(format!("{s} SMs"));
    }
    if let Some(c) = m.cuda_cores {
        parts.push(format!("{c} CUDA cores"));
    }
    if let Some(t) = m.tensor_cores.filter(|t| *t > 0) {
        parts.push(format!("{t} Tensor cores"));
    }
    if let Some(b) = m.memory_bytes {
        parts.push(bytes_bin(b));
    }
    if let Some(t) = m.fp32_tflops {
        parts.push(format!("{t:.1} TFLOPS FP32"));
    }
    if let Some(u) = &m.uuid {
        parts.push(u.clone());
    }
    (label, parts.join(" · "))
}
