//! Judges what `verify --measure` measured: each `[measured]` bound of the order against the
//! benchmark figures, and the health counters read before and after the run, as verify lines.
//!
//! Pure: the benchmarks ran before (the command runs them); this reads their report
//! (`spec::bench`) and the inventories. A share of a rated figure that is unknown is unknown
//! with why, never a pass; a figure below its bound says the likely cause where the
//! inventory or the soak shows one.

use crate::profile::{Amount, MeasuredBound, MeasuredKey};
use crate::rules;
use crate::rules::health;
use crate::spec::bench::{BenchReport, GpuMatmul, GpuSoak};
use crate::spec::{Gpu, Spec};
use crate::units::fmt_rate;
use crate::verify::{Line, Status};

/// What a run measured, for judging.
pub struct Run<'a> {
    /// The inventory before the run (rated figures, links, processes, counters).
    pub before: &'a Spec,
    /// The inventory after the run, where a part ran: the health counters to compare.
    pub after: Option<&'a Spec>,
    pub bench: &'a BenchReport,
}

/// The verify lines of `bounds` (and, with `all`, a line for every figure measured that has
/// no bound: its value, passing when measured), then the health rows of the counters read
/// before and after the run.
pub fn lines(run: &Run<'_>, bounds: &[MeasuredBound], all: bool) -> Vec<Line> {
    let mut out = Vec::new();
    for key in MeasuredKey::ALL {
        let bound = bounds.iter().find(|b| b.key == key);
        if bound.is_none() && !(all && measured_part(run.bench, key)) {
            continue;
        }
        match key {
            MeasuredKey::MemoryBandwidth => out.push(memory(run, bound)),
            MeasuredKey::DiskRead => out.push(disk(run, bound)),
            MeasuredKey::GpuFp32 | MeasuredKey::GpuFp16Tensor => {
                out.extend(gpu_rate(run, key, bound))
            }
            MeasuredKey::GpuSoak => out.extend(soak(run, bound)),
            MeasuredKey::DataLoader => out.push(loader(run, bound)),
        }
    }
    let rows = health(run);
    // A part measured whose counters could not be read is not watched: its line says so
    // (and why), rather than a health line that could only be unknown.
    for (measured_id, row, field, what) in [
        (
            "measured.memory_bandwidth",
            "health.memory",
            "health.memory",
            "memory errors",
        ),
        (
            "measured.disk_read",
            "health.drives",
            "health.drives",
            "the drive's health log",
        ),
    ] {
        if run.after.is_none() || rows.iter().any(|l| l.id == row) {
            continue;
        }
        let Some(l) = out.iter_mut().find(|l| l.id == measured_id) else {
            continue;
        };
        let under = format!("{field}[");
        let why = run
            .before
            .notes
            .iter()
            .find(|n| n.field == field || n.field.starts_with(&under))
            .map_or_else(|| "no counter read".to_string(), |n| n.reason.clone());
        let said = format!("{what} not watched during the run: {why}");
        l.note = Some(match l.note.take() {
            Some(n) => format!("{n}; {said}"),
            None => said,
        });
    }
    out.extend(rows);
    out
}

/// Whether the run has the part `key` reads (for `--measure all` without a bound).
fn measured_part(b: &BenchReport, key: MeasuredKey) -> bool {
    match key {
        MeasuredKey::MemoryBandwidth => b.memory.is_some(),
        MeasuredKey::DiskRead => b.disk.is_some(),
        MeasuredKey::GpuFp32 | MeasuredKey::GpuFp16Tensor | MeasuredKey::GpuSoak => {
            b.gpu.as_ref().is_some_and(|g| !g.per_gpu.is_empty())
        }
        MeasuredKey::DataLoader => b.cpu.is_some(),
    }
}

/// The first note of the bench report on `field` or under it.
fn why(b: &BenchReport, field: &str) -> Option<String> {
    let under = format!("{field}.");
    b.notes
        .iter()
        .find(|n| n.field == field)
        .or_else(|| b.notes.iter().find(|n| n.field.starts_with(&under)))
        .map(|n| n.reason.clone())
}

/// A measured figure against its bound.
struct Judged {
    expected: String,
    status: Status,
    /// Why unknown.
    note: Option<String>,
}

