//! libFuzzer target: /proc/self/cgroup and /proc/self/mountinfo, then the walk of each
//! hierarchy's directories (v2, and v1 `cpu` and `memory`). The input is the cgroup text, a
//! NUL byte, then the mountinfo text; which directories "exist" is decided by their length,
//! so the walk both stops early and runs to the bottom.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rigcheck::probe::limits::{cgroup_place, parse_cgroup, parse_mountinfo, walk_cgroup};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (cgroup, mountinfo) = text.split_once('\0').unwrap_or((&text, ""));
    let mounts = parse_mountinfo(mountinfo);
    let Ok(groups) = parse_cgroup(cgroup) else {
        return;
    };
    for controller in [None, Some("cpu"), Some("memory")] {
        let Some(place) = cgroup_place(&groups, &mounts, controller) else {
            continue;
        };
        let cut = data.len() % 7;
        let (mut asked, mut seen) = (0usize, Vec::new());
        walk_cgroup(
            &place,
            |d| {
                asked += 1;
                d.len() % 7 != cut
            },
            |d| seen.push(d.to_string()),
        );
        // Each level is looked at once, and each directory visited lies inside the last.
        assert!(asked <= place.levels.len() + 1);
        assert!(seen.len() <= asked);
        for w in seen.windows(2) {
            assert!(w[1].starts_with(w[0].as_str()) && w[1].len() > w[0].len());
        }
        if let Some(first) = seen.first() {
            assert_eq!(first, &place.top);
        }
    }
});
