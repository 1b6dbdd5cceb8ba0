//! rigcheck binary: parse arguments, run, and turn the outcome into an exit code.

// Linux starts at a C `main` of its own (below) instead of std's runtime start.
#![cfg_attr(target_os = "linux", no_main)]

use std::process::ExitCode;

fn run() -> ExitCode {
    let cli = match rigcheck::cli::Cli::from_args() {
        Ok(cli) => cli,
        Err(e) => return rigcheck::usage_error(&e),
    };
    match rigcheck::run(&cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("rigcheck: {}", rigcheck::io::error_line(&e.to_string()));
            ExitCode::from(rigcheck::outcome::EXIT_ERROR)
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn main() -> ExitCode {
    run()
}

/// The C entry point, without std's runtime start. On Linux that start asks glibc for the
/// main thread's stack (glibc reads and parses /proc/self/maps for it) to mark a guard page,
/// and maps an alternate signal stack to report a stack overflow by name: 20 system calls
/// and about 0.15 ms of each run (a 2-core virtual machine). What rigcheck needs of that
/// start is done here: closed standard descriptors opened on /dev/null and SIGPIPE ignored
/// (`sys::process_start`), a panic ended with std's exit code 101, stdout flushed. Arguments
/// still reach `std::env::args`: glibc hands them to std as the program loads.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
#[unsafe(no_mangle)]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    rigcheck::sys::process_start();
    let code = std::panic::catch_unwind(run).unwrap_or(ExitCode::from(101));
    let _ = std::io::Write::flush(&mut std::io::stdout());
    // `ExitCode` keeps its number to itself; every one rigcheck makes is from a u8.
    (0..=u8::MAX)
        .find(|&c| ExitCode::from(c) == code)
        .map_or(1, std::ffi::c_int::from)
}

/// The seven C maths library functions that rigcheck's code and its dependencies call,
/// defined here from the `libm` crate (a port of musl's, within an ulp of glibc's) so that the
/// linker, which adds libm.so only where a symbol needs it (`--as-needed`), leaves it out:
/// loading a shared library costs each start about 0.1 ms on a 2-core virtual machine (its
/// mapping, relocation and page faults; docs/performance.md), and the inventory calls none
/// of these. They are called by `bench cpu`'s image filters (fast_image_resize's Lanczos,
/// Hamming and Gaussian kernels, the synthetic JPEG), indicatif's rate and the spec sheet's
/// diagram. A call to a libm function not listed here brings libm.so back; `tests/linkage.rs`
/// says which.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
mod maths {
    /// `extern "C" fn name(x: f64, ...) -> f64`, the C library's signature, answered by
    /// the `libm` crate's function of the same name.
    macro_rules! from_libm {
        ($($name:ident($($arg:ident),+);)+) => {$(
            #[unsafe(no_mangle)]
            extern "C" fn $name($($arg: f64),+) -> f64 {
                libm::$name($($arg),+)
            }
        )+};
    }

    from_libm! {
        sin(x);
        cos(x);
        exp(x);
        log(x);
        log2(x);
        pow(x, y);
    }

    /// GNU's: LLVM joins `sin(x)` and `cos(x)` of one `x` into one call.
    #[unsafe(no_mangle)]
    extern "C" fn sincos(x: f64, sin: *mut f64, cos: *mut f64) {
        let (s, c) = libm::sincos(x);
        // SAFETY: the caller (code LLVM generated for `x.sin_cos()`, or C calling glibc's
        // `sincos`) passes two valid, aligned, writable doubles.
        unsafe {
            sin.write(s);
            cos.write(c);
        }
    }
}
