//! One row of the grid, with its soft-wrap flag and damage stamp.
//!
//! A blank row holds no cells until something is written to it: a huge window whose program
//! draws a few lines costs those lines, not `cols x rows` cells (a 1000x500 grid of cells is
//! 12 MB). Reads of an unwritten row see [`BLANK_CELLS`].

use crate::cell::{Cell, Pen};

/// Widest row that can stay unallocated while blank: wider rows (beyond any real terminal; the
/// server clamps to 1000 columns) are allocated at once.
pub const BLANK_ROW_CELLS: usize = 1024;

/// What an unwritten row reads as: shared blank cells, 24 KiB in the executable's data.
pub static BLANK_CELLS: [Cell; BLANK_ROW_CELLS] = [Cell::BLANK; BLANK_ROW_CELLS];

/// A row of exactly `cols` cells.
#[derive(Clone, Debug)]
pub struct Row {
    /// The cells, or empty while the row is blank and was never written (see the module doc).
    cells: Vec<Cell>,
    /// Width in cells: `cells.len()` once allocated.
    cols: usize,
    /// The row's text continues on the next row (it was wrapped by autowrap, not by a newline).
    pub(crate) wrapped: bool,
    /// Sequence number of the last change to this row (see [`crate::Screen::seqno`]).
    pub(crate) seq: u64,
    /// Upper bound on the cells that are not blank: cells from here on are blank. Exact after
    /// a clear and plain printing; the row's width after anything else.
    pub(crate) written: usize,
    /// Every cell is narrow ASCII with the default style and no extras. Kept by plain printing
    /// and clears; anything else clears it. Lets the scrollback store the row as bytes.
    pub(crate) plain: bool,
    /// Every cell has the default style and no extras; wide characters come with their spacer.
    /// Kept by printing with the default pen and by clears. Lets the scrollback skip styles.
    pub(crate) unstyled: bool,
    /// Every cell is a narrow ASCII character without extras; colours and attributes may
    /// vary. Kept by printing ASCII with a pen without extras and by clears; anything else
    /// clears it. Lets the scrollback store a coloured row with a quick loop.
    pub(crate) ascii: bool,
}

/// Rows are equal when they read the same, allocated or not.
impl PartialEq for Row {
    fn eq(&self, other: &Self) -> bool {
        self.cells() == other.cells()
            && self.wrapped == other.wrapped
            && self.seq == other.seq
            && self.written == other.written
            && self.plain == other.plain
            && self.unstyled == other.unstyled
            && self.ascii == other.ascii
    }
}

impl Eq for Row {}

impl Row {
    /// A blank row of `cols` cells.
    pub fn new(cols: usize) -> Self {
        let cells = if cols > BLANK_ROW_CELLS {
            vec![Cell::BLANK; cols]
        } else {
            Vec::new()
        };
        Row {
            cells,
            cols,
            wrapped: false,
            seq: 0,
            written: cols,
            plain: false,
            unstyled: false,
            ascii: false,
        }
    }

    /// A row holding `cells` (its width is their number).
    pub(crate) fn from_cells(cells: Vec<Cell>) -> Self {
        let mut row = Row::new(0);
        row.cols = cells.len();
        row.cells = cells;
        row.mark_unknown();
        row
    }

    /// The cells, exactly as many as the screen has columns.
    #[inline]
    pub fn cells(&self) -> &[Cell] {
        if self.cells.len() == self.cols {
            &self.cells
        } else {
            &BLANK_CELLS[..self.cols]
        }
    }

    /// The cells for writing, allocated first if the row was never written.
    #[inline]
    pub(crate) fn cells_mut(&mut self) -> &mut [Cell] {
        if self.cells.len() != self.cols {
            self.cells = vec![Cell::BLANK; self.cols];
        }
        &mut self.cells
    }

    /// Width in cells.
    #[inline]
    pub fn len(&self) -> usize {
        self.cols
    }

