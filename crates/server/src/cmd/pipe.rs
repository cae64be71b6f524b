//! `pipe-pane`, as tmux's: a pane's output to a shell command, or the command's output into
//! the pane (see [`crate::pane::PipeSpec`] for how it is bounded).

use super::{Action, Entry};
use crate::outcome::{CommandError, Output, TargetKind};
use futures::FutureExt;

/// `pipe-pane`.
pub static PIPE_PANE: Entry = Entry {
    name: "pipe-pane",
    aliases: &["pipep"],
    usage: "[-IOo] [-t target-pane] [shell-command]",
    about: "Pipe the pane's output to a shell command (sh -c; -O, the default), or type the \
            command's output into the pane (-I); -o only if no pipe is open (a toggle). \
            Without a command, close the pipe. A command that does not keep up loses output \
            beyond 4 MiB waiting, said so.",
    flags: "IOot:",
    long: &[],
    read_only: false,
    target: Some(TargetKind::Pane),
    build: |args| {
        let command = args.positional.join(" ");
        let input = args.has('I');
        let output = args.has('O') || !input;
        let only_if_closed = args.has('o');
        Ok(Action::Pane(Box::new(move |pane, _ctx| {
            async move {
                if only_if_closed && pane.pipe_open() {
                    // tmux's toggle: `pipe-pane -o CMD` bound to a key opens, then closes.
                    pane.close_pipe();
                    return Ok(Output::none());
                }
                if command.trim().is_empty() {
                    pane.close_pipe();
                    return Ok(Output::none());
                }
                let cwd = pane
                    .shared
                    .pid
                    .and_then(|pid| std::fs::read_link(format!("/proc/{pid}/cwd")).ok());
                pane.open_pipe(crate::pane::PipeSpec {
                    command,
                    output,
                    input,
                    cwd,
                })
                .map_err(|e| CommandError::failed(format!("pipe-pane: {e}")))?;
                Ok(Output::none())
            }
            .boxed()
        })))
    },
};
