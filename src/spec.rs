//! The one model everything reads: plain serde structs in base units, no I/O.
//!
//! Units sit in the field names (`size_bytes`, `max_mhz`); unknown is `None` (JSON `null`)
//! with a `Note` in `Spec::notes` saying why. Collections are kept in a stable order so
//! output never depends on directory order or hash seeds.

pub mod bench;
pub mod health;
pub mod identity;
pub mod names;
pub mod note;
pub mod windows;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use note::{Note, Notes};

/// Bumped on any breaking change of the JSON below.
pub const SCHEMA_VERSION: u32 = 1;

/// Everything rigcheck knows about one machine.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Spec {
    /// JSON contract version (`SCHEMA_VERSION`).
    pub schema_version: u32,
    /// Version of rigcheck that wrote this report.
    pub rigcheck_version: String,
    /// RFC 3339 time the facts were read (live) or recorded (sysroot).
    pub captured_at: Option<String>,
    /// Host name (fleet tools key reports by it).
    pub hostname: Option<String>,
    /// Where the facts came from: `live` or the sysroot path given.
    pub source: String,
    pub system: System,
    pub os: Os,
    pub cpu: Cpu,
    pub memory: Memory,
    pub drives: Vec<Drive>,
    pub gpus: Vec<Gpu>,
    /// Network adapters: one per PCI card (its functions together), with its ports. Empty in
    /// reports written before it existed (`lists.nics` then says `unreadable`).
    #[serde(default)]
    pub nics: Vec<Nic>,
    /// How completely `drives`, `gpus`, `nics` and `memory.dimms` were read: an empty list that was
    /// `read` means there are none; one that is `partial` or `unreadable` means counts and
    /// sums over it are unknown (the note on the list says why). Reports written before it
    /// existed read as `read`.
    #[serde(default)]
    pub lists: Lists,
    /// What this process may use (affinity, cgroup quotas, /dev/shm, ulimits) and the
    /// live-only facts `preflight` needs; `None` in reports written before it existed.
    #[serde(default)]
    pub limits: Option<Limits>,
    /// What can still be added (empty sockets, free DIMM and PCIe slots, power budget), from
    /// SMBIOS; `None` with a note when the tables cannot be read.
    #[serde(default)]
    pub headroom: Option<Headroom>,
    /// What the parts say of their own health: drive wear and errors, memory and PCIe error
    /// counts, CPU throttling (GPUs: `gpus[].state`); `None` in reports written before it.
    #[serde(default)]
    pub health: Option<health::Health>,
    /// One entry per unknown or doubtful fact.
    pub notes: Vec<Note>,
    /// Measurements of `rigcheck bench`; absent from a plain inventory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bench: Option<bench::BenchReport>,
}

impl Spec {
    /// How completely the DIMMs were read: unreadable where no DIMM source was read at all
    /// (reports written before `lists` existed say so only that way).
    pub fn dimm_list(&self) -> ListState {
        if self.memory.dimm_source.is_none() {
            ListState::Unreadable
        } else {
            self.lists.dimms
        }
    }
}

/// How completely a list was read. A count or sum over a list is known only when it was
/// read whole: an unreadable source is not an empty machine, and the records before a
/// damaged one are not all there is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum ListState {
    /// The source was read to its end: the list is all there is (possibly nothing).
    #[default]
    Read,
    /// What was read is listed, but more may exist (a source damaged part way, items that
    /// could not be told apart from others).
    Partial,
    /// The source could not be read: the list says nothing about the machine.
    Unreadable,
}

impl ListState {
    /// The name as JSON writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            ListState::Read => "read",
            ListState::Partial => "partial",
            ListState::Unreadable => "unreadable",
        }
    }

    /// True when the list is all there is.
    pub fn is_complete(self) -> bool {
        self == ListState::Read
    }

    /// `n` items counted over a list in this state: the number when the list was read
    /// whole, else unknown.
    pub fn count(self, n: usize) -> Option<u64> {
        self.is_complete().then_some(n as u64)
    }

    /// What a report written before a list existed says of it: nothing.
    pub fn unread() -> ListState {
        ListState::Unreadable
    }

    /// The less complete of two states (a list joined from two sources).
    pub fn worst(self, other: ListState) -> ListState {
        use ListState::*;
        match (self, other) {
            (Unreadable, _) | (_, Unreadable) => Unreadable,
            (Partial, _) | (_, Partial) => Partial,
            _ => Read,
        }
    }
}

/// The completeness of each list the checks count.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Lists {
    pub drives: ListState,
    pub gpus: ListState,
    /// `memory.dimms` (and the slot list beside it).
    pub dimms: ListState,
    /// `nics`; `unreadable` in reports written before NICs were read.
    #[serde(default = "ListState::unread")]
    pub nics: ListState,
}

/// A list as a probe read it: its items and how completely.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed<T> {
    pub items: Vec<T>,
    pub state: ListState,
}

impl<T> Listed<T> {
    /// A list read to its end.
    pub fn read(items: Vec<T>) -> Self {
        Listed {
            items,
            state: ListState::Read,
        }
    }

    /// What was read before the source failed.
    pub fn partial(items: Vec<T>) -> Self {
        Listed {
            items,
            state: ListState::Partial,
        }
    }

    /// A source that could not be read at all.
    pub fn unreadable() -> Self {
        Listed {
            items: Vec::new(),
            state: ListState::Unreadable,
        }
    }
}

/// DMI/SMBIOS identity of the box.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct System {
    pub vendor: Option<String>,
    pub product: Option<String>,
    pub version: Option<String>,
    pub family: Option<String>,
    pub sku: Option<String>,
    /// Root-only (`product_serial` is 0400).
    pub serial: Option<String>,
    /// Root-only (`product_uuid` is 0400).
    pub uuid: Option<String>,
    pub board_vendor: Option<String>,
    pub board_name: Option<String>,
    pub board_version: Option<String>,
    pub board_serial: Option<String>,
    pub bios_vendor: Option<String>,
    pub bios_version: Option<String>,
    pub bios_date: Option<String>,
    /// Chassis type name from SMBIOS 7.4.1, e.g. `Tower`, `Notebook`.
    pub chassis_type: Option<String>,
    /// Hypervisor vendor when this is a virtual machine (`KVM`, `VMware`, ...).
    pub virtualization: Option<String>,
}

