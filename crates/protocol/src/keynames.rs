//! tmux key names to bytes: `Enter`, `Escape`, `C-c`, `M-x`, `Up`, `F1`, `PageDown`, ...
//! Shared by `weft send-keys` and the test kit.

/// A key name this module does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyError(pub String);

impl std::fmt::Display for KeyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "unknown key name: {}", self.0)
    }
}

impl std::error::Error for KeyError {}

/// Encodes space-separated key names; a word that is not a key name is sent as text. With
/// `application_cursor`, arrows use SS3 forms as programs in that mode expect.
pub fn encode_keys(keys: &str, application_cursor: bool) -> Result<Vec<u8>, KeyError> {
    let mut out = Vec::new();
    for word in keys.split(' ').filter(|w| !w.is_empty()) {
        match encode_key(word, application_cursor) {
            Some(bytes) => out.extend_from_slice(&bytes),
            None if word.len() > 2 && (word.starts_with("C-") || word.starts_with("M-")) => {
                return Err(KeyError(word.to_string()))
            }
            None => out.extend_from_slice(word.as_bytes()),
        }
    }
    Ok(out)
}

/// One key name's bytes, or `None` when `name` is not a key name.
pub fn encode_key(name: &str, application_cursor: bool) -> Option<Vec<u8>> {
    // Modified special keys, as xterm sends them: CSI 1 ; m X or CSI n ; m ~.
    if let Some((mods, base)) = split_modifiers(name) {
        if let Some(seq) = modified_special(base, mods) {
            return Some(seq);
        }
    }
    if let Some(rest) = name.strip_prefix("M-") {
        let mut inner = encode_key(rest, application_cursor)
            .or_else(|| (rest.chars().count() == 1).then(|| rest.as_bytes().to_vec()))?;
        inner.insert(0, 0x1b);
        return Some(inner);
    }
    if let Some(rest) = name.strip_prefix("C-") {
        let mut chars = rest.chars();
        let c = chars.next()?;
        if chars.next().is_some() {
            return None;
        }
        let byte = match c.to_ascii_lowercase() {
            c @ 'a'..='z' => c as u8 - b'a' + 1,
            '@' | ' ' | '2' => 0,
            '[' | '3' => 0x1b,
            '\\' | '4' => 0x1c,
            ']' | '5' => 0x1d,
            '^' | '6' => 0x1e,
            '_' | '7' | '/' => 0x1f,
            '?' | '8' => 0x7f,
            _ => return None,
        };
        return Some(vec![byte]);
    }
    let arrow = |c: u8| {
        if application_cursor {
            vec![0x1b, b'O', c]
        } else {
            vec![0x1b, b'[', c]
        }
    };
    let bytes: Vec<u8> = match name {
        "Enter" => b"\r".to_vec(),
        "Escape" | "Esc" => b"\x1b".to_vec(),
        "Tab" => b"\t".to_vec(),
        "BTab" => b"\x1b[Z".to_vec(),
        "Space" => b" ".to_vec(),
        "BSpace" => b"\x7f".to_vec(),
        "Up" => arrow(b'A'),
        "Down" => arrow(b'B'),
        "Right" => arrow(b'C'),
        "Left" => arrow(b'D'),
        "Home" => b"\x1b[1~".to_vec(),
        "End" => b"\x1b[4~".to_vec(),
        "IC" | "Insert" => b"\x1b[2~".to_vec(),
        "DC" | "Delete" => b"\x1b[3~".to_vec(),
        "PageUp" | "PgUp" | "PPage" => b"\x1b[5~".to_vec(),
        "PageDown" | "PgDn" | "NPage" => b"\x1b[6~".to_vec(),
        "F1" => b"\x1bOP".to_vec(),
        "F2" => b"\x1bOQ".to_vec(),
        "F3" => b"\x1bOR".to_vec(),
        "F4" => b"\x1bOS".to_vec(),
        "F5" => b"\x1b[15~".to_vec(),
        "F6" => b"\x1b[17~".to_vec(),
        "F7" => b"\x1b[18~".to_vec(),
        "F8" => b"\x1b[19~".to_vec(),
        "F9" => b"\x1b[20~".to_vec(),
        "F10" => b"\x1b[21~".to_vec(),
        "F11" => b"\x1b[23~".to_vec(),
        "F12" => b"\x1b[24~".to_vec(),
        _ => return None,
    };
    Some(bytes)
}

/// `C-M-Up` -> (xterm modifier parameter, `Up`), when there is at least one modifier.
fn split_modifiers(name: &str) -> Option<(u8, &str)> {
    let mut bits = 0u8;
    let mut rest = name;
    loop {
        if let Some(r) = rest.strip_prefix("S-") {
            bits |= 1;
            rest = r;
        } else if let Some(r) = rest.strip_prefix("M-") {
            bits |= 2;
            rest = r;
        } else if let Some(r) = rest.strip_prefix("C-") {
            bits |= 4;
            rest = r;
        } else {
            break;
        }
    }
    (bits != 0 && !rest.is_empty()).then_some((bits + 1, rest))
}

fn modified_special(base: &str, m: u8) -> Option<Vec<u8>> {
    let letter = match base {
        "Up" => Some('A'),
        "Down" => Some('B'),
        "Right" => Some('C'),
        "Left" => Some('D'),
        "Home" => Some('H'),
        "End" => Some('F'),
        _ => None,
    };
    if let Some(l) = letter {
        return Some(format!("\x1b[1;{m}{l}").into_bytes());
    }
    let number = match base {
        "IC" | "Insert" => 2,
        "DC" | "Delete" => 3,
        "PageUp" | "PgUp" | "PPage" => 5,
        "PageDown" | "PgDn" | "NPage" => 6,
        "F5" => 15,
        "F6" => 17,
        "F7" => 18,
        "F8" => 19,
        "F9" => 20,
        "F10" => 21,
        "F11" => 23,
        "F12" => 24,
        _ => return None,
    };
    Some(format!("\x1b[{number};{m}~").into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_text() {
        assert_eq!(encode_keys("ls Enter", false).unwrap(), b"ls\r");
        assert_eq!(encode_keys("C-c", false).unwrap(), b"\x03");
        assert_eq!(encode_keys("M-x", false).unwrap(), b"\x1bx");
        assert_eq!(encode_keys("Up", false).unwrap(), b"\x1b[A");
        assert_eq!(encode_keys("Up", true).unwrap(), b"\x1bOA");
        assert_eq!(
            encode_keys("F5 PageDown", false).unwrap(),
            b"\x1b[15~\x1b[6~"
        );
        assert!(encode_keys("C-Foo", false).is_err());
        assert_eq!(
            encode_keys("C-Right M-Up", false).unwrap(),
            b"\x1b[1;5C\x1b[1;3A"
        );
    }
}
