//! Connecting: the socket, the hello, and starting a server when none answers.

use futures::{SinkExt, StreamExt};
use std::ffi::OsString;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;
use tokio::io::AsyncBufReadExt;
use tokio::net::UnixStream;
use tokio_util::codec::Framed;
use weft_protocol::{FrameCodec, Hello, Message, Reply, Request, PROTOCOL_VERSION};

/// A framed connection to the server.
pub type Conn = Framed<UnixStream, FrameCodec>;

/// How long a freshly started server may take to say it is ready.
pub(super) const SERVER_START_TIMEOUT: Duration = Duration::from_secs(10);

/// What can go wrong talking to the server.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// No server on that socket.
    #[error("no server running on {0}")]
    NoServer(PathBuf),
    /// The socket or process failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The server said no; `code` is the exit status to use.
    #[error("{message}")]
    Refused {
        /// Its message.
        message: String,
        /// Exit status.
        code: u8,
    },
    /// The server broke the protocol or went away mid-way.
    #[error("lost the server: {0}")]
    Lost(String),
    /// The server closed the connection before answering the hello: it was ending, and this
    /// client had connected before its socket went.
    #[error("the server ended as this client connected; run the command again")]
    Ending,
}

impl ClientError {
    /// Whether the server that answered was on its way out (its connection closed before the
    /// hello, or a request refused with [`weft_protocol::EXIT_SERVER_ENDING`]): a client that
    /// starts a server when none runs starts a new one instead.
    pub fn server_was_ending(&self) -> bool {
        match self {
            ClientError::Ending => true,
            ClientError::Refused { code, .. } => *code == weft_protocol::EXIT_SERVER_ENDING,
            _ => false,
        }
    }

    /// This error, met once the server has made or attached the session: no longer a reason
    /// to start a new server and ask again, which would make a second session.
    pub fn after_the_session(self) -> ClientError {
        if self.server_was_ending() {
            ClientError::Lost(self.to_string())
        } else {
            self
        }
    }
}

/// How to start a server when none is running.
#[derive(Clone, Debug)]
pub struct ServerStart {
    /// The program (weft itself).
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<OsString>,
}

/// Connects to a running server and exchanges hellos.
pub async fn connect(socket: &Path, version: &str) -> Result<Conn, ClientError> {
    let stream = match UnixStream::connect(socket).await {
        Ok(s) => s,
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::ConnectionRefused
            ) =>
        {
            return Err(ClientError::NoServer(socket.to_path_buf()))
        }
        Err(e) if closed_unaccepted(&e) => return Err(ClientError::Ending),
        Err(e) => return Err(e.into()),
    };
    let mut conn = Framed::new(stream, FrameCodec::default());
    conn.send(Message::Hello(Hello {
        protocol: PROTOCOL_VERSION,
        version: version.to_string(),
    }))
    .await
    .map_err(|e| match e {
        weft_protocol::ProtocolError::Io(e) if closed_unaccepted(&e) => ClientError::Ending,
        e => ClientError::Lost(e.to_string()),
    })?;
    match conn.next().await {
        Some(Ok(Message::Hello(_))) => Ok(conn),
        Some(Ok(Message::Reply(Reply::Error { message, code }))) => {
            Err(ClientError::Refused { message, code })
        }
        Some(Ok(other)) => Err(ClientError::Lost(format!("unexpected {other:?}"))),
        // A connection the server never took: it stopped listening as it ended.
        Some(Err(weft_protocol::ProtocolError::Io(e))) if closed_unaccepted(&e) => {
            Err(ClientError::Ending)
        }
        Some(Err(e)) => Err(ClientError::Lost(format!(
            "{e} (is the server a different weft version? run `weft kill-server`)"
        ))),
        None => Err(ClientError::Ending),
    }
}

/// Whether a socket error is a connection closed by a server that never took it (it stopped
/// listening as it ended).
fn closed_unaccepted(error: &std::io::Error) -> bool {
    matches!(
        error.kind(),
        std::io::ErrorKind::ConnectionReset | std::io::ErrorKind::BrokenPipe
    )
}

