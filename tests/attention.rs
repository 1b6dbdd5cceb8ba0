//! The inventory's Attention line and preflight say the same of every recorded machine:
//! both judge by `rules`, so a GPU on a narrow link, held-down clocks, memory
//! errors or memory the OS does not see are in one exactly when they are in the other.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeSet;

use rigcheck::preflight::{self, Options, Status};
use rigcheck::probe;
use rigcheck::rules::{attention, Rule};
use rigcheck::source::Source;

#[test]
fn attention_and_preflight_agree_on_every_recorded_machine() {
    let opts = Options {
        max_gpu_temp: 85,
        ..Options::default()
    };
    // (rule, the preflight check that judges it, the status it gives a fault)
    let pairs = [
        (vec![Rule::NarrowLink], "gpu.pcie", Status::Warn),
        (vec![Rule::ClocksHeldDown], "gpu.throttle", Status::Fail),
        (
            vec![Rule::EccErrors, Rule::PagesPending, Rule::RowRemapFailed],
            "gpu.ecc",
            Status::Fail,
        ),
        (vec![Rule::MemoryUnseen], "mem.installed", Status::Warn),
    ];
    let mut seen = BTreeSet::new();
    for name in common::recordings() {
        let spec = probe::inventory(&Source::sysroot(format!("fixtures/{name}")));
        let report = preflight::evaluate(&spec, None, &opts);
        let found = attention(&spec);
        // Preflight looks at the GPUs the driver answers for; so does this comparison.
        let answering: BTreeSet<String> = spec
            .gpus
            .iter()
            .filter_map(|g| g.index.map(|i| format!("GPU {i}")))
            .collect();
        let in_scope = |s: &Option<String>| s.as_ref().is_none_or(|s| answering.contains(s));
        for (rules, check, fault) in &pairs {
            let by_attention: BTreeSet<Option<String>> = found
                .iter()
                .filter(|f| rules.contains(&f.rule) && in_scope(&f.subject))
                .map(|f| f.subject.clone())
                .collect();
            let by_preflight: BTreeSet<Option<String>> = report
                .checks
                .iter()
                .filter(|c| c.id == *check && c.status == Some(*fault))
                .map(|c| c.subject.clone())
                .collect();
            assert_eq!(
                by_attention, by_preflight,
                "{name}: the Attention line and preflight's {check} disagree"
            );
            if !by_preflight.is_empty() {
                seen.insert(*check);
            }
        }
    }
    // The recordings hold a narrow link, a hot GPU and memory errors: the comparison is
    // not of empty lists.
    for check in ["gpu.pcie", "gpu.throttle", "gpu.ecc"] {
        assert!(
            seen.contains(check),
            "no recording shows a fault of {check}"
        );
    }
}
