//! Names and titles as the user sees them: no control characters and no bidirectional
//! overrides (nothing a name holds can reach the user's terminal as a sequence or reorder what
//! is printed after it), and a length cap.

/// Longest session or window name kept, in characters.
pub const MAX_NAME_CHARS: usize = 256;

/// Whether `c` may not appear in a name: C0 and C1 controls, DEL, and the bidirectional
/// embedding, override and isolate controls (U+202A-202E, U+2066-2069).
pub fn is_forbidden(c: char) -> bool {
    c.is_control()
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

/// `name` without forbidden characters, cut to `max` characters.
pub fn clean(name: &str, max: usize) -> String {
    name.chars()
        .filter(|c| !is_forbidden(*c))
        .take(max)
        .collect()
}

/// A session or window name: [`clean`] to [`MAX_NAME_CHARS`].
pub fn clean_name(name: &str) -> String {
    clean(name, MAX_NAME_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_overrides_are_removed_and_length_capped() {
        assert_eq!(clean_name("n\x1b]2;X\x07\x1b[31mRED"), "n]2;X[31mRED");
        assert_eq!(
            clean_name("w\u{202e}txt.exe\u{2066}\u{7f}\u{9b}"),
            "wtxt.exe"
        );
        assert_eq!(clean_name("ok name"), "ok name");
        assert_eq!(
            clean_name(&"x".repeat(1000)).chars().count(),
            MAX_NAME_CHARS
        );
    }
}
