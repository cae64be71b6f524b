//! Focus reports (`focus-events`): a program that enabled them (1004) gets `CSI I` when its
//! pane gains the focus and `CSI O` when it loses it, as the active pane changes, windows
//! switch, and clients attach and detach. The user's terminal's own focus changes reach the
//! active pane through the client (see `connection::ui`).

use super::SessionState;
use crate::ids::PaneId;
use std::sync::atomic::Ordering;

/// Focus gained.
pub const FOCUS_IN: &[u8] = b"\x1b[I";
/// Focus lost.
pub const FOCUS_OUT: &[u8] = b"\x1b[O";

impl SessionState {
    /// The pane with the focus: the current window's active pane while a client is attached.
    fn focused_pane(&self) -> Option<PaneId> {
        if self.clients.is_empty() {
            return None;
        }
        self.windows.get(self.current).map(|w| w.active)
    }

    /// Tells the panes whose focus changed since the last report, when `focus-events` is on
    /// and their programs asked.
    pub(super) async fn report_focus(&mut self) {
        let now = self.focused_pane();
        if now == self.focus_reported {
            return;
        }
        let before = std::mem::replace(&mut self.focus_reported, now);
        if !self.clipboard.config.borrow().focus_events {
            return;
        }
        for (pane, report) in [(before, FOCUS_OUT), (now, FOCUS_IN)] {
            let Some(handle) = pane.and_then(|p| self.panes.get(&p)) else {
                continue;
            };
            if handle.shared.focus_events.load(Ordering::Relaxed) {
                handle.send_input(bytes::Bytes::from_static(report)).await;
            }
        }
    }
}
