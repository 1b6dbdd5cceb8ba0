//! fleet: many reports at once. Finds the configuration most hosts share, says which hosts
//! differ from it and how (using `diff`), and checks every host against a profile. Pure: the
//! command layer finds and reads the reports (`parse_report` is the one parser of a report's
//! text); rendering lives in `render::fleet`.
//!
//! A bad or truncated report never stops the fleet: it becomes a `BadReport` naming its file.

use std::collections::HashMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::diff::{self, Change};
use crate::profile::Profile;
use crate::spec::{Dimm, Drive, Gpu, Spec};
use crate::verify::{self, VerifyReport};

/// One host of the fleet, read from one report.
#[derive(Debug, Clone)]
pub struct Host {
    /// The report's host name, or the file name when the report has none.
    pub name: String,
    /// Where the report was read from.
    pub file: PathBuf,
    pub spec: Spec,
    /// The check against `--profile`, when one was given.
    pub verify: Option<VerifyReport>,
    /// A preflight result carried in the report, when there is one.
    pub preflight: Option<Preflight>,
    /// Index into `Fleet::configurations` (0 is the majority).
    pub configuration: usize,
}

/// What fleet reads of a preflight result stored in a report as a top-level `preflight`
/// object (the JSON of `rigcheck preflight`). Reports without one are fine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Preflight {
    /// True when the machine was ready.
    pub passed: bool,
}

/// A report that could not be read, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BadReport {
    pub file: PathBuf,
    pub error: String,
}

/// A group of hosts with the same hardware.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Configuration {
    /// How many hosts have it.
    pub hosts: usize,
    /// The first host (by name) that has it.
    pub example: String,
}

/// A host whose hardware differs from the majority configuration, and how.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OddOne {
    pub host: String,
    pub file: PathBuf,
    /// Majority (`before`) against this host (`after`), hardware only.
    pub changes: Vec<Change>,
}

/// The whole fleet, hosts sorted by name.
#[derive(Debug, Clone, Default)]
pub struct Fleet {
    pub hosts: Vec<Host>,
    pub errors: Vec<BadReport>,
    /// Distinct hardware configurations, largest first (ties: by example host name).
    pub configurations: Vec<Configuration>,
    pub odd_ones_out: Vec<OddOne>,
    /// The profile every host was checked against.
    pub profile: Option<String>,
}

impl Fleet {
    /// 1 when a host fails its profile, fails preflight, or a report could not be read;
    /// else 0.
    pub fn exit_code(&self) -> u8 {
        let failed = self.hosts.iter().any(|h| {
            h.verify.as_ref().is_some_and(|v| !v.passed) || h.preflight.is_some_and(|p| !p.passed)
        });
        u8::from(failed || !self.errors.is_empty())
    }

    /// Hosts in the majority configuration.
    pub fn majority_hosts(&self) -> usize {
        self.configurations.first().map_or(0, |c| c.hosts)
    }
}

/// One report as read from disk, before it is checked and grouped.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// Where the report was read from.
    pub file: PathBuf,
    pub spec: Spec,
    /// A preflight result carried in the report, when there is one.
    pub preflight: Option<Preflight>,
}

/// Checks every loaded report against `profile` and groups the hosts by hardware.
/// Reports that could not be read are kept as errors, sorted by file.
pub fn assemble(
    reports: Vec<Result<Loaded, BadReport>>,
    profile: Option<&Profile>,
    strict: bool,
) -> Fleet {
    let mut loaded = Vec::with_capacity(reports.len());
    let mut errors = Vec::new();
    for r in reports {
        match r {
            Ok(l) => loaded.push(l),
            Err(e) => errors.push(e),
        }
    }
    let mut hosts = par_map(loaded, |l| host(l, profile, strict));
    hosts.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.file.cmp(&b.file)));
    errors.sort_by(|a, b| a.file.cmp(&b.file));
    let mut fleet = Fleet {
        hosts,
        errors,
        profile: profile.map(|p| p.name.clone()),
        ..Fleet::default()
    };
    group(&mut fleet);
    fleet
}

fn host(l: Loaded, profile: Option<&Profile>, strict: bool) -> Host {
    let name = l.spec.hostname.clone().unwrap_or_else(|| {
        l.file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| l.file.display().to_string())
    });
    let verify = profile.map(|p| verify::verify(&l.spec, p, strict));
    Host {
        name,
        file: l.file,
        spec: l.spec,
        verify,
        preflight: l.preflight,
        configuration: 0,
    }
}

/// Applies `f` to every item on all available cores, keeping the order: parsing and checking
/// ten thousand reports is CPU work that scales with the cores.
pub fn par_map<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len().max(1));
    let chunk = items.len().div_ceil(threads).max(1);
    let mut parts: Vec<Vec<T>> = Vec::new();
    let mut items = items.into_iter().peekable();
    while items.peek().is_some() {
        parts.push(items.by_ref().take(chunk).collect());
    }
    let f = &f;
    std::thread::scope(|s| {
        let workers: Vec<_> = parts
            .into_iter()
            .map(|part| s.spawn(move || part.into_iter().map(f).collect::<Vec<R>>()))
            .collect();
        workers
            .into_iter()
            // A worker only panics on a bug; its results are then lost rather than the run.
            .flat_map(|w| w.join().unwrap_or_default())
            .collect()
    })
}

/// The wrapper `ansible -m setup --tree DIR` writes around a custom fact.
#[derive(Deserialize)]
struct AnsibleResult {
    ansible_facts: AnsibleFacts,
}

#[derive(Deserialize)]
struct AnsibleFacts {
    ansible_local: AnsibleLocal,
}

#[derive(Deserialize)]
struct AnsibleLocal {
    rigcheck: Spec,
}

