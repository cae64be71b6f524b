//! Where the cursor may go: the margins in effect, the columns it prints between, and
//! absolute moves clamped to the screen.

use super::Screen;

impl Screen {
    /// Left margin in effect for the cursor.
    #[inline]
    pub(crate) fn margin_left(&self) -> usize {
        if self.modes.left_right_margins {
            self.left
        } else {
            0
        }
    }

    /// Right margin in effect.
    #[inline]
    pub(crate) fn margin_right(&self) -> usize {
        if self.modes.left_right_margins {
            self.right
        } else {
            self.cols - 1
        }
    }

    /// The rightmost column the cursor may print to: the right margin when inside the
    /// margins, else the screen edge.
    #[inline]
    pub(crate) fn print_right(&self) -> usize {
        let right = self.margin_right();
        if self.cursor.col <= right {
            right
        } else {
            self.cols - 1
        }
    }

    /// The leftmost column a CR returns to.
    #[inline]
    pub(crate) fn print_left(&self) -> usize {
        let left = self.margin_left();
        if self.cursor.col >= left {
            left
        } else {
            0
        }
    }

    /// Whether the margins cover the full width (so whole rows can be moved).
    #[inline]
    pub(crate) fn full_width_margins(&self) -> bool {
        self.margin_left() == 0 && self.margin_right() == self.cols - 1
    }

    /// Moves the cursor to an absolute position, clamped to the screen.
    pub(crate) fn set_cursor(&mut self, row: usize, col: usize) {
        self.cursor.row = row.min(self.rows - 1);
        self.cursor.col = col.min(self.cols - 1);
        self.cursor.pending_wrap = false;
    }
}
