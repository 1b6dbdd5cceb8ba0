//! One place that turns a fact into a row for people: its label (the field's name in
//! `spec::names`, or a name of its own for a row that joins several fields: `Board`, `BIOS`,
//! `Driver / CUDA`) and its cell. The inventory report (table and Markdown) and the spec
//! sheet (Markdown and HTML) build their sections from these rows and grids, each choosing
//! which to show, so a fact reads the same wherever it is shown.

use crate::render::gpu_figures::{self, mark};
use crate::render::layout::{Grid, Section};
use crate::render::unknown::{show, show_str};
use crate::spec::names::{self, Name};
use crate::spec::{Cache, Dimm, Drive, Gpu, NumaNode, Spec};
use crate::units::{bytes_bin, bytes_dec, mhz};

/// One fact of a `T` as a row.
pub struct Row<T: 'static> {
    pub label: &'static str,
    /// Its header as a column of a table (one row per GPU, per DIMM), where shorter.
    pub column: &'static str,
    pub cell: fn(&T) -> String,
    /// Shown only where this holds (a fact most machines lack); always when `None`.
    pub only_if: Option<fn(&T) -> bool>,
}

impl<T> Row<T> {
    /// True when `x` shows this row.
    pub fn shown(&self, x: &T) -> bool {
        self.only_if.is_none_or(|f| f(x))
    }
}

/// The row of one field, named as `spec::names` names it.
const fn row<T>(name: Name, cell: fn(&T) -> String) -> Row<T> {
    Row {
        label: name.label,
        column: name.label,
        cell,
        only_if: None,
    }
}

/// The row of one field, shown only where `only_if` holds.
const fn row_if<T>(name: Name, cell: fn(&T) -> String, only_if: fn(&T) -> bool) -> Row<T> {
    Row {
        only_if: Some(only_if),
        ..row(name, cell)
    }
}

/// A row joining several fields, under a name of its own.
const fn joined<T>(label: &'static str, cell: fn(&T) -> String) -> Row<T> {
    Row {
        label,
        column: label,
        cell,
        only_if: None,
    }
}

/// Adds each of `rows` that `x` shows to `sec`, as a field.
pub fn add_fields<T>(sec: &mut Section, x: &T, rows: &[&Row<T>]) {
    for r in rows.iter().filter(|r| r.shown(x)) {
        sec.field(r.label, (r.cell)(x));
    }
}

fn join_opt(parts: &[&Option<String>]) -> String {
    let v: Vec<&str> = parts.iter().filter_map(|p| p.as_deref()).collect();
    if v.is_empty() {
        show_str(&None)
    } else {
        v.join(" ")
    }
}

fn num<T: std::fmt::Display>(v: Option<T>) -> String {
    show(v, |n| n.to_string())
}

fn on_off(b: bool) -> String {
    if b { "on" } else { "off" }.to_string()
}

// The machine and its OS.

/// A name, on one line wherever the row is placed (`text::one_line`).
pub static HOST: Row<Spec> = row(names::HOSTNAME, |s| {
    crate::text::one_line(&show_str(&s.hostname)).into_owned()
});
pub static SYSTEM_VENDOR: Row<Spec> = row(names::SYSTEM_VENDOR, |s| show_str(&s.system.vendor));
pub static PRODUCT: Row<Spec> = row(names::SYSTEM_PRODUCT, |s| show_str(&s.system.product));
pub static VERSION: Row<Spec> = row_if(
    names::SYSTEM_VERSION,
    |s| show_str(&s.system.version),
    |s| s.system.version.is_some(),
);
pub static SKU: Row<Spec> = row_if(
    names::SYSTEM_SKU,
    |s| show_str(&s.system.sku),
    |s| s.system.sku.is_some(),
);
pub static SERIAL: Row<Spec> = row(names::SYSTEM_SERIAL, |s| show_str(&s.system.serial));
pub static UUID: Row<Spec> = row(names::SYSTEM_UUID, |s| show_str(&s.system.uuid));
pub static BOARD: Row<Spec> = joined("Board", |s| {
    let s = &s.system;
    join_opt(&[&s.board_vendor, &s.board_name, &s.board_version])
});
pub static BIOS: Row<Spec> = joined("BIOS", |s| {
    let s = &s.system;
    join_opt(&[&s.bios_vendor, &s.bios_version, &s.bios_date])
});
pub static BIOS_VENDOR: Row<Spec> = row(names::BIOS_VENDOR, |s| show_str(&s.system.bios_vendor));
pub static BIOS_VERSION: Row<Spec> = row(names::BIOS_VERSION, |s| show_str(&s.system.bios_version));
pub static BIOS_DATE: Row<Spec> = row(names::BIOS_DATE, |s| show_str(&s.system.bios_date));
pub static CHASSIS: Row<Spec> = row(names::CHASSIS, |s| show_str(&s.system.chassis_type));
pub static VIRTUAL_MACHINE: Row<Spec> = row_if(
    names::VIRTUALIZATION,
    |s| show_str(&s.system.virtualization),
    |s| s.system.virtualization.is_some(),
);
pub static OS: Row<Spec> = row(names::OS, |s| {
    show_str(&s.os.pretty_name.clone().or_else(|| s.os.name.clone()))
});
pub static KERNEL: Row<Spec> = row(names::KERNEL, |s| {
    show_str(&crate::spec::windows::kernel_shown(&s.os))
});
pub static ARCH: Row<Spec> = row(names::ARCH, |s| show_str(&s.os.arch));
pub static CAPTURED: Row<Spec> = row(names::CAPTURED_AT, |s| show_str(&s.captured_at));
pub static SOURCE: Row<Spec> = row(names::SOURCE, |s| s.source.clone());

