//! Command-line definitions (clap); no other logic lives here.
//!
//! The output formats and benchmark kinds are plain enums of the library modules that use
//! them (`render`, `bench`); this file has a copy of each that clap knows by name and help,
//! converted into the library's, so the library does not depend on clap.

use std::ffi::OsStr;
use std::path::PathBuf;

use clap::builder::{PossibleValue, StringValueParser, TypedValueParser};
use clap::{Arg, Args, Parser, Subcommand, ValueEnum, ValueHint};

/// Inventory a workstation or GPU server, check it against its order, and say what it can do.
#[derive(Debug, Parser)]
#[command(
    name = "rigcheck",
    version = env!("RIGCHECK_VERSION"),
    about,
    help_expected = true,
    mut_arg("profile", profile_names),
    mut_subcommands(own_global_options)
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,

    /// With no command and `--format prometheus` or `nfd`: also check against this profile
    /// (built-in name or TOML file) and include the result; refused with other formats.
    #[arg(long, value_name = "NAME|FILE")]
    pub profile: Option<String>,

    /// With no command: which parts of the report, and how many notes.
    #[command(flatten)]
    pub view: ViewArgs,

    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Cli {
    /// This process's command line, as clap reads it.
    pub fn from_args() -> Result<Cli, clap::Error> {
        Cli::try_parse()
    }
}

/// Options written before or after a command's name. Each command honours them or refuses
/// them with exit 2 (README, "Global options"); its help lists only those it honours
/// (`own_global_options`).
#[derive(Debug, Args, Clone, Default)]
pub struct GlobalArgs {
    /// Read a recorded machine under DIR instead of this one (nothing live is touched).
    #[arg(long, global = true, value_name = "DIR")]
    pub sysroot: Option<PathBuf>,

    /// When to colour table output: auto (a terminal, NO_COLOR unset), always, never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    /// Remove serial numbers, UUIDs, MAC addresses and host names from the output.
    #[arg(long, global = true)]
    pub redact: bool,

    /// Write straight to the terminal: no pager even when the output is longer than the
    /// window (otherwise `PAGER`, or `less -FRX`; never in a pipe).
    #[arg(long, global = true)]
    pub no_pager: bool,

    /// Output format (default: table). Written before a command (`rigcheck -f json verify
    /// ...`) it is one of that command's formats, listed by `rigcheck COMMAND --help`.
    #[arg(long, short = 'f', value_enum, value_name = "FORMAT")]
    pub format: Option<AnyFormat>,
}

/// Every output format of every command, for `--format` written before the command; the
/// command then checks that it is one of its own. The help lists the inventory's (what
/// `rigcheck -f FORMAT` with no command takes); the others are accepted but not listed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AnyFormat {
    /// Readable text table.
    Table,
    /// The JSON contract (schema_version, base units, notes).
    Json,
    /// GitHub-flavoured Markdown.
    Markdown,
    /// Prometheus text format, for node_exporter's textfile collector.
    Prometheus,
    /// Kubernetes node-feature-discovery feature file (name=value labels).
    Nfd,
    /// JUnit XML (verify).
    #[value(hide = true)]
    Junit,
    /// Self-contained HTML (sheet).
    #[value(hide = true)]
    Html,
    /// One compact JSON object per line (fleet).
    #[value(hide = true)]
    Ndjson,
}

/// The global options (`GlobalArgs` with `global = true`) that `command` honours; see the
/// README's "Global options". The others still parse after its name, so the command can
/// refuse them with a reason, but its help and man page leave them out: `capture -h` does
/// not offer `--sysroot`. `--color` is listed only where it colours something (elsewhere
/// `always` is refused and `auto` or `never` change nothing).
fn global_options_of(command: &str) -> &'static [&'static str] {
    match command {
        "inventory" | "verify" | "preflight" => &["sysroot", "color", "redact", "no_pager"],
        "new" | "sheet" => &["sysroot", "redact"],
        "diff" | "fleet" => &["color", "redact", "no_pager"],
        "profiles" | "show" | "bench" | "completions" | "man" | "schema" => &["redact"],
        // capture, and `profile`, whose options belong to `profile new`.
        _ => &[],
    }
}

