//! tmux's `terminal-overrides` and `terminal-features`: what the user says a terminal can do
//! when it does not say so itself (`set -ga terminal-overrides ",xterm-256color:Tc"` for
//! truecolor, `set -as terminal-features ",xterm*:sync:hyperlinks"`). Entries are
//! `PATTERN:NAME[:NAME...]`, comma-separated, the pattern matched against the client's
//! `TERM` (shell-style: `xterm*`). What weft learns by asking the terminal still counts; these
//! only add to it.

/// Features the configuration turns on for one client's terminal.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Forced {
    /// 24-bit colour (`Tc`, `RGB`).
    pub truecolor: bool,
    /// Synchronized output (`Sync`, `sync`).
    pub sync: bool,
    /// Styled and coloured underlines (`Smulx`, `Setulc`, `usstyle`).
    pub underline_styles: bool,
    /// OSC 8 hyperlinks (`hyperlinks`).
    pub hyperlinks: bool,
}

/// What `terminal-overrides` (terminfo capability names) and `terminal-features` (tmux's
/// feature names) turn on for a terminal whose `TERM` is `term`.
pub fn forced(term: &str, overrides: &str, features: &str) -> Forced {
    let mut out = Forced::default();
    for entry in overrides.split(',').chain(features.split(',')) {
        let mut parts = entry.split(':');
        let pattern = parts.next().unwrap_or_default().trim();
        if pattern.is_empty() || !crate::format::fnmatch(pattern, term, false) {
            continue;
        }
        for name in parts {
            // `NAME@` removes a capability in tmux; removing what the terminal said it has
            // is not weft's to do, so it is ignored.
            match name.split('=').next().unwrap_or_default() {
                "Tc" | "RGB" => out.truecolor = true,
                "Sync" | "sync" => out.sync = true,
                "Smulx" | "Setulc" | "usstyle" => out.underline_styles = true,
                "hyperlinks" => out.hyperlinks = true,
                _ => {}
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_for_the_terminal_turn_features_on() {
        let tc = forced("xterm-256color", ",xterm-256color:Tc", "");
        assert!(tc.truecolor && !tc.sync);
        let none = forced("screen", ",xterm-256color:Tc", "");
        assert_eq!(none, Forced::default());
        let all = forced(
            "xterm-kitty",
            "*:Smulx",
            "xterm*:RGB:sync:hyperlinks,foo:usstyle",
        );
        assert!(all.truecolor && all.sync && all.hyperlinks && all.underline_styles);
        assert_eq!(forced("xterm", "xterm:Tc@", ""), Forced::default());
    }
}
