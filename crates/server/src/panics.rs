//! Panics in the server, counted and kept for `weft diag`.
//!
//! A panic in a task ends that task (a client's connection, a renderer), not the server; its
//! message would go to the server's standard error, which points at /dev/null once the server
//! is ready. The hook installed here keeps the count and the last message where `weft diag`
//! shows them, and logs the panic to the trace, so a lost connection can be explained.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// The longest panic message kept: a message built from hostile input stays small.
const MAX_MESSAGE_BYTES: usize = 1024;

static COUNT: AtomicU64 = AtomicU64::new(0);
static LAST: Mutex<Option<String>> = Mutex::new(None);

/// Installs the hook for this process (before the previous one, which still runs).
pub fn install() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        record(&info.to_string());
        previous(info);
    }));
}

/// Counts one panic and keeps its message (cut to [`MAX_MESSAGE_BYTES`]).
fn record(message: &str) {
    COUNT.fetch_add(1, Ordering::Relaxed);
    let mut end = message.len().min(MAX_MESSAGE_BYTES);
    while !message.is_char_boundary(end) {
        end -= 1;
    }
    tracing::error!(message = &message[..end], "a server task panicked");
    if let Ok(mut last) = LAST.lock() {
        *last = Some(message[..end].to_string());
    }
}

/// How many panics this process has had, and the last one's message.
pub fn report() -> (u64, Option<String>) {
    let last = LAST.lock().ok().and_then(|l| l.clone());
    (COUNT.load(Ordering::Relaxed), last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_panic_is_counted_and_its_message_cut() {
        let before = report().0;
        record(&"é".repeat(MAX_MESSAGE_BYTES));
        let (count, last) = report();
        assert_eq!(count, before + 1);
        let last = last.unwrap_or_default();
        assert!(
            last.len() <= MAX_MESSAGE_BYTES && last.starts_with('é'),
            "{last}"
        );
    }
}
