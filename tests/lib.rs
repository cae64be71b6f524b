//! Helpers for weft's end-to-end tests: building, locating and running the real `weft` binary.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// The `weft` binary of this workspace, built once per test run (a no-op when up to date).
///
/// # Panics
/// When the binary cannot be built: every end-to-end test needs it.
pub fn weft_binary() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT
        .get_or_init(|| {
            let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .parent()
                .map(PathBuf::from)
                .unwrap_or_default();
            let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
            let status = Command::new(cargo)
                .args(["build", "--quiet", "-p", "weft", "--bin", "weft"])
                .current_dir(&root)
                .status();
            assert!(
                status.as_ref().is_ok_and(|s| s.success()),
                "building weft failed: {status:?}"
            );
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map(PathBuf::from)
                .unwrap_or_else(|| root.join("target"));
            target.join("debug").join("weft")
        })
        .clone()
}

/// Runs `weft` with `args`, feeding `stdin`, and returns what it printed and its status.
///
/// # Panics
/// When the process cannot be started or waited for.
pub fn run_weft(args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write;
    let mut child = Command::new(weft_binary())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start weft");
    let mut input = child.stdin.take().expect("stdin");
    let data = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        // The process may exit without reading (bad arguments): a broken pipe is fine.
        let _ = input.write_all(&data);
    });
    let output = child.wait_with_output().expect("wait for weft");
    let _ = writer.join();
    output
}
