//! tmux key names to bytes: `Enter`, `Escape`, `C-c`, `M-x`, `Up`, `F1`, `PageDown`, ...
//! Shared by `weft send-keys`, the client loop (keys sent as CSI u) and the test kit.

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
    fn key_names() {
        let key = |name| encode_key(name, false);
        assert_eq!(key("Enter").unwrap(), b"\r");
        assert_eq!(key("C-c").unwrap(), b"\x03");
        assert_eq!(key("M-x").unwrap(), b"\x1bx");
        assert_eq!(key("Up").unwrap(), b"\x1b[A");
        assert_eq!(encode_key("Up", true).unwrap(), b"\x1bOA");
        assert_eq!(key("F5").unwrap(), b"\x1b[15~");
        assert_eq!(key("PageDown").unwrap(), b"\x1b[6~");
        assert_eq!(key("C-Right").unwrap(), b"\x1b[1;5C");
        assert_eq!(key("M-Up").unwrap(), b"\x1b[1;3A");
        assert_eq!(key("C-Foo"), None);
        assert_eq!(key("ls"), None);
    }
}
