//! Helpers for weft's end-to-end tests: locating and running the real `weft` binary.

use std::path::PathBuf;

/// The `weft` binary built from this workspace (built on demand by the tests).
pub fn weft_binary() -> PathBuf {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map(PathBuf::from)
        .unwrap_or_default();
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    target.join("debug").join("weft")
}
