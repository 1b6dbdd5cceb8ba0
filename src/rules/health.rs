//! What the parts' health says, one function per judgement: a drive's critical warning,
//! spare below its threshold, media errors, its own failing assessment, wear and reallocated
//! sectors; memory's uncorrected and corrected errors; a link's fatal, non-fatal and corrected
//! PCIe errors; a GPU's failed or pending row remap, corrected ECC errors, PCIe replays and
//! thermal slowdown; a CPU's thermal throttling. Each finding says what to do.
//!
//! `findings` gathers them for the Attention line, preflight and fleet; `summary` is the
//! glance's Health line; `as_new` and `without_errors` are what an order's `[health]` asks
//! (`new = true`, `no_errors = true`), part by part, with unknown kept apart from pass.

use crate::spec::health::{CpuThrottle, DriveHealth, Health, MemoryHealth, PcieErrors};
use crate::spec::{DriveKind, Gpu, ListState, Spec};

use super::Status;

/// Percentage of rated endurance used from which a drive is worn enough to plan its end.
pub const WORN_PERCENT: u8 = 80;

/// Most power-on hours of a drive delivered new: burn-in and installation, not use.
pub const NEW_MAX_HOURS: u64 = 100;

/// Most endurance used by a drive delivered new, percent.
pub const NEW_MAX_PERCENT_USED: u8 = 1;

/// What kind of part a judgement is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Drive,
    Memory,
    /// A GPU's or NVMe drive's PCIe link (AER).
    Link,
    Gpu,
    /// A GPU's row remap failed: the board needs replacing.
    GpuRemapFailed,
    /// A GPU's row remap waits for a reset (as retired pages pending do).
    GpuPending,
    Cpu,
}

impl Kind {
    /// Any judgement of a GPU.
    pub fn is_gpu(self) -> bool {
        matches!(self, Kind::Gpu | Kind::GpuRemapFailed | Kind::GpuPending)
    }
}

/// One judgement of one part.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    pub kind: Kind,
    /// `Fail` or `Warn`.
    pub status: Status,
    /// The part: `nvme0n1`, `memory`, `GPU 0`, `CPU package 1`.
    pub part: String,
    /// What was found, short: `critical warning (media in read-only mode)`.
    pub found: String,
    /// What to do: `back up its data now and replace the drive`.
    pub fix: String,
}

impl Judgement {
    /// The finding as one sentence: `nvme0n1: critical warning (...); back up ...`.
    pub fn says(&self) -> String {
        format!("{}: {}; {}", self.part, self.found, self.fix)
    }
}

/// `1 error`, `5 errors`: a count with its noun.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn judged(kind: Kind, status: Status, part: &str, found: String, fix: &str) -> Option<Judgement> {
    Some(Judgement {
        kind,
        status,
        part: part.to_string(),
        found,
        fix: fix.to_string(),
    })
}

/// A drive's critical warning (NVMe): fail.
pub fn nvme_critical_warning(d: &DriveHealth) -> Option<Judgement> {
    let w = d.critical_warning.filter(|w| *w != 0)?;
    let what = if d.critical_warnings.is_empty() {
        format!("bits 0x{w:02x}")
    } else {
        d.critical_warnings.join(", ")
    };
    judged(
        Kind::Drive,
        Status::Fail,
        &d.drive,
        format!("critical warning ({what})"),
        "back up its data now and replace the drive",
    )
}

/// A drive's spare capacity under the threshold it set itself (NVMe): fail.
pub fn spare_below_threshold(d: &DriveHealth) -> Option<Judgement> {
    let (spare, t) = (
        d.available_spare_percent?,
        d.available_spare_threshold_percent?,
    );
    (spare < t).then_some(())?;
    judged(
        Kind::Drive,
        Status::Fail,
        &d.drive,
        format!("{spare} % spare capacity left, under its threshold of {t} %"),
        "back up its data and replace the drive",
    )
}

/// Data the drive could not recover: NVMe media and data integrity errors, ATA sectors
/// pending or unreadable: fail.
pub fn drive_media_errors(d: &DriveHealth) -> Option<Judgement> {
    if let Some(n) = d.media_errors.filter(|n| *n > 0) {
        return judged(
            Kind::Drive,
            Status::Fail,
            &d.drive,
            count(
                n,
                "media and data integrity error",
                "media and data integrity errors",
            ),
            "back up its data, run a long self-test (smartctl -t long) and replace the drive",
        );
    }
    let pending = d.pending_sectors.unwrap_or(0);
    let unreadable = d.uncorrectable_sectors.unwrap_or(0);
    (pending > 0 || unreadable > 0).then_some(())?;
    judged(
        Kind::Drive,
        Status::Fail,
        &d.drive,
        format!("{pending} sectors pending remap, {unreadable} unreadable"),
        "back up its data and replace the drive",
    )
}

