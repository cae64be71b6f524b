//! The building blocks of a stored line, shared by the encoder and the decoder: the flag
//! byte, the masks of a run header, varints and colours.

use crate::cell::{Color, Rgb};

/// Bit of a line's first byte: the line continues on the next one.
pub(super) const FLAG_WRAPPED: u8 = 1;
/// Bits of a run header: which style fields follow it.
pub(super) const MASK_FG: u8 = 1;
pub(super) const MASK_BG: u8 = 2;
pub(super) const MASK_ATTRS: u8 = 4;
pub(super) const MASK_EXTRA: u8 = 8;
/// Not a valid UTF-8 byte: marks a cell stored with explicit flags and joined characters.
pub(super) const ESCAPE_CELL: u8 = 0xff;
/// The extra index of a run without one.
pub(super) const NO_EXTRA: u32 = u32::MAX;
/// Runs shorter than this keep their length in the style byte's high nibble.
pub(super) const RUN_IN_HEADER: usize = 15;

pub(super) fn write_varint(out: &mut Vec<u8>, mut n: u32) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

pub(super) fn read_varint(bytes: &[u8], mut pos: usize) -> Option<(u32, usize)> {
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

pub(super) fn write_color(out: &mut Vec<u8>, c: Color) {
    match c {
        Color::Default => out.push(0),
        Color::Indexed(i) => out.extend_from_slice(&[1, i]),
        Color::Rgb(Rgb { r, g, b }) => out.extend_from_slice(&[2, r, g, b]),
    }
}

pub(super) fn read_color(bytes: &[u8], pos: usize) -> Option<(Color, usize)> {
    match *bytes.get(pos)? {
        1 => Some((Color::Indexed(*bytes.get(pos + 1)?), pos + 2)),
        2 => {
            let rgb = bytes.get(pos + 1..pos + 4)?;
            Some((Color::Rgb(Rgb::new(rgb[0], rgb[1], rgb[2])), pos + 4))
        }
        _ => Some((Color::Default, pos + 1)),
    }
}
