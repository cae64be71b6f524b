//! What a pane in copy mode shows: the lines of the view with the selection and search matches
//! highlighted, the position indicator at the top right, and the copy cursor.

use super::lines::{Lines, Pos};
use super::search::{self, MAX_MATCHES};
use super::select::Span;
use super::CopyMode;
use weft_screen_model::pane_colours::PaneColours;
use weft_screen_model::{Cell, CellFlags, Color, Pen};

/// The colours copy mode draws with, each a foreground and a background.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CopyStyles {
    /// The selection and the position indicator (`mode-style`).
    pub mode: (Color, Color),
    /// Every match in view (`copy-mode-match-style`).
    pub matched: (Color, Color),
    /// The match the cursor went to (`copy-mode-current-match-style`).
    pub current: (Color, Color),
    /// The line of the mark (`set-mark`; `copy-mode-mark-style`).
    pub mark: (Color, Color),
}

/// tmux's defaults: black on yellow, on cyan, on magenta, on red.
pub const COPY_STYLES: CopyStyles = CopyStyles {
    mode: (Color::Indexed(0), Color::Indexed(3)),
    matched: (Color::Indexed(0), Color::Indexed(6)),
    current: (Color::Indexed(0), Color::Indexed(5)),
    mark: (Color::Indexed(0), Color::Indexed(1)),
};

/// The view: rows of cells and the cursor's row and column in it.
pub struct Rendered {
    /// One per screen row, as wide as the screen.
    pub rows: Vec<Vec<Cell>>,
    /// The copy cursor, when it is in view.
    pub cursor: Option<(usize, usize)>,
}

/// Draws `mode`'s view of `lines`, the program's cells in `colours` (its palette, see
/// [`PaneColours`]) and copy mode's own highlights over them as they are, as tmux keeps its
/// mode styles out of the pane's palette.
pub fn render(mode: &CopyMode, lines: &Lines, colours: Option<&PaneColours>) -> Rendered {
    let (rows, cols) = (lines.rows().max(1), lines.cols().max(1));
    let bottom = mode.top + rows as u64 - 1;
    let span = mode
        .selection
        .as_ref()
        .map(|s| Span::new(s, mode.cursor, mode.vi));
    // Matches in view, found again from the view's own lines (output may have moved them
    // since the search ran).
    let visible: Vec<search::Match> = mode
        .search
        .as_ref()
        .map(|s| search::find(lines, &s.pattern, mode.top, bottom, MAX_MATCHES).0)
        .unwrap_or_default();
    let current = mode
        .search
        .as_ref()
        .and_then(|s| s.current.and_then(|i| s.matches.get(i)).copied());
    let mut out = Vec::with_capacity(rows);
    for r in 0..rows {
        let line = mode.top + r as u64;
        let mut cells = lines.cells(line);
        cells.resize(cols, Cell::BLANK);
        if let Some(colours) = colours {
            cells.iter_mut().for_each(|c| colours.recolour(c));
        }
        // The mark's line first: matches and the selection show over it.
        if mode.mark.is_some_and(|m| m.line == line) {
            paint(&mut cells, 0, cols - 1, mode.styles.mark);
        }
        for m in visible
            .iter()
            .filter(|(s, e)| s.line <= line && e.line >= line)
        {
            let style = if Some(*m) == current {
                mode.styles.current
            } else {
                mode.styles.matched
            };
            let from = if m.0.line == line { m.0.col } else { 0 };
            let to = if m.1.line == line { m.1.col } else { cols - 1 };
            paint(&mut cells, from, to, style);
        }
        if let Some(span) = &span {
            for (col, cell) in cells.iter_mut().enumerate() {
                if span.contains(line, col) {
                    cell.set_colors(mode.styles.mode.0, mode.styles.mode.1);
                }
            }
        }
        out.push(cells);
    }
    indicator(mode, lines, &mut out);
    let cursor = (mode.cursor.line >= mode.top && mode.cursor.line <= bottom)
        .then(|| ((mode.cursor.line - mode.top) as usize, mode.cursor.col));
    Rendered { rows: out, cursor }
}

fn paint(cells: &mut [Cell], from: usize, to: usize, (fg, bg): (Color, Color)) {
    for cell in cells.iter_mut().take(to + 1).skip(from) {
        cell.set_colors(fg, bg);
    }
}

