//! The decoders against real drives' logs (fixtures/smart-logs, made from smartctl's JSON of
//! each drive): every figure the report takes equals what smartctl printed.

use serde_json::Value;

use super::*;
use crate::rules::health as rules;

fn source(name: &str) -> Value {
    let text = match name {
        "970-evo-plus" => include_str!(
            "../../../fixtures/tools/sources/smart/nvme-Samsung_SSD_970_EVO_Plus_250GB.smartctl.json"
        ),
        "p3700" => include_str!(
            "../../../fixtures/tools/sources/smart/nvme-INTEL_SSDPEDMD400G4.smartctl.json"
        ),
        "970-evo-media" => include_str!(
            "../../../fixtures/tools/sources/smart/nvme-Samsung_SSD_970_EVO_500GB-media-errors.smartctl.json"
        ),
        _ => unreachable!(),
    };
    serde_json::from_str(text).unwrap()
}

fn nvme_bytes(name: &str) -> &'static [u8] {
    match name {
        "970-evo-plus" => {
            include_bytes!("../../../fixtures/smart-logs/nvme-samsung-970-evo-plus.bin")
        }
        "p3700" => include_bytes!("../../../fixtures/smart-logs/nvme-intel-p3700-41951h.bin"),
        "970-evo-media" => {
            include_bytes!("../../../fixtures/smart-logs/nvme-samsung-970-evo-media-errors.bin")
        }
        _ => unreachable!(),
    }
}

fn decoded_nvme(name: &str) -> DriveHealth {
    let mut d = DriveHealth {
        drive: "nvme0n1".into(),
        ..DriveHealth::default()
    };
    let odd = nvme::fill(&mut d, &nvme::parse(nvme_bytes(name)).unwrap());
    assert!(odd.is_empty(), "{name}: {odd:?}");
    d
}

#[test]
fn real_nvme_logs_decode_to_what_smartctl_printed() {
    for name in ["970-evo-plus", "p3700", "970-evo-media"] {
        let j = &source(name)["nvme_smart_health_information_log"];
        let n = |k: &str| j[k].as_u64().unwrap();
        let d = decoded_nvme(name);
        assert_eq!(
            d.critical_warning,
            Some(n("critical_warning") as u8),
            "{name}"
        );
        assert_eq!(d.temperature_c, Some(n("temperature") as i32), "{name}");
        assert_eq!(d.available_spare_percent, Some(n("available_spare") as u8));
        assert_eq!(
            d.available_spare_threshold_percent,
            Some(n("available_spare_threshold") as u8)
        );
        assert_eq!(
            d.percentage_used,
            Some(n("percentage_used") as u8),
            "{name}"
        );
        assert_eq!(d.power_on_hours, Some(n("power_on_hours")), "{name}");
        assert_eq!(d.power_cycles, Some(n("power_cycles")));
        assert_eq!(d.unsafe_shutdowns, Some(n("unsafe_shutdowns")));
        assert_eq!(d.media_errors, Some(n("media_errors")), "{name}");
        assert_eq!(d.error_log_entries, Some(n("num_err_log_entries")));
        assert_eq!(
            d.data_written_bytes,
            Some(n("data_units_written") * 512_000)
        );
        assert_eq!(d.data_read_bytes, Some(n("data_units_read") * 512_000));
    }
    // What each shows: 41,951 hours on the P3700, 7 media errors on the 970 EVO.
    assert_eq!(decoded_nvme("p3700").power_on_hours, Some(41_951));
    assert_eq!(decoded_nvme("970-evo-media").media_errors, Some(7));
}

#[test]
fn the_rules_read_the_real_logs_as_a_person_would() {
    let plus = decoded_nvme("970-evo-plus");
    let p3700 = decoded_nvme("p3700");
    let media = decoded_nvme("970-evo-media");
    // In use, without an error: nothing fails or warns (22 error log entries are the
    // controller's log of refused commands, not data lost).
    for d in [&plus, &p3700] {
        assert_eq!(rules::nvme_critical_warning(d), None);
        assert_eq!(rules::drive_media_errors(d), None);
        assert_eq!(rules::spare_below_threshold(d), None);
        assert_eq!(rules::drive_worn(d), None);
    }
    let j = rules::drive_media_errors(&media).unwrap();
    assert_eq!(j.status, crate::rules::Status::Fail);
    assert_eq!(j.found, "7 media and data integrity errors");
    assert!(j.says().starts_with("nvme0n1: 7 media"), "{}", j.says());
}

fn ata(bytes: &[u8], ssd: bool) -> DriveHealth {
    let mut d = DriveHealth {
        drive: "sda".into(),
        ..DriveHealth::default()
    };
    ata::fill(&mut d, &ata::parse(bytes).unwrap(), ssd);
    d
}

