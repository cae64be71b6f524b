//! Colours programs ask about with OSC 4/10/11/12: those a program set itself, and those the
//! host (weft's server) learned from the user's terminal ([`HostColors`]).
//!
//! A query is answered with the colour the program set, else with the host's, else not at
//! all: nothing is invented. A pane never learns what another pane set.

use crate::cell::{Color, Rgb};
use crate::pane_colours::PaneColours;
use std::sync::Arc;

/// The 256 palette entries plus the default foreground, background and cursor colours.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Palette {
    entries: [Rgb; 256],
    /// Default foreground (OSC 10).
    pub foreground: Rgb,
    /// Default background (OSC 11).
    pub background: Rgb,
    /// Cursor colour (OSC 12).
    pub cursor: Rgb,
    /// Entries a program set with OSC 4 (one bit each), answered as set.
    set_entries: [u64; 4],
    /// Dynamic colours a program set (bit 0 OSC 10, 1 OSC 11, 2 OSC 12).
    set_dynamic: u8,
    /// Entries the host draws as other colours (tmux's `pane-colours`), under the program's.
    host_entries: Vec<(u8, Color)>,
    /// The cursor colour shown while the program sets none (tmux's `cursor-colour`).
    host_cursor: Option<Rgb>,
    /// The colours drawn otherwise than the terminal has them, rebuilt on each change;
    /// `None` while there are none.
    drawn: Option<Arc<PaneColours>>,
}

/// What the host knows of the user's terminal's colours; `None` where it does not know.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct HostColors {
    /// Default foreground (the terminal's answer to OSC 10).
    pub foreground: Option<Rgb>,
    /// Default background (OSC 11).
    pub background: Option<Rgb>,
    /// Cursor colour (OSC 12).
    pub cursor: Option<Rgb>,
    /// The 16 ANSI colours (OSC 4 0..15).
    pub ansi: [Option<Rgb>; 16],
    /// The terminal's colour scheme is dark (`Some(true)`) or light, as it reported it (mode
    /// 2031) or as its background says; `None` when neither is known.
    pub dark: Option<bool>,
}

impl HostColors {
    /// Whether anything is known at all.
    pub fn is_empty(&self) -> bool {
        self == &HostColors::default()
    }

    /// The colour scheme: as reported, else judged from the background's luminance.
    pub fn is_dark(&self) -> Option<bool> {
        self.dark.or_else(|| self.background.map(is_dark_color))
    }
}

/// Whether a background of this colour makes a dark scheme (relative luminance under one
/// half, as tmux and vim judge it).
pub fn is_dark_color(rgb: Rgb) -> bool {
    let luminance =
        0.2126 * f64::from(rgb.r) + 0.7152 * f64::from(rgb.g) + 0.0722 * f64::from(rgb.b);
    luminance < 128.0
}

impl Default for Palette {
    fn default() -> Self {
        Palette {
            entries: std::array::from_fn(|i| xterm_color(i as u8)),
            foreground: Rgb::new(0xe5, 0xe5, 0xe5),
            background: Rgb::new(0, 0, 0),
            cursor: Rgb::new(0xe5, 0xe5, 0xe5),
            set_entries: [0; 4],
            set_dynamic: 0,
            host_entries: Vec::new(),
            host_cursor: None,
            drawn: None,
        }
    }
}

impl Palette {
    /// Entry `i`.
    pub fn get(&self, i: u8) -> Rgb {
        self.entries[usize::from(i)]
    }

    /// Sets entry `i` (a program's OSC 4).
    pub fn set(&mut self, i: u8, rgb: Rgb) {
        self.entries[usize::from(i)] = rgb;
        self.set_entries[usize::from(i / 64)] |= 1 << (i % 64);
    }

    /// Resets entry `i` to xterm's default: no longer set by the program.
    pub fn reset(&mut self, i: u8) {
        self.entries[usize::from(i)] = xterm_color(i);
        self.set_entries[usize::from(i / 64)] &= !(1 << (i % 64));
    }

