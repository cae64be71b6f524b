//! When to render: a pure policy over `now`, so it is tested without a runtime.

use std::time::{Duration, Instant};

/// Longest a frame is held back while the program has synchronized output (2026) on.
pub const MAX_SYNC_HOLD: Duration = Duration::from_millis(150);

/// Whether the focused pane is among what changed, and how its output arrives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FocusedChange {
    /// Only other panes (or the chrome) changed.
    None,
    /// The focused pane changed and more of its output is on the way (large reads).
    Streaming,
    /// The focused pane changed and its pty went quiet: the change is complete.
    Quiet,
}

/// Decides the next frame deadline for one client.
///
/// - A change that follows a pause of at least an interval (a key's echo, the first output after
///   a pause): render at once.
/// - Changes in quick succession (output streams): at most one frame per interval, the last
///   change drawn at most an interval late.
/// - A change in the focused pane after a pause in *that pane* renders at once even while
///   another pane streams: a keystroke's echo never waits behind a flood elsewhere.
/// - A change in the focused pane that left its pty quiet (a small read, nothing queued behind
///   it) renders at once too, however soon after the last frame: the answer to a keystroke
///   that comes in two writes (an echo, then a prompt) never waits out an interval.
/// - While synchronized output is on: hold, up to [`MAX_SYNC_HOLD`] from the first held change.
#[derive(Clone, Debug)]
pub struct FramePacer {
    interval: Duration,
    last_frame: Option<Instant>,
    last_change: Option<Instant>,
    last_focused_change: Option<Instant>,
    deadline: Option<Instant>,
    sync_since: Option<Instant>,
}

impl FramePacer {
    /// A pacer rendering at most once per `interval` while output streams.
    pub fn new(interval: Duration) -> Self {
        FramePacer {
            interval,
            last_frame: None,
            last_change: None,
            last_focused_change: None,
            deadline: None,
            sync_since: None,
        }
    }

    /// The frame interval.
    pub fn interval(&self) -> Duration {
        self.interval
    }

    /// Something changed at `now`; `sync` says whether the program is inside a synchronized
    /// update. Returns the deadline to wait for.
    pub fn on_change(&mut self, now: Instant, sync: bool) -> Option<Instant> {
        self.on_pane_change(now, sync, FocusedChange::None)
    }

    /// Like [`FramePacer::on_change`], saying whether the focused pane is among what changed.
    /// A focused-pane change after a pause of an interval in the focused pane renders at once,
    /// whatever other panes are doing.
    pub fn on_pane_change(
        &mut self,
        now: Instant,
        sync: bool,
        change: FocusedChange,
    ) -> Option<Instant> {
        let focused = change != FocusedChange::None;
        let focused_after_pause = focused
            && (change == FocusedChange::Quiet
                || self
                    .last_focused_change
                    .is_none_or(|t| now.saturating_duration_since(t) >= self.interval));
        if focused {
            self.last_focused_change = Some(now);
        }
        if sync {
            self.last_change = Some(now);
            let since = *self.sync_since.get_or_insert(now);
            let cap = since + MAX_SYNC_HOLD;
            self.deadline = Some(self.deadline.map_or(cap, |d| d.min(cap)));
            return self.deadline;
        }
        self.sync_since = None;
        let after_pause = focused_after_pause
            || self
                .last_change
                .is_none_or(|t| now.saturating_duration_since(t) >= self.interval);
        self.last_change = Some(now);
        let wanted = if after_pause {
            now
        } else {
            self.last_frame
                .map_or(now, |t| (t + self.interval).max(now))
        };
        self.deadline = Some(self.deadline.map_or(wanted, |d| d.min(wanted)));
        self.deadline
    }

    /// The pending deadline, if a frame is due.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// A frame was rendered at `now`.
    pub fn on_frame(&mut self, now: Instant) {
        self.last_frame = Some(now);
        self.deadline = None;
        self.sync_since = None;
    }

