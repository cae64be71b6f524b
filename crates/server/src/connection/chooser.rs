//! `choose-buffer`: the paste buffers listed over the window, one line each (name, size, the
//! start of the text). Up/Down (or k/j) move, Enter pastes the chosen buffer into the active
//! pane (bracketed if its program asked, as `paste-buffer -p`), `d` deletes it, `q` or Escape
//! leaves.

use super::ui::{After, ClientLoop, Ui};
use crate::buffers::Buffer;
use crate::cmd::buffers::{line, paste, PasteOptions};
use crate::keys::Input;
use crate::render::{Overlay, RenderControl};

/// The chooser's state: which buffer is selected (by name, so a buffer added meanwhile does
/// not move the selection to another), and the first line shown.
#[derive(Debug, Default)]
pub(super) struct Chooser {
    selected: usize,
    name: Option<String>,
    top: usize,
    /// What Enter runs instead of pasting, `%%` standing for the buffer's name
    /// (`choose-buffer "delete-buffer -b '%%'"`).
    template: Option<String>,
}

/// What a key does in the chooser.
#[derive(Debug, PartialEq, Eq)]
enum Choice {
    Up,
    Down,
    Paste,
    Delete,
    Leave,
    Nothing,
}

fn choice(input: &Input) -> Choice {
    let Input::Key { name, .. } = input else {
        return Choice::Nothing;
    };
    match name.as_str() {
        "Up" | "k" | "C-p" => Choice::Up,
        "Down" | "j" | "C-n" => Choice::Down,
        "Enter" => Choice::Paste,
        "d" => Choice::Delete,
        "q" | "Escape" | "C-c" | "C-g" => Choice::Leave,
        _ => Choice::Nothing,
    }
}

impl ClientLoop {
    /// Opens the chooser (Enter runs `template` for the buffer chosen, if given), or says
    /// there is nothing to choose.
    pub(super) async fn open_chooser(&mut self, template: Option<String>) {
        let chooser = Chooser {
            template,
            ..Chooser::default()
        };
        if !self.draw_chooser(chooser).await {
            self.message("no buffers: copy some text or run set-buffer first".into())
                .await;
        }
    }

    /// A key while the chooser is shown.
    pub(super) async fn chooser_key(&mut self, mut chooser: Chooser, input: &Input) -> After {
        let buffers = self.ctx.buffers.list();
        chooser.selected = chooser
            .name
            .as_ref()
            .and_then(|n| buffers.iter().position(|b| &b.name == n))
            .unwrap_or(chooser.selected)
            .min(buffers.len().saturating_sub(1));
        match choice(input) {
            Choice::Up => chooser.selected = chooser.selected.saturating_sub(1),
            Choice::Down => {
                chooser.selected = (chooser.selected + 1).min(buffers.len().saturating_sub(1))
            }
            Choice::Paste => {
                self.close_chooser().await;
                let Some(buffer) = buffers.get(chooser.selected) else {
                    return After::Continue;
                };
                if let Some(template) = &chooser.template {
                    let line = crate::cmd::fill_template(template, &buffer.name);
                    return self.run_line(&line).await;
                }
                self.paste_chosen(buffer).await;
                return After::Continue;
            }
            Choice::Delete => {
                if let Some(buffer) = buffers.get(chooser.selected) {
                    let _ = self.ctx.buffers.delete(Some(&buffer.name));
                }
                chooser.name = None;
            }
            Choice::Leave => {
                self.close_chooser().await;
                return After::Continue;
            }
            Choice::Nothing => {
                // Nothing changes (a mouse move, another key): nothing to draw.
                self.ui = Ui::Chooser(chooser);
                return After::Continue;
            }
        }
        if !self.draw_chooser(chooser).await {
            self.close_chooser().await;
        }
        After::Continue
    }

    /// Pastes `buffer` into the active pane, as `paste-buffer -p -b NAME`.
    async fn paste_chosen(&mut self, buffer: &Buffer) {
        let Some(pane) = self.view.borrow().active_pane().cloned() else {
            return;
        };
        let options = PasteOptions {
            bracket: true,
            ..PasteOptions::default()
        };
        if let Err(e) = paste(&self.ctx, &pane, Some(&buffer.name), &options).await {
            self.message(e.to_string()).await;
        }
    }

    async fn close_chooser(&mut self) {
        self.ui = Ui::Normal;
        let _ = self.render.send(RenderControl::Overlay(None)).await;
    }

    /// Draws the list with the selection marked, scrolled to show it; false when there are
    /// no buffers to show.
    async fn draw_chooser(&mut self, mut chooser: Chooser) -> bool {
        let buffers = self.ctx.buffers.list();
        if buffers.is_empty() {
            return false;
        }
        chooser.selected = chooser.selected.min(buffers.len() - 1);
        chooser.name = Some(buffers[chooser.selected].name.clone());
        // One row for the help line.
        let rows = usize::from(self.view.borrow().window.rows)
            .saturating_sub(1)
            .max(1);
        if chooser.selected < chooser.top {
            chooser.top = chooser.selected;
        } else if chooser.selected >= chooser.top + rows {
            chooser.top = chooser.selected + 1 - rows;
        }
        let mut lines = vec![format!(
            "choose-buffer ({}): Enter paste, d delete, q leave",
            buffers.len()
        )];
        for (i, buffer) in buffers.iter().enumerate().skip(chooser.top).take(rows) {
            let mark = if i == chooser.selected { "> " } else { "  " };
            lines.push(format!("{mark}{}", line(buffer)));
        }
        let _ = self
            .render
            .send(RenderControl::Overlay(Some(Overlay::Lines(lines))))
            .await;
        self.ui = Ui::Chooser(chooser);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str) -> Input {
        Input::Key {
            name: name.into(),
            bytes: bytes::Bytes::new(),
        }
    }

    #[test]
    fn keys_choose_as_tmuxs_chooser() {
        assert_eq!(choice(&key("Up")), Choice::Up);
        assert_eq!(choice(&key("j")), Choice::Down);
        assert_eq!(choice(&key("Enter")), Choice::Paste);
        assert_eq!(choice(&key("d")), Choice::Delete);
        assert_eq!(choice(&key("Escape")), Choice::Leave);
        assert_eq!(choice(&key("x")), Choice::Nothing);
    }
}
