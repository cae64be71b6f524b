//! A session described for `list-panes`, `list-windows` and `ls`.

use super::SessionState;
use crate::ids::PaneId;
use crate::layout::Rect;
use crate::names::clean_name;
use weft_protocol::{PaneInfo, SessionInfo};

/// An attached client, for `list-clients`.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ClientInfo {
    /// Its name (`client-N`), which `switch-client -c` and `detach-client -t` take.
    pub name: String,
    /// The session it shows (`$N`).
    pub session_id: String,
    /// That session's name.
    pub session: String,
    /// Its terminal's size.
    pub cols: u16,
    /// See `cols`.
    pub rows: u16,
    /// It only watches.
    pub read_only: bool,
    /// The session follows its size.
    pub latest: bool,
    /// When it attached (seconds since the Unix epoch).
    pub attached: u64,
    /// What its terminal said it is and can do (filled in by `list-clients`).
    pub terminal: Option<crate::terminal::TerminalSummary>,
}

/// A window as `choose-tree` shows it.
#[derive(Clone, Debug)]
pub struct TreeWindow {
    /// Its id.
    pub id: crate::ids::WindowId,
    /// Its index.
    pub index: u32,
    /// Its name.
    pub name: String,
    /// The session's current window.
    pub current: bool,
    /// Its panes in layout order: id, title, whether active, and the handle (for previews).
    pub panes: Vec<(PaneId, String, bool, crate::pane::PaneHandle)>,
}

impl SessionState {
    /// The windows and their panes, for `choose-tree`.
    pub fn tree(&self) -> Vec<TreeWindow> {
        self.windows
            .iter()
            .enumerate()
            .map(|(pos, w)| TreeWindow {
                id: w.id,
                index: w.index,
                name: clean_name(&w.name),
                current: pos == self.current,
                panes: w
                    .layout
                    .panes()
                    .into_iter()
                    .filter_map(|id| {
                        let p = self.panes.get(&id)?;
                        Some((id, clean_name(&p.shared.title()), id == w.active, p.clone()))
                    })
                    .collect(),
            })
            .collect()
    }

    /// The attached clients, oldest first.
    pub fn client_list(&self) -> Vec<ClientInfo> {
        let mut list: Vec<_> = self
            .clients
            .iter()
            .map(|(id, c)| ClientInfo {
                name: format!("client-{id}"),
                session_id: self.id.to_string(),
                session: self.name.clone(),
                cols: c.cols,
                rows: c.rows,
                read_only: c.read_only,
                latest: self.latest.is(*id),
                attached: c.since,
                terminal: None,
            })
            .collect();
        list.sort_by_key(|c| c.attached);
        list
    }

    /// Whether client `client` is attached here.
    pub fn has_client(&self, client: crate::ids::ClientId) -> bool {
        self.clients.contains_key(&client)
    }

    /// Renames the session (the registry has checked the name).
    pub fn rename(&mut self, name: String) {
        self.name = name;
        self.generation += 1;
    }

    /// The panes of window `wpos`, one a line (or JSON), for `list-panes`.
    pub fn list_panes(&self, wpos: usize, json: bool) -> String {
        let (lines, items) = self.pane_listing(&[wpos], "");
        if json {
            return serde_json::Value::Array(items).to_string();
        }
        lines.join("\n")
    }

