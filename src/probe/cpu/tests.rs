//! Parser tests on pasted real /proc and /sys text, named after the machine it came from.

use super::parse::model_name_ghz_mhz;
use super::*;

/// First CPU of the 2-socket AMD EPYC 7451 (util-linux dump x86_64-epyc_7451), flags cut.
const CPUINFO_EPYC_7451: &str = "processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 23
model\t\t: 1
model name\t: AMD EPYC 7451 24-Core Processor
stepping\t: 2
microcode\t: 0x8001227
cpu MHz\t\t: 2894.214
cache size\t: 512 KB
physical id\t: 0
siblings\t: 48
core id\t\t: 0
cpu cores\t: 24
apicid\t\t: 0
initial apicid\t: 0
fpu\t\t: yes
fpu_exception\t: yes
cpuid level\t: 13
wp\t\t: yes
flags\t\t: fpu vme de pse tsc msr sse sse2 ht fma avx avx2 sha_ni
bugs\t\t: sysret_ss_attrs null_seg spectre_v1 spectre_v2 spec_store_bypass
bogomips\t: 4590.83
TLB size\t: 2560 4K pages
clflush size\t: 64
cache_alignment\t: 64
address sizes\t: 48 bits physical, 48 bits virtual
power management: ts ttp tm hwpstate cpb eff_freq_ro [13] [14]

";

/// The first and last CPU of the Cortex-A510/A710/A715/X3 phone SoC (dump arm-A510-A710-A715-X3).
const CPUINFO_ARM_A510_X3: &str = "processor\t: 0
BogoMIPS\t: 38.40
Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma lrcpc dcpop sha3 sm3 sm4 asimddp sha512 asimdfhm dit uscat ilrcpc flagm ssbs sb paca pacg dcpodp flagm2 frint i8mm bf16 bti
CPU implementer\t: 0x41
CPU architecture: 8
CPU variant\t: 0x1
CPU part\t: 0xd46
CPU revision\t: 1

processor\t: 7
BogoMIPS\t: 38.40
Features\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm jscvt fcma lrcpc dcpop sha3 sm3 sm4 asimddp sha512 asimdfhm dit uscat ilrcpc flagm ssbs sb paca pacg dcpodp flagm2 frint i8mm bf16 bti
CPU implementer\t: 0x41
CPU architecture: 8
CPU variant\t: 0x1
CPU part\t: 0xd4e
CPU revision\t: 0

";

/// IBM POWER7 LPAR (dump ppc64-POWER7): two CPUs and the platform trailer.
const CPUINFO_POWER7: &str = "processor\t: 0
cpu\t\t: POWER7 (architected), altivec supported
clock\t\t: 3000.000000MHz
revision\t: 2.1 (pvr 003f 0201)

processor\t: 1
cpu\t\t: POWER7 (architected), altivec supported
clock\t\t: 3000.000000MHz
revision\t: 2.1 (pvr 003f 0201)

timebase\t: 512000000
platform\t: pSeries
model\t\t: IBM,8233-E8B
machine\t\t: CHRP IBM,8233-E8B
";

/// IBM z196 LPAR (dump s390-lpar): header and the first two per-CPU lines.
const CPUINFO_S390_LPAR: &str = "vendor_id       : IBM/S390
# processors    : 17
bogomips per cpu: 14367.00
features\t: esan3 zarch stfle msa ldisp eimm dfp etf3eh highgprs 
processor 1: version = 00,  identification = 279F25,  machine = 2817
processor 2: version = 00,  identification = 279F25,  machine = 2817
";

/// StarFive VisionFive 2 (dump rv64-visionfive2), first CPU.
const CPUINFO_VISIONFIVE2: &str = "processor\t: 0
hart\t\t: 3
isa\t\t: rv64imafdc_zicntr_zicsr_zifencei_zihpm_zba_zbb
mmu\t\t: sv39
uarch\t\t: sifive,u74-mc
mvendorid\t: 0x489
marchid\t\t: 0x8000000000000007
mimpid\t\t: 0x4210427
hart isa\t: rv64imafdc_zicntr_zicsr_zifencei_zihpm_zba_zbb

";

/// 2-vCPU KVM guest on a 5th-gen Xeon (the development VM), first CPU, flags cut.
const CPUINFO_KVM_XEON_VM: &str = "processor\t: 0
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 207
model name\t: Intel(R) Xeon(R) Processor
stepping\t: 2
microcode\t: 0x1
cpu MHz\t\t: 2300.000
cache size\t: 266240 KB
physical id\t: 0
siblings\t: 2
core id\t\t: 0
cpu cores\t: 2
apicid\t\t: 0
initial apicid\t: 0
fpu\t\t: yes
fpu_exception\t: yes
cpuid level\t: 28
wp\t\t: yes
flags\t\t: fpu sse2 fma avx2 hypervisor avx512f avx512_bf16 avx512_vnni amx_tile amx_bf16 amx_int8
bogomips\t: 4600.00
clflush size\t: 64
cache_alignment\t: 64
address sizes\t: 48 bits physical, 57 bits virtual
power management:

