//! The test terminal itself.

use crate::keys::{encode_keys, KeyError};
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;
use tokio::runtime::Runtime;
use tokio::time::Instant;
use weft_pty_io::{
    ChildProcess, ExitStatus, Pty, PtyReader, PtyWriter, SpawnOptions, READ_CHUNK_BYTES,
};
use weft_screen_model::{Event, Screen};

/// Default deadline for a wait.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// A wait that did not see what it waited for.
#[derive(Debug)]
pub enum WaitError {
    /// The deadline passed; the screen as it was.
    Timeout {
        /// What was awaited.
        what: String,
        /// The screen at the deadline.
        screen: String,
    },
    /// The program exited first.
    Exited {
        /// What was awaited.
        what: String,
        /// The screen at the end.
        screen: String,
    },
    /// The pty or process failed.
    Io(String),
}

impl std::fmt::Display for WaitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WaitError::Timeout { what, screen } => {
                write!(f, "timed out waiting for {what}; the screen was:\n{screen}")
            }
            WaitError::Exited { what, screen } => {
                write!(
                    f,
                    "the program exited while waiting for {what}; the screen was:\n{screen}"
                )
            }
            WaitError::Io(e) => write!(f, "terminal I/O: {e}"),
        }
    }
}

impl std::error::Error for WaitError {}

/// How the program ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exit {
    /// Exit code (128 + n after a signal).
    pub code: u32,
}

/// Builds a [`TestTerminal`].
#[derive(Debug)]
pub struct TestTerminalBuilder {
    options: SpawnOptions,
    timeout: Duration,
}

impl TestTerminalBuilder {
    /// The terminal size (default 80x24).
    pub fn size(mut self, cols: u16, rows: u16) -> Self {
        self.options.cols = cols;
        self.options.rows = rows;
        self
    }

    /// Sets an environment variable for the program.
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.options.env.push((key.into(), value.into()));
        self
    }

    /// The program's working directory.
    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> Self {
        self.options.cwd = Some(dir.into());
        self
    }

    /// Deadline for each wait (default 10 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Starts the program.
    pub fn start(self) -> Result<TestTerminal, WaitError> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| WaitError::Io(e.to_string()))?;
        let spawned = runtime.block_on(async { weft_pty_io::spawn(&self.options) });
        let (pty, child, reader, writer) = spawned.map_err(|e| WaitError::Io(e.to_string()))?;
        Ok(TestTerminal {
            screen: Screen::new(
                usize::from(self.options.cols),
                usize::from(self.options.rows),
            ),
            runtime,
            pty,
            child,
            reader,
            writer,
            timeout: self.timeout,
            eof: false,
            exit: None,
            buf: vec![0; READ_CHUNK_BYTES],
        })
    }
}

/// A program on a real pty, its output applied to a weft screen.
pub struct TestTerminal {
    screen: Screen,
    runtime: Runtime,
    pty: Pty,
    child: ChildProcess,
    reader: PtyReader,
    writer: PtyWriter,
    timeout: Duration,
    eof: bool,
    exit: Option<ExitStatus>,
    buf: Vec<u8>,
}

impl std::fmt::Debug for TestTerminal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestTerminal")
            .field("screen", &self.screen.text())
            .finish_non_exhaustive()
    }
}

impl TestTerminal {
    /// A builder for `cmd` (program and arguments) at 80x24.
    pub fn spawn<I, S>(cmd: I) -> TestTerminalBuilder
    where
        I: IntoIterator<Item = S>,
        S: Into<OsString>,
    {
        TestTerminalBuilder {
            options: SpawnOptions {
                command: cmd.into_iter().map(Into::into).collect(),
                cols: 80,
                rows: 24,
                ..SpawnOptions::default()
            },
            timeout: DEFAULT_TIMEOUT,
        }
    }

    /// A weft client attached to `target` on the server at `socket`, at 80x24 (change with
    /// [`TestTerminalBuilder::size`]): the session as a user's terminal shows it.
    pub fn attach(
        weft: impl Into<OsString>,
        socket: impl Into<OsString>,
        target: &str,
    ) -> TestTerminalBuilder {
        TestTerminal::spawn([
            weft.into(),
            "-S".into(),
            socket.into(),
            "attach".into(),
            "-t".into(),
            target.into(),
        ])
    }

    /// The screen as the program left it so far.
    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    /// The program's pid.
    pub fn pid(&self) -> Option<u32> {
        self.child.pid()
    }

    /// Sends raw bytes to the program.
    pub fn send_bytes(&mut self, bytes: &[u8]) -> Result<(), WaitError> {
        let (runtime, writer) = (&self.runtime, &mut self.writer);
        runtime
            .block_on(writer.write_all(bytes))
            .map_err(|e| WaitError::Io(e.to_string()))
    }

    /// Sends text as typed.
    pub fn send_text(&mut self, text: &str) -> Result<(), WaitError> {
        self.send_bytes(text.as_bytes())
    }

