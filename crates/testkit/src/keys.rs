//! Key names as a test types them: words of tmux key names and text, to the bytes a terminal
//! sends.

use weft_protocol::keynames::encode_key;

/// A word that looks like a modified key (`C-…`, `M-…`) but names none.
///
/// ```
/// use weft_testkit::{encode_keys, KeyError};
/// assert_eq!(encode_keys("C-Foo", false), Err(KeyError("C-Foo".to_string())));
/// assert_eq!(KeyError("C-Foo".to_string()).to_string(), "unknown key name: C-Foo");
/// ```
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
///
/// ```
/// use weft_testkit::encode_keys;
/// assert_eq!(encode_keys("ls Enter", false)?, b"ls\r");
/// assert_eq!(encode_keys("C-c M-x", false)?, b"\x03\x1bx");
/// assert_eq!(encode_keys("Up", false)?, b"\x1b[A");
/// assert_eq!(encode_keys("Up", true)?, b"\x1bOA");
/// # Ok::<(), weft_testkit::KeyError>(())
/// ```
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
        assert_eq!(
            encode_keys("C-Foo", false),
            Err(KeyError("C-Foo".to_string()))
        );
        assert_eq!(
            encode_keys("C-Right M-Up", false).unwrap(),
            b"\x1b[1;5C\x1b[1;3A"
        );
    }
}
