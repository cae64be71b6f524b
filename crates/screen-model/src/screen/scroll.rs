//! Scrolling a region up or down within the margins (rows leaving the top of the primary
//! buffer go to the scrollback), and IND / RI, which scroll at the region's edges.

use super::{erase_pen, Screen};
use crate::cell::Cell;

impl Screen {
    /// Scrolls rows `top..=bottom` up by `count` within the column margins. Rows leaving the
    /// top of the primary buffer go to the scrollback when `top` is the first row.
    pub(crate) fn scroll_region_up(&mut self, top: usize, bottom: usize, count: usize) {
        if top > bottom || bottom >= self.rows {
            return;
        }
        let count = count.min(bottom - top + 1);
        let pen = erase_pen(&self.cursor.pen);
        if self.full_width_margins() {
            let save = top == 0 && !self.alt_active;
            for i in 0..count {
                if save {
                    self.scrollback.push(&self.grid[top + i]);
                }
                self.grid[top + i].clear(&pen);
            }
            if top == 0 && bottom + 1 == self.grid.len() {
                self.grid.rotate_left(count);
            } else {
                self.grid.make_contiguous()[top..=bottom].rotate_left(count);
            }
            self.touch_rows(top, bottom);
            return;
        } else {
            let (left, right) = (self.margin_left(), self.margin_right());
            for r in top..=bottom {
                let src = r + count;
                if src <= bottom {
                    let moved: Vec<Cell> = self.grid[src].cells()[left..=right].to_vec();
                    self.grid[r].cells_mut()[left..=right].clone_from_slice(&moved);
                } else {
                    self.grid[r].erase(left, right + 1, &pen, false);
                }
                self.grid[r].repair_wide_pairs();
            }
        }
        for r in top..=bottom {
            self.row_mut(r);
        }
    }

    /// Scrolls rows `top..=bottom` down by `count` within the column margins.
    pub(crate) fn scroll_region_down(&mut self, top: usize, bottom: usize, count: usize) {
        if top > bottom || bottom >= self.rows {
            return;
        }
        let count = count.min(bottom - top + 1);
        let pen = erase_pen(&self.cursor.pen);
        if self.full_width_margins() {
            if top == 0 && bottom + 1 == self.grid.len() {
                self.grid.rotate_right(count);
            } else {
                self.grid.make_contiguous()[top..=bottom].rotate_right(count);
            }
            for r in top..top + count {
                self.grid[r].clear(&pen);
            }
            self.touch_rows(top, bottom);
            return;
        } else {
            let (left, right) = (self.margin_left(), self.margin_right());
            for r in (top..=bottom).rev() {
                if r >= top + count {
                    let moved: Vec<Cell> = self.grid[r - count].cells()[left..=right].to_vec();
                    self.grid[r].cells_mut()[left..=right].clone_from_slice(&moved);
                } else {
                    self.grid[r].erase(left, right + 1, &pen, false);
                }
                self.grid[r].repair_wide_pairs();
            }
        }
        for r in top..=bottom {
            self.row_mut(r);
        }
    }

    /// IND: down a row, scrolling the region when at its bottom.
    pub(crate) fn index_down(&mut self) {
        self.cursor.pending_wrap = false;
        if self.cursor.row == self.bottom {
            self.scroll_region_up(self.top, self.bottom, 1);
        } else if self.cursor.row + 1 < self.rows {
            self.cursor.row += 1;
        }
    }

    /// RI: up a row, scrolling the region down when at its top.
    pub(crate) fn index_up(&mut self) {
        self.cursor.pending_wrap = false;
        if self.cursor.row == self.top {
            self.scroll_region_down(self.top, self.bottom, 1);
        } else if self.cursor.row > 0 {
            self.cursor.row -= 1;
        }
    }
}
