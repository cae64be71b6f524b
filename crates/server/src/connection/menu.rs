//! A client's menu (`display-menu`): items to choose a command from, in a box over the window.
//! Keys: an item's own key chooses it; Up/Down (`k`/`j`, Tab), PageUp/PageDown, Home/End
//! (`g`/`G`) move; Enter chooses; Escape, `q`, `C-c` or `C-g` close. A menu opened from a mouse
//! binding (or with `-M`) also takes the mouse: moving over an item selects it and releasing a
//! button there chooses it, so both press-drag-release and click work; a press outside closes
//! it. tmux closes a mouse menu when the button that opened it is released off its items, so a
//! quick right click opens and closes it at once: weft keeps it open (as tmux's `-O`) instead.
//! The chosen command runs as if typed in the menu's pane.

use super::ui::{After, ClientLoop, Ui};
use crate::ids::PaneId;
use crate::keys::{Input, MouseEvent};
use crate::layout::placement::{place, Around};
use crate::layout::Rect;
use crate::outcome::{CommandError, Output};
use crate::render::{menu_layout, MenuView, Overlay};
use crate::session::menu::{MenuBuilt, MenuEntry, MenuItemSpec, MenuRequest};
use crate::session::Scope;
use std::collections::HashMap;
use tokio::sync::oneshot;

/// Lines PageUp and PageDown move.
const PAGE_ITEMS: usize = 5;

/// A client's open menu.
pub(super) struct Menu {
    /// What is drawn.
    view: MenuView,
    /// The lines, with their commands and keys.
    entries: Vec<MenuEntry>,
    /// The pane its commands act on.
    pane: PaneId,
    /// It takes the mouse.
    mouse: bool,
    /// Opened by a button's press whose release has not come yet, with the pointer not moved
    /// since: that release only lets go (the menu may have been moved under the pointer).
    opening_press: bool,
    /// Told when the menu closes (a `display-menu` from the command line waits for it).
    closed: Option<oneshot::Sender<()>>,
}

impl Drop for Menu {
    fn drop(&mut self) {
        if let Some(closed) = self.closed.take() {
            let _ = closed.send(());
        }
    }
}

/// What a key or a mouse event does to the menu.
#[derive(Debug, PartialEq, Eq)]
enum Step {
    /// Select this line (or none) and draw it.
    Select(Option<usize>),
    /// Run this line's command.
    Choose(usize),
    /// Close without running anything.
    Close,
    /// Nothing changes.
    Stay,
}

impl Menu {
    /// The next line up or down from the selection that may be chosen, going round; the
    /// selection itself when no other may.
    fn moved(&self, up: bool) -> Option<usize> {
        let count = self.entries.len();
        let start = self.view.choice;
        let mut at = start;
        for _ in 0..count {
            let next = match (at, up) {
                (None, true) | (Some(0), true) => count - 1,
                (Some(i), true) => i - 1,
                (None, false) => 0,
                (Some(i), false) if i + 1 >= count => 0,
                (Some(i), false) => i + 1,
            };
            at = Some(next);
            if self.entries[next].is_enabled() {
                return at;
            }
        }
        start
    }

    /// The first line that may be chosen from `from` on, in the direction given.
    fn enabled_from(&self, from: usize, down: bool) -> Option<usize> {
        let count = self.entries.len();
        if down {
            (from.min(count)..count).find(|&i| self.entries[i].is_enabled())
        } else {
            (0..=from.min(count.saturating_sub(1)))
                .rev()
                .find(|&i| self.entries[i].is_enabled())
        }
    }

