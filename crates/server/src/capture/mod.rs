//! `weft capture` and `weft replay --format json`: a screen as text, with escapes, or as cells.

mod json;

use json::row_json;
pub use json::screen_json;
use serde_json::{json, Value};
use weft_screen_model::style::sgr_params;
use weft_screen_model::{Row, Screen};

/// How to capture.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CaptureOptions {
    /// Keep colours and attributes as SGR sequences.
    pub ansi: bool,
    /// Cells as JSON.
    pub json: bool,
    /// Lines of history before the screen.
    pub scrollback: usize,
    /// Text: tmux's `-S N` with `N` 0 or more, the first visible row captured (history
    /// then none); 0 from the screen's top.
    pub first_row: usize,
    /// Text: tmux's `-E N`, the last line captured: 0 the first visible row, negative
    /// lines of history; `None` the screen's last row.
    pub last_line: Option<i64>,
    /// Soft-wrapped rows as one line.
    pub join_wrapped: bool,
    /// Text: rows keep their trailing spaces (tmux's `-N`).
    pub keep_trailing: bool,
    /// Text: controls as octal `\xxx` and a backslash doubled (tmux's `-C`).
    pub escape_controls: bool,
    /// The visible screen as an SVG picture (`weft_artifacts::svg`).
    pub svg: bool,
    /// The primary screen the alternate one covers instead (tmux's `-a`; no history):
    /// nothing while the primary screen is shown.
    pub alternate: bool,
}

/// At most this much output per piece of a capture (a row may overrun it): the pane task
/// renders one piece per request under the screen's lock, so a long history neither holds the
/// lock for long nor is ever held whole in memory.
pub const PIECE_BYTES: usize = 64 * 1024;
/// At most this many history rows per piece.
pub const PIECE_ROWS: usize = 512;

/// The screen (and `scrollback` lines of history) in the form asked for, whole. For the
/// visible screen and short histories; long ones go through [`CaptureState`] piece by piece.
pub fn capture(screen: &Screen, options: &CaptureOptions) -> String {
    let mut state = CaptureState::new(options.clone());
    let mut out = String::new();
    while !state.is_done() {
        out.push_str(&state.next_piece(screen));
    }
    out
}

/// A capture taken in pieces: [`CaptureState::next_piece`] renders the next piece from the
/// screen (the caller holds its lock for that call only).
///
/// The first piece fixes what is captured: the history lines then held (the last
/// `scrollback` of them, numbered absolutely with [`weft_screen_model::Scrollback::pushed`]),
/// the visible screen, and the revision. Lines printed afterwards are not part of it; lines
/// that fall off the top of a full history before their piece is taken are skipped.
#[derive(Debug)]
pub struct CaptureState {
    options: CaptureOptions,
    started: bool,
    done: bool,
    /// The next history line to render (absolute).
    next: u64,
    /// The history line after the last one to render (absolute).
    end: u64,
    /// The revision of the screen the capture started on.
    revision: u64,
    /// Text: the visible rows when the capture started, rendered last.
    visible: Vec<Row>,
    /// JSON: what follows the scrollback rows (the rest of the object).
    json_tail: String,
    /// Text: rows written so far (a separator goes before every row but the first).
    rows_written: usize,
    /// Text: whether the last row written was joined to the next one.
    last_joined: bool,
    /// Text: newlines owed, written only once something else follows (trailing empty lines
    /// are trimmed).
    pending_newlines: usize,
}

impl CaptureState {
    /// A capture not yet started.
    pub fn new(options: CaptureOptions) -> Self {
        CaptureState {
            options,
            started: false,
            done: false,
            next: 0,
            end: 0,
            revision: 0,
            visible: Vec::new(),
            json_tail: String::new(),
            rows_written: 0,
            last_joined: false,
            pending_newlines: 0,
        }
    }

