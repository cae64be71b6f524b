//! Listings over the window (`C-b ?`, `list-keys`, any command's output of several lines),
//! as tmux's view mode shows them: scrolled with the arrows, the page keys, `g` and `G` (or
//! the wheel), searched with `/` (then `n` and `N`), closed only with `q` or Escape, so a key
//! pressed to scroll never lands in a pane by surprise.

use super::ui::{After, ClientLoop, Ui};
use crate::render::{Overlay, RenderControl};

/// A listing being read, and where.
pub(super) struct Pager {
    lines: Vec<String>,
    /// The first line shown.
    top: usize,
    /// A search being typed after `/`.
    typing: Option<String>,
    /// The last search, for `n` and `N`.
    query: Option<String>,
    /// Said in the footer until the next key (a search that found nothing).
    note: Option<String>,
}

/// What a key did to the pager.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    Stay,
    Close,
}

/// Lines the wheel scrolls at a time, as tmux's view mode.
const WHEEL_LINES: usize = 5;

impl Pager {
    /// A pager at the top of `text`.
    pub(super) fn new(text: &str) -> Pager {
        Pager {
            lines: text.lines().map(str::to_string).collect(),
            top: 0,
            typing: None,
            query: None,
            note: None,
        }
    }

    /// Moves for the key `name`, with `rows` rows of window to show it in.
    fn key(&mut self, name: &str, rows: usize) -> Step {
        self.note = None;
        if let Some(typed) = self.typing.as_mut() {
            match name {
                "Enter" | "C-m" => {
                    let query = std::mem::take(typed);
                    self.typing = None;
                    if !query.is_empty() {
                        self.query = Some(query);
                    }
                    self.find(true, rows);
                }
                "Escape" | "C-c" | "C-g" => self.typing = None,
                "BSpace" | "C-h" => {
                    typed.pop();
                }
                "Space" => typed.push(' '),
                key if key.chars().count() == 1 => typed.push_str(key),
                _ => {}
            }
            return Step::Stay;
        }
        let page = Self::page_rows(rows).max(1);
        let last = self.last_top(rows);
        self.top = match name {
            "q" | "Escape" | "C-c" => return Step::Close,
            "Up" | "k" | "C-p" | "C-y" => self.top.saturating_sub(1),
            "Down" | "j" | "C-n" | "C-e" | "Enter" => self.top + 1,
            "PPage" | "PageUp" | "C-b" | "b" => self.top.saturating_sub(page),
            "NPage" | "PageDown" | "C-f" | "f" | "Space" => self.top + page,
            "C-u" => self.top.saturating_sub(page / 2),
            "C-d" => self.top + page / 2,
            "g" | "Home" => 0,
            "G" | "End" => last,
            "WheelUpPane" => self.top.saturating_sub(WHEEL_LINES),
            "WheelDownPane" => self.top + WHEEL_LINES,
            "/" | "?" | "C-s" | "C-r" => {
                self.typing = Some(String::new());
                self.top
            }
            "n" => {
                self.find(true, rows);
                self.top
            }
            "N" => {
                self.find(false, rows);
                self.top
            }
            _ => self.top,
        }
        .min(last);
        Step::Stay
    }

    /// Shows the next line (or the previous, `forward` false) holding the last search at the
    /// top, going round at the end; says so when no line holds it.
    fn find(&mut self, forward: bool, rows: usize) {
        let Some(query) = self.query.as_deref() else {
            return;
        };
        let needle = query.to_lowercase();
        let count = self.lines.len();
        let found = (1..=count)
            .map(|step| {
                if forward {
                    (self.top + step) % count
                } else {
                    (self.top + count - step % count) % count
                }
            })
            .find(|&i| self.lines[i].to_lowercase().contains(&needle));
        match found {
            Some(i) => self.top = i.min(self.last_top(rows)),
            None => self.note = Some(format!("not found: {query}")),
        }
    }

    /// Rows of listing above the footer.
    fn page_rows(rows: usize) -> usize {
        rows.saturating_sub(1)
    }

    /// The last line that may be at the top: the listing's end fills the page.
    fn last_top(&self, rows: usize) -> usize {
        self.lines.len().saturating_sub(Self::page_rows(rows))
    }

