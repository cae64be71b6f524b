//! Fuzz the parser and screen with a script: the input is a series of steps, each feeding a
//! chunk of bytes (escape soup included) or resizing, at sizes taken from the input. Nothing may
//! panic, and after every step the screen must be whole: the cursor on it, every row as wide as
//! the screen, and history within its limit.
#![no_main]

use libfuzzer_sys::fuzz_target;
use weft_screen_model::Screen;

/// History kept: small, so that scrolling into it is exercised.
const HISTORY: usize = 50;

fuzz_target!(|data: &[u8]| {
    let byte = |i: usize| usize::from(data.get(i).copied().unwrap_or(0));
    let mut screen = Screen::with_scrollback(1 + byte(0) % 120, 1 + byte(1) % 50, HISTORY);
    let mut rest = data.get(2..).unwrap_or(&[]);
    while let Some((&op, tail)) = rest.split_first() {
        if op == 0xff && tail.len() >= 2 {
            // A resize between chunks; `resize` takes columns first.
            let (cols, rows) = (1 + usize::from(tail[0]) % 130, 1 + usize::from(tail[1]) % 60);
            screen.resize(cols, rows);
            assert_eq!((screen.cols(), screen.rows()), (cols, rows));
            rest = &tail[2..];
        } else {
            // A chunk of up to 64 bytes.
            let len = usize::from(op % 64).min(tail.len());
            screen.feed(&tail[..len]);
            rest = &tail[len..];
        }
        check(&screen);
    }
    let _ = screen.take_replies();
    let _ = screen.take_events();
});

/// The invariants that hold after every step.
fn check(screen: &Screen) {
    let cursor = screen.cursor_state();
    assert!(cursor.row < screen.rows() && cursor.col < screen.cols());
    assert_eq!(screen.visible_rows().count(), screen.rows());
    for row in screen.visible_rows() {
        assert_eq!(row.cells().len(), screen.cols());
    }
    assert!(screen.scrollback().len() <= HISTORY);
}
