//! The read side of the screen: size, rows, cells, cursor, modes, titles, history and text,
//! for the renderer, `weft replay` and tests.

use super::{CursorState, Screen};
use crate::cell::{Cell, Pen};
use crate::modes::Modes;
use crate::palette::Palette;
use crate::row::Row;
use crate::scrollback::Scrollback;

impl Screen {
    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The visible rows, top to bottom.
    pub fn visible_rows(&self) -> std::collections::vec_deque::Iter<'_, Row> {
        self.grid.iter()
    }

    /// Visible row `i`.
    pub fn row(&self, i: usize) -> Option<&Row> {
        self.grid.get(i)
    }

    /// Bytes of heap the visible and inactive buffers' cells use: rows never written hold none
    /// (for memory reports and tests).
    pub fn grid_heap_bytes(&self) -> usize {
        self.grid
            .iter()
            .chain(self.other.iter())
            .map(Row::heap_bytes)
            .sum()
    }

    /// The cell at a visible row and column.
    pub fn cell(&self, row: usize, col: usize) -> Option<&Cell> {
        self.grid.get(row)?.cells().get(col)
    }

    /// Cursor position, visibility and style.
    pub fn cursor_state(&self) -> CursorState {
        CursorState {
            row: self.cursor.row,
            col: self.cursor.col,
            visible: self.modes.cursor_visible,
            style: if self.cursor_style == 0 {
                self.default_cursor_style
            } else {
                self.cursor_style
            },
            pending_wrap: self.cursor.pending_wrap,
            colour: self.palette.cursor_colour(),
        }
    }

    /// The colours this pane is drawn in where they are not the terminal's (`None`: none).
    pub fn pane_colours(&self) -> Option<&std::sync::Arc<crate::pane_colours::PaneColours>> {
        self.palette.drawn()
    }

    /// The scrolling region (DECSTBM): its top and bottom rows, from 0, inclusive.
    pub fn scroll_region(&self) -> (usize, usize) {
        (self.top, self.bottom)
    }

    /// The pen characters are printed with now.
    pub fn pen(&self) -> &Pen {
        &self.cursor.pen
    }

    /// The modes.
    pub fn modes(&self) -> &Modes {
        &self.modes
    }

    /// Whether the alternate buffer is shown.
    pub fn is_alternate_screen(&self) -> bool {
        self.alt_active
    }

    /// The window title (OSC 0/2).
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The icon title (OSC 0/1).
    pub fn icon_title(&self) -> &str {
        &self.icon_title
    }

    /// The working directory URL from OSC 7.
    pub fn cwd(&self) -> Option<&str> {
        self.cwd.as_deref()
    }

    /// The palette queries are answered from.
    pub fn palette(&self) -> &Palette {
        &self.palette
    }

    /// The history.
    pub fn scrollback(&self) -> &Scrollback {
        &self.scrollback
    }

    /// History line `i` (0 the oldest) at the current width.
    pub fn scrollback_row(&self, i: usize) -> Option<Row> {
        self.scrollback.get(i, self.cols)
    }

    /// The visible screen as text: one line per row, trailing blanks trimmed.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for (i, row) in self.grid.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&row.text());
        }
        out
    }

    /// History then the visible screen as text.
    pub fn text_with_scrollback(&self) -> String {
        let mut out = String::new();
        for i in 0..self.scrollback.len() {
            if let Some(row) = self.scrollback_row(i) {
                out.push_str(&row.text());
                out.push('\n');
            }
        }
        out.push_str(&self.text());
        out
    }
}
