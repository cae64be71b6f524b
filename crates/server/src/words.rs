//! Splitting a command line into words as tmux does: whitespace separates, quotes group, `\`
//! escapes. Used by the command parser and by configuration files, which also expand `$NAME`,
//! `${NAME}` and a leading `~` outside single quotes, as tmux's parser does.

use crate::outcome::CommandError;

/// Looks up an environment variable for `$NAME` in a configuration line (`None`: unset, which
/// expands to nothing).
pub type Variables<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Splits a command line into words: whitespace separates, quotes group, `\` escapes.
pub fn tokenize(line: &str) -> Result<Vec<String>, CommandError> {
    split(line, None)
}

/// [`tokenize`], also expanding `$NAME` and `${NAME}` from `variables` and a `~` that begins a
/// word to the home directory, except inside single quotes (a configuration file's lines).
pub fn tokenize_expanding(line: &str, variables: Variables) -> Result<Vec<String>, CommandError> {
    split(line, Some(variables))
}

fn split(line: &str, variables: Option<Variables>) -> Result<Vec<String>, CommandError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"') | None, '\\') => {
                // A backslash that ends the line stands for itself: `send-keys C-\` written
                // in double quotes in a binding comes here as `send-keys C-\`.
                match chars.next() {
                    Some(next) => push_escaped(next, &mut chars, &mut word),
                    None => word.push('\\'),
                }
                in_word = true;
            }
            (Some('"') | None, '$') if variables.is_some() => {
                if let Some(lookup) = variables {
                    expand_variable(&mut chars, &mut word, lookup)?;
                }
                in_word = true;
            }
            // Only as a word's first character, as tmux's `~`, `~/x`, `"~/x"`.
            (Some('"') | None, '~') if variables.is_some() && word.is_empty() => {
                match chars.peek() {
                    None | Some('/' | '"' | '\'') => word.push_str(&home()),
                    Some(c) if c.is_whitespace() => word.push_str(&home()),
                    // `~user` is left as written.
                    Some(_) => word.push('~'),
                }
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            // tmux's `{ ... }`: commands as one argument (`if-shell -F X { a } { b }`).
            // Written close (`{kill-pane}`) too, as tmux reads it, unless it is one of
            // tmux's target tokens (`{marked}`, `{last}`) standing as a word.
            (None, '{') if !in_word && !is_target_token(&chars) => {
                let commands = block(&mut chars)?;
                words.push(match variables {
                    Some(lookup) => expand_in_block(&commands, lookup)?,
                    None => commands,
                });
            }
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(CommandError::Syntax(format!(
            "unterminated quote: add the closing {q}"
        )));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// tmux's words for panes and windows that are written in braces (`-t {marked}`).
const TARGET_TOKENS: &[&str] = &[
    "start",
    "end",
    "last",
    "next",
    "previous",
    "mouse",
    "marked",
    "top",
    "bottom",
    "left",
    "right",
    "top-left",
    "top-right",
    "bottom-left",
    "bottom-right",
    "up-of",
    "down-of",
    "left-of",
    "right-of",
    "active",
];

/// After a `{` at a word's start: whether the word is one of [`TARGET_TOKENS`] in braces,
/// ending there (or at a `;` or `\;` that ends the command).
fn is_target_token(chars: &std::iter::Peekable<std::str::Chars>) -> bool {
    let rest = chars.clone().collect::<String>();
    let Some((name, after)) = rest.split_once('}') else {
        return false;
    };
    TARGET_TOKENS.contains(&name)
        && after
            .chars()
            .next()
            .is_none_or(|c| c.is_whitespace() || c == ';' || c == '\\')
}

/// After a `{` that begins a word: the commands up to its matching `}`, as one command line
/// (lines inside become `;` separators; nested blocks and quotes are kept as written, for
/// the command that runs it to split). As in tmux, a `}` ends a word: `{send -X top}` is a
/// block; the braces of a format or a variable (`#{pane_id}`, `${HOME}`) are not the block's.
fn block(chars: &mut std::iter::Peekable<std::str::Chars>) -> Result<String, CommandError> {
    let mut text = String::new();
    let mut lines: Vec<String> = Vec::new();
    let mut depth = 0usize;
    // Open `#{` and `${` outside quotes.
    let mut formats = 0usize;
    let mut quote: Option<char> = None;
    let mut at_word_start = true;
    let mut last = ' ';
    while let Some(c) = chars.next() {
        let before = std::mem::replace(&mut last, c);
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), '\\') | (None, '\\') if quote != Some('\'') => {
                text.push(c);
                if let Some(next) = chars.next() {
                    text.push(next);
                }
                at_word_start = false;
                continue;
            }
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '{') if before == '#' || before == '$' => formats += 1,
            (None, '}') if formats > 0 => formats -= 1,
            // A block inside, kept as written.
            (None, '{') if at_word_start => depth += 1,
            (None, '}') if depth == 0 => {
                if chars
                    .peek()
                    .is_some_and(|c| !c.is_whitespace() && *c != ';' && *c != '}')
                {
                    return Err(CommandError::Syntax("a } must end its word".into()));
                }
                lines.push(text);
                let commands: Vec<&str> = lines
                    .iter()
                    .map(|l| l.trim())
                    .filter(|l| !l.is_empty())
                    .collect();
                return Ok(commands.join(" ; "));
            }
            (None, '}') => depth -= 1,
            (None, '\n') => {
                lines.push(std::mem::take(&mut text));
                at_word_start = true;
                continue;
            }
            _ => {}
        }
        text.push(c);
        at_word_start = quote.is_none() && c.is_whitespace();
    }
    Err(CommandError::Syntax("a { needs its closing }".into()))
}

