//! `window-style` and `window-active-style`: the colours panes show where their programs use
//! the default ones, the active pane set apart (a common way to dim the other panes).

use weft_testkit::{Color, Screen};
use weft_tests::{attached_session, TestServer};

fn bg(s: &Screen, row: usize, col: usize) -> Option<Color> {
    s.cell(row, col).map(|c| c.bg())
}

#[test]
fn the_active_pane_and_the_others_take_their_styles_and_swap_with_focus() {
    let server = TestServer::new("panestyle");
    let mut c = attached_session(&server, "st", None);
    for (name, value) in [
        ("window-style", "bg=colour236"),
        ("window-active-style", "bg=colour232"),
    ] {
        let out = server.weft(&["set-option", "-g", name, value]);
        assert!(out.status.success(), "{out:?}");
    }
    let out = server.weft(&["split-window", "-h", "-t", "st"]);
    assert!(out.status.success(), "{out:?}");
    // Left: the other pane; right (the new one): active. Blank cells take the colours.
    c.wait_for(|s| {
        bg(s, 10, 5) == Some(Color::Indexed(236)) && bg(s, 10, 60) == Some(Color::Indexed(232))
    })
    .unwrap();
    // A program's own colours stay.
    c.send_text("printf '\\033[41mRED\\033[0m\\n'").unwrap();
    c.send_keys("Enter").unwrap();
    // The printed line starts just right of the border, in column 41.
    let printed = |s: &Screen, r: usize| {
        let ch = |col| s.cell(r, col).map(|c| c.ch());
        ch(41) == Some('R') && ch(42) == Some('E') && ch(43) == Some('D')
    };
    c.wait_for(|s| (0..23).any(|r| printed(s, r) && bg(s, r, 41) == Some(Color::Indexed(1))))
        .unwrap();
    // What was typed (or the prompt before it), echoed at once, is in the active pane's
    // colours too.
    let first = c.screen().cell(0, 41).map(|c| (c.ch() != ' ', c.bg()));
    assert_eq!(first, Some((true, Color::Indexed(232))));
    // Focus moves: the colours follow it.
    let out = server.weft(&["select-pane", "-L", "-t", "st"]);
    assert!(out.status.success(), "{out:?}");
    c.wait_for(|s| {
        bg(s, 10, 5) == Some(Color::Indexed(232)) && bg(s, 10, 60) == Some(Color::Indexed(236))
    })
    .unwrap();
    // Back to the default: no colours of weft's own.
    let out = server.weft(&["set-option", "-gu", "window-style"]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["set-option", "-gu", "window-active-style"]);
    assert!(out.status.success(), "{out:?}");
    c.wait_for(|s| bg(s, 10, 5) == Some(Color::Default) && bg(s, 10, 60) == Some(Color::Default))
        .unwrap();
}

#[test]
fn border_arrows_point_at_the_active_pane() {
    let server = TestServer::new("arrows");
    let mut c = attached_session(&server, "a", None);
    let out = server.weft(&["set", "-g", "pane-border-indicators", "arrows"]);
    assert!(out.status.success(), "{out:?}");
    let out = server.weft(&["split-window", "-h", "-t", "a"]);
    assert!(out.status.success(), "{out:?}");
    // The new pane, on the right, has the focus: the arrow on the border beside its second
    // row points right, at it.
    c.wait_for(|s| s.text().lines().nth(1).is_some_and(|l| l.contains('→')))
        .unwrap();
    let out = server.weft(&["select-pane", "-L", "-t", "a"]);
    assert!(out.status.success(), "{out:?}");
    c.wait_for(|s| s.text().lines().nth(1).is_some_and(|l| l.contains('←')))
        .unwrap();
    // Off: only the border's lines.
    let out = server.weft(&["set", "-g", "pane-border-indicators", "off"]);
    assert!(out.status.success(), "{out:?}");
    c.wait_for(|s| !s.text().contains('←')).unwrap();
}