/// An ATA drive's own assessment by its thresholds: fail when a pre-failure attribute is at
/// or under its threshold.
pub fn drive_failing(d: &DriveHealth) -> Option<Judgement> {
    (d.assessment.as_deref() == Some("failing")).then_some(())?;
    judged(
        Kind::Drive,
        Status::Fail,
        &d.drive,
        format!("rates itself failing: {}", d.failing_attributes.join("; ")),
        "back up its data and replace the drive",
    )
}

/// Endurance used past `WORN_PERCENT`: warn.
pub fn drive_worn(d: &DriveHealth) -> Option<Judgement> {
    let u = d.percentage_used.filter(|u| *u >= WORN_PERCENT)?;
    judged(
        Kind::Drive,
        Status::Warn,
        &d.drive,
        format!("{u} % of its rated write endurance used"),
        "plan its replacement",
    )
}

/// Sectors already moved to spare area (ATA): warn.
pub fn drive_reallocated(d: &DriveHealth) -> Option<Judgement> {
    let n = d.reallocated_sectors.filter(|n| *n > 0)?;
    judged(
        Kind::Drive,
        Status::Warn,
        &d.drive,
        count(n, "sector reallocated", "sectors reallocated"),
        "keep backups and watch the count (smartctl -A)",
    )
}

/// Where memory errors were counted: the modules (by SMBIOS slot, else EDAC's label) or the
/// controllers.
fn where_counted(m: &MemoryHealth, count: impl Fn(Option<u64>, Option<u64>) -> u64) -> String {
    let mut at: Vec<String> = Vec::new();
    for c in &m.controllers {
        let dimms: Vec<String> = c
            .dimms
            .iter()
            .filter(|d| count(d.corrected_errors, d.uncorrected_errors) > 0)
            .map(|d| {
                d.locator
                    .clone()
                    .or_else(|| d.label.clone())
                    .unwrap_or_else(|| format!("{} {}", c.name, d.name))
            })
            .collect();
        if !dimms.is_empty() {
            at.extend(dimms);
        } else if count(c.corrected_errors, c.uncorrected_errors) > 0 {
            at.push(c.name.clone());
        }
    }
    if at.is_empty() {
        String::new()
    } else {
        format!(" on {}", at.join(", "))
    }
}

/// Uncorrected memory errors: fail.
pub fn memory_uncorrected(m: &MemoryHealth) -> Option<Judgement> {
    let n = m.uncorrected_errors.filter(|n| *n > 0)?;
    let at = where_counted(m, |_, u| u.unwrap_or(0));
    judged(
        Kind::Memory,
        Status::Fail,
        "memory",
        format!(
            "{}{at}",
            count(n, "uncorrected error", "uncorrected errors")
        ),
        "replace the module (ras-mc-ctl --errors says which) before trusting a run",
    )
}

/// Corrected memory errors: warn.
pub fn memory_corrected(m: &MemoryHealth) -> Option<Judgement> {
    let n = m.corrected_errors.filter(|n| *n > 0)?;
    let at = where_counted(m, |c, _| c.unwrap_or(0));
    judged(
        Kind::Memory,
        Status::Warn,
        "memory",
        format!("{}{at}", count(n, "corrected error", "corrected errors")),
        "the module may be failing; replace it if the count grows",
    )
}

/// The function a link's counts are of: `0000:17:00.0`, or `the port above it, 0000:16:00.0`.
fn link_part(p: &PcieErrors) -> String {
    if p.port {
        format!("the port above it ({})", p.address)
    } else {
        p.address.clone()
    }
}

/// Fatal AER errors: fail.
pub fn pcie_fatal(p: &PcieErrors) -> Option<Judgement> {
    let n = p.fatal.filter(|n| *n > 0)?;
    judged(
        Kind::Link,
        Status::Fail,
        &p.of,
        format!(
            "{} at {}",
            count(n, "fatal PCIe error", "fatal PCIe errors"),
            link_part(p)
        ),
        "reseat the card, check its riser and slot, and reboot",
    )
}

