//! Selections in copy mode and the text they copy.

use super::lines::{Lines, Pos};

/// How a selection spans its ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// From one character to another, through whole lines between.
    Char,
    /// Whole lines.
    Line,
    /// The columns between the ends, on each line between.
    Rect,
}

/// A selection: fixed at `anchor`, the other end at the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    /// Where it began.
    pub anchor: Pos,
    /// Its kind.
    pub kind: Kind,
}

/// The cells a selection covers, from `anchor` to `cursor`: whether (`line`, `col`) is in it.
/// `inclusive`: the cursor's own cell is selected (vi); emacs selects up to it.
pub struct Span {
    start: Pos,
    end: Pos,
    kind: Kind,
    cols: (usize, usize),
}

impl Span {
    /// The span of `selection` with the other end at `cursor`.
    pub fn new(selection: &Selection, cursor: Pos, inclusive: bool) -> Span {
        let (start, mut end) = if selection.anchor <= cursor {
            (selection.anchor, cursor)
        } else {
            (cursor, selection.anchor)
        };
        if !inclusive && selection.kind == Kind::Char && start != end && end.col > 0 {
            // An emacs region: between the two ends, the later one's cell left out.
            end = step_back(end);
        }
        let cols = (
            selection.anchor.col.min(cursor.col),
            selection.anchor.col.max(cursor.col),
        );
        Span {
            start,
            end,
            kind: selection.kind,
            cols,
        }
    }

    /// Whether the cell is selected.
    pub fn contains(&self, line: u64, col: usize) -> bool {
        if line < self.start.line || line > self.end.line {
            return false;
        }
        match self.kind {
            Kind::Line => true,
            Kind::Rect => col >= self.cols.0 && col <= self.cols.1,
            Kind::Char => {
                (line > self.start.line || col >= self.start.col)
                    && (line < self.end.line || col <= self.end.col)
            }
        }
    }

    /// The selected text: soft-wrapped rows joined, hard line ends kept as `\n`, trailing
    /// blanks of each line trimmed, wide characters and combining marks whole. No newline
    /// after the last line, for any kind: pasted into a shell, a copy never runs by itself.
    pub fn text(&self, lines: &Lines) -> String {
        let mut out = String::new();
        for line in self.start.line..=self.end.line {
            let cells = lines.cells(line);
            let (from, to) = match self.kind {
                Kind::Line => (0, cells.len()),
                Kind::Rect => (self.cols.0, self.cols.1 + 1),
                Kind::Char => (
                    if line == self.start.line {
                        self.start.col
                    } else {
                        0
                    },
                    if line == self.end.line {
                        self.end.col + 1
                    } else {
                        cells.len()
                    },
                ),
            };
            // A selection starting on a wide character's right half takes the character.
            let from = if cells.get(from).is_some_and(|c| c.is_spacer()) {
                from.saturating_sub(1)
            } else {
                from
            };
            let mut segment = String::new();
            for cell in cells.iter().take(to.min(cells.len())).skip(from) {
                cell.push_text(&mut segment);
            }
            let joined = self.kind != Kind::Rect && lines.wrapped(line) && line < self.end.line;
            if joined {
                out.push_str(&segment);
            } else {
                out.push_str(segment.trim_end_matches(' '));
                if line < self.end.line {
                    out.push('\n');
                }
            }
        }
        out
    }
}

/// The cell before `pos` on its line (emacs selections stop short of the cursor).
fn step_back(pos: Pos) -> Pos {
    Pos::new(pos.line, pos.col.saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_screen_model::Screen;

    fn screen(text: &str, cols: usize) -> Screen {
        let mut s = Screen::with_scrollback(cols, 4, 100);
        s.feed(text.replace('\n', "\r\n").as_bytes());
        s
    }

    fn copied(s: &Screen, anchor: Pos, cursor: Pos, kind: Kind) -> String {
        let lines = Lines::new(s);
        Span::new(&Selection { anchor, kind }, cursor, true).text(&lines)
    }

    #[test]
    fn each_kind_copies_exactly() {
        let s = screen("one two   \nthree four\nfive six", 10);
        let l = Lines::new(&s).history_end();
        assert_eq!(
            copied(&s, Pos::new(l, 4), Pos::new(l + 1, 4), Kind::Char),
            "two\nthree"
        );
        assert_eq!(
            copied(&s, Pos::new(l + 1, 2), Pos::new(l, 1), Kind::Line),
            "one two\nthree four"
        );
        assert_eq!(
            copied(&s, Pos::new(l, 1), Pos::new(l + 2, 2), Kind::Rect),
            "ne\nhr\niv"
        );
    }

    #[test]
    fn soft_wraps_join_and_wide_characters_stay_whole() {
        let s = screen("abcdefghijKLM\n\u{5b57}x e\u{301}\n", 10);
        let l = Lines::new(&s).history_end();
        assert_eq!(
            copied(&s, Pos::new(l, 0), Pos::new(l + 1, 2), Kind::Char),
            "abcdefghijKLM"
        );
        // From the wide character's right half, through the combining mark.
        assert_eq!(
            copied(&s, Pos::new(l + 2, 1), Pos::new(l + 2, 4), Kind::Char),
            "\u{5b57}x e\u{301}"
        );
    }
}
