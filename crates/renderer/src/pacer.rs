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

/// What the pending frame draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrameScope {
    /// Every pane with changes, and the chrome.
    Everything,
    /// Only the focused pane: its change became due at once while a frame for other panes was
    /// waiting for its pace, so the echo does not wait for a flooding pane's snapshot. The
    /// panes left out follow on the usual pace ([`FramePacer::on_focused_frame`]).
    FocusedPane,
}

/// Decides when one client's next frame is due, and what it draws.
///
/// - A change that follows a pause of at least an interval (a key's echo, the first output after
///   a pause): render at once.
/// - Changes in quick succession (output streams): at most one frame per interval, the last
///   change drawn at most an interval late.
/// - A change in the focused pane after a pause in *that pane* renders at once even while
///   another pane streams: a keystroke's echo never waits behind a flood elsewhere. When a frame
///   for other panes was waiting for its pace, that frame draws only the focused pane
///   ([`FrameScope::FocusedPane`]); the others follow on the usual pace.
/// - A change in the focused pane that left its pty quiet (a small read, nothing queued behind
///   it) renders at once too, however soon after the last frame: the answer to a keystroke
///   that comes in two writes (an echo, then a prompt) never waits out an interval.
/// - While synchronized output is on: hold, up to [`MAX_SYNC_HOLD`] from the first held change.
/// - Anything besides pane output (what the client views, settings, its size, an overlay, a
///   history view, the clock, a repaint): render everything at once
///   ([`FramePacer::redraw_now`]); no later pane change postpones that frame.
///
/// The caller waits for [`FramePacer::deadline`] and, when it is due, draws what
/// [`FramePacer::scope`] says, then reports the frame.
#[derive(Clone, Debug)]
pub struct FramePacer {
    interval: Duration,
    last_frame: Option<Instant>,
    last_change: Option<Instant>,
    last_focused_change: Option<Instant>,
    deadline: Option<Instant>,
    sync_since: Option<Instant>,
    /// A focused-pane change made the pending frame due early: it may draw only that pane.
    focused_early: bool,
    /// Something besides pane output wants the pending frame: it draws everything.
    everything: bool,
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
            focused_early: false,
            everything: false,
        }
    }

    /// The frame interval.
    pub fn interval(&self) -> Duration {
        self.interval
    }

    /// Paces by `interval` from now on (the configuration changed). A deadline already set
    /// stays as it is.
    pub fn set_interval(&mut self, interval: Duration) {
        self.interval = interval;
    }

    /// Something changed at `now`; `sync` says whether the program is inside a synchronized
    /// update. Returns the deadline to wait for.
    pub fn on_change(&mut self, now: Instant, sync: bool) -> Option<Instant> {
        self.on_pane_change(now, sync, FocusedChange::None)
    }

    /// Like [`FramePacer::on_change`], saying whether the focused pane is among what changed.
    /// A focused-pane change after a pause of an interval in the focused pane renders at once,
    /// whatever other panes are doing; if a frame was waiting for its pace, it draws only the
    /// focused pane.
    pub fn on_pane_change(
        &mut self,
        now: Instant,
        sync: bool,
        change: FocusedChange,
    ) -> Option<Instant> {
        let paced_before = self.deadline.is_some_and(|d| d > now);
        let deadline = self.pane_deadline(now, sync, change);
        self.focused_early |= change != FocusedChange::None && paced_before && deadline <= now;
        self.deadline = Some(deadline);
        self.deadline
    }

    /// The deadline after a pane change at `now` (see [`FramePacer::on_pane_change`]).
    fn pane_deadline(&mut self, now: Instant, sync: bool, change: FocusedChange) -> Instant {
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
            return self.deadline.map_or(cap, |d| d.min(cap));
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
        self.deadline.map_or(wanted, |d| d.min(wanted))
    }

    /// Something besides pane output changed at `now` (what the client views, the settings,
    /// its size, an overlay, a history view, the clock) or a repaint was asked for: a frame
    /// drawing everything is due at once. It leaves the pace of pane output as it was.
    pub fn redraw_now(&mut self, now: Instant) -> Option<Instant> {
        self.everything = true;
        self.deadline = Some(self.deadline.map_or(now, |d| d.min(now)));
        self.deadline
    }

    /// The pending deadline, if a frame is due.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// What the pending frame draws.
    pub fn scope(&self) -> FrameScope {
        if self.focused_early && !self.everything {
            FrameScope::FocusedPane
        } else {
            FrameScope::Everything
        }
    }

    /// A frame was rendered at `now`.
    pub fn on_frame(&mut self, now: Instant) {
        self.last_frame = Some(now);
        self.deadline = None;
        self.sync_since = None;
        self.focused_early = false;
        self.everything = false;
    }

    /// A frame that drew only the focused pane was rendered at `now`; `left_out`: panes it
    /// left out have changes to show. Those are paced as a change at `now`. Returns the
    /// deadline.
    pub fn on_focused_frame(&mut self, now: Instant, left_out: bool) -> Option<Instant> {
        self.on_frame(now);
        if left_out {
            self.on_change(now, false)
        } else {
            None
        }
    }

    /// Forgets a pending deadline (nothing to draw any more).
    pub fn cancel(&mut self) {
        self.deadline = None;
        self.focused_early = false;
        self.everything = false;
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

    #[test]
    fn an_echo_due_while_other_panes_wait_draws_only_the_focused_pane() {
        let mut p = FramePacer::new(8 * MS);
        let t0 = Instant::now();
        // Another pane streams: its next frame waits for the pace.
        p.on_pane_change(t0, false, FocusedChange::None);
        assert_eq!(p.scope(), FrameScope::Everything);
        p.on_frame(t0);
        assert_eq!(
            p.on_pane_change(t0 + MS, false, FocusedChange::None),
            Some(t0 + 8 * MS)
        );
        assert_eq!(p.scope(), FrameScope::Everything);
        // An echo in the focused pane: due at once, and only that pane is drawn.
        let t1 = t0 + 2 * MS;
        assert_eq!(p.on_pane_change(t1, false, FocusedChange::Quiet), Some(t1));
        assert_eq!(p.scope(), FrameScope::FocusedPane);
        // More output from the flooding pane before the frame does not undo that.
        assert_eq!(p.on_pane_change(t1, false, FocusedChange::None), Some(t1));
        assert_eq!(p.scope(), FrameScope::FocusedPane);
        // The panes left out follow on the usual pace; the next frame draws everything.
        assert_eq!(p.on_focused_frame(t1, true), Some(t1 + 8 * MS));
        assert_eq!(p.scope(), FrameScope::Everything);
        // With nothing left out, nothing is due.
        p.on_pane_change(t1 + 3 * MS, false, FocusedChange::None);
        p.on_pane_change(t1 + 4 * MS, false, FocusedChange::Quiet);
        assert_eq!(p.scope(), FrameScope::FocusedPane);
        assert_eq!(p.on_focused_frame(t1 + 4 * MS, false), None);
        assert_eq!(p.deadline(), None);
    }

    #[test]
    fn a_focused_change_with_no_frame_waiting_draws_everything() {
        let mut p = FramePacer::new(8 * MS);
        let t0 = Instant::now();
        assert_eq!(p.on_pane_change(t0, false, FocusedChange::Quiet), Some(t0));
        assert_eq!(
            p.scope(),
            FrameScope::Everything,
            "nothing else was waiting"
        );
        p.on_frame(t0);
        // The focused pane streaming is paced, not drawn alone.
        p.on_pane_change(t0 + MS, false, FocusedChange::Streaming);
        p.on_pane_change(t0 + 2 * MS, false, FocusedChange::Streaming);
        assert_eq!(p.deadline(), Some(t0 + 8 * MS));
        assert_eq!(p.scope(), FrameScope::Everything);
    }

    #[test]
    fn a_redraw_is_due_at_once_draws_everything_and_keeps_the_pace() {
        let mut p = FramePacer::new(8 * MS);
        let t0 = Instant::now();
        p.on_change(t0, false);
        p.on_frame(t0);
        assert_eq!(p.on_change(t0 + MS, false), Some(t0 + 8 * MS));
        // An overlay, a resize, the clock...: at once.
        let t1 = t0 + 2 * MS;
        assert_eq!(p.redraw_now(t1), Some(t1));
        assert_eq!(p.scope(), FrameScope::Everything);
        // Pane output arriving before that frame does not postpone it, even synchronized.
        assert_eq!(p.on_change(t1 + MS / 2, false), Some(t1));
        assert_eq!(p.on_change(t1 + MS / 2, true), Some(t1));
        // An echo due early as well still gets the whole frame the redraw wants.
        assert_eq!(
            p.on_pane_change(t1 + MS / 2, false, FocusedChange::Quiet),
            Some(t1)
        );
        assert_eq!(p.scope(), FrameScope::Everything);
        p.on_frame(t1 + MS);
        // The redraw is not pane output: streaming output stays paced from its last frame.
        assert_eq!(p.on_change(t1 + 2 * MS, false), Some(t1 + 9 * MS));
        // A redraw while synchronized output is held: at once too.
        p.on_frame(t1 + 9 * MS);
        let t2 = t1 + 10 * MS;
        assert_eq!(p.on_change(t2, true), Some(t2 + MAX_SYNC_HOLD));
        assert_eq!(p.redraw_now(t2 + MS), Some(t2 + MS));
    }

    #[test]
    fn a_new_interval_paces_the_changes_after_it() {
        let mut p = FramePacer::new(8 * MS);
        let t0 = Instant::now();
        p.on_change(t0, false);
        p.on_frame(t0);
        assert_eq!(p.on_change(t0 + MS, false), Some(t0 + 8 * MS));
        p.set_interval(40 * MS);
        assert_eq!(p.interval(), 40 * MS);
        assert_eq!(p.deadline(), Some(t0 + 8 * MS), "a deadline set stays");
        p.on_frame(t0 + 8 * MS);
        // Streaming: one frame per 40 ms now.
        assert_eq!(p.on_change(t0 + 9 * MS, false), Some(t0 + 48 * MS));
        p.on_frame(t0 + 48 * MS);
        let t1 = t0 + 70 * MS;
        assert_eq!(p.on_change(t1, false), Some(t1), "after a pause: at once");
        p.on_frame(t1);
        // A pause is 40 ms now: a change 20 ms after the last one is streaming.
        assert_eq!(p.on_change(t1 + 20 * MS, false), Some(t1 + 40 * MS));
    }
}
