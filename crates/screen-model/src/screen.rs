//! The screen: grid, cursor, modes, margins, tab stops, charsets, both buffers, scrollback.
//!
//! [`Screen::feed`] parses bytes and applies them. Everything else is read-only inspection the
//! renderer, `weft replay` and tests use. Replies to the program and events for the host
//! (title, bell, clipboard) are queued, bounded, and taken with [`Screen::take_replies`] and
//! [`Screen::take_events`].

use std::collections::VecDeque;

use crate::ascii_row::AsciiRow;
use crate::cell::{Attrs, Cell, CellFlags, Pen};
use crate::charset::CharsetState;
use crate::handler::PromptMark;
use crate::modes::Modes;
use crate::palette::Palette;
use crate::parser::Parser;
use crate::row::Row;
use crate::scrollback::Scrollback;

/// Default scrollback limit in lines.
pub const DEFAULT_SCROLLBACK_LINES: usize = 10_000;
/// Most bytes of characters joined to one cell (combining marks, ZWJ sequences).
pub const MAX_GRAPHEME_BYTES: usize = 32;
/// Longest title kept, in bytes.
pub const MAX_TITLE_BYTES: usize = 1024;
/// Reply bytes queued for the pty before more are dropped: a program that floods queries
/// without reading answers cannot grow memory.
pub const MAX_PENDING_REPLY_BYTES: usize = 64 * 1024;
/// Events queued for the host before more are dropped (counted in [`Screen::dropped_events`]).
pub const MAX_PENDING_EVENTS: usize = 256;
/// Smallest size a screen takes; smaller requests (including 0x0) are raised to it.
pub const MIN_COLS: usize = 1;
/// See [`MIN_COLS`].
pub const MIN_ROWS: usize = 1;
/// Largest size a screen takes; larger requests are lowered to it.
pub const MAX_COLS: usize = 4096;
/// See [`MAX_COLS`].
pub const MAX_ROWS: usize = 4096;

/// Something the program did that the host (server, client) may act on.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Event {
    /// BEL.
    Bell,
    /// The window title changed (already capped and cleaned).
    TitleChanged(String),
    /// OSC 7: the working directory URL.
    CwdChanged(String),
    /// OSC 52 write: base64 data for weft's paste buffer.
    ClipboardWrite {
        /// Selection letters (`c`, `p`, ...).
        selection: String,
        /// Base64 payload as sent.
        base64: Vec<u8>,
    },
    /// OSC 52 query: the host decides whether to answer (off by default).
    ClipboardRead {
        /// Selection letters.
        selection: String,
    },
    /// OSC 133 shell-integration mark at a row.
    Prompt {
        /// Which mark.
        mark: PromptMark,
        /// The cursor row when it came.
        row: usize,
    },
}

/// Cursor position and the pen it prints with.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub(crate) struct Cursor {
    pub(crate) row: usize,
    pub(crate) col: usize,
    /// Printed in the last column: the next printable character wraps first (xterm's model).
    pub(crate) pending_wrap: bool,
    pub(crate) pen: Pen,
}

/// What DECSC saves and DECRC restores.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct SavedCursor {
    pub(crate) cursor: Cursor,
    pub(crate) origin: bool,
    pub(crate) autowrap: bool,
    pub(crate) charsets: CharsetState,
}

/// The visible state of the cursor.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct CursorState {
    /// 0-based row.
    pub row: usize,
    /// 0-based column.
    pub col: usize,
    /// DECTCEM.
    pub visible: bool,
    /// DECSCUSR style (0 = default).
    pub style: u16,
    /// The last column was printed and the next character wraps first.
    pub pending_wrap: bool,
}

/// Counts of things dropped to keep memory bounded (should stay zero in normal use).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct DropCounts {
    /// Reply bytes not queued because the queue was full.
    pub reply_bytes: u64,
    /// Events not queued because the queue was full.
    pub events: u64,
}

