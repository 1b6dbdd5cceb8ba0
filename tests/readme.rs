//! The README as a new user reads it: its first screen is installing rigcheck and a first
//! `verify` (with the two commands of a source checkout), every example output it shows is
//! what the program prints, and every document it links to is shipped beside it.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::Path;

use assert_cmd::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn readme() -> String {
    std::fs::read_to_string(root().join("README.md")).unwrap()
}

/// Lines of a terminal's first screen.
const SCREEN: usize = 50;

#[test]
fn the_first_screen_installs_and_verifies() {
    let text = readme();
    let screen: Vec<&str> = text.lines().take(SCREEN).collect();
    let at = |what: &str| {
        screen
            .iter()
            .position(|l| l.contains(what))
            .unwrap_or_else(|| {
                panic!(
                    "{what:?} is not on the first screen:\n{}",
                    screen.join("\n")
                )
            })
    };
    let install = at("sudo apt install ./rigcheck_");
    let verify = at("rigcheck verify --profile");
    let run = at("cargo run --release");
    let test = at("cargo test");
    // A user's install and first check come before a developer's commands.
    assert!(
        install < verify && verify < run && run < test,
        "{screen:#?}"
    );
    assert!(
        screen[..install].iter().all(|l| !l.contains("cargo ")),
        "{screen:#?}"
    );
    assert!(
        screen[..run]
            .iter()
            .any(|l| l.starts_with("## From source")),
        "{screen:#?}"
    );
}

/// One `<!-- checked ... -->` example: the commands it shows the output of, the window they
/// ran in, and the block's lines.
struct Example {
    line: usize,
    columns: Option<usize>,
    commands: Vec<Vec<String>>,
    block: Vec<String>,
}

/// Every example output the README marks as checked: a comment `<!-- checked: rigcheck
/// ARGS ;; rigcheck ARGS -->` (or `checked (80 columns):`) right before a fenced block.
fn examples(text: &str) -> Vec<Example> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let Some(rest) = l.strip_prefix("<!-- checked") else {
            continue;
        };
        let rest = rest.trim_end().strip_suffix("-->").unwrap().trim();
        let (window, commands) = rest.split_once(':').unwrap();
        let columns = window
            .trim()
            .strip_prefix('(')
            .and_then(|w| w.strip_suffix(" columns)"))
            .map(|n| n.parse().unwrap());
        let commands = commands
            .split(";;")
            .map(|c| {
                let words: Vec<String> = c.split_whitespace().map(String::from).collect();
                assert_eq!(words[0], "rigcheck", "README.md:{}: {c}", i + 1);
                words[1..].to_vec()
            })
            .collect();
        assert!(
            lines[i + 1].starts_with("```"),
            "README.md:{}: a checked example is followed by its block",
            i + 1
        );
        let block = lines[i + 2..]
            .iter()
            .take_while(|b| !b.starts_with("```"))
            .map(|b| b.to_string())
            .collect();
        out.push(Example {
            line: i + 1,
            columns,
            commands,
            block,
        });
    }
    out
}

#[test]
fn the_readmes_example_outputs_are_what_rigcheck_prints() {
    let text = readme();
    let all = examples(&text);
    assert!(all.len() >= 4, "{} checked examples", all.len());
    for ex in all {
        let mut printed = String::new();
        for args in &ex.commands {
            let mut c = Command::cargo_bin("rigcheck").unwrap();
            c.current_dir(root())
                .env("NO_COLOR", "1")
                .env("TERM", "dumb")
                .env_remove("PAGER")
                .args(args);
            match ex.columns {
                Some(n) => c.env("COLUMNS", n.to_string()),
                None => c.env_remove("COLUMNS"),
            };
            let out = c.output().unwrap();
            printed.push_str(&String::from_utf8(out.stdout).unwrap());
        }
        // Every line shown (not the prompt, not an elision) is printed, in the order shown.
        let printed: Vec<&str> = printed.lines().map(str::trim_end).collect();
        let mut from = 0;
        for want in ex
            .block
            .iter()
            .map(|l| l.trim_end())
            .filter(|l| !l.starts_with("$ ") && l.trim() != "…")
        {
            match printed[from..].iter().position(|p| *p == want) {
                Some(k) => from += k + 1,
                None => panic!(
                    "README.md:{}: {want:?} is not printed (after line {from}) by {:?}:\n{}",
                    ex.line,
                    ex.commands,
                    printed.join("\n")
                ),
            }
        }
    }
}

