//! The registry: every session of the server by id and name. The server ends with its last
//! session.

use crate::config::Config;
use crate::ids::{IdAllocator, PaneId, SessionId};
use crate::outcome::CommandError;
use crate::pane::PaneHandle;
use crate::session::{
    spawn_session, ClipboardAccess, PaneTemplate, SessionCommand, SessionEnded, SessionHandle,
    SessionSpec,
};
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot, watch};
use tokio_util::sync::CancellationToken;
use weft_protocol::{NewSession, SessionInfo};
use weft_pty_io::SpawnOptions;

/// Requests waiting for the registry: one per client command, so a small queue suffices.
pub const REGISTRY_COMMAND_CAPACITY: usize = 64;
/// Session-ended reports waiting for the registry.
const SESSION_END_CAPACITY: usize = 16;
/// Size of a session created without a client or `-x`/`-y`.
const DEFAULT_SIZE: (u16, u16) = (80, 24);

/// Requests to the registry.
#[derive(Debug)]
enum RegistryCommand {
    /// The configuration's start-up commands are done: the last session ending may end the
    /// server from now on.
    Started,
    New {
        spec: NewSession,
        first_pane_remains: Option<bool>,
        reply: oneshot::Sender<Result<(SessionHandle, PaneHandle), CommandError>>,
    },
    Find {
        target: Option<String>,
        reply: oneshot::Sender<Option<SessionHandle>>,
    },
    Current {
        reply: oneshot::Sender<Option<SessionHandle>>,
    },
    List {
        reply: oneshot::Sender<Vec<SessionHandle>>,
    },
    KillServer,
    SetConfig(Arc<Config>),
    UpdateConfig(ConfigChange),
    Rename {
        id: SessionId,
        name: String,
        reply: oneshot::Sender<Result<String, CommandError>>,
    },
}

/// What a configuration change does: changes the copy, says what it did or why not.
type ChangeFn = Box<dyn FnOnce(&mut Config) -> Result<String, String> + Send>;

/// A change to the configuration in force, made inside the registry task so that changes
/// from several clients apply one after another; its answer (or error sentence) goes back.
pub struct ConfigChange {
    change: ChangeFn,
    reply: oneshot::Sender<Result<String, String>>,
}

impl std::fmt::Debug for ConfigChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ConfigChange(..)")
    }
}

/// A handle on the registry task.
#[derive(Clone, Debug)]
pub struct Registry {
    commands: mpsc::Sender<RegistryCommand>,
    /// What subscribers hear: every session publishes here.
    events: crate::events::EventFeed,
}

/// What the registry is started with: the server's shared pieces its sessions use.
pub struct RegistryParts {
    /// The configuration, which the registry owns (`Registry::update_config`).
    pub config: watch::Sender<Arc<Config>>,
    /// Ids for sessions, windows and panes.
    pub ids: Arc<IdAllocator>,
    /// The server's socket: its path for `$WEFT` in panes, removed as the server ends.
    pub socket: Arc<crate::socket_file::SocketFile>,
    /// Figures for `weft diag`.
    pub metrics: Arc<crate::metrics::MetricsRegistry>,
    /// The paste buffers.
    pub buffers: Arc<crate::buffers::Buffers>,
    /// Where hooks are fired to.
    pub hooks: crate::hooks::HookFeed,
    /// The colours programs' queries are answered with (the latest client's terminal).
    pub host_colors: watch::Receiver<Arc<weft_screen_model::palette::HostColors>>,
    /// Cancelled when the last session ends or on `kill-server`.
    pub shutdown: CancellationToken,
    /// The configuration's `run-shell` commands run as the server starts (see
    /// [`Registry::started`]): until then, a session they make and end does not end the
    /// server, as tmux waits for its jobs.
    pub starting: bool,
}

