//! Prometheus text exposition format (version 0.0.4), for node_exporter's textfile collector
//! or any scraper: one gauge family per fact, HELP and TYPE lines, base units in the names.
//!
//! Conventions followed (prometheus.io "Metric and label naming", "Exposition formats"):
//! names `rigcheck_<what>_<unit>` in base units (bytes, hertz, seconds); every sample of a
//! family carries the same label names, so a label whose value is unknown is present and
//! empty (Prometheus reads an empty label as absent); an unknown number is no sample at all,
//! never 0. Label values are one line (`text::one_line`: a line break or bidirectional control
//! in a host or profile name becomes U+FFFD) and escape `\` and `"`; HELP text escapes `\`
//! and newline.

use std::io::{self, Write};

use crate::spec::Spec;
use crate::verify::VerifyReport;

/// One machine to expose.
#[derive(Debug, Clone, Copy)]
pub struct Machine<'a> {
    /// `host` label put on every sample (fleet output); `None` for a single machine, whose
    /// scrape target already names it.
    pub host: Option<&'a str>,
    pub spec: &'a Spec,
    pub verify: Option<&'a VerifyReport>,
    /// A preflight result, when one is known.
    pub preflight: Option<bool>,
}

/// One metric family being built: samples are added machine by machine, then written
/// together, since the format wants all samples of a family in one group.
struct Family {
    name: &'static str,
    help: &'static str,
    /// `gauge`, or `counter` for a count that only grows (named `_total`).
    kind: &'static str,
    samples: Vec<(Vec<(&'static str, String)>, f64)>,
}

impl Family {
    fn new(name: &'static str, help: &'static str) -> Self {
        Family {
            name,
            help,
            kind: "gauge",
            samples: Vec::new(),
        }
    }

    /// A count that only grows (until the device or the kernel resets it), `_total`.
    fn counter(name: &'static str, help: &'static str) -> Self {
        Family {
            kind: "counter",
            ..Family::new(name, help)
        }
    }
}

/// The families, in output order; `add` fills them for one machine.
struct Families(Vec<Family>);

impl Families {
    /// Adds a sample when the value is known.
    fn put(
        &mut self,
        name: &str,
        host: Option<&str>,
        labels: &[(&'static str, String)],
        v: Option<f64>,
    ) {
        let Some(v) = v else { return };
        let mut l = Vec::with_capacity(labels.len() + 1);
        if let Some(h) = host {
            l.push(("host", h.to_string()));
        }
        l.extend(labels.iter().cloned());
        // Every name used is declared in `declare`; a typo shows in the tests as a missing
        // family rather than a panic here.
        if let Some(f) = self.0.iter_mut().find(|f| f.name == name) {
            f.samples.push((l, v));
        }
    }
}

fn declare() -> Families {
    let f = Family::new;
    let c = Family::counter;
    Families(vec![
        f(
            "rigcheck_info",
            "Identity of the machine as rigcheck read it (value is always 1).",
        ),
        f(
            "rigcheck_report_timestamp_seconds",
            "Unix time the facts were read (live) or recorded (sysroot).",
        ),
        f(
            "rigcheck_unknown_facts",
            "Facts rigcheck could not read; the JSON report's notes say why.",
        ),
        f("rigcheck_cpu_sockets", "Physical CPU packages."),
        f("rigcheck_cpu_cores", "Physical CPU cores, all sockets."),
        f("rigcheck_cpu_threads", "Logical CPUs online."),
        f(
            "rigcheck_cpu_base_frequency_hertz",
            "Advertised or guaranteed CPU base clock.",
        ),
        f(
            "rigcheck_cpu_max_frequency_hertz",
            "Highest CPU clock (turbo).",
        ),
        f(
            "rigcheck_memory_installed_bytes",
            "Installed memory: sum of DIMMs where known, else MemTotal.",
        ),
        f(
            "rigcheck_memory_usable_bytes",
            "Memory the kernel manages (MemTotal).",
        ),
        f("rigcheck_memory_dimms", "Populated DIMM slots."),
        f(
            "rigcheck_memory_dimm_slots",
            "DIMM slots the firmware lists, populated or empty.",
        ),
        f(
            "rigcheck_memory_dimm_size_bytes",
            "Size of the DIMM in each populated slot.",
        ),
        f("rigcheck_drives", "Physical drives."),
        f("rigcheck_drive_size_bytes", "Capacity of each drive."),
        f("rigcheck_gpus", "GPUs found (NVIDIA, AMD, Intel)."),
        f("rigcheck_nics", "Network adapters found (cards)."),
        f(
            "rigcheck_nic_info",
            "Identity of each network adapter (value is always 1).",
        ),
        f(
            "rigcheck_nic_max_speed_bytes",
            "Top speed of each network adapter, bytes per second (as node_network_speed_bytes).",
        ),
        f(
            "rigcheck_nic_port_speed_bytes",
            "Speed each network port runs at now, bytes per second.",
        ),
        f(
            "rigcheck_gpu_info",
            "Identity of each GPU (value is always 1).",
        ),
        f("rigcheck_gpu_memory_bytes", "GPU memory (VRAM)."),
        f("rigcheck_gpu_cuda_cores", "CUDA cores of each GPU."),
        f("rigcheck_gpu_tensor_cores", "Tensor cores of each GPU."),
        f(
            "rigcheck_gpu_fp32_peak_flops",
            "Rated peak FP32 floating-point operations per second of each GPU (at its rated boost clock).",
        ),
        f(
            "rigcheck_gpu_pcie_link_width",
            "Current PCIe link width (lanes) of each GPU.",
        ),
        f(
            "rigcheck_gpu_pcie_link_max_width",
            "Widest PCIe link (lanes) each GPU and its slot support.",
        ),
        f(
            "rigcheck_gpu_pcie_link_generation",
            "Current PCIe generation of each GPU (drops at idle).",
        ),
        f(
            "rigcheck_gpu_pcie_link_max_generation",
            "Highest PCIe generation each GPU and its slot support.",
        ),
        f(
            "rigcheck_drive_endurance_used_ratio",
            "Rated write endurance each drive has used (1 = its rating; NVMe percentage used).",
        ),
        f(
            "rigcheck_drive_available_spare_ratio",
            "Spare capacity each NVMe drive has left, of its factory spare.",
        ),
        f(
            "rigcheck_drive_critical_warning",
            "NVMe critical warning bits of each drive (0: none).",
        ),
        f(
            "rigcheck_drive_temperature_celsius",
            "Each drive's temperature as it reports it.",
        ),
        f(
            "rigcheck_drive_pending_sectors",
            "Sectors each ATA drive waits to remap after a failed read.",
        ),
        c(
            "rigcheck_drive_power_on_seconds_total",
            "Time each drive has been powered on over its life.",
        ),
        c(
            "rigcheck_drive_power_cycles_total",
            "Power cycles of each drive over its life.",
        ),
        c(
            "rigcheck_drive_unsafe_shutdowns_total",
            "Power losses without a shutdown notice, per NVMe drive.",
        ),
        c(
            "rigcheck_drive_media_errors_total",
            "Unrecovered data integrity errors per NVMe drive.",
        ),
        c(
            "rigcheck_drive_reallocated_sectors_total",
            "Sectors each ATA drive has moved to spare area.",
        ),
        c(
            "rigcheck_drive_written_bytes_total",
            "Data the host wrote to each NVMe drive over its life.",
        ),
        c(
            "rigcheck_memory_errors_total",
            "Memory errors each memory controller counted (EDAC), by type (corrected, uncorrected).",
        ),
        c(
            "rigcheck_pcie_aer_errors_total",
            "AER errors of each GPU and NVMe function and the ports above it, by severity.",
        ),
        c(
            "rigcheck_cpu_throttle_events_total",
            "Thermal throttle events per CPU package since boot, by kind (core, package).",
        ),
        c(
            "rigcheck_gpu_ecc_errors_total",
            "ECC errors of each GPU by type and counter (volatile: since the driver loaded).",
        ),
        c(
            "rigcheck_gpu_retired_pages_total",
            "Memory pages each GPU retired, by cause (single_bit, double_bit).",
        ),
        c(
            "rigcheck_gpu_remapped_rows_total",
            "Memory rows each GPU remapped, by the error that caused it.",
        ),
        f(
            "rigcheck_gpu_row_remap_pending",
            "1 when a GPU has a row remap waiting for a reset.",
        ),
        f(
            "rigcheck_gpu_row_remap_failed",
            "1 when a GPU failed to remap a row (no spare left).",
        ),
        c(
            "rigcheck_gpu_pcie_replays_total",
            "PCIe packets each GPU retransmitted since the driver loaded.",
        ),
        c(
            "rigcheck_gpu_clocks_held_down_seconds_total",
            "Time each GPU's clocks were held below what was asked, by reason (thermal, power).",
        ),
        f(
            "rigcheck_verify_passed",
            "1 when the machine passes its profile, 0 when it fails.",
        ),
        f(
            "rigcheck_verify_requirements",
            "Requirements of the profile by result (pass, fail, unknown).",
        ),
        f(
            "rigcheck_preflight_passed",
            "1 when the last preflight found the machine ready, 0 when not.",
        ),
        f("rigcheck_fleet_hosts", "Hosts whose reports were read."),
        f(
            "rigcheck_fleet_report_errors",
            "Report files that could not be read.",
        ),
        f(
            "rigcheck_fleet_majority_hosts",
            "Hosts sharing the most common hardware configuration.",
        ),
        f(
            "rigcheck_fleet_majority_tie",
            "1 when the largest hardware configurations have as many hosts each: no majority.",
        ),
        f(
            "rigcheck_fleet_matches_majority",
            "1 when the host has the fleet's majority hardware configuration, else 0 (0 for \
             every host on a tie).",
        ),
    ])
}

fn n<T: Into<f64>>(v: Option<T>) -> Option<f64> {
    v.map(Into::into)
}

fn s(v: &Option<String>) -> String {
    v.clone().unwrap_or_default()
}

fn add(fams: &mut Families, m: &Machine) {
    let (h, spec) = (m.host, m.spec);
    let none: &[(&str, String)] = &[];
    fams.put(
        "rigcheck_info",
        h,
        &[
            ("hostname", s(&spec.hostname)),
            ("vendor", s(&spec.system.vendor)),
            ("product", s(&spec.system.product)),
            ("bios_version", s(&spec.system.bios_version)),
            ("cpu_model", s(&spec.cpu.model)),
            (
                "os",
                s(&spec.os.pretty_name.clone().or(spec.os.name.clone())),
            ),
            ("kernel", s(&spec.os.kernel)),
            ("rigcheck_version", spec.rigcheck_version.clone()),
        ],
        Some(1.0),
    );
    let when = spec
        .captured_at
        .as_deref()
        .and_then(|t| t.parse::<jiff::Timestamp>().ok())
        .map(|t| t.as_second() as f64);
    fams.put("rigcheck_report_timestamp_seconds", h, none, when);
    fams.put(
        "rigcheck_unknown_facts",
        h,
        none,
        Some(spec.notes.len() as f64),
    );
    let c = &spec.cpu;
    fams.put("rigcheck_cpu_sockets", h, none, n(c.sockets));
    fams.put("rigcheck_cpu_cores", h, none, n(c.cores));
    fams.put("rigcheck_cpu_threads", h, none, n(c.threads));
    let hz = |mhz: Option<u32>| mhz.map(|v| f64::from(v) * 1e6);
    fams.put("rigcheck_cpu_base_frequency_hertz", h, none, hz(c.base_mhz));
    fams.put("rigcheck_cpu_max_frequency_hertz", h, none, hz(c.max_mhz));
    let mem = &spec.memory;
    let bytes = |v: Option<u64>| v.map(|b| b as f64);
    fams.put(
        "rigcheck_memory_installed_bytes",
        h,
        none,
        bytes(mem.total_bytes),
    );
    fams.put(
        "rigcheck_memory_usable_bytes",
        h,
        none,
        bytes(mem.usable_bytes),
    );
    // An empty DIMM list can mean "not readable" (no SMBIOS access), so the count is only
    // given when a DIMM source was read.
    let dimms = mem.dimm_source.as_ref().map(|_| mem.dimms.len() as f64);
    fams.put("rigcheck_memory_dimms", h, none, dimms);
    fams.put("rigcheck_memory_dimm_slots", h, none, n(mem.slot_count));
    for d in &mem.dimms {
        fams.put(
            "rigcheck_memory_dimm_size_bytes",
            h,
            &[("slot", d.locator.clone())],
            bytes(d.size_bytes),
        );
    }
    fams.put("rigcheck_drives", h, none, Some(spec.drives.len() as f64));
    for d in &spec.drives {
        fams.put(
            "rigcheck_drive_size_bytes",
            h,
            &[
                ("drive", d.name.clone()),
                ("kind", s(&d.kind.map(|k| k.to_string()))),
                ("model", s(&d.model)),
            ],
            bytes(d.size_bytes),
        );
    }
    if spec.lists.nics.is_complete() {
        fams.put("rigcheck_nics", h, none, Some(spec.nics.len() as f64));
    }
    let speed = |m: Option<u64>| m.map(|m| m as f64 * 1e6 / 8.0);
    for n in &spec.nics {
        let id = vec![("pci_address", s(&n.pci_address))];
        let mut info = id.clone();
        info.extend([
            ("name", s(&n.name)),
            ("board", s(&n.board)),
            ("driver", s(&n.driver)),
            ("firmware", s(&n.firmware)),
        ]);
        fams.put("rigcheck_nic_info", h, &info, Some(1.0));
        fams.put(
            "rigcheck_nic_max_speed_bytes",
            h,
            &id,
            speed(n.max_speed_mbps),
        );
        for p in &n.ports {
            let mut port = id.clone();
            port.push(("port", p.name.clone()));
            fams.put(
                "rigcheck_nic_port_speed_bytes",
                h,
                &port,
                speed(p.speed_mbps),
            );
        }
    }
    fams.put("rigcheck_gpus", h, none, Some(spec.gpus.len() as f64));
    for (i, g) in spec.gpus.iter().enumerate() {
        let id = vec![
            ("gpu", g.index.unwrap_or(i as u32).to_string()),
            ("pci_address", s(&g.pci_address)),
        ];
        let mut info = id.clone();
        info.extend([
            ("name", s(&g.shown_name())),
            ("uuid", s(&g.uuid)),
            ("architecture", s(&g.architecture)),
            ("compute_capability", s(&g.compute_capability)),
            ("driver_version", s(&g.driver_version)),
            ("vbios_version", s(&g.vbios_version)),
        ]);
        fams.put("rigcheck_gpu_info", h, &info, Some(1.0));
        fams.put("rigcheck_gpu_memory_bytes", h, &id, bytes(g.vram_bytes));
        fams.put("rigcheck_gpu_cuda_cores", h, &id, n(g.cuda_cores));
        fams.put("rigcheck_gpu_tensor_cores", h, &id, n(g.tensor_cores));
        fams.put(
            "rigcheck_gpu_fp32_peak_flops",
            h,
            &id,
            g.fp32_tflops.map(|t| (t * 1e12).round()),
        );
        fams.put("rigcheck_gpu_pcie_link_width", h, &id, n(g.pcie.width));
        fams.put(
            "rigcheck_gpu_pcie_link_max_width",
            h,
            &id,
            n(g.pcie.max_width),
        );
        fams.put("rigcheck_gpu_pcie_link_generation", h, &id, n(g.pcie.gen));
        fams.put(
            "rigcheck_gpu_pcie_link_max_generation",
            h,
            &id,
            n(g.pcie.max_gen),
        );
    }
    health(fams, h, spec);
    if let Some(v) = m.verify {
        let p = || ("profile", v.profile.clone());
        fams.put(
            "rigcheck_verify_passed",
            h,
            &[p()],
            Some(f64::from(u8::from(v.passed))),
        );
        for (result, count) in [
            ("pass", v.summary.pass),
            ("fail", v.summary.fail),
            ("unknown", v.summary.unknown),
        ] {
            fams.put(
                "rigcheck_verify_requirements",
                h,
                &[p(), ("result", result.to_string())],
                Some(count as f64),
            );
        }
    }
    if let Some(ok) = m.preflight {
        fams.put(
            "rigcheck_preflight_passed",
            h,
            none,
            Some(f64::from(u8::from(ok))),
        );
    }
}

/// The health counts: each drive's, each memory controller's, each watched PCIe function's,
/// each CPU package's and each GPU's. Unknown counts are no sample.
fn health(fams: &mut Families, h: Option<&str>, spec: &Spec) {
    let num = |v: Option<u64>| v.map(|n| n as f64);
    if let Some(health) = &spec.health {
        for d in &health.drives {
            let id = [("drive", d.drive.clone())];
            let pct = |v: Option<u8>| v.map(|p| f64::from(p) / 100.0);
            fams.put(
                "rigcheck_drive_endurance_used_ratio",
                h,
                &id,
                pct(d.percentage_used),
            );
            fams.put(
                "rigcheck_drive_available_spare_ratio",
                h,
                &id,
                pct(d.available_spare_percent),
            );
            fams.put(
                "rigcheck_drive_critical_warning",
                h,
                &id,
                d.critical_warning.map(f64::from),
            );
            fams.put(
                "rigcheck_drive_temperature_celsius",
                h,
                &id,
                d.temperature_c.map(f64::from),
            );
            fams.put(
                "rigcheck_drive_pending_sectors",
                h,
                &id,
                num(d.pending_sectors),
            );
            fams.put(
                "rigcheck_drive_power_on_seconds_total",
                h,
                &id,
                d.power_on_hours.map(|n| n as f64 * 3600.0),
            );
            fams.put(
                "rigcheck_drive_power_cycles_total",
                h,
                &id,
                num(d.power_cycles),
            );
            fams.put(
                "rigcheck_drive_unsafe_shutdowns_total",
                h,
                &id,
                num(d.unsafe_shutdowns),
            );
            fams.put(
                "rigcheck_drive_media_errors_total",
                h,
                &id,
                num(d.media_errors),
            );
            fams.put(
                "rigcheck_drive_reallocated_sectors_total",
                h,
                &id,
                num(d.reallocated_sectors),
            );
            fams.put(
                "rigcheck_drive_written_bytes_total",
                h,
                &id,
                num(d.data_written_bytes),
            );
        }
        for mc in &health.memory.controllers {
            for (kind, v) in [
                ("corrected", mc.corrected_errors),
                ("uncorrected", mc.uncorrected_errors),
            ] {
                fams.put(
                    "rigcheck_memory_errors_total",
                    h,
                    &[("controller", mc.name.clone()), ("type", kind.into())],
                    num(v),
                );
            }
        }
        for p in &health.pcie {
            for (sev, v) in [
                ("correctable", p.correctable),
                ("nonfatal", p.nonfatal),
                ("fatal", p.fatal),
            ] {
                fams.put(
                    "rigcheck_pcie_aer_errors_total",
                    h,
                    &[
                        ("pci_address", p.address.clone()),
                        ("of", p.of.clone()),
                        ("port", p.port.to_string()),
                        ("severity", sev.into()),
                    ],
                    num(v),
                );
            }
        }
        for t in &health.cpu {
            for (kind, v) in [("core", t.core_events), ("package", t.package_events)] {
                fams.put(
                    "rigcheck_cpu_throttle_events_total",
                    h,
                    &[("package", t.package.to_string()), ("kind", kind.into())],
                    num(v),
                );
            }
        }
    }
    for (i, g) in spec.gpus.iter().enumerate() {
        let id = |extra: Vec<(&'static str, String)>| {
            let mut l = vec![
                ("gpu", g.index.unwrap_or(i as u32).to_string()),
                ("pci_address", s(&g.pci_address)),
            ];
            l.extend(extra);
            l
        };
        let st = &g.state;
        for (kind, counter, v) in [
            ("corrected", "volatile", st.ecc_errors_corrected),
            ("uncorrected", "volatile", st.ecc_errors_uncorrected),
            ("corrected", "aggregate", st.ecc_errors_corrected_aggregate),
            (
                "uncorrected",
                "aggregate",
                st.ecc_errors_uncorrected_aggregate,
            ),
        ] {
            fams.put(
                "rigcheck_gpu_ecc_errors_total",
                h,
                &id(vec![("type", kind.into()), ("counter", counter.into())]),
                num(v),
            );
        }
        for (cause, v) in [
            ("single_bit", st.retired_pages_single_bit),
            ("double_bit", st.retired_pages_double_bit),
        ] {
            fams.put(
                "rigcheck_gpu_retired_pages_total",
                h,
                &id(vec![("cause", cause.into())]),
                num(v),
            );
        }
        for (cause, v) in [
            ("correctable", st.remapped_rows_correctable),
            ("uncorrectable", st.remapped_rows_uncorrectable),
        ] {
            fams.put(
                "rigcheck_gpu_remapped_rows_total",
                h,
                &id(vec![("cause", cause.into())]),
                num(v),
            );
        }
        let flag = |b: Option<bool>| b.map(|b| f64::from(u8::from(b)));
        fams.put(
            "rigcheck_gpu_row_remap_pending",
            h,
            &id(vec![]),
            flag(st.remapped_rows_pending),
        );
        fams.put(
            "rigcheck_gpu_row_remap_failed",
            h,
            &id(vec![]),
            flag(st.remapped_rows_failure),
        );
        fams.put(
            "rigcheck_gpu_pcie_replays_total",
            h,
            &id(vec![]),
            num(st.pcie_replays),
        );
        for (reason, v) in [
            ("thermal", st.thermal_violation_ns),
            ("power", st.power_violation_ns),
        ] {
            fams.put(
                "rigcheck_gpu_clocks_held_down_seconds_total",
                h,
                &id(vec![("reason", reason.into())]),
                v.map(|ns| ns as f64 / 1e9),
            );
        }
    }
}

/// Fleet-wide figures added to the fleet output.
#[derive(Debug, Clone, Default)]
pub struct FleetFigures {
    pub hosts: usize,
    pub report_errors: usize,
    /// Hosts in the largest configuration.
    pub majority_hosts: usize,
    /// The largest configurations have as many hosts each.
    pub tie: bool,
    /// (host, matches the majority configuration)
    pub matches: Vec<(String, bool)>,
}

/// Writes the metrics of one machine.
pub fn write_machine(
    spec: &Spec,
    verify: Option<&VerifyReport>,
    preflight: Option<bool>,
    out: &mut dyn Write,
) -> io::Result<()> {
    write(
        &[Machine {
            host: None,
            spec,
            verify,
            preflight,
        }],
        None,
        out,
    )
}

/// Writes the metrics of `machines`, and the fleet figures when given.
pub fn write(
    machines: &[Machine],
    fleet: Option<&FleetFigures>,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut fams = declare();
    for m in machines {
        add(&mut fams, m);
    }
    if let Some(f) = fleet {
        let none: &[(&str, String)] = &[];
        fams.put("rigcheck_fleet_hosts", None, none, Some(f.hosts as f64));
        fams.put(
            "rigcheck_fleet_report_errors",
            None,
            none,
            Some(f.report_errors as f64),
        );
        fams.put(
            "rigcheck_fleet_majority_hosts",
            None,
            none,
            Some(f.majority_hosts as f64),
        );
        fams.put(
            "rigcheck_fleet_majority_tie",
            None,
            none,
            Some(f64::from(u8::from(f.tie))),
        );
        for (host, ok) in &f.matches {
            fams.put(
                "rigcheck_fleet_matches_majority",
                Some(host),
                none,
                Some(f64::from(u8::from(*ok))),
            );
        }
    }
    let mut buf = String::new();
    for fam in fams.0.iter().filter(|f| !f.samples.is_empty()) {
        buf.push_str(&format!(
            "# HELP {} {}\n# TYPE {} {}\n",
            fam.name,
            escape_help(fam.help),
            fam.name,
            fam.kind
        ));
        for (labels, v) in &fam.samples {
            buf.push_str(fam.name);
            if !labels.is_empty() {
                buf.push('{');
                for (i, (k, val)) in labels.iter().enumerate() {
                    if i > 0 {
                        buf.push(',');
                    }
                    buf.push_str(k);
                    buf.push_str("=\"");
                    buf.push_str(&escape_label(val));
                    buf.push('"');
                }
                buf.push('}');
            }
            buf.push(' ');
            buf.push_str(&value(*v));
            buf.push('\n');
        }
    }
    out.write_all(buf.as_bytes())
}

/// A sample value: integers without a fraction, others as Rust prints them (never `NaN`
/// here, since unknown values are left out).
fn value(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e17 {
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// Escapes a label value: backslash and double quote; a label is one line, so a line break
/// (which the format could carry as `\n`) is replaced like every other one-line context's.
pub fn escape_label(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in crate::text::one_line(s).chars() {
        match c {
            '\\' => o.push_str("\\\\"),
            '"' => o.push_str("\\\""),
            c => o.push(c),
        }
    }
    o
}

/// Escapes HELP text: backslash and line feed.
pub fn escape_help(s: &str) -> String {
    s.replace('\\', "\\\\").replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_values_are_escaped() {
        assert_eq!(
            escape_label("a \"quoted\" C:\\path\nnext\u{2028}\u{202e}"),
            "a \\\"quoted\\\" C:\\\\path\u{fffd}next\u{fffd}\u{fffd}"
        );
        assert_eq!(escape_help("x\\y\nz"), "x\\\\y\\nz");
    }

    #[test]
    fn unknown_numbers_are_left_out() {
        let spec = Spec {
            rigcheck_version: "0.1.0".into(),
            ..Spec::default()
        };
        let mut out = Vec::new();
        write_machine(&spec, None, None, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains("rigcheck_cpu_cores"), "{text}");
        assert!(text.contains("rigcheck_gpus 0\n"), "{text}");
        assert!(text.contains("rigcheck_info{hostname=\"\""), "{text}");
        assert_eq!(value(3.1e9), "3100000000");
        assert_eq!(value(16.3), "16.3");
    }
}
