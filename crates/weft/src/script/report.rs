//! What a failing script shows: the screen with row numbers and the cursor, and a snapshot's
//! differences from the screen row by row.

use std::fmt::Write;

/// The screen as the server captured it, with its size and cursor (from 0).
#[derive(Debug, Clone, Default)]
pub struct Screen {
    /// The rows' text, trailing blanks trimmed.
    pub text: String,
    /// Columns and rows.
    pub size: (usize, usize),
    /// Cursor row and column, from 0.
    pub cursor: (usize, usize),
}

impl Screen {
    /// The screen with each row numbered (from 0), the cursor's row marked with `>` and a `^`
    /// under its column.
    pub fn numbered(&self) -> String {
        let (cols, rows) = self.size;
        let (crow, ccol) = self.cursor;
        let mut out =
            format!("screen {cols}x{rows}, cursor at row {crow}, column {ccol} (from 0):\n");
        let lines: Vec<&str> = self.text.lines().collect();
        let shown = rows.max(lines.len()).max(crow + 1);
        let width = shown.saturating_sub(1).to_string().len();
        for row in 0..shown {
            let line = lines.get(row).copied().unwrap_or("");
            let mark = if row == crow { '>' } else { ' ' };
            let _ = writeln!(out, "{mark}{row:>width$} |{line}");
            if row == crow {
                let _ = writeln!(out, " {:>width$} |{}^", "", " ".repeat(ccol));
            }
        }
        out
    }
}

/// The rows where `expected` (a snapshot file) and `actual` (the screen) differ, as `-` and
/// `+` lines numbered by row (from 0); empty when they are the same.
pub fn row_diff(expected: &str, actual: &str) -> String {
    let old: Vec<&str> = expected.lines().collect();
    let new: Vec<&str> = actual.lines().collect();
    let rows = old.len().max(new.len());
    let width = rows.saturating_sub(1).to_string().len();
    let mut out = String::new();
    for row in 0..rows {
        let (a, b) = (old.get(row), new.get(row));
        if a == b {
            continue;
        }
        if let Some(a) = a {
            let _ = writeln!(out, "-{row:>width$} |{a}");
        }
        if let Some(b) = b {
            let _ = writeln!(out, "+{row:>width$} |{b}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cursor_row_is_marked_and_trimmed_rows_shown() {
        let screen = Screen {
            text: "$ ls\nfile\n".into(),
            size: (10, 4),
            cursor: (2, 3),
        };
        assert_eq!(
            screen.numbered(),
            "screen 10x4, cursor at row 2, column 3 (from 0):\n 0 |$ ls\n 1 |file\n>2 |\n   |   ^\n 3 |\n"
        );
    }

    #[test]
    fn only_differing_rows_are_shown() {
        assert_eq!(row_diff("a\nb\nc\n", "a\nb\nc\n"), "");
        assert_eq!(row_diff("a\nb\n", "a\nx\ny\n"), "-1 |b\n+1 |x\n+2 |y\n");
    }
}
