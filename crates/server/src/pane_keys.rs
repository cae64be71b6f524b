//! Keys re-encoded for the pane that receives them. The client's bytes are decoded into tmux
//! key names (see [`crate::keys`]); a pane whose program asked for the kitty keyboard
//! protocol or xterm's `modifyOtherKeys` gets each key in exactly that form, rebuilt from the
//! name and from what the user's terminal said beyond it (kitty's event type, shifted and
//! base-layout keys, text). Panes in legacy mode get the bytes as today.

use weft_screen_model::keyboard::{self, KeyAction, KeyCode, KeyEvent, KeyMods, KeyboardMode};

/// Modifier prefixes of key names, in the order names are written (`C-M-S-Super-Hyper-x`),
/// with their bits. tmux names `C-`, `M-` and `S-`; `Super-` and `Hyper-` are weft's, for keys
/// a kitty-protocol terminal reports with those modifiers.
pub const MODIFIER_PREFIXES: &[(&str, u8)] = &[
    ("C-", KeyMods::CTRL),
    ("M-", KeyMods::ALT),
    ("S-", KeyMods::SHIFT),
    ("Super-", KeyMods::SUPER),
    ("Hyper-", KeyMods::HYPER),
];

/// Splits `C-M-Up` into its modifier bits and `Up`. `Super-` is tried before `S-`.
pub fn split_modifiers(name: &str) -> (u8, &str) {
    let mut mods = 0;
    let mut rest = name;
    'outer: while rest.len() > 2 {
        for (prefix, bit) in MODIFIER_PREFIXES.iter().rev() {
            if let Some(r) = rest.strip_prefix(prefix) {
                mods |= bit;
                rest = r;
                continue 'outer;
            }
        }
        break;
    }
    (mods, rest)
}

/// The modifier prefixes for `mods`, in canonical order.
pub fn modifier_prefix(mods: u8) -> String {
    MODIFIER_PREFIXES
        .iter()
        .filter(|(_, bit)| mods & bit != 0)
        .map(|(prefix, _)| *prefix)
        .collect()
}

/// A key's name with its modifiers: kitty's modifier bits (shift 1, alt 2, ctrl 4, super 8,
/// hyper 16; the lock keys and kitty's own meta are not part of names). Shift on a letter
/// without control is the upper-case letter, as tmux names it (`M-A`, not `M-S-a`).
pub fn name_with_modifiers(base: &str, mods: u8) -> String {
    let mut mods =
        mods & (KeyMods::SHIFT | KeyMods::ALT | KeyMods::CTRL | KeyMods::SUPER | KeyMods::HYPER);
    let mut chars = base.chars();
    let base = match (chars.next(), chars.next()) {
        (Some(c), None)
            if c.is_ascii_lowercase()
                && mods & KeyMods::SHIFT != 0
                && mods & KeyMods::CTRL == 0 =>
        {
            mods &= !KeyMods::SHIFT;
            c.to_ascii_uppercase().to_string()
        }
        _ => base.to_string(),
    };
    format!("{}{base}", modifier_prefix(mods))
}

/// Code points the kitty protocol gives keys that type nothing (keypad, F13 and up, media,
/// lone modifiers) from Unicode's private use area.
pub const KITTY_PRIVATE_KEYS: std::ops::RangeInclusive<u32> = 57344..=63743;

/// The tmux name of a key kitty reports by a private-use code point: keypad keys as the keys
/// they type, `Unknown` for the others (F13 and up, media keys, a modifier pressed alone),
/// which no binding names and no pane is sent.
pub fn kitty_private_key_name(code: u32) -> &'static str {
    const KEYPAD: [&str; 29] = [
        "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", ".", "/", "*", "-", "+", "Enter", "=",
        ",", "Left", "Right", "Up", "Down", "PageUp", "PageDown", "Home", "End", "IC", "DC",
        "Unknown",
    ];
    match code {
        57399..=57427 => KEYPAD[(code - 57399) as usize],
        _ => "Unknown",
    }
}

/// The name of a key reported by its code point (kitty's `CSI u`, xterm's `CSI 27 ; m ; c ~`).
pub fn codepoint_name(code: u32) -> String {
    match code {
        13 => "Enter".to_string(),
        27 => "Escape".to_string(),
        9 => "Tab".to_string(),
        127 => "BSpace".to_string(),
        32 => "Space".to_string(),
        c if KITTY_PRIVATE_KEYS.contains(&c) => kitty_private_key_name(c).to_string(),
        c => char::from_u32(c)
            .filter(|c| !c.is_control())
            .map_or("Unknown".into(), |c| c.to_string()),
    }
}

