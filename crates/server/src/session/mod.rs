//! A session: windows of panes in layouts, the clients attached to it, and its size.
//!
//! One task owns a session's state ([`SessionState`]): every window's layout, which pane has
//! focus, the clients and their sizes. Pane tasks own the screens. Clients draw from a [`View`]
//! the session publishes on a watch channel. Commands reach the state as [`SessionAction`]s,
//! run inside the task. Size policy, as tmux's `latest`: the session takes the size of the
//! client that most recently typed or resized.

mod alerts;
mod clipboard;
mod detach;
mod directory;
mod focus;
mod format_vars;
mod hooks;
mod list;
mod lock;
pub mod menu;
pub mod popup;
mod scoped_options;
mod shape;
mod spawn;
mod state;
pub mod status;
mod status_jobs;
mod swap;
mod targets;
mod task;
mod terminal_alerts;
mod view;
mod window_size;
mod windows;

pub use detach::DetachHow;
pub use directory::{SessionDirectory, SessionSummary};
pub use format_vars::{FormatContext, VarsWithOptions};
pub use list::{ClientInfo, TreeWindow};
pub use scoped_options::Level;
pub use state::{path_of_file_url, PaneMeta, SessionState, Window, MAX_CLIPBOARD_BYTES};
pub use view::{StatusLine, View, WindowTab};

use crate::ids::{ClientId, IdAllocator, PaneId, SessionId};
use crate::outcome::{CommandError, Output};
use crate::pane::PaneHandle;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, watch};
use weft_protocol::{ExitNotice, SessionInfo};
use weft_pty_io::SpawnOptions;

/// Commands waiting for a session task: attaches, resizes, commands. Clients send a handful.
pub const SESSION_COMMAND_CAPACITY: usize = 64;
/// Control messages waiting for one client's connection (exit notices).
pub const CLIENT_CONTROL_CAPACITY: usize = 8;
/// Pane exit reports waiting for the session task.
const PANE_EXIT_CAPACITY: usize = 16;

/// Starts what a session that ended tells its clients to switch to (`detach-on-destroy`):
/// a control character, which no session name holds (names are cleaned of them), so no
/// target can be mistaken for it. `switch-client`'s targets read it back.
pub const AWAY_PREFIX: &str = "\u{0}away ";

/// The switch target for the clients of session `ended` as `detach-on-destroy` (`how`) says.
pub fn away_target(ended: SessionId, how: &str) -> String {
    format!("{AWAY_PREFIX}{} {how}", ended.get())
}

/// A session's id when it ends, and where the registry answers, once it has acted on it,
/// with how many sessions remain.
pub type SessionEnded = (SessionId, oneshot::Sender<usize>);

/// Where a command runs within a session: the window or pane part of its target, and the pane
/// it was typed in (`$WEFT_PANE`, or the client's active pane).
#[derive(Clone, Debug, Default)]
pub struct Scope {
    /// The target with the session part taken off (`:1`, `@3`, `%2`, `1.0`), if any.
    pub target: Option<String>,
    /// The pane the command comes from.
    pub from: Option<PaneId>,
}

impl Scope {
    /// The target, as a string slice.
    pub fn target(&self) -> Option<&str> {
        self.target.as_deref()
    }
}

/// A command's work on a session, run inside the session's task with its state.
pub type SessionAction =
    Box<dyn FnOnce(&mut SessionState, &Scope) -> Result<Output, CommandError> + Send + Sync>;

/// Messages from a session to one attached client's connection.
#[derive(Debug)]
pub enum ClientControl {
    /// The attachment ended; tell the user why and close.
    Exit(ExitNotice),
    /// Show another session (`switch-client` from the command line): a target session, or
    /// `+`/`-` for the next or previous one; and the hook depth of the command that asked (the
    /// `client-session-changed` hook it fires is one deeper).
    Switch(String, u8),
    /// Show a message (a pipe that failed, a hook that could not run).
    Message(String),
    /// Bytes for the client's terminal before its next frame: a program's passthrough
    /// (`allow-passthrough`), already checked to ask the terminal nothing.
    Terminal(bytes::Bytes),
    /// Open or close a popup (`display-popup` from the command line).
    Popup(Box<popup::PopupAction>),
    /// Show a menu (`display-menu` from the command line).
    Menu(Box<menu::MenuRequest>),
    /// What a command the client ran in the background printed (`run-shell`), to show.
    Output(Output),
}

