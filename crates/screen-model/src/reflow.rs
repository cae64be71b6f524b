//! Resizing: the primary buffer is re-wrapped to the new width (soft-wrapped lines join and
//! split again, the cursor stays on its character); the alternate buffer is cut or padded.

use std::collections::VecDeque;

use crate::cell::{Cell, CellFlags, Pen};
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

/// A re-wrapped row not yet known to be history: a row, or the text of a row of plain
/// ASCII re-wrapped from plain history lines without decoding cells.
enum Pending {
    Row(Row),
    Plain { text: Vec<u8>, wrapped: bool },
}

impl Pending {
    fn into_row(self, cols: usize) -> Row {
        match self {
            Pending::Row(row) => row,
            Pending::Plain { text, wrapped } => {
                let mut row = Row::new(cols);
                let pen = Pen::default();
                for (cell, &b) in row.cells_mut().iter_mut().zip(&text) {
                    *cell = Cell::new(char::from(b), &pen, CellFlags::empty());
                }
                row.wrapped = wrapped;
                row.mark_unknown();
                row
            }
        }
    }
}

/// Where re-wrapped rows go, oldest first: the new history, and the rows that may still be
/// visible. Rows go on to the history as soon as enough newer ones follow them, so a reflow
/// holds one logical line and a screenful of rows at a time, never the whole history decoded
/// (a million lines of history decoded at once took 1.9 GB).
struct RowSink {
    history: Scrollback,
    /// Rows not yet known to be history.
    tail: VecDeque<Pending>,
    rows: usize,
    /// The cursor's row in `tail` and column, once its line was re-wrapped.
    cursor_at: Option<(usize, usize)>,
}

impl RowSink {
    /// Before the cursor's line, the last `rows` rows are all that may stay visible: with
    /// that many waiting, the oldest goes on to the history. Returns its text's buffer, for
    /// reuse.
    fn make_room(&mut self) -> Vec<u8> {
        if self.cursor_at.is_some() || self.tail.len() < self.rows {
            return Vec::new();
        }
        match self.tail.pop_front() {
            Some(Pending::Row(row)) => {
                self.history.push(&row);
                Vec::new()
            }
            Some(Pending::Plain { text, wrapped }) => {
                self.history.push_plain(&text, wrapped);
                text
            }
            None => Vec::new(),
        }
    }

    fn push(&mut self, row: Row) {
        self.make_room();
        self.tail.push_back(Pending::Row(row));
    }

    /// Re-wraps a logical line of plain ASCII `text` (default style, narrow) to `cols`: the
    /// same rows [`RowSink::push_line`] makes of its cells, kept as text.
    fn push_plain_line(&mut self, text: &[u8], cols: usize) {
        let rows = text.len().div_ceil(cols).max(1);
        for k in 0..rows {
            let chunk = text.get(k * cols..((k + 1) * cols).min(text.len()));
            let mut buf = self.make_room();
            buf.clear();
            buf.extend_from_slice(chunk.unwrap_or_default());
            self.tail.push_back(Pending::Plain {
                text: buf,
                wrapped: k + 1 < rows,
            });
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
    history.defer_packing(scrollback.is_deferring());
    let mut sink = RowSink {
        history,
        tail: VecDeque::with_capacity(rows + 1),
        rows,
        cursor_at: None,
    };
    let mut current = Logical::default();
    // A logical line made only of plain lines so far, as text: most history (logs, command
    // output) re-wraps without a cell decoded (100,000 log lines: 54 ms to 25 ms).
    let mut plain: Vec<u8> = Vec::new();
    let plain_cell = |b: u8| Cell::new(char::from(b), &Pen::default(), CellFlags::empty());
    // The history, its cells decoded straight onto the logical line (the cursor is never
    // there). A stored line is trimmed; one that wraps had its full width.
    for i in 0..history_len {
        if current.cells.is_empty() {
            let start = plain.len();
            match scrollback.append_plain(i, &mut plain) {
                Some(true) => {
                    plain.resize(start + old_cols, b' ');
                    continue;
                }
                Some(false) => {
                    sink.push_plain_line(&plain, cols);
                    plain.clear();
                    continue;
                }
                None => current.cells.extend(plain.drain(..).map(plain_cell)),
            }
        }
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
    current.cells.extend(plain.drain(..).map(plain_cell));
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
    for pending in tail.drain(..top) {
        match pending {
            Pending::Row(row) => history.push(&row),
            Pending::Plain { text, wrapped } => history.push_plain(&text, wrapped),
        }
    }
    let mut grid: VecDeque<Row> = tail
        .into_iter()
        .take(rows)
        .map(|p| p.into_row(cols))
        .collect();
    grid.resize_with(rows, || Row::new(cols));
    *scrollback = history;
    (grid, (cursor_at.0 - top, cursor_at.1))
}