    /// What the key `name` does.
    fn key(&self, name: &str) -> Step {
        let own = self.entries.iter().position(|e| match e {
            MenuEntry::Item {
                key: Some(k),
                enabled: true,
                ..
            } => k == name,
            _ => false,
        });
        if let Some(i) = own {
            return Step::Choose(i);
        }
        let last = self.entries.len().saturating_sub(1);
        let at = self.view.choice.unwrap_or(0);
        match name {
            "Up" | "k" | "BTab" => Step::Select(self.moved(true)),
            "Down" | "j" | "Tab" => Step::Select(self.moved(false)),
            "PageUp" | "PPage" | "C-b" => Step::Select(
                self.enabled_from(at.saturating_sub(PAGE_ITEMS), false)
                    .or_else(|| self.enabled_from(0, true)),
            ),
            "PageDown" | "NPage" => Step::Select(
                self.enabled_from((at + PAGE_ITEMS).min(last), true)
                    .or_else(|| self.enabled_from(last, false)),
            ),
            "g" | "Home" => Step::Select(self.enabled_from(0, true)),
            "G" | "End" => Step::Select(self.enabled_from(last, false)),
            "Enter" => match self.view.choice {
                Some(i) if self.entries[i].is_enabled() => Step::Choose(i),
                _ => Step::Close,
            },
            "Escape" | "q" | "C-c" | "C-g" | "C-[" => Step::Close,
            _ => Step::Stay,
        }
    }

    /// The line under (`col`, `row`), if it is on one.
    fn line_at(&self, col: u16, row: u16) -> Option<usize> {
        let r = self.view.rect;
        let inside = col >= r.col && col < r.col + r.cols && row > r.row;
        let i = usize::from(row.checked_sub(r.row + 1)?);
        (inside && i < self.entries.len()).then_some(i)
    }

    /// What a mouse event does.
    fn mouse(&mut self, event: &MouseEvent) -> Step {
        let moving = event.code & 32 != 0;
        if std::mem::take(&mut self.opening_press) && !moving && !event.press {
            // The release of the press that opened it: the menu stays as it is.
            return Step::Stay;
        }
        let line = self.line_at(event.col, event.row);
        if !self.mouse {
            // A menu opened by a key: a click elsewhere closes it, the rest is not its.
            return match line {
                None if event.press && event.code & (32 | 64) == 0 => Step::Close,
                _ => Step::Stay,
            };
        }
        if event.wheel().is_some() {
            return Step::Stay;
        }
        match line {
            Some(i) if !moving && !event.press && self.entries[i].is_enabled() => Step::Choose(i),
            Some(i) => Step::Select(self.entries[i].is_enabled().then_some(i)),
            None if event.press && !moving => Step::Close,
            None => Step::Select(None),
        }
    }
}

