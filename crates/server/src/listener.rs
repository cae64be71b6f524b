//! Binding the socket (replacing a stale one), accepting clients, and shutting down.

use crate::config::Config;
use crate::connection::{refuse, serve};
use crate::context::ServerContext;
use crate::ids::IdAllocator;
use crate::limits::{
    connection_limit, raise_descriptor_limit, ConnectionCount, MAX_UNAUTHENTICATED,
};
use crate::registry::Registry;
use futures::FutureExt;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{UnixListener, UnixStream};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

/// The socket's permissions: the owner's only.
const SOCKET_MODE: u32 = 0o600;

/// How long shutdown waits for connections to say goodbye before the process exits.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(2);

/// How to run a server.
pub struct ServerOptions {
    /// The socket path.
    pub socket: PathBuf,
    /// Settings.
    pub config: Config,
    /// weft's version.
    pub version: String,
    /// What the configuration file held that weft could not apply: shown to the first client
    /// that attaches.
    pub warnings: Vec<String>,
    /// Written with "ready\n" once the socket accepts connections (the starting client waits
    /// for it), then dropped.
    pub ready: Option<Box<dyn Write + Send>>,
    /// When the server process started: the configuration's `run-shell` commands end by
    /// [`crate::startup_runs::STARTUP_BUDGET`] after it, inside the starting client's wait.
    pub started: std::time::Instant,
}

/// Binds `socket`; a socket file nobody answers on is stale and replaced. Another live server
/// is an error.
pub async fn bind(socket: &Path) -> std::io::Result<UnixListener> {
    match UnixListener::bind(socket) {
        Ok(l) => Ok(l),
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
            if UnixStream::connect(socket).await.is_ok() {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::AddrInUse,
                    format!("a weft server is already running on {}", socket.display()),
                ));
            }
            std::fs::remove_file(socket)?;
            UnixListener::bind(socket)
        }
        Err(e) => Err(e),
    }
}

/// Runs the server until its last session ends or `kill-server`.
pub async fn run(mut options: ServerOptions) -> std::io::Result<()> {
    let listener = bind(&options.socket).await?;
    // Only the owner may connect, whatever the umask (the peer's uid is checked too).
    std::fs::set_permissions(
        &options.socket,
        std::fs::Permissions::from_mode(SOCKET_MODE),
    )?;
    let socket_file = Arc::new(crate::socket_file::SocketFile::new(options.socket.clone()));
    // The file's `run-shell` commands run now that connections are taken; the starting client
    // hears "ready" once they are done, as tmux's first client waits for its file.
    let deferred = std::mem::take(&mut options.config.deferred_runs);
    let resume = options.config.resume.take();
    let mut ready = options.ready.take();
    if deferred.is_empty() {
        say_ready(ready.take(), &[]);
    }
    // The clients' runtime is made on a worker meanwhile, off the way of the first attach.
    tokio::spawn(async {
        crate::client_runtime::client_runtime();
    });
    let shutdown = CancellationToken::new();
    let ids = Arc::new(IdAllocator::default());
    let (config_tx, config_rx) = tokio::sync::watch::channel(Arc::new(options.config.clone()));
    let metrics = Arc::new(crate::metrics::MetricsRegistry::default());
    let buffers = Arc::new(crate::buffers::Buffers::new(options.config.buffer_limit));
    let (hooks, fired_hooks) = crate::hooks::HookFeed::new(metrics.clone());
    let terminals = Arc::new(crate::terminal::Terminals::default());
    let registry = Registry::spawn(crate::registry::RegistryParts {
        config: config_tx,
        ids: ids.clone(),
        socket: socket_file.clone(),
        metrics: metrics.clone(),
        buffers: buffers.clone(),
        hooks: hooks.clone(),
        host_colors: terminals.colors(),
        shutdown: shutdown.clone(),
        starting: !deferred.is_empty(),
    });
    let ctx = ServerContext {
        registry,
        hooks,
        waits: Default::default(),
        ids,
        metrics,
        buffers,
        terminals,
        version: options.version.clone(),
        config: config_rx,
        startup_warnings: Arc::new(std::sync::Mutex::new(options.warnings.clone())),
        prompt_history: Default::default(),
        messages: Default::default(),
    };
    tokio::spawn(crate::hook_runner::run(fired_hooks, ctx.clone()));
    if !deferred.is_empty() {
        let warnings = ctx.startup_warnings.clone();
        let deadline = options.started + crate::startup_runs::STARTUP_BUDGET;
        let registry = ctx.registry.clone();
        let in_force = ctx.config.clone();
        tokio::spawn(async move {
            let said = run_rest_of_file(&registry, in_force, deferred, resume, deadline).await;
            registry.started().await;
            if let Ok(mut kept) = warnings.lock() {
                kept.extend(said.iter().cloned());
            }
            say_ready(ready, &said);
        });
    }
    tokio::spawn(crate::memory::trim_after_floods());
    let tracker = TaskTracker::new();
    let max_connections = connection_limit(raise_descriptor_limit());
    let count = Arc::new(ConnectionCount::default());
    // One descriptor kept free, to answer a client when all the others are in use.
    let mut spare = open_spare();
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    let slot = count.slot();
                    if count.open() > max_connections {
                        tracker.spawn(refuse(stream, slot, TOO_MANY_CONNECTIONS));
                    } else if count.unauthenticated() > MAX_UNAUTHENTICATED {
                        tracker.spawn(refuse(stream, slot, TOO_MANY_SILENT));
                    } else {
                        tracker.spawn(serve(stream, ctx.clone(), slot));
                    }
                }
                Err(e) if e.raw_os_error() == Some(libc::EMFILE) || e.raw_os_error() == Some(libc::ENFILE) => {
                    // Out of descriptors: the spare lets one waiting client hear why; then
                    // wait for a connection to close (or a moment) instead of spinning.
                    let freed = count.freed.notified();
                    drop(spare.take());
                    if let Some(Ok((stream, _))) = listener.accept().now_or_never() {
                        tracker.spawn(refuse(stream, count.slot(), OUT_OF_DESCRIPTORS));
                    }
                    tokio::select! {
                        _ = freed => {}
                        _ = tokio::time::sleep(DESCRIPTOR_BACKOFF) => {} // deadline-ok: EMFILE backoff
                    }
                    spare = open_spare();
                }
                Err(e) if is_transient(&e) => continue,
                Err(e) => {
                    socket_file.remove();
                    return Err(e);
                }
            },
        }
    }
    // The registry removed the socket when it shut down (a new server may own the path by
    // now); those connected get their notices.
    drop(listener);
    tracker.close();
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, tracker.wait()).await;
    crate::tmux_shim::remove();
    Ok(())
}

