//! Drawing a due frame: what it shows besides pane changes and when it is due ([`Scene`]),
//! and sending its bytes to the client.

use super::chrome::draw_chrome;
use super::compose::{compose, has_undrawn_changes, shows_every_pane};
use super::fast::RenderCore;
use super::{render_delay, Overlay};
use crate::config::Config;
use crate::direct::DirectWriter;
use crate::metrics::ClientMetrics;
use crate::pane::PaneHandle;
use crate::session::View;
use crate::theme::Theme;
use bytes::Bytes;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::time::Instant;
use weft_renderer::{FramePacer, FrameScope};

/// What the next frame draws besides pane changes, and when it is due.
pub(super) struct Scene {
    /// When the next frame is due, and whether it may draw the focused pane alone.
    pub(super) pacer: FramePacer,
    /// What is drawn over the session for this client.
    pub(super) overlay: Option<Overlay>,
    /// This client's popup, drawn over everything.
    pub(super) popup: Option<Box<super::PopupView>>,
    /// The popup's screen revision last drawn: a newer one counts as shown (the keystroke
    /// clock, the echo priority).
    pub(super) popup_seen: u64,
    /// Borders and the status line need drawing.
    chrome_dirty: bool,
}

impl Scene {
    /// Paced by `interval`; the first frame, drawing everything, is due at once.
    pub(super) fn new(interval: Duration) -> Self {
        let mut scene = Scene {
            pacer: FramePacer::new(interval),
            overlay: None,
            popup: None,
            popup_seen: 0,
            chrome_dirty: true,
        };
        scene.redraw_now();
        scene
    }

    /// Something besides pane output changed: a frame drawing everything is due at once.
    pub(super) fn redraw_now(&mut self) {
        self.pacer.redraw_now(now());
    }

    /// Borders or the status line changed: they are drawn in a frame due at once.
    pub(super) fn chrome_changed(&mut self) {
        self.chrome_dirty = true;
        self.redraw_now();
    }

    /// No frame is due and nothing is drawn over the panes: panes may draw their echoes.
    pub(super) fn is_settled(&self) -> bool {
        self.pacer.deadline().is_none()
            && self.overlay.is_none()
            && self.popup.is_none()
            && !self.chrome_dirty
    }

    /// Composes and renders the due frame: the bytes that bring the terminal up to date, and
    /// the panes whose changes they show. `None` when a pane went away mid-way (the view is
    /// about to change); the frame stays due, drawing everything.
    pub(super) async fn draw(
        &mut self,
        core: &mut RenderCore,
        view: &View,
        config: &Config,
        theme: Theme,
    ) -> Option<(Vec<u8>, Vec<PaneHandle>)> {
        let scope = self.pacer.scope();
        debug_assert!(
            scope == FrameScope::Everything || !self.chrome_dirty,
            "a chrome change asks the pacer for a whole frame"
        );
        // A frame of the focused pane alone needs every other pane in the frame already.
        let only = view
            .active
            .filter(|_| scope == FrameScope::FocusedPane && shows_every_pane(view, &core.seen));
        let Some(mut changed) = compose(view, &mut core.frame, &mut core.seen, only).await else {
            self.redraw_now();
            return None;
        };
        draw_chrome(
            view,
            &mut core.frame,
            self.overlay.as_ref(),
            config,
            theme,
            self.chrome_dirty,
        );
        self.chrome_dirty = false;
        if let Some(popup) = &self.popup {
            let seq = super::popup::draw(&mut core.frame, popup, (view.cols, view.rows)).await;
            if seq > self.popup_seen {
                self.popup_seen = seq;
                changed.push(popup.pane.clone());
            }
            if config.mouse {
                super::compose::mouse_modes(&mut core.frame);
            }
        }
        render_delay().await;
        let bytes = core.renderer.render(&mut core.frame);
        if only.is_some() {
            let left_out = has_undrawn_changes(view, &core.seen);
            self.pacer.on_focused_frame(now(), left_out);
        } else {
            self.pacer.on_frame(now());
        }
        Some((bytes, changed))
    }
}

/// Writes a frame to the client's terminal `direct`, or what it did not take (or the whole
/// frame, without a terminal) to the connection's writer through `permit`.
pub(super) fn send(
    metrics: &ClientMetrics,
    direct: Option<&DirectWriter>,
    permit: mpsc::Permit<'_, Bytes>,
    bytes: Vec<u8>,
    changed: &[PaneHandle],
) {
    let len = bytes.len();
    metrics.render.item(len);
    tracing::trace!(bytes = len, panes = changed.len(), "frame");
    let bytes = Bytes::from(bytes);
    // Before the write, as on the echo path (`fast`).
    for pane in changed {
        pane.shared.metrics.shown(metrics);
    }
    match direct {
        Some(tty) => {
            metrics.write.idle_ends();
            let writing = crate::metrics::Tick::now();
            let whole = tty.write_or_queue_into(bytes, permit);
            // Written whole: the writer's stage, done here.
            if whole {
                metrics.write.busy_since(writing);
                metrics.write.item(len);
                tracing::trace!(bytes = len, "client write");
            }
        }
        None => permit.send(bytes),
    }
    for pane in changed {
        pane.shared.priority.shown(pane.id());
    }
    if !changed.is_empty() {
        crate::memory::start_is_over();
    }
}

/// Now, for the pacer: the runtime's clock (paused in tests), as the timers use it.
pub(super) fn now() -> std::time::Instant {
    Instant::now().into_std()
}
