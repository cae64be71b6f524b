//! Copy mode's commands (`send-keys -X NAME`), with tmux's names.

use super::lines::{Lines, Pos};
use super::motion::{self, Jump};
use super::search::{self, Pattern, MAX_MATCHES};
use super::select::{Kind, Selection, Span};
use super::{CopyMode, Search};
use weft_screen_model::Screen;

/// What a command asks of the pane after it ran.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Stay in copy mode; the view may have changed.
    Stay,
    /// Leave copy mode.
    Leave,
    /// Copy this text to a paste buffer (appended to the newest with `append`), then stay or
    /// leave.
    Copy {
        /// The selected text.
        text: String,
        /// Append to the newest buffer instead of making a new one.
        append: bool,
        /// Leave copy mode afterwards.
        leave: bool,
        /// The command the text is piped to (`copy-pipe CMD`); none: `copy-command`, if set.
        pipe: Option<String>,
        /// The text becomes a paste buffer (and goes to the clipboard); not for `pipe`.
        to_buffer: bool,
    },
}

/// Every command name, for `list-commands`-style help and for checking a binding.
pub const NAMES: &[&str] = &[
    "append-selection",
    "append-selection-and-cancel",
    "back-to-indentation",
    "begin-selection",
    "bottom-line",
    "cancel",
    "clear-selection",
    "clear-selection-or-cancel",
    "copy-end-of-line",
    "copy-end-of-line-and-cancel",
    "copy-line",
    "copy-line-and-cancel",
    "copy-pipe",
    "copy-pipe-and-cancel",
    "copy-pipe-end-of-line",
    "copy-pipe-end-of-line-and-cancel",
    "copy-pipe-line",
    "copy-pipe-line-and-cancel",
    "copy-pipe-no-clear",
    "copy-selection",
    "copy-selection-and-cancel",
    "copy-selection-no-clear",
    "cursor-down",
    "cursor-down-and-cancel",
    "cursor-centre-horizontal",
    "cursor-centre-vertical",
    "cursor-left",
    "cursor-right",
    "cursor-up",
    "end-of-line",
    "goto-line",
    "halfpage-down",
    "halfpage-down-and-cancel",
    "halfpage-up",
    "history-bottom",
    "history-top",
    "jump-again",
    "jump-backward",
    "jump-forward",
    "jump-reverse",
    "jump-to-mark",
    "jump-to-backward",
    "jump-to-forward",
    "middle-line",
    "next-matching-bracket",
    "next-paragraph",
    "next-prompt",
    "next-space",
    "next-space-end",
    "next-word",
    "next-word-end",
    "other-end",
    "page-down",
    "page-down-and-cancel",
    "page-up",
    "pipe",
    "pipe-and-cancel",
    "pipe-no-clear",
    "previous-matching-bracket",
    "previous-paragraph",
    "previous-prompt",
    "previous-space",
    "previous-word",
    "rectangle-off",
    "rectangle-on",
    "rectangle-toggle",
    "recentre-top-bottom",
    "refresh-from-pane",
    "scroll-down",
    "scroll-bottom",
    "scroll-down-and-cancel",
    "scroll-middle",
    "scroll-top",
    "scroll-up",
    "search-again",
    "search-backward",
    "search-backward-incremental",
    "search-backward-text",
    "search-forward",
    "search-forward-incremental",
    "search-forward-text",
    "search-reverse",
    "select-line",
    "select-word",
    "set-mark",
    "start-of-line",
    "stop-selection",
    "top-line",
];

