//! One client's render task: waits for pane changes, renders on the pacer's deadline, and hands
//! finished frames to the connection through a channel of one (a slow client skips frames; its
//! next frame covers everything it missed). It composes panes, borders, the status line and
//! the client's own overlays (prompt, messages, key list) into one frame.

use crate::config::Config;
use crate::deadline::Deadline;
use crate::pane::{EchoDrawer, PaneHandle};
use crate::session::View;
use bytes::Bytes;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, watch, Notify};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use weft_renderer::{FocusedChange, Frame, FramePacer, Renderer};
use weft_screen_model::{Attrs, Cell, CellFlags, Color, MouseEncoding, MouseTracking, Pen};

/// Finished frames waiting for the connection's writer: one, so the renderer never runs ahead
/// of a slow client; it renders again only when that frame is gone.
pub const FRAME_CAPACITY: usize = 1;
/// Requests to a renderer (client resize, redraw, overlays) waiting to be handled.
pub const RENDER_CONTROL_CAPACITY: usize = 8;

/// Something drawn over the session for this client only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// A prompt in the status line, with what was typed so far.
    Prompt {
        /// Label, e.g. `:`.
        label: String,
        /// Typed text.
        input: String,
    },
    /// A message in the status line until the next key.
    Message(String),
    /// Lines over the window (key list), until the next key.
    Lines(Vec<String>),
}

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
    /// Show pane `%id` scrolled `offset` lines into its history (0: live).
    Scroll {
        /// Pane.
        pane: u64,
        /// Lines above the live screen.
        offset: usize,
    },
}

/// Counts for diagnosis.
#[derive(Debug, Default)]
pub struct RenderStats {
    /// Frames sent.
    pub frames: u64,
    /// Changes folded into a later frame.
    pub skipped: u64,
}

/// The render task's inputs.
pub struct RenderTask {
    /// The client's terminal size.
    pub cols: u16,
    /// See `cols`.
    pub rows: u16,
    /// What to draw.
    pub view: watch::Receiver<View>,
    /// Settings (mouse, ...).
    pub config: watch::Receiver<Arc<Config>>,
    /// Where frames go.
    pub frames: mpsc::Sender<Bytes>,
    /// Resize, redraw and overlay requests.
    pub control: mpsc::Receiver<RenderControl>,
    /// Ends the task.
    pub stop: CancellationToken,
    /// Frame interval while output streams.
    pub interval: Duration,
    /// Figures for `weft diag`.
    pub metrics: Arc<crate::metrics::ClientMetrics>,
    /// The client's terminal, when it was handed over: frames are written to it here when
    /// nothing is queued for the connection's writer (one hop less for an echo).
    pub direct: Option<Arc<crate::direct::DirectWriter>>,
}

/// When the clock in the status line next changes: the next minute boundary.
fn next_minute() -> Instant {
    let now = chrono::Local::now();
    let secs = u64::from(chrono::Timelike::second(&now));
    let nanos = u64::from(chrono::Timelike::nanosecond(&now)).min(999_999_999);
    let left = Duration::from_secs(60 - secs) - Duration::from_nanos(nanos);
    Instant::now() + left + Duration::from_millis(5)
}

/// What a render task draws with: kept in the task, or lent to its [`FastSlot`] while idle.
#[derive(Debug)]
struct RenderCore {
    renderer: Renderer,
    frame: Frame,
    /// Per pane, the screen revision the frame shows.
    seen: HashMap<u64, u64>,
    /// While lent: what a quiet change may draw at once, when it is to that pane.
    fast: Option<FastTarget>,
    /// Frames drawn through the slot since the task last had the core: when the last one was
    /// written, and how many.
    lent_frames: Option<(std::time::Instant, u64)>,
    /// The bytes of a frame drawn through the slot, kept so an echo allocates nothing.
    fast_bytes: Vec<u8>,
}

