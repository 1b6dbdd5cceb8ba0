//! System probe: identity (/sys/class/dmi/id, or the SMBIOS records through `smbios`'s
//! decoders), OS, kernel, hostname, capture time, and the hypervisor's name.

use std::collections::BTreeMap;

use crate::probe::backend::Backend;
use crate::probe::cpuid::Cpuid;
use crate::probe::firmware::{Missing, Smbios};
use crate::probe::smbios::{self, is_placeholder, Text};
use crate::source::{Source, Unknown, CAPTURE_FILE};
use crate::spec::{Cpu, Notes, Os, System};
use crate::text::clip;

const DMI_ID: &str = "/sys/class/dmi/id";

/// What the system probe returns: the `system` and `os` sections plus top-level facts.
#[derive(Debug, Default)]
pub struct SystemFacts {
    pub system: System,
    pub os: Os,
    pub hostname: Option<String>,
    pub captured_at: Option<String>,
}

/// The capture's own facts (`capture.json` in a sysroot).
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
pub struct CaptureMeta {
    /// RFC 3339 time of the capture.
    pub captured_at: Option<String>,
    /// `uname -m` of the captured machine.
    pub arch: Option<String>,
    /// rigcheck version that made the capture.
    pub rigcheck_version: Option<String>,
    /// Files the capturing user could not read (root-only), so replay says "needs root".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unreadable: Vec<String>,
}

/// Reads the capture time and, as the backend has them, the identity, OS, kernel and host
/// name: /sys/class/dmi/id, os-release and /proc (files), or the OS's answers with the
/// identity from the SMBIOS table (native: Windows' RSMB data, where there is one).
pub fn probe(
    src: &Source,
    backend: &Backend,
    smbios: Result<&Smbios<'_>, &Missing>,
    notes: &mut Notes,
) -> SystemFacts {
    let meta = read_capture_meta(src, notes);
    let captured_at = capture_time(src, meta.as_ref(), notes);
    match backend {
        Backend::Files => SystemFacts {
            os: read_os(src, meta, notes),
            hostname: notes.take("hostname", src.read_value("/proc/sys/kernel/hostname")),
            system: read_dmi(src, notes),
            captured_at,
        },
        Backend::Native(answers) => {
            if answers.os.hostname.is_none() {
                notes.add("hostname", answers.why_missing("hostname"));
            }
            SystemFacts {
                os: answers.os_facts(notes),
                hostname: answers.os.hostname.clone(),
                system: smbios_identity(smbios, notes),
                captured_at,
            }
        }
    }
}

/// os-release, the kernel's release, and the machine's architecture (uname live, the
/// capture's record in replay).
fn read_os(src: &Source, meta: Option<CaptureMeta>, notes: &mut Notes) -> Os {
    let arch = if src.is_live() {
        crate::sys::machine()
    } else {
        meta.and_then(|m| m.arch)
    };
    if arch.is_none() {
        let why = if src.is_live() {
            "uname(2) gave no machine name (or this OS has no uname)"
        } else {
            "not recorded: this sysroot has no capture.json"
        };
        notes.add("os.arch", why);
    }
    let mut os = read_os_release(src, notes);
    os.arch = arch;
    os.kernel = notes.take("os.kernel", src.read_value("/proc/sys/kernel/osrelease"));
    os
}

/// Now, live; the recorded time in replay (with a note when there is none).
fn capture_time(src: &Source, meta: Option<&CaptureMeta>, notes: &mut Notes) -> Option<String> {
    if src.is_live() {
        Some(now_rfc3339())
    } else {
        let t = meta.and_then(|m| m.captured_at.clone());
        if t.is_none() {
            notes.add(
                "captured_at",
                "not recorded: this sysroot was not made by `rigcheck capture`",
            );
        }
        t
    }
}

