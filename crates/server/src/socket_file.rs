//! The server's socket file, removed once and only while it is still this server's.
//!
//! Three places remove it: the registry as the server ends, `kill-server`'s deadline thread,
//! and the listener on a fatal error. A client an ending server refused may by then have
//! started a new server that bound the same path, so the file goes only if it is the one this
//! server bound (same device and inode), and only the first time.

use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

/// A bound socket's path and identity.
#[derive(Debug)]
pub struct SocketFile {
    path: PathBuf,
    /// Device and inode of the file as bound; `None` when there was none to look at.
    identity: Option<(u64, u64)>,
    removed: AtomicBool,
}

impl SocketFile {
    /// The socket at `path`, just bound by this server.
    pub fn new(path: PathBuf) -> Self {
        let identity = identity_of(&path);
        SocketFile {
            path,
            identity,
            removed: AtomicBool::new(false),
        }
    }

    /// Where it is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Removes the file, the first time only, and only if the path still holds the socket
    /// this server bound. A new server could bind the path between the check and the removal;
    /// that takes another server starting in the same microseconds as this one ends.
    pub fn remove(&self) {
        if self.removed.swap(true, Ordering::AcqRel) {
            return;
        }
        if self.identity.is_some() && identity_of(&self.path) == self.identity {
            if let Err(e) = std::fs::remove_file(&self.path) {
                tracing::warn!("cannot remove the socket {}: {e}", self.path.display());
            }
        }
    }
}

fn identity_of(path: &Path) -> Option<(u64, u64)> {
    std::fs::symlink_metadata(path)
        .ok()
        .map(|m| (m.dev(), m.ino()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_its_own_file_once_and_leaves_a_successors() {
        let dir = std::env::temp_dir().join(format!("weft-socket-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("s");
        let first = std::os::unix::net::UnixListener::bind(&path).unwrap();
        let ours = SocketFile::new(path.clone());
        ours.remove();
        assert!(!path.exists());
        drop(first);
        // A new server binds the path; a second removal (a late deadline thread) leaves it.
        let _second = std::os::unix::net::UnixListener::bind(&path).unwrap();
        ours.remove();
        assert!(path.exists());
        // Another instance that did not bind this file leaves it too.
        let stale = SocketFile {
            path: path.clone(),
            identity: Some((0, 0)),
            removed: AtomicBool::new(false),
        };
        stale.remove();
        assert!(path.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
