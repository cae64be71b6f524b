//! The preset layouts (`select-layout`, `C-b space`): their names, and rearranging a
//! layout's panes into one.

use super::geometry::fit;
use super::{Dir, Layout, Node};
use crate::ids::PaneId;

/// The preset layouts `C-b space` cycles through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Preset {
    /// All panes side by side, equal widths.
    EvenHorizontal,
    /// All panes stacked, equal heights.
    EvenVertical,
    /// One large pane on top, the others side by side below.
    MainHorizontal,
    /// One large pane on the left, the others stacked on the right.
    MainVertical,
    /// A grid.
    Tiled,
}

impl Preset {
    /// Every preset, in cycling order.
    pub const ALL: [Preset; 5] = [
        Preset::EvenHorizontal,
        Preset::EvenVertical,
        Preset::MainHorizontal,
        Preset::MainVertical,
        Preset::Tiled,
    ];

    /// The tmux name.
    pub fn name(self) -> &'static str {
        match self {
            Preset::EvenHorizontal => "even-horizontal",
            Preset::EvenVertical => "even-vertical",
            Preset::MainHorizontal => "main-horizontal",
            Preset::MainVertical => "main-vertical",
            Preset::Tiled => "tiled",
        }
    }

    /// The preset called `name`.
    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }
}

impl Layout {
    /// Rearranges the panes into `preset`, keeping their order (cycling presets never
    /// shuffles them); the first pane is the large one of the main-* layouts, as in tmux.
    pub fn apply_preset(&mut self, preset: Preset) {
        self.apply_preset_with_main(preset, None);
    }

    /// As [`Layout::apply_preset`], with the main pane of the main-* layouts `main` cells
    /// wide (main-vertical) or high (main-horizontal) when given (`main-pane-width`,
    /// `main-pane-height`), leaving the others at least two cells; else about two thirds.
    pub fn apply_preset_with_main(&mut self, preset: Preset, main: Option<u16>) {
        let panes = self.panes();
        let even = |dir: Dir, ids: &[PaneId]| Node::Split {
            dir,
            children: ids.iter().map(|&p| (Node::Pane(p), 1)).collect(),
        };
        self.root = if panes.len() == 1 {
            Node::Pane(panes[0])
        } else {
            match preset {
                Preset::EvenHorizontal => even(Dir::Horizontal, &panes),
                Preset::EvenVertical => even(Dir::Vertical, &panes),
                Preset::MainHorizontal | Preset::MainVertical => {
                    let (outer, inner) = if preset == Preset::MainHorizontal {
                        (Dir::Vertical, Dir::Horizontal)
                    } else {
                        (Dir::Horizontal, Dir::Vertical)
                    };
                    let rest = if panes.len() == 2 {
                        Node::Pane(panes[1])
                    } else {
                        even(inner, &panes[1..])
                    };
                    let extent = if outer == Dir::Horizontal {
                        self.cols
                    } else {
                        self.rows
                    };
                    // The main pane gets `main` cells, or about two thirds.
                    let weights = match main {
                        Some(m) if extent > 3 => {
                            let m = m.clamp(1, extent - 3);
                            (m, extent - m)
                        }
                        _ => (2, 1),
                    };
                    Node::Split {
                        dir: outer,
                        children: vec![(Node::Pane(panes[0]), weights.0), (rest, weights.1)],
                    }
                }
                Preset::Tiled => {
                    let n = panes.len();
                    let cols = (1..=n).find(|c| c * c >= n).unwrap_or(1);
                    let rows: Vec<Node> = panes
                        .chunks(cols)
                        .map(|row| {
                            if row.len() == 1 {
                                Node::Pane(row[0])
                            } else {
                                even(Dir::Horizontal, row)
                            }
                        })
                        .collect();
                    if rows.len() == 1 {
                        rows.into_iter().next().unwrap_or(Node::Pane(panes[0]))
                    } else {
                        Node::Split {
                            dir: Dir::Vertical,
                            children: rows.into_iter().map(|r| (r, 1)).collect(),
                        }
                    }
                }
            }
        };
        // Weights become cells.
        scale_weights(&mut self.root, self.cols, self.rows);
        fit(&mut self.root, self.cols, self.rows);
    }
}

/// Converts preset weights into cells for the first fit.
fn scale_weights(node: &mut Node, cols: u16, rows: u16) {
    if let Node::Split { dir, children } = node {
        let extent = match dir {
            Dir::Horizontal => cols,
            Dir::Vertical => rows,
        };
        let total: u16 = children.iter().map(|(_, w)| *w).sum();
        for (child, w) in children.iter_mut() {
            *w = (u32::from(*w) * u32::from(extent) / u32::from(total.max(1))).max(1) as u16;
            let (c, r) = match dir {
                Dir::Horizontal => (*w, rows),
                Dir::Vertical => (cols, *w),
            };
            scale_weights(child, c, r);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::tests::covers_exactly;

    #[test]
    fn presets_arrange_every_pane() {
        let mut l = Layout::new(PaneId(1), 80, 24);
        for p in 2..=5 {
            l.split(PaneId(p - 1), PaneId(p), Dir::Horizontal, 50)
                .unwrap_or(());
        }
        for preset in Preset::ALL {
            l.apply_preset(preset);
            assert_eq!(
                l.panes(),
                [1, 2, 3, 4, 5].map(PaneId),
                "order kept: {preset:?}"
            );
            let mut ids = l.panes();
            ids.sort_unstable();
            assert_eq!(ids, [1, 2, 3, 4, 5].map(PaneId), "{preset:?}");
            covers_exactly(&l);
        }
        l.apply_preset(Preset::MainVertical);
        let main = l.rect_of(PaneId(1)).unwrap();
        assert_eq!((main.col, main.row, main.rows), (0, 0, 24));
        assert!(main.cols > 40);
        l.apply_preset(Preset::EvenHorizontal);
        let widths: Vec<u16> = l.rects().iter().map(|(_, r)| r.cols).collect();
        assert!(
            widths.iter().max().unwrap() - widths.iter().min().unwrap() <= 1,
            "{widths:?}"
        );
    }
}
