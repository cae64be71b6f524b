//! One grid cell and the pieces of style it carries.
//!
//! A [`Cell`] is kept at 24 bytes: the first character of its grapheme, two packed colours, SGR
//! attribute bits, width flags, and an optional shared [`CellExtra`] for what is rare (combining
//! marks, underline colour, hyperlinks). A unit test fails if it grows.

use std::sync::Arc;

/// A 24-bit colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct Rgb {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
}

impl Rgb {
    /// Builds a colour from its components.
    pub const fn new(r: u8, g: u8, b: u8) -> Self {
        Rgb { r, g, b }
    }
}

/// A colour as a program selects it with SGR: the terminal's default, a palette index, or RGB.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub enum Color {
    /// The default foreground or background.
    #[default]
    Default,
    /// One of the 256 palette entries (0-15 are the ANSI colours).
    Indexed(u8),
    /// A truecolor value.
    Rgb(Rgb),
}

/// A [`Color`] packed into a `u32` (kind in the top byte), so cells compare and copy cheaply.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
struct PackedColor(u32);

impl PackedColor {
    const DEFAULT: PackedColor = PackedColor(0);

    #[inline]
    const fn pack(color: Color) -> Self {
        PackedColor(match color {
            Color::Default => 0,
            Color::Indexed(i) => 0x0100_0000 | i as u32,
            Color::Rgb(Rgb { r, g, b }) => {
                0x0200_0000 | (r as u32) << 16 | (g as u32) << 8 | b as u32
            }
        })
    }

    #[inline]
    const fn unpack(self) -> Color {
        match self.0 >> 24 {
            0 => Color::Default,
            1 => Color::Indexed(self.0 as u8),
            _ => Color::Rgb(Rgb {
                r: (self.0 >> 16) as u8,
                g: (self.0 >> 8) as u8,
                b: self.0 as u8,
            }),
        }
    }
}

/// Underline styles from SGR 4 and its `4:n` sub-parameters.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
#[repr(u8)]
pub enum UnderlineStyle {
    /// No underline.
    #[default]
    None = 0,
    /// `4` or `4:1`.
    Single = 1,
    /// `21` or `4:2`.
    Double = 2,
    /// `4:3`.
    Curly = 3,
    /// `4:4`.
    Dotted = 4,
    /// `4:5`.
    Dashed = 5,
}

impl UnderlineStyle {
    /// The style for an SGR `4:n` sub-parameter; unknown values mean single.
    pub fn from_param(n: u16) -> Self {
        match n {
            0 => UnderlineStyle::None,
            2 => UnderlineStyle::Double,
            3 => UnderlineStyle::Curly,
            4 => UnderlineStyle::Dotted,
            5 => UnderlineStyle::Dashed,
            _ => UnderlineStyle::Single,
        }
    }

    fn from_bits(bits: u16) -> Self {
        match bits {
            1 => UnderlineStyle::Single,
            2 => UnderlineStyle::Double,
            3 => UnderlineStyle::Curly,
            4 => UnderlineStyle::Dotted,
            5 => UnderlineStyle::Dashed,
            _ => UnderlineStyle::None,
        }
    }
}

/// SGR attribute bits plus the DECSCA protection bit, packed in a `u16`.
///
/// Bits 12-14 hold the [`UnderlineStyle`].
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct Attrs(u16);

impl Attrs {
    /// SGR 1.
    pub const BOLD: Attrs = Attrs(1 << 0);
    /// SGR 2.
    pub const DIM: Attrs = Attrs(1 << 1);
    /// SGR 3.
    pub const ITALIC: Attrs = Attrs(1 << 2);
    /// SGR 5 (and 6).
    pub const BLINK: Attrs = Attrs(1 << 3);
    /// SGR 7.
    pub const INVERSE: Attrs = Attrs(1 << 4);
    /// SGR 8.
    pub const HIDDEN: Attrs = Attrs(1 << 5);
    /// SGR 9.
    pub const STRIKE: Attrs = Attrs(1 << 6);
    /// SGR 53.
    pub const OVERLINE: Attrs = Attrs(1 << 7);
    /// DECSCA 1: selective erase (DECSED/DECSEL) leaves the cell alone.
    pub const PROTECTED: Attrs = Attrs(1 << 8);
    const UNDERLINE_SHIFT: u16 = 12;
    const UNDERLINE_MASK: u16 = 0b111 << Self::UNDERLINE_SHIFT;

