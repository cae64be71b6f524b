//! A window's layout: a tree of splits with sizes, like tmux's layout cells.
//!
//! Children of a split lie side by side (`Dir::Horizontal`, divided by vertical borders) or
//! stacked (`Dir::Vertical`, divided by horizontal borders), with a one-cell border between
//! neighbours. Sizes are kept in cells along the split's axis; resizing the window scales them
//! proportionally. Pure and synchronous: the session task owns one per window.
//!
//! [`Layout`] and its operations are here; `tree` holds the nodes and the edits on them,
//! `geometry` the rectangles and sizes, `preset` the preset arrangements.

mod geometry;
pub mod placement;
mod preset;
mod tree;

use crate::ids::PaneId;
pub use geometry::Rect;
pub use preset::Preset;
use tree::Node;

use geometry::{axis, fit, overlap, place};
use tree::{collapse, collect, remove_node, resize_in, split_node, swap_ids};

/// Smallest pane, in cells, on either axis.
pub const MIN_PANE: u16 = 2;

/// How a split arranges its children.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dir {
    /// Side by side, left to right (tmux `split-window -h`).
    Horizontal,
    /// Stacked, top to bottom (tmux `split-window -v`).
    Vertical,
}

/// A direction to move focus or resize in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// Left.
    Left,
    /// Right.
    Right,
    /// Up.
    Up,
    /// Down.
    Down,
}

/// How big a new pane is (`split-window -p`/`-l`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SplitSize {
    /// A share of the split pane, 1 to 99.
    Percent(u16),
    /// Cells.
    Cells(u16),
}

/// Why a layout change was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayoutError(pub String);

impl std::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// A window's layout and size.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    root: Node,
    cols: u16,
    rows: u16,
}

impl Layout {
    /// One pane filling `cols` x `rows`.
    pub fn new(pane: PaneId, cols: u16, rows: u16) -> Self {
        Layout {
            root: Node::Pane(pane),
            cols: cols.max(1),
            rows: rows.max(1),
        }
    }

    /// Width.
    pub fn cols(&self) -> u16 {
        self.cols
    }

    /// Height.
    pub fn rows(&self) -> u16 {
        self.rows
    }

    /// Pane ids in layout order (left to right, top to bottom).
    pub fn panes(&self) -> Vec<PaneId> {
        let mut out = Vec::new();
        collect(&self.root, &mut out);
        out
    }

    /// Each pane's rectangle.
    pub fn rects(&self) -> Vec<(PaneId, Rect)> {
        let mut out = Vec::new();
        place(
            &self.root,
            Rect {
                col: 0,
                row: 0,
                cols: self.cols,
                rows: self.rows,
            },
            &mut out,
        );
        out
    }

    /// The rectangle of `pane`.
    pub fn rect_of(&self, pane: PaneId) -> Option<Rect> {
        self.rects()
            .into_iter()
            .find(|(p, _)| *p == pane)
            .map(|(_, r)| r)
    }

    /// Resizes the window, scaling every split proportionally.
    pub fn resize(&mut self, cols: u16, rows: u16) {
        self.cols = cols.max(1);
        self.rows = rows.max(1);
        fit(&mut self.root, self.cols, self.rows);
    }

    /// Splits `pane`, putting `new` after it (right or below); `percent` is the new pane's share.
    pub fn split(
        &mut self,
        pane: PaneId,
        new: PaneId,
        dir: Dir,
        percent: u16,
    ) -> Result<(), LayoutError> {
        self.split_sized(pane, new, dir, SplitSize::Percent(percent), false)
    }

    /// Splits `pane`, putting `new` after it (right or below) or `before` it (left or above),
    /// `size` its share: a percentage or cells (kept within what both panes need).
    pub fn split_sized(
        &mut self,
        pane: PaneId,
        new: PaneId,
        dir: Dir,
        size: SplitSize,
        before: bool,
    ) -> Result<(), LayoutError> {
        let rect = self
            .rect_of(pane)
            .ok_or_else(|| LayoutError(format!("no pane %{pane}")))?;
        let extent = axis(rect, dir);
        if extent < 2 * MIN_PANE + 1 {
            return Err(LayoutError(format!(
                "pane too small to split ({}x{})",
                rect.cols, rect.rows
            )));
        }
        let usable = extent - 1;
        let wanted = match size {
            SplitSize::Percent(percent) => {
                (u32::from(usable) * u32::from(percent.clamp(1, 100)) / 100) as u16
            }
            SplitSize::Cells(cells) => cells,
        };
        let new_size = wanted.clamp(MIN_PANE, usable - MIN_PANE);
        let old_size = usable - new_size;
        if before {
            // Split with the sizes the other way round, then trade places: the new pane
            // comes first with its size.
            split_node(&mut self.root, pane, new, dir, new_size, old_size);
            self.swap(pane, new);
        } else {
            split_node(&mut self.root, pane, new, dir, old_size, new_size);
        }
        fit(&mut self.root, self.cols, self.rows);
        Ok(())
    }

