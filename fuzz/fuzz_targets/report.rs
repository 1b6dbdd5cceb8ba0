//! libFuzzer target: the JSON report reader used by diff and fleet.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok((spec, _)) = rigcheck::fleet::parse_report(&text) {
        let _ = rigcheck::diff::diff(&spec, &rigcheck::spec::Spec::default());
        let mut out = Vec::new();
        let _ = rigcheck::render::inventory_report(
            &spec,
            &rigcheck::preflight::rules::attention(&spec),
            rigcheck::render::Format::Table,
            None,
            false,
            &mut out,
        );
    }
});
