//! `rigcheck fleet` end to end on reports built from `Spec` values, and the NFD feature file
//! checked against node-feature-discovery's documented local-source rules.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fleet_support;

use assert_cmd::Command;
use fleet_support::*;
use serde_json::Value;

fn rigcheck() -> Command {
    let mut c = Command::cargo_bin("rigcheck").unwrap();
    c.env_remove("NO_COLOR").env("TERM", "dumb");
    c
}

fn fleet_json(args: &[&str], dir: &std::path::Path, code: i32) -> Value {
    let mut all = vec![dir.as_os_str()];
    all.extend(args.iter().map(std::ffi::OsStr::new));
    fleet_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), &all, code)
}

#[test]
fn odd_ones_out_are_the_x8_gpu_the_missing_dimm_and_the_bios() {
    let dir = tempfile::tempdir().unwrap();
    write_fleet(dir.path());
    let v = fleet_json(&[], dir.path(), 0);
    let hosts = hosts_in(&v, "hosts");
    assert_eq!(
        hosts,
        ["z8-01", "z8-02", "z8-03", "z8-04", "z8-05", "z8-06"]
    );
    assert_eq!(v["hosts"][0]["cpu_cores"], 36);
    assert_eq!(v["hosts"][0]["cpu_threads"], 72);
    assert_eq!(v["hosts"][0]["memory_bytes"], 96 * GIB);
    assert_eq!(v["hosts"][3]["memory_bytes"], 88 * GIB);
    assert_eq!(v["hosts"][3]["dimms"], 11);
    assert_eq!(v["configurations"][0]["hosts"], 3);
    assert_eq!(v["configurations"][0]["example"], "z8-01");
    assert_eq!(v["configurations"].as_array().unwrap().len(), 4);
    assert_eq!(v["summary"]["majority_hosts"], 3);

    let odd = v["odd_ones_out"].as_array().unwrap();
    let odd_hosts: Vec<&str> = odd.iter().map(|o| o["host"].as_str().unwrap()).collect();
    assert_eq!(odd_hosts, ["z8-03", "z8-04", "z8-05"]);
    // Exactly the differences made, and nothing unknown: every report knows everything.
    let counts: Vec<usize> = odd
        .iter()
        .map(|o| o["changes"].as_array().unwrap().len())
        .collect();
    assert_eq!(counts, [1, 2, 1], "{odd:#?}");
    for o in odd {
        assert_eq!(o["unknown_on_one_side"], serde_json::json!([]), "{o}");
    }
    let c = &odd[0]["changes"][0];
    assert_eq!(c["what"], "GPU PCIe link width changed");
    assert_eq!(c["at"], "0000:af:00.0");
    assert_eq!(c["before"], "x16 (max x16)");
    assert_eq!(c["after"], "x8 (max x16)");
    let c = &odd[1]["changes"][0];
    assert_eq!(c["what"], "memory installed changed");
    assert_eq!(
        (c["before"].as_str(), c["after"].as_str()),
        (Some("96 GiB"), Some("88 GiB"))
    );
    let c = &odd[1]["changes"][1];
    assert_eq!(c["what"], "DIMM removed");
    assert_eq!(c["at"], "DIMM 7");
    assert_eq!(c["before"], "8 GiB DDR4 M393A1K43DB1-CVF");
    let c = &odd[2]["changes"][0];
    assert_eq!(c["what"], "BIOS updated");
    assert_eq!(c["before"], "P60 v02.47");
    assert_eq!(c["after"], "P60 v02.62");
}

