//! Window alerts as tmux's `monitor-*` options set them: activity (`#`, a pane of a window
//! that is not current printed something), silence (`~`, no output for `monitor-silence`
//! seconds) and the bell (`!`, in `state.rs` with the screen's other events). Each clears when
//! its window becomes current.
//!
//! Nothing polls: a pane tells the session of its next output only while the session watches
//! for it (once per watch), and silence is a deadline at the moment a window would have been
//! silent long enough, moved on when it was not.

use super::status::flag;
use super::SessionState;
use crate::ids::PaneId;
use std::time::Duration;
use tokio::time::Instant;

impl SessionState {
    /// Tells each pane whether the session wants to hear of its next output: those of windows
    /// that are not current, not flagged yet, with `monitor-activity` on.
    pub(super) fn watch_alerts(&mut self) {
        for (wpos, w) in self.windows.iter().enumerate() {
            let activity = flag(&self.window_config(wpos), "monitor-activity");
            let watch = activity && wpos != self.current && !w.activity;
            for pane in w.layout.panes() {
                if let Some(p) = self.panes.get(&pane) {
                    p.shared.watch_activity(watch);
                }
            }
        }
        self.silence_due = self.check_silence(false);
    }

    /// A pane the session watched printed something.
    pub(super) fn pane_activity(&mut self, pane: PaneId) {
        let watched = |w: &usize| flag(&self.window_config(*w), "monitor-activity");
        if let Some(w) = self
            .window_of(pane)
            .filter(|w| *w != self.current && watched(w))
        {
            self.windows[w].activity = true;
            self.fire_hook("alert-activity", Some(pane));
            self.visual_alert(w, "Activity", "visual-activity");
        }
    }

    /// The `monitor-silence` seconds in force in the window at `wpos`, when on.
    fn silence_limit(&self, wpos: usize) -> Option<u64> {
        let secs: u64 = self
            .window_config(wpos)
            .option_value("monitor-silence")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0);
        (secs > 0).then(|| secs.saturating_mul(1000))
    }

    /// When a window's panes last printed something, or when its silence started counting.
    fn last_output(&self, wpos: usize) -> u64 {
        let w = &self.windows[wpos];
        w.layout
            .panes()
            .iter()
            .filter_map(|p| self.panes.get(p))
            .map(|p| p.shared.last_output_ms())
            .fold(w.silence_from, u64::max)
    }

    /// With `flag` (the deadline came): flags the windows that are not current and were
    /// silent long enough; each silence counts once, so a current window's is spent without a
    /// flag and nothing is due again until its panes print. Returns when the next window will
    /// have been silent long enough (at once for one that already was, without `flag`).
    pub(super) fn check_silence(&mut self, flag: bool) -> Option<Instant> {
        let now = crate::pane::output_clock_ms();
        let mut next: Option<u64> = None;
        let mut silenced = Vec::new();
        for wpos in 0..self.windows.len() {
            let Some(limit) = self.silence_limit(wpos) else {
                continue;
            };
            let last = self.last_output(wpos);
            if self.windows[wpos].silence || self.windows[wpos].silence_counted == last {
                continue;
            }
            let due = last.saturating_add(limit);
            if now >= due && flag {
                let current = wpos == self.current;
                let w = &mut self.windows[wpos];
                w.silence = !current;
                if !current {
                    silenced.push(wpos);
                }
                w.silence_counted = last;
                continue;
            }
            next = Some(next.map_or(due, |n| n.min(due)));
        }
        for wpos in silenced {
            self.visual_alert(wpos, "Silence", "visual-silence");
        }
        next.map(|due| Instant::now() + Duration::from_millis(due.saturating_sub(now)))
    }
}
