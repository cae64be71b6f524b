//! Asking an attaching client's terminal what it can do, and taking in what it says later.
//!
//! The queries ([`QUERIES`]) go out before the first frame, and the attach waits for the
//! answers until the terminal's DA1 answer (asked last) or [`ANSWER_DEADLINE`]: a terminal
//! that answers adds its round trip, one that does not adds the deadline once. Keys typed
//! meanwhile are kept, in order, for the client's loop (up to [`MAX_INPUT_WHILE_ASKING`],
//! which ends the wait). Answers that come later (a slow link, a terminal reporting that its
//! colour scheme changed) are taken in by [`take_in`].

use super::terminal_keys::TerminalKeys;
use super::Conn;
use crate::direct::DirectWriter;
use crate::keys::Input;
use crate::render::RenderControl;
use crate::terminal::{
    Report, TerminalInfo, Terminals, ANSWER_DEADLINE, COLOR_QUERIES, ENABLE_COLOR_SCHEME_REPORTS,
    ENABLE_KITTY_KEYS, QUERIES,
};
use bytes::Bytes;
use futures::{SinkExt, StreamExt};
use std::sync::Mutex;
use tokio::sync::mpsc;
use tokio::time::Instant;
use weft_protocol::Message;
use weft_pty_io::PtyReader;

/// The most input kept while the attach waits for the terminal's answers: a paste's worth.
/// More ends the wait (answers that come later are still taken in, by [`take_in`]), so a
/// flood of keys waits in the terminal or the socket, where the kernel holds it back, and
/// not in the server as decoded keys (about a hundred bytes each).
const MAX_INPUT_WHILE_ASKING: usize = 64 * 1024;

/// What happened while the attach waited for the terminal's answers.
#[derive(Default)]
pub(super) struct Asked {
    /// Keys typed meanwhile, for the client's loop.
    pub(super) inputs: Vec<Input>,
    /// Input read meanwhile beyond [`MAX_INPUT_WHILE_ASKING`], not yet decoded: the client's
    /// loop decodes it after `inputs`.
    pub(super) rest: Bytes,
    /// The client's terminal changed size meanwhile (keys over the socket only).
    pub(super) resized: Option<(u16, u16)>,
    /// The terminal or the connection went away.
    pub(super) gone: bool,
}

/// Where the client's terminal is: handed over to the server, or behind the client's socket.
pub(super) enum Tty<'a> {
    /// The server reads and writes it itself.
    Direct(&'a mut PtyReader, &'a DirectWriter),
    /// Keys and frames cross the socket (`WEFT_TTY_PROXY=1`).
    Socket(&'a mut Conn),
}

/// Sends [`QUERIES`] and waits for the answers (see the module's documentation), learning into
/// `info`. Turns on colour scheme reports in a terminal that has them.
pub(super) async fn ask(
    mut tty: Tty<'_>,
    keys: &mut TerminalKeys,
    info: &mut TerminalInfo,
) -> Asked {
    let mut asked = Asked::default();
    let deadline = Instant::now() + ANSWER_DEADLINE;
    if !write(&mut tty, QUERIES, deadline).await {
        asked.gone = true;
        return asked;
    }
    let mut buf = vec![0u8; 4096];
    let mut answered = false;
    let mut typed = 0;
    while !answered && typed < MAX_INPUT_WHILE_ASKING {
        let mut bytes = match &mut tty {
            Tty::Direct(reader, _) => {
                match tokio::time::timeout_at(deadline, reader.read_keys(&mut buf)).await {
                    Err(_) => break,
                    Ok(Ok(0) | Err(_)) => {
                        asked.gone = true;
                        break;
                    }
                    Ok(Ok(n)) => Bytes::copy_from_slice(&buf[..n]),
                }
            }
            Tty::Socket(conn) => match tokio::time::timeout_at(deadline, conn.next()).await {
                Err(_) => break,
                Ok(Some(Ok(Message::Input(bytes)))) => bytes,
                Ok(Some(Ok(Message::Resize { cols, rows }))) => {
                    asked.resized = Some(weft_protocol::clamp_size(cols, rows));
                    continue;
                }
                Ok(Some(Ok(_))) => continue,
                Ok(Some(Err(_)) | None) => {
                    asked.gone = true;
                    break;
                }
            },
        };
        let take = bytes.len().min(MAX_INPUT_WHILE_ASKING - typed);
        asked.rest = bytes.split_off(take);
        typed += take;
        asked.inputs.extend(keys.feed(&bytes));
        for report in keys.take_reports() {
            answered |= matches!(report, Report::PrimaryAttributes(_));
            info.learn(report);
        }
    }
    if info.has_mode(2031) {
        let _ = write(&mut tty, ENABLE_COLOR_SCHEME_REPORTS, deadline).await;
    }
    if info.kitty_flags.is_some() {
        let _ = write(&mut tty, ENABLE_KITTY_KEYS, deadline).await;
    }
    tracing::debug!(
        answered,
        version = info.version_text.as_deref().unwrap_or(""),
        features = ?info.features(),
        "the client's terminal"
    );
    asked
}

