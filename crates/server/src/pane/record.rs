//! Recording taps (`record-pane`, `weft record`): what a pane's screen receives, in order and
//! timed, for a recorder to write as asciicast.
//!
//! A tap is offered each piece of output as it is fed to the screen, under the screen's lock,
//! and each resize as it is applied, so a recording holds exactly what the screen was given,
//! starting from the screen as it was when the tap opened ([`crate::capture::screen_frame`]).
//! With no tap open the cost is one relaxed atomic load per piece.
//!
//! Each tap's queue holds at most [`MAX_RECORD_QUEUED_BYTES`]; the pane never waits for a
//! recorder. Past the bound, output is dropped (counted in `weft diag` as
//! `dropped_record_bytes`) and the tap is in a gap, dropping everything, until the recorder
//! has taken all that was queued: it then closes the gap ([`RecordTap::close_gap`]) with a
//! [`RecordEvent::Gap`] (how much was lost), the size and the whole screen as it is, taken
//! under the screen's lock, so a player shows the pane again from there.

use super::shared::PaneShared;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::Notify;
use weft_screen_model::Screen;

/// The most a recorder's queue holds (events' bytes plus [`EVENT_COST`] each): a recorder that
/// stops reading costs the server at most this, and the pane nothing.
pub const MAX_RECORD_QUEUED_BYTES: usize = 4 << 20;

/// What an event costs beyond its bytes, so that many tiny pieces stay bounded too.
const EVENT_COST: usize = 64;

/// The most recorders one pane has at once: each copies every piece of output.
pub const MAX_RECORDERS_PER_PANE: usize = 8;

/// One thing a recording holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordEvent {
    /// Bytes the screen was given.
    Output(Duration, Vec<u8>),
    /// Bytes sent to the program (only for a tap that asked for input).
    Input(Duration, Vec<u8>),
    /// The screen took a new size (columns, rows).
    Resize(Duration, u16, u16),
    /// The recorder fell behind and `dropped` bytes were lost; the screen's size then and its
    /// whole contents follow (a `Resize` and an `Output`).
    Gap(Duration, u64),
}

impl RecordEvent {
    fn cost(&self) -> usize {
        EVENT_COST
            + match self {
                RecordEvent::Output(_, b) | RecordEvent::Input(_, b) => b.len(),
                RecordEvent::Resize(..) | RecordEvent::Gap(..) => 0,
            }
    }
}

/// A pane's recording taps.
#[derive(Debug, Default)]
pub(crate) struct RecordSlot {
    /// A tap is open: the only check on the output path when none is.
    tapped: AtomicBool,
    taps: Mutex<Vec<Arc<RecordQueue>>>,
}

/// The queue of one tap.
#[derive(Debug)]
pub struct RecordQueue {
    started: Instant,
    input: bool,
    state: Mutex<QueueState>,
    /// Events arrived.
    ready: Notify,
}

#[derive(Debug, Default)]
struct QueueState {
    events: VecDeque<RecordEvent>,
    bytes: usize,
    /// Dropped since the last gap was closed.
    dropped: u64,
}

impl RecordQueue {
    /// The oldest event waiting, if any.
    pub fn pop(&self) -> Option<RecordEvent> {
        let mut state = self.state.lock().ok()?;
        let event = state.events.pop_front()?;
        state.bytes -= event.cost();
        Some(event)
    }

