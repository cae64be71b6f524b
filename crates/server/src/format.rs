//! tmux's format language: `#{variable}`, `#{?cond,then,else}`, comparisons, truncation,
//! basename and dirname, substitution, times, and the short aliases (`#S`, `#W`, ...). Pure:
//! variables come from a [`Vars`] the caller builds for a session, window and pane.
//!
//! Written by hand: the language is tmux's own, and no crate speaks it.

/// Where a format's variables come from.
pub trait Vars {
    /// The value of `name`, if it has one (an unknown variable expands to nothing).
    fn get(&self, name: &str) -> Option<String>;

    /// The first line shell command `cmd` printed (`#(cmd)`), once there is one; none by
    /// default (a format outside the status line runs no commands).
    fn command(&self, _cmd: &str) -> Option<String> {
        None
    }

    /// The sessions, windows or panes a loop (`#{S:...}`, `#{W:...}`, `#{P:...}`) goes over,
    /// each with its variables and whether it is the current one; none by default.
    fn each(&self, _over: Loop) -> Vec<(Box<dyn Vars + '_>, bool)> {
        Vec::new()
    }
}

/// What a loop goes over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Loop {
    /// `#{S:...}`: sessions.
    Sessions,
    /// `#{W:...}`: the session's windows.
    Windows,
    /// `#{P:...}`: the window's panes.
    Panes,
}

/// `vars` with shell commands turned off: a command's text and its output are expanded with
/// these, so output cannot start more commands (as tmux's `FORMAT_EXPAND_NOJOBS`).
struct NoJobs<'a>(&'a dyn Vars);

impl Vars for NoJobs<'_> {
    fn get(&self, name: &str) -> Option<String> {
        self.0.get(name)
    }

    fn each(&self, over: Loop) -> Vec<(Box<dyn Vars + '_>, bool)> {
        without_jobs(self.0.each(over))
    }
}

/// A loop's items with shell commands turned off.
fn without_jobs(items: Vec<(Box<dyn Vars + '_>, bool)>) -> Vec<(Box<dyn Vars + '_>, bool)> {
    items
        .into_iter()
        .map(|(v, current)| (Box::new(NoJobsOwned(v)) as Box<dyn Vars>, current))
        .collect()
}

/// [`NoJobs`] over a loop's own variables.
struct NoJobsOwned<'a>(Box<dyn Vars + 'a>);

impl Vars for NoJobsOwned<'_> {
    fn get(&self, name: &str) -> Option<String> {
        self.0.get(name)
    }

    fn each(&self, over: Loop) -> Vec<(Box<dyn Vars + '_>, bool)> {
        without_jobs(self.0.each(over))
    }
}

impl Vars for std::collections::HashMap<String, String> {
    fn get(&self, name: &str) -> Option<String> {
        std::collections::HashMap::get(self, name).cloned()
    }
}

/// The deepest nesting expanded, so a hostile format cannot recurse without end.
const MAX_DEPTH: usize = 16;
/// The longest expansion kept: a format cannot grow the server's memory without bound.
const MAX_OUTPUT_BYTES: usize = 64 << 10;

/// `fmt` with every `#{...}` and `#X` expanded from `vars`.
pub fn expand(fmt: &str, vars: &dyn Vars) -> String {
    expand_depth(fmt, vars, 0)
}

/// The variable an alias (`#S`) stands for.
fn alias(c: char) -> Option<&'static str> {
    Some(match c {
        'S' => "session_name",
        'W' => "window_name",
        'I' => "window_index",
        'P' => "pane_index",
        'T' => "pane_title",
        'H' => "host",
        'h' => "host_short",
        'D' => "pane_id",
        'F' => "window_flags",
        _ => return None,
    })
}

