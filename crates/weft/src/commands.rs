//! The client-side commands: each connects to the server (starting it when that makes sense),
//! sends one request, and prints the answer or runs the attached terminal.

use crate::cli::{Cli, Command};
use crate::client::{ClientError, Conn, ServerStart};
use anyhow::Context;
use std::path::PathBuf;
use weft_protocol::{Attach, NewSession, Reply, Request};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Runs a client command; returns the exit status.
pub fn run(cli: &Cli) -> anyhow::Result<u8> {
    // Window and pane commands are checked here: bad arguments fail without a server.
    if let Some(words) = cli.command.as_ref().and_then(raw_command) {
        if let Err(message) = weft_server::command::parse(&words) {
            eprintln!("weft: {message}");
            return Ok(2);
        }
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the runtime")?;
    let socket =
        match weft_protocol::paths::resolve_socket(cli.label.as_deref(), cli.socket.as_deref()) {
            Ok(s) => s,
            Err(e) => {
                eprintln!("weft: {e}");
                return Ok(1);
            }
        };
    let result = runtime.block_on(dispatch(cli, socket));
    // Pending stdin reads must not keep the process alive.
    runtime.shutdown_background();
    match result {
        Ok(code) => Ok(code),
        Err(ClientError::Refused { message, code }) => {
            eprintln!("weft: {message}");
            Ok(code)
        }
        Err(ClientError::NoServer(path)) => {
            eprintln!("weft: no server running on {}", path.display());
            Ok(1)
        }
        Err(e) => {
            eprintln!("weft: {e}");
            Ok(1)
        }
    }
}

fn server_start(cli: &Cli, socket: &std::path::Path) -> std::io::Result<ServerStart> {
    let mut args: Vec<std::ffi::OsString> = vec!["-S".into(), socket.into()];
    if let Some(config) = &cli.config {
        args.push("-f".into());
        args.push(
            std::fs::canonicalize(config)
                .unwrap_or_else(|_| config.clone())
                .into(),
        );
    }
    if let Some(trace) = &cli.trace {
        args.push("--trace".into());
        let absolute = std::env::current_dir()
            .map(|d| d.join(trace))
            .unwrap_or_else(|_| trace.clone());
        args.push(absolute.into());
    }
    args.push("__server".into());
    Ok(ServerStart {
        program: std::env::current_exe()?,
        args,
    })
}

async fn start_or_connect(cli: &Cli, socket: &std::path::Path) -> Result<Conn, ClientError> {
    let start = server_start(cli, socket)?;
    crate::client::connect_or_start(socket, VERSION, &start).await
}

fn here() -> Option<String> {
    std::env::current_dir()
        .ok()
        .map(|d| d.to_string_lossy().into_owned())
}

fn attach_params(target: Option<String>, read_only: bool) -> Attach {
    let (cols, rows) = crate::client::current_size();
    Attach {
        target,
        read_only,
        cols,
        rows,
        pass_tty: crate::client::hand_over_terminal(),
    }
}

/// The session weft runs inside, from `$WEFT` (`socket,pid,session`).
fn current_session() -> Option<String> {
    let value = std::env::var("WEFT").ok()?;
    let session = value.rsplit(',').next()?;
    Some(format!("${session}"))
}

async fn attach_and_run(mut conn: Conn, request: Request) -> Result<u8, ClientError> {
    use futures::SinkExt;
    let pass_tty = match &request {
        Request::Attach(attach)
        | Request::AttachOrCreate { attach, .. }
        | Request::NewSession {
            attach: Some(attach),
            ..
        } => attach.pass_tty,
        _ => false,
    };
    conn.send(weft_protocol::Message::Request(request))
        .await
        .map_err(|e| ClientError::Lost(e.to_string()))?;
    let end = crate::client::run_attached(conn, pass_tty).await?;
    println!("{}", end.message);
    Ok(end.code)
}

async fn simple(conn: &mut Conn, request: Request) -> Result<u8, ClientError> {
    match crate::client::request(conn, request).await? {
        Reply::Ok | Reply::Attached { .. } => Ok(0),
        Reply::Text { text } => {
            if !text.is_empty() {
                println!("{text}");
            }
            Ok(0)
        }
        Reply::Sessions { sessions } => {
            for s in sessions {
                println!(
                    "{}: {} windows (created {}) [{}x{}]{}",
                    s.name,
                    s.windows,
                    format_time(s.created),
                    s.cols,
                    s.rows,
                    if s.clients > 0 { " (attached)" } else { "" }
                );
            }
            Ok(0)
        }
        Reply::Output {
            stdout,
            stderr,
            code,
        } => {
            println!("{stdout}");
            if !stderr.is_empty() {
                eprintln!("{stderr}");
            }
            Ok(code)
        }
        Reply::Error { message, code } => Err(ClientError::Refused { message, code }),
    }
}

fn format_time(secs: u64) -> String {
    format!("@{secs}")
}

async fn dispatch(cli: &Cli, socket: PathBuf) -> Result<u8, ClientError> {
    match &cli.command {
        None => {
            let conn = start_or_connect(cli, &socket).await?;
            let session = NewSession {
                cwd: here(),
                ..NewSession::default()
            };
            let attach = attach_params(None, false);
            attach_and_run(conn, Request::AttachOrCreate { session, attach }).await
        }
        Some(Command::New(args)) => {
            let mut conn = start_or_connect(cli, &socket).await?;
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
            let session = NewSession {
                name: args.name.clone(),
                detached: args.detached,
                cols: args.cols,
                rows: args.rows,
                cwd,
                command: args.command.clone(),
                env: Vec::new(),
            };
            if args.detached {
                simple(
                    &mut conn,
                    Request::NewSession {
                        session,
                        attach: None,
                    },
                )
                .await
            } else {
                let attach = attach_params(None, false);
                attach_and_run(
                    conn,
                    Request::NewSession {
                        session,
                        attach: Some(attach),
                    },
                )
                .await
            }
        }
        Some(Command::Attach(args)) => {
            let conn = crate::client::connect(&socket, VERSION).await?;
            let attach = attach_params(args.target.clone(), args.read_only);
            attach_and_run(conn, Request::Attach(attach)).await
        }
        Some(Command::Ls(args)) => {
            let mut conn = crate::client::connect(&socket, VERSION).await?;
            if args.json {
                match crate::client::request(&mut conn, Request::ListSessions).await? {
                    Reply::Sessions { sessions } => {
                        let json = serde_json::to_string(&sessions)
                            .map_err(|e| ClientError::Lost(e.to_string()))?;
                        println!("{json}");
                        return Ok(0);
                    }
                    other => return Err(ClientError::Lost(format!("unexpected {other:?}"))),
                }
            }
            simple(&mut conn, Request::ListSessions).await
        }
        Some(Command::KillSession(t)) => {
            let mut conn = crate::client::connect(&socket, VERSION).await?;
            simple(
                &mut conn,
                Request::KillSession {
                    target: t.target.clone(),
                },
            )
            .await
        }
        Some(Command::KillServer) => {
            let mut conn = crate::client::connect(&socket, VERSION).await?;
            let code = simple(&mut conn, Request::KillServer).await?;
            // The server keeps this connection open until its process ends.
            use futures::StreamExt;
            while let Some(Ok(_)) = conn.next().await {}
            Ok(code)
        }
        Some(Command::Detach(t)) => {
            let mut conn = crate::client::connect(&socket, VERSION).await?;
            let target = t.target.clone().or_else(current_session);
            simple(&mut conn, Request::Detach { target }).await
        }
        Some(Command::Refresh(t)) => {
            let mut conn = crate::client::connect(&socket, VERSION).await?;
            let target = t.target.clone().or_else(current_session);
            simple(&mut conn, Request::Refresh { target }).await
        }
        Some(Command::Diag(args)) => crate::diag::run(&socket, args).await,
        Some(Command::Replay(_)) | Some(Command::Server) => Ok(0),
        Some(other) => {
            let Some(words) = raw_command(other) else {
                return Ok(0);
            };
            let mut conn = crate::client::connect(&socket, VERSION).await?;
            let request = Request::Command {
                args: words,
                pane: std::env::var("WEFT_PANE").ok(),
                session: current_session(),
            };
            simple(&mut conn, request).await
        }
    }
}

/// The command words for the window and pane subcommands (checked before they are sent).
pub fn raw_command(command: &Command) -> Option<Vec<String>> {
    let (name, args) = match command {
        Command::SplitWindow(a) => ("split-window", a),
        Command::NewWindow(a) => ("new-window", a),
        Command::SelectPane(a) => ("select-pane", a),
        Command::SelectWindow(a) => ("select-window", a),
        Command::NextWindow(a) => ("next-window", a),
        Command::PreviousWindow(a) => ("previous-window", a),
        Command::LastWindow(a) => ("last-window", a),
        Command::ResizePane(a) => ("resize-pane", a),
        Command::KillPane(a) => ("kill-pane", a),
        Command::KillWindow(a) => ("kill-window", a),
        Command::SelectLayout(a) => ("select-layout", a),
        Command::NextLayout(a) => ("next-layout", a),
        Command::RenameWindow(a) => ("rename-window", a),
        Command::SwapPane(a) => ("swap-pane", a),
        Command::BreakPane(a) => ("break-pane", a),
        Command::ListPanes(a) => ("list-panes", a),
        Command::ListWindows(a) => ("list-windows", a),
        Command::SetOption(a) => ("set-option", a),
        Command::ShowOptions(a) => ("show-options", a),
        Command::ListKeys(a) => ("list-keys", a),
        Command::SourceFile(a) => ("source-file", a),
        Command::SendKeys(a) => ("send-keys", a),
        Command::Capture(a) => ("capture", a),
        Command::Wait(a) => ("wait", a),
        _ => return None,
    };
    let mut words = vec![name.to_string()];
    words.extend(args.args.iter().cloned());
    Some(words)
}