    /// Whether every piece has been taken.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The revision of the screen captured (known once the first piece is taken).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The next piece of output: about [`PIECE_BYTES`] at most, plus, in the last piece, the
    /// visible screen. Empty once done.
    pub fn next_piece(&mut self, screen: &Screen) -> String {
        if !self.options.alternate {
            return self.piece_of(screen);
        }
        match screen.covered_screen() {
            Some(covered) => self.piece_of(&covered),
            None => {
                self.done = true;
                String::new()
            }
        }
    }

    /// [`CaptureState::next_piece`] of `screen` itself.
    fn piece_of(&mut self, screen: &Screen) -> String {
        let mut out = String::new();
        if self.done {
            return out;
        }
        if !self.started {
            self.start(screen, &mut out);
        }
        let history = screen.scrollback();
        // Lines that fell off the top since are skipped.
        self.next = self.next.max(history.first_absolute());
        let mut rows = 0;
        while self.next < self.end && rows < PIECE_ROWS && out.len() < PIECE_BYTES {
            let index = (self.next - history.first_absolute()) as usize;
            self.next += 1;
            if let Some(row) = screen.scrollback_row(index) {
                self.push_row(&mut out, &row);
                rows += 1;
            }
        }
        if self.next >= self.end {
            if self.options.json {
                out.push_str(&self.json_tail);
                self.json_tail = String::new();
            } else {
                for row in std::mem::take(&mut self.visible) {
                    self.push_row(&mut out, &row);
                }
            }
            self.done = true;
        }
        out
    }

    fn start(&mut self, screen: &Screen, out: &mut String) {
        self.started = true;
        self.revision = screen.seqno();
        if self.options.svg {
            // A picture of the visible screen, in one piece (its size is the screen's).
            out.push_str(&weft_artifacts::svg::screen_svg(screen));
            self.next = 0;
            self.end = 0;
            return;
        }
        let history = screen.scrollback();
        let lines = self.options.scrollback.min(history.len()) as u64;
        self.end = history.pushed();
        self.next = self.end - lines;
        if !self.options.json && (self.options.first_row > 0 || self.options.last_line.is_some()) {
            self.start_range(screen);
            return;
        }
        if self.options.json {
            let mut value = screen_json(screen, false);
            let with_history = self.options.scrollback > 0;
            if with_history {
                value["scrollback"] = Value::Null;
            }
            value["revision"] = json!(self.revision);
            let head = value.to_string();
            // The rows go where the key's value is: an unescaped `"scrollback":` can only be
            // the top-level key (quotes inside strings are escaped).
            const KEY: &str = "\"scrollback\":null";
            match head.find(KEY).filter(|_| with_history) {
                Some(at) => {
                    out.push_str(&head[..at]);
                    out.push_str("\"scrollback\":[");
                    self.json_tail = format!("]{}", &head[at + KEY.len()..]);
                }
                None => {
                    self.json_tail = head;
                    self.next = self.end;
                }
            }
        } else {
            self.visible = screen.visible_rows().cloned().collect();
        }
    }

    /// Text between two of tmux's lines (`-S`, `-E`), numbered over the history and the
    /// screen as tmux numbers them (0 the screen's top row, negative into the history), each
    /// clamped to what exists, swapped when the end comes before the start.
    fn start_range(&mut self, screen: &Screen) {
        let history = screen.scrollback();
        let held = history.len() as i64;
        let rows = screen.rows() as i64;
        let last = held + rows - 1;
        let top = if self.options.scrollback > 0 {
            held - i64::try_from(self.options.scrollback).map_or(held, |n| n.min(held))
        } else {
            held + i64::try_from(self.options.first_row).map_or(rows - 1, |n| n.min(rows - 1))
        };
        let bottom = self
            .options
            .last_line
            .map_or(last, |line| held.saturating_add(line).clamp(0, last));
        let (top, bottom) = (top.min(bottom), top.max(bottom));
        // History lines `top..` up to the screen, as absolute numbers.
        let base = history.pushed() - held as u64;
        self.next = base + top.min(held) as u64;
        self.end = base + (bottom + 1).min(held) as u64;
        self.visible = screen
            .visible_rows()
            .enumerate()
            .filter(|(r, _)| (top - held..=bottom - held).contains(&(*r as i64)))
            .map(|(_, row)| row.clone())
            .collect();
    }

