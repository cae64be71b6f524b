//! Keys: the client's bytes decoded into named keys (tmux names: `C-b`, `M-x`, `C-Up`, `F5`,
//! `Space`); the key tables they are looked up in are in `key_tables.rs`.

use bytes::Bytes;
use weft_screen_model::keyboard::KeyMods;

pub use crate::key_names::{is_user_key, normalize, MAX_USER_KEYS};
pub use crate::key_tables::KeyTables;

/// The default prefix, `C-b`.
pub const DEFAULT_PREFIX: &str = "C-b";

/// A mouse event in SGR form (1006), 0-based cell coordinates of the client's terminal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MouseEvent {
    /// Button code as sent (bits: 0-1 button, 4 shift, 8 meta, 16 ctrl, 32 motion, 64 wheel).
    pub code: u16,
    /// Column.
    pub col: u16,
    /// Row.
    pub row: u16,
    /// Press (true) or release.
    pub press: bool,
}

impl MouseEvent {
    /// Left button pressed (not motion).
    pub fn is_left_press(&self) -> bool {
        self.press && self.code & !(4 | 8 | 16) == 0
    }

    /// Motion with the left button held.
    pub fn is_left_drag(&self) -> bool {
        self.code & 32 != 0 && self.code & 3 == 0
    }

    /// Wheel up (true) or down.
    pub fn wheel(&self) -> Option<bool> {
        (self.code & 64 != 0).then_some(self.code & 1 == 0)
    }

    /// The report for a program, SGR encoded, at pane-relative coordinates.
    pub fn encode_sgr(&self, col: u16, row: u16) -> Vec<u8> {
        format!(
            "\x1b[<{};{};{}{}",
            self.code,
            col + 1,
            row + 1,
            if self.press { 'M' } else { 'm' }
        )
        .into_bytes()
    }
}

/// One decoded key or event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A key: its tmux name and the bytes the terminal sent.
    Key {
        /// Name, e.g. `C-b`, `M-Left`, `a`.
        name: String,
        /// Original bytes.
        bytes: Bytes,
    },
    /// A mouse report.
    Mouse(MouseEvent),
    /// Bracketed paste content (without the markers).
    Paste(Bytes),
}

/// Decodes a client's input stream into keys. A sequence cut at the end of a read is kept for
/// the next read; so is an ESC at the very end, which may be the Escape key or the start of a
/// sequence or of a Meta key still on its way: [`KeyDecoder::pending_escape`] says so, and
/// [`KeyDecoder::flush`] decides once the escape time has passed without the rest.
#[derive(Debug, Default)]
pub struct KeyDecoder {
    pending: Vec<u8>,
    paste: Option<Vec<u8>>,
    /// tmux's `user-keys`: sequences the terminal sends that are read as `User0`, `User1`...
    user_keys: Vec<(Vec<u8>, String)>,
}

/// What an ESC the decoder holds back at the end of the input waits for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PendingEscape {
    /// A lone ESC: the Escape key, or the first byte of a sequence or of a Meta key.
    Lone,
    /// An escape sequence begun and cut short (`ESC [ 1 ;`).
    Sequence,
}

const PASTE_START: &[u8] = b"\x1b[200~";
/// The most of a bracketed paste held before it goes on as a paste of its own: a paste whose
/// end marker never comes (a broken or hostile client) cannot grow the server without bound.
/// A larger paste reaches the program as several bracketed pastes, in order, with nothing
/// lost.
pub const MAX_PASTE_PIECE: usize = 1 << 20;
const PASTE_END: &[u8] = b"\x1b[201~";

impl KeyDecoder {
    /// Reads each of `sequences` (index, bytes) as key `User<index>` (tmux's `user-keys`);
    /// empty sequences are skipped.
    pub fn set_user_keys(&mut self, sequences: impl IntoIterator<Item = (usize, Vec<u8>)>) {
        self.user_keys = sequences
            .into_iter()
            .filter(|(i, seq)| !seq.is_empty() && *i < MAX_USER_KEYS)
            .map(|(i, seq)| (seq, format!("User{i}")))
            .collect();
    }

    /// The user key `data` starts with (its name and length), `Err(())` when `data` is an
    /// ESC-led beginning of one (held for the rest, as any sequence cut short), else `Ok(None)`.
    fn user_key(&self, data: &[u8]) -> Result<Option<(String, usize)>, ()> {
        let mut partial = false;
        for (seq, name) in &self.user_keys {
            if data.starts_with(seq) {
                return Ok(Some((name.clone(), seq.len())));
            }
            partial |= data[0] == 0x1b && seq.starts_with(data);
        }
        if partial {
            Err(())
        } else {
            Ok(None)
        }
    }