// The CPUs.

pub static CPU_MODEL: Row<Spec> = row(names::CPU_MODEL, |s| show_str(&s.cpu.model));
pub static CPU_VENDOR: Row<Spec> = row(names::CPU_VENDOR, |s| show_str(&s.cpu.vendor));
pub static SOCKETS: Row<Spec> = row(names::CPU_SOCKETS, |s| num(s.cpu.sockets));
pub static CORES: Row<Spec> = row(names::CPU_CORES, |s| num(s.cpu.cores));
pub static CORES_PER_SOCKET: Row<Spec> =
    row(names::CPU_CORES_PER_SOCKET, |s| num(s.cpu.cores_per_socket));
pub static THREADS: Row<Spec> = row(names::CPU_THREADS, |s| num(s.cpu.threads));
pub static THREADS_PER_CORE: Row<Spec> =
    row(names::CPU_THREADS_PER_CORE, |s| num(s.cpu.threads_per_core));
/// `Cascade Lake (Cascade Lake-SP)`, `Zen 3 (Milan)`.
pub static GENERATION: Row<Spec> = row(names::CPU_MICROARCHITECTURE, |s| {
    match (&s.cpu.microarchitecture, &s.cpu.codename) {
        (Some(u), Some(c)) if c != u => format!("{u} ({c})"),
        (u, _) => show_str(u),
    }
});
pub static MICROCODE: Row<Spec> = row_if(
    names::CPU_MICROCODE,
    |s| show_str(&s.cpu.microcode),
    |s| s.cpu.microcode.is_some(),
);
/// `2445 MHz`, or `1200–3100 MHz (avg 2445, 72 CPUs, scaling_cur_freq)`.
pub static CLOCK_NOW: Row<Spec> = row(names::CPU_CLOCK_NOW, |s| {
    show(s.cpu.current_mhz, |n| {
        let from = match n.source {
            crate::spec::ClockSource::ScalingCurFreq => "cpufreq scaling_cur_freq",
            crate::spec::ClockSource::Cpuinfo => "cpuinfo cpu MHz",
        };
        if n.min_mhz == n.max_mhz {
            format!("{} MHz ({} CPUs, {from})", n.avg_mhz, n.cpus)
        } else {
            format!(
                "{}–{} MHz (avg {}, {} CPUs, {from})",
                n.min_mhz, n.max_mhz, n.avg_mhz, n.cpus
            )
        }
    })
});
/// The CPU's model and counts, first in the report's CPU part and the sheet's.
pub static CPU_COUNTS: [&Row<Spec>; 8] = [
    &CPU_MODEL,
    &CPU_VENDOR,
    &GENERATION,
    &SOCKETS,
    &CORES,
    &CORES_PER_SOCKET,
    &THREADS,
    &THREADS_PER_CORE,
];
pub static CPUS_ONLINE: Row<Spec> = row(names::CPUS_ONLINE, |s| show_str(&s.cpu.online));
pub static CPUS_OFFLINE: Row<Spec> = row_if(
    names::CPUS_OFFLINE,
    |s| show_str(&s.cpu.offline),
    |s| s.cpu.offline.as_deref().is_some_and(|o| !o.is_empty()),
);
pub static BASE_CLOCK: Row<Spec> = row(names::CPU_BASE_CLOCK, |s| {
    match (&s.cpu.base_mhz, &s.cpu.base_mhz_source) {
        (Some(b), Some(src)) => format!("{} (from {src})", mhz(*b)),
        (b, _) => show(*b, mhz),
    }
});
pub static MAX_CLOCK: Row<Spec> = row(names::CPU_MAX_CLOCK, |s| show(s.cpu.max_mhz, mhz));
pub static MIN_CLOCK: Row<Spec> = row(names::CPU_MIN_CLOCK, |s| show(s.cpu.min_mhz, mhz));
/// The scaling driver with its governor: `intel_pstate performance`.
pub static FREQUENCY_DRIVER: Row<Spec> = row_if(
    names::CPU_SCALING_DRIVER,
    |s| join_opt(&[&s.cpu.scaling_driver, &s.cpu.governor]),
    |s| s.cpu.scaling_driver.is_some() || s.cpu.governor.is_some(),
);
pub static ISA: Row<Spec> = row(names::CPU_ISA, |s| {
    if s.cpu.isa.is_empty() {
        show_str(&None)
    } else {
        s.cpu.isa.join(" ")
    }
});
pub static FMA_UNITS: Row<Spec> = row_if(
    names::CPU_FMA_UNITS,
    |s| num(s.cpu.fma_units),
    |s| s.cpu.fma_units.is_some(),
);
pub static FP64_PEAK: Row<Spec> = row_if(
    names::CPU_FP64_PEAK,
    |s| {
        show(s.cpu.peak_fp64_gflops, |g| {
            format!("{g:.0} GFLOPS (all cores, base clock)")
        })
    },
    |s| s.cpu.peak_fp64_gflops.is_some(),
);

