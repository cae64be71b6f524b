//! Stable ids like tmux's: `$N` sessions, `@N` windows, `%N` panes, `N` clients.

use std::sync::atomic::{AtomicU64, Ordering};

/// Hands out increasing numbers; shared by the whole server.
#[derive(Debug, Default)]
pub struct IdAllocator {
    sessions: AtomicU64,
    windows: AtomicU64,
    panes: AtomicU64,
    clients: AtomicU64,
}

impl IdAllocator {
    /// The next session number.
    pub fn session(&self) -> u64 {
        self.sessions.fetch_add(1, Ordering::Relaxed)
    }

    /// The next window number.
    pub fn window(&self) -> u64 {
        self.windows.fetch_add(1, Ordering::Relaxed)
    }

    /// The next pane number.
    pub fn pane(&self) -> u64 {
        self.panes.fetch_add(1, Ordering::Relaxed)
    }

    /// The next client number.
    pub fn client(&self) -> u64 {
        self.clients.fetch_add(1, Ordering::Relaxed)
    }
}
