//! Server-wide commands: list-sessions, kill-session, kill-server, list-commands,
//! lock-session, lock-server.

use super::{Action, Entry, Long};
use crate::outcome::{not_found, CommandError, Output, TargetKind};
use futures::FutureExt;

/// `list-sessions`.
pub static LIST_SESSIONS: Entry = Entry {
    name: "list-sessions",
    aliases: &["ls"],
    usage: "[--json] [-F format] [-f filter]",
    about: "List the sessions; -F a format per session (#{session_name}, #{session_windows}, \
            #{session_attached}, #{session_created}, ...); -f only the sessions a format is \
            true for (-f '#{session_attached}').",
    flags: "F:f:",
    long: &[Long::switch("json")],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        let json = args.json();
        let format = args.value('F').map(str::to_string);
        let filter = args.value('f').map(str::to_string);
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                // Expanded in each session, where its windows, panes and options are: the
                // format's line, or `-f`'s verdict (`1`), for each.
                let in_each = |f: String| {
                    let ctx = ctx.clone();
                    async move {
                        let mut out = Vec::new();
                        for handle in ctx.registry.all().await {
                            let f = f.clone();
                            let action =
                                Box::new(move |s: &mut crate::session::SessionState, _: &_| {
                                    Ok(Output::text(match s.current_format_context() {
                                        Some(context) => crate::format::expand(&f, &context),
                                        None => crate::format::expand(&f, &session_vars(&s.info())),
                                    }))
                                });
                            if let Ok(done) = handle.run(action, Default::default()).await {
                                out.push((handle.id.to_string(), done.stdout));
                            }
                        }
                        out
                    }
                };
                let passing: Option<Vec<String>> = match &filter {
                    Some(f) => Some(
                        in_each(f.clone())
                            .await
                            .into_iter()
                            .filter(|(_, v)| crate::format::truthy(v))
                            .map(|(id, _)| id)
                            .collect(),
                    ),
                    None => None,
                };
                let passes = |id: &str| passing.as_ref().is_none_or(|p| p.iter().any(|k| k == id));
                if let Some(f) = &format {
                    let lines: Vec<String> = in_each(f.clone())
                        .await
                        .into_iter()
                        .filter(|(id, _)| passes(id))
                        .map(|(_, line)| line)
                        .collect();
                    return Ok(Output::text(lines.join("\n")));
                }
                let mut sessions = ctx.registry.list().await;
                sessions.retain(|s| passes(&s.id));
                if json {
                    let text = serde_json::to_string(&sessions)
                        .map_err(|e| CommandError::failed(format!("cannot list sessions: {e}")))?;
                    return Ok(Output::text(text));
                }
                let lines: Vec<String> = sessions
                    .iter()
                    .map(|s| {
                        format!(
                            "{}: {} windows (created {}) [{}x{}]{}",
                            crate::names::clean_name(&s.name),
                            s.windows,
                            created(s.created),
                            s.cols,
                            s.rows,
                            if s.clients > 0 { " (attached)" } else { "" }
                        )
                    })
                    .collect();
                Ok(Output::text(lines.join("\n")))
            }
            .boxed()
        })))
    },
};

/// A session's creation time as a user reads it (local time, like tmux's `ls`).
pub(super) fn created(secs: u64) -> String {
    let Ok(secs) = i64::try_from(secs) else {
        return secs.to_string();
    };
    match chrono::DateTime::from_timestamp(secs, 0) {
        Some(utc) => utc
            .with_timezone(&chrono::Local)
            .format("%a %b %e %H:%M:%S %Y")
            .to_string(),
        None => secs.to_string(),
    }
}

