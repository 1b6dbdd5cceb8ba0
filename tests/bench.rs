//! Benchmarks run at tiny sizes: figures are positive and consistent, results serialise, the
//! chart shows measured against peak, and `bench` refuses a recorded sysroot.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::sync::Mutex;
use std::time::Duration;

use assert_cmd::Command;
use rigcheck::bench::{self, cpu, disk, gpu, memory, BenchReport, Progress};
use rigcheck::render::bench::chart_svg;
use rigcheck::spec::{Dimm, Notes, Spec};

/// Benchmarks in this file take turns, so one does not slow another on a small machine.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn turn() -> std::sync::MutexGuard<'static, ()> {
    ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner())
}

/// Small images on 1 and 2 threads for 0.4 s, on the machine `spec` describes.
fn tiny_cpu_on(spec: &Spec) -> cpu::CpuBench {
    let params = cpu::CpuParams {
        width: 96,
        height: 72,
        crop: 32,
        threads: vec![1, 2],
        budget: Duration::from_millis(400),
    };
    cpu::run(&params, spec, None, &Progress::hidden())
}

/// On a machine of 4 usable CPUs and two GPUs that answer.
fn tiny_cpu() -> cpu::CpuBench {
    let mut spec = Spec::default();
    spec.gpus = (0..2)
        .map(|i| rigcheck::spec::Gpu {
            index: Some(i),
            ..Default::default()
        })
        .collect();
    spec.limits = Some(rigcheck::spec::Limits {
        affinity_cpus: Some("0-3".into()),
        affinity_count: Some(4),
        ..Default::default()
    });
    tiny_cpu_on(&spec)
}

fn tiny_memory(spec: &Spec, notes: &mut Notes) -> memory::MemoryBench {
    let params = memory::MemoryParams {
        elements: 1 << 20,
        threads: vec![1, 2],
        budget: Duration::from_millis(200),
    };
    memory::run(&params, spec, &Progress::hidden(), notes)
}

fn dimm(locator: &str, mts: u32) -> Dimm {
    Dimm {
        locator: locator.into(),
        bank_locator: None,
        size_bytes: Some(16 << 30),
        kind: Some("DDR5".into()),
        form_factor: Some("DIMM".into()),
        speed_mts: Some(mts),
        configured_speed_mts: Some(mts),
        manufacturer: None,
        part_number: None,
        serial: None,
        rank: Some(1),
        type_detail: None,
        socket: None,
    }
}

#[test]
fn cpu_pipeline_scales_and_counts_images() {
    let _t = turn();
    let c = tiny_cpu();
    assert_eq!((c.image_width, c.image_height, c.crop_size), (96, 72, 32));
    assert!(c.jpeg_bytes > 500, "JPEG of {} bytes", c.jpeg_bytes);
    let threads: Vec<u32> = c.points.iter().map(|p| p.threads).collect();
    assert_eq!(threads, vec![1, 2]);
    for p in &c.points {
        assert!(
            p.images > 0 && p.images_per_s > 0.0 && p.seconds > 0.0,
            "{p:?}"
        );
    }
    assert!((c.points[0].scaling - 1.0).abs() < 1e-12);
    // Two workers on two cores never finish far fewer images than one in the same time. The
    // bound leaves room for a busy machine (other builds, a noisy neighbour VM); a pipeline
    // that serialised its workers on a lock would still land well under it once the second
    // worker's setup is paid.
    let (one, two) = (c.points[0].images, c.points[1].images);
    assert!(
        two as f64 >= 0.5 * one as f64,
        "1 thread {one} images, 2 threads {two}"
    );
    // 4 usable CPUs for two GPU processes: 2 each, one of them the trainer's.
    assert_eq!(c.gpus, 2);
    assert_eq!(c.suggested_workers_per_gpu, 1);
}

