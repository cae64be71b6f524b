//! `lock-after-time`: the session's clients are locked (see [`SessionState::lock_clients`])
//! once none of them has typed for that many seconds.
//!
//! Nothing polls: a key only stamps its client's activity, and the session keeps one deadline,
//! when the clients would have been idle long enough since the newest stamp it knew. When it
//! comes, the session looks at the stamps again: idle long enough, it locks; else it moves the
//! deadline on (at most one wake-up per `lock-after-time` while someone types).

use super::format_vars::epoch_seconds;
use super::SessionState;
use std::time::Duration;
use tokio::time::Instant;

impl SessionState {
    /// `lock-after-time` in force, in seconds; 0 is off.
    fn lock_after_secs(&self) -> u64 {
        self.config()
            .option_value("lock-after-time")
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    }

    /// When a client last typed or attached (seconds since the epoch), if one is attached.
    fn newest_key(&self) -> Option<u64> {
        self.clients
            .values()
            .map(|c| c.activity.load(std::sync::atomic::Ordering::Relaxed))
            .max()
    }

    /// Sets when the clients will have been idle for `lock-after-time`, from their newest key
    /// (or attach): none while it is off or no client is attached.
    pub(super) fn arm_idle_lock(&mut self) {
        let secs = self.lock_after_secs();
        self.lock_due = match self.newest_key() {
            Some(last) if secs > 0 => {
                let left = last.saturating_add(secs).saturating_sub(epoch_seconds());
                Some(Instant::now() + Duration::from_secs(left))
            }
            _ => None,
        };
    }

    /// The deadline came: locks the clients if none typed since, else waits on.
    pub(super) fn idle_lock_due(&mut self) {
        let secs = self.lock_after_secs();
        let idle = self
            .newest_key()
            .is_some_and(|last| secs > 0 && epoch_seconds() >= last.saturating_add(secs));
        if idle {
            if let Err(e) = self.lock_clients() {
                tracing::warn!("lock-after-time: {e}");
            }
        }
        self.arm_idle_lock();
    }
}
