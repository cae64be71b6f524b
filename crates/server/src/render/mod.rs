//! One client's render task: waits for pane changes, renders on the pacer's deadline, and
//! writes what changed to the client's terminal (directly when nothing is queued for it, else
//! through a channel of one to the connection's writer: a slow client skips frames, and its
//! next frame covers everything it missed). It composes panes (`compose`), borders, the
//! status line and the client's own overlays (`chrome`) into one frame (`scene`). While it
//! sleeps with everything drawn it lends its state to the panes' threads, which draw an echo at
//! once (`fast`).
//!
//! The task is a loop: wait for the next wake-up, take the lent state back, handle what woke
//! it. When to render is the [`weft_renderer::FramePacer`]'s decision; the loop only waits for
//! the deadline it gives and draws what it says.

mod alerts;
mod chrome;
pub mod clock;
pub use chrome::status_window_at;
mod compose;
mod fast;
mod menu;
pub use menu::{layout as menu_layout, MenuRow, MenuView};
mod overlay;
pub use overlay::Overlay;
mod passthrough;
mod popup;
pub use popup::{fitted as popup_fitted, inner_of as popup_inner, PopupView};
mod scene;
pub mod status;

use crate::config::Config;
use crate::deadline::Deadline;
use crate::direct::DirectWriter;
use crate::ids::PaneId;
use crate::metrics::ClientMetrics;
use crate::pane::EchoDrawer;
use crate::session::{StatusLine, View};
use bytes::Bytes;
use fast::{FastSlot, FastTarget, RenderCore};
use scene::{now, send, Scene};
use std::ops::ControlFlow;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch, Notify};
use tokio::time::Instant;
use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};
use weft_renderer::{FocusedChange, Frame, TerminalCaps};

/// Finished frames waiting for the connection's writer: one, so the renderer never runs ahead
/// of a slow client; it renders again only when that frame is gone.
pub const FRAME_CAPACITY: usize = 1;
/// Requests to a renderer (client resize, redraw, overlays) waiting to be handled.
pub const RENDER_CONTROL_CAPACITY: usize = 8;
pub use passthrough::MAX_PASSTHROUGH_BYTES;

