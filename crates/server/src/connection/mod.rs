//! One client connection: the hello, one request, and for attaching clients the terminal loop.
//!
//! - this module: the hello and the one request a connection carries;
//! - [`attached`]: the attached client's I/O (keys in, frames and notices out, the terminal the
//!   client hands over);
//! - [`ui`]: what a client does besides typing into a pane (prefix, bindings, prompts,
//!   overlays), and [`mouse`]: clicks, drags and the wheel.

mod attached;
mod buffer_editor;
mod chooser;
mod clock;
mod history_file;
mod joining;
mod line_edit;
mod menu;
mod mouse;
mod mouse_keys;
mod numbers;
mod pager;
mod popup;
mod probe;
mod prompt;
mod prompt_targets;
mod requests;
mod select;
mod sent_keys;
mod sessions;
mod terminal_keys;
mod tree;
mod ui;

use crate::cmd::run::{execute, Origin, Ran};
use crate::cmd::session as session_cmd;
use crate::cmd::ClientRequest;
use crate::context::ServerContext;
use crate::limits::ConnectionSlot;
use crate::outcome::{not_found, CommandError, Output, TargetKind};
use crate::session::{SessionCommand, SessionHandle};
use futures::{SinkExt, StreamExt};
use tokio_util::codec::Framed;
use weft_protocol::{
    Attach, FrameCodec, Hello, Message, NewSession, Reply, Request, PROTOCOL_VERSION,
};

type Conn = Framed<tokio::net::UnixStream, FrameCodec>;

/// How long a client has to say hello before its connection is closed.
const HANDSHAKE_TIME: std::time::Duration = std::time::Duration::from_secs(5);
/// How long a refused connection is given to send its hello before it hears why (a client
/// sends it at once; a silent peer is not waited for long).
const REFUSAL_READ_TIME: std::time::Duration = std::time::Duration::from_millis(500);

/// Tells a client why it is not served, and closes. The slot counts it until then.
pub async fn refuse(stream: tokio::net::UnixStream, slot: ConnectionSlot, message: &str) {
    let mut conn = Framed::new(stream, FrameCodec::before_hello());
    // Read the client's hello first: closing with it unread would reset the connection, and
    // the client would see that instead of the reason.
    let _ = tokio::time::timeout(REFUSAL_READ_TIME, conn.next()).await;
    let message = message.to_string();
    reply(&mut conn, Reply::Error { message, code: 1 }).await;
    drop(slot);
}

