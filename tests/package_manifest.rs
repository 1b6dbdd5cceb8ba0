//! What Cargo.toml tells cargo-deb and packaging/rigcheck.spec tells rpmbuild to build: the
//! .rpm's licences are licences, not documents, it owns its directories and names no invented
//! URL; the .deb carries a changelog of the version it packages. `.ci/dist` checks the same in
//! the built packages.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn manifest() -> toml::Table {
    std::fs::read_to_string(root().join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap()
}

fn spec() -> String {
    std::fs::read_to_string(root().join("packaging/rigcheck.spec")).unwrap()
}

/// The `%files` section's lines: `(directive, path)`, e.g. `("%license", "/usr/...")`, with
/// `""` for a plain file.
fn files(spec: &str) -> Vec<(String, String)> {
    let at = spec
        .find("\n%files\n")
        .expect("the spec has a %files section");
    spec[at + "\n%files\n".len()..]
        .lines()
        .take_while(|l| !l.starts_with("%changelog"))
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| match l.split_once(' ') {
            Some((d, p)) if d.starts_with('%') => (d.to_string(), p.trim().to_string()),
            _ => (String::new(), l.trim().to_string()),
        })
        .collect()
}

#[test]
fn the_rpm_marks_its_licences_as_licences_not_documents() {
    let files = files(&spec());
    let licences: Vec<&(String, String)> = files
        .iter()
        .filter(|(d, p)| p.starts_with("/usr/share/licenses/") && d != "%dir")
        .collect();
    assert_eq!(
        licences.len(),
        2,
        "LICENSE-MIT and LICENSE-APACHE: {files:?}"
    );
    for (directive, path) in licences {
        // %doc files are left out by `rpm --excludedocs` and dnf's tsflags=nodocs; a licence
        // must stay with the binary it covers, and `rpm -qL` lists it.
        assert_eq!(directive, "%license", "{path}");
    }
}

#[test]
fn the_rpm_owns_the_directories_it_makes() {
    // `rpm -e` removes a directory only where the package owns it.
    let files = files(&spec());
    for dir in ["/usr/share/doc/rigcheck", "/usr/share/licenses/rigcheck"] {
        assert!(
            files.iter().any(|(d, p)| d == "%dir" && p == dir),
            "no %dir {dir}: {files:?}"
        );
    }
}

#[test]
fn the_rpm_names_no_url_the_project_does_not_have() {
    let m = manifest();
    let package = m["package"].as_table().unwrap();
    // Any address must be one that exists, so none is invented.
    for key in ["homepage", "repository"] {
        if let Some(v) = package.get(key) {
            let v = v.as_str().unwrap();
            assert!(v.starts_with("https://"), "package.{key} = {v:?}");
        }
    }
    for line in spec().lines() {
        if let Some(url) = line.strip_prefix("URL:") {
            assert!(url.trim().starts_with("https://"), "{line}");
        }
    }
}

#[test]
fn the_deb_carries_the_changelog_of_its_version() {
    let m = manifest();
    let version = m["package"]["version"].as_str().unwrap();
    let deb = &m["package"]["metadata"]["deb"];
    assert_eq!(deb["changelog"].as_str(), Some("generated/changelog"));
    let dist = std::fs::read_to_string(root().join("scripts/dist.sh")).unwrap();
    assert!(
        dist.contains(r#">"$gen/changelog""#),
        "scripts/dist.sh writes generated/changelog"
    );
    let changelog = std::fs::read_to_string(root().join("CHANGELOG.md")).unwrap();
    let heading = format!("## {version}\n");
    let at = changelog
        .find(&heading)
        .unwrap_or_else(|| panic!("CHANGELOG.md has no section {heading:?}"));
    let section = &changelog[at + heading.len()..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    assert!(
        section.lines().filter(|l| !l.trim().is_empty()).count() >= 2,
        "CHANGELOG.md's section of {version} says what the release holds:\n{section}"
    );
}
