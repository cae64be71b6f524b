//! Resizing: the primary buffer is re-wrapped to the new width (soft-wrapped lines join and
//! split again, the cursor stays on its character); the alternate buffer is cut or padded.

use std::collections::VecDeque;

use crate::cell::Cell;
use crate::row::Row;
use crate::screen::{default_tabs, Screen, MAX_COLS, MAX_ROWS, MIN_COLS, MIN_ROWS};
use crate::scrollback::Scrollback;

impl Screen {
    /// Resizes to `cols` x `rows` (clamped to at least 1x1), reflowing the primary buffer.
    pub fn resize(&mut self, cols: usize, rows: usize) {
        let cols = cols.clamp(MIN_COLS, MAX_COLS);
        let rows = rows.clamp(MIN_ROWS, MAX_ROWS);
        if cols == self.cols && rows == self.rows {
            return;
        }
        let old_cols = self.cols;
        self.seq += 1;
        // Cells move: a mark after a backspace from a pending wrap joins as usual again.
        if self.mark_on_cursor.take().is_some() {
            self.update_plain_print();
        }
        if self.alt_active {
            let (row, col) = self.saved[0]
                .as_ref()
                .map_or((0, 0), |s| (s.cursor.row, s.cursor.col));
            let primary = std::mem::take(&mut self.other);
            let (grid, pos) = reflow(
                primary,
                &mut self.scrollback,
                old_cols,
                cols,
                rows,
                (row, col),
            );
            self.other = grid;
            if let Some(saved) = self.saved[0].as_mut() {
                (saved.cursor.row, saved.cursor.col) = pos;
                saved.cursor.pending_wrap = false;
            }
            cut_to_size(&mut self.grid, cols, rows);
            self.cursor.row = self.cursor.row.min(rows - 1);
            self.cursor.col = self.cursor.col.min(cols - 1);
        } else {
            let grid = std::mem::take(&mut self.grid);
            let pos = (self.cursor.row, self.cursor.col);
            let (grid, pos) = reflow(grid, &mut self.scrollback, old_cols, cols, rows, pos);
            self.grid = grid;
            (self.cursor.row, self.cursor.col) = pos;
            // An alternate buffer never used stays unmade.
            if !self.other.is_empty() {
                cut_to_size(&mut self.other, cols, rows);
            }
            if let Some(saved) = self.saved[1].as_mut() {
                saved.cursor.row = saved.cursor.row.min(rows - 1);
                saved.cursor.col = saved.cursor.col.min(cols - 1);
            }
        }
        if let Some(saved) = self.saved[usize::from(!self.alt_active)].as_mut() {
            saved.cursor.row = saved.cursor.row.min(rows - 1);
            saved.cursor.col = saved.cursor.col.min(cols - 1);
        }
        self.cursor.pending_wrap = false;
        self.cols = cols;
        self.rows = rows;
        self.top = 0;
        self.bottom = rows - 1;
        self.left = 0;
        self.right = cols - 1;
        let mut tabs = default_tabs(cols);
        let keep = old_cols.min(cols);
        tabs[..keep].copy_from_slice(&self.tabs[..keep]);
        self.tabs = tabs;
        self.touch_all();
    }
}

/// Cuts or pads a buffer without reflow (the alternate screen: its program redraws).
fn cut_to_size(grid: &mut VecDeque<Row>, cols: usize, rows: usize) {
    grid.resize_with(rows, || Row::new(cols));
    for row in grid.iter_mut() {
        row.resize(cols);
        row.wrapped = false;
    }
}

/// One logical line: the cells of a chain of soft-wrapped rows.
struct Logical {
    cells: Vec<Cell>,
    /// Offset of the cursor in `cells`, if it is on this line.
    cursor: Option<usize>,
}

/// Re-wraps the primary buffer and its history to `cols`, returning the new visible rows and
/// the cursor position.
fn reflow(
    grid: VecDeque<Row>,
    scrollback: &mut Scrollback,
    old_cols: usize,
    cols: usize,
    rows: usize,
    cursor: (usize, usize),
) -> (VecDeque<Row>, (usize, usize)) {
    let history_len = scrollback.len();
    // Visible rows below both the cursor and the last non-blank row carry nothing.
    let last_used = grid
        .iter()
        .rposition(|r| r.used_len() > 0)
        .unwrap_or(0)
        .max(cursor.0);
    let mut physical: Vec<Row> = (0..history_len)
        .filter_map(|i| scrollback.get(i, old_cols))
        .collect();
    let cursor_abs = physical.len() + cursor.0;
    physical.extend(grid.into_iter().take(last_used + 1));

    let mut lines: Vec<Logical> = Vec::new();
    let mut current = Logical {
        cells: Vec::new(),
        cursor: None,
    };
    for (i, row) in physical.into_iter().enumerate() {
        let wrapped = row.wrapped;
        let mut take = if wrapped { row.len() } else { row.used_len() };
        if i == cursor_abs {
            current.cursor = Some(current.cells.len() + cursor.1);
            take = take.max(cursor.1.min(row.len()));
        }
        if take > 0 {
            let mut cells = row.into_cells();
            cells.truncate(take);
            current.cells.extend(cells);
        }
        if !wrapped {
            lines.push(std::mem::replace(
                &mut current,
                Logical {
                    cells: Vec::new(),
                    cursor: None,
                },
            ));
        }
    }
    if !current.cells.is_empty() || current.cursor.is_some() {
        lines.push(current);
    }

    let mut out: Vec<Row> = Vec::new();
    let mut cursor_at = (0, 0);
    for line in lines {
        let start = out.len();
        let mut row = Row::new(cols);
        let mut col = 0;
        let mut cursor_placed = None;
        let mut i = 0;
        while i < line.cells.len() {
            let cell = &line.cells[i];
            let width = cell.width().max(1);
            if cell.is_spacer() {
                i += 1;
                continue;
            }
            if col + width > cols {
                row.wrapped = true;
                row.mark_unknown();
                out.push(std::mem::replace(&mut row, Row::new(cols)));
                col = 0;
                if width > cols {
                    i += 1;
                    continue;
                }
            }
            if line.cursor == Some(i) {
                cursor_placed = Some((out.len(), col));
            }
            let cells = row.cells_mut();
            cells[col] = cell.clone();
            if width == 2 {
                cells[col + 1] = Cell::spacer(&cell.pen());
                if line.cursor == Some(i + 1) {
                    cursor_placed = Some((out.len(), col + 1));
                }
            }
            col += width;
            i += width;
        }
        row.mark_unknown();
        out.push(row);
        if let Some(offset) = line.cursor {
            cursor_at = cursor_placed.unwrap_or_else(|| {
                // The cursor sat past the line's text: keep its distance from the text's end.
                let past = offset.saturating_sub(line.cells.len());
                let last = out.len() - 1;
                let used = if line.cells.is_empty() { 0 } else { col };
                let c = used + past;
                if c < cols {
                    (last, c)
                } else {
                    (last, cols - 1)
                }
            });
        }
        let _ = start;
    }

    // Show the last `rows` rows, but never push the cursor off the top.
    let top = out.len().saturating_sub(rows).min(cursor_at.0);
    let mut visible = out.split_off(top);
    visible.truncate(rows);
    visible.resize_with(rows, || Row::new(cols));
    let limit = scrollback.limit();
    let oldest = scrollback.first_absolute();
    *scrollback = Scrollback::new(limit);
    scrollback.number_from(oldest);
    for row in &out {
        scrollback.push(row);
    }
    (VecDeque::from(visible), (cursor_at.0 - top, cursor_at.1))
}
