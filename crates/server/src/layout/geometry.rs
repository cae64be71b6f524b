//! Rectangles and sizes: where each pane lies, and fitting a split's children to its extent.

use super::{Dir, Node, MIN_PANE};
use crate::ids::PaneId;

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
    /// The rectangle of `cols` x `rows` cells whose top left is `col`, `row`.
    pub const fn new(col: u16, row: u16, cols: u16, rows: u16) -> Rect {
        Rect {
            col,
            row,
            cols,
            rows,
        }
    }

    /// The column just right of the rectangle.
    pub(super) fn right(&self) -> u16 {
        self.col + self.cols
    }

    /// The row just below the rectangle.
    pub(super) fn bottom(&self) -> u16 {
        self.row + self.rows
    }

    /// The rectangle inside a one-cell border (empty for one too small to have an inside).
    pub fn inset(&self) -> Rect {
        Rect {
            col: self.col + 1,
            row: self.row + 1,
            cols: self.cols.saturating_sub(2),
            rows: self.rows.saturating_sub(2),
        }
    }

    /// Whether the cell at `col`, `row` is inside.
    pub fn contains(&self, col: u16, row: u16) -> bool {
        col >= self.col
            && col - self.col < self.cols
            && row >= self.row
            && row - self.row < self.rows
    }
}

/// Length of the overlap of the spans `a..a + alen` and `b..b + blen`.
pub(super) fn overlap(a: u16, alen: u16, b: u16, blen: u16) -> u16 {
    let start = a.max(b);
    let end = (a + alen).min(b + blen);
    end.saturating_sub(start)
}

/// The extent of `rect` along `dir`.
pub(super) fn axis(rect: Rect, dir: Dir) -> u16 {
    match dir {
        Dir::Horizontal => rect.cols,
        Dir::Vertical => rect.rows,
    }
}

/// Appends the rectangle of each pane under `node`, which fills `rect`.
pub(super) fn place(node: &Node, rect: Rect, out: &mut Vec<(PaneId, Rect)>) {
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
pub(super) fn fit(node: &mut Node, cols: u16, rows: u16) {
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
