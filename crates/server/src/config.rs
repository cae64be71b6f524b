//! Settings from the TOML configuration file (`-f FILE` or
//! `$XDG_CONFIG_HOME/weft/config.toml`), keys in kebab-case.
//!
//! Every entry is checked on its own: a bad one is reported with `file:line:column` and the
//! rest still applies. Only a file that is not TOML at all falls back to the defaults.

use crate::keys::{normalize, KeyTables};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where the status line goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatusPosition {
    /// First row.
    Top,
    /// Last row.
    Bottom,
}

/// Where panes show their titles (`pane-border-status`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BorderStatus {
    /// Nowhere.
    Off,
    /// In the border above each pane.
    Top,
    /// In the border below each pane.
    Bottom,
}

/// Where text copied in weft goes besides a paste buffer (tmux's `set-clipboard`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetClipboard {
    /// Copies and programs' OSC 52 writes go to the clients' terminals' clipboards too.
    On,
    /// Copies made in weft go to the terminals' clipboards; programs' writes only make
    /// buffers.
    External,
    /// Nothing goes to the terminals' clipboards.
    Off,
}

/// Checks a key binding's command; the command table's parser (the configuration sits below the
/// commands, so it is handed in).
pub type CommandCheck<'a> = &'a dyn Fn(&str) -> Result<(), String>;

/// Settings that apply to the whole server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Lines of history kept per pane.
    pub scrollback_lines: usize,
    /// Shortest time between two frames to one client while output streams.
    pub frame_interval: Duration,
    /// Shell for new panes; `$SHELL` (then the password database, then `/bin/sh`) when unset.
    pub default_shell: Option<String>,
    /// `TERM` for programs in panes.
    pub default_term: String,
    /// Mouse support: click to focus, drag borders, wheel.
    pub mouse: bool,
    /// Show the status line.
    pub status: bool,
    /// Status line at the top or bottom.
    pub status_position: StatusPosition,
    /// How long an ESC that ends a read waits for the rest of a sequence (`ESC [A` is Up, `ESC x`
    /// is `M-x`) before it is the Escape key; tmux's default is 10 ms. 0: a lone ESC at the end
    /// of a read is the Escape key at once.
    pub escape_time: Duration,
    /// Keep panes whose program exited, showing the exit status.
    pub remain_on_exit: bool,
    /// Copy mode uses vi keys (`mode-keys vi`) rather than emacs keys (tmux's default).
    pub mode_keys_vi: bool,
    /// Where copied text goes besides a buffer (`set-clipboard`).
    pub set_clipboard: SetClipboard,
    /// A program copied text is piped to (`copy-command`, run with `sh -c`), if any.
    pub copy_command: Option<String>,
    /// Automatic paste buffers kept (`buffer-limit`).
    pub buffer_limit: usize,
    /// Programs may read back (OSC 52) the buffers they wrote themselves (`get-clipboard`).
    pub get_clipboard: bool,
    /// How long after a repeatable binding its key repeats without the prefix (`repeat-time`).
    pub repeat_time: Duration,
    /// Keys closer together than this are taken as pasted, not typed: they reach the pane,
    /// never a binding (`assume-paste-time`; zero: never).
    pub assume_paste_time: Duration,
    /// Where panes show their titles (`pane-border-status`).
    pub pane_border_status: BorderStatus,
    /// Windows are named after their active pane's program (`automatic-rename`).
    pub automatic_rename: bool,
    /// Programs that enabled focus reports (1004) are told when they gain and lose focus
    /// (`focus-events`).
    pub focus_events: bool,
    /// The first window index (`base-index`).
    pub base_index: u32,
    /// Windows are renumbered from `base-index` when one closes (`renumber-windows`).
    pub renumber_windows: bool,
    /// The prefix and the key tables.
    pub keys: KeyTables,
    /// The file this came from, for `source-file` without a path.
    pub path: Option<PathBuf>,
    /// Options set by name (`set-option`), as text: those weft does not act on yet and user
    /// options (`@name`) live only here (see [`crate::options`]).
    pub options: std::collections::BTreeMap<String, String>,
    /// The global environment's changes (`set-environment -g`): a value, or `None` for a
    /// variable removed from new panes (`-r`).
    pub environment: std::collections::BTreeMap<String, Option<String>>,
    /// Hooks (`set-hook`): global ones and each session's own.
    pub hooks: crate::hooks::Hooks,
    /// The configuration file's `run-shell` commands, run once the server takes connections
    /// (taken by the server as it starts; empty afterwards).
    pub deferred_runs: Vec<crate::conf_file::DeferredRun>,
    /// Where reading the file stopped for the first of them, to go on once it has run.
    pub resume: Option<crate::conf_file::Resume>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            scrollback_lines: weft_screen_model::screen::DEFAULT_SCROLLBACK_LINES,
            frame_interval: Duration::from_millis(8),
            default_shell: None,
            default_term: "xterm-256color".to_string(),
            mouse: true,
            status: true,
            status_position: StatusPosition::Bottom,
            escape_time: DEFAULT_ESCAPE_TIME,
            remain_on_exit: false,
            mode_keys_vi: false,
            set_clipboard: SetClipboard::On,
            copy_command: None,
            buffer_limit: crate::buffers::DEFAULT_BUFFER_LIMIT,
            get_clipboard: false,
            repeat_time: DEFAULT_REPEAT_TIME,
            assume_paste_time: Duration::ZERO,
            automatic_rename: true,
            focus_events: false,
            pane_border_status: BorderStatus::Off,
            base_index: 0,
            renumber_windows: false,
            keys: KeyTables::default(),
            path: None,
            options: std::collections::BTreeMap::new(),
            environment: std::collections::BTreeMap::new(),
            hooks: crate::hooks::Hooks::default(),
            deferred_runs: Vec::new(),
            resume: None,
        }
    }
}

