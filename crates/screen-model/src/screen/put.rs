//! Putting characters into the grid: the fast-path flags, wrapping, wide pairs, and
//! joining zero-width characters to the previous grapheme.

use super::{Screen, MAX_GRAPHEME_BYTES};
use crate::cell::{Cell, CellFlags, Pen};

impl Screen {
    /// Recomputes the fast-path flags after the pen, insert mode, charsets or joining changed.
    #[inline]
    pub(crate) fn update_plain_print(&mut self) {
        self.plain_print = !self.modes.insert
            && !self.join_next
            && self.mark_on_cursor.is_none()
            && self.charsets.is_identity();
        self.refresh_pen_cache();
    }

    /// Recomputes what printing caches about the pen.
    #[inline]
    pub(crate) fn refresh_pen_cache(&mut self) {
        self.pen_default = self.cursor.pen == Pen::default();
        self.pen_cell = Cell::new(' ', &self.cursor.pen, CellFlags::empty());
    }

    /// Prints a character of display width 1 or 2 at the cursor, wrapping as xterm does.
    #[inline]
    pub(crate) fn put_char(&mut self, c: char, width: usize) {
        let mut right = self.print_right();
        if self.cursor.pending_wrap {
            self.wrap();
            right = self.print_right();
        }
        if width == 2 && self.cursor.col + 1 > right {
            if right == self.print_left() {
                // No room for a wide character at all on a one-column line.
                return;
            }
            if self.modes.autowrap {
                self.wrap();
                right = self.print_right();
            } else {
                self.cursor.col = right - 1;
            }
        }
        let (r, col) = (self.cursor.row, self.cursor.col);
        let insert = self.modes.insert;
        let seq = self.seq;
        let pen = &self.cursor.pen;
        let pen_default = self.pen_default;
        let row = &mut self.grid[r];
        row.seq = seq;
        if insert {
            row.insert_cells(col, right, width, pen);
            row.mark_unknown();
        } else {
            row.written = row.written.max(col + width);
            row.plain &= pen_default && width == 1 && c.is_ascii();
            row.unstyled &= pen_default;
            row.ascii &= width == 1 && c.is_ascii() && pen.extra.is_none();
        }
        // Never leave half of a wide character behind.
        if row.cells()[col].flags() != CellFlags::empty() {
            row.split_wide_at(col, pen);
            row.split_wide_at(col + 1, pen);
        }
        if width == 2 {
            if row.cells()[col + 1].flags() != CellFlags::empty() {
                row.split_wide_at(col + 2, pen);
            }
            let cells = row.cells_mut();
            cells[col] = Cell::new(c, pen, CellFlags::WIDE);
            cells[col + 1] = Cell::spacer(pen);
        } else {
            row.cells_mut()[col] = Cell::new(c, pen, CellFlags::empty());
        }
        let next = col + width;
        if next > right {
            self.cursor.col = right;
            self.cursor.pending_wrap = self.modes.autowrap;
        } else {
            self.cursor.col = next;
        }
    }

    /// Autowrap: marks the row as continuing, then CR and index.
    fn wrap(&mut self) {
        self.cursor.pending_wrap = false;
        if !self.modes.autowrap {
            return;
        }
        let r = self.cursor.row;
        let row = &mut self.grid[r];
        row.seq = self.seq;
        row.wrapped = true;
        self.cursor.col = self.print_left();
        self.index_down();
    }

    /// Joins a zero-width character (or, after a ZWJ, any character) to the grapheme printed
    /// last. VS16 widens a narrow emoji to two cells when there is room.
    pub(crate) fn join_to_previous(&mut self, c: char) {
        let here = (self.cursor.row, self.cursor.col);
        let (r, mut col) = if self.cursor.pending_wrap || self.mark_on_cursor == Some(here) {
            (self.cursor.row, self.cursor.col)
        } else if self.cursor.col > 0 {
            (self.cursor.row, self.cursor.col - 1)
        } else if self.cursor.row > 0 && self.grid[self.cursor.row - 1].wrapped {
            (self.cursor.row - 1, self.cols - 1)
        } else {
            return;
        };
        if self.grid[r].cells()[col].is_spacer() && col > 0 {
            col -= 1;
        }
        let row = self.row_mut(r);
        row.cells_mut()[col].push_combining(c, MAX_GRAPHEME_BYTES);
        let widen = c == crate::width::VS16
            && !row.cells()[col].is_wide()
            && !self.cursor.pending_wrap
            && r == self.cursor.row
            && col + 1 == self.cursor.col
            && col < self.print_right();
        if widen {
            let pen = self.grid[r].cells()[col].pen();
            let row = &mut self.grid[r];
            row.split_wide_at(col + 2, &pen);
            let cells = row.cells_mut();
            cells[col].set_wide();
            cells[col + 1] = Cell::spacer(&pen);
            let right = self.print_right();
            if col + 2 > right {
                self.cursor.col = right;
                self.cursor.pending_wrap = self.modes.autowrap;
            } else {
                self.cursor.col = col + 2;
            }
        }
    }
}
