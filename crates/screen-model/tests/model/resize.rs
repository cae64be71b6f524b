//! Resize: reflow of soft-wrapped lines on the primary screen, the cursor staying on its text.

use crate::support::*;

#[test]
fn narrowing_rewraps_and_widening_joins_again() {
    let mut s = screen(10, 4, "abcdefghij\r\nxy");
    s.resize(5, 4);
    assert_screen!(s, ["abcde", "fghij", "xy"]);
    assert_eq!(cursor(&s), (2, 2));
    s.resize(10, 4);
    assert_screen!(s, ["abcdefghij", "xy"]);
    assert_eq!(cursor(&s), (1, 2));
}

#[test]
fn soft_wrapped_lines_join_when_wider() {
    let mut s = screen(4, 4, "abcdefgh");
    assert_screen!(s, ["abcd", "efgh"]);
    s.resize(8, 4);
    assert_screen!(s, ["abcdefgh"]);
}

#[test]
fn hard_newlines_are_not_joined() {
    let mut s = screen(4, 4, "ab\r\ncd");
    s.resize(8, 4);
    assert_screen!(s, ["ab", "cd"]);
}

#[test]
fn shrinking_height_pushes_lines_to_history_and_growing_pulls_them_back() {
    let mut s = screen(5, 4, "1\r\n2\r\n3\r\n4");
    s.resize(5, 2);
    assert_screen!(s, ["3", "4"]);
    assert_eq!(s.scrollback().len(), 2);
    assert_eq!(cursor(&s), (1, 1));
    s.resize(5, 4);
    assert_screen!(s, ["1", "2", "3", "4"]);
    assert_eq!(s.scrollback().len(), 0);
}

#[test]
fn cursor_follows_its_character_through_reflow() {
    let mut s = screen(6, 3, "abcdefgh\x1b[1;3H");
    s.resize(3, 4);
    // 'c' was under the cursor.
    let (r, c) = cursor(&s);
    assert_eq!(s.cell(r, c).unwrap().ch(), 'c');
}

#[test]
fn wide_characters_wrap_whole_when_narrowing() {
    let mut s = screen(6, 3, "ab中文");
    s.resize(3, 3);
    check_invariants(&s);
    assert_screen!(s, ["ab", "中", "文"]);
}

#[test]
fn alternate_screen_is_cut_not_reflowed() {
    let mut s = screen(6, 3, "\x1b[?1049habcdef");
    s.resize(3, 3);
    assert_screen!(s, ["abc"]);
    check_invariants(&s);
}

#[test]
fn primary_reflows_while_the_alternate_screen_is_shown() {
    let mut s = screen(6, 3, "abcdefgh\x1b[?1049hvim");
    s.resize(4, 3);
    s.feed(b"\x1b[?1049l");
    assert_screen!(s, ["abcd", "efgh"]);
}

#[test]
fn resize_to_zero_is_clamped() {
    let mut s = screen(6, 3, "abc");
    s.resize(0, 0);
    assert_eq!((s.cols(), s.rows()), (1, 1));
    check_invariants(&s);
    s.feed("中x\r\n".as_bytes());
    check_invariants(&s);
    s.resize(80, 24);
    check_invariants(&s);
}

#[test]
fn margins_reset_on_resize() {
    let mut s = screen(6, 6, "\x1b[2;3r");
    s.resize(6, 4);
    s.feed(b"\x1b[4;1H\n");
    // The whole screen scrolls again.
    assert_eq!(cursor(&s), (3, 0));
}

#[test]
fn the_alternate_buffer_made_after_a_resize_has_the_new_size() {
    // The alternate buffer does not exist until first used; when it is, it fits the screen.
    let mut s = screen(6, 3, "shell");
    s.resize(8, 4);
    s.feed(b"\x1b[?1049h\x1b[4;8HZ\x1b[1;1Halt");
    assert_screen!(s, ["alt", "", "", "       Z"]);
    s.feed(b"\x1b[?1049l");
    assert_screen!(s, ["shell"]);
    // Used once, it follows later resizes like the primary buffer.
    s.resize(5, 2);
    s.feed(b"\x1b[?1049h\x1b[2;5HQ");
    assert_screen!(s, ["", "    Q"]);
}

