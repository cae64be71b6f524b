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
#[derive(Default)]
struct Logical {
    cells: Vec<Cell>,
    /// Offset of the cursor in `cells`, if it is on this line.
    cursor: Option<usize>,
}

/// Where re-wrapped rows go, oldest first: the new history, and the rows that may still be
/// visible. Rows go on to the history as soon as enough newer ones follow them, so a reflow
/// holds one logical line and a screenful of rows at a time, never the whole history decoded
/// (a million lines of history decoded at once took 1.9 GB).
struct RowSink {
    history: Scrollback,
    /// Rows not yet known to be history.
    tail: VecDeque<Row>,
    rows: usize,
    /// The cursor's row in `tail` and column, once its line was re-wrapped.
    cursor_at: Option<(usize, usize)>,
}

impl RowSink {
    fn push(&mut self, row: Row) {
        self.tail.push_back(row);
        // Before the cursor's line, the last `rows` rows are all that may stay visible.
        if self.cursor_at.is_none() && self.tail.len() > self.rows {
            if let Some(old) = self.tail.pop_front() {
                self.history.push(&old);
            }
        }
    }

    /// Re-wraps `line` to `cols` into rows.
    fn push_line(&mut self, line: &Logical, cols: usize) {
        let mut row = Row::new(cols);
        let mut col = 0;
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
                self.push(std::mem::replace(&mut row, Row::new(cols)));
                col = 0;
                if width > cols {
                    i += 1;
                    continue;
                }
            }
            // Placed as soon as its row is known: from then on nothing leaves the tail, so
            // the index stays true.
            if line.cursor == Some(i) {
                self.cursor_at = Some((self.tail.len(), col));
            }
            let cells = row.cells_mut();
            cells[col] = cell.clone();
            if width == 2 {
                cells[col + 1] = Cell::spacer(&cell.pen());
                if line.cursor == Some(i + 1) {
                    self.cursor_at = Some((self.tail.len(), col + 1));
                }
            }
            col += width;
            i += width;
        }
        row.mark_unknown();
        if let Some(offset) = line.cursor.filter(|_| self.cursor_at.is_none()) {
            // The cursor sat past the line's text: keep its distance from the text's end, on
            // the line's last row (about to be pushed).
            let past = offset.saturating_sub(line.cells.len());
            let used = if line.cells.is_empty() { 0 } else { col };
            self.cursor_at = Some((self.tail.len(), (used + past).min(cols - 1)));
        }
        self.push(row);
    }
}

/// Re-wraps the primary buffer and its history to `cols`, returning the new visible rows and
/// the cursor position. Streams: one history line is decoded at a time.
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
    let mut history = Scrollback::new(scrollback.limit());
    history.number_from(scrollback.first_absolute());
    let mut sink = RowSink {
        history,
        tail: VecDeque::with_capacity(rows + 1),
        rows,
        cursor_at: None,
    };
    let mut current = Logical::default();
    // The history, its cells decoded straight onto the logical line (the cursor is never
    // there). A stored line is trimmed; one that wraps had its full width.
    for i in 0..history_len {
        let start = current.cells.len();
        let Some(wrapped) = scrollback.append_cells(i, &mut current.cells) else {
            continue;
        };
        if wrapped {
            current.cells.resize(start + old_cols, Cell::BLANK);
        } else {
            sink.push_line(&current, cols);
            current.cells.clear();
        }
    }
    for (r, row) in grid.into_iter().take(last_used + 1).enumerate() {
        let wrapped = row.wrapped;
        let mut take = if wrapped { row.len() } else { row.used_len() };
        if r == cursor.0 {
            current.cursor = Some(current.cells.len() + cursor.1);
            take = take.max(cursor.1.min(row.len()));
        }
        if take > 0 {
            current.cells.extend_from_slice(&row.cells()[..take]);
        }
        if !wrapped {
            sink.push_line(&current, cols);
            current.cells.clear();
            current.cursor = None;
        }
    }
    if !current.cells.is_empty() || current.cursor.is_some() {
        sink.push_line(&current, cols);
    }
    let RowSink {
        mut history,
        mut tail,
        cursor_at,
        ..
    } = sink;
    let cursor_at = cursor_at.unwrap_or((tail.len().saturating_sub(1), 0));
    // Show the last `rows` rows, but never push the cursor off the top.
    let top = tail.len().saturating_sub(rows).min(cursor_at.0);
    for row in tail.drain(..top) {
        history.push(&row);
    }
    tail.truncate(rows);
    tail.resize_with(rows, || Row::new(cols));
    *scrollback = history;
    (tail, (cursor_at.0 - top, cursor_at.1))
}