/// How long a repeatable key repeats without the prefix unless configured: tmux's default.
pub const DEFAULT_REPEAT_TIME: Duration = Duration::from_millis(500);

/// The highest `base-index`: window indexes stay far from overflowing.
const MAX_BASE_INDEX: u64 = 1_000_000;

/// How long an ESC waits for the rest of its sequence unless configured: tmux's default.
pub const DEFAULT_ESCAPE_TIME: Duration = Duration::from_millis(10);

/// Largest accepted `buffer-limit`: buffers are kept in memory, up to
/// [`crate::buffers::MAX_BUFFER_BYTES`] each.
const MAX_BUFFER_LIMIT: u64 = 10_000;

/// Largest accepted scrollback, so a typo cannot ask for terabytes.
const MAX_SCROLLBACK_LINES: usize = 10_000_000;

/// A configuration file that cannot be read at all.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// Unreadable.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Not valid TOML; `at` is `file:line:column`.
    #[error("{at}: {message}")]
    Parse {
        /// Where.
        at: String,
        /// What.
        message: String,
    },
}

/// The default configuration path: `weft.conf` (tmux's syntax) in `$XDG_CONFIG_HOME/weft/`,
/// then in `~/.config/weft/`, then the older `config.toml` there; the first that exists (or
/// `weft.conf` in the first place when none does).
pub fn default_path() -> Option<PathBuf> {
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from);
    let home = std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config"));
    let dirs: Vec<PathBuf> = xdg
        .into_iter()
        .chain(home)
        .map(|d| d.join("weft"))
        .collect();
    let candidates: Vec<PathBuf> = dirs
        .iter()
        .map(|d| d.join("weft.conf"))
        .chain(dirs.iter().map(|d| d.join("config.toml")))
        .collect();
    candidates
        .iter()
        .find(|p| p.exists())
        .or(candidates.first())
        .cloned()
}

/// Whether `path` is in the older TOML form (by its name); anything else is tmux's syntax.
pub fn is_toml(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "toml")
}

/// A loaded configuration and the problems found in it (each `file:line:column: message`).
#[derive(Debug)]
pub struct Loaded {
    /// What applies.
    pub config: Config,
    /// Entries that were ignored, and why.
    pub warnings: Vec<String>,
}