/// Writes `bytes` to the terminal before the first frame, giving up at `deadline` on a
/// terminal that takes nothing. `false`: it is gone.
async fn write(tty: &mut Tty<'_>, bytes: &'static [u8], deadline: Instant) -> bool {
    match tty {
        Tty::Direct(_, writer) => {
            // Before the first frame nothing else writes here: the rest is written now.
            let mut left = None;
            writer.write_or_queue(Bytes::from_static(bytes), |rest| {
                left = Some(rest);
                true
            });
            match left {
                None => true,
                Some(rest) => {
                    let written = tokio::time::timeout_at(deadline, writer.write_queued(&rest));
                    !matches!(written.await, Ok(Err(_)))
                }
            }
        }
        Tty::Socket(conn) => conn
            .send(Message::Output(Bytes::from_static(bytes)))
            .await
            .is_ok(),
    }
}

/// Takes in answers that came after the attach stopped waiting: what was learned is kept,
/// programs are answered with new colours, the renderer is told what the terminal turned out
/// to understand, and a terminal that reports a new colour scheme is asked its colours again.
pub(super) async fn take_in(
    reports: Vec<Report>,
    info: &Mutex<TerminalInfo>,
    terminals: &Terminals,
    render: &mpsc::Sender<RenderControl>,
) {
    if reports.is_empty() {
        return;
    }
    let (mut colors_changed, mut scheme_changed) = (false, false);
    let kitty_late: bool;
    let (before, after, scheme_reports, dark_background) = {
        let Ok(mut info) = info.lock() else { return };
        let (before, had_reports) = (info.caps(), info.has_mode(2031));
        let had_kitty = info.kitty_flags.is_some();
        for report in reports {
            scheme_changed |= matches!(report, Report::ColorScheme { .. });
            colors_changed |= info.learn(report);
        }
        kitty_late = !had_kitty && info.kitty_flags.is_some();
        (
            before,
            info.caps(),
            !had_reports && info.has_mode(2031),
            info.colors.is_dark(),
        )
    };
    if kitty_late {
        let _ = render
            .send(RenderControl::Passthrough(Bytes::from_static(
                ENABLE_KITTY_KEYS,
            )))
            .await;
    }
    if colors_changed {
        terminals.changed();
        let _ = render
            .send(RenderControl::Background(dark_background))
            .await;
    }
    if before != after {
        let _ = render.send(RenderControl::Caps(after)).await;
    }
    if scheme_reports {
        // Its answer came after the attach stopped waiting: turned on now.
        let _ = render
            .send(RenderControl::Passthrough(Bytes::from_static(
                ENABLE_COLOR_SCHEME_REPORTS,
            )))
            .await;
    }
    if scheme_changed {
        // Written in order with the frames, as a clipboard write is.
        let _ = render
            .send(RenderControl::Passthrough(Bytes::from_static(
                COLOR_QUERIES,
            )))
            .await;
    }
}
