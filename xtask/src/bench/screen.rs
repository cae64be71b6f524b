//! A tiny screen model: which character is in which cell, nothing else (no attributes).
//! Multiplexers repaint only the cells that changed, so a marker printed in a pane may reach
//! the terminal with some of its characters missing (the cell already showed that character);
//! the model shows what the user sees, so markers are found there.
//!
//! It follows what multiplexers send: printable text with pending wrap, CR/LF/BS/TAB, cursor
//! motion, erase, insert/delete, scroll regions, REP, save/restore, the alternate screen.

/// The placeholder in the second cell of a wide character.
const WIDE_TAIL: char = '\0';

/// A grid of characters with a cursor.
#[derive(Clone, Debug)]
pub struct Screen {
    cols: usize,
    rows: usize,
    /// One vector per row, so scrolling moves rows, not characters.
    lines: Vec<Vec<char>>,
    /// The main screen while the alternate one is shown.
    other: Option<Vec<Vec<char>>>,
    x: usize,
    y: usize,
    wrap_pending: bool,
    autowrap: bool,
    top: usize,
    bottom: usize,
    saved: (usize, usize),
    last: char,
}

impl Screen {
    /// A blank `cols` x `rows` screen.
    pub fn new(cols: u16, rows: u16) -> Screen {
        let (cols, rows) = (usize::from(cols.max(1)), usize::from(rows.max(1)));
        Screen {
            cols,
            rows,
            lines: vec![vec![' '; cols]; rows],
            other: None,
            x: 0,
            y: 0,
            wrap_pending: false,
            autowrap: true,
            top: 0,
            bottom: rows - 1,
            saved: (0, 0),
            last: ' ',
        }
    }

    /// Whether `needle` is visible on one row.
    pub fn contains(&self, needle: &[char]) -> bool {
        let Some((&first, rest)) = needle.split_first() else {
            return true;
        };
        self.lines.iter().any(|row| {
            let last_start = row.len().saturating_sub(needle.len());
            (0..=last_start.min(row.len().saturating_sub(1)))
                .any(|i| row[i] == first && row[i + 1..].starts_with(rest))
        })
    }

