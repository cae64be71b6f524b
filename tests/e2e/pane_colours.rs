//! Colours programs change as they change them in a terminal (OSC 4 palette entries, OSC
//! 10/11 default colours, OSC 12 the cursor's colour) and tmux's `pane-colours` and
//! `cursor-colour`: drawn in the pane that set them only, given back when reset, and the
//! cursor's colour given back to the user's terminal when the client leaves.

use weft_testkit::{Color, FakeTerminal, Rgb, Screen, TestTerminal};
use weft_tests::{TestServer, TEST_SHELL};

/// A truecolor terminal's client of a new session `name`, at its prompt.
fn truecolor_client(server: &TestServer, name: &str) -> TestTerminal {
    let mut args = vec!["new", "-s", name, "--"];
    args.extend_from_slice(TEST_SHELL);
    let env = [("TERM", "xterm-256color"), ("COLORTERM", "truecolor")];
    let mut client = server.client_answering(&args, 80, 24, &env, FakeTerminal::modern_dark());
    client.wait_for_text("$").expect("prompt");
    client
}

/// The row on which `text` starts at column `col`.
fn row_of(s: &Screen, col: usize, text: &str) -> Option<usize> {
    (0..s.rows()).find(|&r| {
        text.chars()
            .enumerate()
            .all(|(i, ch)| s.cell(r, col + i).is_some_and(|c| c.ch() == ch))
    })
}

fn fg(s: &Screen, row: usize, col: usize) -> Option<Color> {
    s.cell(row, col).map(|c| c.fg())
}

fn bg(s: &Screen, row: usize, col: usize) -> Option<Color> {
    s.cell(row, col).map(|c| c.bg())
}

fn ok(server: &TestServer, args: &[&str]) {
    let out = server.weft(args);
    assert!(out.status.success(), "{args:?}: {out:?}");
}

#[test]
fn a_programs_palette_and_background_are_drawn_in_its_pane_only_until_reset() {
    let server = TestServer::new("pcolours");
    let mut c = truecolor_client(&server, "pc");
    ok(&server, &["split-window", "-h", "-t", "pc"]);
    // Its shell's prompt, whatever it is.
    c.wait_for(|s| s.cell(0, 41).is_some_and(|c| c.ch() != ' '))
        .unwrap();
    // The right pane (focused, from column 41) makes red another red and its background
    // dark blue, as a theme script does.
    c.send_text(
        "printf '\\033]4;1;#ff1010\\007\\033]11;#102030\\007\\033[31mRED%s\\033[0m\\n' $((6*7))\r",
    )
    .unwrap();
    let red = Color::Rgb(Rgb::new(0xff, 0x10, 0x10));
    let dark = Color::Rgb(Rgb::new(0x10, 0x20, 0x30));
    c.wait_for(|s| {
        row_of(s, 41, "RED42")
            .is_some_and(|r| fg(s, r, 41) == Some(red) && bg(s, r, 70) == Some(dark))
    })
    .unwrap();
    let screen = c.screen();
    let r = row_of(screen, 41, "RED42").unwrap();
    // The other pane keeps the terminal's own colours.
    assert_eq!(bg(screen, r, 5), Some(Color::Default));
    assert_eq!(bg(screen, 20, 5), Some(Color::Default));
    // Reset (OSC 104, OSC 111): the terminal's red and background again.
    c.send_text("printf '\\033]104\\007\\033]111\\007'\r")
        .unwrap();
    c.wait_for(|s| {
        row_of(s, 41, "RED42").is_some_and(|r| {
            fg(s, r, 41) == Some(Color::Indexed(1)) && bg(s, r, 70) == Some(Color::Default)
        })
    })
    .unwrap();
}

