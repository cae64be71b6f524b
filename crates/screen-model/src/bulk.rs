//! Lines that scroll straight through the screen, stored without touching the grid.
//!
//! `cat` of a log sends thousands of lines per chunk, and all but the last screenful scroll off
//! before anyone could see them. The grid path prints each into a row, encodes the row into the
//! scrollback when it leaves the top, and clears it: three passes over every cell. Here a stretch
//! of *plain lines* (printable ASCII, simple SGR, `CR LF`, `LF` at column 0) goes straight from
//! bytes to the scrollback instead, in the encoding `Scrollback::push` would give the rows.
//!
//! The result is the grid path's, row for row:
//! 1. the rows above the cursor go to the scrollback first, as the stretch's first line feeds
//!    would send them;
//! 2. every row of the stretch is built as text and style runs ([`AsciiRow`]), wrapping at the
//!    screen's width and taking the background the row was cleared with; all but the last
//!    screenful minus one are stored, and those are written into the grid rows they end on;
//! 3. the bottom row is cleared as the stretch's last line feed would have cleared it.
//!
//! The parser reads the stretch as usual (so SGR sets the pen exactly as elsewhere); only
//! printing and line feeds go to the row being built instead of the grid.

use crate::cell::{Cell, CellStyle};
use crate::parser::{printable_ascii_prefix, Parser};
use crate::screen::{erase_pen, Screen};

/// Rows a stretch must fill, in screen heights, to be worth setting up: the rows above the
/// cursor are stored from the grid first, and for a few lines the grid path is as cheap.
const MIN_SCREENS: usize = 2;
/// Parameter bytes allowed in one SGR sequence of a stretch: real ones are a few, and longer
/// ones (vte's parameter limit, saturating values) stay with the grid path.
const MAX_SGR_PARAM_BYTES: usize = 24;
/// Line feeds in a chunk where a stretch could not start (the cursor elsewhere, a bare line
/// feed, a coloured bottom row) before the rest of the chunk goes the grid path: each costs a
/// parser call of its own, and output like that rarely turns plain within the chunk.
const MAX_FAILED_STARTS: usize = 8;
/// Printed cells per SGR sequence below which a stretch is left to the grid path: text that
/// changes colour every few characters costs more to scan twice than its rows save (measured:
/// a log with a colour on every word parsed 20% slower through this path, plain logs twice as
/// fast).
const MIN_CELLS_PER_SGR: usize = 16;
/// SGR 58 sets the underline colour, which a cell keeps outside its plain style; stretches
/// with it stay with the grid path.
const SGR_UNDERLINE_COLOR: u16 = 58;

/// Where a stretch being applied has got to.
#[derive(Debug)]
pub(crate) struct BulkRows {
    /// Rows finished.
    done: usize,
    /// The first row that stays on screen (the grid row it goes to is its index less this).
    first_on_screen: usize,
}

/// How much of a chunk runs as plain lines (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PlainLines {
    /// Bytes up to and including the last complete line's line feed.
    pub(crate) len: usize,
    /// Screen rows those lines fill, wrapped rows counted.
    pub(crate) rows: usize,
    /// Where the scan stopped: the first byte that is not part of a plain line, or the end.
    pub(crate) stop: usize,
    /// The scan stopped after `sample_rows` rows because they change colour too often to be
    /// worth it (see [`MIN_CELLS_PER_SGR`]).
    pub(crate) dense: bool,
}

/// Reads `bytes` from column 0 of a `cols`-wide screen as far as they are plain lines, giving
/// up early (`dense`) when the first `sample_rows` rows hold too many SGR sequences.
pub(crate) fn scan_plain_lines(bytes: &[u8], cols: usize, sample_rows: usize) -> PlainLines {
    let cols = cols.max(1);
    let mut found = PlainLines {
        len: 0,
        rows: 0,
        stop: 0,
        dense: false,
    };
    let (mut cells, mut sgrs) = (0, 0);
    let mut sampled = false;
    // Cells printed in the current row; `cols` means a wrap is pending.
    let mut col = 0;
    let mut rows = 0;
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        let printable = printable_ascii_prefix(rest);
        if printable > 0 {
            cells += printable;
            col += printable;
            if col > cols {
                // Wrapped: a row for each full width before the last cell.
                let wraps = (col - 1) / cols;
                rows += wraps;
                col -= wraps * cols;
            }
            i += printable;
            continue;
        }
        match rest {
            [b'\r', b'\n', ..] => i += 2,
            [b'\n', ..] if col == 0 => i += 1,
            [0x1b, ..] => match sgr_len(rest) {
                Some(len) => {
                    sgrs += 1;
                    i += len;
                    continue;
                }
                None => break,
            },
            _ => break,
        }
        rows += 1;
        col = 0;
        found.len = i;
        found.rows = rows;
        if !sampled && rows >= sample_rows {
            sampled = true;
            if sgrs * MIN_CELLS_PER_SGR > cells {
                found.dense = true;
                break;
            }
        }
    }
    found.stop = i;
    found
}

