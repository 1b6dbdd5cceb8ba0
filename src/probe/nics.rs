//! Network adapters: every network PCI card and its ports, from /sys/class/net,
//! /sys/class/infiniband and the PCI bus, with ethtool's driver info and link modes.
//!
//! An adapter is a PCI card: the functions of one PCI device (`0000:5d:00.0` and `.1` of a
//! dual-port card) together, each function's interfaces its ports. Interfaces without a
//! device (lo, bridges, veth, bonds, tun/tap, docker's, ifb) are not adapters, and a bond's
//! members are listed once, as the ports they are; SR-IOV virtual functions are the card's
//! own ports seen again, so they are left out too. A virtio adapter is one: it has a PCI
//! function, and no link speed of its own. InfiniBand ports come from the RDMA class
//! (`ports/N/rate`, `state`); a network function without a bound driver is listed from the
//! PCI bus alone, its ports unknown.
//!
//! ethtool is asked through `sys::ethtool` (live only); a capture records its answers in
//! `ethtool.json` and a replay reads them from there. Where they are not recorded, the
//! fastest speed of a card comes from a table of well-known controllers (`max_speed_table`),
//! else it is unknown.

use std::collections::BTreeMap;

use serde_json::{json, Value};

use crate::probe::backend::Backend;
use crate::probe::pci::{is_pci_address, parse_hex, read_link, PCI_DEVICES};
use crate::probe::pci_names;
use crate::source::{Source, Unknown};
use crate::spec::{ListState, Listed, Nic, NicPort, Notes};

/// The recorded ethtool answers of a capture, by interface name.
pub const ETHTOOL_FILE: &str = "ethtool.json";
const NET: &str = "/sys/class/net";
const INFINIBAND: &str = "/sys/class/infiniband";

/// PCI vendor ids of hypervisors' adapters: virtio (Red Hat), VMware (vmxnet3), Xen,
/// Hyper-V.
const VIRTUAL_VENDORS: [u32; 4] = [0x1af4, 0x15ad, 0x5853, 0x1414];

/// One interface read from /sys/class/net, or an InfiniBand port.
#[derive(Debug, Clone)]
struct Found {
    port: NicPort,
    /// The netdev's own driver (`virtio_net`, `i40e`).
    driver: Option<String>,
    /// Why the speed now is unknown, where it is.
    speed_why: Option<String>,
    /// The rate an InfiniBand port reports (its speed now, Mb/s).
    ib_rate: bool,
    /// The HCA's firmware (`fw_ver`) for an InfiniBand port.
    firmware: Option<String>,
}

/// Lists the network adapters: unreadable with a note on the native backend (Windows and
/// macOS, which rigcheck does not ask for them) and where /sys/class/net cannot be listed;
/// partial while a PCI function could not be told from a network one.
pub fn probe(src: &Source, backend: &Backend, notes: &mut Notes) -> Listed<Nic> {
    if !backend.has_pci_tree() {
        notes.add(
            "nics",
            "network adapters are read from Linux's /sys/class/net; not read on this OS",
        );
        return Listed::unreadable();
    }
    let names = match src.read_dir(NET) {
        Ok(n) => n,
        Err(e) => {
            notes.add(
                "nics",
                format!("the network adapter list is unknown, not empty: {e}"),
            );
            return Listed::unreadable();
        }
    };
    let recorded = Ethtools::open(src);
    let mut ethtool = recorded;
    // Adapters by card (PCI domain:bus:device), or by interface for one on no PCI bus.
    let mut cards: BTreeMap<String, Card> = BTreeMap::new();
    let mut vfs = 0usize;
    for name in names {
        if name == "lo" {
            continue;
        }
        let dev = format!("{NET}/{name}/device");
        // No `device`: a bridge, veth, bond, tun, ifb, docker's ... (a software interface).
        let Ok(device) = src.canonical(&dev) else {
            continue;
        };
        let function = pci_function(&device);
        if let Some(f) = &function {
            if src.exists(format!("{PCI_DEVICES}/{f}/physfn")) {
                vfs += 1;
                continue;
            }
        }
        let found = read_interface(src, &name, function.clone());
        // An IPoIB interface (type 32) is the InfiniBand port the RDMA class lists.
        let is_ipoib = src
            .read_parse::<u32>(format!("{NET}/{name}/type"))
            .is_ok_and(|t| t == 32);
        let key = card_key(function.as_deref(), &name);
        let card = cards
            .entry(key)
            .or_insert_with(|| Card::new(function.clone()));
        if let Some(f) = &function {
            card.add_function(f);
        }
        if is_ipoib {
            card.ipoib.push(found);
        } else {
            card.ports.push(found);
        }
    }
    read_infiniband(src, &mut cards, notes);
    let mut state = ListState::Read;
    match unbound_network_functions(src, &cards) {
        Ok((functions, doubtful)) => {
            for f in functions {
                let key = card_key(Some(&f), &f);
                cards
                    .entry(key)
                    .or_insert_with(|| Card::new(Some(f.clone())))
                    .add_function(&f);
            }
            if !doubtful.is_empty() {
                state = ListState::Partial;
                notes.add(
                    "nics",
                    format!(
                        "the adapter list may be incomplete: {} PCI function(s) could not be told \
                         apart from a network one ({})",
                        doubtful.len(),
                        doubtful.join("; ")
                    ),
                );
            }
        }
        Err(e) => {
            // The interfaces were read; only adapters without a driver could be missing.
            if !e.is_not_found() {
                notes.add(
                    "nics",
                    format!("PCI devices not readable, so adapters without a driver are not listed: {e}"),
                );
                state = ListState::Partial;
            }
        }
    }
    if vfs > 0 {
        notes.add(
            "nics",
            format!(
                "{vfs} SR-IOV virtual function interface(s) not listed: they are ports of the \
                 cards listed, seen again"
            ),
        );
    }
    let host_ids = needs_host_ids(src, &cards)
        .then(|| pci_names::host_ids(src))
        .flatten();
    let mut nics: Vec<Nic> = Vec::new();
    for card in cards.into_values() {
        let i = nics.len();
        nics.push(card.into_nic(src, i, host_ids.as_deref(), &mut ethtool, notes));
    }
    ethtool.record(src);
    Listed { items: nics, state }
}

