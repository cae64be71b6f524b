//! The `:` prompt's line editing, as a shell's: cursor keys, `C-a`/`C-e`, `M-b`/`M-f`, `C-w`,
//! `C-u`, `C-k`, `C-t`, history with Up and Down, and Tab completion of command and option
//! names and, after `-t` or `-s`, of sessions, windows and panes. With `status-keys vi`, keys
//! are read as tmux reads them: typing inserts until Escape, which switches to vi's command
//! keys (`h` `l` `w` `b` `e` `0` `$` `x` `X` `D` `C` `S` `dd` `i` `a` `A` `I` `j` `k`, `q` to
//! cancel) until `i`, `a` or Escape again.

use super::prompt_targets::Targets;
// What a word is made of in word motions: tmux's default `word-separators`.
use crate::copy::motion::WORD_SEPARATORS;

/// The most lines the prompt's history keeps (server-wide), whatever
/// `prompt-history-limit` asks: a bound on the memory it takes.
pub(super) const MAX_HISTORY_LINES: usize = 10_000;

/// What a key did to the line.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Edit {
    /// The text or the cursor changed (or nothing did).
    Edited,
    /// Enter.
    Submit,
    /// Escape, `C-c`, `C-g`.
    Cancel,
}

/// A line being edited: its text and the cursor (a byte index on a character boundary).
#[derive(Debug, Default, Clone)]
pub(super) struct LineEditor {
    text: String,
    cursor: usize,
    /// While walking the history: the entry shown (0 the newest) and the line typed before.
    walk: Option<(usize, String)>,
    /// With `status-keys vi`: in vi's command keys (else typing inserts).
    vi_command: bool,
}

impl LineEditor {
    /// A line holding `text`, the cursor at its end.
    pub(super) fn new(text: String) -> Self {
        let cursor = text.len();
        LineEditor {
            text,
            cursor,
            walk: None,
            vi_command: false,
        }
    }

    /// In vi's command keys (`status-keys vi` after Escape): the prompt shows it.
    pub(super) fn in_vi_command(&self) -> bool {
        self.vi_command
    }

    /// The text.
    pub(super) fn text(&self) -> &str {
        &self.text
    }

    /// Characters before the cursor.
    pub(super) fn cursor_chars(&self) -> usize {
        self.text[..self.cursor].chars().count()
    }

    fn set(&mut self, text: String) {
        self.cursor = text.len();
        self.text = text;
    }

    fn prev_boundary(&self, at: usize) -> usize {
        self.text[..at].char_indices().last().map_or(0, |(i, _)| i)
    }

    fn next_boundary(&self, at: usize) -> usize {
        self.text[at..]
            .chars()
            .next()
            .map_or(at, |c| at + c.len_utf8())
    }