    /// No attributes.
    pub const fn empty() -> Self {
        Attrs(0)
    }

    /// The raw bits, for compact storage.
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// Rebuilds attributes from [`Attrs::bits`].
    pub const fn from_bits(bits: u16) -> Self {
        Attrs(bits)
    }

    /// Whether every bit of `other` is set.
    pub const fn contains(self, other: Attrs) -> bool {
        self.0 & other.0 == other.0
    }

    /// Sets or clears the bits of `other`.
    pub fn set(&mut self, other: Attrs, on: bool) {
        if on {
            self.0 |= other.0;
        } else {
            self.0 &= !other.0;
        }
    }

    /// The underline style.
    pub fn underline(self) -> UnderlineStyle {
        UnderlineStyle::from_bits((self.0 & Self::UNDERLINE_MASK) >> Self::UNDERLINE_SHIFT)
    }

    /// Sets the underline style.
    pub fn set_underline(&mut self, style: UnderlineStyle) {
        self.0 = (self.0 & !Self::UNDERLINE_MASK) | ((style as u16) << Self::UNDERLINE_SHIFT);
    }

    /// The attributes without the protection bit (what SGR controls).
    pub fn without_protection(self) -> Attrs {
        Attrs(self.0 & !Self::PROTECTED.0)
    }
}

/// An OSC 8 hyperlink: its `id=` parameter (may be empty) and URI.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
pub struct Hyperlink {
    /// The `id=` parameter, used by terminals to join cells of one link.
    pub id: Box<str>,
    /// The target.
    pub uri: Box<str>,
}

/// What few cells carry: combining marks, an underline colour, a hyperlink.
///
/// Shared between cells through an `Arc` so printing with a rare style costs a refcount.
#[derive(Clone, PartialEq, Eq, Debug, Default, Hash)]
pub struct CellExtra {
    /// SGR 58 underline colour.
    pub underline_color: Color,
    /// OSC 8 hyperlink.
    pub hyperlink: Option<Arc<Hyperlink>>,
    /// Characters joined to the cell's first one (combining marks, ZWJ sequences, VS16).
    pub combining: Box<str>,
}

impl CellExtra {
    /// Whether nothing is set, so the cell needs no extra at all.
    pub fn is_empty(&self) -> bool {
        self.underline_color == Color::Default
            && self.hyperlink.is_none()
            && self.combining.is_empty()
    }
}

/// Width flags of a cell.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, Default)]
pub struct CellFlags(u8);

impl CellFlags {
    /// The left half of a double-width character.
    pub const WIDE: CellFlags = CellFlags(1);
    /// The right half of a double-width character: shows nothing of its own.
    pub const SPACER: CellFlags = CellFlags(2);

    /// No flags.
    pub const fn empty() -> Self {
        CellFlags(0)
    }

    /// Whether every bit of `other` is set.
    pub const fn contains(self, other: CellFlags) -> bool {
        self.0 & other.0 == other.0
    }
}

/// The style new characters are written with (the "pen") and that erasing fills with.
#[derive(Clone, PartialEq, Eq, Debug, Default, Hash)]
pub struct Pen {
    /// Foreground.
    pub fg: Color,
    /// Background.
    pub bg: Color,
    /// Attributes.
    pub attrs: Attrs,
    /// Underline colour and hyperlink, when set.
    pub extra: Option<Arc<CellExtra>>,
}

impl Pen {
    /// The underline colour (SGR 58), default when unset.
    pub fn underline_color(&self) -> Color {
        self.extra
            .as_ref()
            .map_or(Color::Default, |e| e.underline_color)
    }

