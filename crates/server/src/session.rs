//! A session: windows of panes in layouts, the clients attached to it, and its size.
//!
//! The session task owns every window's layout; pane tasks own the screens. Clients draw from a
//! [`View`] the session publishes on a watch channel. Size policy, as tmux's `latest`: the
//! session takes the size of the client that most recently typed or resized.

use crate::command::{Command, WindowChoice};
use crate::ids::IdAllocator;
use crate::layout::{Layout, Preset, Rect as LRect};
use crate::pane::{spawn_pane, PaneHandle, PaneSpec};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, watch};
use weft_protocol::{ExitNotice, PaneInfo, SessionInfo};
use weft_pty_io::{ExitStatus, SpawnOptions};

/// Commands waiting for a session task: attaches, resizes, commands. Clients send a handful.
pub const SESSION_COMMAND_CAPACITY: usize = 64;
/// Control messages waiting for one client's connection (exit notices).
pub const CLIENT_CONTROL_CAPACITY: usize = 8;
/// Pane exit reports waiting for the session task.
const PANE_EXIT_CAPACITY: usize = 16;

/// A rectangle in session cells.
pub type Rect = LRect;

/// Where the status line goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusPosition {
    /// First row.
    Top,
    /// Last row.
    Bottom,
}

/// A window as the status line shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WindowTab {
    /// Index (`0`-`9`, ...).
    pub index: u32,
    /// Name.
    pub name: String,
    /// The current window.
    pub active: bool,
    /// The window used before it.
    pub last: bool,
    /// Its active pane is zoomed.
    pub zoomed: bool,
}

/// What the status line shows (the clock is the renderer's).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StatusLine {
    /// Row in session cells.
    pub row: u16,
    /// Session name.
    pub session: String,
    /// Windows.
    pub windows: Vec<WindowTab>,
}

/// What clients draw.
#[derive(Clone, Debug)]
pub struct View {
    /// Session width.
    pub cols: u16,
    /// Session height (status line included).
    pub rows: u16,
    /// The window's area.
    pub window: Rect,
    /// Visible panes and their places (session cells).
    pub panes: Vec<(PaneHandle, Rect)>,
    /// The pane with focus.
    pub active: u64,
    /// The active pane fills the window.
    pub zoomed: bool,
    /// Keys go to every pane of the window.
    pub sync_panes: bool,
    /// The status line, when on.
    pub status: Option<StatusLine>,
    /// Bumped when every client should repaint fully.
    pub generation: u64,
}

impl View {
    /// The focused pane.
    pub fn active_pane(&self) -> Option<&PaneHandle> {
        self.panes
            .iter()
            .map(|(p, _)| p)
            .find(|p| p.id() == self.active)
    }

    /// The pane at a session cell, if any.
    pub fn pane_at(&self, col: u16, row: u16) -> Option<(&PaneHandle, Rect)> {
        self.panes
            .iter()
            .find(|(_, r)| {
                col >= r.col && col < r.col + r.cols && row >= r.row && row < r.row + r.rows
            })
            .map(|(p, r)| (p, *r))
    }
}

/// Messages from a session to one attached client's connection.
#[derive(Debug)]
pub enum ClientControl {
    /// The attachment ended; tell the user why and close.
    Exit(ExitNotice),
}

/// What an attaching client gets back.
#[derive(Debug)]
pub struct Attached {
    /// Session name.
    pub name: String,
    /// The layout to draw, updated by the session.
    pub view: watch::Receiver<View>,
    /// Id of the client whose size the session follows.
    pub latest: Arc<AtomicU64>,
}

/// Session-wide settings from the configuration.
#[derive(Clone, Debug)]
pub struct SessionOptions {
    /// Show a status line.
    pub status: bool,
    /// Where.
    pub status_position: StatusPosition,
    /// Keep panes whose program exited, showing the status.
    pub remain_on_exit: bool,
}