/// System identity from SMBIOS types 0 (BIOS), 1 (system), 2 (board) and 3 (chassis), as
/// `smbios`'s decoders read them: the same strings Linux shows under /sys/class/dmi/id;
/// placeholders are unknown with a note.
fn smbios_identity(smbios: Result<&Smbios<'_>, &Missing>, notes: &mut Notes) -> System {
    let s = match smbios {
        Ok(s) => s,
        Err(missing) => {
            notes.add("system", missing.to_string());
            return System::default();
        }
    };
    let t = &s.table;
    let bios = t.of_type(0).next().map(smbios::decode_bios);
    let sys = t
        .of_type(1)
        .next()
        .map(|r| smbios::decode_system(r, Some(s.entry_point)));
    let board = t.of_type(2).next().map(smbios::decode_board);
    let origin = s.origin;
    let mut field = |name: &str, kind: u8, text: Option<&Text>| -> Option<String> {
        let why = match text {
            Some(Text::Value(v)) => return Some(v.clone()),
            None => format!("the SMBIOS table {origin} has no type-{kind} record"),
            Some(Text::Blank) => format!("empty in SMBIOS type {kind}: the firmware left it blank"),
            Some(Text::Placeholder(v)) => {
                format!("firmware placeholder '{v}' in SMBIOS type {kind}")
            }
            Some(Text::NotSupplied) => format!("not supplied by the firmware (SMBIOS type {kind})"),
        };
        notes.add(name, why);
        None
    };
    let system = System {
        vendor: field("system.vendor", 1, sys.as_ref().map(|r| &r.manufacturer)),
        product: field("system.product", 1, sys.as_ref().map(|r| &r.product)),
        version: field("system.version", 1, sys.as_ref().map(|r| &r.version)),
        serial: field("system.serial", 1, sys.as_ref().map(|r| &r.serial)),
        sku: field("system.sku", 1, sys.as_ref().map(|r| &r.sku)),
        family: field("system.family", 1, sys.as_ref().map(|r| &r.family)),
        board_vendor: field(
            "system.board_vendor",
            2,
            board.as_ref().map(|r| &r.manufacturer),
        ),
        board_name: field("system.board_name", 2, board.as_ref().map(|r| &r.product)),
        board_version: field(
            "system.board_version",
            2,
            board.as_ref().map(|r| &r.version),
        ),
        board_serial: field("system.board_serial", 2, board.as_ref().map(|r| &r.serial)),
        bios_vendor: field("system.bios_vendor", 0, bios.as_ref().map(|r| &r.vendor)),
        bios_version: field("system.bios_version", 0, bios.as_ref().map(|r| &r.version)),
        bios_date: field(
            "system.bios_date",
            0,
            bios.as_ref().map(|r| &r.release_date),
        ),
        uuid: None,
        chassis_type: None,
        virtualization: None,
    };
    let uuid = sys.and_then(|r| r.uuid);
    if uuid.is_none() {
        notes.add(
            "system.uuid",
            "the SMBIOS system record has no UUID (all 0 or all FF)",
        );
    }
    let kind = t
        .of_type(3)
        .next()
        .and_then(|r| smbios::decode_chassis(r).kind);
    // Code 2 ("Unknown", what virtual firmware such as Wine's says) and the invalid 0 are the
    // firmware saying it does not know: no type, and a note.
    let unknown = |k: u8| k == 0 || k == 2;
    let chassis = kind.filter(|&k| !unknown(k)).map(chassis_name);
    match kind {
        None => notes.add(
            "system.chassis_type",
            "the SMBIOS table has no chassis record",
        ),
        Some(k) if unknown(k) => notes.add(
            "system.chassis_type",
            format!(
                "the firmware gives no chassis type (SMBIOS chassis code {k}, \"{}\")",
                chassis_name(k)
            ),
        ),
        Some(_) => {}
    }
    System {
        uuid,
        chassis_type: chassis,
        ..system
    }
}

/// Current time, RFC 3339 in UTC at second precision.
pub fn now_rfc3339() -> String {
    let ts = jiff::Timestamp::now();
    ts.round(jiff::Unit::Second)
        .map(|t| t.to_string())
        .unwrap_or_else(|_| ts.to_string())
}

