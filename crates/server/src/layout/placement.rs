//! Where a menu or a popup goes (`display-menu`/`display-popup -x/-y`), as tmux places them:
//! `-x` is its left column and `-y` the row its bottom is on, each a cell number or a letter:
//! `C` the centre, `P` the pane's left or bottom, `R` the pane's right, `M` at the mouse (its
//! top border on the mouse's row), `W` at the window's tab in the status line, `S` next to the
//! status line; the centre where the mouse or the tab is not known. It is then kept inside the
//! session.

use super::Rect;

/// What a box is placed around, in session cells.
#[derive(Clone, Copy, Debug)]
pub struct Around {
    /// The session's width, status line included.
    pub cols: u16,
    /// Its height.
    pub rows: u16,
    /// The pane it is opened over.
    pub pane: Rect,
    /// Where the mouse event that opened it was.
    pub mouse: Option<(u16, u16)>,
    /// The status line's row, when shown.
    pub status_row: Option<u16>,
    /// The first column of the pane's window's tab in the status line, when shown.
    pub window_tab: Option<u16>,
}

/// The top-left cell of a box `size` (border included) for `command`'s `-x` and `-y`, or why
/// it cannot be placed.
pub fn place(
    command: &str,
    x: Option<&str>,
    y: Option<&str>,
    size: (u16, u16),
    around: &Around,
) -> Result<(u16, u16), String> {
    let (w, h) = (i64::from(size.0), i64::from(size.1));
    let (cols, rows) = (i64::from(around.cols), i64::from(around.rows));
    let pane = around.pane;
    let (mouse_x, mouse_y) = around.mouse.map_or((None, None), |(c, r)| {
        (Some(i64::from(c)), Some(i64::from(r)))
    });
    let centre_x = ((cols - 1) / 2 - w / 2).max(0);
    let left = match x.unwrap_or("C") {
        "C" | "L" => centre_x,
        "R" => (i64::from(pane.col) + i64::from(pane.cols) - w).max(0),
        "P" => i64::from(pane.col),
        "M" => mouse_x.map_or(centre_x, |m| (m - w / 2).max(0)),
        "W" => around.window_tab.map_or(centre_x, i64::from),
        n => number(command, n, "-x", "C, R, P, M or W")?,
    };
    let left = if left + w >= cols {
        cols - w
    } else {
        left.max(0)
    };
    let centre_y = {
        let c = (rows - 1) / 2 + h / 2;
        if c >= rows {
            rows - h
        } else {
            c
        }
    };
    // The row next to the status line: below it at the top, the status row at the bottom.
    let by_status = match around.status_row {
        Some(0) => 1 + h,
        Some(row) => i64::from(row),
        None => rows,
    };
    let bottom = match y.unwrap_or("C") {
        "C" | "L" => centre_y,
        "P" => i64::from(pane.row) + i64::from(pane.rows),
        "M" => mouse_y.map_or(centre_y, |m| (m + h).min(rows - 1)),
        "S" => by_status,
        "W" if around.window_tab.is_some() => by_status,
        "W" => centre_y,
        n => number(command, n, "-y", "C, P, M, S or W")?,
    };
    let top = if bottom < h { 0 } else { bottom - h };
    let top = if top + h >= rows { rows - h } else { top };
    let cell = |v: i64| u16::try_from(v.max(0)).unwrap_or(0);
    Ok((cell(left), cell(top)))
}

/// A position given as a number of cells.
fn number(command: &str, value: &str, flag: &str, letters: &str) -> Result<i64, String> {
    value.trim().parse::<i64>().map_err(|_| {
        format!("{command} {flag} takes a cell number or one of {letters}, not {value:?}")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn around() -> Around {
        Around {
            cols: 80,
            rows: 24,
            pane: Rect::new(40, 0, 40, 23),
            mouse: Some((50, 10)),
            status_row: Some(23),
            window_tab: Some(5),
        }
    }

    #[test]
    fn menus_go_where_tmux_puts_them() {
        let size = (20, 8);
        let a = around();
        assert_eq!(
            place("display-menu", None, None, size, &a),
            Ok((29, 7)),
            "centred"
        );
        // At the mouse: centred on its column, the top border on its row.
        assert_eq!(
            place("display-menu", Some("M"), Some("M"), size, &a),
            Ok((40, 10))
        );
        // At the pane's bottom left: kept inside the session.
        assert_eq!(
            place("display-menu", Some("P"), Some("P"), size, &a),
            Ok((40, 15))
        );
        // At the window's tab, just above a status line at the bottom.
        assert_eq!(
            place("display-menu", Some("W"), Some("W"), size, &a),
            Ok((5, 15))
        );
        let top = Around {
            status_row: Some(0),
            ..a
        };
        assert_eq!(
            place("display-menu", Some("W"), Some("S"), size, &top),
            Ok((5, 1))
        );
        // Too far right or down: moved back in.
        assert_eq!(
            place("display-menu", Some("75"), Some("100"), size, &a),
            Ok((60, 16))
        );
        assert!(place("display-menu", Some("left"), None, size, &a).is_err());
    }
}
