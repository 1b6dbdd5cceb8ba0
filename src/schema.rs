//! The JSON Schema (draft 2020-12) of every JSON document rigcheck writes, made from the
//! types that are serialised (schemars), with their doc comments as descriptions. One list,
//! `DOCUMENTS`, names each document and its root type; `rigcheck schema` prints from it and
//! `docs/schema/NAME.schema.json` is written from it (a test keeps the two equal).
//!
//! The schemas describe what rigcheck writes (serde's serialising side): a field written
//! always is `required`, a field left out when empty is not, and a fact that can be unknown
//! is nullable. A field added to a document after its `schema_version` was first written
//! carries `#[serde(default)]` (reports written before it lack it, and read as the default);
//! its schema keeps that `default` and it is not `required`, so every report of the same
//! `schema_version` validates (docs/json.md, "Versioning").

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::Value;

use crate::spec::SCHEMA_VERSION;

/// One kind of JSON document rigcheck writes.
pub struct Document {
    /// The name `rigcheck schema NAME` takes; its file is `docs/schema/NAME.schema.json`.
    pub name: &'static str,
    /// What writes it.
    pub written_by: &'static str,
    /// The schema of its root type, before the rules of `finish`.
    root: fn() -> Value,
}

/// Every JSON document rigcheck writes, by name.
pub const DOCUMENTS: &[Document] = &[
    Document {
        name: "report",
        written_by: "`rigcheck --format json` (and `inventory`), and a capture's report.json",
        root: root::<crate::spec::Spec>,
    },
    Document {
        name: "verify",
        written_by: "`rigcheck verify --format json`",
        root: root::<crate::verify::VerifyReport>,
    },
    Document {
        name: "preflight",
        written_by: "`rigcheck preflight --format json`",
        root: root::<crate::preflight::Report>,
    },
    Document {
        name: "diff",
        written_by: "`rigcheck diff --format json`",
        root: root::<crate::render::diff::DiffJson<'static>>,
    },
    Document {
        name: "fleet",
        written_by: "`rigcheck fleet --format json`",
        root: root::<crate::render::fleet::FleetJson<'static>>,
    },
    Document {
        name: "fleet-ndjson",
        written_by: "`rigcheck fleet --format ndjson`, one line per host (each also one of \
                     `hosts[]` in `fleet --format json`)",
        root: root::<crate::render::fleet::HostJson<'static>>,
    },
    Document {
        name: "bench",
        written_by: "`rigcheck bench --format json`: the report with its `bench` section",
        root: root::<crate::spec::Spec>,
    },
    Document {
        name: "capture",
        written_by: "`rigcheck capture`: capture.json, the capture's own facts",
        root: root::<crate::probe::system::CaptureMeta>,
    },
    Document {
        name: "nvml",
        written_by: "`rigcheck capture`: nvml.json, every NVML call's answer (docs/nvml-json.md)",
        root: root::<crate::probe::gpu::access::NvmlFile>,
    },
    Document {
        name: "native",
        written_by: "`rigcheck capture` on Windows and macOS: native.json, the OS's answers \
                     (docs/native-json.md)",
        root: root::<crate::native::NativeAnswers>,
    },
    Document {
        name: "host",
        written_by: "`rigcheck capture` on Linux: host.json, the answers of calls that are not \
                     file reads (sched_getaffinity, statvfs)",
        root: root::<crate::probe::limits::HostAnswers>,
    },
    Document {
        name: "cpuid",
        written_by: "`rigcheck capture` on x86_64: cpuid.json, the CPUID leaves the probes used",
        root: root::<crate::probe::cpuid::CpuidFile>,
    },
    Document {
        name: "ethtool",
        written_by: "`rigcheck capture` on Linux: ethtool.json, each network interface's \
                     ethtool answers (driver info, link modes)",
        root: root::<crate::probe::nics::EthtoolFile>,
    },
];

/// The names of every document, in `DOCUMENTS` order.
pub fn names() -> impl Iterator<Item = &'static str> {
    DOCUMENTS.iter().map(|d| d.name)
}

/// The document called `name`.
pub fn document(name: &str) -> Option<&'static Document> {
    DOCUMENTS.iter().find(|d| d.name == name)
}

/// The schema of the document called `name`.
pub fn schema(name: &str) -> Option<Value> {
    document(name).map(Document::schema)
}

/// The schema of the document called `name` as the file `docs/schema/NAME.schema.json` holds
/// it: pretty JSON with a trailing newline.
pub fn text(name: &str) -> Option<String> {
    document(name).map(Document::schema_text)
}

impl Document {
    /// The finished schema of this document.
    pub fn schema(&self) -> Value {
        let mut v = (self.root)();
        finish(&mut v, self);
        v
    }

    /// The finished schema as `docs/schema/NAME.schema.json` holds it: pretty JSON with a
    /// trailing newline.
    pub fn schema_text(&self) -> String {
        serde_json::to_string_pretty(&self.schema()).unwrap_or_default() + "\n"
    }

    /// The file name it is kept under in `docs/schema/`.
    pub fn file_name(&self) -> String {
        format!("{}.schema.json", self.name)
    }
}

