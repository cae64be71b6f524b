//! Spawning and the three handles on a running pty.

use filedescriptor::FileDescriptor;
use portable_pty::{native_pty_system, Child, CommandBuilder, MasterPty, PtySize};
use std::ffi::OsString;
use std::io::Read;
use std::os::fd::{AsRawFd, RawFd};
use std::path::PathBuf;
use tokio::io::unix::AsyncFd;
use tokio::io::Interest;
use tokio::signal::unix::{signal, SignalKind};

/// What went wrong opening a pty or starting its program.
#[derive(Debug, thiserror::Error)]
pub enum PtyError {
    /// The pty could not be opened.
    #[error("cannot open a pty: {0}")]
    Open(String),
    /// The program could not be started.
    #[error("cannot start {program}: {reason}")]
    Spawn {
        /// The program asked for.
        program: String,
        /// Why it failed.
        reason: String,
    },
    /// An I/O error on the master.
    #[error("pty I/O: {0}")]
    Io(#[from] std::io::Error),
}

/// How to start a program on a pty.
#[derive(Clone, Debug, Default)]
pub struct SpawnOptions {
    /// The program and its arguments; empty means the user's shell as a login shell.
    pub command: Vec<OsString>,
    /// The shell to use when `command` is empty (else `$SHELL`, the password database, `/bin/sh`).
    pub shell: Option<String>,
    /// Working directory; the home directory when absent or not a directory.
    pub cwd: Option<PathBuf>,
    /// Extra environment, on top of the server's environment.
    pub env: Vec<(OsString, OsString)>,
    /// Variables of the server's environment the program does not get.
    pub env_remove: Vec<OsString>,
    /// Columns.
    pub cols: u16,
    /// Rows.
    pub rows: u16,
    /// The erase character the program's line discipline takes (`VERASE`, as tmux sets it
    /// from its `backspace` option); `None` leaves the system's (DEL).
    pub erase: Option<u8>,
}

/// How a program ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExitStatus {
    /// The exit code (128 + n for a signal, as shells report it).
    pub code: u32,
    /// The signal that killed it, when one did: its name (`SIGSEGV`) when known.
    pub signal: Option<String>,
}

/// Signals by number, with the descriptions glibc's `strsignal` gives them (what portable-pty
/// reports a signal by). A data table: the number is what shells and `wait --exit` show.
const SIGNALS: &[(u32, &str, &str)] = &[
    (1, "SIGHUP", "Hangup"),
    (2, "SIGINT", "Interrupt"),
    (3, "SIGQUIT", "Quit"),
    (4, "SIGILL", "Illegal instruction"),
    (5, "SIGTRAP", "Trace/breakpoint trap"),
    (6, "SIGABRT", "Aborted"),
    (7, "SIGBUS", "Bus error"),
    (8, "SIGFPE", "Floating point exception"),
    (9, "SIGKILL", "Killed"),
    (10, "SIGUSR1", "User defined signal 1"),
    (11, "SIGSEGV", "Segmentation fault"),
    (12, "SIGUSR2", "User defined signal 2"),
    (13, "SIGPIPE", "Broken pipe"),
    (14, "SIGALRM", "Alarm clock"),
    (15, "SIGTERM", "Terminated"),
    (24, "SIGXCPU", "CPU time limit exceeded"),
    (25, "SIGXFSZ", "File size limit exceeded"),
    (26, "SIGVTALRM", "Virtual timer expired"),
    (27, "SIGPROF", "Profiling timer expired"),
    (31, "SIGSYS", "Bad system call"),
];

impl ExitStatus {
    fn from_portable(status: &portable_pty::ExitStatus) -> Self {
        match status.signal() {
            Some(description) => Self::signalled(description),
            None => ExitStatus {
                code: status.exit_code(),
                signal: None,
            },
        }
    }

