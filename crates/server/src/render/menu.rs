//! Drawing a client's menu (`display-menu`) over its frame, as tmux draws one: a border with
//! the title in it, one row per item (its key right-aligned in brackets, a disabled one dim,
//! the selected one in `menu-selected-style`), and separator lines joined to the border.

use super::status::styled_cells;
use crate::layout::Rect;
use crate::session::menu::MenuEntry;
use weft_renderer::Frame;
use weft_screen_model::{Attrs, Cell, CellFlags, Pen};

/// A menu as its client's renderer draws it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MenuView {
    /// The whole menu, border included, in session cells.
    pub rect: Rect,
    /// Shown in the top border; `#[align=centre]` centres it.
    pub title: String,
    /// The lines, as laid out for the menu's width (see [`layout`]).
    pub rows: Vec<MenuRow>,
    /// The selected line, if any.
    pub choice: Option<usize>,
    /// `menu-border-lines`: `single`, `rounded`, `double`, `heavy`, `simple`, `padded` or
    /// `none`.
    pub lines: String,
    /// The items' style (`menu-style`, `-s`).
    pub style: Pen,
    /// The selected item's (`menu-selected-style`, `-H`).
    pub selected: Pen,
    /// The border's (`menu-border-style`, `-S`).
    pub border: Pen,
}

/// One line of a menu as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MenuRow {
    /// A line across.
    Separator,
    /// An item: its text (with `#[style]` runs), the key shown after it, and whether it may be
    /// chosen.
    Item {
        /// The text, cut to fit with a `>` at its end.
        label: String,
        /// The key, shown as `(X)` at the right.
        key: Option<String>,
        /// Shown plain, not dim.
        enabled: bool,
    },
}

/// The columns `text` takes, `#[style]` runs left out.
fn width_of(text: &str) -> usize {
    styled_cells(text, &Pen::default()).len()
}

/// The menu's rows for a client `cols` wide, and the width of the widest (the title counted),
/// as tmux lays them out: an item's key is shown when it takes at most a quarter of the room
/// or the whole text fits beside it; a text too long is cut and ends in `>`.
pub fn layout(title: &str, entries: &[MenuEntry], cols: u16) -> (Vec<MenuRow>, usize) {
    let room = usize::from(cols).saturating_sub(4);
    let mut widest = width_of(title);
    let rows = entries
        .iter()
        .map(|entry| {
            let MenuEntry::Item {
                label,
                key,
                enabled,
                ..
            } = entry
            else {
                return MenuRow::Separator;
            };
            let len = width_of(label);
            let mut max = room;
            let mut key = key.clone();
            if let Some(k) = &key {
                // A space and two brackets.
                let key_len = k.chars().count() + 3;
                if key_len <= max / 4 {
                    max -= key_len;
                } else if key_len >= max || len >= max - key_len {
                    key = None;
                } else {
                    max -= key_len;
                }
            }
            let label = if len > max {
                format!("{}>", cut(label, max.saturating_sub(1)))
            } else {
                label.clone()
            };
            let key_len = key.as_ref().map_or(0, |k| k.chars().count() + 3);
            widest = widest.max(width_of(&label) + key_len);
            MenuRow::Item {
                label,
                key,
                enabled: *enabled,
            }
        })
        .collect();
    (rows, widest)
}

/// `text` cut to `cols` columns, its `#[style]` runs kept.
fn cut(text: &str, cols: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if let Some((run, after)) = rest
            .strip_prefix("#[")
            .and_then(|r| r.split_once(']'))
            .map(|(body, after)| (&rest[..body.len() + 3], after))
        {
            out.push_str(run);
            rest = after;
            continue;
        }
        let w = weft_screen_model::width::char_width(c);
        if used + w > cols {
            break;
        }
        used += w;
        out.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// Draws `menu` over `frame`.
pub(super) fn draw(frame: &mut Frame, menu: &MenuView) {
    let r = menu.rect;
    let (col, row) = (usize::from(r.col), usize::from(r.row));
    let (cols, rows) = (usize::from(r.cols), usize::from(r.rows));
    if cols < 5 || rows < 2 {
        return;
    }
    let bordered = menu.lines != "none";
    let g = super::chrome::border_glyphs(Some(menu.lines.as_str()));
    let (tee_right, tee_left) = (g[1], g[2]);
    let (top_left, top_right, bottom_left, bottom_right, across, down) =
        (g[5], g[6], g[7], g[8], g[9], g[10]);
    let border = |c: char| {
        let c = if bordered { c } else { ' ' };
        Cell::new(c, &menu.border, CellFlags::empty())
    };
    let mut line = vec![border(across); cols];
    line[0] = border(top_left);
    line[cols - 1] = border(top_right);
    frame.put(row, col, &line);
    let title = styled_cells(&menu.title, &menu.border);
    if !title.is_empty() {
        let room = cols - 4;
        let shown = &title[..title.len().min(room)];
        let at = if menu.title.contains("align=centre") {
            (room - shown.len()) / 2
        } else {
            0
        };
        frame.put(row, col + 2 + at, shown);
    }
    line[0] = border(bottom_left);
    line[cols - 1] = border(bottom_right);
    frame.put(row + rows - 1, col, &line);
    let inner = cols - 4;
    for (i, entry) in menu.rows.iter().enumerate().take(rows - 2) {
        let y = row + 1 + i;
        let MenuRow::Item {
            label,
            key,
            enabled,
        } = entry
        else {
            let mut rule = vec![border(across); cols];
            rule[0] = border(tee_right);
            rule[cols - 1] = border(tee_left);
            frame.put(y, col, &rule);
            continue;
        };
        let mut pen = if menu.choice == Some(i) && *enabled {
            menu.selected.clone()
        } else {
            menu.style.clone()
        };
        if !enabled {
            pen.attrs.set(Attrs::DIM, true);
        }
        let blank = Cell::erased(&pen);
        let mut cells = vec![blank.clone(); cols - 2];
        let text = styled_cells(label, &pen);
        for (slot, cell) in cells[1..].iter_mut().zip(text.iter().take(inner)) {
            *slot = cell.clone();
        }
        if let Some(key) = key {
            let shown = styled_cells(&format!("({key})"), &menu.style);
            let at = (1 + inner).saturating_sub(shown.len());
            for (slot, cell) in cells[at..].iter_mut().zip(shown) {
                *slot = cell;
            }
        }
        frame.put(y, col, std::slice::from_ref(&border(down)));
        frame.put(y, col + 1, &cells);
        frame.put(y, col + cols - 1, std::slice::from_ref(&border(down)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(label: &str, key: Option<&str>) -> MenuEntry {
        MenuEntry::Item {
            label: label.into(),
            key: key.map(Into::into),
            command: String::new(),
            enabled: true,
        }
    }

    #[test]
    fn keys_show_when_they_fit_and_long_names_are_cut() {
        let entries = [
            item("Kill", Some("X")),
            MenuEntry::Separator,
            item("#[underscore]Search For#[default] x", Some("C-r")),
        ];
        let (rows, widest) = layout("#[align=centre]1 (%1)", &entries, 80);
        assert_eq!(widest, "Search For x".len() + " (C-r)".len());
        assert_eq!(rows[1], MenuRow::Separator);
        // 20 columns: 16 of room; the key's 4 take a quarter, and the text is cut to the rest.
        let (rows, widest) = layout("", &[item("A long item name here", Some("X"))], 20);
        assert_eq!(
            rows[0],
            MenuRow::Item {
                label: "A long item>".into(),
                key: Some("X".into()),
                enabled: true,
            }
        );
        assert_eq!(widest, 16);
    }
}
