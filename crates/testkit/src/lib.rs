//! Test terminal programs from Rust tests, deterministically.
//!
//! [`TestTerminal`] runs a program on a real pty and feeds everything it prints to a weft
//! [`Screen`] in-process. Tests send keys and then wait for what they expect to see:
//! [`TestTerminal::wait_for_text`], [`TestTerminal::wait_for`], [`TestTerminal::wait_idle`],
//! [`TestTerminal::wait_exit`]. Every wait has a deadline and fails with the screen as it was,
//! so a failing test says what it saw. Nothing sleeps for a fixed time.
//!
//! Locators that wait ([`TestTerminal::expect_text`], [`TestTerminal::expect_regex`],
//! [`TestTerminal::expect_absent`], [`TestTerminal::expect_cursor`],
//! [`TestTerminal::expect_style`]) return a builder: scope and deadline are options, and
//! `.wait()` runs it. A failure ([`WaitError`]) shows the screen with row numbers and the
//! cursor, the last input sent, and the path of an asciicast recording of the whole test
//! under `target/weft-testkit/`.
//!
//! # Quick start
//!
//! Run `cat` in a 40x5 terminal, type a line, check what the screen shows, end the input and
//! wait for the program to exit:
//!
//! ```
//! use weft_testkit::{assert_screen, TestTerminal, WaitError};
//!
//! fn cat_echoes_a_line() -> Result<(), WaitError> {
//!     let mut term = TestTerminal::spawn(["cat"]).size(40, 5).start()?;
//!     term.send_keys("hello Enter")?; // tmux key names; other words are typed as text
//!     term.expect_text("hello").in_row(1).wait()?; // the pty echoes row 0, cat prints row 1
//!     assert_screen!(term, ["hello", "hello"]);
//!     term.send_keys("C-d")?; // end of input
//!     let exit = term.wait_exit()?;
//!     assert_eq!(exit.code, 0);
//!     Ok(())
//! }
//! # fn main() -> Result<(), WaitError> { cat_echoes_a_line() }
//! ```
//!
//! # More
//!
//! Locate text and styles:
//!
//! ```
//! use weft_testkit::{Color, TestTerminal};
//! let mut term = TestTerminal::spawn(["sh", "-c", "printf 'Saved\\n\\033[31merror\\033[m'"])
//!     .start()?;
//! term.expect_text("Saved").in_row(0).wait()?;
//! term.expect_style(1, 0..5).fg(Color::Indexed(1)).wait()?;
//! # Ok::<(), weft_testkit::WaitError>(())
//! ```
//!
//! A full-screen program (not run here: it depends on `less` and `/etc/passwd`):
//!
//! ```no_run
//! use weft_testkit::TestTerminal;
//! let mut term = TestTerminal::spawn(["less", "/etc/passwd"]).size(80, 24).start().unwrap();
//! term.wait_for_text("root").unwrap();
//! term.send_keys("q").unwrap();
//! term.wait_exit().unwrap();
//! ```

mod error;
mod expect;
mod fake;
mod keys;
mod recording;
pub mod snapshot;
mod terminal;

pub use error::{FailureReport, WaitError};
pub use expect::{ExpectCursor, ExpectStyle, ExpectText};
pub use fake::FakeTerminal;
pub use keys::{encode_keys, KeyError};
pub use terminal::{Exit, TestTerminal, TestTerminalBuilder};
pub use weft_screen_model::{Attrs, Color, Event, Rgb, Screen, UnderlineStyle};

/// `insta`, for the snapshot macros.
#[cfg(feature = "snapshot")]
#[doc(hidden)]
pub use insta;

/// Asserts that the visible screen's rows start with the given lines (trailing blanks ignored),
/// printing both screens when they differ.
///
/// ```
/// use weft_testkit::{assert_screen, TestTerminal};
/// let mut term = TestTerminal::spawn(["printf", "one  \\ntwo"]).start()?;
/// term.expect_text("two").wait()?;
/// assert_screen!(term, ["one", "two", ""]);
/// # Ok::<(), weft_testkit::WaitError>(())
/// ```
#[macro_export]
macro_rules! assert_screen {
    ($term:expr, [$($line:expr),* $(,)?]) => {{
        let screen = $term.screen();
        let expected: Vec<String> = vec![$($line.to_string()),*];
        let actual: Vec<String> = (0..expected.len())
            .map(|r| screen.row(r).map(|row| row.text()).unwrap_or_default())
            .collect();
        if actual != expected {
            panic!(
                "screen differs\n--- expected ---\n{}\n--- actual (whole screen) ---\n{}\n",
                expected.join("\n"),
                screen.text()
            );
        }
    }};
}