fn read_capture_meta(src: &Source, notes: &mut Notes) -> Option<CaptureMeta> {
    if src.is_live() {
        return None;
    }
    match src.recorded(CAPTURE_FILE) {
        Ok(text) => match serde_json::from_str::<CaptureMeta>(&text) {
            Ok(m) => Some(m),
            Err(e) => {
                notes.add(
                    "captured_at",
                    Unknown::unparsable(format!("/{CAPTURE_FILE}"), e.to_string()),
                );
                None
            }
        },
        Err(Unknown::NotRecorded(_)) => None,
        Err(e) => {
            notes.add("captured_at", e);
            None
        }
    }
}

fn read_os_release(src: &Source, notes: &mut Notes) -> Os {
    let text = match src.read_string("/etc/os-release") {
        Ok(t) => Ok(t),
        Err(Unknown::NotFound(_)) => src.read_string("/usr/lib/os-release"),
        Err(e) => Err(e),
    };
    match text {
        Ok(t) => {
            let kv = parse_os_release(&t);
            Os {
                name: kv.get("NAME").cloned(),
                version: kv.get("VERSION_ID").cloned(),
                pretty_name: kv.get("PRETTY_NAME").cloned(),
                ..Os::default()
            }
        }
        Err(e) => {
            notes.add("os.name", e);
            Os::default()
        }
    }
}

/// Parses os-release(5): `KEY=value` lines, optional single or double quotes, `#` comments.
pub fn parse_os_release(text: &str) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let Some((k, v)) = line.split_once('=') else {
            continue;
        };
        let v = v.trim();
        let v = v
            .strip_prefix('"')
            .and_then(|v| v.strip_suffix('"'))
            .or_else(|| v.strip_prefix('\'').and_then(|v| v.strip_suffix('\'')))
            .unwrap_or(v);
        let v = v.replace("\\\"", "\"").replace("\\\\", "\\");
        if !v.is_empty() {
            out.insert(k.trim().to_string(), v);
        }
    }
    out
}

fn read_dmi(src: &Source, notes: &mut Notes) -> System {
    if !src.exists(DMI_ID) {
        notes.add(
            "system",
            format!(
                "{DMI_ID} is not present: no DMI/SMBIOS tables (virtual machine without \
                 SMBIOS, or non-x86 firmware)"
            ),
        );
        return System::default();
    }
    let mut field = |name: &str, file: &str| -> Option<String> {
        let path = format!("{DMI_ID}/{file}");
        match src.read_value(&path) {
            Ok(v) if is_placeholder(&v) => {
                if v.is_empty() {
                    notes.add(name, format!("{path} is empty: the firmware left it blank"));
                } else {
                    notes.add(name, format!("firmware placeholder '{v}' in {path}"));
                }
                None
            }
            Ok(v) => Some(v),
            Err(Unknown::NotFound(_)) => {
                notes.add(
                    name,
                    format!("not supplied by the firmware ({path} is absent)"),
                );
                None
            }
            Err(e @ Unknown::PermissionDenied(_)) => {
                notes.add(name, format!("{e}; run rigcheck as root to read it"));
                None
            }
            Err(e) => {
                notes.add(name, e);
                None
            }
        }
    };
    let chassis_code = field("system.chassis_type", "chassis_type");
    let mut bad_chassis = None;
    let chassis_type = chassis_code.and_then(|c| match c.parse::<u8>() {
        Ok(code) => Some(chassis_name(code)),
        Err(_) => {
            bad_chassis = Some(format!(
                "cannot parse {DMI_ID}/chassis_type: '{}'",
                clip(&c)
            ));
            None
        }
    });
    let system = System {
        vendor: field("system.vendor", "sys_vendor"),
        product: field("system.product", "product_name"),
        version: field("system.version", "product_version"),
        family: field("system.family", "product_family"),
        sku: field("system.sku", "product_sku"),
        serial: field("system.serial", "product_serial"),
        uuid: field("system.uuid", "product_uuid"),
        board_vendor: field("system.board_vendor", "board_vendor"),
        board_name: field("system.board_name", "board_name"),
        board_version: field("system.board_version", "board_version"),
        board_serial: field("system.board_serial", "board_serial"),
        bios_vendor: field("system.bios_vendor", "bios_vendor"),
        bios_version: field("system.bios_version", "bios_version"),
        bios_date: field("system.bios_date", "bios_date"),
        chassis_type,
        virtualization: None,
    };
    if let Some(why) = bad_chassis {
        notes.add("system.chassis_type", why);
    }
    system
}

