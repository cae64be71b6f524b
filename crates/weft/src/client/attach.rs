//! The attached loop: keys from the terminal to the server, frames from the server to the
//! terminal, size changes on `SIGWINCH`, and a clean exit on every path.

use crate::client::connect::{ClientError, Conn};
use crate::client::terminal::{terminal_size, RawMode};
use bytes::Bytes;
use futures::{SinkExt, StreamExt};
use std::fs::{File, OpenOptions};
use tokio::signal::unix::{signal, SignalKind};
use weft_protocol::{Message, Reply};
use weft_pty_io::{PtyReader, PtyWriter};

/// Largest read from the terminal at once (a paste arrives in pieces of this size).
const INPUT_CHUNK: usize = 16 * 1024;

/// How an attachment ended: as the server said (`[detached ...]`, a session to attach to again,
/// a parent to hang up, a command to run), or as the client found it.
pub type AttachEnd = weft_protocol::ExitNotice;

/// An attachment ended by something other than the server's word, with status 1.
fn ended(message: &str) -> AttachEnd {
    AttachEnd {
        message: message.into(),
        code: 1,
        ..AttachEnd::default()
    }
}

/// Opens the controlling terminal afresh: its own file description, so making it non-blocking
/// does not touch the shell's standard input.
fn open_tty() -> std::io::Result<File> {
    OpenOptions::new().read(true).write(true).open("/dev/tty")
}

/// The size of this process's terminal.
pub fn current_size() -> (u16, u16) {
    open_tty().map_or((80, 24), |t| terminal_size(&t))
}

/// Whether to hand the terminal to the server (the default, as tmux does): keys and frames
/// then skip this process. `WEFT_TTY_PROXY=1` keeps them flowing through it instead, e.g. to
/// record a session's bytes with `strace` on the client.
pub fn hand_over_terminal() -> bool {
    !matches!(std::env::var("WEFT_TTY_PROXY"), Ok(v) if !v.is_empty() && v != "0")
}

/// Runs an attached session on `conn` (whose request was already sent) until it ends. With
/// `pass_tty` (as the request said) the server gets the terminal right after `Attached`.
pub async fn run_attached(mut conn: Conn, pass_tty: bool) -> Result<AttachEnd, ClientError> {
    // The server first answers the attach request.
    match conn.next().await {
        Some(Ok(Message::Reply(Reply::Attached { .. }))) => {}
        // The session made for this client ended before it could attach (`new -- true`).
        Some(Ok(Message::Exit(notice))) => return Ok(notice),
        Some(Ok(Message::Reply(Reply::Error { message, code }))) => {
            return Err(ClientError::Refused { message, code })
        }
        Some(Ok(other)) => return Err(ClientError::Lost(format!("unexpected {other:?}"))),
        Some(Err(e)) => return Err(ClientError::Lost(e.to_string())),
        None => return Err(ClientError::Lost("the server closed the connection".into())),
    }
    let tty = open_tty().map_err(|e| ClientError::Refused {
        message: format!("weft needs a terminal: {e}"),
        code: 1,
    })?;
    // Caught from before the terminal changes: a SIGTERM that came once the server could draw
    // (the prompt may show before this process reaches its loop) would otherwise kill it with
    // the terminal left raw and on the alternate screen.
    let mut winch = signal(SignalKind::window_change())?;
    let mut term = signal(SignalKind::terminate())?;
    let mut hup = signal(SignalKind::hangup())?;
    let raw = RawMode::enter(&tty)?;
    if pass_tty {
        // Raw mode and the setup are in place before the server writes its first frame.
        weft_protocol::tty_pass::send_tty(conn.get_ref(), &tty)
            .await
            .map_err(|e| ClientError::Lost(format!("cannot hand over the terminal: {e}")))?;
    }
    // Keys are read here only when the server does not read them itself.
    let mut input = if pass_tty {
        None
    } else {
        Some(PtyReader::from_file(tty.try_clone()?).map_err(|e| ClientError::Lost(e.to_string()))?)
    };
    // Frames come here only when the server does not write them itself; the writer is made
    // on the first one, so a handed-over terminal costs this process no wake-ups at all.
    let mut output: Option<PtyWriter> = None;
    let mut buf = vec![0u8; INPUT_CHUNK];
    let (cols, rows) = terminal_size(&tty);
    let _ = conn.send(Message::Resize { cols, rows }).await;
    let end = loop {
        tokio::select! {
            message = conn.next() => match message {
                Some(Ok(Message::Output(bytes))) => {
                    if write_frame(&mut output, &tty, &bytes).await.is_err() {
                        break ended("[terminal closed]");
                    }
                }
                Some(Ok(Message::Exit(notice))) => {
                    break notice;
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => {
                    break ended("[lost server]");
                }
            },
            n = read_keys(input.as_mut(), &mut buf) => match n {
                Ok(0) | Err(_) => break ended("[terminal closed]"),
                Ok(n) => {
                    if conn.send(Message::Input(Bytes::copy_from_slice(&buf[..n]))).await.is_err() {
                        break ended("[lost server]");
                    }
                }
            },
            _ = winch.recv() => {
                let (cols, rows) = terminal_size(&tty);
                let _ = conn.send(Message::Resize { cols, rows }).await;
            }
            _ = term.recv() => break ended("[terminated]"),
            _ = hup.recv() => break ended("[hangup]"),
        }
    };
    drop(raw);
    Ok(end)
}

/// Writes a frame the server sent over the connection to the terminal.
async fn write_frame(
    output: &mut Option<PtyWriter>,
    tty: &std::fs::File,
    bytes: &[u8],
) -> std::io::Result<()> {
    let writer = match output {
        Some(writer) => writer,
        None => {
            output.insert(PtyWriter::from_file(tty.try_clone()?).map_err(std::io::Error::other)?)
        }
    };
    writer.write_all(bytes).await
}

/// Keys from the terminal; never ready when the server reads them itself.
async fn read_keys(input: Option<&mut PtyReader>, buf: &mut [u8]) -> std::io::Result<usize> {
    match input {
        Some(input) => input.read(buf).await,
        None => std::future::pending().await,
    }
}