    /// Decodes `input` (with anything left from the previous call).
    pub fn feed(&mut self, input: &[u8]) -> Vec<Input> {
        let mut data = std::mem::take(&mut self.pending);
        data.extend_from_slice(input);
        let mut out = Vec::new();
        let mut i = 0;
        while i < data.len() {
            if let Some(paste) = &mut self.paste {
                match find(&data[i..], PASTE_END) {
                    Some(end) => {
                        paste.extend_from_slice(&data[i..i + end]);
                        out.push(Input::Paste(Bytes::from(std::mem::take(paste))));
                        self.paste = None;
                        i += end + PASTE_END.len();
                    }
                    None => {
                        // Keep a possible partial end marker for the next read.
                        let keep = partial_suffix(&data[i..], PASTE_END);
                        paste.extend_from_slice(&data[i..data.len() - keep]);
                        if paste.len() >= MAX_PASTE_PIECE {
                            out.push(Input::Paste(Bytes::from(std::mem::take(paste))));
                        }
                        self.pending = data[data.len() - keep..].to_vec();
                        return out;
                    }
                }
                continue;
            }
            if !self.user_keys.is_empty() {
                match self.user_key(&data[i..]) {
                    Ok(Some((name, len))) => {
                        out.push(key(name, &data[i..i + len]));
                        i += len;
                        continue;
                    }
                    Ok(None) => {}
                    // A key of its own that is all there is (an arrow a longer user key
                    // begins with) is that key; anything else waits for the rest.
                    Err(()) if matches!(decode_one(&data[i..]), Decoded::Event(_, len) if i + len == data.len()) =>
                        {}
                    Err(()) => {
                        self.pending = data[i..].to_vec();
                        break;
                    }
                }
            }
            match decode_one(&data[i..]) {
                Decoded::Incomplete => {
                    self.pending = data[i..].to_vec();
                    break;
                }
                Decoded::PasteStart => {
                    self.paste = Some(Vec::new());
                    i += PASTE_START.len();
                }
                Decoded::Event(event, len) => {
                    out.push(event);
                    i += len;
                }
            }
        }
        out
    }

    /// Whether the input so far ends in an ESC held back for what may follow it (never inside
    /// a paste, whose end marker is simply awaited).
    pub fn pending_escape(&self) -> Option<PendingEscape> {
        match self.pending.as_slice() {
            _ if self.paste.is_some() => None,
            [0x1b] => Some(PendingEscape::Lone),
            [0x1b, ..] => Some(PendingEscape::Sequence),
            _ => None,
        }
    }