/// The worker count `preflight` advises (check cpu.workers) for a recorded machine.
fn preflight_workers(sysroot: &str) -> u32 {
    let out = Command::cargo_bin("rigcheck")
        .unwrap()
        .args(["preflight", "--sysroot", sysroot, "--format", "json"])
        .env_remove("CUDA_VISIBLE_DEVICES")
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let check = v["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == "cpu.workers")
        .unwrap_or_else(|| panic!("{sysroot}: no cpu.workers check"));
    let advice = check["advice"].as_str().unwrap();
    let n = advice
        .split("--workers ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .unwrap_or_else(|| panic!("{sysroot}: no worker count in {advice:?}"));
    n.parse().unwrap()
}

#[test]
fn bench_cpu_advises_the_workers_preflight_advises() {
    let _t = turn();
    // 72 CPUs and two RTX 6000s (35 each); two CPUs and no GPU (1); sixteen CPUs cut to two
    // by a cgroup quota (1).
    for (fixture, want) in [
        ("fixtures/hp-z8-g4-dual-rtx6000", 35),
        ("fixtures/preflight-healthy", 1),
        ("fixtures/preflight-container-small-shm", 1),
    ] {
        let spec = rigcheck::probe::inventory(&rigcheck::source::Source::sysroot(fixture));
        let bench = tiny_cpu_on(&spec).suggested_workers_per_gpu;
        assert_eq!((fixture, bench), (fixture, preflight_workers(fixture)));
        assert_eq!((fixture, bench), (fixture, want));
    }
}

#[test]
fn memory_bandwidth_is_positive_and_peak_comes_from_dimms() {
    let _t = turn();
    let mut notes = Notes::default();
    let mut spec = Spec::default();
    spec.memory.dimms = vec![dimm("DIMM_A1", 4800), dimm("DIMM_B1", 4800)];
    let m = tiny_memory(&spec, &mut notes);
    // 8 MiB per array, or the whole MiBs its two threads touched in time (an unoptimised
    // build on a busy machine may not touch them all).
    assert!(
        m.array_bytes <= 8 << 20
            && m.array_bytes >= 2 << 20
            && m.array_bytes.is_multiple_of(1 << 20),
        "{} bytes",
        m.array_bytes
    );
    let seen: Vec<(&str, u32)> = m
        .results
        .iter()
        .map(|r| (r.kernel.as_str(), r.threads))
        .collect();
    assert_eq!(
        seen,
        vec![("copy", 1), ("triad", 1), ("copy", 2), ("triad", 2)]
    );
    for r in &m.results {
        assert!(r.bytes_per_s > 0.0 && r.repetitions >= 1, "{r:?}");
    }
    // 2 × DDR5-4800 × 8 bytes = 76.8 GB/s, one channel per DIMM, said in a note.
    assert_eq!(m.peak_bytes_per_s, Some(76_800_000_000));
    assert_eq!(m.peak_channels, Some(2));
    assert!(notes
        .0
        .iter()
        .any(|n| n.field == "bench.memory.peak_bytes_per_s"
            && n.reason.contains("2 populated DIMMs")));

    let mut notes = Notes::default();
    let m = tiny_memory(&Spec::default(), &mut notes);
    assert_eq!(m.peak_bytes_per_s, None);
    // Nothing in the report says why there is no DIMM list: no guess at root either.
    assert!(notes
        .0
        .iter()
        .any(|n| n.field == "bench.memory.peak_bytes_per_s"
            && n.reason.starts_with("no DIMM list")
            && !n.reason.contains("root")));
}

#[test]
fn disk_reads_a_temporary_file_and_deletes_it() {
    let _t = turn();
    let dir = tempfile::tempdir().unwrap();
    let params = disk::DiskParams {
        file_bytes: 8 << 20,
        block_bytes: 1 << 20,
        readers: 2,
        budget: Duration::from_millis(50),
    };
    let mut notes = Notes::default();
    let d = disk::run(dir.path(), &params, &Spec::default(), &mut notes).unwrap();
    assert!(d.temporary_file);
    assert_eq!(d.file_bytes, 8 << 20);
    assert_eq!((d.block_bytes, d.readers), (1 << 20, 2));
    // Each reader reads at least one block before looking at the clock.
    assert!(d.bytes_read >= 2 << 20, "{} bytes", d.bytes_read);
    assert!(d.bytes_per_s > 0.0 && d.seconds > 0.0);
    // Direct I/O refused must be said, never silent.
    assert!(d.direct_io || notes.0.iter().any(|n| n.field == "bench.disk.direct_io"));
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "test file left behind"
    );
}

#[test]
fn disk_reads_a_given_file_and_keeps_it() {
    let _t = turn();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("shard-000.bin");
    std::fs::write(&file, vec![7u8; 3 << 20]).unwrap();
    let params = disk::DiskParams {
        file_bytes: 0,
        block_bytes: 1 << 20,
        readers: 1,
        budget: Duration::from_millis(20),
    };
    let d = disk::run(&file, &params, &Spec::default(), &mut Notes::default()).unwrap();
    assert!(!d.temporary_file);
    assert_eq!(d.file_bytes, 3 << 20);
    assert!(d.bytes_read >= 1 << 20);
    assert!(file.exists());
    let err = disk::run(
        &dir.path().join("nope"),
        &params,
        &Spec::default(),
        &mut Notes::default(),
    )
    .unwrap_err();
    assert!(err.starts_with("--data '") && err.contains("nope"), "{err}");
}

#[test]
fn report_round_trips_through_json_inside_the_spec() {
    let _t = turn();
    let mut notes = Notes::default();
    let report = BenchReport {
        seconds: 0.2,
        cpu: Some(tiny_cpu()),
        memory: Some(tiny_memory(&Spec::default(), &mut notes)),
        disk: None,
        gpu: Some(gpu::GpuBench::default()),
        notes: notes.0,
    };
    let spec = Spec {
        bench: Some(report.clone()),
        ..Spec::default()
    };
    let text = serde_json::to_string(&spec).unwrap();
    let back: Spec = serde_json::from_str(&text).unwrap();
    assert!(back.bench.is_some());
    // Decimal text may move a float by one unit in the last place; everything else must
    // come back exactly.
    let sent = serde_json::to_value(&spec).unwrap();
    let got = serde_json::to_value(&back).unwrap();
    assert!(same_json(&sent, &got), "{sent}\n{got}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["bench"]["cpu"]["points"][1]["threads"], 2);
    assert_eq!(
        v["bench"]["memory"]["peak_bytes_per_s"],
        serde_json::Value::Null
    );
    assert!(v["bench"].get("disk").is_none());
    // A plain inventory has no bench key at all, so its JSON is unchanged.
    let plain = serde_json::to_value(Spec::default()).unwrap();
    assert!(plain.get("bench").is_none());
}

/// Equal JSON, floats within a relative 1e-12.
fn same_json(a: &serde_json::Value, b: &serde_json::Value) -> bool {
    use serde_json::Value as V;
    match (a, b) {
        (V::Number(x), V::Number(y)) if x.is_f64() || y.is_f64() => {
            let (x, y) = (x.as_f64().unwrap(), y.as_f64().unwrap());
            (x - y).abs() <= 1e-12 * x.abs().max(y.abs())
        }
        (V::Array(x), V::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same_json(x, y))
        }
        (V::Object(x), V::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_json(v, w)))
        }
        _ => a == b,
    }
}

