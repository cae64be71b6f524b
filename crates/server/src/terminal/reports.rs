//! The user's terminal's answers to weft's queries, taken out of its key input.
//!
//! Answers arrive on the same descriptor as keys. [`ReportFilter`] separates them: it passes
//! everything that is not a complete answer on as keys, in order, and holds an answer cut short
//! by the end of a read until the rest comes (or the escape time gives up on it and the held
//! bytes go on as keys). Only answers in their exact form are taken, never anything a key
//! produces: `CSI ?`/`CSI >` reports, `DCS >|` (XTVERSION) and colour OSCs (`OSC 10/11/12`,
//! `OSC 4`).

use weft_screen_model::palette::parse_color_spec;
use weft_screen_model::Rgb;

/// The longest answer taken; a longer run is passed on as keys (a terminal's answers are far
/// shorter, and a hold must stay bounded).
const MAX_REPORT_BYTES: usize = 256;

/// Which of the terminal's colours an answer names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ColorSlot {
    /// OSC 10.
    Foreground,
    /// OSC 11.
    Background,
    /// OSC 12.
    Cursor,
    /// OSC 4 with this palette index.
    Palette(u8),
}

/// One answer from the user's terminal.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Report {
    /// DA1 (`CSI ? Ps ; ... c`): asked last, so its answer says the others have come.
    PrimaryAttributes(Vec<u16>),
    /// DA2 (`CSI > Ps ; ... c`).
    SecondaryAttributes(Vec<u16>),
    /// XTVERSION (`DCS > | text ST`).
    Version(String),
    /// DECRPM (`CSI ? mode ; value $ y`): 0 unknown, 1 set, 2 reset, 3 always set, 4 always
    /// reset.
    Mode {
        /// The mode asked about.
        mode: u16,
        /// What the terminal said.
        value: u16,
    },
    /// The kitty keyboard protocol's flags (`CSI ? flags u`): the terminal has it.
    KittyKeyboard(u32),
    /// The colour scheme (`CSI ? 997 ; 1|2 n`): dark or light.
    ColorScheme {
        /// 1 dark, 2 light.
        dark: bool,
    },
    /// A colour (`OSC 10/11/12 ; spec` or `OSC 4 ; index ; spec`).
    Color(ColorSlot, Rgb),
}

/// What one read turned out to be.
#[derive(Debug, Default)]
pub struct Filtered {
    /// Bytes to decode as keys, in order.
    pub keys: Vec<u8>,
    /// Answers taken out.
    pub reports: Vec<Report>,
}

/// Separates the terminal's answers from its keys (see the module's documentation).
#[derive(Debug, Default)]
pub struct ReportFilter {
    /// The start of an answer cut short by the end of the last read.
    held: Vec<u8>,
}

/// What the bytes at an ESC are.
enum Found {
    /// A whole answer, this many bytes long.
    Report(Report, usize),
    /// Could still become an answer: more bytes are needed.
    Partial,
    /// Not an answer: the ESC is a key's.
    Key,
}

impl ReportFilter {
    /// Separates one read's bytes (after what the last one left).
    pub fn feed(&mut self, bytes: &[u8]) -> Filtered {
        let mut out = Filtered::default();
        if self.held.is_empty() && !bytes.contains(&0x1b) {
            out.keys.extend_from_slice(bytes);
            return out;
        }
        let mut data = std::mem::take(&mut self.held);
        data.extend_from_slice(bytes);
        let mut i = 0;
        while i < data.len() {
            let Some(esc) = data[i..].iter().position(|&b| b == 0x1b) else {
                out.keys.extend_from_slice(&data[i..]);
                break;
            };
            out.keys.extend_from_slice(&data[i..i + esc]);
            let at = i + esc;
            match find(&data[at..]) {
                Found::Report(report, len) => {
                    out.reports.push(report);
                    i = at + len;
                }
                Found::Partial if data.len() - at <= MAX_REPORT_BYTES => {
                    self.held = data[at..].to_vec();
                    break;
                }
                Found::Partial | Found::Key => {
                    out.keys.push(0x1b);
                    i = at + 1;
                }
            }
        }
        out
    }

    /// How many bytes are held (`None` when none): one is a lone ESC, which may be the
    /// Escape key, and two (`ESC [`, `ESC ]`, `ESC P`) may still be a key's too.
    pub fn holding(&self) -> Option<usize> {
        (!self.held.is_empty()).then_some(self.held.len())
    }

    /// Gives up on the held bytes: they are keys after all.
    pub fn flush(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.held)
    }
}

