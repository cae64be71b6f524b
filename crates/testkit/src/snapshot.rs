//! Canonical text forms of a screen, for snapshot tests.
//!
//! [`screen_text`] is the text (rows with trailing blanks trimmed, trailing blank rows
//! dropped) and a last line with the size and cursor. [`screen_styles`] adds a compact
//! attribute layer: for each row with styled cells, its runs of one style. With the
//! `snapshot` feature, `assert_screen_snapshot!` and `assert_screen_style_snapshot!` store
//! them with `insta`.
//!
//! ```
//! use weft_testkit::{snapshot, TestTerminal};
//! let mut term = TestTerminal::spawn(["sh", "-c", "printf '\\033[1mtitle\\033[m\\nbody'"])
//!     .size(20, 3)
//!     .start()?;
//! term.expect_text("body").wait()?;
//! assert_eq!(snapshot::screen_text(term.screen()), "title\nbody\n-- 20x3, cursor 1,4 --");
//! assert!(snapshot::screen_styles(term.screen()).ends_with("0: 0..5 bold"));
//! # Ok::<(), weft_testkit::WaitError>(())
//! ```

use std::fmt::Write;
use weft_screen_model::{Attrs, Cell, Color, Screen, UnderlineStyle};

/// The screen as text plus a cursor line, stable across runs.
///
/// ```
/// let mut screen = weft_testkit::Screen::new(20, 4);
/// screen.feed(b"hello   \r\nworld");
/// assert_eq!(
///     weft_testkit::snapshot::screen_text(&screen),
///     "hello\nworld\n-- 20x4, cursor 1,5 --"
/// );
/// ```
pub fn screen_text(screen: &Screen) -> String {
    let rows: Vec<String> = screen.visible_rows().map(|r| r.text()).collect();
    let used = rows
        .iter()
        .rposition(|t| !t.is_empty())
        .map_or(0, |i| i + 1);
    let mut out = String::new();
    for row in &rows[..used] {
        out.push_str(row);
        out.push('\n');
    }
    let c = screen.cursor_state();
    let _ = write!(
        out,
        "-- {}x{}, cursor {},{}{} --",
        screen.cols(),
        screen.rows(),
        c.row,
        c.col,
        if c.visible { "" } else { " hidden" }
    );
    out
}

/// [`screen_text`] followed by a compact attribute layer: one line per row with styled
/// cells, `row: start..end style | ...` (columns half-open, unstyled runs left out).
///
/// ```
/// let mut screen = weft_testkit::Screen::new(20, 2);
/// screen.feed(b"\x1b[1;31merror\x1b[m: x \x1b[4:3;44mwavy");
/// assert_eq!(
///     weft_testkit::snapshot::screen_styles(&screen),
///     "error: x wavy\n-- 20x2, cursor 0,13 --\n-- styles --\n\
///      0: 0..5 fg=1 bold | 9..13 bg=4 underline=curly"
/// );
/// ```
pub fn screen_styles(screen: &Screen) -> String {
    let mut out = screen_text(screen);
    out.push_str("\n-- styles --");
    for (r, row) in screen.visible_rows().enumerate() {
        let mut runs: Vec<String> = Vec::new();
        let cells = row.cells();
        let mut col = 0;
        while col < cells.len() {
            let style = style_of(&cells[col]);
            let mut end = col + 1;
            while end < cells.len() && style_of(&cells[end]) == style {
                end += 1;
            }
            if !style.is_empty() {
                runs.push(format!("{col}..{end} {style}"));
            }
            col = end;
        }
        if !runs.is_empty() {
            let _ = write!(out, "\n{r}: {}", runs.join(" | "));
        }
    }
    out
}

