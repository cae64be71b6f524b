//! Lines that scrolled off the top, stored compactly in a ring of blocks.
//!
//! A line is encoded as bytes: its text as UTF-8 with style changes between runs of cells, so an
//! 80-column ASCII line costs about 85 bytes and a line of per-cell truecolour about 7 bytes a
//! cell. Lines are packed into blocks of [`LINES_PER_BLOCK`]; the oldest block is dropped whole
//! once the limit is passed, which makes trimming O(1) and keeps allocator overhead per block,
//! not per line.

use crate::ascii_row::AsciiRow;
use crate::cell::{Attrs, Cell, CellExtra, CellFlags, CellStyle, Color, Pen, Rgb};
use crate::row::Row;
use crate::width::char_width;
use std::collections::VecDeque;
use std::sync::Arc;

/// Lines per block: large enough that per-block overhead is noise, small enough that a dropped
/// block frees memory promptly.
const LINES_PER_BLOCK: usize = 256;

const FLAG_WRAPPED: u8 = 1;
const MASK_FG: u8 = 1;
const MASK_BG: u8 = 2;
const MASK_ATTRS: u8 = 4;
const MASK_EXTRA: u8 = 8;
/// Not a valid UTF-8 byte: marks a cell stored with explicit flags and joined characters.
const ESCAPE_CELL: u8 = 0xff;
const NO_EXTRA: u32 = u32::MAX;
/// Runs shorter than this keep their length in the style byte's high nibble.
const RUN_IN_HEADER: usize = 15;

#[derive(Default)]
struct Block {
    data: Vec<u8>,
    /// Start of each line in `data`.
    offsets: Vec<u32>,
    /// Extras (underline colour, hyperlink, joined characters) referenced by index.
    extras: Vec<Arc<CellExtra>>,
}

impl Block {
    fn line(&self, i: usize) -> &[u8] {
        let start = self.offsets[i] as usize;
        let end = self
            .offsets
            .get(i + 1)
            .map_or(self.data.len(), |&o| o as usize);
        &self.data[start..end]
    }
}

/// The scrollback ring.
pub struct Scrollback {
    blocks: VecDeque<Block>,
    /// Lines of the first block already dropped.
    first: usize,
    len: usize,
    limit: usize,
}

impl std::fmt::Debug for Scrollback {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scrollback")
            .field("len", &self.len)
            .field("limit", &self.limit)
            .finish_non_exhaustive()
    }
}

impl Scrollback {
    /// An empty scrollback keeping at most `limit` lines.
    pub fn new(limit: usize) -> Self {
        Scrollback {
            blocks: VecDeque::new(),
            first: 0,
            len: 0,
            limit,
        }
    }

    /// Number of lines held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no line is held.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The most lines kept.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Changes the limit, dropping the oldest lines if needed.
    pub fn set_limit(&mut self, limit: usize) {
        self.limit = limit;
        self.trim();
    }

    /// Bytes of heap the stored lines use (for memory reports and tests).
    pub fn heap_bytes(&self) -> usize {
        self.blocks
            .iter()
            .map(|b| b.data.capacity() + b.offsets.capacity() * 4 + b.extras.capacity() * 8)
            .sum()
    }

    /// Drops every line.
    pub fn clear(&mut self) {
        self.blocks.clear();
        self.first = 0;
        self.len = 0;
    }

    /// Appends a line (the newest).
    pub fn push(&mut self, row: &Row) {
        if let Some(block) = self.block_for_next_line() {
            encode_line(row, &mut block.data, &mut block.extras);
            self.len += 1;
            self.trim();
        }
    }

    /// Appends a line of narrow ASCII that never was in the grid (see [`AsciiRow`]), stored
    /// exactly as [`Scrollback::push`] stores the row it describes.
    pub(crate) fn push_ascii_row(&mut self, row: &AsciiRow, wrapped: bool, cols: usize) {
        if let Some(block) = self.block_for_next_line() {
            encode_ascii_row(row, wrapped, cols, &mut block.data);
            self.len += 1;
            self.trim();
        }
    }

