//! Keys from a client's terminal: its answers to weft's queries taken out first, then the rest
//! decoded with the escape time applied.

use crate::config::Config;
use crate::deadline::Deadline;
use crate::keys::{Input, KeyDecoder, PendingEscape};
use crate::terminal::{Report, ReportFilter, ANSWER_END_WAIT};
use std::sync::Arc;
use tokio::sync::watch;
use tokio::time::Instant;

/// Answers kept until the connection takes them; a terminal sends a few dozen at most, and
/// more waiting are dropped.
const MAX_WAITING_REPORTS: usize = 64;

/// Keys from a client's terminal, decoded, with the escape time applied: an ESC that ends a
/// read waits up to `escape-time-ms` (as the configuration in force says at that moment) for
/// the rest of its sequence, and is decided when the time passes. The timer is armed only
/// then: ordinary keys never touch it, and nothing wakes a client that types nothing.
///
/// The terminal's answers to weft's queries come on the same input; they are taken out before
/// decoding ([`TerminalKeys::take_reports`]), so none reaches a pane as typed keys. An answer
/// cut short by the end of a read waits for its end at least [`ANSWER_END_WAIT`] (a lone ESC
/// or `ESC [`, which may be keys, only the escape time).
pub(super) struct TerminalKeys {
    reports: ReportFilter,
    answers: Vec<Report>,
    decoder: KeyDecoder,
    /// When held bytes are decided; unset while none are held.
    escape: Deadline,
    config: watch::Receiver<Arc<Config>>,
}

impl TerminalKeys {
    pub(super) fn new(mut config: watch::Receiver<Arc<Config>>) -> Self {
        let mut decoder = KeyDecoder::default();
        decoder.set_user_keys(user_keys(&config.borrow_and_update()));
        TerminalKeys {
            reports: ReportFilter::default(),
            answers: Vec::new(),
            decoder,
            escape: Deadline::new(),
            config,
        }
    }

    /// Decodes one read's bytes (with what an earlier read left).
    pub(super) fn feed(&mut self, bytes: &[u8]) -> Vec<Input> {
        if self.config.has_changed().unwrap_or(false) {
            let keys = user_keys(&self.config.borrow_and_update());
            self.decoder.set_user_keys(keys);
        }
        let filtered = self.reports.feed(bytes);
        let room = MAX_WAITING_REPORTS.saturating_sub(self.answers.len());
        self.answers.extend(filtered.reports.into_iter().take(room));
        let mut inputs = self.decoder.feed(&filtered.keys);
        let held = match self.reports.holding() {
            Some(len) if len > 2 => Some(PendingEscape::Sequence),
            Some(1) => Some(PendingEscape::Lone),
            Some(_) => self
                .decoder
                .pending_escape()
                .or(Some(PendingEscape::Sequence)),
            None => self.decoder.pending_escape(),
        };
        match held {
            None => self.escape.set(None),
            Some(held) => {
                let mut wait = self.config.borrow().escape_time;
                if self.reports.holding().is_some_and(|len| len > 2) {
                    wait = wait.max(ANSWER_END_WAIT);
                }
                if !wait.is_zero() {
                    self.escape.set(Some(Instant::now() + wait));
                } else {
                    // No escape time: a lone ESC is the Escape key at once; a sequence cut
                    // short still waits for the read that brings its end.
                    self.escape.set(None);
                    if held == PendingEscape::Lone {
                        inputs.extend(self.decoder.feed(&self.reports.flush()));
                        inputs.extend(self.decoder.flush());
                    }
                }
            }
        }
        inputs
    }

    /// The terminal's answers taken out of its input since the last call.
    pub(super) fn take_reports(&mut self) -> Vec<Report> {
        std::mem::take(&mut self.answers)
    }

    /// Resolves when held bytes' time has passed, with the keys they turned out to be; never
    /// while none are held. Cancel-safe: nothing changes before the time is up.
    pub(super) async fn escape_due(&mut self) -> Vec<Input> {
        self.escape.wait().await;
        self.escape.set(None);
        let mut inputs = self.decoder.feed(&self.reports.flush());
        inputs.extend(self.decoder.flush());
        inputs
    }
}