/// Non-fatal uncorrectable AER errors: warn.
pub fn pcie_nonfatal(p: &PcieErrors) -> Option<Judgement> {
    let n = p.nonfatal.filter(|n| *n > 0)?;
    judged(
        Kind::Link,
        Status::Warn,
        &p.of,
        format!(
            "{} at {}",
            count(
                n,
                "non-fatal uncorrectable PCIe error",
                "non-fatal uncorrectable PCIe errors"
            ),
            link_part(p)
        ),
        "reseat the card and check its riser and slot",
    )
}

/// Corrected AER errors (a marginal link): warn.
pub fn pcie_corrected(p: &PcieErrors) -> Option<Judgement> {
    let n = p.correctable.filter(|n| *n > 0)?;
    judged(
        Kind::Link,
        Status::Warn,
        &p.of,
        format!(
            "{} at {} (a marginal link)",
            count(n, "corrected PCIe error", "corrected PCIe errors"),
            link_part(p)
        ),
        "reseat the card and check its riser",
    )
}

/// `GPU 1`, by NVML's index, else its place.
fn gpu_name(i: usize, g: &Gpu) -> String {
    format!("GPU {}", g.index.unwrap_or(i as u32))
}

/// A row remap that failed (A100, H100 and later): fail.
pub fn row_remap_failure(i: usize, g: &Gpu) -> Option<Judgement> {
    (g.state.remapped_rows_failure == Some(true)).then_some(())?;
    judged(
        Kind::GpuRemapFailed,
        Status::Fail,
        &gpu_name(i, g),
        "a memory row remap failed (no spare row left there)".into(),
        "have the GPU replaced (RMA)",
    )
}

/// A row remap waiting for a reset: warn.
pub fn row_remap_pending(i: usize, g: &Gpu) -> Option<Judgement> {
    (g.state.remapped_rows_pending == Some(true)).then_some(())?;
    judged(
        Kind::GpuPending,
        Status::Warn,
        &gpu_name(i, g),
        "a memory row remap pending".into(),
        "reset the GPU (nvidia-smi -r) before a long run",
    )
}

/// Corrected ECC errors since the driver loaded: warn.
pub fn gpu_corrected_ecc(i: usize, g: &Gpu) -> Option<Judgement> {
    let n = g.state.ecc_errors_corrected.filter(|n| *n > 0)?;
    judged(
        Kind::Gpu,
        Status::Warn,
        &gpu_name(i, g),
        format!(
            "{} since the driver loaded",
            count(n, "corrected ECC error", "corrected ECC errors")
        ),
        "watch the count; many more mean its memory is failing",
    )
}

/// PCIe replays (retransmitted packets): warn.
pub fn gpu_replays(i: usize, g: &Gpu) -> Option<Judgement> {
    let n = g.state.pcie_replays.filter(|n| *n > 0)?;
    judged(
        Kind::Gpu,
        Status::Warn,
        &gpu_name(i, g),
        format!("{n} PCIe replays (retransmitted packets: a marginal link)"),
        "reseat the card and check its riser",
    )
}

/// Clocks held down by heat since the driver loaded: warn.
pub fn gpu_thermal_slowdown(i: usize, g: &Gpu) -> Option<Judgement> {
    let ns = g.state.thermal_violation_ns.filter(|n| *n > 0)?;
    let s = (ns as f64 / 1e8).round() / 10.0;
    judged(
        Kind::Gpu,
        Status::Warn,
        &gpu_name(i, g),
        format!("clocks held down by heat for {s} s since the driver loaded"),
        "check its cooling and airflow",
    )
}

/// Thermal throttling counted since boot: warn.
pub fn cpu_throttled(t: &CpuThrottle) -> Option<Judgement> {
    let (core, pkg) = (t.core_events.unwrap_or(0), t.package_events.unwrap_or(0));
    (core > 0 || pkg > 0).then_some(())?;
    judged(
        Kind::Cpu,
        Status::Warn,
        &format!("CPU package {}", t.package),
        format!("throttled by heat since boot ({core} core, {pkg} package events)"),
        "check its cooler and the fans",
    )
}

