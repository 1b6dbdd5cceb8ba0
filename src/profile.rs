//! Profiles: the order a machine is checked against, as a TOML file, parsed into
//! requirements with positions so every mistake is reported as `file:line:column: what`.
//!
//! A requirement is written as a bare value (text: contains; number or size: equal within
//! the field's tolerance; array: one of) or as a table with one of `exact`, `at_least`,
//! `at_most`, `one_of`, `contains`, plus an optional `tolerance = "3%"`.

use std::path::Path;

use toml::de::{DeTable, DeValue};
use toml::{Spanned, Value};

pub use crate::error::ProfileError;
use crate::requirement::{self as fields, Field, Suggest};
pub use crate::requirement::{Quantity, Section};
use crate::spec::{DriveKind, Spec};
use crate::text::one_line;
use crate::units;

/// Built-in profiles, embedded in the binary: (name, TOML text).
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "hp-z8-g4-dual-rtx6000",
        include_str!("../profiles/hp-z8-g4-dual-rtx6000.toml"),
    ),
    (
        "hp-z8-g4-dual-rtx8000",
        include_str!("../profiles/hp-z8-g4-dual-rtx8000.toml"),
    ),
];

/// A parsed profile.
#[derive(Debug, Clone)]
pub struct Profile {
    /// Name from `[profile] name`, else the file stem.
    pub name: String,
    pub description: Option<String>,
    pub requirements: Vec<Requirement>,
    /// `[measured]`: what the machine must deliver under load (`verify --measure`).
    pub measured: Vec<MeasuredBound>,
}

/// A figure `verify --measure` measures, as `[measured]` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeasuredKey {
    /// STREAM triad on all threads, against the DIMMs' theoretical peak.
    MemoryBandwidth,
    /// Direct-I/O sequential read, against the drive's link.
    DiskRead,
    /// Each GPU's FP32 matrix multiply, against its rated TFLOPS.
    GpuFp32,
    /// Each GPU's FP16 tensor matrix multiply, against its rated TFLOPS.
    GpuFp16Tensor,
    /// Each GPU under load: temperature, throttling, clocks.
    GpuSoak,
    /// The data loader's images per second on all threads, against linear scaling.
    DataLoader,
}

impl MeasuredKey {
    /// Every key, in the order the rows are shown.
    pub const ALL: [MeasuredKey; 6] = [
        MeasuredKey::MemoryBandwidth,
        MeasuredKey::DiskRead,
        MeasuredKey::GpuFp32,
        MeasuredKey::GpuFp16Tensor,
        MeasuredKey::GpuSoak,
        MeasuredKey::DataLoader,
    ];

    /// The key as a profile writes it.
    pub fn key(self) -> &'static str {
        match self {
            MeasuredKey::MemoryBandwidth => "memory_bandwidth",
            MeasuredKey::DiskRead => "disk_read",
            MeasuredKey::GpuFp32 => "gpu_fp32",
            MeasuredKey::GpuFp16Tensor => "gpu_fp16_tensor",
            MeasuredKey::GpuSoak => "gpu_soak",
            MeasuredKey::DataLoader => "data_loader",
        }
    }

    /// The unit an absolute bound is written in, for error messages.
    fn unit_hint(self) -> &'static str {
        match self {
            MeasuredKey::MemoryBandwidth => "\"20 GB/s\"",
            MeasuredKey::DiskRead => "\"2 GB/s\"",
            MeasuredKey::GpuFp32 | MeasuredKey::GpuFp16Tensor => "\"12 TFLOPS\"",
            MeasuredKey::GpuSoak => "",
            MeasuredKey::DataLoader => "\"400 images/s\"",
        }
    }
}

/// A lower bound on a measured figure: absolute, in the figure's base unit (bytes/s,
/// TFLOPS, images/s), or a share of the part's rated figure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Amount {
    Absolute(f64),
    /// 0.8 = 80 % of the rated figure.
    Share(f64),
}

/// One `[measured]` key and its bound.
#[derive(Debug, Clone, PartialEq)]
pub struct MeasuredBound {
    pub key: MeasuredKey,
    /// `at_least` of a throughput; `None` for `gpu_soak`, which has its own limits.
    pub at_least: Option<Amount>,
    /// `gpu_soak`: the hottest the GPU may get under load.
    pub max_temperature_c: Option<u32>,
    /// `gpu_soak`: the least share of the rated boost clock the SM clock must hold.
    pub clocks_at_least: Option<f64>,
    /// Where it was written (1-based line, column).
    pub at: (usize, usize),
}

/// How a found value is compared with the ordered one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Exact,
    AtLeast,
    AtMost,
    OneOf,
    Contains,
    /// All listed names present (ISA features).
    AllOf,
}

/// One ordered value, in base units.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    Num(u64),
    Text(String),
}

/// One line of the order.
#[derive(Debug, Clone)]
pub struct Requirement {
    /// The fact it asks about (how to read it from a machine).
    pub field: &'static Field,
    /// Stable id, e.g. `cpu.sockets`, `gpus[0].vram`.
    pub id: String,
    /// What a person calls it, e.g. `GPU count ('Quadro RTX 6000')`.
    pub label: String,
    pub quantity: Quantity,
    pub op: Op,
    pub values: Vec<Val>,
    /// Relative tolerance (0.03 = 3 %).
    pub tolerance: f64,
    /// The group filter for `gpus`/`drives` requirements: which items it applies to.
    pub filter: Option<Filter>,
    /// Where it was written (1-based line, column).
    pub at: (usize, usize),
    /// What the order asks, in words (`≥ 2`, `= 24 GiB (±3%)`), written once for every
    /// machine checked against it.
    pub expected: String,
    /// The text values as they are compared (`text::norm_text`), written once.
    pub texts: Vec<String>,
}

/// A GPU model as an order names it, compiled once when the profile is read: its words,
/// and whether it names one product (`model = { exact = "NVIDIA H200" }`, what `profile new`
/// writes) or a family (`model = "A100"`: every board whose name holds those words, in that
/// order). Names are compared as words, not characters: `L40` is not `L40S`, `H200` is a
/// family that holds the `H200 NVL`, and `NVIDIA H200` exactly is only the H200. Case,
/// punctuation, (R)/(TM) marks and the `NVIDIA` that newer drivers put first do not count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Model {
    /// As the order wrote it.
    pub text: String,
    /// One product, not a family.
    pub exact: bool,
    words: Vec<String>,
}

impl Model {
    pub fn new(text: &str, exact: bool) -> Model {
        Model {
            text: text.to_string(),
            exact,
            words: model_words(text).map(str::to_ascii_lowercase).collect(),
        }
    }

