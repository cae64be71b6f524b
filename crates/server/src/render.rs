//! One client's render task: waits for pane changes, renders on the pacer's deadline, and hands
//! finished frames to the connection through a channel of one (a slow client skips frames; its
//! next frame covers everything it missed).

use crate::pane::PaneHandle;
use crate::session::View;
use bytes::Bytes;
use renderer::{Frame, FramePacer, Renderer};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, watch, Notify};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// Finished frames waiting for the connection's writer: one, so the renderer never runs ahead
/// of a slow client; it renders again only when that frame is gone.
pub const FRAME_CAPACITY: usize = 1;
/// Requests to a renderer (client resize, redraw) waiting to be handled.
pub const RENDER_CONTROL_CAPACITY: usize = 8;

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
}

/// Counts for diagnosis.
#[derive(Debug, Default)]
pub struct RenderStats {
    /// Frames sent.
    pub frames: u64,
    /// Changes folded into a later frame because the client had not taken the last one.
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
    /// Where frames go.
    pub frames: mpsc::Sender<Bytes>,
    /// Resize and redraw requests.
    pub control: mpsc::Receiver<RenderControl>,
    /// Ends the task.
    pub stop: CancellationToken,
    /// Frame interval while output streams.
    pub interval: Duration,
}

impl RenderTask {
    /// Runs until stopped.
    pub async fn run(mut self) -> RenderStats {
        let notify = Arc::new(Notify::new());
        let mut stats = RenderStats::default();
        let mut renderer = Renderer::new();
        let mut pacer = FramePacer::new(self.interval);
        let mut frame = Frame::new(usize::from(self.cols), usize::from(self.rows));
        let mut seen: HashMap<u64, u64> = HashMap::new();
        let mut watched: Vec<u64> = Vec::new();
        let mut generation = u64::MAX;
        let mut deadline: Option<Instant> = Some(Instant::now());
        loop {
            // Subscribe to panes the view shows that we do not watch yet.
            {
                let view = self.view.borrow_and_update();
                if view.generation != generation {
                    generation = view.generation;
                    seen.clear();
                    frame = Frame::new(usize::from(self.cols), usize::from(self.rows));
                    deadline = Some(Instant::now());
                }
                for (pane, _) in &view.panes {
                    if !watched.contains(&pane.id()) {
                        pane.watch(&notify);
                        watched.push(pane.id());
                        deadline = Some(Instant::now());
                    }
                }
            }
            tokio::select! {
                _ = self.stop.cancelled() => break,
                changed = self.view.changed() => {
                    if changed.is_err() {
                        break;
                    }
                }
                _ = notify.notified() => {
                    if deadline.is_some() {
                        stats.skipped += 1;
                    }
                    let sync = self
                        .view
                        .borrow()
                        .active_pane()
                        .is_some_and(|p| p.shared.sync.load(Ordering::Acquire));
                    deadline = pacer.on_change(Instant::now().into_std(), sync).map(Instant::from_std);
                }
                control = self.control.recv() => match control {
                    Some(RenderControl::Resize { cols, rows }) => {
                        self.cols = cols.max(1);
                        self.rows = rows.max(1);
                        frame = Frame::new(usize::from(self.cols), usize::from(self.rows));
                        seen.clear();
                        deadline = Some(Instant::now());
                    }
                    Some(RenderControl::Redraw) => {
                        renderer.invalidate();
                        deadline = Some(Instant::now());
                    }
                    None => break,
                },
                _ = sleep_until_opt(deadline) => {
                    // Wait for the client to take its last frame; changes meanwhile fold in.
                    let permit = tokio::select! {
                        _ = self.stop.cancelled() => break,
                        permit = self.frames.reserve() => match permit {
                            Ok(p) => p,
                            Err(_) => break,
                        },
                    };
                    let view = self.view.borrow().clone();
                    if !compose(&view, &mut frame, &mut seen).await {
                        continue;
                    }
                    let bytes = renderer.render(&mut frame);
                    pacer.on_frame(Instant::now().into_std());
                    deadline = None;
                    if !bytes.is_empty() {
                        stats.frames += 1;
                        permit.send(Bytes::from(bytes));
                    }
                }
            }
        }
        stats
    }
}

/// Sleeps until `deadline`, or forever without one. A deadline already due returns at once:
/// tokio's timer rounds up to whole milliseconds, which would add up to 1 ms to every echo.
async fn sleep_until_opt(deadline: Option<Instant>) {
    match deadline {
        Some(d) if d <= Instant::now() => {}
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

/// Updates `frame` with what changed in the view's panes since the revisions in `seen`.
/// Returns false when a pane is gone mid-way (the view is about to change).
async fn compose(view: &View, frame: &mut Frame, seen: &mut HashMap<u64, u64>) -> bool {
    let mut cursor_set = false;
    for (pane, rect) in &view.panes {
        let since = seen.get(&pane.id()).copied().unwrap_or(0);
        let Some(snapshot) = snapshot_of(pane, since).await else {
            return false;
        };
        let (col0, row0) = (usize::from(rect.col), usize::from(rect.row));
        let width = usize::from(rect.cols).min(snapshot.cols);
        for (r, cells) in &snapshot.changed {
            if *r < usize::from(rect.rows) {
                frame.put(row0 + r, col0, &cells[..width.min(cells.len())]);
            }
        }
        if pane.id() == view.active {
            frame.set_cursor_from(&snapshot.cursor, row0, col0);
            frame.modes = snapshot.modes;
            cursor_set = true;
        }
        seen.insert(pane.id(), snapshot.seq);
    }
    if !cursor_set {
        frame.cursor = None;
    }
    true
}

async fn snapshot_of(pane: &PaneHandle, since: u64) -> Option<crate::pane::PaneSnapshot> {
    pane.snapshot(since).await
}
