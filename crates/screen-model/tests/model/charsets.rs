//! G0-G3 designation, SO/SI, single shifts, DEC Special Graphics.

use crate::support::*;

#[test]
fn dec_special_graphics_draws_lines() {
    let s = screen(10, 1, "\x1b(0lqqk\x1b(Bx");
    assert_screen!(s, ["┌──┐x"]);
}

#[test]
fn shift_out_invokes_g1() {
    let s = screen(10, 1, "\x1b)0a\x0eq\x0fq");
    assert_screen!(s, ["a─q"]);
}

#[test]
fn single_shift_affects_one_character() {
    let s = screen(10, 1, "\x1b*0\x1bNqq");
    assert_screen!(s, ["─q"]);
}

#[test]
fn uk_set_shows_a_pound_sign() {
    let s = screen(10, 1, "\x1b(A#");
    assert_screen!(s, ["£"]);
}

#[test]
fn charsets_are_saved_with_the_cursor() {
    let s = screen(10, 1, "\x1b(0\x1b7\x1b(B\x1b8q");
    assert_screen!(s, ["─"]);
}
