//! The script language of `weft script`: one command a line, `#` comments, blank lines
//! ignored; the whole file is read into [`Step`]s before anything runs, so a mistake anywhere
//! stops the script with its line and column first.
//!
//! ```text
//! size 80x24              # before spawn: the program's size
//! spawn less README.md    # or `run`; words, or "quoted words"
//! wait text "README"      # wait text|regex|absent|cursor|idle|exit
//! key q                   # tmux key names: C-c Enter Up F1 M-x
//! type "ls -l\n"          # text, with \n \t \e \\ \" escapes
//! expect text "total"     # expect text|absent|cursor: checked at once
//! snapshot screen.txt     # the screen compared with (or written to) a file
//! resize 100x30
//! timeout 5s              # how long later waits wait
//! sleep 100ms             # a last resort
//! ```

use std::time::Duration;

/// A script's mistake: where (1-based) and what, with what was expected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// Line, from 1.
    pub line: usize,
    /// Column (characters), from 1.
    pub col: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

/// One command of a script and the line it is on.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// Line, from 1.
    pub line: usize,
    /// What it does.
    pub command: Command,
}

/// A script command.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    /// `size COLSxROWS`: the program's size (before `spawn`).
    Size(u16, u16),
    /// `spawn CMD...` / `run CMD...`: start the program in a new detached session.
    Spawn(Vec<String>),
    /// `type "text"`: type text.
    Type(String),
    /// `key KEY...`: press keys (tmux names).
    Key(Vec<String>),
    /// `wait ...`: wait until a condition holds (up to the timeout).
    Wait(Condition),
    /// `expect ...`: check a condition now.
    Expect(Condition),
    /// `snapshot FILE`: compare the screen with a file (or write it).
    Snapshot(String),
    /// `resize COLSxROWS`.
    Resize(u16, u16),
    /// `timeout DURATION`: how long later waits wait.
    Timeout(Duration),
    /// `sleep DURATION`.
    Sleep(Duration),
    /// `record FILE.cast`: record the pane from now until the script ends (asciicast v2).
    Record(String),
}

/// What `wait` and `expect` look for.
#[derive(Debug, Clone, PartialEq)]
pub enum Condition {
    /// The screen contains the text.
    Text(String),
    /// The screen matches the regular expression.
    Regex(String),
    /// The screen does not contain the text.
    Absent(String),
    /// The cursor is at this row and column (from 0).
    Cursor(usize, usize),
    /// Nothing printed for this long (wait only).
    Idle(Duration),
    /// The program exited, with this status if given (wait only).
    Exit(Option<i64>),
}