/// The key a name stands for, or `None` for names that are not a key (`Unknown`, mouse).
pub fn key_of_name(name: &str) -> Option<KeyEvent> {
    let (mut mods, base) = split_modifiers(name);
    let code = match base {
        "Enter" => KeyCode::Enter,
        "Tab" => KeyCode::Tab,
        "BTab" => {
            mods |= KeyMods::SHIFT;
            KeyCode::Tab
        }
        "Escape" | "Esc" => KeyCode::Escape,
        "BSpace" => KeyCode::Backspace,
        "Space" => KeyCode::Char(' '),
        "Up" => KeyCode::Up,
        "Down" => KeyCode::Down,
        "Left" => KeyCode::Left,
        "Right" => KeyCode::Right,
        "Home" => KeyCode::Home,
        "End" => KeyCode::End,
        "IC" | "Insert" => KeyCode::Insert,
        "DC" | "Delete" => KeyCode::Delete,
        "PageUp" | "PgUp" | "PPage" => KeyCode::PageUp,
        "PageDown" | "PgDn" | "NPage" => KeyCode::PageDown,
        f if f.len() >= 2 && f.starts_with('F') => match f[1..].parse::<u8>() {
            Ok(n @ 1..=12) => KeyCode::F(n),
            _ => return None,
        },
        single => {
            let mut chars = single.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if !c.is_control() && c != '\u{fffd}' => KeyCode::Char(c),
                _ => return None,
            }
        }
    };
    Some(KeyEvent::new(code, mods))
}

/// What a kitty-protocol report (`CSI code[:shifted[:base]] ; mods[:event] ; text u`, or a
/// functional key's `CSI 1 ; mods:event A`) says beyond the key's name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KittyDetails {
    /// Press, repeat or release.
    pub action: KeyAction,
    /// The shifted key.
    pub shifted: Option<char>,
    /// The key at the same place on a US layout.
    pub base_layout: Option<char>,
    /// The text the key types.
    pub text: Option<String>,
}

/// Most text code points read from one report (a key types a grapheme, not a paragraph).
const MAX_REPORT_TEXT_CHARS: usize = 16;

/// The details of a kitty-protocol report, or `None` when `bytes` are not a CSI sequence.
pub fn kitty_details(bytes: &[u8]) -> Option<KittyDetails> {
    let body = bytes.strip_prefix(b"\x1b[")?;
    let (&fin, params) = body.split_last()?;
    if !(0x40..=0x7e).contains(&fin) || params.first().is_some_and(|b| !b.is_ascii_digit()) {
        return None;
    }
    let params = std::str::from_utf8(params).ok()?;
    let mut fields = params.split(';');
    let code_field = fields.next().unwrap_or("");
    let mods_field = fields.next().unwrap_or("");
    let text_field = fields.next().unwrap_or("");
    let char_of = |s: &str| s.parse::<u32>().ok().and_then(char::from_u32);
    let mut codes = code_field.split(':').skip(1);
    let shifted = codes.next().and_then(char_of);
    let base_layout = codes.next().and_then(char_of);
    let action = match mods_field.split(':').nth(1) {
        Some("2") => KeyAction::Repeat,
        Some("3") => KeyAction::Release,
        _ => KeyAction::Press,
    };
    let text: String = text_field
        .split(':')
        .filter_map(char_of)
        .filter(|c| !c.is_control())
        .take(MAX_REPORT_TEXT_CHARS)
        .collect();
    Some(KittyDetails {
        action,
        shifted,
        base_layout,
        text: (!text.is_empty()).then_some(text),
    })
}

/// Whether the user's terminal reported this key going up (kitty event type 3).
pub fn is_release(bytes: &[u8]) -> bool {
    kitty_details(bytes).is_some_and(|d| d.action == KeyAction::Release)
}

/// The bytes for a pane in `mode`, or `None` when the pane wants legacy keys (the caller sends
/// the terminal's own bytes) or the name is not a key weft can rebuild.
pub fn encode_for_pane(name: &str, bytes: &[u8], mode: KeyboardMode) -> Option<Vec<u8>> {
    if mode.is_legacy() {
        return None;
    }
    let mut key = key_of_name(name)?;
    if let Some(details) = kitty_details(bytes) {
        key.action = details.action;
        key.shifted = details.shifted;
        key.base_layout = details.base_layout;
        key.text = details.text;
    }
    Some(keyboard::encode(&key, &mode))
}

