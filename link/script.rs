//! The linker script build.rs hands the linker for a release build on Linux: the functions
//! of `link/hot-text.txt` placed together at the start of the text. Kept apart from build.rs
//! so that `tests/linkage.rs` can check what it writes.

use std::collections::HashSet;
use std::fmt::Write as _;

/// A compiler flag or linker path that picks gold or mold: `-Clink-arg=-fuse-ld=mold`,
/// `-Clinker=/usr/bin/ld.gold`, a linker named `mold`.
pub fn names_gold_or_mold(arg: &str) -> bool {
    let file = arg.rsplit(['/', '=']).next().unwrap_or(arg);
    ["fuse-ld=gold", "fuse-ld=mold", "ld.gold", "ld.mold"]
        .iter()
        .any(|n| arg.contains(n))
        || matches!(file, "gold" | "mold")
}

/// The linker script for a list of mangled names. Each name is first given as it is, save the
/// `.llvm.N` suffix ThinLTO adds to a promoted local (N changes with the module's code);
/// then again with the hashes left open that name the crate's build (`17h<16 hex digits>E`
/// of a legacy name, `Cs<base 62>_` of a v0 one), which a new toolchain or dependency update
/// changes: a stale list still gathers the same functions, with their sibling instances of
/// a generic, behind the exact ones. A function LLVM takes for cold (`#[cold]`, a path that
/// ends in a panic) is in `.text.unlikely.<name>`, and some of those run at every start
/// (`OnceLock::initialize`, a `Vec`'s growth). `INSERT BEFORE .text` keeps the linker's own
/// layout for everything else. A line that is not a plain symbol name (a comment, or anything
/// with a character the script would read as a pattern or a token) is left out.
pub fn hot_text_script(list: &str) -> String {
    let names: Vec<&str> = list
        .lines()
        .map(str::trim)
        .filter(|n| {
            !n.is_empty()
                && n.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'.')
        })
        .collect();
    let exact = names.iter().map(|n| without_llvm_suffix(n));
    let open = names.iter().map(|n| open_hashes(&without_llvm_suffix(n)));
    let mut seen = HashSet::new();
    let mut script = String::from("SECTIONS\n{\n  .text.hot :\n  {\n");
    for pattern in exact.chain(open) {
        if seen.insert(pattern.clone()) {
            let _ = writeln!(script, "    *(.text.{pattern} .text.unlikely.{pattern})");
        }
    }
    script.push_str("  }\n}\nINSERT BEFORE .text;\n");
    script
}

/// `name.llvm.123` → `name.llvm.*`.
fn without_llvm_suffix(name: &str) -> String {
    match name.find(".llvm.") {
        Some(i) => format!("{}.llvm.*", &name[..i]),
        None => name.to_string(),
    }
}

/// The build's hashes in a mangled name left open: `17h0123456789abcdefE` → `17h*E` (legacy),
/// `Cs4fqI2P2rA04_4core` → `Cs*_4core` (v0).
fn open_hashes(name: &str) -> String {
    let b = name.as_bytes();
    let mut out = String::with_capacity(name.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"17h")
            && b.len() >= i + 20
            && b[i + 3..i + 19].iter().all(u8::is_ascii_hexdigit)
            && b[i + 19] == b'E'
        {
            out.push_str("17h*E");
            i += 20;
            continue;
        }
        if b[i..].starts_with(b"Cs") {
            let len = b[i + 2..]
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric())
                .count();
            let end = i + 2 + len;
            if len > 0
                && b.get(end) == Some(&b'_')
                && b.get(end + 1).is_some_and(u8::is_ascii_digit)
            {
                out.push_str("Cs*_");
                i = end + 1;
                continue;
            }
        }
        out.push(b[i] as char);
        i += 1;
    }
    out
}