    /// Changes the pen's extra part, dropping it when it becomes empty.
    pub fn update_extra(&mut self, change: impl FnOnce(&mut CellExtra)) {
        let mut extra = self.extra.as_deref().cloned().unwrap_or_default();
        change(&mut extra);
        self.extra = if extra.is_empty() {
            None
        } else {
            Some(Arc::new(extra))
        };
    }
}

/// One character cell of the grid.
///
/// `repr(C)` keeps the plain fields together in the first 16 bytes and the extras pointer
/// last, so clearing and printing a row write each cell in a few wide stores.
#[derive(Clone, PartialEq, Eq, Debug, Hash)]
#[repr(C)]
pub struct Cell {
    ch: char,
    fg: PackedColor,
    bg: PackedColor,
    attrs: Attrs,
    flags: CellFlags,
    /// Always 0: makes the first 16 bytes plain data, so a whole cell is stored in two wide
    /// stores instead of one per field.
    pad: u8,
    extra: Option<Arc<CellExtra>>,
}

/// A cell's colours and attributes without its extras: plain data to stamp on many cells
/// and to compare cheaply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CellStyle {
    fg: PackedColor,
    bg: PackedColor,
    attrs: Attrs,
}

impl CellStyle {
    /// Foreground.
    #[inline]
    pub(crate) fn fg(self) -> Color {
        self.fg.unpack()
    }

    /// Background.
    #[inline]
    pub(crate) fn bg(self) -> Color {
        self.bg.unpack()
    }

    /// Attributes.
    #[inline]
    pub(crate) fn attrs(self) -> Attrs {
        self.attrs
    }
}

impl Default for Cell {
    fn default() -> Self {
        Cell::BLANK
    }
}

impl Cell {
    /// An empty cell with default colours.
    pub const BLANK: Cell = Cell {
        ch: ' ',
        fg: PackedColor::DEFAULT,
        bg: PackedColor::DEFAULT,
        attrs: Attrs::empty(),
        flags: CellFlags::empty(),
        pad: 0,
        extra: None,
    };

    /// A cell showing `ch` with `pen`'s style; `flags` say whether it is a wide half.
    #[inline]
    pub fn new(ch: char, pen: &Pen, flags: CellFlags) -> Self {
        Cell {
            ch,
            fg: PackedColor::pack(pen.fg),
            bg: PackedColor::pack(pen.bg),
            attrs: pen.attrs,
            flags,
            pad: 0,
            extra: pen.extra.clone(),
        }
    }

    /// An erased cell: blank, with the pen's background only (as xterm's erase does).
    #[inline]
    pub fn erased(pen: &Pen) -> Self {
        Cell {
            bg: PackedColor::pack(pen.bg),
            ..Cell::BLANK
        }
    }

    /// Recolours the cell, keeping its character and attributes (a host highlighting a
    /// selection or a search match over the screen).
    #[inline]
    pub fn set_colors(&mut self, fg: Color, bg: Color) {
        self.fg = PackedColor::pack(fg);
        self.bg = PackedColor::pack(bg);
        self.attrs.set(Attrs::INVERSE, false);
    }

    /// The first character of the cell's grapheme (`' '` when blank or a spacer).
    #[inline]
    pub fn ch(&self) -> char {
        self.ch
    }

    /// The whole grapheme: the first character and anything joined to it.
    pub fn text(&self) -> String {
        let mut s = String::new();
        self.push_text(&mut s);
        s
    }

    /// Appends the grapheme to `out` (nothing for the right half of a wide character).
    pub fn push_text(&self, out: &mut String) {
        if self.is_spacer() {
            return;
        }
        out.push(self.ch);
        if let Some(extra) = &self.extra {
            out.push_str(&extra.combining);
        }
    }

    /// Characters joined to the first one.
    pub fn combining(&self) -> &str {
        self.extra.as_ref().map_or("", |e| &e.combining)
    }

