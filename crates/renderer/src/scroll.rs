//! Finding where a new frame is the shown one moved up (a log growing, a pager's next line),
//! so the terminal scrolls those rows itself (a few bytes) instead of being sent every moved
//! row again. Whole rows are compared, so a region is found only where the whole width moved:
//! one full-width pane, or every pane on those rows at once.

use crate::frame::Frame;

/// The fewest rows a scroll must keep to be worth its bytes (a scroll region, a move and a
/// line feed per row, about 20 bytes): below this, drawing the rows again costs as little.
const MIN_KEPT_ROWS: usize = 2;

/// Rows `top..=bottom` of the shown frame, moved up by `by`: rows `top + by..=bottom` of what
/// is shown are rows `top..=bottom - by` of the new frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Scroll {
    pub top: usize,
    pub bottom: usize,
    pub by: usize,
}

/// The scroll that turns `shown` into most of `frame`, if any: anchored at the first changed
/// row (which must have some text, so blank rows never anchor), at the smallest distance that
/// row moved up, over every following row that moved the same way. Only for frames with more
/// changed rows than a scroll would keep, so an echo's frame never searches.
pub(crate) fn find(frame: &Frame, shown: &Frame) -> Option<Scroll> {
    let rows = frame.rows();
    if frame.dirty_rows() <= MIN_KEPT_ROWS || shown.rows() != rows {
        return None;
    }
    let top = (0..rows).find(|&r| frame.is_dirty(r) && frame.row(r) != shown.row(r))?;
    if frame.is_blank_row(top) {
        return None;
    }
    let anchor = frame.row(top);
    let by = (1..rows - top)
        .take_while(|by| rows - top - by >= MIN_KEPT_ROWS)
        .find(|&by| shown.row(top + by) == anchor)?;
    let kept = (top..rows - by)
        .take_while(|&r| frame.row(r) == shown.row(r + by))
        .count();
    if kept < MIN_KEPT_ROWS {
        return None;
    }
    let mut bottom = top + kept + by - 1;
    // Rows below that are blank in the new frame are blank once scrolled too: taking them in
    // makes a scroll of the whole screen (a log above a blank line with the cursor on it),
    // which needs no scroll region at all.
    if (bottom + 1..rows).all(|r| frame.is_blank_row(r)) {
        bottom = rows - 1;
    }
    Some(Scroll { top, bottom, by })
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_screen_model::{Cell, CellFlags, Pen};

    fn frame(lines: &[&str], cols: usize) -> Frame {
        let mut f = Frame::new(cols, lines.len());
        for (r, line) in lines.iter().enumerate() {
            let cells: Vec<Cell> = line
                .chars()
                .map(|ch| Cell::new(ch, &Pen::default(), CellFlags::empty()))
                .collect();
            f.put(r, 0, &cells);
        }
        f
    }

    #[test]
    fn a_log_line_added_above_a_status_line_is_a_scroll_of_the_rows_above_it() {
        let shown = frame(&["a", "b", "c", "d", "status"], 8);
        let new = frame(&["b", "c", "d", "e", "status"], 8);
        assert_eq!(
            find(&new, &shown),
            Some(Scroll {
                top: 0,
                bottom: 3,
                by: 1
            })
        );
    }

    #[test]
    fn a_lower_pane_scrolling_by_two_is_found_below_the_rows_that_stayed() {
        let shown = frame(&["top", "----", "a", "b", "c", "d", "e"], 8);
        let new = frame(&["top", "----", "c", "d", "e", "f", "g"], 8);
        assert_eq!(
            find(&new, &shown),
            Some(Scroll {
                top: 2,
                bottom: 6,
                by: 2
            })
        );
    }

    #[test]
    fn blank_rows_under_a_log_make_it_a_scroll_of_the_whole_screen() {
        let shown = frame(&["a", "b", "c", "d", ""], 8);
        let new = frame(&["b", "c", "d", "e", ""], 8);
        assert_eq!(
            find(&new, &shown),
            Some(Scroll {
                top: 0,
                bottom: 4,
                by: 1
            })
        );
    }

    #[test]
    fn unrelated_changes_and_blank_rows_are_no_scroll() {
        let shown = frame(&["a", "b", "c", "d"], 8);
        assert_eq!(find(&frame(&["x", "y", "z", "w"], 8), &shown), None);
        // Only blank rows would match: nothing to anchor on.
        let shown = frame(&["a", "", "", ""], 8);
        assert_eq!(find(&frame(&["", "", "", "q"], 8), &shown), None);
        // One row kept is not worth a scroll.
        let shown = frame(&["a", "b", "c", "d"], 8);
        assert_eq!(find(&frame(&["c", "x", "y", "z"], 8), &shown), None);
    }
}
