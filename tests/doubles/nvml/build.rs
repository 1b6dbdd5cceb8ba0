//! Links the double with `-z nodelete`: rigcheck loads and unloads NVML once per reading
//! (nvml-wrapper closes the library on shutdown), and what the double remembers between
//! readings (an error counter growing during a run) lives, as on a board, across them.

fn main() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() == Ok("linux") {
        println!("cargo:rustc-cdylib-link-arg=-Wl,-z,nodelete");
    }
}
