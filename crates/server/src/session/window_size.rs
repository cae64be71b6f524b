//! The session's size and its windows' areas, and the size it takes from its clients, as
//! tmux's `window-size` option says: `latest`
//! (the default: the client that typed or resized last), `smallest` or `largest` of the
//! clients that may change it (read-only clients never do), or `manual` (only
//! `resize-window` changes it).

use super::SessionState;
use crate::config::StatusPosition;
use crate::layout::Rect;

impl SessionState {
    /// A client of the session wants `cols` x `rows` (it typed, resized, attached or the one
    /// that did left): the session follows as `window-size` says.
    pub(super) fn follow_clients(&mut self, cols: u16, rows: u16, paced: bool) {
        let policy = self
            .config()
            .option_value("window-size")
            .unwrap_or_default();
        let sizes = self
            .clients
            .values()
            .filter(|c| !c.read_only)
            .map(|c| (c.cols, c.rows));
        let (cols, rows) = match policy.as_str() {
            "manual" => return,
            "smallest" => sizes.fold((cols, rows), |(c, r), (x, y)| (c.min(x), r.min(y))),
            "largest" => sizes.fold((cols, rows), |(c, r), (x, y)| (c.max(x), r.max(y))),
            _ => (cols, rows),
        };
        self.resize_to(cols, rows, paced);
    }

    /// The window area: the session minus the status line (and the pane-title row as the
    /// session's options say: a new window's).
    pub fn window_rect(&self) -> Rect {
        self.area_with(self.in_force.pane_border_status)
    }

    /// The area of the window at `wpos`, whose own options may show pane titles or not.
    pub fn window_rect_of(&self, wpos: usize) -> Rect {
        self.area_with(self.window_config(wpos).pane_border_status)
    }

    /// The rows the status lines take: `status` (1 to 5) while the session has a row
    /// to spare for the window.
    pub fn status_height(&self) -> u16 {
        self.in_force
            .status_lines()
            .min(self.rows.saturating_sub(1))
    }

    /// The first status line's row, when one shows: the others follow it.
    pub fn status_row(&self) -> Option<u16> {
        let height = self.status_height();
        (height > 0).then(|| {
            if self.in_force.status_position == StatusPosition::Top {
                0
            } else {
                self.rows - height
            }
        })
    }

    /// The window area with a pane-title row as `titles` says.
    fn area_with(&self, titles: crate::config::BorderStatus) -> Rect {
        let status = self.status_height();
        let row = if self.in_force.status_position == StatusPosition::Top {
            status
        } else {
            0
        };
        let rows = self.rows - status;
        // A row for the pane titles at the window's top or bottom, when the window has room.
        let (row, rows) = match titles {
            crate::config::BorderStatus::Top if rows > 2 => (row + 1, rows - 1),
            crate::config::BorderStatus::Bottom if rows > 2 => (row, rows - 1),
            _ => (row, rows),
        };
        Rect {
            col: 0,
            row,
            cols: self.cols,
            rows,
        }
    }

    /// Gives the session a new size; `paced` for one of a stream of client resizes, whose
    /// programs are resized at most once per interval (see `PaneHandle::resize_paced`).
    pub(super) fn resize_to(&mut self, cols: u16, rows: u16, paced: bool) {
        let (cols, rows) = (cols.max(1), rows.max(1));
        if (cols, rows) != (self.cols, self.rows) {
            self.cols = cols;
            self.rows = rows;
            for wpos in 0..self.windows.len() {
                let area = self.window_rect_of(wpos);
                self.windows[wpos].layout.resize(area.cols, area.rows);
            }
            for i in 0..self.windows.len() {
                self.resize_panes_with(i, paced);
            }
        }
        self.generation += 1;
        self.publish_view();
    }

    /// Sets the size windows have (`resize-window -x -y`): the session's size is that plus
    /// its status line and pane-title row, clamped as every size is.
    pub fn resize_windows_to(&mut self, cols: u16, rows: u16) {
        let chrome = self.rows.saturating_sub(self.window_rect().rows);
        let (cols, rows) = weft_protocol::clamp_size(cols, rows.saturating_add(chrome));
        self.resize_to(cols, rows, false);
    }
}
