//! An attached client's I/O: keys from its terminal (or the socket) to the client's loop, frames
//! and exit notices back.
//!
//! ```text
//!  terminal / socket reader --keys--> ClientLoop (bindings, prompt, pane input: bounded,
//!                                     waits while the program is not reading)
//!                         --resize--> session, renderer
//!  renderer --[FRAME_CAPACITY]--> writer --> terminal / socket
//!  session --[CLIENT_CONTROL_CAPACITY]--> writer (exit notices)
//! ```

use super::joining::Joining;
use super::probe::{self, Tty};
use super::terminal_keys::TerminalKeys;
use super::ui::{After, ClientLoop, Ui};
use super::{reply, Conn};
use crate::context::ServerContext;
use crate::ids::ClientId;
use crate::outcome::CommandError;
use crate::render::{RenderControl, RenderTask, FRAME_CAPACITY, RENDER_CONTROL_CAPACITY};
use crate::session::{
    Attached, ClientControl, SessionCommand, SessionHandle, CLIENT_CONTROL_CAPACITY,
};
use crate::terminal::{TerminalInfo, Terminals};
use bytes::Bytes;
use futures::{SinkExt, StreamExt};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;
use tracing::Instrument;
use weft_protocol::{Attach, ExitNotice, Message, Reply};
use weft_pty_io::{PtyReader, PtyWriter};

/// Longest a client whose new session ended before it joined waits for the registry to
/// forget that session (normally microseconds) before it hears `[exited]`.
const SESSION_GONE_WAIT: std::time::Duration = std::time::Duration::from_secs(1);

/// The terminal loop of an attached client; once it ends, the memory its frames held goes
/// back to the system. `made_for_client`: the session was made by this client's request, so
/// one whose program ended before the client joined is shown as ended (`[exited]`), as a
/// session that ends while attached is, not as a refusal.
///
/// The loop runs on the clients' runtime ([`crate::client_runtime`]), its socket and terminal
/// watched by that runtime's reactor, so a key is read at once however busy floods keep the
/// server's workers; its commands, renderer and writer run on the server's (`server`).
pub(super) async fn attached(
    conn: Conn,
    ctx: ServerContext,
    session: SessionHandle,
    attach: Attach,
    made_for_client: bool,
) {
    let server = tokio::runtime::Handle::current();
    let (terminals, registry) = (ctx.terminals.clone(), ctx.registry.clone());
    let exit_unattached = ctx.config.clone();
    let attaching = ctx.terminals.attaching();
    // Left for good: not suspended or locked, which come back as a new attach.
    let gone = Arc::new(AtomicBool::new(true));
    let left = gone.clone();
    crate::client_runtime::run_on_clients::<_, Message, _, _>(conn, move |conn| {
        attached_loop(conn, ctx, session, attach, made_for_client, server, left)
    })
    .await;
    drop(attaching);
    // `exit-unattached`: the server ends when its last client has left.
    let on = exit_unattached
        .borrow()
        .option_value("exit-unattached")
        .as_deref()
        == Some("on");
    if on && gone.load(Ordering::Acquire) && terminals.is_empty() {
        registry.kill_server().await;
        return;
    }
    crate::memory::return_freed_memory();
}

