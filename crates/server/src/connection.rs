//! One client connection: the hello, one request, and for attaching clients the terminal loop.
//!
//! ```text
//!  socket reader --keys--> pane input (bounded; waits while the program is not reading)
//!                --resize--> session, renderer
//!  renderer --[FRAME_CAPACITY]--> writer --> socket
//!  session --[CLIENT_CONTROL_CAPACITY]--> writer (exit notices)
//! ```

use crate::ids::IdAllocator;
use crate::keys::{KeyAction, PrefixKeys};
use crate::registry::Registry;
use crate::render::{RenderControl, RenderTask, FRAME_CAPACITY, RENDER_CONTROL_CAPACITY};
use crate::session::{ClientControl, SessionCommand, SessionHandle, CLIENT_CONTROL_CAPACITY};
use futures::{SinkExt, StreamExt};
use protocol::{Attach, ExitNotice, FrameCodec, Hello, Message, Reply, Request, PROTOCOL_VERSION};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::UnixStream;
use tokio::sync::mpsc;
use tokio_util::codec::Framed;
use tokio_util::sync::CancellationToken;

/// What a connection needs from the server.
#[derive(Clone, Debug)]
pub struct ServerContext {
    /// The sessions.
    pub registry: Registry,
    /// Id numbers.
    pub ids: Arc<IdAllocator>,
    /// Frame interval for renderers.
    pub frame_interval: Duration,
    /// weft's version, for hello messages.
    pub version: String,
}

type Conn = Framed<UnixStream, FrameCodec>;

/// Serves one connection until it ends.
pub async fn serve(stream: UnixStream, ctx: ServerContext) {
    // Only the user who owns the server may talk to it.
    match stream.peer_cred() {
        Ok(cred) if cred.uid() == protocol::paths::my_uid() => {}
        _ => {
            let mut conn = Framed::new(stream, FrameCodec);
            let _ = conn
                .send(Message::Reply(Reply::Error {
                    message: "permission denied: this weft server belongs to another user".into(),
                    code: 1,
                }))
                .await;
            return;
        }
    }
    let mut conn = Framed::new(stream, FrameCodec);
    if !handshake(&mut conn, &ctx.version).await {
        return;
    }
    let Some(Ok(Message::Request(request))) = conn.next().await else {
        return;
    };
    match request {
        Request::NewSession { session, attach } => {
            let detached = session.detached || attach.is_none();
            match ctx.registry.new_session(session).await {
                Err(message) => reply(&mut conn, Reply::Error { message, code: 1 }).await,
                Ok(handle) if detached => {
                    reply(
                        &mut conn,
                        Reply::Text {
                            text: handle.name.clone(),
                        },
                    )
                    .await
                }
                Ok(handle) => {
                    let attach = attach.unwrap_or_default();
                    attached(conn, ctx, handle, attach).await;
                }
            }
        }
        Request::Attach(attach) => match ctx.registry.find(attach.target.clone()).await {
            Some(handle) => attached(conn, ctx, handle, attach).await,
            None => {
                let message = match &attach.target {
                    Some(t) => format!("can't find session: {t}"),
                    None => "no sessions".to_string(),
                };
                reply(&mut conn, Reply::Error { message, code: 1 }).await;
            }
        },
        Request::AttachOrCreate { session, attach } => {
            let found = match ctx.registry.find(None).await {
                Some(h) => Ok(h),
                None => ctx.registry.new_session(session).await,
            };
            match found {
                Ok(handle) => attached(conn, ctx, handle, attach).await,
                Err(message) => reply(&mut conn, Reply::Error { message, code: 1 }).await,
            }
        }
        Request::ListSessions => {
            let sessions = ctx.registry.list().await;
            reply(&mut conn, Reply::Sessions { sessions }).await;
        }
        Request::KillSession { target } => match ctx.registry.find(Some(target.clone())).await {
            Some(h) => {
                h.send(SessionCommand::Kill).await;
                reply(&mut conn, Reply::Ok).await;
            }
            None => {
                let message = format!("can't find session: {target}");
                reply(&mut conn, Reply::Error { message, code: 1 }).await;
            }
        },
        Request::KillServer => {
            ctx.registry.kill_server().await;
            reply(&mut conn, Reply::Ok).await;
            // `weft kill-server` returns once the server is gone: its connection closes only
            // when the process exits and the kernel closes every descriptor.
            std::mem::forget(conn);
        }
        Request::Detach { target } => {
            for_sessions(&mut conn, &ctx, target, SessionKind::Detach).await
        }
        Request::Refresh { target } => {
            for_sessions(&mut conn, &ctx, target, SessionKind::Refresh).await
        }
    }
}

enum SessionKind {
    Detach,
    Refresh,
}

