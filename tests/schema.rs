//! The JSON Schemas of docs/schema/ are the types' (regenerated here and compared), `rigcheck
//! schema` prints them, and every JSON document rigcheck writes validates against its
//! schema with a validator of the ecosystem: Python's `jsonschema` (draft 2020-12, run by
//! tests/engines/validate.py): every fixture's report, verify, preflight and diff, fleets in
//! JSON and NDJSON, bench, a live capture's files and every fixture's recorded ones, and a
//! report of schema_version 1 written before `lists`, `limits` and `headroom` existed. A report
//! with a wrong type in one field is refused with that field's path.
//!
//! Without python3 and `jsonschema` the validating tests are skipped with a message, unless
//! RIGCHECK_REQUIRE_TOOLS=1 (CI), where they fail. `pip install jsonschema`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use serde_json::Value;

const PROFILE: &str = "hp-z8-g4-dual-rtx6000";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn schema_dir() -> PathBuf {
    root().join("docs/schema")
}

const REGENERATE: &str = "run `cargo run -- schema --write docs/schema` and commit docs/schema/";

/// docs/schema/ holds exactly one file per document, each equal to what the types give now.
#[test]
fn committed_schemas_are_the_types() {
    let mut stale = Vec::new();
    for d in rigcheck::schema::DOCUMENTS {
        let path = schema_dir().join(d.file_name());
        let committed = fs::read_to_string(&path).unwrap_or_default();
        if committed != d.schema_text() {
            stale.push(d.name);
        }
    }
    assert!(
        stale.is_empty(),
        "docs/schema/ differs from the types for {stale:?}: {REGENERATE}"
    );
    let wanted: Vec<String> = rigcheck::schema::DOCUMENTS
        .iter()
        .map(|d| d.file_name())
        .collect();
    for e in fs::read_dir(schema_dir()).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        assert!(
            wanted.contains(&name),
            "docs/schema/{name} is no document rigcheck writes: remove it ({REGENERATE})"
        );
    }
}

