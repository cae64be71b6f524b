//! X11's colour names, as tmux 3.3 takes them in styles (`bg=orange`) and in the colours
//! programs set (`printf '\e]12;DarkOrange\a'`): any case, with or without the spaces X11
//! writes (`dark slate gray`, `DarkSlateGray`), and `grey0`-`grey100` as percentages of white.
//!
//! The table is data (X11's `rgb.txt`, as tmux lists it), kept in `x11_colours.txt` beside
//! this file: the crates that carry it bring a whole colour library for one lookup.

use crate::cell::Rgb;
use std::sync::OnceLock;

/// One `rrggbb name` a line, names in lowercase, sorted by name.
const TABLE: &str = include_str!("x11_colours.txt");

/// The table read once, the first time a name is looked up; sorted by name.
fn table() -> &'static [(&'static str, Rgb)] {
    static PARSED: OnceLock<Vec<(&'static str, Rgb)>> = OnceLock::new();
    PARSED.get_or_init(|| {
        TABLE
            .lines()
            .filter_map(|line| {
                let (hex, name) = line.split_once(' ')?;
                let value = u32::from_str_radix(hex, 16).ok()?;
                let [_, r, g, b] = value.to_be_bytes();
                Some((name, Rgb::new(r, g, b)))
            })
            .collect()
    })
}

/// The colour an X11 colour name stands for, in any case; `None` for a name X11 does not have.
pub fn x11_colour(name: &str) -> Option<Rgb> {
    let name = name.to_ascii_lowercase();
    if let Some(level) = name
        .strip_prefix("grey")
        .or_else(|| name.strip_prefix("gray"))
    {
        if level.is_empty() {
            return Some(Rgb::new(0xbe, 0xbe, 0xbe));
        }
        // `grey0`-`grey100`: that percentage of white, as tmux works it out (2.55 a step,
        // rounded in floating point, which puts `grey50` at 127 as X11's own table has it).
        let percent: u8 = level
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| level.parse().ok())
            .flatten()
            .filter(|p| *p <= 100)?;
        let v = (2.55 * f64::from(percent)).round() as u8;
        return Some(Rgb::new(v, v, v));
    }
    let table = table();
    let found = table
        .binary_search_by(|(n, _)| (*n).cmp(name.as_str()))
        .ok()?;
    Some(table[found].1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_in_any_case_and_spacing() {
        assert_eq!(x11_colour("orange"), Some(Rgb::new(0xff, 0xa5, 0x00)));
        assert_eq!(
            x11_colour("DarkSlateGray"),
            Some(Rgb::new(0x2f, 0x4f, 0x4f))
        );
        assert_eq!(
            x11_colour("dark slate gray"),
            Some(Rgb::new(0x2f, 0x4f, 0x4f))
        );
        assert_eq!(x11_colour("AliceBlue"), Some(Rgb::new(0xf0, 0xf8, 0xff)));
        assert_eq!(x11_colour("yellow4"), Some(Rgb::new(0x8b, 0x8b, 0x00)));
        assert_eq!(x11_colour("no such colour"), None);
        assert_eq!(x11_colour(""), None);
    }

    #[test]
    fn greys_are_percentages_of_white() {
        assert_eq!(x11_colour("grey0"), Some(Rgb::new(0, 0, 0)));
        assert_eq!(x11_colour("Gray50"), Some(Rgb::new(127, 127, 127)));
        assert_eq!(x11_colour("grey90"), Some(Rgb::new(229, 229, 229)));
        assert_eq!(x11_colour("grey1"), Some(Rgb::new(3, 3, 3)));
        assert_eq!(x11_colour("grey+5"), None);
        assert_eq!(x11_colour("grey100"), Some(Rgb::new(255, 255, 255)));
        assert_eq!(x11_colour("grey"), Some(Rgb::new(0xbe, 0xbe, 0xbe)));
        assert_eq!(x11_colour("grey101"), None);
        assert_eq!(x11_colour("greyish"), None);
    }

    #[test]
    fn the_table_is_sorted_for_the_search() {
        let table = table();
        assert_eq!(table.len(), 578);
        assert!(table.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
