//! What each fact of the report is called, for people: one table, keyed by the fact's field
//! path in the JSON report (list items as `[]`). `label` is its name as a row of its part
//! (`Cores`, under CPU): the inventory report and the spec sheet show it
//! (`render::rows`), and a note about the fact is named by it (`GPU 0 fan speed`).
//! `alone` is its name without its part around it (`CPU cores (all sockets)`), as a
//! `verify` line shows it: `requirement::FIELDS` takes its labels from here.

/// The names of one fact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Name {
    /// Its field in the JSON report, list indices left out: `cpu.cores`, `gpus[].sm_count`.
    pub path: &'static str,
    /// Its name as a row of its part of the report.
    pub label: &'static str,
    /// Its name standing alone, where the label alone does not say it.
    alone: Option<&'static str>,
}

impl Name {
    /// Its name standing alone: `CPU cores (all sockets)`; the label where that is enough.
    pub const fn alone(&self) -> &'static str {
        match self.alone {
            Some(a) => a,
            None => self.label,
        }
    }
}

macro_rules! names {
    ($($id:ident = $path:literal, $label:literal $(/ $alone:literal)?;)*) => {
        $(
            #[doc = concat!("`", $path, "`: ", $label, ".")]
            pub const $id: Name = Name {
                path: $path,
                label: $label,
                alone: names!(@alone $($alone)?),
            };
        )*
        /// Every name, in report order.
        pub static ALL: &[Name] = &[$($id),*];
    };
    (@alone) => { None };
    (@alone $a:literal) => { Some($a) };
}

