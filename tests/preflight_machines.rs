//! preflight on the reference workstation and on copies of it with one thing wrong each:
//! the healthy machine passes, and every fault fails (or warns) exactly its own line.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::Path;

use assert_cmd::Command;
use common::{reference_copy, REFERENCE};
use serde_json::Value;

/// Runs preflight with JSON output: (exit code, checks as (id, subject, status)).
fn preflight(root: &Path, args: &[&str]) -> (i32, Vec<(String, String, String)>) {
    let out = Command::cargo_bin("rigcheck")
        .unwrap()
        .env_remove("CUDA_VISIBLE_DEVICES")
        .arg("--sysroot")
        .arg(root)
        .args(["preflight", "--format", "json", "--data", "/data"])
        .args(args)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    let checks = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_string(),
                c["subject"].as_str().unwrap_or("").to_string(),
                c["status"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    (out.status.code().unwrap(), checks)
}

/// The checks with the given status, as `id` or `id@subject`.
fn with(checks: &[(String, String, String)], status: &str) -> Vec<String> {
    checks
        .iter()
        .filter(|c| c.2 == status)
        .map(|c| {
            if c.1.is_empty() {
                c.0.clone()
            } else {
                format!("{}@{}", c.0, c.1)
            }
        })
        .collect()
}

/// Takes the reference machine's nvml.json from a GPU-state fixture made from it.
fn gpu_state_from(root: &Path, fixture: &str) {
    fs::copy(
        Path::new("fixtures").join(fixture).join("nvml.json"),
        root.join("nvml.json"),
    )
    .unwrap();
}

#[test]
fn healthy_reference_machine_is_ready() {
    let (code, checks) = preflight(Path::new(REFERENCE), &[]);
    assert_eq!(code, 0);
    assert!(with(&checks, "fail").is_empty(), "{checks:?}");
    assert!(with(&checks, "warn").is_empty(), "{checks:?}");
    // 24 of the machine and its GPUs, and 5 of its parts' health (two drives, memory, PCIe,
    // CPU throttling).
    assert_eq!(with(&checks, "pass").len(), 29, "{checks:?}");
    for id in [
        "mem.installed",
        "health.drive@nvme0n1",
        "health.drive@nvme1n1",
        "health.memory",
        "health.pcie",
    ] {
        assert!(
            with(&checks, "pass").contains(&id.to_string()),
            "{checks:?}"
        );
    }
}

#[test]
fn hot_throttling_gpu_fails_only_its_thermal_lines() {
    let dir = reference_copy();
    gpu_state_from(dir.path(), "gpu-hot-throttling");
    let (code, checks) = preflight(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(
        with(&checks, "fail"),
        ["gpu.temperature@GPU 0", "gpu.throttle@GPU 0"]
    );
    assert!(with(&checks, "warn").is_empty(), "{checks:?}");
}

#[test]
fn busy_gpu_fails_only_its_process_line() {
    let dir = reference_copy();
    gpu_state_from(dir.path(), "gpu-busy");
    let (code, checks) = preflight(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(with(&checks, "fail"), ["gpu.processes@GPU 0"]);
    // 20 GiB of its 24 GiB in use: a warning about free VRAM on the same GPU.
    assert_eq!(with(&checks, "warn"), ["gpu.free_vram@GPU 0"]);
    // With a VRAM need it becomes a failure.
    let (_, checks) = preflight(dir.path(), &["--min-free-vram", "16 GiB"]);
    assert_eq!(
        with(&checks, "fail"),
        ["gpu.free_vram@GPU 0", "gpu.processes@GPU 0"]
    );
}

#[test]
fn gpu_on_an_x8_link_warns_only_its_pcie_line() {
    let dir = reference_copy();
    gpu_state_from(dir.path(), "gpu-degraded-x8");
    let port = dir.path().join("sys/devices/pci0000:ae/0000:ae:00.0");
    for f in [port.join("max_link_width"), port.join("current_link_width")] {
        fs::write(f, "8\n").unwrap();
    }
    fs::write(port.join("0000:af:00.0/current_link_width"), "8\n").unwrap();
    let (code, checks) = preflight(dir.path(), &[]);
    // A narrow link is a warning (the job runs, slower), not a failure.
    assert_eq!(code, 0);
    assert!(with(&checks, "fail").is_empty(), "{checks:?}");
    assert_eq!(with(&checks, "warn"), ["gpu.pcie@GPU 1"]);
}

#[test]
fn ecc_errors_fail_only_the_ecc_line() {
    let dir = reference_copy();
    let p = dir.path().join("nvml.json");
    let mut v: Value = serde_json::from_str(&fs::read_to_string(&p).unwrap()).unwrap();
    let d = &mut v["devices"][0];
    d["ecc_mode"] = serde_json::json!({"ok": {"current": true, "pending": true}});
    d["ecc_corrected_volatile"] = serde_json::json!({"ok": 12});
    d["ecc_uncorrected_volatile"] = serde_json::json!({"ok": 3});
    d["ecc_uncorrected_aggregate"] = serde_json::json!({"ok": 3});
    d["pages_pending_retirement"] = serde_json::json!({"ok": true});
    fs::write(&p, serde_json::to_string(&v).unwrap()).unwrap();
    let (code, checks) = preflight(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(with(&checks, "fail"), ["gpu.ecc@GPU 0"]);
    assert!(with(&checks, "warn").is_empty(), "{checks:?}");
}

#[test]
fn container_with_small_shm_and_two_cpu_quota_fails_those_two_lines() {
    let dir = reference_copy();
    let root = dir.path();
    // Docker's defaults: /dev/shm of 64 MiB, and `--cpus 2` as a cgroup v2 quota.
    let mi = root.join("proc/4242/mountinfo");
    let text = fs::read_to_string(&mi).unwrap().replace(
        "/dev/shm rw,nosuid,nodev shared:3 - tmpfs tmpfs rw,inode64",
        "/dev/shm rw,nosuid,nodev,noexec,relatime - tmpfs shm rw,size=65536k,inode64",
    );
    fs::write(&mi, text).unwrap();
    fs::write(
        root.join("sys/fs/cgroup/user.slice/user-1000.slice/session-3.scope/cpu.max"),
        "200000 100000\n",
    )
    .unwrap();
    let host = root.join("host.json");
    let mut v: Value = serde_json::from_str(&fs::read_to_string(&host).unwrap()).unwrap();
    v["statvfs"]["/dev/shm"] =
        serde_json::json!({"total_bytes": 67108864, "available_bytes": 67108864});
    fs::write(&host, serde_json::to_string(&v).unwrap()).unwrap();
    let (code, checks) = preflight(root, &["--workers", "8"]);
    assert_eq!(code, 1);
    assert_eq!(with(&checks, "fail"), ["cpu.workers", "mem.shm"]);
    assert!(with(&checks, "warn").is_empty(), "{checks:?}");
}

#[test]
fn dataset_on_a_nearly_full_disk_fails_only_the_disk_line() {
    let dir = reference_copy();
    let host = dir.path().join("host.json");
    let mut v: Value = serde_json::from_str(&fs::read_to_string(&host).unwrap()).unwrap();
    v["statvfs"]["/data"]["available_bytes"] = serde_json::json!(9_843_730_759u64);
    fs::write(&host, serde_json::to_string(&v).unwrap()).unwrap();
    let (code, checks) = preflight(dir.path(), &[]);
    assert_eq!(code, 1);
    assert_eq!(with(&checks, "fail"), ["disk.free@/data"]);
    assert!(with(&checks, "warn").is_empty(), "{checks:?}");
}

#[cfg(unix)]
#[test]
fn slurm_prolog_example_drains_a_node_with_a_hot_gpu_and_passes_a_healthy_one() {
    use std::os::unix::fs::PermissionsExt;
    let bin = tempfile::tempdir().unwrap();
    let script = |name: &str, body: &str| {
        let p = bin.path().join(name);
        fs::write(&p, format!("#!/bin/sh\n{body}\n")).unwrap();
        fs::set_permissions(&p, fs::Permissions::from_mode(0o755)).unwrap();
    };
    // `rigcheck` replays $FIXTURE; `scontrol` and `logger` record what they were asked.
    let real = assert_cmd::cargo::cargo_bin("rigcheck");
    script(
        "rigcheck",
        &format!("exec '{}' --sysroot \"$FIXTURE\" \"$@\"", real.display()),
    );
    script("scontrol", "echo \"$@\" > \"$RECORD/scontrol\"");
    script("logger", "true");
    let record = tempfile::tempdir().unwrap();
    let run = |fixture: &Path| {
        std::process::Command::new("sh")
            .arg("examples/slurm/prolog.sh")
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    bin.path().display(),
                    std::env::var("PATH").unwrap()
                ),
            )
            .env("FIXTURE", fixture)
            .env("RECORD", record.path())
            .env("SLURMD_NODENAME", "z8-07")
            .env("SLURM_JOB_GPUS", "0,1")
            .env("RIGCHECK_DATA", "/data")
            .status()
            .unwrap()
            .code()
    };
    assert_eq!(run(Path::new(REFERENCE)), Some(0));
    assert!(!record.path().join("scontrol").exists());
    let hot = reference_copy();
    gpu_state_from(hot.path(), "gpu-hot-throttling");
    assert_eq!(run(hot.path()), Some(1));
    let args = fs::read_to_string(record.path().join("scontrol")).unwrap();
    assert!(
        args.starts_with(
            "update nodename=z8-07 state=drain reason=rigcheck: GPU temperature GPU 0: 89 °C (expected ≤ 80 °C)"
        ),
        "{args}"
    );
}
