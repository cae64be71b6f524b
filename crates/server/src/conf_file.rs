//! Configuration files in tmux's syntax (`weft.conf`, or a `.tmux.conf`): one command per line,
//! `#` comments, `\` at a line's end continuing it, tmux's quoting, `$NAME` and `~` expanded,
//! `NAME=value` lines setting variables (`%hidden NAME=value`: for this file's lines only, not
//! the panes' environment). Each line is run by the
//! command table's configuration runner (handed in: the commands sit above the configuration);
//! a line weft does not understand is a warning with `file:line`, and the rest still applies.

use crate::config::Config;
use crate::outcome::CommandError;
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
    /// `run-shell` in a file read as the server starts: this shell command runs once the
    /// server takes connections, so that what it runs can talk to the server (a plugin
    /// manager's `tmux` commands), as under tmux.
    RunOnceServing(Vec<String>),
    /// `source-file`: read these files (patterns) too, after this line; `quiet`: a missing
    /// file is not a warning.
    Source {
        /// Paths or glob patterns as written.
        patterns: Vec<String>,
        /// `-q`.
        quiet: bool,
        /// `-F`: each pattern is a format first (`#{d:current_file}/keys.conf`).
        format: bool,
    },
}

/// A configuration file's `run-shell`, to run once the server takes connections.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeferredRun {
    /// `file:line`, for what it says if it fails.
    pub at: String,
    /// The shell command.
    pub command: String,
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
    let from = Resume::start(path);
    apply_nested(config, from, quiet, run, warnings, 0);
}

/// Where reading the top file stopped at a `run-shell`, to go on once the command has run, as
/// tmux's queue does; `%if` and `%hidden` state included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resume {
    path: PathBuf,
    /// The last line read.
    after_line: usize,
    conditions: Conditions,
    hidden: Hidden,
}

impl Resume {
    fn start(path: &Path) -> Resume {
        Resume {
            path: path.to_path_buf(),
            after_line: 0,
            conditions: Conditions::default(),
            hidden: Hidden::new(),
        }
    }
}

/// Reads the rest of the file `config.resume` stopped in, into `config` (up to its next
/// `run-shell`, if any: then `config.resume` says where again).
pub fn resume(config: &mut Config, run: LineRunner, warnings: &mut Vec<String>) {
    if let Some(from) = config.resume.take() {
        apply_nested(config, from, false, run, warnings, 0);
    }
}

/// `%hidden` variables: seen by `$NAME` in the files being read, not by the panes.
type Hidden = std::collections::HashMap<String, String>;

/// What `$NAME` is while a file is read: the global environment as changed so far (an
/// assignment, `set-environment -g`), a `%hidden` variable, or the server's own environment.
fn variable(config: &Config, hidden: &Hidden, name: &str) -> Option<String> {
    match config.environment.get(name) {
        Some(value) => value.clone(),
        None => hidden
            .get(name)
            .cloned()
            .or_else(|| std::env::var(name).ok()),
    }
}

