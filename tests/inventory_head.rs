//! The head of the inventory ("At a glance") and its grouped parts, as an 80-column
//! terminal shows them, on recorded machines: snapshots, and the values a reader relies on.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use rigcheck::probe;
use rigcheck::render::Format;
use rigcheck::render::{self, Part, Term, View};
use rigcheck::rules::attention;
use rigcheck::source::Source;
use rigcheck::spec::Spec;

fn spec(name: &str) -> Spec {
    probe::inventory(&Source::sysroot(format!("fixtures/{name}")))
}

/// The parts of `spec` as an 80-column terminal without colour shows them.
fn shown(spec: &Spec, parts: &[Part], verbose: bool) -> String {
    let view = View {
        term: Term {
            color: false,
            width: Some(80),
        },
        parts: parts.to_vec(),
        verbose,
    };
    let mut buf = Vec::new();
    render::inventory_report(spec, &attention(spec), Format::Table, None, view, &mut buf).unwrap();
    let text = String::from_utf8(buf).unwrap();
    for l in text.lines() {
        assert!(textwrap::core::display_width(l) <= 80, "{l:?}");
    }
    text
}

#[test]
fn the_head_of_recorded_machines() {
    for name in [
        "hp-z8-g4-dual-rtx6000",
        "x86_64-hp-z8-g4-dual-bronze3104",
        "x86_64-dual-rtx2080",
        "gpu-hot-throttling",
        "gpu-degraded-x8",
        "x86_64-epyc_7451",
        "x86_64-vm-kvm",
    ] {
        let text = shown(&spec(name), &[Part::Glance], false);
        insta::assert_snapshot!(format!("head-{name}"), text);
    }
}

#[test]
fn the_reference_machine_at_a_glance() {
    let text = shown(&spec("hp-z8-g4-dual-rtx6000"), &[Part::Glance], false);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "At a glance");
    assert_eq!(lines[1], "  Machine   HP Z8 G4 Workstation (Desktop)");
    assert_eq!(lines[2], "  Host      z8-ref");
    // The generation from family 6 model 85 stepping 7, the clock now from cpufreq.
    assert_eq!(
        lines[3],
        "  CPU       2 × Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz · Cascade Lake · 36"
    );
    assert_eq!(lines[4], "            cores / 72 threads · 1200 MHz now");
    assert_eq!(
        lines[5],
        "  Memory    96 GiB · 12 × 8 GiB DDR4 2933 MT/s · 12 of 24 slots used"
    );
    assert_eq!(
        lines[6],
        "  GPUs      2 × Quadro RTX 6000 (24 GiB) · 32.6 TFLOPS FP32 in all"
    );
    // The composed machine records no network interfaces: unknown, not none.
    assert_eq!(lines[7], "  Network   unknown");
    assert_eq!(lines[8], "  Storage   2 × 1 TB NVMe");
    // Nothing on this machine needs a look.
    assert!(!text.contains("Attention"), "{text}");
}

#[test]
fn what_needs_a_look_is_said_at_the_top() {
    // The RTX 2080 capture: both cards link at x8 of their x16 lanes.
    let text = shown(&spec("x86_64-dual-rtx2080"), &[Part::Glance], false);
    assert!(
        text.contains("Attention  GPU 0 runs on x8 of its x16 PCIe lanes"),
        "{text}"
    );
    assert!(
        text.contains("GPU 1 runs on x8 of its x16 PCIe lanes"),
        "{text}"
    );
    // The hot card of gpu-hot-throttling, at the temperature NVML gave.
    let text = shown(&spec("gpu-hot-throttling"), &[Part::Glance], false);
    assert!(
        text.contains(
            "  Attention  GPU 0 clocks held down at 89 °C: sw_thermal_slowdown,\n             \
             hw_thermal_slowdown\n"
        ),
        "{text}"
    );
    assert!(!text.contains("GPU 1 clocks"), "{text}");
}

#[test]
fn identical_gpus_are_one_table_with_a_row_each_for_what_differs() {
    let text = shown(&spec("hp-z8-g4-dual-rtx6000"), &[Part::Gpus], false);
    insta::assert_snapshot!("gpus-hp-z8-g4-dual-rtx6000", text);
    // Eight of them: still one section, one row per GPU.
    let mut eight = spec("hp-z8-g4-dual-rtx6000");
    let first = eight.gpus[0].clone();
    eight.gpus = (0..8u32)
        .map(|i| {
            let mut g = first.clone();
            g.index = Some(i);
            g.pci_address = Some(format!("0000:{:02x}:00.0", 0x17 + i));
            g.uuid = Some(format!("GPU-0000000{i}"));
            g.state.temperature_c = Some(35 + i);
            g
        })
        .collect();
    let text = shown(&eight, &[Part::Gpus], false);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("GPU")).count(),
        1,
        "{text}"
    );
    assert!(
        text.starts_with("GPUs 0-7 · 8 × Quadro RTX 6000\n"),
        "{text}"
    );
    assert!(
        text.contains("  CUDA cores                4608\n"),
        "{text}"
    );
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("0000:") && l.contains("°C"))
        .collect();
    assert_eq!(rows.len(), 8, "{text}");
    assert!(rows[7].starts_with(" 7   │ 0000:1e:00.0 │"), "{text}");
}

