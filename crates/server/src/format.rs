//! tmux's format language: `#{variable}`, `#{?cond,then,else}`, comparisons, truncation,
//! basename and dirname, substitution, times, and the short aliases (`#S`, `#W`, ...). Pure:
//! variables come from a [`Vars`] the caller builds for a session, window and pane.
//!
//! Written by hand: the language is tmux's own, and no crate speaks it.

mod modifiers;
mod names;
pub(crate) use modifiers::fnmatch;
pub use names::names_in;
pub mod time;

use modifiers::{Compare, Modifier};

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
        } else if c == '#' || c == ',' || c == '}' {
            // `##`, `#,` and `#}`: the character itself (a comma or brace that does not
            // end a branch or a directive).
            out.push(c);
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

/// Walks `s` from byte `from` at nesting `depth` as tmux's `format_skip` does: `#{` opens a
/// nested directive, `#,` `##` `#}` `#:` are escapes (skipped), a `}` closes one. `stop` sees
/// every other byte's index, the byte and the depth it is at (a `}` with the depth it closes);
/// the index of the first it stops at.
fn scan(
    s: &str,
    from: usize,
    mut depth: usize,
    mut stop: impl FnMut(usize, u8, usize) -> bool,
) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'#' && bytes.get(i + 1).is_some_and(|n| b"{,#}:".contains(n)) {
            depth += usize::from(bytes[i + 1] == b'{');
            i += 2;
            continue;
        }
        if stop(i, b, depth) {
            return Some(i);
        }
        if b == b'}' {
            depth = depth.saturating_sub(1);
        }
        i += 1;
    }
    None
}

/// The index of the `}` closing the `{` at `s[0]` (see [`scan`]).
fn matching_brace(s: &str) -> Option<usize> {
    if !s.starts_with('{') {
        return None;
    }
    scan(s, 1, 1, |_, b, depth| b == b'}' && depth == 1)
}

/// Splits at top-level commas (not inside a nested `#{...}`, not an escaped `#,`).
fn split_args(s: &str) -> Vec<&str> {
    let mut commas = Vec::new();
    scan(s, 0, 0, |i, b, depth| {
        if b == b',' && depth == 0 {
            commas.push(i);
        }
        false
    });
    let mut parts = Vec::new();
    let mut start = 0;
    for comma in commas {
        parts.push(&s[start..comma]);
        start = comma + 1;
    }
    parts.push(&s[start..]);
    parts
}