/// Serves one connection until it ends; `slot` counts it meanwhile.
pub async fn serve(stream: tokio::net::UnixStream, ctx: ServerContext, mut slot: ConnectionSlot) {
    // Only the user who owns the server may talk to it.
    match stream.peer_cred() {
        Ok(cred) if cred.uid() == weft_protocol::paths::my_uid() => {}
        _ => {
            let message = "permission denied: this weft server belongs to another user";
            return refuse(stream, slot, message).await;
        }
    }
    let mut conn = Framed::new(stream, FrameCodec::before_hello());
    // A peer that connects and says nothing does not hold a connection for long.
    match tokio::time::timeout(HANDSHAKE_TIME, handshake(&mut conn, &ctx.version)).await {
        Ok(true) => {
            conn.codec_mut().hello_done();
            slot.authenticated();
        }
        Ok(false) | Err(_) => return,
    }
    let Some(Ok(Message::Request(request))) = conn.next().await else {
        return;
    };
    match request {
        Request::NewSession { session, attach } => {
            let detached = session.detached || attach.is_none();
            let then = session.then.clone();
            // Commands after `\;` that cannot run make no session (a name only the server
            // knows, a `command-alias`, is checked here rather than by the client).
            if let Err(e) = (!then.is_empty())
                .then(|| crate::cmd::parse_sequence(&then))
                .transpose()
            {
                reply(&mut conn, error_reply(&e)).await;
                return;
            }
            let session = sized_for(&session, attach.as_ref());
            // `new -A`: the session of that name, if there is one, is attached instead.
            let existing = match (&session.name, session.attach_existing) {
                (Some(name), true) => ctx.registry.find(Some(name.clone())).await,
                _ => None,
            };
            let made = existing.is_none();
            let found = match existing {
                Some(handle) => Ok(handle),
                None => ctx.registry.new_session(session).await,
            };
            let then = match &found {
                Ok(handle) => run_then(&ctx, handle, &then).await,
                Err(_) => Ok(Output::none()),
            };
            match (found, then) {
                (Err(e), _) | (Ok(_), Err(e)) => reply(&mut conn, error_reply(&e)).await,
                (Ok(handle), Ok(output)) if detached => {
                    let reply_with = if output.stdout.is_empty() && output.stderr.is_empty() {
                        Reply::Text {
                            text: handle.name(),
                        }
                    } else {
                        output_reply(output)
                    };
                    reply(&mut conn, reply_with).await
                }
                (Ok(handle), Ok(_)) => {
                    let attach = attach.unwrap_or_default();
                    attached::attached(conn, ctx, handle, attach, made).await
                }
            }
        }
        Request::Attach(attach) => match ctx.registry.find(attach.target.clone()).await {
            Some(handle) => attached::attached(conn, ctx, handle, attach, false).await,
            None => {
                let error = match &attach.target {
                    Some(t) => not_found(TargetKind::Session, t.as_str()),
                    None => CommandError::NoSessions,
                };
                reply(&mut conn, error_reply(&error)).await;
            }
        },
        Request::AttachOrCreate { session, attach } => {
            let found = match ctx.registry.find(None).await {
                Some(h) => Ok((h, false)),
                None => ctx
                    .registry
                    .new_session(sized_for(&session, Some(&attach)))
                    .await
                    .map(|h| (h, true)),
            };
            match found {
                Ok((handle, made)) => attached::attached(conn, ctx, handle, attach, made).await,
                Err(e) => reply(&mut conn, error_reply(&e)).await,
            }
        }
        Request::Diag { session, reset } => {
            let report = ctx.metrics.report(session.as_deref(), reset);
            let text = serde_json::to_string(&report).unwrap_or_default();
            reply(&mut conn, Reply::Text { text }).await;
        }
        Request::Command {
            args,
            pane,
            session,
        } => {
            let origin = Origin::from_env(pane.as_deref(), session.as_deref());
            // A client that goes away while its command waits (`wait-for`, `wait`) ends it:
            // nothing is left waiting for nobody.
            let command = cli_command(&ctx, &args, &origin);
            tokio::pin!(command);
            let result = loop {
                tokio::select! {
                    result = &mut command => break result,
                    message = conn.next() => match message {
                        Some(Ok(_)) => {}
                        Some(Err(_)) | None => return,
                    },
                }
            };
            match result {
                Ok(mut output) => {
                    let until_exit = output.until_exit;
                    if let Some(mut stream) = output.stream.take() {
                        // Each piece waits for the socket: a slow reader holds the capture
                        // back, not memory.
                        if !output.stdout.is_empty() {
                            let first = std::mem::take(&mut output.stdout);
                            if conn.send(Message::Output(first.into())).await.is_err() {
                                return;
                            }
                        }
                        // A stream may wait long between pieces (`subscribe`): a client that
                        // leaves meanwhile ends it at once, which frees what feeds it.
                        loop {
                            let piece = tokio::select! {
                                piece = stream.recv() => piece,
                                message = conn.next() => match message {
                                    Some(Ok(_)) => continue,
                                    Some(Err(_)) | None => return,
                                },
                            };
                            let Some(piece) = piece else { break };
                            if conn.send(Message::Output(piece)).await.is_err() {
                                return;
                            }
                        }
                    }
                    reply(&mut conn, output_reply(output)).await;
                    if until_exit {
                        // `weft kill-server` returns once the server is gone: its connection
                        // closes only when the process exits and the kernel closes it.
                        std::mem::forget(conn);
                    }
                }
                Err(e) => reply(&mut conn, error_reply(&e)).await,
            }
        }
    }
    // A server started by a detached `new` or a command has started once it answered.
    crate::memory::start_is_over();
}

