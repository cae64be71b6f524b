//! Modes: alternate screens, cursor visibility, mouse, paste, sync, reverse wrap, DECRQM.

use crate::support::*;
use weft_screen_model::{MouseEncoding, MouseTracking};

#[test]
fn mode_1049_saves_cursor_switches_and_clears_then_restores() {
    let mut s = screen(10, 3, "main\x1b[2;3H\x1b[?1049h");
    assert!(s.is_alternate_screen());
    assert_screen!(s, []);
    s.feed(b"alt text\x1b[?1049l");
    assert!(!s.is_alternate_screen());
    assert_screen!(s, ["main"]);
    assert_eq!(cursor(&s), (1, 2));
}

#[test]
fn mode_1049_entered_again_clears_the_alternate_screen() {
    let s = screen(10, 3, "\x1b[?1049hjunk\x1b[?1049l\x1b[?1049h");
    assert_screen!(s, []);
}

#[test]
fn mode_47_keeps_the_alternate_contents() {
    let s = screen(10, 3, "\x1b[?47halt\x1b[?47l\x1b[?47h");
    assert_screen!(s, ["alt"]);
}

#[test]
fn mode_1047_clears_the_alternate_screen_on_leaving() {
    let s = screen(10, 3, "\x1b[?1047halt\x1b[?1047l\x1b[?1047h");
    assert_screen!(s, []);
}

#[test]
fn alternate_screen_has_no_scrollback() {
    let s = screen(3, 2, "\x1b[?1049h1\r\n2\r\n3\r\n4");
    assert_eq!(s.scrollback().len(), 0);
}

#[test]
fn cursor_visibility_and_style() {
    let s = screen(3, 2, "\x1b[?25l\x1b[4 q");
    assert!(!s.cursor_state().visible);
    assert_eq!(s.cursor_state().style, 4);
}

#[test]
fn mouse_and_paste_modes() {
    let s = screen(
        3,
        2,
        "\x1b[?1002h\x1b[?1006h\x1b[?2004h\x1b[?1004h\x1b[?2026h",
    );
    let m = s.modes();
    assert_eq!(m.mouse_tracking, MouseTracking::Drag);
    assert_eq!(m.mouse_encoding, MouseEncoding::Sgr);
    assert!(m.bracketed_paste && m.focus_events && m.synchronized_output);
    let s = screen(3, 2, "\x1b[?1003h\x1b[?1003l");
    assert_eq!(s.modes().mouse_tracking, MouseTracking::Off);
}

#[test]
fn several_modes_in_one_sequence() {
    let s = screen(3, 2, "\x1b[?1;66;2004h");
    assert!(s.modes().application_cursor);
    assert!(s.modes().application_keypad);
    assert!(s.modes().bracketed_paste);
}

#[test]
fn keypad_modes_by_escape() {
    assert!(screen(3, 2, "\x1b=").modes().application_keypad);
    assert!(!screen(3, 2, "\x1b=\x1b>").modes().application_keypad);
}

#[test]
fn linefeed_newline_mode_returns_to_column_zero() {
    let s = screen(5, 3, "\x1b[20hab\ncd");
    assert_screen!(s, ["ab", "cd"]);
}

#[test]
fn reverse_wrap_backspaces_onto_the_previous_line() {
    let s = screen(5, 3, "\x1b[?45h\r\n\x08X");
    assert_screen!(s, ["    X"]);
}

#[test]
fn soft_reset_restores_modes_but_keeps_the_screen() {
    let s = screen(5, 3, "ab\x1b[4h\x1b[?6h\x1b[?25l\x1b[1m\x1b[!p");
    assert!(!s.modes().insert && !s.modes().origin && s.cursor_state().visible);
    assert_eq!(*s.pen(), weft_screen_model::Pen::default());
    assert_screen!(s, ["ab"]);
}

#[test]
fn full_reset_clears_everything_but_history() {
    let s = screen(5, 2, "1\r\n2\r\n3\x1b[?1049h\x1b]2;t\x07\x1bc");
    assert!(!s.is_alternate_screen());
    assert_eq!(s.title(), "");
    assert_screen!(s, []);
    assert_eq!(s.scrollback().len(), 1);
}