    /// The block the next line goes into, with the line's start recorded; `None` when
    /// nothing is kept.
    fn block_for_next_line(&mut self) -> Option<&mut Block> {
        if self.limit == 0 {
            return None;
        }
        let needs_block = self
            .blocks
            .back()
            .is_none_or(|b| b.offsets.len() >= LINES_PER_BLOCK);
        if needs_block {
            // Size the next block a little over the last one, and give back what the full one
            // did not use (shrinking in place is cheap; the slack would stay for the block's
            // whole life, a few bytes on every line of history).
            let mut capacity = LINES_PER_BLOCK * 48;
            if let Some(full) = self.blocks.back_mut() {
                full.data.shrink_to_fit();
                full.extras.shrink_to_fit();
                capacity = full.data.len() + full.data.len() / 16;
            }
            self.blocks.push_back(Block {
                data: Vec::with_capacity(capacity),
                offsets: Vec::with_capacity(LINES_PER_BLOCK),
                extras: Vec::new(),
            });
        }
        let block = self.blocks.back_mut()?;
        block.offsets.push(block.data.len() as u32);
        Some(block)
    }

    fn trim(&mut self) {
        while self.len > self.limit {
            self.first += 1;
            self.len -= 1;
            let drop_block = self
                .blocks
                .front()
                .is_some_and(|b| self.first >= b.offsets.len());
            if drop_block {
                self.blocks.pop_front();
                self.first = 0;
            }
        }
    }

    /// Line `i`, 0 the oldest, decoded to `cols` cells (cut or padded).
    pub fn get(&self, i: usize, cols: usize) -> Option<Row> {
        let (block, line) = self.locate(i)?;
        let block = &self.blocks[block];
        Some(decode_line(block.line(line), &block.extras, cols))
    }

    /// Line `i` as stored (for tests that compare encodings).
    #[cfg(test)]
    pub(crate) fn stored_bytes(&self, i: usize) -> Option<&[u8]> {
        let (block, line) = self.locate(i)?;
        Some(self.blocks[block].line(line))
    }

    /// The stored width of line `i` in cells (trailing blanks trimmed) and whether it wraps.
    pub fn line_info(&self, i: usize) -> Option<(usize, bool)> {
        let (block, line) = self.locate(i)?;
        let bytes = self.blocks[block].line(line);
        let (count, _) = read_varint(bytes, 1)?;
        Some((count as usize, bytes.first()? & FLAG_WRAPPED != 0))
    }

    /// Removes and returns the newest line.
    pub fn pop(&mut self, cols: usize) -> Option<Row> {
        let row = self.get(self.len.checked_sub(1)?, cols)?;
        let block = self.blocks.back_mut()?;
        let start = block.offsets.pop()? as usize;
        block.data.truncate(start);
        self.len -= 1;
        let empty = self.blocks.back().is_some_and(|b| b.offsets.is_empty());
        if empty {
            self.blocks.pop_back();
            if self.blocks.is_empty() {
                self.first = 0;
            }
        }
        Some(row)
    }

    fn locate(&self, i: usize) -> Option<(usize, usize)> {
        if i >= self.len {
            return None;
        }
        let absolute = i + self.first;
        Some((absolute / LINES_PER_BLOCK, absolute % LINES_PER_BLOCK))
    }
}

fn write_varint(out: &mut Vec<u8>, mut n: u32) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn read_varint(bytes: &[u8], mut pos: usize) -> Option<(u32, usize)> {
    let mut n = 0u32;
    let mut shift = 0;
    loop {
        let b = *bytes.get(pos)?;
        pos += 1;
        n |= u32::from(b & 0x7f).checked_shl(shift)?;
        if b & 0x80 == 0 {
            return Some((n, pos));
        }
        shift += 7;
    }
}

fn write_color(out: &mut Vec<u8>, c: Color) {
    match c {
        Color::Default => out.push(0),
        Color::Indexed(i) => out.extend_from_slice(&[1, i]),
        Color::Rgb(Rgb { r, g, b }) => out.extend_from_slice(&[2, r, g, b]),
    }
}

fn read_color(bytes: &[u8], pos: usize) -> Option<(Color, usize)> {
    match *bytes.get(pos)? {
        1 => Some((Color::Indexed(*bytes.get(pos + 1)?), pos + 2)),
        2 => {
            let rgb = bytes.get(pos + 1..pos + 4)?;
            Some((Color::Rgb(Rgb::new(rgb[0], rgb[1], rgb[2])), pos + 4))
        }
        _ => Some((Color::Default, pos + 1)),
    }
}

