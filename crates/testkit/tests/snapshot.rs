//! insta snapshots of the screen (feature `snapshot`).
#![cfg(feature = "snapshot")]

use weft_testkit::{assert_screen_snapshot, assert_screen_style_snapshot, TestTerminal};

#[test]
fn text_and_style_snapshots() {
    let mut term = TestTerminal::spawn([
        "sh",
        "-c",
        "printf 'Saved 2 files   \\n\\n\\033[1;31merror\\033[m: \\033[4mdisk\\033[m'; read x",
    ])
    .size(30, 5)
    .start()
    .unwrap();
    term.expect_text("disk").wait().unwrap();
    assert_screen_snapshot!(term, @r"
    Saved 2 files

    error: disk
    -- 30x5, cursor 2,11 --
    ");
    assert_screen_style_snapshot!(term, @r"
    Saved 2 files

    error: disk
    -- 30x5, cursor 2,11 --
    -- styles --
    2: 0..5 fg=1 bold | 7..11 underline=single
    ");
}

#[test]
fn file_snapshots_by_name_and_by_test() {
    let mut term = TestTerminal::spawn([
        "sh",
        "-c",
        "printf '\\033[7m menu \\033[m\\n> item'; read x",
    ])
    .size(20, 3)
    .start()
    .unwrap();
    term.expect_cursor(1, 6).wait().unwrap();
    assert_screen_snapshot!("menu_text", term);
    assert_screen_style_snapshot!(term);
}