/// The interfaces and InfiniBand ports of one card, and its PCI functions.
#[derive(Debug)]
struct Card {
    first: Option<String>,
    functions: Vec<String>,
    ports: Vec<Found>,
    /// IPoIB interfaces, kept only when no InfiniBand port of the card is listed.
    ipoib: Vec<Found>,
}

impl Card {
    fn new(first: Option<String>) -> Card {
        Card {
            first,
            functions: Vec::new(),
            ports: Vec::new(),
            ipoib: Vec::new(),
        }
    }

    fn add_function(&mut self, f: &str) {
        if !self.functions.iter().any(|x| x == f) {
            self.functions.push(f.to_string());
            self.functions.sort();
        }
        self.first = self.functions.first().cloned();
    }

    fn into_nic(
        mut self,
        src: &Source,
        i: usize,
        host_ids: Option<&str>,
        ethtool: &mut Ethtools,
        notes: &mut Notes,
    ) -> Nic {
        if !self.ports.iter().any(|p| p.ib_rate) {
            self.ports.append(&mut self.ipoib);
        }
        self.ports.sort_by(|a, b| {
            (a.port.function.as_deref(), a.port.name.as_str())
                .cmp(&(b.port.function.as_deref(), b.port.name.as_str()))
        });
        let mut nic = Nic {
            pci_address: self.first.clone(),
            functions: self.functions.clone(),
            ..Nic::default()
        };
        let mut pci_driver = None;
        let mut ids = None;
        if let Some(f) = &self.first {
            let base = format!("{PCI_DEVICES}/{f}");
            let hex = |file: &str| {
                src.read_value(format!("{base}/{file}"))
                    .ok()
                    .and_then(|v| parse_hex(&v))
            };
            let (vendor, device) = (hex("vendor"), hex("device"));
            let subsystem = hex("subsystem_vendor").zip(hex("subsystem_device"));
            nic.vendor_id = vendor.map(|v| format!("0x{v:04x}"));
            nic.device_id = device.map(|d| format!("0x{d:04x}"));
            nic.subsystem_id = subsystem.map(|(v, d)| format!("{v:04x}:{d:04x}"));
            if let (Some(v), Some(d)) = (vendor, device) {
                let names = pci_names::lookup(host_ids, v, d, subsystem);
                nic.vendor = names.vendor;
                nic.name = names.device;
                nic.board = names.board;
                if nic.name.is_none() {
                    notes.add(
                        format!("nics[{i}].name"),
                        format!(
                            "PCI device {v:04x}:{d:04x} is in neither rigcheck's names nor this \
                             machine's pci.ids (update it: update-pciids)"
                        ),
                    );
                }
                nic.is_virtual = VIRTUAL_VENDORS.contains(&v);
                ids = Some((v, d));
            } else {
                notes.add(
                    format!("nics[{i}].name"),
                    format!("{base}/vendor or device is not readable, or not a PCI id"),
                );
            }
            pci_driver = driver_of(src, &format!("{base}/driver"));
            nic.numa_node = src
                .read_parse::<i32>(format!("{base}/numa_node"))
                .ok()
                .filter(|n| *n >= 0);
            let link = read_link(src, &base);
            if !link.is_empty() {
                nic.pcie = Some(link.to_pcie());
            }
        } else {
            notes.add(
                format!("nics[{i}].pci_address"),
                "no PCI function: the device is not one (a USB or platform adapter), or sysfs \
                 has no `device` link for it; no PCI ids or link",
            );
        }
        nic.driver = self
            .ports
            .iter()
            .find_map(|p| p.driver.clone())
            .or(pci_driver);
        if nic.driver.is_none() {
            notes.add(
                format!("nics[{i}].driver"),
                if self.ports.is_empty() {
                    "no driver is bound to the card, so its ports are not shown (`lspci -k` names \
                     the driver it needs; load it, or install its firmware)"
                } else {
                    "unknown: sysfs has no `driver` link for the card or its interfaces"
                },
            );
        }
        // ethtool: firmware and the link modes of each Ethernet port.
        let mut ethtool_why: Option<String> = None;
        for (k, p) in self.ports.iter_mut().enumerate() {
            if p.ib_rate {
                if nic.firmware.is_none() {
                    nic.firmware = p.firmware.clone();
                }
                continue;
            }
            match ethtool.ask(src, &p.port.name) {
                Ok(answer) => {
                    if nic.firmware.is_none() {
                        nic.firmware = answer.firmware.clone();
                    }
                    p.port.max_speed_mbps = answer.max_speed_mbps;
                }
                Err(why) => {
                    ethtool_why.get_or_insert(why);
                }
            }
            if p.port.speed_mbps.is_none() {
                let why = p.speed_why.clone().unwrap_or_else(|| "not given".into());
                let why = if nic.is_virtual {
                    format!(
                        "unknown: virtual NIC; {why}: a hypervisor's adapter has no link speed of \
                         its own (what it carries depends on the host)"
                    )
                } else {
                    format!("unknown: {why}")
                };
                notes.add(format!("nics[{i}].ports[{k}].speed_mbps"), why);
            }
            if p.port.mac.is_none() {
                notes.add(
                    format!("nics[{i}].ports[{k}].mac"),
                    format!("{NET}/{}/address is not readable", p.port.name),
                );
            }
        }
        if nic.firmware.is_none() && !self.ports.is_empty() {
            let why = match (&ethtool_why, nic.is_virtual) {
                (_, true) => {
                    "virtual NIC: a hypervisor's adapter has no firmware of its own".into()
                }
                (Some(w), false) => w.clone(),
                (None, false) => "the driver reports no firmware version".into(),
            };
            notes.add(format!("nics[{i}].firmware"), why);
        }
        if nic.pcie.is_none() && nic.pci_address.is_some() {
            notes.add(
                format!("nics[{i}].pcie"),
                "no PCIe link in sysfs (a VM's emulated bus, or not a PCIe device)",
            );
        }
        // The fastest the card supports: ethtool's link modes, an InfiniBand port's rate,
        // the table, else the speed a port runs at now (a floor).
        let by_ethtool = self
            .ports
            .iter()
            .filter_map(|p| p.port.max_speed_mbps)
            .max();
        let ib = self
            .ports
            .iter()
            .filter(|p| p.ib_rate)
            .filter_map(|p| p.port.speed_mbps)
            .max();
        let table = ids.and_then(|(v, d)| max_speed_table(v, d));
        let now = self.ports.iter().filter_map(|p| p.port.speed_mbps).max();
        let (max, source) = if let Some(m) = by_ethtool {
            (Some(m), Some("ethtool"))
        } else if let Some(m) = table {
            (Some(m), Some("table"))
        } else if let Some(m) = ib {
            (Some(m), Some("infiniband"))
        } else if let Some(m) = now {
            (Some(m), Some("link"))
        } else {
            (None, None)
        };
        nic.max_speed_mbps = max;
        nic.max_speed_source = source.map(str::to_string);
        match source {
            None => notes.add(
                format!("nics[{i}].max_speed_mbps"),
                match (&ethtool_why, nic.is_virtual) {
                    (_, true) => "unknown: virtual NIC; a hypervisor's adapter lists no link \
                                  modes"
                        .to_string(),
                    (Some(w), false) => format!(
                        "unknown: no link modes from ethtool ({w}), the controller is not in \
                         rigcheck's table, and no port has a link now"
                    ),
                    (None, false) => "unknown: the driver lists no link modes and the \
                                      controller is not in rigcheck's table"
                        .to_string(),
                },
            ),
            Some("table") => notes.add(
                format!("nics[{i}].max_speed_mbps"),
                format!(
                    "from rigcheck's table of well-known controllers (the vendor's product \
                     brief), not from the driver: {}",
                    ethtool_why.as_deref().unwrap_or("no link modes recorded")
                ),
            ),
            Some("link") => notes.add(
                format!("nics[{i}].max_speed_mbps"),
                "the speed a port runs at now: the card may do more (no link modes from \
                 ethtool, and the controller is not in rigcheck's table)",
            ),
            _ => {}
        }
        nic.ports = self.ports.into_iter().map(|p| p.port).collect();
        nic
    }
}

