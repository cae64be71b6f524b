//! What weft knows of one client's terminal: what it answered, and what `TERM` and
//! `COLORTERM` say where it did not. Nothing is assumed: what neither says is unknown.

use super::reports::{ColorSlot, Report};
use std::collections::BTreeMap;
use weft_renderer::{ColorDepth, TerminalCaps};
use weft_screen_model::palette::{format_color_spec, HostColors};

/// The modes weft asks about with DECRQM: synchronized output, grapheme clusters, colour
/// scheme updates, SGR pixel mouse reports.
pub const ASKED_MODES: [u16; 4] = [2026, 2027, 2031, 1016];

/// Terminals that show any RGB colour, by the name their XTVERSION answer starts with (or
/// their `TERM`).
const TRUECOLOR_NAMES: &[&str] = &[
    "kitty",
    "wezterm",
    "foot",
    "ghostty",
    "iterm2",
    "contour",
    "alacritty",
    "konsole",
    "tmux",
    "weft",
    "rio",
];

/// Terminals known to take underline styles and colours (`4:3`, `58`) and OSC 8 hyperlinks,
/// by the name their XTVERSION answer starts with (or their `TERM`): those of
/// [`TRUECOLOR_NAMES`], and VTE's. Others get plain underlines and plain text: one that does
/// not parse `4:3` may show it as something else.
const MODERN_EXTRA_NAMES: &[&str] = &["vte"];

/// One client's terminal.
#[derive(Clone, Debug, Default)]
pub struct TerminalInfo {
    /// `TERM` in the client's environment.
    pub term: Option<String>,
    /// `COLORTERM` in the client's environment.
    pub colorterm: Option<String>,
    /// XTVERSION's answer as given (`kitty(0.35.2)`, `XTerm(390)`).
    pub version_text: Option<String>,
    /// DA1's parameters; set once the sentinel was answered.
    pub primary: Option<Vec<u16>>,
    /// DA2's parameters.
    pub secondary: Option<Vec<u16>>,
    /// DECRPM answers by mode.
    pub modes: BTreeMap<u16, u16>,
    /// The kitty keyboard protocol's flags, when the terminal answered `CSI ? u`.
    pub kitty_flags: Option<u32>,
    /// Its colours and scheme.
    pub colors: HostColors,
    /// What `terminal-overrides` and `terminal-features` add for it.
    pub forced: super::Forced,
}