/// Every judgement of `spec`'s health, drives first, then memory, links, GPUs and CPUs.
pub fn findings(spec: &Spec) -> Vec<Judgement> {
    let mut out = Vec::new();
    if let Some(h) = &spec.health {
        for d in &h.drives {
            out.extend(
                [
                    nvme_critical_warning,
                    spare_below_threshold,
                    drive_media_errors,
                    drive_failing,
                    drive_worn,
                    drive_reallocated,
                ]
                .iter()
                .filter_map(|f| f(d)),
            );
        }
        out.extend(memory_uncorrected(&h.memory));
        out.extend(memory_corrected(&h.memory));
        for p in &h.pcie {
            out.extend(
                [pcie_fatal, pcie_nonfatal, pcie_corrected]
                    .iter()
                    .filter_map(|f| f(p)),
            );
        }
    }
    for (i, g) in spec.gpus.iter().enumerate() {
        out.extend(
            [
                row_remap_failure,
                row_remap_pending,
                gpu_corrected_ecc,
                gpu_replays,
                gpu_thermal_slowdown,
            ]
            .iter()
            .filter_map(|f| f(i, g)),
        );
    }
    if let Some(h) = &spec.health {
        out.extend(h.cpu.iter().filter_map(cpu_throttled));
    }
    out
}

/// One part's answer to an order's `[health]` question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// `nvme0n1`, `memory`, `GPU 0 link`, `GPU 0`.
    pub part: String,
    /// `Some(true)` it holds, `Some(false)` it does not, `None` it could not be read.
    pub holds: Option<bool>,
    /// What was found (`12 h, 1 % used, no errors`), or why it is unknown.
    pub found: String,
    /// What only warns (corrected errors, reallocated sectors, a pending remap): said on
    /// the line, never failing it.
    pub warnings: Vec<String>,
}

fn answer(part: &str, holds: Option<bool>, found: String) -> Answer {
    Answer {
        part: part.to_string(),
        holds,
        found,
        warnings: Vec::new(),
    }
}

impl Answer {
    fn warn(mut self, w: impl IntoIterator<Item = Judgement>) -> Self {
        self.warnings
            .extend(w.into_iter().map(|j| format!("{}: {}", j.part, j.found)));
        self
    }
}

/// Why a health fact at `field` is unknown: its note, else a sentence.
fn why(spec: &Spec, field: &str) -> String {
    spec.notes
        .iter()
        .find(|n| n.field == field || n.field.starts_with(&format!("{field}.")))
        .map(|n| n.reason.clone())
        .unwrap_or_else(|| format!("{field} is unknown"))
}

/// What rules a drive out: the judgements that fail it.
fn drive_errors(d: &DriveHealth) -> Vec<String> {
    [
        nvme_critical_warning,
        spare_below_threshold,
        drive_media_errors,
        drive_failing,
    ]
    .iter()
    .filter_map(|f| f(d))
    .map(|j| j.found)
    .collect()
}

/// Each drive of the machine (removable media and virtual disks are not its own), as `new`
/// or `no_errors` asks of it.
fn drives(spec: &Spec, new: bool) -> Vec<Answer> {
    let Some(h) = &spec.health else {
        return vec![answer(
            "drives",
            None,
            "this report was written before rigcheck read health".into(),
        )];
    };
    let mut out = Vec::new();
    for (i, d) in spec.drives.iter().enumerate() {
        if d.is_removable() || d.kind == Some(DriveKind::Virtual) {
            continue;
        }
        let field = format!("health.drives[{i}]");
        let Some(dh) = h
            .drives
            .get(i)
            .filter(|x| x.source.as_deref().is_some_and(|s| s != "hwmon"))
        else {
            out.push(answer(&d.name, None, why(spec, &field)));
            continue;
        };
        let mut bad = drive_errors(dh);
        let mut unknown = Vec::new();
        let mut shown = Vec::new();
        if new {
            match dh.power_on_hours {
                Some(n) if n > NEW_MAX_HOURS => bad.push(format!("{n} power-on hours")),
                Some(n) => shown.push(format!("{n} h")),
                None => unknown.push("power-on hours".to_string()),
            }
            match dh.percentage_used {
                Some(u) if u > NEW_MAX_PERCENT_USED => bad.push(format!("{u} % used")),
                Some(u) => shown.push(format!("{u} % used")),
                // A spinning disk keeps no wear figure: its hours say its use.
                None if d.kind == Some(DriveKind::Hdd) => {}
                None => unknown.push("endurance used".to_string()),
            }
        }
        let warn = [drive_worn, drive_reallocated].iter().filter_map(|f| f(dh));
        let a = if !bad.is_empty() {
            answer(&d.name, Some(false), bad.join(", "))
        } else if !unknown.is_empty() {
            answer(
                &d.name,
                None,
                format!("{} unknown: {}", unknown.join(" and "), why(spec, &field)),
            )
        } else {
            shown.push("no errors".into());
            answer(&d.name, Some(true), shown.join(", "))
        };
        out.push(a.warn(warn));
    }
    out
}

