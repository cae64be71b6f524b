//! What weft draws around and over the panes: borders, the status line and the client's
//! overlays (prompt, messages, listings).

use super::compose::mouse_modes;
use super::Overlay;
use crate::config::Config;
use crate::session::{StatusLine, View};
use std::time::Duration;
use tokio::time::Instant;
use weft_renderer::Frame;
use weft_screen_model::{Attrs, Cell, CellFlags, Color, Pen};

/// A pen of two colours and no attributes.
pub(super) fn pen(fg: Color, bg: Color) -> Pen {
    Pen {
        fg,
        bg,
        ..Pen::default()
    }
}

/// When the clock in the status line next changes: the next minute boundary.
pub(super) fn next_minute() -> Instant {
    let now = chrono::Local::now();
    let secs = u64::from(chrono::Timelike::second(&now));
    let nanos = u64::from(chrono::Timelike::nanosecond(&now)).min(999_999_999);
    let left = Duration::from_secs(60 - secs) - Duration::from_nanos(nanos);
    Instant::now() + left + Duration::from_millis(5)
}

/// Borders, status line and overlays. Borders and the status line only with `full` (they
/// changed); the overlay and the mouse modes always (pane updates set the cursor and modes, and
/// may cover the overlay's lines).
pub(super) fn draw_chrome(
    view: &View,
    frame: &mut Frame,
    overlay: Option<&Overlay>,
    config: &Config,
    full: bool,
) {
    if config.mouse {
        mouse_modes(frame);
    }
    if full {
        draw_borders(view, frame);
        if let Some(status) = &view.status {
            draw_status(status, frame);
        }
    }
    match overlay {
        Some(Overlay::Prompt { label, input }) => {
            let row = status_row(view, frame);
            let text = format!("{label}{input}");
            write_line(
                frame,
                row,
                &text,
                &pen(Color::Indexed(0), Color::Indexed(3)),
            );
            let col = text.chars().count().min(frame.cols().saturating_sub(1));
            frame.cursor = Some((row, col));
        }
        Some(Overlay::Message(text)) => {
            let row = status_row(view, frame);
            write_line(frame, row, text, &pen(Color::Indexed(0), Color::Indexed(3)));
        }
        Some(Overlay::Lines(lines)) => {
            let top = usize::from(view.window.row);
            let rows = usize::from(view.window.rows);
            let style = pen(Color::Default, Color::Default);
            for (i, line) in lines.iter().take(rows).enumerate() {
                write_line(frame, top + i, line, &style);
            }
            for r in top + lines.len().min(rows)..top + rows {
                if r < frame.rows() {
                    frame.blank(r, 0, frame.cols());
                }
            }
            frame.cursor = None;
        }
        None => {}
    }
}

/// The row prompts and messages use: the status line's, else the last.
fn status_row(view: &View, frame: &Frame) -> usize {
    view.status
        .as_ref()
        .map_or(frame.rows().saturating_sub(1), |s| usize::from(s.row))
        .min(frame.rows().saturating_sub(1))
}

/// Writes `text` from column 0 of `row`, padding the row with the style.
pub(super) fn write_line(frame: &mut Frame, row: usize, text: &str, style: &Pen) {
    if row >= frame.rows() {
        return;
    }
    let cols = frame.cols();
    let mut cells = Vec::with_capacity(cols);
    for c in text.chars() {
        let w = weft_screen_model::width::char_width(c);
        if w == 0 {
            continue;
        }
        if cells.len() + w > cols {
            break;
        }
        if w == 2 {
            cells.push(Cell::new(c, style, CellFlags::WIDE));
            cells.push(Cell::spacer(style));
        } else {
            cells.push(Cell::new(c, style, CellFlags::empty()));
        }
    }
    cells.resize(cols, Cell::erased(style));
    frame.put(row, 0, &cells);
}

/// Lines between panes, highlighted next to the focused pane.
fn draw_borders(view: &View, frame: &mut Frame) {
    if view.panes.len() < 2 {
        return;
    }
    let w = view.window;
    let covered = |c: u16, r: u16| {
        view.panes
            .iter()
            .any(|(_, p)| c >= p.col && c < p.col + p.cols && r >= p.row && r < p.row + p.rows)
    };
    let in_window = |c: i32, r: i32| {
        c >= i32::from(w.col)
            && c < i32::from(w.col + w.cols)
            && r >= i32::from(w.row)
            && r < i32::from(w.row + w.rows)
    };
    let border = |c: i32, r: i32| in_window(c, r) && !covered(c as u16, r as u16);
    let active = view
        .panes
        .iter()
        .find(|(p, _)| p.id() == view.active)
        .map(|(_, r)| *r);
    let normal = Pen::default();
    let highlight = pen(Color::Indexed(2), Color::Default);
    for r in w.row..w.row + w.rows {
        for c in w.col..w.col + w.cols {
            if covered(c, r) {
                continue;
            }
            let (ci, ri) = (i32::from(c), i32::from(r));
            let up = border(ci, ri - 1);
            let down = border(ci, ri + 1);
            let left = border(ci - 1, ri);
            let right = border(ci + 1, ri);
            let glyph = match (up, down, left, right) {
                (true, true, true, true) => '┼',
                (true, true, false, true) => '├',
                (true, true, true, false) => '┤',
                (false, true, true, true) => '┬',
                (true, false, true, true) => '┴',
                (false, true, false, true) => '┌',
                (false, true, true, false) => '┐',
                (true, false, false, true) => '└',
                (true, false, true, false) => '┘',
                (_, _, true, _) | (_, _, _, true) => '─',
                _ => '│',
            };
            let next_to_active = active.is_some_and(|a| {
                ci >= i32::from(a.col) - 1
                    && ci <= i32::from(a.col + a.cols)
                    && ri >= i32::from(a.row) - 1
                    && ri <= i32::from(a.row + a.rows)
            });
            let style = if next_to_active { &highlight } else { &normal };
            let cell = Cell::new(glyph, style, CellFlags::empty());
            frame.put(usize::from(r), usize::from(c), std::slice::from_ref(&cell));
        }
    }
}

/// The host name for the status line.
fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_default()
}

/// The status line: session, windows, and on the right the host and the clock.
fn draw_status(status: &StatusLine, frame: &mut Frame) {
    let row = usize::from(status.row);
    if row >= frame.rows() {
        return;
    }
    let mut left = format!("[{}] ", status.session);
    for w in &status.windows {
        let flag = if w.active {
            "*"
        } else if w.last {
            "-"
        } else {
            ""
        };
        let zoom = if w.zoomed { "Z" } else { "" };
        left.push_str(&format!("{}:{}{}{} ", w.index, w.name, flag, zoom));
    }
    let clock = chrono::Local::now().format("%H:%M %d-%b-%y").to_string();
    let right = format!("\"{}\" {clock}", hostname());
    let cols = frame.cols();
    let mut text: String = left.chars().take(cols).collect();
    let used = text.chars().count();
    let right_len = right.chars().count();
    if used + right_len < cols {
        text.push_str(&" ".repeat(cols - used - right_len));
        text.push_str(&right);
    }
    let mut style = pen(Color::Indexed(0), Color::Indexed(2));
    style.attrs = Attrs::empty();
    write_line(frame, row, &text, &style);
}