    /// A program killed by the signal `description` names (`strsignal`'s text, or
    /// `Signal N`): exit code 128 + its number, as a shell reports it.
    fn signalled(description: &str) -> Self {
        let known = SIGNALS.iter().find(|(_, _, d)| *d == description);
        let number = known.map(|(n, _, _)| *n).or_else(|| {
            description
                .strip_prefix("Signal ")
                .and_then(|n| n.trim().parse().ok())
        });
        ExitStatus {
            code: number.map_or(1, |n| 128 + n),
            signal: Some(known.map_or(description, |(_, name, _)| name).to_string()),
        }
    }
}

/// The pty's master side: resize. Owned by the pane's task.
pub struct Pty {
    master: Box<dyn MasterPty + Send>,
}

impl std::fmt::Debug for Pty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Pty").finish_non_exhaustive()
    }
}

/// The program on the pty: exit status, kill. Separate from [`Pty`] so one task can wait for
/// the exit while another resizes.
pub struct ChildProcess {
    child: Box<dyn Child + Send + Sync>,
    pid: Option<u32>,
}

impl std::fmt::Debug for ChildProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChildProcess")
            .field("pid", &self.pid)
            .finish_non_exhaustive()
    }
}

/// A read of the master shorter than this emptied it (see [`PtyReader::read_available`]);
/// longer ones go on reading to gather a stream into large chunks.
pub const DRAINED_READ_BYTES: usize = 1024;

/// Reads program output from the master.
#[derive(Debug)]
pub struct PtyReader {
    source: Source,
}

/// How a [`PtyReader`] learns there is input.
#[derive(Debug)]
enum Source {
    /// Registered with tokio directly (a user's terminal).
    Tokio(AsyncFd<FileDescriptor>),
    /// A pty master, watched as [`crate::master`] describes.
    Master(crate::master::MasterWatch),
}

/// Writes input to the master.
///
/// The descriptor is registered with tokio's reactor only while a write waits for room: a
/// registered writer gets a readiness event every time the other side drains it, which would
/// wake a reactor thread after every keystroke and every frame.
#[derive(Debug)]
pub struct PtyWriter {
    fd: FileDescriptor,
    /// One wait for room at a time (a descriptor is registered at most once).
    room: tokio::sync::Mutex<()>,
}

/// A raw descriptor borrowed for the length of one `dup`, or of one wait for room (whose
/// registration is dropped, and so deregistered, before the descriptor can close).
struct Borrowed(RawFd);

impl AsRawFd for Borrowed {
    fn as_raw_fd(&self) -> RawFd {
        self.0
    }
}

/// Starts `options.command` (or the shell) on a new pty of the given size.
///
/// Must be called inside a tokio runtime (the descriptors are registered with its reactor).
pub fn spawn(
    options: &SpawnOptions,
) -> Result<(Pty, ChildProcess, PtyReader, PtyWriter), PtyError> {
    let size = PtySize {
        rows: options.rows.max(1),
        cols: options.cols.max(1),
        pixel_width: 0,
        pixel_height: 0,
    };
    let pair = native_pty_system()
        .openpty(size)
        .map_err(|e| PtyError::Open(e.to_string()))?;
    if let Some(erase) = options.erase {
        // Best effort: the program starts all the same, with the system's erase character.
        if let Err(e) = set_erase(&*pair.master, erase) {
            tracing::warn!("{e}");
        }
    }
    let mut cmd = if options.command.is_empty() {
        let mut cmd = CommandBuilder::new_default_prog();
        if let Some(shell) = &options.shell {
            cmd.env("SHELL", shell);
        }
        cmd
    } else {
        CommandBuilder::from_argv(options.command.clone())
    };
    cmd.cwd(working_dir(options));
    for (key, value) in &options.env {
        cmd.env(key, value);
    }
    for key in &options.env_remove {
        cmd.env_remove(key);
    }
    let program = if options.command.is_empty() {
        cmd.get_shell()
    } else {
        options.command[0].to_string_lossy().into_owned()
    };
    let child = pair.slave.spawn_command(cmd).map_err(|e| PtyError::Spawn {
        program,
        reason: e.to_string(),
    })?;
    // Only the child may hold the slave: then the master reads EIO when the child is gone.
    drop(pair.slave);
    let pid = child.process_id();
    let raw = pair
        .master
        .as_raw_fd()
        .ok_or_else(|| PtyError::Open("the pty master has no descriptor".into()))?;
    let reader = Source::Master(
        crate::master::MasterWatch::new(non_blocking(dup(raw)?)?).map_err(PtyError::Io)?,
    );
    let writer = non_blocking(dup(raw)?)?;
    Ok((
        Pty {
            master: pair.master,
        },
        ChildProcess { child, pid },
        PtyReader { source: reader },
        PtyWriter::new(writer),
    ))
}