/// A terminal screen fed from bytes.
pub struct Screen {
    pub(crate) cols: usize,
    pub(crate) rows: usize,
    /// The active buffer's rows, top first. A ring, so that scrolling the whole screen (every
    /// line of a stream) moves no rows.
    pub(crate) grid: VecDeque<Row>,
    /// The inactive buffer's rows; empty until the alternate buffer is first used.
    pub(crate) other: VecDeque<Row>,
    pub(crate) alt_active: bool,
    pub(crate) scrollback: Scrollback,
    pub(crate) cursor: Cursor,
    /// Saved cursors of the primary (0) and alternate (1) buffers.
    pub(crate) saved: [Option<SavedCursor>; 2],
    pub(crate) modes: Modes,
    pub(crate) tabs: Vec<bool>,
    pub(crate) top: usize,
    pub(crate) bottom: usize,
    pub(crate) left: usize,
    pub(crate) right: usize,
    pub(crate) charsets: CharsetState,
    pub(crate) cursor_style: u16,
    pub(crate) title: String,
    pub(crate) icon_title: String,
    pub(crate) cwd: Option<String>,
    pub(crate) palette: Palette,
    pub(crate) replies: Vec<u8>,
    pub(crate) events: Vec<Event>,
    pub(crate) dropped: DropCounts,
    pub(crate) last_char: Option<char>,
    pub(crate) join_next: bool,
    /// No insert mode, no charset mapping, no pending ZWJ: printable ASCII takes the fast path.
    pub(crate) plain_print: bool,
    /// The pen is the default one: plain printing keeps rows plain.
    pub(crate) pen_default: bool,
    /// A blank cell in the pen's style, copied for each printed character.
    pub(crate) pen_cell: Cell,
    pub(crate) seq: u64,
    /// Sequence number of the last change to every visible row at once (a scroll of the whole
    /// screen, a buffer switch): one stamp instead of one per row on every line of a stream.
    pub(crate) all_rows_seq: u64,
    /// Off in tests that compare the bulk path (see `bulk`) against the grid path.
    #[cfg(test)]
    pub(crate) bulk_lines: bool,
    /// Set while such a stretch is parsed: printing and line feeds build rows off the grid.
    pub(crate) bulk: Option<crate::bulk::BulkRows>,
    /// The row such lines are built in, kept for its buffers.
    pub(crate) bulk_row: AsciiRow,
    /// Stretches that took the bulk path (for tests that must see it taken).
    #[cfg(test)]
    pub(crate) bulk_stretches: usize,
    parser: Parser,
}

impl std::fmt::Debug for Screen {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Screen")
            .field("cols", &self.cols)
            .field("rows", &self.rows)
            .field("cursor", &self.cursor_state())
            .finish_non_exhaustive()
    }
}

impl Screen {
    /// A blank screen of `cols` x `rows` with the default scrollback limit.
    pub fn new(cols: usize, rows: usize) -> Self {
        Self::with_scrollback(cols, rows, DEFAULT_SCROLLBACK_LINES)
    }

    /// A blank screen keeping at most `scrollback_lines` lines of history.
    pub fn with_scrollback(cols: usize, rows: usize, scrollback_lines: usize) -> Self {
        let cols = cols.clamp(MIN_COLS, MAX_COLS);
        let rows = rows.clamp(MIN_ROWS, MAX_ROWS);
        Screen {
            cols,
            rows,
            grid: VecDeque::from(vec![Row::new(cols); rows]),
            // The alternate buffer is made on first use: most panes (shells) never need it.
            other: VecDeque::new(),
            alt_active: false,
            scrollback: Scrollback::new(scrollback_lines),
            cursor: Cursor::default(),
            saved: [None, None],
            modes: Modes::default(),
            tabs: default_tabs(cols),
            top: 0,
            bottom: rows - 1,
            left: 0,
            right: cols - 1,
            charsets: CharsetState::default(),
            cursor_style: 0,
            title: String::new(),
            icon_title: String::new(),
            cwd: None,
            palette: Palette::default(),
            replies: Vec::new(),
            events: Vec::new(),
            dropped: DropCounts::default(),
            last_char: None,
            join_next: false,
            plain_print: true,
            pen_default: true,
            pen_cell: Cell::BLANK,
            seq: 1,
            all_rows_seq: 0,
            #[cfg(test)]
            bulk_lines: true,
            bulk: None,
            bulk_row: AsciiRow::default(),
            #[cfg(test)]
            bulk_stretches: 0,
            parser: Parser::new(),
        }
    }