fn apply_nested(
    config: &mut Config,
    from: Resume,
    quiet: bool,
    run: LineRunner,
    warnings: &mut Vec<String>,
    depth: usize,
) -> Hidden {
    let Resume {
        path,
        after_line,
        mut conditions,
        mut hidden,
    } = from;
    let path = path.as_path();
    let name = path.display().to_string();
    let text = match read_limited(path) {
        Ok(t) => t,
        Err(e) if quiet && e.kind() == std::io::ErrorKind::NotFound => return hidden,
        Err(e) => {
            warnings.push(format!("{name}: cannot read it: {e}"));
            return hidden;
        }
    };
    for (line_no, line) in logical_lines(&text) {
        if line_no <= after_line {
            continue;
        }
        let at = format!("{name}:{line_no}");
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some(rest) = trimmed
            .strip_prefix("%hidden")
            .filter(|rest| rest.starts_with(char::is_whitespace))
        {
            if conditions.running() {
                match hidden_assignment(rest, config, &hidden) {
                    Ok((name, value)) => {
                        // The later assignment wins, as in tmux: hidden now.
                        config.environment.remove(&name);
                        hidden.insert(name, value);
                    }
                    Err(e) => warnings.push(format!("{at}: {e}")),
                }
            }
            continue;
        }
        if trimmed.starts_with('%') {
            if let Err(e) = conditions.line(trimmed, config) {
                warnings.push(format!("{at}: {e}"));
            }
            continue;
        }
        if !conditions.running() {
            continue;
        }
        let lookup = |name: &str| variable(config, &hidden, name);
        let words = match crate::words::tokenize_expanding(&strip_comment(trimmed), &lookup) {
            Ok(w) if w.is_empty() => continue,
            Ok(w) => w,
            Err(e) => {
                warnings.push(format!("{at}: {e}"));
                continue;
            }
        };
        if let [word] = words.as_slice() {
            if let Some((name, value)) = crate::words::assignment(word) {
                hidden.remove(name);
                config
                    .environment
                    .insert(name.to_string(), Some(value.to_string()));
                continue;
            }
        }
        match run(config, &words) {
            Ok(LineEffect::Done) => {}
            Ok(LineEffect::Note(note)) => warnings.push(format!("{at}: {note}")),
            Ok(LineEffect::RunOnceServing(commands)) => {
                for command in commands {
                    config.deferred_runs.push(DeferredRun {
                        at: at.clone(),
                        command,
                    });
                }
                // The top file's later lines wait for the command (in a sourced file they
                // do not: they are read on, the command runs after).
                if depth == 0 {
                    config.resume = Some(Resume {
                        path: path.to_path_buf(),
                        after_line: line_no,
                        conditions,
                        hidden,
                    });
                    return Hidden::new();
                }
            }
            Ok(LineEffect::Source {
                patterns,
                quiet,
                format,
            }) => {
                if depth >= MAX_SOURCE_DEPTH {
                    warnings.push(format!("{at}: source-file nested too deep; skipped"));
                    continue;
                }
                let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
                let mut vars = config_format_vars(config);
                vars.insert("current_file".into(), path.display().to_string());
                for pattern in &patterns {
                    let pattern = if format {
                        crate::format::expand(pattern, &vars)
                    } else {
                        pattern.clone()
                    };
                    let pattern = &pattern;
                    let found = expand(pattern, &base);
                    if found.is_empty() && !quiet {
                        warnings.push(format!("{at}: no file matches {pattern}"));
                    }
                    for file in found {
                        let mut nested = Resume::start(&file);
                        nested.hidden = std::mem::take(&mut hidden);
                        hidden = apply_nested(config, nested, quiet, run, warnings, depth + 1);
                    }
                }
            }
            Err(e) => warnings.push(format!("{at}: {e}")),
        }
    }
    hidden
}

/// The name and value of a `%hidden NAME=value` line (what follows `%hidden`).
fn hidden_assignment(
    rest: &str,
    config: &Config,
    hidden: &Hidden,
) -> Result<(String, String), String> {
    let lookup = |name: &str| variable(config, hidden, name);
    let words = crate::words::tokenize_expanding(&strip_comment(rest), &lookup)
        .map_err(|e| e.to_string())?;
    match words.as_slice() {
        [word] => crate::words::assignment(word)
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .ok_or_else(|| "%hidden takes NAME=value".to_string()),
        _ => Err("%hidden takes NAME=value".into()),
    }
}

/// What `%if`, `%elif`, `%else` and `%endif` say about the lines between them (tmux's
/// conditionals: the condition is a format, true unless it expands to nothing or `0`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Conditions {
    /// Per open `%if`: whether its branch now runs, and whether one of its branches ran.
    open: Vec<(bool, bool)>,
}

impl Conditions {
    /// Whether lines here run: every enclosing branch does.
    fn running(&self) -> bool {
        self.open.iter().all(|(runs, _)| *runs)
    }

    /// Takes a `%` line.
    fn line(&mut self, line: &str, config: &Config) -> Result<(), String> {
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let test = |rest: &str| -> Result<bool, String> {
            let words = crate::words::tokenize(rest).map_err(|e| e.to_string())?;
            let [format] = words.as_slice() else {
                return Err(format!("{word} takes one format in quotes"));
            };
            let value = crate::format::expand(format, &config_format_vars(config));
            Ok(!value.is_empty() && value != "0")
        };
        // Whether the branches of the innermost `%if` may run at all.
        let parents_run = self.open[..self.open.len().saturating_sub(1)]
            .iter()
            .all(|(runs, _)| *runs);
        match word {
            "%if" => {
                let runs = self.running() && test(rest)?;
                self.open.push((runs, runs));
            }
            "%elif" | "%else" => {
                let taken = self
                    .open
                    .last()
                    .map(|(_, taken)| *taken)
                    .ok_or_else(|| format!("{word} without %if"))?;
                let runs = parents_run && !taken && (word == "%else" || test(rest)?);
                if let Some(top) = self.open.last_mut() {
                    *top = (runs, taken || runs);
                }
            }
            "%endif" => {
                self.open.pop().ok_or("%endif without %if")?;
            }
            other => return Err(format!("{other}: not supported; the line is skipped")),
        }
        Ok(())
    }
}

