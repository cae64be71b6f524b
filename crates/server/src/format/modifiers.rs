//! The modifiers before a format's `:` (`#{=/10/...;b:pane_current_path}`): parsed into
//! [`Modifier`]s, and the pure transformations they make (matching, arithmetic, padding,
//! quoting, truncating, substituting).

use super::Loop;

/// A comparison of two expanded strings (`#{==:a,b}`) or their truth (`#{||:a,b}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Compare {
    Equal,
    NotEqual,
    Less,
    Greater,
    LessEqual,
    GreaterEqual,
    Or,
    And,
}

/// An arithmetic operator of `#{e|op|:a,b}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Arith {
    Add,
    Subtract,
    Multiply,
    Divide,
    Modulus,
    Equal,
    NotEqual,
    Less,
    Greater,
    LessEqual,
    GreaterEqual,
}

/// One modifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Modifier {
    /// `l:` the argument as written.
    Literal,
    /// `b:` the last part of a path.
    Basename,
    /// `d:` all but the last part of a path.
    Dirname,
    /// `n:` the value's length in characters.
    Length,
    /// `E:` the value expanded again as a format.
    Expand,
    /// `T:` as `E:`, then `strftime`.
    ExpandTime,
    /// `t:` a time in seconds since the epoch, as a date.
    Time,
    /// `q:` escaped for the shell.
    Quote,
    /// `S:`, `W:`, `P:` a loop.
    Loop(Loop),
    /// `==:`, `||:`, ... over two expanded arguments.
    Compare(Compare),
    /// `m:` (fnmatch) or `m/r:` (regular expression), `i` ignoring case.
    Match { regex: bool, ignore_case: bool },
    /// `e|op|f|N:` arithmetic, as a float with `N` decimals (2 unless given) with `f`.
    Expression { op: Arith, decimals: Option<usize> },
    /// `=N:` or `=/N/marker:` the first (or, negative, last) `N` characters, the marker
    /// added where something was cut.
    Truncate { keep: i64, marker: String },
    /// `pN:` padded with spaces to `N` characters (on the left when negative).
    Pad(i64),
    /// `s/pattern/replacement/flags:` with `\1` backreferences.
    Substitute {
        pattern: String,
        replacement: String,
        ignore_case: bool,
    },
}

/// The widest padding or truncation taken: a bound on the work and memory one modifier asks.
const MAX_WIDTH: i64 = 4096;

/// A directive's modifiers and its argument, or `None` when `body` has no modifiers (a plain
/// variable name, or text that is not a modifier list).
pub(super) fn parse(body: &str) -> Option<(Vec<Modifier>, &str)> {
    let mut mods = Vec::new();
    let mut rest = body;
    loop {
        let end = token_end(rest)?;
        mods.push(one(&rest[..end])?);
        match rest.as_bytes()[end] {
            b':' => return Some((mods, &rest[end + 1..])),
            _ => rest = &rest[end + 1..],
        }
    }
}