/// Operating system and kernel.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Os {
    /// os-release `NAME`.
    pub name: Option<String>,
    /// os-release `VERSION_ID`.
    pub version: Option<String>,
    /// os-release `PRETTY_NAME`.
    pub pretty_name: Option<String>,
    /// Kernel release (`uname -r`).
    pub kernel: Option<String>,
    /// Machine architecture (`x86_64`, `aarch64`, `ppc64le`, `s390x`, `riscv64`).
    pub arch: Option<String>,
}

/// Processors: identity, topology, clocks, caches, NUMA and ISA.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Cpu {
    /// `GenuineIntel`, `AuthenticAMD`, `ARM`, `IBM/S390`, ...
    pub vendor: Option<String>,
    /// Marketing name, e.g. `Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz`; the first socket's
    /// when the sockets hold different models (see `socket_models`).
    pub model: Option<String>,
    /// Each socket's model, in socket order, when they are not all the same (a mixed pair);
    /// empty when every socket holds the same model.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub socket_models: Vec<String>,
    pub family: Option<u32>,
    pub model_id: Option<u32>,
    pub stepping: Option<u32>,
    /// Microarchitecture (generation) from the vendor, family and model, e.g. `Cascade Lake`,
    /// `Zen 3`; `None` with a note where the table has no row for them.
    #[serde(default)]
    pub microarchitecture: Option<String>,
    /// The product line's codename where the family and model tell it (`Cascade Lake-SP`,
    /// `Milan`, `Sapphire Rapids`); `None` where they do not (one model, several lines).
    #[serde(default)]
    pub codename: Option<String>,
    /// Microcode revision: `microcode` in /proc/cpuinfo, else
    /// /sys/devices/system/cpu/cpu0/microcode/version.
    pub microcode: Option<String>,
    /// Physical packages with at least one online CPU.
    pub sockets: Option<u32>,
    /// Physical cores in total (all sockets).
    pub cores: Option<u32>,
    pub cores_per_socket: Option<u32>,
    /// Logical CPUs online.
    pub threads: Option<u32>,
    pub threads_per_core: Option<u32>,
    /// Logical CPUs present (online + offline), as lscpu's `CPU(s)`.
    pub cpus_present: Option<u32>,
    /// Online CPU list, e.g. `0-71`.
    pub online: Option<String>,
    /// Offline CPU list when some are offline.
    pub offline: Option<String>,
    /// Advertised or guaranteed base clock; `base_mhz_source` says where it came from.
    pub base_mhz: Option<u32>,
    /// `cpufreq base_frequency`, `cpuid 0x16`, `acpi_cppc nominal_freq`,
    /// `cpufreq cpuinfo_max_freq` (AMD acpi-cpufreq, boost excluded), `model name` or
    /// `smbios current speed` (Windows, macOS).
    pub base_mhz_source: Option<String>,
    pub min_mhz: Option<u32>,
    pub max_mhz: Option<u32>,
    /// The clock the online CPUs run at now, over all of them; `None` with a note where the
    /// kernel shows none.
    #[serde(default)]
    pub current_mhz: Option<ClockNow>,
    pub scaling_driver: Option<String>,
    pub governor: Option<String>,
    pub caches: Vec<Cache>,
    pub numa_nodes: Vec<NumaNode>,
    /// Distinct core types on hybrid (big.LITTLE) parts; empty when all cores are alike.
    pub core_types: Vec<CoreType>,
    /// ISA features that matter for ML work, named plainly.
    pub isa: Vec<String>,
    /// 512-bit FMA units per core where known (1 or 2 on AVX-512 Xeons).
    pub fma_units: Option<u32>,
    /// Peak FP64 GFLOPS = cores × base clock × FLOPs/cycle from the vector ISA and FMA units.
    pub peak_fp64_gflops: Option<f64>,
    /// Kernel flags (or `Features` on arm), sorted.
    pub flags: Vec<String>,
}

/// The clock the CPUs run at now: volatile, so `diff` does not compare it.
#[derive(Debug, Clone, Copy, Default, Serialize, JsonSchema, Deserialize, PartialEq, Eq)]
pub struct ClockNow {
    pub min_mhz: u32,
    /// The mean over the CPUs read, rounded.
    pub avg_mhz: u32,
    pub max_mhz: u32,
    /// CPUs read.
    pub cpus: u32,
    /// `scaling_cur_freq` (cpufreq) or `cpuinfo` (`cpu MHz` of /proc/cpuinfo).
    pub source: ClockSource,
}

/// Where the clock now was read.
#[derive(Debug, Clone, Copy, Default, Serialize, JsonSchema, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum ClockSource {
    /// cpufreq's `scaling_cur_freq`, per CPU.
    #[default]
    ScalingCurFreq,
    /// `cpu MHz` of /proc/cpuinfo (x86, where no cpufreq driver is loaded: VMs).
    Cpuinfo,
}

/// One cache level and kind, summed as lscpu does.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct Cache {
    pub level: u32,
    /// `data`, `instruction` or `unified`.
    pub kind: String,
    /// Size of one instance.
    pub size_bytes: u64,
    /// Number of distinct instances on the machine.
    pub instances: u32,
    /// size × instances where all instances are the same size, else the sum.
    pub total_bytes: u64,
}

/// One NUMA node.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct NumaNode {
    pub id: u32,
    /// CPU list, e.g. `0-5,48-53` (empty for memory-only nodes).
    pub cpus: String,
    pub memory_bytes: Option<u64>,
    /// CPU socket (physical package) of the node's CPUs; `None` for memory-only nodes.
    #[serde(default)]
    pub socket: Option<u32>,
}

