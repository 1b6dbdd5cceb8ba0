//! Replays every fixture in every inventory format and compares with the accepted snapshot,
//! so any change in what rigcheck reports about a recorded machine shows up in review.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use rigcheck::probe;
use rigcheck::render;
use rigcheck::render::Format;
use rigcheck::rules::attention;
use rigcheck::source::Source;

#[test]
fn every_fixture_in_every_format_matches_its_snapshot() {
    let names = common::recordings();
    assert!(
        names.len() >= 8,
        "expected the recorded machines under fixtures/, found {names:?}"
    );
    for name in names {
        // A relative path keeps `source` in the JSON the same on every checkout.
        let src = Source::sysroot(format!("fixtures/{name}"));
        let spec = probe::inventory(&src);
        for (format, ext) in [
            (Format::Table, "table"),
            (Format::Json, "json"),
            (Format::Markdown, "md"),
        ] {
            let mut buf = Vec::new();
            render::inventory_report(&spec, &attention(&spec), format, None, false, &mut buf)
                .unwrap();
            let text = String::from_utf8(buf).unwrap();
            insta::assert_snapshot!(format!("{name}.{ext}"), text);
        }
    }
}

#[test]
fn replay_is_deterministic() {
    for name in common::recordings() {
        let a = probe::inventory(&Source::sysroot(format!("fixtures/{name}")));
        let b = probe::inventory(&Source::sysroot(format!("fixtures/{name}")));
        assert_eq!(a, b, "{name}");
    }
}

#[test]
fn every_unknown_contract_field_has_a_note() {
    // The design's JSON contract: a null there must be explained by a note on the field or
    // on its section, on every fixture and on the live machine.
    const CONTRACT: &[&str] = &[
        "hostname",
        "captured_at",
        "system.vendor",
        "system.product",
        "system.serial",
        "system.bios_version",
        "os.name",
        "os.kernel",
        "cpu.vendor",
        "cpu.model",
        "cpu.sockets",
        "cpu.cores",
        "cpu.threads",
        "cpu.threads_per_core",
        "cpu.base_mhz",
        "cpu.max_mhz",
        "cpu.min_mhz",
        "memory.total_bytes",
        "memory.usable_bytes",
    ];
    let mut specs: Vec<(String, rigcheck::spec::Spec)> = common::recordings()
        .into_iter()
        .map(|n| {
            (
                n.clone(),
                probe::inventory(&Source::sysroot(format!("fixtures/{n}"))),
            )
        })
        .collect();
    specs.push(("live".into(), probe::inventory(&Source::live())));
    for (name, spec) in specs {
        let v = serde_json::to_value(&spec).unwrap();
        for field in CONTRACT {
            let val = field.split('.').fold(&v, |v, k| &v[k]);
            if !val.is_null() {
                continue;
            }
            let section = field.split('.').next().unwrap();
            let explained = spec.notes.iter().any(|n| {
                n.field == *field
                    || n.field == section
                    || field.starts_with(&format!("{}.", n.field))
            });
            assert!(
                explained,
                "{name}: {field} is null without a note; notes: {:?}",
                spec.notes
            );
        }
    }
}

#[test]
fn spec_sheets_of_recorded_machines_match_their_snapshots() {
    use rigcheck::render::sheet;
    use rigcheck::render::sheet::SheetFormat;
    // The reference workstation with its order checked, and a laptop-size machine
    // (the i7-1165G7 dump: one socket, no GPU).
    for (name, profile) in [
        ("hp-z8-g4-dual-rtx6000", Some("hp-z8-g4-dual-rtx6000")),
        ("x86_64-64cpu-linux6.2", None),
        // The same workstation as its Windows capture shows it.
        ("windows-hp-z8-g4", Some("hp-z8-g4-dual-rtx6000")),
    ] {
        let spec = probe::inventory(&Source::sysroot(format!("fixtures/{name}")));
        let checked = profile.map(|p| {
            let profile = rigcheck::profile::load(p).unwrap();
            sheet::Verify::from_report(&rigcheck::verify::verify(&spec, &profile, false))
        });
        for (format, ext) in [(SheetFormat::Markdown, "md"), (SheetFormat::Html, "html")] {
            let mut buf = Vec::new();
            sheet::write(&spec, &attention(&spec), checked.as_ref(), format, &mut buf).unwrap();
            let text = String::from_utf8(buf).unwrap();
            if ext == "html" {
                assert!(text.contains("<svg"), "{name}: no diagram");
            }
            insta::assert_snapshot!(format!("sheet-{name}.{ext}"), text);
        }
    }
}