/// Length of the SGR sequence `bytes` starts with (`ESC [`, digits and `;`, `m`), if it is one
/// a stretch may hold: one that does not set the underline colour.
fn sgr_len(bytes: &[u8]) -> Option<usize> {
    let params = bytes.strip_prefix(b"\x1b[")?;
    let end = params
        .iter()
        .take(MAX_SGR_PARAM_BYTES + 1)
        .position(|&b| !(b.is_ascii_digit() || b == b';'))?;
    let params_only = &params[..end];
    // Most SGR sequences hold no "58" at all: only those are read parameter by parameter.
    let may_set_underline = params_only.windows(2).any(|w| w == b"58");
    if params[end] != b'm' || (may_set_underline && sets_underline_color(params_only)) {
        return None;
    }
    Some(end + 3)
}

/// Whether SGR parameters (digits and `;`) hold an underline colour (58), read as the parser
/// reads them: the arguments of an extended colour (`38;5;n`, `48;2;r;g;b`) are skipped, so a
/// colour index or component of 58 is not taken for one.
fn sets_underline_color(params: &[u8]) -> bool {
    // Each parameter's value as vte sees it (empty is 0, large values saturate).
    let mut values = params.split(|&b| b == b';').map(|p| {
        p.iter().fold(0u16, |n, &d| {
            n.saturating_mul(10).saturating_add(u16::from(d - b'0'))
        })
    });
    while let Some(value) = values.next() {
        match value {
            SGR_UNDERLINE_COLOR => return true,
            38 | 48 => {
                let arguments = match values.next() {
                    Some(5) => 1,
                    Some(2) => 3,
                    _ => 0,
                };
                for _ in 0..arguments {
                    values.next();
                }
            }
            _ => {}
        }
    }
    false
}

impl Screen {
    /// Feeds a chunk, taking stretches of plain lines that scroll through the screen past the
    /// grid (see the module doc) and everything else through `parser` as usual.
    pub(crate) fn feed_in_bulk(&mut self, parser: &mut Parser, bytes: &[u8]) {
        let min_rows = MIN_SCREENS * self.rows;
        if bytes.len() < min_rows {
            // Too short to hold a stretch (an echo, a prompt): one pass, no line search.
            parser.advance(self, bytes);
            return;
        }
        let mut rest = bytes;
        let mut failed_starts = 0;
        // A stretch starts right after a line feed, with the cursor at the bottom.
        while let Some(lf) = memchr::memchr(b'\n', rest) {
            let (head, tail) = rest.split_at(lf + 1);
            parser.advance(self, head);
            rest = tail;
            if rest.len() < min_rows
                || failed_starts >= MAX_FAILED_STARTS
                || !self.bulk_settings_allow()
            {
                break;
            }
            if !self.bulk_can_start(parser) {
                failed_starts += 1;
                continue;
            }
            let lines = scan_plain_lines(rest, self.cols, min_rows);
            if lines.dense {
                // Output like this rarely changes within a chunk: the rest goes the grid path.
                break;
            }
            if lines.rows >= min_rows {
                self.scroll_through(parser, &rest[..lines.len], lines.rows);
                rest = &rest[lines.len..];
            } else {
                // Too few: these bytes are not looked at again.
                failed_starts += 1;
                parser.advance(self, &rest[..lines.stop]);
                rest = &rest[lines.stop..];
            }
        }
        parser.advance(self, rest);
    }

    /// Whether the modes and margins let plain lines scroll through: the primary buffer with
    /// its whole height scrolling, autowrap on, and printing plain.
    fn bulk_settings_allow(&self) -> bool {
        #[cfg(test)]
        if !self.bulk_lines {
            return false;
        }
        !self.alt_active
            && self.top == 0
            && self.bottom + 1 == self.rows
            && self.full_width_margins()
            && self.modes.autowrap
            && !self.modes.newline
            && self.plain_print
    }

