//! Rows to stored bytes: the general encoder, and the fast ones for plain, unstyled and
//! narrow-ASCII rows (and for ASCII rows built off the grid), which write the same bytes.

use super::extras_index::ExtrasIndex;
use super::format::{
    write_color, write_varint, ESCAPE_CELL, FLAG_WRAPPED, MASK_ATTRS, MASK_BG, MASK_EXTRA, MASK_FG,
    NO_EXTRA, RUN_IN_HEADER,
};
use crate::ascii_row::AsciiRow;
use crate::cell::{Attrs, Cell, CellExtra, CellFlags, CellStyle, Color};
use crate::row::Row;
use std::sync::Arc;

/// The style of a cell, as stored: colours, attributes, and the extra without joined characters.
#[derive(PartialEq)]
struct StoredStyle {
    fg: Color,
    bg: Color,
    attrs: Attrs,
    extra: u32,
}

/// A block's extras as lines are added: the list lines refer to by position, and its index.
pub(super) struct Extras<'a> {
    /// The list.
    pub(super) list: &'a mut Vec<Arc<CellExtra>>,
    /// Where each is in it.
    pub(super) index: &'a mut ExtrasIndex,
}

/// Appends `row` in the stored format, with the fastest encoder its facts allow.
pub(super) fn encode_line(row: &Row, out: &mut Vec<u8>, extras: &mut Extras<'_>) {
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
fn encode_styled_line(row: &Row, out: &mut Vec<u8>, extras: &mut Extras<'_>) {
    let cells = &row.cells()[..row.used_len()];
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
    let bound = row.written.min(row.len());
    let used = row.cells()[..bound]
        .iter()
        .rposition(|c| c.ch() != ' ')
        .map_or(0, |i| i + 1);
    write_plain_header(out, row.wrapped, used);
    out.extend(row.cells()[..used].iter().map(|c| c.ch() as u8));
}

/// What [`encode_plain_line`] writes for a row showing `text` (printable ASCII, default
/// style), trailing spaces left out.
pub(super) fn encode_plain_text(text: &[u8], wrapped: bool, out: &mut Vec<u8>) {
    let used = text.iter().rposition(|&b| b != b' ').map_or(0, |i| i + 1);
    write_plain_header(out, wrapped, used);
    out.extend_from_slice(&text[..used]);
}

/// The flag byte, the width and (for a line with text) the run header of a plain line of
/// `used` cells.
fn write_plain_header(out: &mut Vec<u8>, wrapped: bool, used: usize) {
    out.reserve(used + 8);
    out.push(if wrapped { FLAG_WRAPPED } else { 0 });
    write_varint(out, used as u32);
    if used > 0 {
        write_run_header(out, used, 0);
    }
}

/// A row of narrow ASCII without extras in any colours: what [`encode_line`] writes for it,
/// without the checks for wide characters, joined characters and extras.
fn encode_ascii_line(row: &Row, out: &mut Vec<u8>) {
    let cells = &row.cells()[..row.used_len()];
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
pub(super) fn encode_ascii_row(row: &AsciiRow, wrapped: bool, cols: usize, out: &mut Vec<u8>) {
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
    let cells = &row.cells()[..row.used_len()];
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

fn stored_style(cell: &Cell, extras: &mut Extras<'_>) -> StoredStyle {
    let extra = match cell.extra() {
        Some(e) if e.underline_color != Color::Default || e.hyperlink.is_some() => {
            let style_only = CellExtra {
                combining: Box::from(""),
                ..CellExtra::clone(e)
            };
            // A block full of extras keeps the cell's colours and attributes only.
            extras
                .index
                .position(extras.list, style_only)
                .unwrap_or(NO_EXTRA)
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

#[cfg(test)]
mod tests {
    use super::*;

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
            let (mut list, mut index) = (Vec::new(), ExtrasIndex::default());
            let mut extras = Extras {
                list: &mut list,
                index: &mut index,
            };
            encode_styled_line(row, &mut general, &mut extras);
            assert_eq!(fast, general, "row {:?}", row.text());
            checked += 1;
        }
        assert_eq!(checked, 4);
    }
}