/// A block's command line with its `$NAME`s expanded where the line's own split would see
/// them (outside single quotes), as tmux expands them while it reads the file; quotes and
/// escapes are kept for that split.
fn expand_in_block(text: &str, lookup: Variables) -> Result<String, CommandError> {
    let mut out = String::with_capacity(text.len());
    let mut quote: Option<char> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '"' | '\'') => quote = Some(c),
            (Some('"') | None, '\\') => {
                out.push(c);
                if let Some(next) = chars.next() {
                    out.push(next);
                }
                continue;
            }
            (Some('"') | None, '$') => {
                let mut value = String::new();
                expand_variable(&mut chars, &mut value, lookup)?;
                // The value stays one piece of text where it lands (its quotes and
                // backslashes are not the block's).
                if quote.is_none() && value != "$" {
                    out.push('"');
                    out.push_str(&value.replace('\\', "\\\\").replace('"', "\\\""));
                    out.push('"');
                } else {
                    out.push_str(&value.replace('\\', "\\\\").replace('"', "\\\""));
                }
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    Ok(out)
}

/// Whether `c` may be in a variable's name (`first`: may begin one), as tmux allows.
fn is_name_char(c: char, first: bool) -> bool {
    c == '_' || c.is_ascii_alphabetic() || (!first && c.is_ascii_digit())
}

/// After a `$`: appends the variable's value (nothing when unset), or the `$` itself when no
/// name follows.
fn expand_variable(
    chars: &mut std::iter::Peekable<std::str::Chars>,
    word: &mut String,
    lookup: Variables,
) -> Result<(), CommandError> {
    let mut name = String::new();
    if chars.peek() == Some(&'{') {
        chars.next();
        loop {
            match chars.next() {
                Some('}') => break,
                Some(c) if is_name_char(c, name.is_empty()) => name.push(c),
                _ => {
                    return Err(CommandError::Syntax(
                        "a ${ needs a variable's name and a closing }".into(),
                    ))
                }
            }
        }
    } else {
        while let Some(&c) = chars.peek() {
            if !is_name_char(c, name.is_empty()) {
                break;
            }
            name.push(c);
            chars.next();
        }
        if name.is_empty() {
            word.push('$');
            return Ok(());
        }
    }
    word.push_str(&lookup(&name).unwrap_or_default());
    Ok(())
}