/// SMBIOS 7.4.1 chassis type names (the kernel prints the decimal code).
pub fn chassis_name(code: u8) -> String {
    const NAMES: [&str; 37] = [
        "",
        "Other",
        "Unknown",
        "Desktop",
        "Low Profile Desktop",
        "Pizza Box",
        "Mini Tower",
        "Tower",
        "Portable",
        "Laptop",
        "Notebook",
        "Hand Held",
        "Docking Station",
        "All in One",
        "Sub Notebook",
        "Space-saving",
        "Lunch Box",
        "Main Server Chassis",
        "Expansion Chassis",
        "Sub Chassis",
        "Bus Expansion Chassis",
        "Peripheral Chassis",
        "RAID Chassis",
        "Rack Mount Chassis",
        "Sealed-case PC",
        "Multi-system",
        "CompactPCI",
        "AdvancedTCA",
        "Blade",
        "Blade Enclosure",
        "Tablet",
        "Convertible",
        "Detachable",
        "IoT Gateway",
        "Embedded PC",
        "Mini PC",
        "Stick PC",
    ];
    match NAMES.get(usize::from(code & 0x7f)) {
        Some(n) if !n.is_empty() => (*n).to_string(),
        _ => format!("type {code}"),
    }
}

/// Names the hypervisor when the CPU says it runs under one: CPUID leaf 0x40000000's
/// signature (live or recorded), else the DMI vendor, else "unknown hypervisor".
pub fn detect_virtualization(cpuid: &Cpuid, cpu: &Cpu, system: &System) -> Option<String> {
    if !cpu.flags.iter().any(|f| f == "hypervisor") {
        return None;
    }
    if let Ok([_, b, c, d]) = cpuid.leaf(0x4000_0000, 0) {
        let bytes: Vec<u8> = [b, c, d].iter().flat_map(|r| r.to_le_bytes()).collect();
        let sig = String::from_utf8_lossy(&bytes)
            .trim_matches(char::from(0))
            .trim()
            .to_string();
        let name = match sig.as_str() {
            "KVMKVMKVM" => "KVM",
            "Microsoft Hv" => "Microsoft Hyper-V",
            "VMwareVMware" => "VMware",
            "XenVMMXenVMM" => "Xen",
            "TCGTCGTCGTCG" => "QEMU (TCG)",
            "VBoxVBoxVBox" => "VirtualBox",
            " lrpepyh  vr" | "lrpepyh  vr" => "Parallels",
            "ACRNACRNACRN" => "ACRN",
            "bhyve bhyve" => "bhyve",
            _ if !sig.is_empty() => return Some(sig),
            _ => "",
        };
        if !name.is_empty() {
            return Some(name.to_string());
        }
    }
    Some(
        system
            .vendor
            .clone()
            .unwrap_or_else(|| "unknown hypervisor".into()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn os_release_debian_12() {
        let text = "PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\n\
                    VERSION_ID=\"12\"\nVERSION=\"12 (bookworm)\"\nID=debian\n";
        let kv = parse_os_release(text);
        assert_eq!(kv["PRETTY_NAME"], "Debian GNU/Linux 12 (bookworm)");
        assert_eq!(kv["NAME"], "Debian GNU/Linux");
        assert_eq!(kv["VERSION_ID"], "12");
        assert_eq!(kv["ID"], "debian");
    }

    #[test]
    fn chassis_codes() {
        assert_eq!(chassis_name(7), "Tower");
        assert_eq!(chassis_name(0x80 | 23), "Rack Mount Chassis");
        assert_eq!(chassis_name(99), "type 99");
    }
}
