//! The test terminal itself.

use crate::error::{annotated_screen, describe_input, FailureReport, WaitError};
use crate::fake::FakeTerminal;
use crate::keys::{encode_keys, KeyError};
use crate::recording::{Kind, Recording, DEFAULT_LIMIT};
use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;
use tokio::runtime::Runtime;
use tokio::time::Instant;
use weft_pty_io::{
    ChildProcess, ExitStatus, Pty, PtyReader, PtyWriter, SpawnOptions, READ_CHUNK_BYTES,
};
use weft_screen_model::{Event, Screen};

/// Default deadline for a wait.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How many input calls a failure report lists.
const LAST_INPUT: usize = 20;

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
    record_limit: usize,
    fake: Option<FakeTerminal>,
}

impl TestTerminalBuilder {
    /// The terminal answers the program's queries as `fake` says, instead of as weft's own
    /// screen model would.
    pub fn answering(mut self, fake: FakeTerminal) -> Self {
        self.fake = Some(fake);
        self
    }

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

    /// Bound on the bytes the recording keeps (default 8 MiB); past it the oldest events are
    /// dropped and the recording notes how much. `0` records nothing.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf 0123456789"])
    ///     .record_limit(4)
    ///     .start()?;
    /// term.expect_text("0123456789").wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn record_limit(mut self, bytes: usize) -> Self {
        self.record_limit = bytes;
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
            recording: Recording::new(self.options.cols, self.options.rows, self.record_limit),
            last_input: VecDeque::new(),
            eof: false,
            exit: None,
            buf: vec![0; READ_CHUNK_BYTES],
            pending_events: VecDeque::new(),
            fake: self.fake,
        })
    }
}

/// Events kept for later waits at most: a program raising events no test waits for (a bell
/// per line of a flood) must not grow the test's memory; the oldest go first.
const MAX_PENDING_EVENTS: usize = 4096;

/// A program on a real pty, its output applied to a weft screen.
pub struct TestTerminal {
    screen: Screen,
    runtime: Runtime,
    pty: Pty,
    child: ChildProcess,
    reader: PtyReader,
    writer: PtyWriter,
    pub(crate) timeout: Duration,
    recording: Recording,
    last_input: VecDeque<String>,
    eof: bool,
    exit: Option<ExitStatus>,
    buf: Vec<u8>,
    /// Events already read from the screen that no wait has taken yet (those after a match
    /// that arrived in the same read), oldest first.
    pending_events: VecDeque<Event>,
    /// Answers queries in place of the screen model, when set.
    fake: Option<FakeTerminal>,
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
            record_limit: DEFAULT_LIMIT,
            fake: None,
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

    /// The scripted terminal answering the program's queries, if the test gave one: to change
    /// what it answers from now on, or to see everything the program printed.
    pub fn fake_terminal(&mut self) -> Option<&mut FakeTerminal> {
        self.fake.as_mut()
    }

    /// The screen as the program left it so far.
    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    /// The screen as an SVG picture (colours, attributes, wide characters, the cursor), for a
    /// test's artifacts or docs: `weft capture --svg`'s writer on this terminal's screen.
    pub fn screen_svg(&self) -> String {
        weft_artifacts::svg::screen_svg(&self.screen)
    }

    /// The events the output raised so far (bells, titles, clipboard writes) that no wait
    /// took, oldest first; they are not seen again.
    pub fn take_events(&mut self) -> Vec<Event> {
        let mut events: Vec<Event> = self.pending_events.drain(..).collect();
        events.extend(self.screen.take_events());
        events
    }

    /// The program's pid.
    pub fn pid(&self) -> Option<u32> {
        self.child.pid()
    }

    /// Sends raw bytes to the program.
    pub fn send_bytes(&mut self, bytes: &[u8]) -> Result<(), WaitError> {
        self.note_input(describe_input("send_bytes", bytes));
        self.write_input(bytes)
    }

    /// Sends text as typed.
    pub fn send_text(&mut self, text: &str) -> Result<(), WaitError> {
        self.note_input(describe_input("send_text", text.as_bytes()));
        self.write_input(text.as_bytes())
    }

    /// Sends tmux-style key names (`"ls Enter"`, `"C-b d"`), encoded for the program's
    /// cursor-key mode.
    pub fn send_keys(&mut self, keys: &str) -> Result<(), WaitError> {
        let bytes = encode_keys(keys, self.screen.modes().application_cursor)
            .map_err(|KeyError(k)| WaitError::Io(format!("unknown key name {k}")))?;
        self.note_input(format!("send_keys({keys:?})"));
        self.write_input(&bytes)
    }

    /// Remembers an input call for failure reports.
    fn note_input(&mut self, call: String) {
        if self.last_input.len() == LAST_INPUT {
            self.last_input.pop_front();
        }
        self.last_input.push_back(call);
    }

    /// Writes input to the program and records it.
    fn write_input(&mut self, bytes: &[u8]) -> Result<(), WaitError> {
        self.recording.push(Kind::Input, bytes);
        self.write_raw(bytes)
    }

    fn write_raw(&mut self, bytes: &[u8]) -> Result<(), WaitError> {
        let (runtime, writer) = (&self.runtime, &mut self.writer);
        runtime
            .block_on(writer.write_all(bytes))
            .map_err(|e| WaitError::Io(e.to_string()))
    }

