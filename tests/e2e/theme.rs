//! The chrome's theme: a client whose terminal reports a light background draws the status
//! bar in the light set, a dark one in tmux's green; `set -g theme` overrides the terminal's
//! say, and a style the user set wins over any theme.

use weft_testkit::{Color, FakeTerminal, TestTerminal};
use weft_tests::{stderr_of, TestServer, TEST_SHELL};

/// `TERM` and `COLORTERM` of a modern terminal that says it has truecolor.
const TRUECOLOR_ENV: &[(&str, &str)] = &[("TERM", "xterm-256color"), ("COLORTERM", "truecolor")];
/// The client's size; the status line is its last row.
const ROWS: u16 = 24;

/// A client of a new session `name` on a terminal answering as `fake`, at its prompt.
fn client_on(server: &TestServer, name: &str, fake: FakeTerminal) -> TestTerminal {
    let mut args = vec!["new", "-s", name, "--"];
    args.extend_from_slice(TEST_SHELL);
    let mut client = server.client_answering(&args, 80, ROWS, TRUECOLOR_ENV, fake);
    client.wait_for_text("$").expect("prompt");
    client
}

/// Waits until the status line's first cell has background `bg`.
fn wait_for_status_bg(client: &mut TestTerminal, bg: Color) {
    let row = usize::from(ROWS - 1);
    let seen = client.wait_for(|s| s.cell(row, 0).is_some_and(|c| c.pen().bg == bg));
    let cell = client.screen().cell(row, 0).map(|c| c.pen().clone());
    assert!(seen.is_ok(), "status bar bg {bg:?}, have {cell:?}");
}

/// Runs a weft command against the server, which must succeed.
fn weft_ok(server: &TestServer, args: &[&str]) {
    let out = server.weft(args);
    assert!(out.status.success(), "{args:?}: {}", stderr_of(&out));
}

#[test]
fn a_light_terminal_gets_the_light_status_bar_and_a_dark_one_tmuxs_green() {
    let server = TestServer::new("theme-auto");
    let mut light = client_on(&server, "l", FakeTerminal::modern_light());
    wait_for_status_bg(&mut light, Color::Indexed(252));
    let row = usize::from(ROWS - 1);
    let pen = light.screen().cell(row, 0).map(|c| c.pen().fg);
    assert_eq!(pen, Some(Color::Indexed(0)), "black text on the light bar");
    let mut dark = client_on(&server, "d", FakeTerminal::modern_dark());
    wait_for_status_bg(&mut dark, Color::Indexed(2));
    // The option itself still shows tmux's default.
    let out = server.weft(&["show-options", "-g", "status-style"]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("bg=green,fg=black"),
        "{out:?}"
    );
}

#[test]
fn set_theme_dark_forces_tmuxs_look_and_a_set_style_wins_over_any_theme() {
    let server = TestServer::new("theme-set");
    let mut light = client_on(&server, "l", FakeTerminal::modern_light());
    wait_for_status_bg(&mut light, Color::Indexed(252));
    weft_ok(&server, &["set", "-g", "theme", "dark"]);
    wait_for_status_bg(&mut light, Color::Indexed(2));
    weft_ok(&server, &["set", "-g", "theme", "light"]);
    wait_for_status_bg(&mut light, Color::Indexed(252));
    weft_ok(&server, &["set", "-g", "status-style", "bg=red"]);
    wait_for_status_bg(&mut light, Color::Indexed(1));
    weft_ok(&server, &["set", "-gu", "status-style"]);
    wait_for_status_bg(&mut light, Color::Indexed(252));
}