impl RenderCore {
    fn new(cols: u16, rows: u16) -> Box<Self> {
        Box::new(RenderCore {
            renderer: Renderer::new(),
            frame: Frame::new(usize::from(cols), usize::from(rows)),
            seen: HashMap::new(),
            fast: None,
            lent_frames: None,
            fast_bytes: Vec::new(),
        })
    }
}

/// The one pane an idle renderer lets others draw, and how.
#[derive(Debug)]
struct FastTarget {
    pane: u64,
    rect: crate::layout::Rect,
    mouse: bool,
    /// The client's terminal; frames go straight to it.
    tty: Arc<crate::direct::DirectWriter>,
    /// The connection writer's channel, for what the terminal does not take at once.
    frames: mpsc::Sender<Bytes>,
    /// The view the target was taken from: a change to it means the target may be stale.
    view: watch::Receiver<View>,
    metrics: Arc<crate::metrics::ClientMetrics>,
}

/// An idle renderer's state, lent out so that whoever applies a quiet change to the focused
/// pane (an echo) draws the frame at once, without waking the render task: on a machine with
/// few cores each task switch on the echo path is a thread wake-up on another CPU. The render
/// task takes its state back whenever it wakes, before doing anything with it.
#[derive(Debug, Default)]
pub struct FastSlot {
    core: Mutex<Option<Box<RenderCore>>>,
}

impl FastSlot {
    fn lend(&self, core: Box<RenderCore>) {
        if let Ok(mut slot) = self.core.lock() {
            *slot = Some(core);
        }
    }

    fn take_back(&self) -> Option<Box<RenderCore>> {
        self.core.lock().ok()?.take()
    }
}

