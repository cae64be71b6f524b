//! The line a dead pane shows at its foot with `remain-on-exit` on: `remain-on-exit-format`
//! expanded with how its program ended (tmux's `Pane is dead (status 1, Thu Nov 26 ...)`).

use crate::config::Config;
use std::collections::HashMap;
use weft_pty_io::ExitStatus;

/// The most characters the line keeps: a format cannot fill the pane's history.
const MAX_NOTE_CHARS: usize = 1024;

/// `remain-on-exit-format` for a program that ended with `status`, as plain text: styles
/// (`#[...]`) are left out and controls shown as `_`, since the text goes through the pane's
/// own terminal.
pub fn dead_note(config: &Config, status: &ExitStatus, pane: crate::ids::PaneId) -> String {
    let template = config
        .option_value("remain-on-exit-format")
        .unwrap_or_default();
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut vars: HashMap<String, String> = HashMap::new();
    vars.insert("pane_dead".into(), "1".into());
    vars.insert("pane_id".into(), pane.to_string());
    // tmux: a status for a program that exited, a signal for one that was killed.
    let (code, signal) = match &status.signal {
        Some(sig) => (String::new(), sig.clone()),
        None => (status.code.to_string(), String::new()),
    };
    vars.insert("pane_dead_status".into(), code);
    vars.insert("pane_dead_signal".into(), signal);
    vars.insert("pane_dead_time".into(), now.to_string());
    let expanded = crate::format::expand(&template, &vars);
    plain(&expanded)
}

/// `text` without `#[...]` styles, `##` as `#`, controls as `_`, at most
/// [`MAX_NOTE_CHARS`].
fn plain(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if out.len() >= MAX_NOTE_CHARS {
            break;
        }
        if let Some(after) = rest.strip_prefix("##") {
            out.push('#');
            rest = after;
        } else if let Some((_, after)) = rest.strip_prefix("#[").and_then(|r| r.split_once(']')) {
            rest = after;
        } else {
            out.push(if c.is_control() { '_' } else { c });
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::SetHow;

    const PANE: crate::ids::PaneId = crate::ids::PaneId(3);

    #[test]
    fn the_default_says_the_status_or_the_signal() {
        let config = Config::default();
        let exited = ExitStatus {
            code: 3,
            signal: None,
        };
        let note = dead_note(&config, &exited, PANE);
        assert!(note.starts_with("Pane is dead (status 3, "), "{note}");
        let killed = ExitStatus {
            code: 137,
            signal: Some("SIGKILL".into()),
        };
        let note = dead_note(&config, &killed, PANE);
        assert!(note.starts_with("Pane is dead (signal SIGKILL, "), "{note}");
    }

    #[test]
    fn a_users_format_is_plain_text() {
        let mut config = Config::default();
        let format = "#[fg=red]#{pane_id} gone: #{pane_dead_status}\x1b[2J ##";
        config
            .set_option("remain-on-exit-format", Some(format), SetHow::default())
            .unwrap();
        let note = dead_note(
            &config,
            &ExitStatus {
                code: 1,
                signal: None,
            },
            PANE,
        );
        assert_eq!(note, "%3 gone: 1_[2J #");
    }
}
