//! fleet: many reports at once. Finds the configuration most hosts share, says which hosts
//! differ from it and how (using `diff`), and checks every host against a profile. Pure: the
//! command layer finds and reads the reports (`parse_report` is the one parser of a report's
//! text); rendering lives in `render::fleet`.
//!
//! A bad or truncated report never stops the fleet: it becomes a `BadReport` naming its file.
//! Hosts are compared on known facts only (`diff`): a host whose report leaves facts unknown
//! is "partly unknown", never "differs" for them, and two configurations of equal size are a
//! tie, not a majority.

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::diff::{self, Change, Compared};
use crate::outcome::{Outcome, EXIT_FAIL, EXIT_INCOMPLETE, EXIT_PASS};
use crate::profile::Profile;
use crate::spec::{Lists, Spec, SCHEMA_VERSION};
use crate::verify::{self, Unknowns, VerifyReport};

/// One host of the fleet, read from one report.
#[derive(Debug, Clone)]
pub struct Host {
    /// The report's host name, or the file name when the report has none; followed by the
    /// file (`ws (a/ws.json)`) when several reports carry the same host name.
    pub name: String,
    /// Where the report was read from.
    pub file: PathBuf,
    /// What the fleet's table and JSON show of the machine.
    pub row: Row,
    /// The whole report, kept only when asked (`Keep::Reports`: Prometheus and `--redact`
    /// read every fact); a fleet of 100,000 hosts otherwise keeps its rows, not its reports.
    pub spec: Option<Box<Spec>>,
    /// The check against `--profile`, when one was given: its verdict and counts whole, its
    /// lines only those that failed or could not be read.
    pub verify: Option<VerifyReport>,
    /// A preflight result carried in the report, when there is one.
    pub preflight: Option<Preflight>,
    /// Index into `Fleet::configurations` (0 is the majority, or the first of a tie).
    pub configuration: usize,
    /// The host's hardware configuration as `diff` compares it: an index into the fleet's
    /// distinct configurations (MemTotal in whole GiB), and its exact MemTotal.
    kind: usize,
    usable_bytes: Option<u64>,
    /// How little the report knows: the facts of its configuration it leaves unknown
    /// (`Compared::unknowns`), then its notes on unknown facts; a configuration is measured
    /// against its host that knows the most.
    unknowns: (usize, usize),
}

/// The facts of a host's row in the fleet's table and JSON.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Row {
    pub vendor: Option<String>,
    pub product: Option<String>,
    pub cpu_model: Option<String>,
    /// Each socket's model when they differ (`Cpu::socket_models`).
    pub socket_models: Vec<String>,
    pub cpu_sockets: Option<u32>,
    pub cpu_cores: Option<u32>,
    pub cpu_threads: Option<u32>,
    /// Every GPU's name, in the report's order.
    pub gpus: Vec<Option<String>>,
    /// Installed memory (`Memory::total_bytes`).
    pub memory_bytes: Option<u64>,
    /// DIMMs listed.
    pub dimms: usize,
    /// How completely the GPU, drive and DIMM lists were read: an empty list not read whole
    /// is unknown, not none.
    pub lists: Lists,
    /// Each network adapter's top speed (Mb/s), in the report's order; `None` where the
    /// adapter list was not read whole (an older report, another OS).
    pub nics: Option<Vec<Option<u64>>>,
    /// The machine's health as the rules judge it: `fine`, `warn`, `fail` or `unknown`, with
    /// the parts behind it.
    pub health: crate::rules::health::Verdict,
}

impl Row {
    pub fn of(spec: &Spec) -> Row {
        Row {
            vendor: spec.system.vendor.clone(),
            product: spec.system.product.clone(),
            cpu_model: spec.cpu.model.clone(),
            socket_models: spec.cpu.socket_models.clone(),
            cpu_sockets: spec.cpu.sockets,
            cpu_cores: spec.cpu.cores,
            cpu_threads: spec.cpu.threads,
            gpus: spec.gpus.iter().map(|g| g.shown_name()).collect(),
            memory_bytes: spec.memory.total_bytes,
            dimms: spec.memory.dimms.len(),
            lists: Lists {
                dimms: spec.dimm_list(),
                ..spec.lists
            },
            nics: spec
                .lists
                .nics
                .is_complete()
                .then(|| spec.nics.iter().map(|n| n.max_speed_mbps).collect()),
            health: crate::rules::health::verdict(spec),
        }
    }
}