    fn push_row(&mut self, out: &mut String, row: &Row) {
        if self.options.json {
            if self.rows_written > 0 {
                out.push(',');
            }
            self.rows_written += 1;
            out.push_str(&row_json(row).to_string());
            return;
        }
        if self.rows_written > 0 && !self.last_joined {
            self.pending_newlines += 1;
        }
        self.rows_written += 1;
        let joined = self.options.join_wrapped && row.is_wrapped();
        self.last_joined = joined;
        let mut text = String::new();
        if self.options.ansi {
            push_ansi_row(&mut text, row, joined);
        } else if joined || self.options.keep_trailing {
            for cell in row.cells() {
                cell.push_text(&mut text);
            }
        } else {
            text = row.text();
        }
        if self.options.escape_controls {
            text = escaped(&text);
        }
        // Newlines at the end stay owed until something else follows.
        let body = text.trim_end_matches('\n');
        if !body.is_empty() {
            out.extend(std::iter::repeat_n('\n', self.pending_newlines));
            self.pending_newlines = 0;
            out.push_str(body);
        }
        self.pending_newlines += text.len() - body.len();
    }
}

/// `text` with controls as octal `\xxx` and a backslash doubled, as tmux's
/// `capture-pane -C`.
fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' {
            out.push_str("\\\\");
        } else if c.is_control() && c != '\n' {
            out.push_str(&format!("\\{:03o}", u32::from(c) & 0o777));
        } else {
            out.push(c);
        }
    }
    out
}

/// Every history line, decoded: for `weft replay`, which works on a screen of its own.
fn history(screen: &Screen, lines: usize) -> Vec<Row> {
    let len = screen.scrollback().len();
    (len.saturating_sub(lines)..len)
        .filter_map(|i| screen.scrollback_row(i))
        .collect()
}

fn push_ansi_row(out: &mut String, row: &Row, joined: bool) {
    let cells = if joined {
        row.cells()
    } else {
        &row.cells()[..row.used_len()]
    };
    let mut current = String::from("0");
    for cell in cells {
        if cell.is_spacer() {
            continue;
        }
        let params = sgr_params(&cell.pen());
        if params != current {
            out.push_str(&format!("\x1b[{params}m"));
            current = params;
        }
        cell.push_text(out);
    }
    if current != "0" {
        out.push_str("\x1b[0m");
    }
}

