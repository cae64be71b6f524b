//! `choose-tree`: the server's sessions, their windows and panes as a tree over the window,
//! with a live preview of the selected item's active pane below it. Up/Down (k/j) move,
//! Right/Left (+/-) expand and collapse, Enter shows the selection, `x` kills it after a y/n,
//! `f` filters by typed text (window names, pane titles), `q` or Escape leave. With the mouse,
//! the wheel moves, a click selects a row and a click on the selected row chooses it.

use super::ui::{After, ClientLoop, Ui};
use crate::capture::CaptureOptions;
use crate::cmd::run::{execute, Origin};
use crate::cmd::session::windows_of;
use crate::ids::{PaneId, SessionId, WindowId};
use crate::keys::{Input, MouseEvent};
use crate::pane::PaneHandle;
use crate::render::{Overlay, RenderControl};
use crate::session::{SessionHandle, TreeWindow};
use std::collections::HashSet;
use std::sync::Arc;
use tokio::sync::{mpsc, Notify};
use tokio_util::sync::CancellationToken;

/// Least time between two preview redraws while the previewed pane's output streams: the
/// preview follows the pane a few times a second, not at every byte.
const PREVIEW_PACE: std::time::Duration = std::time::Duration::from_millis(100);

/// An item of the tree.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Item {
    Session(SessionId),
    Window(SessionId, WindowId),
    Pane(SessionId, WindowId, PaneId),
}

/// What keys do in the tree now.
#[derive(Debug, Default)]
enum Mode {
    #[default]
    Browse,
    /// Typing the filter.
    Filter,
    /// Waiting for y/n to kill the selection.
    Confirm,
}

/// The tree's state between keys.
#[derive(Debug, Default)]
pub(super) struct Tree {
    expanded: HashSet<Item>,
    selected: Option<Item>,
    filter: String,
    mode: Mode,
    top: usize,
    /// Items killed from the tree: their programs end a moment later, and they are not shown
    /// meanwhile (ids are never reused).
    killed: HashSet<Item>,
    /// Stops the task that keeps the preview live.
    preview: Option<CancellationToken>,
    /// No preview: the tree takes the whole window (`choose-tree -N`).
    no_preview: bool,
}

/// One row of the tree as drawn.
struct Row {
    item: Item,
    text: String,
    session: SessionHandle,
    /// The pane the preview shows for it.
    pane: Option<PaneHandle>,
    /// It has children to expand.
    parent: bool,
}

impl Drop for Tree {
    /// The preview task ends with the tree (the client left, or the tree was replaced).
    fn drop(&mut self) {
        self.stop_preview();
    }
}

impl Tree {
    fn stop_preview(&mut self) {
        if let Some(token) = self.preview.take() {
            token.cancel();
        }
    }
}

/// Stands for a click that selected a row: the tree is drawn again, nothing else.
const CLICKED: &str = "click";

fn key_name(input: &Input) -> Option<&str> {
    match input {
        Input::Key { name, .. } => Some(name),
        _ => None,
    }
}

impl ClientLoop {
    /// Opens the tree: sessions collapsed, or (`windows`) expanded to their windows; the
    /// client's session (or its current window) selected.
    pub(super) async fn open_tree(&mut self, windows: bool, no_preview: bool) {
        let mut tree = Tree::default();
        tree.no_preview = no_preview;
        let me = self.session.id;
        if windows {
            for s in self.ctx.registry.all().await {
                tree.expanded.insert(Item::Session(s.id));
            }
            let current = windows_of(&self.session).await;
            tree.selected = current
                .iter()
                .find(|w| w.current)
                .map(|w| Item::Window(me, w.id));
        }
        if tree.selected.is_none() {
            tree.selected = Some(Item::Session(me));
        }
        self.draw_tree(tree).await;
    }

