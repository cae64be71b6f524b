//! Writing one screen row of a TUI frame: text, numbers and SGR, never past 80 columns.

use crate::pieces::{push_cup, push_num};

/// Writes one screen row at CUP, counting visible (ASCII) columns so it never passes 80.
pub(crate) struct RowWriter<'a> {
    out: &'a mut Vec<u8>,
    pub(crate) cols: usize,
}

impl<'a> RowWriter<'a> {
    const WIDTH: usize = 80;

    pub(crate) fn new(out: &'a mut Vec<u8>, row: u16) -> Self {
        push_cup(out, row, 1);
        RowWriter { out, cols: 0 }
    }

    pub(crate) fn sgr(&mut self, params: &str) {
        self.out.extend_from_slice(b"\x1b[");
        self.out.extend_from_slice(params.as_bytes());
        self.out.push(b'm');
    }

    pub(crate) fn text(&mut self, text: &str) {
        let room = Self::WIDTH - self.cols;
        let take = text.len().min(room);
        self.out.extend_from_slice(&text.as_bytes()[..take]);
        self.cols += take;
    }

    pub(crate) fn num(&mut self, n: u64) {
        let mut digits = Vec::new();
        push_num(&mut digits, n);
        if let Ok(s) = std::str::from_utf8(&digits) {
            self.text(s);
        }
    }

    pub(crate) fn num_padded(&mut self, n: u64, width: usize) {
        let mut digits = Vec::new();
        push_num(&mut digits, n);
        for _ in digits.len()..width {
            self.text(" ");
        }
        if let Ok(s) = std::str::from_utf8(&digits) {
            self.text(s);
        }
    }

    pub(crate) fn pad(&mut self) {
        let rest = Self::WIDTH - self.cols;
        self.out.resize(self.out.len() + rest, b' ');
        self.cols = Self::WIDTH;
    }

    pub(crate) fn erase_rest(&mut self) {
        self.out.extend_from_slice(b"\x1b[K");
    }
}