// Memory.

pub static INSTALLED: Row<Spec> = row(names::MEMORY_INSTALLED, |s| {
    match (&s.memory.total_bytes, &s.memory.total_source) {
        (Some(t), Some(src)) => format!("{} (from {src})", bytes_bin(*t)),
        (t, _) => show(*t, bytes_bin),
    }
});
pub static USABLE: Row<Spec> = row_if(
    names::MEMORY_USABLE,
    |s| show(s.memory.usable_bytes, bytes_bin),
    |s| !crate::spec::windows::is_windows(&s.os),
);
/// The same figure where Windows gives it: its physical memory, not Linux's MemTotal.
pub static USABLE_WINDOWS: Row<Spec> = Row {
    label: "Usable (physical memory)",
    column: "Usable (physical memory)",
    cell: |s| show(s.memory.usable_bytes, bytes_bin),
    only_if: Some(|s| crate::spec::windows::is_windows(&s.os)),
};
/// `12 of 24 populated`; the slot count from the firmware's, else the empty slots it lists.
pub static DIMM_SLOTS: Row<Spec> = row(names::DIMM_SLOTS, |s| {
    let m = &s.memory;
    let (used, empty) = (m.dimms.len(), m.empty_slots.len());
    match m.slot_count {
        Some(n) => format!("{used} of {n} populated"),
        None if used == 0 && empty == 0 => show_str(&None),
        // Empty slots unknown: how many slots there are is not known either.
        None if empty == 0 => format!("{used} populated"),
        None => format!("{used} of {} populated", used + empty),
    }
});
pub static EMPTY_SLOTS: Row<Spec> = row_if(
    names::EMPTY_SLOTS,
    |s| s.memory.empty_slots.join(", "),
    |s| !s.memory.empty_slots.is_empty(),
);

/// A DIMM slot as a grid shows it: the socket (where the grid has a socket column), the
/// locator, and the module in it (`None` for an empty slot).
pub struct SlotRow<'a> {
    pub socket: String,
    pub locator: &'a str,
    pub dimm: Option<&'a Dimm>,
}

static DIMM_ROWS: [Row<Dimm>; 6] = [
    row(names::DIMM_SIZE, |d| show(d.size_bytes, bytes_bin)),
    // The form factor says what fits: `DDR4 DIMM`, `DDR5 SODIMM`.
    row(names::DIMM_TYPE, |d| match (&d.kind, &d.form_factor) {
        (Some(k), Some(ff)) => format!("{k} {ff}"),
        (k, _) => show_str(k),
    }),
    // The speed it runs at, and its rating where that is more.
    row(names::DIMM_SPEED, |d| {
        match (d.speed_mts, d.configured_speed_mts) {
            (Some(s), Some(c)) if s != c => format!("{c} MT/s (rated {s})"),
            (Some(s), _) | (None, Some(s)) => format!("{s} MT/s"),
            (None, None) => show_str(&None),
        }
    }),
    row(names::DIMM_MANUFACTURER, |d| show_str(&d.manufacturer)),
    row(names::DIMM_PART_NUMBER, |d| show_str(&d.part_number)),
    row(names::DIMM_SERIAL, |d| show_str(&d.serial)),
];

/// DIMM slots, one row each: slot, size, type, speed, manufacturer, part number and serial,
/// with the socket first when `with_socket`; an empty slot says so. `None` when there are
/// no slots to show.
pub fn dimm_grid<'a>(
    slots: impl IntoIterator<Item = SlotRow<'a>>,
    with_socket: bool,
) -> Option<Grid> {
    let mut header = Vec::new();
    if with_socket {
        header.push("Socket");
    }
    header.push(names::DIMM_LOCATOR.label);
    header.extend(DIMM_ROWS.iter().map(|r| r.column));
    let mut g = Grid::new(&header);
    for s in slots {
        let mut cells = Vec::with_capacity(header.len());
        if with_socket {
            cells.push(s.socket);
        }
        cells.push(s.locator.to_string());
        match s.dimm {
            Some(d) => cells.extend(DIMM_ROWS.iter().map(|r| (r.cell)(d))),
            None => {
                cells.push("empty".into());
                cells.extend(std::iter::repeat_n("–".to_string(), DIMM_ROWS.len() - 1));
            }
        }
        g.rows.push(cells);
    }
    (!g.rows.is_empty()).then_some(g)
}

/// The caches as `L1d 48 KiB × 2 = 96 KiB` rows (none when unknown).
pub fn cache_grid(caches: &[Cache]) -> Option<Grid> {
    if caches.is_empty() {
        return None;
    }
    let mut g = Grid::new(&["Cache", "Size each", "Instances", "Total"]);
    for k in caches {
        let name = match k.kind.as_str() {
            "data" => format!("L{}d", k.level),
            "instruction" => format!("L{}i", k.level),
            _ => format!("L{}", k.level),
        };
        g.rows.push(vec![
            name,
            bytes_bin(k.size_bytes),
            k.instances.to_string(),
            bytes_bin(k.total_bytes),
        ]);
    }
    Some(g)
}