/// Gives a subcommand (and the commands under it) hidden copies of the global options it
/// does not honour, and visible ones of those it does. clap passes a global option on only
/// to a command without one of the same id, and a value given to a copy reaches `Cli`
/// as it does through the global option itself. Its `--profile`, if any, completes to the
/// built-in names too (`profile_names`).
fn own_global_options(sub: clap::Command) -> clap::Command {
    let globals: Vec<Arg> = GlobalArgs::augment_args(clap::Command::new("rigcheck"))
        .get_arguments()
        .filter(|a| a.is_global_set())
        .cloned()
        .collect();
    let fit = |cmd: clap::Command| {
        let takes = global_options_of(cmd.get_name());
        globals.iter().fold(cmd, |cmd, a| {
            cmd.arg(a.clone().hide(!takes.contains(&a.get_id().as_str())))
        })
    };
    let under: Vec<String> = sub
        .get_subcommands()
        .map(|c| c.get_name().to_string())
        .collect();
    let sub = if sub.get_arguments().any(|a| a.get_id() == "profile") {
        sub.mut_arg("profile", profile_names)
    } else {
        sub
    };
    under
        .iter()
        .fold(fit(sub), |sub, name| sub.mut_subcommand(name, fit))
}

/// Every `--profile`: a built-in name or a file, which a shell completes to either
/// (`ProfileName`).
fn profile_names(arg: Arg) -> Arg {
    arg.value_parser(ProfileName)
        .hide_possible_values(true)
        .value_hint(ValueHint::FilePath)
}

/// The subcommands; none given means `inventory`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print what is in this machine (the default command).
    Inventory(InventoryArgs),
    /// Record this machine into DIR, so `--sysroot DIR` replays it exactly.
    Capture(CaptureArgs),
    /// Check this machine (or a sysroot) against its order: one line per requirement.
    Verify(VerifyArgs),
    /// List the built-in profiles, or print one as TOML to copy and edit.
    Profiles(ProfilesArgs),
    /// Work with profiles: `profile new` writes one from this machine.
    Profile(ProfileArgs),
    /// Compare two reports (JSON from `--format json`) or two sysroots: what changed.
    Diff(DiffArgs),
    /// Check that this machine is ready to train now: GPUs, CPUs, memory, OS, storage.
    /// Exit 0 all pass (warnings allowed), 1 a check failed, 2 usage error, 3 a fact unknown.
    Preflight(PreflightArgs),
    /// Write a spec sheet (HTML or Markdown) to hand on, attach to an asset record, or print.
    Sheet(SheetArgs),
    /// Many reports at once: one row per host, the odd ones out, and each host's verify result.
    Fleet(FleetArgs),
    /// Measure this machine: data-loader images/s, memory bandwidth, disk read, GPU TFLOPS.
    Bench(BenchArgs),
    /// Print a shell completion script, e.g. `rigcheck completions bash >
    /// ~/.local/share/bash-completion/completions/rigcheck`.
    Completions(CompletionsArgs),
    /// Print the man page (roff), e.g. `rigcheck man | man -l -`, or `rigcheck man verify`.
    Man(ManArgs),
    /// Print the JSON Schema of one of rigcheck's JSON outputs (`rigcheck schema report`), or
    /// list them.
    Schema(SchemaArgs),
}

/// The clap command of the whole program, for completions and the man page.
pub fn command() -> clap::Command {
    <Cli as clap::CommandFactory>::command()
}

/// Options of `completions`.
#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete in.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// Options of `schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// The JSON output whose schema to print (`report`, `verify`, `fleet`, ...); left out,
    /// the outputs are listed.
    #[arg(value_name = "NAME", value_parser = schema_names())]
    pub name: Option<String>,
    /// Write every schema into DIR as NAME.schema.json (how docs/schema/ is made), replacing
    /// files of those names.
    #[arg(long, value_name = "DIR", conflicts_with = "name", value_hint = ValueHint::DirPath)]
    pub write: Option<PathBuf>,
}

/// The names `schema` takes, from the library's list of documents.
fn schema_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(rigcheck::schema::names())
}

/// Options of `man`.
#[derive(Debug, Args)]
pub struct ManArgs {
    /// The page of one command (`rigcheck-verify(1)`), or of a command under it (`profile
    /// new` for `rigcheck-profile-new(1)`); the main page when left out.
    #[arg(value_name = "COMMAND")]
    pub command: Vec<String>,
}