#[test]
fn failing_the_profile_exits_1_and_names_the_failed_requirements() {
    let dir = tempfile::tempdir().unwrap();
    write_fleet(dir.path());
    let v = fleet_json(&["--profile", "hp-z8-g4-dual-rtx6000"], dir.path(), 1);
    let verdicts: Vec<(&str, bool)> = v["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["host"].as_str().unwrap(),
                h["verify"]["passed"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        verdicts,
        [
            ("z8-01", true),
            ("z8-02", true),
            ("z8-03", false),
            ("z8-04", false),
            ("z8-05", true),
            ("z8-06", true)
        ]
    );
    assert_eq!(v["hosts"][0]["verify"]["fail"], 0);
    assert_eq!(v["hosts"][0]["verify"]["unknown"], 0);
    let failed = |i: usize| -> Vec<String> {
        v["hosts"][i]["verify"]["failed"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect()
    };
    assert!(
        failed(2).iter().all(|id| id.contains("pcie_width")),
        "{:?}",
        failed(2)
    );
    assert!(
        failed(3).iter().any(|id| id.contains("dimm_count")),
        "{:?}",
        failed(3)
    );
    assert_eq!(v["summary"]["failed_verify"], 2);

    // The same fleet where every host passes exits 0.
    let good = tempfile::tempdir().unwrap();
    write_report(good.path(), "a.json", &reference_spec("a"));
    write_report(good.path(), "b.json", &other_bios("b"));
    fleet_json(&["--profile", "hp-z8-g4-dual-rtx6000"], good.path(), 0);
}

#[test]
fn bad_and_truncated_reports_are_listed_and_the_rest_reported() {
    let dir = tempfile::tempdir().unwrap();
    write_fleet(dir.path());
    let full = serde_json::to_string(&reference_spec("z8-07")).unwrap();
    std::fs::write(dir.path().join("z8-07.json"), &full[..full.len() / 2]).unwrap();
    std::fs::write(dir.path().join("z8-08.json"), "").unwrap();
    std::fs::write(dir.path().join("z8-09.json"), "{\"hello\": 1}").unwrap();
    // Not a report by name: ignored inside a directory; a half-written temp file too.
    std::fs::write(dir.path().join("README.txt"), "collected by ansible").unwrap();
    std::fs::write(dir.path().join(".z8-10.json.tmp"), "{").unwrap();
    // A path typed on the command line that is not there is a usage error: exit 2, one
    // line on stderr, nothing on stdout.
    let missing = dir.path().join("nowhere.json");
    let out = rigcheck()
        .arg("fleet")
        .arg(dir.path())
        .arg(&missing)
        .assert()
        .code(2);
    assert!(out.get_output().stdout.is_empty());
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert_eq!(
        stderr,
        format!(
            "rigcheck: {}: no such file or directory; check the path\n",
            missing.display()
        )
    );
    let out = rigcheck()
        .arg("fleet")
        .arg(dir.path())
        .args(["--format", "json"])
        .assert()
        .code(1);
    let stderr = String::from_utf8(out.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.starts_with("rigcheck: fleet: 3 report(s) could not be read, first "),
        "{stderr}"
    );
    let v: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["hosts"].as_array().unwrap().len(), 6);
    assert_eq!(v["odd_ones_out"].as_array().unwrap().len(), 3);
    let errors: Vec<(String, String)> = v["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let f = e["file"].as_str().unwrap();
            let name = std::path::Path::new(f).file_name().unwrap();
            (
                name.to_string_lossy().into_owned(),
                e["error"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let names: Vec<&str> = errors.iter().map(|e| e.0.as_str()).collect();
    assert_eq!(names, ["z8-07.json", "z8-08.json", "z8-09.json"]);
    assert!(errors[0].1.contains("EOF while parsing"), "{errors:?}");
    assert!(errors[2].1.contains("missing field"), "{errors:?}");
    assert!(
        errors[2]
            .1
            .ends_with("; make one with `rigcheck --format json`"),
        "{errors:?}"
    );

    // The table names the files too.
    let out = rigcheck()
        .arg("fleet")
        .arg(dir.path())
        .args(["--format", "table", "--color", "never"])
        .assert()
        .code(1);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert!(
        text.contains("FAIL: 3 unreadable · 6 hosts · 4 configurations, 3 odd ones out"),
        "{text}"
    );
    assert!(text.contains("z8-07.json"), "{text}");
    assert!(
        text.contains("Most common configuration: 3 of 6 hosts (like z8-01)"),
        "{text}"
    );
    assert!(text.contains("GPU PCIe link width changed"), "{text}");
    assert!(
        text.contains("2 × Intel Xeon Gold 6254 (36C/72T)"),
        "{text}"
    );
    assert!(text.contains("2 × Quadro RTX 6000"), "{text}");
    assert!(text.contains("│ HP Z8 G4 Workstation │"), "{text}");
}

#[test]
fn nothing_to_read_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    rigcheck()
        .arg("fleet")
        .arg(dir.path())
        .assert()
        .code(2)
        .stderr(predicates::str::contains("no reports"));
}

#[test]
fn ansible_setup_output_is_read_as_a_report() {
    let dir = tempfile::tempdir().unwrap();
    let wrapped = serde_json::json!({
        "ansible_facts": {"ansible_local": {"rigcheck": reference_spec("z8-11")}},
        "changed": false
    });
    std::fs::write(dir.path().join("z8-11"), wrapped.to_string()).unwrap();
    let out = rigcheck()
        .arg("fleet")
        .arg(dir.path().join("z8-11"))
        .args(["--format", "json"])
        .assert()
        .code(0);
    let v: Value = serde_json::from_slice(&out.get_output().stdout).unwrap();
    assert_eq!(v["hosts"][0]["host"], "z8-11");
    assert_eq!(v["hosts"][0]["gpus"][1], "Quadro RTX 6000");
}

#[test]
fn preflight_result_in_a_report_counts() {
    let dir = tempfile::tempdir().unwrap();
    let mut report = serde_json::to_value(reference_spec("z8-12")).unwrap();
    report["preflight"] = serde_json::json!({"passed": false});
    std::fs::write(dir.path().join("z8-12.json"), report.to_string()).unwrap();
    let v = fleet_json(&[], dir.path(), 1);
    assert_eq!(v["hosts"][0]["preflight_passed"], false);
}

#[test]
fn bench_template_is_a_current_report() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/z8-g4-report.json");
    let spec = rigcheck::load_report(&path).unwrap();
    assert_eq!(spec, reference_spec("z8-ref"));
}

// ---- NFD local feature file ------------------------------------------------------------

/// A Kubernetes label name segment: at most 63 characters, alphanumeric at both ends,
/// `-`, `_`, `.` inside.
fn is_label_segment(s: &str) -> bool {
    let b = s.as_bytes();
    !b.is_empty()
        && b.len() <= 63
        && b[0].is_ascii_alphanumeric()
        && b[b.len() - 1].is_ascii_alphanumeric()
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_' | b'.'))
}

/// A DNS subdomain (RFC 1123) as a label prefix: at most 253 characters, dot-separated
/// lower-case alphanumeric parts with inner `-`.
fn is_dns_subdomain(s: &str) -> bool {
    s.len() <= 253
        && s.split('.').all(|p| {
            let b = p.as_bytes();
            !b.is_empty()
                && b.len() <= 63
                && b[0].is_ascii_alphanumeric()
                && b[b.len() - 1].is_ascii_alphanumeric()
                && b.iter()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        })
}

/// Parses a feature file as NFD's local source does and checks every label; returns the
/// labels. Rules: file at most 64 kB; lines trimmed; empty lines skipped; `#` lines are
/// comments, and `# +` lines directives (only `expiry-time=<RFC 3339>`, `no-label`,
/// `no-feature` exist); other lines are `<key>[=<value>]` split at the first `=`, the key
/// namespaced (`<prefix>/<name>`), outside `kubernetes.io` except `feature.node.kubernetes.io`
/// and its sub-domains; the value a valid label value (empty allowed).
fn nfd_parse(text: &str) -> Vec<(String, String)> {
    assert!(text.len() <= 65536, "feature file over 64 kB");
    let mut labels = Vec::new();
    for raw in text.split('\n') {
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        if let Some(d) = line.strip_prefix("# +") {
            let (key, value) = d.split_once('=').unwrap_or((d, ""));
            match key {
                "expiry-time" => {
                    value
                        .trim()
                        .parse::<jiff::Timestamp>()
                        .expect("RFC 3339 expiry");
                }
                "no-label" | "no-feature" => {}
                other => panic!("unknown directive {other:?} in {line:?}"),
            }
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once('=').unwrap_or((line, "true"));
        let (prefix, name) = key.split_once('/').expect("namespaced label");
        assert!(is_dns_subdomain(prefix), "bad prefix in {line:?}");
        assert!(
            !(prefix == "kubernetes.io" || prefix.ends_with(".kubernetes.io"))
                || prefix == "feature.node.kubernetes.io"
                || prefix.ends_with(".feature.node.kubernetes.io"),
            "denied namespace in {line:?}"
        );
        assert!(is_label_segment(name), "bad label name in {line:?}");
        assert!(
            value.is_empty() || is_label_segment(value),
            "bad label value in {line:?}"
        );
        labels.push((name.to_string(), value.to_string()));
    }
    labels
}

fn nfd_text(spec: &rigcheck::spec::Spec, profile: Option<&str>) -> String {
    let report = profile
        .map(|p| rigcheck::verify::verify(spec, &rigcheck::profile::load(p).unwrap(), false));
    let mut out = Vec::new();
    rigcheck::render::nfd::write(spec, report.as_ref(), &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

fn get<'a>(labels: &'a [(String, String)], name: &str) -> Option<&'a str> {
    labels
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

#[test]
fn nfd_reference_machine_labels_and_verified_profile() {
    let text = nfd_text(&reference_spec("z8-01"), Some("hp-z8-g4-dual-rtx6000"));
    let l = nfd_parse(&text);
    assert_eq!(get(&l, "verified"), Some("hp-z8-g4-dual-rtx6000"));
    assert_eq!(get(&l, "gpu.tensor_cores"), Some("576"));
    assert_eq!(get(&l, "gpu.cuda_cores"), Some("4608"));
    assert_eq!(get(&l, "gpu.count"), Some("2"));
    assert_eq!(get(&l, "gpu.memory_gib"), Some("24"));
    assert_eq!(get(&l, "gpu.model"), Some("Quadro_RTX_6000"));
    assert_eq!(get(&l, "gpu.compute_capability"), Some("7.5"));
    assert_eq!(get(&l, "gpu.pcie_width"), Some("16"));
    assert_eq!(
        get(&l, "cpu.model"),
        Some("Intel_Xeon_Gold_6254_CPU_3.10GHz")
    );
    assert_eq!(get(&l, "cpu.cores"), Some("36"));
    assert_eq!(get(&l, "cpu.isa.AVX-512_VNNI"), Some("true"));
    assert_eq!(get(&l, "memory.total_gib"), Some("96"));
    assert_eq!(get(&l, "memory.dimms"), Some("12"));
    assert_eq!(get(&l, "drives.nvme"), Some("2"));
    assert_eq!(get(&l, "system.product"), Some("HP_Z8_G4_Workstation"));

    // A machine failing the profile gets no `verified` label; its weakest GPU is x8.
    let l = nfd_parse(&nfd_text(
        &gpu_at_x8("z8-03"),
        Some("hp-z8-g4-dual-rtx6000"),
    ));
    assert_eq!(get(&l, "verified"), None);
    assert_eq!(get(&l, "gpu.pcie_width"), Some("8"));
}

#[test]
fn nfd_hostile_model_strings_stay_valid() {
    let mut s = reference_spec("z8-hostile");
    s.gpus[0].name = Some("NVIDIA GeForce RTX 4090 D".into());
    s.gpus[1].name = Some("NVIDIA GeForce RTX 4090 D".into());
    s.system.vendor = Some("Гигабайт™ «Технолоджи» =x= #1".into());
    s.system.product = Some(format!("{}-{}", "Z".repeat(70), "日本語 モデル"));
    s.cpu.vendor = Some("=leading equals".into());
    s.cpu.isa.push("AVX-512 BF16 / FP16 (\"new\")".into());
    s.cpu.isa.push("\u{7f}\n# +expiry-time=garbage".into());
    let text = nfd_text(&s, None);
    let l = nfd_parse(&text);
    assert_eq!(get(&l, "gpu.model"), Some("NVIDIA_GeForce_RTX_4090_D"));
    assert_eq!(
        get(&l, "cpu.model"),
        Some("Intel_Xeon_Gold_6254_CPU_3.10GHz")
    );
    assert_eq!(get(&l, "system.vendor"), Some("x_1"));
    assert_eq!(get(&l, "system.product").map(str::len), Some(63));
    assert_eq!(get(&l, "cpu.vendor"), Some("leading_equals"));
    assert_eq!(get(&l, "cpu.isa.AVX-512_BF16_FP16_new"), Some("true"));
    assert_eq!(get(&l, "cpu.isa.expiry-time_garbage"), Some("true"));
    // Every line but the first comment is a label, and no line starts a directive.
    assert_eq!(text.lines().count(), l.len() + 1);
    assert!(!text.contains("\n# +"), "{text}");
}

#[test]
fn nfd_from_the_command_line_for_a_sysroot() {
    let fixture = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/x86_64-vm-kvm");
    let out = rigcheck()
        .arg("--sysroot")
        .arg(&fixture)
        .args(["--format", "nfd", "--profile", "hp-z8-g4-dual-rtx6000"])
        .assert()
        .code(0);
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let l = nfd_parse(&text);
    assert_eq!(get(&l, "drives.virtual"), Some("1"));
    assert_eq!(get(&l, "gpu.count"), Some("0"));
    assert_eq!(get(&l, "verified"), None);
}

/// Host names of a fleet's JSON, and how many hosts the majority has (`None` on a tie).
fn hosts_and_majority(v: &Value) -> (Vec<String>, Option<u64>) {
    let hosts = v["hosts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["host"].as_str().unwrap().to_string())
        .collect();
    (hosts, v["summary"]["majority_hosts"].as_u64())
}

/// `rigcheck fleet ARGS --format json` run in `dir`.
fn fleet_in(dir: &std::path::Path, args: &[&std::ffi::OsStr], code: i32) -> Value {
    let out = rigcheck()
        .current_dir(dir)
        .arg("fleet")
        .args(args)
        .args(["--format", "json"])
        .assert()
        .code(code);
    serde_json::from_slice(&out.get_output().stdout).unwrap()
}

#[test]
fn one_report_named_three_ways_is_one_host_and_cannot_tip_the_majority() {
    let dir = tempfile::tempdir().unwrap();
    write_report(dir.path(), "z8-01.json", &reference_spec("z8-01"));
    write_report(dir.path(), "z8-02.json", &reference_spec("z8-02"));
    write_report(dir.path(), "z8-03.json", &gpu_at_x8("z8-03"));
    let abs = dir.path().join("z8-03.json");
    // z8-03 by a relative path, by `./`, and by its absolute path: counted three times it
    // would be the majority (3 of 5).
    let args = [
        "z8-01.json".as_ref(),
        "z8-02.json".as_ref(),
        "z8-03.json".as_ref(),
        "./z8-03.json".as_ref(),
        abs.as_os_str(),
    ];
    let v = fleet_in(dir.path(), &args, 0);
    assert_eq!(
        hosts_and_majority(&v),
        (
            vec!["z8-01".into(), "z8-02".into(), "z8-03".into()],
            Some(2)
        )
    );
    assert_eq!(v["summary"]["hosts"], 3);
    assert_eq!(v["configurations"][0]["example"], "z8-01");
    assert_eq!(v["odd_ones_out"][0]["host"], "z8-03");
    assert_eq!(v["duplicate_names"], serde_json::json!([]));
}

#[test]
fn a_directory_and_a_report_inside_it_are_read_once() {
    let dir = tempfile::tempdir().unwrap();
    let fleet = dir.path().join("fleet");
    std::fs::create_dir(&fleet).unwrap();
    write_report(&fleet, "z8-01.json", &reference_spec("z8-01"));
    write_report(&fleet, "z8-02.json", &reference_spec("z8-02"));
    write_report(&fleet, "z8-03.json", &gpu_at_x8("z8-03"));
    // The directory, then a file in it (relative), then the same file by its absolute path.
    let abs = fleet.join("z8-03.json");
    let args = [
        "fleet".as_ref(),
        "fleet/z8-03.json".as_ref(),
        abs.as_os_str(),
    ];
    let v = fleet_in(dir.path(), &args, 0);
    assert_eq!(
        hosts_and_majority(&v),
        (
            vec!["z8-01".into(), "z8-02".into(), "z8-03".into()],
            Some(2)
        )
    );
    assert_eq!(v["odd_ones_out"].as_array().unwrap().len(), 1);
}

/// The reference machine, with its DIMM list unknown (as without root) and said in notes.
fn knowing_little(host: &str) -> rigcheck::spec::Spec {
    let mut s = dimm_missing(host);
    s.memory.dimms.clear();
    for field in ["memory.dimms", "system.serial", "system.bios_version"] {
        s.notes.push(rigcheck::spec::Note {
            field: field.into(),
            reason: "needs root: run as root".into(),
        });
    }
    s
}

#[test]
fn with_no_majority_the_report_that_knows_the_most_is_the_reference() {
    let dir = tempfile::tempdir().unwrap();
    // Two hosts each way; the two that know little come first by name, so a reference taken
    // by name would be one of them.
    write_report(dir.path(), "a-01.json", &knowing_little("a-01"));
    write_report(dir.path(), "a-02.json", &knowing_little("a-02"));
    write_report(dir.path(), "b-01.json", &reference_spec("b-01"));
    write_report(dir.path(), "b-02.json", &reference_spec("b-02"));
    let v = fleet_json(&[], dir.path(), 0);
    assert_eq!(v["summary"]["tie"], true);
    assert_eq!(v["summary"]["majority_hosts"], Value::Null);
    assert_eq!(v["configurations"][0]["example"], "b-01");
    assert_eq!(v["configurations"][1]["example"], "a-01");
    let odd = hosts_in(&v, "odd_ones_out");
    assert_eq!(odd, ["a-01", "a-02"]);
}

/// `rigcheck fleet DIR ARGS` as text (`--color never`, 80 columns), and its exit code.
fn fleet_text(dir: &std::path::Path, args: &[&str]) -> (i32, String) {
    let out = rigcheck()
        .env("COLUMNS", "80")
        .arg("fleet")
        .arg(dir)
        .args(["--color", "never"])
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn a_failing_hosts_row_names_the_checks_it_failed() {
    let dir = tempfile::tempdir().unwrap();
    write_fleet(dir.path());
    let profile = ["--profile", "hp-z8-g4-dual-rtx6000"];
    let (code, text) = fleet_text(dir.path(), &profile);
    assert_eq!(code, 1, "{text}");
    // Under each failing row, the checks it failed, by name; nothing under a passing one.
    let under = |host: &str| -> String {
        let mut lines = text
            .lines()
            .skip_while(|l| !l.contains(&format!("│ {host} ")));
        lines.next().unwrap_or_else(|| panic!("{host}:\n{text}"));
        lines
            .take_while(|l| !l.contains("fail (") && !l.starts_with(" pass"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        under("z8-03").contains("Fails: GPU PCIe link width"),
        "{text}"
    );
    assert!(
        under("z8-04").contains("Fails: Memory installed, DIMMs installed"),
        "{text}"
    );
    assert!(!under("z8-01").contains("Fails:"), "{text}");

    // JSON: every failed check with what was ordered and found.
    let v = fleet_json(&profile, dir.path(), 1);
    let f = &v["hosts"][2]["verify"]["failures"][0];
    assert_eq!(
        f["requirement"], "GPU PCIe link width ('Quadro RTX 6000')",
        "{f}"
    );
    assert_eq!(f["expected"], "≥ 16");
    assert_eq!(f["found"], "x16, x8 (card x16)");
    assert_eq!(v["hosts"][0]["verify"]["failures"], serde_json::json!([]));

    // Markdown: all of them, and a table of what was ordered and found.
    let (_, md) = fleet_text(dir.path(), &[&profile[..], &["-f", "markdown"]].concat());
    let row = md.lines().find(|l| l.contains("| z8-04 |")).unwrap();
    assert!(
        row.ends_with("| Memory installed, DIMMs installed |"),
        "{md}"
    );
    assert!(md.contains("## Failed checks"), "{md}");
    assert!(
        md.contains(
            "| z8-03 | GPU PCIe link width ('Quadro RTX 6000') | ≥ 16 | x16, x8 (card x16) |"
        ),
        "{md}"
    );
}

#[test]
fn without_a_profile_the_answer_says_nothing_was_checked() {
    let dir = tempfile::tempdir().unwrap();
    write_fleet(dir.path());
    let (code, text) = fleet_text(dir.path(), &[]);
    assert_eq!(code, 0, "{text}");
    let answer = rigcheck::text::one_line(&text.split("\n\n").next().unwrap().replace('\n', " "))
        .into_owned();
    assert_eq!(
        answer,
        "PASS: 6 reports read, none checked against an order (--profile); 3 of 6 hosts \
         differ from the most common configuration (3 like z8-01): z8-03, z8-04, z8-05"
    );
    // A true majority is called one.
    let small = tempfile::tempdir().unwrap();
    for h in ["a", "b"] {
        write_report(small.path(), &format!("{h}.json"), &reference_spec(h));
    }
    write_report(small.path(), "c.json", &other_bios("c"));
    let (_, text) = fleet_text(small.path(), &[]);
    assert!(
        text.replace('\n', " ")
            .contains("1 of 3 hosts differs from the majority (2 like a): c"),
        "{text}"
    );
}

/// Network adapters per host, from the real 10 GbE server's fixture and the procfs
/// workstation's (a 25 Gb/s InfiniBand HCA and a 1 GbE port): their top speeds in JSON, a
/// Network column counting them; a report whose adapter list was not read says unknown, not
/// none.
#[test]
fn each_hosts_network_adapters_are_counted_by_speed() {
    let dir = tempfile::tempdir().unwrap();
    for f in [
        "x86_64-hpe-x710-10gbe",
        "x86_64-amd-vega64",
        "hp-z8-g4-dual-rtx6000",
    ] {
        let out = rigcheck()
            .args(["--sysroot", &format!("fixtures/{f}"), "-f", "json"])
            .output()
            .unwrap();
        std::fs::write(dir.path().join(format!("{f}.json")), out.stdout).unwrap();
    }
    let v = fleet_json(&[], dir.path(), 0);
    let speeds = |host: &str| {
        v["hosts"]
            .as_array()
            .unwrap()
            .iter()
            .find(|h| h["host"].as_str().unwrap().starts_with(host))
            .map(|h| h["nic_speeds_mbps"].clone())
            .unwrap()
    };
    assert_eq!(speeds("x86_64-hpe"), serde_json::json!([10000, 10000]));
    assert_eq!(speeds("x86_64-amd"), serde_json::json!([1000, 25000]));
    // The HP Z8 G4 recording has no /sys/class/net: unknown.
    assert_eq!(speeds("z8-ref"), Value::Null);
    let out = rigcheck()
        .arg("fleet")
        .arg(dir.path())
        .args(["-f", "markdown"])
        .output()
        .unwrap();
    let md = String::from_utf8(out.stdout).unwrap();
    assert!(md.contains("| Network |"), "{md}");
    assert!(md.contains("| 2 × 10 Gb/s |"), "{md}");
    assert!(md.contains("| 25 Gb/s, 1 Gb/s |"), "{md}");
}

#[test]
fn the_same_workstation_recorded_on_windows_and_linux_is_one_configuration() {
    // The HP Z8 G4 recorded under Windows (native backend: drives as PhysicalDriveN) and
    // under Linux (nvme0n1, nvme1n1): a fleet of both is one configuration, and neither
    // reads as the other with its drives removed.
    let dir = tempfile::tempdir().unwrap();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for (name, fixture) in [
        ("windows.json", "fixtures/windows-hp-z8-g4"),
        ("linux.json", "fixtures/hp-z8-g4-dual-rtx6000"),
    ] {
        let out = rigcheck()
            .current_dir(root)
            .args(["--sysroot", fixture, "-f", "json"])
            .output()
            .unwrap();
        std::fs::write(dir.path().join(name), out.stdout).unwrap();
    }
    let v = fleet_json(&[], dir.path(), 0);
    assert_eq!(v["hosts"].as_array().unwrap().len(), 2, "{v:#}");
    assert_eq!(v["configurations"].as_array().unwrap().len(), 1, "{v:#}");
    assert_eq!(v["odd_ones_out"], serde_json::json!([]), "{v:#}");
    let table = rigcheck()
        .current_dir(root)
        .args(["fleet", "--no-pager"])
        .arg(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(!text.contains("removed"), "{text}");
    let diff = rigcheck()
        .current_dir(root)
        .arg("diff")
        .arg(dir.path().join("windows.json"))
        .arg(dir.path().join("linux.json"))
        .output()
        .unwrap();
    let text = String::from_utf8(diff.stdout).unwrap();
    assert!(text.contains("0 hardware changes"), "{text}");
}
