//! MIG instances of a MIG-enabled GPU, from NVML's answer to `mig_devices` (one object per
//! MIG device, docs/nvml-json.md): profile, instance ids, SMs and memory of each slice, and
//! the CUDA and tensor cores those SMs hold.

use serde_json::Value;

use crate::spec::MigInstance;

use super::derive::{self, ArchFacts};

/// The instances in NVML's answer, in its order; cores from the SM count and `facts` (the
/// GPU's architecture), FP32 at `rated_clock_mhz`. `tensor_cores` says whether the GPU has
/// any (`None`: not known, so neither are the instances'). Entries that are not objects are
/// skipped.
pub fn instances(
    answer: &Value,
    facts: Option<&ArchFacts>,
    tensor_cores: Option<bool>,
    rated_clock_mhz: Option<u32>,
) -> Vec<MigInstance> {
    let Some(list) = answer.as_array() else {
        return Vec::new();
    };
    list.iter()
        .filter(|m| m.is_object())
        .enumerate()
        .map(|(k, m)| {
            let num = |key: &str| m.get(key).and_then(Value::as_u64);
            let n32 = |key: &str| num(key).and_then(|v| u32::try_from(v).ok());
            let text = |key: &str| {
                m.get(key)
                    .and_then(Value::as_str)
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_string)
            };
            let sms = n32("multiprocessor_count");
            let cores = sms
                .zip(facts)
                .and_then(|(s, f)| s.checked_mul(f.fp32_per_sm));
            MigInstance {
                index: n32("index").unwrap_or(k as u32),
                uuid: text("uuid"),
                profile: text("name").as_deref().and_then(profile_of),
                gpu_instance_id: n32("gpu_instance_id"),
                compute_instance_id: n32("compute_instance_id"),
                sm_count: sms,
                cuda_cores: cores,
                tensor_cores: sms
                    .zip(facts)
                    .zip(tensor_cores)
                    .and_then(|((s, f), tc)| s.checked_mul(if tc { f.tensor_per_sm } else { 0 })),
                memory_bytes: num("memory_total"),
                gpu_slices: n32("gpu_instance_slice_count"),
                compute_slices: n32("compute_instance_slice_count"),
                copy_engines: n32("copy_engine_count"),
                decoders: n32("decoder_count"),
                encoders: n32("encoder_count"),
                jpeg_decoders: n32("jpeg_count"),
                ofa_engines: n32("ofa_count"),
                fp32_tflops: cores
                    .zip(rated_clock_mhz)
                    .map(|(c, clk)| derive::fp32_tflops(c, clk)),
            }
        })
        .collect()
}

/// Which facts NVML gave for none or only some of the MIG devices (a query a MIG device
/// handle did not answer, or a capture that did not record it), in one sentence; `None`
/// when every device has them all.
pub fn unanswered(list: &[MigInstance]) -> Option<String> {
    type Fact = fn(&MigInstance) -> bool;
    let facts: [(&str, Fact); 6] = [
        ("UUID", |m| m.uuid.is_some()),
        ("profile (name)", |m| m.profile.is_some()),
        ("GPU instance id", |m| m.gpu_instance_id.is_some()),
        ("compute instance id", |m| m.compute_instance_id.is_some()),
        ("SM count", |m| m.sm_count.is_some()),
        ("memory", |m| m.memory_bytes.is_some()),
    ];
    let parts: Vec<String> = facts
        .iter()
        .filter_map(|(what, has)| {
            let missing: Vec<String> = list
                .iter()
                .filter(|m| !has(m))
                .map(|m| m.index.to_string())
                .collect();
            let devices = if missing.len() == 1 {
                "device"
            } else {
                "devices"
            };
            (!missing.is_empty())
                .then(|| format!("no {what} for MIG {devices} {}", missing.join(", ")))
        })
        .collect();
    (!parts.is_empty()).then(|| format!("NVML gave {}", parts.join("; ")))
}

/// The MIG profile in NVML's name of a MIG device: `NVIDIA H100 80GB HBM3 MIG 3g.40gb` →
/// `3g.40gb`; `None` when the name has no ` MIG ` part.
pub fn profile_of(name: &str) -> Option<String> {
    let (_, rest) = name.rsplit_once("MIG ")?;
    let p = rest.split_whitespace().next()?;
    (p.contains('g') && p.contains('.')).then(|| p.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn profile_from_nvml_name() {
        assert_eq!(
            profile_of("NVIDIA H100 80GB HBM3 MIG 3g.40gb").as_deref(),
            Some("3g.40gb")
        );
        assert_eq!(
            profile_of("NVIDIA A100-SXM4-80GB MIG 1g.10gb+me").as_deref(),
            Some("1g.10gb+me")
        );
        assert_eq!(profile_of("NVIDIA H100 80GB HBM3"), None);
    }

    #[test]
    fn h100_slices_get_cores_from_their_sms() {
        // The first two instances of the H100 MIG capture (nvidia-smi -q, -L).
        let answer = json!([
            {"index": 0, "uuid": "MIG-00000000-0000-0000-0000-000000000000",
             "name": "NVIDIA H100 80GB HBM3 MIG 3g.40gb", "gpu_instance_id": 2,
             "compute_instance_id": 0, "multiprocessor_count": 60,
             "memory_total": 40448u64 << 20, "copy_engine_count": 3},
            {"index": 1, "name": "NVIDIA H100 80GB HBM3 MIG 2g.20gb",
             "multiprocessor_count": 32, "memory_total": null},
            "not an object"
        ]);
        let f = derive::arch_facts(9, 0).unwrap();
        let m = instances(&answer, Some(&f), Some(true), Some(1980));
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].profile.as_deref(), Some("3g.40gb"));
        assert_eq!(
            (m[0].gpu_instance_id, m[0].compute_instance_id),
            (Some(2), Some(0))
        );
        assert_eq!(
            (m[0].sm_count, m[0].cuda_cores, m[0].tensor_cores),
            (Some(60), Some(7680), Some(240))
        );
        assert_eq!(m[0].memory_bytes, Some(40448 << 20));
        assert_eq!(m[0].fp32_tflops, Some(30.41));
        assert_eq!(m[1].memory_bytes, None);
        assert_eq!(m[1].uuid, None);
    }
}
