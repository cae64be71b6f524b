//! What a client's terminal understands: its colour depth, whether it takes synchronized
//! output, styled and coloured underlines and hyperlinks; and pens brought down to that.

use weft_screen_model::palette::xterm_color;
use weft_screen_model::{Color, Pen, Rgb, UnderlineStyle};

/// How many colours a terminal shows.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, PartialOrd, Ord)]
pub enum ColorDepth {
    /// The 16 ANSI colours (SGR 30-37, 90-97 and their backgrounds).
    Ansi16,
    /// The 256-colour palette (`38;5;N`).
    Palette256,
    /// Any RGB colour (`38;2;R;G;B`).
    #[default]
    TrueColor,
}

impl ColorDepth {
    /// The name `list-clients` shows: `16`, `256` or `truecolor`.
    pub fn name(self) -> &'static str {
        match self {
            ColorDepth::Ansi16 => "16",
            ColorDepth::Palette256 => "256",
            ColorDepth::TrueColor => "truecolor",
        }
    }

    /// `color` as this depth shows it: the nearest colour it has.
    pub fn color(self, color: Color) -> Color {
        match (self, color) {
            (ColorDepth::TrueColor, c) | (_, c @ Color::Default) => c,
            (ColorDepth::Palette256, Color::Indexed(i)) => Color::Indexed(i),
            (ColorDepth::Palette256, Color::Rgb(rgb)) => Color::Indexed(nearest_256(rgb)),
            (ColorDepth::Ansi16, Color::Indexed(i)) if i < 16 => Color::Indexed(i),
            (ColorDepth::Ansi16, Color::Indexed(i)) => Color::Indexed(nearest_16(xterm_color(i))),
            (ColorDepth::Ansi16, Color::Rgb(rgb)) => Color::Indexed(nearest_16(rgb)),
        }
    }

    /// `pen` with its colours brought to this depth (`None`: as it is).
    pub fn pen(self, pen: &Pen) -> Option<Pen> {
        if self == ColorDepth::TrueColor {
            return None;
        }
        let (fg, bg, ul) = (
            self.color(pen.fg),
            self.color(pen.bg),
            self.color(pen.underline_color()),
        );
        if fg == pen.fg && bg == pen.bg && ul == pen.underline_color() {
            return None;
        }
        let mut mapped = pen.clone();
        mapped.fg = fg;
        mapped.bg = bg;
        if ul != pen.underline_color() {
            mapped.update_extra(|e| e.underline_color = ul);
        }
        Some(mapped)
    }
}

/// What a client's terminal takes, as far as frames go. The default is everything (truecolor,
/// synchronized output), what a renderer without a terminal to ask (tests, benches) assumes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TerminalCaps {
    /// Colours are sent at this depth.
    pub depth: ColorDepth,
    /// Frames are wrapped in synchronized output (mode 2026): only for terminals that said
    /// they support it. Either way a frame is one write.
    pub synchronized_output: bool,
    /// Underline styles (`4:3` curly, ...) and underline colours (`58`) are sent; else every
    /// underline is a plain one and has the text's colour.
    pub underline_styles: bool,
    /// OSC 8 hyperlinks are sent; else linked text is plain text.
    pub hyperlinks: bool,
    /// Programs' desktop notifications and progress reports (OSC 9, 777, 99) are passed on;
    /// else they are dropped.
    pub notifications: bool,
    /// The cursor's colour may be set (OSC 12, reset with OSC 112); else it is left alone.
    pub cursor_colour: bool,
}

impl TerminalCaps {
    /// `pen` as this terminal can show it (`None`: as it is).
    pub fn pen(&self, pen: &Pen) -> Option<Pen> {
        let mapped = self.depth.pen(pen);
        if self.underline_styles {
            return mapped;
        }
        let shown = mapped.as_ref().unwrap_or(pen);
        let style = shown.attrs.underline();
        let styled = !matches!(style, UnderlineStyle::None | UnderlineStyle::Single);
        if !styled && shown.underline_color() == Color::Default {
            return mapped;
        }
        let mut plain = shown.clone();
        if styled {
            plain.attrs.set_underline(UnderlineStyle::Single);
        }
        plain.update_extra(|e| e.underline_color = Color::Default);
        Some(plain)
    }
}