/// Whether any card's names are beyond the built-in excerpt (the host's pci.ids is read
/// only then: it is a megabyte).
fn needs_host_ids(src: &Source, cards: &BTreeMap<String, Card>) -> bool {
    cards.values().filter_map(|c| c.first.as_ref()).any(|f| {
        let base = format!("{PCI_DEVICES}/{f}");
        let hex = |file: &str| {
            src.read_value(format!("{base}/{file}"))
                .ok()
                .and_then(|v| parse_hex(&v))
        };
        match (hex("vendor"), hex("device")) {
            (Some(v), Some(d)) => {
                let sub = hex("subsystem_vendor").zip(hex("subsystem_device"));
                !pci_names::built_in_knows(v, d, sub)
            }
            _ => false,
        }
    })
}

/// `0000:5d:00` of function `0000:5d:00.1`: the card its functions share; an interface on
/// no PCI bus is a card of its own.
fn card_key(function: Option<&str>, interface: &str) -> String {
    match function {
        Some(f) => f.rsplit_once('.').map_or(f, |(card, _)| card).to_string(),
        None => format!("~{interface}"),
    }
}

/// The PCI function of an interface's device (its canonical sysfs path): the device itself
/// when it is a PCI function, its parent when it is a virtio device on one. A USB or
/// platform adapter has none.
fn pci_function(device: &std::path::Path) -> Option<String> {
    let name = device.file_name()?.to_str()?;
    if is_pci_address(name) {
        return Some(name.to_ascii_lowercase());
    }
    if name.starts_with("virtio") {
        let parent = device.parent()?.file_name()?.to_str()?;
        if is_pci_address(parent) {
            return Some(parent.to_ascii_lowercase());
        }
    }
    None
}