/// Every logical line of history and screen, soft wraps joined, without blanks (a wide
/// character that did not fit at a row's end leaves a blank there, different at each width).
fn logical_lines(s: &weft_screen_model::Screen) -> Vec<String> {
    let history = s.scrollback();
    let rows = (0..history.len())
        .filter_map(|i| history.get(i, s.cols()))
        .chain(s.visible_rows().cloned());
    let mut lines = Vec::new();
    let mut current = String::new();
    for row in rows {
        let cells = row.cells();
        let text: String = if row.is_wrapped() {
            cells
                .iter()
                .filter(|c| !c.is_spacer())
                .map(|c| c.text())
                .collect()
        } else {
            row.text()
        };
        current.extend(text.chars().filter(|c| *c != ' '));
        if !row.is_wrapped() {
            lines.push(std::mem::take(&mut current));
        }
    }
    while lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    lines
}

#[test]
fn a_long_history_reflows_line_for_line_and_the_cursor_keeps_its_character() {
    let mut input = String::new();
    for i in 0..3_000 {
        // Lines of many lengths, some wide characters, so rows wrap at every width tried.
        let body = "x".repeat(i % 97);
        input.push_str(&format!("{i:05} {body} \u{5b57}\u{5b57} end{i}\r\n"));
    }
    input.push_str("prompt$ typed");
    let mut s = weft_screen_model::Screen::with_scrollback(40, 10, 100_000);
    s.feed(input.as_bytes());
    let before = logical_lines(&s);
    for (cols, rows) in [(23, 7), (131, 40), (40, 10)] {
        s.resize(cols, rows);
        let after = logical_lines(&s);
        assert_eq!(after.len(), before.len(), "lines at {cols}x{rows}");
        if let Some(i) = (0..after.len()).find(|&i| after[i] != before[i]) {
            panic!(
                "line {i} at {cols}x{rows}: {:?} became {:?}",
                before[i], after[i]
            );
        }
        let cur = s.cursor_state();
        let row = s.row(cur.row).unwrap().text();
        assert!(
            row.ends_with("typed") && cur.col == row.chars().count(),
            "cursor at {},{} on {row:?} at {cols}x{rows}",
            cur.row,
            cur.col
        );
    }
}

/// Every logical line of history and screen with each character's foreground colour, soft
/// wraps joined exactly (for text without wide characters).
fn styled_lines(s: &weft_screen_model::Screen) -> Vec<Vec<(char, weft_screen_model::cell::Color)>> {
    let history = s.scrollback();
    let rows = (0..history.len())
        .filter_map(|i| history.get(i, s.cols()))
        .chain(s.visible_rows().cloned());
    let mut lines = Vec::new();
    let mut current = Vec::new();
    for row in rows {
        current.extend(row.cells().iter().map(|c| (c.ch(), c.fg())));
        if !row.is_wrapped() {
            while current.last().is_some_and(|(ch, _)| *ch == ' ') {
                current.pop();
            }
            lines.push(std::mem::take(&mut current));
        }
    }
    while lines.last().is_some_and(Vec::is_empty) {
        lines.pop();
    }
    lines
}

#[test]
fn plain_and_styled_history_reflow_to_the_same_lines_and_colours() {
    // Plain lines re-wrap as text, styled ones as cells; both kinds, of every length, some
    // straddling the history and the screen.
    let mut input = String::new();
    for i in 0..2_000 {
        match i % 4 {
            0 => input.push_str(&format!("plain {i} {}\r\n", "abc def ".repeat(i % 41))),
            1 => input.push_str(&format!(
                "\x1b[31mred {i}\x1b[0m then {}\r\n",
                "x".repeat(i % 97)
            )),
            2 => input.push_str(&format!("   indented {i}   spaced\r\n")),
            _ => input.push_str("\r\n"),
        }
    }
    input.push_str(&format!("last {}", "tail ".repeat(30)));
    let mut s = weft_screen_model::Screen::with_scrollback(80, 24, 100_000);
    s.feed(input.as_bytes());
    let before = styled_lines(&s);
    assert!(before.len() > 1_900, "{} lines", before.len());
    for (cols, rows) in [(57, 20), (103, 30), (13, 5), (80, 24)] {
        s.resize(cols, rows);
        let after = styled_lines(&s);
        assert_eq!(after.len(), before.len(), "lines at {cols}x{rows}");
        if let Some(i) = (0..after.len()).find(|&i| after[i] != before[i]) {
            let text = |l: &[(char, _)]| l.iter().map(|(c, _)| *c).collect::<String>();
            panic!(
                "line {i} at {cols}x{rows}: {:?} became {:?}",
                text(&before[i]),
                text(&after[i])
            );
        }
    }
}
