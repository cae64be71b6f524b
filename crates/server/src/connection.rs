//! One client connection: the hello, one request, and for attaching clients the terminal loop.
//!
//! ```text
//!  socket reader --keys--> bindings / prompt / pane input (bounded; waits while the program
//!                          is not reading) --resize--> session, renderer
//!  renderer --[FRAME_CAPACITY]--> writer --> socket
//!  session --[CLIENT_CONTROL_CAPACITY]--> writer (exit notices)
//! ```

use crate::command::{parse_line, Command};
use crate::config::Config;
use crate::deadline::Deadline;
use crate::ids::IdAllocator;
use crate::keys::{Input, KeyDecoder, MouseEvent};
use crate::layout::Side;
use crate::registry::Registry;
use crate::render::{Overlay, RenderControl, RenderTask, FRAME_CAPACITY, RENDER_CONTROL_CAPACITY};
use crate::session::{ClientControl, SessionCommand, SessionHandle, View, CLIENT_CONTROL_CAPACITY};
use bytes::Bytes;
use futures::{SinkExt, StreamExt};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::UnixStream;
use tokio::sync::{mpsc, watch};
use tokio_util::codec::Framed;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;
use weft_protocol::{
    Attach, ExitNotice, FrameCodec, Hello, Message, Reply, Request, PROTOCOL_VERSION,
};
use weft_pty_io::{PtyReader, PtyWriter};

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
    /// The configuration in force (replaced by `source-file`).
    pub config: watch::Receiver<Arc<Config>>,
    /// Figures for `weft diag`.
    pub metrics: Arc<crate::metrics::MetricsRegistry>,
}

type Conn = Framed<UnixStream, FrameCodec>;

/// Commands the connection runs itself (they concern the client, not a session).
pub fn is_client_command(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    matches!(
        first,
        "detach-client"
            | "detach"
            | "refresh-client"
            | "refresh"
            | "send-prefix"
            | "command-prompt"
            | "confirm-before"
            | "confirm"
            | "list-keys"
            | "lsk"
            | "rename-window-prompt"
            | "source-file"
            | "source"
            | "show-options"
            | "show"
    )
}

/// Serves one connection until it ends.
pub async fn serve(stream: UnixStream, ctx: ServerContext) {
    // Only the user who owns the server may talk to it.
    match stream.peer_cred() {
        Ok(cred) if cred.uid() == weft_protocol::paths::my_uid() => {}
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
                    let text = handle.name.clone();
                    reply(&mut conn, Reply::Text { text }).await
                }
                Ok(handle) => attached(conn, ctx, handle, attach.unwrap_or_default()).await,
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
            let r = match cli_command(&ctx, &args, pane.as_deref(), session.as_deref()).await {
                Ok(reply) => reply,
                Err(message) => Reply::Error { message, code: 2 },
            };
            reply(&mut conn, r).await;
        }
    }
}

