//! Frames for terminals with fewer colours, or without synchronized output: colours come down
//! to the nearest the terminal has, and frames are still one buffer.

#![allow(clippy::unwrap_used)] // Test helpers may panic on failure.

use weft_renderer::{ColorDepth, Frame, Renderer, TerminalCaps};
use weft_screen_model::{Color, Screen};

/// A frame whose cells come from a screen fed with `input`.
fn frame_from(input: &[u8], cols: usize, rows: usize) -> Frame {
    let mut s = Screen::new(cols, rows);
    s.feed(input);
    let mut f = Frame::new(cols, rows);
    for r in 0..rows {
        f.put(r, 0, s.row(r).unwrap().cells());
    }
    f.set_cursor_from(&s.cursor_state(), 0, 0);
    f
}

/// Truecolour and 256-colour text, foreground, background and underline colour.
const COLOURFUL: &[u8] = b"\x1b[38;2;250;10;10;48;2;10;10;250mrgb\x1b[0m \
\x1b[38;5;196;48;5;21mpal\x1b[0m \x1b[4;58;2;0;200;0mul\x1b[0m \x1b[31mred";

fn render_with(depth: ColorDepth) -> (String, Screen) {
    let caps = TerminalCaps {
        depth,
        synchronized_output: false,
        ..TerminalCaps::default()
    };
    let mut renderer = Renderer::with_caps(caps);
    let mut frame = frame_from(COLOURFUL, 30, 2);
    let bytes = renderer.render(&mut frame);
    let mut term = Screen::new(30, 2);
    term.feed(&bytes);
    (String::from_utf8(bytes).unwrap(), term)
}

#[test]
fn a_256_colour_terminal_gets_the_nearest_palette_entries() {
    let (text, term) = render_with(ColorDepth::Palette256);
    assert!(!text.contains("38;2") && !text.contains("48;2") && !text.contains("58:2"));
    assert_eq!(term.cell(0, 0).unwrap().fg(), Color::Indexed(196));
    assert_eq!(term.cell(0, 0).unwrap().bg(), Color::Indexed(21));
    assert_eq!(term.cell(0, 4).unwrap().fg(), Color::Indexed(196));
    assert_eq!(
        term.cell(0, 8).unwrap().underline_color(),
        Color::Indexed(40)
    );
    assert_eq!(term.cell(0, 11).unwrap().fg(), Color::Indexed(1));
}

#[test]
fn a_16_colour_terminal_gets_only_ansi_colours() {
    let (text, term) = render_with(ColorDepth::Ansi16);
    assert!(!text.contains("38;2") && !text.contains("48;2") && !text.contains("38;5"));
    assert!(!text.contains("48;5"));
    assert_eq!(term.cell(0, 0).unwrap().fg(), Color::Indexed(9));
    assert_eq!(term.cell(0, 0).unwrap().bg(), Color::Indexed(4));
    assert_eq!(term.cell(0, 4).unwrap().fg(), Color::Indexed(9));
    assert_eq!(term.cell(0, 11).unwrap().fg(), Color::Indexed(1));
}

#[test]
fn a_truecolor_terminal_gets_the_colours_as_they_are() {
    let (text, term) = render_with(ColorDepth::TrueColor);
    assert!(text.contains("38;2;250;10;10"));
    assert_eq!(term.cell(0, 4).unwrap().fg(), Color::Indexed(196));
}

#[test]
fn without_synchronized_output_a_frame_is_still_one_buffer_without_2026() {
    let (text, _) = render_with(ColorDepth::TrueColor);
    assert!(!text.contains("2026"));
    let mut renderer = Renderer::new();
    let page = "x".repeat(400);
    let mut frame = frame_from(page.as_bytes(), 40, 10);
    let bytes = renderer.render(&mut frame);
    assert!(bytes.starts_with(b"\x1b[?2026h"), "the default still wraps");
    renderer.set_caps(TerminalCaps {
        synchronized_output: false,
        ..TerminalCaps::default()
    });
    let page = "y".repeat(400);
    let mut frame = frame_from(page.as_bytes(), 40, 10);
    let bytes = renderer.render(&mut frame);
    assert!(!String::from_utf8_lossy(&bytes).contains("2026"));
    assert!(bytes.ends_with(b"y") || String::from_utf8_lossy(&bytes).contains('y'));
}

#[test]
fn styled_underlines_and_links_degrade_to_plain_ones() {
    let input =
        b"\x1b[4:3;58:2::255:0:0mcurl\x1b[0m \x1b]8;id=a;https://x.test/\x1b\\link\x1b]8;;\x1b\\";
    let render = |caps: TerminalCaps| {
        let mut renderer = Renderer::with_caps(caps);
        let mut frame = frame_from(input, 20, 1);
        let bytes = renderer.render(&mut frame);
        let mut term = Screen::new(20, 1);
        term.feed(&bytes);
        (String::from_utf8(bytes).unwrap(), term)
    };
    let (text, term) = render(TerminalCaps::default());
    assert!(text.contains("4:3") && text.contains("58:2") && text.contains("]8;id=a;"));
    assert!(term.cell(0, 6).unwrap().hyperlink().is_some());
    let plain = TerminalCaps {
        underline_styles: false,
        hyperlinks: false,
        ..TerminalCaps::default()
    };
    let (text, term) = render(plain);
    assert!(!text.contains("4:3") && !text.contains("58") && !text.contains("https"));
    let curl = term.cell(0, 0).unwrap();
    assert_eq!(
        curl.attrs().underline(),
        weft_screen_model::UnderlineStyle::Single
    );
    assert_eq!(curl.underline_color(), Color::Default);
    assert_eq!(term.cell(0, 5).unwrap().text(), "l");
    assert!(term.cell(0, 5).unwrap().hyperlink().is_none());
}

#[test]
fn learning_more_capabilities_repaints_only_what_was_sent_as_less() {
    let basic = TerminalCaps {
        depth: ColorDepth::Palette256,
        synchronized_output: false,
        underline_styles: false,
        hyperlinks: false,
        ..TerminalCaps::default()
    };
    // Plain text in palette colours: nothing was degraded, so the terminal's answers (sync
    // output, RGB colours) cost no second full frame.
    let mut renderer = Renderer::with_caps(basic);
    let plain = b"\x1b[31mred\x1b[0m text";
    renderer.render(&mut frame_from(plain, 20, 2));
    renderer.set_caps(TerminalCaps::default());
    let again = renderer.render(&mut frame_from(plain, 20, 2));
    assert!(
        !String::from_utf8_lossy(&again).contains("red"),
        "repainted: {again:?}"
    );
    // An RGB colour sent as a palette entry is drawn again in RGB once the terminal has them.
    let mut renderer = Renderer::with_caps(basic);
    renderer.render(&mut frame_from(COLOURFUL, 30, 2));
    renderer.set_caps(TerminalCaps::default());
    let again = String::from_utf8(renderer.render(&mut frame_from(COLOURFUL, 30, 2))).unwrap();
    assert!(again.contains("38;2;250;10;10"), "{again:?}");
    // Fewer capabilities than assumed: everything shown is drawn again with what is left.
    let mut renderer = Renderer::with_caps(TerminalCaps::default());
    renderer.render(&mut frame_from(plain, 20, 2));
    renderer.set_caps(basic);
    let again = renderer.render(&mut frame_from(plain, 20, 2));
    assert!(String::from_utf8_lossy(&again).contains("red"));
}
