//! What Windows calls what the report names in Linux words: its release from the build
//! number the OS reports (in `os.kernel`), and whether a report is of a Windows machine.

use crate::spec::Os;

/// Windows releases by build number, as Microsoft's release information lists them
/// (learn.microsoft.com/windows/release-health: "Windows 10 release information",
/// "Windows 11 release information", "Windows Server release information"). The build
/// alone names the release; the edition (Pro, Enterprise) is the OS name's.
const RELEASES: &[(u32, &str, &str)] = &[
    (17763, "Windows Server 2019", ""),
    (18362, "Windows 10", "1903"),
    (18363, "Windows 10", "1909"),
    (19041, "Windows 10", "2004"),
    (19042, "Windows 10", "20H2"),
    (19043, "Windows 10", "21H1"),
    (19044, "Windows 10", "21H2"),
    (19045, "Windows 10", "22H2"),
    (20348, "Windows Server 2022", ""),
    (22000, "Windows 11", "21H2"),
    (22621, "Windows 11", "22H2"),
    (22631, "Windows 11", "23H2"),
    (26100, "Windows 11", "24H2"),
];

/// The release of a build: its family (`Windows 10`) and version (`22H2`, empty for a
/// server release, whose name says it).
fn release(build: u32) -> Option<(&'static str, &'static str)> {
    RELEASES
        .iter()
        .find(|(b, _, _)| *b == build)
        .map(|(_, family, version)| (*family, *version))
}

/// The OS line of a Windows report: the name it records with the release and build
/// (`Windows 10 Pro for Workstations 22H2 (build 19045)`); the release's own family is
/// added where the name does not hold it.
pub fn os_shown(name: &str, build: &str) -> String {
    let Ok(n) = build.trim().parse::<u32>() else {
        return name.to_string();
    };
    match release(n) {
        Some((family, "")) if name.contains(family) => format!("{name} (build {n})"),
        Some((family, version)) if name.contains(family) => {
            format!("{name} {version} (build {n})")
        }
        Some(_) => format!("{name} · {}", build_shown(build).unwrap_or_default()),
        None => format!("{name} (build {n})"),
    }
}

/// What the usable-memory figure is called where it was read (`memory.total_source`):
/// Linux's `MemTotal`, or the physical memory Windows and macOS report (`os`).
pub fn usable_name(source: Option<&str>) -> &'static str {
    match source {
        Some("os") => "physical memory",
        _ => "MemTotal",
    }
}

/// True for a report of a Windows machine (its OS name says so).
pub fn is_windows(os: &Os) -> bool {
    [&os.name, &os.pretty_name]
        .into_iter()
        .flatten()
        .any(|n| n.contains("Windows"))
}

/// The kernel as Windows words it: `Windows 10 22H2 (build 19045)`, `build 18362` where the
/// build is not in the table; `None` for a build that is not a number.
pub fn build_shown(build: &str) -> Option<String> {
    let n: u32 = build.trim().parse().ok()?;
    Some(match release(n) {
        Some((family, "")) => format!("{family} (build {n})"),
        Some((family, version)) => format!("{family} {version} (build {n})"),
        None => format!("build {n}"),
    })
}

/// The kernel line of a report: Windows' build with its release, else the kernel release.
pub fn kernel_shown(os: &Os) -> Option<String> {
    let k = os.kernel.as_deref()?;
    if is_windows(os) {
        if let Some(s) = build_shown(k) {
            return Some(s);
        }
    }
    Some(k.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_name_their_release() {
        assert_eq!(
            build_shown("19045").as_deref(),
            Some("Windows 10 22H2 (build 19045)")
        );
        assert_eq!(
            build_shown("26100").as_deref(),
            Some("Windows 11 24H2 (build 26100)")
        );
        assert_eq!(
            build_shown("20348").as_deref(),
            Some("Windows Server 2022 (build 20348)")
        );
        assert_eq!(
            build_shown("18362").as_deref(),
            Some("Windows 10 1903 (build 18362)")
        );
        // A build the table lacks: the build alone, never a guessed release.
        assert_eq!(build_shown("19046").as_deref(), Some("build 19046"));
        assert_eq!(build_shown("6.8.0-45-generic"), None);
        assert_eq!(
            os_shown("Windows 10 Pro for Workstations", "19045"),
            "Windows 10 Pro for Workstations 22H2 (build 19045)"
        );
        assert_eq!(
            os_shown("Windows Server 2022 Datacenter", "20348"),
            "Windows Server 2022 Datacenter (build 20348)"
        );
    }
}