/// Where the modifier at the start of `s` ends: the first `:` or `;` outside `#{...}`.
fn token_end(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, b) in s.bytes().enumerate() {
        match b {
            b'{' => depth += 1,
            b'}' => depth = depth.checked_sub(1)?,
            b':' | b';' if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// One modifier's text (`b`, `=/5/...`, `e|+|`).
fn one(token: &str) -> Option<Modifier> {
    let compare = match token {
        "==" => Some(Compare::Equal),
        "!=" => Some(Compare::NotEqual),
        "<" => Some(Compare::Less),
        ">" => Some(Compare::Greater),
        "<=" => Some(Compare::LessEqual),
        ">=" => Some(Compare::GreaterEqual),
        "||" => Some(Compare::Or),
        "&&" => Some(Compare::And),
        _ => None,
    };
    if let Some(c) = compare {
        return Some(Modifier::Compare(c));
    }
    let mut chars = token.chars();
    let c = chars.next()?;
    let rest = chars.as_str();
    if rest.is_empty() {
        return Some(match c {
            'l' => Modifier::Literal,
            'b' => Modifier::Basename,
            'd' => Modifier::Dirname,
            'n' => Modifier::Length,
            'E' => Modifier::Expand,
            'T' => Modifier::ExpandTime,
            't' => Modifier::Time,
            'q' => Modifier::Quote,
            'S' => Modifier::Loop(Loop::Sessions),
            'W' => Modifier::Loop(Loop::Windows),
            'P' => Modifier::Loop(Loop::Panes),
            'm' => Modifier::Match {
                regex: false,
                ignore_case: false,
            },
            _ => return None,
        });
    }
    // `=5`, `p-10`: a number straight after the letter.
    if matches!(c, '=' | 'p') {
        if let Ok(n) = rest.parse::<i64>() {
            let n = n.clamp(-MAX_WIDTH, MAX_WIDTH);
            return Some(if c == 'p' {
                Modifier::Pad(n)
            } else {
                Modifier::Truncate {
                    keep: n,
                    marker: String::new(),
                }
            });
        }
    }
    // Otherwise arguments after a separator: `s/a/b/`, `e|+|`, `=/5/...`.
    let mut sep_chars = rest.chars();
    let sep = sep_chars.next()?;
    if sep.is_alphanumeric() {
        return None;
    }
    let args: Vec<&str> = sep_chars.as_str().split(sep).collect();
    let arg = |i: usize| args.get(i).copied().unwrap_or("");
    Some(match c {
        's' => Modifier::Substitute {
            pattern: arg(0).to_string(),
            replacement: arg(1).to_string(),
            ignore_case: arg(2).contains('i'),
        },
        'm' => Modifier::Match {
            regex: arg(0).contains('r'),
            ignore_case: arg(0).contains('i'),
        },
        'e' => {
            let op = match arg(0) {
                "+" => Arith::Add,
                "-" => Arith::Subtract,
                "*" => Arith::Multiply,
                "/" => Arith::Divide,
                "%" | "m" => Arith::Modulus,
                "==" => Arith::Equal,
                "!=" => Arith::NotEqual,
                "<" => Arith::Less,
                ">" => Arith::Greater,
                "<=" => Arith::LessEqual,
                ">=" => Arith::GreaterEqual,
                _ => return None,
            };
            let decimals = arg(1)
                .contains('f')
                .then(|| arg(2).parse::<usize>().map_or(2, |n| n.min(MAX_DECIMALS)));
            Modifier::Expression { op, decimals }
        }
        '=' => Modifier::Truncate {
            keep: arg(0).parse::<i64>().ok()?.clamp(-MAX_WIDTH, MAX_WIDTH),
            marker: arg(1).to_string(),
        },
        'p' => Modifier::Pad(arg(0).parse::<i64>().ok()?.clamp(-MAX_WIDTH, MAX_WIDTH)),
        't' => Modifier::Time,
        'q' => Modifier::Quote,
        _ => return None,
    })
}

/// The most decimals `e|op|f|N:` prints.
const MAX_DECIMALS: usize = 64;

/// Whether `text` matches the shell pattern `pattern` (`*`, `?`, `[a-z]`, `[!x]`), as
/// fnmatch(3) without flags.
pub(crate) fn fnmatch(pattern: &str, text: &str, ignore_case: bool) -> bool {
    let fold = |s: &str| -> Vec<char> {
        if ignore_case {
            s.chars().flat_map(char::to_lowercase).collect()
        } else {
            s.chars().collect()
        }
    };
    let (p, t) = (fold(pattern), fold(text));
    let (mut pi, mut ti) = (0, 0);
    // Where the last `*` was, and the text position it is trying to cover up to.
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        let step = match p.get(pi) {
            Some('*') => {
                star = Some((pi, ti));
                pi += 1;
                continue;
            }
            Some('?') => Some(pi + 1),
            Some('[') => class(&p, pi, t[ti]),
            Some('\\') if pi + 1 < p.len() => (p[pi + 1] == t[ti]).then_some(pi + 2),
            Some(&c) => (c == t[ti]).then_some(pi + 1),
            None => None,
        };
        match (step, star) {
            (Some(next), _) => {
                pi = next;
                ti += 1;
            }
            (None, Some((sp, st))) => {
                pi = sp + 1;
                ti = st + 1;
                star = Some((sp, st + 1));
            }
            (None, None) => return false,
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// Whether `c` is in the bracket class starting at `p[at]` (`[`): where the pattern goes on
/// after it, or `None` when it does not match (an unclosed `[` matches itself).
fn class(p: &[char], at: usize, c: char) -> Option<usize> {
    let mut i = at + 1;
    let negate = matches!(p.get(i), Some('!' | '^'));
    if negate {
        i += 1;
    }
    let start = i;
    let mut found = false;
    while i < p.len() && (p[i] != ']' || i == start) {
        if i + 2 < p.len() && p[i + 1] == '-' && p[i + 2] != ']' {
            found |= p[i] <= c && c <= p[i + 2];
            i += 3;
        } else {
            found |= p[i] == c;
            i += 1;
        }
    }
    if i >= p.len() {
        return (c == '[').then_some(at + 1);
    }
    (found != negate).then_some(i + 1)
}

/// `#{e|op|:a,b}`: the result as tmux prints it (whole numbers without `f`), or nothing when
/// an argument is not a number or the division is by zero.
pub(super) fn arithmetic(op: Arith, decimals: Option<usize>, a: &str, b: &str) -> String {
    let (Ok(x), Ok(y)) = (a.trim().parse::<f64>(), b.trim().parse::<f64>()) else {
        return String::new();
    };
    let truth = |t: bool| if t { 1.0 } else { 0.0 };
    let result = match op {
        Arith::Add => x + y,
        Arith::Subtract => x - y,
        Arith::Multiply => x * y,
        Arith::Divide | Arith::Modulus if y == 0.0 => return String::new(),
        Arith::Divide => x / y,
        Arith::Modulus => x % y,
        Arith::Equal => truth((x - y).abs() < 1e-9),
        Arith::NotEqual => truth((x - y).abs() >= 1e-9),
        Arith::Less => truth(x < y),
        Arith::Greater => truth(x > y),
        Arith::LessEqual => truth(x <= y),
        Arith::GreaterEqual => truth(x >= y),
    };
    if !result.is_finite() {
        return String::new();
    }
    match decimals {
        Some(n) => format!("{result:.n$}"),
        None => format!("{}", result.trunc() as i64),
    }
}

/// `text` padded with spaces to `width` characters, on the right (or, negative, the left).
pub(super) fn pad(text: String, width: i64) -> String {
    let len = text.chars().count();
    let want = width.unsigned_abs() as usize;
    if len >= want {
        return text;
    }
    let spaces = " ".repeat(want - len);
    if width >= 0 {
        text + &spaces
    } else {
        spaces + &text
    }
}

/// The first (or, negative, last) `keep` characters of `text`, with `marker` where it was cut.
pub(super) fn truncate(text: String, keep: i64, marker: &str) -> String {
    let len = text.chars().count();
    let n = keep.unsigned_abs() as usize;
    if len <= n {
        return text;
    }
    if keep >= 0 {
        text.chars().take(n).collect::<String>() + marker
    } else {
        let kept: String = text.chars().skip(len - n).collect();
        marker.to_string() + &kept
    }
}

/// `text` with the shell's special characters escaped by a backslash (tmux's `q:`).
pub(super) fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "|&;<>()$`\\\"'*?[# =%".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `s/pattern/replacement/`: every match replaced, `\1` in the replacement standing for the
/// first group (as tmux's `regsub`); the text as it was when the pattern is not valid.
pub(super) fn substitute(
    text: &str,
    pattern: &str,
    replacement: &str,
    ignore_case: bool,
) -> String {
    let built = regex::RegexBuilder::new(pattern)
        .case_insensitive(ignore_case)
        .size_limit(1 << 20)
        .build();
    let Ok(re) = built else {
        return text.to_string();
    };
    // `\N` becomes the regex crate's `${N}`; a literal `$` is `$$` there.
    let mut repl = String::with_capacity(replacement.len());
    let mut chars = replacement.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '$' => repl.push_str("$$"),
            '\\' => match chars.peek() {
                Some(d) if d.is_ascii_digit() => {
                    repl.push_str(&format!("${{{d}}}"));
                    chars.next();
                }
                _ => repl.push('\\'),
            },
            _ => repl.push(c),
        }
    }
    re.replace_all(text, repl.as_str()).into_owned()
}

/// Whether `text` matches `pattern` (`m:`): a shell pattern, or with `regex` a regular
/// expression found anywhere in it.
pub(super) fn matches(pattern: &str, text: &str, regex: bool, ignore_case: bool) -> bool {
    if !regex {
        return fnmatch(pattern, text, ignore_case);
    }
    regex::RegexBuilder::new(pattern)
        .case_insensitive(ignore_case)
        .size_limit(1 << 20)
        .build()
        .is_ok_and(|re| re.is_match(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_patterns() {
        for (p, t, want) in [
            ("*a*", "banana", true),
            ("*x*", "banana", false),
            ("b?n*", "banana", true),
            ("[a-c]anana", "banana", true),
            ("[!b]anana", "banana", false),
            ("*", "", true),
            ("a*b*c", "axxbyyc", true),
            ("a*b*c", "axxbyy", false),
            ("[unclosed", "[unclosed", true),
            ("\\*", "*", true),
        ] {
            assert_eq!(fnmatch(p, t, false), want, "{p} ~ {t}");
        }
        assert!(fnmatch("B*", "banana", true));
    }

    #[test]
    fn modifier_lists() {
        assert_eq!(
            parse("=/5/...;b:x"),
            Some((
                vec![
                    Modifier::Truncate {
                        keep: 5,
                        marker: "...".into()
                    },
                    Modifier::Basename
                ],
                "x"
            ))
        );
        assert_eq!(parse("session_name"), None);
        assert_eq!(parse("zz:x"), None);
        assert_eq!(
            parse("p99999:x").map(|p| p.0),
            Some(vec![Modifier::Pad(4096)])
        );
    }
}
