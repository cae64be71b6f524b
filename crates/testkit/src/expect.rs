//! Locators that wait: `term.expect_text("Saved").in_row(3).within(d).wait()?`.
//!
//! Each `expect_*` call returns a builder that borrows the terminal; options narrow the scope
//! or change the deadline, and `.wait()` runs the expectation and returns its result. The final
//! call is explicit (nothing runs on drop, so an error is never swallowed or turned into a panic
//! inside a destructor), and the builders are `#[must_use]`: forgetting `.wait()` is a compiler
//! warning.

use crate::error::WaitError;
use crate::terminal::TestTerminal;
use regex::Regex;
use std::ops::{Bound, RangeBounds};
use std::time::Duration;
use weft_screen_model::{Attrs, Cell, Color, Screen, UnderlineStyle};

/// Where a text expectation looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    Screen,
    Row(usize),
    Region(usize, usize, usize, usize),
    CursorLine,
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Scope::Screen => write!(f, "on the screen"),
            Scope::Row(r) => write!(f, "in row {r}"),
            Scope::Region(r1, c1, r2, c2) => {
                write!(f, "in the region rows {r1}-{r2}, cols {c1}-{c2}")
            }
            Scope::CursorLine => write!(f, "on the cursor's line"),
        }
    }
}

impl Scope {
    /// The scope's text now, one line per row (trailing blanks trimmed); `None` when the scope
    /// is off the screen.
    fn text(self, screen: &Screen) -> Option<String> {
        match self {
            Scope::Screen => Some(screen.text()),
            Scope::Row(r) => screen.row(r).map(|row| row.text()),
            Scope::CursorLine => screen.row(screen.cursor_state().row).map(|row| row.text()),
            Scope::Region(r1, c1, r2, c2) => {
                if r1 > r2 || c1 > c2 || r1 >= screen.rows() {
                    return None;
                }
                let lines: Vec<String> = (r1..=r2.min(screen.rows() - 1))
                    .filter_map(|r| screen.row(r))
                    .map(|row| {
                        let cells = row.cells();
                        let end = (c2 + 1).min(cells.len());
                        let mut line = String::new();
                        for cell in cells.get(c1..end).unwrap_or(&[]) {
                            if !cell.is_spacer() {
                                cell.push_text(&mut line);
                            }
                        }
                        line.trim_end_matches(' ').to_string()
                    })
                    .collect();
                Some(lines.join("\n"))
            }
        }
    }
}

/// What a text expectation looks for.
#[derive(Debug)]
enum Matcher {
    Text(String),
    Regex(Result<Regex, String>, String),
}

impl Matcher {
    fn matches(&self, text: &str) -> bool {
        match self {
            Matcher::Text(t) => text.contains(t.as_str()),
            Matcher::Regex(Ok(re), _) => re.is_match(text),
            Matcher::Regex(Err(_), _) => false,
        }
    }
}

impl std::fmt::Display for Matcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Matcher::Text(t) => write!(f, "{t:?}"),
            Matcher::Regex(_, src) => write!(f, "/{src}/"),
        }
    }
}

/// A text or pattern expectation; run it with [`ExpectText::wait`].
///
/// ```
/// use std::time::Duration;
/// use weft_testkit::TestTerminal;
/// let mut term = TestTerminal::spawn(["sh", "-c", "printf 'title\\nSaved 3 files'"]).start()?;
/// term.expect_text("Saved").in_row(1).within(Duration::from_secs(5)).wait()?;
/// # Ok::<(), weft_testkit::WaitError>(())
/// ```
#[derive(Debug)]
#[must_use = "an expectation does nothing until `.wait()` runs it"]
pub struct ExpectText<'t> {
    term: &'t mut TestTerminal,
    matcher: Matcher,
    absent: bool,
    scope: Scope,
    within: Duration,
}

