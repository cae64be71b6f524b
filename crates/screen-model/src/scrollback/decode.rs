//! Stored bytes back to cells, at any width.

use super::format::{
    read_color, read_varint, ESCAPE_CELL, FLAG_WRAPPED, MASK_ATTRS, MASK_BG, MASK_EXTRA, MASK_FG,
    RUN_IN_HEADER,
};
use crate::cell::{Attrs, Cell, CellExtra, CellFlags, Pen};
use crate::row::Row;
use crate::width::char_width;
use std::sync::Arc;

/// A stored line as a row of `cols` cells (cut or padded).
pub(super) fn decode_line(bytes: &[u8], extras: &[Arc<CellExtra>], cols: usize) -> Row {
    let mut cells = Vec::with_capacity(cols);
    let wrapped = decode_cells(bytes, extras, &mut cells).unwrap_or(false);
    cells.resize(cols.max(cells.len()), Cell::BLANK);
    cells.truncate(cols);
    let mut row = Row::from_cells(cells);
    // Cuts a wide character at the new edge.
    row.resize(cols);
    row.mark_unknown();
    row.wrapped = wrapped;
    row
}

pub(super) fn decode_cells(
    bytes: &[u8],
    extras: &[Arc<CellExtra>],
    cells: &mut Vec<Cell>,
) -> Option<bool> {
    let wrapped = bytes.first()? & FLAG_WRAPPED != 0;
    let (count, mut pos) = read_varint(bytes, 1)?;
    let count = count as usize;
    let mut pen = Pen::default();
    // Appends after what `cells` holds already.
    let start = cells.len();
    while cells.len() - start < count {
        let (mask, run, after) = read_run_header(bytes, pos)?;
        pos = after;
        if mask & MASK_FG != 0 {
            (pen.fg, pos) = read_color(bytes, pos)?;
        }
        if mask & MASK_BG != 0 {
            (pen.bg, pos) = read_color(bytes, pos)?;
        }
        if mask & MASK_ATTRS != 0 {
            let raw = bytes.get(pos..pos + 2)?;
            pen.attrs = Attrs::from_bits(u16::from_le_bytes([raw[0], raw[1]]));
            pos += 2;
        }
        if mask & MASK_EXTRA != 0 {
            let (index, p) = read_varint(bytes, pos)?;
            pos = p;
            pen.extra = extras.get(index as usize).cloned();
        }
        let run_end = cells.len() + run;
        while cells.len() < run_end {
            if bytes.get(pos) == Some(&ESCAPE_CELL) {
                let kind = *bytes.get(pos + 1)?;
                let (len, p) = read_varint(bytes, pos + 2)?;
                let text = std::str::from_utf8(bytes.get(p..p + len as usize)?).ok()?;
                pos = p + len as usize;
                let mut chars = text.chars();
                let first = chars.next()?;
                let flags = match kind {
                    1 => CellFlags::WIDE,
                    2 => CellFlags::SPACER,
                    _ => CellFlags::empty(),
                };
                cells.push(Cell::from_parts(first, &pen, flags, Some(chars.as_str())));
                continue;
            }
            let rest = bytes.get(pos..)?;
            let len = utf8_len(*rest.first()?);
            let ch = std::str::from_utf8(rest.get(..len)?).ok()?.chars().next()?;
            pos += len;
            if char_width(ch) == 2 {
                cells.push(Cell::new(ch, &pen, CellFlags::WIDE));
                cells.push(Cell::spacer(&pen));
            } else {
                cells.push(Cell::new(ch, &pen, CellFlags::empty()));
            }
        }
    }
    Some(wrapped)
}

/// The text of a stored line of default-styled narrow ASCII (one run without style fields,
/// every byte printable ASCII), and whether it wraps; `None` for any other line. What a log
/// line's history looks like: the reflow re-wraps such lines without decoding cells.
pub(super) fn plain_text(bytes: &[u8]) -> Option<(&[u8], bool)> {
    let wrapped = bytes.first()? & FLAG_WRAPPED != 0;
    let (count, pos) = read_varint(bytes, 1)?;
    let count = count as usize;
    if count == 0 {
        return (bytes.len() == pos).then_some((&[], wrapped));
    }
    let (mask, run, pos) = read_run_header(bytes, pos)?;
    if mask != 0 {
        return None;
    }
    let text = bytes.get(pos..)?;
    (run == count && text.len() == count && text.iter().all(|b| (0x20..0x7f).contains(b)))
        .then_some((text, wrapped))
}

/// A run header at `pos`: the mask of the style fields that follow, the run's cells, and
/// where the fields begin.
fn read_run_header(bytes: &[u8], pos: usize) -> Option<(u8, usize, usize)> {
    let head = *bytes.get(pos)?;
    match usize::from(head >> 4) {
        RUN_IN_HEADER => {
            let (run, after) = read_varint(bytes, pos + 1)?;
            Some((head & 0x0f, run as usize, after))
        }
        short => Some((head & 0x0f, short, pos + 1)),
    }
}

/// The characters of a stored line (see [`super::Scrollback::line_text`]).
pub(super) fn decode_text(
    bytes: &[u8],
    text: &mut String,
    mut starts: Option<&mut Vec<u32>>,
) -> Option<bool> {
    let wrapped = bytes.first()? & FLAG_WRAPPED != 0;
    let (count, mut pos) = read_varint(bytes, 1)?;
    let count = count as usize;
    let mut cells = 0;
    while cells < count {
        let (mask, run, after) = read_run_header(bytes, pos)?;
        pos = after;
        // Styles are skipped: only their lengths matter here.
        for field in [MASK_FG, MASK_BG] {
            if mask & field != 0 {
                pos = read_color(bytes, pos)?.1;
            }
        }
        if mask & MASK_ATTRS != 0 {
            pos += 2;
        }
        if mask & MASK_EXTRA != 0 {
            pos = read_varint(bytes, pos)?.1;
        }
        let run_end = cells + run;
        if starts.is_none() {
            // A run of narrow ASCII cells is its bytes as they are: taken at once.
            if let Some(ascii) = bytes.get(pos..pos + run).filter(|b| b.is_ascii()) {
                text.push_str(std::str::from_utf8(ascii).ok()?);
                pos += run;
                cells = run_end;
                continue;
            }
        }
        while cells < run_end {
            if bytes.get(pos) == Some(&ESCAPE_CELL) {
                let kind = *bytes.get(pos + 1)?;
                let (len, p) = read_varint(bytes, pos + 2)?;
                let cell = std::str::from_utf8(bytes.get(p..p + len as usize)?).ok()?;
                pos = p + len as usize;
                if let Some(s) = starts.as_deref_mut() {
                    s.push(text.len() as u32);
                }
                // A spacer's character is a placeholder: the wide character holds the text.
                if kind != 2 {
                    text.push_str(cell);
                }
                cells += 1;
                continue;
            }
            let rest = bytes.get(pos..)?;
            let len = utf8_len(*rest.first()?);
            let ch = std::str::from_utf8(rest.get(..len)?).ok()?;
            pos += len;
            if let Some(s) = starts.as_deref_mut() {
                s.push(text.len() as u32);
            }
            text.push_str(ch);
            cells += 1;
            if ch.chars().next().is_some_and(|c| char_width(c) == 2) {
                if let Some(s) = starts.as_deref_mut() {
                    s.push(text.len() as u32);
                }
                cells += 1;
            }
        }
    }
    Some(wrapped)
}

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}
