//! Helpers that read like the domain: a screen built from bytes, rows compared as text.

use weft_screen_model::Screen;

/// A screen of the given size fed with `input`.
pub fn screen(cols: usize, rows: usize, input: &str) -> Screen {
    let mut s = Screen::new(cols, rows);
    s.feed(input.as_bytes());
    s
}

/// Visible rows as text, trailing blank rows kept so positions are clear.
pub fn rows(s: &Screen) -> Vec<String> {
    s.visible_rows().map(|r| r.text()).collect()
}

/// Cursor as (row, col).
pub fn cursor(s: &Screen) -> (usize, usize) {
    let c = s.cursor_state();
    (c.row, c.col)
}

/// Asserts the visible rows equal `expected` (one string per row; missing rows must be blank),
/// printing both screens on failure.
macro_rules! assert_screen {
    ($screen:expr, [$($line:expr),* $(,)?]) => {{
        let actual = $crate::support::rows(&$screen);
        let mut expected: Vec<String> = vec![$($line.to_string()),*];
        expected.resize(actual.len(), String::new());
        if actual != expected {
            panic!(
                "screen differs\n--- expected ---\n{}\n--- actual ---\n{}\n",
                expected.join("\n"),
                actual.join("\n")
            );
        }
    }};
}

/// Checks the invariants every screen must keep whatever it was fed.
pub fn check_invariants(s: &Screen) {
    let c = s.cursor_state();
    assert!(c.row < s.rows(), "cursor row {} out of {}", c.row, s.rows());
    assert!(c.col < s.cols(), "cursor col {} out of {}", c.col, s.cols());
    assert_eq!(s.visible_rows().len(), s.rows());
    for (r, row) in s.visible_rows().enumerate() {
        let cells = row.cells();
        assert_eq!(cells.len(), s.cols(), "row {r} width");
        for (c, cell) in cells.iter().enumerate() {
            if cell.is_wide() {
                assert!(
                    cells.get(c + 1).is_some_and(|n| n.is_spacer()),
                    "wide cell at {r},{c} without its right half"
                );
            }
            if cell.is_spacer() {
                assert!(
                    c > 0 && cells[c - 1].is_wide(),
                    "right half at {r},{c} without its left half"
                );
            }
        }
    }
}