    /// What the window shows: a page of the listing and a footer saying where it is.
    pub(super) fn page(&self, rows: usize) -> Vec<String> {
        let shown = Self::page_rows(rows);
        let mut page: Vec<String> = self
            .lines
            .iter()
            .skip(self.top)
            .take(shown)
            .cloned()
            .collect();
        page.resize(shown.min(self.lines.len()), String::new());
        let footer = match (&self.typing, &self.note) {
            (Some(typed), _) => format!("/{typed}"),
            (None, Some(note)) => note.clone(),
            (None, None) => {
                let end = (self.top + shown).min(self.lines.len());
                format!(
                    "[{}-{} of {}]  arrows, PageUp/PageDown scroll; / searches; q closes",
                    (self.top + 1).min(end),
                    end,
                    self.lines.len()
                )
            }
        };
        page.push(footer);
        page
    }
}

impl ClientLoop {
    /// Shows `text` in a pager over the window.
    pub(super) async fn open_pager(&mut self, text: &str) {
        let pager = Pager::new(text);
        self.draw_pager(&pager).await;
        self.ui = Ui::Pager(pager);
    }

    /// A key (or the wheel) while the pager is shown.
    pub(super) async fn pager_key(&mut self, mut pager: Pager, name: &str) -> After {
        if pager.key(name, self.window_rows()) == Step::Close {
            let _ = self.render.send(RenderControl::Overlay(None)).await;
            return After::Continue;
        }
        self.draw_pager(&pager).await;
        self.ui = Ui::Pager(pager);
        After::Continue
    }

    async fn draw_pager(&mut self, pager: &Pager) {
        let page = pager.page(self.window_rows());
        let _ = self
            .render
            .send(RenderControl::Overlay(Some(Overlay::Lines(page))))
            .await;
    }

    /// Rows of the window the overlay covers.
    fn window_rows(&self) -> usize {
        usize::from(self.view.borrow().window.rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(n: usize) -> Pager {
        let text: String = (0..n).map(|i| format!("line {i}\n")).collect();
        Pager::new(&text)
    }

    #[test]
    fn scrolls_by_lines_and_pages_within_the_listing() {
        let mut p = listing(100);
        // 11 rows: 10 of listing and the footer.
        assert_eq!(p.page(11)[0], "line 0");
        assert_eq!(
            p.page(11)[10],
            "[1-10 of 100]  arrows, PageUp/PageDown scroll; / searches; q closes"
        );
        p.key("Down", 11);
        assert_eq!(p.page(11)[0], "line 1");
        p.key("NPage", 11);
        assert_eq!(p.page(11)[0], "line 11");
        p.key("G", 11);
        assert_eq!(p.page(11)[0], "line 90");
        p.key("Down", 11);
        assert_eq!(p.page(11)[0], "line 90", "the end fills the page");
        p.key("g", 11);
        p.key("Up", 11);
        assert_eq!(p.page(11)[0], "line 0");
        assert_eq!(p.key("x", 11), Step::Stay, "other keys keep it open");
        assert_eq!(p.key("q", 11), Step::Close);
        assert_eq!(listing(3).key("Escape", 11), Step::Close);
    }

    #[test]
    fn searches_forward_and_back_going_round() {
        let mut p = Pager::new("alpha\nbind x\ngamma\nBIND y\ndelta\n");
        for key in ["/", "b", "i", "n", "d", "Enter"] {
            p.key(key, 3);
        }
        assert_eq!(p.page(3)[0], "bind x");
        p.key("n", 3);
        // Line 3 is the last that may be at the top of a 2-line page.
        assert_eq!(p.page(3)[0], "BIND y", "case does not matter");
        p.key("n", 3);
        assert_eq!(p.page(3)[0], "bind x", "round from the end");
        p.key("N", 3);
        assert_eq!(p.page(3)[0], "BIND y");
        for key in ["/", "z", "z", "Enter"] {
            p.key(key, 3);
        }
        assert_eq!(p.page(3)[2], "not found: zz");
        p.key("/", 3);
        p.key("q", 3);
        assert_eq!(p.page(3)[2], "/q", "q is typed into a search, not a close");
    }

    #[test]
    fn a_short_listing_and_an_empty_one_still_have_a_footer() {
        let p = Pager::new("one\ntwo\n");
        assert_eq!(
            p.page(10),
            [
                "one",
                "two",
                "[1-2 of 2]  arrows, PageUp/PageDown scroll; / searches; q closes"
            ]
        );
        let empty = Pager::new("");
        assert_eq!(empty.page(10).len(), 1);
        let mut none = Pager::new("");
        none.key("G", 10);
        none.key("n", 10);
        assert_eq!(
            none.page(0).len(),
            1,
            "no rows at all still draws without panicking"
        );
    }
}
