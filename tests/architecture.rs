//! The module graph keeps the shape of docs/architecture.md: imports go one way (face →
//! engines → base), `spec` imports nothing of the crate, nothing below the command layer
//! names the command line, and no two files depend on each other in a circle.
//!
//! The graph is read from the sources: every `crate::`, `super::`, `self::` path and every
//! use of a child module declared with `mod x;`, resolved to the file that defines it.
//! Test-only code (`#[cfg(test)]` items) is left out: a test may reach anywhere.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The layers, by the first part of a module path (`render::sheet::html` → `render`).
const BASE: &[&str] = &[
    "spec", "units", "source", "io", "text", "natural", "locator", "cpulist", "error", "signals",
    "bounded", "sys",
];
const CHECKS: &[&str] = &[
    "verify",
    "diff",
    "preflight",
    "fleet",
    "outcome",
    "profile",
    "requirement",
];
const ENGINES: &[&str] = &["probe", "render", "bench", "capture", "redact"];
const FACE: &[&str] = &["cli", "commands"];

/// A source tree: module path (`["render", "sheet"]`) → its text without comments and
/// test-only items.
type Tree = BTreeMap<Vec<String>, String>;

fn read_tree(dir: &Path) -> Tree {
    fn walk(dir: &Path, prefix: &[String], out: &mut Tree) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            let name = e.file_name().to_string_lossy().into_owned();
            let path = e.path();
            if path.is_dir() {
                let mut p = prefix.to_vec();
                p.push(name);
                walk(&path, &p, out);
            } else if let Some(stem) = name.strip_suffix(".rs") {
                let mut p = prefix.to_vec();
                if stem != "mod" && !(prefix.is_empty() && stem == "lib") {
                    p.push(stem.to_string());
                }
                if prefix.is_empty() && stem == "main" {
                    continue;
                }
                out.insert(p, clean(&std::fs::read_to_string(&path).unwrap()));
            }
        }
    }
    let mut out = Tree::new();
    walk(dir, &[], &mut out);
    out
}

