//! The kitty keyboard protocol's flag stack: `CSI > flags u` pushes, `CSI < n u` pops,
//! `CSI = flags ; mode u` changes the top, `CSI ? u` reports it. One stack per buffer (the
//! main and the alternate screen keep their own, as the protocol says), bounded.

/// Entries a stack keeps; a push onto a full stack drops the oldest entry (kitty keeps 8,
/// the protocol leaves the limit to the terminal).
pub const MAX_KEY_FLAG_ENTRIES: usize = 16;

/// The flags the protocol defines: 1 disambiguate, 2 report event types, 4 report alternate
/// keys, 8 report all keys as escape codes, 16 report associated text.
pub const KITTY_FLAGS_MASK: u8 = 0b1_1111;

/// A bounded stack of kitty keyboard flags. Empty means legacy keys (flags 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeyFlagStack {
    entries: [u8; MAX_KEY_FLAG_ENTRIES],
    len: usize,
}

impl KeyFlagStack {
    /// The flags in effect: the top entry, or 0 when the stack is empty.
    pub fn current(&self) -> u8 {
        match self.len {
            0 => 0,
            n => self.entries[n - 1],
        }
    }

    /// Entries on the stack.
    pub fn depth(&self) -> usize {
        self.len
    }

    /// `CSI > flags u`: pushes `flags`; on a full stack the oldest entry goes.
    pub fn push(&mut self, flags: u16) {
        if self.len == MAX_KEY_FLAG_ENTRIES {
            self.entries.copy_within(1.., 0);
            self.len -= 1;
        }
        self.entries[self.len] = clamp_flags(flags);
        self.len += 1;
    }

    /// `CSI < n u`: pops `n` entries (more than there are empties the stack).
    pub fn pop(&mut self, n: usize) {
        self.len = self.len.saturating_sub(n);
    }

    /// `CSI = flags ; mode u`: mode 1 sets the top entry to `flags`, 2 sets those bits, 3
    /// clears them; other modes are ignored. On an empty stack the result becomes its entry.
    pub fn set(&mut self, flags: u16, mode: u16) {
        let flags = clamp_flags(flags);
        let old = self.current();
        let new = match mode {
            1 => flags,
            2 => old | flags,
            3 => old & !flags,
            _ => return,
        };
        match self.len {
            0 => self.push(u16::from(new)),
            n => self.entries[n - 1] = new,
        }
    }
}

fn clamp_flags(flags: u16) -> u8 {
    (flags & u16::from(KITTY_FLAGS_MASK)) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn push_pop_and_set_follow_the_protocol() {
        let mut s = KeyFlagStack::default();
        assert_eq!(s.current(), 0, "an empty stack means legacy keys");
        s.push(1);
        s.push(1 | 8);
        assert_eq!((s.current(), s.depth()), (9, 2));
        s.set(2, 2);
        assert_eq!(s.current(), 11, "mode 2 sets bits");
        s.set(8, 3);
        assert_eq!(s.current(), 3, "mode 3 clears bits");
        s.set(4, 1);
        assert_eq!(s.current(), 4, "mode 1 replaces");
        s.set(1, 9);
        assert_eq!(s.current(), 4, "unknown modes change nothing");
        s.pop(1);
        assert_eq!(s.current(), 1);
        s.pop(5);
        assert_eq!(
            (s.current(), s.depth()),
            (0, 0),
            "popping too many empties it"
        );
        s.set(1, 1);
        assert_eq!((s.current(), s.depth()), (1, 1), "set on an empty stack");
    }

    #[test]
    fn flags_beyond_the_protocol_are_dropped() {
        let mut s = KeyFlagStack::default();
        s.push(0xffff);
        assert_eq!(s.current(), KITTY_FLAGS_MASK);
    }

    #[test]
    fn a_full_stack_drops_its_oldest_entry() {
        let mut s = KeyFlagStack::default();
        for i in 0..(MAX_KEY_FLAG_ENTRIES as u16 + 3) {
            s.push(i % 32);
        }
        assert_eq!(s.depth(), MAX_KEY_FLAG_ENTRIES);
        assert_eq!(s.current(), (MAX_KEY_FLAG_ENTRIES as u8 + 2) % 32);
        s.pop(MAX_KEY_FLAG_ENTRIES - 1);
        assert_eq!(s.current(), 3, "entries 0, 1 and 2 were dropped");
    }
}
