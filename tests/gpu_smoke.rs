//! scripts/gpu-smoke.sh without a GPU: a fake `nvidia-smi` prints a real captured
//! `nvidia-smi -q -x`, and a fake rigcheck runs the real binary on the sysroot converted from
//! that capture (live inventory and `capture` replay that sysroot); only `bench gpu`, which
//! needs CUDA, prints a fixed answer. So the script is proven to parse real nvidia-smi XML,
//! to pass when rigcheck agrees with it and to name the GPU and value when it does not.
//! Unix only: the script is bash and its fakes are executable files on PATH.
#![cfg(unix)]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const XML_2080: &str = "nvidia-smi-q-x_dual_2080-v13_telegraf-pr18176.xml";
const XML_A100: &str = "nvidia-smi-q-x_a100-sxm4-v12_telegraf.xml";

fn write_exe(path: &Path, text: &str) {
    fs::write(path, text).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

/// `rigcheck bench gpu --format json` of two GPUs that measured 9.4 and 9.3 TFLOPS FP32.
const BENCH_MEASURED: &str = r#"{"bench": {"seconds": 1.0, "notes": [], "gpu": {"per_gpu": [
 {"cuda_index": 0, "pci_address": "0000:01:00.0", "name": "NVIDIA GeForce RTX 2080", "n": 8192,
  "fp32_tflops": 9.4, "fp16_tflops": 35.2, "fp32_peak_tflops": 10.07, "fp16_peak_tflops": 40.27},
 {"cuda_index": 1, "pci_address": "0000:02:00.0", "name": "NVIDIA GeForce RTX 2080", "n": 8192,
  "fp32_tflops": 9.3, "fp16_tflops": 35.0, "fp32_peak_tflops": 10.07, "fp16_peak_tflops": 40.27}],
 "all_fp32_tflops": 18.6, "all_fp16_tflops": 70.1, "soak_seconds": 1.0, "soak": []}}}"#;

/// What a binary built without the gpu-bench feature answers.
const BENCH_NOT_BUILT: &str = r#"{"bench": {"seconds": 1.0, "notes": [{"field": "bench.gpu",
 "reason": "CUDA not available: this rigcheck was built without the gpu-bench feature; rebuild with `cargo build --release --features gpu-bench`"}]}}"#;

/// What a GPU-bench build answers where libcuda cannot be loaded.
const BENCH_NO_CUDA: &str = r#"{"bench": {"seconds": 1.0, "notes": [{"field": "bench.gpu",
 "reason": "CUDA not available: libcuda.so.1 not found"}]}}"#;

/// A directory with a fake `nvidia-smi` printing `xml` (edited by `edit`) and a fake
/// `rigcheck` whose live machine is the fixture `sysroot`.
struct Rig {
    dir: tempfile::TempDir,
}

impl Rig {
    fn new(sysroot: &str, xml: &str, edit: impl FnOnce(String) -> String) -> Rig {
        Rig::with_bench(sysroot, xml, edit, BENCH_MEASURED)
    }

    fn with_bench(
        sysroot: &str,
        xml: &str,
        edit: impl FnOnce(String) -> String,
        bench: &str,
    ) -> Rig {
        let dir = tempfile::tempdir().unwrap();
        let bin = dir.path().join("bin");
        fs::create_dir(&bin).unwrap();
        let text =
            fs::read_to_string(format!("{ROOT}/fixtures/tools/sources/nvidia-smi/{xml}")).unwrap();
        fs::write(dir.path().join("smi.xml"), edit(text)).unwrap();
        write_exe(
            &bin.join("nvidia-smi"),
            &format!(
                "#!/bin/sh\n[ \"$1 $2\" = \"-q -x\" ] || {{ echo \"fake nvidia-smi: $*\" >&2; exit 9; }}\n\
                 exec cat '{}'\n",
                dir.path().join("smi.xml").display()
            ),
        );
        fs::write(dir.path().join("bench.json"), bench).unwrap();
        let bench = dir.path().join("bench.json");
        let real = env!("CARGO_BIN_EXE_rigcheck");
        let fx = format!("{ROOT}/fixtures/{sysroot}");
        write_exe(
            &dir.path().join("rigcheck"),
            &format!(
                "#!/bin/sh\nreal='{real}'; fx='{fx}'\n\
                 case \"$1\" in\n\
                 capture) mkdir -p \"$2\" && cp -R \"$fx/.\" \"$2/\" && \
                 \"$real\" --sysroot \"$fx\" --format json > \"$2/report.json\" && echo \"captured $2\" ;;\n\
                 --sysroot) exec \"$real\" \"$@\" ;;\n\
                 bench) exec cat '{}' ;;\n\
                 *) exec \"$real\" --sysroot \"$fx\" \"$@\" ;;\n\
                 esac\n",
                bench.display()
            ),
        );
        Rig { dir }
    }

    fn binary(&self) -> PathBuf {
        self.dir.path().join("rigcheck")
    }

    fn run(&self, path: &str, args: &[&str]) -> Output {
        Command::new(format!("{ROOT}/scripts/gpu-smoke.sh"))
            .args(args)
            .env("PATH", path)
            .output()
            .unwrap()
    }

    /// Runs the script on this rig's binary with `extra` options, the fake nvidia-smi first
    /// on PATH.
    fn smoke(&self, extra: &[&str]) -> Output {
        let bin = self.binary();
        let mut args = vec![bin.to_str().unwrap()];
        args.extend_from_slice(extra);
        self.run(&self.path(), &args)
    }

    /// The fake nvidia-smi first on the caller's PATH.
    fn path(&self) -> String {
        format!(
            "{}:{}",
            self.dir.path().join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        )
    }
}

