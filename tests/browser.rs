//! Renders the HTML sheets in headless Chromium: the page loads without console errors or
//! blocked fetches, the diagram's SVG is in the DOM with the GPU names and core counts, and
//! screenshots (plus a print PDF) are kept in `target/sheet-artifacts/` for a person to look at.
//!
//! Skips with a message when Chromium is not installed, unless `RIGCHECK_REQUIRE_BROWSER=1`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod sheet_specs;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use rigcheck::render::sheet;
use rigcheck::render::sheet::SheetFormat;
use rigcheck::spec::Spec;

fn artifacts() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"));
    let dir = target.join("sheet-artifacts");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn find_chromium() -> Option<PathBuf> {
    let names = [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ];
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for n in names {
            let p = dir.join(n);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Chromium, or `None` after saying why the test is skipped.
fn chromium_or_skip() -> Option<PathBuf> {
    match find_chromium() {
        Some(p) => Some(p),
        None if std::env::var("RIGCHECK_REQUIRE_BROWSER").as_deref() == Ok("1") => {
            panic!("RIGCHECK_REQUIRE_BROWSER=1 but no chromium on PATH (apt-get install chromium)")
        }
        None => {
            eprintln!("SKIPPED: chromium not installed; install it or set RIGCHECK_REQUIRE_BROWSER=1 to make this a failure");
            None
        }
    }
}

/// Runs headless Chromium with `args` on `url`; returns (stdout, stderr).
fn chromium(bin: &Path, args: &[String], url: &str) -> (String, String) {
    let profile = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(bin);
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--hide-scrollbars",
        "--enable-logging=stderr",
        "--v=0",
    ])
    .arg(format!("--user-data-dir={}", profile.path().display()))
    .args(args)
    .arg(url)
    .stdout(Stdio::piped())
    .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(120) {
            child.kill().unwrap();
            panic!("chromium did not finish in 120 s");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "chromium failed: {:?}", out.status);
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn png_size(path: &Path) -> (u32, u32) {
    let b = std::fs::read(path).unwrap();
    assert_eq!(
        &b[..8],
        b"\x89PNG\r\n\x1a\n",
        "{} is not a PNG",
        path.display()
    );
    let be = |i: usize| u32::from_be_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    (be(16), be(20))
}

/// Writes the sheet, loads it, and checks the DOM; returns the page's DOM text.
fn render(bin: &Path, name: &str, spec: &Spec) -> String {
    let dir = artifacts();
    let html = dir.join(format!("{name}.html"));
    let mut buf = Vec::new();
    sheet::write(
        spec,
        &rigcheck::rules::attention(spec),
        None,
        SheetFormat::Html,
        &mut buf,
    )
    .unwrap();
    std::fs::write(&html, &buf).unwrap();
    let url = format!("file://{}", html.display());

    let (dom, err) = chromium(bin, &["--dump-dom".into()], &url);
    // Console errors and CSP refusals are logged as CONSOLE / "Refused to" lines.
    for line in err.lines() {
        assert!(
            !line.contains("CONSOLE") && !line.contains("Refused to"),
            "{name}: browser complained: {line}"
        );
    }
    assert!(dom.contains("<svg"), "{name}: no SVG in the DOM");
    assert!(dom.contains("class=\"topology\""));
    assert!(!dom.contains("<script"), "{name}: a script in the page");

    let png = dir.join(format!("{name}.png"));
    let _ = std::fs::remove_file(&png);
    chromium(
        bin,
        &[
            format!("--screenshot={}", png.display()),
            "--window-size=1200,2400".into(),
        ],
        &url,
    );
    assert_eq!(png_size(&png), (1200, 2400), "{name}: screenshot size");

    let pdf = dir.join(format!("{name}.pdf"));
    let _ = std::fs::remove_file(&pdf);
    chromium(
        bin,
        &[
            format!("--print-to-pdf={}", pdf.display()),
            "--no-pdf-header-footer".into(),
        ],
        &url,
    );
    let bytes = std::fs::read(&pdf).unwrap();
    assert!(
        bytes.starts_with(b"%PDF-"),
        "{name}: print output is not a PDF"
    );
    dom
}

#[test]
fn reference_sheet_renders_in_chromium() {
    let Some(bin) = chromium_or_skip() else {
        return;
    };
    let dom = render(&bin, "reference", &sheet_specs::reference());
    // The diagram and tables name both GPUs with their derived capability.
    assert!(dom.contains("GPU 0 · Quadro RTX 6000"));
    assert!(dom.contains("GPU 1 · Quadro RTX 6000"));
    assert!(dom.contains("4608 CUDA · 576 Tensor cores"));
    assert!(dom.contains("16.3 TFLOPS FP32"));
    assert!(dom.contains("Gen3 x16"));
    assert!(dom.contains("NUMA node 1 · CPUs 18-35,54-71"));
    assert!(dom.contains("CPU1-DIMM12"));
}

#[test]
fn laptop_and_four_gpu_sheets_render_in_chromium() {
    let Some(bin) = chromium_or_skip() else {
        return;
    };
    let dom = render(&bin, "laptop", &sheet_specs::laptop());
    assert!(dom.contains("Latitude 5420"));
    assert!(dom.contains("KXG60ZNV512G KIOXIA"));
    let dom = render(&bin, "four-gpu", &sheet_specs::four_gpu());
    assert!(dom.contains("GPU 3 · NVIDIA RTX A6000"));
    assert!(dom.contains("Gen4 x8 of x16"));
}