/// Makes `erase` the pty's erase character (the line discipline's `VERASE`), before the
/// program starts, so a shell's line editing and the keys it is sent agree.
fn set_erase(master: &dyn portable_pty::MasterPty, erase: u8) -> Result<(), PtyError> {
    use rustix::termios::{tcgetattr, tcsetattr, OptionalActions, SpecialCodeIndex};
    let raw = master
        .as_raw_fd()
        .ok_or_else(|| PtyError::Open("the pty master has no descriptor".into()))?;
    let fd = dup(raw)?;
    let failed = |e: rustix::io::Errno| PtyError::Open(format!("cannot set the erase key: {e}"));
    let mut termios = tcgetattr(&fd).map_err(failed)?;
    termios.special_codes[SpecialCodeIndex::VERASE] = erase;
    tcsetattr(&fd, OptionalActions::Now, &termios).map_err(failed)
}

/// A duplicate of `raw`.
fn dup(raw: RawFd) -> Result<FileDescriptor, PtyError> {
    FileDescriptor::dup(&Borrowed(raw))
        .map_err(|e| PtyError::Open(format!("cannot duplicate the master: {e}")))
}

/// `fd` made non-blocking.
fn non_blocking(mut fd: FileDescriptor) -> Result<FileDescriptor, PtyError> {
    fd.set_non_blocking(true)
        .map_err(|e| PtyError::Open(format!("cannot make the descriptor non-blocking: {e}")))?;
    Ok(fd)
}

/// `fd` made non-blocking and registered with tokio for `interest`.
fn async_owned(
    fd: FileDescriptor,
    interest: Interest,
) -> Result<AsyncFd<FileDescriptor>, PtyError> {
    register(non_blocking(fd)?, interest)
}

/// Registers an owned descriptor with tokio's reactor.
#[allow(unsafe_code)]
fn register(fd: FileDescriptor, interest: Interest) -> Result<AsyncFd<FileDescriptor>, PtyError> {
    // SAFETY: `FileDescriptor` owns the descriptor it reports and closes it only when dropped,
    // which `AsyncFd` does after deregistering; nothing else closes or reuses it meanwhile.
    unsafe { AsyncFd::register_with_interest(fd, interest) }.map_err(|e| PtyError::Io(e.into()))
}

impl Pty {
    /// The terminal's device the program has (`/dev/pts/N`), when the system says.
    pub fn tty_name(&self) -> Option<std::path::PathBuf> {
        self.master.tty_name()
    }

    /// The process group in the pty's foreground (the program the user is running in it),
    /// when the kernel says.
    pub fn foreground_process(&self) -> Option<u32> {
        self.master
            .process_group_leader()
            .and_then(|pid| u32::try_from(pid).ok())
    }

    /// Sets the window size; the kernel sends the child `SIGWINCH`.
    pub fn resize(&self, cols: u16, rows: u16) -> Result<(), PtyError> {
        self.master
            .resize(PtySize {
                rows: rows.max(1),
                cols: cols.max(1),
                pixel_width: 0,
                pixel_height: 0,
            })
            .map_err(|e| PtyError::Io(std::io::Error::other(e.to_string())))
    }
}

impl ChildProcess {
    /// The child's process id.
    pub fn pid(&self) -> Option<u32> {
        self.pid
    }