    /// The escape time passed without the rest of a held ESC: decodes what is held as complete.
    /// A lone ESC is the Escape key, ESC and one more key are that key with Meta (`ESC [` is
    /// `M-[`), and what follows is decoded as usual.
    pub fn flush(&mut self) -> Vec<Input> {
        let mut out = Vec::new();
        while self.pending_escape().is_some() {
            let held = std::mem::take(&mut self.pending);
            let meta = match held.get(1) {
                Some(&b) if b < 0x80 && b != 0x1b => match decode_one(&held[1..2]) {
                    Decoded::Event(Input::Key { name, .. }, _) => Some(name),
                    _ => None,
                },
                _ => None,
            };
            let used = match meta {
                Some(name) => {
                    out.push(key(with_meta(&name), &held[..2]));
                    2
                }
                None => {
                    out.push(key("Escape", &held[..1]));
                    1
                }
            };
            // What is left decodes as usual; it cannot complete a sequence (the held bytes did
            // not), but may end in another ESC, held again and flushed by the next turn.
            out.extend(self.feed(&held[used..]));
        }
        out
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn partial_suffix(hay: &[u8], marker: &[u8]) -> usize {
    (1..marker.len().min(hay.len() + 1))
        .rev()
        .find(|&n| hay.ends_with(&marker[..n]))
        .unwrap_or(0)
}

enum Decoded {
    Event(Input, usize),
    Incomplete,
    PasteStart,
}

fn key(name: impl Into<String>, bytes: &[u8]) -> Input {
    Input::Key {
        name: name.into(),
        bytes: Bytes::copy_from_slice(bytes),
    }
}

/// `name` with Alt added, the modifiers in canonical order (ESC C-b is `C-M-b`, as tmux names it).
fn with_meta(name: &str) -> String {
    let (mods, base) = crate::pane_keys::split_modifiers(name);
    crate::pane_keys::name_with_modifiers(base, mods | KeyMods::ALT)
}

fn with_mods(base: &str, m: u32) -> String {
    // xterm's and kitty's modifier parameter: 1 + (shift 1 | alt 2 | ctrl 4 | super 8 | ...).
    let bits = m.saturating_sub(1).min(0xff) as u8;
    crate::pane_keys::name_with_modifiers(base, bits)
}

fn decode_one(data: &[u8]) -> Decoded {
    let b = data[0];
    match b {
        0x1b => decode_escape(data),
        0x00 => Decoded::Event(key("C-Space", &data[..1]), 1),
        0x09 => Decoded::Event(key("Tab", &data[..1]), 1),
        0x0d => Decoded::Event(key("Enter", &data[..1]), 1),
        0x01..=0x1a => Decoded::Event(key(format!("C-{}", (b'a' + b - 1) as char), &data[..1]), 1),
        0x1c => Decoded::Event(key("C-\\", &data[..1]), 1),
        0x1d => Decoded::Event(key("C-]", &data[..1]), 1),
        0x1e => Decoded::Event(key("C-^", &data[..1]), 1),
        0x1f => Decoded::Event(key("C-_", &data[..1]), 1),
        0x7f => Decoded::Event(key("BSpace", &data[..1]), 1),
        b' ' => Decoded::Event(key("Space", &data[..1]), 1),
        _ => {
            let len = utf8_len(b);
            if data.len() < len {
                return Decoded::Incomplete;
            }
            let name = std::str::from_utf8(&data[..len])
                .map_or_else(|_| "\u{fffd}".to_string(), str::to_string);
            Decoded::Event(key(name, &data[..len]), len)
        }
    }
}

fn utf8_len(b: u8) -> usize {
    match b {
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        0xf0..=0xf7 => 4,
        _ => 1,
    }
}

fn decode_escape(data: &[u8]) -> Decoded {
    let Some(&next) = data.get(1) else {
        // A lone ESC at the end of the input: held until more comes or the escape time passes.
        return Decoded::Incomplete;
    };
    match next {
        b'[' => decode_csi(data),
        b'O' => match data.get(2) {
            None => Decoded::Incomplete,
            Some(&c) => {
                let name = match c {
                    b'A' => "Up",
                    b'B' => "Down",
                    b'C' => "Right",
                    b'D' => "Left",
                    b'H' => "Home",
                    b'F' => "End",
                    b'P' => "F1",
                    b'Q' => "F2",
                    b'R' => "F3",
                    b'S' => "F4",
                    _ => "Unknown",
                };
                Decoded::Event(key(name, &data[..3]), 3)
            }
        },
        0x1b => Decoded::Event(key("Escape", &data[..1]), 1),
        _ => match decode_one(&data[1..]) {
            Decoded::Event(Input::Key { name, .. }, len) => {
                Decoded::Event(key(with_meta(&name), &data[..1 + len]), 1 + len)
            }
            Decoded::Incomplete => Decoded::Incomplete,
            _ => Decoded::Event(key("Escape", &data[..1]), 1),
        },
    }
}

fn decode_csi(data: &[u8]) -> Decoded {
    // ESC [ params intermediates final
    let Some(end) = data[2..].iter().position(|b| (0x40..=0x7e).contains(b)) else {
        return if data.len() > 64 {
            Decoded::Event(key("Escape", &data[..1]), 1)
        } else {
            Decoded::Incomplete
        };
    };
    let len = 2 + end + 1;
    let params = &data[2..2 + end];
    let fin = data[2 + end];
    if data[..len] == *PASTE_START {
        return Decoded::PasteStart;
    }
    if params.first() == Some(&b'<') && (fin == b'M' || fin == b'm') {
        let nums: Vec<u16> = std::str::from_utf8(&params[1..])
            .unwrap_or("")
            .split(';')
            .filter_map(|n| n.parse().ok())
            .collect();
        if let [code, col, row] = nums[..] {
            return Decoded::Event(
                Input::Mouse(MouseEvent {
                    code,
                    col: col.saturating_sub(1),
                    row: row.saturating_sub(1),
                    press: fin == b'M',
                }),
                len,
            );
        }
    }
    let nums: Vec<u32> = std::str::from_utf8(params)
        .unwrap_or("")
        .split(';')
        .map(|n| {
            n.split(':')
                .next()
                .and_then(|x| x.parse().ok())
                .unwrap_or(0)
        })
        .collect();
    let modifier = nums.get(1).copied().unwrap_or(1);
    let base = match fin {
        b'A' => Some("Up"),
        b'B' => Some("Down"),
        b'C' => Some("Right"),
        b'D' => Some("Left"),
        b'H' => Some("Home"),
        b'F' => Some("End"),
        b'Z' => Some("BTab"),
        // F1, F2 and F4 with modifiers (F3's CSI R would read as a cursor report: 13 ~).
        b'P' => Some("F1"),
        b'Q' => Some("F2"),
        b'S' => Some("F4"),
        // The user's terminal gained or lost focus (1004).
        b'I' if len == 3 => Some("FocusIn"),
        b'O' if len == 3 => Some("FocusOut"),
        b'~' => match nums.first().copied().unwrap_or(0) {
            1 | 7 => Some("Home"),
            2 => Some("IC"),
            3 => Some("DC"),
            4 | 8 => Some("End"),
            5 => Some("PageUp"),
            6 => Some("PageDown"),
            n @ 11..=14 => ["F1", "F2", "F3", "F4"].get(n as usize - 11).copied(),
            15 => Some("F5"),
            17 => Some("F6"),
            18 => Some("F7"),
            19 => Some("F8"),
            20 => Some("F9"),
            21 => Some("F10"),
            23 => Some("F11"),
            24 => Some("F12"),
            // xterm's modifyOtherKeys form: CSI 27 ; modifiers ; code ~.
            27 => {
                let code = nums.get(2).copied().unwrap_or(0);
                let name = crate::pane_keys::codepoint_name(code);
                return Decoded::Event(key(with_mods(&name, modifier), &data[..len]), len);
            }
            _ => None,
        },
        b'u' => {
            // CSI u / kitty: codepoint ; modifiers.
            let name = crate::pane_keys::codepoint_name(nums.first().copied().unwrap_or(0));
            return Decoded::Event(key(with_mods(&name, modifier), &data[..len]), len);
        }
        _ => None,
    };
    let name = match base {
        Some(b) => with_mods(b, modifier),
        None => "Unknown".to_string(),
    };
    Decoded::Event(key(name, &data[..len]), len)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Inputs as short names: keys by their tmux name, mice and pastes spelled out.
    pub(crate) fn names(inputs: Vec<Input>) -> Vec<String> {
        inputs
            .into_iter()
            .map(|i| match i {
                Input::Key { name, .. } => name,
                Input::Mouse(m) => format!("mouse {} {},{}", m.code, m.col, m.row),
                Input::Paste(p) => format!("paste {}", String::from_utf8_lossy(&p)),
            })
            .collect()
    }

    #[test]
    fn user_keys_are_read_whole_across_reads_and_others_as_before() {
        let mut d = KeyDecoder::default();
        d.set_user_keys([
            (0, b"\x1b[5;30012~".to_vec()),
            (7, b"\x1b[Az".to_vec()),
            (8, Vec::new()),
        ]);
        assert_eq!(names(d.feed(b"a\x1b[5;30012~b")), ["a", "User0", "b"]);
        // Cut across reads: held, then whole.
        assert!(d.feed(b"\x1b[5;30").is_empty());
        assert_eq!(d.pending_escape(), Some(PendingEscape::Sequence));
        assert_eq!(names(d.feed(b"012~")), ["User0"]);
        // An arrow a user key begins with is the arrow when nothing follows it.
        assert_eq!(names(d.feed(b"\x1b[A")), ["Up"]);
        assert_eq!(names(d.feed(b"\x1b[Az\x1b[B")), ["User7", "Down"]);
        assert!(is_user_key("User999") && !is_user_key("User1000") && !is_user_key("Userx"));
        assert_eq!(normalize("User12").as_deref(), Ok("User12"));
    }

    #[test]
    fn decodes_keys() {
        let mut d = KeyDecoder::default();
        assert_eq!(names(d.feed(b"a\x02%\r")), ["a", "C-b", "%", "Enter"]);
        assert_eq!(
            names(d.feed(b"\x1b[A\x1b[1;5D\x1b[1;3C\x1bOP\x1b[15~")),
            ["Up", "C-Left", "M-Right", "F1", "F5"]
        );
        assert_eq!(names(d.feed(b"\x1bx\x1b")), ["M-x"]);
        assert_eq!(d.pending_escape(), Some(PendingEscape::Lone));
        assert_eq!(names(d.flush()), ["Escape"]);
        assert_eq!(d.pending_escape(), None);
        assert_eq!(
            names(d.feed(b"\x1b[97;5u\x1b[I\x1b[O")),
            ["C-a", "FocusIn", "FocusOut"]
        );
        assert_eq!(names(d.feed(b"\x1b[<0;10;5M")), ["mouse 0 9,4"]);
        assert_eq!(names(d.feed("é".as_bytes())), ["é"]);
        // Keys a kitty-protocol or modifyOtherKeys terminal tells apart keep their names.
        assert_eq!(
            names(d.feed(b"\x1b[105;5u\x1b[27;5;105~\x1b[9;5u\x1b[97;2u\x1b[97;9u\x1b\x02")),
            ["C-i", "C-i", "C-Tab", "A", "Super-a", "C-M-b"]
        );
        assert_eq!(
            names(d.feed(b"\x1b[1;5P\x1b[13;2~\x1b[1;3S")),
            ["C-F1", "S-F3", "M-F4"]
        );
    }

    #[test]
    fn sequences_split_across_reads() {
        let mut d = KeyDecoder::default();
        assert!(d.feed(b"\x1b[1;").is_empty());
        assert_eq!(names(d.feed(b"5A")), ["C-Up"]);
    }

    #[test]
    fn a_lone_esc_waits_for_the_rest_of_its_sequence() {
        let mut d = KeyDecoder::default();
        assert!(d.feed(b"\x1b").is_empty());
        assert_eq!(d.pending_escape(), Some(PendingEscape::Lone));
        assert_eq!(names(d.feed(b"[A")), ["Up"]);
        assert_eq!(d.pending_escape(), None);
        assert!(d.feed(b"a\x1b").len() == 1);
        assert_eq!(names(d.feed(b"x")), ["M-x"]);
        assert!(d.feed(b"\x1b").is_empty());
        assert_eq!(names(d.feed(b"\x1b")), ["Escape"]);
        assert_eq!(d.pending_escape(), Some(PendingEscape::Lone));
        assert!(d.flush().len() == 1 && d.flush().is_empty());
    }

    #[test]
    fn flushing_decides_what_a_held_esc_was() {
        let mut d = KeyDecoder::default();
        assert!(d.flush().is_empty(), "nothing held: nothing to flush");
        assert!(d.feed(b"\x1b[1;").is_empty());
        assert_eq!(d.pending_escape(), Some(PendingEscape::Sequence));
        assert_eq!(names(d.flush()), ["M-[", "1", ";"]);
        assert!(d.feed(b"\x1bO").is_empty());
        assert_eq!(names(d.flush()), ["M-O"]);
        assert!(d.feed(b"\x1b[1\x1b").is_empty());
        assert_eq!(names(d.flush()), ["M-[", "1", "Escape"]);
        // ESC and half a UTF-8 character: Escape; the character waits for its last byte.
        assert!(d.feed(b"\x1b\xc3").is_empty());
        assert_eq!(names(d.flush()), ["Escape"]);
        assert_eq!(d.pending_escape(), None);
        assert_eq!(names(d.feed(b"\xa9")), ["é"]);
        // The original bytes travel with the keys.
        assert!(d.feed(b"\x1b").is_empty());
        assert_eq!(
            d.flush(),
            [Input::Key {
                name: "Escape".into(),
                bytes: Bytes::from_static(b"\x1b")
            }]
        );
    }

    #[test]
    fn a_paste_end_marker_cut_short_is_not_an_escape() {
        let mut d = KeyDecoder::default();
        assert!(d.feed(b"\x1b[200~ab\x1b").is_empty());
        assert_eq!(d.pending_escape(), None);
        assert!(d.flush().is_empty());
        assert_eq!(names(d.feed(b"[201~")), ["paste ab"]);
    }

    #[test]
    fn a_paste_that_never_ends_goes_on_in_pieces() {
        let mut d = KeyDecoder::default();
        assert!(d.feed(b"\x1b[200~").is_empty());
        let chunk = vec![b'x'; 64 * 1024];
        let mut pieces = Vec::new();
        for _ in 0..(3 * MAX_PASTE_PIECE / chunk.len()) {
            pieces.extend(d.feed(&chunk));
        }
        pieces.extend(d.feed(b"tail\x1b[201~ok"));
        let sizes: Vec<usize> = pieces
            .iter()
            .map(|p| match p {
                Input::Paste(text) => text.len(),
                _ => 0,
            })
            .collect();
        assert_eq!(
            sizes,
            [MAX_PASTE_PIECE, MAX_PASTE_PIECE, MAX_PASTE_PIECE, 4, 0, 0],
            "three full pieces, the rest at the end marker, then the keys after it"
        );
        assert_eq!(
            names(pieces.split_off(4)),
            ["o", "k"],
            "nothing lost after the paste"
        );
    }

    #[test]
    fn bracketed_paste_is_one_event() {
        let mut d = KeyDecoder::default();
        assert_eq!(
            names(d.feed(b"\x1b[200~ab\x02c\x1b[20")),
            Vec::<String>::new()
        );
        assert_eq!(names(d.feed(b"1~x")), ["paste ab\x02c", "x"]);
    }
}