/// The style of a cell, as stored: colours, attributes, and the extra without joined characters.
#[derive(PartialEq)]
struct StoredStyle {
    fg: Color,
    bg: Color,
    attrs: Attrs,
    extra: u32,
}

fn encode_line(row: &Row, out: &mut Vec<u8>, extras: &mut Vec<Arc<CellExtra>>) {
    if row.plain {
        encode_plain_line(row, out);
        return;
    }
    if row.unstyled {
        encode_unstyled_line(row, out);
        return;
    }
    if row.ascii {
        encode_ascii_line(row, out);
        return;
    }
    encode_styled_line(row, out, extras);
}

/// Any row: runs of same-styled cells, each with the style fields that change.
fn encode_styled_line(row: &Row, out: &mut Vec<u8>, extras: &mut Vec<Arc<CellExtra>>) {
    let cells = &row.cells[..row.used_len()];
    out.reserve(cells.len() + 8);
    out.push(if row.wrapped { FLAG_WRAPPED } else { 0 });
    write_varint(out, cells.len() as u32);
    let mut current = StoredStyle {
        fg: Color::Default,
        bg: Color::Default,
        attrs: Attrs::empty(),
        extra: NO_EXTRA,
    };
    let mut i = 0;
    while i < cells.len() {
        let first = &cells[i];
        let style = stored_style(first, extras);
        let run_end = i
            + 1
            + cells[i + 1..]
                .iter()
                .position(|c| !same_style(c, first))
                .unwrap_or(cells.len() - i - 1);
        let run = run_end - i;
        let mut mask = 0;
        if style.fg != current.fg {
            mask |= MASK_FG;
        }
        if style.bg != current.bg {
            mask |= MASK_BG;
        }
        if style.attrs != current.attrs {
            mask |= MASK_ATTRS;
        }
        if style.extra != current.extra {
            mask |= MASK_EXTRA;
        }
        write_run_header(out, run, mask);
        if mask & MASK_FG != 0 {
            write_color(out, style.fg);
        }
        if mask & MASK_BG != 0 {
            write_color(out, style.bg);
        }
        if mask & MASK_ATTRS != 0 {
            out.extend_from_slice(&style.attrs.bits().to_le_bytes());
        }
        if mask & MASK_EXTRA != 0 {
            write_varint(out, style.extra);
        }
        current = style;
        encode_text(&cells[i..run_end], out);
        i = run_end;
    }
}

/// A row of default-styled narrow ASCII: the header, one run, and the bytes.
fn encode_plain_line(row: &Row, out: &mut Vec<u8>) {
    let bound = row.written.min(row.cells.len());
    let used = row.cells[..bound]
        .iter()
        .rposition(|c| c.ch() != ' ')
        .map_or(0, |i| i + 1);
    out.reserve(used + 8);
    out.push(if row.wrapped { FLAG_WRAPPED } else { 0 });
    write_varint(out, used as u32);
    if used == 0 {
        return;
    }
    write_run_header(out, used, 0);
    out.extend(row.cells[..used].iter().map(|c| c.ch() as u8));
}

/// A row of narrow ASCII without extras in any colours: what [`encode_line`] writes for it,
/// without the checks for wide characters, joined characters and extras.
fn encode_ascii_line(row: &Row, out: &mut Vec<u8>) {
    let cells = &row.cells[..row.used_len()];
    out.reserve(cells.len() + 8);
    out.push(if row.wrapped { FLAG_WRAPPED } else { 0 });
    write_varint(out, cells.len() as u32);
    let mut current = Cell::BLANK.style_only();
    let mut i = 0;
    while i < cells.len() {
        let style = cells[i].style_only();
        let run_end = i
            + 1
            + cells[i + 1..]
                .iter()
                .position(|c| c.style_only() != style)
                .unwrap_or(cells.len() - i - 1);
        write_ascii_run_header(out, run_end - i, style, &mut current);
        out.extend(cells[i..run_end].iter().map(|c| c.ch() as u8));
        i = run_end;
    }
}

