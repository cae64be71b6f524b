//! Where each extra (underline colour, hyperlink) of a block sits in its list, while lines are
//! added to the block: a cell's extra is then found with one hash, where a scan of the list
//! made a run of cells with many different links (`ls --hyperlink` over a large directory)
//! cost the square of their number.

use crate::cell::CellExtra;
use std::collections::HashMap;
use std::sync::Arc;

/// The positions of a block's extras by value; kept only while the block takes lines.
#[derive(Debug, Default)]
pub(super) struct ExtrasIndex {
    positions: HashMap<Arc<CellExtra>, u32>,
    /// How many of the list's entries are in `positions` (a block unpacked to take lines
    /// again comes with a list and no index).
    indexed: usize,
}

impl ExtrasIndex {
    /// The position of `extra` in `list`, added at its end when it is not there yet.
    pub(super) fn position(&mut self, list: &mut Vec<Arc<CellExtra>>, extra: CellExtra) -> u32 {
        while self.indexed < list.len() {
            self.positions
                .entry(list[self.indexed].clone())
                .or_insert(self.indexed as u32);
            self.indexed += 1;
        }
        if let Some(&found) = self.positions.get(&extra) {
            return found;
        }
        let at = list.len() as u32;
        let extra = Arc::new(extra);
        list.push(extra.clone());
        self.positions.insert(extra, at);
        self.indexed += 1;
        at
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
        assert_eq!(index.position(&mut list, link("a")), 0);
        assert_eq!(index.position(&mut list, link("b")), 1);
        assert_eq!(index.position(&mut list, link("a")), 0);
        let red = CellExtra {
            underline_color: Color::Indexed(1),
            ..CellExtra::default()
        };
        assert_eq!(index.position(&mut list, red.clone()), 2);
        assert_eq!(list.len(), 3);
        // A list that came without its index (an unpacked block) is indexed on first use.
        let mut fresh = ExtrasIndex::default();
        assert_eq!(fresh.position(&mut list, red), 2);
        assert_eq!(fresh.position(&mut list, link("c")), 3);
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