/// Options of `fleet`.
#[derive(Debug, Args)]
pub struct FleetArgs {
    /// JSON reports (`rigcheck --format json`), directories holding them (searched
    /// recursively for *.json), or captures (`rigcheck capture`, Linux or Windows).
    #[arg(required = true, value_name = "REPORT|DIR")]
    pub reports: Vec<PathBuf>,
    /// Check every host against this profile (built-in name or TOML file).
    #[arg(long, short = 'p', value_name = "NAME|FILE")]
    pub profile: Option<String>,
    /// Count a requirement that cannot be read as a failure (else the host is incomplete).
    #[arg(long, conflicts_with = "allow_unknown")]
    pub strict: bool,
    /// Let a requirement that cannot be read pass (else the host is incomplete).
    #[arg(long)]
    pub allow_unknown: bool,
    /// List each fact a host could not be compared on (else one line per host counts them).
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// Output format (default: table).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<FleetFormat>,
    /// With `--format json`: the document on one line (`ndjson` is one line per host
    /// anyway).
    #[arg(long)]
    pub compact: bool,
}

/// Options of `verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// A built-in profile name (see `rigcheck profiles`) or a TOML file.
    #[arg(long, short = 'p', value_name = "NAME|FILE")]
    pub profile: String,
    /// Count a requirement that cannot be read as a failure (exit 1 rather than 3).
    #[arg(long, conflicts_with = "allow_unknown")]
    pub strict: bool,
    /// Let a requirement that cannot be read pass (exit 0 rather than 3), as before
    /// INCOMPLETE existed.
    #[arg(long)]
    pub allow_unknown: bool,
    /// Run the benchmarks the profile's `[measured]` asks for (`--measure all`: every
    /// part) and judge what the machine delivers; live only.
    #[arg(long, value_name = "all", num_args = 0..=1, default_missing_value = "profile",
          value_parser = ["all", "profile"])]
    pub measure: Option<String>,
    /// With `--measure`: the time budget of each part, in seconds (at most 86400).
    #[arg(long, default_value_t = 10.0, value_name = "S", requires = "measure")]
    pub seconds: f64,
    /// With `--measure`: the file to read, or the directory to write a temporary test file
    /// of at most 1 GiB in, for the disk part; without it the disk part is not run.
    #[arg(long, value_name = "PATH", requires = "measure")]
    pub data: Option<PathBuf>,
    /// Output format (default: table).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<VerifyFormat>,
    /// With `--format json`: the report on one line.
    #[arg(long)]
    pub compact: bool,
}

/// Options of `profiles`.
#[derive(Debug, Args)]
pub struct ProfilesArgs {
    #[command(subcommand)]
    pub action: Option<ProfilesAction>,
}

/// `profiles` actions.
#[derive(Debug, Subcommand)]
pub enum ProfilesAction {
    /// Print a built-in profile as TOML.
    Show {
        /// Built-in profile name (`rigcheck profiles` lists them; a shell completes them).
        #[arg(value_parser = ProfileName)]
        name: String,
    },
}

/// Options of `profile`.
#[derive(Debug, Args)]
pub struct ProfileArgs {
    #[command(subcommand)]
    pub action: ProfileAction,
}

/// `profile` actions.
#[derive(Debug, Subcommand)]
pub enum ProfileAction {
    /// Write a profile that this machine (or --sysroot) passes, or (--from) a copy of a
    /// profile under a name of its own.
    New {
        /// Name written into the profile (default: the host name; with --from, the -o
        /// file's name, else the original's with `-copy`).
        #[arg(long)]
        name: Option<String>,
        /// Copy this profile (a built-in name or a file) instead of reading the machine: the
        /// copy gets its own name and no description of the original, to edit.
        #[arg(long, value_name = "PROFILE")]
        from: Option<String>,
        /// Write to FILE instead of standard output (refuses to overwrite without --force;
        /// `-` is standard output).
        #[arg(long, short = 'o', value_name = "FILE")]
        output: Option<PathBuf>,
        /// Overwrite an existing FILE.
        #[arg(long)]
        force: bool,
    },
}

/// Options of `diff`.
#[derive(Debug, Args)]
pub struct DiffArgs {
    /// The earlier report (JSON file, `-` for standard input) or sysroot directory.
    pub before: PathBuf,
    /// The later report (JSON file, `-` for standard input) or sysroot directory.
    pub after: PathBuf,
    /// Output format (default: table).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<DiffFormat>,
    /// With `--format json`: the document on one line.
    #[arg(long)]
    pub compact: bool,
}

