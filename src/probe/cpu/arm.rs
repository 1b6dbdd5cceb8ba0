//! Arm CPU names from MIDR fields. arm64 /proc/cpuinfo has no model name: the hardware
//! identifies itself only by implementer and part number, so naming it needs this list
//! (util-linux lscpu-arm.c keeps the same kind of list). Parts are numbered per implementer.

/// Implementer code (MIDR bits 31:24) → company.
pub fn implementer_name(code: u32) -> &'static str {
    match code {
        0x41 => "ARM",
        0x42 => "Broadcom",
        0x43 => "Cavium",
        0x46 => "Fujitsu",
        0x48 => "HiSilicon",
        0x4e => "NVIDIA",
        0x50 => "APM",
        0x51 => "Qualcomm",
        0x53 => "Samsung",
        0x61 => "Apple",
        0x69 => "Intel",
        0x6d => "Microsoft",
        0xc0 => "Ampere",
        _ => "unknown implementer",
    }
}

/// (implementer, part) → core name, for the cores found in servers, workstations and boards.
pub fn part_name(implementer: u32, part: u32) -> Option<&'static str> {
    Some(match (implementer, part) {
        (0x41, 0xc07) => "Cortex-A7",
        (0x41, 0xc09) => "Cortex-A9",
        (0x41, 0xc0f) => "Cortex-A15",
        (0x41, 0xd03) => "Cortex-A53",
        (0x41, 0xd04) => "Cortex-A35",
        (0x41, 0xd05) => "Cortex-A55",
        (0x41, 0xd07) => "Cortex-A57",
        (0x41, 0xd08) => "Cortex-A72",
        (0x41, 0xd09) => "Cortex-A73",
        (0x41, 0xd0a) => "Cortex-A75",
        (0x41, 0xd0b) => "Cortex-A76",
        (0x41, 0xd0c) => "Neoverse-N1",
        (0x41, 0xd0d) => "Cortex-A77",
        (0x41, 0xd40) => "Neoverse-V1",
        (0x41, 0xd41) => "Cortex-A78",
        (0x41, 0xd44) => "Cortex-X1",
        (0x41, 0xd46) => "Cortex-A510",
        (0x41, 0xd47) => "Cortex-A710",
        (0x41, 0xd48) => "Cortex-X2",
        (0x41, 0xd49) => "Neoverse-N2",
        (0x41, 0xd4b) => "Cortex-A78C",
        (0x41, 0xd4d) => "Cortex-A715",
        (0x41, 0xd4e) => "Cortex-X3",
        (0x41, 0xd4f) => "Neoverse-V2",
        (0x41, 0xd80) => "Cortex-A520",
        (0x41, 0xd81) => "Cortex-A720",
        (0x41, 0xd82) => "Cortex-X4",
        (0x41, 0xd84) => "Neoverse-V3",
        (0x41, 0xd8e) => "Neoverse-N3",
        (0x43, 0x0af) => "ThunderX2 99xx",
        (0x46, 0x001) => "A64FX",
        (0x48, 0xd01) => "Kunpeng-920",
        (0x48, 0xd40) => "Cortex-A76",
        (0x4e, 0x004) => "Carmel",
        (0xc0, 0xac3) => "Ampere-1",
        (0xc0, 0xac4) => "Ampere-1a",
        _ => return None,
    })
}
