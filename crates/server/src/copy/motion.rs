//! Cursor motions of copy mode over [`Lines`]: words, jumps to a character, brackets.

use super::lines::{Lines, Pos};
use weft_screen_model::Cell;

/// What kind of character a cell holds, for word motions.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Class {
    Space,
    Word,
    Punct,
}

/// Characters that end a word besides spaces (tmux's default `word-separators`).
pub const WORD_SEPARATORS: &str = "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~";

/// The class of `cell`; with `big` (W, B, E) anything not a space is a word.
fn class_of(cell: &Cell, big: bool, separators: &str) -> Class {
    let ch = cell.ch();
    if cell.is_spacer() {
        return Class::Word;
    }
    if ch == ' ' || ch == '\t' || ch == '\0' {
        Class::Space
    } else if !big && separators.contains(ch) {
        Class::Punct
    } else {
        Class::Word
    }
}

/// Walks cells line by line without decoding a line twice in a row.
pub(super) struct Walker<'a, 'b> {
    lines: &'a Lines<'b>,
    line: u64,
    cells: Vec<Cell>,
}

impl<'a, 'b> Walker<'a, 'b> {
    pub(super) fn new(lines: &'a Lines<'b>) -> Self {
        Walker {
            lines,
            line: u64::MAX,
            cells: Vec::new(),
        }
    }

    /// The cell at `pos` (blank past the line's end).
    pub(super) fn cell(&mut self, pos: Pos) -> Cell {
        if pos.line != self.line {
            self.cells = self.lines.cells(pos.line);
            self.line = pos.line;
        }
        self.cells.get(pos.col).cloned().unwrap_or(Cell::BLANK)
    }

    fn class(&mut self, pos: Pos, big: bool) -> Class {
        class_of(&self.cell(pos), big, self.lines.separators())
    }
}

/// The position after `pos`, across line ends; `None` at the very end.
pub(super) fn next(lines: &Lines, pos: Pos) -> Option<Pos> {
    if pos.col + 1 < lines.cols() {
        Some(Pos::new(pos.line, pos.col + 1))
    } else if pos.line < lines.last() {
        Some(Pos::new(pos.line + 1, 0))
    } else {
        None
    }
}

/// The position before `pos`, across line starts; `None` at the very start.
pub(super) fn prev(lines: &Lines, pos: Pos) -> Option<Pos> {
    if pos.col > 0 {
        Some(Pos::new(pos.line, pos.col.min(lines.cols()) - 1))
    } else if pos.line > lines.first() {
        Some(Pos::new(pos.line - 1, lines.cols().saturating_sub(1)))
    } else {
        None
    }
}

/// Whether moving from `a` to the next position crosses a hard line end (a boundary between
/// words, as in vi).
fn hard_break(lines: &Lines, a: Pos, b: Pos) -> bool {
    a.line != b.line && !lines.wrapped(a.line)
}

/// `w` / `W`: the start of the next word.
pub fn next_word(lines: &Lines, pos: Pos, big: bool) -> Pos {
    let mut w = Walker::new(lines);
    let start = w.class(pos, big);
    let mut at = pos;
    // Off the current word.
    if start != Class::Space {
        while let Some(n) = next(lines, at) {
            let crossed = hard_break(lines, at, n);
            at = n;
            if crossed || w.class(at, big) != start {
                break;
            }
        }
    }
    // Over spaces.
    while w.class(at, big) == Class::Space {
        match next(lines, at) {
            Some(n) => at = n,
            None => return at,
        }
    }
    at
}

/// `e` / `E`: the end of this or the next word.
pub fn next_word_end(lines: &Lines, pos: Pos, big: bool) -> Pos {
    let mut w = Walker::new(lines);
    let Some(mut at) = next(lines, pos) else {
        return pos;
    };
    while w.class(at, big) == Class::Space {
        match next(lines, at) {
            Some(n) => at = n,
            None => return at,
        }
    }
    let class = w.class(at, big);
    while let Some(n) = next(lines, at) {
        if hard_break(lines, at, n) || w.class(n, big) != class {
            break;
        }
        at = n;
    }
    at
}