    /// Whether the row has no columns at all.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.cols == 0
    }

    /// Bytes of heap the row's cells use: none until it is written.
    pub fn heap_bytes(&self) -> usize {
        self.cells.capacity() * std::mem::size_of::<Cell>()
    }

    /// Whether the row holds cells (was written since it was made or resized).
    pub fn is_allocated(&self) -> bool {
        self.cells.len() == self.cols && self.cols > 0
    }

    /// Whether the line continues on the next row.
    #[inline]
    pub fn is_wrapped(&self) -> bool {
        self.wrapped
    }

    /// Sequence number of the last change to this row alone. Changes to every visible row at
    /// once (a scroll of the whole screen) are stamped on the screen instead: ask
    /// [`crate::Screen::row_seq`] whether a visible row changed.
    #[inline]
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// The row as text, trailing blanks trimmed, wide characters once.
    pub fn text(&self) -> String {
        let mut out = String::with_capacity(self.cols);
        for cell in &self.cells()[..self.used_len()] {
            cell.push_text(&mut out);
        }
        let trimmed = out.trim_end_matches(' ').len();
        out.truncate(trimmed);
        out
    }

    /// Number of cells up to the last one that is not blank with default style.
    pub fn used_len(&self) -> usize {
        let bound = self.written.min(self.cols);
        self.cells()[..bound]
            .iter()
            .rposition(|c| !c.is_blank())
            .map_or(0, |i| i + 1)
    }

    /// Fills the whole row with erased cells.
    pub(crate) fn clear(&mut self, pen: &Pen) {
        if pen.bg == crate::cell::Color::Default {
            // Cells past `written` are already blank (all of them in an unwritten row).
            let bound = self.written.min(self.cells.len());
            if self.ascii {
                // No extras to drop: plain stores.
                self.cells[..bound].iter_mut().for_each(Cell::reset_narrow);
            } else {
                self.cells[..bound].iter_mut().for_each(Cell::set_blank);
            }
            self.written = 0;
            self.plain = true;
            self.unstyled = true;
            self.ascii = true;
        } else {
            self.cells_mut().fill(Cell::erased(pen));
            self.mark_unknown();
        }
        self.wrapped = false;
    }

    /// Forgets what is known about the contents (after any change but plain printing).
    #[inline]
    pub(crate) fn mark_unknown(&mut self) {
        self.written = self.cols;
        self.plain = false;
        self.unstyled = false;
        self.ascii = false;
    }

    /// Sets the row's width, padding with blanks or cutting (a wide character cut in half loses
    /// its left half too).
    pub(crate) fn resize(&mut self, cols: usize) {
        self.cols = cols;
        if self.cells.is_empty() {
            if cols > BLANK_ROW_CELLS {
                self.cells = vec![Cell::BLANK; cols];
            }
            self.mark_unknown();
            return;
        }
        self.cells.resize(cols, Cell::BLANK);
        self.mark_unknown();
        if let Some(last) = self.cells.last_mut() {
            if last.is_wide() {
                *last = Cell::BLANK;
            }
        }
    }

    /// Erases cells `start..end` with `pen`'s background, also erasing the far half of any wide
    /// character the range cuts. With `selective`, protected cells stay.
    pub(crate) fn erase(&mut self, start: usize, end: usize, pen: &Pen, selective: bool) {
        let end = end.min(self.cols);
        if start >= end {
            return;
        }
        if !self.is_allocated() && pen.bg == crate::cell::Color::Default && !selective {
            // Erasing blanks with blanks.
            return;
        }
        self.split_wide_at(start, pen);
        self.split_wide_at(end, pen);
        let blank = Cell::erased(pen);
        for cell in &mut self.cells_mut()[start..end] {
            if !(selective && cell.is_protected()) {
                *cell = blank.clone();
            }
        }
    }

    /// If column `col` is the right half of a wide character, erases both halves, so that an
    /// edit at `col` never leaves half a character behind.
    pub(crate) fn split_wide_at(&mut self, col: usize, pen: &Pen) {
        if col == 0 || col >= self.cells.len() {
            // Past the edge, or an unwritten row: no wide character to cut.
            return;
        }
        if self.cells[col].is_spacer() || self.cells[col - 1].is_wide() {
            self.cells[col - 1] = Cell::erased(pen);
            self.cells[col] = Cell::erased(pen);
        }
    }

    /// Blanks any half of a wide character whose other half is missing (after cells were moved
    /// by a rectangle that cut through wide characters).
    pub(crate) fn repair_wide_pairs(&mut self) {
        let len = self.cells.len();
        for i in 0..len {
            let cell = &self.cells[i];
            let orphan = (cell.is_wide() && !self.cells.get(i + 1).is_some_and(Cell::is_spacer))
                || (cell.is_spacer() && (i == 0 || !self.cells[i - 1].is_wide()));
            if orphan {
                let bg = self.cells[i].bg();
                self.cells[i] = Cell::erased(&Pen {
                    bg,
                    ..Pen::default()
                });
            }
        }
    }

    /// Inserts `count` erased cells at `col`, within `col..=right`; cells pushed past `right`
    /// are lost.
    pub(crate) fn insert_cells(&mut self, col: usize, right: usize, count: usize, pen: &Pen) {
        let end = right + 1;
        if col >= end {
            return;
        }
        let count = count.min(end - col);
        self.split_wide_at(col, pen);
        self.split_wide_at(end - count, pen);
        self.split_wide_at(end, pen);
        let cells = self.cells_mut();
        cells[col..end].rotate_right(count);
        let blank = Cell::erased(pen);
        cells[col..col + count]
            .iter_mut()
            .for_each(|c| *c = blank.clone());
    }

    /// Deletes `count` cells at `col`, pulling in erased cells at `right`.
    pub(crate) fn delete_cells(&mut self, col: usize, right: usize, count: usize, pen: &Pen) {
        let end = right + 1;
        if col >= end {
            return;
        }
        let count = count.min(end - col);
        self.split_wide_at(col, pen);
        self.split_wide_at(col + count, pen);
        self.split_wide_at(end, pen);
        let cells = self.cells_mut();
        cells[col..end].rotate_left(count);
        let blank = Cell::erased(pen);
        cells[end - count..end]
            .iter_mut()
            .for_each(|c| *c = blank.clone());
    }
}
