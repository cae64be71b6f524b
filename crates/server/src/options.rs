//! tmux's options by name: which weft knows, their scope and kind, and setting them on a
//! [`Config`] at run time (`set-option`) or from a configuration file.
//!
//! The options weft acts on are applied to the configuration's typed fields (through the same
//! checks the TOML file uses); the others tmux users set are kept as text, shown by
//! `show-options`, and said to be unused yet, so a `.tmux.conf` loads without failing.
//! User options (`@name`, as plugins use them) are kept as given.

use crate::config::Config;
use std::collections::BTreeMap;

/// Where an option lives in tmux (weft keeps all but `synchronize-panes` server-wide).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// `set -s`.
    Server,
    /// `set -g` / per session.
    Session,
    /// `set -w` / `setw`.
    Window,
    /// `set -p`.
    Pane,
}

/// What values an option takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// on / off (a flag set without a value toggles).
    Flag,
    /// A number.
    Number,
    /// Text (a format, a style, a command, a key name).
    Text,
    /// One of these words.
    Choice(&'static [&'static str]),
    /// Elements by index (`status-format[1]`), each text (see [`crate::option_arrays`]).
    Array,
}

/// One option of tmux's that weft knows.
#[derive(Debug)]
pub struct OptionDef {
    /// tmux's name.
    pub name: &'static str,
    /// Its scope.
    pub scope: Scope,
    /// Its kind.
    pub kind: Kind,
    /// tmux's default, as text.
    pub default: &'static str,
    /// The configuration entry that makes it take effect, when weft acts on it.
    pub applies_as: Option<&'static str>,
}

const fn opt(
    name: &'static str,
    scope: Scope,
    kind: Kind,
    default: &'static str,
    applies_as: Option<&'static str>,
) -> OptionDef {
    OptionDef {
        name,
        scope,
        kind,
        default,
        applies_as,
    }
}

use Kind::{Array, Choice, Flag, Number, Text};
use Scope::{Pane, Server, Session, Window};

/// For `applies_as`: weft acts on the option by reading its text (no typed field).
const USED_AS_TEXT: &str = "";

/// The border lines a popup takes (`popup-border-lines`, `display-popup -b`).
pub const POPUP_BORDER_LINES: &[&str] = &[
    "single", "rounded", "double", "heavy", "simple", "padded", "none",
];

/// `cursor-style`'s words, as DECSCUSR numbers them from 0.
pub const CURSOR_STYLES: &[&str] = &[
    "default",
    "blinking-block",
    "block",
    "blinking-underline",
    "underline",
    "blinking-bar",
    "bar",
];

/// tmux's `remain-on-exit-format`: the line a dead pane shows at its foot.
pub const REMAIN_ON_EXIT_FORMAT: &str = "Pane is dead (#{?#{!=:#{pane_dead_status},},status \
     #{pane_dead_status},}#{?#{!=:#{pane_dead_signal},},signal #{pane_dead_signal},}, \
     #{t:pane_dead_time})";

