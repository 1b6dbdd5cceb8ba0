//! Every note names a field of the report: the probes name fields by strings
//! (`notes.add("gpus[0].state.fan_percent", ..)`) that no compiler checks, so a misspelt
//! path would leave a note about nothing, shown under a made-up name. Every recorded
//! machine (Linux and Windows), the reference machine without its SMBIOS tables, a redacted
//! report and the live machine are inventoried, and each note's field is looked up in the
//! shape of the JSON report, and must have a name in `spec::names`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeSet;

use rigcheck::probe;
use rigcheck::source::Source;
use rigcheck::spec::Spec;
use serde_json::Value;

/// Note fields that are not fields of the report, each with why.
const PSEUDO_FIELDS: &[&str] = &[
    // `--redact` says so in a note of its own (`redact::NOTE_FIELD`).
    rigcheck::redact::NOTE_FIELD,
];

/// Every path of `v`, list items as `[]`: `gpus[].state.fan_percent`.
fn shape(v: &Value, at: &str, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let p = if at.is_empty() {
                    k.clone()
                } else {
                    format!("{at}.{k}")
                };
                out.insert(p.clone());
                shape(x, &p, out);
            }
        }
        Value::Array(a) => {
            let p = format!("{at}[]");
            if !a.is_empty() {
                out.insert(p.clone());
            }
            for x in a {
                shape(x, &p, out);
            }
        }
        _ => {}
    }
}

/// A note's field as a shape (`gpus[0].pcie` → `gpus[].pcie`) and its indices, each with
/// the path of the list it indexes (`[]` alone means every item).
fn parse(field: &str) -> Option<(String, Vec<(String, usize)>)> {
    let mut shape = String::new();
    let mut indices = Vec::new();
    for (n, part) in field.split('.').enumerate() {
        if n > 0 {
            shape.push('.');
        }
        let (name, rest) = part.split_once('[').unwrap_or((part, ""));
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        {
            return None;
        }
        shape.push_str(name);
        if !rest.is_empty() {
            let idx = rest.strip_suffix(']')?;
            if !idx.is_empty() {
                indices.push((shape.clone(), idx.parse().ok()?));
            }
            shape.push_str("[]");
        }
    }
    Some((shape, indices))
}

/// The length of the list at `path` (`gpus`, `cpu.numa_nodes`) in `v`, following the
/// indices of `indices` before it; `None` where a part on the way is null.
fn list_len(v: &Value, path: &str, indices: &[(String, usize)]) -> Option<usize> {
    let mut cur = v;
    let mut walked = String::new();
    for part in path.split('.') {
        let name = part.trim_end_matches("[]");
        if !walked.is_empty() {
            walked.push('.');
        }
        walked.push_str(name);
        cur = cur.get(name)?;
        if part.ends_with("[]") {
            let (_, i) = indices.iter().find(|(p, _)| *p == walked)?;
            cur = cur.get(*i)?;
            walked.push_str("[]");
        }
    }
    cur.as_array().map(Vec::len)
}

/// What is wrong with the notes of `spec`, one sentence each.
fn bad_notes(name: &str, spec: &Spec, known: &BTreeSet<String>) -> Vec<String> {
    let report = serde_json::to_value(spec).unwrap();
    let mut out = Vec::new();
    for n in &spec.notes {
        if PSEUDO_FIELDS.contains(&n.field.as_str()) {
            continue;
        }
        let Some((shape, indices)) = parse(&n.field) else {
            out.push(format!(
                "{name}: note field {:?} is not a field path",
                n.field
            ));
            continue;
        };
        if !known.contains(&shape) {
            out.push(format!(
                "{name}: note field {:?} names no field of the report ({})",
                n.field, n.reason
            ));
            continue;
        }
        for (k, (list, i)) in indices.iter().enumerate() {
            let list = list.trim_end_matches("[]");
            if let Some(len) = list_len(&report, list, &indices[..k]) {
                if *i >= len {
                    out.push(format!(
                        "{name}: note field {:?} indexes item {i} of {list}, which has {len}",
                        n.field
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn every_note_names_a_field_of_the_report() {
    let mut specs: Vec<(String, Spec)> = common::recordings()
        .into_iter()
        .map(|n| {
            let spec = probe::inventory(&Source::sysroot(format!("fixtures/{n}")));
            (n, spec)
        })
        .collect();
    assert!(specs.len() >= 20, "read {} fixtures", specs.len());
    assert!(
        specs
            .iter()
            .any(|(_, s)| s.os.name.as_deref() == Some("Windows") || s.source.contains("windows")),
        "no Windows capture among the fixtures"
    );
    let copy = common::reference_copy();
    common::without_smbios(copy.path());
    specs.push((
        "reference without SMBIOS".into(),
        probe::inventory(&Source::sysroot(copy.path())),
    ));
    let mut redacted = specs[0].1.clone();
    rigcheck::redact::redact(&mut redacted);
    specs.push(("redacted".into(), redacted));
    specs.push(("live".into(), probe::inventory(&Source::live())));

    // The shape of the report: every path any of them has, and every field of an empty one.
    let mut known = BTreeSet::new();
    shape(
        &serde_json::to_value(Spec::default()).unwrap(),
        "",
        &mut known,
    );
    for (_, s) in &specs {
        shape(&serde_json::to_value(s).unwrap(), "", &mut known);
    }
    let notes: usize = specs.iter().map(|(_, s)| s.notes.len()).sum();
    assert!(notes > 500, "only {notes} notes read");
    let bad: Vec<String> = specs
        .iter()
        .flat_map(|(name, s)| bad_notes(name, s, &known))
        .collect();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
    // Each is named for people as the report's rows name it, not spelt out from its path.
    let unnamed: BTreeSet<&str> = specs
        .iter()
        .flat_map(|(_, s)| &s.notes)
        .map(|n| n.field.as_str())
        .filter(|f| !PSEUDO_FIELDS.contains(f) && rigcheck::spec::names::find(f).is_none())
        .collect();
    assert!(unnamed.is_empty(), "no name in spec::names for {unnamed:?}");
}

/// The check itself catches a misspelt field and an index past the list.
#[test]
fn a_misspelt_note_field_is_caught() {
    let mut spec = Spec::default();
    spec.gpus.push(rigcheck::spec::Gpu::default());
    let mut known = BTreeSet::new();
    shape(&serde_json::to_value(&spec).unwrap(), "", &mut known);
    let mut note = |field: &str| {
        spec.notes = vec![rigcheck::spec::Note {
            field: field.into(),
            reason: "why".into(),
        }];
        bad_notes("t", &spec, &known)
    };
    assert!(note("gpus[0].state.fan_percent").is_empty());
    assert!(note("gpus[].state.fan_percent").is_empty());
    assert!(note("system.serial").is_empty());
    assert_eq!(note("gpus[0].state.fan_precent").len(), 1);
    assert_eq!(note("gpus[1].state.fan_percent").len(), 1);
    assert_eq!(note("system.serial_number").len(), 1);
    assert_eq!(note("gpus[x].uuid").len(), 1);
}
