//! Preflight's health checks: what the parts' own counts say can break or spoil a run now. A
//! drive with a critical warning or one that rates itself failing, uncorrected memory errors
//! and fatal PCIe errors fail; corrected errors, wear and media errors (the data is there,
//! the drive is going) warn. What could not be read is listed as not checked, with why: a
//! machine without EDAC or root is not unready to train for it. The judgements are
//! `rules::health`'s.

use crate::rules::health::{self as rules, Judgement};
use crate::spec::{DriveKind, ListState, Spec};

use super::check::{Check, Status};

/// One check per drive of the machine's own, then memory, the PCIe links and CPU throttling.
pub fn checks(spec: &Spec) -> Vec<Check> {
    let Some(h) = &spec.health else {
        return vec![Check::not_checked(
            "health.drive",
            "not read",
            "this report was written before rigcheck read health",
        )];
    };
    let mut out = Vec::new();
    for (i, d) in spec.drives.iter().enumerate() {
        if d.is_removable() || d.kind == Some(DriveKind::Virtual) {
            continue;
        }
        let why = || crate::requirement::why(spec, &format!("health.drives[{i}]"));
        let Some(dh) = h
            .drives
            .get(i)
            .filter(|x| x.source.as_deref().is_some_and(|s| s != "hwmon"))
        else {
            out.push(Check::not_checked("health.drive", "not read", why()).on(&d.name));
            continue;
        };
        // Fails what stops the drive now; warns what says it is going.
        let fail: Vec<Judgement> = [
            rules::nvme_critical_warning,
            rules::spare_below_threshold,
            rules::drive_failing,
        ]
        .iter()
        .filter_map(|f| f(dh))
        .collect();
        let warn: Vec<Judgement> = [
            rules::drive_media_errors,
            rules::drive_worn,
            rules::drive_reallocated,
        ]
        .iter()
        .filter_map(|f| f(dh))
        .collect();
        out.push(
            judged("health.drive", &fail, &warn, || {
                let mut s = "no warning".to_string();
                if let Some(u) = dh.percentage_used {
                    s.push_str(&format!(", {u} % used"));
                }
                s
            })
            .on(&d.name),
        );
    }
    let m = &h.memory;
    out.push(
        match (m.corrected_errors, m.uncorrected_errors, h.lists.memory) {
            (Some(_), Some(_), ListState::Read) | (_, Some(1..), _) | (Some(1..), _, _) => {
                let fail: Vec<Judgement> = rules::memory_uncorrected(m).into_iter().collect();
                let warn: Vec<Judgement> = rules::memory_corrected(m).into_iter().collect();
                judged("health.memory", &fail, &warn, || "no errors (EDAC)".into())
            }
            _ => Check::not_checked(
                "health.memory",
                "not read",
                crate::requirement::why(spec, "health.memory"),
            ),
        },
    );
    if !h.pcie.is_empty() || h.lists.pcie != ListState::Read {
        let fail: Vec<Judgement> = h.pcie.iter().filter_map(rules::pcie_fatal).collect();
        let warn: Vec<Judgement> = h
            .pcie
            .iter()
            .flat_map(|p| [rules::pcie_nonfatal(p), rules::pcie_corrected(p)])
            .flatten()
            .collect();
        out.push(
            if h.lists.pcie == ListState::Read || !fail.is_empty() || !warn.is_empty() {
                judged("health.pcie", &fail, &warn, || {
                    format!("no errors on {} functions", h.pcie.len())
                })
            } else {
                Check::not_checked("health.pcie", "not read", why_any(spec, "health.pcie"))
            },
        );
    }
    out.push(if h.lists.cpu == ListState::Unreadable {
        Check::not_checked(
            "health.cpu_throttle",
            "not read",
            crate::requirement::why(spec, "health.cpu"),
        )
    } else {
        let warn: Vec<Judgement> = h.cpu.iter().filter_map(rules::cpu_throttled).collect();
        judged("health.cpu_throttle", &[], &warn, || {
            "not throttled since boot".into()
        })
    });
    out
}

/// Why the facts under `field` (the list or any of its items) are unknown: the first note.
fn why_any(spec: &Spec, field: &str) -> String {
    spec.notes
        .iter()
        .find(|n| n.field.starts_with(field))
        .map_or_else(|| format!("{field} is unknown"), |n| n.reason.clone())
}

/// A check from the rules' findings: fail where one fails, warn where one warns, each
/// finding's fix as the advice; else a pass showing `fine`.
fn judged(
    id: &'static str,
    fail: &[Judgement],
    warn: &[Judgement],
    fine: impl FnOnce() -> String,
) -> Check {
    let (status, found) = if !fail.is_empty() {
        (Status::Fail, fail)
    } else if !warn.is_empty() {
        (Status::Warn, warn)
    } else {
        return Check::new(id, Status::Pass, fine());
    };
    let shown: Vec<&str> = found.iter().map(|j| j.found.as_str()).collect();
    let mut fixes: Vec<&str> = found.iter().map(|j| j.fix.as_str()).collect();
    fixes.dedup();
    Check::new(id, status, shown.join("; "))
        .expect("no error counted")
        .advise(fixes.join("; "))
}