/// A group of alike cores on a hybrid CPU.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct CoreType {
    pub name: String,
    pub cores: u32,
    pub threads: u32,
    pub max_mhz: Option<u32>,
}

/// Installed and usable memory, and the DIMM slots.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Memory {
    /// Installed: sum of DIMMs when known, else MemTotal.
    pub total_bytes: Option<u64>,
    /// `dimms`, `meminfo`, or `os` (the usable memory Windows or macOS reports).
    pub total_source: Option<String>,
    /// MemTotal from /proc/meminfo (Windows: the physical memory it manages).
    pub usable_bytes: Option<u64>,
    /// Where the DIMM list came from: `smbios` or `udev`.
    pub dimm_source: Option<String>,
    /// Slots the firmware lists (populated + empty).
    pub slot_count: Option<u32>,
    /// Populated slots.
    pub dimms: Vec<Dimm>,
    /// Locators of empty slots.
    pub empty_slots: Vec<String>,
    /// Every slot the firmware lists, populated or empty, in table order, with the CPU
    /// socket and memory channel its locator names.
    #[serde(default)]
    pub slots: Vec<MemorySlot>,
}

/// One DIMM slot as the firmware lists it, placed on its socket.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct MemorySlot {
    pub locator: String,
    pub bank_locator: Option<String>,
    /// CPU socket from 0, read from the locator or bank locator (`CPU1_DIMM_A1`,
    /// `DIMM1_CPU2`, Dell's socket letters `A1`/`B1`); `None` when they name none.
    pub socket: Option<u32>,
    /// Memory channel letter where the locator names one (`P1-DIMMA1` → `A`).
    pub channel: Option<String>,
    /// Index into `memory.dimms` of the module in the slot; `None` for an empty slot.
    pub dimm: Option<usize>,
}

/// One installed memory module.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct Dimm {
    pub locator: String,
    pub bank_locator: Option<String>,
    pub size_bytes: Option<u64>,
    /// `DDR4`, `DDR5`, ...
    #[serde(rename = "type")]
    pub kind: Option<String>,
    pub form_factor: Option<String>,
    /// Type detail as dmidecode words it, e.g. `Synchronous Registered (Buffered)` (RDIMM).
    pub type_detail: Option<String>,
    pub speed_mts: Option<u32>,
    pub configured_speed_mts: Option<u32>,
    pub manufacturer: Option<String>,
    pub part_number: Option<String>,
    pub serial: Option<String>,
    pub rank: Option<u32>,
    /// CPU socket from 0 of the slot, as in `memory.slots`.
    #[serde(default)]
    pub socket: Option<u32>,
}

/// One physical drive.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct Drive {
    /// Kernel name, e.g. `nvme0n1`, `sda`, `vda`.
    pub name: String,
    pub model: Option<String>,
    pub serial: Option<String>,
    pub firmware: Option<String>,
    pub size_bytes: Option<u64>,
    /// `nvme`, `ssd`, `hdd` or `virtual`.
    pub kind: Option<DriveKind>,
    /// `nvme`, `sata`, `sas`, `usb`, `virtio`, `mmc`, ...
    pub transport: Option<String>,
    pub rotational: Option<bool>,
    pub removable: Option<bool>,
    pub logical_block_size: Option<u32>,
    pub physical_block_size: Option<u32>,
    /// PCI address of the controller (NVMe, virtio), to place the drive on a socket.
    pub pci_address: Option<String>,
    /// PCIe link of the controller (NVMe); absent where the bus is not PCIe.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pcie: Option<Pcie>,
    pub numa_node: Option<i32>,
    /// CPU socket the drive's controller hangs off (its local CPUs, else its NUMA node).
    #[serde(default)]
    pub socket: Option<u32>,
}

impl Drive {
    /// True for USB sticks, card readers and other media that come and go (`removable`, or
    /// on USB): they are not the machine's own drives, and an order does not count them.
    pub fn is_removable(&self) -> bool {
        self.removable == Some(true) || self.transport.as_deref() == Some("usb")
    }
}

/// One network adapter: a PCI card (its functions together) and its ports.
#[derive(Debug, Clone, Default, Serialize, JsonSchema, Deserialize, PartialEq)]
pub struct Nic {
    /// PCI address of the card's first function, `0000:5d:00.0`.
    pub pci_address: Option<String>,
    /// Every PCI function of the card (a dual-port card has `.0` and `.1`).
    pub functions: Vec<String>,
    /// PCI ids, `0x8086` and `0x1572`.
    pub vendor_id: Option<String>,
    pub device_id: Option<String>,
    /// PCI subsystem `vendor:device`, `103c:22fc`: whose board it is.
    pub subsystem_id: Option<String>,
    /// Vendor name from pci.ids, e.g. `Intel Corporation`.
    pub vendor: Option<String>,
    /// Controller name from pci.ids, e.g. `Ethernet Controller X710 for 10GbE SFP+`.
    pub name: Option<String>,
    /// The board's name where pci.ids names the subsystem (`Ethernet Converged Network
    /// Adapter X710-DA2`).
    pub board: Option<String>,
    /// The driver bound to the card (`i40e`, `mlx5_core`, `virtio-pci`).
    pub driver: Option<String>,
    /// Firmware version as ethtool's driver info gives it.
    pub firmware: Option<String>,
    /// The fastest link the card's ports support, Mb/s; `max_speed_source` says from where.
    pub max_speed_mbps: Option<u64>,
    /// `ethtool` (the link modes the driver lists), `table` (rigcheck's table of well-known
    /// controllers), `infiniband` (the port's rate), `link` (the speed a port runs at now:
    /// a floor, the card may do more).
    pub max_speed_source: Option<String>,
    /// A hypervisor's adapter (virtio, Hyper-V, VMware vmxnet3, Xen): it has no link speed
    /// of its own.
    #[serde(default)]
    pub is_virtual: bool,
    /// The PCIe link the card trained at and what it can do; `None` where the bus is not
    /// PCIe (a VM's virtio device shows no link).
    pub pcie: Option<Pcie>,
    pub numa_node: Option<i32>,
    /// CPU socket the card hangs off (its local CPUs, else its NUMA node).
    #[serde(default)]
    pub socket: Option<u32>,
    pub ports: Vec<NicPort>,
}

