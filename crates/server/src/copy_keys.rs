//! The default copy-mode key tables, `copy-mode` (emacs keys) and `copy-mode-vi`, as tmux
//! binds them, with the additions most users make (`v` and `y` in vi).

use std::collections::BTreeMap;

/// Bindings shared by both tables.
const COMMON: &[(&str, &str)] = &[
    ("Up", "send-keys -X cursor-up"),
    ("Down", "send-keys -X cursor-down"),
    ("Left", "send-keys -X cursor-left"),
    ("Right", "send-keys -X cursor-right"),
    ("PageUp", "send-keys -X page-up"),
    ("PageDown", "send-keys -X page-down"),
    ("Home", "send-keys -X start-of-line"),
    ("End", "send-keys -X end-of-line"),
    ("C-Up", "send-keys -X scroll-up"),
    ("C-Down", "send-keys -X scroll-down"),
    ("X", "send-keys -X set-mark"),
    ("M-x", "send-keys -X jump-to-mark"),
    // tmux's keys for the shell's prompts (OSC 133 marks).
    ("C-M-Up", "send-keys -X previous-prompt"),
    ("C-M-Down", "send-keys -X next-prompt"),
    ("n", "send-keys -X search-again"),
    ("N", "send-keys -X search-reverse"),
    (";", "send-keys -X jump-again"),
    (",", "send-keys -X jump-reverse"),
    (
        "f",
        "command-prompt -1 -p \"(jump forward)\" \"send-keys -X jump-forward \\\"%%\\\"\"",
    ),
    (
        "F",
        "command-prompt -1 -p \"(jump backward)\" \"send-keys -X jump-backward \\\"%%\\\"\"",
    ),
    (
        "t",
        "command-prompt -1 -p \"(jump to forward)\" \"send-keys -X jump-to-forward \\\"%%\\\"\"",
    ),
    (
        "T",
        "command-prompt -1 -p \"(jump to backward)\" \"send-keys -X jump-to-backward \\\"%%\\\"\"",
    ),
];

/// `copy-mode-vi`.
const VI: &[(&str, &str)] = &[
    ("q", "send-keys -X cancel"),
    ("C-c", "send-keys -X cancel"),
    ("Escape", "send-keys -X clear-selection-or-cancel"),
    ("h", "send-keys -X cursor-left"),
    ("j", "send-keys -X cursor-down"),
    ("k", "send-keys -X cursor-up"),
    ("l", "send-keys -X cursor-right"),
    ("BSpace", "send-keys -X cursor-left"),
    ("Space", "send-keys -X begin-selection"),
    ("v", "send-keys -X begin-selection"),
    ("V", "send-keys -X select-line"),
    ("C-v", "send-keys -X rectangle-toggle"),
    ("r", "send-keys -X rectangle-toggle"),
    ("o", "send-keys -X other-end"),
    ("y", "send-keys -X copy-selection-and-cancel"),
    ("Enter", "send-keys -X copy-selection-and-cancel"),
    ("A", "send-keys -X append-selection-and-cancel"),
    ("D", "send-keys -X copy-end-of-line-and-cancel"),
    ("w", "send-keys -X next-word"),
    ("b", "send-keys -X previous-word"),
    ("e", "send-keys -X next-word-end"),
    ("W", "send-keys -X next-space"),
    ("B", "send-keys -X previous-space"),
    ("E", "send-keys -X next-space-end"),
    ("0", "send-keys -X start-of-line"),
    ("$", "send-keys -X end-of-line"),
    ("^", "send-keys -X back-to-indentation"),
    ("H", "send-keys -X top-line"),
    ("M", "send-keys -X middle-line"),
    ("L", "send-keys -X bottom-line"),
    ("g", "send-keys -X history-top"),
    ("G", "send-keys -X history-bottom"),
    ("C-u", "send-keys -X halfpage-up"),
    ("C-d", "send-keys -X halfpage-down"),
    ("C-b", "send-keys -X page-up"),
    ("C-f", "send-keys -X page-down"),
    ("C-y", "send-keys -X scroll-up"),
    ("C-e", "send-keys -X scroll-down"),
    ("%", "send-keys -X next-matching-bracket"),
    ("{", "send-keys -X previous-paragraph"),
    ("}", "send-keys -X next-paragraph"),
    // weft's: the shell's prompts on single keys tmux leaves unbound.
    ("[", "send-keys -X previous-prompt"),
    ("]", "send-keys -X next-prompt"),
    ("#", "send-keys -FX search-backward -- \"#{copy_cursor_word}\""),
    ("*", "send-keys -FX search-forward -- \"#{copy_cursor_word}\""),
    ("J", "send-keys -X scroll-down"),
    ("K", "send-keys -X scroll-up"),
    ("z", "send-keys -X scroll-middle"),
    ("C-h", "send-keys -X cursor-left"),
    ("C-j", "send-keys -X copy-pipe-and-cancel"),
    (
        ":",
        "command-prompt -p \"(goto line)\" \"send-keys -X goto-line \\\"%%\\\"\"",
    ),
    (
        "/",
        "command-prompt -T search -i -p \"(search down)\" \"send-keys -X search-forward-incremental \\\"%%\\\"\"",
    ),
    (
        "?",
        "command-prompt -T search -i -p \"(search up)\" \"send-keys -X search-backward-incremental \\\"%%\\\"\"",
    ),
];

