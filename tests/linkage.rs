//! What the rigcheck binary asks the dynamic loader for on Linux with glibc: every shared
//! library it names is loaded at every start, before any of its own code runs, and costs the
//! start about 0.1 ms on a small virtual machine (docs/performance.md). The C maths library is
//! not among them (the functions of it that rigcheck calls are defined in src/main.rs), and
//! nothing outside glibc is.
#![cfg(all(target_os = "linux", target_env = "gnu"))]
#![allow(clippy::unwrap_used, clippy::expect_used)]

/// The `DT_NEEDED` entries of a 64-bit little-endian ELF file: the program headers give the
/// dynamic section (`PT_DYNAMIC`) and the loadable segments, which turn the string table's
/// address (`DT_STRTAB`) into a file offset.
fn needed(elf: &[u8]) -> Vec<String> {
    let u16_at = |o: usize| u16::from_le_bytes(elf[o..o + 2].try_into().unwrap());
    let u32_at = |o: usize| u32::from_le_bytes(elf[o..o + 4].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(elf[o..o + 8].try_into().unwrap());
    assert_eq!(&elf[..4], b"\x7fELF", "not an ELF file");
    assert_eq!(
        (elf[4], elf[5]),
        (2, 1),
        "not a 64-bit little-endian ELF file"
    );
    let (phoff, phentsize, phnum) = (u64_at(0x20) as usize, u16_at(0x36), u16_at(0x38));
    let headers: Vec<usize> = (0..phnum as usize)
        .map(|i| phoff + i * phentsize as usize)
        .collect();
    // (p_type, p_offset, p_vaddr, p_filesz)
    let segment = |h: usize| (u32_at(h), u64_at(h + 8), u64_at(h + 16), u64_at(h + 32));
    let to_offset = |addr: u64| {
        headers
            .iter()
            .map(|&h| segment(h))
            .find(|&(kind, _, vaddr, size)| kind == 1 && (vaddr..vaddr + size).contains(&addr))
            .map(|(_, offset, vaddr, _)| (addr - vaddr + offset) as usize)
            .expect("the string table lies in a loadable segment")
    };
    let (_, dyn_offset, _, dyn_size) = headers
        .iter()
        .map(|&h| segment(h))
        .find(|&(kind, ..)| kind == 2)
        .expect("a dynamically linked binary has a dynamic section");
    let entries: Vec<(u64, u64)> = (dyn_offset..dyn_offset + dyn_size)
        .step_by(16)
        .map(|o| (u64_at(o as usize), u64_at(o as usize + 8)))
        .take_while(|&(tag, _)| tag != 0)
        .collect();
    let strtab = entries
        .iter()
        .find(|&&(tag, _)| tag == 5)
        .map(|&(_, addr)| to_offset(addr))
        .expect("a dynamic section has a string table");
    entries
        .iter()
        .filter(|&&(tag, _)| tag == 1)
        .map(|&(_, name)| {
            let start = strtab + name as usize;
            let end = start + elf[start..].iter().position(|&b| b == 0).unwrap();
            String::from_utf8_lossy(&elf[start..end]).into_owned()
        })
        .collect()
}

#[test]
fn the_binary_loads_glibc_and_not_its_maths_library() {
    let elf = std::fs::read(env!("CARGO_BIN_EXE_rigcheck")).unwrap();
    let libs = needed(&elf);
    assert!(libs.iter().any(|l| l == "libc.so.6"), "{libs:?}");
    assert!(
        !libs.iter().any(|l| l.starts_with("libm.so")),
        "rigcheck needs libm again: a call to a C maths function not defined in \
         src/main.rs's `maths` ({libs:?}; `readelf --dyn-syms -W` lists the undefined ones)"
    );
    // glibc's own (split into several files before 2.34), and libgcc_s for std's unwinder
    // in a debug build (a release build links the unwinder in: build.rs).
    const ALLOWED: [&str; 7] = [
        "libc.so",
        "ld-linux",
        "libpthread.so",
        "libdl.so",
        "librt.so",
        "libutil.so",
        "libgcc_s.so",
    ];
    for lib in &libs {
        assert!(
            ALLOWED.iter().any(|a| lib.starts_with(a)),
            "rigcheck needs {lib}, outside glibc ({libs:?})"
        );
    }
}
