//! [`TestTerminalBuilder`]: what a [`TestTerminal`] runs, at what size, with what
//! environment and deadlines, before it starts.

use super::TestTerminal;
use crate::error::WaitError;
use crate::fake::FakeTerminal;
use crate::recording::Recording;
use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Duration;
use weft_pty_io::{SpawnOptions, READ_CHUNK_BYTES};
use weft_screen_model::Screen;

/// Builds a [`TestTerminal`].
///
/// ```
/// use std::time::Duration;
/// use weft_testkit::TestTerminal;
/// let mut term = TestTerminal::spawn(["sh", "-c", "printf '%s' \"$GREETING\""])
///     .size(40, 10)
///     .env("GREETING", "hi")
///     .timeout(Duration::from_secs(5))
///     .start()?;
/// term.expect_text("hi").in_row(0).wait()?;
/// # Ok::<(), weft_testkit::WaitError>(())
/// ```
#[derive(Debug)]
pub struct TestTerminalBuilder {
    pub(super) options: SpawnOptions,
    pub(super) timeout: Duration,
    pub(super) record_limit: usize,
    pub(super) fake: Option<FakeTerminal>,
}

impl TestTerminalBuilder {
    /// The terminal answers the program's queries as `fake` says, instead of as weft's own
    /// screen model would.
    ///
    /// ```
    /// use weft_testkit::{FakeTerminal, TestTerminal};
    /// // The program asks for the terminal's attributes (DA1) and prints the 7-byte answer.
    /// let script = "stty -echo -icanon; printf '\\033[c'; dd bs=1 count=7 2>/dev/null | tr -d '\\033'";
    /// let mut term = TestTerminal::spawn(["sh", "-c", script])
    ///     .answering(FakeTerminal::kitty())
    ///     .start()?;
    /// term.expect_text("[?62;c").wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn answering(mut self, fake: FakeTerminal) -> Self {
        self.fake = Some(fake);
        self
    }

    /// The terminal size (default 80x24).
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["stty", "size"]).size(100, 30).start()?;
    /// term.expect_text("30 100").wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn size(mut self, cols: u16, rows: u16) -> Self {
        self.options.cols = cols;
        self.options.rows = rows;
        self
    }

    /// Sets an environment variable for the program.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf '%s' \"$NAME\""])
    ///     .env("NAME", "weft")
    ///     .start()?;
    /// term.expect_text("weft").wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn env(mut self, key: impl Into<OsString>, value: impl Into<OsString>) -> Self {
        self.options.env.push((key.into(), value.into()));
        self
    }

    /// The program's working directory.
    ///
    /// ```
    /// use weft_testkit::{assert_screen, TestTerminal};
    /// let mut term = TestTerminal::spawn(["pwd"]).cwd("/").start()?;
    /// term.wait_exit()?;
    /// assert_screen!(term, ["/"]);
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> Self {
        self.options.cwd = Some(dir.into());
        self
    }

    /// Deadline for each wait (default 10 s).
    ///
    /// ```
    /// use std::time::Duration;
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["cat"])
    ///     .timeout(Duration::from_millis(20))
    ///     .start()?;
    /// assert!(term.expect_text("never printed").wait().is_err());
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
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
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["echo", "started"]).start()?;
    /// term.expect_text("started").wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
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
