//! Floods share by bytes: while several panes stream at once, a pane that has parsed more than
//! [`FAIR_LEAD`] bytes beyond the slowest streaming pane gives its worker up after each chunk,
//! so the tasks behind it (the slower floods, an echo's) run first. Without it, the panes
//! whose tasks the scheduler happened to serve first kept ahead, and a narrow pane (more rows
//! wrapped and scrolled for the same bytes) fell behind: 8 panes flooding at once, the slowest
//! took 1.08–1.19× as long as the fastest; with it, 1.03–1.07×.
//!
//! A pane only gives way, it never waits: waiting for the slowest (until it caught up, at most
//! a few milliseconds) evened the floods out as well, but released them all at once when it
//! caught up, and an echo elsewhere then waited behind eight woken floods (p99 8–12 ms against
//! 3). Only panes that stream count, and only while their figures move: a pane whose program
//! slowed down stops streaming (its reads are small), and one that has not parsed for
//! [`STALE_AFTER`] (held up elsewhere, or gone without saying so) is left out.

use crate::ids::PaneId;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How far a streaming pane may get ahead of the slowest before it gives way: four large
/// chunks.
pub const FAIR_LEAD: u64 = 256 * 1024;

/// A streaming pane that has not parsed for this long is not given way to.
pub const STALE_AFTER: Duration = Duration::from_millis(50);

/// The streaming panes' parsed bytes, server-wide.
#[derive(Debug, Default)]
pub struct FloodShares {
    panes: Mutex<Vec<Share>>,
}

/// One streaming pane's progress.
#[derive(Debug, Clone, Copy)]
struct Share {
    pane: PaneId,
    /// Bytes parsed since it started streaming, counted from the slowest pane's figure then.
    parsed: u64,
    /// When it last parsed.
    at: Instant,
}

impl FloodShares {
    /// Pane `pane` started (`true`) or stopped streaming.
    pub fn streaming(&self, pane: PaneId, streaming: bool) {
        let Ok(mut panes) = self.panes.lock() else {
            return;
        };
        panes.retain(|s| s.pane != pane);
        if streaming {
            // Even with the slowest from now on: neither owed a burst nor behind.
            let now = Instant::now();
            let parsed = slowest(&panes, pane, now).unwrap_or(0);
            panes.push(Share {
                pane,
                parsed,
                at: now,
            });
        }
    }

    /// Pane `pane` parsed `bytes` of a stream; gives its worker up once if that leaves it
    /// more than [`FAIR_LEAD`] ahead of the slowest streaming pane.
    pub async fn parsed(&self, pane: PaneId, bytes: usize) {
        if self.count(pane, bytes as u64) {
            tokio::task::yield_now().await;
        }
    }

    /// Adds `bytes` to `pane`'s figure; whether it is now more than [`FAIR_LEAD`] ahead of the
    /// slowest other streaming pane.
    fn count(&self, pane: PaneId, bytes: u64) -> bool {
        let Ok(mut panes) = self.panes.lock() else {
            return false;
        };
        let now = Instant::now();
        let others = slowest(&panes, pane, now);
        let Some(share) = panes.iter_mut().find(|s| s.pane == pane) else {
            return false;
        };
        share.parsed += bytes;
        share.at = now;
        others.is_some_and(|others| share.parsed > others.saturating_add(FAIR_LEAD))
    }
}

/// The least figure among streaming panes other than `pane` that parsed recently.
fn slowest(panes: &[Share], pane: PaneId, now: Instant) -> Option<u64> {
    panes
        .iter()
        .filter(|s| s.pane != pane && now.duration_since(s.at) < STALE_AFTER)
        .map(|s| s.parsed)
        .min()
}

#[cfg(test)]
mod tests {
    use super::*;

    const CHUNK: u64 = 64 * 1024;

    #[test]
    fn a_pane_gives_way_only_beyond_its_lead() {
        let shares = FloodShares::default();
        shares.streaming(PaneId(1), true);
        shares.streaming(PaneId(2), true);
        for _ in 0..4 {
            assert!(
                !shares.count(PaneId(1), CHUNK),
                "a lead of FAIR_LEAD is allowed"
            );
        }
        assert!(shares.count(PaneId(1), CHUNK), "beyond it");
        assert!(
            !shares.count(PaneId(2), 2 * CHUNK),
            "the slowest never gives way"
        );
        assert!(!shares.count(PaneId(1), 0), "caught up");
    }

    #[test]
    fn a_lone_flood_or_one_that_stopped_is_never_given_way_to() {
        let shares = FloodShares::default();
        shares.streaming(PaneId(1), true);
        assert!(!shares.count(PaneId(1), 10 * FAIR_LEAD), "alone");
        shares.streaming(PaneId(2), true);
        assert!(shares.count(PaneId(1), 10 * FAIR_LEAD));
        shares.streaming(PaneId(2), false);
        assert!(!shares.count(PaneId(1), 0), "the other stopped");
    }

    #[test]
    fn a_late_stream_starts_even_with_the_slowest() {
        let shares = FloodShares::default();
        shares.streaming(PaneId(1), true);
        shares.streaming(PaneId(2), true);
        shares.count(PaneId(1), 3 * FAIR_LEAD);
        shares.count(PaneId(2), 3 * FAIR_LEAD);
        shares.streaming(PaneId(3), true);
        assert!(!shares.count(PaneId(1), 0) && !shares.count(PaneId(2), 0));
        assert!(!shares.count(PaneId(3), 0));
    }

    #[test]
    fn a_pane_that_is_not_streaming_is_not_counted() {
        let shares = FloodShares::default();
        assert!(!shares.count(PaneId(1), 10 * FAIR_LEAD));
    }
}