/// Requests to a session task.
#[derive(Debug)]
pub enum SessionCommand {
    /// A client attaches.
    Attach {
        /// Client id.
        client: u64,
        /// Its terminal size.
        cols: u16,
        /// See `cols`.
        rows: u16,
        /// Where the session reaches the client.
        control: mpsc::Sender<ClientControl>,
        /// The answer.
        reply: oneshot::Sender<Attached>,
    },
    /// A client's terminal changed size.
    ClientResize {
        /// Client id.
        client: u64,
        /// Columns.
        cols: u16,
        /// Rows.
        rows: u16,
    },
    /// A client typed: the session follows its size from now on.
    ClientActive {
        /// Client id.
        client: u64,
    },
    /// A client went away.
    ClientGone {
        /// Client id.
        client: u64,
    },
    /// Detach every client.
    DetachAll,
    /// Every client repaints.
    Refresh,
    /// End the session's programs.
    Kill,
    /// Describe the session.
    Info {
        /// The answer.
        reply: oneshot::Sender<SessionInfo>,
    },
    /// Run a window or pane command; `pane` is the pane it was typed in, if any.
    Run {
        /// The command.
        command: Command,
        /// The pane the command comes from ($WEFT_PANE or the client's active pane).
        pane: Option<u64>,
        /// Text to print, or an error.
        reply: oneshot::Sender<Result<String, String>>,
    },
    /// Does this session have pane `%id`?
    HasPane {
        /// Pane id.
        pane: u64,
        /// The answer.
        reply: oneshot::Sender<bool>,
    },
    /// New settings after `source-file`.
    Options(SessionOptions),
    /// The pane a target means (recently exited panes included, for `wait --exit`).
    ResolvePane {
        /// Target within the session.
        target: Option<String>,
        /// The pane the command comes from.
        from: Option<u64>,
        /// The answer.
        reply: oneshot::Sender<Result<PaneHandle, String>>,
    },
}

/// A handle on a session task.
#[derive(Clone, Debug)]
pub struct SessionHandle {
    /// `$N` number.
    pub id: u64,
    /// Name.
    pub name: String,
    commands: mpsc::Sender<SessionCommand>,
}

impl SessionHandle {
    /// Sends a command; false once the session has ended.
    pub async fn send(&self, command: SessionCommand) -> bool {
        self.commands.send(command).await.is_ok()
    }

    /// Sends a command without waiting; dropped when the session's queue is full.
    pub fn try_send(&self, command: SessionCommand) -> bool {
        self.commands.try_send(command).is_ok()
    }

    /// Describes the session; `None` once it has ended.
    pub async fn info(&self) -> Option<SessionInfo> {
        let (reply, answer) = oneshot::channel();
        self.send(SessionCommand::Info { reply }).await;
        answer.await.ok()
    }

    /// Runs a command in the session.
    pub async fn run(&self, command: Command, pane: Option<u64>) -> Result<String, String> {
        self.ask(|reply| SessionCommand::Run {
            command,
            pane,
            reply,
        })
        .await
    }

    /// The pane a target within this session means.
    pub async fn resolve_pane(
        &self,
        target: Option<String>,
        from: Option<u64>,
    ) -> Result<PaneHandle, String> {
        self.ask(|reply| SessionCommand::ResolvePane {
            target,
            from,
            reply,
        })
        .await
    }

    /// Sends the command `make` builds around a reply channel and waits for its answer; a
    /// session that ended meanwhile is an error.
    async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, String>>) -> SessionCommand,
    ) -> Result<T, String> {
        const ENDED: &str = "the session ended";
        let (reply, answer) = oneshot::channel();
        if !self.send(make(reply)).await {
            return Err(ENDED.into());
        }
        answer.await.map_err(|_| ENDED.to_string())?
    }

    /// Whether pane `%id` is in this session.
    pub async fn has_pane(&self, pane: u64) -> bool {
        let (reply, answer) = oneshot::channel();
        self.send(SessionCommand::HasPane { pane, reply }).await && answer.await.unwrap_or(false)
    }
}

/// How panes of this session are started.
#[derive(Clone, Debug)]
pub struct PaneTemplate {
    /// Shell and environment for new panes (command, cwd, size set per pane).
    pub spawn: SpawnOptions,
    /// History lines.
    pub scrollback_lines: usize,
    /// Where panes register their figures.
    pub metrics: Arc<crate::metrics::MetricsRegistry>,
    /// Server-wide: keystroke echoes before floods.
    pub priority: Arc<crate::priority::EchoPriority>,
}

/// How to start a session.
#[derive(Clone, Debug)]
pub struct SessionSpec {
    /// `$N` number.
    pub id: u64,
    /// Name.
    pub name: String,
    /// Initial size.
    pub cols: u16,
    /// See `cols`.
    pub rows: u16,
    /// The first pane's program (empty: the shell) and directory.
    pub command: Vec<String>,
    /// Working directory.
    pub cwd: Option<String>,
    /// New panes.
    pub template: PaneTemplate,
    /// Settings.
    pub options: SessionOptions,
}

struct ClientEntry {
    cols: u16,
    rows: u16,
    control: mpsc::Sender<ClientControl>,
}