    /// Resolves once events may have arrived since the last call (create it before looking).
    pub fn ready(&self) -> tokio::sync::futures::Notified<'_> {
        self.ready.notified()
    }

    fn push(&self, state: &mut QueueState, event: RecordEvent) {
        state.bytes += event.cost();
        state.events.push_back(event);
    }

    /// Offers output the screen was just given. Returns the bytes dropped.
    fn offer_output(&self, chunk: &[u8]) -> u64 {
        let Ok(mut state) = self.state.lock() else {
            return 0;
        };
        // In a gap only the whole screen can follow (see `close_gap`); a full queue opens one.
        if state.dropped > 0 || state.bytes + chunk.len() + EVENT_COST > MAX_RECORD_QUEUED_BYTES {
            state.dropped += chunk.len().max(1) as u64;
            return chunk.len() as u64;
        }
        let at = self.started.elapsed();
        self.push(&mut state, RecordEvent::Output(at, chunk.to_vec()));
        drop(state);
        self.ready.notify_one();
        0
    }

    /// Closes a gap, if the queue is in one: a [`RecordEvent::Gap`], the size and the whole
    /// of `screen` (locked by the caller, so no output is fed meanwhile). True if it did.
    fn close_gap(&self, screen: &Screen) -> bool {
        let Ok(mut state) = self.state.lock() else {
            return false;
        };
        if state.dropped == 0 {
            return false;
        }
        let at = self.started.elapsed();
        let dropped = std::mem::take(&mut state.dropped);
        let (cols, rows) = (screen.cols() as u16, screen.rows() as u16);
        self.push(&mut state, RecordEvent::Gap(at, dropped));
        self.push(&mut state, RecordEvent::Resize(at, cols, rows));
        let frame = crate::capture::screen_frame(screen).into_bytes();
        self.push(&mut state, RecordEvent::Output(at, frame));
        true
    }

    fn in_gap(&self) -> bool {
        self.state.lock().is_ok_and(|s| s.dropped > 0)
    }

    fn offer_resize(&self, cols: u16, rows: u16) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        // In a gap the size goes with the screen that closes it.
        if state.dropped > 0 || state.bytes + EVENT_COST > MAX_RECORD_QUEUED_BYTES {
            state.dropped = state.dropped.max(1);
            return;
        }
        let at = self.started.elapsed();
        self.push(&mut state, RecordEvent::Resize(at, cols, rows));
        drop(state);
        self.ready.notify_one();
    }

    fn offer_input(&self, bytes: &[u8]) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        // Input lost in a full queue is only input: the screen stays right.
        if state.bytes + bytes.len() + EVENT_COST > MAX_RECORD_QUEUED_BYTES {
            return;
        }
        let at = self.started.elapsed();
        self.push(&mut state, RecordEvent::Input(at, bytes.to_vec()));
        drop(state);
        self.ready.notify_one();
    }
}

impl RecordSlot {
    /// Whether a tap is open: checked for every piece of output.
    #[inline]
    pub(super) fn is_tapped(&self) -> bool {
        self.tapped.load(Ordering::Relaxed)
    }

    /// Offers output the screen was just given to every tap; returns the bytes dropped.
    pub(super) fn offer_output(&self, chunk: &[u8]) -> u64 {
        let Ok(taps) = self.taps.lock() else { return 0 };
        taps.iter().map(|t| t.offer_output(chunk)).sum()
    }

    /// Offers a resize the screen just took to every tap.
    pub(super) fn offer_resize(&self, cols: u16, rows: u16) {
        if let Ok(taps) = self.taps.lock() {
            for tap in taps.iter() {
                tap.offer_resize(cols, rows);
            }
        }
    }

    /// Offers input sent to the program to the taps that asked for it.
    pub(super) fn offer_input(&self, bytes: &[u8]) {
        if let Ok(taps) = self.taps.lock() {
            for tap in taps.iter().filter(|t| t.input) {
                tap.offer_input(bytes);
            }
        }
    }

    fn remove(&self, queue: &Arc<RecordQueue>) {
        if let Ok(mut taps) = self.taps.lock() {
            taps.retain(|t| !Arc::ptr_eq(t, queue));
            self.tapped.store(!taps.is_empty(), Ordering::Release);
        }
    }
}

/// An open tap: its queue, and the screen as it was when it opened. Dropping it closes the tap.
#[derive(Debug)]
pub struct RecordTap {
    shared: Arc<PaneShared>,
    /// Where events wait.
    pub queue: Arc<RecordQueue>,
    /// The size when the tap opened (columns, rows).
    pub size: (u16, u16),
    /// The screen when the tap opened, as escapes that draw it on a blank terminal.
    pub frame: String,
    /// Resolves when the pane's program has ended (every piece of its output is queued by then).
    pub stop: tokio_util::sync::CancellationToken,
}