/// Memory as `no errors` asks of it: uncorrected errors fail, corrected ones warn.
fn memory(spec: &Spec, h: &Health) -> Answer {
    let m = &h.memory;
    let warn = memory_corrected(m);
    let a = match (m.uncorrected_errors, h.lists.memory) {
        (Some(u), _) if u > 0 => answer(
            "memory",
            Some(false),
            format!(
                "{}{}",
                count(u, "uncorrected error", "uncorrected errors"),
                where_counted(m, |_, u| u.unwrap_or(0))
            ),
        ),
        (Some(_), ListState::Read) => answer(
            "memory",
            Some(true),
            match m.corrected_errors {
                Some(0) => "no errors".into(),
                Some(c) => format!("no uncorrected errors, {c} corrected"),
                None => "no uncorrected errors".into(),
            },
        ),
        _ => answer("memory", None, why(spec, "health.memory")),
    };
    a.warn(warn)
}

/// Each watched link (a GPU's or NVMe drive's function and the ports above it) as `no
/// errors` asks of it: fatal AER errors fail, non-fatal and corrected ones warn.
fn links(spec: &Spec, h: &Health) -> Vec<Answer> {
    let mut parts: Vec<&str> = Vec::new();
    for p in &h.pcie {
        if !parts.contains(&p.of.as_str()) {
            parts.push(&p.of);
        }
    }
    if parts.is_empty() {
        return if h.lists.pcie == ListState::Read {
            Vec::new()
        } else {
            vec![answer("PCIe", None, why(spec, "health.pcie"))]
        };
    }
    parts
        .into_iter()
        .map(|of| {
            let mine: Vec<(usize, &PcieErrors)> = h
                .pcie
                .iter()
                .enumerate()
                .filter(|(_, p)| p.of == of)
                .collect();
            let part = format!("{of} link");
            let fatal: Vec<String> = mine
                .iter()
                .filter_map(|(_, p)| pcie_fatal(p))
                .map(|j| j.found)
                .collect();
            let warn: Vec<Judgement> = mine
                .iter()
                .flat_map(|(_, p)| [pcie_nonfatal(p), pcie_corrected(p)])
                .flatten()
                .collect();
            let unread = mine.iter().find(|(_, p)| {
                p.fatal.is_none() || p.nonfatal.is_none() || p.correctable.is_none()
            });
            let a = if !fatal.is_empty() {
                answer(&part, Some(false), fatal.join(", "))
            } else if let Some((i, _)) = unread {
                answer(&part, None, why(spec, &format!("health.pcie[{i}]")))
            } else {
                answer(&part, Some(true), "no fatal errors".into())
            };
            a.warn(warn)
        })
        .collect()
}