    /// Whether a stretch can start here: nothing half-parsed, the cursor at column 0 of the
    /// bottom row with no wrap pending, that row blank in the default style (as a line feed
    /// leaves it), and a pen without extras.
    fn bulk_can_start(&self, parser: &Parser) -> bool {
        let bottom = self.rows - 1;
        let row = &self.grid[bottom];
        self.cursor.row == bottom
            && self.cursor.col == 0
            && !self.cursor.pending_wrap
            && row.written == 0
            && row.plain
            && !row.wrapped
            && self.cursor.pen.extra.is_none()
            && parser.at_rest()
    }

    /// Applies `stretch`, plain lines found by [`scan_plain_lines`] that fill `rows` screen
    /// rows (at least a screenful), as the grid path would (see the module doc). The parser
    /// reads it as usual; printing and line feeds come to [`Screen::bulk_print`] and
    /// [`Screen::bulk_line_feed`] meanwhile.
    fn scroll_through(&mut self, parser: &mut Parser, stretch: &[u8], rows: usize) {
        #[cfg(test)]
        {
            self.bulk_stretches += 1;
        }
        let bottom = self.rows - 1;
        // The rows above the cursor leave first; of the stretch's rows, all but the last
        // `bottom` follow them, and those end on screen above the fresh bottom row.
        for r in 0..bottom {
            self.scrollback.push(&self.grid[r]);
        }
        self.bulk = Some(BulkRows {
            done: 0,
            first_on_screen: rows.saturating_sub(bottom),
        });
        self.bulk_row.start(Cell::BLANK.style_only());
        parser.advance(self, stretch);
        let done = self.bulk.take().map(|b| b.done);
        debug_assert_eq!(done, Some(rows), "the scan and the stretch disagree");
        let pen = erase_pen(&self.cursor.pen);
        self.grid[bottom].clear(&pen);
        self.cursor.col = 0;
        self.cursor.pending_wrap = false;
        self.last_char = None;
        self.touch_all();
    }

    /// Printable ASCII inside a stretch: onto the row being built, wrapping at the width.
    pub(crate) fn bulk_print(&mut self, mut text: &[u8]) {
        let cols = self.cols;
        let style = self.pen_cell.style_only();
        while !text.is_empty() {
            if self.bulk_row.len() == cols {
                // A wrap: the next row scrolls in cleared with the pen's background.
                self.finish_bulk_row(true);
            }
            let fits = text.len().min(cols - self.bulk_row.len());
            self.bulk_row.push(style, &text[..fits]);
            text = &text[fits..];
        }
    }

    /// A line feed inside a stretch: the row is done.
    pub(crate) fn bulk_line_feed(&mut self) {
        self.finish_bulk_row(false);
    }

    /// Stores the row being built, into the scrollback or (the last screenful minus one) into
    /// the grid row it ends on, and starts the next.
    fn finish_bulk_row(&mut self, wrapped: bool) {
        let Some(bulk) = self.bulk.as_mut() else {
            return;
        };
        let index = bulk.done;
        bulk.done += 1;
        match index.checked_sub(bulk.first_on_screen) {
            None => self
                .scrollback
                .push_ascii_row(&self.bulk_row, wrapped, self.cols),
            Some(r) => {
                if let Some(target) = self.grid.get_mut(r) {
                    self.bulk_row.write_to(target, wrapped);
                }
            }
        }
        let fill = self.erase_style();
        self.bulk_row.start(fill);
    }

