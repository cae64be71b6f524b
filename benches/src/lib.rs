//! Inputs for weft's benchmarks (see `benches/`).
//!
//! Every generator is deterministic (a fixed-seed xorshift64*), needs no dependencies and
//! stops at the first line or frame boundary at or past the requested length, so the result is
//! a little over `target_len` bytes and never ends inside an escape sequence or a UTF-8
//! character.
//!
//! The generators by kind of output: `logs`, `unicode` and `tui`; what they are built from:
//! `rng`, `pieces`, `row_writer` and the word lists in `vocab`.

mod logs;
mod pieces;
mod rng;
mod row_writer;
mod tui;
mod unicode;
mod vocab;

pub use logs::{ascii_log, hyperlink_log, scroll_region, sgr_log};
pub use tui::tui_redraw;
pub use unicode::unicode;

/// The size the benchmarks ask each generator for: 4 MiB.
pub const INPUT_LEN: usize = 4 * 1024 * 1024;

/// Every input by name, each about `target_len` bytes, in the order the benchmarks run them.
pub fn all_inputs(target_len: usize) -> Vec<(&'static str, Vec<u8>)> {
    vec![
        ("ascii_log", ascii_log(target_len)),
        ("sgr_log", sgr_log(target_len)),
        ("tui_redraw", tui_redraw(target_len)),
        ("unicode", unicode(target_len)),
        ("scroll_region", scroll_region(target_len)),
        ("hyperlink_log", hyperlink_log(target_len)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEN: usize = 256 * 1024;

    #[test]
    fn inputs_are_deterministic_and_about_the_right_size() {
        let a = all_inputs(LEN);
        let b = all_inputs(LEN);
        assert_eq!(a, b);
        for (name, input) in &a {
            assert!(input.len() >= LEN, "{name} too short");
            assert!(input.len() < LEN + 8192, "{name} too long");
            assert!(std::str::from_utf8(input).is_ok(), "{name} is not UTF-8");
        }
    }

    #[test]
    fn ascii_log_is_ascii_with_crlf_lines() {
        let input = ascii_log(LEN);
        assert!(input.is_ascii());
        assert!(input.ends_with(b"\r\n"));
        let lines = input.split(|&b| b == b'\n').count() - 1;
        let mean = input.len() / lines;
        assert!((90..=115).contains(&mean), "mean line length {mean}");
    }
}
