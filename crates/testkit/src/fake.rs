//! A scripted user's terminal: answers the queries a program (weft's client) sends as a given
//! terminal would, for tests of what the program learns from them.
//!
//! [`FakeTerminal`] sees everything the program prints and answers DA1, DA2, XTVERSION,
//! DECRQM, the kitty keyboard flags query, DSR 996 and the colour queries (OSC 10/11/12 and
//! OSC 4) from its profile; a query its profile has no answer for gets none, as from a
//! terminal that does not know it. The presets are terminals tests need: a modern dark one, a
//! light one, xterm, kitty, a 256-colour one and one that answers nothing.

use weft_screen_model::palette::format_color_spec;
use weft_screen_model::Rgb;

/// Most output kept for [`FakeTerminal::received`].
const MAX_RECEIVED_BYTES: usize = 8 << 20;
/// Longest escape sequence waited for across reads; longer ones are skipped.
const MAX_SEQUENCE_BYTES: usize = 4096;

/// What a scripted terminal answers: DA1, DA2, XTVERSION, DECRQM, the kitty keyboard flags
/// query, DSR 996 and the colour queries (OSC 10/11/12 and OSC 4), each from its field; a
/// query with no answer in the profile gets none. Use it with
/// [`TestTerminalBuilder::answering`](crate::TestTerminalBuilder::answering).
///
/// ```
/// use weft_testkit::FakeTerminal;
/// let mut mine = FakeTerminal::silent();
/// mine.version = Some("MyTerm 1.0".into());
/// assert_eq!(mine.answer(b"\x1b[>q"), b"\x1bP>|MyTerm 1.0\x1b\\");
/// assert!(mine.answer(b"\x1b[c").is_empty()); // no DA1 answer in this profile
/// ```
#[derive(Clone, Debug, Default)]
pub struct FakeTerminal {
    /// DA1's answer without `CSI` (`?62;22c`); `None`: no answer.
    pub primary: Option<String>,
    /// DA2's answer without `CSI` (`>1;10;0c`).
    pub secondary: Option<String>,
    /// XTVERSION's text (`XTerm(390)`).
    pub version: Option<String>,
    /// DECRQM answers for private modes; a mode not listed is answered 0 (unknown) when
    /// `answers_modes`.
    pub modes: Vec<(u16, u16)>,
    /// Answers DECRQM at all.
    pub answers_modes: bool,
    /// The kitty keyboard flags (`CSI ? u`), when the terminal has the protocol.
    pub kitty_flags: Option<u32>,
    /// Default foreground (OSC 10).
    pub foreground: Option<Rgb>,
    /// Default background (OSC 11).
    pub background: Option<Rgb>,
    /// Cursor colour (OSC 12).
    pub cursor: Option<Rgb>,
    /// The 16 ANSI colours (OSC 4).
    pub ansi: Option<[Rgb; 16]>,
    /// The colour scheme it reports to DSR 996 (`true`: dark).
    pub dark: Option<bool>,
    /// Answers are kept back until [`FakeTerminal::release`] (a terminal on a slow link).
    pub hold: bool,
    /// Answers kept back while `hold`.
    held: Vec<u8>,
    /// An escape sequence cut short by the end of a read.
    partial: Vec<u8>,
    /// Everything the program printed (up to [`MAX_RECEIVED_BYTES`]).
    received: Vec<u8>,
}

/// xterm's default 16 colours.
fn xterm_ansi() -> [Rgb; 16] {
    std::array::from_fn(|i| weft_screen_model::palette::xterm_color(i as u8))
}

impl FakeTerminal {
    /// A modern terminal on a dark background: truecolor, synchronized output, colour scheme
    /// reports, the kitty keyboard protocol (named `WezTerm` in XTVERSION).
    ///
    /// ```
    /// use weft_testkit::FakeTerminal;
    /// // DSR 996 (colour scheme): 1 is dark.
    /// assert_eq!(FakeTerminal::modern_dark().answer(b"\x1b[?996n"), b"\x1b[?997;1n");
    /// ```
    pub fn modern_dark() -> Self {
        FakeTerminal {
            primary: Some("?65;4;6;18;22c".into()),
            secondary: Some(">1;4000;29c".into()),
            version: Some("WezTerm 20240203-110809-5046fc22".into()),
            modes: vec![(2026, 2), (2027, 2), (2031, 2), (1016, 2)],
            answers_modes: true,
            kitty_flags: Some(0),
            foreground: Some(Rgb::new(0xd0, 0xd0, 0xd0)),
            background: Some(Rgb::new(0x10, 0x10, 0x18)),
            cursor: Some(Rgb::new(0xff, 0xff, 0xff)),
            ansi: Some(xterm_ansi()),
            dark: Some(true),
            ..FakeTerminal::default()
        }
    }