#[test]
fn chart_shows_measured_against_peak() {
    let report: BenchReport = serde_json::from_str(
        r#"{"seconds": 5.0,
            "memory": {"array_bytes": 67108864, "peak_bytes_per_s": 51200000000, "peak_channels": 2,
                       "results": [{"kernel": "triad", "threads": 1, "bytes_per_s": 13.2e9, "repetitions": 9},
                                   {"kernel": "triad", "threads": 2, "bytes_per_s": 25.6e9, "repetitions": 9}]},
            "disk": {"path": "/data/x", "temporary_file": false, "file_bytes": 1, "bytes_read": 1,
                     "seconds": 1.0, "bytes_per_s": 3.2e9, "block_bytes": 1048576, "readers": 4,
                     "direct_io": true, "drive": "nvme0n1", "link": "PCIe 8.0 GT/s x4",
                     "link_bytes_per_s": 3938461538},
            "notes": []}"#,
    )
    .unwrap();
    let svg = chart_svg(&report);
    assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains(">Memory triad, 2 threads<"), "{svg}");
    assert!(svg.contains(">25.6 / 51.2 GB/s (50 %)<"), "{svg}");
    assert!(svg.contains(">3.2 / 3.9 GB/s (81 %)<"), "{svg}");
    // Two rows, each a pale peak bar and a dark measured bar.
    assert_eq!(svg.matches("<rect").count(), 4);
    // The memory row is scaled to its peak: 25.6 of 51.2 fills half of the 300-pixel bar.
    assert!(
        svg.contains(r##"width="150.0" height="22" fill="#2171b5""##),
        "{svg}"
    );
    assert!(chart_svg(&BenchReport::default()).contains("no benchmark results"));
}