/// The commands `new ... \; COMMANDS` runs in the session it made or found, before a client
/// attaches, as tmux runs them after its `new-session`.
async fn run_then(
    ctx: &ServerContext,
    session: &SessionHandle,
    then: &[String],
) -> Result<Output, CommandError> {
    if then.is_empty() {
        return Ok(Output::none());
    }
    let origin = Origin::from_env(None, Some(&format!("${}", session.id.get())));
    cli_command(ctx, then, &origin).await
}

/// `session`, at `attach`'s terminal size unless it names its own size or is detached: a
/// session made for a client starts its program at that client's size, as tmux's does, not
/// at a default size it is resized from a moment later.
fn sized_for(session: &NewSession, attach: Option<&Attach>) -> NewSession {
    let mut session = session.clone();
    if let Some(attach) = attach.filter(|_| !session.detached) {
        session.cols = session.cols.or(Some(attach.cols));
        session.rows = session.rows.or(Some(attach.rows));
    }
    session
}

/// Runs a command from the command line: one, a sequence (`a \; b`), and the commands an
/// if-shell chooses, in a loop (bounded, so a chain of if-shells ends).
pub(crate) async fn cli_command(
    ctx: &ServerContext,
    args: &[String],
    origin: &Origin,
) -> Result<Output, CommandError> {
    let mut queue: std::collections::VecDeque<_> = crate::cmd::parse_sequence(args)?.into();
    let mut printed = Output::none();
    let mut chained = 0;
    while let Some(parsed) = queue.pop_front() {
        let (mut output, chosen) = match cli_one(ctx, parsed, origin).await {
            Ok(ran) => ran,
            Err(e) => return failed_after(printed, e),
        };
        // What the earlier commands print comes first; the last one's stream and status are
        // the answer's.
        output.stdout = one_after_another(std::mem::take(&mut printed.stdout), &output.stdout);
        output.stderr = one_after_another(std::mem::take(&mut printed.stderr), &output.stderr);
        printed = output;
        // An if-shell's chosen commands run next, before the rest of the line, as in tmux.
        if let Some(line) = chosen {
            chained += 1;
            if chained > MAX_CHAINED_LINES {
                let e = CommandError::Invalid(format!(
                    "if-shell chose commands more than {MAX_CHAINED_LINES} times in one line"
                ));
                return failed_after(printed, e);
            }
            let parsed = crate::words::tokenize(&line).and_then(|w| crate::cmd::parse_sequence(&w));
            match parsed {
                Ok(commands) => commands.into_iter().rev().for_each(|c| queue.push_front(c)),
                Err(e) => return failed_after(printed, e),
            }
        }
    }
    Ok(printed)
}

/// A command of a line failed: what the commands before it printed is still said, then why
/// it failed.
fn failed_after(printed: Output, e: CommandError) -> Result<Output, CommandError> {
    if printed.stdout.is_empty() && printed.stderr.is_empty() {
        return Err(e);
    }
    Ok(Output {
        stdout: printed.stdout,
        stderr: one_after_another(printed.stderr, &e.to_string()),
        code: e.exit_code(),
        ..Output::none()
    })
}

/// What two commands of one line print, one after the other: each command's text ends its
/// own line (`display -p one \; display -p two` prints two lines, as tmux).
fn one_after_another(mut first: String, second: &str) -> String {
    if !first.is_empty() && !second.is_empty() && !first.ends_with('\n') {
        first.push('\n');
    }
    first + second
}

/// The most command lines one if-shell chain runs from the command line.
const MAX_CHAINED_LINES: usize = 16;

