//! libFuzzer target: SMBIOS entry point + table walk + memory inventory. The first byte
//! splits the input into entry point and table.
#![no_main]
use libfuzzer_sys::fuzz_target;
use rigcheck::probe::{memory, smbios};

fuzz_target!(|data: &[u8]| {
    let Some((&split, rest)) = data.split_first() else {
        return;
    };
    let (ep, table) = rest.split_at(usize::from(split).min(rest.len()));
    let parsed = smbios::parse_entry_point(ep);
    let t = smbios::Table::parse(table, parsed.as_ref().ok());
    for s in &t.structures {
        let _ = smbios::decode_memory_device(s);
        let _ = smbios::decode_system(s, parsed.as_ref().ok());
        let _ = smbios::decode_processor(s);
        let _ = smbios::decode_slot(s);
        let _ = smbios::decode_mapped_range(s);
    }
    if let Ok(ep) = &parsed {
        let _ = memory::inventory_from_smbios(ep, table);
    }
});
