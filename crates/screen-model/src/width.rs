//! Character widths, computed once when a character is printed and then cached in the cell.

use unicode_width::UnicodeWidthChar;

/// Columns `c` takes: 0 for combining marks and other zero-width characters, 2 for wide ones.
#[inline]
pub fn char_width(c: char) -> usize {
    let code = c as u32;
    if code < 0x7f {
        return 1;
    }
    // CJK ideographs, kana and Hangul syllables: the bulk of wide text, without a table walk.
    if (0x4e00..=0x9fff).contains(&code)
        || (0x3041..=0x30ff).contains(&code)
        || (0xac00..=0xd7a3).contains(&code)
    {
        return 2;
    }
    c.width().unwrap_or(1).min(2)
}

/// Zero-width joiner: the next character joins the current grapheme.
pub const ZWJ: char = '\u{200d}';
/// Variation selector 16: show the previous character as (wide) emoji.
pub const VS16: char = '\u{fe0f}';
