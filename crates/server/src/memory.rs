//! Giving freed memory back to the system.
//!
//! glibc's allocator keeps memory a program freed for its next allocations: after a big client
//! detaches (its frames were megabytes) or a flood ends, the server's RSS stays at its peak.
//! `malloc_trim` returns what is free at the top of the heap and in whole free pages. It walks
//! the heap, so it is called on rare events only (a client leaving, output going quiet after a
//! flood, start-up settled), never per frame. Other allocators return memory themselves:
//! there it does nothing.
//!
//! Also the end of start-up ([`start_is_over`]), when a server forked from its client lets go
//! of the pages only the client and start-up used.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;
use tokio::sync::Notify;

/// Returns memory the allocator holds but nobody uses to the system (glibc only).
#[allow(unsafe_code)]
pub fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only inspects and releases the allocator's own free memory; it is
    // safe to call from any thread at any time.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The server's start-up: whether it is over, and what the process lets go of once it has
/// settled (set by the program that runs the server, see [`after_start`]).
struct StartUp {
    over: std::sync::atomic::AtomicBool,
    forget: std::sync::OnceLock<fn()>,
}

/// The process's start-up (one server a process).
static START_UP: StartUp = StartUp::new();

/// Runs `forget` once start-up is over and has settled: [`START_SETTLE`] after the first frame
/// showing a pane's output (a first prompt) was written, or after a request was answered
/// without attaching (a detached `new`). A server forked from its client drops the client's
/// pages there, and with them all the code start-up ran: dropped at the fork, start-up read
/// much of it back; dropped at the first frame, what start-up still had to do (the rest of
/// the shell's first output, the terminal's answers) read its code back and kept it.
pub fn after_start(forget: fn()) {
    let _ = START_UP.forget.set(forget);
}

/// How long after the end of start-up its pages are dropped: the shell's first output and
/// the terminal's answers to the server's questions come within it, so what stays resident
/// afterwards is only what the server runs from then on. Measured on 2 cores: an idle
/// server keeps 2.8-3.1 MB when its start-up's pages are dropped this long after the first
/// prompt, 4.1-4.2 MB when dropped at it. One wake-up, once, in the server's life.
pub const START_SETTLE: Duration = Duration::from_millis(250);

/// A frame showing a pane's output was written, or a request answered: the first ends
/// start-up, and [`START_SETTLE`] later its pages go.
pub fn start_is_over() {
    START_UP.is_over();
}

impl StartUp {
    const fn new() -> Self {
        StartUp {
            over: std::sync::atomic::AtomicBool::new(false),
            forget: std::sync::OnceLock::new(),
        }
    }

    /// The first call ends start-up; later ones are one atomic load.
    fn is_over(&'static self) {
        if self.over.load(Ordering::Relaxed) || self.over.swap(true, Ordering::AcqRel) {
            return;
        }
        match tokio::runtime::Handle::try_current() {
            Ok(runtime) => {
                runtime.spawn(async move {
                    tokio::time::sleep(START_SETTLE).await; // deadline-ok: once, start-up settling
                    start_settled(self);
                });
            }
            Err(_) => start_settled(self),
        }
    }
}

/// Start-up has settled: its pages go. Never inlined, as `cargo xtask link-order` cuts its
/// profile of the server here (what runs after it goes first in the executable's layout).
#[inline(never)]
fn start_settled(start: &StartUp) {
    if let Some(forget) = start.forget.get() {
        forget();
    }
    // What start-up allocated and freed (the configuration's parse, the first frames).
    return_freed_memory();
}

/// Output read from panes after which memory is worth returning once output goes quiet: a
/// flood's chunks, the scrollback blocks it packed and the frames it drew leave that much and
/// more behind in the allocator, while typing and prompts never reach it.
pub const TRIM_EVERY_BYTES: u64 = 1024 * 1024;

/// How long output must have been quiet before memory is returned: a flood is trimmed once
/// after it ends, not during it. A trim takes about 0.5 ms after a million-line flood (1.4 ms
/// once `clear` freed that history), so a build printing in bursts may be trimmed after each.
pub const TRIM_AFTER_QUIET: Duration = Duration::from_millis(200);

/// At most this much output in [`TRIM_AFTER_QUIET`] still counts as quiet: a clock or a
/// status bar ticking in some pane does not keep the memory of a finished flood. Output is
/// reported in steps of this size, so quiet means at most one step.
pub const QUIET_BYTES: u64 = 64 * 1024;

/// A pane's reader adds its output to [`OUTPUT_VOLUME`] this much at a time: a keystroke's
/// echo then touches no memory shared between threads (the echo runs with cold caches).
pub const REPORT_BYTES: usize = QUIET_BYTES as usize;

/// Output all panes have read, and a wake-up each time it passes another
/// [`TRIM_EVERY_BYTES`].
#[derive(Debug)]
pub struct OutputVolume {
    bytes: AtomicU64,
    passed: Notify,
}

/// Process-wide, as the allocator whose memory it helps return is.
pub static OUTPUT_VOLUME: OutputVolume = OutputVolume::new();

impl OutputVolume {
    /// No output yet.
    pub const fn new() -> Self {
        OutputVolume {
            bytes: AtomicU64::new(0),
            passed: Notify::const_new(),
        }
    }

