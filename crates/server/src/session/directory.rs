//! What every session of the server says about itself for formats that loop over sessions
//! (`#{S:#{session_name} }`): a summary each session keeps up to date in one shared table, so
//! a session can expand such a format inside its own task without asking the others.
//!
//! A session writes its entry when its structure changed (name, windows, clients: compared
//! after each turn of its loop, see `shape.rs`) and removes it when it ends, so reading the
//! table costs one short lock and writing it nothing while nothing changes. A change is
//! announced on a watch channel, which only sessions whose status line loops over sessions
//! listen to.

use crate::ids::SessionId;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use tokio::sync::watch;

/// One session, as loops over sessions see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SessionSummary {
    /// `$N`.
    pub id: SessionId,
    /// Its name.
    pub name: String,
    /// How many windows it has.
    pub windows: usize,
    /// How many clients are attached.
    pub attached: usize,
    /// When it was made (seconds since the Unix epoch).
    pub created: u64,
    /// When a client last attached (seconds since the Unix epoch; 0 if none ever did).
    pub last_attached: u64,
    /// Its size.
    pub cols: u16,
    /// See `cols`.
    pub rows: u16,
}

impl SessionSummary {
    /// The session variables of formats (`session_name`, `session_windows`, ...).
    pub fn format_vars(&self) -> std::collections::HashMap<String, String> {
        [
            ("session_name", self.name.clone()),
            ("session_id", self.id.to_string()),
            ("session_windows", self.windows.to_string()),
            ("session_attached", self.attached.to_string()),
            ("session_created", self.created.to_string()),
            ("session_last_attached", self.last_attached.to_string()),
            ("session_width", self.cols.to_string()),
            ("session_height", self.rows.to_string()),
        ]
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
    }
}

/// Every live session's summary, shared by the registry and all sessions.
#[derive(Clone, Debug)]
pub struct SessionDirectory(Arc<Shared>);

#[derive(Debug)]
struct Shared {
    table: Mutex<BTreeMap<SessionId, SessionSummary>>,
    /// Bumped at each change of the table.
    changes: watch::Sender<u64>,
}

impl Default for SessionDirectory {
    fn default() -> Self {
        SessionDirectory(Arc::new(Shared {
            table: Mutex::default(),
            changes: watch::channel(0).0,
        }))
    }
}

impl SessionDirectory {
    /// Every session, sorted by name (as tmux's loops go).
    pub fn sessions(&self) -> Vec<SessionSummary> {
        let mut list: Vec<SessionSummary> = match self.0.table.lock() {
            Ok(table) => table.values().cloned().collect(),
            Err(_) => Vec::new(),
        };
        list.sort_by(|a, b| a.name.cmp(&b.name));
        list
    }

    /// Hears each change of the table.
    pub(super) fn changes(&self) -> watch::Receiver<u64> {
        self.0.changes.subscribe()
    }

    /// Writes a session's entry; announced only when it changed.
    pub(super) fn set(&self, summary: SessionSummary) {
        let changed = match self.0.table.lock() {
            Ok(mut table) => table.insert(summary.id, summary.clone()) != Some(summary),
            Err(_) => false,
        };
        if changed {
            self.0.changes.send_modify(|n| *n = n.wrapping_add(1));
        }
    }

    /// A session's entry, removed when the returned guard drops (the session ended).
    pub(super) fn listing(&self, id: SessionId) -> Listed {
        Listed {
            directory: self.clone(),
            id,
        }
    }
}

/// A session's place in the [`SessionDirectory`]: removed when this drops.
#[derive(Debug)]
pub(super) struct Listed {
    pub(super) directory: SessionDirectory,
    id: SessionId,
}

impl Listed {
    /// Takes the session's entry away (it is ending).
    pub(super) fn remove(&self) {
        let removed = match self.directory.0.table.lock() {
            Ok(mut table) => table.remove(&self.id).is_some(),
            Err(_) => false,
        };
        if removed {
            self.directory
                .0
                .changes
                .send_modify(|n| *n = n.wrapping_add(1));
        }
    }
}

impl Drop for Listed {
    fn drop(&mut self) {
        self.remove();
    }
}

impl super::SessionState {
    /// The session as loops over sessions see it.
    pub(super) fn summary(&self) -> SessionSummary {
        SessionSummary {
            id: self.id,
            name: self.name.clone(),
            windows: self.windows.len(),
            attached: self.clients.len(),
            created: self.created,
            last_attached: self.last_attached,
            cols: self.cols,
            rows: self.rows,
        }
    }

    /// Writes the session's summary for the others.
    pub(super) fn publish_summary(&self) {
        self.listed.directory.set(self.summary());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(id: SessionId, name: &str) -> SessionSummary {
        SessionSummary {
            id,
            name: name.into(),
            windows: 1,
            attached: 0,
            created: 0,
            last_attached: 0,
            cols: 80,
            rows: 24,
        }
    }

    #[test]
    fn sessions_come_by_name_and_leave_when_they_end() {
        let ids = crate::ids::IdAllocator::default();
        let directory = SessionDirectory::default();
        let (a, b) = (ids.session(), ids.session());
        let listed_a = directory.listing(a);
        let listed_b = directory.listing(b);
        directory.set(summary(a, "zeta"));
        directory.set(summary(b, "alpha"));
        let names = |d: &SessionDirectory| -> Vec<String> {
            d.sessions().into_iter().map(|s| s.name).collect()
        };
        assert_eq!(names(&directory), ["alpha", "zeta"]);
        directory.set(summary(a, "beta"));
        assert_eq!(names(&directory), ["alpha", "beta"]);
        listed_b.remove();
        assert_eq!(names(&directory), ["beta"]);
        drop(listed_a);
        drop(listed_b);
        assert!(directory.sessions().is_empty());
    }
}