/// The NUMA nodes with their CPUs and local memory (none when unknown).
pub fn numa_grid(nodes: &[NumaNode]) -> Option<Grid> {
    if nodes.is_empty() {
        return None;
    }
    let mut g = Grid::new(&[
        names::NUMA_NODE.label,
        names::NUMA_NODE_CPUS.label,
        names::NUMA_NODE_MEMORY.label,
    ]);
    for n in nodes {
        let cpus = if n.cpus.is_empty() {
            "none (memory only)".into()
        } else {
            n.cpus.clone()
        };
        g.rows.push(vec![
            n.id.to_string(),
            cpus,
            show(n.memory_bytes, bytes_bin),
        ]);
    }
    Some(g)
}

/// The drives with size (as sold and in binary units), kind (and the bus when it says
/// more: `ssd (sata)`), NUMA node, PCI address and serial.
pub fn drive_grid(drives: &[Drive]) -> Grid {
    let mut g = Grid::new(&[
        names::DRIVE_NAME.label,
        names::DRIVE_MODEL.label,
        names::DRIVE_SIZE.label,
        names::DRIVE_KIND.label,
        "NUMA",
        names::DRIVE_PCI_ADDRESS.label,
        names::DRIVE_SERIAL.label,
    ]);
    for d in drives {
        let kind = show(d.kind, |k| k.to_string());
        let kind = match d.transport.as_deref() {
            Some(t) if t != kind => format!("{kind} ({t})"),
            _ => kind,
        };
        g.rows.push(vec![
            d.name.clone(),
            show_str(&d.model),
            show(d.size_bytes, |b| {
                format!("{} ({})", bytes_dec(b), bytes_bin(b))
            }),
            kind,
            show(d.numa_node.filter(|n| *n >= 0), |n| n.to_string()),
            show_str(&d.pci_address),
            show_str(&d.serial),
        ]);
    }
    g
}

// Network adapters.

/// `Gen3 x8 (card Gen3 x8)`: the link now and, where it differs, what the card can do.
fn nic_link(p: &Option<crate::spec::Pcie>) -> String {
    let Some(p) = p else {
        return "-".into();
    };
    let now = link(p.gen, p.width);
    let card = link(
        p.device_max_gen.or(p.max_gen),
        p.device_max_width.or(p.max_width),
    );
    if card == now {
        now
    } else {
        format!("{now} of {card}")
    }
}

/// The cards: address, controller (and board), driver, firmware, fastest speed, link, NUMA.
pub fn nic_grid(nics: &[crate::spec::Nic]) -> Grid {
    let mut g = Grid::new(&[
        names::NIC_PCI_ADDRESS.label,
        names::NIC_NAME.label,
        names::NIC_DRIVER.label,
        names::NIC_FIRMWARE.label,
        names::NIC_MAX_SPEED.label,
        names::NIC_PCIE.label,
        "NUMA",
    ]);
    for n in nics {
        let name = match (&n.name, &n.board) {
            (Some(c), Some(b)) => format!("{b} ({c})"),
            (c, b) => show_str(&b.clone().or(c.clone())),
        };
        let speed = match (n.max_speed_mbps, n.max_speed_source.as_deref()) {
            (Some(m), Some("link")) => format!("≥ {} (link now)", crate::units::link_speed(m)),
            (Some(m), Some("table")) => format!("{} (table)", crate::units::link_speed(m)),
            (Some(m), _) => crate::units::link_speed(m),
            (None, _) if n.is_virtual => "virtual".into(),
            (None, _) => show_str(&None),
        };
        g.rows.push(vec![
            show_str(&n.pci_address),
            name,
            show_str(&n.driver),
            if n.is_virtual && n.firmware.is_none() {
                "-".into()
            } else {
                show_str(&n.firmware)
            },
            speed,
            nic_link(&n.pcie),
            show(n.numa_node, |x| x.to_string()),
        ]);
    }
    g
}

/// The ports: name, card, state, speed now, MAC.
pub fn port_grid(nics: &[crate::spec::Nic]) -> Grid {
    let mut g = Grid::new(&[
        names::NIC_PORT.label,
        names::NIC_PCI_ADDRESS.label,
        "State",
        names::NIC_PORT_SPEED.label,
        names::NIC_PORT_MAC.label,
    ]);
    for n in nics {
        for p in &n.ports {
            let speed = match (p.speed_mbps, &p.duplex) {
                (Some(s), Some(d)) => format!("{} {d}", crate::units::link_speed(s)),
                (Some(s), None) => crate::units::link_speed(s),
                (None, _) => show_str(&None),
            };
            let kind = if p.link_layer == "infiniband" {
                " (InfiniBand)"
            } else {
                ""
            };
            g.rows.push(vec![
                format!("{}{kind}", p.name),
                show_str(&p.function),
                show_str(&p.state),
                speed,
                show_str(&p.mac),
            ]);
        }
    }
    g
}

// Health.

