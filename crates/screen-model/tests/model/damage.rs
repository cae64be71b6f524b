//! Damage: rows carry the sequence number of their last change.

use crate::support::*;

#[test]
fn only_touched_rows_are_newer_than_the_last_frame() {
    let mut s = screen(5, 4, "a\r\nb\r\nc");
    let frame = s.seqno();
    assert_eq!(s.changed_rows_since(frame).count(), 0);
    s.feed(b"\x1b[2;1Hx");
    assert_eq!(s.changed_rows_since(frame).collect::<Vec<_>>(), vec![1]);
}

#[test]
fn scrolling_touches_every_row_of_the_region() {
    let mut s = screen(5, 4, "\x1b[2;3r");
    let frame = s.seqno();
    s.feed(b"\x1b[3;1H\n");
    assert_eq!(s.changed_rows_since(frame).collect::<Vec<_>>(), vec![1, 2]);
}

#[test]
fn buffer_switch_and_resize_touch_everything() {
    let mut s = screen(5, 3, "");
    let frame = s.seqno();
    s.feed(b"\x1b[?1049h");
    assert_eq!(s.changed_rows_since(frame).count(), 3);
    let frame = s.seqno();
    s.resize(6, 3);
    assert_eq!(s.changed_rows_since(frame).count(), 3);
}

#[test]
fn cursor_moves_alone_touch_no_rows() {
    let mut s = screen(5, 3, "abc");
    let frame = s.seqno();
    s.feed(b"\x1b[3;3H\x1b[?25l");
    assert_eq!(s.changed_rows_since(frame).count(), 0);
}