    /// Applies key `name`, read as vi's keys when `vi` (`status-keys vi`); `history` is newest
    /// first; `complete` lists completions of a partial line (the text before the cursor).
    pub(super) fn key(
        &mut self,
        name: &str,
        vi: bool,
        history: &[String],
        complete: &dyn Fn(&str) -> Vec<String>,
    ) -> Edit {
        let name = if vi {
            match self.vi_key(name) {
                Some(key) => key,
                None => return Edit::Edited,
            }
        } else {
            name
        };
        match name {
            "Enter" => return Edit::Submit,
            "Escape" | "C-c" | "C-g" => return Edit::Cancel,
            "Left" | "C-b" => self.cursor = self.prev_boundary(self.cursor),
            "Right" | "C-f" => self.cursor = self.next_boundary(self.cursor),
            "Home" | "C-a" => self.cursor = 0,
            "End" | "C-e" => self.cursor = self.text.len(),
            "BSpace" | "C-h" => {
                let start = self.prev_boundary(self.cursor);
                self.text.replace_range(start..self.cursor, "");
                self.cursor = start;
            }
            "DC" | "C-d" => {
                let end = self.next_boundary(self.cursor);
                self.text.replace_range(self.cursor..end, "");
            }
            "C-u" => {
                self.text.replace_range(..self.cursor, "");
                self.cursor = 0;
            }
            "C-k" => self.text.truncate(self.cursor),
            "M-b" | "C-Left" => self.cursor = self.word_start(WORD_SEPARATORS),
            VI_BIG_BACK => self.cursor = self.word_start(""),
            "M-f" | "C-Right" => self.cursor = self.word_forward(false, WORD_SEPARATORS),
            VI_FORWARD => self.cursor = self.word_forward(true, WORD_SEPARATORS),
            VI_BIG_FORWARD => self.cursor = self.word_forward(true, ""),
            VI_END => self.cursor = self.word_end(WORD_SEPARATORS),
            VI_BIG_END => self.cursor = self.word_end(""),
            "C-t" => self.transpose(),
            VI_CLEAR => self.set(String::new()),
            "C-w" => {
                let before = &self.text[..self.cursor];
                let trimmed = before.trim_end_matches(' ');
                let start = trimmed.rfind(' ').map_or(0, |i| i + 1);
                self.text.replace_range(start..self.cursor, "");
                self.cursor = start;
            }
            "Up" | "C-p" => {
                let next = self.walk.as_ref().map_or(0, |(i, _)| i + 1);
                if let Some(line) = history.get(next) {
                    let typed = self
                        .walk
                        .take()
                        .map_or_else(|| self.text.clone(), |(_, t)| t);
                    self.walk = Some((next, typed));
                    self.set(line.clone());
                }
            }
            "Down" | "C-n" => match self.walk.take() {
                Some((0, typed)) => self.set(typed),
                Some((i, typed)) => {
                    if let Some(line) = history.get(i - 1) {
                        self.set(line.clone());
                    }
                    self.walk = Some((i - 1, typed));
                }
                None => {}
            },
            "Tab" => {
                let before = &self.text[..self.cursor];
                let found = complete(before);
                if let Some(common) = common_prefix(&found) {
                    if common.len() > before.len() && common.starts_with(before) {
                        let rest = common[before.len()..].to_string();
                        // A session completed (`work:`) goes on with its window.
                        let add = if found.len() == 1 && !rest.ends_with(':') {
                            format!("{rest} ")
                        } else {
                            rest
                        };
                        self.text.insert_str(self.cursor, &add);
                        self.cursor += add.len();
                    }
                }
            }
            "Space" => self.insert(" "),
            n if n.chars().count() == 1 => self.insert(n),
            _ => {}
        }
        Edit::Edited
    }

    fn insert(&mut self, s: &str) {
        self.text.insert_str(self.cursor, s);
        self.cursor += s.len();
    }

