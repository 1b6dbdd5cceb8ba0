//! libFuzzer target: the nvml.json reader.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rigcheck::probe::gpu::access::{GpuAccess, Recorded};

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(mut r) = Recorded::parse(&text) {
        let _ = r.init();
        let _ = r.system("device_count");
        for call in ["name", "memory_info", "pcie_link_width", "clock_max_sm"] {
            let _ = r.device(0, call);
        }
    }
});