/// The options, by name.
pub static OPTIONS: &[OptionDef] = &[
    opt("prefix", Session, Text, "C-b", Some("prefix")),
    opt("prefix2", Session, Text, "None", Some("prefix2")),
    opt("mouse", Session, Flag, "on", Some("mouse")),
    opt("mode-keys", Window, Choice(&["emacs", "vi"]), "emacs", Some("mode-keys")),
    opt("status-keys", Session, Choice(&["emacs", "vi"]), "emacs", Some(USED_AS_TEXT)),
    opt("base-index", Session, Number, "0", Some("base-index")),
    opt("pane-base-index", Window, Number, "0", Some(USED_AS_TEXT)),
    opt("renumber-windows", Session, Flag, "off", Some("renumber-windows")),
    opt("escape-time", Server, Number, "10", Some("escape-time-ms")),
    opt("repeat-time", Session, Number, "500", Some("repeat-time")),
    // tmux's default is 1 ms; weft's is off, since terminals bracket their pastes and keys a
    // script writes at once (`C-b c`) must still run bindings.
    opt("assume-paste-time", Session, Number, "0", Some("assume-paste-time")),
    opt("display-time", Session, Number, "750", Some(USED_AS_TEXT)),
    opt("history-limit", Session, Number, "2000", Some("scrollback-lines")),
    opt("default-shell", Session, Text, "", Some("default-shell")),
    opt("default-command", Session, Text, "", Some(USED_AS_TEXT)),
    opt("default-terminal", Server, Text, "xterm-256color", Some("default-term")),
    opt("set-titles", Session, Flag, "off", Some(USED_AS_TEXT)),
    opt("set-titles-string", Session, Text, "#S:#I:#W - \"#T\" #{session_alerts}", Some(USED_AS_TEXT)),
    opt("allow-rename", Pane, Flag, "off", Some(USED_AS_TEXT)),
    opt("automatic-rename", Window, Flag, "on", Some("automatic-rename")),
    // Windows belong to one session each (no linked windows), so they are always sized by
    // their own session's clients: what aggressive-resize asks for.
    opt("aggressive-resize", Window, Flag, "off", Some(USED_AS_TEXT)),
    opt("window-size", Window, Choice(&["largest", "smallest", "manual", "latest"]), "latest", Some(USED_AS_TEXT)),
    opt("focus-events", Server, Flag, "off", Some("focus-events")),
    opt("set-clipboard", Server, Choice(&["on", "external", "off"]), "on", Some("set-clipboard")),
    opt("copy-command", Server, Text, "", Some("copy-command")),
    opt("buffer-limit", Server, Number, "50", Some("buffer-limit")),
    opt("get-clipboard", Server, Flag, "off", Some("get-clipboard")),
    opt("monitor-activity", Window, Flag, "off", Some(USED_AS_TEXT)),
    opt("monitor-bell", Window, Flag, "on", Some(USED_AS_TEXT)),
    opt("monitor-silence", Window, Number, "0", Some(USED_AS_TEXT)),
    opt("visual-activity", Session, Choice(&["on", "off", "both"]), "off", Some(USED_AS_TEXT)),
    opt("visual-bell", Session, Choice(&["on", "off", "both"]), "off", Some(USED_AS_TEXT)),
    opt("visual-silence", Session, Choice(&["on", "off", "both"]), "off", Some(USED_AS_TEXT)),
    opt("bell-action", Session, Choice(&["any", "none", "current", "other"]), "any", Some(USED_AS_TEXT)),
    opt("remain-on-exit", Pane, Flag, "off", Some("remain-on-exit")),
    opt("synchronize-panes", Window, Flag, "off", Some(USED_AS_TEXT)),
    opt("status", Session, Choice(&["on", "off", "2", "3", "4", "5"]), "on", Some("status")),
    opt("status-position", Session, Choice(&["top", "bottom"]), "bottom", Some("status-position")),
    opt("status-interval", Session, Number, "15", Some(USED_AS_TEXT)),
    opt("status-left", Session, Text, "[#{session_name}] ", Some(USED_AS_TEXT)),
    opt("status-right", Session, Text, "#{?window_bigger,[#{window_offset_x}#,#{window_offset_y}] ,}\"#{=21:pane_title}\" %H:%M %d-%b-%y", Some(USED_AS_TEXT)),
    opt("status-left-length", Session, Number, "10", Some(USED_AS_TEXT)),
    opt("status-right-length", Session, Number, "40", Some(USED_AS_TEXT)),
    opt("status-style", Session, Text, "bg=green,fg=black", Some(USED_AS_TEXT)),
    opt("status-justify", Session, Choice(&["left", "centre", "right", "absolute-centre"]), "left", Some(USED_AS_TEXT)),
    opt("window-status-format", Window, Text, "#I:#W#{?window_flags,#{window_flags}, }", Some(USED_AS_TEXT)),
    opt("window-status-current-format", Window, Text, "#I:#W#{?window_flags,#{window_flags}, }", Some(USED_AS_TEXT)),
    opt("window-status-style", Window, Text, "default", Some(USED_AS_TEXT)),
    opt("window-status-current-style", Window, Text, "default", Some(USED_AS_TEXT)),
    opt("status-left-style", Session, Text, "default", Some(USED_AS_TEXT)),
    opt("status-right-style", Session, Text, "default", Some(USED_AS_TEXT)),
    opt("window-status-last-style", Window, Text, "default", Some(USED_AS_TEXT)),
    opt("window-status-bell-style", Window, Text, "reverse", Some(USED_AS_TEXT)),
    opt("window-status-activity-style", Window, Text, "reverse", Some(USED_AS_TEXT)),
    opt("window-status-separator", Window, Text, " ", Some(USED_AS_TEXT)),
    opt("pane-border-style", Window, Text, "default", Some(USED_AS_TEXT)),
    opt("pane-active-border-style", Window, Text, "fg=green", Some(USED_AS_TEXT)),
    opt("pane-border-status", Window, Choice(&["off", "top", "bottom"]), "off", Some("pane-border-status")),
    opt("pane-border-format", Window, Text, "#{?pane_active,#[reverse],}#{pane_index}#[default] \"#{pane_title}\"", Some(USED_AS_TEXT)),
    opt("message-style", Session, Text, "bg=yellow,fg=black", Some(USED_AS_TEXT)),
    opt("message-limit", Server, Number, "1000", Some(USED_AS_TEXT)),
    opt("message-command-style", Session, Text, "bg=black,fg=yellow", Some(USED_AS_TEXT)),
    opt("mode-style", Window, Text, "bg=yellow,fg=black", Some(USED_AS_TEXT)),
    opt("clock-mode-colour", Window, Text, "blue", Some(USED_AS_TEXT)),
    opt("theme", Server, Choice(&["auto", "light", "dark"]), "auto", Some(USED_AS_TEXT)),
    opt("word-separators", Session, Text, "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~", Some(USED_AS_TEXT)),
    opt("update-environment", Session, Text, "DISPLAY KRB5CCNAME SSH_ASKPASS SSH_AUTH_SOCK SSH_AGENT_PID SSH_CONNECTION WINDOWID XAUTHORITY", Some(USED_AS_TEXT)),
    opt("status-bg", Session, Text, "default", Some(USED_AS_TEXT)),
    opt("status-fg", Session, Text, "default", Some(USED_AS_TEXT)),
    opt("terminal-overrides", Server, Text, "", Some(USED_AS_TEXT)),
    opt("terminal-features", Server, Text, "", Some(USED_AS_TEXT)),
    // On by default (tmux 3.3: off): programs that ask for kitty keys or modifyOtherKeys
    // get them; `off` refuses, `always` gives modifyOtherKeys 2 to every program.
    opt("extended-keys", Server, Choice(&["on", "off", "always"]), "on", Some(USED_AS_TEXT)),
    opt("allow-passthrough", Pane, Choice(&["on", "off", "all"]), "off", Some(USED_AS_TEXT)),
    opt("detach-on-destroy", Session, Choice(&["on", "off", "no-detached", "previous", "next"]), "on", Some(USED_AS_TEXT)),
    opt("display-panes-time", Session, Number, "1000", Some(USED_AS_TEXT)),
    opt("main-pane-width", Window, Text, "80", Some(USED_AS_TEXT)),
    opt("main-pane-height", Window, Text, "24", Some(USED_AS_TEXT)),
    opt("wrap-search", Window, Flag, "on", Some(USED_AS_TEXT)),
    opt("exit-empty", Server, Flag, "on", Some(USED_AS_TEXT)),
    opt("history-file", Server, Text, "", Some(USED_AS_TEXT)),
    opt("activity-action", Session, Choice(&["any", "none", "current", "other"]), "other", Some(USED_AS_TEXT)),
    opt("silence-action", Session, Choice(&["any", "none", "current", "other"]), "other", Some(USED_AS_TEXT)),
    opt("lock-after-time", Session, Number, "0", Some(USED_AS_TEXT)),
    opt("lock-command", Session, Text, "lock -np", Some(USED_AS_TEXT)),
    opt("pane-border-lines", Window, Choice(&["single", "double", "heavy", "simple", "number"]), "single", Some(USED_AS_TEXT)),
    opt("popup-style", Window, Text, "default", Some(USED_AS_TEXT)),
    opt("popup-border-style", Window, Text, "default", Some(USED_AS_TEXT)),
    opt("popup-border-lines", Window, Choice(POPUP_BORDER_LINES), "single", Some(USED_AS_TEXT)),
    opt("menu-style", Window, Text, "default", Some(USED_AS_TEXT)),
    opt("menu-selected-style", Window, Text, "bg=yellow,fg=black", Some(USED_AS_TEXT)),
    opt("menu-border-style", Window, Text, "default", Some(USED_AS_TEXT)),
    opt("menu-border-lines", Window, Choice(POPUP_BORDER_LINES), "single", Some(USED_AS_TEXT)),
    opt("clock-mode-style", Window, Choice(&["12", "24"]), "24", Some(USED_AS_TEXT)),
    opt("display-panes-colour", Session, Text, "blue", Some(USED_AS_TEXT)),
    opt("display-panes-active-colour", Session, Text, "red", Some(USED_AS_TEXT)),
    opt("window-style", Window, Text, "default", Some(USED_AS_TEXT)),
    opt("window-active-style", Window, Text, "default", Some(USED_AS_TEXT)),
    opt("pane-border-indicators", Window, Choice(&["off", "colour", "arrows", "both"]), "colour", Some(USED_AS_TEXT)),
    opt("automatic-rename-format", Window, Text, "#{?pane_in_mode,[tmux],#{pane_current_command}}#{?pane_dead,[dead],}", Some(USED_AS_TEXT)),
    opt("other-pane-height", Window, Text, "0", Some(USED_AS_TEXT)),
    opt("other-pane-width", Window, Text, "0", Some(USED_AS_TEXT)),
    opt("alternate-screen", Pane, Flag, "on", Some(USED_AS_TEXT)),
    // Kept by tmux for old configurations and used by neither.
    opt("xterm-keys", Window, Flag, "on", Some(USED_AS_TEXT)),
    opt("copy-mode-match-style", Window, Text, "bg=cyan,fg=black", Some(USED_AS_TEXT)),
    opt("copy-mode-current-match-style", Window, Text, "bg=magenta,fg=black", Some(USED_AS_TEXT)),
    opt("status-format", Session, Array, "", Some(USED_AS_TEXT)),
    opt("command-alias", Server, Array, "", Some(USED_AS_TEXT)),
    // Keys a terminal sends that tmux does not know, bound as User0, User1...
    opt("user-keys", Server, Array, "", Some(USED_AS_TEXT)),
    opt("pane-colours", Pane, Array, "", Some(USED_AS_TEXT)),
    opt("key-table", Session, Text, "root", Some(USED_AS_TEXT)),
    opt("default-size", Session, Text, "80x24", Some(USED_AS_TEXT)),
    opt("destroy-unattached", Session, Flag, "off", Some(USED_AS_TEXT)),
    opt("exit-unattached", Server, Flag, "off", Some(USED_AS_TEXT)),
    opt("prompt-history-limit", Server, Number, "100", Some(USED_AS_TEXT)),
    opt("remain-on-exit-format", Pane, Text, REMAIN_ON_EXIT_FORMAT, Some(USED_AS_TEXT)),
    opt("cursor-style", Pane, Choice(CURSOR_STYLES), "default", Some(USED_AS_TEXT)),
    opt("cursor-colour", Pane, Text, "none", Some(USED_AS_TEXT)),
    opt("scroll-on-clear", Pane, Flag, "on", Some(USED_AS_TEXT)),
    opt("copy-mode-mark-style", Window, Text, "bg=red,fg=black", Some(USED_AS_TEXT)),
    opt("fill-character", Window, Text, "", Some(USED_AS_TEXT)),
    opt("backspace", Server, Text, "C-?", Some(USED_AS_TEXT)),
    opt("editor", Server, Text, "/usr/bin/vi", Some(USED_AS_TEXT)),
    // weft's own.
    opt("frame-interval-ms", Server, Number, "8", Some("frame-interval-ms")),
];

