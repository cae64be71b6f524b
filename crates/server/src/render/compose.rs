//! Putting panes into a client's frame: the rows of pane snapshots (or, on the echo path, of
//! the locked screen itself) changed since the frame last showed them, and a pane's history.

use crate::ids::PaneId;
use crate::layout::Rect;
use crate::pane::{PaneHandle, PaneSnapshot};
use crate::session::View;
use std::collections::HashMap;
use weft_renderer::Frame;
use weft_screen_model::pane_colours::PaneColours;
use weft_screen_model::{Cell, Color, MouseEncoding, MouseTracking, Pen, Screen};

/// Updates `frame` with what changed in the view's panes (or only pane `only`) since the
/// revisions in `seen`; returns the panes whose changes it shows, or `None` when a pane is gone
/// mid-way (the view is about to change).
pub(super) async fn compose(
    view: &View,
    frame: &mut Frame,
    seen: &mut HashMap<PaneId, u64>,
    only: Option<PaneId>,
) -> Option<Vec<PaneHandle>> {
    let mut cursor_set = false;
    let mut changed = Vec::new();
    for (pane, rect) in view
        .panes
        .iter()
        .filter(|(p, _)| only.is_none_or(|id| id == p.id()))
    {
        let since = seen.get(&pane.id()).copied().unwrap_or(0);
        let snapshot = pane.snapshot(since).await?;
        if snapshot.seq > since {
            changed.push(pane.clone());
        }
        let active = view.active == Some(pane.id());
        put_snapshot(frame, &snapshot, *rect, active, view.pane_style(active));
        cursor_set |= active;
        seen.insert(pane.id(), snapshot.seq);
    }
    if !cursor_set {
        frame.cursor = None;
    }
    Some(changed)
}

/// Whether the frame shows every pane of `view` (each drawn at least once since the frame was
/// made): only then may a frame update the focused pane alone.
pub(super) fn shows_every_pane(view: &View, seen: &HashMap<PaneId, u64>) -> bool {
    view.panes.iter().all(|(p, _)| seen.contains_key(&p.id()))
}

/// Whether a pane of `view` has changes the frame does not show yet.
pub(super) fn has_undrawn_changes(view: &View, seen: &HashMap<PaneId, u64>) -> bool {
    view.panes.iter().any(|(p, _)| {
        p.shared.seq.load(std::sync::atomic::Ordering::Acquire)
            > seen.get(&p.id()).copied().unwrap_or(0)
    })
}

/// Puts a pane's changed rows into its place in `frame`, in `style`'s colours where the program
/// uses the default ones (`window-style`); for the focused pane (`active`) also its cursor and
/// modes.
pub(super) fn put_snapshot(
    frame: &mut Frame,
    snapshot: &PaneSnapshot,
    rect: Rect,
    active: bool,
    style: Option<&Pen>,
) {
    let (col0, row0) = (usize::from(rect.col), usize::from(rect.row));
    let width = usize::from(rect.cols).min(snapshot.cols);
    let colours = snapshot.colours.as_deref();
    for (r, cells) in &snapshot.changed {
        if *r < usize::from(rect.rows) {
            put_row(frame, (row0 + r, col0), cells, width, (style, colours));
        }
    }
    if active {
        frame.set_cursor_from(&snapshot.cursor, row0, col0);
        frame.modes = snapshot.modes;
    }
}

/// Puts the rows of the focused pane's `screen` changed after revision `since` into `rect` of
/// `frame`, with its cursor and modes: [`put_snapshot`] without the snapshot, for a pane's
/// thread drawing its own echo while it holds the screen.
pub(super) fn put_screen(
    frame: &mut Frame,
    screen: &Screen,
    since: u64,
    rect: Rect,
    style: Option<&Pen>,
) {
    let (col0, row0) = (usize::from(rect.col), usize::from(rect.row));
    let width = usize::from(rect.cols).min(screen.cols());
    let colours = screen.pane_colours().map(|c| &**c);
    for (r, row) in screen
        .visible_rows()
        .enumerate()
        .take(usize::from(rect.rows))
    {
        if since == 0 || screen.row_seq(r) > since {
            let cells = row.cells();
            put_row(frame, (row0 + r, col0), cells, width, (style, colours));
        }
    }
    frame.set_cursor_from(&screen.cursor_state(), row0, col0);
    frame.modes = crate::pane::outer_modes(screen.modes());
}

/// Puts `width` cells of one row of a pane at `(row, col)`, blanks past the end of `cells`
/// (a snapshot's row stops at its last cell that is not blank), recoloured with `style`
/// (`window-style`) and then with the pane's own colours (its program's palette, tmux's
/// `pane-colours`) when it has them, in that order as tmux applies them.
fn put_row(
    frame: &mut Frame,
    (row, col): (usize, usize),
    cells: &[Cell],
    width: usize,
    (style, colours): (Option<&Pen>, Option<&PaneColours>),
) {
    let shown = width.min(cells.len());
    let cells = &cells[..shown];
    if style.is_none() && colours.is_none() {
        frame.put(row, col, cells);
        frame.blank(row, col + shown, width - shown);
        return;
    }
    let blanks = std::iter::repeat_n(&Cell::BLANK, width - shown);
    let recoloured: Vec<Cell> = cells
        .iter()
        .chain(blanks)
        .map(|c| {
            let mut c = c.clone();
            if let Some(style) = style {
                recolour(&mut c, style);
            }
            if let Some(colours) = colours {
                colours.recolour(&mut c);
            }
            c
        })
        .collect();
    frame.put(row, col, &recoloured);
}

