//! `display-menu`: a menu's items read in the session its target pane is in. Names, commands
//! and the title are formats, expanded there as tmux expands them: an item whose name comes to
//! nothing is left out, one whose name starts with `-` is shown dim and cannot be chosen, and
//! an empty name is a separator line (never two in a row, nor one first or last). The menu
//! itself belongs to the client that shows it (`connection/menu.rs`).

use super::{Scope, SessionState};
use crate::format::{Loop, Vars};
use crate::ids::PaneId;
use crate::layout::Rect;
use crate::outcome::CommandError;
use std::collections::HashMap;

/// One item as `display-menu` was given it: name, key and command, each as typed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MenuItemSpec {
    /// The name, a format; empty for a separator line.
    pub name: String,
    /// The key that chooses it (`X`, `C-r`), or empty for none.
    pub key: String,
    /// The command line run when it is chosen, a format.
    pub command: String,
}

/// What `display-menu` asks a client to show.
#[derive(Debug, Default)]
pub struct MenuRequest {
    /// The items, in order.
    pub items: Vec<MenuItemSpec>,
    /// `-T`: the title, a format.
    pub title: Option<String>,
    /// `-x`: a column, or `C`, `R`, `P`, `M`, `W`, `L`.
    pub x: Option<String>,
    /// `-y`: the row the menu's bottom is on, or `C`, `P`, `M`, `S`, `W`, `L`.
    pub y: Option<String>,
    /// `-C`: the item selected at first when the mouse does not choose.
    pub starting_choice: Option<usize>,
    /// `-s`: the menu's style, over `menu-style`.
    pub style: Option<String>,
    /// `-H`: the selected item's, over `menu-selected-style`.
    pub selected_style: Option<String>,
    /// `-S`: the border's, over `menu-border-style`.
    pub border_style: Option<String>,
    /// `-b`: the border's lines, over `menu-border-lines`.
    pub lines: Option<String>,
    /// `-t`: the pane the menu's commands act on.
    pub target: Option<String>,
    /// `-M`: the menu takes the mouse even when a key opened it.
    pub mouse: bool,
    /// Told when the menu closes (a `display-menu` from the command line waits for it).
    pub closed: Option<tokio::sync::oneshot::Sender<()>>,
}

/// One line of a menu, expanded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MenuEntry {
    /// A line across the menu.
    Separator,
    /// An item.
    Item {
        /// Its text, `#[style]` runs and all (without the `-` of a disabled one).
        label: String,
        /// The key that chooses it, normalized (`C-r`); none for a disabled item.
        key: Option<String>,
        /// The command line it runs.
        command: String,
        /// It may be chosen (its name did not start with `-`).
        enabled: bool,
    },
}

impl MenuEntry {
    /// It may be chosen.
    pub fn is_enabled(&self) -> bool {
        matches!(self, MenuEntry::Item { enabled: true, .. })
    }
}

/// A menu's items and title, expanded for its target pane.
#[derive(Debug)]
pub struct MenuBuilt {
    /// The title.
    pub title: String,
    /// The lines.
    pub entries: Vec<MenuEntry>,
    /// The pane the menu's commands act on.
    pub pane: PaneId,
    /// Where that pane is, in session cells.
    pub pane_rect: Rect,
    /// The index of that pane's window (where its tab is in the status line).
    pub window_index: u32,
}

/// A format's variables with a few more over them (`mouse_word`, `mouse_line`).
struct WithExtra<'a> {
    extra: &'a HashMap<String, String>,
    inner: &'a dyn Vars,
}

impl Vars for WithExtra<'_> {
    fn get(&self, name: &str) -> Option<String> {
        self.extra
            .get(name)
            .cloned()
            .or_else(|| self.inner.get(name))
    }

    fn each(&self, over: Loop) -> Vec<(Box<dyn Vars + '_>, bool)> {
        self.inner.each(over)
    }
}

impl SessionState {
    /// Expands a menu's items and title for the pane `scope` names, with `extra` variables
    /// over the pane's own.
    pub fn build_menu(
        &self,
        items: &[MenuItemSpec],
        title: Option<&str>,
        scope: &Scope,
        extra: &HashMap<String, String>,
    ) -> Result<MenuBuilt, CommandError> {
        let (wpos, pane) = self.find_pane(scope)?;
        let context = self.format_context(wpos, pane);
        let vars = WithExtra {
            extra,
            inner: &context,
        };
        let expand = |text: &str| crate::format::expand(text, &vars);
        let area = self.window_rect_of(wpos);
        let pane_rect = self.windows[wpos]
            .layout
            .rect_of(pane)
            .map_or(area, |r| Rect {
                col: r.col + area.col,
                row: r.row + area.row,
                ..r
            });
        Ok(MenuBuilt {
            title: title.map(expand).unwrap_or_default(),
            entries: entries(items, expand),
            pane,
            pane_rect,
            window_index: self.windows[wpos].index,
        })
    }
}

/// The menu's lines from its items, names and commands expanded by `expand`.
pub fn entries(items: &[MenuItemSpec], expand: impl Fn(&str) -> String) -> Vec<MenuEntry> {
    let mut out: Vec<MenuEntry> = Vec::new();
    for item in items {
        if item.name.is_empty() {
            if out.last().is_some_and(|e| *e != MenuEntry::Separator) {
                out.push(MenuEntry::Separator);
            }
            continue;
        }
        let name = expand(&item.name);
        if name.is_empty() {
            continue;
        }
        let (label, enabled) = match name.strip_prefix('-') {
            Some(rest) => (rest.to_string(), false),
            None => (name, true),
        };
        let key = (enabled && !item.key.is_empty())
            .then(|| crate::keys::normalize(&item.key).ok())
            .flatten();
        out.push(MenuEntry::Item {
            label,
            key,
            command: expand(&item.command),
            enabled,
        });
    }
    if out.last() == Some(&MenuEntry::Separator) {
        out.pop();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str, key: &str, command: &str) -> MenuItemSpec {
        MenuItemSpec {
            name: name.into(),
            key: key.into(),
            command: command.into(),
        }
    }

    #[test]
    fn items_read_as_tmux_reads_them() {
        let items = [
            spec("", "", ""),
            spec("#{empty}", "e", "nothing"),
            spec("Kill", "X", "kill-pane"),
            spec("", "", ""),
            spec("", "", ""),
            spec("-Swap Up", "u", "swap-pane -U"),
            spec("Zoom #{n}", "^Z", "resize-pane -Z"),
            spec("", "", ""),
        ];
        let expand = |text: &str| text.replace("#{empty}", "").replace("#{n}", "3");
        let got = entries(&items, expand);
        assert_eq!(
            got,
            vec![
                MenuEntry::Item {
                    label: "Kill".into(),
                    key: Some("X".into()),
                    command: "kill-pane".into(),
                    enabled: true,
                },
                MenuEntry::Separator,
                MenuEntry::Item {
                    label: "Swap Up".into(),
                    key: None,
                    command: "swap-pane -U".into(),
                    enabled: false,
                },
                MenuEntry::Item {
                    label: "Zoom 3".into(),
                    key: Some("C-z".into()),
                    command: "resize-pane -Z".into(),
                    enabled: true,
                },
            ]
        );
    }
}