/// tmux's other spelling of an option's name: `-color` for `-colour` (`clock-mode-color`).
pub fn canonical_name(name: &str) -> std::borrow::Cow<'_, str> {
    match name.strip_suffix("-color") {
        Some(stem) if !name.starts_with('@') && find(&format!("{stem}-colour")).is_some() => {
            format!("{stem}-colour").into()
        }
        _ => name.into(),
    }
}

/// The most user options (`@name`) kept, and the longest value of any option: a client may not
/// grow the server's memory without bound.
pub const MAX_USER_OPTIONS: usize = 10_000;
/// See [`MAX_USER_OPTIONS`].
pub const MAX_OPTION_BYTES: usize = 64 << 10;

/// How `set-option` changes a value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SetHow {
    /// `-u`: back to the default.
    pub unset: bool,
    /// `-a`: append to the text.
    pub append: bool,
    /// `-o`: only when not set yet.
    pub only_if_unset: bool,
}

/// The option named `name` (an array's element, `status-format[1]`, finds its array).
pub fn find(name: &str) -> Option<&'static OptionDef> {
    let name = name.split_once('[').map_or(name, |(base, _)| base);
    OPTIONS.iter().find(|o| o.name == name)
}

/// What setting an option came to: applied, kept for later, or nothing to do.
#[derive(Debug, PartialEq, Eq)]
pub enum Applied {
    /// It takes effect now.
    Now,
    /// Kept and shown, but weft does not act on it yet.
    Stored,
    /// Left as it was (`-o` on an option already set).
    Unchanged,
}

