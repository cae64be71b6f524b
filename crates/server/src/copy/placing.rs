//! Copy-mode commands that place the view around the cursor (`scroll-top`, `scroll-middle`,
//! `scroll-bottom`, `recentre-top-bottom`), the cursor in the view (`cursor-centre-vertical`,
//! `cursor-centre-horizontal`), the cursor by paragraphs (`next-paragraph`,
//! `previous-paragraph`: runs of lines that are not empty), and the mark (`set-mark`,
//! `jump-to-mark`), as tmux does them.

use super::lines::{Lines, Pos};
use super::CopyMode;

/// Where `recentre-top-bottom` puts the cursor's line next: the middle, the top, the bottom,
/// round again while it is pressed in a row.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Recentre {
    /// The middle (the first press).
    #[default]
    Middle,
    /// The top.
    Top,
    /// The bottom.
    Bottom,
}

/// Runs `name` if it is one of this module's commands; false when it is not.
pub fn run(mode: &mut CopyMode, lines: &Lines, name: &str) -> bool {
    let rows = lines.rows().max(1) as u64;
    let line = mode.cursor.line;
    let recentre = mode.recentre.take();
    match name {
        "scroll-top" => view_at(mode, lines, line),
        "scroll-middle" => view_at(mode, lines, line.saturating_sub(rows / 2)),
        "scroll-bottom" => view_at(mode, lines, (line + 1).saturating_sub(rows)),
        "recentre-top-bottom" => {
            let now = match recentre {
                None | Some(Recentre::Bottom) => Recentre::Middle,
                Some(Recentre::Middle) => Recentre::Top,
                Some(Recentre::Top) => Recentre::Bottom,
            };
            return run_recentre(mode, lines, now);
        }
        "cursor-centre-vertical" => {
            let to = Pos::new(mode.top + rows / 2, mode.cursor.col);
            mode.move_to(lines, to, false);
        }
        "cursor-centre-horizontal" => {
            let to = Pos::new(line, lines.cols() / 2);
            mode.move_to(lines, to, false);
        }
        "next-paragraph" => {
            let mut at = line;
            while at < lines.last() && lines.last_char(at).is_none() {
                at += 1;
            }
            while at < lines.last() && lines.last_char(at).is_some() {
                at += 1;
            }
            let col = lines.last_char(at).map_or(0, |c| c + 1);
            mode.move_to(lines, Pos::new(at, col), false);
        }
        "previous-paragraph" => {
            let mut at = line;
            while at > lines.first() && lines.last_char(at).is_none() {
                at -= 1;
            }
            while at > lines.first() && lines.last_char(at).is_some() {
                at -= 1;
            }
            mode.move_to(lines, Pos::new(at, 0), false);
        }
        "set-mark" => mode.mark = Some(mode.cursor),
        "jump-to-mark" => {
            if let Some(mark) = mode.mark.replace(mode.cursor) {
                mode.move_to(lines, mark, false);
            }
        }
        // Another command: the next recentre-top-bottom starts at the middle again.
        _ => return false,
    }
    true
}

/// `recentre-top-bottom`'s step `now`.
fn run_recentre(mode: &mut CopyMode, lines: &Lines, now: Recentre) -> bool {
    let rows = lines.rows().max(1) as u64;
    let line = mode.cursor.line;
    let top = match now {
        Recentre::Middle => line.saturating_sub(rows / 2),
        Recentre::Top => line,
        Recentre::Bottom => (line + 1).saturating_sub(rows),
    };
    view_at(mode, lines, top);
    mode.recentre = Some(now);
    true
}

/// Puts `top` at the top of the view (as far as the lines go), the cursor staying where it is.
fn view_at(mode: &mut CopyMode, lines: &Lines, top: u64) {
    mode.top = top.clamp(lines.first(), lines.history_end());
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_screen_model::Screen;

    #[test]
    fn paragraphs_marks_and_the_view_around_the_cursor() {
        let mut s = Screen::with_scrollback(20, 5, 100);
        for i in 0..30 {
            let text = if i % 10 == 9 {
                String::new()
            } else {
                format!("p{} l{i}", i / 10)
            };
            s.feed(format!("{text}\r\n").as_bytes());
        }
        let lines = Lines::new(&s);
        let mut mode = CopyMode::enter(&s, true, false);
        let base = lines.first();
        mode.move_to(&lines, Pos::new(base + 2, 0), false);
        assert!(run(&mut mode, &lines, "next-paragraph"));
        assert_eq!(
            mode.cursor.line,
            base + 9,
            "the empty line after the paragraph"
        );
        run(&mut mode, &lines, "set-mark");
        run(&mut mode, &lines, "next-paragraph");
        assert_eq!(mode.cursor.line, base + 19);
        run(&mut mode, &lines, "previous-paragraph");
        assert_eq!(mode.cursor.line, base + 9);
        mode.move_to(&lines, Pos::new(base + 15, 0), false);
        run(&mut mode, &lines, "jump-to-mark");
        assert_eq!(mode.cursor.line, base + 9, "back to the mark");
        run(&mut mode, &lines, "jump-to-mark");
        assert_eq!(
            mode.cursor.line,
            base + 15,
            "and the mark is where it jumped from"
        );
        run(&mut mode, &lines, "scroll-top");
        assert_eq!(mode.top, base + 15);
        run(&mut mode, &lines, "scroll-bottom");
        assert_eq!(mode.top, base + 11);
        // recentre-top-bottom: middle, top, bottom.
        run(&mut mode, &lines, "recentre-top-bottom");
        assert_eq!(mode.top, base + 13);
        run(&mut mode, &lines, "recentre-top-bottom");
        assert_eq!(mode.top, base + 15);
        run(&mut mode, &lines, "recentre-top-bottom");
        assert_eq!(mode.top, base + 11);
        assert!(!run(&mut mode, &lines, "cursor-up"));
    }
}

#[cfg(test)]
mod cursor_text_tests {
    use super::*;
    use weft_screen_model::Screen;

    #[test]
    fn the_word_and_line_under_the_cursor() {
        let mut s = Screen::with_scrollback(40, 5, 100);
        s.feed(b"$ echo alpha beta\r\nalpha beta\r\ngamma alpha\r\n$ ");
        let lines = Lines::new(&s);
        let mut mode = CopyMode::enter(&s, true, false);
        let line = lines.history_end() + 2;
        mode.move_to(&lines, Pos::new(line, 6), false);
        assert_eq!(
            mode.cursor_text(&s),
            ("alpha".to_string(), "gamma alpha".to_string())
        );
    }

    /// What the pane menu's items offer for a right click (`mouse_word`).
    #[test]
    fn the_word_under_the_mouse_ends_at_spaces_and_separators() {
        let seps = "!\"#$%&'()*+,-./:;<=>?@[\\]^`{|}~";
        let word_at = |text: &str, col: usize| {
            let mut s = Screen::with_scrollback(40, 2, 10);
            s.feed(text.as_bytes());
            let line = Lines::new(&s).history_end();
            crate::copy::word_and_line(&s, seps, Pos::new(line, col)).0
        };
        assert_eq!(word_at("ls -la /tmp/ok now", 13), "ok");
        assert_eq!(word_at("ls -la /tmp/ok now", 2), "");
        assert_eq!(word_at("日本 word", 5), "word");
    }
}