    /// A key while the tree is shown.
    pub(super) async fn tree_key(&mut self, mut tree: Tree, input: &Input) -> After {
        let clicked = match input {
            Input::Mouse(event) if matches!(tree.mode, Mode::Browse) => {
                self.tree_click(&mut tree, event).await
            }
            _ => None,
        };
        let Some(name) = clicked.or_else(|| key_name(input)) else {
            self.ui = Ui::Tree(tree);
            return After::Continue;
        };
        let rows = self.tree_rows(&tree).await;
        let pos = rows
            .iter()
            .position(|r| Some(&r.item) == tree.selected.as_ref())
            .unwrap_or(0);
        match tree.mode {
            Mode::Filter => {
                match name {
                    "Enter" => tree.mode = Mode::Browse,
                    "Escape" | "C-c" | "C-g" => {
                        tree.filter.clear();
                        tree.mode = Mode::Browse;
                    }
                    "BSpace" | "C-h" => {
                        tree.filter.pop();
                    }
                    "C-u" => tree.filter.clear(),
                    "Space" => tree.filter.push(' '),
                    n if n.chars().count() == 1 => tree.filter.push_str(n),
                    _ => {}
                }
                self.draw_tree(tree).await;
                return After::Continue;
            }
            Mode::Confirm => {
                tree.mode = Mode::Browse;
                if name == "y" || name == "Y" {
                    if let Some(row) = rows.get(pos) {
                        let line = match &row.item {
                            Item::Session(s) => format!("kill-session -t {s}"),
                            Item::Window(s, w) => format!("kill-window -t {s}:{w}"),
                            Item::Pane(_, _, p) => format!("kill-pane -t {p}"),
                        };
                        self.run_quietly(&line).await;
                        tree.killed.insert(row.item.clone());
                        // The selection goes to the row above, which stays.
                        tree.selected = pos
                            .checked_sub(1)
                            .and_then(|p| rows.get(p))
                            .map(|r| r.item.clone());
                    }
                }
                self.draw_tree(tree).await;
                return After::Continue;
            }
            Mode::Browse => {}
        }
        match name {
            "Up" | "k" | "C-p" => {
                let p = if pos == 0 {
                    rows.len().saturating_sub(1)
                } else {
                    pos - 1
                };
                tree.selected = rows.get(p).map(|r| r.item.clone());
            }
            "Down" | "j" | "C-n" => {
                let p = if pos + 1 >= rows.len() { 0 } else { pos + 1 };
                tree.selected = rows.get(p).map(|r| r.item.clone());
            }
            "Right" | "l" | "+" => {
                if let Some(row) = rows.get(pos).filter(|r| r.parent) {
                    tree.expanded.insert(row.item.clone());
                }
            }
            "Left" | "h" | "-" => {
                if let Some(row) = rows.get(pos) {
                    if !tree.expanded.remove(&row.item) {
                        // Collapsed already: go to the parent and collapse it.
                        let parent = match &row.item {
                            Item::Session(_) => None,
                            Item::Window(s, _) => Some(Item::Session(*s)),
                            Item::Pane(s, w, _) => Some(Item::Window(*s, *w)),
                        };
                        if let Some(parent) = parent {
                            tree.expanded.remove(&parent);
                            tree.selected = Some(parent);
                        }
                    }
                }
            }
            "f" => tree.mode = Mode::Filter,
            "x" if !rows.is_empty() => tree.mode = Mode::Confirm,
            "Enter" => {
                self.close_tree(tree).await;
                return match rows.get(pos) {
                    Some(row) => self.choose(row).await,
                    None => After::Continue,
                };
            }
            "q" | "Escape" | "C-c" | "C-g" => {
                self.close_tree(tree).await;
                return After::Continue;
            }
            _ => {}
        }
        self.draw_tree(tree).await;
        After::Continue
    }

