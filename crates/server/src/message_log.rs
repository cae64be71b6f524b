//! The messages shown to clients (`display-message`, errors, alerts), newest last, for
//! `show-messages`: at most `message-limit` of them, as tmux keeps them.

use std::collections::VecDeque;
use std::sync::Mutex;

/// The most messages kept whatever `message-limit` says, so a loop of messages cannot grow the
/// server's memory without bound.
pub const MAX_MESSAGES: usize = 100_000;
/// The longest message kept, in bytes (a longer one is cut at a character boundary).
pub const MAX_MESSAGE_BYTES: usize = 4096;

/// The log: when each message was shown (seconds since the epoch), and its text.
#[derive(Debug, Default)]
pub struct MessageLog {
    entries: Mutex<VecDeque<(i64, String)>>,
}

impl MessageLog {
    /// Keeps `text`, shown at `when` (seconds since the epoch), dropping the oldest beyond
    /// `limit`.
    pub fn push(&self, when: i64, text: &str, limit: usize) {
        let mut end = text.len().min(MAX_MESSAGE_BYTES);
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        let limit = limit.min(MAX_MESSAGES);
        let mut entries = self
            .entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        entries.push_back((when, text[..end].to_string()));
        while entries.len() > limit {
            entries.pop_front();
        }
    }

    /// Every message kept, oldest first.
    pub fn entries(&self) -> Vec<(i64, String)> {
        self.entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_newest_within_the_limit_and_cuts_long_ones() {
        let log = MessageLog::default();
        for i in 0..5 {
            log.push(i, &format!("m{i}"), 3);
        }
        let texts: Vec<String> = log.entries().into_iter().map(|(_, t)| t).collect();
        assert_eq!(texts, ["m2", "m3", "m4"]);
        log.push(9, &"é".repeat(MAX_MESSAGE_BYTES), 3);
        let (when, last) = log.entries().pop().unwrap();
        assert_eq!(when, 9);
        assert!(last.len() <= MAX_MESSAGE_BYTES && last.chars().all(|c| c == 'é'));
        log.push(10, "x", 0);
        assert!(log.entries().is_empty(), "a limit of 0 keeps none");
    }
}
