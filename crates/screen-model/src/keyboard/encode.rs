//! One key to bytes, in the form a program asked for: legacy (what xterm sends with no
//! extensions), xterm's `modifyOtherKeys` 1 and 2 (`CSI 27 ; mod ; code ~`, as xterm and
//! tmux 3.5 send it), or the kitty keyboard protocol with the flags the program set.

use super::{
    KeyAction, KeyCode, KeyEvent, KeyMods, KeyboardMode, KITTY_ALL_KEYS, KITTY_ALTERNATE_KEYS,
    KITTY_ASSOCIATED_TEXT, KITTY_DISAMBIGUATE, KITTY_EVENT_TYPES,
};
use std::fmt::Write;

/// The bytes `key` sends to a program in `mode`. Empty when the mode does not report the
/// event (a release the program did not ask for).
pub fn encode(key: &KeyEvent, mode: &KeyboardMode) -> Vec<u8> {
    if mode.kitty_flags != 0 {
        return kitty(key, mode.kitty_flags, mode.application_cursor);
    }
    if key.action == KeyAction::Release {
        return Vec::new();
    }
    if mode.modify_other_keys > 0 {
        if let Some(bytes) = modify_other_keys(key, mode.modify_other_keys) {
            return bytes;
        }
    }
    legacy(key, mode.application_cursor)
}

/// xterm's modifier parameter: 1 + shift, alt and control.
fn xterm_modifier(mods: KeyMods) -> u8 {
    1 + (mods.0 & (KeyMods::SHIFT | KeyMods::ALT | KeyMods::CTRL))
}

/// The legacy character of a control key, as xterm and tmux map them (`C-a` is 1, `C-[` and
/// `C-3` are ESC, `C-?` and `C-8` are DEL); `None` for a key control does not change.
fn control_byte(c: char) -> Option<u8> {
    Some(match c.to_ascii_lowercase() {
        c @ 'a'..='z' => c as u8 - b'a' + 1,
        '@' | ' ' | '2' | '`' => 0,
        '[' | '3' | '{' => 0x1b,
        '\\' | '4' | '|' => 0x1c,
        ']' | '5' | '}' => 0x1d,
        '^' | '6' | '~' => 0x1e,
        '_' | '7' | '/' => 0x1f,
        '?' | '8' => 0x7f,
        _ => return None,
    })
}

/// The character a key types with Shift on a US layout.
fn shifted_ascii(c: char) -> char {
    const PAIRS: &[(char, char)] = &[
        ('`', '~'),
        ('1', '!'),
        ('2', '@'),
        ('3', '#'),
        ('4', '$'),
        ('5', '%'),
        ('6', '^'),
        ('7', '&'),
        ('8', '*'),
        ('9', '('),
        ('0', ')'),
        ('-', '_'),
        ('=', '+'),
        ('[', '{'),
        (']', '}'),
        ('\\', '|'),
        (';', ':'),
        ('\'', '"'),
        (',', '<'),
        ('.', '>'),
        ('/', '?'),
    ];
    if c.is_ascii_lowercase() {
        return c.to_ascii_uppercase();
    }
    PAIRS
        .iter()
        .find(|(k, _)| *k == c)
        .map_or(c, |(_, shifted)| *shifted)
}

/// The key as the kitty protocol numbers it: letters by their unshifted key, so an upper-case
/// letter is its lower-case key with Shift.
fn unshifted(key: &KeyEvent) -> (char, KeyMods, Option<char>) {
    match key.code {
        KeyCode::Char(c) if c.is_ascii_uppercase() => (
            c.to_ascii_lowercase(),
            KeyMods(key.mods.0 | KeyMods::SHIFT),
            Some(key.shifted.unwrap_or(c)),
        ),
        KeyCode::Char(c) => (c, key.mods, key.shifted),
        _ => ('\0', key.mods, key.shifted),
    }
}

