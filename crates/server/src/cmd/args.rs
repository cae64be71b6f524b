//! Splitting a command line into words, and words into flags and arguments, as tmux does:
//! single-letter flags that may be grouped (`-dh`), values inline or in the next word
//! (`-p30`, `-p 30`), `--` ending the flags, and a few long flags where weft has its own
//! (`--json`, `capture --scrollback N`).

use super::Entry;
use crate::outcome::CommandError;

/// A long flag a command accepts, and the short flag it stands for, if any.
#[derive(Clone, Copy, Debug)]
pub struct Long {
    /// Without the dashes.
    pub name: &'static str,
    /// Takes a value.
    pub value: bool,
    /// The short flag it is another spelling of.
    pub short: Option<char>,
}

impl Long {
    /// A long flag without a value.
    pub const fn switch(name: &'static str) -> Self {
        Long {
            name,
            value: false,
            short: None,
        }
    }

    /// A long flag with a value.
    pub const fn value(name: &'static str) -> Self {
        Long {
            name,
            value: true,
            short: None,
        }
    }

    /// Another spelling of short flag `short`.
    pub const fn alias(name: &'static str, short: char, value: bool) -> Self {
        Long {
            name,
            value,
            short: Some(short),
        }
    }
}

pub use crate::words::tokenize;

/// The flags and arguments of one command, checked against its [`Entry`].
#[derive(Clone, Debug)]
pub struct Args {
    entry: &'static Entry,
    switches: Vec<char>,
    values: Vec<(char, String)>,
    long_switches: Vec<&'static str>,
    long_values: Vec<(&'static str, String)>,
    /// Words that are not flags, in order.
    pub positional: Vec<String>,
}

impl Args {
    /// Reads `words` (after the command name) as `entry`'s flags say.
    pub fn parse(entry: &'static Entry, words: &[String]) -> Result<Args, CommandError> {
        let mut args = Args {
            entry,
            switches: Vec::new(),
            values: Vec::new(),
            long_switches: Vec::new(),
            long_values: Vec::new(),
            positional: Vec::new(),
        };
        let mut i = 0;
        while i < words.len() {
            let word = &words[i];
            i += 1;
            if word == "--" {
                args.positional.extend(words[i..].iter().cloned());
                break;
            }
            if let Some(name) = word.strip_prefix("--") {
                let (name, inline) = match name.split_once('=') {
                    Some((n, v)) => (n, Some(v.to_string())),
                    None => (name, None),
                };
                let long = entry
                    .long
                    .iter()
                    .find(|l| l.name == name)
                    .ok_or_else(|| args.usage(format!("unknown flag --{name}")))?;
                if long.value {
                    let value = match inline {
                        Some(v) => v,
                        None => {
                            let v = words.get(i).cloned();
                            i += 1;
                            v.ok_or_else(|| args.usage(format!("--{name} needs a value")))?
                        }
                    };
                    match long.short {
                        Some(short) => args.values.push((short, value)),
                        None => args.long_values.push((long.name, value)),
                    }
                } else {
                    match long.short {
                        Some(short) => args.switches.push(short),
                        None => args.long_switches.push(long.name),
                    }
                }
                continue;
            }
            // A negative number is an argument, unless the command has that digit as a flag
            // (`command-prompt -1`).
            let is_flags = word.len() > 1
                && word.starts_with('-')
                && !word[1..].starts_with(|c: char| c.is_ascii_digit() && !entry.flags.contains(c));
            if !is_flags {
                // As tmux's getopt: the first argument ends the flags; the rest are arguments.
                args.positional.extend(words[i - 1..].iter().cloned());
                break;
            }
            let chars = word[1..].char_indices();
            for (at, flag) in chars {
                match flag_kind(entry.flags, flag) {
                    None => return Err(args.usage(format!("unknown flag -{flag}"))),
                    Some(false) => args.switches.push(flag),
                    Some(true) => {
                        let inline = &word[1 + at + flag.len_utf8()..];
                        let value = if inline.is_empty() {
                            let v = words.get(i).cloned();
                            i += 1;
                            v.ok_or_else(|| args.usage(format!("-{flag} needs a value")))?
                        } else {
                            inline.to_string()
                        };
                        args.values.push((flag, value));
                        break;
                    }
                }
            }
        }
        Ok(args)
    }

