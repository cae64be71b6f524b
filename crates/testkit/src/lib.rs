//! Test terminal programs from Rust tests, deterministically.
//!
//! [`TestTerminal`] runs a program on a real pty and feeds everything it prints to a weft
//! [`Screen`] in-process. Tests send keys and then wait for what they expect to see:
//! [`TestTerminal::wait_for_text`], [`TestTerminal::wait_for`], [`TestTerminal::wait_idle`],
//! [`TestTerminal::wait_exit`]. Every wait has a deadline and fails with the screen as it was,
//! so a failing test says what it saw. Nothing sleeps for a fixed time.
//!
//! ```no_run
//! use weft_testkit::TestTerminal;
//! let mut term = TestTerminal::spawn(["less", "/etc/passwd"]).size(80, 24).start().unwrap();
//! term.wait_for_text("root").unwrap();
//! term.send_keys("q").unwrap();
//! term.wait_exit().unwrap();
//! ```

mod keys;
mod terminal;

pub use keys::{encode_keys, KeyError};
pub use terminal::{Exit, TestTerminal, TestTerminalBuilder, WaitError};
pub use weft_screen_model::{Color, Event, Screen};

/// Asserts that the visible screen's rows start with the given lines (trailing blanks ignored),
/// printing both screens when they differ.
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