    /// Entry `i` if a program set it.
    pub fn program_entry(&self, i: u8) -> Option<Rgb> {
        (self.set_entries[usize::from(i / 64)] & (1 << (i % 64)) != 0).then(|| self.get(i))
    }

    /// Notes that a program set dynamic colour `which` (0 foreground, 1 background, 2 cursor).
    pub fn mark_dynamic(&mut self, which: u8) {
        self.set_dynamic |= 1 << which.min(7);
    }

    /// Whether a program set dynamic colour `which` (see [`Palette::mark_dynamic`]).
    pub fn dynamic_is_set(&self, which: u8) -> bool {
        self.set_dynamic & (1 << which.min(7)) != 0
    }

    /// Forgets dynamic colour `which` the program set (OSC 110, 111, 112).
    pub fn reset_dynamic(&mut self, which: u8) {
        self.set_dynamic &= !(1 << which.min(7));
        let default = Palette::default();
        match which {
            0 => self.foreground = default.foreground,
            1 => self.background = default.background,
            _ => self.cursor = default.cursor,
        }
    }

    /// Forgets every colour the program set (RIS), keeping the host's.
    pub fn forget_program_colours(&mut self) {
        let host_entries = std::mem::take(&mut self.host_entries);
        let host_cursor = self.host_cursor;
        *self = Palette::default();
        self.set_host_colours(host_entries, host_cursor);
    }

    /// The host's own colours for the pane: palette entries drawn otherwise
    /// (`pane-colours`) and the cursor's colour (`cursor-colour`). Returns whether what is
    /// drawn changed.
    pub fn set_host_colours(&mut self, entries: Vec<(u8, Color)>, cursor: Option<Rgb>) -> bool {
        self.host_entries = entries;
        self.host_cursor = cursor;
        self.rebuild_drawn()
    }

    /// Entry `i` as the host draws it (`pane-colours`), as a colour to answer queries with.
    pub fn host_entry(&self, i: u8) -> Option<Rgb> {
        self.host_entries
            .iter()
            .find(|(n, _)| *n == i)
            .and_then(|(_, colour)| match *colour {
                Color::Rgb(rgb) => Some(rgb),
                Color::Indexed(n) => Some(tmux_rgb(n)),
                Color::Default => None,
            })
    }

    /// The cursor colour the host shows while the program sets none (`cursor-colour`).
    pub fn host_cursor(&self) -> Option<Rgb> {
        self.host_cursor
    }

    /// The colours drawn otherwise than the terminal has them (`None`: none are).
    pub fn drawn(&self) -> Option<&Arc<PaneColours>> {
        self.drawn.as_ref()
    }

    /// The cursor's colour: the program's (OSC 12), else the host's; `None` leaves it to
    /// the user's terminal.
    pub fn cursor_colour(&self) -> Option<Rgb> {
        if self.dynamic_is_set(2) {
            Some(self.cursor)
        } else {
            self.host_cursor
        }
    }

    /// Rebuilds what is drawn from the host's entries, the program's entries over them and
    /// the program's default colours; returns whether it changed.
    pub fn rebuild_drawn(&mut self) -> bool {
        let mut colours = PaneColours::new();
        for &(i, colour) in &self.host_entries {
            colours.set_entry(i, Some(colour));
        }
        if self.set_entries != [0; 4] {
            for i in 0..=255u8 {
                if let Some(rgb) = self.program_entry(i) {
                    colours.set_entry(i, Some(Color::Rgb(rgb)));
                }
            }
        }
        colours.foreground = self.dynamic_is_set(0).then_some(self.foreground);
        colours.background = self.dynamic_is_set(1).then_some(self.background);
        let drawn = (!colours.is_empty()).then(|| Arc::new(colours));
        let changed = drawn != self.drawn;
        self.drawn = drawn;
        changed
    }
}

