//! Running a parsed command where it belongs: the session or pane its target names, the server,
//! or (handed back) the client that typed it.

use super::{Action, ClientRequest, Parsed};
use crate::context::ServerContext;
use crate::ids::PaneId;
use crate::outcome::{not_found, CommandError, Output, TargetKind};
use crate::session::{Scope, SessionHandle};

/// Where a command comes from: the session and pane it was typed in, if any.
#[derive(Clone, Debug, Default)]
pub struct Origin {
    /// `$N` of the session the command was typed in (`$WEFT`, or the client's session).
    pub session: Option<String>,
    /// The pane it was typed in (`$WEFT_PANE`, or the client's active pane).
    pub pane: Option<PaneId>,
    /// The window whose tab in the status line a mouse binding runs for: `=` names it.
    pub mouse_window: Option<u32>,
}

impl Origin {
    /// From the `$WEFT_PANE` (`%N`) and session (`$N`) a CLI client sends.
    pub fn from_env(pane: Option<&str>, session: Option<&str>) -> Self {
        Origin {
            session: session.map(str::to_string),
            pane: pane.and_then(PaneId::parse),
            mouse_window: None,
        }
    }
}

/// What running a command came to.
#[derive(Debug)]
pub enum Ran {
    /// It ran: this is what it printed.
    Output(Output),
    /// It concerns the client: the client's loop carries it out.
    Client(ClientRequest),
}

/// Runs `parsed` where its target says; once it succeeded, fires its `after-` hook (and
/// `window-renamed` for `rename-window`) when set.
pub async fn execute(
    ctx: &ServerContext,
    parsed: Parsed,
    origin: &Origin,
) -> Result<Ran, CommandError> {
    let name = parsed.entry.name;
    let (ran, session) = execute_in(ctx, parsed, origin).await?;
    if matches!(ran, Ran::Output(_)) {
        let session = session.or_else(|| {
            let named = origin.session.as_deref();
            named.and_then(crate::ids::SessionId::parse)
        });
        fire_after(ctx, name, session);
    }
    Ok(ran)
}

/// Fires the hooks set for command `name` having run in `session`: `after-<name>`, and
/// `window-renamed` after `rename-window`. Their commands run in the session's active pane:
/// after new-window or split-window, the new one.
fn fire_after(ctx: &ServerContext, name: &str, session: Option<crate::ids::SessionId>) {
    let after = format!("after-{name}");
    let renamed = (name == "rename-window").then(|| "window-renamed".to_string());
    let set: Vec<String> = {
        let config = ctx.config.borrow();
        std::iter::once(after)
            .chain(renamed)
            .filter(|h| config.hooks.is_set(h))
            .collect()
    };
    for hook in set {
        ctx.hooks.fire(crate::hooks::HookEvent {
            name: hook,
            session,
            pane: None,
            depth: crate::hooks::current_depth(),
        });
    }
}

/// Runs `parsed` where its target says; also says which session it ran in, if one.
async fn execute_in(
    ctx: &ServerContext,
    parsed: Parsed,
    origin: &Origin,
) -> Result<(Ran, Option<crate::ids::SessionId>), CommandError> {
    let from = if parsed.target.is_none() {
        origin.pane
    } else {
        None
    };
    // A command that takes a session refuses a name no session has, rather than reading it as
    // a window of the current session (`list-windows -t nosuch`). Client commands' -t names a
    // client. Looked up without making the session the most recent.
    let client_target = parsed.entry.name.ends_with("-client");
    if parsed.entry.target == Some(TargetKind::Session) && !client_target {
        if let Some(t) = parsed.target.as_deref().filter(|t| !t.is_empty()) {
            let plain = !t.contains(':') && PaneId::parse(t).is_none();
            if plain && !session_exists(ctx, t).await {
                return Err(not_found(TargetKind::Session, t));
            }
        }
    }
    match parsed.action {
        Action::Server(action) => action(ctx.clone()).await.map(|o| (Ran::Output(o), None)),
        Action::Client(request) => Ok((Ran::Client(request), None)),
        Action::Session(action) => {
            let (session, target) = resolve_target(ctx, parsed.target, origin).await?;
            let output = session.run(action, Scope { target, from }).await?;
            Ok((Ran::Output(output), Some(session.id)))
        }
        Action::Pane(action) => {
            let (session, target) = resolve_target(ctx, parsed.target, origin).await?;
            let pane = session.resolve_pane(Scope { target, from }).await?;
            let output = action(pane, ctx.clone()).await?;
            Ok((Ran::Output(output), Some(session.id)))
        }
    }
}

/// The session a target names, and the window or pane part left for it to find: `%N` (the
/// session holding that pane), `session:rest`, a session name, or a window or pane of the
/// session the command comes from. Without a target, the session the command comes from, or the
/// most recent one.
pub async fn resolve_target(
    ctx: &ServerContext,
    target: Option<String>,
    origin: &Origin,
) -> Result<(SessionHandle, Option<String>), CommandError> {
    // `=` (`{mouse}`): the pane under the mouse, which a mouse key's binding runs in.
    let target = match target.as_deref() {
        Some("=" | "{mouse}") => match origin.mouse_window {
            Some(index) => Some(format!(":{index}")),
            None => origin.pane.map(|p| p.to_string()),
        },
        _ => target,
    };
    let Some(t) = target.filter(|t| !t.is_empty()) else {
        return origin_session(ctx, origin)
            .await
            .map(|h| (h, None))
            .ok_or(CommandError::NoSessions);
    };
    if let Some(id) = PaneId::parse(&t) {
        let h = ctx
            .registry
            .find_pane(id)
            .await
            .ok_or_else(|| not_found(TargetKind::Pane, t.as_str()))?;
        return Ok((h, Some(t)));
    }
    if let Some((session, rest)) = t.split_once(':') {
        let h = if session.is_empty() {
            origin_session(ctx, origin).await
        } else {
            ctx.registry.find(Some(session.to_string())).await
        }
        .ok_or_else(|| not_found(TargetKind::Session, session))?;
        return Ok((h, Some(rest.to_string()).filter(|r| !r.is_empty())));
    }
    if let Some(h) = ctx.registry.find(Some(t.clone())).await {
        return Ok((h, None));
    }
    let h = origin_session(ctx, origin)
        .await
        .ok_or_else(|| not_found(TargetKind::Session, t.as_str()))?;
    Ok((h, Some(t)))
}

/// Whether a session has the name or `$id` `target`.
async fn session_exists(ctx: &ServerContext, target: &str) -> bool {
    let id = crate::ids::SessionId::parse(target);
    ctx.registry
        .all()
        .await
        .iter()
        .any(|s| Some(s.id) == id || s.name() == target)
}

/// The session a command comes from: the one holding its pane, the one it names, or the most
/// recent.
async fn origin_session(ctx: &ServerContext, origin: &Origin) -> Option<SessionHandle> {
    if let Some(p) = origin.pane {
        if let Some(h) = ctx.registry.find_pane(p).await {
            return Some(h);
        }
    }
    match &origin.session {
        Some(s) => ctx.registry.find(Some(s.clone())).await,
        None => ctx.registry.find_current().await,
    }
}
