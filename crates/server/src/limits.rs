//! Descriptors: the server raises its own limit at start, keeps a share of it for panes, and
//! holds one spare so that it can still answer a client when the rest are used up.

use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// Descriptors kept for panes (a pty master, a pidfd, a spare while spawning) and the server's
/// own files: client connections may use what is left.
pub const PANE_DESCRIPTOR_RESERVE: usize = 128;
/// Connections that have not said hello yet, at most: a flood of silent connections cannot
/// take the descriptors that answering users need.
pub const MAX_UNAUTHENTICATED: usize = 64;
/// The fewest connections allowed whatever the limit says.
const MIN_CONNECTIONS: usize = 16;

/// Raises the soft limit on open descriptors to the hard limit; returns the soft limit in
/// force afterwards (unlimited counts as `usize::MAX`).
pub fn raise_descriptor_limit() -> usize {
    let limit = getrlimit(Resource::Nofile);
    let wanted = Rlimit {
        current: limit.maximum,
        maximum: limit.maximum,
    };
    let current = match setrlimit(Resource::Nofile, wanted) {
        Ok(()) => limit.maximum,
        Err(_) => limit.current,
    };
    current.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// How many client connections a server with `limit` descriptors may hold.
pub fn connection_limit(limit: usize) -> usize {
    limit
        .saturating_sub(PANE_DESCRIPTOR_RESERVE)
        .max(MIN_CONNECTIONS)
}

/// Counts connections open and those still in their handshake; a connection counts while its
/// [`ConnectionSlot`] lives.
#[derive(Debug, Default)]
pub struct ConnectionCount {
    open: AtomicUsize,
    unauthenticated: AtomicUsize,
    /// Woken when a connection closes (a descriptor is free again).
    pub freed: tokio::sync::Notify,
}

impl ConnectionCount {
    /// Connections open now.
    pub fn open(&self) -> usize {
        self.open.load(Ordering::Relaxed)
    }

    /// Counts a new connection, in its handshake.
    pub fn slot(self: &Arc<Self>) -> ConnectionSlot {
        self.open.fetch_add(1, Ordering::Relaxed);
        self.unauthenticated.fetch_add(1, Ordering::Relaxed);
        ConnectionSlot {
            count: self.clone(),
            authenticated: false,
        }
    }

    /// Connections still in their handshake.
    pub fn unauthenticated(&self) -> usize {
        self.unauthenticated.load(Ordering::Relaxed)
    }
}

/// One connection's place in the [`ConnectionCount`].
#[derive(Debug)]
pub struct ConnectionSlot {
    count: Arc<ConnectionCount>,
    authenticated: bool,
}

impl ConnectionSlot {
    /// The connection said hello.
    pub fn authenticated(&mut self) {
        if !self.authenticated {
            self.authenticated = true;
            self.count.unauthenticated.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

impl Drop for ConnectionSlot {
    fn drop(&mut self) {
        if !self.authenticated {
            self.count.unauthenticated.fetch_sub(1, Ordering::Relaxed);
        }
        self.count.open.fetch_sub(1, Ordering::Relaxed);
        self.count.freed.notify_waiters();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_count_open_and_unauthenticated_connections() {
        let count = Arc::new(ConnectionCount::default());
        let mut a = count.slot();
        let b = count.slot();
        assert_eq!((count.open(), count.unauthenticated()), (2, 2));
        a.authenticated();
        assert_eq!((count.open(), count.unauthenticated()), (2, 1));
        drop(b);
        assert_eq!((count.open(), count.unauthenticated()), (1, 0));
        drop(a);
        assert_eq!(count.open(), 0);
    }

    #[test]
    fn connections_get_what_the_panes_leave() {
        assert_eq!(connection_limit(1024), 1024 - PANE_DESCRIPTOR_RESERVE);
        assert_eq!(connection_limit(100), MIN_CONNECTIONS);
    }
}