/// `value` (in the figure's unit) against `bound`, where `rated` is the part's rated figure
/// (or why it is unknown) and `show` writes a figure.
fn judge(
    value: f64,
    bound: Option<&MeasuredBound>,
    rated: Result<f64, String>,
    show: &dyn Fn(f64) -> String,
) -> Judged {
    let share_of = |r: f64| format!(" ({:.0} % of rated {})", 100.0 * value / r, show(r));
    match bound.and_then(|b| b.at_least) {
        None => Judged {
            expected: "measured (no bound)".into(),
            status: Status::Pass,
            note: rated.ok().map(|r| share_of(r).trim().to_string()),
        },
        Some(Amount::Absolute(min)) => Judged {
            expected: format!("≥ {}", show(min)),
            status: if value >= min {
                Status::Pass
            } else {
                Status::Fail
            },
            note: rated.ok().map(|r| share_of(r).trim().to_string()),
        },
        Some(Amount::Share(s)) => match rated {
            Ok(r) => Judged {
                expected: format!(
                    "≥ {:.0} % of rated {} = {}",
                    100.0 * s,
                    show(r),
                    show(s * r)
                ),
                status: if value >= s * r {
                    Status::Pass
                } else {
                    Status::Fail
                },
                note: Some(share_of(r).trim().to_string()),
            },
            Err(why) => Judged {
                expected: format!("≥ {:.0} % of rated", 100.0 * s),
                status: Status::Unknown,
                note: Some(format!("rated figure unknown: {why}")),
            },
        },
    }
}

fn line(id: &str, requirement: String, j: Judged, found: String) -> Line {
    Line {
        id: id.to_string(),
        requirement,
        expected: j.expected,
        found,
        status: j.status,
        note: j.note,
    }
}

fn unmeasured(id: &str, requirement: String, bound: Option<&MeasuredBound>, why: String) -> Line {
    let expected = match bound.and_then(|b| b.at_least) {
        Some(Amount::Share(s)) => format!("≥ {:.0} % of rated", 100.0 * s),
        Some(Amount::Absolute(_)) | None => "measured".into(),
    };
    Line {
        id: id.to_string(),
        requirement,
        expected,
        found: "not measured".into(),
        status: Status::Unknown,
        note: Some(why),
    }
}

fn bytes_rate(v: f64) -> String {
    fmt_rate(v, "B/s")
}

/// STREAM triad on the most threads measured.
fn memory(run: &Run<'_>, bound: Option<&MeasuredBound>) -> Line {
    let id = "measured.memory_bandwidth";
    let label = "Memory bandwidth (STREAM triad)".to_string();
    let Some(m) = &run.bench.memory else {
        let why = why(run.bench, "bench.memory").unwrap_or_else(|| "memory not measured".into());
        return unmeasured(id, label, bound, why);
    };
    let Some(triad) = m
        .results
        .iter()
        .filter(|r| r.kernel == "triad")
        .max_by_key(|r| r.threads)
    else {
        return unmeasured(id, label, bound, "no triad result".into());
    };
    let rated = m.peak_bytes_per_s.map(|p| p as f64).ok_or_else(|| {
        why(run.bench, "bench.memory.peak_bytes_per_s")
            .unwrap_or_else(|| "the DIMMs' speeds are unknown".into())
    });
    let mut j = judge(triad.bytes_per_s, bound, rated, &bytes_rate);
    if j.status == Status::Fail {
        if let Some(cause) = memory_cause(run.before) {
            j.note = Some(match j.note {
                Some(n) => format!("{n}; likely cause: {cause}"),
                None => format!("likely cause: {cause}"),
            });
        }
    }
    let found = format!(
        "{} ({} threads)",
        bytes_rate(triad.bytes_per_s),
        triad.threads
    );
    line(id, label, j, found)
}