/// Runs one command from the command line; an if-shell returns the line it chose.
async fn cli_one(
    ctx: &ServerContext,
    parsed: crate::cmd::Parsed,
    origin: &Origin,
) -> Result<(Output, Option<String>), CommandError> {
    let name = parsed.entry.name;
    let target = parsed.target.clone();
    match execute(ctx, parsed, origin).await? {
        Ran::Output(output) => Ok((output, None)),
        // From the command line, client commands act on a session's clients.
        Ran::Client(ClientRequest::Detach { session, how, .. }) => {
            if let Some(client) = session.as_deref().and_then(session_cmd::client_id) {
                let handle = session_cmd::session_of_client(ctx, client)
                    .await
                    .ok_or_else(|| {
                        CommandError::failed(format!(
                            "no client client-{client} (list-clients shows them)"
                        ))
                    })?;
                handle.send(SessionCommand::DetachOne { client, how }).await;
                return Ok((Output::none(), None));
            }
            for handle in sessions_for(ctx, session, origin).await? {
                handle
                    .send(SessionCommand::Detach {
                        except: None,
                        how: how.clone(),
                    })
                    .await;
            }
            Ok((Output::none(), None))
        }
        Ran::Client(ClientRequest::Refresh { session }) => {
            for handle in sessions_for(ctx, session, origin).await? {
                handle.send(SessionCommand::Refresh).await;
            }
            Ok((Output::none(), None))
        }
        Ran::Client(ClientRequest::IfShell {
            test,
            format,
            then,
            otherwise,
            expand,
        }) => {
            let chosen =
                crate::cmd::shell::chosen(ctx, origin, &test, format, then, otherwise, expand)
                    .await;
            Ok((Output::none(), chosen))
        }
        // The client -c names, else the most recently active client of the session the
        // command comes from (`$WEFT`, else the most recent session): the one a user running
        // `weft switchc` in a pane is looking at, as tmux picks its "best" client. The client
        // carries the switch out itself, as if typed, so next, previous and last count from
        // the session it shows.
        Ran::Client(ClientRequest::Switch { client, to }) => {
            let (handle, client) = match client {
                Some(name) => {
                    let id = session_cmd::client_id(&name).ok_or_else(|| {
                        CommandError::failed(format!(
                            "bad client name {name:?}: list-clients shows them (client-N)"
                        ))
                    })?;
                    let handle =
                        session_cmd::session_of_client(ctx, id)
                            .await
                            .ok_or_else(|| {
                                CommandError::failed(format!(
                                    "no client {name} (list-clients shows them)"
                                ))
                            })?;
                    (handle, Some(id))
                }
                None => {
                    let handle = crate::cmd::run::resolve_target(ctx, None, origin).await?.0;
                    (handle, None)
                }
            };
            if let session_cmd::SwitchTo::Target(t) = &to {
                let name = t.split_once(':').map_or(t.as_str(), |(s, _)| s);
                if ctx.registry.find(Some(name.to_string())).await.is_none() {
                    return Err(not_found(TargetKind::Session, name));
                }
            }
            if session_cmd::clients_of(&handle).await.is_empty() {
                return Err(CommandError::failed(format!(
                    "no client is attached to session {}; attach one first",
                    handle.name()
                )));
            }
            handle
                .send(SessionCommand::SwitchClients {
                    client,
                    target: to.encode(),
                    hook_depth: crate::hooks::current_depth(),
                })
                .await;
            Ok((Output::none(), None))
        }
        Ran::Client(ClientRequest::FindWindow { text, how }) => {
            let handle = crate::cmd::run::resolve_target(ctx, target, origin)
                .await?
                .0;
            Ok((
                Output::text(session_cmd::find_window(&handle, &text, how).await?),
                None,
            ))
        }
        Ran::Client(ClientRequest::RenameSession { target, name: new }) => {
            let handle = crate::cmd::run::resolve_target(ctx, target, origin)
                .await?
                .0;
            session_cmd::rename(ctx, &handle, &new).await?;
            Ok((Output::none(), None))
        }
        Ran::Client(ClientRequest::Popup(mut action)) => {
            // On the most recently active client of the session the command comes from, as
            // tmux picks its client; the command returns once the popup closes.
            let handle = session_with_client(ctx, origin, "display-popup").await?;
            let closed = match action.as_mut() {
                crate::session::popup::PopupAction::Open { closed, .. } => {
                    let (tx, rx) = tokio::sync::oneshot::channel();
                    *closed = Some(tx);
                    Some(rx)
                }
                crate::session::popup::PopupAction::Close => None,
            };
            handle
                .send(SessionCommand::PopupClient {
                    client: None,
                    action,
                })
                .await;
            // Closed, or dropped on the way (the client left): either way it is over. A hook
            // does not wait: it would hold its slot and deadline for as long as it is open.
            if let Some(closed) = closed.filter(|_| crate::hooks::current_depth() == 0) {
                let _ = closed.await;
            }
            Ok((Output::none(), None))
        }
        Ran::Client(ClientRequest::Menu(mut request)) => {
            // As a popup: on the most recently active client; returns once the menu closes.
            let handle = session_with_client(ctx, origin, "display-menu").await?;
            let (tx, closed) = tokio::sync::oneshot::channel();
            request.closed = Some(tx);
            handle.send(SessionCommand::MenuClient(request)).await;
            if crate::hooks::current_depth() == 0 {
                let _ = closed.await;
            }
            Ok((Output::none(), None))
        }
        Ran::Client(_) => Err(CommandError::ClientOnly(name)),
    }
}

