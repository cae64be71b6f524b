//! The test terminal itself.

use crate::error::{annotated_screen, describe_input, FailureReport, WaitError};
use crate::fake::FakeTerminal;
use crate::keys::{encode_keys, KeyError};
use crate::recording::{Kind, Recording, DEFAULT_LIMIT};
use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;
use tokio::runtime::Runtime;
use tokio::time::Instant;
use weft_pty_io::{ChildProcess, ExitStatus, Pty, PtyReader, PtyWriter, SpawnOptions};
use weft_screen_model::{Event, Screen};

mod builder;
pub use builder::TestTerminalBuilder;

/// Default deadline for a wait.
const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// How many input calls a failure report lists.
const LAST_INPUT: usize = 20;

/// How the program ended.
///
/// ```
/// use weft_testkit::{Exit, TestTerminal};
/// let mut term = TestTerminal::spawn(["sh", "-c", "exit 3"]).start()?;
/// assert_eq!(term.wait_exit()?, Exit { code: 3 });
/// # Ok::<(), weft_testkit::WaitError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exit {
    /// Exit code (128 + n after a signal).
    pub code: u32,
}

/// Events kept for later waits at most: a program raising events no test waits for (a bell
/// per line of a flood) must not grow the test's memory; the oldest go first.
const MAX_PENDING_EVENTS: usize = 4096;

