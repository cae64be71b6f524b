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
    /// What the terminal had not taken of the queries by the deadline (a terminal that reads
    /// nothing for a while). Already counted as queued in its [`DirectWriter`]: the
    /// connection's writer task writes it before any frame.
    pub(super) unwritten: Option<Bytes>,
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
    if !write(&mut tty, QUERIES, deadline, &mut asked.unwritten).await {
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
        let _ = write(
            &mut tty,
            ENABLE_COLOR_SCHEME_REPORTS,
            deadline,
            &mut asked.unwritten,
        )
        .await;
    }
    if info.kitty_flags.is_some() {
        let _ = write(&mut tty, ENABLE_KITTY_KEYS, deadline, &mut asked.unwritten).await;
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
/// terminal that takes nothing: what it has not taken by then is kept in `unwritten` (later
/// bytes join it, in order), for the writer task. `false`: it is gone.
async fn write(
    tty: &mut Tty<'_>,
    bytes: &'static [u8],
    deadline: Instant,
    unwritten: &mut Option<Bytes>,
) -> bool {
    match tty {
        Tty::Direct(_, writer) => {
            if let Some(waiting) = unwritten {
                // Behind what the terminal has not taken yet, in the same queued message.
                *waiting = [&waiting[..], bytes].concat().into();
                return true;
            }
            // Before the first frame nothing else writes here: the rest is written now.
            let mut left = None;
            writer.write_or_queue(Bytes::from_static(bytes), |rest| {
                left = Some(rest);
                true
            });
            let Some(rest) = left else {
                return true;
            };
            match writer.write_queued_until(rest, deadline).await {
                Ok(still) => {
                    *unwritten = still;
                    true
                }
                Err(_) => false,
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::os::fd::OwnedFd;
    use std::os::unix::net::UnixStream;
    use weft_pty_io::PtyWriter;

    fn file(stream: UnixStream) -> std::fs::File {
        std::fs::File::from(OwnedFd::from(stream))
    }

    #[tokio::test]
    async fn queries_a_terminal_has_not_taken_by_the_deadline_wait_for_the_writer_task() {
        let (mut ours, mut terminal) = UnixStream::pair().expect("pair");
        // A terminal that reads nothing for now: its side is full.
        ours.set_nonblocking(true).expect("non-blocking");
        let mut filled = 0;
        while let Ok(n) = ours.write(&[b'.'; 4096]) {
            filled += n;
        }
        let writer = DirectWriter::new(PtyWriter::from_file(file(ours)).expect("writer"));
        let (keys, _keys_other_end) = UnixStream::pair().expect("pair");
        let mut reader = PtyReader::from_file(file(keys)).expect("reader");
        let mut tty = Tty::Direct(&mut reader, &writer);
        let mut unwritten = None;
        let deadline = Instant::now() + std::time::Duration::from_millis(10);
        assert!(write(&mut tty, QUERIES, deadline, &mut unwritten).await);
        assert!(write(&mut tty, ENABLE_KITTY_KEYS, deadline, &mut unwritten).await);
        let expected = [QUERIES, ENABLE_KITTY_KEYS].concat();
        let unwritten = unwritten.expect("the terminal took nothing");
        assert_eq!(unwritten[..], expected[..], "kept whole and in order");
        assert!(
            !writer.is_idle(),
            "counted as queued, so no frame overtakes it"
        );
        // The terminal reads again; the writer task writes what was kept, once.
        let wanted = filled + expected.len();
        let drained = std::thread::spawn(move || {
            let mut got = vec![0u8; wanted];
            terminal.read_exact(&mut got).expect("read");
            got
        });
        writer.write_queued(&unwritten).await.expect("write");
        assert!(writer.is_idle());
        let got = drained.join().expect("reader");
        assert_eq!(got[filled..], expected[..]);
    }
}
