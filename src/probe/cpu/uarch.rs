//! The microarchitecture (generation) of an x86 CPU from its vendor, family, model and
//! stepping: a table of Intel and AMD server, workstation and desktop parts from 2012 on.
//!
//! Sources, row by row: Intel's model numbers are those of the Linux kernel's
//! `arch/x86/include/asm/intel-family.h` (named after the Intel SDM's Volume 4, "Model-Specific
//! Registers", table 2-1 of family/model signatures), with the steppings that tell Skylake-SP,
//! Cascade Lake and Cooper Lake apart as Linux's perf and intel_idle drivers use them
//! (model 0x55: steppings 0-4 Skylake, 5-7 Cascade Lake, 10-11 Cooper Lake). AMD's Zen
//! generations are the model ranges by which `arch/x86/kernel/cpu/amd.c` (`bsp_init_amd`)
//! sets X86_FEATURE_ZEN1 to ZEN5, as AMD's Processor Programming References list the
//! families (17h Zen and Zen 2, 19h Zen 3 and Zen 4, 1Ah Zen 5); the codenames of the server
//! and workstation lines are those of AMD's PPR titles (e.g. "PPR for AMD Family 19h Model
//! 01h" is Milan).

/// What the table says of a CPU.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Uarch {
    /// `Cascade Lake`, `Zen 3`.
    pub name: &'static str,
    /// The product line where the model tells it (`Cascade Lake-SP`, `Milan`).
    pub codename: Option<&'static str>,
}

const fn u(name: &'static str, codename: Option<&'static str>) -> Uarch {
    Uarch { name, codename }
}

/// The microarchitecture of `vendor` (`GenuineIntel`, `AuthenticAMD`) family `family`,
/// model `model` (display family and model, as /proc/cpuinfo shows them), stepping
/// `stepping` where known. `None` where the table has no row.
pub fn lookup(vendor: &str, family: u32, model: u32, stepping: Option<u32>) -> Option<Uarch> {
    match vendor {
        "GenuineIntel" if family == 6 => intel(model, stepping),
        "AuthenticAMD" => amd(family, model),
        _ => None,
    }
}

fn intel(model: u32, stepping: Option<u32>) -> Option<Uarch> {
    Some(match model {
        0x2a => u("Sandy Bridge", None),
        0x2d => u("Sandy Bridge", Some("Sandy Bridge-EP")),
        0x3a => u("Ivy Bridge", None),
        0x3e => u("Ivy Bridge", Some("Ivy Bridge-EP")),
        0x3c | 0x45 | 0x46 => u("Haswell", None),
        0x3f => u("Haswell", Some("Haswell-EP")),
        0x3d | 0x47 => u("Broadwell", None),
        0x4f => u("Broadwell", Some("Broadwell-EP")),
        0x56 => u("Broadwell", Some("Broadwell-DE")),
        0x4e | 0x5e => u("Skylake", None),
        // One model for three generations of Xeon Scalable: the stepping tells them.
        0x55 => match stepping {
            Some(0..=4) => u("Skylake", Some("Skylake-SP")),
            Some(5..=7) => u("Cascade Lake", Some("Cascade Lake-SP")),
            Some(10 | 11) => u("Cooper Lake", Some("Cooper Lake-SP")),
            _ => u("Skylake", Some("Skylake-SP, Cascade Lake or Cooper Lake")),
        },
        0x8e | 0x9e => u("Kaby Lake / Coffee Lake", None),
        0xa5 | 0xa6 => u("Comet Lake", None),
        0x66 => u("Cannon Lake", None),
        0x7d | 0x7e => u("Ice Lake", None),
        0x6a => u("Ice Lake", Some("Ice Lake-SP")),
        0x6c => u("Ice Lake", Some("Ice Lake-D")),
        0xa7 => u("Rocket Lake", None),
        0x8c | 0x8d => u("Tiger Lake", None),
        0x97 | 0x9a => u("Alder Lake", None),
        0xb7 | 0xba | 0xbf => u("Raptor Lake", None),
        0xaa | 0xac => u("Meteor Lake", None),
        0xc5 | 0xc6 | 0xb5 => u("Arrow Lake", None),
        0xbd => u("Lunar Lake", None),
        0x8f => u("Sapphire Rapids", Some("Sapphire Rapids-SP")),
        0xcf => u("Emerald Rapids", Some("Emerald Rapids-SP")),
        0xad => u("Granite Rapids", Some("Granite Rapids-AP/SP")),
        0xae => u("Granite Rapids", Some("Granite Rapids-D")),
        0xaf => u("Sierra Forest", Some("Sierra Forest (E-cores)")),
        0xdd => u("Clearwater Forest", Some("Clearwater Forest (E-cores)")),
        0x57 => u("Knights Landing", Some("Xeon Phi")),
        0x85 => u("Knights Mill", Some("Xeon Phi")),
        0x5f => u("Goldmont", Some("Denverton")),
        0x86 => u("Tremont", Some("Snow Ridge")),
        _ => return None,
    })
}

