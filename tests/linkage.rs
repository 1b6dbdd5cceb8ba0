//! What the rigcheck binary asks the dynamic loader for on Linux with glibc: every shared
//! library it names is loaded at every start, before any of its own code runs, and costs the
//! start about 0.1 ms on a small virtual machine (docs/performance.md). The C maths library is
//! not among them (the functions of it that rigcheck calls are defined in src/main.rs), and
//! nothing outside glibc is. And the linker script a release build gets (link/script.rs,
//! written by build.rs) lists each hot function as named, then with its hashes left open.
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

#[path = "../link/script.rs"]
mod script;

#[test]
fn the_hot_text_script_gives_each_name_then_its_hashes_left_open() {
    let list = "\
# a comment line
_ZN8rigcheck3cli3Cli5plain17h1d6560d86cb1a3ccE
_ZN5alloc7raw_vec11finish_grow17h3d7dcdcee161b79dE.llvm.5747611347231538407
_RNvMNtCsgEmfK2I1SDS_4core3stre12trim_matchesCsjrHSEGnQ3l9_3std
main
main
not*a)name
";
    let script = script::hot_text_script(list);
    let lines: Vec<&str> = script.lines().map(str::trim).collect();
    let exact = [
        "_ZN8rigcheck3cli3Cli5plain17h1d6560d86cb1a3ccE",
        "_ZN5alloc7raw_vec11finish_grow17h3d7dcdcee161b79dE.llvm.*",
        "_RNvMNtCsgEmfK2I1SDS_4core3stre12trim_matchesCsjrHSEGnQ3l9_3std",
        "main",
    ];
    let open = [
        "_ZN8rigcheck3cli3Cli5plain17h*E",
        "_ZN5alloc7raw_vec11finish_grow17h*E.llvm.*",
        "_RNvMNtCs*_4core3stre12trim_matchesCs*_3std",
    ];
    let wanted: Vec<String> = exact
        .iter()
        .chain(&open)
        .map(|p| format!("*(.text.{p} .text.unlikely.{p})"))
        .collect();
    // The exact names first, in the list's order, then the open ones; `main` once, the
    // comment and the line with pattern characters left out.
    assert_eq!(lines[..4], ["SECTIONS", "{", ".text.hot :", "{"]);
    assert_eq!(lines[4..lines.len() - 3], wanted[..]);
    assert_eq!(lines[lines.len() - 3..], ["}", "}", "INSERT BEFORE .text;"]);
}

#[test]
fn gold_and_mold_are_told_from_paths_that_merely_contain_the_words() {
    for arg in [
        "-Clink-arg=-fuse-ld=mold",
        "link-arg=-fuse-ld=gold",
        "-Clinker=/usr/bin/ld.gold",
        "/usr/local/bin/mold",
        "mold",
    ] {
        assert!(script::names_gold_or_mold(arg), "{arg}");
    }
    for arg in [
        "--remap-path-prefix=/home/goldberg/src=/src",
        "/opt/moldy/bin/cc",
        "-Copt-level=3",
        "",
    ] {
        assert!(!script::names_gold_or_mold(arg), "{arg}");
    }
}