    /// Whether a board named `name` is this model.
    pub fn matches(&self, name: &str) -> bool {
        let mut name_words = model_words(name);
        if self.exact {
            let mut ours = self.words.iter();
            loop {
                match (ours.next(), name_words.next()) {
                    (None, None) => return true,
                    (Some(a), Some(b)) if b.eq_ignore_ascii_case(a) => {}
                    _ => return false,
                }
            }
        }
        if self.words.is_empty() {
            return false;
        }
        // The name's words in a buffer on the stack (product names have a handful); a longer
        // name than it holds is compared in the words that fit.
        let mut have: [&str; 24] = [""; 24];
        let mut n = 0;
        for (slot, w) in have.iter_mut().zip(name_words) {
            *slot = w;
            n += 1;
        }
        have[..n].windows(self.words.len()).any(|w| {
            w.iter()
                .zip(&self.words)
                .all(|(h, want)| h.eq_ignore_ascii_case(want))
        })
    }
}

/// The words of a product name: split at anything but a letter or digit, without the
/// (R)/(TM) marks and without a first `NVIDIA`.
fn model_words(name: &str) -> impl Iterator<Item = &str> {
    let mut words = name
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty() && !w.eq_ignore_ascii_case("r") && !w.eq_ignore_ascii_case("tm"))
        .peekable();
    if words
        .peek()
        .is_some_and(|w| w.eq_ignore_ascii_case("nvidia"))
    {
        words.next();
    }
    words
}

/// Which GPUs or drives a group of requirements applies to.
#[derive(Debug, Clone, PartialEq)]
pub struct Filter {
    /// `Gpus` or `Drives`.
    pub section: Section,
    /// Group index in the profile.
    pub group: usize,
    /// GPU model the group selects (a family, or one product with `exact`); None = all.
    pub model: Option<Model>,
    /// Drive kind the group selects; None = all.
    pub kind: Option<DriveKind>,
}

/// Loads a profile: a built-in name, a path to a TOML file, or `-` for standard input.
///
/// A file that is an edited copy of a built-in profile (`profiles show NAME > FILE`, then
/// edited) still says the built-in's name and description; it is named by its file instead
/// (`my-order`, described as edited from the built-in unless its description was edited
/// too), so no verify of it reads as a check
/// against the order it was copied from. An unedited copy keeps the built-in's name.
pub fn load(name_or_path: &str) -> Result<Profile, ProfileError> {
    let (text, shown, stem) = read(name_or_path)?;
    let mut p = parse(&text, &shown, &stem)?;
    if shown.starts_with("<built-in ") {
        return Ok(p);
    }
    if let Some((name, builtin)) = BUILTIN.iter().find(|(n, _)| *n == p.name) {
        // What a verify of it says: each line's name and what it expects, and the
        // description under the verdict.
        let ordered = |p: &Profile| -> Vec<String> {
            p.requirements
                .iter()
                .flat_map(|r| [r.id.clone(), r.label.clone(), r.expected.clone()])
                .chain(p.description.clone())
                .collect()
        };
        let original = parse(builtin, &format!("<built-in {name}>"), name)?;
        if ordered(&original) != ordered(&p) {
            p.name = stem;
            // A description the user wrote is theirs; the built-in's would describe the
            // order it was copied from.
            if p.description == original.description {
                p.description = Some(format!("edited from the built-in {name}"));
            }
        }
    }
    Ok(p)
}

/// A copy of a profile (a built-in name, a file, or `-`) under a name of its own: `[profile]
/// name` set to `name`, the original's description dropped (it describes the original), and
/// a comment saying where it came from. `rigcheck profile new --from NAME --name N`.
pub fn copy(name_or_path: &str, name: &str) -> Result<String, ProfileError> {
    let (text, shown, stem) = read(name_or_path)?;
    let original = parse(&text, &shown, &stem)?;
    let quoted = fields::toml_string(name);
    let lines: Vec<&str> = text.lines().collect();
    let header = |l: &str| l.trim_start().starts_with('[');
    let key = |l: &str, k: &str| {
        l.trim_start()
            .strip_prefix(k)
            .is_some_and(|r| r.trim_start().starts_with('='))
    };
    let mut out = format!(
        "# Copied from {} by `rigcheck profile new --from` under a name of its own:\n\
         # edit the requirements to the order, and add a description of it.\n",
        one_line(&original.name),
    );
    match lines
        .iter()
        .position(|l| l.trim() == "[profile]" || l.trim_start().starts_with("[profile]#"))
    {
        Some(at) => {
            let end = lines[at + 1..]
                .iter()
                .position(|l| header(l))
                .map_or(lines.len(), |k| at + 1 + k);
            for (i, l) in lines.iter().enumerate() {
                if i > at && i < end && (key(l, "name") || key(l, "description")) {
                    continue;
                }
                out.push_str(l);
                out.push('\n');
                if i == at {
                    out.push_str(&format!("name = {quoted}\n"));
                }
            }
        }
        None => {
            out.push_str(&format!("[profile]\nname = {quoted}\n\n"));
            for l in &lines {
                out.push_str(l);
                out.push('\n');
            }
        }
    }
    // What was written is a profile of the same requirements under the new name.
    let copied = parse(&out, &shown, name)?;
    if copied.name != name || copied.requirements.len() != original.requirements.len() {
        return Err(ProfileError {
            file: shown,
            line: 0,
            column: 0,
            message: "its [profile] table could not be rewritten under a new name (a \
                      description over several lines?); copy it by hand and change its name"
                .into(),
        });
    }
    Ok(out)
}

/// A profile's text, how errors name it, and the name it has without `[profile] name`.
fn read(name_or_path: &str) -> Result<(String, String, String), ProfileError> {
    if let Some((name, text)) = BUILTIN.iter().find(|(n, _)| *n == name_or_path) {
        return Ok((
            text.to_string(),
            format!("<built-in {name}>"),
            name.to_string(),
        ));
    }
    let path = Path::new(name_or_path);
    let shown = if name_or_path == "-" {
        "<stdin>"
    } else {
        name_or_path
    };
    let text = crate::io::read_input(path)
        .and_then(|b| {
            String::from_utf8(b).map_err(|_| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    "not UTF-8 text; a profile is a TOML file",
                )
            })
        })
        .map_err(|e| ProfileError {
            file: shown.to_string(),
            line: 0,
            column: 0,
            message: if e.kind() == std::io::ErrorKind::NotFound {
                format!(
                    "no such file, and no built-in profile of that name; use a file or one of \
                     {} (`rigcheck profiles` lists them)",
                    BUILTIN
                        .iter()
                        .map(|(n, _)| *n)
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            } else {
                crate::error::describe(&e)
            },
        })?;
    let stem = match path.file_stem() {
        Some(s) if name_or_path != "-" => s.to_string_lossy().into_owned(),
        _ => "stdin".into(),
    };
    Ok((text, shown.to_string(), stem))
}

