//! Wide characters, combining marks, ZWJ sequences, VS16.

use crate::support::*;

#[test]
fn wide_characters_take_two_cells() {
    let s = screen(10, 1, "中a");
    assert!(s.cell(0, 0).unwrap().is_wide());
    assert!(s.cell(0, 1).unwrap().is_spacer());
    assert_eq!(s.cell(0, 2).unwrap().ch(), 'a');
    assert_eq!(cursor(&s), (0, 3));
    assert_screen!(s, ["中a"]);
}

#[test]
fn a_wide_character_that_does_not_fit_wraps_whole() {
    let s = screen(5, 2, "abcd中");
    assert_screen!(s, ["abcd", "中"]);
    check_invariants(&s);
}

#[test]
fn overwriting_either_half_clears_the_other() {
    let s = screen(6, 1, "中\x1b[1GX");
    assert_screen!(s, ["X"]);
    check_invariants(&s);
    let s = screen(6, 1, "中\x1b[2GX");
    assert_screen!(s, [" X"]);
    check_invariants(&s);
}

#[test]
fn a_wide_character_over_a_wide_character_boundary() {
    let s = screen(6, 1, "中文\x1b[2G字");
    assert_screen!(s, [" 字"]);
    check_invariants(&s);
}

#[test]
fn erasing_half_a_wide_character_erases_both_halves() {
    let s = screen(6, 1, "中文\x1b[2G\x1b[X");
    assert_screen!(s, ["  文"]);
    check_invariants(&s);
    let s = screen(6, 1, "中文\x1b[2G\x1b[P");
    check_invariants(&s);
    let s = screen(6, 1, "中文\x1b[2G\x1b[@");
    check_invariants(&s);
}

#[test]
fn combining_marks_join_the_previous_cell() {
    let s = screen(6, 1, "e\u{301}x");
    assert_eq!(s.cell(0, 0).unwrap().text(), "e\u{301}");
    assert_eq!(s.cell(0, 1).unwrap().ch(), 'x');
    assert_eq!(cursor(&s), (0, 2));
}

#[test]
fn combining_after_pending_wrap_joins_the_last_column() {
    let s = screen(3, 2, "abc\u{301}");
    assert_eq!(s.cell(0, 2).unwrap().text(), "c\u{301}");
}

#[test]
fn combining_after_backspace_from_a_pending_wrap_joins_the_cursor_cell() {
    // xterm steps back from the last column and joins the cell under the cursor; tmux steps
    // back from one past it and joins the cell before: both the same cell.
    let s = screen(4, 2, "abcd\x08\u{301}");
    assert_eq!(s.cell(0, 2).unwrap().text(), "c\u{301}");
    assert_eq!(s.cell(0, 1).unwrap().text(), "b");
    // A wide character in the last two columns: the mark joins it.
    let s = screen(4, 2, "\x1b[1;3H\u{ff41}\x08\u{301}");
    assert_eq!(s.cell(0, 2).unwrap().text(), "\u{ff41}\u{301}");
    // An SGR between changes nothing; printing or moving ends it: the cell before the cursor.
    let s = screen(4, 2, "abcd\x08\x1b[1m\u{301}");
    assert_eq!(s.cell(0, 2).unwrap().text(), "c\u{301}");
    let s = screen(4, 2, "abcd\x08X\u{301}");
    assert_eq!(s.cell(0, 2).unwrap().text(), "X\u{301}");
    let s = screen(4, 2, "abcd\x08\x1b[1;2H\x1b[1;3H\u{301}");
    assert_eq!(s.cell(0, 1).unwrap().text(), "b\u{301}");
    // A backspace not from a pending wrap: the cell before, as always.
    let s = screen(6, 2, "abc\x08\u{301}");
    assert_eq!(s.cell(0, 1).unwrap().text(), "b\u{301}");
}

#[test]
fn zwj_sequences_stay_in_one_cell() {
    let family = "\u{1f468}\u{200d}\u{1f469}\u{200d}\u{1f467}";
    let s = screen(10, 1, &format!("{family}x"));
    assert_eq!(s.cell(0, 0).unwrap().text(), family);
    assert!(s.cell(0, 0).unwrap().is_wide());
    assert_eq!(s.cell(0, 2).unwrap().ch(), 'x');
}

#[test]
fn vs16_widens_the_emoji_before_it() {
    // U+2764 HEAVY BLACK HEART is narrow alone, wide as emoji.
    let s = screen(10, 1, "\u{2764}\u{fe0f}x");
    assert!(s.cell(0, 0).unwrap().is_wide());
    assert_eq!(s.cell(0, 2).unwrap().ch(), 'x');
    check_invariants(&s);
}

#[test]
fn joined_characters_are_capped() {
    let marks = "\u{301}".repeat(10_000);
    let s = screen(5, 1, &format!("e{marks}"));
    assert!(
        s.cell(0, 0).unwrap().combining().len() <= weft_screen_model::screen::MAX_GRAPHEME_BYTES
    );
}

#[test]
fn invalid_utf8_prints_a_replacement_character() {
    let mut s = screen(5, 1, "");
    s.feed(b"a\xffb");
    assert_screen!(s, ["a\u{fffd}b"]);
}

#[test]
fn utf8_split_across_feeds() {
    let mut s = screen(5, 1, "");
    let bytes = "中".as_bytes();
    s.feed(&bytes[..1]);
    s.feed(&bytes[1..]);
    assert_screen!(s, ["中"]);
}