/// What the fleet keeps of each report once it is checked and grouped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// The row only: memory grows by a row per host, not by a report.
    Rows,
    /// The whole report too (`Host::spec`), for outputs that read every fact.
    Reports,
}

/// Several reports carrying one host name: the same machine reported twice, or machines
/// left with a default name (`localhost`). Each is kept, under its name and file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct DuplicateName {
    pub host: String,
    pub files: Vec<PathBuf>,
}

/// What fleet reads of a preflight result stored in a report as a top-level `preflight`
/// object (the JSON of `rigcheck preflight`). Reports without one are fine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Preflight {
    /// True when the machine was ready.
    pub passed: bool,
}

/// A report that could not be read, with the reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct BadReport {
    pub file: PathBuf,
    pub error: String,
}

/// A group of hosts with the same hardware.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Configuration {
    /// How many hosts have it.
    pub hosts: usize,
    /// The host of it whose report knows the most (ties: the first by name): the others are
    /// measured against it.
    pub example: String,
}

/// A host outside the majority configuration, and how it differs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct OddOne {
    pub host: String,
    pub file: PathBuf,
    /// Majority (`before`) against this host (`after`), hardware facts known in both.
    pub changes: Vec<Change>,
    /// Hardware facts known for one of them only: not compared. A host with no change and
    /// only these is "partly unknown", not different.
    pub unknown_on_one_side: Vec<Change>,
}

/// The whole fleet, hosts sorted by name.
#[derive(Debug, Clone, Default)]
pub struct Fleet {
    pub hosts: Vec<Host>,
    pub errors: Vec<BadReport>,
    /// Distinct hardware configurations, largest first (ties: by example host name).
    pub configurations: Vec<Configuration>,
    pub odd_ones_out: Vec<OddOne>,
    /// Hosts of the largest configuration whose reports leave facts of its reference
    /// unknown (a DIMM list read without root): the same hardware as far as both know, not
    /// compared where one does not (`changes` is empty).
    pub partly_unknown: Vec<OddOne>,
    /// The profile every host was checked against.
    pub profile: Option<String>,
    /// True when the largest configurations have as many hosts each: there is no majority,
    /// and the odd ones out are compared with the first of them.
    pub tie: bool,
    /// Host names carried by more than one report.
    pub duplicate_names: Vec<DuplicateName>,
}

impl Fleet {
    /// 1 when a host fails its profile, fails preflight, or a report could not be read; 3
    /// when none does but a host's check is incomplete; else 0.
    pub fn exit_code(&self) -> u8 {
        let failed = self.hosts.iter().any(|h| {
            h.verify
                .as_ref()
                .is_some_and(|v| v.outcome == Outcome::Fail)
                || h.preflight.is_some_and(|p| !p.passed)
                // A part failing by its own counts (a drive's critical warning, uncorrected
                // memory errors) fails the fleet whether or not a profile asks.
                || h.row.health.word == "fail"
        });
        if failed || !self.errors.is_empty() {
            EXIT_FAIL
        } else if self.incomplete_hosts() > 0 {
            EXIT_INCOMPLETE
        } else {
            EXIT_PASS
        }
    }

    /// Hosts failing their profile.
    pub fn failed_hosts(&self) -> usize {
        self.hosts
            .iter()
            .filter(|h| {
                h.verify
                    .as_ref()
                    .is_some_and(|v| v.outcome == Outcome::Fail)
            })
            .count()
    }

    /// Hosts whose check against the profile is incomplete.
    pub fn incomplete_hosts(&self) -> usize {
        self.hosts
            .iter()
            .filter(|h| {
                h.verify
                    .as_ref()
                    .is_some_and(|v| v.outcome == Outcome::Incomplete)
            })
            .count()
    }

