//! What clients draw: the session's current window, its panes and their places, and the status
//! line, published by the session task on a watch channel.

use super::SessionState;
use crate::ids::PaneId;
use crate::layout::Rect;
use crate::pane::PaneHandle;
use weft_screen_model::{Color, Pen};

/// A window as the status line shows it: its `window-status-format` (or `-current-format`)
/// expanded, and the style it is drawn in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowTab {
    /// Index (`0`-`9`, ...): what a click on the tab selects.
    pub index: u32,
    /// The expanded format, `#[style]` runs inline (`##` is a `#`).
    pub text: String,
    /// The style the tab is drawn in over `status-style` (tmux's words, `,`-joined).
    pub style: String,
    /// The current window (the list keeps it in view when it scrolls).
    pub current: bool,
}

/// What the status line shows, its formats already expanded by the session (variables, times,
/// shell commands' output); each client's renderer lays it out for its width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusLine {
    /// Row in session cells.
    pub row: u16,
    /// `status-left`, expanded.
    pub left: String,
    /// `status-right`, expanded.
    pub right: String,
    /// Windows, in index order.
    pub windows: Vec<WindowTab>,
    /// `window-status-separator`, expanded.
    pub separator: String,
    /// `status-style`: the whole line's.
    pub style: String,
    /// `status-left-style`, over `style`.
    pub left_style: String,
    /// `status-right-style`, over `style`.
    pub right_style: String,
    /// `status-justify`: where the window list goes.
    pub justify: crate::style::Align,
    /// `status-left-length`: the most columns `left` takes.
    pub left_length: usize,
    /// `status-right-length`: the most columns `right` takes.
    pub right_length: usize,
    /// The user's own `status-format[0]`, expanded, drawn in place of the line above; `None`
    /// for tmux's default, which weft draws from the parts above.
    pub first: Option<String>,
    /// The further lines (`status 2` and more): `status-format[1]`... expanded, in order.
    pub more: Vec<String>,
}

impl StatusLine {
    /// Whether `row` is one of the status lines: the first or a further one.
    pub fn covers(&self, row: u16) -> bool {
        row >= self.row && usize::from(row - self.row) <= self.more.len()
    }
}

/// What clients draw.
#[derive(Clone, Debug)]
pub struct View {
    /// Session width.
    pub cols: u16,
    /// Session height (status line included).
    pub rows: u16,
    /// The window's area.
    pub window: Rect,
    /// Visible panes and their places (session cells).
    pub panes: Vec<(PaneHandle, Rect)>,
    /// The pane with focus; `None` only before the session's first window is shown.
    pub active: Option<PaneId>,
    /// The active pane fills the window.
    pub zoomed: bool,
    /// Keys go to every pane of the window.
    pub sync_panes: bool,
    /// The configuration in force in the current window: what its clients read the
    /// session's and window's options from (`prefix`, `mouse`, `mode-keys`, ...).
    pub config: std::sync::Arc<crate::config::Config>,
    /// The status line, when on.
    pub status: Option<StatusLine>,
    /// Each pane's `pane-border-format` expanded, in the order of `panes`, when
    /// `pane-border-status` shows them; empty otherwise.
    pub border_titles: Vec<String>,
    /// The current window's name (for `#W` in prompts).
    pub window_name: String,
    /// Bumped when every client should repaint fully.
    pub generation: u64,
    /// Bumped by `refresh-client`: every client repaints its terminal from scratch, whatever
    /// the terminal shows now (something else may have written to it).
    pub repaint: u64,
    /// Bells rung so far: a client's terminal rings when this grows (once per frame however
    /// much it grew).
    pub bells: u64,
    /// The title for the user's terminal (`set-titles`), cleaned; `None` when off.
    pub title: Option<std::sync::Arc<str>>,
    /// The latest notification from a program (OSC 9, 777, 99) and its number: a client's
    /// terminal gets it when the number changes, if it takes notifications.
    pub notification: Option<(u64, std::sync::Arc<str>)>,
    /// The latest progress report (OSC 9;4), numbered likewise.
    pub progress: Option<(u64, std::sync::Arc<str>)>,
    /// `window-style` and `window-active-style`: the colours the window's other panes and its
    /// active pane show where their programs use the default ones; `None` when default.
    pub pane_styles: (Option<Pen>, Option<Pen>),
}

