//! Where the machine's facts come from, chosen once per run: the files backend (/proc and
//! /sys: live Linux, or a sysroot captured there) or the native backend (the OS's own
//! answers: live Windows and macOS, or a sysroot holding their `native.json`). Probes whose
//! reading differs between the two ask the backend (`system`, `memory`, `gpu`, `place`, and
//! the sections here), never the OS they were built for; what both share (the SMBIOS table,
//! CPUID, NVML, headroom) is read the same way for either.

use crate::probe::cpu;
use crate::probe::cpuid::Cpuid;
use crate::probe::drives;
use crate::probe::firmware::{Missing, Smbios};
use crate::probe::limits;
use crate::probe::native::{self, NativeAnswers, NATIVE_FILE};
use crate::probe::smbios;
use crate::source::Source;
use crate::spec::{Cpu, Drive, Limits, Listed, Notes};
use crate::sys;

/// The backend of one run.
#[derive(Debug, Clone, PartialEq)]
pub enum Backend {
    /// /proc and /sys, read through `Source`.
    Files,
    /// The OS's answers (an unreadable record leaves them empty, each fact with its note).
    Native(Box<NativeAnswers>),
}

impl Backend {
    /// Whether the machine behind `src` is described by the OS's own answers (live Windows
    /// or macOS, or a capture of one) rather than by /proc and /sys. Asks nothing of the OS.
    pub fn reads_os_answers(src: &Source) -> bool {
        if src.is_live() {
            sys::LIVE == sys::Live::OsAnswers
        } else {
            src.exists(format!("/{NATIVE_FILE}"))
        }
    }

    /// The backend for `src`. Live on Windows and macOS the OS is asked now (and its answers
    /// kept for `capture`); a sysroot answers from its `native.json`. An unreadable record
    /// is still the native backend: the machine is one of those OSes, and every fact says
    /// why it is unknown.
    pub fn open(src: &Source, notes: &mut Notes) -> Backend {
        if !Backend::reads_os_answers(src) {
            return Backend::Files;
        }
        match native::answers(src) {
            None => Backend::Files,
            Some(Ok(answers)) => {
                for (field, why) in answers.damaged_sections() {
                    notes.add(field, why);
                }
                Backend::Native(Box::new(answers))
            }
            Some(Err(why)) => {
                let why = format!("the OS's answers are unknown: {why}");
                notes.add("os", &why);
                Backend::Native(Box::new(NativeAnswers::unreadable(&why)))
            }
        }
    }

    /// Whether there is a PCI tree to read devices from (sysfs); the native backend sees
    /// GPUs through NVML alone.
    pub fn has_pci_tree(&self) -> bool {
        matches!(self, Backend::Files)
    }

    /// The CPU section: /proc/cpuinfo and sysfs, or the OS's answers with CPUID for the
    /// identity and the SMBIOS processor records where the OS gives no layout.
    pub fn cpu(
        &self,
        src: &Source,
        cpuid: &Cpuid,
        smbios: Result<&Smbios<'_>, &Missing>,
        notes: &mut Notes,
    ) -> Cpu {
        match self {
            Backend::Files => cpu::probe(src, cpuid, notes),
            Backend::Native(a) => {
                let facts = cpuid.available().then(|| cpuid.decode());
                let sockets: Vec<smbios::Processor> = smbios
                    .map(|s| s.table.of_type(4).map(smbios::decode_processor).collect())
                    .unwrap_or_default();
                native::map::cpu(a, facts.as_ref(), &sockets, notes)
            }
        }
    }

    /// The drives: sysfs block devices, or the disks the OS listed.
    pub fn drives(&self, src: &Source, notes: &mut Notes) -> Listed<Drive> {
        match self {
            Backend::Files => drives::probe(src, notes),
            Backend::Native(a) => native::map::drives(a, notes),
        }
    }

    /// The limits of this process: /proc, cgroups and statvfs, or the OS's memory and
    /// volumes.
    pub fn limits(&self, src: &Source, notes: &mut Notes) -> Limits {
        match self {
            Backend::Files => limits::probe(src, notes),
            Backend::Native(a) => native::map::limits(a, notes),
        }
    }
}
