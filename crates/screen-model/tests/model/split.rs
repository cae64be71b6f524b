//! Any stream split at any byte offset gives the same screen.

use weft_screen_model::Screen;

const STREAMS: &[&[u8]] = &[
    b"\x1b[1;31mred\x1b[0m plain \x1b[38;2;1;2;3mrgb\x1b[m\r\n",
    "wide 中文 and emoji \u{1f600} combining e\u{301} zwj \u{1f468}\u{200d}\u{1f469}\r\n"
        .as_bytes(),
    b"\x1b]2;title\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\x1bP$qm\x1b\\",
    b"\x1b[2;5r\x1b[5;1H\n\n\x1bM\x1b[3L\x1b[2M\x1b[r\x1b[?1049hALT\x1b[?1049l",
    b"\x1b(0lqk\x1b(B\x1b7\x1b[10;10H\x1b8\x1b[4hins\x1b[4l\x1b[5b",
    b"abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789abcdefghij",
];

fn fingerprint(
    s: &Screen,
) -> (
    String,
    (usize, usize),
    String,
    Vec<Vec<weft_screen_model::Cell>>,
) {
    let c = s.cursor_state();
    (
        s.text_with_scrollback(),
        (c.row, c.col),
        s.title().to_string(),
        s.visible_rows().map(|r| r.cells().to_vec()).collect(),
    )
}

#[test]
fn splitting_anywhere_gives_the_same_screen() {
    let stream: Vec<u8> = STREAMS.concat();
    let mut whole = Screen::new(40, 6);
    whole.feed(&stream);
    let expected = fingerprint(&whole);
    for split in 0..=stream.len() {
        let mut s = Screen::new(40, 6);
        s.feed(&stream[..split]);
        s.feed(&stream[split..]);
        assert_eq!(fingerprint(&s), expected, "split at byte {split}");
    }
}

#[test]
fn byte_at_a_time_gives_the_same_screen() {
    let stream: Vec<u8> = STREAMS.concat();
    let mut whole = Screen::new(40, 6);
    whole.feed(&stream);
    let mut s = Screen::new(40, 6);
    for b in &stream {
        s.feed(std::slice::from_ref(b));
    }
    assert_eq!(fingerprint(&s), fingerprint(&whole));
}
