//! SGR: how each instruction changes the pen.

use crate::cell::{Attrs, UnderlineStyle};
use crate::handler::Sgr;
use crate::screen::{reset_pen, Screen};

impl Screen {
    pub(super) fn apply_sgr(&mut self, sgr: Sgr) {
        let pen = &mut self.cursor.pen;
        match sgr {
            Sgr::Reset => *pen = reset_pen(pen),
            Sgr::Bold => pen.attrs.set(Attrs::BOLD, true),
            Sgr::Dim => pen.attrs.set(Attrs::DIM, true),
            Sgr::Italic => pen.attrs.set(Attrs::ITALIC, true),
            Sgr::Underline(style) => pen.attrs.set_underline(style),
            Sgr::Blink => pen.attrs.set(Attrs::BLINK, true),
            Sgr::Inverse => pen.attrs.set(Attrs::INVERSE, true),
            Sgr::Hidden => pen.attrs.set(Attrs::HIDDEN, true),
            Sgr::Strike => pen.attrs.set(Attrs::STRIKE, true),
            Sgr::Overline => pen.attrs.set(Attrs::OVERLINE, true),
            Sgr::NormalIntensity => {
                pen.attrs.set(Attrs::BOLD, false);
                pen.attrs.set(Attrs::DIM, false);
            }
            Sgr::NoItalic => pen.attrs.set(Attrs::ITALIC, false),
            Sgr::NoUnderline => pen.attrs.set_underline(UnderlineStyle::None),
            Sgr::NoBlink => pen.attrs.set(Attrs::BLINK, false),
            Sgr::NoInverse => pen.attrs.set(Attrs::INVERSE, false),
            Sgr::NoHidden => pen.attrs.set(Attrs::HIDDEN, false),
            Sgr::NoStrike => pen.attrs.set(Attrs::STRIKE, false),
            Sgr::NoOverline => pen.attrs.set(Attrs::OVERLINE, false),
            Sgr::Foreground(c) => pen.fg = c,
            Sgr::Background(c) => pen.bg = c,
            Sgr::UnderlineColor(c) => {
                if pen.underline_color() != c {
                    pen.update_extra(|e| e.underline_color = c);
                }
            }
        }
    }
}