    /// Adds `new` across the whole window (`split-window -f`): after everything else (right
    /// or below), or `before` it, `size` its share of the window.
    pub fn split_full(
        &mut self,
        new: PaneId,
        dir: Dir,
        size: SplitSize,
        before: bool,
    ) -> Result<(), LayoutError> {
        let extent = match dir {
            Dir::Horizontal => self.cols,
            Dir::Vertical => self.rows,
        };
        if extent < 2 * MIN_PANE + 1 {
            return Err(LayoutError(format!(
                "window too small to split ({}x{})",
                self.cols, self.rows
            )));
        }
        let usable = extent - 1;
        let wanted = match size {
            SplitSize::Percent(percent) => {
                (u32::from(usable) * u32::from(percent.clamp(1, 100)) / 100) as u16
            }
            SplitSize::Cells(cells) => cells,
        };
        let new_size = wanted.clamp(MIN_PANE, usable - MIN_PANE);
        let old_size = usable - new_size;
        let old = std::mem::replace(&mut self.root, Node::Pane(new));
        let children = if before {
            vec![(Node::Pane(new), new_size), (old, old_size)]
        } else {
            vec![(old, old_size), (Node::Pane(new), new_size)]
        };
        self.root = Node::Split { dir, children };
        fit(&mut self.root, self.cols, self.rows);
        Ok(())
    }

    /// Removes `pane`; its space goes to a neighbour. False when it was the last pane.
    pub fn remove(&mut self, pane: PaneId) -> bool {
        if self.root == Node::Pane(pane) {
            return false;
        }
        remove_node(&mut self.root, pane);
        collapse(&mut self.root);
        fit(&mut self.root, self.cols, self.rows);
        true
    }

    /// Moves a border of `pane` by `cells` towards `side`: the one on that side (the pane grows)
    /// or, at the window's edge, the opposite one (the pane shrinks), as tmux does.
    pub fn resize_pane(&mut self, pane: PaneId, side: Side, cells: u16) -> Result<(), LayoutError> {
        let dir = match side {
            Side::Left | Side::Right => Dir::Horizontal,
            Side::Up | Side::Down => Dir::Vertical,
        };
        let towards_end = matches!(side, Side::Right | Side::Down);
        if resize_in(&mut self.root, pane, dir, towards_end, cells) {
            Ok(())
        } else {
            Err(LayoutError("no border to move that way".into()))
        }
    }

    /// The pane next to `pane` on `side`, preferring the one overlapping `pane` the most.
    pub fn neighbour(&self, pane: PaneId, side: Side) -> Option<PaneId> {
        let rects = self.rects();
        let (_, me) = rects.iter().find(|(p, _)| *p == pane)?;
        rects
            .iter()
            .filter(|(p, _)| *p != pane)
            .filter_map(|(p, r)| {
                let adjacent = match side {
                    Side::Left => r.right() + 1 == me.col,
                    Side::Right => me.right() + 1 == r.col,
                    Side::Up => r.bottom() + 1 == me.row,
                    Side::Down => me.bottom() + 1 == r.row,
                };
                let overlap = match side {
                    Side::Left | Side::Right => overlap(me.row, me.rows, r.row, r.rows),
                    Side::Up | Side::Down => overlap(me.col, me.cols, r.col, r.cols),
                };
                (adjacent && overlap > 0).then_some((*p, overlap))
            })
            .max_by_key(|(_, o)| *o)
            .map(|(p, _)| p)
    }

