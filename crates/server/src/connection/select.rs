//! The mouse in copy mode: the wheel scrolls a pane's history (entering copy mode, leaving at
//! the bottom), a drag selects and copies on release, a double click copies a word and a
//! triple click a line. Only for panes whose program did not ask for the mouse itself.

use super::ui::ClientLoop;
use crate::cmd::copy::{copied, run_copy_command};
use crate::copy::Outcome;
use crate::ids::PaneId;
use crate::keys::MouseEvent;
use crate::layout::Rect;
use crate::pane::{MouseSelect, PaneHandle};
use std::time::{Duration, Instant};

/// Lines one wheel step scrolls.
const WHEEL_LINES: usize = 3;
/// Presses this close together at one place make a double or triple click.
const MULTI_CLICK: Duration = Duration::from_millis(400);

/// A press that may become a selection.
pub(super) struct Selecting {
    pane: PaneId,
    row: usize,
    col: usize,
    /// A drag has begun the selection.
    dragged: bool,
    /// The pane was in copy mode before the press (else it leaves after copying).
    was_in_mode: bool,
}

/// The last press, to count clicks.
#[derive(Clone, Copy)]
pub(super) struct LastClick {
    at: Instant,
    col: u16,
    row: u16,
    count: u8,
}

impl ClientLoop {
    /// The wheel over `pane`: scrolls its history in copy mode. False when the pane's program
    /// takes the wheel itself.
    pub(super) async fn wheel(&mut self, pane: &PaneHandle, up: bool, program_wants: bool) -> bool {
        let in_mode = pane.in_copy_mode();
        if !in_mode
            && (program_wants
                || pane
                    .shared
                    .alternate_screen
                    .load(std::sync::atomic::Ordering::Relaxed))
        {
            return false;
        }
        if self.read_only {
            return true;
        }
        if up {
            if !in_mode {
                let settings = crate::cmd::copy::copy_settings(&self.options());
                pane.enter_copy_mode(&settings, true);
            }
            let _ = run_copy_command(pane, &self.ctx, "scroll-up", &[], WHEEL_LINES).await;
        } else if in_mode {
            let _ = run_copy_command(pane, &self.ctx, "scroll-down", &[], WHEEL_LINES).await;
        }
        true
    }

    /// `copy-mode -M` in a mouse key's binding: the pane under the mouse selects from where
    /// the drag is (entering copy mode), whatever its program asked of the mouse, as tmux's
    /// drag start; the binding's further drags extend the selection and the release copies.
    pub(super) async fn copy_mode_mouse(&mut self) {
        let Some((event, pane)) = self.mouse_keys.event() else {
            self.message(
                "copy-mode -M: there is no mouse event here; use it in a mouse key's binding"
                    .to_string(),
            )
            .await;
            return;
        };
        let view = self.view.borrow().clone();
        let Some(rect) = view
            .panes
            .iter()
            .find(|(p, _)| p.id() == pane.id())
            .map(|(_, r)| *r)
        else {
            return;
        };
        if self.selecting.as_ref().is_none_or(|s| s.pane != pane.id()) {
            let (row, col) = inside(&event, rect);
            self.selecting = Some(Selecting {
                pane: pane.id(),
                row,
                col,
                dragged: false,
                was_in_mode: pane.in_copy_mode(),
            });
        }
        self.select_mouse(&event).await;
    }

    /// A left press, drag or release for copy-mode selection; true when it was taken.
    pub(super) async fn select_mouse(&mut self, event: &MouseEvent) -> bool {
        if self.read_only {
            return false;
        }
        let view = self.view.borrow().clone();
        if let Some(selecting) = &self.selecting {
            let Some((pane, rect)) = view.panes.iter().find(|(p, _)| p.id() == selecting.pane)
            else {
                self.selecting = None;
                return false;
            };
            let (pane, rect) = (pane.clone(), *rect);
            if event.is_left_drag() {
                let (row, col) = inside(event, rect);
                if !selecting.dragged {
                    let (r, c) = (selecting.row, selecting.col);
                    if !pane.in_copy_mode() {
                        let settings = crate::cmd::copy::copy_settings(&self.options());
                        pane.enter_copy_mode(&settings, false);
                    }
                    pane.copy_select_at(r, c, MouseSelect::Start);
                    if let Some(s) = self.selecting.as_mut() {
                        s.dragged = true;
                    }
                }
                pane.copy_select_at(row, col, MouseSelect::Extend);
                return true;
            }
            if !event.press {
                let selecting = self.selecting.take();
                if selecting.as_ref().is_some_and(|s| s.dragged) {
                    self.copy_and_finish(&pane, selecting.is_some_and(|s| s.was_in_mode))
                        .await;
                    return true;
                }
                return pane.in_copy_mode();
            }
        }
        if !event.is_left_press() {
            return false;
        }
        let Some((pane, rect)) = view.pane_at(event.col, event.row) else {
            return false;
        };
        let (pane, rect) = (pane.clone(), rect);
        let in_mode = pane.in_copy_mode();
        let wants = pane
            .shared
            .mouse_reporting
            .load(std::sync::atomic::Ordering::Relaxed);
        if wants != 0 && !in_mode {
            return false;
        }
        let clicks = self.count_click(event);
        let (row, col) = inside(event, rect);
        if clicks >= 2 {
            if !in_mode {
                let settings = crate::cmd::copy::copy_settings(&self.options());
                pane.enter_copy_mode(&settings, false);
            }
            let how = if clicks == 2 {
                MouseSelect::Word
            } else {
                MouseSelect::Line
            };
            pane.copy_select_at(row, col, how);
            self.copy_and_finish(&pane, in_mode).await;
            return true;
        }
        self.selecting = Some(Selecting {
            pane: pane.id(),
            row,
            col,
            dragged: false,
            was_in_mode: in_mode,
        });
        // A plain click on a pane in copy mode moves nothing in the program.
        in_mode
    }

    /// Copies the pane's selection; leaves copy mode unless the user was in it already.
    async fn copy_and_finish(&mut self, pane: &PaneHandle, stay: bool) {
        if let Some(Outcome::Copy { text, .. }) = pane.copy_select_at(0, 0, MouseSelect::Copy) {
            copied(&self.ctx, text, false).await;
        }
        if !stay {
            pane.leave_copy_mode();
        }
    }

    /// Counts this press: 1, or 2 and 3 for a double and triple click.
    fn count_click(&mut self, event: &MouseEvent) -> u8 {
        let now = Instant::now();
        let count = match self.last_click {
            Some(last)
                if now.duration_since(last.at) <= MULTI_CLICK
                    && last.col == event.col
                    && last.row == event.row =>
            {
                last.count % 3 + 1
            }
            _ => 1,
        };
        self.last_click = Some(LastClick {
            at: now,
            col: event.col,
            row: event.row,
            count,
        });
        count
    }
}

/// The event's row and column inside `rect`, clamped to it.
fn inside(event: &MouseEvent, rect: Rect) -> (usize, usize) {
    let row = event
        .row
        .saturating_sub(rect.row)
        .min(rect.rows.saturating_sub(1));
    let col = event
        .col
        .saturating_sub(rect.col)
        .min(rect.cols.saturating_sub(1));
    (usize::from(row), usize::from(col))
}