/// Encodes an [`AsciiRow`] `cols` wide to the bytes [`encode_line`] writes for the row it
/// describes: runs of one style (text runs and the fill merged where they match), trailing
/// blanks left out.
fn encode_ascii_row(row: &AsciiRow, wrapped: bool, cols: usize, out: &mut Vec<u8>) {
    let used = row.used_len(cols);
    let text_len = row.text().len().min(cols);
    out.reserve(used + 8);
    out.push(if wrapped { FLAG_WRAPPED } else { 0 });
    write_varint(out, used as u32);
    let fill = (row.fill(), cols.saturating_sub(text_len));
    let mut current = Cell::BLANK.style_only();
    // The run being gathered: its style and first cell.
    let mut open: Option<(CellStyle, usize)> = None;
    let mut at = 0;
    for (style, cells) in row.runs().iter().copied().chain(std::iter::once(fill)) {
        if at >= used {
            break;
        }
        match open {
            Some((open_style, _)) if open_style == style => {}
            Some((open_style, start)) => {
                write_ascii_run(out, row.text(), start..at, open_style, &mut current);
                open = Some((style, at));
            }
            None => open = Some((style, at)),
        }
        at = (at + cells).min(used);
    }
    if let Some((style, start)) = open {
        write_ascii_run(out, row.text(), start..at, style, &mut current);
    }
}

/// Writes one run of an [`AsciiRow`]: the header, the style fields that differ from
/// `current`, and the cells' characters (spaces past the text).
fn write_ascii_run(
    out: &mut Vec<u8>,
    text: &[u8],
    cells: std::ops::Range<usize>,
    style: CellStyle,
    current: &mut CellStyle,
) {
    if cells.is_empty() {
        return;
    }
    write_ascii_run_header(out, cells.len(), style, current);
    let text_end = cells.end.min(text.len());
    if cells.start < text_end {
        out.extend_from_slice(&text[cells.start..text_end]);
    }
    let spaces = cells.end - cells.start.max(text_end);
    out.resize(out.len() + spaces, b' ');
}

/// Starts a run of `cells` cells of narrow ASCII in `style`, with the style fields that differ
/// from `current` (which becomes `style`).
#[inline(always)]
fn write_ascii_run_header(
    out: &mut Vec<u8>,
    cells: usize,
    style: CellStyle,
    current: &mut CellStyle,
) {
    let mut mask = 0;
    if style.fg() != current.fg() {
        mask |= MASK_FG;
    }
    if style.bg() != current.bg() {
        mask |= MASK_BG;
    }
    if style.attrs() != current.attrs() {
        mask |= MASK_ATTRS;
    }
    write_run_header(out, cells, mask);
    if mask & MASK_FG != 0 {
        write_color(out, style.fg());
    }
    if mask & MASK_BG != 0 {
        write_color(out, style.bg());
    }
    if mask & MASK_ATTRS != 0 {
        out.extend_from_slice(&style.attrs().bits().to_le_bytes());
    }
    *current = style;
}

/// Starts a run of `cells` cells whose style changes by `mask` (fields follow). Run length and
/// mask share a byte when the run is short, as it is when every cell has its own colour.
fn write_run_header(out: &mut Vec<u8>, cells: usize, mask: u8) {
    if cells < RUN_IN_HEADER {
        out.push(((cells as u8) << 4) | mask);
    } else {
        out.push(((RUN_IN_HEADER as u8) << 4) | mask);
        write_varint(out, cells as u32);
    }
}

/// A row with the default style throughout: the header and the text (spacers implied).
fn encode_unstyled_line(row: &Row, out: &mut Vec<u8>) {
    let cells = &row.cells[..row.used_len()];
    out.reserve(cells.len() * 3 + 4);
    out.push(if row.wrapped { FLAG_WRAPPED } else { 0 });
    write_varint(out, cells.len() as u32);
    if cells.is_empty() {
        return;
    }
    write_run_header(out, cells.len(), 0);
    for cell in cells {
        if !cell.is_spacer() {
            push_utf8(out, cell.ch());
        }
    }
}