/// tmux's RGB for palette index `i` (`colour_256toRGB`): its own table for the first 16
/// (`red` is `#800000`), xterm's for the cube and the greys. Host colours given by name are
/// sent and answered this way, as tmux does.
pub fn tmux_rgb(i: u8) -> Rgb {
    const ANSI: [u32; 16] = [
        0x000000, 0x800000, 0x008000, 0x808000, 0x000080, 0x800080, 0x008080, 0xc0c0c0, 0x808080,
        0xff0000, 0x00ff00, 0xffff00, 0x0000ff, 0xff00ff, 0x00ffff, 0xffffff,
    ];
    match ANSI.get(usize::from(i)) {
        Some(&c) => Rgb::new((c >> 16) as u8, (c >> 8) as u8, c as u8),
        None => xterm_color(i),
    }
}

/// xterm's default colour for palette index `i`.
pub fn xterm_color(i: u8) -> Rgb {
    const ANSI: [(u8, u8, u8); 16] = [
        (0x00, 0x00, 0x00),
        (0xcd, 0x00, 0x00),
        (0x00, 0xcd, 0x00),
        (0xcd, 0xcd, 0x00),
        (0x00, 0x00, 0xee),
        (0xcd, 0x00, 0xcd),
        (0x00, 0xcd, 0xcd),
        (0xe5, 0xe5, 0xe5),
        (0x7f, 0x7f, 0x7f),
        (0xff, 0x00, 0x00),
        (0x00, 0xff, 0x00),
        (0xff, 0xff, 0x00),
        (0x5c, 0x5c, 0xff),
        (0xff, 0x00, 0xff),
        (0x00, 0xff, 0xff),
        (0xff, 0xff, 0xff),
    ];
    match i {
        0..=15 => {
            let (r, g, b) = ANSI[usize::from(i)];
            Rgb::new(r, g, b)
        }
        16..=231 => {
            let n = i - 16;
            let level = |v: u8| if v == 0 { 0 } else { 55 + v * 40 };
            Rgb::new(level(n / 36), level((n / 6) % 6), level(n % 6))
        }
        _ => {
            let v = 8 + (i - 232) * 10;
            Rgb::new(v, v, v)
        }
    }
}

/// Parses a colour as programs send it (OSC 4, 10, 11, 12), taking what xterm and tmux take:
/// `rgb:r/g/b` (1-4 hex digits each), `#rgb`, `#rrggbb`, `#rrrrggggbbbb`, `r,g,b` in decimal,
/// `cmy:c/m/y` and `cmyk:c/m/y/k` (each from 0 to 1), and X11's colour names (`orange`,
/// `DarkSlateGray`, `grey50`).
pub fn parse_color_spec(spec: &[u8]) -> Option<Rgb> {
    let spec = std::str::from_utf8(spec).ok()?;
    if let Some(rgb) = parse_decimal_triple(spec).or_else(|| parse_cmyk(spec)) {
        return Some(rgb);
    }
    if !spec.starts_with("rgb:") && !spec.starts_with('#') {
        return crate::x11_colours::x11_colour(spec.trim_matches(' '));
    }
    if let Some(rest) = spec.strip_prefix("rgb:") {
        let mut parts = rest.split('/');
        let mut component = || -> Option<u8> {
            let p = parts.next()?;
            if p.is_empty() || p.len() > 4 {
                return None;
            }
            let v = u32::from_str_radix(p, 16).ok()?;
            let max = (1u32 << (4 * p.len())) - 1;
            Some((v * 255 / max) as u8)
        };
        let rgb = Rgb::new(component()?, component()?, component()?);
        return parts.next().is_none().then_some(rgb);
    }
    let hex = spec.strip_prefix('#')?;
    if hex.is_empty() || hex.len() % 3 != 0 || hex.len() > 12 {
        return None;
    }
    let n = hex.len() / 3;
    let max = (1u32 << (4 * n)) - 1;
    let component = |i: usize| -> Option<u8> {
        let v = u32::from_str_radix(hex.get(i * n..(i + 1) * n)?, 16).ok()?;
        Some((v * 255 / max) as u8)
    };
    Some(Rgb::new(component(0)?, component(1)?, component(2)?))
}

