//! libFuzzer target: /proc/cpuinfo and the other CPU-side text parsers.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rigcheck::probe::{cpu, memory};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let info = cpu::parse_cpuinfo(&text);
    let _ = info.x86_topology();
    if let Some(name) = info.get("model name") {
        let _ = cpu::model_name_ghz_mhz(name);
    }
    if let Some(size) = info.get("cache size") {
        let _ = cpu::parse_cache_size(size);
    }
    let first = text.lines().next().unwrap_or("");
    let _ = cpu::parse_cpulist(first);
    let _ = cpu::parse_cpumask(first);
    let _ = cpu::parse_node_meminfo(&text);
    let _ = memory::parse_meminfo(&text);
});