/// `b` / `B`: the start of this or the previous word.
pub fn previous_word(lines: &Lines, pos: Pos, big: bool) -> Pos {
    let mut w = Walker::new(lines);
    let Some(mut at) = prev(lines, pos) else {
        return pos;
    };
    while w.class(at, big) == Class::Space {
        match prev(lines, at) {
            Some(p) => at = p,
            None => return at,
        }
    }
    let class = w.class(at, big);
    while let Some(p) = prev(lines, at) {
        if hard_break(lines, p, at) || w.class(p, big) != class {
            break;
        }
        at = p;
    }
    at
}

/// The word around `pos`, first and last cell (for a double click and `select-word`).
pub fn word_around(lines: &Lines, pos: Pos) -> (Pos, Pos) {
    let mut w = Walker::new(lines);
    let class = w.class(pos, false);
    let (mut start, mut end) = (pos, pos);
    while let Some(p) = prev(lines, start) {
        if hard_break(lines, p, start) || w.class(p, false) != class {
            break;
        }
        start = p;
    }
    while let Some(n) = next(lines, end) {
        if hard_break(lines, end, n) || w.class(n, false) != class {
            break;
        }
        end = n;
    }
    (start, end)
}

/// How a jump to a character lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Jump {
    /// `f`: on the next one.
    Forward,
    /// `F`: on the previous one.
    Backward,
    /// `t`: just before the next one.
    ToForward,
    /// `T`: just after the previous one.
    ToBackward,
}

impl Jump {
    /// The jump the other way (`,`).
    pub fn reversed(self) -> Jump {
        match self {
            Jump::Forward => Jump::Backward,
            Jump::Backward => Jump::Forward,
            Jump::ToForward => Jump::ToBackward,
            Jump::ToBackward => Jump::ToForward,
        }
    }
}

/// Jumps within the cursor's line to `target`; `None` when it is not there. `again`: a
/// repeated `t`/`T` skips the character it stands next to.
pub fn jump(lines: &Lines, pos: Pos, kind: Jump, target: char, again: bool) -> Option<Pos> {
    let cells = lines.cells(pos.line);
    let is = |c: usize| cells.get(c).is_some_and(|cell| cell.ch() == target);
    let col = match kind {
        Jump::Forward => (pos.col + 1..cells.len()).find(|&c| is(c))?,
        Jump::ToForward => {
            let from = pos.col + if again { 2 } else { 1 };
            (from..cells.len()).find(|&c| is(c))?.checked_sub(1)?
        }
        Jump::Backward => (0..pos.col).rev().find(|&c| is(c))?,
        Jump::ToBackward => {
            let before = pos.col.saturating_sub(if again { 1 } else { 0 });
            (0..before).rev().find(|&c| is(c))? + 1
        }
    };
    Some(Pos::new(pos.line, col))
}

/// The most lines a bracket match looks through.
const BRACKET_SEARCH_LINES: u64 = 10_000;

/// `%`: the bracket matching the one under the cursor (or the next one on its line).
pub fn matching_bracket(lines: &Lines, pos: Pos) -> Option<Pos> {
    const PAIRS: [(char, char); 3] = [('(', ')'), ('[', ']'), ('{', '}')];
    let cells = lines.cells(pos.line);
    let (col, ch) = (pos.col..cells.len()).find_map(|c| {
        let ch = cells[c].ch();
        PAIRS
            .iter()
            .any(|(o, cl)| *o == ch || *cl == ch)
            .then_some((c, ch))
    })?;
    let start = Pos::new(pos.line, col);
    let (open, close, forward) = PAIRS.iter().find_map(|&(o, c)| {
        if o == ch {
            Some((o, c, true))
        } else if c == ch {
            Some((o, c, false))
        } else {
            None
        }
    })?;
    let mut w = Walker::new(lines);
    let mut depth = 0usize;
    let mut at = start;
    loop {
        let ch = w.cell(at).ch();
        if ch == open {
            depth = if forward {
                depth + 1
            } else {
                depth.checked_sub(1)?
            };
        } else if ch == close {
            depth = if forward {
                depth.checked_sub(1)?
            } else {
                depth + 1
            };
        }
        if depth == 0 {
            return Some(at);
        }
        at = if forward {
            next(lines, at)?
        } else {
            prev(lines, at)?
        };
        if at.line.abs_diff(start.line) > BRACKET_SEARCH_LINES {
            return None;
        }
    }
}

/// `^`: the first character of the line that is not a space.
pub fn first_non_blank(lines: &Lines, line: u64) -> usize {
    lines
        .cells(line)
        .iter()
        .position(|c| c.ch() != ' ')
        .unwrap_or(0)
}
