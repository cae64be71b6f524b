//! The idle renderer's lease. A render task that sleeps with everything drawn lends its state
//! ([`RenderCore`]) to its [`FastSlot`], naming the one pane a quiet change may draw
//! ([`FastTarget`]): whoever applies a quiet change to that pane (an echo, on the pty reader's
//! thread) draws the frame and writes it to the terminal at once, without waking the task. On a
//! machine with few cores each task switch on the echo path is a thread wake-up on another CPU.
//! The task takes its state back whenever it wakes, before anything else (see [`Lease`]).

use super::compose::{mouse_modes, put_screen};
use crate::direct::DirectWriter;
use crate::ids::PaneId;
use crate::layout::Rect;
use crate::lease::Lease;
use crate::metrics::ClientMetrics;
use crate::pane::{EchoDrawer, PaneShared};
use crate::session::View;
use bytes::Bytes;
use std::collections::HashMap;
use std::sync::Arc;
use tokio::sync::{mpsc, watch};
use weft_renderer::{Frame, Renderer};
use weft_screen_model::Screen;

/// What a render task draws with: the task's while it is awake, lent to its [`FastSlot`] while
/// it sleeps.
#[derive(Debug)]
pub(super) struct RenderCore {
    /// Turns frames into bytes; knows what the terminal shows.
    pub(super) renderer: Renderer,
    /// What the terminal should show.
    pub(super) frame: Frame,
    /// Per pane, the screen revision the frame shows.
    pub(super) seen: HashMap<PaneId, u64>,
    /// While lent: the pane a quiet change may draw at once, and how. `None` while the task has
    /// the core.
    pub(super) fast: Option<FastTarget>,
    /// When the last frame drawn through the slot since the task last had the core was
    /// written.
    pub(super) lent_frame_at: Option<std::time::Instant>,
    /// The bytes of a frame drawn through the slot, kept so an echo allocates nothing.
    fast_bytes: Vec<u8>,
}

impl RenderCore {
    /// A core for a terminal of `cols` x `rows` that understands `caps`, whose first frame
    /// repaints everything.
    pub(super) fn new(cols: u16, rows: u16, caps: weft_renderer::TerminalCaps) -> Box<Self> {
        Box::new(RenderCore {
            renderer: Renderer::with_caps(caps),
            frame: Frame::new(usize::from(cols), usize::from(rows)),
            seen: HashMap::new(),
            fast: None,
            lent_frame_at: None,
            fast_bytes: Vec::new(),
        })
    }

    /// Draws pane `shared`'s quiet change from `screen` if this core is lent for that pane, the
    /// view is unchanged and nothing is queued for the terminal; see [`EchoDrawer::try_draw`].
    fn draw_echo(&mut self, shared: &PaneShared, screen: &Screen) -> bool {
        let Some(target) = self.fast.as_ref() else {
            return false;
        };
        if target.pane != shared.id
            || target.view.has_changed().unwrap_or(true)
            || !target.tty.is_idle()
        {
            return false;
        }
        let m = &target.metrics;
        m.render.idle_ends();
        let started = crate::metrics::Tick::now();
        let since = self.seen.get(&shared.id).copied().unwrap_or(0);
        // Straight from the screen: no snapshot to allocate, fill and drop on an echo.
        put_screen(
            &mut self.frame,
            screen,
            since,
            target.rect,
            target.style.as_ref(),
        );
        if target.mouse {
            mouse_modes(&mut self.frame);
        }
        self.seen.insert(shared.id, screen.seqno());
        let mut bytes = std::mem::take(&mut self.fast_bytes);
        self.renderer.render_into(&mut self.frame, &mut bytes);
        self.lent_frame_at = Some(std::time::Instant::now());
        m.render.busy_since(started);
        let len = bytes.len();
        if len == 0 {
            self.fast_bytes = bytes;
            return true;
        }
        m.render.item(len);
        m.write.idle_ends();
        // Timed before the write: a key that the written echo prompts (typed by a program
        // watching the terminal) must not have its clock stopped by this frame.
        shared.metrics.shown(m);
        let writing = crate::metrics::Tick::now();
        // Nothing was queued (checked above), so the writer's channel is empty; if the rest
        // cannot go there after all, the next frame repaints everything.
        let mut refused = false;
        let whole = target.tty.write_slice_or_queue(&bytes, |rest| {
            refused = target.frames.try_send(rest).is_err();
            !refused
        });
        if bytes.capacity() <= weft_renderer::KEPT_SCRATCH_BYTES {
            self.fast_bytes = bytes;
        }
        if whole {
            m.write.busy_since(writing);
        }
        if refused {
            self.renderer.invalidate();
        }
        m.write.item(len);
        tracing::trace!(bytes = len, "frame drawn by the pane");
        shared.priority.shown(shared.id);
        crate::memory::start_is_over();
        true
    }
}

/// The one pane an idle renderer lets others draw, and how.
#[derive(Debug)]
pub(super) struct FastTarget {
    /// The focused pane.
    pub(super) pane: PaneId,
    /// Its place in the frame.
    pub(super) rect: Rect,
    /// weft handles the mouse (see [`mouse_modes`]).
    pub(super) mouse: bool,
    /// `window-active-style`'s colours for the program's default ones, when set.
    pub(super) style: Option<weft_screen_model::Pen>,
    /// The client's terminal; frames go straight to it.
    pub(super) tty: Arc<DirectWriter>,
    /// The connection writer's channel, for what the terminal does not take at once.
    pub(super) frames: mpsc::Sender<Bytes>,
    /// The view the target was taken from: a change to it means the target may be stale.
    pub(super) view: watch::Receiver<View>,
    /// The client's figures.
    pub(super) metrics: Arc<ClientMetrics>,
}

/// An idle render task's [`RenderCore`], lent to the threads that apply its panes' output
/// (see the module's documentation). Panes hold it weakly, as an [`EchoDrawer`].
#[derive(Debug, Default)]
pub(crate) struct FastSlot {
    core: Lease<Box<RenderCore>>,
}

impl FastSlot {
    /// Lends `core` (its `fast` says what it may draw) until [`FastSlot::take_back`]. The
    /// render task only, as it goes to sleep.
    pub(super) fn lend(&self, core: Box<RenderCore>) {
        self.core.lend(core);
    }

    /// The lent core, once no pane is drawing with it; `None` if a pane panicked while drawing
    /// (the core is lost). The render task only, as it wakes.
    pub(super) fn take_back(&self) -> Option<Box<RenderCore>> {
        self.core.take_back()
    }
}

impl EchoDrawer for FastSlot {
    /// Draws pane `shared`'s quiet change from `screen` (locked by the caller) if the renderer
    /// is asleep and lent its core for that pane, the view is unchanged and nothing is queued
    /// for the terminal. Never waits: when the render task is awake, taking its core back, or
    /// another pane is drawing, this returns false at once. False: the caller wakes the render
    /// task instead.
    fn try_draw(&self, shared: &PaneShared, screen: &Screen) -> bool {
        self.core
            .try_use(|core| core.draw_echo(shared, screen))
            .unwrap_or(false)
    }
}
