//! The `:` prompt's line editing, as a shell's: cursor keys, `C-a`/`C-e`, `C-w`, `C-u`, `C-k`,
//! history with Up and Down, and Tab completion of command and option names and, after `-t`
//! or `-s`, of sessions, windows and panes.

use super::prompt_targets::Targets;

/// How many lines the prompt's history keeps (server-wide).
pub(super) const HISTORY_LINES: usize = 100;

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
}

impl LineEditor {
    /// A line holding `text`, the cursor at its end.
    pub(super) fn new(text: String) -> Self {
        let cursor = text.len();
        LineEditor {
            text,
            cursor,
            walk: None,
        }
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

    /// Applies key `name`; `history` is newest first; `complete` lists completions of a
    /// partial line (the text before the cursor).
    pub(super) fn key(
        &mut self,
        name: &str,
        history: &[String],
        complete: &dyn Fn(&str) -> Vec<String>,
    ) -> Edit {
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
}

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
            e.key(k, &[], &no_targets);
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

    #[test]
    fn history_walks_and_returns_to_the_typed_line() {
        let history = vec!["new-window".to_string(), "split-window".to_string()];
        let mut e = LineEditor::new("kill".into());
        e.key("Up", &history, &no_targets);
        assert_eq!(e.text(), "new-window");
        e.key("Up", &history, &no_targets);
        assert_eq!(e.text(), "split-window");
        e.key("Down", &history, &no_targets);
        e.key("Down", &history, &no_targets);
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
            e.key("Tab", &[], &|l: &str| completions(l, &targets));
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