/// The text a key types: what the user's terminal said, else the character for a key with no
/// modifier but Shift.
fn typed_text(key: &KeyEvent) -> Option<String> {
    if let Some(text) = &key.text {
        return (!text.is_empty() && !text.chars().any(char::is_control)).then(|| text.clone());
    }
    let KeyCode::Char(c) = key.code else {
        return None;
    };
    if key.mods.0 & !KeyMods::SHIFT != 0 || c.is_control() {
        return None;
    }
    let c = if key.mods.has(KeyMods::SHIFT) {
        key.shifted.unwrap_or_else(|| shifted_ascii(c))
    } else {
        c
    };
    Some(c.to_string())
}

/// Legacy bytes: control characters, ESC for Alt, xterm's `CSI 1 ; m X` and `CSI n ; m ~`
/// for modified cursor and function keys. Modifiers legacy cannot carry are lost.
fn legacy(key: &KeyEvent, application_cursor: bool) -> Vec<u8> {
    let mods = key.mods;
    let alt = mods.has(KeyMods::ALT);
    let mut out = Vec::new();
    let prefix_alt = |out: &mut Vec<u8>| {
        if alt {
            out.push(0x1b);
        }
    };
    match key.code {
        KeyCode::Char(c) => {
            prefix_alt(&mut out);
            let ctrl = mods.has(KeyMods::CTRL).then(|| control_byte(c)).flatten();
            match ctrl {
                Some(b) => out.push(b),
                None => {
                    let c = match typed_text(&KeyEvent::new(key.code, mods.0 & KeyMods::SHIFT)) {
                        Some(text) => text,
                        None => c.to_string(),
                    };
                    out.extend_from_slice(c.as_bytes());
                }
            }
        }
        KeyCode::Enter => {
            prefix_alt(&mut out);
            out.push(b'\r');
        }
        KeyCode::Tab if mods.has(KeyMods::SHIFT) => {
            prefix_alt(&mut out);
            out.extend_from_slice(b"\x1b[Z");
        }
        KeyCode::Tab => {
            prefix_alt(&mut out);
            out.push(b'\t');
        }
        KeyCode::Backspace => {
            prefix_alt(&mut out);
            out.push(if mods.has(KeyMods::CTRL) { 0x08 } else { 0x7f });
        }
        KeyCode::Escape => {
            prefix_alt(&mut out);
            out.push(0x1b);
        }
        _ => return functional_legacy(key.code, mods, application_cursor),
    }
    out
}

/// The number and final byte a functional key is sent with (`CSI number ; m final`).
fn functional_code(code: KeyCode) -> Option<(u16, char)> {
    Some(match code {
        KeyCode::Up => (1, 'A'),
        KeyCode::Down => (1, 'B'),
        KeyCode::Right => (1, 'C'),
        KeyCode::Left => (1, 'D'),
        KeyCode::Home => (1, 'H'),
        KeyCode::End => (1, 'F'),
        KeyCode::Insert => (2, '~'),
        KeyCode::Delete => (3, '~'),
        KeyCode::PageUp => (5, '~'),
        KeyCode::PageDown => (6, '~'),
        KeyCode::F(1) => (1, 'P'),
        KeyCode::F(2) => (1, 'Q'),
        // CSI R would read as a cursor position report: kitty and xterm send 13 ~.
        KeyCode::F(3) => (13, '~'),
        KeyCode::F(4) => (1, 'S'),
        KeyCode::F(n @ 5..=12) => ([15, 17, 18, 19, 20, 21, 23, 24][usize::from(n - 5)], '~'),
        _ => return None,
    })
}

