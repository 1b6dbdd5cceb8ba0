//! What the compiler cannot hold the crate to, read from the sources (docs/architecture.md):
//! the library's modules import one way (base ← rules ← checks ← engines), `spec` imports
//! nothing of the crate, probes never render or check, renderers never read the machine nor
//! call a check, top-level modules depend on each other in no circle, the SMBIOS table has
//! one reader, `unsafe` stays in `sys` (but for the GPU libraries' entry points), and no code
//! outside `sys` chooses by OS. That the library does not reach the command line needs no
//! test: `cli` and `commands` are the binary's, which the library cannot name.
//!
//! Test-only code (`#[cfg(test)]` items), comments and string literals are left out.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The library's top-level modules by layer, lowest first: a module may import its own layer
/// and those below.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "base",
        &[
            "spec",
            "units",
            "source",
            "io",
            "text",
            "natural",
            "locator",
            "cpulist",
            "error",
            "signals",
            "bounded",
            "sys",
            "native",
            "outcome",
            "plausible",
        ],
    ),
    ("rules", &["rules"]),
    (
        "checks",
        &[
            "verify",
            "measured",
            "diff",
            "preflight",
            "fleet",
            "profile",
            "requirement",
        ],
    ),
    (
        "engines",
        &[
            "probe",
            "render",
            "bench",
            "capture",
            "redact",
            "report_file",
            "schema",
        ],
    ),
];

/// The binary's files: the command line and the commands, which may import anything.
const BINARY: &[&str] = &["main.rs", "cli.rs", "usage.rs", "commands"];

/// Files allowed `unsafe` outside `sys`, and why: each calls a GPU library's entry point
/// through its loaded symbols, not the OS.
const UNSAFE_OUTSIDE_SYS: &[(&str, &str)] = &[
    (
        "probe/gpu/live.rs",
        "NVML's instance-id calls, which nvml-wrapper does not wrap",
    ),
    (
        "bench/gpu.rs",
        "CUDA and cuBLAS, loaded at run time for the GPU benchmark",
    ),
];

fn layer_of(top: &str) -> Option<usize> {
    LAYERS.iter().position(|(_, ms)| ms.contains(&top))
}