    /// A pane read `n` bytes.
    pub fn add(&self, n: usize) {
        let n = n as u64;
        let before = self.bytes.fetch_add(n, Ordering::Relaxed);
        if before / TRIM_EVERY_BYTES != (before + n) / TRIM_EVERY_BYTES {
            self.passed.notify_one();
        }
    }

    /// Bytes read so far.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }
}

impl Default for OutputVolume {
    fn default() -> Self {
        Self::new()
    }
}

/// Returns freed memory once output has gone quiet after a flood (see [`trim_when_quiet`]).
pub async fn trim_after_floods() {
    trim_when_quiet(&OUTPUT_VOLUME, return_freed_memory).await;
}

/// Calls `trim` each time output has gone quiet after passing another [`TRIM_EVERY_BYTES`].
/// Sleeps until then: an idle server gets no wake-ups from it, a flooding one one every
/// [`TRIM_AFTER_QUIET`].
pub async fn trim_when_quiet(volume: &OutputVolume, mut trim: impl FnMut()) {
    let mut trimmed_at = 0;
    loop {
        volume.passed.notified().await;
        // A wake-up left over from the flood already trimmed.
        if volume.bytes() - trimmed_at < TRIM_EVERY_BYTES {
            continue;
        }
        loop {
            let seen = volume.bytes();
            // The quiet window itself, measured only after a megabyte of output.
            tokio::time::sleep(TRIM_AFTER_QUIET).await; // deadline-ok: the quiet window
            if volume.bytes() - seen <= QUIET_BYTES {
                break;
            }
        }
        trimmed_at = volume.bytes();
        trim();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[tokio::test(start_paused = true)]
    async fn start_ups_pages_go_once_it_has_settled() {
        static FORGOTTEN: AtomicUsize = AtomicUsize::new(0);
        static START: StartUp = StartUp::new();
        let _ = START.forget.set(|| {
            FORGOTTEN.fetch_add(1, Ordering::SeqCst);
        });
        START.is_over();
        tokio::time::sleep(START_SETTLE - Duration::from_millis(1)).await; // deadline-ok: paused clock
        assert_eq!(
            FORGOTTEN.load(Ordering::SeqCst),
            0,
            "dropped before settling"
        );
        // Later frames neither drop again nor move the drop.
        START.is_over();
        tokio::time::sleep(Duration::from_millis(2)).await; // deadline-ok: paused clock
        assert_eq!(FORGOTTEN.load(Ordering::SeqCst), 1, "dropped once settled");
        START.is_over();
        tokio::time::sleep(START_SETTLE * 2).await; // deadline-ok: paused clock
        assert_eq!(FORGOTTEN.load(Ordering::SeqCst), 1, "dropped once only");
    }
    use std::sync::Arc;

    /// A volume with its trimmer running, and how many times it trimmed.
    fn trimmer() -> (Arc<OutputVolume>, Arc<AtomicUsize>) {
        let volume = Arc::new(OutputVolume::new());
        let trims = Arc::new(AtomicUsize::new(0));
        let (v, t) = (volume.clone(), trims.clone());
        tokio::spawn(async move {
            trim_when_quiet(&v, || {
                t.fetch_add(1, Ordering::Relaxed);
            })
            .await
        });
        (volume, trims)
    }

    async fn advance(by: Duration) {
        tokio::time::advance(by).await;
        tokio::task::yield_now().await;
    }

    #[tokio::test(start_paused = true)]
    async fn a_flood_is_trimmed_once_after_it_ends() {
        let (volume, trims) = trimmer();
        tokio::task::yield_now().await;
        // Three seconds of flood, 64 KiB every 10 ms.
        for _ in 0..300 {
            volume.add(64 * 1024);
            advance(Duration::from_millis(10)).await;
        }
        assert_eq!(trims.load(Ordering::Relaxed), 0, "trimmed during the flood");
        advance(TRIM_AFTER_QUIET).await;
        advance(TRIM_AFTER_QUIET).await;
        assert_eq!(trims.load(Ordering::Relaxed), 1);
        // Quiet from then on: no more trims.
        advance(TRIM_AFTER_QUIET * 10).await;
        assert_eq!(trims.load(Ordering::Relaxed), 1);
    }

    #[tokio::test(start_paused = true)]
    async fn typing_and_a_ticking_clock_never_trim() {
        let (volume, trims) = trimmer();
        tokio::task::yield_now().await;
        // A prompt and an echo now and then: far below the threshold.
        for _ in 0..1000 {
            volume.add(200);
            advance(Duration::from_millis(100)).await;
        }
        assert_eq!(trims.load(Ordering::Relaxed), 0);
    }

    #[tokio::test(start_paused = true)]
    async fn slow_output_after_a_flood_still_counts_as_quiet() {
        let (volume, trims) = trimmer();
        tokio::task::yield_now().await;
        volume.add(2 * 1024 * 1024);
        tokio::task::yield_now().await;
        // A status line redrawn every 100 ms (2 KB each) in another pane.
        for _ in 0..30 {
            volume.add(2 * 1024);
            advance(Duration::from_millis(100)).await;
        }
        assert_eq!(trims.load(Ordering::Relaxed), 1);
    }
}