/// The text without comments, string literals and `#[cfg(test)]` items.
fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if text[i..].starts_with("//") {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if text[i..].starts_with("/*") {
            i += text[i..].find("*/").map_or(b.len() - i, |k| k + 2);
        } else if let Some(hashes) = raw_string_start(&text[i..]) {
            // r"...", r#"..."#: ends at a quote followed by as many hashes.
            let close = format!("\"{}", "#".repeat(hashes));
            let body = i + 2 + hashes;
            i = text[body..]
                .find(&close)
                .map_or(b.len(), |k| body + k + close.len());
            out.push_str("\"\"");
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // A char literal such as '{' must not count as a brace.
            let end = text[i + 1..].find('\'').map_or(b.len(), |k| i + 1 + k + 1);
            out.push_str("' '");
            i = end;
        } else {
            let c = text[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    strip_test_items(&out)
}

/// The number of `#` of a raw string literal starting here (`r"` → 0, `r##"` → 2).
fn raw_string_start(s: &str) -> Option<usize> {
    let rest = s.strip_prefix('r')?;
    let hashes = rest.chars().take_while(|c| *c == '#').count();
    rest[hashes..].starts_with('"').then_some(hashes)
}

fn strip_test_items(text: &str) -> String {
    let mut s = text.to_string();
    while let Some(k) = s.find("#[cfg(test)]") {
        let open = s[k..].find('{').map(|o| k + o);
        let semi = s[k..].find(';').map(|o| k + o);
        let end = match (open, semi) {
            (_, Some(sc)) if open.is_none_or(|o| sc < o) => sc + 1,
            (Some(o), _) => {
                let mut depth = 0;
                let mut j = o;
                for (off, c) in s[o..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                j = o + off;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                j + 1
            }
            _ => s.len(),
        };
        s.replace_range(k..end, "");
    }
    s
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Expands `a::{b, c::{d, e}}` into `a::b`, `a::c::d`, `a::c::e`.
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        return vec![tree.to_string()];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut items = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (i, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    items
        .into_iter()
        .filter(|i| !i.trim().is_empty())
        .flat_map(|i| expand(i).into_iter().map(|e| format!("{prefix}{e}")))
        .collect()
}

/// The inline module path (`mod cuda { ... }`) around each byte of `text`.
fn inline_modules(text: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut search = 0;
    while let Some(k) = text[search..].find("mod ") {
        let at = search + k;
        search = at + 4;
        if at > 0 && is_ident(text[..at].chars().next_back().unwrap_or(' ')) {
            continue;
        }
        let rest = &text[at + 4..];
        let name: String = rest.chars().take_while(|c| is_ident(*c)).collect();
        let after = rest[name.len()..].trim_start();
        if name.is_empty() || !after.starts_with('{') {
            continue;
        }
        let open = at + 4 + name.len() + (rest.len() - name.len() - after.len());
        let mut depth = 0;
        let mut end = text.len();
        for (off, c) in text[open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = open + off;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push((open, end, name));
    }
    out
}

/// Every path of every `use` tree in `text`, expanded, with where its `use` starts.
fn use_paths(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut search = 0;
    while let Some(k) = text[search..].find("use ") {
        let at = search + k;
        search = at + 4;
        if at > 0 && is_ident(text[..at].chars().next_back().unwrap_or(' ')) {
            continue;
        }
        let Some(end) = text[at..].find(';') else {
            break;
        };
        out.extend(expand(&text[at + 4..at + end]).into_iter().map(|p| (at, p)));
    }
    out
}

/// Every path written in `text` (`a::b::c`, from its first segment), with where it starts.
/// `crate::{a, b}` of a use tree is not one: `use_paths` reads those.
fn code_paths(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("::") {
        let start = text[..i]
            .rfind(|c: char| !(is_ident(c) || c == ':'))
            .map_or(0, |s| s + 1);
        if start > 0 && text[..start].ends_with("::") {
            continue;
        }
        let end = text[i + 2..]
            .find(|c: char| !(is_ident(c) || c == ':'))
            .map_or(text.len(), |e| i + 2 + e);
        let path = text[start..end].trim_end_matches(':');
        if path.contains("::") {
            out.push((start, path));
        }
    }
    out
}

/// The file (module path) that defines `path`, the longest prefix that is a file.
fn resolve(tree: &Tree, path: &[String]) -> Option<Vec<String>> {
    (0..=path.len())
        .rev()
        .map(|n| path[..n].to_vec())
        .find(|p| tree.contains_key(p))
}

/// Every file each file depends on.
fn graph(tree: &Tree) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut edges = BTreeMap::new();
    for (me, text) in tree {
        let inline = inline_modules(text);
        let mut deps = BTreeSet::new();
        let mut add = |at: usize, path: &str| {
            let mut segs: Vec<String> = path
                .split("::")
                .map(|s| {
                    s.trim()
                        .split(" as ")
                        .next()
                        .unwrap_or("")
                        .trim()
                        .to_string()
                })
                .filter(|s| !s.is_empty() && s != "*" && s != "self")
                .collect();
            if segs.is_empty() {
                return;
            }
            // Where `super` starts from: the file, plus the inline modules around `at`.
            let mut here = me.clone();
            here.extend(
                inline
                    .iter()
                    .filter(|(o, e, _)| *o < at && at < *e)
                    .map(|(_, _, n)| n.clone()),
            );
            let mut base = match segs[0].as_str() {
                "crate" => {
                    segs.remove(0);
                    Vec::new()
                }
                "super" => {
                    let mut b = here.clone();
                    while segs.first().map(String::as_str) == Some("super") {
                        segs.remove(0);
                        b.pop();
                    }
                    b
                }
                _ => here.clone(),
            };
            base.extend(segs);
            if let Some(f) = resolve(tree, &base) {
                if &f != me {
                    deps.insert(f);
                }
            }
        };
        // `use` trees.
        for (at, p) in use_paths(text) {
            let first = p.split("::").next().unwrap_or("").trim();
            let child = tree.contains_key(&[me.clone(), vec![first.to_string()]].concat());
            if matches!(first, "crate" | "super" | "self") || child {
                add(at, &p.replacen("self::", "", 1));
            }
        }
        // Paths in code: `crate::x::y`, `super::x`, and `child::x` for declared children.
        for (start, path) in code_paths(text) {
            let first = path.split("::").next().unwrap_or("");
            let child = tree.contains_key(&[me.clone(), vec![first.to_string()]].concat());
            if first == "crate" || first == "super" || child {
                add(start, path);
            }
        }
        edges.insert(me.clone(), deps);
    }
    edges
}

/// Groups of files that depend on each other in a circle (Tarjan's strongly connected
/// components of more than one file).
fn cycles(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<Vec<String>> {
    struct T<'a> {
        edges: &'a BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        index: BTreeMap<&'a Vec<String>, usize>,
        low: BTreeMap<&'a Vec<String>, usize>,
        stack: Vec<&'a Vec<String>>,
        on: BTreeSet<&'a Vec<String>>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a Vec<String>) {
        let n = t.index.len();
        t.index.insert(v, n);
        t.low.insert(v, n);
        t.stack.push(v);
        t.on.insert(v);
        for w in t.edges.get(v).into_iter().flatten() {
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.push(w.join("::"));
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in edges.keys() {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.out
}

fn layer(m: &[String]) -> &'static str {
    let top = m.first().map(String::as_str).unwrap_or("");
    if m.is_empty() {
        "root"
    } else if BASE.contains(&top) {
        "base"
    } else if CHECKS.contains(&top) {
        "checks"
    } else if ENGINES.contains(&top) {
        "engines"
    } else if FACE.contains(&top) {
        "face"
    } else {
        "unplaced"
    }
}

/// Every way the tree breaks the shape, as sentences.
fn violations(tree: &Tree) -> Vec<String> {
    let edges = graph(tree);
    let mut out = Vec::new();
    for (m, text) in tree {
        let name = if m.is_empty() {
            "lib".into()
        } else {
            m.join("::")
        };
        let l = layer(m);
        if l == "unplaced" {
            out.push(format!("{name}: not in any layer of tests/architecture.rs"));
        }
        let below_face = matches!(l, "base" | "checks" | "engines");
        if below_face && (text.contains("clap::") || text.contains("use clap")) {
            out.push(format!("{name} names clap: only cli.rs may"));
        }
        for d in &edges[m] {
            let dl = layer(d);
            let dn = if d.is_empty() {
                "lib".into()
            } else {
                d.join("::")
            };
            let top = d.first().map(String::as_str).unwrap_or("");
            let bad = match l {
                _ if m.first().map(String::as_str) == Some("spec") => top != "spec",
                "base" => dl != "base",
                "checks" => !matches!(dl, "base" | "checks"),
                "engines" => {
                    let from = m.first().map(String::as_str).unwrap_or("");
                    !matches!(dl, "base" | "checks" | "engines")
                        // Probes read the machine; they never render or check.
                        || (from == "probe" && (dl == "checks" || top == "render"))
                        // Renderers read specs and reports; they never read the machine.
                        || (from == "render" && matches!(top, "probe" | "source" | "io"))
                }
                _ => false,
            };
            if bad {
                out.push(format!("{name} ({l}) imports {dn} ({dl})"));
            }
        }
    }
    for c in cycles(&edges) {
        out.push(format!("cycle: {}", c.join(" → ")));
    }
    out.extend(renderers_judging(tree));
    out
}

/// A path named in `me` as absolute module segments, and the name it binds in a `use`
/// (`as` honoured): `super::x` from `render::sheet` is `render::x`. `None` for a path that
/// starts neither at the crate nor at `super`.
fn absolute(me: &[String], path: &str) -> Option<(Vec<String>, String)> {
    let mut segs: Vec<&str> = path.split("::").map(str::trim).collect();
    let last = segs.pop()?;
    let (last, bound) = match last.split_once(" as ") {
        Some((l, b)) => (l.trim(), b.trim()),
        None => (last, last),
    };
    segs.push(last);
    let mut out: Vec<String> = match segs.first().copied() {
        Some("crate") => Vec::new(),
        Some("super") => me.to_vec(),
        _ => return None,
    };
    for s in segs {
        match s {
            "crate" | "self" | "" | "*" => {}
            "super" => {
                out.pop();
            }
            s => out.push(s.to_string()),
        }
    }
    let bound = if bound == "self" {
        out.last().cloned().unwrap_or_default()
    } else {
        bound.to_string()
    };
    Some((out, bound))
}

/// Renderers that call a check's function: a renderer paints what the checks found (their
/// reports and findings, passed in or read as types), it never judges by calling a check.
/// A path into a check module is a call when what it names there starts in lower case (a
/// function), not a type or a constant.
fn renderers_judging(tree: &Tree) -> Vec<String> {
    let mut out = BTreeSet::new();
    let is_check = |segs: &[String]| segs.first().is_some_and(|t| CHECKS.contains(&t.as_str()));
    // The item a path names inside a check module, when it names one.
    let item_in_check = |segs: &[String]| -> Option<(Vec<String>, Option<String>)> {
        if !is_check(segs) {
            return None;
        }
        let file = resolve(tree, segs)?;
        Some((file.clone(), segs.get(file.len()).cloned()))
    };
    let judging = |item: &Option<String>| {
        item.as_ref()
            .is_some_and(|i| i.starts_with(|c: char| c.is_ascii_lowercase()))
    };
    for (me, text) in tree
        .iter()
        .filter(|(m, _)| m.first().map(String::as_str) == Some("render"))
    {
        let name = me.join("::");
        // Check modules brought in by name (`use crate::preflight::rules;`), by the name
        // they are known by here.
        let mut modules: BTreeMap<String, Vec<String>> = BTreeMap::new();
        let mut calls = |file: Vec<String>, item: Option<String>| {
            if judging(&item) {
                out.insert(format!(
                    "{name} (a renderer) calls {}::{}, a check's function: pass it the findings instead",
                    file.join("::"),
                    item.unwrap_or_default()
                ));
            }
        };
        for (_, p) in use_paths(text) {
            let Some((segs, bound)) = absolute(me, &p) else {
                continue;
            };
            match item_in_check(&segs) {
                Some((file, None)) => {
                    modules.insert(bound, file);
                }
                Some((file, item)) => calls(file, item),
                None => {}
            }
        }
        // Paths in code: `crate::check::f(..)`, and `m::f(..)` through a module named above.
        for (_, path) in code_paths(text) {
            let first = path.split("::").next().unwrap_or("");
            let segs = match modules.get(first) {
                Some(file) => file
                    .iter()
                    .cloned()
                    .chain(path.split("::").skip(1).map(String::from))
                    .collect(),
                None => match absolute(me, path) {
                    Some((segs, _)) => segs,
                    None => continue,
                },
            };
            if let Some((file, item)) = item_in_check(&segs) {
                calls(file, item);
            }
        }
    }
    out.into_iter().collect()
}

#[test]
fn the_crate_keeps_its_shape() {
    let tree = read_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert!(tree.len() > 40, "read {} files", tree.len());
    let v = violations(&tree);
    assert!(
        v.is_empty(),
        "docs/architecture.md is broken:\n{}",
        v.join("\n")
    );
}

/// The checker itself finds each kind of break (so the test above can fail).
#[test]
fn the_checker_finds_imports_the_wrong_way_and_cycles() {
    let mut tree = Tree::new();
    let m = |s: &str| -> Vec<String> {
        s.split("::")
            .filter(|p| !p.is_empty())
            .map(String::from)
            .collect()
    };
    tree.insert(
        m(""),
        clean("pub mod spec; pub mod bench; pub mod cli; pub mod render;"),
    );
    tree.insert(m("spec"), clean("use crate::bench::BenchReport;"));
    tree.insert(m("bench"), clean("pub fn f() { crate::spec::g(); }"));
    tree.insert(
        m("render"),
        clean("use clap::ValueEnum;\n#[cfg(test)]\nmod tests { use crate::cli::X; }"),
    );
    tree.insert(
        m("render::sheet"),
        clean("use super::html::escape; // use crate::cli;"),
    );
    tree.insert(
        m("render::html"),
        clean("pub fn f() { super::sheet::g(); }"),
    );
    tree.insert(m("cli"), clean("use crate::render::Format;"));
    let v = violations(&tree);
    let has = |s: &str| v.iter().any(|x| x.contains(s));
    assert!(has("spec (base) imports bench"), "{v:#?}");
    assert!(has("render names clap"), "{v:#?}");
    assert!(has("cycle: render::html → render::sheet"), "{v:#?}");
    assert!(has("cycle: bench → spec"), "{v:#?}");
    // Comments and test modules are not imports; the command line may import anything.
    assert!(!has("imports cli"), "{v:#?}");
    assert!(!v.iter().any(|x| x.starts_with("cli")), "{v:#?}");
}

/// Files allowed `unsafe` outside `sys`, and why: each calls a GPU library's entry point
/// through its loaded symbols, not the OS, and `sys` (base) cannot name those libraries.
const UNSAFE_OUTSIDE_SYS: &[(&str, &str)] = &[
    (
        "probe::gpu::live",
        "NVML's instance-id calls, which nvml-wrapper does not wrap",
    ),
    (
        "bench::gpu",
        "CUDA and cuBLAS, loaded at run time for the GPU benchmark",
    ),
];

/// True where `text` holds the keyword `word` (not as part of a longer name).
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back().is_none_or(|c| !is_ident(c));
        let after = text[i + word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !is_ident(c));
        before && after
    })
}

/// The files that call the SMBIOS table's reader, `probe::firmware::read`: by its path, or
/// by name after a `use` of it.
fn firmware_readers(tree: &Tree) -> Vec<String> {
    let mut out = Vec::new();
    for (m, text) in tree {
        if m.join("::") == "probe::firmware" {
            continue;
        }
        let by_path = text.match_indices("firmware::read").any(|(i, w)| {
            text[i + w.len()..].trim_start().starts_with('(')
                && !text[..i].ends_with(|c: char| is_ident(c))
        });
        let imported = use_paths(text).iter().any(|(_, p)| {
            let p = p.split(" as ").next().unwrap_or("").trim();
            p.ends_with("firmware::read")
        });
        if by_path || imported {
            out.push(if m.is_empty() {
                "lib".into()
            } else {
                m.join("::")
            });
        }
    }
    out
}

/// What is decided once: the SMBIOS table is read by one module (`probe::inventory`) and
/// handed down, and `unsafe` stays in `sys` but for the GPU libraries' entry points.
fn decided_once(tree: &Tree) -> Vec<String> {
    let mut out = Vec::new();
    let readers = firmware_readers(tree);
    if readers.len() > 1 {
        out.push(format!(
            "firmware::read is called by {} modules ({}): the SMBIOS table is read once, in \
             probe::inventory, and the walked table is passed down",
            readers.len(),
            readers.join(", ")
        ));
    }
    for (m, text) in tree {
        let name = m.join("::");
        let allowed = m.first().map(String::as_str) == Some("sys")
            || UNSAFE_OUTSIDE_SYS.iter().any(|(n, _)| *n == name);
        if !allowed && has_word(text, "unsafe") {
            out.push(format!(
                "{name} uses unsafe: OS calls and their unsafe blocks belong in sys/"
            ));
        }
    }
    out
}

#[test]
fn the_firmware_is_read_once_and_unsafe_stays_in_sys() {
    let tree = read_tree(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"));
    assert_eq!(firmware_readers(&tree), ["probe"]);
    let v = decided_once(&tree);
    assert!(
        v.is_empty(),
        "docs/architecture.md is broken:\n{}",
        v.join("\n")
    );
    // Every file allowed unsafe outside sys still needs it.
    for (name, why) in UNSAFE_OUTSIDE_SYS {
        let m: Vec<String> = name.split("::").map(String::from).collect();
        let text = tree.get(&m).unwrap_or_else(|| panic!("{name} is gone"));
        assert!(
            has_word(text, "unsafe"),
            "{name} ({why}) needs no unsafe now"
        );
    }
}

/// The checker finds a second reader of the table (by path or by import) and `unsafe`
/// outside sys, but not a word in a comment, a string, a test or a longer name.
#[test]
fn the_checker_finds_a_second_firmware_reader_and_unsafe_outside_sys() {
    let mut tree = Tree::new();
    let m = |s: &str| -> Vec<String> { s.split("::").map(String::from).collect() };
    tree.insert(m("probe"), clean("let t = firmware::read(src);"));
    tree.insert(
        m("probe::memory"),
        clean("use crate::probe::firmware::{self, read};\nfn f() { read(src) }"),
    );
    tree.insert(
        m("probe::headroom"),
        clean("let t = crate::probe::firmware::read (src); // firmware::read(src)"),
    );
    tree.insert(
        m("probe::system"),
        clean("fn f() { firmware::read_sysfs(src); } /* unsafe */ let s = \"unsafe\";"),
    );
    tree.insert(
        m("probe::limits"),
        clean("fn f() { let st = unsafe { libc::statvfs(p, s) }; }"),
    );
    tree.insert(
        m("render"),
        clean("#[allow(unsafe_code)]\nfn f() {}\n#[cfg(test)]\nmod tests { fn g() { unsafe { h() } } }"),
    );
    tree.insert(m("sys::linux"), clean("fn f() { unsafe { g() } }"));
    assert_eq!(
        firmware_readers(&tree),
        ["probe", "probe::headroom", "probe::memory"]
    );
    let v = decided_once(&tree);
    assert!(
        v.iter()
            .any(|x| x.starts_with("firmware::read is called by 3 modules")),
        "{v:#?}"
    );
    assert!(
        v.iter().any(|x| x.starts_with("probe::limits uses unsafe")),
        "{v:#?}"
    );
    assert_eq!(v.len(), 2, "{v:#?}");
}

/// The checker finds a renderer that judges by calling a check, however the call is
/// written, and lets it read the checks' types and constants.
#[test]
fn the_checker_finds_a_renderer_calling_a_check() {
    let mut tree = Tree::new();
    let m = |s: &str| -> Vec<String> { s.split("::").map(String::from).collect() };
    tree.insert(
        Vec::new(),
        clean("pub mod preflight; pub mod render; pub mod verify;"),
    );
    tree.insert(m("preflight"), clean("pub mod rules;"));
    tree.insert(
        m("preflight::rules"),
        clean("pub struct Finding; pub fn attention() {} pub fn card_width() {}"),
    );
    tree.insert(
        m("verify"),
        clean("pub enum Status { Fail } pub const EXIT: u8 = 3;"),
    );
    tree.insert(
        m("render"),
        clean("pub mod glance; pub mod table; pub mod sheet;"),
    );
    tree.insert(
        m("render::glance"),
        clean("use crate::preflight::rules::{self, Finding};\nfn f() { rules::attention(); }"),
    );
    tree.insert(
        m("render::table"),
        clean("use crate::preflight::rules::card_width as width;"),
    );
    tree.insert(
        m("render::sheet"),
        clean(
            "use crate::preflight::rules::Finding;\nuse crate::verify::EXIT;\n\
             fn g(f: &[Finding]) -> bool { crate::verify::Status::Fail == x() }\n\
             // crate::preflight::rules::attention() in a comment is no call\n\
             #[cfg(test)]\nmod tests { fn t() { crate::preflight::rules::attention(); } }",
        ),
    );
    let v = renderers_judging(&tree);
    let has = |s: &str| v.iter().any(|x| x.contains(s));
    assert!(
        has("render::glance (a renderer) calls preflight::rules::attention"),
        "{v:#?}"
    );
    assert!(
        has("render::table (a renderer) calls preflight::rules::card_width"),
        "{v:#?}"
    );
    assert!(!has("render::sheet"), "{v:#?}");
}