/// Connects, starting a server first when none answers (a stale socket is replaced by it).
///
/// Clients that find no server at the same time must not each start one: as tmux does, the
/// first takes a lock beside the socket and starts the server; the others wait for the lock,
/// then find the server it started.
pub async fn connect_or_start(
    socket: &Path,
    version: &str,
    start: &ServerStart,
) -> Result<Conn, ClientError> {
    match connect(socket, version).await {
        Err(ClientError::NoServer(_)) => {}
        // Its socket is gone by now, or a new server's: as if none had answered.
        Err(e) if e.server_was_ending() => {}
        other => return other,
    }
    refuse_while_reading_config()?;
    let _lock = start_lock(socket).await?;
    // Under the lock: another client may have started the server while this one waited.
    match connect(socket, version).await {
        Err(ClientError::NoServer(_)) => {}
        other => return other,
    }
    // The lock is released (its file closed) when `_lock` drops: after the server answered.
    start_server(socket, version, start).await
}

/// Refuses to start a server from a configuration file's shell command, run while its own
/// server starts: that server waits for the command, so another would wait for the first (it
/// holds the start lock) until the command's deadline.
pub fn refuse_while_reading_config() -> Result<(), ClientError> {
    if std::env::var_os(weft_protocol::paths::READING_CONFIG_ENV).is_none() {
        return Ok(());
    }
    Err(ClientError::Refused {
        message: "this runs from a configuration file while weft's server starts, and the \
                  server takes commands once the file is read: use `run-shell -b` for it"
            .into(),
        code: 1,
    })
}

/// The lock beside `socket` (`SOCKET.lock`), held while a server starts. The file stays; only
/// its lock matters, and the kernel drops that lock if this process dies.
async fn start_lock(socket: &Path) -> Result<std::fs::File, ClientError> {
    let file = open_start_lock(socket)?;
    match try_lock(&file) {
        Ok(true) => return Ok(file),
        Ok(false) => {}
        Err(e) => return Err(e),
    }
    // Another client is starting the server. Waiting for the lock blocks a thread: not the
    // runtime's.
    tokio::task::spawn_blocking(move || lock(&file).map(|()| file))
        .await
        .map_err(|e| ClientError::Lost(format!("the start-up lock: {e}")))?
}

/// The start-up lock (see [`start_lock`]), taken on this thread: for a client that has no
/// runtime yet.
pub(super) fn start_lock_now(socket: &Path) -> Result<std::fs::File, ClientError> {
    let file = open_start_lock(socket)?;
    lock(&file)?;
    Ok(file)
}

fn open_start_lock(socket: &Path) -> Result<std::fs::File, ClientError> {
    let mut path = socket.as_os_str().to_owned();
    path.push(".lock");
    let path = PathBuf::from(path);
    std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .mode(0o600)
        .open(&path)
        .map_err(|e| {
            ClientError::Io(std::io::Error::new(
                e.kind(),
                format!("cannot open the start-up lock {}: {e}", path.display()),
            ))
        })
}

/// Takes the lock if nobody holds it; `false` if somebody does.
fn try_lock(file: &std::fs::File) -> Result<bool, ClientError> {
    match rustix::fs::flock(file, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
        Ok(()) => Ok(true),
        Err(rustix::io::Errno::WOULDBLOCK) => Ok(false),
        Err(e) => Err(ClientError::Io(e.into())),
    }
}

/// Waits for the lock and takes it.
fn lock(file: &std::fs::File) -> Result<(), ClientError> {
    rustix::fs::flock(file, rustix::fs::FlockOperation::LockExclusive)
        .map_err(|e| ClientError::Io(e.into()))
}

/// What a starting server prints on its stdout before "ready": a line "warning: …" for each
/// configuration problem, shown to the user as it comes; any other line says why it failed.
#[derive(Default)]
pub(super) struct ServerOutput {
    partial: Vec<u8>,
    why: String,
}

/// The longest line kept from a starting server; a longer one is cut there.
const MAX_SERVER_LINE: usize = 64 * 1024;

