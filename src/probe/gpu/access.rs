//! GPU access as recorded answers: the `GpuAccess` trait, its replay implementation
//! (`Recorded`, from a sysroot's `nvml.json`) and the `Recorder` that writes that file.
//!
//! Every NVML question the probe asks goes through `GpuAccess::system` or
//! `GpuAccess::device` by name, and every answer is a JSON value or an error code. So the
//! live implementation and the replay answer the very same calls, and a capture records
//! exactly what the probe asked. The file format is documented in docs/nvml-json.md.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Version of the nvml.json layout.
pub const FORMAT: u32 = 1;

/// Name of the recorded NVML answers inside a sysroot.
pub const NVML_FILE: &str = "nvml.json";

/// Ends the detail of a `NotSupported` answer for a call only the Linux driver has (asked
/// on Windows), so its note says that instead of blaming the GPU.
pub const LINUX_ONLY: &str = "exists only in the Linux driver";

/// An NVML error as recorded: the NVML error name (`NotSupported`, `NoPermission`, ...)
/// and, where the library gave one, its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CallError {
    /// NVML error name, e.g. `NotSupported`.
    pub code: String,
    /// The library's message, where it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

impl CallError {
    /// An error with just a code.
    pub fn code(code: &str) -> Self {
        CallError {
            code: code.to_string(),
            detail: None,
        }
    }

    /// Human reason for a note: what failed and how to fix it.
    pub fn reason(&self) -> String {
        match self.code.as_str() {
            "LibloadingError" if self.detail.as_deref().is_some_and(|d| d.contains("nvml.dll")) => {
                "nvml.dll not found (System32, NVIDIA Corporation\\NVSMI): install the NVIDIA driver"
                    .into()
            }
            "LibloadingError" => "libnvidia-ml.so.1 not found: install the NVIDIA driver".into(),
            "DriverNotLoaded" => {
                "NVIDIA kernel driver not loaded: load it (modprobe nvidia) or reboot after \
                 installing the driver"
                    .into()
            }
            "NoPermission" => crate::sys::NVML_NO_PERMISSION.into(),
            "LibRmVersionMismatch" => "NVML library and kernel module versions differ: \
                 reboot after the driver upgrade"
                .into(),
            "NotSupported" if self.detail.as_deref().is_some_and(|d| d.ends_with(LINUX_ONLY)) => {
                format!("{} (NVML NotSupported)", self.detail.as_deref().unwrap_or(LINUX_ONLY))
            }
            "NotSupported" => "not supported on this GPU (NVML NotSupported)".into(),
            "FailedToLoadSymbol" => {
                "driver too old for this NVML query (needs R510 or newer)".into()
            }
            "NotRecorded" => "not recorded in this sysroot's nvml.json".into(),
            // NVML left unloaded, where nothing of an NVIDIA driver is there (gpu.rs); the
            // capture keeps why, so its replay says what the live run did.
            "NotLoaded" => self
                .detail
                .clone()
                .unwrap_or_else(|| "not loaded".into()),
            "GpuLost" => "GPU has fallen off the bus (NVML GpuLost): check power and seating, \
                 then reboot"
                .into(),
            // A live call past its deadline (live.rs), and the calls not asked after it.
            "NoAnswer" => format!(
                "{}: the driver or a GPU hangs (see `dmesg` for Xid errors; `nvidia-smi` \
                 hangs too until the GPU is reset or the machine rebooted)",
                self.detail.as_deref().unwrap_or("NVML did not answer")
            ),
            "NotAsked" => format!(
                "not asked: {}",
                self.detail.as_deref().unwrap_or("NVML stopped answering")
            ),
            "Unknown" => "NVML unknown error (in a container the device cgroup may be lost: \
                 restart the container)"
                .into(),
            "NoNvmlSupport" => "built without the nvml feature".into(),
            code => match &self.detail {
                Some(d) => format!("NVML error {code}: {d}"),
                None => format!("NVML error {code}"),
            },
        }
    }
}

/// One answer: a JSON value, or why NVML gave none.
pub type Answer = Result<Value, CallError>;