impl Config {
    /// Sets option `name` to `value` (`None`: toggle a flag, or an error for the others).
    /// Errors are sentences for the user.
    pub fn set_option(
        &mut self,
        name: &str,
        value: Option<&str>,
        how: SetHow,
    ) -> Result<Applied, String> {
        if name.starts_with('@') {
            return self.set_user_option(name, value, how);
        }
        let name = &*canonical_name(name);
        let def = find(name).ok_or_else(|| format!("unknown option: {name}"))?;
        let (_, index) = crate::option_arrays::split_index(name)?;
        if def.kind == Array {
            return self.set_array(def, index, value, how);
        }
        if index.is_some() {
            return Err(format!(
                "{} is not an array option: set it without [N]",
                def.name
            ));
        }
        if how.only_if_unset && self.options.contains_key(name) {
            return Ok(Applied::Unchanged);
        }
        let current = self.option_value(name).unwrap_or_default();
        let text = if how.unset {
            // weft's own default where weft acts on the option, else tmux's.
            Config::default()
                .option_value(name)
                .unwrap_or_else(|| def.default.to_string())
        } else {
            match (value, def.kind) {
                (None, Flag) => if current == "on" { "off" } else { "on" }.to_string(),
                (None, _) => return Err(format!("{name} needs a value")),
                (Some(v), _) if how.append => format!("{current}{v}"),
                (Some(v), _) => v.to_string(),
            }
        };
        if text.len() > MAX_OPTION_BYTES {
            return Err(format!(
                "{name}: a value may be at most {} KiB",
                MAX_OPTION_BYTES >> 10
            ));
        }
        let text = check_value(def, &text)?;
        if let Some(entry) = def.applies_as.filter(|e| !e.is_empty()) {
            crate::config::apply_entry(self, entry, &toml_value(def, &text))?;
        }
        if how.unset {
            self.options.remove(name);
        } else {
            self.options.insert(name.to_string(), text);
        }
        Ok(if def.applies_as.is_some() {
            Applied::Now
        } else {
            Applied::Stored
        })
    }