/// Requests to a client's renderer.
#[derive(Debug)]
pub enum RenderControl {
    /// The client's terminal changed size.
    Resize {
        /// Columns.
        cols: u16,
        /// Rows.
        rows: u16,
    },
    /// Repaint everything.
    Redraw,
    /// Show or hide an overlay.
    Overlay(Option<Overlay>),
    /// Bytes for the client's terminal itself (an OSC 52 clipboard write), written in order
    /// with the frames: just before the next one, which is due at once. At most
    /// [`MAX_PASSTHROUGH_BYTES`] wait; beyond that the oldest are dropped.
    Passthrough(Bytes),
    /// weft's own set-up of the terminal (kitty keys, colour-scheme reports, the colour
    /// queries after a scheme change), written before the next frame as
    /// [`RenderControl::Passthrough`] is, but never dropped for it.
    TerminalSetup(&'static [u8]),
    /// Draw another session's view from now on (`switch-client`).
    View(watch::Receiver<View>),
    /// The terminal turned out to understand this (its answers come after the first frame):
    /// what was drawn as less than it is, or with what the terminal lacks, is drawn again.
    Caps(TerminalCaps),
    /// The terminal reported its background: dark (`Some(true)`), light or unknown. Chrome
    /// is drawn again in the theme it picks (see `crate::theme`).
    Background(Option<bool>),
    /// Show this popup over everything from now on (`display-popup`), or none.
    Popup(Option<Box<PopupView>>),
}

/// The render task's inputs.
pub struct RenderTask {
    /// The client's terminal size.
    pub cols: u16,
    /// See `cols`.
    pub rows: u16,
    /// What to draw.
    pub view: watch::Receiver<View>,
    /// Settings (mouse, the frame interval, ...), followed as `source-file` changes them.
    pub config: watch::Receiver<Arc<Config>>,
    /// Where frames go.
    pub frames: mpsc::Sender<Bytes>,
    /// Resize, redraw and overlay requests.
    pub control: mpsc::Receiver<RenderControl>,
    /// Ends the task.
    pub stop: CancellationToken,
    /// Figures for `weft diag`.
    pub metrics: Arc<ClientMetrics>,
    /// The client's terminal, when it was handed over: frames are written to it here when
    /// nothing is queued for the connection's writer (one hop less for an echo).
    pub direct: Option<Arc<DirectWriter>>,
    /// What the client's terminal understands (colour depth, synchronized output).
    pub caps: TerminalCaps,
    /// The client's terminal background is dark (`Some(true)`), light or unknown: picks the
    /// chrome's theme under `theme auto`.
    pub dark_background: Option<bool>,
}

impl RenderTask {
    /// Runs until stopped.
    pub async fn run(self) {
        let (mut task, mut core) = RenderLoop::new(self);
        task.metrics.render.idle_starts();
        loop {
            task.follow_view(&mut core);
            task.arm_timers();
            // Idle with everything drawn: lend the core for echoes of the focused pane, and
            // take it back on waking, before anything else.
            let wake = match task.fast_target(&core) {
                Some(target) => {
                    core.fast = Some(target);
                    task.fast.lend(core);
                    let wake = task.wait().await;
                    core = task.take_back();
                    wake
                }
                None => task.wait().await,
            };
            match wake {
                Wake::Stop | Wake::Control(None) => break,
                // Taken in by `follow_view` at the top of the loop.
                Wake::View => {}
                Wake::ViewClosed => task.view_open = false,
                Wake::Config(Ok(())) => task.on_config(),
                Wake::Config(Err(_)) => task.config_open = false,
                Wake::PaneChanged => task.on_pane_change(),
                Wake::Control(Some(control)) => task.on_control(&mut core, control),
                Wake::Due => {
                    if task.on_due(&mut core).await.is_break() {
                        break;
                    }
                }
            }
        }
        task.farewell(&mut core).await;
    }
}

/// What woke the render task.
enum Wake {
    /// Stopped, or the session is gone.
    Stop,
    /// The view changed.
    View,
    /// The session behind the view ended; the client may be moving to another (a new
    /// `RenderControl::View` follows) or be told to leave (the stop follows).
    ViewClosed,
    /// The settings changed (`Ok`), or can no longer change (`Err`: the server is ending).
    Config(Result<(), watch::error::RecvError>),
    /// A watched pane changed.
    PaneChanged,
    /// A request from the connection; `None`: the connection is gone.
    Control(Option<RenderControl>),
    /// The pacer's deadline: a frame is due.
    Due,
}

/// A render task's state between wake-ups. Its [`RenderCore`] is kept apart (passed to the
/// methods that draw), since it is lent while the task sleeps.
struct RenderLoop {
    /// The client's terminal size.
    cols: u16,
    /// See `cols`.
    rows: u16,
    /// What to draw.
    view: watch::Receiver<View>,
    /// Settings.
    config: watch::Receiver<Arc<Config>>,
    /// The settings can still change (their sender is alive).
    config_open: bool,
    /// The view's session is alive (its watch can still change).
    view_open: bool,
    /// Where frames go when the terminal does not take them at once.
    frames: mpsc::Sender<Bytes>,
    /// Requests from the connection.
    control: mpsc::Receiver<RenderControl>,
    /// Resolves when the task is to stop; registered once, not on every turn (see
    /// `pane::read_pty`).
    stopped: Pin<Box<WaitForCancellationFutureOwned>>,
    /// Figures for `weft diag`.
    metrics: Arc<ClientMetrics>,
    /// The client's terminal, when it was handed over.
    direct: Option<Arc<DirectWriter>>,
    /// What the client's terminal understands.
    caps: TerminalCaps,
    /// See [`RenderTask::dark_background`].
    dark_background: Option<bool>,
    /// Woken by the watched panes on change.
    notify: Arc<Notify>,
    /// Where the core is lent while the task sleeps.
    fast: Arc<FastSlot>,
    /// When the next frame is due, and what it draws besides pane changes.
    scene: Scene,
    /// Panes told to wake this task.
    watched: Vec<PaneId>,
    /// The view's generation the frame was made for.
    generation: u64,
    /// The view's repaint count the terminal was last repainted for.
    repaint: u64,
    /// The status line last drawn (the session expands it again when its clock turns).
    last_status: Option<StatusLine>,
    /// The pane titles last drawn in the borders.
    last_border_titles: Vec<String>,
    /// The active pane and the pane styles the panes were last drawn with: with a style set,
    /// a change of focus recolours two panes.
    last_styled: (
        Option<PaneId>,
        (
            Option<weft_screen_model::Pen>,
            Option<weft_screen_model::Pen>,
        ),
    ),
    /// The focused pane's revision at the last pane wake-up.
    focused_seq: u64,
    /// The timer behind the pacer's deadline, kept across turns of the loop.
    frame_timer: Deadline,
    /// Bytes for the terminal before the next frame (see [`RenderControl::Passthrough`]).
    passthrough: passthrough::Pending,
    /// The bell, title and notification the terminal was last sent.
    alerts: alerts::AlertsSent,
}

impl RenderLoop {
    /// The loop's state for `task`, and the core it draws with; the first frame is due at once.
    fn new(task: RenderTask) -> (Self, Box<RenderCore>) {
        let interval = task.config.borrow().frame_interval;
        task.metrics
            .frame_interval_ms
            .store(millis(interval), Ordering::Relaxed);
        let core = RenderCore::new(task.cols, task.rows, task.caps);
        let state = RenderLoop {
            cols: task.cols,
            rows: task.rows,
            view: task.view,
            config: task.config,
            config_open: true,
            view_open: true,
            frames: task.frames,
            control: task.control,
            stopped: Box::pin(task.stop.cancelled_owned()),
            metrics: task.metrics,
            direct: task.direct,
            caps: task.caps,
            dark_background: task.dark_background,
            notify: Arc::new(Notify::new()),
            fast: Arc::new(FastSlot::default()),
            scene: Scene::new(interval),
            watched: Vec::new(),
            generation: u64::MAX,
            repaint: 0,
            last_status: None,
            last_border_titles: Vec::new(),
            last_styled: (None, (None, None)),
            focused_seq: 0,
            frame_timer: Deadline::new(),
            passthrough: passthrough::Pending::default(),
            alerts: alerts::AlertsSent::default(),
        };
        (state, core)
    }