/// Whether `bytes` are a key in a form only a program that asked understands (kitty's `CSI u`,
/// `modifyOtherKeys`' `CSI 27 ; m ; c ~`, a kitty event type after a colon).
fn is_extended_form(bytes: &[u8]) -> bool {
    bytes.starts_with(b"\x1b[")
        && (bytes.ends_with(b"u")
            || (bytes.starts_with(b"\x1b[27;") && bytes.ends_with(b"~"))
            || bytes.contains(&b':'))
}

/// The keyboard mode a pane's program gets under tmux's `extended-keys`: `on` (what the
/// program asked for), `off` (legacy keys whatever it asked) or `always` (at least
/// `modifyOtherKeys` 2, so modified keys stay distinct for programs that never ask).
pub fn with_extended_keys(mut mode: KeyboardMode, option: Option<&str>) -> KeyboardMode {
    match option {
        Some("off") => {
            mode.kitty_flags = 0;
            mode.modify_other_keys = 0;
        }
        Some("always") if mode.kitty_flags == 0 => mode.modify_other_keys = 2,
        _ => {}
    }
    mode
}

/// DEL, the byte Backspace sends by default (tmux's `backspace` `C-?`).
pub const DEL: u8 = 0x7f;

/// tmux's `backspace`: the byte Backspace sends a program that takes legacy keys, from a key
/// name (`C-?`, the default, is DEL; `C-h` is BS); a key that is no single byte below DEL
/// is DEL, as tmux takes it.
pub fn backspace_byte(option: Option<&str>) -> u8 {
    option
        .and_then(|v| weft_protocol::keynames::encode_key(v.trim(), false))
        .and_then(|bytes| match bytes[..] {
            [b] if b < DEL => Some(b),
            _ => None,
        })
        .unwrap_or(DEL)
}

/// A legacy key's bytes with Backspace sending `backspace` instead of DEL (`M-BSpace` too).
pub fn with_backspace(name: &str, bytes: bytes::Bytes, backspace: u8) -> bytes::Bytes {
    if backspace == DEL {
        return bytes;
    }
    match (name, &bytes[..]) {
        ("BSpace", [DEL]) => bytes::Bytes::copy_from_slice(&[backspace]),
        ("M-BSpace", [0x1b, DEL]) => bytes::Bytes::copy_from_slice(&[0x1b, backspace]),
        _ => bytes,
    }
}