/// What formats in a configuration file see (`%if`, `if-shell -F`): the options set so far,
/// the server's version and the host's name; no session exists yet.
pub fn config_format_vars(config: &Config) -> std::collections::HashMap<String, String> {
    let mut vars: std::collections::HashMap<String, String> =
        config.option_lines().into_iter().collect();
    vars.insert("version".into(), env!("CARGO_PKG_VERSION").into());
    let host = crate::format::host_name();
    vars.insert(
        "host_short".into(),
        host.split('.').next().unwrap_or(&host).to_string(),
    );
    vars.insert("host".into(), host);
    vars
}

fn read_limited(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let mut text = String::new();
    file.take(MAX_FILE_BYTES).read_to_string(&mut text)?;
    Ok(text)
}

/// The file's lines with `\`-continued ones joined, a quoted string's lines kept together
/// (the line breaks in it), and the lines of a `{ ... }` block kept with the line that opens it
/// (comments taken out of each), each with its first line's number.
fn logical_lines(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(next) = read_lines(&lines, from, &mut out) {
        from = next;
    }
    out
}

/// Reads the logical lines of `lines[from..]` into `out`. `Some(i)` when a quoted string never
/// closed: its first line went alone, and reading goes on from `lines[i]`.
fn read_lines(lines: &[&str], from: usize, out: &mut Vec<(usize, String)>) -> Option<usize> {
    let before = from;
    let mut pending: Option<(usize, String)> = None;
    // A line that opened a block: its number, the text so far, the blocks still open.
    let mut in_block: Option<(usize, String, usize)> = None;
    for (i, raw) in lines[from..].iter().enumerate() {
        let number = before + i + 1;
        let (start, mut line) = pending.take().unwrap_or((number, String::new()));
        // Inside quotes a line goes on with its leading blanks removed, as in tmux.
        let raw = if line.ends_with('\n') {
            raw.trim_start_matches([' ', '\t'])
        } else {
            raw
        };
        if let Some(cont) = raw.strip_suffix('\\').filter(|l| !l.ends_with('\\')) {
            line.push_str(cont);
            pending = Some((start, line));
            continue;
        }
        line.push_str(raw);
        if quote_left_open(&line) {
            if number - start + 1 < MAX_QUOTED_LINES && number < lines.len() {
                // A quoted string goes on over the next line, the line break kept in it.
                line.push('\n');
                pending = Some((start, line));
                continue;
            }
            if in_block.is_none() && number > start {
                // Never closed: its first line alone is unterminated (and says so), and the
                // lines after it are read as they are.
                out.push((start, lines[start - 1].to_string()));
                return Some(start);
            }
        }
        match in_block.take() {
            Some((first, mut joined, open)) => {
                joined.push('\n');
                joined.push_str(&strip_comment(&line));
                match open.checked_add_signed(block_balance(&line)) {
                    Some(0) | None => out.push((first, joined)),
                    Some(open) => in_block = Some((first, joined, open)),
                }
            }
            None => match usize::try_from(block_balance(&line)) {
                Ok(open) if open > 0 => in_block = Some((start, strip_comment(&line), open)),
                _ => out.push((start, line)),
            },
        }
    }
    if let Some(last) = pending {
        out.push(last);
    }
    if let Some((first, joined, _)) = in_block {
        // Unclosed: the tokenizer says so for its line.
        out.push((first, joined));
    }
    None
}

/// The most lines one quoted string spans in a file: a quote left open by mistake takes at
/// most these with it (reported as unterminated) rather than the rest of the file.
const MAX_QUOTED_LINES: usize = 100;

/// Whether `line` (comments aside) ends inside a quoted string, as the tokenizer reads it.
fn quote_left_open(line: &str) -> bool {
    matches!(
        crate::words::tokenize(&strip_comment(line)),
        Err(CommandError::Syntax(m)) if m.starts_with("unterminated quote")
    )
}

