//! The machine as the OS's own APIs describe it where there is no /proc or /sys (Windows,
//! macOS): the `native.json` record, how a run gets it, and how it becomes `Spec` facts.
//!
//! Like NVML's `GpuAccess`, the answers come live (`sys::native_answers`, on Windows and
//! macOS), from a capture (`native.json` in a sysroot, on any host) or live while a capture
//! records them. The record holds answers as the APIs gave them, not `Spec` facts: replay
//! maps them with the same code as a live run (`map`), and a better mapping later applies to
//! old captures too. What each field is and which call answers it is documented on the types
//! in `crate::native` and in docs/native-json.md.

pub mod map;

use crate::source::{Source, Unknown};

pub use crate::native::{
    layout, CpuAnswers, Disk, GroupMask, MemoryAnswers, NativeAnswers, OsAnswers, ProcessorCache,
    ProcessorCore, ProcessorGroup, ProcessorNode, Processors, Volume, FORMAT, NATIVE_FILE,
};

/// The OS's answers for this source, or `None` where there are none (live Linux, or a
/// sysroot without `native.json`). Live on Windows and macOS they are asked now (and kept
/// for `capture`); a sysroot answers from its `native.json`. An unreadable record is
/// `Some(Err)`. `backend::Backend::open` decides whether they are asked at all.
pub fn answers(src: &Source) -> Option<Result<NativeAnswers, String>> {
    if src.is_live() {
        return live(src);
    }
    match src.recorded(NATIVE_FILE) {
        Ok(text) => Some(
            NativeAnswers::from_json(&text)
                .map_err(|e| format!("cannot parse /{NATIVE_FILE}: {e}")),
        ),
        Err(Unknown::NotRecorded(_)) => None,
        Err(e) => Some(Err(e.to_string())),
    }
}

/// The OS's answers asked now (Windows and macOS; none on Linux, which is read from /proc
/// and /sys), kept for `capture` while it records.
fn live(src: &Source) -> Option<Result<NativeAnswers, String>> {
    let a = crate::sys::native_answers()?;
    if src.is_recording() {
        src.store_answer(NATIVE_FILE, a.to_json());
    }
    Some(Ok(a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::spec::Notes;

    /// sysinfo 0.36's answers under Wine 8.0 set to Windows 10, on a 2-CPU KVM guest.
    fn wine() -> NativeAnswers {
        NativeAnswers {
            format: FORMAT,
            os_family: "windows".into(),
            os: OsAnswers {
                name: Some("Windows".into()),
                version: Some("10 (18362)".into()),
                long_version: Some("Microsoft Windows 10".into()),
                kernel_version: Some("18362".into()),
                hostname: Some("vm".into()),
                arch: Some("x86_64".into()),
            },
            cpu: CpuAnswers {
                brand: Some("AMD EPYC".into()),
                vendor_id: Some("AuthenticAMD".into()),
                frequency_mhz: Some(1996),
                logical_cpus: Some(2),
                physical_cores: Some(2),
            },
            memory: MemoryAnswers {
                total_bytes: Some(25_275_985_920),
                available_bytes: Some(23_585_009_664),
            },
            processors: Some(Processors {
                groups: vec![ProcessorGroup {
                    maximum: 2,
                    active: 2,
                    active_mask: 0x3,
                }],
                ..Processors::default()
            }),
            ..NativeAnswers::default()
        }
    }

    #[test]
    fn record_round_trips() {
        let a = wine();
        let text = a.to_json();
        assert!(text.contains("\"active_mask\": \"0x3\""), "{text}");
        assert_eq!(NativeAnswers::from_json(&text), Ok(a));
    }

    #[test]
    fn newer_format_is_refused_and_a_bad_mask_loses_its_section() {
        let mut a = wine();
        a.format = FORMAT + 1;
        let err = NativeAnswers::from_json(&a.to_json()).unwrap_err();
        assert!(err.contains("format 2"), "{err}");
        // A bad mask loses its own section only, and the reason is kept for the notes.
        let bad = wine().to_json().replace("\"0x3\"", "\"0xZZ\"");
        let a = NativeAnswers::from_json(&bad).unwrap();
        assert_eq!(a.processors, None);
        assert_eq!(a.cpu, wine().cpu);
        assert_eq!(a.disks, wine().disks);
        let why = a.why_missing("processors");
        assert!(why.contains("`processors` section is damaged"), "{why}");
        assert!(why.contains("'0xZZ' is not a hex mask"), "{why}");
    }

    #[test]
    fn os_facts_with_a_note_per_missing_answer() {
        let mut a = wine();
        a.os.kernel_version = None;
        a.errors
            .insert("os.kernel_version".into(), "sysinfo gave no answer".into());
        a.os.arch = None;
        let mut notes = Notes::default();
        let os = a.os_facts(&mut notes);
        assert_eq!(os.name.as_deref(), Some("Windows"));
        assert_eq!(os.pretty_name.as_deref(), Some("Microsoft Windows 10"));
        assert_eq!((os.kernel, os.arch), (None, None));
        let fields: Vec<_> = notes
            .0
            .iter()
            .map(|n| (n.field.as_str(), n.reason.as_str()))
            .collect();
        assert_eq!(
            fields,
            [
                ("os.kernel", "sysinfo gave no answer"),
                ("os.arch", "native.json has no os.arch"),
            ]
        );
    }

    #[test]
    fn a_sysroot_without_the_record_is_read_from_files() {
        assert!(answers(&Source::sysroot("fixtures/x86_64-vm-kvm")).is_none());
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(NATIVE_FILE), "{").unwrap();
        let err = answers(&Source::sysroot(dir.path())).unwrap().unwrap_err();
        assert!(err.starts_with("cannot parse /native.json: "), "{err}");
    }

    /// On the OSes it is for, the live backend answers at least the OS name and the CPU
    /// count, and its record reads back the same.
    #[cfg(any(windows, target_os = "macos"))]
    #[test]
    fn collect_answers_here() {
        let a = crate::sys::native_answers().unwrap();
        assert!(a.os.name.is_some(), "{a:?}");
        assert!(a.cpu.logical_cpus.is_some_and(|n| n > 0), "{a:?}");
        assert_eq!(NativeAnswers::from_json(&a.to_json()), Ok(a));
    }
}
