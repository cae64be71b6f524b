//! Starting the server by forking this client before it has made any thread, as tmux does.
//!
//! The server then skips what an exec costs: loading the executable and its libraries and
//! Rust's start-up, about 1 ms of the time from typing `weft` to seeing the prompt. Only a
//! process with a single thread may do this (a child of a threaded process is a copy of one
//! thread, holding copies of locks the others may have held), so it runs before the client
//! makes its runtime, and checks. Where it cannot run (a client that already has threads,
//! such as the script runner, or a failed fork), [`super::connect_or_start`] starts the
//! server by exec, with the same readiness protocol: the server's lines on its stdout,
//! "warning: …" for each configuration problem, then "ready".

use super::connect::{start_lock_now, ServerOutput, SERVER_START_TIMEOUT};
use super::ClientError;
use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::path::Path;
use std::time::Instant;

/// Starts a server on `socket` in a child of this process that runs `serve` (the server's
/// main, returning its exit status) when there is no socket. Does nothing when the socket
/// exists (a server, or a stale socket a crashed one left), or when this process cannot fork
/// safely: the client's usual path then connects, or starts a server by exec. Looking at the
/// path, not connecting, keeps a running server from seeing two connections per client.
pub fn start_server_by_fork(socket: &Path, serve: impl FnOnce() -> u8) -> Result<(), ClientError> {
    if socket.exists() || !single_threaded() {
        return Ok(());
    }
    let lock = start_lock_now(socket)?;
    // Under the lock: another client may have started the server meanwhile. It holds the lock
    // until its server is ready, so a socket there now is a server's.
    if socket.exists() {
        return Ok(());
    }
    let (reader, writer) =
        rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC).map_err(std::io::Error::from)?;
    let reader = std::fs::File::from(reader);
    let null = std::fs::File::open("/dev/null")?;
    // Buffered output would be written twice, once by each process.
    let _ = std::io::stdout().flush();
    match fork_this_process() {
        Forked::Failed => Ok(()),
        Forked::Child => {
            drop(reader);
            // Closed, not unlocked: the lock belongs to the parent's open file too.
            drop(lock);
            let _ = rustix::stdio::dup2_stdin(null.as_fd());
            let _ = rustix::stdio::dup2_stdout(writer.as_fd());
            let _ = rustix::stdio::dup2_stderr(writer.as_fd());
            drop((writer, null));
            let code = serve();
            std::process::exit(i32::from(code));
        }
        Forked::Parent => {
            drop(writer);
            // The lock is held until the server has said it is ready (or failed).
            let ready = wait_until_ready(reader);
            drop(lock);
            ready
        }
    }
}

/// Whether this process has one thread (Linux: one entry in `/proc/self/task`).
fn single_threaded() -> bool {
    std::fs::read_dir("/proc/self/task").is_ok_and(|tasks| tasks.count() == 1)
}

/// Which side of a fork this is.
enum Forked {
    Parent,
    Child,
    Failed,
}

/// Forks. Called only from a process with a single thread ([`single_threaded`]).
#[allow(unsafe_code)]
fn fork_this_process() -> Forked {
    // SAFETY: the process has one thread, so the child is a complete copy of it, with no lock
    // held by a thread that does not exist there; the child goes on to run the server's main
    // as the exec'd server would.
    match unsafe { libc::fork() } {
        -1 => Forked::Failed,
        0 => Forked::Child,
        _ => Forked::Parent,
    }
}

/// Reads the new server's lines until "ready": each warning is shown; anything else, or the
/// pipe's end without "ready", is why it did not start.
fn wait_until_ready(mut pipe: std::fs::File) -> Result<(), ClientError> {
    let deadline = Instant::now() + SERVER_START_TIMEOUT;
    let mut output = ServerOutput::default();
    let mut buf = [0u8; 4096];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || !readable_within(&pipe, left) {
            return Err(output.failed("it did not say it was ready in time"));
        }
        match pipe.read(&mut buf) {
            Ok(0) => return Err(output.failed("it ended")),
            Ok(n) => {
                if output.take(&buf[..n]) {
                    return Ok(());
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(output.failed(&format!("cannot read from it: {e}"))),
        }
    }
}

/// Whether `pipe` has something to read (or its end) within `left`.
fn readable_within(pipe: &std::fs::File, left: std::time::Duration) -> bool {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let mut fds = [PollFd::new(pipe, PollFlags::IN)];
    let timeout = Timespec {
        tv_sec: i64::try_from(left.as_secs()).unwrap_or(i64::MAX),
        tv_nsec: i64::from(left.subsec_nanos()),
    };
    loop {
        match poll(&mut fds, Some(&timeout)) {
            Ok(n) => return n > 0,
            Err(rustix::io::Errno::INTR) => {}
            Err(_) => return false,
        }
    }
}