    /// Takes in the view: a new layout or status line is drawn afresh, a repaint request
    /// repaints the terminal, new panes are watched.
    fn follow_view(&mut self, core: &mut RenderCore) {
        let view = self.view.borrow_and_update();
        if view.status != self.last_status {
            self.last_status = view.status.clone();
            self.scene.chrome_changed();
        }
        if view.border_titles != self.last_border_titles {
            self.last_border_titles.clone_from(&view.border_titles);
            self.scene.chrome_changed();
        }
        if view.active != self.last_styled.0 || view.pane_styles != self.last_styled.1 {
            let styles_on =
                |(others, active): &(Option<_>, Option<_>)| others.is_some() || active.is_some();
            if styles_on(&view.pane_styles) || styles_on(&self.last_styled.1) {
                // The panes' colours changed: draw them again.
                core.seen.clear();
                self.scene.redraw_now();
            }
            self.last_styled = (view.active, view.pane_styles.clone());
        }
        if self.alerts.pending(&view) {
            // Sent with the next frame (see `alerts.rs`).
            self.scene.redraw_now();
        }
        if view.generation != self.generation {
            self.generation = view.generation;
            core.seen.clear();
            core.frame = Frame::new(usize::from(self.cols), usize::from(self.rows));
            self.scene.chrome_changed();
        }
        if view.repaint != self.repaint {
            self.repaint = view.repaint;
            core.renderer.invalidate();
            self.scene.chrome_changed();
        }
        for (pane, _) in &view.panes {
            if !self.watched.contains(&pane.id()) {
                let drawer = Arc::downgrade(&self.fast) as std::sync::Weak<dyn EchoDrawer>;
                pane.watch_with(&self.notify, self.direct.is_some().then_some(drawer));
                self.watched.push(pane.id());
                self.scene.redraw_now();
            }
        }
    }

