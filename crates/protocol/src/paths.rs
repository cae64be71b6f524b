//! Where the server's socket lives, and the checks that keep it private.
//!
//! One server per user and label, like tmux: `$XDG_RUNTIME_DIR/weft/<label>`, or
//! `/tmp/weft-<uid>/<label>` without a runtime directory. The directory is created mode 0700
//! and refused if another user owns it or others can get in.

use std::os::unix::fs::{DirBuilderExt, MetadataExt};
use std::path::{Path, PathBuf};

/// The label used without `-L`.
pub const DEFAULT_LABEL: &str = "default";

/// Set (to `1`) in the environment of the shell commands a configuration file runs while a
/// server starts: a client started by one does not start another server, which would wait
/// for the first.
pub const READING_CONFIG_ENV: &str = "WEFT_READING_CONFIG";

/// Why the socket path cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum PathError {
    /// A socket path longer than a Unix socket address holds.
    #[error(
        "the socket path {0} is too long for a Unix socket (at most {MAX_SOCKET_PATH} bytes): \
         give a shorter one with -S, or set TMPDIR to a shorter directory"
    )]
    TooLong(PathBuf),
    /// A label with a path separator or nothing in it.
    #[error("socket label {0:?} must be a plain name (no '/', not empty)")]
    BadLabel(String),
    /// The directory could not be created or inspected.
    #[error("cannot use socket directory {dir}: {source}")]
    Io {
        /// The directory.
        dir: PathBuf,
        /// What failed.
        source: std::io::Error,
    },
    /// Someone else owns the directory.
    #[error(
        "socket directory {dir} belongs to uid {owner}, not you (uid {me}); refusing to use it"
    )]
    NotOwner {
        /// The directory.
        dir: PathBuf,
        /// Its owner.
        owner: u32,
        /// This user.
        me: u32,
    },
    /// Group or others can reach the directory.
    #[error("socket directory {dir} has mode {mode:o}; it must be private (0700): run `chmod 700 {dir}`")]
    NotPrivate {
        /// The directory.
        dir: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The path exists and is not a directory.
    #[error("{0} exists and is not a directory")]
    NotADirectory(PathBuf),
}

/// This user's id.
pub fn my_uid() -> u32 {
    rustix::process::getuid().as_raw()
}

/// The directory holding this user's sockets.
pub fn socket_dir() -> PathBuf {
    match std::env::var_os("XDG_RUNTIME_DIR").filter(|d| !d.is_empty()) {
        Some(runtime) => PathBuf::from(runtime).join("weft"),
        None => std::env::temp_dir().join(format!("weft-{}", my_uid())),
    }
}

/// The socket for `-S path` (used as given) or `-L label` (in [`socket_dir`]), with the default
/// directory created and checked.
pub fn resolve_socket(label: Option<&str>, explicit: Option<&Path>) -> Result<PathBuf, PathError> {
    if let Some(path) = explicit {
        return fits_a_socket(path.to_path_buf());
    }
    let label = label.unwrap_or(DEFAULT_LABEL);
    if label.is_empty() || label.contains('/') || label == "." || label == ".." {
        return Err(PathError::BadLabel(label.to_string()));
    }
    let dir = socket_dir();
    ensure_private_dir(&dir)?;
    fits_a_socket(dir.join(label))
}

/// The longest path a Unix socket address holds (`sun_path` is 108 bytes with its NUL).
pub const MAX_SOCKET_PATH: usize = 107;

/// `path`, if it fits in a Unix socket address.
fn fits_a_socket(path: PathBuf) -> Result<PathBuf, PathError> {
    use std::os::unix::ffi::OsStrExt;
    if path.as_os_str().as_bytes().len() > MAX_SOCKET_PATH {
        return Err(PathError::TooLong(path));
    }
    Ok(path)
}

/// Creates `dir` with mode 0700 if missing, then checks it is ours and private.
pub fn ensure_private_dir(dir: &Path) -> Result<(), PathError> {
    let io = |source| PathError::Io {
        dir: dir.to_path_buf(),
        source,
    };
    match std::fs::DirBuilder::new()
        .mode(0o700)
        .recursive(true)
        .create(dir)
    {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
        Err(e) => return Err(io(e)),
    }
    let meta = std::fs::symlink_metadata(dir).map_err(io)?;
    if !meta.is_dir() {
        return Err(PathError::NotADirectory(dir.to_path_buf()));
    }
    let me = my_uid();
    if meta.uid() != me {
        return Err(PathError::NotOwner {
            dir: dir.to_path_buf(),
            owner: meta.uid(),
            me,
        });
    }
    let mode = meta.mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(PathError::NotPrivate {
            dir: dir.to_path_buf(),
            mode,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("weft-paths-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn creates_a_private_directory() {
        let dir = temp("create");
        ensure_private_dir(&dir).unwrap();
        let mode = std::fs::metadata(&dir).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o700);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn refuses_a_directory_others_can_enter() {
        let dir = temp("open");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
        let err = ensure_private_dir(&dir).unwrap_err();
        assert!(err.to_string().contains("must be private"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn refuses_labels_with_slashes() {
        assert!(matches!(
            resolve_socket(Some("../x"), None),
            Err(PathError::BadLabel(_))
        ));
    }

    #[test]
    fn refuses_a_socket_path_too_long_for_an_address() {
        let longest = PathBuf::from(format!("/{}", "s".repeat(MAX_SOCKET_PATH - 1)));
        assert_eq!(resolve_socket(None, Some(&longest)).ok(), Some(longest));
        let long = PathBuf::from(format!("/{}", "s".repeat(MAX_SOCKET_PATH)));
        let err = resolve_socket(None, Some(&long)).unwrap_err();
        assert!(err.to_string().contains("too long"), "{err}");
        // The longest path fits: a server binds it.
        let dir = temp("longest");
        std::fs::create_dir_all(&dir).unwrap();
        let room = MAX_SOCKET_PATH - dir.as_os_str().len() - 1;
        let path = dir.join("x".repeat(room));
        let bound =
            std::os::unix::net::UnixListener::bind(resolve_socket(None, Some(&path)).unwrap());
        assert!(bound.is_ok(), "{bound:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