/// What the slots show that holds memory bandwidth down: empty slots beside populated
/// ones (channels left unpopulated), DIMMs at different speeds (all run at the slowest),
/// the balance the headroom probe found.
fn memory_cause(spec: &Spec) -> Option<String> {
    let m = &spec.memory;
    let mut causes = Vec::new();
    if !m.dimms.is_empty() && !m.empty_slots.is_empty() {
        causes.push(format!(
            "{} of {} slots empty ({}): channels may be unpopulated",
            m.empty_slots.len(),
            m.empty_slots.len() + m.dimms.len(),
            m.empty_slots.join(", ")
        ));
    }
    let mut speeds: Vec<u32> = m
        .dimms
        .iter()
        .filter_map(|d| d.configured_speed_mts.or(d.speed_mts))
        .collect();
    speeds.sort_unstable();
    speeds.dedup();
    if speeds.len() > 1 {
        causes.push(format!(
            "mixed DIMM speeds ({} MT/s): all run at the slowest",
            speeds
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    if let Some(u) = rules::memory_unbalanced(spec) {
        causes.push(format!("unbalanced memory: {u}"));
    }
    (!causes.is_empty()).then(|| causes.join("; "))
}

/// Direct-I/O sequential read, against the drive's link.
fn disk(run: &Run<'_>, bound: Option<&MeasuredBound>) -> Line {
    let id = "measured.disk_read";
    let label = "Disk read (direct I/O)".to_string();
    let Some(d) = &run.bench.disk else {
        let why = why(run.bench, "bench.disk").unwrap_or_else(|| "disk not measured".into());
        return unmeasured(id, label, bound, why);
    };
    let rated = d.link_bytes_per_s.map(|p| p as f64).ok_or_else(|| {
        why(run.bench, "bench.disk.link_bytes_per_s").unwrap_or_else(|| {
            format!(
                "the link of {} is unknown",
                d.drive.as_deref().unwrap_or("the drive")
            )
        })
    });
    let j = judge(d.bytes_per_s, bound, rated, &bytes_rate);
    let found = format!(
        "{} ({})",
        bytes_rate(d.bytes_per_s),
        d.drive.as_deref().unwrap_or(&d.path)
    );
    line(id, label, j, found)
}

/// The data loader's images per second on the most threads, against linear scaling.
fn loader(run: &Run<'_>, bound: Option<&MeasuredBound>) -> Line {
    let id = "measured.data_loader";
    let label = "Data loader (images/s)".to_string();
    let Some(c) = &run.bench.cpu else {
        let why = why(run.bench, "bench.cpu").unwrap_or_else(|| "data loader not measured".into());
        return unmeasured(id, label, bound, why);
    };
    let (Some(one), Some(top)) = (
        c.points.iter().find(|p| p.threads == 1),
        c.points.iter().max_by_key(|p| p.threads),
    ) else {
        return unmeasured(id, label, bound, "no result".into());
    };
    let linear = Ok(one.images_per_s * f64::from(top.threads));
    let show = |v: f64| format!("{v:.0} images/s");
    let j = judge(top.images_per_s, bound, linear, &show);
    let found = format!("{} ({} threads)", show(top.images_per_s), top.threads);
    line(id, label, j, found)
}

/// The inventory's GPU a benchmark's GPU is, by PCI address.
fn inventory_gpu<'a>(spec: &'a Spec, pci: Option<&str>) -> Option<&'a Gpu> {
    let pci = pci?;
    spec.gpus.iter().find(|g| {
        g.pci_address
            .as_deref()
            .is_some_and(|a| a.eq_ignore_ascii_case(pci))
    })
}

fn gpu_name(m: &GpuMatmul) -> String {
    match &m.pci_address {
        Some(a) => format!("GPU {} ({a})", m.cuda_index),
        None => format!("GPU {}", m.cuda_index),
    }
}

/// One line per GPU: its FP32 or FP16 tensor TFLOPS against its rated figure.
fn gpu_rate(run: &Run<'_>, key: MeasuredKey, bound: Option<&MeasuredBound>) -> Vec<Line> {
    let (what, field) = match key {
        MeasuredKey::GpuFp32 => ("FP32", "fp32_tflops"),
        _ => ("FP16 tensor", "fp16_tflops"),
    };
    let Some(g) = run.bench.gpu.as_ref().filter(|g| !g.per_gpu.is_empty()) else {
        let why = why(run.bench, "bench.gpu").unwrap_or_else(|| "no GPU measured".into());
        return vec![unmeasured(
            &format!("measured.{}", key.key()),
            format!("GPU {what} (measured)"),
            bound,
            why,
        )];
    };
    let show = |v: f64| format!("{v:.1} TFLOPS");
    g.per_gpu
        .iter()
        .map(|m| {
            let id = format!("measured.{}.gpus[{}]", key.key(), m.cuda_index);
            let label = format!("{} {what} (measured)", gpu_name(m));
            let (value, rated) = match key {
                MeasuredKey::GpuFp32 => (m.fp32_tflops, m.fp32_peak_tflops),
                _ => (m.fp16_tflops, m.fp16_peak_tflops),
            };
            let Some(value) = value else {
                let why = why(
                    run.bench,
                    &format!("bench.gpu.per_gpu[{}].{field}", m.cuda_index),
                )
                .or_else(|| why(run.bench, &format!("bench.gpu.per_gpu[{}]", m.cuda_index)))
                .unwrap_or_else(|| "the multiply did not run".into());
                return unmeasured(&id, label, bound, why);
            };
            let rated = rated.ok_or_else(|| {
                format!(
                    "{} is not in rigcheck's GPU table and the driver gives no rated clock",
                    m.name.as_deref().unwrap_or("the GPU")
                )
            });
            let mut j = judge(value, bound, rated, &show);
            if j.status == Status::Fail {
                let soak = g.soak.iter().find(|s| s.cuda_index == m.cuda_index);
                let inv = inventory_gpu(run.before, m.pci_address.as_deref());
                let causes = gpu_causes(inv, soak);
                let cause = if causes.is_empty() {
                    "no cause rigcheck can see (link, throttling, other processes look right)"
                        .to_string()
                } else {
                    format!("likely cause: {}", causes.join("; "))
                };
                j.note = Some(match j.note {
                    Some(n) => format!("{n}; {cause}"),
                    None => cause,
                });
            }
            line(&id, label, j, show(value))
        })
        .collect()
}

/// What rigcheck knows that holds a GPU below its rated figure: a link below x16 or below
/// its generation, throttle reasons during the soak (a power limit set low shows as the
/// power cap there: the board's default limit is not read), another process on the GPU.
fn gpu_causes(g: Option<&Gpu>, soak: Option<&GpuSoak>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(g) = g {
        if let Some(w) = rules::link_width(&g.pcie).filter(|w| w.is_narrow()) {
            out.push(format!(
                "PCIe link x{} of the card's x{}{}",
                w.now,
                w.card,
                w.slot
                    .map(|s| format!(" (the slot allows x{s})"))
                    .unwrap_or_default()
            ));
        }
        // The generation read under load (the soak's samples); the inventory's only when the
        // GPU was busy then, since an idle link drops its generation to save power.
        let top_gen = g.pcie.device_max_gen.or(g.pcie.max_gen);
        let loaded = match soak.and_then(|s| s.max_pcie_gen) {
            Some(m) => Some((m, " under load")),
            None => g
                .pcie
                .gen
                .filter(|_| !rules::link_gen_idle(g))
                .map(|n| (n, "")),
        };
        if let (Some((now, when)), Some(top)) = (loaded, top_gen) {
            if now < top {
                out.push(format!(
                    "PCIe link at gen {now} of the card's gen {top}{when}"
                ));
            }
        }
        if let Some(p) = g.state.compute_processes.as_ref().filter(|p| !p.is_empty()) {
            let pids: Vec<String> = p.iter().map(|p| p.pid.to_string()).collect();
            out.push(format!(
                "another process on the GPU (PID {})",
                pids.join(", ")
            ));
        }
    }
    if let Some(s) = soak {
        let held: Vec<&str> = s
            .throttle_reasons
            .iter()
            .filter(|r| rules::throttle_severity(r) != rules::Status::Pass)
            .map(String::as_str)
            .collect();
        if !held.is_empty() {
            out.push(format!("throttled during the soak ({})", held.join(", ")));
        }
    }
    out
}

/// One line per GPU of the soak: the hottest it got, throttling by heat or the power brake,
/// and the lowest SM clock against the rated boost.
fn soak(run: &Run<'_>, bound: Option<&MeasuredBound>) -> Vec<Line> {
    let Some(g) = run.bench.gpu.as_ref().filter(|g| !g.soak.is_empty()) else {
        let why = why(run.bench, "bench.gpu.soak")
            .or_else(|| why(run.bench, "bench.gpu"))
            .unwrap_or_else(|| "no GPU soaked".into());
        return vec![unmeasured(
            "measured.gpu_soak",
            "GPU soak".into(),
            None,
            why,
        )];
    };
    let max_t = bound.and_then(|b| b.max_temperature_c);
    let clocks = bound.and_then(|b| b.clocks_at_least);
    g.soak
        .iter()
        .map(|s| {
            let name = match &s.pci_address {
                Some(a) => format!("GPU {} ({a})", s.cuda_index),
                None => format!("GPU {}", s.cuda_index),
            };
            let inv = inventory_gpu(run.before, s.pci_address.as_deref());
            let mut expected = vec!["no thermal or power-brake throttling".to_string()];
            let mut found = Vec::new();
            let mut fails = Vec::new();
            let mut unknown = Vec::new();
            let held: Vec<&str> = s
                .throttle_reasons
                .iter()
                .filter(|r| rules::throttle_severity(r) == rules::Status::Fail)
                .map(String::as_str)
                .collect();
            if s.samples == 0 {
                unknown.push("no NVML sample during the soak".to_string());
            } else if !held.is_empty() {
                fails.push(format!("throttled: {}", held.join(", ")));
                found.push(held.join(", "));
            } else {
                found.push("no throttling".into());
            }
            if let Some(t) = max_t {
                expected.push(format!("≤ {t} °C"));
                match s.max_temperature_c {
                    Some(c) => {
                        found.push(format!("{c} °C"));
                        if c > t {
                            fails.push(format!("{c} °C above the ceiling of {t} °C"));
                        }
                    }
                    None => unknown.push("temperature not read during the soak".into()),
                }
            }
            if let Some(share) = clocks {
                let rated = inv.and_then(|g| g.rated_clock_mhz.or(g.max_customer_boost_clock_mhz));
                expected.push(format!("SM clock ≥ {:.0} % of rated boost", 100.0 * share));
                match (s.min_sm_clock_mhz, rated) {
                    (Some(c), Some(r)) => {
                        found.push(format!("{c} MHz of {r} MHz"));
                        if f64::from(c) < share * f64::from(r) {
                            fails.push(format!("SM clock fell to {c} MHz of the rated {r} MHz"));
                        }
                    }
                    (None, _) => unknown.push("SM clock not read during the soak".into()),
                    (_, None) => unknown.push("the rated boost clock is unknown".into()),
                }
            }
            let (status, note) = if !fails.is_empty() {
                (Status::Fail, Some(fails.join("; ")))
            } else if !unknown.is_empty() {
                (Status::Unknown, Some(unknown.join("; ")))
            } else {
                (Status::Pass, None)
            };
            Line {
                id: format!("measured.gpu_soak.gpus[{}]", s.cuda_index),
                requirement: format!("{name} soak {:.0} s", g.soak_seconds),
                expected: expected.join(", "),
                found: found.join(", "),
                status,
                note,
            }
        })
        .collect()
}

/// The health rows: the counters (`rules::health::counters`) read before and after the run,
/// one row for the drives, the memory controllers, the PCIe links and the CPU packages, and
/// one per GPU, each where at least one counter was read both times. A counter that grew
/// fails its row, naming the part and the counter; one that fell was reset (a driver
/// reload) and says nothing.
fn health(run: &Run<'_>) -> Vec<Line> {
    let Some(after) = run.after else {
        return Vec::new();
    };
    let before = health::counters(run.before);
    let later = health::counters(after);
    // (row, counter, before, after) for each counter read both times.
    let mut pairs: Vec<(Row, &health::Counter, u64)> = Vec::new();
    for c in &before {
        let Some(l) = later
            .iter()
            .find(|l| l.kind == c.kind && l.what == c.what && l.at == c.at)
        else {
            continue;
        };
        let row = match c.kind {
            health::Kind::Drive => Row::Drives,
            health::Kind::Memory => Row::Memory,
            health::Kind::Link => Row::Pcie,
            health::Kind::Cpu => Row::Cpu,
            _ => Row::Gpu(c.gpu.unwrap_or(0)),
        };
        pairs.push((row, c, l.value));
    }
    let mut rows: Vec<Row> = pairs.iter().map(|p| p.0).collect();
    rows.sort_unstable();
    rows.dedup();
    rows.into_iter()
        .map(|row| {
            let mine: Vec<&(Row, &health::Counter, u64)> =
                pairs.iter().filter(|p| p.0 == row).collect();
            let mut grew: Vec<String> = mine
                .iter()
                .filter(|(_, c, after)| *after > c.value)
                .map(|(_, c, after)| match row {
                    Row::Gpu(_) => format!(
                        "{} {} → {after}",
                        c.what.trim_start_matches("GPU "),
                        c.value
                    ),
                    _ => format!("{} {} {} → {after}", c.at, c.what, c.value),
                })
                .collect();
            let (id, requirement, part) = match row {
                Row::Drives => (
                    "health.drives".to_string(),
                    "Drives' error counters during the run".to_string(),
                    None,
                ),
                Row::Memory => (
                    "health.memory".into(),
                    "Memory error counts (EDAC) during the run".into(),
                    None,
                ),
                Row::Pcie => (
                    "health.pcie".into(),
                    "PCIe error counts (AER) during the run".into(),
                    None,
                ),
                Row::Cpu => (
                    "health.cpu".into(),
                    "CPU throttle counts during the run".into(),
                    None,
                ),
                Row::Gpu(i) => {
                    let g = &run.before.gpus[i];
                    let n = g.index.unwrap_or(i as u32);
                    let name = match &g.pci_address {
                        Some(a) => format!("GPU {n} ({a})"),
                        None => format!("GPU {n}"),
                    };
                    if let Some(a) =
                        inventory_gpu(after, g.pci_address.as_deref()).or_else(|| after.gpus.get(i))
                    {
                        let flags: [(&str, Flag); 2] = [
                            ("retired pages now pending", |g| {
                                g.state.retired_pages_pending
                            }),
                            ("row remap now pending", |g| g.state.remapped_rows_pending),
                        ];
                        for (what, read) in flags {
                            if read(g) == Some(false) && read(a) == Some(true) {
                                grew.push(what.to_string());
                            }
                        }
                    }
                    (
                        format!("health.gpus[{i}]"),
                        format!("{name} error counters during the run"),
                        Some(name),
                    )
                }
            };
            let (status, found, note) = if grew.is_empty() {
                (
                    Status::Pass,
                    format!(
                        "unchanged ({} counter{})",
                        mine.len(),
                        if mine.len() == 1 { "" } else { "s" }
                    ),
                    None,
                )
            } else {
                let note = match part {
                    Some(p) => format!("{p}: grew during the run: {}", grew.join(", ")),
                    None => format!("grew during the run: {}", grew.join(", ")),
                };
                (Status::Fail, grew.join(", "), Some(note))
            };
            Line {
                id,
                requirement,
                expected: "no counter grows".into(),
                found,
                status,
                note,
            }
        })
        .collect()
}

/// How a GPU flag that turning on is trouble (pages pending) is read.
type Flag = fn(&Gpu) -> Option<bool>;

/// A health row of `verify --measure`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Row {
    Drives,
    Memory,
    Pcie,
    Cpu,
    Gpu(usize),
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::probe;
    use crate::source::Source;
    use crate::spec::bench::GpuBench;

    fn matmul(spec: &Spec, i: usize, fp32: f64) -> GpuMatmul {
        let g = &spec.gpus[i];
        GpuMatmul {
            cuda_index: i as u32,
            pci_address: g.pci_address.clone(),
            name: g.name.clone(),
            n: 8192,
            fp32_tflops: Some(fp32),
            fp16_tflops: None,
            fp32_peak_tflops: g.fp32_tflops,
            fp16_peak_tflops: g.fp16_tensor_tflops,
        }
    }

    fn bound(key: MeasuredKey, at_least: Amount) -> MeasuredBound {
        MeasuredBound {
            key,
            at_least: Some(at_least),
            max_temperature_c: None,
            clocks_at_least: None,
            at: (1, 1),
        }
    }

    #[test]
    fn a_slow_gpu_behind_a_x8_link_names_it() {
        // The recording's sysfs holds the card's own x16 beside the link's x8.
        let spec = probe::inventory(&Source::sysroot("fixtures/gpu-degraded-x8"));
        let rated = spec.gpus[1].fp32_tflops.unwrap();
        let bench = BenchReport {
            gpu: Some(GpuBench {
                per_gpu: vec![matmul(&spec, 0, 0.9 * rated), matmul(&spec, 1, 0.4 * rated)],
                ..GpuBench::default()
            }),
            ..BenchReport::default()
        };
        let run = Run {
            before: &spec,
            after: None,
            bench: &bench,
        };
        let lines = lines(
            &run,
            &[bound(MeasuredKey::GpuFp32, Amount::Share(0.8))],
            false,
        );
        assert_eq!(lines[0].status, Status::Pass);
        assert_eq!(lines[1].status, Status::Fail);
        let note = lines[1].note.as_deref().unwrap();
        assert!(note.starts_with("(40 % of rated "), "{note}");
        assert!(
            note.contains("likely cause: PCIe link x8 of the card's x16 (the slot allows x8)"),
            "{note}"
        );
        // Idle before the run, its link at a lower generation is power saving, not a cause.
        assert!(!note.contains("gen "), "{note}");
    }

    #[test]
    fn memory_below_its_bound_names_the_empty_slots_and_mixed_speeds() {
        let mut spec = probe::inventory(&Source::sysroot("fixtures/hp-z8-g4-dual-rtx6000"));
        assert!(!spec.memory.dimms.is_empty());
        spec.memory.empty_slots = vec!["DIMM 9".into()];
        for d in &mut spec.memory.dimms {
            d.configured_speed_mts = Some(2666);
        }
        spec.memory.dimms[0].configured_speed_mts = Some(2133);
        let bench = BenchReport {
            memory: Some(crate::spec::bench::MemoryBench {
                array_bytes: 1 << 30,
                results: vec![crate::spec::bench::StreamResult {
                    kernel: "triad".into(),
                    threads: 8,
                    bytes_per_s: 20e9,
                    repetitions: 10,
                }],
                peak_bytes_per_s: Some(100_000_000_000),
                peak_channels: Some(12),
            }),
            ..BenchReport::default()
        };
        let run = Run {
            before: &spec,
            after: None,
            bench: &bench,
        };
        let l = &lines(
            &run,
            &[bound(MeasuredKey::MemoryBandwidth, Amount::Share(0.5))],
            false,
        )[0];
        assert_eq!(l.status, Status::Fail);
        assert_eq!(l.expected, "≥ 50 % of rated 100.0 GB/s = 50.0 GB/s");
        let note = l.note.as_deref().unwrap();
        assert!(
            note.starts_with("(20 % of rated 100.0 GB/s); likely cause: "),
            "{note}"
        );
        assert!(
            note.contains("DIMM 9): channels may be unpopulated"),
            "{note}"
        );
        assert!(
            note.contains("mixed DIMM speeds (2133, 2666 MT/s)"),
            "{note}"
        );
    }

    #[test]
    fn a_counter_that_grew_during_the_run_fails_its_row_naming_part_and_counter() {
        // The reference workstation as recorded: drives' logs, EDAC, AER and CPU throttle
        // counts all read.
        let before = probe::inventory(&Source::sysroot("fixtures/hp-z8-g4-dual-rtx6000"));
        let mut after = before.clone();
        let h = after.health.as_mut().unwrap();
        let mc = h.memory.controllers[0].name.clone();
        let was = h.memory.controllers[0].corrected_errors.unwrap();
        h.memory.controllers[0].corrected_errors = Some(was + 4);
        let drive = h.drives[0].drive.clone();
        h.drives[0].media_errors = h.drives[0].media_errors.map(|n| n + 1);
        let bench = BenchReport::default();
        let run = Run {
            before: &before,
            after: Some(&after),
            bench: &bench,
        };
        let rows = lines(&run, &[], false);
        let row = |id: &str| rows.iter().find(|l| l.id == id).unwrap();
        let m = row("health.memory");
        assert_eq!(m.status, Status::Fail);
        assert_eq!(
            m.note.as_deref(),
            Some(
                format!(
                    "grew during the run: {mc} corrected memory errors {was} → {}",
                    was + 4
                )
                .as_str()
            )
        );
        let d = row("health.drives");
        assert_eq!(d.status, Status::Fail);
        assert!(d
            .found
            .starts_with(&format!("{drive} drive media errors 0 → 1")));
        // What did not move passes, counting what it compared.
        let p = row("health.pcie");
        assert_eq!(p.status, Status::Pass);
        assert!(p.found.starts_with("unchanged ("), "{}", p.found);
        // Unchanged inventories: every row passes.
        let same = Run {
            before: &before,
            after: Some(&before),
            bench: &bench,
        };
        assert!(lines(&same, &[], false)
            .iter()
            .all(|l| l.status == Status::Pass));
    }
}