/// Options of `inventory`.
#[derive(Debug, Args, Clone, Default)]
pub struct InventoryArgs {
    /// Output format (default: table).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<Format>,
    /// With `--format prometheus` or `nfd`: also check against this profile (built-in name
    /// or TOML file) and include the result; refused with other formats.
    #[arg(long, value_name = "NAME|FILE")]
    pub profile: Option<String>,
    /// Which parts of the report, and how many notes.
    #[command(flatten)]
    pub view: ViewArgs,
}

/// What the table and Markdown inventory show (`rigcheck` with no command, or `inventory`).
#[derive(Debug, Args, Clone, Default)]
pub struct ViewArgs {
    /// Show only these parts of the table or Markdown report, e.g. `-s gpu,memory`.
    #[arg(
        long,
        short = 's',
        value_enum,
        value_delimiter = ',',
        value_name = "PART"
    )]
    pub section: Vec<Part>,
    /// List every note: where figures come from too, not only why facts are unknown.
    #[arg(long, short = 'v')]
    pub verbose: bool,
    /// With `--format json`: the report on one line, for a log or a query engine that reads
    /// one document per line.
    #[arg(long)]
    pub compact: bool,
}

/// Options of `sheet`.
#[derive(Debug, Args, Clone)]
pub struct SheetArgs {
    /// Sheet format (default: html).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<SheetFormat>,
    /// Write the sheet to FILE (atomically); `-` is standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Print the sheet on standard output, even to a terminal.
    #[arg(long, conflicts_with = "output")]
    pub stdout: bool,
    /// Replace FILE if it exists.
    #[arg(long)]
    pub force: bool,
    /// Check the machine against this order profile and print the result on the sheet.
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    /// Make the sheet from a saved JSON report (`rigcheck --format json`, or `rigcheck bench
    /// --format json`, whose measurements then appear as a chart) instead of this machine.
    #[arg(long, value_name = "FILE", conflicts_with = "sysroot")]
    pub report: Option<PathBuf>,
}

/// Options of `capture`.
#[derive(Debug, Args)]
pub struct CaptureArgs {
    /// Directory to write the snapshot into (created; must be empty unless --force).
    pub dir: PathBuf,
    /// Replace an earlier capture at DIR (never a directory of other files).
    #[arg(long)]
    pub force: bool,
}

/// Options of `preflight`. Every threshold has a default; none is needed.
#[derive(Debug, Args, Clone)]
pub struct PreflightArgs {
    /// GPUs the job needs (after CUDA_VISIBLE_DEVICES). Default: 1; `--gpus 0` for a
    /// CPU-only job skips the GPU checks.
    #[arg(long, value_name = "N")]
    pub gpus: Option<u32>,
    /// Free VRAM each GPU must have, e.g. '20 GiB'. Default: warn when over 10% is in use.
    #[arg(long, value_name = "SIZE", value_parser = rigcheck::units::parse_bytes_arg)]
    pub min_free_vram: Option<u64>,
    /// Highest GPU temperature to start a job at, in °C.
    #[arg(long, value_name = "CELSIUS", default_value_t = 80)]
    pub max_gpu_temp: u32,
    /// Lowest NVIDIA driver version accepted, e.g. '535.104'.
    #[arg(long, value_name = "VERSION", value_parser = rigcheck::preflight::gpu::parse_min_version)]
    pub min_driver: Option<String>,
    /// Lowest CUDA version the driver must support, e.g. '12.2'.
    #[arg(long, value_name = "VERSION", value_parser = rigcheck::preflight::gpu::parse_min_version)]
    pub min_cuda: Option<String>,
    /// Dataset directory: its filesystem's free space, drive and kind are checked.
    #[arg(long, value_name = "PATH")]
    pub data: Option<PathBuf>,
    /// Free space the --data filesystem must have, e.g. '500 GB'. Default: fail under 5%
    /// free, warn under 10%.
    #[arg(long, value_name = "SIZE", value_parser = rigcheck::units::parse_bytes_arg)]
    pub min_free_disk: Option<u64>,
    /// Data-loader workers per GPU process (PyTorch num_workers). Default: suggest a number.
    #[arg(long, value_name = "N")]
    pub workers: Option<u32>,
    /// Output format (default: table).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<PreflightFormat>,
    /// With `--format json`: the report on one line.
    #[arg(long)]
    pub compact: bool,
}

