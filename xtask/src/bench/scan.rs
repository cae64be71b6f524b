//! Reads a client's output the way the fake terminal needs it: the plain text with escape
//! sequences dropped (CR and LF become `\n`), a [`Screen`] model of what is visible, and the
//! replies to the queries a real terminal answers (DA, DSR, XTWINOPS, XTVERSION, DECRQM,
//! OSC 4/10/11), so no client stalls waiting for one.

use super::screen::Screen;

/// Longest CSI parameter string kept; longer ones are not queries.
const PARAM_CAP: usize = 32;
/// Longest OSC string kept; longer ones are not queries.
const OSC_CAP: usize = 64;
/// The pixel size of a cell reported to XTWINOPS.
pub const CELL_PIXELS: (u16, u16) = (8, 16);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Ground,
    Esc,
    EscIntermediate,
    Csi,
    Osc,
    OscEsc,
    Str,
    StrEsc,
}

/// A streaming scanner; sequences and characters may be split across chunks.
#[derive(Debug)]
pub struct Scanner {
    state: State,
    buf: Vec<u8>,
    overflow: bool,
    cols: u16,
    rows: u16,
    screen: Screen,
    /// The start of a UTF-8 character cut off at the end of the last chunk.
    utf8: Vec<u8>,
}

impl Scanner {
    /// A scanner for a terminal of `cols` x `rows` (the size XTWINOPS reports).
    pub fn new(cols: u16, rows: u16) -> Scanner {
        Scanner {
            state: State::Ground,
            buf: Vec::with_capacity(OSC_CAP),
            overflow: false,
            cols,
            rows,
            screen: Screen::new(cols, rows),
            utf8: Vec::new(),
        }
    }

    /// What the terminal shows.
    pub fn screen(&self) -> &Screen {
        &self.screen
    }

    /// Scans `input`: its plain text is appended to `text`, replies to queries to `replies`,
    /// and the screen model is updated.
    pub fn feed(&mut self, input: &[u8], text: &mut Vec<u8>, replies: &mut Vec<u8>) {
        let mut i = 0;
        while i < input.len() {
            if self.state == State::Ground {
                let run = input[i..]
                    .iter()
                    .position(|&b| b < 0x20 || b == 0x7f)
                    .unwrap_or(input.len() - i);
                let printable = &input[i..i + run];
                text.extend_from_slice(printable);
                self.print(printable);
                i += run;
                let Some(&b) = input.get(i) else {
                    break;
                };
                self.utf8.clear();
                match b {
                    0x1b => self.state = State::Esc,
                    b'\r' | b'\n' => {
                        text.push(b'\n');
                        self.screen.control(b);
                    }
                    _ => self.screen.control(b),
                }
                i += 1;
                continue;
            }
            self.step(input[i], replies);
            i += 1;
        }
    }

    /// Puts printable bytes (UTF-8, possibly cut at either end) on the screen.
    fn print(&mut self, run: &[u8]) {
        if run.is_empty() {
            return;
        }
        if self.utf8.is_empty() && run.is_ascii() {
            self.screen.print_ascii(run);
            return;
        }
        let joined;
        let mut rest = if self.utf8.is_empty() {
            run
        } else {
            joined = [std::mem::take(&mut self.utf8).as_slice(), run].concat();
            joined.as_slice()
        };
        loop {
            match std::str::from_utf8(rest) {
                Ok(s) => {
                    s.chars().for_each(|c| self.screen.print(c));
                    return;
                }
                Err(e) => {
                    let (good, bad) = rest.split_at(e.valid_up_to());
                    if let Ok(s) = std::str::from_utf8(good) {
                        s.chars().for_each(|c| self.screen.print(c));
                    }
                    match e.error_len() {
                        None => {
                            self.utf8 = bad.to_vec();
                            return;
                        }
                        Some(n) => {
                            self.screen.print(char::REPLACEMENT_CHARACTER);
                            rest = &bad[n..];
                        }
                    }
                }
            }
        }
    }