/// The name of the driver a `driver` link points at (`../../bus/pci/drivers/i40e`).
fn driver_of(src: &Source, link: &str) -> Option<String> {
    let target = src.read_link(link).ok()?;
    target
        .file_name()
        .and_then(|n| n.to_str())
        .map(str::to_string)
}

/// One interface of /sys/class/net as a port.
fn read_interface(src: &Source, name: &str, function: Option<String>) -> Found {
    let base = format!("{NET}/{name}");
    let value = |f: &str| src.read_value(format!("{base}/{f}"));
    let state = value("operstate").ok().filter(|s| !s.is_empty());
    // `speed` is Mb/s; -1 (SPEED_UNKNOWN) while the link is down or where the driver has
    // none, and reading it fails (EINVAL) on an interface that is down.
    let (speed_mbps, speed_why) = match value("speed") {
        Ok(v) => match v.parse::<i64>() {
            Ok(s) if s > 0 && s < 10_000_000 => (Some(s as u64), None),
            Ok(s) => (
                None,
                Some(match state.as_deref() {
                    Some("down") | Some("lowerlayerdown") => {
                        format!(
                            "the link is down (operstate {}), so it has no speed",
                            state.as_deref().unwrap_or("")
                        )
                    }
                    _ => format!("{base}/speed is {s} (SPEED_UNKNOWN)"),
                }),
            ),
            Err(_) => (None, Some(format!("{base}/speed is not a number: {v:?}"))),
        },
        Err(e) => (
            None,
            Some(match state.as_deref() {
                Some("down") => "the link is down (operstate down), so it has no speed".into(),
                _ => e.to_string(),
            }),
        ),
    };
    let duplex = value("duplex").ok().filter(|d| d == "full" || d == "half");
    let mac = value("address")
        .ok()
        .filter(|a| !a.is_empty() && a.chars().any(|c| c != '0' && c != ':'));
    Found {
        port: NicPort {
            name: name.to_string(),
            function,
            link_layer: "ethernet".into(),
            mac,
            state,
            speed_mbps,
            max_speed_mbps: None,
            duplex,
            mtu: value("mtu").ok().and_then(|m| m.parse().ok()),
        },
        driver: driver_of(src, &format!("{base}/device/driver")),
        speed_why,
        ib_rate: false,
        firmware: None,
    }
}