processor\t: 1
vendor_id\t: GenuineIntel
cpu family\t: 6
model\t\t: 207
model name\t: Intel(R) Xeon(R) Processor
physical id\t: 0
core id\t\t: 1
flags\t\t: fpu sse2 fma avx2 hypervisor avx512f avx512_bf16 avx512_vnni amx_tile amx_bf16 amx_int8

";

#[test]
fn cpuinfo_epyc_7451() {
    let info = parse_cpuinfo(CPUINFO_EPYC_7451);
    assert_eq!(detect_arch(&info), Arch::X86);
    assert_eq!(info.processors.len(), 1);
    assert_eq!(info.processors[0].id, Some(0));
    assert_eq!(
        info.get("model name"),
        Some("AMD EPYC 7451 24-Core Processor")
    );
    assert_eq!(info.get("vendor_id"), Some("AuthenticAMD"));
    assert_eq!(info.get("cpu family"), Some("23"));
    assert_eq!(info.get("microcode"), Some("0x8001227"));
    // `power management` holds a colon-free value with brackets; it must not break the block.
    assert_eq!(
        info.get("power management"),
        Some("ts ttp tm hwpstate cpb eff_freq_ro [13] [14]")
    );
    assert_eq!(info.x86_topology(), Some((1, 1)));
    // AMD names carry no clock.
    assert_eq!(model_name_ghz_mhz("AMD EPYC 7451 24-Core Processor"), None);
}

#[test]
fn cpuinfo_arm_a510_a710_a715_x3() {
    let info = parse_cpuinfo(CPUINFO_ARM_A510_X3);
    assert_eq!(detect_arch(&info), Arch::Arm);
    let ids: Vec<_> = info.processors.iter().map(|p| p.id).collect();
    assert_eq!(ids, vec![Some(0), Some(7)]);
    assert_eq!(info.get("model name"), None);
    assert_eq!(
        info.get("CPU implementer").and_then(parse::parse_hex),
        Some(0x41)
    );
    assert_eq!(arm::implementer_name(0x41), "ARM");
    assert_eq!(arm::part_name(0x41, 0xd46), Some("Cortex-A510"));
    assert_eq!(info.processors[1].fields["CPU part"], "0xd4e");
    assert_eq!(arm::part_name(0x41, 0xd4e), Some("Cortex-X3"));
    // The same part number means different cores for different implementers.
    assert_eq!(arm::part_name(0x41, 0xd40), Some("Neoverse-V1"));
    assert_eq!(arm::part_name(0x48, 0xd40), Some("Cortex-A76"));
}

#[test]
fn cpuinfo_power7() {
    let info = parse_cpuinfo(CPUINFO_POWER7);
    assert_eq!(detect_arch(&info), Arch::Power);
    assert_eq!(info.processors.len(), 2);
    assert_eq!(
        info.get("cpu"),
        Some("POWER7 (architected), altivec supported")
    );
    // The trailer is not a CPU.
    assert_eq!(info.global.get("platform").copied(), Some("pSeries"));
    assert_eq!(info.global.get("model").copied(), Some("IBM,8233-E8B"));
}

#[test]
fn cpuinfo_s390_lpar() {
    let info = parse_cpuinfo(CPUINFO_S390_LPAR);
    assert_eq!(detect_arch(&info), Arch::S390);
    let ids: Vec<_> = info.processors.iter().map(|p| p.id).collect();
    assert_eq!(ids, vec![Some(1), Some(2)]);
    assert_eq!(info.get("vendor_id"), Some("IBM/S390"));
    assert_eq!(info.s390_machine().as_deref(), Some("2817"));
    assert_eq!(
        info.get("features"),
        Some("esan3 zarch stfle msa ldisp eimm dfp etf3eh highgprs")
    );
}

#[test]
fn sysinfo_s390_lpar() {
    let t = parse_sysinfo_topology(
        "CPU Topology HW:      0 0 0 4 6 4\nCPU Topology SW:      0 0 0 4 6 4\nCPUs Total:           54\n",
    )
    .unwrap();
    assert_eq!(
        t,
        parse::SysinfoTopology {
            drawers: 0,
            books: 4,
            sockets_per_book: 6,
            cores_per_socket: 4
        }
    );
    assert_eq!(parse_sysinfo_topology("Manufacturer: IBM\n"), None);
}

