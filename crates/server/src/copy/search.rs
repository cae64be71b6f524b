//! Copy mode's search: every match of a pattern in the history and screen, found in logical
//! lines (soft-wrapped rows joined, so a wrapped URL is found whole).

use super::lines::{Lines, Pos};
use regex::Regex;

/// The most matches counted: past it the count says "N+" (the search still finds the nearest
/// one, and the highlighting is drawn from the view alone).
pub const MAX_MATCHES: usize = 100_000;

/// A match: its first and last cell.
pub type Match = (Pos, Pos);

/// A compiled search pattern.
#[derive(Debug, Clone)]
pub struct Pattern {
    /// As typed.
    pub text: String,
    regex: Regex,
}

impl Pattern {
    /// `text` as a regular expression (`regex`) or as plain text. Lowercase text matches
    /// either case (smart case, as vim's `smartcase` and tmux do). An invalid expression is
    /// searched for as plain text.
    pub fn new(text: &str, regex: bool) -> Option<Pattern> {
        if text.is_empty() {
            return None;
        }
        let insensitive = !text.chars().any(char::is_uppercase);
        // Lines are searched joined by `\n`: `^` and `$` are each line's ends.
        let flags = if insensitive { "(?mi)" } else { "(?m)" };
        let compiled = regex
            .then(|| Regex::new(&format!("{flags}{text}")).ok())
            .flatten()
            .or_else(|| Regex::new(&format!("{flags}{}", regex::escape(text))).ok())?;
        Some(Pattern {
            text: text.to_string(),
            regex: compiled,
        })
    }
}

/// Reused buffers for one logical line's text and, once it matches, where each cell starts.
#[derive(Default)]
struct LogicalLine {
    text: String,
    /// Byte offset where each cell starts (read only for a line that matches).
    starts: Vec<u32>,
    /// Per physical line: the index in `starts` of its first cell, and the line.
    rows: Vec<(usize, u64)>,
}

impl LogicalLine {
    /// Reads the cells' offsets of the logical line `line..end` (after a match).
    fn read_cells(&mut self, lines: &Lines, line: u64, end: u64) {
        self.text.clear();
        self.starts.clear();
        self.rows.clear();
        for at in line..end {
            self.rows.push((self.starts.len(), at));
            lines.text(at, &mut self.text, Some(&mut self.starts));
        }
    }

    /// The first and last cell of the match at bytes `start..end`.
    fn span(&self, start: usize, end: usize) -> Option<Match> {
        let cell_of = |byte: usize| {
            let i = self
                .starts
                .partition_point(|&s| s as usize <= byte)
                .checked_sub(1)?;
            let row = self
                .rows
                .partition_point(|&(first, _)| first <= i)
                .checked_sub(1)?;
            let (first, line) = self.rows[row];
            Some(Pos::new(line, i - first))
        };
        let first = cell_of(start)?;
        let last = cell_of(end.saturating_sub(1).max(start))?;
        Some((first, last))
    }
}

/// How much text one regular-expression pass covers: whole logical lines are gathered up to
/// about this many bytes, searched at once (the expression's literal scan runs at memory speed
/// over a long text, where a call per line costs more than the scan), then dropped, so a search
/// of any history holds this much at a time.
const CHUNK_BYTES: usize = 4 << 20;

