//! Copy mode: a pane's history and screen viewed, searched and selected from the keyboard,
//! as tmux's copy mode. Pure: every function works on a locked [`Screen`] (through [`Lines`])
//! and the [`CopyMode`] state the pane keeps beside it; nothing here waits or wakes.
//!
//! Positions are absolute line numbers (see [`Lines`]), so the view stays where the user put it
//! while output keeps scrolling the screen into the history.

pub mod command;
pub mod lines;
pub mod motion;
pub mod placing;
pub mod search;
pub mod select;
pub mod view;

pub use command::{run, Outcome};
pub use lines::{Lines, Pos};
pub use view::{CopyStyles, COPY_STYLES};

/// The word at `at` (a run of one kind of character, as copy mode's words go, `separators`
/// ending them; none on a space) and its whole line, trailing blanks left out.
pub fn word_and_line(screen: &Screen, separators: &str, at: Pos) -> (String, String) {
    let lines = Lines::new(screen).with_separators(separators);
    let at = Pos::new(
        lines.clamp(at.line),
        at.col.min(lines.cols().saturating_sub(1)),
    );
    let (start, end) = motion::word_around(&lines, at);
    let selection = Selection {
        anchor: start,
        kind: select::Kind::Char,
    };
    let word = select::Span::new(&selection, end, true).text(&lines);
    let word = if word.trim().is_empty() {
        String::new()
    } else {
        word
    };
    let mut line = String::new();
    lines.text(at.line, &mut line, None);
    (word, line.trim_end().to_string())
}

/// How copy mode is entered, from the options in force.
#[derive(Clone, Debug)]
pub struct Settings {
    /// vi keys (`mode-keys vi`).
    pub vi: bool,
    /// `word-separators`.
    pub separators: String,
    /// The colours: `mode-style`, `copy-mode-match-style`, `copy-mode-current-match-style`.
    pub styles: CopyStyles,
    /// `wrap-search`: a search goes round the ends of the history.
    pub wrap_search: bool,
    /// `copy-mode -H`: no position indicator.
    pub hide_position: bool,
}

use motion::Jump;
use search::{Match, Pattern};
use select::Selection;
use weft_screen_model::Screen;

/// A search in force: its pattern, direction, and the matches found when it last ran.
#[derive(Debug, Clone)]
pub struct Search {
    /// The pattern.
    pub pattern: Pattern,
    /// Regular expression (`search-forward`) or plain text (`search-forward-text`).
    pub regex: bool,
    /// The direction `n` goes.
    pub forward: bool,
    /// Every match when the search ran, in order.
    pub matches: Vec<Match>,
    /// The count stopped at [`search::MAX_MATCHES`].
    pub capped: bool,
    /// The match the cursor went to.
    pub current: Option<usize>,
}

/// One pane's copy mode.
#[derive(Debug, Clone)]
pub struct CopyMode {
    /// The cursor.
    pub cursor: Pos,
    /// The line at the top of the view.
    pub top: u64,
    /// The column up/down motions aim for.
    want_col: usize,
    /// The selection, while one is made.
    pub selection: Option<Selection>,
    /// The search in force.
    pub search: Option<Search>,
    /// Where an incremental search started (the cursor goes back there as the text changes).
    incremental_from: Option<Pos>,
    /// The last `f F t T` jump, for `;` and `,`.
    last_jump: Option<(Jump, char)>,
    /// Leave when scrolled to the bottom (`copy-mode -e`, the mouse wheel).
    pub exit_at_bottom: bool,
    /// vi keys: a selection includes the cursor's cell.
    pub vi: bool,
    /// Characters that end words besides spaces (`word-separators`).
    pub separators: String,
    /// The selection's, the position indicator's and the matches' colours.
    pub styles: CopyStyles,
    /// A search goes round the ends of the history (`wrap-search`).
    pub wrap_search: bool,
    /// The mark (`set-mark`), which `jump-to-mark` swaps with the cursor.
    pub mark: Option<Pos>,
    /// No `[offset/history]` at the top right (`copy-mode -H`).
    pub hide_position: bool,
    /// Where the last `recentre-top-bottom` put the cursor's line, while pressed in a row.
    recentre: Option<placing::Recentre>,
}

impl CopyMode {
    /// Copy mode entered on `screen`: the view on the live screen, the cursor where the
    /// program's cursor is.
    pub fn enter(screen: &Screen, vi: bool, exit_at_bottom: bool) -> CopyMode {
        let lines = Lines::new(screen);
        let cursor = screen.cursor_state();
        let cursor = Pos::new(
            lines.history_end() + cursor.row as u64,
            cursor.col.min(lines.cols().saturating_sub(1)),
        );
        CopyMode {
            cursor,
            top: lines.history_end(),
            want_col: cursor.col,
            selection: None,
            search: None,
            incremental_from: None,
            last_jump: None,
            exit_at_bottom,
            vi,
            separators: motion::WORD_SEPARATORS.to_string(),
            styles: COPY_STYLES,
            wrap_search: true,
            mark: None,
            hide_position: false,
            recentre: None,
        }
    }

    /// Lines from the bottom of the history to the top of the view (tmux's `[n/total]`).
    pub fn offset(&self, lines: &Lines) -> u64 {
        lines.history_end().saturating_sub(self.top)
    }

    /// Keeps the view and cursor inside the lines that exist (the history may have been
    /// trimmed or the pane resized since).
    pub fn clamp(&mut self, lines: &Lines) {
        self.top = self.top.clamp(lines.first(), lines.history_end());
        self.cursor.line = lines.clamp(self.cursor.line);
        self.cursor.col = self.cursor.col.min(lines.cols().saturating_sub(1));
    }

    /// Scrolls the view so the cursor is in it.
    fn follow_cursor(&mut self, lines: &Lines) {
        let rows = lines.rows().max(1) as u64;
        if self.cursor.line < self.top {
            self.top = self.cursor.line;
        } else if self.cursor.line >= self.top + rows {
            self.top = self.cursor.line + 1 - rows;
        }
        self.top = self.top.clamp(lines.first(), lines.history_end());
    }

    /// Moves the cursor (and the view with it); `keep_col`: an up/down motion, which aims for
    /// the column the cursor had before.
    fn move_to(&mut self, lines: &Lines, pos: Pos, keep_col: bool) {
        self.cursor = Pos::new(
            lines.clamp(pos.line),
            pos.col.min(lines.cols().saturating_sub(1)),
        );
        if keep_col {
            self.cursor.col = self.want_col.min(lines.cols().saturating_sub(1));
        } else {
            self.want_col = self.cursor.col;
        }
        self.follow_cursor(lines);
    }

    /// Scrolls the view by `delta` lines (negative: up, into the history), keeping the cursor
    /// on the same screen row where it can.
    fn scroll(&mut self, lines: &Lines, delta: i64) {
        let row = self.cursor.line.saturating_sub(self.top);
        let top = self.top as i64 + delta;
        self.top = (top.max(lines.first() as i64) as u64).clamp(lines.first(), lines.history_end());
        self.cursor.line = lines.clamp(self.top + row);
    }

    /// The word and the line under the cursor (`copy_cursor_word`, `copy_cursor_line`); no
    /// word on a space.
    pub fn cursor_text(&self, screen: &Screen) -> (String, String) {
        word_and_line(screen, &self.separators, self.cursor)
    }

    /// Whether the view is at the bottom (the live screen).
    pub fn at_bottom(&self, lines: &Lines) -> bool {
        self.top >= lines.history_end()
    }
}