impl Registry {
    /// Starts the registry.
    pub fn spawn(parts: RegistryParts) -> Self {
        let RegistryParts {
            config,
            ids,
            socket,
            metrics,
            buffers,
            hooks,
            host_colors,
            shutdown,
            starting,
        } = parts;
        let (tx, rx) = mpsc::channel(REGISTRY_COMMAND_CAPACITY);
        let (ended_tx, ended_rx) = mpsc::channel(SESSION_END_CAPACITY);
        let events = crate::events::EventFeed::default();
        let task = RegistryTask {
            events: events.clone(),
            config,
            ids,
            socket,
            metrics,
            buffers,
            hooks,
            priority: Arc::new(crate::priority::EchoPriority::default()),
            host_colors,
            sessions: Vec::new(),
            directory: crate::session::SessionDirectory::default(),
            ended: ended_tx,
            shutdown,
            ending: false,
            starting,
        };
        tokio::spawn(task.run(rx, ended_rx));
        Registry {
            commands: tx,
            events,
        }
    }

    /// Where subscribers hear what happens in every session (`weft subscribe`).
    pub fn events(&self) -> &crate::events::EventFeed {
        &self.events
    }

    /// Creates a session.
    pub async fn new_session(&self, spec: NewSession) -> Result<SessionHandle, CommandError> {
        self.new_session_with_pane(spec, None)
            .await
            .map(|(session, _)| session)
    }

    /// Creates a session; also returns its first pane, taken before its program can end.
    /// `first_pane_remains` says whether that pane stays after its program exits, as with
    /// `remain-on-exit`, until it is killed (`None`: as the option says).
    pub async fn new_session_with_pane(
        &self,
        spec: NewSession,
        first_pane_remains: Option<bool>,
    ) -> Result<(SessionHandle, PaneHandle), CommandError> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(RegistryCommand::New {
                spec,
                first_pane_remains,
                reply,
            })
            .await
            .map_err(|_| CommandError::ShuttingDown)?;
        answer.await.map_err(|_| CommandError::ShuttingDown)?
    }

    /// A session by name or `$id`, or the most recent one when `target` is `None`.
    pub async fn find(&self, target: Option<String>) -> Option<SessionHandle> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(RegistryCommand::Find { target, reply })
            .await
            .ok()?;
        answer.await.ok()?
    }

    /// Every session's handle, by id.
    pub async fn all(&self) -> Vec<SessionHandle> {
        let (reply, answer) = oneshot::channel();
        if self
            .commands
            .send(RegistryCommand::List { reply })
            .await
            .is_err()
        {
            return Vec::new();
        }
        answer.await.unwrap_or_default()
    }

    /// The most recently used session, without making it more recent.
    pub async fn find_current(&self) -> Option<SessionHandle> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(RegistryCommand::Current { reply })
            .await
            .ok()?;
        answer.await.ok()?
    }

    /// The session holding pane `%id`.
    pub async fn find_pane(&self, pane: PaneId) -> Option<SessionHandle> {
        for h in self.all().await {
            if h.has_pane(pane).await {
                return Some(h);
            }
        }
        None
    }

    /// Replaces the configuration (after `source-file`) and tells every session.
    pub async fn set_config(&self, config: Arc<Config>) {
        let _ = self.commands.send(RegistryCommand::SetConfig(config)).await;
    }

    /// Changes the configuration in force with `change` (one change at a time, on a copy that
    /// replaces it only when `change` succeeds) and tells every session; returns what `change`
    /// said.
    pub async fn update_config(
        &self,
        change: impl FnOnce(&mut Config) -> Result<String, String> + Send + 'static,
    ) -> Result<String, String> {
        let (reply, answer) = oneshot::channel();
        let command = RegistryCommand::UpdateConfig(ConfigChange {
            change: Box::new(change),
            reply,
        });
        if self.commands.send(command).await.is_err() {
            return Err("the server is shutting down".into());
        }
        answer
            .await
            .unwrap_or_else(|_| Err("the server is shutting down".into()))
    }

    /// Every session, oldest first.
    pub async fn list(&self) -> Vec<SessionInfo> {
        let handles = self.all().await;
        let mut infos = Vec::new();
        for h in handles {
            if let Some(info) = h.info().await {
                infos.push(info);
            }
        }
        infos
    }

    /// Renames session `id` after checking the name is valid and free; the cleaned name.
    pub async fn rename(&self, id: SessionId, name: String) -> Result<String, CommandError> {
        let (reply, answer) = oneshot::channel();
        self.commands
            .send(RegistryCommand::Rename { id, name, reply })
            .await
            .map_err(|_| CommandError::ShuttingDown)?;
        answer.await.map_err(|_| CommandError::ShuttingDown)?
    }

    /// The configuration's start-up commands are done.
    pub async fn started(&self) {
        let _ = self.commands.send(RegistryCommand::Started).await;
    }

    /// Ends every session; the server then exits.
    pub async fn kill_server(&self) {
        let _ = self.commands.send(RegistryCommand::KillServer).await;
    }
}