    /// Sends tmux-style key names (`"ls Enter"`, `"C-b d"`), encoded for the program's
    /// cursor-key mode.
    pub fn send_keys(&mut self, keys: &str) -> Result<(), WaitError> {
        let bytes = encode_keys(keys, self.screen.modes().application_cursor)
            .map_err(|KeyError(k)| WaitError::Io(format!("unknown key name {k}")))?;
        self.send_bytes(&bytes)
    }

    /// Resizes the terminal (the program gets `SIGWINCH`).
    pub fn resize(&mut self, cols: u16, rows: u16) -> Result<(), WaitError> {
        self.screen.resize(usize::from(cols), usize::from(rows));
        self.pty
            .resize(cols, rows)
            .map_err(|e| WaitError::Io(e.to_string()))
    }

    /// Waits until `text` is on the visible screen.
    pub fn wait_for_text(&mut self, text: &str) -> Result<(), WaitError> {
        let what = format!("{text:?}");
        self.wait_until(&what, |s| s.text().contains(text))
    }

    /// Waits until `predicate` holds for the screen.
    pub fn wait_for(&mut self, predicate: impl FnMut(&Screen) -> bool) -> Result<(), WaitError> {
        self.wait_until("a screen condition", predicate)
    }

    /// Waits until the screen satisfies `predicate`, reading output as it comes.
    pub fn wait_until(
        &mut self,
        what: &str,
        mut predicate: impl FnMut(&Screen) -> bool,
    ) -> Result<(), WaitError> {
        let deadline = Instant::now() + self.timeout;
        loop {
            if predicate(&self.screen) {
                return Ok(());
            }
            if self.eof {
                return Err(WaitError::Exited {
                    what: what.to_string(),
                    screen: self.screen.text(),
                });
            }
            if !self.read_some(deadline)? {
                return Err(WaitError::Timeout {
                    what: what.to_string(),
                    screen: self.screen.text(),
                });
            }
        }
    }

    /// Waits until the program's output raises an event `predicate` accepts (an OSC 52
    /// clipboard write, a bell, a title) and returns it; events before it are passed over.
    pub fn wait_for_event(
        &mut self,
        mut predicate: impl FnMut(&Event) -> bool,
    ) -> Result<Event, WaitError> {
        let deadline = Instant::now() + self.timeout;
        loop {
            if let Some(event) = self.screen.take_events().into_iter().find(&mut predicate) {
                return Ok(event);
            }
            if self.eof {
                return Err(WaitError::Exited {
                    what: "an event".into(),
                    screen: self.screen.text(),
                });
            }
            if !self.read_some(deadline)? {
                return Err(WaitError::Timeout {
                    what: "an event".into(),
                    screen: self.screen.text(),
                });
            }
        }
    }

    /// Waits until the program has printed nothing for `quiet`.
    pub fn wait_idle(&mut self, quiet: Duration) -> Result<(), WaitError> {
        let deadline = Instant::now() + self.timeout;
        loop {
            let idle_at = (Instant::now() + quiet).min(deadline);
            if self.eof || !self.read_some(idle_at)? {
                return if Instant::now() >= deadline {
                    Err(WaitError::Timeout {
                        what: format!("{quiet:?} without output"),
                        screen: self.screen.text(),
                    })
                } else {
                    Ok(())
                };
            }
        }
    }

    /// Reads output until the program exits, then returns its status.
    pub fn wait_exit(&mut self) -> Result<Exit, WaitError> {
        let deadline = Instant::now() + self.timeout;
        while !self.eof {
            if !self.read_some(deadline)? {
                break;
            }
        }
        if let Some(status) = &self.exit {
            return Ok(Exit { code: status.code });
        }
        let (runtime, child) = (&self.runtime, &mut self.child);
        let status = runtime
            .block_on(async { tokio::time::timeout_at(deadline, child.wait_exit()).await })
            .map_err(|_| WaitError::Timeout {
                what: "the program to exit".into(),
                screen: self.screen.text(),
            })?
            .map_err(|e| WaitError::Io(e.to_string()))?;
        self.exit = Some(status.clone());
        Ok(Exit { code: status.code })
    }

    /// Reads one chunk of output, or returns false at the deadline.
    fn read_some(&mut self, deadline: Instant) -> Result<bool, WaitError> {
        let (runtime, reader, buf) = (&self.runtime, &mut self.reader, &mut self.buf);
        let read = runtime.block_on(async {
            tokio::select! {
                n = reader.read(buf) => Some(n),
                _ = tokio::time::sleep_until(deadline) => None,
            }
        });
        match read {
            None => Ok(false),
            Some(Ok(0)) => {
                self.eof = true;
                Ok(true)
            }
            Some(Ok(n)) => {
                self.screen.feed(&self.buf[..n]);
                let replies = self.screen.take_replies();
                if !replies.is_empty() {
                    self.send_bytes(&replies)?;
                }
                Ok(true)
            }
            Some(Err(e)) => Err(WaitError::Io(e.to_string())),
        }
    }
}

impl Drop for TestTerminal {
    fn drop(&mut self) {
        let _ = self.child.hang_up();
        let _ = self.child.force_kill();
    }
}