/// A section's table as the file holds it: its section, for a group its index and where it
/// starts, and the table.
type Table<'a, 'b> = (Section, Option<(usize, usize)>, &'a DeTable<'b>);

/// Parses profile text; `file` names it in errors, `default_name` is used without `[profile]`.
///
/// Keys are looked up in the one table of fields (`requirement::FIELDS`): what is not there
/// is an error naming the key, its place and the nearest valid key.
pub fn parse(text: &str, file: &str, default_name: &str) -> Result<Profile, ProfileError> {
    let mut b = Builder {
        text,
        file,
        reqs: Vec::new(),
        offsets: Vec::new(),
    };
    if text.trim().is_empty() {
        return Err(b.err(
            None,
            "the profile is empty; give at least one requirement".into(),
        ));
    }
    let doc = DeTable::parse(text).map_err(|e| {
        let msg = e.message().trim().to_string();
        b.err(e.span(), msg)
    })?;
    let top = in_file_order(doc.get_ref());
    let mut meta = (None, None);
    let mut measured = Vec::new();
    let mut sections: Vec<(Section, &Spanned<DeValue<'_>>)> = Vec::new();
    for (k, v) in &top {
        let key: &str = k.get_ref();
        if key == "profile" {
            meta = b.meta(v)?;
            continue;
        }
        if key == "measured" {
            measured = b.measured(v)?;
            continue;
        }
        match Section::from_key(key) {
            Some(s) => sections.push((s, v)),
            None => {
                let valid: Vec<&str> = ["profile", "measured"]
                    .into_iter()
                    .chain(Section::ALL.iter().map(|s| s.key()))
                    .collect();
                return Err(b.unknown_key(k, key, &valid));
            }
        }
    }
    // Every key is checked before any value, so the first unknown key in the file is the
    // one reported; then requirements come in the table's order (system, cpu, memory, gpus,
    // drives, headroom), whatever order the file uses.
    let mut tables: Vec<Table<'_, '_>> = Vec::new();
    for (section, v) in &sections {
        if section.is_group() {
            let DeValue::Array(groups) = v.get_ref() else {
                return Err(b.err(
                    Some(v.span()),
                    format!(
                        "{}: expected groups written as [[{}]]",
                        section.key(),
                        section.key()
                    ),
                ));
            };
            for (i, g) in groups.iter().enumerate() {
                let t = b.table(section.key(), g)?;
                b.check_keys(*section, t)?;
                tables.push((*section, Some((i, g.span().start)), t));
            }
        } else {
            let t = b.table(section.key(), v)?;
            b.check_keys(*section, t)?;
            tables.push((*section, None, t));
        }
    }
    tables.sort_by_key(|(s, i, _)| (*s, *i));
    for (section, group, t) in tables {
        match group {
            Some((i, at)) => b.group(section, i, at, t)?,
            None => b.section(section, t, None)?,
        }
    }
    if b.reqs.is_empty() && measured.is_empty() {
        return Err(b.err(
            None,
            "the profile has no requirements; give at least one".into(),
        ));
    }
    // Placed all at once: one pass over the text, not one rescan per requirement.
    for (r, at) in b.reqs.iter_mut().zip(line_cols(text, &b.offsets)) {
        r.at = at;
    }
    let (name, description) = meta;
    Ok(Profile {
        name: name.unwrap_or_else(|| default_name.to_string()),
        description,
        requirements: b.reqs,
        measured,
    })
}

type Entry<'t, 'i> = (
    &'t Spanned<std::borrow::Cow<'i, str>>,
    &'t Spanned<DeValue<'i>>,
);

/// A table's entries in the order they are written, so the first mistake is the one reported.
fn in_file_order<'t, 'i>(t: &'t DeTable<'i>) -> Vec<Entry<'t, 'i>> {
    let mut v: Vec<Entry<'t, 'i>> = t.iter().collect();
    v.sort_by_key(|(k, _)| k.span().start);
    v
}

/// A parsed TOML value as `toml::Value`, for the comparison parser below.
fn to_value(v: &DeValue<'_>) -> Value {
    match v {
        DeValue::String(s) => Value::String(s.to_string()),
        DeValue::Integer(i) => match i64::from_str_radix(i.as_str(), i.radix()) {
            Ok(n) => Value::Integer(n),
            // Out of i64's range: keep the digits so the error can quote them.
            Err(_) => Value::String(i.as_str().to_string()),
        },
        DeValue::Float(f) => match f.as_str().parse::<f64>() {
            Ok(x) => Value::Float(x),
            Err(_) => Value::String(f.as_str().to_string()),
        },
        DeValue::Boolean(b) => Value::Boolean(*b),
        DeValue::Datetime(d) => Value::Datetime(*d),
        DeValue::Array(a) => Value::Array(a.iter().map(|x| to_value(x.get_ref())).collect()),
        DeValue::Table(t) => Value::Table(
            t.iter()
                .map(|(k, x)| (k.get_ref().to_string(), to_value(x.get_ref())))
                .collect(),
        ),
    }
}

struct Builder<'a> {
    text: &'a str,
    file: &'a str,
    reqs: Vec<Requirement>,
    /// Byte offset where each requirement of `reqs` is written; placed at the end.
    offsets: Vec<usize>,
}

