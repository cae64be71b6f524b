//! Cursor movement: CUU CUD CUF CUB CNL CPL CHA CUP HVP VPA VPR HPA HPR, tabs, origin mode.

use crate::support::*;

#[test]
fn cup_is_one_based_and_clamped() {
    let s = screen(10, 5, "\x1b[3;4H");
    assert_eq!(cursor(&s), (2, 3));
    let s = screen(10, 5, "\x1b[99;99H");
    assert_eq!(cursor(&s), (4, 9));
    let s = screen(10, 5, "\x1b[H");
    assert_eq!(cursor(&s), (0, 0));
    let s = screen(10, 5, "\x1b[2;3f");
    assert_eq!(cursor(&s), (1, 2));
}

#[test]
fn relative_moves_stop_at_the_edges() {
    let s = screen(10, 5, "\x1b[3;3H\x1b[9A");
    assert_eq!(cursor(&s), (0, 2));
    let s = screen(10, 5, "\x1b[3;3H\x1b[9B");
    assert_eq!(cursor(&s), (4, 2));
    let s = screen(10, 5, "\x1b[3;3H\x1b[99C");
    assert_eq!(cursor(&s), (2, 9));
    let s = screen(10, 5, "\x1b[3;3H\x1b[99D");
    assert_eq!(cursor(&s), (2, 0));
}

#[test]
fn zero_counts_mean_one() {
    let s = screen(10, 5, "\x1b[3;3H\x1b[0A\x1b[0C");
    assert_eq!(cursor(&s), (1, 3));
}

#[test]
fn next_and_previous_line_go_to_column_zero() {
    let s = screen(10, 5, "\x1b[3;5H\x1b[E");
    assert_eq!(cursor(&s), (3, 0));
    let s = screen(10, 5, "\x1b[3;5H\x1b[2F");
    assert_eq!(cursor(&s), (0, 0));
}

#[test]
fn absolute_column_and_row() {
    let s = screen(10, 5, "\x1b[2;2H\x1b[7G");
    assert_eq!(cursor(&s), (1, 6));
    let s = screen(10, 5, "\x1b[2;2H\x1b[4`");
    assert_eq!(cursor(&s), (1, 3));
    let s = screen(10, 5, "\x1b[2;2H\x1b[4d");
    assert_eq!(cursor(&s), (3, 1));
}

#[test]
fn cud_stops_at_the_bottom_margin_but_vpr_does_not() {
    let s = screen(10, 10, "\x1b[2;5r\x1b[3;1H\x1b[20B");
    assert_eq!(cursor(&s), (4, 0));
    let s = screen(10, 10, "\x1b[2;5r\x1b[3;1H\x1b[20e");
    assert_eq!(cursor(&s), (9, 0));
}

#[test]
fn origin_mode_addresses_relative_to_the_margins() {
    let s = screen(10, 10, "\x1b[3;6r\x1b[?6h\x1b[1;1H");
    assert_eq!(cursor(&s), (2, 0));
    let s = screen(10, 10, "\x1b[3;6r\x1b[?6h\x1b[99;1H");
    assert_eq!(cursor(&s), (5, 0));
}

#[test]
fn tabs_stop_every_eight_columns_and_can_be_set_and_cleared() {
    let s = screen(30, 2, "\tx");
    assert_screen!(s, ["        x"]);
    let s = screen(30, 2, "\x1b[3g\x1b[5G\x1bH\r\tx");
    assert_screen!(s, ["    x"]);
    let s = screen(30, 2, "\x1b[3I");
    assert_eq!(cursor(&s), (0, 24));
    let s = screen(30, 2, "\x1b[20G\x1b[Z");
    assert_eq!(cursor(&s), (0, 16));
    let s = screen(30, 2, "\x1b[99I");
    assert_eq!(cursor(&s), (0, 29));
}

#[test]
fn save_and_restore_cursor_keeps_position_pen_and_pending_wrap() {
    let mut s = screen(5, 3, "abcde\x1b7\x1b[H\x1b[1mX\x1b8");
    let c = s.cursor_state();
    assert_eq!((c.row, c.col, c.pending_wrap), (0, 4, true));
    s.feed(b"Y");
    assert_screen!(s, ["Xbcde", "Y"]);
    assert!(!s
        .cell(1, 0)
        .unwrap()
        .attrs()
        .contains(weft_screen_model::Attrs::BOLD));
}

#[test]
fn csi_s_and_u_save_and_restore() {
    let s = screen(10, 3, "\x1b[2;3H\x1b[s\x1b[H\x1b[u");
    assert_eq!(cursor(&s), (1, 2));
}