    /// A usage error for this command.
    pub fn usage(&self, message: impl Into<String>) -> CommandError {
        CommandError::Usage {
            command: self.entry.name,
            message: message.into(),
            usage: self.entry.usage,
        }
    }

    /// Whether switch `-flag` was given.
    pub fn has(&self, flag: char) -> bool {
        self.switches.contains(&flag)
    }

    /// The value of `-flag` (the last one given).
    pub fn value(&self, flag: char) -> Option<&str> {
        self.values
            .iter()
            .rev()
            .find(|(f, _)| *f == flag)
            .map(|(_, v)| v.as_str())
    }

    /// How many times switch `-flag` was given (`-EE`: twice).
    pub fn count(&self, flag: char) -> usize {
        self.switches.iter().filter(|f| **f == flag).count()
    }

    /// Every value of `-flag`, in order (`-e A=1 -e B=2`).
    pub fn values(&self, flag: char) -> Vec<String> {
        self.values
            .iter()
            .filter(|(f, _)| *f == flag)
            .map(|(_, v)| v.clone())
            .collect()
    }

    /// Whether long switch `--name` was given.
    pub fn has_long(&self, name: &str) -> bool {
        self.long_switches.contains(&name)
    }

    /// The value of `--name` (the last one given).
    pub fn long_value(&self, name: &str) -> Option<&str> {
        self.long_values
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// `--json`, for commands that list.
    pub fn json(&self) -> bool {
        self.has_long("json")
    }

    /// `-t`.
    pub fn target(&self) -> Option<String> {
        self.value('t').map(str::to_string)
    }

    /// An error unless there are no arguments besides flags.
    pub fn no_arguments(&self) -> Result<(), CommandError> {
        match self.positional.first() {
            Some(extra) => Err(self.usage(format!("unexpected argument {extra:?}"))),
            None => Ok(()),
        }
    }

    /// The number `-flag` gives, within `range`.
    pub fn number<T>(
        &self,
        flag: char,
        range: std::ops::RangeInclusive<T>,
    ) -> Result<Option<T>, CommandError>
    where
        T: std::str::FromStr + PartialOrd + std::fmt::Display,
    {
        let Some(v) = self.value(flag) else {
            return Ok(None);
        };
        parse_number(v, &range)
            .map(Some)
            .ok_or_else(|| self.usage(bad_number(&format!("-{flag}"), v, &range)))
    }
}

/// `v` as a number within `range`.
pub fn parse_number<T>(v: &str, range: &std::ops::RangeInclusive<T>) -> Option<T>
where
    T: std::str::FromStr + PartialOrd,
{
    v.parse::<T>().ok().filter(|n| range.contains(n))
}

/// The message for a number out of range.
pub fn bad_number<T: std::fmt::Display>(
    what: &str,
    v: &str,
    range: &std::ops::RangeInclusive<T>,
) -> String {
    format!(
        "{what} takes a number from {} to {}, not {v:?}",
        range.start(),
        range.end()
    )
}

/// In a getopt template (`"dhp:t:"`): `Some(true)` for a flag that takes a value,
/// `Some(false)` for a switch, `None` for a flag the command does not have.
pub(super) fn flag_kind(template: &str, flag: char) -> Option<bool> {
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        let takes_value = chars.peek() == Some(&':');
        if takes_value {
            chars.next();
        }
        if c == flag {
            return Some(takes_value);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenizes_quotes_and_escapes() {
        assert_eq!(
            tokenize(r#"a "b c" 'd e' f\ g"#).unwrap(),
            vec!["a", "b c", "d e", "f g"]
        );
        assert!(tokenize("\"open").is_err());
    }

    #[test]
    fn reads_a_getopt_template() {
        assert_eq!(flag_kind("dhp:t:", 'd'), Some(false));
        assert_eq!(flag_kind("dhp:t:", 'p'), Some(true));
        assert_eq!(flag_kind("dhp:t:", 't'), Some(true));
        assert_eq!(flag_kind("dhp:t:", 'x'), None);
    }
}
