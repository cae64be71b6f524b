//! A window's layout: a tree of splits with sizes, like tmux's layout cells.
//!
//! Children of a split lie side by side (`Dir::Horizontal`, divided by vertical borders) or
//! stacked (`Dir::Vertical`, divided by horizontal borders), with a one-cell border between
//! neighbours. Sizes are kept in cells along the split's axis; resizing the window scales them
//! proportionally. Pure and synchronous: the session task owns one per window.

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

/// A rectangle in window cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    /// Left column.
    pub col: u16,
    /// Top row.
    pub row: u16,
    /// Width.
    pub cols: u16,
    /// Height.
    pub rows: u16,
}

impl Rect {
    fn right(&self) -> u16 {
        self.col + self.cols
    }

    fn bottom(&self) -> u16 {
        self.row + self.rows
    }
}

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

/// A node of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Node {
    /// A pane, by id.
    Pane(u64),
    /// A split: children with their sizes along the split's axis.
    Split {
        /// Arrangement.
        dir: Dir,
        /// Children and their extent along `dir`.
        children: Vec<(Node, u16)>,
    },
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
    pub fn new(pane: u64, cols: u16, rows: u16) -> Self {
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
    pub fn panes(&self) -> Vec<u64> {
        let mut out = Vec::new();
        collect(&self.root, &mut out);
        out
    }

    /// Each pane's rectangle.
    pub fn rects(&self) -> Vec<(u64, Rect)> {
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
    pub fn rect_of(&self, pane: u64) -> Option<Rect> {
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
        pane: u64,
        new: u64,
        dir: Dir,
        percent: u16,
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
        let percent = percent.clamp(1, 99);
        let usable = extent - 1;
        let new_size = ((u32::from(usable) * u32::from(percent) / 100) as u16)
            .clamp(MIN_PANE, usable - MIN_PANE);
        let old_size = usable - new_size;
        split_node(&mut self.root, pane, new, dir, old_size, new_size);
        fit(&mut self.root, self.cols, self.rows);
        Ok(())
    }

    /// Removes `pane`; its space goes to a neighbour. False when it was the last pane.
    pub fn remove(&mut self, pane: u64) -> bool {
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
    pub fn resize_pane(&mut self, pane: u64, side: Side, cells: u16) -> Result<(), LayoutError> {
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
    pub fn neighbour(&self, pane: u64, side: Side) -> Option<u64> {
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

    /// Exchanges two panes' places.
    pub fn swap(&mut self, a: u64, b: u64) {
        swap_ids(&mut self.root, a, b);
    }

    /// Rearranges the panes into `preset`, keeping their order; `main` is the large pane.
    pub fn apply_preset(&mut self, preset: Preset, main: u64) {
        let mut panes = self.panes();
        if let Some(pos) = panes.iter().position(|&p| p == main) {
            let m = panes.remove(pos);
            panes.insert(0, m);
        }
        let even = |dir: Dir, ids: &[u64]| Node::Split {
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
                    // The main pane gets about two thirds.
                    Node::Split {
                        dir: outer,
                        children: vec![(Node::Pane(panes[0]), 2), (rest, 1)],
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

fn overlap(a: u16, alen: u16, b: u16, blen: u16) -> u16 {
    let start = a.max(b);
    let end = (a + alen).min(b + blen);
    end.saturating_sub(start)
}

fn axis(rect: Rect, dir: Dir) -> u16 {
    match dir {
        Dir::Horizontal => rect.cols,
        Dir::Vertical => rect.rows,
    }
}

fn collect(node: &Node, out: &mut Vec<u64>) {
    match node {
        Node::Pane(p) => out.push(*p),
        Node::Split { children, .. } => children.iter().for_each(|(c, _)| collect(c, out)),
    }
}

fn contains(node: &Node, pane: u64) -> bool {
    match node {
        Node::Pane(p) => *p == pane,
        Node::Split { children, .. } => children.iter().any(|(c, _)| contains(c, pane)),
    }
}

fn place(node: &Node, rect: Rect, out: &mut Vec<(u64, Rect)>) {
    match node {
        Node::Pane(p) => out.push((*p, rect)),
        Node::Split { dir, children } => {
            let mut offset = 0u16;
            for (child, size) in children {
                let r = match dir {
                    Dir::Horizontal => Rect {
                        col: rect.col + offset,
                        cols: *size,
                        ..rect
                    },
                    Dir::Vertical => Rect {
                        row: rect.row + offset,
                        rows: *size,
                        ..rect
                    },
                };
                place(child, r, out);
                offset += size + 1;
            }
        }
    }
}

/// Makes children's sizes add up to `cols` x `rows` (minus borders), scaling proportionally and
/// respecting [`MIN_PANE`] where possible.
fn fit(node: &mut Node, cols: u16, rows: u16) {
    let Node::Split { dir, children } = node else {
        return;
    };
    let extent = match dir {
        Dir::Horizontal => cols,
        Dir::Vertical => rows,
    };
    let n = children.len() as u16;
    let usable = extent.saturating_sub(n.saturating_sub(1));
    let total: u32 = children.iter().map(|(_, s)| u32::from((*s).max(1))).sum();
    let mut sizes: Vec<u16> = children
        .iter()
        .map(|(_, s)| ((u32::from((*s).max(1)) * u32::from(usable)) / total.max(1)) as u16)
        .collect();
    // Hand out the rounding remainder, then lift panes below the minimum.
    let mut assigned: u16 = sizes.iter().sum();
    let mut i = 0;
    while assigned < usable {
        let idx = i % sizes.len();
        sizes[idx] += 1;
        assigned += 1;
        i += 1;
    }
    let min = MIN_PANE.min(usable / n.max(1)).max(1);
    for idx in 0..sizes.len() {
        while sizes[idx] < min {
            let Some(donor) = (0..sizes.len())
                .filter(|&j| sizes[j] > min)
                .max_by_key(|&j| sizes[j])
            else {
                break;
            };
            sizes[donor] -= 1;
            sizes[idx] += 1;
        }
    }
    for ((child, size), new) in children.iter_mut().zip(sizes) {
        *size = new;
        match dir {
            Dir::Horizontal => fit(child, new, rows),
            Dir::Vertical => fit(child, cols, new),
        }
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

fn split_node(
    node: &mut Node,
    pane: u64,
    new: u64,
    dir: Dir,
    old_size: u16,
    new_size: u16,
) -> bool {
    match node {
        Node::Pane(p) if *p == pane => {
            *node = Node::Split {
                dir,
                children: vec![(Node::Pane(pane), old_size), (Node::Pane(new), new_size)],
            };
            true
        }
        Node::Pane(_) => false,
        Node::Split { dir: d, children } => {
            let same_dir = *d == dir;
            for i in 0..children.len() {
                if same_dir && children[i].0 == Node::Pane(pane) {
                    children[i].1 = old_size;
                    children.insert(i + 1, (Node::Pane(new), new_size));
                    return true;
                }
                if split_node(&mut children[i].0, pane, new, dir, old_size, new_size) {
                    return true;
                }
            }
            false
        }
    }
}

fn remove_node(node: &mut Node, pane: u64) -> bool {
    let Node::Split { children, .. } = node else {
        return false;
    };
    if let Some(i) = children.iter().position(|(c, _)| *c == Node::Pane(pane)) {
        let (_, size) = children.remove(i);
        // The neighbour before (else after) takes the space and the border.
        let j = if i > 0 { i - 1 } else { 0 };
        if let Some((_, s)) = children.get_mut(j) {
            *s += size + 1;
        }
        return true;
    }
    children.iter_mut().any(|(c, _)| remove_node(c, pane))
}

/// Replaces splits with one child by that child.
fn collapse(node: &mut Node) {
    if let Node::Split { children, .. } = node {
        children.iter_mut().for_each(|(c, _)| collapse(c));
        if children.len() == 1 {
            let (only, _) = children.remove(0);
            *node = only;
        }
    }
}

/// Moves the border next to `pane`'s subtree in the innermost split of `dir` that has a
/// sibling on the wanted side.
fn resize_in(node: &mut Node, pane: u64, dir: Dir, towards_end: bool, cells: u16) -> bool {
    let Node::Split { dir: d, children } = node else {
        return false;
    };
    let Some(i) = children.iter().position(|(c, _)| contains(c, pane)) else {
        return false;
    };
    // Deeper splits first: the innermost border next to the pane moves.
    if resize_in(&mut children[i].0, pane, dir, towards_end, cells) {
        return true;
    }
    if *d != dir {
        return false;
    }
    // The border on the requested side moves that way (the pane grows); without one, the
    // border on the other side moves that way (the pane shrinks), as tmux does.
    let n = children.len();
    let (j, grow) = if towards_end {
        if i + 1 < n {
            (i + 1, true)
        } else if i > 0 {
            (i - 1, false)
        } else {
            return false;
        }
    } else if i > 0 {
        (i - 1, true)
    } else if i + 1 < n {
        (i + 1, false)
    } else {
        return false;
    };
    let (from, to) = if grow { (j, i) } else { (i, j) };
    let give = cells.min(children[from].1.saturating_sub(MIN_PANE));
    if give == 0 {
        return false;
    }
    children[from].1 -= give;
    children[to].1 += give;
    true
}

fn swap_ids(node: &mut Node, a: u64, b: u64) {
    match node {
        Node::Pane(p) if *p == a => *p = b,
        Node::Pane(p) if *p == b => *p = a,
        Node::Pane(_) => {}
        Node::Split { children, .. } => children.iter_mut().for_each(|(c, _)| swap_ids(c, a, b)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn covers_exactly(l: &Layout) {
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
        let mut l = Layout::new(1, 80, 24);
        l.split(1, 2, Dir::Horizontal, 50).unwrap();
        assert_eq!(
            l.rect_of(1).unwrap(),
            Rect {
                col: 0,
                row: 0,
                cols: 40,
                rows: 24
            }
        );
        assert_eq!(
            l.rect_of(2).unwrap(),
            Rect {
                col: 41,
                row: 0,
                cols: 39,
                rows: 24
            }
        );
        l.split(2, 3, Dir::Vertical, 50).unwrap();
        assert_eq!(l.rect_of(3).unwrap().row, 13);
        assert_eq!(l.panes(), vec![1, 2, 3]);
        covers_exactly(&l);
    }

    #[test]
    fn percent_sets_the_new_pane_share() {
        let mut l = Layout::new(1, 101, 24);
        l.split(1, 2, Dir::Horizontal, 30).unwrap();
        assert_eq!(l.rect_of(2).unwrap().cols, 30);
    }

    #[test]
    fn a_split_that_cannot_fit_is_refused() {
        let mut l = Layout::new(1, 4, 24);
        assert!(l.split(1, 2, Dir::Horizontal, 50).is_err());
        assert_eq!(l.panes(), vec![1]);
    }

    #[test]
    fn removing_gives_space_to_the_neighbour() {
        let mut l = Layout::new(1, 80, 24);
        l.split(1, 2, Dir::Horizontal, 50).unwrap();
        l.split(2, 3, Dir::Vertical, 50).unwrap();
        assert!(l.remove(3));
        assert_eq!(l.rect_of(2).unwrap().rows, 24);
        assert!(l.remove(1));
        assert_eq!(
            l.rect_of(2).unwrap(),
            Rect {
                col: 0,
                row: 0,
                cols: 80,
                rows: 24
            }
        );
        assert!(!l.remove(2));
    }

    #[test]
    fn window_resize_keeps_proportions() {
        let mut l = Layout::new(1, 100, 40);
        l.split(1, 2, Dir::Horizontal, 25).unwrap();
        let before = l.rect_of(2).unwrap().cols;
        l.resize(200, 40);
        let after = l.rect_of(2).unwrap().cols;
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
        let mut l = Layout::new(1, 80, 24);
        l.split(1, 2, Dir::Horizontal, 50).unwrap();
        l.resize_pane(1, Side::Right, 5).unwrap();
        assert_eq!(l.rect_of(1).unwrap().cols, 45);
        l.resize_pane(2, Side::Left, 10).unwrap();
        assert_eq!(l.rect_of(1).unwrap().cols, 35);
        // The left pane has no left border: its right border moves left.
        l.resize_pane(1, Side::Left, 1).unwrap();
        assert_eq!(l.rect_of(1).unwrap().cols, 34);
        let mut single = Layout::new(1, 80, 24);
        assert!(single.resize_pane(1, Side::Left, 1).is_err());
        l.resize_pane(1, Side::Right, 500).unwrap();
        assert_eq!(l.rect_of(2).unwrap().cols, MIN_PANE);
    }

    #[test]
    fn neighbours_by_direction() {
        let mut l = Layout::new(1, 80, 24);
        l.split(1, 2, Dir::Horizontal, 50).unwrap();
        l.split(2, 3, Dir::Vertical, 50).unwrap();
        assert_eq!(l.neighbour(1, Side::Right), Some(2));
        assert_eq!(l.neighbour(3, Side::Left), Some(1));
        assert_eq!(l.neighbour(2, Side::Down), Some(3));
        assert_eq!(l.neighbour(3, Side::Up), Some(2));
        assert_eq!(l.neighbour(1, Side::Left), None);
    }

    #[test]
    fn presets_arrange_every_pane() {
        let mut l = Layout::new(1, 80, 24);
        for p in 2..=5 {
            l.split(p - 1, p, Dir::Horizontal, 50).unwrap_or(());
        }
        for preset in Preset::ALL {
            l.apply_preset(preset, 1);
            let mut ids = l.panes();
            ids.sort_unstable();
            assert_eq!(ids, vec![1, 2, 3, 4, 5], "{preset:?}");
            covers_exactly(&l);
        }
        l.apply_preset(Preset::MainVertical, 3);
        let main = l.rect_of(3).unwrap();
        assert_eq!((main.col, main.row, main.rows), (0, 0, 24));
        assert!(main.cols > 40);
        l.apply_preset(Preset::EvenHorizontal, 1);
        let widths: Vec<u16> = l.rects().iter().map(|(_, r)| r.cols).collect();
        assert!(
            widths.iter().max().unwrap() - widths.iter().min().unwrap() <= 1,
            "{widths:?}"
        );
    }

    #[test]
    fn swap_exchanges_places() {
        let mut l = Layout::new(1, 80, 24);
        l.split(1, 2, Dir::Horizontal, 50).unwrap();
        let (r1, r2) = (l.rect_of(1).unwrap(), l.rect_of(2).unwrap());
        l.swap(1, 2);
        assert_eq!(l.rect_of(1).unwrap(), r2);
        assert_eq!(l.rect_of(2).unwrap(), r1);
    }
}
