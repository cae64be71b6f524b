//! The key tables keys are looked up in (`prefix`, `root`, the copy-mode tables and the
//! user's own), with tmux's default bindings.

use crate::keys::DEFAULT_PREFIX;
use std::collections::BTreeMap;

/// Key tables: `prefix` (after the prefix key) and `root` (always).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyTables {
    /// The prefix key's name.
    pub prefix: String,
    /// A second prefix key (`prefix2`), if any.
    pub prefix2: Option<String>,
    /// After the prefix.
    pub prefix_table: BTreeMap<String, String>,
    /// Without the prefix.
    pub root_table: BTreeMap<String, String>,
    /// In copy mode with emacs keys (`mode-keys emacs`).
    pub copy_mode: BTreeMap<String, String>,
    /// In copy mode with vi keys (`mode-keys vi`).
    pub copy_mode_vi: BTreeMap<String, String>,
    /// Tables of the user's own (`bind -T mytable`), entered with `switch-client -T`.
    pub user: BTreeMap<String, BTreeMap<String, String>>,
    /// Bindings that repeat (`bind -r`), as `table key`.
    pub repeat: std::collections::BTreeSet<String>,
    /// Notes (`bind -N`), by `table key`.
    pub notes: BTreeMap<String, String>,
}

impl Default for KeyTables {
    fn default() -> Self {
        let mut p = BTreeMap::new();
        let mut bind = |k: &str, c: &str| {
            p.insert(k.to_string(), c.to_string());
        };
        bind("%", "split-window -h");
        bind("\"", "split-window -v");
        bind("Left", "select-pane -L");
        bind("Right", "select-pane -R");
        bind("Up", "select-pane -U");
        bind("Down", "select-pane -D");
        bind("o", "select-pane -t .+");
        bind(";", "last-pane");
        bind("m", "select-pane -m");
        bind("M", "select-pane -M");
        bind("q", "display-panes");
        bind("t", "clock-mode");
        bind("C-z", "suspend-client");
        bind("C-Left", "resize-pane -L 1");
        bind("C-Right", "resize-pane -R 1");
        bind("C-Up", "resize-pane -U 1");
        bind("C-Down", "resize-pane -D 1");
        bind("M-Left", "resize-pane -L 5");
        bind("M-Right", "resize-pane -R 5");
        bind("M-Up", "resize-pane -U 5");
        bind("M-Down", "resize-pane -D 5");
        bind("z", "resize-pane -Z");
        bind("x", "confirm-before -p \"kill-pane? (y/n)\" kill-pane");
        bind("!", "break-pane");
        bind("{", "swap-pane -U");
        bind("}", "swap-pane -D");
        bind("C-o", "rotate-window");
        bind("M-o", "rotate-window -D");
        bind("Space", "next-layout");
        for (key, preset) in [
            ("M-1", "even-horizontal"),
            ("M-2", "even-vertical"),
            ("M-3", "main-horizontal"),
            ("M-4", "main-vertical"),
            ("M-5", "tiled"),
        ] {
            bind(key, &format!("select-layout {preset}"));
        }
        bind("'", "command-prompt -p index \"select-window -t ':%%'\"");
        bind("i", "display-message");
        bind("c", "new-window");
        bind("n", "next-window");
        bind("p", "previous-window");
        bind("l", "last-window");
        for i in 0..10 {
            bind(&i.to_string(), &format!("select-window -t :{i}"));
        }
        bind(
            ",",
            r##"command-prompt -I "#W" -p "(rename-window) " "rename-window -- \"%%\"""##,
        );
        bind("&", "confirm-before -p \"kill-window? (y/n)\" kill-window");
        bind("d", "detach-client");
        bind("(", "switch-client -p");
        bind(")", "switch-client -n");
        bind("L", "switch-client -l");
        bind("s", "choose-tree -Zs");
        bind(
            ".",
            "command-prompt -p \"(move-window) index: \" \"move-window -t \\\":%%\\\"\"",
        );
        bind(
            "f",
            "command-prompt -p \"(find-window) \" \"find-window -- \\\"%%\\\"\"",
        );
        bind("w", "choose-tree -Zw");
        bind(
            "$",
            "command-prompt -I \"#S\" \"rename-session -- \\\"%%\\\"\"",
        );
        bind("r", "refresh-client");
        bind(":", "command-prompt");
        bind("[", "copy-mode");
        bind("PageUp", "copy-mode -u");
        bind("?", "list-keys");
        bind("C-b", "send-prefix");
        bind("]", "paste-buffer -p");
        bind("=", "choose-buffer");
        bind("#", "list-buffers");
        bind("-", "delete-buffer");
        bind("~", "show-messages");
        bind("D", "choose-client -Z");
        bind("/", r#"command-prompt -k -p key "list-keys -1N \"%%\"""#);
        bind("E", "select-layout -E");
        bind("M-n", "next-window -a");
        bind("M-p", "previous-window -a");
        for (key, line) in crate::default_menus::prefix_bindings() {
            bind(key, &line);
        }
        KeyTables {
            prefix: DEFAULT_PREFIX.to_string(),
            prefix2: None,
            prefix_table: p,
            root_table: crate::default_menus::root_bindings().into_iter().collect(),
            copy_mode: crate::copy_keys::emacs_table(),
            copy_mode_vi: crate::copy_keys::vi_table(),
            user: BTreeMap::new(),
            // As tmux binds them: arrows and resizes repeat.
            repeat: [
                "Up", "Down", "Left", "Right", "C-Up", "C-Down", "C-Left", "C-Right", "M-Up",
                "M-Down", "M-Left", "M-Right",
            ]
            .iter()
            .map(|k| format!("prefix {k}"))
            .collect(),
            notes: BTreeMap::new(),
        }
    }
}

impl KeyTables {
    /// Every binding as `bind-key [-T table] KEY COMMAND` lines, for `?` and `list-keys`.
    pub fn describe(&self) -> Vec<String> {
        let mut lines = vec![format!("prefix: {}", self.prefix)];
        for (k, c) in &self.prefix_table {
            let r = if self.repeats("prefix", k) { "-r " } else { "" };
            let k = key_word(k);
            lines.push(format!("bind-key {r}-T prefix {k:<10} {c}"));
        }
        let tables = [
            ("root  ", &self.root_table),
            ("copy-mode", &self.copy_mode),
            ("copy-mode-vi", &self.copy_mode_vi),
        ];
        for (table, keys) in tables
            .into_iter()
            .chain(self.user.iter().map(|(t, k)| (t.as_str(), k)))
        {
            for (k, c) in keys {
                let k = key_word(k);
                lines.push(format!("bind-key -T {table} {k:<10} {c}"));
            }
        }
        lines
    }
}

/// A key as a word the command parser reads back as that key: the keys it would read
/// otherwise are escaped, as tmux prints them (`\{`, `\;`, `\"`).
fn key_word(key: &str) -> std::borrow::Cow<'_, str> {
    match key {
        "{" | "}" | "\"" | "'" | "#" | ";" | "~" | "$" | "\\" => format!("\\{key}").into(),
        _ => key.into(),
    }
}
