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
        covered.seq = self.seq;
        covered.touch_all();
        Some(covered)
    }

    /// tmux's `resize-pane -T`: the rows below the cursor give way to the newest lines of
    /// history, which come back onto the screen's top; the cursor moves down with the text.
    /// Nothing on the alternate screen, which has no history. Returns the lines brought back.
    pub fn trim_below_cursor(&mut self) -> usize {
        if self.alt_active {
            return 0;
        }
        let below = self.rows.saturating_sub(self.cursor.row + 1);
        let mut brought = 0;
        while brought < below {
            let Some(row) = self.scrollback.pop(self.cols) else {
                break;
            };
            self.grid.pop_back();
            self.grid.push_front(row);
            brought += 1;
        }
        if brought > 0 {
            self.cursor.row += brought;
            self.mark_on_cursor = None;
            self.update_plain_print();
            self.seq += 1;
            self.touch_all();
        }
        brought
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

#[cfg(test)]
mod tests {
    use crate::Screen;

    /// `resize-pane -T` after a clear: the history comes back above the cursor, which moves
    /// down with the text.
    #[test]
    fn trimming_below_the_cursor_brings_history_back() {
        let mut s = Screen::with_scrollback(10, 4, 100);
        s.feed(b"one\r\ntwo\r\nthree\r\nfour\r\nfive\r\nsix");
        assert_eq!(s.scrollback().len(), 2);
        s.feed(b"\x1b[H\x1b[2Jtop");
        let before = s.scrollback().len();
        let first = s.scrollback().first_absolute();
        let brought = s.trim_below_cursor();
        assert_eq!(brought, 3.min(before));
        assert_eq!(s.scrollback().len(), before - brought);
        assert_eq!(s.cursor_state().row, brought);
        assert_eq!(
            s.scrollback().first_absolute(),
            first,
            "the lines left keep their numbers"
        );
        let text = s.text();
        assert!(
            text.lines().nth(brought).unwrap().starts_with("top"),
            "{text}"
        );
        s.feed(b"\x1b[?1049h");
        assert_eq!(
            s.trim_below_cursor(),
            0,
            "no history on the alternate screen"
        );
    }
}