    /// The same terminal with a light colour scheme (a near-white background).
    ///
    /// ```
    /// use weft_testkit::FakeTerminal;
    /// let mut light = FakeTerminal::modern_light();
    /// assert_eq!(light.answer(b"\x1b[?996n"), b"\x1b[?997;2n");
    /// assert_eq!(light.answer(b"\x1b]11;?\x07"), b"\x1b]11;rgb:fafa/fafa/f5f5\x07");
    /// ```
    pub fn modern_light() -> Self {
        FakeTerminal {
            foreground: Some(Rgb::new(0x20, 0x20, 0x20)),
            background: Some(Rgb::new(0xfa, 0xfa, 0xf5)),
            cursor: Some(Rgb::new(0, 0, 0)),
            dark: Some(false),
            ..FakeTerminal::modern_dark()
        }
    }

    /// An older terminal with 256 colours: answers DA1, DA2 and its colours, knows none of the
    /// modes asked about, and no XTVERSION.
    ///
    /// ```
    /// use weft_testkit::FakeTerminal;
    /// let mut old = FakeTerminal::palette_256();
    /// assert_eq!(old.answer(b"\x1b[c"), b"\x1b[?62;22c");
    /// assert_eq!(old.answer(b"\x1b[?2026$p"), b"\x1b[?2026;0$y"); // mode unknown
    /// assert!(old.answer(b"\x1b[>q").is_empty());
    /// ```
    pub fn palette_256() -> Self {
        FakeTerminal {
            primary: Some("?62;22c".into()),
            secondary: Some(">0;115;0c".into()),
            answers_modes: true,
            foreground: Some(Rgb::new(0xff, 0xff, 0xff)),
            background: Some(Rgb::new(0, 0, 0)),
            ansi: Some(xterm_ansi()),
            ..FakeTerminal::default()
        }
    }

    /// xterm 390 as it comes: black on white, 256 colours as far as weft knows, no
    /// synchronized output, no kitty keyboard protocol.
    ///
    /// ```
    /// use weft_testkit::FakeTerminal;
    /// let mut xterm = FakeTerminal::xterm();
    /// assert_eq!(xterm.answer(b"\x1b[>q"), b"\x1bP>|XTerm(390)\x1b\\");
    /// assert!(xterm.answer(b"\x1b[?u").is_empty());
    /// ```
    pub fn xterm() -> Self {
        FakeTerminal {
            primary: Some("?64;1;2;6;9;15;16;17;18;21;22;28c".into()),
            secondary: Some(">41;390;0c".into()),
            version: Some("XTerm(390)".into()),
            modes: vec![(1016, 2)],
            answers_modes: true,
            foreground: Some(Rgb::new(0, 0, 0)),
            background: Some(Rgb::new(0xff, 0xff, 0xff)),
            ansi: Some(xterm_ansi()),
            ..FakeTerminal::default()
        }
    }

    /// kitty on its default dark background.
    ///
    /// ```
    /// use weft_testkit::FakeTerminal;
    /// assert_eq!(FakeTerminal::kitty().answer(b"\x1b[?u"), b"\x1b[?0u");
    /// ```
    pub fn kitty() -> Self {
        FakeTerminal {
            primary: Some("?62;c".into()),
            secondary: Some(">1;4000;35c".into()),
            version: Some("kitty(0.35.2)".into()),
            modes: vec![(2026, 2), (2031, 2), (1016, 2)],
            answers_modes: true,
            kitty_flags: Some(0),
            foreground: Some(Rgb::new(0xdd, 0xdd, 0xdd)),
            background: Some(Rgb::new(0, 0, 0)),
            ansi: Some(xterm_ansi()),
            dark: Some(true),
            ..FakeTerminal::default()
        }
    }

    /// A terminal that answers nothing at all.
    ///
    /// ```
    /// use weft_testkit::FakeTerminal;
    /// assert!(FakeTerminal::silent().answer(b"\x1b[c\x1b[>q\x1b]11;?\x07").is_empty());
    /// ```
    pub fn silent() -> Self {
        FakeTerminal::default()
    }

    /// Stops holding answers back, and returns those held, for the test to send.
    ///
    /// ```
    /// use weft_testkit::FakeTerminal;
    /// let mut slow = FakeTerminal::kitty();
    /// slow.hold = true;
    /// assert!(slow.answer(b"\x1b[?u").is_empty());
    /// assert_eq!(slow.release(), b"\x1b[?0u");
    /// assert_eq!(slow.answer(b"\x1b[?u"), b"\x1b[?0u"); // no longer held
    /// ```
    pub fn release(&mut self) -> Vec<u8> {
        self.hold = false;
        std::mem::take(&mut self.held)
    }

    /// Everything the program printed so far (up to 8 MiB).
    ///
    /// ```
    /// use weft_testkit::FakeTerminal;
    /// let mut fake = FakeTerminal::silent();
    /// fake.answer(b"hello ");
    /// fake.answer(b"\x1b[cworld");
    /// assert_eq!(fake.received(), b"hello \x1b[cworld");
    /// ```
    pub fn received(&self) -> &[u8] {
        &self.received
    }