    fn start(&mut self, state: State) {
        self.state = state;
        self.buf.clear();
        self.overflow = false;
    }

    fn keep(&mut self, b: u8, cap: usize) {
        if self.buf.len() < cap {
            self.buf.push(b);
        } else {
            self.overflow = true;
        }
    }

    /// One byte outside the ground state.
    fn step(&mut self, b: u8, replies: &mut Vec<u8>) {
        match self.state {
            State::Ground => {}
            State::Esc => match b {
                b'[' => self.start(State::Csi),
                b']' => self.start(State::Osc),
                b'P' | b'X' | b'^' | b'_' => self.state = State::Str,
                0x00..=0x1f => {}
                0x20..=0x2f => self.state = State::EscIntermediate,
                _ => {
                    self.state = State::Ground;
                    self.screen.esc(b);
                }
            },
            State::EscIntermediate => match b {
                0x1b => self.state = State::Esc,
                0x00..=0x2f => {}
                _ => self.state = State::Ground,
            },
            State::Csi => match b {
                0x40..=0x7e => {
                    self.state = State::Ground;
                    if !self.overflow {
                        self.screen.csi(&self.buf, b);
                        self.csi_query(b, replies);
                    }
                }
                0x20..=0x3f => self.keep(b, PARAM_CAP),
                0x1b => self.state = State::Esc,
                0x00..=0x1f => {}
                _ => self.state = State::Ground,
            },
            State::Osc => match b {
                0x07 => {
                    self.state = State::Ground;
                    self.osc_query(b"\x07", replies);
                }
                0x1b => self.state = State::OscEsc,
                _ => self.keep(b, OSC_CAP),
            },
            State::OscEsc => {
                if b == b'\\' {
                    self.state = State::Ground;
                    self.osc_query(b"\x1b\\", replies);
                } else {
                    self.state = State::Esc;
                    self.step(b, replies);
                }
            }
            State::Str => {
                if b == 0x1b {
                    self.state = State::StrEsc;
                }
            }
            State::StrEsc => {
                self.state = match b {
                    b'\\' => State::Ground,
                    0x1b => State::StrEsc,
                    _ => State::Str,
                }
            }
        }
    }

    fn csi_query(&self, fin: u8, out: &mut Vec<u8>) {
        let p = self.buf.as_slice();
        let (cols, rows) = (self.cols, self.rows);
        let (cw, ch) = CELL_PIXELS;
        let reply = match (fin, p) {
            (b'c', b"" | b"0") => "\x1b[?62;22c".to_string(),
            (b'c', b">" | b">0") => "\x1b[>0;10;1c".to_string(),
            (b'n', b"5") => "\x1b[0n".to_string(),
            (b'n', b"6") => "\x1b[1;1R".to_string(),
            (b't', b"14") => {
                format!(
                    "\x1b[4;{};{}t",
                    u32::from(rows) * u32::from(ch),
                    u32::from(cols) * u32::from(cw)
                )
            }
            (b't', b"16") => format!("\x1b[6;{ch};{cw}t"),
            (b't', b"18") => format!("\x1b[8;{rows};{cols}t"),
            (b'q', b">" | b">0") => "\x1bP>|weft-bench(1)\x1b\\".to_string(),
            (b'p', [b'?', mode @ .., b'$']) if mode.iter().all(u8::is_ascii_digit) => {
                format!("\x1b[?{};0$y", String::from_utf8_lossy(mode))
            }
            _ => return,
        };
        out.extend_from_slice(reply.as_bytes());
    }

    fn osc_query(&self, terminator: &[u8], out: &mut Vec<u8>) {
        if self.overflow {
            return;
        }
        let p = self.buf.as_slice();
        let reply = match p {
            b"10;?" => "\x1b]10;rgb:cccc/cccc/cccc".to_string(),
            b"11;?" => "\x1b]11;rgb:0000/0000/0000".to_string(),
            [b'4', b';', rest @ ..] => {
                let Some(index) = rest
                    .strip_suffix(b";?")
                    .and_then(|i| std::str::from_utf8(i).ok())
                    .and_then(|i| i.parse::<u8>().ok())
                else {
                    return;
                };
                format!("\x1b]4;{index};{}", xterm_rgb(index))
            }
            _ => return,
        };
        out.extend_from_slice(reply.as_bytes());
        out.extend_from_slice(terminator);
    }
}