/// The questions the GPU probe asks NVML, live or replayed.
pub trait GpuAccess {
    /// Whether NVML started (`nvmlInit`); asked once, first.
    fn init(&mut self) -> Answer;
    /// A system-wide call: `device_count`, `driver_version`, `cuda_driver_version`.
    fn system(&mut self, call: &str) -> Answer;
    /// A call on the device with this NVML index (`name`, `num_cores`, ...).
    fn device(&mut self, index: u32, call: &str) -> Answer;
}

/// An answer as stored in the file: `{"ok": value}` or `{"err": "NotSupported"}` (with an
/// optional `"detail"`). Read by key, so `{"ok": null}` stays a successful null answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "Value", into = "Value")]
pub enum Stored {
    /// The call answered this value.
    Ok { ok: Value },
    /// The call failed with this NVML error name.
    Err { err: String, detail: Option<String> },
}

impl TryFrom<Value> for Stored {
    type Error = String;

    fn try_from(v: Value) -> Result<Self, String> {
        let Value::Object(mut m) = v else {
            return Err("an answer must be {\"ok\": ...} or {\"err\": ...}".into());
        };
        if let Some(ok) = m.remove("ok") {
            return Ok(Stored::Ok { ok });
        }
        match m.remove("err") {
            Some(Value::String(err)) => Ok(Stored::Err {
                err,
                detail: m
                    .remove("detail")
                    .and_then(|d| d.as_str().map(str::to_string)),
            }),
            _ => Err("an answer needs \"ok\" or a string \"err\"".into()),
        }
    }
}

impl From<Stored> for Value {
    fn from(s: Stored) -> Value {
        match s {
            Stored::Ok { ok } => serde_json::json!({ "ok": ok }),
            Stored::Err { err, detail: None } => serde_json::json!({ "err": err }),
            Stored::Err {
                err,
                detail: Some(d),
            } => serde_json::json!({ "err": err, "detail": d }),
        }
    }
}

/// The schema of a stored answer, as `TryFrom<Value>` reads it and `From<Stored>` writes it:
/// an object with `ok` (any value, `null` included), or one with a string `err` and an
/// optional string `detail`.
impl JsonSchema for Stored {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Answer".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "One NVML call's answer: `{\"ok\": VALUE}` (any value, null included), or \
                `{\"err\": CODE}` with the NVML error name (`NotSupported`, `NoPermission`, ...; \
                rigcheck's own `NoAnswer` and `NotAsked` for a hung driver) and, where the library \
                gave one, its message as `detail`.",
            "oneOf": [
                {
                    "type": "object",
                    "properties": { "ok": true },
                    "required": ["ok"],
                    "additionalProperties": false
                },
                {
                    "type": "object",
                    "properties": {
                        "err": { "type": "string" },
                        "detail": { "type": "string" }
                    },
                    "required": ["err"],
                    "additionalProperties": false
                }
            ]
        })
    }
}

impl Stored {
    fn from_answer(a: &Answer) -> Self {
        match a {
            Ok(v) => Stored::Ok { ok: v.clone() },
            Err(e) => Stored::Err {
                err: e.code.clone(),
                detail: e.detail.clone(),
            },
        }
    }

    fn to_answer(&self) -> Answer {
        match self {
            Stored::Ok { ok } => Ok(ok.clone()),
            Stored::Err { err, detail } => Err(CallError {
                code: err.clone(),
                detail: detail.clone(),
            }),
        }
    }
}

/// The whole nvml.json file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct NvmlFile {
    /// Layout version (`FORMAT`).
    pub format: u32,
    /// Absent means init succeeded (a hand-written file may leave it out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub init: Option<Stored>,
    /// System-wide calls by name.
    #[serde(default)]
    pub system: BTreeMap<String, Stored>,
    /// One map of call → answer per NVML index.
    #[serde(default)]
    pub devices: Vec<BTreeMap<String, Stored>>,
}

/// Replay: answers from a sysroot's nvml.json; a call not in the file is `NotRecorded`.
#[derive(Debug, Default)]
pub struct Recorded {
    file: NvmlFile,
}

