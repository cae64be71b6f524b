//! Binding the socket (replacing a stale one), accepting clients, and shutting down.

use crate::config::Config;
use crate::connection::serve;
use crate::context::ServerContext;
use crate::ids::IdAllocator;
use crate::registry::Registry;
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
    /// Written with "ready\n" once the socket accepts connections (the starting client waits
    /// for it), then dropped.
    pub ready: Option<Box<dyn Write + Send>>,
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
    if let Some(mut ready) = options.ready.take() {
        let _ = ready.write_all(b"ready\n");
        let _ = ready.flush();
    }
    let shutdown = CancellationToken::new();
    let ids = Arc::new(IdAllocator::default());
    let (config_tx, config_rx) = tokio::sync::watch::channel(Arc::new(options.config.clone()));
    let metrics = Arc::new(crate::metrics::MetricsRegistry::default());
    let registry = Registry::spawn(
        config_tx,
        ids.clone(),
        options.socket.clone(),
        metrics.clone(),
        shutdown.clone(),
    );
    let ctx = ServerContext {
        registry,
        ids,
        metrics,
        version: options.version.clone(),
        config: config_rx,
    };
    let tracker = TaskTracker::new();
    loop {
        tokio::select! {
            _ = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    tracker.spawn(serve(stream, ctx.clone()));
                }
                Err(e) if is_transient(&e) => continue,
                Err(e) => {
                    let _ = std::fs::remove_file(&options.socket);
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
    ) || e.raw_os_error() == Some(24) // EMFILE: try again once descriptors free up
}