    fn set_user_option(
        &mut self,
        name: &str,
        value: Option<&str>,
        how: SetHow,
    ) -> Result<Applied, String> {
        if how.unset {
            self.options.remove(name);
            return Ok(Applied::Now);
        }
        if how.only_if_unset && self.options.contains_key(name) {
            return Ok(Applied::Unchanged);
        }
        let value = value.unwrap_or_default();
        let users = self.options.keys().filter(|k| k.starts_with('@')).count();
        if users >= MAX_USER_OPTIONS && !self.options.contains_key(name) {
            return Err(format!("at most {MAX_USER_OPTIONS} user options are kept"));
        }
        let current = self.options.get(name).map_or(0, String::len);
        if value.len() + if how.append { current } else { 0 } > MAX_OPTION_BYTES {
            return Err(format!(
                "{name}: a value may be at most {} KiB",
                MAX_OPTION_BYTES >> 10
            ));
        }
        let entry = self.options.entry(name.to_string()).or_default();
        if how.append {
            entry.push_str(value);
        } else {
            *entry = value.to_string();
        }
        Ok(Applied::Now)
    }

    /// The value of option `name` as `show-options` prints it; `None` for an unknown one.
    pub fn option_value(&self, name: &str) -> Option<String> {
        if name.starts_with('@') {
            return self.options.get(name).cloned();
        }
        let def = find(name)?;
        if def.kind == Array {
            return match crate::option_arrays::split_index(name).ok()? {
                (_, Some(index)) => self.array_element(def.name, index),
                (base, None) => Some(
                    self.array_elements(base)
                        .into_iter()
                        .map(|(_, v)| v)
                        .collect::<Vec<_>>()
                        .join(","),
                ),
            };
        }
        let on = |b: bool| if b { "on" } else { "off" }.to_string();
        let typed = match name {
            "prefix" => Some(self.keys.prefix.clone()),
            "prefix2" => Some(self.keys.prefix2.clone().unwrap_or_else(|| "None".into())),
            "mouse" => Some(on(self.mouse)),
            "mode-keys" => Some(if self.mode_keys_vi { "vi" } else { "emacs" }.to_string()),
            "escape-time" => Some(self.escape_time.as_millis().to_string()),
            "history-limit" => Some(self.scrollback_lines.to_string()),
            "default-shell" => Some(self.default_shell.clone().unwrap_or_default()),
            "default-terminal" => Some(self.default_term.clone()),
            "remain-on-exit" => Some(on(self.remain_on_exit)),
            // `status 2`: that many lines, kept as written.
            "status" => Some(match self.options.get("status") {
                Some(lines) if self.status && lines.parse::<u8>().is_ok() => lines.clone(),
                _ => on(self.status),
            }),
            "status-position" => Some(
                match self.status_position {
                    crate::config::StatusPosition::Top => "top",
                    crate::config::StatusPosition::Bottom => "bottom",
                }
                .to_string(),
            ),
            "frame-interval-ms" => Some(self.frame_interval.as_millis().to_string()),
            "repeat-time" => Some(self.repeat_time.as_millis().to_string()),
            "assume-paste-time" => Some(self.assume_paste_time.as_millis().to_string()),
            "base-index" => Some(self.base_index.to_string()),
            "renumber-windows" => Some(on(self.renumber_windows)),
            "automatic-rename" => Some(on(self.automatic_rename)),
            "focus-events" => Some(on(self.focus_events)),
            "pane-border-status" => Some(
                match self.pane_border_status {
                    crate::config::BorderStatus::Off => "off",
                    crate::config::BorderStatus::Top => "top",
                    crate::config::BorderStatus::Bottom => "bottom",
                }
                .to_string(),
            ),
            "buffer-limit" => Some(self.buffer_limit.to_string()),
            "get-clipboard" => Some(on(self.get_clipboard)),
            "copy-command" => Some(self.copy_command.clone().unwrap_or_default()),
            _ => None,
        };
        Some(
            typed
                .or_else(|| self.options.get(name).cloned())
                .unwrap_or_else(|| def.default.to_string()),
        )
    }