/// Seconds of a count in nanoseconds, one decimal.
fn seconds(ns: u64) -> String {
    format!("{} s", (ns as f64 / 1e8).round() / 10.0)
}

/// Each drive's health as two tables of six columns, so that a terminal of 80 columns holds
/// every word whole: what it says of its wear (its warning, endurance used, hours, spare),
/// then what it has been through (power cycles, unsafe shutdowns, errors, temperature, data
/// written).
pub fn drive_health_grids(spec: &Spec) -> Vec<Grid> {
    let Some(h) = spec.health.as_ref() else {
        return Vec::new();
    };
    if h.drives.is_empty() {
        return Vec::new();
    }
    let mut wear = Grid::new(&[
        names::DRIVE_NAME.label,
        "Read from",
        "Warning",
        names::HEALTH_DRIVE_USED.label,
        names::HEALTH_DRIVE_HOURS.label,
        names::HEALTH_DRIVE_SPARE.label,
    ]);
    let mut life = Grid::new(&[
        names::DRIVE_NAME.label,
        names::HEALTH_DRIVE_CYCLES.label,
        names::HEALTH_DRIVE_UNSAFE.label,
        "Errors",
        names::HEALTH_DRIVE_TEMPERATURE.label,
        names::HEALTH_DRIVE_WRITTEN.label,
    ]);
    for d in &h.drives {
        let source = match (d.source.as_deref(), d.log.as_deref()) {
            (Some("nvme"), _) => "NVMe log".to_string(),
            (Some("ata"), _) => "ATA SMART".to_string(),
            (Some("hwmon"), _) => "hwmon (temperature only)".to_string(),
            _ => "not read".to_string(),
        };
        let warning = match (d.critical_warning, d.assessment.as_deref()) {
            (Some(0), _) => "none".to_string(),
            (Some(_), _) => d.critical_warnings.join(", "),
            (None, Some(a)) if d.failing_attributes.is_empty() => a.to_string(),
            (None, Some(a)) => format!("{a}: {}", d.failing_attributes.join("; ")),
            (None, None) => show::<u8>(None, |_| String::new()),
        };
        let errors = match (d.media_errors, d.reallocated_sectors) {
            (Some(m), _) => format!("{m} media, {} logged", num(d.error_log_entries)),
            (None, Some(r)) => format!(
                "{r} reallocated, {} pending, {} unreadable",
                num(d.pending_sectors),
                num(d.uncorrectable_sectors)
            ),
            (None, None) => show::<u8>(None, |_| String::new()),
        };
        let spare = match (
            d.available_spare_percent,
            d.available_spare_threshold_percent,
        ) {
            (Some(a), Some(t)) => format!("{a} % (threshold {t} %)"),
            (a, _) => show(a, |a| format!("{a} %")),
        };
        let written = match (d.data_written_bytes, d.total_lbas_written) {
            (Some(b), _) => bytes_dec(b),
            (None, Some(l)) => format!("{l} (attribute 241)"),
            (None, None) => show::<u8>(None, |_| String::new()),
        };
        wear.rows.push(vec![
            d.drive.clone(),
            source,
            warning,
            show(d.percentage_used, |u| format!("{u} %")),
            show(d.power_on_hours, |n| format!("{n} h")),
            spare,
        ]);
        life.rows.push(vec![
            d.drive.clone(),
            num(d.power_cycles),
            num(d.unsafe_shutdowns),
            errors,
            show(d.temperature_c, |t| format!("{t} °C")),
            written,
        ]);
    }
    for g in [&mut wear, &mut life] {
        g.whole_words = true;
    }
    vec![wear, life]
}

/// The memory controllers' counts in words: `0 corrected, 0 uncorrected (EDAC, 4
/// controllers)`.
pub fn memory_errors(spec: &Spec) -> String {
    let Some(h) = &spec.health else {
        return show::<u8>(None, |_| String::new());
    };
    let m = &h.memory;
    if m.source.is_none() {
        return show::<u8>(None, |_| String::new());
    }
    format!(
        "{} corrected, {} uncorrected (EDAC, {} controllers, since boot)",
        num(m.corrected_errors),
        num(m.uncorrected_errors),
        m.controllers.len()
    )
}

/// Each module EDAC counted errors for (or could not read the counts of), with its SMBIOS
/// slot where its label names one.
pub fn edac_dimm_grid(spec: &Spec) -> Option<Grid> {
    let h = spec.health.as_ref()?;
    let mut g = Grid::new(&[
        "Controller",
        "Module",
        "SMBIOS slot",
        "Corrected",
        "Uncorrected",
    ]);
    for c in &h.memory.controllers {
        // A module with nothing counted is only a row more: those that count show.
        for d in c
            .dimms
            .iter()
            .filter(|d| d.corrected_errors != Some(0) || d.uncorrected_errors != Some(0))
        {
            g.rows.push(vec![
                c.mc_name.clone().unwrap_or_else(|| c.name.clone()),
                d.label.clone().unwrap_or_else(|| d.name.clone()),
                show_str(&d.locator),
                num(d.corrected_errors),
                num(d.uncorrected_errors),
            ]);
        }
    }
    (!g.rows.is_empty()).then_some(g)
}