impl EchoDrawer for FastSlot {
    /// Draws pane `shared`'s quiet change from `screen` (locked by the caller) if the renderer
    /// is idle and showing that pane focused, the view is unchanged and nothing is queued for
    /// the terminal. False: the caller wakes the render task instead.
    fn try_draw(
        &self,
        shared: &crate::pane::PaneShared,
        screen: &weft_screen_model::Screen,
    ) -> bool {
        let Ok(mut slot) = self.core.try_lock() else {
            return false;
        };
        let Some(core) = slot.as_mut() else {
            return false;
        };
        let core = &mut **core;
        let Some(target) = core.fast.as_ref() else {
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
        let since = core.seen.get(&shared.id).copied().unwrap_or(0);
        // Straight from the screen: no snapshot to allocate, fill and drop on an echo.
        put_screen(&mut core.frame, screen, since, target.rect);
        if target.mouse {
            mouse_modes(&mut core.frame);
        }
        core.seen.insert(shared.id, screen.seqno());
        let mut bytes = std::mem::take(&mut core.fast_bytes);
        core.renderer.render_into(&mut core.frame, &mut bytes);
        let now = std::time::Instant::now();
        let (_, frames) = core.lent_frames.unwrap_or((now, 0));
        core.lent_frames = Some((now, frames + 1));
        m.render.busy_since(started);
        let len = bytes.len();
        if len == 0 {
            core.fast_bytes = bytes;
            return true;
        }
        m.render.item(len);
        m.write.idle_ends();
        // Timed before the write: a key that the written echo prompts (typed by a program
        // watching the terminal) must not have its clock stopped by this frame.
        shared.metrics.shown(m);
        let writing = crate::metrics::Tick::now();
        let rest = target.tty.write_slice_or_queue(&bytes);
        if bytes.capacity() <= weft_renderer::KEPT_SCRATCH_BYTES {
            core.fast_bytes = bytes;
        }
        match rest {
            None => {
                m.write.busy_since(writing);
            }
            // Nothing was queued (checked above), so the writer's channel is empty; if the
            // rest cannot go there after all, the next frame repaints everything.
            Some(rest) => {
                if target.frames.try_send(rest).is_err() {
                    core.renderer.invalidate();
                }
            }
        }
        m.write.item(len);
        tracing::trace!(bytes = len, "frame drawn by the pane");
        shared.priority.shown(shared.id);
        true
    }
}

/// What woke the render task.
enum Wake {
    Stop,
    View,
    Config,
    PaneChanged,
    Clock,
    Control(Option<RenderControl>),
    Due,
}

impl RenderTask {
    /// Runs until stopped.
    pub async fn run(mut self) -> RenderStats {
        let notify = Arc::new(Notify::new());
        let fast = Arc::new(FastSlot::default());
        // Registered once, not on every turn (see `pane::read_pty`).
        let stop = self.stop.clone();
        let stopped = stop.cancelled();
        tokio::pin!(stopped);
        let mut stats = RenderStats::default();
        let mut core = RenderCore::new(self.cols, self.rows);
        let mut pacer = FramePacer::new(self.interval);
        let mut watched: Vec<u64> = Vec::new();
        let mut generation = u64::MAX;
        let mut deadline: Option<Instant> = Some(Instant::now());
        let mut overlay: Option<Overlay> = None;
        let mut chrome_dirty = true;
        let mut clock_at: Option<Instant> = None;
        // The timers behind `deadline` and `clock_at`, kept across turns of the loop.
        let mut frame_timer = Deadline::new();
        let mut clock_timer = Deadline::new();
        let mut last_status = None;
        let mut scroll: Option<(u64, usize)> = None;
        let mut focused_seq_notified = 0u64;
        let mut focused_only = false;
        let metrics = self.metrics.clone();
        metrics.render.idle_starts();
        loop {
            {
                let view = self.view.borrow_and_update();
                if view.status != last_status {
                    last_status = view.status.clone();
                    chrome_dirty = true;
                    deadline = Some(Instant::now());
                }
                if view.generation != generation {
                    generation = view.generation;
                    core.seen.clear();
                    core.frame = Frame::new(usize::from(self.cols), usize::from(self.rows));
                    chrome_dirty = true;
                    deadline = Some(Instant::now());
                }
                for (pane, _) in &view.panes {
                    if !watched.contains(&pane.id()) {
                        let drawer = Arc::downgrade(&fast) as std::sync::Weak<dyn EchoDrawer>;
                        pane.watch_with(&notify, self.direct.is_some().then_some(drawer));
                        watched.push(pane.id());
                        deadline = Some(Instant::now());
                    }
                }
                clock_at = view
                    .status
                    .as_ref()
                    .map(|_| clock_at.unwrap_or_else(next_minute));
            }
            frame_timer.set(deadline);
            clock_timer.set(clock_at);
            // Idle with everything drawn: lend the core for echoes of the focused pane.
            let target = (deadline.is_none()
                && overlay.is_none()
                && scroll.is_none()
                && !chrome_dirty
                && !focused_only)
                .then(|| self.fast_target(&core))
                .flatten();
            let lent = target.is_some();
            if lent {
                core.fast = target;
                // A 1x1 stand-in until the core comes back: nothing draws with it.
                fast.lend(std::mem::replace(&mut core, RenderCore::new(1, 1)));
            }
            let wake = tokio::select! {
                _ = &mut stopped => Wake::Stop,
                changed = self.view.changed() => match changed {
                    Ok(()) => Wake::View,
                    Err(_) => Wake::Stop,
                },
                _ = self.config.changed() => Wake::Config,
                _ = notify.notified() => Wake::PaneChanged,
                _ = clock_timer.wait() => Wake::Clock,
                control = self.control.recv() => Wake::Control(control),
                _ = frame_timer.wait() => Wake::Due,
            };
            if lent {
                match fast.take_back() {
                    Some(back) => core = back,
                    None => {
                        // Only a panic while drawing loses the core: start over with a repaint.
                        core = RenderCore::new(self.cols, self.rows);
                        chrome_dirty = true;
                        deadline = Some(Instant::now());
                    }
                }
                core.fast = None;
                if let Some((at, frames)) = core.lent_frames.take() {
                    pacer.on_frame(at);
                    stats.frames += frames;
                }
            }
            match wake {
                Wake::Stop => break,
                Wake::View => {}
                Wake::Config => {
                    chrome_dirty = true;
                    deadline = Some(Instant::now());
                }
                Wake::PaneChanged => {
                    if deadline.is_some() {
                        stats.skipped += 1;
                    }
                    let (sync, focused_seq, streaming) =
                        self.view
                            .borrow()
                            .active_pane()
                            .map_or((false, 0, false), |p| {
                                (
                                    p.shared.sync.load(Ordering::Acquire),
                                    p.shared.seq.load(Ordering::Acquire),
                                    p.shared.streaming.load(Ordering::Acquire),
                                )
                            });
                    // The focused pane changed since the last wake-up: its echo may skip the pace.
                    let focused = focused_seq != focused_seq_notified;
                    focused_seq_notified = focused_seq;
                    let change = match (focused, streaming) {
                        (false, _) => FocusedChange::None,
                        (true, true) => FocusedChange::Streaming,
                        (true, false) => FocusedChange::Quiet,
                    };
                    let now = Instant::now();
                    let paced_before = deadline.is_some_and(|d| d > now);
                    deadline = pacer
                        .on_pane_change(now.into_std(), sync, change)
                        .map(Instant::from_std);
                    // Due at once for the focused pane while others were paced: draw only it, so
                    // the echo does not wait for a flooding pane's snapshot.
                    focused_only |= focused && paced_before && deadline.is_some_and(|d| d <= now);
                }
                Wake::Clock => {
                    clock_at = Some(next_minute());
                    chrome_dirty = true;
                    deadline = Some(Instant::now());
                }
                Wake::Control(control) => match control {
                    Some(RenderControl::Resize { cols, rows }) => {
                        self.cols = cols.max(1);
                        self.rows = rows.max(1);
                        core.frame = Frame::new(usize::from(self.cols), usize::from(self.rows));
                        core.seen.clear();
                        chrome_dirty = true;
                        deadline = Some(Instant::now());
                    }
                    Some(RenderControl::Redraw) => {
                        core.renderer.invalidate();
                        chrome_dirty = true;
                        deadline = Some(Instant::now());
                    }
                    Some(RenderControl::Scroll { pane, offset }) => {
                        scroll = (offset > 0).then_some((pane, offset));
                        core.seen.remove(&pane);
                        deadline = Some(Instant::now());
                    }
                    Some(RenderControl::Overlay(o)) => {
                        if matches!(overlay, Some(Overlay::Lines(_)))
                            && !matches!(o, Some(Overlay::Lines(_)))
                        {
                            // The lines covered panes: draw them again.
                            core.seen.clear();
                        }
                        overlay = o;
                        chrome_dirty = true;
                        deadline = Some(Instant::now());
                    }
                    None => break,
                },
                Wake::Due => {
                    // Idle since this task's last frame or the last one drawn while it slept.
                    metrics.render.idle_ends();
                    // Wait for the client to take its last frame; changes meanwhile fold in.
                    let waiting = crate::metrics::Tick::now();
                    let permit = match self.frames.try_reserve() {
                        Ok(p) => p,
                        Err(mpsc::error::TrySendError::Closed(_)) => break,
                        Err(mpsc::error::TrySendError::Full(_)) => {
                            metrics.frames_skipped.fetch_add(1, Ordering::Relaxed);
                            tokio::select! {
                                _ = &mut stopped => break,
                                permit = self.frames.reserve() => match permit {
                                    Ok(p) => p,
                                    Err(_) => break,
                                },
                            }
                        }
                    };
                    let started = crate::metrics::Tick::now();
                    metrics.render.blocked(started - waiting);
                    let view = self.view.borrow().clone();
                    let config = self.config.borrow().clone();
                    // A focused-pane-only frame needs every pane drawn before and no chrome.
                    let only = (focused_only
                        && !chrome_dirty
                        && view
                            .panes
                            .iter()
                            .all(|(p, _)| core.seen.contains_key(&p.id())))
                    .then_some(view.active);
                    focused_only = false;
                    let Some(changed) = compose(&view, &mut core.frame, &mut core.seen, only).await
                    else {
                        metrics.render.idle_starts();
                        continue;
                    };
                    if let Some((pane, offset)) = scroll {
                        draw_history(&view, &mut core.frame, pane, offset).await;
                        core.seen.remove(&pane);
                    }
                    // Borders and the status line only when they change; overlays and modes every
                    // frame (pane updates set the cursor and modes, and may cover the lines).
                    draw_chrome(
                        &view,
                        &mut core.frame,
                        overlay.as_ref(),
                        &config,
                        chrome_dirty,
                    );
                    chrome_dirty = false;
                    render_delay().await;
                    let bytes = core.renderer.render(&mut core.frame);
                    pacer.on_frame(Instant::now().into_std());
                    deadline = None;
                    if only.is_some()
                        && view.panes.iter().any(|(p, _)| {
                            p.shared.seq.load(Ordering::Acquire)
                                > core.seen.get(&p.id()).copied().unwrap_or(0)
                        })
                    {
                        // The panes left out are drawn on the usual pace.
                        deadline = pacer
                            .on_change(Instant::now().into_std(), false)
                            .map(Instant::from_std);
                    }
                    metrics.render.busy(started.elapsed());
                    if !bytes.is_empty() {
                        stats.frames += 1;
                        metrics.render.item(bytes.len());
                        tracing::trace!(bytes = bytes.len(), panes = changed.len(), "frame");
                        let len = bytes.len();
                        let bytes = Bytes::from(bytes);
                        // Before the write, as in `FastSlot::try_draw`.
                        for pane in &changed {
                            pane.shared.metrics.shown(&metrics);
                        }
                        match &self.direct {
                            Some(tty) => {
                                metrics.write.idle_ends();
                                let writing = crate::metrics::Tick::now();
                                match tty.write_or_queue(bytes) {
                                    // Written whole: the writer's stage, done here.
                                    None => {
                                        metrics.write.busy_since(writing);
                                        metrics.write.item(len);
                                        tracing::trace!(bytes = len, "client write");
                                    }
                                    Some(rest) => permit.send(rest),
                                }
                            }
                            None => permit.send(bytes),
                        }
                        for pane in &changed {
                            pane.shared.priority.shown(pane.id());
                        }
                    }
                    metrics.render.idle_starts();
                }
            }
        }
        stats
    }

