//! Erasing and editing: ED EL ECH ICH DCH IL DL, DECSED/DECSEL with DECSCA, DECALN.

use crate::support::*;

#[test]
fn erase_in_line_three_ways() {
    assert_screen!(screen(6, 1, "abcdef\x1b[3G\x1b[K"), ["ab"]);
    assert_screen!(screen(6, 1, "abcdef\x1b[3G\x1b[1K"), ["   def"]);
    assert_screen!(screen(6, 1, "abcdef\x1b[3G\x1b[2K"), [""]);
}

#[test]
fn erase_in_display_three_ways() {
    let input = "aaa\r\nbbb\r\nccc\x1b[2;2H";
    assert_screen!(screen(3, 3, &format!("{input}\x1b[J")), ["aaa", "b"]);
    assert_screen!(screen(3, 3, &format!("{input}\x1b[1J")), ["", "  b", "ccc"]);
    assert_screen!(screen(3, 3, &format!("{input}\x1b[2J")), []);
}

#[test]
fn ed3_clears_only_the_scrollback() {
    let s = screen(3, 2, "a\r\nb\r\nc\r\nd\x1b[3J");
    assert_eq!(s.scrollback().len(), 0);
    assert_screen!(s, ["c", "d"]);
}

#[test]
fn erase_uses_the_current_background() {
    let s = screen(4, 1, "\x1b[41m\x1b[2K");
    assert_eq!(
        s.cell(0, 3).unwrap().bg(),
        weft_screen_model::Color::Indexed(1)
    );
}

#[test]
fn erase_characters() {
    assert_screen!(screen(6, 1, "abcdef\x1b[2G\x1b[2X"), ["a  def"]);
    assert_screen!(screen(6, 1, "abcdef\x1b[2G\x1b[99X"), ["a"]);
}

#[test]
fn insert_and_delete_characters() {
    assert_screen!(screen(6, 1, "abcdef\x1b[2G\x1b[2@"), ["a  bcd"]);
    assert_screen!(screen(6, 1, "abcdef\x1b[2G\x1b[2P"), ["adef"]);
    assert_screen!(screen(6, 1, "abcdef\x1b[2G\x1b[99P"), ["a"]);
}

#[test]
fn insert_and_delete_lines_within_the_region() {
    let input = "1\r\n2\r\n3\r\n4\x1b[2;3r\x1b[2;1H";
    assert_screen!(screen(3, 4, &format!("{input}\x1b[L")), ["1", "", "2", "4"]);
    assert_screen!(screen(3, 4, &format!("{input}\x1b[M")), ["1", "3", "", "4"]);
}

#[test]
fn insert_lines_outside_the_region_do_nothing() {
    let s = screen(3, 4, "1\r\n2\r\n3\r\n4\x1b[2;3r\x1b[4;1H\x1b[L");
    assert_screen!(s, ["1", "2", "3", "4"]);
}

#[test]
fn selective_erase_spares_protected_cells() {
    let s = screen(6, 1, "ab\x1b[1\"qcd\x1b[0\"qef\x1b[1G\x1b[?2K");
    assert_screen!(s, ["  cd"]);
    let s = screen(6, 2, "ab\x1b[1\"qcd\x1b[0\"qef\x1b[?2J");
    assert_screen!(s, ["  cd"]);
    // A plain erase ignores protection.
    let s = screen(6, 1, "\x1b[1\"qcd\x1b[2K");
    assert_screen!(s, [""]);
}

#[test]
fn alignment_test_fills_with_e() {
    let s = screen(3, 2, "\x1b#8");
    assert_screen!(s, ["EEE", "EEE"]);
    assert_eq!(cursor(&s), (0, 0));
}

#[test]
fn column_insert_and_delete() {
    let s = screen(5, 2, "abcde\r\nfghij\x1b[1;2H\x1b['}");
    assert_screen!(s, ["a bcd", "f ghi"]);
    let s = screen(5, 2, "abcde\r\nfghij\x1b[1;2H\x1b['~");
    assert_screen!(s, ["acde", "fhij"]);
}
