//! Fuzz the parser and screen: arbitrary bytes, fed in two halves with a resize between them,
//! at sizes taken from the input, must never panic and must keep the cursor on the screen.
#![no_main]

use libfuzzer_sys::fuzz_target;
use weft_screen_model::Screen;

fuzz_target!(|data: &[u8]| {
    let (size, bytes) = data.split_at(data.len().min(5));
    let byte = |i: usize, default: u8| usize::from(size.get(i).copied().unwrap_or(default));
    let (cols, rows) = (1 + byte(0, 80) % 120, 1 + byte(1, 24) % 50);
    let split = byte(2, 0);
    let (new_cols, new_rows) = (1 + byte(3, 80) % 120, 1 + byte(4, 24) % 50);
    let mut screen = Screen::with_scrollback(cols, rows, 100);
    let (a, b) = bytes.split_at(split.min(bytes.len()));
    screen.feed(a);
    // `resize` takes columns first.
    screen.resize(new_cols, new_rows);
    assert_eq!((screen.cols(), screen.rows()), (new_cols, new_rows));
    screen.feed(b);
    let cursor = screen.cursor_state();
    assert!(cursor.row < screen.rows() && cursor.col < screen.cols());
    let _ = screen.take_replies();
});