    /// Foreground colour.
    #[inline]
    pub fn fg(&self) -> Color {
        self.fg.unpack()
    }

    /// Background colour.
    #[inline]
    pub fn bg(&self) -> Color {
        self.bg.unpack()
    }

    /// Attribute bits.
    #[inline]
    pub fn attrs(&self) -> Attrs {
        self.attrs
    }

    /// Width flags.
    #[inline]
    pub fn flags(&self) -> CellFlags {
        self.flags
    }

    /// The rare extras, if any.
    #[inline]
    pub fn extra(&self) -> Option<&Arc<CellExtra>> {
        self.extra.as_ref()
    }

    /// The underline colour (SGR 58).
    pub fn underline_color(&self) -> Color {
        self.extra
            .as_ref()
            .map_or(Color::Default, |e| e.underline_color)
    }

    /// The OSC 8 hyperlink the cell belongs to.
    pub fn hyperlink(&self) -> Option<&Arc<Hyperlink>> {
        self.extra.as_ref().and_then(|e| e.hyperlink.as_ref())
    }

    /// Display width in columns: 2 for a wide character, 0 for its right half, else 1.
    #[inline]
    pub fn width(&self) -> usize {
        if self.flags.contains(CellFlags::WIDE) {
            2
        } else if self.flags.contains(CellFlags::SPACER) {
            0
        } else {
            1
        }
    }

    /// Whether this is the left half of a wide character.
    #[inline]
    pub fn is_wide(&self) -> bool {
        self.flags.contains(CellFlags::WIDE)
    }

    /// Whether this is the right half of a wide character.
    #[inline]
    pub fn is_spacer(&self) -> bool {
        self.flags.contains(CellFlags::SPACER)
    }

    /// Whether the cell shows nothing and has default style: trailing ones can be trimmed.
    #[inline]
    pub fn is_blank(&self) -> bool {
        self.ch == ' '
            && self.fg == PackedColor::DEFAULT
            && self.bg == PackedColor::DEFAULT
            && self.attrs == Attrs::empty()
            && self.flags == CellFlags::empty()
            && self.extra.is_none()
    }

    /// Whether the cell is DECSCA-protected from selective erase.
    #[inline]
    pub fn is_protected(&self) -> bool {
        self.attrs.contains(Attrs::PROTECTED)
    }

    /// The style of this cell as a pen (without combining marks).
    pub fn pen(&self) -> Pen {
        let extra = self.extra.as_ref().and_then(|e| {
            if e.combining.is_empty() {
                Some(e.clone())
            } else {
                let style_only = CellExtra {
                    combining: Box::from(""),
                    ..CellExtra::clone(e)
                };
                (!style_only.is_empty()).then(|| Arc::new(style_only))
            }
        });
        Pen {
            fg: self.fg.unpack(),
            bg: self.bg.unpack(),
            attrs: self.attrs,
            extra,
        }
    }

    /// Joins `c` to the grapheme, unless it already holds `max_bytes` of joined text.
    pub fn push_combining(&mut self, c: char, max_bytes: usize) {
        let current = self.combining();
        if current.len() + c.len_utf8() > max_bytes {
            return;
        }
        let mut joined = String::with_capacity(current.len() + c.len_utf8());
        joined.push_str(current);
        joined.push(c);
        let mut extra = self.extra.as_deref().cloned().unwrap_or_default();
        extra.combining = joined.into_boxed_str();
        self.extra = Some(Arc::new(extra));
    }

    /// Marks this cell as the left half of a wide character.
    #[inline]
    pub fn set_wide(&mut self) {
        self.flags = CellFlags::WIDE;
    }

    /// Rebuilds a cell from stored parts (used by the compact scrollback).
    pub(crate) fn from_parts(
        ch: char,
        pen: &Pen,
        flags: CellFlags,
        combining: Option<&str>,
    ) -> Self {
        let mut cell = Cell::new(ch, pen, flags);
        if let Some(joined) = combining.filter(|s| !s.is_empty()) {
            let mut extra = cell.extra.as_deref().cloned().unwrap_or_default();
            extra.combining = Box::from(joined);
            cell.extra = Some(Arc::new(extra));
        }
        cell
    }