impl ExpectText<'_> {
    /// The deadline (default: the terminal's timeout, 10 s unless set on the builder).
    ///
    /// ```
    /// use std::time::Duration;
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf ok"]).start()?;
    /// term.expect_text("ok").within(Duration::from_secs(2)).wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn within(mut self, deadline: Duration) -> Self {
        self.within = deadline;
        self
    }

    /// Looks only in visible row `row` (0-based).
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf 'a\\nb'"]).start()?;
    /// term.expect_text("b").in_row(1).wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn in_row(mut self, row: usize) -> Self {
        self.scope = Scope::Row(row);
        self
    }

    /// Looks only in the rectangle from (`row1`, `col1`) to (`row2`, `col2`), corners
    /// included, 0-based; each row of it is one line of text.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf 'left  right\\nmore  text'"])
    ///     .start()?;
    /// term.expect_text("right").in_region(0, 6, 1, 10).wait()?;
    /// term.expect_absent("left").in_region(0, 6, 1, 10).wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn in_region(mut self, row1: usize, col1: usize, row2: usize, col2: usize) -> Self {
        self.scope = Scope::Region(row1, col1, row2, col2);
        self
    }

    /// Looks only in the row the cursor is on at each check.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf 'done\\n$ '"]).start()?;
    /// term.expect_text("$").on_cursor_line().wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn on_cursor_line(mut self) -> Self {
        self.scope = Scope::CursorLine;
        self
    }

    /// Reads output until the expectation holds, or fails at the deadline (or when the program
    /// exits first) with the full failure report.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf hi"]).start()?;
    /// term.expect_text("hi").wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn wait(self) -> Result<(), WaitError> {
        if let Matcher::Regex(Err(e), _) = &self.matcher {
            return Err(WaitError::InvalidPattern(e.clone()));
        }
        let ExpectText {
            term,
            matcher,
            absent,
            scope,
            within,
        } = self;
        let what = if absent {
            format!("{matcher} to be absent {scope}")
        } else {
            format!("{matcher} {scope}")
        };
        term.wait_core(
            &what,
            within,
            |screen| match scope.text(screen) {
                Some(text) => matcher.matches(&text) != absent,
                None => false,
            },
            |screen| match scope.text(screen) {
                None => Some(format!(
                    "the scope ({scope}) is off the {}x{} screen",
                    screen.cols(),
                    screen.rows()
                )),
                Some(_) if scope == Scope::Screen => None,
                Some(text) => Some(format!("{scope} the text was: {text:?}")),
            },
        )
    }
}

/// A cursor-position expectation; run it with [`ExpectCursor::wait`].
///
/// ```
/// use weft_testkit::TestTerminal;
/// let mut term = TestTerminal::spawn(["sh", "-c", "printf 'ab\\ncd'"]).start()?;
/// term.expect_cursor(1, 2).wait()?;
/// # Ok::<(), weft_testkit::WaitError>(())
/// ```
#[derive(Debug)]
#[must_use = "an expectation does nothing until `.wait()` runs it"]
pub struct ExpectCursor<'t> {
    term: &'t mut TestTerminal,
    row: usize,
    col: usize,
    within: Duration,
}

impl ExpectCursor<'_> {
    /// The deadline (default: the terminal's timeout).
    ///
    /// ```
    /// use std::time::Duration;
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf abc"]).start()?;
    /// term.expect_cursor(0, 3).within(Duration::from_secs(3)).wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn within(mut self, deadline: Duration) -> Self {
        self.within = deadline;
        self
    }

    /// Reads output until the cursor is at the position, or fails with the report.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf '\\033[5;10H'"]).start()?;
    /// term.expect_cursor(4, 9).wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn wait(self) -> Result<(), WaitError> {
        let (row, col) = (self.row, self.col);
        let what = format!("the cursor at row {row}, col {col}");
        self.term.wait_core(
            &what,
            self.within,
            |s| {
                let c = s.cursor_state();
                (c.row, c.col) == (row, col)
            },
            |_| None,
        )
    }
}

/// A style expectation over cells of one row; run it with [`ExpectStyle::wait`]. Every
/// asserted property must hold for every cell in the range (right halves of wide characters
/// are skipped).
///
/// ```
/// use weft_testkit::{Color, TestTerminal};
/// let mut term =
///     TestTerminal::spawn(["sh", "-c", "printf '\\033[1;31merror\\033[m: no such file'"])
///         .start()?;
/// term.expect_style(0, 0..5).fg(Color::Indexed(1)).bold().wait()?;
/// term.expect_style(0, 5..).fg(Color::Default).wait()?;
/// # Ok::<(), weft_testkit::WaitError>(())
/// ```
#[derive(Debug)]
#[must_use = "an expectation does nothing until `.wait()` runs it"]
pub struct ExpectStyle<'t> {
    term: &'t mut TestTerminal,
    row: usize,
    start: usize,
    end: Option<usize>,
    fg: Option<Color>,
    bg: Option<Color>,
    bold: bool,
    underline: Option<UnderlineStyle>,
    within: Duration,
}

