//! A row of narrow ASCII held as text and style runs instead of cells.
//!
//! Lines that scroll through the screen within one chunk are built this way (see `bulk`): the
//! scrollback stores them straight from the runs, and the few that stay on screen are written
//! into grid rows in one pass.

use crate::cell::{Cell, CellStyle};
use crate::row::Row;

/// A row of narrow ASCII without extras, as printing it from column 0 would leave it: the cells
/// after the text keep `fill`, the style the row was cleared with when it scrolled in (xterm's
/// background colour erase).
#[derive(Debug)]
pub(crate) struct AsciiRow {
    text: Vec<u8>,
    /// Consecutive cells of one style, in order: the style and the cell count. Neighbours
    /// differ.
    runs: Vec<(CellStyle, usize)>,
    fill: CellStyle,
}

impl Default for AsciiRow {
    fn default() -> Self {
        AsciiRow {
            text: Vec::new(),
            runs: Vec::new(),
            fill: Cell::BLANK.style_only(),
        }
    }
}

impl AsciiRow {
    /// Empties the row for the next line, whose unprinted cells show `fill`.
    pub(crate) fn start(&mut self, fill: CellStyle) {
        self.text.clear();
        self.runs.clear();
        self.fill = fill;
    }

    /// Cells printed so far.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.text.len()
    }

    /// The printed characters.
    pub(crate) fn text(&self) -> &[u8] {
        &self.text
    }

    /// The printed cells' styles: each style and how many cells in a row have it.
    pub(crate) fn runs(&self) -> &[(CellStyle, usize)] {
        &self.runs
    }

    /// The style of the cells after the text.
    pub(crate) fn fill(&self) -> CellStyle {
        self.fill
    }

    /// Appends printable ASCII in `style`.
    #[inline]
    pub(crate) fn push(&mut self, style: CellStyle, text: &[u8]) {
        match self.runs.last_mut() {
            Some((last, cells)) if *last == style => *cells += text.len(),
            _ => self.runs.push((style, text.len())),
        }
        self.text.extend_from_slice(text);
    }

    /// Cells up to the last one that is not blank (what [`Row::used_len`] counts), when the
    /// row is `cols` wide.
    pub(crate) fn used_len(&self, cols: usize) -> usize {
        let blank = Cell::BLANK.style_only();
        if self.fill != blank && self.text.len() < cols {
            return cols;
        }
        let mut end = self.text.len();
        for &(style, cells) in self.runs.iter().rev() {
            let start = end - cells;
            if style != blank {
                return end;
            }
            if let Some(last) = self.text[start..end].iter().rposition(|&b| b != b' ') {
                return start + last + 1;
            }
            end = start;
        }
        0
    }

    /// Makes `row` the grid row this describes, with the content flags printing would have
    /// left (see [`Row`]).
    pub(crate) fn write_to(&self, row: &mut Row, wrapped: bool) {
        let mut at = 0;
        // Cells from here on are blank already: a default fill need not write them again (a
        // flood through a 1000-column pane wrote a whole row's cells for each short line).
        let blank_from = row.written;
        let row_cells = row.cells_mut();
        for &(style, cells) in &self.runs {
            let end = (at + cells).min(row_cells.len());
            for (cell, &b) in row_cells[at..end].iter_mut().zip(&self.text[at..end]) {
                *cell = Cell::narrow(char::from(b), style);
            }
            at = end;
        }
        let blank = Cell::BLANK.style_only();
        let fill = Cell::narrow(' ', self.fill);
        let fill_to = if self.fill == blank {
            blank_from.clamp(at, row_cells.len())
        } else {
            row_cells.len()
        };
        row_cells[at..fill_to].fill(fill);
        if self.fill == blank {
            let default = self.runs.iter().all(|&(style, _)| style == blank);
            row.written = at;
            row.plain = default;
            row.unstyled = default;
            row.ascii = true;
        } else {
            row.mark_unknown();
        }
        row.wrapped = wrapped;
    }
}
