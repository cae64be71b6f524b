//! The screen: grid, cursor, modes, margins, tab stops, charsets, both buffers, scrollback.
//!
//! [`Screen::feed`] parses bytes and applies them. Everything else is read-only inspection the
//! renderer, `weft replay` and tests use. Replies to the program and events for the host
//! (title, bell, clipboard) are queued, bounded, and taken with [`Screen::take_replies`] and
//! [`Screen::take_events`].
//!
//! This module holds the state and its constructors; the methods live by job in the
//! submodules: `inspect` and `queues` (the public read side), `damage`, `bounds`, `put`,
//! `scroll` and `buffers` (the primitives the handler builds on).

mod bounds;
mod buffers;
mod damage;
mod host;
mod inspect;
mod passthrough;
mod put;
mod queues;
mod scroll;

use std::collections::VecDeque;

use crate::ascii_row::AsciiRow;
use crate::cell::{Attrs, Cell, Color, Pen, Rgb};
use crate::charset::CharsetState;
use crate::handler::PromptMark;
use crate::modes::Modes;
use crate::palette::{HostColors, Palette};
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

/// The longest notification (OSC 9, 777, 99) kept, in bytes.
pub const MAX_NOTIFICATION_BYTES: usize = 2048;

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
    /// A tmux passthrough payload (`DCS tmux; ... ST`, its ESCs undoubled), taken out only
    /// while [`Screen::set_passthrough`] allows it; the host decides whether it goes on.
    Passthrough(Vec<u8>),
    /// OSC 9, 777 or 99 for the user's terminal, as `command;rest`: cleaned of control
    /// characters and at most [`MAX_NOTIFICATION_BYTES`].
    Notification(String),
    /// screen's window-name string (`ESC k name ESC \`): printable text only, at most 256
    /// bytes. The host names the window only if it allows it (tmux's `allow-rename`).
    WindowNamed(String),
    /// OSC 133 shell-integration mark at a row.
    Prompt {
        /// Which mark.
        mark: PromptMark,
        /// The cursor row when it came.
        row: usize,
        /// The exit status a command-end mark carries (`133;D;status`).
        status: Option<i32>,
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
    /// The cursor's colour (OSC 12, or the host's); `None`: the terminal's own.
    pub colour: Option<Rgb>,
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
    /// Unterminated OSC or DCS strings given up on ([`Screen::abandon_string`]).
    pub strings: u64,
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
    /// Kitty keyboard flag stacks of the primary (0) and alternate (1) buffers.
    pub(crate) key_flags: [crate::keyboard::KeyFlagStack; 2],
    pub(crate) modes: Modes,
    pub(crate) tabs: Vec<bool>,
    pub(crate) top: usize,
    pub(crate) bottom: usize,
    pub(crate) left: usize,
    pub(crate) right: usize,
    pub(crate) charsets: CharsetState,
    pub(crate) cursor_style: u16,
    /// The cursor style shown while the program asks for its terminal's default (0):
    /// the host's choice (tmux's `cursor-style`).
    default_cursor_style: u16,
    /// A clear of the whole main screen keeps what it showed in the history first (tmux's
    /// `scroll-on-clear`, on by default).
    pub(crate) scroll_on_clear: bool,
    pub(crate) title: String,
    pub(crate) icon_title: String,
    pub(crate) cwd: Option<String>,
    pub(crate) palette: Palette,
    /// What the host knows of the user's terminal's colours (see [`Screen::set_host_colors`]).
    pub(crate) host: std::sync::Arc<HostColors>,
    pub(crate) replies: Vec<u8>,
    pub(crate) events: Vec<Event>,
    pub(crate) dropped: DropCounts,
    pub(crate) last_char: Option<char>,
    pub(crate) join_next: bool,
    /// Where the cursor stepped back (BS) from a pending wrap: while it stays there and
    /// nothing is printed, a zero-width character joins the cursor's own cell, where xterm and
    /// tmux both put it.
    pub(crate) mark_on_cursor: Option<(usize, usize)>,
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
    /// tmux's passthrough strings taken out of the output, when allowed (see
    /// `passthrough.rs`); `None`: off.
    passthrough: Option<Box<passthrough::Passthrough>>,
    /// The program may not switch to the alternate screen (tmux's `alternate-screen off`):
    /// modes 47, 1047 and 1049 are ignored.
    pub(crate) alternate_off: bool,
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
            key_flags: Default::default(),
            modes: Modes::default(),
            tabs: default_tabs(cols),
            top: 0,
            bottom: rows - 1,
            left: 0,
            right: cols - 1,
            charsets: CharsetState::default(),
            cursor_style: 0,
            default_cursor_style: 0,
            scroll_on_clear: true,
            title: String::new(),
            icon_title: String::new(),
            cwd: None,
            palette: Palette::default(),
            host: std::sync::Arc::default(),
            replies: Vec::new(),
            events: Vec::new(),
            dropped: DropCounts::default(),
            last_char: None,
            join_next: false,
            mark_on_cursor: None,
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
            passthrough: None,
            alternate_off: false,
        }
    }

    /// Parses `bytes` and applies them. Never fails: what is not understood is ignored.
    pub fn feed(&mut self, bytes: &[u8]) {
        self.seq += 1;
        let mut parser = std::mem::take(&mut self.parser);
        match self.passthrough.as_mut().map(|p| p.split(bytes)) {
            None => self.feed_in_bulk(&mut parser, bytes),
            Some(pieces) => {
                for piece in pieces {
                    match piece {
                        passthrough::Piece::Output(out) => self.feed_in_bulk(&mut parser, &out),
                        passthrough::Piece::Payload(payload) => {
                            self.event(Event::Passthrough(payload));
                        }
                    }
                }
            }
        }
        self.parser = parser;
    }

    /// Whether tmux's passthrough strings (`DCS tmux; ... ST`) are taken out of the output
    /// and reported as [`Event::Passthrough`] (tmux's `allow-passthrough`); off, they are
    /// parsed as any DCS (and so dropped).
    pub fn set_passthrough(&mut self, on: bool) {
        if on != self.passthrough.is_some() {
            self.passthrough = on.then(Box::default);
        }
    }

    /// The host's default cursor style (see [`Screen::set_default_cursor_style`]).
    pub(crate) fn default_cursor_style(&self) -> u16 {
        self.default_cursor_style
    }

    /// Forgets a sequence the parser is in the middle of (`send-keys -R`).
    pub(crate) fn reset_parser(&mut self) {
        self.parser = Parser::new();
    }

    /// Forgets a passthrough string the filter is in the middle of (`send-keys -R`).
    pub(crate) fn reset_passthrough(&mut self) {
        if self.passthrough.is_some() {
            self.passthrough = Some(Box::default());
        }
    }

    /// Takes the passthrough filter out (kept across a reset, see `full_reset`).
    pub(crate) fn take_passthrough(&mut self) -> Option<Box<passthrough::Passthrough>> {
        self.passthrough.take()
    }

    /// Puts back a filter [`Screen::take_passthrough`] took.
    pub(crate) fn restore_passthrough(&mut self, filter: Option<Box<passthrough::Passthrough>>) {
        self.passthrough = filter;
    }

    /// The cursor style (a DECSCUSR number, 0 to 6) shown while the program leaves it at
    /// its default; 0 leaves it to the user's terminal.
    pub fn set_default_cursor_style(&mut self, style: u16) {
        self.default_cursor_style = style.min(6);
    }

    /// The host's colours for this pane: palette entries drawn as other colours (tmux's
    /// `pane-colours`; a program's own OSC 4 goes over them) and the cursor's colour while the
    /// program sets none (`cursor-colour`). A change redraws every row.
    pub fn set_host_colours(&mut self, entries: Vec<(u8, Color)>, cursor: Option<Rgb>) {
        let cursor_before = self.palette.cursor_colour();
        if self.palette.set_host_colours(entries, cursor)
            || cursor_before != self.palette.cursor_colour()
        {
            self.redraw_all();
        }
    }

    /// Whether clearing the whole main screen keeps its lines in the history (tmux's
    /// `scroll-on-clear`): a shell's `C-l` then loses nothing.
    pub fn set_scroll_on_clear(&mut self, on: bool) {
        self.scroll_on_clear = on;
    }

    /// Whether the program may use the alternate screen (tmux's `alternate-screen`); turned
    /// off, requests for it are ignored and its output stays in the main screen and history.
    /// A switch already made stays until the program leaves it.
    pub fn set_alternate_allowed(&mut self, allowed: bool) {
        self.alternate_off = !allowed;
    }

    /// Whether the output stopped inside an unterminated OSC or DCS string (all later output is
    /// swallowed until it ends). The host gives up on it after a while with
    /// [`Screen::abandon_string`]; the screen itself keeps no clock.
    pub fn in_string(&self) -> bool {
        self.parser.in_string()
    }

    /// Gives up on an unterminated string: the parser returns to its ground state, and the
    /// string is counted in [`DropCounts::strings`].
    pub fn abandon_string(&mut self) {
        if self.parser.in_string() {
            self.parser.abandon_string();
            self.dropped.strings += 1;
        }
    }

    /// Changes how many lines of history are kept.
    pub fn set_scrollback_limit(&mut self, lines: usize) {
        self.scrollback.set_limit(lines);
    }

    /// Whether history going cold waits unpacked because output streams (see
    /// [`Scrollback::defer_packing`]); the host says so before feeding each chunk.
    pub fn defer_history_packing(&mut self, on: bool) {
        self.scrollback.defer_packing(on);
    }

    /// The stream has stopped: packs the cold history that waited, and packs history as it
    /// goes cold again.
    pub fn pack_deferred_history(&mut self) {
        self.scrollback.defer_packing(false);
        self.scrollback.pack_deferred();
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
