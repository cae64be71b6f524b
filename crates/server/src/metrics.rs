//! Always-on figures for `weft diag`: per stage busy / idle (waiting on an empty input) /
//! blocked (waiting on a full output) time, items and bytes; latency histograms.
//!
//! Everything is a relaxed atomic: recording costs a few nanoseconds and never waits, so the
//! figures stay on in production (the cost is measured by the benchmark).

use crate::ids::{ClientId, PaneId};
use serde::Serialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, Weak};
use std::time::{Duration, Instant};

/// Whether figures are recorded (the `metrics` feature, on by default; off only to measure
/// what recording costs).
pub const ENABLED: bool = cfg!(feature = "metrics");

/// A moment for timing a stage; nothing at all when metrics are off.
#[derive(Clone, Copy, Debug)]
pub struct Tick(#[cfg(feature = "metrics")] Instant);

impl Tick {
    /// Now.
    #[inline]
    pub fn now() -> Tick {
        Tick(
            #[cfg(feature = "metrics")]
            Instant::now(),
        )
    }

    /// Time since this tick (zero when metrics are off).
    #[inline]
    pub fn elapsed(&self) -> Duration {
        #[cfg(feature = "metrics")]
        {
            self.0.elapsed()
        }
        #[cfg(not(feature = "metrics"))]
        {
            Duration::ZERO
        }
    }
}

impl std::ops::Sub for Tick {
    type Output = Duration;

    #[inline]
    fn sub(self, earlier: Tick) -> Duration {
        #[cfg(feature = "metrics")]
        {
            self.0.saturating_duration_since(earlier.0)
        }
        #[cfg(not(feature = "metrics"))]
        {
            let _ = earlier;
            Duration::ZERO
        }
    }
}

/// Nanoseconds since the server started, for timestamps that fit an atomic.
pub fn now_ns() -> u64 {
    static START: std::sync::OnceLock<Instant> = std::sync::OnceLock::new();
    let start = *START.get_or_init(Instant::now);
    Instant::now().duration_since(start).as_nanos() as u64
}

/// Time and work of one pipeline stage.
#[derive(Debug, Default)]
pub struct Stage {
    busy_ns: AtomicU64,
    idle_ns: AtomicU64,
    blocked_ns: AtomicU64,
    items: AtomicU64,
    bytes: AtomicU64,
    /// When the stage last finished an item ([`now_ns`]; 0: not idle yet). Kept here, not by
    /// the task, because more than one task does some stages' work (the pty reader parses an
    /// echo itself, the pane's reader draws it), and each must see the others' idle start.
    idle_from_ns: AtomicU64,
}

impl Stage {
    /// Time spent working.
    pub fn busy(&self, d: Duration) {
        if !ENABLED {
            return;
        }
        self.busy_ns
            .fetch_add(d.as_nanos() as u64, Ordering::Relaxed);
    }

    /// Time spent waiting for input.
    pub fn idle(&self, d: Duration) {
        if !ENABLED {
            return;
        }
        self.idle_ns
            .fetch_add(d.as_nanos() as u64, Ordering::Relaxed);
    }

    /// The stage's idle time ends now (work on an item begins), whichever task finished last.
    pub fn idle_ends(&self) {
        if !ENABLED {
            return;
        }
        let from = self.idle_from_ns.swap(0, Ordering::AcqRel);
        if from != 0 {
            self.idle(Duration::from_nanos(now_ns().saturating_sub(from)));
        }
    }

    /// The stage's idle time starts now (it finished an item, or found nothing to do).
    pub fn idle_starts(&self) {
        if !ENABLED {
            return;
        }
        self.idle_from_ns.store(now_ns().max(1), Ordering::Release);
    }

    /// Work that began at `started` ends now: busy until now, idle from now. Returns the busy
    /// time (zero when metrics are off).
    pub fn busy_since(&self, started: Tick) -> Duration {
        let took = started.elapsed();
        self.busy(took);
        self.idle_starts();
        took
    }

    /// Time spent waiting for room downstream.
    pub fn blocked(&self, d: Duration) {
        if !ENABLED {
            return;
        }
        self.blocked_ns
            .fetch_add(d.as_nanos() as u64, Ordering::Relaxed);
    }

    /// One item of `bytes` bytes handled.
    pub fn item(&self, bytes: usize) {
        if !ENABLED {
            return;
        }
        self.items.fetch_add(1, Ordering::Relaxed);
        self.bytes.fetch_add(bytes as u64, Ordering::Relaxed);
    }

    fn reset(&self) {
        for a in [
            &self.busy_ns,
            &self.idle_ns,
            &self.blocked_ns,
            &self.items,
            &self.bytes,
        ] {
            a.store(0, Ordering::Relaxed);
        }
    }

    /// A copy for reporting.
    pub fn report(&self) -> StageReport {
        let ms = |a: &AtomicU64| a.load(Ordering::Relaxed) as f64 / 1e6;
        let (busy, idle, blocked) = (ms(&self.busy_ns), ms(&self.idle_ns), ms(&self.blocked_ns));
        let total = (busy + idle + blocked).max(f64::MIN_POSITIVE);
        StageReport {
            busy_ms: busy,
            idle_ms: idle,
            blocked_ms: blocked,
            busy_pct: 100.0 * busy / total,
            idle_pct: 100.0 * idle / total,
            blocked_pct: 100.0 * blocked / total,
            items: self.items.load(Ordering::Relaxed),
            bytes: self.bytes.load(Ordering::Relaxed),
        }
    }
}

/// A stage's figures.
#[derive(Debug, Clone, Serialize)]
pub struct StageReport {
    /// Working, ms.
    pub busy_ms: f64,
    /// Waiting for input, ms.
    pub idle_ms: f64,
    /// Waiting for room downstream, ms.
    pub blocked_ms: f64,
    /// Shares of the time accounted for.
    pub busy_pct: f64,
    /// See `busy_pct`.
    pub idle_pct: f64,
    /// See `busy_pct`.
    pub blocked_pct: f64,
    /// Items handled (chunks, frames, writes).
    pub items: u64,
    /// Bytes handled.
    pub bytes: u64,
}

/// Buckets of the latency histogram: 4 per power of two from 1 µs, up to about 70 minutes.
const BUCKETS: usize = 4 * 32;

/// A latency histogram in microseconds, log-bucketed (about 19% resolution).
#[derive(Debug)]
pub struct Histogram {
    buckets: [AtomicU64; BUCKETS],
    count: AtomicU64,
    max_us: AtomicU64,
}

impl Default for Histogram {
    fn default() -> Self {
        Histogram {
            buckets: std::array::from_fn(|_| AtomicU64::new(0)),
            count: AtomicU64::new(0),
            max_us: AtomicU64::new(0),
        }
    }
}

fn bucket_of(us: u64) -> usize {
    if us < 2 {
        return us as usize;
    }
    let log = 63 - us.leading_zeros() as usize;
    let sub = ((us >> (log.saturating_sub(2))) & 3) as usize;
    (log * 4 + sub).min(BUCKETS - 1)
}

fn bucket_floor(b: usize) -> u64 {
    if b < 2 {
        return b as u64;
    }
    let (log, sub) = (b / 4, (b % 4) as u64);
    (1u64 << log) + (sub << log.saturating_sub(2))
}

impl Histogram {
    /// Records one latency.
    pub fn record(&self, d: Duration) {
        if !ENABLED {
            return;
        }
        let us = d.as_micros() as u64;
        self.buckets[bucket_of(us)].fetch_add(1, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
        self.max_us.fetch_max(us, Ordering::Relaxed);
    }

    fn reset(&self) {
        self.buckets
            .iter()
            .for_each(|b| b.store(0, Ordering::Relaxed));
        self.count.store(0, Ordering::Relaxed);
        self.max_us.store(0, Ordering::Relaxed);
    }

    /// Percentiles in milliseconds.
    pub fn report(&self) -> LatencyReport {
        let counts: Vec<u64> = self
            .buckets
            .iter()
            .map(|b| b.load(Ordering::Relaxed))
            .collect();
        let total: u64 = counts.iter().sum();
        let pct = |p: f64| -> f64 {
            if total == 0 {
                return 0.0;
            }
            let want = ((total as f64) * p).ceil().max(1.0) as u64;
            let mut seen = 0;
            for (b, c) in counts.iter().enumerate() {
                seen += c;
                if seen >= want {
                    return bucket_floor(b) as f64 / 1000.0;
                }
            }
            0.0
        };
        LatencyReport {
            count: total,
            p50_ms: pct(0.50),
            p90_ms: pct(0.90),
            p99_ms: pct(0.99),
            max_ms: self.max_us.load(Ordering::Relaxed) as f64 / 1000.0,
        }
    }
}

/// Latency percentiles.
#[derive(Debug, Clone, Serialize)]
pub struct LatencyReport {
    /// Samples.
    pub count: u64,
    /// Median, ms.
    pub p50_ms: f64,
    /// 90th percentile, ms.
    pub p90_ms: f64,
    /// 99th percentile, ms.
    pub p99_ms: f64,
    /// Largest, ms.
    pub max_ms: f64,
}

/// One pane's figures.
#[derive(Debug, Default)]
pub struct PaneMetrics {
    /// Reading the pty.
    pub pty_read: Stage,
    /// Parsing into the screen.
    pub parse: Stage,
    /// Program output read -> first frame showing it written to a client.
    pub bytes_to_screen: Histogram,
    /// Key arrived from a client -> first frame showing the pane's response.
    pub keystroke_to_echo: Histogram,
    /// Read time of the oldest output not yet shown (0: all shown).
    pub unshown_since_ns: AtomicU64,
    /// Arrival time of the oldest key whose echo is not shown yet (0: none).
    pub key_since_ns: AtomicU64,
    /// Reply bytes dropped because the program's input stayed full.
    pub dropped_reply_bytes: AtomicU64,
    /// Events (bells, clipboard writes, ...) dropped because the program sent more than the
    /// session could take.
    pub dropped_events: AtomicU64,
    /// Unterminated strings given up on (the output after them was swallowed meanwhile).
    pub abandoned_strings: AtomicU64,
    /// Output bytes `pipe-pane` dropped because its command did not read them in time.
    pub dropped_pipe_bytes: AtomicU64,
    /// Output bytes a recording (`record-pane`) dropped because its recorder fell behind.
    pub dropped_record_bytes: AtomicU64,
}

impl PaneMetrics {
    /// Output read at `read_ns` reached the screen model.
    pub fn output_applied(&self, read_ns: u64) {
        if !ENABLED {
            return;
        }
        let _ = self.unshown_since_ns.compare_exchange(
            0,
            read_ns.max(1),
            Ordering::AcqRel,
            Ordering::Relaxed,
        );
    }

    /// A key for this pane arrived.
    pub fn key_arrived(&self) {
        if !ENABLED {
            return;
        }
        let _ = self.key_since_ns.compare_exchange(
            0,
            now_ns().max(1),
            Ordering::AcqRel,
            Ordering::Relaxed,
        );
    }

    /// A frame showing this pane's latest state went out: records the latencies it ends.
    pub fn shown(&self, client: &ClientMetrics) {
        if !ENABLED {
            return;
        }
        let now = now_ns();
        let unshown = self.unshown_since_ns.swap(0, Ordering::AcqRel);
        if unshown != 0 {
            let d = Duration::from_nanos(now.saturating_sub(unshown));
            self.bytes_to_screen.record(d);
            client.bytes_to_screen.record(d);
            let key = self.key_since_ns.swap(0, Ordering::AcqRel);
            if key != 0 {
                let d = Duration::from_nanos(now.saturating_sub(key));
                self.keystroke_to_echo.record(d);
                client.keystroke_to_echo.record(d);
            }
        }
    }

    fn reset(&self) {
        self.pty_read.reset();
        self.parse.reset();
        self.bytes_to_screen.reset();
        self.keystroke_to_echo.reset();
        self.dropped_reply_bytes.store(0, Ordering::Relaxed);
        self.dropped_events.store(0, Ordering::Relaxed);
        self.abandoned_strings.store(0, Ordering::Relaxed);
        self.dropped_pipe_bytes.store(0, Ordering::Relaxed);
        self.dropped_record_bytes.store(0, Ordering::Relaxed);
    }
}

/// One client's figures.
#[derive(Debug, Default)]
pub struct ClientMetrics {
    /// Composing and rendering frames.
    pub render: Stage,
    /// Writing frames to the client's socket.
    pub write: Stage,
    /// Renders that waited because the client had not taken the previous frame.
    pub frames_skipped: AtomicU64,
    /// Output read -> a frame showing it written to this client.
    pub bytes_to_screen: Histogram,
    /// Key -> echo shown to this client.
    pub keystroke_to_echo: Histogram,
    /// The frame interval the client's renderer paces streaming output by, in milliseconds (a
    /// setting in force, not a figure: never reset).
    pub frame_interval_ms: AtomicU64,
}

impl ClientMetrics {
    fn reset(&self) {
        self.render.reset();
        self.write.reset();
        self.frames_skipped.store(0, Ordering::Relaxed);
        self.bytes_to_screen.reset();
        self.keystroke_to_echo.reset();
    }
}

/// Every pane and client of the server, for `weft diag`.
#[derive(Debug, Default)]
pub struct MetricsRegistry {
    panes: Mutex<Vec<(PaneId, String, Weak<PaneMetrics>)>>,
    clients: Mutex<Vec<(ClientId, String, Weak<ClientMetrics>)>>,
    since_ns: AtomicU64,
    /// Hooks that fired and were not run: the runner was behind, or 16 ran already.
    pub dropped_hooks: AtomicU64,
    /// `weft subscribe` streams running now.
    pub subscribers: AtomicU64,
    /// Events subscribers missed because they did not read (each was told how many).
    pub dropped_subscriber_events: AtomicU64,
}

/// `weft diag --json`.
#[derive(Debug, Serialize)]
pub struct DiagReport {
    /// Seconds the figures cover.
    pub window_s: f64,
    /// Per pane.
    pub panes: Vec<PaneReport>,
    /// Per client.
    pub clients: Vec<ClientReport>,
    /// Panics in server tasks since the server started: should stay zero.
    pub panics: u64,
    /// The last panic's message, when there was one.
    pub last_panic: Option<String>,
    /// Hooks that fired and were not run (a bell rung in a loop with `alert-bell` set).
    pub dropped_hooks: u64,
    /// `weft subscribe` streams running now.
    pub subscribers: u64,
    /// Events subscribers missed because they did not read.
    pub dropped_subscriber_events: u64,
}

/// A pane's figures.
#[derive(Debug, Serialize)]
pub struct PaneReport {
    /// `%N`.
    pub id: String,
    /// Session name.
    pub session: String,
    /// Stages.
    pub pty_read: StageReport,
    /// See `pty_read`.
    pub parse: StageReport,
    /// Latencies.
    pub bytes_to_screen: LatencyReport,
    /// See `bytes_to_screen`.
    pub keystroke_to_echo: LatencyReport,
    /// Should stay zero.
    pub dropped_reply_bytes: u64,
    /// Should stay zero.
    pub dropped_events: u64,
    /// Should stay zero.
    pub abandoned_strings: u64,
    /// Output `pipe-pane` dropped for a command that did not keep up.
    pub dropped_pipe_bytes: u64,
    /// Output a recording dropped for a recorder that fell behind.
    pub dropped_record_bytes: u64,
}

/// A client's figures.
#[derive(Debug, Serialize)]
pub struct ClientReport {
    /// Client number.
    pub id: u64,
    /// Session name.
    pub session: String,
    /// Stages.
    pub render: StageReport,
    /// See `render`.
    pub write: StageReport,
    /// Renders that waited for a slow client.
    pub frames_skipped: u64,
    /// The frame interval the renderer paces streaming output by, in milliseconds.
    pub frame_interval_ms: u64,
    /// Latencies.
    pub bytes_to_screen: LatencyReport,
    /// See `bytes_to_screen`.
    pub keystroke_to_echo: LatencyReport,
}

impl MetricsRegistry {
    /// Registers a pane.
    pub fn add_pane(&self, id: PaneId, session: &str, m: &std::sync::Arc<PaneMetrics>) {
        if let Ok(mut panes) = self.panes.lock() {
            panes.retain(|(_, _, w)| w.strong_count() > 0);
            panes.push((id, session.to_string(), std::sync::Arc::downgrade(m)));
        }
    }

    /// Registers a client.
    pub fn add_client(&self, id: ClientId, session: &str, m: &std::sync::Arc<ClientMetrics>) {
        if let Ok(mut clients) = self.clients.lock() {
            clients.retain(|(_, _, w)| w.strong_count() > 0);
            clients.push((id, session.to_string(), std::sync::Arc::downgrade(m)));
        }
    }

    /// A session was renamed: its panes' and clients' figures go under the new name.
    pub fn rename_session(&self, old: &str, new: &str) {
        if let Ok(mut panes) = self.panes.lock() {
            for entry in panes.iter_mut().filter(|(_, s, _)| s == old) {
                entry.1 = new.to_string();
            }
        }
        if let Ok(mut clients) = self.clients.lock() {
            for entry in clients.iter_mut().filter(|(_, s, _)| s == old) {
                entry.1 = new.to_string();
            }
        }
    }

    /// A client now shows another session (`switch-client`): its figures count there.
    pub fn move_client(&self, id: ClientId, session: &str) {
        if let Ok(mut clients) = self.clients.lock() {
            for entry in clients.iter_mut().filter(|(c, _, _)| *c == id) {
                entry.1 = session.to_string();
            }
        }
    }

    /// The figures, optionally only for one session; `reset` starts a new window after.
    pub fn report(&self, session: Option<&str>, reset: bool) -> DiagReport {
        let window_s =
            (now_ns().saturating_sub(self.since_ns.load(Ordering::Relaxed))) as f64 / 1e9;
        let wanted = |s: &str| session.is_none_or(|want| want == s);
        let panes = self.panes.lock().map(|p| p.clone()).unwrap_or_default();
        let clients = self.clients.lock().map(|c| c.clone()).unwrap_or_default();
        let (panics, last_panic) = crate::panics::report();
        let report = DiagReport {
            window_s,
            panics,
            last_panic,
            dropped_hooks: self.dropped_hooks.load(Ordering::Relaxed),
            subscribers: self.subscribers.load(Ordering::Relaxed),
            dropped_subscriber_events: self.dropped_subscriber_events.load(Ordering::Relaxed),
            panes: panes
                .iter()
                .filter(|(_, s, _)| wanted(s))
                .filter_map(|(id, s, w)| {
                    let m = w.upgrade()?;
                    Some(PaneReport {
                        id: id.to_string(),
                        session: s.clone(),
                        pty_read: m.pty_read.report(),
                        parse: m.parse.report(),
                        bytes_to_screen: m.bytes_to_screen.report(),
                        keystroke_to_echo: m.keystroke_to_echo.report(),
                        dropped_reply_bytes: m.dropped_reply_bytes.load(Ordering::Relaxed),
                        dropped_events: m.dropped_events.load(Ordering::Relaxed),
                        abandoned_strings: m.abandoned_strings.load(Ordering::Relaxed),
                        dropped_pipe_bytes: m.dropped_pipe_bytes.load(Ordering::Relaxed),
                        dropped_record_bytes: m.dropped_record_bytes.load(Ordering::Relaxed),
                    })
                })
                .collect(),
            clients: clients
                .iter()
                .filter(|(_, s, _)| wanted(s))
                .filter_map(|(id, s, w)| {
                    let m = w.upgrade()?;
                    Some(ClientReport {
                        id: id.get(),
                        session: s.clone(),
                        render: m.render.report(),
                        write: m.write.report(),
                        frames_skipped: m.frames_skipped.load(Ordering::Relaxed),
                        frame_interval_ms: m.frame_interval_ms.load(Ordering::Relaxed),
                        bytes_to_screen: m.bytes_to_screen.report(),
                        keystroke_to_echo: m.keystroke_to_echo.report(),
                    })
                })
                .collect(),
        };
        if reset {
            self.dropped_hooks.store(0, Ordering::Relaxed);
            self.dropped_subscriber_events.store(0, Ordering::Relaxed);
            for (_, _, w) in &panes {
                if let Some(m) = w.upgrade() {
                    m.reset();
                }
            }
            for (_, _, w) in &clients {
                if let Some(m) = w.upgrade() {
                    m.reset();
                }
            }
            self.since_ns.store(now_ns(), Ordering::Relaxed);
        }
        report
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_percentiles_are_close() {
        let h = Histogram::default();
        for ms in 1..=100u64 {
            h.record(Duration::from_millis(ms));
        }
        let r = h.report();
        assert_eq!(r.count, 100);
        assert!((40.0..=55.0).contains(&r.p50_ms), "{r:?}");
        assert!((80.0..=100.0).contains(&r.p99_ms), "{r:?}");
        assert!((r.max_ms - 100.0).abs() < 0.01);
    }

    #[test]
    fn stage_shares_add_up() {
        let s = Stage::default();
        s.busy(Duration::from_millis(10));
        s.idle(Duration::from_millis(30));
        s.item(100);
        let r = s.report();
        assert!((r.busy_pct - 25.0).abs() < 0.01);
        assert_eq!((r.items, r.bytes), (1, 100));
    }
}