impl Config {
    /// Loads `path`; a missing default file is not an error (an explicit one is). Bindings'
    /// commands are checked with `check`.
    pub fn load(
        path: Option<&Path>,
        check: CommandCheck,
        run: crate::conf_file::LineRunner,
    ) -> Result<Loaded, ConfigError> {
        let (path, explicit) = match path {
            Some(p) => (p.to_path_buf(), true),
            None => match default_path() {
                Some(p) => (p, false),
                None => {
                    return Ok(Loaded {
                        config: Config::default(),
                        warnings: Vec::new(),
                    })
                }
            },
        };
        if !is_toml(&path) {
            if !explicit && !path.exists() {
                return Ok(Loaded {
                    config: Config::default(),
                    warnings: Vec::new(),
                });
            }
            let mut config = Config::default();
            let mut warnings = Vec::new();
            crate::conf_file::apply_file(&mut config, &path, false, run, &mut warnings);
            config.path = Some(path);
            return Ok(Loaded { config, warnings });
        }
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if !explicit && e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Loaded {
                    config: Config::default(),
                    warnings: Vec::new(),
                })
            }
            Err(source) => return Err(ConfigError::Read { path, source }),
        };
        let mut loaded = Self::parse(&text, &path.display().to_string(), check)?;
        if !explicit {
            loaded.warnings.push(format!(
                "{}: this is the older TOML form; `weft convert-config > {}` writes it as \
                 tmux-style commands, which weft reads instead from then on",
                path.display(),
                path.with_file_name("weft.conf").display()
            ));
        }
        loaded.config.path = Some(path);
        Ok(loaded)
    }

    /// Parses configuration text; `name` labels messages, `check` checks bindings' commands.
    pub fn parse(text: &str, name: &str, check: CommandCheck) -> Result<Loaded, ConfigError> {
        let at = |offset: usize| {
            let (line, col) = line_col(text, offset);
            format!("{name}:{line}:{col}")
        };
        let doc: toml::Table = toml::from_str(text).map_err(|e| ConfigError::Parse {
            at: e.span().map_or(name.to_string(), |s| at(s.start)),
            message: e.message().to_string(),
        })?;
        let mut config = Config::default();
        let mut warnings = Vec::new();
        let place = |table: &[&str], key: &str| match locate(text, table, key) {
            Some((line, col)) => format!("{name}:{line}:{col}"),
            None => name.to_string(),
        };
        for (key, value) in &doc {
            if let Err(message) = apply_option(&mut config, key, value) {
                warnings.push(format!("{}: {message}", place(&[], key)));
            }
        }
        if let Some(toml::Value::Table(tables)) = doc.get("keys") {
            for (table, bindings) in tables {
                let toml::Value::Table(bindings) = bindings else {
                    warnings.push(format!(
                        "{}: keys.{table} must be a table",
                        place(&["keys"], table)
                    ));
                    continue;
                };
                for (key, command) in bindings {
                    if let Err(message) = bind(&mut config.keys, table, key, command, check) {
                        warnings.push(format!("{}: {message}", place(&["keys", table], key)));
                    }
                }
            }
        }
        Ok(Loaded { config, warnings })
    }

    /// The settings as `name value` lines, for `show-options`.
    pub fn describe(&self) -> String {
        let on = |b: bool| if b { "on" } else { "off" };
        [
            format!("prefix {}", self.keys.prefix),
            format!("scrollback-lines {}", self.scrollback_lines),
            format!("mouse {}", on(self.mouse)),
            format!("status {}", on(self.status)),
            format!(
                "status-position {}",
                match self.status_position {
                    StatusPosition::Top => "top",
                    StatusPosition::Bottom => "bottom",
                }
            ),
            format!(
                "default-shell {}",
                self.default_shell.as_deref().unwrap_or("(from $SHELL)")
            ),
            format!("default-term {}", self.default_term),
            format!("frame-interval-ms {}", self.frame_interval.as_millis()),
            format!("escape-time-ms {}", self.escape_time.as_millis()),
            format!("remain-on-exit {}", on(self.remain_on_exit)),
            format!(
                "mode-keys {}",
                if self.mode_keys_vi { "vi" } else { "emacs" }
            ),
            format!(
                "set-clipboard {}",
                match self.set_clipboard {
                    SetClipboard::On => "on",
                    SetClipboard::External => "external",
                    SetClipboard::Off => "off",
                }
            ),
            format!(
                "copy-command {}",
                self.copy_command.as_deref().unwrap_or("(none)")
            ),
            format!("buffer-limit {}", self.buffer_limit),
            format!("get-clipboard {}", on(self.get_clipboard)),
            format!("repeat-time {}", self.repeat_time.as_millis()),
            format!("assume-paste-time {}", self.assume_paste_time.as_millis()),
            format!("automatic-rename {}", on(self.automatic_rename)),
            format!("focus-events {}", on(self.focus_events)),
            format!(
                "pane-border-status {}",
                match self.pane_border_status {
                    BorderStatus::Off => "off",
                    BorderStatus::Top => "top",
                    BorderStatus::Bottom => "bottom",
                }
            ),
            format!("base-index {}", self.base_index),
            format!("renumber-windows {}", on(self.renumber_windows)),
        ]
        .join("\n")
    }
}