    /// Forgets a pending deadline (nothing to draw any more).
    pub fn cancel(&mut self) {
        self.deadline = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn first_change_renders_at_once() {
        let mut p = FramePacer::new(8 * MS);
        let t0 = Instant::now();
        assert_eq!(p.on_change(t0, false), Some(t0));
    }

    #[test]
    fn streaming_output_renders_once_per_interval() {
        let mut p = FramePacer::new(8 * MS);
        let t0 = Instant::now();
        p.on_change(t0, false);
        p.on_frame(t0);
        assert_eq!(p.on_change(t0 + MS, false), Some(t0 + 8 * MS));
        assert_eq!(p.on_change(t0 + 3 * MS, false), Some(t0 + 8 * MS));
    }

    #[test]
    fn a_change_after_a_pause_renders_at_once() {
        let mut p = FramePacer::new(8 * MS);
        let t0 = Instant::now();
        p.on_frame(t0);
        let t1 = t0 + 100 * MS;
        assert_eq!(p.on_change(t1, false), Some(t1));
        p.on_frame(t1);
        // A second change right behind the first is streaming: the interval boundary.
        assert_eq!(p.on_change(t1 + MS, false), Some(t1 + 8 * MS));
        p.on_frame(t1 + 8 * MS);
        // A keystroke's echo 20 ms later: at once, though a frame went out 12 ms ago.
        let t2 = t1 + 20 * MS;
        assert_eq!(p.on_change(t2, false), Some(t2));
    }

    #[test]
    fn focused_pane_echo_renders_at_once_while_another_pane_streams() {
        let mut p = FramePacer::new(8 * MS);
        let t0 = Instant::now();
        // Another pane streams: paced.
        p.on_pane_change(t0, false, FocusedChange::None);
        p.on_frame(t0);
        assert_eq!(
            p.on_pane_change(t0 + MS, false, FocusedChange::None),
            Some(t0 + 8 * MS)
        );
        // The focused pane echoes a key: at once.
        assert_eq!(
            p.on_pane_change(t0 + 2 * MS, false, FocusedChange::Streaming),
            Some(t0 + 2 * MS)
        );
        p.on_frame(t0 + 2 * MS);
        // The focused pane streaming too is paced again.
        assert_eq!(
            p.on_pane_change(t0 + 3 * MS, false, FocusedChange::Streaming),
            Some(t0 + 10 * MS)
        );
    }

    #[test]
    fn a_quiet_focused_change_renders_at_once_right_after_a_frame() {
        let mut p = FramePacer::new(8 * MS);
        let t0 = Instant::now();
        // The echo of a key, drawn at once.
        assert_eq!(p.on_pane_change(t0, false, FocusedChange::Quiet), Some(t0));
        p.on_frame(t0);
        // Its second half half a millisecond later, the pty quiet again: at once as well.
        let t1 = t0 + MS / 2;
        assert_eq!(p.on_pane_change(t1, false, FocusedChange::Quiet), Some(t1));
        p.on_frame(t1);
        // The same pane streaming is paced; so is another pane's output.
        assert_eq!(
            p.on_pane_change(t1 + MS, false, FocusedChange::Streaming),
            Some(t1 + 8 * MS)
        );
        assert_eq!(
            p.on_pane_change(t1 + 2 * MS, false, FocusedChange::None),
            Some(t1 + 8 * MS)
        );
        // Synchronized output still holds a quiet change.
        p.on_frame(t1 + 2 * MS);
        assert_eq!(
            p.on_pane_change(t1 + 3 * MS, true, FocusedChange::Quiet),
            Some(t1 + 3 * MS + MAX_SYNC_HOLD)
        );
    }

    #[test]
    fn synchronized_output_holds_up_to_the_cap() {
        let mut p = FramePacer::new(8 * MS);
        let t0 = Instant::now();
        assert_eq!(p.on_change(t0, true), Some(t0 + MAX_SYNC_HOLD));
        assert_eq!(p.on_change(t0 + 50 * MS, true), Some(t0 + MAX_SYNC_HOLD));
        // Sync ends: render at once.
        assert_eq!(p.on_change(t0 + 60 * MS, false), Some(t0 + 60 * MS));
    }
}