    /// Hosts in the majority configuration; `None` on a tie, when there is none.
    pub fn majority_hosts(&self) -> Option<usize> {
        if self.tie {
            return None;
        }
        self.configurations.first().map(|c| c.hosts)
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

/// Loads every input with `load` on all cores, checks each report against `profile` as it
/// is read and keeps what `keep` says of it, and groups the hosts by hardware. Reports
/// that could not be read are kept as errors (with `errors`, found before), sorted by file.
/// A report is dropped once its row, check and configuration are taken: memory follows the
/// fleet's summary, not the size of its reports.
pub fn assemble<T: Send>(
    inputs: Vec<T>,
    load: impl Fn(T) -> Result<Loaded, BadReport> + Sync,
    mut errors: Vec<BadReport>,
    profile: Option<&Profile>,
    unknowns: Unknowns,
    keep: Keep,
) -> Fleet {
    // Each worker names the configurations it meets by its own numbers; they are made the
    // fleet's below.
    let parts = par_chunks(inputs, |part| {
        // Configurations by their facts, hashed once per report: foldhash's seeded hash.
        let mut kinds: foldhash::HashMap<Compared, usize> = foldhash::HashMap::default();
        let mut out = Vec::with_capacity(part.len());
        for item in part {
            out.push(load(item).map(|l| {
                let key = configuration_key(&l.spec);
                let missing = (key.unknowns(), l.spec.notes.len());
                let next = kinds.len();
                let kind = *kinds.entry(key).or_insert(next);
                host(l, kind, missing, profile, unknowns, keep)
            }));
        }
        let mut keys: Vec<Option<Compared>> = vec![None; kinds.len()];
        for (k, i) in kinds {
            keys[i] = Some(k);
        }
        (out, keys)
    });
    let mut index: foldhash::HashMap<Compared, usize> = foldhash::HashMap::default();
    let mut keys: Vec<Compared> = Vec::new();
    let mut hosts = Vec::new();
    for (part, local) in parts {
        let global: Vec<usize> = local
            .into_iter()
            .flatten()
            .map(|k| match index.get(&k) {
                Some(&g) => g,
                None => {
                    keys.push(k.clone());
                    index.insert(k, keys.len() - 1);
                    keys.len() - 1
                }
            })
            .collect();
        for r in part {
            match r {
                Ok(mut h) => {
                    h.kind = global.get(h.kind).copied().unwrap_or_default();
                    hosts.push(h);
                }
                Err(e) => errors.push(e),
            }
        }
    }
    drop(index);
    hosts.sort_by(|a, b| a.name.cmp(&b.name).then_with(|| a.file.cmp(&b.file)));
    errors.sort_by(|a, b| a.file.cmp(&b.file));
    let duplicate_names = name_duplicates(&mut hosts);
    let mut fleet = Fleet {
        hosts,
        errors,
        profile: profile.map(|p| p.name.clone()),
        duplicate_names,
        ..Fleet::default()
    };
    group(&mut fleet, &keys);
    fleet
}

/// The facts `diff` compares that make a configuration (no serials, UUIDs or software),
/// MemTotal in whole GiB so kernels' few megabytes do not split a configuration.
fn configuration_key(spec: &Spec) -> Compared {
    let mut k = Compared::of(spec).configuration();
    k.memory.usable_bytes = k.memory.usable_bytes.map(|u| u >> 30);
    k
}

/// Gives hosts that share a name their file too (`ws (reports/ws-old.json)`), so every row,
/// JSON entry and Prometheus series stays one host's; returns the names that were shared.
fn name_duplicates(hosts: &mut [Host]) -> Vec<DuplicateName> {
    let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, h) in hosts.iter().enumerate() {
        by_name.entry(h.name.clone()).or_default().push(i);
    }
    let mut out = Vec::new();
    for (name, members) in by_name.into_iter().filter(|(_, m)| m.len() > 1) {
        for &i in &members {
            hosts[i].name = format!("{name} ({})", hosts[i].file.display());
        }
        out.push(DuplicateName {
            host: name,
            files: members.iter().map(|&i| hosts[i].file.clone()).collect(),
        });
    }
    out
}

fn host(
    l: Loaded,
    kind: usize,
    missing: (usize, usize),
    profile: Option<&Profile>,
    unknowns: Unknowns,
    keep: Keep,
) -> Host {
    // A name is one line wherever it is shown (a row, a sentence, a label, the JSON).
    let name = l.spec.hostname.clone().unwrap_or_else(|| {
        l.file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| l.file.display().to_string())
    });
    let name = crate::text::one_line(&name).into_owned();
    // What a fleet shows of a host's check is its verdict, its counts and the lines that did
    // not pass: a passing line is the same on every host, and a hundred thousand hosts' worth
    // of them is most of a fleet's memory.
    let verify = profile.map(|p| verify::verify_not_passing(&l.spec, p, unknowns));
    Host {
        name,
        file: l.file,
        row: Row::of(&l.spec),
        usable_bytes: l.spec.memory.usable_bytes,
        unknowns: missing,
        spec: (keep == Keep::Reports).then(|| Box::new(l.spec)),
        verify,
        preflight: l.preflight,
        configuration: 0,
        kind,
    }
}

