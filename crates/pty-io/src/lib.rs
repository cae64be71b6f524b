//! Programs on pseudo-terminals, driven from tokio.
//!
//! [`spawn`] starts a program on a new pty with `portable-pty` and hands back four parts, each
//! for one task: [`Pty`] (resize), [`ChildProcess`] (exit status, kill), [`PtyReader`] and
//! [`PtyWriter`]. The
//! reader and writer own their own duplicate of the master, set non-blocking, so no thread
//! blocks per pane: the reader's is watched by a private one-shot epoll instance registered
//! with tokio through [`tokio::io::unix::AsyncFd`] (one wake-up per chunk read, not one per
//! 4 KiB the kernel moves in), and the writer's is registered only while a write waits. On Linux the master
//! reads `EIO` once every slave descriptor is closed; the reader reports that as end of output.
//! The exit status comes from the child itself, woken by `SIGCHLD` (no polling), so a pane
//! learns its program exited even while a background job still holds the terminal.

mod master;
mod spawn;

pub use spawn::{
    spawn, ChildProcess, ExitStatus, Pty, PtyError, PtyReader, PtyWriter, SpawnOptions,
    DRAINED_READ_BYTES,
};

/// Largest read from the master in one go: big enough to drain a flood in few syscalls.
pub const READ_CHUNK_BYTES: usize = 64 * 1024;
