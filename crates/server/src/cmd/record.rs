//! `record-pane` (`weft record`): a pane's output as an asciicast v2 recording, streamed until
//! the pane's program ends or the reader goes away.
//!
//! The recording starts with the screen as it is (drawn as escapes at time 0), then every
//! piece of output the screen is given, every resize, and with `--input` what was sent to the
//! program. The pane never waits for the recorder: its tap holds at most
//! [`crate::pane::MAX_RECORD_QUEUED_BYTES`], and past that output is dropped until the
//! recorder has caught up; a marker event (`"m"`) then says how much, and the whole screen is
//! drawn again after it (see [`crate::pane::RecordTap::close_gap`]).

use super::io::pane_server_action;
use super::{Entry, Long};
use crate::outcome::{CommandError, Output, TargetKind, OUTPUT_STREAM_PIECES};
use crate::pane::{RecordEvent, RecordTap};
use bytes::Bytes;
use std::time::{SystemTime, UNIX_EPOCH};
use tokio::sync::mpsc;
use weft_artifacts::asciicast::{push_event, Header, Utf8Carry};

/// Events are sent to the client in pieces of about this much JSON: a piece is one frame.
const RECORD_PIECE_BYTES: usize = 64 * 1024;

/// `record-pane`.
pub static RECORD_PANE: Entry = Entry {
    name: "record-pane",
    aliases: &["recordp"],
    usage: "[-t target-pane] [--input]",
    about: "Print the pane's output as an asciicast v2 recording until its program ends or \
            the reader stops: the screen as it is first, then output, resizes, and with \
            --input what is sent to the program. A reader that falls behind by 4 MiB loses \
            output; a marker event (\"m\") says how much and the whole screen follows it. \
            `weft record -o FILE` writes one to a file.",
    flags: "t:",
    long: &[Long::switch("input")],
    // With --input it sees what others type (a password at a prompt that does not echo too):
    // not for read-only clients.
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        args.no_arguments()?;
        let input = args.has_long("input");
        Ok(pane_server_action(move |pane, ctx| async move {
            let tap = pane
                .record(input)
                .map_err(|e| CommandError::failed(format!("record-pane: {e}")))?;
            let term = ctx.config.borrow().default_term.clone();
            let header = Header {
                width: tap.size.0,
                height: tap.size.1,
                timestamp: SystemTime::now()
                    .duration_since(UNIX_EPOCH)
                    .ok()
                    .map(|d| d.as_secs()),
                title: Some(format!("weft pane {}", pane.id())),
                term: Some(term),
            };
            let mut first = header.to_line();
            push_event(&mut first, 0.0, "o", &tap.frame);
            let (tx, rx) = mpsc::channel(OUTPUT_STREAM_PIECES);
            // The pane's handle is not kept: a recording does not hold its pane's task.
            drop(pane);
            tokio::spawn(stream_events(tap, tx));
            Ok(Output {
                stdout: first,
                stream: Some(rx),
                ..Output::default()
            })
        }))
    },
};

/// Sends the tap's events as asciicast lines until the pane's program ends (and everything it
/// printed is sent) or the reader goes away (the tap closes with the task).
async fn stream_events(tap: RecordTap, tx: mpsc::Sender<Bytes>) {
    let mut carry = Utf8Carry::new();
    let mut last_at = 0.0;
    let mut piece = String::new();
    let mut ended = false;
    loop {
        let ready = tap.queue.ready();
        let mut took = false;
        while piece.len() < RECORD_PIECE_BYTES {
            let Some(event) = tap.queue.pop() else { break };
            took = true;
            encode(&mut piece, &mut carry, event, &mut last_at);
        }
        if !piece.is_empty() {
            if tx
                .send(Bytes::from(std::mem::take(&mut piece)))
                .await
                .is_err()
            {
                return;
            }
            continue;
        }
        if took || tap.close_gap() {
            continue;
        }
        if ended {
            break;
        }
        tokio::select! {
            _ = ready => {}
            _ = tap.stop.cancelled() => ended = true,
            _ = tx.closed() => return,
        }
    }
    let rest = carry.finish();
    if !rest.is_empty() {
        let mut last = String::new();
        push_event(&mut last, last_at, "o", &rest);
        let _ = tx.send(Bytes::from(last)).await;
    }
}

/// Appends `event` as asciicast lines; `last_at` is the time of the latest.
fn encode(out: &mut String, carry: &mut Utf8Carry, event: RecordEvent, last_at: &mut f64) {
    let (RecordEvent::Output(at, _)
    | RecordEvent::Input(at, _)
    | RecordEvent::Resize(at, ..)
    | RecordEvent::Gap(at, _)) = &event;
    *last_at = at.as_secs_f64();
    match event {
        RecordEvent::Output(at, bytes) => {
            let text = carry.push(&bytes);
            if !text.is_empty() {
                push_event(out, at.as_secs_f64(), "o", &text);
            }
        }
        RecordEvent::Input(at, bytes) => {
            push_event(out, at.as_secs_f64(), "i", &String::from_utf8_lossy(&bytes));
        }
        RecordEvent::Resize(at, cols, rows) => {
            push_event(out, at.as_secs_f64(), "r", &format!("{cols}x{rows}"));
        }
        RecordEvent::Gap(at, dropped) => {
            // What was held of a character is gone with the bytes around it.
            let _ = carry.finish();
            let note = format!(
                "weft: the recorder fell behind and {dropped} bytes of output were dropped; \
                 the whole screen follows"
            );
            push_event(out, at.as_secs_f64(), "m", &note);
        }
    }
}
