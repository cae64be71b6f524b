//! Lines that scrolled off the top, stored compactly in a ring of blocks.
//!
//! A line is encoded as bytes: its text as UTF-8 with style changes between runs of cells, so an
//! 80-column ASCII line costs about 85 bytes and a line of per-cell truecolour about 7 bytes a
//! cell. Lines are packed into blocks of [`LINES_PER_BLOCK`]; the oldest block is dropped whole
//! once the limit is passed, which makes trimming O(1) and keeps allocator overhead per block,
//! not per line.
//!
//! The ring is here; `encode` and `decode` turn rows into those bytes and back, with the
//! building blocks they share in `format`.

mod decode;
mod encode;
mod format;

use crate::ascii_row::AsciiRow;
use crate::cell::CellExtra;
use crate::row::Row;
use decode::decode_line;
use encode::{encode_ascii_row, encode_line};
use format::{read_varint, FLAG_WRAPPED};
use std::collections::VecDeque;
use std::sync::Arc;

/// Lines per block: large enough that per-block overhead is noise, small enough that a dropped
/// block frees memory promptly.
const LINES_PER_BLOCK: usize = 256;

#[derive(Default)]
struct Block {
    data: Vec<u8>,
    /// Start of each line in `data`.
    offsets: Vec<u32>,
    /// Extras (underline colour, hyperlink, joined characters) referenced by index.
    extras: Vec<Arc<CellExtra>>,
}

impl Block {
    fn line(&self, i: usize) -> &[u8] {
        let start = self.offsets[i] as usize;
        let end = self
            .offsets
            .get(i + 1)
            .map_or(self.data.len(), |&o| o as usize);
        &self.data[start..end]
    }
}

/// The scrollback ring.
pub struct Scrollback {
    blocks: VecDeque<Block>,
    /// Lines of the first block already dropped.
    first: usize,
    len: usize,
    limit: usize,
    /// Lines ever pushed (those since dropped included): line `pushed - len + i` is line `i`
    /// of [`Scrollback::get`], so a reader can address lines absolutely while more arrive.
    pushed: u64,
}