impl View {
    /// The colours a pane shows instead of the default ones: `window-active-style` for the
    /// active pane, `window-style` for the others (the active one too when only that is set).
    pub fn pane_style(&self, active: bool) -> Option<&Pen> {
        let (others, active_style) = &self.pane_styles;
        if active {
            active_style.as_ref().or(others.as_ref())
        } else {
            others.as_ref()
        }
    }

    /// The focused pane.
    pub fn active_pane(&self) -> Option<&PaneHandle> {
        self.panes
            .iter()
            .map(|(p, _)| p)
            .find(|p| Some(p.id()) == self.active)
    }

    /// The pane at a session cell, if any.
    pub fn pane_at(&self, col: u16, row: u16) -> Option<(&PaneHandle, Rect)> {
        self.panes
            .iter()
            .find(|(_, r)| {
                col >= r.col && col < r.col + r.cols && row >= r.row && row < r.row + r.rows
            })
            .map(|(p, r)| (p, *r))
    }
}

impl View {
    /// A view with nothing in it yet.
    pub(crate) fn empty(
        cols: u16,
        rows: u16,
        config: std::sync::Arc<crate::config::Config>,
    ) -> Self {
        View {
            cols,
            rows,
            window: Rect {
                col: 0,
                row: 0,
                cols,
                rows,
            },
            panes: Vec::new(),
            active: None,
            zoomed: false,
            sync_panes: false,
            config,
            status: None,
            border_titles: Vec::new(),
            window_name: String::new(),
            generation: 0,
            repaint: 0,
            bells: 0,
            title: None,
            notification: None,
            progress: None,
            pane_styles: (None, None),
        }
    }
}

impl SessionState {
    /// Publishes what clients draw now.
    pub fn publish_view(&mut self) {
        // Whatever waited to be shown is shown now.
        self.view_due = None;
        if self.windows.is_empty() {
            return;
        }
        let status = if let Some(row) = self.status_row() {
            Some(self.status_line(row))
        } else {
            self.status_due = None;
            None
        };
        self.watch_alerts();
        let Some(w) = self.windows.get(self.current) else {
            return;
        };
        let area = self.window_rect_of(self.current);
        let config = self.window_config(self.current);
        let offset = |r: Rect| Rect {
            col: r.col + area.col,
            row: r.row + area.row,
            ..r
        };
        let panes: Vec<(PaneHandle, Rect)> = if w.zoomed {
            self.panes
                .get(&w.active)
                .map(|p| vec![(p.clone(), area)])
                .unwrap_or_default()
        } else {
            w.layout
                .rects()
                .into_iter()
                .filter_map(|(id, r)| self.panes.get(&id).map(|p| (p.clone(), offset(r))))
                .collect()
        };
        let border_titles =
            if config.pane_border_status != crate::config::BorderStatus::Off && !w.zoomed {
                let format = config
                    .option_value("pane-border-format")
                    .unwrap_or_default();
                panes
                    .iter()
                    .map(|(p, _)| {
                        crate::format::expand(&format, &self.format_context(self.current, p.id()))
                    })
                    .collect()
            } else {
                Vec::new()
            };
        let view = View {
            cols: self.cols,
            rows: self.rows,
            window: area,
            panes,
            border_titles,
            active: Some(w.active),
            zoomed: w.zoomed,
            sync_panes: config.option_value("synchronize-panes").as_deref() == Some("on"),
            status,
            window_name: w.name.clone(),
            generation: self.generation,
            repaint: self.repaint,
            bells: self.bells,
            title: self.terminal_title(),
            notification: self.notification.clone(),
            progress: self.progress.clone(),
            pane_styles: (
                colours_of(config.option_value("window-style")),
                colours_of(config.option_value("window-active-style")),
            ),
            config,
        };
        self.view.send_replace(view);
    }
}

/// A pane style option's colours, or `None` when it leaves both at the default (`default`,
/// unset, or a style weft cannot read).
fn colours_of(style: Option<String>) -> Option<Pen> {
    let pen = crate::style::pen_or(&style?, &Pen::default());
    (pen.fg != Color::Default || pen.bg != Color::Default).then_some(pen)
}