/// Appends the text of a run of same-styled cells.
///
/// Relies on what printing guarantees: a cell without flags or joined characters holds a
/// character of width 1, a wide cell without joined characters one of width 2 followed by its
/// spacer. Anything else is stored with explicit flags.
fn encode_text(run: &[Cell], out: &mut Vec<u8>) {
    out.reserve(run.len());
    let mut j = 0;
    while j < run.len() {
        let cell = &run[j];
        let ch = cell.ch();
        if (ch as u32) < 0x80 && cell.flags() == CellFlags::empty() && cell.extra().is_none() {
            out.push(ch as u8);
            j += 1;
            continue;
        }
        let next = run.get(j + 1);
        let simple_wide =
            cell.is_wide() && cell.combining().is_empty() && next.is_some_and(Cell::is_spacer);
        let simple_narrow = cell.flags() == CellFlags::empty() && cell.combining().is_empty();
        if simple_wide || simple_narrow {
            push_utf8(out, ch);
            // The spacer after a wide character is implied.
            j += if simple_wide { 2 } else { 1 };
            continue;
        }
        out.push(ESCAPE_CELL);
        out.push(if cell.is_wide() {
            1
        } else if cell.is_spacer() {
            2
        } else {
            0
        });
        let mut text = String::new();
        text.push(ch);
        text.push_str(cell.combining());
        write_varint(out, text.len() as u32);
        out.extend_from_slice(text.as_bytes());
        j += 1;
    }
}

/// Appends `ch` as UTF-8 byte by byte (a call to memcpy per character costs more).
#[inline]
fn push_utf8(out: &mut Vec<u8>, ch: char) {
    let mut buf = [0u8; 4];
    let len = ch.encode_utf8(&mut buf).len();
    // Constant-size copies compile to plain moves.
    match len {
        1 => out.push(buf[0]),
        2 => out.extend_from_slice(&buf[..2]),
        3 => out.extend_from_slice(&buf[..3]),
        _ => out.extend_from_slice(&buf),
    }
}

/// Whether two cells store with the same style (joined characters do not count).
#[inline]
fn same_style(a: &Cell, b: &Cell) -> bool {
    a.same_colors_and_attrs(b)
        && match (a.extra(), b.extra()) {
            (None, None) => true,
            (Some(x), Some(y)) if Arc::ptr_eq(x, y) => true,
            _ => a.underline_color() == b.underline_color() && a.hyperlink() == b.hyperlink(),
        }
}

fn stored_style(cell: &Cell, extras: &mut Vec<Arc<CellExtra>>) -> StoredStyle {
    let extra = match cell.extra() {
        Some(e) if e.underline_color != Color::Default || e.hyperlink.is_some() => {
            let style_only = CellExtra {
                combining: Box::from(""),
                ..CellExtra::clone(e)
            };
            match extras.iter().rposition(|x| **x == style_only) {
                Some(i) => i as u32,
                None => {
                    extras.push(Arc::new(style_only));
                    (extras.len() - 1) as u32
                }
            }
        }
        _ => NO_EXTRA,
    };
    StoredStyle {
        fg: cell.fg(),
        bg: cell.bg(),
        attrs: cell.attrs(),
        extra,
    }
}

fn decode_line(bytes: &[u8], extras: &[Arc<CellExtra>], cols: usize) -> Row {
    let mut row = Row::new(cols);
    let mut cells = Vec::with_capacity(cols);
    let wrapped = decode_cells(bytes, extras, &mut cells).unwrap_or(false);
    cells.resize(cols.max(cells.len()), Cell::BLANK);
    cells.truncate(cols);
    row.cells = cells;
    row.resize(cols);
    row.mark_unknown();
    row.wrapped = wrapped;
    row
}

