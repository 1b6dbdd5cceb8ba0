//! `rigcheck preflight` end to end: replays the preflight-* fixtures and checks which lines
//! fail and the exit code.

// Helpers here are test code too: a failed unwrap is a failed test.
#![allow(clippy::unwrap_used)]

use assert_cmd::Command;
use serde_json::Value;

/// Preflight of a fixture as JSON. These machines have no GPU: they test the host's checks,
/// for a CPU-only job (`--gpus 0`) unless `args` asks for GPUs.
fn preflight(fixture: &str, args: &[&str]) -> (i32, Value) {
    let gpus: &[&str] = if args.contains(&"--gpus") {
        &[]
    } else {
        &["--gpus", "0"]
    };
    let out = Command::cargo_bin("rigcheck")
        .unwrap()
        .env_remove("CUDA_VISIBLE_DEVICES")
        .args(["--sysroot", &format!("fixtures/{fixture}"), "preflight"])
        .args(gpus)
        .args(args)
        .args(["--format", "json"])
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap(), json)
}

/// (id, status) of every check that does not pass.
/// `rigcheck preflight ARGS` on `fixtures/FIXTURE` as a table without colour: exit code, text.
fn preflight_table(fixture: &str, args: &[&str]) -> (Option<i32>, String) {
    let root = format!("fixtures/{fixture}");
    let out = Command::cargo_bin("rigcheck")
        .unwrap()
        .env_remove("CUDA_VISIBLE_DEVICES")
        .args(["--sysroot", root.as_str(), "--color", "never", "preflight"])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn not_passing(json: &Value) -> Vec<(String, String)> {
    json["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["status"] != "pass")
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_string(),
                c["status"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn check<'a>(json: &'a Value, id: &str) -> &'a Value {
    json["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no check {id}"))
}

/// A fact shown without a verdict: it has no status and is not among the checks.
fn not_checked<'a>(json: &'a Value, id: &str) -> &'a Value {
    assert!(
        json["checks"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["id"] != id),
        "{id} is among the checks"
    );
    let c = json["not_checked"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("{id} is not listed as not checked"));
    assert!(c.get("status").is_none(), "{c}");
    c
}

