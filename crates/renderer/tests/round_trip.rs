//! The renderer is checked by round trip: its output, applied to a screen model that shows the
//! previous frame, gives the new frame.

#![allow(clippy::unwrap_used)] // Test helpers may panic on failure.

use proptest::prelude::*;
use weft_renderer::{Frame, Renderer};
use weft_screen_model::{Cell, Screen};

/// What a terminal shows of a cell (DECSCA protection is not visible).
fn visible(cell: &Cell) -> (String, usize, String) {
    (
        cell.text(),
        cell.width(),
        format!(
            "{:?}/{:?}/{:?}/{:?}/{:?}",
            cell.fg(),
            cell.bg(),
            cell.attrs().without_protection(),
            cell.underline_color(),
            cell.hyperlink().map(|l| l.uri.to_string())
        ),
    )
}

fn assert_shows(term: &Screen, frame: &Frame) {
    for r in 0..frame.rows() {
        for c in 0..frame.cols() {
            let want = &frame.row(r)[c];
            let got = term.cell(r, c).unwrap();
            assert_eq!(visible(got), visible(want), "cell {r},{c}");
        }
    }
    let cur = term.cursor_state();
    match frame.cursor {
        Some((r, c)) => {
            assert_eq!((cur.row, cur.col), (r, c), "cursor");
            assert!(cur.visible, "cursor shown");
        }
        None => assert!(!cur.visible, "cursor hidden"),
    }
}

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

fn check_pair(a: &[u8], b: &[u8], cols: usize, rows: usize) {
    check_pair_synced(a, b, cols, rows, true);
}

/// [`check_pair`] for a terminal with synchronized output or without.
fn check_pair_synced(a: &[u8], b: &[u8], cols: usize, rows: usize, synchronized: bool) {
    let mut term = Screen::new(cols, rows);
    let mut renderer = Renderer::with_caps(weft_renderer::TerminalCaps {
        synchronized_output: synchronized,
        ..Default::default()
    });
    let mut first = frame_from(a, cols, rows);
    term.feed(&renderer.render(&mut first));
    assert_shows(&term, &first);
    let mut second = frame_from(b, cols, rows);
    let bytes = renderer.render(&mut second);
    term.feed(&bytes);
    assert_shows(&term, &second);
}

#[test]
fn styled_text_round_trips() {
    check_pair(
        b"\x1b[1;31mred\x1b[0m plain\r\n\x1b[4:3;58:5:2mcurly\x1b[m",
        b"\x1b[7mrev\x1b[0m \x1b[38;2;1;2;3mrgb \x1b]8;;http://x\x07link\x1b]8;;\x07",
        20,
        4,
    );
}

#[test]
fn wide_characters_round_trip() {
    check_pair("中文ab".as_bytes(), "a中b文".as_bytes(), 10, 2);
    check_pair("ab中文".as_bytes(), "中中中中中".as_bytes(), 10, 2);
}

#[test]
fn unchanged_frame_sends_nothing() {
    let mut renderer = Renderer::new();
    let mut f = frame_from(b"hello", 10, 2);
    assert!(!renderer.render(&mut f).is_empty());
    f.mark_all_dirty();
    assert!(renderer.render(&mut f).is_empty());
}

#[test]
fn one_changed_cell_sends_a_few_bytes() {
    let mut renderer = Renderer::new();
    let mut f = frame_from(&b"x".repeat(80 * 24), 80, 24);
    renderer.render(&mut f);
    let mut g = frame_from(&b"x".repeat(80 * 24), 80, 24);
    let mut changed = g.row(5).to_vec();
    changed[10] = Cell::new(
        'y',
        &weft_screen_model::Pen::default(),
        weft_screen_model::CellFlags::empty(),
    );
    g.put(5, 0, &changed);
    g.cursor = f.cursor;
    let bytes = renderer.render(&mut g);
    assert!(
        bytes.len() < 64,
        "{} bytes: {:?}",
        bytes.len(),
        String::from_utf8_lossy(&bytes)
    );
}