#[test]
fn notes_say_in_words_why_facts_are_unknown_and_sources_on_request() {
    let z8 = spec("hp-z8-g4-dual-rtx6000");
    let text = shown(&z8, &[Part::Notes], false);
    insta::assert_snapshot!("notes-hp-z8-g4-dual-rtx6000", text);
    assert!(text.starts_with("Unknown, because…\n"), "{text}");
    assert!(text.contains("  System serial "), "{text}");
    assert!(!text.contains("system.serial"), "{text}");
    assert!(
        text.contains("GPUs 0, 1 uncorrected ECC errors  ECC is off on this GPU"),
        "{text}"
    );
    assert!(
        text.trim_end()
            .ends_with("Sources and remarks: 5 notes (-v lists them)"),
        "{text}"
    );
    let all = shown(&z8, &[Part::Notes], true);
    assert!(all.contains("Sources and remarks\n"), "{all}");
    // The note on the max-clock figure, its field in words (not `fp32_tflops_max_clock`).
    assert!(
        all.contains(
            "  GPUs 0, 1 FP32 peak at max clock  at NVML's max SM clock 2100 MHz, +19 %\n"
        ),
        "{all}"
    );
}

#[test]
fn sections_are_picked_and_kept_in_report_order() {
    let text = shown(
        &spec("hp-z8-g4-dual-rtx6000"),
        &[Part::Memory, Part::Glance],
        false,
    );
    let titles: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with(' ') && !l.is_empty() && !l.starts_with('─'))
        .collect();
    assert_eq!(titles, ["At a glance", "Memory"]);
}

/// The inventory's GPU part in `format`, with no width limit.
fn gpus_in(spec: &Spec, format: Format) -> String {
    let view = View {
        term: Term {
            color: false,
            width: None,
        },
        parts: vec![Part::Gpus],
        verbose: false,
    };
    let mut buf = Vec::new();
    render::inventory_report(spec, &attention(spec), format, None, view, &mut buf).unwrap();
    String::from_utf8(buf).unwrap()
}

#[test]
fn an_idle_link_below_its_generation_says_it_rises_under_load() {
    use rigcheck::rules::IDLE_LINK_GEN;
    // Both RTX 6000s (one table) idle at Gen1 of Gen3: the inventory says why, in
    // preflight's words.
    let z8 = spec("hp-z8-g4-dual-rtx6000");
    let hint = format!("Gen1 x16 ({IDLE_LINK_GEN})");
    for format in [Format::Table, Format::Markdown] {
        let text = gpus_in(&z8, format);
        assert!(text.contains(&hint), "{format:?}: {text}");
    }
    // gpu-busy: GPU 0 works at 97 % on Gen3 of Gen3 (no hint); GPU 1 idles at Gen1.
    let busy = gpus_in(&spec("gpu-busy"), Format::Table);
    assert_eq!(busy.matches(IDLE_LINK_GEN).count(), 1, "{busy}");
    // A busy GPU on a slow link is no power saving: no hint excuses it.
    let mut hot = spec("gpu-busy");
    for g in &mut hot.gpus {
        g.pcie.gen = Some(1);
        g.state.utilization_percent = Some(97);
    }
    assert!(!gpus_in(&hot, Format::Table).contains(IDLE_LINK_GEN));
}

/// The whole inventory of `spec` in `format`, with no width limit.
fn all_in(spec: &Spec, format: Format) -> String {
    let view = View {
        term: Term {
            color: false,
            width: None,
        },
        parts: Part::ALL.to_vec(),
        verbose: true,
    };
    let mut buf = Vec::new();
    render::inventory_report(spec, &attention(spec), format, None, view, &mut buf).unwrap();
    String::from_utf8(buf).unwrap()
}

#[test]
fn windows_reports_speak_windows_words() {
    // The Z8 G4 under Windows 10 Pro for Workstations reports build 19045 (22H2); the KVM
    // guest "Microsoft Windows 10" build 18362 (1903).
    let z8 = spec("windows-hp-z8-g4");
    let kvm = spec("windows-wine-kvm");
    // The JSON keeps the build as the OS gives it.
    assert_eq!(z8.os.kernel.as_deref(), Some("19045"));
    for format in [Format::Table, Format::Markdown] {
        let text = all_in(&z8, format);
        assert!(
            text.contains("Windows 10 Pro for Workstations 22H2 (build 19045)"),
            "{text}"
        );
        assert!(text.contains("Windows 10 22H2 (build 19045)"), "{text}");
        assert!(text.contains("Usable (physical memory)"), "{text}");
        let text = all_in(&kvm, format);
        assert!(
            text.contains("Microsoft Windows 10 1903 (build 18362)"),
            "{text}"
        );
        // Its DIMMs are unknown: the total is Windows' physical memory, said so.
        assert!(
            text.contains("shows physical memory, which is below"),
            "{text}"
        );
        for t in [all_in(&z8, format), text] {
            for linux in ["MemTotal", "run as root", "kernel 1"] {
                assert!(!t.contains(linux), "{linux}: {t}");
            }
        }
    }
    // A Linux report keeps Linux's words.
    let linux = all_in(&spec("hp-z8-g4-dual-rtx6000"), Format::Table);
    assert!(linux.contains("Usable (MemTotal)"), "{linux}");
    assert!(linux.contains("kernel 5.15.0-105-generic"), "{linux}");
}
