//! A pane's history and screen as one run of lines with absolute numbers, as copy mode sees
//! them: line `n` keeps its number while output scrolls it into the history.

use weft_screen_model::{Cell, Row, Screen};

/// A position: an absolute line and a column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Default)]
pub struct Pos {
    /// Absolute line (see [`Lines`]).
    pub line: u64,
    /// Column.
    pub col: usize,
}

impl Pos {
    /// Line `line`, column `col`.
    pub fn new(line: u64, col: usize) -> Self {
        Pos { line, col }
    }
}

/// The lines of a screen with its history: history line `i` (0 the oldest held) is absolute
/// line `first + i`, screen row `r` is `history_end + r`. On the alternate screen there is no
/// history to show.
pub struct Lines<'a> {
    screen: &'a Screen,
    separators: &'a str,
    first: u64,
    history_end: u64,
}

impl<'a> Lines<'a> {
    /// The lines of `screen`.
    pub fn new(screen: &'a Screen) -> Self {
        let history = screen.scrollback();
        let history_end = history.pushed();
        let first = if screen.is_alternate_screen() {
            history_end
        } else {
            history.first_absolute()
        };
        Lines {
            screen,
            separators: super::motion::WORD_SEPARATORS,
            first,
            history_end,
        }
    }

    /// The same lines, with `separators` ending words (the `word-separators` option).
    pub fn with_separators(self, separators: &'a str) -> Self {
        Lines { separators, ..self }
    }

    /// The characters that end words besides spaces.
    pub fn separators(&self) -> &str {
        self.separators
    }

    /// The oldest line.
    pub fn first(&self) -> u64 {
        self.first
    }

    /// The first screen row's line (one past the newest history line).
    pub fn history_end(&self) -> u64 {
        self.history_end
    }

    /// One past the last line (the screen's bottom row).
    pub fn end(&self) -> u64 {
        self.history_end + self.screen.rows() as u64
    }

    /// The last line.
    pub fn last(&self) -> u64 {
        self.end().saturating_sub(1).max(self.first)
    }

    /// Lines of history shown.
    pub fn history_len(&self) -> u64 {
        self.history_end - self.first
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.screen.cols()
    }

    /// Screen rows.
    pub fn rows(&self) -> usize {
        self.screen.rows()
    }

    /// `line` moved into the lines that exist.
    pub fn clamp(&self, line: u64) -> u64 {
        line.clamp(self.first, self.last())
    }

    /// Line `line` as a row of the screen's width.
    pub fn row(&self, line: u64) -> Option<Row> {
        if line < self.first {
            return None;
        }
        if line < self.history_end {
            let index = usize::try_from(line - self.screen.scrollback().first_absolute()).ok()?;
            return self.screen.scrollback().get(index, self.cols());
        }
        let r = usize::try_from(line - self.history_end).ok()?;
        self.screen.row(r).cloned()
    }

    /// The cells of line `line` (blank when it does not exist).
    pub fn cells(&self, line: u64) -> Vec<Cell> {
        self.row(line)
            .map(|r| r.cells().to_vec())
            .unwrap_or_else(|| vec![Cell::BLANK; self.cols()])
    }

    /// The scrollback index of history line `line` (`None` for a screen row or a line gone).
    fn history_index(&self, line: u64) -> Option<usize> {
        (line >= self.first && line < self.history_end)
            .then(|| (line - self.screen.scrollback().first_absolute()) as usize)
    }

    /// Whether line `line` continues on the next one.
    pub fn wrapped(&self, line: u64) -> bool {
        if line < self.first {
            return false;
        }
        if let Some(index) = self.history_index(line) {
            return self
                .screen
                .scrollback()
                .line_info(index)
                .is_some_and(|(_, w)| w);
        }
        self.screen
            .row((line - self.history_end) as usize)
            .is_some_and(Row::is_wrapped)
    }

    /// Appends line `line`'s text to `text` and, when given, each cell's starting byte to
    /// `starts` (see `Scrollback::line_text`); returns whether it wraps.
    pub fn text(&self, line: u64, text: &mut String, mut starts: Option<&mut Vec<u32>>) -> bool {
        if line < self.first {
            return false;
        }
        if let Some(index) = self.history_index(line) {
            return self
                .screen
                .scrollback()
                .line_text(index, text, starts)
                .unwrap_or(false);
        }
        let Some(row) = self.screen.row((line - self.history_end) as usize) else {
            return false;
        };
        let used = row.used_len();
        for cell in &row.cells()[..used.min(row.cells().len())] {
            if let Some(s) = starts.as_deref_mut() {
                s.push(text.len() as u32);
            }
            cell.push_text(text);
        }
        row.is_wrapped()
    }

    /// The first line of the logical line (soft-wrapped rows joined) holding `line`.
    pub fn logical_start(&self, mut line: u64) -> u64 {
        while line > self.first && self.wrapped(line - 1) {
            line -= 1;
        }
        line
    }

    /// The last line of the logical line holding `line`.
    pub fn logical_end(&self, mut line: u64) -> u64 {
        while line < self.last() && self.wrapped(line) {
            line += 1;
        }
        line
    }

    /// The column of line `line`'s last character (not a space), if it has one.
    pub fn last_char(&self, line: u64) -> Option<usize> {
        self.cells(line)
            .iter()
            .rposition(|c| c.ch() != ' ' && !c.is_spacer())
    }
}