    /// Parses `bytes` and applies them. Never fails: what is not understood is ignored.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.seq += 1;
        let mut parser = std::mem::take(&mut self.parser);
        self.feed_in_bulk(&mut parser, bytes);
        self.parser = parser;
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The visible rows, top to bottom.
    pub fn visible_rows(&self) -> std::collections::vec_deque::Iter<'_, Row> {
        self.grid.iter()
    }

    /// Visible row `i`.
    pub fn row(&self, i: usize) -> Option<&Row> {
        self.grid.get(i)
    }

    /// The cell at a visible row and column.
    pub fn cell(&self, row: usize, col: usize) -> Option<&Cell> {
        self.grid.get(row)?.cells.get(col)
    }

    /// Cursor position, visibility and style.
    pub fn cursor_state(&self) -> CursorState {
        CursorState {
            row: self.cursor.row,
            col: self.cursor.col,
            visible: self.modes.cursor_visible,
            style: self.cursor_style,
            pending_wrap: self.cursor.pending_wrap,
        }
    }

    /// The pen characters are printed with now.
    pub fn pen(&self) -> &Pen {
        &self.cursor.pen
    }

    /// The modes.
    pub fn modes(&self) -> &Modes {
        &self.modes
    }

    /// Whether the alternate buffer is shown.
    pub fn is_alternate_screen(&self) -> bool {
        self.alt_active
    }

    /// The window title (OSC 0/2).
    pub fn title(&self) -> &str {
        &self.title
    }

    /// The icon title (OSC 0/1).
    pub fn icon_title(&self) -> &str {
        &self.icon_title
    }

    /// The working directory URL from OSC 7.
    pub fn cwd(&self) -> Option<&str> {
        self.cwd.as_deref()
    }

    /// The palette queries are answered from.
    pub fn palette(&self) -> &Palette {
        &self.palette
    }

    /// The history.
    pub fn scrollback(&self) -> &Scrollback {
        &self.scrollback
    }

    /// History line `i` (0 the oldest) at the current width.
    pub fn scrollback_row(&self, i: usize) -> Option<Row> {
        self.scrollback.get(i, self.cols)
    }

    /// Changes how many lines of history are kept.
    pub fn set_scrollback_limit(&mut self, lines: usize) {
        self.scrollback.set_limit(lines);
    }

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

    /// Takes the bytes queued for the program (replies to queries).
    pub fn take_replies(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.replies)
    }

    /// Whether replies are waiting.
    pub fn has_replies(&self) -> bool {
        !self.replies.is_empty()
    }

    /// Takes the events queued for the host.
    pub fn take_events(&mut self) -> Vec<Event> {
        std::mem::take(&mut self.events)
    }

    /// What was dropped to keep queues bounded.
    pub fn dropped(&self) -> DropCounts {
        self.dropped
    }

    /// The visible screen as text: one line per row, trailing blanks trimmed.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for (i, row) in self.grid.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            out.push_str(&row.text());
        }
        out
    }

    /// History then the visible screen as text.
    pub fn text_with_scrollback(&self) -> String {
        let mut out = String::new();
        for i in 0..self.scrollback.len() {
            if let Some(row) = self.scrollback_row(i) {
                out.push_str(&row.text());
                out.push('\n');
            }
        }
        out.push_str(&self.text());
        out
    }

    // ---- helpers used by the handler implementation ----

    /// Queues reply bytes for the program, within [`MAX_PENDING_REPLY_BYTES`].
    pub(crate) fn reply(&mut self, bytes: &[u8]) {
        if self.replies.len() + bytes.len() > MAX_PENDING_REPLY_BYTES {
            self.dropped.reply_bytes += bytes.len() as u64;
        } else {
            self.replies.extend_from_slice(bytes);
        }
    }

    /// Queues an event, within [`MAX_PENDING_EVENTS`].
    pub(crate) fn event(&mut self, event: Event) {
        if self.events.len() >= MAX_PENDING_EVENTS {
            self.dropped.events += 1;
        } else {
            self.events.push(event);
        }
    }

    /// Recomputes the fast-path flags after the pen, insert mode, charsets or joining changed.
    #[inline]
    pub(crate) fn update_plain_print(&mut self) {
        self.plain_print = !self.modes.insert && !self.join_next && self.charsets.is_identity();
        self.refresh_pen_cache();
    }

    /// Recomputes what printing caches about the pen.
    #[inline]
    pub(crate) fn refresh_pen_cache(&mut self) {
        self.pen_default = self.cursor.pen == Pen::default();
        self.pen_cell = Cell::new(' ', &self.cursor.pen, CellFlags::empty());
    }

    /// Stamps row `r` as changed now and returns it for any kind of change.
    #[inline]
    pub(crate) fn row_mut(&mut self, r: usize) -> &mut Row {
        let row = &mut self.grid[r];
        row.seq = self.seq;
        row.mark_unknown();
        row
    }

    /// Stamps every visible row (buffer switch, resize, full clear).
    pub(crate) fn touch_all(&mut self) {
        self.all_rows_seq = self.seq;
    }

    /// Stamps rows `top..=bottom` (all of them with one stamp when that is the whole screen).
    fn touch_rows(&mut self, top: usize, bottom: usize) {
        if top == 0 && bottom + 1 == self.grid.len() {
            self.touch_all();
        } else {
            let seq = self.seq;
            self.grid.range_mut(top..=bottom).for_each(|r| r.seq = seq);
        }
    }

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

    /// Scrolls rows `top..=bottom` up by `count` within the column margins. Rows leaving the
    /// top of the primary buffer go to the scrollback when `top` is the first row.
    pub(crate) fn scroll_region_up(&mut self, top: usize, bottom: usize, count: usize) {
        if top > bottom || bottom >= self.rows {
            return;
        }
        let count = count.min(bottom - top + 1);
        let pen = erase_pen(&self.cursor.pen);
        if self.full_width_margins() {
            let save = top == 0 && !self.alt_active;
            for i in 0..count {
                if save {
                    self.scrollback.push(&self.grid[top + i]);
                }
                self.grid[top + i].clear(&pen);
            }
            if top == 0 && bottom + 1 == self.grid.len() {
                self.grid.rotate_left(count);
            } else {
                self.grid.make_contiguous()[top..=bottom].rotate_left(count);
            }
            self.touch_rows(top, bottom);
            return;
        } else {
            let (left, right) = (self.margin_left(), self.margin_right());
            for r in top..=bottom {
                let src = r + count;
                if src <= bottom {
                    let moved: Vec<Cell> = self.grid[src].cells[left..=right].to_vec();
                    self.grid[r].cells[left..=right].clone_from_slice(&moved);
                } else {
                    self.grid[r].erase(left, right + 1, &pen, false);
                }
                self.grid[r].repair_wide_pairs();
            }
        }
        for r in top..=bottom {
            self.row_mut(r);
        }
    }

    /// Scrolls rows `top..=bottom` down by `count` within the column margins.
    pub(crate) fn scroll_region_down(&mut self, top: usize, bottom: usize, count: usize) {
        if top > bottom || bottom >= self.rows {
            return;
        }
        let count = count.min(bottom - top + 1);
        let pen = erase_pen(&self.cursor.pen);
        if self.full_width_margins() {
            if top == 0 && bottom + 1 == self.grid.len() {
                self.grid.rotate_right(count);
            } else {
                self.grid.make_contiguous()[top..=bottom].rotate_right(count);
            }
            for r in top..top + count {
                self.grid[r].clear(&pen);
            }
            self.touch_rows(top, bottom);
            return;
        } else {
            let (left, right) = (self.margin_left(), self.margin_right());
            for r in (top..=bottom).rev() {
                if r >= top + count {
                    let moved: Vec<Cell> = self.grid[r - count].cells[left..=right].to_vec();
                    self.grid[r].cells[left..=right].clone_from_slice(&moved);
                } else {
                    self.grid[r].erase(left, right + 1, &pen, false);
                }
                self.grid[r].repair_wide_pairs();
            }
        }
        for r in top..=bottom {
            self.row_mut(r);
        }
    }

    /// Prints a character of display width 1 or 2 at the cursor, wrapping as xterm does.
    #[inline]
    pub(crate) fn put_char(&mut self, c: char, width: usize) {
        let mut right = self.print_right();
        if self.cursor.pending_wrap {
            self.wrap();
            right = self.print_right();
        }
        if width == 2 && self.cursor.col + 1 > right {
            if right == self.print_left() {
                // No room for a wide character at all on a one-column line.
                return;
            }
            if self.modes.autowrap {
                self.wrap();
                right = self.print_right();
            } else {
                self.cursor.col = right - 1;
            }
        }
        let (r, col) = (self.cursor.row, self.cursor.col);
        let insert = self.modes.insert;
        let seq = self.seq;
        let pen = &self.cursor.pen;
        let pen_default = self.pen_default;
        let row = &mut self.grid[r];
        row.seq = seq;
        if insert {
            row.insert_cells(col, right, width, pen);
            row.mark_unknown();
        } else {
            row.written = row.written.max(col + width);
            row.plain &= pen_default && width == 1 && c.is_ascii();
            row.unstyled &= pen_default;
            row.ascii &= width == 1 && c.is_ascii() && pen.extra.is_none();
        }
        // Never leave half of a wide character behind.
        if row.cells[col].flags() != CellFlags::empty() {
            row.split_wide_at(col, pen);
            row.split_wide_at(col + 1, pen);
        }
        if width == 2 {
            if row.cells[col + 1].flags() != CellFlags::empty() {
                row.split_wide_at(col + 2, pen);
            }
            row.cells[col] = Cell::new(c, pen, CellFlags::WIDE);
            row.cells[col + 1] = Cell::spacer(pen);
        } else {
            row.cells[col] = Cell::new(c, pen, CellFlags::empty());
        }
        let next = col + width;
        if next > right {
            self.cursor.col = right;
            self.cursor.pending_wrap = self.modes.autowrap;
        } else {
            self.cursor.col = next;
        }
    }

    /// Autowrap: marks the row as continuing, then CR and index.
    fn wrap(&mut self) {
        self.cursor.pending_wrap = false;
        if !self.modes.autowrap {
            return;
        }
        let r = self.cursor.row;
        let row = &mut self.grid[r];
        row.seq = self.seq;
        row.wrapped = true;
        self.cursor.col = self.print_left();
        self.index_down();
    }

    /// IND: down a row, scrolling the region when at its bottom.
    pub(crate) fn index_down(&mut self) {
        self.cursor.pending_wrap = false;
        if self.cursor.row == self.bottom {
            self.scroll_region_up(self.top, self.bottom, 1);
        } else if self.cursor.row + 1 < self.rows {
            self.cursor.row += 1;
        }
    }

    /// RI: up a row, scrolling the region down when at its top.
    pub(crate) fn index_up(&mut self) {
        self.cursor.pending_wrap = false;
        if self.cursor.row == self.top {
            self.scroll_region_down(self.top, self.bottom, 1);
        } else if self.cursor.row > 0 {
            self.cursor.row -= 1;
        }
    }

    /// Joins a zero-width character (or, after a ZWJ, any character) to the grapheme printed
    /// last. VS16 widens a narrow emoji to two cells when there is room.
    pub(crate) fn join_to_previous(&mut self, c: char) {
        let (r, mut col) = if self.cursor.pending_wrap {
            (self.cursor.row, self.cursor.col)
        } else if self.cursor.col > 0 {
            (self.cursor.row, self.cursor.col - 1)
        } else if self.cursor.row > 0 && self.grid[self.cursor.row - 1].wrapped {
            (self.cursor.row - 1, self.cols - 1)
        } else {
            return;
        };
        if self.grid[r].cells[col].is_spacer() && col > 0 {
            col -= 1;
        }
        let row = self.row_mut(r);
        row.cells[col].push_combining(c, MAX_GRAPHEME_BYTES);
        let widen = c == crate::width::VS16
            && !row.cells[col].is_wide()
            && !self.cursor.pending_wrap
            && r == self.cursor.row
            && col + 1 == self.cursor.col
            && col < self.print_right();
        if widen {
            let pen = self.grid[r].cells[col].pen();
            let row = &mut self.grid[r];
            row.split_wide_at(col + 2, &pen);
            row.cells[col].set_wide();
            row.cells[col + 1] = Cell::spacer(&pen);
            let right = self.print_right();
            if col + 2 > right {
                self.cursor.col = right;
                self.cursor.pending_wrap = self.modes.autowrap;
            } else {
                self.cursor.col = col + 2;
            }
        }
    }

    /// Moves the cursor to an absolute position, clamped to the screen.
    pub(crate) fn set_cursor(&mut self, row: usize, col: usize) {
        self.cursor.row = row.min(self.rows - 1);
        self.cursor.col = col.min(self.cols - 1);
        self.cursor.pending_wrap = false;
    }

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

/// The pen erasing fills with: only the background survives (xterm's BCE).
pub(crate) fn erase_pen(pen: &Pen) -> Pen {
    Pen {
        bg: pen.bg,
        ..Pen::default()
    }
}

/// A tab stop every 8 columns.
pub(crate) fn default_tabs(cols: usize) -> Vec<bool> {
    (0..cols).map(|c| c % 8 == 0 && c != 0).collect()
}

/// The pen after SGR 0: attributes and colours cleared, but DECSCA protection and an open
/// OSC 8 hyperlink kept (neither is an SGR attribute).
pub(crate) fn reset_pen(pen: &Pen) -> Pen {
    let mut fresh = Pen::default();
    fresh
        .attrs
        .set(Attrs::PROTECTED, pen.attrs.contains(Attrs::PROTECTED));
    if let Some(link) = pen.extra.as_ref().and_then(|e| e.hyperlink.clone()) {
        fresh.update_extra(|e| e.hyperlink = Some(link));
    }
    fresh
}
