//! Bytes for the user's terminal itself, written just before the next frame in the same
//! write: programs' clipboard writes and alerts, which may be dropped when too many wait, and
//! weft's own set-up of the terminal (kitty keys, colour-scheme reports, colour queries),
//! which may not: a terminal whose key encoding was never switched on sends keys weft then
//! reads differently.

use bytes::Bytes;

/// The most passthrough bytes (clipboard writes) a renderer holds for its next frame: two
/// of the largest OSC 52 writes. Beyond it the older bytes are dropped, the newest kept
/// (a clipboard holds one text), so a program copying in a loop cannot grow a client's queue.
pub const MAX_PASSTHROUGH_BYTES: usize =
    2 * (crate::buffers::MAX_CLIPBOARD_TEXT_BYTES * 4 / 3 + 16);

/// The most set-up sequences that wait for a frame: a terminal sends each answer that asks
/// for one once, so only a hostile one sends more, and those are dropped.
const MAX_SETUP_PIECES: usize = 16;

/// What waits for the next frame.
#[derive(Debug, Default)]
pub(super) struct Pending {
    /// Programs' bytes and alerts, oldest first, at most [`MAX_PASSTHROUGH_BYTES`].
    pieces: Vec<Bytes>,
    /// weft's own set-up sequences, written before the pieces.
    setup: Vec<&'static [u8]>,
}

impl Pending {
    /// Queues a program's bytes (an OSC 52 write), dropping the oldest beyond the bound; one
    /// larger than the bound alone is dropped.
    pub(super) fn program(&mut self, bytes: Bytes) {
        if bytes.len() > MAX_PASSTHROUGH_BYTES {
            return;
        }
        self.pieces.push(bytes);
        let mut total: usize = self.pieces.iter().map(Bytes::len).sum();
        while total > MAX_PASSTHROUGH_BYTES {
            total -= self.pieces.remove(0).len();
        }
    }

    /// Queues one of weft's set-up sequences, which programs' bytes never push out.
    pub(super) fn setup(&mut self, sequence: &'static [u8]) {
        if self.setup.len() < MAX_SETUP_PIECES {
            self.setup.push(sequence);
        }
    }

    /// Where alerts (bell, title, notifications) are queued, as programs' bytes.
    pub(super) fn alerts(&mut self) -> &mut Vec<Bytes> {
        &mut self.pieces
    }

    /// `frame` with everything waiting written before it, in order; nothing waits after.
    pub(super) fn before(&mut self, frame: Vec<u8>) -> Vec<u8> {
        if self.setup.is_empty() && self.pieces.is_empty() {
            return frame;
        }
        let mut bytes = Vec::with_capacity(frame.len());
        for sequence in self.setup.drain(..) {
            bytes.extend_from_slice(sequence);
        }
        for piece in self.pieces.drain(..) {
            bytes.extend_from_slice(&piece);
        }
        bytes.extend_from_slice(&frame);
        bytes
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_up_sequences_outlast_a_flood_of_clipboard_writes() {
        let mut pending = Pending::default();
        pending.setup(b"\x1b[>1u");
        let big = Bytes::from(vec![b'x'; MAX_PASSTHROUGH_BYTES / 2 + 1]);
        for _ in 0..4 {
            pending.program(big.clone());
        }
        let written = pending.before(b"frame".to_vec());
        assert!(written.starts_with(b"\x1b[>1u"), "the set-up is kept");
        assert!(written.ends_with(b"frame"));
        // The set-up, the newest write only (two would be over the bound), the frame.
        assert_eq!(written.len(), 5 + big.len() + 5);
        assert_eq!(pending.before(b"next".to_vec()), b"next", "nothing waits");
    }

    #[test]
    fn a_hostile_terminal_cannot_grow_the_set_up() {
        let mut pending = Pending::default();
        for _ in 0..10_000 {
            pending.setup(b"\x1b[?2031h");
        }
        let written = pending.before(Vec::new());
        assert_eq!(written.len(), MAX_SETUP_PIECES * b"\x1b[?2031h".len());
    }

    #[test]
    fn a_write_larger_than_the_bound_is_dropped_alone() {
        let mut pending = Pending::default();
        pending.program(Bytes::from_static(b"small"));
        pending.program(Bytes::from(vec![b'x'; MAX_PASSTHROUGH_BYTES + 1]));
        assert_eq!(pending.before(Vec::new()), b"small");
    }
}
