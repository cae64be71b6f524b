//! Runs the commands of hooks that fired (see [`crate::hooks`]), each hook in a task of its own,
//! as the command line runs commands (sequences, if-shell chains, client commands that mean
//! something without a client): a hook's command never holds up the server or the session that
//! fired it.
//!
//! Hooks whose commands fire hooks nest; beyond [`MAX_HOOK_DEPTH`] a hook is not run and the
//! session's clients are told, so a hook that fires itself ends.

use crate::context::ServerContext;
use crate::hooks::{HookEvent, HOOK_DEPTH};
use crate::ids::SessionId;
use crate::session::SessionCommand;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, Semaphore};

/// How deep hooks may nest (a hook's command firing a hook whose command fires one...).
pub const MAX_HOOK_DEPTH: u8 = 8;

/// Hooks running at once: more that fire meanwhile are dropped (counted in `weft diag`). Each
/// holds a task and perhaps a shell; a burst of bells must not start hundreds.
const MAX_RUNNING_HOOKS: usize = 16;

/// How long one hook's commands may take (a `wait-for` that nobody signals, a stuck
/// `run-shell`) before they are given up, so the hook's place is freed.
const HOOK_DEADLINE: Duration = Duration::from_secs(60);

/// Runs fired hooks until the server ends.
pub async fn run(mut fired: mpsc::Receiver<HookEvent>, ctx: ServerContext) {
    let running = Arc::new(Semaphore::new(MAX_RUNNING_HOOKS));
    while let Some(event) = fired.recv().await {
        let commands = ctx
            .config
            .borrow()
            .hooks
            .commands(event.session, &event.name)
            .to_vec();
        if commands.is_empty() {
            continue;
        }
        if event.depth >= MAX_HOOK_DEPTH {
            let text = format!(
                "hook {} not run: hooks nested {MAX_HOOK_DEPTH} deep (does its command fire \
                 it again? set-hook -u {} removes it)",
                event.name, event.name
            );
            tracing::warn!("{text}");
            tell(&ctx, event.session, text).await;
            continue;
        }
        let Ok(permit) = running.clone().try_acquire_owned() else {
            ctx.hooks.count_dropped();
            // Debug, not a warning: a program ringing the bell in a loop would fill the log.
            tracing::debug!(
                "hook {} not run: {MAX_RUNNING_HOOKS} hooks are running",
                event.name
            );
            continue;
        };
        let ctx = ctx.clone();
        let depth = event.depth + 1;
        tokio::spawn(HOOK_DEPTH.scope(depth, async move {
            let _permit = permit;
            let name = event.name.clone();
            let session = event.session;
            match tokio::time::timeout(HOOK_DEADLINE, run_hook(&ctx, event, commands)).await {
                Ok(Ok(())) => {}
                Ok(Err(text)) => tell(&ctx, session, text).await,
                Err(_) => {
                    let text = format!(
                        "hook {name}: its commands were given up after {} s",
                        HOOK_DEADLINE.as_secs()
                    );
                    tell(&ctx, session, text).await;
                }
            }
        }));
    }
}

/// The most of what a hook's commands print that is shown to the session's clients.
const MAX_SHOWN_OUTPUT_BYTES: usize = 1024;

/// Runs a hook's commands in order, in the session and pane it fired for; the first error
/// stops it and is the answer. What they print (`display-message`) is shown to the session's
/// clients, as tmux shows it.
async fn run_hook(
    ctx: &ServerContext,
    event: HookEvent,
    commands: Vec<String>,
) -> Result<(), String> {
    let origin = crate::cmd::run::Origin {
        session: event.session.map(|s| s.to_string()),
        pane: event.pane,
        mouse_window: None,
    };
    for command in commands {
        let words =
            crate::words::tokenize(&command).map_err(|e| format!("hook {}: {e}", event.name))?;
        let ran = crate::connection::cli_command(ctx, &words, &origin);
        match crate::cmd::NOBODY_READS.scope(true, ran).await {
            Ok(output) => {
                let mut text = output.stdout.trim_end().to_string();
                if !text.is_empty() {
                    let mut end = text.len().min(MAX_SHOWN_OUTPUT_BYTES);
                    while !text.is_char_boundary(end) {
                        end -= 1;
                    }
                    text.truncate(end);
                    tell(ctx, event.session, text).await;
                }
                // A command of the line failed after others printed: its error is the
                // hook's.
                if output.code != 0 && !output.stderr.is_empty() {
                    return Err(format!("hook {}: {}", event.name, output.stderr.trim_end()));
                }
            }
            Err(e) => return Err(format!("hook {}: {e}", event.name)),
        }
    }
    Ok(())
}

/// Tells the clients of `session` (if it is still there) `text`; never waits on it.
async fn tell(ctx: &ServerContext, session: Option<SessionId>, text: String) {
    let Some(session) = session else {
        return;
    };
    // Looked up among all, not found by name: that would make it the most recent session.
    let all = ctx.registry.all().await;
    if let Some(handle) = all.into_iter().find(|h| h.id == session) {
        handle.try_send(SessionCommand::Message(text));
    }
}