/// What `data` (starting with ESC) begins with.
fn find(data: &[u8]) -> Found {
    match data.get(1) {
        None => Found::Partial,
        Some(b'[') => csi(data),
        Some(b']') => osc(data),
        Some(b'P') => dcs(data),
        Some(_) => Found::Key,
    }
}

/// `CSI ?` or `CSI >` reports.
fn csi(data: &[u8]) -> Found {
    let marker = match data.get(2) {
        None => return Found::Partial,
        Some(&m @ (b'?' | b'>')) => m,
        Some(_) => return Found::Key,
    };
    let mut end = 3;
    loop {
        match data.get(end) {
            None => return Found::Partial,
            Some(b'0'..=b'9' | b';' | b':' | b'$') if end < MAX_REPORT_BYTES => end += 1,
            Some(&last @ 0x40..=0x7e) => {
                let body = &data[3..end];
                return match csi_report(marker, body, last) {
                    Some(report) => Found::Report(report, end + 1),
                    None => Found::Key,
                };
            }
            Some(_) => return Found::Key,
        }
    }
}

fn numbers(body: &[u8]) -> Option<Vec<u16>> {
    let text = std::str::from_utf8(body).ok()?;
    if text.is_empty() {
        return Some(Vec::new());
    }
    // Empty parameters are left out: kitty answers DA1 with `CSI ? 62 ; c`.
    text.split([';', ':'])
        .filter(|p| !p.is_empty())
        .map(|p| p.parse::<u16>().ok())
        .collect()
}

fn csi_report(marker: u8, body: &[u8], last: u8) -> Option<Report> {
    match (marker, last) {
        (b'?', b'c') => Some(Report::PrimaryAttributes(numbers(body)?)),
        (b'>', b'c') => Some(Report::SecondaryAttributes(numbers(body)?)),
        (b'?', b'y') => {
            let body = body.strip_suffix(b"$")?;
            match numbers(body)?.as_slice() {
                [mode, value] => Some(Report::Mode {
                    mode: *mode,
                    value: *value,
                }),
                _ => None,
            }
        }
        (b'?', b'u') => {
            let flags = std::str::from_utf8(body).ok()?.parse::<u32>().ok()?;
            Some(Report::KittyKeyboard(flags))
        }
        (b'?', b'n') => match numbers(body)?.as_slice() {
            [997, 1] => Some(Report::ColorScheme { dark: true }),
            [997, 2] => Some(Report::ColorScheme { dark: false }),
            _ => None,
        },
        _ => None,
    }
}

/// The end of a string started at `data[start..]`: (length of the payload, bytes to skip past
/// the terminator), ended by BEL or ST.
fn string_end(data: &[u8], start: usize) -> Result<(usize, usize), Found> {
    let mut end = start;
    loop {
        match data.get(end) {
            None => return Err(Found::Partial),
            Some(0x07) => return Ok((end, end + 1)),
            Some(0x1b) => {
                return match data.get(end + 1) {
                    None => Err(Found::Partial),
                    Some(b'\\') => Ok((end, end + 2)),
                    Some(_) => Err(Found::Key),
                }
            }
            Some(0x20..=0x7e) if end < MAX_REPORT_BYTES => end += 1,
            Some(_) => return Err(Found::Key),
        }
    }
}

/// Colour answers: `OSC 10/11/12 ; spec` and `OSC 4 ; index ; spec`.
fn osc(data: &[u8]) -> Found {
    // Before the end arrives, only what could begin such an answer is held.
    let prefix_ok = data[2..]
        .iter()
        .take(3)
        .all(|b| b.is_ascii_digit() || *b == b';');
    if !prefix_ok || data.get(2).is_some_and(|b| !matches!(b, b'1' | b'4')) {
        return Found::Key;
    }
    let (end, len) = match string_end(data, 2) {
        Ok(found) => found,
        Err(found) => return found,
    };
    let body = &data[2..end];
    let mut parts = body.splitn(3, |&b| b == b';');
    let slot = match parts.next() {
        Some(b"10") => ColorSlot::Foreground,
        Some(b"11") => ColorSlot::Background,
        Some(b"12") => ColorSlot::Cursor,
        Some(b"4") => {
            let index = parts
                .next()
                .and_then(|i| std::str::from_utf8(i).ok())
                .and_then(|i| i.parse::<u8>().ok());
            match index {
                Some(index) => ColorSlot::Palette(index),
                None => return Found::Key,
            }
        }
        _ => return Found::Key,
    };
    let Some(spec) = parts.next() else {
        return Found::Key;
    };
    if parts.next().is_some() {
        return Found::Key;
    }
    // Some terminals answer `rgba:`; the alpha is of no use here.
    let rgb = parse_color_spec(spec).or_else(|| {
        let rest = spec.strip_prefix(b"rgba:")?;
        let mut rgb = b"rgb:".to_vec();
        let parts: Vec<&[u8]> = rest.split(|&b| b == b'/').take(3).collect();
        rgb.extend_from_slice(&parts.join(&b'/'));
        parse_color_spec(&rgb)
    });
    match rgb {
        Some(rgb) => Found::Report(Report::Color(slot, rgb), len),
        None => Found::Key,
    }
}