struct Window {
    id: u64,
    index: u32,
    name: String,
    layout: Layout,
    active: u64,
    last_pane: Option<u64>,
    zoomed: bool,
    sync_panes: bool,
    preset: usize,
}

struct SessionTask {
    id: u64,
    name: String,
    created: u64,
    cols: u16,
    rows: u16,
    windows: Vec<Window>,
    current: usize,
    last_window: Option<u64>,
    panes: HashMap<u64, PaneHandle>,
    clients: HashMap<u64, ClientEntry>,
    latest: Arc<AtomicU64>,
    view: watch::Sender<View>,
    ids: Arc<IdAllocator>,
    template: PaneTemplate,
    options: SessionOptions,
    exits: mpsc::Sender<(u64, ExitStatus)>,
    generation: u64,
    /// Panes whose program exited recently, newest last (for `wait --exit`).
    dead: std::collections::VecDeque<PaneHandle>,
}

/// Exited panes remembered for `wait --exit`.
const DEAD_PANES_KEPT: usize = 32;

/// Starts a session with its first window. `ended` hears the session id when it ends, and
/// answers once the server has acted on it (its socket gone if that was the last session).
pub fn spawn_session(
    spec: SessionSpec,
    ids: Arc<IdAllocator>,
    ended: mpsc::Sender<crate::registry::SessionEnded>,
) -> Result<SessionHandle, String> {
    let (exit_tx, exit_rx) = mpsc::channel(PANE_EXIT_CAPACITY);
    let (command_tx, command_rx) = mpsc::channel(SESSION_COMMAND_CAPACITY);
    let created = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let empty_view = View {
        cols: spec.cols,
        rows: spec.rows,
        window: LRect {
            col: 0,
            row: 0,
            cols: spec.cols,
            rows: spec.rows,
        },
        panes: Vec::new(),
        active: 0,
        zoomed: false,
        sync_panes: false,
        status: None,
        generation: 0,
    };
    let (view_tx, _) = watch::channel(empty_view);
    let mut task = SessionTask {
        id: spec.id,
        name: spec.name.clone(),
        created,
        cols: spec.cols.max(1),
        rows: spec.rows.max(1),
        windows: Vec::new(),
        current: 0,
        last_window: None,
        panes: HashMap::new(),
        clients: HashMap::new(),
        latest: Arc::new(AtomicU64::new(u64::MAX)),
        view: view_tx,
        ids,
        template: spec.template,
        options: spec.options,
        exits: exit_tx,
        generation: 0,
        dead: std::collections::VecDeque::new(),
    };
    task.new_window(None, spec.command, spec.cwd, false)?;
    tokio::spawn(task.run(command_rx, exit_rx, ended));
    Ok(SessionHandle {
        id: spec.id,
        name: spec.name,
        commands: command_tx,
    })
}

fn window_name(command: &[String], shell: Option<&str>) -> String {
    let program = command
        .first()
        .map(String::as_str)
        .or(shell)
        .map(str::to_string)
        .or_else(|| std::env::var("SHELL").ok())
        .unwrap_or_else(|| "sh".into());
    program
        .rsplit('/')
        .next()
        .unwrap_or(&program)
        .trim_start_matches('-')
        .to_string()
}

impl SessionTask {
    async fn run(
        mut self,
        mut commands: mpsc::Receiver<SessionCommand>,
        mut exits: mpsc::Receiver<(u64, ExitStatus)>,
        ended: mpsc::Sender<crate::registry::SessionEnded>,
    ) {
        self.publish_view();
        loop {
            tokio::select! {
                command = commands.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                exit = exits.recv() => {
                    let Some((pane, _status)) = exit else { break };
                    self.pane_gone(pane);
                    if self.windows.is_empty() {
                        break;
                    }
                    self.publish_view();
                }
            }
        }
        // The registry first: when this was the last session, the server's socket is gone
        // before any client hears "[exited]", so what a user runs next finds no server.
        // Commands are refused from here on, so the registry never waits on this session
        // while it waits on the registry.
        drop(commands);
        let (done, acted) = oneshot::channel();
        if ended.send((self.id, done)).await.is_ok() {
            let _ = acted.await;
        }
        self.tell_clients("[exited]", 0).await;
    }

    /// The window area: the session minus the status line.
    fn window_rect(&self) -> LRect {
        let status = u16::from(self.options.status && self.rows > 1);
        let row = if self.options.status_position == StatusPosition::Top {
            status
        } else {
            0
        };
        LRect {
            col: 0,
            row,
            cols: self.cols,
            rows: self.rows - status,
        }
    }