names! {
    HOSTNAME = "hostname", "Host";
    CAPTURED_AT = "captured_at", "Captured";
    SOURCE = "source", "Source";

    SYSTEM = "system", "System";
    SYSTEM_VENDOR = "system.vendor", "Vendor" / "System vendor";
    SYSTEM_PRODUCT = "system.product", "Product" / "System model";
    SYSTEM_VERSION = "system.version", "Version";
    SYSTEM_FAMILY = "system.family", "Family";
    SYSTEM_SKU = "system.sku", "SKU";
    SYSTEM_SERIAL = "system.serial", "Serial";
    SYSTEM_UUID = "system.uuid", "UUID";
    BOARD_VENDOR = "system.board_vendor", "Board vendor";
    BOARD_NAME = "system.board_name", "Board name";
    BOARD_VERSION = "system.board_version", "Board version";
    BOARD_SERIAL = "system.board_serial", "Board serial";
    BIOS_VENDOR = "system.bios_vendor", "BIOS vendor";
    BIOS_VERSION = "system.bios_version", "BIOS version";
    BIOS_DATE = "system.bios_date", "BIOS date";
    CHASSIS = "system.chassis_type", "Chassis" / "Chassis type";
    VIRTUALIZATION = "system.virtualization", "Virtual machine";

    OS = "os", "OS";
    OS_NAME = "os.name", "OS";
    OS_VERSION = "os.version", "OS version";
    OS_PRETTY_NAME = "os.pretty_name", "OS";
    KERNEL = "os.kernel", "Kernel";
    ARCH = "os.arch", "Architecture";

    CPU = "cpu", "CPU";
    CPU_VENDOR = "cpu.vendor", "Vendor" / "CPU vendor";
    CPU_MODEL = "cpu.model", "Model" / "CPU model";
    CPU_SOCKET_MODELS = "cpu.socket_models", "Socket models";
    CPU_FAMILY = "cpu.family", "Family";
    CPU_MODEL_ID = "cpu.model_id", "Model number";
    CPU_STEPPING = "cpu.stepping", "Stepping";
    CPU_MICROARCHITECTURE = "cpu.microarchitecture", "Generation" / "CPU generation";
    CPU_CODENAME = "cpu.codename", "Codename";
    CPU_MICROCODE = "cpu.microcode", "Microcode";
    CPU_SOCKETS = "cpu.sockets", "Sockets" / "CPU sockets";
    CPU_CORES = "cpu.cores", "Cores" / "CPU cores (all sockets)";
    CPU_CORES_PER_SOCKET = "cpu.cores_per_socket", "Cores per socket";
    CPU_THREADS = "cpu.threads", "Threads" / "CPU threads";
    CPU_THREADS_PER_CORE = "cpu.threads_per_core", "Threads per core";
    CPUS_PRESENT = "cpu.cpus_present", "CPUs present";
    CPUS_ONLINE = "cpu.online", "CPUs online";
    CPUS_OFFLINE = "cpu.offline", "CPUs offline";
    CPU_BASE_CLOCK = "cpu.base_mhz", "Base clock" / "CPU base clock";
    CPU_BASE_CLOCK_SOURCE = "cpu.base_mhz_source", "Base clock source";
    CPU_MAX_CLOCK = "cpu.max_mhz", "Max clock" / "CPU max (turbo) clock";
    CPU_MIN_CLOCK = "cpu.min_mhz", "Min clock";
    CPU_CLOCK_NOW = "cpu.current_mhz", "Clock now";
    CPU_SCALING_DRIVER = "cpu.scaling_driver", "Frequency driver";
    CPU_GOVERNOR = "cpu.governor", "Frequency governor";
    CPU_CACHES = "cpu.caches", "Caches";
    NUMA_NODES = "cpu.numa_nodes", "NUMA nodes";
    NUMA_NODE = "cpu.numa_nodes[]", "NUMA node";
    NUMA_NODE_CPUS = "cpu.numa_nodes[].cpus", "CPUs";
    NUMA_NODE_MEMORY = "cpu.numa_nodes[].memory_bytes", "Local memory";
    CPU_CORE_TYPES = "cpu.core_types", "Core types";
    CPU_ISA = "cpu.isa", "ISA" / "CPU features";
    CPU_FLAGS = "cpu.flags", "Flags";
    CPU_FMA_UNITS = "cpu.fma_units", "AVX-512 FMA units";
    CPU_FP64_PEAK = "cpu.peak_fp64_gflops", "FP64 peak";

    MEMORY = "memory", "Memory";
    MEMORY_INSTALLED = "memory.total_bytes", "Installed" / "Memory installed";
    MEMORY_USABLE = "memory.usable_bytes", "Usable (MemTotal)";
    DIMM_SLOTS = "memory.slot_count", "DIMM slots";
    DIMMS = "memory.dimms", "DIMMs" / "DIMMs installed";
    EMPTY_SLOTS = "memory.empty_slots", "Empty slots";
    DIMM = "memory.dimms[]", "DIMM";
    DIMM_LOCATOR = "memory.dimms[].locator", "Slot";
    DIMM_SIZE = "memory.dimms[].size_bytes", "Size" / "DIMM size (each)";
    DIMM_TYPE = "memory.dimms[].type", "Type" / "DIMM type";
    DIMM_SPEED = "memory.dimms[].speed_mts", "Speed" / "DIMM speed (each)";
    DIMM_MANUFACTURER = "memory.dimms[].manufacturer", "Manufacturer";
    DIMM_PART_NUMBER = "memory.dimms[].part_number", "Part number";
    DIMM_SERIAL = "memory.dimms[].serial", "Serial";

    GPUS = "gpus", "GPUs" / "GPU count";
    GPU = "gpus[]", "GPU";
    GPU_NAME = "gpus[].name", "Name";
    GPU_PCI_ADDRESS = "gpus[].pci_address", "PCI address";
    GPU_FACT_SOURCES = "gpus[].fact_sources", "Facts from";
    GPU_DATASHEET_CHECK = "gpus[].datasheet_mismatches", "Datasheet check";
    GPU_ARCHITECTURE = "gpus[].architecture", "Architecture" / "GPU architecture";
    GPU_COMPUTE_CAPABILITY = "gpus[].compute_capability", "Compute capability";
    GPU_SMS = "gpus[].sm_count", "SMs";
    GPU_CUDA_CORES = "gpus[].cuda_cores", "CUDA cores" / "GPU CUDA cores";
    GPU_TENSOR_CORES = "gpus[].tensor_cores", "Tensor cores" / "GPU Tensor cores";
    GPU_MEMORY = "gpus[].vram_bytes", "Memory" / "GPU memory";
    GPU_MEMORY_BUS = "gpus[].memory_bus_width_bits", "Memory bus";
    GPU_MEMORY_BANDWIDTH = "gpus[].memory_bandwidth_bytes_per_s", "Memory bandwidth";
    GPU_RATED_CLOCK = "gpus[].rated_clock_mhz", "Rated boost clock";
    GPU_RATED_TENSOR_CLOCK = "gpus[].rated_tensor_clock_mhz", "Rated Tensor clock";
    GPU_MAX_CUSTOMER_BOOST = "gpus[].max_customer_boost_clock_mhz", "Max customer boost clock";
    GPU_MAX_SM_CLOCK = "gpus[].max_sm_clock_mhz", "Max SM clock";
    GPU_MAX_MEMORY_CLOCK = "gpus[].max_memory_clock_mhz", "Max memory clock";
    GPU_FP32 = "gpus[].fp32_tflops", "FP32 peak";
    GPU_FP16_TENSOR = "gpus[].fp16_tensor_tflops", "FP16 Tensor peak (dense)";
    GPU_FP16_TENSOR_FP32_ACC = "gpus[].fp16_tensor_fp32_acc_tflops", "FP16 Tensor, FP32 accumulate";
    GPU_FP32_MAX_CLOCK = "gpus[].fp32_tflops_max_clock", "FP32 peak at max clock";
    GPU_FP16_TENSOR_MAX_CLOCK = "gpus[].fp16_tensor_tflops_max_clock", "FP16 Tensor peak at max clock";
    GPU_FP16_TENSOR_FP32_ACC_MAX_CLOCK = "gpus[].fp16_tensor_fp32_acc_tflops_max_clock",
        "FP16 Tensor, FP32 accumulate at max clock";
    GPU_PCIE = "gpus[].pcie", "PCIe link";
    GPU_PCIE_NOW = "gpus[].pcie.width", "PCIe link (now)" / "GPU PCIe link width";
    GPU_PCIE_GEN = "gpus[].pcie.gen", "PCIe generation (now)";
    GPU_PCIE_MAX = "gpus[].pcie.max_width", "PCIe link (max)";
    GPU_PCIE_MAX_GEN = "gpus[].pcie.max_gen", "PCIe generation (max)" / "GPU PCIe generation (max)";
    GPU_NUMA_NODE = "gpus[].numa_node", "NUMA node";
    GPU_SOCKET = "gpus[].socket", "CPU socket";
    GPU_LOCAL_CPUS = "gpus[].local_cpus", "Local CPUs";
    GPU_BOARD_PART_NUMBER = "gpus[].board_part_number", "Board part number";
    GPU_VBIOS = "gpus[].vbios_version", "VBIOS";
    GPU_DRIVER = "gpus[].driver_version", "Driver";
    GPU_CUDA = "gpus[].cuda_version", "CUDA version";
    GPU_MIG = "gpus[].mig_enabled", "MIG";
    GPU_MIG_INSTANCES = "gpus[].mig_instances", "MIG instances";
    GPU_TEMPERATURE = "gpus[].state.temperature_c", "Temperature";
    GPU_FAN = "gpus[].state.fan_percent", "Fan speed";
    GPU_POWER_DRAW = "gpus[].state.power_draw_w", "Power draw";
    GPU_POWER_LIMIT = "gpus[].state.power_limit_w", "Power limit";
    GPU_UTILIZATION = "gpus[].state.utilization_percent", "Utilisation";
    GPU_MEMORY_USED = "gpus[].state.memory_used_bytes", "Memory used";
    GPU_PERSISTENCE = "gpus[].state.persistence_mode", "Persistence mode";
    GPU_ECC = "gpus[].state.ecc_enabled", "ECC mode";
    GPU_ECC_CORRECTED = "gpus[].state.ecc_errors_corrected", "Corrected ECC errors";
    GPU_ECC_UNCORRECTED = "gpus[].state.ecc_errors_uncorrected", "Uncorrected ECC errors";
    GPU_RETIRED_PAGES_PENDING = "gpus[].state.retired_pages_pending", "Retired pages pending";
    GPU_ECC_UNCORRECTED_LIFETIME = "gpus[].state.ecc_errors_uncorrected_aggregate",
        "Uncorrected ECC errors (lifetime)";
    GPU_ECC_CORRECTED_LIFETIME = "gpus[].state.ecc_errors_corrected_aggregate",
        "Corrected ECC errors (lifetime)";
    GPU_RETIRED_SINGLE_BIT = "gpus[].state.retired_pages_single_bit", "Retired pages (single-bit)";
    GPU_RETIRED_DOUBLE_BIT = "gpus[].state.retired_pages_double_bit", "Retired pages (double-bit)";
    GPU_REMAPPED_CORRECTABLE = "gpus[].state.remapped_rows_correctable",
        "Rows remapped (correctable)";
    GPU_REMAPPED_UNCORRECTABLE = "gpus[].state.remapped_rows_uncorrectable",
        "Rows remapped (uncorrectable)";
    GPU_REMAP_PENDING = "gpus[].state.remapped_rows_pending", "Row remap pending";
    GPU_REMAP_FAILURE = "gpus[].state.remapped_rows_failure", "Row remapping";
    GPU_PCIE_REPLAYS = "gpus[].state.pcie_replays", "PCIe replays";
    GPU_POWER_VIOLATION = "gpus[].state.power_violation_ns", "Power-limit slowdown";
    GPU_THERMAL_VIOLATION = "gpus[].state.thermal_violation_ns", "Thermal slowdown";
    GPU_THROTTLE = "gpus[].state.throttle_reasons", "Throttle reasons";
    GPU_PROCESSES = "gpus[].state.compute_processes", "Compute processes";
    GPU_UUID = "gpus[].uuid", "UUID";
    GPU_SERIAL = "gpus[].serial", "Serial";
    GPU_VENDOR = "gpus[].vendor", "Vendor";
    GPU_DRM = "gpus[].drm", "Kernel driver facts";
    GPU_DRM_DRIVER = "gpus[].drm.driver", "Kernel driver";
    GPU_DRM_MAX_CLOCK = "gpus[].drm.max_core_clock_mhz", "Max core clock";
    GPU_DRM_CLOCK = "gpus[].drm.core_clock_mhz", "Core clock";
    GPU_PCI_DEVICE_ID = "gpus[].pci_device_id", "PCI device";

    NICS = "nics", "Network adapters" / "Network adapter count";
    NIC = "nics[]", "Network adapter";
    NIC_NAME = "nics[].name", "Controller" / "Network adapter model";
    NIC_BOARD = "nics[].board", "Board";
    NIC_PCI_ADDRESS = "nics[].pci_address", "PCI address";
    NIC_DRIVER = "nics[].driver", "Driver";
    NIC_FIRMWARE = "nics[].firmware", "Firmware";
    NIC_MAX_SPEED = "nics[].max_speed_mbps", "Max speed" / "Network adapter speed";
    NIC_PCIE = "nics[].pcie", "PCIe link";
    NIC_NUMA_NODE = "nics[].numa_node", "NUMA node";
    NIC_PORTS = "nics[].ports", "Ports" / "Ports per adapter";
    NIC_PORT = "nics[].ports[]", "Port";
    NIC_PORT_SPEED = "nics[].ports[].speed_mbps", "Link speed";
    NIC_PORT_MAC = "nics[].ports[].mac", "MAC address";
    NIC_PORT_MAX_SPEED = "nics[].ports[].max_speed_mbps", "Port max speed";

    DRIVES = "drives", "Drives" / "Drive count";
    DRIVE = "drives[]", "Drive";
    DRIVE_NAME = "drives[].name", "Name";
    DRIVE_MODEL = "drives[].model", "Model" / "Drive model";
    DRIVE_SIZE = "drives[].size_bytes", "Size" / "Drive capacity";
    DRIVE_KIND = "drives[].kind", "Kind";
    DRIVE_TRANSPORT = "drives[].transport", "Transport" / "Drive transport";
    DRIVE_NUMA_NODE = "drives[].numa_node", "NUMA node";
    DRIVE_PCI_ADDRESS = "drives[].pci_address", "PCI address";
    DRIVE_SERIAL = "drives[].serial", "Serial";
    DRIVE_FIRMWARE = "drives[].firmware", "Firmware";

    HEADROOM = "headroom", "Headroom";
    HEADROOM_SOCKETS = "headroom.sockets", "CPU sockets";
    HEADROOM_EMPTY_SOCKETS = "headroom.empty_sockets", "Empty CPU sockets";
    HEADROOM_MEMORY = "headroom.memory", "Memory";
    HEADROOM_BALANCE = "headroom.memory.balanced", "Memory balance";
    HEADROOM_FREE_DIMM_SLOTS = "headroom.memory.usable_free_slots", "Usable free DIMM slots"
        / "Free DIMM slots (usable)";
    HEADROOM_MAX_MEMORY = "headroom.memory.max_capacity_bytes", "Maximum memory"
        / "Maximum memory (all slots)";
    HEADROOM_CPU_MAX_MEMORY = "headroom.memory.cpu_max_capacity_bytes", "CPUs' memory limit";
    HEADROOM_PCIE_SLOTS = "headroom.pcie_slots", "PCIe slots";
    HEADROOM_FREE_X16_SLOTS = "headroom.free_x16_slots", "Free x16 PCIe slots";
    HEADROOM_POWER = "headroom.power", "Power";
    HEADROOM_GPU_POWER_LIMITS = "headroom.power.gpu_power_limit_w", "GPU power limits";
    HEADROOM_POWER_SUPPLIES = "headroom.power.supplies", "Power supplies";

    HEALTH = "health", "Health";
    HEALTH_DRIVE = "health.drives[]", "Health";
    HEALTH_DRIVE_TEMPERATURE = "health.drives[].temperature_c", "Temperature";
    HEALTH_DRIVE_USED = "health.drives[].percentage_used", "Endurance used" / "Drive endurance used";
    HEALTH_DRIVE_HOURS = "health.drives[].power_on_hours", "Power-on hours" / "Drive power-on hours";
    HEALTH_DRIVE_CYCLES = "health.drives[].power_cycles", "Power cycles";
    HEALTH_DRIVE_UNSAFE = "health.drives[].unsafe_shutdowns", "Unsafe shutdowns";
    HEALTH_DRIVE_MEDIA_ERRORS = "health.drives[].media_errors", "Media errors";
    HEALTH_DRIVE_ERROR_LOG = "health.drives[].error_log_entries", "Error log entries";
    HEALTH_DRIVE_READ = "health.drives[].data_read_bytes", "Data read";
    HEALTH_DRIVE_WRITTEN = "health.drives[].data_written_bytes", "Data written";
    HEALTH_DRIVE_SPARE = "health.drives[].available_spare_percent", "Spare left";
    HEALTH_DRIVE_SPARE_THRESHOLD = "health.drives[].available_spare_threshold_percent",
        "Spare threshold";
    HEALTH_DRIVE_REALLOCATED = "health.drives[].reallocated_sectors", "Reallocated sectors";
    HEALTH_MEMORY = "health.memory", "Memory errors";
    HEALTH_MEMORY_CORRECTED = "health.memory.corrected_errors", "Corrected memory errors";
    HEALTH_MEMORY_UNCORRECTED = "health.memory.uncorrected_errors", "Uncorrected memory errors";
    HEALTH_EDAC_SLOT = "health.memory.controllers[].dimms[].locator", "SMBIOS slot of EDAC's modules";
    HEALTH_PCIE = "health.pcie", "PCIe errors";
    HEALTH_PCIE_FUNCTION = "health.pcie[]", "PCIe errors";
    HEALTH_PCIE_FATAL = "health.pcie[].fatal", "Fatal errors" / "PCIe fatal errors";
    HEALTH_PCIE_NONFATAL = "health.pcie[].nonfatal", "Non-fatal errors"
        / "PCIe uncorrected (non-fatal) errors";
    HEALTH_PCIE_CORRECTABLE = "health.pcie[].correctable", "Corrected errors"
        / "PCIe corrected errors";
    HEALTH_CPU = "health.cpu", "CPU throttling";

    LIMITS = "limits", "Limits";
    LIMITS_AFFINITY = "limits.affinity_cpus", "CPU affinity";
    LIMITS_CPU_QUOTA = "limits.cpu_quota", "CPU quota";
    LIMITS_MEMORY_LIMIT = "limits.memory_limit", "Memory limit";
    LIMITS_MEM_AVAILABLE = "limits.mem_available_bytes", "Available memory";
    LIMITS_OPEN_FILES = "limits.open_files_soft", "Open files limit";
    LIMITS_SHM = "limits.shm", "/dev/shm";
    LIMITS_THP = "limits.transparent_hugepages", "Transparent huge pages";
    LIMITS_FILESYSTEMS = "limits.filesystems", "Filesystems";
}