fn expand_depth(fmt: &str, vars: &dyn Vars, depth: usize) -> String {
    let mut out = String::new();
    let mut rest = fmt;
    while let Some(at) = rest.find('#') {
        out.push_str(&rest[..at]);
        rest = &rest[at + 1..];
        let Some(c) = rest.chars().next() else {
            out.push('#');
            break;
        };
        if c == '{' {
            match matching_brace(rest) {
                Some(end) => {
                    if depth < MAX_DEPTH {
                        out.push_str(&directive(&rest[1..end], vars, depth + 1));
                    }
                    rest = &rest[end + 1..];
                }
                None => {
                    out.push('#');
                }
            }
        } else if c == '#' {
            out.push('#');
            rest = &rest[1..];
        } else if c == '(' {
            // `#(command)`: its output as the caller's `Vars` has it (nothing until the first
            // result), itself expanded as a format without commands.
            let end = command_end(rest);
            if depth < MAX_DEPTH {
                let cmd = expand_depth(&rest[1..end], &NoJobs(vars), depth + 1);
                if let Some(output) = vars.command(&cmd) {
                    out.push_str(&expand_depth(&output, &NoJobs(vars), depth + 1));
                }
            }
            rest = rest.get(end + 1..).unwrap_or("");
        } else if let Some(name) = alias(c) {
            out.push_str(&vars.get(name).unwrap_or_default());
            rest = &rest[c.len_utf8()..];
        } else {
            // `#[style]` and anything else stay as written.
            out.push('#');
        }
        if out.len() > MAX_OUTPUT_BYTES {
            let mut end = MAX_OUTPUT_BYTES;
            while !out.is_char_boundary(end) {
                end -= 1;
            }
            out.truncate(end);
            return out;
        }
    }
    out.push_str(rest);
    out
}

/// The index of the `)` ending the command whose `(` is at `s[0]` (a `)` inside a nested
/// `#{...}` does not end it), or `s.len()` when none does.
fn command_end(s: &str) -> usize {
    let mut i = 1;
    while i < s.len() {
        let rest = &s[i..];
        if rest.starts_with("#{") {
            match matching_brace(&rest[1..]) {
                Some(end) => i += end + 2,
                None => return s.len(),
            }
        } else if rest.starts_with(')') {
            return i;
        } else {
            i += rest.chars().next().map_or(1, char::len_utf8);
        }
    }
    s.len()
}