    fn spawn(
        &mut self,
        command: Vec<String>,
        cwd: Option<String>,
        cols: u16,
        rows: u16,
    ) -> Result<PaneHandle, String> {
        let id = self.ids.pane();
        let mut spawn = self.template.spawn.clone();
        spawn.command = command.into_iter().map(Into::into).collect();
        if cwd.is_some() {
            spawn.cwd = cwd.map(Into::into);
        }
        spawn.cols = cols.max(1);
        spawn.rows = rows.max(1);
        spawn.env.retain(|(k, _)| k != "WEFT_PANE");
        spawn
            .env
            .push(("WEFT_PANE".into(), format!("%{id}").into()));
        let pane = spawn_pane(
            PaneSpec {
                id,
                cols: spawn.cols,
                rows: spawn.rows,
                spawn,
                scrollback_lines: self.template.scrollback_lines,
                remain_on_exit: self.options.remain_on_exit,
                metrics: (self.template.metrics.clone(), self.name.clone()),
                priority: self.template.priority.clone(),
            },
            self.exits.clone(),
        )
        .map_err(|e| e.to_string())?;
        self.panes.insert(id, pane.clone());
        Ok(pane)
    }

    fn new_window(
        &mut self,
        name: Option<String>,
        command: Vec<String>,
        cwd: Option<String>,
        detached: bool,
    ) -> Result<u64, String> {
        let area = self.window_rect();
        let auto = window_name(&command, self.template.spawn.shell.as_deref());
        let pane = self.spawn(command, cwd, area.cols, area.rows)?;
        let (id, pos) = self.insert_window(pane.id(), name.unwrap_or(auto));
        if !detached || self.windows.len() == 1 {
            self.select_window_at(pos);
        }
        Ok(id)
    }

    /// A new window of pane `pane` at the lowest free index, placed in index order; keeps the
    /// current window current. Returns its id and position.
    fn insert_window(&mut self, pane: u64, name: String) -> (u64, usize) {
        let area = self.window_rect();
        let index = (0..)
            .find(|i| !self.windows.iter().any(|w| w.index == *i))
            .unwrap_or(0);
        let window = Window {
            id: self.ids.window(),
            index,
            name,
            layout: Layout::new(pane, area.cols, area.rows),
            active: pane,
            last_pane: None,
            zoomed: false,
            sync_panes: false,
            preset: 0,
        };
        let id = window.id;
        let pos = self
            .windows
            .iter()
            .position(|w| w.index > index)
            .unwrap_or(self.windows.len());
        self.windows.insert(pos, window);
        if self.windows.len() > 1 && pos <= self.current {
            self.current += 1;
        }
        (id, pos)
    }

    fn select_window_at(&mut self, pos: usize) {
        if pos < self.windows.len() && pos != self.current {
            self.last_window = self.windows.get(self.current).map(|w| w.id);
            self.current = pos;
        } else if pos < self.windows.len() {
            self.current = pos;
        }
        self.generation += 1;
    }

    /// Removes a pane whose program ended; empty windows close.
    fn pane_gone(&mut self, pane: u64) {
        if let Some(handle) = self.panes.remove(&pane) {
            if self.dead.len() == DEAD_PANES_KEPT {
                self.dead.pop_front();
            }
            self.dead.push_back(handle);
        }
        let Some(wpos) = self
            .windows
            .iter()
            .position(|w| w.layout.panes().contains(&pane))
        else {
            return;
        };
        let window = &mut self.windows[wpos];
        if !window.layout.remove(pane) {
            // The last pane: the window closes.
            let id = window.id;
            self.windows.remove(wpos);
            if self.last_window == Some(id) {
                self.last_window = None;
            }
            if self.windows.is_empty() {
                return;
            }
            if wpos < self.current || self.current >= self.windows.len() {
                self.current = self.current.saturating_sub(1);
            }
            self.generation += 1;
            return;
        }
        if window.active == pane {
            window.active = window
                .last_pane
                .filter(|p| *p != pane && window.layout.panes().contains(p))
                .unwrap_or_else(|| window.layout.panes()[0]);
            window.zoomed = false;
        }
        self.generation += 1;
        self.resize_panes_of(wpos);
    }