/// The visible screen as escapes that draw it on a blank terminal of its size: each row's text
/// with its colours and attributes (soft-wrapped rows printed through, so the rows stay joined
/// for a resize), then the scrolling region, the cursor (with a pending wrap, and hidden if it
/// is), the modes that change what later output draws (origin, autowrap, insert, reverse
/// video), the pen, and the alternate screen if it is shown. What a recording starts with
/// (`record-pane`). Not carried: hyperlinks, tab stops, charsets, left and right margins.
pub fn screen_frame(screen: &Screen) -> String {
    let mut out = String::new();
    if screen.is_alternate_screen() {
        out.push_str("\x1b[?1049h");
    }
    out.push_str("\x1b[0m\x1b[H\x1b[2J");
    let rows = screen.rows();
    let mut after_joined = false;
    for (r, row) in screen.visible_rows().enumerate() {
        let joined = row.is_wrapped() && r + 1 < rows;
        if !after_joined {
            if row.used_len() == 0 && !joined {
                continue;
            }
            out.push_str(&format!("\x1b[{};1H", r + 1));
        }
        push_ansi_row(&mut out, row, joined);
        after_joined = joined;
    }
    let (top, bottom) = screen.scroll_region();
    if (top, bottom) != (0, rows.saturating_sub(1)) {
        out.push_str(&format!("\x1b[{};{}r", top + 1, bottom + 1));
    }
    let modes = screen.modes();
    let cursor = screen.cursor_state();
    if modes.origin {
        // Origin mode counts rows from the region's top (and setting it homes the cursor).
        out.push_str("\x1b[?6h");
        let row = cursor.row.saturating_sub(top);
        out.push_str(&format!("\x1b[{};{}H", row + 1, cursor.col + 1));
    } else {
        out.push_str(&format!("\x1b[{};{}H", cursor.row + 1, cursor.col + 1));
    }
    if cursor.pending_wrap && modes.autowrap {
        // Printing the last cell again leaves the cursor waiting to wrap, as it was.
        if let Some(cell) = screen
            .cell(cursor.row, cursor.col)
            .filter(|c| c.width() == 1 && !c.is_spacer())
        {
            out.push_str(&format!("\x1b[{}m", sgr_params(&cell.pen())));
            cell.push_text(&mut out);
            out.push_str("\x1b[0m");
        }
    }
    if !cursor.visible {
        out.push_str("\x1b[?25l");
    }
    if !modes.autowrap {
        out.push_str("\x1b[?7l");
    }
    if modes.insert {
        out.push_str("\x1b[4h");
    }
    if modes.reverse_video {
        out.push_str("\x1b[?5h");
    }
    let pen = sgr_params(screen.pen());
    if pen != "0" {
        out.push_str(&format!("\x1b[{pen}m"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The capture as it was made before pieces: the whole output built at once.
    fn reference(screen: &Screen, options: &CaptureOptions) -> String {
        if options.json {
            let mut value = screen_json(screen, false);
            if options.scrollback > 0 {
                value["scrollback"] = Value::Array(
                    history(screen, options.scrollback)
                        .iter()
                        .map(row_json)
                        .collect(),
                );
            }
            value["revision"] = json!(screen.seqno());
            return value.to_string();
        }
        let mut rows = history(screen, options.scrollback);
        rows.extend(screen.visible_rows().cloned());
        let mut out = String::new();
        for (i, row) in rows.iter().enumerate() {
            let joined = options.join_wrapped && row.is_wrapped();
            if options.ansi {
                push_ansi_row(&mut out, row, joined);
            } else if joined {
                for cell in row.cells() {
                    cell.push_text(&mut out);
                }
            } else {
                out.push_str(&row.text());
            }
            if !joined && i + 1 < rows.len() {
                out.push('\n');
            }
        }
        let trimmed = out.trim_end_matches('\n').len();
        out.truncate(trimmed);
        out
    }

    /// A screen with `lines` numbered, coloured lines of history (some wrapped, some empty)
    /// and a few lines on screen followed by empty rows.
    fn screen_with_history(lines: usize) -> Screen {
        let mut screen = Screen::with_scrollback(40, 10, 100_000);
        for i in 0..lines {
            let line = match i % 7 {
                0 => String::new(),
                1 => format!("\x1b[1;31mline {i}\x1b[0m plain \x1b[38;2;1;2;3mrgb"),
                2 => format!("{i} {}", "wrapped ".repeat(9)),
                3 => format!("\x1b]8;;http://x/{i}\x1b\\link {i}\x1b]8;;\x1b\\ é 世界"),
                _ => format!("line {i}"),
            };
            screen.feed(format!("{line}\r\n").as_bytes());
        }
        screen.feed(b"\x1b]2;a \"title\" with \"scrollback\":null\x07$ tail\r\n\x1b[4mx\x1b[0m");
        screen
    }

    fn all_options(scrollback: usize) -> Vec<CaptureOptions> {
        let mut out = Vec::new();
        for (ansi, json, join_wrapped) in [
            (false, false, false),
            (true, false, false),
            (false, false, true),
            (true, false, true),
            (false, true, false),
        ] {
            out.push(CaptureOptions {
                ansi,
                json,
                scrollback,
                join_wrapped,
                ..CaptureOptions::default()
            });
        }
        out
    }

    #[test]
    fn pieces_add_up_to_the_whole_capture() {
        // Enough history for several pieces by rows and by bytes (the JSON ones).
        let screen = screen_with_history(3 * PIECE_ROWS + 17);
        for scrollback in [0, 1, 5, PIECE_ROWS, PIECE_ROWS + 1, 100_000] {
            for options in all_options(scrollback) {
                let mut state = CaptureState::new(options.clone());
                let mut pieces = Vec::new();
                while !state.is_done() {
                    pieces.push(state.next_piece(&screen));
                }
                assert!(pieces.iter().all(|p| p.len() < PIECE_BYTES * 2));
                if scrollback > 2 * PIECE_ROWS {
                    assert!(pieces.len() > 2, "{options:?}: {} pieces", pieces.len());
                }
                let whole = pieces.concat();
                let expected = reference(&screen, &options);
                assert_eq!(whole, expected, "{options:?}");
                if options.json {
                    let parsed: Value = serde_json::from_str(&whole).unwrap();
                    let rows = parsed["scrollback"].as_array().map_or(0, Vec::len);
                    assert_eq!(rows, scrollback.min(screen.scrollback().len()));
                }
            }
        }
    }

    #[test]
    fn a_screen_without_history_and_trailing_empty_rows_captures_as_before() {
        let mut screen = Screen::with_scrollback(20, 6, 100);
        screen.feed(b"\r\n\r\none\r\n\r\ntwo\r\n");
        for options in all_options(10) {
            assert_eq!(
                capture(&screen, &options),
                reference(&screen, &options),
                "{options:?}"
            );
        }
    }

    #[test]
    fn trailing_spaces_kept_and_controls_in_octal_on_request() {
        let mut screen = Screen::with_scrollback(6, 2, 10);
        screen.feed(b"a\\b");
        let text = |keep_trailing, escape_controls| {
            let options = CaptureOptions {
                keep_trailing,
                escape_controls,
                ..CaptureOptions::default()
            };
            capture(&screen, &options)
                .lines()
                .next()
                .unwrap_or_default()
                .to_string()
        };
        assert_eq!(text(false, false), "a\\b");
        assert_eq!(text(true, false), "a\\b   ");
        assert_eq!(text(false, true), "a\\\\b");
        assert_eq!(escaped("x\x01y"), "x\\001y");
    }

    #[test]
    fn tmux_start_and_end_lines_pick_rows_of_history_and_screen() {
        // History 0..=5, screen 6 7 8 (and an empty last row).
        let mut screen = Screen::with_scrollback(10, 4, 100);
        for i in 0..9 {
            screen.feed(format!("{i}\r\n").as_bytes());
        }
        let lines = |scrollback: usize, first_row: usize, last_line: Option<i64>| {
            let options = CaptureOptions {
                scrollback,
                first_row,
                last_line,
                ..CaptureOptions::default()
            };
            capture(&screen, &options)
                .lines()
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(
            lines(usize::MAX, 0, Some(-1)),
            "0 1 2 3 4 5",
            "the history alone"
        );
        assert_eq!(lines(2, 0, Some(0)), "4 5 6");
        assert_eq!(lines(0, 1, None), "7 8");
        assert_eq!(lines(0, 1, Some(1)), "7");
        assert_eq!(lines(0, 2, Some(-2)), "4 5 6 7 8", "swapped, as tmux");
        assert_eq!(
            lines(0, 99, Some(99)),
            "",
            "clamped to the last row, empty here"
        );
        assert_eq!(
            lines(0, 2, Some(i64::MAX)),
            "8",
            "clamped, without overflow"
        );
        assert_eq!(
            lines(0, 0, Some(i64::MIN)),
            "0 1 2 3 4 5 6",
            "from the history's start"
        );
    }

    #[test]
    fn lines_that_scroll_during_a_capture_are_skipped_or_kept_in_order() {
        let mut screen = Screen::with_scrollback(20, 4, 2 * PIECE_ROWS);
        for i in 0..2 * PIECE_ROWS {
            screen.feed(format!("{i}\r\n").as_bytes());
        }
        let options = CaptureOptions {
            scrollback: 2 * PIECE_ROWS,
            ..CaptureOptions::default()
        };
        let mut state = CaptureState::new(options);
        let mut out = state.next_piece(&screen);
        // The pane prints on: the oldest lines fall off the full history.
        for i in 0..PIECE_ROWS + 10 {
            screen.feed(format!("new {i}\r\n").as_bytes());
        }
        while !state.is_done() {
            out.push_str(&state.next_piece(&screen));
        }
        let numbers: Vec<usize> = out.lines().filter_map(|l| l.parse().ok()).collect();
        // In order; the first piece whole; the lines that fell off before their piece skipped;
        // the rest there.
        assert!(numbers.windows(2).all(|w| w[0] < w[1]), "{out}");
        assert!(numbers[..PIECE_ROWS].iter().copied().eq(0..PIECE_ROWS));
        assert!(!numbers.contains(&PIECE_ROWS), "{out}");
        assert_eq!(numbers.last(), Some(&(2 * PIECE_ROWS - 1)));
        // Lines printed after the capture started are not part of it.
        assert!(!out.contains("new"), "{out}");
    }

    #[test]
    fn a_frame_draws_the_screen_again() {
        let mut screen = Screen::with_scrollback(12, 4, 100);
        screen.feed(
            "\x1b[1;31mred\x1b[0m 世界 and a line that wraps\r\n\x1b[44mblue\x1b[7m".as_bytes(),
        );
        screen.feed(b"\x1b[?25l");
        let frame = screen_frame(&screen);
        let mut copy = Screen::new(12, 4);
        copy.feed(frame.as_bytes());
        assert_eq!(copy.text(), screen.text());
        assert_eq!(copy.cursor_state(), screen.cursor_state());
        assert_eq!(sgr_params(copy.pen()), sgr_params(screen.pen()));
        let rows = |s: &Screen| {
            s.visible_rows()
                .map(|r| (r.is_wrapped(), r.cells().to_vec()))
                .collect::<Vec<_>>()
        };
        assert_eq!(rows(&copy), rows(&screen));
        // Joined rows stay joined: both reflow alike.
        screen.resize(20, 4);
        copy.resize(20, 4);
        assert_eq!(copy.text(), screen.text());
    }

    #[test]
    fn a_pending_wrap_is_drawn_again() {
        let mut screen = Screen::new(5, 3);
        screen.feed(b"abcde");
        let mut copy = Screen::new(5, 3);
        copy.feed(screen_frame(&screen).as_bytes());
        copy.feed(b"f");
        screen.feed(b"f");
        assert_eq!(copy.text(), screen.text());
    }

    #[test]
    fn a_frame_keeps_the_region_and_modes_later_output_depends_on() {
        let mut screen = Screen::new(10, 5);
        screen.feed(b"top\x1b[2;4r\x1b[?6h\x1b[2;3Hin\x1b[?7l\x1b[4h");
        let mut copy = Screen::new(10, 5);
        copy.feed(screen_frame(&screen).as_bytes());
        assert_eq!(copy.cursor_state(), screen.cursor_state());
        // Scrolling inside the region, inserting, and not wrapping: alike on both.
        let more = b"XY\r\n1\r\n2\r\n3\r\n4 long line past the edge";
        screen.feed(more);
        copy.feed(more);
        assert_eq!(copy.text(), screen.text());
        assert_eq!(copy.cursor_state(), screen.cursor_state());
    }
}