/// Runs a window/pane command from the CLI: finds the session the target names (or the one the
/// command was typed in, or the most recent), then lets it run the rest.
async fn cli_command(
    ctx: &ServerContext,
    args: &[String],
    pane: Option<&str>,
    session: Option<&str>,
) -> Result<Reply, String> {
    let line = args.join(" ");
    let mut command = crate::command::parse(args)?;
    let text = |text: String| Reply::Text { text };
    match command {
        Command::SourceFile { path } => return source_file(ctx, path).await.map(text),
        Command::ShowOptions => return Ok(text(ctx.config.borrow().describe())),
        Command::ListKeys => return Ok(text(ctx.config.borrow().keys.describe().join("\n"))),
        Command::Detach
        | Command::Refresh
        | Command::SendPrefix
        | Command::CommandPrompt
        | Command::ConfirmBefore { .. } => {
            return Err(format!("{line}: only from a key binding or the prompt"))
        }
        _ => {}
    }
    let pane_hint = pane
        .and_then(|p| p.strip_prefix('%'))
        .and_then(|n| n.parse::<u64>().ok());
    let target = target_of(&mut command);
    let (handle, rest) = resolve_target(ctx, target.clone(), session, pane_hint).await?;
    if let Some(slot) = target_slot(&mut command) {
        *slot = rest;
    }
    let from = if target.is_none() { pane_hint } else { None };
    match command {
        Command::SendKeys {
            target,
            keys,
            literal,
            hex,
        } => {
            let pane = handle.resolve_pane(target, from).await?;
            let bytes = encode_send_keys(
                &keys,
                literal,
                hex,
                pane.shared.application_cursor.load(Ordering::Relaxed),
            )?;
            if !pane.send_input(Bytes::from(bytes)).await {
                return Err("the pane's program is gone".into());
            }
            Ok(text(String::new()))
        }
        Command::Capture {
            target,
            ansi,
            json,
            scrollback,
            join_wrapped,
        } => {
            let pane = handle.resolve_pane(target, from).await?;
            let options = crate::capture::CaptureOptions {
                ansi,
                json,
                scrollback,
                join_wrapped,
            };
            let (screen, revision) = pane.capture(options).await.ok_or("the pane is gone")?;
            Ok(Reply::Output {
                stdout: screen,
                stderr: format!("revision {revision}"),
                code: 0,
            })
        }
        Command::Wait {
            target,
            until,
            after,
            timeout,
        } => {
            let pane = handle.resolve_pane(target, from).await?;
            let (stdout, code) = wait(&pane, &until, after, timeout).await?;
            let stderr = if code == 0 {
                String::new()
            } else {
                "weft wait: timed out; the screen is above".into()
            };
            Ok(Reply::Output {
                stdout,
                stderr,
                code,
            })
        }
        command => handle.run(command, from).await.map(text),
    }
}

/// The bytes `send-keys` sends: key names encoded for the pane's cursor-key mode, literal text
/// with `-l`, hex bytes with `-H`.
fn encode_send_keys(
    keys: &[String],
    literal: bool,
    hex: bool,
    application_cursor: bool,
) -> Result<Vec<u8>, String> {
    if literal {
        return Ok(keys.concat().into_bytes());
    }
    if hex {
        return keys
            .iter()
            .map(|h| {
                u8::from_str_radix(h.trim_start_matches("0x"), 16)
                    .map_err(|_| format!("send-keys: bad hex byte {h:?}"))
            })
            .collect();
    }
    let mut out = Vec::new();
    for key in keys {
        match weft_protocol::keynames::encode_key(key, application_cursor) {
            Some(bytes) => out.extend_from_slice(&bytes),
            None if (key.starts_with("C-") || key.starts_with("M-")) && key.len() > 2 => {
                return Err(format!("send-keys: unknown key name {key:?}"))
            }
            None => out.extend_from_slice(key.as_bytes()),
        }
    }
    Ok(out)
}

/// Waits on a pane's own change notifications (no polling) until `until` holds for a screen
/// newer than `after`. Returns what to print and the exit status: the revision (or the exit
/// code for `--exit`) and 0, or the last screen and 1 on timeout.
async fn wait(
    pane: &crate::pane::PaneHandle,
    until: &crate::command::WaitFor,
    after: u64,
    timeout: Duration,
) -> Result<(String, u8), String> {
    use crate::command::WaitFor;
    let regex = match until {
        WaitFor::Regex(r) => {
            Some(regex::Regex::new(r).map_err(|e| format!("wait: bad regex: {e}"))?)
        }
        _ => None,
    };
    let notify = Arc::new(tokio::sync::Notify::new());
    pane.watch(&notify);
    let deadline = tokio::time::Instant::now() + timeout;
    let idle = match until {
        WaitFor::Idle(d) => Some(*d),
        _ => None,
    };
    let mut idle_at = idle.map(|d| tokio::time::Instant::now() + d);
    let mut idle_timer = Deadline::new();
    let mut last_screen = String::new();
    loop {
        if let WaitFor::Exit = until {
            if let Some(code) = pane.exit_code() {
                return Ok((code.to_string(), 0));
            }
        } else if let Some((text, revision)) = pane
            .capture(crate::capture::CaptureOptions::default())
            .await
        {
            let met = revision > after
                && match until {
                    WaitFor::Text(t) => text.contains(t.as_str()),
                    WaitFor::Regex(_) => regex.as_ref().is_some_and(|r| r.is_match(&text)),
                    _ => false,
                };
            if met {
                return Ok((revision.to_string(), 0));
            }
            last_screen = text;
        } else if let Some(code) = pane.exit_code() {
            let _ = code;
            return Ok((last_screen, 1));
        }
        idle_timer.set(idle_at);
        tokio::select! {
            _ = notify.notified() => {
                if let Some(d) = idle {
                    idle_at = Some(tokio::time::Instant::now() + d);
                }
            }
            _ = idle_timer.wait() => {
                let revision = pane.shared.seq.load(Ordering::Acquire);
                if revision > after {
                    return Ok((revision.to_string(), 0));
                }
                idle_at = idle.map(|d| tokio::time::Instant::now() + d);
            }
            _ = tokio::time::sleep_until(deadline) => {
                if let Some((text, _)) = pane.capture(crate::capture::CaptureOptions::default()).await {
                    last_screen = text;
                }
                return Ok((last_screen, 1));
            }
        }
    }
}