impl Builder<'_> {
    fn err(&self, span: Option<std::ops::Range<usize>>, message: String) -> ProfileError {
        let (line, column) = span.map_or((0, 0), |s| line_col(self.text, s.start));
        ProfileError {
            file: self.file.to_string(),
            line,
            column,
            message,
        }
    }

    /// An unknown key, worded as serde words it, with the nearest valid key.
    fn unknown_key(
        &self,
        at: &Spanned<impl AsRef<str>>,
        key: &str,
        valid: &[&str],
    ) -> ProfileError {
        let list: Vec<String> = valid.iter().map(|k| format!("`{k}`")).collect();
        let msg = match nearest(key, valid) {
            Some(n) => format!(
                "unknown field `{key}`; did you mean `{n}`? (expected one of {})",
                list.join(", ")
            ),
            None => format!("unknown field `{key}`; use one of {}", list.join(", ")),
        };
        let _ = at.get_ref();
        self.err(Some(at.span()), msg)
    }

    /// A section's table, or an error naming it.
    fn table<'t, 'i>(
        &self,
        name: &str,
        v: &'t Spanned<DeValue<'i>>,
    ) -> Result<&'t DeTable<'i>, ProfileError> {
        match v.get_ref() {
            DeValue::Table(t) => Ok(t),
            other => Err(self.err(
                Some(v.span()),
                format!("{name}: expected a table, found {}", other.type_str()),
            )),
        }
    }

    /// `[profile]`: name and description.
    fn meta(
        &self,
        v: &Spanned<DeValue<'_>>,
    ) -> Result<(Option<String>, Option<String>), ProfileError> {
        let t = self.table("profile", v)?;
        let (mut name, mut description) = (None, None);
        for (k, v) in in_file_order(t) {
            let slot = match k.get_ref().as_ref() {
                "name" => &mut name,
                "description" => &mut description,
                other => return Err(self.unknown_key(k, other, &["name", "description"])),
            };
            match v.get_ref() {
                DeValue::String(s) => *slot = Some(s.to_string()),
                other => {
                    return Err(self.err(
                        Some(v.span()),
                        format!("{}: expected text, found {}", k.get_ref(), other.type_str()),
                    ))
                }
            }
        }
        Ok((name, description))
    }

    /// `[measured]`: each key a figure and its bound, `{ at_least = "20 GB/s" }` or
    /// `{ at_least = "80%" }` (a share of the part's rated figure); `gpu_soak` takes
    /// `max_temperature` and `clocks_at_least`.
    fn measured(&self, v: &Spanned<DeValue<'_>>) -> Result<Vec<MeasuredBound>, ProfileError> {
        let t = self.table("measured", v)?;
        let keys: Vec<&str> = MeasuredKey::ALL.iter().map(|k| k.key()).collect();
        let mut out = Vec::new();
        for (k, v) in in_file_order(t) {
            let name: &str = k.get_ref();
            let Some(key) = MeasuredKey::ALL.iter().copied().find(|m| m.key() == name) else {
                return Err(self.unknown_key(k, name, &keys));
            };
            let DeValue::Table(inner) = v.get_ref() else {
                let example = if key == MeasuredKey::GpuSoak {
                    "{ max_temperature = \"85 C\", clocks_at_least = \"90%\" }".to_string()
                } else {
                    format!(
                        "{{ at_least = {} }} or {{ at_least = \"80%\" }}",
                        key.unit_hint()
                    )
                };
                return Err(self.err(
                    Some(v.span()),
                    format!("measured.{name}: expected a table such as {example}"),
                ));
            };
            let mut bound = MeasuredBound {
                key,
                at_least: None,
                max_temperature_c: None,
                clocks_at_least: None,
                at: line_col(self.text, k.span().start),
            };
            for (ik, iv) in in_file_order(inner) {
                let op: &str = ik.get_ref();
                let text = match iv.get_ref() {
                    DeValue::String(s) => s.to_string(),
                    DeValue::Integer(i) => i.as_str().to_string(),
                    DeValue::Float(f) => f.as_str().to_string(),
                    other => {
                        return Err(self.err(
                            Some(iv.span()),
                            format!(
                                "measured.{name}.{op}: expected a quantity in quotes, found {}",
                                other.type_str()
                            ),
                        ))
                    }
                };
                let bad =
                    |e: String| self.err(Some(iv.span()), format!("measured.{name}.{op}: {e}"));
                match (key, op) {
                    (MeasuredKey::GpuSoak, "max_temperature") => {
                        let (n, unit) =
                            units::number_and_unit(&text).map_err(|e| bad(e.to_string()))?;
                        if !matches!(unit.as_str(), "" | "C" | "°C" | "c")
                            || !(1.0..=150.0).contains(&n)
                        {
                            return Err(bad(format!(
                                "'{text}': not a temperature; write degrees Celsius such as \"85 C\""
                            )));
                        }
                        bound.max_temperature_c = Some(n as u32);
                    }
                    (MeasuredKey::GpuSoak, "clocks_at_least") => {
                        bound.clocks_at_least =
                            Some(units::parse_percent(&text).map_err(|e| bad(e.to_string()))?);
                    }
                    (MeasuredKey::GpuSoak, other) => {
                        return Err(self.unknown_key(
                            ik,
                            other,
                            &["max_temperature", "clocks_at_least"],
                        ))
                    }
                    (_, "at_least") => {
                        bound.at_least = Some(measured_amount(key, &text).map_err(bad)?);
                    }
                    (_, other) => return Err(self.unknown_key(ik, other, &["at_least"])),
                }
            }
            if bound.at_least.is_none()
                && bound.max_temperature_c.is_none()
                && bound.clocks_at_least.is_none()
            {
                return Err(self.err(
                    Some(v.span()),
                    format!("measured.{name}: the table gives no bound"),
                ));
            }
            out.push(bound);
        }
        Ok(out)
    }

    /// Every key of a section's table is a field of that section (or its group selector).
    fn check_keys(&self, section: Section, t: &DeTable<'_>) -> Result<(), ProfileError> {
        for (k, _) in in_file_order(t) {
            let key: &str = k.get_ref();
            if section.selector() != Some(key) && fields::field(section, key).is_none() {
                return Err(self.unknown_key(k, key, &fields::keys(section)));
            }
        }
        Ok(())
    }

    /// The requirements of one section (or one group of it), in the table's order.
    fn section(
        &mut self,
        section: Section,
        t: &DeTable<'_>,
        group: Option<(usize, &Filter, String)>,
    ) -> Result<(), ProfileError> {
        for f in fields::FIELDS.iter().filter(|f| f.section == section) {
            if let Some(v) = t.get(f.key) {
                match &group {
                    Some((i, filter, which)) => {
                        let label = format!("{}{which}", f.label);
                        self.add(f, f.id(Some(*i)), label, v, Some(filter))?;
                    }
                    None => self.add(f, f.id(None), f.label.to_string(), v, None)?,
                }
            }
        }
        Ok(())
    }

    /// One `[[gpus]]` or `[[drives]]` group: its selector, then its requirements. A group
    /// that asks nothing of what it selects (`[[gpus]] model = "A100"` alone, `[[drives]]
    /// kind = "nvme"`) orders at least one of them: the first order people write.
    fn group(
        &mut self,
        section: Section,
        i: usize,
        at: usize,
        t: &DeTable<'_>,
    ) -> Result<(), ProfileError> {
        let selector = section.selector().and_then(|k| t.get_key_value(k));
        // `model = "A100"` (a family) or `model = { exact = "NVIDIA H200" }` (one product).
        let mut exact = false;
        let chosen = match selector {
            Some((k, v)) => match v.get_ref() {
                DeValue::String(s) => Some((s.to_string(), v.span())),
                DeValue::Table(inner) if matches!(section, Section::Gpus | Section::Nics) => {
                    let mut one = None;
                    for (ik, iv) in in_file_order(inner) {
                        match (ik.get_ref().as_ref(), iv.get_ref()) {
                            ("exact", DeValue::String(s)) if one.is_none() => {
                                one = Some((s.to_string(), iv.span()));
                            }
                            ("exact", other) => {
                                return Err(self.err(
                                    Some(iv.span()),
                                    format!(
                                        "model: exact takes one product name as text, found {}",
                                        other.type_str()
                                    ),
                                ))
                            }
                            (other, _) => {
                                return Err(self.err(
                                    Some(ik.span()),
                                    format!(
                                        "model: '{other}' is not how a model is named; write \
                                         model = \"A100\" (every board of that name) or \
                                         model = {{ exact = \"NVIDIA A100-SXM4-80GB\" }} (that \
                                         product only)"
                                    ),
                                ))
                            }
                        }
                    }
                    exact = true;
                    match one {
                        Some(m) => Some(m),
                        None => {
                            return Err(self.err(
                                Some(v.span()),
                                "model: { exact = \"...\" } needs the product's name".to_string(),
                            ))
                        }
                    }
                }
                other => {
                    return Err(self.err(
                        Some(v.span()),
                        format!("{}: expected text, found {}", k.get_ref(), other.type_str()),
                    ))
                }
            },
            None => None,
        };
        let (model, kind) = match section {
            Section::Drives => match chosen {
                Some((k, span)) => match DriveKind::from_name(&k.to_ascii_lowercase()) {
                    Some(kind) => (None, Some(kind)),
                    None => {
                        return Err(self.err(
                            Some(span),
                            format!(
                                "kind '{}': not a drive kind; use one of {}",
                                k.to_ascii_lowercase(),
                                DriveKind::NAMES.join(", ")
                            ),
                        ))
                    }
                },
                None => (None, None),
            },
            _ => (chosen.map(|(m, _)| Model::new(&m, exact)), None),
        };
        let which = match (&model, kind) {
            (Some(m), _) => format!(" ('{}')", m.text),
            (None, Some(k)) => format!(" ({})", k.as_str()),
            (None, None) => String::new(),
        };
        let filter = Filter {
            section,
            group: i,
            model,
            kind,
        };
        let before = self.reqs.len();
        self.section(section, t, Some((i, &filter, which.clone())))?;
        if self.reqs.len() == before {
            self.at_least_one(section, i, at, &filter, &which);
        }
        Ok(())
    }

    /// The line of a group that names only what it selects: `count ≥ 1`.
    fn at_least_one(
        &mut self,
        section: Section,
        i: usize,
        at: usize,
        filter: &Filter,
        which: &str,
    ) {
        let Some(field) = fields::field(section, "count") else {
            return;
        };
        let mut req = Requirement {
            field,
            id: field.id(Some(i)),
            label: format!("{}{which}", field.label),
            quantity: field.quantity,
            op: Op::AtLeast,
            values: vec![Val::Num(1)],
            tolerance: field.quantity.default_tolerance(),
            filter: Some(filter.clone()),
            at: (0, 0),
            expected: String::new(),
            // A count compares no text.
            texts: Vec::new(),
        };
        req.expected = expected_text(&req);
        self.reqs.push(req);
        self.offsets.push(at);
    }

    fn add(
        &mut self,
        field: &'static Field,
        id: String,
        label: String,
        sp: &Spanned<DeValue<'_>>,
        filter: Option<&Filter>,
    ) -> Result<(), ProfileError> {
        let q = field.quantity;
        let span = sp.span();
        let key = field.key;
        let value = to_value(sp.get_ref());
        let (op, values, tol) = match &value {
            Value::Table(t) => {
                let mut op = None;
                let mut vals = Vec::new();
                let mut tol = None;
                for (k, v) in t {
                    let this = match k.as_str() {
                        "exact" => Op::Exact,
                        "at_least" => Op::AtLeast,
                        "at_most" => Op::AtMost,
                        "one_of" => Op::OneOf,
                        "contains" => Op::Contains,
                        "all_of" => Op::AllOf,
                        "tolerance" => {
                            let s = match v {
                                Value::String(s) => s.clone(),
                                other => other.to_string(),
                            };
                            tol = Some(units::parse_percent(&s).map_err(|e| {
                                self.err(Some(span.clone()), format!("{key}: tolerance {e}"))
                            })?);
                            continue;
                        }
                        other => {
                            const OPS: [&str; 7] = [
                                "exact",
                                "at_least",
                                "at_most",
                                "one_of",
                                "contains",
                                "all_of",
                                "tolerance",
                            ];
                            return Err(self.err(
                                Some(span.clone()),
                                format!(
                                    "{key}: unknown comparison '{other}'; {}use one of {}",
                                    nearest(other, &OPS)
                                        .map(|n| format!("did you mean '{n}'? "))
                                        .unwrap_or_default(),
                                    OPS.join(", ")
                                ),
                            ));
                        }
                    };
                    if op.is_some() {
                        return Err(self.err(
                            Some(span.clone()),
                            format!("{key}: give only one comparison"),
                        ));
                    }
                    op = Some(this);
                    vals = self.values(q, this, v, key, span.clone())?;
                }
                let op = op.ok_or_else(|| {
                    self.err(Some(span.clone()), format!("{key}: a table needs one of exact, at_least, at_most, one_of, contains"))
                })?;
                (op, vals, tol)
            }
            Value::Array(_) => {
                let op = if q == Quantity::Names {
                    Op::AllOf
                } else {
                    Op::OneOf
                };
                (op, self.values(q, op, &value, key, span.clone())?, None)
            }
            v => {
                let op = match q {
                    Quantity::Text => Op::Contains,
                    Quantity::Names => Op::AllOf,
                    _ => Op::Exact,
                };
                (op, self.values(q, op, v, key, span.clone())?, None)
            }
        };
        if matches!(op, Op::AtLeast | Op::AtMost) && q == Quantity::Text {
            return Err(self.err(
                Some(span),
                format!("{key}: at_least/at_most need a number, not text"),
            ));
        }
        let mut req = Requirement {
            field,
            id,
            label,
            quantity: q,
            op,
            values,
            tolerance: tol.unwrap_or_else(|| q.default_tolerance()),
            filter: filter.cloned(),
            at: (0, 0),
            expected: String::new(),
            texts: Vec::new(),
        };
        req.expected = expected_text(&req);
        req.texts = req
            .values
            .iter()
            .filter_map(|v| match v {
                Val::Text(t) => Some(crate::text::norm_text(t)),
                Val::Num(_) => None,
            })
            .collect();
        self.reqs.push(req);
        self.offsets.push(span.start);
        Ok(())
    }

    fn values(
        &self,
        q: Quantity,
        op: Op,
        v: &Value,
        key: &str,
        span: std::ops::Range<usize>,
    ) -> Result<Vec<Val>, ProfileError> {
        let items: Vec<&Value> = match v {
            Value::Array(a) if matches!(op, Op::OneOf | Op::AllOf) => a.iter().collect(),
            Value::Array(_) => {
                return Err(self.err(
                    Some(span),
                    format!("{key}: a list is only allowed with one_of"),
                ))
            }
            other => vec![other],
        };
        if items.is_empty() {
            return Err(self.err(Some(span), format!("{key}: the list is empty")));
        }
        items
            .into_iter()
            .map(|it| self.value(q, it, key, span.clone()))
            .collect()
    }

    fn value(
        &self,
        q: Quantity,
        v: &Value,
        key: &str,
        span: std::ops::Range<usize>,
    ) -> Result<Val, ProfileError> {
        let bad_type = |want: &str| {
            self.err(
                Some(span.clone()),
                format!("{key}: expected {want}, found {}", v.type_str()),
            )
        };
        let parse = |f: fn(&str) -> Result<u64, units::UnitError>| {
            let written = match v {
                Value::String(s) => s.clone(),
                Value::Integer(i) if *i >= 0 => i.to_string(),
                Value::Float(x) if *x >= 0.0 => x.to_string(),
                _ => {
                    return Err(bad_type(
                        "a number or a quantity in quotes such as \"24 GiB\"",
                    ))
                }
            };
            let n = f(&written).map_err(|e| self.err(Some(span.clone()), format!("{key}: {e}")))?;
            match bare_number_fix(q, &written, n) {
                Some(fix) => Err(self.err(Some(span.clone()), format!("{key}: {fix}"))),
                None => Ok(Val::Num(n)),
            }
        };
        match q {
            Quantity::Count => match v {
                Value::Integer(i) if *i >= 0 => Ok(Val::Num(*i as u64)),
                Value::Integer(i) => Err(self.err(
                    Some(span.clone()),
                    format!("{key}: expected a whole number ≥ 0, found {i}"),
                )),
                _ => Err(bad_type("a whole number")),
            },
            Quantity::BytesSi => parse(units::parse_bytes),
            Quantity::BytesJedec => parse(units::parse_bytes_jedec),
            Quantity::Mhz => parse(units::parse_mhz),
            Quantity::Mts => parse(units::parse_mts),
            Quantity::LinkSpeed => parse(units::parse_link_speed),
            // A condition is asked by writing it true; false would ask nothing at all.
            Quantity::Flag => match v {
                Value::Boolean(true) => Ok(Val::Num(1)),
                Value::Boolean(false) => Err(self.err(
                    Some(span.clone()),
                    format!(
                        "{key} = false asks nothing: leave the key out (a profile without it \
                         does not judge it) or write {key} = true"
                    ),
                )),
                _ => Err(bad_type("true")),
            },
            Quantity::Text | Quantity::Names => match v {
                Value::String(s) if !s.trim().is_empty() => Ok(Val::Text(s.clone())),
                Value::String(_) => Err(self.err(Some(span.clone()), format!("{key}: empty text"))),
                _ => Err(bad_type("text in quotes")),
            },
        }
    }
}

