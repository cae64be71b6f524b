//! When to render: a pure policy over `now`, so it is tested without a runtime.

use std::time::{Duration, Instant};

/// Longest a frame is held back while the program has synchronized output (2026) on.
pub const MAX_SYNC_HOLD: Duration = Duration::from_millis(150);

/// Decides the next frame deadline for one client.
///
/// - The program paused (nothing more queued): render at once.
/// - Output streams: at most one frame per `interval`; the first change after a pause at once.
/// - While synchronized output is on: hold, up to [`MAX_SYNC_HOLD`] from the first held change.
#[derive(Clone, Debug)]
pub struct FramePacer {
    interval: Duration,
    last_frame: Option<Instant>,
    deadline: Option<Instant>,
    sync_since: Option<Instant>,
}

impl FramePacer {
    /// A pacer rendering at most once per `interval` while output streams.
    pub fn new(interval: Duration) -> Self {
        FramePacer {
            interval,
            last_frame: None,
            deadline: None,
            sync_since: None,
        }
    }

    /// The frame interval.
    pub fn interval(&self) -> Duration {
        self.interval
    }

    /// Something changed at `now`; `quiet` says no more output is queued behind it (the program
    /// paused), `sync` whether the program is inside a synchronized update. Returns the deadline
    /// to wait for.
    pub fn on_change(&mut self, now: Instant, quiet: bool, sync: bool) -> Option<Instant> {
        if sync {
            let since = *self.sync_since.get_or_insert(now);
            let cap = since + MAX_SYNC_HOLD;
            self.deadline = Some(self.deadline.map_or(cap, |d| d.min(cap)));
            return self.deadline;
        }
        self.sync_since = None;
        // At once when the program paused; otherwise at once unless a frame went out less than
        // an interval ago, then at its boundary: a stream becomes one frame per interval.
        let wanted = if quiet {
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
        assert_eq!(p.on_change(t0, false, false), Some(t0));
    }

    #[test]
    fn streaming_output_renders_once_per_interval() {
        let mut p = FramePacer::new(8 * MS);
        let t0 = Instant::now();
        p.on_change(t0, false, false);
        p.on_frame(t0);
        assert_eq!(p.on_change(t0 + MS, false, false), Some(t0 + 8 * MS));
        assert_eq!(p.on_change(t0 + 3 * MS, false, false), Some(t0 + 8 * MS));
    }

    #[test]
    fn quiet_after_a_long_pause_renders_at_once() {
        let mut p = FramePacer::new(8 * MS);
        let t0 = Instant::now();
        p.on_frame(t0);
        let t1 = t0 + 100 * MS;
        assert_eq!(p.on_change(t1, false, false), Some(t1));
        // Quiet right after a frame: still at once.
        p.on_frame(t1);
        assert_eq!(p.on_change(t1 + MS, true, false), Some(t1 + MS));
    }

    #[test]
    fn synchronized_output_holds_up_to_the_cap() {
        let mut p = FramePacer::new(8 * MS);
        let t0 = Instant::now();
        assert_eq!(p.on_change(t0, false, true), Some(t0 + MAX_SYNC_HOLD));
        assert_eq!(
            p.on_change(t0 + 50 * MS, false, true),
            Some(t0 + MAX_SYNC_HOLD)
        );
        // Sync ends: render at once.
        assert_eq!(p.on_change(t0 + 60 * MS, true, false), Some(t0 + 60 * MS));
    }
}