    /// A number option read as milliseconds (`display-time`); 0 when it does not parse, which
    /// values that passed `set-option`'s checks always do.
    pub fn millis_option(&self, name: &str) -> std::time::Duration {
        let millis = self
            .option_value(name)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0);
        std::time::Duration::from_millis(millis)
    }

    /// How many status lines show: 0 with `status off`, else 1 to 5 (`status 2`).
    pub fn status_lines(&self) -> u16 {
        if !self.status {
            return 0;
        }
        self.options
            .get("status")
            .and_then(|v| v.parse::<u16>().ok())
            .unwrap_or(1)
            .clamp(1, 5)
    }

    /// A program's keyboard mode (what it asked for) as `extended-keys` lets it have it.
    pub fn keyboard_mode_for(
        &self,
        asked: weft_screen_model::keyboard::KeyboardMode,
    ) -> weft_screen_model::keyboard::KeyboardMode {
        crate::pane_keys::with_extended_keys(asked, self.option_value("extended-keys").as_deref())
    }

    /// Key `name`, sent as `bytes`, for a program that asked for keys in `asked`: in the form
    /// it gets them (see [`crate::pane_keys::bytes_for_pane`]), Backspace as `backspace` says;
    /// empty when it reaches the program not at all.
    pub fn key_for_program(
        &self,
        name: &str,
        bytes: &bytes::Bytes,
        asked: weft_screen_model::keyboard::KeyboardMode,
    ) -> bytes::Bytes {
        let out = crate::pane_keys::bytes_for_pane(name, bytes, self.keyboard_mode_for(asked));
        crate::pane_keys::with_backspace(name, out, self.backspace_for(name))
    }

    /// The byte Backspace sends for key `name` (tmux's `backspace`; DEL for other keys, whose
    /// bytes it does not change, without reading the option).
    pub fn backspace_for(&self, name: &str) -> u8 {
        if !name.ends_with("BSpace") {
            return crate::pane_keys::DEL;
        }
        crate::pane_keys::backspace_byte(self.option_value("backspace").as_deref())
    }

    /// The first pane index (`pane-base-index`): `pane_index`, `.N` targets and
    /// `display-panes` count from it.
    pub fn pane_base_index(&self) -> usize {
        self.option_value("pane-base-index")
            .and_then(|v| v.parse::<usize>().ok())
            .unwrap_or(0)
    }

    /// Every option and its value, as `show-options` lists them: tmux's, then user options.
    pub fn option_lines(&self) -> Vec<(String, String)> {
        let mut lines: Vec<(String, String)> = Vec::new();
        for o in OPTIONS {
            if o.kind == Array {
                lines.extend(
                    self.array_elements(o.name)
                        .into_iter()
                        .map(|(i, v)| (format!("{}[{i}]", o.name), v)),
                );
            } else if let Some(v) = self.option_value(o.name) {
                lines.push((o.name.to_string(), v));
            }
        }
        let user: BTreeMap<&String, &String> = self
            .options
            .iter()
            .filter(|(k, _)| k.starts_with('@'))
            .collect();
        lines.extend(user.into_iter().map(|(k, v)| (k.clone(), v.clone())));
        lines
    }
}