/// The bytes a key sends to a pane in `mode`: re-encoded for a program that asked for kitty
/// keys or `modifyOtherKeys`; for the others, the terminal's own bytes, or their legacy form
/// when the terminal sent an extended one. Empty for a release the program did not ask for,
/// and for a user key (`user-keys`) no binding took, as tmux sends those nowhere.
pub fn bytes_for_pane(name: &str, bytes: &bytes::Bytes, mode: KeyboardMode) -> bytes::Bytes {
    if crate::keys::is_user_key(name) {
        return bytes::Bytes::new();
    }
    if let Some(encoded) = encode_for_pane(name, bytes, mode) {
        return encoded.into();
    }
    if !is_extended_form(bytes) {
        return bytes.clone();
    }
    if is_release(bytes) {
        return bytes::Bytes::new();
    }
    if let Some(legacy) = weft_protocol::keynames::encode_key(name, mode.application_cursor) {
        return legacy.into();
    }
    match key_of_name(name) {
        Some(key) => keyboard::encode(&key, &mode).into(),
        None => bytes::Bytes::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kitty(flags: u8) -> KeyboardMode {
        KeyboardMode {
            kitty_flags: flags,
            ..KeyboardMode::default()
        }
    }

    #[test]
    fn names_split_and_join_in_one_order() {
        assert_eq!(
            split_modifiers("C-S-Left"),
            (KeyMods::CTRL | KeyMods::SHIFT, "Left")
        );
        assert_eq!(split_modifiers("Super-a"), (KeyMods::SUPER, "a"));
        assert_eq!(split_modifiers("S-Up"), (KeyMods::SHIFT, "Up"));
        assert_eq!(
            split_modifiers("C-"),
            (0, "C-"),
            "a lone prefix is the key itself"
        );
        assert_eq!(name_with_modifiers("Left", 5), "C-S-Left");
        assert_eq!(name_with_modifiers("a", 1), "A");
        assert_eq!(name_with_modifiers("a", 3), "M-A");
        assert_eq!(name_with_modifiers("a", 5), "C-S-a");
        assert_eq!(name_with_modifiers("a", 8 | 4), "C-Super-a");
        assert_eq!(
            name_with_modifiers("a", 64 | 128),
            "a",
            "lock keys are not in names"
        );
    }

    #[test]
    fn keys_stay_distinct_for_a_pane_that_asked() {
        let enc = |name: &str, bytes: &[u8], mode| {
            String::from_utf8(encode_for_pane(name, bytes, mode).unwrap()).unwrap()
        };
        assert_eq!(enc("C-i", b"\x1b[105;5u", kitty(1)), "\x1b[105;5u");
        assert_eq!(enc("Tab", b"\t", kitty(1)), "\t");
        assert_eq!(enc("C-Tab", b"\x1b[9;5u", kitty(1)), "\x1b[9;5u");
        assert_eq!(enc("C-m", b"\x1b[109;5u", kitty(1)), "\x1b[109;5u");
        assert_eq!(enc("Enter", b"\r", kitty(1)), "\r");
        assert_eq!(enc("Escape", b"\x1b", kitty(1)), "\x1b[27u");
        assert_eq!(enc("C-[", b"\x1b[91;5u", kitty(1)), "\x1b[91;5u");
        assert_eq!(enc("Super-a", b"\x1b[97;9u", kitty(1)), "\x1b[97;9u");
        assert_eq!(enc("C-S-Left", b"\x1b[1;6D", kitty(1)), "\x1b[1;6D");
        assert_eq!(enc("C-a", b"\x01", kitty(1)), "\x1b[97;5u");
        let mok2 = KeyboardMode {
            modify_other_keys: 2,
            ..KeyboardMode::default()
        };
        assert_eq!(enc("C-i", b"\x1b[105;5u", mok2), "\x1b[27;5;105~");
        assert_eq!(enc("Tab", b"\t", mok2), "\t");
        assert_eq!(
            encode_for_pane("C-i", b"\x1b[105;5u", KeyboardMode::default()),
            None
        );
    }

    #[test]
    fn what_the_terminal_said_beyond_the_name_reaches_the_pane() {
        let d = kitty_details(b"\x1b[97:65;2:3;65u").unwrap();
        assert_eq!(d.action, KeyAction::Release);
        assert_eq!((d.shifted, d.text.as_deref()), (Some('A'), Some("A")));
        assert!(is_release(b"\x1b[97;1:3u"));
        assert!(is_release(b"\x1b[1;1:3A"));
        assert!(!is_release(b"\x1b[97;5u"));
        assert!(!is_release(b"a"));
        assert_eq!(
            encode_for_pane("A", b"\x1b[97:65;2;65u", kitty(8 | 4 | 16)).unwrap(),
            b"\x1b[97:65;2;65u"
        );
        assert_eq!(
            encode_for_pane("C-a", b"\x1b[97;5:3u", kitty(1)).unwrap(),
            b"",
            "a release the pane did not ask for is not sent"
        );
        assert_eq!(
            encode_for_pane("C-a", b"\x1b[97;5:3u", kitty(3)).unwrap(),
            b"\x1b[97;5:3u"
        );
        assert_eq!(kitty_details(b"\x1b[?1u"), None, "not a key report");
    }

    #[test]
    fn keypad_keys_are_the_keys_they_type_and_lone_modifiers_are_nothing() {
        assert_eq!(kitty_private_key_name(57399), "0");
        assert_eq!(kitty_private_key_name(57414), "Enter");
        assert_eq!(kitty_private_key_name(57426), "DC");
        assert_eq!(kitty_private_key_name(57441), "Unknown", "left shift alone");
        let legacy = KeyboardMode::default();
        let shift = bytes::Bytes::from_static(b"\x1b[57441;2u");
        assert!(bytes_for_pane("Unknown", &shift, legacy).is_empty());
        assert!(bytes_for_pane("Unknown", &shift, kitty(8)).is_empty());
    }

    #[test]
    fn legacy_panes_get_legacy_bytes() {
        let legacy = KeyboardMode::default();
        let send = |name: &str, bytes: &'static [u8]| {
            bytes_for_pane(name, &bytes::Bytes::from_static(bytes), legacy)
        };
        assert_eq!(send("C-a", b"\x01"), &b"\x01"[..]);
        assert_eq!(
            send("Home", b"\x1b[H"),
            &b"\x1b[H"[..],
            "the terminal's own bytes"
        );
        assert_eq!(send("C-i", b"\x1b[105;5u"), &b"\x09"[..]);
        assert_eq!(send("C-Tab", b"\x1b[9;5u"), &b"\x09"[..]);
        assert_eq!(send("C-i", b"\x1b[27;5;105~"), &b"\x09"[..]);
        assert_eq!(send("Super-a", b"\x1b[97;9u"), &b"a"[..]);
        assert_eq!(send("C-a", b"\x1b[97;5:3u"), &b""[..], "no releases");
        assert_eq!(
            send("Up", b"\x1b[1;1:2A"),
            &b"\x1b[A"[..],
            "a repeat is a press"
        );
    }
}
