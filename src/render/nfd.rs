//! Kubernetes node-feature-discovery (NFD) local feature file: one `name=value` line per
//! fact, for `/etc/kubernetes/node-feature-discovery/features.d/`, which nfd-worker's
//! `local` source turns into node labels.
//!
//! NFD's documented input format (customization guide, "Local feature source"): lines
//! `<namespace>/<name>[=<value>]`, `#` starts a comment, `# +` starts a directive (so our
//! comments never do), files over 64 kB are ignored. The labels must also be valid
//! Kubernetes labels: a name of at most 63 characters `[a-zA-Z0-9]([-a-zA-Z0-9_.]*[a-zA-Z0-9])?`
//! under a DNS-subdomain prefix, and a value of the same form and length. Model strings such
//! as `Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz` break that syntax, so every value goes
//! through `label_value`. The prefix is a sub-namespace of `feature.node.kubernetes.io`,
//! which nfd-master accepts without extra configuration.

use std::collections::BTreeMap;
use std::io::{self, Write};

use crate::spec::Spec;
use crate::verify::VerifyReport;

/// Namespace of every label written.
pub const PREFIX: &str = "rigcheck.feature.node.kubernetes.io";

/// Longest label name or value Kubernetes allows.
pub const MAX_LEN: usize = 63;

/// Turns any text into a valid label value (or name part): marks like `(R)` and `(TM)`
/// dropped, every run of other characters outside `[-A-Za-z0-9_.]` made one `_`, trimmed to
/// start and end alphanumeric, cut to 63 characters. `None` when nothing is left.
pub fn label_value(text: &str) -> Option<String> {
    let mut cleaned = text.to_string();
    for mark in ["(R)", "(r)", "(TM)", "(tm)", "®", "™"] {
        cleaned = cleaned.replace(mark, "");
    }
    let mut out = String::with_capacity(cleaned.len());
    let mut gap = false;
    for c in cleaned.chars() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
            if gap && !out.is_empty() {
                out.push('_');
            }
            gap = false;
            out.push(c);
        } else {
            // `_` itself, spaces, punctuation and non-ASCII letters all become one `_`.
            gap = true;
        }
    }
    let trim = |s: &str| {
        s.trim_matches(|c: char| !c.is_ascii_alphanumeric())
            .to_string()
    };
    let mut v = trim(&out);
    if v.len() > MAX_LEN {
        v = trim(&v[..MAX_LEN]);
    }
    (!v.is_empty()).then_some(v)
}