fn amd(family: u32, model: u32) -> Option<Uarch> {
    Some(match (family, model) {
        // Family 17h: Zen (and Zen+, which Linux counts as Zen 1), Zen 2.
        (0x17, 0x01) => u("Zen", Some("Naples")),
        (0x17, 0x08) => u("Zen+", Some("Pinnacle Ridge / Colfax")),
        (0x17, 0x18) => u("Zen+", Some("Picasso")),
        (0x17, 0x00..=0x2f | 0x50..=0x5f) => u("Zen", None),
        (0x17, 0x31) => u("Zen 2", Some("Rome / Castle Peak")),
        (0x17, 0x71) => u("Zen 2", Some("Matisse")),
        (0x17, 0x30..=0x4f | 0x60..=0x7f | 0x90..=0x91 | 0xa0..=0xaf) => u("Zen 2", None),
        // Family 19h: Zen 3 and Zen 4.
        (0x19, 0x01) => u("Zen 3", Some("Milan")),
        (0x19, 0x08) => u("Zen 3", Some("Chagall")),
        (0x19, 0x21) => u("Zen 3", Some("Vermeer")),
        (0x19, 0x00..=0x0f | 0x20..=0x5f) => u("Zen 3", None),
        (0x19, 0x11) => u("Zen 4", Some("Genoa")),
        (0x19, 0x18) => u("Zen 4", Some("Storm Peak")),
        (0x19, 0x61) => u("Zen 4", Some("Raphael")),
        (0x19, 0xa0..=0xaf) => u("Zen 4c", Some("Bergamo / Siena")),
        (0x19, 0x10..=0x1f | 0x60..=0xaf) => u("Zen 4", None),
        // Family 1Ah: Zen 5.
        (0x1a, 0x02) => u("Zen 5", Some("Turin")),
        (0x1a, 0x11) => u("Zen 5c", Some("Turin Dense")),
        (0x1a, 0x44) => u("Zen 5", Some("Granite Ridge")),
        (0x1a, 0x00..=0x2f | 0x40..=0x4f | 0x60..=0x7f) => u("Zen 5", None),
        (0x15, _) => u("Bulldozer family", None),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_machines_of_the_fixtures() {
        // Xeon Gold 6254 (family 6 model 85 stepping 7) of the reference machine.
        let z8 = lookup("GenuineIntel", 6, 85, Some(7)).unwrap();
        assert_eq!(
            (z8.name, z8.codename),
            ("Cascade Lake", Some("Cascade Lake-SP"))
        );
        // Xeon Bronze 3104 (stepping 4): Skylake-SP.
        assert_eq!(
            lookup("GenuineIntel", 6, 85, Some(4)).unwrap().name,
            "Skylake"
        );
        // EPYC 7451 (family 23 model 1) and this project's VM (EPYC family 25 model 1).
        assert_eq!(
            lookup("AuthenticAMD", 23, 1, Some(2)),
            Some(u("Zen", Some("Naples")))
        );
        assert_eq!(
            lookup("AuthenticAMD", 25, 1, Some(1)),
            Some(u("Zen 3", Some("Milan")))
        );
        // i7-1165G7 (family 6 model 140): Tiger Lake.
        assert_eq!(
            lookup("GenuineIntel", 6, 140, Some(1)).unwrap().name,
            "Tiger Lake"
        );
        // Emerald Rapids (model 207) of the KVM guest capture.
        assert_eq!(
            lookup("GenuineIntel", 6, 207, None).unwrap().name,
            "Emerald Rapids"
        );
    }

    #[test]
    fn unknown_parts_have_no_row() {
        assert_eq!(lookup("GenuineIntel", 6, 0x01, None), None);
        assert_eq!(lookup("GenuineIntel", 15, 6, None), None);
        assert_eq!(lookup("AuthenticAMD", 0x19, 0xf0, None), None);
        assert_eq!(lookup("ARM", 0, 0, None), None);
    }

    #[test]
    fn zen_generations_follow_linux_model_ranges() {
        assert_eq!(
            lookup("AuthenticAMD", 0x17, 0x60, None).unwrap().name,
            "Zen 2"
        );
        assert_eq!(
            lookup("AuthenticAMD", 0x19, 0x50, None).unwrap().name,
            "Zen 3"
        );
        assert_eq!(
            lookup("AuthenticAMD", 0x19, 0x74, None).unwrap().name,
            "Zen 4"
        );
        assert_eq!(
            lookup("AuthenticAMD", 0x1a, 0x24, None).unwrap().name,
            "Zen 5"
        );
        assert_eq!(
            lookup("AuthenticAMD", 0x19, 0x11, None).unwrap().codename,
            Some("Genoa")
        );
    }
}