/// `text` checked against the option's kind (flags accept tmux's spellings).
fn check_value(def: &OptionDef, text: &str) -> Result<String, String> {
    match def.kind {
        Flag => match text {
            "on" | "yes" | "1" | "true" => Ok("on".into()),
            "off" | "no" | "0" | "false" => Ok("off".into()),
            other => Err(format!("{}: on or off, not {other:?}", def.name)),
        },
        Number => text
            .parse::<u64>()
            .map(|n| n.to_string())
            .map_err(|_| format!("{}: a number, not {text:?}", def.name)),
        Choice(words) => {
            if words.contains(&text) {
                Ok(text.to_string())
            } else {
                Err(format!(
                    "{}: one of {}, not {text:?}",
                    def.name,
                    words.join(", ")
                ))
            }
        }
        Text if def.name.ends_with("-style") => crate::style::check(text)
            .map(|()| text.to_string())
            .map_err(|e| format!("{}: {e}", def.name)),
        Text if def.name == "default-size" => parse_size(text)
            .map(|_| text.to_string())
            .ok_or_else(|| format!("default-size: a size as 80x24, not {text:?}")),
        Text if def.name == "cursor-colour" => check_colour(def.name, text).map(|()| text.into()),
        Text | Array => Ok(text.to_string()),
    }
}