/// A measured bound as written: `80%` (a share of the rated figure) or a figure in the key's
/// unit (`20 GB/s`, `12 TFLOPS`, `400 images/s`), in base units (bytes/s, TFLOPS, images/s).
fn measured_amount(key: MeasuredKey, text: &str) -> Result<Amount, String> {
    let (n, unit) = units::number_and_unit(text).map_err(|e| e.to_string())?;
    if unit == "%" {
        return units::parse_percent(text)
            .map(Amount::Share)
            .map_err(|e| e.to_string());
    }
    let hint = || {
        format!(
            "'{text}': write a share of the rated figure (\"80%\") or a figure such as {}",
            key.unit_hint()
        )
    };
    let value = match key {
        MeasuredKey::MemoryBandwidth | MeasuredKey::DiskRead => {
            let Some(size) = unit.strip_suffix("/s") else {
                return Err(hint());
            };
            if size.trim().is_empty() {
                return Err(hint());
            }
            let one = units::parse_bytes(&format!("1 {}", size.trim())).map_err(|_| hint())?;
            n * one as f64
        }
        MeasuredKey::GpuFp32 | MeasuredKey::GpuFp16Tensor => {
            match unit.to_ascii_lowercase().as_str() {
                "tflops" | "tflop/s" => n,
                "gflops" | "gflop/s" => n / 1e3,
                _ => return Err(hint()),
            }
        }
        MeasuredKey::DataLoader => match unit.to_ascii_lowercase().as_str() {
            "" | "images/s" | "img/s" => n,
            _ => return Err(hint()),
        },
        MeasuredKey::GpuSoak => return Err(hint()),
    };
    if value <= 0.0 || !value.is_finite() {
        return Err(format!("'{text}': give a figure above 0"));
    }
    Ok(Amount::Absolute(value))
}