    /// `status-keys vi`: the key `name` stands for, as tmux's `status_prompt_translate_key`
    /// reads it (the emacs key, or a vi motion); `None` drops it. Switches between typing and
    /// the command keys.
    fn vi_key<'k>(&mut self, name: &'k str) -> Option<&'k str> {
        if !self.vi_command {
            if name == "Escape" {
                self.vi_command = true;
                return None;
            }
            return Some(name);
        }
        match name {
            "BSpace" => return Some("Left"),
            "A" | "I" | "C" | "s" | "a" => self.vi_command = false,
            "S" => {
                self.vi_command = false;
                return Some(VI_CLEAR);
            }
            "i" | "Escape" => {
                self.vi_command = false;
                return None;
            }
            _ => {}
        }
        Some(match name {
            "A" | "$" => "End",
            "I" | "0" | "^" => "Home",
            "C" | "D" => "C-k",
            "X" => "BSpace",
            "b" => "M-b",
            "B" => VI_BIG_BACK,
            "d" => VI_CLEAR,
            "e" => VI_END,
            "E" => VI_BIG_END,
            "w" => VI_FORWARD,
            "W" => VI_BIG_FORWARD,
            "q" => "C-c",
            "s" | "DC" | "x" => "DC",
            "Down" | "j" => "Down",
            "Left" | "h" => "Left",
            "a" | "Right" | "l" => "Right",
            "Up" | "k" => "Up",
            "C-h" | "C-c" | "Enter" => name,
            _ => return None,
        })
    }

    /// The line as characters, and the cursor as a character index.
    fn chars(&self) -> (Vec<char>, usize) {
        (self.text.chars().collect(), self.cursor_chars())
    }

    /// The byte index of character `i`.
    fn byte_at(&self, i: usize) -> usize {
        self.text
            .char_indices()
            .nth(i)
            .map_or(self.text.len(), |(b, _)| b)
    }

    /// Where the word before the cursor starts (`M-b`, vi's `b`; `B` with no separators).
    fn word_start(&self, separators: &str) -> usize {
        let (line, mut i) = self.chars();
        while i > 0 && line[i - 1] == ' ' {
            i -= 1;
        }
        if i == 0 {
            return 0;
        }
        let class = separators.contains(line[i - 1]);
        while i > 0 && line[i - 1] != ' ' && separators.contains(line[i - 1]) == class {
            i -= 1;
        }
        self.byte_at(i)
    }

    /// Where the next word starts (`vi`: vi's `w`, after the spaces) or the word ends (emacs's
    /// `M-f`, over spaces first).
    fn word_forward(&self, vi: bool, separators: &str) -> usize {
        let (line, mut i) = self.chars();
        let len = line.len();
        if !vi {
            while i < len && line[i] == ' ' {
                i += 1;
            }
        }
        if i == len {
            return self.byte_at(i);
        }
        let class = separators.contains(line[i]) && line[i] != ' ';
        loop {
            i += 1;
            if i == len {
                break;
            }
            if line[i] == ' ' {
                while vi && i < len && line[i] == ' ' {
                    i += 1;
                }
                break;
            }
            if separators.contains(line[i]) != class {
                break;
            }
        }
        self.byte_at(i)
    }

    /// The last character of this or the next word (vi's `e`; `E` with no separators).
    fn word_end(&self, separators: &str) -> usize {
        let (line, mut i) = self.chars();
        let len = line.len();
        if i >= len {
            return self.byte_at(i);
        }
        loop {
            i += 1;
            if i >= len {
                return self.byte_at(len);
            }
            if line[i] != ' ' {
                break;
            }
        }
        let class = separators.contains(line[i]);
        while i + 1 < len && line[i + 1] != ' ' && separators.contains(line[i + 1]) == class {
            i += 1;
        }
        self.byte_at(i)
    }

    /// `C-t`: swaps the characters before the cursor (the one under it, when there is one)
    /// and moves past them.
    fn transpose(&mut self) {
        let (mut line, mut i) = self.chars();
        if i < line.len() {
            i += 1;
        }
        if i >= 2 {
            line.swap(i - 2, i - 1);
            self.text = line.into_iter().collect();
            self.cursor = self.byte_at(i);
        }
    }
}

/// vi's `w`, `W`, `e`, `E` and `B`, which have no emacs key: names no terminal key has.
const VI_FORWARD: &str = "vi-w";
/// See [`VI_FORWARD`].
const VI_BIG_FORWARD: &str = "vi-W";
/// See [`VI_FORWARD`].
const VI_END: &str = "vi-e";
/// See [`VI_FORWARD`].
const VI_BIG_END: &str = "vi-E";
/// See [`VI_FORWARD`].
const VI_BIG_BACK: &str = "vi-B";
/// vi's `dd` and `S`: the whole line goes (`C-u` keeps what follows the cursor).
const VI_CLEAR: &str = "vi-clear";

