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

/// The directory holding the link, once made.
static SHIM_DIR: OnceLock<PathBuf> = OnceLock::new();

/// Makes `DIR/bin/tmux` a link to this program (replacing an older link atomically), where DIR
/// is the private socket directory; [`path_for`] then puts it first. Call once at start. A
/// failure leaves `tmux` as the user's and is said in the returned error.
pub fn install(socket_dir: &Path) -> std::io::Result<()> {
    let program = std::env::current_exe()?;
    if !program.exists() {
        // Replaced on disk since it started (an upgrade): a link would lead nowhere.
        return Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("{} is no longer there", program.display()),
        ));
    }
    let dir = socket_dir.join("bin");
    std::fs::create_dir_all(&dir)?;
    let temporary = dir.join(format!(".tmux-{}", std::process::id()));
    let _ = std::fs::remove_file(&temporary);
    std::os::unix::fs::symlink(&program, &temporary)?;
    std::fs::rename(&temporary, dir.join("tmux"))?;
    let _ = SHIM_DIR.set(dir);
    Ok(())
}

/// `PATH` for a command weft runs for the configuration: the link's directory, then `base`
/// (the `PATH` it would have had, else the server's). `None` when there is no link.
pub fn path_for(base: Option<&OsStr>) -> Option<OsString> {
    let dir = SHIM_DIR.get()?;
    let server_path = std::env::var_os("PATH");
    let rest = base.or(server_path.as_deref()).unwrap_or_default();
    let mut path = OsString::from(dir);
    if !rest.is_empty() {
        path.push(":");
        path.push(rest);
    }
    Some(path)
}

/// Sets `PATH` on `command` (a job's shell) as [`path_for`] says.
pub fn apply(command: &mut tokio::process::Command) {
    if let Some(path) = path_for(None) {
        command.env("PATH", path);
    }
}

/// [`apply`] for a `std` command.
pub fn apply_std(command: &mut std::process::Command) {
    if let Some(path) = path_for(None) {
        command.env("PATH", path);
    }
}
