//! `display-panes` (`C-b q`): each pane of the window drawn with its index in big digits over
//! the window; typing an index's digit focuses that pane, any other key leaves.

use super::ui::{After, ClientLoop, Ui};
use crate::ids::PaneId;
use crate::keys::Input;
use crate::layout::Rect;
use crate::render::{Overlay, RenderControl};

use crate::render::clock::DIGIT_GLYPHS as GLYPHS;

/// The panes shown, in index order.
pub(super) struct Numbers {
    panes: Vec<PaneId>,
    /// `pane-base-index` when they were drawn: the first pane's number.
    base: usize,
}

impl ClientLoop {
    /// Shows the window's panes with their indexes.
    pub(super) async fn display_panes(&mut self) {
        let (lines, panes) = {
            let view = self.view.borrow();
            let panes: Vec<(PaneId, Rect)> = view.panes.iter().map(|(p, r)| (p.id(), *r)).collect();
            let base = self.options().pane_base_index();
            (
                draw(view.window, &panes, base),
                panes.iter().map(|p| p.0).collect(),
            )
        };
        let _ = self
            .render
            .send(RenderControl::Overlay(Some(Overlay::Lines(lines))))
            .await;
        let base = self.options().pane_base_index();
        self.ui = Ui::Numbers(Numbers { panes, base });
        let shown_for = self.options().millis_option("display-panes-time");
        self.close_after(shown_for);
    }

    /// A key while the numbers are shown: a digit focuses that pane; any key leaves.
    pub(super) async fn numbers_key(&mut self, numbers: Numbers, input: &Input) -> After {
        let Input::Key { name, .. } = input else {
            self.ui = Ui::Numbers(numbers);
            return After::Continue;
        };
        self.overlay_due.set(None);
        let _ = self.render.send(RenderControl::Overlay(None)).await;
        let chosen = name
            .parse::<usize>()
            .ok()
            .and_then(|i| i.checked_sub(numbers.base))
            .and_then(|i| numbers.panes.get(i));
        match chosen {
            Some(pane) => self.run_line(&format!("select-pane -t {pane}")).await,
            None => After::Continue,
        }
    }
}

/// The window as lines: each pane's index in big digits at its centre, borders as lines.
fn draw(window: Rect, panes: &[(PaneId, Rect)], base: usize) -> Vec<String> {
    let (cols, rows) = (usize::from(window.cols), usize::from(window.rows));
    let top = usize::from(window.row);
    let left = usize::from(window.col);
    let inside = |c: usize, r: usize| {
        panes.iter().any(|(_, p)| {
            let (pc, pr) = (usize::from(p.col), usize::from(p.row));
            c >= pc && c < pc + usize::from(p.cols) && r >= pr && r < pr + usize::from(p.rows)
        })
    };
    let mut grid: Vec<Vec<char>> = (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| {
                    let (sc, sr) = (left + c, top + r);
                    if inside(sc, sr) {
                        ' '
                    } else if (sr > top && !inside(sc, sr - 1)) || !inside(sc, sr + 1) {
                        '│'
                    } else {
                        '─'
                    }
                })
                .collect()
        })
        .collect();
    for (i, (_, p)) in panes.iter().enumerate() {
        let i = i + base;
        let text: Vec<usize> = i
            .to_string()
            .chars()
            .filter_map(|c| c.to_digit(10).map(|d| d as usize))
            .collect();
        let width = text.len() * 4 - 1;
        let (pc, pr) = (
            usize::from(p.col) - left,
            usize::from(p.row).saturating_sub(top),
        );
        let (pw, ph) = (usize::from(p.cols), usize::from(p.rows));
        if pw < width || ph < 5 {
            // Too small for big digits: the index in plain text.
            if let Some(row) = grid.get_mut(pr + ph / 2) {
                for (k, ch) in i.to_string().chars().enumerate() {
                    if let Some(cell) = row.get_mut(pc + pw / 2 + k) {
                        *cell = ch;
                    }
                }
            }
            continue;
        }
        let (x, y) = (pc + (pw - width) / 2, pr + (ph - 5) / 2);
        for (n, digit) in text.iter().enumerate() {
            for (dy, line) in GLYPHS[*digit].iter().enumerate() {
                for (dx, ch) in line.chars().enumerate() {
                    if ch == '#' {
                        if let Some(cell) =
                            grid.get_mut(y + dy).and_then(|r| r.get_mut(x + n * 4 + dx))
                        {
                            *cell = '█';
                        }
                    }
                }
            }
        }
    }
    grid.into_iter().map(|r| r.into_iter().collect()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_pane_shows_its_index_in_big_digits() {
        let window = Rect {
            col: 0,
            row: 0,
            cols: 21,
            rows: 7,
        };
        let panes = [
            (
                PaneId(4),
                Rect {
                    col: 0,
                    row: 0,
                    cols: 10,
                    rows: 7,
                },
            ),
            (
                PaneId(9),
                Rect {
                    col: 11,
                    row: 0,
                    cols: 10,
                    rows: 7,
                },
            ),
        ];
        let lines = draw(window, &panes, 0);
        assert_eq!(lines.len(), 7);
        assert_eq!(lines[1], "   ███    │    █     ");
        assert!(lines.iter().all(|l| l.chars().nth(10) == Some('│')));
        // pane-base-index 1: the same panes are 1 and 2.
        let lines = draw(window, &panes, 1);
        assert_eq!(lines[1], "    █     │   ███    ");
    }
}