    async fn handle(&mut self, command: SessionCommand) {
        match command {
            SessionCommand::Attach {
                client,
                cols,
                rows,
                control,
                reply,
            } => {
                self.clients.insert(
                    client,
                    ClientEntry {
                        cols,
                        rows,
                        control,
                    },
                );
                self.latest.store(client, Ordering::Relaxed);
                self.resize_to(cols, rows);
                let _ = reply.send(Attached {
                    name: self.name.clone(),
                    view: self.view.subscribe(),
                    latest: self.latest.clone(),
                });
            }
            SessionCommand::ClientResize { client, cols, rows } => {
                if let Some(entry) = self.clients.get_mut(&client) {
                    entry.cols = cols;
                    entry.rows = rows;
                }
                self.latest.store(client, Ordering::Relaxed);
                self.resize_to(cols, rows);
            }
            SessionCommand::ClientActive { client } => {
                if let Some(entry) = self.clients.get(&client) {
                    let (cols, rows) = (entry.cols, entry.rows);
                    self.latest.store(client, Ordering::Relaxed);
                    self.resize_to(cols, rows);
                }
            }
            SessionCommand::ClientGone { client } => {
                self.clients.remove(&client);
                if self.latest.load(Ordering::Relaxed) == client {
                    if let Some((&id, entry)) = self.clients.iter().next() {
                        let (cols, rows) = (entry.cols, entry.rows);
                        self.latest.store(id, Ordering::Relaxed);
                        self.resize_to(cols, rows);
                    }
                }
            }
            SessionCommand::DetachAll => {
                let message = format!("[detached (from session {})]", self.name);
                self.tell_clients(&message, 0).await;
            }
            SessionCommand::Refresh => {
                self.generation += 1;
                self.publish_view();
            }
            SessionCommand::Kill => {
                for pane in self.panes.values() {
                    pane.kill().await;
                }
            }
            SessionCommand::Info { reply } => {
                let _ = reply.send(self.info());
            }
            SessionCommand::Run {
                command,
                pane,
                reply,
            } => {
                let result = self.run_command(command, pane).await;
                self.publish_view();
                let _ = reply.send(result);
            }
            SessionCommand::HasPane { pane, reply } => {
                let known =
                    self.panes.contains_key(&pane) || self.dead.iter().any(|p| p.id() == pane);
                let _ = reply.send(known);
            }
            SessionCommand::ResolvePane {
                target,
                from,
                reply,
            } => {
                let dead = target
                    .as_deref()
                    .and_then(|t| t.strip_prefix('%'))
                    .and_then(|n| n.parse::<u64>().ok())
                    .and_then(|id| self.dead.iter().find(|p| p.id() == id).cloned());
                let result = match dead {
                    Some(p) => Ok(p),
                    None => self.find_pane(target.as_deref(), from).and_then(|(_, id)| {
                        self.panes
                            .get(&id)
                            .cloned()
                            .ok_or(format!("can't find pane: %{id}"))
                    }),
                };
                let _ = reply.send(result);
            }
            SessionCommand::Options(options) => {
                self.options = options;
                self.generation += 1;
                let (cols, rows) = (self.cols, self.rows);
                self.cols = 0;
                self.resize_to(cols, rows);
            }
        }
    }

    fn resize_to(&mut self, cols: u16, rows: u16) {
        let (cols, rows) = (cols.max(1), rows.max(1));
        if (cols, rows) != (self.cols, self.rows) {
            self.cols = cols;
            self.rows = rows;
            let area = self.window_rect();
            for w in &mut self.windows {
                w.layout.resize(area.cols, area.rows);
            }
            for i in 0..self.windows.len() {
                self.resize_panes_of(i);
            }
        }
        self.generation += 1;
        self.publish_view();
    }

    /// Tells each pane of window `wpos` its size from the layout (zoom: the whole window).
    fn resize_panes_of(&self, wpos: usize) {
        let Some(w) = self.windows.get(wpos) else {
            return;
        };
        for (id, rect) in w.layout.rects() {
            let (cols, rows) = if w.zoomed && id == w.active {
                (w.layout.cols(), w.layout.rows())
            } else {
                (rect.cols, rect.rows)
            };
            if let Some(pane) = self.panes.get(&id) {
                if pane.shared.size() != (cols, rows) {
                    pane.resize_now(cols, rows);
                }
            }
        }
    }

