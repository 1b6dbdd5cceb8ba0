//! libFuzzer target: the profile parser (with the line and column of every requirement),
//! then a check of an empty machine against it.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match rigcheck::profile::parse(&text, "fuzz.toml", "fuzz") {
        Ok(p) => {
            // Every requirement is placed inside the text.
            let lines = text.split('\n').count();
            for r in &p.requirements {
                let (line, column) = r.at;
                assert!(line >= 1 && line <= lines, "{:?} of {lines} lines", r.at);
                let len = text.split('\n').nth(line - 1).map_or(0, |l| l.chars().count());
                assert!(column >= 1 && column <= len + 1, "{:?}", r.at);
            }
            let _ = rigcheck::verify::verify(&rigcheck::spec::Spec::default(), &p, true);
        }
        Err(e) => assert!(e.line <= text.split('\n').count()),
    }
});
