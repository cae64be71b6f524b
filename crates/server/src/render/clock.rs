//! `clock-mode`: the time in big digits over the active pane, as tmux draws it; the digit
//! glyphs are `display-panes`' too.

use crate::layout::Rect;
use weft_renderer::Frame;
use weft_screen_model::{Cell, CellFlags, Pen};

/// Digits 0-9, five rows of three cells each (`#` is drawn).
pub const DIGIT_GLYPHS: [[&str; 5]; 10] = [
    ["###", "# #", "# #", "# #", "###"],
    [" # ", "## ", " # ", " # ", "###"],
    ["###", "  #", "###", "#  ", "###"],
    ["###", "  #", "###", "  #", "###"],
    ["# #", "# #", "###", "  #", "  #"],
    ["###", "#  ", "###", "  #", "###"],
    ["###", "#  ", "###", "# #", "###"],
    ["###", "  #", "  #", "  #", "  #"],
    ["###", "# #", "###", "# #", "###"],
    ["###", "# #", "###", "  #", "###"],
];

/// The colon between hours and minutes.
const COLON: [&str; 5] = ["   ", " # ", "   ", " # ", "   "];
/// A blank, and the letters of AM and PM (`clock-mode-style 12`).
const SPACE: [&str; 5] = ["   "; 5];
const LETTER_A: [&str; 5] = ["###", "# #", "###", "# #", "# #"];
const LETTER_P: [&str; 5] = ["###", "# #", "###", "#  ", "#  "];
const LETTER_M: [&str; 5] = ["# #", "###", "###", "# #", "# #"];

/// The glyph of `c`, if it has one.
fn glyph(c: char) -> Option<&'static [&'static str; 5]> {
    match c {
        ':' => Some(&COLON),
        ' ' => Some(&SPACE),
        'A' => Some(&LETTER_A),
        'P' => Some(&LETTER_P),
        'M' => Some(&LETTER_M),
        c => c.to_digit(10).map(|d| &DIGIT_GLYPHS[d as usize]),
    }
}

/// Blanks `rect` of `frame` and draws `time` (`14:05`) at its centre in big digits of `pen`;
/// a pane too small for them shows the time as text.
pub fn draw(frame: &mut Frame, rect: Rect, time: &str, pen: &Pen) {
    let (left, top) = (usize::from(rect.col), usize::from(rect.row));
    let (cols, rows) = (usize::from(rect.cols), usize::from(rect.rows));
    for r in top..top + rows {
        frame.blank(r, left, cols);
    }
    let glyphs: Vec<&[&str; 5]> = time.chars().filter_map(glyph).collect();
    let width = (glyphs.len() * 4).saturating_sub(1);
    if width == 0 || cols < width || rows < 5 {
        let cells: Vec<Cell> = time
            .chars()
            .map(|c| Cell::new(c, pen, CellFlags::empty()))
            .collect();
        let at = left + cols.saturating_sub(cells.len()) / 2;
        frame.put(top + rows / 2, at, &cells[..cells.len().min(cols)]);
        return;
    }
    let (x, y) = (left + (cols - width) / 2, top + (rows - 5) / 2);
    for (n, g) in glyphs.iter().enumerate() {
        for (dy, line) in g.iter().enumerate() {
            let cells: Vec<Cell> = line
                .chars()
                .map(|ch| Cell::new(if ch == '#' { '█' } else { ' ' }, pen, CellFlags::empty()))
                .collect();
            frame.put(y + dy, x + n * 4, &cells);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(frame: &Frame, r: usize) -> String {
        frame.row(r).iter().map(|c| c.ch()).collect()
    }

    fn rect(col: u16, row: u16, cols: u16, rows: u16) -> Rect {
        Rect::new(col, row, cols, rows)
    }

    #[test]
    fn the_time_is_centred_in_big_digits_or_as_text_when_small() {
        let mut frame = Frame::new(30, 9);
        draw(&mut frame, rect(5, 1, 21, 7), "12:30", &Pen::default());
        // 5 glyphs of 3 with 1 between: 19 wide, from column 5 + 1.
        assert_eq!(text(&frame, 2).trim_end(), "       █  ███     ███ ███");
        assert_eq!(text(&frame, 3).trim_end(), "      ██    █  █    █ █ █");
        let mut small = Frame::new(10, 3);
        draw(&mut small, rect(0, 0, 10, 3), "12:30", &Pen::default());
        assert_eq!(text(&small, 1).trim_end(), "  12:30");
    }

    #[test]
    fn the_twelve_hour_face_has_a_glyph_for_every_character() {
        for time in [" 1:05 AM", "12:59 PM"] {
            assert!(time.chars().all(|c| glyph(c).is_some()), "{time}");
        }
        let mut frame = Frame::new(40, 7);
        draw(&mut frame, rect(0, 0, 40, 7), " 1:05 PM", &Pen::default());
        // 8 glyphs, 31 wide, from column 4 (a blank first): on the last row, the 1's foot,
        // the 0's and the 5's, then the P's stem and the M's legs.
        assert_eq!(
            text(&frame, 5).trim_end(),
            "        ███     ███ ███     █   █ █"
        );
    }
}