/// A GPU as `no errors` asks of it: uncorrected ECC errors, double-bit retirements,
/// uncorrectable remaps and a failed remap fail; corrected errors, single-bit retirements,
/// correctable remaps and anything pending warn. A board without ECC (or with it off)
/// counts none.
fn gpu(spec: &Spec, i: usize, g: &Gpu) -> Answer {
    let who = gpu_name(i, g);
    let s = &g.state;
    let field = format!("gpus[{i}].state");
    match s.ecc_enabled {
        Some(true) => {}
        Some(false) => return answer(&who, Some(true), "ECC off: no error counts".into()),
        None if g.index.is_some()
            && why(spec, &format!("{field}.ecc_enabled")).contains("NotSupported") =>
        {
            return answer(&who, Some(true), "no ECC: no error counts".into())
        }
        // Seen on PCI only: the counts come from the NVIDIA driver.
        None if g.index.is_none() => {
            return answer(
                &who,
                None,
                "no NVIDIA driver: its memory error counts come from NVML".into(),
            );
        }
        None => {
            return answer(&who, None, why(spec, &format!("{field}.ecc_enabled")));
        }
    }
    let mut bad = Vec::new();
    for (n, what) in [
        (s.ecc_errors_uncorrected, "uncorrected ECC errors"),
        (
            s.ecc_errors_uncorrected_aggregate,
            "uncorrected ECC errors over its life",
        ),
        (s.retired_pages_double_bit, "pages retired (double-bit)"),
        (
            s.remapped_rows_uncorrectable,
            "rows remapped (uncorrectable)",
        ),
    ] {
        if let Some(n) = n.filter(|n| *n > 0) {
            bad.push(format!("{n} {what}"));
        }
    }
    bad.extend(row_remap_failure(i, g).map(|j| j.found));
    let mut warn: Vec<Judgement> = [row_remap_pending, gpu_corrected_ecc]
        .iter()
        .filter_map(|f| f(i, g))
        .collect();
    for (n, what) in [
        (
            s.ecc_errors_corrected_aggregate,
            "corrected ECC errors over its life",
        ),
        (s.retired_pages_single_bit, "pages retired (single-bit)"),
        (s.remapped_rows_correctable, "rows remapped (correctable)"),
    ] {
        if let Some(n) = n.filter(|n| *n > 0) {
            warn.push(Judgement {
                kind: Kind::Gpu,
                status: Status::Warn,
                part: who.clone(),
                found: format!("{n} {what}"),
                fix: String::new(),
            });
        }
    }
    if super::pages_pending(s) {
        warn.push(Judgement {
            kind: Kind::Gpu,
            status: Status::Warn,
            part: who.clone(),
            found: "retired pages pending".into(),
            fix: "reset the GPU".into(),
        });
    }
    let a = if !bad.is_empty() {
        answer(&who, Some(false), bad.join(", "))
    } else if s.ecc_errors_uncorrected.is_none() {
        answer(
            &who,
            None,
            why(spec, &format!("{field}.ecc_errors_uncorrected")),
        )
    } else {
        answer(&who, Some(true), "no uncorrected errors".into())
    };
    a.warn(warn)
}

/// What `no_errors = true` asks: no drive, the memory, no GPU or NVMe link and no GPU with
/// an error that fails (what only warns is said on the line).
pub fn without_errors(spec: &Spec) -> Vec<Answer> {
    parts(spec, false)
}

/// What `new = true` asks: `without_errors`, and every drive at most `NEW_MAX_HOURS` powered
/// on and `NEW_MAX_PERCENT_USED` % used.
pub fn as_new(spec: &Spec) -> Vec<Answer> {
    parts(spec, true)
}

fn parts(spec: &Spec, new: bool) -> Vec<Answer> {
    let mut out = drives(spec, new);
    match &spec.health {
        Some(h) => {
            out.push(memory(spec, h));
            out.extend(links(spec, h));
        }
        None => out.push(answer(
            "memory and PCIe",
            None,
            "this report was written before rigcheck read health".into(),
        )),
    }
    out.extend(spec.gpus.iter().enumerate().map(|(i, g)| gpu(spec, i, g)));
    out
}

/// The glance's Health line: each part's word (`fine`, `warn`, `FAIL`, `unknown`) with what
/// it rests on; the Attention lines say what to do.
pub fn summary(spec: &Spec) -> String {
    let Some(h) = &spec.health else {
        return "not read (a report from before rigcheck read health)".into();
    };
    let found = findings(spec);
    let worst = |parts: &dyn Fn(&Judgement) -> bool| {
        found.iter().filter(|j| parts(j)).map(|j| j.status).max()
    };
    let word = |w: Option<Status>, fine: String, state: ListState| match w {
        Some(Status::Fail) => "FAIL".to_string(),
        Some(_) => "warn".to_string(),
        None if state == ListState::Unreadable => "unknown".to_string(),
        None if state == ListState::Partial => format!("{fine} (part unknown)"),
        None => fine,
    };
    let mut out = Vec::new();
    let own: Vec<&DriveHealth> = h
        .drives
        .iter()
        .zip(&spec.drives)
        .filter(|(_, d)| !d.is_removable() && d.kind != Some(DriveKind::Virtual))
        .map(|(h, _)| h)
        .collect();
    if !own.is_empty() {
        let used = own.iter().filter_map(|d| d.percentage_used).max();
        let hours = own.iter().filter_map(|d| d.power_on_hours).max();
        let mut fine = "fine".to_string();
        let figures: Vec<String> = used
            .map(|u| format!("≤ {u} % used"))
            .into_iter()
            .chain(hours.map(|n| format!("≤ {n} h")))
            .collect();
        if !figures.is_empty() {
            fine.push_str(&format!(" ({})", figures.join(", ")));
        }
        out.push(format!(
            "drives {}",
            word(worst(&|j| j.kind == Kind::Drive), fine, h.lists.drives)
        ));
    }
    out.push(format!(
        "memory {}",
        word(
            worst(&|j| j.kind == Kind::Memory),
            "fine (no errors)".into(),
            h.lists.memory
        )
    ));
    // A machine without a GPU or NVMe drive has no link watched: nothing to say of it.
    if !h.pcie.is_empty() || h.lists.pcie != ListState::Read {
        out.push(format!(
            "PCIe {}",
            word(
                worst(&|j| j.kind == Kind::Link),
                "fine (no errors)".into(),
                h.lists.pcie
            )
        ));
    }
    if !spec.gpus.is_empty() {
        let gpu_answers: Vec<Answer> = spec
            .gpus
            .iter()
            .enumerate()
            .map(|(i, g)| gpu(spec, i, g))
            .collect();
        let state = if gpu_answers.iter().all(|a| a.holds.is_some()) {
            ListState::Read
        } else if gpu_answers.iter().all(|a| a.holds.is_none()) {
            ListState::Unreadable
        } else {
            ListState::Partial
        };
        // The GPU rules of before health: uncorrected ECC errors fail, pages pending warn.
        let older = spec.gpus.iter().fold(None, |w: Option<Status>, g| {
            let s = if super::uncorrected_ecc_errors(&g.state).is_some() {
                Some(Status::Fail)
            } else if super::pages_pending(&g.state) {
                Some(Status::Warn)
            } else {
                None
            };
            w.max(s)
        });
        let w = worst(&|j| j.kind.is_gpu()).max(older);
        out.push(format!("GPUs {}", word(w, "fine".into(), state)));
    }
    out.push(format!(
        "CPUs {}",
        word(
            worst(&|j| j.kind == Kind::Cpu),
            "fine (not throttled)".into(),
            h.lists.cpu
        )
    ));
    out.join(" · ")
}

