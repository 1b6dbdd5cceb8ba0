//! Machine instructions the probes ask of the CPU itself, whatever the OS: CPUID.

/// Executes CPUID for `leaf` and `subleaf`: `[eax, ebx, ecx, edx]`. Only x86_64 has it;
/// elsewhere the answer is zeros, and `probe::cpuid` never asks there.
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code, unused_unsafe)]
pub fn cpuid(leaf: u32, subleaf: u32) -> [u32; 4] {
    // SAFETY: CPUID exists on every x86_64 CPU, reads no memory and has no side effects.
    // Newer Rust declares the intrinsic safe; the block keeps older compilers (which declare
    // it unsafe) building the same code.
    let r = unsafe { std::arch::x86_64::__cpuid_count(leaf, subleaf) };
    [r.eax, r.ebx, r.ecx, r.edx]
}

/// No CPUID off x86_64.
#[cfg(not(target_arch = "x86_64"))]
pub fn cpuid(_leaf: u32, _subleaf: u32) -> [u32; 4] {
    [0; 4]
}
