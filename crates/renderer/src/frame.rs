//! A composed view: the grid of cells a client's terminal should show, plus cursor and modes.

use weft_screen_model::{Cell, CursorState, MouseEncoding, MouseTracking};

/// Terminal modes mirrored to the client's terminal from the focused pane, so keys and mouse
/// reports arrive in the form the program asked for.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct OuterModes {
    /// DECCKM.
    pub application_cursor: bool,
    /// DECKPAM.
    pub application_keypad: bool,
    /// 2004.
    pub bracketed_paste: bool,
    /// 1004.
    pub focus_events: bool,
    /// 1000/1002/1003.
    pub mouse_tracking: MouseTracking,
    /// 1005/1006/1015.
    pub mouse_encoding: MouseEncoding,
}

/// What the terminal should show.
#[derive(Clone, Debug)]
pub struct Frame {
    cols: usize,
    rows: usize,
    cells: Vec<Cell>,
    dirty: Vec<bool>,
    /// Where the cursor goes, or `None` to hide it.
    pub cursor: Option<(usize, usize)>,
    /// DECSCUSR style of the cursor.
    pub cursor_style: u16,
    /// Modes to mirror.
    pub modes: OuterModes,
}

impl Frame {
    /// A blank frame, every row dirty.
    pub fn new(cols: usize, rows: usize) -> Self {
        let cols = cols.max(1);
        let rows = rows.max(1);
        Frame {
            cols,
            rows,
            cells: vec![Cell::BLANK; cols * rows],
            dirty: vec![true; rows],
            cursor: Some((0, 0)),
            cursor_style: 0,
            modes: OuterModes::default(),
        }
    }

    /// Columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Row `r`'s cells.
    pub fn row(&self, r: usize) -> &[Cell] {
        &self.cells[r * self.cols..(r + 1) * self.cols]
    }

    /// Row `r`'s cells for writing; marks it dirty.
    pub fn row_mut(&mut self, r: usize) -> &mut [Cell] {
        self.dirty[r] = true;
        &mut self.cells[r * self.cols..(r + 1) * self.cols]
    }

    /// Copies `cells` into row `r` from column `col`, cutting at the frame's edge (a wide
    /// character cut in half becomes a blank).
    pub fn put(&mut self, r: usize, col: usize, cells: &[Cell]) {
        if r >= self.rows || col >= self.cols {
            return;
        }
        let width = cells.len().min(self.cols - col);
        let row = self.row_mut(r);
        row[col..col + width].clone_from_slice(&cells[..width]);
        if width > 0 && row[col + width - 1].is_wide() {
            row[col + width - 1] = Cell::BLANK;
        }
        if row[col].is_spacer() {
            row[col] = Cell::BLANK;
        }
    }

    /// Blanks columns `col..col + width` of row `r`.
    pub fn blank(&mut self, r: usize, col: usize, width: usize) {
        if r >= self.rows || col >= self.cols {
            return;
        }
        let end = (col + width).min(self.cols);
        self.row_mut(r)[col..end]
            .iter_mut()
            .for_each(|c| *c = Cell::BLANK);
    }

    /// Sets the cursor from a pane's cursor at an offset, hidden when the pane hides it.
    pub fn set_cursor_from(&mut self, cursor: &CursorState, row_offset: usize, col_offset: usize) {
        self.cursor = cursor
            .visible
            .then_some((cursor.row + row_offset, cursor.col + col_offset))
            .filter(|&(r, c)| r < self.rows && c < self.cols);
        self.cursor_style = cursor.style;
    }

    /// Whether row `r` changed since the last render.
    pub fn is_dirty(&self, r: usize) -> bool {
        self.dirty[r]
    }

    /// Marks every row dirty (full repaint).
    pub fn mark_all_dirty(&mut self) {
        self.dirty.iter_mut().for_each(|d| *d = true);
    }

    /// Clears the dirty marks after a render.
    pub(crate) fn clear_dirty(&mut self) {
        self.dirty.iter_mut().for_each(|d| *d = false);
    }

    /// Number of dirty rows.
    pub fn dirty_rows(&self) -> usize {
        self.dirty.iter().filter(|d| **d).count()
    }
}
