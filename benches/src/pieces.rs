//! The pieces inputs are built from: timestamps, words, SGR colours, cursor moves, numbers.

use crate::rng::Rng;
use crate::vocab::{KEYS, WORDS};

/// A fake wall clock that moves forward a few milliseconds per log line.
#[derive(Default)]
pub(crate) struct Clock {
    millis: u64,
}

impl Clock {
    pub(crate) fn tick(&mut self, rng: &mut Rng) {
        self.millis += rng.below(250) as u64;
    }

    /// `2024-05-17 HH:MM:SS.mmm`, always 23 bytes.
    pub(crate) fn push(&self, out: &mut Vec<u8>) {
        let ms = self.millis % 1000;
        let s = self.millis / 1000;
        let day = 17 + (s / 86_400) % 10;
        out.extend_from_slice(b"2024-05-");
        push_num(out, day);
        out.push(b' ');
        push_2(out, (s / 3600) % 24);
        out.push(b':');
        push_2(out, (s / 60) % 60);
        out.push(b':');
        push_2(out, s % 60);
        out.push(b'.');
        push_2(out, ms / 10);
        push_num(out, ms % 10);
    }
}

/// Appends a word from the vocabulary, or now and then a `key=value` pair or a path.
pub(crate) fn push_word(out: &mut Vec<u8>, rng: &mut Rng) {
    match rng.below(8) {
        0 => {
            out.extend_from_slice(rng.pick(KEYS).as_bytes());
            out.push(b'=');
            push_num(out, rng.below(100_000) as u64);
        }
        1 => {
            out.extend_from_slice(b"/api/v2/");
            out.extend_from_slice(rng.pick(WORDS).as_bytes());
            out.push(b'/');
            push_num(out, rng.below(100_000) as u64);
        }
        _ => out.extend_from_slice(rng.pick(WORDS).as_bytes()),
    }
}

/// Appends one SGR foreground: 50% 16-colour, 30% 256-colour, 20% truecolor, sometimes with a
/// background or bold.
pub(crate) fn push_random_sgr(out: &mut Vec<u8>, rng: &mut Rng) {
    out.extend_from_slice(b"\x1b[");
    let roll = rng.below(10);
    if roll < 5 {
        if rng.below(4) == 0 {
            out.extend_from_slice(b"1;");
        }
        out.push(if rng.below(2) == 0 { b'3' } else { b'9' });
        out.push(b'0' + rng.below(8) as u8);
    } else if roll < 8 {
        out.extend_from_slice(b"38;5;");
        push_num(out, rng.below(256) as u64);
    } else {
        out.extend_from_slice(b"38;2;");
        push_num(out, rng.below(256) as u64);
        out.push(b';');
        push_num(out, rng.below(256) as u64);
        out.push(b';');
        push_num(out, rng.below(256) as u64);
    }
    if rng.below(10) == 0 {
        out.extend_from_slice(b";48;5;");
        push_num(out, 232 + rng.below(24) as u64);
    }
    out.push(b'm');
}

pub(crate) fn push_cup(out: &mut Vec<u8>, row: u16, col: u16) {
    out.extend_from_slice(b"\x1b[");
    push_num(out, u64::from(row));
    out.push(b';');
    push_num(out, u64::from(col));
    out.push(b'H');
}

pub(crate) fn push_2(out: &mut Vec<u8>, n: u64) {
    out.push(b'0' + (n / 10 % 10) as u8);
    out.push(b'0' + (n % 10) as u8);
}

pub(crate) fn push_num(out: &mut Vec<u8>, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[i..]);
}
