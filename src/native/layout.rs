//! The byte layouts of two Windows answers, read without `unsafe` so they are tested on any
//! host: the records of `GetLogicalProcessorInformationEx(RelationAll)` and the storage
//! descriptors of `IOCTL_STORAGE_QUERY_PROPERTY`. Offsets are those of the 64-bit
//! structures in the Windows SDK (winnt.h, winioctl.h); a record that is too short or
//! names more data than it holds is an error that says where, never a guess.

use crate::native::{
    Disk, GroupMask, ProcessorCache, ProcessorCore, ProcessorGroup, ProcessorNode, Processors,
};

/// `LOGICAL_PROCESSOR_RELATIONSHIP` values.
const RELATION_PROCESSOR_CORE: u32 = 0;
const RELATION_NUMA_NODE: u32 = 1;
const RELATION_CACHE: u32 = 2;
const RELATION_PROCESSOR_PACKAGE: u32 = 3;
const RELATION_GROUP: u32 = 4;

/// `LTP_PC_SMT`: the core runs more than one logical processor.
const LTP_PC_SMT: u8 = 1;

/// Size of `GROUP_AFFINITY` (KAFFINITY mask, group, 3 reserved words).
const GROUP_AFFINITY_LEN: usize = 16;
/// Size of `PROCESSOR_GROUP_INFO`.
const GROUP_INFO_LEN: usize = 48;

fn u8_at(b: &[u8], off: usize) -> Option<u8> {
    b.get(off).copied()
}

fn u16_at(b: &[u8], off: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(off..off + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], off: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(off..off + 4)?.try_into().ok()?))
}

fn u64_at(b: &[u8], off: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(off..off + 8)?.try_into().ok()?))
}

/// `count` `GROUP_AFFINITY` entries from `off`; Windows 7 wrote no count (0) and one mask.
fn group_masks(rec: &[u8], count_off: usize, masks_off: usize) -> Option<Vec<GroupMask>> {
    let count = usize::from(u16_at(rec, count_off)?).max(1);
    (0..count)
        .map(|i| {
            let at = masks_off + i * GROUP_AFFINITY_LEN;
            Some(GroupMask {
                mask: u64_at(rec, at)?,
                group: u16_at(rec, at + 8)?,
            })
        })
        .collect()
}

/// Takes apart the buffer `GetLogicalProcessorInformationEx(RelationAll)` filled. Records of
/// kinds it does not use (dies, modules, `RelationNumaNodeEx`) are skipped by their size.
pub fn parse_processor_information(buf: &[u8]) -> Result<Processors, String> {
    let mut out = Processors::default();
    let mut pos = 0usize;
    while pos < buf.len() {
        let bad = |what: &str| format!("processor information record at byte {pos}: {what}");
        let kind = u32_at(buf, pos).ok_or_else(|| bad("cut short"))?;
        let size = u32_at(buf, pos + 4).ok_or_else(|| bad("cut short"))? as usize;
        let rec = pos
            .checked_add(size)
            .filter(|&end| size >= 8 && end <= buf.len())
            .map(|end| &buf[pos..end])
            .ok_or_else(|| bad(&format!("size {size} does not fit the buffer")))?;
        let short = || bad("shorter than its kind");
        match kind {
            RELATION_PROCESSOR_CORE | RELATION_PROCESSOR_PACKAGE => {
                let flags = u8_at(rec, 8).ok_or_else(short)?;
                let efficiency_class = u8_at(rec, 9).ok_or_else(short)?;
                let processors = group_masks(rec, 30, 32).ok_or_else(short)?;
                if kind == RELATION_PROCESSOR_CORE {
                    out.cores.push(ProcessorCore {
                        smt: flags & LTP_PC_SMT != 0,
                        efficiency_class,
                        processors,
                    });
                } else {
                    out.packages.push(processors);
                }
            }
            RELATION_NUMA_NODE => out.numa_nodes.push(ProcessorNode {
                node: u32_at(rec, 8).ok_or_else(short)?,
                processors: group_masks(rec, 30, 32).ok_or_else(short)?,
            }),
            RELATION_CACHE => {
                let kind = match u32_at(rec, 16).ok_or_else(short)? {
                    0 => "unified",
                    1 => "instruction",
                    2 => "data",
                    3 => "trace",
                    _ => "unknown",
                };
                out.caches.push(ProcessorCache {
                    level: u8_at(rec, 8).ok_or_else(short)?,
                    associativity: u8_at(rec, 9).ok_or_else(short)?,
                    line_bytes: u16_at(rec, 10).ok_or_else(short)?,
                    size_bytes: u32_at(rec, 12).ok_or_else(short)?,
                    kind: kind.to_string(),
                    processors: group_masks(rec, 38, 40).ok_or_else(short)?,
                });
            }
            RELATION_GROUP => {
                let active = usize::from(u16_at(rec, 10).ok_or_else(short)?);
                for i in 0..active {
                    let at = 32 + i * GROUP_INFO_LEN;
                    out.groups.push(ProcessorGroup {
                        maximum: u32::from(u8_at(rec, at).ok_or_else(short)?),
                        active: u32::from(u8_at(rec, at + 1).ok_or_else(short)?),
                        active_mask: u64_at(rec, at + 40).ok_or_else(short)?,
                    });
                }
            }
            _ => {}
        }
        pos += size;
    }
    Ok(out)
}