/// Whether a value counts as true in `#{?...}` and `-f` filters: not empty and not `0`.
pub fn truthy(v: &str) -> bool {
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

/// `#{?cond,then,else}`: `else` is everything after the second comma (as tmux 3.3).
fn conditional(body: &str, vars: &dyn Vars, depth: usize) -> String {
    let args = split_args(body);
    let Some(cond) = args.first() else {
        return String::new();
    };
    if truthy(&value(cond, vars, depth)) {
        return args
            .get(1)
            .map(|t| expand_depth(t, vars, depth))
            .unwrap_or_default();
    }
    if args.len() < 3 {
        return String::new();
    }
    let skip = args[0].len() + args[1].len() + 2;
    expand_depth(&body[skip..], vars, depth)
}

/// The inside of one `#{...}`.
fn directive(body: &str, vars: &dyn Vars, depth: usize) -> String {
    if let Some(cond) = body.strip_prefix('?') {
        return conditional(cond, vars, depth);
    }
    let Some((mods, arg)) = modifiers::parse(body) else {
        return vars.get(body).unwrap_or_default();
    };
    // Modifiers over two arguments, each expanded as a format (as tmux).
    let both = || {
        let args = split_args(arg);
        let side = |i: usize| {
            args.get(i)
                .map(|x| expand_depth(x, vars, depth))
                .unwrap_or_default()
        };
        (side(0), side(1))
    };
    let flag = |b: bool| if b { "1" } else { "0" }.to_string();
    let mut out = None;
    for m in &mods {
        out = match m {
            Modifier::Compare(c) => {
                let (a, b) = both();
                Some(flag(match c {
                    Compare::Equal => a == b,
                    Compare::NotEqual => a != b,
                    Compare::Less => a < b,
                    Compare::Greater => a > b,
                    Compare::LessEqual => a <= b,
                    Compare::GreaterEqual => a >= b,
                    Compare::Or => truthy(&a) || truthy(&b),
                    Compare::And => truthy(&a) && truthy(&b),
                }))
            }
            Modifier::Match { regex, ignore_case } => {
                let (pattern, text) = both();
                Some(flag(modifiers::matches(
                    &pattern,
                    &text,
                    *regex,
                    *ignore_case,
                )))
            }
            Modifier::Expression { op, decimals } => {
                let (a, b) = both();
                Some(modifiers::arithmetic(*op, *decimals, &a, &b))
            }
            Modifier::Loop(over) => Some(each(*over, arg, vars, depth)),
            Modifier::Literal => Some(arg.to_string()),
            _ => continue,
        };
        break;
    }
    let mut v = match out {
        Some(v) => v,
        None if mods.contains(&Modifier::ExpandTime) => {
            let expanded = expand_depth(&value(arg, vars, depth), vars, depth);
            time::strftime(&expanded, &chrono::Local::now()).0
        }
        None if mods.contains(&Modifier::Expand) => {
            expand_depth(&value(arg, vars, depth), vars, depth)
        }
        None => value(arg, vars, depth),
    };
    // Then, in tmux's order whatever order they were written in: a time, a path's part,
    // quoting; substitutions; truncating; padding; the length.
    if mods.contains(&Modifier::Time) {
        v = as_date(v);
    }
    if mods.contains(&Modifier::Basename) {
        let trimmed = v.trim_end_matches('/');
        v = trimmed.rsplit('/').next().unwrap_or(trimmed).to_string();
    }
    if mods.contains(&Modifier::Dirname) {
        v = match v.trim_end_matches('/').rsplit_once('/') {
            Some(("", _)) => "/".into(),
            Some((dir, _)) => dir.to_string(),
            None => ".".into(),
        };
    }
    if mods.contains(&Modifier::Quote) {
        v = modifiers::quote(&v);
    }
    for m in &mods {
        if let Modifier::Substitute {
            pattern,
            replacement,
            ignore_case,
        } = m
        {
            v = modifiers::substitute(&v, pattern, replacement, *ignore_case);
        }
    }
    for m in &mods {
        match m {
            Modifier::Truncate { keep, marker } => v = modifiers::truncate(v, *keep, marker),
            Modifier::Pad(width) => v = modifiers::pad(v, *width),
            _ => {}
        }
    }
    if mods.contains(&Modifier::Length) {
        v = v.chars().count().to_string();
    }
    v
}

/// `#{S:...}`, `#{W:...}`, `#{P:...}`: the format (or, for the current item, the second
/// one when given) expanded for each item.
fn each(over: Loop, arg: &str, vars: &dyn Vars, depth: usize) -> String {
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

/// Seconds since the epoch as a local date (`t:`); anything else as it is.
fn as_date(v: String) -> String {
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

/// A start directory given as a format (`-c "#{pane_current_path}"`): expanded, a leading `~`
/// the home directory; `None` when it comes to nothing (the default directory then).
pub fn start_directory(format: &str, vars: &dyn Vars) -> Option<String> {
    let dir = expand(format, vars);
    let dir = match dir.strip_prefix('~') {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => {
            std::env::var("HOME").unwrap_or_default() + rest
        }
        _ => dir,
    };
    (!dir.is_empty()).then_some(dir)
}

/// The host's name, read once: the status line asks for it at every expansion.
pub fn host_name() -> String {
    static HOST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    HOST.get_or_init(|| {
        std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map(|h| h.trim_end().to_string())
            .unwrap_or_default()
    })
    .clone()
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
    fn escaped_commas_and_braces_stay_in_their_branch() {
        let mut v = vars();
        for (k, value) in [
            ("window_bigger", "0"),
            ("window_offset_x", "3"),
            ("big", "1"),
        ] {
            v.insert(k.to_string(), value.to_string());
        }
        // tmux's default `status-right` starts with this: nothing when the window fits.
        let offsets = "#{?window_bigger,[#{window_offset_x}#,#{window_offset_y}] ,}X";
        assert_eq!(expand(offsets, &v), "X");
        assert_eq!(expand("#{?big,a#,b,c}", &v), "a,b");
        assert_eq!(expand("#{?window_bigger,a,b#}c}", &v), "b}c");
        assert_eq!(expand("100#, ##", &v), "100, #");
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

    /// Expected results from tmux 3.3a (`display -p`) with session `p` and `@plug` set to
    /// `hello`.
    #[test]
    fn tmux_results() {
        let mut v = vars();
        v.insert("session_name".into(), "p".into());
        v.insert("@plug".into(), "hello".into());
        v.insert("@x".into(), "a b'c$d;#".into());
        v.insert("@y".into(), "a=b%c~d{e}!f,g".into());
        v.insert("@fmt".into(), "#{session_name} %%Y".into());
        v.insert("status-left".into(), "[#{session_name}] ".into());
        for (format, want) in [
            ("#{||:0,1}", "1"),
            ("#{||:0,0}", "0"),
            ("#{&&:1,0}", "0"),
            ("#{&&:1,#{session_name}}", "1"),
            ("#{||:pane_in_mode,0}", "1"),
            ("#{==:#{session_name},p}", "1"),
            ("#{?#{==:a,a},y,n}", "y"),
            ("#{?0,a,1,b,c}", "1,b,c"),
            ("#{?session_name,a,b}", "a"),
            ("#{?0,a}", ""),
            ("#{m:*a*,banana}", "1"),
            ("#{m:*x*,banana}", "0"),
            ("#{m/r:^b.n,banana}", "1"),
            ("#{m/ri:^B,banana}", "1"),
            ("#{m:p*,#{session_name}}", "1"),
            ("#{n:session_name}", "1"),
            ("#{n:@plug}", "5"),
            ("#{e|+|:1,2}", "3"),
            ("#{e|-|:1,5}", "-4"),
            ("#{e|*|:3,4}", "12"),
            ("#{e|/|:7,2}", "3"),
            ("#{e|%|:7,2}", "1"),
            ("#{e|==|:2,2}", "1"),
            ("#{e|!=|:3,2}", "1"),
            ("#{e|<|:1,2}", "1"),
            ("#{e|>=|:3,2}", "1"),
            ("#{e|*|f|4:5.5,3}", "16.5000"),
            ("#{e|/|f:7,2}", "3.50"),
            ("#{e|*|f|0:2.5,2}", "5"),
            ("#{e|+|:1.5,1}", "2"),
            ("#{e|+|:a,1}", ""),
            ("#{e|+|:#{e|*|:2,3},1}", "7"),
            ("[#{p10:session_name}]", "[p         ]"),
            ("[#{p-10:session_name}]", "[         p]"),
            ("#{p3:@plug}", "hello"),
            ("#{q:@x}", "a\\ b\\'c\\$d\\;\\#"),
            ("#{q:@y}", "a\\=b\\%c~d{e}!f,g"),
            ("#{=/3/...:@plug}", "hel..."),
            ("#{=/-3/...:@plug}", "...llo"),
            ("#{=/9/...:@plug}", "hello"),
            ("#{=/3/:@plug}", "hel"),
            ("#{s/(l+)/[\\1]/:@plug}", "he[ll]o"),
            ("#{@plug}", "hello"),
            ("#{status-left}", "[#{session_name}] "),
            ("#{E:status-left}", "[p] "),
            ("#{T:@fmt}", "p %Y"),
            ("#{=2;b:pane_current_path}", "we"),
            ("#{n:#{l:abc}}", "3"),
        ] {
            assert_eq!(expand(format, &v), want, "{format}");
        }
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