#[test]
fn bench_refuses_a_sysroot_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::cargo_bin("rigcheck")
        .unwrap()
        .args(["--sysroot"])
        .arg(dir.path())
        .args(["bench", "cpu", "--seconds", "1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("bench measures this machine"), "{err}");
}

#[cfg(not(feature = "gpu-bench"))]
#[test]
fn gpu_without_the_feature_says_how_to_get_it() {
    let mut notes = Notes::default();
    assert_eq!(
        gpu::run(&Spec::default(), Duration::from_millis(1), &mut notes),
        None
    );
    assert_eq!(notes.0[0].field, "bench.gpu");
    assert!(notes.0[0].reason.starts_with("CUDA not available:"));
    assert!(notes.0[0].reason.contains("--features gpu-bench"));
}

/// Needs an NVIDIA GPU and driver: `cargo test --features gpu-bench -- --ignored`.
#[cfg(feature = "gpu-bench")]
#[test]
#[ignore]
fn gpu_matmul_and_soak_on_a_real_gpu() {
    let _t = turn();
    let spec = rigcheck::probe::inventory(&rigcheck::source::Source::live());
    let mut notes = Notes::default();
    let g = gpu::run_sized(&spec, 2048, Duration::from_secs(2), &mut notes)
        .unwrap_or_else(|| panic!("no GPU result: {:?}", notes.0));
    assert!(!g.per_gpu.is_empty());
    for m in &g.per_gpu {
        assert!(m.fp32_tflops.unwrap_or(0.0) > 0.5, "{m:?} {:?}", notes.0);
        assert!(
            m.fp16_tflops.unwrap_or(0.0) > m.fp32_tflops.unwrap_or(0.0),
            "{m:?}"
        );
        assert!(
            m.pci_address.as_deref().is_some_and(|a| a.len() == 12),
            "{m:?}"
        );
    }
    assert!(g.all_fp16_tflops.unwrap_or(0.0) > 0.0);
    for s in &g.soak {
        assert!(s.samples >= 2, "{s:?}");
        assert!(
            s.max_temperature_c.is_some_and(|t| (20..=110).contains(&t)),
            "{s:?}"
        );
        assert!(s.max_sm_clock_mhz.is_some_and(|c| c > 300), "{s:?}");
    }
}

/// `bench memory` through `bench::run`: only that part runs, sized by the machine.
#[test]
fn run_memory_only_caps_arrays_by_usable_memory() {
    let _t = turn();
    let dir = tempfile::tempdir().unwrap();
    let mut spec = Spec::default();
    spec.cpu.caches.clear();
    spec.memory.usable_bytes = Some(256 << 20);
    let r = bench::run(
        &spec,
        rigcheck::bench::BenchKind::Memory,
        0.2,
        Some(dir.path()),
    );
    // usable / 16 = 16 MiB per array (the 64 MiB default is capped on a small machine), less
    // where the first touch did not finish in its quarter of the budget.
    let bytes = r.memory.as_ref().map_or(0, |m| m.array_bytes);
    assert!(bytes > 0 && bytes <= 16 << 20, "{bytes} bytes");
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let params = memory::MemoryParams::for_machine(&spec, threads, Duration::from_secs(1));
    assert_eq!(params.elements * 8, 16 << 20);
    assert!(r.cpu.is_none() && r.disk.is_none() && r.gpu.is_none());
}

#[test]
fn a_bench_report_becomes_a_chart_on_the_spec_sheet() {
    let _t = turn();
    let mut spec = rigcheck::probe::inventory(&rigcheck::source::Source::sysroot(
        "fixtures/hp-z8-g4-dual-rtx6000",
    ));
    let mut notes = Notes::default();
    let memory = tiny_memory(&spec, &mut notes);
    spec.bench = Some(rigcheck::bench::BenchReport {
        seconds: 0.2,
        cpu: Some(tiny_cpu()),
        memory: Some(memory),
        ..Default::default()
    });
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("bench.json");
    std::fs::write(&report, serde_json::to_vec(&spec).unwrap()).unwrap();
    let out = assert_cmd::Command::cargo_bin("rigcheck")
        .unwrap()
        .args(["sheet", "--report"])
        .arg(&report)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = String::from_utf8(out.stdout).unwrap();
    assert!(html.contains("<h2>Measured against the peaks</h2>"));
    // And the figures with the date they were measured.
    assert!(html.contains("Measured on"), "{html}");
    // The machine diagram and the chart.
    assert!(html.matches("<svg").count() >= 2);
    // The sheet is of the saved machine, not of this one.
    assert!(html.contains("Quadro RTX 6000"));
    // Peak from the reference's twelve DDR4-2933 DIMMs: 12 × 2933 MT/s × 8 B.
    assert!(
        html.contains("281.6 GB/s") || html.contains("281.57"),
        "no DIMM peak in the chart"
    );
}