    /// The rows as text, trailing blanks trimmed.
    #[cfg(test)]
    pub fn lines(&self) -> Vec<String> {
        self.lines
            .iter()
            .map(|r| {
                r.iter()
                    .filter(|&&c| c != WIDE_TAIL)
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect()
    }

    /// Blanks columns `from..to` of row `y`.
    fn blank(&mut self, y: usize, from: usize, to: usize) {
        let row = &mut self.lines[y];
        let to = to.min(row.len());
        if from < to {
            row[from..to].fill(' ');
        }
    }

    /// Blanks whole rows `from..to`.
    fn blank_rows(&mut self, from: usize, to: usize) {
        for row in &mut self.lines[from..to.min(self.rows)] {
            row.fill(' ');
        }
    }

    /// Scrolls rows `top..=bottom` up by `n`.
    fn scroll_up(&mut self, top: usize, bottom: usize, n: usize) {
        let n = n.min(bottom + 1 - top);
        self.lines[top..=bottom].rotate_left(n);
        self.blank_rows(bottom + 1 - n, bottom + 1);
    }

    /// Scrolls rows `top..=bottom` down by `n`.
    fn scroll_down(&mut self, top: usize, bottom: usize, n: usize) {
        let n = n.min(bottom + 1 - top);
        self.lines[top..=bottom].rotate_right(n);
        self.blank_rows(top, top + n);
    }

    /// Line feed: down one row, scrolling at the bottom of the region.
    pub fn line_feed(&mut self) {
        self.wrap_pending = false;
        if self.y == self.bottom {
            self.scroll_up(self.top, self.bottom, 1);
        } else if self.y + 1 < self.rows {
            self.y += 1;
        }
    }

    fn reverse_index(&mut self) {
        self.wrap_pending = false;
        if self.y == self.top {
            self.scroll_down(self.top, self.bottom, 1);
        } else if self.y > 0 {
            self.y -= 1;
        }
    }

    /// A C0 control.
    pub fn control(&mut self, b: u8) {
        match b {
            b'\n' | 0x0b | 0x0c => self.line_feed(),
            b'\r' => {
                self.x = 0;
                self.wrap_pending = false;
            }
            0x08 => {
                self.x = self.x.saturating_sub(1);
                self.wrap_pending = false;
            }
            b'\t' => {
                self.x = ((self.x / 8 + 1) * 8).min(self.cols - 1);
                self.wrap_pending = false;
            }
            _ => {}
        }
    }

    /// Prints one character.
    pub fn print(&mut self, c: char) {
        let w = width(c);
        if w == 0 {
            return;
        }
        if self.wrap_pending || self.x + w > self.cols {
            if self.autowrap {
                self.x = 0;
                self.line_feed();
            } else {
                self.x = self.cols - w;
            }
            self.wrap_pending = false;
        }
        let row = &mut self.lines[self.y];
        row[self.x] = c;
        if w == 2 {
            row[self.x + 1] = WIDE_TAIL;
        }
        self.last = c;
        self.x += w;
        if self.x >= self.cols {
            self.x = self.cols - 1;
            self.wrap_pending = true;
        }
    }

    /// Prints a run of ASCII text.
    pub fn print_ascii(&mut self, mut run: &[u8]) {
        while !run.is_empty() {
            if self.wrap_pending {
                self.print(char::from(run[0]));
                run = &run[1..];
                continue;
            }
            let n = run.len().min(self.cols - self.x);
            let row = &mut self.lines[self.y][self.x..self.x + n];
            for (cell, &b) in row.iter_mut().zip(&run[..n]) {
                *cell = char::from(b);
            }
            self.x += n;
            run = &run[n..];
            if self.x == self.cols {
                self.x = self.cols - 1;
                self.wrap_pending = true;
            }
        }
        if let Some(&b) = run.last() {
            self.last = char::from(b);
        }
    }

    /// An escape sequence `ESC final` (no intermediates).
    pub fn esc(&mut self, fin: u8) {
        match fin {
            b'7' => self.saved = (self.x, self.y),
            b'8' => {
                (self.x, self.y) = self.saved;
                self.wrap_pending = false;
            }
            b'D' => self.line_feed(),
            b'E' => {
                self.x = 0;
                self.line_feed();
            }
            b'M' => self.reverse_index(),
            b'c' => *self = Screen::new(self.cols as u16, self.rows as u16),
            _ => {}
        }
    }

    /// A control sequence: `params` as received (a private marker first, if any).
    pub fn csi(&mut self, params: &[u8], fin: u8) {
        let private = params
            .first()
            .filter(|b| matches!(b, b'?' | b'>' | b'<' | b'='))
            .copied();
        let body = if private.is_some() {
            &params[1..]
        } else {
            params
        };
        if body
            .iter()
            .any(|b| !(b.is_ascii_digit() || *b == b';' || *b == b':'))
        {
            return; // intermediates: not a sequence the model needs
        }
        let mut args = [0usize; 4];
        for (i, p) in body.split(|&b| b == b';').take(4).enumerate() {
            args[i] = p
                .iter()
                .take_while(|b| b.is_ascii_digit())
                .fold(0usize, |n, &d| {
                    n.saturating_mul(10).saturating_add(usize::from(d - b'0'))
                });
        }
        let n = |i: usize| args[i].max(1);
        if private == Some(b'?') {
            self.private_mode(body, fin);
            return;
        }
        if private.is_some() {
            return;
        }
        let (cols, rows) = (self.cols, self.rows);
        if fin != b'm' {
            self.wrap_pending = false;
        }
        match fin {
            b'H' | b'f' => {
                self.y = (n(0) - 1).min(rows - 1);
                self.x = (n(1) - 1).min(cols - 1);
            }
            b'A' => self.y = self.y.saturating_sub(n(0)),
            b'B' | b'e' => self.y = (self.y + n(0)).min(rows - 1),
            b'C' | b'a' => self.x = (self.x + n(0)).min(cols - 1),
            b'D' => self.x = self.x.saturating_sub(n(0)),
            b'E' => (self.x, self.y) = (0, (self.y + n(0)).min(rows - 1)),
            b'F' => (self.x, self.y) = (0, self.y.saturating_sub(n(0))),
            b'G' | b'`' => self.x = (n(0) - 1).min(cols - 1),
            b'd' => self.y = (n(0) - 1).min(rows - 1),
            b'J' => {
                let (x, y) = (self.x, self.y);
                match args[0] {
                    0 => {
                        self.blank(y, x, cols);
                        self.blank_rows(y + 1, rows);
                    }
                    1 => {
                        self.blank_rows(0, y);
                        self.blank(y, 0, x + 1);
                    }
                    _ => self.blank_rows(0, rows),
                }
            }
            b'K' => match args[0] {
                0 => self.blank(self.y, self.x, cols),
                1 => self.blank(self.y, 0, self.x + 1),
                _ => self.blank(self.y, 0, cols),
            },
            b'X' => self.blank(self.y, self.x, self.x + n(0)),
            b'@' | b'P' => {
                let x = self.x;
                let k = n(0).min(cols - x);
                let row = &mut self.lines[self.y];
                if fin == b'@' {
                    row.copy_within(x..cols - k, x + k);
                    row[x..x + k].fill(' ');
                } else {
                    row.copy_within(x + k..cols, x);
                    row[cols - k..].fill(' ');
                }
            }
            b'L' | b'M' if (self.top..=self.bottom).contains(&self.y) => {
                if fin == b'L' {
                    self.scroll_down(self.y, self.bottom, n(0));
                } else {
                    self.scroll_up(self.y, self.bottom, n(0));
                }
                self.x = 0;
            }
            b'S' => self.scroll_up(self.top, self.bottom, n(0)),
            b'T' => self.scroll_down(self.top, self.bottom, n(0)),
            b'r' => {
                let (t, b) = (n(0) - 1, if args[1] == 0 { rows } else { args[1] } - 1);
                if t < b && b < rows {
                    (self.top, self.bottom) = (t, b);
                } else {
                    (self.top, self.bottom) = (0, rows - 1);
                }
                (self.x, self.y) = (0, 0);
            }
            b'b' => {
                let c = self.last;
                for _ in 0..n(0).min(cols * rows) {
                    self.print(c);
                }
            }
            b's' => self.saved = (self.x, self.y),
            b'u' => (self.x, self.y) = self.saved,
            _ => {}
        }
    }

    fn private_mode(&mut self, body: &[u8], fin: u8) {
        let set = match fin {
            b'h' => true,
            b'l' => false,
            _ => return,
        };
        for mode in body.split(|&b| b == b';') {
            match mode {
                b"7" => self.autowrap = set,
                b"47" | b"1047" | b"1049" => {
                    let showing_alt = self.other.is_some();
                    if set != showing_alt {
                        if set && mode == b"1049" {
                            self.saved = (self.x, self.y);
                        }
                        let blank = vec![vec![' '; self.cols]; self.rows];
                        match self.other.take() {
                            Some(main) => self.lines = main,
                            None => self.other = Some(std::mem::replace(&mut self.lines, blank)),
                        }
                        if !set && mode == b"1049" {
                            (self.x, self.y) = self.saved;
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// Cells a character takes: 0 for combining marks and joiners, 2 for East Asian wide and
/// emoji, 1 otherwise (an approximation good enough to keep the cursor where it belongs).
pub fn width(c: char) -> usize {
    let u = u32::from(c);
    if u < 0x300 {
        return 1;
    }
    if let Some(&w) = bmp_widths().get(u as usize) {
        return usize::from(w);
    }
    slow_width(u)
}

/// The width of every character of the Basic Multilingual Plane, computed once.
fn bmp_widths() -> &'static [u8] {
    static TABLE: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| (0..=0xFFFFu32).map(|u| slow_width(u) as u8).collect())
}

fn slow_width(u: u32) -> usize {
    if u < 0x300 {
        1
    } else if in_ranges(ZERO_WIDTH, u) {
        0
    } else if in_ranges(DOUBLE_WIDTH, u) {
        2
    } else {
        1
    }
}

fn in_ranges(ranges: &[(u32, u32)], u: u32) -> bool {
    ranges
        .binary_search_by(|&(lo, hi)| {
            if hi < u {
                std::cmp::Ordering::Less
            } else if lo > u {
                std::cmp::Ordering::Greater
            } else {
                std::cmp::Ordering::Equal
            }
        })
        .is_ok()
}

/// Combining marks, zero-width spaces and joiners, variation selectors (sorted).
const ZERO_WIDTH: &[(u32, u32)] = &[
    (0x0300, 0x036F),
    (0x0483, 0x0489),
    (0x0591, 0x05BD),
    (0x1AB0, 0x1AFF),
    (0x1DC0, 0x1DFF),
    (0x200B, 0x200F),
    (0x20D0, 0x20FF),
    (0xFE00, 0xFE0F),
    (0xFE20, 0xFE2F),
    (0xE0100, 0xE01EF),
];

/// East Asian wide and fullwidth characters and emoji presentation (sorted).
const DOUBLE_WIDTH: &[(u32, u32)] = &[
    (0x1100, 0x115F),
    (0x231A, 0x231B),
    (0x2329, 0x232A),
    (0x23E9, 0x23EC),
    (0x23F0, 0x23F0),
    (0x23F3, 0x23F3),
    (0x25FD, 0x25FE),
    (0x2614, 0x2615),
    (0x2648, 0x2653),
    (0x267F, 0x267F),
    (0x2693, 0x2693),
    (0x26A1, 0x26A1),
    (0x26AA, 0x26AB),
    (0x26BD, 0x26BE),
    (0x26C4, 0x26C5),
    (0x26CE, 0x26CE),
    (0x26D4, 0x26D4),
    (0x26EA, 0x26EA),
    (0x26F2, 0x26F3),
    (0x26F5, 0x26F5),
    (0x26FA, 0x26FA),
    (0x26FD, 0x26FD),
    (0x2705, 0x2705),
    (0x270A, 0x270B),
    (0x2728, 0x2728),
    (0x274C, 0x274C),
    (0x274E, 0x274E),
    (0x2753, 0x2755),
    (0x2757, 0x2757),
    (0x2795, 0x2797),
    (0x27B0, 0x27B0),
    (0x27BF, 0x27BF),
    (0x2B1B, 0x2B1C),
    (0x2B50, 0x2B50),
    (0x2B55, 0x2B55),
    (0x2E80, 0x303E),
    (0x3041, 0x33FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xA000, 0xA4CF),
    (0xA960, 0xA97F),
    (0xAC00, 0xD7A3),
    (0xF900, 0xFAFF),
    (0xFE10, 0xFE19),
    (0xFE30, 0xFE6F),
    (0xFF00, 0xFF60),
    (0xFFE0, 0xFFE6),
    (0x1F004, 0x1F004),
    (0x1F0CF, 0x1F0CF),
    (0x1F18E, 0x1F18E),
    (0x1F191, 0x1F19A),
    (0x1F200, 0x1F251),
    (0x1F300, 0x1F320),
    (0x1F32D, 0x1F335),
    (0x1F337, 0x1F37C),
    (0x1F37E, 0x1F393),
    (0x1F3A0, 0x1F3CA),
    (0x1F3CF, 0x1F3D3),
    (0x1F3E0, 0x1F3F0),
    (0x1F3F4, 0x1F3F4),
    (0x1F3F8, 0x1F43E),
    (0x1F440, 0x1F440),
    (0x1F442, 0x1F4FC),
    (0x1F4FF, 0x1F53D),
    (0x1F54B, 0x1F54E),
    (0x1F550, 0x1F567),
    (0x1F57A, 0x1F57A),
    (0x1F595, 0x1F596),
    (0x1F5A4, 0x1F5A4),
    (0x1F5FB, 0x1F64F),
    (0x1F680, 0x1F6C5),
    (0x1F6CC, 0x1F6CC),
    (0x1F6D0, 0x1F6D2),
    (0x1F6D5, 0x1F6D7),
    (0x1F6EB, 0x1F6EC),
    (0x1F6F4, 0x1F6FC),
    (0x1F7E0, 0x1F7EB),
    (0x1F90C, 0x1F93A),
    (0x1F93C, 0x1F945),
    (0x1F947, 0x1F9FF),
    (0x1FA70, 0x1FAFF),
    (0x20000, 0x2FFFD),
    (0x30000, 0x3FFFD),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn feed(s: &mut Screen, text: &str) {
        for c in text.chars() {
            if c.is_ascii_control() {
                s.control(c as u8);
            } else {
                s.print(c);
            }
        }
    }

    #[test]
    fn wraps_scrolls_and_finds() {
        let mut s = Screen::new(5, 3);
        feed(&mut s, "abcdefg\r\nxy\r\nz\r\nq");
        assert_eq!(s.lines(), ["xy", "z", "q"]);
        let needle: Vec<char> = "xy".chars().collect();
        assert!(s.contains(&needle));
        assert!(!s.contains(&['a']));
    }

    #[test]
    fn a_diff_renderer_marker_is_found() {
        // The terminal already shows "r" where the marker's last character goes; a renderer
        // that sends only changed cells skips it.
        let mut s = Screen::new(20, 2);
        s.csi(b"2;8", b'H');
        s.print('r');
        s.csi(b"2;1", b'H');
        for c in "WBDONE-".chars() {
            s.print(c);
        }
        let needle: Vec<char> = "WBDONE-r".chars().collect();
        assert!(s.contains(&needle));
    }

    #[test]
    fn erase_insert_delete_regions() {
        let mut s = Screen::new(6, 4);
        feed(&mut s, "aaaaaa\r\nbbbbbb\r\ncccccc\r\ndddddd");
        s.csi(b"2;3", b'r');
        s.csi(b"3;1", b'H');
        s.control(b'\n');
        assert_eq!(s.lines(), ["aaaaaa", "cccccc", "", "dddddd"]);
        s.csi(b"1;3", b'H');
        s.csi(b"2", b'P');
        assert_eq!(s.lines()[0], "aaaa");
        s.csi(b"", b'K');
        assert_eq!(s.lines()[0], "aa");
        s.csi(b"?1049", b'h');
        assert_eq!(s.lines(), ["", "", "", ""]);
        s.csi(b"?1049", b'l');
        assert_eq!(s.lines()[3], "dddddd");
        s.csi(b"4;1", b'H');
        s.print('x');
        s.csi(b"3", b'b');
        assert_eq!(s.lines()[3], "xxxxdd");
    }

    #[test]
    fn wide_characters() {
        let mut s = Screen::new(4, 2);
        feed(&mut s, "a漢字");
        assert_eq!(s.lines(), ["a漢", "字"]);
        assert_eq!(width('e'), 1);
        assert_eq!(width('\u{301}'), 0);
        assert_eq!(width('😀'), 2);
        assert_eq!(width('✅'), 2);
        assert_eq!(width('─'), 1);
        for table in [ZERO_WIDTH, DOUBLE_WIDTH] {
            assert!(
                table.windows(2).all(|w| w[0].1 < w[1].0),
                "sorted, disjoint"
            );
        }
    }
}
