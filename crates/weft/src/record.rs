//! `weft record`: a pane's output written to an asciicast v2 file as the server streams it
//! (`record-pane`), until the pane's program ends or this process is interrupted.
//!
//! The server sends whole lines, a piece at a time, and each piece is written whole before a
//! signal is looked at, so an interrupted recording is a complete file: every line it has is
//! whole JSON.

use crate::cli::RecordArgs;
use crate::client::ClientError;
use futures::StreamExt;
use std::io::Write;
use std::path::Path;
use tokio::signal::unix::{signal, SignalKind};
use weft_protocol::{Message, Reply, Request};

/// Runs `weft record`; returns the exit status.
pub async fn run(socket: &Path, args: &RecordArgs) -> Result<u8, ClientError> {
    let mut interrupt = signal(SignalKind::interrupt())?;
    let mut terminate = signal(SignalKind::terminate())?;
    let mut hangup = signal(SignalKind::hangup())?;
    let mut conn = crate::client::connect(socket, crate::commands::VERSION).await?;
    let mut words = vec!["record-pane".to_string()];
    if let Some(target) = &args.target {
        words.push("-t".into());
        words.push(target.clone());
    }
    if args.input {
        words.push("--input".into());
    }
    let request = Request::Command {
        args: words,
        pane: std::env::var("WEFT_PANE").ok(),
        session: crate::commands::current_session(),
    };
    futures::SinkExt::send(&mut conn, Message::Request(request))
        .await
        .map_err(|e| ClientError::Lost(e.to_string()))?;
    // Made when the recording starts: a refused one leaves no file behind.
    let mut file: Option<std::fs::File> = None;
    loop {
        let message = tokio::select! {
            message = conn.next() => message,
            _ = interrupt.recv() => break,
            _ = terminate.recv() => break,
            _ = hangup.recv() => break,
        };
        match message {
            Some(Ok(Message::Output(bytes))) => {
                let out = match &mut file {
                    Some(out) => out,
                    None => file.insert(create(&args.output)?),
                };
                out.write_all(&bytes)
                    .map_err(|e| io_error(&args.output, e))?;
            }
            Some(Ok(Message::Reply(reply))) => match reply {
                Reply::Error { message, code } => {
                    return Err(ClientError::Refused { message, code })
                }
                Reply::Output { stderr, code, .. } if code != 0 => {
                    return Err(ClientError::Refused {
                        message: stderr,
                        code,
                    })
                }
                // The pane's program ended: the recording is complete.
                _ => break,
            },
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(ClientError::Lost(e.to_string())),
            None => break,
        }
    }
    if let Some(mut out) = file {
        out.flush().map_err(|e| io_error(&args.output, e))?;
    }
    Ok(0)
}

fn create(path: &Path) -> Result<std::fs::File, ClientError> {
    std::fs::File::create(path).map_err(|e| io_error(path, e))
}

fn io_error(path: &Path, e: std::io::Error) -> ClientError {
    ClientError::Refused {
        message: format!("cannot write the recording to {}: {e}", path.display()),
        code: 1,
    }
}
