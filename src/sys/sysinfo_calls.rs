//! What Windows and macOS answer through sysinfo for the OS calls (no /proc to look in).

use sysinfo::{Pid, ProcessRefreshKind, ProcessesToUpdate, System};

/// Whether process `pid` still runs.
pub fn process_runs(pid: u32) -> bool {
    let pid = Pid::from_u32(pid);
    let mut sys = System::new();
    sys.refresh_processes_specifics(
        ProcessesToUpdate::Some(&[pid]),
        false,
        ProcessRefreshKind::nothing(),
    );
    sys.process(pid).is_some()
}