/// The character `\` `c` stands for, as tmux's parser reads it: `\e` is ESC, `\n`, `\r`,
/// `\t`, `\a`, `\b`, `\f`, `\v` the control characters, `\s` a space, `\033` an octal byte (a
/// run of them one piece of UTF-8: `\342\226\266` is `▶`), `\u2500` and `\U0001f600` a
/// character by its code point (for `user-keys` and `send-keys` written in a configuration
/// file); any other character stands for itself. A malformed octal or code point escape
/// stands for its characters, without the backslash.
fn push_escaped(c: char, chars: &mut std::iter::Peekable<std::str::Chars>, word: &mut String) {
    let control = match c {
        'e' => Some('\x1b'),
        'n' => Some('\n'),
        'r' => Some('\r'),
        't' => Some('\t'),
        'a' => Some('\x07'),
        'b' => Some('\x08'),
        'f' => Some('\x0c'),
        'v' => Some('\x0b'),
        's' => Some(' '),
        _ => None,
    };
    if let Some(control) = control {
        word.push(control);
        return;
    }
    match c {
        '0'..='3' => match octal_byte(c, chars) {
            Some(first) => {
                // Bytes, as tmux appends them: a run of octal escapes is one piece of UTF-8.
                let mut bytes = vec![first];
                loop {
                    let mut ahead = chars.clone();
                    let next = match (ahead.next(), ahead.next()) {
                        (Some('\\'), Some(d @ '0'..='3')) => octal_byte(d, &mut ahead),
                        _ => None,
                    };
                    match next {
                        Some(b) => {
                            bytes.push(b);
                            *chars = ahead;
                        }
                        None => break,
                    }
                }
                word.push_str(&String::from_utf8_lossy(&bytes));
            }
            None => word.push(c),
        },
        'u' | 'U' => {
            let digits = if c == 'u' { 4 } else { 8 };
            let mut taken = String::new();
            while taken.len() < digits {
                match chars.peek() {
                    Some(d) if d.is_ascii_hexdigit() => {
                        taken.push(*d);
                        chars.next();
                    }
                    _ => break,
                }
            }
            let code = u32::from_str_radix(&taken, 16).ok();
            match code
                .filter(|_| taken.len() == digits)
                .and_then(char::from_u32)
            {
                Some(ch) => word.push(ch),
                None => {
                    word.push(c);
                    word.push_str(&taken);
                }
            }
        }
        _ => word.push(c),
    }
}

/// The byte of an octal escape whose first digit is `first` and whose two others follow in
/// `chars` (taken only when both are there).
fn octal_byte(first: char, chars: &mut std::iter::Peekable<std::str::Chars>) -> Option<u8> {
    let mut ahead = chars.clone();
    let (a, b) = (ahead.next()?, ahead.next()?);
    let digit = |d: char| d.to_digit(8);
    let value = digit(first)? * 64 + digit(a)? * 8 + digit(b)?;
    *chars = ahead;
    u8::try_from(value).ok()
}

/// The home directory a `~` stands for: `$HOME`.
fn home() -> String {
    std::env::var("HOME").unwrap_or_default()
}