/// Every match of `pattern` in lines `from..=to` (widened to whole logical lines), in order;
/// the bool says the count stopped at `limit`. A match never spans a hard line end: it is cut
/// at the first one.
pub fn find(
    lines: &Lines,
    pattern: &Pattern,
    from: u64,
    to: u64,
    limit: usize,
) -> (Vec<Match>, bool) {
    let mut found = Vec::new();
    let mut chunk = String::new();
    // Per logical line in the chunk: its first byte and its first and end lines.
    let mut index: Vec<(usize, u64, u64)> = Vec::new();
    let mut cells = LogicalLine::default();
    let mut line = lines.logical_start(from.max(lines.first()));
    let to = to.min(lines.last());
    while line <= to {
        chunk.clear();
        index.clear();
        while line <= to && chunk.len() < CHUNK_BYTES {
            let start = chunk.len();
            let mut at = line;
            loop {
                let wrapped = lines.text(at, &mut chunk, None);
                at += 1;
                if !wrapped || at > lines.last() {
                    break;
                }
            }
            chunk.push('\n');
            index.push((start, line, at));
            line = at;
        }
        let mut read = None;
        for m in pattern.regex.find_iter(&chunk) {
            let end = chunk[m.start()..m.end()]
                .find('\n')
                .map_or(m.end(), |n| m.start() + n);
            if end == m.start() {
                continue;
            }
            if found.len() == limit {
                return (found, true);
            }
            let i = index.partition_point(|&(s, _, _)| s <= m.start()) - 1;
            let (base, first, past) = index[i];
            if read != Some(i) {
                cells.read_cells(lines, first, past);
                read = Some(i);
            }
            if let Some(span) = cells.span(m.start() - base, end - base) {
                found.push(span);
            }
        }
    }
    (found, false)
}

/// The match to go to from `cursor`: the first starting after it (`forward`) or the last
/// starting before it; past the ends, round to the other end with `wrap` (tmux's
/// `wrap-search`), else none.
pub fn nearest(matches: &[Match], cursor: Pos, forward: bool, wrap: bool) -> Option<usize> {
    if matches.is_empty() {
        return None;
    }
    if forward {
        let i = matches.partition_point(|(s, _)| *s <= cursor);
        match (i == matches.len(), wrap) {
            (false, _) => Some(i),
            (true, true) => Some(0),
            (true, false) => None,
        }
    } else {
        let i = matches.partition_point(|(s, _)| *s < cursor);
        match (i == 0, wrap) {
            (false, _) => Some(i - 1),
            (true, true) => Some(matches.len() - 1),
            (true, false) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_screen_model::Screen;

    fn screen(text: &str, cols: usize, rows: usize) -> Screen {
        let mut s = Screen::with_scrollback(cols, rows, 1000);
        s.feed(text.replace('\n', "\r\n").as_bytes());
        s
    }

    #[test]
    fn a_match_across_a_soft_wrap_is_found_whole() {
        let s = screen("see https://example.com/a/long/path ok\nnext\n", 12, 3);
        let lines = Lines::new(&s);
        let pattern = Pattern::new("example.com/a/long", false).unwrap();
        let (found, capped) = find(&lines, &pattern, lines.first(), lines.last(), 10);
        assert!(!capped);
        assert_eq!(found.len(), 1, "{found:?}");
        let (start, end) = found[0];
        assert_ne!(start.line, end.line, "the match spans two rows");
        assert_eq!(start.col, "see https://".len() % 12);
    }

    #[test]
    fn smart_case_and_regex_fallback() {
        let s = screen("Alpha alpha ALPHA (x\n", 30, 2);
        let lines = Lines::new(&s);
        let all = |p: &str, re| {
            let pattern = Pattern::new(p, re).unwrap();
            find(&lines, &pattern, lines.first(), lines.last(), 10)
                .0
                .len()
        };
        assert_eq!(all("alpha", false), 3);
        assert_eq!(all("Alpha", false), 1);
        assert_eq!(all("a.p", true), 3);
        assert_eq!(all("(x", true), 1, "an invalid expression is plain text");
    }

    #[test]
    fn nearest_wraps_around() {
        let m = |l, c| (Pos::new(l, c), Pos::new(l, c + 1));
        let matches = [m(1, 0), m(5, 3), m(9, 2)];
        assert_eq!(nearest(&matches, Pos::new(5, 3), true, true), Some(2));
        assert_eq!(nearest(&matches, Pos::new(9, 2), true, true), Some(0));
        assert_eq!(nearest(&matches, Pos::new(5, 3), false, true), Some(0));
        assert_eq!(nearest(&matches, Pos::new(1, 0), false, true), Some(2));
        // wrap-search off: nothing past the ends.
        assert_eq!(nearest(&matches, Pos::new(9, 2), true, false), None);
        assert_eq!(nearest(&matches, Pos::new(1, 0), false, false), None);
        assert_eq!(nearest(&matches, Pos::new(5, 3), true, false), Some(2));
    }
}