    fn publish_view(&self) {
        let Some(w) = self.windows.get(self.current) else {
            return;
        };
        let area = self.window_rect();
        let offset = |r: LRect| LRect {
            col: r.col + area.col,
            row: r.row + area.row,
            ..r
        };
        let panes: Vec<(PaneHandle, LRect)> = if w.zoomed {
            self.panes
                .get(&w.active)
                .map(|p| vec![(p.clone(), area)])
                .unwrap_or_default()
        } else {
            w.layout
                .rects()
                .into_iter()
                .filter_map(|(id, r)| self.panes.get(&id).map(|p| (p.clone(), offset(r))))
                .collect()
        };
        let status = (self.options.status && self.rows > 1).then(|| StatusLine {
            row: if self.options.status_position == StatusPosition::Top {
                0
            } else {
                self.rows - 1
            },
            session: self.name.clone(),
            windows: self
                .windows
                .iter()
                .enumerate()
                .map(|(i, win)| WindowTab {
                    index: win.index,
                    name: win.name.clone(),
                    active: i == self.current,
                    last: Some(win.id) == self.last_window,
                    zoomed: win.zoomed,
                })
                .collect(),
        });
        let view = View {
            cols: self.cols,
            rows: self.rows,
            window: area,
            panes,
            active: w.active,
            zoomed: w.zoomed,
            sync_panes: w.sync_panes,
            status,
            generation: self.generation,
        };
        self.view.send_replace(view);
    }

    async fn tell_clients(&mut self, message: &str, code: u8) {
        for (_, client) in self.clients.drain() {
            let _ = client
                .control
                .send(ClientControl::Exit(ExitNotice {
                    message: message.to_string(),
                    code,
                }))
                .await;
        }
    }

    /// Finds the window a target means: `:N`/`N` index, `@N` id, a name, or the current one.
    fn find_window(&self, target: Option<&str>) -> Result<usize, String> {
        let Some(t) = target
            .map(|t| t.split('.').next().unwrap_or(t))
            .filter(|t| !t.is_empty())
        else {
            return Ok(self.current);
        };
        let t = t.strip_prefix(':').unwrap_or(t);
        if t.is_empty() {
            return Ok(self.current);
        }
        if let Some(id) = t.strip_prefix('@').and_then(|n| n.parse::<u64>().ok()) {
            return self
                .windows
                .iter()
                .position(|w| w.id == id)
                .ok_or(format!("can't find window: {t}"));
        }
        if let Ok(index) = t.parse::<u32>() {
            return self
                .windows
                .iter()
                .position(|w| w.index == index)
                .ok_or(format!("can't find window: {t}"));
        }
        self.windows
            .iter()
            .position(|w| w.name == t)
            .ok_or(format!("can't find window: {t}"))
    }

    /// Finds a pane: `%N`, `[window].N` (index in the window), or the window's active pane;
    /// without a target, the pane the command came from.
    fn find_pane(&self, target: Option<&str>, from: Option<u64>) -> Result<(usize, u64), String> {
        if let Some(id) = target
            .and_then(|t| t.strip_prefix('%'))
            .and_then(|n| n.parse::<u64>().ok())
        {
            let w = self
                .windows
                .iter()
                .position(|w| w.layout.panes().contains(&id))
                .ok_or(format!("can't find pane: %{id}"))?;
            return Ok((w, id));
        }
        if target.is_none() {
            if let Some(p) = from {
                if let Some(w) = self
                    .windows
                    .iter()
                    .position(|w| w.layout.panes().contains(&p))
                {
                    return Ok((w, p));
                }
            }
        }
        if let Some(step) = target
            .and_then(|t| t.strip_prefix('.'))
            .filter(|s| *s == "+" || *s == "-")
        {
            // The next or previous pane of the current window.
            let wpos = self.current;
            let window = &self.windows[wpos];
            let order = window.layout.panes();
            let here = from.filter(|p| order.contains(p)).unwrap_or(window.active);
            let i = order.iter().position(|p| *p == here).unwrap_or(0);
            let j = if step == "+" {
                (i + 1) % order.len()
            } else {
                (i + order.len() - 1) % order.len()
            };
            return Ok((wpos, order[j]));
        }
        let wpos = self.find_window(target)?;
        let window = &self.windows[wpos];
        match target.and_then(|t| t.split_once('.')).map(|(_, p)| p) {
            Some(index) if !index.is_empty() => {
                let i: usize = index
                    .parse()
                    .map_err(|_| format!("can't find pane: {index}"))?;
                let id = *window
                    .layout
                    .panes()
                    .get(i)
                    .ok_or(format!("can't find pane: {index}"))?;
                Ok((wpos, id))
            }
            _ => Ok((wpos, window.active)),
        }
    }