    /// The panes next to `pane` on `side`, each with how much it overlaps `pane`; with `wrap`,
    /// when there are none (`pane` is at the window's edge), those at the opposite edge.
    pub fn neighbours(&self, pane: PaneId, side: Side, wrap: bool) -> Vec<(PaneId, u16)> {
        let rects = self.rects();
        let Some((_, me)) = rects.iter().find(|(p, _)| *p == pane) else {
            return Vec::new();
        };
        let me = *me;
        let find = |wrapped: bool| -> Vec<(PaneId, u16)> {
            rects
                .iter()
                .filter(|(p, _)| *p != pane)
                .filter_map(|(p, r)| {
                    let adjacent = match (side, wrapped) {
                        (Side::Left, false) => r.right() + 1 == me.col,
                        (Side::Right, false) => me.right() + 1 == r.col,
                        (Side::Up, false) => r.bottom() + 1 == me.row,
                        (Side::Down, false) => me.bottom() + 1 == r.row,
                        (Side::Left, true) => r.col + r.cols == self.cols,
                        (Side::Right, true) => r.col == 0,
                        (Side::Up, true) => r.row + r.rows == self.rows,
                        (Side::Down, true) => r.row == 0,
                    };
                    let overlap = match side {
                        Side::Left | Side::Right => overlap(me.row, me.rows, r.row, r.rows),
                        Side::Up | Side::Down => overlap(me.col, me.cols, r.col, r.cols),
                    };
                    (adjacent && overlap > 0).then_some((*p, overlap))
                })
                .collect()
        };
        let found = find(false);
        if found.is_empty() && wrap {
            return find(true);
        }
        found
    }

    /// Gives `pane` and its neighbours in its split equal room (`select-layout -E`); false
    /// when it is alone.
    pub fn spread_around(&mut self, pane: PaneId) -> bool {
        let spread = tree::spread_parent(&mut self.root, pane);
        if spread {
            fit(&mut self.root, self.cols, self.rows);
        }
        spread
    }

    /// Exchanges two panes' places.
    pub fn swap(&mut self, a: PaneId, b: PaneId) {
        swap_ids(&mut self.root, a, b);
    }