/// Why a number written without a unit cannot be what the order means, and how to write it:
/// `vram = 80` would be 80 bytes, `base_clock = 3.5` 3.5 MHz. `None` when it is plausible
/// (`dimm_speed = 2933` is MT/s, `base_clock = 3100` MHz, sizes of 1 MiB and more bytes).
fn bare_number_fix(q: Quantity, written: &str, n: u64) -> Option<String> {
    let (num, unit) = units::number_and_unit(written).ok()?;
    if !unit.is_empty() {
        return None;
    }
    let (means, write) = match q {
        Quantity::BytesJedec if n < units::MIN_BARE_BYTES => {
            (format!("{n} bytes"), format!("{num} GB"))
        }
        // Drives are ordered in TB when the number is small, in GB otherwise.
        Quantity::BytesSi if n < units::MIN_BARE_BYTES => (
            format!("{n} bytes"),
            format!("{num} {}", if num < 100.0 { "TB" } else { "GB" }),
        ),
        Quantity::Mhz if num < 100.0 => (format!("{num} MHz"), format!("{num} GHz")),
        Quantity::Mts if num < 100.0 => (format!("{num} MT/s"), "2933 MT/s".to_string()),
        Quantity::LinkSpeed if num < 100.0 => (format!("{num} Mb/s"), format!("{num} Gb/s")),
        _ => return None,
    };
    Some(format!(
        "{written} has no unit, so it means {means}; write it with its unit, e.g. \"{write}\""
    ))
}

