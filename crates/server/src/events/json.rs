//! Events as `weft subscribe` prints them: one JSON object a line, `"event"` naming what
//! happened, ids in weft's forms (`$1`, `@2`, `%3`), and `"session"` and `"pane"` where they
//! apply.

use super::{EventKind, ServerEvent};
use serde_json::{json, Map, Value};
use weft_screen_model::handler::PromptMark;

impl ServerEvent {
    /// The event as one JSON object.
    pub fn to_json(&self) -> Value {
        let (name, mut fields) = self.kind.name_and_fields();
        let mut object = Map::new();
        object.insert("event".into(), name.into());
        if let Some(s) = self.session {
            object.insert("session".into(), s.to_string().into());
        }
        if let Some(p) = self.pane {
            object.insert("pane".into(), p.to_string().into());
        }
        object.append(&mut fields);
        Value::Object(object)
    }
}

impl EventKind {
    /// The event's name and its own fields.
    fn name_and_fields(&self) -> (&'static str, Map<String, Value>) {
        let (name, fields) = match self {
            EventKind::SessionAdded { name } => ("session-added", json!({ "name": name })),
            EventKind::SessionClosed => ("session-closed", json!({})),
            EventKind::SessionRenamed { name } => ("session-renamed", json!({ "name": name })),
            EventKind::SessionResized { cols, rows } => {
                ("session-resized", json!({ "cols": cols, "rows": rows }))
            }
            EventKind::WindowAdded {
                window,
                index,
                name,
            } => (
                "window-added",
                json!({ "window": window.to_string(), "index": index, "name": name }),
            ),
            EventKind::WindowRemoved { window } => {
                ("window-removed", json!({ "window": window.to_string() }))
            }
            EventKind::WindowRenamed { window, name } => (
                "window-renamed",
                json!({ "window": window.to_string(), "name": name }),
            ),
            EventKind::LayoutChanged {
                window,
                cols,
                rows,
                zoomed,
                panes,
            } => {
                let panes: Vec<Value> = panes
                    .iter()
                    .map(|p| {
                        json!({
                            "pane": p.pane.to_string(),
                            "left": p.col,
                            "top": p.row,
                            "cols": p.cols,
                            "rows": p.rows,
                        })
                    })
                    .collect();
                (
                    "layout-changed",
                    json!({
                        "window": window.to_string(),
                        "cols": cols,
                        "rows": rows,
                        "zoomed": zoomed,
                        "panes": panes,
                    }),
                )
            }
            EventKind::PaneAdded { window, .. } => {
                ("pane-added", json!({ "window": window.to_string() }))
            }
            EventKind::PaneRemoved => ("pane-removed", json!({})),
            EventKind::PaneResized { cols, rows } => {
                ("pane-resized", json!({ "cols": cols, "rows": rows }))
            }
            EventKind::PaneExited { status, signal } => {
                ("pane-exited", json!({ "status": status, "signal": signal }))
            }
            EventKind::PaneDied { status } => ("pane-died", json!({ "status": status })),
            EventKind::Title(title) => ("title", json!({ "title": title })),
            EventKind::Bell => ("bell", json!({})),
            EventKind::Cwd(path) => ("cwd", json!({ "path": path })),
            EventKind::Mark { mark, status } => {
                let mark = match mark {
                    PromptMark::PromptStart => "prompt-start",
                    PromptMark::CommandStart => "command-start",
                    PromptMark::OutputStart => "output-start",
                    PromptMark::CommandEnd => "command-end",
                };
                ("mark", json!({ "mark": mark, "status": status }))
            }
            EventKind::ClientAttached { client } => {
                ("client-attached", json!({ "client": client.get() }))
            }
            EventKind::ClientDetached { client } => {
                ("client-detached", json!({ "client": client.get() }))
            }
            EventKind::ServerExiting => ("server-exiting", json!({})),
        };
        match fields {
            Value::Object(map) => (name, map),
            _ => (name, Map::new()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{PaneId, SessionId};

    #[test]
    fn events_name_themselves_and_where() {
        let event = ServerEvent {
            session: Some(SessionId(2)),
            pane: Some(PaneId(5)),
            kind: EventKind::Mark {
                mark: PromptMark::CommandEnd,
                status: Some(3),
            },
        };
        assert_eq!(
            event.to_json(),
            json!({
                "event": "mark", "session": "$2", "pane": "%5",
                "mark": "command-end", "status": 3,
            })
        );
        let exit = ServerEvent {
            session: None,
            pane: None,
            kind: EventKind::ServerExiting,
        };
        assert_eq!(exit.to_json(), json!({ "event": "server-exiting" }));
    }
}