async fn for_sessions(
    conn: &mut Conn,
    ctx: &ServerContext,
    target: Option<String>,
    kind: SessionKind,
) {
    let handles: Vec<SessionHandle> = match target {
        Some(t) => match ctx.registry.find(Some(t.clone())).await {
            Some(h) => vec![h],
            None => {
                let message = format!("can't find session: {t}");
                return reply(conn, Reply::Error { message, code: 1 }).await;
            }
        },
        None => {
            let mut all = Vec::new();
            for info in ctx.registry.list().await {
                if let Some(h) = ctx.registry.find(Some(info.id)).await {
                    all.push(h);
                }
            }
            all
        }
    };
    for h in handles {
        let command = match kind {
            SessionKind::Detach => SessionCommand::DetachAll,
            SessionKind::Refresh => SessionCommand::Refresh,
        };
        h.send(command).await;
    }
    reply(conn, Reply::Ok).await;
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

/// The terminal loop of an attached client.
async fn attached(mut conn: Conn, ctx: ServerContext, session: SessionHandle, attach: Attach) {
    let client = ctx.ids.client();
    let (control_tx, mut control_rx) = mpsc::channel(CLIENT_CONTROL_CAPACITY);
    let (reply_tx, reply_rx) = tokio::sync::oneshot::channel();
    let (cols, rows) = (attach.cols.max(1), attach.rows.max(1));
    let own_control = control_tx.clone();
    let sent = session
        .send(SessionCommand::Attach {
            client,
            cols,
            rows,
            control: control_tx,
            reply: reply_tx,
        })
        .await;
    let Some(info) = (if sent { reply_rx.await.ok() } else { None }) else {
        reply(
            &mut conn,
            Reply::Error {
                message: "the session ended".into(),
                code: 1,
            },
        )
        .await;
        return;
    };
    reply(
        &mut conn,
        Reply::Attached {
            session: info.name.clone(),
        },
    )
    .await;

    let stop = CancellationToken::new();
    let (frames_tx, mut frames_rx) = mpsc::channel(FRAME_CAPACITY);
    let (render_tx, render_rx) = mpsc::channel(RENDER_CONTROL_CAPACITY);
    let renderer = RenderTask {
        cols,
        rows,
        view: info.view.clone(),
        frames: frames_tx,
        control: render_rx,
        stop: stop.clone(),
        interval: ctx.frame_interval,
    };
    tokio::spawn(renderer.run());

    let (mut sink, mut stream) = conn.split();
    // Writer: frames and exit notices to the socket.
    let writer_stop = stop.clone();
    let writer = tokio::spawn(async move {
        // Frames end when the renderer stops (the session may be ending); the exit notice
        // that explains why still comes on the control channel.
        let mut frames_open = true;
        loop {
            tokio::select! {
                frame = frames_rx.recv(), if frames_open => match frame {
                    Some(bytes) => {
                        if sink.send(Message::Output(bytes)).await.is_err() {
                            break;
                        }
                    }
                    None => frames_open = false,
                },
                control = control_rx.recv() => {
                    let notice = match control {
                        Some(ClientControl::Exit(notice)) => notice,
                        None => ExitNotice { message: "[server exited]".into(), code: 1 },
                    };
                    let _ = sink.send(Message::Exit(notice)).await;
                    break;
                }
                _ = writer_stop.cancelled() => break,
            }
        }
        writer_stop.cancel();
    });

    // Reader: keys and resizes from the client.
    let mut keys = PrefixKeys::default();
    loop {
        let message = tokio::select! {
            _ = stop.cancelled() => break,
            m = stream.next() => m,
        };
        match message {
            Some(Ok(Message::Input(bytes))) => {
                if info.latest.load(Ordering::Relaxed) != client {
                    session.try_send(SessionCommand::ClientActive { client });
                }
                for action in keys.feed(&bytes) {
                    match action {
                        KeyAction::Forward(bytes) => {
                            if attach.read_only {
                                continue;
                            }
                            let pane = info.view.borrow().active_pane().cloned();
                            if let Some(pane) = pane {
                                pane.send_input(bytes).await;
                            }
                        }
                        KeyAction::Detach => {
                            session.send(SessionCommand::ClientGone { client }).await;
                            let notice = ExitNotice {
                                message: format!("[detached (from session {})]", info.name),
                                code: 0,
                            };
                            let _ = own_control.send(ClientControl::Exit(notice)).await;
                            let _ = writer.await;
                            stop.cancel();
                            return;
                        }
                        KeyAction::Redraw => {
                            let _ = render_tx.try_send(RenderControl::Redraw);
                        }
                    }
                }
            }
            Some(Ok(Message::Resize { cols, rows })) => {
                session
                    .send(SessionCommand::ClientResize { client, cols, rows })
                    .await;
                let _ = render_tx.send(RenderControl::Resize { cols, rows }).await;
            }
            Some(Ok(_)) => {}
            Some(Err(_)) | None => break,
        }
    }
    stop.cancel();
    session.send(SessionCommand::ClientGone { client }).await;
    let _ = writer.await;
}