/// A cell's style as short words; empty for the default style.
fn style_of(cell: &Cell) -> String {
    let mut words: Vec<String> = Vec::new();
    if cell.fg() != Color::Default {
        words.push(format!("fg={}", color(cell.fg())));
    }
    if cell.bg() != Color::Default {
        words.push(format!("bg={}", color(cell.bg())));
    }
    let attrs = cell.attrs();
    for (bit, name) in [
        (Attrs::BOLD, "bold"),
        (Attrs::DIM, "dim"),
        (Attrs::ITALIC, "italic"),
        (Attrs::BLINK, "blink"),
        (Attrs::INVERSE, "inverse"),
        (Attrs::HIDDEN, "hidden"),
        (Attrs::STRIKE, "strike"),
        (Attrs::OVERLINE, "overline"),
    ] {
        if attrs.contains(bit) {
            words.push(name.to_string());
        }
    }
    let underline = match attrs.underline() {
        UnderlineStyle::None => None,
        UnderlineStyle::Single => Some("single"),
        UnderlineStyle::Double => Some("double"),
        UnderlineStyle::Curly => Some("curly"),
        UnderlineStyle::Dotted => Some("dotted"),
        UnderlineStyle::Dashed => Some("dashed"),
    };
    if let Some(u) = underline {
        words.push(format!("underline={u}"));
    }
    words.join(" ")
}

fn color(c: Color) -> String {
    match c {
        Color::Default => "default".to_string(),
        Color::Indexed(i) => i.to_string(),
        Color::Rgb(rgb) => format!("#{:02x}{:02x}{:02x}", rgb.r, rgb.g, rgb.b),
    }
}

/// Snapshots a terminal's screen text ([`snapshot::screen_text`](crate::snapshot::screen_text))
/// with `insta` (feature `snapshot`); review changes with `cargo insta review`. Forms:
/// `assert_screen_snapshot!(term)`, `assert_screen_snapshot!("name", term)` and the inline
/// `assert_screen_snapshot!(term, @"...")`.
///
/// ```
/// use weft_testkit::{assert_screen_snapshot, TestTerminal};
/// let mut term = TestTerminal::spawn(["sh", "-c", "printf 'hello\\nworld'"])
///     .size(20, 3)
///     .start()?;
/// term.expect_text("world").wait()?;
/// assert_screen_snapshot!(term, @r"
/// hello
/// world
/// -- 20x3, cursor 1,5 --
/// ");
/// # Ok::<(), weft_testkit::WaitError>(())
/// ```
#[cfg(feature = "snapshot")]
#[macro_export]
macro_rules! assert_screen_snapshot {
    ($term:expr, @$snapshot:literal) => {{
        let screen_text = $crate::snapshot::screen_text($term.screen());
        $crate::insta::assert_snapshot!(screen_text, @$snapshot)
    }};
    ($name:literal, $term:expr) => {{
        let screen_text = $crate::snapshot::screen_text($term.screen());
        $crate::insta::assert_snapshot!($name, screen_text)
    }};
    ($term:expr) => {{
        let screen_text = $crate::snapshot::screen_text($term.screen());
        $crate::insta::assert_snapshot!(screen_text)
    }};
}

/// Like [`assert_screen_snapshot!`] with the compact attribute layer of
/// [`snapshot::screen_styles`](crate::snapshot::screen_styles) (feature `snapshot`).
///
/// ```
/// use weft_testkit::{assert_screen_style_snapshot, TestTerminal};
/// let mut term = TestTerminal::spawn(["sh", "-c", "printf '\\033[31merror\\033[m ok'"])
///     .size(20, 2)
///     .start()?;
/// term.expect_text("ok").wait()?;
/// assert_screen_style_snapshot!(term, @r"
/// error ok
/// -- 20x2, cursor 0,8 --
/// -- styles --
/// 0: 0..5 fg=1
/// ");
/// # Ok::<(), weft_testkit::WaitError>(())
/// ```
#[cfg(feature = "snapshot")]
#[macro_export]
macro_rules! assert_screen_style_snapshot {
    ($term:expr, @$snapshot:literal) => {{
        let screen_styles = $crate::snapshot::screen_styles($term.screen());
        $crate::insta::assert_snapshot!(screen_styles, @$snapshot)
    }};
    ($name:literal, $term:expr) => {{
        let screen_styles = $crate::snapshot::screen_styles($term.screen());
        $crate::insta::assert_snapshot!($name, screen_styles)
    }};
    ($term:expr) => {{
        let screen_styles = $crate::snapshot::screen_styles($term.screen());
        $crate::insta::assert_snapshot!(screen_styles)
    }};
}