    /// The style a row scrolled in now is cleared with.
    fn erase_style(&self) -> CellStyle {
        Cell::erased(&erase_pen(&self.cursor.pen)).style_only()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn scan_counts_rows_with_wraps_and_stops_at_the_first_other_byte() {
        let lines = scan_plain_lines(
            b"ab\r\nabcde\r\n\n\x1b[1;31mx\x1b[0m\r\nzz\x1b[Hq\r\n",
            4,
            usize::MAX,
        );
        // "ab", "abcd"+"e", "", "x": five rows; "zz" is cut off by the cursor move.
        assert_eq!(
            lines,
            PlainLines {
                len: 26,
                rows: 5,
                stop: 28,
                dense: false,
            }
        );
    }

    #[test]
    fn scan_gives_up_on_lines_that_change_colour_every_few_cells() {
        let dense = b"\x1b[31mred\x1b[32mgreen\x1b[0m\r\n".repeat(10);
        let lines = scan_plain_lines(&dense, 80, 4);
        assert!(lines.dense);
        assert_eq!(lines.rows, 4);
        let sparse = b"\x1b[31mERROR\x1b[0m a message long enough to print\r\n".repeat(10);
        let lines = scan_plain_lines(&sparse, 80, 4);
        assert!(!lines.dense);
        assert_eq!(lines.rows, 10);
    }

    #[test]
    fn a_full_row_then_cr_lf_does_not_wrap() {
        assert_eq!(scan_plain_lines(b"abcd\r\nabcd\r\n", 4, usize::MAX).rows, 2);
        assert_eq!(scan_plain_lines(b"abcde\r\n", 4, usize::MAX).rows, 2);
    }

    #[test]
    fn scan_refuses_what_the_grid_path_must_do() {
        for bytes in [
            &b"ab\n"[..],
            b"a\rb\r\n",
            b"a\tb\r\n",
            b"\x1b[58;5;1mx\r\n",
            b"\x1b[4:3mx\r\n",
            b"\x1b[?1mx\r\n",
            b"\xc3\xa9\r\n",
            b"\x1b[1;31",
        ] {
            assert_eq!(scan_plain_lines(bytes, 10, usize::MAX).len, 0, "{bytes:?}");
        }
        // 58 as a colour index or component is not an underline colour.
        assert_eq!(
            scan_plain_lines(b"\x1b[38;5;58mx\r\n", 10, usize::MAX).len,
            13
        );
        assert_eq!(
            scan_plain_lines(b"\x1b[48;2;1;58;3;58;5;1mx\r\n", 10, usize::MAX).len,
            0
        );
        assert_eq!(
            scan_plain_lines(b"\x1b[48;2;1;58;3;1mx\r\n", 10, usize::MAX).len,
            19
        );
        assert_eq!(
            scan_plain_lines(b"\x1b[38;7;58mx\r\n", 10, usize::MAX).len,
            0
        );
    }

    /// Text and line ends of plain lines.
    const TEXT: &[&[u8]] = &[
        b"text ",
        b"a longer line of text that wraps",
        b"  ",
        b"\r\n",
        b"\r\n",
        b"\r\n",
        b"\n",
    ];

    /// SGR sequences, most of which a stretch may hold.
    const SGR: &[&[u8]] = &[
        b"\x1b[0m",
        b"\x1b[m",
        b"\x1b[1;31m",
        b"\x1b[41m",
        b"\x1b[7m",
        b"\x1b[49m",
        b"\x1b[38;2;1;2;3m",
        b"\x1b[48;5;200m",
        b"\x1b[38;5;58m",
        b"\x1b[48;2;58;58;58m",
        b"\x1b[;1m",
        b"\x1b[0;38;5m",
        b"\x1b[38;7;58m",
        b"\x1b[58;5;3m",
        b"\x1b[59m",
    ];

    /// Pieces that end a stretch or change what the next one may do.
    const OTHER: &[&[u8]] = &[
        b"\r",
        b"\x1b[4:3m",
        b"\x1b]8;;http://x\x1b\\",
        b"\x1b]8;;\x1b\\",
        b"\x1b[2J",
        b"\x1b[H",
        b"\x1b[2;3r",
        b"\x1b[r",
        b"\x1b[?1049h",
        b"\x1b[?1049l",
        b"\x1b[?7l",
        b"\x1b[?7h",
        b"\x1b[4h",
        b"\x1b[4l",
        b"\x1b[20h",
        b"\x1b[20l",
        b"\x1b[?69h\x1b[2;5s",
        b"\x1b[?69l",
        b"\t",
        b"\x1b",
        "\u{4e2d}".as_bytes(),
        b"\xc3",
        b"\x1b[3b",
        b"\x1b#8",
    ];

    /// Streams of mostly plain lines, cut into chunks, on small screens with small histories.
    fn cases() -> impl Strategy<Value = (Vec<u8>, Vec<usize>, usize, usize, usize)> {
        let piece = prop_oneof![
            40 => prop::sample::select(TEXT),
            4 => prop::sample::select(SGR),
            1 => prop::sample::select(OTHER),
        ];
        (
            prop::collection::vec(piece, 0..300),
            prop::collection::vec(0usize..4000, 0..5),
            3usize..12,
            2usize..5,
            0usize..40,
        )
            .prop_map(|(pieces, splits, cols, rows, limit)| {
                (pieces.concat(), splits, cols, rows, limit)
            })
    }

    /// Feeds `stream`, cut at `splits`, to a screen taking the bulk path and one that never
    /// does; returns both.
    fn feed_both(
        stream: &[u8],
        splits: &[usize],
        cols: usize,
        rows: usize,
        limit: usize,
    ) -> (Screen, Screen) {
        let mut cuts: Vec<usize> = splits.iter().map(|c| c % (stream.len() + 1)).collect();
        cuts.sort_unstable();
        cuts.push(stream.len());
        let mut bulk = Screen::with_scrollback(cols, rows, limit);
        let mut grid = Screen::with_scrollback(cols, rows, limit);
        grid.bulk_lines = false;
        let mut start = 0;
        for cut in cuts {
            bulk.feed(&stream[start..cut]);
            grid.feed(&stream[start..cut]);
            start = cut;
        }
        (bulk, grid)
    }

    type State = (Vec<Vec<u8>>, Vec<crate::Row>, crate::CursorState);

    /// Everything the two paths must agree on: history (as stored), screen, cursor, and the
    /// pen (its effect on what is printed next).
    fn state(s: &mut Screen) -> State {
        s.feed(b"*");
        let history = (0..s.scrollback().len())
            .filter_map(|i| s.scrollback().stored_bytes(i))
            .collect();
        let mut grid: Vec<crate::Row> = s.visible_rows().cloned().collect();
        for row in &mut grid {
            assert_flags_hold(row);
            row.mark_unknown();
            row.seq = 0;
        }
        (history, grid, s.cursor_state())
    }

    /// What a row's content flags promise about its cells is true.
    fn assert_flags_hold(row: &crate::Row) {
        let cells = row.cells();
        let written = row.written.min(cells.len());
        assert!(cells[written..].iter().all(Cell::is_blank), "{row:?}");
        let blank = Cell::BLANK.style_only();
        for cell in cells {
            let narrow_ascii = cell.flags() == crate::cell::CellFlags::empty()
                && cell.extra().is_none()
                && cell.ch().is_ascii();
            assert!(!row.ascii || narrow_ascii, "{row:?}");
            assert!(
                !row.plain || (narrow_ascii && cell.style_only() == blank),
                "{row:?}"
            );
            assert!(!row.unstyled || cell.style_only() == blank, "{row:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn bulk_lines_leave_what_the_grid_path_leaves(
            (stream, splits, cols, rows, limit) in cases()
        ) {
            let (mut bulk, mut grid) = feed_both(&stream, &splits, cols, rows, limit);
            prop_assert_eq!(state(&mut bulk), state(&mut grid));
        }
    }

    #[test]
    fn the_generated_cases_take_the_bulk_path() {
        use proptest::strategy::ValueTree;
        use proptest::test_runner::TestRunner;
        let mut runner = TestRunner::deterministic();
        let strategy = cases();
        let mut with_stretches = 0;
        for _ in 0..200 {
            let Ok(tree) = strategy.new_tree(&mut runner) else {
                continue;
            };
            let (stream, splits, cols, rows, limit) = tree.current();
            let (bulk, _) = feed_both(&stream, &splits, cols, rows, limit);
            with_stretches += usize::from(bulk.bulk_stretches > 0);
        }
        assert!(with_stretches >= 50, "{with_stretches} of 200");
    }

    #[test]
    fn short_lines_over_long_ones_leave_no_tails() {
        // The rows a stretch ends on held longer lines: what the short ones do not cover must
        // read blank, as on the grid path (only the cells once written are cleared again).
        let mut stream = b"x".repeat(20 * 5);
        for i in 0..40 {
            stream.extend_from_slice(format!("{i}\r\n").as_bytes());
        }
        let mut bulk = Screen::with_scrollback(20, 5, 100);
        let mut grid = Screen::with_scrollback(20, 5, 100);
        grid.bulk_lines = false;
        bulk.feed(&stream);
        grid.feed(&stream);
        assert!(bulk.bulk_stretches > 0);
        let text: Vec<String> = bulk.visible_rows().map(crate::Row::text).collect();
        assert_eq!(text, ["36", "37", "38", "39", ""]);
        assert_eq!(state(&mut bulk), state(&mut grid));
    }

    #[test]
    fn a_long_stretch_takes_the_bulk_path_and_matches() {
        let mut stream = Vec::new();
        for i in 0..500 {
            stream.extend_from_slice(
                format!(
                    "line {i} \x1b[1;3{}mcolour\x1b[0m {}\r\n",
                    i % 8,
                    "x".repeat(40 + i % 30)
                )
                .as_bytes(),
            );
        }
        let mut bulk = Screen::with_scrollback(20, 5, 300);
        let mut grid = Screen::with_scrollback(20, 5, 300);
        grid.bulk_lines = false;
        bulk.feed(&stream);
        grid.feed(&stream);
        assert_eq!(bulk.bulk_stretches, 1);
        assert_eq!(bulk.scrollback().len(), 300);
        assert_eq!(state(&mut bulk), state(&mut grid));
    }
}