impl Default for TerminalCaps {
    fn default() -> Self {
        TerminalCaps {
            depth: ColorDepth::TrueColor,
            synchronized_output: true,
            underline_styles: true,
            hyperlinks: true,
            // Notifications reach a desktop: only for a terminal known to show them.
            notifications: false,
            cursor_colour: true,
        }
    }
}

fn distance(a: Rgb, b: Rgb) -> u32 {
    let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).unsigned_abs();
    d(a.r, b.r).pow(2) + d(a.g, b.g).pow(2) + d(a.b, b.b).pow(2)
}

/// The nearest entry of the 256-colour palette's cube or grey ramp (as tmux chooses it).
pub fn nearest_256(rgb: Rgb) -> u8 {
    const LEVELS: [u8; 6] = [0x00, 0x5f, 0x87, 0xaf, 0xd7, 0xff];
    let level = |v: u8| -> u8 {
        match v {
            0..=47 => 0,
            48..=114 => 1,
            _ => (v - 35) / 40,
        }
    };
    let (qr, qg, qb) = (level(rgb.r), level(rgb.g), level(rgb.b));
    let cube = Rgb::new(
        LEVELS[usize::from(qr)],
        LEVELS[usize::from(qg)],
        LEVELS[usize::from(qb)],
    );
    let cube_index = 16 + 36 * qr + 6 * qg + qb;
    if cube == rgb {
        return cube_index;
    }
    let average = (u16::from(rgb.r) + u16::from(rgb.g) + u16::from(rgb.b)) / 3;
    let grey_index = if average > 238 {
        23
    } else {
        (average.saturating_sub(3) / 10) as u8
    };
    let grey_level = 8 + 10 * grey_index;
    let grey = Rgb::new(grey_level, grey_level, grey_level);
    if distance(grey, rgb) < distance(cube, rgb) {
        232 + grey_index
    } else {
        cube_index
    }
}

/// The nearest of the 16 ANSI colours (xterm's defaults).
pub fn nearest_16(rgb: Rgb) -> u8 {
    (0..16u8)
        .min_by_key(|&i| distance(xterm_color(i), rgb))
        .unwrap_or(7)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rgb_goes_to_the_nearest_of_256() {
        assert_eq!(nearest_256(Rgb::new(0xff, 0, 0)), 196);
        assert_eq!(nearest_256(Rgb::new(0x5f, 0x87, 0xaf)), 16 + 36 + 12 + 3);
        assert_eq!(nearest_256(Rgb::new(0x80, 0x80, 0x80)), 244);
        assert_eq!(nearest_256(Rgb::new(0, 0, 0)), 16);
        assert_eq!(nearest_256(Rgb::new(0xfe, 0xfe, 0xfe)), 231);
    }

    #[test]
    fn rgb_and_high_indexes_go_to_the_nearest_of_16() {
        let d = ColorDepth::Ansi16;
        assert_eq!(
            d.color(Color::Rgb(Rgb::new(0xf0, 0x10, 0x10))),
            Color::Indexed(9)
        );
        assert_eq!(d.color(Color::Rgb(Rgb::new(0, 0, 0))), Color::Indexed(0));
        assert_eq!(d.color(Color::Indexed(196)), Color::Indexed(9));
        assert_eq!(d.color(Color::Indexed(3)), Color::Indexed(3));
        assert_eq!(d.color(Color::Default), Color::Default);
        assert_eq!(
            ColorDepth::Palette256.color(Color::Indexed(200)),
            Color::Indexed(200)
        );
        assert_eq!(
            ColorDepth::TrueColor.color(Color::Rgb(Rgb::new(1, 2, 3))),
            Color::Rgb(Rgb::new(1, 2, 3))
        );
    }
}
