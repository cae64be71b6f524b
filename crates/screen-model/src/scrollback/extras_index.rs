//! Where each extra (underline colour, hyperlink) of a block sits in its list, while lines are
//! added to the block: a cell's extra is then found with one hash, where a scan of the list
//! made a run of cells with many different links (`ls --hyperlink` over a large directory)
//! cost the square of their number.

use crate::cell::CellExtra;
use std::collections::HashMap;
use std::sync::Arc;

/// The most different extras one block of history keeps: a line of `ls --hyperlink` has one
/// link, so 256 lines hold a few hundred. Past it, or past [`MAX_BLOCK_LINK_BYTES`], a cell's
/// link or underline colour is left out of the history (the screen showed it): a program
/// giving every cell a long link of its own cannot make each block of history hold megabytes.
pub(super) const MAX_BLOCK_EXTRAS: usize = 4096;
/// The most bytes of link text (URIs and ids) one block of history keeps.
pub(super) const MAX_BLOCK_LINK_BYTES: usize = 1 << 20;

/// The positions of a block's extras by value; kept only while the block takes lines.
#[derive(Debug, Default)]
pub(super) struct ExtrasIndex {
    positions: HashMap<Arc<CellExtra>, u32>,
    /// How many of the list's entries are in `positions` (a block unpacked to take lines
    /// again comes with a list and no index).
    indexed: usize,
    /// Bytes of link text of the entries indexed.
    link_bytes: usize,
}

/// Bytes of link text `extra` holds.
fn link_bytes(extra: &CellExtra) -> usize {
    extra
        .hyperlink
        .as_ref()
        .map_or(0, |h| h.uri.len() + h.id.len())
}

impl ExtrasIndex {
    /// The position of `extra` in `list`, added at its end when it is not there yet; `None`
    /// when the block is full of extras ([`MAX_BLOCK_EXTRAS`], [`MAX_BLOCK_LINK_BYTES`]).
    pub(super) fn position(
        &mut self,
        list: &mut Vec<Arc<CellExtra>>,
        extra: CellExtra,
    ) -> Option<u32> {
        while self.indexed < list.len() {
            let entry = &list[self.indexed];
            self.link_bytes += link_bytes(entry);
            self.positions
                .entry(entry.clone())
                .or_insert(self.indexed as u32);
            self.indexed += 1;
        }
        if let Some(&found) = self.positions.get(&extra) {
            return Some(found);
        }
        let bytes = link_bytes(&extra);
        if list.len() >= MAX_BLOCK_EXTRAS || self.link_bytes + bytes > MAX_BLOCK_LINK_BYTES {
            return None;
        }
        let at = list.len() as u32;
        let extra = Arc::new(extra);
        list.push(extra.clone());
        self.positions.insert(extra, at);
        self.indexed += 1;
        self.link_bytes += bytes;
        Some(at)
    }

    /// Forgets every position: the block takes no more lines.
    pub(super) fn clear(&mut self) {
        *self = ExtrasIndex::default();
    }

    /// Heap bytes held (the table's slots; the extras are the list's).
    pub(super) fn heap_bytes(&self) -> usize {
        self.positions.capacity() * (std::mem::size_of::<(Arc<CellExtra>, u32)>() + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::{Color, Hyperlink};

    fn link(uri: &str) -> CellExtra {
        CellExtra {
            hyperlink: Some(Arc::new(Hyperlink {
                id: Box::from(""),
                uri: Box::from(uri),
            })),
            ..CellExtra::default()
        }
    }

    #[test]
    fn finds_what_is_there_and_adds_what_is_not() {
        let mut list = Vec::new();
        let mut index = ExtrasIndex::default();
        assert_eq!(index.position(&mut list, link("a")), Some(0));
        assert_eq!(index.position(&mut list, link("b")), Some(1));
        assert_eq!(index.position(&mut list, link("a")), Some(0));
        let red = CellExtra {
            underline_color: Color::Indexed(1),
            ..CellExtra::default()
        };
        assert_eq!(index.position(&mut list, red.clone()), Some(2));
        assert_eq!(list.len(), 3);
        // A list that came without its index (an unpacked block) is indexed on first use.
        let mut fresh = ExtrasIndex::default();
        assert_eq!(fresh.position(&mut list, red), Some(2));
        assert_eq!(fresh.position(&mut list, link("c")), Some(3));
    }

    #[test]
    fn a_block_keeps_a_bounded_number_and_size_of_links() {
        let mut list = Vec::new();
        let mut index = ExtrasIndex::default();
        for i in 0..MAX_BLOCK_EXTRAS {
            assert_eq!(
                index.position(&mut list, link(&format!("u{i}"))),
                Some(i as u32)
            );
        }
        assert_eq!(index.position(&mut list, link("one too many")), None);
        // Those it has are still found.
        assert_eq!(index.position(&mut list, link("u7")), Some(7));
        let mut list = Vec::new();
        let mut index = ExtrasIndex::default();
        let long = "x".repeat(4000);
        let mut kept = 0;
        while index
            .position(&mut list, link(&format!("{long}{kept:04}")))
            .is_some()
        {
            kept += 1;
            assert!(kept <= MAX_BLOCK_EXTRAS, "no end to the links kept");
        }
        assert_eq!(kept, MAX_BLOCK_LINK_BYTES / 4004);
        assert!(index.heap_bytes() > 0);
    }

    /// Lines each with a link of its own, through hot and packed blocks and past the history
    /// limit: every line comes back with its own link.
    #[test]
    fn many_different_links_come_back_from_the_history_each_its_own() {
        let mut screen = crate::Screen::with_scrollback(20, 2, 2000);
        for i in 0..3000 {
            screen.feed(format!("\x1b]8;;file:///f{i}\x1b\\f{i}\x1b]8;;\x1b\\ x\r\n").as_bytes());
        }
        let history = screen.scrollback();
        assert!(history.len() >= 1900, "{}", history.len());
        // f0 to f2998 went up; the oldest beyond the limit are gone.
        let first = 2999 - history.len();
        for line in 0..history.len() {
            let row = history.get(line, 20).unwrap();
            let n = first + line;
            assert_eq!(row.text().trim_end(), format!("f{n} x"), "line {line}");
            let uri = row.cells()[0].hyperlink().map(|h| h.uri.to_string());
            assert_eq!(uri.as_deref(), Some(format!("file:///f{n}").as_str()));
            let after = format!("f{n}").len() + 1;
            assert!(row.cells()[after].hyperlink().is_none(), "line {line}");
        }
    }
}