fn text(o: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn two_rtx_2080_agree_with_their_nvidia_smi_capture() {
    let rig = Rig::new("x86_64-dual-rtx2080", XML_2080, |x| x);
    let out = rig.smoke(&["--bench-seconds", "1"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let last = stdout.lines().last().unwrap();
    assert!(
        last.starts_with("gpu-smoke: PASS · 2 x NVIDIA GeForce RTX 2080 · inventory "),
        "{stdout}"
    );
    assert!(
        last.ends_with(
            "capture = replay · nvidia-smi agrees on name, brand, architecture, UUID, memory, \
             clocks, PCIe link, MIG, count · bench gpu 9.4 of 10.1 TFLOPS FP32, 9.3 of 10.1 \
             TFLOPS FP32"
        ),
        "{last}"
    );
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
}

#[test]
fn bench_without_the_feature_is_skipped_and_without_cuda_fails() {
    let rig = Rig::with_bench("x86_64-dual-rtx2080", XML_2080, |x| x, BENCH_NOT_BUILT);
    let out = rig.smoke(&[]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(stdout.ends_with("bench gpu skipped (binary built without the gpu-bench feature)\n"));
    let rig = Rig::with_bench("x86_64-dual-rtx2080", XML_2080, |x| x, BENCH_NO_CUDA);
    let out = rig.smoke(&[]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains(
        "gpu-smoke: FAIL: bench gpu measured nothing: CUDA not available: libcuda.so.1 not found"
    ));
}

#[test]
fn a100_with_mig_agrees_including_its_instances() {
    let rig = Rig::new("x86_64-a100-sxm4-80gb", XML_A100, |x| x);
    let out = rig.smoke(&["--bench-seconds", "1"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("gpu-smoke: note: nvidia-smi lists 1 of 4 attached GPUs"));
    assert!(
        stdout.contains("PASS · 1 x NVIDIA A100-SXM4-80GB"),
        "{stdout}"
    );
}

#[test]
fn a_clock_that_differs_fails_and_names_the_gpu_and_both_values() {
    // GPU 0's max SM clock as 1995 MHz: rigcheck (the converted capture) says 2160.
    let rig = Rig::new("x86_64-dual-rtx2080", XML_2080, |x| {
        x.replacen(
            "<sm_clock>2160 MHz</sm_clock>",
            "<sm_clock>1995 MHz</sm_clock>",
            1,
        )
    });
    let out = rig.smoke(&["--bench-seconds", "1"]);
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[0],
        "gpu-smoke: FAIL: GPU 0000:01:00.0: max SM clock (MHz): rigcheck 2160, nvidia-smi 1995"
    );
    assert!(lines[1].starts_with("gpu-smoke: FAIL (1 check) · 2 x NVIDIA GeForce RTX 2080"));
    assert_eq!(lines.len(), 2, "{stdout}");
}

#[test]
fn a_mig_slice_that_differs_fails() {
    let rig = Rig::new("x86_64-a100-sxm4-80gb", XML_A100, |x| {
        x.replacen(
            "<multiprocessor_count>14</multiprocessor_count>",
            "<multiprocessor_count>28</multiprocessor_count>",
            1,
        )
    });
    let out = rig.smoke(&["--bench-seconds", "1"]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("GPU 0000:01:00.0 MIG 0: SMs: rigcheck 14, nvidia-smi 28"),
        "{stdout}"
    );
}

/// A PATH holding only the tools the script and the fakes use (no nvidia-smi).
fn path_without_nvidia_smi(dir: &Path) -> String {
    let bin = dir.join("tools");
    fs::create_dir_all(&bin).unwrap();
    for tool in [
        "bash", "sh", "env", "python3", "date", "mktemp", "rm", "head", "tr", "ls", "mkdir", "cat",
        "cp",
    ] {
        let out = Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .unwrap();
        let found = String::from_utf8(out.stdout).unwrap();
        let found = found.trim();
        assert!(
            found.starts_with('/'),
            "{tool} is needed to test the script"
        );
        std::os::unix::fs::symlink(found, bin.join(tool)).unwrap();
    }
    bin.display().to_string()
}

#[test]
fn without_nvidia_smi_it_says_so_in_one_line_and_exits_2() {
    let rig = Rig::new("x86_64-dual-rtx2080", XML_2080, |x| x);
    let path = path_without_nvidia_smi(rig.dir.path());
    let bin = rig.binary();
    let out = Command::new("bash")
        .arg(format!("{ROOT}/scripts/gpu-smoke.sh"))
        .arg(&bin)
        .env("PATH", &path)
        .output()
        .unwrap();
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout, "");
    assert_eq!(
        stderr,
        "gpu-smoke: nvidia-smi not found on PATH: run this on a machine with an NVIDIA GPU and \
         its driver installed\n"
    );
}

#[test]
fn a_missing_binary_or_bad_option_is_one_line_and_exit_2() {
    let rig = Rig::new("x86_64-dual-rtx2080", XML_2080, |x| x);
    for (args, want) in [
        (vec!["/nonexistent/rigcheck"], "is not an executable file"),
        (vec![], "usage:"),
        (
            vec![rig.binary().to_str().unwrap(), "--bench-seconds", "ten"],
            "is not a whole number of seconds",
        ),
        (
            vec![rig.binary().to_str().unwrap(), "--frobnicate"],
            "unknown option '--frobnicate'",
        ),
    ] {
        let out = rig.run(&rig.path(), &args);
        let (stdout, stderr) = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stdout}{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(want), "{args:?}: {stderr}");
    }
}