/// One port of a network adapter: an Ethernet interface, or an InfiniBand port.
#[derive(Debug, Clone, Default, Serialize, JsonSchema, Deserialize, PartialEq)]
pub struct NicPort {
    /// Interface name (`eno5`), or `mlx5_0/1` for an InfiniBand port.
    pub name: String,
    /// The PCI function it belongs to.
    pub function: Option<String>,
    /// `ethernet` or `infiniband`.
    pub link_layer: String,
    /// MAC address (hidden by `--redact`).
    pub mac: Option<String>,
    /// `up`, `down`, `dormant`, `unknown` (operstate), or InfiniBand's `active`, `down`,
    /// `init`, `armed`.
    pub state: Option<String>,
    /// The speed the link runs at now, Mb/s; `None` with a note when down or not given.
    pub speed_mbps: Option<u64>,
    /// The fastest speed the port supports (ethtool's link modes), Mb/s.
    pub max_speed_mbps: Option<u64>,
    /// `full` or `half`.
    pub duplex: Option<String>,
    pub mtu: Option<u32>,
}

/// What kind of drive it is; written in JSON as `nvme`, `ssd`, `hdd` or `virtual`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum DriveKind {
    /// An NVMe drive (PCIe).
    Nvme,
    /// A solid-state drive on SATA, SAS or USB.
    Ssd,
    /// A spinning disk.
    Hdd,
    /// A disk a hypervisor provides (virtio, Xen, Hyper-V).
    Virtual,
}

impl DriveKind {
    /// The names, as profiles and JSON write them.
    pub const NAMES: [&'static str; 4] = ["nvme", "ssd", "hdd", "virtual"];

    /// The name as profiles and JSON write it.
    pub fn as_str(self) -> &'static str {
        match self {
            DriveKind::Nvme => "nvme",
            DriveKind::Ssd => "ssd",
            DriveKind::Hdd => "hdd",
            DriveKind::Virtual => "virtual",
        }
    }

    /// The kind of a name (`nvme`, `ssd`, `hdd`, `virtual`).
    pub fn from_name(name: &str) -> Option<Self> {
        [
            DriveKind::Nvme,
            DriveKind::Ssd,
            DriveKind::Hdd,
            DriveKind::Virtual,
        ]
        .into_iter()
        .find(|k| k.as_str() == name)
    }
}

impl std::fmt::Display for DriveKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One GPU: PCI facts, the driver's facts (NVML for NVIDIA, the kernel's drm sysfs for AMD
/// and Intel), derived capability and live state. CUDA and Tensor cores, SMs, compute
/// capability and the peaks derived from them are NVIDIA's: `null` on other GPUs, with a
/// note saying so.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Gpu {
    /// `NVIDIA`, `AMD` or `Intel`; reports written before other vendors were read hold
    /// NVIDIA GPUs only.
    #[serde(default)]
    pub vendor: GpuVendor,
    /// NVML index (null when only seen on PCI, and on AMD and Intel GPUs).
    pub index: Option<u32>,
    /// PCI address `0000:3b:00.0`.
    pub pci_address: Option<String>,
    pub pci_device_id: Option<String>,
    pub name: Option<String>,
    /// NVML brand (`GeForce`, `Quadro`, `Tesla`, ...).
    pub brand: Option<String>,
    pub uuid: Option<String>,
    pub serial: Option<String>,
    pub board_part_number: Option<String>,
    pub vbios_version: Option<String>,
    pub architecture: Option<String>,
    pub compute_capability: Option<String>,
    pub sm_count: Option<u32>,
    pub cuda_cores: Option<u32>,
    pub tensor_cores: Option<u32>,
    pub tensor_core_generation: Option<u32>,
    pub vram_bytes: Option<u64>,
    pub memory_bus_width_bits: Option<u32>,
    pub memory_bandwidth_bytes_per_s: Option<u64>,
    pub max_sm_clock_mhz: Option<u32>,
    pub max_memory_clock_mhz: Option<u32>,
    /// NVML's maximum customer boost clock (graphics), where the board reports one (not on
    /// GeForce, where nvidia-smi prints N/A).
    #[serde(default)]
    pub max_customer_boost_clock_mhz: Option<u32>,
    /// Rated FP32 peak: CUDA cores × 2 × `rated_clock_mhz`, the figure NVIDIA's datasheet
    /// gives for the board.
    pub fp32_tflops: Option<f64>,
    /// Rated dense FP16 tensor peak (FP16 accumulate) at `rated_tensor_clock_mhz`.
    pub fp16_tensor_tflops: Option<f64>,
    /// Rated FP16 tensor peak with FP32 accumulate (half rate on GeForce).
    pub fp16_tensor_fp32_acc_tflops: Option<f64>,
    /// Clock the rated figures are at: the datasheet's rated boost, else NVML's max customer
    /// boost clock (`rated_clock_source` says which).
    #[serde(default)]
    pub rated_clock_mhz: Option<u32>,
    /// Clock the rated tensor figures are at; below `rated_clock_mhz` where NVIDIA quotes
    /// tensor rates at a lower clock (Hopper: 1830 against 1980 MHz).
    #[serde(default)]
    pub rated_tensor_clock_mhz: Option<u32>,
    /// `datasheet` (the product table) or `nvml` (max customer boost clock).
    #[serde(default)]
    pub rated_clock_source: Option<String>,
    /// FP32 peak at NVML's max SM clock (`max_sm_clock_mhz`): what the board may reach when
    /// power and temperature allow; above the rated figure on GeForce and workstation boards.
    #[serde(default)]
    pub fp32_tflops_max_clock: Option<f64>,
    /// Dense FP16 tensor peak (FP16 accumulate) at `max_sm_clock_mhz`.
    #[serde(default)]
    pub fp16_tensor_tflops_max_clock: Option<f64>,
    /// FP16 tensor peak with FP32 accumulate at `max_sm_clock_mhz`.
    #[serde(default)]
    pub fp16_tensor_fp32_acc_tflops_max_clock: Option<f64>,
    /// The board as NVIDIA's datasheet describes it, found by PCI id in the product table;
    /// `None` for an id the table does not know.
    #[serde(default)]
    pub datasheet: Option<GpuDatasheet>,
    /// Which board this is and how that was established: NVML's name and the PCI ids agree,
    /// the PCI ids alone name one board, they leave several (`candidates`), or NVML's name
    /// contradicts them.
    #[serde(default)]
    pub identity: Option<GpuIdentity>,
    /// Where each identity and capability fact came from: `nvml` (the driver) or `datasheet`
    /// (the product table, e.g. without a driver). Keys are field names of this struct.
    #[serde(default)]
    pub fact_sources: BTreeMap<String, String>,
    /// Where NVML and the datasheet disagree (fewer SMs, less memory, another name): a
    /// relabelled or cut-down board, or a table row to correct. Empty when they agree.
    #[serde(default)]
    pub datasheet_mismatches: Vec<String>,
    /// MIG instances of a MIG-enabled GPU, with their own slice sizes.
    #[serde(default)]
    pub mig_instances: Vec<MigInstance>,
    pub pcie: Pcie,
    pub numa_node: Option<i32>,
    /// CPU list local to the GPU's PCIe root.
    pub local_cpus: Option<String>,
    /// CPU socket (physical package) the GPU hangs off, from its local CPUs, else its
    /// NUMA node.
    #[serde(default)]
    pub socket: Option<u32>,
    pub driver_version: Option<String>,
    pub cuda_version: Option<String>,
    pub mig_enabled: Option<bool>,
    pub state: GpuState,
    /// What the kernel's drm driver shows of an AMD or Intel GPU; absent on NVIDIA GPUs,
    /// whose facts come from NVML.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drm: Option<GpuDrm>,
}