/// The `(source glob, destination)` pairs of packaging/rigcheck.spec's `install -m 644` lines
/// into the documentation directory (`"$src"/docs/*.md "$doc/docs/"`).
fn spec_installs() -> Vec<(String, String)> {
    let spec = std::fs::read_to_string(root().join("packaging/rigcheck.spec")).unwrap();
    let mut out = Vec::new();
    for line in spec.lines() {
        let Some(args) = line.strip_prefix("install -m 644 ") else {
            continue;
        };
        let words: Vec<String> = args
            .split_whitespace()
            .map(|w| {
                w.replace('"', "")
                    .replace("$src/", "")
                    .replace("$doc/", "/usr/share/doc/rigcheck/")
            })
            .collect();
        let Some((dest, sources)) = words.split_last() else {
            continue;
        };
        if dest.starts_with("/usr/share/doc/rigcheck/") {
            out.extend(sources.iter().map(|s| (s.clone(), dest.clone())));
        }
    }
    out
}

/// The files a package's assets install: `(source glob, destination)` pairs expanded as
/// cargo-deb and `install` do (a destination ending in `/` is a directory).
fn installed(assets: &[(String, String)]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    for (source, dest) in assets {
        let (dir, name) = source.rsplit_once('/').unwrap_or((".", source));
        let Ok(entries) = std::fs::read_dir(root().join(dir)) else {
            continue;
        };
        let (prefix, suffix) = name.split_once('*').unwrap_or((name, ""));
        for e in entries {
            let file = e.unwrap().file_name().to_string_lossy().into_owned();
            let matches = if name.contains('*') {
                file.starts_with(prefix) && file.ends_with(suffix)
            } else {
                file == name
            };
            if matches {
                let d = dest.trim_start_matches('/');
                out.insert(if d.ends_with('/') {
                    format!("{d}{file}")
                } else {
                    d.to_string()
                });
            }
        }
    }
    out
}

/// Relative links of a Markdown text, without their anchors: `docs/json.md`, `schema/`.
fn links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("](") {
        let target: String = text[i + 2..].chars().take_while(|c| *c != ')').collect();
        let target = target.split('#').next().unwrap_or("").to_string();
        if target.is_empty() || target.contains("://") || target.contains('[') {
            continue;
        }
        out.push(target);
    }
    out
}

#[test]
fn every_document_the_readme_links_to_is_packaged_beside_it() {
    let manifest: toml::Table = std::fs::read_to_string(root().join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap();
    let meta = &manifest["package"]["metadata"];
    let deb: Vec<(String, String)> = meta["deb"]["assets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a[0].as_str().unwrap().to_string(),
                a[1].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let rpm = spec_installs();
    let doc = "usr/share/doc/rigcheck/";
    // The README's links, and the links of the documents it links to, from where each is.
    let mut wanted: BTreeSet<String> = BTreeSet::new();
    for l in links(&readme()) {
        wanted.insert(l);
    }
    for d in std::fs::read_dir(root().join("docs")).unwrap() {
        let p = d.unwrap().path();
        if p.extension().is_some_and(|e| e == "md") {
            for l in links(&std::fs::read_to_string(&p).unwrap()) {
                wanted.insert(format!("docs/{l}"));
            }
        }
    }
    for (name, files) in [("deb", installed(&deb)), ("rpm", installed(&rpm))] {
        for l in &wanted {
            let at = format!("{doc}{l}");
            let shipped = if l.ends_with('/') {
                files.iter().any(|f| f.starts_with(&at))
            } else {
                files.contains(&at)
            };
            // Links to source files (`src/...`) are for a checkout, not a package.
            if root().join(l).exists() && l.starts_with("docs/") {
                assert!(
                    shipped,
                    "the {name} does not ship {at}, which README.md links to"
                );
            }
        }
    }
    // The tarballs and the zip lay docs/ out the same way.
    let dist = std::fs::read_to_string(root().join("scripts/dist.sh")).unwrap();
    assert!(
        dist.contains(r#"cp docs/*.md "$stage/$dir/share/doc/rigcheck/docs/""#),
        "the tarballs do not ship docs/"
    );
    assert!(
        dist.contains(r#"glob.glob("docs/*.md")"#),
        "the zip does not ship docs/"
    );
}