    /// Sets the timer to what the pacer wants.
    fn arm_timers(&mut self) {
        self.frame_timer
            .set(self.scene.pacer.deadline().map(Instant::from_std));
    }

    /// What an idle renderer may let a quiet change draw: the focused pane, when no frame is
    /// due, nothing is drawn over the panes, frames go straight to the terminal and every pane
    /// is drawn up to date.
    fn fast_target(&self, core: &RenderCore) -> Option<FastTarget> {
        if !self.scene.is_settled() || injected_render_delay().is_some() {
            return None;
        }
        let tty = self.direct.clone()?;
        let view = self.view.borrow();
        let (pane, rect) = view
            .panes
            .iter()
            .find(|(p, _)| view.active == Some(p.id()))?;
        let drawn = view.panes.iter().all(|(p, _)| {
            core.seen
                .get(&p.id())
                .is_some_and(|&seq| seq >= p.shared.seq.load(Ordering::Acquire))
        });
        drawn.then(|| FastTarget {
            pane: pane.id(),
            rect: *rect,
            mouse: view.config.mouse,
            style: view.pane_style(true).cloned(),
            tty,
            frames: self.frames.clone(),
            view: self.view.clone(),
            metrics: self.metrics.clone(),
        })
    }

    /// Waits for the next reason to wake.
    async fn wait(&mut self) -> Wake {
        tokio::select! {
            _ = &mut self.stopped => Wake::Stop,
            changed = self.view.changed(), if self.view_open => match changed {
                Ok(()) => Wake::View,
                Err(_) => Wake::ViewClosed,
            },
            changed = self.config.changed(), if self.config_open => Wake::Config(changed),
            _ = self.notify.notified() => Wake::PaneChanged,
            control = self.control.recv() => Wake::Control(control),
            _ = self.frame_timer.wait() => Wake::Due,
        }
    }

    /// The core back from the panes after a sleep; frames they drew count for the pace.
    fn take_back(&mut self) -> Box<RenderCore> {
        let mut core = match self.fast.take_back() {
            Some(core) => core,
            None => {
                // Only a panic while drawing loses the core: start over with a repaint.
                self.scene.chrome_changed();
                RenderCore::new(self.cols, self.rows, self.caps)
            }
        };
        core.fast = None;
        if let Some(at) = core.lent_frame_at.take() {
            self.scene.pacer.on_frame(at);
        }
        core
    }

    /// New settings: the frame interval applies from now on, and everything is drawn again.
    fn on_config(&mut self) {
        let interval = self.config.borrow().frame_interval;
        self.scene.pacer.set_interval(interval);
        self.metrics
            .frame_interval_ms
            .store(millis(interval), Ordering::Relaxed);
        self.scene.chrome_changed();
    }

    /// A watched pane changed: the pacer sets the deadline, knowing whether the focused pane
    /// changed since the last wake-up and whether its output is still coming.
    fn on_pane_change(&mut self) {
        // Keys go to the popup while it is open: its changes are the focused ones.
        let view = self.view.borrow();
        let (sync, seq, streaming) = self
            .scene
            .popup
            .as_ref()
            .map(|p| &p.pane)
            .or(view.active_pane())
            .map_or((false, 0, false), |p| {
                (
                    p.shared.sync.load(Ordering::Acquire),
                    p.shared.seq.load(Ordering::Acquire),
                    p.shared.streaming.load(Ordering::Acquire),
                )
            });
        let focused = seq != self.focused_seq;
        self.focused_seq = seq;
        let change = match (focused, streaming) {
            (false, _) => FocusedChange::None,
            (true, true) => FocusedChange::Streaming,
            (true, false) => FocusedChange::Quiet,
        };
        self.scene.pacer.on_pane_change(now(), sync, change);
    }

    /// The client is leaving: what frames set beyond its modes (the cursor's colour) is given
    /// back, before the client restores its terminal. What the terminal does not take at once
    /// is queued behind the frames (the connection takes them all as it ends).
    async fn farewell(&self, core: &mut RenderCore) {
        let bytes = core.renderer.farewell();
        if bytes.is_empty() {
            return;
        }
        let rest = match self.direct.as_deref() {
            Some(tty) => {
                let mut rest = None;
                tty.write_slice_or_queue(bytes, |b| {
                    rest = Some(b);
                    true
                });
                rest
            }
            None => Some(Bytes::from_static(bytes)),
        };
        if let Some(rest) = rest {
            let _ = self.frames.send(rest).await;
        }
    }