/// An AMD or Intel GPU as its kernel driver (amdgpu, i915, xe) shows it in sysfs.
#[derive(Debug, Clone, Default, Serialize, JsonSchema, Deserialize, PartialEq)]
pub struct GpuDrm {
    /// The bound driver (`amdgpu`, `i915`, `xe`); `None` with a note when none is bound.
    pub driver: Option<String>,
    /// Highest shader (graphics) clock the driver lists: amdgpu's top `pp_dpm_sclk` level,
    /// i915's `gt_RP0_freq_mhz`, xe's `rp0_freq`.
    pub max_core_clock_mhz: Option<u32>,
    /// The shader clock now (the `*` level of `pp_dpm_sclk`; i915 `gt_act_freq_mhz`).
    pub core_clock_mhz: Option<u32>,
    /// PCI revision (`0xc1`): with the device id, what names an AMD board exactly.
    pub revision: Option<String>,
}

/// Who made a GPU; written in JSON as `NVIDIA`, `AMD` or `Intel`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, JsonSchema, Deserialize)]
pub enum GpuVendor {
    #[default]
    #[serde(rename = "NVIDIA")]
    Nvidia,
    #[serde(rename = "AMD")]
    Amd,
    #[serde(rename = "Intel")]
    Intel,
}

impl GpuVendor {
    /// The name as JSON and the report write it.
    pub fn as_str(self) -> &'static str {
        match self {
            GpuVendor::Nvidia => "NVIDIA",
            GpuVendor::Amd => "AMD",
            GpuVendor::Intel => "Intel",
        }
    }

    /// The vendor of a PCI vendor id (NVIDIA 0x10de, AMD 0x1002, Intel 0x8086).
    pub fn from_pci(id: u32) -> Option<GpuVendor> {
        match id {
            0x10de => Some(GpuVendor::Nvidia),
            0x1002 => Some(GpuVendor::Amd),
            0x8086 => Some(GpuVendor::Intel),
            _ => None,
        }
    }
}

impl Gpu {
    /// True for an NVIDIA GPU (the only vendor with CUDA and Tensor cores).
    pub fn is_nvidia(&self) -> bool {
        self.vendor == GpuVendor::Nvidia
    }

    /// The `fact_sources` value of a fact taken from the product table.
    pub const FROM_DATASHEET: &'static str = "datasheet";

    /// True when `fact` (a field name) is the product table's figure, not the driver's.
    pub fn from_datasheet(&self, fact: &str) -> bool {
        self.fact_sources.get(fact).map(String::as_str) == Some(Self::FROM_DATASHEET)
    }

    /// True when any fact of this GPU is the product table's.
    pub fn any_from_datasheet(&self) -> bool {
        self.fact_sources
            .values()
            .any(|v| v == Self::FROM_DATASHEET)
    }
}

/// How a GPU's identity was established, and how far it can be trusted.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct GpuIdentity {
    /// `nvml_and_pci_agree`: NVML's name is a board the PCI ids allow; `pci_unique`: no name
    /// from NVML, the PCI ids (and subsystem) name one board; `pci_ambiguous`: no name from
    /// NVML, the PCI ids allow several boards that differ in what an order checks;
    /// `contradicted`: NVML's name is none of the boards the PCI ids allow; `nvml_only`: NVML's
    /// name, PCI ids unknown to the product table; `unknown`: neither.
    pub certainty: String,
    /// The boards the PCI ids allow, when more than one (or NVML's name contradicts them).
    #[serde(default)]
    pub candidates: Vec<String>,
    /// How the identity was established, in words.
    pub detail: String,
}