/// Accept errors that concern one connection, not the listener.
fn is_transient(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::ConnectionReset
            | std::io::ErrorKind::Interrupted
            | std::io::ErrorKind::WouldBlock
    )
}

/// The spare descriptor (`/dev/null`, open for nothing but to be closed when needed).
fn open_spare() -> Option<std::fs::File> {
    std::fs::File::open("/dev/null").ok()
}

/// Most time the listener waits for a descriptor to be freed before trying again.
const DESCRIPTOR_BACKOFF: Duration = Duration::from_millis(50);
/// Said to a client when the connections use every descriptor the server may give them.
const TOO_MANY_CONNECTIONS: &str = "the weft server has too many connections open; close some \
                                    clients (or raise `ulimit -n` and restart it) and try again";
/// Said to a client when too many connections have not said hello.
const TOO_MANY_SILENT: &str =
    "the weft server has too many connections that have not said hello; try again in a moment";
/// Said to a client when the process has no descriptor left.
const OUT_OF_DESCRIPTORS: &str = "the weft server has run out of file descriptors; close some \
                                  clients (or raise `ulimit -n` and restart it) and try again";

/// The configuration file's `run-shell` commands, and after each one the file's lines after
/// it (up to the next), applied to the configuration in force, as tmux's queue runs a file;
/// the warnings of both. The lines are read on a thread of their own, off the registry, since
/// an `if-shell` test among them waits for its shell (which may talk to weft); the result then
/// replaces the configuration.
async fn run_rest_of_file(
    registry: &Registry,
    in_force: tokio::sync::watch::Receiver<Arc<Config>>,
    mut runs: Vec<crate::conf_file::DeferredRun>,
    mut resume: Option<crate::conf_file::Resume>,
    deadline: std::time::Instant,
) -> Vec<String> {
    let mut said = Vec::new();
    loop {
        said.extend(crate::startup_runs::run_all(std::mem::take(&mut runs), deadline).await);
        let Some(from) = resume.take() else {
            return said;
        };
        let mut config = Config::clone(&in_force.borrow());
        config.resume = Some(from);
        let read = tokio::task::spawn_blocking(move || {
            let mut warnings = Vec::new();
            crate::conf_file::resume(
                &mut config,
                &crate::cmd::config_lines::run_config_line,
                &mut warnings,
            );
            (config, warnings)
        })
        .await;
        let (mut config, warnings) = match read {
            Ok(read) => read,
            Err(e) => {
                said.push(format!(
                    "the configuration file's last lines were not read: {e}"
                ));
                return said;
            }
        };
        said.extend(warnings);
        runs = std::mem::take(&mut config.deferred_runs);
        resume = config.resume.take();
        let installed = registry
            .update_config(move |now| {
                *now = config;
                Ok(String::new())
            })
            .await;
        if let Err(e) = installed {
            said.push(format!("the configuration file's last lines: {e}"));
            return said;
        }
    }
}

/// Tells the starting client the server is ready, after the configuration's warnings.
pub(crate) fn say_ready(ready: Option<Box<dyn Write + Send>>, warnings: &[String]) {
    let Some(mut ready) = ready else {
        return;
    };
    for warning in warnings {
        let _ = writeln!(ready, "warning: {warning}");
    }
    let _ = ready.write_all(b"ready\n");
    let _ = ready.flush();
}
