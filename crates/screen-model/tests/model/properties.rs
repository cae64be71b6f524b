//! Property tests: random bytes and random escape soup never panic and keep the invariants.

use crate::support::check_invariants;
use proptest::prelude::*;
use weft_screen_model::Screen;

/// Pieces that exercise the parser and the screen's edge cases.
fn fragment() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        proptest::collection::vec(any::<u8>(), 0..8),
        "[a-z0-9 ]{0,12}".prop_map(String::into_bytes),
        Just("中".as_bytes().to_vec()),
        Just("\u{1f600}".as_bytes().to_vec()),
        Just("\u{301}".as_bytes().to_vec()),
        Just("\u{200d}".as_bytes().to_vec()),
        Just("\u{fe0f}".as_bytes().to_vec()),
        Just(b"\r".to_vec()),
        Just(b"\n".to_vec()),
        Just(b"\x08".to_vec()),
        Just(b"\t".to_vec()),
        (
            0u32..200,
            0u32..200,
            prop::sample::select(&b"@ABCDEFGHIJKLMPSTXZbdefghlmnrst"[..])
        )
            .prop_map(|(a, b, f)| format!("\x1b[{a};{b}{}", f as char).into_bytes()),
        (0u32..70000, prop::sample::select(&b"@ABCDLMPSTXb"[..])).prop_map(|(a, f)| format!(
            "\x1b[{a}{}",
            f as char
        )
        .into_bytes()),
        prop::sample::select(vec![1u32, 5, 6, 7, 25, 45, 47, 69, 1047, 1048, 1049, 2026])
            .prop_flat_map(|m| any::<bool>().prop_map(move |on| {
                format!("\x1b[?{m}{}", if on { 'h' } else { 'l' }).into_bytes()
            })),
        (0u32..30, 0u32..30).prop_map(|(a, b)| format!("\x1b[?69h\x1b[{a};{b}s").into_bytes()),
        (0u32..30, 0u32..30, prop::sample::select(&b"@A"[..])).prop_map(|(a, b, f)| format!(
            "\x1b[{a};{b} {}",
            f as char
        )
        .into_bytes()),
        (0u32..30).prop_map(|a| format!("\x1b[{a}'}}\x1b[{a}'~").into_bytes()),
        (0u8..8, 0u8..255, 0u8..255)
            .prop_map(|(a, b, c)| { format!("\x1b[3{a};48;5;{b};38;2;{c};{b};{a}m").into_bytes() }),
        prop::sample::select(vec![
            b"\x1b[0m".to_vec(),
            b"\x1b[1;3;4:3;53m".to_vec(),
            b"\x1b[58:5:9m".to_vec(),
            b"\x1b[59;24m".to_vec(),
            b"\x1b]8;id=a;http://x\x07".to_vec(),
            b"\x1b]8;;\x07".to_vec(),
            b"\x1b[7m".to_vec(),
            b"\x1b[0\"q".to_vec(),
            "e\u{301}".as_bytes().to_vec(),
            "\u{2764}\u{fe0f}".as_bytes().to_vec(),
        ]),
        prop::sample::select(vec![
            b"\x1b7".to_vec(),
            b"\x1b8".to_vec(),
            b"\x1bD".to_vec(),
            b"\x1bM".to_vec(),
            b"\x1bE".to_vec(),
            b"\x1bc".to_vec(),
            b"\x1b#8".to_vec(),
            b"\x1b(0".to_vec(),
            b"\x1b(B".to_vec(),
            b"\x0e".to_vec(),
            b"\x0f".to_vec(),
            b"\x1b[!p".to_vec(),
            b"\x1b]2;t\x07".to_vec(),
            b"\x1bP$qm\x1b\\".to_vec(),
            b"\x1b[4h".to_vec(),
            b"\x1b[4l".to_vec(),
            b"\x1b[1\"q".to_vec(),
            b"\x1b[?2J".to_vec(),
        ]),
    ]
}

proptest! {
    // 256 cases in CI; set PROPTEST_CASES for a longer local run.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_bytes_keep_invariants(bytes in proptest::collection::vec(any::<u8>(), 0..2048),
                                    cols in 1usize..40, rows in 1usize..12) {
        let mut s = Screen::new(cols, rows);
        s.feed(&bytes);
        check_invariants(&s);
    }

    #[test]
    fn escape_soup_keeps_invariants(parts in proptest::collection::vec(fragment(), 0..80),
                                    cols in 1usize..30, rows in 1usize..10,
                                    resize in proptest::option::of((0usize..40, 0usize..12))) {
        let mut s = Screen::with_scrollback(cols, rows, 50);
        for p in &parts {
            s.feed(p);
            check_invariants(&s);
        }
        if let Some((c, r)) = resize {
            s.resize(c, r);
            check_invariants(&s);
            s.feed(&parts.concat());
            check_invariants(&s);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(256),
        ..ProptestConfig::default()
    })]

    /// Whatever was on screen comes back from the scrollback cell for cell: the compact
    /// encodings (plain, unstyled, styled) lose nothing.
    #[test]
    fn rows_survive_the_trip_through_scrollback(parts in proptest::collection::vec(fragment(), 0..60),
                                                cols in 2usize..30, rows in 1usize..8) {
        let mut s = Screen::with_scrollback(cols, rows, 1000);
        for p in &parts {
            s.feed(p);
        }
        // Back to a plain primary screen without margins; content stays.
        s.feed(b"\x1b[?1049l\x1b[?47l\x1b[?69l\x1b[?6l\x1b[r");
        let before: Vec<_> = s.visible_rows().cloned().collect();
        let history = s.scrollback().len();
        s.feed(format!("\x1b[{rows};1H").as_bytes());
        s.feed("\n".repeat(rows).as_bytes());
        prop_assert_eq!(s.scrollback().len(), (history + rows).min(1000));
        let start = s.scrollback().len() - rows;
        for (i, row) in before.iter().enumerate() {
            let back = s.scrollback_row(start + i).unwrap();
            prop_assert_eq!(back.cells(), row.cells(), "row {}", i);
            prop_assert_eq!(back.is_wrapped(), row.is_wrapped(), "row {} wrap flag", i);
        }
    }
}