    /// A request from the connection.
    fn on_control(&mut self, core: &mut RenderCore, control: RenderControl) {
        match control {
            RenderControl::Resize { cols, rows } => {
                self.cols = cols.max(1);
                self.rows = rows.max(1);
                core.frame = Frame::new(usize::from(self.cols), usize::from(self.rows));
                core.seen.clear();
                self.scene.chrome_changed();
            }
            RenderControl::Redraw => {
                core.renderer.invalidate();
                self.scene.chrome_changed();
            }
            RenderControl::Background(dark) => {
                self.dark_background = dark;
                self.scene.chrome_changed();
            }
            RenderControl::Caps(caps) => {
                self.caps = caps;
                core.renderer.set_caps(caps);
                self.scene.chrome_changed();
            }
            RenderControl::Popup(popup) => {
                if let Some(p) = &popup {
                    p.pane.watch(&self.notify);
                }
                if self.scene.popup.is_some() {
                    // It covered panes, borders, perhaps the status line: draw them again.
                    core.seen.clear();
                }
                self.scene.popup = popup;
                self.scene.popup_seen = 0;
                self.scene.chrome_changed();
            }
            RenderControl::Overlay(overlay) => {
                let covers = |o: &Option<Overlay>| {
                    matches!(
                        o,
                        Some(
                            Overlay::Lines(_)
                                | Overlay::Clock { .. }
                                | Overlay::PaneNumbers { .. }
                                | Overlay::Menu(_)
                        )
                    )
                };
                if covers(&self.scene.overlay) && !covers(&overlay) {
                    // The lines or the clock covered panes: draw them again.
                    core.seen.clear();
                }
                self.scene.overlay = overlay;
                self.scene.chrome_changed();
            }
            RenderControl::View(view) => {
                // Taken in by `follow_view`: a new generation draws everything afresh. Panes
                // already watched stay watched (their ids are unique to the server).
                self.view = view;
                self.view_open = true;
                self.view.mark_changed();
                self.generation = u64::MAX;
                self.last_status = None;
                self.alerts.new_session();
                core.renderer.invalidate();
                self.scene.chrome_changed();
            }
            RenderControl::Passthrough(bytes) => {
                self.passthrough.program(bytes);
                self.scene.redraw_now();
            }
            RenderControl::TerminalSetup(sequence) => {
                self.passthrough.setup(sequence);
                self.scene.redraw_now();
            }
        }
    }