    /// What an idle renderer may let a quiet change draw: the focused pane, when frames go
    /// straight to the terminal and every pane is drawn up to date.
    fn fast_target(&self, core: &RenderCore) -> Option<FastTarget> {
        if injected_render_delay().is_some() {
            return None;
        }
        let tty = self.direct.clone()?;
        let view = self.view.borrow();
        let (pane, rect) = view.panes.iter().find(|(p, _)| p.id() == view.active)?;
        let drawn = view.panes.iter().all(|(p, _)| {
            core.seen
                .get(&p.id())
                .is_some_and(|&seq| seq >= p.shared.seq.load(Ordering::Acquire))
        });
        drawn.then(|| FastTarget {
            pane: pane.id(),
            rect: *rect,
            mouse: self.config.borrow().mouse,
            tty,
            frames: self.frames.clone(),
            view: self.view.clone(),
            metrics: self.metrics.clone(),
        })
    }
}

/// Updates `frame` with what changed in the view's panes (or only pane `only`) since the
/// revisions in `seen`; returns the panes whose changes it shows, or `None` when a pane is gone
/// mid-way (the view is about to change).
async fn compose(
    view: &View,
    frame: &mut Frame,
    seen: &mut HashMap<u64, u64>,
    only: Option<u64>,
) -> Option<Vec<PaneHandle>> {
    let mut cursor_set = false;
    let mut changed = Vec::new();
    for (pane, rect) in view
        .panes
        .iter()
        .filter(|(p, _)| only.is_none_or(|id| id == p.id()))
    {
        let since = seen.get(&pane.id()).copied().unwrap_or(0);
        let snapshot = snapshot_of(pane, since).await?;
        if snapshot.seq > since {
            changed.push(pane.clone());
        }
        let active = pane.id() == view.active;
        put_snapshot(frame, &snapshot, *rect, active);
        cursor_set |= active;
        seen.insert(pane.id(), snapshot.seq);
    }
    if !cursor_set {
        frame.cursor = None;
    }
    Some(changed)
}

/// Puts a pane's changed rows into its place in `frame`; for the focused pane (`active`) also
/// its cursor and modes.
fn put_snapshot(
    frame: &mut Frame,
    snapshot: &crate::pane::PaneSnapshot,
    rect: crate::layout::Rect,
    active: bool,
) {
    let (col0, row0) = (usize::from(rect.col), usize::from(rect.row));
    let width = usize::from(rect.cols).min(snapshot.cols);
    for (r, cells) in &snapshot.changed {
        if *r < usize::from(rect.rows) {
            frame.put(row0 + r, col0, &cells[..width.min(cells.len())]);
        }
    }
    if active {
        frame.set_cursor_from(&snapshot.cursor, row0, col0);
        frame.modes = snapshot.modes;
    }
}

/// Puts the rows of the focused pane's `screen` changed after revision `since` into `rect` of
/// `frame`, with its cursor and modes: [`put_snapshot`] without the snapshot, for a pane's
/// task drawing its own echo while it holds the screen.
fn put_screen(
    frame: &mut Frame,
    screen: &weft_screen_model::Screen,
    since: u64,
    rect: crate::layout::Rect,
) {
    let (col0, row0) = (usize::from(rect.col), usize::from(rect.row));
    let width = usize::from(rect.cols).min(screen.cols());
    for (r, row) in screen
        .visible_rows()
        .enumerate()
        .take(usize::from(rect.rows))
    {
        if since == 0 || screen.row_seq(r) > since {
            let cells = row.cells();
            frame.put(row0 + r, col0, &cells[..width.min(cells.len())]);
        }
    }
    frame.set_cursor_from(&screen.cursor_state(), row0, col0);
    frame.modes = crate::pane::outer_modes(screen.modes());
}

/// weft handles the mouse: the terminal reports presses, drags and the wheel in SGR form.
fn mouse_modes(frame: &mut Frame) {
    if frame.modes.mouse_tracking != MouseTracking::Motion {
        frame.modes.mouse_tracking = MouseTracking::Drag;
    }
    frame.modes.mouse_encoding = MouseEncoding::Sgr;
}

/// Draws pane `pane` scrolled `offset` lines into its history, with a position marker.
async fn draw_history(view: &View, frame: &mut Frame, pane: u64, offset: usize) {
    let Some((handle, rect)) = view.panes.iter().find(|(p, _)| p.id() == pane) else {
        return;
    };
    let rows = usize::from(rect.rows);
    let Some((lines, history)) = handle.history(offset, rows).await else {
        return;
    };
    let (col0, row0) = (usize::from(rect.col), usize::from(rect.row));
    let width = usize::from(rect.cols);
    for r in 0..rows {
        frame.blank(row0 + r, col0, width);
        if let Some(cells) = lines.get(r) {
            frame.put(row0 + r, col0, &cells[..width.min(cells.len())]);
        }
    }
    let marker = format!("[{}/{}]", offset.min(history), history);
    let style = pen(Color::Indexed(0), Color::Indexed(3));
    let len = marker.chars().count();
    if len <= width {
        let cells: Vec<Cell> = marker
            .chars()
            .map(|c| Cell::new(c, &style, CellFlags::empty()))
            .collect();
        frame.put(row0, col0 + width - len, &cells);
    }
    frame.cursor = None;
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

async fn snapshot_of(pane: &PaneHandle, since: u64) -> Option<crate::pane::PaneSnapshot> {
    pane.snapshot(since).await
}

fn pen(fg: Color, bg: Color) -> Pen {
    Pen {
        fg,
        bg,
        ..Pen::default()
    }
}

/// Borders, status line and overlays.
fn draw_chrome(
    view: &View,
    frame: &mut Frame,
    overlay: Option<&Overlay>,
    config: &Config,
    full: bool,
) {
    if config.mouse {
        mouse_modes(frame);
    }
    if full {
        draw_borders(view, frame);
        if let Some(status) = &view.status {
            draw_status(view, status, frame);
        }
    }
    match overlay {
        Some(Overlay::Prompt { label, input }) => {
            let row = status_row(view, frame);
            let text = format!("{label}{input}");
            write_line(
                frame,
                row,
                &text,
                &pen(Color::Indexed(0), Color::Indexed(3)),
            );
            let col = text.chars().count().min(frame.cols().saturating_sub(1));
            frame.cursor = Some((row, col));
        }
        Some(Overlay::Message(text)) => {
            let row = status_row(view, frame);
            write_line(frame, row, text, &pen(Color::Indexed(0), Color::Indexed(3)));
        }
        Some(Overlay::Lines(lines)) => {
            let top = usize::from(view.window.row);
            let rows = usize::from(view.window.rows);
            let style = pen(Color::Default, Color::Default);
            for (i, line) in lines.iter().take(rows).enumerate() {
                write_line(frame, top + i, line, &style);
            }
            for r in top + lines.len().min(rows)..top + rows {
                if r < frame.rows() {
                    frame.blank(r, 0, frame.cols());
                }
            }
            frame.cursor = None;
        }
        None => {}
    }
}

fn status_row(view: &View, frame: &Frame) -> usize {
    view.status
        .as_ref()
        .map_or(frame.rows().saturating_sub(1), |s| usize::from(s.row))
        .min(frame.rows().saturating_sub(1))
}

/// Writes `text` from column 0 of `row`, padding the row with the style.
fn write_line(frame: &mut Frame, row: usize, text: &str, style: &Pen) {
    if row >= frame.rows() {
        return;
    }
    let cols = frame.cols();
    let mut cells = Vec::with_capacity(cols);
    for c in text.chars() {
        let w = weft_screen_model::width::char_width(c);
        if w == 0 {
            continue;
        }
        if cells.len() + w > cols {
            break;
        }
        if w == 2 {
            cells.push(Cell::new(c, style, CellFlags::WIDE));
            cells.push(Cell::spacer(style));
        } else {
            cells.push(Cell::new(c, style, CellFlags::empty()));
        }
    }
    cells.resize(cols, Cell::erased(style));
    frame.put(row, 0, &cells);
}

fn draw_borders(view: &View, frame: &mut Frame) {
    if view.panes.len() < 2 {
        return;
    }
    let w = view.window;
    let covered = |c: u16, r: u16| {
        view.panes
            .iter()
            .any(|(_, p)| c >= p.col && c < p.col + p.cols && r >= p.row && r < p.row + p.rows)
    };
    let in_window = |c: i32, r: i32| {
        c >= i32::from(w.col)
            && c < i32::from(w.col + w.cols)
            && r >= i32::from(w.row)
            && r < i32::from(w.row + w.rows)
    };
    let border = |c: i32, r: i32| in_window(c, r) && !covered(c as u16, r as u16);
    let active = view
        .panes
        .iter()
        .find(|(p, _)| p.id() == view.active)
        .map(|(_, r)| *r);
    let normal = Pen::default();
    let highlight = pen(Color::Indexed(2), Color::Default);
    for r in w.row..w.row + w.rows {
        for c in w.col..w.col + w.cols {
            if covered(c, r) {
                continue;
            }
            let (ci, ri) = (i32::from(c), i32::from(r));
            let up = border(ci, ri - 1);
            let down = border(ci, ri + 1);
            let left = border(ci - 1, ri);
            let right = border(ci + 1, ri);
            let glyph = match (up, down, left, right) {
                (true, true, true, true) => '┼',
                (true, true, false, true) => '├',
                (true, true, true, false) => '┤',
                (false, true, true, true) => '┬',
                (true, false, true, true) => '┴',
                (false, true, false, true) => '┌',
                (false, true, true, false) => '┐',
                (true, false, false, true) => '└',
                (true, false, true, false) => '┘',
                (_, _, true, _) | (_, _, _, true) => '─',
                _ => '│',
            };
            let next_to_active = active.is_some_and(|a| {
                ci >= i32::from(a.col) - 1
                    && ci <= i32::from(a.col + a.cols)
                    && ri >= i32::from(a.row) - 1
                    && ri <= i32::from(a.row + a.rows)
            });
            let style = if next_to_active { &highlight } else { &normal };
            let cell = Cell::new(glyph, style, CellFlags::empty());
            frame.put(usize::from(r), usize::from(c), std::slice::from_ref(&cell));
        }
    }
}

/// The host name for the status line.
fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_default()
}

fn draw_status(view: &View, status: &crate::session::StatusLine, frame: &mut Frame) {
    let row = usize::from(status.row);
    if row >= frame.rows() {
        return;
    }
    let mut left = format!("[{}] ", status.session);
    for w in &status.windows {
        let flag = if w.active {
            "*"
        } else if w.last {
            "-"
        } else {
            ""
        };
        let zoom = if w.zoomed { "Z" } else { "" };
        left.push_str(&format!("{}:{}{}{} ", w.index, w.name, flag, zoom));
    }
    let clock = chrono::Local::now().format("%H:%M %d-%b-%y").to_string();
    let right = format!("\"{}\" {clock}", hostname());
    let cols = frame.cols();
    let mut text: String = left.chars().take(cols).collect();
    let used = text.chars().count();
    let right_len = right.chars().count();
    if used + right_len < cols {
        text.push_str(&" ".repeat(cols - used - right_len));
        text.push_str(&right);
    }
    let mut style = pen(Color::Indexed(0), Color::Indexed(2));
    style.attrs = Attrs::empty();
    write_line(frame, row, &text, &style);
    let _ = view;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::Rect;

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

    /// The echo path's direct copy from the screen puts the same cells, cursor and modes into
    /// the frame as the render task's snapshot does, for a pane placed inside the frame and
    /// cut at its edges, both for a first frame and for the rows changed since one.
    #[test]
    fn putting_from_the_screen_matches_putting_a_snapshot() {
        let mut screen = weft_screen_model::Screen::new(12, 5);
        screen.feed(b"\x1b[?1h\x1b[31mfirst line\r\nsecond \xe5\xad\x97 wide\r\nthird");
        let rect = Rect {
            col: 2,
            row: 1,
            cols: 8,
            rows: 3,
        };
        let mut via_snapshot = Frame::new(14, 6);
        let mut direct = Frame::new(14, 6);
        put_snapshot(
            &mut via_snapshot,
            &crate::pane::snapshot_of(&screen, 0),
            rect,
            true,
        );
        put_screen(&mut direct, &screen, 0, rect);
        assert_eq!(contents(&direct), contents(&via_snapshot));

        let since = screen.seqno();
        screen.feed(b"\x1b[2;1H\x1b[44mchanged\x1b[?25l");
        put_snapshot(
            &mut via_snapshot,
            &crate::pane::snapshot_of(&screen, since),
            rect,
            true,
        );
        put_screen(&mut direct, &screen, since, rect);
        assert_eq!(contents(&direct), contents(&via_snapshot));
        assert!(
            direct.row(2)[2..9].iter().any(|c| c.ch() == 'c'),
            "the changed row was put"
        );
    }
}
