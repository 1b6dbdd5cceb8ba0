//! The test doubles of NVIDIA's libraries (tests/doubles/README.md) put where the loader
//! finds them, and rigcheck run live against them; JSON comparison for the tests that hold
//! a live report against a replay.

use std::collections::BTreeMap;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// Every GPU fixture with recorded NVML answers (gpu-no-driver has none).
pub const GPU_FIXTURES: [&str; 12] = [
    "x86_64-h100-80gb-hbm3",
    "x86_64-h100-mig",
    "x86_64-a100-sxm4-80gb",
    "x86_64-rtx3090",
    "x86_64-tesla-t4",
    "x86_64-quadro-p2000",
    "x86_64-dual-rtx2080",
    "hp-z8-g4-dual-rtx6000",
    "gpu-busy",
    "gpu-hot-throttling",
    "gpu-ecc-errors",
    "gpu-degraded-x8",
];

/// The recorded NVML answers of `fixtures/NAME`.
pub fn nvml_json(fixture: &str) -> PathBuf {
    super::fixture(fixture).join("nvml.json")
}

/// Which NVML library the loader finds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nvml {
    /// The double with every entry point rigcheck uses.
    Current,
    /// The double as an R470 driver's library: no entry points newer than R470.
    R470,
    /// No libnvidia-ml.so.1 at all (a machine without the driver).
    Missing,
}

/// A directory for `LD_LIBRARY_PATH` holding the doubles under their NVIDIA names.
pub struct Libs {
    dir: tempfile::TempDir,
}

/// A double cargo built (a dev-dependency of rigcheck: `cargo test` builds it next to the
/// test binaries, in target/<profile>/deps).
pub fn built(file: &str) -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().unwrap().join(file);
    assert!(
        path.is_file(),
        "{} is missing: the doubles are dev-dependencies, built by `cargo test`",
        path.display()
    );
    path
}

impl Libs {
    /// NVML as `nvml` says; CUDA's `libcuda.so.1` and `libcublas.so.12` when `cuda` and
    /// `cublas` say (one library under both names, so they share device memory).
    pub fn new(nvml: Nvml, cuda: bool, cublas: bool) -> Libs {
        let dir = tempfile::tempdir().unwrap();
        let file = match nvml {
            Nvml::Current => Some("libnvml_double.so"),
            Nvml::R470 => Some("libnvml_double_r470.so"),
            Nvml::Missing => None,
        };
        if let Some(f) = file {
            symlink(built(f), dir.path().join("libnvidia-ml.so.1")).unwrap();
        }
        if cuda {
            symlink(built("libcuda_double.so"), dir.path().join("libcuda.so.1")).unwrap();
        }
        if cublas {
            symlink(
                built("libcuda_double.so"),
                dir.path().join("libcublas.so.12"),
            )
            .unwrap();
        }
        Libs { dir }
    }

    /// Only the NVML double.
    pub fn nvml() -> Libs {
        Libs::new(Nvml::Current, false, false)
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }
}

/// Runs rigcheck live with `libs` on the loader's path, the doubles answering from
/// `nvml_json`, and `env` (failure rules, ...); returns (exit code, stdout, stderr).
pub fn live(
    libs: &Libs,
    nvml_json: &Path,
    env: &[(&str, &str)],
    args: &[&str],
) -> (i32, String, String) {
    let mut c = super::rigcheck();
    c.env("LD_LIBRARY_PATH", libs.path())
        .env("RIGCHECK_NVML_DOUBLE", nvml_json)
        .env("RIGCHECK_TEST_NVML_ALWAYS", "1")
        .env_remove("RIGCHECK_NVML_DOUBLE_FAIL")
        .env_remove("RIGCHECK_CUDA_DOUBLE_FAIL")
        .env_remove("RIGCHECK_NVML_DOUBLE_LOG")
        .env_remove("CUDA_VISIBLE_DEVICES");
    for (k, v) in env {
        c.env(k, v);
    }
    c.args(args);
    let out = c.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `live` of the inventory as JSON, which must succeed.
pub fn live_report(libs: &Libs, nvml_json: &Path, env: &[(&str, &str)]) -> Value {
    let (code, out, err) = live(libs, nvml_json, env, &["-f", "json"]);
    assert_eq!(code, 0, "live inventory with {env:?} exited {code}: {err}");
    assert!(
        !err.contains("panicked"),
        "live inventory with {env:?} panicked: {err}"
    );
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("no JSON report with {env:?}: {e}"))
}

/// The replay of a sysroot as JSON.
pub fn replay_report(root: &Path, args: &[&str]) -> Value {
    let mut a = vec!["--sysroot", root.to_str().unwrap()];
    a.extend_from_slice(args);
    let (_, out, err) = super::run(&a);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("no JSON from {a:?}: {e}; stderr: {err}"))
}

/// A sysroot holding `nvml_json` and a readable PCI tree without NVIDIA devices: what the
/// live probe sees on this machine, with the capture's NVML answers.
pub fn nvml_only(nvml_json: &Path) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("sys/bus/pci/devices")).unwrap();
    std::fs::copy(nvml_json, dir.path().join("nvml.json")).unwrap();
    dir
}

/// Every leaf where `a` and `b` differ, as `path: a | b`, paths written `gpus[0].pcie.width`.
pub fn diff(a: &Value, b: &Value, path: &str, out: &mut Vec<(String, String)>) {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let keys: std::collections::BTreeSet<&String> = x.keys().chain(y.keys()).collect();
            for k in keys {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                diff(
                    x.get(k).unwrap_or(&Value::Null),
                    y.get(k).unwrap_or(&Value::Null),
                    &p,
                    out,
                );
            }
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y).enumerate() {
                diff(p, q, &format!("{path}[{i}]"), out);
            }
        }
        _ if a != b => out.push((path.to_string(), format!("{a} | {b}"))),
        _ => {}
    }
}

/// `gpus[3].pcie.width` → `gpus[*].pcie.width`, for matching against a list of fields.
pub fn generic(path: &str) -> String {
    let mut out = String::new();
    let mut in_index = false;
    for ch in path.chars() {
        match ch {
            '[' => {
                in_index = true;
                out.push_str("[*");
            }
            ']' => {
                in_index = false;
                out.push(']');
            }
            _ if in_index => {}
            _ => out.push(ch),
        }
    }
    out
}

/// The notes of a report whose field starts with `prefix`, as (field, reason) counts.
pub fn notes(report: &Value, prefix: &str) -> BTreeMap<(String, String), usize> {
    let mut out = BTreeMap::new();
    for n in report["notes"].as_array().unwrap() {
        let field = n["field"].as_str().unwrap();
        if field.starts_with(prefix) {
            *out.entry((field.to_string(), n["reason"].as_str().unwrap().to_string()))
                .or_insert(0) += 1;
        }
    }
    out
}
