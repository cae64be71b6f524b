//! Decoding SGR parameter lists into [`Sgr`] instructions, both `;` and `:` forms of
//! extended colours.

use crate::cell::{Color, Rgb, UnderlineStyle};
use crate::handler::{Handler, Sgr};
use vte::Params;

/// Decodes SGR parameters, both `;` and `:` forms of extended colours.
pub(super) fn sgr<H: Handler>(h: &mut H, params: &Params) {
    if params.is_empty() {
        h.sgr(Sgr::Reset);
        return;
    }
    let mut iter = params.iter();
    while let Some(group) = iter.next() {
        let op = match group[0] {
            0 => Sgr::Reset,
            1 => Sgr::Bold,
            2 => Sgr::Dim,
            3 => Sgr::Italic,
            4 => Sgr::Underline(
                group
                    .get(1)
                    .map_or(UnderlineStyle::Single, |&n| UnderlineStyle::from_param(n)),
            ),
            5 | 6 => Sgr::Blink,
            7 => Sgr::Inverse,
            8 => Sgr::Hidden,
            9 => Sgr::Strike,
            21 => Sgr::Underline(UnderlineStyle::Double),
            22 => Sgr::NormalIntensity,
            23 => Sgr::NoItalic,
            24 => Sgr::NoUnderline,
            25 => Sgr::NoBlink,
            27 => Sgr::NoInverse,
            28 => Sgr::NoHidden,
            29 => Sgr::NoStrike,
            n @ 30..=37 => Sgr::Foreground(Color::Indexed((n - 30) as u8)),
            39 => Sgr::Foreground(Color::Default),
            n @ 40..=47 => Sgr::Background(Color::Indexed((n - 40) as u8)),
            49 => Sgr::Background(Color::Default),
            53 => Sgr::Overline,
            55 => Sgr::NoOverline,
            59 => Sgr::UnderlineColor(Color::Default),
            n @ 90..=97 => Sgr::Foreground(Color::Indexed((n - 90 + 8) as u8)),
            n @ 100..=107 => Sgr::Background(Color::Indexed((n - 100 + 8) as u8)),
            n @ (38 | 48 | 58) => {
                let color = if group.len() > 1 {
                    extended_color_colon(&group[1..])
                } else {
                    extended_color_semicolon(&mut iter)
                };
                match (n, color) {
                    (_, None) => continue,
                    (38, Some(c)) => Sgr::Foreground(c),
                    (48, Some(c)) => Sgr::Background(c),
                    (_, Some(c)) => Sgr::UnderlineColor(c),
                }
            }
            _ => continue,
        };
        h.sgr(op);
    }
}

/// `38:5:n`, `38:2:r:g:b` and `38:2:cs:r:g:b` (the part after 38).
fn extended_color_colon(sub: &[u16]) -> Option<Color> {
    match sub {
        [5, n, ..] => Some(Color::Indexed(clamp_u8(*n))),
        [2, _, r, g, b, ..] => Some(rgb(*r, *g, *b)),
        [2, r, g, b] => Some(rgb(*r, *g, *b)),
        _ => None,
    }
}

/// `38;5;n` and `38;2;r;g;b`: takes the following parameters from `iter`.
fn extended_color_semicolon<'p>(iter: &mut impl Iterator<Item = &'p [u16]>) -> Option<Color> {
    match iter.next()?.first()? {
        5 => Some(Color::Indexed(clamp_u8(*iter.next()?.first()?))),
        2 => {
            let r = *iter.next()?.first()?;
            let g = *iter.next()?.first()?;
            let b = *iter.next()?.first()?;
            Some(rgb(r, g, b))
        }
        _ => None,
    }
}

fn clamp_u8(n: u16) -> u8 {
    u8::try_from(n).unwrap_or(u8::MAX)
}

fn rgb(r: u16, g: u16, b: u16) -> Color {
    Color::Rgb(Rgb::new(clamp_u8(r), clamp_u8(g), clamp_u8(b)))
}
