//! Bytes a client sends a pane on the user's behalf: a paste (bracketed when the program
//! asked) and the prefix key (`send-prefix`).

use bytes::Bytes;

/// A paste as a program gets it: bracketed (`ESC [200~` ... `ESC [201~`) when it asked.
pub(super) fn pasted(text: &[u8], bracketed: bool) -> Bytes {
    let mut data = Vec::with_capacity(text.len() + 12);
    if bracketed {
        data.extend_from_slice(b"\x1b[200~");
    }
    data.extend_from_slice(text);
    if bracketed {
        data.extend_from_slice(b"\x1b[201~");
    }
    Bytes::from(data)
}

/// The bytes a key name stands for (the prefix, for `send-prefix`).
pub(super) fn encode_key_name(name: &str) -> Result<Vec<u8>, String> {
    if let Some(c) = name.strip_prefix("C-").filter(|c| c.len() == 1) {
        let b = c.as_bytes()[0].to_ascii_lowercase();
        if b.is_ascii_lowercase() {
            return Ok(vec![b - b'a' + 1]);
        }
    }
    if name.chars().count() == 1 {
        return Ok(name.as_bytes().to_vec());
    }
    Err(format!("cannot send {name}"))
}