impl std::fmt::Debug for Scrollback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scrollback")
            .field("len", &self.len)
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl Scrollback {
    /// An empty scrollback keeping at most `limit` lines.
    pub fn new(limit: usize) -> Self {
        Scrollback {
            blocks: VecDeque::new(),
            first: 0,
            len: 0,
            limit,
            pushed: 0,
        }
    }

    /// Number of lines held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no line is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Lines ever pushed, dropped ones included: the absolute number of the line after the
    /// newest. The oldest line held is [`Scrollback::first_absolute`].
    pub fn pushed(&self) -> u64 {
        self.pushed
    }

    /// The absolute number (see [`Scrollback::pushed`]) of the oldest line held.
    pub fn first_absolute(&self) -> u64 {
        self.pushed - self.len as u64
    }

    /// Numbers the lines pushed next from `oldest` on: a rebuilt history (a reflow) keeps the
    /// numbering of the one it replaces.
    pub(crate) fn number_from(&mut self, oldest: u64) {
        self.pushed = oldest + self.len as u64;
    }

    /// The most lines kept.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Changes the limit, dropping the oldest lines if needed.
    pub fn set_limit(&mut self, limit: usize) {
        self.limit = limit;
        self.trim();
    }

    /// Bytes of heap the stored lines use (for memory reports and tests).
    pub fn heap_bytes(&self) -> usize {
        self.blocks
            .iter()
            .map(|b| b.data.capacity() + b.offsets.capacity() * 4 + b.extras.capacity() * 8)
            .sum()
    }

    /// Drops every line.
    pub fn clear(&mut self) {
        self.blocks.clear();
        self.first = 0;
        self.len = 0;
    }

    /// Appends a line (the newest).
    pub fn push(&mut self, row: &Row) {
        if let Some(block) = self.block_for_next_line() {
            encode_line(row, &mut block.data, &mut block.extras);
            self.len += 1;
            self.pushed += 1;
            self.trim();
        }
    }

    /// Appends a line of narrow ASCII that never was in the grid (see [`AsciiRow`]), stored
    /// exactly as [`Scrollback::push`] stores the row it describes.
    pub(crate) fn push_ascii_row(&mut self, row: &AsciiRow, wrapped: bool, cols: usize) {
        if let Some(block) = self.block_for_next_line() {
            encode_ascii_row(row, wrapped, cols, &mut block.data);
            self.len += 1;
            self.pushed += 1;
            self.trim();
        }
    }

    /// The block the next line goes into, with the line's start recorded; `None` when
    /// nothing is kept.
    fn block_for_next_line(&mut self) -> Option<&mut Block> {
        if self.limit == 0 {
            return None;
        }
        let needs_block = self
            .blocks
            .back()
            .is_none_or(|b| b.offsets.len() >= LINES_PER_BLOCK);
        if needs_block {
            // Size the next block a little over the last one, and give back what the full one
            // did not use (shrinking in place is cheap; the slack would stay for the block's
            // whole life, a few bytes on every line of history).
            let mut capacity = LINES_PER_BLOCK * 48;
            if let Some(full) = self.blocks.back_mut() {
                full.data.shrink_to_fit();
                full.extras.shrink_to_fit();
                capacity = full.data.len() + full.data.len() / 16;
            }
            self.blocks.push_back(Block {
                data: Vec::with_capacity(capacity),
                offsets: Vec::with_capacity(LINES_PER_BLOCK),
                extras: Vec::new(),
            });
        }
        let block = self.blocks.back_mut()?;
        block.offsets.push(block.data.len() as u32);
        Some(block)
    }

    fn trim(&mut self) {
        while self.len > self.limit {
            self.first += 1;
            self.len -= 1;
            let drop_block = self
                .blocks
                .front()
                .is_some_and(|b| self.first >= b.offsets.len());
            if drop_block {
                self.blocks.pop_front();
                self.first = 0;
            }
        }
    }

    /// Line `i`, 0 the oldest, decoded to `cols` cells (cut or padded).
    pub fn get(&self, i: usize, cols: usize) -> Option<Row> {
        let (block, line) = self.locate(i)?;
        let block = &self.blocks[block];
        Some(decode_line(block.line(line), &block.extras, cols))
    }

    /// Line `i` as stored (for tests that compare encodings).
    #[cfg(test)]
    pub(crate) fn stored_bytes(&self, i: usize) -> Option<&[u8]> {
        let (block, line) = self.locate(i)?;
        Some(self.blocks[block].line(line))
    }

    /// The text of line `i` appended to `text`, without decoding cells: `starts`, when given,
    /// gets for each stored cell the byte offset in `text` where it begins (a wide character's
    /// spacer cell begins where the next cell does). Returns whether the line wraps. For
    /// searching the history quickly.
    pub fn line_text(
        &self,
        i: usize,
        text: &mut String,
        starts: Option<&mut Vec<u32>>,
    ) -> Option<bool> {
        let (block, line) = self.locate(i)?;
        decode::decode_text(self.blocks[block].line(line), text, starts)
    }

    /// The stored width of line `i` in cells (trailing blanks trimmed) and whether it wraps.
    pub fn line_info(&self, i: usize) -> Option<(usize, bool)> {
        let (block, line) = self.locate(i)?;
        let bytes = self.blocks[block].line(line);
        let (count, _) = read_varint(bytes, 1)?;
        Some((count as usize, bytes.first()? & FLAG_WRAPPED != 0))
    }

    /// Removes and returns the newest line.
    pub fn pop(&mut self, cols: usize) -> Option<Row> {
        let row = self.get(self.len.checked_sub(1)?, cols)?;
        let block = self.blocks.back_mut()?;
        let start = block.offsets.pop()? as usize;
        block.data.truncate(start);
        self.len -= 1;
        let empty = self.blocks.back().is_some_and(|b| b.offsets.is_empty());
        if empty {
            self.blocks.pop_back();
            if self.blocks.is_empty() {
                self.first = 0;
            }
        }
        Some(row)
    }

    fn locate(&self, i: usize) -> Option<(usize, usize)> {
        if i >= self.len {
            return None;
        }
        let absolute = i + self.first;
        Some((absolute / LINES_PER_BLOCK, absolute % LINES_PER_BLOCK))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::{Attrs, Cell, CellFlags, Color, Hyperlink, Pen, Rgb, UnderlineStyle};

    fn row_from(cells: Vec<Cell>, cols: usize, wrapped: bool) -> Row {
        let mut row = Row::new(cols);
        for (i, c) in cells.into_iter().enumerate() {
            row.cells_mut()[i] = c;
        }
        row.wrapped = wrapped;
        row
    }

    /// The quick text of a line is what its decoded cells say, cell for cell.
    #[test]
    fn line_text_matches_the_decoded_cells() {
        let mut screen = crate::Screen::with_scrollback(10, 2, 100);
        screen.feed("plain line\r\n\x1b[31mred\x1b[0m and \u{5b57}wide e\u{301}\r\n".as_bytes());
        screen.feed(b"0123456789wrapped\r\n\r\n\r\n");
        let history = screen.scrollback();
        assert!(history.len() >= 4);
        for i in 0..history.len() {
            let (mut text, mut starts) = (String::new(), Vec::new());
            let wrapped = history.line_text(i, &mut text, Some(&mut starts));
            let row = history.get(i, 10).unwrap();
            assert_eq!(wrapped, Some(row.is_wrapped()), "line {i}");
            let mut expected = String::new();
            for (col, cell) in row.cells().iter().enumerate().take(starts.len()) {
                assert_eq!(starts[col] as usize, expected.len(), "line {i} col {col}");
                if !cell.is_spacer() {
                    cell.push_text(&mut expected);
                }
            }
            assert_eq!(text, expected, "line {i}");
            let mut quick = String::new();
            assert_eq!(history.line_text(i, &mut quick, None), wrapped);
            assert_eq!(quick, expected, "line {i} without offsets");
        }
    }

    #[test]
    fn styled_line_round_trips() {
        let mut pen = Pen {
            fg: Color::Rgb(Rgb::new(1, 2, 3)),
            bg: Color::Indexed(200),
            ..Pen::default()
        };
        pen.attrs.set(Attrs::BOLD, true);
        pen.attrs.set_underline(UnderlineStyle::Curly);
        pen.update_extra(|e| {
            e.underline_color = Color::Indexed(3);
            e.hyperlink = Some(Arc::new(Hyperlink {
                id: "x".into(),
                uri: "https://a".into(),
            }));
        });
        let mut e = Cell::new('e', &Pen::default(), CellFlags::empty());
        e.push_combining('\u{301}', 32);
        let cells = vec![
            Cell::new('a', &pen, CellFlags::empty()),
            Cell::new('中', &pen, CellFlags::WIDE),
            Cell::spacer(&pen),
            e,
            Cell::new('z', &Pen::default(), CellFlags::empty()),
        ];
        let row = row_from(cells, 10, true);
        let mut sb = Scrollback::new(10);
        sb.push(&row);
        let back = sb.get(0, 10).unwrap();
        assert_eq!(back.cells(), row.cells());
        assert!(back.wrapped);
    }

    #[test]
    fn ascii_line_is_compact() {
        let cells = (0..80)
            .map(|i| {
                Cell::new(
                    (b'a' + (i % 26) as u8) as char,
                    &Pen::default(),
                    CellFlags::empty(),
                )
            })
            .collect();
        let row = row_from(cells, 80, false);
        let mut sb = Scrollback::new(100_000);
        for _ in 0..10_000 {
            sb.push(&row);
        }
        let per_line = sb.heap_bytes() / 10_000;
        assert!(per_line <= 100, "{per_line} bytes per line");
        assert_eq!(sb.get(9_999, 80).unwrap().text(), row.text());
    }

    #[test]
    fn truecolor_line_is_compact() {
        let cells = (0..80u8)
            .map(|i| {
                let pen = Pen {
                    fg: Color::Rgb(Rgb::new(i, 255 - i, i / 2)),
                    ..Pen::default()
                };
                Cell::new('#', &pen, CellFlags::empty())
            })
            .collect();
        let row = row_from(cells, 80, false);
        let mut sb = Scrollback::new(100_000);
        for _ in 0..1_000 {
            sb.push(&row);
        }
        let per_line = sb.heap_bytes() / 1_000;
        assert!(per_line <= 600, "{per_line} bytes per line");
        assert_eq!(sb.get(999, 80).unwrap().cells(), row.cells());
    }

    #[test]
    fn limit_drops_oldest_and_pop_returns_newest() {
        let mut sb = Scrollback::new(300);
        for i in 0..1000 {
            let row = row_from(
                format!("{i}")
                    .chars()
                    .map(|c| Cell::new(c, &Pen::default(), CellFlags::empty()))
                    .collect(),
                10,
                false,
            );
            sb.push(&row);
        }
        assert_eq!(sb.len(), 300);
        assert_eq!(sb.get(0, 10).unwrap().text(), "700");
        assert_eq!(sb.pop(10).unwrap().text(), "999");
        assert_eq!(sb.len(), 299);
        assert_eq!(sb.get(298, 10).unwrap().text(), "998");
    }
}
