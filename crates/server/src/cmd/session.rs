//! Commands about sessions and the clients that show them: switch-client, rename-session,
//! new-session (from the prompt), list-clients. Switching and renaming are carried out by the
//! client (from a key or the prompt) or, from the command line, on the session's clients; the
//! helpers here are shared by both paths.

use super::{Action, ClientRequest, Entry, Long};
use crate::context::ServerContext;
use crate::ids::ClientId;
use crate::outcome::{not_found, CommandError, Output, TargetKind};
use crate::session::{ClientInfo, SessionHandle, AWAY_PREFIX};
use futures::FutureExt;
use std::sync::{Arc, Mutex};

/// Where `switch-client` goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SwitchTo {
    /// The session `-t` names.
    Target(String),
    /// The next session by id, wrapping (`-n`).
    Next,
    /// The previous session by id, wrapping (`-p`).
    Previous,
    /// The session the client showed before (`-l`).
    Last,
    /// The client's session (id `ended`) has ended and `detach-on-destroy` says to show
    /// another: `how` is the option's value (`off`: the one shown before, else the next).
    Away {
        /// The ended session's id number.
        ended: u64,
        /// `off`, `previous`, `next` or `no-detached`.
        how: String,
    },
}

impl SwitchTo {
    /// As carried to a client from the command line: `+`, `-`, `!`, or the target itself.
    pub fn encode(&self) -> String {
        match self {
            SwitchTo::Target(t) => t.clone(),
            SwitchTo::Next => "+".into(),
            SwitchTo::Previous => "-".into(),
            SwitchTo::Last => "!".into(),
            SwitchTo::Away { ended, how } => format!("{AWAY_PREFIX}{ended} {how}"),
        }
    }

    /// The reverse of [`SwitchTo::encode`].
    pub fn decode(text: &str) -> Self {
        match text {
            "+" => SwitchTo::Next,
            "-" => SwitchTo::Previous,
            "!" => SwitchTo::Last,
            t => match t.strip_prefix(AWAY_PREFIX).and_then(|r| r.split_once(' ')) {
                Some((ended, how)) => SwitchTo::Away {
                    ended: ended.parse().unwrap_or(0),
                    how: how.to_string(),
                },
                None => SwitchTo::Target(t.to_string()),
            },
        }
    }
}

/// `switch-client`.
pub static SWITCH_CLIENT: Entry = Entry {
    name: "switch-client",
    aliases: &["switchc"],
    usage: "[-lnp] [-c target-client] [-t target-session] [-T key-table]",
    about: "Show another session in this client: the one -t names, the next (-n), the \
            previous (-p) or the last one shown (-l). From the command line: the client -c \
            names, else the most recently active client of the current session. -T: the next key \
            is looked up in that key table (a table of your own, made with bind -T).",
    flags: "lnpc:t:T:",
    long: &[],
    read_only: true,
    target: Some(TargetKind::Session),
    build: |args| {
        args.no_arguments()?;
        if let Some(table) = args.value('T') {
            return Ok(Action::Client(ClientRequest::KeyTable {
                table: table.to_string(),
            }));
        }
        let to = if args.has('n') {
            SwitchTo::Next
        } else if args.has('p') {
            SwitchTo::Previous
        } else if args.has('l') {
            SwitchTo::Last
        } else if let Some(t) = args.target() {
            SwitchTo::Target(t)
        } else {
            return Err(args.usage("one of -t, -n, -p or -l is needed"));
        };
        Ok(Action::Client(ClientRequest::Switch {
            client: args.value('c').map(str::to_string),
            to,
        }))
    },
};

/// `choose-tree`.
pub static CHOOSE_TREE: Entry = Entry {
    name: "choose-tree",
    aliases: &[],
    usage: "[-NswZ]",
    about: "Choose a session, window or pane from a tree with a preview: Up/Down move, \
            Right/Left expand and collapse, Enter switches, x kills, f filters, q leaves. -s \
            starts with sessions collapsed, -w with their windows shown, -N without the \
            preview.",
    flags: "NswZ",
    long: &[],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        Ok(Action::Client(ClientRequest::ChooseTree {
            windows: args.has('w'),
            no_preview: args.has('N'),
        }))
    },
};

