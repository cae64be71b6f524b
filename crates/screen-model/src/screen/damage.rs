//! Damage stamps: which rows changed after a sequence number, so renderers redraw only those.

use super::Screen;
use crate::row::Row;

impl Screen {
    /// The sequence number of the latest change: rows stamped after a renderer's last frame
    /// are the ones to redraw.
    pub fn seqno(&self) -> u64 {
        self.seq
    }

    /// Indices of the visible rows changed after sequence number `since`.
    pub fn changed_rows_since(&self, since: u64) -> impl Iterator<Item = usize> + '_ {
        let all = self.all_rows_seq > since;
        self.grid
            .iter()
            .enumerate()
            .filter(move |(_, r)| all || r.seq > since)
            .map(|(i, _)| i)
    }

    /// Sequence number of the last change to visible row `i` (0 for a row that does not
    /// exist): its own stamp or the last change to every row, whichever is later.
    pub fn row_seq(&self, i: usize) -> u64 {
        self.grid.get(i).map_or(0, |r| r.seq.max(self.all_rows_seq))
    }

    /// Stamps row `r` as changed now and returns it for any kind of change.
    #[inline]
    pub(crate) fn row_mut(&mut self, r: usize) -> &mut Row {
        let row = &mut self.grid[r];
        row.seq = self.seq;
        row.mark_unknown();
        row
    }

    /// Marks every visible row changed now: the host showed something else over the screen
    /// (a copy-mode view) and renderers must draw the screen whole again.
    pub fn redraw_all(&mut self) {
        self.seq += 1;
        self.touch_all();
    }

    /// Stamps every visible row (buffer switch, resize, full clear).
    pub(crate) fn touch_all(&mut self) {
        self.all_rows_seq = self.seq;
    }

    /// Stamps rows `top..=bottom` (all of them with one stamp when that is the whole screen).
    pub(super) fn touch_rows(&mut self, top: usize, bottom: usize) {
        if top == 0 && bottom + 1 == self.grid.len() {
            self.touch_all();
        } else {
            let seq = self.seq;
            self.grid.range_mut(top..=bottom).for_each(|r| r.seq = seq);
        }
    }
}
