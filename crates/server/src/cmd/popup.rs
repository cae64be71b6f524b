//! `display-popup` (`popup`): a program in a box over the window, for this client. The client
//! carries it out (`connection/popup.rs`); the session starts the program
//! (`session/popup.rs`).

use super::{Action, Args, ClientRequest, Entry};
use crate::outcome::CommandError;
use crate::session::popup::{CloseWhen, PopupAction, PopupRequest};

/// `display-popup`.
pub static DISPLAY_POPUP: Entry = Entry {
    name: "display-popup",
    aliases: &["popup"],
    usage: "[-BCEk] [-b border-lines] [-d start-directory] [-e NAME=value] [-h height] \
            [-s style] [-S border-style] [-t target-pane] [-T title] [-w width] [-x position] \
            [-y position] [shell-command ...]",
    about: "Run a program in a box over the window (the shell without one): keys go to it \
            until it closes. -E closes it when the program exits (-EE only on success); else \
            Escape or C-c closes it once the program has exited. -w/-h are cells or a \
            percentage (default 50%); -x a column or C, R, P; -y the bottom row or C, P, S; \
            -d and -T are formats; -C closes this client's popup.",
    flags: "BCEkNb:c:d:e:h:s:S:t:T:w:x:y:",
    long: &[],
    read_only: false,
    target: None,
    build: |args| {
        if args.has('C') {
            return Ok(Action::Client(ClientRequest::Popup(Box::new(
                PopupAction::Close,
            ))));
        }
        let lines = if args.has('B') {
            Some("none".to_string())
        } else {
            border_lines(args)?
        };
        let close = match args.count('E') {
            0 => CloseWhen::Asked,
            1 => CloseWhen::Exited,
            _ => CloseWhen::Succeeded,
        };
        let request = PopupRequest {
            command: args.positional.clone(),
            cwd: args.value('d').map(str::to_string),
            env: args.values('e'),
            width: args.value('w').map(str::to_string),
            height: args.value('h').map(str::to_string),
            x: args.value('x').map(str::to_string),
            y: args.value('y').map(str::to_string),
            title: args.value('T').map(str::to_string),
        };
        Ok(Action::Client(ClientRequest::Popup(Box::new(
            PopupAction::Open {
                request: Box::new(request),
                close,
                any_key: args.has('k'),
                lines,
                style: args.value('s').map(str::to_string),
                border_style: args.value('S').map(str::to_string),
                target: args.target(),
                closed: None,
            },
        ))))
    },
};

/// `-b`: the border's lines (`single`, `rounded`, ...), if given.
pub(super) fn border_lines(args: &Args) -> Result<Option<String>, CommandError> {
    match args.value('b') {
        Some(l) if !crate::options::POPUP_BORDER_LINES.contains(&l) => Err(args.usage(format!(
            "-b takes one of {}, not {l:?}",
            crate::options::POPUP_BORDER_LINES.join(", ")
        ))),
        l => Ok(l.map(str::to_string)),
    }
}