async fn attached_loop(
    mut conn: Conn,
    ctx: ServerContext,
    session: SessionHandle,
    attach: Attach,
    made_for_client: bool,
    server: tokio::runtime::Handle,
    gone: Arc<AtomicBool>,
) {
    let client = ctx.ids.client();
    let (control_tx, mut control_rx) = mpsc::channel(CLIENT_CONTROL_CAPACITY);
    let (cols, rows) = weft_protocol::clamp_size(attach.cols, attach.rows);
    let own_control = control_tx.clone();
    let terminal_session = terminal_session(&conn);
    // Only what update-environment may ask for is kept, bounded.
    let env: Vec<(String, String)> = attach
        .env
        .into_iter()
        .filter(|(k, v)| k.len() + v.len() <= MAX_ENV_ENTRY_BYTES && !k.contains('='))
        .take(MAX_ENV_ENTRIES)
        .collect();
    // What TERM and COLORTERM say, until the terminal itself answers.
    let mut terminal_info = TerminalInfo::from_env(&env);
    let mut joining = Joining {
        client,
        size: (cols, rows),
        read_only: attach.read_only,
        control: control_tx,
        terminal_session,
        env: Arc::new(env),
        tty: terminal_device(&conn),
        activity: Arc::default(),
    };
    let info = match joining.join(&session).await {
        Ok(info) => info,
        Err(CommandError::SessionEnded) if made_for_client => {
            // `new -- true`: the program ended before its client joined. Once the registry
            // has forgotten the session (and removed the socket if it was the last one), the
            // client hears what it would have heard attached.
            // A session task that died without that (a panic) must not hold the client.
            let _ = tokio::time::timeout(SESSION_GONE_WAIT, session.gone()).await;
            // A client gone meanwhile has nobody to tell.
            let _ = conn.send(Message::Exit(ExitNotice::exited())).await;
            return;
        }
        Err(refused) => {
            reply(&mut conn, super::error_reply(&refused)).await;
            return;
        }
    };
    if attach.detach_others {
        session
            .send(SessionCommand::Detach {
                except: Some(client),
                how: Default::default(),
            })
            .await;
    }
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
                tracing::warn!(client = client.get(), "no terminal from the client: {e}");
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
    {
        let config = ctx.config.borrow();
        let option = |name: &str| config.option_value(name).unwrap_or_default();
        terminal_info.forced = crate::terminal::forced(
            terminal_info.term.as_deref().unwrap_or_default(),
            &option("terminal-overrides"),
            &option("terminal-features"),
        );
    }
    // Ask the terminal what it can do; the first frame follows at once, drawn with what TERM
    // and COLORTERM say, and the answers are taken in as they come (see `probe`).
    let mut keys = TerminalKeys::new(ctx.config.clone());
    let tty = match tty_out.as_deref() {
        Some(writer) => Tty::Direct(writer),
        None => Tty::Socket(&mut conn),
    };
    let (unwritten, gone_while_asked) = match probe::ask(tty).await {
        Ok(unwritten) => (unwritten, false),
        Err(probe::Gone) => (None, true),
    };
    let caps = terminal_info.caps();
    let dark_background = terminal_info.colors.is_dark();
    let terminal_info = Arc::new(Mutex::new(terminal_info));
    let _registered = Registered::new(&ctx.terminals, client, terminal_info.clone());
    let stop = CancellationToken::new();
    let client_metrics = Arc::new(crate::metrics::ClientMetrics::default());
    ctx.metrics.add_client(client, &info.name, &client_metrics);
    let (frames_tx, mut frames_rx) = mpsc::channel(FRAME_CAPACITY);
    if let Some(unwritten) = unwritten {
        // The queries the terminal had not taken, counted as queued already: the writer task
        // writes them before any frame. The channel is new and empty, so it takes them.
        if frames_tx.try_send(unwritten).is_err() {
            tracing::warn!(client = client.get(), "the terminal's queries were dropped");
        }
    }
    let (switch_tx, mut switch_rx) = mpsc::channel(SWITCH_CAPACITY);
    let relay = switch_tx.clone();
    let (render_tx, render_rx) = mpsc::channel(RENDER_CONTROL_CAPACITY);
    let renderer = RenderTask {
        cols,
        rows,
        view: info.view.clone(),
        config: ctx.config.clone(),
        frames: frames_tx,
        control: render_rx,
        stop: stop.clone(),
        metrics: client_metrics.clone(),
        direct: tty_out.clone(),
        caps,
        dark_background,
    };
    let render_task = crate::pane::spawn_renderer(
        renderer
            .run()
            .instrument(tracing::info_span!("render", client = client.get())),
        &server,
    );
    server.spawn(forward_clipboard(
        ctx.buffers.clipboard_feed(),
        render_tx.clone(),
        terminal_info.clone(),
        stop.clone(),
    ));

    let (mut sink, mut stream) = conn.split();
    // Writer: frames and exit notices to the socket.
    let writer_stop = stop.clone();
    let writer_metrics = client_metrics.clone();
    let writer_render = render_tx.clone();
    let writer = server.spawn(async move {
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
                    if let Some(for_loop @ (ClientControl::Switch(..) | ClientControl::Message(_) | ClientControl::Popup(_) | ClientControl::Menu(_) | ClientControl::Output(_))) = control {
                        // For the client's loop; dropped when it has some waiting already.
                        let _ = switch_tx.try_send(for_loop);
                        continue;
                    }
                    if let Some(ClientControl::Terminal(bytes)) = control {
                        // With the frames, in order; dropped when the renderer is behind.
                        let _ = writer_render.try_send(RenderControl::Passthrough(bytes));
                        continue;
                    }
                    // Let go of the terminal, both halves, before the client hears it may
                    // restore it: the renderer (which writes frames to it directly) ends, and
                    // the key reader lets go.
                    writer_stop.cancel();
                    // The renderer ends, queueing its farewell (the cursor's colour given
                    // back) last; what it queues is taken meanwhile (it may wait for room) and
                    // written in order before the client hears it may restore its terminal.
                    // A client that stopped reading ends the writing.
                    let mut left = Vec::new();
                    if let Some(mut renderer) = render_task.take() {
                        loop {
                            tokio::select! {
                                _ = &mut renderer => break,
                                Some(bytes) = frames_rx.recv() => left.push(bytes),
                            }
                        }
                    }
                    while let Ok(bytes) = frames_rx.try_recv() {
                        left.push(bytes);
                    }
                    for bytes in left {
                        let written = match tty_out.as_ref() {
                            Some(tty) => tty.write_queued(&bytes).await.is_ok(),
                            None => sink.send(Message::Output(bytes)).await.is_ok(),
                        };
                        if !written {
                            break;
                        }
                    }
                    tty_out = None;
                    if let Some(released) = reader_released.take() {
                        let _ = released.await;
                    }
                    let notice = match control {
                        Some(ClientControl::Exit(notice)) => notice,
                        Some(ClientControl::Switch(..) | ClientControl::Message(_) | ClientControl::Terminal(_) | ClientControl::Popup(_) | ClientControl::Menu(_) | ClientControl::Output(_)) => continue,
                        None => ExitNotice { message: "[server exited]".into(), code: 1, ..ExitNotice::default() },
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
        server: server.clone(),
        client,
        session: session.clone(),
        view: info.view.clone(),
        config: ctx.config.clone(),
        render: render_tx.clone(),
        read_only: attach.read_only,
        prefix_armed: false,
        ui: Ui::Normal,
        drag: None,
        message_shown: false,
        overlay_due: crate::deadline::Deadline::new(),
        copy_count: None,
        chosen_line: None,
        key_table: None,
        selecting: None,
        last_click: None,
        last_session: None,
        repeat_until: None,
        popup: None,
        mouse_keys: Default::default(),
        acting_pane: None,
        last_key_at: None,
        detach_how: Default::default(),
        relay,
    };
    let mut info = info;
    // The first client to attach shows what the configuration read at start could not apply.
    let warnings = ctx
        .startup_warnings
        .lock()
        .map(|mut w| std::mem::take(&mut *w))
        .unwrap_or_default();
    if !warnings.is_empty() {
        state.show_startup_warnings(&warnings).await;
    }
    // Input read but not yet decoded (the rest of a long read): decoded a slice at a time,
    // before anything more is read.
    let mut unfed = Bytes::new();
    if gone_while_asked {
        // Ends the attachment as the loop does when the client goes.
        stop.cancel();
    }
    let mut key_buf = vec![0u8; TTY_READ_BYTES];
    // Registered once, not on every keystroke (see `read_pty`).
    let stopped = stop.cancelled();
    tokio::pin!(stopped);
    loop {
        // In a fixed order: a key goes straight to its read without a random draw or a poll
        // of the socket first (the path a keystroke's echo waits on, run with cold caches
        // after each pause in typing). Nothing starves: a terminal's keys run dry between
        // keystrokes and pastes, and tokio's budget makes a long run of reads yield. A held
        // ESC's escape time comes last: a key that arrives with it completes the sequence.
        let inputs = tokio::select! {
            biased;
            _ = &mut stopped => break,
            Some(piece) = std::future::ready(next_piece(&mut unfed)) => keys.feed(&piece),
            read = read_terminal(tty_in.as_mut().map(|(r, _)| r), &mut key_buf) => match read {
                // The terminal is gone (hung up): as if the client left.
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    typed(&info, &state.session, &ctx.terminals, client, n);
                    stamp(&joining.activity);
                    if n > FEED_BYTES {
                        unfed = Bytes::copy_from_slice(&key_buf[FEED_BYTES..n]);
                    }
                    keys.feed(&key_buf[..n.min(FEED_BYTES)])
                }
            },
            message = stream.next() => match message {
                Some(Ok(Message::Input(mut bytes))) => {
                    typed(&info, &state.session, &ctx.terminals, client, bytes.len());
                    stamp(&joining.activity);
                    let first = bytes.split_to(bytes.len().min(FEED_BYTES));
                    unfed = bytes;
                    keys.feed(&first)
                }
                Some(Ok(Message::Resize { cols, rows })) => {
                    let (cols, rows) = weft_protocol::clamp_size(cols, rows);
                    joining.size = (cols, rows);
                    state
                        .session
                        .send(SessionCommand::ClientResize { client, cols, rows })
                        .await;
                    let _ = render_tx.send(RenderControl::Resize { cols, rows }).await;
                    continue;
                }
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => break,
            },
            flushed = keys.escape_due() => flushed,
            code = super::popup::exit_of(&mut state.popup) => {
                state.popup_exited(code).await;
                continue;
            }
            () = state.overlay_due.wait() => {
                state.overlay_expired().await;
                continue;
            }
            Some(for_loop) = switch_rx.recv() => {
                let (target, hook_depth) = match for_loop {
                    ClientControl::Switch(target, hook_depth) => (target, hook_depth),
                    ClientControl::Message(text) => {
                        state.notice(text).await;
                        continue;
                    }
                    ClientControl::Popup(action) => {
                        state.popup_request(*action).await;
                        continue;
                    }
                    ClientControl::Menu(request) => {
                        state.open_menu(*request).await;
                        continue;
                    }
                    ClientControl::Output(output) => {
                        state.show_output(output).await;
                        continue;
                    }
                    ClientControl::Exit(_) | ClientControl::Terminal(_) => continue,
                };
                let to = crate::cmd::session::SwitchTo::decode(&target);
                let away = matches!(to, crate::cmd::session::SwitchTo::Away { .. });
                let ended = state.session.id;
                let request = crate::cmd::ClientRequest::Switch { client: None, to };
                if let After::Switch(next) = state.session_request(request).await {
                    joining.switch(&mut state, &mut info, next, hook_depth).await;
                }
                if away && state.session.id == ended {
                    // The session ended and no other could be shown: as if detach-on-destroy
                    // were on.
                    drop(tty_in.take());
                    let notice = ExitNotice::exited();
                    let _ = own_control.send(ClientControl::Exit(notice)).await;
                    let _ = writer.await;
                    stop.cancel();
                    return;
                }
                continue;
            }
        };
        // The terminal's late answers: taken out of the keys, taken in here.
        probe::take_in(
            keys.take_reports(),
            &terminal_info,
            &ctx.terminals,
            &render_tx,
        )
        .await;
        for input in inputs {
            let after = state.handle(input).await;
            if let After::Switch(next) = after {
                joining.switch(&mut state, &mut info, next, 0).await;
                continue;
            }
            if let After::Detach | After::Suspend | After::Lock = after {
                drop(tty_in.take());
                state
                    .session
                    .send(SessionCommand::ClientGone { client })
                    .await;
                let back = !matches!(after, After::Detach);
                gone.store(!back, Ordering::Release);
                let lock = matches!(after, After::Lock).then(|| {
                    state
                        .options()
                        .option_value("lock-command")
                        .unwrap_or_default()
                });
                let notice = ExitNotice {
                    // `suspend-client`: the client stops, and attaches again once continued;
                    // `lock-client`: it runs `lock-command` first.
                    resume: back.then(|| state.session.name()),
                    lock,
                    ..state.detach_how.notice(&state.session.name())
                };
                let _ = own_control.send(ClientControl::Exit(notice)).await;
                let _ = writer.await;
                stop.cancel();
                return;
            }
        }
    }
    drop(tty_in.take());
    stop.cancel();
    state
        .session
        .send(SessionCommand::ClientGone { client })
        .await;
    let _ = writer.await;
}

/// A client's terminal in the server's record while the client is attached.
struct Registered {
    terminals: Arc<Terminals>,
    client: ClientId,
}

impl Registered {
    fn new(terminals: &Arc<Terminals>, client: ClientId, info: Arc<Mutex<TerminalInfo>>) -> Self {
        terminals.add(client, info);
        Registered {
            terminals: terminals.clone(),
            client,
        }
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.terminals.remove(self.client);
    }
}

/// The most environment entries an attaching client may bring, and the longest one.
const MAX_ENV_ENTRIES: usize = 512;
/// See [`MAX_ENV_ENTRIES`].
const MAX_ENV_ENTRY_BYTES: usize = 16 << 10;

/// Switch requests from the command line and messages (a pipe that failed, a hook that could
/// not run) waiting for the client's loop: they come one at a time, and more than a few
/// waiting are dropped (the client is busy already).
const SWITCH_CAPACITY: usize = 4;

/// Hands the server's clipboard writes (OSC 52) to the client's renderer, which writes them
/// to the terminal in order with its frames, until the client goes. A client that falls
/// behind skips the older writes: only the newest matters. A terminal known not to take them
/// ([`TerminalInfo::takes_clipboard`]) gets none.
async fn forward_clipboard(
    mut feed: tokio::sync::broadcast::Receiver<bytes::Bytes>,
    render: mpsc::Sender<RenderControl>,
    terminal: Arc<Mutex<TerminalInfo>>,
    stop: CancellationToken,
) {
    use tokio::sync::broadcast::error::RecvError;
    loop {
        let write = tokio::select! {
            _ = stop.cancelled() => return,
            write = feed.recv() => write,
        };
        match write {
            Ok(bytes) => {
                // Asked at every write: what is known of the terminal may grow.
                let takes = terminal.lock().map_or(true, |info| info.takes_clipboard());
                if !takes {
                    continue;
                }
                if render
                    .send(RenderControl::Passthrough(bytes))
                    .await
                    .is_err()
                {
                    return;
                }
            }
            Err(RecvError::Lagged(_)) => {}
            Err(RecvError::Closed) => return,
        }
    }
}

/// Notes when the client last typed, for `#{client_activity}` (one relaxed store).
fn stamp(activity: &std::sync::atomic::AtomicU64) {
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    activity.store(now, std::sync::atomic::Ordering::Relaxed);
}

/// The client typed `bytes` bytes: the session follows its size from now on, and programs'
/// colour queries are answered with its terminal's colours.
fn typed(
    info: &Attached,
    session: &SessionHandle,
    terminals: &Terminals,
    client: ClientId,
    bytes: usize,
) {
    tracing::trace!(bytes, "keys");
    terminals.touch(client);
    if !info.latest.is(client) {
        session.try_send(SessionCommand::ClientActive { client });
    }
}

/// The session id of the client process, which is the session its controlling terminal (the
/// terminal it attaches through, handed over or not) belongs to; `None` when the kernel does
/// not say who the peer is or it is gone. Known before anything changes, so a client whose
/// terminal is one of the session's own panes is refused before the session takes its size.
///
/// The session id is 0 when the session's leader lives in another pid namespace (a client
/// started inside a container whose session began outside it); that says nothing, so it is
/// `None` too. `rustix::process::getsid` cannot be used: it wraps the result in a non-zero pid
/// unchecked, which asserts in debug builds and is undefined in release builds on such a 0.
#[allow(unsafe_code)]
fn terminal_session(conn: &Conn) -> Option<u32> {
    let pid = conn.get_ref().peer_cred().ok()?.pid()?;
    if pid <= 0 {
        return None;
    }
    // SAFETY: getsid takes a plain integer and touches no memory; any value is allowed.
    let sid = unsafe { libc::getsid(pid) };
    u32::try_from(sid).ok().filter(|&sid| sid > 0)
}

/// The terminal device the client runs on (its standard input, `/dev/pts/3`), for
/// `#{client_tty}`; `None` when it is not a terminal or cannot be read.
fn terminal_device(conn: &Conn) -> Option<String> {
    let pid = conn.get_ref().peer_cred().ok()?.pid()?;
    let path = std::fs::read_link(format!("/proc/{pid}/fd/0")).ok()?;
    let path = path.to_str()?;
    path.starts_with("/dev/").then(|| path.to_string())
}

/// Largest read of keys from a handed-over terminal (a paste arrives in pieces of this size).
const TTY_READ_BYTES: usize = 16 * 1024;

/// The most input decoded at once. A decoded key is about a hundred bytes (its name, its
/// bytes, the event), so a long read or a large input message (up to the protocol's frame
/// limit, 16 MB) is decoded and handled a slice at a time: what waits meanwhile is the input
/// itself, and memory stays near a slice's worth of keys whatever a client sends.
const FEED_BYTES: usize = 4 * 1024;

/// The next slice of input read but not yet decoded, if any.
fn next_piece(unfed: &mut Bytes) -> Option<Bytes> {
    (!unfed.is_empty()).then(|| unfed.split_to(unfed.len().min(FEED_BYTES)))
}

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
