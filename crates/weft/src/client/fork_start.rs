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
    super::connect::refuse_while_reading_config()?;
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
            // Not now: start-up would read much of it back at once, on the way to the prompt.
            weft_server::memory::after_start(forget_client_code);
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

/// Lets go of the pages of this program that the client used before the fork (its command
/// line parser and dispatch, their strings and tables), and of those only the server's start
/// used: the server never uses them again, yet a forked child keeps them mapped, about 1 MB
/// of resident memory for its whole life. Run once start-up is over
/// (`weft_server::memory::after_start`): the code the server goes on running comes back page
/// by page from the page cache as it runs, laid out together by the linker (see build.rs).
#[allow(unsafe_code)]
fn forget_client_code() {
    let here = forget_client_code as *const () as usize;
    let Some(maps) = read_maps() else {
        return;
    };
    for (start, end) in never_written_mappings(&maps, here) {
        // SAFETY: the range is one of this executable's private mappings that nothing ever
        // writes (its code has no text relocations): dropping its pages only makes the next
        // use of each read it again from the file, the same bytes.
        unsafe {
            libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_DONTNEED);
        }
    }
}

/// Room for this process's `/proc/self/maps` (about 4 KB): read in one go, not in the
/// doubling pieces a read into an empty string takes for a file with no size.
const MAPS_CAPACITY: usize = 16 * 1024;

/// The text of `/proc/self/maps`.
fn read_maps() -> Option<String> {
    let mut maps = String::with_capacity(MAPS_CAPACITY);
    let mut file = std::fs::File::open("/proc/self/maps").ok()?;
    file.read_to_string(&mut maps).ok()?;
    Some(maps)
}

/// The mappings of the executable whose code holds `here` that nothing ever writes, from the
/// text of `/proc/self/maps`: its code, and the read-only part from the file's start
/// (headers, constants, unwinding tables). Never its relocated data (RELRO, read-only only
/// once the loader has written it) or writable data, which would lose what was written.
fn never_written_mappings(maps: &str, here: usize) -> Vec<(usize, usize)> {
    let mappings: Vec<Mapping<'_>> = maps.lines().filter_map(Mapping::parse).collect();
    let Some(code) = mappings
        .iter()
        .find(|m| m.perms.starts_with("r-x") && (m.start..m.end).contains(&here))
    else {
        return Vec::new();
    };
    mappings
        .iter()
        .filter(|m| m.path == code.path && !code.path.is_empty())
        .filter(|m| std::ptr::eq(*m, code) || (m.perms == "r--p" && m.offset == 0))
        .map(|m| (m.start, m.end))
        .collect()
}

/// One line of `/proc/self/maps`.
struct Mapping<'a> {
    start: usize,
    end: usize,
    perms: &'a str,
    offset: u64,
    path: &'a str,
}

impl<'a> Mapping<'a> {
    /// `start-end perms offset device inode path`.
    fn parse(line: &'a str) -> Option<Mapping<'a>> {
        let mut fields = line.split_whitespace();
        let (start, end) = fields.next()?.split_once('-')?;
        let perms = fields.next()?;
        let offset = u64::from_str_radix(fields.next()?, 16).ok()?;
        let path = fields.nth(2)?;
        Some(Mapping {
            start: usize::from_str_radix(start, 16).ok()?,
            end: usize::from_str_radix(end, 16).ok()?,
            perms,
            offset,
            path,
        })
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A server's maps, as Linux writes them (trimmed): weft's four mappings (read-only head,
    /// code, RELRO, data), libc's, the heap and an anonymous one.
    const MAPS: &str = "\
55cc9c7e8000-55cc9c93c000 r--p 00000000 fe:00 5964940    /usr/bin/weft
55cc9c93c000-55cc9ce6d000 r-xp 00153000 fe:00 5964940    /usr/bin/weft
55cc9ce6d000-55cc9cea9000 r--p 00683000 fe:00 5964940    /usr/bin/weft
55cc9cea9000-55cc9ceab000 rw-p 006be000 fe:00 5964940    /usr/bin/weft
55cc9d000000-55cc9d021000 rw-p 00000000 00:00 0          [heap]
7f0000000000-7f0000028000 r--p 00000000 fe:00 131       /usr/lib/x86_64-linux-gnu/libc.so.6
7f0000028000-7f000017d000 r-xp 00028000 fe:00 131       /usr/lib/x86_64-linux-gnu/libc.so.6
7f0000200000-7f0000201000 rw-p 00000000 00:00 0
";

    #[test]
    fn only_the_code_and_the_read_only_head_of_this_executable_are_forgotten() {
        let here = 0x55cc9c940000;
        assert_eq!(
            never_written_mappings(MAPS, here),
            vec![
                (0x55cc9c7e8000, 0x55cc9c93c000),
                (0x55cc9c93c000, 0x55cc9ce6d000)
            ]
        );
    }

    #[test]
    fn nothing_is_forgotten_when_the_code_is_not_found() {
        assert!(never_written_mappings(MAPS, 0x1000).is_empty());
        assert!(never_written_mappings("not a maps line\n", 0x55cc9c940000).is_empty());
    }

    #[test]
    fn a_process_that_forgot_its_code_runs_on() {
        let maps = std::fs::read_to_string("/proc/self/maps").expect("/proc/self/maps");
        let here = forget_client_code as *const () as usize;
        let forgotten = never_written_mappings(&maps, here);
        assert!(
            forgotten.iter().any(|&(s, e)| (s..e).contains(&here)),
            "this test's own code mapping was not found in {maps}"
        );
        forget_client_code();
        // Code, constants, vtables (relocated data) and statics all still work.
        let shown: Vec<Box<dyn std::fmt::Display>> = vec![Box::new(42), Box::new("forty-two")];
        let text: Vec<String> = shown.iter().map(|d| d.to_string()).collect();
        assert_eq!(text, ["42", "forty-two"]);
        let cli = <crate::cli::Cli as clap::Parser>::try_parse_from(["weft", "-L", "forgot", "ls"]);
        assert_eq!(
            cli.map(|c| c.label).ok().flatten().as_deref(),
            Some("forgot")
        );
    }
}
