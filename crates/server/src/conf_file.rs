//! Configuration files in tmux's syntax (`weft.conf`, or a `.tmux.conf`): one command per line,
//! `#` comments, `\` at a line's end continuing it, tmux's quoting. Each line is run by the
//! command table's configuration runner (handed in: the commands sit above the configuration);
//! a line weft does not understand is a warning with `file:line`, and the rest still applies.

use crate::config::Config;
use std::path::{Path, PathBuf};

/// The deepest `source-file` nesting followed (a file that sources itself stops here).
const MAX_SOURCE_DEPTH: usize = 10;
/// The largest configuration file read, so a wrong path (a log, a device) cannot fill memory.
const MAX_FILE_BYTES: u64 = 4 << 20;

/// What running one configuration line asks of the reader.
#[derive(Debug)]
pub enum LineEffect {
    /// Applied.
    Done,
    /// Applied, with a note for the user (an option weft keeps but does not use yet).
    Note(String),
    /// `source-file`: read these files (patterns) too, after this line; `quiet`: a missing
    /// file is not a warning.
    Source {
        /// Paths or glob patterns as written.
        patterns: Vec<String>,
        /// `-q`.
        quiet: bool,
    },
}

/// Runs one configuration line's words on a configuration.
pub type LineRunner<'a> = &'a dyn Fn(&mut Config, &[String]) -> Result<LineEffect, String>;

/// Reads `path` into `config`, line by line; problems become `file:line: message` warnings.
/// `quiet`: a missing file says nothing.
pub fn apply_file(
    config: &mut Config,
    path: &Path,
    quiet: bool,
    run: LineRunner,
    warnings: &mut Vec<String>,
) {
    apply_nested(config, path, quiet, run, warnings, 0);
}

fn apply_nested(
    config: &mut Config,
    path: &Path,
    quiet: bool,
    run: LineRunner,
    warnings: &mut Vec<String>,
    depth: usize,
) {
    let name = path.display().to_string();
    let text = match read_limited(path) {
        Ok(t) => t,
        Err(e) if quiet && e.kind() == std::io::ErrorKind::NotFound => return,
        Err(e) => {
            warnings.push(format!("{name}: cannot read it: {e}"));
            return;
        }
    };
    // Inside %if ... %endif (not evaluated yet): how deep, lines skipped.
    let mut skipping = 0usize;
    for (line_no, line) in logical_lines(&text) {
        let at = format!("{name}:{line_no}");
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if trimmed.starts_with("%if") {
            if skipping == 0 {
                warnings.push(format!(
                    "{at}: conditions (%if) are not supported yet; the lines up to its %endif \
                     are skipped"
                ));
            }
            skipping += 1;
            continue;
        }
        if trimmed.starts_with("%endif") {
            skipping = skipping.saturating_sub(1);
            continue;
        }
        if skipping > 0 {
            continue;
        }
        if trimmed.starts_with('%') {
            warnings.push(format!(
                "{at}: {trimmed}: not supported; the line is skipped"
            ));
            continue;
        }
        let words = match crate::words::tokenize(&strip_comment(trimmed)) {
            Ok(w) if w.is_empty() => continue,
            Ok(w) => w,
            Err(e) => {
                warnings.push(format!("{at}: {e}"));
                continue;
            }
        };
        match run(config, &words) {
            Ok(LineEffect::Done) => {}
            Ok(LineEffect::Note(note)) => warnings.push(format!("{at}: {note}")),
            Ok(LineEffect::Source { patterns, quiet }) => {
                if depth >= MAX_SOURCE_DEPTH {
                    warnings.push(format!("{at}: source-file nested too deep; skipped"));
                    continue;
                }
                let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
                for pattern in &patterns {
                    let found = expand(pattern, &base);
                    if found.is_empty() && !quiet {
                        warnings.push(format!("{at}: no file matches {pattern}"));
                    }
                    for file in found {
                        apply_nested(config, &file, quiet, run, warnings, depth + 1);
                    }
                }
            }
            Err(e) => warnings.push(format!("{at}: {e}")),
        }
    }
}

fn read_limited(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut text = String::new();
    file.take(MAX_FILE_BYTES).read_to_string(&mut text)?;
    Ok(text)
}

/// The file's lines with `\`-continued ones joined, each with its first line's number.
fn logical_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for (i, raw) in text.lines().enumerate() {
        let (start, mut line) = pending.take().unwrap_or((i + 1, String::new()));
        if let Some(cont) = raw.strip_suffix('\\').filter(|l| !l.ends_with('\\')) {
            line.push_str(cont);
            pending = Some((start, line));
            continue;
        }
        line.push_str(raw);
        out.push((start, line));
    }
    if let Some(last) = pending {
        out.push(last);
    }
    out
}

/// The line up to a `#` that starts a word outside quotes (a comment).
fn strip_comment(line: &str) -> String {
    let mut quote = None;
    let mut prev_space = true;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        if escaped {
            escaped = false;
            prev_space = false;
            continue;
        }
        match (quote, c) {
            (_, '\\') if quote != Some('\'') => escaped = true,
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') => quote = Some(c),
            // `#{...}` is a format, as tmux reads it, not a comment.
            (None, '#') if prev_space && !line[i..].starts_with("#{") => {
                return line[..i].to_string()
            }
            _ => {}
        }
        prev_space = quote.is_none() && c.is_whitespace();
    }
    line.to_string()
}

/// A `source-file` argument as files: `~/` is the home directory, a relative path is taken
/// from `base`, and `*` and `?` in the last part match file names (sorted).
pub fn expand(pattern: &str, base: &Path) -> Vec<PathBuf> {
    let path = match pattern.strip_prefix("~/") {
        Some(rest) => std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_default()
            .join(rest),
        None if pattern == "~" => std::env::var_os("HOME")
            .map(PathBuf::from)
            .unwrap_or_default(),
        None => base.join(pattern),
    };
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return vec![path];
    };
    if !name.contains(['*', '?']) {
        return if path.exists() {
            vec![path]
        } else {
            Vec::new()
        };
    }
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut found: Vec<PathBuf> = std::fs::read_dir(&dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| e.file_name().to_str().is_some_and(|n| wildcard(name, n)))
        .map(|e| e.path())
        .collect();
    found.sort();
    found
}

/// Whether `name` matches `pattern` with `*` (any run) and `?` (one character). Written by
/// hand: one directory level of globbing is all `source-file` needs, not a crate.
fn wildcard(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    let (mut pi, mut ni) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ni < n.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == n[ni]) {
            pi += 1;
            ni += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ni;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ni = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_comments_and_continuations() {
        let lines = logical_lines("set -g a \\\n  b\n# c\nbind x y # z\n");
        assert_eq!(lines[0], (1, "set -g a   b".to_string()));
        assert_eq!(strip_comment("bind x y # z"), "bind x y ");
        assert_eq!(strip_comment("set -g s '#S x' # c"), "set -g s '#S x' ");
        assert_eq!(strip_comment("set -g s #{x} # c"), "set -g s #{x} ");
        assert_eq!(strip_comment("bind \\# x"), "bind \\# x");
    }

    #[test]
    fn wildcards() {
        assert!(wildcard("*.conf", "a.conf"));
        assert!(wildcard("a?c*", "abcdef"));
        assert!(!wildcard("*.conf", "a.toml"));
    }
}