impl TerminalInfo {
    /// What `TERM` and `COLORTERM` in the client's environment say.
    pub fn from_env(env: &[(String, String)]) -> Self {
        let get = |name: &str| {
            env.iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| crate::names::clean(v, 64))
                .filter(|v| !v.is_empty())
        };
        TerminalInfo {
            term: get("TERM"),
            colorterm: get("COLORTERM"),
            ..TerminalInfo::default()
        }
    }

    /// Takes in one answer. Returns whether the colours or scheme changed.
    pub fn learn(&mut self, report: Report) -> bool {
        match report {
            Report::PrimaryAttributes(p) => self.primary = Some(p),
            Report::SecondaryAttributes(p) => self.secondary = Some(p),
            Report::Version(text) => self.version_text = Some(crate::names::clean(&text, 128)),
            Report::Mode { mode, value } => {
                if ASKED_MODES.contains(&mode) {
                    self.modes.insert(mode, value);
                }
            }
            Report::KittyKeyboard(flags) => self.kitty_flags = Some(flags),
            Report::ColorScheme { dark } => {
                let changed = self.colors.dark != Some(dark);
                self.colors.dark = Some(dark);
                return changed;
            }
            Report::Color(slot, rgb) => {
                let place = match slot {
                    ColorSlot::Foreground => &mut self.colors.foreground,
                    ColorSlot::Background => &mut self.colors.background,
                    ColorSlot::Cursor => &mut self.colors.cursor,
                    ColorSlot::Palette(i) => match self.colors.ansi.get_mut(usize::from(i)) {
                        Some(place) => place,
                        None => return false,
                    },
                };
                let changed = *place != Some(rgb);
                *place = Some(rgb);
                return changed;
            }
        }
        false
    }

    /// The terminal's name and version from its XTVERSION answer (`kitty(0.35.2)`,
    /// `WezTerm 20240203`, `tmux 3.4`).
    pub fn name_and_version(&self) -> (Option<String>, Option<String>) {
        let Some(text) = self.version_text.as_deref() else {
            return (None, None);
        };
        let text = text.trim();
        let (name, version) = match text.find(['(', ' ']) {
            Some(at) => (&text[..at], text[at + 1..].trim_end_matches(')').trim()),
            None => (text, ""),
        };
        (
            Some(name.to_string()).filter(|n| !n.is_empty()),
            Some(version.to_string()).filter(|v| !v.is_empty()),
        )
    }

    /// Whether the terminal said it has a DECRQM mode (set or reset, now or always).
    pub fn has_mode(&self, mode: u16) -> bool {
        matches!(self.modes.get(&mode), Some(1..=3))
    }

    /// How many colours it shows: truecolor when `COLORTERM` says so, `TERM` ends in
    /// `-direct` or names a truecolor terminal, or the terminal's own name does; else 256 when
    /// `TERM` says so (or the terminal is an xterm); else 16.
    pub fn color_depth(&self) -> ColorDepth {
        let colorterm = self.colorterm.as_deref().unwrap_or_default();
        let (term, name) = self.lowercase_names();
        let known = |n: &str| TRUECOLOR_NAMES.iter().any(|t| n.starts_with(t));
        let term_names = |t: &str| TRUECOLOR_NAMES.iter().any(|n| t.contains(n));
        if matches!(colorterm, "truecolor" | "24bit")
            || term.ends_with("-direct")
            || term_names(&term)
            || (!name.is_empty() && known(&name))
        {
            ColorDepth::TrueColor
        } else if term.contains("256color") || name == "xterm" {
            ColorDepth::Palette256
        } else {
            ColorDepth::Ansi16
        }
    }

    /// `TERM` and the name the terminal gave for itself (empty when unknown), lowercased.
    fn lowercase_names(&self) -> (String, String) {
        let term = self.term.as_deref().unwrap_or_default();
        let name = self.name_and_version().0.unwrap_or_default();
        (term.to_ascii_lowercase(), name.to_ascii_lowercase())
    }

    /// Whether it is a terminal known to take underline styles and hyperlinks.
    pub fn is_modern(&self) -> bool {
        let (term, name) = self.lowercase_names();
        TRUECOLOR_NAMES
            .iter()
            .chain(MODERN_EXTRA_NAMES)
            .any(|n| (!name.is_empty() && name.starts_with(n)) || term.contains(n))
    }

    /// Whether clipboard writes (OSC 52) may be sent to it: yes unless its `TERM` names a
    /// terminal known not to take them, which would show the sequence's text or beep (tmux
    /// sends them only where its `Ms` capability says so; weft, knowing less, sends them
    /// everywhere else, as unknown terminals mostly take them or drop them quietly). Not sent
    /// to: the Linux and BSD consoles (`linux`, `cons25`), `dumb`, hardware VTs (`vt100`,
    /// `vt220`, ...), and GNU screen (`screen*` when the terminal did not say it is tmux:
    /// screen takes OSC 52 only wrapped in its own passthrough). tmux (`tmux*`, or an
    /// XTVERSION answer naming it) gets them: it takes them with `set-clipboard on` and
    /// drops them quietly otherwise.
    pub fn takes_clipboard(&self) -> bool {
        let (term, name) = self.lowercase_names();
        let screen = term.starts_with("screen") && name != "tmux";
        let refuses = ["linux", "cons25", "dumb"].contains(&term.as_str())
            || (term.starts_with("vt") && term[2..].starts_with(|c: char| c.is_ascii_digit()));
        !(screen || refuses)
    }

    /// What frames for this terminal may use.
    pub fn caps(&self) -> TerminalCaps {
        let modern = self.is_modern();
        let forced = self.forced;
        TerminalCaps {
            depth: if forced.truecolor {
                ColorDepth::TrueColor
            } else {
                self.color_depth()
            },
            synchronized_output: self.has_mode(2026) || forced.sync,
            underline_styles: modern || forced.underline_styles,
            hyperlinks: modern || forced.hyperlinks,
            notifications: modern,
            // OSC 12 goes where OSC 52 may: terminals that show unknown OSC strings as text
            // get neither.
            cursor_colour: self.takes_clipboard(),
        }
    }

    /// The features `list-clients` shows.
    pub fn features(&self) -> Vec<&'static str> {
        let mut features = vec![self.caps().depth.name()];
        for (mode, name) in [
            (2026, "sync"),
            (2027, "graphemes"),
            (2031, "color-scheme"),
            (1016, "sgr-pixels"),
        ] {
            if self.has_mode(mode) {
                features.push(name);
            }
        }
        if self.kitty_flags.is_some() {
            features.push("kitty-keys");
        }
        if self.is_modern() {
            features.extend(["styled-underlines", "hyperlinks"]);
        }
        features
    }

    /// For `list-clients --json`.
    pub fn summary(&self) -> TerminalSummary {
        let (name, version) = self.name_and_version();
        let spec = |c: Option<weft_screen_model::Rgb>| c.map(format_color_spec);
        TerminalSummary {
            name,
            version,
            term: self.term.clone(),
            answered: self.primary.is_some(),
            features: self.features(),
            foreground: spec(self.colors.foreground),
            background: spec(self.colors.background),
            cursor: spec(self.colors.cursor),
            palette: self.colors.ansi.iter().map(|c| spec(*c)).collect(),
            dark: self.colors.is_dark(),
        }
    }
}

