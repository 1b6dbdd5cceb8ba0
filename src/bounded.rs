//! How much one read may take: the ceiling of every file rigcheck reads (the source's reads
//! of a machine, and the reports and profiles a user names) and the budget of each kind of
//! file the probes read, so no stranger's file is ever read whole past what its kind holds.

/// Largest file we read. `/proc/cpuinfo` of a 1024-CPU machine is about 1.5 MiB; anything
/// far past that is not a kernel file and is cut off with a note rather than read whole.
pub const MAX_READ_BYTES: u64 = 16 * 1024 * 1024;

/// How much of a file one reader takes: enough for the largest real file of its kind, with
/// room to spare, and no more. A stranger's sysroot can hold thousands of huge (sparse)
/// files where small ones belong; each then costs a `stat`, not a 16 MiB read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// One sysfs attribute (`cpuinfo_max_freq`, `size`, `numa_node`), as `read_value` and
    /// `read_parse` read it: the kernel writes at most one page, 4 KiB, or 64 KiB with
    /// 64 KiB pages.
    Attribute,
    /// A small text or table: /proc/meminfo (1.5 KiB), /proc/self/status and limits, a
    /// node's meminfo, os-release, udev's database entry, the SMBIOS entry point and table
    /// (3 to 7 KiB on the machines of the fixtures; SMBIOS 2 cannot exceed 64 KiB), the
    /// recorded answers (`nvml.json`: 4 KiB in the largest recording). 1 MiB.
    Text,
    /// A file that grows with the machine: /proc/cpuinfo (about 1.4 KiB a CPU: 16 MiB is
    /// 8192 CPUs, the kernel's most), /proc/self/mountinfo (a container host can carry tens
    /// of thousands of mounts), `pci.ids` (1.3 MiB today). `MAX_READ_BYTES`.
    Large,
}

impl Budget {
    /// The most bytes a reader with this budget takes.
    pub const fn bytes(self) -> u64 {
        match self {
            Budget::Attribute => 64 * 1024,
            Budget::Text => 1024 * 1024,
            Budget::Large => MAX_READ_BYTES,
        }
    }

    /// What the note says when a file is over the budget.
    pub fn refusal(self) -> String {
        match self {
            Budget::Attribute => "larger than 64 KiB, more than a sysfs attribute holds".into(),
            Budget::Text => "larger than 1 MiB, more than this file holds on any machine".into(),
            Budget::Large => format!("larger than {} MiB", MAX_READ_BYTES / (1024 * 1024)),
        }
    }
}