#[test]
fn pane_colours_recolours_an_entry_and_refuses_what_is_not_a_colour() {
    let server = TestServer::new("panecolours");
    let mut c = truecolor_client(&server, "pc");
    // An X11 colour name, as tmux takes it.
    ok(
        &server,
        &["set-option", "-g", "pane-colours[2]", "LimeGreen"],
    );
    c.send_text("printf '\\033[32mGREEN%s\\033[0m\\n' $((6*7))\r")
        .unwrap();
    let green = Color::Rgb(Rgb::new(0x32, 0xcd, 0x32));
    c.wait_for(|s| row_of(s, 0, "GREEN42").is_some_and(|r| fg(s, r, 0) == Some(green)))
        .unwrap();
    // Unset: the terminal's own green.
    ok(&server, &["set-option", "-gu", "pane-colours"]);
    c.wait_for(|s| row_of(s, 0, "GREEN42").is_some_and(|r| fg(s, r, 0) == Some(Color::Indexed(2))))
        .unwrap();
    let out = server.weft(&["set-option", "-g", "pane-colours[3]", "notacolour"]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("a colour"), "{said}");
    let out = server.weft(&["set-option", "-g", "cursor-colour", "reddish"]);
    assert!(!out.status.success());
}

#[test]
fn the_cursor_takes_its_colour_from_the_option_then_the_program_and_is_given_back() {
    let server = TestServer::new("ccolour");
    let mut c = truecolor_client(&server, "cc");
    let cursor = |s: &Screen| s.cursor_state().colour;
    ok(&server, &["set-option", "-g", "cursor-colour", "#ff8000"]);
    c.wait_for(|s| cursor(s) == Some(Rgb::new(0xff, 0x80, 0)))
        .unwrap();
    // A program's own (vim's colour schemes set it) goes over the option's...
    c.send_text("printf '\\033]12;#00ff00\\007'\r").unwrap();
    c.wait_for(|s| cursor(s) == Some(Rgb::new(0, 0xff, 0)))
        .unwrap();
    // By name too, as `echo -ne '\e]12;red\a'` recipes set it.
    c.send_text("printf '\\033]12;DarkOrange\\007'\r").unwrap();
    c.wait_for(|s| cursor(s) == Some(Rgb::new(0xff, 0x8c, 0)))
        .unwrap();
    // ...until it gives it back (OSC 112).
    c.send_text("printf '\\033]112\\007'\r").unwrap();
    c.wait_for(|s| cursor(s) == Some(Rgb::new(0xff, 0x80, 0)))
        .unwrap();
    // Leaving gives the user's terminal its own cursor colour back.
    ok(&server, &["detach-client", "-s", "cc"]);
    c.wait_exit().unwrap();
    let received = c.fake_terminal().unwrap().received().to_vec();
    let text = String::from_utf8_lossy(&received);
    let set = text.rfind("\x1b]12;").expect("the colour was sent");
    assert!(text[set..].contains("\x1b]112\x07"), "not given back");
}

#[test]
fn colours_a_configuration_file_sets_reach_every_new_pane() {
    let server = TestServer::new("confcolours");
    let conf = weft_tests::write_file(
        &server,
        "colours.conf",
        "set -g cursor-colour '#ff8000'\nset -g pane-colours[2] '#00ff00'\n",
    );
    let mut args = vec!["-f", conf.to_str().unwrap(), "new", "-s", "cf", "--"];
    args.extend_from_slice(TEST_SHELL);
    let env = [("TERM", "xterm-256color"), ("COLORTERM", "truecolor")];
    let mut c = server.client_answering(&args, 80, 24, &env, FakeTerminal::modern_dark());
    c.wait_for_text("$").unwrap();
    let orange = Some(Rgb::new(0xff, 0x80, 0));
    let green = Color::Rgb(Rgb::new(0, 0xff, 0));
    for window in 0..2 {
        c.wait_for(|s| s.cursor_state().colour == orange).unwrap();
        c.send_text("printf '\\033[32mGREEN%s\\033[0m\\n' $((6*7))\r")
            .unwrap();
        c.wait_for(|s| row_of(s, 0, "GREEN42").is_some_and(|r| fg(s, r, 0) == Some(green)))
            .unwrap();
        if window == 0 {
            ok(&server, &["new-window", "-t", "cf"]);
            c.wait_for(|s| row_of(s, 0, "GREEN42").is_none()).unwrap();
        }
    }
}