/// `text` is a colour as tmux names them, or `none` (for `cursor-colour`, `pane-colours`).
pub(crate) fn check_colour(name: &str, text: &str) -> Result<(), String> {
    if text == "none" || crate::style::colour(text).is_some() {
        Ok(())
    } else {
        Err(format!(
            "{name}: a colour (red, colour123, #ff8000, an X11 name such as orange, or none), \
             not {text:?}"
        ))
    }
}

/// `default-size`'s `COLSxROWS`, each at least 1.
pub fn parse_size(text: &str) -> Option<(u16, u16)> {
    let (cols, rows) = text.split_once('x')?;
    let (cols, rows) = (cols.parse::<u16>().ok()?, rows.parse::<u16>().ok()?);
    (cols > 0 && rows > 0).then_some((cols, rows))
}

/// The checked text as the configuration entry takes it.
fn toml_value(def: &OptionDef, text: &str) -> toml::Value {
    match def.kind {
        Flag => toml::Value::Boolean(text == "on"),
        Number => toml::Value::Integer(text.parse::<i64>().unwrap_or(i64::MAX)),
        // `status 2` (several status lines) is one status line in weft.
        Choice(_) if def.name == "status" => toml::Value::Boolean(text != "off"),
        _ => toml::Value::String(text.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_apply_toggle_append_and_unset() {
        let mut c = Config::default();
        assert_eq!(
            c.set_option("mouse", Some("off"), SetHow::default()),
            Ok(Applied::Now)
        );
        assert!(!c.mouse);
        c.set_option("mouse", None, SetHow::default()).unwrap();
        assert!(c.mouse, "a flag without a value toggles");
        c.set_option("history-limit", Some("50000"), SetHow::default())
            .unwrap();
        assert_eq!(c.scrollback_lines, 50000);
        c.set_option("prefix", Some("C-a"), SetHow::default())
            .unwrap();
        assert_eq!(c.keys.prefix, "C-a");
        assert_eq!(
            c.set_option("lock-after-time", Some("60"), SetHow::default()),
            Ok(Applied::Now)
        );
        assert_eq!(
            c.set_option("status-left", Some("[#S]"), SetHow::default()),
            Ok(Applied::Now)
        );
        assert!(c
            .set_option("status-style", Some("fg=sparkly"), SetHow::default())
            .is_err());
        let append = SetHow {
            append: true,
            ..SetHow::default()
        };
        c.set_option("status-left", Some(" x"), append).unwrap();
        assert_eq!(c.option_value("status-left").as_deref(), Some("[#S] x"));
        c.set_option("@plugin", Some("tmux-plugins/tpm"), SetHow::default())
            .unwrap();
        assert_eq!(
            c.option_value("@plugin").as_deref(),
            Some("tmux-plugins/tpm")
        );
        let unset = SetHow {
            unset: true,
            ..SetHow::default()
        };
        c.set_option("history-limit", None, unset).unwrap();
        assert_eq!(c.scrollback_lines, Config::default().scrollback_lines);
        assert!(c
            .set_option("mouse", Some("maybe"), SetHow::default())
            .is_err());
        assert!(c
            .set_option("no-such", Some("1"), SetHow::default())
            .is_err());
        let only = SetHow {
            only_if_unset: true,
            ..SetHow::default()
        };
        assert_eq!(
            c.set_option("@plugin", Some("x"), only),
            Ok(Applied::Unchanged)
        );
    }
}