fn as_bool(v: &toml::Value) -> Result<bool, String> {
    match v {
        toml::Value::Boolean(b) => Ok(*b),
        toml::Value::String(s) if s == "on" => Ok(true),
        toml::Value::String(s) if s == "off" => Ok(false),
        other => Err(format!(
            "expected true/false or \"on\"/\"off\", found {other}"
        )),
    }
}

fn as_uint(v: &toml::Value, max: u64) -> Result<u64, String> {
    match v {
        toml::Value::Integer(n) if *n >= 0 => Ok((*n as u64).min(max)),
        other => Err(format!("expected a non-negative number, found {other}")),
    }
}

fn as_string(v: &toml::Value) -> Result<String, String> {
    match v {
        toml::Value::String(s) => Ok(s.clone()),
        other => Err(format!("expected a string, found {other}")),
    }
}

/// Applies one configuration entry as the TOML file spells it (`set-option` maps tmux's
/// names to these).
pub(crate) fn apply_entry(
    config: &mut Config,
    key: &str,
    value: &toml::Value,
) -> Result<(), String> {
    apply_option(config, key, value)
}

/// Applies one top-level option (`keys` is handled separately).
fn apply_option(config: &mut Config, key: &str, value: &toml::Value) -> Result<(), String> {
    match key {
        "scrollback-lines" => {
            config.scrollback_lines = as_uint(value, MAX_SCROLLBACK_LINES as u64)? as usize
        }
        "frame-interval-ms" => {
            config.frame_interval = Duration::from_millis(as_uint(value, 1000)?.max(1))
        }
        "escape-time-ms" => config.escape_time = Duration::from_millis(as_uint(value, 10_000)?),
        "default-shell" => config.default_shell = Some(as_string(value)?).filter(|s| !s.is_empty()),
        "default-term" => {
            let term = as_string(value)?;
            if term.is_empty() {
                return Err("default-term may not be empty".into());
            }
            config.default_term = term;
        }
        "mouse" => config.mouse = as_bool(value)?,
        "mode-keys" => {
            config.mode_keys_vi = match as_string(value)?.as_str() {
                "vi" => true,
                "emacs" => false,
                other => return Err(format!("mode-keys is vi or emacs, not {other:?}")),
            }
        }
        "status" => config.status = as_bool(value)?,
        "status-position" => {
            config.status_position = match as_string(value)?.as_str() {
                "top" => StatusPosition::Top,
                "bottom" => StatusPosition::Bottom,
                other => {
                    return Err(format!(
                        "status-position: expected \"top\" or \"bottom\", found {other:?}"
                    ))
                }
            }
        }
        "remain-on-exit" => config.remain_on_exit = as_bool(value)?,
        "set-clipboard" => {
            config.set_clipboard = match value {
                toml::Value::Boolean(true) => SetClipboard::On,
                toml::Value::Boolean(false) => SetClipboard::Off,
                toml::Value::String(s) if s == "on" => SetClipboard::On,
                toml::Value::String(s) if s == "external" => SetClipboard::External,
                toml::Value::String(s) if s == "off" => SetClipboard::Off,
                other => {
                    return Err(format!(
                        "set-clipboard: expected \"on\", \"external\" or \"off\", found {other}"
                    ))
                }
            }
        }
        "copy-command" => config.copy_command = Some(as_string(value)?).filter(|s| !s.is_empty()),
        "buffer-limit" => config.buffer_limit = as_uint(value, MAX_BUFFER_LIMIT)?.max(1) as usize,
        "get-clipboard" => config.get_clipboard = as_bool(value)?,
        "repeat-time" => config.repeat_time = Duration::from_millis(as_uint(value, 10_000)?),
        "assume-paste-time" => {
            config.assume_paste_time = Duration::from_millis(as_uint(value, 10_000)?)
        }
        "automatic-rename" => config.automatic_rename = as_bool(value)?,
        "focus-events" => config.focus_events = as_bool(value)?,
        "pane-border-status" => {
            config.pane_border_status = match as_string(value)?.as_str() {
                "off" => BorderStatus::Off,
                "top" => BorderStatus::Top,
                "bottom" => BorderStatus::Bottom,
                other => {
                    return Err(format!(
                        "pane-border-status: expected \"off\", \"top\" or \"bottom\", found \
                         {other:?}"
                    ))
                }
            }
        }
        "base-index" => config.base_index = as_uint(value, MAX_BASE_INDEX)? as u32,
        "renumber-windows" => config.renumber_windows = as_bool(value)?,
        "prefix" => config.keys.prefix = normalize(&as_string(value)?)?,
        "prefix2" => {
            let key = as_string(value)?;
            config.keys.prefix2 = match key.as_str() {
                "" | "None" | "none" => None,
                _ => Some(normalize(&key)?),
            };
        }
        "keys" => {}
        other => return Err(format!("unknown option {other:?}")),
    }
    Ok(())
}

