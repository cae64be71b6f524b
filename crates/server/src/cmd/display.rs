//! `display-message`: a format expanded for a pane, printed or shown in the status line.

use super::{on_session, Entry};
use crate::outcome::{Output, TargetKind};

/// `display-message`.
pub static DISPLAY_MESSAGE: Entry = Entry {
    name: "display-message",
    aliases: &["display"],
    usage: "[-alp] [-d milliseconds] [-t target-pane] [message]",
    about: "Expand a format for a pane (`#S`, `#{pane_current_path}`, `%H:%M`) and show it in \
            the status line for -d milliseconds (0: until a key; else display-time), or print \
            it (-p, and always from the command line); -l shows the message as it is, -a \
            lists every format variable of the pane with its value.",
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
        let shown_for = match args.value('d') {
            Some(ms) => Some(shown_for(ms)?),
            None => None,
        };
        let print = args.has('p');
        let literal = args.has('l');
        if args.has('a') {
            return Ok(on_session(|s, scope| {
                let (wpos, pane) = s.find_pane(scope)?;
                let vars: std::collections::BTreeMap<_, _> =
                    s.format_vars(wpos, pane).into_iter().collect();
                let lines: Vec<String> = vars.iter().map(|(k, v)| format!("{k}={v}")).collect();
                Ok(Output::text(lines.join("\n")))
            }));
        }
        Ok(on_session(move |s, scope| {
            if literal {
                let mut out = Output::text(template.clone());
                if !print {
                    out.shown_for = shown_for;
                }
                return Ok(out);
            }
            let (wpos, pane) = s.find_pane(scope)?;
            // Times first, then the format (as tmux): `%` in a name stays as it is.
            let (template, _) = crate::format::time::strftime(&template, &chrono::Local::now());
            let text = crate::format::expand(&template, &s.format_context(wpos, pane));
            let mut out = Output::text(text);
            if !print {
                out.shown_for = shown_for;
            }
            Ok(out)
        }))
    },
};

/// What `display-message` shows without a message (tmux's default).
const DEFAULT_MESSAGE: &str = "[#S] #I:#P [#{pane_width}x#{pane_height}] \"#T\"";

/// The longest `-d` taken: a day (a message meant to stay uses 0, until a key).
const MAX_SHOWN_MS: u64 = 86_400_000;

/// `-d`'s milliseconds.
fn shown_for(ms: &str) -> Result<std::time::Duration, crate::outcome::CommandError> {
    let ms: u64 = ms.trim().parse().map_err(|_| {
        crate::outcome::CommandError::failed(format!(
            "display-message -d takes milliseconds (0: until a key), not {ms:?}"
        ))
    })?;
    Ok(std::time::Duration::from_millis(ms.min(MAX_SHOWN_MS)))
}