/// Cursor, editing and function keys in xterm's legacy forms (SS3 for unmodified cursor keys
/// in application mode and for F1 to F4).
fn functional_legacy(code: KeyCode, mods: KeyMods, application_cursor: bool) -> Vec<u8> {
    let Some((number, fin)) = functional_code(code) else {
        return Vec::new();
    };
    let m = xterm_modifier(mods);
    let is_cursor = matches!(
        code,
        KeyCode::Up | KeyCode::Down | KeyCode::Right | KeyCode::Left | KeyCode::Home | KeyCode::End
    );
    let ss3 = m == 1 && ((is_cursor && application_cursor) || matches!(code, KeyCode::F(1..=4)));
    if matches!(code, KeyCode::F(3)) && m == 1 {
        return b"\x1bOR".to_vec();
    }
    match (ss3, m, number) {
        (true, _, _) => format!("\x1bO{fin}"),
        (false, 1, 1) => format!("\x1b[{fin}"),
        (false, 1, n) => format!("\x1b[{n}{fin}"),
        (false, m, n) => format!("\x1b[{n};{m}{fin}"),
    }
    .into_bytes()
}

/// `modifyOtherKeys`: `CSI 27 ; m ; code ~` for modified keys legacy would lose or confuse.
/// Level 1 keeps the well-known legacy forms (`C-a`, `M-x`), level 2 reports every modified
/// key, as tmux 3.5 does. `None` when the legacy form applies.
fn modify_other_keys(key: &KeyEvent, level: u8) -> Option<Vec<u8>> {
    let mods = KeyMods(key.mods.0 & (KeyMods::SHIFT | KeyMods::ALT | KeyMods::CTRL));
    if mods.0 == 0 {
        return None;
    }
    let code = match key.code {
        KeyCode::Char(c) => c,
        KeyCode::Enter => '\r',
        KeyCode::Tab => '\t',
        KeyCode::Backspace => '\x7f',
        KeyCode::Escape => '\x1b',
        _ => return None,
    };
    // Shift alone on a character types the shifted character, as xterm sends it.
    if mods.only(KeyMods::SHIFT) && matches!(key.code, KeyCode::Char(c) if c != ' ') {
        return None;
    }
    if level == 1 {
        if key.code == KeyCode::Tab && mods.only(KeyMods::SHIFT) {
            return None;
        }
        if !mods.has(KeyMods::CTRL) && mods.has(KeyMods::ALT) {
            return None;
        }
        let well_known = matches!(code, ' ' | '/' | '@'..='~' | '2'..='8');
        if mods.has(KeyMods::CTRL) && well_known {
            return None;
        }
    }
    Some(format!("\x1b[27;{};{}~", xterm_modifier(mods), u32::from(code)).into_bytes())
}

/// Kitty's `CSI key[:shifted[:base]] ; mods[:event] ; text u` (or the key's own final byte).
struct KittyCsi {
    number: u32,
    shifted: Option<char>,
    base: Option<char>,
    mods: u8,
    action: Option<KeyAction>,
    text: Option<String>,
    fin: char,
}

impl KittyCsi {
    fn serialize(&self) -> Vec<u8> {
        let alternates = self.shifted.is_some() || self.base.is_some();
        let second = self.mods != 0 || self.action.is_some();
        let mut s = String::from("\x1b[");
        if self.number != 1 || alternates || second || self.text.is_some() {
            let _ = write!(s, "{}", self.number);
        }
        if alternates {
            s.push(':');
            if let Some(c) = self.shifted {
                let _ = write!(s, "{}", u32::from(c));
            }
            if let Some(c) = self.base {
                let _ = write!(s, ":{}", u32::from(c));
            }
        }
        if second || self.text.is_some() {
            s.push(';');
            if second {
                let _ = write!(s, "{}", self.mods + 1);
            }
            if let Some(action) = self.action {
                let _ = write!(s, ":{}", action as u8 + 1);
            }
        }
        if let Some(text) = &self.text {
            for (i, c) in text.chars().enumerate() {
                let sep = if i == 0 { ';' } else { ':' };
                let _ = write!(s, "{sep}{}", u32::from(c));
            }
        }
        s.push(self.fin);
        s.into_bytes()
    }
}