    /// The panes of the windows at `wposes`, as lines (each after `prefix` and, with several
    /// windows, the window's index) and as JSON items, for `list-panes` with `-s` and `-a`.
    pub fn pane_listing(
        &self,
        wposes: &[usize],
        prefix: &str,
    ) -> (Vec<String>, Vec<serde_json::Value>) {
        let mut lines = Vec::new();
        let mut items = Vec::new();
        for &wpos in wposes {
            let Some(w) = self.windows.get(wpos) else {
                continue;
            };
            let window = if wposes.len() > 1 || !prefix.is_empty() {
                format!("{prefix}{}.", w.index)
            } else {
                String::new()
            };
            // A zoomed pane fills the window: its size is what its program sees.
            let area = Rect {
                col: 0,
                row: 0,
                cols: w.layout.cols(),
                rows: w.layout.rows(),
            };
            let base = self.pane_base_index();
            for (i, (id, r)) in w.layout.rects().into_iter().enumerate() {
                let i = i + base;
                let r = if w.zoomed && id == w.active { area } else { r };
                let p = self.panes.get(&id);
                let meta = self.pane_meta.get(&id);
                items.push(serde_json::json!({
                    "id": id.to_string(),
                    "index": i,
                    "window": w.id.to_string(),
                    "session": self.id.to_string(),
                    "cols": r.cols,
                    "rows": r.rows,
                    "left": r.col,
                    "top": r.row,
                    "active": id == w.active,
                    "pid": p.and_then(|p| p.shared.pid),
                    "title": p.map(|p| clean_name(&p.shared.title())).unwrap_or_default(),
                    "current_path": meta.and_then(|m| m.cwd.clone()),
                    "last_mark": meta.and_then(|m| m.last_mark).map(mark_name),
                    "clipboard_bytes": meta.and_then(|m| m.clipboard.as_ref()).map(Vec::len),
                }));
                lines.push(format!(
                    "{window}{i}: [{}x{}] {id}{}",
                    r.cols,
                    r.rows,
                    if id == w.active { " (active)" } else { "" }
                ));
            }
        }
        (lines, items)
    }

    /// The windows, one a line (or JSON), for `list-windows`.
    pub fn list_windows(&self, json: bool) -> String {
        if json {
            let items: Vec<serde_json::Value> = self
                .windows
                .iter()
                .enumerate()
                .map(|(i, w)| {
                    serde_json::json!({
                        "id": w.id.to_string(),
                        "index": w.index,
                        "name": clean_name(&w.name),
                        "session": self.id.to_string(),
                        "panes": w.layout.panes().len(),
                        "active": i == self.current,
                        "zoomed": w.zoomed,
                        "bell": w.bell,
                        "cols": w.layout.cols(),
                        "rows": w.layout.rows(),
                    })
                })
                .collect();
            return serde_json::Value::Array(items).to_string();
        }
        self.windows
            .iter()
            .enumerate()
            .map(|(i, w)| {
                format!(
                    "{}: {}{} ({} panes) [{}x{}] {}",
                    w.index,
                    clean_name(&w.name),
                    if i == self.current { "*" } else { "" },
                    w.layout.panes().len(),
                    w.layout.cols(),
                    w.layout.rows(),
                    w.id
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The session as `ls` shows it.
    pub fn info(&self) -> SessionInfo {
        let window = self.windows.get(self.current);
        SessionInfo {
            id: self.id.to_string(),
            name: self.name.clone(),
            clients: self.clients.len(),
            cols: self.cols,
            rows: self.rows,
            created: self.created,
            windows: self.windows.len(),
            panes: window
                .map(|w| w.layout.panes())
                .unwrap_or_default()
                .into_iter()
                .filter_map(|id| self.panes.get(&id))
                .map(|p| {
                    let (cols, rows) = p.shared.size();
                    PaneInfo {
                        id: p.id().to_string(),
                        cols,
                        rows,
                        pid: p.shared.pid,
                        title: clean_name(&p.shared.title()),
                    }
                })
                .collect(),
        }
    }
}

/// An OSC 133 mark's name in listings.
fn mark_name(mark: weft_screen_model::handler::PromptMark) -> &'static str {
    use weft_screen_model::handler::PromptMark;
    match mark {
        PromptMark::PromptStart => "prompt-start",
        PromptMark::CommandStart => "command-start",
        PromptMark::OutputStart => "output-start",
        PromptMark::CommandEnd => "command-end",
    }
}