/// The `-t` of a command, taken out.
fn target_of(command: &mut Command) -> Option<String> {
    target_slot(command).and_then(|t| t.clone())
}

fn target_slot(command: &mut Command) -> Option<&mut Option<String>> {
    match command {
        Command::SplitWindow { target, .. }
        | Command::NewWindow { target, .. }
        | Command::SelectPane { target, .. }
        | Command::ResizePane { target, .. }
        | Command::KillPane { target }
        | Command::KillWindow { target }
        | Command::SelectLayout { target, .. }
        | Command::RenameWindow { target, .. }
        | Command::SwapPane { target, .. }
        | Command::BreakPane { target, .. }
        | Command::ListPanes { target, .. }
        | Command::ListWindows { target, .. }
        | Command::SetOption { target, .. }
        | Command::SendKeys { target, .. }
        | Command::Capture { target, .. }
        | Command::Wait { target, .. } => Some(target),
        _ => None,
    }
}

/// Splits a target into its session and the window/pane part.
async fn resolve_target(
    ctx: &ServerContext,
    target: Option<String>,
    session_hint: Option<&str>,
    pane_hint: Option<u64>,
) -> Result<(SessionHandle, Option<String>), String> {
    let hinted = || async {
        if let Some(p) = pane_hint {
            if let Some(h) = ctx.registry.find_pane(p).await {
                return Some(h);
            }
        }
        match session_hint {
            Some(s) => ctx.registry.find(Some(s.to_string())).await,
            None => ctx.registry.find_current().await,
        }
    };
    let Some(t) = target.filter(|t| !t.is_empty()) else {
        return hinted()
            .await
            .map(|h| (h, None))
            .ok_or("no sessions".to_string());
    };
    if let Some(id) = t.strip_prefix('%').and_then(|n| n.parse::<u64>().ok()) {
        let h = ctx
            .registry
            .find_pane(id)
            .await
            .ok_or(format!("can't find pane: {t}"))?;
        return Ok((h, Some(t)));
    }
    if let Some((session, rest)) = t.split_once(':') {
        let h = if session.is_empty() {
            hinted().await
        } else {
            ctx.registry.find(Some(session.to_string())).await
        }
        .ok_or(format!("can't find session: {session}"))?;
        return Ok((h, Some(rest.to_string()).filter(|r| !r.is_empty())));
    }
    if let Some(h) = ctx.registry.find(Some(t.clone())).await {
        return Ok((h, None));
    }
    let h = hinted().await.ok_or(format!("can't find session: {t}"))?;
    Ok((h, Some(t)))
}