struct RegistryTask {
    config: watch::Sender<Arc<Config>>,
    ids: Arc<IdAllocator>,
    /// The server's socket: its path for `$WEFT`, removed as the server ends.
    socket: Arc<crate::socket_file::SocketFile>,
    /// Figures for `weft diag`.
    metrics: Arc<crate::metrics::MetricsRegistry>,
    /// Keystroke echoes before floods, for every pane of the server.
    priority: Arc<crate::priority::EchoPriority>,
    /// The users' terminals' colours, for every pane of the server.
    host_colors: watch::Receiver<Arc<weft_screen_model::palette::HostColors>>,
    /// The paste buffers, for programs' clipboard writes and reads.
    buffers: Arc<crate::buffers::Buffers>,
    /// Where hooks are fired to.
    hooks: crate::hooks::HookFeed,
    /// Where subscribers hear what happens.
    events: crate::events::EventFeed,
    /// Oldest first; the last is the most recently created or attached.
    sessions: Vec<SessionHandle>,
    /// Every session's summary, for formats that loop over sessions.
    directory: crate::session::SessionDirectory,
    ended: mpsc::Sender<SessionEnded>,
    shutdown: CancellationToken,
    /// The server is on its way out (`kill-server`, or the last session ended with
    /// `exit-empty` on): no session is made after that, so none is lost with the process; a
    /// client refused for it starts a new server.
    ending: bool,
    /// See [`RegistryParts::starting`].
    starting: bool,
}

impl RegistryTask {
    /// Puts `config` in force and tells every session.
    async fn apply_config(&mut self, config: Arc<Config>) {
        self.buffers.set_limit(config.buffer_limit);
        crate::option_arrays::publish_aliases(&config);
        self.config.send_replace(config);
        for s in &self.sessions {
            s.send(SessionCommand::ConfigChanged).await;
        }
        // A round trip with each session: it has applied the options and published its view
        // before `set-option` returns, so keys typed next already see the change (a
        // `synchronize-panes` turned on reaches every pane with the next key, not halfway
        // through a line).
        for s in &self.sessions {
            let _ = s.info().await;
        }
    }

    async fn run(
        mut self,
        mut commands: mpsc::Receiver<RegistryCommand>,
        mut ended: mpsc::Receiver<SessionEnded>,
    ) {
        loop {
            tokio::select! {
                command = commands.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                Some((id, acted)) = ended.recv() => {
                    self.sessions.retain(|s| s.id != id);
                    self.session_closed(id).await;
                    // exit-empty off keeps the server for the next session (tmux's option).
                    let exit_empty = self.config.borrow().option_value("exit-empty").as_deref() != Some("off");
                    // kill-server ends it whatever; exit-empty once start-up is over.
                    let ends = self.ending || (exit_empty && !self.starting);
                    if self.sessions.is_empty() && ends {
                        self.shut_down();
                    }
                    let _ = acted.send(self.sessions.len());
                }
            }
        }
    }

    /// Ends the server: the socket goes first, so nobody connects to a server going away and
    /// whatever a user runs next finds none (or starts a new one); then the listener stops.
    fn shut_down(&mut self) {
        self.ending = true;
        self.socket.remove();
        self.events
            .publish(None, None, crate::events::EventKind::ServerExiting);
        self.shutdown.cancel();
    }

