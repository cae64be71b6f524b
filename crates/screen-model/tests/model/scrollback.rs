//! History: what scrolls off the top is kept, compactly, up to the limit.

use crate::support::*;
use weft_screen_model::Screen;

#[test]
fn lines_scrolled_off_are_kept_in_order() {
    let s = screen(5, 2, "1\r\n2\r\n3\r\n4");
    assert_eq!(s.scrollback().len(), 2);
    assert_eq!(s.scrollback_row(0).unwrap().text(), "1");
    assert_eq!(s.scrollback_row(1).unwrap().text(), "2");
    assert_eq!(s.text_with_scrollback(), "1\n2\n3\n4");
}

#[test]
fn limit_is_configurable_and_drops_the_oldest() {
    let mut s = Screen::with_scrollback(5, 2, 3);
    for i in 0..10 {
        s.feed(format!("{i}\r\n").as_bytes());
    }
    assert_eq!(s.scrollback().len(), 3);
    assert_eq!(s.scrollback_row(0).unwrap().text(), "6");
    s.set_scrollback_limit(1);
    assert_eq!(s.scrollback_row(0).unwrap().text(), "8");
}

#[test]
fn styles_and_wrap_flags_survive_the_trip() {
    let s = screen(4, 1, "\x1b[1;31mab\x1b[38;2;1;2;3m中\x1b[mxyz");
    let row = s.scrollback_row(0).unwrap();
    assert!(row.is_wrapped());
    assert_eq!(row.text(), "ab中");
    assert_eq!(
        row.cells()[2].fg(),
        weft_screen_model::Color::Rgb(weft_screen_model::Rgb::new(1, 2, 3))
    );
    assert!(row.cells()[0]
        .attrs()
        .contains(weft_screen_model::Attrs::BOLD));
}

#[test]
fn ascii_history_costs_under_100_bytes_a_line() {
    let mut s = Screen::with_scrollback(80, 24, 100_000);
    let line = "2026-11-21T10:00:00Z INFO request handled path=/api/v1/items status=200 ms=12\r\n";
    for _ in 0..20_000 {
        s.feed(line.as_bytes());
    }
    let per_line = s.scrollback().heap_bytes() / s.scrollback().len();
    assert!(per_line <= 100, "{per_line} bytes a line");
}

#[test]
fn clearing_the_main_screen_keeps_its_lines_in_the_history() {
    let mut s = Screen::with_scrollback(5, 4, 100);
    s.feed(b"a\r\nb\r\n\x1b[H\x1b[2J");
    assert_eq!(s.scrollback().len(), 2, "rows up to the last in use");
    assert_eq!(s.text_with_scrollback(), "a\nb\n\n\n\n");
    // Nothing shown: nothing kept.
    s.feed(b"\x1b[2J");
    assert_eq!(s.scrollback().len(), 2);
    // The alternate screen keeps no history; with the option off, nothing is kept either.
    s.feed(b"\x1b[?1049hx\x1b[2J\x1b[?1049l");
    assert_eq!(s.scrollback().len(), 2);
    s.set_scroll_on_clear(false);
    s.feed(b"c\x1b[2J");
    assert_eq!(s.scrollback().len(), 2);
}
