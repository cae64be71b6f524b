//! Lines that scrolled off the top, stored compactly in a ring of blocks.
//!
//! A line is encoded as bytes: its text as UTF-8 with style changes between runs of cells, so an
//! 80-column ASCII line costs about 85 bytes and a line of per-cell truecolour about 7 bytes a
//! cell. Lines are packed into blocks of [`LINES_PER_BLOCK`]; the oldest block is dropped whole
//! once the limit is passed, which makes trimming O(1) and keeps allocator overhead per block,
//! not per line.
//!
//! History far from the bottom ([`COLD_DISTANCE`] blocks or more) is packed: each block is
//! compressed as it goes cold, and read back a block at a time through a one-block cache, so a
//! long history costs a fraction of its encoded size while the lines a user scrolls through
//! most (the newest) stay as they are. While output streams (see
//! [`Scrollback::defer_packing`]), blocks going cold wait unpacked, up to
//! [`MAX_DEFERRED_BYTES`], and are packed when it stops: a flood through a history of the
//! default size drops almost every block before it would be read, and packing each one on the
//! way cost a sixth of the server's time in a long `cat`.
//!
//! The ring is here; `block` holds lines hot or packed, `encode` and `decode` turn rows into
//! those bytes and back, with the building blocks they share in `format`.

mod block;
mod decode;
mod encode;
mod extras_index;
mod format;

use crate::ascii_row::AsciiRow;
use crate::cell::{Cell, CellExtra};
use crate::row::Row;
use block::{Block, Lines};
use decode::decode_line;
use encode::{encode_ascii_row, encode_line};
use format::{read_varint, FLAG_WRAPPED};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::sync::Arc;

/// Lines per block: large enough that per-block overhead is noise, small enough that a dropped
/// block frees memory promptly.
const LINES_PER_BLOCK: usize = 256;

/// Blocks this far from the newest (`COLD_DISTANCE * LINES_PER_BLOCK` lines, more than a
/// default history holds) are packed: the history a user scrolls through most stays as it is.
pub const COLD_DISTANCE: usize = 8;

