//! A composed view: the grid of cells a client's terminal should show, plus cursor and modes.

use weft_screen_model::row::{BLANK_CELLS, BLANK_ROW_CELLS};
use weft_screen_model::{Cell, CursorState, MouseEncoding, MouseTracking, Rgb};

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
///
/// A row holds cells only once something other than blanks is put on it: a client with a huge
/// terminal looking at a shell prompt costs a few rows, not `cols x rows` cells (12 MB at the
/// size clamp), in each of the frames kept for it.
#[derive(Clone, Debug)]
pub struct Frame {
    cols: usize,
    rows: usize,
    /// Each row's `cols` cells, or empty while the row is all blanks (read as [`BLANK_CELLS`]).
    /// Rows wider than those are allocated at once.
    lines: Vec<Vec<Cell>>,
    dirty: Vec<bool>,
    /// Where the cursor goes, or `None` to hide it.
    pub cursor: Option<(usize, usize)>,
    /// DECSCUSR style of the cursor.
    pub cursor_style: u16,
    /// The cursor's colour; `None`: the terminal's own.
    pub cursor_colour: Option<Rgb>,
    /// Modes to mirror.
    pub modes: OuterModes,
}

impl Frame {
    /// A blank frame, every row dirty.
    pub fn new(cols: usize, rows: usize) -> Self {
        let cols = cols.max(1);
        let rows = rows.max(1);
        let line = if cols > BLANK_ROW_CELLS {
            vec![Cell::BLANK; cols]
        } else {
            Vec::new()
        };
        Frame {
            cols,
            rows,
            lines: vec![line; rows],
            dirty: vec![true; rows],
            cursor: Some((0, 0)),
            cursor_style: 0,
            cursor_colour: None,
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
        let line = &self.lines[r];
        if line.is_empty() {
            &BLANK_CELLS[..self.cols]
        } else {
            line
        }
    }

    /// Row `r`'s cells for writing; marks it dirty.
    pub fn row_mut(&mut self, r: usize) -> &mut [Cell] {
        self.dirty[r] = true;
        let line = &mut self.lines[r];
        if line.is_empty() {
            *line = vec![Cell::BLANK; self.cols];
        }
        line
    }

    /// Makes row `r` read as `other`'s row `r` (same width), sharing its blankness: an
    /// unallocated row stays unallocated.
    pub fn copy_row_from(&mut self, other: &Frame, r: usize) {
        let from = &other.lines[r];
        if from.is_empty() && self.cols <= BLANK_ROW_CELLS {
            self.lines[r] = Vec::new();
        } else {
            self.row_mut(r).clone_from_slice(other.row(r));
        }
        self.dirty[r] = true;
    }

    /// Moves rows `top + by..=bottom` up by `by` and blanks the `by` rows left at the
    /// bottom, as a terminal's scroll region does.
    pub(crate) fn scroll_up(&mut self, top: usize, bottom: usize, by: usize) {
        self.lines[top..=bottom].rotate_left(by);
        for r in bottom + 1 - by..=bottom {
            if self.cols > BLANK_ROW_CELLS {
                self.lines[r].fill(Cell::BLANK);
            } else {
                self.lines[r] = Vec::new();
            }
        }
    }

    /// Whether row `r` shows nothing: never written, or only blanks.
    pub(crate) fn is_blank_row(&self, r: usize) -> bool {
        self.is_unwritten(r) || self.lines[r].iter().all(Cell::is_blank)
    }

    /// Marks rows `top..=bottom` dirty: what is shown there changed under them.
    pub(crate) fn mark_dirty(&mut self, top: usize, bottom: usize) {
        self.dirty[top..=bottom].fill(true);
    }

    /// Bytes of heap the rows' cells use (for memory reports and tests).
    pub fn heap_bytes(&self) -> usize {
        self.lines
            .iter()
            .map(|l| l.capacity() * std::mem::size_of::<Cell>())
            .sum()
    }

    /// Whether row `r` holds no cells (all blank, never written since it was).
    fn is_unwritten(&self, r: usize) -> bool {
        self.lines[r].is_empty()
    }

    /// Copies `cells` into row `r` from column `col`, cutting at the frame's edge (a wide
    /// character cut in half becomes a blank).
    pub fn put(&mut self, r: usize, col: usize, cells: &[Cell]) {
        if r >= self.rows || col >= self.cols {
            return;
        }
        let width = cells.len().min(self.cols - col);
        if self.is_unwritten(r) && cells[..width].iter().all(Cell::is_blank) {
            // Blanks on blanks: nothing changes, nothing to allocate.
            return;
        }
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
        if self.is_unwritten(r) {
            return;
        }
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
        self.cursor_colour = cursor.colour;
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