/// A machine's health in one word and the parts behind it, as fleet lists it: the worst
/// finding (`fail`, `warn`), else `unknown` where a part could not be read, else `fine`.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Verdict {
    /// `fine`, `warn`, `fail` or `unknown`.
    pub word: String,
    /// The parts a failure or warning is of (`nvme0n1`, `memory`), or the parts that could
    /// not be read.
    pub parts: Vec<String>,
}

/// The machine's health verdict (`Verdict`).
pub fn verdict(spec: &Spec) -> Verdict {
    let found = findings(spec);
    // The GPU rules of before health: uncorrected ECC errors fail, retired pages pending warn.
    let older = |pick: fn(&crate::spec::GpuState) -> bool| -> Vec<String> {
        spec.gpus
            .iter()
            .enumerate()
            .filter(|(_, g)| pick(&g.state))
            .map(|(i, g)| gpu_name(i, g))
            .collect()
    };
    let uncorrected = older(|s| super::uncorrected_ecc_errors(s).is_some());
    let pending = older(super::pages_pending);
    let parts = |status: Status| {
        let mut p: Vec<String> = found
            .iter()
            .filter(|j| j.status == status)
            .map(|j| j.part.clone())
            .collect();
        p.extend(
            match status {
                Status::Fail => &uncorrected,
                _ => &pending,
            }
            .iter()
            .cloned(),
        );
        let mut seen = std::collections::BTreeSet::new();
        p.retain(|x| seen.insert(x.clone()));
        p
    };
    for (status, word) in [(Status::Fail, "fail"), (Status::Warn, "warn")] {
        let p = parts(status);
        if !p.is_empty() {
            return Verdict {
                word: word.into(),
                parts: p,
            };
        }
    }
    let unknown: Vec<String> = match &spec.health {
        None => vec!["health".into()],
        Some(h) => [
            ("drives", h.lists.drives),
            ("memory", h.lists.memory),
            ("PCIe", h.lists.pcie),
        ]
        .iter()
        .filter(|(_, st)| *st != ListState::Read)
        .map(|(p, _)| p.to_string())
        .collect(),
    };
    Verdict {
        word: if unknown.is_empty() {
            "fine"
        } else {
            "unknown"
        }
        .into(),
        parts: unknown,
    }
}

/// The GPU counter of time held down by heat, which `diff` leaves out (it grows with use of
/// a hot machine, where a run's own growth of it is a finding).
pub const GPU_HEAT_TIME: &str = "GPU time held down by heat (ns)";

