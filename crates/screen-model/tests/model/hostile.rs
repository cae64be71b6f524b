//! Hostile output: bounded time and memory, no panics, nothing echoed back.

use crate::support::*;
use std::time::Instant;

/// Work that is proportional to the screen finishes far inside this, even in a debug build on a
/// loaded machine; unbounded work (2^31 iterations) would not.
const GENEROUS: std::time::Duration = std::time::Duration::from_secs(5);

#[test]
fn huge_counts_are_clamped_to_the_screen() {
    let start = Instant::now();
    let s = screen(80, 24, "x\x1b[999999999@\x1b[999999999b\x1b[999999999L\x1b[99999999999999999999P\x1b[999999999;999999999H\x1b[2147483648X");
    check_invariants(&s);
    assert!(start.elapsed() < GENEROUS);
}

#[test]
fn endless_osc_is_cut_off_and_dropped() {
    let mut s = screen(10, 2, "");
    s.feed(b"\x1b]2;");
    let chunk = vec![b'A'; 1 << 20];
    for _ in 0..8 {
        s.feed(&chunk);
    }
    s.feed(b"\x07ok");
    assert_eq!(s.title(), "", "an over-long title is dropped whole");
    assert_screen!(s, ["ok"]);
}

#[test]
fn endless_dcs_is_consumed_without_buffering() {
    let mut s = screen(10, 2, "");
    s.feed(b"\x1bP$q");
    let chunk = vec![b'm'; 1 << 20];
    for _ in 0..4 {
        s.feed(&chunk);
    }
    s.feed(b"\x1b\\ok");
    assert!(s.take_replies().is_empty());
    assert_screen!(s, ["ok"]);
}

#[test]
fn a_million_combining_marks_keep_memory_flat() {
    let mut s = screen(10, 2, "e");
    let marks = "\u{301}".repeat(1_000_000);
    s.feed(marks.as_bytes());
    assert!(s.cell(0, 0).unwrap().combining().len() <= 32);
}

#[test]
fn too_many_parameters_are_ignored_safely() {
    let params = "1;".repeat(10_000);
    let s = screen(10, 2, &format!("\x1b[{params}mok"));
    assert_screen!(s, ["ok"]);
}

#[test]
fn c1_bytes_and_garbage_print_nothing_harmful() {
    let mut s = screen(10, 2, "");
    s.feed(b"\x9b31m\x9d0;x\x07\x90q\x9cok");
    check_invariants(&s);
    assert!(s.take_replies().is_empty());
}

#[test]
fn events_queue_is_bounded() {
    let mut s = screen(10, 2, &"\x07".repeat(10_000));
    assert!(s.take_events().len() <= weft_screen_model::screen::MAX_PENDING_EVENTS);
    assert!(s.dropped().events > 0);
}

#[test]
fn tiny_screens_survive_everything() {
    let mut s = screen(1, 1, "");
    s.feed("中文\x1b[?69h\x1b[1;1s\x1b[5 @\x1b['}\x1b[?45h\x08\x08ab\u{301}\u{fe0f}\x1b[S\x1b[T\x1b[L\x1b[M".as_bytes());
    check_invariants(&s);
}

#[test]
fn osc_after_escape_and_controls_across_feeds_is_still_capped() {
    let mut s = screen(10, 2, "");
    s.feed(b"\x1b");
    s.feed(b"\x05\x00");
    s.feed(b"]2;");
    let chunk = vec![b'B'; 1 << 20];
    for _ in 0..3 {
        s.feed(&chunk);
    }
    s.feed(b"\x07ok");
    assert_eq!(s.title(), "");
    assert_screen!(s, ["ok"]);
}

#[test]
fn short_osc_after_escape_and_controls_applies() {
    let s = screen(10, 2, "\x1b\x05]2;t\x07");
    assert_eq!(s.title(), "t");
}

#[test]
fn an_unterminated_string_swallows_output_until_the_host_gives_up_on_it() {
    let mut s = weft_screen_model::Screen::new(20, 3);
    s.feed(b"\x1b]2;never ends");
    assert!(s.in_string());
    s.feed(b"swallowed");
    assert!(!s.text().contains("swallowed"));
    s.abandon_string();
    assert!(!s.in_string());
    s.feed(b"shown");
    assert!(s.text().contains("shown"), "{}", s.text());
    assert_eq!(s.dropped().strings, 1);
    // A DCS too, and nothing is counted for a string that ended.
    s.feed(b"\x1bP1$qm");
    assert!(s.in_string());
    s.feed(b"\x1b\\");
    assert!(!s.in_string());
    s.feed(b"\x1b]0;done\x07");
    assert!(!s.in_string());
    s.abandon_string();
    assert_eq!(s.dropped().strings, 1);
}

/// A window-name string (`ESC k`) left open, then lines that would scroll through in bulk: the
/// text goes to the name, never to the bulk path (the fuzzer's parser target found them
/// disagreeing). The input is fed as that target feeds it: a 1x1 screen, chunks of `op % 64`.
#[test]
fn an_open_window_name_string_keeps_lines_off_the_bulk_path() {
    let data: &[u8] = b"\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0hlPg\x18eo\r\n\x1b\x1bht;fk\n\n\n\n\n\n\x1b\x1b\n\n\x1b\x1b\x1b\x1b\x1b\x1b\n\n\n\n\n\n\n\n\n\n\n\x01\0\0k\n\n\n\n\n\n\n5mr\x18\x1b";
    let byte = |i: usize| usize::from(data.get(i).copied().unwrap_or(0));
    let mut s = weft_screen_model::Screen::with_scrollback(1 + byte(0) % 120, 1 + byte(1) % 50, 50);
    let mut rest = &data[2..];
    while let Some((&op, tail)) = rest.split_first() {
        let len = usize::from(op % 64).min(tail.len());
        s.feed(&tail[..len]);
        rest = &tail[len..];
        check_invariants(&s);
    }
    // The same at a size where whole screens of lines go by, the name string left open.
    let mut s = weft_screen_model::Screen::with_scrollback(20, 4, 50);
    let mut input = b"top\r\n\x1bkname ".to_vec();
    for i in 0..40 {
        input.extend_from_slice(format!("line {i}\r\n").as_bytes());
    }
    s.feed(&input);
    check_invariants(&s);
    s.feed(b"\x1b\\after\r\n");
    check_invariants(&s);
    assert!(
        rows(&s).iter().any(|r| r.starts_with("after")),
        "{:?}",
        rows(&s)
    );
}
