//! What a failed wait reports: the screen with row numbers and the cursor, the last input sent,
//! and where the recording of the test went.

use std::fmt::Write;
use std::path::PathBuf;
use weft_screen_model::Screen;

/// A wait that did not see what it waited for.
///
/// Its `Display` is the whole failure report: what was awaited, the screen with row numbers
/// and the cursor marked, the last keys sent, and the path of an asciicast recording of
/// everything the terminal received and was sent.
///
/// ```
/// use std::time::Duration;
/// use weft_testkit::TestTerminal;
/// let mut term = TestTerminal::spawn(["sh", "-c", "printf ready; sleep 5"])
///     .timeout(Duration::from_millis(300))
///     .start()?;
/// term.expect_text("ready").wait()?;
/// let err = term.expect_text("never").wait().unwrap_err();
/// let report = err.to_string();
/// assert!(report.contains(">  0 | ready"));
/// assert!(report.contains(".cast"));
/// # Ok::<(), weft_testkit::WaitError>(())
/// ```
#[non_exhaustive]
pub enum WaitError {
    /// The deadline passed; the screen as it was.
    Timeout {
        /// What was awaited.
        what: String,
        /// The screen at the deadline, as plain text.
        screen: String,
        /// Row-numbered screen, last input and recording path.
        report: Box<FailureReport>,
    },
    /// The program exited first.
    Exited {
        /// What was awaited.
        what: String,
        /// The screen at the end, as plain text.
        screen: String,
        /// Row-numbered screen, last input and recording path.
        report: Box<FailureReport>,
    },
    /// A pattern given to [`crate::TestTerminal::expect_regex`] does not compile.
    InvalidPattern(String),
    /// The pty or process failed.
    Io(String),
}

impl WaitError {
    /// The failure report, for a timeout or an early exit.
    ///
    /// ```
    /// use std::time::Duration;
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf hi; sleep 5"])
    ///     .timeout(Duration::from_millis(200))
    ///     .start()?;
    /// let err = term.expect_text("bye").wait().unwrap_err();
    /// let report = err.report().expect("a timeout has a report");
    /// assert_eq!(report.cursor, (0, 2));
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn report(&self) -> Option<&FailureReport> {
        match self {
            WaitError::Timeout { report, .. } | WaitError::Exited { report, .. } => Some(report),
            WaitError::InvalidPattern(_) | WaitError::Io(_) => None,
        }
    }
}

/// What a failed wait saw, beyond the plain screen text.
///
/// ```
/// use std::time::Duration;
/// use weft_testkit::TestTerminal;
/// let mut term = TestTerminal::spawn(["sh", "-c", "printf 'a\\nb'; sleep 5"])
///     .timeout(Duration::from_millis(200))
///     .start()?;
/// term.expect_text("b").wait()?;
/// term.send_keys("x Enter")?;
/// let err = term.expect_text("c").wait().unwrap_err();
/// let report = err.report().unwrap();
/// assert!(report.screen.contains("   0 | a\n"));
/// assert_eq!(report.last_input, vec![r#"send_keys("x Enter")"#.to_string()]);
/// assert!(report.recording.as_ref().unwrap().exists());
/// # Ok::<(), weft_testkit::WaitError>(())
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct FailureReport {
    /// The screen with row numbers, the cursor row marked `>` and a caret under its column.
    pub screen: String,
    /// The cursor's (row, column), 0-based.
    pub cursor: (usize, usize),
    /// Why the expectation did not hold at the end, when the kit can say more (a cell's style).
    pub detail: Option<String>,
    /// The last calls that sent input, oldest first.
    pub last_input: Vec<String>,
    /// The asciicast recording written for this failure, or why it could not be written.
    pub recording: Result<PathBuf, String>,
    /// How long the wait lasted.
    pub waited: std::time::Duration,
}

impl std::fmt::Display for WaitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WaitError::Timeout { what, report, .. } => {
                writeln!(f, "timed out after {:?} waiting for {what}", report.waited)?;
                write!(f, "{report}")
            }
            WaitError::Exited { what, report, .. } => {
                writeln!(f, "the program exited while waiting for {what}")?;
                write!(f, "{report}")
            }
            WaitError::InvalidPattern(e) => write!(f, "invalid regular expression: {e}"),
            WaitError::Io(e) => write!(f, "terminal I/O: {e}"),
        }
    }
}

impl std::fmt::Display for FailureReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(detail) = &self.detail {
            writeln!(f, "{detail}")?;
        }
        write!(f, "{}", self.screen)?;
        if self.last_input.is_empty() {
            writeln!(f, "no input was sent")?;
        } else {
            writeln!(f, "last input sent (oldest first):")?;
            for line in &self.last_input {
                writeln!(f, "  {line}")?;
            }
        }
        match &self.recording {
            Ok(path) => writeln!(f, "recording (asciicast v2): {}", path.display()),
            Err(e) => writeln!(f, "recording not written: {e}"),
        }
    }
}

/// The same as `Display`, so `unwrap()` and `fn test() -> Result<(), WaitError>` print the
/// readable report rather than escaped strings.
impl std::fmt::Debug for WaitError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for WaitError {}

/// The screen with row numbers: the cursor's row is marked `>` and followed by a caret line
/// under its column. Blank rows after the last written row (and the cursor) are folded into one
/// line.
pub(crate) fn annotated_screen(screen: &Screen) -> String {
    let cursor = screen.cursor_state();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "screen {}x{}, cursor at row {}, col {}{}:",
        screen.cols(),
        screen.rows(),
        cursor.row,
        cursor.col,
        if cursor.visible { "" } else { " (hidden)" }
    );
    let texts: Vec<String> = screen.visible_rows().map(|r| r.text()).collect();
    let last_used = texts
        .iter()
        .rposition(|t| !t.is_empty())
        .unwrap_or(0)
        .max(cursor.row)
        .min(texts.len().saturating_sub(1));
    for (i, text) in texts.iter().enumerate().take(last_used + 1) {
        let mark = if i == cursor.row { '>' } else { ' ' };
        let _ = writeln!(out, "{mark}{i:>3} | {text}");
        if i == cursor.row {
            let _ = writeln!(out, "     | {}^ cursor", " ".repeat(cursor.col));
        }
    }
    if last_used + 1 < texts.len() {
        let _ = writeln!(
            out,
            "     : rows {}-{} blank",
            last_used + 1,
            texts.len() - 1
        );
    }
    out
}

/// Renders input for the "last input" list: the call and its argument, escaped.
pub(crate) fn describe_input(call: &str, bytes: &[u8]) -> String {
    format!("{call}({:?})", String::from_utf8_lossy(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_numbered_and_the_cursor_marked() {
        let mut screen = Screen::new(10, 5);
        screen.feed(b"one\r\ntwo");
        let text = annotated_screen(&screen);
        assert_eq!(
            text,
            "screen 10x5, cursor at row 1, col 3:\n   0 | one\n>  1 | two\n     |    ^ cursor\n     : rows 2-4 blank\n"
        );
    }
}
