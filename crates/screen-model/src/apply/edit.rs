//! Editing the grid: erasing, inserting and deleting characters, lines and columns, shifting
//! columns, and the DECALN test pattern.

use crate::cell::{Cell, Pen};
use crate::handler::{EraseScope, Handler};
use crate::screen::{erase_pen, Screen};

impl Screen {
    pub(super) fn apply_alignment_test(&mut self) {
        self.top = 0;
        self.bottom = self.rows - 1;
        self.left = 0;
        self.right = self.cols - 1;
        self.modes.origin = false;
        let e = Cell::new('E', &Pen::default(), crate::cell::CellFlags::empty());
        for r in 0..self.rows {
            let row = self.row_mut(r);
            row.cells_mut().iter_mut().for_each(|c| *c = e.clone());
            row.wrapped = false;
        }
        self.set_cursor(0, 0);
    }

    pub(super) fn apply_insert_blanks(&mut self, count: usize) {
        let (left, right) = (self.margin_left(), self.margin_right());
        let (r, col) = (self.cursor.row, self.cursor.col);
        self.cursor.pending_wrap = false;
        if col < left || col > right {
            return;
        }
        let pen = erase_pen(&self.cursor.pen);
        self.row_mut(r).insert_cells(col, right, count, &pen);
    }

    pub(super) fn apply_scroll_left(&mut self, count: usize) {
        let (top, bottom, left) = (self.top, self.bottom, self.margin_left());
        if self.in_margins() {
            self.shift_columns_left(top, bottom, left, count);
        }
    }

    pub(super) fn apply_scroll_right(&mut self, count: usize) {
        let (top, bottom, left) = (self.top, self.bottom, self.margin_left());
        if self.in_margins() {
            self.shift_columns_right(top, bottom, left, count);
        }
    }

    pub(super) fn apply_insert_columns(&mut self, count: usize) {
        let (top, bottom, col) = (self.top, self.bottom, self.cursor.col);
        if self.in_margins() {
            self.shift_columns_right(top, bottom, col, count);
        }
    }

    pub(super) fn apply_delete_columns(&mut self, count: usize) {
        let (top, bottom, col) = (self.top, self.bottom, self.cursor.col);
        if self.in_margins() {
            self.shift_columns_left(top, bottom, col, count);
        }
    }

    pub(super) fn apply_erase_in_display(&mut self, scope: EraseScope, selective: bool) {
        let pen = erase_pen(&self.cursor.pen);
        let (r, col) = (self.cursor.row, self.cursor.col);
        match scope {
            EraseScope::ToEnd => {
                self.erase_in_line(EraseScope::ToEnd, selective);
                for row in r + 1..self.rows {
                    self.row_mut(row).erase(0, usize::MAX, &pen, selective);
                    self.grid[row].wrapped = false;
                }
            }
            EraseScope::ToStart => {
                for row in 0..r {
                    self.row_mut(row).erase(0, usize::MAX, &pen, selective);
                    self.grid[row].wrapped = false;
                }
                self.row_mut(r).erase(0, col + 1, &pen, selective);
            }
            EraseScope::All => {
                if self.scroll_on_clear && !self.alt_active && !selective {
                    // Up to the last row in use, as tmux's `grid_view_clear_history`.
                    let used = (0..self.rows).rev().find(|&r| self.grid[r].used_len() > 0);
                    for row in 0..used.map_or(0, |last| last + 1) {
                        self.scrollback.push(&self.grid[row]);
                    }
                }
                for row in 0..self.rows {
                    self.row_mut(row).erase(0, usize::MAX, &pen, selective);
                    self.grid[row].wrapped = false;
                }
            }
            EraseScope::Scrollback => self.scrollback.clear(),
        }
    }

    pub(super) fn apply_erase_in_line(&mut self, scope: EraseScope, selective: bool) {
        let pen = erase_pen(&self.cursor.pen);
        let (r, col) = (self.cursor.row, self.cursor.col);
        self.cursor.pending_wrap = false;
        let row = self.row_mut(r);
        match scope {
            EraseScope::ToEnd => {
                row.erase(col, usize::MAX, &pen, selective);
                row.wrapped = false;
            }
            EraseScope::ToStart => row.erase(0, col + 1, &pen, selective),
            EraseScope::All | EraseScope::Scrollback => {
                row.erase(0, usize::MAX, &pen, selective);
                row.wrapped = false;
            }
        }
    }

    pub(super) fn apply_insert_lines(&mut self, count: usize) {
        let (r, col) = (self.cursor.row, self.cursor.col);
        if r < self.top || r > self.bottom || col < self.margin_left() || col > self.margin_right()
        {
            return;
        }
        let bottom = self.bottom;
        self.scroll_region_down(r, bottom, count);
        self.cursor.col = self.margin_left();
        self.cursor.pending_wrap = false;
    }

    pub(super) fn apply_delete_lines(&mut self, count: usize) {
        let (r, col) = (self.cursor.row, self.cursor.col);
        if r < self.top || r > self.bottom || col < self.margin_left() || col > self.margin_right()
        {
            return;
        }
        let bottom = self.bottom;
        // Lines deleted never go to the scrollback, even from the top row.
        let alt = self.alt_active;
        self.alt_active = true;
        self.scroll_region_up(r, bottom, count);
        self.alt_active = alt;
        self.cursor.col = self.margin_left();
        self.cursor.pending_wrap = false;
    }

    pub(super) fn apply_delete_chars(&mut self, count: usize) {
        let (left, right) = (self.margin_left(), self.margin_right());
        let (r, col) = (self.cursor.row, self.cursor.col);
        self.cursor.pending_wrap = false;
        if col < left || col > right {
            return;
        }
        let pen = erase_pen(&self.cursor.pen);
        let row = self.row_mut(r);
        row.delete_cells(col, right, count, &pen);
        row.wrapped = false;
    }

    pub(super) fn apply_erase_chars(&mut self, count: usize) {
        let pen = erase_pen(&self.cursor.pen);
        let (r, col) = (self.cursor.row, self.cursor.col);
        self.cursor.pending_wrap = false;
        let end = col.saturating_add(count);
        self.row_mut(r).erase(col, end, &pen, false);
    }

    /// Whether the cursor is inside the scroll region and the column margins.
    fn in_margins(&self) -> bool {
        let (r, c) = (self.cursor.row, self.cursor.col);
        r >= self.top && r <= self.bottom && c >= self.margin_left() && c <= self.margin_right()
    }

    /// Deletes `count` columns at `col` in rows `top..=bottom`, pulling blanks in at the right
    /// margin.
    fn shift_columns_left(&mut self, top: usize, bottom: usize, col: usize, count: usize) {
        let right = self.margin_right();
        let pen = erase_pen(&self.cursor.pen);
        for r in top..=bottom {
            self.row_mut(r).delete_cells(col, right, count, &pen);
        }
    }

    /// Inserts `count` blank columns at `col` in rows `top..=bottom`.
    fn shift_columns_right(&mut self, top: usize, bottom: usize, col: usize, count: usize) {
        let right = self.margin_right();
        let pen = erase_pen(&self.cursor.pen);
        for r in top..=bottom {
            self.row_mut(r).insert_cells(col, right, count, &pen);
        }
    }
}