/// How many `{` blocks `line` opens, less those it closes: braces that stand alone as words,
/// outside quotes and comments.
fn block_balance(line: &str) -> isize {
    let line = strip_comment(line);
    let mut balance = 0;
    let mut quote = None;
    let mut chars = line.chars().peekable();
    let mut word_start = true;
    while let Some(c) = chars.next() {
        let ends_word = chars.peek().is_none_or(|n| n.is_whitespace());
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"') | None, '\\') => {
                chars.next();
            }
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '{') if word_start && ends_word => balance += 1,
            (None, '}') if word_start && ends_word => balance -= 1,
            _ => {}
        }
        word_start = quote.is_none() && c.is_whitespace();
    }
    balance
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
    fn a_quoted_string_goes_on_over_lines_and_a_stray_quote_takes_none() {
        let text = "bind K run-shell \"sesh connect \\\"$(\n  sesh list | fzf \\\n    --ansi\n)\\\"\"\nset -g a b\n";
        let lines = logical_lines(text);
        assert_eq!(
            lines,
            [
                (
                    1,
                    "bind K run-shell \"sesh connect \\\"$(\nsesh list | fzf     --ansi\n)\\\"\""
                        .to_string()
                ),
                (5, "set -g a b".to_string()),
            ]
        );
        // A quote never closed: its line alone is left open (the tokenizer says so), the
        // lines after it are read as they are.
        let lines = logical_lines("set -g @x \"oops\nset -g a b\nset -g c d\n");
        assert_eq!(
            lines,
            [
                (1, "set -g @x \"oops".to_string()),
                (2, "set -g a b".to_string()),
                (3, "set -g c d".to_string()),
            ]
        );
    }

    #[test]
    fn variables_are_set_and_expanded_as_tmux_does() {
        let dir = std::env::temp_dir().join(format!("weft-conf-vars-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("vars.conf");
        std::fs::write(
            &file,
            "main=colour39\n\
             is_vim=\"ps -t '#{pane_tty}' | grep -q vim\"\n\
             %hidden MODULE=battery\n\
             set -g status-style \"fg=$main\"\n\
             bind C-h if-shell \"$is_vim\" 'send-keys C-h' 'select-pane -L'\n\
             set -g @m ${MODULE}_x\n\
             set -g @q '$main'\n",
        )
        .unwrap();
        let ran = std::cell::RefCell::new(Vec::new());
        let run = |_: &mut Config, words: &[String]| {
            ran.borrow_mut().push(words.join("|"));
            Ok(LineEffect::Done)
        };
        let mut config = Config::default();
        let mut warnings = Vec::new();
        apply_file(&mut config, &file, false, &run, &mut warnings);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(
            *ran.borrow(),
            [
                "set|-g|status-style|fg=colour39",
                "bind|C-h|if-shell|ps -t '#{pane_tty}' | grep -q vim|send-keys C-h|select-pane -L",
                "set|-g|@m|battery_x",
                "set|-g|@q|$main",
            ]
        );
        // An assignment is in the global environment (panes get it); `%hidden` is not.
        assert_eq!(
            config.environment.get("main"),
            Some(&Some("colour39".into()))
        );
        assert!(!config.environment.contains_key("MODULE"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_block_keeps_its_lines_with_the_line_that_opens_it() {
        let lines = logical_lines(
            "bind x if-shell -F '#{==:1,1}' {\n  display yes # a comment\n} {\n  display no\n}\nset -g @a b\n",
        );
        assert_eq!(
            lines,
            [
                (
                    1,
                    "bind x if-shell -F '#{==:1,1}' {\n  display yes \n} {\n  display no\n}"
                        .to_string()
                ),
                (6, "set -g @a b".to_string())
            ]
        );
        assert_eq!(block_balance("if 1 { a } {"), 1);
        assert_eq!(block_balance("set -g s '{' # {"), 0);
        assert_eq!(block_balance("if 1 {} {x}"), 0);
    }

    #[test]
    fn wildcards() {
        assert!(wildcard("*.conf", "a.conf"));
        assert!(wildcard("a?c*", "abcdef"));
        assert!(!wildcard("*.conf", "a.toml"));
    }
}

#[cfg(test)]
mod condition_tests;
