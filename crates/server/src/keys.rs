//! The prefix key: `C-b` followed by a binding. Everything else goes to the focused pane.

use bytes::Bytes;

/// The default prefix, `C-b`.
pub const DEFAULT_PREFIX: u8 = 0x02;

/// What a client's keystrokes mean.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KeyAction {
    /// Bytes for the focused pane.
    Forward(Bytes),
    /// `C-b d`.
    Detach,
    /// `C-b r`.
    Redraw,
}

/// Splits a client's input into bytes for the pane and prefix bindings.
#[derive(Debug)]
pub struct PrefixKeys {
    prefix: u8,
    armed: bool,
}

impl Default for PrefixKeys {
    fn default() -> Self {
        PrefixKeys {
            prefix: DEFAULT_PREFIX,
            armed: false,
        }
    }
}

impl PrefixKeys {
    /// What `input` means, in order. A prefix at the end of `input` waits for the next read.
    pub fn feed(&mut self, input: &[u8]) -> Vec<KeyAction> {
        let mut actions = Vec::new();
        let mut run_start = 0;
        for (i, &b) in input.iter().enumerate() {
            if self.armed {
                self.armed = false;
                run_start = i + 1;
                match b {
                    b'd' => actions.push(KeyAction::Detach),
                    b'r' => actions.push(KeyAction::Redraw),
                    b if b == self.prefix => {
                        actions.push(KeyAction::Forward(Bytes::copy_from_slice(&[b])))
                    }
                    // Unbound keys after the prefix are swallowed, as in tmux.
                    _ => {}
                }
            } else if b == self.prefix {
                if i > run_start {
                    actions.push(KeyAction::Forward(Bytes::copy_from_slice(
                        &input[run_start..i],
                    )));
                }
                self.armed = true;
                run_start = i + 1;
            }
        }
        if !self.armed && run_start < input.len() {
            actions.push(KeyAction::Forward(Bytes::copy_from_slice(
                &input[run_start..],
            )));
        }
        actions
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fwd(s: &[u8]) -> KeyAction {
        KeyAction::Forward(Bytes::copy_from_slice(s))
    }

    #[test]
    fn plain_input_is_forwarded_whole() {
        assert_eq!(PrefixKeys::default().feed(b"ls\r"), vec![fwd(b"ls\r")]);
    }

    #[test]
    fn prefix_bindings() {
        let mut k = PrefixKeys::default();
        assert_eq!(
            k.feed(b"ab\x02dcd"),
            vec![fwd(b"ab"), KeyAction::Detach, fwd(b"cd")]
        );
        assert_eq!(k.feed(b"\x02\x02"), vec![fwd(b"\x02")]);
        assert_eq!(k.feed(b"\x02r"), vec![KeyAction::Redraw]);
        assert_eq!(k.feed(b"\x02x"), vec![]);
    }

    #[test]
    fn prefix_split_across_reads() {
        let mut k = PrefixKeys::default();
        assert_eq!(k.feed(b"a\x02"), vec![fwd(b"a")]);
        assert_eq!(k.feed(b"d"), vec![KeyAction::Detach]);
    }
}
