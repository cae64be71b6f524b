//! `subscribe`: a stream of JSON lines, one event each, of what happens in the server, a
//! session or a pane, until it ends or the reader goes away (`weft subscribe`).
//!
//! The events come from the server's feed ([`crate::events`]); each subscriber's task keeps
//! the ones in its scope in a bounded queue and reads panes' output only when it can send it
//! (see [`panes`] and [`subscriber`]). The command's output streams to the client
//! (`Output::stream`), and the connection ends the subscription when its client disconnects.

mod panes;
mod subscriber;

use super::{Action, Entry, Long};
use crate::cmd::run::{resolve_target, Origin};
use crate::context::ServerContext;
use crate::events::{EventKind, ServerEvent};
use crate::ids::{PaneId, SessionId};
use crate::outcome::{CommandError, Output, OUTPUT_STREAM_PIECES};
use crate::pane::PaneHandle;
use crate::session::{Scope, SessionHandle};
use futures::FutureExt;
use panes::Panes;
use std::sync::{Arc, Mutex};
use subscriber::Subscriber;

/// `subscribe`.
pub static SUBSCRIBE: Entry = Entry {
    name: "subscribe",
    aliases: &[],
    usage: "[-t target-session | target-pane] [--format json]",
    about: "Print what happens, one JSON object a line, until the server or the target ends: \
            pane output (the rows changed, at most one event per pane every 50 ms), titles, \
            bells, working directories, shell marks with exit status, programs exiting, \
            sessions, windows and panes added, removed, renamed or resized, layouts, clients \
            attaching and detaching. Without -t, the whole server. A reader that falls behind \
            misses events and is told how many with {\"event\":\"lagged\",\"lagged\":N}.",
    flags: "t:",
    long: &[Long::value("format")],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        if let Some(format) = args.long_value("format").filter(|f| *f != "json") {
            return Err(args.usage(format!(
                "--format {format:?} is not known: json is the one format"
            )));
        }
        let target = args.target();
        Ok(Action::Server(Box::new(move |ctx| {
            subscribe(ctx, target).boxed()
        })))
    },
};

/// What a subscription covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Within {
    /// Every session.
    Server,
    /// One session: its windows, panes and clients.
    Session(SessionId),
    /// One pane.
    Pane(PaneId),
}

impl Within {
    /// Whether `event` is in scope.
    fn covers(self, event: &ServerEvent) -> bool {
        match self {
            Within::Server => true,
            Within::Session(s) => event.session == Some(s),
            Within::Pane(p) => event.pane == Some(p),
        }
    }

    /// Whether `event` ends the subscription: the server exits, or the session or pane goes.
    fn ends_with(self, event: &ServerEvent) -> bool {
        match (&event.kind, self) {
            (EventKind::ServerExiting, _) => true,
            (EventKind::SessionClosed, Within::Session(s)) => event.session == Some(s),
            (EventKind::PaneExited { .. }, Within::Pane(p)) => event.pane == Some(p),
            _ => false,
        }
    }
}

/// Starts a subscription to what `target` names (the server without one): the first line
/// says it is in place, the rest streams.
async fn subscribe(ctx: ServerContext, target: Option<String>) -> Result<Output, CommandError> {
    // On the feed first, then the panes there are: a pane made in between is both, once.
    let feed = ctx.registry.events().subscribe();
    let mut panes = Panes::new();
    let (within, greeting) = match target.filter(|t| !t.is_empty()) {
        None => {
            for session in ctx.registry.all().await {
                watch_session(&session, &mut panes).await;
            }
            (Within::Server, serde_json::json!({ "event": "subscribed" }))
        }
        Some(t) => match ctx.registry.find(Some(t.clone())).await {
            Some(session) => {
                watch_session(&session, &mut panes).await;
                let greeting =
                    serde_json::json!({ "event": "subscribed", "session": session.id.to_string() });
                (Within::Session(session.id), greeting)
            }
            None => {
                let (session, rest) = resolve_target(&ctx, Some(t), &Origin::default()).await?;
                let pane = session
                    .resolve_pane(Scope {
                        target: rest,
                        from: None,
                    })
                    .await?;
                let id = pane.id();
                panes.watch_from_now(pane, Some(session.id));
                let greeting = serde_json::json!({
                    "event": "subscribed",
                    "session": session.id.to_string(),
                    "pane": id.to_string(),
                });
                (Within::Pane(id), greeting)
            }
        },
    };
    let (tx, rx) = tokio::sync::mpsc::channel(OUTPUT_STREAM_PIECES);
    let subscriber = Subscriber::new(within, feed, panes, ctx.metrics.clone());
    tokio::spawn(subscriber.run(tx));
    let mut first = Vec::new();
    push_line(&mut first, &greeting);
    Ok(Output {
        stdout: String::from_utf8(first).unwrap_or_default(),
        stream: Some(rx),
        ..Output::default()
    })
}

/// Watches every pane of `session` from what it shows now.
async fn watch_session(session: &SessionHandle, panes: &mut Panes) {
    let found: Arc<Mutex<Vec<PaneHandle>>> = Arc::default();
    let into = found.clone();
    let listed = session
        .run(
            Box::new(move |state, _| {
                if let Ok(mut list) = into.lock() {
                    list.extend(state.panes.values().cloned());
                }
                Ok(Output::none())
            }),
            Scope::default(),
        )
        .await;
    if listed.is_err() {
        return; // It ended meanwhile: its end is on the feed.
    }
    let handles = found.lock().map(|l| l.clone()).unwrap_or_default();
    for handle in handles {
        panes.watch_from_now(handle, Some(session.id));
    }
}

/// Appends `value` and a newline to `out`.
fn push_line(out: &mut Vec<u8>, value: &serde_json::Value) {
    if serde_json::to_writer(&mut *out, value).is_ok() {
        out.push(b'\n');
    }
}