/// Runs copy-mode command `name` with `args`, `count` times where a count means something.
/// `prompts`: the absolute lines where the shell's prompts began (OSC 133), oldest first.
pub fn run(
    mode: &mut CopyMode,
    screen: &Screen,
    prompts: &[u64],
    name: &str,
    args: &[String],
    count: usize,
) -> Result<Outcome, String> {
    let separators = mode.separators.clone();
    let lines = Lines::new(screen).with_separators(&separators);
    mode.clamp(&lines);
    let count = count.clamp(1, 100_000);
    let arg = args.first().map(String::as_str).unwrap_or("");
    if !name.ends_with("-incremental") {
        mode.incremental_from = None;
    }
    if super::placing::run(mode, &lines, name) {
        return Ok(Outcome::Stay);
    }
    let rows = lines.rows().max(1) as i64;
    let c = mode.cursor;
    let repeat = |mode: &mut CopyMode, step: &dyn Fn(&CopyMode, Pos) -> Pos, keep: bool| {
        for _ in 0..count {
            let to = step(mode, mode.cursor);
            mode.move_to(&lines, to, keep);
        }
    };
    match name {
        "cancel" => return Ok(Outcome::Leave),
        "cursor-left" => repeat(
            mode,
            &|_, p| Pos::new(p.line, p.col.saturating_sub(1)),
            false,
        ),
        "cursor-right" => repeat(mode, &|_, p| Pos::new(p.line, p.col + 1), false),
        "cursor-up" => repeat(
            mode,
            &|_, p| Pos::new(p.line.saturating_sub(1), p.col),
            true,
        ),
        "cursor-down" => repeat(mode, &|_, p| Pos::new(p.line + 1, p.col), true),
        "cursor-down-and-cancel" => {
            if mode.cursor.line >= lines.last() {
                return Ok(Outcome::Leave);
            }
            repeat(mode, &|_, p| Pos::new(p.line + 1, p.col), true);
        }
        "start-of-line" => mode.move_to(&lines, Pos::new(c.line, 0), false),
        "end-of-line" => {
            let col = lines.last_char(c.line).unwrap_or(0);
            mode.move_to(&lines, Pos::new(c.line, col), false);
        }
        "back-to-indentation" => {
            let col = motion::first_non_blank(&lines, c.line);
            mode.move_to(&lines, Pos::new(c.line, col), false);
        }
        "top-line" => mode.move_to(&lines, Pos::new(mode.top, c.col), true),
        "middle-line" => mode.move_to(&lines, Pos::new(mode.top + rows as u64 / 2, c.col), true),
        "bottom-line" => mode.move_to(&lines, Pos::new(mode.top + rows as u64 - 1, c.col), true),
        "history-top" => mode.move_to(&lines, Pos::new(lines.first(), 0), false),
        "history-bottom" => {
            let line = lines.last();
            let col = lines.last_char(line).map_or(0, |c| c + 1);
            mode.move_to(&lines, Pos::new(line, col), false);
        }
        "scroll-up" => mode.scroll(&lines, -(count as i64)),
        "scroll-down" | "scroll-down-and-cancel" => {
            mode.scroll(&lines, count as i64);
            if leaves_at_bottom(mode, &lines, name) {
                return Ok(Outcome::Leave);
            }
        }
        "page-up" => mode.scroll(&lines, -rows * count as i64),
        "page-down" | "page-down-and-cancel" => {
            mode.scroll(&lines, rows * count as i64);
            if leaves_at_bottom(mode, &lines, name) {
                return Ok(Outcome::Leave);
            }
        }
        "halfpage-up" => mode.scroll(&lines, -(rows / 2).max(1) * count as i64),
        "halfpage-down" | "halfpage-down-and-cancel" => {
            mode.scroll(&lines, (rows / 2).max(1) * count as i64);
            if leaves_at_bottom(mode, &lines, name) {
                return Ok(Outcome::Leave);
            }
        }
        "next-word" => repeat(mode, &|_, p| motion::next_word(&lines, p, false), false),
        "next-space" => repeat(mode, &|_, p| motion::next_word(&lines, p, true), false),
        "next-word-end" => repeat(mode, &|_, p| motion::next_word_end(&lines, p, false), false),
        "next-space-end" => repeat(mode, &|_, p| motion::next_word_end(&lines, p, true), false),
        "previous-word" => repeat(mode, &|_, p| motion::previous_word(&lines, p, false), false),
        "previous-space" => repeat(mode, &|_, p| motion::previous_word(&lines, p, true), false),
        "jump-forward" | "jump-backward" | "jump-to-forward" | "jump-to-backward" => {
            let kind = match name {
                "jump-forward" => Jump::Forward,
                "jump-backward" => Jump::Backward,
                "jump-to-forward" => Jump::ToForward,
                _ => Jump::ToBackward,
            };
            let target = arg
                .chars()
                .next()
                .ok_or_else(|| format!("{name} needs the character to jump to"))?;
            mode.last_jump = Some((kind, target));
            jump(mode, &lines, kind, target, count, false);
        }
        "jump-again" | "jump-reverse" => {
            if let Some((kind, target)) = mode.last_jump {
                let kind = if name == "jump-reverse" {
                    kind.reversed()
                } else {
                    kind
                };
                jump(mode, &lines, kind, target, count, true);
            }
        }
        "next-matching-bracket" | "previous-matching-bracket" => {
            if let Some(to) = motion::matching_bracket(&lines, c) {
                mode.move_to(&lines, to, false);
            }
        }
        "next-prompt" | "previous-prompt" => {
            let next = name == "next-prompt";
            for _ in 0..count {
                let line = mode.cursor.line;
                let found = if next {
                    prompts.iter().copied().find(|&p| p > line)
                } else {
                    prompts.iter().rev().copied().find(|&p| p < line)
                };
                match found.filter(|&p| p >= lines.first() && p <= lines.last()) {
                    Some(p) => {
                        mode.move_to(&lines, Pos::new(p, 0), false);
                        // The prompt's line at the top of the view, as tmux shows it.
                        mode.top = p.clamp(lines.first(), lines.history_end());
                    }
                    None => break,
                }
            }
        }
        "goto-line" => {
            let back: u64 = arg
                .trim()
                .parse()
                .map_err(|_| format!("goto-line needs a line number, not {arg:?}"))?;
            let line = lines.history_end().saturating_sub(back).max(lines.first());
            mode.top = line;
            mode.move_to(&lines, Pos::new(line, c.col), false);
        }
        "begin-selection" => {
            mode.selection = Some(Selection {
                anchor: mode.cursor,
                kind: Kind::Char,
            })
        }
        "select-line" => {
            mode.selection = Some(Selection {
                anchor: mode.cursor,
                kind: Kind::Line,
            })
        }
        "select-word" => {
            let (start, end) = motion::word_around(&lines, c);
            mode.selection = Some(Selection {
                anchor: start,
                kind: Kind::Char,
            });
            mode.move_to(&lines, end, false);
        }
        "rectangle-toggle" | "rectangle-on" | "rectangle-off" => {
            let selection = mode.selection.get_or_insert(Selection {
                anchor: c,
                kind: Kind::Char,
            });
            let rect = match name {
                "rectangle-on" => true,
                "rectangle-off" => false,
                _ => selection.kind != Kind::Rect,
            };
            selection.kind = if rect { Kind::Rect } else { Kind::Char };
        }
        "clear-selection" | "stop-selection" => mode.selection = None,
        "clear-selection-or-cancel" => {
            if mode.selection.take().is_none() {
                return Ok(Outcome::Leave);
            }
        }
        "other-end" => {
            if let Some(selection) = mode.selection.as_mut() {
                let anchor = std::mem::replace(&mut selection.anchor, c);
                mode.move_to(&lines, anchor, false);
            }
        }
        "copy-selection"
        | "copy-selection-no-clear"
        | "copy-selection-and-cancel"
        | "copy-pipe"
        | "copy-pipe-no-clear"
        | "copy-pipe-and-cancel"
        | "append-selection"
        | "append-selection-and-cancel"
        | "pipe"
        | "pipe-no-clear"
        | "pipe-and-cancel" => {
            let Some(selection) = mode.selection else {
                return Ok(Outcome::Stay);
            };
            let text = Span::new(&selection, c, mode.vi).text(&lines);
            let leave = name.ends_with("-and-cancel");
            if !name.ends_with("-no-clear") {
                mode.selection = None;
            }
            return Ok(Outcome::Copy {
                text,
                append: name.starts_with("append"),
                leave,
                pipe: piped_to(name, arg),
                to_buffer: !name.starts_with("pipe"),
            });
        }
        "copy-line"
        | "copy-end-of-line"
        | "copy-line-and-cancel"
        | "copy-end-of-line-and-cancel"
        | "copy-pipe-line"
        | "copy-pipe-line-and-cancel"
        | "copy-pipe-end-of-line"
        | "copy-pipe-end-of-line-and-cancel" => {
            let start = lines.logical_start(c.line);
            let from = if name.contains("end-of-line") {
                c
            } else {
                Pos::new(start, 0)
            };
            let end = lines.logical_end(c.line);
            let selection = Selection {
                anchor: from,
                kind: Kind::Char,
            };
            let to = Pos::new(end, lines.cols().saturating_sub(1));
            let text = Span::new(&selection, to, true).text(&lines);
            // As tmux 3.4 has them: the -and-cancel forms leave, the others stay (tmux 3.3's
            // copy-line left; its bindings now name copy-line-and-cancel).
            let leave = name.ends_with("-and-cancel");
            return Ok(Outcome::Copy {
                text,
                append: false,
                leave,
                pipe: piped_to(name, arg),
                to_buffer: true,
            });
        }
        "search-forward" | "search-backward" | "search-forward-text" | "search-backward-text" => {
            let forward = name.starts_with("search-forward");
            start_search(mode, &lines, arg, !name.ends_with("-text"), forward, count);
        }
        "search-forward-incremental" | "search-backward-incremental" => {
            // Where the search started, moved into the lines that exist now (the pane may have
            // shrunk or its history been trimmed since).
            let from = *mode.incremental_from.get_or_insert(c);
            let from = Pos::new(
                lines.clamp(from.line),
                from.col.min(lines.cols().saturating_sub(1)),
            );
            mode.incremental_from = Some(from);
            mode.cursor = from;
            if arg.is_empty() {
                mode.search = None;
                mode.move_to(&lines, from, false);
            } else {
                let forward = name.starts_with("search-forward");
                start_search(mode, &lines, arg, false, forward, 1);
            }
        }
        "search-again" | "search-reverse" => {
            if let Some(search) = mode.search.take() {
                let forward = search.forward == (name == "search-again");
                let (text, regex, keep) =
                    (search.pattern.text.clone(), search.regex, search.forward);
                start_search(mode, &lines, &text, regex, forward, count);
                if let Some(s) = mode.search.as_mut() {
                    s.forward = keep;
                }
            }
        }
        "refresh-from-pane" => {}
        other => {
            return Err(format!(
                "{other} is not a copy-mode command (see `weft list-keys -T copy-mode-vi`)"
            ))
        }
    }
    Ok(Outcome::Stay)
}

