//! rigcheck inside the tools it feeds, run for real: `promtool check metrics`, a live
//! `prometheus-node-exporter` serving our textfile, and Ansible gathering the custom fact.
//!
//! A missing tool skips its test with a message, unless RIGCHECK_REQUIRE_TOOLS=1, where it
//! fails. Debian: `apt-get install prometheus prometheus-node-exporter`;
//! `pip install ansible-core`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod fleet_support;

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fleet_support::*;

fn rigcheck_bin() -> &'static str {
    env!("CARGO_BIN_EXE_rigcheck")
}

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/x86_64-vm-kvm")
}

/// The first of `names` found on PATH; `None` (test skipped) when absent, a failure when
/// RIGCHECK_REQUIRE_TOOLS=1.
fn require_tool(names: &[&str], install: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for n in names {
            let p = dir.join(n);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    let msg = format!(
        "{} not found on PATH; install: {install}",
        names.join(" or ")
    );
    if std::env::var("RIGCHECK_REQUIRE_TOOLS").is_ok_and(|v| v == "1") {
        panic!("RIGCHECK_REQUIRE_TOOLS=1 and {msg}");
    }
    eprintln!("SKIPPED: {msg}");
    None
}

fn rigcheck(args: &[&str]) -> String {
    let out = Command::new(rigcheck_bin()).args(args).output().unwrap();
    assert!(
        out.status.code() == Some(0) || out.status.code() == Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A fleet with odd ones out and hostile strings in labels: quotes, backslashes, a newline,
/// non-ASCII, and a GPU whose facts are unknown.
fn hostile_fleet(dir: &Path) {
    write_fleet(dir);
    let mut s = reference_spec("z8-\"quoted\"");
    s.cpu.model = Some("Intel(R) \"Xeon\" C:\\path\nsecond line — ünïcødé".into());
    s.gpus[1] = rigcheck::spec::Gpu {
        pci_address: Some("0000:d8:00.0".into()),
        ..Default::default()
    };
    write_report(dir, "hostile.json", &s);
}

fn promtool_check(promtool: &Path, text: &str) {
    let mut child = Command::new(promtool)
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // Exit 0 and nothing said: no parse error and no lint problem.
    assert!(
        out.status.success() && said.trim().is_empty(),
        "{said}\n{text}"
    );
}

#[test]
fn promtool_accepts_machine_and_fleet_metrics() {
    let Some(promtool) = require_tool(&["promtool"], "apt-get install prometheus") else {
        return;
    };
    let fixture = fixture();
    let machine = rigcheck(&[
        "--sysroot",
        fixture.to_str().unwrap(),
        "--format",
        "prometheus",
        "--profile",
        "hp-z8-g4-dual-rtx6000",
    ]);
    assert!(machine.contains(
        "rigcheck_drive_size_bytes{drive=\"vda\",kind=\"virtual\",model=\"\"} 274877906944\n"
    ));
    assert!(machine.contains("rigcheck_verify_passed{profile=\"hp-z8-g4-dual-rtx6000\"} 0\n"));
    promtool_check(&promtool, &machine);

    let dir = tempfile::tempdir().unwrap();
    hostile_fleet(dir.path());
    let fleet = rigcheck(&[
        "fleet",
        dir.path().to_str().unwrap(),
        "--profile",
        "hp-z8-g4-dual-rtx6000",
        "--format",
        "prometheus",
    ]);
    assert!(fleet.contains(
        "rigcheck_gpu_pcie_link_width{host=\"z8-03\",gpu=\"1\",pci_address=\"0000:af:00.0\"} 8\n"
    ));
    // A label is one line: the newline in the model is replaced, not carried as `\n`.
    assert!(fleet
        .contains("cpu_model=\"Intel(R) \\\"Xeon\\\" C:\\\\path\u{fffd}second line — ünïcødé\""));
    assert!(fleet.contains("rigcheck_fleet_matches_majority{host=\"z8-04\"} 0\n"));
    assert!(fleet.contains("rigcheck_fleet_majority_hosts 3\n"));
    assert!(fleet.contains("rigcheck_memory_installed_bytes{host=\"z8-04\"} 94489280512\n"));
    promtool_check(&promtool, &fleet);
}

/// Kills the exporter however the test ends.
struct Reaper(Child);

impl Drop for Reaper {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// GET `path` with HTTP/1.0 (the server closes when done); `None` until it answers.
fn http_get(port: u16, path: &str) -> Option<String> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(10))).ok()?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut body = String::new();
    s.read_to_string(&mut body).ok()?;
    body.starts_with("HTTP/1.0 200").then_some(body)
}

#[test]
fn node_exporter_serves_the_textfile() {
    let Some(exporter) = require_tool(
        &["prometheus-node-exporter", "node_exporter"],
        "apt-get install prometheus-node-exporter",
    ) else {
        return;
    };
    let reports = tempfile::tempdir().unwrap();
    hostile_fleet(reports.path());
    let text = rigcheck(&[
        "fleet",
        reports.path().to_str().unwrap(),
        "--format",
        "prometheus",
    ]);
    let textdir = tempfile::tempdir().unwrap();
    std::fs::write(textdir.path().join("rigcheck.prom"), &text).unwrap();

    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let child = Command::new(exporter)
        .arg(format!("--web.listen-address=127.0.0.1:{port}"))
        .arg("--collector.disable-defaults")
        .arg("--collector.textfile")
        .arg(format!(
            "--collector.textfile.directory={}",
            textdir.path().display()
        ))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut reaper = Reaper(child);
    let deadline = Instant::now() + Duration::from_secs(20);
    let body = loop {
        if let Some(b) = http_get(port, "/metrics") {
            break b;
        }
        if let Ok(Some(status)) = reaper.0.try_wait() {
            let mut err = String::new();
            reaper
                .0
                .stderr
                .take()
                .unwrap()
                .read_to_string(&mut err)
                .unwrap();
            panic!("node exporter exited {status}: {err}");
        }
        assert!(
            Instant::now() < deadline,
            "node exporter did not answer in 20 s"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    drop(reaper);
    // The exporter read the file without complaint and serves our samples (it sorts labels).
    assert!(body.contains("node_textfile_scrape_error 0"), "{body}");
    assert!(
        body.contains(
            "rigcheck_gpu_pcie_link_width{gpu=\"1\",host=\"z8-03\",pci_address=\"0000:af:00.0\"} 8"
        ),
        "{body}"
    );
    assert!(
        body.contains("rigcheck_memory_installed_bytes{host=\"z8-04\"} 9.4489280512e+10"),
        "{body}"
    );
    assert!(body.contains("rigcheck_fleet_hosts 7"), "{body}");
    assert!(
        body.contains("# TYPE rigcheck_gpu_tensor_cores gauge"),
        "{body}"
    );
}

// An ansible custom fact is an executable script, run by a POSIX controller.
#[cfg(unix)]
#[test]
fn ansible_gathers_the_custom_fact() {
    let Some(ansible) = require_tool(&["ansible"], "pip install ansible-core") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let facts = dir.path().join("facts.d");
    std::fs::create_dir(&facts).unwrap();
    let script = facts.join("rigcheck.fact");
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nexec '{}' --sysroot '{}' --format json\n",
            rigcheck_bin(),
            fixture().display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();

    let out = Command::new(ansible)
        .args(["localhost", "-c", "local", "-m", "setup", "-a"])
        .arg(format!(
            "fact_path={} filter=ansible_local",
            facts.display()
        ))
        .env("ANSIBLE_LOCALHOST_WARNING", "False")
        .env("ANSIBLE_INVENTORY_UNPARSED_WARNING", "False")
        .env("ANSIBLE_NOCOLOR", "1")
        .env("ANSIBLE_LOCAL_TEMP", dir.path().join("tmp"))
        .current_dir(dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // `localhost | SUCCESS => { ... }`
    let json = &stdout[stdout.find("=> ").expect("ansible result") + 3..];
    let v: serde_json::Value = serde_json::from_str(json).unwrap();
    let r = &v["ansible_facts"]["ansible_local"]["rigcheck"];
    assert_eq!(r["hostname"], "vm", "{v}");
    assert_eq!(r["os"]["name"], "Debian GNU/Linux");
    assert_eq!(r["drives"][0]["name"], "vda");
    assert_eq!(r["drives"][0]["size_bytes"], 274877906944u64);
    assert!(r["cpu"].is_object(), "{r}");
    assert!(r["memory"].is_object(), "{r}");

    // What Ansible gathered is itself a fleet report.
    let tree = dir.path().join("tree");
    std::fs::create_dir(&tree).unwrap();
    std::fs::write(tree.join("localhost"), json).unwrap();
    let table = rigcheck(&["fleet", tree.join("localhost").to_str().unwrap()]);
    assert!(table.lines().any(|l| l.starts_with(" vm ")), "{table}");
}
