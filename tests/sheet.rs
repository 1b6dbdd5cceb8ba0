//! Spec sheet: topology placement, Markdown and HTML snapshots, escaping, `--redact` across
//! every format, and `sheet -o FILE` on the command line.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod sheet_specs;

use assert_cmd::Command;
use rigcheck::outcome::Outcome;
use rigcheck::render::sheet::{self, Verify, VerifyRow};
use rigcheck::render::{sheet::SheetFormat, Format};
use rigcheck::rules::attention;
use rigcheck::spec::{MemorySlot, Spec};
use rigcheck::verify::Status;

fn sheet_text(spec: &Spec, verify: Option<&Verify>, format: SheetFormat) -> String {
    let mut buf = Vec::new();
    sheet::write(spec, &attention(spec), verify, format, &mut buf).unwrap();
    String::from_utf8(buf).unwrap()
}

fn inventory_text(spec: &Spec, format: Format) -> String {
    let mut buf = Vec::new();
    rigcheck::render::inventory_report(spec, &attention(spec), format, None, false, &mut buf)
        .unwrap();
    String::from_utf8(buf).unwrap()
}

#[test]
fn reference_topology_places_slots_and_devices_on_sockets() {
    let t = sheet::topology(&sheet_specs::reference());
    assert_eq!(t.sockets.len(), 2);
    assert!(t.unassigned_slots.is_empty() && t.unplaced_devices.is_empty());
    let s0 = &t.sockets[0];
    let s1 = &t.sockets[1];
    // HP numbers sockets from 0: CPU0-DIMMn is socket 0, CPU1-DIMMn socket 1.
    assert_eq!(s0.slots.len(), 12);
    assert_eq!(s1.slots.len(), 12);
    assert_eq!(s0.slots[0].locator, "CPU0-DIMM1");
    assert_eq!(s0.slots[11].locator, "CPU0-DIMM12");
    assert_eq!(s1.slots.iter().filter(|s| s.dimm.is_some()).count(), 6);
    assert_eq!(s0.cores, Some(18));
    assert_eq!(s0.threads, Some(36));
    assert_eq!(s0.nodes[0].cpus, "0-17,36-53");
    assert_eq!(s1.nodes[0].cpus, "18-35,54-71");
    let titles = |s: &sheet::SocketTopo| {
        s.devices
            .iter()
            .map(|d| d.title.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        titles(s0),
        [
            "GPU 0 · Quadro RTX 6000",
            "nvme0n1 · SAMSUNG MZVLB1T0HALR-000H1",
            "nvme1n1 · SAMSUNG MZVLB1T0HALR-000H1"
        ]
    );
    assert_eq!(titles(s1), ["GPU 1 · Quadro RTX 6000"]);
    assert_eq!(s1.devices[0].link, "Gen3 x16");
    assert_eq!(s1.devices[0].lines[0], "4608 CUDA · 576 Tensor cores");
}

#[test]
fn four_gpu_topology_splits_24_slots_and_keeps_unknown_apart() {
    let t = sheet::topology(&sheet_specs::four_gpu());
    // Supermicro numbers from 1: P1-DIMMA1 is socket 0.
    assert_eq!(t.sockets[0].slots.len(), 12);
    assert_eq!(t.sockets[1].slots.len(), 12);
    assert_eq!(t.sockets[1].slots[0].locator, "P2-DIMMA1");
    assert_eq!(t.sockets[0].slots[0].short, "A1");
    let gpus = |i: usize| {
        t.sockets[i]
            .devices
            .iter()
            .filter(|d| d.kind == sheet::DeviceKind::Gpu)
            .count()
    };
    assert_eq!((gpus(0), gpus(1)), (2, 2));
    let degraded: Vec<_> = t.sockets[0].devices.iter().filter(|d| d.degraded).collect();
    assert_eq!(degraded.len(), 1);
    assert_eq!(degraded[0].link, "Gen4 x8 of x16");
    // The drive without a NUMA node is not guessed onto socket 0.
    assert_eq!(t.unplaced_devices.len(), 1);
    assert_eq!(t.unplaced_devices[0].title, "nvme1n1 · INTEL SSDPE2KX020T8");
}

#[test]
fn laptop_topology_is_one_socket() {
    let t = sheet::topology(&sheet_specs::laptop());
    assert_eq!(t.sockets.len(), 1);
    assert!(!t.multi_socket);
    // "DIMM A" names no socket; with one socket it can only be socket 0.
    assert_eq!(t.sockets[0].slots.len(), 2);
    assert_eq!(t.sockets[0].slots[0].short, "A");
    // The NVMe drive has no NUMA node (single-node laptop) and still sits on socket 0.
    assert_eq!(t.sockets[0].devices.len(), 1);
    assert!(t.unplaced_devices.is_empty());
}

#[test]
fn slots_without_a_socket_on_a_two_socket_machine_are_unassigned() {
    let mut spec = sheet_specs::reference();
    spec.memory.empty_slots.push("DIMM_X".into());
    spec.memory.slots.push(MemorySlot {
        locator: "DIMM_X".into(),
        ..MemorySlot::default()
    });
    let t = sheet::topology(&spec);
    assert_eq!(t.unassigned_slots.len(), 1);
    assert_eq!(t.unassigned_slots[0].locator, "DIMM_X");
    let md = sheet_text(&spec, None, SheetFormat::Markdown);
    assert!(md.contains("| ? | DIMM_X | empty |"));
    assert!(md.contains("Memory slots whose locator names no socket"));
}

#[test]
fn markdown_reference() {
    let md = sheet_text(&sheet_specs::reference(), None, SheetFormat::Markdown);
    // Every slot, empty ones included, with its socket.
    assert!(md.contains("| 0 | CPU0-DIMM1 | 8 GiB | DDR4 RDIMM | 2933 MT/s | Samsung | M393A1K43DB1-CVF | 40A1B2C1 |"));
    assert!(md.contains("| 1 | CPU1-DIMM12 | 8 GiB |"));
    assert!(md.contains("| 0 | CPU0-DIMM2 | empty |"));
    assert!(md.contains("| Memory | 96 GiB · 12 × 8 GiB DDR4 2933 MT/s · 12 of 24 slots used |"));
    assert!(md.contains("| GPUs | 2 × Quadro RTX 6000 (24 GiB) · 32.6 TFLOPS FP32 in all |"));
    assert!(md.contains("| CUDA cores | 4608 | 4608 |"));
    assert!(md.contains("| PCIe link (max) | Gen3 x16 | Gen3 x16 |"));
    insta::assert_snapshot!("markdown_reference", md);
}

#[test]
fn markdown_laptop() {
    let md = sheet_text(&sheet_specs::laptop(), None, SheetFormat::Markdown);
    assert!(md.contains("| GPUs | none |"));
    assert!(md.contains("| DIMM A | 8 GiB | DDR4 SODIMM | 3200 MT/s |"));
    // One socket: no Socket column.
    assert!(!md.contains("| Socket |"));
    insta::assert_snapshot!("markdown_laptop", md);
}

#[test]
fn markdown_four_gpu() {
    let md = sheet_text(&sheet_specs::four_gpu(), None, SheetFormat::Markdown);
    assert!(md.contains("- **PCIe devices on an unknown socket (NUMA node not reported)**"));
    insta::assert_snapshot!("markdown_four_gpu", md);
}

#[test]
fn html_reference() {
    let html = sheet_text(&sheet_specs::reference(), None, SheetFormat::Html);
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_eq!(html.matches("<svg").count(), 1);
    // Self-contained: no script, nothing linked or imported; only the SVG namespace URI.
    for bad in [
        "<script", "<link", "src=", "href=", "url(", "@import", "https://",
    ] {
        assert!(!html.contains(bad), "sheet contains {bad}");
    }
    assert_eq!(html.matches("http://").count(), 1);
    assert!(html.contains("@page"));
    assert!(html.contains("@media print"));
    // 24 DIMM sticks in the diagram, 12 of them empty (dashed).
    assert_eq!(html.matches("<title>CPU").count(), 24);
    assert_eq!(html.matches(": empty</title>").count(), 12);
    insta::assert_snapshot!("html_reference", html);
}

#[test]
fn html_laptop() {
    let html = sheet_text(&sheet_specs::laptop(), None, SheetFormat::Html);
    assert!(html.contains("Socket 0</tspan>"));
    assert!(!html.contains("Socket 1"));
    assert!(
        !html.contains("socket</text>"),
        "no socket link on one socket"
    );
    insta::assert_snapshot!("html_laptop", html);
}

#[test]
fn verify_rows_are_shown_with_their_status() {
    let v = Verify {
        profile: "z8-g4-order".into(),
        rows: vec![
            VerifyRow {
                requirement: "GPU count".into(),
                expected: "2 × Quadro RTX 6000".into(),
                found: "2 × Quadro RTX 6000".into(),
                status: Status::Pass,
                note: None,
            },
            VerifyRow {
                requirement: "Memory".into(),
                expected: "at least 128 GB".into(),
                found: "96 GiB".into(),
                status: Status::Fail,
                note: None,
            },
        ],
        outcome: Outcome::Fail,
        summary: rigcheck::verify::Summary {
            pass: 1,
            fail: 1,
            unknown: 0,
        },
    };
    let spec = sheet_specs::reference();
    let md = sheet_text(&spec, Some(&v), SheetFormat::Markdown);
    assert!(md.contains("| Result | FAIL: 1 fail, 0 unknown, 1 pass · 2 checks |"));
    // Failures first, in the columns every check table has.
    assert!(md.contains(
        "| Status | Check | Expected | Found |\n| --- | --- | --- | --- |\n\
         | fail | Memory | at least 128 GB | 96 GiB |\n| pass | GPU count |"
    ));
    let html = sheet_text(&spec, Some(&v), SheetFormat::Html);
    assert!(html.contains("<td class=\"status-fail\">fail</td>"));
    assert!(html.contains("<td class=\"status-pass\">pass</td>"));
}

#[test]
fn text_from_firmware_is_escaped() {
    let mut spec = sheet_specs::reference();
    spec.system.product = Some("<script>alert(1)</script> & \"Z8\"".into());
    spec.gpus[0].name = Some("<b>GPU</b>".into());
    spec.memory.empty_slots.push("CPU0-DIMM<13>".into());
    spec.memory.slots.push(MemorySlot {
        locator: "CPU0-DIMM<13>".into(),
        socket: Some(0),
        ..MemorySlot::default()
    });
    let html = sheet_text(&spec, None, SheetFormat::Html);
    assert!(!html.contains("<script>"));
    assert!(!html.contains("<b>GPU"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Z8&quot;"));
    assert!(html.contains("GPU 0 · &lt;b&gt;GPU&lt;/b&gt;"));
    assert!(html.contains("CPU0-DIMM&lt;13&gt;"));
    let md = sheet_text(&spec, None, SheetFormat::Markdown);
    assert!(!md.contains("<script>"));
}

#[test]
fn redact_leaves_no_secret_in_any_format() {
    let mut spec = sheet_specs::reference();
    rigcheck::redact::redact(&mut spec);
    let outputs = [
        ("json", inventory_text(&spec, Format::Json)),
        ("table", inventory_text(&spec, Format::Table)),
        ("markdown", inventory_text(&spec, Format::Markdown)),
        (
            "sheet markdown",
            sheet_text(&spec, None, SheetFormat::Markdown),
        ),
        ("sheet html", sheet_text(&spec, None, SheetFormat::Html)),
    ];
    for (name, text) in &outputs {
        for secret in sheet_specs::REFERENCE_SECRETS {
            assert!(
                !text.to_lowercase().contains(&secret.to_lowercase()),
                "{name} still holds {secret}"
            );
        }
        assert!(
            text.contains("[redacted]") || text.contains(r"\[redacted\]"),
            "{name} does not show the redaction"
        );
    }
    // Facts that identify no machine stay.
    assert_eq!(spec.gpus[0].name.as_deref(), Some("Quadro RTX 6000"));
    assert_eq!(
        spec.memory.dimms[0].part_number.as_deref(),
        Some("M393A1K43DB1-CVF")
    );
    assert_eq!(spec.hostname.as_deref(), Some("[redacted]"));
    assert_eq!(spec.source, "/captures/[redacted]");
    assert_eq!(
        spec.notes
            .iter()
            .find(|n| n.field == "network")
            .map(|n| n.reason.as_str()),
        Some("eno1 [redacted] is not part of the inventory")
    );
    // Unknown stays unknown, not "[redacted]".
    let mut laptop = sheet_specs::laptop();
    laptop.system.uuid = None;
    rigcheck::redact::redact(&mut laptop);
    assert_eq!(laptop.system.uuid, None);
    assert_eq!(laptop.system.serial.as_deref(), Some("[redacted]"));
}

/// A recorded machine with just a host name and a DMI serial, enough for the CLI.
fn tiny_sysroot() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path();
    std::fs::create_dir_all(p.join("proc/sys/kernel")).unwrap();
    std::fs::create_dir_all(p.join("sys/class/dmi/id")).unwrap();
    std::fs::write(p.join("proc/sys/kernel/hostname"), "secret-host-42\n").unwrap();
    std::fs::write(p.join("sys/class/dmi/id/product_serial"), "SER-998877\n").unwrap();
    std::fs::write(p.join("sys/class/dmi/id/product_name"), "Test Box\n").unwrap();
    dir
}

#[test]
fn cli_sheet_writes_file_and_refuses_to_overwrite() {
    let root = tiny_sysroot();
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("sheet.html");
    let run = |extra: &[&str]| {
        let mut c = Command::cargo_bin("rigcheck").unwrap();
        c.arg("--sysroot")
            .arg(root.path())
            .arg("sheet")
            .arg("-o")
            .arg(&file)
            .args(extra);
        c.assert()
    };
    run(&[]).success();
    let first = std::fs::read_to_string(&file).unwrap();
    assert!(first.contains("secret-host-42"));
    let err = run(&["--redact"]).code(2);
    let stderr = String::from_utf8(err.get_output().stderr.clone()).unwrap();
    assert!(
        stderr.contains("exists; choose another name or pass --force"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), first);
    // The name says HTML, so `--format markdown` would be refused; it is replaced in kind.
    run(&["--redact", "--force"]).success();
    let html = std::fs::read_to_string(&file).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(!html.contains("secret-host-42"));
    assert!(!html.contains("SER-998877"));
    assert!(html.contains("[redacted]"));
    // Nothing but the sheet is left in the directory.
    assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 1);
}

#[test]
fn cli_inventory_redact() {
    let root = tiny_sysroot();
    for format in ["json", "table", "markdown"] {
        let out = Command::cargo_bin("rigcheck")
            .unwrap()
            .arg("--sysroot")
            .arg(root.path())
            .args(["inventory", "--redact", "--format", format])
            .assert()
            .success();
        let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
        assert!(!text.contains("secret-host-42"), "{format}");
        assert!(!text.contains("SER-998877"), "{format}");
        assert!(
            text.contains("[redacted]") || text.contains(r"\[redacted\]"),
            "{format}"
        );
    }
}

/// The network adapters of a real server's log (fixtures/x86_64-hpe-x710-10gbe: an HPE
/// X710 10 GbE card and a second card the log gives no ids for) are on the sheet, with the
/// speed each port runs at and where the card's top speed comes from; `--redact` hides MACs.
#[test]
fn sheet_lists_network_adapters_and_their_ports() {
    let run = |extra: &[&str]| {
        let out = Command::cargo_bin("rigcheck")
            .unwrap()
            .args([
                "--sysroot",
                "fixtures/x86_64-hpe-x710-10gbe",
                "sheet",
                "-f",
                "markdown",
            ])
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap()
    };
    let md = run(&[]);
    assert!(md.contains("## Network"), "{md}");
    assert!(md.contains(
        "| 0000:5d:00.0 | Ethernet Controller X710 for 10GbE SFP+ | i40e | unknown | 10 Gb/s (table) | Gen3 x8 |"
    ));
    assert!(md.contains("| 0000:af:00.0 | unknown | i40e | unknown | ≥ 10 Gb/s (link now) |"));
    assert!(md.contains("| eno5 | 0000:5d:00.0 | up | 10 Gb/s full | 48:df:37:24:c2:00 |"));
    assert!(!run(&["--redact"]).contains("48:df:37:24:c2:00"));
}

#[test]
fn the_sheets_order_check_keeps_what_a_gpu_line_did_not_compare() {
    for format in ["html", "markdown"] {
        let out = Command::cargo_bin("rigcheck")
            .unwrap()
            .args([
                "--sysroot",
                "fixtures/hp-z8-g4-dual-rtx6000",
                "sheet",
                "--profile",
                "hp-z8-g4-dual-rtx8000",
                "--stdout",
                "-f",
                format,
            ])
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains(
                "no Quadro RTX 8000 on this machine; not compared: GPU architecture, GPU \
                 memory, GPU CUDA cores, GPU Tensor cores, GPU PCIe link width"
            ),
            "{format}: {text}"
        );
    }
}

#[test]
fn a_gpu_without_its_driver_says_the_driver_is_not_installed() {
    for args in [
        &["-s", "gpu"][..],
        &["sheet", "--stdout", "-f", "markdown"][..],
    ] {
        let out = Command::cargo_bin("rigcheck")
            .unwrap()
            .args(["--sysroot", "fixtures/gpu-no-driver"])
            .args(args)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        let text = String::from_utf8(out.stdout).unwrap();
        let line = text
            .lines()
            .find(|l| l.contains("Driver / CUDA"))
            .unwrap_or_else(|| panic!("{args:?}: {text}"));
        assert!(line.contains("not installed"), "{args:?}: {line}");
        assert!(!line.contains("unknown"), "{args:?}: {line}");
    }
    // A driver that answers shows its versions.
    let out = Command::cargo_bin("rigcheck")
        .unwrap()
        .args(["--sysroot", "fixtures/hp-z8-g4-dual-rtx6000", "-s", "gpu"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("550.90.12 12.4"), "{text}");
}