/// A piece of a line: a bare word, a "string" (escapes done) or a /regex/.
#[derive(Debug, Clone, PartialEq)]
struct Token {
    text: String,
    kind: TokenKind,
    /// Column, from 1.
    col: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TokenKind {
    Word,
    Quoted,
    Regex,
}

/// Parses a whole script.
pub fn parse(source: &str) -> Result<Vec<Step>, ParseError> {
    let mut steps = Vec::new();
    let mut spawned = false;
    for (index, text) in source.lines().enumerate() {
        let line = index + 1;
        let tokens = tokenize(text).map_err(|(col, message)| ParseError { line, col, message })?;
        let Some((name, args)) = tokens.split_first() else {
            continue;
        };
        let err = |col: usize, message: String| ParseError { line, col, message };
        let command = command(name, args, text).map_err(|(col, m)| err(col, m))?;
        match &command {
            Command::Spawn(_) if spawned => {
                return Err(err(
                    name.col,
                    "a second spawn: a script drives one program; start another script for \
                     another program"
                        .into(),
                ))
            }
            Command::Spawn(_) => spawned = true,
            Command::Size(..) if spawned => {
                return Err(err(
                    name.col,
                    "size after spawn: size sets the program's size before it starts; use \
                     resize COLSxROWS to change it later"
                        .into(),
                ))
            }
            Command::Size(..) | Command::Timeout(_) | Command::Sleep(_) => {}
            _ if !spawned => {
                return Err(err(
                    name.col,
                    format!("{} needs a program: put spawn COMMAND before it", name.text),
                ))
            }
            _ => {}
        }
        steps.push(Step { line, command });
    }
    if !spawned {
        let line = source.lines().count().max(1);
        return Err(ParseError {
            line,
            col: 1,
            message: "no spawn: a script starts its program with spawn COMMAND".into(),
        });
    }
    Ok(steps)
}

/// The commands' names, for the message about an unknown one.
const COMMANDS: &str = "size, spawn (or run), type, key, wait, expect, snapshot, record, \
                        resize, timeout, sleep";

/// One command from its name and arguments; errors carry their column.
fn command(name: &Token, args: &[Token], line: &str) -> Result<Command, (usize, String)> {
    let end = line.chars().count() + 1;
    let word = name.text.as_str();
    if name.kind != TokenKind::Word {
        return Err((name.col, format!("a command name first, one of {COMMANDS}")));
    }
    match word {
        "size" | "resize" => {
            let (cols, rows) = one(args, end, "a size COLSxROWS (e.g. 80x24)").and_then(size)?;
            Ok(if word == "size" {
                Command::Size(cols, rows)
            } else {
                Command::Resize(cols, rows)
            })
        }
        "spawn" | "run" => {
            if args.is_empty() {
                return Err((end, "a command to run, e.g. spawn bash --norc".into()));
            }
            if let Some(t) = args.iter().find(|t| t.kind == TokenKind::Regex) {
                return Err((t.col, "words or \"quoted words\" for the command".into()));
            }
            Ok(Command::Spawn(
                args.iter().map(|t| t.text.clone()).collect(),
            ))
        }
        "type" => {
            let t = one(args, end, "text in double quotes, e.g. type \"ls\\n\"")?;
            if t.kind != TokenKind::Quoted {
                return Err((t.col, "text in double quotes, e.g. type \"ls\\n\"".into()));
            }
            Ok(Command::Type(t.text.clone()))
        }
        "key" => {
            if args.is_empty() {
                return Err((end, "key names, e.g. key C-c Enter".into()));
            }
            for t in args {
                if !is_key(&t.text) || t.kind != TokenKind::Word {
                    return Err((
                        t.col,
                        format!(
                            "{:?} is not a key name: tmux's names (Enter, Escape, Tab, Up, F1, \
                             C-c, M-x) or one character; type \"text\" types text",
                            t.text
                        ),
                    ));
                }
            }
            Ok(Command::Key(args.iter().map(|t| t.text.clone()).collect()))
        }
        "wait" | "expect" => {
            let kinds = if word == "wait" {
                "text, regex, absent, cursor, idle or exit"
            } else {
                "text, regex, absent or cursor"
            };
            let Some((kind, rest)) = args.split_first() else {
                return Err((end, format!("what to {word} for: {kinds}")));
            };
            let condition = condition(kind, rest, end)?;
            if word == "expect" && matches!(condition, Condition::Idle(_) | Condition::Exit(_)) {
                return Err((
                    kind.col,
                    format!(
                        "expect checks the screen now: {kinds} (wait {} waits)",
                        kind.text
                    ),
                ));
            }
            Ok(if word == "wait" {
                Command::Wait(condition)
            } else {
                Command::Expect(condition)
            })
        }
        "snapshot" => {
            let t = one(args, end, "a file name, e.g. snapshot screen.txt")?;
            if t.kind == TokenKind::Regex {
                return Err((t.col, "a file name, e.g. snapshot screen.txt".into()));
            }
            Ok(Command::Snapshot(t.text.clone()))
        }
        "record" => {
            let t = one(args, end, "a file name, e.g. record demo.cast")?;
            if t.kind == TokenKind::Regex {
                return Err((t.col, "a file name, e.g. record demo.cast".into()));
            }
            Ok(Command::Record(t.text.clone()))
        }
        "timeout" | "sleep" => {
            let d = one(args, end, "a duration, e.g. 5s or 200ms").and_then(duration)?;
            Ok(if word == "timeout" {
                Command::Timeout(d)
            } else {
                Command::Sleep(d)
            })
        }
        other => Err((
            name.col,
            format!("unknown command {other:?}; expected one of {COMMANDS}"),
        )),
    }
}

/// The condition of a `wait` or `expect`.
fn condition(kind: &Token, rest: &[Token], end: usize) -> Result<Condition, (usize, String)> {
    let quoted = |what: &str| -> Result<String, (usize, String)> {
        let t = one(rest, end, &format!("{what} in double quotes"))?;
        if t.kind != TokenKind::Quoted {
            return Err((t.col, format!("{what} in double quotes")));
        }
        Ok(t.text.clone())
    };
    match kind.text.as_str() {
        "text" => Ok(Condition::Text(quoted("the text")?)),
        "absent" => Ok(Condition::Absent(quoted("the text")?)),
        "regex" => {
            let t = one(
                rest,
                end,
                "a regular expression between slashes, e.g. /\\$ $/",
            )?;
            if t.kind != TokenKind::Regex {
                return Err((
                    t.col,
                    "a regular expression between slashes, e.g. /\\$ $/".into(),
                ));
            }
            regex::Regex::new(&t.text)
                .map_err(|e| (t.col, format!("not a regular expression: {e}")))?;
            Ok(Condition::Regex(t.text.clone()))
        }
        "cursor" => {
            let t = one(rest, end, "ROW,COL (from 0), e.g. 0,2")?;
            let numbers: Option<Vec<usize>> =
                t.text.split(',').map(|n| n.trim().parse().ok()).collect();
            match numbers.as_deref() {
                Some(&[row, col]) if t.kind == TokenKind::Word => Ok(Condition::Cursor(row, col)),
                _ => Err((
                    t.col,
                    format!("ROW,COL (from 0), e.g. 0,2, not {:?}", t.text),
                )),
            }
        }
        "idle" => Ok(Condition::Idle(
            one(rest, end, "a duration, e.g. 200ms").and_then(duration)?,
        )),
        "exit" => match rest {
            [] => Ok(Condition::Exit(None)),
            [t] => t
                .text
                .parse()
                .map(|n| Condition::Exit(Some(n)))
                .map_err(|_| (t.col, format!("an exit status number, not {:?}", t.text))),
            [_, extra, ..] => Err((extra.col, "nothing after the exit status".into())),
        },
        other => Err((
            kind.col,
            format!(
                "unknown condition {other:?}; expected text, regex, absent, cursor, idle or exit"
            ),
        )),
    }
}

/// The one argument, or an error saying what was expected (at the line's end when missing).
fn one<'a>(args: &'a [Token], end: usize, expected: &str) -> Result<&'a Token, (usize, String)> {
    match args {
        [t] => Ok(t),
        [] => Err((end, format!("missing argument: expected {expected}"))),
        [_, extra, ..] => Err((extra.col, format!("one argument only: expected {expected}"))),
    }
}