/// The command a copy command pipes its text to: its argument, for the `copy-pipe` and
/// `pipe` commands that were given one.
fn piped_to(name: &str, arg: &str) -> Option<String> {
    let piping = name.starts_with("copy-pipe") || name.starts_with("pipe");
    (piping && !arg.trim().is_empty()).then(|| arg.to_string())
}

/// Whether a scroll down leaves copy mode: `-and-cancel`, or entered with `-e`, at the bottom.
fn leaves_at_bottom(mode: &CopyMode, lines: &Lines, name: &str) -> bool {
    (name.ends_with("-and-cancel") || mode.exit_at_bottom) && mode.at_bottom(lines)
}

fn jump(mode: &mut CopyMode, lines: &Lines, kind: Jump, target: char, count: usize, again: bool) {
    for _ in 0..count {
        match motion::jump(lines, mode.cursor, kind, target, again) {
            Some(to) => mode.move_to(lines, to, false),
            None => break,
        }
    }
}

/// Finds every match of `text` and moves to the `count`th nearest one in the direction.
fn start_search(
    mode: &mut CopyMode,
    lines: &Lines,
    text: &str,
    regex: bool,
    forward: bool,
    count: usize,
) {
    let Some(pattern) = Pattern::new(text, regex) else {
        mode.search = None;
        return;
    };
    let (matches, capped) = search::find(lines, &pattern, lines.first(), lines.last(), MAX_MATCHES);
    let mut current = None;
    let mut at = mode.cursor;
    for _ in 0..count {
        current = search::nearest(&matches, at, forward, mode.wrap_search);
        match current {
            Some(i) => at = matches[i].0,
            None => break,
        }
    }
    if let Some(i) = current {
        mode.move_to(lines, matches[i].0, false);
    }
    mode.search = Some(Search {
        pattern,
        regex,
        forward,
        matches,
        capped,
        current,
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screen_with_history(lines: usize) -> Screen {
        let mut s = Screen::with_scrollback(40, 10, 100_000);
        for i in 0..lines {
            s.feed(format!("line {i} word-{i} (x{i})\r\n").as_bytes());
        }
        s
    }

    fn exec(mode: &mut CopyMode, s: &Screen, name: &str, arg: &str) -> Outcome {
        let args: Vec<String> = if arg.is_empty() {
            vec![]
        } else {
            vec![arg.into()]
        };
        run(mode, s, &[], name, &args, 1).unwrap()
    }

    #[test]
    fn motions_scroll_the_view_with_the_cursor() {
        let s = screen_with_history(100);
        let mut mode = CopyMode::enter(&s, true, false);
        let lines = Lines::new(&s);
        assert_eq!(mode.offset(&lines), 0);
        exec(&mut mode, &s, "history-top", "");
        assert_eq!(mode.cursor.line, lines.first());
        assert_eq!(mode.offset(&lines), lines.history_len());
        exec(&mut mode, &s, "page-down", "");
        assert_eq!(mode.offset(&lines), lines.history_len() - 10);
        exec(&mut mode, &s, "history-bottom", "");
        assert!(mode.at_bottom(&lines));
        assert_eq!(
            run(&mut mode, &s, &[], "no-such", &[], 1),
            Err("no-such is not a copy-mode command (see `weft list-keys -T copy-mode-vi`)".into())
        );
    }

    #[test]
    fn words_jumps_and_brackets() {
        let mut s = Screen::with_scrollback(40, 3, 10);
        s.feed(b"foo.bar  baz(qux)\x1b[1;1H");
        let mut mode = CopyMode::enter(&s, true, false);
        let col = |m: &CopyMode| m.cursor.col;
        exec(&mut mode, &s, "next-word", "");
        assert_eq!(col(&mode), 3, "w stops at punctuation");
        exec(&mut mode, &s, "next-space", "");
        assert_eq!(col(&mode), 9, "W skips to after spaces");
        exec(&mut mode, &s, "next-word-end", "");
        assert_eq!(col(&mode), 11);
        exec(&mut mode, &s, "jump-forward", ")");
        assert_eq!(col(&mode), 16);
        exec(&mut mode, &s, "next-matching-bracket", "");
        assert_eq!(col(&mode), 12);
        exec(&mut mode, &s, "jump-to-backward", "o");
        assert_eq!(col(&mode), 3, "T lands just after the o");
        exec(&mut mode, &s, "previous-word", "");
        assert_eq!(col(&mode), 0);
    }

    #[test]
    fn word_separators_decide_where_words_end() {
        let mut s = Screen::with_scrollback(40, 3, 10);
        s.feed(b"foo.bar baz\x1b[1;1H");
        let mut mode = CopyMode::enter(&s, true, false);
        mode.separators = String::new();
        exec(&mut mode, &s, "next-word", "");
        assert_eq!(
            mode.cursor.col, 8,
            "without separators, foo.bar is one word"
        );
    }

    #[test]
    fn search_counts_and_repeats_with_wrap() {
        let s = screen_with_history(500);
        let mut mode = CopyMode::enter(&s, true, false);
        exec(&mut mode, &s, "search-backward", "word-1[0-9]$");
        let search = mode.search.clone().unwrap();
        assert_eq!(search.matches.len(), 0, "$ ends the line, not the match");
        exec(&mut mode, &s, "search-backward", "word-12 ");
        let search = mode.search.clone().unwrap();
        assert_eq!(search.matches.len(), 1);
        exec(&mut mode, &s, "history-bottom", "");
        exec(&mut mode, &s, "search-backward-text", "(x4");
        let n = mode.search.as_ref().unwrap().matches.len();
        assert_eq!(n, 111, "x4, x40-49, x400-499");
        let first = mode.cursor;
        exec(&mut mode, &s, "search-again", "");
        assert_eq!(first.line, 499, "from the bottom");
        assert_eq!(mode.cursor.line + 1, first.line, "n goes on backwards");
        exec(&mut mode, &s, "search-reverse", "");
        assert_eq!(mode.cursor, first);
    }

    #[test]
    fn copying_a_selection_and_leaving() {
        let s = screen_with_history(3);
        let mut mode = CopyMode::enter(&s, true, false);
        exec(&mut mode, &s, "history-top", "");
        exec(&mut mode, &s, "begin-selection", "");
        exec(&mut mode, &s, "next-word-end", "");
        assert_eq!(
            exec(&mut mode, &s, "copy-selection-and-cancel", ""),
            Outcome::Copy {
                text: "line".into(),
                append: false,
                leave: true,
                pipe: None,
                to_buffer: true,
            }
        );
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// Any sequence of copy-mode commands, with any arguments and counts, on a screen that
        /// keeps changing size and content between them, never panics and keeps the cursor
        /// and view inside the lines that exist.
        #[test]
        fn any_commands_keep_the_mode_inside_the_lines(
            steps in proptest::collection::vec(
                (0..NAMES.len(), "[a-z(){}\\[\\].^$*+? 0-9-]{0,6}", 0usize..200_000, 0u8..6),
                1..40,
            ),
            text in "[ -~\\n\u{5b57}\u{301}]{0,400}",
        ) {
            let mut screen = Screen::with_scrollback(20, 5, 50);
            screen.feed(text.replace('\n', "\r\n").as_bytes());
            let mut mode = CopyMode::enter(&screen, true, false);
            for (name, arg, count, change) in steps {
                match change {
                    0 => screen.feed(b"more output\r\n"),
                    1 => screen.resize(1 + count % 30, 1 + count % 7),
                    2 => screen.feed(b"\x1b[?1049h"),
                    3 => screen.feed(b"\x1b[?1049l\x1b[2J"),
                    _ => {}
                }
                let args = vec![arg];
                let _ = run(&mut mode, &screen, &[3, 1, 40], NAMES[name], &args, count);
                let lines = Lines::new(&screen);
                proptest::prop_assert!(mode.cursor.line >= lines.first() && mode.cursor.line <= lines.last());
                proptest::prop_assert!(mode.top >= lines.first() && mode.top <= lines.history_end());
                let view = super::super::view::render(&mode, &lines, None);
                proptest::prop_assert_eq!(view.rows.len(), lines.rows());
            }
        }
    }
}
