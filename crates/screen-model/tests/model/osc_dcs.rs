//! OSC titles, hyperlinks, clipboard, cwd, prompt marks; DCS strings.

use crate::support::*;
use weft_screen_model::Event;

#[test]
fn titles_from_osc_0_1_2() {
    let s = screen(5, 1, "\x1b]0;both\x07");
    assert_eq!((s.title(), s.icon_title()), ("both", "both"));
    let s = screen(5, 1, "\x1b]2;win\x1b\\\x1b]1;icon\x07");
    assert_eq!((s.title(), s.icon_title()), ("win", "icon"));
}

#[test]
fn titles_keep_semicolons_drop_controls_and_are_capped() {
    let s = screen(5, 1, "\x1b]2;a;b\x07");
    assert_eq!(s.title(), "a;b");
    let s = screen(5, 1, "\x1b]2;a\u{9b}b\x07");
    assert_eq!(s.title(), "ab");
    let long = "x".repeat(5000);
    let s = screen(5, 1, &format!("\x1b]2;{long}\x07"));
    assert_eq!(s.title().len(), 1024);
}

#[test]
fn title_change_is_an_event() {
    let mut s = screen(5, 1, "\x1b]2;hello\x07");
    assert_eq!(s.take_events(), vec![Event::TitleChanged("hello".into())]);
}

#[test]
fn hyperlinks_mark_the_cells_printed_inside_them() {
    let s = screen(
        10,
        1,
        "a\x1b]8;id=x;https://example.com\x1b\\link\x1b]8;;\x1b\\b",
    );
    assert!(s.cell(0, 0).unwrap().hyperlink().is_none());
    let link = s.cell(0, 1).unwrap().hyperlink().unwrap();
    assert_eq!((&*link.id, &*link.uri), ("x", "https://example.com"));
    assert!(s.cell(0, 4).unwrap().hyperlink().is_some());
    assert!(s.cell(0, 5).unwrap().hyperlink().is_none());
}

#[test]
fn clipboard_writes_and_reads_are_events_never_replies() {
    let mut s = screen(5, 1, "\x1b]52;c;aGVsbG8=\x07\x1b]52;c;?\x07");
    assert_eq!(
        s.take_events(),
        vec![
            Event::ClipboardWrite {
                selection: "c".into(),
                base64: b"aGVsbG8=".to_vec()
            },
            Event::ClipboardRead {
                selection: "c".into()
            }
        ]
    );
    assert!(s.take_replies().is_empty());
}

#[test]
fn cwd_and_prompt_marks() {
    let mut s = screen(5, 2, "\x1b]7;file://host/tmp\x07\r\n\x1b]133;A\x07");
    assert_eq!(s.cwd(), Some("file://host/tmp"));
    let events = s.take_events();
    assert!(events.contains(&Event::CwdChanged("file://host/tmp".into())));
    assert!(events.contains(&Event::Prompt {
        mark: weft_screen_model::handler::PromptMark::PromptStart,
        row: 1,
        status: None,
    }));
    let mut s = screen(5, 2, "\x1b]133;D;127\x07\x1b]133;D\x1b\\");
    let events = s.take_events();
    let ends: Vec<Option<i32>> = events
        .iter()
        .filter_map(|e| match e {
            Event::Prompt { status, .. } => Some(*status),
            _ => None,
        })
        .collect();
    assert_eq!(ends, [Some(127), None]);
}

#[test]
fn dcs_and_apc_strings_are_consumed_without_printing() {
    let s = screen(
        10,
        1,
        "a\x1bPq#0;2;0;0;0~~\x1b\\b\x1b_apc stuff\x1b\\c\x1b^pm\x1b\\d",
    );
    assert_screen!(s, ["abcd"]);
}

#[test]
fn unknown_osc_is_ignored() {
    let s = screen(10, 1, "a\x1b]999;whatever\x07b");
    assert_screen!(s, ["ab"]);
}

#[test]
fn sgr_reset_keeps_an_open_hyperlink() {
    let s = screen(10, 1, "\x1b]8;;http://x\x07\x1b[1ma\x1b[0mb\x1b]8;;\x07c");
    assert!(s.cell(0, 1).unwrap().hyperlink().is_some());
    assert!(s.cell(0, 2).unwrap().hyperlink().is_none());
}

#[test]
fn cancelled_osc_is_not_applied() {
    let s = screen(10, 1, "\x1b]2;half\x18ok");
    assert_eq!(s.title(), "");
    assert_screen!(s, ["ok"]);
}

#[test]
fn sized_text_is_drawn_at_normal_size_not_lost() {
    // Kitty's text sizing protocol (OSC 66): weft draws the text, semicolons kept, controls
    // dropped, in the current pen, as a terminal without the protocol would.
    let s = screen(12, 1, "a\x1b]66;s=2;Hi;there\x07b\x1b]66;;\x08x\x1b\\");
    assert_eq!(rows(&s)[0].trim_end(), "aHi;therebx");
}

#[test]
fn a_window_name_string_is_an_event_and_never_printed() {
    // screen's `ESC k name ESC \`, which tmux reads: ended by ST or BEL, cancelled by CAN.
    let mut s = screen(
        20,
        2,
        "a\x1bkvim: x\x1b\\b\x1bk\u{e9}t\u{e9}\x07c\x1bklost\x18d",
    );
    assert_eq!(rows(&s)[0].trim_end(), "abcd");
    assert_eq!(
        s.take_events(),
        vec![
            Event::WindowNamed("vim: x".into()),
            Event::WindowNamed("\u{e9}t\u{e9}".into())
        ]
    );
    // Controls inside are dropped, the name is capped, and another escape ends it and acts.
    let long = "n".repeat(400);
    let mut s = screen(20, 2, &format!("\x1bk{long}\n\x1b[2Cx"));
    assert_eq!(rows(&s)[0].trim_end(), "  x");
    assert_eq!(s.take_events(), vec![Event::WindowNamed("n".repeat(256))]);
    // Left open, the stream is inside a string (the host's idle timeout ends it).
    let s = screen(20, 2, "\x1bkopen");
    assert!(s.in_string());
}
