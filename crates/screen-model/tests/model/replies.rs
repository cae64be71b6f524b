//! Replies to the program: DA, DSR/CPR, DECRQM, colour queries, DECRQSS, XTWINOPS. Nothing a
//! program prints is ever echoed back.

use crate::support::*;

fn replies(input: &str) -> String {
    let mut s = screen(80, 24, input);
    String::from_utf8(s.take_replies()).unwrap()
}

#[test]
fn device_attributes() {
    assert_eq!(replies("\x1b[c"), "\x1b[?62;22c");
    assert_eq!(replies("\x1b[0c"), "\x1b[?62;22c");
    assert_eq!(replies("\x1b[>c"), "\x1b[>1;10;0c");
}

#[test]
fn status_and_cursor_position_reports() {
    assert_eq!(replies("\x1b[5n"), "\x1b[0n");
    assert_eq!(replies("\x1b[3;7H\x1b[6n"), "\x1b[3;7R");
    assert_eq!(replies("\x1b[3;7H\x1b[?6n"), "\x1b[?3;7R");
    assert_eq!(replies("\x1b[5;10r\x1b[?6h\x1b[2;2H\x1b[6n"), "\x1b[2;2R");
}

#[test]
fn mode_reports() {
    assert_eq!(replies("\x1b[?2004h\x1b[?2004$p"), "\x1b[?2004;1$y");
    assert_eq!(replies("\x1b[?2004$p"), "\x1b[?2004;2$y");
    assert_eq!(replies("\x1b[?9999$p"), "\x1b[?9999;0$y");
    assert_eq!(replies("\x1b[4h\x1b[4$p"), "\x1b[4;1$y");
}

#[test]
fn colour_queries_are_answered_from_weft_palette_with_the_same_terminator() {
    assert_eq!(replies("\x1b]4;1;?\x07"), "\x1b]4;1;rgb:cdcd/0000/0000\x07");
    assert_eq!(
        replies("\x1b]11;?\x1b\\"),
        "\x1b]11;rgb:0000/0000/0000\x1b\\"
    );
    assert_eq!(
        replies("\x1b]4;1;#ff8000\x07\x1b]4;1;?\x07"),
        "\x1b]4;1;rgb:ffff/8080/0000\x07"
    );
    assert_eq!(
        replies("\x1b]4;1;#ff8000\x07\x1b]104\x07\x1b]4;1;?\x07"),
        "\x1b]4;1;rgb:cdcd/0000/0000\x07"
    );
}

#[test]
fn decrqss_answers_from_state_and_never_echoes() {
    assert_eq!(replies("\x1b[1;31m\x1bP$qm\x1b\\"), "\x1bP1$r0;1;31m\x1b\\");
    assert_eq!(replies("\x1b[2;10r\x1bP$qr\x1b\\"), "\x1bP1$r2;10r\x1b\\");
    let evil = replies("\x1bP$q\x1b[31m;rm -rf ~\r\x1b\\");
    assert!(!evil.contains("rm -rf"), "{evil:?}");
    assert_eq!(replies("\x1bP$qzz\x1b\\"), "\x1bP0$r\x1b\\");
}

#[test]
fn window_size_reports_only() {
    assert_eq!(replies("\x1b[18t"), "\x1b[8;24;80t");
    assert_eq!(replies("\x1b[19t"), "\x1b[9;24;80t");
    // Title reports would let a program type into the shell: never answered.
    assert_eq!(replies("\x1b]2;$(reboot)\x07\x1b[21t\x1b[20t"), "");
}

#[test]
fn reply_queue_is_bounded() {
    let mut s = screen(80, 24, &"\x1b[6n".repeat(100_000));
    assert!(s.take_replies().len() <= weft_screen_model::screen::MAX_PENDING_REPLY_BYTES);
    assert!(s.dropped().reply_bytes > 0);
}