/// XTVERSION's answer: `DCS > | text ST`.
fn dcs(data: &[u8]) -> Found {
    for (i, want) in [b'>', b'|'].into_iter().enumerate() {
        match data.get(2 + i) {
            None => return Found::Partial,
            Some(&b) if b == want => {}
            Some(_) => return Found::Key,
        }
    }
    match string_end(data, 4) {
        Ok((end, len)) => {
            let text = String::from_utf8_lossy(&data[4..end]).into_owned();
            Found::Report(Report::Version(text), len)
        }
        Err(found) => found,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(chunks: &[&[u8]]) -> (Vec<u8>, Vec<Report>) {
        let mut filter = ReportFilter::default();
        let (mut keys, mut reports) = (Vec::new(), Vec::new());
        for chunk in chunks {
            let out = filter.feed(chunk);
            keys.extend(out.keys);
            reports.extend(out.reports);
        }
        keys.extend(filter.flush());
        (keys, reports)
    }

    #[test]
    fn answers_are_taken_out_and_keys_around_them_kept_in_order() {
        let (keys, reports) = run(&[
            b"a\x1b[>1;4000;29c\x1bP>|kitty(0.35.2)\x1b\\b\x1b[?2026;2$y\x1b[?0u",
            b"\x1b]11;rgb:ffff/ffff/f0f0\x07\x1b]4;3;rgb:cd/cd/00\x1b\\\x1b[?62;22c\x1b[A",
        ]);
        assert_eq!(keys, b"ab\x1b[A");
        assert_eq!(
            reports,
            vec![
                Report::SecondaryAttributes(vec![1, 4000, 29]),
                Report::Version("kitty(0.35.2)".into()),
                Report::Mode {
                    mode: 2026,
                    value: 2
                },
                Report::KittyKeyboard(0),
                Report::Color(ColorSlot::Background, Rgb::new(255, 255, 240)),
                Report::Color(ColorSlot::Palette(3), Rgb::new(0xcd, 0xcd, 0)),
                Report::PrimaryAttributes(vec![62, 22]),
            ]
        );
    }

    #[test]
    fn kittys_primary_attributes_with_an_empty_last_parameter_are_an_answer() {
        let (keys, reports) = run(&[b"a\x1b[?62;cb"]);
        assert_eq!(keys, b"ab");
        assert_eq!(reports, vec![Report::PrimaryAttributes(vec![62])]);
    }

    #[test]
    fn an_answer_cut_anywhere_is_joined_again() {
        let all: &[u8] = b"x\x1b]10;rgb:0000/0000/0000\x1b\\\x1b[?997;2n\x1bP>|XTerm(390)\x1b\\y";
        for cut in 0..all.len() {
            let (keys, reports) = run(&[&all[..cut], &all[cut..]]);
            assert_eq!(keys, b"xy", "cut at {cut}");
            assert_eq!(reports.len(), 3, "cut at {cut}");
        }
    }

    #[test]
    fn keys_that_start_like_answers_stay_keys() {
        // M-], M-P, M-[ then text; CSI keys; an unknown private report is not taken either.
        let (keys, reports) = run(&[b"\x1b]x\x1bPq\x1b[1;5A\x1b[?1;2R\x1b]11;nonsense\x07"]);
        assert!(reports.is_empty());
        assert_eq!(keys, b"\x1b]x\x1bPq\x1b[1;5A\x1b[?1;2R\x1b]11;nonsense\x07");
    }

    #[test]
    fn holding_is_bounded_and_says_what_it_holds() {
        let mut filter = ReportFilter::default();
        assert!(filter.feed(b"\x1b").keys.is_empty());
        assert_eq!(filter.holding(), Some(1));
        assert!(filter.feed(b"[?6").keys.is_empty());
        assert_eq!(filter.holding(), Some(4));
        assert_eq!(filter.flush(), b"\x1b[?6");
        assert_eq!(filter.holding(), None);
        // A run longer than any answer goes on as keys.
        let mut long = b"\x1b]11;".to_vec();
        long.extend(std::iter::repeat_n(b'1', MAX_REPORT_BYTES + 10));
        let out = filter.feed(&long);
        assert_eq!(out.keys, long);
        assert_eq!(filter.holding(), None);
    }
}
