//! Keystrokes before floods: while a key's echo is on its way, panes that stream output hold
//! off reading and parsing, so on a machine with few cores the echo path (the typed program,
//! the server's reader, parser and renderer for that pane, the user's terminal) gets the CPU
//! instead of waiting for the OS scheduler behind a flood.
//!
//! The hold lasts until a frame shows the typed pane's response, and never longer than
//! [`ECHO_HOLD_MAX`] (a key the program ignores, or answers slowly). A flooding pane loses at
//! most that much per keystroke; its program just blocks on a full pty meanwhile (nothing is
//! dropped). Only panes whose last read was large hold off: an idle pane's reader is waiting
//! for output anyway, and the typed pane itself never does.

use crate::ids::PaneId;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use tokio::sync::futures::Notified;
use tokio::sync::Notify;
use tokio::time::Instant;

/// Longest a flood holds off for one keystroke. An echo normally shows in well under a
/// millisecond; a program that takes longer gets no more priority than this.
pub const ECHO_HOLD_MAX: std::time::Duration = std::time::Duration::from_millis(3);

/// Server-wide: which pane a key was just sent to, until when its echo has priority.
#[derive(Debug, Default)]
pub struct EchoPriority {
    pending: Mutex<Option<(PaneId, Instant)>>,
    /// Whether `pending` may hold an echo: a lock-free look for the readers' checks between
    /// reads, which a flood makes every 4 KiB.
    maybe_pending: AtomicBool,
    released: Notify,
    /// Panes whose output streams now (see [`EchoPriority::stream_changed`]).
    streams: AtomicUsize,
    /// What each streaming pane has parsed, for floods to share by bytes. `streams` is kept
    /// beside it so that every chunk's check for contention is an atomic load, not a lock.
    pub shares: crate::flood_shares::FloodShares,
}

impl EchoPriority {
    /// A key went to pane `pane`: floods elsewhere hold off until its echo shows.
    pub fn key_sent(&self, pane: PaneId) {
        if let Ok(mut pending) = self.pending.lock() {
            *pending = Some((pane, Instant::now() + ECHO_HOLD_MAX));
            self.maybe_pending.store(true, Ordering::Release);
        }
    }

    /// Whether streaming pane `pane` should stop gathering or parsing output: another pane's
    /// echo is pending. One atomic load when none is (a hold that ran out is forgotten by
    /// [`Self::hold_for`]).
    pub fn echo_waits(&self, pane: PaneId) -> bool {
        self.maybe_pending.load(Ordering::Acquire) && self.hold_for(pane).is_some()
    }

    /// A frame showing pane `pane`'s latest output was written: floods may go on if that pane
    /// was the one waiting for an echo.
    pub fn shown(&self, pane: PaneId) {
        let released = match self.pending.lock() {
            Ok(mut pending) if pending.is_some_and(|(p, _)| p == pane) => {
                *pending = None;
                self.maybe_pending.store(false, Ordering::Release);
                true
            }
            _ => false,
        };
        if released {
            self.released.notify_waiters();
        }
    }

    /// A pane's output started (`true`) or stopped streaming.
    pub fn stream_changed(&self, streaming: bool) {
        if streaming {
            self.streams.fetch_add(1, Ordering::AcqRel);
        } else {
            // Never below zero, whatever the order of the calls.
            let _ = self
                .streams
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| n.checked_sub(1));
        }
    }

    /// Whether several panes stream at once: their tasks then take turns (see
    /// `pane::reader::FairSlice`); one flood alone keeps its worker.
    pub fn floods_contend(&self) -> bool {
        self.streams.load(Ordering::Acquire) > 1
    }

    /// Until when streaming pane `pane` should hold off, if another pane's echo is pending.
    /// A hold that ran out is forgotten, so [`Self::echo_waits`] is one load again.
    pub fn hold_for(&self, pane: PaneId) -> Option<Instant> {
        let mut pending = self.pending.lock().ok()?;
        match *pending {
            Some((p, until)) if until > Instant::now() => (p != pane).then_some(until),
            Some(_) => {
                *pending = None;
                self.maybe_pending.store(false, Ordering::Release);
                None
            }
            None => None,
        }
    }

    /// Resolves when a pending echo is shown. Create it before calling [`Self::hold_for`] so
    /// a release in between is not missed.
    pub fn released(&self) -> Notified<'_> {
        self.released.notified()
    }

    /// Holds off streaming pane `pane` while another pane's echo is pending: returns at once
    /// when none is, else when the echo is shown or the hold runs out.
    pub async fn wait_turn(&self, pane: PaneId) {
        let released = self.released();
        tokio::pin!(released);
        released.as_mut().enable();
        if let Some(until) = self.hold_for(pane) {
            tokio::select! {
                _ = released => {}
                _ = tokio::time::sleep_until(until) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_flood_holds_off_until_the_typed_pane_echoes() {
        let priority = std::sync::Arc::new(EchoPriority::default());
        assert_eq!(priority.hold_for(PaneId(1)), None, "nothing pending");
        priority.key_sent(PaneId(2));
        assert!(
            priority.hold_for(PaneId(1)).is_some(),
            "another pane's echo is pending"
        );
        assert_eq!(
            priority.hold_for(PaneId(2)),
            None,
            "the typed pane never waits"
        );
        assert!(
            priority.echo_waits(PaneId(1)),
            "a flood elsewhere stops gathering"
        );
        assert!(
            !priority.echo_waits(PaneId(2)),
            "the typed pane's own output does not"
        );
        let waiter = {
            let priority = priority.clone();
            tokio::spawn(async move { priority.wait_turn(PaneId(1)).await })
        };
        // Another pane's frame does not release it; the typed pane's does.
        priority.shown(PaneId(3));
        assert!(priority.hold_for(PaneId(1)).is_some());
        priority.shown(PaneId(2));
        assert_eq!(priority.hold_for(PaneId(1)), None);
        assert!(
            !priority.echo_waits(PaneId(1)),
            "shown: floods gather again"
        );
        tokio::time::timeout(ECHO_HOLD_MAX * 100, waiter)
            .await
            .expect("released by the echo")
            .expect("joined");
    }

    #[test]
    fn floods_contend_only_when_several_stream() {
        let priority = EchoPriority::default();
        assert!(!priority.floods_contend());
        priority.stream_changed(true);
        assert!(!priority.floods_contend(), "one flood keeps its worker");
        priority.stream_changed(true);
        assert!(priority.floods_contend());
        priority.stream_changed(false);
        priority.stream_changed(false);
        priority.stream_changed(false);
        assert!(!priority.floods_contend(), "never below zero");
        priority.stream_changed(true);
        assert!(
            !priority.floods_contend(),
            "a stray stop did not go below zero"
        );
    }

    #[tokio::test]
    async fn the_hold_runs_out_without_an_echo() {
        let priority = EchoPriority::default();
        priority.key_sent(PaneId(2));
        let started = Instant::now();
        priority.wait_turn(PaneId(1)).await;
        assert!(started.elapsed() >= ECHO_HOLD_MAX);
        assert_eq!(priority.hold_for(PaneId(1)), None);
        assert!(
            !priority.echo_waits(PaneId(1)),
            "nor after the hold ran out"
        );
        assert!(
            !priority.maybe_pending.load(Ordering::Acquire),
            "the hold that ran out is forgotten"
        );
    }
}
