//! `run-pane`: run a program in a pane of its own (a new detached window of a session, or a
//! new detached session) and print the pane; with `--wait-exit`, wait for the program to end,
//! print its last screen and end with its status.
//!
//! The command line's `weft run -- CMD` is this command. tmux's `run` is `run-shell`, and
//! configuration files, the prompt and bindings keep that meaning (`run 'cmd'`); only the
//! `weft` command line maps `run` to `run-pane`, when its words hold `--`, `--wait-exit`,
//! `--size` or `--remain` (see the CLI's `run_alias`).

use super::{Action, Entry, Long};
use crate::capture::CaptureOptions;
use crate::context::ServerContext;
use crate::outcome::{not_found, CommandError, Output, TargetKind};
use crate::pane::PaneHandle;
use crate::session::Scope;
use futures::FutureExt;
use std::sync::{Arc, Mutex};
use weft_protocol::NewSession;

/// The program's size in a new session made without `--size`.
const DEFAULT_PROGRAM_SIZE: (u16, u16) = (80, 24);

/// `run-pane`.
pub static RUN_PANE: Entry = Entry {
    name: "run-pane",
    aliases: &[],
    usage: "[-t target-session] [-c start-directory] [--size COLSxROWS] [--wait-exit] \
            [--remain] -- command ...",
    about: "Run a command in a new detached window of the session -t names; without -t, or \
            when no session has that name, in a new detached session (of that name) whose \
            program is --size (80x24 without). Prints the pane (%N). With --wait-exit, waits \
            until the program exits instead, prints its last screen and exits with its status \
            (128+N for signal N); the pane goes with it. With --remain, the pane stays after \
            its program exits until it is killed (remain-on-exit for that pane). On the \
            command line: weft run [...] -- command; weft run without -- (or these flags) is \
            run-shell, as in tmux.",
    flags: "t:c:",
    long: &[
        Long::value("size"),
        Long::switch("wait-exit"),
        Long::switch("remain"),
    ],
    read_only: false,
    target: None,
    build: |args| {
        let command = args.positional.clone();
        if command.is_empty() {
            return Err(args.usage("a command to run is needed (after --)"));
        }
        let size = match args.long_value("size") {
            Some(v) => Some(parse_size(v).ok_or_else(|| {
                args.usage(format!(
                    "--size takes COLSxROWS (e.g. 80x24, each from 1), not {v:?}"
                ))
            })?),
            None => None,
        };
        let wait_exit = args.has_long("wait-exit");
        let remain = args.has_long("remain");
        if wait_exit && remain {
            return Err(args.usage(
                "--wait-exit closes the pane once its screen is printed and --remain keeps it: \
                 leave out one of them",
            ));
        }
        let run = RunPane {
            command,
            target: args.target(),
            size,
            cwd: args.value('c').map(str::to_string),
            wait_exit,
            remain,
        };
        Ok(Action::Server(Box::new(move |ctx| run.run(ctx).boxed())))
    },
};

/// `COLSxROWS` as numbers (each at least 1), clamped to the sizes the server allows.
pub fn parse_size(text: &str) -> Option<(u16, u16)> {
    let (cols, rows) = text.split_once(['x', 'X'])?;
    let cols: u32 = cols.trim().parse().ok().filter(|c| *c > 0)?;
    let rows: u32 = rows.trim().parse().ok().filter(|r| *r > 0)?;
    let narrow = |n: u32| u16::try_from(n).unwrap_or(u16::MAX);
    Some(weft_protocol::clamp_size(narrow(cols), narrow(rows)))
}

/// A parsed `run-pane`.
struct RunPane {
    command: Vec<String>,
    target: Option<String>,
    size: Option<(u16, u16)>,
    cwd: Option<String>,
    wait_exit: bool,
    remain: bool,
}

/// Ends the pane's program when dropped unless disarmed: a `--wait-exit` whose client went
/// away (the command is dropped) leaves nothing behind.
struct KillOnDrop(Option<PaneHandle>);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        if let Some(pane) = self.0.take() {
            pane.kill();
        }
    }
}

impl RunPane {
    /// Whether the pane stays after its program exits: with `--remain`; never with
    /// `--wait-exit`, whose screen is read before the pane goes (so no `Pane is dead` line
    /// is in it); otherwise as `remain-on-exit` says.
    fn remains(&self) -> Option<bool> {
        if self.wait_exit {
            Some(false)
        } else if self.remain {
            Some(true)
        } else {
            None
        }
    }

