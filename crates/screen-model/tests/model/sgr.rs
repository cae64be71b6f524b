//! SGR: attributes, underline styles, 16/256/truecolor in both forms, resets.

use crate::support::*;
use weft_screen_model::{Attrs, Color, Rgb, UnderlineStyle};

fn pen_after(seq: &str) -> weft_screen_model::Pen {
    screen(5, 1, seq).pen().clone()
}

#[test]
fn attributes_set_and_reset() {
    let p = pen_after("\x1b[1;2;3;5;7;8;9;53m");
    for a in [
        Attrs::BOLD,
        Attrs::DIM,
        Attrs::ITALIC,
        Attrs::BLINK,
        Attrs::INVERSE,
        Attrs::HIDDEN,
        Attrs::STRIKE,
        Attrs::OVERLINE,
    ] {
        assert!(p.attrs.contains(a), "{a:?}");
    }
    let p = pen_after("\x1b[1;2;3;5;7;8;9;53m\x1b[22;23;25;27;28;29;55m");
    assert_eq!(p.attrs, Attrs::empty());
    assert_eq!(
        pen_after("\x1b[1;31m\x1b[0m"),
        weft_screen_model::Pen::default()
    );
    assert_eq!(
        pen_after("\x1b[1;31m\x1b[m"),
        weft_screen_model::Pen::default()
    );
}

#[test]
fn underline_styles() {
    assert_eq!(
        pen_after("\x1b[4m").attrs.underline(),
        UnderlineStyle::Single
    );
    assert_eq!(
        pen_after("\x1b[21m").attrs.underline(),
        UnderlineStyle::Double
    );
    assert_eq!(
        pen_after("\x1b[4:3m").attrs.underline(),
        UnderlineStyle::Curly
    );
    assert_eq!(
        pen_after("\x1b[4:4m").attrs.underline(),
        UnderlineStyle::Dotted
    );
    assert_eq!(
        pen_after("\x1b[4:5m").attrs.underline(),
        UnderlineStyle::Dashed
    );
    assert_eq!(
        pen_after("\x1b[4:3m\x1b[4:0m").attrs.underline(),
        UnderlineStyle::None
    );
    assert_eq!(
        pen_after("\x1b[4m\x1b[24m").attrs.underline(),
        UnderlineStyle::None
    );
}

#[test]
fn sixteen_colours() {
    assert_eq!(pen_after("\x1b[31m").fg, Color::Indexed(1));
    assert_eq!(pen_after("\x1b[97m").fg, Color::Indexed(15));
    assert_eq!(pen_after("\x1b[42m").bg, Color::Indexed(2));
    assert_eq!(pen_after("\x1b[104m").bg, Color::Indexed(12));
    assert_eq!(pen_after("\x1b[31;39m").fg, Color::Default);
    assert_eq!(pen_after("\x1b[41;49m").bg, Color::Default);
}

#[test]
fn extended_colours_in_both_forms() {
    assert_eq!(pen_after("\x1b[38;5;200m").fg, Color::Indexed(200));
    assert_eq!(pen_after("\x1b[38:5:200m").fg, Color::Indexed(200));
    let rgb = Color::Rgb(Rgb::new(10, 20, 30));
    assert_eq!(pen_after("\x1b[38;2;10;20;30m").fg, rgb);
    assert_eq!(pen_after("\x1b[38:2:10:20:30m").fg, rgb);
    assert_eq!(pen_after("\x1b[38:2::10:20:30m").fg, rgb);
    assert_eq!(pen_after("\x1b[48;2;10;20;30m").bg, rgb);
    assert_eq!(pen_after("\x1b[48:5:7m").bg, Color::Indexed(7));
}

#[test]
fn extended_colour_followed_by_more_attributes() {
    let p = pen_after("\x1b[38;5;100;1;48;2;1;2;3;4m");
    assert_eq!(p.fg, Color::Indexed(100));
    assert_eq!(p.bg, Color::Rgb(Rgb::new(1, 2, 3)));
    assert!(p.attrs.contains(Attrs::BOLD));
    assert_eq!(p.attrs.underline(), UnderlineStyle::Single);
}

#[test]
fn underline_colour() {
    assert_eq!(
        pen_after("\x1b[58:5:9m").underline_color(),
        Color::Indexed(9)
    );
    assert_eq!(
        pen_after("\x1b[58;2;1;2;3m").underline_color(),
        Color::Rgb(Rgb::new(1, 2, 3))
    );
    assert_eq!(
        pen_after("\x1b[58:5:9m\x1b[59m").underline_color(),
        Color::Default
    );
    assert_eq!(
        pen_after("\x1b[58:5:9m\x1b[59m"),
        weft_screen_model::Pen::default()
    );
}

#[test]
fn truncated_extended_colours_are_ignored() {
    assert_eq!(pen_after("\x1b[38;2;1m").fg, Color::Default);
    assert_eq!(pen_after("\x1b[38;5m").fg, Color::Default);
    assert_eq!(pen_after("\x1b[38;9;1m").fg, Color::Default);
}

#[test]
fn printed_cells_carry_the_pen() {
    let s = screen(5, 1, "\x1b[1;38;2;1;2;3mA\x1b[mB");
    let a = s.cell(0, 0).unwrap();
    assert!(a.attrs().contains(Attrs::BOLD));
    assert_eq!(a.fg(), Color::Rgb(Rgb::new(1, 2, 3)));
    assert!(s.cell(0, 1).unwrap().is_blank() || s.cell(0, 1).unwrap().ch() == 'B');
    assert_eq!(s.cell(0, 1).unwrap().fg(), Color::Default);
}
