//! `strftime` conversions in formats (`%H:%M`), as tmux does them to status formats before
//! expanding them and to the value of a `T:` modifier, and how soon their result can change.

/// How soon a format's content can change with time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Clock {
    /// It does not.
    Never,
    /// At the next minute (a clock of hours and minutes, a date).
    Minutes,
    /// Any second (seconds, or a time tmux's `%c` and `%T` show).
    Seconds,
}

/// `template` with its `strftime` conversions (`%H:%M`, `%d-%b-%y`) done for `now`, as tmux
/// does to status formats before expanding them, and how soon the result can change. A `%`
/// that is not a conversion chrono knows stays as written.
pub fn strftime<Tz: chrono::TimeZone>(template: &str, now: &chrono::DateTime<Tz>) -> (String, Clock)
where
    Tz::Offset: std::fmt::Display,
{
    use chrono::format::{Item, StrftimeItems};
    if !template.contains('%') {
        return (template.to_string(), Clock::Never);
    }
    let mut out = String::with_capacity(template.len());
    let mut clock = Clock::Never;
    let mut rest = template;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        // `%`, a flag or `:`/`.` and digits, then the conversion's letter.
        let spec_len = rest
            .char_indices()
            .skip(1)
            .find(|(_, c)| !matches!(c, '-' | '_' | '0'..='9' | '^' | '#' | ':' | '.'))
            .map_or(rest.len(), |(i, c)| i + c.len_utf8());
        let spec = &rest[..spec_len];
        let valid = spec.len() > 1 && !StrftimeItems::new(spec).any(|i| matches!(i, Item::Error));
        if valid {
            use std::fmt::Write;
            let letter = spec.chars().last().unwrap_or('%');
            clock = clock.max(match letter {
                '%' | 'n' | 't' => Clock::Never,
                'S' | 's' | 'T' | 'X' | 'c' | 'r' | '+' | 'f' => Clock::Seconds,
                _ => Clock::Minutes,
            });
            if write!(out, "{}", now.format(spec)).is_err() {
                out.push_str(spec);
            }
        } else {
            out.push_str(spec);
        }
        rest = &rest[spec_len..];
    }
    out.push_str(rest);
    (out, clock)
}