/// The windows of `session`, for `choose-tree`; none once it has ended.
pub async fn windows_of(session: &SessionHandle) -> Vec<crate::session::TreeWindow> {
    let found: Arc<Mutex<Vec<crate::session::TreeWindow>>> = Arc::default();
    let into = found.clone();
    let _ = session
        .run(
            Box::new(move |state, _| {
                if let Ok(mut list) = into.lock() {
                    *list = state.tree();
                }
                Ok(Output::none())
            }),
            crate::session::Scope::default(),
        )
        .await;
    let list = found.lock().map(|l| l.clone()).unwrap_or_default();
    list
}

/// `find-window`.
pub static FIND_WINDOW: Entry = Entry {
    name: "find-window",
    aliases: &["findw"],
    usage: "[-iCNrTZ] [-t target-session] match-string",
    about: "Show the first window whose name (-N), pane titles (-T) or visible text (-C) hold \
            the string (all three without those flags), and list the others that match. -r: \
            the string is a regular expression. Case is ignored (-i is taken for tmux's sake).",
    flags: "iCNrTZt:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Session),
    build: |args| {
        let text = args.positional.join(" ");
        if text.is_empty() {
            return Err(args.usage("a string to find is needed"));
        }
        let (name, title, content) = (args.has('N'), args.has('T'), args.has('C'));
        let all = !(name || title || content);
        let how = FindIn {
            name: all || name,
            title: all || title,
            content: all || content,
            regex: args.has('r'),
        };
        if how.regex {
            FindIn::matcher(&text, true)
                .map_err(|e| args.usage(format!("-r takes a regular expression: {e}")))?;
        }
        Ok(Action::Client(ClientRequest::FindWindow { text, how }))
    },
};

/// Where `find-window` looks, and how it matches.
#[derive(Clone, Copy, Debug)]
pub struct FindIn {
    /// The window's name (`-N`).
    pub name: bool,
    /// Its panes' titles (`-T`).
    pub title: bool,
    /// Its panes' visible text (`-C`).
    pub content: bool,
    /// The string is a regular expression (`-r`).
    pub regex: bool,
}

impl FindIn {
    /// A case-blind matcher for `text`, as a regular expression or as plain text.
    fn matcher(text: &str, regex: bool) -> Result<regex::Regex, regex::Error> {
        let pattern = if regex {
            text.to_string()
        } else {
            regex::escape(text)
        };
        regex::RegexBuilder::new(&pattern)
            .case_insensitive(true)
            .size_limit(1 << 20)
            .build()
    }
}

/// Finds the windows of `session` whose name, pane titles or visible text (as `how` says)
/// match `text`, shows the first and says which matched (or that none did).
pub async fn find_window(
    session: &SessionHandle,
    text: &str,
    how: FindIn,
) -> Result<String, CommandError> {
    let matcher = FindIn::matcher(text, how.regex)
        .map_err(|e| CommandError::failed(format!("find-window: {e}")))?;
    let mut found = Vec::new();
    for w in windows_of(session).await {
        let mut hit = (how.name && matcher.is_match(&w.name))
            || (how.title && w.panes.iter().any(|p| matcher.is_match(&p.1)));
        for pane in w.panes.iter().filter(|_| how.content) {
            if hit {
                break;
            }
            let options = crate::capture::CaptureOptions::default();
            if let Some((screen, _)) = pane.3.capture(options).await {
                hit = matcher.is_match(&screen);
            }
        }
        if hit {
            found.push(w);
        }
    }
    let Some(first) = found.first() else {
        return Err(CommandError::failed(format!(
            "find-window: no window matches {text:?}"
        )));
    };
    let id = first.id;
    session
        .run(
            Box::new(move |state, _| {
                if let Some(pos) = state.windows.iter().position(|w| w.id == id) {
                    state.select_window_at(pos);
                }
                Ok(Output::none())
            }),
            crate::session::Scope::default(),
        )
        .await?;
    let list: Vec<String> = found
        .iter()
        .map(|w| format!("{}:{}", w.index, w.name))
        .collect();
    Ok(format!(
        "find-window: {} matched ({}), showing {}:{}",
        found.len(),
        list.join(" "),
        first.index,
        first.name
    ))
}

