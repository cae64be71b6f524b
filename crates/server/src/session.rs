//! A session: its pane (one window of one pane for now; the layout comes with splits), the
//! clients attached to it, and its size.
//!
//! Size policy, as tmux's `latest`: the session takes the size of the client that most recently
//! typed or resized; other clients see it cut or surrounded by blank space.

use crate::pane::{spawn_pane, PaneHandle, PaneSpec};
use protocol::{ExitNotice, PaneInfo, SessionInfo};
use pty_io::ExitStatus;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, watch};

/// Commands waiting for a session task: attaches, resizes, listings. Clients send a handful.
pub const SESSION_COMMAND_CAPACITY: usize = 64;
/// Control messages waiting for one client's connection (exit notices, redraws).
pub const CLIENT_CONTROL_CAPACITY: usize = 8;
/// Pane exit reports waiting for the session task.
const PANE_EXIT_CAPACITY: usize = 16;

/// A rectangle in session cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Left column.
    pub col: u16,
    /// Top row.
    pub row: u16,
    /// Width.
    pub cols: u16,
    /// Height.
    pub rows: u16,
}

/// What clients draw: the session's size and where each pane sits.
#[derive(Clone, Debug)]
pub struct View {
    /// Session width.
    pub cols: u16,
    /// Session height.
    pub rows: u16,
    /// Panes and their places.
    pub panes: Vec<(PaneHandle, Rect)>,
    /// The pane with focus (keys go there; its cursor and modes are shown).
    pub active: u64,
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
    /// The first pane.
    pub pane: PaneSpec,
}

struct ClientEntry {
    cols: u16,
    rows: u16,
    control: mpsc::Sender<ClientControl>,
}

struct SessionTask {
    id: u64,
    name: String,
    created: u64,
    cols: u16,
    rows: u16,
    panes: Vec<PaneHandle>,
    clients: HashMap<u64, ClientEntry>,
    latest: Arc<AtomicU64>,
    view: watch::Sender<View>,
}

/// Starts a session with its first pane. `ended` hears the session id when it ends.
pub fn spawn_session(
    spec: SessionSpec,
    ended: mpsc::Sender<u64>,
) -> Result<SessionHandle, pty_io::PtyError> {
    let (exit_tx, exit_rx) = mpsc::channel(PANE_EXIT_CAPACITY);
    let pane = spawn_pane(spec.pane.clone(), exit_tx)?;
    let (command_tx, command_rx) = mpsc::channel(SESSION_COMMAND_CAPACITY);
    let view = View {
        cols: spec.cols,
        rows: spec.rows,
        active: pane.id(),
        panes: vec![(
            pane.clone(),
            Rect {
                col: 0,
                row: 0,
                cols: spec.cols,
                rows: spec.rows,
            },
        )],
        generation: 0,
    };
    let (view_tx, _) = watch::channel(view);
    let created = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let task = SessionTask {
        id: spec.id,
        name: spec.name.clone(),
        created,
        cols: spec.cols,
        rows: spec.rows,
        panes: vec![pane],
        clients: HashMap::new(),
        latest: Arc::new(AtomicU64::new(u64::MAX)),
        view: view_tx,
    };
    tokio::spawn(task.run(command_rx, exit_rx, ended));
    Ok(SessionHandle {
        id: spec.id,
        name: spec.name,
        commands: command_tx,
    })
}

impl SessionTask {
    async fn run(
        mut self,
        mut commands: mpsc::Receiver<SessionCommand>,
        mut exits: mpsc::Receiver<(u64, ExitStatus)>,
        ended: mpsc::Sender<u64>,
    ) {
        loop {
            tokio::select! {
                command = commands.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                exit = exits.recv() => {
                    let Some((pane, _status)) = exit else { break };
                    self.panes.retain(|p| p.id() != pane);
                    if self.panes.is_empty() {
                        break;
                    }
                    self.publish_view(true);
                }
            }
        }
        self.tell_clients("[exited]", 0).await;
        let _ = ended.send(self.id).await;
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
                self.resize_to(cols, rows).await;
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
                self.resize_to(cols, rows).await;
            }
            SessionCommand::ClientActive { client } => {
                if let Some(entry) = self.clients.get(&client) {
                    let (cols, rows) = (entry.cols, entry.rows);
                    self.latest.store(client, Ordering::Relaxed);
                    self.resize_to(cols, rows).await;
                }
            }
            SessionCommand::ClientGone { client } => {
                self.clients.remove(&client);
                if self.latest.load(Ordering::Relaxed) == client {
                    // Follow the client that is left, if any.
                    if let Some((&id, entry)) = self.clients.iter().next() {
                        let (cols, rows) = (entry.cols, entry.rows);
                        self.latest.store(id, Ordering::Relaxed);
                        self.resize_to(cols, rows).await;
                    }
                }
            }
            SessionCommand::DetachAll => {
                let message = format!("[detached (from session {})]", self.name);
                self.tell_clients(&message, 0).await;
                self.clients.clear();
            }
            SessionCommand::Refresh => self.publish_view(true),
            SessionCommand::Kill => {
                for pane in &self.panes {
                    pane.kill().await;
                }
            }
            SessionCommand::Info { reply } => {
                let _ = reply.send(self.info());
            }
        }
    }

    async fn resize_to(&mut self, cols: u16, rows: u16) {
        let (cols, rows) = (cols.max(1), rows.max(1));
        if (cols, rows) != (self.cols, self.rows) {
            self.cols = cols;
            self.rows = rows;
            for pane in &self.panes {
                pane.resize(cols, rows).await;
            }
        }
        self.publish_view(true);
    }

    fn publish_view(&self, repaint: bool) {
        let (cols, rows) = (self.cols, self.rows);
        let panes = self.panes.clone();
        self.view.send_modify(|view| {
            view.cols = cols;
            view.rows = rows;
            view.panes = panes
                .into_iter()
                .map(|p| {
                    (
                        p,
                        Rect {
                            col: 0,
                            row: 0,
                            cols,
                            rows,
                        },
                    )
                })
                .collect();
            if let Some((p, _)) = view.panes.first() {
                if !view.panes.iter().any(|(q, _)| q.id() == view.active) {
                    view.active = p.id();
                }
            }
            if repaint {
                view.generation += 1;
            }
        });
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

    fn info(&self) -> SessionInfo {
        SessionInfo {
            id: format!("${}", self.id),
            name: self.name.clone(),
            clients: self.clients.len(),
            cols: self.cols,
            rows: self.rows,
            created: self.created,
            panes: self
                .panes
                .iter()
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
