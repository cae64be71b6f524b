//! The primary and alternate buffers: switching between them, clearing the active one, and
//! the cursor state each one saves (DECSC).

use std::collections::VecDeque;

use super::{erase_pen, SavedCursor, Screen};
use crate::row::Row;

impl Screen {
    /// Switches between the primary and alternate buffers.
    pub(crate) fn switch_buffer(&mut self, alternate: bool) {
        if self.alt_active == alternate {
            return;
        }
        if self.other.is_empty() {
            self.other = VecDeque::from(vec![Row::new(self.cols); self.rows]);
        }
        std::mem::swap(&mut self.grid, &mut self.other);
        self.alt_active = alternate;
        self.touch_all();
    }

    /// The primary screen the alternate one covers, as it was when the program switched
    /// (tmux's saved grid, for `capture-pane -a`), without history or the program's state;
    /// `None` while the primary screen is shown.
    pub fn covered_screen(&self) -> Option<Screen> {
        if !self.alt_active {
            return None;
        }
        let mut covered = Screen::with_scrollback(self.cols, self.rows, 0);
        covered.grid = self.other.clone();
        covered.touch_all();
        Some(covered)
    }

    /// Drops every line of history (tmux's `clear-history`; the program's own `CSI 3 J` does
    /// the same).
    pub fn clear_history(&mut self) {
        self.scrollback.clear();
        self.touch_all();
    }

    /// Erases the whole active buffer.
    pub(crate) fn clear_buffer(&mut self) {
        let pen = erase_pen(&self.cursor.pen);
        for r in 0..self.rows {
            self.row_mut(r).clear(&pen);
        }
    }

    /// The state DECSC saves.
    pub(crate) fn saved_now(&self) -> SavedCursor {
        SavedCursor {
            cursor: self.cursor.clone(),
            origin: self.modes.origin,
            autowrap: self.modes.autowrap,
            charsets: self.charsets,
        }
    }
}
