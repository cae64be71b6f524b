//! Getting the binaries: the bench measures a release build of weft, and runs itself from a
//! release build too, so the fake terminal draining the output is never the bottleneck.

use super::options::BUILT_FLAG;
use super::procs;
use super::session::TAG_KEY;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::Duration;

/// The workspace root (this package's parent directory).
pub fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// Cargo's target directory: the running executable is `<target>/<profile>/xtask`.
pub fn target_dir() -> Result<PathBuf, String> {
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
    exe.parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .ok_or_else(|| format!("unexpected executable path {}", exe.display()))
}

fn cargo_build(packages: &[&str]) -> Result<(), String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_string());
    let mut cmd = Command::new(&cargo);
    cmd.args(["build", "--release"])
        .current_dir(workspace_root());
    for p in packages {
        cmd.args(["-p", p]);
    }
    eprintln!("bench: cargo build --release -p {}", packages.join(" -p "));
    match cmd.status() {
        Ok(s) if s.success() => Ok(()),
        Ok(s) => Err(format!("cargo build failed ({s})")),
        Err(e) => Err(format!("cannot run cargo: {e}")),
    }
}

/// Builds weft in release mode.
pub fn build_weft() -> Result<(), String> {
    cargo_build(&["weft-mux"])
}

/// From a debug build: builds the release binaries (weft too, unless `--weft` was given) and
/// replaces this process with the release bench. Returns only on failure.
pub fn relaunch_release(args: &[String], build_weft: bool) -> ExitCode {
    let packages: &[&str] = if build_weft {
        &["xtask", "weft-mux"]
    } else {
        &["xtask"]
    };
    let result: Result<(), String> = cargo_build(packages).and_then(|()| {
        let exe = target_dir()?.join("release").join("xtask");
        let mut cmd = Command::new(&exe);
        cmd.arg("bench").args(args);
        if build_weft {
            cmd.arg(BUILT_FLAG);
        }
        Err(format!("cannot run {}: {}", exe.display(), cmd.exec()))
    });
    if let Err(e) = result {
        eprintln!("bench: {e}");
    }
    ExitCode::FAILURE
}

/// The hidden subcommand of the reaper [`start_reaper`] starts.
pub const REAPER_SUBCOMMAND: &str = "bench-reaper";

/// Starts a process that ends this run's contenders if the bench dies without cleaning up
/// (SIGTERM, SIGKILL, a panic that aborts): it waits for the returned pipe to close, which the
/// kernel does when the bench exits however it exits, then ends every tagged process whose
/// bench is gone. Keep the pipe for the whole run. In its own process group, so a Ctrl-C meant
/// for the bench does not end it first. `None` (with a warning) if it cannot start.
pub fn start_reaper() -> Option<std::process::ChildStdin> {
    let spawned = std::env::current_exe().and_then(|exe| {
        Command::new(exe)
            .arg(REAPER_SUBCOMMAND)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::null())
            .process_group(0)
            .spawn()
    });
    match spawned {
        Ok(mut child) => child.stdin.take(),
        Err(e) => {
            eprintln!("bench: warning: no reaper for an interrupted run: {e}");
            None
        }
    }
}

/// The reaper's body (see [`start_reaper`]): blocks until stdin reaches end of file, then ends
/// what the bench left.
pub fn reaper_main() -> ExitCode {
    let mut sink = Vec::new();
    // Nothing is ever written; the read returns when the bench's end of the pipe closes.
    let _ = std::io::Read::read_to_end(&mut std::io::stdin(), &mut sink);
    kill_stale();
    ExitCode::SUCCESS
}

/// Ends processes left by earlier bench runs that died without cleaning up: their tag names
/// a bench pid that no longer runs.
pub fn kill_stale() {
    let stale: Vec<u32> = procs::with_env(TAG_KEY, |tag| {
        tag.split('-')
            .next()
            .and_then(|p| p.parse::<u32>().ok())
            .is_some_and(|bench| !procs::is_alive(bench))
    })
    .into_iter()
    .map(|(pid, _)| pid)
    .collect();
    if !stale.is_empty() {
        eprintln!(
            "bench: ending {} processes left by an earlier run: {stale:?}",
            stale.len()
        );
        procs::kill_all(&stale, Duration::from_secs(2));
    }
}