impl GpuIdentity {
    /// NVML's name and the PCI ids agree.
    pub const AGREE: &'static str = "nvml_and_pci_agree";
    /// No NVML name; the PCI ids name one board.
    pub const PCI_UNIQUE: &'static str = "pci_unique";
    /// No NVML name; the PCI ids allow several boards.
    pub const PCI_AMBIGUOUS: &'static str = "pci_ambiguous";
    /// NVML's name contradicts the PCI ids.
    pub const CONTRADICTED: &'static str = "contradicted";
    /// NVML's name; the PCI ids are not in the product table (or not known).
    pub const NVML_ONLY: &'static str = "nvml_only";
    /// Neither NVML nor the product table names the board.
    pub const UNKNOWN: &'static str = "unknown";
}

/// A board as its datasheet describes it (the product table row), in base units.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct GpuDatasheet {
    /// Product name as nvidia-smi prints it.
    pub name: String,
    /// PCI `vendor:device` the row was found by, e.g. `10de:1e30`.
    pub pci_id: String,
    /// PCI subsystem `vendor:device`, where the machine gave one.
    pub pci_subsystem: Option<String>,
    /// GPU chip, e.g. `TU102`.
    pub chip: String,
    /// Architecture as nvidia-smi prints it (`Turing`, `Ada Lovelace`).
    pub architecture: String,
    pub compute_capability: Option<String>,
    /// `data center`, `workstation` or `geforce`.
    pub segment: String,
    /// A laptop or embedded GPU: the system maker sets its clocks and power, so there is no
    /// single rated clock or peak.
    #[serde(default)]
    pub mobile: bool,
    pub sm_count: Option<u32>,
    pub cuda_cores: Option<u32>,
    pub tensor_cores: Option<u32>,
    pub base_clock_mhz: Option<u32>,
    pub boost_clock_mhz: Option<u32>,
    /// Clock of the published tensor rate where it is not the boost clock.
    pub tensor_clock_mhz: Option<u32>,
    /// Memory as sold (GPU vendors' GB are GiB).
    pub memory_bytes: Option<u64>,
    /// `GDDR6`, `HBM3`, ...; `None` where the table does not say.
    pub memory_type: Option<String>,
    pub memory_bus_width_bits: Option<u32>,
    /// Data rate per pin, Gbit/s.
    pub memory_data_rate_gbps: Option<f64>,
    pub memory_bandwidth_bytes_per_s: Option<u64>,
    /// Published FP32 peak.
    pub fp32_tflops: Option<f64>,
    /// Published dense FP16 tensor peak (FP16 accumulate).
    pub fp16_tensor_tflops: Option<f64>,
    pub board_power_w: Option<u32>,
    pub pcie_gen: Option<u32>,
    pub pcie_width: Option<u32>,
    /// The NVIDIA document(s) the figures come from.
    pub source: String,
    /// What in the row is derived or taken from elsewhere.
    pub note: Option<String>,
    /// The fields above that rest on a third-party source only (no NVIDIA document gives
    /// them), by name: `["boost_clock_mhz", "board_power_w"]`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub third_party: Vec<String>,
}

/// One MIG instance (a GPU instance with a compute instance) of a MIG-enabled GPU.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct MigInstance {
    /// NVML's MIG device index on its GPU.
    pub index: u32,
    /// `MIG-...`.
    pub uuid: Option<String>,
    /// Profile, e.g. `3g.40gb`, from NVML's name of the MIG device.
    pub profile: Option<String>,
    pub gpu_instance_id: Option<u32>,
    pub compute_instance_id: Option<u32>,
    pub sm_count: Option<u32>,
    /// SMs × the architecture's FP32 lanes per SM.
    pub cuda_cores: Option<u32>,
    pub tensor_cores: Option<u32>,
    pub memory_bytes: Option<u64>,
    /// GPU and compute slices of the instance (of 7 on A100/H100).
    pub gpu_slices: Option<u32>,
    pub compute_slices: Option<u32>,
    pub copy_engines: Option<u32>,
    pub decoders: Option<u32>,
    pub encoders: Option<u32>,
    pub jpeg_decoders: Option<u32>,
    pub ofa_engines: Option<u32>,
    /// Rated FP32 peak of the instance: its CUDA cores × 2 × the GPU's rated clock.
    pub fp32_tflops: Option<f64>,
}

/// PCIe link: current (drops at idle) and maximum.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct Pcie {
    pub gen: Option<u32>,
    pub width: Option<u32>,
    pub max_gen: Option<u32>,
    pub max_width: Option<u32>,
    /// The card's own capability (PCI Link Capabilities); above `max_*` when the slot or
    /// an upstream port is narrower or slower.
    pub device_max_gen: Option<u32>,
    pub device_max_width: Option<u32>,
}

/// Volatile GPU state, ignored by `diff`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct GpuState {
    pub temperature_c: Option<u32>,
    pub fan_percent: Option<u32>,
    pub power_draw_w: Option<f64>,
    pub power_limit_w: Option<f64>,
    pub utilization_percent: Option<u32>,
    /// Memory controller busy time, percent.
    pub memory_utilization_percent: Option<u32>,
    pub memory_used_bytes: Option<u64>,
    pub persistence_mode: Option<bool>,
    pub ecc_enabled: Option<bool>,
    pub ecc_errors_corrected: Option<u64>,
    pub ecc_errors_uncorrected: Option<u64>,
    /// Uncorrected errors over the board's lifetime (survives reboots).
    pub ecc_errors_uncorrected_aggregate: Option<u64>,
    pub retired_pages_pending: Option<bool>,
    /// Corrected errors over the board's lifetime.
    #[serde(default)]
    pub ecc_errors_corrected_aggregate: Option<u64>,
    /// Pages retired after repeated single-bit errors.
    #[serde(default)]
    pub retired_pages_single_bit: Option<u64>,
    /// Pages retired after a double-bit (uncorrectable) error.
    #[serde(default)]
    pub retired_pages_double_bit: Option<u64>,
    /// Rows remapped after correctable errors (row remapping: A100, H100 and newer).
    #[serde(default)]
    pub remapped_rows_correctable: Option<u64>,
    /// Rows remapped after uncorrectable errors.
    #[serde(default)]
    pub remapped_rows_uncorrectable: Option<u64>,
    /// A remapping waits for a GPU reset.
    #[serde(default)]
    pub remapped_rows_pending: Option<bool>,
    /// A remapping failed: the memory has no spare row left where it was needed.
    #[serde(default)]
    pub remapped_rows_failure: Option<bool>,
    /// PCIe replays (retransmitted packets) since the driver loaded.
    #[serde(default)]
    pub pcie_replays: Option<u64>,
    /// Time the clocks were held below what was asked for by the power limit, ns.
    #[serde(default)]
    pub power_violation_ns: Option<u64>,
    /// Time the clocks were held below what was asked for by heat, ns.
    #[serde(default)]
    pub thermal_violation_ns: Option<u64>,
    pub throttle_reasons: Option<Vec<String>>,
    pub compute_processes: Option<Vec<GpuProcess>>,
}

