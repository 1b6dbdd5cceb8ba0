//! Network adapters, AMD and Intel GPUs, and the CPU's generation and clock now, on real
//! machines: this project's KVM guest (its virtio NIC), an HPE server's two Intel X710
//! 10 GbE cards (composed from its kernel log), and a workstation's AMD Radeon RX Vega 64,
//! Intel UHD 620 and Mellanox HCA (from procfs's sysfs fixture).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use assert_cmd::Command;
use rigcheck::probe;
use rigcheck::source::Source;
use serde_json::Value;

fn rigcheck() -> Command {
    let mut c = Command::cargo_bin("rigcheck").unwrap();
    c.env("TERM", "dumb").env("COLUMNS", "200");
    c
}

fn verify(fixture: &str, profile: &str) -> (i32, Value) {
    let out = rigcheck()
        .args(["verify", "--format", "json", "--profile"])
        .arg(format!("tests/profiles/nics/{profile}.toml"))
        .arg("--sysroot")
        .arg(format!("fixtures/{fixture}"))
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    (out.status.code().unwrap(), v)
}

fn line<'a>(report: &'a Value, id: &str) -> &'a Value {
    report["lines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["id"] == id)
        .unwrap_or_else(|| panic!("no line {id} in {report}"))
}

#[test]
fn the_vms_virtio_nic_is_listed_with_why_its_speed_is_unknown() {
    let spec = probe::inventory(&Source::sysroot("fixtures/x86_64-vm-kvm-epyc"));
    assert_eq!(spec.lists.nics, rigcheck::spec::ListState::Read);
    assert_eq!(
        spec.nics.len(),
        1,
        "lo and the ifb interfaces are not adapters"
    );
    let n = &spec.nics[0];
    assert_eq!(n.pci_address.as_deref(), Some("0000:00:03.0"));
    assert_eq!(n.name.as_deref(), Some("Virtio 1.0 network device"));
    assert_eq!(n.driver.as_deref(), Some("virtio_net"));
    assert!(n.is_virtual);
    assert_eq!(n.ports[0].name, "eth0");
    assert_eq!(n.ports[0].state.as_deref(), Some("up"));
    assert_eq!(n.ports[0].speed_mbps, None);
    let why = spec
        .notes
        .iter()
        .find(|x| x.field == "nics[0].ports[0].speed_mbps")
        .unwrap();
    assert!(
        why.reason.starts_with("unknown: virtual NIC"),
        "{}",
        why.reason
    );
    assert!(why.reason.contains("speed is -1"), "{}", why.reason);
}

