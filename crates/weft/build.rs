//! Lays out the code a server runs together in the release binary.
//!
//! An idle server's resident memory is mostly the pages of its own code: the kernel maps a
//! 64 KB window around each page it first runs, and without an order the code a server runs
//! is spread over most of the executable's text. `link-order.txt` lists the functions a
//! server runs (start-up, sessions, panes, clients, keys, frames), produced by `cargo xtask
//! link-order`; LLD places them first, next to each other.
//!
//! The names carry hashes that change with the compiler and the dependencies. A name that no
//! longer matches is skipped, so a stale list costs only the gain, never the build. The list
//! is passed only where the linker is known to be LLD (Rust's default linker on
//! x86_64-unknown-linux-gnu since 1.90) and nobody chose another.
//!
//! Where that LLD links against glibc 2.36 or later, the binary's relative relocations are
//! also packed (`-z pack-relative-relocs`, DT_RELR): the loader of every `weft` start
//! otherwise reads a 300 KB table of 12,000 entries. The binary stays position-independent;
//! a glibc older than 2.36 cannot load a packed one, so it is packed only when the glibc it
//! is built against (this machine's, as the target is the host) can. `WEFT_NO_PACKED_RELOCS`
//! turns packing off, for a binary to be copied to a machine with an older glibc.

use std::path::Path;
use std::process::Command;

/// The file the order is read from, beside this build script.
const ORDER_FILE: &str = "link-order.txt";

/// The first Rust release that links x86_64-unknown-linux-gnu with its own LLD by default.
const FIRST_RUSTC_WITH_LLD: u32 = 90;

fn main() {
    println!("cargo:rerun-if-changed={ORDER_FILE}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=WEFT_NO_LINK_ORDER");
    println!("cargo:rerun-if-env-changed=WEFT_NO_PACKED_RELOCS");
    let manifest_dir = std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default();
    let order = Path::new(&manifest_dir).join(ORDER_FILE);
    // `-Wl,` splits its argument at commas: a path holding one cannot be passed this way.
    let passable = !order.to_string_lossy().contains(',');
    // Asks the compiler its version: once, for both flags.
    let default_lld = links_with_default_lld();
    if passable && order.is_file() && default_lld {
        println!(
            "cargo:rustc-link-arg-bin=weft=-Wl,--symbol-ordering-file={}",
            order.display()
        );
        println!("cargo:rustc-link-arg-bin=weft=-Wl,--no-warn-symbol-ordering");
    }
    if default_lld && glibc_loads_packed_relocations() {
        println!("cargo:rustc-link-arg-bin=weft=-Wl,-z,pack-relative-relocs");
    }
}

/// The first glibc whose loader applies packed relative relocations (DT_RELR).
const FIRST_GLIBC_WITH_RELR: (u32, u32) = (2, 36);

/// Whether this machine's glibc (`getconf GNU_LIBC_VERSION`: `glibc 2.36`) loads binaries
/// with packed relative relocations. Only a native build asks: a cross build's target libc
/// is not this one.
fn glibc_loads_packed_relocations() -> bool {
    let env = |name: &str| std::env::var(name).unwrap_or_default();
    if !env("WEFT_NO_PACKED_RELOCS").is_empty() || env("HOST") != env("TARGET") {
        return false;
    }
    let Ok(output) = Command::new("getconf").arg("GNU_LIBC_VERSION").output() else {
        return false;
    };
    let text = String::from_utf8_lossy(&output.stdout);
    let Some(version) = text.trim().strip_prefix("glibc ") else {
        return false;
    };
    let mut parts = version.split('.').map(|part| part.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(major), Some(minor)) => (major, minor) >= FIRST_GLIBC_WITH_RELR,
        _ => false,
    }
}

/// Whether this build links with the toolchain's default LLD: a release build for
/// x86_64-unknown-linux-gnu by rustc 1.90 or later, with no linker chosen in the
/// configuration, the environment or the flags.
fn links_with_default_lld() -> bool {
    let env = |name: &str| std::env::var(name).unwrap_or_default();
    if !env("WEFT_NO_LINK_ORDER").is_empty()
        || env("PROFILE") != "release"
        || env("TARGET") != "x86_64-unknown-linux-gnu"
        || !env("RUSTC_LINKER").is_empty()
    {
        return false;
    }
    let flags = env("CARGO_ENCODED_RUSTFLAGS");
    if flags.contains("linker") || flags.contains("link-self-contained") {
        return false;
    }
    rustc_minor(&env("RUSTC")).is_some_and(|minor| minor >= FIRST_RUSTC_WITH_LLD)
}

/// The minor version of the compiler (`rustc 1.95.0 (...)` gives 95).
fn rustc_minor(rustc: &str) -> Option<u32> {
    let rustc = if rustc.is_empty() { "rustc" } else { rustc };
    let output = Command::new(rustc).arg("--version").output().ok()?;
    let text = String::from_utf8(output.stdout).ok()?;
    let version = text.split_whitespace().nth(1)?;
    let mut parts = version.split('.');
    if parts.next()? != "1" {
        return None;
    }
    parts.next()?.parse().ok()
}