/// `rigcheck schema` lists the documents, `schema NAME` prints the committed file, `--write`
/// writes them all, and an unknown name is a usage error.
#[test]
fn the_schema_command_prints_lists_and_writes() {
    let out = rigcheck().arg("schema").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let list = String::from_utf8(out.stdout).unwrap();
    let names: Vec<&str> = list
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    let want: Vec<&str> = rigcheck::schema::names().collect();
    assert_eq!(names, want);
    assert!(
        list.lines()
            .next()
            .is_some_and(|l| l.starts_with("report ") && l.ends_with("capture's report.json")),
        "{list}"
    );

    for name in &want {
        let out = rigcheck().args(["schema", name]).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{name}");
        let committed = fs::read(schema_dir().join(format!("{name}.schema.json"))).unwrap();
        assert_eq!(out.stdout, committed, "rigcheck schema {name}");
    }
    let report: Value = serde_json::from_slice(
        &rigcheck()
            .args(["schema", "report"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    assert_eq!(
        report["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(report["title"], "rigcheck report");
    // Units in the names, descriptions from the doc comments, unknown as null.
    let cores = &report["$defs"]["Cpu"]["properties"]["cores"];
    assert_eq!(cores["type"], serde_json::json!(["integer", "null"]));
    assert_eq!(
        cores["description"],
        "Physical cores in total (all sockets)."
    );
    let size = &report["$defs"]["Dimm"]["properties"]["size_bytes"];
    assert_eq!(size["type"], serde_json::json!(["integer", "null"]));

    let dir = tempfile::tempdir().unwrap();
    let out = rigcheck()
        .args(["schema", "--write"])
        .arg(dir.path().join("s"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    for name in &want {
        let written = fs::read(dir.path().join(format!("s/{name}.schema.json"))).unwrap();
        let committed = fs::read(schema_dir().join(format!("{name}.schema.json"))).unwrap();
        assert_eq!(written, committed, "{name}");
    }

    let out = rigcheck().args(["schema", "nosuch"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nosuch") && err.contains("report"), "{err}");
    let out = rigcheck()
        .args(["schema", "report", "--sysroot", REFERENCE])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// python3 with the `jsonschema` package, or `None` (test skipped) when it is missing; a
/// failure under RIGCHECK_REQUIRE_TOOLS=1.
fn validator() -> Option<()> {
    let ok = Command::new("python3")
        .args(["-c", "import jsonschema"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(());
    }
    let msg = "python3 with the jsonschema package not found; install: pip install jsonschema";
    if std::env::var("RIGCHECK_REQUIRE_TOOLS").is_ok_and(|v| v == "1") {
        panic!("RIGCHECK_REQUIRE_TOOLS=1 and {msg}");
    }
    eprintln!("SKIPPED: {msg}");
    None
}

/// Runs the validator over `docs` (one folder per schema name): its exit code and output.
fn validate(docs: &Path) -> (i32, String) {
    let out = Command::new("python3")
        .arg(root().join("tests/engines/validate.py"))
        .arg(schema_dir())
        .arg(docs)
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

/// Collects documents to validate under one folder per schema name.
struct Docs {
    dir: tempfile::TempDir,
    count: usize,
}

impl Docs {
    fn new() -> Docs {
        Docs {
            dir: tempfile::tempdir().unwrap(),
            count: 0,
        }
    }

    fn path(&self, schema: &str, file: &str) -> PathBuf {
        let p = self.dir.path().join(schema).join(file);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        p
    }

    /// Keeps `bytes` as a document of `schema`.
    fn add(&mut self, schema: &str, file: &str, bytes: &[u8]) {
        assert!(!bytes.is_empty(), "{schema}/{file}: nothing to validate");
        fs::write(self.path(schema, file), bytes).unwrap();
        self.count += 1;
    }

    /// Runs rigcheck with `args`, which must exit with one of `codes`, and keeps its
    /// standard output as a document of `schema`.
    fn run(&mut self, schema: &str, file: &str, args: &[&str], codes: &[i32]) -> Vec<u8> {
        let out = rigcheck().args(args).output().unwrap();
        let code = out.status.code().unwrap_or(-1);
        assert!(
            codes.contains(&code),
            "`rigcheck {}` exited {code}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
        self.add(schema, file, &out.stdout);
        out.stdout
    }
}

/// Every JSON output of every fixture and of every command validates against its schema.
#[test]
fn every_json_output_validates_against_its_schema() {
    let Some(()) = validator() else {
        return;
    };
    let mut docs = Docs::new();
    let reports = tempfile::tempdir().unwrap();
    let windows = |name: &str| fixture(name).join("native.json").exists();
    for name in recordings() {
        let sysroot = fixture(name.as_str());
        let sysroot = sysroot.to_str().unwrap();
        let report = docs.run(
            "report",
            &format!("{name}.json"),
            &["--sysroot", sysroot, "--format", "json"],
            &[0],
        );
        fs::write(reports.path().join(format!("{name}.json")), &report).unwrap();
        docs.run(
            "report",
            &format!("{name}.redacted.json"),
            &["--sysroot", sysroot, "-f", "json", "--redact"],
            &[0],
        );
        docs.run(
            "verify",
            &format!("{name}.json"),
            &["verify", "-p", PROFILE, "--sysroot", sysroot, "-f", "json"],
            &[0, 1, 3],
        );
        docs.run(
            "verify",
            &format!("{name}.strict.json"),
            &[
                "verify",
                "-p",
                PROFILE,
                "--sysroot",
                sysroot,
                "-f",
                "json",
                "--strict",
            ],
            &[0, 1],
        );
        if !windows(&name) {
            docs.run(
                "preflight",
                &format!("{name}.json"),
                &["preflight", "--sysroot", sysroot, "-f", "json"],
                &[0, 1, 3],
            );
            docs.run(
                "preflight",
                &format!("{name}.asked.json"),
                &[
                    "preflight",
                    "--sysroot",
                    sysroot,
                    "-f",
                    "json",
                    "--gpus",
                    "2",
                    "--min-driver",
                    "550",
                    "--min-cuda",
                    "12.2",
                    "--min-free-vram",
                    "20 GiB",
                    "--data",
                    "/",
                    "--workers",
                    "8",
                ],
                &[0, 1, 3],
            );
        }
        docs.run(
            "diff",
            &format!("{name}.json"),
            &["diff", REFERENCE, sysroot, "-f", "json"],
            &[0, 1, 3],
        );
        // What a capture recorded, as rigcheck (or the fixture's tool) wrote it.
        for (schema, file) in [
            ("capture", "capture.json"),
            ("nvml", "nvml.json"),
            ("native", "native.json"),
            ("host", "host.json"),
            ("cpuid", "cpuid.json"),
            ("ethtool", "ethtool.json"),
        ] {
            if let Ok(bytes) = fs::read(fixture(&name).join(file)) {
                docs.add(schema, &format!("{name}.json"), &bytes);
            }
        }
    }
    // One line, as --compact writes it, for each command that has it.
    let r = reports.path().join("hp-z8-g4-dual-rtx6000.json");
    let r = r.to_str().unwrap();
    let compact = [
        (
            "report",
            vec!["--sysroot", REFERENCE, "-f", "json", "--compact"],
        ),
        (
            "verify",
            vec![
                "verify",
                "-p",
                PROFILE,
                "--sysroot",
                REFERENCE,
                "-f",
                "json",
                "--compact",
            ],
        ),
        (
            "preflight",
            vec![
                "preflight",
                "--sysroot",
                REFERENCE,
                "-f",
                "json",
                "--compact",
            ],
        ),
        (
            "diff",
            vec![
                "diff",
                REFERENCE,
                "fixtures/x86_64-hp-z8-g4-dual-bronze3104",
                "-f",
                "json",
                "--compact",
            ],
        ),
    ];
    for (schema, args) in compact {
        let out = docs.run(schema, "compact.ndjson", &args, &[0, 1]);
        assert_eq!(
            out.iter().filter(|b| **b == b'\n').count(),
            1,
            "{schema} --compact: {}",
            String::from_utf8_lossy(&out)
        );
    }
    // Fleets: every fixture's report with the order checked, an unreadable report, a host
    // name twice, a report written before `lists`, `limits` and `headroom` existed.
    fs::write(
        reports.path().join("broken.json"),
        "{\"schema_version\": 1,",
    )
    .unwrap();
    fs::copy(r, reports.path().join("again.json")).unwrap();
    let old = root().join("benches/z8-g4-report.json");
    fs::copy(&old, reports.path().join("z8-old.json")).unwrap();
    docs.add("report", "z8-old.json", &fs::read(&old).unwrap());
    let dir = reports.path().to_str().unwrap();
    let fleet: Value = serde_json::from_slice(&docs.run(
        "fleet",
        "fleet.json",
        &["fleet", dir, "-f", "json"],
        &[1],
    ))
    .unwrap();
    // The old report reads; only the broken one does not.
    let errors = fleet["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0]["file"].as_str().unwrap().ends_with("broken.json"));
    docs.run(
        "fleet",
        "profile.json",
        &["fleet", dir, "-p", PROFILE, "-f", "json", "--compact"],
        &[1],
    );
    let lines = docs.run(
        "fleet-ndjson",
        "fleet.ndjson",
        &["fleet", dir, "-p", PROFILE, "-f", "ndjson"],
        &[1],
    );
    let hosts = recordings().len() + 2;
    assert_eq!(
        String::from_utf8(lines).unwrap().lines().count(),
        hosts,
        "one line per readable report"
    );
    docs.run(
        "fleet",
        "redacted.json",
        &["fleet", dir, "-p", PROFILE, "-f", "json", "--redact"],
        &[1],
    );
    // Bench measures this machine (two short runs), and capture records it.
    docs.run(
        "bench",
        "cpu.json",
        &["bench", "cpu", "--seconds", "0.05", "-f", "json"],
        &[0],
    );
    docs.run(
        "bench",
        "memory.json",
        &[
            "bench",
            "memory",
            "--seconds",
            "0.05",
            "-f",
            "json",
            "--compact",
        ],
        &[0],
    );
    let cap = tempfile::tempdir().unwrap();
    let out = rigcheck()
        .arg("capture")
        .arg(cap.path().join("c"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (schema, file) in [
        ("capture", "capture.json"),
        ("report", "report.json"),
        ("host", "host.json"),
        ("nvml", "nvml.json"),
        ("cpuid", "cpuid.json"),
        ("ethtool", "ethtool.json"),
    ] {
        if let Ok(bytes) = fs::read(cap.path().join("c").join(file)) {
            docs.add(schema, &format!("live-{file}"), &bytes);
        }
    }
    live_gpu(&mut docs);
    for schema in rigcheck::schema::names() {
        assert!(
            docs.dir.path().join(schema).is_dir(),
            "no document of {schema} was validated"
        );
    }
    let (code, said) = validate(docs.dir.path());
    assert_eq!(code, 0, "{said}");
    assert!(
        said.contains(&format!(
            "documents: {} passed, 0 failed",
            docs.count - 1 + hosts
        )),
        "{said}"
    );
}

/// The live GPU path through the test doubles of NVIDIA's libraries (tests/doubles): `bench
/// gpu` on the reference machine's GPUs, and a capture whose nvml.json the recorder wrote.
#[cfg(all(target_os = "linux", feature = "gpu-bench"))]
fn live_gpu(docs: &mut Docs) {
    use common::doubles::{live, nvml_json, Libs, Nvml};
    let libs = Libs::new(Nvml::Current, true, true);
    let answers = nvml_json("hp-z8-g4-dual-rtx6000");
    let matrix = [("RIGCHECK_TEST_GPU_MATRIX_N", "64")];
    let (code, out, err) = live(
        &libs,
        &answers,
        &matrix,
        &["bench", "gpu", "--seconds", "0.2", "-f", "json"],
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"per_gpu\""), "{out}");
    docs.add("bench", "gpu.json", out.as_bytes());
    let dir = tempfile::tempdir().unwrap();
    let cap = dir.path().join("c");
    let (code, _, err) = live(&libs, &answers, &[], &["capture", cap.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    let recorded = fs::read(cap.join("nvml.json")).unwrap();
    assert!(String::from_utf8_lossy(&recorded).contains("Quadro RTX 6000"));
    docs.add("nvml", "live-double.json", &recorded);
    docs.add(
        "report",
        "live-double.json",
        &fs::read(cap.join("report.json")).unwrap(),
    );
}

#[cfg(not(all(target_os = "linux", feature = "gpu-bench")))]
fn live_gpu(_: &mut Docs) {}

/// A report with a wrong type in one field, or of a newer schema_version, is refused, and
/// the validator names the field's path.
#[test]
fn a_wrong_type_is_refused_with_its_path() {
    let Some(()) = validator() else {
        return;
    };
    let out = rigcheck()
        .args(["--sysroot", REFERENCE, "-f", "json"])
        .output()
        .unwrap();
    let good: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut docs = Docs::new();
    docs.add("report", "good.json", &out.stdout);
    let mut cores = good.clone();
    cores["cpu"]["cores"] = "many".into();
    docs.add("report", "cores.json", cores.to_string().as_bytes());
    let (code, said) = validate(docs.dir.path());
    assert_eq!(code, 1, "{said}");
    assert!(
        said.contains(
            "cores.json: report: at $.cpu.cores: 'many' is not of type 'integer', 'null'"
        ),
        "{said}"
    );
    assert!(said.contains("documents: 1 passed, 1 failed"), "{said}");
    assert!(!said.contains("good.json"), "{said}");

    let mut docs = Docs::new();
    let mut newer = good.clone();
    newer["schema_version"] = 2.into();
    docs.add("report", "newer.json", newer.to_string().as_bytes());
    let mut gpu = good;
    gpu["gpus"][1]["pcie"]["width"] = (-16).into();
    gpu["drives"][0]["kind"] = "floppy".into();
    docs.add("report", "gpu.json", gpu.to_string().as_bytes());
    let (code, said) = validate(docs.dir.path());
    assert_eq!(code, 1, "{said}");
    assert!(
        said.contains("newer.json: report: at $.schema_version: 1 was expected"),
        "{said}"
    );
    assert!(
        said.contains("gpu.json: report: at $.gpus[1].pcie.width:"),
        "{said}"
    );
    assert!(
        said.contains("gpu.json: report: at $.drives[0].kind:"),
        "{said}"
    );
    assert!(said.contains("documents: 0 passed, 2 failed"), "{said}");
}