#[test]
fn the_glance_shows_the_cpus_generation_and_clock_now() {
    let out = rigcheck()
        .args(["--sysroot", "fixtures/x86_64-vm-kvm-epyc", "-s", "glance"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("CPU       AMD EPYC · Zen 3 · 2 cores / 2 threads · 2445 MHz now"),
        "{text}"
    );
    assert!(
        text.contains("Network   Virtio 1.0 network device (virtual)"),
        "{text}"
    );
    // The reference machine: Cascade Lake, from family 6 model 85 stepping 7.
    let spec = probe::inventory(&Source::sysroot("fixtures/hp-z8-g4-dual-rtx6000"));
    assert_eq!(spec.cpu.microarchitecture.as_deref(), Some("Cascade Lake"));
}

#[test]
fn two_10gbe_cards_pass_an_order_for_two_and_fail_one_for_25gbe() {
    let (code, r) = verify("x86_64-hpe-x710-10gbe", "two-10gbe");
    assert_eq!(code, 0, "{r}");
    assert_eq!(line(&r, "nics[0].count")["found"], "2");
    let speed = line(&r, "nics[0].speed");
    assert_eq!(speed["status"], "pass");
    // The X710 by the table of controllers; the second card by the speed its ports run at.
    assert_eq!(speed["found"], "10 Gb/s, ≥ 10 Gb/s (link now)");
    let (code, r) = verify("x86_64-hpe-x710-10gbe", "two-25gbe");
    assert_eq!(code, 1, "{r}");
    assert_eq!(line(&r, "nics[0].speed")["status"], "fail");
}

#[test]
fn the_x710_cards_are_named_and_grouped_by_card() {
    let spec = probe::inventory(&Source::sysroot("fixtures/x86_64-hpe-x710-10gbe"));
    assert_eq!(spec.nics.len(), 2);
    let x710 = &spec.nics[0];
    assert_eq!(x710.functions, vec!["0000:5d:00.0", "0000:5d:00.1"]);
    assert_eq!(
        x710.name.as_deref(),
        Some("Ethernet Controller X710 for 10GbE SFP+")
    );
    assert_eq!(x710.driver.as_deref(), Some("i40e"));
    assert_eq!(x710.max_speed_mbps, Some(10_000));
    assert_eq!(x710.max_speed_source.as_deref(), Some("table"));
    let pcie = x710.pcie.as_ref().unwrap();
    assert_eq!((pcie.gen, pcie.width), (Some(3), Some(8)));
    let ports: Vec<&str> = x710.ports.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(ports, ["eno5", "eno6"]);
    assert_eq!(x710.ports[0].speed_mbps, Some(10_000));
    assert_eq!(x710.ports[0].mac.as_deref(), Some("48:df:37:24:c2:00"));
}

#[test]
fn redact_hides_the_macs() {
    let out = rigcheck()
        .args([
            "--sysroot",
            "fixtures/x86_64-hpe-x710-10gbe",
            "--redact",
            "-f",
            "json",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains("48:df:37:24:c2:00"));
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["nics"][0]["ports"][0]["mac"], "[redacted]");
}

#[test]
fn an_amd_gpu_is_listed_with_its_memory_and_checked() {
    let spec = probe::inventory(&Source::sysroot("fixtures/x86_64-amd-vega64"));
    let vega = spec
        .gpus
        .iter()
        .find(|g| g.vendor == rigcheck::spec::GpuVendor::Amd)
        .unwrap();
    assert_eq!(vega.name.as_deref(), Some("Radeon RX Vega 64"));
    assert_eq!(vega.vram_bytes, Some(8_573_157_376));
    assert_eq!(vega.state.utilization_percent, Some(4));
    assert_eq!(vega.architecture.as_deref(), Some("GCN 5 (Vega)"));
    let drm = vega.drm.as_ref().unwrap();
    assert_eq!(drm.driver.as_deref(), Some("amdgpu"));
    assert_eq!(drm.max_core_clock_mhz, Some(1630));
    assert_eq!(vega.cuda_cores, None);
    let intel = spec
        .gpus
        .iter()
        .find(|g| g.vendor == rigcheck::spec::GpuVendor::Intel)
        .unwrap();
    assert_eq!(
        intel.name.as_deref(),
        Some("Kaby Lake-R GT2 [UHD Graphics 620]")
    );
    let (code, r) = verify("x86_64-amd-vega64", "vega64");
    assert_eq!(code, 0, "{r}");
    assert_eq!(line(&r, "gpus[0].count")["found"], "1");
    assert_eq!(line(&r, "gpus[0].vram")["found"], "8 GiB");
    assert_eq!(line(&r, "gpus[0].vram")["status"], "pass");
}

#[test]
fn an_infiniband_port_reports_its_rate() {
    let spec = probe::inventory(&Source::sysroot("fixtures/x86_64-amd-vega64"));
    let hca = spec
        .nics
        .iter()
        .find(|n| n.ports.iter().any(|p| p.link_layer == "infiniband"))
        .unwrap();
    assert_eq!(hca.firmware.as_deref(), Some("14.28.2006"));
    assert_eq!(hca.ports[0].speed_mbps, Some(25_000));
    assert_eq!(hca.ports[0].state.as_deref(), Some("active"));
    assert_eq!(hca.max_speed_source.as_deref(), Some("infiniband"));
}

#[test]
fn profile_new_writes_nics_gpus_and_the_sku() {
    let out = rigcheck()
        .args([
            "profile",
            "new",
            "-o",
            "-",
            "--sysroot",
            "fixtures/x86_64-hpe-x710-10gbe",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(
            "[[nics]]\nmodel = { exact = \"Ethernet Controller X710 for 10GbE SFP+\" }\ncount = 1\nspeed = { at_least = \"10 Gb/s\" }\nports = 2\n"
        ),
        "{text}"
    );
    let out = rigcheck()
        .args([
            "profile",
            "new",
            "-o",
            "-",
            "--sysroot",
            "fixtures/hp-z8-g4-dual-rtx6000",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("sku = \"Z3Z16AV\""), "{text}");
    let out = rigcheck()
        .args([
            "profile",
            "new",
            "-o",
            "-",
            "--sysroot",
            "fixtures/x86_64-amd-vega64",
        ])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("[[gpus]]\nmodel = { exact = \"Radeon RX Vega 64\" }\ncount = 1\n"),
        "{text}"
    );
}

#[test]
fn a_swapped_nic_is_a_change() {
    let a = probe::inventory(&Source::sysroot("fixtures/x86_64-hpe-x710-10gbe"));
    let mut b = a.clone();
    b.nics[0].ports[0].mac = Some("48:df:37:24:c2:10".into());
    let d = rigcheck::diff::diff(&a, &b);
    assert!(
        d.changes
            .iter()
            .any(|c| c.what == "network adapter swapped (MAC)" && c.at == "0000:5d:00.0"),
        "{:?}",
        d.changes
    );
    let mut c = a.clone();
    c.nics[0].name = Some("Ethernet Controller E810-C for SFP".into());
    c.nics[0].max_speed_mbps = Some(25_000);
    let d = rigcheck::diff::diff(&a, &c);
    assert!(d
        .changes
        .iter()
        .any(|c| c.what == "network adapter replaced"));
}

#[test]
fn preflight_counts_only_gpus_a_cuda_job_can_use() {
    // The Vega and the UHD 620 are listed by the inventory, but preflight's GPU checks are
    // CUDA's: the machine has no NVIDIA GPU, as before AMD and Intel GPUs were listed.
    let out = rigcheck()
        .args(["preflight", "--sysroot", "fixtures/x86_64-amd-vega64"])
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("0 visible, 0 on PCI"), "{text}");
    assert!(text.contains("no NVIDIA GPU on the PCI bus"), "{text}");
    assert_eq!(out.status.code(), Some(1));
}