/// A process using a GPU (host PID).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct GpuProcess {
    pub pid: u32,
    pub used_memory_bytes: Option<u64>,
}

/// Process and container limits, and the OS settings a training job runs into.
///
/// Everything here is about *this process* (a job started the same way sees the same),
/// read from /proc/self, its cgroup, /proc/meminfo and /sys; statvfs and
/// sched_getaffinity answers are recorded in `host.json` by `capture`.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Limits {
    /// CPUs this process may run on (sched_getaffinity, else `Cpus_allowed_list`), e.g. `0-1`.
    pub affinity_cpus: Option<String>,
    /// Number of CPUs in `affinity_cpus`.
    pub affinity_count: Option<u32>,
    /// Tightest cgroup CPU quota up the tree; `None` with no note means no quota.
    pub cpu_quota: Option<CpuQuota>,
    /// Tightest cgroup memory limit up the tree; `None` with no note means no limit.
    pub memory_limit: Option<MemoryLimit>,
    /// /proc/meminfo `MemTotal`.
    pub mem_total_bytes: Option<u64>,
    /// /proc/meminfo `MemAvailable` (Linux 3.14+).
    pub mem_available_bytes: Option<u64>,
    /// /proc/meminfo `SwapTotal`.
    pub swap_total_bytes: Option<u64>,
    /// /proc/meminfo `SwapFree`.
    pub swap_free_bytes: Option<u64>,
    /// The /dev/shm mount; `None` with a note when it is not mounted.
    pub shm: Option<Filesystem>,
    /// `RLIMIT_NOFILE` soft limit (`Max open files` in /proc/self/limits); `None` = unlimited.
    pub open_files_soft: Option<u64>,
    /// `RLIMIT_NOFILE` hard limit; `None` = unlimited.
    pub open_files_hard: Option<u64>,
    /// Transparent huge pages mode: `always`, `madvise` or `never`.
    pub transparent_hugepages: Option<String>,
    /// Distinct cpufreq governors over all policies, sorted; empty without cpufreq (VMs).
    pub governors: Vec<String>,
    /// Local filesystems (disk-backed, overlay, tmpfs at /dev/shm), by mount point.
    pub filesystems: Vec<Filesystem>,
}

/// A cgroup CPU bandwidth limit (`cpu.max` v2, `cpu.cfs_quota_us`/`cpu.cfs_period_us` v1).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct CpuQuota {
    /// Quota per period in µs.
    pub quota_us: u64,
    /// Period in µs.
    pub period_us: u64,
    /// quota ÷ period: how many CPUs' worth of time the group may use.
    pub cpus: f64,
    /// The file that set it, e.g. `/sys/fs/cgroup/cpu.max`.
    pub file: String,
}

/// A cgroup memory limit (`memory.max` v2, `memory.limit_in_bytes` v1).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct MemoryLimit {
    pub max_bytes: u64,
    /// Current usage of that cgroup (`memory.current` / `memory.usage_in_bytes`).
    pub used_bytes: Option<u64>,
    /// The file that set it.
    pub file: String,
}

/// One mounted filesystem and its space.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Filesystem {
    pub mount_point: String,
    /// `ext4`, `xfs`, `nfs4`, `tmpfs`, `overlay`, ...
    pub fstype: String,
    /// Mount source (`/dev/nvme0n1p2`, `server:/export`, `tmpfs`).
    pub source: String,
    /// `major:minor` of the device holding it.
    pub device: Option<String>,
    /// Whole-disk kernel name under it (`nvme0n1`), through partitions and device-mapper.
    pub disk: Option<String>,
    /// f_blocks × f_frsize (statvfs), else the tmpfs `size=` option.
    pub total_bytes: Option<u64>,
    /// f_bavail × f_frsize: free to an unprivileged user.
    pub available_bytes: Option<u64>,
}

/// Room to grow, read from the SMBIOS tables and joined with the GPUs and drives found.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct Headroom {
    /// CPU sockets (SMBIOS type 4), populated or empty; `None` when the table lists none.
    pub sockets: Option<Vec<CpuSocket>>,
    /// Sockets without a CPU.
    pub empty_sockets: Option<u32>,
    /// DIMM slots and how far memory can grow; `None` when the table lists no memory slots.
    pub memory: Option<MemoryHeadroom>,
    /// Expansion slots (type 9) with what sits in them; `None` when the table lists none.
    pub pcie_slots: Option<Vec<PcieSlot>>,
    /// Available PCIe slots wired x16 (data bus width 16) with no device found in them.
    pub free_x16_slots: Option<u32>,
    /// Power supplies (type 39) next to the GPUs' power limits.
    pub power: PowerHeadroom,
}

/// One CPU socket as the firmware lists it.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct CpuSocket {
    /// Socket designation, e.g. `CPU0`, `CPU 2`.
    pub designation: Option<String>,
    /// A CPU sits in the socket (type 4 status bit 6).
    pub populated: bool,
    /// CPU name when populated.
    pub model: Option<String>,
}