    /// Writes the recording so far (output and input with timestamps, asciicast v2) to `path`.
    /// Failures write it on their own under `target/weft-testkit/`.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf hello"]).start()?;
    /// term.expect_text("hello").wait()?;
    /// let path = std::env::temp_dir().join(format!("weft-doc-{}.cast", std::process::id()));
    /// term.write_recording(&path).unwrap();
    /// let cast = std::fs::read_to_string(&path).unwrap();
    /// assert!(cast.starts_with("{\"version\": 2"));
    /// assert!(cast.contains("hello"));
    /// # std::fs::remove_file(&path).ok();
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn write_recording(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        self.recording.save_to(path.as_ref())
    }

    /// Resizes the terminal (the program gets `SIGWINCH`).
    pub fn resize(&mut self, cols: u16, rows: u16) -> Result<(), WaitError> {
        self.screen.resize(usize::from(cols), usize::from(rows));
        self.recording
            .push(Kind::Resize, format!("{cols}x{rows}").as_bytes());
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

    /// Waits until the screen satisfies `predicate`, reading output as it comes; `what` names
    /// the condition in the failure report.
    pub fn wait_until(
        &mut self,
        what: &str,
        predicate: impl FnMut(&Screen) -> bool,
    ) -> Result<(), WaitError> {
        self.wait_core(what, self.timeout, predicate, |_| None)
    }

    /// The one wait loop: checks `predicate` after every chunk of output until `timeout`;
    /// on failure `detail` may say more about the final screen.
    pub(crate) fn wait_core(
        &mut self,
        what: &str,
        timeout: Duration,
        mut predicate: impl FnMut(&Screen) -> bool,
        detail: impl FnOnce(&Screen) -> Option<String>,
    ) -> Result<(), WaitError> {
        let started = Instant::now();
        let deadline = started + timeout;
        loop {
            if predicate(&self.screen) {
                return Ok(());
            }
            if self.eof {
                let detail = detail(&self.screen);
                return Err(self.failure(true, what, started, detail));
            }
            if !self.read_some(deadline)? {
                let detail = detail(&self.screen);
                return Err(self.failure(false, what, started, detail));
            }
        }
    }

    /// A timeout or early-exit error with the full report; writes the recording.
    fn failure(
        &mut self,
        exited: bool,
        what: &str,
        started: Instant,
        detail: Option<String>,
    ) -> WaitError {
        let cursor = self.screen.cursor_state();
        let dropped = self.recording.dropped_bytes();
        let detail = match (detail, dropped) {
            (d, 0) => d,
            (d, n) => Some(format!(
                "{}(the recording dropped its oldest {n} bytes to bound memory)",
                d.map(|d| format!("{d}\n")).unwrap_or_default()
            )),
        };
        let report = Box::new(FailureReport {
            screen: annotated_screen(&self.screen),
            cursor: (cursor.row, cursor.col),
            detail,
            last_input: self.last_input.iter().cloned().collect(),
            recording: self.recording.save(),
            waited: started.elapsed(),
        });
        let (what, screen) = (what.to_string(), self.screen.text());
        if exited {
            WaitError::Exited {
                what,
                screen,
                report,
            }
        } else {
            WaitError::Timeout {
                what,
                screen,
                report,
            }
        }
    }

    /// Waits until the program's output raises an event `predicate` accepts (an OSC 52
    /// clipboard write, a bell, a title) and returns it; events before it are passed over,
    /// events after it stay for the next wait or [`TestTerminal::take_events`].
    pub fn wait_for_event(
        &mut self,
        mut predicate: impl FnMut(&Event) -> bool,
    ) -> Result<Event, WaitError> {
        let started = Instant::now();
        let deadline = started + self.timeout;
        loop {
            self.pending_events.extend(self.screen.take_events());
            let excess = self.pending_events.len().saturating_sub(MAX_PENDING_EVENTS);
            self.pending_events.drain(..excess);
            if let Some(at) = self.pending_events.iter().position(&mut predicate) {
                let mut taken = self.pending_events.drain(..=at);
                if let Some(event) = taken.next_back() {
                    return Ok(event);
                }
            }
            if self.eof {
                return Err(self.failure(true, "an event", started, None));
            }
            if !self.read_some(deadline)? {
                return Err(self.failure(false, "an event", started, None));
            }
        }
    }

    /// Waits until the program has printed nothing for `quiet`.
    pub fn wait_idle(&mut self, quiet: Duration) -> Result<(), WaitError> {
        let started = Instant::now();
        let deadline = started + self.timeout;
        loop {
            let idle_at = (Instant::now() + quiet).min(deadline);
            if self.eof || !self.read_some(idle_at)? {
                return if Instant::now() >= deadline {
                    let what = format!("{quiet:?} without output");
                    Err(self.failure(false, &what, started, None))
                } else {
                    Ok(())
                };
            }
        }
    }

    /// Reads output until the program exits, then returns its status.
    pub fn wait_exit(&mut self) -> Result<Exit, WaitError> {
        let started = Instant::now();
        let deadline = started + self.timeout;
        while !self.eof {
            if !self.read_some(deadline)? {
                break;
            }
        }
        if let Some(status) = &self.exit {
            return Ok(Exit { code: status.code });
        }
        let (runtime, child) = (&self.runtime, &mut self.child);
        let waited =
            runtime.block_on(async { tokio::time::timeout_at(deadline, child.wait_exit()).await });
        let status = match waited {
            Ok(status) => status.map_err(|e| WaitError::Io(e.to_string()))?,
            Err(_) => return Err(self.failure(false, "the program to exit", started, None)),
        };
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
                self.recording.push(Kind::Output, &self.buf[..n]);
                self.screen.feed(&self.buf[..n]);
                let mut replies = self.screen.take_replies();
                if let Some(fake) = self.fake.as_mut() {
                    replies = fake.answer(&self.buf[..n]);
                }
                if !replies.is_empty() {
                    self.write_raw(&replies)?;
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