    /// This cell's style with another character (for printing with a cached pen cell).
    #[inline]
    pub(crate) fn with_char(&self, ch: char) -> Cell {
        Cell { ch, ..self.clone() }
    }

    /// The colours and attributes, copied out so a loop writing many cells reads them once.
    #[inline]
    pub(crate) fn style_only(&self) -> CellStyle {
        CellStyle {
            fg: self.fg,
            bg: self.bg,
            attrs: self.attrs,
        }
    }

    /// A narrow `ch` in `style`, without extras.
    #[inline]
    pub(crate) fn narrow(ch: char, style: CellStyle) -> Cell {
        Cell {
            ch,
            fg: style.fg,
            bg: style.bg,
            attrs: style.attrs,
            ..Cell::BLANK
        }
    }

    /// Makes the cell a narrow `ch` in `style`. The caller has checked that neither the cell
    /// nor the style has extras, so nothing needs dropping and the extras stay `None`.
    #[inline]
    pub(crate) fn overwrite_narrow(&mut self, ch: char, style: CellStyle) {
        debug_assert!(self.extra.is_none());
        // Field by field, leaving the extras alone: `pad` is written with `flags` so the
        // compiler can merge them (four stores for the cell: ch, colours, attrs, flags+pad).
        self.ch = ch;
        self.fg = style.fg;
        self.bg = style.bg;
        self.attrs = style.attrs;
        self.flags = CellFlags::empty();
        self.pad = 0;
    }

    /// Makes a cell without extras blank. The old cell has nothing to drop, so it is
    /// forgotten and the blank written whole, in two wide stores.
    #[inline]
    pub(crate) fn reset_narrow(&mut self) {
        debug_assert!(self.extra.is_none());
        std::mem::forget(std::mem::replace(self, Cell::BLANK));
    }

    /// Whether `other` has the same colours and attributes (extras not compared).
    #[inline]
    pub(crate) fn same_colors_and_attrs(&self, other: &Cell) -> bool {
        self.fg == other.fg && self.bg == other.bg && self.attrs == other.attrs
    }

    /// Makes the cell blank with default style, without the cost of dropping a whole cell.
    #[inline]
    pub(crate) fn set_blank(&mut self) {
        if self.extra.is_some() {
            self.extra = None;
        }
        self.ch = ' ';
        self.fg = PackedColor::DEFAULT;
        self.bg = PackedColor::DEFAULT;
        self.attrs = Attrs::empty();
        self.flags = CellFlags::empty();
    }

    /// A right-half spacer carrying the pen's style.
    #[inline]
    pub fn spacer(pen: &Pen) -> Self {
        Cell::new(' ', pen, CellFlags::SPACER)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_size_is_below_cap() {
        assert!(
            std::mem::size_of::<Cell>() <= 24,
            "Cell grew: {}",
            std::mem::size_of::<Cell>()
        );
        assert_eq!(std::mem::size_of::<Color>(), 4);
    }

    #[test]
    fn underline_style_round_trips_through_attrs() {
        let mut a = Attrs::BOLD;
        a.set_underline(UnderlineStyle::Curly);
        assert_eq!(a.underline(), UnderlineStyle::Curly);
        assert!(a.contains(Attrs::BOLD));
        a.set_underline(UnderlineStyle::None);
        assert_eq!(a, Attrs::BOLD);
    }

    #[test]
    fn combining_marks_are_capped() {
        let mut cell = Cell::new('e', &Pen::default(), CellFlags::empty());
        for _ in 0..1000 {
            cell.push_combining('\u{301}', 32);
        }
        assert!(cell.combining().len() <= 32);
        assert_eq!(cell.text().chars().next(), Some('e'));
    }
}