impl Recorded {
    /// Parses nvml.json text.
    pub fn parse(text: &str) -> Result<Self, String> {
        let file: NvmlFile = serde_json::from_str(text).map_err(|e| e.to_string())?;
        if file.format != FORMAT {
            return Err(format!(
                "nvml.json format {} is not the supported {FORMAT}",
                file.format
            ));
        }
        Ok(Recorded { file })
    }
}

fn not_recorded() -> CallError {
    CallError::code("NotRecorded")
}

impl GpuAccess for Recorded {
    fn init(&mut self) -> Answer {
        self.file
            .init
            .as_ref()
            .map_or(Ok(Value::Null), Stored::to_answer)
    }

    fn system(&mut self, call: &str) -> Answer {
        self.file
            .system
            .get(call)
            .map_or_else(|| Err(not_recorded()), Stored::to_answer)
    }

    fn device(&mut self, index: u32, call: &str) -> Answer {
        self.file
            .devices
            .get(index as usize)
            .and_then(|d| d.get(call))
            .map_or_else(|| Err(not_recorded()), Stored::to_answer)
    }
}

/// The nvml.json of a capture where NVML was not loaded, for `why`: its replay answers init
/// with that reason, as the live run gave it.
pub fn not_loaded_json(why: &str) -> String {
    let file = NvmlFile {
        format: FORMAT,
        init: Some(Stored::Err {
            err: "NotLoaded".into(),
            detail: Some(why.to_string()),
        }),
        ..NvmlFile::default()
    };
    serde_json::to_string_pretty(&file).unwrap_or_default() + "\n"
}

/// Capture: passes every call through and remembers the answer, for nvml.json.
pub struct Recorder<A> {
    inner: A,
    file: NvmlFile,
}

impl<A: GpuAccess> Recorder<A> {
    /// Wraps an access (the live one) to record what it answers.
    pub fn new(inner: A) -> Self {
        Recorder {
            inner,
            file: NvmlFile {
                format: FORMAT,
                ..NvmlFile::default()
            },
        }
    }

    /// The nvml.json text of everything asked so far.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(&self.file).unwrap_or_default() + "\n"
    }
}

impl<A: GpuAccess> GpuAccess for Recorder<A> {
    fn init(&mut self) -> Answer {
        let a = self.inner.init();
        self.file.init = Some(Stored::from_answer(&a));
        a
    }

    fn system(&mut self, call: &str) -> Answer {
        let a = self.inner.system(call);
        self.file
            .system
            .insert(call.to_string(), Stored::from_answer(&a));
        a
    }

    fn device(&mut self, index: u32, call: &str) -> Answer {
        let a = self.inner.device(index, call);
        let i = index as usize;
        if self.file.devices.len() <= i {
            self.file.devices.resize_with(i + 1, BTreeMap::new);
        }
        self.file.devices[i].insert(call.to_string(), Stored::from_answer(&a));
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorder_output_replays_the_same_answers() {
        let text = r#"{"format":1,"system":{"device_count":{"ok":1}},
            "devices":[{"name":{"ok":"Tesla T4"},"fan_speed":{"err":"NotSupported"}}]}"#;
        let mut rec = Recorder::new(Recorded::parse(text).unwrap());
        assert!(rec.init().is_ok());
        assert_eq!(rec.system("device_count").unwrap(), 1);
        assert_eq!(rec.device(0, "name").unwrap(), "Tesla T4");
        assert_eq!(rec.device(0, "fan_speed").unwrap_err().code, "NotSupported");
        assert_eq!(rec.device(0, "serial").unwrap_err().code, "NotRecorded");
        let mut again = Recorded::parse(&rec.to_json()).unwrap();
        assert_eq!(again.device(0, "name").unwrap(), "Tesla T4");
        assert_eq!(
            again.device(0, "fan_speed").unwrap_err().code,
            "NotSupported"
        );
        // The recorder also kept the NotRecorded answer, so replay says the same.
        assert_eq!(again.device(0, "serial").unwrap_err().code, "NotRecorded");
    }

    #[test]
    fn wrong_format_is_refused() {
        assert!(Recorded::parse(r#"{"format":2}"#).is_err());
        assert!(Recorded::parse("not json").is_err());
    }
}