/// Options of `bench`.
#[derive(Debug, Args, Clone)]
pub struct BenchArgs {
    /// What to measure.
    #[arg(value_enum, default_value_t = BenchKind::All)]
    pub which: BenchKind,
    /// Time budget per benchmark, in seconds, at most 86400 (also the length of the GPU
    /// thermal soak).
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    pub seconds: f64,
    /// Output format (default: table).
    #[arg(long, short = 'f', value_enum)]
    pub format: Option<BenchFormat>,
    /// File to read, or directory to write a temporary test file of at most 1 GiB in, for
    /// the disk benchmark; without it the disk benchmark is skipped (nothing is written).
    #[arg(long, value_name = "PATH")]
    pub data: Option<PathBuf>,
    /// With `--format json`: the report on one line.
    #[arg(long)]
    pub compact: bool,
}

/// The value of `--profile`: a built-in profile's name or a file, taken as written (the
/// file is read, and a bad one refused, by the command). The built-in names are its
/// possible values only for shell completion, which offers them beside file names
/// (`completions`); the help does not list them, as any file is accepted too.
#[derive(Debug, Clone, Copy)]
pub struct ProfileName;

impl TypedValueParser for ProfileName {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        StringValueParser::new().parse_ref(cmd, arg, value)
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(
            rigcheck::profile::BUILTIN
                .iter()
                .map(|(name, _)| PossibleValue::new(*name)),
        ))
    }
}

/// `--color` choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal and NO_COLOR is unset.
    #[default]
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// The command line's copy of an enum the library defines (same name, same variants), with
/// clap's name and help for each variant and the conversion into the library's: the library
/// knows nothing of clap.
macro_rules! value_enum {
    ($lib:path => $ty:ident { $($variant:ident => $name:literal: $help:literal,)* }) => {
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum $ty {
            $($variant,)*
        }

        impl ValueEnum for $ty {
            fn value_variants<'a>() -> &'a [Self] {
                &[$(Self::$variant),*]
            }

            fn to_possible_value(&self) -> Option<PossibleValue> {
                Some(match self {
                    $(Self::$variant => PossibleValue::new($name).help($help),)*
                })
            }
        }

        impl From<$ty> for $lib {
            fn from(v: $ty) -> Self {
                use $lib as Lib;
                match v {
                    $($ty::$variant => Lib::$variant,)*
                }
            }
        }

        impl From<$lib> for $ty {
            fn from(v: $lib) -> Self {
                use $lib as Lib;
                match v {
                    $(Lib::$variant => $ty::$variant,)*
                }
            }
        }
    };
}

value_enum!(rigcheck::render::Format => Format {
    Table => "table": "Readable text table.",
    Json => "json": "The JSON contract (schema_version, base units, notes).",
    Markdown => "markdown": "GitHub-flavoured Markdown.",
    Prometheus => "prometheus": "Prometheus text format, for node_exporter's textfile collector.",
    Nfd => "nfd": "Kubernetes node-feature-discovery feature file (name=value labels).",
});

/// `--section` parts (the library's `render::Part`), with aliases.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    Glance,
    System,
    Gpus,
    Cpu,
    Memory,
    Drives,
    Network,
    Health,
    Headroom,
    Notes,
}

impl From<Part> for rigcheck::render::Part {
    fn from(p: Part) -> Self {
        use rigcheck::render::Part as Lib;
        match p {
            Part::Glance => Lib::Glance,
            Part::System => Lib::System,
            Part::Gpus => Lib::Gpus,
            Part::Cpu => Lib::Cpu,
            Part::Memory => Lib::Memory,
            Part::Drives => Lib::Drives,
            Part::Network => Lib::Network,
            Part::Health => Lib::Health,
            Part::Headroom => Lib::Headroom,
            Part::Notes => Lib::Notes,
        }
    }
}

