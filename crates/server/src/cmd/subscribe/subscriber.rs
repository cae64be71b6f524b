//! One subscriber's task: takes events from the server's feed as they come, keeps those in its
//! scope in a bounded queue (dropping and counting the excess), and sends them with the panes'
//! output when the connection has room. It waits on the feed, the panes' change notices, the
//! room to send, and, only while output waits for its frame, one deadline.

use super::panes::Panes;
use super::Within;
use crate::deadline::Deadline;
use crate::events::{EventKind, ServerEvent};
use crate::ids::PaneId;
use bytes::Bytes;
use std::collections::VecDeque;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{broadcast, mpsc};
use tokio::time::Instant;

/// Events a subscriber keeps while its reader does not read: enough for a burst of commands
/// (a script making windows, a shell's marks) to wait for a busy reader; more are dropped and
/// counted, and the reader hears `{"lagged": N}`. Each is small (a title is at most 1 KiB), so
/// a reader that stopped holds at most a few hundred KiB of the server's memory.
pub(super) const SUBSCRIBER_QUEUE_EVENTS: usize = 512;

/// The shortest time between two output events of one pane: output in between is coalesced
/// into the next event, which carries every row changed since the last.
pub(super) const OUTPUT_FRAME: Duration = Duration::from_millis(50);

/// A piece sent to the connection is cut after this many bytes (an event is never split).
const PIECE_BYTES: usize = 64 * 1024;

/// What waits to be sent.
enum Queued {
    /// An event in the subscriber's scope.
    Event(Arc<ServerEvent>),
    /// This many events were dropped here.
    Lagged(u64),
}

/// A subscriber's state.
pub(super) struct Subscriber {
    pub(super) within: Within,
    pub(super) feed: broadcast::Receiver<Arc<ServerEvent>>,
    pub(super) panes: Panes,
    queue: VecDeque<Queued>,
    /// Events dropped since the last `Lagged` was queued.
    missed: u64,
    /// Output waits to be sent (a pane changed since the last output event).
    output_waiting: bool,
    /// When output may be sent next.
    next_frame: Instant,
    /// The scope's end was queued: the subscription ends once it is sent.
    ending: bool,
    /// Counts the subscriber while it lives, and the events it drops.
    metrics: Arc<crate::metrics::MetricsRegistry>,
}