/// Most bytes of cold blocks left unpacked while output streams: a default history (10,000
/// lines of up to about 120 columns of plain text) fits, so a flood through it packs nothing;
/// a longer history packs what goes cold beyond this at once, as when nothing streams.
pub const MAX_DEFERRED_BYTES: usize = 1 << 20;

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
    /// Blocks ever dropped from the front: block `i` of `blocks` is block number
    /// `dropped_blocks + i`, the key of `unpacked`.
    dropped_blocks: u64,
    /// The packed block read last, decompressed, by its number: reading a history in order
    /// decompresses each block once.
    unpacked: RefCell<Option<(u64, Lines)>>,
    /// Whether blocks going cold wait unpacked (see [`Scrollback::defer_packing`]).
    deferring: bool,
    /// Bytes of the blocks that wait (the sum of their `deferred`).
    deferred_bytes: usize,
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
            dropped_blocks: 0,
            unpacked: RefCell::new(None),
            deferring: false,
            deferred_bytes: 0,
        }
    }

    /// While `on` (output streams), blocks going cold wait unpacked, up to
    /// [`MAX_DEFERRED_BYTES`]; turning it off packs nothing by itself: the caller packs what
    /// waits with [`Scrollback::pack_deferred`] once the stream has stopped.
    pub fn defer_packing(&mut self, on: bool) {
        self.deferring = on;
    }

    /// Whether blocks going cold wait unpacked.
    pub fn is_deferring(&self) -> bool {
        self.deferring
    }

    /// Packs every cold block that waits.
    pub fn pack_deferred(&mut self) {
        if self.deferred_bytes == 0 {
            return;
        }
        for block in self.blocks.iter_mut().filter(|b| b.deferred > 0) {
            block.pack();
        }
        self.deferred_bytes = 0;
        // Keyed by block number, not contents (see `block_for_next_line`).
        self.unpacked.get_mut().take();
    }

    /// Stops counting `block` as waiting to be packed (it leaves the ring or turns hot).
    fn undefer(deferred_bytes: &mut usize, block: &mut Block) {
        *deferred_bytes -= block.deferred;
        block.deferred = 0;
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
        self.blocks.iter().map(Block::heap_bytes).sum::<usize>()
            + self
                .unpacked
                .borrow()
                .as_ref()
                .map_or(0, |(_, l)| l.data.capacity() + l.offsets.capacity() * 4)
    }

    /// Blocks packed (for tests and memory reports).
    pub fn packed_blocks(&self) -> usize {
        self.blocks.iter().filter(|b| b.is_packed()).count()
    }

    /// Drops every line.
    pub fn clear(&mut self) {
        self.deferred_bytes = 0;
        self.dropped_blocks += self.blocks.len() as u64;
        self.unpacked.get_mut().take();
        self.blocks.clear();
        self.first = 0;
        self.len = 0;
    }

    /// Appends a line (the newest).
    pub fn push(&mut self, row: &Row) {
        if let Some(block) = self.block_for_next_line() {
            let mut extras = encode::Extras {
                list: &mut block.extras,
                index: &mut block.extras_index,
            };
            encode_line(row, &mut block.hot.data, &mut extras);
            self.len += 1;
            self.pushed += 1;
            self.trim();
        }
    }

    /// Appends a line of narrow ASCII that never was in the grid (see [`AsciiRow`]), stored
    /// exactly as [`Scrollback::push`] stores the row it describes.
    pub(crate) fn push_ascii_row(&mut self, row: &AsciiRow, wrapped: bool, cols: usize) {
        if let Some(block) = self.block_for_next_line() {
            encode_ascii_row(row, wrapped, cols, &mut block.hot.data);
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
        if self.blocks.back().is_some_and(Block::is_packed) {
            // After pops, the newest block may be a packed one: lines go on being added to it.
            self.unpack_newest();
        }
        let needs_block = self
            .blocks
            .back()
            .is_none_or(|b| b.count() >= LINES_PER_BLOCK);
        if needs_block {
            // Size the next block a little over the last one, and give back what the full one
            // did not use (shrinking in place is cheap; the slack would stay for the block's
            // whole life, a few bytes on every line of history).
            let mut capacity = LINES_PER_BLOCK * 48;
            if let Some(full) = self.blocks.back_mut() {
                full.hot.data.shrink_to_fit();
                full.extras.shrink_to_fit();
                full.extras_index.clear();
                capacity = full.hot.data.len() + full.hot.data.len() / 16;
            }
            self.blocks
                .push_back(Block::with_capacity(capacity, LINES_PER_BLOCK));
            // The block that just went cold.
            if let Some(cold) = self
                .blocks
                .len()
                .checked_sub(COLD_DISTANCE + 1)
                .and_then(|i| self.blocks.get_mut(i))
                .filter(|b| !b.is_packed())
            {
                let bytes = cold.hot.data.len();
                if self.deferring && self.deferred_bytes + bytes <= MAX_DEFERRED_BYTES {
                    cold.deferred = bytes;
                    self.deferred_bytes += bytes;
                } else {
                    cold.pack();
                    // The cache is keyed by block number, not contents: never let it outlive
                    // a change of a block's packing.
                    self.unpacked.get_mut().take();
                }
            }
        }
        let block = self.blocks.back_mut()?;
        block.hot.offsets.push(block.hot.data.len() as u32);
        Some(block)
    }

    fn trim(&mut self) {
        while self.len > self.limit {
            self.first += 1;
            self.len -= 1;
            let drop_block = self.blocks.front().is_some_and(|b| self.first >= b.count());
            if drop_block {
                if let Some(mut gone) = self.blocks.pop_front() {
                    Self::undefer(&mut self.deferred_bytes, &mut gone);
                }
                self.dropped_blocks += 1;
                self.first = 0;
            }
        }
    }

    /// Line `i`, 0 the oldest, decoded to `cols` cells (cut or padded).
    pub fn get(&self, i: usize, cols: usize) -> Option<Row> {
        self.with_line(i, |bytes, extras| decode_line(bytes, extras, cols))
    }

    /// Calls `f` with line `i`'s stored bytes and its block's extras, decompressing a packed
    /// block into the cache unless it is there already.
    fn with_line<R>(&self, i: usize, f: impl FnOnce(&[u8], &[Arc<CellExtra>]) -> R) -> Option<R> {
        let (b, line) = self.locate(i)?;
        let block = &self.blocks[b];
        if !block.is_packed() {
            return Some(f(block.hot.line(line), &block.extras));
        }
        let number = self.dropped_blocks + b as u64;
        let mut cache = self.unpacked.borrow_mut();
        if cache.as_ref().is_none_or(|(n, _)| *n != number) {
            *cache = Some((number, block.unpacked()?));
        }
        let (_, lines) = cache.as_ref()?;
        Some(f(lines.line(line), &block.extras))
    }

    /// Appends line `i`'s stored cells (trailing blanks trimmed) to `cells`; returns whether
    /// the line wraps. For re-wrapping the history without a row per line.
    pub(crate) fn append_cells(&self, i: usize, cells: &mut Vec<Cell>) -> Option<bool> {
        self.with_line(i, |bytes, extras| {
            decode::decode_cells(bytes, extras, cells)
        })?
    }

    /// Appends line `i`'s text to `text` if it is default-styled narrow ASCII (trailing
    /// blanks trimmed), returning whether it wraps; `None`, with `text` untouched, for any
    /// other line. For re-wrapping the history without decoding cells.
    pub(crate) fn append_plain(&self, i: usize, text: &mut Vec<u8>) -> Option<bool> {
        self.with_line(i, |bytes, _| {
            let (plain, wrapped) = decode::plain_text(bytes)?;
            text.extend_from_slice(plain);
            Some(wrapped)
        })?
    }

    /// Appends a row showing `text` (printable ASCII in the default style, at most a row's
    /// width), stored exactly as [`Scrollback::push`] stores that row.
    pub(crate) fn push_plain(&mut self, text: &[u8], wrapped: bool) {
        if let Some(block) = self.block_for_next_line() {
            encode::encode_plain_text(text, wrapped, &mut block.hot.data);
            self.len += 1;
            self.pushed += 1;
            self.trim();
        }
    }

    /// Line `i` as stored (for tests that compare encodings).
    #[cfg(test)]
    pub(crate) fn stored_bytes(&self, i: usize) -> Option<Vec<u8>> {
        self.with_line(i, |bytes, _| bytes.to_vec())
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
        self.with_line(i, |bytes, _| decode::decode_text(bytes, text, starts))?
    }

    /// The stored width of line `i` in cells (trailing blanks trimmed) and whether it wraps.
    pub fn line_info(&self, i: usize) -> Option<(usize, bool)> {
        self.with_line(i, |bytes, _| {
            let (count, _) = read_varint(bytes, 1)?;
            Some((count as usize, bytes.first()? & FLAG_WRAPPED != 0))
        })?
    }

    /// Removes and returns the newest line; the lines left keep their absolute numbers (the
    /// line pushed next takes the popped one's).
    pub fn pop(&mut self, cols: usize) -> Option<Row> {
        let row = self.get(self.len.checked_sub(1)?, cols)?;
        self.unpack_newest();
        let block = self.blocks.back_mut()?;
        // Lines are taken from it: it is the newest again, not a cold block waiting.
        Self::undefer(&mut self.deferred_bytes, block);
        let start = block.hot.offsets.pop()? as usize;
        block.hot.data.truncate(start);
        self.len -= 1;
        self.pushed -= 1;
        let empty = self.blocks.back().is_some_and(|b| b.count() == 0);
        if empty {
            self.blocks.pop_back();
            if self.blocks.is_empty() {
                self.first = 0;
            }
        }
        Some(row)
    }

    /// Makes the newest block hot, to add or take lines at its end.
    fn unpack_newest(&mut self) {
        if let Some(back) = self.blocks.back_mut().filter(|b| b.is_packed()) {
            back.unpack();
            self.unpacked.get_mut().take();
        }
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
mod deferral_tests;

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

    /// A log line like a server's, about 100 bytes, wrapped at 80 columns.
    fn log_rows(n: usize) -> Vec<Row> {
        let mut screen = crate::Screen::with_scrollback(80, 24, n * 2);
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            seed >> 33
        };
        let levels = [
            "INFO ",
            "DEBUG",
            "\x1b[33mWARN \x1b[0m",
            "\x1b[1;31mERROR\x1b[0m",
        ];
        let modules = ["http", "db.pool", "auth", "cache", "worker.queue"];
        for i in 0..n {
            let t = i as u64 * 37;
            let line = format!(
                "2024-05-01T{:02}:{:02}:{:02}.{:03}Z {} [{}] request handled id={:08x} dur={}ms path=/api/v2/users\r\n",
                (t / 3_600_000) % 24,
                (t / 60_000) % 60,
                (t / 1000) % 60,
                t % 1000,
                levels[(next() % 4) as usize],
                modules[(next() % 5) as usize],
                next() as u32,
                1 + next() % 4000
            );
            screen.feed(line.as_bytes());
        }
        let history = screen.scrollback();
        (0..history.len())
            .filter_map(|i| history.get(i, 80))
            .collect()
    }

    /// Cold blocks are packed, read back exactly (cells, text, wrap), and cost a fraction.
    #[test]
    fn cold_history_is_packed_and_reads_back_the_same() {
        let rows = log_rows(10_000);
        let mut hot = Scrollback::new(100_000);
        let mut sb = Scrollback::new(100_000);
        for row in &rows {
            sb.push(row);
        }
        for row in rows.iter().take(LINES_PER_BLOCK * COLD_DISTANCE) {
            hot.push(row);
        }
        let blocks = rows.len().div_ceil(LINES_PER_BLOCK);
        assert_eq!(sb.packed_blocks(), blocks - COLD_DISTANCE);
        assert_eq!(
            hot.packed_blocks(),
            0,
            "a default-sized history is never packed"
        );
        for (i, row) in rows.iter().enumerate() {
            let back = sb.get(i, 80).unwrap();
            assert_eq!(back.cells(), row.cells(), "line {i}");
            assert_eq!(back.is_wrapped(), row.is_wrapped(), "line {i}");
            let mut text = String::new();
            sb.line_text(i, &mut text, None).unwrap();
            assert_eq!(text.trim_end(), row.text(), "line {i}");
        }
        let per_row = sb.heap_bytes() / rows.len();
        let hot_per_row = hot.heap_bytes() / hot.len();
        eprintln!("{per_row} bytes a row packed, {hot_per_row} hot");
        assert!(
            per_row * 2 < hot_per_row,
            "{per_row} packed vs {hot_per_row} hot"
        );
    }

    /// Lines popped back into a packed block, and pushed again, read as the new ones.
    #[test]
    fn pops_into_packed_blocks_and_pushes_after_them_stay_right() {
        let rows = log_rows(3_000);
        let mut sb = Scrollback::new(100_000);
        for row in &rows {
            sb.push(row);
        }
        let total = sb.len();
        // Pop back into the packed blocks, reading a packed line first so the cache holds it.
        let _ = sb.get(0, 80);
        let keep = LINES_PER_BLOCK + 10;
        while sb.len() > keep {
            sb.pop(80).unwrap();
        }
        assert_eq!(
            sb.get(keep - 1, 80).unwrap().cells(),
            rows[keep - 1].cells()
        );
        for row in rows.iter().rev().take(total - keep) {
            sb.push(row);
        }
        assert_eq!(sb.len(), total);
        for (i, row) in rows.iter().rev().take(total - keep).enumerate() {
            assert_eq!(
                sb.get(keep + i, 80).unwrap().cells(),
                row.cells(),
                "line {}",
                keep + i
            );
        }
        assert_eq!(sb.get(0, 80).unwrap().cells(), rows[0].cells());
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
