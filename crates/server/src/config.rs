//! Server settings from the TOML configuration file (`-f FILE` or
//! `$XDG_CONFIG_HOME/weft/config.toml`), keys in kebab-case.

use serde::Deserialize;
use std::path::{Path, PathBuf};
use std::time::Duration;

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
}

impl Default for Config {
    fn default() -> Self {
        Config {
            scrollback_lines: screen_model::screen::DEFAULT_SCROLLBACK_LINES,
            frame_interval: Duration::from_millis(8),
            default_shell: None,
            default_term: "xterm-256color".to_string(),
        }
    }
}

/// The file's shape: every key optional.
#[derive(Deserialize, Default)]
#[serde(rename_all = "kebab-case", deny_unknown_fields)]
struct ConfigFile {
    scrollback_lines: Option<usize>,
    frame_interval_ms: Option<u64>,
    default_shell: Option<String>,
    default_term: Option<String>,
}

/// Largest accepted scrollback, so a typo cannot ask for terabytes.
const MAX_SCROLLBACK_LINES: usize = 10_000_000;

/// A configuration file that cannot be used.
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
    /// Not valid TOML, an unknown key or a bad value; `at` is `file:line:column`.
    #[error("{at}: {message}")]
    Parse {
        /// Where.
        at: String,
        /// What.
        message: String,
    },
}

/// The default configuration path: `$XDG_CONFIG_HOME/weft/config.toml` or
/// `~/.config/weft/config.toml`.
pub fn default_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("weft").join("config.toml"))
}

impl Config {
    /// Loads `path`; a missing default file is not an error (an explicit one is).
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        let (path, explicit) = match path {
            Some(p) => (p.to_path_buf(), true),
            None => match default_path() {
                Some(p) => (p, false),
                None => return Ok(Config::default()),
            },
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if !explicit && e.kind() == std::io::ErrorKind::NotFound => {
                return Ok(Config::default())
            }
            Err(source) => return Err(ConfigError::Read { path, source }),
        };
        Self::parse(&text, &path.display().to_string())
    }

    /// Parses configuration text; `name` labels errors.
    pub fn parse(text: &str, name: &str) -> Result<Config, ConfigError> {
        let file: ConfigFile = toml::from_str(text).map_err(|e| {
            let at = match e.span() {
                Some(span) => {
                    let (line, col) = line_col(text, span.start);
                    format!("{name}:{line}:{col}")
                }
                None => name.to_string(),
            };
            ConfigError::Parse {
                at,
                message: e.message().to_string(),
            }
        })?;
        let mut config = Config::default();
        if let Some(lines) = file.scrollback_lines {
            config.scrollback_lines = lines.min(MAX_SCROLLBACK_LINES);
        }
        if let Some(ms) = file.frame_interval_ms {
            config.frame_interval = Duration::from_millis(ms.clamp(1, 1000));
        }
        config.default_shell = file.default_shell.filter(|s| !s.is_empty());
        if let Some(term) = file.default_term.filter(|t| !t.is_empty()) {
            config.default_term = term;
        }
        Ok(config)
    }
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

    #[test]
    fn reads_known_keys() {
        let c = Config::parse("scrollback-lines = 500\nframe-interval-ms = 16\n", "c").unwrap();
        assert_eq!(c.scrollback_lines, 500);
        assert_eq!(c.frame_interval, Duration::from_millis(16));
    }

    #[test]
    fn errors_carry_file_line_and_column() {
        let err = Config::parse("scrollback-lines = 5\nbogus = 1\n", "conf.toml").unwrap_err();
        assert!(err.to_string().starts_with("conf.toml:2:1"), "{err}");
        let err = Config::parse("scrollback-lines = \"x\"\n", "conf.toml").unwrap_err();
        assert!(err.to_string().starts_with("conf.toml:1:"), "{err}");
    }
}