    async fn run(self, ctx: ServerContext) -> Result<Output, CommandError> {
        let existing = match &self.target {
            Some(target) => find_session(&ctx, target).await?,
            None => None,
        };
        let pane = match existing {
            Some(session) => self.new_window(&session).await?,
            None => self.new_session(&ctx).await?,
        };
        if !self.wait_exit {
            return Ok(Output::text(pane.id().to_string()));
        }
        let mut guard = KillOnDrop(Some(pane.clone()));
        pane.finished().await;
        guard.0 = None;
        // The pane task has drained the program's last output; the screen lives as long as
        // this handle, whether or not the session still shows the pane.
        let screen = pane.capture_now(&CaptureOptions::default());
        let status = pane.exit_code().unwrap_or(1);
        Ok(Output {
            stdout: screen.trim_end_matches('\n').to_string(),
            code: u8::try_from(status.clamp(0, 255)).unwrap_or(u8::MAX),
            ..Output::default()
        })
    }

    /// A new detached session running the command, named as `-t` says if it does; its pane.
    async fn new_session(&self, ctx: &ServerContext) -> Result<PaneHandle, CommandError> {
        let (cols, rows) = self.size.unwrap_or(DEFAULT_PROGRAM_SIZE);
        // The size is the program's: the session's rows also hold its status line and pane
        // titles when those are shown.
        let chrome = {
            let config = ctx.config.borrow();
            config.status_lines()
                + u16::from(config.pane_border_status != crate::config::BorderStatus::Off)
        };
        let (cols, rows) = weft_protocol::clamp_size(cols, rows.saturating_add(chrome));
        let spec = NewSession {
            name: self.target.clone(),
            detached: true,
            cols: Some(cols),
            rows: Some(rows),
            cwd: self.cwd.clone(),
            command: self.command.clone(),
            ..NewSession::default()
        };
        let (_, pane) = ctx
            .registry
            .new_session_with_pane(spec, self.remains())
            .await?;
        Ok(pane)
    }

    /// A new detached window running the command in `session`; its pane, taken in the same
    /// step as the window is made (before the program can end).
    async fn new_window(
        &self,
        session: &crate::session::SessionHandle,
    ) -> Result<PaneHandle, CommandError> {
        let made: Arc<Mutex<Option<PaneHandle>>> = Arc::default();
        let into = made.clone();
        let (command, cwd, remain) = (self.command.clone(), self.cwd.clone(), self.remains());
        session
            .run(
                Box::new(move |state, _| {
                    let pane = state.new_window_remaining(command, cwd, true, remain)?;
                    if let Ok(mut slot) = into.lock() {
                        *slot = Some(pane);
                    }
                    Ok(Output::none())
                }),
                Scope::default(),
            )
            .await?;
        let pane = made.lock().ok().and_then(|mut slot| slot.take());
        pane.ok_or_else(|| CommandError::failed("run-pane: the new window has no pane"))
    }
}

/// The session `target` names (`$N`, a name, `%N`'s session, `session:window`'s); `None`
/// for a plain name no session has, which the new session takes.
async fn find_session(
    ctx: &ServerContext,
    target: &str,
) -> Result<Option<crate::session::SessionHandle>, CommandError> {
    let found = match crate::ids::PaneId::parse(target) {
        Some(pane) => ctx.registry.find_pane(pane).await,
        None => {
            let session = target.split_once(':').map_or(target, |(s, _)| s);
            ctx.registry.find(Some(session.to_string())).await
        }
    };
    match found {
        Some(session) => Ok(Some(session)),
        None if is_plain_name(target) => Ok(None),
        None => Err(not_found(TargetKind::Session, target)),
    }
}

/// A target that names a session by name only (not `$N`, `%N`, `@N` or `session:window`):
/// one `run-pane` may create.
fn is_plain_name(target: &str) -> bool {
    !target.is_empty() && !target.starts_with(['$', '%', '@']) && !target.contains([':', '.'])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_cols_by_rows_and_clamped() {
        assert_eq!(parse_size("100x30"), Some((100, 30)));
        assert_eq!(parse_size("0x30"), None);
        assert_eq!(parse_size("100"), None);
        assert_eq!(parse_size("axb"), None);
        let huge = parse_size("99999999x99999999").unwrap();
        assert_eq!(
            huge,
            (weft_protocol::MAX_COLS, weft_protocol::MAX_ROWS),
            "clamped"
        );
    }

    #[test]
    fn run_is_still_run_shell_in_the_table() {
        assert_eq!(
            super::super::lookup("run").map(|e| e.name),
            Some("run-shell")
        );
        let parsed = super::super::parse_line("run-pane --wait-exit -- sh -c 'exit 3'").unwrap();
        assert_eq!(parsed.entry.name, "run-pane");
        let err = super::super::parse_line("run-pane --wait-exit").unwrap_err();
        assert!(err.to_string().contains("a command to run is needed"));
        let err = super::super::parse_line("run-pane --wait-exit --remain -- true").unwrap_err();
        assert!(err.to_string().contains("leave out one of them"));
    }

    #[test]
    fn only_plain_names_make_sessions() {
        assert!(is_plain_name("work"));
        for t in ["$3", "%1", "@2", "work:1", "", "a.b"] {
            assert!(!is_plain_name(t), "{t}");
        }
    }
}