/// The longest start all of `items` share.
fn common_prefix(items: &[String]) -> Option<String> {
    let first = items.first()?;
    let mut len = first.len();
    for item in &items[1..] {
        len = first
            .char_indices()
            .zip(item.chars())
            .take_while(|((_, a), b)| a == b)
            .last()
            .map_or(0, |((i, a), _)| i + a.len_utf8())
            .min(len);
    }
    Some(first[..len].to_string())
}

/// Completions of a partial prompt line: command names for the first word, option names after
/// `set-option` / `show-options` and their aliases, and after `-t` or `-s` the `targets`:
/// session names (`work:`), then after a `:` that session's windows (`work:1`, `work:vim`),
/// and pane ids after a `%`. Each is the whole line so far, completed.
pub(super) fn completions(line: &str, targets: &Targets) -> Vec<String> {
    let (done, word) = match line.rfind(' ') {
        Some(i) => (&line[..=i], &line[i + 1..]),
        None => ("", line),
    };
    let mut words = done.split_whitespace();
    let first = words.next();
    let after_target_flag = matches!(words.last(), Some("-t" | "-s"));
    let names: Vec<&str> = match first {
        None => crate::cmd::ENTRIES
            .iter()
            .flat_map(|e| std::iter::once(e.name).chain(e.aliases.iter().copied()))
            .collect(),
        Some(_) if after_target_flag => {
            let list = if word.starts_with('%') {
                &targets.panes
            } else if word.contains(':') {
                &targets.windows
            } else {
                &targets.sessions
            };
            list.iter().map(String::as_str).collect()
        }
        Some(cmd) => match crate::cmd::lookup(cmd).map(|e| e.name) {
            Some("set-option" | "show-options") if !word.starts_with('-') => {
                crate::options::OPTIONS.iter().map(|o| o.name).collect()
            }
            _ => Vec::new(),
        },
    };
    let mut found: Vec<String> = names
        .into_iter()
        .filter(|n| n.starts_with(word))
        .map(|n| format!("{done}{n}"))
        .collect();
    found.sort();
    found.dedup();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_targets(line: &str) -> Vec<String> {
        completions(line, &Targets::default())
    }

    fn typed(e: &mut LineEditor, keys: &[&str]) {
        for k in keys {
            e.key(k, false, &[], &no_targets);
        }
    }

    #[test]
    fn editing_moves_and_deletes_by_characters_and_words() {
        let mut e = LineEditor::new("split-window -h".into());
        typed(&mut e, &["C-a", "Right", "Right", "x", "End", "C-w"]);
        assert_eq!(e.text(), "spxlit-window ");
        typed(&mut e, &["Left", "Left", "C-k"]);
        assert_eq!(e.text(), "spxlit-windo");
        typed(&mut e, &["C-u"]);
        assert_eq!(e.text(), "");
        let mut w = LineEditor::new("é字x".into());
        typed(&mut w, &["Left", "BSpace"]);
        assert_eq!((w.text(), w.cursor_chars()), ("éx", 1));
    }

    fn vi_typed(e: &mut LineEditor, keys: &[&str]) {
        for k in keys {
            e.key(k, true, &[], &no_targets);
        }
    }

    #[test]
    fn vi_keys_insert_until_escape_then_move_and_delete() {
        let mut e = LineEditor::new(String::new());
        vi_typed(&mut e, &["n", "e", "w", "Space", "w", "i", "n"]);
        assert_eq!(e.text(), "new win");
        vi_typed(&mut e, &["Escape"]);
        assert!(e.in_vi_command());
        vi_typed(&mut e, &["0", "x", "x"]);
        assert_eq!(
            (e.text(), e.cursor_chars()),
            ("w win", 0),
            "x deletes, 0 goes home"
        );
        vi_typed(&mut e, &["w"]);
        assert_eq!(e.cursor_chars(), 2, "w: the next word");
        vi_typed(&mut e, &["D"]);
        assert_eq!(e.text(), "w ");
        vi_typed(&mut e, &["b"]);
        assert_eq!(e.cursor_chars(), 0, "b: back to the w");
        vi_typed(&mut e, &["e"]);
        assert_eq!(e.cursor_chars(), 2, "e: no word ends after it, so the end");
        vi_typed(&mut e, &["0"]);
        vi_typed(&mut e, &["A", "x", "y"]);
        assert!(!e.in_vi_command(), "A types at the end");
        assert_eq!(e.text(), "w xy");
        vi_typed(&mut e, &["Escape", "h", "X"]);
        assert_eq!(e.text(), "w y", "h, then X deletes the x before the cursor");
        vi_typed(&mut e, &["d"]);
        assert_eq!(e.text(), "", "d clears the line (as tmux's dd)");
        vi_typed(&mut e, &["S", "q"]);
        assert_eq!(e.text(), "q", "S: typing again, so q is a letter");
        vi_typed(&mut e, &["Escape"]);
        assert_eq!(e.key("q", true, &[], &no_targets), Edit::Cancel);
        assert_eq!(e.key("Enter", true, &[], &no_targets), Edit::Submit);
        vi_typed(&mut e, &["Escape"]);
        assert!(!e.in_vi_command(), "Escape again: typing");
    }

    #[test]
    fn emacs_word_motions_and_transpose() {
        let mut e = LineEditor::new("select-pane -t :1".into());
        typed(&mut e, &["M-b"]);
        assert_eq!(
            e.cursor_chars(),
            16,
            "M-b: to the 1 (the colon is a separator)"
        );
        typed(&mut e, &["M-b", "M-b"]);
        assert_eq!(e.cursor_chars(), 13, "the -t's t");
        typed(&mut e, &["C-a", "M-f"]);
        assert_eq!(e.cursor_chars(), 6, "M-f: past select");
        let mut t = LineEditor::new("ab".into());
        typed(&mut t, &["C-t"]);
        assert_eq!(t.text(), "ba");
    }

    #[test]
    fn history_walks_and_returns_to_the_typed_line() {
        let history = vec!["new-window".to_string(), "split-window".to_string()];
        let mut e = LineEditor::new("kill".into());
        e.key("Up", false, &history, &no_targets);
        assert_eq!(e.text(), "new-window");
        e.key("Up", false, &history, &no_targets);
        assert_eq!(e.text(), "split-window");
        e.key("Down", false, &history, &no_targets);
        e.key("Down", false, &history, &no_targets);
        assert_eq!(e.text(), "kill");
    }

    #[test]
    fn tab_completes_commands_and_options() {
        let mut e = LineEditor::new("split-w".into());
        typed(&mut e, &["Tab"]);
        assert_eq!(e.text(), "split-window ");
        let mut e = LineEditor::new("set -g status-po".into());
        typed(&mut e, &["Tab"]);
        assert_eq!(e.text(), "set -g status-position ");
        let mut e = LineEditor::new("sel".into());
        typed(&mut e, &["Tab"]);
        assert_eq!(
            e.text(),
            "select",
            "the shared start of select-layout, selectp, ..."
        );
    }

    #[test]
    fn tab_completes_sessions_windows_and_panes_after_t_and_s() {
        let targets = Targets {
            sessions: vec!["work:".into(), "play:".into()],
            windows: vec!["work:0".into(), "work:1".into(), "work:vim".into()],
            panes: vec!["%3".into(), "%12".into()],
        };
        let tab = |line: &str| {
            let mut e = LineEditor::new(line.into());
            e.key("Tab", false, &[], &|l: &str| completions(l, &targets));
            e.text().to_string()
        };
        assert_eq!(tab("select-window -t wo"), "select-window -t work:");
        assert_eq!(tab("select-window -t work:v"), "select-window -t work:vim ");
        assert_eq!(tab("swap-pane -s %1"), "swap-pane -s %12 ");
        assert_eq!(
            tab("kill-session -t x"),
            "kill-session -t x",
            "no such session"
        );
        assert_eq!(tab("rename-window wo"), "rename-window wo", "not after -t");
    }
}