/// Splits `items` into one run of consecutive items per available core and applies `f` to
/// each run on its own thread; the results come back in the items' order. Parsing and
/// checking ten thousand reports is CPU work that scales with the cores.
fn par_chunks<T: Send, R: Send + Default>(items: Vec<T>, f: impl Fn(Vec<T>) -> R + Sync) -> Vec<R> {
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
            .map(|part| s.spawn(move || f(part)))
            .collect();
        workers
            .into_iter()
            // A worker only panics on a bug; its results are then lost rather than the run.
            .map(|w| w.join().unwrap_or_default())
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
        Err(e) if memchr::memmem::find(text.as_bytes(), b"\"ansible_facts\"").is_some() => {
            match serde_json::from_str::<AnsibleResult>(text) {
                Ok(a) => a.ansible_facts.ansible_local.rigcheck,
                Err(_) => return Err(not_a_report(text, &e)),
            }
        }
        Err(e) => return Err(not_a_report(text, &e)),
    };
    if spec.schema_version > SCHEMA_VERSION {
        return Err(newer_schema(spec.schema_version));
    }
    // Schema versions start at 1: a 0 was never written by any rigcheck, so the rest of the
    // report cannot be trusted to mean what this one reads it as.
    if spec.schema_version == 0 {
        return Err(
            "schema_version 0 was never written by rigcheck (versions start at 1); \
                    make the report again with `rigcheck --format json`"
                .into(),
        );
    }
    // Most reports carry no preflight result; skip the second pass for them.
    let preflight = if memchr::memmem::find(text.as_bytes(), b"\"preflight\"").is_some() {
        serde_json::from_str::<PreflightOnly>(text)
            .ok()
            .and_then(|p| p.preflight)
    } else {
        None
    };
    Ok((spec, preflight))
}

/// Why a text is not a report, in the shape `<why>; <fix>`: a newer report (which this
/// rigcheck cannot read), another kind of JSON, or a damaged report with serde's reason.
fn not_a_report(text: &str, e: &serde_json::Error) -> String {
    #[derive(Deserialize)]
    struct Version {
        schema_version: Option<u32>,
    }
    if let Ok(Version {
        schema_version: Some(v),
    }) = serde_json::from_str::<Version>(text)
    {
        if v > SCHEMA_VERSION {
            return newer_schema(v);
        }
    }
    let fix = "make one with `rigcheck --format json`";
    let kind = match text.trim_start().chars().next() {
        Some('[') => Some("a JSON array"),
        Some('"') => Some("a JSON string"),
        _ => None,
    };
    match kind {
        Some(k) => format!("not a rigcheck JSON report: it holds {k}, not a report object; {fix}"),
        None => format!("not a rigcheck JSON report: {e}; {fix}"),
    }
}

fn newer_schema(v: u32) -> String {
    format!(
        "written by a newer rigcheck (schema_version {v}; this one reads {SCHEMA_VERSION}); \
         upgrade rigcheck to read it"
    )
}