/// 1-based line and column (in characters) of a byte offset.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    line_cols(text, &[offset])
        .first()
        .copied()
        .unwrap_or((1, 1))
}

/// 1-based line and column of each byte offset, in one pass over the text (in the order of
/// the offsets, whatever order they are given in): a profile of thousands of groups, even
/// all on one line, is placed in linear time.
fn line_cols(text: &str, offsets: &[usize]) -> Vec<(usize, usize)> {
    let mut order: Vec<usize> = (0..offsets.len()).collect();
    order.sort_by_key(|&i| offsets[i]);
    let mut out = vec![(1, 1); offsets.len()];
    let (mut line, mut col) = (1, 1);
    let mut chars = text.char_indices().peekable();
    for i in order {
        while let Some((_, c)) = chars.next_if(|&(p, _)| p < offsets[i]) {
            if c == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
        }
        out[i] = (line, col);
    }
    out
}

/// The valid name closest to `bad`, if any is close enough to be a typo.
fn nearest<'a>(bad: &str, valid: &[&'a str]) -> Option<&'a str> {
    valid
        .iter()
        .map(|v| (strsim::jaro_winkler(bad, v), *v))
        .filter(|(score, _)| *score > 0.75)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, v)| v)
}

/// Writes a profile that the machine in `spec` passes: the golden machine becomes the order
/// for a fleet. Every line comes from the field table (`requirement::Suggest` says how);
/// unknown facts are left out (and listed in a comment), never guessed.
pub fn from_spec(spec: &Spec, name: &str) -> String {
    use std::collections::BTreeMap;
    use std::fmt::Write as _;
    let q = fields::toml_string;
    let mut t = String::new();
    let mut skipped: Vec<String> = Vec::new();
    let _ = writeln!(
        t,
        "# Made by `rigcheck profile new` from {} ({}).",
        one_line(spec.hostname.as_deref().unwrap_or("unknown host")),
        one_line(spec.captured_at.as_deref().unwrap_or("time not recorded"))
    );
    let _ = writeln!(
        t,
        "# Edit freely: see `rigcheck profiles show hp-z8-g4-dual-rtx6000` for the syntax.\n"
    );
    let _ = writeln!(t, "[profile]\nname = {}", q(name));
    let s = &spec.system;
    // The product name often starts with the vendor's (`HP` + `HP Z8 G4 Workstation`): the
    // vendor is said once.
    let desc = match (s.vendor.as_deref(), s.product.as_deref()) {
        (Some(v), Some(p)) if p.to_lowercase().starts_with(&v.to_lowercase()) => p.to_string(),
        (Some(v), Some(p)) => format!("{v} {p}"),
        (a, b) => a.or(b).unwrap_or_default().to_string(),
    };
    if !desc.is_empty() {
        let _ = writeln!(t, "description = {}", q(&desc));
    }
    for section in [Section::System, Section::Cpu, Section::Memory] {
        let lines = suggest_lines(spec, section, &[], &mut skipped);
        if !lines.is_empty() {
            let _ = write!(t, "\n[{}]\n{lines}", section.key());
        }
    }
    let mut gpus: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, g) in spec.gpus.iter().enumerate() {
        if let Some(n) = &g.name {
            gpus.entry(n).or_default().push(i);
        }
    }
    for (model, members) in &gpus {
        let lines = suggest_lines(spec, Section::Gpus, members, &mut skipped);
        // The product, exactly: `model = "NVIDIA H200"` alone would also take the H200 NVL.
        let _ = write!(t, "\n[[gpus]]\nmodel = {{ exact = {} }}\n{lines}", q(model));
    }
    let mut drives: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, d) in spec
        .drives
        .iter()
        .enumerate()
        .filter(|(_, d)| !d.is_removable())
    {
        if let Some(k) = d.kind {
            drives.entry(k.as_str()).or_default().push(i);
        }
    }
    for (kind, members) in &drives {
        let lines = suggest_lines(spec, Section::Drives, members, &mut skipped);
        let _ = write!(t, "\n[[drives]]\nkind = {}\n{lines}", q(kind));
    }
    let mut nics: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, n) in spec.nics.iter().enumerate() {
        if let Some(name) = n.board.as_deref().or(n.name.as_deref()) {
            nics.entry(name).or_default().push(i);
        }
    }
    for (model, members) in &nics {
        let lines = suggest_lines(spec, Section::Nics, members, &mut skipped);
        let _ = write!(t, "\n[[nics]]\nmodel = {{ exact = {} }}\n{lines}", q(model));
    }
    if !skipped.is_empty() {
        let _ = writeln!(
            t,
            "\n# Left out, unknown on the source machine: {}",
            skipped.join(", ")
        );
    }
    t
}

/// The `key = value` lines `profile new` writes for one section (for a group: the items
/// `members` of `spec.gpus` or `spec.drives`). Keys whose value is unknown go to `skipped`.
fn suggest_lines(
    spec: &Spec,
    section: Section,
    members: &[usize],
    skipped: &mut Vec<String>,
) -> String {
    use fields::{Found, Read};
    let mut out = String::new();
    for f in fields::FIELDS.iter().filter(|f| f.section == section) {
        let items: Vec<Found> = match f.read {
            Read::Machine(read) => read(spec, f.quantity).items,
            Read::EachGpu(read) => members
                .iter()
                .filter_map(|&i| Some(read(spec, i, spec.gpus.get(i)?, f.quantity)))
                .collect(),
            Read::EachDrive(read) => members
                .iter()
                .filter_map(|&i| Some(read(spec, i, spec.drives.get(i)?, f.quantity)))
                .collect(),
            Read::EachNic(read) => members
                .iter()
                .filter_map(|&i| Some(read(spec, i, spec.nics.get(i)?, f.quantity)))
                .collect(),
            Read::GroupCount => {
                let n = members.len() as u64;
                vec![Found::Num(n, fields::Show::As(fields::Quantity::Count))]
            }
        };
        let value = match f.suggest {
            Suggest::Never => continue,
            Suggest::Custom(write) => write(spec),
            Suggest::Found | Suggest::Smallest | Suggest::AtLeast => {
                suggest_value(f, &items).map(|value| fields::Suggestion {
                    comment: None,
                    value,
                })
            }
        };
        match value {
            Some(v) => {
                if let Some(c) = v.comment {
                    out.push_str(&format!("# {}\n", one_line(c)));
                }
                out.push_str(&format!("{} = {}\n", f.key, v.value));
            }
            None if section == Section::System => {}
            None if items.iter().any(|i| matches!(i, Found::Unknown(_))) => {
                skipped.push(f.id(None));
            }
            None => {}
        }
    }
    if section == Section::System && out.is_empty() {
        skipped.push("system (no DMI data)".into());
    }
    out
}

