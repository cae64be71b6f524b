//! tmux's passthrough: `ESC P tmux; ... ESC \`, with every ESC inside doubled, carries a
//! sequence for the outer terminal. With passthrough allowed (tmux's `allow-passthrough`), the
//! screen takes these out of the output before its parser sees them and reports each payload
//! (ESCs undoubled) as [`super::Event::Passthrough`]; the host decides what may go on. Off (the
//! default), nothing here runs.
//!
//! Written by hand: the parser (vte) ends a DCS at its first ESC, so a doubled ESC inside
//! cannot be told from the terminator there; the strings must be cut out before it.

/// The start of a passthrough string.
const MARKER: &[u8] = b"\x1bPtmux;";
/// The longest payload kept (an image sent in one piece can be large); the rest of a longer
/// one is dropped and the payload is not reported.
pub const MAX_PASSTHROUGH_BYTES: usize = 1 << 20;

/// Where the splitter is between chunks of output.
#[derive(Debug, Default)]
pub(crate) struct Passthrough {
    /// Inside a passthrough string: the payload so far (`None` once it was too long).
    inside: Option<Option<Vec<u8>>>,
    /// The last byte inside was an ESC (the next one says whether it was doubled or ends).
    escape: bool,
    /// The end of the last chunk, outside, that may begin the marker.
    carry: Vec<u8>,
}

/// A piece of output after splitting.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// For the parser.
    Output(Vec<u8>),
    /// A whole passthrough payload.
    Payload(Vec<u8>),
}

impl Passthrough {
    /// Splits `bytes` into output for the parser and whole payloads, in order.
    pub(crate) fn split(&mut self, bytes: &[u8]) -> Vec<Piece> {
        let mut data = std::mem::take(&mut self.carry);
        data.extend_from_slice(bytes);
        let mut pieces = Vec::new();
        let mut i = 0;
        while i < data.len() {
            if self.inside.is_some() {
                i = self.take_inside(&data, i, &mut pieces);
                continue;
            }
            let rest = &data[i..];
            match memchr::memmem::find(rest, MARKER) {
                Some(at) => {
                    if at > 0 {
                        pieces.push(Piece::Output(rest[..at].to_vec()));
                    }
                    self.inside = Some(Some(Vec::new()));
                    i += at + MARKER.len();
                }
                None => {
                    // Keep back an end that may be the marker's beginning.
                    let keep = (1..MARKER.len())
                        .rev()
                        .find(|&n| rest.ends_with(&MARKER[..n]))
                        .unwrap_or(0);
                    let (out, held) = rest.split_at(rest.len() - keep);
                    if !out.is_empty() {
                        pieces.push(Piece::Output(out.to_vec()));
                    }
                    self.carry = held.to_vec();
                    i = data.len();
                }
            }
        }
        pieces
    }

    /// Takes bytes inside a passthrough string from `data[i..]`; returns where it stopped.
    fn take_inside(&mut self, data: &[u8], mut i: usize, pieces: &mut Vec<Piece>) -> usize {
        while i < data.len() {
            let b = data[i];
            i += 1;
            if self.escape {
                self.escape = false;
                if b == b'\\' {
                    if let Some(Some(payload)) = self.inside.take() {
                        pieces.push(Piece::Payload(payload));
                    }
                    self.inside = None;
                    return i;
                }
                // A doubled ESC is one ESC of the payload; anything else after a lone ESC
                // is kept as tmux does.
                self.push(0x1b);
                if b != 0x1b {
                    self.push(b);
                }
                continue;
            }
            if b == 0x1b {
                self.escape = true;
            } else {
                self.push(b);
            }
        }
        i
    }

    fn push(&mut self, b: u8) {
        if let Some(slot) = self.inside.as_mut() {
            match slot {
                Some(payload) if payload.len() < MAX_PASSTHROUGH_BYTES => payload.push(b),
                _ => *slot = None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(p: &mut Passthrough, chunks: &[&[u8]]) -> Vec<Piece> {
        chunks.iter().flat_map(|c| p.split(c)).collect()
    }

    #[test]
    fn payloads_come_out_undoubled_and_the_rest_goes_to_the_parser() {
        let mut p = Passthrough::default();
        let pieces = all(&mut p, &[b"ab\x1bPtmux;\x1b\x1b]52;c;eA==\x07\x1b\\cd"]);
        assert_eq!(
            pieces,
            [
                Piece::Output(b"ab".to_vec()),
                Piece::Payload(b"\x1b]52;c;eA==\x07".to_vec()),
                Piece::Output(b"cd".to_vec()),
            ]
        );
    }

    #[test]
    fn a_marker_or_an_end_cut_anywhere_is_found() {
        let whole: &[u8] = b"x\x1bPtmux;\x1b\x1b_Gq=2;AAAA\x1b\x1b\\\x1b\\y";
        for cut in 0..whole.len() {
            let mut p = Passthrough::default();
            let pieces = all(&mut p, &[&whole[..cut], &whole[cut..]]);
            let output: Vec<u8> = pieces
                .iter()
                .filter_map(|p| match p {
                    Piece::Output(o) => Some(o.clone()),
                    Piece::Payload(_) => None,
                })
                .flatten()
                .collect();
            let payloads: Vec<&Piece> = pieces
                .iter()
                .filter(|p| matches!(p, Piece::Payload(_)))
                .collect();
            assert_eq!(output, b"xy", "cut at {cut}");
            assert_eq!(
                payloads,
                [&Piece::Payload(b"\x1b_Gq=2;AAAA\x1b\\".to_vec())],
                "cut at {cut}"
            );
        }
    }

    #[test]
    fn a_payload_too_long_is_dropped_and_output_after_it_still_shows() {
        let mut p = Passthrough::default();
        let big = vec![b'a'; MAX_PASSTHROUGH_BYTES + 10];
        let mut pieces = p.split(b"\x1bPtmux;");
        pieces.extend(p.split(&big));
        pieces.extend(p.split(b"\x1b\\after"));
        assert_eq!(pieces, [Piece::Output(b"after".to_vec())]);
    }
}