impl ExpectStyle<'_> {
    /// Expects this foreground colour.
    ///
    /// ```
    /// use weft_testkit::{Color, Rgb, TestTerminal};
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf '\\033[38;2;255;0;0mred'"])
    ///     .start()?;
    /// term.expect_style(0, 0..3).fg(Color::Rgb(Rgb::new(255, 0, 0))).wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn fg(mut self, color: Color) -> Self {
        self.fg = Some(color);
        self
    }

    /// Expects this background colour.
    ///
    /// ```
    /// use weft_testkit::{Color, TestTerminal};
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf '\\033[44m blue '"]).start()?;
    /// term.expect_style(0, 0..6).bg(Color::Indexed(4)).wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn bg(mut self, color: Color) -> Self {
        self.bg = Some(color);
        self
    }

    /// Expects bold cells.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf '\\033[1mbold'"]).start()?;
    /// term.expect_style(0, 0..4).bold().wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn bold(mut self) -> Self {
        self.bold = true;
        self
    }

    /// Expects this underline style (`UnderlineStyle::None` asserts no underline).
    ///
    /// ```
    /// use weft_testkit::{TestTerminal, UnderlineStyle};
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf '\\033[4:3mwavy'"]).start()?;
    /// term.expect_style(0, 0..4).underline(UnderlineStyle::Curly).wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn underline(mut self, style: UnderlineStyle) -> Self {
        self.underline = Some(style);
        self
    }

    /// The deadline (default: the terminal's timeout).
    ///
    /// ```
    /// use std::time::Duration;
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf '\\033[1mB'"]).start()?;
    /// term.expect_style(0, 0..1).bold().within(Duration::from_secs(2)).wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn within(mut self, deadline: Duration) -> Self {
        self.within = deadline;
        self
    }

    /// Reads output until every cell in the range has the style, or fails with the report
    /// (naming the first cell that differs and its style).
    ///
    /// ```
    /// use weft_testkit::{Color, TestTerminal};
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf '\\033[32mok'"]).start()?;
    /// term.expect_style(0, 0..2).fg(Color::Indexed(2)).wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn wait(self) -> Result<(), WaitError> {
        let ExpectStyle {
            term,
            row,
            start,
            end,
            fg,
            bg,
            bold,
            underline,
            within,
        } = self;
        let mut wanted = Vec::new();
        if let Some(c) = fg {
            wanted.push(format!("fg {c:?}"));
        }
        if let Some(c) = bg {
            wanted.push(format!("bg {c:?}"));
        }
        if bold {
            wanted.push("bold".to_string());
        }
        if let Some(u) = underline {
            wanted.push(format!("underline {u:?}"));
        }
        let end_text = end.map_or(String::new(), |e| e.to_string());
        let what = format!(
            "row {row}, cols {start}..{end_text} to have {}",
            if wanted.is_empty() {
                "any style".to_string()
            } else {
                wanted.join(", ")
            }
        );
        let cell_ok = |cell: &Cell| {
            fg.is_none_or(|c| cell.fg() == c)
                && bg.is_none_or(|c| cell.bg() == c)
                && (!bold || cell.attrs().contains(Attrs::BOLD))
                && underline.is_none_or(|u| cell.attrs().underline() == u)
        };
        // The first column that does not hold, or why the range is not checkable.
        let first_miss = move |screen: &Screen| -> Option<String> {
            let end = end.unwrap_or(screen.cols());
            if start >= end {
                return Some(format!("the column range {start}..{end} is empty"));
            }
            for col in start..end {
                match screen.cell(row, col) {
                    None => return Some(format!("row {row}, col {col} is off the screen")),
                    Some(cell) if cell.is_spacer() || cell_ok(cell) => {}
                    Some(cell) => return Some(format!("col {col}: {}", describe_cell(cell))),
                }
            }
            None
        };
        term.wait_core(&what, within, |s| first_miss(s).is_none(), first_miss)
    }
}