impl Drop for Subscriber {
    fn drop(&mut self) {
        self.metrics.subscribers.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Subscriber {
    /// A subscriber in `within`, hearing `feed`, watching `panes`, counted in `metrics`.
    pub(super) fn new(
        within: Within,
        feed: broadcast::Receiver<Arc<ServerEvent>>,
        panes: Panes,
        metrics: Arc<crate::metrics::MetricsRegistry>,
    ) -> Self {
        metrics.subscribers.fetch_add(1, Ordering::Relaxed);
        Subscriber {
            metrics,
            within,
            feed,
            panes,
            queue: VecDeque::new(),
            missed: 0,
            output_waiting: false,
            next_frame: Instant::now(),
            ending: false,
        }
    }

    /// Sends to `out` until the scope ends, the server exits or the reader goes away.
    pub(super) async fn run(mut self, out: mpsc::Sender<Bytes>) {
        let mut frame = Deadline::new();
        let changed = self.panes.changed.clone();
        loop {
            let now = Instant::now();
            let output_due = self.output_waiting && now >= self.next_frame;
            let ready = !self.queue.is_empty() || self.missed > 0 || output_due;
            frame.set((self.output_waiting && !output_due).then_some(self.next_frame));
            tokio::select! {
                biased;
                () = out.closed() => return,
                permit = out.reserve(), if ready => {
                    let Ok(permit) = permit else { return };
                    let piece = self.piece(output_due).await;
                    if !piece.is_empty() {
                        permit.send(Bytes::from(piece));
                    }
                    if self.ending && self.queue.is_empty() {
                        return;
                    }
                }
                event = self.feed.recv(), if !self.ending => match event {
                    Ok(event) => self.take(event),
                    Err(broadcast::error::RecvError::Lagged(n)) => {
                        self.dropped(n);
                        self.panes.leave_exited();
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                },
                () = changed.notified(), if !self.output_waiting => {
                    self.output_waiting = self.panes.any_changed();
                }
                () = frame.wait() => {}
            }
        }
    }

    /// Takes an event from the feed: queued if in scope and there is room, else counted. Panes
    /// that join the scope are watched at once, so none of their output is missed.
    fn take(&mut self, event: Arc<ServerEvent>) {
        let ends = self.within.ends_with(&event);
        if !ends && !self.within.covers(&event) {
            return;
        }
        match &event.kind {
            EventKind::PaneAdded { handle, .. } => {
                self.panes.watch(handle.clone(), event.session, 0);
            }
            EventKind::PaneExited { .. } => self.panes.leaving_if(event.pane),
            EventKind::PaneRemoved if matches!(self.within, Within::Session(_)) => {
                self.panes.leaving_if(event.pane);
            }
            _ => {}
        }
        if ends {
            self.ending = true;
        } else if self.queue.len() >= SUBSCRIBER_QUEUE_EVENTS {
            self.dropped(1);
            return;
        }
        if self.missed > 0 {
            self.queue
                .push_back(Queued::Lagged(std::mem::take(&mut self.missed)));
        }
        self.queue.push_back(Queued::Event(event));
    }

    /// Counts `n` events dropped: the reader hears of them, and `weft diag` counts them.
    fn dropped(&mut self, n: u64) {
        self.missed += n;
        self.metrics
            .dropped_subscriber_events
            .fetch_add(n, Ordering::Relaxed);
    }

    /// The next piece to send: queued events (a pane's output before its marks and exit, so
    /// the text a command printed comes before its end) and, when due, every changed pane's
    /// output.
    async fn piece(&mut self, output_due: bool) -> Vec<u8> {
        let mut out = Vec::new();
        while out.len() < PIECE_BYTES {
            let Some(item) = self.queue.pop_front() else {
                break;
            };
            match item {
                Queued::Lagged(n) => push_lagged(&mut out, n),
                Queued::Event(event) => {
                    if let Some(pane) = event.pane.filter(|_| flushes_output(&event.kind)) {
                        if self.panes.changed(pane) {
                            self.panes.write_output(pane, &mut out).await;
                        }
                    }
                    super::push_line(&mut out, &event.to_json());
                }
            }
        }
        if self.queue.is_empty() && self.missed > 0 {
            push_lagged(&mut out, std::mem::take(&mut self.missed));
        }
        if output_due {
            self.panes.write_all_output(&mut out).await;
            self.output_waiting = false;
            self.next_frame = Instant::now() + OUTPUT_FRAME;
        }
        let queue = &self.queue;
        let named = |pane: PaneId| {
            queue
                .iter()
                .any(|q| matches!(q, Queued::Event(e) if e.pane == Some(pane)))
        };
        self.panes.forget_leaving(named, &mut out).await;
        out
    }
}

/// Whether a pane's output goes out before this event of the pane: what its program printed
/// before a title, a bell, a directory, a shell's mark or its exit comes before it, so a
/// reader that sees a command end has seen what the command printed.
fn flushes_output(kind: &EventKind) -> bool {
    matches!(
        kind,
        EventKind::Title(_)
            | EventKind::Bell
            | EventKind::Cwd(_)
            | EventKind::Mark { .. }
            | EventKind::PaneExited { .. }
            | EventKind::PaneDied { .. }
            | EventKind::PaneRemoved
    )
}

/// Appends the `lagged` event: `n` events were dropped here.
fn push_lagged(out: &mut Vec<u8>, n: u64) {
    super::push_line(out, &serde_json::json!({ "event": "lagged", "lagged": n }));
}

impl Panes {
    /// [`Panes::leaving`] for the pane an event names, if one.
    fn leaving_if(&mut self, pane: Option<PaneId>) {
        if let Some(p) = pane {
            self.leaving(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::SessionId;

    fn renamed(i: usize) -> Arc<ServerEvent> {
        Arc::new(ServerEvent {
            session: Some(SessionId(1)),
            pane: None,
            kind: EventKind::SessionRenamed {
                name: format!("n{i}"),
            },
        })
    }

    /// Every line of what `subscriber` sends until its queue is empty.
    async fn drain(subscriber: &mut Subscriber) -> Vec<serde_json::Value> {
        let mut lines = Vec::new();
        while !subscriber.queue.is_empty() || subscriber.missed > 0 {
            let piece = subscriber.piece(false).await;
            for line in piece.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
                lines.push(serde_json::from_slice(line).unwrap());
            }
        }
        lines
    }

    #[tokio::test]
    async fn a_full_queue_drops_counts_and_reports_the_gap_where_it_was() {
        let feed = crate::events::EventFeed::default();
        let metrics = Arc::new(crate::metrics::MetricsRegistry::default());
        let mut subscriber = Subscriber::new(
            Within::Server,
            feed.subscribe(),
            Panes::new(),
            metrics.clone(),
        );
        assert_eq!(metrics.subscribers.load(Ordering::Relaxed), 1);
        for i in 0..SUBSCRIBER_QUEUE_EVENTS + 10 {
            subscriber.take(renamed(i));
        }
        let lines = drain(&mut subscriber).await;
        assert_eq!(lines.len(), SUBSCRIBER_QUEUE_EVENTS + 1);
        assert_eq!(lines[0]["name"], "n0");
        assert_eq!(lines[SUBSCRIBER_QUEUE_EVENTS - 1]["name"], "n511");
        assert_eq!(
            lines[SUBSCRIBER_QUEUE_EVENTS],
            serde_json::json!({ "event": "lagged", "lagged": 10 })
        );
        // A reader that takes some again: the gap is reported before the events after it.
        let long = |i: usize| {
            let mut event = renamed(i);
            if let EventKind::SessionRenamed { name } = &mut Arc::make_mut(&mut event).kind {
                name.push_str(&"x".repeat(1000));
            }
            event
        };
        for i in 0..SUBSCRIBER_QUEUE_EVENTS + 3 {
            subscriber.take(long(i));
        }
        let _ = subscriber.piece(false).await;
        assert!(
            !subscriber.queue.is_empty(),
            "a piece is cut at PIECE_BYTES"
        );
        subscriber.take(renamed(10_000));
        let lines = drain(&mut subscriber).await;
        let tail: Vec<&serde_json::Value> = lines.iter().rev().take(2).rev().collect();
        assert_eq!(
            tail,
            [
                &serde_json::json!({ "event": "lagged", "lagged": 3 }),
                &renamed(10_000).to_json()
            ]
        );
        assert_eq!(
            metrics.dropped_subscriber_events.load(Ordering::Relaxed),
            13
        );
        drop(subscriber);
        assert_eq!(metrics.subscribers.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn scopes_cover_their_own_events_and_end_with_their_target() {
        let in_pane = ServerEvent {
            session: Some(SessionId(1)),
            pane: Some(PaneId(4)),
            kind: EventKind::PaneExited {
                status: 0,
                signal: None,
            },
        };
        assert!(Within::Server.covers(&in_pane));
        assert!(Within::Session(SessionId(1)).covers(&in_pane));
        assert!(!Within::Session(SessionId(2)).covers(&in_pane));
        assert!(Within::Pane(PaneId(4)).ends_with(&in_pane));
        assert!(!Within::Pane(PaneId(5)).covers(&in_pane));
        assert!(!Within::Session(SessionId(1)).ends_with(&in_pane));
        let closed = ServerEvent {
            session: Some(SessionId(1)),
            pane: None,
            kind: EventKind::SessionClosed,
        };
        assert!(Within::Session(SessionId(1)).ends_with(&closed));
        assert!(!Within::Server.ends_with(&closed));
    }
}
