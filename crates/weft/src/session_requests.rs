//! The requests that make or attach a session (`weft` alone, `weft new`): worked out before
//! any server starts, sent to a server started first when none runs, and sent once more to a
//! new server when the one that answered was ending.

use crate::cli::{Cli, Command};
use crate::client::{ClientError, Conn};
use crate::commands::{attach_and_run, attach_params, here, refuse_nesting, simple, VERSION};
use weft_protocol::{NewSession, Reply, Request};

/// The request that makes or attaches a session, for the commands that send one (`weft`
/// alone and `weft new`): worked out before any server starts, so a request refused (it would
/// nest, or names a bad directory) starts none.
pub(crate) fn session_request(cli: &Cli) -> Result<Option<Request>, ClientError> {
    match &cli.command {
        None => {
            refuse_nesting()?;
            let session = NewSession {
                cwd: here(),
                ..NewSession::default()
            };
            let attach = attach_params(None, false);
            Ok(Some(Request::AttachOrCreate { session, attach }))
        }
        Some(Command::New(args)) => {
            if !args.detached {
                refuse_nesting()?;
            }
            // Commands after `\;` fail here, before any server starts, if they are wrong.
            if !args.then.is_empty() {
                if let Err(e) = weft_server::cmd::parse_sequence(&args.then) {
                    if !e.may_be_servers_alias() {
                        return Err(ClientError::Refused {
                            message: e.to_string(),
                            code: e.exit_code(),
                        });
                    }
                }
            }
            let cwd = match &args.cwd {
                Some(dir) => Some(
                    std::fs::canonicalize(dir)
                        .map_err(|e| ClientError::Refused {
                            message: format!("bad directory {}: {e}", dir.display()),
                            code: 1,
                        })?
                        .to_string_lossy()
                        .into_owned(),
                ),
                None => here(),
            };
            let mut env = Vec::new();
            for entry in &args.env {
                match weft_server::words::assignment(entry) {
                    Some((name, value)) => env.push((name.to_string(), value.to_string())),
                    None => {
                        return Err(ClientError::Refused {
                            message: format!("new: -e takes NAME=VALUE, not {entry:?}"),
                            code: 2,
                        })
                    }
                }
            }
            let session = NewSession {
                name: args.name.clone(),
                detached: args.detached,
                cols: args.cols,
                rows: args.rows,
                cwd,
                command: args.command.clone(),
                env,
                attach_existing: args.attach_existing,
                window_name: args.window_name.clone(),
                then: args.then.clone(),
            };
            let attach = (!args.detached).then(|| {
                let mut attach = attach_params(None, false);
                attach.detach_others = args.detach_others;
                attach
            });
            Ok(Some(Request::NewSession { session, attach }))
        }
        Some(_) => Ok(None),
    }
}

/// Sends the request that makes or attaches a session, on a server started first when none
/// runs.
pub(crate) async fn send_session_request(
    cli: &Cli,
    socket: &std::path::Path,
    request: Request,
) -> Result<u8, ClientError> {
    let mut conn = crate::commands::start_or_connect(cli, socket).await?;
    match request {
        Request::NewSession {
            attach: None,
            mut session,
        } => {
            if let Some(Command::New(args)) = &cli.command {
                if args.print {
                    let format = args.format.as_deref().unwrap_or("#{session_name}:");
                    if session.then.is_empty() {
                        let request = Request::NewSession {
                            session,
                            attach: None,
                        };
                        return print_new_session(&mut conn, request, format, socket).await;
                    }
                    // After the commands `\;` adds, in the session they ran in.
                    let print = [";", "display-message", "-p", "--", format];
                    session.then.extend(print.map(str::to_string));
                }
            }
            let request = Request::NewSession {
                session,
                attach: None,
            };
            // Quiet without `-P`, as tmux's `new -d`: a script's output stays its own.
            let (reply, _) =
                crate::client::request_streamed(&mut conn, request, &mut std::io::sink()).await?;
            match reply {
                Reply::Text { .. } => Ok(0),
                // An error, or what commands after `\;` printed.
                reply => crate::commands::print_reply(reply, false, false),
            }
        }
        request => attach_and_run(conn, request, socket).await,
    }
}

/// Runs `attempt` (which starts a server when none runs) again once when the server that
/// answered was ending: a client that connected just before its last session ended, or
/// before `kill-server` took it, starts a new server as if it had found none.
pub(crate) async fn once_more_if_ending<F, Fut>(attempt: F) -> Result<u8, ClientError>
where
    F: Fn() -> Fut,
    Fut: std::future::Future<Output = Result<u8, ClientError>>,
{
    match attempt().await {
        Err(e) if e.server_was_ending() => attempt().await,
        other => other,
    }
}

/// `new -dP`: makes the session, then prints `format` expanded in it, as tmux's `-P`.
async fn print_new_session(
    conn: &mut Conn,
    request: Request,
    format: &str,
    socket: &std::path::Path,
) -> Result<u8, ClientError> {
    let (reply, _) = crate::client::request_streamed(conn, request, &mut std::io::sink()).await?;
    let name = match reply {
        Reply::Text { text } => text,
        Reply::Error { message, code } => return Err(ClientError::Refused { message, code }),
        _ => String::new(),
    };
    // The session is made: an ending server now is no reason to make another.
    let mut conn = crate::client::connect(socket, VERSION)
        .await
        .map_err(ClientError::after_the_session)?;
    let args = [
        "display-message",
        "-p",
        "-t",
        &format!("{name}:"),
        "--",
        format,
    ];
    let request = Request::Command {
        args: args.map(str::to_string).to_vec(),
        pane: None,
        session: None,
    };
    simple(&mut conn, request)
        .await
        .map_err(ClientError::after_the_session)
}
