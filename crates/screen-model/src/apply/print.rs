//! Printing: runs of printable ASCII, REP, and everything the fast path in `print` leaves to
//! the slow one (charsets, wide and zero-width characters, pending wraps, insert mode).

use crate::cell::Cell;
use crate::handler::Handler;
use crate::screen::Screen;
use crate::width::{char_width, ZWJ};

impl Screen {
    pub(super) fn apply_repeat_last(&mut self, count: usize) {
        let Some(c) = self.last_char else { return };
        let width = char_width(c);
        // More than a screenful repeats to the same visible result; keep time bounded.
        let count = count.min(self.cols * self.rows);
        for _ in 0..count {
            self.put_char(c, width);
        }
    }

    pub(super) fn apply_print_ascii(&mut self, mut run: &[u8]) {
        if self.bulk.is_some() {
            self.bulk_print(run);
            return;
        }
        while let Some(&first) = run.first() {
            if !self.plain_print || self.cursor.pending_wrap {
                self.print(char::from(first));
                run = &run[1..];
                continue;
            }
            let right = self.print_right();
            let (r, col) = (self.cursor.row, self.cursor.col);
            let n = run.len().min(right + 1 - col);
            let row = &mut self.grid[r];
            let known_ascii = row.ascii;
            let target = &mut row.cells_mut()[col..col + n];
            // A row known to be narrow ASCII without extras needs no look at its cells.
            let (wide, extras) = if known_ascii {
                (false, false)
            } else {
                target.iter().fold((false, false), |(wide, extras), cell| {
                    (
                        wide || cell.flags() != crate::cell::CellFlags::empty(),
                        extras || cell.extra().is_some(),
                    )
                })
            };
            if wide {
                // Wide characters to split: the careful path.
                self.print(char::from(first));
                run = &run[1..];
                continue;
            }
            if !extras && self.pen_cell.extra().is_none() {
                // Nothing to drop or share: overwrite the fields in place.
                let style = self.pen_cell.style_only();
                for (cell, &b) in target.iter_mut().zip(&run[..n]) {
                    cell.overwrite_narrow(char::from(b), style);
                }
            } else {
                for (cell, &b) in target.iter_mut().zip(&run[..n]) {
                    *cell = self.pen_cell.with_char(char::from(b));
                }
            }
            row.seq = self.seq;
            row.written = row.written.max(col + n);
            row.plain &= self.pen_default;
            row.unstyled &= self.pen_default;
            row.ascii &= self.pen_cell.extra().is_none();
            self.last_char = Some(char::from(run[n - 1]));
            if col + n > right {
                self.cursor.col = right;
                self.cursor.pending_wrap = self.modes.autowrap;
            } else {
                self.cursor.col = col + n;
            }
            run = &run[n..];
        }
    }

    /// Everything the fast path of `print` does not cover: charsets, wide and zero-width
    /// characters, pending wraps, insert mode.
    #[inline(never)]
    pub(super) fn print_slow(&mut self, c: char) {
        if c == '\u{7f}' {
            return;
        }
        let c = if self.charsets.is_identity() {
            c
        } else {
            self.charsets.map(c)
        };
        let width = char_width(c);
        // Zero-width characters join the previous grapheme; after a ZWJ, so does a wide one
        // (an emoji ZWJ sequence shows as one glyph).
        if width == 0 || (self.join_next && width == 2) {
            self.join_next = c == ZWJ;
            self.update_plain_print();
            self.join_to_previous(c);
            return;
        }
        if self.join_next {
            self.join_next = false;
            self.update_plain_print();
        }
        self.last_char = Some(c);
        if self.mark_on_cursor.take().is_some() {
            self.update_plain_print();
        }
        if width == 2 && self.plain_print && !self.cursor.pending_wrap {
            // Fast path for a wide character that fits over two narrow cells.
            let right = self.print_right();
            let (r, col) = (self.cursor.row, self.cursor.col);
            if col < right {
                let row = &mut self.grid[r];
                let empty = crate::cell::CellFlags::empty();
                let cells = row.cells_mut();
                if cells[col].flags() == empty && cells[col + 1].flags() == empty {
                    cells[col] = Cell::new(c, &self.cursor.pen, crate::cell::CellFlags::WIDE);
                    cells[col + 1] = Cell::spacer(&self.cursor.pen);
                    row.seq = self.seq;
                    row.written = row.written.max(col + 2);
                    row.plain = false;
                    row.ascii = false;
                    row.unstyled &= self.pen_default;
                    if col + 1 >= right {
                        self.cursor.col = right;
                        self.cursor.pending_wrap = self.modes.autowrap;
                    } else {
                        self.cursor.col = col + 2;
                    }
                    return;
                }
            }
        }
        self.put_char(c, width);
    }
}