    fn focus(&mut self, wpos: usize, pane: u64) {
        let w = &mut self.windows[wpos];
        if w.active != pane {
            w.last_pane = Some(w.active);
            w.active = pane;
            if w.zoomed {
                w.zoomed = false;
                self.resize_panes_of(wpos);
            }
        }
        self.select_window_at(wpos);
    }

    async fn run_command(&mut self, command: Command, from: Option<u64>) -> Result<String, String> {
        match command {
            Command::SplitWindow {
                dir,
                percent,
                detached,
                target,
                command,
            } => {
                let (wpos, pane) = self.find_pane(target.as_deref(), from)?;
                let rect = self.windows[wpos]
                    .layout
                    .rect_of(pane)
                    .ok_or("pane not in layout")?;
                let mut probe = self.windows[wpos].layout.clone();
                probe.split(pane, u64::MAX, dir, percent).map_err(|e| e.0)?;
                let (cols, rows) = probe
                    .rect_of(u64::MAX)
                    .map_or((rect.cols, rect.rows), |r| (r.cols, r.rows));
                let new = self.spawn(command, None, cols, rows)?;
                let w = &mut self.windows[wpos];
                w.zoomed = false;
                w.layout
                    .split(pane, new.id(), dir, percent)
                    .map_err(|e| e.0)?;
                self.resize_panes_of(wpos);
                if !detached {
                    self.focus(wpos, new.id());
                }
                self.generation += 1;
                Ok(String::new())
            }
            Command::NewWindow {
                name,
                detached,
                command,
                ..
            } => {
                self.new_window(name, command, None, detached)?;
                Ok(String::new())
            }
            Command::SelectPane { target, side } => {
                let (wpos, pane) = self.find_pane(target.as_deref(), from)?;
                let pane = match side {
                    Some(side) => match self.windows[wpos].layout.neighbour(pane, side) {
                        Some(p) => p,
                        None => return Ok(String::new()),
                    },
                    None => pane,
                };
                self.focus(wpos, pane);
                Ok(String::new())
            }
            Command::SelectWindow { which } => {
                let n = self.windows.len();
                let pos = match which {
                    WindowChoice::Target(t) => self.find_window(Some(&t))?,
                    WindowChoice::Next => (self.current + 1) % n,
                    WindowChoice::Previous => (self.current + n - 1) % n,
                    WindowChoice::Last => match self.last_window {
                        Some(id) => self
                            .windows
                            .iter()
                            .position(|w| w.id == id)
                            .ok_or("no last window")?,
                        None => return Err("no last window".into()),
                    },
                };
                self.select_window_at(pos);
                Ok(String::new())
            }
            Command::ResizePane {
                target,
                side,
                cells,
                zoom,
            } => {
                let (wpos, pane) = self.find_pane(target.as_deref(), from)?;
                if zoom {
                    let w = &mut self.windows[wpos];
                    if w.layout.panes().len() > 1 || w.zoomed {
                        w.active = pane;
                        w.zoomed = !w.zoomed;
                    }
                } else if let Some(side) = side {
                    let w = &mut self.windows[wpos];
                    w.zoomed = false;
                    w.layout.resize_pane(pane, side, cells).map_err(|e| e.0)?;
                }
                self.resize_panes_of(wpos);
                self.generation += 1;
                Ok(String::new())
            }
            Command::KillPane { target } => {
                let (_, pane) = self.find_pane(target.as_deref(), from)?;
                if let Some(p) = self.panes.get(&pane) {
                    p.kill().await;
                }
                Ok(String::new())
            }
            Command::KillWindow { target } => {
                let wpos = self.find_window(target.as_deref())?;
                for id in self.windows[wpos].layout.panes() {
                    if let Some(p) = self.panes.get(&id) {
                        p.kill().await;
                    }
                }
                Ok(String::new())
            }
            Command::SelectLayout { target, preset } => {
                let wpos = self.find_window(target.as_deref())?;
                let w = &mut self.windows[wpos];
                let preset = match preset {
                    Some(p) => {
                        w.preset = Preset::ALL.iter().position(|q| *q == p).unwrap_or(0);
                        p
                    }
                    None => {
                        w.preset = (w.preset + 1) % Preset::ALL.len();
                        Preset::ALL[w.preset]
                    }
                };
                w.zoomed = false;
                let main = w.active;
                w.layout.apply_preset(preset, main);
                self.resize_panes_of(wpos);
                self.generation += 1;
                Ok(String::new())
            }
            Command::RenameWindow { target, name } => {
                let wpos = self.find_window(target.as_deref())?;
                self.windows[wpos].name = name;
                Ok(String::new())
            }
            Command::SwapPane { target, up } => {
                let (wpos, pane) = self.find_pane(target.as_deref(), from)?;
                let w = &mut self.windows[wpos];
                let order = w.layout.panes();
                let i = order.iter().position(|p| *p == pane).unwrap_or(0);
                let j = if up {
                    (i + order.len() - 1) % order.len()
                } else {
                    (i + 1) % order.len()
                };
                if i != j {
                    w.layout.swap(order[i], order[j]);
                    self.resize_panes_of(wpos);
                }
                self.generation += 1;
                Ok(String::new())
            }
            Command::BreakPane { target, detached } => {
                let (wpos, pane) = self.find_pane(target.as_deref(), from)?;
                if self.windows[wpos].layout.panes().len() < 2 {
                    return Err("can't break with only one pane".into());
                }
                let w = &mut self.windows[wpos];
                w.layout.remove(pane);
                w.zoomed = false;
                if w.active == pane {
                    w.active = w.layout.panes()[0];
                }
                self.resize_panes_of(wpos);
                let name = self
                    .panes
                    .get(&pane)
                    .map(|p| p.shared.title())
                    .filter(|t| !t.is_empty())
                    .unwrap_or_else(|| window_name(&[], self.template.spawn.shell.as_deref()));
                let (_, pos) = self.insert_window(pane, name);
                self.resize_panes_of(pos);
                if !detached {
                    self.select_window_at(pos);
                }
                self.generation += 1;
                Ok(String::new())
            }
            Command::ListPanes { target, json } => {
                let wpos = self.find_window(target.as_deref())?;
                Ok(self.list_panes(wpos, json))
            }
            Command::ListWindows { json, .. } => Ok(self.list_windows(json)),
            Command::SetOption {
                window: true,
                name,
                value,
                target,
            } if name == "synchronize-panes" => {
                let wpos = self.find_window(target.as_deref())?;
                let w = &mut self.windows[wpos];
                w.sync_panes = match value.as_str() {
                    "on" | "true" | "1" => true,
                    "off" | "false" | "0" => false,
                    "" => !w.sync_panes,
                    other => {
                        return Err(format!("synchronize-panes: bad value {other:?} (on/off)"))
                    }
                };
                Ok(String::new())
            }
            other => Err(format!("{other:?} is not a session command")),
        }
    }