impl RecordTap {
    /// Once the recorder has taken every event: if output was dropped, queues the gap's
    /// marker and the whole screen as it is now, so what follows draws on the right screen.
    /// True if it did (there is more to take).
    pub fn close_gap(&self) -> bool {
        if !self.queue.in_gap() {
            return false;
        }
        let screen = self.shared.screen();
        self.queue.close_gap(&screen)
    }
}

impl Drop for RecordTap {
    fn drop(&mut self) {
        self.shared.record.remove(&self.queue);
    }
}

impl super::PaneHandle {
    /// Opens a recording tap on the pane (`input`: with the bytes sent to the program). Errors
    /// are sentences.
    pub fn record(&self, input: bool) -> Result<RecordTap, String> {
        if self.stop.is_cancelled() {
            return Err("the pane's program has exited; a recording needs a live pane".into());
        }
        let queue = Arc::new(RecordQueue {
            started: Instant::now(),
            input,
            state: Mutex::new(QueueState::default()),
            ready: Notify::new(),
        });
        // Under the screen's lock: output fed after this is in the queue, output before it is
        // in the frame, nothing is in both.
        let screen = self.shared.screen();
        {
            let mut taps = self
                .shared
                .record
                .taps
                .lock()
                .map_err(|_| "the pane's recorders are unusable".to_string())?;
            if taps.len() >= MAX_RECORDERS_PER_PANE {
                return Err(format!(
                    "the pane has {MAX_RECORDERS_PER_PANE} recordings already; stop one first"
                ));
            }
            taps.push(queue.clone());
            self.shared.record.tapped.store(true, Ordering::Release);
        }
        let frame = crate::capture::screen_frame(&screen);
        let size = (screen.cols() as u16, screen.rows() as u16);
        drop(screen);
        Ok(RecordTap {
            shared: self.shared.clone(),
            queue,
            size,
            frame,
            stop: self.stop.clone(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queue() -> RecordQueue {
        RecordQueue {
            started: Instant::now(),
            input: false,
            state: Mutex::new(QueueState::default()),
            ready: Notify::new(),
        }
    }

    #[test]
    fn a_full_queue_drops_then_closes_the_gap_with_the_screen() {
        let q = queue();
        let mut screen = Screen::new(10, 2);
        let chunk = vec![b'x'; 64 * 1024];
        let mut kept = 0;
        let mut dropped = 0;
        for _ in 0..100 {
            screen.feed(&chunk);
            let d = q.offer_output(&chunk);
            dropped += d;
            kept += u64::from(d == 0);
        }
        assert!(dropped > 0 && kept > 0);
        let bytes = q.state.lock().map(|s| s.bytes).unwrap_or(usize::MAX);
        assert!(bytes <= MAX_RECORD_QUEUED_BYTES, "{bytes}");
        // The recorder catches up; output still arriving is dropped until it closes the gap.
        while q.pop().is_some() {}
        screen.feed(b"\r\nend");
        assert_eq!(q.offer_output(b"\r\nend"), 5);
        assert!(q.pop().is_none());
        assert!(q.close_gap(&screen));
        assert!(!q.close_gap(&screen));
        assert!(matches!(q.pop(), Some(RecordEvent::Gap(_, n)) if n == dropped + 5));
        assert!(matches!(q.pop(), Some(RecordEvent::Resize(_, 10, 2))));
        match q.pop() {
            Some(RecordEvent::Output(_, frame)) => {
                let mut copy = Screen::new(10, 2);
                copy.feed(&frame);
                assert_eq!(copy.text(), screen.text());
            }
            other => panic!("expected the screen, got {other:?}"),
        }
        // And output flows again.
        assert_eq!(q.offer_output(b"!"), 0);
        assert!(matches!(q.pop(), Some(RecordEvent::Output(_, b)) if b == b"!"));
    }
}