/// The index of the `}` closing the `{` at `s[0]`, counting nested `#{`.
fn matching_brace(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    let bytes = s.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Splits at top-level commas (not inside a nested `#{...}`).
fn split_args(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
            b',' if depth == 0 => {
                parts.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&s[start..]);
    parts
}

/// Whether a value counts as true in `#{?...}`: not empty and not `0`.
fn truthy(v: &str) -> bool {
    !v.is_empty() && v != "0"
}

/// A value: a variable's, or, for text holding `#`, that text expanded.
fn value(s: &str, vars: &dyn Vars, depth: usize) -> String {
    if s.contains('#') {
        expand_depth(s, vars, depth)
    } else {
        vars.get(s).unwrap_or_default()
    }
}

/// The inside of one `#{...}`.
fn directive(body: &str, vars: &dyn Vars, depth: usize) -> String {
    if let Some(cond) = body.strip_prefix('?') {
        let args = split_args(cond);
        let test = args
            .first()
            .map(|c| value(c, vars, depth))
            .unwrap_or_default();
        let pick = if truthy(&test) {
            args.get(1)
        } else {
            args.get(2)
        };
        return pick
            .map(|p| expand_depth(p, vars, depth))
            .unwrap_or_default();
    }
    let Some((modifier, arg)) = split_modifier(body) else {
        return vars.get(body).unwrap_or_default();
    };
    match modifier {
        "==" | "!=" | "<" | ">" | "<=" | ">=" | "||" | "&&" => {
            let args = split_args(arg);
            let a = args
                .first()
                .map(|x| expand_depth(x, vars, depth))
                .unwrap_or_default();
            let b = args
                .get(1)
                .map(|x| expand_depth(x, vars, depth))
                .unwrap_or_default();
            let yes = match modifier {
                "==" => a == b,
                "!=" => a != b,
                "<" => a < b,
                ">" => a > b,
                "<=" => a <= b,
                ">=" => a >= b,
                "||" => {
                    truthy(&value(args.first().copied().unwrap_or(""), vars, depth))
                        || truthy(&value(args.get(1).copied().unwrap_or(""), vars, depth))
                }
                _ => {
                    truthy(&value(args.first().copied().unwrap_or(""), vars, depth))
                        && truthy(&value(args.get(1).copied().unwrap_or(""), vars, depth))
                }
            };
            if yes { "1" } else { "0" }.to_string()
        }
        "b" => {
            let v = value(arg, vars, depth);
            let trimmed = v.trim_end_matches('/');
            trimmed.rsplit('/').next().unwrap_or(trimmed).to_string()
        }
        "d" => {
            let v = value(arg, vars, depth);
            match v.trim_end_matches('/').rsplit_once('/') {
                Some(("", _)) => "/".into(),
                Some((dir, _)) => dir.to_string(),
                None => ".".into(),
            }
        }
        "l" => arg.to_string(),
        "S" | "W" | "P" => {
            let over = match modifier {
                "S" => Loop::Sessions,
                "W" => Loop::Windows,
                _ => Loop::Panes,
            };
            let args = split_args(arg);
            let all = args.first().copied().unwrap_or("");
            let current = args.get(1).copied().unwrap_or(all);
            let mut out = String::new();
            for (item, is_current) in vars.each(over) {
                let fmt = if is_current { current } else { all };
                out.push_str(&expand_depth(fmt, item.as_ref(), depth));
                if out.len() > MAX_OUTPUT_BYTES {
                    break;
                }
            }
            out
        }
        "E" => expand_depth(&value(arg, vars, depth), vars, depth),
        "t" => {
            let v = value(arg, vars, depth);
            v.parse::<i64>()
                .ok()
                .and_then(|secs| chrono::DateTime::from_timestamp(secs, 0))
                .map(|t| {
                    t.with_timezone(&chrono::Local)
                        .format("%a %b %e %H:%M:%S %Y")
                        .to_string()
                })
                .unwrap_or(v)
        }
        m if m.starts_with('=') => {
            let v = value(arg, vars, depth);
            let n: i64 = m[1..].parse().unwrap_or(0);
            let chars: Vec<char> = v.chars().collect();
            let keep = n.unsigned_abs() as usize;
            if chars.len() <= keep {
                v
            } else if n >= 0 {
                chars[..keep].iter().collect()
            } else {
                chars[chars.len() - keep..].iter().collect()
            }
        }
        m if m.starts_with("s/") => substitute(m, arg, vars, depth),
        _ => vars.get(body).unwrap_or_default(),
    }
}

/// `s/pattern/replacement/` applied to the argument's value.
fn substitute(m: &str, arg: &str, vars: &dyn Vars, depth: usize) -> String {
    let v = value(arg, vars, depth);
    let mut parts = m[2..].splitn(3, '/');
    let (Some(pattern), Some(replacement)) = (parts.next(), parts.next()) else {
        return v;
    };
    let insensitive = parts.next().is_some_and(|f| f.contains('i'));
    let built = regex::RegexBuilder::new(pattern)
        .case_insensitive(insensitive)
        .size_limit(1 << 20)
        .build();
    match built {
        Ok(re) => re.replace_all(&v, replacement).into_owned(),
        Err(_) => v,
    }
}

/// `modifier:argument`, when the body has a modifier before a top-level colon.
fn split_modifier(body: &str) -> Option<(&str, &str)> {
    let colon = body.find(':')?;
    let modifier = &body[..colon];
    let known = matches!(
        modifier,
        "==" | "!="
            | "<"
            | ">"
            | "<="
            | ">="
            | "||"
            | "&&"
            | "b"
            | "d"
            | "l"
            | "E"
            | "t"
            | "S"
            | "W"
            | "P"
    ) || (modifier.starts_with('=')
        && modifier[1..]
            .trim_start_matches('-')
            .chars()
            .all(|c| c.is_ascii_digit()))
        || modifier.starts_with("s/");
    known.then(|| (modifier, &body[colon + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn vars() -> HashMap<String, String> {
        [
            ("session_name", "main"),
            ("window_name", "vim"),
            ("window_index", "2"),
            ("pane_current_path", "/home/u/src/weft/"),
            ("pane_in_mode", "0"),
            ("window_zoomed_flag", "1"),
            ("pane_title", "a long title here"),
            ("status-right", "[#S]"),
        ]
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
    }

    #[test]
    fn variables_aliases_and_conditions() {
        let v = vars();
        assert_eq!(expand("#S:#I.#W ##", &v), "main:2.vim #");
        assert_eq!(expand("#{session_name}/#{nope}", &v), "main/");
        assert_eq!(
            expand("#{?window_zoomed_flag,Z,-}#{?pane_in_mode,[copy],}", &v),
            "Z"
        );
        assert_eq!(
            expand("#{?#{==:#{window_name},vim},editing,#{window_name}}", &v),
            "editing"
        );
        assert_eq!(
            expand(
                "#{!=:a,b} #{<:a,b} #{||:pane_in_mode,window_zoomed_flag}",
                &v
            ),
            "1 1 1"
        );
        assert_eq!(expand("#[fg=red]x", &v), "#[fg=red]x");
    }

    #[test]
    fn modifiers() {
        let v = vars();
        assert_eq!(expand("#{b:pane_current_path}", &v), "weft");
        assert_eq!(expand("#{d:pane_current_path}", &v), "/home/u/src");
        assert_eq!(
            expand("#{=6:pane_title}|#{=-4:pane_title}", &v),
            "a long|here"
        );
        assert_eq!(
            expand("#{s/long/short/:pane_title}", &v),
            "a short title here"
        );
        assert_eq!(expand("#{E:status-right}", &v), "[main]");
        assert_eq!(expand("#{l:#{x}}", &v), "#{x}");
        assert_eq!(expand("#{t:nope}", &v), "");
    }

    /// Commands come from the caller, by their expanded text; their output is expanded too.
    struct WithJobs(HashMap<String, String>);
    impl Vars for WithJobs {
        fn get(&self, name: &str) -> Option<String> {
            self.0.get(name).cloned()
        }
        fn command(&self, cmd: &str) -> Option<String> {
            match cmd {
                "echo main" => Some("hi #S #(nested)".into()),
                "date" => Some("today".into()),
                _ => None,
            }
        }
    }

    #[test]
    fn shell_commands_come_from_the_caller() {
        let v = WithJobs(vars());
        assert_eq!(expand("[#(date)]", &v), "[today]");
        assert_eq!(
            expand("#(echo #{session_name})!", &v),
            "hi main !",
            "the command is expanded first; its output's own commands do not run"
        );
        assert_eq!(expand("a#(not yet)b", &v), "ab");
        assert_eq!(expand("a#(unterminated", &v), "a");
        assert_eq!(
            expand("#(date)", &vars()),
            "",
            "no commands outside the status line"
        );
    }

    /// Windows `0:vim` and `1:sh` (current) of session `main`, each with one pane.
    struct Session;
    impl Vars for Session {
        fn get(&self, name: &str) -> Option<String> {
            (name == "session_name").then(|| "main".into())
        }
        fn each(&self, over: Loop) -> Vec<(Box<dyn Vars + '_>, bool)> {
            let window = |i: &str, name: &str| -> Box<dyn Vars> {
                Box::new(
                    [("window_index", i), ("window_name", name)]
                        .iter()
                        .map(|(k, v)| (k.to_string(), v.to_string()))
                        .collect::<HashMap<String, String>>(),
                )
            };
            match over {
                Loop::Windows => vec![(window("0", "vim"), false), (window("1", "sh"), true)],
                Loop::Sessions => vec![(Box::new(Session) as Box<dyn Vars>, true)],
                Loop::Panes => Vec::new(),
            }
        }
    }

    #[test]
    fn loops_go_over_windows_and_sessions() {
        assert_eq!(expand("#{W:#I:#W }", &Session), "0:vim 1:sh ");
        assert_eq!(expand("#{W:#I ,[#I] }", &Session), "0 [1] ");
        assert_eq!(expand("#{S:#S=#{W:#I}}", &Session), "main=01");
        assert_eq!(expand("#{P:#D}|", &Session), "|");
        assert_eq!(expand("#{W:#I}", &vars()), "", "no windows to go over");
    }

    #[test]
    fn hostile_formats_end() {
        let v = vars();
        let deep = "#{?".repeat(1000) + &"}".repeat(1000);
        let _ = expand(&deep, &v);
        let _ = expand("#{unterminated", &v);
        let _ = expand("#{s/(/x/:pane_title}", &v);
        let big = "#{E:status-right}".repeat(10_000);
        assert!(expand(&big, &v).len() <= MAX_OUTPUT_BYTES);
    }
}