/// The kitty keyboard protocol with `flags`.
fn kitty(key: &KeyEvent, flags: u8, application_cursor: bool) -> Vec<u8> {
    let has = |f: u8| flags & f != 0;
    let events = has(KITTY_EVENT_TYPES);
    let all = has(KITTY_ALL_KEYS);
    if key.action == KeyAction::Release && !events {
        return Vec::new();
    }
    let action = (events && key.action != KeyAction::Press).then_some(key.action);
    match key.code {
        KeyCode::Char(_) => kitty_text_key(key, flags, action),
        code => {
            if key.action == KeyAction::Release
                && !all
                && matches!(code, KeyCode::Enter | KeyCode::Tab | KeyCode::Backspace)
            {
                return Vec::new();
            }
            kitty_functional(key, flags, action, application_cursor)
        }
    }
}

fn kitty_functional(
    key: &KeyEvent,
    flags: u8,
    action: Option<KeyAction>,
    application_cursor: bool,
) -> Vec<u8> {
    let disambiguate = flags & KITTY_DISAMBIGUATE != 0;
    let all = flags & KITTY_ALL_KEYS != 0;
    let mods = key.mods;
    if action.is_none() && mods.0 == 0 {
        let legacy_ok = match key.code {
            KeyCode::Escape => !disambiguate && !all,
            KeyCode::Enter | KeyCode::Tab | KeyCode::Backspace => !all,
            _ => !disambiguate && !all && flags & KITTY_EVENT_TYPES == 0 && application_cursor,
        };
        if legacy_ok {
            return legacy(key, application_cursor);
        }
    }
    if action.is_none() && !disambiguate && !all {
        let legacy_ok = match key.code {
            KeyCode::Tab | KeyCode::Enter | KeyCode::Backspace => mods.only(KeyMods::ALT),
            _ => false,
        } || (key.code == KeyCode::Tab && mods.only(KeyMods::SHIFT))
            || (key.code == KeyCode::Backspace && mods.only(KeyMods::CTRL));
        if legacy_ok {
            return legacy(key, application_cursor);
        }
    }
    let (number, fin) = match key.code {
        KeyCode::Escape => (27, 'u'),
        KeyCode::Enter => (13, 'u'),
        KeyCode::Tab => (9, 'u'),
        KeyCode::Backspace => (127, 'u'),
        code => match functional_code(code) {
            Some((n, f)) => (u32::from(n), f),
            None => return Vec::new(),
        },
    };
    KittyCsi {
        number,
        shifted: None,
        base: None,
        mods: mods.0,
        action,
        text: None,
        fin,
    }
    .serialize()
}

fn kitty_text_key(key: &KeyEvent, flags: u8, action: Option<KeyAction>) -> Vec<u8> {
    let disambiguate = flags & KITTY_DISAMBIGUATE != 0;
    let all = flags & KITTY_ALL_KEYS != 0;
    let text = typed_text(key);
    if !all && key.action != KeyAction::Release {
        if let Some(text) = &text {
            return text.clone().into_bytes();
        }
    }
    let (number, mods, shifted) = unshifted(key);
    let shifted = shifted
        .or_else(|| (mods.has(KeyMods::SHIFT) && number.is_ascii()).then(|| shifted_ascii(number)));
    let alternates = flags & KITTY_ALTERNATE_KEYS != 0;
    let report_shifted = alternates && mods.has(KeyMods::SHIFT) && shifted != Some(number);
    let base = key.base_layout.filter(|&b| alternates && b != number);
    let report_text =
        all && flags & KITTY_ASSOCIATED_TEXT != 0 && action != Some(KeyAction::Release);
    let csi = KittyCsi {
        number: u32::from(number),
        shifted: if report_shifted { shifted } else { None },
        base,
        mods: mods.0,
        action,
        text: if report_text { text } else { None },
        fin: 'u',
    };
    let simple =
        csi.action.is_none() && csi.shifted.is_none() && csi.base.is_none() && csi.text.is_none();
    if simple && !disambiguate && !all && mods.0 != 0 {
        // Flags that do not change how modified text keys are sent: their legacy form.
        return legacy(key, false);
    }
    csi.serialize()
}

#[cfg(test)]
#[path = "encode_tests.rs"]
mod tests;
