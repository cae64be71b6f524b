//! The panes a subscriber watches, and their output as events. Output is never queued: each
//! pane's revision says whether it changed since the subscriber last sent it, and its rows are
//! read from the pane (`PaneHandle::snapshot`) only when the subscriber can send them, so a
//! reader that stops costs nothing however much a pane prints.

use crate::ids::{PaneId, SessionId};
use crate::pane::{PaneHandle, PaneSnapshot};
use serde_json::json;
use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::Notify;

/// A watched pane.
struct Watched {
    handle: PaneHandle,
    session: Option<SessionId>,
    /// The revision the subscriber last sent (0: nothing yet; the first event has every row).
    sent: u64,
    /// The pane is leaving the subscriber's view: forgotten once its last output is sent.
    leaving: bool,
}

/// The panes a subscriber watches, all waking one [`Notify`].
pub(super) struct Panes {
    watched: BTreeMap<PaneId, Watched>,
    /// Woken by any watched pane's change (coalescing: many changes, one wake-up).
    pub(super) changed: Arc<Notify>,
}

impl Panes {
    /// No panes yet.
    pub(super) fn new() -> Self {
        Panes {
            watched: BTreeMap::new(),
            changed: Arc::new(Notify::new()),
        }
    }

    /// Watches `handle` (of `session`) from its revision `sent` on; a pane watched already
    /// (moved to another window or session) keeps its revision and stays.
    pub(super) fn watch(&mut self, handle: PaneHandle, session: Option<SessionId>, sent: u64) {
        match self.watched.entry(handle.id()) {
            std::collections::btree_map::Entry::Occupied(mut slot) => {
                let w = slot.get_mut();
                w.session = session;
                w.leaving = false;
            }
            std::collections::btree_map::Entry::Vacant(slot) => {
                handle.watch(&self.changed);
                slot.insert(Watched {
                    handle,
                    session,
                    sent,
                    leaving: false,
                });
            }
        }
    }

    /// Marks every pane whose program has exited as leaving: after the subscriber missed
    /// events, it may have missed their exits, and a gone pane's screen must not be kept.
    pub(super) fn leave_exited(&mut self) {
        for w in self.watched.values_mut() {
            if w.handle.exit_code().is_some() {
                w.leaving = true;
            }
        }
    }

    /// Watches `handle` from what it shows now: only later changes are sent.
    pub(super) fn watch_from_now(&mut self, handle: PaneHandle, session: Option<SessionId>) {
        let now = handle.shared.seq.load(Ordering::Acquire);
        self.watch(handle, session, now);
    }

    /// Marks pane `pane` as leaving: its last output goes out, then it is forgotten.
    pub(super) fn leaving(&mut self, pane: PaneId) {
        if let Some(w) = self.watched.get_mut(&pane) {
            w.leaving = true;
        }
    }

    /// Whether any watched pane changed since its output was last sent.
    pub(super) fn any_changed(&self) -> bool {
        self.watched.values().any(Watched::changed)
    }

    /// Whether pane `pane` is watched and changed since its output was last sent.
    pub(super) fn changed(&self, pane: PaneId) -> bool {
        self.watched.get(&pane).is_some_and(Watched::changed)
    }

    /// Appends pane `pane`'s output event (a JSON line) to `out` if it changed.
    pub(super) async fn write_output(&mut self, pane: PaneId, out: &mut Vec<u8>) {
        let Some(w) = self.watched.get_mut(&pane) else {
            return;
        };
        if !w.changed() {
            return;
        }
        let snapshot = match w.handle.snapshot(w.sent).await {
            Some(s) => Some(s),
            None => w.handle.last_snapshot(w.sent),
        };
        let Some(snapshot) = snapshot else {
            // The screen is gone with its pane: nothing more will come.
            w.sent = u64::MAX;
            return;
        };
        w.sent = snapshot.seq;
        if !snapshot.changed.is_empty() {
            super::push_line(out, &output_event(pane, w.session, &snapshot));
        }
    }

    /// Appends the output events of every changed pane to `out`.
    pub(super) async fn write_all_output(&mut self, out: &mut Vec<u8>) {
        let changed: Vec<PaneId> = self
            .watched
            .iter()
            .filter(|(_, w)| w.changed())
            .map(|(id, _)| *id)
            .collect();
        for pane in changed {
            self.write_output(pane, out).await;
        }
    }

    /// Forgets the leaving panes that `still_needed` does not name, their last output sent
    /// first.
    pub(super) async fn forget_leaving(
        &mut self,
        still_needed: impl Fn(PaneId) -> bool,
        out: &mut Vec<u8>,
    ) {
        let leaving: Vec<PaneId> = self
            .watched
            .iter()
            .filter(|(id, w)| w.leaving && !still_needed(**id))
            .map(|(id, _)| *id)
            .collect();
        for pane in leaving {
            self.write_output(pane, out).await;
            self.watched.remove(&pane);
        }
    }
}

impl Watched {
    fn changed(&self) -> bool {
        self.handle.shared.seq.load(Ordering::Acquire) > self.sent
    }
}

/// The JSON of pane `pane`'s output: its revision, size, cursor and the changed rows' text.
fn output_event(
    pane: PaneId,
    session: Option<SessionId>,
    snapshot: &PaneSnapshot,
) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = snapshot
        .changed
        .iter()
        .map(|(row, cells)| {
            let mut text = String::with_capacity(cells.len());
            for cell in cells {
                cell.push_text(&mut text);
            }
            let kept = text.trim_end_matches(' ').len();
            text.truncate(kept);
            json!({ "row": row, "text": text })
        })
        .collect();
    let mut event = json!({
        "event": "output",
        "pane": pane.to_string(),
        "revision": snapshot.seq,
        "cols": snapshot.cols,
        "lines": snapshot.rows,
        "cursor": { "row": snapshot.cursor.row, "col": snapshot.cursor.col },
        "rows": rows,
    });
    if let (Some(s), Some(object)) = (session, event.as_object_mut()) {
        object.insert("session".into(), s.to_string().into());
    }
    event
}
