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
    /// Write a spec sheet (HTML or Markdown) to hand on, attach to an asset record, or print.
    Sheet(SheetArgs),
}

/// Options of `inventory`.
#[derive(Debug, Args, Clone)]
pub struct InventoryArgs {
    /// Output format.
    #[arg(long, short = 'f', value_enum, default_value_t = Format::Table)]
    pub format: Format,
    /// Remove serial numbers, UUIDs, MAC addresses and the host name from the output.
    #[arg(long)]
    pub redact: bool,
}

/// Options of `sheet`.
#[derive(Debug, Args, Clone)]
pub struct SheetArgs {
    /// Sheet format.
    #[arg(long, short = 'f', value_enum, default_value_t = SheetFormat::Html)]
    pub format: SheetFormat,
    /// Write the sheet to FILE (atomically) instead of standard output.
    #[arg(long, short = 'o', value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Replace FILE if it exists.
    #[arg(long)]
    pub force: bool,
    /// Check the machine against this order profile and print the result on the sheet.
    #[arg(long, value_name = "PROFILE")]
    pub profile: Option<String>,
    /// Remove serial numbers, UUIDs, MAC addresses and the host name from the sheet.
    #[arg(long)]
    pub redact: bool,
}

/// Spec sheet formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SheetFormat {
    /// One self-contained HTML file (inline CSS and SVG), printable on A4 or Letter.
    Html,
    /// GitHub-flavoured Markdown.
    Markdown,
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