/// `[offset/history]` at the top right, after the search's `(n/total)` when one is in force.
fn indicator(mode: &CopyMode, lines: &Lines, rows: &mut [Vec<Cell>]) {
    let mut text = String::new();
    if let Some(search) = &mode.search {
        let total = search.matches.len();
        let plus = if search.capped { "+" } else { "" };
        match search.current {
            Some(i) if total > 0 => text.push_str(&format!("({}/{total}{plus}) ", i + 1)),
            _ => text.push_str("(no match) "),
        }
    }
    if !mode.hide_position {
        text.push_str(&format!("[{}/{}]", mode.offset(lines), lines.history_len()));
    }
    let Some(first) = rows.first_mut().filter(|_| !text.is_empty()) else {
        return;
    };
    let len = text.chars().count();
    if len > first.len() {
        return;
    }
    let pen = Pen {
        fg: mode.styles.mode.0,
        bg: mode.styles.mode.1,
        ..Pen::default()
    };
    let start = first.len() - len;
    // A wide character cut in half by the indicator would leave a stray half.
    if start > 0 && first[start].is_spacer() {
        first[start - 1] = Cell::BLANK;
    }
    for (i, ch) in text.chars().enumerate() {
        first[start + i] = Cell::new(ch, &pen, CellFlags::empty());
    }
}

/// The cell a click at view row `row`, column `col` lands on.
pub fn position_at(mode: &CopyMode, lines: &Lines, row: usize, col: usize) -> Pos {
    Pos::new(
        lines.clamp(mode.top + row as u64),
        col.min(lines.cols().saturating_sub(1)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_screen_model::Screen;

    fn top_row(mode: &CopyMode, screen: &Screen) -> String {
        let lines = Lines::new(screen);
        render(mode, &lines, None).rows[0]
            .iter()
            .map(|c| c.ch())
            .collect::<String>()
    }

    #[test]
    fn the_position_shows_at_the_top_right_unless_hidden() {
        let mut s = Screen::with_scrollback(30, 4, 10);
        s.feed(b"one\r\ntwo");
        let mut mode = CopyMode::enter(&s, true, false);
        assert!(top_row(&mode, &s).trim_end().ends_with("[0/0]"));
        mode.hide_position = true;
        assert_eq!(top_row(&mode, &s).trim_end(), "one");
    }

    #[test]
    fn the_marks_line_shows_in_the_mark_style() {
        let mut s = Screen::with_scrollback(10, 3, 10);
        s.feed(b"one\r\ntwo");
        let mut mode = CopyMode::enter(&s, true, false);
        mode.hide_position = true;
        let lines = Lines::new(&s);
        let bg = |mode: &CopyMode, row: usize| render(mode, &lines, None).rows[row][5].pen().bg;
        assert_eq!(bg(&mode, 1), Color::Default);
        mode.mark = Some(Pos::new(mode.top + 1, 0));
        assert_eq!(
            bg(&mode, 1),
            COPY_STYLES.mark.1,
            "the whole line, past its text"
        );
        assert_eq!(bg(&mode, 0), Color::Default);
    }

    /// The pane's colours reach the program's cells; copy mode's own highlights keep theirs,
    /// as tmux keeps its mode styles out of the pane's palette.
    #[test]
    fn the_panes_colours_stay_off_copy_modes_highlights() {
        let mut s = Screen::with_scrollback(10, 3, 10);
        s.feed(b"\x1b[31mred\x1b[0m\r\ntwo");
        let mut mode = CopyMode::enter(&s, true, false);
        mode.hide_position = true;
        mode.mark = Some(Pos::new(mode.top + 1, 0));
        let mut colours = PaneColours::new();
        let themed = Color::Rgb(weft_screen_model::Rgb::new(1, 2, 3));
        colours.set_entry(1, Some(themed));
        if let Color::Indexed(i) = COPY_STYLES.mark.1 {
            colours.set_entry(i, Some(themed));
        }
        let lines = Lines::new(&s);
        let rows = render(&mode, &lines, Some(&colours)).rows;
        assert_eq!(rows[0][0].fg(), themed, "the program's red");
        assert_eq!(rows[1][5].bg(), COPY_STYLES.mark.1, "the mark's line");
    }
}