/// InfiniBand ports (the RDMA class): each port whose link layer is InfiniBand, with its
/// rate and state, on the card of its PCI function. Ports whose link layer is Ethernet
/// (RoCE) are the card's Ethernet interfaces, listed from /sys/class/net.
fn read_infiniband(src: &Source, cards: &mut BTreeMap<String, Card>, notes: &mut Notes) {
    let hcas = match src.read_dir(INFINIBAND) {
        Ok(h) => h,
        Err(Unknown::NotFound(_)) => return,
        Err(e) => {
            notes.add("nics", format!("InfiniBand ports not readable: {e}"));
            return;
        }
    };
    for hca in hcas {
        let base = format!("{INFINIBAND}/{hca}");
        // An HCA whose `device` link is missing is still one: listed by its name.
        let function = src
            .canonical(format!("{base}/device"))
            .ok()
            .and_then(|d| pci_function(&d));
        let firmware = src.read_value(format!("{base}/fw_ver")).ok();
        let Ok(ports) = src.read_dir(format!("{base}/ports")) else {
            continue;
        };
        for port in ports {
            let p = format!("{base}/ports/{port}");
            let layer = src.read_value(format!("{p}/link_layer")).ok();
            if layer
                .as_deref()
                .is_some_and(|l| l.eq_ignore_ascii_case("ethernet"))
            {
                continue;
            }
            let rate = src.read_value(format!("{p}/rate")).ok();
            let speed = rate.as_deref().and_then(parse_ib_rate);
            // `4: ACTIVE` → `active`.
            let state = src.read_value(format!("{p}/state")).ok().map(|s| {
                s.split_once(':')
                    .map_or(s.as_str(), |(_, w)| w)
                    .trim()
                    .to_ascii_lowercase()
            });
            let speed_why = match (&speed, &rate) {
                (Some(_), _) => None,
                (None, Some(r)) => Some(format!("{p}/rate is {r:?}, not a rate")),
                (None, None) => Some(format!("{p}/rate is not readable")),
            };
            let found = Found {
                port: NicPort {
                    name: format!("{hca}/{port}"),
                    function: function.clone(),
                    link_layer: "infiniband".into(),
                    mac: None,
                    state,
                    speed_mbps: speed,
                    max_speed_mbps: None,
                    duplex: None,
                    mtu: None,
                },
                driver: None,
                speed_why,
                ib_rate: true,
                firmware: firmware.clone(),
            };
            let key = card_key(function.as_deref(), &hca);
            let card = cards
                .entry(key)
                .or_insert_with(|| Card::new(function.clone()));
            if let Some(f) = &function {
                card.add_function(f);
            }
            card.ports.push(found);
        }
    }
}

/// `200 Gb/sec (4X HDR)`, `10 Gb/sec (4X)`, `2.5 Gb/sec (1X SDR)` → Mb/s.
pub fn parse_ib_rate(text: &str) -> Option<u64> {
    let mut words = text.split_whitespace();
    let n: f64 = words.next()?.parse().ok()?;
    let unit = words.next()?;
    let mult = match unit {
        "Gb/sec" | "Gb/s" => 1000.0,
        "Mb/sec" | "Mb/s" => 1.0,
        _ => return None,
    };
    let v = (n * mult).round();
    (v.is_finite() && v > 0.0).then_some(v as u64)
}

/// Network-class PCI functions (class 0x02) that no interface of `cards` covers: cards
/// without a bound driver. Also the functions whose class file is not a class (the list
/// may lack one). `Err` when the PCI bus cannot be listed.
fn unbound_network_functions(
    src: &Source,
    cards: &BTreeMap<String, Card>,
) -> Result<(Vec<String>, Vec<String>), Unknown> {
    let mut out = Vec::new();
    let mut doubtful = Vec::new();
    for addr in src.read_dir(PCI_DEVICES)? {
        let addr = addr.to_ascii_lowercase();
        let base = format!("{PCI_DEVICES}/{addr}");
        let class = match src.read_value(format!("{base}/class")) {
            Ok(v) => match parse_hex(&v) {
                Some(c) => c,
                None => {
                    doubtful.push(format!("{base}/class is not a PCI class: {v:?}"));
                    continue;
                }
            },
            // A capture keeps only the files the probes read.
            Err(Unknown::NotFound(_)) => continue,
            Err(e) => {
                doubtful.push(e.to_string());
                continue;
            }
        };
        // 0x02xxxx network controllers; InfiniBand HCAs are 0x0207, Ethernet 0x0200.
        if class >> 16 != 0x02 {
            continue;
        }
        if cards.values().any(|c| c.functions.contains(&addr)) {
            continue;
        }
        if src.exists(format!("{base}/physfn")) {
            continue;
        }
        out.push(addr);
    }
    Ok((out, doubtful))
}