/// `COLSxROWS`, each from 1, clamped as the server clamps sizes.
fn size(t: &Token) -> Result<(u16, u16), (usize, String)> {
    let parsed = t.text.split_once(['x', 'X']).and_then(|(c, r)| {
        let c: u32 = c.parse().ok().filter(|n| *n > 0)?;
        let r: u32 = r.parse().ok().filter(|n| *n > 0)?;
        let narrow = |n: u32| u16::try_from(n).unwrap_or(u16::MAX);
        Some(weft_protocol::clamp_size(narrow(c), narrow(r)))
    });
    parsed.ok_or_else(|| {
        (
            t.col,
            format!("a size COLSxROWS (e.g. 80x24), not {:?}", t.text),
        )
    })
}

/// `200ms`, `5s`, `1.5s`, `2m`: at most a day.
fn duration(t: &Token) -> Result<Duration, (usize, String)> {
    let text = t.text.as_str();
    let (number, unit) = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .map_or((text, ""), |i| text.split_at(i));
    let scale = match unit {
        "ms" => 0.001,
        "s" => 1.0,
        "m" => 60.0,
        _ => f64::NAN,
    };
    number
        .parse::<f64>()
        .ok()
        .map(|n| n * scale)
        .filter(|s| s.is_finite() && *s >= 0.0 && *s <= 86_400.0)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| {
            (
                t.col,
                format!("a duration such as 200ms, 5s or 1m (at most a day), not {text:?}"),
            )
        })
}

/// Whether `name` is a key `send-keys` knows, or one character.
fn is_key(name: &str) -> bool {
    name.chars().count() == 1 || weft_protocol::keynames::encode_key(name, false).is_some()
}