/// Every `.rs` file under `dir`, as (path relative to src, text without comments, strings
/// and test-only items).
fn read_tree(dir: &Path) -> BTreeMap<String, String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p: PathBuf = e.unwrap().path();
            if p.is_dir() {
                walk(root, &p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.insert(rel, clean(&std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// The code of `text`: comments and string/char literals blanked, and every item under a
/// `#[cfg(test)]` (or `#[cfg(all(test, ...))]`) attribute taken out.
fn clean(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        let rest = &text[i..];
        if rest.starts_with("//") {
            i += rest.find('\n').unwrap_or(rest.len());
        } else if rest.starts_with("/*") {
            i += rest.find("*/").map_or(rest.len(), |e| e + 2);
        } else if let Some(hashes) = raw_string_start(rest) {
            let close = format!("\"{}", "#".repeat(hashes));
            let body = 2 + hashes + usize::from(rest.starts_with("br"));
            i += body
                + rest[body..]
                    .find(&close)
                    .map_or(rest.len() - body, |e| e + close.len());
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && is_char_literal(rest) {
            i += rest[1..].find('\'').map_or(1, |e| e + 2);
            out.push_str("' '");
        } else if rest.starts_with("#[cfg(test)]") || rest.starts_with("#[cfg(all(test") {
            i += skip_item(rest);
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// `r"`, `r#"`, `br"` ...: the number of `#`.
fn raw_string_start(s: &str) -> Option<usize> {
    let s = s.strip_prefix('b').unwrap_or(s).strip_prefix('r')?;
    let hashes = s.len() - s.trim_start_matches('#').len();
    s[hashes..].starts_with('"').then_some(hashes)
}

/// A char literal (`'a'`, `'\n'`, `'\''`) rather than a lifetime (`'a`).
fn is_char_literal(s: &str) -> bool {
    let mut c = s[1..].chars();
    matches!(
        (c.next(), c.next()),
        (Some('\\'), _) | (Some(_), Some('\''))
    )
}

/// The length of an attributed item: through its matching closing brace, or its `;` where
/// it has no body.
fn skip_item(s: &str) -> usize {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            ';' if depth == 0 => return i + 1,
            _ => {}
        }
    }
    s.len()
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The library's top-level module a file belongs to (`render/sheet/html.rs` → `render`);
/// `None` for lib.rs and the binary's files.
fn top_of(file: &str) -> Option<&str> {
    if file == "lib.rs"
        || BINARY
            .iter()
            .any(|b| file == *b || file.starts_with(&format!("{b}/")))
    {
        return None;
    }
    Some(file.split('/').next()?.trim_end_matches(".rs"))
}

/// Every path written from the crate's root, `crate::a::b::c`, as its segments (use trees
/// expanded: `crate::{a, b::{c, d}}` gives `a`, `b::c`, `b::d`).
fn crate_paths(text: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        if text[..at].ends_with(is_ident) {
            continue;
        }
        expand(&text[at + 7..], Vec::new(), &mut out);
    }
    out
}

/// Reads one path (or use tree) at the start of `s` under `prefix`.
fn expand(s: &str, mut prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let s = s.trim_start();
    if let Some(inner) = s.strip_prefix('{') {
        let mut depth = 0;
        let mut start = 0;
        for (i, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' if depth == 0 => {
                    expand(&inner[start..i], prefix.clone(), out);
                    return;
                }
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&inner[start..i], prefix.clone(), out);
                    start = i + 1;
                }
                _ => {}
            }
        }
        return;
    }
    let end = s.find(|c: char| !is_ident(c)).unwrap_or(s.len());
    if end == 0 {
        if !prefix.is_empty() {
            out.push(prefix);
        }
        return;
    }
    prefix.push(s[..end].to_string());
    match s[end..].strip_prefix("::") {
        Some(rest) => expand(rest, prefix, out),
        None => out.push(prefix),
    }
}

/// Whether `path`'s last segment names a function called right after it in `text`.
fn calls_function(text: &str, path: &str) -> bool {
    text.match_indices(path).any(|(i, p)| {
        !text[..i].ends_with(|c: char| is_ident(c) || c == ':')
            && text[i + p.len()..].trim_start().starts_with('(')
    })
}

/// Every way the library's imports break the layers, as sentences.
fn layering(tree: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut edges: BTreeMap<&str, BTreeSet<String>> = BTreeMap::new();
    let checks = LAYERS[2].1;
    for (file, text) in tree {
        let Some(top) = top_of(file) else { continue };
        let Some(mine) = layer_of(top) else {
            out.push(format!(
                "{file}: module {top} is in no layer of tests/architecture.rs"
            ));
            continue;
        };
        for path in crate_paths(text) {
            let dep = path[0].as_str();
            if dep == top || dep == "self" || dep == "super" {
                continue;
            }
            edges.entry(top).or_default().insert(dep.to_string());
            let Some(theirs) = layer_of(dep) else {
                continue;
            };
            let why = if top == "spec" {
                Some("spec imports nothing of the crate")
            } else if theirs > mine {
                Some("imports go down only")
            } else if top == "probe" && (dep == "render" || theirs == 2) {
                Some("probes read the machine; they never render or check")
            } else if top == "render" && matches!(dep, "probe" | "source" | "io") {
                Some("renderers never read the machine")
            } else if top == "render" && checks.contains(&dep) && path.len() > 1 {
                // A renderer paints what the checks found; it never calls a check.
                let last = path.last().unwrap();
                (last.starts_with(|c: char| c.is_ascii_lowercase())
                    && (calls_function(text, &format!("crate::{}", path.join("::")))
                        || calls_function(text, last))
                    && !tree.contains_key(&format!("{}.rs", path.join("/")))
                    && !tree.contains_key(&format!("{}/mod.rs", path.join("/"))))
                .then_some("a renderer calls a check's function: pass it the findings instead")
            } else {
                None
            };
            if let Some(why) = why {
                out.push(format!("{file} imports crate::{}: {why}", path.join("::")));
            }
        }
    }
    // Module aliases (`use crate::verify;` then `verify::counts(...)`) in renderers.
    for (file, text) in tree.iter().filter(|(f, _)| f.starts_with("render")) {
        for c in checks {
            if text.contains(&format!("use crate::{c};")) || text.contains(&format!("crate::{{{c}"))
            {
                let prefix = format!("{c}::");
                for (i, _) in text.match_indices(&prefix) {
                    let after = &text[i + prefix.len()..];
                    let name: String = after.chars().take_while(|c| is_ident(*c)).collect();
                    if !text[..i].ends_with(|c: char| is_ident(c) || c == ':')
                        && name.starts_with(|c: char| c.is_ascii_lowercase())
                        && after[name.len()..].trim_start().starts_with('(')
                    {
                        out.push(format!("{file} calls {c}::{name}, a check's function"));
                    }
                }
            }
        }
    }
    for cycle in cycles(&edges) {
        out.push(format!("modules depend on each other in a circle: {cycle}"));
    }
    out.sort();
    out.dedup();
    out
}

/// Top-level modules on a circle of imports, each circle once.
fn cycles(edges: &BTreeMap<&str, BTreeSet<String>>) -> Vec<String> {
    let mut found = BTreeSet::new();
    for start in edges.keys() {
        let mut stack = vec![(start.to_string(), vec![start.to_string()])];
        while let Some((at, path)) = stack.pop() {
            for next in edges.get(at.as_str()).into_iter().flatten() {
                if next == start {
                    let mut ring = path.clone();
                    let min = ring.iter().enumerate().min_by_key(|(_, m)| *m).unwrap().0;
                    ring.rotate_left(min);
                    found.insert(ring.join(" → "));
                } else if !path.contains(next) && path.len() < 6 {
                    let mut p = path.clone();
                    p.push(next.clone());
                    stack.push((next.clone(), p));
                }
            }
        }
    }
    found.into_iter().collect()
}

/// What is decided in one place: the SMBIOS table has one reader, `unsafe` stays in `sys`
/// but for the GPU libraries' entry points, and only `sys` chooses code by OS.
fn decided_once(tree: &BTreeMap<String, String>) -> Vec<String> {
    let mut out = Vec::new();
    for (file, text) in tree {
        let reads_firmware = text.match_indices("firmware::read").any(|(i, w)| {
            !text[..i].ends_with(is_ident) && text[i + w.len()..].trim_start().starts_with('(')
        });
        if reads_firmware && file != "probe/firmware.rs" && file != "probe/mod.rs" {
            out.push(format!(
                "{file} reads the SMBIOS table: probe::inventory reads it once and hands it down"
            ));
        }
        let in_sys = file.starts_with("sys/");
        let unsafe_ok = in_sys || UNSAFE_OUTSIDE_SYS.iter().any(|(f, _)| f == file);
        let has_unsafe = text.match_indices("unsafe").any(|(i, w)| {
            !text[..i].ends_with(is_ident) && !text[i + w.len()..].starts_with(is_ident)
        });
        if has_unsafe && !unsafe_ok {
            out.push(format!(
                "{file} uses unsafe: OS calls and their unsafe blocks belong in sys/"
            ));
        }
        if !in_sys {
            for cfg in os_cfgs(text) {
                out.push(format!(
                    "{file} chooses by OS ({cfg}): ask sys/ for the answer instead"
                ));
            }
        }
    }
    out
}

/// The `cfg` attributes and `cfg!` macros in `text` that name an OS.
fn os_cfgs(text: &str) -> Vec<String> {
    const OS_WORDS: &[&str] = &[
        "target_os",
        "target_family",
        "target_env",
        "windows",
        "unix",
        "target_vendor",
    ];
    let mut out = Vec::new();
    for pat in ["cfg(", "cfg!(", "cfg_attr("] {
        for (i, _) in text.match_indices(pat) {
            if text[..i].ends_with(is_ident) {
                continue;
            }
            let rest = &text[i..];
            let mut depth = 0;
            let end = rest
                .char_indices()
                .find(|(_, c)| {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    *c == ')' && depth == 0
                })
                .map_or(rest.len(), |(e, _)| e + 1);
            let inside = &rest[..end];
            let names_os = OS_WORDS.iter().any(|w| {
                inside.match_indices(w).any(|(j, _)| {
                    !inside[..j].ends_with(is_ident) && !inside[j + w.len()..].starts_with(is_ident)
                })
            });
            if names_os {
                out.push(inside.to_string());
            }
        }
    }
    out
}

fn src() -> BTreeMap<String, String> {
    read_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn the_library_keeps_its_layers() {
    let v = layering(&src());
    assert!(
        v.is_empty(),
        "docs/architecture.md is broken:\n{}",
        v.join("\n")
    );
}

#[test]
fn things_decided_once_stay_in_one_place() {
    let tree = src();
    let v = decided_once(&tree);
    assert!(
        v.is_empty(),
        "docs/architecture.md is broken:\n{}",
        v.join("\n")
    );
    for (file, why) in UNSAFE_OUTSIDE_SYS {
        let text = tree.get(*file).unwrap_or_else(|| panic!("{file} is gone"));
        assert!(
            text.contains("unsafe"),
            "{file} ({why}) needs no unsafe now"
        );
    }
}

/// The checks find what they are for (so the tests above can fail), and not a word in a
/// comment, a string or a test.
#[test]
fn the_checks_find_each_break() {
    let tree = |files: &[(&str, &str)]| -> BTreeMap<String, String> {
        files
            .iter()
            .map(|(f, t)| (f.to_string(), clean(t)))
            .collect()
    };
    let t = tree(&[
        ("spec.rs", "use crate::units::bytes_bin;"),
        ("units.rs", "use crate::probe::x;"),
        ("probe/mod.rs", "use crate::{render::y, verify::z};"),
        ("render/a.rs", "fn f() { crate::verify::counts(1); crate::source::Source::live(); }"),
        ("render/b.rs", "use crate::preflight;\nfn g() { preflight::evaluate(s); }"),
        ("verify.rs", "use crate::diff;"),
        ("diff.rs", "use crate::verify::Status;"),
        ("capture.rs", "// crate::render::x\nlet s = \"crate::render::x\";\n#[cfg(test)]\nmod tests { use crate::cli::X; }"),
    ]);
    let v = layering(&t).join("\n");
    for want in [
        "spec.rs imports crate::units::bytes_bin: spec imports nothing",
        "units.rs imports crate::probe::x: imports go down only",
        "probe/mod.rs imports crate::render::y: probes read the machine",
        "probe/mod.rs imports crate::verify::z: probes read the machine",
        "render/a.rs imports crate::verify::counts: a renderer calls a check's function",
        "render/a.rs imports crate::source::Source::live: renderers never read the machine",
        "render/b.rs calls preflight::evaluate",
        "circle: diff → verify",
    ] {
        assert!(v.contains(want), "missing '{want}' in:\n{v}");
    }
    assert!(!v.contains("capture.rs"), "{v}");
    let t = tree(&[
        ("probe/cpu.rs", "fn f() { crate::probe::firmware::read(src); }"),
        ("render/x.rs", "fn f() { unsafe { g() } }\nfn unsafely() {}"),
        ("probe/y.rs", "#[cfg(windows)]\nfn a() {}\nfn b() -> bool { cfg!(target_os = \"macos\") }\n#[cfg(feature = \"nvml\")]\nfn c() {}"),
        ("sys/linux.rs", "#[cfg(unix)]\nfn d() { unsafe {} }"),
        ("probe/z.rs", "#[cfg(test)]\nmod tests { #[cfg(windows)] fn e() {} }\n// cfg!(windows)"),
    ]);
    let v = decided_once(&t).join("\n");
    for want in [
        "probe/cpu.rs reads the SMBIOS table",
        "render/x.rs uses unsafe",
        "probe/y.rs chooses by OS (cfg(windows))",
        "probe/y.rs chooses by OS (cfg!(target_os = \"\"))",
    ] {
        assert!(v.contains(want), "missing '{want}' in:\n{v}");
    }
    assert!(
        !v.contains("nvml") && !v.contains("sys/linux.rs") && !v.contains("probe/z.rs"),
        "{v}"
    );
}
