//! What a client draws over its session for itself alone: prompts, messages, listings, pane
//! numbers, the clock and menus.

use super::MenuView;

/// Something drawn over the session for this client only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Overlay {
    /// A prompt in the status line, with what was typed so far.
    Prompt {
        /// Label, e.g. `:`.
        label: String,
        /// Typed text.
        input: String,
        /// Characters of `input` before the cursor.
        cursor: usize,
        /// In vi's command keys (`status-keys vi`): drawn in `message-command-style`.
        vi_command: bool,
    },
    /// A message in the status line until the next key.
    Message(String),
    /// Lines over the window (key list), until the next key.
    Lines(Vec<String>),
    /// `display-panes`: each pane's index in big digits over it, the active pane's in
    /// `active_style` (`display-panes-active-colour`), the others' in `style`
    /// (`display-panes-colour`).
    PaneNumbers {
        /// Each pane's place, its index, and whether it is the active one.
        panes: Vec<(crate::layout::Rect, String, bool)>,
        /// The others' style (`fg=blue`).
        style: String,
        /// The active pane's.
        active_style: String,
    },
    /// `clock-mode`: the time (`14:05`) in big digits over the active pane, in a style
    /// (`fg=blue`, from `clock-mode-colour`).
    Clock {
        /// The time shown.
        time: String,
        /// Its style.
        style: String,
    },
    /// `display-menu`: a menu over the window.
    Menu(Box<MenuView>),
}
