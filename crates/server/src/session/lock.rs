//! Locking the session's clients: at once (`lock-session`, `lock-server`), and with
//! `lock-after-time` once none of them has typed for that many seconds.
//!
//! Nothing polls: a key only stamps its client's activity, and the session keeps one deadline,
//! when the clients would have been idle long enough since the newest stamp it knew. When it
//! comes, the session looks at the stamps again: idle long enough, it locks; else it moves the
//! deadline on (at most one wake-up per `lock-after-time` while someone types).

use super::format_vars::epoch_seconds;
use super::{ClientControl, SessionState};
use crate::ids::ClientId;
use crate::outcome::CommandError;
use std::time::Duration;
use tokio::time::Instant;
use weft_protocol::ExitNotice;

impl SessionState {
    /// Locks every client (`lock-session`, `lock-server`): each gives its terminal to
    /// `lock-command` and attaches again once the command exits. Never waits: a client whose
    /// control queue is full stays attached, and the command says so.
    pub fn lock_clients(&mut self) -> Result<(), CommandError> {
        let lock = self
            .config()
            .option_value("lock-command")
            .unwrap_or_default();
        let ids: Vec<ClientId> = self.clients.keys().copied().collect();
        let mut busy = 0;
        for id in ids {
            let notice = ExitNotice {
                resume: Some(self.name.clone()),
                lock: Some(lock.clone()),
                ..ExitNotice::default()
            };
            let sent = self
                .clients
                .get(&id)
                .is_some_and(|c| c.control.try_send(ClientControl::Exit(notice)).is_ok());
            if sent {
                self.clients.remove(&id);
            } else {
                busy += 1;
            }
        }
        if busy > 0 {
            return Err(CommandError::failed(format!(
                "{busy} client(s) of session {} were too busy to lock; try again",
                self.name
            )));
        }
        Ok(())
    }

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
