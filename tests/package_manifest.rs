//! What Cargo.toml tells cargo-deb and cargo-generate-rpm to build: the .rpm's licences are
//! not documents and it names no invented URL, the .deb carries a changelog of the version it
//! packages. `.ci/dist` checks the same in the built packages.
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

fn rpm_assets(m: &toml::Table) -> Vec<toml::Table> {
    m["package"]["metadata"]["generate-rpm"]["assets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_table().unwrap().clone())
        .collect()
}

fn flag(a: &toml::Table, key: &str) -> bool {
    a.get(key).and_then(|v| v.as_bool()).unwrap_or(false)
}

#[test]
fn the_rpm_does_not_mark_its_licences_as_documents() {
    let assets = rpm_assets(&manifest());
    let licences: Vec<&toml::Table> = assets
        .iter()
        .filter(|a| {
            a["dest"]
                .as_str()
                .unwrap()
                .starts_with("/usr/share/licenses/")
        })
        .filter(|a| !flag(a, "dir"))
        .collect();
    assert_eq!(licences.len(), 2, "LICENSE-MIT and LICENSE-APACHE");
    for a in licences {
        // %doc files are left out by `rpm --excludedocs` and dnf's tsflags=nodocs; a licence
        // must stay with the binary it covers.
        assert!(!flag(a, "doc"), "{} is marked doc", a["dest"]);
    }
}

#[test]
fn the_rpm_names_no_url_the_project_does_not_have() {
    let m = manifest();
    let package = m["package"].as_table().unwrap();
    let rpm = m["package"]["metadata"]["generate-rpm"].as_table().unwrap();
    // cargo-generate-rpm takes the URL from metadata `url`, else homepage, else repository:
    // any of them must be an address that exists, so none is invented.
    for (what, t) in [("package", package), ("generate-rpm", rpm)] {
        for key in ["url", "homepage", "repository"] {
            if let Some(v) = t.get(key) {
                let v = v.as_str().unwrap();
                assert!(v.starts_with("https://"), "{what}.{key} = {v:?}");
            }
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