/// The fastest Ethernet speed of well-known controllers, Mb/s, where ethtool's answer is
/// not recorded. Each row is the controller's own top speed as its vendor's product brief
/// or datasheet gives it (Intel Ethernet Controller X710/XXV710/XL710, E810, X550, X540,
/// 82599 datasheets; NVIDIA ConnectX product briefs; Broadcom NetXtreme-E product briefs;
/// Marvell AQtion), keyed by the PCI ids pci.ids gives those controllers.
pub fn max_speed_table(vendor: u32, device: u32) -> Option<u64> {
    const G: u64 = 1000;
    Some(match (vendor, device) {
        // Intel.
        (0x8086, 0x10fb | 0x10f8 | 0x1557 | 0x154d | 0x10fc | 0x151c) => 10 * G, // 82599
        (0x8086, 0x1528 | 0x1560) => 10 * G,                                     // X540
        (0x8086, 0x1563 | 0x15d1) => 10 * G,                                     // X550
        (0x8086, 0x1572 | 0x1581 | 0x1589 | 0x15ff) => 10 * G,                   // X710
        (0x8086, 0x37d0 | 0x37d2 | 0x37d3) => 10 * G,                            // X722
        (0x8086, 0x158a | 0x158b) => 25 * G,                                     // XXV710
        (0x8086, 0x1580 | 0x1583 | 0x1584) => 40 * G,                            // XL710
        (0x8086, 0x1591 | 0x1592) => 100 * G,                                    // E810-C
        (0x8086, 0x1593 | 0x159b) => 25 * G, // E810-C SFP, E810-XXV
        (0x8086, 0x15f2 | 0x15f3 | 0x125b | 0x125c) => 2500, // I225, I226
        (0x8086, 0x1521 | 0x1522 | 0x1523 | 0x1533 | 0x1536 | 0x1537 | 0x1539 | 0x10d3) => G,
        // NVIDIA (Mellanox) ConnectX, Ethernet speeds.
        (0x15b3, 0x1003 | 0x1007) => 56 * G,  // ConnectX-3 (Pro)
        (0x15b3, 0x1013) => 100 * G,          // ConnectX-4
        (0x15b3, 0x1015) => 25 * G,           // ConnectX-4 Lx
        (0x15b3, 0x1017 | 0x1019) => 100 * G, // ConnectX-5 (Ex)
        (0x15b3, 0x101b) => 200 * G,          // ConnectX-6
        (0x15b3, 0x101d) => 200 * G,          // ConnectX-6 Dx
        (0x15b3, 0x101f) => 50 * G,           // ConnectX-6 Lx
        (0x15b3, 0x1021) => 400 * G,          // ConnectX-7
        (0x15b3, 0x1023) => 800 * G,          // ConnectX-8
        // Broadcom NetXtreme.
        (0x14e4, 0x1657 | 0x165f | 0x1639) => G, // BCM5719, BCM5720, BCM5709
        (0x14e4, 0x16d6 | 0x16d8 | 0x16d9) => 10 * G, // BCM57412, BCM57416, BCM57417
        (0x14e4, 0x16d7) => 25 * G,              // BCM57414
        (0x14e4, 0x1750) => 200 * G,             // BCM57508
        // Marvell (Aquantia) AQtion, Realtek.
        (0x1d6a, 0x07b1 | 0xd107 | 0x04c0) => 10 * G,
        (0x10ec, 0x8168) => G,
        (0x10ec, 0x8125) => 2500,
        _ => return None,
    })
}

/// The fastest speed a link-mode bitmap (`ETHTOOL_LINK_MODE_*_BIT`, linux/ethtool.h, 32
/// bits a word) lists, Mb/s.
pub fn max_link_mode_speed(words: &[u32]) -> Option<u64> {
    (0..words.len() * 32)
        .filter(|&bit| words[bit / 32] >> (bit % 32) & 1 == 1)
        .filter_map(link_mode_speed)
        .max()
}

