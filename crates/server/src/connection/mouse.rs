//! The mouse: a click focuses a pane, a drag on a border resizes, the wheel and drags go to
//! copy mode (`select`), and programs that asked for mouse reports get them in their own
//! coordinates.

use super::ui::ClientLoop;
use crate::ids::PaneId;
use crate::keys::MouseEvent;
use crate::layout::{Rect, Side};
use crate::pane::PaneHandle;
use bytes::Bytes;
use std::sync::atomic::Ordering;

/// A border being dragged: the pane whose right/bottom edge it is, and the last position.
pub(super) struct Drag {
    pane: PaneId,
    horizontal: bool,
    last: u16,
}

impl ClientLoop {
    /// Runs a command the mouse stands for; a failure (the pane just closed) changes nothing.
    async fn run_words(&mut self, words: &[&str]) {
        let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        if let Ok(command) = crate::cmd::parse(&words) {
            self.run(command).await;
        }
    }

    /// A mouse event: its mouse key's binding if it has one (see `mouse_keys.rs`), else
    /// weft's own handling.
    pub(super) async fn mouse(&mut self, event: MouseEvent) -> super::ui::After {
        if !self.options().mouse {
            return super::ui::After::Continue;
        }
        match self.mouse_binding(&event).await {
            (true, after) => after,
            (false, _) => {
                self.mouse_builtin(event).await;
                super::ui::After::Continue
            }
        }
    }

    /// weft's own handling of a mouse event (also what `send-keys -M` asks for).
    pub(super) async fn mouse_builtin(&mut self, event: MouseEvent) {
        let view = self.view.borrow().clone();
        if let Some(drag) = &mut self.drag {
            if event.is_left_drag() {
                let pos = if drag.horizontal {
                    event.col
                } else {
                    event.row
                };
                if pos != drag.last {
                    let (side, cells) = if pos > drag.last {
                        (
                            if drag.horizontal {
                                Side::Right
                            } else {
                                Side::Down
                            },
                            pos - drag.last,
                        )
                    } else {
                        (
                            if drag.horizontal {
                                Side::Left
                            } else {
                                Side::Up
                            },
                            drag.last - pos,
                        )
                    };
                    let pane = drag.pane;
                    drag.last = pos;
                    let flag = match side {
                        Side::Left => "-L",
                        Side::Right => "-R",
                        Side::Up => "-U",
                        Side::Down => "-D",
                    };
                    self.run_words(&[
                        "resize-pane",
                        "-t",
                        &pane.to_string(),
                        flag,
                        &cells.to_string(),
                    ])
                    .await;
                }
                return;
            }
            if !event.press || event.is_left_press() {
                self.drag = None;
            }
            if !event.press {
                return;
            }
        }
        if self.select_mouse(&event).await {
            return;
        }
        // A click on a window's tab in the status line selects that window. The tabs are
        // placed for the session's width (the most recently active client's).
        if let Some(status) = view.status.as_ref().filter(|s| s.covers(event.row)) {
            if event.is_left_press() && !self.read_only && status.row == event.row {
                let cols = usize::from(view.cols);
                let col = usize::from(event.col);
                if let Some(index) = crate::render::status_window_at(status, cols, col) {
                    self.run_words(&["select-window", "-t", &format!(":{index}")])
                        .await;
                }
            }
            return;
        }
        match view.pane_at(event.col, event.row) {
            Some((pane, rect)) => {
                if event.is_left_press() && view.active != Some(pane.id()) && !self.read_only {
                    self.run_words(&["select-pane", "-t", &pane.id().to_string()])
                        .await;
                }
                // Programs that asked for mouse reports get them, in their own coordinates.
                let wants = pane.shared.mouse_reporting.load(Ordering::Relaxed);
                if let Some(up) = event.wheel() {
                    if self.wheel(pane, up, wants != 0).await {
                        return;
                    }
                }
                let input_off = pane.shared.input_off.load(Ordering::Relaxed);
                if !self.read_only && !pane.in_copy_mode() && !input_off {
                    if let Some(bytes) = report_for(pane, &event, rect) {
                        pane.send_input(bytes).await;
                    }
                }
            }
            None if event.is_left_press() && !self.read_only => {
                // On a border: find the pane whose right or bottom edge it is.
                for (pane, r) in &view.panes {
                    if event.col == r.col + r.cols
                        && event.row >= r.row
                        && event.row < r.row + r.rows
                    {
                        self.drag = Some(Drag {
                            pane: pane.id(),
                            horizontal: true,
                            last: event.col,
                        });
                        return;
                    }
                    if event.row == r.row + r.rows
                        && event.col >= r.col
                        && event.col < r.col + r.cols
                    {
                        self.drag = Some(Drag {
                            pane: pane.id(),
                            horizontal: false,
                            last: event.row,
                        });
                        return;
                    }
                }
            }
            None => {}
        }
    }
}

/// The report of `event` for the program of `pane` (placed at `rect`), in its own coordinates
/// and encoding; `None` unless it asked for reports of this kind (1000: presses, 1002: drags
/// too, 1003: all motion).
pub(super) fn report_for(pane: &PaneHandle, event: &MouseEvent, rect: Rect) -> Option<Bytes> {
    let wants = pane.shared.mouse_reporting.load(Ordering::Relaxed);
    let motion_only = event.code & 32 != 0 && event.code & 3 == 3;
    let drag = event.code & 32 != 0;
    let allowed = match wants {
        0 => false,
        1 => !drag,
        2 => !motion_only,
        _ => true,
    };
    if !allowed || !rect.contains(event.col, event.row) {
        return None;
    }
    let (col, row) = (event.col - rect.col, event.row - rect.row);
    let bytes = if pane.shared.mouse_sgr.load(Ordering::Relaxed) {
        event.encode_sgr(col, row)
    } else {
        x10_report(event, col, row)
    };
    Some(Bytes::from(bytes))
}

/// A mouse report in the X10 encoding (`CSI M b x y`, each + 32), for programs without 1006.
fn x10_report(event: &MouseEvent, col: u16, row: u16) -> Vec<u8> {
    let button = if event.press {
        event.code
    } else {
        3 | (event.code & !3)
    };
    let clamp = |v: u16| u8::try_from(v + 33).unwrap_or(255);
    vec![
        0x1b,
        b'[',
        b'M',
        u8::try_from(button + 32).unwrap_or(255),
        clamp(col),
        clamp(row),
    ]
}
