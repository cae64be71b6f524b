//! The tree of splits and panes, and the edits on it: split, remove, collapse, move a
//! border, swap.

use super::{Dir, MIN_PANE};
use crate::ids::PaneId;

/// A node of the tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Node {
    /// A pane, by id.
    Pane(PaneId),
    /// A split: children with their sizes along the split's axis.
    Split {
        /// Arrangement.
        dir: Dir,
        /// Children and their extent along `dir`.
        children: Vec<(Node, u16)>,
    },
}

/// Gives equal room to the children of the innermost split holding `pane` that is not even
/// already, going out a split at a time as tmux does; false when all are even (or the pane is
/// alone, or not in the tree).
pub(super) fn spread_parent(node: &mut Node, pane: PaneId) -> bool {
    /// `None`: `pane` is not under `node`; else whether a split was spread.
    fn walk(node: &mut Node, pane: PaneId) -> Option<bool> {
        let Node::Split { children, .. } = node else {
            return (*node == Node::Pane(pane)).then_some(false);
        };
        let done = (0..children.len()).find_map(|i| walk(&mut children[i].0, pane))?;
        if done {
            return Some(true);
        }
        let sizes = children.iter().map(|(_, s)| *s);
        let (min, max) = (sizes.clone().min()?, sizes.max()?);
        if max - min <= 1 {
            return Some(false);
        }
        for (_, size) in children.iter_mut() {
            *size = 1;
        }
        Some(true)
    }
    walk(node, pane).unwrap_or(false)
}

/// Appends the ids of the panes under `node`, in layout order.
pub(super) fn collect(node: &Node, out: &mut Vec<PaneId>) {
    match node {
        Node::Pane(p) => out.push(*p),
        Node::Split { children, .. } => children.iter().for_each(|(c, _)| collect(c, out)),
    }
}

fn contains(node: &Node, pane: PaneId) -> bool {
    match node {
        Node::Pane(p) => *p == pane,
        Node::Split { children, .. } => children.iter().any(|(c, _)| contains(c, pane)),
    }
}

/// Splits `pane` into itself and `new` (sizes `old_size` and `new_size`), joining a split of
/// the same direction when it is in one. False when `pane` is not under `node`.
pub(super) fn split_node(
    node: &mut Node,
    pane: PaneId,
    new: PaneId,
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

/// Takes `pane` out of its split, giving its space and border to a neighbour. False when
/// `pane` is not under `node`.
pub(super) fn remove_node(node: &mut Node, pane: PaneId) -> bool {
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
pub(super) fn collapse(node: &mut Node) {
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
pub(super) fn resize_in(
    node: &mut Node,
    pane: PaneId,
    dir: Dir,
    towards_end: bool,
    cells: u16,
) -> bool {
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

/// Exchanges the ids `a` and `b` wherever they are under `node`.
pub(super) fn swap_ids(node: &mut Node, a: PaneId, b: PaneId) {
    match node {
        Node::Pane(p) if *p == a => *p = b,
        Node::Pane(p) if *p == b => *p = a,
        Node::Pane(_) => {}
        Node::Split { children, .. } => children.iter_mut().for_each(|(c, _)| swap_ids(c, a, b)),
    }
}