/// Groups hosts by hardware configuration (the facts `diff` compares, without serials and
/// UUIDs), largest group first; hosts that differ in no fact known to both (a fact one of
/// them could not read, MemTotal within its tolerance) are one configuration. Each
/// configuration is measured against its host that knows the most; lists how each host
/// outside the largest differs from it, known facts and unknown ones apart.
fn group(fleet: &mut Fleet, keys: &[Compared]) {
    // A host's facts as `diff` compares them: its configuration's, with its exact MemTotal
    // (hosts of one configuration differ in nothing else).
    let view = |h: &Host| {
        let mut v = keys.get(h.kind).cloned().unwrap_or_default();
        v.memory.usable_bytes = h.usable_bytes;
        v
    };
    let mut index: HashMap<usize, usize> = HashMap::new();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, h) in fleet.hosts.iter().enumerate() {
        let g = *index.entry(h.kind).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(i);
    }
    // The host of a group that knows the most (hosts are sorted by name: the first of equals).
    let best = |m: &[usize]| {
        m.iter()
            .copied()
            .min_by_key(|&i| (fleet.hosts[i].unknowns, i))
            .unwrap_or_default()
    };
    // Largest first; of equal size the one that knows the most, so a report that knows
    // little is neither the yardstick nor what the others are merged into.
    let order = |a: &Vec<usize>, b: &Vec<usize>| {
        b.len()
            .cmp(&a.len())
            .then_with(|| {
                fleet.hosts[best(a)]
                    .unknowns
                    .cmp(&fleet.hosts[best(b)].unknowns)
            })
            .then_with(|| a[0].cmp(&b[0]))
    };
    // One configuration where nothing known differs: a fact one host could not read (a DIMM
    // list without root, a drive's model) does not make it another machine. The reports that
    // know the most come first and make the configurations; one that knows less joins the
    // largest configuration whose first (most complete) facts it does not contradict, so two
    // hosts that differ where both know are never joined through a third that knows less.
    // One comparison per configuration: the work is hosts' kinds × configurations.
    groups.sort_by(|a, b| {
        fleet.hosts[best(a)]
            .unknowns
            .cmp(&fleet.hosts[best(b)].unknowns)
            .then_with(|| b.len().cmp(&a.len()))
            .then_with(|| a[0].cmp(&b[0]))
    });
    let mut merged: Vec<(Vec<usize>, Compared)> = Vec::new(); // (hosts, the first's facts)
    for g in groups {
        let facts = view(&fleet.hosts[g[0]]);
        let fits = |first: &Compared| {
            diff::compare(first, &facts)
                .changes
                .iter()
                .all(|c| c.class != "hardware")
        };
        let mut target: Option<usize> = None;
        for (i, (m, first)) in merged.iter().enumerate() {
            if target.is_none_or(|t| m.len() > merged[t].0.len()) && fits(first) {
                target = Some(i);
            }
        }
        match target {
            Some(t) => merged[t].0.extend(g),
            None => merged.push((g, facts)),
        }
    }
    let mut merged: Vec<Vec<usize>> = merged.into_iter().map(|(m, _)| m).collect();
    for m in &mut merged {
        m.sort_unstable();
    }
    merged.sort_by(order);
    // Of groups of equal size none is the majority, and the tie is said, not settled by a
    // name: the others are compared against the tied configuration whose best host knows the
    // most (the order above).
    fleet.tie = merged.len() > 1 && merged[0].len() == merged[1].len();
    let bests: Vec<usize> = merged.iter().map(|m| best(m)).collect();
    let reference = bests.first().map(|&b| view(&fleet.hosts[b]));
    for (gi, members) in merged.iter().enumerate() {
        for &m in members {
            fleet.hosts[m].configuration = gi;
        }
    }
    fleet.configurations = merged
        .iter()
        .zip(&bests)
        .map(|(m, &b)| Configuration {
            hosts: m.len(),
            example: fleet.hosts[b].name.clone(),
        })
        .collect();
    let Some(reference) = reference else {
        return;
    };
    let hardware = |v: Vec<Change>| -> Vec<Change> {
        v.into_iter().filter(|c| c.class == "hardware").collect()
    };
    // Hosts of one kind (and MemTotal) compare alike: each is compared once, whichever
    // configuration it is in: (changes, unknown on one side), hardware only.
    type Differences = (Vec<Change>, Vec<Change>);
    let mut same: HashMap<(usize, Option<u64>), Differences> = HashMap::new();
    for h in &fleet.hosts {
        let (changes, unknown) = same.entry((h.kind, h.usable_bytes)).or_insert_with(|| {
            let d = diff::compare(&reference, &view(h));
            (hardware(d.changes), hardware(d.unknown_on_one_side))
        });
        let majority = h.configuration == 0;
        if majority && unknown.is_empty() {
            continue;
        }
        let one = OddOne {
            host: h.name.clone(),
            file: h.file.clone(),
            // The majority's differences are none as far as both know.
            changes: if majority {
                Vec::new()
            } else {
                changes.clone()
            },
            unknown_on_one_side: unknown.clone(),
        };
        if majority {
            fleet.partly_unknown.push(one);
        } else {
            fleet.odd_ones_out.push(one);
        }
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