/// `kill-session`.
pub static KILL_SESSION: Entry = Entry {
    name: "kill-session",
    aliases: &[],
    usage: "[-aC] [-t target-session]",
    about: "End a session and its programs (without -t: the current one); -a every session \
            but that one; -C instead clears its windows' alerts. From the command line, \
            returns once the sessions are gone.",
    flags: "aCt:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Session),
    build: |args| {
        args.no_arguments()?;
        if args.has('C') {
            return Ok(super::on_session(|s, _| {
                s.clear_alerts();
                Ok(Output::none())
            }));
        }
        if args.has('a') {
            // Every session but the one the target's pane (else the command's) is in.
            return Ok(super::io::pane_server_action(|pane, ctx| async move {
                let keep = ctx.registry.find_pane(pane.id()).await.map(|h| h.id);
                let others: Vec<_> = ctx
                    .registry
                    .all()
                    .await
                    .into_iter()
                    .filter(|h| Some(h.id) != keep)
                    .collect();
                for session in &others {
                    session.send(crate::session::SessionCommand::Kill).await;
                }
                for session in others {
                    let _ = tokio::time::timeout(KILL_SESSION_WAIT, session.gone()).await;
                }
                Ok(Output::none())
            }));
        }
        let Some(target) = args.target() else {
            // The session the command comes from, as tmux: its programs are hung up, and the
            // session ends with the last of them.
            return Ok(super::on_session(|s, _| {
                for pane in s.panes.values() {
                    pane.kill();
                }
                Ok(Output::none())
            }));
        };
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                let session = ctx
                    .registry
                    .find(Some(target.clone()))
                    .await
                    .ok_or_else(|| not_found(TargetKind::Session, target))?;
                session.send(crate::session::SessionCommand::Kill).await;
                // As tmux: once this returns, the session is gone from every listing. Its
                // programs were hung up and are killed 500 ms later if still there.
                let _ = tokio::time::timeout(KILL_SESSION_WAIT, session.gone()).await;
                Ok(Output::none())
            }
            .boxed()
        })))
    },
};

/// `has-session`: scripts test for a session before creating it.
pub static HAS_SESSION: Entry = Entry {
    name: "has-session",
    aliases: &["has"],
    usage: "[-t target-session]",
    about: "Exit 0 if the session exists (without -t: any session), else 1 with a message.",
    flags: "t:",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        let target = args.target();
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                let all = ctx.registry.all().await;
                let found = match &target {
                    None => !all.is_empty(),
                    Some(t) => {
                        let name = t.strip_suffix(':').unwrap_or(t);
                        let id = crate::ids::SessionId::parse(name);
                        all.iter().any(|s| Some(s.id) == id || s.name() == name)
                    }
                };
                match (found, target) {
                    (true, _) => Ok(Output::none()),
                    (false, Some(t)) => Err(not_found(TargetKind::Session, t)),
                    (false, None) => Err(CommandError::NoSessions),
                }
            }
            .boxed()
        })))
    },
};

/// How long `kill-session` waits for the session to be gone: its programs are killed 500 ms
/// after their hang-up, so this is only reached when something else is stuck.
const KILL_SESSION_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// `kill-server`.
pub static KILL_SERVER: Entry = Entry {
    name: "kill-server",
    aliases: &[],
    usage: "",
    about: "End every session and the server; returns once the server is gone.",
    flags: "",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        args.no_arguments()?;
        Ok(Action::Server(Box::new(|ctx| {
            async move {
                ctx.registry.kill_server().await;
                Ok(Output {
                    until_exit: true,
                    ..Output::default()
                })
            }
            .boxed()
        })))
    },
};

/// `lock-session`.
pub static LOCK_SESSION: Entry = Entry {
    name: "lock-session",
    aliases: &["locks"],
    usage: "[-t target-session]",
    about: "Lock every client of the session: each runs lock-command on its terminal and shows \
            the session again once that exits.",
    flags: "t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Session),
    build: |args| {
        args.no_arguments()?;
        Ok(super::on_session(|s, _| {
            s.lock_clients()?;
            Ok(Output::none())
        }))
    },
};

/// `lock-server`.
pub static LOCK_SERVER: Entry = Entry {
    name: "lock-server",
    aliases: &["lock"],
    usage: "",
    about: "Lock every client of every session (see lock-session).",
    flags: "",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        args.no_arguments()?;
        Ok(Action::Server(Box::new(|ctx| {
            async move {
                for handle in ctx.registry.all().await {
                    handle.send(crate::session::SessionCommand::Lock).await;
                }
                Ok(Output::none())
            }
            .boxed()
        })))
    },
};

/// `list-commands`.
pub static LIST_COMMANDS: Entry = Entry {
    name: "list-commands",
    aliases: &["lscm"],
    usage: "",
    about: "List every command with its usage.",
    flags: "",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        Ok(Action::Server(Box::new(|_| {
            async move { Ok(Output::text(super::list().join("\n"))) }.boxed()
        })))
    },
};

/// The format variables of a session as `list-sessions -F` sees it.
fn session_vars(s: &weft_protocol::SessionInfo) -> std::collections::HashMap<String, String> {
    let flag = |b: bool| if b { "1" } else { "0" }.to_string();
    [
        ("session_name", crate::names::clean_name(&s.name)),
        ("session_id", s.id.clone()),
        ("session_windows", s.windows.to_string()),
        ("session_attached", s.clients.to_string()),
        ("session_many_attached", flag(s.clients > 1)),
        ("session_created", s.created.to_string()),
        ("session_width", s.cols.to_string()),
        ("session_height", s.rows.to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}