/// tmux's `user-keys`: each element's bytes, by index.
fn user_keys(config: &Config) -> Vec<(usize, Vec<u8>)> {
    config
        .array_elements("user-keys")
        .into_iter()
        .map(|(i, seq)| (i, seq.into_bytes()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::tests::names;
    use std::time::Duration;
    use tokio::time::timeout;

    fn keys_with(escape_ms: u64) -> (TerminalKeys, watch::Sender<Arc<Config>>) {
        let config = Config {
            escape_time: Duration::from_millis(escape_ms),
            ..Config::default()
        };
        let (tx, rx) = watch::channel(Arc::new(config));
        (TerminalKeys::new(rx), tx)
    }

    /// Whether the escape time fires within `within` (the clock is paused: it jumps).
    async fn fires_within(keys: &mut TerminalKeys, within: Duration) -> Option<Vec<String>> {
        timeout(within, keys.escape_due()).await.ok().map(names)
    }

    #[tokio::test(start_paused = true)]
    async fn a_lone_esc_becomes_escape_when_the_escape_time_has_passed() {
        let (mut keys, _config) = keys_with(10);
        let start = Instant::now();
        assert!(keys.feed(b"\x1b").is_empty());
        assert_eq!(
            fires_within(&mut keys, Duration::from_millis(9)).await,
            None
        );
        assert_eq!(keys.escape_due().await.len(), 1);
        assert_eq!(Instant::now(), start + Duration::from_millis(10));
        assert_eq!(
            fires_within(&mut keys, Duration::from_secs(3600)).await,
            None,
            "decided once, then nothing is held"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn the_rest_of_a_sequence_within_the_escape_time_completes_it() {
        let (mut keys, _config) = keys_with(10);
        assert!(keys.feed(b"\x1b").is_empty());
        tokio::time::advance(Duration::from_millis(5)).await;
        assert_eq!(names(keys.feed(b"[A")), ["Up"]);
        assert!(keys.feed(b"\x1b").is_empty());
        tokio::time::advance(Duration::from_millis(9)).await;
        assert_eq!(names(keys.feed(b"x")), ["M-x"]);
        assert_eq!(
            fires_within(&mut keys, Duration::from_secs(3600)).await,
            None,
            "no timer left behind"
        );
        // A sequence cut short is decided at the escape time too.
        assert!(keys.feed(b"\x1b[1;").is_empty());
        assert_eq!(
            fires_within(&mut keys, Duration::from_millis(10)).await,
            Some(vec!["M-[".into(), "1".into(), ";".into()])
        );
    }

    #[tokio::test(start_paused = true)]
    async fn ordinary_keys_arm_no_timer() {
        let (mut keys, _config) = keys_with(10);
        assert_eq!(names(keys.feed(b"a\x1b[B\r")), ["a", "Down", "Enter"]);
        assert_eq!(
            fires_within(&mut keys, Duration::from_secs(3600)).await,
            None
        );
    }

    #[tokio::test(start_paused = true)]
    async fn the_escape_time_is_read_from_the_configuration_in_force() {
        let (mut keys, config) = keys_with(10);
        // As `source-file` does: a new configuration.
        config.send_replace(Arc::new(Config {
            escape_time: Duration::from_millis(500),
            ..Config::default()
        }));
        let start = Instant::now();
        assert!(keys.feed(b"\x1b").is_empty());
        assert_eq!(names(keys.escape_due().await), ["Escape"]);
        assert_eq!(Instant::now(), start + Duration::from_millis(500));
        // Zero: a lone ESC is the Escape key at once, and a cut sequence waits for its end.
        config.send_replace(Arc::new(Config {
            escape_time: Duration::ZERO,
            ..Config::default()
        }));
        assert_eq!(names(keys.feed(b"a\x1b")), ["a", "Escape"]);
        assert!(keys.feed(b"\x1b[1;").is_empty());
        assert_eq!(
            fires_within(&mut keys, Duration::from_secs(3600)).await,
            None
        );
        assert_eq!(names(keys.feed(b"5A")), ["C-Up"]);
    }

    #[tokio::test(start_paused = true)]
    async fn answers_are_taken_out_and_a_cut_one_waits_for_its_end() {
        let (mut keys, _config) = keys_with(10);
        assert_eq!(names(keys.feed(b"a\x1b[?62;22cb")), ["a", "b"]);
        assert_eq!(
            keys.take_reports(),
            [Report::PrimaryAttributes(vec![62, 22])]
        );
        // An answer cut short waits longer than the escape time for its end...
        assert!(keys.feed(b"\x1b]11;rgb:ff").is_empty());
        assert_eq!(
            fires_within(&mut keys, Duration::from_millis(50)).await,
            None
        );
        assert_eq!(names(keys.feed(b"ff/ffff/ffff\x07x")), ["x"]);
        assert_eq!(keys.take_reports().len(), 1);
        // ...but not for ever: then its bytes are keys after all.
        assert!(keys.feed(b"\x1b[?6").is_empty());
        let start = Instant::now();
        assert!(!keys.escape_due().await.is_empty());
        assert_eq!(Instant::now(), start + ANSWER_END_WAIT);
        // A lone ESC is still the Escape key at the escape time.
        assert!(keys.feed(b"\x1b").is_empty());
        assert_eq!(
            fires_within(&mut keys, Duration::from_millis(10)).await,
            Some(vec!["Escape".into()])
        );
    }
}