/// The status words of every check: the four of verify and fleet, never another.
fn status_words(json: &Value) -> Vec<String> {
    json["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["status"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn healthy_vm_is_ready() {
    let (code, json) = preflight("preflight-healthy", &["--data", "/"]);
    assert_eq!(code, 0);
    assert_eq!(json["status"], "pass");
    assert_eq!(json["exit_code"], 0);
    assert_eq!(not_passing(&json), vec![]);
    assert_eq!(not_checked(&json, "gpu.count")["found"], "0 on PCI");
    assert_eq!(not_checked(&json, "cpu.governor")["found"], "no cpufreq");
    assert_eq!(
        check(&json, "cpu.workers")["found"],
        "2 usable CPUs (affinity 0-1)"
    );
    assert_eq!(
        check(&json, "mem.shm")["found"],
        "23.5 GiB free of 23.5 GiB"
    );
    assert_eq!(check(&json, "os.open_files")["found"], "20000 (hard 20000)");
    assert_eq!(check(&json, "os.thp")["found"], "madvise");
    assert_eq!(
        check(&json, "disk.free")["found"],
        "74.8 GB free of 270.6 GB (28%) on /"
    );
    assert_eq!(check(&json, "disk.kind")["found"], "ext4 on vda (virtual)");
}

#[test]
fn no_gpu_is_not_ready_to_train_unless_the_job_needs_none() {
    let out = Command::cargo_bin("rigcheck")
        .unwrap()
        .env_remove("CUDA_VISIBLE_DEVICES")
        .args([
            "--sysroot",
            "fixtures/preflight-healthy",
            "preflight",
            "-f",
            "json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        not_passing(&json),
        vec![("gpu.count".to_string(), "fail".to_string())]
    );
    assert!(check(&json, "gpu.count")["advice"]
        .as_str()
        .unwrap()
        .contains("--gpus 0"));
}

#[test]
fn healthy_vm_cannot_feed_eight_workers_or_a_gpu() {
    let (code, json) = preflight("preflight-healthy", &["--workers", "8", "--gpus", "1"]);
    assert_eq!(code, 1);
    assert_eq!(
        not_passing(&json),
        vec![
            ("gpu.count".to_string(), "fail".to_string()),
            ("cpu.workers".to_string(), "fail".to_string()),
        ]
    );
    assert_eq!(check(&json, "gpu.count")["found"], "0 visible, 0 on PCI");
}

#[test]
fn container_with_docker_defaults_fails_shm_and_workers() {
    let (code, json) = preflight("preflight-container-small-shm", &["--workers", "8"]);
    assert_eq!(code, 1);
    assert_eq!(json["status"], "fail");
    assert_eq!(
        not_passing(&json),
        vec![
            ("cpu.workers".to_string(), "fail".to_string()),
            ("mem.shm".to_string(), "fail".to_string()),
        ]
    );
    assert_eq!(
        check(&json, "cpu.workers")["found"],
        "2 usable CPUs (affinity 0-15; cgroup quota 2 from /sys/fs/cgroup/cpu.max 200000/100000)"
    );
    assert_eq!(check(&json, "mem.shm")["found"], "64 MiB free of 64 MiB");
    // The cgroup memory limit bounds what is available.
    let mem = check(&json, "mem.available")["found"]
        .as_str()
        .unwrap()
        .to_string();
    assert!(
        mem.ends_with("of 16 GiB (cgroup limit 16 GiB from /sys/fs/cgroup/memory.max)"),
        "{mem}"
    );
    // One worker fits in 2 CPUs beside the trainer: then only /dev/shm fails.
    let (code, json) = preflight("preflight-container-small-shm", &["--workers", "1"]);
    assert_eq!(code, 1);
    assert_eq!(
        not_passing(&json),
        vec![("mem.shm".to_string(), "fail".to_string())]
    );
}

#[test]
fn nearly_full_disk_fails_only_disk_free() {
    let (code, json) = preflight("preflight-disk-nearly-full", &["--data", "/"]);
    assert_eq!(code, 1);
    assert_eq!(
        not_passing(&json),
        vec![("disk.free".to_string(), "fail".to_string())]
    );
    let free = check(&json, "disk.free");
    assert_eq!(free["found"], "2.7 GB free of 270.6 GB (1%) on /");
    assert_eq!(free["subject"], "/");
    // An explicit minimum the disk meets passes.
    let (code, _) = preflight(
        "preflight-disk-nearly-full",
        &["--data", "/", "--min-free-disk", "2 GB"],
    );
    assert_eq!(code, 0);
}

#[test]
fn without_data_the_disk_is_not_checked() {
    let (code, json) = preflight("preflight-disk-nearly-full", &[]);
    assert_eq!(code, 0);
    assert_eq!(json["status"], "pass");
    assert!(not_checked(&json, "disk.free")["advice"]
        .as_str()
        .unwrap()
        .contains("--data PATH"));
    not_checked(&json, "disk.kind");
    for w in status_words(&json) {
        assert!(
            ["pass", "warn", "unknown", "fail"].contains(&w.as_str()),
            "{w}"
        );
    }
}

#[test]
fn a_fact_not_read_is_unknown_and_the_run_incomplete() {
    // The replay holds no filesystem at /mnt/data: its free space cannot be read, which is
    // not a pass. Nothing fails, so the run is INCOMPLETE (exit 3), as verify's.
    let (code, json) = preflight("preflight-healthy", &["--data", "/mnt/data"]);
    assert_eq!(code, 3);
    assert_eq!(
        (json["status"].as_str(), json["exit_code"].as_u64()),
        (Some("unknown"), Some(3))
    );
    assert_eq!(
        not_passing(&json),
        vec![
            ("disk.free".to_string(), "unknown".to_string()),
            ("disk.kind".to_string(), "unknown".to_string()),
        ]
    );
    assert!(!check(&json, "disk.free")["advice"]
        .as_str()
        .unwrap()
        .is_empty());
    let (code, text) =
        preflight_table("preflight-healthy", &["--gpus", "0", "--data", "/mnt/data"]);
    assert_eq!(code, Some(3));
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[1].starts_with("INCOMPLETE: not known to be ready: could not read Free disk space"),
        "{text}"
    );
    assert!(
        lines
            .last()
            .unwrap()
            .starts_with("INCOMPLETE: 0 fail, 0 warn, 2 unknown, 6 pass"),
        "{text}"
    );
    assert!(
        text.contains("Not checked: GPUs a job can use: 0 on PCI"),
        "{text}"
    );
    assert!(!text.contains("skip"), "{text}");
}

#[test]
fn bad_size_is_a_usage_error() {
    let out = Command::cargo_bin("rigcheck")
        .unwrap()
        .args(["--sysroot", "fixtures/preflight-healthy", "preflight"])
        .args(["--min-free-disk", "12 XB"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown unit 'XB'"), "{err}");
}

#[test]
fn table_names_each_failure_with_its_fix() {
    let (code, text) = preflight_table(
        "preflight-container-small-shm",
        &["--workers", "8", "--gpus", "0"],
    );
    assert_eq!(code, Some(1));
    // The answer first, in words; then failures first, each with its fix under it.
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("preflight "), "{text}");
    assert!(
        lines[1].starts_with("FAIL: not ready to train: CPUs for data-loader workers: ")
            && lines[1].contains("; Shared memory (/dev/shm): "),
        "{text}"
    );
    let shm = lines
        .iter()
        .position(|l| l.contains("Shared memory (/dev/shm)") && l.contains('│'))
        .unwrap();
    assert!(lines[shm].trim_start().starts_with("fail"), "{text}");
    assert!(lines[shm + 1].contains("--shm-size"), "{text}");
    let header = lines.iter().position(|l| l.starts_with('─')).unwrap();
    assert!(lines[header + 1].trim_start().starts_with("fail"), "{text}");
    assert!(text.contains("FAIL: 2 fail, 0 warn, "), "{text}");
    assert!(text.trim_end().ends_with("not ready to train"), "{text}");
}

/// A capture records filesystems, not datasets: a `--data` path the sysroot does not hold
/// is not vouched for by the space of the mount that would hold it (live, the same path
/// would be "no such file or directory").
#[test]
fn a_data_path_the_sysroot_does_not_hold_is_unknown_not_passed() {
    let (code, json) = preflight("preflight-healthy", &["--data", "/srv/datasets"]);
    assert_eq!(code, 3, "unknown: neither a pass nor a failure");
    let free = check(&json, "disk.free");
    assert_eq!(free["status"], "unknown");
    assert_eq!(free["found"], "unknown");
    assert_eq!(free["subject"], "/srv/datasets");
    assert!(
        free["advice"]
            .as_str()
            .is_some_and(|a| a.contains("run preflight on the machine itself")),
        "{free}"
    );
}

#[test]
fn a_recording_without_mountinfo_flags_only_what_it_shows() {
    // gpu-degraded-x8 records the GPUs' files only: its mounts were not read, so /dev/shm is
    // unknown (not "not mounted"), and the one thing flagged is GPU 1's x8 link.
    let (code, json) = preflight("gpu-degraded-x8", &["--gpus", "2"]);
    let flagged: Vec<(String, String)> = not_passing(&json)
        .into_iter()
        .filter(|(_, s)| s != "unknown")
        .collect();
    assert_eq!(flagged, [("gpu.pcie".to_string(), "warn".to_string())]);
    let shm = check(&json, "mem.shm");
    assert_eq!(shm["status"], "unknown", "{shm}");
    assert!(
        shm["advice"]
            .as_str()
            .is_some_and(|a| a.contains("/proc/self/mountinfo is not present")),
        "{shm}"
    );
    // Nothing failed; what could not be read makes the run incomplete, not a failure.
    assert_eq!(code, 3, "{json}");
    // A recording with its mounts still checks /dev/shm.
    let (_, json) = preflight("preflight-healthy", &[]);
    assert_eq!(check(&json, "mem.shm")["status"], "pass");
}

#[test]
fn a_machine_without_gpus_spends_no_column_on_what_checks_are_on() {
    // No check of a GPU-less machine is on a GPU or a path: no "On" column.
    let (_, text) = preflight_table("x86_64-vm-kvm", &[]);
    let header = text.lines().find(|l| l.contains("│ Check")).unwrap();
    assert_eq!(
        header.split('│').map(str::trim).collect::<Vec<_>>(),
        ["Status", "Check", "Expected", "Found"],
        "{text}"
    );
    // Where checks are on GPUs, the column says which.
    let (_, text) = preflight_table("gpu-degraded-x8", &["--gpus", "2"]);
    let header = text.lines().find(|l| l.contains("│ Check")).unwrap();
    assert!(header.contains("│ On "), "{text}");
}