/// What an attaching client gets back.
#[derive(Debug)]
pub struct Attached {
    /// Session name.
    pub name: String,
    /// The layout to draw, updated by the session.
    pub view: watch::Receiver<View>,
    /// The client whose size the session follows.
    pub latest: Arc<LatestClient>,
}

/// The client whose size a session follows, set by the session task and read by its clients'
/// connections without asking it.
#[derive(Debug)]
pub struct LatestClient(AtomicU64);

impl LatestClient {
    /// Stored while no client has been followed yet: matches no client.
    const NONE: u64 = u64::MAX;

    /// Follows no client yet.
    pub(super) fn none() -> Self {
        LatestClient(AtomicU64::new(Self::NONE))
    }

    /// The session follows `client` from now on.
    #[inline]
    pub(super) fn set(&self, client: ClientId) {
        self.0.store(client.get(), Ordering::Relaxed);
    }

    /// Whether the session follows `client`.
    #[inline]
    pub fn is(&self, client: ClientId) -> bool {
        self.0.load(Ordering::Relaxed) == client.get()
    }
}

/// Requests to a session task.
pub enum SessionCommand {
    /// A client attaches.
    Attach {
        /// Client id.
        client: ClientId,
        /// Its terminal size.
        cols: u16,
        /// See `cols`.
        rows: u16,
        /// It only watches: its size never becomes the session's.
        read_only: bool,
        /// Where the session reaches the client.
        control: mpsc::Sender<ClientControl>,
        /// The session (process group session id) of the client's terminal, when known: a
        /// terminal that is one of this session's panes is refused.
        terminal_session: Option<u32>,
        /// The client's environment, for the variables `update-environment` names.
        env: Arc<Vec<(String, String)>>,
        /// The client's terminal device (`/dev/pts/3`), when known.
        tty: Option<String>,
        /// When it last typed (seconds since the epoch), stamped by its connection.
        activity: Arc<AtomicU64>,
        /// The answer, or why the client may not attach.
        reply: oneshot::Sender<Result<Attached, CommandError>>,
    },
    /// A client's terminal changed size.
    ClientResize {
        /// Client id.
        client: ClientId,
        /// Columns.
        cols: u16,
        /// Rows.
        rows: u16,
    },
    /// A client typed: the session follows its size from now on.
    ClientActive {
        /// Client id.
        client: ClientId,
    },
    /// A client went away.
    ClientGone {
        /// Client id.
        client: ClientId,
    },
    /// Detach every client but `except`.
    Detach {
        /// The client that stays (the one that asked), if any.
        except: Option<ClientId>,
        /// What the clients do as they leave (`-P`, `-E`).
        how: DetachHow,
    },
    /// Lock every client (`lock-session`): each runs `lock-command` and attaches again.
    Lock,
    /// Detach one client.
    DetachOne {
        /// The client.
        client: ClientId,
        /// What it does as it leaves (`-P`, `-E`).
        how: DetachHow,
    },
    /// Tell a client to show another session (`switch-client` from the command line).
    SwitchClients {
        /// This client, else the most recently active one.
        client: Option<ClientId>,
        /// What `switch-client -t` names (`+`/`-`: the next or previous session).
        target: String,
        /// The hook depth of the command that asked.
        hook_depth: u8,
    },
    /// Tell a client to open or close a popup (`display-popup` from the command line): the
    /// one named, else the most recently active one.
    PopupClient {
        /// This client, else the most recently active one.
        client: Option<ClientId>,
        /// What to do.
        action: Box<popup::PopupAction>,
    },
    /// Tell a client to show a menu (`display-menu` from the command line): the most recently
    /// active one.
    MenuClient(Box<menu::MenuRequest>),
    /// Every client repaints.
    Refresh,
    /// Every client shows a message.
    Message(String),
    /// End the session's programs.
    Kill,
    /// Describe the session.
    Info {
        /// The answer.
        reply: oneshot::Sender<SessionInfo>,
    },
    /// Run a command's work on the session.
    Run {
        /// The work.
        action: SessionAction,
        /// Where within the session.
        scope: Scope,
        /// How many hooks deep the command runs: hooks it fires here (`pane-focus-in`, ...)
        /// are one deeper, so hooks that fire each other end.
        hook_depth: u8,
        /// What to print, or why it failed.
        reply: oneshot::Sender<Result<Output, CommandError>>,
    },
    /// Does this session have pane `%id`?
    HasPane {
        /// Pane id.
        pane: PaneId,
        /// The answer.
        reply: oneshot::Sender<bool>,
    },
    /// The global configuration changed (`set-option -g`, `source-file`, `bind-key`): the
    /// session takes it under its own options.
    ConfigChanged,
    /// The pane a target means (recently exited panes included, for `wait --exit`).
    ResolvePane {
        /// Where within the session.
        scope: Scope,
        /// The answer.
        reply: oneshot::Sender<Result<PaneHandle, CommandError>>,
    },
}

