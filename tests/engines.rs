//! A fleet in a query engine, as docs/fleet.md shows it: 1,000 reports made by
//! `benches/make-fleet.sh` are loaded into DuckDB (from PyPI, run by
//! tests/engines/fleet_duckdb.py) with the very SQL of docs/fleet.md, and each answer (GPUs
//! per model, hosts failing their order, hosts whose memory differs from the majority)
//! equals `rigcheck fleet`'s on the same reports.
//!
//! Without python3 and `duckdb` the test is skipped with a message, unless
//! RIGCHECK_REQUIRE_TOOLS=1 (CI), where it fails. `pip install duckdb`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::Command;

use common::rigcheck;
use serde_json::Value;

const HOSTS: usize = 1000;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// python3 with the `duckdb` package, or `None` (test skipped) when it is missing; a
/// failure under RIGCHECK_REQUIRE_TOOLS=1.
fn duckdb() -> Option<()> {
    let ok = Command::new("python3")
        .args(["-c", "import duckdb"])
        .output()
        .is_ok_and(|o| o.status.success());
    if ok {
        return Some(());
    }
    let msg = "python3 with the duckdb package not found; install: pip install duckdb";
    if std::env::var("RIGCHECK_REQUIRE_TOOLS").is_ok_and(|v| v == "1") {
        panic!("RIGCHECK_REQUIRE_TOOLS=1 and {msg}");
    }
    eprintln!("SKIPPED: {msg}");
    None
}

/// The rows of the docs/fleet.md query titled `title`.
fn rows<'a>(answers: &'a Value, title: &str) -> &'a Vec<Value> {
    answers["queries"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["title"] == title)
        .unwrap_or_else(|| panic!("docs/fleet.md has no SQL titled `-- {title}`"))["rows"]
        .as_array()
        .unwrap()
}

#[test]
fn duckdb_answers_the_fleet_questions_as_rigcheck_fleet_does() {
    let Some(()) = duckdb() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let reports = dir.path().join("reports");
    let made = Command::new("bash")
        .arg(root().join("benches/make-fleet.sh"))
        .arg(HOSTS.to_string())
        .arg(&reports)
        .status()
        .unwrap();
    assert!(made.success());
    assert_eq!(fs::read_dir(&reports).unwrap().count(), HOSTS);

    let fleet = |format: &str| {
        let out = rigcheck()
            .arg("fleet")
            .arg(&reports)
            .args(["--profile", "hp-z8-g4-dual-rtx6000", "--format", format])
            .output()
            .unwrap();
        // Hosts fail the order: exit 1.
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        out.stdout
    };
    let json: Value = serde_json::from_slice(&fleet("json")).unwrap();
    let ndjson = fleet("ndjson");
    assert_eq!(ndjson.iter().filter(|b| **b == b'\n').count(), HOSTS);
    fs::write(dir.path().join("fleet.ndjson"), &ndjson).unwrap();

    let out = Command::new("python3")
        .arg(root().join("tests/engines/fleet_duckdb.py"))
        .arg(root().join("docs/fleet.md"))
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let answers: Value = serde_json::from_slice(&out.stdout).unwrap();
    eprintln!("DuckDB {}", answers["duckdb"]);
    let hosts = json["hosts"].as_array().unwrap();
    assert_eq!(hosts.len(), HOSTS);

    // GPUs per model: rigcheck fleet's hosts[].gpus, counted.
    let mut by_fleet: BTreeMap<String, u64> = BTreeMap::new();
    for h in hosts {
        for g in h["gpus"].as_array().unwrap() {
            *by_fleet.entry(g.as_str().unwrap().to_string()).or_default() += 1;
        }
    }
    let by_duckdb: BTreeMap<String, u64> = rows(&answers, "GPUs per model")
        .iter()
        .map(|r| (r[0].as_str().unwrap().to_string(), r[1].as_u64().unwrap()))
        .collect();
    assert_eq!(by_duckdb, by_fleet);
    // Every 40th host has two RTX 8000 in place of the RTX 6000s.
    assert_eq!(
        by_fleet,
        BTreeMap::from([
            ("Quadro RTX 6000".to_string(), 1950),
            ("Quadro RTX 8000".to_string(), 50)
        ])
    );

    // Hosts failing their order: fleet's verify outcomes (and its summary's count).
    let failing: Vec<&str> = hosts
        .iter()
        .filter(|h| h["verify"]["outcome"] == "fail")
        .map(|h| h["host"].as_str().unwrap())
        .collect();
    let duck_failing: Vec<&str> = rows(&answers, "Hosts failing their order")
        .iter()
        .map(|r| r[0].as_str().unwrap())
        .collect();
    assert_eq!(duck_failing, failing);
    assert_eq!(
        json["summary"]["failed_verify"].as_u64(),
        Some(failing.len() as u64)
    );
    // The x8 GPU (every 50th), the RTX 8000s (40th) and the larger memory (90th), once each.
    assert_eq!(failing.len(), 47);

    // Hosts whose memory differs from the majority: the odd ones out fleet finds with the
    // installed memory changed.
    let memory_odd: Vec<&str> = json["odd_ones_out"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|o| {
            o["changes"]
                .as_array()
                .unwrap()
                .iter()
                .any(|c| c["what"] == "memory installed changed")
        })
        .map(|o| o["host"].as_str().unwrap())
        .collect();
    let duck_memory: Vec<&str> = rows(&answers, "Hosts whose memory differs from the majority")
        .iter()
        .map(|r| r[0].as_str().unwrap())
        .collect();
    assert_eq!(duck_memory, memory_odd);
    assert_eq!(memory_odd.len(), 11, "every 90th of 1,000");
}
