//! The subscription feed: what happens in the server (a window made or renamed, a pane's
//! program exited, a bell, a title, a shell's marks, clients coming and going), told to
//! `weft subscribe`. It sits beside the hook feed: the session and registry tasks that fire
//! hooks publish here too, never waiting.
//!
//! The feed is a broadcast channel of bounded capacity: each subscriber's task drains it into
//! its own bounded queue at once, and one that falls behind anyway is told how many events it
//! missed (`Lagged`). Publishing with nobody subscribed costs one atomic load. Pane output is
//! not on the feed: subscribers read it from the panes themselves, when they can send it.

mod json;

use crate::ids::{ClientId, PaneId, SessionId, WindowId};
use crate::pane::PaneHandle;
use std::sync::Arc;
use tokio::sync::broadcast;

/// Events on the feed that no subscriber's task has taken yet. Tasks take events as soon as
/// they run, so this only has to cover a burst while a task waits for a worker (a program
/// ringing the bell in a loop); a task that misses events hears how many.
pub const EVENT_FEED_CAPACITY: usize = 256;

/// Something that happened, and where.
#[derive(Clone, Debug)]
pub struct ServerEvent {
    /// The session it happened in (none for the server itself).
    pub session: Option<SessionId>,
    /// The pane it concerns, if one.
    pub pane: Option<PaneId>,
    /// What happened.
    pub kind: EventKind,
}

/// A pane's place in its window, for layout events.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PanePlace {
    /// The pane.
    pub pane: PaneId,
    /// Left column in the window.
    pub col: u16,
    /// Top row in the window.
    pub row: u16,
    /// Width.
    pub cols: u16,
    /// Height.
    pub rows: u16,
}

/// What happened.
#[derive(Clone, Debug)]
pub enum EventKind {
    /// A session started (named so).
    SessionAdded {
        /// Its name.
        name: String,
    },
    /// A session ended.
    SessionClosed,
    /// A session was renamed.
    SessionRenamed {
        /// The new name.
        name: String,
    },
    /// A session's size changed (status line included).
    SessionResized {
        /// Columns.
        cols: u16,
        /// Rows.
        rows: u16,
    },
    /// A window was made.
    WindowAdded {
        /// The window.
        window: WindowId,
        /// Its index in the session.
        index: u32,
        /// Its name.
        name: String,
    },
    /// A window closed.
    WindowRemoved {
        /// The window.
        window: WindowId,
    },
    /// A window was renamed (by hand or after its program).
    WindowRenamed {
        /// The window.
        window: WindowId,
        /// The new name.
        name: String,
    },
    /// A window's panes moved, split, closed or changed size, or it was zoomed.
    LayoutChanged {
        /// The window.
        window: WindowId,
        /// The window's width.
        cols: u16,
        /// The window's height.
        rows: u16,
        /// Its active pane fills it.
        zoomed: bool,
        /// Every pane and where it lies.
        panes: Vec<PanePlace>,
    },
    /// A pane joined a window of the session (new, split, or moved there).
    PaneAdded {
        /// Its window.
        window: WindowId,
        /// The pane, for subscribers to read its output.
        handle: PaneHandle,
    },
    /// A pane left the session's windows (closed, or moved to another session).
    PaneRemoved,
    /// A pane's size changed.
    PaneResized {
        /// Columns.
        cols: u16,
        /// Rows.
        rows: u16,
    },
    /// A pane's program exited.
    PaneExited {
        /// Its exit code (128 + n for a signal, as shells say).
        status: u32,
        /// The signal that ended it, if one did.
        signal: Option<String>,
    },
    /// A pane's program exited and the pane stays, showing its status (`remain-on-exit`);
    /// `PaneExited` follows when the pane goes.
    PaneDied {
        /// Its exit code.
        status: Option<i64>,
    },
    /// A pane's program set its title.
    Title(String),
    /// A pane's program rang the bell.
    Bell,
    /// A pane's program said where it is (OSC 7): the path, or the URL when it is no file URL.
    Cwd(String),
    /// A shell-integration mark (OSC 133).
    Mark {
        /// Which mark.
        mark: weft_screen_model::handler::PromptMark,
        /// The exit status a command-end mark carries.
        status: Option<i32>,
    },
    /// A client attached to the session.
    ClientAttached {
        /// The client.
        client: ClientId,
    },
    /// A client left the session (detached, switched away or gone).
    ClientDetached {
        /// The client.
        client: ClientId,
    },
    /// The server is exiting: subscriptions end.
    ServerExiting,
}

/// Where events are published: cheap to clone, never waits.
#[derive(Clone, Debug)]
pub struct EventFeed {
    tx: broadcast::Sender<Arc<ServerEvent>>,
}

impl Default for EventFeed {
    fn default() -> Self {
        let (tx, _) = broadcast::channel(EVENT_FEED_CAPACITY);
        EventFeed { tx }
    }
}

impl EventFeed {
    /// Whether anyone listens (events are only built when so).
    pub fn is_heard(&self) -> bool {
        self.tx.receiver_count() > 0
    }

    /// Publishes `kind` for `session` and `pane`. Never waits; nothing happens when nobody
    /// listens.
    pub fn publish(&self, session: Option<SessionId>, pane: Option<PaneId>, kind: EventKind) {
        if self.is_heard() {
            let _ = self.tx.send(Arc::new(ServerEvent {
                session,
                pane,
                kind,
            }));
        }
    }

    /// A new subscriber's end of the feed: events from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<ServerEvent>> {
        self.tx.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publishing_unheard_costs_nothing_and_a_slow_subscriber_hears_it_lagged() {
        let feed = EventFeed::default();
        feed.publish(None, None, EventKind::ServerExiting);
        let mut rx = feed.subscribe();
        for _ in 0..EVENT_FEED_CAPACITY + 5 {
            feed.publish(Some(SessionId(1)), None, EventKind::SessionClosed);
        }
        assert!(matches!(
            rx.try_recv(),
            Err(broadcast::error::TryRecvError::Lagged(5))
        ));
        assert!(rx.try_recv().is_ok());
    }
}