/// `NAME=value` as a configuration line's only word sets an environment variable, as in tmux:
/// the name and the value, when `word` is one.
pub fn assignment(word: &str) -> Option<(&str, &str)> {
    let (name, value) = word.split_once('=')?;
    let mut chars = name.chars();
    let first = chars.next()?;
    (is_name_char(first, true) && chars.all(|c| is_name_char(c, false))).then_some((name, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expanded(line: &str) -> Vec<String> {
        let vars = |name: &str| match name {
            "color" => Some("red".to_string()),
            "is_vim" => Some("ps -o comm= | grep -q vim".to_string()),
            _ => None,
        };
        tokenize_expanding(line, &vars).unwrap()
    }

    #[test]
    fn variables_expand_outside_single_quotes() {
        assert_eq!(expanded("set -g s fg=$color"), ["set", "-g", "s", "fg=red"]);
        assert_eq!(
            expanded("x \"${color}ish\" '$color'"),
            ["x", "redish", "$color"]
        );
        assert_eq!(
            expanded("if \"$is_vim\" y"),
            ["if", "ps -o comm= | grep -q vim", "y"]
        );
        assert_eq!(expanded("a$unset-b \\$color"), ["a-b", "$color"]);
        assert_eq!(expanded("grep 'x$' $ $1"), ["grep", "x$", "$", "$1"]);
        assert!(tokenize_expanding("x ${color", &|_| None).is_err());
        // Without expansion (commands typed at the prompt) a `$` is kept.
        assert_eq!(tokenize("fg=$color").unwrap(), ["fg=$color"]);
    }

    #[test]
    fn backslash_escapes_read_as_tmux_reads_them() {
        assert_eq!(
            tokenize(r#"set -s user-keys[0] "\e[5;30012~" x\ty"#).unwrap(),
            ["set", "-s", "user-keys[0]", "\x1b[5;30012~", "x\ty"]
        );
        assert_eq!(
            tokenize(r#""\033[1m" \u2500 "\U0001f600" a\sb "\342\226\266!""#).unwrap(),
            ["\x1b[1m", "─", "😀", "a b", "▶!"]
        );
        // Anything else stands for itself; single quotes keep the backslash.
        assert_eq!(
            tokenize(r#"\; \" \\ '\e' \9 \u12 C-\"#).unwrap(),
            [";", "\"", "\\", "\\e", "9", "u12", "C-\\"]
        );
    }

    #[test]
    fn a_leading_tilde_is_home() {
        let home = home();
        assert_eq!(
            expanded("source ~/a.conf"),
            ["source", &format!("{home}/a.conf")]
        );
        assert_eq!(
            expanded("x \"~/b\" ~ a~b '~/c'"),
            [
                "x".to_string(),
                format!("{home}/b"),
                home.clone(),
                "a~b".into(),
                "~/c".into()
            ]
        );
        assert_eq!(expanded("~root"), ["~root"]);
    }

    #[test]
    fn braces_hold_commands_as_one_word() {
        let words = tokenize("if -F '#{pane_at_left}' {} { select-pane -L }").unwrap();
        assert_eq!(words, ["if", "-F", "#{pane_at_left}", "", "select-pane -L"]);
        let words = tokenize(
            "bind x if-shell \"$v\" {\n  send-keys C-h\n  display 'a }'\n} { if -F 1 { a } }",
        )
        .unwrap();
        assert_eq!(
            words,
            [
                "bind",
                "x",
                "if-shell",
                "$v",
                "send-keys C-h ; display 'a }'",
                "if -F 1 { a }"
            ]
        );
        let words = tokenize("if 1 { if 2 {} { a } } {}").unwrap();
        assert_eq!(words, ["if", "1", "if 2 {} { a }", ""]);
        assert!(tokenize("x { a").is_err());
        // In a file, variables in a block expand as it is read, quoted as one word there.
        let vars = |name: &str| (name == "v").then(|| "ps -t x | grep \"vim\"".to_string());
        let words = tokenize_expanding("if 1 { run $v } { display \"[$v]\" '$v' }", &vars);
        assert_eq!(
            words.unwrap(),
            [
                "if",
                "1",
                "run \"ps -t x | grep \\\"vim\\\"\"",
                "display \"[ps -t x | grep \\\"vim\\\"]\" '$v'"
            ]
        );
        // A backslash at the very end is itself (the key `C-\`).
        assert_eq!(tokenize("send-keys C-\\").unwrap(), ["send-keys", "C-\\"]);
        // Not a block: inside a word, or quoted.
        assert_eq!(tokenize("a{ '{' x{}").unwrap(), ["a{", "{", "x{}"]);
    }

    #[test]
    fn braces_written_close_are_blocks_as_in_tmux() {
        let words = tokenize("menu Kill X {kill-pane} Top '<' {send -X history-top}").unwrap();
        assert_eq!(
            words,
            [
                "menu",
                "Kill",
                "X",
                "kill-pane",
                "Top",
                "<",
                "send -X history-top"
            ]
        );
        // A format's or a variable's braces are not the block's; nested close blocks end
        // together.
        let words = tokenize("if 1 {display #{pane_id} ${HOME}} {if 2 {a}}").unwrap();
        assert_eq!(words, ["if", "1", "display #{pane_id} ${HOME}", "if 2 {a}"]);
        // tmux's target tokens stay words.
        assert_eq!(
            tokenize("select-pane -t {marked}").unwrap(),
            ["select-pane", "-t", "{marked}"]
        );
        assert_eq!(
            tokenize(r"bind x select-pane -t {marked}\; resize-pane -Z").unwrap(),
            [
                "bind",
                "x",
                "select-pane",
                "-t",
                "{marked};",
                "resize-pane",
                "-Z"
            ]
        );
    }

    #[test]
    fn assignments_need_a_name() {
        assert_eq!(assignment("is_vim=ps -o x"), Some(("is_vim", "ps -o x")));
        assert_eq!(assignment("A_1="), Some(("A_1", "")));
        assert_eq!(assignment("1A=x"), None);
        assert_eq!(assignment("-g=x"), None);
        assert_eq!(assignment("=x"), None);
        assert_eq!(assignment("set"), None);
    }
}