    /// Puts pane `new` (not in the layout) in `old`'s place.
    pub fn replace(&mut self, old: PaneId, new: PaneId) {
        swap_ids(&mut self.root, old, new);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spreading_evens_the_innermost_uneven_split_around_the_pane() {
        let mut l = Layout::new(PaneId(1), 80, 24);
        l.split(PaneId(1), PaneId(2), Dir::Horizontal, 20).unwrap();
        l.split(PaneId(2), PaneId(3), Dir::Vertical, 50).unwrap();
        // Pane 3's own split (2 over 3) is even: the one holding it, side by side with 1, is
        // spread instead.
        assert!(l.spread_around(PaneId(3)));
        let (a, b) = (l.rect_of(PaneId(1)).unwrap(), l.rect_of(PaneId(2)).unwrap());
        assert!(a.cols.abs_diff(b.cols) <= 1, "{a:?} {b:?}");
        covers_exactly(&l);
        // Even everywhere now: nothing to do.
        assert!(!l.spread_around(PaneId(3)));
        assert!(!Layout::new(PaneId(1), 80, 24).spread_around(PaneId(1)));
    }

    pub(super) fn covers_exactly(l: &Layout) {
        // Every cell is in one pane or on a border; panes never overlap.
        let mut grid = vec![0u8; usize::from(l.cols()) * usize::from(l.rows())];
        for (_, r) in l.rects() {
            assert!(r.cols >= 1 && r.rows >= 1, "{r:?}");
            assert!(
                r.right() <= l.cols() && r.bottom() <= l.rows(),
                "{r:?} outside"
            );
            for y in r.row..r.bottom() {
                for x in r.col..r.right() {
                    let cell = &mut grid[usize::from(y) * usize::from(l.cols()) + usize::from(x)];
                    assert_eq!(*cell, 0, "overlap at {x},{y}");
                    *cell = 1;
                }
            }
        }
    }

    #[test]
    fn split_both_ways_and_nested() {
        let mut l = Layout::new(PaneId(1), 80, 24);
        l.split(PaneId(1), PaneId(2), Dir::Horizontal, 50).unwrap();
        assert_eq!(
            l.rect_of(PaneId(1)).unwrap(),
            Rect {
                col: 0,
                row: 0,
                cols: 40,
                rows: 24
            }
        );
        assert_eq!(
            l.rect_of(PaneId(2)).unwrap(),
            Rect {
                col: 41,
                row: 0,
                cols: 39,
                rows: 24
            }
        );
        l.split(PaneId(2), PaneId(3), Dir::Vertical, 50).unwrap();
        assert_eq!(l.rect_of(PaneId(3)).unwrap().row, 13);
        assert_eq!(l.panes(), vec![PaneId(1), PaneId(2), PaneId(3)]);
        covers_exactly(&l);
    }

    #[test]
    fn percent_sets_the_new_pane_share() {
        let mut l = Layout::new(PaneId(1), 101, 24);
        l.split(PaneId(1), PaneId(2), Dir::Horizontal, 30).unwrap();
        assert_eq!(l.rect_of(PaneId(2)).unwrap().cols, 30);
    }

    #[test]
    fn a_split_that_cannot_fit_is_refused() {
        let mut l = Layout::new(PaneId(1), 4, 24);
        assert!(l.split(PaneId(1), PaneId(2), Dir::Horizontal, 50).is_err());
        assert_eq!(l.panes(), vec![PaneId(1)]);
    }

    #[test]
    fn removing_gives_space_to_the_neighbour() {
        let mut l = Layout::new(PaneId(1), 80, 24);
        l.split(PaneId(1), PaneId(2), Dir::Horizontal, 50).unwrap();
        l.split(PaneId(2), PaneId(3), Dir::Vertical, 50).unwrap();
        assert!(l.remove(PaneId(3)));
        assert_eq!(l.rect_of(PaneId(2)).unwrap().rows, 24);
        assert!(l.remove(PaneId(1)));
        assert_eq!(
            l.rect_of(PaneId(2)).unwrap(),
            Rect {
                col: 0,
                row: 0,
                cols: 80,
                rows: 24
            }
        );
        assert!(!l.remove(PaneId(2)));
    }

    #[test]
    fn window_resize_keeps_proportions() {
        let mut l = Layout::new(PaneId(1), 100, 40);
        l.split(PaneId(1), PaneId(2), Dir::Horizontal, 25).unwrap();
        let before = l.rect_of(PaneId(2)).unwrap().cols;
        l.resize(200, 40);
        let after = l.rect_of(PaneId(2)).unwrap().cols;
        assert!(
            (i32::from(after) - 2 * i32::from(before)).abs() <= 2,
            "{before} -> {after}"
        );
        covers_exactly(&l);
        l.resize(5, 3);
        covers_exactly(&l);
    }

    #[test]
    fn resize_pane_moves_the_nearest_border() {
        let mut l = Layout::new(PaneId(1), 80, 24);
        l.split(PaneId(1), PaneId(2), Dir::Horizontal, 50).unwrap();
        l.resize_pane(PaneId(1), Side::Right, 5).unwrap();
        assert_eq!(l.rect_of(PaneId(1)).unwrap().cols, 45);
        l.resize_pane(PaneId(2), Side::Left, 10).unwrap();
        assert_eq!(l.rect_of(PaneId(1)).unwrap().cols, 35);
        // The left pane has no left border: its right border moves left.
        l.resize_pane(PaneId(1), Side::Left, 1).unwrap();
        assert_eq!(l.rect_of(PaneId(1)).unwrap().cols, 34);
        let mut single = Layout::new(PaneId(1), 80, 24);
        assert!(single.resize_pane(PaneId(1), Side::Left, 1).is_err());
        l.resize_pane(PaneId(1), Side::Right, 500).unwrap();
        assert_eq!(l.rect_of(PaneId(2)).unwrap().cols, MIN_PANE);
    }

    #[test]
    fn neighbours_by_direction() {
        let mut l = Layout::new(PaneId(1), 80, 24);
        l.split(PaneId(1), PaneId(2), Dir::Horizontal, 50).unwrap();
        l.split(PaneId(2), PaneId(3), Dir::Vertical, 50).unwrap();
        assert_eq!(l.neighbour(PaneId(1), Side::Right), Some(PaneId(2)));
        assert_eq!(l.neighbour(PaneId(3), Side::Left), Some(PaneId(1)));
        assert_eq!(l.neighbour(PaneId(2), Side::Down), Some(PaneId(3)));
        assert_eq!(l.neighbour(PaneId(3), Side::Up), Some(PaneId(2)));
        assert_eq!(l.neighbour(PaneId(1), Side::Left), None);
    }

    #[test]
    fn swap_exchanges_places() {
        let mut l = Layout::new(PaneId(1), 80, 24);
        l.split(PaneId(1), PaneId(2), Dir::Horizontal, 50).unwrap();
        let (r1, r2) = (l.rect_of(PaneId(1)).unwrap(), l.rect_of(PaneId(2)).unwrap());
        l.swap(PaneId(1), PaneId(2));
        assert_eq!(l.rect_of(PaneId(1)).unwrap(), r2);
        assert_eq!(l.rect_of(PaneId(2)).unwrap(), r1);
    }
}