/// `rename-session`.
pub static RENAME_SESSION: Entry = Entry {
    name: "rename-session",
    aliases: &["rename"],
    usage: "[-t target-session] new-name",
    about: "Rename a session (this client's, or the one -t names).",
    flags: "t:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Session),
    build: |args| {
        let [name] = args.positional.as_slice() else {
            return Err(args.usage("one new name is needed"));
        };
        Ok(Action::Client(ClientRequest::RenameSession {
            target: args.target(),
            name: name.clone(),
        }))
    },
};

/// `new-session` as typed at the prompt or bound to a key (the command line's `weft new` is
/// the client's own command): creates a session and shows it in this client, unless `-d`.
pub static NEW_SESSION: Entry = Entry {
    name: "new-session",
    aliases: &["new"],
    usage: "[-Ad] [-s session-name] [-n window-name] [-c start-directory] [command ...]",
    about: "Create a session and switch this client to it (-d: stay); -A switches to the \
            session if it exists already.",
    flags: "Adc:n:s:",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        Ok(Action::Client(ClientRequest::NewSession {
            window_name: args.value('n').map(str::to_string),
            name: args.value('s').map(str::to_string),
            detached: args.has('d'),
            existing: args.has('A'),
            cwd: args.value('c').map(str::to_string),
            command: args.positional.clone(),
        }))
    },
};

/// `list-clients`.
pub static LIST_CLIENTS: Entry = Entry {
    name: "list-clients",
    aliases: &["lsc"],
    usage: "[-t target-session] [--json] [-F format]",
    about: "List the attached clients (of one session with -t); -F a format per client \
            (#{client_name}, #{client_tty}, #{client_width}, #{client_height}, \
            #{client_session}, #{client_termname}, #{client_activity}, ...).",
    flags: "F:t:",
    long: &[Long::switch("json")],
    read_only: true,
    target: None,
    build: |args| {
        args.no_arguments()?;
        let json = args.json();
        let target = args.target();
        let format = args.value('F').map(str::to_string);
        Ok(Action::Server(Box::new(move |ctx| {
            async move {
                let sessions = match target {
                    Some(t) => vec![ctx
                        .registry
                        .find(Some(t.clone()))
                        .await
                        .ok_or_else(|| not_found(TargetKind::Session, t))?],
                    None => ctx.registry.all().await,
                };
                if let Some(f) = format {
                    let mut lines = Vec::new();
                    for session in &sessions {
                        let f = f.clone();
                        let action =
                            Box::new(move |s: &mut crate::session::SessionState, _: &_| {
                                Ok(Output::text(s.client_lines(&f).join("\n")))
                            });
                        if let Ok(out) = session.run(action, Default::default()).await {
                            lines.extend(out.stdout.lines().map(str::to_string));
                        }
                    }
                    return Ok(Output::text(lines.join("\n")));
                }
                let mut clients = Vec::new();
                for session in &sessions {
                    clients.extend(clients_of(session).await);
                }
                clients.sort_by_key(|c| c.attached);
                for c in &mut clients {
                    c.terminal = client_id(&c.name).and_then(|id| ctx.terminals.summary(id));
                }
                if json {
                    let text = serde_json::to_string(&clients)
                        .map_err(|e| CommandError::failed(format!("cannot list clients: {e}")))?;
                    return Ok(Output::text(text));
                }
                let lines: Vec<String> = clients
                    .iter()
                    .map(|c| {
                        // As tmux shows it: the size and the terminal's TERM.
                        let term = c
                            .terminal
                            .as_ref()
                            .and_then(|t| t.term.as_deref())
                            .map(|t| format!(" {t}"))
                            .unwrap_or_default();
                        format!(
                            "{}: {} [{}x{}{term}] (attached {}){}",
                            c.name,
                            c.session,
                            c.cols,
                            c.rows,
                            super::server::created(c.attached),
                            if c.read_only { " (read-only)" } else { "" }
                        )
                    })
                    .collect();
                Ok(Output::text(lines.join("\n")))
            }
            .boxed()
        })))
    },
};