fn decode_cells(bytes: &[u8], extras: &[Arc<CellExtra>], cells: &mut Vec<Cell>) -> Option<bool> {
    let wrapped = bytes.first()? & FLAG_WRAPPED != 0;
    let (count, mut pos) = read_varint(bytes, 1)?;
    let count = count as usize;
    let mut pen = Pen::default();
    while cells.len() < count {
        let head = *bytes.get(pos)?;
        pos += 1;
        let mask = head & 0x0f;
        let run = match usize::from(head >> 4) {
            RUN_IN_HEADER => {
                let (run, p) = read_varint(bytes, pos)?;
                pos = p;
                run
            }
            short => short as u32,
        };
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
        let run_end = cells.len() + run as usize;
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

fn utf8_len(first: u8) -> usize {
    match first {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cell::{Hyperlink, UnderlineStyle};

    fn row_from(cells: Vec<Cell>, cols: usize, wrapped: bool) -> Row {
        let mut row = Row::new(cols);
        for (i, c) in cells.into_iter().enumerate() {
            row.cells[i] = c;
        }
        row.wrapped = wrapped;
        row
    }

    #[test]
    fn styled_line_round_trips() {
        let mut pen = Pen {
            fg: Color::Rgb(Rgb::new(1, 2, 3)),
            bg: Color::Indexed(200),
            ..Pen::default()
        };
        pen.attrs.set(Attrs::BOLD, true);
        pen.attrs.set_underline(UnderlineStyle::Curly);
        pen.update_extra(|e| {
            e.underline_color = Color::Indexed(3);
            e.hyperlink = Some(Arc::new(Hyperlink {
                id: "x".into(),
                uri: "https://a".into(),
            }));
        });
        let mut e = Cell::new('e', &Pen::default(), CellFlags::empty());
        e.push_combining('\u{301}', 32);
        let cells = vec![
            Cell::new('a', &pen, CellFlags::empty()),
            Cell::new('中', &pen, CellFlags::WIDE),
            Cell::spacer(&pen),
            e,
            Cell::new('z', &Pen::default(), CellFlags::empty()),
        ];
        let row = row_from(cells, 10, true);
        let mut sb = Scrollback::new(10);
        sb.push(&row);
        let back = sb.get(0, 10).unwrap();
        assert_eq!(back.cells, row.cells);
        assert!(back.wrapped);
    }

    #[test]
    fn coloured_ascii_rows_encode_as_the_general_encoder_does() {
        let mut screen = crate::Screen::with_scrollback(30, 5, 0);
        // Scroll every row once: rows recycled by scrolling are cleared, so their flags hold.
        screen.feed(b"\r\n\r\n\r\n\r\n\r\n");
        screen.feed(b"\x1b[32mINFO\x1b[0m plain \x1b[1;31;44mERR\x1b[0m tail\r\n");
        screen.feed(b"\x1b[38;2;1;2;3mtrue\x1b[48;5;200m colour\x1b[0m   \r\n");
        screen.feed(b"\x1b[7m reverse to the edge of the row and on\x1b[0m\r\n");
        let mut checked = 0;
        for row in screen.visible_rows().filter(|r| r.used_len() > 0) {
            assert!(
                row.ascii && !row.unstyled,
                "row {:?} takes the fast path",
                row.text()
            );
            let (mut fast, mut general) = (Vec::new(), Vec::new());
            encode_ascii_line(row, &mut fast);
            encode_styled_line(row, &mut general, &mut Vec::new());
            assert_eq!(fast, general, "row {:?}", row.text());
            checked += 1;
        }
        assert_eq!(checked, 4);
    }

    #[test]
    fn ascii_line_is_compact() {
        let cells = (0..80)
            .map(|i| {
                Cell::new(
                    (b'a' + (i % 26) as u8) as char,
                    &Pen::default(),
                    CellFlags::empty(),
                )
            })
            .collect();
        let row = row_from(cells, 80, false);
        let mut sb = Scrollback::new(100_000);
        for _ in 0..10_000 {
            sb.push(&row);
        }
        let per_line = sb.heap_bytes() / 10_000;
        assert!(per_line <= 100, "{per_line} bytes per line");
        assert_eq!(sb.get(9_999, 80).unwrap().text(), row.text());
    }

    #[test]
    fn truecolor_line_is_compact() {
        let cells = (0..80u8)
            .map(|i| {
                let pen = Pen {
                    fg: Color::Rgb(Rgb::new(i, 255 - i, i / 2)),
                    ..Pen::default()
                };
                Cell::new('#', &pen, CellFlags::empty())
            })
            .collect();
        let row = row_from(cells, 80, false);
        let mut sb = Scrollback::new(100_000);
        for _ in 0..1_000 {
            sb.push(&row);
        }
        let per_line = sb.heap_bytes() / 1_000;
        assert!(per_line <= 600, "{per_line} bytes per line");
        assert_eq!(sb.get(999, 80).unwrap().cells, row.cells);
    }

    #[test]
    fn limit_drops_oldest_and_pop_returns_newest() {
        let mut sb = Scrollback::new(300);
        for i in 0..1000 {
            let row = row_from(
                format!("{i}")
                    .chars()
                    .map(|c| Cell::new(c, &Pen::default(), CellFlags::empty()))
                    .collect(),
                10,
                false,
            );
            sb.push(&row);
        }
        assert_eq!(sb.len(), 300);
        assert_eq!(sb.get(0, 10).unwrap().text(), "700");
        assert_eq!(sb.pop(10).unwrap().text(), "999");
        assert_eq!(sb.len(), 299);
        assert_eq!(sb.get(298, 10).unwrap().text(), "998");
    }
}
