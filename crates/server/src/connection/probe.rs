//! Asking an attaching client's terminal what it can do, and taking in what it says.
//!
//! The queries ([`QUERIES`]) go out just before the first frame, which does not wait for the
//! answers: it is drawn with what `TERM` and `COLORTERM` say, at once, as tmux draws. Waiting
//! would cost every attach the terminal's round trip (a network's, over ssh) and a terminal
//! that never answers a fixed delay. The answers come back among the keys, are taken out of
//! them ([`super::terminal_keys::TerminalKeys`]) and taken in by [`take_in`]: the renderer
//! learns what the terminal understands, and features that need turning on are turned on.

use super::Conn;
use crate::direct::DirectWriter;
use crate::render::RenderControl;
use crate::terminal::{
    Report, TerminalInfo, Terminals, COLOR_QUERIES, ENABLE_COLOR_SCHEME_REPORTS, ENABLE_KITTY_KEYS,
    QUERIES,
};
use bytes::Bytes;
use futures::SinkExt;
use std::sync::Mutex;
use tokio::sync::mpsc;
use weft_protocol::Message;

/// Where the client's terminal is: handed over to the server, or behind the client's socket.
pub(super) enum Tty<'a> {
    /// The server writes it itself.
    Direct(&'a DirectWriter),
    /// Frames cross the socket (`WEFT_TTY_PROXY=1`).
    Socket(&'a mut Conn),
}

/// The connection went away while the queries were sent.
pub(super) struct Gone;

/// Sends [`QUERIES`] without waiting for the answers (see the module's documentation).
/// Returns what a terminal written to directly did not take at once: already counted as
/// queued in its [`DirectWriter`], for the connection's writer task to write before any frame.
pub(super) async fn ask(tty: Tty<'_>) -> Result<Option<Bytes>, Gone> {
    match tty {
        Tty::Direct(writer) => {
            // Before the first frame nothing else writes here.
            let mut left = None;
            writer.write_or_queue(Bytes::from_static(QUERIES), |rest| {
                left = Some(rest);
                true
            });
            Ok(left)
        }
        Tty::Socket(conn) => conn
            .send(Message::Output(Bytes::from_static(QUERIES)))
            .await
            .map(|()| None)
            .map_err(|_| Gone),
    }
}

/// Takes in the terminal's answers: what was learned is kept, programs are answered with new
/// colours, the renderer is told what the terminal turned out to understand, colour scheme
/// reports and kitty keys are turned on where the terminal has them, and a terminal that
/// reports a new colour scheme is asked its colours again.
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
    let kitty_found: bool;
    let (before, after, scheme_reports, dark_background) = {
        let Ok(mut info) = info.lock() else { return };
        let (before, had_reports) = (info.caps(), info.has_mode(2031));
        let had_kitty = info.kitty_flags.is_some();
        let mut answered = false;
        for report in reports {
            scheme_changed |= matches!(report, Report::ColorScheme { .. });
            answered |= matches!(report, Report::PrimaryAttributes(_));
            colors_changed |= info.learn(report);
        }
        if answered {
            tracing::debug!(
                version = info.version_text.as_deref().unwrap_or(""),
                features = ?info.features(),
                "the client's terminal"
            );
        }
        kitty_found = !had_kitty && info.kitty_flags.is_some();
        (
            before,
            info.caps(),
            !had_reports && info.has_mode(2031),
            info.colors.is_dark(),
        )
    };
    if kitty_found {
        let _ = render
            .send(RenderControl::TerminalSetup(ENABLE_KITTY_KEYS))
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
        let _ = render
            .send(RenderControl::TerminalSetup(ENABLE_COLOR_SCHEME_REPORTS))
            .await;
    }
    if scheme_changed {
        // Written in order with the frames, as a clipboard write is.
        let _ = render
            .send(RenderControl::TerminalSetup(COLOR_QUERIES))
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
    async fn queries_a_terminal_does_not_take_at_once_wait_for_the_writer_task() {
        let (mut ours, mut terminal) = UnixStream::pair().expect("pair");
        // A terminal that reads nothing for now: its side is full.
        ours.set_nonblocking(true).expect("non-blocking");
        let mut filled = 0;
        while let Ok(n) = ours.write(&[b'.'; 4096]) {
            filled += n;
        }
        let writer = DirectWriter::new(PtyWriter::from_file(file(ours)).expect("writer"));
        let unwritten = ask(Tty::Direct(&writer))
            .await
            .ok()
            .flatten()
            .expect("the terminal took nothing");
        assert_eq!(unwritten[..], QUERIES[..], "kept whole");
        assert!(
            !writer.is_idle(),
            "counted as queued, so no frame overtakes it"
        );
        // The terminal reads again; the writer task writes what was kept, once.
        let wanted = filled + QUERIES.len();
        let drained = std::thread::spawn(move || {
            let mut got = vec![0u8; wanted];
            terminal.read_exact(&mut got).expect("read");
            got
        });
        writer.write_queued(&unwritten).await.expect("write");
        assert!(writer.is_idle());
        let got = drained.join().expect("reader");
        assert_eq!(got[filled..], QUERIES[..]);
    }
}