/// A program on a real pty, its output applied to a weft screen.
///
/// ```
/// use weft_testkit::TestTerminal;
/// let mut term = TestTerminal::spawn(["cat"]).start()?;
/// term.send_keys("hello Enter")?;
/// term.expect_text("hello").in_row(1).wait()?;
/// term.send_keys("C-d")?;
/// assert_eq!(term.wait_exit()?.code, 0);
/// # Ok::<(), weft_testkit::WaitError>(())
/// ```
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
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["printf", "one two"]).start()?;
    /// term.expect_text("one two").wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
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
    ///
    /// ```no_run
    /// use std::process::Command;
    /// use weft_testkit::TestTerminal;
    /// // A server with a detached session "work" on a socket of the test's own.
    /// let socket = std::env::temp_dir().join("weft-doc-attach.sock");
    /// let started = Command::new("weft")
    ///     .arg("-S")
    ///     .arg(&socket)
    ///     .args(["new-session", "-d", "-s", "work"])
    ///     .status()
    ///     .expect("run weft");
    /// assert!(started.success());
    /// let mut term = TestTerminal::attach("weft", &socket, "work").size(100, 30).start()?;
    /// term.expect_text("[work]").in_row(29).wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
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
    ///
    /// ```
    /// use weft_testkit::{FakeTerminal, TestTerminal};
    /// let mut term = TestTerminal::spawn(["printf", "\\033[cdone"])
    ///     .answering(FakeTerminal::silent())
    ///     .start()?;
    /// term.expect_text("done").wait()?;
    /// let fake = term.fake_terminal().expect("the test gave one");
    /// assert!(fake.received().starts_with(b"\x1b[c"));
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn fake_terminal(&mut self) -> Option<&mut FakeTerminal> {
        self.fake.as_mut()
    }

    /// Waits until the program has printed `query` to the scripted terminal, which has then
    /// answered it: for a program (weft, when a client attaches) that goes on drawing without
    /// waiting for the answers.
    ///
    /// ```
    /// use weft_testkit::{FakeTerminal, TestTerminal};
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf '\\033[c'; sleep 5"])
    ///     .answering(FakeTerminal::xterm())
    ///     .start()?;
    /// term.wait_for_query(b"\x1b[c")?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn wait_for_query(&mut self, query: &[u8]) -> Result<(), WaitError> {
        let started = Instant::now();
        let deadline = started + self.timeout;
        let what = format!(
            "the query {}",
            String::from_utf8_lossy(query).escape_debug()
        );
        let asked = |fake: Option<&FakeTerminal>| {
            fake.is_some_and(|f| f.received().windows(query.len()).any(|w| w == query))
        };
        while !asked(self.fake.as_ref()) {
            if self.eof || !self.read_some(deadline)? {
                return Err(self.failure(self.eof, &what, started, None));
            }
        }
        Ok(())
    }

    /// The screen as the program left it so far.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["printf", "ab\\ncd"]).start()?;
    /// term.expect_text("cd").wait()?;
    /// let cursor = term.screen().cursor_state();
    /// assert_eq!((cursor.row, cursor.col), (1, 2));
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    /// The screen as an SVG picture (colours, attributes, wide characters, the cursor), for a
    /// test's artifacts or docs: `weft capture --svg`'s writer on this terminal's screen.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["printf", "\\033[32mgreen"]).start()?;
    /// term.expect_text("green").wait()?;
    /// let svg = term.screen_svg();
    /// assert!(svg.starts_with("<svg") && svg.contains("green"));
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn screen_svg(&self) -> String {
        weft_artifacts::svg::screen_svg(&self.screen)
    }

    /// The events the output raised so far (bells, titles, clipboard writes) that no wait
    /// took, oldest first; they are not seen again.
    ///
    /// ```
    /// use weft_testkit::{Event, TestTerminal};
    /// let mut term = TestTerminal::spawn(["printf", "a\\007b"]).start()?;
    /// term.expect_text("ab").wait()?;
    /// assert_eq!(term.take_events(), vec![Event::Bell]);
    /// assert!(term.take_events().is_empty());
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn take_events(&mut self) -> Vec<Event> {
        let mut events: Vec<Event> = self.pending_events.drain(..).collect();
        events.extend(self.screen.take_events());
        events
    }

    /// The program's pid.
    ///
    /// ```
    /// use weft_testkit::{assert_screen, TestTerminal};
    /// let mut term = TestTerminal::spawn(["sh", "-c", "echo $$"]).start()?;
    /// let pid = term.pid().expect("the program runs");
    /// term.wait_exit()?;
    /// assert_screen!(term, [pid.to_string()]);
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn pid(&self) -> Option<u32> {
        self.child.pid()
    }

    /// Sends raw bytes to the program.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["cat"]).start()?;
    /// term.send_bytes(b"raw\r")?;
    /// term.expect_text("raw").in_row(1).wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn send_bytes(&mut self, bytes: &[u8]) -> Result<(), WaitError> {
        self.note_input(describe_input("send_bytes", bytes));
        self.write_input(bytes)
    }

    /// Sends text as typed.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["cat"]).start()?;
    /// term.send_text("héllo wörld\r")?;
    /// term.expect_text("héllo wörld").in_row(1).wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn send_text(&mut self, text: &str) -> Result<(), WaitError> {
        self.note_input(describe_input("send_text", text.as_bytes()));
        self.write_input(text.as_bytes())
    }

    /// Sends tmux-style key names (`"ls Enter"`, `"C-b d"`), encoded for the program's
    /// cursor-key mode.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["cat"]).start()?;
    /// term.send_keys("hi Enter")?;
    /// term.expect_text("hi").in_row(1).wait()?; // cat runs
    /// term.send_keys("C-c")?;
    /// assert_eq!(term.wait_exit()?.code, 128 + 2); // SIGINT
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
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
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "read line; stty size"]).start()?;
    /// term.resize(100, 30)?;
    /// term.send_keys("Enter")?;
    /// term.expect_text("30 100").wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn resize(&mut self, cols: u16, rows: u16) -> Result<(), WaitError> {
        self.screen.resize(usize::from(cols), usize::from(rows));
        self.recording
            .push(Kind::Resize, format!("{cols}x{rows}").as_bytes());
        self.pty
            .resize(cols, rows)
            .map_err(|e| WaitError::Io(e.to_string()))
    }

    /// Waits until `text` is on the visible screen.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["printf", "ready> "]).start()?;
    /// term.wait_for_text("ready>")?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn wait_for_text(&mut self, text: &str) -> Result<(), WaitError> {
        let what = format!("{text:?}");
        self.wait_until(&what, |s| s.text().contains(text))
    }

    /// Waits until `predicate` holds for the screen.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["printf", "a\\nb\\nc"]).start()?;
    /// term.wait_for(|screen| screen.cursor_state().row == 2)?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn wait_for(&mut self, predicate: impl FnMut(&Screen) -> bool) -> Result<(), WaitError> {
        self.wait_until("a screen condition", predicate)
    }

    /// Waits until the screen satisfies `predicate`, reading output as it comes; `what` names
    /// the condition in the failure report.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["printf", "x\\ny"]).start()?;
    /// term.wait_until("a second line", |screen| {
    ///     screen.row(1).is_some_and(|row| !row.text().is_empty())
    /// })?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
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
    ///
    /// ```
    /// use weft_testkit::{Event, TestTerminal};
    /// let mut term = TestTerminal::spawn(["printf", "\\033]2;build done\\007"]).start()?;
    /// let event = term.wait_for_event(|e| matches!(e, Event::TitleChanged(_)))?;
    /// assert_eq!(event, Event::TitleChanged("build done".to_string()));
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
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
    ///
    /// ```
    /// use std::time::Duration;
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf 'a\\nb'; exec cat"]).start()?;
    /// term.expect_text("b").wait()?;
    /// term.wait_idle(Duration::from_millis(20))?; // nothing more follows
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
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
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf bye; exit 7"]).start()?;
    /// let exit = term.wait_exit()?;
    /// assert_eq!(exit.code, 7);
    /// assert!(term.screen().text().contains("bye"));
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
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