#[test]
fn output_is_wrapped_in_synchronized_update() {
    let mut renderer = Renderer::new();
    let page = "hello, a line of text\r\n".repeat(20);
    let mut f = frame_from(page.as_bytes(), 30, 20);
    let bytes = renderer.render(&mut f);
    assert!(bytes.starts_with(b"\x1b[?2026h"));
    assert!(bytes.ends_with(b"\x1b[?2026l"));
    // A few bytes written where the cursor is go out without it; a few that move the cursor
    // away (shown half-drawn, the cursor would be elsewhere) keep it.
    let mut renderer = Renderer::new();
    renderer.render(&mut frame_from(b"hel", 10, 2));
    let bytes = renderer.render(&mut frame_from(b"hello", 10, 2));
    assert_eq!(bytes, b"lo");
    let bytes = renderer.render(&mut frame_from(b"hello\r\nx\x1b[1;6H", 10, 2));
    assert!(bytes.starts_with(b"\x1b[?2026h"), "{bytes:?}");
}

#[test]
fn an_echo_at_the_cursor_is_just_the_character() {
    let mut renderer = Renderer::new();
    let mut term = Screen::new(10, 3);
    let mut prompt = frame_from(b"$ ", 10, 3);
    term.feed(&renderer.render(&mut prompt));
    // The key's echo: one character where the cursor is, the cursor one further.
    let mut echoed = frame_from(b"$ x", 10, 3);
    let bytes = renderer.render(&mut echoed);
    assert_eq!(
        bytes, b"x",
        "no synchronized output wrapper around a keystroke's echo"
    );
    term.feed(&bytes);
    assert_shows(&term, &echoed);
    // A change away from the cursor, in synchronized output: the terminal shows the frame
    // only once whole, so the cursor needs no hiding while it moves.
    let mut elsewhere = frame_from(b"$ x\r\n\r\nz\x1b[1;4H", 10, 3);
    let bytes = renderer.render(&mut elsewhere);
    let text = String::from_utf8_lossy(&bytes);
    assert!(!text.contains("\x1b[?25"), "{text:?}");
    term.feed(&bytes);
    assert_shows(&term, &elsewhere);
    // Without it, the cursor is hidden while drawing, then shown where it belongs.
    let mut renderer = Renderer::with_caps(weft_renderer::TerminalCaps {
        synchronized_output: false,
        ..Default::default()
    });
    let mut term = Screen::new(10, 3);
    term.feed(&renderer.render(&mut frame_from(b"$ x", 10, 3)));
    let mut elsewhere = frame_from(b"$ x\r\n\r\nz\x1b[1;4H", 10, 3);
    let bytes = renderer.render(&mut elsewhere);
    let text = String::from_utf8_lossy(&bytes);
    assert!(
        text.contains("\x1b[?25l") && text.ends_with("\x1b[?25h"),
        "{text:?}"
    );
    term.feed(&bytes);
    assert_shows(&term, &elsewhere);
}

fn screen_bytes() -> impl Strategy<Value = Vec<u8>> {
    let piece = prop_oneof![
        "[a-z ]{0,20}".prop_map(String::into_bytes),
        Just("中".as_bytes().to_vec()),
        Just(b"\r\n".to_vec()),
        (0u8..8, 0u8..8).prop_map(|(a, b)| format!("\x1b[3{a};4{b}m").into_bytes()),
        (0u8..255, 0u8..255).prop_map(|(a, b)| format!("\x1b[38;5;{a};48;2;{b};1;2m").into_bytes()),
        prop::sample::select(vec![
            b"\x1b[0m".to_vec(),
            b"\x1b[1m".to_vec(),
            b"\x1b[2m".to_vec(),
            b"\x1b[22m".to_vec(),
            b"\x1b[3m".to_vec(),
            b"\x1b[4:2m".to_vec(),
            b"\x1b[24m".to_vec(),
            b"\x1b[7m".to_vec(),
            b"\x1b[9m".to_vec(),
            b"\x1b[53m".to_vec(),
            b"\x1b[58:5:3m".to_vec(),
            b"\x1b]8;;http://a\x07".to_vec(),
            b"\x1b]8;;\x07".to_vec(),
            b"\x1b[K".to_vec(),
            b"\x1b[H".to_vec(),
            b"\x1b[5;3H".to_vec(),
            b"\x1b[?25l".to_vec(),
        ]),
    ];
    proptest::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

/// Lines of coloured text: more of them scroll the screen.
fn lines() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(("[a-z ]{0,12}", 0u8..8), 0..12).prop_map(|lines| {
        lines
            .into_iter()
            .map(|(text, colour)| format!("\x1b[3{colour}m{text}\r\n"))
            .collect::<String>()
            .into_bytes()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// A screen that scrolled (perhaps sent as a scroll region), then changed some more.
    #[test]
    fn scrolled_frames_round_trip(a in lines(), more in lines(), then in screen_bytes(),
                                  cols in 2usize..30, rows in 1usize..10,
                                  synchronized in any::<bool>()) {
        let b = [a.clone(), more, then].concat();
        check_pair_synced(&a, &b, cols, rows, synchronized);
    }

    /// A kept buffer (and the renderer's kept scratch text) gives exactly the bytes of fresh
    /// ones, frame after frame: nothing of an earlier frame leaks into a later one.
    #[test]
    fn rendering_into_a_kept_buffer_matches_fresh_buffers(
        inputs in proptest::collection::vec(screen_bytes(), 1..5),
        cols in 2usize..30, rows in 1usize..8,
    ) {
        let mut fresh = Renderer::new();
        let mut kept = Renderer::new();
        let mut buffer = b"stale bytes".to_vec();
        for input in &inputs {
            let mut a = frame_from(input, cols, rows);
            let mut b = frame_from(input, cols, rows);
            let expected = fresh.render(&mut a);
            kept.render_into(&mut b, &mut buffer);
            prop_assert_eq!(&buffer, &expected);
        }
    }

    #[test]
    fn random_frame_pairs_round_trip(a in screen_bytes(), b in screen_bytes(),
                                     cols in 2usize..30, rows in 1usize..8,
                                     synchronized in any::<bool>()) {
        check_pair_synced(&a, &b, cols, rows, synchronized);
    }
}

/// Escape sequences removed: what a reader of the raw output sees as text.
fn strip(bytes: &[u8]) -> String {
    let mut term = Screen::new(200, 1);
    let mut text = String::new();
    let s = String::from_utf8_lossy(bytes);
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for d in chars.by_ref() {
                    if ('@'..='~').contains(&d) {
                        break;
                    }
                }
            } else {
                chars.next();
            }
        } else if !c.is_control() {
            text.push(c);
        }
    }
    term.feed(b"");
    text
}