    /// A frame is due: waits for the client to take its last one, then draws and sends this
    /// one. Breaks when the task is to stop.
    async fn on_due(&mut self, core: &mut RenderCore) -> ControlFlow<()> {
        // Idle since this task's last frame or the last one drawn while it slept.
        self.metrics.render.idle_ends();
        // Wait for the client to take its last frame; changes meanwhile fold in.
        let waiting = crate::metrics::Tick::now();
        let permit = match self.frames.try_reserve() {
            Ok(p) => p,
            Err(mpsc::error::TrySendError::Closed(_)) => return ControlFlow::Break(()),
            Err(mpsc::error::TrySendError::Full(_)) => {
                self.metrics.frames_skipped.fetch_add(1, Ordering::Relaxed);
                tokio::select! {
                    _ = &mut self.stopped => return ControlFlow::Break(()),
                    permit = self.frames.reserve() => match permit {
                        Ok(p) => p,
                        Err(_) => return ControlFlow::Break(()),
                    },
                }
            }
        };
        let started = crate::metrics::Tick::now();
        self.metrics.render.blocked(started - waiting);
        let view = self.view.borrow().clone();
        // The session's and window's options (border styles, ...) over the global ones.
        let config = view.config.clone();
        let theme = crate::theme::Theme::for_terminal(&config, self.dark_background);
        self.alerts
            .queue(&view, &self.caps, self.passthrough.alerts());
        if let Some((frame, changed)) = self.scene.draw(core, &view, &config, theme).await {
            self.metrics.render.busy(started.elapsed());
            // Before the frame, in the same write: in order with everything drawn.
            let bytes = self.passthrough.before(frame);
            if !bytes.is_empty() {
                send(
                    &self.metrics,
                    self.direct.as_deref(),
                    permit,
                    bytes,
                    &changed,
                );
            }
        }
        self.metrics.render.idle_starts();
        ControlFlow::Continue(())
    }
}

/// `d` in whole milliseconds, for figures.
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// A delay added before each frame when `WEFT_DIAG_RENDER_DELAY_MS` is set: a slow stage on
/// purpose, to see (and test) how `weft diag` and traces report one.
async fn render_delay() {
    if let Some(d) = injected_render_delay() {
        tokio::time::sleep(d).await; // deadline-ok: an injected delay, off unless asked for
    }
}

/// The delay `WEFT_DIAG_RENDER_DELAY_MS` asks for. With one, every frame comes from the render
/// task (none through its [`FastSlot`]), so the slow stage shows where it is.
fn injected_render_delay() -> Option<Duration> {
    static DELAY: std::sync::OnceLock<Option<Duration>> = std::sync::OnceLock::new();
    *DELAY.get_or_init(|| {
        std::env::var("WEFT_DIAG_RENDER_DELAY_MS")
            .ok()
            .and_then(|v| v.parse().ok())
            .map(Duration::from_millis)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first frame and each request are drawn at once; new settings change the frame
    /// interval in force; a repaint asked through the view repaints the terminal.
    #[tokio::test(start_paused = true)]
    async fn the_loop_draws_at_once_and_follows_the_settings() {
        let (view_tx, view) = watch::channel(View::empty(20, 4, Arc::default()));
        let (config_tx, config) = watch::channel(Arc::new(Config::default()));
        let (frames, mut frames_rx) = mpsc::channel(FRAME_CAPACITY);
        let (control_tx, control) = mpsc::channel(RENDER_CONTROL_CAPACITY);
        let stop = CancellationToken::new();
        let metrics = Arc::new(ClientMetrics::default());
        let task = tokio::spawn(
            RenderTask {
                cols: 20,
                rows: 4,
                view,
                config,
                frames,
                control,
                stop: stop.clone(),
                metrics: metrics.clone(),
                direct: None,
                caps: TerminalCaps::default(),
                dark_background: None,
            }
            .run(),
        );
        let start = Instant::now();
        let first = frames_rx.recv().await.unwrap();
        assert!(first.windows(4).any(|w| w == b"\x1b[2J"), "a full repaint");
        assert_eq!(metrics.frame_interval_ms.load(Ordering::Relaxed), 8);

        let config = Config {
            frame_interval: Duration::from_millis(40),
            ..Config::default()
        };
        config_tx.send(Arc::new(config)).unwrap();
        while metrics.frame_interval_ms.load(Ordering::Relaxed) != 40 {
            tokio::task::yield_now().await;
        }

        let message = Overlay::Message("hello".into());
        control_tx
            .send(RenderControl::Overlay(Some(message)))
            .await
            .unwrap();
        let frame = frames_rx.recv().await.unwrap();
        assert!(frame.windows(5).any(|w| w == b"hello"));
        assert!(
            !frame.windows(4).any(|w| w == b"\x1b[2J"),
            "only the change"
        );

        view_tx.send_modify(|v| v.repaint += 1);
        let frame = frames_rx.recv().await.unwrap();
        assert!(frame.windows(4).any(|w| w == b"\x1b[2J"), "a full repaint");
        assert!(frame.windows(5).any(|w| w == b"hello"), "of everything");
        assert_eq!(Instant::now(), start, "every frame at once");

        // Bytes for the terminal itself come before the next frame, which is due at once.
        let osc = Bytes::from_static(b"\x1b]52;c;aGk=\x07");
        control_tx
            .send(RenderControl::Passthrough(osc.clone()))
            .await
            .unwrap();
        let frame = frames_rx.recv().await.unwrap();
        assert!(frame.starts_with(&osc), "{frame:?}");
        assert_eq!(Instant::now(), start, "at once");

        stop.cancel();
        task.await.unwrap();
    }
}