impl ServerOutput {
    /// Takes bytes the server wrote; `true` once it said "ready".
    pub(super) fn take(&mut self, bytes: &[u8]) -> bool {
        self.partial.extend_from_slice(bytes);
        while let Some(end) = self.partial.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.partial.drain(..=end).collect();
            if self.line(&String::from_utf8_lossy(&line[..end])) {
                return true;
            }
        }
        if self.partial.len() > MAX_SERVER_LINE {
            let line = std::mem::take(&mut self.partial);
            return self.line(&String::from_utf8_lossy(&line));
        }
        false
    }

    /// Takes one whole line; `true` if it is "ready".
    pub(super) fn line(&mut self, line: &str) -> bool {
        if line == "ready" {
            return true;
        }
        if line.starts_with("warning: ") {
            say_err!("weft: {line}");
        } else {
            self.why.push_str(line);
            self.why.push('\n');
        }
        false
    }

    /// The error for a server that did not start; `how` says what was seen when it printed
    /// nothing that says why.
    pub(super) fn failed(mut self, how: &str) -> ClientError {
        self.why.push_str(&String::from_utf8_lossy(&self.partial));
        let why = self.why.trim();
        ClientError::Refused {
            message: format!(
                "the server did not start: {}",
                if why.is_empty() { how } else { why }
            ),
            code: 1,
        }
    }
}

/// Starts a server on `socket` and connects to it once it says it is ready.
async fn start_server(
    socket: &Path,
    version: &str,
    start: &ServerStart,
) -> Result<Conn, ClientError> {
    let mut child = tokio::process::Command::new(&start.program)
        .args(&start.args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let stdout = child
        .stdout
        .take()
        .ok_or_else(|| ClientError::Lost("no pipe to the new server".into()))?;
    let mut lines = tokio::io::BufReader::new(stdout).lines();
    let deadline = tokio::time::Instant::now() + SERVER_START_TIMEOUT;
    let mut output = ServerOutput::default();
    let how = loop {
        match tokio::time::timeout_at(deadline, lines.next_line()).await {
            Ok(Ok(Some(line))) => {
                if output.line(&line) {
                    return connect(socket, version).await;
                }
            }
            Ok(Ok(None)) => break "it ended",
            Ok(Err(_)) => break "cannot read from it",
            Err(_) => break "it did not say it was ready in time",
        }
    };
    // It failed: show why.
    if let Some(stderr) = child.stderr.take() {
        let mut err_lines = tokio::io::BufReader::new(stderr).lines();
        while let Ok(Ok(Some(l))) =
            tokio::time::timeout(Duration::from_millis(500), err_lines.next_line()).await
        {
            output.line(&l);
        }
    }
    Err(output.failed(how))
}

/// Sends one request and waits for its reply. Output that streams before the reply (a long
/// capture) is written to standard output as it arrives.
pub async fn request(conn: &mut Conn, request: Request) -> Result<Reply, ClientError> {
    request_streamed(conn, request, &mut std::io::stdout())
        .await
        .map(|(reply, _)| reply)
}

/// [`request`], also saying whether any output streamed before the reply.
/// Streamed output goes to `out`.
pub async fn request_streamed(
    conn: &mut Conn,
    request: Request,
    out: &mut dyn std::io::Write,
) -> Result<(Reply, bool), ClientError> {
    conn.send(Message::Request(request))
        .await
        .map_err(|e| ClientError::Lost(e.to_string()))?;
    let mut streamed = false;
    loop {
        match conn.next().await {
            Some(Ok(Message::Reply(reply))) => return Ok((reply, streamed)),
            Some(Ok(Message::Output(bytes))) => {
                streamed |= !bytes.is_empty();
                // Blocking on stdout is this client's whole job meanwhile; it is what holds
                // the server back when the reader is slow.
                out.write_all(&bytes)?;
            }
            Some(Ok(_)) => continue,
            Some(Err(e)) => return Err(ClientError::Lost(e.to_string())),
            None => return Err(ClientError::Lost("the server closed the connection".into())),
        }
    }
}
