//! `tmux` is weft in what weft runs on a configuration's behalf: `run-shell`, `if-shell`,
//! `#()` in the status line, `pipe-pane` and `display-popup`. Plugins, popup pickers
//! (`display-popup -E "tmux ls | fzf | xargs tmux switch -t"`) and bindings written for tmux
//! call `tmux`; those commands then reach this server (by `$WEFT`), as they reach tmux's.
//!
//! A directory in the private socket directory holds `tmux`, a link to this program, and goes
//! first on those commands' `PATH`. Panes keep the user's own `PATH`: a `tmux` typed there is
//! tmux.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The private socket directory the link goes in, set at start ([`prepare`]).
static SOCKET_DIR: OnceLock<PathBuf> = OnceLock::new();

/// The directory holding this server's link, made when first needed (`None`: it could not
/// be made, and `tmux` stays the user's).
static SHIM_DIR: OnceLock<Option<PathBuf>> = OnceLock::new();

/// Where the servers' link directories are, in the private socket directory: a name no `-L`
/// label is likely to take.
const SHIMS: &str = ".tmux-shims";

/// `PATH` when the server has none: the usual system directories.
const FALLBACK_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// Says where the link goes: `DIR/.tmux-shims/PID/tmux` (DIR the private socket directory,
/// PID this server's). Nothing is made yet: the first command that needs the link makes it
/// (see [`shim_dir`]), so a server that never runs one never pays for it at start.
pub fn prepare(socket_dir: &Path) {
    let _ = SOCKET_DIR.set(socket_dir.to_path_buf());
}

/// The link's directory, made on first use; `None` when it cannot be (said once, in the log).
fn shim_dir() -> Option<&'static Path> {
    let socket_dir = SOCKET_DIR.get()?;
    SHIM_DIR
        .get_or_init(|| {
            install(socket_dir)
                .map_err(|e| {
                    tracing::warn!("`tmux` in run-shell and popups stays the system's: {e}");
                })
                .ok()
        })
        .as_deref()
}

/// Makes the link to this server's own executable, through `/proc/PID/exe` so it keeps
/// working if the file is replaced by an upgrade; [`path_for`] then puts it first.
/// Directories of servers no longer running are removed.
fn install(socket_dir: &Path) -> std::io::Result<PathBuf> {
    // Only in a directory that is the user's alone, as the sockets' is.
    weft_protocol::paths::ensure_private_dir(socket_dir)
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    let shims = socket_dir.join(SHIMS);
    std::fs::create_dir_all(&shims)?;
    remove_dead(&shims);
    let pid = std::process::id();
    let dir = shims.join(pid.to_string());
    std::fs::create_dir_all(&dir)?;
    let proc_exe = PathBuf::from(format!("/proc/{pid}/exe"));
    // Only if `/proc` is this process's (a container may show the host's, where this pid is
    // another process).
    let same = |a: &Path, b: &Path| {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(a), std::fs::metadata(b)) {
            (Ok(a), Ok(b)) => (a.dev(), a.ino()) == (b.dev(), b.ino()),
            _ => false,
        }
    };
    let program = if same(&proc_exe, Path::new("/proc/self/exe")) {
        proc_exe
    } else {
        std::env::current_exe()?
    };
    let link = dir.join("tmux");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&program, &link)?;
    Ok(dir)
}

/// Removes this server's link directory, if it was made (as the server ends); none is made
/// after this, so a job started during the shutdown leaves nothing behind.
pub fn remove() {
    if let Some(dir) = SHIM_DIR.get_or_init(|| None) {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Removes the link directories of servers that are gone (a crash leaves one behind).
fn remove_dead(shims: &Path) {
    let Ok(entries) = std::fs::read_dir(shims) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let alive = name
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
            .and_then(rustix::process::Pid::from_raw)
            .is_some_and(|pid| rustix::process::test_kill_process(pid).is_ok());
        if !alive {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// `PATH` for a command weft runs for the configuration: the link's directory, then `base`
/// (the `PATH` it would have had, else the server's, else the system's). `None` when there is
/// no link.
pub fn path_for(base: Option<&OsStr>) -> Option<OsString> {
    let dir = shim_dir()?;
    let server_path = std::env::var_os("PATH").filter(|p| !p.is_empty());
    let rest = base
        .filter(|p| !p.is_empty())
        .or(server_path.as_deref())
        .unwrap_or(OsStr::new(FALLBACK_PATH));
    let mut path = OsString::from(dir);
    path.push(":");
    path.push(rest);
    Some(path)
}

/// What a job's shell gets set: `PATH` as [`path_for`] says, and `TMUX` as `$WEFT` (the
/// server's socket and pid), for scripts that look for tmux's. Give it to `Command::envs`.
pub fn job_env() -> Vec<(&'static str, OsString)> {
    let path = path_for(None).map(|p| ("PATH", p));
    let tmux = std::env::var_os("WEFT").map(|w| ("TMUX", w));
    path.into_iter().chain(tmux).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_per_server_and_none_left_of_servers_gone() {
        let dir = std::env::temp_dir().join(format!("weft-shim-test-{}", std::process::id()));
        let shims = dir.join(SHIMS);
        // A server that is gone (no process has pid 0x7ffffff0) left its directory.
        let gone = shims.join("2147483632");
        std::fs::create_dir_all(&gone).unwrap();
        // Private, as the socket directory is: the link goes nowhere else.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
        prepare(&dir);
        let link = shims.join(std::process::id().to_string()).join("tmux");
        assert!(!link.exists(), "made only when first needed");
        let path = path_for(Some(OsStr::new("/base/bin"))).unwrap();
        assert!(!gone.exists());
        let target = std::fs::canonicalize(&link).unwrap();
        assert_eq!(
            target,
            std::fs::canonicalize(std::env::current_exe().unwrap()).unwrap()
        );
        let link_dir = link.parent().unwrap().display().to_string();
        assert_eq!(path.to_string_lossy(), format!("{link_dir}:/base/bin"));
        remove();
        assert!(!link.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