impl std::fmt::Debug for SessionCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let name = match self {
            SessionCommand::Attach { .. } => "Attach",
            SessionCommand::ClientResize { .. } => "ClientResize",
            SessionCommand::ClientActive { .. } => "ClientActive",
            SessionCommand::ClientGone { .. } => "ClientGone",
            SessionCommand::Detach { .. } => "Detach",
            SessionCommand::DetachOne { .. } => "DetachOne",
            SessionCommand::Lock => "Lock",
            SessionCommand::SwitchClients { .. } => "SwitchClients",
            SessionCommand::PopupClient { .. } => "PopupClient",
            SessionCommand::MenuClient(_) => "MenuClient",
            SessionCommand::Refresh => "Refresh",
            SessionCommand::Message(_) => "Message",
            SessionCommand::Kill => "Kill",
            SessionCommand::Info { .. } => "Info",
            SessionCommand::Run { .. } => "Run",
            SessionCommand::HasPane { .. } => "HasPane",
            SessionCommand::ConfigChanged => "ConfigChanged",
            SessionCommand::ResolvePane { .. } => "ResolvePane",
        };
        f.write_str(name)
    }
}

/// A handle on a session task.
#[derive(Clone, Debug)]
pub struct SessionHandle {
    /// The session's id (`$N`).
    pub id: SessionId,
    /// Name, shared by every handle (`rename-session` changes it).
    name: Arc<std::sync::RwLock<String>>,
    commands: mpsc::Sender<SessionCommand>,
    /// Cancelled once the session has ended and the registry has forgotten it.
    gone: tokio_util::sync::CancellationToken,
}

impl SessionHandle {
    /// Resolves once the session has ended and the registry has forgotten it (no listing
    /// shows it any more).
    pub async fn gone(&self) {
        self.gone.cancelled().await;
    }

    /// The session's name now.
    pub fn name(&self) -> String {
        self.name.read().map(|n| n.clone()).unwrap_or_default()
    }

    /// Renames the session in every handle (the registry checks the name first; the session
    /// task is told separately).
    pub fn set_name(&self, name: &str) {
        if let Ok(mut n) = self.name.write() {
            *n = name.to_string();
        }
    }

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

    /// Runs a command's work in the session.
    pub async fn run(&self, action: SessionAction, scope: Scope) -> Result<Output, CommandError> {
        let hook_depth = crate::hooks::current_depth();
        self.ask(|reply| SessionCommand::Run {
            action,
            scope,
            hook_depth,
            reply,
        })
        .await
    }

    /// The pane a target within this session means.
    pub async fn resolve_pane(&self, scope: Scope) -> Result<PaneHandle, CommandError> {
        self.ask(|reply| SessionCommand::ResolvePane { scope, reply })
            .await
    }

    /// Sends the command `make` builds around a reply channel and waits for its answer; a
    /// session that ended meanwhile is an error.
    async fn ask<T>(
        &self,
        make: impl FnOnce(oneshot::Sender<Result<T, CommandError>>) -> SessionCommand,
    ) -> Result<T, CommandError> {
        let (reply, answer) = oneshot::channel();
        if !self.send(make(reply)).await {
            return Err(CommandError::SessionEnded);
        }
        answer.await.map_err(|_| CommandError::SessionEnded)?
    }