/// Adds one binding to `table` (`prefix` or `root`); an empty command unbinds.
fn bind(
    keys: &mut KeyTables,
    table: &str,
    key: &str,
    command: &toml::Value,
    check: CommandCheck,
) -> Result<(), String> {
    let key = normalize(key)?;
    let command = as_string(command)?;
    if !command.is_empty() {
        check(&command)?;
    }
    let map = match table {
        "prefix" => &mut keys.prefix_table,
        "root" => &mut keys.root_table,
        "copy-mode" => &mut keys.copy_mode,
        "copy-mode-vi" => &mut keys.copy_mode_vi,
        other => {
            return Err(format!(
                "unknown key table {other:?} (prefix, root, copy-mode, copy-mode-vi)"
            ))
        }
    };
    if table == "prefix" {
        // A key bound in the file does not repeat (there is no way to ask for it there yet).
        keys.repeat.remove(&format!("prefix {key}"));
    }
    if command.is_empty() {
        map.remove(&key);
    } else {
        map.insert(key, command);
    }
    Ok(())
}

/// Where `key` is defined inside the table `table` (e.g. `["keys", "prefix"]`): 1-based line
/// and column, found by reading the lines as TOML lays them out.
fn locate(text: &str, table: &[&str], key: &str) -> Option<(usize, usize)> {
    let wanted = table.join(".");
    let mut current = String::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(header) = trimmed.strip_prefix('[') {
            current = header
                .trim_end()
                .trim_end_matches(']')
                .split('.')
                .map(|p| p.trim().trim_matches('"'))
                .collect::<Vec<_>>()
                .join(".");
            continue;
        }
        if current != wanted {
            continue;
        }
        let Some((lhs, _)) = trimmed.split_once('=') else {
            continue;
        };
        let name = lhs.trim().trim_matches('"').trim_matches('\'');
        if name == key {
            return Some((i + 1, line.len() - trimmed.len() + 1));
        }
    }
    None
}

