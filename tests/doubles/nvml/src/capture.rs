//! The recorded answers the double serves: an `nvml.json` (docs/nvml-json.md) read once,
//! with NVML's return code for each recorded error and for what the file does not hold.

use serde_json::{Map, Value};

use crate::ret;

/// One recorded machine: what `nvmlInit` answered, the system-wide calls, and one map of
/// call → answer per NVML index.
pub struct Capture {
    init: Option<Value>,
    system: Map<String, Value>,
    devices: Vec<Map<String, Value>>,
}

impl Capture {
    /// Reads and checks an nvml.json text (`path` names it in errors).
    pub fn parse(path: &str, text: &str) -> Result<Capture, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("{path}: {e}"))?;
        if v.get("format").and_then(Value::as_u64) != Some(1) {
            return Err(format!("{path}: not an nvml.json of format 1"));
        }
        let system = match v.get("system") {
            Some(Value::Object(m)) => m.clone(),
            None => Map::new(),
            Some(_) => return Err(format!("{path}: \"system\" is not an object")),
        };
        let mut devices = Vec::new();
        for (i, d) in v
            .get("devices")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            match d {
                Value::Object(m) => devices.push(m.clone()),
                _ => return Err(format!("{path}: devices[{i}] is not an object")),
            }
        }
        Ok(Capture {
            init: v.get("init").cloned(),
            system,
            devices,
        })
    }

    /// What `nvmlInit` answers: success unless the capture recorded a failure.
    pub fn init(&self) -> ret::Code {
        match &self.init {
            None => ret::SUCCESS,
            Some(stored) => match answer(stored) {
                Ok(_) => ret::SUCCESS,
                Err(code) => code,
            },
        }
    }

    /// A system-wide call's recorded value.
    pub fn system(&self, call: &str) -> Result<&Value, ret::Code> {
        self.system.get(call).map_or(Err(ret::NO_DATA), answer)
    }

    /// A device call's recorded value.
    pub fn device(&self, index: u32, call: &str) -> Result<&Value, ret::Code> {
        let d = self
            .devices
            .get(index as usize)
            .ok_or(ret::INVALID_ARGUMENT)?;
        d.get(call).map_or(Err(ret::NO_DATA), answer)
    }

    /// How many GPUs NVML enumerates: the recorded count, else one per recorded device.
    pub fn count(&self) -> u32 {
        self.system("device_count")
            .ok()
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok())
            .unwrap_or(self.devices.len() as u32)
    }

    /// Whether `index` is a GPU this capture can answer for.
    pub fn has(&self, index: u32) -> bool {
        index < self.count() && (index as usize) < self.devices.len()
    }

    /// The recorded MIG devices of a GPU, by their position in the list.
    pub fn mig_devices(&self, index: u32) -> Result<&Vec<Value>, ret::Code> {
        match self.device(index, "mig_devices")? {
            Value::Array(list) => Ok(list),
            other => Err(malformed(index, "mig_devices", other)),
        }
    }

    /// One recorded MIG device (position `slot` in the GPU's list).
    pub fn mig(&self, index: u32, slot: u32) -> Option<&Map<String, Value>> {
        self.mig_devices(index)
            .ok()?
            .get(slot as usize)?
            .as_object()
    }

    /// The GPU whose recorded PCI bus id is the same address as `bus`.
    pub fn by_bus_id(&self, bus: (u32, u32, u32, u32)) -> Option<u32> {
        (0..self.count()).find(|i| {
            self.device(*i, "pci_bus_id")
                .ok()
                .and_then(Value::as_str)
                .and_then(parse_bus_id)
                == Some(bus)
        })
    }
}

/// A stored answer: its value, or NVML's code for the recorded error.
fn answer(stored: &Value) -> Result<&Value, ret::Code> {
    if let Some(v) = stored.get("ok") {
        return Ok(v);
    }
    match stored.get("err").and_then(Value::as_str) {
        Some(name) => Err(code(name)),
        None => Err(ret::UNKNOWN),
    }
}

/// NVML's return code for an error as nvml.json names it (nvml-wrapper's variant names).
/// `FailedToLoadSymbol` (a call the library lacked) becomes `FUNCTION_NOT_FOUND`, the code
/// NVML itself has for that; `LibloadingError` (no library at all) `LIBRARY_NOT_FOUND`.
pub fn code(name: &str) -> ret::Code {
    CODES
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(ret::UNKNOWN, |(_, c)| *c)
}