    async fn handle(&mut self, command: RegistryCommand) {
        match command {
            RegistryCommand::New {
                spec,
                first_pane_remains,
                reply,
            } => {
                let _ = reply.send(self.create(spec, first_pane_remains));
            }
            // An ending server's sessions are on their way out: none is found to attach to
            // (plain `weft` and `new -A` then make one, which a new server does).
            RegistryCommand::Find { reply, .. } | RegistryCommand::Current { reply }
                if self.ending =>
            {
                let _ = reply.send(None);
            }
            RegistryCommand::Find { target, reply } => {
                let found = match target {
                    None => self.sessions.last().cloned(),
                    Some(t) => self.lookup(&t),
                };
                // The one attached to becomes the most recent.
                if let Some(found) = &found {
                    if let Some(pos) = self.sessions.iter().position(|s| s.id == found.id) {
                        let s = self.sessions.remove(pos);
                        self.sessions.push(s);
                    }
                }
                let _ = reply.send(found);
            }
            RegistryCommand::Current { reply } => {
                let _ = reply.send(self.sessions.last().cloned());
            }
            RegistryCommand::List { reply } => {
                let mut sorted = self.sessions.clone();
                sorted.sort_by_key(|s| s.id);
                let _ = reply.send(sorted);
            }
            RegistryCommand::UpdateConfig(ConfigChange { change, reply }) => {
                let mut config = Config::clone(&self.config.borrow());
                let result = change(&mut config);
                if result.is_ok() {
                    self.apply_config(Arc::new(config)).await;
                }
                let _ = reply.send(result);
            }
            RegistryCommand::SetConfig(config) => self.apply_config(config).await,
            RegistryCommand::Rename { id, name, reply } => {
                let result = self.check_name(&name, Some(id)).and_then(|name| {
                    let session = self.sessions.iter().find(|s| s.id == id);
                    let session = session.ok_or(CommandError::SessionEnded)?;
                    session.set_name(&name);
                    Ok(name)
                });
                let _ = reply.send(result);
            }
            RegistryCommand::Started => {
                self.starting = false;
                // A kill-server during start-up that found sessions ends the server now.
                if self.ending && self.sessions.is_empty() && !self.shutdown.is_cancelled() {
                    self.shut_down();
                }
            }
            RegistryCommand::KillServer => {
                self.ending = true;
                // At once, not when the last program has gone: what runs next starts a new
                // server instead of finding this one's sessions on their way out.
                self.socket.remove();
                force_exit_after(KILL_SERVER_DEADLINE, self.socket.clone());
                if self.sessions.is_empty() {
                    self.shut_down();
                }
                for s in &self.sessions {
                    s.send(SessionCommand::Kill).await;
                }
            }
        }
    }

    fn lookup(&self, target: &str) -> Option<SessionHandle> {
        let target = target.strip_suffix(':').unwrap_or(target);
        if let Some(id) = SessionId::parse(target) {
            return self.sessions.iter().find(|s| s.id == id).cloned();
        }
        self.sessions.iter().find(|s| s.name() == target).cloned()
    }

    /// A session name cleaned and checked: valid, and used by no session but `except`.
    fn check_name(&self, name: &str, except: Option<SessionId>) -> Result<String, CommandError> {
        let n = crate::names::clean_name(name);
        if n.is_empty() {
            return Err(CommandError::failed(
                "a session name cannot be empty; type a name",
            ));
        }
        if n.contains(':') || n.contains('.') || n.starts_with('$') {
            return Err(CommandError::failed(format!(
                "bad session name {n:?}: it may not contain ':' or '.' or start with '$'"
            )));
        }
        if self
            .sessions
            .iter()
            .any(|s| s.name() == n && Some(s.id) != except)
        {
            return Err(CommandError::failed(format!(
                "duplicate session: {n} (pick another name, or attach to it)"
            )));
        }
        Ok(n)
    }