/// The session a command from the command line that shows something on a client (a popup, a
/// menu) comes from, once it has a client to show it on.
async fn session_with_client(
    ctx: &ServerContext,
    origin: &Origin,
    command: &str,
) -> Result<SessionHandle, CommandError> {
    let handle = crate::cmd::run::resolve_target(ctx, None, origin).await?.0;
    if session_cmd::clients_of(&handle).await.is_empty() {
        return Err(CommandError::failed(format!(
            "{command} needs a client: attach one to session {} first",
            handle.name()
        )));
    }
    Ok(handle)
}

/// The sessions a client command from the command line acts on: the one named, else the one
/// it was typed in, else every session.
async fn sessions_for(
    ctx: &ServerContext,
    target: Option<String>,
    origin: &Origin,
) -> Result<Vec<SessionHandle>, CommandError> {
    match target.or_else(|| origin.session.clone()) {
        Some(t) => match ctx.registry.find(Some(t.clone())).await {
            Some(h) => Ok(vec![h]),
            None => Err(not_found(TargetKind::Session, t)),
        },
        None => Ok(ctx.registry.all().await),
    }
}

/// The reply for a command's output.
fn output_reply(output: Output) -> Reply {
    Reply::Output {
        stdout: output.stdout,
        stderr: output.stderr,
        code: output.code,
    }
}

/// The reply for a command's error: its sentence and exit status.
fn error_reply(error: &CommandError) -> Reply {
    Reply::Error {
        message: error.to_string(),
        code: error.exit_code(),
    }
}

async fn reply(conn: &mut Conn, reply: Reply) {
    let _ = conn.send(Message::Reply(reply)).await;
}

/// Exchanges hellos; a client of another protocol version gets an error saying what to do.
async fn handshake(conn: &mut Conn, version: &str) -> bool {
    let hello = match conn.next().await {
        Some(Ok(Message::Hello(h))) => h,
        _ => return false,
    };
    if hello.protocol != PROTOCOL_VERSION {
        let message = format!(
            "this weft server is version {version} (protocol {PROTOCOL_VERSION}) but the client \
             is {} (protocol {}); run `weft kill-server` and start weft again to use one version",
            hello.version, hello.protocol
        );
        reply(conn, Reply::Error { message, code: 1 }).await;
        return false;
    }
    conn.send(Message::Hello(Hello {
        protocol: PROTOCOL_VERSION,
        version: version.to_string(),
    }))
    .await
    .is_ok()
}

#[cfg(test)]
mod sizing_tests {
    use super::*;

    fn attach(cols: u16, rows: u16) -> Attach {
        Attach {
            cols,
            rows,
            ..Attach::default()
        }
    }

    #[test]
    fn a_session_made_for_a_client_takes_its_terminal_size() {
        let sized = sized_for(&NewSession::default(), Some(&attach(132, 40)));
        assert_eq!((sized.cols, sized.rows), (Some(132), Some(40)));
    }

    #[test]
    fn a_size_given_or_a_detached_session_keeps_its_own() {
        let given = NewSession {
            cols: Some(100),
            rows: Some(30),
            ..NewSession::default()
        };
        assert_eq!(sized_for(&given, Some(&attach(132, 40))), given);
        let detached = NewSession {
            detached: true,
            ..NewSession::default()
        };
        assert_eq!(sized_for(&detached, Some(&attach(132, 40))), detached);
        assert_eq!(
            sized_for(&NewSession::default(), None),
            NewSession::default()
        );
    }
}
