//! libFuzzer target: the profile parser, then a check of an empty machine against it.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(p) = rigcheck::profile::parse(&text, "fuzz.toml", "fuzz") {
        let _ = rigcheck::verify::verify(&rigcheck::spec::Spec::default(), &p, true);
    }
});