/// Splits a line into tokens; a line that is blank or starts with `#` has none. Errors carry
/// their column.
fn tokenize(line: &str) -> Result<Vec<Token>, (usize, String)> {
    let chars: Vec<char> = line.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    loop {
        while i < chars.len() && chars[i].is_whitespace() {
            i += 1;
        }
        if i >= chars.len() || (tokens.is_empty() && chars[i] == '#') {
            return Ok(tokens);
        }
        let col = i + 1;
        let (text, kind) = match chars[i] {
            '"' => {
                let (text, next) = quoted(&chars, i)?;
                i = next;
                (text, TokenKind::Quoted)
            }
            // A /regex/ only where one is expected: paths stay words.
            '/' if tokens
                .last()
                .is_some_and(|t: &Token| t.kind == TokenKind::Word && t.text == "regex") =>
            {
                let (text, next) = regex_literal(&chars, i)?;
                i = next;
                (text, TokenKind::Regex)
            }
            _ => {
                let start = i;
                while i < chars.len() && !chars[i].is_whitespace() {
                    i += 1;
                }
                (chars[start..i].iter().collect(), TokenKind::Word)
            }
        };
        if i < chars.len() && !chars[i].is_whitespace() {
            return Err((
                i + 1,
                "a space after the closing quote or slash, before the next argument".into(),
            ));
        }
        tokens.push(Token { text, kind, col });
    }
}