#[test]
fn cpuinfo_visionfive2() {
    let info = parse_cpuinfo(CPUINFO_VISIONFIVE2);
    assert_eq!(detect_arch(&info), Arch::RiscV);
    assert_eq!(info.get("uarch"), Some("sifive,u74-mc"));
    assert_eq!(info.get("mvendorid"), Some("0x489"));
    let ext = parse::riscv_extensions(info.get("isa").unwrap());
    assert_eq!(&ext[..6], &["i", "m", "a", "f", "d", "c"]);
    assert_eq!(ext.last().map(String::as_str), Some("zbb"));
}

#[test]
fn cpuinfo_kvm_xeon_vm() {
    let info = parse_cpuinfo(CPUINFO_KVM_XEON_VM);
    assert_eq!(detect_arch(&info), Arch::X86);
    assert_eq!(info.processors.len(), 2);
    assert_eq!(info.get("model name"), Some("Intel(R) Xeon(R) Processor"));
    assert_eq!(info.get("model"), Some("207"));
    // One package, two cores, from `physical id` / `core id`.
    assert_eq!(info.x86_topology(), Some((2, 1)));
    // No "@ x.xxGHz" in a VM's generic name.
    assert_eq!(model_name_ghz_mhz("Intel(R) Xeon(R) Processor"), None);
}

#[test]
fn cpulists_and_masks_epyc_7451() {
    // package_cpus_list and thread_siblings of cpu0 on the EPYC 7451.
    assert_eq!(parse_cpulist("0-23,48-71").unwrap().len(), 48);
    assert_eq!(parse_cpulist("0,48").unwrap(), vec![0, 48]);
    assert_eq!(parse_cpulist("").unwrap(), Vec::<u32>::new());
    assert!(parse_cpulist("0-x").is_err());
    assert!(parse_cpulist("5-1").is_err());
    // shared_cpu_map of the EPYC's first L3: CPUs 0-2 and 48-50.
    assert_eq!(
        parse_cpumask("00000000,00070000,00000007").unwrap(),
        vec![0, 1, 2, 48, 49, 50]
    );
    assert!(parse_cpumask("zz").is_err());
    assert_eq!(format_cpulist(&[0, 1, 2, 3, 4, 5, 48, 49, 50]), "0-5,48-50");
    assert_eq!(format_cpulist(&[0, 6, 7]), "0,6-7");
    assert_eq!(format_cpulist(&[]), "");
}

#[test]
fn cache_sizes_and_node_meminfo() {
    assert_eq!(parse_cache_size("32K"), Some(32 * 1024));
    assert_eq!(parse_cache_size("266240K\n"), Some(266240 * 1024));
    assert_eq!(parse_cache_size("8M"), Some(8 << 20));
    assert_eq!(parse_cache_size("0K"), None);
    assert_eq!(parse_cache_size("big"), None);
    assert_eq!(
        parse_node_meminfo("Node 0 MemTotal:        5204180 kB\nNode 0 MemFree:   1 kB\n"),
        Some(5204180 * 1024)
    );
}

#[test]
fn model_name_clock_xeon_gold_6254() {
    assert_eq!(
        model_name_ghz_mhz("Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz"),
        Some(3100)
    );
    assert_eq!(
        model_name_ghz_mhz("11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz"),
        Some(2800)
    );
}

#[test]
fn fma_units_from_brand() {
    let gold = "Intel(R) Xeon(R) Gold 6254 CPU @ 3.10GHz";
    assert_eq!(avx512_fma_units(gold, Some(85)), Some(2));
    assert_eq!(
        avx512_fma_units("Intel(R) Xeon(R) Bronze 3104 CPU @ 1.70GHz", Some(85)),
        Some(1)
    );
    assert_eq!(
        avx512_fma_units("Intel(R) Xeon(R) Gold 5118 CPU @ 2.30GHz", Some(85)),
        Some(1)
    );
    assert_eq!(
        avx512_fma_units("Intel(R) Xeon(R) Gold 5122 CPU @ 3.60GHz", Some(85)),
        Some(2)
    );
    assert_eq!(
        avx512_fma_units("Intel(R) Xeon(R) Platinum 8180 CPU @ 2.50GHz", Some(85)),
        Some(2)
    );
    assert_eq!(
        avx512_fma_units("11th Gen Intel(R) Core(TM) i7-1165G7 @ 2.80GHz", Some(140)),
        Some(1)
    );
    // A generic VM name on a newer Xeon: not derivable.
    assert_eq!(
        avx512_fma_units("Intel(R) Xeon(R) Processor", Some(207)),
        None
    );
}
