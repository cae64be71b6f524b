//! The order in which a pane's output is parsed: the rule that lets two tasks write one screen.
//!
//! Output is read by the reader task and parsed by the pane task, in the order it was read.
//! For an echo that path costs a task switch, so the reader may parse a small read itself, but
//! only when nothing it read before is still waiting for the pane task: then everything earlier
//! is on the screen already, and parsing now keeps the order. [`OutputOrder`] is that rule:
//! - the reader calls [`OutputOrder::turn`]: `Some` only when nothing is in flight; while it
//!   holds the turn it parses the chunk itself (under the screen's lock, as the pane task does);
//! - otherwise it calls [`OutputOrder::queued`] before handing the chunk to the pane task, and
//!   the pane task calls [`OutputOrder::parsed`] after parsing each queued chunk.
//!
//! Only the reader asks for turns and queues chunks (one task), so a turn cannot race a queued
//! chunk: the count only drops while the reader is not looking, which makes a `None` at worst
//! a missed shortcut, never an out-of-order parse.

use std::sync::atomic::{AtomicUsize, Ordering};

/// Chunks handed to the pane task and not yet parsed.
#[derive(Debug, Default)]
pub(super) struct OutputOrder {
    in_flight: AtomicUsize,
}

/// The reader's permission to parse one chunk itself: nothing read before it is unparsed.
#[derive(Debug)]
pub(super) struct Turn<'a> {
    _order: &'a OutputOrder,
}

impl OutputOrder {
    /// The reader's turn to parse a chunk itself, when nothing is in flight.
    pub(super) fn turn(&self) -> Option<Turn<'_>> {
        (self.in_flight.load(Ordering::Acquire) == 0).then_some(Turn { _order: self })
    }

    /// The reader hands a chunk to the pane task.
    pub(super) fn queued(&self) {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
    }

    /// The pane task parsed a queued chunk.
    pub(super) fn parsed(&self) {
        self.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_reader_gets_a_turn_only_when_nothing_is_in_flight() {
        let order = OutputOrder::default();
        assert!(order.turn().is_some());
        order.queued();
        order.queued();
        assert!(order.turn().is_none(), "two chunks wait for the pane task");
        order.parsed();
        assert!(order.turn().is_none(), "one still waits");
        order.parsed();
        assert!(order.turn().is_some());
    }
}