/// A "string" starting at `start`: its text with escapes done, and the index after it.
fn quoted(chars: &[char], start: usize) -> Result<(String, usize), (usize, String)> {
    let mut out = String::new();
    let mut i = start + 1;
    while i < chars.len() {
        match chars[i] {
            '"' => return Ok((out, i + 1)),
            '\\' => {
                let escaped = chars.get(i + 1).copied();
                out.push(match escaped {
                    Some('n') => '\n',
                    Some('t') => '\t',
                    Some('r') => '\r',
                    Some('e') => '\x1b',
                    Some('\\') => '\\',
                    Some('"') => '"',
                    Some(other) => {
                        return Err((
                            i + 1,
                            format!(
                                "unknown escape \\{other}; expected \\n, \\t, \\r, \\e, \\\\ \
                                 or \\\""
                            ),
                        ))
                    }
                    None => break,
                });
                i += 2;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Err((
        start + 1,
        "this string has no closing double quote; expected \" before the end of the line".into(),
    ))
}

/// A /regex/ starting at `start` (`\/` is a slash; other escapes are the regex's own).
fn regex_literal(chars: &[char], start: usize) -> Result<(String, usize), (usize, String)> {
    let mut out = String::new();
    let mut i = start + 1;
    while i < chars.len() {
        match chars[i] {
            '/' => return Ok((out, i + 1)),
            '\\' if chars.get(i + 1) == Some(&'/') => {
                out.push('/');
                i += 2;
            }
            '\\' if i + 1 < chars.len() => {
                out.push('\\');
                out.push(chars[i + 1]);
                i += 2;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    Err((
        start + 1,
        "this regular expression has no closing slash; expected / before the end of the line"
            .into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(source: &str) -> (usize, usize, String) {
        let e = parse(source).unwrap_err();
        (e.line, e.col, e.message)
    }

    #[test]
    fn a_script_becomes_steps() {
        let steps = parse(
            "# a comment\n\
             size 100x30\n\
             \n\
             spawn sh -c \"echo hi; read x\"\n\
             timeout 2s\n\
             wait text \"hi\"\n\
             wait regex /h\\/i$/\n\
             type \"a\\tb\\e\\n\"\n\
             key C-c Enter q\n\
             expect cursor 3,0\n\
             expect absent \"bye\"\n\
             wait idle 200ms\n\
             wait exit 3\n\
             snapshot \"out put.txt\"\n\
             resize 40x10\n\
             sleep 1.5s\n",
        )
        .unwrap();
        let commands: Vec<Command> = steps.iter().map(|s| s.command.clone()).collect();
        assert_eq!(
            commands,
            vec![
                Command::Size(100, 30),
                Command::Spawn(vec!["sh".into(), "-c".into(), "echo hi; read x".into()]),
                Command::Timeout(Duration::from_secs(2)),
                Command::Wait(Condition::Text("hi".into())),
                Command::Wait(Condition::Regex("h/i$".into())),
                Command::Type("a\tb\x1b\n".into()),
                Command::Key(vec!["C-c".into(), "Enter".into(), "q".into()]),
                Command::Expect(Condition::Cursor(3, 0)),
                Command::Expect(Condition::Absent("bye".into())),
                Command::Wait(Condition::Idle(Duration::from_millis(200))),
                Command::Wait(Condition::Exit(Some(3))),
                Command::Snapshot("out put.txt".into()),
                Command::Resize(40, 10),
                Command::Sleep(Duration::from_millis(1500)),
            ]
        );
        assert_eq!(steps[0].line, 2);
        assert_eq!(steps[1].line, 4);
        assert_eq!(
            parse("run top\nwait exit").unwrap()[1].command,
            Command::Wait(Condition::Exit(None))
        );
        // Paths are words; only `regex` takes a /regex/.
        let steps = parse("spawn /bin/sh -c \"exit 0\"\nsnapshot /tmp/a.txt").unwrap();
        assert_eq!(
            steps[0].command,
            Command::Spawn(vec!["/bin/sh".into(), "-c".into(), "exit 0".into()])
        );
        assert_eq!(steps[1].command, Command::Snapshot("/tmp/a.txt".into()));
    }

    #[test]
    fn errors_point_at_the_line_and_column() {
        let (line, col, message) = error("spawn bash\n  bogus 1");
        assert_eq!((line, col), (2, 3));
        assert!(message.contains("unknown command \"bogus\""), "{message}");
        assert!(message.contains("expected one of size"), "{message}");

        let (line, col, message) = error("spawn bash\ntype \"abc");
        assert_eq!((line, col), (2, 6));
        assert!(message.contains("no closing double quote"), "{message}");

        let (line, col, message) = error("spawn bash\ntype \"a\\qb\"");
        assert_eq!((line, col), (2, 8));
        assert!(message.contains("unknown escape \\q"), "{message}");

        let (line, col, message) = error("spawn bash\nwait text");
        assert_eq!((line, col), (2, 10));
        assert!(message.contains("missing argument"), "{message}");

        let (line, col, message) = error("spawn bash\nwait regex /a(/");
        assert_eq!((line, col), (2, 12));
        assert!(message.contains("not a regular expression"), "{message}");

        let (line, col, message) = error("spawn bash\nkey Enter Entr");
        assert_eq!((line, col), (2, 11));
        assert!(message.contains("\"Entr\" is not a key name"), "{message}");

        let (line, col, message) = error("spawn bash\nwait idle 5 s");
        assert_eq!((line, col), (2, 13));
        assert!(message.contains("one argument only"), "{message}");

        let (_, col, message) = error("spawn bash\ntimeout 5x");
        assert_eq!(col, 9);
        assert!(message.contains("a duration such as"), "{message}");

        let (_, col, message) = error("spawn bash\nexpect exit");
        assert_eq!(col, 8);
        assert!(message.contains("wait exit waits"), "{message}");

        let (_, col, message) = error("spawn bash\nexpect cursor 1;2");
        assert_eq!(col, 15);
        assert!(message.contains("ROW,COL"), "{message}");

        let (_, col, message) = error("spawn bash\ntype \"a\"b");
        assert_eq!(col, 9);
        assert!(
            message.contains("a space after the closing quote"),
            "{message}"
        );
    }

    #[test]
    fn the_program_comes_first_and_once() {
        let (line, col, message) = error("# first\n type \"x\"\nspawn sh");
        assert_eq!((line, col), (2, 2));
        assert!(message.contains("put spawn COMMAND before it"), "{message}");

        let (line, _, message) = error("spawn sh\nsize 10x10");
        assert_eq!(line, 2);
        assert!(message.contains("use resize"), "{message}");

        let (line, _, message) = error("spawn sh\nspawn sh");
        assert_eq!(line, 2);
        assert!(message.contains("a second spawn"), "{message}");

        let (line, col, message) = error("# nothing\ntimeout 1s\n");
        assert_eq!((line, col), (2, 1));
        assert!(message.contains("no spawn"), "{message}");

        let (_, col, message) = error("size 0x10\nspawn sh");
        assert_eq!(col, 6);
        assert!(message.contains("COLSxROWS"), "{message}");
    }
}