/// One counter a part keeps of its errors, wear or throttling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counter {
    /// The part's kind (`Kind::Drive`, `Memory`, `Link`, `Cpu`, `Gpu`).
    pub kind: Kind,
    /// For a GPU, its place in `spec.gpus`.
    pub gpu: Option<usize>,
    /// What it counts (`drive media errors`).
    pub what: &'static str,
    /// Which part (`nvme0n1`, `mc0`, a PCI address, `CPU package 0`).
    pub at: String,
    pub value: u64,
}

/// The counters whose growth means trouble, each one known: drives' errors and wear, the
/// memory controllers' errors, AER counts, CPU throttle events, GPU ECC errors, retired
/// pages, remapped rows, PCIe replays and time held down by heat. Power-on hours, data
/// written and power cycles grow with any use and are left out.
pub fn counters(spec: &Spec) -> Vec<Counter> {
    let mut out = Vec::new();
    let mut put = |kind: Kind, gpu: Option<usize>, what: &'static str, at: &str, v: Option<u64>| {
        if let Some(value) = v {
            out.push(Counter {
                kind,
                gpu,
                what,
                at: at.to_string(),
                value,
            });
        }
    };
    if let Some(h) = &spec.health {
        for d in &h.drives {
            let at = d.drive.as_str();
            let dr = Kind::Drive;
            put(
                dr,
                None,
                "drive endurance used (%)",
                at,
                d.percentage_used.map(u64::from),
            );
            put(dr, None, "drive unsafe shutdowns", at, d.unsafe_shutdowns);
            put(dr, None, "drive media errors", at, d.media_errors);
            put(dr, None, "drive error log entries", at, d.error_log_entries);
            put(
                dr,
                None,
                "drive reallocated sectors",
                at,
                d.reallocated_sectors,
            );
            put(dr, None, "drive pending sectors", at, d.pending_sectors);
            put(
                dr,
                None,
                "drive unreadable sectors",
                at,
                d.uncorrectable_sectors,
            );
        }
        for mc in &h.memory.controllers {
            let m = Kind::Memory;
            put(
                m,
                None,
                "corrected memory errors",
                &mc.name,
                mc.corrected_errors,
            );
            put(
                m,
                None,
                "uncorrected memory errors",
                &mc.name,
                mc.uncorrected_errors,
            );
        }
        for p in &h.pcie {
            let l = Kind::Link;
            put(l, None, "corrected PCIe errors", &p.address, p.correctable);
            put(l, None, "non-fatal PCIe errors", &p.address, p.nonfatal);
            put(l, None, "fatal PCIe errors", &p.address, p.fatal);
        }
        for t in &h.cpu {
            let at = format!("CPU package {}", t.package);
            put(Kind::Cpu, None, "core throttle events", &at, t.core_events);
            put(
                Kind::Cpu,
                None,
                "package throttle events",
                &at,
                t.package_events,
            );
        }
    }
    for (i, g) in spec.gpus.iter().enumerate() {
        let at = g.pci_address.clone().unwrap_or_else(|| format!("GPU {i}"));
        let s = &g.state;
        let k = Kind::Gpu;
        let gpu = Some(i);
        put(
            k,
            gpu,
            "GPU corrected ECC errors",
            &at,
            s.ecc_errors_corrected,
        );
        put(
            k,
            gpu,
            "GPU uncorrected ECC errors",
            &at,
            s.ecc_errors_uncorrected,
        );
        put(
            k,
            gpu,
            "GPU corrected ECC errors (lifetime)",
            &at,
            s.ecc_errors_corrected_aggregate,
        );
        put(
            k,
            gpu,
            "GPU uncorrected ECC errors (lifetime)",
            &at,
            s.ecc_errors_uncorrected_aggregate,
        );
        put(
            k,
            gpu,
            "GPU retired pages (single-bit)",
            &at,
            s.retired_pages_single_bit,
        );
        put(
            k,
            gpu,
            "GPU retired pages (double-bit)",
            &at,
            s.retired_pages_double_bit,
        );
        put(
            k,
            gpu,
            "GPU remapped rows (correctable)",
            &at,
            s.remapped_rows_correctable,
        );
        put(
            k,
            gpu,
            "GPU remapped rows (uncorrectable)",
            &at,
            s.remapped_rows_uncorrectable,
        );
        put(k, gpu, "GPU PCIe replays", &at, s.pcie_replays);
        // Heat, not the power limit: a board at its power cap under full load is working
        // as designed, one slowed by heat is not.
        put(k, gpu, GPU_HEAT_TIME, &at, s.thermal_violation_ns);
    }
    out
}