    fn create(
        &mut self,
        spec: NewSession,
        first_pane_remains: Option<bool>,
    ) -> Result<(SessionHandle, PaneHandle), CommandError> {
        if self.ending {
            return Err(CommandError::ShuttingDown);
        }
        let id = self.ids.session();
        let name = match spec
            .name
            .map(|n| crate::names::clean_name(&n))
            .filter(|n| !n.is_empty())
        {
            Some(n) => self.check_name(&n, None)?,
            None => {
                let mut n = id.get();
                while self.sessions.iter().any(|s| s.name() == n.to_string()) {
                    n += 1;
                }
                n.to_string()
            }
        };
        let config = self.config.borrow().clone();
        // A size not given (a detached session) is `default-size`'s.
        let default_size = config
            .option_value("default-size")
            .and_then(|v| crate::options::parse_size(&v))
            .unwrap_or(DEFAULT_SIZE);
        let (cols, rows) = weft_protocol::clamp_size(
            spec.cols.unwrap_or(default_size.0),
            spec.rows.unwrap_or(default_size.1),
        );
        let mut env: Vec<(std::ffi::OsString, std::ffi::OsString)> = spec
            .env
            .into_iter()
            .filter(|(k, _)| k != "TERM" && k != "TMUX" && k != "WEFT" && k != "WEFT_PANE")
            .map(|(k, v)| (k.into(), v.into()))
            .collect();
        env.push(("TERM".into(), config.default_term.clone().into()));
        env.push(("COLORTERM".into(), "truecolor".into()));
        // Like $TMUX: socket, server pid, session id.
        env.push((
            "WEFT".into(),
            format!(
                "{},{},{}",
                self.socket.path().display(),
                std::process::id(),
                id.get()
            )
            .into(),
        ));
        let template = PaneTemplate {
            spawn: SpawnOptions {
                env_remove: Vec::new(),
                command: Vec::new(),
                shell: config.default_shell.clone(),
                cwd: spec.cwd.clone().map(Into::into),
                env,
                cols,
                rows,
                erase: None,
            },
            metrics: self.metrics.clone(),
            priority: self.priority.clone(),
            host_colors: self.host_colors.clone(),
        };
        let (handle, first_pane) = spawn_session(
            SessionSpec {
                id,
                name,
                cols,
                rows,
                command: spec.command,
                cwd: spec.cwd,
                window_name: spec.window_name,
                first_pane_remains,
                template,
                clipboard: ClipboardAccess {
                    buffers: self.buffers.clone(),
                    config: self.config.subscribe(),
                },
                hooks: self.hooks.clone(),
                events: self.events.clone(),
                directory: self.directory.clone(),
            },
            self.ids.clone(),
            self.ended.clone(),
        )?;
        self.sessions.push(handle.clone());
        for hook in ["session-created", "after-new-session"] {
            self.fire(hook, Some(id));
        }
        Ok((handle, first_pane))
    }

    /// Fires hook `name` for session `session`, if it is set.
    fn fire(&self, name: &str, session: Option<SessionId>) {
        if self.config.borrow().hooks.is_set(name) {
            self.hooks.fire(crate::hooks::HookEvent {
                name: name.to_string(),
                session,
                pane: None,
                depth: 0,
            });
        }
    }

    /// Session `id` ended: its hooks go, and `session-closed` fires (global hooks only: the
    /// session's own went with it).
    async fn session_closed(&mut self, id: SessionId) {
        if self.config.borrow().hooks.has_session_hooks(id) {
            let mut config = Config::clone(&self.config.borrow());
            config.hooks.forget_session(id);
            self.apply_config(Arc::new(config)).await;
        }
        self.fire("session-closed", None);
    }
}

/// Longest `kill-server` waits for an orderly shutdown (programs hung up, clients told) before
/// the process exits anyway: nothing a pane or a client does may keep the server alive.
const KILL_SERVER_DEADLINE: std::time::Duration = std::time::Duration::from_secs(2);

/// Ends the process after `deadline` if it is still running, removing its socket first (if
/// that is not done, and the path is still this server's). A plain thread, so that it fires
/// even when every runtime worker is stuck.
fn force_exit_after(deadline: std::time::Duration, socket: Arc<crate::socket_file::SocketFile>) {
    let spawned = std::thread::Builder::new()
        .name("weft-kill-deadline".into())
        .spawn(move || {
            std::thread::sleep(deadline); // deadline-ok: a last-resort exit, not a poll
            tracing::warn!("kill-server: shutdown stalled; exiting now");
            socket.remove();
            std::process::exit(0);
        });
    if let Err(e) = spawned {
        tracing::warn!("kill-server: no deadline thread ({e}); shutdown relies on its order");
    }
}
