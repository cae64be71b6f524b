//! `choose-buffer` and `choose-client`: the paste buffers (name, size, the start of the text)
//! or the attached clients (name, session, size, terminal) listed over the window, one line
//! each. Up/Down (or k/j) move, Enter acts on the one chosen (pastes the buffer into the active
//! pane, bracketed if its program asked, as `paste-buffer -p`; detaches the client), or runs
//! the template given for it; `d` deletes the buffer or detaches the client; `e` edits the
//! buffer in the user's editor (see `buffer_editor`); `q` or Escape leaves.

use super::ui::{After, ClientLoop, Ui};
use crate::cmd::buffers::{line, paste, PasteOptions};
use crate::keys::Input;
use crate::outcome::Output;
use crate::render::{Overlay, RenderControl};

/// What the chooser lists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Choosing {
    /// The paste buffers (`choose-buffer`).
    #[default]
    Buffers,
    /// The attached clients (`choose-client`).
    Clients,
}

/// The chooser's state: which item is selected (by name, so an item added meanwhile does not
/// move the selection to another), and the first line shown.
#[derive(Debug, Default)]
pub(super) struct Chooser {
    choosing: Choosing,
    selected: usize,
    name: Option<String>,
    top: usize,
    /// What Enter runs instead of the default, `%%` standing for the item's name
    /// (`choose-buffer "delete-buffer -b '%%'"`).
    template: Option<String>,
}

/// What a key does in the chooser.
#[derive(Debug, PartialEq, Eq)]
enum Choice {
    Up,
    Down,
    Choose,
    Delete,
    Edit,
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
        "Enter" => Choice::Choose,
        "d" => Choice::Delete,
        "e" => Choice::Edit,
        "q" | "Escape" | "C-c" | "C-g" => Choice::Leave,
        _ => Choice::Nothing,
    }
}

/// The most clients listed (a server has far fewer).
const MAX_CLIENTS_LISTED: usize = 1000;

impl ClientLoop {
    /// Opens the chooser of `choosing` (Enter runs `template` for the item chosen, if given),
    /// or says there is nothing to choose.
    pub(super) async fn open_chooser(&mut self, choosing: Choosing, template: Option<String>) {
        let chooser = Chooser {
            choosing,
            template,
            ..Chooser::default()
        };
        if !self.draw_chooser(chooser).await {
            let text = match choosing {
                Choosing::Buffers => "no buffers: copy some text or run set-buffer first",
                Choosing::Clients => "no clients are attached",
            };
            self.message(text.into()).await;
        }
    }

    /// The items listed: each one's name and its line.
    async fn chooser_items(&self, choosing: Choosing) -> Vec<(String, String)> {
        match choosing {
            Choosing::Buffers => self
                .ctx
                .buffers
                .list()
                .iter()
                .map(|b| (b.name.clone(), line(b)))
                .collect(),
            Choosing::Clients => {
                let format = "#{client_name}\t#{client_name}: #{client_session} \
                              [#{client_width}x#{client_height} #{client_termname}]";
                let mut items = Vec::new();
                for session in self.ctx.registry.all().await {
                    let listed = Box::new(move |s: &mut crate::session::SessionState, _: &_| {
                        Ok(Output::text(s.client_lines(format).join("\n")))
                    });
                    if let Ok(out) = session.run(listed, Default::default()).await {
                        items.extend(out.stdout.lines().filter_map(|l| {
                            let (name, shown) = l.split_once('\t')?;
                            Some((name.to_string(), shown.to_string()))
                        }));
                    }
                }
                items.truncate(MAX_CLIENTS_LISTED);
                items
            }
        }
    }

