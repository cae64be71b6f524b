//! G0-G3 character sets and the DEC Special Graphics (line drawing) mapping.

use crate::handler::Charset;

/// Which set is in G0-G3, which is invoked into GL, and a pending single shift.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct CharsetState {
    slots: [Charset; 4],
    gl: usize,
    single_shift: Option<usize>,
}

impl CharsetState {
    /// Whether printing maps nothing (the common case, checked on the fast path).
    #[inline]
    pub fn is_identity(&self) -> bool {
        self.slots[self.gl] == Charset::Ascii && self.single_shift.is_none()
    }

    /// Designates `set` into G`slot`.
    pub fn designate(&mut self, slot: usize, set: Charset) {
        if let Some(s) = self.slots.get_mut(slot) {
            *s = set;
        }
    }

    /// Invokes G`slot` into GL (SI, SO, LS2, LS3).
    pub fn invoke(&mut self, slot: usize) {
        if slot < 4 {
            self.gl = slot;
        }
    }

    /// SS2 / SS3: the next character comes from G`slot`.
    pub fn single_shift(&mut self, slot: usize) {
        if slot < 4 {
            self.single_shift = Some(slot);
        }
    }

    /// Maps a printed character through the active set, consuming a single shift.
    pub fn map(&mut self, c: char) -> char {
        let slot = self.single_shift.take().unwrap_or(self.gl);
        match self.slots[slot] {
            Charset::Ascii => c,
            Charset::Uk => {
                if c == '#' {
                    '£'
                } else {
                    c
                }
            }
            Charset::DecSpecialGraphics => dec_special_graphics(c),
        }
    }
}

/// The character DEC Special Graphics shows for `c` (`0x5f..=0x7e` are remapped).
pub fn dec_special_graphics(c: char) -> char {
    match c {
        '_' => ' ',
        '`' => '◆',
        'a' => '▒',
        'b' => '␉',
        'c' => '␌',
        'd' => '␍',
        'e' => '␊',
        'f' => '°',
        'g' => '±',
        'h' => '␤',
        'i' => '␋',
        'j' => '┘',
        'k' => '┐',
        'l' => '┌',
        'm' => '└',
        'n' => '┼',
        'o' => '⎺',
        'p' => '⎻',
        'q' => '─',
        'r' => '⎼',
        's' => '⎽',
        't' => '├',
        'u' => '┤',
        'v' => '┴',
        'w' => '┬',
        'x' => '│',
        'y' => '≤',
        'z' => '≥',
        '{' => 'π',
        '|' => '≠',
        '}' => '£',
        '~' => '·',
        other => other,
    }
}