/// The speed of one link-mode bit, Mb/s; `None` for the bits that name no speed (ports,
/// pause, FEC, autoneg).
fn link_mode_speed(bit: usize) -> Option<u64> {
    Some(match bit {
        0 | 1 | 92 | 99..=102 => 10,
        2 | 3 | 67 | 90 | 91 => 100,
        4 | 5 | 17 | 41 | 68 => 1_000,
        15 | 47 => 2_500,
        48 => 5_000,
        12 | 18..=20 | 42..=46 => 10_000,
        21 | 22 => 20_000,
        31..=33 => 25_000,
        23..=26 => 40_000,
        34 | 35 | 40 | 52..=56 => 50_000,
        27..=30 => 56_000,
        36..=39 | 57..=61 | 75..=79 => 100_000,
        62..=66 | 80..=84 | 103..=108 => 200_000,
        69..=73 | 85..=89 | 109..=114 => 400_000,
        93..=98 | 115..=120 => 800_000,
        _ => return None,
    })
}

/// What ethtool said of one interface, as rigcheck keeps it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Answer {
    firmware: Option<String>,
    max_speed_mbps: Option<u64>,
}

/// `ethtool.json`: ethtool's answers for each network interface, as `capture` records them
/// (a replay reads them back; `parse_answer` takes what it needs of each).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct EthtoolFile {
    /// By interface name (`eth0`).
    pub interfaces: BTreeMap<String, EthtoolRecord>,
}

/// One interface's answers: each call's, or why it had none.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct EthtoolRecord {
    /// `ETHTOOL_GDRVINFO`.
    pub driver_info: Answered<DriverInfoRecord>,
    /// `ETHTOOL_GLINKSETTINGS`.
    pub link_modes: Answered<LinkModesRecord>,
}

/// A call's answer, or `{"error": why}`.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
#[serde(untagged)]
pub enum Answered<T> {
    Error {
        /// Why the call gave no answer.
        error: String,
    },
    Answer(T),
}

/// `struct ethtool_drvinfo`'s strings; an empty one is `null`.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct DriverInfoRecord {
    pub driver: Option<String>,
    pub version: Option<String>,
    pub firmware: Option<String>,
    pub bus_info: Option<String>,
}

/// The link's speed now and the link modes the port supports.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct LinkModesRecord {
    /// Mb/s; `null` for SPEED_UNKNOWN (no link).
    pub speed_mbps: Option<u64>,
    /// The supported link-mode bitmap, 32 bits a word as `0x` hex (bit N is
    /// `ETHTOOL_LINK_MODE_*_BIT` N of linux/ethtool.h).
    pub supported: Vec<String>,
}

impl EthtoolRecord {
    fn of(e: crate::sys::Ethtool) -> EthtoolRecord {
        EthtoolRecord {
            driver_info: match e.driver_info {
                Ok(d) => Answered::Answer(DriverInfoRecord {
                    driver: d.driver,
                    version: d.version,
                    firmware: d.firmware,
                    bus_info: d.bus_info,
                }),
                Err(error) => Answered::Error { error },
            },
            link_modes: match e.link_modes {
                Ok(l) => Answered::Answer(LinkModesRecord {
                    speed_mbps: l.speed_mbps.map(u64::from),
                    supported: l.supported.iter().map(|w| format!("0x{w:08x}")).collect(),
                }),
                Err(error) => Answered::Error { error },
            },
        }
    }
}

/// ethtool's answers: asked live (and kept for `capture`), or replayed from `ethtool.json`.
enum Ethtools {
    Live(BTreeMap<String, Value>),
    Recorded(Result<BTreeMap<String, Value>, String>),
}

impl Ethtools {
    fn open(src: &Source) -> Ethtools {
        if src.is_live() {
            return Ethtools::Live(BTreeMap::new());
        }
        Ethtools::Recorded(match src.recorded(ETHTOOL_FILE) {
            Ok(text) => serde_json::from_str::<Value>(&text)
                .map_err(|e| format!("{ETHTOOL_FILE} is not JSON: {e}"))
                .and_then(|v| match v.get("interfaces").and_then(Value::as_object) {
                    Some(m) => Ok(m.iter().map(|(k, v)| (k.clone(), v.clone())).collect()),
                    None => Err(format!("{ETHTOOL_FILE} has no \"interfaces\" object")),
                }),
            Err(Unknown::NotRecorded(_)) => Err(format!(
                "ethtool's answers are not recorded in this sysroot (no {ETHTOOL_FILE})"
            )),
            Err(e) => Err(e.to_string()),
        })
    }

    /// The answer for `interface`, or why there is none.
    fn ask(&mut self, _src: &Source, interface: &str) -> Result<Answer, String> {
        let entry = match self {
            Ethtools::Live(asked) => {
                let v = serde_json::to_value(EthtoolRecord::of(crate::sys::ethtool(interface)))
                    .unwrap_or(Value::Null);
                asked.insert(interface.to_string(), v.clone());
                v
            }
            Ethtools::Recorded(Ok(m)) => match m.get(interface) {
                Some(v) => v.clone(),
                None => return Err(format!("ethtool's answer for {interface} is not recorded")),
            },
            Ethtools::Recorded(Err(why)) => return Err(why.clone()),
        };
        parse_answer(&entry)
    }