    /// A key while the chooser is shown.
    pub(super) async fn chooser_key(&mut self, mut chooser: Chooser, input: &Input) -> After {
        let items = self.chooser_items(chooser.choosing).await;
        chooser.selected = chooser
            .name
            .as_ref()
            .and_then(|n| items.iter().position(|(name, _)| name == n))
            .unwrap_or(chooser.selected)
            .min(items.len().saturating_sub(1));
        let chosen = items.get(chooser.selected).map(|(name, _)| name.clone());
        match choice(input) {
            Choice::Up => chooser.selected = chooser.selected.saturating_sub(1),
            Choice::Down => {
                chooser.selected = (chooser.selected + 1).min(items.len().saturating_sub(1))
            }
            Choice::Choose => {
                self.close_chooser().await;
                let Some(name) = chosen else {
                    return After::Continue;
                };
                if let Some(template) = &chooser.template {
                    let line = crate::cmd::fill_template(template, &name);
                    return self.run_line(&line).await;
                }
                return self.act_on_chosen(chooser.choosing, &name).await;
            }
            Choice::Delete => {
                chooser.name = None;
                if let Some(name) = chosen {
                    if chooser.choosing == Choosing::Clients {
                        // Detaching may be this client's own end: the list closes first.
                        self.close_chooser().await;
                        return self.act_on_chosen(Choosing::Clients, &name).await;
                    }
                    let _ = self.ctx.buffers.delete(Some(&name));
                }
            }
            Choice::Edit if chooser.choosing == Choosing::Buffers => {
                self.close_chooser().await;
                if let Some(name) = chosen {
                    self.edit_buffer(&name).await;
                }
                return After::Continue;
            }
            Choice::Leave => {
                self.close_chooser().await;
                return After::Continue;
            }
            Choice::Edit | Choice::Nothing => {
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

    /// Enter's own action on the item named `name`: the buffer pasted into the active pane
    /// (as `paste-buffer -p -b NAME`), the client detached.
    async fn act_on_chosen(&mut self, choosing: Choosing, name: &str) -> After {
        if choosing == Choosing::Clients {
            let words = ["detach-client", "-t", name].map(String::from);
            return match crate::cmd::parse(&words) {
                Ok(command) => self.run(command).await,
                Err(e) => {
                    self.message(e.to_string()).await;
                    After::Continue
                }
            };
        }
        let Some(pane) = self.view.borrow().active_pane().cloned() else {
            return After::Continue;
        };
        let options = PasteOptions {
            bracket: true,
            ..PasteOptions::default()
        };
        if let Err(e) = paste(&self.ctx, &pane, Some(name), &options).await {
            self.message(e.to_string()).await;
        }
        After::Continue
    }

    async fn close_chooser(&mut self) {
        self.ui = Ui::Normal;
        let _ = self.render.send(RenderControl::Overlay(None)).await;
    }

    /// Draws the list with the selection marked, scrolled to show it; false when there is
    /// nothing to show.
    async fn draw_chooser(&mut self, mut chooser: Chooser) -> bool {
        let items = self.chooser_items(chooser.choosing).await;
        if items.is_empty() {
            return false;
        }
        chooser.selected = chooser.selected.min(items.len() - 1);
        chooser.name = Some(items[chooser.selected].0.clone());
        // One row for the help line.
        let rows = usize::from(self.view.borrow().window.rows)
            .saturating_sub(1)
            .max(1);
        if chooser.selected < chooser.top {
            chooser.top = chooser.selected;
        } else if chooser.selected >= chooser.top + rows {
            chooser.top = chooser.selected + 1 - rows;
        }
        let help = match chooser.choosing {
            Choosing::Buffers => "choose-buffer ({}): Enter paste, d delete, e edit, q leave",
            Choosing::Clients => "choose-client ({}): Enter or d detach, q leave",
        };
        let mut lines = vec![help.replace("{}", &items.len().to_string())];
        for (i, (_, shown)) in items.iter().enumerate().skip(chooser.top).take(rows) {
            let mark = if i == chooser.selected { "> " } else { "  " };
            lines.push(format!("{mark}{shown}"));
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
        assert_eq!(choice(&key("Enter")), Choice::Choose);
        assert_eq!(choice(&key("d")), Choice::Delete);
        assert_eq!(choice(&key("e")), Choice::Edit);
        assert_eq!(choice(&key("Escape")), Choice::Leave);
        assert_eq!(choice(&key("x")), Choice::Nothing);
    }
}