#[test]
fn a_changed_row_keeps_its_new_text_contiguous() {
    // The old row shares scattered characters with the new one; the new text must still
    // appear whole in the output (tools watch output for markers).
    let mut renderer = Renderer::new();
    let mut old = frame_from(b"xxxxxMxxPxxxxDONExxxxxxxx", 40, 2);
    renderer.render(&mut old);
    let mut new = frame_from(b"abcdeMBP-1234-DONE-st$ end", 40, 2);
    let bytes = renderer.render(&mut new);
    assert!(
        strip(&bytes).contains("MBP-1234-DONE-st$"),
        "{:?}",
        String::from_utf8_lossy(&bytes)
    );
}

/// `lines` log lines in a frame, the last row a status line when `status` (else blank, with the
/// cursor, as a log in a full-screen pane leaves it).
fn log_frame(lines: usize, status: bool, cols: usize, rows: usize) -> Frame {
    let log: String = (0..lines)
        .map(|i| format!("log line {i:03} of the build\r\n"))
        .collect();
    let mut frame = if status {
        frame_from(log.as_bytes(), cols, rows - 1)
    } else {
        frame_from(log.as_bytes(), cols, rows)
    };
    if status {
        let mut all = Frame::new(cols, rows);
        for r in 0..rows - 1 {
            all.put(r, 0, frame.row(r));
        }
        all.put(
            rows - 1,
            0,
            frame_from(b"\x1b[7m[main] 0:log", cols, 1).row(0),
        );
        all.cursor = frame.cursor;
        frame = all;
    }
    frame
}

#[test]
fn a_log_that_grows_by_a_line_is_sent_as_a_scroll_and_the_new_line() {
    let (cols, rows) = (40, 12);
    for status in [false, true] {
        let mut term = Screen::new(cols, rows);
        let mut renderer = Renderer::new();
        term.feed(&renderer.render(&mut log_frame(30, status, cols, rows)));
        let mut grown = log_frame(31, status, cols, rows);
        let bytes = renderer.render(&mut grown);
        term.feed(&bytes);
        assert_shows(&term, &grown);
        let text = String::from_utf8_lossy(&bytes);
        assert_eq!(strip(&bytes).matches("log line").count(), 1, "{text:?}");
        assert_eq!(
            text.contains("\x1b[1;10r"),
            status,
            "a scroll region only above a status line: {text:?}"
        );
        if !status {
            // As the program wrote it: the line where the cursor was, and a line feed.
            assert_eq!(text, "log line 030 of the build\r\n");
        }
    }
}