/// The name of the fact at `path` (list indices may be left in: `gpus[1].sm_count`).
pub fn find(path: &str) -> Option<&'static Name> {
    let mut shape = String::with_capacity(path.len());
    let mut in_index = false;
    for c in path.chars() {
        match c {
            '[' => {
                in_index = true;
                shape.push('[');
            }
            ']' => {
                in_index = false;
                shape.push(']');
            }
            _ if in_index => {}
            c => shape.push(c),
        }
    }
    ALL.iter().find(|n| n.path == shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_path_is_named_once() {
        let mut paths: Vec<&str> = ALL.iter().map(|n| n.path).collect();
        let n = paths.len();
        paths.sort_unstable();
        paths.dedup();
        assert_eq!(paths.len(), n, "a path is named twice");
    }

    #[test]
    fn paths_are_found_with_or_without_their_indices() {
        assert_eq!(find("gpus[1].state.fan_percent"), Some(&GPU_FAN));
        assert_eq!(find("gpus[].state.fan_percent"), Some(&GPU_FAN));
        assert_eq!(
            find("cpu.cores").map(Name::alone),
            Some("CPU cores (all sockets)")
        );
        assert_eq!(
            find("cpu.cores_per_socket").map(Name::alone),
            Some("Cores per socket")
        );
        assert_eq!(find("gpus[0].no_such_field"), None);
    }
}
