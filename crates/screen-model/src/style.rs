//! SGR parameter strings for a pen: used for DECRQSS replies, `capture --ansi`, and the renderer.

use crate::cell::{Attrs, Color, Pen, UnderlineStyle};
use std::fmt::Write;

/// The SGR parameters that set `pen` from a reset state, starting with `0`
/// (e.g. `0;1;38;2;255;0;0`).
pub fn sgr_params(pen: &Pen) -> String {
    let mut out = String::from("0");
    let a = pen.attrs;
    for (bit, code) in [
        (Attrs::BOLD, "1"),
        (Attrs::DIM, "2"),
        (Attrs::ITALIC, "3"),
        (Attrs::BLINK, "5"),
        (Attrs::INVERSE, "7"),
        (Attrs::HIDDEN, "8"),
        (Attrs::STRIKE, "9"),
        (Attrs::OVERLINE, "53"),
    ] {
        if a.contains(bit) {
            out.push(';');
            out.push_str(code);
        }
    }
    match a.underline() {
        UnderlineStyle::None => {}
        UnderlineStyle::Single => out.push_str(";4"),
        style => {
            let _ = write!(out, ";4:{}", style as u8);
        }
    }
    push_color(&mut out, pen.fg, 30, 90, 38);
    push_color(&mut out, pen.bg, 40, 100, 48);
    match pen.underline_color() {
        Color::Default => {}
        Color::Indexed(i) => {
            let _ = write!(out, ";58:5:{i}");
        }
        Color::Rgb(c) => {
            let _ = write!(out, ";58:2::{}:{}:{}", c.r, c.g, c.b);
        }
    }
    out
}

/// Appends one colour's parameters: `base + i` for the 8 ANSI colours, `bright + i - 8` for the
/// bright ones, `extended;5;i` or `extended;2;r;g;b` otherwise.
pub fn push_color(out: &mut String, color: Color, base: u8, bright: u8, extended: u8) {
    match color {
        Color::Default => {}
        Color::Indexed(i) if i < 8 => {
            let _ = write!(out, ";{}", base + i);
        }
        Color::Indexed(i) if i < 16 => {
            let _ = write!(out, ";{}", bright + i - 8);
        }
        Color::Indexed(i) => {
            let _ = write!(out, ";{extended};5;{i}");
        }
        Color::Rgb(c) => {
            let _ = write!(out, ";{extended};2;{};{};{}", c.r, c.g, c.b);
        }
    }
}
