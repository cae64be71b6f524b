//! Hook commands, as tmux's: set-hook and show-hooks. Hooks are kept in the configuration
//! (global ones, and each session's own), fired by the server where things happen, and run by
//! the hook runner (see [`crate::hooks`]).

use super::{Action, Entry};
use crate::outcome::{CommandError, Output, TargetKind};
use futures::FutureExt;

/// `set-hook`.
pub static SET_HOOK: Entry = Entry {
    name: "set-hook",
    aliases: &[],
    usage: "[-agRu] [-t target-session] hook [command]",
    about: "Set a hook: a command line run when something happens (after-<command>, \
            session-created, session-closed, client-attached, client-detached, pane-exited, \
            pane-died, window-renamed, alert-bell). -g global, else the target session's own; \
            -a append, -u remove, -R run it now.",
    flags: "agpRuwt:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Session),
    build: |args| {
        let hook = HookArgs::read(args)?;
        if args.has('g') {
            return Ok(Action::Server(Box::new(move |ctx| {
                async move { hook.apply(&ctx, None).await }.boxed()
            })));
        }
        // The session the target names, or the one the command comes from.
        Ok(Action::Pane(Box::new(move |pane, ctx| {
            async move {
                let session = ctx
                    .registry
                    .find_pane(pane.id())
                    .await
                    .ok_or(CommandError::SessionEnded)?;
                hook.apply(&ctx, Some(session.id)).await
            }
            .boxed()
        })))
    },
};

/// What a `set-hook` asks for.
struct HookArgs {
    name: String,
    command: Option<String>,
    unset: bool,
    append: bool,
    run_now: bool,
}

impl HookArgs {
    fn read(args: &super::Args) -> Result<Self, CommandError> {
        let (name, command) = match args.positional.as_slice() {
            [name] => (name.clone(), None),
            [name, command] => (name.clone(), Some(command.clone())),
            _ => return Err(args.usage("a hook name and a command are needed")),
        };
        if !crate::hooks::is_hook_name(&name, |n| super::lookup(n).is_some_and(|e| e.name == n)) {
            return Err(CommandError::Invalid(format!(
                "set-hook: unknown hook {name:?} (after-<command>, {})",
                crate::hooks::HOOK_NAMES.join(", ")
            )));
        }
        let (unset, run_now) = (args.has('u'), args.has('R'));
        match &command {
            // Checked now: a typo fails when it is set, not each time the hook fires.
            Some(c) => super::parse_line_sequence(c).map(drop)?,
            None if !unset && !run_now => return Err(args.usage("a command is needed")),
            None => {}
        }
        Ok(HookArgs {
            name,
            command,
            unset,
            append: args.has('a'),
            run_now,
        })
    }

    /// Sets, removes or runs the hook (of `session`, else the global one).
    async fn apply(
        self,
        ctx: &crate::context::ServerContext,
        session: Option<crate::ids::SessionId>,
    ) -> Result<Output, CommandError> {
        if self.run_now {
            ctx.hooks.fire(crate::hooks::HookEvent {
                name: self.name,
                session,
                pane: None,
                depth: crate::hooks::current_depth(),
            });
            return Ok(Output::none());
        }
        let HookArgs {
            name,
            command,
            unset,
            append,
            ..
        } = self;
        ctx.registry
            .update_config(move |c| {
                match command.filter(|_| !unset) {
                    Some(command) => c.hooks.set(session, &name, &command, append)?,
                    None => {
                        c.hooks.unset(session, &name);
                    }
                }
                Ok(String::new())
            })
            .await
            .map_err(|e| CommandError::Invalid(format!("set-hook: {e}")))?;
        Ok(Output::none())
    }
}

/// `show-hooks`.
pub static SHOW_HOOKS: Entry = Entry {
    name: "show-hooks",
    aliases: &[],
    usage: "[-g] [-t target-session]",
    about: "Print the hooks set: -g the global ones, else the target session's own.",
    flags: "gpwt:",
    long: &[],
    read_only: true,
    target: Some(TargetKind::Session),
    build: |args| {
        args.no_arguments()?;
        let lines = |ctx: &crate::context::ServerContext, session| {
            Output::text(ctx.config.borrow().hooks.lines(session).join("\n"))
        };
        if args.has('g') {
            return Ok(Action::Server(Box::new(move |ctx| {
                async move { Ok(lines(&ctx, None)) }.boxed()
            })));
        }
        Ok(Action::Pane(Box::new(move |pane, ctx| {
            async move {
                let session = ctx
                    .registry
                    .find_pane(pane.id())
                    .await
                    .ok_or(CommandError::SessionEnded)?;
                Ok(lines(&ctx, Some(session.id)))
            }
            .boxed()
        })))
    },
};

/// A `set-hook` line of a configuration file: no session exists yet, so the hook is global.
pub fn set_hook_line(config: &mut crate::config::Config, args: &super::Args) -> Result<(), String> {
    let hook = HookArgs::read(args).map_err(|e| e.to_string())?;
    if hook.run_now {
        return Err("set-hook -R runs nothing from a configuration file".into());
    }
    match hook.command.filter(|_| !hook.unset) {
        Some(command) => config.hooks.set(None, &hook.name, &command, hook.append),
        None => {
            config.hooks.unset(None, &hook.name);
            Ok(())
        }
    }
}