async fn source_file(ctx: &ServerContext, path: Option<String>) -> Result<String, String> {
    let path = path
        .map(std::path::PathBuf::from)
        .or_else(|| ctx.config.borrow().path.clone())
        .or_else(crate::config::default_path)
        .ok_or("source-file: no configuration file")?;
    let loaded = Config::load(Some(&path)).map_err(|e| e.to_string())?;
    ctx.registry.set_config(Arc::new(loaded.config)).await;
    if loaded.warnings.is_empty() {
        Ok(String::new())
    } else {
        Err(loaded.warnings.join("\n"))
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
        None => ctx.registry.all().await,
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

/// What the client is doing besides typing into a pane.
enum Ui {
    Normal,
    Prompt {
        label: String,
        text: String,
        rename: bool,
    },
    Confirm(Command),
    Overlay,
}

/// A border being dragged: the pane whose right/bottom edge it is, and the last position.
struct Drag {
    pane: u64,
    horizontal: bool,
    last: u16,
}

/// Lines one wheel step scrolls the history.
const WHEEL_LINES: usize = 3;

/// The per-client state of the terminal loop.
struct ClientLoop {
    ctx: ServerContext,
    session: SessionHandle,
    view: watch::Receiver<View>,
    config: watch::Receiver<Arc<Config>>,
    render: mpsc::Sender<RenderControl>,
    read_only: bool,
    prefix_armed: bool,
    ui: Ui,
    drag: Option<Drag>,
    message_shown: bool,
    /// Pane and lines scrolled into its history with the wheel.
    scroll: Option<(u64, usize)>,
}

/// What the loop should do after an input.
enum After {
    Continue,
    Detach,
}

impl ClientLoop {
    async fn overlay(&mut self, overlay: Option<Overlay>) {
        let _ = self.render.send(RenderControl::Overlay(overlay)).await;
    }

    async fn message(&mut self, text: String) {
        self.message_shown = true;
        self.overlay(Some(Overlay::Message(text))).await;
    }

    async fn forward(&self, bytes: Bytes) {
        if self.read_only {
            return;
        }
        let panes: Vec<_> = {
            let view = self.view.borrow();
            if view.sync_panes {
                view.panes.iter().map(|(p, _)| p.clone()).collect()
            } else {
                view.active_pane().cloned().into_iter().collect()
            }
        };
        for pane in panes {
            pane.send_input(bytes.clone()).await;
        }
    }

    async fn handle(&mut self, input: Input) -> After {
        if self.message_shown && !matches!(input, Input::Mouse(_)) {
            self.message_shown = false;
            self.overlay(None).await;
        }
        match std::mem::replace(&mut self.ui, Ui::Normal) {
            Ui::Prompt {
                label,
                mut text,
                rename,
            } => {
                let key = key_of(&input);
                return self.prompt_key(label, &mut text, rename, key).await;
            }
            Ui::Confirm(command) => {
                if let Input::Key { name, .. } = &input {
                    self.overlay(None).await;
                    if name == "y" || name == "Y" {
                        return self.run(command).await;
                    }
                }
                return After::Continue;
            }
            Ui::Overlay => {
                self.overlay(None).await;
                return After::Continue;
            }
            Ui::Normal => {}
        }
        if self.scroll.is_some() && !matches!(input, Input::Mouse(_)) {
            // Any key leaves the history view (and is not typed).
            self.set_scroll(None).await;
            return After::Continue;
        }
        match input {
            Input::Key { name, bytes } => {
                let config = self.config.borrow().clone();
                if self.prefix_armed {
                    self.prefix_armed = false;
                    if let Some(line) = config.keys.prefix_table.get(&name) {
                        return self.run_line(line).await;
                    }
                    return After::Continue;
                }
                if name == config.keys.prefix {
                    self.prefix_armed = true;
                    return After::Continue;
                }
                if let Some(line) = config.keys.root_table.get(&name) {
                    return self.run_line(line).await;
                }
                // Keys the terminal sent as CSI u reach programs in the legacy form they expect.
                let bytes = if bytes.starts_with(b"\x1b[") && bytes.ends_with(b"u") {
                    let app = self
                        .view
                        .borrow()
                        .active_pane()
                        .is_some_and(|p| p.shared.application_cursor.load(Ordering::Relaxed));
                    weft_protocol::keynames::encode_key(&name, app).map_or(bytes, Bytes::from)
                } else {
                    bytes
                };
                self.forward(bytes).await;
            }
            Input::Paste(text) => {
                let bracketed = self
                    .view
                    .borrow()
                    .active_pane()
                    .is_some_and(|p| p.shared.bracketed_paste.load(Ordering::Relaxed));
                let mut data = Vec::with_capacity(text.len() + 12);
                if bracketed {
                    data.extend_from_slice(b"\x1b[200~");
                }
                data.extend_from_slice(&text);
                if bracketed {
                    data.extend_from_slice(b"\x1b[201~");
                }
                self.forward(Bytes::from(data)).await;
            }
            Input::Mouse(event) => self.mouse(event).await,
        }
        After::Continue
    }

    async fn mouse(&mut self, event: MouseEvent) {
        if !self.config.borrow().mouse {
            return;
        }
        let view = self.view.borrow().clone();
        if let Some(drag) = &mut self.drag {
            if event.is_left_drag() {
                let pos = if drag.horizontal {
                    event.col
                } else {
                    event.row
                };
                if pos != drag.last {
                    let (side, cells) = if pos > drag.last {
                        (
                            if drag.horizontal {
                                Side::Right
                            } else {
                                Side::Down
                            },
                            pos - drag.last,
                        )
                    } else {
                        (
                            if drag.horizontal {
                                Side::Left
                            } else {
                                Side::Up
                            },
                            drag.last - pos,
                        )
                    };
                    let pane = drag.pane;
                    drag.last = pos;
                    let _ = self
                        .session
                        .run(
                            Command::ResizePane {
                                target: Some(format!("%{pane}")),
                                side: Some(side),
                                cells,
                                zoom: false,
                            },
                            None,
                        )
                        .await;
                }
                return;
            }
            if !event.press || event.is_left_press() {
                self.drag = None;
            }
            if !event.press {
                return;
            }
        }
        match view.pane_at(event.col, event.row) {
            Some((pane, rect)) => {
                if event.is_left_press() && pane.id() != view.active {
                    let _ = self
                        .session
                        .run(
                            Command::SelectPane {
                                target: Some(format!("%{}", pane.id())),
                                side: None,
                            },
                            None,
                        )
                        .await;
                }
                // Programs that asked for mouse reports get them, in their own coordinates.
                let wants = pane.shared.mouse_reporting.load(Ordering::Relaxed);
                if let Some(up) = event.wheel() {
                    if wants == 0 && !pane.shared.alternate_screen.load(Ordering::Relaxed) {
                        // The wheel scrolls the pane's history.
                        let id = pane.id();
                        let current = self.scroll.filter(|(p, _)| *p == id).map_or(0, |(_, o)| o);
                        let offset = if up {
                            current + WHEEL_LINES
                        } else {
                            current.saturating_sub(WHEEL_LINES)
                        };
                        let history = pane.history(0, 0).await.map_or(0, |(_, h)| h);
                        let offset = offset.min(history);
                        self.set_scroll((offset > 0).then_some((id, offset))).await;
                        return;
                    }
                }
                if wants != 0 && !self.read_only {
                    let motion_only = event.code & 32 != 0 && event.code & 3 == 3;
                    let drag = event.code & 32 != 0;
                    let allowed = match wants {
                        1 => !drag,
                        2 => !motion_only,
                        _ => true,
                    };
                    if allowed {
                        let (col, row) = (event.col - rect.col, event.row - rect.row);
                        let sgr = pane.shared.mouse_sgr.load(Ordering::Relaxed);
                        let bytes = if sgr {
                            event.encode_sgr(col, row)
                        } else {
                            x10_report(&event, col, row)
                        };
                        pane.send_input(Bytes::from(bytes)).await;
                    }
                }
            }
            None if event.is_left_press() => {
                // On a border: find the pane whose right or bottom edge it is.
                for (pane, r) in &view.panes {
                    if event.col == r.col + r.cols
                        && event.row >= r.row
                        && event.row < r.row + r.rows
                    {
                        self.drag = Some(Drag {
                            pane: pane.id(),
                            horizontal: true,
                            last: event.col,
                        });
                        return;
                    }
                    if event.row == r.row + r.rows
                        && event.col >= r.col
                        && event.col < r.col + r.cols
                    {
                        self.drag = Some(Drag {
                            pane: pane.id(),
                            horizontal: false,
                            last: event.row,
                        });
                        return;
                    }
                }
            }
            None => {}
        }
    }

    async fn set_scroll(&mut self, scroll: Option<(u64, usize)>) {
        let (pane, offset) = match (scroll, self.scroll) {
            (Some((p, o)), _) => (p, o),
            (None, Some((p, _))) => (p, 0),
            (None, None) => return,
        };
        self.scroll = scroll;
        let _ = self
            .render
            .send(RenderControl::Scroll { pane, offset })
            .await;
    }

    async fn run_line(&mut self, line: &str) -> After {
        if line.trim() == "rename-window-prompt" {
            let current = self
                .view
                .borrow()
                .status
                .as_ref()
                .and_then(|s| s.windows.iter().find(|w| w.active).map(|w| w.name.clone()))
                .unwrap_or_default();
            self.start_prompt("(rename-window)".into(), current, true)
                .await;
            return After::Continue;
        }
        match parse_line(line) {
            Ok(command) => self.run(command).await,
            Err(e) => {
                self.message(e).await;
                After::Continue
            }
        }
    }

    async fn start_prompt(&mut self, label: String, text: String, rename: bool) {
        self.overlay(Some(Overlay::Prompt {
            label: label.clone(),
            input: text.clone(),
        }))
        .await;
        self.ui = Ui::Prompt {
            label,
            text,
            rename,
        };
    }

    async fn prompt_key(
        &mut self,
        label: String,
        input: &mut String,
        rename: bool,
        key: Option<String>,
    ) -> After {
        let Some(name) = key else {
            self.ui = Ui::Prompt {
                label,
                text: std::mem::take(input),
                rename,
            };
            return After::Continue;
        };
        match name.as_str() {
            "Enter" => {
                self.overlay(None).await;
                let line = std::mem::take(input);
                if rename {
                    if line.is_empty() {
                        return After::Continue;
                    }
                    return self
                        .run(Command::RenameWindow {
                            target: None,
                            name: line,
                        })
                        .await;
                }
                if line.trim().is_empty() {
                    return After::Continue;
                }
                return self.run_line(&line).await;
            }
            "Escape" | "C-c" | "C-g" => {
                self.overlay(None).await;
                return After::Continue;
            }
            "BSpace" | "C-h" => {
                input.pop();
            }
            "C-u" => input.clear(),
            "Space" => input.push(' '),
            n if n.chars().count() == 1 => input.push_str(n),
            _ => {}
        }
        self.start_prompt(label, std::mem::take(input), rename)
            .await;
        After::Continue
    }

    async fn run(&mut self, command: Command) -> After {
        match command {
            Command::Detach => return After::Detach,
            Command::Refresh => {
                let _ = self.render.send(RenderControl::Redraw).await;
            }
            Command::SendPrefix => {
                let prefix = self.config.borrow().keys.prefix.clone();
                if let Ok(bytes) = encode_key_name(&prefix) {
                    self.forward(Bytes::from(bytes)).await;
                }
            }
            Command::CommandPrompt => self.start_prompt(":".into(), String::new(), false).await,
            Command::ConfirmBefore { prompt, command } => {
                self.overlay(Some(Overlay::Prompt {
                    label: prompt,
                    input: String::new(),
                }))
                .await;
                self.ui = Ui::Confirm(*command);
            }
            Command::ListKeys => {
                let lines = self.config.borrow().keys.describe();
                self.overlay(Some(Overlay::Lines(lines))).await;
                self.ui = Ui::Overlay;
            }
            Command::ShowOptions => {
                let text = self.config.borrow().describe();
                self.overlay(Some(Overlay::Lines(
                    text.lines().map(str::to_string).collect(),
                )))
                .await;
                self.ui = Ui::Overlay;
            }
            Command::SourceFile { path } => {
                if let Err(e) = source_file(&self.ctx, path).await {
                    self.message(e).await;
                }
            }
            Command::ListPanes { .. } | Command::ListWindows { .. } => {
                let active = self.view.borrow().active;
                if let Ok(text) = self.session.run(command, Some(active)).await {
                    self.overlay(Some(Overlay::Lines(
                        text.lines().map(str::to_string).collect(),
                    )))
                    .await;
                    self.ui = Ui::Overlay;
                }
            }
            other => {
                let active = self.view.borrow().active;
                if let Err(e) = self.session.run(other, Some(active)).await {
                    self.message(e).await;
                }
            }
        }
        After::Continue
    }
}

/// The key name an input stands for at a prompt (a one-character paste counts as typed).
fn key_of(input: &Input) -> Option<String> {
    match input {
        Input::Key { name, .. } => Some(name.clone()),
        Input::Paste(text) => {
            Some(String::from_utf8_lossy(text).into_owned()).filter(|t| t.chars().count() == 1)
        }
        Input::Mouse(_) => None,
    }
}

/// The bytes a key name stands for (the prefix, for `send-prefix`).
fn encode_key_name(name: &str) -> Result<Vec<u8>, String> {
    if let Some(c) = name.strip_prefix("C-").filter(|c| c.len() == 1) {
        let b = c.as_bytes()[0].to_ascii_lowercase();
        if b.is_ascii_lowercase() {
            return Ok(vec![b - b'a' + 1]);
        }
    }
    if name.chars().count() == 1 {
        return Ok(name.as_bytes().to_vec());
    }
    Err(format!("cannot send {name}"))
}

/// A mouse report in the X10 encoding (`CSI M b x y`, each + 32), for programs without 1006.
fn x10_report(event: &MouseEvent, col: u16, row: u16) -> Vec<u8> {
    let button = if event.press {
        event.code
    } else {
        3 | (event.code & !3)
    };
    let clamp = |v: u16| u8::try_from(v + 33).unwrap_or(255);
    vec![
        0x1b,
        b'[',
        b'M',
        u8::try_from(button + 32).unwrap_or(255),
        clamp(col),
        clamp(row),
    ]
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

    // The client's terminal itself, when it handed it over: keys are read from it and frames
    // written to it here, with no hop through the client process.
    let terminal = if attach.pass_tty {
        match receive_terminal(&conn).await {
            Ok(terminal) => Some(terminal),
            Err(e) => {
                tracing::warn!(client, "no terminal from the client: {e}");
                session.send(SessionCommand::ClientGone { client }).await;
                return;
            }
        }
    } else {
        None
    };
    // The reader half travels with a sender whose drop tells the writer the server no longer
    // reads the terminal: only then may the client hear that the attachment ended (else a key
    // typed at the shell just after could still be read here).
    let (reader_released_tx, reader_released) = tokio::sync::oneshot::channel::<()>();
    let (mut tty_in, tty_out, reader_released) = match terminal {
        Some((reader, writer)) => (
            Some((reader, reader_released_tx)),
            Some(Arc::new(crate::direct::DirectWriter::new(writer))),
            Some(reader_released),
        ),
        None => (None, None, None),
    };
    let stop = CancellationToken::new();
    let client_metrics = Arc::new(crate::metrics::ClientMetrics::default());
    ctx.metrics.add_client(client, &info.name, &client_metrics);
    let (frames_tx, mut frames_rx) = mpsc::channel(FRAME_CAPACITY);
    let (render_tx, render_rx) = mpsc::channel(RENDER_CONTROL_CAPACITY);
    let renderer = RenderTask {
        cols,
        rows,
        view: info.view.clone(),
        config: ctx.config.clone(),
        frames: frames_tx,
        control: render_rx,
        stop: stop.clone(),
        interval: ctx.frame_interval,
        metrics: client_metrics.clone(),
        direct: tty_out.clone(),
    };
    let render_task = tokio::spawn(
        renderer
            .run()
            .instrument(tracing::info_span!("render", client)),
    );

    let (mut sink, mut stream) = conn.split();
    // Writer: frames and exit notices to the socket.
    let writer_stop = stop.clone();
    let writer_metrics = client_metrics.clone();
    let writer = tokio::spawn(async move {
        // Frames end when the renderer stops (the session may be ending); the exit notice
        // that explains why still comes on the control channel, after the last frame, so the
        // client restores its terminal only once nothing more is written to it.
        let mut tty_out = tty_out;
        let mut render_task = Some(render_task);
        let mut reader_released = reader_released;
        let mut frames_open = true;
        writer_metrics.write.idle_starts();
        loop {
            tokio::select! {
                frame = frames_rx.recv(), if frames_open => match frame {
                    Some(bytes) => {
                        writer_metrics.write.idle_ends();
                        let started = crate::metrics::Tick::now();
                        let len = bytes.len();
                        // With the terminal handed over, these are what the renderer could
                        // not write at once.
                        let written = match tty_out.as_ref() {
                            Some(tty) => tty.write_queued(&bytes).await.is_ok(),
                            None => sink.send(Message::Output(bytes)).await.is_ok(),
                        };
                        if !written {
                            break;
                        }
                        writer_metrics.write.busy_since(started);
                        writer_metrics.write.item(len);
                        tracing::trace!(bytes = len, "client write");
                    }
                    None => frames_open = false,
                },
                control = control_rx.recv() => {
                    // Let go of the terminal, both halves, before the client hears it may
                    // restore it: the renderer (which writes frames to it directly) ends, and
                    // the key reader lets go.
                    writer_stop.cancel();
                    if tty_out.take().is_some() {
                        if let Some(renderer) = render_task.take() {
                            let _ = renderer.await;
                        }
                    }
                    if let Some(released) = reader_released.take() {
                        let _ = released.await;
                    }
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

    let mut state = ClientLoop {
        ctx: ctx.clone(),
        session: session.clone(),
        view: info.view.clone(),
        config: ctx.config.clone(),
        render: render_tx.clone(),
        read_only: attach.read_only,
        prefix_armed: false,
        ui: Ui::Normal,
        drag: None,
        message_shown: false,
        scroll: None,
    };
    let mut decoder = KeyDecoder::default();
    let mut key_buf = vec![0u8; TTY_READ_BYTES];
    // Registered once, not on every keystroke (see `read_pty`).
    let stopped = stop.cancelled();
    tokio::pin!(stopped);
    loop {
        // In a fixed order: a key goes straight to its read without a random draw or a poll
        // of the socket first (the path a keystroke's echo waits on, run with cold caches
        // after each pause in typing). Nothing starves: a terminal's keys run dry between
        // keystrokes and pastes, and tokio's budget makes a long run of reads yield.
        let message = tokio::select! {
            biased;
            _ = &mut stopped => break,
            keys = read_terminal(tty_in.as_mut().map(|(r, _)| r), &mut key_buf) => match keys {
                // The terminal is gone (hung up): as if the client left.
                Ok(0) | Err(_) => None,
                Ok(n) => Some(Ok(Message::Input(Bytes::copy_from_slice(&key_buf[..n])))),
            },
            m = stream.next() => m,
        };
        match message {
            Some(Ok(Message::Input(bytes))) => {
                tracing::trace!(bytes = bytes.len(), "keys");
                if info.latest.load(Ordering::Relaxed) != client {
                    session.try_send(SessionCommand::ClientActive { client });
                }
                for input in decoder.feed(&bytes) {
                    if let After::Detach = state.handle(input).await {
                        drop(tty_in.take());
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
    drop(tty_in.take());
    stop.cancel();
    session.send(SessionCommand::ClientGone { client }).await;
    let _ = writer.await;
}

/// Largest read of keys from a handed-over terminal (a paste arrives in pieces of this size).
const TTY_READ_BYTES: usize = 16 * 1024;

/// Takes the terminal the client hands over after `Attached`, as a reader and a writer.
async fn receive_terminal(conn: &Conn) -> std::io::Result<(PtyReader, PtyWriter)> {
    if !conn.read_buffer().is_empty() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            "the client sent messages before its terminal",
        ));
    }
    let fd = weft_protocol::tty_pass::recv_tty(conn.get_ref()).await?;
    let file = std::fs::File::from(fd);
    let reader = PtyReader::from_file(file.try_clone()?).map_err(std::io::Error::other)?;
    let writer = PtyWriter::from_file(file).map_err(std::io::Error::other)?;
    Ok((reader, writer))
}

/// Keys from the handed-over terminal; never ready without one.
async fn read_terminal(tty: Option<&mut PtyReader>, buf: &mut [u8]) -> std::io::Result<usize> {
    match tty {
        Some(tty) => tty.read_keys(buf).await,
        None => std::future::pending().await,
    }
}