    /// Whether pane `%id` is in this session.
    pub async fn has_pane(&self, pane: PaneId) -> bool {
        let (reply, answer) = oneshot::channel();
        self.send(SessionCommand::HasPane { pane, reply }).await && answer.await.unwrap_or(false)
    }
}

/// How panes of this session are started.
#[derive(Clone, Debug)]
pub struct PaneTemplate {
    /// Shell and environment for new panes (command, cwd, size set per pane).
    pub spawn: SpawnOptions,
    /// Where panes register their figures.
    pub metrics: Arc<crate::metrics::MetricsRegistry>,
    /// Server-wide: keystroke echoes before floods.
    pub priority: Arc<crate::priority::EchoPriority>,
    /// Server-wide: the users' terminals' colours, which programs' queries are answered with.
    pub host_colors: tokio::sync::watch::Receiver<Arc<weft_screen_model::palette::HostColors>>,
}

/// How to start a session.
#[derive(Clone, Debug)]
pub struct SessionSpec {
    /// The session's id (`$N`).
    pub id: SessionId,
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
    /// The first window's name (`new -n`); named after its program when `None`.
    pub window_name: Option<String>,
    /// Whether the first pane stays after its program exits (`remain-on-exit` for it alone);
    /// `None`: as the session's `remain-on-exit` says.
    pub first_pane_remains: Option<bool>,
    /// New panes.
    pub template: PaneTemplate,
    /// The paste buffers and the settings for programs' clipboard writes and reads.
    pub clipboard: ClipboardAccess,
    /// Where hooks are fired to.
    pub hooks: crate::hooks::HookFeed,
    /// Where subscribers hear what happens.
    pub events: crate::events::EventFeed,
    /// Every session's summary, where this one keeps its own.
    pub directory: SessionDirectory,
}

/// What a session needs for its programs' clipboard writes and reads (OSC 52): the server's
/// paste buffers, and the configuration in force (`set-clipboard`, `get-clipboard`).
#[derive(Clone, Debug)]
pub struct ClipboardAccess {
    /// The server's paste buffers.
    pub buffers: Arc<crate::buffers::Buffers>,
    /// The configuration in force.
    pub config: watch::Receiver<Arc<crate::config::Config>>,
}

/// Starts a session with its first window; returns it and that window's pane. `ended` hears the session id when it ends, and
/// answers once the server has acted on it (its socket gone if that was the last session).
pub fn spawn_session(
    spec: SessionSpec,
    ids: Arc<IdAllocator>,
    ended: mpsc::Sender<SessionEnded>,
) -> Result<(SessionHandle, PaneHandle), CommandError> {
    let (exit_tx, exit_rx) = mpsc::channel(PANE_EXIT_CAPACITY);
    let (event_tx, event_rx) = mpsc::channel(crate::pane::PANE_EVENT_CAPACITY);
    let (command_tx, command_rx) = mpsc::channel(SESSION_COMMAND_CAPACITY);
    let (id, name) = (spec.id, spec.name.clone());
    let (command, cwd) = (spec.command.clone(), spec.cwd.clone());
    let (job_tx, job_rx) = mpsc::channel(status_jobs::JOB_RESULT_CAPACITY);
    let remains = spec.first_pane_remains;
    let window_name = spec.window_name.clone();
    let gone = tokio_util::sync::CancellationToken::new();
    let mut state = SessionState::new(spec, ids, exit_tx, event_tx, job_tx);
    let first_pane = state.new_window_remaining(command, cwd, false, remains)?;
    if let Some(w) = window_name.and_then(|n| state.windows.first_mut().map(|w| (w, n))) {
        // A name given by hand stays, as `rename-window`'s does.
        w.0.name = crate::names::clean_name(&w.1);
        w.0.auto_name = false;
    }
    tokio::spawn(state.run(
        task::Inputs {
            commands: command_rx,
            exits: exit_rx,
            events: event_rx,
            job_results: job_rx,
            gone: gone.clone(),
        },
        ended,
    ));
    let handle = SessionHandle {
        id,
        name: Arc::new(std::sync::RwLock::new(name)),
        commands: command_tx,
        gone,
    };
    Ok((handle, first_pane))
}