/// xterm's default colour `i` as an OSC colour spec.
fn xterm_rgb(i: u8) -> String {
    const BASE16: [(u8, u8, u8); 16] = [
        (0, 0, 0),
        (205, 0, 0),
        (0, 205, 0),
        (205, 205, 0),
        (0, 0, 238),
        (205, 0, 205),
        (0, 205, 205),
        (229, 229, 229),
        (127, 127, 127),
        (255, 0, 0),
        (0, 255, 0),
        (255, 255, 0),
        (92, 92, 255),
        (255, 0, 255),
        (0, 255, 255),
        (255, 255, 255),
    ];
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    let (r, g, b) = match i {
        0..=15 => BASE16[usize::from(i)],
        16..=231 => {
            let j = usize::from(i - 16);
            (LEVELS[j / 36], LEVELS[j / 6 % 6], LEVELS[j % 6])
        }
        _ => {
            let v = 8 + 10 * (i - 232);
            (v, v, v)
        }
    };
    let w = |c: u8| u16::from(c) * 257;
    format!("rgb:{:04x}/{:04x}/{:04x}", w(r), w(g), w(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scan_in_pieces(input: &[u8], piece: usize) -> (Vec<u8>, Vec<u8>) {
        let mut s = Scanner::new(104, 59);
        let (mut text, mut replies) = (Vec::new(), Vec::new());
        for chunk in input.chunks(piece) {
            s.feed(chunk, &mut text, &mut replies);
        }
        (text, replies)
    }

    #[test]
    fn strips_sequences_at_any_split() {
        let input =
            b"a\x1b[1;31mWB\x1b[0mDONE\x1b]0;title\x07-x\x1bP+q\x1b\\y\r\nz\x1b(0q\x1b[?25h";
        for piece in 1..input.len() {
            let (text, replies) = scan_in_pieces(input, piece);
            assert_eq!(text, b"aWBDONE-xy\n\nzq", "piece {piece}");
            assert_eq!(s_lines(input, piece)[..2], ["aWBDONE-xy", "zq"]);
            assert!(replies.is_empty());
        }
    }

    fn s_lines(input: &[u8], piece: usize) -> Vec<String> {
        let mut s = Scanner::new(20, 3);
        let (mut text, mut replies) = (Vec::new(), Vec::new());
        for chunk in input.chunks(piece) {
            s.feed(chunk, &mut text, &mut replies);
        }
        s.screen().lines()
    }

    #[test]
    fn utf8_split_anywhere() {
        let input = "x漢字😀y\r\n".as_bytes();
        for piece in 1..input.len() {
            assert_eq!(s_lines(input, piece)[0], "x漢字😀y", "piece {piece}");
        }
    }

    #[test]
    fn answers_queries() {
        let (text, replies) = scan_in_pieces(
            b"\x1b[c\x1b[>c\x1b[18t\x1b]11;?\x1b\\\x1b]4;1;?\x07\x1b[?2026$p",
            3,
        );
        assert!(text.is_empty());
        let replies = String::from_utf8(replies).expect("ascii");
        assert_eq!(
            replies,
            "\x1b[?62;22c\x1b[>0;10;1c\x1b[8;59;104t\x1b]11;rgb:0000/0000/0000\x1b\\\
             \x1b]4;1;rgb:cdcd/0000/0000\x07\x1b[?2026;0$y"
        );
    }

    #[test]
    fn colour_cube() {
        assert_eq!(xterm_rgb(16), "rgb:0000/0000/0000");
        assert_eq!(xterm_rgb(231), "rgb:ffff/ffff/ffff");
        assert_eq!(xterm_rgb(232), "rgb:0808/0808/0808");
    }
}
