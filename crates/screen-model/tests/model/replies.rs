//! Replies to the program: DA, DSR/CPR, DECRQM, colour queries, DECRQSS, XTWINOPS. Nothing a
//! program prints is ever echoed back.

use crate::support::*;
use weft_screen_model::palette::HostColors;
use weft_screen_model::{Rgb, Screen};

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
fn colour_queries_are_answered_from_what_the_program_set_with_the_same_terminator() {
    // Nothing known of the user's terminal and nothing set: no answer at all.
    assert_eq!(replies("\x1b]4;1;?\x07"), "");
    assert_eq!(replies("\x1b]11;?\x1b\\"), "");
    assert_eq!(
        replies("\x1b]4;1;#ff8000\x07\x1b]4;1;?\x07"),
        "\x1b]4;1;rgb:ffff/8080/0000\x07"
    );
    assert_eq!(
        replies("\x1b]11;#102030\x1b\\\x1b]11;?\x1b\\"),
        "\x1b]11;rgb:1010/2020/3030\x1b\\"
    );
    assert_eq!(
        replies("\x1b]4;1;#ff8000\x07\x1b]104\x07\x1b]4;1;?\x07"),
        ""
    );
}

fn host() -> std::sync::Arc<HostColors> {
    let mut ansi = [None; 16];
    ansi[1] = Some(Rgb::new(0xcc, 0x22, 0x11));
    std::sync::Arc::new(HostColors {
        foreground: Some(Rgb::new(0x20, 0x20, 0x20)),
        background: Some(Rgb::new(0xfa, 0xfa, 0xf0)),
        cursor: None,
        ansi,
        dark: None,
    })
}

#[test]
fn colour_queries_are_answered_from_the_host_when_the_program_set_nothing() {
    let mut screen = Screen::new(20, 5);
    screen.set_host_colors(host());
    screen.feed(b"\x1b]11;?\x07\x1b]10;?\x1b\\\x1b]4;1;?\x07\x1b]4;2;?\x07\x1b]12;?\x07");
    assert_eq!(
        String::from_utf8_lossy(&screen.take_replies()),
        "\x1b]11;rgb:fafa/fafa/f0f0\x07\x1b]10;rgb:2020/2020/2020\x1b\\\x1b]4;1;rgb:cccc/2222/1111\x07"
    );
    // What the program set wins over the host's.
    screen.feed(b"\x1b]4;1;#000001\x07\x1b]4;1;?\x07");
    assert_eq!(
        String::from_utf8_lossy(&screen.take_replies()),
        "\x1b]4;1;rgb:0000/0000/0101\x07"
    );
}

#[test]
fn colour_scheme_reports_follow_the_host_and_mode_2031() {
    let mut screen = Screen::new(20, 5);
    // Unknown: DSR 996 goes unanswered.
    screen.feed(b"\x1b[?996n");
    assert!(screen.take_replies().is_empty());
    screen.set_host_colors(host());
    screen.feed(b"\x1b[?996n\x1b[?2031$p");
    assert_eq!(
        String::from_utf8_lossy(&screen.take_replies()),
        "\x1b[?997;2n\x1b[?2031;2$y"
    );
    // Without 2031 a change is not reported; with it, each change of scheme is, once.
    let dark = std::sync::Arc::new(HostColors {
        dark: Some(true),
        ..HostColors::default()
    });
    screen.set_host_colors(dark.clone());
    assert!(screen.take_replies().is_empty());
    screen.feed(b"\x1b[?2031h");
    screen.set_host_colors(host());
    screen.set_host_colors(host());
    screen.set_host_colors(dark);
    assert_eq!(
        String::from_utf8_lossy(&screen.take_replies()),
        "\x1b[?997;2n\x1b[?997;1n"
    );
}

#[test]
fn xtversion_names_weft_itself() {
    assert_eq!(
        replies("\x1b[>q"),
        format!("\x1bP>|weft {}\x1b\\", env!("CARGO_PKG_VERSION"))
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