/// `r,g,b` in decimal, each 0-255 (tmux takes it).
fn parse_decimal_triple(spec: &str) -> Option<Rgb> {
    let mut parts = spec.split(',').map(|p| p.trim().parse::<u8>().ok());
    let rgb = Rgb::new(parts.next()??, parts.next()??, parts.next()??);
    parts.next().is_none().then_some(rgb)
}

/// `cmy:c/m/y` or `cmyk:c/m/y/k`, each a fraction from 0 to 1 (xterm and tmux take them).
fn parse_cmyk(spec: &str) -> Option<Rgb> {
    let (parts, want) = match spec.strip_prefix("cmyk:") {
        Some(rest) => (rest, 4),
        None => (spec.strip_prefix("cmy:")?, 3),
    };
    let mut values = [0f64; 4];
    let mut count = 0;
    for part in parts.split('/') {
        let v: f64 = part.trim().parse().ok()?;
        if count == want || !(0.0..=1.0).contains(&v) {
            return None;
        }
        values[count] = v;
        count += 1;
    }
    if count != want {
        return None;
    }
    let [c, m, y, k] = values;
    // In 0..=255 by the checks above; the cast only drops the fraction, as tmux's does.
    let level = |v: f64| ((1.0 - v) * (1.0 - k) * 255.0) as u8;
    Some(Rgb::new(level(c), level(m), level(y)))
}

/// Formats a colour the way xterm answers queries: `rgb:rrrr/gggg/bbbb`.
pub fn format_color_spec(rgb: Rgb) -> String {
    format!(
        "rgb:{:02x}{:02x}/{:02x}{:02x}/{:02x}{:02x}",
        rgb.r, rgb.r, rgb.g, rgb.g, rgb.b, rgb.b
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_forms_tmux_takes() {
        assert_eq!(parse_color_spec(b"red"), Some(Rgb::new(255, 0, 0)));
        assert_eq!(
            parse_color_spec(b" DarkOrange "),
            Some(Rgb::new(0xff, 0x8c, 0))
        );
        assert_eq!(parse_color_spec(b"grey50"), Some(Rgb::new(127, 127, 127)));
        assert_eq!(parse_color_spec(b"255,128,0"), Some(Rgb::new(255, 128, 0)));
        assert_eq!(parse_color_spec(b"cmy:0/1/1"), Some(Rgb::new(255, 0, 0)));
        assert_eq!(
            parse_color_spec(b"cmyk:0/0/0/0.5"),
            Some(Rgb::new(127, 127, 127))
        );
        assert_eq!(parse_color_spec(b"256,0,0"), None);
        assert_eq!(parse_color_spec(b"1,2"), None);
        assert_eq!(parse_color_spec(b"cmy:0/2/1"), None);
        assert_eq!(parse_color_spec(b"cmyk:0/0/0"), None);
        assert_eq!(parse_color_spec(b"not a colour"), None);
        assert_eq!(parse_color_spec(b"rgb:zz/00/00"), None);
    }

    #[test]
    fn parses_common_specs() {
        assert_eq!(
            parse_color_spec(b"rgb:ff/80/00"),
            Some(Rgb::new(255, 128, 0))
        );
        assert_eq!(
            parse_color_spec(b"rgb:ffff/0000/8080"),
            Some(Rgb::new(255, 0, 128))
        );
        assert_eq!(parse_color_spec(b"#ff8000"), Some(Rgb::new(255, 128, 0)));
        assert_eq!(parse_color_spec(b"#f80"), Some(Rgb::new(255, 136, 0)));
        assert_eq!(parse_color_spec(b"rgb:1/2"), None);
    }

    #[test]
    fn cube_and_greys_match_xterm() {
        assert_eq!(xterm_color(16), Rgb::new(0, 0, 0));
        assert_eq!(xterm_color(231), Rgb::new(255, 255, 255));
        assert_eq!(xterm_color(232), Rgb::new(8, 8, 8));
        assert_eq!(xterm_color(255), Rgb::new(238, 238, 238));
    }
}
