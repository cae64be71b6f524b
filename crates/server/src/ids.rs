//! Stable ids like tmux's: `$N` sessions, `@N` windows, `%N` panes, `N` clients.
//!
//! Each kind is its own type, so a pane id cannot be passed where a window id is wanted. They
//! are `Copy` over a `u64` and cost nothing more than the bare number.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};

/// Defines a typed id over `u64`, shown and parsed with `prefix` (empty for clients).
macro_rules! typed_id {
    ($(#[$doc:meta])* $name:ident, $prefix:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub(crate) u64);

        impl $name {
            /// The bare number, for where one is genuinely needed (JSON, metrics labels).
            #[inline]
            pub const fn get(self) -> u64 {
                self.0
            }

            /// Parses the form `Display` writes (the prefix then the number); `None` for anything
            /// else, a wrong prefix included.
            pub fn parse(s: &str) -> Option<Self> {
                s.strip_prefix($prefix)?.parse().ok().map(Self)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, concat!($prefix, "{}"), self.0)
            }
        }
    };
}

typed_id!(
    /// A session, shown as `$N`.
    SessionId,
    "$"
);
typed_id!(
    /// A window, shown as `@N`.
    WindowId,
    "@"
);
typed_id!(
    /// A pane, shown as `%N`.
    PaneId,
    "%"
);
typed_id!(
    /// An attached client, shown as its bare number.
    ClientId,
    ""
);

/// Hands out increasing numbers; shared by the whole server.
#[derive(Debug, Default)]
pub struct IdAllocator {
    sessions: AtomicU64,
    windows: AtomicU64,
    panes: AtomicU64,
    clients: AtomicU64,
}

impl IdAllocator {
    /// The next session id.
    pub fn session(&self) -> SessionId {
        SessionId(self.sessions.fetch_add(1, Ordering::Relaxed))
    }

    /// The next window id.
    pub fn window(&self) -> WindowId {
        WindowId(self.windows.fetch_add(1, Ordering::Relaxed))
    }

    /// The next pane id.
    pub fn pane(&self) -> PaneId {
        PaneId(self.panes.fetch_add(1, Ordering::Relaxed))
    }

    /// The next client id.
    pub fn client(&self) -> ClientId {
        ClientId(self.clients.fetch_add(1, Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_parse_round_trip() {
        assert_eq!(SessionId(3).to_string(), "$3");
        assert_eq!(WindowId(2).to_string(), "@2");
        assert_eq!(PaneId(5).to_string(), "%5");
        assert_eq!(ClientId(7).to_string(), "7");
        for n in [0, 1, 42, u64::MAX] {
            assert_eq!(
                SessionId::parse(&SessionId(n).to_string()),
                Some(SessionId(n))
            );
            assert_eq!(WindowId::parse(&WindowId(n).to_string()), Some(WindowId(n)));
            assert_eq!(PaneId::parse(&PaneId(n).to_string()), Some(PaneId(n)));
            assert_eq!(ClientId::parse(&ClientId(n).to_string()), Some(ClientId(n)));
        }
    }

    #[test]
    fn parse_refuses_the_wrong_prefix() {
        assert_eq!(PaneId::parse("%5"), Some(PaneId(5)));
        assert_eq!(PaneId::parse("@3"), None);
        assert_eq!(PaneId::parse("$3"), None);
        assert_eq!(PaneId::parse("3"), None);
        assert_eq!(WindowId::parse("%3"), None);
        assert_eq!(SessionId::parse("@3"), None);
        assert_eq!(ClientId::parse("%3"), None);
        assert_eq!(PaneId::parse("%"), None);
        assert_eq!(PaneId::parse("%x"), None);
    }
}
