//! Waiting on an optional deadline, the one timer shape the server's select loops use.

use tokio::time::Instant;

/// An optional deadline that a select loop waits on across iterations, with one timer entry
/// kept for the loop's life. A `sleep_until` made afresh every iteration registers its timer
/// again each time, and tokio wakes the reactor thread to learn about it: one needless thread
/// wake-up per loop turn (per keystroke, for the render task's clock).
#[derive(Debug)]
pub(crate) struct Deadline {
    at: Option<Instant>,
    sleep: std::pin::Pin<Box<tokio::time::Sleep>>,
}

impl Deadline {
    /// No deadline yet.
    pub(crate) fn new() -> Self {
        Deadline {
            at: None,
            // Not registered until first polled, which happens only after `set`.
            sleep: Box::pin(tokio::time::sleep_until(Instant::now())),
        }
    }

    /// Moves the deadline. A later one only extends the timer entry; an earlier one re-registers
    /// it. Without a deadline the entry is left alone (not polled, so at worst it wakes the task
    /// once at its old time).
    pub(crate) fn set(&mut self, at: Option<Instant>) {
        if at == self.at {
            return;
        }
        self.at = at;
        if let Some(at) = at {
            if at > Instant::now() {
                self.sleep.as_mut().reset(at);
            }
        }
    }

    /// Resolves when the deadline is due (at once if it already is); never without one.
    pub(crate) async fn wait(&mut self) {
        match self.at {
            // Due already: at once. tokio's timer rounds up to whole milliseconds, which would
            // add up to 1 ms to every echo.
            Some(d) if d <= Instant::now() => {}
            Some(_) => (&mut self.sleep).await,
            None => std::future::pending().await,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test(start_paused = true)]
    async fn waits_for_the_latest_deadline_and_never_without_one() {
        let mut deadline = Deadline::new();
        assert!(
            tokio::time::timeout(Duration::from_secs(3600), deadline.wait())
                .await
                .is_err(),
            "no deadline: never due"
        );
        let start = Instant::now();
        deadline.set(Some(start + Duration::from_millis(50)));
        deadline.set(Some(start + Duration::from_millis(20)));
        deadline.wait().await;
        assert_eq!(Instant::now(), start + Duration::from_millis(20));
        deadline.set(Some(start + Duration::from_millis(80)));
        deadline.wait().await;
        assert_eq!(Instant::now(), start + Duration::from_millis(80));
        // Due already: at once.
        deadline.set(Some(start));
        let before = Instant::now();
        deadline.wait().await;
        assert_eq!(Instant::now(), before);
    }
}