/// The clients attached to `session`; none once it has ended.
pub async fn clients_of(session: &SessionHandle) -> Vec<ClientInfo> {
    let found: Arc<Mutex<Vec<ClientInfo>>> = Arc::default();
    let into = found.clone();
    let _ = session
        .run(
            Box::new(move |state, _| {
                if let Ok(mut list) = into.lock() {
                    *list = state.client_list();
                }
                Ok(Output::none())
            }),
            crate::session::Scope::default(),
        )
        .await;
    let list = found.lock().map(|l| l.clone()).unwrap_or_default();
    list
}

/// The client a name (`client-N`, as `list-clients` shows it) stands for.
pub fn client_id(name: &str) -> Option<ClientId> {
    ClientId::parse(name.strip_prefix("client-")?)
}

/// The session holding client `client`, if it is attached.
pub async fn session_of_client(ctx: &ServerContext, client: ClientId) -> Option<SessionHandle> {
    for session in ctx.registry.all().await {
        let name = format!("client-{client}");
        if clients_of(&session).await.iter().any(|c| c.name == name) {
            return Some(session);
        }
    }
    None
}

/// The session a switch from `current` leads to; `last` is the session the client showed
/// before, by id.
pub async fn switch_target(
    ctx: &ServerContext,
    current: &SessionHandle,
    last: Option<&str>,
    to: &SwitchTo,
) -> Result<SessionHandle, CommandError> {
    match to {
        SwitchTo::Target(t) => {
            let name = t.split_once(':').map_or(t.as_str(), |(s, _)| s);
            find_session(ctx, name).await
        }
        SwitchTo::Last => match last {
            Some(id) => find_session(ctx, id)
                .await
                .map_err(|_| CommandError::failed("no last session: it has ended")),
            None => Err(CommandError::failed(
                "no last session: this client has shown only this one",
            )),
        },
        SwitchTo::Next | SwitchTo::Previous => {
            let all = ctx.registry.all().await;
            let pos = all.iter().position(|s| s.id == current.id).unwrap_or(0);
            let n = all.len().max(1);
            let next = if *to == SwitchTo::Next {
                (pos + 1) % n
            } else {
                (pos + n - 1) % n
            };
            all.get(next).cloned().ok_or(CommandError::NoSessions)
        }
        SwitchTo::Away { ended, how } => {
            let all = ctx.registry.all().await;
            if how == "off" {
                if let Some(found) = match last {
                    Some(id) => find_session(ctx, id).await.ok(),
                    None => None,
                } {
                    return Ok(found);
                }
            }
            let after = all.iter().find(|s| s.id.get() > *ended);
            let before = all.iter().rev().find(|s| s.id.get() < *ended);
            let chosen = if how == "previous" {
                before.or(all.last())
            } else {
                after.or(all.first())
            };
            chosen.cloned().ok_or(CommandError::NoSessions)
        }
    }
}

async fn find_session(ctx: &ServerContext, name: &str) -> Result<SessionHandle, CommandError> {
    ctx.registry
        .find(Some(name.to_string()))
        .await
        .ok_or_else(|| not_found(TargetKind::Session, name))
}

/// Renames `session`: the registry checks the name and keeps it, then the session's status
/// line shows it.
pub async fn rename(
    ctx: &ServerContext,
    session: &SessionHandle,
    name: &str,
) -> Result<(), CommandError> {
    let old = session.name();
    let name = ctx.registry.rename(session.id, name.to_string()).await?;
    ctx.metrics.rename_session(&old, &name);
    session
        .run(
            Box::new(move |state, _| {
                state.rename(name);
                Ok(Output::none())
            }),
            crate::session::Scope::default(),
        )
        .await
        .map(drop)
}
