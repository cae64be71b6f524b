//! Printing, autowrap and the pending-wrap flag.

use crate::support::*;

#[test]
fn text_lands_at_the_cursor() {
    let s = screen(10, 3, "ab\r\ncd");
    assert_screen!(s, ["ab", "cd"]);
    assert_eq!(cursor(&s), (1, 2));
}

#[test]
fn last_column_sets_pending_wrap_instead_of_moving() {
    let s = screen(5, 3, "abcde");
    let c = s.cursor_state();
    assert_eq!((c.row, c.col, c.pending_wrap), (0, 4, true));
    assert_screen!(s, ["abcde"]);
}

#[test]
fn next_character_after_pending_wrap_wraps_and_marks_the_row() {
    let s = screen(5, 3, "abcdef");
    assert_screen!(s, ["abcde", "f"]);
    assert!(s.row(0).unwrap().is_wrapped());
    assert!(!s.row(1).unwrap().is_wrapped());
}

#[test]
fn carriage_return_clears_pending_wrap() {
    let s = screen(5, 3, "abcde\rX");
    assert_screen!(s, ["Xbcde"]);
}

#[test]
fn backspace_from_pending_wrap_moves_from_the_last_column() {
    let s = screen(5, 3, "abcde\x08X");
    assert_screen!(s, ["abcXe"]);
}

#[test]
fn linefeed_clears_pending_wrap() {
    let s = screen(5, 3, "abcde\nX");
    assert_screen!(s, ["abcde", "    X"]);
}

#[test]
fn without_autowrap_the_last_column_is_overwritten() {
    let s = screen(5, 3, "\x1b[?7labcdefg");
    assert_screen!(s, ["abcdg"]);
    assert_eq!(cursor(&s), (0, 4));
}

#[test]
fn wrapping_at_the_bottom_scrolls() {
    let s = screen(3, 2, "abcdefgh");
    assert_screen!(s, ["def", "gh"]);
    assert_eq!(s.scrollback().len(), 1);
}

#[test]
fn insert_mode_shifts_the_rest_of_the_line() {
    let s = screen(6, 1, "abcd\r\x1b[4hXY");
    assert_screen!(s, ["XYabcd"]);
}

#[test]
fn delete_character_is_not_printed() {
    let s = screen(6, 1, "a\x7fb");
    assert_screen!(s, ["ab"]);
}

#[test]
fn repeat_repeats_the_last_printed_character() {
    let s = screen(10, 2, "x\x1b[3b");
    assert_screen!(s, ["xxxx"]);
}

#[test]
fn repeat_after_a_control_does_nothing() {
    let s = screen(10, 2, "x\r\x1b[3by");
    assert_screen!(s, ["y"]);
}
