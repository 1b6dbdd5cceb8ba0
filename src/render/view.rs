//! What the reader asked of the human formats: colour, the width to fit, which parts of the
//! inventory, and how many notes. Kept apart from `render`'s own file so every renderer can
//! take it without an import going round in a circle.

/// Where text output goes: whether it may be coloured, and how wide it may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Term {
    /// Paint status words, verdicts, titles and table headers.
    pub color: bool,
    /// Columns to fit tables and lines into; `None` (a pipe, a file) for no limit.
    pub width: Option<usize>,
}

/// Colour on or off, no width limit.
impl From<bool> for Term {
    fn from(color: bool) -> Self {
        Term { color, width: None }
    }
}

/// A part of the inventory report, as `--section` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The summary at the top.
    Glance,
    /// System, board, BIOS, OS.
    System,
    /// GPUs.
    Gpus,
    /// CPUs, caches, NUMA nodes.
    Cpu,
    /// Memory and DIMMs.
    Memory,
    /// Drives.
    Drives,
    /// Network adapters and their ports.
    Network,
    /// The parts' own health: drive wear and errors, memory and PCIe errors, throttling.
    Health,
    /// Room to grow: sockets, slots, power.
    Headroom,
    /// Why facts are unknown, and where figures come from.
    Notes,
}

impl Part {
    /// Every part, in the order the report prints them.
    pub const ALL: [Part; 10] = [
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
    ];
}

/// How a human-format inventory is shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct View {
    /// Colour and width.
    pub term: Term,
    /// The parts to show, in report order whatever the order given; empty for all.
    pub parts: Vec<Part>,
    /// List every note, sources and remarks too.
    pub verbose: bool,
}

/// Every part, the notes grouped, coloured or not, no width limit.
impl From<bool> for View {
    fn from(color: bool) -> Self {
        View {
            term: color.into(),
            ..View::default()
        }
    }
}
