//! Command-line definitions (clap) only; no logic lives here.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// Inventory a workstation or GPU server, check it against its order, and say what it can do.
#[derive(Debug, Parser)]
#[command(name = "rigcheck", version, about, help_expected = true)]
pub struct Cli {
    /// Read a recorded machine under DIR instead of this one (nothing live is touched).
    #[arg(long, global = true, value_name = "DIR")]
    pub sysroot: Option<PathBuf>,

    /// When to colour table output: auto (a terminal, NO_COLOR unset), always, never.
    #[arg(long, global = true, value_enum, default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,

    #[command(subcommand)]
    pub command: Option<Command>,

    #[command(flatten)]
    pub inventory: InventoryArgs,
}

/// The subcommands; none given means `inventory`.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Print what is in this machine (the default command).
    Inventory(InventoryArgs),
    /// Record this machine into DIR, so `--sysroot DIR` replays it exactly.
    Capture(CaptureArgs),
    /// Measure this machine: data-loader images/s, memory bandwidth, disk read, GPU TFLOPS.
    Bench(BenchArgs),
}

/// Options of `inventory`.
#[derive(Debug, Args, Clone)]
pub struct InventoryArgs {
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Table)]
    pub format: Format,
}

/// Options of `capture`.
#[derive(Debug, Args)]
pub struct CaptureArgs {
    /// Directory to write the snapshot into (created; must be empty unless --force).
    pub dir: PathBuf,
    /// Replace a non-empty DIR.
    #[arg(long)]
    pub force: bool,
}

/// Options of `bench`.
#[derive(Debug, Args, Clone)]
pub struct BenchArgs {
    /// What to measure.
    #[arg(value_enum, default_value_t = BenchKind::All)]
    pub which: BenchKind,
    /// Time budget per benchmark, in seconds (also the length of the GPU thermal soak).
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    pub seconds: f64,
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = BenchFormat::Table)]
    pub format: BenchFormat,
    /// File to read, or directory to write a temporary test file in, for the disk benchmark
    /// (default: the current directory).
    #[arg(long, value_name = "PATH")]
    pub data: Option<PathBuf>,
}

/// Which benchmarks `bench` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BenchKind {
    /// Data-loader augmentation pipeline on 1, 2, 4 … N threads.
    Cpu,
    /// STREAM copy and triad, one thread and all threads.
    Memory,
    /// Sequential read with direct I/O.
    Disk,
    /// FP32/FP16 matrix multiply and a thermal soak.
    Gpu,
    /// All of the above.
    All,
}

/// Output formats of `bench`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BenchFormat {
    /// Readable text.
    Table,
    /// The inventory JSON with a `bench` section.
    Json,
}

/// Report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Readable text table.
    Table,
    /// The JSON contract (schema_version, base units, notes).
    Json,
    /// GitHub-flavoured Markdown.
    Markdown,
}

/// `--color` choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when stdout is a terminal and NO_COLOR is unset.
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}
