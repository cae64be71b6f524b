//! What subscribers hear of a session's structure: its name, size, windows, each window's
//! layout and its clients, compared after each turn of the session's loop with what they were
//! before, the difference published as events (`weft subscribe`). Comparing in one place
//! catches every command that changes the structure, however it does so.

use super::SessionState;
use crate::events::{EventKind, PanePlace};
use crate::ids::{ClientId, PaneId, WindowId};
use std::collections::BTreeMap;

/// A session's structure, as subscribers hear of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Shape {
    name: String,
    size: (u16, u16),
    windows: Vec<WindowShape>,
    clients: Vec<ClientId>,
}

/// A window's part of a [`Shape`].
#[derive(Clone, Debug, PartialEq, Eq)]
struct WindowShape {
    id: WindowId,
    index: u32,
    name: String,
    cols: u16,
    rows: u16,
    zoomed: bool,
    active: PaneId,
    panes: Vec<PanePlace>,
}

impl WindowShape {
    /// The size each pane has: its place's, or the whole window for a zoomed active pane.
    fn sizes(&self) -> impl Iterator<Item = (PaneId, (u16, u16))> + '_ {
        self.panes.iter().map(|p| {
            let size = if self.zoomed && p.pane == self.active {
                (self.cols, self.rows)
            } else {
                (p.cols, p.rows)
            };
            (p.pane, size)
        })
    }

    fn layout_event(&self) -> EventKind {
        EventKind::LayoutChanged {
            window: self.id,
            cols: self.cols,
            rows: self.rows,
            zoomed: self.zoomed,
            panes: self.panes.clone(),
        }
    }

    fn same_layout(&self, other: &WindowShape) -> bool {
        (self.cols, self.rows, self.zoomed, &self.panes)
            == (other.cols, other.rows, other.zoomed, &other.panes)
    }
}

impl Shape {
    /// A session before any window: what its first windows are compared with.
    pub(super) fn empty(name: &str, size: (u16, u16)) -> Self {
        Shape {
            name: name.to_string(),
            size,
            ..Shape::default()
        }
    }
}

impl SessionState {
    /// The session's structure now.
    fn shape(&self) -> Shape {
        let windows = self
            .windows
            .iter()
            .map(|w| WindowShape {
                id: w.id,
                index: w.index,
                name: w.name.clone(),
                cols: w.layout.cols(),
                rows: w.layout.rows(),
                zoomed: w.zoomed,
                active: w.active,
                panes: w
                    .layout
                    .rects()
                    .into_iter()
                    .map(|(pane, r)| PanePlace {
                        pane,
                        col: r.col,
                        row: r.row,
                        cols: r.cols,
                        rows: r.rows,
                    })
                    .collect(),
            })
            .collect();
        let mut clients: Vec<ClientId> = self.clients.keys().copied().collect();
        clients.sort_unstable();
        Shape {
            name: self.name.clone(),
            size: (self.cols, self.rows),
            windows,
            clients,
        }
    }

    /// Publishes what changed in the session's structure since last time. Cheap when nothing
    /// did: the structure is compared, no event is built.
    pub(super) fn publish_shape(&mut self) {
        let now = self.shape();
        if now == self.shape_seen {
            return;
        }
        let before = std::mem::replace(&mut self.shape_seen, now);
        self.publish_summary();
        if !self.feed.is_heard() {
            return;
        }
        for (pane, kind) in self.shape_changes(&before) {
            self.feed.publish(Some(self.id), pane, kind);
        }
    }

    /// The events that turn `before` into the shape last seen, in the order a reader expects:
    /// clients attached, the session, windows made, panes added, renames and layouts, resizes,
    /// panes removed, windows closed, clients detached.
    fn shape_changes(&self, before: &Shape) -> Vec<(Option<PaneId>, EventKind)> {
        let now = &self.shape_seen;
        let mut out = Vec::new();
        // A client attaching comes first: the session may take its size.
        for c in now.clients.iter().filter(|c| !before.clients.contains(c)) {
            out.push((None, EventKind::ClientAttached { client: *c }));
        }
        if now.name != before.name {
            out.push((
                None,
                EventKind::SessionRenamed {
                    name: now.name.clone(),
                },
            ));
        }
        if now.size != before.size {
            let (cols, rows) = now.size;
            out.push((None, EventKind::SessionResized { cols, rows }));
        }
        let old_windows: BTreeMap<WindowId, &WindowShape> =
            before.windows.iter().map(|w| (w.id, w)).collect();
        let new_ids: Vec<WindowId> = now.windows.iter().map(|w| w.id).collect();
        for w in now
            .windows
            .iter()
            .filter(|w| !old_windows.contains_key(&w.id))
        {
            out.push((
                None,
                EventKind::WindowAdded {
                    window: w.id,
                    index: w.index,
                    name: w.name.clone(),
                },
            ));
        }
        // Panes by window and size, before and now.
        let places = |shape: &Shape| -> BTreeMap<PaneId, (WindowId, (u16, u16))> {
            shape
                .windows
                .iter()
                .flat_map(|w| w.sizes().map(move |(p, size)| (p, (w.id, size))))
                .collect()
        };
        let (old_panes, new_panes) = (places(before), places(now));
        for (pane, (window, _)) in &new_panes {
            let moved = old_panes.get(pane).is_none_or(|(w, _)| w != window);
            if let Some(handle) = self.panes.get(pane).filter(|_| moved) {
                out.push((
                    Some(*pane),
                    EventKind::PaneAdded {
                        window: *window,
                        handle: handle.clone(),
                    },
                ));
            }
        }
        for w in &now.windows {
            match old_windows.get(&w.id) {
                Some(old) => {
                    if old.name != w.name {
                        out.push((
                            None,
                            EventKind::WindowRenamed {
                                window: w.id,
                                name: w.name.clone(),
                            },
                        ));
                    }
                    if !old.same_layout(w) {
                        out.push((None, w.layout_event()));
                    }
                }
                None => out.push((None, w.layout_event())),
            }
        }
        for (pane, (_, size)) in &new_panes {
            if old_panes.get(pane).is_some_and(|(_, old)| old != size) {
                let (cols, rows) = *size;
                out.push((Some(*pane), EventKind::PaneResized { cols, rows }));
            }
        }
        for pane in old_panes.keys().filter(|p| !new_panes.contains_key(p)) {
            out.push((Some(*pane), EventKind::PaneRemoved));
        }
        for w in before.windows.iter().filter(|w| !new_ids.contains(&w.id)) {
            out.push((None, EventKind::WindowRemoved { window: w.id }));
        }
        for c in before.clients.iter().filter(|c| !now.clients.contains(c)) {
            out.push((None, EventKind::ClientDetached { client: *c }));
        }
        out
    }
}