    /// What a mouse event does in the tree, as the key it stands for: the wheel moves, a click
    /// selects a row, and a click on the selected row chooses it.
    async fn tree_click(&self, tree: &mut Tree, event: &MouseEvent) -> Option<&'static str> {
        if !self.options().mouse {
            return None;
        }
        if let Some(up) = event.wheel() {
            return Some(if up { "Up" } else { "Down" });
        }
        if !event.is_left_press() {
            return None;
        }
        let top = self.view.borrow().window.row;
        let line = usize::from(event.row.checked_sub(top)?);
        // Line 0 is the header; the rows follow.
        let list_rows = self.tree_height(tree.no_preview).1;
        let line = line.checked_sub(1).filter(|l| *l < list_rows)?;
        let index = tree.top + line;
        let rows = self.tree_rows(tree).await;
        let row = rows.get(index)?;
        if tree.selected.as_ref() == Some(&row.item) {
            return Some("Enter");
        }
        tree.selected = Some(row.item.clone());
        Some(CLICKED)
    }

    /// Shows the chosen item: its window and pane become current, and the client switches
    /// to its session.
    async fn choose(&mut self, row: &Row) -> After {
        match &row.item {
            Item::Session(_) => {}
            Item::Window(s, w) => self.run_quietly(&format!("select-window -t {s}:{w}")).await,
            Item::Pane(s, w, p) => {
                self.run_quietly(&format!("select-window -t {s}:{w}")).await;
                self.run_quietly(&format!("select-pane -t {p}")).await;
            }
        }
        if row.session.id == self.session.id {
            After::Continue
        } else {
            After::Switch(row.session.clone())
        }
    }

    /// Runs a command line as this client, showing only its error.
    async fn run_quietly(&mut self, line: &str) {
        let origin = Origin {
            session: Some(self.session.id.to_string()),
            pane: None,
            mouse_window: None,
        };
        let result = match crate::cmd::parse_line(line) {
            Ok(command) => {
                let ran = execute(&self.ctx, command, &origin);
                crate::cmd::NOBODY_READS.scope(true, ran).await.map(drop)
            }
            Err(e) => Err(e),
        };
        if let Err(e) = result {
            self.message(e.to_string()).await;
        }
    }

    async fn close_tree(&mut self, mut tree: Tree) {
        tree.stop_preview();
        self.ui = Ui::Normal;
        let _ = self.render.send(RenderControl::Overlay(None)).await;
    }

    /// The rows the tree shows now: every session, the windows of expanded sessions, the
    /// panes of expanded windows; with a filter, only what matches (and what holds it),
    /// expanded.
    async fn tree_rows(&self, tree: &Tree) -> Vec<Row> {
        let filter = tree.filter.to_lowercase();
        let matches = |text: &str| filter.is_empty() || text.to_lowercase().contains(&filter);
        let mut rows = Vec::new();
        for session in self.ctx.registry.all().await {
            if tree.killed.contains(&Item::Session(session.id)) {
                continue;
            }
            let windows: Vec<TreeWindow> = windows_of(&session)
                .await
                .into_iter()
                .filter(|w| !tree.killed.contains(&Item::Window(session.id, w.id)))
                .map(|mut w| {
                    w.panes
                        .retain(|p| !tree.killed.contains(&Item::Pane(session.id, w.id, p.0)));
                    w
                })
                .filter(|w| !w.panes.is_empty())
                .collect();
            let name = session.name();
            let shown: Vec<&TreeWindow> = windows
                .iter()
                .filter(|w| matches(&w.name) || w.panes.iter().any(|p| matches(&p.1)))
                .collect();
            if !filter.is_empty() && shown.is_empty() && !matches(&name) {
                continue;
            }
            let s_item = Item::Session(session.id);
            let s_open = tree.expanded.contains(&s_item) || !filter.is_empty();
            let active = |w: &TreeWindow| w.panes.iter().find(|p| p.2).map(|p| p.3.clone());
            let current = windows.iter().find(|w| w.current);
            rows.push(Row {
                item: s_item,
                text: format!(
                    "{} {}: {} windows{}",
                    if s_open { "-" } else { "+" },
                    name,
                    windows.len(),
                    if session.id == self.session.id {
                        " (this client)"
                    } else {
                        ""
                    }
                ),
                session: session.clone(),
                pane: current.and_then(active),
                parent: !windows.is_empty(),
            });
            if !s_open {
                continue;
            }
            for w in shown {
                let w_item = Item::Window(session.id, w.id);
                let w_open =
                    tree.expanded.contains(&w_item) || (!filter.is_empty() && !matches(&w.name));
                rows.push(Row {
                    item: w_item,
                    text: format!(
                        "    {} {}: {}{} ({} panes)",
                        if w_open { "-" } else { "+" },
                        w.index,
                        w.name,
                        if w.current { "*" } else { "" },
                        w.panes.len()
                    ),
                    session: session.clone(),
                    pane: active(w),
                    parent: !w.panes.is_empty(),
                });
                if !w_open {
                    continue;
                }
                for (i, (id, title, is_active, handle)) in w.panes.iter().enumerate() {
                    if !filter.is_empty() && !matches(title) && !matches(&w.name) {
                        continue;
                    }
                    rows.push(Row {
                        item: Item::Pane(session.id, w.id, *id),
                        text: format!(
                            "        {i}: {id} {title}{}",
                            if *is_active { "*" } else { "" }
                        ),
                        session: session.clone(),
                        pane: Some(handle.clone()),
                        parent: false,
                    });
                }
            }
        }
        rows
    }

    /// The lines the tree has, and how many of them list rows: after the header, the tree
    /// takes the upper half and the preview the rest (all of it without a preview).
    fn tree_height(&self, no_preview: bool) -> (usize, usize) {
        let height = usize::from(self.view.borrow().window.rows).max(4);
        let list = if no_preview {
            height - 1
        } else {
            (height - 1) / 2
        };
        (height, list.max(1))
    }

    /// Draws the tree (the upper part) and the preview of the selection's pane (below), and
    /// keeps the preview following that pane until the next key.
    async fn draw_tree(&mut self, mut tree: Tree) {
        tree.stop_preview();
        let rows = self.tree_rows(&tree).await;
        let pos = rows
            .iter()
            .position(|r| Some(&r.item) == tree.selected.as_ref())
            .unwrap_or(0);
        tree.selected = rows.get(pos).map(|r| r.item.clone());
        let (height, list_rows) = self.tree_height(tree.no_preview);
        if pos < tree.top {
            tree.top = pos;
        } else if pos >= tree.top + list_rows {
            tree.top = pos + 1 - list_rows;
        }
        let header = match tree.mode {
            Mode::Filter => format!("(filter) {}", tree.filter),
            Mode::Confirm => {
                let what = rows
                    .get(pos)
                    .map_or(String::new(), |r| r.text.trim().to_string());
                format!("kill {what}? (y/n)")
            }
            Mode::Browse if !tree.filter.is_empty() => format!(
                "choose-tree (filter: {}): Enter choose, x kill, f filter, q leave",
                tree.filter
            ),
            Mode::Browse => "choose-tree: Enter choose, Right/Left expand, x kill, f filter, \
                             q leave"
                .to_string(),
        };
        let mut lines = vec![header];
        for (i, row) in rows.iter().enumerate().skip(tree.top).take(list_rows) {
            let mark = if i == pos { "> " } else { "  " };
            lines.push(format!("{mark}{}", row.text));
        }
        while lines.len() < list_rows + 1 {
            lines.push(String::new());
        }
        let preview_rows = height - lines.len();
        let pane = rows
            .get(pos)
            .and_then(|r| r.pane.clone())
            .filter(|_| !tree.no_preview);
        let cols = usize::from(self.view.borrow().cols);
        if let Some(pane) = pane {
            let token = CancellationToken::new();
            tree.preview = Some(token.clone());
            let shown = preview(&pane, lines.clone(), preview_rows, cols).await;
            let _ = self
                .render
                .send(RenderControl::Overlay(Some(Overlay::Lines(shown))))
                .await;
            self.server.spawn(follow_preview(
                pane,
                lines,
                preview_rows,
                cols,
                self.render.clone(),
                token,
            ));
        } else {
            let _ = self
                .render
                .send(RenderControl::Overlay(Some(Overlay::Lines(lines))))
                .await;
        }
        self.ui = Ui::Tree(tree);
    }
}