/// Memory slots per socket and the largest upgrades they allow.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct MemoryHeadroom {
    /// Physical memory arrays (type 16) of system RAM.
    pub arrays: Vec<MemoryArrayInfo>,
    /// Sum of the arrays' maximum capacity: every slot filled with the largest module allowed.
    pub max_capacity_bytes: Option<u64>,
    /// The most memory the installed CPUs address together (per-socket limit × populated
    /// sockets), from a sourced table where no driver reports it; `None` where the CPU
    /// is not in the table.
    #[serde(default)]
    pub cpu_max_capacity_bytes: Option<u64>,
    /// One socket's share of `cpu_max_capacity_bytes`.
    #[serde(default)]
    pub cpu_max_capacity_per_socket_bytes: Option<u64>,
    /// Where the CPU limit comes from (`Intel ARK: 2nd gen Xeon Scalable`).
    #[serde(default)]
    pub cpu_max_capacity_source: Option<String>,
    /// The lower of the board's (`max_capacity_bytes`) and the CPUs' limit: what binds.
    #[serde(default)]
    pub effective_max_capacity_bytes: Option<u64>,
    /// Which limit binds: `cpus` or `board`; `None` when either is unknown.
    #[serde(default)]
    pub max_capacity_bound_by: Option<String>,
    /// Memory device slots listed (type 17).
    pub slot_count: u32,
    /// Slots holding a module.
    pub used_slots: u32,
    /// Empty slots, wherever they are.
    pub free_slots: u32,
    /// Empty slots on populated sockets (those behind an empty socket cannot be used).
    pub usable_free_slots: u32,
    /// Sum of the installed modules; `None` when one module's size is unknown.
    pub installed_bytes: Option<u64>,
    /// Slots grouped by CPU socket; slots whose locator names no socket go to `unassigned`.
    pub groups: Vec<SocketMemory>,
    /// Size of the largest module installed (the one an upgrade would repeat).
    pub upgrade_module_bytes: Option<u64>,
    /// Type of that module, e.g. `DDR4`.
    pub upgrade_module_type: Option<String>,
    /// Installed memory plus every usable free slot filled with `upgrade_module_bytes`,
    /// capped by each array's maximum capacity.
    pub max_with_installed_module_bytes: Option<u64>,
    /// Whether the fill is balanced: equal DIMMs per channel (when channels are known) and
    /// per populated socket; `None` when it cannot be judged.
    pub balanced: Option<bool>,
    /// True when channels could be read from every slot's locator or bank.
    pub channels_derived: bool,
    /// The balance in words.
    pub balance_detail: String,
}

/// One physical memory array (type 16).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct MemoryArrayInfo {
    /// Maximum capacity the array supports.
    pub max_capacity_bytes: Option<u64>,
    /// Number of slots the array declares.
    pub slots: Option<u16>,
    /// Error correction, e.g. `Single-bit ECC`.
    pub ecc: Option<String>,
}

/// The DIMM slots of one CPU socket (or the unassigned group).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct SocketMemory {
    /// `socket 0`, `socket 1`, ... or `unassigned`.
    pub group: String,
    /// Socket index from 0, matching `headroom.sockets`.
    pub socket: Option<u32>,
    /// Whether a CPU sits in that socket; `None` when unknown.
    pub cpu_populated: Option<bool>,
    pub slots: u32,
    pub used: u32,
    pub free: u32,
    /// Locators of the empty slots.
    pub free_locators: Vec<String>,
    /// Installed DIMMs per memory channel, when every slot's channel is known.
    pub dimms_per_channel: Option<std::collections::BTreeMap<String, u32>>,
}

/// One expansion slot (type 9) and what was found in it.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct PcieSlot {
    /// Slot name as printed on the board, e.g. `SLOT4 PCIe3 x16 CPU0`.
    pub designation: Option<String>,
    /// True for PCI Express slots.
    pub is_pcie: bool,
    /// PCIe generation from the slot type code.
    pub pcie_gen: Option<u8>,
    /// Lanes wired (data bus width).
    pub width: Option<u8>,
    /// Physical slot size in lanes from the slot type code, when it names one.
    pub slot_size: Option<u8>,
    /// Firmware's current usage: `true` in use, `false` available.
    pub in_use: Option<bool>,
    /// PCI address the firmware gives for the slot.
    pub bus_address: Option<String>,
    /// GPUs and NVMe drives found in the slot, e.g. `GPU 0 Quadro RTX 6000 (0000:17:00.0)`.
    pub devices: Vec<String>,
}

/// Power supplies and the GPUs' share of them.
#[derive(Debug, Clone, Default, Serialize, Deserialize, JsonSchema, PartialEq)]
pub struct PowerHeadroom {
    /// Supplies the firmware lists (type 39); `None` with a note when it lists none.
    pub supplies: Option<Vec<PowerSupplyInfo>>,
    /// Sum of the supplies' maximum output (redundant groups counted once).
    pub capacity_w: Option<u32>,
    /// Sum of the GPUs' enforced power limits (NVML); 0 with no GPU.
    pub gpu_power_limit_w: Option<f64>,
    /// capacity − GPU power limits. CPU, memory, drive and board draw are not included.
    pub headroom_w: Option<f64>,
}

/// One power supply (type 39).
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema, PartialEq, Eq)]
pub struct PowerSupplyInfo {
    pub name: Option<String>,
    pub location: Option<String>,
    pub manufacturer: Option<String>,
    pub model_part_number: Option<String>,
    /// Maximum output, watts.
    pub max_power_w: Option<u16>,
    pub present: Option<bool>,
    pub hot_replaceable: Option<bool>,
    /// `OK`, `Non-critical`, `Critical`, `Other`; `None` when the firmware does not say.
    pub status: Option<String>,
    /// Power unit group; supplies sharing a non-zero group are redundant.
    pub group: Option<u8>,
}
