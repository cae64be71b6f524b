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
        let config = self.window_config(w);
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
    /// or `visual-silence` on (`both`: and the terminals ring), when `activity-action` or
    /// `silence-action` covers the window (`any`, `current`, `other` (the default), `none`),
    /// as `bell-action` does for bells.
    pub(super) fn visual_alert(&mut self, wpos: usize, kind: &str, option: &str) {
        let config = self.window_config(wpos);
        let action = if kind == "Silence" {
            "silence-action"
        } else {
            "activity-action"
        };
        let current = wpos == self.current;
        let applies = match config.option_value(action).as_deref() {
            Some("none") => false,
            Some("current") => current,
            Some("any") => true,
            _ => !current,
        };
        if !applies {
            return;
        }
        let (ring, say) = match config.option_value(option).as_deref() {
            Some("on") => (false, true),
            Some("both") => (true, true),
            _ => (false, false),
        };
        if ring {
            self.bells = self.bells.wrapping_add(1);
        }
        if say {
            self.message_clients(&alert_message(kind, current, self.windows[wpos].index));
        }
    }

    /// A program's notification (OSC 9, 777, 99, already cleaned by the screen): the next the
    /// terminals get, unless one went out less than [`NOTIFICATION_INTERVAL`] ago.
    pub(super) fn pane_notification(&mut self, text: String) {
        let next = |slot: &Option<(u64, Arc<str>)>| slot.as_ref().map_or(1, |(n, _)| n + 1);
        if text == "9;4" || text.starts_with("9;4;") {
            self.progress = Some((next(&self.progress), text.into()));
            return;
        }
        let now = tokio::time::Instant::now();
        if self
            .notified_at
            .is_some_and(|at| now.duration_since(at) < NOTIFICATION_INTERVAL)
        {
            tracing::debug!("a notification within a second of the last, dropped");
            return;
        }
        self.notified_at = Some(now);
        self.notification = Some((next(&self.notification), text.into()));
    }

    /// A program's passthrough payload (`DCS tmux; ... ST`, taken out only with
    /// `allow-passthrough` on): sent to the clients' terminals if it is one sequence that
    /// asks them nothing, from a pane on screen (`on`) or any pane (`all`).
    pub(super) fn pane_passthrough(&mut self, pane: PaneId, payload: Vec<u8>) {
        let config = self.config_of_pane(pane);
        let allowed = match config.option_value("allow-passthrough").as_deref() {
            Some("all") => true,
            Some("on") => self.window_of(pane) == Some(self.current),
            _ => false,
        };
        if !allowed || !asks_nothing(&payload) {
            tracing::debug!(%pane, bytes = payload.len(), "a passthrough sequence not passed on");
            return;
        }
        let bytes = bytes::Bytes::from(payload);
        for client in self.clients.values() {
            // Never waits: a client that is behind misses it.
            let _ = client
                .control
                .try_send(super::ClientControl::Terminal(bytes.clone()));
        }
    }

    /// The title for the user's terminal: `set-titles-string` for the current window's active
    /// pane, cleaned; `None` while `set-titles` is off.
    pub(super) fn terminal_title(&self) -> Option<Arc<str>> {
        let config = self.config();
        if config.option_value("set-titles").as_deref() != Some("on") {
            return None;
        }
        let window = self.windows.get(self.current)?;
        let format = config.option_value("set-titles-string").unwrap_or_default();
        let vars = self.format_context(self.current, window.active);
        Some(clean_title(&crate::format::expand(&format, &vars)).into())
    }
}

/// Whether a passthrough payload is one sequence that makes the terminal answer nothing
/// (an answer would arrive as keys): an OSC that is not a query (no `?` parameter), kitty
/// graphics with responses off (`q=2`), or a sixel image. Anything else is refused.
pub fn asks_nothing(payload: &[u8]) -> bool {
    // One string, ended by ST (or BEL for an OSC), with no other ESC or BEL inside.
    let body = |start: &[u8]| -> Option<&[u8]> {
        let rest = payload.strip_prefix(start)?;
        let inner = rest.strip_suffix(b"\x1b\\").or_else(|| {
            (start == b"\x1b]")
                .then(|| rest.strip_suffix(b"\x07"))
                .flatten()
        })?;
        (!inner.contains(&0x1b) && !inner.contains(&0x07)).then_some(inner)
    };
    if let Some(osc) = body(b"\x1b]") {
        return !osc.split(|&b| b == b';').any(|p| p == b"?");
    }
    if let Some(graphics) = body(b"\x1b_G") {
        let control = graphics.split(|&b| b == b';').next().unwrap_or_default();
        return control.split(|&b| b == b',').any(|kv| kv == b"q=2");
    }
    if let Some(dcs) = body(b"\x1bP") {
        let params = dcs
            .iter()
            .take_while(|b| b.is_ascii_digit() || **b == b';')
            .count();
        return dcs.get(params) == Some(&b'q');
    }
    false
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
    fn only_sequences_that_ask_nothing_pass_through() {
        assert!(asks_nothing(b"\x1b]52;c;aGk=\x07"));
        assert!(asks_nothing(b"\x1b]1337;File=inline=1:AAAA\x1b\\"));
        assert!(asks_nothing(b"\x1b_Gf=100,q=2;AAAA\x1b\\"));
        assert!(asks_nothing(b"\x1bP0;1;0q#0;2;0;0;0~\x1b\\"));
        // Queries and anything that would make the terminal answer.
        assert!(!asks_nothing(b"\x1b]11;?\x07"));
        assert!(!asks_nothing(b"\x1b]52;c;?\x1b\\"));
        assert!(!asks_nothing(b"\x1b_Gf=100;AAAA\x1b\\"));
        assert!(!asks_nothing(b"\x1bP+q544e\x1b\\"));
        assert!(!asks_nothing(b"\x1bP$qm\x1b\\"));
        assert!(!asks_nothing(b"\x1b[6n"));
        assert!(!asks_nothing(b"\x1b[c"));
        // Two sequences in one: the second could be a query.
        assert!(!asks_nothing(b"\x1b]2;x\x07\x1b[6n\x07"));
        assert!(!asks_nothing(b"\x1b]2;x\x1b[6n\x1b\\"));
    }

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