/// The tree's lines with the preview of `pane` under them: a rule, then the pane's screen
/// text, as many rows as fit.
async fn preview(
    pane: &PaneHandle,
    mut lines: Vec<String>,
    rows: usize,
    cols: usize,
) -> Vec<String> {
    lines.push(format!("{:─<cols$}", format!("── {} ", pane.id())));
    let text = pane
        .capture(CaptureOptions::default())
        .await
        .map(|(text, _)| text)
        .unwrap_or_default();
    let screen: Vec<&str> = text.lines().collect();
    // The lower rows of a tall pane: where its prompt and latest output are.
    let room = rows.saturating_sub(1);
    let used = screen
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .map_or(0, |p| p + 1);
    let start = used.saturating_sub(room);
    lines.extend(screen[start..used].iter().map(|l| l.to_string()));
    lines
}

/// Redraws the preview when the pane changes, at most every [`PREVIEW_PACE`], until `stop`.
async fn follow_preview(
    pane: PaneHandle,
    lines: Vec<String>,
    rows: usize,
    cols: usize,
    render: mpsc::Sender<RenderControl>,
    stop: CancellationToken,
) {
    let notify = Arc::new(Notify::new());
    pane.watch(&notify);
    loop {
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = notify.notified() => {}
        }
        let shown = preview(&pane, lines.clone(), rows, cols).await;
        if stop.is_cancelled() {
            return;
        }
        let _ = render
            .send(RenderControl::Overlay(Some(Overlay::Lines(shown))))
            .await;
        tokio::select! {
            _ = stop.cancelled() => return,
            _ = tokio::time::sleep(PREVIEW_PACE) => {} // deadline-ok: paces redraws
        }
    }
}