#[test]
fn a_real_sata_ssd_of_84620_hours_passes_its_own_thresholds() {
    // smartctl 7.3: Power_On_Hours 84620, Wear_Leveling_Count 90 (raw 1773), Airflow
    // 27 °C, Total_LBAs_Written 218759569150, Reallocated 0, PASSED.
    let d = ata(
        include_bytes!("../../../fixtures/smart-logs/ata-samsung-sm843t.bin"),
        true,
    );
    assert_eq!(d.power_on_hours, Some(84_620));
    assert_eq!(d.power_cycles, Some(6));
    assert_eq!(d.percentage_used, Some(10));
    assert_eq!(d.temperature_c, Some(27));
    assert_eq!(d.total_lbas_written, Some(218_759_569_150));
    assert_eq!(d.reallocated_sectors, Some(0));
    assert_eq!(d.assessment.as_deref(), Some("passed"));
    assert!(
        d.failing_attributes.is_empty(),
        "{:?}",
        d.failing_attributes
    );
    assert_eq!(rules::drive_failing(&d), None);
}

#[test]
fn a_real_failing_hard_disk_says_so_by_its_own_thresholds() {
    // smartctl 7.1: "SMART overall-health self-assessment test result: FAILED",
    // Reallocated_Sector_Ct 1 (threshold 5) FAILING_NOW, raw 1975; 8 pending; 65592 hours;
    // 25 °C.
    let d = ata(
        include_bytes!("../../../fixtures/smart-logs/ata-hitachi-failing.bin"),
        false,
    );
    assert_eq!(d.assessment.as_deref(), Some("failing"));
    assert_eq!(
        d.failing_attributes,
        ["5 Reallocated_Sector_Ct (1 ≤ threshold 5, pre-failure)"]
    );
    assert_eq!(d.reallocated_sectors, Some(1975));
    assert_eq!(d.pending_sectors, Some(8));
    assert_eq!(d.uncorrectable_sectors, Some(0));
    assert_eq!(d.power_on_hours, Some(65_592));
    assert_eq!(d.temperature_c, Some(25));
    // A hard disk has no wear figure, and none is made up.
    assert_eq!(d.percentage_used, None);
    assert_eq!(
        rules::drive_failing(&d).map(|j| j.status),
        Some(crate::rules::Status::Fail)
    );
    assert_eq!(
        rules::drive_media_errors(&d).map(|j| j.found),
        Some("8 sectors pending remap, 0 unreadable".to_string())
    );
    assert_eq!(
        rules::drive_reallocated(&d).map(|j| j.status),
        Some(crate::rules::Status::Warn)
    );
}

#[test]
fn edac_labels_name_a_slot_only_when_one_fits() {
    let dimm = |l: &str| Dimm {
        locator: l.into(),
        ..Dimm::default()
    };
    let dimms = [
        dimm("DIMM_A0"),
        dimm("DIMM_B0"),
        dimm("DIMM1"),
        dimm("DIMM10"),
    ];
    // ghes_edac writes "bank locator" and "device locator" (ThunderX2: "N0 DIMM_A0").
    assert_eq!(slot_named("N0 DIMM_A0", &dimms).as_deref(), Some("DIMM_A0"));
    // skx_edac's own labels name controllers and channels, no slot.
    assert_eq!(slot_named("CPU_SrcID#0_MC#0_Chan#0_DIMM#0", &dimms), None);
    // DIMM1 is a word of the label, DIMM10 is not.
    assert_eq!(slot_named("CPU0 DIMM1", &dimms).as_deref(), Some("DIMM1"));
    assert_eq!(slot_named("", &dimms), None);
}

#[test]
fn a_list_is_read_partial_or_unreadable_by_what_answered() {
    assert_eq!(state(2, 2), ListState::Read);
    assert_eq!(state(0, 0), ListState::Read);
    assert_eq!(state(1, 2), ListState::Partial);
    assert_eq!(state(0, 2), ListState::Unreadable);
}

#[test]
fn a_refused_or_silent_device_is_a_reason_never_a_number() {
    let asked = "the NVMe SMART / Health Information log (Get Log Page 02h)";
    let e = io::Error::from(io::ErrorKind::PermissionDenied);
    assert!(io_reason(&e, asked, "nvme0").starts_with("needs root: "));
    let e = io::Error::from(io::ErrorKind::NotFound);
    assert!(io_reason(&e, asked, "nvme0").contains("has no device node"));
    let e = io::Error::other("Input/output error");
    assert!(io_reason(&e, asked, "nvme0").starts_with("the drive did not answer"));
    let e = io::Error::from(io::ErrorKind::TimedOut);
    assert!(io_reason(&e, asked, "nvme0").starts_with("the drive did not answer"));
}