/// 1-based line and column of byte `offset` in `text`.
fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rfind('\n')
        .map_or(before.len(), |nl| before.len() - nl - 1)
        + 1;
    (line, col)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in for the command table: only `no-such-command` is unknown.
    fn check(command: &str) -> Result<(), String> {
        if command.starts_with("no-such-command") {
            return Err("unknown command: no-such-command".into());
        }
        Ok(())
    }

    #[test]
    fn reads_known_keys() {
        let l = Config::parse(
            "scrollback-lines = 500\nframe-interval-ms = 16\nstatus = \"off\"\nprefix = \"C-a\"\n",
            "c",
            &check,
        )
        .unwrap();
        assert!(l.warnings.is_empty(), "{:?}", l.warnings);
        assert_eq!(l.config.scrollback_lines, 500);
        assert_eq!(l.config.frame_interval, Duration::from_millis(16));
        assert!(!l.config.status);
        assert_eq!(l.config.keys.prefix, "C-a");
    }

    #[test]
    fn escape_time_defaults_to_tmuxs_and_can_be_set() {
        assert_eq!(Config::default().escape_time, Duration::from_millis(10));
        assert!(Config::default()
            .describe()
            .lines()
            .any(|l| l == "escape-time-ms 10"));
        let l = Config::parse("escape-time-ms = 0\n", "c", &check).unwrap();
        assert!(l.warnings.is_empty(), "{:?}", l.warnings);
        assert_eq!(l.config.escape_time, Duration::ZERO);
        assert!(l.config.describe().lines().any(|l| l == "escape-time-ms 0"));
    }

    #[test]
    fn bad_entries_are_reported_with_location_and_the_rest_applies() {
        let text = "scrollback-lines = 5\nbogus = 1\nmouse = 3\n[keys.prefix]\n\"|\" = \"split-window -h\"\n\"-\" = \"no-such-command\"\n";
        let l = Config::parse(text, "conf.toml", &check).unwrap();
        assert_eq!(l.config.scrollback_lines, 5);
        assert_eq!(
            l.config.keys.prefix_table.get("|").map(String::as_str),
            Some("split-window -h")
        );
        assert_eq!(l.warnings.len(), 3, "{:?}", l.warnings);
        assert!(
            l.warnings[0].starts_with("conf.toml:2:"),
            "{:?}",
            l.warnings
        );
        assert!(l
            .warnings
            .iter()
            .any(|w| w.starts_with("conf.toml:6:") && w.contains("unknown command")));
    }

    #[test]
    fn clipboard_options() {
        let c = Config::default();
        assert_eq!(c.set_clipboard, SetClipboard::On);
        assert_eq!((c.buffer_limit, c.get_clipboard), (50, false));
        assert!(c.describe().lines().any(|l| l == "set-clipboard on"));
        let l = Config::parse(
            "set-clipboard = \"external\"\ncopy-command = \"xclip -i\"\nbuffer-limit = 5\nget-clipboard = true\n",
            "c",
            &check,
        )
        .unwrap();
        assert!(l.warnings.is_empty(), "{:?}", l.warnings);
        assert_eq!(l.config.set_clipboard, SetClipboard::External);
        assert_eq!(l.config.copy_command.as_deref(), Some("xclip -i"));
        assert_eq!((l.config.buffer_limit, l.config.get_clipboard), (5, true));
        let l = Config::parse("set-clipboard = \"sometimes\"\n", "c", &check).unwrap();
        assert_eq!(l.warnings.len(), 1);
    }

    #[test]
    fn invalid_toml_is_an_error_with_location() {
        let err = Config::parse("scrollback-lines = \n", "conf.toml", &check).unwrap_err();
        assert!(err.to_string().starts_with("conf.toml:1:"), "{err}");
    }
}