    /// Stores the live answers for `capture`.
    fn record(&self, src: &Source) {
        if let Ethtools::Live(asked) = self {
            if src.is_recording() {
                let v = json!({ "interfaces": asked });
                src.store_answer(
                    ETHTOOL_FILE,
                    serde_json::to_string_pretty(&v).unwrap_or_default(),
                );
            }
        }
    }
}

/// One interface's recorded answer: the firmware of the driver info, and the fastest of the
/// supported link modes. An answer with neither says why.
fn parse_answer(v: &Value) -> Result<Answer, String> {
    let info = v.get("driver_info");
    let modes = v.get("link_modes");
    let firmware = info
        .and_then(|i| i.get("firmware"))
        .and_then(Value::as_str)
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "N/A")
        .map(str::to_string);
    let words: Option<Vec<u32>> = modes
        .and_then(|m| m.get("supported"))
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|w| w.as_str().and_then(parse_hex))
                .collect()
        });
    let max = words.as_deref().and_then(max_link_mode_speed);
    if firmware.is_none() && max.is_none() {
        let err = |x: Option<&Value>| {
            x.and_then(|x| x.get("error"))
                .and_then(Value::as_str)
                .map(str::to_string)
        };
        if let Some(e) = err(info).or_else(|| err(modes)) {
            return Err(format!("ethtool: {e}"));
        }
    }
    Ok(Answer {
        firmware,
        max_speed_mbps: max,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ib_rates_as_the_kernel_writes_them() {
        // node_exporter's fixture of an mlx4 HCA and procfs's of an Omni-Path one.
        assert_eq!(parse_ib_rate("10 Gb/sec (4X)"), Some(10_000));
        assert_eq!(parse_ib_rate("200 Gb/sec (4X HDR)"), Some(200_000));
        assert_eq!(parse_ib_rate("2.5 Gb/sec (1X SDR)"), Some(2_500));
        assert_eq!(parse_ib_rate("garbage"), None);
    }

    #[test]
    fn link_modes_give_the_fastest_speed() {
        // 10000baseT_Full (bit 12) and 1000baseT_Full (bit 5), as an X550's supported mask.
        assert_eq!(max_link_mode_speed(&[(1 << 12) | (1 << 5)]), Some(10_000));
        // 25000baseSR_Full (33) sits in the second word.
        assert_eq!(max_link_mode_speed(&[1 << 5, 1 << 1]), Some(25_000));
        // 200000baseCR4_Full (66) in the third.
        assert_eq!(max_link_mode_speed(&[0, 0, 1 << 2]), Some(200_000));
        // Only port and pause bits: no speed.
        assert_eq!(max_link_mode_speed(&[(1 << 7) | (1 << 13)]), None);
        assert_eq!(max_link_mode_speed(&[]), None);
    }

    #[test]
    fn a_recorded_virtio_answer_has_no_speed() {
        // What this project's VM answered for its virtio_net eth0.
        let v = serde_json::json!({
            "driver_info": {"driver": "virtio_net", "version": "1.0.0", "firmware": null,
                            "bus_info": "0000:00:03.0"},
            "link_modes": {"speed_mbps": null, "supported": ["0x00000000", "0x00000000",
                                                             "0x00000000"]}
        });
        assert_eq!(parse_answer(&v), Ok(Answer::default()));
        let e = serde_json::json!({"driver_info": {"error": "Operation not supported"},
                                   "link_modes": {"error": "Operation not supported"}});
        assert!(parse_answer(&e).unwrap_err().contains("not supported"));
    }

    #[test]
    fn cards_group_their_functions() {
        assert_eq!(card_key(Some("0000:5d:00.1"), "eno6"), "0000:5d:00");
        assert_eq!(card_key(None, "usb0"), "~usb0");
        let p = std::path::Path::new("/sys/devices/pci0000:00/0000:00:03.0/virtio2");
        assert_eq!(pci_function(p).as_deref(), Some("0000:00:03.0"));
        let usb = std::path::Path::new("/sys/devices/pci0000:00/0000:00:14.0/usb2/2-1/2-1:1.0");
        assert_eq!(pci_function(usb), None);
    }

    #[test]
    fn well_known_controllers() {
        assert_eq!(max_speed_table(0x8086, 0x1572), Some(10_000));
        assert_eq!(max_speed_table(0x15b3, 0x101b), Some(200_000));
        assert_eq!(max_speed_table(0x1af4, 0x1041), None);
    }
}
