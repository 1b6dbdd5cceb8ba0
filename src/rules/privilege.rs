//! Whether a fact that could not be read would be read with more rights, and what to tell the
//! user once, in the answer line of verify and preflight, so the fix is not left in the notes.
//!
//! A probe says a read needs root in its note (`needs root: … is readable by root only`,
//! `SMBIOS tables need root: …`, `run as root`); a fact that is simply not there (a VM's
//! absent SMBIOS tables) says so instead, and more rights would not read it.

/// True when `reason` (a note of a fact not read) says more rights would read it.
pub fn needs_root(reason: &str) -> bool {
    reason.contains("needs root")
        || reason.contains("need root")
        || reason.contains(crate::sys::ELEVATE)
}

/// What would complete a check that could not read `unknown` of its facts, `rooted` of them
/// for want of rights: `run as root to read them` (all) or `… to read 4 of them`. `None`
/// when rights would read none. (A recording made without root is read whole by capturing
/// again as root: the note under each line says where the file was denied.)
pub fn to_complete(unknown: usize, rooted: usize) -> Option<String> {
    if rooted == 0 {
        return None;
    }
    let which = if rooted >= unknown {
        "them".to_string()
    } else {
        format!("{rooted} of them")
    };
    Some(format!("{} to read {which}", crate::sys::ELEVATE))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rights_help_only_where_a_note_says_so() {
        assert!(needs_root(
            "needs root: /sys/class/dmi/id/product_serial is readable by root only"
        ));
        assert!(needs_root(
            "SMBIOS tables need root: /sys/firmware/dmi/tables/DMI is readable by root only"
        ));
        // A VM has no tables to read, whoever asks.
        assert!(!needs_root(
            "no SMBIOS tables: /sys/firmware/dmi/tables/smbios_entry_point is not present"
        ));
        assert_eq!(to_complete(4, 0), None);
        let all = to_complete(4, 4).unwrap();
        assert!(all.ends_with("to read them"), "{all}");
        assert!(to_complete(5, 4).unwrap().ends_with("to read 4 of them"));
    }
}