/// The schema of `T` as rigcheck writes it (serde's serialising side), draft 2020-12.
fn root<T: JsonSchema>() -> Value {
    SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

/// `rigcheck bench --format json`: the report, whose `bench` section is then always there,
/// never null.
fn bench(v: &mut Value) {
    let Some(root) = v.as_object_mut() else {
        return;
    };
    if let Some(Value::Object(bench)) = root.get_mut("properties").and_then(|p| p.get_mut("bench"))
    {
        if let Some(Value::Array(branches)) = bench.remove("anyOf") {
            if let Some(Value::Object(reference)) =
                branches.into_iter().find(|b| b.get("$ref").is_some())
            {
                bench.extend(reference);
            }
        }
        bench.remove("default");
    }
    match root.get_mut("required") {
        Some(Value::Array(required)) => required.push("bench".into()),
        _ => {
            root.insert("required".into(), vec![Value::from("bench")].into());
        }
    }
}

/// What every document's schema gets beyond its type's: its title and what writes it, the
/// `schema_version` it is of, and no `required` on fields added since (`optional_added`).
fn finish(v: &mut Value, doc: &Document) {
    optional_added(v);
    if doc.name == "bench" {
        bench(v);
    }
    let Some(root) = v.as_object_mut() else {
        return;
    };
    let mut description = format!("Written by {}.", doc.written_by);
    if let Some(Value::Object(props)) = root.get_mut("properties") {
        if let Some(Value::Object(version)) = props.get_mut("schema_version") {
            version.insert("const".into(), SCHEMA_VERSION.into());
            description.push_str(&format!(
                " This schema is of schema_version {SCHEMA_VERSION}: a document of a newer \
                 version fails at `schema_version`."
            ));
        }
    }
    if matches!(doc.name, "report" | "bench") {
        description.push_str(
            " Quantities are plain numbers in base units, the unit in the name (`size_bytes`, \
             `max_mhz`, `temperature_c`). A fact that could not be read is null, and `notes[]` \
             has an entry whose `field` is its path (`system.serial`, \
             `gpus[0].state.fan_percent`) and whose `reason` says why and how to read it.",
        );
    }
    if let Some(Value::String(own)) = root.get("description") {
        description = format!("{own}\n\n{description}");
    }
    root.insert("title".into(), format!("rigcheck {}", doc.name).into());
    root.insert("description".into(), description.into());
    unwrap_lines(v);
}

/// Joins the lines of each description (a doc comment wraps at 100 columns) into one; a blank
/// line between paragraphs stays.
fn unwrap_lines(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(d)) = m.get_mut("description") {
                *d = d
                    .split("\n\n")
                    .map(|p| p.split('\n').map(str::trim).collect::<Vec<_>>().join(" "))
                    .collect::<Vec<_>>()
                    .join("\n\n");
            }
            m.values_mut().for_each(unwrap_lines);
        }
        Value::Array(a) => a.iter_mut().for_each(unwrap_lines),
        _ => {}
    }
}

/// Takes out of `required` every property a reader does without: one that has a `default`
/// (a field added after its document's `schema_version` was first written,
/// `#[serde(default)]`) and one that may be `null` (an absent nullable field reads as null).
/// So every document of the same `schema_version` validates, however old; what is left
/// `required` is what rigcheck cannot read a document without.
fn optional_added(v: &mut Value) {
    match v {
        Value::Object(m) => {
            let optional: Vec<String> = match m.get("properties") {
                Some(Value::Object(props)) => props
                    .iter()
                    .filter(|(_, p)| p.get("default").is_some() || nullable(p))
                    .map(|(k, _)| k.clone())
                    .collect(),
                _ => Vec::new(),
            };
            if let Some(Value::Array(required)) = m.get_mut("required") {
                required.retain(|r| !r.as_str().is_some_and(|r| optional.iter().any(|o| o == r)));
                if required.is_empty() {
                    m.remove("required");
                }
            }
            m.values_mut().for_each(optional_added);
        }
        Value::Array(a) => a.iter_mut().for_each(optional_added),
        _ => {}
    }
}

/// True when the schema `p` allows `null`: `"type": [..., "null"]`, or a `null` branch of
/// `anyOf` / `oneOf` (an optional struct).
fn nullable(p: &Value) -> bool {
    let is_null =
        |t: &Value| t == "null" || t.as_array().is_some_and(|a| a.iter().any(|t| t == "null"));
    p.get("type").is_some_and(is_null)
        || ["anyOf", "oneOf"].iter().any(|k| {
            p.get(*k)
                .and_then(Value::as_array)
                .is_some_and(|branches| branches.iter().any(|b| b.get("type").is_some_and(is_null)))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_each_has_a_schema() {
        let mut seen = std::collections::BTreeSet::new();
        for d in DOCUMENTS {
            assert!(seen.insert(d.name), "{} twice", d.name);
            let s = d.schema();
            assert_eq!(
                s["$schema"], "https://json-schema.org/draft/2020-12/schema",
                "{}",
                d.name
            );
            assert_eq!(s["title"], format!("rigcheck {}", d.name));
        }
    }

    /// What a report cannot do without is required; a fact that may be unknown is nullable
    /// and may be absent (older reports), as is a field added later.
    #[test]
    fn the_report_requires_what_a_reader_cannot_do_without() {
        let s = schema("report").unwrap();
        let required = s["required"].as_array().unwrap();
        for field in ["schema_version", "rigcheck_version", "cpu", "gpus", "notes"] {
            assert!(required.iter().any(|r| r == field), "{field}");
        }
        // Nullable, added after the first reports of schema_version 1, or only with bench.
        for field in ["hostname", "lists", "limits", "headroom", "bench"] {
            assert!(!required.iter().any(|r| r == field), "{field}");
        }
        assert_eq!(s["properties"]["schema_version"]["const"], SCHEMA_VERSION);
        let hostname = &s["properties"]["hostname"]["type"];
        assert_eq!(hostname, &serde_json::json!(["string", "null"]));
        let bench = schema("bench").unwrap();
        assert!(bench["required"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r == "bench"));
    }
}