    /// The answers to what the program printed in `output`.
    ///
    /// ```
    /// use weft_testkit::FakeTerminal;
    /// let mut dark = FakeTerminal::modern_dark();
    /// // A query split across two reads is answered once complete.
    /// assert!(dark.answer(b"text \x1b]10").is_empty());
    /// assert_eq!(dark.answer(b";?\x1b\\"), b"\x1b]10;rgb:d0d0/d0d0/d0d0\x1b\\");
    /// ```
    pub fn answer(&mut self, output: &[u8]) -> Vec<u8> {
        let room = MAX_RECEIVED_BYTES.saturating_sub(self.received.len());
        self.received
            .extend_from_slice(&output[..output.len().min(room)]);
        let mut data = std::mem::take(&mut self.partial);
        data.extend_from_slice(output);
        let mut answers = Vec::new();
        let mut i = 0;
        while let Some(at) = data[i..].iter().position(|&b| b == 0x1b).map(|p| p + i) {
            match sequence_len(&data[at..]) {
                Some(len) => {
                    self.answer_one(&data[at..at + len], &mut answers);
                    i = at + len;
                }
                None => {
                    if data.len() - at <= MAX_SEQUENCE_BYTES {
                        self.partial = data[at..].to_vec();
                    }
                    break;
                }
            }
        }
        if self.hold {
            self.held.append(&mut answers);
        }
        answers
    }

    fn answer_one(&self, seq: &[u8], out: &mut Vec<u8>) {
        let text = String::from_utf8_lossy(seq);
        if let Some(body) = text.strip_prefix("\x1b[") {
            self.answer_csi(body, out);
        } else if let Some(body) = text.strip_prefix("\x1b]") {
            let (body, terminator) = match body.strip_suffix('\x07') {
                Some(b) => (b, "\x07"),
                None => (body.strip_suffix("\x1b\\").unwrap_or(body), "\x1b\\"),
            };
            let spec = |c: Option<Rgb>| c.map(format_color_spec);
            let answer = match body.split(';').collect::<Vec<_>>().as_slice() {
                ["10", "?"] => spec(self.foreground).map(|s| format!("10;{s}")),
                ["11", "?"] => spec(self.background).map(|s| format!("11;{s}")),
                ["12", "?"] => spec(self.cursor).map(|s| format!("12;{s}")),
                ["4", index, "?"] => index
                    .parse::<usize>()
                    .ok()
                    .and_then(|i| self.ansi.and_then(|a| a.get(i).copied()))
                    .map(|rgb| format!("4;{index};{}", format_color_spec(rgb))),
                _ => None,
            };
            if let Some(answer) = answer {
                out.extend_from_slice(format!("\x1b]{answer}{terminator}").as_bytes());
            }
        }
    }

    fn answer_csi(&self, body: &str, out: &mut Vec<u8>) {
        let answer = match body {
            "c" | "0c" => self.primary.clone(),
            ">c" | ">0c" => self.secondary.clone(),
            ">q" | ">0q" => self.version.as_ref().map(|v| format!("\x1bP>|{v}\x1b\\")),
            "?u" => self.kitty_flags.map(|f| format!("?{f}u")),
            "?996n" => self
                .dark
                .map(|d| format!("?997;{}n", if d { 1 } else { 2 })),
            _ => body
                .strip_prefix('?')
                .and_then(|b| b.strip_suffix("$p"))
                .and_then(|mode| mode.parse::<u16>().ok())
                .filter(|_| self.answers_modes)
                .map(|mode| {
                    let value = self
                        .modes
                        .iter()
                        .find(|(m, _)| *m == mode)
                        .map_or(0, |(_, v)| *v);
                    format!("?{mode};{value}$y")
                }),
        };
        if let Some(answer) = answer {
            if answer.starts_with('\x1b') {
                out.extend_from_slice(answer.as_bytes());
            } else {
                out.extend_from_slice(format!("\x1b[{answer}").as_bytes());
            }
        }
    }
}

/// The length of the escape sequence `data` starts with (ESC first); `None` when it is cut
/// short. Only CSI and OSC are told apart; any other ESC is two bytes.
fn sequence_len(data: &[u8]) -> Option<usize> {
    match data.get(1)? {
        b'[' => {
            let end = data[2..].iter().position(|b| (0x40..=0x7e).contains(b))?;
            Some(2 + end + 1)
        }
        b']' | b'P' => {
            let mut i = 2;
            loop {
                match data.get(i)? {
                    0x07 => return Some(i + 1),
                    0x1b => return data.get(i + 1).map(|_| i + 2),
                    _ => i += 1,
                }
            }
        }
        _ => Some(2),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_as_its_profile_says_even_across_reads() {
        let mut light = FakeTerminal::modern_light();
        let mut answers = light.answer(b"x\x1b[>q\x1b[?2026$p\x1b]1");
        answers.extend(light.answer(b"1;?\x1b\\\x1b[?9$p\x1b[c"));
        assert_eq!(
            String::from_utf8(answers).unwrap(),
            "\x1bP>|WezTerm 20240203-110809-5046fc22\x1b\\\x1b[?2026;2$y\
             \x1b]11;rgb:fafa/fafa/f5f5\x1b\\\x1b[?9;0$y\x1b[?65;4;6;18;22c"
        );
        assert!(FakeTerminal::silent()
            .answer(b"\x1b[c\x1b]11;?\x07")
            .is_empty());
    }
}
