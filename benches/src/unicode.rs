//! Unicode text: wide CJK and emoji, accented and non-Latin narrow words, wrapping lines.

use crate::rng::Rng;
use crate::vocab::{EMOJI, NARROW_WORDS, WORDS};

/// Lines mixing ASCII words with CJK ideographs and kana (wide), emoji (wide, some with a
/// VS16 selector), and accented Latin, Greek and Cyrillic words, 40 to 200 columns long so
/// many of them wrap at 80 columns, each ending in `\r\n`.
pub fn unicode(target_len: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x00c1_c0de);
    let mut out = Vec::with_capacity(target_len + 1024);
    let mut buf = [0u8; 4];
    while out.len() < target_len {
        let line_cols = 40 + rng.below(161);
        let mut cols = 0;
        while cols < line_cols {
            if cols > 0 {
                out.push(b' ');
                cols += 1;
            }
            match rng.below(10) {
                // CJK ideographs from the unified block.
                0..=2 => {
                    for _ in 0..2 + rng.below(6) {
                        let c = char::from_u32(0x4e00 + rng.below(0x51a6) as u32).unwrap_or('?');
                        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                        cols += 2;
                    }
                }
                // Hiragana.
                3 => {
                    for _ in 0..2 + rng.below(5) {
                        let c = char::from_u32(0x3041 + rng.below(0x56) as u32).unwrap_or('?');
                        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                        cols += 2;
                    }
                }
                // Emoji: the emoticons block, or a few favourites, some with VS16.
                4 => {
                    for _ in 0..1 + rng.below(3) {
                        if rng.below(3) == 0 {
                            out.extend_from_slice(rng.pick(EMOJI).as_bytes());
                        } else {
                            let c = char::from_u32(0x1f600 + rng.below(0x50) as u32).unwrap_or('?');
                            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                        }
                        cols += 2;
                    }
                }
                // Narrow non-ASCII words.
                5 => {
                    let word = rng.pick(NARROW_WORDS);
                    out.extend_from_slice(word.as_bytes());
                    cols += word.chars().count();
                }
                _ => {
                    let word = rng.pick(WORDS);
                    out.extend_from_slice(word.as_bytes());
                    cols += word.len();
                }
            }
        }
        out.extend_from_slice(b"\r\n");
    }
    out
}