    /// The exit status if the child has exited (never blocks).
    pub fn try_wait(&mut self) -> Result<Option<ExitStatus>, PtyError> {
        Ok(self
            .child
            .try_wait()?
            .map(|s| ExitStatus::from_portable(&s)))
    }

    /// Waits for the child to exit, woken by `SIGCHLD`; no polling.
    pub async fn wait_exit(&mut self) -> Result<ExitStatus, PtyError> {
        // Listen before checking, so an exit between the check and the wait is not missed.
        let mut sigchld = signal(SignalKind::child())?;
        loop {
            if let Some(status) = self.try_wait()? {
                return Ok(status);
            }
            if sigchld.recv().await.is_none() {
                return Err(PtyError::Io(std::io::Error::other("SIGCHLD stream ended")));
            }
        }
    }

    /// Sends the child `SIGHUP`, as closing its terminal does. Never waits (portable-pty's own
    /// `kill` sleeps the thread up to 200 ms before `SIGKILL`: not on a runtime's worker).
    pub fn hang_up(&mut self) -> Result<(), PtyError> {
        self.signal(rustix::process::Signal::HUP)
    }

    /// Sends the child `SIGKILL`, for one that outlived its hang-up.
    pub fn force_kill(&mut self) -> Result<(), PtyError> {
        self.signal(rustix::process::Signal::KILL)
    }

    fn signal(&mut self, signal: rustix::process::Signal) -> Result<(), PtyError> {
        let pid = self
            .pid
            .and_then(|p| i32::try_from(p).ok())
            .and_then(rustix::process::Pid::from_raw)
            .ok_or_else(|| PtyError::Io(std::io::Error::other("the child has no process id")))?;
        rustix::process::kill_process(pid, signal).map_err(|e| PtyError::Io(e.into()))
    }
}

impl PtyReader {
    /// Async reads from any terminal (the client's own `/dev/tty`). The file is set
    /// non-blocking; open it separately so no other process shares that state.
    pub fn from_file(file: std::fs::File) -> Result<Self, PtyError> {
        Ok(PtyReader {
            source: Source::Tokio(async_owned(FileDescriptor::new(file), Interest::READABLE)?),
        })
    }

    /// Reads as much output as is available right now into `buf` (waiting for the first byte):
    /// a pty hands out about 4 KiB per read, so a flood arrives in few large chunks instead of
    /// many small ones. `Ok(0)` once the program side is closed.
    ///
    /// A read of fewer than [`DRAINED_READ_BYTES`] returns at once, without the read that
    /// would only say `EAGAIN`: one system call less on every keystroke's echo. That relies on
    /// a pty master never being in canonical mode (the kernel makes it raw and only weft holds
    /// it), so a short read means the pty was empty; output written after it raises a new
    /// event (see `read_registered` and the `master` module).
    pub async fn read_available(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        self.read_available_while(buf, |_| true).await
    }

    /// [`Self::read_available`], gathering a stream only while `gather(bytes so far)` says so
    /// (asked before each further read): a stream's reader can stop early when something more
    /// urgent wants the CPU, instead of reading on until `buf` is full (64 KiB is 16 reads,
    /// each waiting for the kernel's tty worker).
    pub async fn read_available_while(
        &mut self,
        buf: &mut [u8],
        gather: impl Fn(usize) -> bool,
    ) -> std::io::Result<usize> {
        let drained_below = DRAINED_READ_BYTES.min(buf.len());
        let (mut filled, drained) = self.read_first(buf, drained_below, false).await?;
        if filled == 0 || drained {
            return Ok(filled);
        }
        if let Source::Master(fd) = &mut self.source {
            fd.start_stream();
        }
        while filled < buf.len() && gather(filled) {
            let more = match &mut self.source {
                Source::Tokio(fd) => {
                    fd.try_io_mut(Interest::READABLE, |fd| fd.read(&mut buf[filled..]))
                }
                Source::Master(fd) => fd.read_now(&mut buf[filled..]),
            };
            match more {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                // Nothing more right now (WouldBlock), or EIO/another error that the next read
                // reports: hand over what we have.
                Err(_) => break,
            }
        }
        Ok(filled)
    }