/// The AER counts of each watched function and port: one row each.
pub fn pcie_errors_grid(spec: &Spec) -> Option<Grid> {
    let h = spec.health.as_ref()?;
    if h.pcie.is_empty() {
        return None;
    }
    let mut g = Grid::new(&[
        "PCI address",
        "Of",
        "Link",
        names::HEALTH_PCIE_CORRECTABLE.label,
        names::HEALTH_PCIE_NONFATAL.label,
        names::HEALTH_PCIE_FATAL.label,
    ]);
    for p in &h.pcie {
        g.rows.push(vec![
            p.address.clone(),
            if p.port {
                format!("port above {}", p.of)
            } else {
                p.of.clone()
            },
            show_str(&p.link),
            num(p.correctable),
            num(p.nonfatal),
            num(p.fatal),
        ]);
    }
    Some(g)
}

/// Thermal throttling per package in words: `package 0: 0 core, 0 package events`.
pub fn cpu_throttling(spec: &Spec) -> String {
    let Some(h) = &spec.health else {
        return show::<u8>(None, |_| String::new());
    };
    if h.cpu.is_empty() {
        return show::<u8>(None, |_| String::new());
    }
    h.cpu
        .iter()
        .map(|t| {
            format!(
                "package {}: {} core, {} package events",
                t.package,
                num(t.core_events),
                num(t.package_events)
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

// GPUs.

/// What kind of fact a GPU row holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GpuKind {
    /// The board and where it sits: what a spec sheet lists.
    Model,
    /// Live state (temperature, use, power, errors): the report only.
    State,
    /// UUID and serial: different on every board, so a group of GPUs lists them apart.
    Identity,
}

/// The label of a GPU's driver and CUDA versions.
pub const GPU_DRIVER: &str = "Driver / CUDA";

/// One fact of a GPU as a row.
pub struct GpuRow {
    pub row: Row<Gpu>,
    pub kind: GpuKind,
}

const fn gpu(
    kind: GpuKind,
    label: &'static str,
    column: &'static str,
    cell: fn(&Gpu) -> String,
) -> GpuRow {
    GpuRow {
        row: Row {
            label,
            column,
            cell,
            only_if: None,
        },
        kind,
    }
}

/// The GPU's name, which the report puts in a section's title and the sheet in a row.
pub static GPU_NAME: Row<Gpu> = row(names::GPU_NAME, |g| show_str(&g.shown_name()));

fn link(gen: Option<u32>, w: Option<u32>) -> String {
    match (gen, w) {
        (Some(g), Some(w)) => format!("Gen{g} x{w}"),
        (None, Some(w)) => format!("x{w}"),
        (Some(g), None) => format!("Gen{g}"),
        (None, None) => show_str(&None),
    }
}

fn ordinal_gen(gen: u32) -> String {
    let suffix = match gen {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{gen}{suffix} gen")
}

/// The facts of a GPU in reading order: where it sits, the model, its state, its identity.
/// Datasheet-check, FP32-accumulate and MIG rows appear only when some GPU of `gpus` has
/// them; model facts say `(datasheet)` when they came from the product table.
pub fn gpu_rows(gpus: &[&Gpu]) -> Vec<GpuRow> {
    use GpuKind::{Identity, Model, State};
    let mut v = vec![
        gpu(Model, names::GPU_PCI_ADDRESS.label, "PCI address", |g| {
            show_str(&g.pci_address)
        }),
        gpu(
            Model,
            names::GPU_FACT_SOURCES.label,
            "Facts from",
            gpu_figures::facts_from,
        ),
    ];
    if gpus
        .iter()
        .any(|g| gpu_figures::datasheet_check(g).is_some())
    {
        v.push(gpu(
            Model,
            names::GPU_DATASHEET_CHECK.label,
            "Datasheet check",
            |g| gpu_figures::datasheet_check(g).unwrap_or_else(|| "-".into()),
        ));
    }
    v.extend([
        gpu(Model, names::GPU_ARCHITECTURE.label, "Architecture", |g| {
            mark(g, "architecture", show_str(&g.architecture))
        }),
        gpu(Model, names::GPU_COMPUTE_CAPABILITY.label, "Compute", |g| {
            mark(g, "compute_capability", show_str(&g.compute_capability))
        }),
        gpu(Model, names::GPU_SMS.label, "SMs", |g| {
            mark(g, "sm_count", num(g.sm_count))
        }),
        gpu(Model, names::GPU_CUDA_CORES.label, "CUDA cores", |g| {
            mark(g, "cuda_cores", num(g.cuda_cores))
        }),
        gpu(Model, names::GPU_TENSOR_CORES.label, "Tensor cores", |g| {
            let text = match (g.tensor_cores, g.tensor_core_generation) {
                (Some(0), _) => "none".into(),
                (Some(t), Some(gen)) => format!("{t} ({})", ordinal_gen(gen)),
                (t, _) => num(t),
            };
            mark(g, "tensor_cores", text)
        }),
        gpu(Model, names::GPU_MEMORY.label, "Memory", |g| {
            mark(g, "vram_bytes", show(g.vram_bytes, bytes_bin))
        }),
        gpu(Model, names::GPU_MEMORY_BUS.label, "Bus", |g| {
            let text = show(g.memory_bus_width_bits, |b| format!("{b}-bit"));
            mark(g, "memory_bus_width_bits", text)
        }),
        gpu(Model, names::GPU_MEMORY_BANDWIDTH.label, "Bandwidth", |g| {
            let text = show(g.memory_bandwidth_bytes_per_s, |b| {
                format!("{:.0} GB/s", b as f64 / 1e9)
            });
            mark(g, "memory_bandwidth_bytes_per_s", text)
        }),
        gpu(
            Model,
            names::GPU_RATED_CLOCK.label,
            "Rated boost",
            gpu_figures::rated_clock,
        ),
        gpu(Model, names::GPU_MAX_SM_CLOCK.label, "Max SM clock", |g| {
            show(g.max_sm_clock_mhz, mhz)
        }),
        gpu(
            Model,
            names::GPU_MAX_MEMORY_CLOCK.label,
            "Max mem clock",
            |g| show(g.max_memory_clock_mhz, mhz),
        ),
        gpu(Model, names::GPU_FP32.label, "FP32", gpu_figures::fp32),
        gpu(
            Model,
            names::GPU_FP16_TENSOR.label,
            "FP16 Tensor",
            gpu_figures::fp16_tensor,
        ),
    ]);
    if gpus.iter().any(|g| {
        g.fp16_tensor_fp32_acc_tflops.is_some()
            && g.fp16_tensor_fp32_acc_tflops != g.fp16_tensor_tflops
    }) {
        v.push(gpu(
            Model,
            names::GPU_FP16_TENSOR_FP32_ACC.label,
            "FP16 Tensor, FP32 acc",
            gpu_figures::fp16_tensor_fp32_acc,
        ));
    }
    v.extend([
        // Live (the generation drops at idle), but a link narrower than the card is a fault
        // of where the board sits, which a spec sheet shows too.
        gpu(Model, names::GPU_PCIE_NOW.label, "Link now", |g| {
            let now = link(g.pcie.gen, g.pcie.width);
            if crate::rules::link_gen_idle(g) {
                format!("{now} ({})", crate::rules::IDLE_LINK_GEN)
            } else {
                now
            }
        }),
        gpu(Model, names::GPU_PCIE_MAX.label, "Link max", |g| {
            link(g.pcie.max_gen, g.pcie.max_width)
        }),
        gpu(Model, names::GPU_NUMA_NODE.label, "NUMA", |g| {
            // -1: the kernel knows no node for the device.
            num(g.numa_node.filter(|n| *n >= 0))
        }),
        gpu(Model, names::GPU_SOCKET.label, "Socket", |g| num(g.socket)),
        gpu(Model, names::GPU_LOCAL_CPUS.label, "Local CPUs", |g| {
            show_str(&g.local_cpus)
        }),
        gpu(
            Model,
            names::GPU_BOARD_PART_NUMBER.label,
            "Board part",
            |g| show_str(&g.board_part_number),
        ),
        gpu(Model, names::GPU_VBIOS.label, "VBIOS", |g| {
            show_str(&g.vbios_version)
        }),
        gpu(Model, GPU_DRIVER, GPU_DRIVER, |g| {
            join_opt(&[&g.driver_version, &g.cuda_version])
        }),
    ]);
    if gpus
        .iter()
        .any(|g| g.mig_enabled.is_some() || !g.mig_instances.is_empty())
    {
        v.push(gpu(Model, names::GPU_MIG.label, "MIG", |g| {
            show(g.mig_enabled, |m| {
                if m { "enabled" } else { "disabled" }.to_string()
            })
        }));
    }
    v.extend([
        gpu(State, names::GPU_TEMPERATURE.label, "Temp", |g| {
            show(g.state.temperature_c, |t| format!("{t} °C"))
        }),
        gpu(State, names::GPU_FAN.label, "Fan", |g| {
            show(g.state.fan_percent, |f| format!("{f} %"))
        }),
        gpu(State, "Power", "Power", |g| {
            let s = &g.state;
            match (s.power_draw_w, s.power_limit_w) {
                (Some(d), Some(l)) => format!("{d:.0} W of {l:.0} W"),
                (d, _) => show(d, |d| format!("{d:.0} W")),
            }
        }),
        gpu(State, names::GPU_UTILIZATION.label, "Use", |g| {
            show(g.state.utilization_percent, |u| format!("{u} %"))
        }),
        gpu(State, names::GPU_MEMORY_USED.label, "Mem used", |g| {
            show(g.state.memory_used_bytes, bytes_bin)
        }),
        gpu(State, names::GPU_PERSISTENCE.label, "Persist", |g| {
            show(g.state.persistence_mode, on_off)
        }),
        // The mode with its error counts.
        gpu(State, "ECC", "ECC", |g| {
            let s = &g.state;
            match (
                s.ecc_enabled,
                s.ecc_errors_corrected,
                s.ecc_errors_uncorrected,
            ) {
                (Some(true), c, u) => {
                    format!("on, {} corrected, {} uncorrected", num(c), num(u))
                }
                (e, _, _) => show(e, on_off),
            }
        }),
        // What the board counts of its memory beyond the volatile ECC counts.
        gpu(State, "Memory health", "Mem health", |g| {
            let s = &g.state;
            if s.ecc_enabled != Some(true) {
                return show(s.ecc_enabled, |_| "no counts (ECC off)".into());
            }
            let mut parts = vec![format!(
                "lifetime {} corrected, {} uncorrected",
                num(s.ecc_errors_corrected_aggregate),
                num(s.ecc_errors_uncorrected_aggregate)
            )];
            if s.retired_pages_single_bit.is_some() || s.retired_pages_double_bit.is_some() {
                parts.push(format!(
                    "pages retired {} single-bit, {} double-bit",
                    num(s.retired_pages_single_bit),
                    num(s.retired_pages_double_bit)
                ));
            }
            if let (Some(c), Some(u)) = (s.remapped_rows_correctable, s.remapped_rows_uncorrectable)
            {
                let mut r = format!("rows remapped {c} correctable, {u} uncorrectable");
                if s.remapped_rows_pending == Some(true) {
                    r.push_str(", remap pending");
                }
                if s.remapped_rows_failure == Some(true) {
                    r.push_str(", a remap FAILED");
                }
                parts.push(r);
            }
            parts.join("; ")
        }),
        gpu(State, names::GPU_PCIE_REPLAYS.label, "Replays", |g| {
            num(g.state.pcie_replays)
        }),
        gpu(State, "Held down (heat, power)", "Held down", |g| {
            let s = &g.state;
            match (s.thermal_violation_ns, s.power_violation_ns) {
                (None, None) => show::<u8>(None, |_| String::new()),
                (t, p) => format!("{} heat, {} power", show(t, seconds), show(p, seconds)),
            }
        }),
        gpu(State, names::GPU_THROTTLE.label, "Throttle", |g| {
            show(g.state.throttle_reasons.clone(), |r| {
                if r.is_empty() {
                    "none".into()
                } else {
                    r.join(", ")
                }
            })
        }),
        gpu(State, names::GPU_PROCESSES.label, "Processes", |g| {
            show(g.state.compute_processes.as_ref(), |p| {
                if p.is_empty() {
                    "none".into()
                } else {
                    p.iter()
                        .map(|p| p.pid.to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            })
        }),
        gpu(Identity, names::GPU_UUID.label, "UUID", |g| {
            show_str(&g.uuid)
        }),
        gpu(Identity, names::GPU_SERIAL.label, "Serial", |g| {
            show_str(&g.serial)
        }),
    ]);
    if !gpus.iter().any(|g| g.is_nvidia()) {
        drm_rows(&mut v);
    }
    v
}

/// The rows of AMD and Intel GPUs: NVIDIA's own (CUDA and Tensor cores, SMs, the rated
/// peaks, NVML's clocks and driver) left out, the drm driver's facts in their place.
fn drm_rows(v: &mut Vec<GpuRow>) {
    const NVIDIA_ONLY: [&str; 24] = [
        names::GPU_MEMORY_BUS.label,
        names::GPU_MEMORY_BANDWIDTH.label,
        names::GPU_DATASHEET_CHECK.label,
        names::GPU_TEMPERATURE.label,
        names::GPU_FAN.label,
        names::GPU_THROTTLE.label,
        names::GPU_PROCESSES.label,
        names::GPU_MIG.label,
        names::GPU_UUID.label,
        names::GPU_SERIAL.label,
        "Power",
        names::GPU_FACT_SOURCES.label,
        names::GPU_COMPUTE_CAPABILITY.label,
        names::GPU_SMS.label,
        names::GPU_CUDA_CORES.label,
        names::GPU_TENSOR_CORES.label,
        names::GPU_RATED_CLOCK.label,
        names::GPU_MAX_SM_CLOCK.label,
        names::GPU_MAX_MEMORY_CLOCK.label,
        names::GPU_FP32.label,
        names::GPU_FP16_TENSOR.label,
        names::GPU_BOARD_PART_NUMBER.label,
        names::GPU_PERSISTENCE.label,
        "Driver / CUDA",
    ];
    v.retain(|r| !NVIDIA_ONLY.contains(&r.row.label) && r.row.label != "ECC");
    let at = v
        .iter()
        .position(|r| r.row.label == names::GPU_MEMORY.label)
        .map_or(0, |p| p + 1);
    let drm = [
        gpu(GpuKind::Model, names::GPU_VENDOR.label, "Vendor", |g| {
            g.vendor.as_str().to_string()
        }),
        gpu(
            GpuKind::Model,
            names::GPU_DRM_MAX_CLOCK.label,
            "Max core clock",
            |g| show(g.drm.as_ref().and_then(|d| d.max_core_clock_mhz), mhz),
        ),
        gpu(GpuKind::Model, names::GPU_DRM_DRIVER.label, "Driver", |g| {
            show_str(&g.drm.as_ref().and_then(|d| d.driver.clone()))
        }),
        gpu(
            GpuKind::State,
            names::GPU_DRM_CLOCK.label,
            "Core clock",
            |g| show(g.drm.as_ref().and_then(|d| d.core_clock_mhz), mhz),
        ),
    ];
    for (k, r) in drm.into_iter().enumerate() {
        v.insert((at + k).min(v.len()), r);
    }
}