impl ValueEnum for Part {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            Part::Glance,
            Part::System,
            Part::Gpus,
            Part::Cpu,
            Part::Memory,
            Part::Drives,
            Part::Network,
            Part::Health,
            Part::Headroom,
            Part::Notes,
        ]
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(match self {
            Part::Glance => PossibleValue::new("glance").help("The summary at the top."),
            Part::System => PossibleValue::new("system").help("System, board, BIOS, OS."),
            Part::Cpu => PossibleValue::new("cpu")
                .alias("cpus")
                .help("CPUs, caches, NUMA nodes."),
            Part::Memory => PossibleValue::new("memory")
                .alias("mem")
                .help("Memory and every DIMM."),
            Part::Drives => PossibleValue::new("drives")
                .aliases(["drive", "disks"])
                .help("Drives."),
            Part::Network => PossibleValue::new("network")
                .aliases(["nics", "nic", "net"])
                .help("Network adapters and their ports."),
            Part::Gpus => PossibleValue::new("gpu")
                .alias("gpus")
                .help("GPUs, one table per model."),
            Part::Health => PossibleValue::new("health")
                .help("Drive wear and errors, memory and PCIe error counts, CPU throttling."),
            Part::Headroom => {
                PossibleValue::new("headroom").help("Free sockets, DIMM and PCIe slots, power.")
            }
            Part::Notes => PossibleValue::new("notes")
                .help("Why facts are unknown (and with -v, where figures come from)."),
        })
    }
}

value_enum!(rigcheck::render::verify::VerifyFormat => VerifyFormat {
    Table => "table": "Readable table with a summary line.",
    Json => "json": "The report as JSON.",
    Markdown => "markdown": "Markdown table (for tickets and pull requests).",
    Junit => "junit": "JUnit XML: one test case per requirement, for CI systems.",
});

value_enum!(rigcheck::render::fleet::FleetFormat => FleetFormat {
    Table => "table": "Readable tables.",
    Json => "json": "One JSON document: hosts, configurations, odd ones out, errors.",
    Markdown => "markdown": "Markdown tables (for tickets and wikis).",
    Prometheus => "prometheus": "Prometheus text format, every sample labelled with its host.",
    Ndjson => "ndjson": "One compact JSON object per host and line, for a query engine.",
});

value_enum!(rigcheck::render::diff::DiffFormat => DiffFormat {
    Table => "table": "Readable table.",
    Json => "json": "JSON list of changes.",
});

value_enum!(rigcheck::render::sheet::SheetFormat => SheetFormat {
    Html => "html": "One self-contained HTML file (inline CSS and SVG), printable on A4 or Letter.",
    Markdown => "markdown": "GitHub-flavoured Markdown.",
});

value_enum!(rigcheck::render::preflight::PreflightFormat => PreflightFormat {
    Table => "table": "One aligned line per check.",
    Json => "json": "{status, exit_code, checks: [{id, subject, status, found, expected, advice}]}.",
});

value_enum!(rigcheck::bench::BenchKind => BenchKind {
    Cpu => "cpu": "Data-loader augmentation pipeline on 1, 2, 4 … N threads.",
    Memory => "memory": "STREAM copy and triad, one thread and all threads.",
    Disk => "disk": "Sequential read with direct I/O.",
    Gpu => "gpu": "FP32/FP16 matrix multiply and a thermal soak.",
    All => "all": "All of the above.",
});

value_enum!(rigcheck::render::bench::BenchFormat => BenchFormat {
    Table => "table": "Readable text.",
    Json => "json": "The inventory JSON with a `bench` section.",
});

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    /// Every command line copy of a library enum converts both ways without loss, so the
    /// names clap shows are the library's variants.
    #[test]
    fn command_line_enums_round_trip_through_the_library() {
        for f in Format::value_variants() {
            assert_eq!(Format::from(rigcheck::render::Format::from(*f)), *f);
        }
        for f in SheetFormat::value_variants() {
            let lib = rigcheck::render::sheet::SheetFormat::from(*f);
            assert_eq!(SheetFormat::from(lib), *f);
        }
        for k in BenchKind::value_variants() {
            assert_eq!(BenchKind::from(rigcheck::bench::BenchKind::from(*k)), *k);
        }
        let names: Vec<String> = Format::value_variants()
            .iter()
            .filter_map(|f| f.to_possible_value())
            .map(|v| v.get_name().to_string())
            .collect();
        assert_eq!(names, ["table", "json", "markdown", "prometheus", "nfd"]);
    }

    /// The inventory's own options after no command, and a stray one before a command.
    #[test]
    fn plain_inventory_lines_parse_as_the_inventory() {
        let cli = Cli::try_parse_from(["rigcheck", "-f", "json", "--redact", "-v"]).unwrap();
        assert!(cli.command.is_none());
        assert_eq!(cli.global.format, Some(AnyFormat::Json));
        assert!(cli.global.redact && cli.view.verbose);
        assert!(Cli::try_parse_from(["rigcheck", "-f", "xml"]).is_err());
    }
}