/// A cell's character and style, for failure details.
fn describe_cell(cell: &Cell) -> String {
    let attrs = cell.attrs();
    format!(
        "{:?} has fg {:?}, bg {:?}, {}bold, underline {:?}",
        cell.text(),
        cell.fg(),
        cell.bg(),
        if attrs.contains(Attrs::BOLD) {
            ""
        } else {
            "not "
        },
        attrs.underline()
    )
}

/// The `expect_*` locators. Each returns a builder; nothing happens until its `.wait()`.
impl TestTerminal {
    /// Expects `text` to appear (on the whole screen unless scoped).
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf 'Saved.'"]).start()?;
    /// term.expect_text("Saved").wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn expect_text(&mut self, text: &str) -> ExpectText<'_> {
        let within = self.timeout;
        ExpectText {
            term: self,
            matcher: Matcher::Text(text.to_string()),
            absent: false,
            scope: Scope::Screen,
            within,
        }
    }

    /// Expects the regular expression `pattern` (the `regex` crate's syntax) to match the
    /// scope's text; rows are joined with `\n`, so `(?m)^...$` anchors at rows. An invalid
    /// pattern fails `.wait()` with [`WaitError::InvalidPattern`].
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf '3 files\\n$ '"]).start()?;
    /// term.expect_regex(r"(?m)^\d+ files$").wait()?;
    /// term.expect_regex(r"^\$$").on_cursor_line().wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn expect_regex(&mut self, pattern: &str) -> ExpectText<'_> {
        let within = self.timeout;
        ExpectText {
            term: self,
            matcher: Matcher::Regex(
                Regex::new(pattern).map_err(|e| e.to_string()),
                pattern.to_string(),
            ),
            absent: false,
            scope: Scope::Screen,
            within,
        }
    }

    /// Expects `text` to be gone: waits until the scope no longer contains it.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term =
    ///     TestTerminal::spawn(["sh", "-c", "printf Loading; read x; printf '\\033[2J\\033[HDone'"])
    ///         .start()?;
    /// term.expect_text("Loading").wait()?;
    /// term.send_keys("Enter")?;
    /// term.expect_absent("Loading").wait()?;
    /// term.expect_text("Done").wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn expect_absent(&mut self, text: &str) -> ExpectText<'_> {
        let mut expect = self.expect_text(text);
        expect.absent = true;
        expect
    }

    /// Expects the cursor at (`row`, `col`), 0-based.
    ///
    /// ```
    /// use weft_testkit::TestTerminal;
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf 'name: '"]).start()?;
    /// term.expect_cursor(0, 6).wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn expect_cursor(&mut self, row: usize, col: usize) -> ExpectCursor<'_> {
        let within = self.timeout;
        ExpectCursor {
            term: self,
            row,
            col,
            within,
        }
    }

    /// Expects a style on the cells of `row` in `cols` (`0..5`, `3..=4`, `7..`); add the
    /// properties to assert with [`ExpectStyle::fg`], [`ExpectStyle::bg`],
    /// [`ExpectStyle::bold`] and [`ExpectStyle::underline`].
    ///
    /// ```
    /// use weft_testkit::{Color, TestTerminal};
    /// let mut term = TestTerminal::spawn(["sh", "-c", "printf 'ok \\033[31mFAIL'"]).start()?;
    /// term.expect_style(0, 3..=6).fg(Color::Indexed(1)).wait()?;
    /// # Ok::<(), weft_testkit::WaitError>(())
    /// ```
    pub fn expect_style(&mut self, row: usize, cols: impl RangeBounds<usize>) -> ExpectStyle<'_> {
        let start = match cols.start_bound() {
            Bound::Included(&s) => s,
            Bound::Excluded(&s) => s + 1,
            Bound::Unbounded => 0,
        };
        let end = match cols.end_bound() {
            Bound::Included(&e) => Some(e + 1),
            Bound::Excluded(&e) => Some(e),
            Bound::Unbounded => None,
        };
        let within = self.timeout;
        ExpectStyle {
            term: self,
            row,
            start,
            end,
            fg: None,
            bg: None,
            bold: false,
            underline: None,
            within,
        }
    }
}
