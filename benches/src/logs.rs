//! Log-like inputs: plain lines, lines with an SGR colour before every word, and lines
//! scrolling inside a scroll region under fixed header and footer rows.

use crate::pieces::{push_cup, push_num, push_random_sgr, push_word, Clock};
use crate::rng::Rng;
use crate::vocab::{LEVELS, LEVEL_SGR, MODULES};

/// Plain ASCII log lines of about 100 bytes ending in `\r\n`: a timestamp, a level, a module
/// in brackets and a message of words and `key=value` pairs. Lines over 80 columns wrap.
pub fn ascii_log(target_len: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x0a5c_11a0);
    let mut clock = Clock::default();
    let mut out = Vec::with_capacity(target_len + 256);
    while out.len() < target_len {
        let start = out.len();
        clock.tick(&mut rng);
        clock.push(&mut out);
        out.push(b' ');
        out.extend_from_slice(rng.pick(LEVELS).as_bytes());
        out.extend_from_slice(b" [");
        out.extend_from_slice(rng.pick(MODULES).as_bytes());
        out.extend_from_slice(b"] ");
        let line_len = 80 + rng.below(41);
        let mut first = true;
        while out.len() - start < line_len {
            if !first {
                out.push(b' ');
            }
            first = false;
            push_word(&mut out, &mut rng);
        }
        out.extend_from_slice(b"\r\n");
    }
    out
}

/// Log lines like [`ascii_log`] with an SGR colour before every word: a mix of 16-colour
/// (`3x`/`9x`, sometimes bold), 256-colour (`38;5;n`) and truecolor (`38;2;r;g;b`)
/// foregrounds, with an occasional background, and `ESC[0m` at the end of each line.
pub fn sgr_log(target_len: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x056e_c010);
    let mut clock = Clock::default();
    let mut out = Vec::with_capacity(target_len + 512);
    while out.len() < target_len {
        clock.tick(&mut rng);
        out.extend_from_slice(b"\x1b[2m");
        clock.push(&mut out);
        out.extend_from_slice(b"\x1b[22m ");
        let level = rng.below(LEVELS.len());
        out.extend_from_slice(b"\x1b[");
        out.extend_from_slice(LEVEL_SGR[level].as_bytes());
        out.push(b'm');
        out.extend_from_slice(LEVELS[level].as_bytes());
        out.extend_from_slice(b"\x1b[0m [");
        push_random_sgr(&mut out, &mut rng);
        out.extend_from_slice(rng.pick(MODULES).as_bytes());
        out.extend_from_slice(b"\x1b[39m] ");
        // The prefix is 30 to 45 columns; the message brings the line to about 100 bytes of
        // text (plus the escapes).
        let mut visible = 0;
        let line_len = 50 + rng.below(41);
        while visible < line_len {
            if visible > 0 {
                out.push(b' ');
                visible += 1;
            }
            push_random_sgr(&mut out, &mut rng);
            let before = out.len();
            push_word(&mut out, &mut rng);
            visible += out.len() - before;
        }
        out.extend_from_slice(b"\x1b[0m\r\n");
    }
    out
}

/// A scroll region (`ESC[5;20r`) with fixed header and footer rows, then many log-like lines
/// (under 80 columns, so none wraps) printed at its bottom row so every `\r\n` scrolls rows
/// 5 to 20 only. Every 64 lines the header is rewritten under DECSC/DECRC, as a status
/// display would.
pub fn scroll_region(target_len: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x005c_4011);
    let mut clock = Clock::default();
    let mut out = Vec::with_capacity(target_len + 512);
    out.extend_from_slice(b"\x1b[H\x1b[2J");
    for row in 1..=4 {
        push_cup(&mut out, row, 1);
        out.extend_from_slice(b"\x1b[1;44m header ");
        push_num(&mut out, row as u64);
        out.extend_from_slice(b"\x1b[K\x1b[0m");
    }
    for row in 21..=24 {
        push_cup(&mut out, row, 1);
        out.extend_from_slice(b"\x1b[7m footer ");
        push_num(&mut out, row as u64);
        out.extend_from_slice(b"\x1b[K\x1b[0m");
    }
    out.extend_from_slice(b"\x1b[5;20r");
    push_cup(&mut out, 20, 1);
    let mut line = 0u64;
    let mut word = Vec::new();
    while out.len() < target_len {
        if line & 63 == 0 {
            out.extend_from_slice(b"\x1b7\x1b[1;1H\x1b[1;44m progress: ");
            push_num(&mut out, line);
            out.extend_from_slice(b" lines\x1b[K\x1b[0m\x1b8");
        }
        clock.tick(&mut rng);
        clock.push(&mut out);
        out.push(b' ');
        let level = rng.below(LEVELS.len());
        if rng.below(4) == 0 {
            out.extend_from_slice(b"\x1b[");
            out.extend_from_slice(LEVEL_SGR[level].as_bytes());
            out.push(b'm');
            out.extend_from_slice(LEVELS[level].as_bytes());
            out.extend_from_slice(b"\x1b[0m");
        } else {
            out.extend_from_slice(LEVELS[level].as_bytes());
        }
        // Timestamp 23 + space + level 5 = 29 columns; add words while they fit in 79, so
        // lines never wrap.
        let mut cols = 29;
        let line_cols = 55 + rng.below(20);
        while cols < line_cols {
            word.clear();
            word.push(b' ');
            push_word(&mut word, &mut rng);
            if cols + word.len() > 79 {
                break;
            }
            out.extend_from_slice(&word);
            cols += word.len();
        }
        out.extend_from_slice(b"\r\n");
        line += 1;
    }
    out
}

/// A long directory listing as `ls -l --hyperlink` prints it: each line a size and a file
/// name that is an OSC 8 link to its own `file://` URI, so every name is a different link.
pub fn hyperlink_log(target_len: usize) -> Vec<u8> {
    let mut rng = Rng::new(0x0001_1ce5);
    let mut out = Vec::with_capacity(target_len + 256);
    let mut n = 0u64;
    while out.len() < target_len {
        n += 1;
        out.extend_from_slice(b"-rw-r--r-- 1 user user ");
        push_num(&mut out, rng.below(100_000) as u64);
        out.extend_from_slice(b" \x1b]8;;file://host/home/user/data/");
        let mut name = Vec::new();
        push_word(&mut name, &mut rng);
        name.push(b'-');
        push_num(&mut name, n);
        out.extend_from_slice(&name);
        out.extend_from_slice(b"\x1b\\");
        out.extend_from_slice(&name);
        out.extend_from_slice(b"\x1b]8;;\x1b\\\r\n");
    }
    out
}
