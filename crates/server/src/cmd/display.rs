//! `display-message`: a format expanded for a pane, printed or shown in the status line.

use super::{on_session, Entry};
use crate::outcome::{Output, TargetKind};

/// `display-message`.
pub static DISPLAY_MESSAGE: Entry = Entry {
    name: "display-message",
    aliases: &["display"],
    usage: "[-p] [-t target-pane] [message]",
    about: "Expand a format for a pane (`#S`, `#{pane_current_path}`, `%H:%M`) and show it in \\
            the status line, or print it (-p, and always from the command line).",
    flags: "aIlNpvc:d:F:t:",
    long: &[],
    read_only: true,
    target: Some(TargetKind::Pane),
    build: |args| {
        let template = args
            .value('F')
            .map(str::to_string)
            .or_else(|| (!args.positional.is_empty()).then(|| args.positional.join(" ")))
            .unwrap_or_else(|| DEFAULT_MESSAGE.to_string());
        Ok(on_session(move |s, scope| {
            let (wpos, pane) = s.find_pane(scope)?;
            let text = crate::format::expand(&template, &s.format_context(wpos, pane));
            Ok(Output::text(strftime(&text)))
        }))
    },
};

/// What `display-message` shows without a message (tmux's default).
const DEFAULT_MESSAGE: &str = "[#S] #I:#P [#{pane_width}x#{pane_height}] \"#T\"";

/// `%` sequences as the local time has them (`%H:%M`), as tmux expands them for messages;
/// text with an invalid sequence is shown as it is.
fn strftime(text: &str) -> String {
    use std::fmt::Write;
    if !text.contains('%') {
        return text.to_string();
    }
    let mut out = String::new();
    match write!(out, "{}", chrono::Local::now().format(text)) {
        Ok(()) => out,
        Err(_) => text.to_string(),
    }
}