/// A client's terminal as `list-clients --json` shows it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TerminalSummary {
    /// Its name, from XTVERSION (`kitty`, `XTerm`).
    pub name: Option<String>,
    /// Its version, from XTVERSION.
    pub version: Option<String>,
    /// `TERM` in the client's environment.
    pub term: Option<String>,
    /// It answered weft's queries (its DA1 came back).
    pub answered: bool,
    /// `truecolor`/`256`/`16`, then `sync`, `graphemes`, `color-scheme`, `sgr-pixels`,
    /// `kitty-keys` for what it said it has.
    pub features: Vec<&'static str>,
    /// Its default foreground (`rgb:rrrr/gggg/bbbb`), when it said.
    pub foreground: Option<String>,
    /// Its default background.
    pub background: Option<String>,
    /// Its cursor colour.
    pub cursor: Option<String>,
    /// The 16 ANSI colours, each when it said.
    pub palette: Vec<Option<String>>,
    /// Its colour scheme is dark (`true`) or light, when known.
    pub dark: Option<bool>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_screen_model::Rgb;

    fn env(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn clipboard_writes_go_everywhere_but_to_terminals_known_to_refuse_them() {
        let takes = |term: &str| TerminalInfo::from_env(&env(&[("TERM", term)])).takes_clipboard();
        for term in [
            "linux",
            "dumb",
            "cons25",
            "vt100",
            "vt220",
            "screen",
            "screen-256color",
        ] {
            assert!(!takes(term), "{term}");
        }
        for term in [
            "xterm-256color",
            "tmux-256color",
            "vte",
            "foot",
            "alacritty",
        ] {
            assert!(takes(term), "{term}");
        }
        assert!(
            TerminalInfo::default().takes_clipboard(),
            "unknown terminals get them"
        );
        let mut tmux = TerminalInfo::from_env(&env(&[("TERM", "screen-256color")]));
        tmux.version_text = Some("tmux 3.4".to_string());
        assert!(tmux.takes_clipboard(), "tmux under TERM=screen");
    }

    #[test]
    fn term_and_colorterm_decide_the_depth_when_the_terminal_says_nothing() {
        let depth = |pairs: &[(&str, &str)]| TerminalInfo::from_env(&env(pairs)).color_depth();
        assert_eq!(depth(&[("TERM", "xterm")]), ColorDepth::Ansi16);
        assert_eq!(depth(&[]), ColorDepth::Ansi16);
        assert_eq!(depth(&[("TERM", "xterm-256color")]), ColorDepth::Palette256);
        assert_eq!(
            depth(&[("TERM", "xterm-256color"), ("COLORTERM", "truecolor")]),
            ColorDepth::TrueColor
        );
        assert_eq!(depth(&[("TERM", "xterm-kitty")]), ColorDepth::TrueColor);
        assert_eq!(depth(&[("TERM", "xterm-direct")]), ColorDepth::TrueColor);
    }

    #[test]
    fn answers_fill_in_name_version_features_and_colours() {
        let mut info = TerminalInfo::from_env(&env(&[("TERM", "xterm")]));
        info.learn(Report::Version("kitty(0.35.2)".into()));
        info.learn(Report::Mode {
            mode: 2026,
            value: 2,
        });
        info.learn(Report::Mode {
            mode: 2031,
            value: 0,
        });
        info.learn(Report::KittyKeyboard(0));
        assert!(info.learn(Report::Color(
            ColorSlot::Background,
            Rgb::new(250, 250, 250)
        )));
        info.learn(Report::PrimaryAttributes(vec![62, 22]));
        let summary = info.summary();
        assert_eq!(summary.name.as_deref(), Some("kitty"));
        assert_eq!(summary.version.as_deref(), Some("0.35.2"));
        assert_eq!(
            summary.features,
            [
                "truecolor",
                "sync",
                "kitty-keys",
                "styled-underlines",
                "hyperlinks"
            ]
        );
        assert_eq!(summary.background.as_deref(), Some("rgb:fafa/fafa/fafa"));
        assert_eq!(summary.dark, Some(false));
        assert!(summary.answered);
        assert!(info.caps().synchronized_output);
        // The terminal's report of its scheme wins over its background.
        assert!(info.learn(Report::ColorScheme { dark: true }));
        assert_eq!(info.summary().dark, Some(true));
    }

    #[test]
    fn names_and_versions_in_the_forms_terminals_give() {
        let parse = |text: &str| {
            let info = TerminalInfo {
                version_text: Some(text.into()),
                ..TerminalInfo::default()
            };
            info.name_and_version()
        };
        assert_eq!(
            parse("XTerm(390)"),
            (Some("XTerm".into()), Some("390".into()))
        );
        assert_eq!(
            parse("WezTerm 20240203-110809-5046fc22"),
            (
                Some("WezTerm".into()),
                Some("20240203-110809-5046fc22".into())
            )
        );
        assert_eq!(parse("foot"), (Some("foot".into()), None));
    }
}
