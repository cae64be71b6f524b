//! Swapping two panes' places (`swap-pane`), in one window or between two windows of the
//! session, with focus as tmux leaves it.

use super::SessionState;
use crate::ids::PaneId;
use crate::outcome::{CommandError, TargetKind};

impl SessionState {
    /// Swaps panes `src` and `dst`. Without `detached` (`-d`) the focus goes to `dst` in its
    /// new place (and, between windows, to `src` in `dst`'s old window); with it, each window
    /// keeps its focus on the place it had.
    pub fn swap_panes(
        &mut self,
        src: PaneId,
        dst: PaneId,
        detached: bool,
    ) -> Result<(), CommandError> {
        let place = |pane: PaneId| {
            self.window_of(pane)
                .ok_or_else(|| crate::outcome::not_found(TargetKind::Pane, pane.to_string()))
        };
        let (src_w, dst_w) = (place(src)?, place(dst)?);
        if src == dst {
            return Ok(());
        }
        if src_w == dst_w {
            let w = &mut self.windows[src_w];
            w.layout.swap(src, dst);
            let active = w.active;
            if !detached {
                self.make_active(src_w, dst);
            } else if active == src || active == dst {
                // The focus stays on its place, where the other pane now is.
                self.make_active(src_w, if active == src { dst } else { src });
            }
        } else {
            for (wpos, from, to) in [(src_w, src, dst), (dst_w, dst, src)] {
                let w = &mut self.windows[wpos];
                w.layout.replace(from, to);
                w.zoomed = false;
                for p in w.recent.iter_mut().chain(w.last_pane.as_mut()) {
                    if *p == from {
                        *p = to;
                    }
                }
                // A window whose focused pane left focuses the one that came in its place.
                if w.active == from {
                    w.active = to;
                }
            }
            if !detached {
                self.make_active(src_w, dst);
                self.make_active(dst_w, src);
            }
            // Each pane takes its new window's options.
            self.hand_options(src);
            self.hand_options(dst);
            self.resize_panes_of(dst_w);
        }
        self.resize_panes_of(src_w);
        self.generation += 1;
        Ok(())
    }

    /// Gives window `wpos`'s focus to `pane`, remembering the pane that had it.
    fn make_active(&mut self, wpos: usize, pane: PaneId) {
        let w = &mut self.windows[wpos];
        if w.active != pane {
            w.last_pane = Some(w.active);
            w.active = pane;
        }
        w.recent.retain(|p| *p != pane);
        w.recent.push(pane);
    }
}