impl ClientLoop {
    /// `display-menu`: expands the menu's items for its pane and shows it; a message says why
    /// when there is nothing to show or it does not fit.
    pub(super) async fn open_menu(&mut self, mut request: MenuRequest) {
        if self.popup.is_some() || !matches!(self.ui, Ui::Normal) {
            // Something else has the keys: as tmux, no menu over it.
            return;
        }
        let mouse_event = self.mouse_keys.event();
        let extra = match &mouse_event {
            Some((event, pane)) => self.mouse_words(event, pane),
            None => HashMap::new(),
        };
        let built = match self.build_menu(&request, extra).await {
            Ok(built) => built,
            Err(e) => {
                self.message(e.to_string()).await;
                return;
            }
        };
        if built.entries.is_empty() {
            self.message("display-menu: no items to show (every name came to nothing)".into())
                .await;
            return;
        }
        let (cols, rows, status) = {
            let view = self.view.borrow();
            (view.cols, view.rows, view.status.clone())
        };
        let (lines_shown, widest) = menu_layout(&built.title, &built.entries, cols);
        let (w, h) = (widest + 4, built.entries.len() + 2);
        let (Ok(w), Ok(h)) = (u16::try_from(w), u16::try_from(h)) else {
            return;
        };
        if w > cols || h > rows {
            let text = format!(
                "display-menu: a menu of {w}x{h} does not fit in {cols}x{rows}; make the terminal larger or the menu shorter"
            );
            self.message(text).await;
            return;
        }
        let tab = status.as_ref().and_then(|s| {
            crate::render::status::compose(s, usize::from(cols))
                .places
                .into_iter()
                .find(|(_, _, index)| *index == built.window_index)
                .map(|(at, _, _)| u16::try_from(at).unwrap_or(0))
        });
        let around = Around {
            cols,
            rows,
            pane: built.pane_rect,
            mouse: mouse_event.as_ref().map(|(e, _)| (e.col, e.row)),
            status_row: status.as_ref().map(|s| s.row),
            window_tab: tab,
        };
        let (x, y) = match place(
            "display-menu",
            request.x.as_deref(),
            request.y.as_deref(),
            (w, h),
            &around,
        ) {
            Ok(at) => at,
            Err(e) => {
                self.message(e).await;
                return;
            }
        };
        let options = self.options();
        let option = |name: &str| options.option_value(name).unwrap_or_default();
        let pen = |name: &str, over: &Option<String>| {
            let base = crate::style::pen_or(&option(name), &weft_screen_model::Pen::default());
            match over {
                Some(text) => crate::style::pen_or(text, &base),
                None => base,
            }
        };
        let mouse = mouse_event.is_some() || request.mouse;
        let mut menu = Menu {
            view: MenuView {
                rect: Rect::new(x, y, w, h),
                title: built.title,
                rows: lines_shown,
                choice: None,
                lines: request
                    .lines
                    .take()
                    .unwrap_or_else(|| option("menu-border-lines")),
                style: pen("menu-style", &request.style),
                selected: pen("menu-selected-style", &request.selected_style),
                border: pen("menu-border-style", &request.border_style),
            },
            entries: built.entries,
            pane: built.pane,
            mouse,
            opening_press: mouse_event.as_ref().is_some_and(|(e, _)| e.press),
            closed: request.closed.take(),
        };
        if !mouse {
            // Opened by a key: the starting item (or the first after it that may be chosen).
            let start = request.starting_choice.unwrap_or(0);
            menu.view.choice = menu
                .enabled_from(start, true)
                .or_else(|| menu.enabled_from(start, false));
        }
        // Keys go to the menu from now on: a prefix or key table pending is forgotten, and a
        // message it covers does not close it when its time is up.
        self.prefix_armed = false;
        self.key_table = None;
        self.message_shown = false;
        self.overlay_due.set(None);
        self.draw_menu(menu).await;
    }

    /// Expands `request`'s items in the session of its target pane.
    async fn build_menu(
        &self,
        request: &MenuRequest,
        extra: HashMap<String, String>,
    ) -> Result<MenuBuilt, CommandError> {
        let origin = self.origin();
        let (session, target) =
            crate::cmd::run::resolve_target(&self.ctx, request.target.clone(), &origin).await?;
        let scope = Scope {
            target,
            from: origin.pane,
        };
        let items: Vec<MenuItemSpec> = request.items.clone();
        let title = request.title.clone();
        let (tx, rx) = oneshot::channel();
        let build = move |s: &mut crate::session::SessionState, scope: &Scope| {
            let built = s.build_menu(&items, title.as_deref(), scope, &extra)?;
            let _ = tx.send(built);
            Ok(Output::none())
        };
        session.run(Box::new(build), scope).await?;
        rx.await.map_err(|_| CommandError::SessionEnded)
    }

    /// `mouse_word` and `mouse_line`: the word and the line under the mouse in `pane`, for
    /// a menu opened from a mouse binding (tmux's pane menu offers to copy or type them).
    fn mouse_words(
        &self,
        event: &MouseEvent,
        pane: &crate::pane::PaneHandle,
    ) -> HashMap<String, String> {
        let mut vars = HashMap::new();
        let rect = self
            .view
            .borrow()
            .panes
            .iter()
            .find(|(p, _)| p.id() == pane.id())
            .map(|(_, r)| *r);
        let Some(rect) = rect.filter(|r| r.contains(event.col, event.row)) else {
            return vars;
        };
        let separators = self
            .options()
            .option_value("word-separators")
            .unwrap_or_default();
        let (word, line) =
            pane.word_and_line_at(event.row - rect.row, event.col - rect.col, &separators);
        if !word.is_empty() {
            vars.insert("mouse_word".into(), word);
        }
        if !line.trim().is_empty() {
            vars.insert("mouse_line".into(), line);
        }
        vars
    }