/// `STORAGE_BUS_TYPE` names, by value (winioctl.h).
pub fn bus_type_name(code: i32) -> String {
    const NAMES: [&str; 21] = [
        "Unknown",
        "Scsi",
        "Atapi",
        "Ata",
        "1394",
        "Ssa",
        "Fibre",
        "Usb",
        "RAID",
        "iScsi",
        "Sas",
        "Sata",
        "Sd",
        "Mmc",
        "Virtual",
        "FileBackedVirtual",
        "Spaces",
        "NVMe",
        "SCM",
        "Ufs",
        "NVMeoF",
    ];
    usize::try_from(code)
        .ok()
        .and_then(|i| NAMES.get(i))
        .map_or_else(|| format!("bus type {code}"), |n| (*n).to_string())
}

/// The NUL-terminated ASCII string at `off` of a descriptor (0 = none), trimmed.
fn descriptor_string(b: &[u8], off: u32) -> Option<String> {
    let start = usize::try_from(off).ok().filter(|&o| o > 0)?;
    let rest = b.get(start..)?;
    let end = rest.iter().position(|&c| c == 0).unwrap_or(rest.len());
    let text = String::from_utf8_lossy(&rest[..end]);
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// Fills vendor, model, revision, serial, bus type and removability of `disk` from a
/// `STORAGE_DEVICE_DESCRIPTOR` (`StorageDeviceProperty`).
pub fn parse_device_descriptor(b: &[u8], disk: &mut Disk) -> Result<(), String> {
    let short = || {
        format!(
            "storage device descriptor of {} bytes is cut short",
            b.len()
        )
    };
    disk.removable = Some(u8_at(b, 10).ok_or_else(short)? != 0);
    disk.vendor = descriptor_string(b, u32_at(b, 12).ok_or_else(short)?);
    disk.model = descriptor_string(b, u32_at(b, 16).ok_or_else(short)?);
    disk.revision = descriptor_string(b, u32_at(b, 20).ok_or_else(short)?);
    disk.serial = descriptor_string(b, u32_at(b, 24).ok_or_else(short)?);
    let bus = u32_at(b, 28).ok_or_else(short)?;
    disk.bus_type = Some(bus_type_name(i32::from_le_bytes(bus.to_le_bytes())));
    Ok(())
}

/// `DEVICE_SEEK_PENALTY_DESCRIPTOR.IncursSeekPenalty`.
pub fn parse_seek_penalty(b: &[u8]) -> Option<bool> {
    u8_at(b, 8).map(|v| v != 0)
}

/// (`BytesPerLogicalSector`, `BytesPerPhysicalSector`) of a
/// `STORAGE_ACCESS_ALIGNMENT_DESCRIPTOR`.
pub fn parse_alignment(b: &[u8]) -> Option<(u32, u32)> {
    Some((u32_at(b, 16)?, u32_at(b, 20)?))
}

/// `DISK_GEOMETRY_EX.DiskSize`, after the 24-byte `DISK_GEOMETRY`.
pub fn parse_disk_size(b: &[u8]) -> Option<u64> {
    u64_at(b, 24)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// One record as Windows writes it: relationship, size, then `body` (padded to `size`).
    fn record(kind: u32, size: usize, body: &[(usize, &[u8])]) -> Vec<u8> {
        let mut r = vec![0u8; size];
        r[0..4].copy_from_slice(&kind.to_le_bytes());
        r[4..8].copy_from_slice(&(size as u32).to_le_bytes());
        for (off, bytes) in body {
            r[*off..*off + bytes.len()].copy_from_slice(bytes);
        }
        r
    }

    fn affinity(group: u16, mask: u64) -> Vec<u8> {
        let mut a = mask.to_le_bytes().to_vec();
        a.extend_from_slice(&group.to_le_bytes());
        a.extend_from_slice(&[0; 6]);
        a
    }

    /// The records Windows returns for a machine of `packages` × `cores` × `smt` logical
    /// processors in one group, with one L1d/L1i/L2 per core and one L3 per package, in the
    /// order it writes them (cores, then per-package caches and packages, then nodes and
    /// the group).
    pub(crate) fn glpi(packages: u32, cores: u32, smt: u32, l3: u32) -> Vec<u8> {
        let per_pkg = cores * smt;
        let mask = |first: u32, n: u32| ((1u64 << n) - 1) << first;
        let mut buf = Vec::new();
        for p in 0..packages {
            for c in 0..cores {
                let first = p * per_pkg + c * smt;
                let flags = [u8::from(smt > 1), 0];
                buf.extend(record(
                    0,
                    48,
                    &[
                        (8, &flags),
                        (30, &1u16.to_le_bytes()),
                        (32, &affinity(0, mask(first, smt))),
                    ],
                ));
                for (level, kind, size, assoc) in [
                    (1u8, 2u32, 32768u32, 8u8),
                    (1, 1, 32768, 8),
                    (2, 0, 1 << 20, 16),
                ] {
                    buf.extend(record(
                        2,
                        56,
                        &[
                            (8, &[level, assoc]),
                            (10, &64u16.to_le_bytes()),
                            (12, &size.to_le_bytes()),
                            (16, &kind.to_le_bytes()),
                            (38, &1u16.to_le_bytes()),
                            (40, &affinity(0, mask(first, smt))),
                        ],
                    ));
                }
            }
            buf.extend(record(
                2,
                56,
                &[
                    (8, &[3, 11]),
                    (10, &64u16.to_le_bytes()),
                    (12, &l3.to_le_bytes()),
                    (16, &0u32.to_le_bytes()),
                    (38, &1u16.to_le_bytes()),
                    (40, &affinity(0, mask(p * per_pkg, per_pkg))),
                ],
            ));
            buf.extend(record(
                3,
                48,
                &[
                    (30, &1u16.to_le_bytes()),
                    (32, &affinity(0, mask(p * per_pkg, per_pkg))),
                ],
            ));
            buf.extend(record(
                1,
                48,
                &[
                    (8, &p.to_le_bytes()),
                    (30, &1u16.to_le_bytes()),
                    (32, &affinity(0, mask(p * per_pkg, per_pkg))),
                ],
            ));
        }
        let all = packages * per_pkg;
        let mut info = vec![all as u8, all as u8];
        info.extend_from_slice(&[0; 38]);
        info.extend_from_slice(&mask(0, all).to_le_bytes());
        buf.extend(record(
            4,
            80,
            &[
                (8, &1u16.to_le_bytes()),
                (10, &1u16.to_le_bytes()),
                (32, &info),
            ],
        ));
        buf
    }

    #[test]
    fn processor_records_are_taken_apart() {
        // A Xeon Bronze 3104 pair as Windows lists it: 2 packages × 6 cores, no SMT.
        let p = parse_processor_information(&glpi(2, 6, 1, 8_650_752)).unwrap();
        assert_eq!(p.packages.len(), 2);
        assert_eq!(p.cores.len(), 12);
        assert!(p.cores.iter().all(|c| !c.smt && c.processors.len() == 1));
        assert_eq!(
            p.packages[1],
            vec![GroupMask {
                group: 0,
                mask: 0xfc0
            }]
        );
        assert_eq!(p.numa_nodes[1].node, 1);
        assert_eq!(
            p.groups,
            vec![ProcessorGroup {
                maximum: 12,
                active: 12,
                active_mask: 0xfff
            }]
        );
        let l3: Vec<_> = p.caches.iter().filter(|c| c.level == 3).collect();
        assert_eq!(l3.len(), 2);
        assert_eq!(
            (l3[0].kind.as_str(), l3[0].size_bytes),
            ("unified", 8_650_752)
        );
        assert_eq!(p.caches.iter().filter(|c| c.kind == "data").count(), 12);
    }

    #[test]
    fn broken_records_are_errors_with_their_offset() {
        let mut buf = glpi(1, 2, 2, 1 << 20);
        // The second record claims to run past the end of the buffer.
        buf[48 + 4..48 + 8].copy_from_slice(&10_000u32.to_le_bytes());
        let err = parse_processor_information(&buf).unwrap_err();
        assert_eq!(
            err,
            "processor information record at byte 48: size 10000 does not fit the buffer"
        );
        let err = parse_processor_information(&buf[..6]).unwrap_err();
        assert!(err.contains("cut short"), "{err}");
        // A size of 0 would loop forever; it is refused.
        let mut zero = glpi(1, 1, 1, 1 << 20);
        zero[4..8].copy_from_slice(&0u32.to_le_bytes());
        assert!(parse_processor_information(&zero).is_err());
    }

    /// A `STORAGE_DEVICE_DESCRIPTOR` as stornvme answers for an NVMe drive: no vendor,
    /// product and revision strings, the serial, bus type 17.
    pub(crate) fn nvme_descriptor(model: &str, rev: &str, serial: &str) -> Vec<u8> {
        let mut b = vec![0u8; 40];
        b[0..4].copy_from_slice(&1u32.to_le_bytes());
        let put = |field: usize, text: &str, b: &mut Vec<u8>| {
            let off = b.len() as u32;
            b.extend_from_slice(text.as_bytes());
            b.push(0);
            b[field..field + 4].copy_from_slice(&off.to_le_bytes());
        };
        put(16, model, &mut b);
        put(20, rev, &mut b);
        put(24, serial, &mut b);
        b[28..32].copy_from_slice(&17i32.to_le_bytes());
        let size = b.len() as u32;
        b[4..8].copy_from_slice(&size.to_le_bytes());
        b
    }

    #[test]
    fn storage_descriptors() {
        let mut d = Disk::default();
        let b = nvme_descriptor("HP SSD EX950 1TB", "R1106C", "HBSE59340100519     ");
        parse_device_descriptor(&b, &mut d).unwrap();
        assert_eq!(d.vendor, None);
        assert_eq!(d.model.as_deref(), Some("HP SSD EX950 1TB"));
        assert_eq!(d.revision.as_deref(), Some("R1106C"));
        assert_eq!(d.serial.as_deref(), Some("HBSE59340100519"));
        assert_eq!(d.bus_type.as_deref(), Some("NVMe"));
        assert_eq!(d.removable, Some(false));
        assert!(parse_device_descriptor(&b[..20], &mut d).is_err());
        // An offset past the data is no string, not a panic.
        let mut bad = b.clone();
        bad[16..20].copy_from_slice(&5000u32.to_le_bytes());
        parse_device_descriptor(&bad, &mut d).unwrap();
        assert_eq!(d.model, None);
        assert_eq!(bus_type_name(11), "Sata");
        assert_eq!(bus_type_name(99), "bus type 99");
        assert_eq!(
            parse_seek_penalty(&[12, 0, 0, 0, 12, 0, 0, 0, 1]),
            Some(true)
        );
        let mut geo = vec![0u8; 32];
        geo[24..32].copy_from_slice(&1_000_204_886_016u64.to_le_bytes());
        assert_eq!(parse_disk_size(&geo), Some(1_000_204_886_016));
        let mut align = vec![0u8; 28];
        align[16..20].copy_from_slice(&512u32.to_le_bytes());
        align[20..24].copy_from_slice(&4096u32.to_le_bytes());
        assert_eq!(parse_alignment(&align), Some((512, 4096)));
    }
}