    /// Reads output into `buf`; `Ok(0)` once the program side is closed (EOF or EIO).
    pub async fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        Ok(self.read_first(buf, 0, false).await?.0)
    }

    /// Reads keys from a user's terminal (see [`PtyReader::from_file`]): like
    /// [`PtyReader::read`], but while the terminal is in non-canonical (raw) mode a read
    /// shorter than `buf` counts as having emptied it, so the next call waits for readiness
    /// instead of first making a read that only says `EAGAIN`.
    ///
    /// That read is not free on Linux: finding the terminal empty, `n_tty_read` waits for the
    /// kernel worker still moving this key into the terminal (`flush_work`), which the woken
    /// reader has usually preempted; the reader sleeps, the worker resumes, and the reader is
    /// woken once more, all before it can wait for the key's echo. A raw terminal raises a new
    /// readiness event for every arrival (tokio keeps one that comes before the readiness is
    /// cleared), so nothing is missed. In canonical mode a read returns one line and
    /// others may be buffered with no further event; the mode is checked (`TCGETS`, which
    /// does not wait for the worker) on every short read, since another process may change it.
    pub async fn read_keys(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let len = buf.len();
        Ok(self.read_first(buf, len, true).await?.0)
    }

    /// Waits for output and reads it once: the byte count, and whether the read was shorter
    /// than `drained_below` (and, with `check_raw`, the terminal is in non-canonical mode),
    /// which means it emptied the descriptor: the readiness is cleared here (see
    /// [`PtyReader::read_available`]).
    async fn read_first(
        &mut self,
        buf: &mut [u8],
        drained_below: usize,
        check_raw: bool,
    ) -> std::io::Result<(usize, bool)> {
        let fd = match &mut self.source {
            Source::Tokio(fd) => fd,
            // A master is never in canonical mode.
            Source::Master(master) => {
                return match master.read_first(buf, drained_below).await {
                    // Linux: EIO when the last slave descriptor closed.
                    Err(e) if e.raw_os_error() == Some(5) => Ok((0, false)),
                    other => other,
                };
            }
        };
        read_registered(fd, buf, drained_below, check_raw).await
    }
}

/// Waits until tokio sees `fd` readable and reads it once: the byte count, and whether the
/// read was shorter than `drained_below` (and, with `check_raw`, the terminal is in
/// non-canonical mode), in which case the readiness is cleared: output that comes after it
/// raises a new event, which tokio keeps even if it arrives before the clearing.
pub(crate) async fn read_registered(
    fd: &mut AsyncFd<FileDescriptor>,
    buf: &mut [u8],
    drained_below: usize,
    check_raw: bool,
) -> std::io::Result<(usize, bool)> {
    loop {
        let mut guard = fd.readable_mut().await?;
        match guard.try_io(|fd| fd.get_mut().read(buf)) {
            Ok(Ok(n))
                if n > 0
                    && n < drained_below
                    && (!check_raw || is_raw(guard.get_ref().get_ref())) =>
            {
                guard.clear_ready();
                return Ok((n, true));
            }
            Ok(Ok(n)) => return Ok((n, false)),
            // Linux: EIO when the last slave descriptor closed.
            Ok(Err(e)) if e.raw_os_error() == Some(5) => return Ok((0, false)),
            Ok(Err(e)) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Ok(Err(e)) => return Err(e),
            Err(_would_block) => continue,
        }
    }
}

/// Whether the terminal behind `fd` is in non-canonical mode (reads return what has arrived,
/// not whole lines); `false` when that cannot be told.
fn is_raw(fd: &FileDescriptor) -> bool {
    rustix::termios::tcgetattr(fd)
        .is_ok_and(|t| !t.local_modes.contains(rustix::termios::LocalModes::ICANON))
}