/// `copy-mode` (emacs keys).
const EMACS: &[(&str, &str)] = &[
    ("q", "send-keys -X cancel"),
    ("Escape", "send-keys -X cancel"),
    ("C-c", "send-keys -X cancel"),
    ("C-g", "send-keys -X clear-selection"),
    ("C-Space", "send-keys -X begin-selection"),
    ("C-@", "send-keys -X begin-selection"),
    ("M-w", "send-keys -X copy-selection-and-cancel"),
    ("C-w", "send-keys -X copy-selection-and-cancel"),
    ("Enter", "send-keys -X copy-selection-and-cancel"),
    ("R", "send-keys -X rectangle-toggle"),
    ("C-b", "send-keys -X cursor-left"),
    ("C-f", "send-keys -X cursor-right"),
    ("C-p", "send-keys -X cursor-up"),
    ("C-n", "send-keys -X cursor-down"),
    ("C-a", "send-keys -X start-of-line"),
    ("C-e", "send-keys -X end-of-line"),
    ("M-m", "send-keys -X back-to-indentation"),
    ("M-f", "send-keys -X next-word-end"),
    ("M-b", "send-keys -X previous-word"),
    ("C-v", "send-keys -X page-down"),
    ("M-v", "send-keys -X page-up"),
    ("Space", "send-keys -X page-down"),
    ("M-<", "send-keys -X history-top"),
    ("M->", "send-keys -X history-bottom"),
    ("M-R", "send-keys -X top-line"),
    ("M-r", "send-keys -X middle-line"),
    ("M-{", "send-keys -X previous-paragraph"),
    ("M-}", "send-keys -X next-paragraph"),
    ("C-k", "send-keys -X copy-pipe-end-of-line-and-cancel"),
    ("C-l", "send-keys -X recentre-top-bottom"),
    ("M-l", "send-keys -X cursor-centre-horizontal"),
    ("M-Up", "send-keys -X halfpage-up"),
    ("M-Down", "send-keys -X halfpage-down"),
    ("C-M-b", "send-keys -X previous-matching-bracket"),
    ("C-M-f", "send-keys -X next-matching-bracket"),
    (
        "g",
        "command-prompt -p \"(goto line)\" \"send-keys -X goto-line \\\"%%\\\"\"",
    ),
    (
        "C-s",
        "command-prompt -T search -i -p \"(search down)\" \"send-keys -X search-forward-incremental \\\"%%\\\"\"",
    ),
    (
        "C-r",
        "command-prompt -T search -i -p \"(search up)\" \"send-keys -X search-backward-incremental \\\"%%\\\"\"",
    ),
];

fn table(own: &[(&str, &str)]) -> BTreeMap<String, String> {
    COMMON
        .iter()
        .chain(own)
        .map(|(k, c)| (k.to_string(), c.to_string()))
        .collect()
}

/// The default `copy-mode-vi` table.
pub fn vi_table() -> BTreeMap<String, String> {
    table(VI)
}

/// The default `copy-mode` (emacs) table.
pub fn emacs_table() -> BTreeMap<String, String> {
    table(EMACS)
}

/// The count a key adds to in vi copy mode (`5j`): its digit, when it is one (`0` only after
/// another digit, since alone it goes to the line's start).
pub fn count_digit(key: &str, counting: bool) -> Option<u32> {
    let digit = key.parse::<u32>().ok().filter(|_| key.len() == 1)?;
    (digit != 0 || counting).then_some(digit)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every default binding names a copy-mode command weft has, and keys written as the key
    /// parser names them.
    #[test]
    fn every_default_binding_runs_a_known_command() {
        for (key, command) in vi_table().into_iter().chain(emacs_table()) {
            assert_eq!(crate::keys::normalize(&key).as_deref(), Ok(key.as_str()));
            if let Some(name) = command
                .strip_prefix("send-keys -X ")
                .and_then(|rest| rest.split_whitespace().next())
            {
                assert!(
                    crate::copy::command::NAMES.contains(&name),
                    "{key}: {command}"
                );
            }
        }
    }
}