/// The labels for `spec`, name (without prefix) → value, sorted. `verified` is the
/// profile check; `verified=<profile>` is only written when it passed.
pub fn labels(spec: &Spec, verify: Option<&VerifyReport>) -> BTreeMap<String, String> {
    let mut l = BTreeMap::new();
    let mut put = |name: &str, value: Option<String>| {
        if let (Some(name), Some(v)) = (label_value(name), value.as_deref().and_then(label_value)) {
            l.insert(name, v);
        }
    };
    let num = |v: Option<u32>| v.map(|n| n.to_string());
    put("system.vendor", spec.system.vendor.clone());
    put("system.product", spec.system.product.clone());
    let c = &spec.cpu;
    put("cpu.vendor", c.vendor.clone());
    put("cpu.model", c.model.clone());
    put("cpu.sockets", num(c.sockets));
    put("cpu.cores", num(c.cores));
    put("cpu.threads", num(c.threads));
    put("cpu.max_mhz", num(c.max_mhz));
    // Names from the report are cleaned on their own, so the fixed part stays as written.
    for isa in c.isa.iter().filter_map(|i| label_value(i)) {
        put(&format!("cpu.isa.{isa}"), Some("true".into()));
    }
    let gib = |b: u64| (b as f64 / (1u64 << 30) as f64).round() as u64;
    put(
        "memory.total_gib",
        spec.memory.total_bytes.map(|b| gib(b).to_string()),
    );
    if spec.memory.dimm_source.is_some() {
        put("memory.dimms", Some(spec.memory.dimms.len().to_string()));
    }
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    for d in &spec.drives {
        if let Some(k) = d.kind.and_then(|k| label_value(k.as_str())) {
            *kinds.entry(k).or_default() += 1;
        }
    }
    for (k, count) in kinds {
        put(&format!("drives.{k}"), Some(count.to_string()));
    }

    // GPU labels describe the weakest GPU of the node, so a pod asking for
    // `gpu.tensor_cores > 500` is never placed where one of its GPUs has fewer.
    let g = &spec.gpus;
    put("gpu.count", Some(g.len().to_string()));
    let same = |f: &dyn Fn(&crate::spec::Gpu) -> Option<String>| {
        let first = g.first().and_then(f)?;
        g.iter()
            .all(|x| f(x).as_ref() == Some(&first))
            .then_some(first)
    };
    let min = |f: &dyn Fn(&crate::spec::Gpu) -> Option<u64>| -> Option<String> {
        let vals: Option<Vec<u64>> = g.iter().map(f).collect();
        vals?.into_iter().min().map(|v| v.to_string())
    };
    put("gpu.model", same(&|x| x.shown_name()));
    put("gpu.architecture", same(&|x| x.architecture.clone()));
    put(
        "gpu.compute_capability",
        same(&|x| x.compute_capability.clone()),
    );
    put("gpu.driver", same(&|x| x.driver_version.clone()));
    put("gpu.cuda_cores", min(&|x| x.cuda_cores.map(u64::from)));
    put("gpu.tensor_cores", min(&|x| x.tensor_cores.map(u64::from)));
    put("gpu.memory_gib", min(&|x| x.vram_bytes.map(gib)));
    put("gpu.pcie_width", min(&|x| x.pcie.width.map(u64::from)));
    put("gpu.vendor", same(&|x| Some(x.vendor.as_str().to_string())));
    // Network adapters: how many, and the slowest one's top speed, so a pod asking for
    // `network.max_speed_gbps >= 100` lands where every adapter does that much.
    if spec.lists.nics.is_complete() {
        put("network.adapters", Some(spec.nics.len().to_string()));
        let speeds: Option<Vec<u64>> = spec.nics.iter().map(|n| n.max_speed_mbps).collect();
        put(
            "network.max_speed_gbps",
            speeds
                .and_then(|v| v.into_iter().min())
                .map(|m| (m / 1000).to_string()),
        );
        if spec
            .nics
            .iter()
            .any(|n| n.ports.iter().any(|p| p.link_layer == "infiniband"))
        {
            put("network.infiniband", Some("true".into()));
        }
    }
    if let Some(v) = verify.filter(|v| v.passed) {
        put("verified", Some(v.profile.clone()));
    }
    l
}

/// Writes the feature file for `spec`.
pub fn write(spec: &Spec, verify: Option<&VerifyReport>, out: &mut dyn Write) -> io::Result<()> {
    // A plain comment: NFD ignores `#` lines, and only `# +` would be a directive.
    writeln!(
        out,
        "# node-feature-discovery labels written by rigcheck {}",
        spec.rigcheck_version
    )?;
    for (k, v) in labels(spec, verify) {
        writeln!(out, "{PREFIX}/{k}={v}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_strings_become_valid_values() {
        assert_eq!(
            label_value("Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz").as_deref(),
            Some("Intel_Xeon_Gold_6254_CPU_3.10GHz")
        );
        assert_eq!(
            label_value("NVIDIA GeForce RTX 4090 D").as_deref(),
            Some("NVIDIA_GeForce_RTX_4090_D")
        );
        assert_eq!(label_value("Ünïcødé Ω").as_deref(), Some("n_c_d"));
        assert_eq!(label_value("  ---  "), None);
        assert_eq!(label_value(&"x".repeat(100)).map(|v| v.len()), Some(63));
    }
}
