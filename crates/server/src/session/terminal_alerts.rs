//! What a session sends the user's terminal besides frames: a pane's bell (per `bell-action`
//! and `monitor-bell`) and the window's title (`set-titles`). Both travel in the view, so
//! each client's renderer sends them with its next frame: many bells or title changes between
//! two frames reach the terminal as one, and a slow client holds up nobody.

use super::SessionState;
use crate::ids::PaneId;
use std::sync::Arc;

/// The longest title sent to the user's terminal, in bytes.
pub const MAX_TITLE_BYTES: usize = 1024;
/// At most one desktop notification per this interval per session reaches the terminals; the
/// rest are dropped (a program notifying in a loop cannot flood the user's desktop). Progress
/// reports (OSC 9;4) are not limited: each replaces the last, once per frame at most.
const NOTIFICATION_INTERVAL: std::time::Duration = std::time::Duration::from_secs(1);

impl SessionState {
    /// A BEL from pane `pane`: its window is flagged when it is not the current one, and the
    /// clients' terminals ring when `bell-action` says so for that window.
    pub(super) fn pane_bell(&mut self, pane: PaneId) {
        let Some(w) = self.window_of(pane) else {
            return;
        };
        let config = self.clipboard.config.borrow().clone();
        if config.option_value("monitor-bell").as_deref() == Some("off") {
            return;
        }
        let current = w == self.current;
        if !current {
            self.windows[w].bell = true;
        }
        let acts = match config.option_value("bell-action").as_deref() {
            Some("none") => false,
            Some("current") => current,
            Some("other") => !current,
            _ => true,
        };
        if !acts {
            return;
        }
        let (ring, say) = visual(&config, "visual-bell");
        if ring {
            self.bells = self.bells.wrapping_add(1);
        }
        if say {
            self.message_clients(&alert_message("Bell", current, self.windows[w].index));
        }
    }

    /// A window flagged for activity or silence: said to the clients with `visual-activity`
    /// or `visual-silence` on (`both`: and the terminals ring).
    pub(super) fn visual_alert(&mut self, wpos: usize, kind: &str, option: &str) {
        let config = self.clipboard.config.borrow().clone();
        let (ring, say) = match config.option_value(option).as_deref() {
            Some("on") => (false, true),
            Some("both") => (true, true),
            _ => (false, false),
        };
        if ring {
            self.bells = self.bells.wrapping_add(1);
        }
        if say {
            let current = wpos == self.current;
            self.message_clients(&alert_message(kind, current, self.windows[wpos].index));
        }
    }

    /// A program's notification (OSC 9, 777, 99, already cleaned by the screen): the next the
    /// terminals get, unless one went out less than [`NOTIFICATION_INTERVAL`] ago.
    pub(super) fn pane_notification(&mut self, text: String) {
        let progress = text == "9;4" || text.starts_with("9;4;");
        if !progress {
            let now = tokio::time::Instant::now();
            if self
                .notified_at
                .is_some_and(|at| now.duration_since(at) < NOTIFICATION_INTERVAL)
            {
                tracing::debug!("a notification within a second of the last, dropped");
                return;
            }
            self.notified_at = Some(now);
        }
        let number = self
            .notification
            .as_ref()
            .map_or(1, |(n, _)| n.wrapping_add(1));
        self.notification = Some((number, text.into()));
    }

    /// The title for the user's terminal: `set-titles-string` for the current window's active
    /// pane, cleaned; `None` while `set-titles` is off.
    pub(super) fn terminal_title(&self) -> Option<Arc<str>> {
        let config = self.clipboard.config.borrow().clone();
        if config.option_value("set-titles").as_deref() != Some("on") {
            return None;
        }
        let window = self.windows.get(self.current)?;
        let format = config.option_value("set-titles-string").unwrap_or_default();
        let vars = self.format_context(self.current, window.active);
        Some(clean_title(&crate::format::expand(&format, &vars)).into())
    }
}

/// What `visual-bell` (or `-activity`, `-silence`) says to do: ring the terminal, show a
/// message, or both (`both`); `off` rings only.
fn visual(config: &crate::config::Config, option: &str) -> (bool, bool) {
    match config.option_value(option).as_deref() {
        Some("on") => (false, true),
        Some("both") => (true, true),
        _ => (true, false),
    }
}

/// tmux's words for an alert: `Bell in window 2`, `Activity in current window`.
fn alert_message(kind: &str, current: bool, index: u32) -> String {
    if current {
        format!("{kind} in current window")
    } else {
        format!("{kind} in window {index}")
    }
}

/// `title` safe to put in an OSC 2: control characters (C0, DEL, C1) and the bidirectional
/// controls that could disguise it are removed, and it is cut to [`MAX_TITLE_BYTES`] on a
/// character boundary.
pub fn clean_title(title: &str) -> String {
    let bidi = |c: char| matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    let mut out = String::new();
    for c in title.chars().filter(|&c| !c.is_control() && !bidi(c)) {
        if out.len() + c.len_utf8() > MAX_TITLE_BYTES {
            break;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_lose_controls_and_bidirectional_marks_and_are_capped() {
        assert_eq!(clean_title("a\x1b]0;x\x07b\u{9c}c\x7fd"), "a]0;xbcd");
        assert_eq!(clean_title("evil\u{202e}txt.exe\u{2066}"), "eviltxt.exe");
        assert_eq!(clean_title("vim – ünïcode 漢字"), "vim – ünïcode 漢字");
        let long = "漢".repeat(1000);
        let cut = clean_title(&long);
        assert!(cut.len() <= MAX_TITLE_BYTES && cut.len() > MAX_TITLE_BYTES - 3);
        assert!(cut.chars().all(|c| c == '漢'));
    }
}