/// A cell in the program's default colours takes `style`'s instead (`window-style`,
/// `popup-style`).
pub(super) fn recolour(cell: &mut Cell, style: &Pen) {
    let (fg, bg) = (cell.fg(), cell.bg());
    if (fg == Color::Default && style.fg != Color::Default)
        || (bg == Color::Default && style.bg != Color::Default)
    {
        let fg = if fg == Color::Default { style.fg } else { fg };
        let bg = if bg == Color::Default { style.bg } else { bg };
        cell.set_colors(fg, bg);
    }
}

/// weft handles the mouse: the terminal reports presses, drags and the wheel in SGR form.
pub(super) fn mouse_modes(frame: &mut Frame) {
    if frame.modes.mouse_tracking != MouseTracking::Motion {
        frame.modes.mouse_tracking = MouseTracking::Drag;
    }
    frame.modes.mouse_encoding = MouseEncoding::Sgr;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rows, cursor and modes of `frame`, comparable.
    type Contents = (
        Vec<Vec<Cell>>,
        Option<(usize, usize)>,
        u16,
        weft_renderer::OuterModes,
    );

    fn contents(frame: &Frame) -> Contents {
        let rows = (0..frame.rows()).map(|r| frame.row(r).to_vec()).collect();
        (rows, frame.cursor, frame.cursor_style, frame.modes)
    }

    /// Frames drawn both ways: from snapshots and straight from the screen.
    struct BothWays {
        via_snapshot: Frame,
        direct: Frame,
        rect: Rect,
        style: Option<Pen>,
    }

    impl BothWays {
        fn new((cols, rows): (usize, usize), rect: Rect, style: Option<Pen>) -> BothWays {
            BothWays {
                via_snapshot: Frame::new(cols, rows),
                direct: Frame::new(cols, rows),
                rect,
                style,
            }
        }

        /// Puts the rows of `screen` changed after `since` both ways and checks the frames
        /// agree; returns the snapshot.
        fn put(&mut self, screen: &Screen, since: u64) -> PaneSnapshot {
            let snapshot = crate::pane::snapshot_of(screen, since);
            let style = self.style.as_ref();
            put_snapshot(&mut self.via_snapshot, &snapshot, self.rect, true, style);
            put_screen(&mut self.direct, screen, since, self.rect, style);
            assert_eq!(contents(&self.direct), contents(&self.via_snapshot));
            snapshot
        }
    }

    /// The echo path's direct copy from the screen puts the same cells, cursor and modes into
    /// the frame as the render task's snapshot does, for a pane placed inside the frame and
    /// cut at its edges, both for a first frame and for the rows changed since one.
    #[test]
    fn putting_from_the_screen_matches_putting_a_snapshot() {
        let mut screen = Screen::new(12, 5);
        screen.feed(b"\x1b[?1h\x1b[31mfirst line\r\nsecond \xe5\xad\x97 wide\r\nthird");
        let rect = Rect {
            col: 2,
            row: 1,
            cols: 8,
            rows: 3,
        };
        let mut both = BothWays::new((14, 6), rect, None);
        both.put(&screen, 0);
        let since = screen.seqno();
        screen.feed(b"\x1b[2;1H\x1b[44mchanged\x1b[?25l");
        both.put(&screen, since);
        assert!(
            both.direct.row(2)[2..9].iter().any(|c| c.ch() == 'c'),
            "the changed row was put"
        );
    }

    /// A snapshot's row stops at its last cell that is not blank: a short line over a long one
    /// leaves blanks past its text in the frame, in `window-style`'s colours where one is set,
    /// as the screen's own full row does.
    #[test]
    fn a_short_row_over_a_long_one_leaves_blanks_past_its_text() {
        let styled = Pen {
            bg: Color::Indexed(4),
            ..Pen::default()
        };
        for style in [None, Some(styled)] {
            let mut screen = Screen::new(12, 3);
            screen.feed(b"a long line!\r\nsecond");
            let rect = Rect {
                col: 1,
                row: 0,
                cols: 12,
                rows: 3,
            };
            let mut both = BothWays::new((14, 3), rect, style.clone());
            both.put(&screen, 0);
            let since = screen.seqno();
            screen.feed(b"\x1b[1;1H\x1b[2Kshort");
            let snapshot = both.put(&screen, since);
            assert_eq!(snapshot.changed[0].1.len(), 5, "{style:?}");
            let row = &both.via_snapshot.row(0)[1..13];
            let text: String = row.iter().map(|c| c.ch()).collect();
            assert_eq!(text, "short       ");
            let tail_bg = row[11].bg();
            assert_eq!(tail_bg, style.map_or(Color::Default, |s| s.bg));
        }
    }
}