impl PtyWriter {
    /// Async writes to any terminal; see [`PtyReader::from_file`].
    pub fn from_file(file: std::fs::File) -> Result<Self, PtyError> {
        Ok(PtyWriter::new(non_blocking(FileDescriptor::new(file))?))
    }

    /// Wraps a non-blocking descriptor.
    fn new(fd: FileDescriptor) -> Self {
        PtyWriter {
            fd,
            room: tokio::sync::Mutex::new(()),
        }
    }

    /// Writes as much of `data` as the pty takes right now, without waiting: the number of
    /// bytes written, or `WouldBlock` when its input buffer is full.
    pub fn try_write(&self, data: &[u8]) -> std::io::Result<usize> {
        write_now(&self.fd, data)
    }

    /// Writes all of `data` to the program, waiting while the pty's input buffer is full.
    pub async fn write_all(&self, mut data: &[u8]) -> std::io::Result<()> {
        while !data.is_empty() {
            match self.write_some(data).await? {
                0 => return Err(std::io::ErrorKind::WriteZero.into()),
                n => data = &data[n..],
            }
        }
        Ok(())
    }

    /// Writes what the descriptor takes once it takes anything, waiting while it is full:
    /// the number of bytes written. Cancel-safe: nothing is written while it waits, so a
    /// caller that gives up (a deadline) knows exactly what went out.
    pub async fn write_some(&self, data: &[u8]) -> std::io::Result<usize> {
        loop {
            match write_now(&self.fd, data) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    self.wait_for_room().await?
                }
                done => return done,
            }
        }
    }

    /// Waits until the descriptor takes more, registered with the reactor only meanwhile. A
    /// new registration reports a descriptor that is already writable, so room made between
    /// the failed write and this call is not missed.
    async fn wait_for_room(&self) -> std::io::Result<()> {
        let _one_at_a_time = self.room.lock().await;
        // SAFETY: `self.fd` owns the descriptor and outlives `registered`, which is dropped
        // (deregistered) at the end of this call.
        #[allow(unsafe_code)]
        let registered = unsafe {
            AsyncFd::register_with_interest(Borrowed(self.fd.as_raw_fd()), Interest::WRITABLE)
        }?;
        let _ready = registered.writable().await?;
        Ok(())
    }
}

/// One `write(2)` on `fd`, through a shared reference (the descriptor is non-blocking).
#[allow(unsafe_code)]
fn write_now(fd: &FileDescriptor, data: &[u8]) -> std::io::Result<usize> {
    // SAFETY: `fd` owns the descriptor and is borrowed for the whole call, so it stays open.
    let borrowed = unsafe { std::os::fd::BorrowedFd::borrow_raw(fd.as_raw_fd()) };
    rustix::io::write(borrowed, data).map_err(std::io::Error::from)
}

/// Where the program starts: the wanted directory if it exists, else `$HOME` (the program's, or
/// this process's), else `/`, as tmux does. A directory removed since it was asked for (or a
/// home that does not exist) then never keeps a pane from starting.
fn working_dir(options: &SpawnOptions) -> std::path::PathBuf {
    let home = options
        .env
        .iter()
        .rev()
        .find(|(key, _)| key == "HOME")
        .map(|(_, value)| std::path::PathBuf::from(value))
        .or_else(|| std::env::var_os("HOME").map(Into::into));
    options
        .cwd
        .clone()
        .into_iter()
        .chain(home)
        .find(|dir| dir.is_dir())
        .unwrap_or_else(|| "/".into())
}

#[cfg(test)]
mod tests {
    use super::ExitStatus;

    #[test]
    fn a_signal_is_reported_as_a_shell_would() {
        let segv = ExitStatus::signalled("Segmentation fault");
        assert_eq!((segv.code, segv.signal.as_deref()), (139, Some("SIGSEGV")));
        let odd = ExitStatus::signalled("Signal 40");
        assert_eq!((odd.code, odd.signal.as_deref()), (168, Some("Signal 40")));
    }
}
