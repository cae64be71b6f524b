//! Cursor motion: backspace, tabs and tab stops, line feeds, relative and absolute moves, the
//! scroll region and left/right margins it moves within, and restoring a saved cursor.

use crate::charset::CharsetState;
use crate::handler::Handler;
use crate::screen::{Cursor, Screen};

impl Screen {
    pub(super) fn apply_backspace(&mut self) {
        let left = self.print_left();
        let from_wrap = std::mem::take(&mut self.cursor.pending_wrap);
        if self.cursor.col > left {
            self.cursor.col -= 1;
            if from_wrap {
                // xterm steps back from the last column, tmux from one past it: a combining
                // mark next joins the cell both of them mean, the one now under the cursor.
                self.mark_on_cursor = Some((self.cursor.row, self.cursor.col));
                self.update_plain_print();
            }
        } else if self.modes.reverse_wrap && self.modes.autowrap {
            // xterm: back to the end of the previous line, from the top to the bottom.
            self.cursor.row = if self.cursor.row > self.top {
                self.cursor.row - 1
            } else {
                self.bottom
            };
            self.cursor.col = self.print_right();
        }
    }

    pub(super) fn apply_tab_forward(&mut self, count: usize) {
        let right = self.print_right();
        let mut col = self.cursor.col;
        for _ in 0..count {
            match (col + 1..=right).find(|&c| self.tabs[c]) {
                Some(next) => col = next,
                None => {
                    col = right;
                    break;
                }
            }
        }
        self.cursor.col = col;
    }

    pub(super) fn apply_tab_backward(&mut self, count: usize) {
        // xterm moves but keeps a pending wrap.
        let left = self.print_left();
        let mut col = self.cursor.col;
        for _ in 0..count {
            match (left..col).rev().find(|&c| self.tabs[c]) {
                Some(prev) => col = prev,
                None => {
                    col = left;
                    break;
                }
            }
        }
        self.cursor.col = col;
    }

    pub(super) fn apply_linefeed(&mut self) {
        if self.bulk.is_some() {
            self.bulk_line_feed();
            return;
        }
        if self.modes.newline {
            self.carriage_return();
        }
        self.index_down();
    }

    pub(super) fn apply_set_tab_stop(&mut self) {
        let col = self.cursor.col;
        if let Some(t) = self.tabs.get_mut(col) {
            *t = true;
        }
    }

    pub(super) fn apply_clear_tab_stops(&mut self, all: bool) {
        if all {
            self.tabs.iter_mut().for_each(|t| *t = false);
        } else {
            let col = self.cursor.col;
            if let Some(t) = self.tabs.get_mut(col) {
                *t = false;
            }
        }
    }

    pub(super) fn apply_move_up(&mut self, count: usize, cr: bool) {
        let limit = if self.cursor.row >= self.top {
            self.top
        } else {
            0
        };
        self.cursor.row = self.cursor.row.saturating_sub(count).max(limit);
        self.cursor.pending_wrap = false;
        if cr {
            self.carriage_return();
        }
    }

    pub(super) fn apply_move_down(&mut self, count: usize, cr: bool) {
        let limit = if self.cursor.row <= self.bottom {
            self.bottom
        } else {
            self.rows - 1
        };
        self.cursor.row = self.cursor.row.saturating_add(count).min(limit);
        self.cursor.pending_wrap = false;
        if cr {
            self.carriage_return();
        }
    }

    pub(super) fn apply_move_forward(&mut self, count: usize) {
        let right = self.print_right();
        self.cursor.col = self.cursor.col.saturating_add(count).min(right);
        self.cursor.pending_wrap = false;
    }

    pub(super) fn apply_move_backward(&mut self, count: usize) {
        let left = self.print_left();
        self.cursor.col = self.cursor.col.saturating_sub(count).max(left);
        self.cursor.pending_wrap = false;
    }

    pub(super) fn apply_goto_col(&mut self, col: usize) {
        let col = if self.modes.origin {
            (self.margin_left() + col).min(self.margin_right())
        } else {
            col
        };
        let row = self.cursor.row;
        self.set_cursor(row, col);
    }

    pub(super) fn apply_goto_row(&mut self, row: usize) {
        let row = if self.modes.origin {
            (self.top + row).min(self.bottom)
        } else {
            row
        };
        let col = self.cursor.col;
        self.set_cursor(row, col);
    }

    pub(super) fn apply_goto(&mut self, row: usize, col: usize) {
        if self.modes.origin {
            let row = (self.top + row).min(self.bottom);
            let col = (self.margin_left() + col).min(self.margin_right());
            self.set_cursor(row, col);
        } else {
            self.set_cursor(row, col);
        }
    }

    pub(super) fn apply_set_scroll_region(&mut self, top: usize, bottom: usize) {
        let top = top.max(1) - 1;
        let bottom = if bottom == 0 {
            self.rows - 1
        } else {
            (bottom - 1).min(self.rows - 1)
        };
        if top >= bottom {
            return;
        }
        self.top = top;
        self.bottom = bottom;
        self.goto(0, 0);
    }

    pub(super) fn apply_set_left_right_margins(&mut self, left: usize, right: usize) {
        let left = left.max(1) - 1;
        let right = if right == 0 {
            self.cols - 1
        } else {
            (right - 1).min(self.cols - 1)
        };
        if left >= right {
            return;
        }
        self.left = left;
        self.right = right;
        self.goto(0, 0);
    }

    pub(super) fn apply_save_cursor_or_margins(&mut self, left: usize, right: usize) {
        if self.modes.left_right_margins {
            self.set_left_right_margins(left, right);
        } else {
            self.save_cursor();
        }
    }

    pub(super) fn restore_cursor_state(&mut self) {
        let slot = usize::from(self.alt_active);
        match self.saved[slot].clone() {
            Some(saved) => {
                self.cursor = saved.cursor;
                self.cursor.row = self.cursor.row.min(self.rows - 1);
                self.cursor.col = self.cursor.col.min(self.cols - 1);
                self.modes.origin = saved.origin;
                self.modes.autowrap = saved.autowrap;
                self.charsets = saved.charsets;
            }
            None => {
                // xterm: restoring with nothing saved homes the cursor and resets the pen.
                self.cursor = Cursor::default();
                self.modes.origin = false;
                self.charsets = CharsetState::default();
            }
        }
    }
}