    fn list_panes(&self, wpos: usize, json: bool) -> String {
        let w = &self.windows[wpos];
        let rows: Vec<(usize, u64, LRect)> = w
            .layout
            .rects()
            .into_iter()
            .enumerate()
            .map(|(i, (id, r))| (i, id, r))
            .collect();
        if json {
            let items: Vec<serde_json::Value> = rows
                .iter()
                .map(|(i, id, r)| {
                    let p = self.panes.get(id);
                    serde_json::json!({
                        "id": format!("%{id}"),
                        "index": i,
                        "window": format!("@{}", w.id),
                        "session": format!("${}", self.id),
                        "cols": r.cols,
                        "rows": r.rows,
                        "left": r.col,
                        "top": r.row,
                        "active": *id == w.active,
                        "pid": p.and_then(|p| p.shared.pid),
                        "title": p.map(|p| p.shared.title()).unwrap_or_default(),
                    })
                })
                .collect();
            return serde_json::Value::Array(items).to_string();
        }
        rows.iter()
            .map(|(i, id, r)| {
                format!(
                    "{i}: [{}x{}] %{id}{}",
                    r.cols,
                    r.rows,
                    if *id == w.active { " (active)" } else { "" }
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn list_windows(&self, json: bool) -> String {
        if json {
            let items: Vec<serde_json::Value> = self
                .windows
                .iter()
                .enumerate()
                .map(|(i, w)| {
                    serde_json::json!({
                        "id": format!("@{}", w.id),
                        "index": w.index,
                        "name": w.name,
                        "session": format!("${}", self.id),
                        "panes": w.layout.panes().len(),
                        "active": i == self.current,
                        "zoomed": w.zoomed,
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
                    "{}: {}{} ({} panes) [{}x{}] @{}",
                    w.index,
                    w.name,
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

    fn info(&self) -> SessionInfo {
        let window = self.windows.get(self.current);
        SessionInfo {
            id: format!("${}", self.id),
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
                        id: format!("%{}", p.id()),
                        cols,
                        rows,
                        pid: p.shared.pid,
                        title: p.shared.title(),
                    }
                })
                .collect(),
        }
    }
}
