//! Fuzz the parser and screen: arbitrary bytes, fed whole and split, at a size taken from the
//! input, must never panic and must keep the cursor on the screen.
#![no_main]

use libfuzzer_sys::fuzz_target;
use screen_model::Screen;

fuzz_target!(|data: &[u8]| {
    let (size, bytes) = data.split_at(data.len().min(3));
    let cols = 1 + usize::from(size.first().copied().unwrap_or(80)) % 120;
    let rows = 1 + usize::from(size.get(1).copied().unwrap_or(24)) % 50;
    let split = usize::from(size.get(2).copied().unwrap_or(0));
    let mut screen = Screen::with_scrollback(cols, rows, 100);
    let (a, b) = bytes.split_at(split.min(bytes.len()));
    screen.feed(a);
    screen.resize(rows, cols);
    screen.feed(b);
    let cursor = screen.cursor_state();
    assert!(cursor.row < screen.rows() && cursor.col < screen.cols());
    let _ = screen.take_replies();
});