/// The TOML value of a `Found`, `Smallest` or `AtLeast` suggestion; `None` when a value is
/// unknown or (for `Found`) the items disagree.
fn suggest_value(f: &Field, items: &[fields::Found]) -> Option<String> {
    use fields::Found;
    let q = f.quantity;
    let mut nums = Vec::new();
    let mut texts = Vec::new();
    for it in items {
        match it {
            // The speed a port runs at now: the machine passes an order for at least that.
            Found::Num(n, _) | Found::Floor(n, _) => nums.push(*n),
            Found::Text(t) => texts.push(t.as_str()),
            Found::Names(_) | Found::Unknown(_) | Found::Judged { .. } => return None,
        }
    }
    if let Some(first) = texts.first() {
        return (matches!(f.suggest, Suggest::Found) && texts.iter().all(|t| t == first))
            .then(|| fields::toml_string(first));
    }
    let min = *nums.iter().min()?;
    match f.suggest {
        Suggest::Found if nums.iter().any(|n| *n != min) => None,
        Suggest::AtLeast => Some(format!(
            "{{ at_least = {} }}",
            fields::toml_number(q, min, true)
        )),
        _ => Some(fields::toml_number(q, min, false)),
    }
}

/// What a requirement asks, in words.
fn expected_text(req: &Requirement) -> String {
    if req.quantity == Quantity::Flag {
        return fields::flag_expected(req.field.key);
    }
    let vals: Vec<String> = req
        .values
        .iter()
        .map(|v| match v {
            Val::Num(n) => req.quantity.show(*n),
            Val::Text(t) => format!("'{t}'"),
        })
        .collect();
    let body = match req.op {
        Op::Exact => format!("= {}", vals.join(", ")),
        Op::AtLeast => format!("≥ {}", vals.join(", ")),
        Op::AtMost => format!("≤ {}", vals.join(", ")),
        Op::OneOf => format!("one of {}", vals.join(", ")),
        Op::Contains => format!("contains {}", vals.join(", ")),
        Op::AllOf => format!("has {}", vals.join(", ")),
    };
    if req.tolerance > 0.0 && !matches!(req.quantity, Quantity::Text | Quantity::Names) {
        format!(
            "{body} (±{}%)",
            (req.tolerance * 100.0 * 10.0).round() / 10.0
        )
    } else {
        body
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn models_match_as_words_and_exact_as_the_product() {
        let family = Model::new("H200", false);
        assert!(family.matches("NVIDIA H200") && family.matches("NVIDIA H200 NVL"));
        let exact = Model::new("NVIDIA H200", true);
        assert!(exact.matches("NVIDIA H200") && exact.matches("H200"));
        assert!(!exact.matches("NVIDIA H200 NVL"));
        let l40 = Model::new("L40", false);
        assert!(l40.matches("NVIDIA L40") && !l40.matches("NVIDIA L40S"));
        let a100 = Model::new("a100", false);
        assert!(a100.matches("NVIDIA A100-SXM4-80GB") && a100.matches("NVIDIA A100 80GB PCIe"));
        assert!(!Model::new("RTX 600", false).matches("Quadro RTX 6000"));
        assert!(Model::new("Xeon Gold", false).matches("Intel(R) Xeon(R) Gold 6254 CPU"));
        assert!(!Model::new("", false).matches("anything"));
    }

    #[test]
    fn builtin_profiles_parse() {
        for (name, text) in BUILTIN {
            let p = parse(text, name, name).unwrap();
            assert_eq!(&p.name, name);
            assert!(
                p.requirements.len() > 15,
                "{name}: {}",
                p.requirements.len()
            );
        }
    }

    #[test]
    fn units_and_ops() {
        let p = parse(
            "[memory]\ntotal = { at_least = \"96 GB\", tolerance = \"2%\" }\n[cpu]\nbase_clock = \"3.1 GHz\"\n",
            "t.toml",
            "t",
        )
        .unwrap();
        let total = &p.requirements[1];
        assert_eq!(total.id, "memory.total");
        assert_eq!(total.op, Op::AtLeast);
        assert_eq!(total.values, vec![Val::Num(96 << 30)]);
        assert!((total.tolerance - 0.02).abs() < 1e-9);
        assert_eq!(p.requirements[0].values, vec![Val::Num(3100)]);
        assert_eq!(total.at, (2, 9));
    }

    #[test]
    fn line_cols_in_one_pass_match_a_rescan() {
        let text = "a = 1\n[[gpus]]\nmodel = \"é\"\ncount = 2\n\nx";
        // The rescan this replaced: count newlines and characters before each offset.
        let rescan = |offset: usize| {
            let before = &text[..offset.min(text.len())];
            let line = before.matches('\n').count() + 1;
            let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
            (line, col)
        };
        let offsets: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .chain([text.len(), text.len() + 5])
            .rev()
            .collect();
        let want: Vec<(usize, usize)> = offsets.iter().map(|&o| rescan(o)).collect();
        assert_eq!(line_cols(text, &offsets), want);
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col("", 3), (1, 1));
    }

    #[test]
    fn unknown_key_suggests_nearest() {
        let e = parse("[cpu]\nsocket = 2\n", "bad.toml", "bad").unwrap_err();
        assert_eq!((e.line, e.column), (2, 1));
        assert!(
            e.message.contains("did you mean `sockets`"),
            "{}",
            e.message
        );
        assert!(
            e.to_string()
                .starts_with("bad.toml:2:1: unknown field `socket`; did you mean `sockets`?"),
            "{e}"
        );
    }

    #[test]
    fn bad_unit_is_placed() {
        let e = parse("[memory]\ntotal = \"96 GX\"\n", "u.toml", "u").unwrap_err();
        assert_eq!((e.line, e.column), (2, 9));
        assert!(e.message.contains("unknown unit 'GX'"), "{}", e.message);
    }
}