    /// Shows `menu` and makes it take the keys.
    async fn draw_menu(&mut self, menu: Menu) {
        self.overlay(Some(Overlay::Menu(Box::new(menu.view.clone()))))
            .await;
        self.ui = Ui::Menu(menu);
    }

    /// A key or a mouse event while the menu is shown.
    pub(super) async fn menu_input(&mut self, mut menu: Menu, input: &Input) -> After {
        let step = match input {
            Input::Key { name, .. } => menu.key(name),
            Input::Mouse(event) => menu.mouse(event),
            Input::Paste(_) => Step::Stay,
        };
        match step {
            Step::Stay => self.ui = Ui::Menu(menu),
            Step::Select(choice) if choice == menu.view.choice => self.ui = Ui::Menu(menu),
            Step::Select(choice) => {
                menu.view.choice = choice;
                self.draw_menu(menu).await;
            }
            Step::Close => self.overlay(None).await,
            Step::Choose(i) => {
                self.overlay(None).await;
                let pane = menu.pane;
                let command = match menu.entries.get(i) {
                    Some(MenuEntry::Item { command, .. }) => command.clone(),
                    _ => String::new(),
                };
                // Closed before its command runs, which may open another menu.
                drop(menu);
                if !command.trim().is_empty() {
                    return self.run_line_in(&command, pane).await;
                }
            }
        }
        After::Continue
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use weft_screen_model::Pen;

    fn item(key: &str, enabled: bool) -> MenuEntry {
        MenuEntry::Item {
            label: key.into(),
            key: Some(key.into()),
            command: format!("cmd-{key}"),
            enabled,
        }
    }

    fn menu(entries: Vec<MenuEntry>, choice: Option<usize>, mouse: bool) -> Menu {
        Menu {
            view: MenuView {
                rect: Rect::new(10, 5, 20, u16::try_from(entries.len()).unwrap() + 2),
                title: String::new(),
                rows: Vec::new(),
                choice,
                lines: "single".into(),
                style: Pen::default(),
                selected: Pen::default(),
                border: Pen::default(),
            },
            entries,
            pane: PaneId::parse("%1").unwrap(),
            mouse,
            opening_press: mouse,
            closed: None,
        }
    }

    #[test]
    fn keys_move_over_lines_that_can_be_chosen() {
        let entries = vec![
            item("a", true),
            MenuEntry::Separator,
            item("b", false),
            item("c", true),
        ];
        let m = menu(entries, Some(0), false);
        assert_eq!(m.key("Down"), Step::Select(Some(3)));
        assert_eq!(m.key("Up"), Step::Select(Some(3)), "goes round");
        assert_eq!(m.key("c"), Step::Choose(3), "an item's own key");
        assert_eq!(
            m.key("b"),
            Step::Stay,
            "a disabled item's key chooses nothing"
        );
        assert_eq!(m.key("Enter"), Step::Choose(0));
        assert_eq!(m.key("G"), Step::Select(Some(3)));
        assert_eq!(m.key("q"), Step::Close);
    }

    #[test]
    fn the_mouse_selects_on_moving_and_chooses_on_release() {
        let mut m = menu(vec![item("a", true), item("b", false)], None, true);
        let at = |code: u16, row: u16, press: bool| MouseEvent {
            code,
            col: 12,
            row,
            press,
        };
        // The release of the press that opened it, even over an item: it stays open.
        assert_eq!(m.mouse(&at(2, 6, false)), Step::Stay);
        assert_eq!(m.mouse(&at(2, 5, false)), Step::Select(None));
        assert_eq!(m.mouse(&at(32 + 2, 6, true)), Step::Select(Some(0)));
        assert_eq!(m.mouse(&at(2, 6, false)), Step::Choose(0));
        assert_eq!(m.mouse(&at(0, 7, false)), Step::Select(None), "disabled");
        assert_eq!(m.mouse(&at(0, 20, true)), Step::Close, "a press outside");
    }
}
