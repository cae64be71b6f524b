//! Drawing a client's popup (`display-popup`) over its frame: a border with a title, and the
//! popup's pane inside, whose cursor and modes the terminal then follows.

use crate::layout::Rect;
use crate::pane::PaneHandle;
use weft_renderer::Frame;
use weft_screen_model::{Cell, CellFlags, Pen};

/// A popup as its client's renderer draws it.
#[derive(Clone, Debug)]
pub struct PopupView {
    /// The program's pane (in no window).
    pub pane: PaneHandle,
    /// The whole popup, border included, in session cells, as it was opened: it keeps this
    /// place and size while the session has room, and is fitted into a smaller one
    /// ([`PopupView::rect`]).
    pub wanted: Rect,
    /// `popup-border-lines`: `single`, `rounded`, `double`, `heavy`, `simple`, `padded` or
    /// `none` (no border: the pane fills `rect`).
    pub lines: String,
    /// Shown in the top border.
    pub title: String,
    /// The inside's colours where the program uses the default ones (`popup-style`, `-s`).
    pub style: Pen,
    /// The border's (`popup-border-style`, `-S`).
    pub border_style: Pen,
}

impl PopupView {
    /// The whole popup in a session of `cols` x `rows`: as opened, made smaller and moved up or
    /// left as far as it must to fit, as tmux does.
    pub fn rect(&self, cols: u16, rows: u16) -> Rect {
        fitted(self.wanted, cols, rows)
    }

    /// Where the pane goes in a session of `cols` x `rows`: inside the border, or the whole
    /// popup without one.
    pub fn inner(&self, cols: u16, rows: u16) -> Rect {
        inner_of(self.rect(cols, rows), &self.lines)
    }
}

/// `wanted` fitted into `cols` x `rows`.
pub fn fitted(wanted: Rect, cols: u16, rows: u16) -> Rect {
    let (w, h) = (wanted.cols.min(cols), wanted.rows.min(rows));
    Rect {
        col: wanted.col.min(cols - w),
        row: wanted.row.min(rows - h),
        cols: w,
        rows: h,
    }
}

/// The pane's place in `rect` for a border of `lines` (`none`: the whole of it).
pub fn inner_of(rect: Rect, lines: &str) -> Rect {
    if lines == "none" {
        rect
    } else {
        rect.inset()
    }
}

/// Draws `popup` over `frame`: its border and title, then the pane's screen (as it last showed
/// once its program has ended), whose cursor and modes replace the window's. Returns the
/// screen's revision drawn.
pub(super) async fn draw(frame: &mut Frame, popup: &PopupView, size: (u16, u16)) -> u64 {
    let rect = popup.rect(size.0, size.1);
    let inner = inner_of(rect, &popup.lines);
    let fits = (inner.cols, inner.rows);
    if inner.cols > 0 && inner.rows > 0 && popup.pane.shared.size() != fits {
        // The session's size changed: the program is told its new one.
        popup.pane.resize_now(inner.cols, inner.rows);
    }
    if popup.lines != "none" {
        draw_border(frame, popup, rect);
    }
    let snapshot = match popup.pane.snapshot(0).await {
        Some(s) => Some(s),
        None => popup.pane.last_snapshot(0),
    };
    let (col0, row0) = (usize::from(inner.col), usize::from(inner.row));
    let width = usize::from(inner.cols);
    let blank = Cell::erased(&popup.style);
    let colours = snapshot.as_ref().and_then(|s| s.colours.clone());
    let pane_cols = snapshot.as_ref().map_or(0, |s| s.cols);
    let mut shown = vec![blank.clone(); width];
    for r in 0..usize::from(inner.rows) {
        shown.fill(blank.clone());
        if let Some((_, cells)) = snapshot
            .as_ref()
            .and_then(|s| s.changed.iter().find(|(i, _)| *i == r))
        {
            // Past the row's last cell that is not blank: blanks, in the program's colours too.
            let tail = pane_cols.saturating_sub(cells.len());
            let cells = cells.iter().chain(std::iter::repeat_n(&Cell::BLANK, tail));
            for (slot, cell) in shown.iter_mut().zip(cells) {
                *slot = cell.clone();
                super::compose::recolour(slot, &popup.style);
                if let Some(colours) = &colours {
                    colours.recolour(slot);
                }
            }
        }
        frame.put(row0 + r, col0, &shown);
    }
    let seq = snapshot.as_ref().map_or(0, |s| s.seq);
    match snapshot {
        Some(s) if !popup.pane.has_finished() => {
            frame.set_cursor_from(&s.cursor, row0, col0);
            frame.modes = s.modes;
        }
        _ => frame.cursor = None,
    }
    seq
}

/// The border, in `popup-border-lines`' characters, with the title from its third column.
fn draw_border(frame: &mut Frame, popup: &PopupView, r: Rect) {
    let g = super::chrome::border_glyphs(Some(popup.lines.as_str()));
    let (top_left, top_right, bottom_left, bottom_right, across, down) =
        (g[5], g[6], g[7], g[8], g[9], g[10]);
    let pen = &popup.border_style;
    let cell = |c: char| Cell::new(c, pen, CellFlags::empty());
    let (col, row) = (usize::from(r.col), usize::from(r.row));
    let (cols, rows) = (usize::from(r.cols), usize::from(r.rows));
    if cols < 2 || rows < 2 {
        return;
    }
    let mut line = vec![cell(across); cols];
    line[0] = cell(top_left);
    line[cols - 1] = cell(top_right);
    frame.put(row, col, &line);
    line[0] = cell(bottom_left);
    line[cols - 1] = cell(bottom_right);
    frame.put(row + rows - 1, col, &line);
    for y in row + 1..row + rows - 1 {
        frame.put(y, col, std::slice::from_ref(&cell(down)));
        frame.put(y, col + cols - 1, std::slice::from_ref(&cell(down)));
    }
    if !popup.title.is_empty() && cols > 4 {
        let title = super::chrome::text_cells(&popup.title, pen, cols - 4);
        frame.put(row, col + 2, &title);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(col: u16, row: u16, cols: u16, rows: u16) -> Rect {
        Rect::new(col, row, cols, rows)
    }

    #[test]
    fn a_popup_keeps_its_place_while_it_fits_and_shrinks_and_moves_when_not() {
        let wanted = at(20, 6, 40, 12);
        assert_eq!(fitted(wanted, 80, 24), wanted);
        // Narrower: moved left as far as it must, then made smaller.
        assert_eq!(fitted(wanted, 50, 24), at(10, 6, 40, 12));
        assert_eq!(fitted(wanted, 30, 10), at(0, 0, 30, 10));
        assert_eq!(inner_of(at(0, 0, 30, 10), "single"), at(1, 1, 28, 8));
        assert_eq!(inner_of(at(0, 0, 30, 10), "none"), at(0, 0, 30, 10));
    }
}
