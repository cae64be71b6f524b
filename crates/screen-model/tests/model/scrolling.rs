//! Scroll regions, IND/RI/NEL, SU/SD, left/right margins.

use crate::support::*;

#[test]
fn index_at_the_bottom_margin_scrolls_only_the_region() {
    let s = screen(3, 4, "1\r\n2\r\n3\r\n4\x1b[2;3r\x1b[3;1H\x1bDx");
    assert_screen!(s, ["1", "3", "x", "4"]);
}

#[test]
fn reverse_index_at_the_top_margin_scrolls_down() {
    let s = screen(3, 4, "1\r\n2\r\n3\r\n4\x1b[2;3r\x1b[2;1H\x1bMx");
    assert_screen!(s, ["1", "x", "2", "4"]);
}

#[test]
fn next_line_is_cr_plus_index() {
    let s = screen(5, 2, "ab\x1bEc");
    assert_screen!(s, ["ab", "c"]);
}

#[test]
fn scroll_up_and_down() {
    assert_screen!(screen(3, 3, "1\r\n2\r\n3\x1b[S"), ["2", "3"]);
    assert_screen!(screen(3, 3, "1\r\n2\r\n3\x1b[2T"), ["", "", "1"]);
}

#[test]
fn invalid_region_is_ignored() {
    let s = screen(3, 4, "\x1b[3;2r\x1b[4;1H\n");
    // The whole screen is still the region: LF at the bottom scrolls.
    assert_eq!(cursor(&s), (3, 0));
}

#[test]
fn left_right_margins_need_mode_69() {
    let s = screen(6, 2, "\x1b[2;4sabc");
    // Without DECLRMM, CSI s is save-cursor and nothing moves.
    assert_screen!(s, ["abc"]);
    let s = screen(6, 3, "\x1b[?69h\x1b[2;4s\x1b[1;2Habcde");
    assert_screen!(s, [" abc", " de"]);
}

#[test]
fn scrolling_inside_left_right_margins_moves_only_those_columns() {
    let s = screen(5, 3, "aaaaa\r\nbbbbb\r\nccccc\x1b[?69h\x1b[2;4s\x1b[S");
    assert_screen!(s, ["abbba", "bcccb", "c   c"]);
}

#[test]
fn scroll_left_and_right() {
    let s = screen(5, 1, "abcde\x1b[2 @");
    assert_screen!(s, ["cde"]);
    let s = screen(5, 1, "abcde\x1b[2 A");
    assert_screen!(s, ["  abc"]);
}

#[test]
fn lines_leaving_a_region_not_at_the_top_are_not_kept() {
    let s = screen(3, 4, "\x1b[2;3r\x1b[3;1H\n\n\n");
    assert_eq!(s.scrollback().len(), 0);
}