/// Whether `name` is an error name `code` knows.
pub fn known(name: &str) -> bool {
    CODES.iter().any(|(n, _)| *n == name)
}

const CODES: [(&str, ret::Code); 25] = [
    ("Uninitialized", 1),
    ("InvalidArg", 2),
    ("NotSupported", 3),
    ("NoPermission", 4),
    ("AlreadyInitialized", 5),
    ("NotFound", 6),
    ("InsufficientSize", 7),
    ("InsufficientPower", 8),
    ("DriverNotLoaded", 9),
    ("Timeout", 10),
    ("IrqIssue", 11),
    ("LibraryNotFound", 12),
    ("LibloadingError", 12),
    ("FunctionNotFound", 13),
    ("FailedToLoadSymbol", 13),
    ("CorruptedInfoROM", 14),
    ("GpuLost", 15),
    ("ResetRequired", 16),
    ("OperatingSystem", 17),
    ("LibRmVersionMismatch", 18),
    ("InUse", 19),
    ("InsufficientMemory", 20),
    ("NoData", 21),
    ("VgpuEccNotSupported", 22),
    ("Unknown", 999),
];

/// A value of the wrong shape in the capture: said on stderr (the file is a test input to
/// fix), answered as NVML's unknown error.
pub fn malformed(index: u32, call: &str, v: &Value) -> ret::Code {
    eprintln!("nvml double: devices[{index}].{call} has an unexpected value {v}");
    ret::UNKNOWN
}

/// `domain:bus:device.function`, `domain:bus:device` or `bus:device.function`, in hex (the
/// forms nvmlDeviceGetHandleByPciBusId accepts), as numbers.
pub fn parse_bus_id(text: &str) -> Option<(u32, u32, u32, u32)> {
    let text = text.trim();
    let (left, function) = match text.rsplit_once('.') {
        Some((l, f)) => (l, u32::from_str_radix(f, 16).ok()?),
        None => (text, 0),
    };
    let parts: Vec<&str> = left.split(':').collect();
    let hex = |s: &str| u32::from_str_radix(s, 16).ok();
    match parts.as_slice() {
        [d, b, dev] => Some((hex(d)?, hex(b)?, hex(dev)?, function)),
        [b, dev] if text.contains('.') => Some((0, hex(b)?, hex(dev)?, function)),
        _ => None,
    }
}

/// The brand names nvml.json stores (as nvidia-smi prints them) and NVML's enum values.
pub const BRANDS: [(&str, u32); 17] = [
    ("Unknown", 0),
    ("Quadro", 1),
    ("Tesla", 2),
    ("NVS", 3),
    ("Grid", 4),
    ("GeForce", 5),
    ("Titan", 6),
    ("NVIDIA Virtual Applications", 7),
    ("NVIDIA Virtual PC", 8),
    ("NVIDIA Virtual Compute Server", 9),
    ("NVIDIA RTX Virtual Workstation", 10),
    ("NVIDIA Cloud Gaming", 11),
    ("Quadro RTX", 12),
    ("NVIDIA RTX", 13),
    ("NVIDIA", 14),
    ("GeForce RTX", 15),
    ("Titan RTX", 16),
];

/// The architecture names nvml.json stores and NVML's `NVML_DEVICE_ARCH_*` values.
pub const ARCHITECTURES: [(&str, u32); 10] = [
    ("Kepler", 2),
    ("Maxwell", 3),
    ("Pascal", 4),
    ("Volta", 5),
    ("Turing", 6),
    ("Ampere", 7),
    ("Ada Lovelace", 8),
    ("Hopper", 9),
    ("Blackwell", 10),
    ("Unknown", 0xFFFF_FFFF),
];

/// The enum value of a recorded name in one of the tables above.
pub fn enum_value(
    table: &[(&str, u32)],
    index: u32,
    call: &str,
    v: &Value,
) -> Result<u32, ret::Code> {
    v.as_str()
        .and_then(|s| table.iter().find(|(n, _)| *n == s))
        .map(|(_, e)| *e)
        .ok_or_else(|| malformed(index, call, v))
}
