//! The cap on OSC strings: cuts off an OSC that runs past [`MAX_OSC_BYTES`] before vte
//! buffers it.

use super::MAX_OSC_BYTES;

/// Tracks whether the byte stream is inside an OSC string, and how long it has run, so that a
/// never-ending OSC cannot grow vte's buffer without bound.
///
/// vte enters an OSC on `]` right after an ESC, with only C0 controls it executes in between.
/// Outside an OSC the guard searches for `]` (rare in text, absent from most escape sequences)
/// and looks back for that ESC, so ordinary output costs one SIMD scan.
#[derive(Default)]
pub(super) struct OscGuard {
    pub(super) in_osc: bool,
    len: usize,
    /// The previous chunk ended with an ESC followed only by C0 controls vte executes.
    pub(super) esc_tail: bool,
}

/// Bytes vte executes without leaving the escape state.
#[inline]
fn keeps_escape(b: u8) -> bool {
    matches!(b, 0x00..=0x17 | 0x19 | 0x1c..=0x1f | 0x7f)
}

impl OscGuard {
    /// Whether the byte before `pos` (skipping C0 controls) is an ESC, looking into the
    /// previous chunk's tail when the walk reaches the start.
    fn escape_before(&self, bytes: &[u8], pos: usize) -> bool {
        for &b in bytes[..pos].iter().rev() {
            if b == 0x1b {
                return true;
            }
            if !keeps_escape(b) {
                return false;
            }
        }
        self.esc_tail
    }

    /// Splits `bytes` into the chunks to pass on, leaving out OSC bytes past the cap. `pass` gets
    /// each chunk and whether the OSC dispatched next must be ignored.
    pub(super) fn feed(&mut self, bytes: &[u8], mut pass: impl FnMut(&[u8], bool)) {
        let mut i = 0;
        let mut pass_from = 0;
        let mut overflowed = false;
        while i < bytes.len() {
            if !self.in_osc {
                match memchr::memchr(b']', &bytes[i..]) {
                    None => break,
                    Some(p) => {
                        let pos = i + p;
                        if self.escape_before(bytes, pos) {
                            self.in_osc = true;
                            self.len = 0;
                        }
                        i = pos + 1;
                    }
                }
                continue;
            }
            let rest = &bytes[i..];
            let end = rest
                .iter()
                .position(|&b| matches!(b, 0x07 | 0x18 | 0x1a | 0x1b))
                .unwrap_or(rest.len());
            let room = MAX_OSC_BYTES.saturating_sub(self.len);
            if end > room {
                // Pass what fits, drop the rest of this run.
                pass(&bytes[pass_from..i + room], overflowed);
                overflowed = true;
                pass_from = i + end;
                self.len = MAX_OSC_BYTES;
            } else {
                self.len += end;
            }
            i += end;
            if i < bytes.len() {
                if matches!(bytes[i], 0x18 | 0x1a) {
                    // CAN and SUB cancel the string: vte would dispatch it, so flag it.
                    pass(&bytes[pass_from..i], overflowed);
                    overflowed = true;
                    pass_from = i;
                }
                // The terminator ends the OSC; an ESC may start another sequence, which the
                // search for `]` handles.
                self.in_osc = false;
                i += 1;
            }
        }
        // Remember whether the stream ends in "ESC, then only controls" for the next chunk.
        let mut tail = None;
        for &b in bytes.iter().rev() {
            if b == 0x1b {
                tail = Some(true);
                break;
            }
            if !keeps_escape(b) {
                tail = Some(false);
                break;
            }
        }
        if let Some(t) = tail {
            self.esc_tail = t;
        }
        if pass_from < bytes.len() || overflowed {
            pass(&bytes[pass_from..], overflowed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn osc_guard_passes_short_strings_untouched() {
        let mut guard = OscGuard::default();
        let mut out = Vec::new();
        guard.feed(b"a\x1b]0;hi\x07b", |c, o| {
            assert!(!o);
            out.extend_from_slice(c);
        });
        assert_eq!(out, b"a\x1b]0;hi\x07b");
    }

    #[test]
    fn osc_guard_cuts_long_strings_across_chunks() {
        let mut guard = OscGuard::default();
        let mut passed = 0usize;
        let mut overflowed = false;
        let chunk = vec![b'x'; 300_000];
        guard.feed(b"\x1b]2;", |c, _| passed += c.len());
        for _ in 0..10 {
            guard.feed(&chunk, |c, o| {
                passed += c.len();
                overflowed |= o;
            });
        }
        guard.feed(b"\x07ok", |c, o| {
            passed += c.len();
            overflowed |= o;
        });
        assert!(overflowed);
        assert!(passed <= MAX_OSC_BYTES + 16, "passed {passed}");
    }
}