/// Only the `preflight` member of a report; everything else is skipped unread.
#[derive(Deserialize)]
struct PreflightOnly {
    preflight: Option<Preflight>,
}

/// Parses one report: `rigcheck --format json` output, or the same wrapped by Ansible's
/// `setup` module (`ansible_facts.ansible_local.rigcheck`). A top-level `preflight` object
/// with a `passed` boolean is read when present.
pub fn parse_report(text: &str) -> Result<(Spec, Option<Preflight>), String> {
    let spec = match serde_json::from_str::<Spec>(text) {
        Ok(s) => s,
        Err(e) if text.contains("\"ansible_facts\"") => {
            match serde_json::from_str::<AnsibleResult>(text) {
                Ok(a) => a.ansible_facts.ansible_local.rigcheck,
                Err(_) => return Err(format!("not a rigcheck JSON report: {e}")),
            }
        }
        Err(e) => return Err(format!("not a rigcheck JSON report: {e}")),
    };
    // Most reports carry no preflight result; skip the second pass for them.
    let preflight = if text.contains("\"preflight\"") {
        serde_json::from_str::<PreflightOnly>(text)
            .ok()
            .and_then(|p| p.preflight)
    } else {
        None
    };
    Ok((spec, preflight))
}

/// The part of a report that makes up its hardware configuration: exactly what `diff`
/// compares as hardware, with per-unit identities (serials, UUIDs) cleared so that two
/// identical machines compare equal.
pub fn hardware_view(spec: &Spec) -> Spec {
    let mut v = Spec::default();
    v.system.vendor = spec.system.vendor.clone();
    v.system.product = spec.system.product.clone();
    v.system.board_name = spec.system.board_name.clone();
    v.system.bios_version = spec.system.bios_version.clone();
    v.system.bios_date = spec.system.bios_date.clone();
    v.cpu.model = spec.cpu.model.clone();
    v.cpu.sockets = spec.cpu.sockets;
    v.cpu.cores = spec.cpu.cores;
    v.cpu.threads = spec.cpu.threads;
    v.cpu.max_mhz = spec.cpu.max_mhz;
    v.memory.dimms = spec
        .memory
        .dimms
        .iter()
        .map(|d| Dimm {
            locator: d.locator.clone(),
            size_bytes: d.size_bytes,
            kind: d.kind.clone(),
            part_number: d.part_number.clone(),
            ..Dimm::default()
        })
        .collect();
    v.gpus = spec
        .gpus
        .iter()
        .map(|g| {
            let mut k = Gpu {
                pci_address: g.pci_address.clone(),
                name: g.name.clone(),
                vram_bytes: g.vram_bytes,
                vbios_version: g.vbios_version.clone(),
                ..Gpu::default()
            };
            k.pcie.width = g.pcie.width;
            k.pcie.max_width = g.pcie.max_width;
            k
        })
        .collect();
    v.drives = spec
        .drives
        .iter()
        .map(|d| Drive {
            name: d.name.clone(),
            model: d.model.clone(),
            firmware: d.firmware.clone(),
            size_bytes: d.size_bytes,
            ..Drive::default()
        })
        .collect();
    v
}

/// Groups hosts by hardware view, largest group first, and lists how each host outside the
/// largest group differs from it.
fn group(fleet: &mut Fleet) {
    // Key: the hardware view as JSON (its fields are in a fixed order).
    let keys: Vec<(Spec, String)> = fleet
        .hosts
        .iter()
        .map(|h| {
            let v = hardware_view(&h.spec);
            let k = serde_json::to_string(&v).unwrap_or_default();
            (v, k)
        })
        .collect();
    let mut index: HashMap<&str, usize> = HashMap::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, (_, k)) in keys.iter().enumerate() {
        let g = *index.entry(k.as_str()).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(i);
    }
    // Hosts are sorted by name, so each group's first member is its example; the majority
    // is the biggest group, ties going to the one whose example sorts first.
    groups.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a[0].cmp(&b[0])));
    for (gi, members) in groups.iter().enumerate() {
        for &m in members {
            fleet.hosts[m].configuration = gi;
        }
    }
    fleet.configurations = groups
        .iter()
        .map(|m| Configuration {
            hosts: m.len(),
            example: fleet.hosts[m[0]].name.clone(),
        })
        .collect();
    let Some(majority) = groups.first().map(|m| &keys[m[0]].0) else {
        return;
    };
    for (i, h) in fleet.hosts.iter().enumerate() {
        if h.configuration == 0 {
            continue;
        }
        let changes = diff::diff(majority, &keys[i].0)
            .into_iter()
            .filter(|c| c.class == "hardware")
            .collect();
        fleet.odd_ones_out.push(OddOne {
            host: h.name.clone(),
            file: h.file.clone(),
            changes,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ansible_wrapped_report_is_read() {
        let text = r#"{"ansible_facts": {"ansible_local": {"rigcheck": {
            "schema_version": 1, "rigcheck_version": "0.1.0", "hostname": "vm",
            "source": "live", "system": {}, "os": {}, "cpu": {"caches": [], "numa_nodes": [],
            "core_types": [], "isa": [], "flags": []},
            "memory": {"dimms": [], "empty_slots": []}, "drives": [], "gpus": [], "notes": []
        }}}, "changed": false}"#;
        let (spec, pre) = parse_report(text).unwrap();
        assert_eq!(spec.hostname.as_deref(), Some("vm"));
        assert_eq!(pre, None);
    }

    #[test]
    fn truncated_report_names_the_problem() {
        let err = parse_report(r#"{"schema_version": 1, "rigcheck_ver"#).unwrap_err();
        assert!(err.starts_with("not a rigcheck JSON report: EOF"), "{err}");
    }
}
